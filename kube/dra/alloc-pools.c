/*
 * alloc-pools.c: the resource pools one node sees.
 *
 * Mirrors GatherPools, addSlice, buildPool, checkSlicesInPool,
 * validateDeviceNames, getAndValidateCounterSets,
 * validateDeviceCounterConsumption and poolHasBindingConditions of
 * structured/internal/incubating/pools_incubating.go (Kubernetes 1.37):
 *
 *  - the slices considered are those whose nodeName is the node, then
 *    every slice without a nodeName; a slice is relevant when its
 *    nodeName, allNodes or nodeSelector matches the node, or (with
 *    perDeviceNodeSelection) when any of its devices' does;
 *  - per (driver, pool) only the newest generation among the relevant
 *    slices counts; when they are fewer than resourceSliceCount, all
 *    slices of the pool are looked at: a newer generation anywhere
 *    makes the pool obsolete (ignored), too few slices at this
 *    generation make it incomplete, else the slices that were not
 *    relevant join as "not targeting the node" (their counters count);
 *  - slices are sorted by name; a pool is invalid for a repeated
 *    device name (among the slices targeting the node), a repeated
 *    counter-set name, or a device consuming a counter set or counter
 *    that does not exist;
 *  - pools are sorted by driver, then name, pools with devices that
 *    have binding conditions last.
 */
#include "alloc-int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

/* Relevant slices of one pool while gathering. */
struct gpool {
	struct dra_apool	 *ap;
	struct kube_slice	**slices;
	size_t			  nslices, cap;
	UT_hash_handle		  hh;
};

struct nameset {
	const char	*name;
	UT_hash_handle	 hh;
};

static int
slice_relevant(const char *node, const struct kube_node *n,
    const struct kube_slice *sl)
{
	size_t	i;

	if ((sl->node_name != NULL && *sl->node_name != '\0') ||
	    sl->all_nodes || sl->node_selector != NULL)
		return dra_node_matches(node, n, sl->node_name, sl->all_nodes,
		    sl->node_selector);
	if (sl->per_device_node_selection) {
		for (i = 0; i < sl->ndevices; i++) {
			if (dra_node_matches(node, n,
			    sl->devices[i].node_name,
			    sl->devices[i].all_nodes,
			    sl->devices[i].node_selector))
				return 1;
		}
	}
	return 0;
}

static int
cmp_slice_name(const void *a, const void *b)
{
	const struct kube_slice	*x = *(const struct kube_slice *const *)a;
	const struct kube_slice	*y = *(const struct kube_slice *const *)b;

	return strcmp(x->meta.name ? x->meta.name : "",
	    y->meta.name ? y->meta.name : "");
}

static int
cmp_npool(const void *a, const void *b)
{
	const struct dra_npool	*x = a, *y = b;
	int			 c;

	if (x->binding != y->binding)
		return x->binding - y->binding;
	if ((c = strcmp(x->driver, y->driver)) != 0)
		return c;
	return strcmp(x->name, y->name);
}

static struct kube_slice **
copy_slices(struct dra_scratch *mem, struct kube_slice **v, size_t n)
{
	struct kube_slice	**out;

	if (n == 0)
		return NULL;
	out = dra_scratch_calloc(mem, n, sizeof *out);
	memcpy(out, v, n * sizeof *out);
	return out;
}

static void	pool_invalid(struct dra_scratch *, struct dra_npool *,
		    const char *, ...) __attribute__((format(printf, 3, 4)));

static void
pool_invalid(struct dra_scratch *mem, struct dra_npool *p, const char *fmt,
    ...)
{
	char	msg[768];
	va_list	ap;

	p->invalid = 1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	p->invalid_reason = dra_scratch_strdup(mem, msg);
}

static struct kube_counter_set *
find_set(struct dra_npool *p, const char *name)
{
	size_t	i;

	for (i = 0; i < p->nsets; i++)
		if (DRA_SAME(p->sets[i]->name, name))
			return p->sets[i];
	return NULL;
}

/* validateDeviceCounterConsumption over v[0..n). */
static int
check_consumption(struct dra_scratch *mem, struct dra_npool *p,
    struct kube_slice **v, size_t n)
{
	struct kube_device_counters	*dc;
	struct kube_counter_set		*cs;
	size_t				 i, j, k, c, m;

