/*
 * join.c: kube_snapshot_finish(), the joins between decoded objects.
 *
 * Pools follow the structured allocator's GatherPools (Kubernetes
 * 1.37, k8s.io/dynamic-resource-allocation structured/internal,
 * DRA-REFERENCE.md section 6.1): only the newest generation of a
 * (driver, pool) counts, the pool is complete when resourceSliceCount
 * slices of it are present, and repeated device or counter-set names
 * or a reference to a counter set or counter that does not exist make
 * it invalid.  Counter use mirrors the allocator's counter check:
 * available = the counter set's values minus what every allocated
 * device of the pool consumes (devices on other nodes included);
 * admin-access results do not mark a device in use, and a shareable
 * device counts once however many claims share it.
 *
 * Lookups are uthash tables keyed by the joined names.
 */
#include "model.h"
#include "model-int.h"

#include <sys/types.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "buf.h"
#include "xmalloc.h"

struct ix_entry {
	const char	*key;	/* parts joined by KEY_SEP */
	size_t		 len;
	void		*ptr;
	UT_hash_handle	 hh;
};

struct kube_index {
	struct ix_entry	*devices;	/* driver, pool, device */
	struct ix_entry	*pools;		/* driver, pool */
	struct ix_entry	*claims;	/* namespace, name */
	struct ix_entry	*pods;		/* namespace, name */
	struct ix_entry	*nodes;		/* name */
	struct ix_entry	*classes;	/* name */
	struct ix_entry	*templates;	/* namespace, name */
	struct dra_arena arena;
};

#define KEY_SEP	'\x1f'
#define KEY_MAX	1024

static size_t
make_key(char *buf, const char *a, const char *b, const char *c)
{
	size_t		 n = 0, len, i;
	const char	*parts[3] = { a, b, c };

	for (i = 0; i < 3 && parts[i] != NULL; i++) {
		len = strlen(parts[i]);
		if (n + len + 1 >= KEY_MAX)
			len = KEY_MAX - n - 2;
		if (i > 0)
			buf[n++] = KEY_SEP;
		memcpy(buf + n, parts[i], len);
		n += len;
	}
	buf[n] = '\0';
	return n;
}

static void *
ix_find(struct ix_entry *table, const char *a, const char *b, const char *c)
{
	struct ix_entry	*e;
	char		 key[KEY_MAX];
	size_t		 len;

	if (a == NULL)
		return NULL;
	len = make_key(key, a, b, c);
	HASH_FIND(hh, table, key, len, e);
	return e != NULL ? e->ptr : NULL;
}

/* Add ptr under the key unless present; returns the existing pointer. */
static void *
ix_add(struct kube_index *ix, struct ix_entry **table, const char *a,
    const char *b, const char *c, void *ptr)
{
	struct ix_entry	*e;
	char		 key[KEY_MAX];
	size_t		 len;

	len = make_key(key, a, b, c);
	HASH_FIND(hh, *table, key, len, e);
	if (e != NULL)
		return e->ptr;
	e = dra_arena_alloc(&ix->arena, sizeof *e);
	e->key = dra_arena_strndup(&ix->arena, key, len);
	e->len = len;
	e->ptr = ptr;
	HASH_ADD_KEYPTR(hh, *table, e->key, e->len, e);
	return NULL;
}

void
kube_index_free(struct kube_index *ix)
{
	if (ix == NULL)
		return;
	HASH_CLEAR(hh, ix->devices);
	HASH_CLEAR(hh, ix->pools);
	HASH_CLEAR(hh, ix->claims);
	HASH_CLEAR(hh, ix->pods);
	HASH_CLEAR(hh, ix->nodes);
	HASH_CLEAR(hh, ix->classes);
	HASH_CLEAR(hh, ix->templates);
	dra_arena_release(&ix->arena);
	free(ix);
}

