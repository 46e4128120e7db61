/*
 * catalog.c: the GPU model catalogue (catalog.h).
 *
 * Each model is a row of static data: its family (the profile roles
 * with their slices and start positions, NVIDIA-MIG.md 2.1 for the
 * 7-compute / 8-memory family, 2.3 for the 4/4 family) and per role
 * the profile name, GI profile ID, SMs, memory and engines where the
 * sources give them.  cat_build() turns a row into a struct
 * plan_geometry the way the driver publishes a GPU with DynamicMIG
 * (NVIDIA-MIG.md 1.6): memory-slice counters, engine counters where
 * every value is known, one placement per (profile, start) and the
 * whole GPU consuming everything, sorted by device name.
 *
 * Memory figures come in two kinds: exact MiB (NVML, a ResourceSlice,
 * gen_fleet.c, the go-nvml mock cited by NVIDIA-MIG.md) and the GiB
 * that nvidia-smi prints, rounded to 0.01 GiB; the latter are kept
 * as printed (hundredths) and converted to the nearest MiB, which can
 * be up to 5 MiB off.  Only exact figures ever feed the memory
 * counter.  docs/GPU-CATALOG.md lists every number with its source.
 */
#include "catalog.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "geometry.h"
#include "xmalloc.h"

/* Engine counters, in the order a geometry lists them after slices. */
enum {
	CAT_SM = 0,
	CAT_CE,
	CAT_DEC,
	CAT_ENC,
	CAT_JPEG,
	CAT_OFA,
	CAT_MEM,
	CAT_NENG
};

/* The counter names DynamicMIG publishes (NVIDIA-MIG.md 1.6). */
static const char *const cat_engine_names[CAT_NENG] = {
	"multiprocessors", "copy-engines", "decoders", "encoders",
	"jpeg-engines", "ofa-engines", "memory"
};

/* A profile role of a family: slices and start positions. */
struct cat_role {
	int		 compute;	/* compute slices */
	int		 memory;	/* memory slices */
	unsigned	 starts;	/* bit k: may start at memory slice k */
	int		 me;		/* media extensions: takes the OFA */
	int		 full;		/* the full-size profile (7g, A30 4g) */
};

/* The 7-compute / 8-memory family, NVIDIA-MIG.md 2.1. */
static const struct cat_role cat_roles78[] = {
	{ 1, 1, 0x7f, 0, 0 },	/* 1g base, GI 19: {0..6}:1 */
	{ 1, 1, 0x7f, 1, 0 },	/* 1g+me, GI 20: {0..6}:1 */
	{ 1, 2, 0x55, 0, 0 },	/* 1g double memory, GI 15: {0,2,4,6}:2 */
	{ 2, 2, 0x15, 0, 0 },	/* 2g, GI 14: {0,2,4}:2 */
	{ 3, 4, 0x11, 0, 0 },	/* 3g, GI 9: {0,4}:4 */
	{ 4, 4, 0x01, 0, 0 },	/* 4g, GI 5: {0}:4 */
	{ 7, 8, 0x01, 0, 1 }	/* 7g, GI 0: {0}:8 */
};

/*
 * The 4-compute / 4-memory family, NVIDIA-MIG.md 2.3: A30 gives the
 * base placements; the +me ones are taken to be the base's [inf], and
 * RTX PRO 6000 has all of them [inf] as the A30's.
 */
static const struct cat_role cat_roles44[] = {
	{ 1, 1, 0x0f, 0, 0 },	/* 1g: {0,1,2,3}:1 */
	{ 1, 1, 0x0f, 1, 0 },	/* 1g+me */
	{ 2, 2, 0x05, 0, 0 },	/* 2g: {0,2}:2 */
	{ 2, 2, 0x05, 1, 0 },	/* 2g+me (A30) */
	{ 4, 4, 0x01, 0, 1 }	/* 4g: {0}:4 */
};

#define CAT_MAXROLE	7

/* What the sources give for one profile of one model. */
struct cat_profile {
	const char	*name;		/* NULL: the model has no such role */
	int		 gi_id;		/* GI profile ID */
	int		 sm;		/* multiprocessors; 0 unknown */
	int64_t		 mib;		/* exact MiB; 0 unknown */
	int		 gib100;	/* nvidia-smi GiB x 100; 0 unknown */
	int		 eng[4];	/* copy engines, decoders, encoders,
					   JPEG engines; -1 unknown */
};

