/*
 * alloc.c: the allocator object, the allocated state it reads from the
 * snapshot, and the per-device checks that do not depend on a search:
 * selectors (compiled once, verdicts cached), node selection,
 * consumable capacity, taints.
 *
 * Mirrors, Kubernetes 1.37 (k8s.io/dynamic-resource-allocation):
 * structured/internal/incubating/allocator_incubating.go (NewAllocator,
 * isSelectable, selectorsMatch, taintPreventsAllocation),
 * structured/internal/incubating/consumable_capacity.go (all of it),
 * structured/internal/allocatedstate.go (IsDeviceAllocated),
 * resourceclaim/devicetoleration.go (ToleratesTaint), cel/errors.go
 * (EnhanceRuntimeError), and kube-scheduler's allocateddevices.go
 * (foreachAllocatedDevice: which results count as allocated).
 */
#include "alloc-int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "xmalloc.h"

#define KEY_MAX		1024

char *
dra_device_key(char *buf, size_t len, const char *driver, const char *pool,
    const char *device)
{
	snprintf(buf, len, "%s%c%s%c%s", driver ? driver : "", DRA_KEY_SEP,
	    pool ? pool : "", DRA_KEY_SEP, device ? device : "");
	return buf;
}

struct dra_scratch_chunk {
	struct dra_scratch_chunk	*next;
	size_t				 size;
	size_t				 fill;
	max_align_t			 data[];
};

#define SCRATCH_CHUNK	(32 * 1024)

void *
dra_scratch_calloc(struct dra_scratch *s, size_t nmemb, size_t size)
{
	struct dra_scratch_chunk	*c = s->head;
	size_t				 want, csize;
	void				*p;

	if (nmemb != 0 && size > SIZE_MAX / nmemb)
		abort();
	want = nmemb * size;
	if (want == 0)
		want = 1;
	want = (want + sizeof(max_align_t) - 1) &
	    ~(sizeof(max_align_t) - 1);
	if (c == NULL || c->size - c->fill < want) {
		csize = want > SCRATCH_CHUNK / 4 ? want : SCRATCH_CHUNK;
		c = xmalloc(sizeof *c + csize);
		c->size = csize;
		c->fill = 0;
		if (csize == SCRATCH_CHUNK || s->head == NULL) {
			c->next = s->head;
			s->head = c;
		} else {
			/* A big one-off: keep filling the current chunk. */
			c->next = s->head->next;
			s->head->next = c;
		}
	}
	p = (char *)c->data + c->fill;
	c->fill += want;
	memset(p, 0, want);
	return p;
}

char *
dra_scratch_strndup(struct dra_scratch *s, const char *str, size_t n)
{
	char	*p;

	if (str == NULL)
		return NULL;
	p = dra_scratch_calloc(s, n + 1, 1);
	memcpy(p, str, n);
	return p;
}

char *
dra_scratch_strdup(struct dra_scratch *s, const char *str)
{
	return str == NULL ? NULL : dra_scratch_strndup(s, str, strlen(str));
}

void
dra_scratch_release(struct dra_scratch *s)
{
	struct dra_scratch_chunk	*c, *next;

	for (c = s->head; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	s->head = NULL;
}

static void
push_slice(struct kube_slice ***v, struct dra_apool ***aps, size_t *n,
    size_t *cap, struct kube_slice *sl, struct dra_apool *ap)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		*v = xreallocarray(*v, *cap, sizeof **v);
		if (aps != NULL)
			*aps = xreallocarray(*aps, *cap, sizeof **aps);
	}
	if (aps != NULL)
		(*aps)[*n] = ap;
	(*v)[(*n)++] = sl;
}

static struct dra_held *
held_get_or_add(struct dra_allocator *a, const char *driver,
    const char *pool, const char *device)
{
	struct dra_held	*h;
	char		 key[KEY_MAX];

	dra_device_key(key, sizeof key, driver, pool, device);
	HASH_FIND_STR(a->held, key, h);
	if (h == NULL) {
		h = dra_arena_alloc(&a->arena, sizeof *h);
		h->key = dra_arena_strdup(&a->arena, key);
		HASH_ADD_KEYPTR(hh, a->held, h->key, strlen(h->key), h);
	}
	return h;
}

