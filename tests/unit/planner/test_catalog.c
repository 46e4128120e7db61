/*
 * test_catalog.c: unit tests of the GPU model catalogue
 * (planner/catalog.h).
 *
 *  - Every model builds; profile and placement counts per model
 *    (NVIDIA-MIG.md 2.1, 2.3); placements in device-name order; each
 *    placement's memory slices are [start, start + size); the whole
 *    GPU consumes every counter's capacity.
 *  - H100-80GB against bench/gen/gen_fleet.c: the same 26 device names
 *    per GPU in the same order (gpu-0 and 25 MIG devices), the same 15
 *    counters with the same capacities (gen_total[]) and per-device
 *    consumption (gen_prof[]).
 *  - Counters only where every value is known, unknown SM and MiB are
 *    0, names, aliases, the unknown-model message, productName rules.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "catalog.h"
#include "geometry.h"

static struct plan_geometry *
build(const char *model)
{
	struct plan_geometry	*g = NULL;
	struct dra_err		 err;

	dra_err_clear(&err);
	assert_int_equal(plan_catalog_geometry(model, &g, &err), KUBE_OK);
	assert_non_null(g);
	return g;
}

static int
counter(const struct plan_geometry *g, const char *name)
{
	size_t	i;

	for (i = 0; i < g->ncounters; i++) {
		if (strcmp(g->counters[i], name) == 0)
			return (int)i;
	}
	return -1;
}

/* Placements of the profile named name. */
static size_t
nplacements_of(const struct plan_geometry *g, const char *name)
{
	int	p = plan_profile_index(g, name);
	size_t	i, n = 0;

	assert_true(p >= 0);
	for (i = 0; i < g->nplacements; i++)
		n += g->placements[i].profile == p;
	return n;
}

static void
test_names(void **state)
{
	static const char *const want[] = {
		"A30-24GB", "A100-40GB", "A100-80GB", "H100-80GB", "H100-NVL",
		"H200", "B200", "GB200", "RTX-PRO-6000"
	};
	size_t	i;

	(void)state;
	assert_int_equal(plan_catalog_count(), 9);
	for (i = 0; i < 9; i++)
		assert_string_equal(plan_catalog_name(i), want[i]);
	assert_null(plan_catalog_name(9));
}

/* Structure every model shares: order, slices, whole GPU, counts. */
static void
test_every_model(void **state)
{
	struct plan_geometry	*g;
	const struct plan_profile *pr;
	const struct plan_placement *pl;
	char			 a[128], b[128];
	size_t			 m, i, c;
	int			 whole, s, nwhole;

	(void)state;
	for (m = 0; m < plan_catalog_count(); m++) {
		g = build(plan_catalog_name(m));
		assert_string_equal(g->model, plan_catalog_name(m));
		assert_string_equal(g->driver, "gpu.nvidia.com");
		assert_int_equal(g->derived, 0);
		assert_non_null(g->source);
		assert_string_equal(plan_catalog_for_product(g->product),
		    g->model);
		if (g->memory_slices == 8) {
			assert_int_equal(g->compute_slices, 7);
			assert_int_equal(g->nprofiles, 8);
			assert_int_equal(g->nplacements, 26);
		} else {
			assert_int_equal(g->memory_slices, 4);
			assert_int_equal(g->compute_slices, 4);
		}
		/* The memory-slice counters come first, capacity 1. */
		for (s = 0; s < g->memory_slices; s++) {
			snprintf(a, sizeof a, "memory-slice-%d", s);
			assert_string_equal(g->counters[s], a);
			assert_int_equal(g->capacity[s], 1);
		}
		assert_true(counter(g, "ofa-engines") >= 0);
		assert_int_equal(g->capacity[counter(g, "ofa-engines")], 1);

		whole = plan_profile_index(g, PLAN_WHOLE_GPU);
		assert_int_equal(whole, (int)g->nprofiles - 1);
		pr = &g->profiles[whole];
		assert_int_equal(pr->whole, 1);
		assert_int_equal(pr->compute, g->compute_slices);
		assert_int_equal(pr->memory, g->memory_slices);
		assert_int_equal(pr->gi_id, -1);
		assert_int_equal(pr->sm, g->sm);
		assert_int_equal(pr->memory_mib, g->memory_mib);

		nwhole = 0;
		for (i = 0; i < g->nplacements; i++) {
			pl = &g->placements[i];
			pr = &g->profiles[pl->profile];
			/* Device-name order, gpu-0 first. */
			assert_non_null(plan_device_name(g, "gpu-0", (int)i, b,
			    sizeof b));
			if (i == 0)
				assert_string_equal(b, "gpu-0");
			else
				assert_true(strcmp(a, b) < 0);
			memcpy(a, b, sizeof a);
			if (pr->whole) {
				nwhole++;
				for (c = 0; c < g->ncounters; c++)
					assert_int_equal(pl->use[c],
					    g->capacity[c]);
				continue;
			}
			assert_int_equal(pr->whole, 0);
			assert_true(pr->gi_id >= 0);
			for (s = 0; s < g->memory_slices; s++)
				assert_int_equal(pl->use[s],
				    s >= pl->start &&
				    s < pl->start + pr->memory);
			assert_int_equal(pl->use[counter(g, "ofa-engines")],
			    pr->me || pr->memory == g->memory_slices);
			for (c = 0; c < g->ncounters; c++)
				assert_true(pl->use[c] <= g->capacity[c]);
		}
		assert_int_equal(nwhole, 1);
		plan_geometry_free(g);
	}
	plan_geometry_free(NULL);
}

