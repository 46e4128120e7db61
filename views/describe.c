/*
 * describe.c: the joined story of one object, in kubectl describe's
 * layout: "Key:<TAB>value" lines at indentation levels of two spaces,
 * run through a tabwriter (Go text/tabwriter semantics, minwidth 0,
 * padding 2, as kubectl's describers use) so that values line up
 * within each block of consecutive tabbed lines.
 */
#include "views.h"
#include "views-int.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "xmalloc.h"

struct desc {
	struct dra_buf	b;
};

static void	d_line(struct desc *, int, const char *, ...)
		    __attribute__((format(printf, 3, 4)));

static void
d_init(struct desc *d)
{
	dra_buf_init(&d->b, DRA_BUF_MAX_PAGE);
}

static void
d_line(struct desc *d, int level, const char *fmt, ...)
{
	va_list	ap;
	int	i;

	for (i = 0; i < level; i++)
		dra_buf_adds(&d->b, "  ");
	va_start(ap, fmt);
	dra_buf_vaddf(&d->b, fmt, ap);
	va_end(ap);
	dra_buf_adds(&d->b, "\n");
}

/* Display width: UTF-8 code points. */
static size_t
text_width(const char *s, size_t n)
{
	size_t	i, w = 0;

	for (i = 0; i < n; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			w++;
	}
	return w;
}

struct tw_cell {
	const char	*s;
	size_t		 len;
	size_t		 width;
};

struct tw_line {
	struct tw_cell	*cells;
	size_t		 ncells;
};

struct tw {
	struct tw_line	*lines;
	size_t		 nlines;
	size_t		*widths;
	size_t		 nwidths;
	size_t		 minwidth;
	size_t		 padding;
	struct dra_buf	*out;
};

static void
tw_write_lines(struct tw *tw, size_t line0, size_t line1)
{
	const struct tw_line	*l;
	size_t			 i, j, k;

	for (i = line0; i < line1; i++) {
		l = &tw->lines[i];
		for (j = 0; j < l->ncells; j++) {
			dra_buf_add(tw->out, l->cells[j].s, l->cells[j].len);
			if (j + 1 < l->ncells && j < tw->nwidths) {
				for (k = l->cells[j].width; k < tw->widths[j];
				    k++)
					dra_buf_add(tw->out, " ", 1);
			}
		}
		dra_buf_add(tw->out, "\n", 1);
	}
}

/* Go's tabwriter.format: column blocks, recursively. */
static void
tw_format(struct tw *tw, size_t line0, size_t line1)
{
	size_t	column = tw->nwidths, this, width, w;

	for (this = line0; this < line1; this++) {
		if (column + 1 >= tw->lines[this].ncells)
			continue;
		tw_write_lines(tw, line0, this);
		line0 = this;
		width = tw->minwidth;
		for (; this < line1; this++) {
			if (column + 1 >= tw->lines[this].ncells)
				break;
			w = tw->lines[this].cells[column].width + tw->padding;
			if (w > width)
				width = w;
		}
		tw->widths = xreallocarray(tw->widths, tw->nwidths + 1,
		    sizeof *tw->widths);
		tw->widths[tw->nwidths++] = width;
		tw_format(tw, line0, this);
		tw->nwidths--;
		line0 = this;
		this--;
	}
	tw_write_lines(tw, line0, line1);
}

/* Align text (tab-separated cells, newline-terminated lines) into out. */
static void
tabwrite(const char *text, size_t minwidth, size_t padding,
    struct dra_buf *out)
{
	struct tw	 tw;
	struct tw_line	*l;
	const char	*p, *eol, *tab;
	size_t		 i;

