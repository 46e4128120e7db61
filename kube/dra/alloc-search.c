/*
 * alloc-search.c: dra_allocate(), the search for one pod on one node.
 *
 * Mirrors Allocate, validateDeviceRequest, allocateOne, allocateDevice,
 * rollbackDevice, checkAvailableCounters and deallocateCountersForDevice
 * of structured/internal/incubating/allocator_incubating.go, the
 * matchAttribute / distinctAttribute constraints (allocator_incubating.go,
 * constraint.go), and the PreFilter class checks of kube-scheduler's
 * dynamicresources.go, all of k8s.io/dynamic-resource-allocation
 * v0.37.2 and k8s.io/kubernetes v1.37.2, the sources kube-scheduler
 * 1.37.2 is built from.  Compared with the 2026-07-01 snapshot
 * (3d03671) they carry the July 2026 fixes, which decide outcomes
 * (without #140431 case 08 could not be allocated):
 *  - kubernetes/kubernetes#140431: a candidate rejected after its
 *    counters were reserved (taint, constraint, capacity, the must
 *    error) gives back everything it reserved; undoing a pick gives
 *    back its counters, also for a device that allows multiple
 *    allocations, and keeps the "capacity in use" mark while another
 *    share of the device is still picked;
 *  - #140435: available and consumed counters are kept per pool ID
 *    (driver and pool), not per pool name;
 *  - #140437: an allow-multiple device that a claim already shares
 *    (shareID, with or without consumedCapacity) is not charged its
 *    counters again;
 *  - #140769: All gathers its devices with the static capacity check
 *    (nothing consumed), so a matching device whose capacity is used
 *    up makes the All request fail instead of being left out;
 *  - distinctAttribute compares a device with every device picked so
 *    far (a stack), not one value per request name;
 *  - the 32-result limit is checked request by request ("adding N
 *    devices exceeds the claim limit of 32, with M already accounted
 *    for"); a negative consumed capacity aborts.
 * Kept as upstream has it: adminAccess candidates reserve counters
 * like any other (#140729, open).
 * Not mirrored: the node selector, config, tolerations and share IDs
 * of the allocation result; capacity requests too large for int64
 * range arithmetic (errCapacityRequestNotRepresentable);
 * derivedAttributes (alpha, dropped by the API server when off).
 */
#include "alloc-int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

/* allocateOne results. */
#define R_NO		0
#define R_DONE		1
#define R_ERR		(-1)	/* run->msg holds the error */
#define R_EXCEEDED	(-2)	/* errAllocationResultMaxSizeExceeded */
#define R_STOP		(-3)	/* max_steps reached */
#define R_UNSUP		(-4)	/* unsupported CEL: run->msg */

/* A device at its place in the node's pools. */
struct cand {
	struct kube_device	*d;
	struct kube_slice	*sl;
	struct dra_npool	*np;
};

/* A request or one subrequest of a claim (requestData). */
struct rdata {
	const struct kube_device_request	*req;
	const char				*base;	/* request name */
	const char				*sub;	/* NULL if exact */
	char					*full;	/* "req[/sub]" */
	const struct kube_device_class		*cls;
	int					 all;
	int					 admin;
	int64_t					 ndev;
	struct cand				*alldevs;
	size_t					 nall;
};

struct rq {
	struct rdata	*subs;		/* one entry for an exact request */
	size_t		 nsubs;
	int		 has_subs;
	size_t		 selected;
};

struct seen {
	const struct kube_attr	*attr;
};

struct cons {
	int			 distinct;
	const char	       **requests;
	size_t			 nrequests;
	const char		*domain;	/* split attribute name */
	const char		*id;
	const struct kube_attr	*first;		/* match */
	struct seen		*seen;		/* distinct: a stack */
	size_t			 nseen, capseen;
	int			 n;
};

struct pick {
	struct rdata	*rd;
	struct cand	 c;
	int64_t		*consumed;	/* multi: d->ncapacity values */
	int		 counters;	/* counters reserved by this pick */
	int		 inserted;	/* claim added to allocatingDevices */
};

struct cl {
	const struct dra_claim_ref	*ref;
	struct rq			*reqs;
	size_t				 nreqs;
	struct cons			*cons;
	size_t				 ncons;
	struct pick			*picks;
	size_t				 npicks, cap;
};

/* allocatingDevices / allocatingCapacity entry of one device. */
struct ading {
	const struct kube_device	*d;
	unsigned char			*claims;	/* per claim index */
	int				 nclaims;
	int				 has_cap;	/* entry in allocatingCapacity */
	int				 nshares;	/* picks of a multi device */
	int64_t				*cap;		/* d->ncapacity */
	UT_hash_handle			 hh;
};

/* Counters of one pool: available, and consumed in this attempt. */
struct cpool {
	struct dra_npool	*np;
	int64_t		       **avail;		/* [set][counter] */
	int64_t		       **used;
};

struct run {
	struct dra_allocator	*a;
	const char		*node;
	const struct kube_node	*n;
	struct dra_gather	*g;
	struct cl		*claims;
	size_t			 nclaims;
	struct ading		*ading;
	struct cpool	       **cps;		/* by pool index */
	struct dra_scratch	 scratch;
	uint64_t		 steps;
	char			*msg;
	int			 saw_undecided;	/* counting met a CEL error */
};

static int	alloc_one(struct run *, size_t, size_t, size_t, int64_t, int,
		    size_t, size_t, size_t);

static void
set_msg(struct run *r, char *msg)
{
	free(r->msg);
	r->msg = msg;
}

static const char *
claim_obj(const struct cl *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", c->ref->namespace ? c->ref->namespace :
	    "", c->ref->name ? c->ref->name : "");
	return buf;
}

static const char *
rd_name(const struct rdata *rd)
{
	return rd->sub != NULL ? rd->sub : rd->base;
}

static struct ading *
ading_get(struct run *r, const struct kube_device *d, int create)
{
	struct ading	*e;

	HASH_FIND_PTR(r->ading, &d, e);
	if (e == NULL && create) {
		e = dra_scratch_calloc(&r->scratch, 1, sizeof *e);
		e->d = d;
		e->claims = dra_scratch_calloc(&r->scratch, r->nclaims + 1, 1);
		if (d->ncapacity > 0)
			e->cap = dra_scratch_calloc(&r->scratch, d->ncapacity,
			    sizeof *e->cap);
		HASH_ADD_PTR(r->ading, d, e);
	}
	return e;
}

static const struct dra_held *
held(struct run *r, const struct cand *c)
{
	return dra_held_of(r->a, c->d);
}

/* deviceInUse */
static int
in_use(struct run *r, const struct cand *c)
{
	struct ading	*e;

	if (dra_held_in_use(held(r, c)))
		return 1;
	e = ading_get(r, c->d, 0);
	return e != NULL && e->nclaims > 0;
}

