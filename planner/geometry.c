/*
 * geometry.c: feasibility, first fit and patterns on one GPU
 * (geometry.h).
 *
 * A GPU's state is the set of placements it holds; what is left of
 * each counter is the capacity minus their use[].  Two searches build
 * the patterns of plan_patterns():
 *
 *  - static (no flag): a depth-first search over placements in index
 *    order, each either added (when it fits) or not, which visits
 *    every feasible set once.  A subtree depends only on the next
 *    index, what is left of each counter and the counts so far, so
 *    those triples are memoised and a repeated one is skipped; each
 *    new count vector keeps the first set that gave it.
 *  - first fit: a breadth-first search over arrival orders.  From a
 *    state, one more instance of profile p goes to plan_first_fit(),
 *    so each state has at most one successor per profile; states are
 *    memoised on the occupied set, which makes the search exact over
 *    every arrival order and bounded by the feasible sets.  Each new
 *    count vector keeps the path (an arrival order) that reached it
 *    first, a shortest one.
 *
 * Count vectors are deduplicated in a uthash table keyed by the
 * vector.
 */
#include "geometry.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <uthash.h>

#include "catalog.h"
#include "xmalloc.h"

/* Search states beyond which plan_patterns() gives up. */
#define GEO_MAX_STATES	2000000

/* A count vector found, with its realisation. */
struct geo_vec {
	int		*count;		/* key: npr ints */
	size_t		 npr;
	int		*added;		/* placements, in order */
	size_t		 nadded;
	UT_hash_handle	 hh;
};

/* A memoised search state (a byte string). */
struct geo_memo {
	unsigned char	*key;
	size_t		 len;
	struct geo_memo	*parent;	/* first fit: the state before */
	int		 via;		/* first fit: the placement added */
	struct geo_memo	*next;		/* first fit: the BFS queue */
	UT_hash_handle	 hh;
};

struct geo_search {
	const struct plan_geometry *g;
	size_t		 nc;		/* counters */
	size_t		 np;		/* placements */
	size_t		 npr;		/* profiles */
	int64_t		*rem;		/* capacity left, nc */
	unsigned char	*taken;		/* np: 1 pinned or added */
	unsigned char	*pinned;	/* np */
	int		*count;		/* npr: added per profile */
	int		*added;		/* np: added, in order */
	size_t		 nadded;
	int		**byprof;	/* per profile: its placements */
	size_t		*nbyprof;
	unsigned char	*key;		/* scratch memo key */
	size_t		 keylen;
	struct geo_vec	*vecs;
	struct geo_memo	*memo;
	size_t		 nstates;
	int		 toobig;
};

static void	*geo_calloc(size_t, size_t);
static int	 geo_fits(const struct geo_search *, size_t);
static void	 geo_take(struct geo_search *, size_t, int);
static void	 geo_untake(struct geo_search *, size_t, int);
static void	 geo_record(struct geo_search *);
static int	 geo_memo_add(struct geo_search *, const void *, size_t,
		    struct geo_memo **);
static void	 geo_dfs(struct geo_search *, size_t);
static int	 geo_first(const struct geo_search *, int);
static void	 geo_bfs(struct geo_search *);
static void	 geo_load(struct geo_search *, const struct geo_memo *);
static int	 geo_cmp_vec(const void *, const void *);
static int	 geo_pinned_check(const struct plan_geometry *, const int *,
		    size_t, struct dra_err *);
static int	 geo_model_matches(const struct plan_geometry *,
		    const char *);
static int	 geo_meets(const struct plan_profile *,
		    const struct plan_workload *);

/* calloc that takes n == 0 (xcalloc aborts on a zero size). */
static void *
geo_calloc(size_t n, size_t size)
{
	return (xcalloc(n > 0 ? n : 1, size));
}

