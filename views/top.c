/*
 * top.c: the figures of `kubectl dra top` (top.h, docs/TOP.md).
 *
 * One pass over the devices of each pool's newest generation charges
 * each device to its row (its node, its pool, the classes whose
 * selectors match it, the namespaces whose claims hold it), one pass
 * over the counter sets charges shared counters and the GPU memory of
 * partitionable devices (classes: the sets their devices consume, once
 * per class), and the GPU map (gpus.c) gives GPUs and their compute
 * utilization; unusable pools count only as unusable devices.  The
 * percentages' text and colour come from one exact function,
 * dra_top_percent, which doctor shares.  Rows are found by name in a uthash table; a
 * row the filter leaves out is remembered as such, so the filter's
 * matched[] marks are set once per row.
 *
 * The allocation state, counter use and consumable capacity use are
 * the snapshot's joins (kube/model/join.c); nothing is recomputed
 * here, so `top`, `get pools` and `get devices` agree.
 */
#include "top.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <uthash.h>

#include "cel.h"
#include "gpus.h"
#include "views-int.h"
#include "xmalloc.h"

#define TOP_NONE	"<none>"
#define TOP_SKIP	((size_t)-1)
#define TOP_RATIO_SCALE	1000000000LL	/* a ratio in billionths */

/* A row by name (or a left-out one, idx TOP_SKIP). */
struct rowent {
	const char	*key;
	size_t		 idx;
	UT_hash_handle	 hh;
};

/* A (row, counter set) pair already charged with the set's memory. */
struct setkey {
	size_t		 row;
	const void	*set;
};
struct setent {
	struct setkey	 k;
	UT_hash_handle	 hh;
};

/* A DeviceClass with its compiled selectors. */
struct tclass {
	const struct kube_device_class	*dc;
	struct dra_cel			**progs;
	size_t				 nprogs;
	size_t				 row;	/* TOP_SKIP: hidden */
	int				 broken; /* a selector does not
						   compile */
};

struct build {
	const struct kube_snapshot	*s;
	const struct dra_filter		*f;
	struct dra_top			*t;
	struct rowent			*rows;	/* by name */
	struct setent			*sets;
	size_t				 caprows;
	double				*csum;	/* compute sums */
	double				 tcsum;
	struct tclass			*classes;
	size_t				 nclasses;
	size_t				 capcounters;
	size_t				 capwarnings;
	size_t				 ngpus;	/* of usable pools */
};

static const char *tstr(struct dra_top *, const char *);
static void	 amount_add(struct dra_top_amount **, size_t *,
		    const char *, int64_t, int64_t);
static int64_t	 bytes(int64_t);
static int64_t	 qbytes(const struct kube_quantity *);
static void	 mem_add(int64_t *, int64_t);
static int	 is_memory(const char *);
static int	 pool_usable(const struct kube_pool *);
static ssize_t	 set_memory(const struct kube_counter_set *);
static int	 dev_mem_sets(const struct kube_device *, int64_t *);
static ssize_t	 dev_mem_cap(const struct kube_device *);
static int64_t	 result_memory(const struct kube_result *);
static int	 keep_row(struct build *, const char *, const void *);
static size_t	 row_get(struct build *, const char *, const void *);
static void	 charge_state(struct dra_top_row *,
		    const struct kube_device *);
static void	 charge_device(struct dra_top_row *,
		    const struct kube_device *);
static void	 charge_set(struct dra_top_row *,
		    const struct kube_counter_set *);
static void	 add_counter_detail(struct build *, const struct kube_pool *,
		    const struct kube_counter_set *);
static int	 set_once(struct build *, size_t, const void *);
static void	 holder_memory(struct dra_top_row *, size_t,
		    const struct kube_device *, int64_t);
static const char *device_row_key(struct build *,
		    const struct kube_device *, char *, size_t);
static void	 build_places(struct build *);
static const char *gpu_node(const struct kube_pool *, const char *);
static void	 build_gpus(struct build *, const struct dra_gpu_map *);
static void	 build_ns_gpus(struct build *, const struct dra_gpu_map *);
static void	 unread_holdings(struct build *);
static void	 build_namespaces(struct build *);
static const char *result_class(const struct kube_claim *,
		    const struct kube_result *);
static void	 classes_compile(struct build *);
static int	 class_match(struct build *, struct tclass *,
		    const struct kube_device *);
static void	 class_device(struct build *, struct dra_top_row *, size_t,
		    const struct kube_device *);
static void	 build_classes(struct build *);
static void	 cluster_totals(struct build *, struct dra_top_row *);
static void	 sum_row(struct dra_top_row *, const struct dra_top_row *);
static int	 cmp_row(const void *, const void *);
static void	 dedup_counters(struct dra_top *);
static int	 cmp_counter(const void *, const void *);
static int	 cmp_amount(const void *, const void *);
static double	 frac(int64_t, int64_t);
static const struct dra_top_amount *busiest(const struct dra_top_amount *,
		    size_t);
static void	 fmt_bytes(int64_t, char *, size_t);
static enum dra_top_level cell_count(struct view_rowb *, int64_t,
		    int64_t);
static enum dra_top_level cell_memory(struct view_rowb *, int64_t,
		    int64_t);
static void	 cell_amounts(struct view_rowb *, struct dra_buf *,
		    const struct dra_top_amount *, size_t);
static void	 prom_num(struct dra_buf *, int64_t);
static void	 prom_milli(struct dra_buf *, int64_t);
static void	 prom_labels(struct dra_buf *, const struct dra_top *,
		    const struct dra_top_row *);
static void	 prom_ratio(struct dra_buf *, double);
static void	 top_warn(struct build *, const char *, const char *);
static size_t	 class_row(struct build *, const char *);
static int	 cmp_name(const char *, const char *);
static void	 sort_amounts(struct dra_top_row *);
static void	 set_in_use(const struct dra_top *, struct dra_top_row *);
static double	 sort_key(const struct dra_top_row *, int);
static int	 cmp_keyed(const void *, const void *);
static void	 amount_text(struct dra_buf *,
		    const struct dra_top_amount *);
static enum dra_top_level compute_cell(struct view_rowb *, double);
static void	 gpus_cell(struct view_rowb *, const struct dra_top_row *);
static unsigned char amount_level(const struct dra_top_amount *, size_t);
static void	 table_row(const struct dra_top *, struct dra_table *,
		    const struct dra_top_row *, int, struct dra_buf *,
		    unsigned char *);
static cJSON	*json_amounts(const struct dra_top_amount *, size_t);
static void	 json_known(cJSON *, const char *, int, int64_t);
static cJSON	*json_row(const struct dra_top *,
		    const struct dra_top_row *);
static const char *prom_kind(const struct dra_top *);
static void	 prom_family(struct dra_buf *, const struct dra_top *,
		    const char *, const char *);
static void	 prom_head(struct dra_buf *, const struct dra_top *,
		    const struct dra_top_row *, const char *, const char *);
static void	 prom_rows(struct dra_buf *, const struct dra_top *,
		    const char *, const char *, const char *, int,
		    int64_t (*)(const struct dra_top_row *));
static int64_t	 pv_devices(const struct dra_top_row *);
static int64_t	 pv_mem_used(const struct dra_top_row *);
static int64_t	 pv_mem_total(const struct dra_top_row *);
static int64_t	 pv_gpus_used(const struct dra_top_row *);
static int64_t	 pv_gpus(const struct dra_top_row *);
static void	 prom_amounts(struct dra_buf *, const struct dra_top *,
		    const char *, const char *, const char *, const char *,
		    int);
static void	 prom_sets(struct dra_buf *, const struct dra_top *);

static const struct {
	const char		*word;
	enum dra_top_kind	 kind;
} top_words[] = {
	{ "nodes", DRA_TOP_NODES }, { "node", DRA_TOP_NODES },
	{ "no", DRA_TOP_NODES },
	{ "classes", DRA_TOP_CLASSES }, { "class", DRA_TOP_CLASSES },
	{ "deviceclasses", DRA_TOP_CLASSES },
	{ "deviceclass", DRA_TOP_CLASSES },
	{ "namespaces", DRA_TOP_NAMESPACES },
	{ "namespace", DRA_TOP_NAMESPACES }, { "ns", DRA_TOP_NAMESPACES },
	{ "pools", DRA_TOP_POOLS }, { "pool", DRA_TOP_POOLS },
};

int
dra_top_kind_parse(const char *word, enum dra_top_kind *kind)
{
	size_t	i;

	if (word == NULL)
		return -1;
	for (i = 0; i < sizeof top_words / sizeof top_words[0]; i++) {
		if (strcasecmp(top_words[i].word, word) == 0) {
			*kind = top_words[i].kind;
			return 0;
		}
	}
	return -1;
}

const char *
dra_top_kind_name(enum dra_top_kind kind)
{
	switch (kind) {
	case DRA_TOP_CLASSES:
		return "classes";
	case DRA_TOP_NAMESPACES:
		return "namespaces";
	case DRA_TOP_POOLS:
		return "pools";
	case DRA_TOP_NODES:
	default:
		return "nodes";
	}
}

static const char *
tstr(struct dra_top *t, const char *s)
{
	return s == NULL ? NULL : dra_arena_strdup(&t->arena, s);
}

/* Add used and total to the amount called name (kept sorted later). */
static void
amount_add(struct dra_top_amount **v, size_t *n, const char *name,
    int64_t used, int64_t total)
{
	size_t	i;

	for (i = 0; i < *n; i++) {
		if (strcmp((*v)[i].name, name) == 0)
			break;
	}
	if (i == *n) {
		*v = xreallocarray(*v, *n + 1, sizeof **v);
		(*v)[i].name = name;
		(*v)[i].used = 0;
		(*v)[i].total = 0;
		(*n)++;
	}
	(*v)[i].used += used;
	(*v)[i].total += total;
}

/* Thousandths of a byte to bytes, rounded up as MilliValue rounds. */
static int64_t
bytes(int64_t milli)
{
	if (milli <= 0)
		return 0;
	return milli / 1000 + (milli % 1000 != 0);
}

/*
 * A quantity of memory in bytes: exact up to 1Pi, beyond it
 * (saturated in the model) read again from its text
 * (kube_quantity_approx), so 2Pi is 2Pi; DRA_TOP_MEM_MAX at most.
 */