/* Profiles, GI IDs and placement counts of NVIDIA-MIG.md 2.1 / 2.3. */
static void
test_profiles(void **state)
{
	static const struct {
		const char	*model;
		const char	*names[8];
		int		 gi[8];
		size_t		 nplace[8];
	} want[] = {
		{ "A30-24GB", { "1g.6gb", "1g.6gb+me", "2g.12gb",
		    "2g.12gb+me", "4g.24gb", "gpu" },
		    { 14, 21, 5, 6, 0, -1 }, { 4, 4, 2, 2, 1, 1 } },
		{ "A100-40GB", { "1g.5gb", "1g.5gb+me", "1g.10gb", "2g.10gb",
		    "3g.20gb", "4g.20gb", "7g.40gb", "gpu" },
		    { 19, 20, 15, 14, 9, 5, 0, -1 },
		    { 7, 7, 4, 3, 2, 1, 1, 1 } },
		{ "A100-80GB", { "1g.10gb", "1g.10gb+me", "1g.20gb",
		    "2g.20gb", "3g.40gb", "4g.40gb", "7g.80gb", "gpu" },
		    { 19, 20, 15, 14, 9, 5, 0, -1 },
		    { 7, 7, 4, 3, 2, 1, 1, 1 } },
		{ "H100-80GB", { "1g.10gb", "1g.10gb+me", "1g.20gb",
		    "2g.20gb", "3g.40gb", "4g.40gb", "7g.80gb", "gpu" },
		    { 19, 20, 15, 14, 9, 5, 0, -1 },
		    { 7, 7, 4, 3, 2, 1, 1, 1 } },
		{ "H100-NVL", { "1g.12gb", "1g.12gb+me", "1g.24gb",
		    "2g.24gb", "3g.47gb", "4g.47gb", "7g.94gb", "gpu" },
		    { 19, 20, 15, 14, 9, 5, 0, -1 },
		    { 7, 7, 4, 3, 2, 1, 1, 1 } },
		{ "H200", { "1g.18gb", "1g.18gb+me", "1g.35gb", "2g.35gb",
		    "3g.71gb", "4g.71gb", "7g.141gb", "gpu" },
		    { 19, 20, 15, 14, 9, 5, 0, -1 },
		    { 7, 7, 4, 3, 2, 1, 1, 1 } },
		{ "B200", { "1g.23gb", "1g.23gb+me", "1g.45gb", "2g.45gb",
		    "3g.90gb", "4g.90gb", "7g.180gb", "gpu" },
		    { 19, 20, 15, 14, 9, 5, 0, -1 },
		    { 7, 7, 4, 3, 2, 1, 1, 1 } },
		{ "GB200", { "1g.23gb", "1g.23gb+me", "1g.47gb", "2g.47gb",
		    "3g.93gb", "4g.93gb", "7g.186gb", "gpu" },
		    { 19, 20, 15, 14, 9, 5, 0, -1 },
		    { 7, 7, 4, 3, 2, 1, 1, 1 } },
		{ "RTX-PRO-6000", { "1g.24gb", "1g.24gb+me", "2g.48gb",
		    "4g.96gb", "gpu" },
		    { 14, 21, 5, 0, -1 }, { 4, 4, 2, 1, 1 } },
	};
	struct plan_geometry	*g;
	size_t			 m, i, total;

	(void)state;
	for (m = 0; m < sizeof want / sizeof want[0]; m++) {
		g = build(want[m].model);
		total = 0;
		for (i = 0; i < 8 && want[m].names[i] != NULL; i++) {
			assert_string_equal(g->profiles[i].name,
			    want[m].names[i]);
			assert_int_equal(g->profiles[i].gi_id, want[m].gi[i]);
			assert_int_equal(nplacements_of(g, want[m].names[i]),
			    want[m].nplace[i]);
			assert_int_equal(g->profiles[i].me,
			    strstr(want[m].names[i], "+me") != NULL);
			total += want[m].nplace[i];
		}
		assert_int_equal(i, g->nprofiles);
		assert_int_equal(total, g->nplacements);
		plan_geometry_free(g);
	}
}