#define CAT_NOENG	{ -1, -1, -1, -1 }

struct cat_model {
	const char		*name;
	const char		*aliases[3];
	const char		*product;	/* the usual productName */
	int			 compute_slices;
	int			 memory_slices;
	const struct cat_role	*roles;
	size_t			 nroles;
	struct cat_profile	 p[CAT_MAXROLE];	/* one per role */
	const char		*source;
};

#define CAT_78	7, 8, cat_roles78, 7
#define CAT_44	4, 4, cat_roles44, 5

static const struct cat_model cat_models[] = {
	/*
	 * A30-24GB: NVIDIA-MIG.md 2.3 (IDs, C/M, Max, placements of the
	 * base profiles; SM 14/28/56; 2g 11.69 and 4g 23.50 GiB [obs]).
	 * 1g.6gb memory is not given.  +me: same SM and memory as the
	 * base, same placements [inf].
	 */
	{ "A30-24GB", { "A30", NULL, NULL }, "NVIDIA A30", CAT_44, {
	    { "1g.6gb", 14, 14, 0, 0, CAT_NOENG },
	    { "1g.6gb+me", 21, 14, 0, 0, CAT_NOENG },
	    { "2g.12gb", 5, 28, 0, 1169, CAT_NOENG },
	    { "2g.12gb+me", 6, 28, 0, 1169, CAT_NOENG },
	    { "4g.24gb", 0, 56, 0, 2350, CAT_NOENG } },
	    "NVIDIA-MIG.md 2.3 (profiles, placements, SM 14/28/56, "
	    "2g 11.69 and 4g 23.50 GiB [obs]); +me placements, SM and "
	    "memory as the base profile's [inf]" },
	/*
	 * A100-40GB: 2.1 (IDs, placements), 2.2 (names, SM; MiB of 1g,
	 * 1g double, 3g and 7g from the doc and go-nvml's a100.go).  2g
	 * and 4g memory not given.
	 */
	{ "A100-40GB", { NULL, NULL, NULL }, "NVIDIA A100-SXM4-40GB", CAT_78, {
	    { "1g.5gb", 19, 14, 4864, 0, CAT_NOENG },
	    { "1g.5gb+me", 20, 14, 4864, 0, CAT_NOENG },
	    { "1g.10gb", 15, 14, 9856, 0, CAT_NOENG },
	    { "2g.10gb", 14, 28, 0, 0, CAT_NOENG },
	    { "3g.20gb", 9, 42, 19968, 0, CAT_NOENG },
	    { "4g.20gb", 5, 56, 0, 0, CAT_NOENG },
	    { "7g.40gb", 0, 98, 40192, 0, CAT_NOENG } },
	    "NVIDIA-MIG.md 2.1 (GI IDs, placements), 2.2 (names, SM; MiB "
	    "from the MIG User Guide and go-nvml mock/gpus/a100.go); +me "
	    "SM and memory as 1g.5gb's [inf]" },
	/*
	 * A100-80GB: 2.1, 2.2 [obs; a100.go]: 1g.10gb "~9.5-9.75" GiB
	 * (kept as 9.50, the lower figure), 1g.20gb 19.50, 3g.40gb 39.25,
	 * 7g.80gb 80384 MiB.  2g and 4g memory not given.
	 */
	{ "A100-80GB", { NULL, NULL, NULL }, "NVIDIA A100-SXM4-80GB", CAT_78, {
	    { "1g.10gb", 19, 14, 0, 950, CAT_NOENG },
	    { "1g.10gb+me", 20, 14, 0, 950, CAT_NOENG },
	    { "1g.20gb", 15, 14, 0, 1950, CAT_NOENG },
	    { "2g.20gb", 14, 28, 0, 0, CAT_NOENG },
	    { "3g.40gb", 9, 42, 0, 3925, CAT_NOENG },
	    { "4g.40gb", 5, 56, 0, 0, CAT_NOENG },
	    { "7g.80gb", 0, 98, 80384, 0, CAT_NOENG } },
	    "NVIDIA-MIG.md 2.1 (GI IDs, placements), 2.2 (names, SM, GiB "
	    "[obs], 7g 80384 MiB from go-nvml mock/gpus/a100.go); +me SM "
	    "and memory as 1g.10gb's [inf]" },
	/*
	 * H100-80GB (SXM5 HBM3, PCIe): 2.1, 2.2, and the exact per-profile
	 * capacities of 1.7 (1g.10gb, 3g.40gb, 7g.80gb devices; SM and MiB
	 * of 1g.20gb, 2g.20gb, 4g.40gb), all equal to what
	 * bench/gen/gen_fleet.c publishes (its gen_prof[] and gen_total[]),
	 * which also gives the engines of 1g.20gb, 2g.20gb, 4g.40gb.
	 */
	{ "H100-80GB", { "H100", NULL, NULL }, "NVIDIA H100 80GB HBM3",
	    CAT_78, {
	    { "1g.10gb", 19, 16, 9984, 975, { 1, 1, 0, 1 } },
	    { "1g.10gb+me", 20, 16, 9984, 975, { 1, 1, 0, 1 } },
	    { "1g.20gb", 15, 26, 20096, 1962, { 1, 1, 0, 1 } },
	    { "2g.20gb", 14, 32, 20096, 0, { 2, 2, 0, 2 } },
	    { "3g.40gb", 9, 60, 40448, 3950, { 3, 3, 0, 3 } },
	    { "4g.40gb", 5, 64, 40448, 0, { 4, 4, 0, 4 } },
	    { "7g.80gb", 0, 132, 81152, 7925, { 8, 7, 0, 7 } } },
	    "NVIDIA-MIG.md 2.1 (GI IDs, placements), 2.2 (names, SM), 1.7 "
	    "(exact capacities), equal to bench/gen/gen_fleet.c" },
	/*
	 * H100-NVL (94GB; SXM5-94 and PCIe-94 share the names): 2.1, 2.2
	 * [obs: gpu-operator PR #900]: SM 16/26/32, GiB 10.75, 21.62,
	 * 21.62, 46.38.  3g/4g/7g SM and 4g/7g memory not given.
	 */
	{ "H100-NVL", { "H100-94GB", NULL, NULL }, "NVIDIA H100 NVL", CAT_78, {
	    { "1g.12gb", 19, 16, 0, 1075, CAT_NOENG },
	    { "1g.12gb+me", 20, 16, 0, 1075, CAT_NOENG },
	    { "1g.24gb", 15, 26, 0, 2162, CAT_NOENG },
	    { "2g.24gb", 14, 32, 0, 2162, CAT_NOENG },
	    { "3g.47gb", 9, 0, 0, 4638, CAT_NOENG },
	    { "4g.47gb", 5, 0, 0, 0, CAT_NOENG },
	    { "7g.94gb", 0, 0, 0, 0, CAT_NOENG } },
	    "NVIDIA-MIG.md 2.1 (GI IDs, placements), 2.2 (names, SM, GiB "
	    "[obs: gpu-operator PR #900]); +me SM and memory as 1g.12gb's "
	    "[inf]" },
	/*
	 * H200 (141GB, SXM and NVL): 2.1, 2.2 [obs: mig-parted#120]:
	 * SM 16/26/32/60/64, GiB 16.00, 32.25, 32.25, 69.50, 69.50; 7g
	 * has only CE 8, no SM or memory.
	 */
	{ "H200", { "H200-141GB", NULL, NULL }, "NVIDIA H200", CAT_78, {
	    { "1g.18gb", 19, 16, 0, 1600, CAT_NOENG },
	    { "1g.18gb+me", 20, 16, 0, 1600, CAT_NOENG },
	    { "1g.35gb", 15, 26, 0, 3225, CAT_NOENG },
	    { "2g.35gb", 14, 32, 0, 3225, CAT_NOENG },
	    { "3g.71gb", 9, 60, 0, 6950, CAT_NOENG },
	    { "4g.71gb", 5, 64, 0, 6950, CAT_NOENG },
	    { "7g.141gb", 0, 0, 0, 0, { 8, -1, -1, -1 } } },
	    "NVIDIA-MIG.md 2.1 (GI IDs, placements), 2.2 (names, SM, GiB "
	    "[obs: mig-parted#120]); +me SM and memory as 1g.18gb's "
	    "[inf]" },
	/*
	 * B200 (180GB): 2.1, 2.2 [obs: mig-parted PR #166]: SM 18/30/36,
	 * GiB 22.00 and 44.25, CE 2/3/6/8/16 (1g.45gb's CE not given).
	 * 3g/4g/7g SM and 2g/3g/4g/7g memory not given.
	 */
	{ "B200", { "B200-180GB", NULL, NULL }, "NVIDIA B200", CAT_78, {
	    { "1g.23gb", 19, 18, 0, 2200, { 2, -1, -1, -1 } },
	    { "1g.23gb+me", 20, 18, 0, 2200, CAT_NOENG },
	    { "1g.45gb", 15, 30, 0, 4425, CAT_NOENG },
	    { "2g.45gb", 14, 36, 0, 0, { 3, -1, -1, -1 } },
	    { "3g.90gb", 9, 0, 0, 0, { 6, -1, -1, -1 } },
	    { "4g.90gb", 5, 0, 0, 0, { 8, -1, -1, -1 } },
	    { "7g.180gb", 0, 0, 0, 0, { 16, -1, -1, -1 } } },
	    "NVIDIA-MIG.md 2.1 (GI IDs, placements), 2.2 (names, SM, GiB, "
	    "CE [obs: mig-parted PR #166]); +me SM and memory as "
	    "1g.23gb's [inf]" },
	/*
	 * GB200 (186GB): 2.1, 2.2 [obs: gpu-operator PR #1303,
	 * mig-parted#227]: SM 18/32/38, GiB 22.00 and 45.50.  The first
	 * names given are used (1g.23gb, not the earlier driver's
	 * 1g.24gb; 7g.186gb, not 7g.189gb).
	 */
	{ "GB200", { "GB200-186GB", NULL, NULL }, "NVIDIA GB200", CAT_78, {
	    { "1g.23gb", 19, 18, 0, 2200, CAT_NOENG },
	    { "1g.23gb+me", 20, 18, 0, 2200, CAT_NOENG },
	    { "1g.47gb", 15, 32, 0, 4550, CAT_NOENG },
	    { "2g.47gb", 14, 38, 0, 0, CAT_NOENG },
	    { "3g.93gb", 9, 0, 0, 0, CAT_NOENG },
	    { "4g.93gb", 5, 0, 0, 0, CAT_NOENG },
	    { "7g.186gb", 0, 0, 0, 0, CAT_NOENG } },
	    "NVIDIA-MIG.md 2.1 (GI IDs, placements), 2.2 (names, SM, GiB "
	    "[obs: gpu-operator PR #1303, mig-parted#227]); +me SM and "
	    "memory as 1g.23gb's [inf]" },
	/*
	 * RTX PRO 6000 Blackwell (96GB; Server, Workstation, Max-Q):
	 * 2.3 [obs: bigstack-oss/cubecos#312]: GI IDs 14, 21, 5; SM 46
	 * and 94, GiB 23.12 and 46.50.  Placements are [inf] as the
	 * A30's, and the 4g.96gb GI ID 0 is [inf] (the full-size profile
	 * is ID 0 on every other model).  The +gfx, +me.all and -me
	 * variants are left out.  4g SM and memory not given.
	 */
	{ "RTX-PRO-6000", { "RTX-PRO-6000-Blackwell", "RTXPRO6000", NULL },
	    "NVIDIA RTX PRO 6000 Blackwell Server Edition", CAT_44, {
	    { "1g.24gb", 14, 46, 0, 2312, CAT_NOENG },
	    { "1g.24gb+me", 21, 46, 0, 2312, CAT_NOENG },
	    { "2g.48gb", 5, 94, 0, 4650, CAT_NOENG },
	    { NULL, 0, 0, 0, 0, CAT_NOENG },
	    { "4g.96gb", 0, 0, 0, 0, CAT_NOENG } },
	    "NVIDIA-MIG.md 2.3 (names, GI IDs 14/21/5, SM, GiB [obs: "
	    "bigstack-oss/cubecos#312]); placements and the 4g GI ID 0 "
	    "[inf] as A30's; +me SM and memory as 1g.24gb's [inf]" }
};
#define CAT_NMODELS	(sizeof(cat_models) / sizeof(cat_models[0]))

