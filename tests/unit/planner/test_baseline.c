/*
 * test_baseline.c: the first-fit baseline (planner/baseline.h), on
 * cases small enough to work out by hand: the scheduler's first fit
 * within a GPU (device-name order, lowest free start), across GPUs and
 * nodes, with running instances, with two models on one node, and the
 * arrival orders.
 *
 * PLAN_BASELINE_BENCH=N in the environment adds a measurement: N H100
 * (8 per node) and the mixed demand of ../shared/docs/PLANNER-NOTES.md
 * scaled to N (0.92 GPUs' worth of instances per GPU), placed in
 * random and in small-first order; it prints times and GPUs used and
 * asserts nothing about time.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "baseline.h"
#include "geometry.h"
#include "inventory.h"
#include "model.h"
#include "snapshot.h"

static struct plan_inventory *
fleet(const char *spec)
{
	struct plan_inventory	*inv;
	struct dra_err		 err;

	if (plan_inventory_from_fleet(spec, &inv, &err) != KUBE_OK)
		fail_msg("fleet %s: %s", spec, err.msg);
	return inv;
}

static int
placement_of(const struct plan_geometry *g, const char *profile, int start)
{
	int	pi = plan_profile_index(g, profile);
	size_t	i;

	for (i = 0; i < g->nplacements; i++)
		if (g->placements[i].profile == pi &&
		    g->placements[i].start == start)
			return (int)i;
	return -1;
}

/* n items of profile on geometry gi, workload = position. */
static size_t
push(struct plan_baseline_item *v, size_t at, const struct plan_inventory *inv,
    size_t gi, const char *profile, size_t n)
{
	const struct plan_geometry	*g = inv->geometries[gi];
	int				 pi = plan_profile_index(g, profile);
	size_t				 i;

	assert_true(pi >= 0);
	for (i = 0; i < n; i++, at++) {
		memset(&v[at], 0, sizeof v[at]);
		v[at].profile = profile;
		v[at].geometry = gi;
		v[at].namespace = "team-a";
		v[at].workload = at;
		v[at].memory = g->profiles[pi].memory;
	}
	return at;
}

static void
run(const struct plan_inventory *inv, const struct plan_baseline_item *v,
    size_t n, struct plan_baseline_result *r)
{
	struct dra_err	err;

	if (plan_baseline(inv, v, n, r, &err) != KUBE_OK)
		fail_msg("baseline: %s", err.msg);
	assert_int_equal(r->nplaces, n);
	assert_int_equal(r->placed + r->unplaced, n);
}

/* "node/device" of item i, or "-". */
static const char *
where(const struct plan_inventory *inv, const struct plan_baseline_result *r,
    size_t i)
{
	static char	buf[512];

	if (!r->places[i].placed)
		return "-";
	snprintf(buf, sizeof buf, "%s/%s", inv->gpus[r->places[i].gpu].node,
	    r->places[i].device);
	return buf;
}

/*
 * One H100: 3g.40gb takes start 0 (the first 3g device in name order),
 * then 1g.10gb takes 4, 5, 6; a 1g.10gb never starts at 7, so the
 * fourth needs a second GPU.
 */
