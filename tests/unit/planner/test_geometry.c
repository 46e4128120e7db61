/*
 * test_geometry.c: unit tests of the per-GPU geometry engine
 * (planner/geometry.h), checked by enumeration.
 *
 *  - From an empty GPU, plan_patterns() without flags gives exactly the
 *    count vectors of the rule of NVIDIA-MIG.md section 3 (compute
 *    slices <= 7, memory slices <= 8, at most one +me; 4 and 4 on the
 *    4/4 family), enumerated here independently, plus the whole GPU:
 *    78 vectors without +me and 128 with it on every 7/8 model, 10 and
 *    20 on A30, 10 and 16 on RTX PRO 6000.
 *  - 4g + 4g never; 4g with 3g only as 4g@0 + 3g@4; a fragmented GPU
 *    (1g.10gb pinned at slices 2 and 5) takes no 3g.
 *  - Every pinned state of an H100 (all 2,320 feasible placement sets):
 *    the vectors equal a brute-force search over placement sets with
 *    plan_placements_fit(), realisations avoid the pins and fit with
 *    them, first-fit
 *    realisations replay exactly under sequential plan_first_fit(), and
 *    the first-fit vectors equal the feasible ones (found by this
 *    enumeration: on the NVIDIA geometries some arrival order always
 *    realises a feasible mix).  A small synthetic geometry where first
 *    fit cannot realise a feasible mix shows the flag at work.
 *  - 3g + 4 x 1g under first fit: only with a 1g before the 3g.
 *  - plan_profile_for() requirements, sharing; plan_device_name().
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

#define MAXKEYS	1024
#define KEYLEN	16

static struct plan_geometry *
build(const char *model)
{
	struct plan_geometry	*g = NULL;

	assert_int_equal(plan_catalog_geometry(model, &g, NULL), KUBE_OK);
	return g;
}

static int
prof(const struct plan_geometry *g, const char *name)
{
	int	p = plan_profile_index(g, name);

	assert_true(p >= 0);
	return p;
}

/* The placement of profile name at start. */
static int
place(const struct plan_geometry *g, const char *name, int start)
{
	int	p = prof(g, name);
	size_t	i;

	for (i = 0; i < g->nplacements; i++) {
		if (g->placements[i].profile == p &&
		    g->placements[i].start == start)
			return (int)i;
	}
	fail_msg("no placement %s@%d", name, start);
	return -1;
}

static void
key_of(const int *count, size_t n, char *key)
{
	size_t	i;

	for (i = 0; i < n; i++)
		key[i] = (char)('0' + count[i]);
	key[n] = '\0';
}