	for (i = 0; i < n; i++) {
		for (j = 0; j < v[i]->ndevices; j++) {
			for (k = 0; k < v[i]->devices[j].nconsumes; k++) {
				dc = &v[i]->devices[j].consumes[k];
				cs = find_set(p, dc->counter_set);
				if (cs == NULL) {
					pool_invalid(mem, p, "counter set %s "
					    "not found", dc->counter_set);
					return 0;
				}
				for (c = 0; c < dc->ncounters; c++) {
					for (m = 0; m < cs->ncounters; m++)
						if (DRA_SAME(cs->counters[m].name,
						    dc->counters[c].name))
							break;
					if (m == cs->ncounters) {
						pool_invalid(mem, p, "counter %s "
						    "not found in counter set "
						    "%s", dc->counters[c].name,
						    cs->name);
						return 0;
					}
				}
			}
		}
	}
	return 1;
}

/* buildPool: relevant slices, plus all slices at that generation. */
static void
build_pool(struct dra_allocator *a, struct dra_scratch *mem,
    struct dra_npool *p, struct kube_slice **rel, size_t nrel,
    struct kube_slice **all, size_t nall)
{
	int			 part = (a->features &
				    DRA_FEATURE_PARTITIONABLE) != 0;
	struct kube_slice      **devs, **others, **sets;
	size_t			 ndevs = 0, nothers = 0, nsetsl = 0, i, j;
	struct nameset		*names = NULL, *e, *te;
	struct kube_slice	*sl;
	int			 found, bad = 0;

	qsort(rel, nrel, sizeof *rel, cmp_slice_name);
	devs = xcalloc(nrel + 1, sizeof *devs);
	others = xcalloc(nall + 1, sizeof *others);
	sets = xcalloc(nrel + nall + 1, sizeof *sets);
	for (i = 0; i < nrel; i++) {
		if (part && rel[i]->ncounter_sets > 0)
			sets[nsetsl++] = rel[i];
		else
			devs[ndevs++] = rel[i];
	}
	if (nrel < nall) {
		for (i = 0; i < nall; i++) {
			sl = all[i];
			found = 0;
			for (j = 0; j < nrel && !found; j++)
				found = strcmp(rel[j]->meta.name,
				    sl->meta.name) == 0;
			if (found)
				continue;
			if (part && sl->ncounter_sets > 0)
				sets[nsetsl++] = sl;
			else
				others[nothers++] = sl;
		}
	}
	p->slices = copy_slices(mem, devs, ndevs);
	p->nslices = ndevs;

	/* validateDeviceNames */
	for (i = 0; i < ndevs && !bad; i++) {
		for (j = 0; j < devs[i]->ndevices && !bad; j++) {
			const char *name = devs[i]->devices[j].name;

			HASH_FIND_STR(names, name, e);
			if (e != NULL) {
				pool_invalid(mem, p, "duplicate device name %s",
				    name);
				bad = 1;
				break;
			}
			e = dra_scratch_calloc(mem, 1, sizeof *e);
			e->name = name;
			HASH_ADD_KEYPTR(hh, names, e->name, strlen(e->name),
			    e);
		}
	}
	HASH_ITER(hh, names, e, te)
		HASH_DEL(names, e);
	if (bad || !part)
		goto out;

	/* getAndValidateCounterSets */
	for (i = 0; i < nsetsl; i++)
		p->nsets += sets[i]->ncounter_sets;
	if (p->nsets > 0)
		p->sets = dra_scratch_calloc(mem, p->nsets,
		    sizeof *p->sets);
	p->nsets = 0;
	for (i = 0; i < nsetsl && !bad; i++) {
		for (j = 0; j < sets[i]->ncounter_sets; j++) {
			if (find_set(p, sets[i]->counter_sets[j].name)) {
				pool_invalid(mem, p, "duplicate counter set "
				    "name %s", sets[i]->counter_sets[j].name);
				bad = 1;
				break;
			}
			p->sets[p->nsets++] = &sets[i]->counter_sets[j];
		}
	}
	if (bad)
		goto out;
	if (!check_consumption(mem, p, devs, ndevs) ||
	    !check_consumption(mem, p, others, nothers))
		goto out;
	p->others = copy_slices(mem, others, nothers);
	p->nothers = nothers;
out:
	if (p->invalid) {
		p->slices = NULL;
		p->nslices = 0;
		p->sets = NULL;
		p->nsets = 0;
	}
	for (i = 0; i < p->nslices; i++)
		for (j = 0; j < p->slices[i]->ndevices; j++)
			if (p->slices[i]->devices[j].nbinding_conditions > 0)
				p->binding = 1;
	free(devs);
	free(others);
	free(sets);
}