	memset(&tw, 0, sizeof tw);
	tw.minwidth = minwidth;
	tw.padding = padding;
	tw.out = out;
	for (p = text; *p != '\0'; p = *eol != '\0' ? eol + 1 : eol) {
		eol = strchr(p, '\n');
		if (eol == NULL)
			eol = p + strlen(p);
		tw.lines = xreallocarray(tw.lines, tw.nlines + 1,
		    sizeof *tw.lines);
		l = &tw.lines[tw.nlines++];
		l->cells = NULL;
		l->ncells = 0;
		for (;;) {
			tab = memchr(p, '\t', eol - p);
			l->cells = xreallocarray(l->cells, l->ncells + 1,
			    sizeof *l->cells);
			l->cells[l->ncells].s = p;
			l->cells[l->ncells].len = (tab != NULL ? tab : eol) - p;
			l->cells[l->ncells].width = text_width(p,
			    l->cells[l->ncells].len);
			l->ncells++;
			if (tab == NULL)
				break;
			p = tab + 1;
		}
	}
	tw_format(&tw, 0, tw.nlines);
	for (i = 0; i < tw.nlines; i++)
		free(tw.lines[i].cells);
	free(tw.lines);
	free(tw.widths);
}

static char *
d_finish(struct desc *d)
{
	struct dra_buf	out;

	dra_buf_init(&out, DRA_BUF_MAX_PAGE);
	tabwrite(dra_buf_str(&d->b), 0, 2, &out);
	dra_buf_release(&d->b);
	return dra_buf_take(&out);
}

static const char *
timestamp(int64_t t, char *buf, size_t len)
{
	struct tm	tm;
	time_t		tt = (time_t)t;

	if (t == 0)
		return "<unknown>";
	if (gmtime_r(&tt, &tm) == NULL)
		return "<invalid>";
	strftime(buf, len, "%a, %d %b %Y %H:%M:%S +0000", &tm);
	return buf;
}

static void
d_kv(struct desc *d, int level, const char *title,
    const struct kube_kv *kv, size_t n, const char *sep)
{
	size_t	i;

	if (n == 0) {
		d_line(d, level, "%s:\t<none>", title);
		return;
	}
	for (i = 0; i < n; i++) {
		if (i == 0)
			d_line(d, level, "%s:\t%s%s%s", title, kv[i].key,
			    sep, kv[i].value != NULL ? kv[i].value : "");
		else
			d_line(d, level, "\t%s%s%s", kv[i].key, sep,
			    kv[i].value != NULL ? kv[i].value : "");
	}
}

static void
d_meta(struct desc *d, const struct kube_snapshot *s,
    const struct kube_meta *m, const char *api_version)
{
	char	tmp[64], age[32];

	d_line(d, 0, "Name:\t%s", m->name);
	if (m->namespace != NULL)
		d_line(d, 0, "Namespace:\t%s", m->namespace);
	d_kv(d, 0, "Labels", m->labels, m->nlabels, "=");
	d_kv(d, 0, "Annotations", m->annotations, m->nannotations, ": ");
	if (api_version != NULL)
		d_line(d, 0, "API Version:\t%s", api_version);
	if (m->created != 0)
		d_line(d, 0, "Creation Timestamp:\t%s (%s ago)",
		    timestamp(m->created, tmp, sizeof tmp),
		    dra_format_age(s->now, m->created, age, sizeof age));
	else
		d_line(d, 0, "Creation Timestamp:\t<unknown>");
	if (m->deleted != 0)
		d_line(d, 0, "Deletion Timestamp:\t%s",
		    timestamp(m->deleted, tmp, sizeof tmp));
}