static int
allocating_for_claim(struct run *r, const struct kube_device *d, size_t ci)
{
	struct ading	*e = ading_get(r, d, 0);

	return e != NULL && e->claims[ci];
}

/* deviceAlreadyShared: deviceCapacityInUse or a persisted share. */
static int
already_shared(struct run *r, const struct cand *c)
{
	const struct dra_held	*h = held(r, c);
	struct ading		*e;

	if (h != NULL && (h->ncapres > 0 || h->nshared > 0))
		return 1;
	e = ading_get(r, c->d, 0);
	return e != NULL && e->has_cap;
}

/*
 * The alloc.CmpRequestOverCapacity wrapper: 1 fits, 0 does not (or a
 * requested capacity is not published), DRA_CAPACITY_NEGATIVE an error;
 * *bad the capacity concerned.
 */
static int
capacity_ok(struct run *r, const struct rdata *rd, const struct cand *c,
    const struct kube_capacity **bad)
{
	struct ading	*e = ading_get(r, c->d, 0);
	int		 rc;

	rc = dra_capacity_fits(r->a, c->d, rd->req, held(r, c),
	    e != NULL && e->has_cap ? e->cap : NULL, bad, NULL, NULL, NULL);
	return rc == -1 ? 0 : rc;
}

/* The error of a negative consumed capacity, as CmpRequestOverCapacity. */
static int
capacity_error(struct run *r, size_t ci, const struct rdata *rd,
    const struct cand *c, const struct kube_capacity *bad, const char *verb,
    int full_id)
{
	char	obj[512], name[512], dev[1024];

	if (full_id)
		snprintf(dev, sizeof dev, "%s/%s/%s", c->sl->driver,
		    c->sl->pool_name, c->d->name);
	else
		snprintf(dev, sizeof dev, "%s", c->d->name);
	set_msg(r, xasprintf("claim %s, request %s: %s capacity for device "
	    "%s: capacity \"%s\": capacity value is negative",
	    claim_obj(&r->claims[ci], obj, sizeof obj), rd_name(rd), verb, dev,
	    dra_capacity_name(c->d, bad, name, sizeof name)));
	return R_ERR;
}

/* isSelectable: 1, 0, R_ERR or R_UNSUP. */
static int
selectable(struct run *r, size_t ci, const struct rdata *rd,
    const struct cand *c)
{
	struct dra_selres	 sr;
	const struct kube_device	*d = c->d;

	if (!(r->a->features & DRA_FEATURE_BINDING_CONDITIONS) &&
	    d->nbinding_conditions > 0)
		return 0;
	dra_selectors(r->a, d, rd->req, rd->cls, &sr);
	switch (sr.verdict) {
	case DRA_SEL_MATCH:
		break;
	case DRA_SEL_CLASS_FALSE:
	case DRA_SEL_REQ_FALSE:
		return 0;
	case DRA_SEL_UNSUPPORTED:
		set_msg(r, dra_cel_message(&sr, rd->cls,
		    r->claims[ci].ref->namespace, r->claims[ci].ref->name, d));
		return R_UNSUP;
	default:
		set_msg(r, dra_cel_message(&sr, rd->cls,
		    r->claims[ci].ref->namespace, r->claims[ci].ref->name, d));
		return R_ERR;
	}
	if (c->sl->per_device_node_selection &&
	    !dra_node_matches(r->node, r->n, d->node_name, d->all_nodes,
	    d->node_selector))
		return 0;
	return 1;
}

/* Counters of c's pool, computed on first use (availableCounters). */
static struct cpool *
cpool_get(struct run *r, const struct cand *c)
{
	struct dra_npool	*np = c->np;
	struct cpool		*cp;
	size_t			 i, pi;

	pi = (size_t)(np - r->g->pools);
	if ((cp = r->cps[pi]) != NULL)
		return cp;
	cp = dra_scratch_calloc(&r->scratch, 1, sizeof *cp);
	cp->np = np;
	cp->avail = dra_pool_available(r->a, r->g, np);
	cp->used = dra_scratch_calloc(&r->scratch, np->nsets + 1,
	    sizeof *cp->used);
	for (i = 0; i < np->nsets; i++)
		cp->used[i] = dra_scratch_calloc(&r->scratch,
		    np->sets[i]->ncounters + 1, sizeof **cp->used);
	r->cps[pi] = cp;
	return cp;
}

/* Add (sign 1) or take back (-1) what d consumes, by set/counter name. */
static void
counters_add(struct cpool *cp, const struct kube_device *d, int sign)
{
	struct kube_device_counters	*dc;
	struct dra_npool		*np = cp->np;
	size_t				 k, m, q, x;

	for (k = 0; k < d->nconsumes; k++) {
		dc = &d->consumes[k];
		for (m = 0; m < np->nsets; m++)
			if (DRA_SAME(np->sets[m]->name, dc->counter_set))
				break;
		if (m == np->nsets)
			continue;	/* never checked upstream either */
		for (q = 0; q < dc->ncounters; q++) {
			for (x = 0; x < np->sets[m]->ncounters; x++) {
				if (DRA_SAME(np->sets[m]->counters[x].name,
				    dc->counters[q].name)) {
					cp->used[m][x] += sign *
					    dc->counters[q].value.milli;
					break;
				}
			}
		}
	}
}

/* checkAvailableCounters: 1 and the counters kept, or 0. */
static int
counters_check(struct run *r, const struct cand *c)
{
	struct cpool	*cp = cpool_get(r, c);
	size_t		 i, j;

	counters_add(cp, c->d, 1);
	for (i = 0; i < cp->np->nsets; i++) {
		for (j = 0; j < cp->np->sets[i]->ncounters; j++) {
			if (cp->avail[i][j] < cp->used[i][j]) {
				counters_add(cp, c->d, -1);
				return 0;
			}
		}
	}
	return 1;
}

/* lookupAttribute */
static const struct kube_attr *
constraint_attr(const struct cons *k, const struct kube_device *d)
{
	if (k->id == NULL)
		return NULL;
	return kube_device_attr(d, k->domain, k->id);
}

static int
cons_applies(const struct cons *k, const struct rdata *rd)
{
	size_t	i;
	char	full[512];

	if (k->nrequests == 0)
		return 1;
	if (rd->sub != NULL)
		snprintf(full, sizeof full, "%s/%s", rd->base, rd->sub);
	for (i = 0; i < k->nrequests; i++) {
		if (strcmp(k->requests[i], rd->base) == 0)
			return 1;
		if (rd->sub != NULL && strcmp(k->requests[i], full) == 0)
			return 1;
	}
	return 0;
}

