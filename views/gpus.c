/*
 * gpus.c: the GPU map (gpus.h), from a snapshot or a Plan document.
 *
 * From a snapshot, the GPUs and their geometry come from the planner's
 * inventory (planner/inventory.c), so the map, the planner and `why`
 * agree on what a GPU is and where a partition sits.  The parts are
 * then read from the devices themselves, found by driver, node and name
 * (the snapshot's index, whose pools NVIDIA names after nodes, else a
 * hash of the current devices built on the first miss): dynamic MIG
 * parts are the inventory's running instances (the published but free
 * placements overlap and are not parts: free memory slices are the
 * gaps), static MIG parts are the MIG devices that exist, free or not,
 * and a whole GPU is one part.  Devices the inventory does not take
 * (drivers other than NVIDIA's without counters, NVIDIA GPUs of a
 * product the catalogue does not know) become whole GPUs when they
 * look like GPUs (see whole_candidate).
 *
 * From a plan, pv_read() (plan-read.c) reads and checks the layout,
 * the same reader the plan table and SVG use.
 *
 * Everything the map holds lives in its arena; the snapshot objects
 * it points at are borrowed.  Cost: one pass over the devices, one
 * hash lookup per part, one sort of the GPUs.
 */
#include "gpus.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <uthash.h>

#include "catalog.h"
#include "geometry.h"
#include "inventory.h"
#include "plan-int.h"
#include "views-int.h"
#include "xmalloc.h"

#define KEY_MAX	1024

/* A current device, by driver, node and name (the fallback index). */
struct gdev {
	char			*key;
	const struct kube_device *d;
	UT_hash_handle		 hh;
};

/* A device that is a part of a GPU of the map already. */
struct gseen {
	const struct kube_device *d;
	UT_hash_handle		 hh;
};

/* The static MIG devices of one GPU: driver, node, name before -mig-. */
struct ggrp {
	char			 *key;
	const struct kube_device **v;
	size_t			  n, cap;
	UT_hash_handle		  hh;
};

/* A map while it is built. */
struct build {
	const struct kube_snapshot	*s;
	const struct dra_filter		*f;
	struct dra_gpu_map		*m;
	struct dra_arena		 tmp;	/* hash keys and entries */
	struct gdev			*devs;	/* built on the first miss */
	int				 indexed;
	struct gseen			*seen;
	struct ggrp			*grps;
	const struct kube_device	**whole;	/* candidates */
	size_t				 nwhole, capwhole;
	struct dra_gpu			*gpus;	/* malloc'd, unsorted */
	size_t				 ngpus, cap;
};

/* The compute slices of one plan model. */
struct pmodel {
	const char	*model;
	const char	*mode;
	int		 compute;
};