/*
 * productName rules (catalog.h): every word in all[] must occur, the
 * first rule that matches wins, model NULL means "not in the
 * catalogue".
 */
struct cat_rule {
	const char	*all[2];
	const char	*model;
};

static const struct cat_rule cat_rules[] = {
	{ { "GH200", NULL }, NULL },
	{ { "H100", "NVL" }, "H100-NVL" },
	{ { "H100", "94GB" }, "H100-NVL" },
	{ { "H100", "96GB" }, NULL },
	{ { "H100", NULL }, "H100-80GB" },
	{ { "H200", NULL }, "H200" },
	{ { "A100", "80GB" }, "A100-80GB" },
	{ { "A100", "40GB" }, "A100-40GB" },
	{ { "GB200", NULL }, "GB200" },
	{ { "B200", NULL }, "B200" },
	{ { "A30", NULL }, "A30-24GB" },
	{ { "RTX PRO 6000", "Blackwell" }, "RTX-PRO-6000" }
};
#define CAT_NRULES	(sizeof(cat_rules) / sizeof(cat_rules[0]))

/* A placement with its device name, for sorting. */
struct cat_sorted {
	char			*name;
	struct plan_placement	 pl;
};

static const struct cat_model	*cat_find(const char *);
static int	 cat_word(const char *, const char *);
static int64_t	 cat_profile_mib(const struct cat_profile *);
static int64_t	 cat_engine(const struct cat_model *, size_t, int);
static struct plan_geometry *cat_build(const struct cat_model *);
static int	 cat_cmp_sorted(const void *, const void *);