static void
add_relevant(struct gpool **pools, struct kube_slice *sl,
    struct dra_apool *ap)
{
	struct gpool	*gp;

	HASH_FIND_PTR(*pools, &ap, gp);
	if (gp == NULL) {
		gp = xcalloc(1, sizeof *gp);
		gp->ap = ap;
		HASH_ADD_PTR(*pools, ap, gp);
	}
	/* addSlice */
	if (gp->nslices > 0) {
		if (sl->generation < gp->slices[0]->generation)
			return;
		if (sl->generation > gp->slices[0]->generation)
			gp->nslices = 0;
	}
	if (gp->nslices == gp->cap) {
		gp->cap = gp->cap ? gp->cap * 2 : 4;
		gp->slices = xreallocarray(gp->slices, gp->cap,
		    sizeof *gp->slices);
	}
	gp->slices[gp->nslices++] = sl;
}

/*
 * sliceUsesCompatibilityGroups: with DRADeviceCompatibilityGroups off
 * (1.37's default, not modelled) such slices are ignored, which leaves
 * their pool incomplete.
 */
static int
uses_compat_groups(const struct kube_slice *sl)
{
	size_t	i, j;

	for (i = 0; i < sl->ndevices; i++)
		for (j = 0; j < sl->devices[i].nconsumes; j++)
			if (sl->devices[i].consumes[j].ncompat_groups > 0)
				return 1;
	return 0;
}

static void
consider(struct dra_allocator *a, struct gpool **pools, const char *node,
    const struct kube_node *n, struct kube_slice *sl, struct dra_apool *ap)
{
	if (!(a->features & DRA_FEATURE_PARTITIONABLE) &&
	    (sl->per_device_node_selection || sl->ncounter_sets > 0))
		return;
	if (uses_compat_groups(sl))
		return;
	if (slice_relevant(node, n, sl))
		add_relevant(pools, sl, ap);
}