static int
attr_scalar(const struct kube_attr *a)
{
	return a->type == KUBE_ATTR_INT || a->type == KUBE_ATTR_BOOL ||
	    a->type == KUBE_ATTR_STRING || a->type == KUBE_ATTR_VERSION;
}

static int
attr_eq(const struct kube_attr *x, const struct kube_attr *y)
{
	if (x->type != y->type || !attr_scalar(x))
		return 0;
	if (x->type == KUBE_ATTR_INT || x->type == KUBE_ATTR_BOOL)
		return x->i == y->i;
	return strcmp(x->s ? x->s : "", y->s ? y->s : "") == 0;
}

/* constraint.add */
static int
cons_add(struct run *r, struct cons *k, const struct rdata *rd,
    const struct kube_device *d)
{
	const struct kube_attr	*at;
	size_t			 i;

	if (!cons_applies(k, rd))
		return 1;
	if ((at = constraint_attr(k, d)) == NULL)
		return 0;
	if (!k->distinct) {
		if (k->n == 0) {
			k->first = at;
			k->n = 1;
			return 1;
		}
		if (!attr_eq(at, k->first))
			return 0;
		k->n++;
		return 1;
	}
	/* matchesAttribute: unknown value types never match. */
	for (i = 0; i < k->nseen; i++)
		if (!attr_scalar(at) || attr_eq(at, k->seen[i].attr))
			return 0;
	if (k->nseen == k->capseen) {
		struct seen *nv;

		k->capseen = k->capseen ? k->capseen * 2 : 8;
		nv = dra_scratch_calloc(&r->scratch, k->capseen, sizeof *nv);
		if (k->nseen > 0)
			memcpy(nv, k->seen, k->nseen * sizeof *nv);
		k->seen = nv;
	}
	k->seen[k->nseen++].attr = at;
	k->n++;
	return 1;
}

/* constraint.remove */
static void
cons_remove(struct cons *k, const struct rdata *rd)
{
	if (!cons_applies(k, rd))
		return;
	k->n--;
	if (k->distinct && k->nseen > 0)
		k->nseen--;	/* removes are in reverse order of adds */
}

/*
 * allocateDevice: 1 (picked; undo with unpick()), 0, or R_ERR when
 * must is set and a constraint fails.
 */
static int
pick(struct run *r, size_t ci, struct rdata *rd, const struct cand *c,
    int must)
{
	struct dra_allocator	*a = r->a;
	struct cl		*claim = &r->claims[ci];
	const struct kube_device *d = c->d;
	struct ading		*e;
	struct pick		*p;
	const struct kube_capacity *bad = NULL;
	int			 multi, skip, reserved, inserted, rc;
	size_t			 i, j;
	char			 obj[512];

	multi = (a->features & DRA_FEATURE_CONSUMABLE_CAPACITY) &&
	    d->allow_multiple;
	if (!multi && rd->admin && allocating_for_claim(r, d, ci))
		return 0;
	if (!rd->admin && in_use(r, c))
		return 0;
	if (!(a->features & DRA_FEATURE_PARTITIONABLE) && d->nconsumes > 0)
		return 0;
	skip = multi && already_shared(r, c);
	reserved = 0;
	if (!skip && d->nconsumes > 0) {
		if (!counters_check(r, c))
			return 0;
		reserved = 1;
	}
	if ((a->features & DRA_FEATURE_DEVICE_TAINTS) &&
	    dra_untolerated_taint(d, rd->req) != NULL) {
		if (reserved)
			counters_add(cpool_get(r, c), d, -1);
		return 0;
	}
	for (i = 0; i < claim->ncons; i++) {
		if (cons_add(r, &claim->cons[i], rd, d))
			continue;
		for (j = 0; j < i; j++)
			cons_remove(&claim->cons[j], rd);
		if (reserved)
			counters_add(cpool_get(r, c), d, -1);
		if (must) {
			set_msg(r, xasprintf("claim %s, request %s: cannot add "
			    "device %s/%s/%s because a claim constraint would "
			    "not be satisfied", claim_obj(claim, obj,
			    sizeof obj), rd_name(rd), c->sl->driver,
			    c->sl->pool_name, d->name));
			return R_ERR;
		}
		return 0;
	}
	if ((a->features & DRA_FEATURE_CONSUMABLE_CAPACITY) &&
	    (rc = capacity_ok(r, rd, c, &bad)) <= 0) {
		for (j = 0; j < claim->ncons; j++)
			cons_remove(&claim->cons[j], rd);
		if (reserved)
			counters_add(cpool_get(r, c), d, -1);
		if (rc == DRA_CAPACITY_NEGATIVE)
			return capacity_error(r, ci, rd, c, bad, "rechecking",
			    1);
		return 0;
	}
	e = ading_get(r, d, 1);
	inserted = 0;
	if (!multi && !e->claims[ci]) {
		e->claims[ci] = 1;
		e->nclaims++;
		inserted = 1;
	}
	if (claim->npicks == claim->cap) {
		claim->cap = claim->cap ? claim->cap * 2 : 8;
		claim->picks = xreallocarray(claim->picks, claim->cap,
		    sizeof *claim->picks);
	}
	p = &claim->picks[claim->npicks++];
	memset(p, 0, sizeof *p);
	p->rd = rd;
	p->c = *c;
	p->counters = reserved;
	p->inserted = inserted;
	if (multi) {
		p->consumed = d->ncapacity > 0 ? xcalloc(d->ncapacity,
		    sizeof *p->consumed) : NULL;
		dra_capacity_consumed(a, d, rd->req, p->consumed);
		e->has_cap = 1;
		e->nshares++;
		for (i = 0; i < d->ncapacity; i++)
			e->cap[i] += p->consumed[i];
	}
	return 1;
}

/* The rollback function of allocateDevice, for the newest pick of ci. */
static void
unpick(struct run *r, size_t ci)
{
	struct cl		*claim = &r->claims[ci];
	struct pick		*p = &claim->picks[claim->npicks - 1];
	const struct kube_device *d = p->c.d;
	struct ading		*e = ading_get(r, d, 0);
	int			 multi, zero;
	size_t			 i;

	multi = (r->a->features & DRA_FEATURE_CONSUMABLE_CAPACITY) &&
	    d->allow_multiple;
	for (i = 0; i < claim->ncons; i++)
		cons_remove(&claim->cons[i], p->rd);
	if (e != NULL && p->inserted && e->claims[ci]) {
		e->claims[ci] = 0;
		e->nclaims--;
	}
	if (multi && e != NULL) {
		e->nshares--;
		zero = 1;
		for (i = 0; p->consumed != NULL && i < d->ncapacity; i++) {
			e->cap[i] -= p->consumed[i];
			if (e->cap[i] != 0)
				zero = 0;
		}
		/* The mark stays while another share relies on it. */
		if (zero && e->nshares == 0)
			e->has_cap = 0;
	}
	if (p->counters)
		counters_add(cpool_get(r, &p->c), d, -1);
	free(p->consumed);
	claim->npicks--;
}