size_t
plan_catalog_count(void)
{
	return (CAT_NMODELS);
}

const char *
plan_catalog_name(size_t i)
{
	if (i >= CAT_NMODELS)
		return (NULL);
	return (cat_models[i].name);
}

/*
 * 1 when word occurs in s case-insensitively with no letter or digit
 * right before or after it.
 */
static int
cat_word(const char *s, const char *word)
{
	size_t	 n = strlen(word), len = strlen(s), i, k;

	if (n == 0 || n > len)
		return (0);
	for (i = 0; i + n <= len; i++) {
		for (k = 0; k < n; k++) {
			if (tolower((unsigned char)s[i + k]) !=
			    tolower((unsigned char)word[k]))
				break;
		}
		if (k != n)
			continue;
		if (i > 0 && isalnum((unsigned char)s[i - 1]))
			continue;
		if (isalnum((unsigned char)s[i + n]))
			continue;
		return (1);
	}
	return (0);
}

const char *
plan_catalog_for_product(const char *product)
{
	const struct cat_rule	*r;
	size_t			 i, k;

	if (product == NULL)
		return (NULL);
	for (i = 0; i < CAT_NRULES; i++) {
		r = &cat_rules[i];
		for (k = 0; k < 2 && r->all[k] != NULL; k++) {
			if (!cat_word(product, r->all[k]))
				break;
		}
		if (k == 2 || r->all[k] == NULL)
			return (r->model);
	}
	return (NULL);
}