const struct dra_held *
dra_held_get(const struct dra_allocator *a, const char *driver,
    const char *pool, const char *device)
{
	struct dra_held	*h;
	char		 key[KEY_MAX];

	dra_device_key(key, sizeof key, driver, pool, device);
	HASH_FIND_STR(a->held, key, h);
	return h;
}

/* The held state of d: by pointer, or by ID for a device of a stale slice. */
const struct dra_held *
dra_held_of(const struct dra_allocator *a, const struct kube_device *d)
{
	struct dra_held_dev	*e;

	if (d->pool != NULL) {
		/*
		 * No allocation result names d (kube_snapshot_finish) and
		 * nothing was held with dra_allocator_hold().
		 */
		if (d->nallocs == 0 && !a->holds)
			return NULL;
		HASH_FIND_PTR(a->held_dev, &d, e);
		return e != NULL ? e->h : NULL;
	}
	if (d->slice == NULL)
		return NULL;
	return dra_held_get(a, d->slice->driver, d->slice->pool_name,
	    d->name);
}

/* AllocatedDevices.Has(id): a dedicated, non-admin result names it. */
int
dra_held_in_use(const struct dra_held *h)
{
	return h != NULL && h->ndedicated > 0;
}

/* allocatedstate.go IsDeviceAllocated. */
int
dra_held_allocated(const struct dra_held *h)
{
	return h != NULL && (h->ndedicated > 0 || h->nshared > 0 ||
	    h->ncapres > 0);
}

/*
 * Add (sign 1) or remove (sign -1) one allocation result naming driver/
 * pool/device (dev: the published device, or NULL when nobody publishes
 * it), as foreachAllocatedDevice sorts results: with consumable
 * capacity, a shared result (a shareID) counts as a share and its
 * consumedCapacity is aggregated; anything else is dedicated.
 */
static void
held_result(struct dra_allocator *a, const char *driver, const char *pool,
    const char *device, const struct kube_device *dev, int shared,
    const struct kube_capacity_request *consumed, size_t nconsumed,
    int sign)
{
	struct dra_held	*h;
	size_t		 j, k;

	h = held_get_or_add(a, driver, pool, device);
	if (sign > 0 && dev != NULL) {
		struct dra_held_dev	*e;

		HASH_FIND_PTR(a->held_dev, &dev, e);
		if (e == NULL) {
			e = dra_arena_alloc(&a->arena, sizeof *e);
			e->dev = dev;
			e->h = h;
			HASH_ADD_PTR(a->held_dev, dev, e);
		}
	}
	if (!(a->features & DRA_FEATURE_CONSUMABLE_CAPACITY) || !shared) {
		h->ndedicated += sign;
		return;
	}
	h->nshared += sign;
	if (nconsumed == 0)
		return;
	h->ncapres += sign;
	for (j = 0; j < nconsumed; j++) {
		for (k = 0; k < h->ncap; k++) {
			if (strcmp(h->cap[k].domain, consumed[j].domain) == 0 &&
			    strcmp(h->cap[k].id, consumed[j].id) == 0)
				break;
		}
		if (k == h->ncap) {
			if (h->ncap == h->capcap) {
				h->capcap = h->capcap ? h->capcap * 2 : 4;
				h->cap = xreallocarray(h->cap, h->capcap,
				    sizeof *h->cap);
			}
			h->cap[k].domain = consumed[j].domain;
			h->cap[k].id = consumed[j].id;
			h->cap[k].milli = 0;
			h->ncap++;
		}
		h->cap[k].milli += sign * consumed[j].value.milli;
	}
}

/* One claim's results (admin access skipped), sign as held_result(). */
static void
held_claim(struct dra_allocator *a, const struct kube_claim *c, int sign)
{
	const struct kube_result	*r;
	size_t				 i;

	if (!c->allocated || c->rejected != NULL)
		return;
	for (i = 0; i < c->nresults; i++) {
		r = &c->results[i];
		if (r->admin_access)
			continue;
		held_result(a, r->driver, r->pool, r->device, r->dev,
		    r->share_id != NULL, r->consumed, r->nconsumed, sign);
	}
}

int
dra_allocator_new(const struct kube_snapshot *s,
    const struct dra_alloc_opts *opts, struct dra_allocator **out,
    struct dra_err *err)
{
	struct dra_allocator	*a;
	struct dra_apool	*ap;
	struct dra_node_slices	*ns;
	struct kube_slice	*sl;
	char			 key[KEY_MAX];
	size_t			 i;