static int
search_devices(struct run *r, size_t ci, size_t ri, size_t si, int64_t di,
    int sub_mode, size_t sp, size_t ss, size_t sd)
{
	struct rdata	*rd = &r->claims[ci].reqs[ri].subs[si];
	struct dra_npool *np;
	const struct kube_capacity *bad = NULL;
	struct cand	 c;
	size_t		 pi, li, dvi;
	int		 rc;

	for (pi = sp; pi < r->g->npools; pi++) {
		np = &r->g->pools[pi];
		if (np->incomplete || np->invalid)
			continue;
		for (li = pi == sp ? ss : 0; li < np->nslices; li++) {
			c.sl = np->slices[li];
			c.np = np;
			for (dvi = pi == sp && li == ss ? sd : 0;
			    dvi < c.sl->ndevices; dvi++) {
				c.d = &c.sl->devices[dvi];
				if (++r->steps > r->a->max_steps)
					return R_STOP;
				if (rd->admin &&
				    allocating_for_claim(r, c.d, ci))
					continue;
				if (!rd->admin && in_use(r, &c))
					continue;
				rc = selectable(r, ci, rd, &c);
				if (rc < 0)
					return rc;
				if (rc == 0)
					continue;
				if ((r->a->features &
				    DRA_FEATURE_CONSUMABLE_CAPACITY) &&
				    (rc = capacity_ok(r, rd, &c, &bad)) <= 0) {
					if (rc == DRA_CAPACITY_NEGATIVE)
						return capacity_error(r, ci, rd,
						    &c, bad, "checking", 1);
					continue;
				}
				rc = pick(r, ci, rd, &c, 0);
				if (rc < 0)
					return rc;
				if (rc == 0)
					continue;
				rc = alloc_one(r, ci, ri, si, di + 1, sub_mode,
				    pi, li, dvi + 1);
				if (rc == R_DONE)
					return R_DONE;
				if (rc == R_STOP)
					return rc;
				unpick(r, ci);
				if (rc < 0)
					return rc;
			}
		}
	}
	return R_NO;
}

/* allocateOne */
static int
alloc_one(struct run *r, size_t ci, size_t ri, size_t si, int64_t di,
    int sub_mode, size_t sp, size_t ss, size_t sd)
{
	struct cl	*claim;
	struct rq	*q;
	struct rdata	*rd;
	size_t		 sub;
	int		 rc, all_exceeded;

	if (ci >= r->nclaims)
		return R_DONE;
	claim = &r->claims[ci];
	if (ri >= claim->nreqs) {
		rc = alloc_one(r, ci + 1, 0, 0, 0, 0, 0, 0, 0);
		return rc == R_EXCEEDED ? R_NO : rc;
	}
	q = &claim->reqs[ri];
	if (!sub_mode && q->has_subs) {
		all_exceeded = 1;
		for (sub = 0; sub < q->nsubs; sub++) {
			rc = alloc_one(r, ci, ri, sub, di, 1, 0, 0, 0);
			if (rc == R_EXCEEDED)
				continue;
			all_exceeded = 0;
			if (rc < 0)
				return rc;
			if (rc == R_DONE) {
				q->selected = sub;
				return R_DONE;
			}
		}
		return all_exceeded ? R_EXCEEDED : R_NO;
	}
	rd = &q->subs[si];
	if (rd->all && rd->nall == 0)
		return R_NO;
	if (di >= rd->ndev)
		return alloc_one(r, ci, ri + 1, 0, 0, 0, 0, 0, 0);
	if ((int64_t)claim->npicks + rd->ndev - di > DRA_ALLOC_RESULTS_MAX)
		return R_EXCEEDED;
	if (rd->all) {
		if (++r->steps > r->a->max_steps)
			return R_STOP;
		rc = pick(r, ci, rd, &rd->alldevs[di], 1);
		if (rc <= 0)
			return rc;
		rc = alloc_one(r, ci, ri, si, di + 1, sub_mode, 0, 0, 0);
		if (rc == R_STOP)
			return rc;
		if (rc != R_DONE) {
			unpick(r, ci);
			return rc < 0 ? rc : R_NO;
		}
		return R_DONE;
	}
	return search_devices(r, ci, ri, si, di, sub_mode, sp, ss, sd);
}

/* validateDeviceRequest; KUBE_OK or R_ERR / R_UNSUP with r->msg. */
static int
validate_request(struct run *r, size_t ci, struct rdata *rd)
{
	struct cl		*claim = &r->claims[ci];
	const struct kube_device_request *req = rd->req;
	struct dra_npool	*np;
	const struct kube_capacity *bad = NULL;
	struct cand		 c;
	size_t			 pi, li, dvi, cap = 0;
	char			 obj[512];
	int			 rc;

	claim_obj(claim, obj, sizeof obj);
	if (!(r->a->features & DRA_FEATURE_ADMIN_ACCESS) && rd->admin) {
		set_msg(r, xasprintf("claim %s, request %s: admin access is "
		    "requested, but the feature is disabled", obj,
		    rd_name(rd)));
		return R_ERR;
	}
	if (req->class_name == NULL || *req->class_name == '\0') {
		set_msg(r, xasprintf("claim %s, request %s: missing device "
		    "class name (unsupported request type?)", obj,
		    rd_name(rd)));
		return R_ERR;
	}
	if ((rd->cls = dra_class(r->a, req->class_name)) == NULL) {
		set_msg(r, xasprintf("claim %s, request %s: could not "
		    "retrieve device class %s: deviceclass.resource.k8s.io "
		    "\"%s\" not found", obj, rd_name(rd), req->class_name,
		    req->class_name));
		return R_ERR;
	}
	switch (req->mode) {
	case KUBE_MODE_EXACT_COUNT:
		/* The API server defaults count 0 (unset) to 1. */
		rd->ndev = req->count > 0 ? req->count : 1;
		return KUBE_OK;
	case KUBE_MODE_ALL:
		break;
	default:
		set_msg(r, xasprintf("claim %s, request %s: unsupported count "
		    "mode %s", obj, rd_name(rd), req->mode_text ?
		    req->mode_text : ""));
		return R_ERR;
	}
	rd->all = 1;
	for (pi = 0; pi < r->g->npools; pi++) {
		np = &r->g->pools[pi];
		if (np->incomplete) {
			set_msg(r, xasprintf("claim %s, request %s: asks for "
			    "all devices, but resource pool %s/%s is "
			    "currently being updated", obj, rd_name(rd),
			    np->driver, np->name));
			return R_ERR;
		}
		if (np->invalid) {
			set_msg(r, xasprintf("claim %s, request %s: asks for "
			    "all devices, but resource pool %s/%s is "
			    "currently invalid", obj, rd_name(rd),
			    np->driver, np->name));
			return R_ERR;
		}
		for (li = 0; li < np->nslices; li++) {
			c.sl = np->slices[li];
			c.np = np;
			for (dvi = 0; dvi < c.sl->ndevices; dvi++) {
				c.d = &c.sl->devices[dvi];
				rc = selectable(r, ci, rd, &c);
				if (rc < 0)
					return rc;
				if (rc == 0)
					continue;
				/* #140769: the static capacity only. */
				if ((r->a->features &
				    DRA_FEATURE_CONSUMABLE_CAPACITY) &&
				    (rc = dra_capacity_fits(r->a, c.d, rd->req,
				    NULL, NULL, &bad, NULL, NULL, NULL)) <= 0) {
					if (rc == DRA_CAPACITY_NEGATIVE)
						return capacity_error(r, ci, rd,
						    &c, bad, "checking", 0);
					continue;
				}
				if (rd->nall == cap) {
					cap = cap ? cap * 2 : 32;
					rd->alldevs = xreallocarray(
					    rd->alldevs, cap,
					    sizeof *rd->alldevs);
				}
				rd->alldevs[rd->nall++] = c;
			}
		}
	}
	rd->ndev = (int64_t)rd->nall;
	return KUBE_OK;
}