static int64_t
qbytes(const struct kube_quantity *q)
{
	double	v;

	if (!kube_quantity_saturated(q))
		return bytes(q->milli);
	v = kube_quantity_approx(q);
	if (!(v > 0))
		return 0;
	if (v >= (double)DRA_TOP_MEM_MAX)
		return DRA_TOP_MEM_MAX;
	return (int64_t)ceil(v);
}

/* *acc += v (bytes, v >= 0), saturating at DRA_TOP_MEM_MAX. */
static void
mem_add(int64_t *acc, int64_t v)
{
	if (v <= 0)
		return;
	if (*acc > DRA_TOP_MEM_MAX - v)
		*acc = DRA_TOP_MEM_MAX;
	else
		*acc += v;
}

static int
is_memory(const char *name)
{
	return name != NULL && strcmp(name, "memory") == 0;
}

/* Whether devices can be allocated from p (complete and valid). */
static int
pool_usable(const struct kube_pool *p)
{
	return p != NULL && p->complete && p->invalid == NULL;
}

/* The index of a counter set's "memory" counter, or -1. */
static ssize_t
set_memory(const struct kube_counter_set *cs)
{
	size_t	i;

	for (i = 0; i < cs->ncounters; i++) {
		if (is_memory(cs->counters[i].name))
			return (ssize_t)i;
	}
	return -1;
}

/*
 * Whether d's GPU memory is counted through counter sets (it consumes
 * a set that has a "memory" counter); *nbytes gets the memory it
 * consumes of those sets, in bytes.
 */
static int
dev_mem_sets(const struct kube_device *d, int64_t *nbytes)
{
	const struct kube_device_counters	*dc;
	size_t					 i, j;
	int					 via = 0;

	*nbytes = 0;
	for (i = 0; i < d->nconsumes; i++) {
		dc = &d->consumes[i];
		if (dc->set == NULL || set_memory(dc->set) < 0)
			continue;
		via = 1;
		for (j = 0; j < dc->ncounters; j++) {
			if (is_memory(dc->counters[j].name))
				mem_add(nbytes,
				    qbytes(&dc->counters[j].value));
		}
	}
	return via;
}

/* The index of d's capacity named "memory" (any domain), or -1. */
static ssize_t
dev_mem_cap(const struct kube_device *d)
{
	size_t	i;

	for (i = 0; i < d->ncapacity; i++) {
		if (is_memory(d->capacity[i].id))
			return (ssize_t)i;
	}
	return -1;
}

/* The memory a result consumed of a shareable device, in milli. */
static int64_t
result_memory(const struct kube_result *r)
{
	int64_t	m = 0;
	size_t	i;

	for (i = 0; i < r->nconsumed; i++) {
		if (is_memory(r->consumed[i].id))
			m += r->consumed[i].value.milli;
	}
	return m;
}

/* Whether the filter keeps the row called key (obj: see row_get). */
static int
keep_row(struct build *b, const char *key, const void *obj)
{
	const struct dra_filter		*f = b->f;
	const struct kube_node		*n;
	const struct kube_pool		*p;
	size_t				 j;
	int				 ok;

	if (f == NULL)
		return 1;
	switch (b->t->kind) {
	case DRA_TOP_NODES:
		n = strcmp(key, TOP_NONE) == 0 ? NULL :
		    kube_snapshot_node(b->s, key);
		if (!view_labels_ok(f, n != NULL ? &n->meta : NULL))
			return 0;
		return view_name_ok(f, key, NULL);
	case DRA_TOP_POOLS:
		p = obj;
		if (f->selector != NULL) {
			ok = 0;
			for (j = 0; p != NULL && j < p->nslices && !ok; j++)
				ok = view_labels_ok(f, &p->slices[j]->meta);
			if (!ok)
				return 0;
		}
		return view_name_ok(f, key, p != NULL ? p->name : NULL);
	case DRA_TOP_CLASSES:
		if (!view_labels_ok(f, obj != NULL ?
		    &((const struct kube_device_class *)obj)->meta : NULL))
			return 0;
		return view_name_ok(f, key, NULL);
	case DRA_TOP_NAMESPACES:
	default:
		if (!view_ns_ok(f, key))
			return 0;
		return view_name_ok(f, key, NULL);
	}
}

/*
 * The index of the row called key, made when first seen; TOP_SKIP
 * when the filter leaves it out.  obj: the pool (pools) or class
 * (classes) the row shows, else NULL.
 */
static size_t
row_get(struct build *b, const char *key, const void *obj)
{
	struct dra_top		*t = b->t;
	struct dra_top_row	*r;
	struct rowent		*e;
	const struct kube_pool	*p;

	HASH_FIND_STR(b->rows, key, e);
	if (e != NULL)
		return e->idx;
	e = dra_arena_calloc(&t->arena, 1, sizeof *e);
	e->key = tstr(t, key);
	e->idx = TOP_SKIP;
	if (keep_row(b, key, obj)) {
		if (t->nrows == b->caprows) {
			b->caprows = b->caprows == 0 ? 16 : b->caprows * 2;
			t->rows = xreallocarray(t->rows, b->caprows,
			    sizeof *t->rows);
			b->csum = xreallocarray(b->csum, b->caprows,
			    sizeof *b->csum);
		}
		e->idx = t->nrows++;
		r = &t->rows[e->idx];
		memset(r, 0, sizeof *r);
		b->csum[e->idx] = 0;
		r->name = e->key;
		r->compute = -1;
		if (t->kind == DRA_TOP_POOLS && obj != NULL) {
			p = obj;
			r->driver = p->driver;
			r->pool = p->name;
			r->node = p->node_name;
		}
	}
	HASH_ADD_KEYPTR(hh, b->rows, e->key, strlen(e->key), e);
	return e->idx;
}

/*
 * The exclusive state of a device (top.h): unusable, else allocated,
 * tainted, blocked, free.
 */
static void
charge_state(struct dra_top_row *r, const struct kube_device *d)
{
	r->devices++;
	if (d->state & KUBE_DEV_UNUSABLE)
		r->unusable++;
	else if (d->state & KUBE_DEV_ALLOCATED)
		r->allocated++;
	else if (d->state & KUBE_DEV_TAINTED)
		r->tainted++;
	else if (d->state & KUBE_DEV_BLOCKED)
		r->blocked++;
	else
		r->free++;
}

/*
 * A device of a node, pool or class row: its state, its memory when
 * not counted through a counter set, its consumable capacity (neither
 * for a device of an unusable pool).
 */
static void
charge_device(struct dra_top_row *r, const struct kube_device *d)
{
	const struct kube_capacity	*c;
	int64_t				 m, used;
	ssize_t				 ci;
	size_t				 i;

	charge_state(r, d);
	if (d->state & KUBE_DEV_UNUSABLE)
		return;
	if (!dev_mem_sets(d, &m) && (ci = dev_mem_cap(d)) >= 0) {
		c = &d->capacity[ci];
		mem_add(&r->mem_total, qbytes(&c->value));
		if (d->allow_multiple)
			used = bytes(d->capacity_used != NULL ?
			    d->capacity_used[ci] : 0);
		else
			used = (d->state & KUBE_DEV_ALLOCATED) ?
			    qbytes(&c->value) : 0;
		mem_add(&r->mem_used, used);
	}
	if (!d->allow_multiple)
		return;
	for (i = 0; i < d->ncapacity; i++) {
		amount_add(&r->consumable, &r->nconsumable,
		    d->capacity[i].id, d->capacity_used != NULL ?
		    d->capacity_used[i] : 0, d->capacity[i].value.milli);
	}
}

/* A counter set of a node or pool row. */
static void
charge_set(struct dra_top_row *r, const struct kube_counter_set *cs)
{
	size_t	i;
	int64_t	used;

	for (i = 0; i < cs->ncounters; i++) {
		used = cs->consumed != NULL ? cs->consumed[i] : 0;
		if (is_memory(cs->counters[i].name)) {
			mem_add(&r->mem_total,
			    qbytes(&cs->counters[i].value));
			mem_add(&r->mem_used, bytes(used));
		} else
			amount_add(&r->counters, &r->ncounters,
			    cs->counters[i].name, used,
			    cs->counters[i].value.milli);
	}
}

static void
add_counter_detail(struct build *b, const struct kube_pool *p,
    const struct kube_counter_set *cs)
{
	struct dra_top		*t = b->t;
	struct dra_top_counter	*c;
	size_t			 i;

	for (i = 0; i < cs->ncounters; i++) {
		if (t->ncounters == b->capcounters) {
			b->capcounters = b->capcounters == 0 ? 64 :
			    b->capcounters * 2;
			t->counters = xreallocarray(t->counters,
			    b->capcounters, sizeof *t->counters);
		}
		c = &t->counters[t->ncounters++];
		c->driver = p->driver;
		c->pool = p->name;
		c->node = cs->slice != NULL ? cs->slice->node_name : NULL;
		c->set = cs->name;
		c->counter = cs->counters[i].name;
		c->used = cs->consumed != NULL ? cs->consumed[i] : 0;
		c->total = cs->counters[i].value.milli;
	}
}

/* 1 the first time (row, set) is seen, else 0. */
static int
set_once(struct build *b, size_t row, const void *set)
{
	struct setent	*e;
	struct setkey	 k;

	memset(&k, 0, sizeof k);
	k.row = row;
	k.set = set;
	HASH_FIND(hh, b->sets, &k, sizeof k, e);
	if (e != NULL)
		return 0;
	e = dra_arena_calloc(&b->t->arena, 1, sizeof *e);
	e->k = k;
	HASH_ADD(hh, b->sets, k, sizeof e->k, e);
	return 1;
}

/*
 * The row key of a device for nodes and pools: its node (TOP_NONE for
 * devices of no single node) or "driver/pool".
 */
static const char *
device_row_key(struct build *b, const struct kube_device *d, char *buf,
    size_t len)
{
	const char	*n;

	if (b->t->kind == DRA_TOP_POOLS) {
		snprintf(buf, len, "%s/%s", d->pool->driver, d->pool->name);
		return buf;
	}
	n = kube_device_node(d);
	return n != NULL && *n != '\0' ? n : TOP_NONE;
}

