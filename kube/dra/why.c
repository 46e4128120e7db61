/*
 * why.c: explain an allocation decision (see why.h).
 *
 * The verdict comes from dra_allocate() alone, node by node, so it is
 * the allocator's answer and nothing else.  The explanation of a node
 * that does not fit is built afterwards: for each request of each
 * pending claim, every device the node can reach goes through
 * dra_device_check(), and the tally says what stands in the way
 * (selectors, holders, counters, capacity, taints, pools).  When every
 * request has enough candidates alone, the constraints or the sum of
 * the picks are what fails, and the reason says so.
 */
#include "why.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cel.h"
#include "xmalloc.h"

/* Evidence lines kept per request and node. */
#define WHY_MAX_EVIDENCE	8
/* Holder claims tried when looking for "allocatable after release". */
#define WHY_MAX_HOLDERS		64
/* Holders each tried alone ("any one of them releasing is enough"). */
#define WHY_MAX_SINGLES		16
/* Allocated claims of one pod that pin its nodes. */
#define WHY_MAX_ALLOCATED	32
/* reservedFor holds at most this many consumers (ResourceClaimReservedForMaxSize). */
#define WHY_MAX_RESERVED	256
/* Nodes whose failure is explained in detail (all are counted). */
#define WHY_MAX_EXPLAINED	64

/* A claim to allocate, and where its name and spec come from. */
struct why_claim {
	struct dra_claim_ref	 ref;
	const struct kube_claim	*claim;		/* NULL for a template */
	char			*name;		/* "ns/name" */
};

struct why_state {
	const struct kube_snapshot	*s;
	const struct dra_why_target	*t;
	struct dra_why			*w;
	struct dra_alloc_opts		 opts;
	struct why_claim		*pending;
	struct dra_claim_ref		*refs;		/* pending[i].ref */
	size_t				 npending;
	const char		       **nodes;
	const struct kube_node	       **node_objs;
	size_t				 nnodes;
	const char			*never;		/* its one cause */
	int				 from_tmpl;	/* t->claim is made
							   from a template */
	/* The pod's claims that are allocated already. */
	const struct kube_claim		*allocated[WHY_MAX_ALLOCATED];
	size_t				 nallocated;
	/* reachable_devices() of devs_node. */
	const char			*devs_node;
	const struct kube_device       **devs;
	size_t				 ndevs, capdevs;
	/* Claims that hold what the requests wanted (release analysis). */
	const struct kube_claim	       **holders;
	size_t				 nholders;
};

const char *
dra_why_verdict_name(enum dra_why_verdict v)
{
	switch (v) {
	case DRA_WHY_ALLOCATED:
		return "allocated";
	case DRA_WHY_ALLOCATABLE:
		return "allocatable";
	case DRA_WHY_AFTER_RELEASE:
		return "allocatable-after-release";
	case DRA_WHY_NEVER:
		return "never";
	case DRA_WHY_BLOCKED:
		return "blocked";
	case DRA_WHY_UNKNOWN:
		break;
	}
	return "unknown";
}

static char *
claim_name(const char *ns, const char *name)
{
	return xasprintf("%s/%s", ns != NULL ? ns : "", name);
}

static void
free_reason(struct dra_why_reason *r)
{
	size_t	e;

	free(r->node);
	free(r->claim);
	free(r->request);
	free(r->message);
	for (e = 0; e < r->nevidence; e++)
		free(r->evidence[e]);
	free(r->evidence);
}

static void
free_device(struct dra_why_device *d)
{
	free(d->claim_name);
	free(d->request);
	free(d->driver);
	free(d->pool);
	free(d->name);
	free(d->consumed);
}