static void
split_attr(struct run *r, struct cons *k, const char *fq)
{
	const char	*slash = strchr(fq, '/');

	if (slash == NULL) {
		k->domain = NULL;
		k->id = dra_scratch_strdup(&r->scratch, fq);
		return;
	}
	k->domain = dra_scratch_strndup(&r->scratch, fq, (size_t)(slash - fq));
	k->id = dra_scratch_strdup(&r->scratch, slash + 1);
}

/*
 * The DynamicResources plugin's PreFilter checks of the pod's claims,
 * before any node (dynamicresources.go, validateDeviceClass): every
 * request and subrequest names a DeviceClass that exists.  KUBE_OK or
 * R_ERR with r->msg.
 */
static int
prefilter(struct run *r)
{
	const struct kube_claim_spec	*spec;
	const struct kube_request	*kr;
	const struct kube_device_request *q;
	char				 obj[512], name[1024];
	size_t				 ci, ri, si, n;

	for (ci = 0; ci < r->nclaims; ci++) {
		spec = r->claims[ci].ref->spec;
		claim_obj(&r->claims[ci], obj, sizeof obj);
		for (ri = 0; ri < spec->nrequests; ri++) {
			kr = &spec->requests[ri];
			if (kr->exactly == NULL && kr->nfirst_available == 0) {
				set_msg(r, xasprintf("resource claim %s, request "
				    "%s: unknown request type", obj, kr->name));
				return R_ERR;
			}
			if (kr->exactly == NULL && !(r->a->features &
			    DRA_FEATURE_PRIORITIZED_LIST)) {
				set_msg(r, xasprintf("resource claim %s, request "
				    "%s: has subrequests, but the "
				    "DRAPrioritizedList feature is disabled",
				    obj, kr->name));
				return R_ERR;
			}
			n = kr->exactly != NULL ? 1 : kr->nfirst_available;
			for (si = 0; si < n; si++) {
				q = kr->exactly != NULL ? kr->exactly :
				    &kr->first_available[si];
				if (kr->exactly != NULL)
					snprintf(name, sizeof name, "%s",
					    kr->name);
				else
					snprintf(name, sizeof name, "%s/%s",
					    kr->name, q->name);
				if (q->class_name == NULL ||
				    *q->class_name == '\0') {
					set_msg(r, xasprintf("request %s: "
					    "unsupported request type", name));
					return R_ERR;
				}
				if (dra_class(r->a, q->class_name) == NULL) {
					set_msg(r, xasprintf("request %s: device "
					    "class %s does not exist", name,
					    q->class_name));
					return R_ERR;
				}
			}
		}
	}
	return KUBE_OK;
}

/* The checks of Allocate before the search; KUBE_OK or R_ERR/R_UNSUP. */
static int
prepare(struct run *r)
{
	const struct kube_claim_spec	*spec;
	const struct kube_request	*kr;
	const struct kube_constraint	*kc;
	struct cl			*claim;
	struct rq			*q;
	struct rdata			*rd;
	size_t				 ci, ri, si, k;
	int64_t				 min_claim, min_req;
	char				 obj[512];
	int				 rc;

	for (ci = 0; ci < r->nclaims; ci++) {
		claim = &r->claims[ci];
		spec = claim->ref->spec;
		claim_obj(claim, obj, sizeof obj);
		claim->nreqs = spec->nrequests;
		claim->reqs = dra_scratch_calloc(&r->scratch, spec->nrequests + 1,
		    sizeof *claim->reqs);
		min_claim = 0;
		for (ri = 0; ri < spec->nrequests; ri++) {
			kr = &spec->requests[ri];
			q = &claim->reqs[ri];
			q->has_subs = kr->exactly == NULL &&
			    kr->nfirst_available > 0;
			if (q->has_subs && !(r->a->features &
			    DRA_FEATURE_PRIORITIZED_LIST)) {
				set_msg(r, xasprintf("claim %s, request %s: has "
				    "subrequests, but the DRAPrioritizedList "
				    "feature is disabled", obj, kr->name));
				return R_ERR;
			}
			q->nsubs = q->has_subs ? kr->nfirst_available : 1;
			q->subs = dra_scratch_calloc(&r->scratch, q->nsubs,
			    sizeof *q->subs);
			if (!(r->a->features &
			    DRA_FEATURE_CONSUMABLE_CAPACITY)) {
				if (kr->exactly != NULL &&
				    kr->exactly->ncapacity > 0) {
					set_msg(r, xasprintf("claim %s, request "
					    "%s: has capacity requests, but "
					    "the DRAConsumableCapacity feature "
					    "is disabled", obj, kr->name));
					return R_ERR;
				}
				for (si = 0; q->has_subs && si < q->nsubs;
				    si++) {
					if (kr->first_available[si].ncapacity >
					    0) {
						set_msg(r, xasprintf("claim %s, "
						    "subrequest %s: has "
						    "capacity requests, but the "
						    "DRAConsumableCapacity "
						    "feature is disabled", obj,
						    kr->first_available[si].
						    name));
						return R_ERR;
					}
				}
			}
			min_req = INT64_MAX;
			for (si = 0; si < q->nsubs; si++) {
				rd = &q->subs[si];
				rd->base = kr->name;
				if (q->has_subs) {
					rd->req = &kr->first_available[si];
					rd->sub = rd->req->name;
					rd->full = dra_scratch_calloc(&r->scratch,
					    strlen(kr->name) +
					    strlen(rd->sub) + 2, 1);
					sprintf(rd->full, "%s/%s", kr->name,
					    rd->sub);
				} else {
					static const struct kube_device_request
					    empty;

					rd->req = kr->exactly != NULL ?
					    kr->exactly : &empty;
					rd->full = (char *)kr->name;
					rd->admin = rd->req->admin_access;
				}
				if ((rc = validate_request(r, ci, rd)) !=
				    KUBE_OK)
					return rc;
				if (rd->ndev < min_req)
					min_req = rd->ndev;
			}
			if (min_req > DRA_ALLOC_RESULTS_MAX - min_claim) {
				set_msg(r, xasprintf("claim %s, request %s: "
				    "adding %lld devices exceeds the claim "
				    "limit of %d, with %lld already accounted "
				    "for", obj, kr->name, (long long)min_req,
				    DRA_ALLOC_RESULTS_MAX,
				    (long long)min_claim));
				return R_ERR;
			}
			min_claim += min_req;
		}
		claim->ncons = spec->nconstraints;
		claim->cons = dra_scratch_calloc(&r->scratch,
		    spec->nconstraints + 1, sizeof *claim->cons);
		for (k = 0; k < spec->nconstraints; k++) {
			kc = &spec->constraints[k];
			claim->cons[k].requests = kc->requests;
			claim->cons[k].nrequests = kc->nrequests;
			if (kc->unknown == NULL && kc->match_attribute) {
				split_attr(r, &claim->cons[k],
				    kc->match_attribute);
			} else if (kc->unknown == NULL &&
			    kc->distinct_attribute) {
				claim->cons[k].distinct = 1;
				split_attr(r, &claim->cons[k],
				    kc->distinct_attribute);
			} else {
				set_msg(r, xasprintf("claim %s, constraint "
				    "#%zu: empty constraint (unsupported "
				    "constraint type?)", obj, k));
				return R_ERR;
			}
		}
	}
	return KUBE_OK;
}