/*
 * H100-80GB is what bench/gen/gen_fleet.c publishes per GPU: its
 * gen_prof[] (SM, CE, DEC, ENC, JPEG, OFA, MiB per profile) and
 * gen_total[] (the counter set and the full GPU), the device names of
 * gen_mig_name() and their order.
 */
static void
test_h100_matches_gen_fleet(void **state)
{
	static const char *const ctr[] = {
		"multiprocessors", "copy-engines", "decoders", "encoders",
		"jpeg-engines", "ofa-engines", "memory"
	};
	static const int64_t total[7] = { 132, 8, 7, 0, 7, 1, 81152 };
	static const struct {
		const char	*dname;
		int		 giid, size;
		unsigned	 starts;
		int64_t		 v[7];
	} prof[] = {
		{ "1g10gb", 19, 1, 0x7f, { 16, 1, 1, 0, 1, 0, 9984 } },
		{ "1g10gb-me", 20, 1, 0x7f, { 16, 1, 1, 0, 1, 1, 9984 } },
		{ "1g20gb", 15, 2, 0x55, { 26, 1, 1, 0, 1, 0, 20096 } },
		{ "2g20gb", 14, 2, 0x15, { 32, 2, 2, 0, 2, 0, 20096 } },
		{ "3g40gb", 9, 4, 0x11, { 60, 3, 3, 0, 3, 0, 40448 } },
		{ "4g40gb", 5, 4, 0x01, { 64, 4, 4, 0, 4, 0, 40448 } },
		{ "7g80gb", 0, 8, 0x01, { 132, 8, 7, 0, 7, 1, 81152 } },
	};
	struct plan_geometry	*g;
	char			 want[64], got[64];
	size_t			 i, k, n;
	int			 s, c;

	(void)state;
	g = build("H100-80GB");
	assert_string_equal(g->product, "NVIDIA H100 80GB HBM3");
	assert_int_equal(g->ncounters, 15);
	assert_int_equal(g->nplacements, 26);
	assert_int_equal(g->sm, 132);
	assert_int_equal(g->memory_mib, 81152);
	for (k = 0; k < 7; k++) {
		c = counter(g, ctr[k]);
		assert_true(c >= 8);
		assert_int_equal(g->capacity[c], total[k]);
	}
	/* gen_fleet emits gpu-0, then each profile's starts in order. */
	assert_non_null(plan_device_name(g, "gpu-0", 0, got, sizeof got));
	assert_string_equal(got, "gpu-0");
	n = 1;
	for (i = 0; i < sizeof prof / sizeof prof[0]; i++) {
		for (s = 0; s < 8; s++) {
			if ((prof[i].starts & (1u << s)) == 0)
				continue;
			snprintf(want, sizeof want, "gpu-0-mig-%s-%d-%d",
			    prof[i].dname, prof[i].giid, s);
			assert_non_null(plan_device_name(g, "gpu-0", (int)n,
			    got, sizeof got));
			assert_string_equal(got, want);
			assert_int_equal(g->placements[n].start, s);
			for (k = 0; k < 7; k++)
				assert_int_equal(g->placements[n].use[
				    counter(g, ctr[k])], prof[i].v[k]);
			for (c = 0; c < 8; c++)
				assert_int_equal(g->placements[n].use[c],
				    c >= s && c < s + prof[i].size);
			n++;
		}
	}
	assert_int_equal(n, 26);
	plan_geometry_free(g);
}