/* Nodes and pools: devices and counter sets. */
static void
build_places(struct build *b)
{
	const struct kube_snapshot	*s = b->s;
	const struct kube_pool		*p;
	const struct kube_slice		*sl;
	const struct kube_device	*d;
	const struct kube_counter_set	*cs;
	const char			*key;
	char				 buf[1024];
	size_t				 i, j, k, ri;

	for (i = 0; i < s->pools.n; i++) {
		p = s->pools.v[i];
		for (j = 0; j < p->nslices; j++) {
			sl = p->slices[j];
			for (k = 0; k < sl->ndevices; k++) {
				d = &sl->devices[k];
				if (d->pool == NULL)
					continue;
				key = device_row_key(b, d, buf, sizeof buf);
				ri = row_get(b, key, p);
				if (ri != TOP_SKIP)
					charge_device(&b->t->rows[ri], d);
			}
			for (k = 0; k < sl->ncounter_sets; k++) {
				cs = &sl->counter_sets[k];
				if (b->t->kind == DRA_TOP_POOLS) {
					snprintf(buf, sizeof buf, "%s/%s",
					    p->driver, p->name);
					key = buf;
				} else
					key = sl->node_name != NULL &&
					    *sl->node_name != '\0' ?
					    sl->node_name : TOP_NONE;
				ri = row_get(b, key, p);
				if (ri == TOP_SKIP)
					continue;
				/* Unusable pools count in no counter. */
				if (!pool_usable(p))
					continue;
				charge_set(&b->t->rows[ri], cs);
				add_counter_detail(b, p, cs);
			}
		}
	}
}

/*
 * The node row of a GPU of pool p: the GPU map names a GPU of no node
 * after its pool (gpus.c, as the planner does), so node is a node only
 * when a slice or device of p is on it; else TOP_NONE, the row of the
 * devices of no single node.
 */
static const char *
gpu_node(const struct kube_pool *p, const char *node)
{
	const struct kube_slice	*sl;
	const char		*n;
	size_t			 i, j;

	if (node == NULL || *node == '\0')
		return TOP_NONE;
	for (i = 0; i < p->nslices; i++) {
		sl = p->slices[i];
		if (sl->node_name != NULL && *sl->node_name != '\0') {
			if (strcmp(sl->node_name, node) == 0)
				return node;
			continue;
		}
		for (j = 0; j < sl->ndevices; j++) {
			n = kube_device_node(&sl->devices[j]);
			if (n != NULL && strcmp(n, node) == 0)
				return node;
		}
	}
	return TOP_NONE;
}

/* Nodes and pools: the GPU map's GPUs of each row. */
static void
build_gpus(struct build *b, const struct dra_gpu_map *m)
{
	const struct dra_gpu	*g;
	const struct kube_pool	*p;
	char			 buf[1024];
	const char		*key;
	size_t			 i, j, ri;

	for (i = 0; i < m->nnodes; i++) {
		for (j = 0; j < m->nodes[i].ngpus; j++) {
			g = &m->nodes[i].gpus[j];
			p = kube_snapshot_pool(b->s, g->driver, g->pool);
			if (!pool_usable(p))
				continue;
			if (b->t->kind == DRA_TOP_POOLS) {
				snprintf(buf, sizeof buf, "%s/%s", g->driver,
				    g->pool);
				key = buf;
			} else
				key = gpu_node(p, g->node);
			ri = row_get(b, key, b->t->kind == DRA_TOP_POOLS ?
			    p : NULL);
			if (ri == TOP_SKIP)
				continue;
			b->t->rows[ri].gpus++;
			if (g->compute_used > 0)
				b->t->rows[ri].gpus_used++;
			b->csum[ri] += g->util;
		}
	}
}

/* Namespaces: the parts their claims hold, GPU by GPU. */
static void
build_ns_gpus(struct build *b, const struct dra_gpu_map *m)
{
	const struct dra_gpu		*g;
	const struct dra_gpu_part	*pt;
	size_t				 i, j, k, l, ri;
	int				 seen, any;

	for (i = 0; i < m->nnodes; i++) {
		for (j = 0; j < m->nodes[i].ngpus; j++) {
			g = &m->nodes[i].gpus[j];
			if (!pool_usable(kube_snapshot_pool(b->s, g->driver,
			    g->pool)))
				continue;
			b->ngpus++;
			any = 0;
			for (k = 0; k < g->nparts; k++) {
				pt = &g->parts[k];
				if (pt->state != DRA_PART_ALLOCATED ||
				    pt->namespace == NULL)
					continue;
				ri = row_get(b, pt->namespace, NULL);
				if (ri == TOP_SKIP)
					continue;
				any = 1;
				seen = 0;
				for (l = 0; l < k && !seen; l++)
					seen = g->parts[l].state ==
					    DRA_PART_ALLOCATED &&
					    g->parts[l].namespace != NULL &&
					    strcmp(g->parts[l].namespace,
					    pt->namespace) == 0;
				if (!seen)
					b->t->rows[ri].gpus_used++;
				if (g->compute_total > 0) {
					b->csum[ri] += (double)pt->compute /
					    g->compute_total;
					b->tcsum += (double)pt->compute /
					    g->compute_total;
				}
			}
			if (any)
				b->t->total.gpus_used++;
		}
	}
}

/*
 * The memory a holder row (namespace, class) gets of device d for one
 * result that consumed cons (milli) of a shareable device; first says
 * whether this is the row's first result on d (what is charged once
 * per device is charged then).
 */
static void
holder_memory(struct dra_top_row *r, size_t first,
    const struct kube_device *d, int64_t cons)
{
	int64_t	m;
	ssize_t	ci;

	if (dev_mem_sets(d, &m)) {
		if (first)
			mem_add(&r->mem_used, m);
		return;
	}
	if ((ci = dev_mem_cap(d)) < 0)
		return;
	if (d->allow_multiple)
		mem_add(&r->mem_used, bytes(cons));
	else if (first)
		mem_add(&r->mem_used, qbytes(&d->capacity[ci].value));
}

/*
 * Namespaces when the slices could not be read (a user limited to a
 * namespace): the devices its claims' results name, each (driver,
 * pool, device) once per namespace and once in the totals row;
 * nothing else is known.
 */
static void
unread_holdings(struct build *b)
{
	const struct kube_snapshot	*s = b->s;
	const struct kube_claim		*c;
	const struct kube_result	*r;
	struct rowent			*seen = NULL, *e, *etmp;
	struct dra_buf			 k;
	size_t				 i, j, ri, pass;

	dra_buf_init(&k, DRA_BUF_MAX_SMALL);
	for (i = 0; i < s->claims.n; i++) {
		c = s->claims.v[i];
		if (c->meta.namespace == NULL)
			continue;
		ri = row_get(b, c->meta.namespace, NULL);
		if (ri == TOP_SKIP)
			continue;
		for (j = 0; j < c->nresults; j++) {
			r = &c->results[j];
			if (r->admin_access || r->driver == NULL ||
			    r->pool == NULL || r->device == NULL)
				continue;
			/* pass 0: the namespace's, 1: the rows shown */
			for (pass = 0; pass < 2; pass++) {
				dra_buf_reset(&k);
				dra_buf_addf(&k, "%s/%s/%s/%s", pass == 0 ?
				    c->meta.namespace : "", r->driver,
				    r->pool, r->device);
				HASH_FIND_STR(seen, dra_buf_str(&k), e);
				if (e != NULL)
					continue;
				e = dra_arena_calloc(&b->t->arena, 1,
				    sizeof *e);
				e->key = tstr(b->t, dra_buf_str(&k));
				HASH_ADD_KEYPTR(hh, seen, e->key,
				    strlen(e->key), e);
				if (pass == 0)
					b->t->rows[ri].allocated++;
				else
					b->t->total.allocated++;
			}
		}
	}
	HASH_ITER(hh, seen, e, etmp) {
		HASH_DEL(seen, e);
	}
	dra_buf_release(&k);
}

/* Namespaces: claims, and the devices and memory they hold. */
static void
build_namespaces(struct build *b)
{
	const struct kube_snapshot	*s = b->s;
	const struct kube_claim		*c;
	const struct kube_pool		*p;
	const struct kube_device	*d;
	const struct kube_result	*r;
	struct dra_top_row		*row, *tot = &b->t->total;
	size_t				 i, j, k, a, a2, ri, ri2;
	int				 first, tfirst;

	if (b->f != NULL && b->f->namespace != NULL)
		(void)row_get(b, b->f->namespace, NULL);
	for (i = 0; i < s->claims.n; i++) {
		c = s->claims.v[i];
		if (c->meta.deleted != 0 || c->meta.namespace == NULL)
			continue;
		ri = row_get(b, c->meta.namespace, NULL);
		if (ri == TOP_SKIP)
			continue;
		if (c->allocated)
			b->t->rows[ri].claims++;
		else
			b->t->rows[ri].pending++;
	}
	if (s->slices_unread) {
		unread_holdings(b);
		return;
	}
	for (i = 0; i < s->pools.n; i++) {
		p = s->pools.v[i];
		for (j = 0; j < p->nslices; j++) {
			for (k = 0; k < p->slices[j]->ndevices; k++) {
				d = &p->slices[j]->devices[k];
				tfirst = 1;
				for (a = 0; a < d->nallocs; a++) {
					c = d->allocs[a].claim;
					r = &c->results[d->allocs[a].result];
					if (r->admin_access ||
					    c->meta.namespace == NULL)
						continue;
					ri = row_get(b, c->meta.namespace,
					    NULL);
					if (ri == TOP_SKIP)
						continue;
					row = &b->t->rows[ri];
					first = 1;
					for (a2 = 0; a2 < a && first; a2++) {
						const struct kube_claim *c2 =
						    d->allocs[a2].claim;

						if (c2->results[d->allocs[a2].
						    result].admin_access ||
						    c2->meta.namespace == NULL)
							continue;
						ri2 = row_get(b,
						    c2->meta.namespace, NULL);
						if (ri2 == ri)
							first = 0;
					}
					if (first)
						row->allocated++;
					if (tfirst)
						tot->allocated++;
					holder_memory(row, first, d,
					    result_memory(r));
					holder_memory(tot, tfirst, d,
					    result_memory(r));
					tfirst = 0;
				}
			}
		}
	}
}