static void
test_first_fit_by_hand(void **state)
{
	struct plan_inventory		*inv;
	struct plan_baseline_item	 v[5];
	struct plan_baseline_result	 r;
	size_t				 n;

	(void)state;
	inv = fleet("2xH100-80GB/2");
	n = push(v, 0, inv, 0, "3g.40gb", 1);
	n = push(v, n, inv, 0, "1g.10gb", 4);
	run(inv, v, n, &r);
	assert_string_equal(where(inv, &r, 0),
	    "h100-80gb-0/gpu-0-mig-3g40gb-9-0");
	assert_string_equal(where(inv, &r, 1),
	    "h100-80gb-0/gpu-0-mig-1g10gb-19-4");
	assert_string_equal(where(inv, &r, 2),
	    "h100-80gb-0/gpu-0-mig-1g10gb-19-5");
	assert_string_equal(where(inv, &r, 3),
	    "h100-80gb-0/gpu-0-mig-1g10gb-19-6");
	assert_string_equal(where(inv, &r, 4),
	    "h100-80gb-0/gpu-1-mig-1g10gb-19-0");
	assert_int_equal(r.places[4].gpu, 1);
	assert_int_equal(r.places[0].placement, placement_of(
	    inv->geometries[0], "3g.40gb", 0));
	assert_int_equal(r.placed, 5);
	assert_int_equal(r.unplaced, 0);
	assert_int_equal(r.gpus_used, 2);
	assert_int_equal(r.ngeometries, 1);
	assert_int_equal(r.gpus_used_by_geometry[0], 2);
	assert_int_equal(r.snapshots, 1);
	plan_baseline_result_free(&r);
	plan_inventory_free(inv);

	/* With one GPU only, the fourth 1g.10gb is not placed. */
	inv = fleet("1xH100-80GB");
	run(inv, v, n, &r);
	assert_int_equal(r.placed, 4);
	assert_int_equal(r.unplaced, 1);
	assert_false(r.places[4].placed);
	assert_null(r.places[4].device);
	assert_int_equal(r.gpus_used, 1);
	plan_baseline_result_free(&r);
	plan_inventory_free(inv);
}

/*
 * The same five instances in size orders on two H100: small first puts
 * the 1g.10gb at 0..3 and the 3g.40gb at 4, one GPU; large first is the
 * case above, two GPUs.
 */
static void
test_orders(void **state)
{
	struct plan_inventory		*inv;
	struct plan_baseline_item	 v[8], w[8];
	struct plan_baseline_result	 r;
	size_t				 n, i;
	static const size_t		 small[] = { 1, 2, 3, 4, 0 };
	static const size_t		 r1[] = { 4, 2, 3, 1, 0 };
	static const size_t		 r42[] = { 4, 1, 3, 2, 0 };
	static const size_t		 r0[] = { 4, 2, 1, 3, 0 };

	(void)state;
	inv = fleet("2xH100-80GB/2");
	n = push(v, 0, inv, 0, "3g.40gb", 1);
	n = push(v, n, inv, 0, "1g.10gb", 4);

	memcpy(w, v, sizeof v);
	plan_baseline_order(w, n, PLAN_ORDER_SMALL_FIRST, 0);
	for (i = 0; i < n; i++)
		assert_int_equal(w[i].workload, small[i]);
	run(inv, w, n, &r);
	assert_string_equal(where(inv, &r, 3),
	    "h100-80gb-0/gpu-0-mig-1g10gb-19-3");
	assert_string_equal(where(inv, &r, 4),
	    "h100-80gb-0/gpu-0-mig-3g40gb-9-4");
	assert_int_equal(r.gpus_used, 1);
	plan_baseline_result_free(&r);

	memcpy(w, v, sizeof v);
	plan_baseline_order(w, n, PLAN_ORDER_LARGE_FIRST, 0);
	for (i = 0; i < n; i++)
		assert_int_equal(w[i].workload, i);
	run(inv, w, n, &r);
	assert_int_equal(r.gpus_used, 2);
	plan_baseline_result_free(&r);

	/* Seeded shuffles: fixed permutations (xorshift64*). */
	memcpy(w, v, sizeof v);
	plan_baseline_order(w, n, PLAN_ORDER_RANDOM, 1);
	for (i = 0; i < n; i++)
		assert_int_equal(w[i].workload, r1[i]);
	memcpy(w, v, sizeof v);
	plan_baseline_order(w, n, PLAN_ORDER_RANDOM, 42);
	for (i = 0; i < n; i++)
		assert_int_equal(w[i].workload, r42[i]);
	memcpy(w, v, sizeof v);
	plan_baseline_order(w, n, PLAN_ORDER_RANDOM, 0);
	for (i = 0; i < n; i++)
		assert_int_equal(w[i].workload, r0[i]);
	/* 1g.10gb first (workload 4), the 3g.40gb last: one GPU. */
	memcpy(w, v, sizeof v);
	plan_baseline_order(w, n, PLAN_ORDER_RANDOM, 1);
	run(inv, w, n, &r);
	assert_int_equal(r.gpus_used, 1);
	plan_baseline_result_free(&r);
	memcpy(w, v, sizeof v);
	plan_baseline_order(w, n, PLAN_ORDER_GIVEN, 1);
	for (i = 0; i < n; i++)
		assert_int_equal(w[i].workload, i);
	plan_inventory_free(inv);
}

