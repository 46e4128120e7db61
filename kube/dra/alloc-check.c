/*
 * alloc-check.c: dra_device_check(), the per-device checks one at a
 * time, with evidence, for explanations.
 *
 * The order is the order in which allocator_incubating.go (Kubernetes
 * 1.37) rejects a candidate: GatherPools decides reachability and pool
 * state, validateDeviceRequest the class, then allocateOne's in-use
 * check, isSelectable (binding conditions, class selectors, request
 * selectors, per-device node selection), CmpRequestOverCapacity, and
 * allocateDevice (partitionable devices, checkAvailableCounters,
 * taintPreventsAllocation).
 */
#include "alloc-int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

static enum dra_check
done(struct dra_check_detail *out, enum dra_check c)
{
	out->check = c;
	return c;
}

/* The results that hold d, as AllocatedDevices counts them. */
static void
holders(struct dra_allocator *a, const struct kube_device *d,
    struct dra_check_detail *out)
{
	const struct kube_device_alloc	*al;
	const struct kube_result	*r;
	struct dra_released		*rl;
	size_t				 i;

	a->nholders = 0;
	for (i = 0; i < d->nallocs; i++) {
		al = &d->allocs[i];
		r = &al->claim->results[al->result];
		if (r->admin_access || al->claim->rejected != NULL)
			continue;
		if ((a->features & DRA_FEATURE_CONSUMABLE_CAPACITY) &&
		    r->share_id != NULL)
			continue;
		HASH_FIND_PTR(a->released, &al->claim, rl);
		if (rl != NULL)
			continue;
		if (a->nholders == a->capholders) {
			a->capholders = a->capholders ? a->capholders * 2 : 4;
			a->holders = xreallocarray(a->holders, a->capholders,
			    sizeof *a->holders);
		}
		a->holders[a->nholders++] = *al;
	}
	out->holders = a->holders;
	out->nholders = a->nholders;
}

/* Where d sits in the node's pools: its pool, or NULL. */
static struct dra_npool *
locate(struct dra_gather *g, const struct kube_device *d,
    struct dra_npool **incomplete)
{
	struct dra_npool	*p;
	size_t			 i, j;

	*incomplete = NULL;
	for (i = 0; i < g->npools; i++) {
		p = &g->pools[i];
		if (d->slice == NULL || strcmp(p->driver, d->slice->driver) != 0
		    || strcmp(p->name, d->slice->pool_name) != 0)
			continue;
		if (p->incomplete) {
			*incomplete = p;
			return NULL;
		}
		if (p->invalid)
			return p;
		for (j = 0; j < p->nslices; j++)
			if (p->slices[j] == d->slice)
				return p;
	}
	return NULL;
}

static int
slice_stale(struct dra_allocator *a, const struct kube_slice *sl)
{
	struct dra_apool	*ap;
	char			 key[1024];
	size_t			 i;

	snprintf(key, sizeof key, "%s%c%s", sl->driver, DRA_KEY_SEP,
	    sl->pool_name);
	HASH_FIND_STR(a->apools, key, ap);
	if (ap == NULL)
		return 0;
	for (i = 0; i < ap->nslices; i++)
		if (ap->slices[i]->generation > sl->generation)
			return 1;
	return 0;
}

/* Counters as checkAvailableCounters sees them with nothing picked. */
static int
check_counters(struct dra_allocator *a, struct dra_gather *g,
    struct dra_npool *np, const struct kube_device *d,
    struct dra_check_detail *out)
{
	struct kube_counter_set	*cs;
	int64_t			**avail = dra_pool_available(a, g, np);
	int64_t			  need;
	size_t			  i, j, q, x;

	for (i = 0; i < np->nsets; i++) {
		cs = np->sets[i];
		for (j = 0; j < cs->ncounters; j++) {
			need = 0;
			for (q = 0; q < d->nconsumes; q++) {
				if (!DRA_SAME(d->consumes[q].counter_set,
				    cs->name))
					continue;
				for (x = 0; x < d->consumes[q].ncounters; x++)
					if (DRA_SAME(d->consumes[q].counters[x].
					    name, cs->counters[j].name))
						need += d->consumes[q].
						    counters[x].value.milli;
			}
			if (avail[i][j] < need) {
				out->set = cs;
				out->counter = j;
				out->need = need;
				out->left = avail[i][j];
				return 0;
			}
		}
	}
	return 1;
}

/* The class of r, or the CLASS_MISSING detail. */
static const struct kube_device_class *
check_class(struct dra_allocator *a, const struct kube_device_request *r,
    struct dra_check_detail *out)
{
	const struct kube_device_class	*cls;

	if ((cls = dra_class(a, r->class_name)) == NULL) {
		out->message = xasprintf("device class %s does not exist",
		    r->class_name ? r->class_name : "");
		done(out, DRA_CHECK_CLASS_MISSING);
	}
	return cls;
}

/* The selector step (selectorsMatch): class, then request selectors. */
static enum dra_check
check_selectors(struct dra_allocator *a, const char *claim_ns,
    const struct kube_device_request *r, const struct kube_device_class *cls,
    const struct kube_device *d, struct dra_check_detail *out)
{
	struct dra_selres	sr;

	dra_selectors(a, d, r, cls, &sr);
	out->selector = sr.selector;
	switch (sr.verdict) {
	case DRA_SEL_MATCH:
		return done(out, DRA_CHECK_OK);
	case DRA_SEL_CLASS_FALSE:
		return done(out, DRA_CHECK_CLASS_SELECTOR);
	case DRA_SEL_REQ_FALSE:
		return done(out, DRA_CHECK_REQUEST_SELECTOR);
	case DRA_SEL_UNSUPPORTED:
		out->message = dra_cel_message(&sr, cls, claim_ns, "", d);
		return done(out, DRA_CHECK_CEL_UNSUPPORTED);
	default:
		out->message = dra_cel_message(&sr, cls, claim_ns, "", d);
		return done(out, DRA_CHECK_CEL_ERROR);
	}
}