/*
 * The answer by counting (see alloc.h).  Candidates of an exact
 * ExactCount request: devices passing every per-device check against
 * the allocated state alone.  Returns 1 when no solution can exist.
 */
struct cands {
	struct cand	*v;
	size_t		 n, cap;
	int		 multi;	/* some candidate allows multiple allocations */
};

static int
candidate(struct run *r, size_t ci, const struct rdata *rd,
    const struct cand *c)
{
	struct dra_allocator	*a = r->a;
	const struct kube_device *d = c->d;
	const struct cl		*claim = &r->claims[ci];
	struct cpool		*cp;
	size_t			 i, j;
	int			 rc, ok;

	if (!rd->admin && in_use(r, c))
		return 0;
	rc = selectable(r, ci, rd, c);
	if (rc < 0) {
		r->saw_undecided = 1;
		return 1;
	}
	if (rc == 0)
		return 0;
	if ((a->features & DRA_FEATURE_CONSUMABLE_CAPACITY) &&
	    (rc = capacity_ok(r, rd, c, NULL)) <= 0) {
		if (rc == DRA_CAPACITY_NEGATIVE) {
			r->saw_undecided = 1;
			return 1;
		}
		return 0;
	}
	if (!(a->features & DRA_FEATURE_PARTITIONABLE) && d->nconsumes > 0)
		return 0;
	if (d->nconsumes > 0 && !(d->allow_multiple &&
	    (a->features & DRA_FEATURE_CONSUMABLE_CAPACITY) &&
	    already_shared(r, c))) {
		cp = cpool_get(r, c);
		counters_add(cp, d, 1);
		ok = 1;
		for (i = 0; i < cp->np->nsets && ok; i++)
			for (j = 0; j < cp->np->sets[i]->ncounters && ok; j++)
				ok = cp->avail[i][j] >= cp->used[i][j];
		counters_add(cp, d, -1);
		if (!ok)
			return 0;
	}
	if ((a->features & DRA_FEATURE_DEVICE_TAINTS) &&
	    dra_untolerated_taint(d, rd->req) != NULL)
		return 0;
	for (i = 0; i < claim->ncons; i++)
		if (cons_applies(&claim->cons[i], rd) &&
		    constraint_attr(&claim->cons[i], d) == NULL)
			return 0;
	return 1;
}

static void
collect(struct run *r, size_t ci, const struct rdata *rd, struct cands *out,
    size_t limit)
{
	struct dra_npool	*np;
	struct cand		 c;
	size_t			 pi, li, dvi;

	memset(out, 0, sizeof *out);
	for (pi = 0; pi < r->g->npools && out->n < limit; pi++) {
		np = &r->g->pools[pi];
		if (np->incomplete || np->invalid)
			continue;
		for (li = 0; li < np->nslices; li++) {
			c.sl = np->slices[li];
			c.np = np;
			for (dvi = 0; dvi < c.sl->ndevices &&
			    out->n < limit; dvi++) {
				c.d = &c.sl->devices[dvi];
				if (!candidate(r, ci, rd, &c))
					continue;
				if (out->n == out->cap) {
					out->cap = out->cap ? out->cap * 2 : 16;
					out->v = xreallocarray(out->v,
					    out->cap, sizeof *out->v);
				}
				out->v[out->n++] = c;
				if (c.d->allow_multiple)
					out->multi = 1;
			}
		}
	}
}

/* A set of device pointers (open addressing), for the counting. */
struct pset {
	const void	**slot;
	size_t		  cap;
	size_t		  n;
};

static void
pset_init(struct pset *ps, size_t max)
{
	ps->cap = 16;
	while (ps->cap < 2 * max + 2)
		ps->cap *= 2;
	ps->slot = xcalloc(ps->cap, sizeof *ps->slot);
	ps->n = 0;
}

static void
pset_clear(struct pset *ps)
{
	memset(ps->slot, 0, ps->cap * sizeof *ps->slot);
	ps->n = 0;
}

/* Add p; the set must have been sized for every element added. */
static void
pset_add(struct pset *ps, const void *p)
{
	size_t	i = ((uintptr_t)p >> 4) * 2654435761u & (ps->cap - 1);

	while (ps->slot[i] != NULL) {
		if (ps->slot[i] == p)
			return;
		i = (i + 1) & (ps->cap - 1);
	}
	ps->slot[i] = p;
	ps->n++;
}

/*
 * Does some value of k's attribute give every request enough devices,
 * and (one device per pick) enough distinct devices for all of them?
 */