/* The model for a name, alias or productName; NULL if none. */
static const struct cat_model *
cat_find(const char *model)
{
	const char	*name;
	size_t		 i, k;

	for (i = 0; i < CAT_NMODELS; i++) {
		if (strcasecmp(model, cat_models[i].name) == 0)
			return (&cat_models[i]);
	}
	for (i = 0; i < CAT_NMODELS; i++) {
		for (k = 0; k < 3 && cat_models[i].aliases[k] != NULL; k++) {
			if (strcasecmp(model, cat_models[i].aliases[k]) == 0)
				return (&cat_models[i]);
		}
	}
	name = plan_catalog_for_product(model);
	if (name == NULL)
		return (NULL);
	for (i = 0; i < CAT_NMODELS; i++) {
		if (strcmp(name, cat_models[i].name) == 0)
			return (&cat_models[i]);
	}
	return (NULL);
}

const char *
plan_catalog_canonical(const char *model)
{
	const struct cat_model	*m;

	if (model == NULL)
		return (NULL);
	m = cat_find(model);
	return (m != NULL ? m->name : NULL);
}

int
plan_catalog_geometry(const char *model, struct plan_geometry **out,
    struct dra_err *err)
{
	const struct cat_model	*m;
	char			 known[256];
	size_t			 i, len = 0;