/*
 * Running instances are held: on inv-dynamic.yaml gpu-0 runs 3g.40gb@0
 * and 1g.10gb@4 (gpu-1's admin-access claim holds nothing).
 */
static void
test_running(void **state)
{
	struct kube_snapshot		*s;
	struct plan_inventory		*inv;
	struct plan_baseline_item	 v[4];
	struct plan_baseline_result	 r;
	struct dra_err			 err;
	size_t				 n;

	(void)state;
	s = kube_snapshot_new();
	if (kube_snapshot_load_file(s, DATA_DIR "/data/inv-dynamic.yaml",
	    &err) != KUBE_OK)
		fail_msg("%s", err.msg);
	kube_snapshot_finish(s);
	if (plan_inventory_from_snapshot(s, &inv, NULL, &err) != KUBE_OK)
		fail_msg("%s", err.msg);
	n = push(v, 0, inv, 0, PLAN_WHOLE_GPU, 1);
	n = push(v, n, inv, 0, "3g.40gb", 1);
	n = push(v, n, inv, 0, "1g.10gb", 1);
	n = push(v, n, inv, 0, "4g.40gb", 1);
	run(inv, v, n, &r);
	/* gpu-0 is partly used: the whole GPU is gpu-1. */
	assert_string_equal(where(inv, &r, 0), "gpu-node-1/gpu-1");
	/* 3g.40gb: @0 runs, @4 needs slice 4, which 1g.10gb@4 holds. */
	assert_string_equal(where(inv, &r, 1), "-");
	/* 1g.10gb: 0..3 under the 3g, 4 held: 5. */
	assert_string_equal(where(inv, &r, 2),
	    "gpu-node-1/gpu-0-mig-1g10gb-19-5");
	assert_string_equal(where(inv, &r, 3), "-");
	assert_int_equal(r.unplaced, 2);
	assert_int_equal(r.gpus_used, 2);
	plan_baseline_result_free(&r);
	/* No items: the running instances alone use gpu-0. */
	run(inv, v, 0, &r);
	assert_int_equal(r.gpus_used, 1);
	plan_baseline_result_free(&r);
	plan_inventory_free(inv);
	kube_snapshot_free(s);
}

/*
 * Four nodes of one H100: first fit across nodes, and the cursor: a
 * node that refused a profile is not asked again for it.
 */
static void
test_nodes_and_cursor(void **state)
{
	struct plan_inventory		*inv;
	struct plan_baseline_item	 v[5];
	struct plan_baseline_result	 r;
	size_t				 n;

	(void)state;
	inv = fleet("4xH100-80GB/1");
	n = push(v, 0, inv, 0, "7g.80gb", 3);
	n = push(v, n, inv, 0, "1g.10gb", 2);
	run(inv, v, n, &r);
	assert_string_equal(where(inv, &r, 0),
	    "h100-80gb-0/gpu-0-mig-7g80gb-0-0");
	assert_string_equal(where(inv, &r, 1),
	    "h100-80gb-1/gpu-0-mig-7g80gb-0-0");
	assert_string_equal(where(inv, &r, 2),
	    "h100-80gb-2/gpu-0-mig-7g80gb-0-0");
	assert_string_equal(where(inv, &r, 3),
	    "h100-80gb-3/gpu-0-mig-1g10gb-19-0");
	assert_string_equal(where(inv, &r, 4),
	    "h100-80gb-3/gpu-0-mig-1g10gb-19-1");
	assert_int_equal(r.gpus_used, 4);
	/* 7g: 1, 2, 2 tries; 1g: 4, then 1 (nodes 0-2 are skipped). */
	assert_int_equal(r.attempts, 10);
	/* Every node has the same GPUs: one snapshot for all. */
	assert_int_equal(r.snapshots, 1);
	plan_baseline_result_free(&r);
	plan_inventory_free(inv);
}

