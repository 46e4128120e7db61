/*
 * table.c: the table structure, the kinds, and the small formatting
 * helpers every view shares (ages, quantities, device states).
 */
#include "views.h"
#include "views-int.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "xmalloc.h"

const struct dra_kind_info dra_kinds[DRA_KIND_COUNT] = {
	{ DRA_KIND_CLAIM, "claims", "resourceclaim", "ResourceClaim",
	    "resourceclaim.resource.k8s.io", 1,
	    { "claim", "resourceclaims", "resourceclaim", NULL } },
	{ DRA_KIND_TEMPLATE, "templates", "resourceclaimtemplate",
	    "ResourceClaimTemplate", "resourceclaimtemplate.resource.k8s.io",
	    1, { "template", "resourceclaimtemplates",
	    "resourceclaimtemplate", NULL } },
	{ DRA_KIND_SLICE, "slices", "resourceslice", "ResourceSlice",
	    "resourceslice.resource.k8s.io", 0,
	    { "slice", "resourceslices", "resourceslice", NULL } },
	{ DRA_KIND_DEVICE, "devices", "device", NULL, "device", 0,
	    { "device", "dev", "devs", NULL } },
	{ DRA_KIND_POOL, "pools", "pool", NULL, "pool", 0,
	    { "pool", NULL } },
	{ DRA_KIND_CLASS, "classes", "deviceclass", "DeviceClass",
	    "deviceclass.resource.k8s.io", 0,
	    { "class", "deviceclasses", "deviceclass", NULL } },
	{ DRA_KIND_NODE, "nodes", "node", "Node", "node", 0,
	    { "node", "no", NULL } },
	{ DRA_KIND_QUOTA, "quotas", "resourcequota", "ResourceQuota",
	    "resourcequota", 1,
	    { "quota", "resourcequotas", "resourcequota", NULL } },
};

const struct dra_kind_info *
dra_kind_find(const char *word)
{
	size_t	i, j;

	if (word == NULL)
		return NULL;
	for (i = 0; i < DRA_KIND_COUNT; i++) {
		if (strcasecmp(dra_kinds[i].name, word) == 0)
			return &dra_kinds[i];
		for (j = 0; dra_kinds[i].aliases[j] != NULL; j++) {
			if (strcasecmp(dra_kinds[i].aliases[j], word) == 0)
				return &dra_kinds[i];
		}
	}
	return NULL;
}

struct dra_table *
view_table_new(enum dra_kind kind)
{
	struct dra_table	*t;

	t = xcalloc(1, sizeof *t);
	t->kind = kind;
	dra_arena_init(&t->arena);
	return t;
}

void
view_col(struct dra_table *t, const char *name, unsigned flags)
{
	if (t->ncolumns == DRA_TABLE_MAXCOLS)
		abort();
	t->columns[t->ncolumns].name = name;
	t->columns[t->ncolumns].flags = flags;
	t->ncolumns++;
}

void
view_row(struct dra_table *t, struct view_rowb *rb, const void *obj)
{
	struct dra_row	*row;
	size_t		 i;

	if (t->nrows == t->caprows) {
		t->caprows = t->caprows ? t->caprows * 2 : 64;
		t->rows = xreallocarray(t->rows, t->caprows, sizeof *t->rows);
	}
	row = &t->rows[t->nrows++];
	row->obj = obj;
	row->node_name = NULL;
	row->cells = dra_arena_calloc(&t->arena, t->ncolumns ? t->ncolumns : 1,
	    sizeof *row->cells);
	for (i = 0; i < t->ncolumns; i++)
		row->cells[i] = "";
	rb->t = t;
	rb->row = row;
	rb->i = 0;
}

const char *
view_strdup(struct dra_table *t, const char *s)
{
	return dra_arena_strdup(&t->arena, s);
}

void
view_cell(struct view_rowb *rb, const char *s)
{
	if (rb->i >= rb->t->ncolumns)
		abort();
	if (s == NULL || *s == '\0')
		s = "-";
	rb->row->cells[rb->i++] = dra_arena_strdup(&rb->t->arena, s);
}