	*out = NULL;
	if (s == NULL || !s->finished)
		return dra_err_set(err, KUBE_E_CONFIG, "allocator: the "
		    "snapshot is not finished");
	if (opts != NULL && (opts->features & ~(unsigned)DRA_FEATURES_1_37))
		return dra_err_set(err, KUBE_E_CONFIG, "allocator: unknown "
		    "feature bits 0x%x", opts->features &
		    ~(unsigned)DRA_FEATURES_1_37);
	a = xcalloc(1, sizeof *a);
	a->s = s;
	a->features = opts != NULL ? opts->features : DRA_FEATURES_1_37;
	a->max_steps = opts != NULL && opts->max_steps > 0 ?
	    opts->max_steps : DRA_ALLOC_MAX_STEPS;
	a->no_counting = opts != NULL ? opts->no_counting : 0;
	a->state_gen = 1;
	dra_arena_init(&a->arena);

	/* Slices: by node name or shared; every slice of each pool. */
	for (i = 0; i < s->slices.n; i++) {
		sl = s->slices.v[i];
		if (sl->rejected != NULL || sl->driver == NULL ||
		    sl->pool_name == NULL)
			continue;
		snprintf(key, sizeof key, "%s%c%s", sl->driver, DRA_KEY_SEP,
		    sl->pool_name);
		HASH_FIND_STR(a->apools, key, ap);
		if (ap == NULL) {
			ap = dra_arena_alloc(&a->arena, sizeof *ap);
			ap->key = dra_arena_strdup(&a->arena, key);
			ap->driver = sl->driver;
			ap->name = sl->pool_name;
			HASH_ADD_KEYPTR(hh, a->apools, ap->key,
			    strlen(ap->key), ap);
		}
		push_slice(&ap->slices, NULL, &ap->nslices, &ap->cap, sl,
		    NULL);
		if (ap->nslices == 1 || sl->generation > ap->maxgen) {
			ap->maxgen = sl->generation;
			ap->nmaxgen = 0;
		}
		if (sl->generation == ap->maxgen)
			ap->nmaxgen++;
		if (sl->node_name != NULL && *sl->node_name != '\0') {
			HASH_FIND_STR(a->on_node, sl->node_name, ns);
			if (ns == NULL) {
				ns = dra_arena_alloc(&a->arena, sizeof *ns);
				ns->node = sl->node_name;
				HASH_ADD_KEYPTR(hh, a->on_node, ns->node,
				    strlen(ns->node), ns);
			}
			push_slice(&ns->slices, &ns->aps, &ns->nslices,
			    &ns->cap, sl, ap);
		} else
			push_slice(&a->shared, &a->shared_aps, &a->nshared,
			    &a->capshared, sl, ap);
	}
	for (i = 0; i < s->claims.n; i++)
		held_claim(a, s->claims.v[i], 1);
	*out = a;
	return KUBE_OK;
}

void
dra_allocator_free(struct dra_allocator *a)
{
	struct dra_apool	*ap, *tap;
	struct dra_node_slices	*ns, *tns;
	struct dra_held		*h, *th;
	struct dra_held_dev	*hd, *thd;
	struct dra_prog		*p, *tp;
	struct dra_selslice	*ss, *tss;
	struct dra_released	*rl, *trl;
	struct dra_sellist	*sg, *tsg;
	struct dra_reqsig	*rs, *trs;
	size_t			 i;

	if (a == NULL)
		return;
	HASH_ITER(hh, a->apools, ap, tap) {
		HASH_DEL(a->apools, ap);
		free(ap->slices);
	}
	HASH_ITER(hh, a->on_node, ns, tns) {
		HASH_DEL(a->on_node, ns);
		free(ns->slices);
		free(ns->aps);
	}
	HASH_ITER(hh, a->held, h, th) {
		HASH_DEL(a->held, h);
		free(h->cap);
	}
	HASH_ITER(hh, a->held_dev, hd, thd)
		HASH_DEL(a->held_dev, hd);
	HASH_ITER(hh, a->progs, p, tp) {
		HASH_DEL(a->progs, p);
		dra_cel_free(p->prog);
	}
	HASH_ITER(hh, a->selslices, ss, tss) {
		HASH_DEL(a->selslices, ss);
		for (i = 0; ss->msg != NULL && i < ss->n; i++)
			free(ss->msg[i]);
		free(ss->msg);
		free(ss->v);
		free(ss);
	}
	HASH_ITER(hh, a->sellists, sg, tsg)
		HASH_DEL(a->sellists, sg);
	HASH_ITER(hh, a->reqsigs, rs, trs)
		HASH_DEL(a->reqsigs, rs);
	HASH_ITER(hh, a->released, rl, trl) {
		HASH_DEL(a->released, rl);
	}
	dra_gather_free(a->last);
	dra_scratch_release(&a->pool_mem);
	free(a->shared);
	free(a->shared_aps);
	free(a->holders);
	dra_arena_release(&a->arena);
	free(a);
}