	*out = NULL;
	m = model != NULL ? cat_find(model) : NULL;
	if (m == NULL) {
		known[0] = '\0';
		for (i = 0; i < CAT_NMODELS && len < sizeof(known); i++) {
			len += (size_t)snprintf(known + len,
			    sizeof(known) - len, "%s%s", i > 0 ? ", " : "",
			    cat_models[i].name);
		}
		return (dra_err_set(err, KUBE_E_CONFIG,
		    "unknown GPU model \"%s\" (known: %s)",
		    model != NULL ? model : "", known));
	}
	*out = cat_build(m);
	return (KUBE_OK);
}

/* A profile's memory: the exact MiB, else nvidia-smi's GiB in MiB. */
static int64_t
cat_profile_mib(const struct cat_profile *p)
{
	if (p->mib > 0)
		return (p->mib);
	return (((int64_t)p->gib100 * 1024 + 50) / 100);
}

/* Engine e of role r on model m; -1 when the sources do not give it. */
static int64_t
cat_engine(const struct cat_model *m, size_t r, int e)
{
	const struct cat_profile	*p = &m->p[r];
	const struct cat_role		*role = &m->roles[r];

	switch (e) {
	case CAT_SM:
		return (p->sm > 0 ? p->sm : -1);
	case CAT_OFA:
		/* One OFA per GPU: +me and the full size take it (s3.4). */
		return (role->me || role->full ? 1 : 0);
	case CAT_MEM:
		/* Exact figures only. */
		return (p->mib > 0 ? p->mib : -1);
	default:
		return (p->eng[e - CAT_CE]);
	}
}

static int
cat_cmp_sorted(const void *a, const void *b)
{
	const struct cat_sorted	*x = a, *y = b;

	return (strcmp(x->name, y->name));
}