static void
d_device_request(struct desc *d, int level,
    const struct kube_device_request *r)
{
	char	q[64];
	size_t	i;

	d_line(d, level, "Device Class:\t%s", r->class_name != NULL ?
	    r->class_name : "<none>");
	d_line(d, level, "Allocation Mode:\t%s", r->mode_text != NULL ?
	    r->mode_text : r->mode == KUBE_MODE_ALL ? "All" : "ExactCount");
	if (r->mode == KUBE_MODE_EXACT_COUNT)
		d_line(d, level, "Count:\t%" PRId64, r->count);
	if (r->admin_access)
		d_line(d, level, "Admin Access:\ttrue");
	if (r->nselectors == 0)
		d_line(d, level, "Selectors:\t<none>");
	else {
		d_line(d, level, "Selectors:");
		for (i = 0; i < r->nselectors; i++)
			d_line(d, level + 1, "%s", r->selectors[i]);
	}
	for (i = 0; i < r->ncapacity; i++)
		d_line(d, level, "%s\t%s/%s=%s", i == 0 ? "Capacity:" : "",
		    r->capacity[i].domain != NULL ? r->capacity[i].domain : "",
		    r->capacity[i].id,
		    view_qty_text(&r->capacity[i].value, q, sizeof q));
	for (i = 0; i < r->ntolerations; i++)
		d_line(d, level, "%s\t%s %s %s%s%s", i == 0 ?
		    "Tolerations:" : "",
		    r->tolerations[i].key != NULL ? r->tolerations[i].key :
		    "<all>", r->tolerations[i].operator != NULL ?
		    r->tolerations[i].operator : "Equal",
		    r->tolerations[i].value != NULL ?
		    r->tolerations[i].value : "",
		    r->tolerations[i].effect != NULL ? ":" : "",
		    r->tolerations[i].effect != NULL ?
		    r->tolerations[i].effect : "");
}

static void
d_spec(struct desc *d, const struct kube_claim_spec *spec)
{
	const struct kube_request	*r;
	const struct kube_constraint	*c;
	struct dra_buf			 b;
	size_t				 i, j;

	if (spec->nrequests == 0)
		d_line(d, 0, "Requests:\t<none>");
	else
		d_line(d, 0, "Requests:");
	for (i = 0; i < spec->nrequests; i++) {
		r = &spec->requests[i];
		d_line(d, 1, "%s:", r->name);
		if (r->exactly != NULL) {
			d_device_request(d, 2, r->exactly);
			continue;
		}
		d_line(d, 2, "First Available:");
		for (j = 0; j < r->nfirst_available; j++) {
			d_line(d, 3, "%s/%s:", r->name,
			    r->first_available[j].name);
			d_device_request(d, 4, &r->first_available[j]);
		}
	}
	if (spec->nconstraints == 0)
		d_line(d, 0, "Constraints:\t<none>");
	else
		d_line(d, 0, "Constraints:");
	dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	for (i = 0; i < spec->nconstraints; i++) {
		c = &spec->constraints[i];
		dra_buf_reset(&b);
		for (j = 0; j < c->nrequests; j++)
			view_join(&b, ",", c->requests[j]);
		if (c->match_attribute != NULL)
			d_line(d, 1, "matchAttribute %s\t(requests: %s)",
			    c->match_attribute, b.len ? dra_buf_str(&b) :
			    "all");
		else if (c->distinct_attribute != NULL)
			d_line(d, 1, "distinctAttribute %s\t(requests: %s)",
			    c->distinct_attribute, b.len ? dra_buf_str(&b) :
			    "all");
		else
			d_line(d, 1, "unknown constraint %s",
			    c->unknown != NULL ? c->unknown : "");
	}
	dra_buf_release(&b);
	if (spec->nconfig > 0)
		d_line(d, 0, "Config:\t%zu entries", spec->nconfig);
}

/* A device's key attributes in one line ("uuid=...,index=0"). */
static void
key_attrs(struct dra_buf *b, const struct kube_device *dev)
{
	static const char	*keys[] = { "uuid", "index", "profile", "type",
	    "model", "productName", "pciBusID", NULL };
	const struct kube_attr	*a;
	char			 tmp[256];
	size_t			 i;

	for (i = 0; keys[i] != NULL; i++) {
		a = dra_device_attr_any(dev, keys[i]);
		if (a == NULL)
			continue;
		if (b->len > 0)
			dra_buf_adds(b, ",");
		dra_buf_addf(b, "%s=%s", keys[i],
		    dra_attr_text(a, tmp, sizeof tmp));
	}
}

