/*
 * inventory.c: the GPUs to plan for, from a fleet spec or a snapshot,
 * and the snapshot that publishes them (inventory.h).
 *
 * From a snapshot, each GPU is first read on its own, with a geometry
 * of its own (derived) or the catalogue's (one per model); then the
 * GPUs are sorted and identical derived geometries are merged in that
 * order, so geometry indexes do not depend on the snapshot's object
 * order.  The snapshot writer builds each object as a small cJSON tree
 * and hands it to kube_snapshot_add(), one at a time, as the file
 * readers of kube/model do.
 */
#include "inventory.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <uthash.h>

#include "catalog.h"
#include "geometry.h"
#include "xmalloc.h"

#define MIB_MILLI	(1048576LL * 1000)
#define NAME_MAX_LEN	512

/* A GPU while it is read, with its own geometry until the merge. */
struct tgpu {
	struct plan_gpu		 g;
	struct plan_geometry	*geo;
	int			 owned;		/* geo is derived, ours */
};

struct tgpus {
	struct tgpu	*v;
	size_t		 n, cap;
};

/* Devices consuming one counter set. */
struct setgrp {
	const struct kube_counter_set	 *set;
	const struct kube_device	**devs;
	size_t				  n, cap;
	UT_hash_handle			  hh;
};

/* Devices of one GPU without counters: the whole device, MIG devices. */
struct statgrp {
	char				 *key;
	const struct kube_device	 *whole;
	const struct kube_device	**migs;
	size_t				  n, cap;
	UT_hash_handle			  hh;
};

/* Catalogue geometries by model, shared by static and whole GPUs. */
struct catgeo {
	const char		*model;		/* static catalogue name */
	struct plan_geometry	*geo;
	UT_hash_handle		 hh;
};

static void	warn_add(struct plan_warnings *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));

/* ------------------------------------------------------------------ */
/* Small helpers. */

void
plan_warnings_free(struct plan_warnings *w)
{
	size_t	i;

	if (w == NULL)
		return;
	for (i = 0; i < w->n; i++)
		free(w->v[i]);
	free(w->v);
	w->v = NULL;
	w->n = 0;
}

static void
warn_add(struct plan_warnings *w, const char *fmt, ...)
{
	va_list	 ap;
	char	 buf[1024];

	if (w == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	w->v = xreallocarray(w->v, w->n + 1, sizeof *w->v);
	w->v[w->n++] = xstrdup(buf);
}

static char *
xstrdup_or_null(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

static struct tgpu *
tgpu_add(struct tgpus *t)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->v = xreallocarray(t->v, t->cap, sizeof *t->v);
	}
	memset(&t->v[t->n], 0, sizeof t->v[t->n]);
	return &t->v[t->n++];
}

static void
gpu_release(struct plan_gpu *g, size_t ndevices)
{
	size_t	i;

	free(g->node);
	free(g->name);
	for (i = 0; i < g->nrunning; i++) {
		free(g->running[i].namespace);
		free(g->running[i].claim);
	}
	free(g->running);
	free(g->existing);
	if (g->devices != NULL)
		for (i = 0; i < ndevices; i++)
			free(g->devices[i]);
	free(g->devices);
	free(g->pci_bus_id);
}

void
plan_inventory_free(struct plan_inventory *inv)
{
	size_t	i, np;

	if (inv == NULL)
		return;
	for (i = 0; i < inv->ngpus; i++) {
		np = inv->gpus[i].geometry < inv->ngeometries ?
		    inv->geometries[inv->gpus[i].geometry]->nplacements : 0;
		gpu_release(&inv->gpus[i], np);
	}
	free(inv->gpus);
	for (i = 0; i < inv->ngeometries; i++)
		plan_geometry_free(inv->geometries[i]);
	free(inv->geometries);
	for (i = 0; i < inv->nusage; i++) {
		free(inv->usage[i].namespace);
		free(inv->usage[i].device_class);
	}
	free(inv->usage);
	free(inv->source);
	free(inv);
}

/* Add count to the usage of (ns, cls); cls NULL is the claims key. */
static void
usage_add(struct plan_inventory *inv, const char *ns, const char *cls,
    int64_t count)
{
	size_t	i;

	for (i = 0; i < inv->nusage; i++)
		if (strcmp(inv->usage[i].namespace, ns) == 0 &&
		    (cls == NULL ? inv->usage[i].device_class == NULL :
		    inv->usage[i].device_class != NULL &&
		    strcmp(inv->usage[i].device_class, cls) == 0)) {
			inv->usage[i].count += count;
			return;
		}
	inv->usage = xreallocarray(inv->usage, inv->nusage + 1,
	    sizeof *inv->usage);
	inv->usage[inv->nusage].namespace = xstrdup(ns);
	inv->usage[inv->nusage].device_class = cls != NULL ? xstrdup(cls) :
	    NULL;
	inv->usage[inv->nusage].count = count;
	inv->nusage++;
}

/* What one device request charges (All: the result's limit, 32). */
static int64_t
request_charge(const struct kube_device_request *r)
{
	return r->mode == KUBE_MODE_ALL ? 32 : r->count;
}

/*
 * The quota charges of every claim of s that the API server holds,
 * as Kubernetes 1.37's ResourceQuota evaluator for ResourceClaims
 * counts them (DRA-REFERENCE.md section 5).
 */
static void
read_usage(const struct kube_snapshot *s, struct plan_inventory *inv)
{
	const struct kube_claim		*c;
	const struct kube_request	*rq;
	const struct kube_device_request *sub;
	size_t				 i, j, k, m;
	int64_t				 best;

	for (i = 0; i < s->claims.n; i++) {
		c = s->claims.v[i];
		if (c->rejected != NULL || c->meta.namespace == NULL)
			continue;
		usage_add(inv, c->meta.namespace, NULL, 1);
		for (j = 0; j < c->spec.nrequests; j++) {
			rq = &c->spec.requests[j];
			if (rq->exactly != NULL) {
				if (rq->exactly->class_name != NULL)
					usage_add(inv, c->meta.namespace,
					    rq->exactly->class_name,
					    request_charge(rq->exactly));
				continue;
			}
			/* firstAvailable: per class, the largest count. */
			for (k = 0; k < rq->nfirst_available; k++) {
				sub = &rq->first_available[k];
				if (sub->class_name == NULL)
					continue;
				for (m = 0; m < k; m++)
					if (rq->first_available[m].class_name !=
					    NULL && strcmp(rq->first_available[m].
					    class_name, sub->class_name) == 0)
						break;
				if (m < k)
					continue;	/* counted */
				best = 0;
				for (m = k; m < rq->nfirst_available; m++)
					if (rq->first_available[m].class_name !=
					    NULL && strcmp(rq->first_available[m].
					    class_name, sub->class_name) == 0 &&
					    request_charge(
					    &rq->first_available[m]) > best)
						best = request_charge(
						    &rq->first_available[m]);
				usage_add(inv, c->meta.namespace,
				    sub->class_name, best);
			}
		}
	}
}

static void
running_add(struct plan_gpu *g, int placement, const char *ns,
    const char *claim)
{
	g->running = xreallocarray(g->running, g->nrunning + 1,
	    sizeof *g->running);
	g->running[g->nrunning].placement = placement;
	g->running[g->nrunning].namespace = xstrdup_or_null(ns);
	g->running[g->nrunning].claim = xstrdup_or_null(claim);
	g->nrunning++;
}

static int
cmp_gpu(const void *a, const void *b)
{
	const struct plan_gpu	*x = a, *y = b;
	int			 c;

	if ((c = strcmp(x->node, y->node)) != 0)
		return c;
	return strcmp(x->name, y->name);
}

static int
cmp_tgpu(const void *a, const void *b)
{
	return cmp_gpu(&((const struct tgpu *)a)->g,
	    &((const struct tgpu *)b)->g);
}

/* An HGX H100 board's PCI bus of GPU position i (gen_fleet.c gen_pci). */
static char *
board_pci(size_t i)
{
	static const int	bus[8] = {
		0x18, 0x2a, 0x3a, 0x5d, 0x9a, 0xab, 0xba, 0xdb
	};

	return xasprintf("0000:%02x:00.0", (unsigned)(bus[i % 8] +
	    2 * (i / 8)) & 0xff);
}

char *
plan_inventory_device(const struct plan_inventory *inv,
    const struct plan_gpu *g, int p, char *buf, size_t len)
{
	const struct plan_geometry	*geo;

	if (g->geometry >= inv->ngeometries)
		return NULL;
	geo = inv->geometries[g->geometry];
	if (p < 0 || (size_t)p >= geo->nplacements)
		return NULL;
	if (g->devices != NULL && g->devices[p] != NULL) {
		if ((size_t)snprintf(buf, len, "%s", g->devices[p]) >= len)
			return NULL;
		return buf;
	}
	return plan_device_name(geo, g->name, p, buf, len);
}

/* ------------------------------------------------------------------ */
/* Fleet specs. */