void
dra_allocator_release(struct dra_allocator *a, const struct kube_claim *c)
{
	struct dra_released	*rl;

	if (a == NULL || c == NULL || !c->allocated)
		return;
	HASH_FIND_PTR(a->released, &c, rl);
	if (rl != NULL)
		return;
	rl = dra_arena_alloc(&a->arena, sizeof *rl);
	rl->claim = c;
	HASH_ADD_PTR(a->released, claim, rl);
	held_claim(a, c, -1);
	a->state_gen++;
}

/*
 * The picks of res as results the scheduler would write: admin access
 * skipped; a device that allows multiple allocations (with consumable
 * capacity on) is a share with the capacity the pick consumed.
 */
static void
held_picks(struct dra_allocator *a, const struct dra_alloc_result *res,
    int sign)
{
	const struct dra_alloc_pick	*p;
	const struct kube_device	*d;
	size_t				 i;

	if (a == NULL || res == NULL || res->status != DRA_ALLOC_OK)
		return;
	for (i = 0; i < res->npicks; i++) {
		p = &res->picks[i];
		d = p->device;
		if (p->admin_access || d == NULL || d->slice == NULL)
			continue;
		held_result(a, d->slice->driver, d->slice->pool_name, d->name,
		    d, d->allow_multiple, p->consumed, p->nconsumed, sign);
	}
	a->holds = 1;
	a->state_gen++;
}

void
dra_allocator_hold(struct dra_allocator *a,
    const struct dra_alloc_result *res)
{
	held_picks(a, res, 1);
}

void
dra_allocator_unhold(struct dra_allocator *a,
    const struct dra_alloc_result *res)
{
	held_picks(a, res, -1);
}

/* NodeMatches (pools_incubating.go). */
int
dra_node_matches(const char *node, const struct kube_node *n,
    const char *node_name, int all_nodes,
    const struct kube_node_selector *sel)
{
	if (node_name != NULL && *node_name != '\0')
		return node != NULL && strcmp(node, node_name) == 0;
	if (all_nodes)
		return 1;
	if (sel != NULL)
		return kube_node_selector_match(sel, node, n);
	return 0;
}

const struct kube_device_class *
dra_class(const struct dra_allocator *a, const char *name)
{
	if (name == NULL || *name == '\0')
		return NULL;
	return kube_snapshot_class(a->s, name);
}

static struct dra_prog *
prog_get(struct dra_allocator *a, const char *expr)
{
	struct dra_prog	*p;
	struct dra_err	 err;

	HASH_FIND_STR(a->progs, expr, p);
	if (p != NULL)
		return p;
	p = dra_arena_alloc(&a->arena, sizeof *p);
	p->expr = dra_arena_strdup(&a->arena, expr);
	dra_err_clear(&err);
	if (dra_cel_compile(expr, &p->prog, &err) != KUBE_OK) {
		p->prog = NULL;
		p->compile_err = dra_arena_strdup(&a->arena, err.msg);
	}
	HASH_ADD_KEYPTR(hh, a->progs, p->expr, strlen(p->expr), p);
	return p;
}

/* cel.EnhanceRuntimeError. */
static char *
enhance(const char *msg)
{
	if (strstr(msg, "no such key:") != NULL)
		return xasprintf("%s. consider using CEL optional chaining "
		    "(.? followed by orValue()) or guarding the check with "
		    "has() for optional fields", msg);
	return xstrdup(msg);
}

/*
 * One list of selectors; 1 all true, 0 one false, -1 other verdict.
 * *msg is set (owned) for an undecided verdict.
 */
static int
eval_list(struct dra_allocator *a, const struct kube_device *d,
    const char *const *sel, size_t nsel, int is_class,
    struct dra_selres *r, char **msg)
{
	struct dra_prog	*p;
	struct dra_err	 err;
	size_t		 i;
	int		 v;