int
plan_placements_fit(const struct plan_geometry *g, const int *placements,
    size_t n)
{
	int64_t		*sum;
	size_t		 i, j, c;
	int		 p, ok = 1;

	sum = geo_calloc(g->ncounters, sizeof(*sum));
	for (i = 0; i < n && ok; i++) {
		p = placements[i];
		if (p < 0 || (size_t)p >= g->nplacements) {
			ok = 0;
			break;
		}
		for (j = 0; j < i; j++) {
			if (placements[j] == p)
				ok = 0;
		}
		for (c = 0; c < g->ncounters && ok; c++) {
			sum[c] += g->placements[p].use[c];
			if (sum[c] > g->capacity[c])
				ok = 0;
		}
	}
	free(sum);
	return (ok);
}

int
plan_first_fit(const struct plan_geometry *g, const int *occupied,
    size_t nocc, int profile)
{
	int64_t		*rem;
	unsigned char	*taken;
	size_t		 i, c;
	int		 p, found = -1;

	if (profile < 0 || (size_t)profile >= g->nprofiles)
		return (-1);
	rem = geo_calloc(g->ncounters, sizeof(*rem));
	taken = geo_calloc(g->nplacements, 1);
	memcpy(rem, g->capacity, g->ncounters * sizeof(*rem));
	for (i = 0; i < nocc; i++) {
		p = occupied[i];
		if (p < 0 || (size_t)p >= g->nplacements)
			continue;
		taken[p] = 1;
		for (c = 0; c < g->ncounters; c++)
			rem[c] -= g->placements[p].use[c];
	}
	for (i = 0; i < g->nplacements && found < 0; i++) {
		if (g->placements[i].profile != profile || taken[i])
			continue;
		for (c = 0; c < g->ncounters; c++) {
			if (g->placements[i].use[c] > rem[c])
				break;
		}
		if (c == g->ncounters)
			found = (int)i;
	}
	free(taken);
	free(rem);
	return (found);
}

/* 1 when placement i is free and fits in what is left. */
static int
geo_fits(const struct geo_search *s, size_t i)
{
	const int64_t	*use = s->g->placements[i].use;
	size_t		 c;

	if (s->taken[i])
		return (0);
	for (c = 0; c < s->nc; c++) {
		if (use[c] > s->rem[c])
			return (0);
	}
	return (1);
}

/* Take placement i; added: it counts as added (not pinned). */
static void
geo_take(struct geo_search *s, size_t i, int added)
{
	const struct plan_placement	*pl = &s->g->placements[i];
	size_t				 c;

	s->taken[i] = 1;
	for (c = 0; c < s->nc; c++)
		s->rem[c] -= pl->use[c];
	if (added) {
		s->count[pl->profile]++;
		s->added[s->nadded++] = (int)i;
	}
}

static void
geo_untake(struct geo_search *s, size_t i, int added)
{
	const struct plan_placement	*pl = &s->g->placements[i];
	size_t				 c;

	s->taken[i] = 0;
	for (c = 0; c < s->nc; c++)
		s->rem[c] += pl->use[c];
	if (added) {
		s->count[pl->profile]--;
		s->nadded--;
	}
}

/* Keep the current count vector and its placements if it is new. */
static void
geo_record(struct geo_search *s)
{
	struct geo_vec	*v;
	size_t		 klen = s->npr * sizeof(int);

	HASH_FIND(hh, s->vecs, s->count, klen, v);
	if (v != NULL)
		return;
	v = xcalloc(1, sizeof(*v));
	v->count = geo_calloc(s->npr, sizeof(int));
	memcpy(v->count, s->count, klen);
	v->npr = s->npr;
	v->nadded = s->nadded;
	if (s->nadded > 0) {
		v->added = xcalloc(s->nadded, sizeof(int));
		memcpy(v->added, s->added, s->nadded * sizeof(int));
	}
	HASH_ADD_KEYPTR(hh, s->vecs, v->count, klen, v);
}

/*
 * Add the state key (len bytes) to the memo unless it is there.
 * Returns 1 and the new entry in *out (may be NULL) when added, 0 when
 * it was there or the search is over its bound.
 */