char *
dra_describe_claim(const struct kube_snapshot *s, const struct kube_claim *c)
{
	struct desc			 d;
	const struct kube_result	*r;
	const struct kube_pod		*pod;
	struct dra_buf			 b;
	char				 tmp[128];
	const char			*node;
	size_t				 i, j;

	d_init(&d);
	d_meta(&d, s, &c->meta, c->api_version);
	d_line(&d, 0, "State:\t%s", kube_claim_state(c, tmp, sizeof tmp));
	if (c->template_name != NULL)
		d_line(&d, 0, "Template:\t%s", c->template_name);
	d_spec(&d, &c->spec);
	dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	if (!c->allocated)
		d_line(&d, 0, "Allocation:\t<none>");
	else {
		d_line(&d, 0, "Allocation:");
		if (c->alloc_nodes == NULL)
			d_line(&d, 1, "Node:\t<any>");
		else if (c->alloc_nodes->single_node != NULL)
			d_line(&d, 1, "Node:\t%s",
			    c->alloc_nodes->single_node);
		else
			d_line(&d, 1, "Node Selector:\t%s",
			    c->alloc_nodes->summary != NULL ?
			    c->alloc_nodes->summary : "<selector>");
		d_line(&d, 1, "Devices:");
		d_line(&d, 2, "REQUEST\tDEVICE\tNODE\tATTRIBUTES");
		for (i = 0; i < c->nresults; i++) {
			r = &c->results[i];
			dra_buf_reset(&b);
			node = NULL;
			if (r->dev != NULL) {
				key_attrs(&b, r->dev);
				node = kube_device_node(r->dev);
			}
			if (r->admin_access)
				view_join(&b, ",", "adminAccess");
			if (r->share_id != NULL) {
				view_join(&b, ",", "shareID=");
				dra_buf_adds(&b, r->share_id);
			}
			for (j = 0; j < r->nconsumed; j++) {
				view_join(&b, ",", r->consumed[j].id);
				dra_buf_addf(&b, "=%s", view_qty_text(
				    &r->consumed[j].value, tmp, sizeof tmp));
			}
			d_line(&d, 2, "%s\t%s/%s/%s\t%s\t%s", r->request,
			    r->driver, r->pool, r->device,
			    r->dev == NULL ? "<not published>" :
			    node != NULL ? node : "<network>",
			    b.len > 0 ? dra_buf_str(&b) : "-");
		}
	}
	if (c->nreserved == 0)
		d_line(&d, 0, "Reserved For:\t<none>");
	else {
		d_line(&d, 0, "Reserved For:");
		for (i = 0; i < c->nreserved; i++)
			d_line(&d, 1, "%s/%s\t(uid %s)",
			    c->reserved[i].resource != NULL &&
			    strcmp(c->reserved[i].resource, "pods") != 0 ?
			    c->reserved[i].resource : "pod",
			    c->reserved[i].name, c->reserved[i].uid != NULL ?
			    c->reserved[i].uid : "-");
	}
	if (c->npods == 0)
		d_line(&d, 0, "Pods:\t<none>");
	else {
		d_line(&d, 0, "Pods:");
		for (i = 0; i < c->npods; i++) {
			pod = c->pods[i];
			d_line(&d, 1, "%s/%s:", pod->meta.namespace,
			    pod->meta.name);
			d_line(&d, 2, "Phase:\t%s", pod->phase != NULL ?
			    pod->phase : "<unknown>");
			d_line(&d, 2, "Node:\t%s", pod->node_name != NULL ?
			    pod->node_name : "<none>");
			if (pod->unschedulable != NULL)
				d_line(&d, 2, "PodScheduled:\tFalse: %s",
				    pod->unschedulable);
		}
	}
	dra_buf_release(&b);
	return d_finish(&d);
}

static const struct kube_claim *
holder_of(const struct kube_device *dev, const char **request)
{
	if (dev->nallocs == 0)
		return NULL;
	*request = dev->allocs[0].claim->results[dev->allocs[0].result].request;
	return dev->allocs[0].claim;
}