static void
rename_gpu(struct plan_gpu *g, const char *node, const char *name)
{
	char	*n = strdup(node), *m = strdup(name);

	free(g->node);
	free(g->name);
	g->node = n;
	g->name = m;
}

/*
 * A100 80GB and H100 on one node both have 3g.40gb: an H100 instance
 * asks for the H100's productName too and skips the A100 (gpu-0).
 */
static void
test_two_models_one_node(void **state)
{
	struct plan_inventory		*inv;
	struct plan_baseline_item	 v[2];
	struct plan_baseline_result	 r;
	size_t				 n;

	(void)state;
	inv = fleet("1xA100-80GB,1xH100-80GB");
	assert_string_equal(inv->gpus[1].node, "h100-80gb-0");
	rename_gpu(&inv->gpus[1], "a100-80gb-0", "gpu-1");
	n = push(v, 0, inv, 1, "3g.40gb", 1);
	n = push(v, n, inv, 0, "3g.40gb", 1);
	assert_string_equal(inv->geometries[1]->model, "H100-80GB");
	run(inv, v, n, &r);
	assert_string_equal(where(inv, &r, 0),
	    "a100-80gb-0/gpu-1-mig-3g40gb-9-0");
	assert_string_equal(where(inv, &r, 1),
	    "a100-80gb-0/gpu-0-mig-3g40gb-9-0");
	assert_int_equal(r.gpus_used_by_geometry[0], 1);
	assert_int_equal(r.gpus_used_by_geometry[1], 1);
	plan_baseline_result_free(&r);
	plan_inventory_free(inv);
}

/*
 * More node shapes than PLAN_BASELINE_MAX_SHAPES (each node's GPU has
 * its own name): shapes are evicted and rebuilt, and a node's instances
 * survive it (the 3g.40gb lands at 4, beside the 4g.40gb at 0).
 */
static void
test_shape_eviction(void **state)
{
	struct plan_inventory		*inv;
	struct plan_baseline_item	*v;
	struct plan_baseline_result	 r;
	char				 name[32], want[128];
	size_t				 n, i;
	size_t				 nn = PLAN_BASELINE_MAX_SHAPES + 6;

	(void)state;
	snprintf(name, sizeof name, "%zuxH100-80GB/1", nn);
	inv = fleet(name);
	for (i = 0; i < inv->ngpus; i++) {
		snprintf(name, sizeof name, "gpu-%zu", i);
		rename_gpu(&inv->gpus[i], inv->gpus[i].node, name);
	}
	v = calloc(2 * nn, sizeof *v);
	n = push(v, 0, inv, 0, "4g.40gb", nn);
	n = push(v, n, inv, 0, "3g.40gb", nn);
	run(inv, v, n, &r);
	assert_int_equal(r.placed, 2 * nn);
	assert_int_equal(r.gpus_used, nn);
	assert_true(r.snapshots > nn);
	for (i = 0; i < nn; i++) {
		snprintf(want, sizeof want, "%s/gpu-%zu-mig-3g40gb-9-4",
		    inv->gpus[i].node, i);
		assert_string_equal(where(inv, &r, nn + i), want);
	}
	plan_baseline_result_free(&r);
	free(v);
	plan_inventory_free(inv);
}