static int
geo_memo_add(struct geo_search *s, const void *key, size_t len,
    struct geo_memo **out)
{
	struct geo_memo	*m;

	HASH_FIND(hh, s->memo, key, len, m);
	if (m != NULL)
		return (0);
	if (++s->nstates > GEO_MAX_STATES) {
		s->toobig = 1;
		return (0);
	}
	m = xcalloc(1, sizeof(*m));
	m->key = xmalloc(len);
	memcpy(m->key, key, len);
	m->len = len;
	m->via = -1;
	HASH_ADD_KEYPTR(hh, s->memo, m->key, m->len, m);
	if (out != NULL)
		*out = m;
	return (1);
}

/*
 * Static search: record the current set, then try every placement
 * from index `from` on.  Memo key: from, rem[], count[].
 */
static void
geo_dfs(struct geo_search *s, size_t from)
{
	uint64_t	f = from;
	size_t		j, off = 0;

	memcpy(s->key + off, &f, sizeof(f));
	off += sizeof(f);
	memcpy(s->key + off, s->rem, s->nc * sizeof(*s->rem));
	off += s->nc * sizeof(*s->rem);
	memcpy(s->key + off, s->count, s->npr * sizeof(*s->count));
	off += s->npr * sizeof(*s->count);
	if (!geo_memo_add(s, s->key, off, NULL))
		return;
	geo_record(s);
	for (j = from; j < s->np && !s->toobig; j++) {
		if (!geo_fits(s, j))
			continue;
		geo_take(s, j, 1);
		geo_dfs(s, j + 1);
		geo_untake(s, j, 1);
	}
}

/* First fit for profile p in the current state: a placement or -1. */
static int
geo_first(const struct geo_search *s, int p)
{
	size_t	k;
	int	i;

	for (k = 0; k < s->nbyprof[p]; k++) {
		i = s->byprof[p][k];
		if (geo_fits(s, (size_t)i))
			return (i);
	}
	return (-1);
}

/*
 * Make the search's state that of memo entry m: taken, rem, count and
 * added (the arrival order along m's parents).
 */
static void
geo_load(struct geo_search *s, const struct geo_memo *m)
{
	const struct geo_memo	*q;
	size_t			 n = 0, i;
	int			 via;

	while (s->nadded > 0)
		geo_untake(s, (size_t)s->added[s->nadded - 1], 1);
	for (q = m; q != NULL && q->via >= 0; q = q->parent)
		n++;
	/* Write the path backwards into added[], then take in order. */
	i = n;
	for (q = m; q != NULL && q->via >= 0; q = q->parent)
		s->added[--i] = q->via;
	for (i = 0; i < n; i++) {
		via = s->added[i];
		geo_take(s, (size_t)via, 0);
		s->count[s->g->placements[via].profile]++;
	}
	s->nadded = n;
}

/* First-fit search from the pinned state (already taken). */
static void
geo_bfs(struct geo_search *s)
{
	struct geo_memo	*head = NULL, *tail = NULL, *m, *nm;
	size_t		 klen = (s->np + 7) / 8, i;
	int		 p, q;

	memset(s->key, 0, klen);
	for (i = 0; i < s->np; i++) {
		if (s->taken[i])
			s->key[i / 8] |= (unsigned char)(1u << (i % 8));
	}
	if (!geo_memo_add(s, s->key, klen, &head))
		return;
	tail = head;
	for (m = head; m != NULL && !s->toobig; m = m->next) {
		geo_load(s, m);
		geo_record(s);
		for (p = 0; p < (int)s->npr && !s->toobig; p++) {
			q = geo_first(s, p);
			if (q < 0)
				continue;
			memcpy(s->key, m->key, klen);
			s->key[q / 8] |= (unsigned char)(1u << (q % 8));
			nm = NULL;
			if (!geo_memo_add(s, s->key, klen, &nm))
				continue;
			nm->parent = m;
			nm->via = q;
			tail->next = nm;
			tail = nm;
		}
	}
}