static int
match_possible(const struct cons *k, struct cands *cv, int64_t *need,
    size_t nreq, int admin)
{
	const struct kube_attr	*v, *w;
	struct pset		 seen;
	size_t			 i, x, y, z, cnt, total_cands = 0;
	int64_t			 total = 0;
	int			 ok, multi = 0, tried;

	if (nreq == 0)
		return 1;
	for (i = 0; i < nreq; i++) {
		multi |= cv[i].multi;
		total += need[i];
		total_cands += cv[i].n;
	}
	pset_init(&seen, total_cands);
	for (x = 0; x < cv[0].n; x++) {
		v = constraint_attr(k, cv[0].v[x].d);
		if (v == NULL)
			continue;
		/* Each value once. */
		for (z = 0, tried = 0; z < x && !tried; z++) {
			w = constraint_attr(k, cv[0].v[z].d);
			tried = w != NULL && attr_eq(v, w);
		}
		if (tried)
			continue;
		ok = 1;
		pset_clear(&seen);
		for (i = 0; i < nreq && ok; i++) {
			cnt = 0;
			for (y = 0; y < cv[i].n; y++) {
				w = constraint_attr(k, cv[i].v[y].d);
				if (w == NULL || !attr_eq(v, w))
					continue;
				cnt++;
				pset_add(&seen, cv[i].v[y].d);
			}
			if ((int64_t)cnt < need[i])
				ok = 0;
		}
		if (ok && !multi && !admin && (int64_t)seen.n < total)
			ok = 0;
		if (ok) {
			free(seen.slot);
			return 1;
		}
	}
	free(seen.slot);
	return 0;
}

static int
distinct_possible(const struct cons *k, struct cands *cv, int64_t *need,
    size_t nreq)
{
	const struct kube_attr	**vals = NULL, *v;
	size_t			  nvals = 0, i, y, j;
	int64_t			  total = 0;
	int			  other = 0;

	/*
	 * Every device the requests get needs a value of its own: the
	 * same device twice has the same value, and a value that is not a
	 * scalar only goes with an empty set.
	 */
	for (i = 0; i < nreq; i++)
		total += need[i];
	for (i = 0; i < nreq; i++) {
		for (y = 0; y < cv[i].n; y++) {
			v = constraint_attr(k, cv[i].v[y].d);
			if (v == NULL)
				continue;
			if (!attr_scalar(v)) {
				other = 1;
				continue;
			}
			for (j = 0; j < nvals; j++)
				if (attr_eq(v, vals[j]))
					break;
			if (j == nvals) {
				vals = xreallocarray(vals, nvals + 1,
				    sizeof *vals);
				vals[nvals++] = v;
			}
		}
	}
	free(vals);
	return (int64_t)(nvals + (size_t)other) >= total;
}

static int
cmp_ptr(const void *a, const void *b)
{
	uintptr_t	x = (uintptr_t)*(const void *const *)a;
	uintptr_t	y = (uintptr_t)*(const void *const *)b;

	return (x > y) - (x < y);
}

static int
impossible(struct run *r)
{
	struct cl	*claim;
	struct rq	*q;
	struct rdata	*rd;
	struct cands	*cv, *sel;
	int64_t		*need, total = 0;
	size_t		 ci, ri, si, k, i, nsel, nuni = 0, capuni = 0, x;
	size_t		 ndistinct, limit;
	int64_t		 all_need = 0;
	int		 feasible, any, admin, multi = 0, result = 0, capped = 0;
	const struct kube_device **uni = NULL;

	for (ci = 0; ci < r->nclaims; ci++) {
		claim = &r->claims[ci];
		for (ri = 0; ri < claim->nreqs; ri++)
			for (si = 0; si < claim->reqs[ri].nsubs; si++)
				if (claim->reqs[ri].subs[si].all &&
				    claim->ncons > 0)
					return 0;
	}
	/*
	 * A request needs no more candidates than its count, or, for the
	 * union below, than the pod's devices: the lists stop there unless
	 * a constraint needs them whole.  Stopping early can skip a device
	 * whose selector fails to evaluate; the search would meet it, so
	 * before answering NO_FIT the lists are read whole (below).
	 */
	for (ci = 0; ci < r->nclaims; ci++) {
		claim = &r->claims[ci];
		for (ri = 0; ri < claim->nreqs; ri++)
			if (!claim->reqs[ri].has_subs &&
			    !claim->reqs[ri].subs[0].all)
				all_need += claim->reqs[ri].subs[0].ndev;
	}
	for (ci = 0; ci < r->nclaims && !result; ci++) {
		claim = &r->claims[ci];
		cv = xcalloc(claim->nreqs + 1, sizeof *cv);
		for (ri = 0; ri < claim->nreqs && !result; ri++) {
			q = &claim->reqs[ri];
			any = 0;
			for (si = 0; si < q->nsubs; si++) {
				rd = &q->subs[si];
				if (rd->all) {
					feasible = rd->nall > 0;
				} else {
					struct cands tmp;

					limit = q->has_subs ?
					    (size_t)rd->ndev : (size_t)all_need;
					for (k = 0; k < claim->ncons; k++)
						if (cons_applies(&claim->cons[k],
						    rd))
							limit = SIZE_MAX;
					collect(r, ci, rd, &tmp, limit);
					if (tmp.n >= limit)
						capped = 1;
					feasible = (int64_t)tmp.n >= rd->ndev;
					if (!q->has_subs)
						cv[ri] = tmp;
					else
						free(tmp.v);
				}
				any |= feasible;
			}
			if (!any)
				result = 1;
		}
		/* Constraints over the exact, ExactCount requests. */
		need = xcalloc(claim->nreqs + 1, sizeof *need);
		sel = xcalloc(claim->nreqs + 1, sizeof *sel);
		for (k = 0; k < claim->ncons && !result; k++) {
			nsel = 0;
			admin = 0;
			for (ri = 0; ri < claim->nreqs; ri++) {
				q = &claim->reqs[ri];
				rd = &q->subs[0];
				if (q->has_subs || rd->all ||
				    !cons_applies(&claim->cons[k], rd))
					continue;
				admin |= rd->admin;
				need[nsel] = rd->ndev;
				sel[nsel++] = cv[ri];
			}
			if (claim->cons[k].distinct ?
			    !distinct_possible(&claim->cons[k], sel, need,
			    nsel) :
			    !match_possible(&claim->cons[k], sel, need, nsel,
			    admin))
				result = 1;
		}
		/* The pod's devices must all differ. */
		for (ri = 0; ri < claim->nreqs && !result; ri++) {
			q = &claim->reqs[ri];
			rd = &q->subs[0];
			if (q->has_subs || rd->all || rd->admin)
				continue;
			total += rd->ndev;
			multi |= cv[ri].multi;
			for (x = 0; x < cv[ri].n; x++) {
				if (nuni == capuni) {
					capuni = capuni ? capuni * 2 : 64;
					uni = xreallocarray(uni, capuni,
					    sizeof *uni);
				}
				uni[nuni++] = cv[ri].v[x].d;
			}
		}
		for (i = 0; i < claim->nreqs; i++)
			free(cv[i].v);
		free(cv);
		free(need);
		free(sel);
	}
	if (!result && !multi && total > 0) {
		qsort(uni, nuni, sizeof *uni, cmp_ptr);
		for (x = 0, ndistinct = 0; x < nuni; x++)
			if (x == 0 || uni[x] != uni[x - 1])
				ndistinct++;
		if (total > (int64_t)ndistinct)
			result = 1;
	}
	free(uni);
	if (result && capped && !r->saw_undecided) {
		for (ci = 0; ci < r->nclaims && !r->saw_undecided; ci++) {
			claim = &r->claims[ci];
			for (ri = 0; ri < claim->nreqs; ri++) {
				for (si = 0; si < claim->reqs[ri].nsubs; si++) {
					struct cands tmp;

					rd = &claim->reqs[ri].subs[si];
					if (rd->all)
						continue;
					collect(r, ci, rd, &tmp, SIZE_MAX);
					free(tmp.v);
				}
			}
		}
	}
	if (r->saw_undecided)
		return 0;
	return result;
}