static int
cmp_str(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

static int
cmp_meta(const struct kube_meta *a, const struct kube_meta *b)
{
	int	c;

	if ((c = cmp_str(a->namespace, b->namespace)) != 0)
		return c;
	return cmp_str(a->name, b->name);
}

/* Every kind starts with its struct kube_meta. */
static int
cmp_obj(const void *a, const void *b)
{
	return cmp_meta(*(const struct kube_meta *const *)a,
	    *(const struct kube_meta *const *)b);
}

static int
cmp_pool(const void *a, const void *b)
{
	const struct kube_pool	*pa = *(const struct kube_pool *const *)a;
	const struct kube_pool	*pb = *(const struct kube_pool *const *)b;
	int			 c;

	if ((c = strcmp(pa->driver, pb->driver)) != 0)
		return c;
	return strcmp(pa->name, pb->name);
}

#define SORT(vec) do {							\
	if ((vec).n > 1)						\
		qsort((vec).v, (vec).n, sizeof *(vec).v, cmp_obj);	\
} while (0)

static void	pool_invalid(struct kube_snapshot *, struct kube_pool *,
		    const char *, ...) __attribute__((format(printf, 3, 4)));

static void
pool_invalid(struct kube_snapshot *s, struct kube_pool *p, const char *fmt,
    ...)
{
	char	msg[512];
	va_list	ap;

	if (p->invalid != NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	p->invalid = dra_arena_strdup(&s->arena, msg);
	snprintf(msg, sizeof msg, "pool %s/%s", p->driver, p->name);
	kube_snapshot_warn(s, msg, "invalid pool: %s (the scheduler skips "
	    "it)", p->invalid);
}

static void
gather_pools(struct kube_snapshot *s, struct kube_index *ix)
{
	struct kube_slice	*sl;
	struct kube_pool	*p;
	size_t			 i;

	for (i = 0; i < s->slices.n; i++) {
		sl = s->slices.v[i];
		if (sl->rejected != NULL || sl->driver == NULL ||
		    sl->pool_name == NULL)
			continue;
		p = ix_find(ix->pools, sl->driver, sl->pool_name, NULL);
		if (p == NULL) {
			p = dra_arena_alloc(&s->arena, sizeof *p);
			p->driver = sl->driver;
			p->name = sl->pool_name;
			p->generation = sl->generation;
			p->node_name = sl->node_name;
			ix_add(ix, &ix->pools, p->driver, p->name, NULL, p);
			KUBE_VEC_PUSH(&s->pools, p);
		}
		if (sl->generation > p->generation)
			p->generation = sl->generation;
	}
	for (i = 0; i < s->slices.n; i++) {
		sl = s->slices.v[i];
		if (sl->rejected != NULL || sl->driver == NULL ||
		    sl->pool_name == NULL)
			continue;
		p = ix_find(ix->pools, sl->driver, sl->pool_name, NULL);
		if (sl->generation < p->generation) {
			sl->stale = 1;
			p->nstale++;
			continue;
		}
		p->slices = xreallocarray(p->slices, p->nslices + 1,
		    sizeof *p->slices);
		p->slices[p->nslices++] = sl;
		p->slice_count = sl->slice_count;
		if (cmp_str(p->node_name, sl->node_name) != 0)
			p->node_name = NULL;
	}
	if (s->pools.n > 1)
		qsort(s->pools.v, s->pools.n, sizeof *s->pools.v, cmp_pool);
	for (i = 0; i < s->pools.n; i++) {
		p = s->pools.v[i];
		p->complete = (int64_t)p->nslices == p->slice_count;
		/* Copy the slice list into the arena: one owner. */
		if (p->nslices > 0) {
			struct kube_slice **v = dra_arena_calloc(&s->arena,
			    p->nslices, sizeof *v);

			memcpy(v, p->slices, p->nslices * sizeof *v);
			free(p->slices);
			p->slices = v;
		}
	}
}

static struct kube_counter_set *
pool_counter_set(struct kube_pool *p, const char *name)
{
	size_t	i, j;

	for (i = 0; i < p->nslices; i++) {
		for (j = 0; j < p->slices[i]->ncounter_sets; j++) {
			if (strcmp(p->slices[i]->counter_sets[j].name,
			    name) == 0)
				return &p->slices[i]->counter_sets[j];
		}
	}
	return NULL;
}

static ssize_t
counter_index(const struct kube_counter_set *cs, const char *name)
{
	size_t	i;

	for (i = 0; i < cs->ncounters; i++)
		if (strcmp(cs->counters[i].name, name) == 0)
			return (ssize_t)i;
	return -1;
}

/* Index the devices of each pool and check the pool's validity. */
static void
index_devices(struct kube_snapshot *s, struct kube_index *ix)
{
	struct kube_pool	*p;
	struct kube_slice	*sl;
	struct kube_device	*d;
	struct kube_counter_set	*cs;
	size_t			 i, j, k, m, n, c;

	s->ndevices = 0;
	for (i = 0; i < s->pools.n; i++) {
		p = s->pools.v[i];
		/* Counter-set names are unique within the pool (1.35+). */
		for (j = 0; j < p->nslices; j++) {
			sl = p->slices[j];
			for (k = 0; k < sl->ncounter_sets; k++) {
				cs = &sl->counter_sets[k];
				if (pool_counter_set(p, cs->name) != cs)
					pool_invalid(s, p, "counter set %s "
					    "is defined more than once",
					    cs->name);
				cs->consumed = dra_arena_calloc(&s->arena,
				    cs->ncounters ? cs->ncounters : 1,
				    sizeof *cs->consumed);
			}
		}
		for (j = 0; j < p->nslices; j++) {
			sl = p->slices[j];
			for (k = 0; k < sl->ndevices; k++) {
				d = &sl->devices[k];
				d->pool = p;
				if (ix_add(ix, &ix->devices, p->driver, p->name,
				    d->name, d) != NULL) {
					pool_invalid(s, p, "device name %s "
					    "is used more than once", d->name);
					continue;
				}
				p->ndevices++;
				s->ndevices++;
				for (m = 0; m < d->nconsumes; m++) {
					cs = pool_counter_set(p,
					    d->consumes[m].counter_set);
					d->consumes[m].set = cs;
					/*
					 * An incomplete pool may publish the
					 * set in a slice not written yet.
					 */
					if (cs == NULL && !p->complete)
						continue;
					if (cs == NULL) {
						pool_invalid(s, p, "device %s "
						    "consumes counter set %s, "
						    "which does not exist",
						    d->name,
						    d->consumes[m].counter_set);
						continue;
					}
					n = d->consumes[m].ncounters;
					for (c = 0; c < n; c++) {
						if (counter_index(cs,
						    d->consumes[m].counters[c].
						    name) < 0)
							pool_invalid(s, p,
							    "device %s consumes "
							    "counter %s, which "
							    "its set lacks",
							    d->name, d->consumes[m].
							    counters[c].name);
					}
				}
			}
		}
		if (!p->complete) {
			char obj[512];

			snprintf(obj, sizeof obj, "pool %s/%s", p->driver,
			    p->name);
			kube_snapshot_warn(s, obj, "incomplete pool: %zu of "
			    "%lld slices at generation %lld (the scheduler "
			    "ignores it until all are published)", p->nslices,
			    (long long)p->slice_count,
			    (long long)p->generation);
		}
	}
}

static int
taint_rule_matches(const struct kube_taint_rule *r,
    const struct kube_device *d)
{
	if (!r->has_selector)
		return 0;	/* an absent selector matches none */
	if (r->driver != NULL && strcmp(r->driver, d->slice->driver) != 0)
		return 0;
	if (r->pool != NULL && strcmp(r->pool, d->slice->pool_name) != 0)
		return 0;
	if (r->device != NULL && strcmp(r->device, d->name) != 0)
		return 0;
	return 1;
}

static void
apply_taint_rules(struct kube_snapshot *s)
{
	struct kube_taint_rule	*r;
	struct kube_slice	*sl;
	struct kube_device	*d;
	struct kube_taint	*t;
	size_t			 i, j, m;

	/*
	 * Every slice, stale ones too, as the scheduler's slice tracker
	 * patches them (resourceslice/tracker applyPatches, Kubernetes
	 * 1.37).
	 */
	for (i = 0; i < s->taint_rules.n; i++) {
		r = s->taint_rules.v[i];
		for (j = 0; j < s->slices.n; j++) {
			sl = s->slices.v[j];
			if (sl->rejected != NULL || sl->driver == NULL ||
			    sl->pool_name == NULL)
				continue;
			for (m = 0; m < sl->ndevices; m++) {
				d = &sl->devices[m];
				if (!taint_rule_matches(r, d))
					continue;
				t = dra_arena_calloc(&s->arena, d->ntaints + 1,
				    sizeof *t);
				if (d->ntaints > 0)
					memcpy(t, d->taints,
					    d->ntaints * sizeof *t);
				t[d->ntaints++] = r->taint;
				d->taints = t;
			}
		}
	}
}

static void
join_claims(struct kube_snapshot *s, struct kube_index *ix)
{
	struct kube_claim	*c;
	struct kube_result	*r;
	struct kube_device	*d;
	char			 obj[512];
	size_t			 i, j;

	for (i = 0; i < s->claims.n; i++) {
		c = s->claims.v[i];
		ix_add(ix, &ix->claims, c->meta.namespace, c->meta.name, NULL,
		    c);
		for (j = 0; j < c->nresults; j++) {
			r = &c->results[j];
			d = ix_find(ix->devices, r->driver, r->pool, r->device);
			r->dev = d;
			if (d == NULL && s->slices_unread)
				continue;
			if (d == NULL) {
				snprintf(obj, sizeof obj, "resourceclaim %s/%s",
				    c->meta.namespace, c->meta.name);
				kube_snapshot_warn(s, obj, "allocated device "
				    "%s/%s/%s is not published by any current "
				    "ResourceSlice", r->driver, r->pool,
				    r->device);
				continue;
			}
			d->nallocs++;
		}
	}
	/* Second pass: fill the per-device allocation lists. */
	for (i = 0; i < s->claims.n; i++) {
		c = s->claims.v[i];
		for (j = 0; j < c->nresults; j++) {
			d = c->results[j].dev;
			if (d == NULL)
				continue;
			if (d->allocs == NULL) {
				d->allocs = dra_arena_calloc(&s->arena,
				    d->nallocs, sizeof *d->allocs);
				d->nallocs = 0;
			}
			d->allocs[d->nallocs].claim = c;
			d->allocs[d->nallocs].result = j;
			d->nallocs++;
		}
	}
}

/*
 * The consumable capacity the allocations of shareable device d
 * consume, summed per capacity (saturating: kube_quantity_add).
 */
static void
capacity_use(struct kube_snapshot *s, struct kube_device *d)
{
	const struct kube_result	*r;
	const struct kube_capacity	*cap;
	size_t				 a, q, c;

	d->capacity_used = dra_arena_calloc(&s->arena, d->ncapacity,
	    sizeof *d->capacity_used);
	for (a = 0; a < d->nallocs; a++) {
		r = &d->allocs[a].claim->results[d->allocs[a].result];
		for (q = 0; q < r->nconsumed; q++) {
			for (c = 0; c < d->ncapacity; c++) {
				cap = &d->capacity[c];
				if (strcmp(cap->id, r->consumed[q].id) != 0 ||
				    strcmp(cap->domain,
				    r->consumed[q].domain) != 0)
					continue;
				d->capacity_used[c] = kube_quantity_add(
				    d->capacity_used[c],
				    r->consumed[q].value.milli);
			}
		}
	}
}

/* Counter use, consumable capacity and the state of every device. */
static void
device_states(struct kube_snapshot *s)
{
	struct kube_pool		*p;
	struct kube_device		*d;
	struct kube_device_counters	*dc;
	struct kube_result		*r;
	size_t				 i, j, k, a, m, c;
	ssize_t				 ci;
	int				 held, admin;

	/* Pass 1: allocation flags, counters and capacity consumed. */
	for (i = 0; i < s->pools.n; i++) {
		p = s->pools.v[i];
		for (j = 0; j < p->nslices; j++) {
			for (k = 0; k < p->slices[j]->ndevices; k++) {
				d = &p->slices[j]->devices[k];
				if (d->pool == NULL)
					continue;
				held = admin = 0;
				for (a = 0; a < d->nallocs; a++) {
					r = &d->allocs[a].claim->results[
					    d->allocs[a].result];
					if (r->admin_access)
						admin = 1;
					else
						held = 1;
				}
				d->state = 0;
				if (held)
					d->state |= KUBE_DEV_ALLOCATED;
				else if (admin)
					d->state |= KUBE_DEV_ADMIN;
				if (d->allow_multiple)
					d->state |= KUBE_DEV_SHARED;
				if (!p->complete || p->invalid != NULL)
					d->state |= KUBE_DEV_UNUSABLE;
				for (m = 0; m < d->ntaints; m++) {
					if (d->taints[m].effect ==
					    KUBE_TAINT_NO_SCHEDULE ||
					    d->taints[m].effect ==
					    KUBE_TAINT_NO_EXECUTE)
						d->state |= KUBE_DEV_TAINTED;
				}
				if (d->ncapacity > 0 && d->allow_multiple)
					capacity_use(s, d);
				if (!held)
					continue;
				for (m = 0; m < d->nconsumes; m++) {
					dc = &d->consumes[m];
					if (dc->set == NULL)
						continue;
					for (c = 0; c < dc->ncounters; c++) {
						ci = counter_index(dc->set,
						    dc->counters[c].name);
						if (ci >= 0)
							dc->set->consumed[ci] =
							    kube_quantity_add(
							    dc->set->consumed[
							    ci], dc->counters[
							    c].value.milli);
					}
				}
				p->nallocated++;
			}
		}
	}
	/* Pass 2: free devices whose counters are already used up. */
	for (i = 0; i < s->pools.n; i++) {
		p = s->pools.v[i];
		for (j = 0; j < p->nslices; j++) {
			for (k = 0; k < p->slices[j]->ndevices; k++) {
				d = &p->slices[j]->devices[k];
				if (d->pool == NULL)
					continue;
				if (d->state & KUBE_DEV_TAINTED)
					p->ntainted++;
				if (d->state & KUBE_DEV_ALLOCATED)
					continue;
				for (m = 0; m < d->nconsumes &&
				    d->blocked_by == NULL; m++) {
					dc = &d->consumes[m];
					if (dc->set == NULL)
						continue;
					for (c = 0; c < dc->ncounters; c++) {
						ci = counter_index(dc->set,
						    dc->counters[c].name);
						if (ci < 0)
							continue;
						if (dc->set->counters[ci].value.
						    milli - dc->set->consumed[ci]
						    < dc->counters[c].value.
						    milli) {
							char why[512];

							snprintf(why,
							    sizeof why, "%s/%s",
							    dc->set->name,
							    dc->counters[c].name);
							d->blocked_by =
							    dra_arena_strdup(
							    &s->arena, why);
							break;
						}
					}
				}
				if (d->blocked_by != NULL) {
					d->state |= KUBE_DEV_BLOCKED;
					p->nblocked++;
				}
			}
		}
	}
}

static void
claim_add_pod(struct kube_claim *c, struct kube_pod *pod)
{
	size_t	i;

	for (i = 0; i < c->npods; i++)
		if (c->pods[i] == pod)
			return;
	c->pods = xreallocarray(c->pods, c->npods + 1, sizeof *c->pods);
	c->pods[c->npods++] = pod;
}

static void
join_pods(struct kube_snapshot *s, struct kube_index *ix)
{
	struct kube_pod		*pod;
	struct kube_pod_claim	*pc;
	struct kube_claim	*c;
	const char		*name;
	size_t			 i, j;

	for (i = 0; i < s->pods.n; i++) {
		pod = s->pods.v[i];
		ix_add(ix, &ix->pods, pod->meta.namespace, pod->meta.name, NULL,
		    pod);
		for (j = 0; j < pod->nclaims; j++) {
			pc = &pod->claims[j];
			name = pc->claim_name != NULL ? pc->claim_name :
			    pc->status_name;
			c = ix_find(ix->claims, pod->meta.namespace, name,
			    NULL);
			pc->claim = c;
			if (c == NULL)
				continue;
			claim_add_pod(c, pod);
			if (pc->template_name != NULL)
				c->template_name = pc->template_name;
		}
	}
	for (i = 0; i < s->claims.n; i++) {
		c = s->claims.v[i];
		for (j = 0; j < c->nreserved; j++) {
			if (cmp_str(c->reserved[j].resource, "pods") != 0)
				continue;
			pod = ix_find(ix->pods, c->meta.namespace,
			    c->reserved[j].name, NULL);
			if (pod != NULL)
				claim_add_pod(c, pod);
		}
		/* Move the pod list into the arena: one owner. */
		if (c->npods > 0) {
			struct kube_pod **v = dra_arena_calloc(&s->arena,
			    c->npods, sizeof *v);

			memcpy(v, c->pods, c->npods * sizeof *v);
			free(c->pods);
			c->pods = v;
		}
	}
}

static void
join_nodes(struct kube_snapshot *s, struct kube_index *ix)
{
	struct kube_node	*n;
	struct kube_pool	*p;
	struct kube_device	*d;
	size_t			 i, j, k;

	for (i = 0; i < s->nodes.n; i++) {
		n = s->nodes.v[i];
		n->ndevices = n->nallocated = 0;
		ix_add(ix, &ix->nodes, n->meta.name, NULL, NULL, n);
	}
	for (i = 0; i < s->classes.n; i++)
		ix_add(ix, &ix->classes, s->classes.v[i]->meta.name, NULL,
		    NULL, s->classes.v[i]);
	for (i = 0; i < s->templates.n; i++)
		ix_add(ix, &ix->templates, s->templates.v[i]->meta.namespace,
		    s->templates.v[i]->meta.name, NULL, s->templates.v[i]);
	for (i = 0; i < s->pools.n; i++) {
		p = s->pools.v[i];
		for (j = 0; j < p->nslices; j++) {
			for (k = 0; k < p->slices[j]->ndevices; k++) {
				d = &p->slices[j]->devices[k];
				if (d->pool == NULL)
					continue;
				n = ix_find(ix->nodes, kube_device_node(d),
				    NULL, NULL);
				if (n == NULL)
					continue;
				n->ndevices++;
				if (d->state & KUBE_DEV_ALLOCATED)
					n->nallocated++;
			}
		}
	}
}

void
kube_snapshot_finish(struct kube_snapshot *s)
{
	struct kube_index	*ix;

	if (s->finished)
		return;
	kube_index_free(s->index);
	ix = xcalloc(1, sizeof *ix);
	dra_arena_init(&ix->arena);
	s->index = ix;
	s->pools.n = 0;

	SORT(s->slices);
	SORT(s->claims);
	SORT(s->templates);
	SORT(s->classes);
	SORT(s->taint_rules);
	SORT(s->pods);
	SORT(s->nodes);
	SORT(s->namespaces);
	SORT(s->quotas);

	gather_pools(s, ix);
	index_devices(s, ix);
	apply_taint_rules(s);
	join_claims(s, ix);
	device_states(s);
	join_pods(s, ix);
	join_nodes(s, ix);
	s->finished = 1;
}

struct kube_device *
kube_snapshot_device(const struct kube_snapshot *s, const char *driver,
    const char *pool, const char *device)
{
	if (s->index == NULL)
		return NULL;
	return ix_find(s->index->devices, driver, pool, device);
}

struct kube_pool *
kube_snapshot_pool(const struct kube_snapshot *s, const char *driver,
    const char *pool)
{
	if (s->index == NULL)
		return NULL;
	return ix_find(s->index->pools, driver, pool, NULL);
}

struct kube_claim *
kube_snapshot_claim(const struct kube_snapshot *s, const char *namespace,
    const char *name)
{
	if (s->index == NULL)
		return NULL;
	return ix_find(s->index->claims, namespace, name, NULL);
}

struct kube_node *
kube_snapshot_node(const struct kube_snapshot *s, const char *name)
{
	if (s->index == NULL)
		return NULL;
	return ix_find(s->index->nodes, name, NULL, NULL);
}

struct kube_device_class *
kube_snapshot_class(const struct kube_snapshot *s, const char *name)
{
	if (s->index == NULL)
		return NULL;
	return ix_find(s->index->classes, name, NULL, NULL);
}

struct kube_claim_template *
kube_snapshot_template(const struct kube_snapshot *s, const char *namespace,
    const char *name)
{
	if (s->index == NULL)
		return NULL;
	return ix_find(s->index->templates, namespace, name, NULL);
}

struct kube_pod *
kube_snapshot_pod(const struct kube_snapshot *s, const char *namespace,
    const char *name)
{
	if (s->index == NULL)
		return NULL;
	return ix_find(s->index->pods, namespace, name, NULL);
}