/* The DeviceClass a result's request names, or NULL. */
static const char *
result_class(const struct kube_claim *c, const struct kube_result *r)
{
	const struct kube_request	*q;
	const char			*slash;
	size_t				 len, i, j;

	if (r->request == NULL)
		return NULL;
	slash = strchr(r->request, '/');
	len = slash != NULL ? (size_t)(slash - r->request) :
	    strlen(r->request);
	for (i = 0; i < c->spec.nrequests; i++) {
		q = &c->spec.requests[i];
		if (q->name == NULL || strlen(q->name) != len ||
		    strncmp(q->name, r->request, len) != 0)
			continue;
		if (slash == NULL)
			return q->exactly != NULL ?
			    q->exactly->class_name : NULL;
		for (j = 0; j < q->nfirst_available; j++) {
			if (q->first_available[j].name != NULL &&
			    strcmp(q->first_available[j].name,
			    slash + 1) == 0)
				return q->first_available[j].class_name;
		}
	}
	return NULL;
}

static void
top_warn(struct build *b, const char *cls, const char *msg)
{
	struct dra_top	*t = b->t;
	char		 buf[1024];
	size_t		 i;

	snprintf(buf, sizeof buf, "%s: %s", cls, msg);
	for (i = 0; i < t->nwarnings; i++) {
		if (strcmp(t->warnings[i], buf) == 0)
			return;
	}
	if (t->nwarnings == b->capwarnings) {
		b->capwarnings = b->capwarnings == 0 ? 4 :
		    b->capwarnings * 2;
		t->warnings = xreallocarray(t->warnings, b->capwarnings,
		    sizeof *t->warnings);
	}
	t->warnings[t->nwarnings++] = tstr(t, buf);
}

/* Every class, its selectors compiled; rows made in class order. */
static void
classes_compile(struct build *b)
{
	const struct kube_device_class	*dc;
	struct tclass			*tc;
	struct dra_err			 err;
	void				**v;
	size_t				 i, j;

	b->nclasses = b->s->classes.n;
	b->classes = xcalloc(b->nclasses + 1, sizeof *b->classes);
	v = view_sort_meta((void *const *)b->s->classes.v, b->nclasses);
	for (i = 0; i < b->nclasses; i++) {
		dc = v[i];
		tc = &b->classes[i];
		tc->dc = dc;
		tc->row = row_get(b, dc->meta.name, dc);
		tc->progs = xcalloc(dc->nselectors + 1, sizeof *tc->progs);
		tc->nprogs = dc->nselectors;
		for (j = 0; j < dc->nselectors; j++) {
			dra_err_clear(&err);
			if (dra_cel_compile(dc->selectors[j], &tc->progs[j],
			    &err) != KUBE_OK) {
				tc->broken = 1;
				if (tc->row != TOP_SKIP)
					top_warn(b, dc->meta.name, err.msg);
			}
		}
	}
	free(v);
}

/* Whether every selector of the class is true for d. */
static int
class_match(struct build *b, struct tclass *tc, const struct kube_device *d)
{
	struct dra_err	err;
	size_t		i;
	int		v;

	if (tc->broken)
		return 0;
	for (i = 0; i < tc->nprogs; i++) {
		dra_err_clear(&err);
		v = dra_cel_eval(tc->progs[i], d, &err);
		if (v == DRA_CEL_TRUE)
			continue;
		if (v != DRA_CEL_FALSE && tc->row != TOP_SKIP)
			top_warn(b, tc->dc->meta.name, err.msg);
		return 0;
	}
	return 1;
}

/* The class row a class name shows, or TOP_SKIP. */
static size_t
class_row(struct build *b, const char *name)
{
	size_t	i;

	for (i = 0; name != NULL && i < b->nclasses; i++) {
		if (strcmp(b->classes[i].dc->meta.name, name) == 0)
			return b->classes[i].row;
	}
	return TOP_SKIP;
}

/*
 * A device a class matches, charged to its row ri (TOP_SKIP: the
 * totals row) as a node row charges it, with the counter sets it
 * consumes, each once per row.
 */
static void
class_device(struct build *b, struct dra_top_row *row, size_t ri,
    const struct kube_device *d)
{
	const struct kube_device_counters	*dc;
	size_t					 a;

	charge_device(row, d);
	if (!pool_usable(d->pool))
		return;
	for (a = 0; a < d->nconsumes; a++) {
		dc = &d->consumes[a];
		if (dc->set != NULL && set_once(b, ri, dc->set))
			charge_set(row, dc->set);
	}
}

/*
 * Classes: the devices each matches, counted as a node counts its
 * own (states, memory, counters, consumable capacity), and the claims
 * allocated through its requests or pending on them.
 */
static void
build_classes(struct build *b)
{
	const struct kube_snapshot	*s = b->s;
	const struct kube_pool		*p;
	const struct kube_device	*d;
	const struct kube_claim		*c;
	struct dra_top_row		*tot = &b->t->total;
	size_t				*seen, nseen, i, j, k, l, ri;
	int				 any;

	classes_compile(b);
	seen = xcalloc(b->nclasses + 64, sizeof *seen);
	for (i = 0; i < s->pools.n; i++) {
		p = s->pools.v[i];
		for (j = 0; j < p->nslices; j++) {
			for (k = 0; k < p->slices[j]->ndevices; k++) {
				d = &p->slices[j]->devices[k];
				if (d->pool == NULL)
					continue;
				any = 0;
				for (l = 0; l < b->nclasses; l++) {
					ri = b->classes[l].row;
					if (ri == TOP_SKIP ||
					    !class_match(b, &b->classes[l], d))
						continue;
					any = 1;
					class_device(b, &b->t->rows[ri], ri, d);
				}
				if (any)
					class_device(b, tot, TOP_SKIP, d);
			}
		}
	}
	/* Claims allocated and pending, once per class each. */
	for (i = 0; i < s->claims.n; i++) {
		c = s->claims.v[i];
		if (c->meta.deleted != 0)
			continue;
		nseen = 0;
		any = 0;
		if (c->allocated) {
			for (j = 0; j < c->nresults; j++) {
				ri = class_row(b, result_class(c,
				    &c->results[j]));
				if (ri == TOP_SKIP)
					continue;
				for (l = 0; l < nseen && seen[l] != ri; l++)
					;
				if (l < nseen || nseen >= b->nclasses + 64)
					continue;
				seen[nseen++] = ri;
				b->t->rows[ri].claims++;
				any = 1;
			}
			if (any)
				tot->claims++;
			continue;
		}
		for (j = 0; j < c->spec.nrequests; j++) {
			const struct kube_request *q = &c->spec.requests[j];
			size_t	nalt = q->exactly != NULL ? 1 :
				    q->nfirst_available;

			for (k = 0; k < nalt; k++) {
				ri = class_row(b, q->exactly != NULL ?
				    q->exactly->class_name :
				    q->first_available[k].class_name);
				if (ri == TOP_SKIP)
					continue;
				for (l = 0; l < nseen && seen[l] != ri; l++)
					;
				if (l < nseen || nseen >= b->nclasses + 64)
					continue;
				seen[nseen++] = ri;
				b->t->rows[ri].pending++;
				any = 1;
			}
		}
		if (any)
			tot->pending++;
	}
	free(seen);
}

/*
 * The whole cluster's devices, memory and GPUs (the namespaces view's
 * totals).
 */
static void
cluster_totals(struct build *b, struct dra_top_row *out)
{
	const struct kube_snapshot	*s = b->s;
	const struct kube_pool		*p;
	const struct kube_slice		*sl;
	size_t				 i, j, k;

	for (i = 0; i < s->pools.n; i++) {
		p = s->pools.v[i];
		for (j = 0; j < p->nslices; j++) {
			sl = p->slices[j];
			for (k = 0; k < sl->ndevices; k++) {
				if (sl->devices[k].pool != NULL)
					charge_device(out, &sl->devices[k]);
			}
			for (k = 0; pool_usable(p) && k < sl->ncounter_sets;
			    k++)
				charge_set(out, &sl->counter_sets[k]);
		}
	}
}

/* Add row r's figures to sum (the totals row). */
static void
sum_row(struct dra_top_row *sum, const struct dra_top_row *r)
{
	size_t	i;

	sum->devices += r->devices;
	sum->allocated += r->allocated;
	sum->free += r->free;
	sum->blocked += r->blocked;
	sum->tainted += r->tainted;
	sum->unusable += r->unusable;
	mem_add(&sum->mem_used, r->mem_used);
	mem_add(&sum->mem_total, r->mem_total);
	sum->gpus += r->gpus;
	sum->gpus_used += r->gpus_used;
	sum->claims += r->claims;
	sum->pending += r->pending;
	for (i = 0; i < r->ncounters; i++)
		amount_add(&sum->counters, &sum->ncounters,
		    r->counters[i].name, r->counters[i].used,
		    r->counters[i].total);
	for (i = 0; i < r->nconsumable; i++)
		amount_add(&sum->consumable, &sum->nconsumable,
		    r->consumable[i].name, r->consumable[i].used,
		    r->consumable[i].total);
}

/* Natural order of names, "<none>" last. */
static int
cmp_name(const char *a, const char *b)
{
	int	na = strcmp(a, TOP_NONE) == 0, nb = strcmp(b, TOP_NONE) == 0;

	if (na || nb)
		return na - nb;
	return dra_natcmp(a, b);
}

static int
cmp_row(const void *pa, const void *pb)
{
	const struct dra_top_row	*a = pa, *b = pb;
	int				 c;

	if (a->driver != NULL && b->driver != NULL) {
		c = dra_natcmp(a->driver, b->driver);
		if (c == 0)
			c = dra_natcmp(a->pool, b->pool);
		return c;
	}
	return cmp_name(a->name, b->name);
}

static int
cmp_counter(const void *pa, const void *pb)
{
	const struct dra_top_counter	*a = pa, *b = pb;
	int				 c;

	if ((c = dra_natcmp(a->driver, b->driver)) != 0 ||
	    (c = dra_natcmp(a->pool, b->pool)) != 0 ||
	    (c = dra_natcmp(a->set, b->set)) != 0 ||
	    (c = dra_natcmp(a->counter, b->counter)) != 0)
		return c;
	/* The node label last: NULL is node="", as printed. */
	return dra_natcmp(a->node != NULL ? a->node : "",
	    b->node != NULL ? b->node : "");
}