static void
d_holders(struct desc *d, int level, const struct kube_device *dev)
{
	const struct kube_claim		*c;
	const struct kube_result	*r;
	struct dra_buf			 pods;
	size_t				 i, j;

	if (dev->nallocs == 0) {
		d_line(d, level, "Allocated To:\t<none>");
		return;
	}
	d_line(d, level, "Allocated To:");
	d_line(d, level + 1, "CLAIM\tREQUEST\tPODS");
	dra_buf_init(&pods, DRA_BUF_MAX_SMALL);
	for (i = 0; i < dev->nallocs; i++) {
		c = dev->allocs[i].claim;
		r = &c->results[dev->allocs[i].result];
		dra_buf_reset(&pods);
		for (j = 0; j < c->nreserved; j++) {
			view_join(&pods, ",", "pod/");
			dra_buf_adds(&pods, c->reserved[j].name);
		}
		d_line(d, level + 1, "%s/%s\t%s%s\t%s", c->meta.namespace,
		    c->meta.name, r->request, r->admin_access ?
		    " (adminAccess)" : "", pods.len > 0 ?
		    dra_buf_str(&pods) : "-");
	}
	dra_buf_release(&pods);
}

char *
dra_describe_device(const struct kube_snapshot *s,
    const struct kube_device *dev)
{
	struct desc				 d;
	const struct kube_device_counters	*dc;
	const struct kube_counter_set		*cs;
	const struct kube_device		*o;
	const struct kube_claim			*hc;
	const struct kube_pool			*p = dev->pool;
	const char				*node, *req;
	char					 tmp[256], q1[64], q2[64];
	size_t					 i, j, k, m, n, ci;
	int					 uses;

	d_init(&d);
	d_line(&d, 0, "Name:\t%s", dev->name);
	d_line(&d, 0, "Driver:\t%s", dev->slice->driver);
	d_line(&d, 0, "Pool:\t%s", dev->slice->pool_name);
	node = kube_device_node(dev);
	if (node != NULL)
		d_line(&d, 0, "Node:\t%s", node);
	else if (dev->all_nodes || dev->slice->all_nodes)
		d_line(&d, 0, "Node:\t<all nodes>");
	else
		d_line(&d, 0, "Node Selector:\t%s",
		    dev->node_selector != NULL ? dev->node_selector->summary :
		    dev->slice->node_selector != NULL ?
		    dev->slice->node_selector->summary : "<none>");
	d_line(&d, 0, "Slice:\t%s (generation %" PRId64 ")",
	    dev->slice->meta.name, dev->slice->generation);
	d_line(&d, 0, "State:\t%s", dra_device_state(dev, tmp, sizeof tmp));
	if (dev->blocked_by != NULL && (dev->state & KUBE_DEV_BLOCKED))
		d_line(&d, 0, "Blocked By:\tcounter %s", dev->blocked_by);
	if (dev->state & KUBE_DEV_UNUSABLE)
		d_line(&d, 0, "Unusable:\tpool %s", p != NULL &&
		    p->invalid != NULL ? p->invalid : "incomplete");
	if (dev->allow_multiple)
		d_line(&d, 0, "Allow Multiple Allocations:\ttrue");
	if (dev->nattrs == 0)
		d_line(&d, 0, "Attributes:\t<none>");
	else {
		d_line(&d, 0, "Attributes:");
		for (i = 0; i < dev->nattrs; i++) {
			if (strcmp(dev->attrs[i].domain, dev->slice->driver)
			    == 0)
				d_line(&d, 1, "%s:\t%s", dev->attrs[i].id,
				    dra_attr_text(&dev->attrs[i], tmp,
				    sizeof tmp));
			else
				d_line(&d, 1, "%s/%s:\t%s",
				    dev->attrs[i].domain, dev->attrs[i].id,
				    dra_attr_text(&dev->attrs[i], tmp,
				    sizeof tmp));
		}
	}
	if (dev->ncapacity == 0)
		d_line(&d, 0, "Capacity:\t<none>");
	else {
		d_line(&d, 0, "Capacity:");
		for (i = 0; i < dev->ncapacity; i++) {
			if (dev->capacity_used != NULL &&
			    dev->capacity_used[i] != 0)
				d_line(&d, 1, "%s:\t%s (used %s)",
				    dev->capacity[i].id,
				    view_qty_text(&dev->capacity[i].value, q1,
				    sizeof q1), view_qty(dev->capacity_used[i],
				    q2, sizeof q2));
			else
				d_line(&d, 1, "%s:\t%s", dev->capacity[i].id,
				    view_qty_text(&dev->capacity[i].value, q1,
				    sizeof q1));
		}
	}
	if (dev->nconsumes == 0)
		d_line(&d, 0, "Counters Consumed:\t<none>");
	else
		d_line(&d, 0, "Counters Consumed:");
	for (i = 0; i < dev->nconsumes; i++) {
		dc = &dev->consumes[i];
		cs = dc->set;
		d_line(&d, 1, "%s:%s", dc->counter_set, cs == NULL ?
		    "\t<counter set not published>" : "");
		for (j = 0; j < dc->ncounters; j++) {
			if (cs == NULL) {
				d_line(&d, 2, "%s:\t%s", dc->counters[j].name,
				    view_qty_text(&dc->counters[j].value, q1,
				    sizeof q1));
				continue;
			}
			for (ci = 0; ci < cs->ncounters; ci++) {
				if (strcmp(cs->counters[ci].name,
				    dc->counters[j].name) == 0)
					break;
			}
			if (ci == cs->ncounters) {
				d_line(&d, 2, "%s:\t%s (not in the set)",
				    dc->counters[j].name,
				    view_qty_text(&dc->counters[j].value, q1,
				    sizeof q1));
				continue;
			}
			snprintf(tmp, sizeof tmp, "%s", view_qty_text(
			    &dc->counters[j].value, q1, sizeof q1));
			d_line(&d, 2, "%s:\tconsumes %s of %s (%s in use)",
			    dc->counters[j].name, tmp,
			    view_qty_text(&cs->counters[ci].value, q1,
			    sizeof q1), view_qty(cs->consumed != NULL ?
			    cs->consumed[ci] : 0, q2, sizeof q2));
		}
		if (cs == NULL || p == NULL)
			continue;
		/* Who else draws from this set and holds it now. */
		n = 0;
		for (k = 0; k < p->nslices; k++) {
			for (m = 0; m < p->slices[k]->ndevices; m++) {
				o = &p->slices[k]->devices[m];
				if (o == dev || o->nallocs == 0)
					continue;
				uses = 0;
				for (j = 0; j < o->nconsumes; j++) {
					if (o->consumes[j].set == cs)
						uses = 1;
				}
				if (!uses)
					continue;
				hc = holder_of(o, &req);
				if (n++ == 0)
					d_line(&d, 2, "Set Used By:");
				d_line(&d, 3, "%s\t%s/%s", o->name,
				    hc->meta.namespace, hc->meta.name);
			}
		}
		if (n == 0)
			d_line(&d, 2, "Set Used By:\t<none>");
	}
	if (dev->ntaints == 0)
		d_line(&d, 0, "Taints:\t<none>");
	else {
		d_line(&d, 0, "Taints:");
		for (i = 0; i < dev->ntaints; i++)
			d_line(&d, 1, "%s%s%s:%s\t%s",
			    dev->taints[i].key != NULL ? dev->taints[i].key :
			    "", dev->taints[i].value != NULL &&
			    *dev->taints[i].value != '\0' ? "=" : "",
			    dev->taints[i].value != NULL ?
			    dev->taints[i].value : "",
			    dev->taints[i].effect_text != NULL ?
			    dev->taints[i].effect_text : "None",
			    dev->taints[i].rule != NULL ?
			    dev->taints[i].rule : "(slice)");
	}
	d_holders(&d, 0, dev);
	(void)s;
	return d_finish(&d);
}

