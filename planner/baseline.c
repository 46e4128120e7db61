/*
 * baseline.c: the first-fit baseline (baseline.h).
 *
 * The inventory's nodes are read once into runs of GPUs; each node
 * gets a shape (the key: its GPUs' names, geometries and device
 * names), and each shape, when first needed, one node-shaped snapshot
 * from plan_inventory_snapshot_gpus() and one allocator over it.  The
 * allocator holds the instances of one node of the shape at a time
 * (shape->cur); the instances of every node live here, as (GPU slot,
 * placement) pairs, so a shape can be swapped to another node, or
 * evicted and rebuilt, without losing anything.  Devices of a shape's
 * snapshot map back to (slot, placement) through a hash on the device
 * pointer.
 */
#include "baseline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "alloc.h"
#include "geometry.h"
#include "inventory.h"
#include "xmalloc.h"

#define NAME_LEN	512

/* An instance a node holds. */
struct held {
	size_t	slot;		/* GPU: node->first + slot */
	int	placement;
};

struct shape;

struct bnode {
	size_t		 first;		/* inv->gpus[first .. first + n) */
	size_t		 n;
	struct shape	*shape;
	struct held	*held;
	size_t		 nheld, capheld;
};

/* A device of a shape's snapshot and where it belongs. */
struct devmap {
	const struct kube_device	*dev;
	size_t				 slot;
	int				 placement;
	UT_hash_handle			 hh;
};

struct shape {
	char			 *key;
	size_t			  rep;		/* node that built it */
	struct kube_snapshot	 *s;		/* NULL: not built, evicted */
	struct dra_allocator	 *a;
	const char		 *node;		/* rep's name, in s */
	const struct kube_node	 *kn;
	const struct kube_device **dev;		/* [slot * maxp + placement] */
	size_t			  maxp;
	struct devmap		 *map;		/* hash */
	struct devmap		 *mapmem;
	long			  cur;		/* node held in a, -1 none */
	uint64_t		  tick;		/* last use, for eviction */
	UT_hash_handle		  hh;
};

/* The claim spec of one (geometry, profile), built on first use. */
struct reqspec {
	int				 built;
	struct kube_claim_spec		 spec;
	struct kube_request		 req;
	struct kube_device_request	 dr;
	const char			*sel[2];
	char				*selbuf[2];
};

struct run {
	const struct plan_inventory	*inv;
	struct bnode			*nodes;
	size_t				 nnodes;
	struct shape			*shapes;	/* hash by key */
	size_t				 live;		/* built shapes */
	uint64_t			 tick;
	/* Per geometry: the nodes holding GPUs of it, in order. */
	size_t				**geonodes;
	size_t				*ngeonodes;
	/* [geometry][profile]: the first node that may still fit. */
	size_t				**cursor;
	/* [geometry][profile]: the claim spec of an instance. */
	struct reqspec			**specs;
	struct plan_baseline_result	*out;
	struct dra_err			*err;
};

void
plan_baseline_result_free(struct plan_baseline_result *r)
{
	size_t	i;

	if (r == NULL)
		return;
	for (i = 0; i < r->nplaces; i++)
		free(r->places[i].device);
	free(r->places);
	free(r->gpus_used_by_geometry);
	memset(r, 0, sizeof *r);
}

/* ------------------------------------------------------------------ */
/* Shapes. */