	for (i = 0; i < nsel; i++) {
		r->selector = i;
		r->is_class = is_class;
		p = prog_get(a, sel[i] != NULL ? sel[i] : "");
		if (p->prog == NULL) {
			r->verdict = DRA_SEL_COMPILE;
			*msg = xstrdup(p->compile_err ? p->compile_err :
			    "compile failed");
			return -1;
		}
		dra_err_clear(&err);
		v = dra_cel_eval(p->prog, d, &err);
		if (v == DRA_CEL_TRUE)
			continue;
		if (v == DRA_CEL_FALSE) {
			r->verdict = is_class ? DRA_SEL_CLASS_FALSE :
			    DRA_SEL_REQ_FALSE;
			return 0;
		}
		if (v == DRA_CEL_UNSUPPORTED) {
			r->verdict = DRA_SEL_UNSUPPORTED;
			*msg = xstrdup(err.msg);
			return -1;
		}
		r->verdict = DRA_SEL_ERROR;
		*msg = enhance(err.msg);
		return -1;
	}
	return 1;
}

static void
eval_device(struct dra_allocator *a, const struct kube_device *d,
    const struct kube_device_request *r, const struct kube_device_class *cls,
    struct dra_selres *out, char **msg)
{
	memset(out, 0, sizeof *out);
	*msg = NULL;
	if ((cls == NULL || eval_list(a, d, cls->selectors, cls->nselectors,
	    1, out, msg) == 1) && eval_list(a, d, r->selectors, r->nselectors,
	    0, out, msg) == 1) {
		out->verdict = DRA_SEL_MATCH;
		out->selector = 0;
		out->is_class = 0;
	}
}

/*
 * Class selectors, then request selectors (selectorsMatch, called
 * twice by isSelectable); the verdict is cached per (device, request,
 * class) for the allocator's life, as deviceMatchesRequest caches it
 * for one Allocate call, in one array per slice.
 */
/*
 * Whether sig is still r's selectors: a caller may build requests in
 * memory it reuses (the planner's one-device claims), so a request
 * found by its address is checked against its text.
 */
static int
sig_matches(const struct dra_sellist *sig, const struct kube_device_request *r)
{
	const char	*k = sig->key;
	size_t		 i, n;

	for (i = 0; i < r->nselectors; i++) {
		n = r->selectors[i] != NULL ? strlen(r->selectors[i]) : 0;
		if (strncmp(k, r->selectors[i] != NULL ? r->selectors[i] : "",
		    n) != 0 || k[n] != '\x1e')
			return 0;
		k += n + 1;
	}
	return *k == '\0';
}

static struct dra_sellist *
request_sig(struct dra_allocator *a, const struct kube_device_request *r)
{
	struct dra_reqsig	*rs = a->last_rs;
	struct dra_sellist	*sig;
	struct dra_buf		 b;
	size_t			 i;

	if (rs != NULL && rs->req == r && sig_matches(rs->sig, r))
		return rs->sig;
	HASH_FIND_PTR(a->reqsigs, &r, rs);
	if (rs != NULL && !sig_matches(rs->sig, r)) {
		/* The same memory holds another request now. */
		HASH_DEL(a->reqsigs, rs);
		if (a->last_rs == rs)
			a->last_rs = NULL;
		rs = NULL;
	}
	if (rs == NULL) {
		dra_buf_init(&b, SIZE_MAX / 2);
		for (i = 0; i < r->nselectors; i++) {
			dra_buf_adds(&b, r->selectors[i] ? r->selectors[i] :
			    "");
			dra_buf_add(&b, "\x1e", 1);
		}
		HASH_FIND_STR(a->sellists, dra_buf_str(&b), sig);
		if (sig == NULL) {
			sig = dra_arena_alloc(&a->arena, sizeof *sig);
			sig->key = dra_arena_strdup(&a->arena,
			    dra_buf_str(&b));
			HASH_ADD_KEYPTR(hh, a->sellists, sig->key,
			    strlen(sig->key), sig);
		}
		dra_buf_release(&b);
		rs = dra_arena_alloc(&a->arena, sizeof *rs);
		rs->req = r;
		rs->sig = sig;
		HASH_ADD_PTR(a->reqsigs, req, rs);
	}
	a->last_rs = rs;
	return rs->sig;
}