static const char *mstr(struct dra_gpu_map *, const char *);
static const char *mstrf(struct dra_gpu_map *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
static size_t	 make_key(char *, const char *, const char *, const char *);
static const char *dev_driver(const struct kube_device *);
static const char *dev_attr(const struct kube_device *, const char *);
static int	 dev_current(const struct kube_device *);
static void	 scan_devices(struct build *);
static void	 index_devices(struct build *);
static const struct kube_device *find_dev(struct build *, const char *,
		    const char *, const char *);
static void	 mark_seen(struct build *, const struct kube_device *);
static struct ggrp *find_grp(struct build *, const char *, const char *,
		    const char *);
static struct dra_gpu *gpu_new(struct build *);
static int	 node_ok(struct build *, const char *);
static void	 part_from_dev(struct build *, struct dra_gpu_part *,
		    const struct kube_device *);
static void	 add_dynamic(struct build *, const struct plan_inventory *,
		    const struct plan_gpu *, struct dra_gpu *);
static void	 add_static(struct build *, const struct plan_geometry *,
		    const struct plan_gpu *, struct dra_gpu *);
static void	 add_inventory_gpu(struct build *,
		    const struct plan_inventory *, const struct plan_gpu *);
static int	 whole_candidate(const struct kube_device *);
static void	 add_whole_devices(struct build *);
static int	 cmp_part(const void *, const void *);
static int	 cmp_gpu(const void *, const void *);
static void	 finish_map(struct build *);
static void	 build_free(struct build *);
static int	 taint_warning(const char *);
static const struct dra_gpu *find_gpu(const struct dra_gpu_map *,
		    const char *, const char *, int *);
static int	 plan_models(const cJSON *, struct pmodel **, size_t *,
		    struct dra_err *);
static int	 plan_compute(const struct pmodel *, size_t, const char *,
		    const char *, int);

/* A copy of s in m's arena (NULL stays NULL). */
static const char *
mstr(struct dra_gpu_map *m, const char *s)
{
	return dra_arena_strdup(&m->arena, s);
}

static const char *
mstrf(struct dra_gpu_map *m, const char *fmt, ...)
{
	va_list	 ap;
	char	 buf[KEY_MAX];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return dra_arena_strdup(&m->arena, buf);
}

/* "driver\x1fnode\x1fname" into buf (KEY_MAX bytes); its length. */
static size_t
make_key(char *buf, const char *driver, const char *node, const char *name)
{
	int	n;

	n = snprintf(buf, KEY_MAX, "%s\x1f%s\x1f%s", driver, node, name);
	if (n < 0)
		n = 0;
	return (size_t)n < KEY_MAX ? (size_t)n : KEY_MAX - 1;
}

static const char *
dev_driver(const struct kube_device *d)
{
	return d->slice != NULL && d->slice->driver != NULL ?
	    d->slice->driver : "";
}

/* A string attribute of the driver's domain, else of any, or NULL. */
static const char *
dev_attr(const struct kube_device *d, const char *id)
{
	const struct kube_attr	*a = dra_device_attr_any(d, id);

	if (a == NULL || (a->type != KUBE_ATTR_STRING &&
	    a->type != KUBE_ATTR_VERSION))
		return NULL;
	return a->s;
}

/*
 * Whether the inventory reads d: its slice is of its pool's newest
 * generation and one the API server accepts, in a valid pool.
 */
static int
dev_current(const struct kube_device *d)
{
	return d->slice != NULL && !d->slice->stale &&
	    d->slice->rejected == NULL &&
	    (d->pool == NULL || d->pool->invalid == NULL);
}

/*
 * One pass over the current devices that consume no counters (those
 * that do belong to dynamic GPUs, found by name): static MIG devices
 * (type "mig") grouped by their GPU, and the devices that may be whole
 * GPUs.
 */
static void
scan_devices(struct build *b)
{
	const struct kube_slice		*sl;
	const struct kube_device	*d;
	const char			*type, *p;
	struct ggrp			*g;
	char				 key[KEY_MAX], gname[KEY_MAX];
	size_t				 i, j, len;

	for (i = 0; i < b->s->slices.n; i++) {
		sl = b->s->slices.v[i];
		if (sl->stale || sl->rejected != NULL)
			continue;
		for (j = 0; j < sl->ndevices; j++) {
			d = &sl->devices[j];
			if (d->nconsumes > 0 || !dev_current(d))
				continue;
			type = dev_attr(d, "type");
			if (type == NULL || strcmp(type, "mig") != 0) {
				if (!whole_candidate(d))
					continue;
				if (b->nwhole == b->capwhole) {
					b->capwhole = b->capwhole ?
					    b->capwhole * 2 : 64;
					b->whole = xreallocarray(b->whole,
					    b->capwhole, sizeof *b->whole);
				}
				b->whole[b->nwhole++] = d;
				continue;
			}
			if ((p = strstr(d->name, "-mig-")) == NULL)
				continue;
			snprintf(gname, sizeof gname, "%.*s",
			    (int)(p - d->name), d->name);
			len = make_key(key, dev_driver(d),
			    plan_device_node(d), gname);
			HASH_FIND(hh, b->grps, key, len, g);
			if (g == NULL) {
				g = dra_arena_calloc(&b->tmp, 1, sizeof *g);
				g->key = dra_arena_strndup(&b->tmp, key, len);
				HASH_ADD_KEYPTR(hh, b->grps, g->key, len, g);
			}
			if (g->n == g->cap) {
				g->cap = g->cap ? g->cap * 2 : 8;
				g->v = xreallocarray(g->v, g->cap,
				    sizeof *g->v);
			}
			g->v[g->n++] = d;
		}
	}
}

/*
 * Hash every current device by driver, node and name: the fallback of
 * find_dev for devices whose pool is not named after their node.
 */
static void
index_devices(struct build *b)
{
	const struct kube_slice		*sl;
	const struct kube_device	*d;
	struct gdev			*e;
	char				 key[KEY_MAX];
	size_t				 i, j, len;

	b->indexed = 1;
	for (i = 0; i < b->s->slices.n; i++) {
		sl = b->s->slices.v[i];
		if (sl->stale || sl->rejected != NULL)
			continue;
		for (j = 0; j < sl->ndevices; j++) {
			d = &sl->devices[j];
			if (!dev_current(d))
				continue;
			len = make_key(key, dev_driver(d), plan_device_node(d),
			    d->name);
			HASH_FIND(hh, b->devs, key, len, e);
			if (e != NULL)
				continue;
			e = dra_arena_calloc(&b->tmp, 1, sizeof *e);
			e->key = dra_arena_strndup(&b->tmp, key, len);
			e->d = d;
			HASH_ADD_KEYPTR(hh, b->devs, e->key, len, e);
		}
	}
}

/*
 * The current device name of driver on node (the inventory's node:
 * the node, else the pool), or NULL.  NVIDIA's driver names its pool
 * after the node, so the snapshot's own index answers first (a miss in
 * a pool of that node's name and on that node is final); other layouts
 * go through index_devices.
 */
static const struct kube_device *
find_dev(struct build *b, const char *driver, const char *node,
    const char *name)
{
	const struct kube_device	*d;
	const struct kube_pool		*pool;
	struct gdev			*e;
	char				 key[KEY_MAX];
	size_t				 len;

	if (name == NULL)
		return NULL;
	d = kube_snapshot_device(b->s, driver, node, name);
	if (d != NULL && dev_current(d) &&
	    strcmp(plan_device_node(d), node) == 0)
		return d;
	/* A miss in the node's own pool is an answer. */
	pool = kube_snapshot_pool(b->s, driver, node);
	if (d == NULL && pool != NULL && pool->node_name != NULL &&
	    strcmp(pool->node_name, node) == 0)
		return NULL;
	if (!b->indexed)
		index_devices(b);
	len = make_key(key, driver, node, name);
	HASH_FIND(hh, b->devs, key, len, e);
	return e != NULL ? e->d : NULL;
}

static void
mark_seen(struct build *b, const struct kube_device *d)
{
	struct gseen	*e;

	HASH_FIND_PTR(b->seen, &d, e);
	if (e != NULL)
		return;
	e = dra_arena_calloc(&b->tmp, 1, sizeof *e);
	e->d = d;
	HASH_ADD_PTR(b->seen, d, e);
}

static struct ggrp *
find_grp(struct build *b, const char *driver, const char *node,
    const char *gpu)
{
	struct ggrp	*g;
	char		 key[KEY_MAX];
	size_t		 len;

	len = make_key(key, driver, node, gpu);
	HASH_FIND(hh, b->grps, key, len, g);
	return g;
}

static struct dra_gpu *
gpu_new(struct build *b)
{
	if (b->ngpus == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 64;
		b->gpus = xreallocarray(b->gpus, b->cap, sizeof *b->gpus);
	}
	memset(&b->gpus[b->ngpus], 0, sizeof b->gpus[b->ngpus]);
	return &b->gpus[b->ngpus++];
}

/* Whether the filter keeps GPUs of node: names, then labels. */
static int
node_ok(struct build *b, const char *node)
{
	const struct kube_node	*n;

	if (!view_name_ok(b->f, node, NULL))
		return 0;
	if (b->f == NULL || b->f->selector == NULL)
		return 1;
	n = kube_snapshot_node(b->s, node);
	return view_labels_ok(b->f, n != NULL ? &n->meta : NULL);
}

/* The state and claim of a part from its device. */
static void
part_from_dev(struct build *b, struct dra_gpu_part *p,
    const struct kube_device *d)
{
	const struct kube_claim	*c;

	p->device_obj = d;
	c = plan_device_holder(d, &p->shared);
	if (c != NULL) {
		p->state = DRA_PART_ALLOCATED;
		p->claim_obj = c;
		p->namespace = mstr(b->m, c->meta.namespace);
		p->claim = mstrf(b->m, "%s/%s", c->meta.namespace != NULL ?
		    c->meta.namespace : "", c->meta.name);
	} else if (d->state & KUBE_DEV_TAINTED)
		p->state = DRA_PART_TAINTED;
	else if (d->state & KUBE_DEV_BLOCKED)
		p->state = DRA_PART_BLOCKED;
	else
		p->state = DRA_PART_FREE;
}

/*
 * A dynamic GPU (partitionable devices): its running instances.  A
 * geometry without memory-slice counters gets one slice per placement
 * position (start + size, size at least 1).  Compute slices: the
 * geometry's (the largest "<N>g." profile), or the capacity of a
 * counter whose name says "compute" when larger, else the memory
 * slices.
 */
static void
add_dynamic(struct build *b, const struct plan_inventory *inv,
    const struct plan_gpu *g, struct dra_gpu *gp)
{
	const struct plan_geometry	*geo = inv->geometries[g->geometry];
	const struct plan_profile	*pr;
	const struct plan_placement	*pl;
	struct dra_gpu_part		*p;
	const struct kube_device	*d;
	char				 name[KEY_MAX];
	size_t				 i;
	int				 size, end;

	gp->mode = "mig-dynamic";
	gp->nslices = geo->memory_slices;
	if (gp->nslices <= 0)
		for (i = 0; i < geo->nplacements; i++) {
			pl = &geo->placements[i];
			size = geo->profiles[pl->profile].memory;
			end = pl->start + (size > 0 ? size : 1);
			if (end > gp->nslices)
				gp->nslices = end;
		}
	if (gp->nslices <= 0)
		gp->nslices = 1;
	gp->compute_total = geo->compute_slices > 0 ? geo->compute_slices :
	    gp->nslices;
	/*
	 * A counter of compute slices says more than the largest profile
	 * name (a GPU offering 4g, 2g and 1g has 7 all the same).
	 */
	for (i = 0; i < geo->ncounters; i++)
		if (strstr(geo->counters[i], "compute") != NULL &&
		    geo->capacity[i] > gp->compute_total &&
		    geo->capacity[i] <= 1000)
			gp->compute_total = (int)geo->capacity[i];
	/* The pool: any device of the GPU. */
	for (i = 0; i < geo->nplacements && gp->pool == NULL; i++) {
		d = find_dev(b, gp->driver, g->node,
		    plan_inventory_device(inv, g, (int)i, name, sizeof name));
		if (d != NULL)
			gp->pool = mstr(b->m, d->slice->pool_name);
	}
	gp->parts = dra_arena_calloc(&b->m->arena, g->nrunning + 1,
	    sizeof *gp->parts);
	for (i = 0; i < g->nrunning; i++) {
		pl = &geo->placements[g->running[i].placement];
		pr = &geo->profiles[pl->profile];
		p = &gp->parts[gp->nparts++];
		p->device = mstr(b->m, plan_inventory_device(inv, g,
		    g->running[i].placement, name, sizeof name));
		p->profile = pr->whole ? NULL : mstr(b->m, pr->name);
		p->start = pr->whole ? 0 : pl->start;
		p->size = pr->whole ? gp->nslices : pr->memory > 0 ?
		    pr->memory : 1;
		p->compute = pr->whole ? gp->compute_total : pr->compute > 0 ?
		    pr->compute : p->size;
		d = find_dev(b, gp->driver, g->node, p->device);
		if (d != NULL)
			part_from_dev(b, p, d);
		/* The inventory's claim is the one a hash lookup found. */
		p->state = DRA_PART_ALLOCATED;
		if (p->claim == NULL) {
			p->namespace = mstr(b->m, g->running[i].namespace);
			p->claim = mstrf(b->m, "%s/%s",
			    g->running[i].namespace != NULL ?
			    g->running[i].namespace : "",
			    g->running[i].claim);
			p->claim_obj = kube_snapshot_claim(b->s,
			    g->running[i].namespace, g->running[i].claim);
		}
		if (p->shared < 1)
			p->shared = 1;
	}
}

/*
 * A static MIG or whole GPU: the MIG devices that exist (placed by
 * profile and start on the catalogue geometry), and the whole device
 * when it is the only part or when it is allocated.
 */
static void
add_static(struct build *b, const struct plan_geometry *geo,
    const struct plan_gpu *g, struct dra_gpu *gp)
{
	const struct kube_device	*d;
	const struct plan_profile	*pr;
	struct dra_gpu_part		*p;
	struct ggrp			*grp;
	const struct kube_device	*whole;
	const char			*prof;
	size_t				 i, n;
	int				 pi, start, held;

	grp = g->mode == PLAN_MODE_STATIC ? find_grp(b, gp->driver, g->node,
	    g->name) : NULL;
	whole = find_dev(b, gp->driver, g->node, g->name);
	if (whole != NULL) {
		mark_seen(b, whole);
		gp->pool = mstr(b->m, whole->slice->pool_name);
	}
	n = grp != NULL ? grp->n : 0;
	gp->parts = dra_arena_calloc(&b->m->arena, n + 2, sizeof *gp->parts);
	if (g->mode == PLAN_MODE_WHOLE) {
		gp->mode = "whole";
		gp->nslices = 1;
		gp->compute_total = 1;
	} else {
		gp->mode = "mig-static";
		gp->nslices = geo->memory_slices > 0 ? geo->memory_slices : 1;
		gp->compute_total = geo->compute_slices > 0 ?
		    geo->compute_slices : gp->nslices;
	}
	if (whole != NULL && (g->mode == PLAN_MODE_WHOLE ||
	    plan_device_holder(whole, &held) != NULL)) {
		p = &gp->parts[gp->nparts++];
		p->device = mstr(b->m, whole->name);
		p->start = 0;
		p->size = gp->nslices;
		p->compute = gp->compute_total;
		part_from_dev(b, p, whole);
	}
	for (i = 0; i < n; i++) {
		d = grp->v[i];
		prof = dev_attr(d, "profile");
		pi = plan_profile_index(geo, prof);
		start = plan_static_mig_start(d);
		if (pi < 0 || start < 0)
			continue;	/* the inventory warned */
		pr = &geo->profiles[pi];
		if (start + (pr->memory > 0 ? pr->memory : 1) > gp->nslices)
			continue;
		if (gp->pool == NULL && d->slice != NULL)
			gp->pool = mstr(b->m, d->slice->pool_name);
		p = &gp->parts[gp->nparts++];
		p->device = mstr(b->m, d->name);
		p->profile = mstr(b->m, pr->name);
		p->start = start;
		p->size = pr->memory > 0 ? pr->memory : 1;
		p->compute = pr->compute > 0 ? pr->compute : p->size;
		part_from_dev(b, p, d);
	}
}

static void
add_inventory_gpu(struct build *b, const struct plan_inventory *inv,
    const struct plan_gpu *g)
{
	const struct plan_geometry	*geo = inv->geometries[g->geometry];
	struct dra_gpu			*gp;

	if (!node_ok(b, g->node))
		return;
	gp = gpu_new(b);
	gp->node = mstr(b->m, g->node);
	gp->name = mstr(b->m, g->name);
	gp->driver = mstr(b->m, plan_geometry_driver(geo));
	gp->model = mstr(b->m, geo->product != NULL ? geo->product :
	    geo->model != NULL ? geo->model : "");
	gp->pci_bus_id = mstr(b->m, g->pci_bus_id);
	gp->tainted = g->tainted;
	if (g->mode == PLAN_MODE_DYNAMIC)
		add_dynamic(b, inv, g, gp);
	else
		add_static(b, geo, g, gp);
	if (gp->pool == NULL)
		gp->pool = "";
}

/*
 * Whether a device the inventory left out is a whole GPU: it consumes
 * no counters, is not a MIG device, and says it is a GPU (attribute
 * type "gpu") or its driver's first label is "gpu" (gpu.nvidia.com
 * GPUs of a product the catalogue does not know, the DRA example
 * driver's gpu.example.com, gpu.intel.com, ...).  NICs and other
 * devices are not GPUs.
 */
static int
whole_candidate(const struct kube_device *d)
{
	const char	*type;

	if (d->nconsumes > 0)
		return 0;
	type = dev_attr(d, "type");
	if (type != NULL)
		return strcmp(type, "gpu") == 0;
	return strncmp(dev_driver(d), "gpu.", 4) == 0;
}

static void
add_whole_devices(struct build *b)
{
	const struct kube_device	*d;
	const struct kube_attr		*pci;
	struct gseen			*e;
	struct dra_gpu			*gp;
	const char			*model;
	size_t				 i;

	for (i = 0; i < b->nwhole; i++) {
		d = b->whole[i];
		HASH_FIND_PTR(b->seen, &d, e);
		if (e != NULL || !node_ok(b, plan_device_node(d)))
			continue;
		mark_seen(b, d);
		gp = gpu_new(b);
		gp->node = mstr(b->m, plan_device_node(d));
		gp->name = mstr(b->m, d->name);
		gp->driver = mstr(b->m, dev_driver(d));
		gp->pool = mstr(b->m, d->slice->pool_name != NULL ?
		    d->slice->pool_name : "");
		model = dev_attr(d, "productName");
		if (model == NULL)
			model = dev_attr(d, "model");
		gp->model = mstr(b->m, model != NULL ? model : "");
		pci = kube_device_attr(d, "resource.kubernetes.io",
		    "pciBusID");
		if (pci != NULL && pci->type == KUBE_ATTR_STRING)
			gp->pci_bus_id = mstr(b->m, pci->s);
		gp->mode = "whole";
		gp->nslices = 1;
		gp->compute_total = 1;
		gp->tainted = (d->state & KUBE_DEV_TAINTED) != 0;
		gp->parts = dra_arena_calloc(&b->m->arena, 1,
		    sizeof *gp->parts);
		gp->nparts = 1;
		gp->parts[0].device = gp->name;
		gp->parts[0].size = 1;
		gp->parts[0].compute = 1;
		part_from_dev(b, &gp->parts[0], d);
	}
}

static int
cmp_part(const void *a, const void *b)
{
	const struct dra_gpu_part	*x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return view_strcmp(x->device, y->device);
}

static int
cmp_gpu(const void *a, const void *b)
{
	const struct dra_gpu	*x = a, *y = b;
	int			 c;

	if ((c = dra_natcmp(x->node, y->node)) != 0)
		return c;
	if ((c = dra_natcmp(x->name, y->name)) != 0)
		return c;
	return view_strcmp(x->driver, y->driver);
}

/* Sort, count, group by node and compute the utilizations. */
static void
finish_map(struct build *b)
{
	struct dra_gpu_map	*m = b->m;
	struct dra_gpu_node	*nd = NULL;
	struct dra_gpu		*g, *all;
	size_t			 i, j, nnodes = 0;
	double			 sum = 0;

	if (b->ngpus > 1)
		qsort(b->gpus, b->ngpus, sizeof *b->gpus, cmp_gpu);
	for (i = 0; i < b->ngpus; i++)
		if (i == 0 || strcmp(b->gpus[i].node, b->gpus[i - 1].node) != 0)
			nnodes++;
	m->nodes = dra_arena_calloc(&m->arena, nnodes + 1, sizeof *m->nodes);
	all = dra_arena_calloc(&m->arena, b->ngpus + 1, sizeof *all);
	for (i = 0; i < b->ngpus; i++) {
		g = &b->gpus[i];
		if (g->nparts > 1)
			qsort(g->parts, g->nparts, sizeof *g->parts, cmp_part);
		for (j = 0; j < g->nparts; j++) {
			if (g->parts[j].state != DRA_PART_ALLOCATED &&
			    g->parts[j].state != DRA_PART_PLANNED)
				continue;
			g->compute_used += g->parts[j].compute;
			g->slices_used += g->parts[j].size;
			m->nallocated++;
		}
		if (g->compute_used > g->compute_total)
			g->compute_used = g->compute_total;
		if (g->slices_used > g->nslices)
			g->slices_used = g->nslices;
		g->util = g->compute_total > 0 ? (double)g->compute_used /
		    g->compute_total : 0;
		m->nparts += g->nparts;
		sum += g->util;
		if (nd == NULL || strcmp(nd->name, g->node) != 0) {
			nd = &m->nodes[m->nnodes++];
			nd->name = g->node;
			nd->gpus = &all[i];
		}
		nd->gpus[nd->ngpus++] = *g;
		nd->util += g->util;
	}
	for (i = 0; i < m->nnodes; i++)
		if (m->nodes[i].ngpus > 0)
			m->nodes[i].util /= (double)m->nodes[i].ngpus;
	m->ngpus = b->ngpus;
	m->util = b->ngpus > 0 ? sum / (double)b->ngpus : 0;
}

static void
build_free(struct build *b)
{
	struct ggrp	*g, *tg;

	HASH_CLEAR(hh, b->devs);
	HASH_CLEAR(hh, b->seen);
	free(b->whole);
	HASH_ITER(hh, b->grps, g, tg) {
		HASH_DEL(b->grps, g);
		free(g->v);
	}
	dra_arena_release(&b->tmp);
	free(b->gpus);
}

/*
 * Whether an inventory warning is the note about a tainted GPU
 * (planner/inventory.c: "DRIVER/NODE/GPU: taint K=V:EFFECT on device
 * D; nothing new is planned on it").
 */
static int
taint_warning(const char *w)
{
	static const char	tail[] = "; nothing new is planned on it";
	size_t			n = strlen(w);

	return strstr(w, ": taint ") != NULL && n >= sizeof tail - 1 &&
	    strcmp(w + n - (sizeof tail - 1), tail) == 0;
}

struct dra_gpu_map *
dra_gpu_map(const struct kube_snapshot *s, const struct dra_filter *f,
    struct dra_err *err)
{
	struct plan_inventory	*inv = NULL;
	struct plan_warnings	 warn;
	struct build		 b;
	size_t			 i;

	if (plan_inventory_from_snapshot(s, &inv, &warn, err) != KUBE_OK)
		return NULL;
	memset(&b, 0, sizeof b);
	b.s = s;
	b.f = f;
	b.m = xcalloc(1, sizeof *b.m);
	dra_arena_init(&b.m->arena);
	dra_arena_init(&b.tmp);
	b.m->warnings = dra_arena_calloc(&b.m->arena, warn.n + 1,
	    sizeof *b.m->warnings);
	for (i = 0; i < warn.n; i++) {
		/* A tainted GPU is on the map, marked (its tainted flag and
		   TAINTED parts): the planner's note is not a warning. */
		if (taint_warning(warn.v[i]))
			continue;
		b.m->warnings[b.m->nwarnings++] = mstr(b.m, warn.v[i]);
	}
	plan_warnings_free(&warn);
	scan_devices(&b);
	for (i = 0; i < inv->ngpus; i++)
		add_inventory_gpu(&b, inv, &inv->gpus[i]);
	plan_inventory_free(inv);
	add_whole_devices(&b);
	finish_map(&b);
	build_free(&b);
	return b.m;
}

/* ------------------------------------------------------------------ */
/* A Plan document. */

/*
 * spec.inventory.models[]: model, mode and computeSlices, each
 * checked.  Absent models give none.
 */
static int
plan_models(const cJSON *plan, struct pmodel **out, size_t *nout,
    struct dra_err *err)
{
	const cJSON	*a, *e, *v;
	size_t		 i = 0;

	*out = NULL;
	*nout = 0;
	a = cJSON_GetObjectItemCaseSensitive(plan, "spec");
	a = cJSON_GetObjectItemCaseSensitive(a, "inventory");
	a = cJSON_GetObjectItemCaseSensitive(a, "models");
	if (a == NULL || cJSON_IsNull(a))
		return KUBE_OK;
	if (!cJSON_IsArray(a))
		return dra_err_set(err, KUBE_E_PARSE,
		    "spec.inventory.models: expected a list");
	*out = xcalloc((size_t)cJSON_GetArraySize(a) + 1, sizeof **out);
	cJSON_ArrayForEach(e, a) {
		if (!cJSON_IsObject(e))
			return dra_err_set(err, KUBE_E_PARSE,
			    "spec.inventory.models[%zu]: expected a mapping",
			    i);
		v = cJSON_GetObjectItemCaseSensitive(e, "model");
		if (!cJSON_IsString(v))
			return dra_err_set(err, KUBE_E_PARSE,
			    "spec.inventory.models[%zu].model: expected a "
			    "string", i);
		(*out)[i].model = v->valuestring;
		v = cJSON_GetObjectItemCaseSensitive(e, "mode");
		if (v != NULL && !cJSON_IsString(v))
			return dra_err_set(err, KUBE_E_PARSE,
			    "spec.inventory.models[%zu].mode: expected a "
			    "string", i);
		(*out)[i].mode = v != NULL ? v->valuestring : NULL;
		v = cJSON_GetObjectItemCaseSensitive(e, "computeSlices");
		if (v != NULL && (!cJSON_IsNumber(v) || v->valuedouble < 0 ||
		    v->valuedouble > PV_MAX_SLICES ||
		    v->valuedouble != (double)(int)v->valuedouble))
			return dra_err_set(err, KUBE_E_PARSE,
			    "spec.inventory.models[%zu].computeSlices: "
			    "expected an integer from 0 to %d", i,
			    PV_MAX_SLICES);
		(*out)[i].compute = v != NULL ? (int)v->valuedouble : 0;
		i++;
	}
	*nout = i;
	return KUBE_OK;
}

/*
 * The compute slices of a plan GPU: its model's computeSlices (same
 * mode first), else the catalogue's, else its memory slices.
 */
static int
plan_compute(const struct pmodel *pm, size_t npm, const char *model,
    const char *mode, int slices)
{
	struct plan_geometry	*geo;
	size_t			 i;
	int			 c = 0;

	for (i = 0; i < npm && c == 0; i++)
		if (strcmp(pm[i].model, model) == 0 && pm[i].mode != NULL &&
		    strcmp(pm[i].mode, mode) == 0)
			c = pm[i].compute;
	for (i = 0; i < npm && c == 0; i++)
		if (strcmp(pm[i].model, model) == 0)
			c = pm[i].compute;
	if (c == 0 && plan_catalog_canonical(model) != NULL &&
	    plan_catalog_geometry(model, &geo, NULL) == KUBE_OK) {
		c = geo->compute_slices;
		plan_geometry_free(geo);
	}
	return c > 0 ? c : slices;
}

struct dra_gpu_map *
dra_gpu_map_plan(const cJSON *plan, struct dra_err *err)
{
	struct pv_doc		 d;
	struct pmodel		*pm = NULL;
	struct build		 b;
	struct dra_gpu		*gp;
	struct dra_gpu_part	*p;
	const struct pv_gpu	*g;
	const struct pv_inst	*in;
	const cJSON		*layout, *ln, *lg, *pci;
	size_t			 npm, i, j, k;
	int			 whole, lastc = 0;
	const char		*lastm = NULL, *lastmode = NULL;

	if (pv_read(plan, &d, err) != KUBE_OK) {
		pv_release(&d);
		return NULL;
	}
	if (plan_models(plan, &pm, &npm, err) != KUBE_OK) {
		free(pm);
		pv_release(&d);
		return NULL;
	}
	memset(&b, 0, sizeof b);
	b.m = xcalloc(1, sizeof *b.m);
	dra_arena_init(&b.m->arena);
	dra_arena_init(&b.tmp);
	layout = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(plan, "status"), "layout");
	ln = layout != NULL ? layout->child : NULL;
	for (i = 0; i < d.nnodes; i++, ln = ln != NULL ? ln->next : NULL) {
		lg = cJSON_GetObjectItemCaseSensitive(ln, "gpus");
		lg = lg != NULL ? lg->child : NULL;
		for (j = 0; j < d.nodes[i].ngpus; j++,
		    lg = lg != NULL ? lg->next : NULL) {
			g = &d.nodes[i].gpus[j];
			pci = cJSON_GetObjectItemCaseSensitive(lg, "pciBusID");
			if (pci != NULL && !cJSON_IsNull(pci) &&
			    !cJSON_IsString(pci)) {
				dra_err_set(err, KUBE_E_PARSE,
				    "status.layout[%zu].gpus[%zu].pciBusID: "
				    "expected a string", i, j);
				goto fail;
			}
			gp = gpu_new(&b);
			gp->node = mstr(b.m, g->node);
			gp->name = mstr(b.m, g->name);
			gp->driver = "";
			gp->pool = "";
			gp->model = mstr(b.m, g->model);
			gp->pci_bus_id = cJSON_IsString(pci) ?
			    mstr(b.m, pci->valuestring) : NULL;
			gp->mode = strcmp(g->mode, "dynamic") == 0 ?
			    "mig-dynamic" : strcmp(g->mode, "static") == 0 ?
			    "mig-static" : strcmp(g->mode, "whole") == 0 ?
			    "whole" : mstr(b.m, g->mode);
			gp->nslices = (int)g->slices;
			if (lastm == NULL || strcmp(lastm, g->model) != 0 ||
			    strcmp(lastmode, g->mode) != 0) {
				lastc = plan_compute(pm, npm, g->model,
				    g->mode, gp->nslices);
				lastm = g->model;
				lastmode = g->mode;
			}
			gp->compute_total = lastc;
			gp->parts = dra_arena_calloc(&b.m->arena,
			    g->ninst + 1, sizeof *gp->parts);
			/*
			 * A whole GPU kept whole is one slice and one
			 * compute unit, as on today's map (it was 8
			 * slices, 7/7, beside today's 1/1), and free it
			 * shows as a free whole part, not as dots.
			 */
			whole = strcmp(g->mode, "whole") == 0;
			for (k = 0; k < g->ninst && whole; k++)
				whole = strcmp(g->inst[k].profile,
				    PLAN_WHOLE_GPU) == 0;
			if (whole) {
				gp->nslices = 1;
				gp->compute_total = 1;
			}
			if (whole && g->ninst == 0) {
				p = &gp->parts[gp->nparts++];
				p->device = gp->name;
				p->size = 1;
				p->compute = 1;
				p->state = DRA_PART_FREE;
			}
			for (k = 0; k < g->ninst; k++) {
				in = &g->inst[k];
				p = &gp->parts[gp->nparts++];
				whole = strcmp(in->profile,
				    PLAN_WHOLE_GPU) == 0;
				p->device = in->device != NULL ?
				    mstr(b.m, in->device) : mstrf(b.m,
				    "%s@%lld", in->profile,
				    (long long)in->start);
				p->profile = whole ? NULL :
				    mstr(b.m, in->profile);
				p->start = (int)in->start;
				p->size = (int)in->slices;
				p->compute = whole ? gp->compute_total :
				    plan_profile_compute(in->profile);
				if (p->compute <= 0)
					p->compute = p->size;
				if (gp->nslices == 1) {
					p->start = 0;
					p->size = 1;
				}
				switch (in->kind) {
				case PV_OWNER_WORKLOAD:
					p->state = DRA_PART_PLANNED;
					p->shared = (int)(in->replicas > 1 ?
					    (in->replicas > 1000000 ? 1000000 :
					    in->replicas) : 1);
					break;
				case PV_OWNER_RUNNING:
				case PV_OWNER_MOVED:
					p->state = DRA_PART_ALLOCATED;
					p->shared = 1;
					break;
				case PV_OWNER_SPARE:
					p->state = DRA_PART_FREE;
					break;
				}
				if (in->ns != NULL && in->name != NULL) {
					p->namespace = mstr(b.m, in->ns);
					p->claim = mstrf(b.m, "%s/%s", in->ns,
					    in->name);
				}
			}
		}
	}
	finish_map(&b);
	build_free(&b);
	free(pm);
	pv_release(&d);
	return b.m;
fail:
	build_free(&b);
	dra_gpu_map_free(b.m);
	free(pm);
	pv_release(&d);
	return NULL;
}