static char *
shape_key(const struct plan_inventory *inv, const struct bnode *nd)
{
	const struct plan_gpu		*g;
	const struct plan_geometry	*geo;
	size_t				 i, p, len = 1, off = 0;
	char				*key;

	for (i = 0; i < nd->n; i++) {
		g = &inv->gpus[nd->first + i];
		geo = inv->geometries[g->geometry];
		len += strlen(g->name) + 24;
		for (p = 0; g->devices != NULL && p < geo->nplacements; p++)
			len += strlen(g->devices[p]) + 1;
	}
	key = xmalloc(len);
	for (i = 0; i < nd->n; i++) {
		g = &inv->gpus[nd->first + i];
		geo = inv->geometries[g->geometry];
		off += (size_t)snprintf(key + off, len - off, "%s\x1f%zu\x1f",
		    g->name, g->geometry);
		for (p = 0; g->devices != NULL && p < geo->nplacements; p++)
			off += (size_t)snprintf(key + off, len - off, "%s\x1e",
			    g->devices[p]);
		off += (size_t)snprintf(key + off, len - off, "\x1d");
	}
	return key;
}

static void
shape_drop(struct run *r, struct shape *sh)
{
	struct devmap	*m, *tm;

	if (sh->s == NULL)
		return;
	HASH_ITER(hh, sh->map, m, tm)
		HASH_DEL(sh->map, m);
	free(sh->mapmem);
	free(sh->dev);
	dra_allocator_free(sh->a);
	kube_snapshot_free(sh->s);
	sh->mapmem = NULL;
	sh->dev = NULL;
	sh->a = NULL;
	sh->s = NULL;
	sh->cur = -1;
	r->live--;
}

/* Build sh's snapshot, allocator and device map from its rep node. */
static int
shape_build(struct run *r, struct shape *sh)
{
	const struct plan_inventory	*inv = r->inv;
	const struct bnode		*nd = &r->nodes[sh->rep];
	const struct plan_gpu		*g;
	const struct plan_geometry	*geo;
	struct shape			*e, *te, *lru;
	struct devmap			*m;
	const struct kube_device	*d;
	size_t				*v, i, p, nmap = 0;
	char				 buf[NAME_LEN];
	int				 rc;

	if (r->live >= PLAN_BASELINE_MAX_SHAPES) {
		lru = NULL;
		HASH_ITER(hh, r->shapes, e, te)
			if (e->s != NULL && (lru == NULL ||
			    e->tick < lru->tick))
				lru = e;
		if (lru != NULL)
			shape_drop(r, lru);
	}
	v = xcalloc(nd->n, sizeof *v);
	sh->maxp = 1;
	for (i = 0; i < nd->n; i++) {
		v[i] = nd->first + i;
		geo = inv->geometries[inv->gpus[v[i]].geometry];
		if (geo->nplacements > sh->maxp)
			sh->maxp = geo->nplacements;
	}
	rc = plan_inventory_snapshot_gpus(inv, v, nd->n, PLAN_SNAP_NO_CLAIMS,
	    &sh->s, r->err);
	free(v);
	if (rc != KUBE_OK)
		return rc;
	if ((rc = dra_allocator_new(sh->s, NULL, &sh->a, r->err)) !=
	    KUBE_OK) {
		kube_snapshot_free(sh->s);
		sh->s = NULL;
		return rc;
	}
	r->live++;
	r->out->snapshots++;
	sh->node = inv->gpus[nd->first].node;
	sh->kn = kube_snapshot_node(sh->s, sh->node);
	sh->cur = -1;
	sh->dev = xcalloc(nd->n * sh->maxp, sizeof *sh->dev);
	sh->mapmem = xcalloc(nd->n * sh->maxp, sizeof *sh->mapmem);
	for (i = 0; i < nd->n; i++) {
		g = &inv->gpus[nd->first + i];
		geo = inv->geometries[g->geometry];
		for (p = 0; p < geo->nplacements; p++) {
			if (plan_inventory_device(inv, g, (int)p, buf,
			    sizeof buf) == NULL)
				continue;
			d = kube_snapshot_device(sh->s, plan_geometry_driver(geo),
			    sh->node, buf);
			if (d == NULL)
				continue;
			sh->dev[i * sh->maxp + p] = d;
			m = &sh->mapmem[nmap++];
			m->dev = d;
			m->slot = i;
			m->placement = (int)p;
			HASH_ADD_PTR(sh->map, dev, m);
		}
	}
	return KUBE_OK;
}