void
view_cellf(struct view_rowb *rb, const char *fmt, ...)
{
	char	 buf[256];
	va_list	 ap;
	int	 n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < sizeof buf) {
		view_cell(rb, buf);
		return;
	}
	{
		struct dra_buf	b;

		dra_buf_init(&b, DRA_BUF_MAX_PAGE);
		va_start(ap, fmt);
		dra_buf_vaddf(&b, fmt, ap);
		va_end(ap);
		view_cell(rb, dra_buf_str(&b));
		dra_buf_release(&b);
	}
}

void
dra_table_free(struct dra_table *t)
{
	if (t == NULL)
		return;
	free(t->rows);
	dra_arena_release(&t->arena);
	free(t);
}

int
view_name_ok(const struct dra_filter *f, const char *n1, const char *n2)
{
	size_t	i;
	int	ok = 0;

	if (f == NULL || f->nnames == 0)
		return 1;
	for (i = 0; i < f->nnames; i++) {
		if ((n1 != NULL && strcmp(f->names[i], n1) == 0) ||
		    (n2 != NULL && strcmp(f->names[i], n2) == 0)) {
			ok = 1;
			if (f->matched != NULL)
				f->matched[i] = 1;
		}
	}
	return ok;
}

int
view_ns_ok(const struct dra_filter *f, const char *ns)
{
	if (f == NULL || f->namespace == NULL)
		return 1;
	return ns != NULL && strcmp(ns, f->namespace) == 0;
}

int
view_all_ns(const struct dra_filter *f)
{
	return f == NULL || f->namespace == NULL;
}

int
view_labels_ok(const struct dra_filter *f, const struct kube_meta *m)
{
	if (f == NULL || f->selector == NULL)
		return 1;
	if (m == NULL)
		return dra_selector_match(f->selector, NULL, 0);
	return dra_selector_match(f->selector, m->labels, m->nlabels);
}