enum dra_check
dra_device_check(struct dra_allocator *a, const char *node,
    const struct kube_node *n, const char *claim_ns,
    const struct kube_device_request *r, const struct kube_device *d,
    struct dra_check_detail *out)
{
	struct dra_gather		*g;
	struct dra_npool		*np, *inc;
	const struct kube_device_class	*cls;
	const struct dra_held		*h;
	const struct kube_capacity_request *missing = NULL;
	const struct kube_taint		*t;
	int				 multi, admin, rc;
	enum dra_check			 c;

	memset(out, 0, sizeof *out);
	if (a == NULL || r == NULL || d == NULL || d->slice == NULL)
		return done(out, DRA_CHECK_NODE);
	if (node == NULL && n != NULL)
		node = n->meta.name;
	g = dra_gather_pools(a, node, n);
	np = locate(g, d, &inc);
	if (inc != NULL) {
		out->message = xasprintf("resource pool %s/%s is currently "
		    "being updated", inc->driver, inc->name);
		return done(out, DRA_CHECK_POOL_INCOMPLETE);
	}
	if (np == NULL) {
		if (d->slice->rejected == NULL && slice_stale(a, d->slice)) {
			out->message = xasprintf("slice %s is of generation "
			    "%lld, older than the newest of pool %s/%s",
			    d->slice->meta.name,
			    (long long)d->slice->generation,
			    d->slice->driver, d->slice->pool_name);
			return done(out, DRA_CHECK_STALE);
		}
		out->message = xasprintf("device %s/%s/%s is not reachable "
		    "from node %s", d->slice->driver, d->slice->pool_name,
		    d->name, node ? node : "");
		return done(out, DRA_CHECK_NODE);
	}
	if (np->invalid) {
		out->message = xasprintf("resource pool %s/%s is invalid: %s",
		    np->driver, np->name, np->invalid_reason);
		return done(out, DRA_CHECK_POOL_INVALID);
	}
	if ((cls = check_class(a, r, out)) == NULL)
		return out->check;
	admin = r->admin_access && (a->features & DRA_FEATURE_ADMIN_ACCESS);
	h = dra_held_of(a, d);
	if (!admin && dra_held_in_use(h)) {
		holders(a, d, out);
		return done(out, DRA_CHECK_IN_USE);
	}
	if (!(a->features & DRA_FEATURE_BINDING_CONDITIONS) &&
	    d->nbinding_conditions > 0) {
		out->message = xstrdup("the device has binding conditions, "
		    "but DRADeviceBindingConditions is off");
		return done(out, DRA_CHECK_FEATURE);
	}
	if ((c = check_selectors(a, claim_ns, r, cls, d, out)) !=
	    DRA_CHECK_OK)
		return c;
	if (d->slice->per_device_node_selection &&
	    !dra_node_matches(node, n, d->node_name, d->all_nodes,
	    d->node_selector)) {
		out->message = xasprintf("device %s/%s/%s is not available "
		    "on node %s (per-device node selection)",
		    d->slice->driver, d->slice->pool_name, d->name,
		    node ? node : "");
		return done(out, DRA_CHECK_NODE);
	}
	if (a->features & DRA_FEATURE_CONSUMABLE_CAPACITY) {
		rc = dra_capacity_fits(a, d, r, h, NULL, &out->capacity,
		    &out->need, &out->left, &missing);
		if (rc == DRA_CAPACITY_NEGATIVE) {
			char name[512];

			out->message = xasprintf("capacity \"%s\": capacity "
			    "value is negative", dra_capacity_name(d,
			    out->capacity, name, sizeof name));
			out->need = out->left = 0;
			return done(out, DRA_CHECK_CAPACITY);
		}
		if (rc < 0) {
			out->capacity = NULL;
			out->message = xasprintf("the request asks for "
			    "capacity %s/%s, which the device does not "
			    "publish", missing->domain && *missing->domain ?
			    missing->domain : d->slice->driver, missing->id);
			return done(out, DRA_CHECK_CAPACITY);
		}
		if (rc == 0)
			return done(out, DRA_CHECK_CAPACITY);
		out->capacity = NULL;
		out->need = out->left = 0;
	}
	if (!(a->features & DRA_FEATURE_PARTITIONABLE) && d->nconsumes > 0) {
		out->message = xstrdup("the device consumes counters, but "
		    "DRAPartitionableDevices is off");
		return done(out, DRA_CHECK_FEATURE);
	}
	multi = (a->features & DRA_FEATURE_CONSUMABLE_CAPACITY) &&
	    d->allow_multiple;
	if (d->nconsumes > 0 && !(multi && h != NULL && (h->ncapres > 0 ||
	    h->nshared > 0)) &&
	    !check_counters(a, g, np, d, out))
		return done(out, DRA_CHECK_COUNTERS);
	if ((a->features & DRA_FEATURE_DEVICE_TAINTS) &&
	    (t = dra_untolerated_taint(d, r)) != NULL) {
		out->taint = t;
		return done(out, DRA_CHECK_TAINT);
	}
	return done(out, DRA_CHECK_OK);
}

enum dra_check
dra_device_selected(struct dra_allocator *a, const char *claim_ns,
    const struct kube_device_request *r, const struct kube_device *d,
    struct dra_check_detail *out)
{
	const struct kube_device_class	*cls;

	memset(out, 0, sizeof *out);
	if ((cls = check_class(a, r, out)) == NULL)
		return out->check;
	return check_selectors(a, claim_ns, r, cls, d, out);
}