/* The picks that stand for node k's instances on shape sh. */
static void
node_picks(struct run *r, struct shape *sh, size_t k,
    struct dra_alloc_result *res)
{
	struct bnode	*nd = &r->nodes[k];
	size_t		 i;

	memset(res, 0, sizeof *res);
	res->status = DRA_ALLOC_OK;
	if (nd->nheld == 0)
		return;
	res->picks = xcalloc(nd->nheld, sizeof *res->picks);
	for (i = 0; i < nd->nheld; i++) {
		const struct kube_device *d = sh->dev[nd->held[i].slot *
		    sh->maxp + (size_t)nd->held[i].placement];

		if (d == NULL)
			continue;
		res->picks[res->npicks++].device = d;
	}
}

/* Make sh's allocator hold node k's instances (and nobody else's). */
static int
shape_switch(struct run *r, size_t k)
{
	struct bnode		*nd = &r->nodes[k];
	struct shape		*sh = nd->shape;
	struct dra_alloc_result	 res;
	int			 rc;

	if (sh->s == NULL && (rc = shape_build(r, sh)) != KUBE_OK)
		return rc;
	sh->tick = ++r->tick;
	if (sh->cur == (long)k)
		return KUBE_OK;
	if (sh->cur >= 0) {
		node_picks(r, sh, (size_t)sh->cur, &res);
		dra_allocator_unhold(sh->a, &res);
		free(res.picks);
	}
	node_picks(r, sh, k, &res);
	dra_allocator_hold(sh->a, &res);
	free(res.picks);
	sh->cur = (long)k;
	return KUBE_OK;
}

static void
held_add(struct bnode *nd, size_t slot, int placement)
{
	if (nd->nheld == nd->capheld) {
		nd->capheld = nd->capheld ? nd->capheld * 2 : 8;
		nd->held = xreallocarray(nd->held, nd->capheld,
		    sizeof *nd->held);
	}
	nd->held[nd->nheld].slot = slot;
	nd->held[nd->nheld].placement = placement;
	nd->nheld++;
}

/* ------------------------------------------------------------------ */
/* Requests. */

static struct reqspec *
request(struct run *r, size_t gi, int pi)
{
	const struct plan_inventory	*inv = r->inv;
	const struct plan_geometry	*geo = inv->geometries[gi], *h;
	const struct plan_profile	*pr = &geo->profiles[pi];
	struct reqspec			*q = &r->specs[gi][pi];
	const char			*driver = plan_geometry_driver(geo);
	char				 qd[NAME_LEN], qv[NAME_LEN];
	char				 sel[3 * NAME_LEN];
	size_t				 k;
	int				 product = 0;

	if (q->built)
		return q;
	q->built = 1;
	q->dr.name = "";
	q->dr.mode = KUBE_MODE_EXACT_COUNT;
	q->dr.mode_text = "ExactCount";
	q->dr.count = 1;
	q->dr.selectors = q->sel;
	q->dr.class_name = plan_inventory_class(geo, pr->whole);
	plan_cel_quote(driver, qd, sizeof qd);
	if (!pr->whole) {
		q->selbuf[q->dr.nselectors] = xstrdup(plan_profile_selector(
		    geo, pr, sel, sizeof sel));
		q->sel[q->dr.nselectors] = q->selbuf[q->dr.nselectors];
		q->dr.nselectors++;
	}
	/* Another product with a profile of this name: say which. */
	for (k = 0; k < inv->ngeometries && geo->product != NULL; k++) {
		h = inv->geometries[k];
		if (k != gi && strcmp(plan_geometry_driver(h), driver) == 0 &&
		    plan_profile_index(h, pr->name) >= 0 &&
		    (h->product == NULL || strcmp(h->product,
		    geo->product) != 0))
			product = 1;
	}
	if (product) {
		plan_cel_quote(geo->product, qv, sizeof qv);
		q->selbuf[q->dr.nselectors] = xasprintf("device.attributes"
		    "['%s'].productName == '%s'", qd, qv);
		q->sel[q->dr.nselectors] = q->selbuf[q->dr.nselectors];
		q->dr.nselectors++;
	}
	q->req.name = "gpu";
	q->req.exactly = &q->dr;
	q->spec.requests = &q->req;
	q->spec.nrequests = 1;
	return q;
}