/* Engine counters only where every profile's value is known. */
static void
test_counters_known_only(void **state)
{
	static const struct {
		const char	*model;
		const char	*extra;	/* after the slices, in order */
	} want[] = {
		{ "A30-24GB", "multiprocessors,ofa-engines" },
		{ "A100-40GB", "multiprocessors,ofa-engines" },
		{ "A100-80GB", "multiprocessors,ofa-engines" },
		{ "H100-80GB", "multiprocessors,copy-engines,decoders,"
		    "encoders,jpeg-engines,ofa-engines,memory" },
		{ "H100-NVL", "ofa-engines" },
		{ "H200", "ofa-engines" },
		{ "B200", "ofa-engines" },
		{ "GB200", "ofa-engines" },
		{ "RTX-PRO-6000", "ofa-engines" },
	};
	struct plan_geometry	*g;
	char			 got[256];
	size_t			 m, c, n;

	(void)state;
	for (m = 0; m < sizeof want / sizeof want[0]; m++) {
		g = build(want[m].model);
		got[0] = '\0';
		n = 0;
		for (c = (size_t)g->memory_slices; c < g->ncounters; c++)
			n += (size_t)snprintf(got + n, sizeof got - n, "%s%s",
			    n > 0 ? "," : "", g->counters[c]);
		assert_string_equal(got, want[m].extra);
		plan_geometry_free(g);
	}
	g = build("A100-40GB");
	assert_int_equal(g->capacity[counter(g, "multiprocessors")], 98);
	plan_geometry_free(g);
	g = build("A30-24GB");
	assert_int_equal(g->capacity[counter(g, "multiprocessors")], 56);
	plan_geometry_free(g);
}

/* SM and MiB: the sources' figures, 0 where they give none. */
static void
test_values(void **state)
{
	static const struct {
		const char	*model, *profile;
		int		 sm;
		int64_t		 mib;
	} want[] = {
		{ "A30-24GB", "1g.6gb", 14, 0 },
		{ "A30-24GB", "2g.12gb", 28, 11971 },	/* 11.69 GiB */
		{ "A30-24GB", "4g.24gb", 56, 24064 },	/* 23.50 GiB */
		{ "A100-40GB", "1g.5gb", 14, 4864 },
		{ "A100-40GB", "1g.10gb", 14, 9856 },
		{ "A100-40GB", "2g.10gb", 28, 0 },
		{ "A100-40GB", "3g.20gb", 42, 19968 },
		{ "A100-40GB", "7g.40gb", 98, 40192 },
		{ "A100-40GB", "gpu", 98, 40192 },
		{ "A100-80GB", "1g.10gb", 14, 9728 },	/* 9.50, lower */
		{ "A100-80GB", "1g.20gb", 14, 19968 },
		{ "A100-80GB", "4g.40gb", 56, 0 },
		{ "A100-80GB", "7g.80gb", 98, 80384 },
		{ "H100-80GB", "1g.10gb+me", 16, 9984 },
		{ "H100-80GB", "1g.20gb", 26, 20096 },
		{ "H100-80GB", "2g.20gb", 32, 20096 },
		{ "H100-80GB", "4g.40gb", 64, 40448 },
		{ "H100-NVL", "1g.12gb", 16, 11008 },	/* 10.75 GiB */
		{ "H100-NVL", "3g.47gb", 0, 47493 },	/* 46.38 GiB */
		{ "H100-NVL", "7g.94gb", 0, 0 },
		{ "H100-NVL", "gpu", 0, 0 },
		{ "H200", "1g.18gb", 16, 16384 },
		{ "H200", "4g.71gb", 64, 71168 },
		{ "H200", "7g.141gb", 0, 0 },
		{ "B200", "1g.45gb", 30, 45312 },
		{ "B200", "2g.45gb", 36, 0 },
		{ "B200", "3g.90gb", 0, 0 },
		{ "GB200", "1g.47gb", 32, 46592 },
		{ "GB200", "2g.47gb", 38, 0 },
		{ "RTX-PRO-6000", "1g.24gb", 46, 23675 },	/* 23.12 */
		{ "RTX-PRO-6000", "2g.48gb", 94, 47616 },
		{ "RTX-PRO-6000", "4g.96gb", 0, 0 },
	};
	struct plan_geometry	*g;
	size_t			 i;
	int			 p;

	(void)state;
	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		g = build(want[i].model);
		p = plan_profile_index(g, want[i].profile);
		assert_true(p >= 0);
		assert_int_equal(g->profiles[p].sm, want[i].sm);
		assert_int_equal(g->profiles[p].memory_mib, want[i].mib);
		plan_geometry_free(g);
	}
}