static struct plan_geometry *
cat_build(const struct cat_model *m)
{
	struct plan_geometry	*g;
	struct plan_profile	*pr;
	struct cat_sorted	*srt;
	const struct cat_role	*role;
	int			 present[CAT_NENG], ctr[CAT_NENG];
	int64_t			 cap[CAT_NENG], v;
	size_t			 r, i, k, n, nc, np, full = 0;
	int			 e, s, idx[CAT_MAXROLE];
	char			 name[128];

	g = xcalloc(1, sizeof(*g));
	g->model = xstrdup(m->name);
	g->product = xstrdup(m->product);
	g->driver = xstrdup("gpu.nvidia.com");
	g->source = xstrdup(m->source);
	g->compute_slices = m->compute_slices;
	g->memory_slices = m->memory_slices;

	/* Profiles: the model's roles in table order, then the GPU. */
	n = 0;
	for (r = 0; r < m->nroles; r++) {
		idx[r] = -1;
		if (m->p[r].name != NULL)
			idx[r] = (int)n++;
		if (m->roles[r].full)
			full = r;
	}
	g->nprofiles = n + 1;
	g->profiles = xcalloc(g->nprofiles, sizeof(*g->profiles));
	for (r = 0; r < m->nroles; r++) {
		if (idx[r] < 0)
			continue;
		pr = &g->profiles[idx[r]];
		role = &m->roles[r];
		pr->name = xstrdup(m->p[r].name);
		pr->compute = role->compute;
		pr->memory = role->memory;
		pr->me = role->me;
		pr->sm = m->p[r].sm;
		pr->memory_mib = cat_profile_mib(&m->p[r]);
		pr->gi_id = m->p[r].gi_id;
	}
	pr = &g->profiles[n];
	pr->name = xstrdup(PLAN_WHOLE_GPU);
	pr->whole = 1;
	pr->compute = m->compute_slices;
	pr->memory = m->memory_slices;
	pr->sm = m->p[full].sm;
	pr->memory_mib = cat_profile_mib(&m->p[full]);
	pr->gi_id = -1;
	g->sm = pr->sm;
	g->memory_mib = pr->memory_mib;

	/* Counters: the slices, then each engine known for every role. */
	nc = (size_t)m->memory_slices;
	for (e = 0; e < CAT_NENG; e++) {
		present[e] = 1;
		cap[e] = 0;
		for (r = 0; r < m->nroles; r++) {
			if (m->p[r].name == NULL)
				continue;
			v = cat_engine(m, r, e);
			if (v < 0)
				present[e] = 0;
			else if (v > cap[e])
				cap[e] = v;
		}
		ctr[e] = present[e] ? (int)nc++ : -1;
	}
	g->ncounters = nc;
	g->counters = xcalloc(nc, sizeof(*g->counters));
	g->capacity = xcalloc(nc, sizeof(*g->capacity));
	for (s = 0; s < m->memory_slices; s++) {
		g->counters[s] = xasprintf("memory-slice-%d", s);
		g->capacity[s] = 1;
	}
	for (e = 0; e < CAT_NENG; e++) {
		if (ctr[e] < 0)
			continue;
		g->counters[ctr[e]] = xstrdup(cat_engine_names[e]);
		g->capacity[ctr[e]] = cap[e];
	}

	/* Placements: every (profile, start), then the whole GPU. */
	np = 1;
	for (r = 0; r < m->nroles; r++) {
		if (idx[r] < 0)
			continue;
		for (s = 0; s < m->memory_slices; s++)
			np += (m->roles[r].starts >> s) & 1;
	}
	g->nplacements = np;
	g->placements = xcalloc(np, sizeof(*g->placements));
	i = 0;
	for (r = 0; r < m->nroles; r++) {
		if (idx[r] < 0)
			continue;
		role = &m->roles[r];
		for (s = 0; s < m->memory_slices; s++) {
			if (((role->starts >> s) & 1) == 0)
				continue;
			g->placements[i].profile = idx[r];
			g->placements[i].start = s;
			g->placements[i].use = xcalloc(nc,
			    sizeof(*g->placements[i].use));
			for (k = (size_t)s; k < (size_t)(s + role->memory); k++)
				g->placements[i].use[k] = 1;
			for (e = 0; e < CAT_NENG; e++) {
				if (ctr[e] >= 0)
					g->placements[i].use[ctr[e]] =
					    cat_engine(m, r, e);
			}
			i++;
		}
	}
	g->placements[i].profile = (int)n;
	g->placements[i].start = 0;
	g->placements[i].use = xcalloc(nc, sizeof(*g->placements[i].use));
	memcpy(g->placements[i].use, g->capacity, nc * sizeof(*g->capacity));

	/* The driver's device-name order within one GPU. */
	srt = xcalloc(np, sizeof(*srt));
	for (i = 0; i < np; i++) {
		srt[i].pl = g->placements[i];
		if (plan_device_name(g, "gpu-0", (int)i, name,
		    sizeof(name)) == NULL)
			snprintf(name, sizeof(name), "~%zu", i);
		srt[i].name = xstrdup(name);
	}
	qsort(srt, np, sizeof(*srt), cat_cmp_sorted);
	for (i = 0; i < np; i++) {
		g->placements[i] = srt[i].pl;
		free(srt[i].name);
	}
	free(srt);
	return (g);
}

void
plan_geometry_free(struct plan_geometry *g)
{
	size_t	i;

	if (g == NULL)
		return;
	free(g->model);
	free(g->product);
	free(g->driver);
	free(g->source);
	if (g->counters != NULL) {
		for (i = 0; i < g->ncounters; i++)
			free(g->counters[i]);
	}
	free(g->counters);
	free(g->capacity);
	if (g->profiles != NULL) {
		for (i = 0; i < g->nprofiles; i++)
			free(g->profiles[i].name);
	}
	free(g->profiles);
	if (g->placements != NULL) {
		for (i = 0; i < g->nplacements; i++)
			free(g->placements[i].use);
	}
	free(g->placements);
	free(g);
}