/* ------------------------------------------------------------------ */
/* The run. */

static void
run_free(struct run *r)
{
	struct shape	*sh, *tsh;
	size_t		 i, p;

	HASH_ITER(hh, r->shapes, sh, tsh) {
		shape_drop(r, sh);
		HASH_DEL(r->shapes, sh);
		free(sh->key);
		free(sh);
	}
	for (i = 0; i < r->nnodes; i++)
		free(r->nodes[i].held);
	free(r->nodes);
	for (i = 0; r->geonodes != NULL && i < r->inv->ngeometries; i++) {
		free(r->geonodes[i]);
		free(r->cursor[i]);
		for (p = 0; r->specs[i] != NULL &&
		    p < r->inv->geometries[i]->nprofiles; p++) {
			free(r->specs[i][p].selbuf[0]);
			free(r->specs[i][p].selbuf[1]);
		}
		free(r->specs[i]);
	}
	free(r->geonodes);
	free(r->ngeonodes);
	free(r->cursor);
	free(r->specs);
}

static void
run_init(struct run *r)
{
	const struct plan_inventory	*inv = r->inv;
	const struct plan_gpu		*g;
	struct bnode			*nd;
	struct shape			*sh;
	unsigned char			*has;
	size_t				 i, j, k, gi, np;
	char				*key;

	for (i = 0; i < inv->ngpus; i = j) {
		for (j = i + 1; j < inv->ngpus &&
		    strcmp(inv->gpus[j].node, inv->gpus[i].node) == 0; j++)
			;
		r->nodes = xreallocarray(r->nodes, r->nnodes + 1,
		    sizeof *r->nodes);
		nd = &r->nodes[r->nnodes++];
		memset(nd, 0, sizeof *nd);
		nd->first = i;
		nd->n = j - i;
	}
	np = inv->ngeometries;
	r->geonodes = xcalloc(np + 1, sizeof *r->geonodes);
	r->ngeonodes = xcalloc(np + 1, sizeof *r->ngeonodes);
	r->cursor = xcalloc(np + 1, sizeof *r->cursor);
	r->specs = xcalloc(np + 1, sizeof *r->specs);
	for (gi = 0; gi < np; gi++) {
		r->geonodes[gi] = xcalloc(r->nnodes + 1, sizeof **r->geonodes);
		r->cursor[gi] = xcalloc(inv->geometries[gi]->nprofiles + 1,
		    sizeof **r->cursor);
		r->specs[gi] = xcalloc(inv->geometries[gi]->nprofiles + 1,
		    sizeof **r->specs);
	}
	has = xcalloc(np + 1, 1);
	for (k = 0; k < r->nnodes; k++) {
		nd = &r->nodes[k];
		memset(has, 0, np + 1);
		for (i = 0; i < nd->n; i++) {
			g = &inv->gpus[nd->first + i];
			if (g->geometry < np && !has[g->geometry]) {
				has[g->geometry] = 1;
				r->geonodes[g->geometry][
				    r->ngeonodes[g->geometry]++] = k;
			}
			/* Running instances are held from the start. */
			for (j = 0; j < g->nrunning; j++)
				if (g->running[j].placement >= 0 &&
				    g->geometry < np &&
				    (size_t)g->running[j].placement <
				    inv->geometries[g->geometry]->nplacements)
					held_add(nd, i,
					    g->running[j].placement);
		}
		key = shape_key(inv, nd);
		HASH_FIND_STR(r->shapes, key, sh);
		if (sh == NULL) {
			sh = xcalloc(1, sizeof *sh);
			sh->key = key;
			sh->rep = k;
			sh->cur = -1;
			HASH_ADD_KEYPTR(hh, r->shapes, sh->key,
			    strlen(sh->key), sh);
		} else
			free(key);
		nd->shape = sh;
	}
	free(has);
}