void
dra_selectors(struct dra_allocator *a, const struct kube_device *d,
    const struct kube_device_request *r, const struct kube_device_class *cls,
    struct dra_selres *out)
{
	struct dra_selslice	*ss = a->last_ss;
	struct dra_selkey	 key;
	const struct kube_slice	*sl = d->slice;
	const void		*sig;
	size_t			 i;
	uint32_t		 v;
	char			*msg;

	if (sl == NULL || d < sl->devices || d >= sl->devices +
	    sl->ndevices) {
		/* Not in its slice's array: evaluate, cache nothing. */
		eval_device(a, d, r, cls, out, &msg);
		free(msg);
		out->msg = NULL;
		return;
	}
	i = (size_t)(d - sl->devices);
	sig = request_sig(a, r);
	if (ss == NULL || ss->key.slice != sl || ss->key.sig != sig ||
	    ss->key.cls != cls) {
		memset(&key, 0, sizeof key);
		key.slice = sl;
		key.sig = sig;
		key.cls = cls;
		HASH_FIND(hh, a->selslices, &key, sizeof key, ss);
		if (ss == NULL) {
			ss = xcalloc(1, sizeof *ss);
			ss->key = key;
			ss->n = sl->ndevices;
			ss->v = xcalloc(ss->n, sizeof *ss->v);
			HASH_ADD(hh, a->selslices, key, sizeof key, ss);
		}
		a->last_ss = ss;
	}
	if ((v = ss->v[i]) == 0) {
		eval_device(a, d, r, cls, out, &msg);
		if (msg != NULL) {
			if (ss->msg == NULL)
				ss->msg = xcalloc(ss->n, sizeof *ss->msg);
			ss->msg[i] = msg;
		}
		v = ((uint32_t)out->verdict + 1) |
		    ((uint32_t)(out->is_class != 0) << 7) |
		    ((uint32_t)out->selector << 8);
		ss->v[i] = v;
	}
	out->verdict = (enum dra_sel)((v & 0x7f) - 1);
	out->is_class = (v >> 7) & 1;
	out->selector = v >> 8;
	out->msg = ss->msg != NULL ? ss->msg[i] : NULL;
}

/* The allocator's error text for a selector that could not decide. */
char *
dra_cel_message(const struct dra_selres *sr,
    const struct kube_device_class *cls, const char *claim_ns,
    const char *claim_name, const struct kube_device *d)
{
	char		 who[512];
	const char	*driver = d->slice != NULL ? d->slice->driver : "";
	const char	*pool = d->slice != NULL ? d->slice->pool_name : "";

	if (sr->is_class && cls != NULL)
		snprintf(who, sizeof who, "class %s", cls->meta.name);
	else if (claim_name == NULL || *claim_name == '\0')
		snprintf(who, sizeof who, "claim in namespace %s", claim_ns ?
		    claim_ns : "");
	else
		snprintf(who, sizeof who, "claim %s/%s", claim_ns ?
		    claim_ns : "", claim_name);
	switch (sr->verdict) {
	case DRA_SEL_ERROR:
		return xasprintf("%s: selector #%zu on device %s/%s/%s: CEL "
		    "runtime error: %s", who, sr->selector, driver, pool,
		    d->name, sr->msg ? sr->msg : "");
	case DRA_SEL_COMPILE:
		return xasprintf("%s: selector #%zu: CEL compile error: %s",
		    who, sr->selector, sr->msg ? sr->msg : "");
	case DRA_SEL_UNSUPPORTED:
		return xasprintf("%s: selector #%zu on device %s/%s/%s: %s",
		    who, sr->selector, driver, pool, d->name,
		    sr->msg ? sr->msg : "");
	default:
		return NULL;
	}
}

/* resourceclaim.ToleratesTaint. */
static int
tolerates(const struct kube_toleration *t, const struct kube_taint *taint)
{
	const char	*tv, *v;

	if (t->effect != NULL && *t->effect != '\0' &&
	    (taint->effect_text == NULL ||
	    strcmp(t->effect, taint->effect_text) != 0))
		return 0;
	if (t->key != NULL && *t->key != '\0' &&
	    (taint->key == NULL || strcmp(t->key, taint->key) != 0))
		return 0;
	if (t->operator == NULL || *t->operator == '\0' ||
	    strcmp(t->operator, "Equal") == 0) {
		tv = t->value != NULL ? t->value : "";
		v = taint->value != NULL ? taint->value : "";
		return strcmp(tv, v) == 0;
	}
	return strcmp(t->operator, "Exists") == 0;
}