static void
test_errors(void **state)
{
	struct plan_inventory		*inv;
	struct plan_baseline_item	 v[1];
	struct plan_baseline_result	 r;
	struct dra_err			 err;

	(void)state;
	inv = fleet("1xH100-80GB");
	push(v, 0, inv, 0, "1g.10gb", 1);
	v[0].profile = "5g.50gb";
	assert_int_equal(plan_baseline(inv, v, 1, &r, &err), KUBE_E_CONFIG);
	assert_string_equal(err.msg, "baseline: item 0: profile \"5g.50gb\" "
	    "is not a profile of H100-80GB");
	plan_baseline_result_free(&r);
	v[0].profile = "1g.10gb";
	v[0].geometry = 3;
	assert_int_equal(plan_baseline(inv, v, 1, &r, &err), KUBE_E_CONFIG);
	assert_string_equal(err.msg, "baseline: item 0: geometry 3 is out of "
	    "range");
	plan_baseline_result_free(&r);
	plan_baseline_result_free(NULL);
	plan_inventory_free(inv);
}

static double
now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* PLANNER-NOTES.md's mix, per 1,000 GPUs (optimum 920 GPUs). */
static void
test_bench(void **state)
{
	static const struct {
		const char	*profile;
		size_t		 per1000;
	} mix[] = {
		{ "1g.10gb", 1400 }, { "1g.20gb", 300 }, { "2g.20gb", 700 },
		{ "3g.40gb", 600 }, { "4g.40gb", 150 }, { "7g.80gb", 120 },
	};
	struct plan_inventory		*inv;
	struct plan_baseline_item	*v;
	struct plan_baseline_result	 r;
	const char			*env = getenv("PLAN_BASELINE_BENCH");
	char				 spec[64];
	size_t				 ngpu, n = 0, i, cap;
	double				 t0;
	int				 o;

	(void)state;
	if (env == NULL || (ngpu = strtoul(env, NULL, 10)) == 0) {
		skip();
		return;
	}
	snprintf(spec, sizeof spec, "%zuxH100-80GB", ngpu);
	t0 = now();
	inv = fleet(spec);
	print_message("fleet %s: %.3f s\n", spec, now() - t0);
	for (i = 0, cap = 0; i < 6; i++)
		cap += mix[i].per1000 * ngpu / 1000;
	v = calloc(cap + 1, sizeof *v);
	for (o = 0; o < 3; o++) {
		/* The mix in table order, then the order under test. */
		for (i = 0, n = 0; i < 6; i++)
			n = push(v, n, inv, 0, mix[i].profile,
			    mix[i].per1000 * ngpu / 1000);
		plan_baseline_order(v, n, o == 0 ? PLAN_ORDER_RANDOM : o == 1 ?
		    PLAN_ORDER_SMALL_FIRST : PLAN_ORDER_LARGE_FIRST, 1);
		t0 = now();
		run(inv, v, n, &r);
		print_message("%s, %zu instances: %.3f s, %zu GPUs used, "
		    "%zu unplaced, %llu allocations, %zu snapshots\n",
		    o == 0 ? "random (seed 1)" : o == 1 ? "small first" :
		    "large first", n, now() - t0, r.gpus_used, r.unplaced,
		    (unsigned long long)r.attempts, r.snapshots);
		plan_baseline_result_free(&r);
	}
	free(v);
	plan_inventory_free(inv);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_fit_by_hand),
		cmocka_unit_test(test_orders),
		cmocka_unit_test(test_running),
		cmocka_unit_test(test_nodes_and_cursor),
		cmocka_unit_test(test_two_models_one_node),
		cmocka_unit_test(test_shape_eviction),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_bench),
	};

	/* A measurement runs alone, so its memory is its own. */
	if (getenv("PLAN_BASELINE_BENCH") != NULL)
		cmocka_set_test_filter("test_bench");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