static struct dra_why_reason *
add_reason(struct dra_why *w, const char *node, const char *claim,
    const char *request, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

static struct dra_why_reason *
add_reason(struct dra_why *w, const char *node, const char *claim,
    const char *request, const char *code, const char *fmt, ...)
{
	struct dra_why_reason	*r;
	struct dra_buf		 b;
	va_list			 ap;

	w->reasons = xreallocarray(w->reasons, w->nreasons + 1,
	    sizeof *w->reasons);
	r = &w->reasons[w->nreasons++];
	memset(r, 0, sizeof *r);
	r->node = node != NULL ? xstrdup(node) : NULL;
	r->claim = claim != NULL ? xstrdup(claim) : NULL;
	r->request = request != NULL ? xstrdup(request) : NULL;
	r->code = code;
	dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	va_start(ap, fmt);
	dra_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	r->message = dra_buf_take(&b);
	return r;
}

static void
add_evidence(struct dra_why_reason *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
add_evidence(struct dra_why_reason *r, const char *fmt, ...)
{
	struct dra_buf	b;
	va_list		ap;

	r->evidence = xreallocarray(r->evidence, r->nevidence + 1,
	    sizeof *r->evidence);
	dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	va_start(ap, fmt);
	dra_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	r->evidence[r->nevidence++] = dra_buf_take(&b);
}

/* "memory=40Gi, ..." for consumed capacity, or NULL when there is none. */
static char *
consumed_text(const struct kube_capacity_request *c, size_t n)
{
	struct dra_buf	b;
	char		q[64];
	size_t		i;

	if (n == 0)
		return NULL;
	dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	for (i = 0; i < n; i++)
		dra_buf_addf(&b, "%s%s=%s", i ? ", " : "", c[i].id,
		    c[i].value.text != NULL ? c[i].value.text :
		    kube_quantity_format(c[i].value.milli, q, sizeof q));
	return dra_buf_take(&b);
}

static void
add_device(struct dra_why *w, const struct kube_claim *c, const char *cname,
    const char *request, const struct kube_device *d, const char *driver,
    const char *pool, const char *name, int admin,
    const struct kube_capacity_request *consumed, size_t nconsumed)
{
	struct dra_why_device	*dev;

	w->devices = xreallocarray(w->devices, w->ndevices + 1,
	    sizeof *w->devices);
	dev = &w->devices[w->ndevices++];
	dev->claim = c;
	dev->claim_name = xstrdup(cname);
	dev->request = xstrdup(request != NULL ? request : "");
	dev->device = d;
	dev->driver = xstrdup(driver != NULL ? driver : "");
	dev->pool = xstrdup(pool != NULL ? pool : "");
	dev->name = xstrdup(name != NULL ? name : "");
	dev->admin_access = admin;
	dev->consumed = consumed_text(consumed, nconsumed);
}

static void
add_holder(struct why_state *st, const struct kube_claim *c)
{
	size_t	i;

	if (c == NULL || st->nholders >= WHY_MAX_HOLDERS)
		return;
	for (i = 0; i < st->nholders; i++) {
		if (st->holders[i] == c)
			return;
	}
	st->holders = xreallocarray(st->holders, st->nholders + 1,
	    sizeof *st->holders);
	st->holders[st->nholders++] = c;
}

static char *
fmt_quantity(int64_t milli)
{
	char	buf[64];

	return xstrdup(kube_quantity_format(milli, buf, sizeof buf));
}

/* "ns/a, ns/b" for the claims holding d (at most a few). */
static char *
holders_text(const struct kube_device_alloc *h, size_t n)
{
	struct dra_buf	b;
	size_t		i;

	dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	for (i = 0; i < n && i < 4; i++)
		dra_buf_addf(&b, "%s%s/%s", i ? ", " : "",
		    h[i].claim->meta.namespace, h[i].claim->meta.name);
	if (n > 4)
		dra_buf_addf(&b, " and %zu more", n - 4);
	if (n == 0)
		dra_buf_adds(&b, "(none)");
	return dra_buf_take(&b);
}

/*
 * The claims whose allocated devices consume counters of set (in any
 * pool, on any node), for the evidence and the release analysis.
 */
static char *
counter_users(struct why_state *st, const struct kube_counter_set *set)
{
	const struct kube_pool	*p;
	struct dra_buf		 b;
	size_t			 i, j, k, a, shown = 0, total = 0;

	dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	if (set == NULL || set->slice == NULL || (p = kube_snapshot_pool(st->s,
	    set->slice->driver, set->slice->pool_name)) == NULL)
		return dra_buf_take(&b);
	for (i = 0; i < p->nslices; i++) {
		const struct kube_slice	*sl = p->slices[i];

		for (j = 0; j < sl->ndevices; j++) {
			const struct kube_device *d = &sl->devices[j];
			int			  uses = 0;

			for (k = 0; k < d->nconsumes; k++) {
				if (d->consumes[k].set == set)
					uses = 1;
			}
			if (!uses)
				continue;
			for (a = 0; a < d->nallocs; a++) {
				const struct kube_claim	*c = d->allocs[a].claim;
				const struct kube_result *r =
				    &c->results[d->allocs[a].result];

				if (r->admin_access)
					continue;
				add_holder(st, c);
				total++;
				if (shown++ < 4)
					dra_buf_addf(&b, "%s%s/%s (%s)",
					    shown > 1 ? ", " : "",
					    c->meta.namespace, c->meta.name,
					    d->name);
			}
		}
	}
	if (total > 4)
		dra_buf_addf(&b, " and %zu more", total - 4);
	return dra_buf_take(&b);
}

/* One line of evidence for device d failing check det. */
static char *
check_text(struct why_state *st, const struct kube_device *d,
    const struct kube_device_request *r, const struct dra_check_detail *det)
{
	const char	*driver = d->slice->driver, *pool = d->slice->pool_name;
	char		*h, *need, *left, *out;
	size_t		 i;

	switch (det->check) {
	case DRA_CHECK_IN_USE:
		h = holders_text(det->holders, det->nholders);
		out = xasprintf("%s/%s/%s: in use by %s", driver, pool,
		    d->name, h);
		free(h);
		return out;
	case DRA_CHECK_COUNTERS:
		need = fmt_quantity(det->need);
		left = fmt_quantity(det->left);
		h = counter_users(st, det->set);
		out = xasprintf("%s/%s/%s: counter set %s, counter %s: needs "
		    "%s, %s left%s%s%s", driver, pool, d->name,
		    det->set != NULL ? det->set->name : "?",
		    det->set != NULL && det->counter < det->set->ncounters ?
		    det->set->counters[det->counter].name : "?", need, left,
		    *h != '\0' ? " (consumed by " : "", h,
		    *h != '\0' ? ")" : "");
		free(need);
		free(left);
		free(h);
		return out;
	case DRA_CHECK_CAPACITY:
		need = fmt_quantity(det->need);
		left = fmt_quantity(det->left);
		h = holders_text(d->allocs, d->nallocs);
		for (i = 0; i < d->nallocs; i++)
			add_holder(st, d->allocs[i].claim);
		if (det->capacity != NULL &&
		    det->need > det->capacity->value.milli)
			out = xasprintf("%s/%s/%s: capacity %s: needs %s, more "
			    "than the device's whole %s", driver, pool,
			    d->name, det->capacity->id, need,
			    det->capacity->value.text != NULL ?
			    det->capacity->value.text : "capacity");
		else
			out = xasprintf("%s/%s/%s: capacity %s: needs %s, %s "
			    "left (consumed by %s)", driver, pool, d->name,
			    det->capacity != NULL ? det->capacity->id : "?",
			    need, left, h);
		free(need);
		free(left);
		free(h);
		return out;
	case DRA_CHECK_TAINT:
		return xasprintf("%s/%s/%s: taint %s%s%s:%s is not "
		    "tolerated%s%s%s", driver, pool, d->name,
		    det->taint != NULL ? det->taint->key : "?",
		    det->taint != NULL && det->taint->value != NULL ? "=" : "",
		    det->taint != NULL && det->taint->value != NULL ?
		    det->taint->value : "",
		    det->taint != NULL ? det->taint->effect_text : "?",
		    det->taint != NULL && det->taint->rule != NULL ?
		    " (DeviceTaintRule " : "",
		    det->taint != NULL && det->taint->rule != NULL ?
		    det->taint->rule : "",
		    det->taint != NULL && det->taint->rule != NULL ?
		    ")" : "");
	case DRA_CHECK_CLASS_SELECTOR:
		return xasprintf("%s/%s/%s: class selector #%zu is false",
		    driver, pool, d->name, det->selector);
	case DRA_CHECK_REQUEST_SELECTOR:
		return xasprintf("%s/%s/%s: request selector #%zu is false%s%s",
		    driver, pool, d->name, det->selector,
		    r->selectors != NULL && det->selector < r->nselectors ?
		    ": " : "", r->selectors != NULL &&
		    det->selector < r->nselectors ?
		    r->selectors[det->selector] : "");
	case DRA_CHECK_NODE:
		if (d->slice->rejected != NULL)
			return xasprintf("%s/%s/%s: ResourceSlice %s is not "
			    "valid, the API server would refuse it: %s", driver,
			    pool, d->name, d->slice->meta.name,
			    d->slice->rejected);
		if (d->slice->ncounter_sets > 0 && d->slice->ndevices > 0)
			return xasprintf("%s/%s/%s: ResourceSlice %s publishes "
			    "both sharedCounters and devices; the allocator of "
			    "Kubernetes 1.37 takes only the counter sets "
			    "from such a slice (and the API server refuses "
			    "new ones): publish the devices in a slice of "
			    "their own", driver, pool, d->name,
			    d->slice->meta.name);
		break;
	default:
		break;
	}
	return xasprintf("%s/%s/%s: %s%s%s", driver, pool, d->name,
	    dra_check_code(det->check), det->message != NULL ? ": " : "",
	    det->message != NULL ? det->message : "");
}

/* Whether d can be reached from node at all (cheap pre-filter). */
static int
on_node(const struct kube_device *d, const char *node)
{
	const char	*dn = kube_device_node(d);

	return dn == NULL || node == NULL || strcmp(dn, node) == 0;
}

/*
 * dra_device_check(), except that a device failing a check made before
 * the selectors (held by another claim, in an incomplete or invalid
 * pool) is reported as a selector mismatch when the selectors would not
 * take it anyway: a held NIC does not stand in the way of a GPU
 * request.
 */
static enum dra_check
check_device(struct dra_allocator *a, const char *node,
    const struct kube_node *n, const char *ns,
    const struct kube_device_request *r, const struct kube_device *d,
    struct dra_check_detail *det)
{
	struct dra_check_detail	sel;
	enum dra_check		c, sc;

	c = dra_device_check(a, node, n, ns, r, d, det);
	switch (c) {
	case DRA_CHECK_IN_USE:
	case DRA_CHECK_POOL_INCOMPLETE:
	case DRA_CHECK_POOL_INVALID:
	case DRA_CHECK_FEATURE:
		break;
	default:
		return c;
	}
	sc = dra_device_selected(a, ns, r, d, &sel);
	if (sc == DRA_CHECK_CLASS_SELECTOR ||
	    sc == DRA_CHECK_REQUEST_SELECTOR) {
		free(det->message);
		*det = sel;
		return sc;
	}
	free(sel.message);
	return c;
}

/* Checks ordered by how much they tell a user, most first. */
static int
check_weight(enum dra_check c)
{
	switch (c) {
	case DRA_CHECK_CEL_ERROR:
	case DRA_CHECK_CEL_UNSUPPORTED:
	case DRA_CHECK_CLASS_MISSING:
	case DRA_CHECK_FEATURE:
		return 12;
	case DRA_CHECK_COUNTERS:
		return 11;
	case DRA_CHECK_CAPACITY:
		return 10;
	case DRA_CHECK_TAINT:
		return 9;
	case DRA_CHECK_IN_USE:
		return 8;
	case DRA_CHECK_POOL_INCOMPLETE:
	case DRA_CHECK_POOL_INVALID:
		return 7;
	case DRA_CHECK_REQUEST_SELECTOR:
		return 5;
	case DRA_CHECK_CLASS_SELECTOR:
		return 4;
	case DRA_CHECK_STALE:
	case DRA_CHECK_NODE:
		return 1;
	case DRA_CHECK_OK:
		break;
	}
	return 0;
}

/* Devices that match the selectors have a weight of at least this. */
#define WEIGHT_MATCHED	7
#define WEIGHT_MAX	12

#define NCHECKS	(DRA_CHECK_CLASS_MISSING + 1)

/* Devices left out by one selector, for one line of evidence. */
#define WHY_MAX_GROUPS	8
#define WHY_GROUP_NAMES	3
struct sel_group {
	enum dra_check	 check;		/* CLASS_ or REQUEST_SELECTOR */
	size_t		 selector;
	size_t		 count;
	const char	*names[WHY_GROUP_NAMES];
};

static void
group_add(struct sel_group *g, size_t *n, enum dra_check c, size_t sel,
    const char *name)
{
	size_t	i;

	for (i = 0; i < *n; i++) {
		if (g[i].check == c && g[i].selector == sel)
			break;
	}
	if (i == *n) {
		if (*n == WHY_MAX_GROUPS)
			return;
		memset(&g[i], 0, sizeof g[i]);
		g[i].check = c;
		g[i].selector = sel;
		(*n)++;
	}
	if (g[i].count < WHY_GROUP_NAMES)
		g[i].names[g[i].count] = name;
	g[i].count++;
}

/* "class C selector #0 `expr` is false for 8 devices (a, b, c, ...)" */
static void
group_evidence(struct why_state *st, const struct kube_device_request *r,
    const struct sel_group *g, struct dra_why_reason *reason)
{
	const struct kube_device_class	*cls;
	const char			*expr = NULL;
	struct dra_buf			 b;
	size_t				 i;

	if (g->check == DRA_CHECK_CLASS_SELECTOR) {
		cls = kube_snapshot_class(st->s, r->class_name);
		if (cls != NULL && g->selector < cls->nselectors)
			expr = cls->selectors[g->selector];
	} else if (g->selector < r->nselectors)
		expr = r->selectors[g->selector];
	dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	for (i = 0; i < g->count && i < WHY_GROUP_NAMES; i++)
		dra_buf_addf(&b, "%s%s", i ? ", " : "", g->names[i]);
	if (g->count > WHY_GROUP_NAMES)
		dra_buf_adds(&b, ", ...");
	if (g->check == DRA_CHECK_CLASS_SELECTOR)
		add_evidence(reason, "class %s selector #%zu is false for %zu "
		    "device%s (%s): %s", r->class_name, g->selector, g->count,
		    g->count == 1 ? "" : "s", dra_buf_str(&b),
		    expr != NULL ? expr : "?");
	else
		add_evidence(reason, "request selector #%zu is false for %zu "
		    "device%s (%s): %s", g->selector, g->count,
		    g->count == 1 ? "" : "s", dra_buf_str(&b),
		    expr != NULL ? expr : "?");
	dra_buf_release(&b);
}

/*
 * The devices of complete or incomplete pools (newest generation) that
 * node can reach: its own, and network-attached ones.  Computed once
 * per node and kept in st; *out is borrowed from st.
 */
static size_t
reachable_devices(struct why_state *st, const char *node,
    const struct kube_device ***out)
{
	const struct kube_snapshot	*s = st->s;
	size_t				 i, j, k;

	if (st->devs_node != NULL && node != NULL &&
	    strcmp(st->devs_node, node) == 0) {
		*out = st->devs;
		return st->ndevs;
	}
	st->ndevs = 0;
	st->devs_node = node;
	for (i = 0; i < s->pools.n; i++) {
		const struct kube_pool	*p = s->pools.v[i];

		if (p->node_name != NULL && node != NULL &&
		    strcmp(p->node_name, node) != 0)
			continue;
		for (j = 0; j < p->nslices; j++) {
			const struct kube_slice	*sl = p->slices[j];

			for (k = 0; k < sl->ndevices; k++) {
				if (!on_node(&sl->devices[k], node))
					continue;
				if (st->ndevs == st->capdevs) {
					st->capdevs = st->capdevs ?
					    st->capdevs * 2 : 64;
					st->devs = xreallocarray(st->devs,
					    st->capdevs, sizeof *st->devs);
				}
				st->devs[st->ndevs++] = &sl->devices[k];
			}
		}
	}
	*out = st->devs;
	return st->ndevs;
}

/*
 * Tally every device node can reach for request r; returns the number
 * that pass every check, fills *nmatch with those that match the
 * selectors (pass or fail later) and adds one evidence line per failing
 * device (most telling checks first, none below min_weight) to reason
 * when it is not NULL.
 */
static size_t
tally_request(struct why_state *st, struct dra_allocator *a,
    const char *node, const struct kube_node *n, const char *ns,
    const struct kube_device_request *r, size_t tally[NCHECKS],
    size_t *nmatch, struct dra_why_reason *reason, int min_weight)
{
	const struct kube_device	**devs;
	struct dra_check_detail		 det;
	struct sel_group		 groups[WHY_MAX_GROUPS];
	size_t				 i, h, ndevs, ok = 0, shown = 0;
	size_t				 ngroups = 0;
	int				 weight, level;
	char				*line;

	memset(tally, 0, NCHECKS * sizeof *tally);
	*nmatch = 0;
	ndevs = reachable_devices(st, node, &devs);
	for (level = WEIGHT_MAX; level >= min_weight; level--) {
		for (i = 0; i < ndevs; i++) {
			const struct kube_device	*d = devs[i];
			enum dra_check			 c;

			memset(&det, 0, sizeof det);
			c = check_device(a, node, n, ns, r, d, &det);
			weight = check_weight(c);
			if (level == WEIGHT_MAX) {
				tally[c]++;
				ok += c == DRA_CHECK_OK;
				if (weight >= WEIGHT_MATCHED ||
				    c == DRA_CHECK_OK)
					(*nmatch)++;
				for (h = 0; c == DRA_CHECK_IN_USE &&
				    h < det.nholders; h++)
					add_holder(st, det.holders[h].claim);
				if (c == DRA_CHECK_COUNTERS && reason == NULL)
					free(counter_users(st, det.set));
			}
			if (reason != NULL && weight == level &&
			    c != DRA_CHECK_OK) {
				if (c == DRA_CHECK_CLASS_SELECTOR ||
				    c == DRA_CHECK_REQUEST_SELECTOR)
					group_add(groups, &ngroups, c,
					    det.selector, d->name);
				else if (shown < WHY_MAX_EVIDENCE) {
					line = check_text(st, d, r, &det);
					add_evidence(reason, "%s", line);
					free(line);
					shown++;
				}
			}
			free(det.message);
		}
		if (reason == NULL)
			break;
	}
	for (i = 0; i < ngroups; i++)
		group_evidence(st, r, &groups[i], reason);
	return ok;
}

static const struct kube_device_class *
find_class(const struct kube_snapshot *s, const char *name)
{
	return name != NULL ? kube_snapshot_class(s, name) : NULL;
}

/* "1 device", "all devices" ... of a request, for messages. */
static char *
wants_text(const struct kube_device_request *r)
{
	if (r->mode == KUBE_MODE_ALL)
		return xasprintf("all devices of class %s", r->class_name);
	if (r->count == 0)
		return xasprintf("1 device of class %s (count 0 is stored as 1 "
		    "by the API server's defaulting)", r->class_name);
	if (r->count < 0)
		return xasprintf("%" PRId64 " devices of class %s (a negative "
		    "count: the API server refuses such a claim)", r->count,
		    r->class_name);
	return xasprintf("%" PRId64 " device%s of class %s", r->count,
	    r->count == 1 ? "" : "s", r->class_name);
}

/*
 * Explain why request r (named rname) of claim wc does not fit on node,
 * when it does not fit alone.  Returns 1 if a reason was added.
 */
static int
explain_request(struct why_state *st, struct dra_allocator *a,
    const char *node, const struct kube_node *n, const struct why_claim *wc,
    const char *rname, const struct kube_device_request *r)
{
	struct dra_why_reason	*reason;
	size_t			 tally[NCHECKS], ok, nmatch, i, need;
	size_t			 reachable;
	enum dra_check		 worst = DRA_CHECK_OK;
	char			*wants;
	const char		*code;

	ok = tally_request(st, a, node, n, wc->ref.namespace, r, tally,
	    &nmatch, NULL, 0);
	if (r->mode == KUBE_MODE_ALL)
		need = nmatch > 0 ? nmatch : 1;
	else
		need = r->count > 0 ? (size_t)r->count : 1;
	if (ok >= need && !(r->mode == KUBE_MODE_ALL && ok < nmatch))
		return 0;
	for (i = 0; i < NCHECKS; i++) {
		if (i != DRA_CHECK_OK && tally[i] > 0 &&
		    check_weight((enum dra_check)i) > check_weight(worst))
			worst = (enum dra_check)i;
	}
	wants = wants_text(r);
	reachable = 0;
	for (i = 0; i < NCHECKS; i++)
		reachable += tally[i];
	if (reachable == 0) {
		reason = add_reason(st->w, node, wc->name, rname, "no-devices",
		    "wants %s; no ResourceSlice publishes a device reachable "
		    "from node %s", wants, node);
	} else if (nmatch == 0) {
		code = dra_check_code(worst);
		reason = add_reason(st->w, node, wc->name, rname, code,
		    "wants %s; none of the %zu device%s reachable from node %s "
		    "matches the %s selectors", wants, reachable,
		    reachable == 1 ? "" : "s", node,
		    tally[DRA_CHECK_REQUEST_SELECTOR] > 0 ?
		    "request's" : "class");
	} else if (r->mode != KUBE_MODE_ALL && nmatch < need) {
		/* Releasing holders cannot help: say that first. */
		reason = add_reason(st->w, node, wc->name, rname, "count",
		    "wants %s; node %s has only %zu matching device%s "
		    "(%zu available)", wants, node, nmatch,
		    nmatch == 1 ? "" : "s", ok);
	} else if (r->mode == KUBE_MODE_ALL) {
		reason = add_reason(st->w, node, wc->name, rname,
		    dra_check_code(worst), "wants %s; %zu match on node %s, "
		    "%zu of them cannot be allocated (%s), and All takes "
		    "every matching device or none", wants, nmatch, node,
		    nmatch - ok, dra_check_code(worst));
	} else {
		reason = add_reason(st->w, node, wc->name, rname,
		    dra_check_code(worst), "wants %s; %zu match%s on node %s, "
		    "%zu %s available", wants, nmatch, nmatch == 1 ? "es" : "",
		    node, ok, ok == 1 ? "is" : "are");
	}
	free(wants);
	/* Devices the selectors leave out matter only when none is left. */
	tally_request(st, a, node, n, wc->ref.namespace, r, tally, &nmatch,
	    reason, nmatch > 0 ? WEIGHT_MATCHED : 0);
	if (nmatch > 0 && reachable > nmatch)
		add_evidence(reason, "%zu other device%s reachable from node "
		    "%s do%s not match the selectors", reachable - nmatch,
		    reachable - nmatch == 1 ? "" : "s", node,
		    reachable - nmatch == 1 ? "es" : "");
	if (r->class_name != NULL && find_class(st->s, r->class_name) ==
	    NULL)
		add_evidence(reason, "DeviceClass %s does not exist",
		    r->class_name);
	return 1;
}

/* The printable value of attribute name ("domain/id") of d, or NULL. */
static char *
attr_value(const struct kube_device *d, const char *name)
{
	const struct kube_attr	*at;
	const char		*slash = strrchr(name, '/');
	char			*domain;

	if (slash == NULL)
		at = kube_device_attr(d, NULL, name);
	else {
		domain = xstrndup(name, (size_t)(slash - name));
		at = kube_device_attr(d, domain, slash + 1);
		free(domain);
	}
	if (at == NULL)
		return NULL;
	switch (at->type) {
	case KUBE_ATTR_INT:
		return xasprintf("%" PRId64, at->i);
	case KUBE_ATTR_BOOL:
		return xstrdup(at->i ? "true" : "false");
	case KUBE_ATTR_STRING:
	case KUBE_ATTR_VERSION:
		return xstrdup(at->s != NULL ? at->s : "");
	default:
		return xasprintf("[%zu values]", at->nlist);
	}
}

/*
 * Append to b "dev (attr=value)" for each device on node that passes
 * every check for r (at most 8, then a count).
 */
static void
candidates(struct why_state *st, struct dra_allocator *a, const char *node,
    const struct kube_node *n, const char *ns,
    const struct kube_device_request *r, const char *attr, struct dra_buf *b)
{
	const struct kube_device	**devs;
	struct dra_check_detail		 det;
	size_t				 i, ndevs, shown = 0, total = 0;
	char				*v;

	ndevs = reachable_devices(st, node, &devs);
	for (i = 0; i < ndevs; i++) {
		memset(&det, 0, sizeof det);
		if (check_device(a, node, n, ns, r, devs[i], &det) ==
		    DRA_CHECK_OK) {
			total++;
			if (shown++ < 8) {
				v = attr_value(devs[i], attr);
				dra_buf_addf(b, "%s%s (%s)", shown > 1 ? ", " : "",
				    devs[i]->name, v != NULL ? v :
				    "no such attribute");
				free(v);
			}
		}
		free(det.message);
	}
	if (total > 8)
		dra_buf_addf(b, " and %zu more", total - 8);
}

/* Whether constraint c applies to request rname ("req" or "req/sub"). */
static int
constraint_covers(const struct kube_constraint *c, const char *rname)
{
	size_t	i, len;

	if (c->nrequests == 0)
		return 1;
	for (i = 0; i < c->nrequests; i++) {
		len = strlen(c->requests[i]);
		if (strcmp(c->requests[i], rname) == 0 ||
		    (strncmp(c->requests[i], rname, len) == 0 &&
		    rname[len] == '/'))
			return 1;
	}
	return 0;
}

/*
 * Evidence for a constraint: for each request it covers, the devices
 * that pass every check on node, with the attribute's value.
 */
static void
explain_constraint(struct why_state *st, struct dra_allocator *a,
    const char *node, const struct kube_node *n, const struct why_claim *wc,
    const struct kube_constraint *c, struct dra_why_reason *r)
{
	const struct kube_claim_spec	*sp = wc->ref.spec;
	const char			*attr;
	struct dra_buf			 b;
	size_t				 i, k;
	char				 name[512];

	attr = c->match_attribute != NULL ? c->match_attribute :
	    c->distinct_attribute;
	if (attr == NULL) {
		add_evidence(r, "constraint of unknown type %s",
		    c->unknown != NULL ? c->unknown : "?");
		return;
	}
	dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	for (i = 0; i < c->nrequests; i++)
		dra_buf_addf(&b, "%s%s", i ? ", " : "", c->requests[i]);
	add_evidence(r, "%s %s over %s",
	    c->match_attribute != NULL ? "matchAttribute" : "distinctAttribute",
	    attr, b.len > 0 ? dra_buf_str(&b) : "every request");
	dra_buf_release(&b);
	for (i = 0; i < sp->nrequests; i++) {
		const struct kube_request	*rq = &sp->requests[i];
		size_t				 nalt;

		nalt = rq->exactly != NULL ? 1 : rq->nfirst_available;
		for (k = 0; k < nalt; k++) {
			const struct kube_device_request *dr = rq->exactly != NULL ?
			    rq->exactly : &rq->first_available[k];

			if (rq->exactly != NULL)
				snprintf(name, sizeof name, "%s", rq->name);
			else
				snprintf(name, sizeof name, "%s/%s", rq->name,
				    dr->name);
			if (!constraint_covers(c, name))
				continue;
			dra_buf_init(&b, DRA_BUF_MAX_SMALL);
			candidates(st, a, node, n, wc->ref.namespace, dr, attr,
			    &b);
			add_evidence(r, "request %s can use: %s", name,
			    b.len > 0 ? dra_buf_str(&b) : "(none)");
			dra_buf_release(&b);
		}
	}
}

/*
 * Whether the pending claims would fit on node without their
 * constraints: then the constraints are what fails.
 */
static int
constraints_matter(struct why_state *st, struct dra_allocator *a,
    const char *node, const struct kube_node *n)
{
	struct dra_claim_ref	*refs;
	struct kube_claim_spec	*specs;
	struct dra_alloc_result	 res;
	struct dra_err		 e;
	size_t			 i, nc = 0;
	int			 fits = 0;

	refs = xcalloc(st->npending, sizeof *refs);
	specs = xcalloc(st->npending, sizeof *specs);
	for (i = 0; i < st->npending; i++) {
		specs[i] = *st->pending[i].ref.spec;
		nc += specs[i].nconstraints;
		specs[i].constraints = NULL;
		specs[i].nconstraints = 0;
		refs[i] = st->pending[i].ref;
		refs[i].spec = &specs[i];
	}
	memset(&res, 0, sizeof res);
	if (nc > 0 && dra_allocate(a, node, n, refs, st->npending, &res,
	    &e) == KUBE_OK)
		fits = res.status == DRA_ALLOC_OK;
	dra_alloc_result_free(&res);
	free(refs);
	free(specs);
	return fits;
}

static int
cmp_i64(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;

	return a < b ? -1 : a > b;
}

/*
 * What device d consumes of counter ci of set, or -1 when it does not
 * draw on that set at all.
 */
static int64_t
consumes(const struct kube_device *d, const struct kube_counter_set *set,
    size_t ci)
{
	size_t	i, j;
	int	uses = 0;

	for (i = 0; i < d->nconsumes; i++) {
		if (d->consumes[i].set != set)
			continue;
		uses = 1;
		for (j = 0; j < d->consumes[i].ncounters; j++) {
			if (strcmp(d->consumes[i].counters[j].name,
			    set->counters[ci].name) == 0)
				return d->consumes[i].counters[j].value.milli;
		}
	}
	return uses ? 0 : -1;
}

/*
 * Requests that fit one by one but not together, because their
 * devices draw on the same counters: for each counter of each counter
 * set that every candidate of a request draws on, the least that
 * request takes (its count cheapest candidates); when the requests
 * together take more than the counter has left, that is the reason.
 * A lower bound, so a reason given is a certain one.  Returns 1 when
 * one was added.
 */
static int
explain_counters(struct why_state *st, struct dra_allocator *a,
    const char *node, const struct kube_node *n)
{
	const struct kube_device	**devs;
	const struct kube_counter_set	*sets[64];
	struct dra_check_detail		 det;
	struct dra_why_reason		*r;
	size_t				 nsets = 0, ndevs, ncand, i, j, k, q;
	size_t				 ci, si, want;
	int64_t				*v, total, left, need;
	char				*h, *qt, *qleft;
	int				 every, found = 0;

	ndevs = reachable_devices(st, node, &devs);
	for (i = 0; i < ndevs; i++) {
		for (j = 0; j < devs[i]->nconsumes; j++) {
			const struct kube_counter_set *set =
			    devs[i]->consumes[j].set;

			for (k = 0; set != NULL && k < nsets; k++)
				if (sets[k] == set)
					break;
			if (set != NULL && k == nsets && nsets < 64)
				sets[nsets++] = set;
		}
	}
	v = xcalloc(ndevs + 1, sizeof *v);
	for (si = 0; si < nsets && !found; si++) {
		const struct kube_counter_set *set = sets[si];

		for (ci = 0; ci < set->ncounters && !found; ci++) {
			total = 0;
			for (i = 0; i < st->npending; i++) {
				const struct kube_claim_spec *sp =
				    st->pending[i].ref.spec;

				for (j = 0; j < sp->nrequests; j++) {
					const struct kube_device_request *dr =
					    sp->requests[j].exactly;

					if (dr == NULL ||
					    dr->mode != KUBE_MODE_EXACT_COUNT)
						continue;
					want = dr->count > 0 ?
					    (size_t)dr->count : 1;
					ncand = 0;
					every = 1;
					for (k = 0; k < ndevs && every; k++) {
						memset(&det, 0, sizeof det);
						if (dra_device_check(a, node, n,
						    st->pending[i].ref.namespace,
						    dr, devs[k], &det) ==
						    DRA_CHECK_OK) {
							need = consumes(devs[k],
							    set, ci);
							if (need < 0)
								every = 0;
							else
								v[ncand++] = need;
						}
						free(det.message);
					}
					if (!every || ncand == 0)
						continue;
					qsort(v, ncand, sizeof *v, cmp_i64);
					for (q = 0; q < want && q < ncand; q++)
						total += v[q];
				}
			}
			left = set->counters[ci].value.milli -
			    (set->consumed != NULL ? set->consumed[ci] : 0);
			if (total <= left)
				continue;
			found = 1;
			qt = fmt_quantity(total);
			qleft = fmt_quantity(left);
			h = counter_users(st, set);
			r = add_reason(st->w, node, st->npending == 1 ?
			    st->pending[0].name : NULL, NULL, "counters",
			    "every request has devices on node %s, but "
			    "together they need more of counter set %s than it "
			    "has left", node, set->name);
			add_evidence(r, "counter set %s, counter %s: the "
			    "requests need at least %s together, %s left%s%s%s",
			    set->name, set->counters[ci].name, qt, qleft,
			    *h != '\0' ? " (consumed by " : "", h,
			    *h != '\0' ? ")" : "");
			free(qt);
			free(qleft);
			free(h);
		}
	}
	free(v);
	return found;
}

/* The reasons of one node that does not fit. */
static void
explain_node(struct why_state *st, struct dra_allocator *a,
    const char *node, const struct kube_node *n)
{
	size_t	i, j, k, before = st->w->nreasons;
	char	name[512];

	for (i = 0; i < st->npending; i++) {
		const struct why_claim		*wc = &st->pending[i];
		const struct kube_claim_spec	*sp = wc->ref.spec;

		for (j = 0; j < sp->nrequests; j++) {
			const struct kube_request *rq = &sp->requests[j];

			if (rq->exactly != NULL) {
				explain_request(st, a, node, n, wc, rq->name,
				    rq->exactly);
				continue;
			}
			/* firstAvailable: it fails only if every one does. */
			for (k = 0; k < rq->nfirst_available; k++) {
				snprintf(name, sizeof name, "%s/%s", rq->name,
				    rq->first_available[k].name);
				explain_request(st, a, node, n, wc, name,
				    &rq->first_available[k]);
			}
		}
	}
	if (st->w->nreasons > before)
		return;
	/*
	 * Every request fits alone: together they do not.  The constraints
	 * are the cause only if the claims fit without them.
	 */
	if (constraints_matter(st, a, node, n)) {
		for (i = 0; i < st->npending; i++) {
			const struct why_claim		*wc = &st->pending[i];
			const struct kube_claim_spec	*sp = wc->ref.spec;
			struct dra_why_reason		*r;

			if (sp->nconstraints == 0)
				continue;
			r = add_reason(st->w, node, wc->name, NULL,
			    "constraint", "every request has devices on node "
			    "%s, but no choice of them satisfies the claim's "
			    "constraints", node);
			for (j = 0; j < sp->nconstraints; j++)
				explain_constraint(st, a, node, n, wc,
				    &sp->constraints[j], r);
			return;
		}
	}
	if (explain_counters(st, a, node, n))
		return;
	add_reason(st->w, node, st->npending == 1 ? st->pending[0].name : NULL,
	    NULL, "combination", "every request has devices on node %s, but "
	    "not all of them at once: the picks share counters or capacity, "
	    "or the claims compete for the same devices", node);
}

/*
 * adminAccess: the API server admits it only in a namespace labelled
 * resource.kubernetes.io/admin-access: "true" (Kubernetes 1.34+).  Known
 * only when the snapshot holds the claim's Namespace.
 */
static int
admin_refused(struct why_state *st, const char *cname,
    const struct kube_claim_spec *spec)
{
	const struct kube_namespace	*ns = NULL;
	const char			*v, *slash;
	size_t				 i, j, len;
	int				 admin = 0;

	for (i = 0; i < spec->nrequests && !admin; i++) {
		const struct kube_request *rq = &spec->requests[i];

		if (rq->exactly != NULL)
			admin = rq->exactly->admin_access;
		for (j = 0; j < rq->nfirst_available && !admin; j++)
			admin = rq->first_available[j].admin_access;
	}
	slash = strchr(cname, '/');
	if (!admin || slash == NULL)
		return 0;
	len = (size_t)(slash - cname);
	for (i = 0; i < st->s->namespaces.n && ns == NULL; i++) {
		const char *name = st->s->namespaces.v[i]->meta.name;

		if (strlen(name) == len && strncmp(name, cname, len) == 0)
			ns = st->s->namespaces.v[i];
	}
	if (ns == NULL)
		return 0;
	v = kube_kv_get(ns->meta.labels, ns->meta.nlabels,
	    "resource.kubernetes.io/admin-access");
	if (v != NULL && strcmp(v, "true") == 0)
		return 0;
	add_reason(st->w, NULL, cname, NULL, "rejected", "adminAccess needs "
	    "the label resource.kubernetes.io/admin-access: \"true\" on "
	    "namespace %.*s; without it the API server refuses the claim",
	    (int)len, cname);
	return 1;
}

/*
 * Whether the API server would refuse the claim or template: what the
 * model found (v1beta1 fields in a v1 object), or a selector whose CEL
 * does not compile (ValidateResourceClaim compiles every selector).
 * Adds the reason; such a claim never reaches the scheduler.
 */
static int
refused(struct why_state *st, const char *cname, const char *rejected,
    const struct kube_claim_spec *spec)
{
	struct dra_cel	*p;
	struct dra_err	 e;
	size_t		 i, j, k, n;
	char		 rname[512];

	if (rejected != NULL) {
		add_reason(st->w, NULL, cname, NULL, "rejected", "the API "
		    "server would refuse this object: %s", rejected);
		return 1;
	}
	if (admin_refused(st, cname, spec))
		return 1;
	for (i = 0; i < spec->nrequests; i++) {
		const struct kube_request *rq = &spec->requests[i];

		n = rq->exactly != NULL ? 1 : rq->nfirst_available;
		for (j = 0; j < n; j++) {
			const struct kube_device_request *dr =
			    rq->exactly != NULL ? rq->exactly :
			    &rq->first_available[j];

			if (rq->exactly != NULL)
				snprintf(rname, sizeof rname, "%s", rq->name);
			else
				snprintf(rname, sizeof rname, "%s/%s",
				    rq->name, dr->name);
			for (k = 0; k < dr->nselectors; k++) {
				dra_err_clear(&e);
				if (dra_cel_compile(dr->selectors[k], &p, &e) ==
				    KUBE_OK) {
					dra_cel_free(p);
					continue;
				}
				add_reason(st->w, NULL, cname, rname,
				    "rejected", "selector #%zu does not "
				    "compile, so the API server refuses the "
				    "claim: %s", k, e.msg);
				return 1;
			}
		}
	}
	return 0;
}

static void
add_pending(struct why_state *st, const struct kube_claim *c, const char *ns,
    const char *name, const struct kube_claim_spec *spec)
{
	struct why_claim	*wc;

	st->pending = xreallocarray(st->pending, st->npending + 1,
	    sizeof *st->pending);
	wc = &st->pending[st->npending++];
	wc->ref.namespace = ns;
	wc->ref.name = name;
	wc->ref.spec = spec;
	wc->claim = c;
	wc->name = claim_name(ns, name);
}

/* A claim that is allocated: its devices, and the node it pins. */
static void
add_allocated(struct why_state *st, const struct kube_claim *c)
{
	char	*cname = claim_name(c->meta.namespace, c->meta.name);
	size_t	 i;

	for (i = 0; i < c->nresults; i++) {
		const struct kube_result *r = &c->results[i];

		add_device(st->w, c, cname, r->request, r->dev, r->driver,
		    r->pool, r->device, r->admin_access, r->consumed,
		    r->nconsumed);
	}
	if (st->nallocated < WHY_MAX_ALLOCATED)
		st->allocated[st->nallocated++] = c;
	free(cname);
}

/*
 * An allocated claim whose reservedFor is full and does not name pod:
 * PreFilter refuses the pod ("resourceclaim in use").
 */
static void
reserved_full(struct why_state *st, const struct kube_claim *c,
    const struct kube_pod *pod)
{
	char	*cn;
	size_t	 i;

	if (c->nreserved < WHY_MAX_RESERVED)
		return;
	for (i = 0; i < c->nreserved; i++) {
		if (c->reserved[i].name != NULL &&
		    strcmp(c->reserved[i].name, pod->meta.name) == 0)
			return;
	}
	cn = claim_name(c->meta.namespace, c->meta.name);
	add_reason(st->w, NULL, cn, NULL, "reserved-full", "ResourceClaim %s "
	    "is reserved for %zu pods already, the most reservedFor holds, "
	    "and not for pod %s: the scheduler refuses the pod (resourceclaim "
	    "in use)", cn, c->nreserved, pod->meta.name);
	free(cn);
}

/*
 * A pending claim that is being deleted is never allocated: the
 * scheduler's PreFilter refuses the pod ("resourceclaim ... is being
 * deleted").  Returns 1 (and a reason) when c is one.
 */
static int
deleted_claim(struct why_state *st, const struct kube_claim *c)
{
	char	*cn;

	if (c->meta.deleted == 0)
		return 0;
	cn = claim_name(c->meta.namespace, c->meta.name);
	add_reason(st->w, NULL, cn, NULL, "claim-deleted", "ResourceClaim %s "
	    "is being deleted (deletionTimestamp is set): the scheduler "
	    "will not allocate it", cn);
	free(cn);
	return 1;
}

static int
collect_claims(struct why_state *st, struct dra_err *err)
{
	const struct dra_why_target	*t = st->t;
	const struct kube_pod		*pod = t->pod;
	size_t				 i;
	int				 allocated = 0, rc;
	char				*cn;

	if (t->claim != NULL) {
		const struct kube_claim *c = t->claim;

		if (c->allocated) {
			add_allocated(st, c);
			return 1;
		}
		if (deleted_claim(st, c))
			return -1;
		cn = claim_name(c->meta.namespace, c->meta.name);
		rc = refused(st, cn, c->rejected, &c->spec);
		free(cn);
		if (rc)
			return -1;
		/* A claim made from a template is no snapshot object. */
		add_pending(st, st->from_tmpl ? NULL : c, c->meta.namespace,
		    c->meta.name, &c->spec);
		return 0;
	}
	for (i = 0; i < pod->nclaims; i++) {
		const struct kube_pod_claim		*pc = &pod->claims[i];
		const struct kube_claim_template	*tpl;

		if (pc->claim != NULL && pc->claim->allocated) {
			add_allocated(st, pc->claim);
			allocated++;
			reserved_full(st, pc->claim, pod);
		} else if (pc->claim != NULL) {
			cn = claim_name(pc->claim->meta.namespace,
			    pc->claim->meta.name);
			if (!deleted_claim(st, pc->claim) && !refused(st, cn,
			    pc->claim->rejected, &pc->claim->spec))
				add_pending(st, pc->claim,
				    pc->claim->meta.namespace,
				    pc->claim->meta.name, &pc->claim->spec);
			free(cn);
		} else if (pc->template_name != NULL &&
		    (tpl = kube_snapshot_template(st->s, pod->meta.namespace,
		    pc->template_name)) != NULL) {
			cn = claim_name(pod->meta.namespace, pc->template_name);
			if (!refused(st, cn, tpl->rejected, &tpl->spec))
				add_pending(st, NULL, pod->meta.namespace,
				    pc->template_name, &tpl->spec);
			free(cn);
		} else {
			cn = claim_name(pod->meta.namespace,
			    pc->claim_name != NULL ? pc->claim_name :
			    pc->template_name != NULL ? pc->template_name :
			    pc->name);
			add_reason(st->w, NULL, cn, NULL, "claim-missing",
			    "pod claim %s: %s %s does not exist", pc->name,
			    pc->claim_name != NULL ? "ResourceClaim" :
			    "ResourceClaimTemplate", cn);
			free(cn);
		}
	}
	if (st->w->nreasons > 0)
		return -1;
	return allocated == (int)pod->nclaims && pod->nclaims > 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The nodes to try, by name. */
static void
collect_nodes(struct why_state *st)
{
	const struct kube_snapshot	*s = st->s;
	size_t				 i, j, k;

	st->nodes = xreallocarray(NULL, s->nodes.n + s->slices.n + 1,
	    sizeof *st->nodes);
	st->node_objs = xreallocarray(NULL, s->nodes.n + s->slices.n + 1,
	    sizeof *st->node_objs);
	if (s->nodes.n > 0) {
		for (i = 0; i < s->nodes.n; i++) {
			const struct kube_node	*n = s->nodes.v[i];

			if (st->t->node != NULL &&
			    strcmp(st->t->node, n->meta.name) != 0)
				continue;
			if (n->unschedulable) {
				add_reason(st->w, n->meta.name, NULL, NULL,
				    "node-unschedulable", "node %s is "
				    "cordoned (spec.unschedulable)",
				    n->meta.name);
				continue;
			}
			st->nodes[st->nnodes++] = n->meta.name;
		}
	} else {
		for (i = 0; i < s->slices.n; i++) {
			const struct kube_slice	*sl = s->slices.v[i];
			const char		*nn = sl->node_name;

			for (j = 0; j <= sl->ndevices; j++) {
				if (j > 0)
					nn = sl->devices[j - 1].node_name;
				if (nn == NULL || (st->t->node != NULL &&
				    strcmp(st->t->node, nn) != 0))
					continue;
				for (k = 0; k < st->nnodes; k++) {
					if (strcmp(st->nodes[k], nn) == 0)
						break;
				}
				if (k == st->nnodes)
					st->nodes[st->nnodes++] = nn;
			}
		}
		if (st->nnodes == 0 && st->t->node != NULL)
			st->nodes[st->nnodes++] = st->t->node;
		qsort(st->nodes, st->nnodes, sizeof *st->nodes, cmp_str);
	}
	for (i = 0; i < st->nnodes; i++)
		st->node_objs[i] = kube_snapshot_node(s, st->nodes[i]);
	/* The pod's nodeSelector and required node affinity. */
	for (i = j = 0; st->t->pod != NULL && i < st->nnodes; i++) {
		if (!kube_pod_fits_node(st->t->pod, st->nodes[i],
		    st->node_objs[i])) {
			add_reason(st->w, st->nodes[i], NULL, NULL,
			    "node-affinity", "pod %s does not fit node %s: "
			    "its nodeName, nodeSelector or required node "
			    "affinity names other nodes",
			    st->t->pod->meta.name, st->nodes[i]);
			continue;
		}
		st->nodes[j] = st->nodes[i];
		st->node_objs[j++] = st->node_objs[i];
	}
	if (st->t->pod != NULL)
		st->nnodes = j;
	/* Allocated claims: only nodes that reach their devices. */
	for (i = j = 0; i < st->nnodes; i++) {
		for (k = 0; k < st->nallocated; k++) {
			const struct kube_claim *c = st->allocated[k];

			if (c->alloc_nodes != NULL &&
			    !kube_node_selector_match(c->alloc_nodes,
			    st->nodes[i], st->node_objs[i]))
				break;
		}
		if (k < st->nallocated) {
			add_reason(st->w, st->nodes[i], NULL, NULL,
			    "claim-not-on-node", "ResourceClaim %s/%s is "
			    "allocated on devices node %s cannot reach "
			    "(allocation nodeSelector: %s)",
			    st->allocated[k]->meta.namespace,
			    st->allocated[k]->meta.name, st->nodes[i],
			    st->allocated[k]->alloc_nodes->summary != NULL ?
			    st->allocated[k]->alloc_nodes->summary : "?");
			continue;
		}
		st->nodes[j] = st->nodes[i];
		st->node_objs[j++] = st->node_objs[i];
	}
	st->nnodes = j;
}

static int
new_allocator(struct why_state *st, struct dra_allocator **a,
    struct dra_err *err)
{
	return dra_allocator_new(st->s, &st->opts, a, err);
}

/*
 * The reason for an allocator error that fails the pod on every node,
 * with the incomplete pools behind "currently being updated".
 */
static void
blocked_reason(struct why_state *st, const struct dra_alloc_result *res)
{
	struct dra_why_reason	*r;
	size_t			 i;

	r = add_reason(st->w, NULL, st->npending == 1 ? st->pending[0].name :
	    NULL, NULL, "allocator-error", "%s (this fails the pod on every "
	    "node)", res->message != NULL ? res->message : "allocator error");
	if (res->message == NULL ||
	    strstr(res->message, "being updated") == NULL)
		return;
	for (i = 0; i < st->s->pools.n; i++) {
		const struct kube_pool *p = st->s->pools.v[i];

		if (!p->complete)
			add_evidence(r, "pool %s/%s is incomplete: %zu of %"
			    PRId64 " slices of generation %" PRId64 " are "
			    "published", p->driver, p->name, p->nslices,
			    p->slice_count, p->generation);
	}
}

/* Run the allocator on every node; returns how many fit. */
static int
try_nodes(struct why_state *st, struct dra_allocator *a, int explain,
    int record, const char **first, struct dra_err *err)
{
	struct dra_alloc_result	 res;
	size_t			 i, j, explained = 0;
	int			 fit = 0, rc, unknown = 0;

	*first = NULL;
	/* Without a record, one node that fits is the answer. */
	for (i = 0; i < st->nnodes && (record || fit == 0); i++) {
		const char *node = st->nodes[i];

		memset(&res, 0, sizeof res);
		rc = dra_allocate(a, node, st->node_objs[i], st->refs,
		    st->npending, &res, err);
		if (rc != KUBE_OK)
			return -1;
		switch (res.status) {
		case DRA_ALLOC_OK:
			if (record) {
				st->w->fit_nodes = xreallocarray(
				    st->w->fit_nodes, st->w->nfit_nodes + 1,
				    sizeof *st->w->fit_nodes);
				st->w->fit_nodes[st->w->nfit_nodes++] =
				    xstrdup(node);
			}
			if (fit++ == 0) {
				*first = node;
				if (record) {
					for (j = 0; j < res.npicks; j++) {
						const struct dra_alloc_pick *p =
						    &res.picks[j];
						const struct why_claim *wc =
						    &st->pending[p->claim];

						add_device(st->w, wc->claim,
						    wc->name, p->request,
						    p->device,
						    p->device->slice->driver,
						    p->device->slice->pool_name,
						    p->device->name,
						    p->admin_access,
						    p->consumed,
						    p->nconsumed);
					}
				}
			}
			break;
		case DRA_ALLOC_ERROR:
			if (res.blocks_everywhere) {
				if (record)
					blocked_reason(st, &res);
				dra_alloc_result_free(&res);
				return -2;
			}
			if (record && explain)
				add_reason(st->w, node, NULL, NULL,
				    "allocator-error", "%s", res.message != NULL
				    ? res.message : "allocator error");
			break;
		case DRA_ALLOC_UNKNOWN:
			unknown++;
			if (record)
				add_reason(st->w, node, NULL, NULL,
				    "unsupported", "%s", res.message != NULL ?
				    res.message : "no verdict");
			break;
		case DRA_ALLOC_NO_FIT:
			if (explain && record &&
			    explained++ < WHY_MAX_EXPLAINED)
				explain_node(st, a, node, st->node_objs[i]);
			else if (explain && record)
				add_reason(st->w, node, NULL, NULL,
				    "cannot-allocate", "cannot allocate all "
				    "claims (not explained: more than %d "
				    "nodes)", WHY_MAX_EXPLAINED);
			break;
		}
		dra_alloc_result_free(&res);
	}
	if (fit == 0 && unknown > 0)
		return -3;
	return fit;
}

/*
 * Whether a node fits once the holders with mask[i] set release their
 * devices (every holder when mask is NULL).  Returns the number of
 * nodes that fit, or -1 on error.
 */
static int
fits_released(struct why_state *st, const int *mask, struct dra_err *err)
{
	struct dra_allocator	*a;
	const char		*first;
	size_t			 i;
	int			 n;

	if (new_allocator(st, &a, err) != KUBE_OK)
		return -1;
	for (i = 0; i < st->nholders; i++) {
		if (mask == NULL || mask[i])
			dra_allocator_release(a, st->holders[i]);
	}
	n = try_nodes(st, a, 0, 0, &first, err);
	dra_allocator_free(a);
	return n < -1 ? 0 : n;
}

static void
add_release(struct why_state *st, const struct kube_claim *c)
{
	st->w->release = xreallocarray(st->w->release, st->w->nrelease + 1,
	    sizeof *st->w->release);
	st->w->release[st->w->nrelease++] = claim_name(c->meta.namespace,
	    c->meta.name);
}

/*
 * No node fits: would one, once the holders found while explaining
 * release their devices?  If one holder alone is enough, name every
 * holder that is (any one of them will do); else keep, greedily, only
 * the holders whose release is needed (all of them together).
 */
static int
try_release(struct why_state *st, struct dra_err *err)
{
	size_t	i;
	int	*mask, n;

	if (st->nholders == 0)
		return 0;
	if ((n = fits_released(st, NULL, err)) <= 0)
		return n;
	mask = xcalloc(st->nholders, sizeof *mask);
	if (st->nholders > 1 && st->nholders <= WHY_MAX_SINGLES) {
		for (i = 0; i < st->nholders; i++) {
			mask[i] = 1;
			if ((n = fits_released(st, mask, err)) < 0)
				goto out;
			if (n > 0)
				add_release(st, st->holders[i]);
			mask[i] = 0;
		}
		if (st->w->nrelease > 0) {
			st->w->release_any = st->w->nrelease > 1;
			n = 1;
			goto out;
		}
	}
	/* Greedy: drop each holder whose release is not needed. */
	for (i = 0; i < st->nholders; i++)
		mask[i] = 1;
	for (i = 0; i < st->nholders; i++) {
		mask[i] = 0;
		if ((n = fits_released(st, mask, err)) < 0)
			goto out;
		if (n == 0)
			mask[i] = 1;
	}
	for (i = 0; i < st->nholders; i++) {
		if (mask[i])
			add_release(st, st->holders[i]);
	}
	n = 1;
out:
	free(mask);
	return n;
}

/*
 * Whether every per-node reason's code is must or one of also[], and
 * must appears at least once (reasons of nodes the pod may not use are
 * left out).
 */
static int
all_codes(const struct dra_why *w, const char *must, const char *const *also)
{
	size_t	i, j;
	int	ok, seen = 0;

	for (i = 0; i < w->nreasons; i++) {
		/* Nodes the pod cannot use at all do not count. */
		if (w->reasons[i].node == NULL ||
		    strcmp(w->reasons[i].code, "node-affinity") == 0 ||
		    strcmp(w->reasons[i].code, "node-unschedulable") == 0 ||
		    strcmp(w->reasons[i].code, "claim-not-on-node") == 0)
			continue;
		if (strcmp(w->reasons[i].code, must) == 0) {
			seen = 1;
			continue;
		}
		for (j = 0, ok = 0; also[j] != NULL && !ok; j++)
			ok = strcmp(w->reasons[i].code, also[j]) == 0;
		if (!ok)
			return 0;
	}
	return seen;
}

/*
 * "never": when every node fails for the same kind of reason (beside
 * nodes that hold no matching device at all), say it once for every
 * node; the summary uses it.
 */
static void
never_cause(struct why_state *st)
{
	static const char *const nomatch[] = { "class-selector",
	    "request-selector", "no-devices", NULL };
	static const char *const nomatch_count[] = { "class-selector",
	    "request-selector", "no-devices", "count", NULL };
	static const char *const none[] = { NULL };
	struct dra_why	*w = st->w;

	if (all_codes(w, "no-devices", none)) {
		add_reason(w, NULL, NULL, NULL, "no-devices", "no ResourceSlice "
		    "publishes a device that the %zu node%s the pod may use "
		    "can reach: is the DRA driver running there?", w->nnodes,
		    w->nnodes == 1 ? "" : "s");
		st->never = "no device is published for the nodes it may use";
	} else if (all_codes(w, "class-selector", nomatch) ||
	    all_codes(w, "request-selector", nomatch)) {
		add_reason(w, NULL, NULL, NULL, "no-match", "no device on %s%zu "
		    "node%s matches the selectors: check the DeviceClass and "
		    "the request's CEL against the devices' attributes "
		    "(kubectl dra get devices -o wide)", w->nnodes == 1 ? "the " :
		    "any of the ", w->nnodes, w->nnodes == 1 ? "" : "s");
		st->never = "no device on any node matches the selectors";
	} else if (all_codes(w, "pool-incomplete", nomatch_count)) {
		add_reason(w, NULL, NULL, NULL, "pools-updating", "the devices "
		    "that would fit are in pools that are being updated "
		    "(fewer slices than resourceSliceCount at the newest "
		    "generation): the scheduler ignores such a pool until "
		    "its driver has published every slice");
		st->never = "not while its pools are incomplete (being "
		    "updated)";
	} else if (all_codes(w, "taint", nomatch_count)) {
		add_reason(w, NULL, NULL, NULL, "tainted", "the devices it "
		    "needs carry NoSchedule or NoExecute taints its requests "
		    "do not tolerate: add a toleration, or remove the taint "
		    "(kubectl dra describe device)");
		st->never = "its devices carry taints it does not tolerate";
	} else if (all_codes(w, "count", nomatch)) {
		add_reason(w, NULL, NULL, NULL, "exceeds-node", "no node has "
		    "as many matching devices as the claim asks for; a "
		    "request's devices must all come from one node");
		st->never = "the claim asks for more devices than any node "
		    "has";
	}
}

static void
summarize(struct why_state *st)
{
	struct dra_why	*w = st->w;
	struct dra_buf	 b;
	size_t		 i;

	dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	switch (w->verdict) {
	case DRA_WHY_ALLOCATED:
		dra_buf_addf(&b, "allocated%s%s", w->node != NULL ?
		    " on node " : "", w->node != NULL ? w->node : "");
		break;
	case DRA_WHY_ALLOCATABLE:
		dra_buf_addf(&b, "allocatable now: %zu of %zu node%s fit%s, "
		    "first %s", w->nfit_nodes, w->nnodes,
		    w->nnodes == 1 ? "" : "s", w->nfit_nodes == 1 ? "s" : "",
		    w->node);
		break;
	case DRA_WHY_AFTER_RELEASE:
		dra_buf_addf(&b, "not allocatable now; allocatable once %s",
		    w->release_any ? "any one of " : "");
		for (i = 0; i < w->nrelease; i++)
			dra_buf_addf(&b, "%s%s", i == 0 ? "" :
			    i + 1 == w->nrelease ? (w->release_any ? " or " :
			    " and ") : ", ", w->release[i]);
		dra_buf_adds(&b, w->nrelease == 1 || w->release_any ?
		    " releases its devices" : " release their devices");
		break;
	case DRA_WHY_NEVER:
		if (st->never != NULL)
			dra_buf_addf(&b, "never: %s", st->never);
		else if (w->nnodes == 0)
			dra_buf_adds(&b, "never: there is no node to "
			    "schedule on");
		else
			dra_buf_addf(&b, "never: no node of %zu fits, and "
			    "releasing claims would not help", w->nnodes);
		break;
	case DRA_WHY_BLOCKED:
		dra_buf_adds(&b, "blocked: an allocator error fails the "
		    "pod on every node");
		break;
	case DRA_WHY_UNKNOWN:
		dra_buf_adds(&b, "unknown: the allocator could not decide "
		    "(see the reasons)");
		break;
	}
	w->summary = dra_buf_take(&b);
}

static void
state_free(struct why_state *st)
{
	size_t	i;

	for (i = 0; i < st->npending; i++)
		free(st->pending[i].name);
	free(st->pending);
	free(st->refs);
	free(st->nodes);
	free(st->node_objs);
	free(st->holders);
	free(st->devs);
}

int
dra_why(const struct kube_snapshot *s, const struct dra_why_target *t,
    struct dra_why **out, struct dra_err *err)
{
	struct kube_claim	 from_tmpl;
	struct dra_why_target	 tt;
	struct why_state	 st;
	struct dra_allocator	*a = NULL;
	struct dra_why		*w;
	const char		*first;
	int			 rc, n;
	size_t			 i;

	*out = NULL;
	if (!s->finished)
		return dra_err_set(err, KUBE_E_CONFIG, "snapshot not finished");
	if ((t->claim != NULL) + (t->pod != NULL) + (t->tmpl != NULL) != 1)
		return dra_err_set(err, KUBE_E_CONFIG, "explain a claim, a pod "
		    "or a template");
	if (t->tmpl != NULL) {
		/* The claim the resourceclaim controller would make. */
		memset(&from_tmpl, 0, sizeof from_tmpl);
		from_tmpl.meta = t->tmpl->meta;
		from_tmpl.spec = t->tmpl->spec;
		from_tmpl.rejected = t->tmpl->rejected;
		tt = *t;
		tt.claim = &from_tmpl;
		tt.tmpl = NULL;
		t = &tt;
	}
	memset(&st, 0, sizeof st);
	st.s = s;
	st.t = t;
	st.from_tmpl = t == &tt;
	st.opts.features = t->features != 0 ? t->features :
	    DRA_FEATURES_1_37;
	st.opts.max_steps = t->max_steps;
	w = st.w = xcalloc(1, sizeof *w);
	w->allocatable = -1;

	rc = collect_claims(&st, err);
	if (rc == -1) {
		w->verdict = DRA_WHY_NEVER;
		w->allocatable = 0;
		st.never = w->reasons[0].message;
		goto done;
	}
	if (rc == 1 && t->claim != NULL) {
		w->verdict = DRA_WHY_ALLOCATED;
		w->allocatable = 1;
		if (t->claim->alloc_nodes != NULL)
			w->node = xstrdup(t->claim->alloc_nodes->single_node !=
			    NULL ? t->claim->alloc_nodes->single_node :
			    t->claim->alloc_nodes->summary);
		goto done;
	}
	st.refs = xreallocarray(NULL, st.npending + 1, sizeof *st.refs);
	for (i = 0; i < st.npending; i++)
		st.refs[i] = st.pending[i].ref;
	collect_nodes(&st);
	w->nnodes = st.nnodes;
	if (rc == 1) {
		/* A pod whose claims are all allocated: can it run anywhere? */
		if (st.nnodes > 0) {
			w->verdict = DRA_WHY_ALLOCATED;
			w->allocatable = 1;
			w->node = xstrdup(st.nodes[0]);
		} else {
			w->verdict = DRA_WHY_NEVER;
			w->allocatable = 0;
			st.never = "its claims are allocated on devices the "
			    "nodes it may use cannot reach";
		}
		goto done;
	}
	if (st.nnodes == 0) {
		if (w->nreasons > 0)
			add_reason(w, NULL, NULL, NULL, "no-nodes", "no node "
			    "is left to try: each was ruled out (see above)");
		else
			add_reason(w, NULL, NULL, NULL, "no-nodes", "no node "
			    "to schedule on: the snapshot has no schedulable "
			    "Node%s", t->node != NULL ? " of that name" :
			    " and no slice names one");
		w->verdict = DRA_WHY_NEVER;
		w->allocatable = 0;
		goto done;
	}
	if ((rc = new_allocator(&st, &a, err)) != KUBE_OK)
		goto fail;
	n = try_nodes(&st, a, 1, 1, &first, err);
	if (n == -1) {
		rc = err->code != 0 ? err->code : KUBE_E_CONFIG;
		goto fail;
	}
	if (n > 0) {
		w->verdict = DRA_WHY_ALLOCATABLE;
		w->allocatable = 1;
		w->node = xstrdup(first);
	} else if (n == -2) {
		/* Nodes tried before the error do not fit either. */
		for (i = 0; i < w->ndevices; i++)
			free_device(&w->devices[i]);
		w->ndevices = 0;
		for (i = 0; i < w->nfit_nodes; i++)
			free(w->fit_nodes[i]);
		w->nfit_nodes = 0;
		w->verdict = DRA_WHY_BLOCKED;
		w->allocatable = 0;
	} else if (n == -3) {
		w->verdict = DRA_WHY_UNKNOWN;
		w->allocatable = -1;
	} else {
		w->allocatable = 0;
		rc = try_release(&st, err);
		if (rc < 0) {
			rc = err->code != 0 ? err->code : KUBE_E_CONFIG;
			goto fail;
		}
		w->verdict = rc > 0 ? DRA_WHY_AFTER_RELEASE : DRA_WHY_NEVER;
		if (w->verdict == DRA_WHY_NEVER)
			never_cause(&st);
	}
done:
	summarize(&st);
	dra_allocator_free(a);
	state_free(&st);
	*out = w;
	return KUBE_OK;
fail:
	dra_allocator_free(a);
	state_free(&st);
	dra_why_free(w);
	return rc;
}

void
dra_why_free(struct dra_why *w)
{
	size_t	i;

	if (w == NULL)
		return;
	free(w->summary);
	free(w->node);
	for (i = 0; i < w->ndevices; i++)
		free_device(&w->devices[i]);
	free(w->devices);
	for (i = 0; i < w->nreasons; i++)
		free_reason(&w->reasons[i]);
	free(w->reasons);
	for (i = 0; i < w->nfit_nodes; i++)
		free(w->fit_nodes[i]);
	free(w->fit_nodes);
	for (i = 0; i < w->nrelease; i++)
		free(w->release[i]);
	free(w->release);
	free(w);
}