static int
fleet_error(struct dra_err *err, size_t item, const char *text, size_t len,
    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int
fleet_error(struct dra_err *err, size_t item, const char *text, size_t len,
    const char *fmt, ...)
{
	char	msg[768];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return dra_err_set(err, KUBE_E_CONFIG, "--fleet: item %zu \"%.*s\": "
	    "%s", item, (int)(len > 200 ? 200 : len), text, msg);
}

/* Digits at *p (blanks skipped before); -1 none, -2 too large. */
static long long
fleet_number(const char **p, const char *end)
{
	long long	v = 0;
	int		any = 0;

	while (*p < end && isblank((unsigned char)**p))
		(*p)++;
	while (*p < end && isdigit((unsigned char)**p)) {
		if (v > 100000000000LL)
			v = 100000000000LL;
		else
			v = v * 10 + (**p - '0');
		any = 1;
		(*p)++;
	}
	while (*p < end && isblank((unsigned char)**p))
		(*p)++;
	return any ? v : -1;
}

int
plan_inventory_from_fleet(const char *spec, struct plan_inventory **out,
    struct dra_err *err)
{
	struct plan_inventory	*inv;
	struct plan_geometry	*geo;
	struct plan_gpu		*g;
	struct dra_err		 cerr;
	const char		*p, *item, *end, *q, *mstart, *mend, *slash;
	char			 model[128], lower[128];
	size_t			*next = NULL, idx, gi, k, i, len;
	long long		 count, per, total = 0, left, onnode;
	size_t			 nodeno;

	*out = NULL;
	for (p = spec != NULL ? spec : ""; isspace((unsigned char)*p); p++)
		;
	if (*p == '\0')
		return dra_err_set(err, KUBE_E_CONFIG, "--fleet: empty");
	inv = xcalloc(1, sizeof *inv);
	inv->source = xasprintf("fleet %s", spec);
	p = spec;
	for (idx = 1;; idx++) {
		end = strchr(p, ',');
		if (end == NULL)
			end = p + strlen(p);
		item = p;
		while (item < end && isspace((unsigned char)*item))
			item++;
		len = (size_t)(end - item);
		while (len > 0 && isspace((unsigned char)item[len - 1]))
			len--;
		q = item;
		count = fleet_number(&q, item + len);
		if (count == -1 || q == item + len || (*q != 'x' && *q != 'X'))
			goto syntax;
		q++;
		while (q < item + len && isblank((unsigned char)*q))
			q++;
		mstart = q;
		slash = NULL;
		for (; q < item + len && slash == NULL; q++)
			if (*q == '/')
				slash = q;
		mend = slash != NULL ? slash : item + len;
		while (mend > mstart && isblank((unsigned char)mend[-1]))
			mend--;
		if (mend == mstart || (size_t)(mend - mstart) >= sizeof model)
			goto syntax;
		memcpy(model, mstart, (size_t)(mend - mstart));
		model[mend - mstart] = '\0';
		/* A model name is letters, digits, '-', '.', '_' and
		   blanks: anything else is a mistyped separator. */
		for (q = model; *q != '\0'; q++)
			if (!isalnum((unsigned char)*q) && *q != '-' &&
			    *q != '.' && *q != '_' && *q != ' ') {
				fleet_error(err, idx, item, len, "unexpected "
				    "'%c' in the model name (items are separated "
				    "by ',')", *q);
				goto fail;
			}
		per = 0;
		if (slash != NULL) {
			q = slash + 1;
			per = fleet_number(&q, item + len);
			if (per == -1 || q != item + len)
				goto syntax;
			if (per < 1 || per > PLAN_FLEET_MAX_PER_NODE) {
				fleet_error(err, idx, item, len, "GPUs per "
				    "node must be 1 to %d",
				    PLAN_FLEET_MAX_PER_NODE);
				goto fail;
			}
		}
		if (count < 1 || count > PLAN_FLEET_MAX_GPUS) {
			fleet_error(err, idx, item, len, "count must be 1 to "
			    "%d", PLAN_FLEET_MAX_GPUS);
			goto fail;
		}
		if (total + count > PLAN_FLEET_MAX_GPUS) {
			fleet_error(err, idx, item, len, "the fleet would hold "
			    "more than %d GPUs", PLAN_FLEET_MAX_GPUS);
			goto fail;
		}
		dra_err_clear(&cerr);
		if (plan_catalog_geometry(model, &geo, &cerr) != KUBE_OK) {
			fleet_error(err, idx, item, len, "%s", cerr.msg);
			goto fail;
		}
		for (gi = 0; gi < inv->ngeometries; gi++)
			if (strcmp(inv->geometries[gi]->model, geo->model) == 0)
				break;
		if (gi < inv->ngeometries)
			plan_geometry_free(geo);
		else {
			inv->geometries = xreallocarray(inv->geometries,
			    gi + 1, sizeof *inv->geometries);
			inv->geometries[gi] = geo;
			next = xreallocarray(next, gi + 1, sizeof *next);
			next[gi] = 0;
			inv->ngeometries++;
		}
		geo = inv->geometries[gi];
		if (per == 0)
			per = strncmp(geo->model, "A30", 3) == 0 ?
			    PLAN_FLEET_GPUS_PER_NODE_A30 :
			    PLAN_FLEET_GPUS_PER_NODE;
		for (k = 0; geo->model[k] != '\0' && k + 1 < sizeof lower;
		    k++)
			lower[k] = (char)tolower((unsigned char)geo->model[k]);
		lower[k] = '\0';
		inv->gpus = xreallocarray(inv->gpus, inv->ngpus + count,
		    sizeof *inv->gpus);
		for (left = count; left > 0; left -= onnode) {
			onnode = left < per ? left : per;
			nodeno = next[gi]++;
			for (i = 0; i < (size_t)onnode; i++) {
				g = &inv->gpus[inv->ngpus++];
				memset(g, 0, sizeof *g);
				g->node = xasprintf("%s-%zu", lower, nodeno);
				g->name = xasprintf("gpu-%zu", i);
				g->geometry = gi;
				g->mode = PLAN_MODE_DYNAMIC;
				g->pci_bus_id = board_pci(i);
			}
		}
		total += count;
		if (*end == '\0')
			break;
		p = end + 1;
		continue;
syntax:
		fleet_error(err, idx, item, len,
		    "expected COUNTxMODEL[/GPUS-PER-NODE]");
		goto fail;
	}
	free(next);
	qsort(inv->gpus, inv->ngpus, sizeof *inv->gpus, cmp_gpu);
	*out = inv;
	return KUBE_OK;
fail:
	free(next);
	plan_inventory_free(inv);
	return err != NULL ? err->code : KUBE_E_CONFIG;
}

/* ------------------------------------------------------------------ */
/* Reading a snapshot. */

static const char *
attr_str(const struct kube_device *d, const char *id)
{
	const struct kube_attr	*a = kube_device_attr(d, NULL, id);

	if (a == NULL || (a->type != KUBE_ATTR_STRING &&
	    a->type != KUBE_ATTR_VERSION))
		return NULL;
	return a->s;
}

/* The PCI bus ID, a standard attribute (fully qualified). */
static const char *
attr_pci(const struct kube_device *d)
{
	const struct kube_attr	*a;

	a = kube_device_attr(d, "resource.kubernetes.io", "pciBusID");
	if (a == NULL || a->type != KUBE_ATTR_STRING)
		return NULL;
	return a->s;
}

static const char *
dev_driver(const struct kube_device *d)
{
	return d->slice != NULL && d->slice->driver != NULL ?
	    d->slice->driver : "";
}

static const char *
dev_pool(const struct kube_device *d)
{
	return d->slice != NULL && d->slice->pool_name != NULL ?
	    d->slice->pool_name : "";
}

const char *
plan_device_node(const struct kube_device *d)
{
	const char	*n = kube_device_node(d);

	return n != NULL && *n != '\0' ? n : dev_pool(d);
}

const struct kube_claim *
plan_device_holder(const struct kube_device *d, int *nclaims)
{
	const struct kube_device_alloc	*al;
	const struct kube_claim		*first = NULL;
	size_t				 i, j;
	int				 dup;

	if (nclaims != NULL)
		*nclaims = 0;
	for (i = 0; i < d->nallocs; i++) {
		al = &d->allocs[i];
		if (al->claim == NULL || al->claim->rejected != NULL ||
		    al->result >= al->claim->nresults ||
		    al->claim->results[al->result].admin_access)
			continue;
		if (nclaims == NULL)
			return al->claim;
		dup = 0;
		for (j = 0; j < i && !dup; j++)
			dup = d->allocs[j].claim == al->claim;
		if (dup)
			continue;
		if (first == NULL)
			first = al->claim;
		(*nclaims)++;
	}
	return first;
}

/* N of "memory-slice-N", or -1. */
static int
memory_slice_index(const char *name)
{
	const char	*p;
	long		 v = 0;

	if (strncmp(name, "memory-slice-", 13) != 0)
		return -1;
	p = name + 13;
	if (*p == '\0')
		return -1;
	for (; *p != '\0'; p++) {
		if (!isdigit((unsigned char)*p) || v > 100000)
			return -1;
		v = v * 10 + (*p - '0');
	}
	return (int)v;
}

int
plan_profile_compute(const char *name)
{
	int	v = 0;

	if (!isdigit((unsigned char)*name))
		return 0;
	while (isdigit((unsigned char)*name) && v < 1000)
		v = v * 10 + (*name++ - '0');
	return name[0] == 'g' && name[1] == '.' ? v : 0;
}

static int
all_digits(const char *s, size_t n)
{
	size_t	i;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

/*
 * The GI profile ID and start of an NVIDIA MIG device name:
 * gpu-N-mig-<profile>-<giid>-<start> (v25.12 on) or
 * gpu-N-mig-<giid>-<start>-<size> (v25.3, v25.8).  Returns 1 when the
 * name has one of these forms; *giid or *start may be -1 otherwise.
 */
static int
parse_mig_name(const char *name, int *giid, int *start)
{
	const char	*p = strstr(name, "-mig-"), *part[16];
	size_t		 plen[16], n = 0, i;
	int		 numeric = 1;

	*giid = -1;
	*start = -1;
	if (p == NULL)
		return 0;
	p += 5;
	while (n < 16) {
		part[n] = p;
		p = strchr(p, '-');
		plen[n] = p != NULL ? (size_t)(p - part[n]) : strlen(part[n]);
		n++;
		if (p == NULL)
			break;
		p++;
	}
	if (n < 3 || p != NULL)
		return 0;
	for (i = 0; i < n; i++)
		if (!all_digits(part[i], plen[i]))
			numeric = 0;
	if (numeric && n == 3) {
		*giid = atoi(part[0]);
		*start = atoi(part[1]);
		return 1;
	}
	if (!all_digits(part[n - 1], plen[n - 1]) ||
	    !all_digits(part[n - 2], plen[n - 2]))
		return 0;
	*giid = atoi(part[n - 2]);
	*start = atoi(part[n - 1]);
	return 1;
}

/* The last number of a name ("...-4"), or -1. */
static int
name_last_number(const char *name)
{
	size_t	n = strlen(name), i = n;

	while (i > 0 && isdigit((unsigned char)name[i - 1]))
		i--;
	if (i == n || n - i > 6)
		return -1;
	return atoi(name + i);
}

static int64_t
counter_unit(const char *name)
{
	return strcmp(name, "memory") == 0 ? MIB_MILLI : 1000;
}

static int64_t
scale_down(int64_t milli, int64_t unit, int *inexact)
{
	if (milli % unit != 0)
		*inexact = 1;
	if (milli < 0)
		return -((-milli + unit - 1) / unit);
	return milli / unit;
}

static int64_t
scale_up(int64_t milli, int64_t unit, int *inexact)
{
	if (milli % unit != 0)
		*inexact = 1;
	if (milli < 0)
		return -(-milli / unit);
	return milli / unit + (milli % unit != 0);
}

static int
cmp_devname(const void *a, const void *b)
{
	const struct kube_device *x = *(const struct kube_device *const *)a;
	const struct kube_device *y = *(const struct kube_device *const *)b;

	return strcmp(x->name, y->name);
}

/* The consumption of set by d, or NULL. */
static const struct kube_device_counters *
consumption(const struct kube_device *d, const struct kube_counter_set *set)
{
	size_t	i;

	for (i = 0; i < d->nconsumes; i++)
		if (d->consumes[i].set == set)
			return &d->consumes[i];
	return NULL;
}

/* Whether d consumes every counter of set at its full value. */
static int
consumes_all(const struct kube_device *d, const struct kube_counter_set *set)
{
	const struct kube_device_counters	*c = consumption(d, set);
	size_t					 i, j;

	if (c == NULL || set->ncounters == 0)
		return 0;
	for (i = 0; i < set->ncounters; i++) {
		for (j = 0; j < c->ncounters; j++)
			if (strcmp(c->counters[j].name,
			    set->counters[i].name) == 0)
				break;
		if (j == c->ncounters ||
		    c->counters[j].value.milli != set->counters[i].value.milli)
			return 0;
	}
	return 1;
}

static int
cmp_counter(const void *a, const void *b)
{
	return strcmp((*(const struct kube_counter *const *)a)->name,
	    (*(const struct kube_counter *const *)b)->name);
}

/* The index of counter name in g, or g->ncounters. */
static size_t
counter_at(const struct plan_geometry *g, const char *name)
{
	size_t	i;

	for (i = 0; i < g->ncounters; i++)
		if (strcmp(g->counters[i], name) == 0)
			break;
	return i;
}

static int
profile_add(struct plan_geometry *g, const char *name, int whole)
{
	struct plan_profile	*p;
	size_t			 i;

	for (i = 0; i < g->nprofiles; i++)
		if (strcmp(g->profiles[i].name, name) == 0)
			return (int)i;
	g->profiles = xreallocarray(g->profiles, g->nprofiles + 1,
	    sizeof *g->profiles);
	p = &g->profiles[g->nprofiles];
	memset(p, 0, sizeof *p);
	p->name = xstrdup(name);
	p->whole = whole;
	p->gi_id = -1;
	return (int)g->nprofiles++;
}

/* The device's capacity id (driver's domain) in units of unit, or 0. */
static int64_t
dev_capacity(const struct kube_device *d, const char *id, int64_t unit)
{
	const struct kube_capacity	*c = kube_device_capacity(d, NULL, id);

	return c != NULL && c->value.milli > 0 ? c->value.milli / unit : 0;
}

/*
 * The profile of a device without a profile attribute: its name without
 * the GPU's name and '-' in front and without a last "-<number>" (the
 * placement): "acc-0-half-1" on GPU acc-0 is "half".
 */
static const char *
generic_profile(const char *name, const char *gpu, char *buf, size_t len)
{
	size_t	glen = strlen(gpu), n;

	if (strncmp(name, gpu, glen) == 0 && name[glen] == '-' &&
	    name[glen + 1] != '\0')
		name += glen + 1;
	snprintf(buf, len, "%s", name);
	n = strlen(buf);
	while (n > 0 && isdigit((unsigned char)buf[n - 1]))
		n--;
	if (n > 1 && n < strlen(buf) && buf[n - 1] == '-')
		buf[n - 1] = '\0';
	return buf;
}

/*
 * The geometry of one counter set and the devices consuming it (sorted
 * here), and the GPU's name, devices and running instances into tg.
 */
static void
derive(const struct kube_snapshot *s, const struct kube_counter_set *set,
    const struct kube_device **devs, size_t n, struct tgpu *tg,
    struct plan_warnings *w)
{
	struct plan_geometry		*g;
	struct plan_placement		*pl;
	struct plan_profile		*pr;
	const struct kube_device	*d, *whole = NULL, *full = NULL;
	const struct kube_device_counters *c;
	const struct kube_claim		*cl;
	const char			*pname, *product = NULL, *model;
	const char			*pci = NULL;
	char				 gname[NAME_MAX_LEN];
	char				 pbuf[NAME_MAX_LEN];
	const struct kube_counter	**order;
	size_t				 i, j, k, glen;
	int				 inexact = 0, isw, ms, low, giid, st;
	int				 maxc = 0;

	qsort(devs, n, sizeof *devs, cmp_devname);
	for (i = 0; i < n; i++) {
		pname = attr_str(devs[i], "type");
		if (whole == NULL && pname != NULL && strcmp(pname, "gpu") == 0)
			whole = devs[i];
		/*
		 * Without a type "gpu", the whole GPU is a device consuming
		 * everything that is no MIG profile: the full-size profile
		 * (7g on Ampere, which publishes no whole GPU) consumes
		 * everything too.
		 */
		if (full == NULL && (pname == NULL || strcmp(pname,
		    "mig") != 0) && attr_str(devs[i], "profile") == NULL &&
		    consumes_all(devs[i], set))
			full = devs[i];
	}
	if (whole != NULL)
		snprintf(gname, sizeof gname, "%s", whole->name);
	else if (full != NULL)
		snprintf(gname, sizeof gname, "%s", full->name);
	else {
		glen = strlen(set->name);
		if (glen > 12 && strcmp(set->name + glen - 12,
		    "-counter-set") == 0)
			glen -= 12;
		snprintf(gname, sizeof gname, "%.*s", (int)glen, set->name);
	}
	glen = strlen(gname);

	g = xcalloc(1, sizeof *g);
	g->ncounters = set->ncounters;
	if (g->ncounters > 0) {
		g->counters = xcalloc(g->ncounters, sizeof *g->counters);
		g->capacity = xcalloc(g->ncounters, sizeof *g->capacity);
	}
	/* By name: the published order is no part of the geometry. */
	order = xcalloc(set->ncounters + 1, sizeof *order);
	for (j = 0; j < set->ncounters; j++)
		order[j] = &set->counters[j];
	qsort(order, set->ncounters, sizeof *order, cmp_counter);
	for (j = 0; j < set->ncounters; j++) {
		g->counters[j] = xstrdup(order[j]->name);
		g->capacity[j] = scale_down(order[j]->value.milli,
		    counter_unit(g->counters[j]), &inexact);
		if (memory_slice_index(g->counters[j]) >= 0)
			g->memory_slices++;
		if (strcmp(g->counters[j], "multiprocessors") == 0)
			g->sm = (int)g->capacity[j];
		if (strcmp(g->counters[j], "memory") == 0)
			g->memory_mib = g->capacity[j];
	}
	free(order);
	g->placements = xcalloc(n, sizeof *g->placements);
	g->nplacements = n;
	tg->g.devices = xcalloc(n, sizeof *tg->g.devices);
	for (i = 0; i < n; i++) {
		d = devs[i];
		c = consumption(d, set);
		if (d->nconsumes > 1)
			warn_add(w, "%s/%s/%s: consumes %zu counter sets; "
			    "only %s is planned", dev_driver(d), dev_pool(d),
			    d->name, d->nconsumes, set->name);
		pname = attr_str(d, "type");
		isw = (pname != NULL && strcmp(pname, "gpu") == 0) ||
		    d == full;
		if (isw)
			pname = PLAN_WHOLE_GPU;
		else if ((pname = attr_str(d, "profile")) == NULL)
			pname = generic_profile(d->name, gname, pbuf,
			    sizeof pbuf);
		pl = &g->placements[i];
		pl->profile = profile_add(g, pname, isw);
		pl->use = xcalloc(g->ncounters > 0 ? g->ncounters : 1,
		    sizeof *pl->use);
		ms = 0;
		low = -1;
		for (j = 0; c != NULL && j < c->ncounters; j++) {
			for (k = 0; k < g->ncounters; k++)
				if (strcmp(g->counters[k],
				    c->counters[j].name) == 0)
					break;
			if (k == g->ncounters)
				continue;
			pl->use[k] = scale_up(c->counters[j].value.milli,
			    counter_unit(g->counters[k]), &inexact);
			st = memory_slice_index(g->counters[k]);
			if (st >= 0 && pl->use[k] > 0) {
				ms++;
				if (low < 0 || st < low)
					low = st;
			}
		}
		parse_mig_name(d->name, &giid, &st);
		if (low < 0 && !isw)
			low = st >= 0 ? st : name_last_number(d->name);
		pl->start = low >= 0 ? low : 0;
		pr = &g->profiles[pl->profile];
		if (pr->memory == 0 && pr->sm == 0 && pr->memory_mib == 0) {
			pr->memory = ms;
			pr->me = !isw && strstr(pr->name, "+me") != NULL;
			pr->sm = (int)dev_capacity(d, "multiprocessors", 1000);
			pr->memory_mib = dev_capacity(d, "memory", MIB_MILLI);
			/* No capacity published: what it takes of the set. */
			if (pr->sm == 0 && (k = counter_at(g,
			    "multiprocessors")) < g->ncounters)
				pr->sm = (int)pl->use[k];
			if (pr->memory_mib == 0 && (k = counter_at(g,
			    "memory")) < g->ncounters)
				pr->memory_mib = pl->use[k];
			pr->compute = isw ? 0 : plan_profile_compute(pr->name);
			pr->gi_id = isw ? -1 : giid;
			if (pr->compute > maxc)
				maxc = pr->compute;
		}
		tg->g.devices[i] = xstrdup(d->name);
		if (product == NULL)
			product = attr_str(d, "productName");
		if (pci == NULL || d == whole)
			pci = attr_pci(d) != NULL ? attr_pci(d) : pci;
		if ((cl = plan_device_holder(d, NULL)) != NULL)
			running_add(&tg->g, (int)i, cl->meta.namespace,
			    cl->meta.name);
	}
	if (whole != NULL && attr_str(whole, "productName") != NULL)
		product = attr_str(whole, "productName");
	g->compute_slices = maxc;
	for (i = 0; i < g->nprofiles; i++)
		if (g->profiles[i].whole)
			g->profiles[i].compute = maxc;
	/* No counter for them: the largest profile's SM and memory. */
	for (i = 0; i < g->nprofiles; i++) {
		if (counter_at(g, "multiprocessors") == g->ncounters &&
		    g->profiles[i].sm > g->sm)
			g->sm = g->profiles[i].sm;
		if (counter_at(g, "memory") == g->ncounters &&
		    g->profiles[i].memory_mib > g->memory_mib)
			g->memory_mib = g->profiles[i].memory_mib;
	}
	model = plan_catalog_for_product(product);
	if (model == NULL)
		model = product;
	if (model == NULL)
		model = set->slice != NULL && set->slice->driver != NULL ?
		    set->slice->driver : "unknown";
	g->model = xstrdup(model);
	g->product = xstrdup_or_null(product);
	g->driver = xstrdup(set->slice != NULL && set->slice->driver != NULL ?
	    set->slice->driver : dev_driver(devs[0]));
	g->derived = 1;
	g->source = xasprintf("derived from the counter sets and "
	    "partitionable devices of %s", s->source != NULL ? s->source :
	    "a snapshot");
	if (inexact)
		warn_add(w, "%s/%s/%s: counter values are not whole units "
		    "(memory: MiB); capacities rounded down, uses up",
		    g->driver, set->slice != NULL && set->slice->pool_name ?
		    set->slice->pool_name : "", set->name);

	tg->geo = g;
	tg->owned = 1;
	tg->g.name = xstrdup(gname);
	tg->g.node = xstrdup(set->slice != NULL && set->slice->node_name &&
	    *set->slice->node_name ? set->slice->node_name :
	    plan_device_node(whole != NULL ? whole : devs[0]));
	tg->g.mode = PLAN_MODE_DYNAMIC;
	tg->g.pci_bus_id = xstrdup_or_null(pci);
}

static int
geometry_equal(const struct plan_geometry *a, const struct plan_geometry *b)
{
	const struct plan_profile	*p, *q;
	size_t				 i;

#define STREQ(x, y)	((x) == NULL ? (y) == NULL : \
			    (y) != NULL && strcmp((x), (y)) == 0)
	if (!STREQ(a->model, b->model) || !STREQ(a->product, b->product) ||
	    !STREQ(a->driver, b->driver) ||
	    a->compute_slices != b->compute_slices ||
	    a->memory_slices != b->memory_slices || a->sm != b->sm ||
	    a->memory_mib != b->memory_mib || a->ncounters != b->ncounters ||
	    a->nprofiles != b->nprofiles ||
	    a->nplacements != b->nplacements || a->derived != b->derived)
		return 0;
	for (i = 0; i < a->ncounters; i++)
		if (strcmp(a->counters[i], b->counters[i]) != 0 ||
		    a->capacity[i] != b->capacity[i])
			return 0;
	for (i = 0; i < a->nprofiles; i++) {
		p = &a->profiles[i];
		q = &b->profiles[i];
		if (strcmp(p->name, q->name) != 0 || p->whole != q->whole ||
		    p->compute != q->compute || p->memory != q->memory ||
		    p->me != q->me || p->sm != q->sm ||
		    p->memory_mib != q->memory_mib || p->gi_id != q->gi_id)
			return 0;
	}
	for (i = 0; i < a->nplacements; i++) {
		if (a->placements[i].profile != b->placements[i].profile ||
		    a->placements[i].start != b->placements[i].start)
			return 0;
		if (a->ncounters > 0 && memcmp(a->placements[i].use,
		    b->placements[i].use, a->ncounters *
		    sizeof *a->placements[i].use) != 0)
			return 0;
	}
#undef STREQ
	return 1;
}

/* The placement of profile pi at start, or -1. */
static int
find_placement(const struct plan_geometry *g, int pi, int start)
{
	size_t	i;

	for (i = 0; i < g->nplacements; i++)
		if (g->placements[i].profile == pi &&
		    g->placements[i].start == start)
			return (int)i;
	return -1;
}

static int
whole_placement(const struct plan_geometry *g)
{
	size_t	i;

	for (i = 0; i < g->nplacements; i++)
		if (g->profiles[g->placements[i].profile].whole)
			return (int)i;
	return -1;
}

const char *
plan_mig_mode_name(enum plan_mig_mode m)
{
	switch (m) {
	case PLAN_MODE_DYNAMIC:
		return "dynamic";
	case PLAN_MODE_STATIC:
		return "static";
	case PLAN_MODE_WHOLE:
		break;
	}
	return "whole";
}

int
plan_static_mig_start(const struct kube_device *d)
{
	const struct kube_capacity	*c;
	size_t				 i;
	int				 low = -1, v, giid, st;
	const char			*p;

	for (i = 0; i < d->ncapacity; i++) {
		c = &d->capacity[i];
		if (strncmp(c->id, "memorySlice", 11) != 0 ||
		    c->value.milli <= 0)
			continue;
		p = c->id + 11;
		if (!all_digits(p, strlen(p)) || strlen(p) > 4)
			continue;
		v = atoi(p);
		if (low < 0 || v < low)
			low = v;
	}
	if (low >= 0)
		return low;
	if (parse_mig_name(d->name, &giid, &st))
		return st;
	return name_last_number(d->name);
}

static struct plan_geometry *
catalogue_geometry(struct catgeo **cache, const char *model)
{
	struct catgeo		*e;
	struct plan_geometry	*g;

	HASH_FIND_STR(*cache, model, e);
	if (e != NULL)
		return e->geo;
	if (plan_catalog_geometry(model, &g, NULL) != KUBE_OK)
		return NULL;
	e = xcalloc(1, sizeof *e);
	e->model = model;
	e->geo = g;
	HASH_ADD_KEYPTR(hh, *cache, e->model, strlen(e->model), e);
	return g;
}

static void
read_static(struct statgrp *sg, struct tgpus *out, struct catgeo **cache,
    struct plan_warnings *w)
{
	const struct kube_device	*any, *d;
	const struct kube_claim		*cl;
	struct plan_geometry		*geo;
	struct tgpu			*tg;
	const char			*product = NULL, *model, *p, *pci;
	char				 gname[NAME_MAX_LEN];
	size_t				 i;
	int				 pi, pl, st;

	if (sg->n > 1)
		qsort(sg->migs, sg->n, sizeof *sg->migs, cmp_devname);
	any = sg->whole != NULL ? sg->whole : sg->migs[0];
	if (sg->whole != NULL)
		product = attr_str(sg->whole, "productName");
	for (i = 0; product == NULL && i < sg->n; i++)
		product = attr_str(sg->migs[i], "productName");
	if (sg->whole != NULL)
		snprintf(gname, sizeof gname, "%s", sg->whole->name);
	else if ((p = strstr(any->name, "-mig-")) != NULL)
		snprintf(gname, sizeof gname, "%.*s", (int)(p - any->name),
		    any->name);
	else
		snprintf(gname, sizeof gname, "%s", any->name);
	model = plan_catalog_for_product(product);
	if (model == NULL) {
		warn_add(w, "%s/%s/%s: product \"%s\" is not in the GPU "
		    "catalogue; GPU skipped", dev_driver(any), dev_pool(any),
		    gname, product != NULL ? product : "(none)");
		return;
	}
	if ((geo = catalogue_geometry(cache, model)) == NULL) {
		warn_add(w, "%s/%s/%s: no catalogue geometry for \"%s\"; GPU "
		    "skipped", dev_driver(any), dev_pool(any), gname, model);
		return;
	}
	tg = tgpu_add(out);
	tg->geo = geo;
	tg->g.name = xstrdup(gname);
	tg->g.node = xstrdup(plan_device_node(any));
	tg->g.mode = sg->n > 0 ? PLAN_MODE_STATIC : PLAN_MODE_WHOLE;
	pci = sg->whole != NULL ? attr_pci(sg->whole) : NULL;
	for (i = 0; pci == NULL && i < sg->n; i++)
		pci = attr_pci(sg->migs[i]);
	tg->g.pci_bus_id = xstrdup_or_null(pci);
	if (sg->whole != NULL &&
	    (cl = plan_device_holder(sg->whole, NULL)) != NULL &&
	    (pl = whole_placement(geo)) >= 0)
		running_add(&tg->g, pl, cl->meta.namespace, cl->meta.name);
	if (sg->n > 0)
		tg->g.existing = xcalloc(sg->n, sizeof *tg->g.existing);
	for (i = 0; i < sg->n; i++) {
		d = sg->migs[i];
		p = attr_str(d, "profile");
		pi = p != NULL ? plan_profile_index(geo, p) : -1;
		st = plan_static_mig_start(d);
		pl = pi >= 0 && st >= 0 ? find_placement(geo, pi, st) : -1;
		if (pl < 0) {
			warn_add(w, "%s/%s/%s: profile \"%s\" at memory slice "
			    "%d is no placement of %s; instance skipped",
			    dev_driver(d), dev_pool(d), d->name,
			    p != NULL ? p : "(none)", st, geo->model);
			continue;
		}
		tg->g.existing[tg->g.nexisting++] = pl;
		if ((cl = plan_device_holder(d, NULL)) != NULL)
			running_add(&tg->g, pl, cl->meta.namespace,
			    cl->meta.name);
	}
}

static void
setgrp_add(struct setgrp **h, const struct kube_counter_set *set,
    const struct kube_device *d)
{
	struct setgrp	*e;

	HASH_FIND_PTR(*h, &set, e);
	if (e == NULL) {
		e = xcalloc(1, sizeof *e);
		e->set = set;
		HASH_ADD_PTR(*h, set, e);
	}
	if (e->n == e->cap) {
		e->cap = e->cap ? e->cap * 2 : 32;
		e->devs = xreallocarray(e->devs, e->cap, sizeof *e->devs);
	}
	e->devs[e->n++] = d;
}

static void
statgrp_add(struct statgrp **h, const struct kube_device *d, int whole)
{
	struct statgrp	*e;
	const char	*uuid, *p;
	char		 key[3 * NAME_MAX_LEN];

	uuid = attr_str(d, whole ? "uuid" : "parentUUID");
	if (uuid != NULL)
		snprintf(key, sizeof key, "%s\x1f%s\x1fuuid:%s", dev_driver(d),
		    dev_pool(d), uuid);
	else if (!whole && (p = strstr(d->name, "-mig-")) != NULL)
		snprintf(key, sizeof key, "%s\x1f%s\x1fname:%.*s",
		    dev_driver(d), dev_pool(d), (int)(p - d->name), d->name);
	else
		snprintf(key, sizeof key, "%s\x1f%s\x1fname:%s", dev_driver(d),
		    dev_pool(d), d->name);
	HASH_FIND_STR(*h, key, e);
	if (e == NULL) {
		e = xcalloc(1, sizeof *e);
		e->key = xstrdup(key);
		HASH_ADD_KEYPTR(hh, *h, e->key, strlen(e->key), e);
	}
	if (whole) {
		if (e->whole == NULL)
			e->whole = d;
		return;
	}
	if (e->n == e->cap) {
		e->cap = e->cap ? e->cap * 2 : 8;
		e->migs = xreallocarray(e->migs, e->cap, sizeof *e->migs);
	}
	e->migs[e->n++] = d;
}

static int
cmp_statgrp(const void *a, const void *b)
{
	return strcmp((*(struct statgrp *const *)a)->key,
	    (*(struct statgrp *const *)b)->key);
}

/* Whether device name dev belongs to GPU gp (its whole device, an
   NVIDIA MIG device named after it, or one of its published names). */
static int
gpu_has_device(const struct plan_inventory *inv, const struct plan_gpu *gp,
    const char *dev)
{
	size_t	len = strlen(gp->name), k, n;

	if (strcmp(dev, gp->name) == 0 ||
	    (strncmp(dev, gp->name, len) == 0 &&
	    strncmp(dev + len, "-mig-", 5) == 0))
		return 1;
	if (gp->devices == NULL)
		return 0;
	n = inv->geometries[gp->geometry]->nplacements;
	for (k = 0; k < n; k++)
		if (gp->devices[k] != NULL && strcmp(gp->devices[k], dev) == 0)
			return 1;
	return 0;
}

/*
 * Mark the GPUs that have a device with a NoSchedule or NoExecute
 * taint: the claims a plan makes tolerate none, so the scheduler would
 * put nothing new there (kube/dra's taint check).
 */
static void
mark_tainted(const struct kube_snapshot *s, struct plan_inventory *inv,
    struct plan_warnings *warn)
{
	const struct kube_slice		*sl;
	const struct kube_device	*d;
	const struct kube_taint		*ta;
	const char			*node;
	size_t				 i, j, k, g;

	for (i = 0; i < s->slices.n; i++) {
		sl = s->slices.v[i];
		if (sl->stale || sl->rejected != NULL)
			continue;
		for (j = 0; j < sl->ndevices; j++) {
			d = &sl->devices[j];
			ta = NULL;
			for (k = 0; k < d->ntaints && ta == NULL; k++)
				if (d->taints[k].effect ==
				    KUBE_TAINT_NO_SCHEDULE ||
				    d->taints[k].effect ==
				    KUBE_TAINT_NO_EXECUTE)
					ta = &d->taints[k];
			if (ta == NULL)
				continue;
			node = plan_device_node(d);
			for (g = 0; g < inv->ngpus; g++) {
				struct plan_gpu *gp = &inv->gpus[g];

				if (gp->tainted || node == NULL ||
				    strcmp(gp->node, node) != 0 ||
				    !gpu_has_device(inv, gp, d->name))
					continue;
				gp->tainted = 1;
				warn_add(warn, "%s/%s/%s: taint %s%s%s:%s on "
				    "device %s; nothing new is planned on it",
				    sl->driver != NULL ? sl->driver : "",
				    gp->node, gp->name, ta->key,
				    ta->value != NULL && *ta->value ? "=" : "",
				    ta->value != NULL ? ta->value : "",
				    ta->effect_text != NULL ?
				    ta->effect_text : "", d->name);
			}
		}
	}
}

int
plan_inventory_from_snapshot(const struct kube_snapshot *s,
    struct plan_inventory **out, struct plan_warnings *warn,
    struct dra_err *err)
{
	struct plan_inventory	*inv;
	struct setgrp		*sets = NULL, *se, *tse;
	struct statgrp		*stat = NULL, *st, *tst, **sv;
	struct catgeo		*cache = NULL, *ce, *tce;
	struct tgpus		 t = { NULL, 0, 0 };
	struct kube_slice	*sl;
	const struct kube_device *d;
	const struct kube_counter_set *set;
	const struct kube_pool	*badpool = NULL;
	const char		*type;
	struct tgpu		*tg;
	size_t			 i, j, k, nst;

	*out = NULL;
	if (warn != NULL) {
		warn->v = NULL;
		warn->n = 0;
	}
	if (s == NULL || !s->finished)
		return dra_err_set(err, KUBE_E_CONFIG, "inventory: the "
		    "snapshot is not finished");
	for (i = 0; i < s->slices.n; i++) {
		sl = s->slices.v[i];
		if (sl->stale || sl->rejected != NULL)
			continue;
		for (j = 0; j < sl->ndevices; j++) {
			d = &sl->devices[j];
			if (d->pool != NULL && d->pool->invalid != NULL) {
				if (d->pool != badpool)
					warn_add(warn, "pool %s/%s is invalid "
					    "(%s); its devices are skipped",
					    d->pool->driver, d->pool->name,
					    d->pool->invalid);
				badpool = d->pool;
				continue;
			}
			set = NULL;
			for (k = 0; k < d->nconsumes && set == NULL; k++)
				if (d->consumes[k].set != NULL &&
				    d->consumes[k].set->slice != NULL &&
				    !d->consumes[k].set->slice->stale)
					set = d->consumes[k].set;
			if (set != NULL) {
				setgrp_add(&sets, set, d);
				continue;
			}
			if (d->nconsumes > 0 || sl->driver == NULL ||
			    strcmp(sl->driver, PLAN_NVIDIA_DRIVER) != 0)
				continue;
			type = attr_str(d, "type");
			if (type == NULL)
				continue;
			if (strcmp(type, "gpu") == 0)
				statgrp_add(&stat, d, 1);
			else if (strcmp(type, "mig") == 0)
				statgrp_add(&stat, d, 0);
		}
	}
	HASH_ITER(hh, sets, se, tse) {
		tg = tgpu_add(&t);
		derive(s, se->set, se->devs, se->n, tg, warn);
		HASH_DEL(sets, se);
		free(se->devs);
		free(se);
	}
	/* Static groups in key order, so warnings come out the same. */
	nst = HASH_COUNT(stat);
	sv = xcalloc(nst + 1, sizeof *sv);
	k = 0;
	HASH_ITER(hh, stat, st, tst)
		sv[k++] = st;
	qsort(sv, nst, sizeof *sv, cmp_statgrp);
	for (k = 0; k < nst; k++)
		read_static(sv[k], &t, &cache, warn);
	HASH_ITER(hh, stat, st, tst) {
		HASH_DEL(stat, st);
		free(st->key);
		free(st->migs);
		free(st);
	}
	free(sv);

	if (t.n > 1)
		qsort(t.v, t.n, sizeof *t.v, cmp_tgpu);
	inv = xcalloc(1, sizeof *inv);
	inv->source = xstrdup(s->source != NULL ? s->source : "snapshot");
	inv->live = 1;
	inv->gpus = xcalloc(t.n + 1, sizeof *inv->gpus);
	for (i = 0; i < t.n; i++) {
		tg = &t.v[i];
		for (k = 0; k < inv->ngeometries; k++) {
			if (inv->geometries[k] == tg->geo)
				break;
			if (tg->owned && inv->geometries[k]->derived &&
			    geometry_equal(inv->geometries[k], tg->geo))
				break;
		}
		if (k == inv->ngeometries) {
			inv->geometries = xreallocarray(inv->geometries,
			    k + 1, sizeof *inv->geometries);
			inv->geometries[inv->ngeometries++] = tg->geo;
			if (!tg->owned) {
				/* Now the inventory's, not the cache's. */
				HASH_ITER(hh, cache, ce, tce)
					if (ce->geo == tg->geo)
						ce->geo = NULL;
			}
		} else if (tg->owned)
			plan_geometry_free(tg->geo);
		tg->g.geometry = k;
		inv->gpus[inv->ngpus++] = tg->g;
	}
	HASH_ITER(hh, cache, ce, tce) {
		HASH_DEL(cache, ce);
		plan_geometry_free(ce->geo);
		free(ce);
	}
	free(t.v);
	mark_tainted(s, inv, warn);
	read_usage(s, inv);
	*out = inv;
	return KUBE_OK;
}

/* ------------------------------------------------------------------ */
/* Writing a snapshot. */

static uint64_t
fnv64(uint64_t h, const char *s)
{
	for (; *s != '\0'; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static void
gpu_uuid(const struct plan_gpu *g, char *buf, size_t len)
{
	uint64_t	a, b;

	a = fnv64(fnv64(0xcbf29ce484222325ULL, g->node), g->name);
	b = fnv64(fnv64(a ^ 0x9e3779b97f4a7c15ULL, g->name), g->node);
	snprintf(buf, len, "GPU-%08" PRIx32 "-%04x-%04x-%04x-%012" PRIx64,
	    (uint32_t)(a >> 32), (unsigned)(a >> 16) & 0xffff,
	    (unsigned)a & 0xffff, (unsigned)(b >> 48) & 0xffff,
	    (uint64_t)(b & 0xffffffffffffULL));
}

static cJSON *
qty(const char *counter, int64_t v)
{
	cJSON	*o = cJSON_CreateObject();
	char	 buf[32];

	if (strcmp(counter, "memory") == 0)
		snprintf(buf, sizeof buf, "%" PRId64 "Mi", v);
	else
		snprintf(buf, sizeof buf, "%" PRId64, v);
	cJSON_AddStringToObject(o, "value", buf);
	return o;
}

static void
attr_add(cJSON *attrs, const char *key, const char *v)
{
	cJSON	*o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "string", v);
	cJSON_AddItemToObject(attrs, key, o);
}

static void
camel(const char *name, char *buf, size_t len)
{
	size_t	i = 0;
	int	up = 0;

	for (; *name != '\0' && i + 1 < len; name++) {
		if (*name == '-') {
			up = 1;
			continue;
		}
		buf[i++] = up ? (char)toupper((unsigned char)*name) : *name;
		up = 0;
	}
	buf[i] = '\0';
}

const char *
plan_geometry_driver(const struct plan_geometry *g)
{
	return g->driver != NULL && *g->driver != '\0' ? g->driver :
	    PLAN_NVIDIA_DRIVER;
}

static cJSON *
obj_new(const char *api, const char *kind, const char *name,
    const char *ns)
{
	cJSON	*o = cJSON_CreateObject(), *m;

	cJSON_AddStringToObject(o, "apiVersion", api);
	cJSON_AddStringToObject(o, "kind", kind);
	m = cJSON_AddObjectToObject(o, "metadata");
	cJSON_AddStringToObject(m, "name", name);
	if (ns != NULL)
		cJSON_AddStringToObject(m, "namespace", ns);
	return o;
}

/* Add obj (consumed) to s. */
static int
snap_add(struct kube_snapshot *s, cJSON *obj, struct dra_err *err)
{
	int	rc;

	rc = kube_snapshot_add(s, obj, NULL, NULL, err);
	cJSON_Delete(obj);
	if (rc != KUBE_OK)
		dra_err_prefix(err, "inventory snapshot");
	return rc;
}

static cJSON *
class_obj(const char *name, const char *expr, const char *extres)
{
	cJSON	*o, *spec, *sel, *item, *cel;

	o = obj_new("resource.k8s.io/v1", "DeviceClass", name, NULL);
	spec = cJSON_AddObjectToObject(o, "spec");
	if (extres != NULL)
		cJSON_AddStringToObject(spec, "extendedResourceName", extres);
	sel = cJSON_AddArrayToObject(spec, "selectors");
	item = cJSON_CreateObject();
	cel = cJSON_AddObjectToObject(item, "cel");
	cJSON_AddStringToObject(cel, "expression", expr);
	cJSON_AddItemToArray(sel, item);
	return o;
}

void
plan_cel_quote(const char *s, char *buf, size_t len)
{
	size_t	i = 0;

	for (; *s != '\0' && i + 2 < len; s++) {
		if (*s == '\'' || *s == '\\')
			buf[i++] = '\\';
		buf[i++] = *s;
	}
	buf[i] = '\0';
}

/* The slice header shared by counter and device slices. */
static cJSON *
slice_obj(const char *node, const char *driver, size_t k, int width,
    size_t total)
{
	cJSON	*o, *spec, *pool, *m;
	char	*name, *gname;

	name = xasprintf("%s-%s-%0*zu", node, driver, width, k);
	gname = xasprintf("%s-%s-", node, driver);
	o = obj_new("resource.k8s.io/v1", "ResourceSlice", name, NULL);
	m = cJSON_GetObjectItemCaseSensitive(o, "metadata");
	cJSON_AddStringToObject(m, "generateName", gname);
	free(name);
	free(gname);
	cJSON_AddNumberToObject(m, "generation", 1);
	spec = cJSON_AddObjectToObject(o, "spec");
	cJSON_AddStringToObject(spec, "driver", driver);
	cJSON_AddStringToObject(spec, "nodeName", node);
	pool = cJSON_AddObjectToObject(spec, "pool");
	cJSON_AddNumberToObject(pool, "generation", 1);
	cJSON_AddStringToObject(pool, "name", node);
	cJSON_AddNumberToObject(pool, "resourceSliceCount", (double)total);
	return o;
}

/* Names of the placements of one GPU (owned array of owned strings). */
struct devname {
	char	*name;
	int	 placement;
};

static int
cmp_devname_str(const void *a, const void *b)
{
	return strcmp(((const struct devname *)a)->name,
	    ((const struct devname *)b)->name);
}

static int
gpu_names(const struct plan_inventory *inv, const struct plan_gpu *g,
    struct devname **out, struct dra_err *err)
{
	const struct plan_geometry	*geo = inv->geometries[g->geometry];
	struct devname			*v;
	char				 buf[NAME_MAX_LEN];
	size_t				 p, i;

	v = xcalloc(geo->nplacements + 1, sizeof *v);
	for (p = 0; p < geo->nplacements; p++) {
		if (plan_inventory_device(inv, g, (int)p, buf,
		    sizeof buf) == NULL) {
			for (i = 0; i < p; i++)
				free(v[i].name);
			free(v);
			return dra_err_set(err, KUBE_E_CONFIG, "inventory "
			    "snapshot: %s/%s: placement %zu (%s) has no "
			    "device name", g->node, g->name, p,
			    geo->profiles[geo->placements[p].profile].name);
		}
		v[p].name = xstrdup(buf);
		v[p].placement = (int)p;
	}
	qsort(v, geo->nplacements, sizeof *v, cmp_devname_str);
	*out = v;
	return KUBE_OK;
}

static cJSON *
counter_set_obj(const struct plan_geometry *geo, const struct plan_gpu *g)
{
	cJSON	*set, *ctr;
	char	*name;
	size_t	 j;

	set = cJSON_CreateObject();
	name = xasprintf("%s-counter-set", g->name);
	cJSON_AddStringToObject(set, "name", name);
	free(name);
	ctr = cJSON_AddObjectToObject(set, "counters");
	for (j = 0; j < geo->ncounters; j++)
		cJSON_AddItemToObject(ctr, geo->counters[j],
		    qty(geo->counters[j], geo->capacity[j]));
	return set;
}

static cJSON *
device_obj(const struct plan_geometry *geo, const struct plan_gpu *g,
    const struct devname *dn, const char *uuid, const char *pci)
{
	const struct plan_placement	*pl = &geo->placements[dn->placement];
	const struct plan_profile	*pr = &geo->profiles[pl->profile];
	cJSON				*dev, *attrs, *cap, *cons, *c, *ctr;
	char				 name[NAME_MAX_LEN], *set;
	size_t				 j;

	dev = cJSON_CreateObject();
	cJSON_AddStringToObject(dev, "name", dn->name);
	attrs = cJSON_AddObjectToObject(dev, "attributes");
	if (!pr->whole) {
		attr_add(attrs, "parentUUID", uuid);
		attr_add(attrs, "profile", pr->name);
	}
	attr_add(attrs, "productName", geo->product != NULL ? geo->product :
	    geo->model);
	attr_add(attrs, "resource.kubernetes.io/pciBusID", pci);
	attr_add(attrs, "type", pr->whole ? "gpu" : "mig");
	if (pr->whole)
		attr_add(attrs, "uuid", uuid);
	cap = cJSON_AddObjectToObject(dev, "capacity");
	for (j = 0; j < geo->ncounters; j++) {
		if (memory_slice_index(geo->counters[j]) >= 0)
			continue;
		camel(geo->counters[j], name, sizeof name);
		cJSON_AddItemToObject(cap, name, qty(geo->counters[j],
		    pl->use[j]));
	}
	/* What the profile says where no counter does (the driver has it). */
	if (counter_at(geo, "multiprocessors") == geo->ncounters &&
	    pr->sm > 0)
		cJSON_AddItemToObject(cap, "multiprocessors",
		    qty("multiprocessors", pr->sm));
	if (counter_at(geo, "memory") == geo->ncounters && pr->memory_mib > 0)
		cJSON_AddItemToObject(cap, "memory", qty("memory",
		    pr->memory_mib));
	if (geo->ncounters == 0)
		return dev;
	cons = cJSON_AddArrayToObject(dev, "consumesCounters");
	c = cJSON_CreateObject();
	set = xasprintf("%s-counter-set", g->name);
	cJSON_AddStringToObject(c, "counterSet", set);
	free(set);
	ctr = cJSON_AddObjectToObject(c, "counters");
	for (j = 0; j < geo->ncounters; j++) {
		if (pl->use[j] == 0 &&
		    memory_slice_index(geo->counters[j]) >= 0)
			continue;
		cJSON_AddItemToObject(ctr, geo->counters[j],
		    qty(geo->counters[j], pl->use[j]));
	}
	cJSON_AddItemToArray(cons, c);
	return dev;
}

/* The position of a GPU on its board: N of "gpu-N", else slot. */
static size_t
board_position(const char *name, size_t slot)
{
	const char	*p;

	if (strncmp(name, "gpu-", 4) != 0)
		return slot;
	p = name + 4;
	if (!all_digits(p, strlen(p)) || strlen(p) > 4)
		return slot;
	return (size_t)atoi(p);
}

/* Slices of one (node, driver): the GPUs v[0..n), sorted by name. */
static int
add_pool(struct kube_snapshot *s, const struct plan_inventory *inv,
    const size_t *v, size_t n, struct dra_err *err)
{
	const struct plan_gpu		*g = &inv->gpus[v[0]];
	const struct plan_geometry	*geo;
	const char			*node = g->node;
	const char			*driver;
	struct devname			*names = NULL;
	cJSON				*o, *sets, *devs, *spec;
	char				 uuid[64], *pci;
	size_t				 nc, total, k, i, j, nsets;
	int				 width, rc;

	driver = plan_geometry_driver(inv->geometries[g->geometry]);
	for (i = 0, nsets = 0; i < n; i++)
		if (inv->geometries[inv->gpus[v[i]].geometry]->ncounters > 0)
			nsets++;
	nc = (nsets + PLAN_SLICE_MAX_COUNTER_SETS - 1) /
	    PLAN_SLICE_MAX_COUNTER_SETS;
	total = nc + n;
	for (width = 1, k = total - 1; k >= 10; k /= 10)
		width++;
	for (k = 0, i = 0; k < nc; k++) {
		o = slice_obj(node, driver, k, width, total);
		spec = cJSON_GetObjectItemCaseSensitive(o, "spec");
		sets = cJSON_AddArrayToObject(spec, "sharedCounters");
		for (j = 0; j < PLAN_SLICE_MAX_COUNTER_SETS && i < n; i++) {
			g = &inv->gpus[v[i]];
			geo = inv->geometries[g->geometry];
			if (geo->ncounters == 0)
				continue;
			cJSON_AddItemToArray(sets, counter_set_obj(geo, g));
			j++;
		}
		if ((rc = snap_add(s, o, err)) != KUBE_OK)
			return rc;
	}
	for (i = 0; i < n; i++) {
		g = &inv->gpus[v[i]];
		geo = inv->geometries[g->geometry];
		if ((rc = gpu_names(inv, g, &names, err)) != KUBE_OK)
			return rc;
		gpu_uuid(g, uuid, sizeof uuid);
		pci = g->pci_bus_id != NULL ? xstrdup(g->pci_bus_id) :
		    board_pci(board_position(g->name, i));
		o = slice_obj(node, driver, nc + i, width, total);
		spec = cJSON_GetObjectItemCaseSensitive(o, "spec");
		devs = cJSON_AddArrayToObject(spec, "devices");
		for (j = 0; j < geo->nplacements; j++)
			cJSON_AddItemToArray(devs, device_obj(geo, g,
			    &names[j], uuid, pci));
		for (j = 0; j < geo->nplacements; j++)
			free(names[j].name);
		free(names);
		free(pci);
		if ((rc = snap_add(s, o, err)) != KUBE_OK)
			return rc;
	}
	return KUBE_OK;
}

static cJSON *
node_obj(const char *node, const char *product, size_t ngpus)
{
	cJSON	*o, *m, *l, *st, *conds, *c;
	char	 buf[NAME_MAX_LEN];
	size_t	 i;

	o = obj_new("v1", "Node", node, NULL);
	m = cJSON_GetObjectItemCaseSensitive(o, "metadata");
	l = cJSON_AddObjectToObject(m, "labels");
	cJSON_AddStringToObject(l, "kubernetes.io/hostname", node);
	snprintf(buf, sizeof buf, "%zu", ngpus);
	cJSON_AddStringToObject(l, "nvidia.com/gpu.count", buf);
	if (product != NULL) {
		snprintf(buf, sizeof buf, "%s", product);
		for (i = 0; buf[i] != '\0'; i++)
			if (buf[i] == ' ')
				buf[i] = '-';
		cJSON_AddStringToObject(l, "nvidia.com/gpu.product", buf);
	}
	st = cJSON_AddObjectToObject(o, "status");
	conds = cJSON_AddArrayToObject(st, "conditions");
	c = cJSON_CreateObject();
	cJSON_AddStringToObject(c, "type", "Ready");
	cJSON_AddStringToObject(c, "status", "True");
	cJSON_AddItemToArray(conds, c);
	return o;
}

/* A running instance to publish as (part of) a claim. */
struct run_ref {
	const char	*ns;
	const char	*claim;
	size_t		 gpu;
	int		 placement;
	char		*owned;		/* a made-up claim name */
};

static int
cmp_run_ref(const void *a, const void *b)
{
	const struct run_ref	*x = a, *y = b;
	int			 c;

	if ((c = strcmp(x->ns, y->ns)) != 0)
		return c;
	if ((c = strcmp(x->claim, y->claim)) != 0)
		return c;
	if (x->gpu != y->gpu)
		return x->gpu < y->gpu ? -1 : 1;
	return x->placement - y->placement;
}

char *
plan_profile_selector(const struct plan_geometry *g,
    const struct plan_profile *p, char *buf, size_t len)
{
	char	qd[256], qp[256];

	plan_cel_quote(plan_geometry_driver(g), qd, sizeof qd);
	plan_cel_quote(p->name, qp, sizeof qp);
	snprintf(buf, len, "device.attributes['%s'].type == 'mig' && "
	    "device.attributes['%s'].profile == '%s'", qd, qd, qp);
	return buf;
}

const char *
plan_inventory_class(const struct plan_geometry *geo, int whole)
{
	if (strcmp(plan_geometry_driver(geo), PLAN_NVIDIA_DRIVER) != 0)
		return plan_geometry_driver(geo);
	return whole ? PLAN_CLASS_GPU : PLAN_CLASS_MIG;
}

static int
add_claims(struct kube_snapshot *s, const struct plan_inventory *inv,
    struct run_ref *r, size_t n, struct dra_err *err)
{
	const struct plan_gpu		*g;
	const struct plan_geometry	*geo;
	const struct plan_profile	*pr;
	cJSON				*o, *spec, *devs, *reqs, *req, *ex;
	cJSON				*sels, *sel, *cel, *st, *alloc;
	cJSON				*res, *rs, *ns, *terms, *term, *fields;
	cJSON				*field, *vals;
	char				 buf[NAME_MAX_LEN], q[2 * NAME_MAX_LEN];
	char				 rname[32];
	size_t				 i, j, k;
	const char			*node;
	int				 rc, one_node;

	if (n > 1)
		qsort(r, n, sizeof *r, cmp_run_ref);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && strcmp(r[j].ns, r[i].ns) == 0 &&
		    strcmp(r[j].claim, r[i].claim) == 0; j++)
			;
		if (i == 0 || strcmp(r[i].ns, r[i - 1].ns) != 0) {
			o = obj_new("v1", "Namespace", r[i].ns, NULL);
			if ((rc = snap_add(s, o, err)) != KUBE_OK)
				return rc;
		}
		o = obj_new("resource.k8s.io/v1", "ResourceClaim", r[i].claim,
		    r[i].ns);
		spec = cJSON_AddObjectToObject(o, "spec");
		devs = cJSON_AddObjectToObject(spec, "devices");
		reqs = cJSON_AddArrayToObject(devs, "requests");
		st = cJSON_AddObjectToObject(o, "status");
		alloc = cJSON_AddObjectToObject(st, "allocation");
		res = cJSON_AddObjectToObject(alloc, "devices");
		rs = cJSON_AddArrayToObject(res, "results");
		node = inv->gpus[r[i].gpu].node;
		one_node = 1;
		for (k = i; k < j; k++) {
			g = &inv->gpus[r[k].gpu];
			geo = inv->geometries[g->geometry];
			pr = &geo->profiles[geo->placements[r[k].placement]
			    .profile];
			if (j - i == 1)
				snprintf(rname, sizeof rname, "gpu");
			else
				snprintf(rname, sizeof rname, "gpu-%zu", k - i);
			req = cJSON_CreateObject();
			cJSON_AddStringToObject(req, "name", rname);
			ex = cJSON_AddObjectToObject(req, "exactly");
			cJSON_AddStringToObject(ex, "deviceClassName",
			    plan_inventory_class(geo, pr->whole));
			cJSON_AddStringToObject(ex, "allocationMode",
			    "ExactCount");
			cJSON_AddNumberToObject(ex, "count", 1);
			if (!pr->whole) {
				sels = cJSON_AddArrayToObject(ex, "selectors");
				sel = cJSON_CreateObject();
				cel = cJSON_AddObjectToObject(sel, "cel");
				cJSON_AddStringToObject(cel, "expression",
				    plan_profile_selector(geo, pr, q,
				    sizeof q));
				cJSON_AddItemToArray(sels, sel);
			}
			cJSON_AddItemToArray(reqs, req);
			if (plan_inventory_device(inv, g, r[k].placement, buf,
			    sizeof buf) == NULL) {
				cJSON_Delete(o);
				return dra_err_set(err, KUBE_E_CONFIG,
				    "inventory snapshot: %s/%s: placement %d "
				    "has no device name", g->node, g->name,
				    r[k].placement);
			}
			req = cJSON_CreateObject();
			cJSON_AddStringToObject(req, "request", rname);
			cJSON_AddStringToObject(req, "driver", plan_geometry_driver(geo));
			cJSON_AddStringToObject(req, "pool", g->node);
			cJSON_AddStringToObject(req, "device", buf);
			cJSON_AddItemToArray(rs, req);
			if (strcmp(g->node, node) != 0)
				one_node = 0;
		}
		if (one_node) {
			ns = cJSON_AddObjectToObject(alloc, "nodeSelector");
			terms = cJSON_AddArrayToObject(ns, "nodeSelectorTerms");
			term = cJSON_CreateObject();
			fields = cJSON_AddArrayToObject(term, "matchFields");
			field = cJSON_CreateObject();
			cJSON_AddStringToObject(field, "key", "metadata.name");
			cJSON_AddStringToObject(field, "operator", "In");
			vals = cJSON_AddArrayToObject(field, "values");
			cJSON_AddItemToArray(vals, cJSON_CreateString(node));
			cJSON_AddItemToArray(fields, field);
			cJSON_AddItemToArray(terms, term);
		}
		if ((rc = snap_add(s, o, err)) != KUBE_OK)
			return rc;
	}
	return KUBE_OK;
}