struct dra_gather *
dra_gather_pools(struct dra_allocator *a, const char *node,
    const struct kube_node *n)
{
	struct dra_gather	*g;
	struct dra_node_slices	*ns = NULL;
	struct gpool		*pools = NULL, *gp, *tgp;
	struct dra_npool	*p;
	struct kube_slice      **all;
	size_t			 i, j, nall, np = 0;
	int64_t			 gen, want;
	int			 obsolete;

	if (a->last != NULL && a->last->n == n && node != NULL &&
	    strcmp(a->last->node, node) == 0)
		return a->last;
	g = xcalloc(1, sizeof *g);
	g->node = dra_scratch_strdup(&g->scratch, node ? node : "");
	g->n = n;
	if (node != NULL)
		HASH_FIND_STR(a->on_node, node, ns);
	if (ns != NULL)
		for (i = 0; i < ns->nslices; i++)
			consider(a, &pools, node, n, ns->slices[i],
			    ns->aps[i]);
	for (i = 0; i < a->nshared; i++)
		consider(a, &pools, node, n, a->shared[i],
		    a->shared_aps[i]);

	g->pools = dra_scratch_calloc(&g->scratch, HASH_COUNT(pools) + 1,
	    sizeof *g->pools);
	all = NULL;
	HASH_ITER(hh, pools, gp, tgp) {
		p = &g->pools[np];
		memset(p, 0, sizeof *p);
		p->ap = gp->ap;
		p->driver = gp->ap->driver;
		p->name = gp->ap->name;
		want = gp->slices[0]->slice_count;
		if ((int64_t)gp->nslices == want) {
			if (gp->slices[0]->generation == gp->ap->maxgen &&
			    gp->nslices == gp->ap->nmaxgen) {
				/* The whole pool: built once, kept. */
				if (gp->ap->full == NULL) {
					gp->ap->full = dra_scratch_calloc(
					    &a->pool_mem, 1,
					    sizeof *gp->ap->full);
					build_pool(a, &a->pool_mem,
					    gp->ap->full, gp->slices,
					    gp->nslices, NULL, 0);
				}
				*p = *gp->ap->full;
				p->ap = gp->ap;
				p->driver = gp->ap->driver;
				p->name = gp->ap->name;
			} else
				build_pool(a, &g->scratch, p, gp->slices,
				    gp->nslices, NULL, 0);
			np++;
			goto next;
		}
		/* checkSlicesInPool */
		gen = gp->slices[0]->generation;
		obsolete = 0;
		all = xreallocarray(all, gp->ap->nslices + 1, sizeof *all);
		nall = 0;
		for (i = 0; i < gp->ap->nslices; i++) {
			if (gp->ap->slices[i]->generation == gen)
				all[nall++] = gp->ap->slices[i];
			else if (gp->ap->slices[i]->generation > gen)
				obsolete = 1;
		}
		if (obsolete)
			goto next;
		for (i = 0, j = 0; i < nall; i++)
			if (!uses_compat_groups(all[i]))
				all[j++] = all[i];
		nall = j;
		if ((int64_t)nall != want) {
			p->incomplete = 1;
			np++;
			goto next;
		}
		build_pool(a, &g->scratch, p, gp->slices, gp->nslices, all,
		    nall);
		np++;
next:
		HASH_DEL(pools, gp);
		free(gp->slices);
		free(gp);
	}
	free(all);
	g->npools = np;
	if (np > 1)
		qsort(g->pools, np, sizeof *g->pools, cmp_npool);
	dra_gather_free(a->last);
	a->last = g;
	return g;
}

void
dra_gather_free(struct dra_gather *g)
{
	if (g == NULL)
		return;
	dra_scratch_release(&g->scratch);
	free(g);
}

int64_t **
dra_pool_available(struct dra_allocator *a, struct dra_gather *g,
    struct dra_npool *np)
{
	struct kube_slice	       **v;
	struct kube_device		*d;
	struct kube_device_counters	*dc;
	size_t				 i, j, k, m, q, x, w, nv;

	if (np->avail != NULL && np->avail_gen == a->state_gen)
		return np->avail;
	if (np->avail == NULL) {
		np->avail = dra_scratch_calloc(&g->scratch, np->nsets + 1,
		    sizeof *np->avail);
		for (i = 0; i < np->nsets; i++)
			np->avail[i] = dra_scratch_calloc(&g->scratch,
			    np->sets[i]->ncounters + 1, sizeof **np->avail);
	}
	for (i = 0; i < np->nsets; i++)
		for (j = 0; j < np->sets[i]->ncounters; j++)
			np->avail[i][j] = np->sets[i]->counters[j].value.milli;
	for (w = 0; w < 2; w++) {
		v = w == 0 ? np->slices : np->others;
		nv = w == 0 ? np->nslices : np->nothers;
		for (i = 0; i < nv; i++) {
			for (j = 0; j < v[i]->ndevices; j++) {
				d = &v[i]->devices[j];
				if (d->nconsumes == 0 ||
				    !dra_held_allocated(dra_held_of(a, d)))
					continue;
				for (k = 0; k < d->nconsumes; k++) {
					dc = &d->consumes[k];
					for (m = 0; m < np->nsets; m++)
						if (DRA_SAME(np->sets[m]->name,
						    dc->counter_set))
							break;
					if (m == np->nsets)
						continue;
					for (q = 0; q < dc->ncounters; q++)
						for (x = 0; x < np->sets[m]->
						    ncounters; x++)
							if (DRA_SAME(np->sets[m]->counters[x].name, dc->counters[q].name))
								np->avail[m][x] -= dc->counters[q].value.milli;
				}
			}
		}
	}
	np->avail_gen = a->state_gen;
	return np->avail;
}