/*
 * taintPreventsAllocation: the first NoSchedule or NoExecute taint no
 * toleration of r tolerates; None and unknown effects are ignored.
 */
const struct kube_taint *
dra_untolerated_taint(const struct kube_device *d,
    const struct kube_device_request *r)
{
	const struct kube_taint	*t;
	size_t			 i, j;
	int			 ok;

	for (i = 0; i < d->ntaints; i++) {
		t = &d->taints[i];
		if (t->effect != KUBE_TAINT_NO_SCHEDULE &&
		    t->effect != KUBE_TAINT_NO_EXECUTE)
			continue;
		ok = 0;
		for (j = 0; j < r->ntolerations && !ok; j++)
			ok = tolerates(&r->tolerations[j], t);
		if (!ok)
			return t;
	}
	return NULL;
}

/* resource.Quantity.Value(): whole units, rounded up. */
static int64_t
units(int64_t milli)
{
	if (milli >= 0)
		return milli / 1000 + (milli % 1000 != 0);
	return milli / 1000;
}

/* Request capacity (domain "" means the device's driver) vs capacity. */
static int
cap_name_eq(const struct kube_capacity_request *q,
    const struct kube_capacity *c, const char *driver)
{
	const char	*dom = q->domain;

	if (dom == NULL || *dom == '\0')
		dom = driver;
	return strcmp(q->id, c->id) == 0 && dom != NULL &&
	    c->domain != NULL && strcmp(dom, c->domain) == 0;
}

/*
 * calculateConsumedCapacity with roundUpRange and roundUpValidValues.
 * With DRAFractionalCapacityRange (useMilli) the range arithmetic is in
 * thousandths, else in whole units (Quantity.Value(), rounded up).
 */
static int64_t
consumed_one(int fractional, const struct kube_capacity_request *q,
    const struct kube_capacity *c)
{
	const struct kube_request_policy	*p = c->policy;
	int64_t					 req, r, step, min, n;
	size_t					 i;

	if (q == NULL) {
		if (p != NULL && p->has_default)
			return p->def.milli;
		return c->value.milli;
	}
	req = q->value.milli;
	if (p == NULL)
		return req;
	if (p->has_range) {
		if (req < p->min.milli)
			return p->min.milli;
		if (!p->has_step)
			return req;
		if (fractional && p->step.milli >= 1) {
			step = p->step.milli;
			n = (req - p->min.milli) / step;
			if ((req - p->min.milli) % step != 0)
				n++;
			return p->min.milli + step * n;
		}
		r = units(req);
		step = units(p->step.milli);
		min = units(p->min.milli);
		if (step == 0)
			return req;
		n = (r - min) / step;
		if ((r - min) % step != 0)
			n++;
		return (min + step * n) * 1000;
	}
	if (p->nvalid_values > 0) {
		for (i = 0; i < p->nvalid_values; i++)
			if (req <= p->valid_values[i].milli)
				return p->valid_values[i].milli;
	}
	return req;
}

/* violatesPolicy. */
static int
violates(int fractional, int64_t v, const struct kube_request_policy *p)
{
	int64_t	step, min;
	size_t	i;

	if (p == NULL)
		return 0;
	if (p->has_default && v == p->def.milli)
		return 0;
	if (p->has_range) {
		if (p->has_max && v > p->max.milli)
			return 1;
		if (p->has_step && fractional && p->step.milli >= 1)
			return (v - p->min.milli) % p->step.milli != 0;
		if (p->has_step) {
			step = units(p->step.milli);
			min = units(p->min.milli);
			if (step != 0 && (units(v) - min) % step != 0)
				return 1;
		}
		return 0;
	}
	if (p->nvalid_values > 0) {
		for (i = 0; i < p->nvalid_values; i++)
			if (v == p->valid_values[i].milli)
				return 0;
		return 1;
	}
	return 0;
}

static const struct kube_capacity_request *
find_request(const struct kube_device_request *r, const struct kube_capacity *c,
    const char *driver)
{
	size_t	i;

	for (i = 0; i < r->ncapacity; i++)
		if (cap_name_eq(&r->capacity[i], c, driver))
			return &r->capacity[i];
	return NULL;
}