/* A GPU index with its sort keys: node, driver, name. */
struct gpu_key {
	const char	*node;
	const char	*driver;
	const char	*name;
	size_t		 index;
};

static int
cmp_gpu_key(const void *a, const void *b)
{
	const struct gpu_key	*x = a, *y = b;
	int			 c;

	if ((c = strcmp(x->node, y->node)) != 0)
		return c;
	if ((c = strcmp(x->driver, y->driver)) != 0)
		return c;
	return strcmp(x->name, y->name);
}

int
plan_inventory_snapshot_gpus(const struct plan_inventory *inv,
    const size_t *gpus, size_t ngpus, unsigned flags,
    struct kube_snapshot **out, struct dra_err *err)
{
	struct kube_snapshot		*s;
	const struct plan_gpu		*g, *h;
	const struct plan_geometry	*geo;
	struct run_ref			*runs = NULL;
	struct gpu_key			*keys;
	size_t				*v, i, j, k, nruns = 0, ngpu_node;
	unsigned char			*seen;
	int				 rc = KUBE_OK, nvidia = 0;
	cJSON				*o;
	char				*expr;
	const char			**drivers = NULL;
	size_t				 ndrivers = 0;

	*out = NULL;
	if (inv == NULL || (ngpus > 0 && gpus == NULL))
		return dra_err_set(err, KUBE_E_CONFIG, "inventory snapshot: "
		    "no inventory");
	seen = xcalloc(inv->ngpus + 1, 1);
	keys = xcalloc(ngpus + 1, sizeof *keys);
	for (i = 0; i < ngpus; i++) {
		if (gpus[i] >= inv->ngpus || seen[gpus[i]] ||
		    inv->gpus[gpus[i]].geometry >= inv->ngeometries) {
			free(seen);
			free(keys);
			return dra_err_set(err, KUBE_E_CONFIG, "inventory "
			    "snapshot: GPU index %zu is out of range or "
			    "repeated", gpus[i]);
		}
		seen[gpus[i]] = 1;
		g = &inv->gpus[gpus[i]];
		keys[i].node = g->node;
		keys[i].driver = plan_geometry_driver(inv->geometries[g->geometry]);
		keys[i].name = g->name;
		keys[i].index = gpus[i];
	}
	free(seen);
	qsort(keys, ngpus, sizeof *keys, cmp_gpu_key);
	v = xcalloc(ngpus + 1, sizeof *v);
	for (i = 0; i < ngpus; i++)
		v[i] = keys[i].index;
	free(keys);