/*
 * Drop counters whose labels (driver, pool, node, set, counter) repeat
 * the previous one's in t->counters, sorted by cmp_counter: a series
 * must be in the exposition once.  Usable pools define each counter
 * set once (the model marks a pool repeating one invalid), so this
 * only guards the text; the first of equal labels stays.
 */
static void
dedup_counters(struct dra_top *t)
{
	size_t	i, n = 0;

	for (i = 0; i < t->ncounters; i++) {
		if (n > 0 && cmp_counter(&t->counters[n - 1],
		    &t->counters[i]) == 0)
			continue;
		t->counters[n++] = t->counters[i];
	}
	t->ncounters = n;
}

static int
cmp_amount(const void *pa, const void *pb)
{
	const struct dra_top_amount	*a = pa, *b = pb;

	return dra_natcmp(a->name, b->name);
}

static void
sort_amounts(struct dra_top_row *r)
{
	if (r->ncounters > 1)
		qsort(r->counters, r->ncounters, sizeof *r->counters,
		    cmp_amount);
	if (r->nconsumable > 1)
		qsort(r->consumable, r->nconsumable, sizeof *r->consumable,
		    cmp_amount);
}

/* in_use of a finished row (top.h). */
static void
set_in_use(const struct dra_top *t, struct dra_top_row *r)
{
	r->in_use = r->allocated;
	if (t->kind != DRA_TOP_NAMESPACES)
		r->in_use += r->blocked;
}

struct dra_top *
dra_top_build(const struct kube_snapshot *s, enum dra_top_kind kind,
    const struct dra_filter *f, struct dra_err *err)
{
	struct build		 b;
	struct dra_top		*t;
	struct dra_gpu_map	*m;
	struct dra_top_row	 cl;
	struct rowent		*e, *etmp;
	struct setent		*se, *stmp;
	size_t			 i, j;

	if (s == NULL || !s->finished) {
		dra_err_set(err, KUBE_E_CONFIG, "top: the snapshot is not "
		    "finished");
		return NULL;
	}
	/* GPUS and COMPUTE: not a column of classes. */
	m = NULL;
	if (kind != DRA_TOP_CLASSES && (m = dra_gpu_map(s, NULL, err)) ==
	    NULL)
		return NULL;
	t = xcalloc(1, sizeof *t);
	dra_arena_init(&t->arena);
	t->kind = kind;
	t->slices_unread = s->slices_unread != 0;
	memset(&b, 0, sizeof b);
	b.s = s;
	b.f = f;
	b.t = t;
	t->total.name = "*";
	t->total.compute = -1;

	switch (kind) {
	case DRA_TOP_NODES:
	case DRA_TOP_POOLS:
		build_places(&b);
		build_gpus(&b, m);
		break;
	case DRA_TOP_CLASSES:
		build_classes(&b);
		break;
	case DRA_TOP_NAMESPACES:
		build_namespaces(&b);
		build_ns_gpus(&b, m);
		break;
	}

	for (i = 0; i < t->nrows; i++) {
		if (t->rows[i].gpus > 0)
			t->rows[i].compute = b.csum[i] / t->rows[i].gpus;
		if (kind == DRA_TOP_NODES || kind == DRA_TOP_POOLS) {
			sum_row(&t->total, &t->rows[i]);
			b.tcsum += b.csum[i];
		} else if (kind == DRA_TOP_NAMESPACES) {
			t->total.claims += t->rows[i].claims;
			t->total.pending += t->rows[i].pending;
		}
	}
	if (kind == DRA_TOP_NODES || kind == DRA_TOP_POOLS) {
		if (t->total.gpus > 0)
			t->total.compute = b.tcsum / t->total.gpus;
	} else if (kind == DRA_TOP_NAMESPACES) {
		/* Shares of the cluster's devices, memory and GPUs. */
		memset(&cl, 0, sizeof cl);
		cluster_totals(&b, &cl);
		t->total.devices = cl.devices;
		t->total.mem_total = cl.mem_total;
		t->total.unusable = cl.unusable;
		t->total.gpus = (int64_t)b.ngpus;
		for (i = 0; i < t->nrows; i++) {
			t->rows[i].devices = cl.devices;
			t->rows[i].unusable = cl.unusable;
			t->rows[i].mem_total = cl.mem_total;
			t->rows[i].gpus = (int64_t)b.ngpus;
			t->rows[i].compute = b.ngpus > 0 ?
			    b.csum[i] / (double)b.ngpus : -1;
		}
		if (b.ngpus > 0)
			t->total.compute = b.tcsum / (double)b.ngpus;
		free(cl.counters);
		free(cl.consumable);
	}
	for (i = 0; i < t->nrows; i++) {
		sort_amounts(&t->rows[i]);
		set_in_use(t, &t->rows[i]);
	}
	sort_amounts(&t->total);
	set_in_use(t, &t->total);
	if (t->nrows > 1)
		qsort(t->rows, t->nrows, sizeof *t->rows, cmp_row);
	if (t->ncounters > 1)
		qsort(t->counters, t->ncounters, sizeof *t->counters,
		    cmp_counter);
	dedup_counters(t);

	HASH_ITER(hh, b.rows, e, etmp) {
		HASH_DEL(b.rows, e);
	}
	HASH_ITER(hh, b.sets, se, stmp) {
		HASH_DEL(b.sets, se);
	}
	for (i = 0; i < b.nclasses; i++) {
		for (j = 0; j < b.classes[i].nprogs; j++)
			dra_cel_free(b.classes[i].progs[j]);
		free(b.classes[i].progs);
	}
	free(b.classes);
	free(b.csum);
	dra_gpu_map_free(m);
	return t;
}

/* used / total, or -1 when there is no total. */
static double
frac(int64_t used, int64_t total)
{
	if (total <= 0)
		return -1;
	return (double)used / (double)total;
}

/*
 * The amount with the highest share used, of equal shares the one with
 * the most used, then the first by name; NULL when n is 0.
 */
static const struct dra_top_amount *
busiest(const struct dra_top_amount *v, size_t n)
{
	const struct dra_top_amount	*best = NULL;
	double				 bf = -2, x;
	size_t				 i;

	for (i = 0; i < n; i++) {
		x = frac(v[i].used, v[i].total);
		if (x > bf || (x == bf && v[i].used > best->used)) {
			bf = x;
			best = &v[i];
		}
	}
	return best;
}

/* The sort key of a row for column c (see dra_top_sort). */
static double
sort_key(const struct dra_top_row *r, int c)
{
	const struct dra_top_amount	*a;

	switch (c) {
	case 1:
		return frac(r->in_use, r->devices - r->unusable);
	case 2:
		return frac(r->mem_used, r->mem_total);
	case 3:
		return frac(r->gpus_used, r->gpus);
	case 4:
		return r->compute;
	case 5:
		a = busiest(r->counters, r->ncounters);
		return a != NULL ? frac(a->used, a->total) : -1;
	case 6:
		a = busiest(r->consumable, r->nconsumable);
		return a != NULL ? frac(a->used, a->total) : -1;
	case 7:
		return (double)r->claims;
	case 8:
		return (double)r->pending;
	default:
		return 0;
	}
}

struct keyed {
	double			k;
	struct dra_top_row	r;
};

static int
cmp_keyed(const void *pa, const void *pb)
{
	const struct keyed	*a = pa, *b = pb;

	if (a->k > b->k)
		return -1;
	if (a->k < b->k)
		return 1;
	return cmp_row(&a->r, &b->r);
}

int
dra_top_sort(struct dra_top *t, const char *column, struct dra_err *err)
{
	static const struct {
		const char	*word;
		int		 col;
		unsigned	 kinds;	/* 1 << enum dra_top_kind */
	} cols[] = {
		{ "name", 0, 0xf }, { "node", 0, 1 << DRA_TOP_NODES },
		{ "class", 0, 1 << DRA_TOP_CLASSES },
		{ "namespace", 0, 1 << DRA_TOP_NAMESPACES },
		{ "pool", 0, 1 << DRA_TOP_POOLS },
		{ "driver", 0, 1 << DRA_TOP_POOLS },
		{ "devices", 1, 0xf }, { "gpu-memory", 2, 0xf },
		{ "memory", 2, 0xf },
		{ "gpus", 3, 0xd }, { "compute", 4, 0xd },
		{ "counters", 5, 1 << DRA_TOP_NODES | 1 << DRA_TOP_POOLS },
		{ "consumable", 6, 1 << DRA_TOP_NODES | 1 << DRA_TOP_POOLS },
		{ "claims", 7, 1 << DRA_TOP_CLASSES | 1 << DRA_TOP_NAMESPACES },
		{ "pending", 8,
		    1 << DRA_TOP_CLASSES | 1 << DRA_TOP_NAMESPACES },
	};
	struct keyed	*v;
	struct dra_buf	 b;
	size_t		 i;
	int		 c = -1;

	for (i = 0; i < sizeof cols / sizeof cols[0]; i++) {
		if ((cols[i].kinds & (1u << t->kind)) &&
		    strcasecmp(cols[i].word, column) == 0) {
			c = cols[i].col;
			break;
		}
	}
	if (c < 0) {
		dra_buf_init(&b, DRA_BUF_MAX_SMALL);
		for (i = 0; i < sizeof cols / sizeof cols[0]; i++) {
			if (cols[i].kinds & (1u << t->kind))
				view_join(&b, ", ", cols[i].word);
		}
		dra_err_set(err, KUBE_E_CONFIG, "unknown sort column \"%s\" "
		    "for %s: expected one of %s", column,
		    dra_top_kind_name(t->kind), dra_buf_str(&b));
		dra_buf_release(&b);
		return KUBE_E_CONFIG;
	}
	if (t->nrows < 2)
		return KUBE_OK;
	if (c == 0) {
		qsort(t->rows, t->nrows, sizeof *t->rows, cmp_row);
		return KUBE_OK;
	}
	v = xreallocarray(NULL, t->nrows, sizeof *v);
	for (i = 0; i < t->nrows; i++) {
		v[i].r = t->rows[i];
		v[i].k = sort_key(&t->rows[i], c);
	}
	qsort(v, t->nrows, sizeof *v, cmp_keyed);
	for (i = 0; i < t->nrows; i++)
		t->rows[i] = v[i].r;
	free(v);
	return KUBE_OK;
}