static int
geo_cmp_vec(const void *a, const void *b)
{
	const struct geo_vec	*x = *(const struct geo_vec *const *)a;
	const struct geo_vec	*y = *(const struct geo_vec *const *)b;
	size_t			 i;

	for (i = 0; i < x->npr; i++) {
		if (x->count[i] != y->count[i])
			return (x->count[i] < y->count[i] ? -1 : 1);
	}
	return (0);
}

/* KUBE_OK when the pinned placements are valid and fit together. */
static int
geo_pinned_check(const struct plan_geometry *g, const int *pinned,
    size_t npinned, struct dra_err *err)
{
	char		 list[512], why[256];
	int64_t		*sum;
	size_t		 i, j, c, len = 0;
	int		 p;

	for (i = 0; i < npinned; i++) {
		if (pinned[i] < 0 || (size_t)pinned[i] >= g->nplacements)
			return (dra_err_set(err, KUBE_E_CONFIG,
			    "pinned placement %d out of range (%s has %zu)",
			    pinned[i], g->model != NULL ? g->model : "GPU",
			    g->nplacements));
	}
	if (plan_placements_fit(g, pinned, npinned))
		return (KUBE_OK);

	list[0] = '\0';
	for (i = 0; i < npinned && len < sizeof(list); i++) {
		p = pinned[i];
		len += (size_t)snprintf(list + len, sizeof(list) - len,
		    "%s%s@%d", i > 0 ? ", " : "",
		    g->profiles[g->placements[p].profile].name,
		    g->placements[p].start);
	}
	why[0] = '\0';
	sum = geo_calloc(g->ncounters, sizeof(*sum));
	for (i = 0; i < npinned && why[0] == '\0'; i++) {
		p = pinned[i];
		for (j = 0; j < i; j++) {
			if (pinned[j] == p)
				snprintf(why, sizeof(why), "%s@%d listed twice",
				    g->profiles[g->placements[p].profile].name,
				    g->placements[p].start);
		}
		for (c = 0; c < g->ncounters && why[0] == '\0'; c++) {
			sum[c] += g->placements[p].use[c];
			if (sum[c] > g->capacity[c])
				snprintf(why, sizeof(why),
				    "counter \"%s\": %lld > %lld",
				    g->counters[c], (long long)sum[c],
				    (long long)g->capacity[c]);
		}
	}
	free(sum);
	return (dra_err_set(err, KUBE_E_CONFIG,
	    "pinned placements %s do not fit together on one %s GPU (%s)",
	    list, g->model != NULL ? g->model : "", why));
}