/* Today's GPU node/name in m, or NULL (nodes and GPUs are sorted). */
static const struct dra_gpu *
find_gpu(const struct dra_gpu_map *m, const char *node, const char *name,
    int *node_found)
{
	size_t	lo = 0, hi = m->nnodes, mid, k;
	int	c;

	*node_found = 0;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = dra_natcmp(node, m->nodes[mid].name);
		if (c == 0) {
			*node_found = 1;
			for (k = 0; k < m->nodes[mid].ngpus; k++)
				if (strcmp(m->nodes[mid].gpus[k].name, name) ==
				    0)
					return &m->nodes[mid].gpus[k];
			return NULL;
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

size_t
dra_gpu_map_match(struct dra_gpu_map *plan, const struct dra_gpu_map *today)
{
	const struct dra_gpu	*t;
	struct dra_gpu		*g;
	struct dra_gpu_part	*p;
	size_t			 n, k, j, common = 0;
	int			 found, any;

	for (n = 0; n < plan->nnodes; n++) {
		any = 0;
		for (k = 0; k < plan->nodes[n].ngpus; k++) {
			g = &plan->nodes[n].gpus[k];
			t = today != NULL ? find_gpu(today, g->node, g->name,
			    &found) : NULL;
			any |= t != NULL;
			if (t == NULL || !t->tainted || g->tainted)
				continue;
			g->tainted = 1;
			for (j = 0; j < g->nparts; j++)
				if (g->parts[j].state == DRA_PART_FREE)
					g->parts[j].state = DRA_PART_TAINTED;
			if (g->nparts == 0) {
				/* Room for one: dra_gpu_map_plan. */
				p = &g->parts[g->nparts++];
				memset(p, 0, sizeof *p);
				p->device = g->name;
				p->size = g->nslices;
				p->compute = g->compute_total;
				p->state = DRA_PART_TAINTED;
				plan->nparts++;
			}
		}
		if (any)
			common++;
	}
	return common;
}

void
dra_gpu_map_free(struct dra_gpu_map *m)
{
	if (m == NULL)
		return;
	dra_arena_release(&m->arena);
	free(m);
}