/*
 * The level and text of used / total (top.h dra_top_percent), in
 * exact integer arithmetic so the text and the level never disagree.
 */
enum dra_top_level
dra_top_percent(int64_t used, int64_t total, char *buf, size_t len)
{
	__int128		 u, t, p, q, sc, line;
	enum dra_top_level	 l;
	int			 d;

	if (total <= 0) {
		if (buf != NULL && len > 0)
			snprintf(buf, len, "-");
		return DRA_TOP_LEVEL_NONE;
	}
	u = used < 0 ? 0 : used;
	t = total;
	if (u * 100 < t * DRA_TOP_TARGET_PCT)
		l = DRA_TOP_LEVEL_LOW;
	else if (u * 100 <= t * DRA_TOP_CEILING_PCT)
		l = DRA_TOP_LEVEL_HIGH;
	else
		l = DRA_TOP_LEVEL_OVER;
	if (buf == NULL || len == 0)
		return l;
	p = u * 100 / t;
	if ((p != DRA_TOP_TARGET_PCT && p != DRA_TOP_CEILING_PCT) ||
	    u * 100 == p * t) {
		snprintf(buf, len, "%lld%%", (long long)p);
		return l;
	}
	/*
	 * Above a line by less than 1%: the decimals that show it, rounded
	 * down, at most 6 ("95.1%", "80.02%"); closer than that, the last
	 * decimal rounded up ("95.000001%").
	 */
	line = p;
	sc = 1;
	q = 0;
	for (d = 1; d <= 6; d++) {
		sc *= 10;
		q = u * 100 * sc / t;
		if (q > line * sc)
			break;
	}
	if (d > 6) {
		d = 6;
		q = line * sc + 1;
	}
	snprintf(buf, len, "%lld.%0*lld%%", (long long)(q / sc), d,
	    (long long)(q % sc));
	return l;
}

enum dra_top_level
dra_top_ratio_percent(double x, char *buf, size_t len)
{
	if (x < 0 || isnan(x)) {
		if (buf != NULL && len > 0)
			snprintf(buf, len, "-");
		return DRA_TOP_LEVEL_NONE;
	}
	if (x > 1e9)
		x = 1e9;
	return dra_top_percent((int64_t)llround(x * TOP_RATIO_SCALE),
	    TOP_RATIO_SCALE, buf, len);
}

enum dra_top_level
dra_top_level(double used, double total)
{
	if (total <= 0)
		return DRA_TOP_LEVEL_NONE;
	if (used == floor(used) && total == floor(total) && used >= 0 &&
	    used < 9e15 && total < 9e15)
		return dra_top_percent((int64_t)used, (int64_t)total, NULL,
		    0);
	return dra_top_ratio_percent(used / total, NULL, 0);
}

/*
 * Bytes with a binary suffix in at most 3 significant digits, as df -h
 * prints them: one decimal below 100 ("49.2Gi", "2.5Ti"), none from
 * 100 ("478Gi", "1023Ki"); "512" below 1Ki.  Rounded to nearest.
 */
static void
fmt_bytes(int64_t v, char *buf, size_t len)
{
	static const char	*units[] = { "Ki", "Mi", "Gi", "Ti", "Pi",
				    "Ei" };
	double			 x = (double)v;
	int			 u = -1, n;

	if (v >= DRA_TOP_MEM_MAX) {
		snprintf(buf, len, ">8Ei");
		return;
	}
	if (v < 1024) {
		snprintf(buf, len, "%" PRId64, v);
		return;
	}
	while (x >= 1024 && u < 5) {
		x /= 1024;
		u++;
	}
	/* 1023.6Gi would print as 1024Gi: 1Ti instead. */
	if (x >= 1023.5 && u < 5) {
		x /= 1024;
		u++;
	}
	if (x >= 99.95)
		n = snprintf(buf, len, "%.0f", x);
	else {
		n = snprintf(buf, len, "%.1f", x);
		if (n >= 2 && (size_t)n < len &&
		    strcmp(buf + n - 2, ".0") == 0)
			n -= 2;
	}
	if (n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "%s", units[u]);
}

/* "7/10 (70%)"; its level. */
static enum dra_top_level
cell_count(struct view_rowb *rb, int64_t used, int64_t total)
{
	enum dra_top_level	l;
	char			p[32];

	if (total <= 0 && used == 0) {
		view_cell(rb, "-");
		return DRA_TOP_LEVEL_NONE;
	}
	if (total <= 0) {
		view_cellf(rb, "%" PRId64, used);
		return DRA_TOP_LEVEL_NONE;
	}
	l = dra_top_percent(used, total, p, sizeof p);
	view_cellf(rb, "%" PRId64 "/%" PRId64 " (%s)", used, total, p);
	return l;
}

/* "49.2/634Gi (7%)", "616Gi/2.5Ti (24%)"; its level. */
static enum dra_top_level
cell_memory(struct view_rowb *rb, int64_t used, int64_t total)
{
	enum dra_top_level	l;
	char			u[32], t[32], p[32];
	size_t			ul, tl;

	if (total <= 0 && used == 0) {
		view_cell(rb, "-");
		return DRA_TOP_LEVEL_NONE;
	}
	fmt_bytes(used, u, sizeof u);
	if (total <= 0) {
		view_cell(rb, u);
		return DRA_TOP_LEVEL_NONE;
	}
	fmt_bytes(total, t, sizeof t);
	/* One unit for both when they share it: "88.5/609Gi". */
	ul = strlen(u);
	tl = strlen(t);
	if (ul > 2 && tl > 2 && strcmp(u + ul - 2, t + tl - 2) == 0)
		u[ul - 2] = '\0';
	l = dra_top_percent(used, total, p, sizeof p);
	view_cellf(rb, "%s/%s (%s)", u, t, p);
	return l;
}

static void
amount_text(struct dra_buf *b, const struct dra_top_amount *a)
{
	char	u[64], t[64], p[32];

	dra_buf_addf(b, "%s %s/%s", a->name, view_qty(a->used, u, sizeof u),
	    view_qty(a->total, t, sizeof t));
	if (a->total > 0) {
		(void)dra_top_percent(a->used, a->total, p, sizeof p);
		dra_buf_addf(b, " (%s)", p);
	}
}

/*
 * The busiest amount and how many other names there are: "memory-slice-4
 * 1/8 (12%) +13"; "-" without any.
 */
static void
cell_amounts(struct view_rowb *rb, struct dra_buf *b,
    const struct dra_top_amount *v, size_t n)
{
	const struct dra_top_amount	*best;

	dra_buf_reset(b);
	if ((best = busiest(v, n)) != NULL) {
		amount_text(b, best);
		if (n > 1)
			dra_buf_addf(b, " +%zu", n - 1);
	}
	view_cell(rb, dra_buf_str(b));
}

/* "38%"; its level. */
static enum dra_top_level
compute_cell(struct view_rowb *rb, double c)
{
	enum dra_top_level	l;
	char			p[32];

	l = dra_top_ratio_percent(c, p, sizeof p);
	view_cell(rb, p);
	return l;
}

static void
gpus_cell(struct view_rowb *rb, const struct dra_top_row *r)
{
	if (r->gpus == 0)
		view_cell(rb, "-");
	else
		view_cellf(rb, "%" PRId64 "/%" PRId64, r->gpus_used, r->gpus);
}

static unsigned char
amount_level(const struct dra_top_amount *v, size_t n)
{
	const struct dra_top_amount	*a = busiest(v, n);

	return a == NULL ? DRA_TOP_LEVEL_NONE :
	    dra_top_percent(a->used, a->total, NULL, 0);
}

/* One table row of r, and its levels in lv (ncolumns long). */
static void
table_row(const struct dra_top *t, struct dra_table *tb,
    const struct dra_top_row *r, int wide, struct dra_buf *b,
    unsigned char *lv)
{
	struct view_rowb	rb;
	int			share = t->kind == DRA_TOP_NAMESPACES &&
				    r != &t->total;
	size_t			c = 0;

/* x is evaluated always: it writes the cell. */
#define LV(x)	do {						\
		unsigned char l_ = (unsigned char)(x);		\
		lv[c++] = share ? DRA_TOP_LEVEL_NONE : l_;	\
	} while (0)
	view_row(tb, &rb, r);
	switch (t->kind) {
	case DRA_TOP_POOLS:
		if (r == &t->total) {
			view_cell(&rb, "*");
			view_cell(&rb, "");
			if (wide)
				view_cell(&rb, "");
		} else {
			view_cell(&rb, r->driver);
			view_cell(&rb, r->pool);
			if (wide)
				view_cell(&rb, r->node != NULL ? r->node :
				    TOP_NONE);
		}
		c += wide ? 3 : 2;
		break;
	default:
		view_cell(&rb, r->name);
		c++;
		break;
	}
	if (t->kind == DRA_TOP_NAMESPACES) {
		view_cellf(&rb, "%" PRId64, r->claims);
		view_cellf(&rb, "%" PRId64, r->pending);
		c += 2;
	}
	LV(cell_count(&rb, r->in_use, r->devices - r->unusable));
	LV(cell_memory(&rb, r->mem_used, r->mem_total));
	if (t->kind == DRA_TOP_CLASSES) {
		view_cellf(&rb, "%" PRId64, r->claims);
		view_cellf(&rb, "%" PRId64, r->pending);
		c += 2;
	} else {
		gpus_cell(&rb, r);
		LV(DRA_TOP_LEVEL_NONE);
		LV(compute_cell(&rb, r->compute));
	}
	if (t->kind == DRA_TOP_NAMESPACES || !wide)
		return;
	cell_amounts(&rb, b, r->counters, r->ncounters);
	LV(amount_level(r->counters, r->ncounters));
	cell_amounts(&rb, b, r->consumable, r->nconsumable);
	LV(amount_level(r->consumable, r->nconsumable));
	view_cellf(&rb, "%" PRId64, r->allocated);
	view_cellf(&rb, "%" PRId64, r->blocked);
	view_cellf(&rb, "%" PRId64, r->tainted);
	view_cellf(&rb, "%" PRId64, r->unusable);
	view_cellf(&rb, "%" PRId64, r->free);