int
plan_patterns(const struct plan_geometry *g, const int *pinned,
    size_t npinned, unsigned flags, struct plan_pattern **out,
    size_t *nout, struct dra_err *err)
{
	struct geo_search	 s;
	struct geo_vec		*v, *tmp, **all;
	struct geo_memo		*m, *mtmp;
	struct plan_pattern	*pat;
	const struct plan_profile *pr;
	size_t			 i, k, n, keylen;
	int			 rc, base_c = 0, base_m = 0, pf;

	*out = NULL;
	*nout = 0;
	rc = geo_pinned_check(g, pinned, npinned, err);
	if (rc != KUBE_OK)
		return (rc);

	memset(&s, 0, sizeof(s));
	s.g = g;
	s.nc = g->ncounters;
	s.np = g->nplacements;
	s.npr = g->nprofiles;
	s.rem = geo_calloc(s.nc, sizeof(*s.rem));
	memcpy(s.rem, g->capacity, s.nc * sizeof(*s.rem));
	s.taken = geo_calloc(s.np, 1);
	s.pinned = geo_calloc(s.np, 1);
	s.count = geo_calloc(s.npr, sizeof(*s.count));
	s.added = geo_calloc(s.np, sizeof(*s.added));
	s.byprof = geo_calloc(s.npr, sizeof(*s.byprof));
	s.nbyprof = geo_calloc(s.npr, sizeof(*s.nbyprof));
	for (k = 0; k < s.npr; k++)
		s.byprof[k] = geo_calloc(s.np, sizeof(int));
	for (i = 0; i < s.np; i++) {
		pf = g->placements[i].profile;
		if (pf >= 0 && (size_t)pf < s.npr)
			s.byprof[pf][s.nbyprof[pf]++] = (int)i;
	}
	keylen = sizeof(uint64_t) + s.nc * sizeof(int64_t) +
	    s.npr * sizeof(int) + (s.np + 7) / 8;
	s.key = geo_calloc(keylen, 1);
	for (i = 0; i < npinned; i++) {
		s.pinned[pinned[i]] = 1;
		geo_take(&s, (size_t)pinned[i], 0);
		pr = &g->profiles[g->placements[pinned[i]].profile];
		base_c += pr->compute;
		base_m += pr->memory;
	}

	if (flags & PLAN_PATTERN_FIRST_FIT)
		geo_bfs(&s);
	else
		geo_dfs(&s, 0);

	HASH_ITER(hh, s.memo, m, mtmp) {
		HASH_DEL(s.memo, m);
		free(m->key);
		free(m);
	}
	n = HASH_COUNT(s.vecs);
	all = geo_calloc(n, sizeof(*all));
	i = 0;
	HASH_ITER(hh, s.vecs, v, tmp) {
		HASH_DEL(s.vecs, v);
		all[i++] = v;
	}
	if (s.toobig) {
		rc = dra_err_set(err, KUBE_E_TOOBIG,
		    "%s: more than %d placement combinations to search",
		    g->model != NULL ? g->model : "GPU", GEO_MAX_STATES);
	} else {
		qsort(all, n, sizeof(*all), geo_cmp_vec);
		pat = geo_calloc(n, sizeof(*pat));
		for (i = 0; i < n; i++) {
			v = all[i];
			pat[i].count = v->count;
			v->count = NULL;
			pat[i].placements = v->added;
			v->added = NULL;
			pat[i].nplacements = v->nadded;
			pat[i].compute = base_c;
			pat[i].memory = base_m;
			for (k = 0; k < v->nadded; k++) {
				pf = pat[i].placements[k];
				pr = &g->profiles[g->placements[pf].profile];
				pat[i].compute += pr->compute;
				pat[i].memory += pr->memory;
			}
		}
		*out = pat;
		*nout = n;
	}
	for (i = 0; i < n; i++) {
		free(all[i]->count);
		free(all[i]->added);
		free(all[i]);
	}
	free(all);
	for (k = 0; k < s.npr; k++)
		free(s.byprof[k]);
	free(s.byprof);
	free(s.nbyprof);
	free(s.key);
	free(s.added);
	free(s.count);
	free(s.pinned);
	free(s.taken);
	free(s.rem);
	return (rc);
}

void
plan_patterns_free(struct plan_pattern *p, size_t n)
{
	size_t	i;

	if (p == NULL)
		return;
	for (i = 0; i < n; i++) {
		free(p[i].count);
		free(p[i].placements);
	}
	free(p);
}

char *
plan_device_name(const struct plan_geometry *g, const char *gpu_name,
    int placement, char *buf, size_t len)
{
	const struct plan_placement	*pl;
	const struct plan_profile	*pr;
	const char			*c;
	size_t				 n;
	int				 w;

	if (placement < 0 || (size_t)placement >= g->nplacements ||
	    len == 0)
		return (NULL);
	pl = &g->placements[placement];
	pr = &g->profiles[pl->profile];
	if (pr->whole) {
		w = snprintf(buf, len, "%s", gpu_name);
		return (w >= 0 && (size_t)w < len ? buf : NULL);
	}
	if (pr->gi_id < 0)
		return (NULL);
	w = snprintf(buf, len, "%s-mig-", gpu_name);
	if (w < 0 || (size_t)w >= len)
		return (NULL);
	n = (size_t)w;
	for (c = pr->name; *c != '\0'; c++) {
		if (*c == '.')
			continue;
		if (n + 1 >= len)
			return (NULL);
		buf[n++] = *c == '+' ? '-' : (char)tolower((unsigned char)*c);
	}
	w = snprintf(buf + n, len - n, "-%d-%d", pr->gi_id, pl->start);
	if (w < 0 || (size_t)w >= len - n)
		return (NULL);
	return (buf);
}