static void
d_pool_row(struct desc *d, int level, const struct kube_pool *p)
{
	size_t	j, k, ndev = 0, nalloc = 0;

	for (j = 0; j < p->nslices; j++) {
		for (k = 0; k < p->slices[j]->ndevices; k++) {
			ndev++;
			if (p->slices[j]->devices[k].state &
			    KUBE_DEV_ALLOCATED)
				nalloc++;
		}
	}
	d_line(d, level, "%s\t%s\t%" PRId64 "\t%zu/%" PRId64 "\t%s\t%zu\t%zu",
	    p->driver, p->name, p->generation, p->nslices, p->slice_count,
	    p->invalid != NULL ? "invalid" : p->complete ? "yes" : "no",
	    ndev, nalloc);
}

char *
dra_describe_node(const struct kube_snapshot *s, const char *node_name,
    const struct kube_node *node)
{
	struct desc		  d;
	struct kube_device	**dv;
	const struct kube_device *dev;
	const struct kube_pool	 *last = NULL;
	const char		 *req;
	const struct kube_claim	 *hc;
	struct dra_buf		  b;
	char			  tmp[256];
	size_t			  i, n, ndv, npools = 0;

	d_init(&d);
	if (node != NULL) {
		d_meta(&d, s, &node->meta, NULL);
		d_line(&d, 0, "Ready:\t%s", kube_node_ready_text(node));
		d_line(&d, 0, "Unschedulable:\t%s", node->unschedulable ?
		    "true" : "false");
	} else {
		d_line(&d, 0, "Name:\t%s", node_name);
		d_line(&d, 0, "Ready:\tUnknown (no Node object read)");
	}
	dv = view_all_devices(s, &ndv);
	n = 0;
	for (i = 0; i < ndv; i++) {
		if (view_strcmp(kube_device_node(dv[i]), node_name) != 0)
			continue;
		if (dv[i]->pool != last) {
			if (npools++ == 0) {
				d_line(&d, 0, "Pools:");
				d_line(&d, 1, "DRIVER\tPOOL\tGENERATION\tSLICES"
				    "\tCOMPLETE\tDEVICES\tALLOCATED");
			}
			if (dv[i]->pool != NULL)
				d_pool_row(&d, 1, dv[i]->pool);
			last = dv[i]->pool;
		}
		n++;
	}
	if (npools == 0)
		d_line(&d, 0, "Pools:\t<none>");
	if (n == 0)
		d_line(&d, 0, "Devices:\t<none>");
	else {
		d_line(&d, 0, "Devices:");
		d_line(&d, 1, "DRIVER\tPOOL\tDEVICE\tSTATE\tCLAIM\tATTRIBUTES");
	}
	dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	for (i = 0; i < ndv; i++) {
		dev = dv[i];
		if (view_strcmp(kube_device_node(dev), node_name) != 0)
			continue;
		dra_buf_reset(&b);
		key_attrs(&b, dev);
		hc = holder_of(dev, &req);
		if (hc != NULL)
			snprintf(tmp, sizeof tmp, "%s/%s%s",
			    hc->meta.namespace, hc->meta.name,
			    dev->nallocs > 1 ? ",..." : "");
		d_line(&d, 1, "%s\t%s\t%s\t%s\t%s\t%s", dev->slice->driver,
		    dev->slice->pool_name, dev->name,
		    dra_device_state(dev, tmp + 128, 128),
		    hc != NULL ? tmp : "-", b.len > 0 ? dra_buf_str(&b) : "-");
	}
	dra_buf_release(&b);
	free(dv);
	return d_finish(&d);
}