static void
test_aliases(void **state)
{
	static const struct {
		const char	*in, *model;
	} want[] = {
		{ "H100", "H100-80GB" },
		{ "h100-80gb", "H100-80GB" },
		{ "A100-40GB", "A100-40GB" },
		{ "a100-80gb", "A100-80GB" },
		{ "A30", "A30-24GB" },
		{ "H100-94GB", "H100-NVL" },
		{ "h100-nvl", "H100-NVL" },
		{ "H200-141GB", "H200" },
		{ "B200-180GB", "B200" },
		{ "GB200-186GB", "GB200" },
		{ "rtx-pro-6000-blackwell", "RTX-PRO-6000" },
		{ "RTXPRO6000", "RTX-PRO-6000" },
		/* productNames are read too */
		{ "NVIDIA H100 80GB HBM3", "H100-80GB" },
		{ "A100-SXM4-40GB", "A100-40GB" },
	};
	struct plan_geometry	*g;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		g = build(want[i].in);
		assert_string_equal(g->model, want[i].model);
		assert_string_equal(plan_catalog_canonical(want[i].in),
		    want[i].model);
		plan_geometry_free(g);
	}
	assert_null(plan_catalog_canonical("A100"));
	assert_null(plan_catalog_canonical(NULL));
}

static void
test_unknown(void **state)
{
	static const char *const bad[] = { "A100", "H20", "T4", "", "H100X" };
	struct plan_geometry	*g;
	struct dra_err		 err;
	char			 want[256];
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		g = (struct plan_geometry *)&err;	/* must be reset */
		dra_err_clear(&err);
		assert_int_equal(plan_catalog_geometry(bad[i], &g, &err),
		    KUBE_E_CONFIG);
		assert_null(g);
		assert_int_equal(err.code, KUBE_E_CONFIG);
		snprintf(want, sizeof want, "unknown GPU model \"%s\" "
		    "(known: A30-24GB, A100-40GB, A100-80GB, H100-80GB, "
		    "H100-NVL, H200, B200, GB200, RTX-PRO-6000)", bad[i]);
		assert_string_equal(err.msg, want);
	}
	assert_int_equal(plan_catalog_geometry("nope", &g, NULL),
	    KUBE_E_CONFIG);
}

static void
test_products(void **state)
{
	static const struct {
		const char	*product, *model;
	} want[] = {
		{ "NVIDIA H100 80GB HBM3", "H100-80GB" },
		{ "NVIDIA H100 PCIe", "H100-80GB" },
		{ "nvidia h100 80gb hbm3", "H100-80GB" },
		{ "NVIDIA H100 NVL", "H100-NVL" },
		{ "NVIDIA H100 PCIe 94GB", "H100-NVL" },
		{ "NVIDIA H100 96GB HBM3", NULL },
		{ "NVIDIA GH200 480GB", NULL },
		{ "NVIDIA H200", "H200" },
		{ "NVIDIA H200 NVL", "H200" },
		{ "NVIDIA A100-SXM4-40GB", "A100-40GB" },
		{ "NVIDIA A100-PCIE-40GB", "A100-40GB" },
		{ "NVIDIA A100-SXM4-80GB", "A100-80GB" },
		{ "NVIDIA A100 80GB PCIe", "A100-80GB" },
		{ "NVIDIA A100", NULL },
		{ "NVIDIA B200", "B200" },
		{ "NVIDIA GB200", "GB200" },
		{ "NVIDIA A30", "A30-24GB" },
		{ "NVIDIA RTX A3000 Laptop GPU", NULL },
		{ "NVIDIA RTX PRO 6000 Blackwell Server Edition",
		    "RTX-PRO-6000" },
		{ "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition",
		    "RTX-PRO-6000" },
		{ "NVIDIA RTX PRO 5000 Blackwell", NULL },
		{ "NVIDIA B300 SXM6 AC", NULL },
		{ "Tesla T4", NULL },
		{ "", NULL },
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		if (want[i].model == NULL)
			assert_null(plan_catalog_for_product(want[i].product));
		else
			assert_string_equal(
			    plan_catalog_for_product(want[i].product),
			    want[i].model);
	}
	assert_null(plan_catalog_for_product(NULL));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_every_model),
		cmocka_unit_test(test_profiles),
		cmocka_unit_test(test_h100_matches_gen_fleet),
		cmocka_unit_test(test_counters_known_only),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_aliases),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_products),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