static void
fill_result(struct run *r, struct dra_alloc_result *res)
{
	struct cl	*claim;
	struct pick	*p;
	size_t		 ci, i, n = 0, k, m;

	for (ci = 0; ci < r->nclaims; ci++)
		n += r->claims[ci].npicks;
	res->picks = n > 0 ? xcalloc(n, sizeof *res->picks) : NULL;
	for (ci = 0; ci < r->nclaims; ci++) {
		claim = &r->claims[ci];
		for (i = 0; i < claim->npicks; i++) {
			struct dra_alloc_pick *out = &res->picks[res->npicks++];

			p = &claim->picks[i];
			out->claim = ci;
			out->request = xstrdup(p->rd->full);
			out->device = p->c.d;
			out->admin_access = p->rd->admin;
			if (p->consumed == NULL)
				continue;
			out->consumed = xcalloc(p->c.d->ncapacity,
			    sizeof *out->consumed);
			for (k = 0, m = 0; k < p->c.d->ncapacity; k++) {
				out->consumed[m].domain =
				    p->c.d->capacity[k].domain;
				out->consumed[m].id = p->c.d->capacity[k].id;
				out->consumed[m].value.milli = p->consumed[k];
				m++;
			}
			out->nconsumed = m;
		}
	}
}

int
dra_allocate(struct dra_allocator *a, const char *node,
    const struct kube_node *n, const struct dra_claim_ref *claims,
    size_t nclaims, struct dra_alloc_result *res, struct dra_err *err)
{
	struct run	 r;
	size_t		 i, j;
	int		 rc;

	if (res != NULL)
		memset(res, 0, sizeof *res);
	if (a == NULL || res == NULL || (nclaims > 0 && claims == NULL))
		return dra_err_set(err, KUBE_E_CONFIG, "allocate: missing "
		    "argument");
	if (node == NULL && n != NULL)
		node = n->meta.name;
	for (i = 0; i < nclaims; i++)
		if (claims[i].spec == NULL)
			return dra_err_set(err, KUBE_E_CONFIG, "allocate: "
			    "claim %zu has no spec", i);
	memset(&r, 0, sizeof r);
	r.a = a;
	r.node = node;
	r.n = n;
	r.g = dra_gather_pools(a, node, n);
	r.cps = dra_scratch_calloc(&r.scratch, r.g->npools + 1,
	    sizeof *r.cps);
	r.nclaims = nclaims;
	r.claims = dra_scratch_calloc(&r.scratch, nclaims + 1, sizeof *r.claims);
	for (i = 0; i < nclaims; i++)
		r.claims[i].ref = &claims[i];

	if ((rc = prefilter(&r)) == KUBE_OK)
		rc = prepare(&r);
	if (rc == KUBE_OK && !a->no_counting && impossible(&r))
		rc = R_NO;
	else if (rc == KUBE_OK)
		rc = alloc_one(&r, 0, 0, 0, 0, 0, 0, 0, 0);
	res->steps = r.steps;
	switch (rc) {
	case R_DONE:
		res->status = DRA_ALLOC_OK;
		fill_result(&r, res);
		break;
	case R_ERR:
		res->status = DRA_ALLOC_ERROR;
		res->message = r.msg;
		r.msg = NULL;
		res->blocks_everywhere = 1;
		break;
	case R_UNSUP:
		res->status = DRA_ALLOC_UNKNOWN;
		res->message = r.msg;
		r.msg = NULL;
		break;
	case R_EXCEEDED:
		/*
		 * From the first claim, allocateOne's
		 * errAllocationResultMaxSizeExceeded reaches Allocate,
		 * which returns it as the error.
		 */
		res->status = DRA_ALLOC_ERROR;
		res->message = xstrdup("allocation max size exceeded");
		res->blocks_everywhere = 1;
		break;
	case R_STOP:
		res->status = DRA_ALLOC_UNKNOWN;
		res->message = xasprintf("search stopped after %llu devices "
		    "tried (max_steps)", (unsigned long long)a->max_steps);
		break;
	default:
		res->status = DRA_ALLOC_NO_FIT;
		for (i = 0; i < r.g->npools; i++) {
			if (r.g->pools[i].invalid) {
				res->status = DRA_ALLOC_ERROR;
				res->message = xstrdup("invalid resource pools "
				    "were encountered");
				break;
			}
		}
		break;
	}
	/* Release the run. */
	for (i = 0; i < nclaims; i++) {
		struct cl *c = &r.claims[i];

		for (j = 0; j < c->npicks; j++)
			free(c->picks[j].consumed);
		free(c->picks);
		for (j = 0; j < c->nreqs; j++) {
			size_t s;

			for (s = 0; s < c->reqs[j].nsubs; s++)
				free(c->reqs[j].subs[s].alldevs);
		}
	}
	HASH_CLEAR(hh, r.ading);
	free(r.msg);
	dra_scratch_release(&r.scratch);
	return KUBE_OK;
}

void
dra_alloc_result_free(struct dra_alloc_result *res)
{
	size_t	i;

	if (res == NULL)
		return;
	for (i = 0; i < res->npicks; i++) {
		free(res->picks[i].request);
		free(res->picks[i].consumed);
	}
	free(res->picks);
	free(res->message);
	memset(res, 0, sizeof *res);
}