char *
dra_describe_pool(const struct kube_snapshot *s, const struct kube_pool *p)
{
	struct desc			 d;
	const struct kube_slice		*sl;
	const struct kube_counter_set	*cs;
	char				 tmp[64], q1[64], q2[64];
	void				**v;
	struct view_pool_counts		 pc;
	size_t				 i, j;

	d_init(&d);
	d_line(&d, 0, "Name:\t%s", p->name);
	d_line(&d, 0, "Driver:\t%s", p->driver);
	d_line(&d, 0, "Node:\t%s", p->node_name != NULL ? p->node_name :
	    "<not node-local>");
	d_line(&d, 0, "Generation:\t%" PRId64, p->generation);
	d_line(&d, 0, "Resource Slice Count:\t%" PRId64, p->slice_count);
	if (p->invalid != NULL)
		d_line(&d, 0, "Complete:\tinvalid: %s", p->invalid);
	else if (p->complete)
		d_line(&d, 0, "Complete:\tyes");
	else
		d_line(&d, 0, "Complete:\tno (%zu of %" PRId64 " slices at "
		    "generation %" PRId64 ")", p->nslices, p->slice_count,
		    p->generation);
	view_pool_counts(p, &pc);
	d_line(&d, 0, "Devices:\t%zu (%zu allocated, %zu available, %zu "
	    "blocked, %zu tainted)", pc.devices, pc.allocated, pc.available,
	    pc.blocked, pc.tainted);
	d_line(&d, 0, "Slices:");
	d_line(&d, 1, "NAME\tGENERATION\tDEVICES\tCOUNTER-SETS\tAGE");
	v = view_sort_meta((void *const *)s->slices.v, s->slices.n);
	for (i = 0; i < s->slices.n; i++) {
		sl = v[i];
		if (strcmp(sl->driver, p->driver) != 0 ||
		    strcmp(sl->pool_name, p->name) != 0)
			continue;
		d_line(&d, 1, "%s\t%" PRId64 "%s\t%zu\t%zu\t%s", sl->meta.name,
		    sl->generation, sl->stale ? " (stale)" : "", sl->ndevices,
		    sl->ncounter_sets, dra_format_age(s->now, sl->meta.created,
		    tmp, sizeof tmp));
	}
	free(v);
	j = 0;
	for (i = 0; i < p->nslices; i++)
		j += p->slices[i]->ncounter_sets;
	if (j == 0)
		d_line(&d, 0, "Counter Sets:\t<none>");
	else
		d_line(&d, 0, "Counter Sets:");
	for (i = 0; i < p->nslices; i++) {
		sl = p->slices[i];
		for (j = 0; j < sl->ncounter_sets; j++) {
			size_t	k;

			cs = &sl->counter_sets[j];
			d_line(&d, 1, "%s:", cs->name);
			for (k = 0; k < cs->ncounters; k++)
				d_line(&d, 2, "%s:\t%s used of %s",
				    cs->counters[k].name,
				    view_qty(cs->consumed != NULL ?
				    cs->consumed[k] : 0, q1, sizeof q1),
				    view_qty_text(&cs->counters[k].value, q2,
				    sizeof q2));
		}
	}
	return d_finish(&d);
}

char *
dra_describe_quota(const struct kube_snapshot *s, const struct kube_quota *q)
{
	struct desc		  d;
	const struct kube_kv	**keys;
	const char		 *used;
	char			  pct[32];
	size_t			  i, n;
	int			  dra;

	d_init(&d);
	d_line(&d, 0, "Name:\t%s", q->meta.name);
	d_line(&d, 0, "Namespace:\t%s", q->meta.namespace != NULL ?
	    q->meta.namespace : "");
	d_line(&d, 0, "Resource\tUsed\tHard\tUse");
	d_line(&d, 0, "--------\t----\t----\t---");
	keys = xcalloc(q->nhard + 1, sizeof *keys);
	for (dra = 1; dra >= 0; dra--) {
		n = dra_quota_keys(s, q, dra, keys);
		for (i = 0; i < n; i++) {
			used = kube_kv_get(q->used, q->nused, keys[i]->key);
			d_line(&d, 0, "%s\t%s\t%s\t%s", keys[i]->key,
			    used != NULL ? used : "0", keys[i]->value != NULL ?
			    keys[i]->value : "", dra_quota_use(used,
			    keys[i]->value, pct, sizeof pct));
		}
	}
	free(keys);
	return d_finish(&d);
}