#undef LV
}

struct dra_table *
dra_top_table(const struct dra_top *t, int wide, unsigned char **levels)
{
	static const enum dra_kind kinds[] = { DRA_KIND_NODE, DRA_KIND_CLASS,
	    DRA_KIND_NODE, DRA_KIND_POOL };
	static const char	*states[] = { "ALLOCATED", "BLOCKED",
				    "TAINTED", "UNUSABLE", "FREE" };
	struct dra_table	*tb;
	struct dra_buf		 b;
	unsigned char		*lv;
	size_t			 i, nc;

	tb = view_table_new(kinds[t->kind]);
	switch (t->kind) {
	case DRA_TOP_POOLS:
		view_col(tb, "DRIVER", 0);
		view_col(tb, "POOL", 0);
		if (wide)
			view_col(tb, "NODE", DRA_COL_WIDE);
		break;
	case DRA_TOP_CLASSES:
		view_col(tb, "CLASS", 0);
		break;
	case DRA_TOP_NAMESPACES:
		view_col(tb, "NAMESPACE", 0);
		view_col(tb, "CLAIMS", DRA_COL_RIGHT);
		view_col(tb, "PENDING", DRA_COL_RIGHT);
		break;
	case DRA_TOP_NODES:
	default:
		view_col(tb, "NODE", 0);
		break;
	}
	view_col(tb, "DEVICES", 0);
	view_col(tb, "GPU-MEMORY", 0);
	if (t->kind == DRA_TOP_CLASSES) {
		view_col(tb, "CLAIMS", DRA_COL_RIGHT);
		view_col(tb, "PENDING", DRA_COL_RIGHT);
	} else {
		view_col(tb, "GPUS", 0);
		view_col(tb, "COMPUTE", DRA_COL_RIGHT);
	}
	if (t->kind != DRA_TOP_NAMESPACES && wide) {
		view_col(tb, "COUNTERS", DRA_COL_WIDE);
		view_col(tb, "CONSUMABLE", DRA_COL_WIDE);
		for (i = 0; i < sizeof states / sizeof states[0]; i++)
			view_col(tb, states[i], DRA_COL_WIDE | DRA_COL_RIGHT);
	}
	nc = tb->ncolumns;
	lv = xcalloc((t->nrows + 1) * nc + 1, 1);
	dra_buf_init(&b, DRA_BUF_MAX_PAGE);
	table_row(t, tb, &t->total, wide, &b, lv);
	for (i = 0; i < t->nrows; i++)
		table_row(t, tb, &t->rows[i], wide, &b, lv + (i + 1) * nc);
	dra_buf_release(&b);
	if (levels != NULL)
		*levels = lv;
	else
		free(lv);
	return tb;
}

static cJSON *
json_amounts(const struct dra_top_amount *v, size_t n)
{
	cJSON	*a, *o;
	char	 q[64];
	size_t	 i;

	a = cJSON_CreateArray();
	for (i = 0; i < n; i++) {
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", v[i].name);
		cJSON_AddStringToObject(o, "used",
		    view_qty(v[i].used, q, sizeof q));
		cJSON_AddStringToObject(o, "total",
		    view_qty(v[i].total, q, sizeof q));
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

/* o[name] = v, or null when not known. */
static void
json_known(cJSON *o, const char *name, int known, int64_t v)
{
	if (known)
		cJSON_AddNumberToObject(o, name, (double)v);
	else
		cJSON_AddNullToObject(o, name);
}

static cJSON *
json_row(const struct dra_top *t, const struct dra_top_row *r)
{
	cJSON	*o, *d;

	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "name", r->name);
	if (t->kind == DRA_TOP_POOLS && r != &t->total) {
		cJSON_AddStringToObject(o, "driver", r->driver);
		cJSON_AddStringToObject(o, "pool", r->pool);
		if (r->node != NULL)
			cJSON_AddStringToObject(o, "node", r->node);
		else
			cJSON_AddNullToObject(o, "node");
	}
	d = cJSON_AddObjectToObject(o, "devices");
	cJSON_AddNumberToObject(d, "inUse", (double)r->in_use);
	cJSON_AddNumberToObject(d, "allocated", (double)r->allocated);
	json_known(d, "total", !t->slices_unread, r->devices);
	json_known(d, "unusable", !t->slices_unread, r->unusable);
	if (t->kind != DRA_TOP_NAMESPACES) {
		cJSON_AddNumberToObject(d, "blocked", (double)r->blocked);
		cJSON_AddNumberToObject(d, "tainted", (double)r->tainted);
		cJSON_AddNumberToObject(d, "free", (double)r->free);
	}
	d = cJSON_AddObjectToObject(o, "gpuMemoryBytes");
	json_known(d, "allocated", !t->slices_unread, r->mem_used);
	json_known(d, "total", !t->slices_unread, r->mem_total);
	if (t->kind != DRA_TOP_CLASSES) {
		d = cJSON_AddObjectToObject(o, "gpus");
		json_known(d, "used", !t->slices_unread, r->gpus_used);
		json_known(d, "total", !t->slices_unread, r->gpus);
		if (r->compute >= 0 && !t->slices_unread)
			cJSON_AddNumberToObject(o, "compute",
			    floor(r->compute * 10000 + 0.5) / 10000);
		else
			cJSON_AddNullToObject(o, "compute");
	}
	if (t->kind != DRA_TOP_NAMESPACES) {
		cJSON_AddItemToObject(o, "counters",
		    json_amounts(r->counters, r->ncounters));
		cJSON_AddItemToObject(o, "consumableCapacity",
		    json_amounts(r->consumable, r->nconsumable));
	}
	if (t->kind == DRA_TOP_CLASSES || t->kind == DRA_TOP_NAMESPACES) {
		cJSON_AddNumberToObject(o, "claims", (double)r->claims);
		cJSON_AddNumberToObject(o, "pendingClaims",
		    (double)r->pending);
	}
	return o;
}

struct cJSON *
dra_top_json(const struct dra_top *t)
{
	cJSON	*o, *rows;
	size_t	 i;

	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "apiVersion", "dra.kubectl.io/v1alpha1");
	cJSON_AddStringToObject(o, "kind", "Top");
	cJSON_AddStringToObject(o, "of", dra_top_kind_name(t->kind));
	cJSON_AddItemToObject(o, "total", json_row(t, &t->total));
	rows = cJSON_AddArrayToObject(o, "rows");
	for (i = 0; i < t->nrows; i++)
		cJSON_AddItemToArray(rows, json_row(t, &t->rows[i]));
	return o;
}

void
dra_top_prom_escape(struct dra_buf *b, const char *value)
{
	const char	*p;

	for (p = value != NULL ? value : ""; *p != '\0'; p++) {
		if (*p == '\\')
			dra_buf_adds(b, "\\\\");
		else if (*p == '"')
			dra_buf_adds(b, "\\\"");
		else if (*p == '\n')
			dra_buf_adds(b, "\\n");
		else
			dra_buf_add(b, p, 1);
	}
}

static void
prom_num(struct dra_buf *b, int64_t v)
{
	dra_buf_addf(b, "%" PRId64, v);
}

/* Thousandths as a plain decimal: 1500 "1.5", 2000 "2", -500 "-0.5". */
static void
prom_milli(struct dra_buf *b, int64_t v)
{
	char		frac[8];
	uint64_t	u;
	int		n;

	u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	if (v < 0)
		dra_buf_adds(b, "-");
	dra_buf_addf(b, "%" PRIu64, u / 1000);
	if (u % 1000 == 0)
		return;
	n = snprintf(frac, sizeof frac, "%03u", (unsigned)(u % 1000));
	while (n > 0 && frac[n - 1] == '0')
		frac[--n] = '\0';
	dra_buf_addf(b, ".%s", frac);
}

/* A ratio with at most 4 decimals, trailing zeros cut: "0.125", "1". */
static void
prom_ratio(struct dra_buf *b, double v)
{
	char	buf[64];
	int	n;

	n = snprintf(buf, sizeof buf, "%.4f", v);
	while (n > 1 && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 1 && buf[n - 1] == '.')
		buf[--n] = '\0';
	dra_buf_adds(b, buf);
}

/*
 * A row's labels without braces: node="x" (the "<none>" row: node=""),
 * class, namespace, or driver, pool and node ("" without one), so
 * every sample of a family has the same label names.
 */
static void
prom_labels(struct dra_buf *b, const struct dra_top *t,
    const struct dra_top_row *r)
{
	switch (t->kind) {
	case DRA_TOP_POOLS:
		dra_buf_adds(b, "driver=\"");
		dra_top_prom_escape(b, r->driver);
		dra_buf_adds(b, "\",pool=\"");
		dra_top_prom_escape(b, r->pool);
		dra_buf_adds(b, "\",node=\"");
		dra_top_prom_escape(b, r->node);
		dra_buf_adds(b, "\"");
		return;
	case DRA_TOP_CLASSES:
		dra_buf_adds(b, "class=\"");
		break;
	case DRA_TOP_NAMESPACES:
		dra_buf_adds(b, "namespace=\"");
		break;
	case DRA_TOP_NODES:
	default:
		dra_buf_adds(b, "node=\"");
		if (strcmp(r->name, TOP_NONE) == 0) {
			dra_buf_adds(b, "\"");
			return;
		}
		break;
	}
	dra_top_prom_escape(b, r->name);
	dra_buf_adds(b, "\"");
}

/* "# HELP kubectl_dra_<kind>_<name> ...", "# TYPE ... gauge". */
static void
prom_family(struct dra_buf *b, const struct dra_top *t, const char *name,
    const char *help)
{
	const char	*k = prom_kind(t);

	dra_buf_addf(b, "# HELP kubectl_dra_%s_%s %s (kubectl dra top %s)."
	    "\n# TYPE kubectl_dra_%s_%s gauge\n", k, name, help,
	    dra_top_kind_name(t->kind), k, name);
}