	s = kube_snapshot_new();
	s->source = kube_snapshot_intern(s, inv->source != NULL ?
	    inv->source : "inventory");
	/* Nodes, and the pools of each (node, driver). */
	for (i = 0; i < ngpus && rc == KUBE_OK; i = j) {
		g = &inv->gpus[v[i]];
		for (j = i + 1, ngpu_node = 1; j < ngpus &&
		    strcmp(inv->gpus[v[j]].node, g->node) == 0; j++)
			ngpu_node++;
		geo = inv->geometries[g->geometry];
		o = node_obj(g->node, geo->product != NULL ? geo->product :
		    geo->model, ngpu_node);
		rc = snap_add(s, o, err);
		for (k = i; k < j && rc == KUBE_OK; ) {
			size_t	m = k + 1;

			h = &inv->gpus[v[k]];
			while (m < j && strcmp(plan_geometry_driver(inv->geometries[
			    inv->gpus[v[m]].geometry]), plan_geometry_driver(
			    inv->geometries[h->geometry])) == 0)
				m++;
			rc = add_pool(s, inv, v + k, m - k, err);
			k = m;
		}
	}
	/* DeviceClasses: the Helm chart's, or one per other driver. */
	for (i = 0; i < ngpus; i++) {
		const char *d = plan_geometry_driver(inv->geometries[
		    inv->gpus[v[i]].geometry]);

		if (strcmp(d, PLAN_NVIDIA_DRIVER) == 0) {
			nvidia = 1;
			continue;
		}
		for (k = 0; k < ndrivers; k++)
			if (strcmp(drivers[k], d) == 0)
				break;
		if (k == ndrivers) {
			drivers = xreallocarray(drivers, ndrivers + 1,
			    sizeof *drivers);
			drivers[ndrivers++] = d;
		}
	}
	if (nvidia && rc == KUBE_OK) {
		rc = snap_add(s, class_obj(PLAN_CLASS_GPU, "device.driver == "
		    "'gpu.nvidia.com' && device.attributes['gpu.nvidia.com']"
		    ".type == 'gpu'", "nvidia.com/gpu"), err);
		if (rc == KUBE_OK)
			rc = snap_add(s, class_obj(PLAN_CLASS_MIG,
			    "device.driver == 'gpu.nvidia.com' && "
			    "device.attributes['gpu.nvidia.com'].type == "
			    "'mig'", NULL), err);
	}
	for (k = 0; k < ndrivers && rc == KUBE_OK; k++) {
		char	q[NAME_MAX_LEN];

		plan_cel_quote(drivers[k], q, sizeof q);
		expr = xasprintf("device.driver == '%s'", q);
		rc = snap_add(s, class_obj(drivers[k], expr, NULL), err);
		free(expr);
	}
	free(drivers);
	/* Running instances as allocated claims. */
	if (!(flags & PLAN_SNAP_NO_CLAIMS) && rc == KUBE_OK) {
		for (i = 0; i < ngpus; i++)
			nruns += inv->gpus[v[i]].nrunning;
		runs = xcalloc(nruns + 1, sizeof *runs);
		nruns = 0;
		for (i = 0; i < ngpus; i++) {
			g = &inv->gpus[v[i]];
			geo = inv->geometries[g->geometry];
			for (k = 0; k < g->nrunning; k++) {
				struct run_ref *r = &runs[nruns];

				if (g->running[k].placement < 0 ||
				    (size_t)g->running[k].placement >=
				    geo->nplacements)
					continue;
				r->gpu = v[i];
				r->placement = g->running[k].placement;
				r->ns = g->running[k].namespace != NULL ?
				    g->running[k].namespace : "default";
				if (g->running[k].claim != NULL)
					r->claim = g->running[k].claim;
				else {
					r->owned = xasprintf("running-%zu-%d",
					    v[i], r->placement);
					r->claim = r->owned;
				}
				nruns++;
			}
		}
		rc = add_claims(s, inv, runs, nruns, err);
		for (i = 0; i < nruns; i++)
			free(runs[i].owned);
		free(runs);
	}
	free(v);
	if (rc != KUBE_OK) {
		kube_snapshot_free(s);
		return rc;
	}
	kube_snapshot_finish(s);
	*out = s;
	return KUBE_OK;
}

int
plan_inventory_snapshot(const struct plan_inventory *inv,
    struct kube_snapshot **out, struct dra_err *err)
{
	size_t	*v, i;
	int	 rc;

	*out = NULL;
	if (inv == NULL)
		return dra_err_set(err, KUBE_E_CONFIG, "inventory snapshot: "
		    "no inventory");
	v = xcalloc(inv->ngpus + 1, sizeof *v);
	for (i = 0; i < inv->ngpus; i++)
		v[i] = i;
	rc = plan_inventory_snapshot_gpus(inv, v, inv->ngpus, 0, out, err);
	free(v);
	return rc;
}