static int
cmp_key(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

/*
 * The rule of NVIDIA-MIG.md section 3 over g's MIG profiles: every
 * vector with sum(compute) <= C, sum(memory slices) <= S and at most
 * one +me instance (the whole GPU's entry stays 0).
 */
static void
rule_enum(const struct plan_geometry *g, size_t p, int *n, int c, int s,
    int me, char (*keys)[KEYLEN], size_t *nkeys)
{
	const struct plan_profile	*pr;

	if (p == g->nprofiles) {
		assert_true(*nkeys < MAXKEYS);
		key_of(n, g->nprofiles, keys[(*nkeys)++]);
		return;
	}
	pr = &g->profiles[p];
	n[p] = 0;
	rule_enum(g, p + 1, n, c, s, me, keys, nkeys);
	if (pr->whole)
		return;
	for (n[p] = 1; c + n[p] * pr->compute <= g->compute_slices &&
	    s + n[p] * pr->memory <= g->memory_slices &&
	    me + n[p] * pr->me <= 1; n[p]++)
		rule_enum(g, p + 1, n, c + n[p] * pr->compute,
		    s + n[p] * pr->memory, me + n[p] * pr->me, keys, nkeys);
	n[p] = 0;
}

/* A pattern's realisation has its counts and fits with the pins. */
static void
check_realisation(const struct plan_geometry *g, const int *pinned,
    size_t npinned, const struct plan_pattern *p, int first_fit)
{
	int	all[64], count[16];
	size_t	i, j;
	int	c = 0, m = 0, q;

	assert_true(npinned + p->nplacements <= 64);
	memset(count, 0, sizeof count);
	for (i = 0; i < npinned; i++) {
		all[i] = pinned[i];
		c += g->profiles[g->placements[pinned[i]].profile].compute;
		m += g->profiles[g->placements[pinned[i]].profile].memory;
	}
	for (i = 0; i < p->nplacements; i++) {
		q = p->placements[i];
		for (j = 0; j < npinned; j++)
			assert_int_not_equal(q, pinned[j]);
		count[g->placements[q].profile]++;
		c += g->profiles[g->placements[q].profile].compute;
		m += g->profiles[g->placements[q].profile].memory;
		if (first_fit)
			assert_int_equal(plan_first_fit(g, all, npinned + i,
			    g->placements[q].profile), q);
		all[npinned + i] = q;
	}
	assert_true(plan_placements_fit(g, all, npinned + p->nplacements));
	assert_memory_equal(count, p->count, g->nprofiles * sizeof(int));
	assert_int_equal(p->compute, c);
	assert_int_equal(p->memory, m);
}

/*
 * Empty GPU: plan_patterns() == the rule, plus the whole GPU.  Returns
 * through *nme0 the vectors without +me (whole GPU excluded) and
 * through *nall all rule vectors.
 */
static void
check_rule(const char *model, size_t *nme0, size_t *nall)
{
	static char		 want[MAXKEYS][KEYLEN], got[MAXKEYS][KEYLEN];
	struct plan_geometry	*g = build(model);
	struct plan_pattern	*pat;
	size_t			 npat, nwant = 0, ngot = 0, i, k;
	int			 n[16], whole, me0;

	memset(n, 0, sizeof n);
	rule_enum(g, 0, n, 0, 0, 0, want, &nwant);
	qsort(want, nwant, KEYLEN, cmp_key);

	assert_int_equal(plan_patterns(g, NULL, 0, 0, &pat, &npat, NULL),
	    KUBE_OK);
	whole = prof(g, PLAN_WHOLE_GPU);
	*nme0 = 0;
	for (i = 0; i < npat; i++) {
		check_realisation(g, NULL, 0, &pat[i], 0);
		if (pat[i].count[whole] > 0) {
			/* The whole GPU, alone. */
			for (k = 0; k < g->nprofiles; k++)
				assert_int_equal(pat[i].count[k],
				    (int)k == whole);
			continue;
		}
		me0 = 1;
		for (k = 0; k < g->nprofiles; k++) {
			if (g->profiles[k].me && pat[i].count[k] > 0)
				me0 = 0;
		}
		*nme0 += me0;
		key_of(pat[i].count, g->nprofiles, got[ngot++]);
	}
	assert_int_equal(npat, ngot + 1);
	/* Sorted by count vector, the empty one first. */
	for (i = 1; i < npat; i++)
		assert_true(memcmp(pat[i - 1].count, pat[i].count,
		    g->nprofiles * sizeof(int)) != 0);
	for (k = 0; k < g->nprofiles; k++)
		assert_int_equal(pat[0].count[k], 0);
	assert_int_equal(pat[0].nplacements, 0);
	assert_null(pat[0].placements);

	qsort(got, ngot, KEYLEN, cmp_key);
	assert_int_equal(ngot, nwant);
	for (i = 0; i < ngot; i++)
		assert_string_equal(got[i], want[i]);
	*nall = nwant;
	plan_patterns_free(pat, npat);
	plan_geometry_free(g);
}

static void
test_rule_counts(void **state)
{
	static const char *const m78[] = {
		"A100-40GB", "A100-80GB", "H100-80GB", "H100-NVL", "H200",
		"B200", "GB200"
	};
	size_t	i, nme0, nall;

	(void)state;
	for (i = 0; i < sizeof m78 / sizeof m78[0]; i++) {
		check_rule(m78[i], &nme0, &nall);
		assert_int_equal(nme0, 78);
		assert_int_equal(nall, 128);
	}
	check_rule("A30-24GB", &nme0, &nall);
	assert_int_equal(nme0, 10);
	assert_int_equal(nall, 20);	/* 1g+me or 2g+me: one at most */
	check_rule("RTX-PRO-6000", &nme0, &nall);
	assert_int_equal(nme0, 10);
	assert_int_equal(nall, 16);
}

static const struct plan_pattern *
find_pattern(const struct plan_geometry *g, const struct plan_pattern *pat,
    size_t npat, const int *count)
{
	size_t	i;

	for (i = 0; i < npat; i++) {
		if (memcmp(pat[i].count, count,
		    g->nprofiles * sizeof(int)) == 0)
			return &pat[i];
	}
	return NULL;
}

static void
test_4g_3g(void **state)
{
	struct plan_geometry	*g = build("H100-80GB");
	const struct plan_pattern *p;
	struct plan_pattern	*pat;
	size_t			 npat, i, j;
	int			 count[16], two[2], g4, g3, n43 = 0;

	(void)state;
	g4 = prof(g, "4g.40gb");
	g3 = prof(g, "3g.40gb");
	assert_int_equal(plan_patterns(g, NULL, 0, 0, &pat, &npat, NULL),
	    KUBE_OK);
	for (i = 0; i < npat; i++)
		assert_true(pat[i].count[g4] <= 1);
	memset(count, 0, sizeof count);
	count[g4] = 1;
	count[g3] = 1;
	p = find_pattern(g, pat, npat, count);
	assert_non_null(p);
	assert_int_equal(p->nplacements, 2);
	for (i = 0; i < 2; i++) {
		j = (size_t)p->placements[i];
		if (g->placements[j].profile == g4)
			assert_int_equal(g->placements[j].start, 0);
		else
			assert_int_equal(g->placements[j].start, 4);
	}
	/* Of every 4g and 3g pair, only 4g@0 + 3g@4 fits. */
	for (i = 0; i < g->nplacements; i++) {
		for (j = 0; j < g->nplacements; j++) {
			if (g->placements[i].profile != g4 ||
			    g->placements[j].profile != g3)
				continue;
			two[0] = (int)i;
			two[1] = (int)j;
			if (plan_placements_fit(g, two, 2)) {
				n43++;
				assert_int_equal(g->placements[j].start, 4);
			}
		}
	}
	assert_int_equal(n43, 1);
	two[0] = place(g, "4g.40gb", 0);
	two[1] = two[0];
	assert_false(plan_placements_fit(g, two, 2));
	plan_patterns_free(pat, npat);
	plan_geometry_free(g);
}

/* Free slices 0-1, 3-4, 6-7: a 3g (4 aligned slices) never fits. */
static void
test_fragmented(void **state)
{
	struct plan_geometry	*g = build("H100-80GB");
	struct plan_pattern	*pat;
	size_t			 npat, i;
	unsigned		 f;
	int			 pin[2], g2 = 0;

	(void)state;
	pin[0] = place(g, "1g.10gb", 2);
	pin[1] = place(g, "1g.10gb", 5);
	for (f = 0; f <= PLAN_PATTERN_FIRST_FIT; f++) {
		assert_int_equal(plan_patterns(g, pin, 2, f, &pat, &npat,
		    NULL), KUBE_OK);
		assert_true(npat > 1);
		for (i = 0; i < npat; i++) {
			check_realisation(g, pin, 2, &pat[i], f != 0);
			assert_int_equal(pat[i].count[prof(g, "3g.40gb")], 0);
			assert_int_equal(pat[i].count[prof(g, "4g.40gb")], 0);
			assert_int_equal(pat[i].count[prof(g, "7g.80gb")], 0);
			assert_int_equal(pat[i].count[prof(g, "gpu")], 0);
			assert_true(pat[i].count[prof(g, "2g.20gb")] <= 1);
			g2 |= pat[i].count[prof(g, "2g.20gb")] == 1;
		}
		assert_int_equal(pat[0].compute, 2);
		assert_int_equal(pat[0].memory, 2);
		plan_patterns_free(pat, npat);
	}
	assert_true(g2);	/* a 2g still fits at slices 0-1 */
	plan_geometry_free(g);
}

/*
 * Every feasible pinned state of an H100, both flags: the vectors are
 * those of a brute-force search with plan_placements_fit(),
 * realisations are valid, first-fit ones replay, and the two sets of
 * vectors are equal.
 */
static int	 pins[16];
static size_t	 npins, nstates;
static int	 brute_set[32], brute_count[16];
static size_t	 nbrute_set, nbrute;
static char	 brute_keys[MAXKEYS * 8][KEYLEN];

/* Every set of placements added to the pins that fits, as keys. */
static void
brute(const struct plan_geometry *g, size_t from)
{
	size_t	j, k;
	int	pinned;

	assert_true(nbrute < MAXKEYS * 8);
	key_of(brute_count, g->nprofiles, brute_keys[nbrute++]);
	for (j = from; j < g->nplacements; j++) {
		pinned = 0;
		for (k = 0; k < npins; k++)
			pinned |= pins[k] == (int)j;
		if (pinned)
			continue;
		brute_set[nbrute_set++] = (int)j;
		if (plan_placements_fit(g, brute_set, nbrute_set)) {
			brute_count[g->placements[j].profile]++;
			brute(g, j + 1);
			brute_count[g->placements[j].profile]--;
		}
		nbrute_set--;
	}
}

static void
check_pinned_state(const struct plan_geometry *g)
{
	struct plan_pattern	*a, *b;
	char			 key[KEYLEN];
	size_t			 na, nb, i, k;
	int			 me, p;

	assert_int_equal(plan_patterns(g, pins, npins, 0, &a, &na, NULL),
	    KUBE_OK);
	/* Brute force: distinct vectors, sorted, equal a's keys. */
	memcpy(brute_set, pins, npins * sizeof(int));
	nbrute_set = npins;
	nbrute = 0;
	memset(brute_count, 0, sizeof brute_count);
	brute(g, 0);
	qsort(brute_keys, nbrute, KEYLEN, cmp_key);
	for (i = 1, k = 1; i < nbrute; i++) {
		if (strcmp(brute_keys[i], brute_keys[k - 1]) != 0)
			memcpy(brute_keys[k++], brute_keys[i], KEYLEN);
	}
	assert_int_equal(k, na);
	for (i = 0; i < na; i++) {
		key_of(a[i].count, g->nprofiles, key);
		assert_string_equal(key, brute_keys[i]);
	}
	assert_int_equal(plan_patterns(g, pins, npins,
	    PLAN_PATTERN_FIRST_FIT, &b, &nb, NULL), KUBE_OK);
	assert_int_equal(na, nb);
	me = 0;
	for (i = 0; i < npins; i++)
		me += g->profiles[g->placements[pins[i]].profile].me;
	for (i = 0; i < na; i++) {
		assert_memory_equal(a[i].count, b[i].count,
		    g->nprofiles * sizeof(int));
		check_realisation(g, pins, npins, &a[i], 0);
		check_realisation(g, pins, npins, &b[i], 1);
		if (me > 0) {
			p = prof(g, "1g.10gb+me");
			assert_int_equal(a[i].count[p], 0);
		}
		if (npins > 0)
			assert_int_equal(a[i].count[prof(g, "gpu")], 0);
	}
	plan_patterns_free(a, na);
	plan_patterns_free(b, nb);
	nstates++;
}

static void
pinned_dfs(const struct plan_geometry *g, size_t from)
{
	size_t	j;

	check_pinned_state(g);
	for (j = from; j < g->nplacements; j++) {
		pins[npins++] = (int)j;
		if (plan_placements_fit(g, pins, npins))
			pinned_dfs(g, j + 1);
		npins--;
	}
}

static void
test_every_pinned_state(void **state)
{
	struct plan_geometry	*g = build("H100-80GB");

	(void)state;
	npins = nstates = 0;
	pinned_dfs(g, 0);
	assert_int_equal(nstates, 2320);
	plan_geometry_free(g);
}

/* 3g + 4 x 1g.10gb: a 3g arriving first takes slices 0-3. */
static void
test_first_fit_3g_4x1g(void **state)
{
	struct plan_geometry	*g = build("H100-80GB");
	const struct plan_pattern *p;
	struct plan_pattern	*pat;
	size_t			 npat, i;
	int			 count[16], occ[8], g1, g3, q;

	(void)state;
	g1 = prof(g, "1g.10gb");
	g3 = prof(g, "3g.40gb");
	/* 3g first: 3g@0, then 1g@4, @5, @6, and the fourth fails. */
	occ[0] = plan_first_fit(g, NULL, 0, g3);
	assert_int_equal(occ[0], place(g, "3g.40gb", 0));
	for (i = 1; i < 4; i++) {
		occ[i] = plan_first_fit(g, occ, i, g1);
		assert_int_equal(occ[i], place(g, "1g.10gb", (int)i + 3));
	}
	assert_int_equal(plan_first_fit(g, occ, 4, g1), -1);

	assert_int_equal(plan_patterns(g, NULL, 0, PLAN_PATTERN_FIRST_FIT,
	    &pat, &npat, NULL), KUBE_OK);
	assert_int_equal(npat, 129);
	memset(count, 0, sizeof count);
	count[g1] = 4;
	count[g3] = 1;
	p = find_pattern(g, pat, npat, count);
	assert_non_null(p);
	check_realisation(g, NULL, 0, p, 1);
	assert_int_equal(p->nplacements, 5);
	assert_int_equal(g->placements[p->placements[0]].profile, g1);
	for (i = 0; i < 5; i++) {
		q = p->placements[i];
		if (g->placements[q].profile == g3)
			assert_int_equal(g->placements[q].start, 4);
		else
			assert_true(g->placements[q].start < 4);
	}
	plan_patterns_free(pat, npat);
	plan_geometry_free(g);
}

/*
 * A geometry where first fit loses a feasible mix: four slices; A
 * takes {1,2} first, else {3}; B takes {2,3} first, else {0,1}.  A then
 * B: A{1,2} blocks both B's; B then A: B{2,3} blocks both A's; yet
 * A{3} + B{0,1} fits.
 */
static void
test_first_fit_loses(void **state)
{
	static char		 c0[] = "s0", c1[] = "s1", c2[] = "s2",
				 c3[] = "s3", pa[] = "a", pb[] = "b";
	static char		*ctr[] = { c0, c1, c2, c3 };
	static int64_t		 cap[] = { 1, 1, 1, 1 };
	static int64_t		 u0[] = { 0, 1, 1, 0 }, u1[] = { 0, 0, 1, 1 },
				 u2[] = { 0, 0, 0, 1 }, u3[] = { 1, 1, 0, 0 };
	struct plan_profile	 profiles[2];
	struct plan_placement	 pl[4] = {
		{ 0, 1, u0 }, { 1, 2, u1 }, { 0, 3, u2 }, { 1, 0, u3 }
	};
	struct plan_geometry	 g;
	struct plan_pattern	*pat;
	size_t			 npat;
	int			 count[2] = { 1, 1 };

	(void)state;
	memset(profiles, 0, sizeof profiles);
	profiles[0].name = pa;
	profiles[0].compute = profiles[0].memory = 1;
	profiles[1].name = pb;
	profiles[1].compute = profiles[1].memory = 2;
	memset(&g, 0, sizeof g);
	g.counters = ctr;
	g.capacity = cap;
	g.ncounters = 4;
	g.profiles = profiles;
	g.nprofiles = 2;
	g.placements = pl;
	g.nplacements = 4;
	g.derived = 1;

	assert_int_equal(plan_patterns(&g, NULL, 0, 0, &pat, &npat, NULL),
	    KUBE_OK);
	/* {}, {b}, {2b}, {a}, {a,b}, {2a}: a{1,2}+a{3}, b{2,3}+b{0,1}. */
	assert_int_equal(npat, 6);
	assert_non_null(find_pattern(&g, pat, npat, count));
	check_realisation(&g, NULL, 0, find_pattern(&g, pat, npat, count), 0);
	plan_patterns_free(pat, npat);

	assert_int_equal(plan_patterns(&g, NULL, 0, PLAN_PATTERN_FIRST_FIT,
	    &pat, &npat, NULL), KUBE_OK);
	assert_int_equal(npat, 5);
	assert_null(find_pattern(&g, pat, npat, count));
	plan_patterns_free(pat, npat);
}

static void
test_pinned_errors(void **state)
{
	struct plan_geometry	*g = build("H100-80GB");
	struct plan_pattern	*pat = (struct plan_pattern *)&pat;
	struct dra_err		 err;
	size_t			 npat = 7;
	int			 pin[2];

	(void)state;
	pin[0] = place(g, "3g.40gb", 0);
	pin[1] = place(g, "4g.40gb", 0);
	assert_int_equal(plan_patterns(g, pin, 2, 0, &pat, &npat, &err),
	    KUBE_E_CONFIG);
	assert_null(pat);
	assert_int_equal(npat, 0);
	assert_string_equal(err.msg, "pinned placements 3g.40gb@0, "
	    "4g.40gb@0 do not fit together on one H100-80GB GPU "
	    "(counter \"memory-slice-0\": 2 > 1)");

	pin[0] = place(g, "1g.10gb+me", 0);
	pin[1] = place(g, "1g.10gb+me", 3);
	assert_int_equal(plan_patterns(g, pin, 2, PLAN_PATTERN_FIRST_FIT,
	    &pat, &npat, &err), KUBE_E_CONFIG);
	assert_string_equal(err.msg, "pinned placements 1g.10gb+me@0, "
	    "1g.10gb+me@3 do not fit together on one H100-80GB GPU "
	    "(counter \"ofa-engines\": 2 > 1)");

	pin[1] = pin[0];
	assert_int_equal(plan_patterns(g, pin, 2, 0, &pat, &npat, &err),
	    KUBE_E_CONFIG);
	assert_non_null(strstr(err.msg, "1g.10gb+me@0 listed twice"));

	pin[0] = 26;
	assert_int_equal(plan_patterns(g, pin, 1, 0, &pat, &npat, &err),
	    KUBE_E_CONFIG);
	assert_string_equal(err.msg,
	    "pinned placement 26 out of range (H100-80GB has 26)");
	plan_geometry_free(g);
}

static void
test_fit_and_first_fit(void **state)
{
	struct plan_geometry	*g = build("H100-80GB");
	int			 occ[4];

	(void)state;
	assert_true(plan_placements_fit(g, NULL, 0));
	occ[0] = place(g, "gpu", 0);
	assert_int_equal(occ[0], 0);
	assert_true(plan_placements_fit(g, occ, 1));
	occ[1] = place(g, "1g.10gb", 6);
	assert_false(plan_placements_fit(g, occ, 2));
	occ[0] = -1;
	assert_false(plan_placements_fit(g, occ, 1));
	occ[0] = 26;
	assert_false(plan_placements_fit(g, occ, 1));

	assert_int_equal(plan_first_fit(g, NULL, 0, prof(g, "gpu")), 0);
	assert_int_equal(plan_first_fit(g, NULL, 0, prof(g, "1g.10gb")),
	    place(g, "1g.10gb", 0));
	assert_int_equal(plan_first_fit(g, NULL, 0, 99), -1);
	assert_int_equal(plan_first_fit(g, NULL, 0, -1), -1);
	occ[0] = place(g, "1g.10gb", 0);
	assert_int_equal(plan_first_fit(g, occ, 1, prof(g, "1g.10gb")),
	    place(g, "1g.10gb", 1));
	assert_int_equal(plan_first_fit(g, occ, 1, prof(g, "1g.20gb")),
	    place(g, "1g.20gb", 2));
	assert_int_equal(plan_first_fit(g, occ, 1, prof(g, "gpu")), -1);
	assert_int_equal(plan_first_fit(g, occ, 1, prof(g, "7g.80gb")), -1);
	/* One OFA: a +me instance keeps out another and the 7g. */
	occ[0] = place(g, "1g.10gb+me", 6);
	assert_int_equal(plan_first_fit(g, occ, 1, prof(g, "1g.10gb+me")),
	    -1);
	assert_int_equal(plan_first_fit(g, occ, 1, prof(g, "3g.40gb")),
	    place(g, "3g.40gb", 0));
	occ[0] = 0;
	assert_int_equal(plan_first_fit(g, occ, 1, prof(g, "1g.10gb")), -1);
	plan_geometry_free(g);
}

static int
pick(const struct plan_geometry *g, int64_t mib, int sm, int *per)
{
	struct plan_workload	w;
	int			p;

	memset(&w, 0, sizeof w);
	w.need_memory_mib = mib;
	w.need_sm = sm;
	w.per_device = 1;
	p = plan_profile_for(g, &w, per);
	return p;
}

static const char *
pname(const struct plan_geometry *g, int p)
{
	return p < 0 ? "(none)" : g->profiles[p].name;
}

static void
test_profile_for(void **state)
{
	struct plan_geometry	*h = build("H100-80GB");
	struct plan_geometry	*a = build("A100-80GB");
	struct plan_geometry	*n = build("H100-NVL");
	struct plan_workload	 w;
	char			 model[32], prof3g[] = "3g.40gb",
				 me[] = "1g.10gb+me", no[] = "3g.20gb";
	int			 per;

	(void)state;
	/* 20Gi and 30 SM: 2g.20gb has 32 SM but 20096 MiB < 20480. */
	assert_string_equal(pname(h, pick(h, 20480, 30, &per)), "3g.40gb");
	assert_int_equal(per, 1);
	assert_string_equal(pname(h, pick(h, 19456, 30, NULL)), "2g.20gb");
	assert_string_equal(pname(h, pick(h, 19456, 0, NULL)), "1g.20gb");
	assert_string_equal(pname(h, pick(h, 20480, 0, NULL)), "3g.40gb");
	assert_string_equal(pname(h, pick(h, 9984, 0, NULL)), "1g.10gb");
	assert_string_equal(pname(h, pick(h, 10000, 0, NULL)), "1g.20gb");
	assert_string_equal(pname(h, pick(h, 0, 17, NULL)), "1g.20gb");
	assert_string_equal(pname(h, pick(h, 0, 61, NULL)), "4g.40gb");
	assert_string_equal(pname(h, pick(h, 81152, 0, NULL)), "7g.80gb");
	assert_int_equal(pick(h, 81153, 0, &per), -1);
	assert_int_equal(per, -1);
	assert_int_equal(pick(h, 0, 133, NULL), -1);
	/* A100-80GB: 2g.20gb has 28 SM and no known memory. */
	assert_string_equal(pname(a, pick(a, 20480, 30, NULL)), "3g.40gb");
	assert_string_equal(pname(a, pick(a, 19456, 20, NULL)), "3g.40gb");
	assert_string_equal(pname(a, pick(a, 19456, 0, NULL)), "1g.20gb");
	assert_string_equal(pname(a, pick(a, 0, 28, NULL)), "2g.20gb");
	/* H100-NVL: 3g/4g/7g SM unknown, so nothing meets 40 SM. */
	assert_int_equal(pick(n, 0, 40, NULL), -1);
	assert_string_equal(pname(n, pick(n, 30000, 0, NULL)), "3g.47gb");
	/* Only the whole GPU meets it (a derived-like larger whole). */
	h->profiles[prof(h, "gpu")].memory_mib = 81559;
	assert_string_equal(pname(h, pick(h, 81400, 0, NULL)), "gpu");
	h->profiles[prof(h, "gpu")].memory_mib = 81152;

	memset(&w, 0, sizeof w);
	w.profile = prof3g;
	assert_string_equal(pname(h, plan_profile_for(h, &w, &per)),
	    "3g.40gb");
	assert_int_equal(per, 1);
	w.profile = me;
	assert_string_equal(pname(h, plan_profile_for(h, &w, NULL)),
	    "1g.10gb+me");
	w.profile = no;
	assert_int_equal(plan_profile_for(h, &w, &per), -1);
	assert_int_equal(per, -1);
	w.profile = NULL;
	assert_int_equal(plan_profile_for(h, &w, NULL), -1);
	w.whole = 1;
	assert_string_equal(pname(h, plan_profile_for(h, &w, NULL)), "gpu");

	/* Model restriction: canonical names, aliases, case. */
	w.whole = 0;
	w.profile = prof3g;
	snprintf(model, sizeof model, "h100");
	w.model = model;
	assert_true(plan_profile_for(h, &w, NULL) >= 0);
	snprintf(model, sizeof model, "H100-80GB");
	assert_true(plan_profile_for(h, &w, NULL) >= 0);
	snprintf(model, sizeof model, "A100-80GB");
	assert_int_equal(plan_profile_for(h, &w, NULL), -1);
	assert_true(plan_profile_for(a, &w, NULL) >= 0);
	snprintf(model, sizeof model, "nothing");
	assert_int_equal(plan_profile_for(a, &w, NULL), -1);
	w.model = NULL;

	/* Sharing. */
	w.share = PLAN_SHARE_TIME_SLICING;
	w.per_device = 4;
	assert_true(plan_profile_for(h, &w, &per) >= 0);
	assert_int_equal(per, 4);
	w.share = PLAN_SHARE_MPS;
	w.per_device = 0;
	assert_true(plan_profile_for(h, &w, &per) >= 0);
	assert_int_equal(per, 1);
	w.share = PLAN_SHARE_MEMORY;
	w.share_memory_mib = 10240;
	assert_true(plan_profile_for(h, &w, &per) >= 0);
	assert_int_equal(per, 3);		/* 40448 / 10240 */
	w.share_memory_mib = 40449;
	assert_int_equal(plan_profile_for(h, &w, &per), -1);
	assert_int_equal(per, -1);
	w.share_memory_mib = 0;
	assert_int_equal(plan_profile_for(h, &w, &per), -1);
	/* Unknown memory on the profile: no share. */
	w.profile = NULL;
	w.whole = 1;
	w.share_memory_mib = 1024;
	assert_int_equal(plan_profile_for(n, &w, &per), -1);
	assert_int_equal(per, -1);

	plan_geometry_free(h);
	plan_geometry_free(a);
	plan_geometry_free(n);
}

static void
test_device_name(void **state)
{
	struct plan_geometry	*h = build("H100-80GB");
	struct plan_geometry	*r = build("RTX-PRO-6000");
	char			 buf[64];

	(void)state;
	assert_string_equal(plan_device_name(h, "gpu-0",
	    place(h, "3g.40gb", 4), buf, sizeof buf), "gpu-0-mig-3g40gb-9-4");
	assert_string_equal(plan_device_name(h, "gpu-0",
	    place(h, "1g.10gb+me", 0), buf, sizeof buf),
	    "gpu-0-mig-1g10gb-me-20-0");
	assert_string_equal(plan_device_name(h, "gpu-7",
	    place(h, "7g.80gb", 0), buf, sizeof buf), "gpu-7-mig-7g80gb-0-0");
	assert_string_equal(plan_device_name(h, "gpu-12",
	    place(h, "gpu", 0), buf, sizeof buf), "gpu-12");
	assert_string_equal(plan_device_name(r, "gpu-1",
	    place(r, "2g.48gb", 2), buf, sizeof buf), "gpu-1-mig-2g48gb-5-2");
	/* Exactly fits, one byte short, out of range. */
	assert_non_null(plan_device_name(h, "gpu-0", place(h, "3g.40gb", 4),
	    buf, sizeof("gpu-0-mig-3g40gb-9-4")));
	assert_null(plan_device_name(h, "gpu-0", place(h, "3g.40gb", 4),
	    buf, sizeof("gpu-0-mig-3g40gb-9-4") - 1));
	assert_null(plan_device_name(h, "gpu-0", 26, buf, sizeof buf));
	assert_null(plan_device_name(h, "gpu-0", -1, buf, sizeof buf));
	assert_null(plan_device_name(h, "gpu-0", 0, buf, 0));
	/* A MIG profile without a GI ID has no name. */
	h->profiles[prof(h, "3g.40gb")].gi_id = -1;
	assert_null(plan_device_name(h, "gpu-0", place(h, "3g.40gb", 4),
	    buf, sizeof buf));
	plan_geometry_free(h);
	plan_geometry_free(r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rule_counts),
		cmocka_unit_test(test_4g_3g),
		cmocka_unit_test(test_fragmented),
		cmocka_unit_test(test_every_pinned_state),
		cmocka_unit_test(test_first_fit_3g_4x1g),
		cmocka_unit_test(test_first_fit_loses),
		cmocka_unit_test(test_pinned_errors),
		cmocka_unit_test(test_fit_and_first_fit),
		cmocka_unit_test(test_profile_for),
		cmocka_unit_test(test_device_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