static int64_t
held_amount(const struct dra_held *h, const struct kube_capacity *c)
{
	size_t	i;

	if (h == NULL || h->ncapres <= 0)
		return 0;
	for (i = 0; i < h->ncap; i++)
		if (strcmp(h->cap[i].domain, c->domain) == 0 &&
		    strcmp(h->cap[i].id, c->id) == 0)
			return h->cap[i].milli;
	return 0;
}

const char *
dra_capacity_name(const struct kube_device *d, const struct kube_capacity *c,
    char *buf, size_t len)
{
	if (d->slice != NULL && d->slice->driver != NULL && c->domain != NULL &&
	    strcmp(c->domain, d->slice->driver) == 0)
		snprintf(buf, len, "%s", c->id);
	else
		snprintf(buf, len, "%s/%s", c->domain ? c->domain : "", c->id);
	return buf;
}

int
dra_capacity_fits(const struct dra_allocator *a, const struct kube_device *d,
    const struct kube_device_request *r, const struct dra_held *held,
    const int64_t *allocating, const struct kube_capacity **bad,
    int64_t *need, int64_t *left,
    const struct kube_capacity_request **missing)
{
	const char		*driver = d->slice ? d->slice->driver : NULL;
	const struct kube_capacity *c;
	int			 frac = (a->features &
				    DRA_FEATURE_FRACTIONAL_CAPACITY) != 0;
	int64_t			 v, used;
	size_t			 i, k;

	/* requestsContainNonExistCapacity */
	for (i = 0; i < r->ncapacity; i++) {
		for (k = 0; k < d->ncapacity; k++)
			if (cap_name_eq(&r->capacity[i], &d->capacity[k],
			    driver))
				break;
		if (k == d->ncapacity) {
			if (missing != NULL)
				*missing = &r->capacity[i];
			return -1;
		}
	}
	/* Every consumption first: a negative one aborts, in any order. */
	for (k = 0; k < d->ncapacity; k++) {
		c = &d->capacity[k];
		if (consumed_one(frac, find_request(r, c, driver), c) < 0) {
			if (bad != NULL)
				*bad = c;
			return DRA_CAPACITY_NEGATIVE;
		}
	}
	for (k = 0; k < d->ncapacity; k++) {
		c = &d->capacity[k];
		v = consumed_one(frac, find_request(r, c, driver), c);
		used = held_amount(held, c) +
		    (allocating != NULL ? allocating[k] : 0);
		if (violates(frac, v, c->policy) ||
		    used + v > c->value.milli) {
			if (bad != NULL)
				*bad = c;
			if (need != NULL)
				*need = v;
			if (left != NULL)
				*left = c->value.milli - used;
			return 0;
		}
	}
	return 1;
}

/* GetConsumedCapacityFromRequest. */
void
dra_capacity_consumed(const struct dra_allocator *a,
    const struct kube_device *d, const struct kube_device_request *r,
    int64_t *out)
{
	const char	*driver = d->slice ? d->slice->driver : NULL;
	int		 frac = (a->features &
			    DRA_FEATURE_FRACTIONAL_CAPACITY) != 0;
	size_t		 k;

	for (k = 0; k < d->ncapacity; k++)
		out[k] = consumed_one(frac, find_request(r, &d->capacity[k],
		    driver), &d->capacity[k]);
}

const char *
dra_check_code(enum dra_check c)
{
	switch (c) {
	case DRA_CHECK_OK:			return "ok";
	case DRA_CHECK_NODE:			return "node";
	case DRA_CHECK_POOL_INCOMPLETE:		return "pool-incomplete";
	case DRA_CHECK_POOL_INVALID:		return "pool-invalid";
	case DRA_CHECK_STALE:			return "stale";
	case DRA_CHECK_IN_USE:			return "in-use";
	case DRA_CHECK_CLASS_SELECTOR:		return "class-selector";
	case DRA_CHECK_REQUEST_SELECTOR:	return "request-selector";
	case DRA_CHECK_CEL_ERROR:		return "cel-error";
	case DRA_CHECK_CEL_UNSUPPORTED:		return "cel-unsupported";
	case DRA_CHECK_CAPACITY:		return "capacity";
	case DRA_CHECK_COUNTERS:		return "counters";
	case DRA_CHECK_TAINT:			return "taint";
	case DRA_CHECK_FEATURE:			return "feature";
	case DRA_CHECK_CLASS_MISSING:		return "class-missing";
	}
	return "unknown";
}