int
view_strcmp(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

int
dra_natcmp(const char *a, const char *b)
{
	const char	*da, *db;
	size_t		 la, lb;
	int		 c;

	if (a == NULL || b == NULL)
		return (a != NULL) - (b != NULL);
	while (*a != '\0' && *b != '\0') {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			while (*a == '0' && isdigit((unsigned char)a[1]))
				a++;
			while (*b == '0' && isdigit((unsigned char)b[1]))
				b++;
			for (da = a; isdigit((unsigned char)*da); da++)
				;
			for (db = b; isdigit((unsigned char)*db); db++)
				;
			la = da - a;
			lb = db - b;
			if (la != lb)
				return la < lb ? -1 : 1;
			c = memcmp(a, b, la);
			if (c != 0)
				return c;
			a = da;
			b = db;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return (*a != '\0') - (*b != '\0');
}

char *
view_qty(int64_t milli, char *buf, size_t len)
{
	return kube_quantity_format(milli, buf, len);
}

const char *
view_qty_text(const struct kube_quantity *q, char *buf, size_t len)
{
	if (q->text != NULL && *q->text != '\0')
		return q->text;
	return kube_quantity_format(q->milli, buf, len);
}

void
view_join(struct dra_buf *b, const char *sep, const char *s)
{
	if (b->len > 0)
		dra_buf_adds(b, sep);
	dra_buf_adds(b, s);
}

char *
dra_format_age(int64_t now, int64_t then, char *buf, size_t len)
{
	int64_t	d, m, h, days;

	if (then == 0) {
		snprintf(buf, len, "<unknown>");
		return buf;
	}
	d = now - then;
	if (d < -1) {
		snprintf(buf, len, "<invalid>");
		return buf;
	}
	if (d < 0)
		d = 0;
	/* apimachinery/pkg/util/duration.HumanDuration */
	if (d < 60 * 2) {
		snprintf(buf, len, "%" PRId64 "s", d);
		return buf;
	}
	m = d / 60;
	if (m < 10) {
		if (d % 60 == 0)
			snprintf(buf, len, "%" PRId64 "m", m);
		else
			snprintf(buf, len, "%" PRId64 "m%" PRId64 "s", m,
			    d % 60);
		return buf;
	}
	if (m < 60 * 3) {
		snprintf(buf, len, "%" PRId64 "m", m);
		return buf;
	}
	h = d / 3600;
	if (h < 8) {
		if (m % 60 == 0)
			snprintf(buf, len, "%" PRId64 "h", h);
		else
			snprintf(buf, len, "%" PRId64 "h%" PRId64 "m", h,
			    m % 60);
		return buf;
	}
	if (h < 48) {
		snprintf(buf, len, "%" PRId64 "h", h);
		return buf;
	}
	days = h / 24;
	if (h < 24 * 8) {
		if (h % 24 == 0)
			snprintf(buf, len, "%" PRId64 "d", days);
		else
			snprintf(buf, len, "%" PRId64 "d%" PRId64 "h", days,
			    h % 24);
		return buf;
	}
	if (h < 24 * 365 * 2) {
		snprintf(buf, len, "%" PRId64 "d", days);
		return buf;
	}
	if (h < 24 * 365 * 8) {
		if (days % 365 == 0)
			snprintf(buf, len, "%" PRId64 "y", days / 365);
		else
			snprintf(buf, len, "%" PRId64 "y%" PRId64 "d",
			    days / 365, days % 365);
		return buf;
	}
	snprintf(buf, len, "%" PRId64 "y", days / 365);
	return buf;
}

const struct kube_attr *
dra_device_attr_any(const struct kube_device *d, const char *id)
{
	const struct kube_attr	*a;
	size_t			 i;

	a = kube_device_attr(d, NULL, id);
	if (a != NULL)
		return a;
	for (i = 0; i < d->nattrs; i++) {
		if (strcmp(d->attrs[i].id, id) == 0)
			return &d->attrs[i];
	}
	return NULL;
}

char *
dra_attr_text(const struct kube_attr *a, char *buf, size_t len)
{
	size_t	i, off;

	buf[0] = '\0';
	switch (a->type) {
	case KUBE_ATTR_INT:
		snprintf(buf, len, "%" PRId64, a->i);
		break;
	case KUBE_ATTR_BOOL:
		snprintf(buf, len, "%s", a->i ? "true" : "false");
		break;
	case KUBE_ATTR_STRING:
	case KUBE_ATTR_VERSION:
		snprintf(buf, len, "%s", a->s != NULL ? a->s : "");
		break;
	default:
		off = 0;
		for (i = 0; i < a->nlist && off < len; i++) {
			snprintf(buf + off, len - off, "%s%s",
			    i > 0 ? "," : "", a->list[i]);
			off += strlen(buf + off);
		}
		break;
	}
	return buf;
}

const struct kube_capacity *
view_key_capacity(const struct kube_device *d)
{
	const struct kube_capacity	*c;
	size_t				 i;

	c = kube_device_capacity(d, NULL, "memory");
	if (c != NULL)
		return c;
	for (i = 0; i < d->ncapacity; i++) {
		if (strcmp(d->capacity[i].id, "memory") == 0)
			return &d->capacity[i];
	}
	return d->ncapacity > 0 ? &d->capacity[0] : NULL;
}

char *
dra_device_state(const struct kube_device *d, char *buf, size_t len)
{
	const struct kube_capacity	*c;
	struct dra_buf			 b;
	char				 q1[64], q2[64];
	size_t				 ci;

	dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	if ((d->state & KUBE_DEV_SHARED) && d->nallocs > 0) {
		c = view_key_capacity(d);
		if (c != NULL && d->capacity_used != NULL) {
			ci = c - d->capacity;
			dra_buf_addf(&b, "shared(%s/%s)",
			    view_qty(d->capacity_used[ci], q1, sizeof q1),
			    view_qty(c->value.milli, q2, sizeof q2));
		} else
			dra_buf_addf(&b, "shared(%zu)", d->nallocs);
	} else if (d->state & KUBE_DEV_ALLOCATED)
		dra_buf_adds(&b, "allocated");
	else if (d->state & KUBE_DEV_ADMIN)
		dra_buf_adds(&b, "admin");
	else if (d->state & KUBE_DEV_BLOCKED) {
		const char	*set = d->blocked_by, *slash;

		if (set != NULL && (slash = strchr(set, '/')) != NULL)
			dra_buf_addf(&b, "blocked(%.*s)", (int)(slash - set),
			    set);
		else
			dra_buf_addf(&b, "blocked(%s)",
			    set != NULL ? set : "counters");
	} else if (!(d->state & (KUBE_DEV_TAINTED | KUBE_DEV_UNUSABLE)))
		dra_buf_adds(&b, "free");
	if (d->state & KUBE_DEV_TAINTED)
		view_join(&b, ",", "tainted");
	if (d->state & KUBE_DEV_UNUSABLE)
		view_join(&b, ",", "unusable");
	snprintf(buf, len, "%s", dra_buf_str(&b));
	dra_buf_release(&b);
	return buf;
}

void
view_request_text(struct dra_buf *b, const struct kube_request *r)
{
	const struct kube_device_request	*dr;
	size_t					 i, n;

	if (r->exactly != NULL) {
		dr = r->exactly;
		n = 1;
	} else {
		dr = r->first_available;
		n = r->nfirst_available;
	}
	for (i = 0; i < n; i++) {
		if (i > 0)
			dra_buf_adds(b, "|");
		dra_buf_adds(b, dr[i].class_name != NULL &&
		    *dr[i].class_name != '\0' ? dr[i].class_name : "?");
		switch (dr[i].mode) {
		case KUBE_MODE_EXACT_COUNT:
			dra_buf_addf(b, " x%" PRId64, dr[i].count);
			break;
		case KUBE_MODE_ALL:
			dra_buf_adds(b, " xAll");
			break;
		default:
			dra_buf_addf(b, " x%s", dr[i].mode_text != NULL ?
			    dr[i].mode_text : "?");
			break;
		}
	}
	if (n == 0)
		dra_buf_adds(b, "?");
}

void
view_requests_text(struct dra_buf *b, const struct kube_claim_spec *spec)
{
	size_t	i;

	for (i = 0; i < spec->nrequests; i++) {
		if (i > 0)
			dra_buf_adds(b, ", ");
		view_request_text(b, &spec->requests[i]);
	}
}

static int
device_cmp(const void *pa, const void *pb)
{
	const struct kube_device	*a = *(const struct kube_device **)pa;
	const struct kube_device	*b = *(const struct kube_device **)pb;
	int				 c;

	c = view_strcmp(kube_device_node(a), kube_device_node(b));
	if (c == 0)
		c = view_strcmp(a->slice->driver, b->slice->driver);
	if (c == 0)
		c = view_strcmp(a->slice->pool_name, b->slice->pool_name);
	if (c == 0)
		c = dra_natcmp(a->name, b->name);
	if (c == 0)
		c = view_strcmp(a->slice->meta.name, b->slice->meta.name);
	return c;
}

struct kube_device **
view_all_devices(const struct kube_snapshot *s, size_t *np)
{
	struct kube_device	**v = NULL;
	struct kube_pool	 *p;
	struct kube_slice	 *sl;
	size_t			  i, j, k, n = 0, cap = 0;

	for (i = 0; i < s->pools.n; i++) {
		p = s->pools.v[i];
		for (j = 0; j < p->nslices; j++) {
			sl = p->slices[j];
			for (k = 0; k < sl->ndevices; k++) {
				if (n == cap) {
					cap = cap ? cap * 2 : 256;
					v = xreallocarray(v, cap, sizeof *v);
				}
				v[n++] = &sl->devices[k];
			}
		}
	}
	if (n > 1)
		qsort(v, n, sizeof *v, device_cmp);
	*np = n;
	return v;
}

static int
spec_split(const char *spec, char *drv, size_t dlen, const char **rest)
{
	const char	*slash;

	slash = strchr(spec, '/');
	if (slash == NULL || (size_t)(slash - spec) >= dlen)
		return 0;
	memcpy(drv, spec, slash - spec);
	drv[slash - spec] = '\0';
	*rest = slash + 1;
	return 1;
}

size_t
dra_find_devices(const struct kube_snapshot *s, const char *spec,
    struct kube_device **out, size_t max)
{
	struct kube_pool	*p;
	struct kube_slice	*sl;
	struct kube_device	*d;
	char			 drv[256];
	const char		*rest = NULL, *last;
	size_t			 i, j, k, n = 0, plen = 0;
	int			 full;

	full = spec_split(spec, drv, sizeof drv, &rest) &&
	    (last = strrchr(rest, '/')) != NULL;
	if (full)
		plen = last - rest;
	for (i = 0; i < s->pools.n; i++) {
		p = s->pools.v[i];
		if (full && (strcmp(p->driver, drv) != 0 ||
		    strlen(p->name) != plen ||
		    strncmp(p->name, rest, plen) != 0))
			continue;
		for (j = 0; j < p->nslices; j++) {
			sl = p->slices[j];
			for (k = 0; k < sl->ndevices; k++) {
				d = &sl->devices[k];
				if (strcmp(d->name, full ? rest + plen + 1 :
				    spec) != 0)
					continue;
				if (n < max)
					out[n] = d;
				n++;
			}
		}
	}
	return n;
}

size_t
dra_find_pools(const struct kube_snapshot *s, const char *spec,
    struct kube_pool **out, size_t max)
{
	struct kube_pool	*p;
	char			 drv[256];
	const char		*rest;
	size_t			 i, n = 0;
	int			 split;

	split = spec_split(spec, drv, sizeof drv, &rest);
	for (i = 0; i < s->pools.n; i++) {
		p = s->pools.v[i];
		if (strcmp(p->name, spec) != 0 && (!split ||
		    strcmp(p->driver, drv) != 0 || strcmp(p->name, rest) != 0))
			continue;
		if (n < max)
			out[n] = p;
		n++;
	}
	return n;
}

const struct kube_meta *
dra_row_meta(const struct dra_table *t, const struct dra_row *row)
{
	switch (t->kind) {
	case DRA_KIND_CLAIM:
		return &((const struct kube_claim *)row->obj)->meta;
	case DRA_KIND_TEMPLATE:
		return &((const struct kube_claim_template *)row->obj)->meta;
	case DRA_KIND_SLICE:
		return &((const struct kube_slice *)row->obj)->meta;
	case DRA_KIND_CLASS:
		return &((const struct kube_device_class *)row->obj)->meta;
	case DRA_KIND_QUOTA:
		return &((const struct kube_quota *)row->obj)->meta;
	default:
		return NULL;
	}
}

char *
dra_row_name(const struct dra_table *t, const struct dra_row *row,
    char *buf, size_t len)
{
	const struct kube_meta		*m = dra_row_meta(t, row);
	const struct kube_device	*d;
	const struct kube_pool		*p;

	if (m != NULL) {
		snprintf(buf, len, "%s/%s", dra_kinds[t->kind].resource,
		    m->name);
		return buf;
	}
	switch (t->kind) {
	case DRA_KIND_DEVICE:
		d = row->obj;
		snprintf(buf, len, "device/%s/%s/%s", d->slice->driver,
		    d->slice->pool_name, d->name);
		break;
	case DRA_KIND_POOL:
		p = row->obj;
		snprintf(buf, len, "pool/%s/%s", p->driver, p->name);
		break;
	case DRA_KIND_NODE:
		snprintf(buf, len, "node/%s", row->node_name);
		break;
	default:
		snprintf(buf, len, "?");
		break;
	}
	return buf;
}

static int
meta_cmp(const void *pa, const void *pb)
{
	const struct kube_meta	*a = *(const struct kube_meta *const *)pa;
	const struct kube_meta	*b = *(const struct kube_meta *const *)pb;
	int			 c;

	c = view_strcmp(a->namespace, b->namespace);
	if (c == 0)
		c = view_strcmp(a->name, b->name);
	return c;
}

void **
view_sort_meta(void *const *v, size_t n)
{
	void	**out;

	out = xreallocarray(NULL, n ? n : 1, sizeof *out);
	if (n > 0)
		memcpy(out, v, n * sizeof *out);
	if (n > 1)
		qsort(out, n, sizeof *out, meta_cmp);
	return out;
}