/* Try item it on node k: 1 placed, 0 no fit, or an error (< 0). */
static int
try_node(struct run *r, size_t it, const struct plan_baseline_item *item,
    struct reqspec *q, size_t k)
{
	struct bnode		*nd = &r->nodes[k];
	struct shape		*sh = nd->shape;
	struct plan_baseline_place *pl = &r->out->places[it];
	struct dra_alloc_result	 res;
	struct dra_claim_ref	 ref;
	struct devmap		*m;
	const struct kube_device *d;
	char			 name[64];
	int			 rc;

	if ((rc = shape_switch(r, k)) != KUBE_OK)
		return -1;
	snprintf(name, sizeof name, "baseline-%zu", it);
	ref.namespace = item->namespace != NULL ? item->namespace : "default";
	ref.name = name;
	ref.spec = &q->spec;
	if (dra_allocate(sh->a, sh->node, sh->kn, &ref, 1, &res, r->err) !=
	    KUBE_OK)
		return -1;
	r->out->attempts++;
	if (res.status == DRA_ALLOC_NO_FIT) {
		dra_alloc_result_free(&res);
		return 0;
	}
	if (res.status != DRA_ALLOC_OK || res.npicks != 1) {
		dra_err_set(r->err, KUBE_E_CONFIG, "baseline: item %zu on node "
		    "%s: %s", it, r->inv->gpus[nd->first].node,
		    res.message != NULL ? res.message : "no verdict");
		dra_alloc_result_free(&res);
		return -1;
	}
	d = res.picks[0].device;
	HASH_FIND_PTR(sh->map, &d, m);
	if (m == NULL) {
		dra_err_set(r->err, KUBE_E_CONFIG, "baseline: item %zu on node "
		    "%s: the allocator picked %s, which is no placement",
		    it, r->inv->gpus[nd->first].node, d->name);
		dra_alloc_result_free(&res);
		return -1;
	}
	dra_allocator_hold(sh->a, &res);
	held_add(nd, m->slot, m->placement);
	pl->placed = 1;
	pl->gpu = nd->first + m->slot;
	pl->placement = m->placement;
	pl->device = xstrdup(d->name);
	dra_alloc_result_free(&res);
	return 1;
}

int
plan_baseline(const struct plan_inventory *inv,
    const struct plan_baseline_item *items, size_t nitems,
    struct plan_baseline_result *out, struct dra_err *err)
{
	struct run			 r;
	const struct plan_baseline_item	*item;
	const struct plan_geometry	*geo;
	struct reqspec			*q;
	size_t				 it, k, i, j, *cur;
	unsigned			*cnt = NULL;
	int				 pi, rc = KUBE_OK, fit;