/* One sample's head: kubectl_dra_<kind>_<name>{row labels[,extra]} */
static void
prom_head(struct dra_buf *b, const struct dra_top *t,
    const struct dra_top_row *r, const char *name, const char *extra)
{
	dra_buf_addf(b, "kubectl_dra_%s_%s{", prom_kind(t), name);
	prom_labels(b, t, r);
	if (extra != NULL)
		dra_buf_addf(b, ",%s", extra);
	dra_buf_adds(b, "} ");
}

/* The kind's word in family names: node, pool, class, namespace. */
static const char *
prom_kind(const struct dra_top *t)
{
	switch (t->kind) {
	case DRA_TOP_POOLS:
		return "pool";
	case DRA_TOP_CLASSES:
		return "class";
	case DRA_TOP_NAMESPACES:
		return "namespace";
	case DRA_TOP_NODES:
	default:
		return "node";
	}
}

/* A family of one integer sample per row (gpus: rows with GPUs only). */
static void
prom_rows(struct dra_buf *b, const struct dra_top *t, const char *name,
    const char *help, const char *extra, int gpus,
    int64_t (*value)(const struct dra_top_row *))
{
	size_t	i;

	/* Figures that come from the slices: unknown without them. */
	if (t->slices_unread)
		return;
	prom_family(b, t, name, help);
	for (i = 0; i < t->nrows; i++) {
		if (gpus && t->rows[i].gpus == 0)
			continue;
		prom_head(b, t, &t->rows[i], name, extra);
		prom_num(b, value(&t->rows[i]));
		dra_buf_adds(b, "\n");
	}
}

static int64_t
pv_devices(const struct dra_top_row *r)
{
	return r->devices;
}

static int64_t
pv_mem_used(const struct dra_top_row *r)
{
	return r->mem_used;
}

static int64_t
pv_mem_total(const struct dra_top_row *r)
{
	return r->mem_total;
}

static int64_t
pv_gpus_used(const struct dra_top_row *r)
{
	return r->gpus_used;
}

static int64_t
pv_gpus(const struct dra_top_row *r)
{
	return r->gpus;
}

/*
 * Per name amounts of every row (counters or consumable capacity):
 * name{row, label="name", state="consumed"} and name_total{row, label}.
 */
static void
prom_amounts(struct dra_buf *b, const struct dra_top *t, const char *name,
    const char *label, const char *help, const char *help_total, int cons)
{
	const struct dra_top_row	*r;
	const struct dra_top_amount	*v;
	char				 fam[64];
	size_t				 i, j, n, k;

	for (k = 0; k < 2; k++) {
		snprintf(fam, sizeof fam, "%s%s", name, k == 0 ? "" :
		    "_total");
		prom_family(b, t, fam, k == 0 ? help : help_total);
		for (i = 0; i < t->nrows; i++) {
			r = &t->rows[i];
			v = cons ? r->consumable : r->counters;
			n = cons ? r->nconsumable : r->ncounters;
			for (j = 0; j < n; j++) {
				dra_buf_addf(b, "kubectl_dra_%s_%s%s{",
				    prom_kind(t), name, k == 0 ? "" :
				    "_total");
				prom_labels(b, t, r);
				dra_buf_addf(b, ",%s=\"", label);
				dra_top_prom_escape(b, v[j].name);
				dra_buf_adds(b, k == 0 ?
				    "\",state=\"consumed\"} " : "\"} ");
				prom_milli(b, k == 0 ? v[j].used : v[j].total);
				dra_buf_adds(b, "\n");
			}
		}
	}
}

/* Pools: every counter of every counter set. */
static void
prom_sets(struct dra_buf *b, const struct dra_top *t)
{
	const struct dra_top_counter	*c;
	size_t				 i, j;

	for (j = 0; j < 2; j++) {
		if (j == 0)
			prom_family(b, t, "counter_set_counter", "Shared "
			    "counter consumed by allocated devices, per "
			    "counter set, in the counter's unit, memory "
			    "included");
		else
			prom_family(b, t, "counter_set_counter_total",
			    "Shared counter published, per counter set, in "
			    "the counter's unit, memory included");
		for (i = 0; i < t->ncounters; i++) {
			c = &t->counters[i];
			dra_buf_adds(b, j == 0 ?
			    "kubectl_dra_pool_counter_set_counter{driver=\"" :
			    "kubectl_dra_pool_counter_set_counter_total{"
			    "driver=\"");
			dra_top_prom_escape(b, c->driver);
			dra_buf_adds(b, "\",pool=\"");
			dra_top_prom_escape(b, c->pool);
			dra_buf_adds(b, "\",node=\"");
			dra_top_prom_escape(b, c->node);
			dra_buf_adds(b, "\",counter_set=\"");
			dra_top_prom_escape(b, c->set);
			dra_buf_adds(b, "\",counter=\"");
			dra_top_prom_escape(b, c->counter);
			dra_buf_adds(b, j == 0 ? "\",state=\"consumed\"} " :
			    "\"} ");
			prom_milli(b, j == 0 ? c->used : c->total);
			dra_buf_adds(b, "\n");
		}
	}
}

char *
dra_top_prometheus(const struct dra_top *t)
{
	static const char	*states[] = { "allocated", "blocked",
				    "tainted", "unusable", "free" };
	const struct dra_top_row *r;
	struct dra_buf		 b;
	char			 st[64];
	int64_t			 v;
	size_t			 i, j;
	int			 ns = t->kind == DRA_TOP_NAMESPACES;

	dra_buf_init(&b, DRA_BUF_MAX_FILE);
	prom_family(&b, t, "devices", ns ? "DRA devices held by the "
	    "namespace's claims (state allocated; a device once)" :
	    "DRA devices by state, each in one: unusable (pool incomplete "
	    "or invalid), else allocated (held without adminAccess), "
	    "tainted, blocked (counters used up by allocated devices) or "
	    "free; in use is allocated + blocked");
	for (i = 0; i < t->nrows; i++) {
		r = &t->rows[i];
		for (j = 0; j < (ns ? 1u : 5u); j++) {
			switch (j) {
			case 0: v = r->allocated; break;
			case 1: v = r->blocked; break;
			case 2: v = r->tainted; break;
			case 3: v = r->unusable; break;
			default: v = r->free; break;
			}
			snprintf(st, sizeof st, "state=\"%s\"", states[j]);
			prom_head(&b, t, r, "devices", st);
			prom_num(&b, v);
			dra_buf_adds(&b, "\n");
		}
	}
	prom_rows(&b, t, "devices_total", t->kind == DRA_TOP_CLASSES ?
	    "DRA devices every selector of the class matches" : ns ?
	    "DRA devices of the cluster" : "DRA devices published, the "
	    "newest generation of each pool", NULL, 0, pv_devices);
	prom_rows(&b, t, "gpu_memory_bytes", ns ? "GPU memory in bytes "
	    "held by the namespace's claims" : "GPU memory in bytes "
	    "consumed by allocated devices (a partitionable device through "
	    "its counter set's memory counter); unusable pools left out",
	    "state=\"allocated\"", 0, pv_mem_used);
	prom_rows(&b, t, "gpu_memory_bytes_total", "GPU memory in bytes; "
	    "unusable pools left out", NULL, 0, pv_mem_total);
	if (t->kind != DRA_TOP_CLASSES) {
		prom_rows(&b, t, "gpus", ns ? "GPUs holding a part of the "
		    "namespace's claims" : "GPUs with compute slices held",
		    "state=\"used\"", ns ? 0 : 1, pv_gpus_used);
		prom_rows(&b, t, "gpus_total", "GPUs of usable pools (whole "
		    "GPUs, static MIG parents, DynamicMIG counter sets)",
		    NULL, ns ? 0 : 1, pv_gpus);
	}
	if (t->kind != DRA_TOP_CLASSES && !t->slices_unread) {
		prom_family(&b, t, "gpu_compute_ratio", ns ? "The "
		    "namespace's share of the fleet's mean compute "
		    "utilization, 0 to 1" : "Mean compute utilization of "
		    "the GPUs (compute slices held / compute slices), 0 to 1");
		for (i = 0; i < t->nrows; i++) {
			if (t->rows[i].compute < 0)
				continue;
			prom_head(&b, t, &t->rows[i], "gpu_compute_ratio",
			    NULL);
			prom_ratio(&b, t->rows[i].compute);
			dra_buf_adds(&b, "\n");
		}
	}
	if (!ns) {
		prom_amounts(&b, t, "consumable_capacity", "capacity",
		    "Consumable capacity consumed on allowMultipleAllocations "
		    "devices, in the capacity's unit",
		    "Consumable capacity of allowMultipleAllocations devices, "
		    "in the capacity's unit", 1);
		if (t->kind == DRA_TOP_POOLS)
			prom_sets(&b, t);
		else
			prom_amounts(&b, t, "counter", "counter",
			    "Shared counters consumed by allocated devices, "
			    "summed per counter name over the counter sets, "
			    "memory left out, in the counter's unit",
			    "Shared counters published, summed per counter "
			    "name over the counter sets, memory left out, in "
			    "the counter's unit", 0);
	}
	if (t->kind == DRA_TOP_CLASSES || ns) {
		prom_family(&b, t, "claims", ns ? "ResourceClaims of the "
		    "namespace, allocated or pending (adminAccess ones "
		    "included)" : "ResourceClaims allocated with a request of "
		    "the class, or pending that ask for it (adminAccess ones "
		    "included)");
		for (i = 0; i < t->nrows; i++) {
			prom_head(&b, t, &t->rows[i], "claims",
			    "state=\"allocated\"");
			prom_num(&b, t->rows[i].claims);
			dra_buf_adds(&b, "\n");
			prom_head(&b, t, &t->rows[i], "claims",
			    "state=\"pending\"");
			prom_num(&b, t->rows[i].pending);
			dra_buf_adds(&b, "\n");
		}
	}
	return dra_buf_take(&b);
}

void
dra_top_free(struct dra_top *t)
{
	size_t	i;

	if (t == NULL)
		return;
	for (i = 0; i < t->nrows; i++) {
		free(t->rows[i].counters);
		free(t->rows[i].consumable);
	}
	free(t->total.counters);
	free(t->total.consumable);
	free(t->rows);
	free(t->counters);
	free(t->warnings);
	dra_arena_release(&t->arena);
	free(t);
}