int
plan_profile_index(const struct plan_geometry *g, const char *name)
{
	size_t	i;

	if (name == NULL)
		return (-1);
	for (i = 0; i < g->nprofiles; i++) {
		if (strcmp(g->profiles[i].name, name) == 0)
			return ((int)i);
	}
	return (-1);
}

/* 1 when a workload's model names g's model. */
static int
geo_model_matches(const struct plan_geometry *g, const char *model)
{
	const char	*a, *b = NULL;

	if (g->model != NULL && strcasecmp(model, g->model) == 0)
		return (1);
	a = plan_catalog_canonical(model);
	if (a == NULL)
		return (0);
	if (g->model != NULL)
		b = plan_catalog_canonical(g->model);
	if (b == NULL && g->product != NULL)
		b = plan_catalog_for_product(g->product);
	return (b != NULL && strcmp(a, b) == 0);
}

/* 1 when profile pr meets w's requirement (unknown never does). */
static int
geo_meets(const struct plan_profile *pr, const struct plan_workload *w)
{
	if (w->need_sm > 0 && (pr->sm <= 0 || pr->sm < w->need_sm))
		return (0);
	if (w->need_memory_mib > 0 && (pr->memory_mib <= 0 ||
	    pr->memory_mib < w->need_memory_mib))
		return (0);
	return (1);
}

int
plan_profile_for(const struct plan_geometry *g,
    const struct plan_workload *w, int *per_device)
{
	const struct plan_profile	*pr, *bp;
	size_t				 i;
	int				 best = -1, n;

	if (per_device != NULL)
		*per_device = -1;
	if (w->model != NULL && !geo_model_matches(g, w->model))
		return (-1);
	if (w->profile != NULL)
		best = plan_profile_index(g, w->profile);
	else if (w->whole) {
		for (i = 0; i < g->nprofiles && best < 0; i++) {
			if (g->profiles[i].whole)
				best = (int)i;
		}
	} else if (w->need_memory_mib > 0 || w->need_sm > 0) {
		for (i = 0; i < g->nprofiles; i++) {
			pr = &g->profiles[i];
			if (pr->whole || pr->me || !geo_meets(pr, w))
				continue;
			if (best >= 0) {
				bp = &g->profiles[best];
				if (pr->compute > bp->compute)
					continue;
				if (pr->compute == bp->compute &&
				    pr->memory > bp->memory)
					continue;
				if (pr->compute == bp->compute &&
				    pr->memory == bp->memory &&
				    pr->memory_mib >= bp->memory_mib)
					continue;
			}
			best = (int)i;
		}
		for (i = 0; i < g->nprofiles && best < 0; i++) {
			pr = &g->profiles[i];
			if (pr->whole && geo_meets(pr, w))
				best = (int)i;
		}
	}
	if (best < 0)
		return (-1);

	switch (w->share) {
	case PLAN_SHARE_TIME_SLICING:
	case PLAN_SHARE_MPS:
		n = w->per_device > 1 ? w->per_device : 1;
		break;
	case PLAN_SHARE_MEMORY:
		n = 0;
		if (w->share_memory_mib > 0 &&
		    g->profiles[best].memory_mib > 0)
			n = (int)(g->profiles[best].memory_mib /
			    w->share_memory_mib);
		if (n <= 0)
			return (-1);
		break;
	default:
		n = 1;
		break;
	}
	if (per_device != NULL)
		*per_device = n;
	return (best);
}