	memset(out, 0, sizeof *out);
	if (inv == NULL || (nitems > 0 && items == NULL))
		return dra_err_set(err, KUBE_E_CONFIG, "baseline: no "
		    "inventory or items");
	out->places = xcalloc(nitems + 1, sizeof *out->places);
	out->nplaces = nitems;
	out->ngeometries = inv->ngeometries;
	out->gpus_used_by_geometry = xcalloc(inv->ngeometries + 1,
	    sizeof *out->gpus_used_by_geometry);
	for (it = 0; it < nitems; it++)
		out->places[it].placement = -1;
	/* Check every item before any work. */
	for (it = 0; it < nitems; it++) {
		item = &items[it];
		if (item->geometry >= inv->ngeometries)
			return dra_err_set(err, KUBE_E_CONFIG, "baseline: "
			    "item %zu: geometry %zu is out of range", it,
			    item->geometry);
		geo = inv->geometries[item->geometry];
		if (item->profile == NULL ||
		    plan_profile_index(geo, item->profile) < 0)
			return dra_err_set(err, KUBE_E_CONFIG, "baseline: "
			    "item %zu: profile \"%s\" is not a profile of %s",
			    it, item->profile != NULL ? item->profile : "",
			    geo->model);
	}
	memset(&r, 0, sizeof r);
	r.inv = inv;
	r.out = out;
	r.err = err;
	run_init(&r);
	for (it = 0; it < nitems && rc == KUBE_OK; it++) {
		item = &items[it];
		geo = inv->geometries[item->geometry];
		pi = plan_profile_index(geo, item->profile);
		q = request(&r, item->geometry, pi);
		cur = &r.cursor[item->geometry][pi];
		fit = 0;
		for (k = *cur; k < r.ngeonodes[item->geometry]; k++) {
			fit = try_node(&r, it, item, q,
			    r.geonodes[item->geometry][k]);
			if (fit != 0)
				break;
			/* Refused now, refused for good: skip it next time. */
			*cur = k + 1;
		}
		if (fit < 0)
			rc = err != NULL && err->code != KUBE_OK ? err->code :
			    KUBE_E_CONFIG;
		else if (fit > 0)
			out->placed++;
		else
			out->unplaced++;
	}
	if (rc == KUBE_OK) {
		cnt = xcalloc(inv->ngpus + 1, sizeof *cnt);
		for (k = 0; k < r.nnodes; k++)
			for (i = 0; i < r.nodes[k].nheld; i++)
				cnt[r.nodes[k].first +
				    r.nodes[k].held[i].slot]++;
		for (j = 0; j < inv->ngpus; j++) {
			if (cnt[j] == 0)
				continue;
			out->gpus_used++;
			if (inv->gpus[j].geometry < inv->ngeometries)
				out->gpus_used_by_geometry[
				    inv->gpus[j].geometry]++;
		}
		free(cnt);
	}
	run_free(&r);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Arrival orders. */

struct keyed {
	struct plan_baseline_item	item;
	size_t				pos;
	int				sign;
};

static int
cmp_keyed(const void *a, const void *b)
{
	const struct keyed	*x = a, *y = b;
	int			 kx = x->sign * x->item.memory;
	int			 ky = y->sign * y->item.memory;

	if (kx != ky)
		return kx < ky ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* xorshift64* (Vigna), state never 0. */
static uint64_t
xorshift(uint64_t *s)
{
	uint64_t	x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545f4914f6cdd1dULL;
}

void
plan_baseline_order(struct plan_baseline_item *items, size_t n,
    enum plan_order order, uint64_t seed)
{
	struct plan_baseline_item	 tmp;
	struct keyed			*v;
	uint64_t			 st;
	size_t				 i, j;

	if (items == NULL || n < 2)
		return;
	switch (order) {
	case PLAN_ORDER_SMALL_FIRST:
	case PLAN_ORDER_LARGE_FIRST:
		v = xcalloc(n, sizeof *v);
		for (i = 0; i < n; i++) {
			v[i].item = items[i];
			v[i].pos = i;
			v[i].sign = order == PLAN_ORDER_SMALL_FIRST ? 1 : -1;
		}
		qsort(v, n, sizeof *v, cmp_keyed);
		for (i = 0; i < n; i++)
			items[i] = v[i].item;
		free(v);
		break;
	case PLAN_ORDER_RANDOM:
		st = seed != 0 ? seed : 0x9e3779b97f4a7c15ULL;
		for (i = n - 1; i > 0; i--) {
			j = (size_t)(xorshift(&st) % (uint64_t)(i + 1));
			tmp = items[i];
			items[i] = items[j];
			items[j] = tmp;
		}
		break;
	case PLAN_ORDER_GIVEN:
	default:
		break;
	}
}
