/*
 * view_claims.c: the claims and claim templates tables.
 *
 * A claim row joins what kubectl's NAME/STATE/AGE leave out: the
 * requests (class and count), the devices the allocation got, the node
 * it is pinned to and the pods that use it (DRA-REFERENCE.md section
 * 7; shared/cases/25).
 */
#include "views.h"
#include "views-int.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"

static void
claim_pods(struct dra_buf *b, const struct kube_claim *c)
{
	const struct kube_reserved	*r;
	size_t				 i, j;
	int				 seen;

	for (i = 0; i < c->nreserved; i++) {
		r = &c->reserved[i];
		if (r->resource == NULL || strcmp(r->resource, "pods") == 0)
			dra_buf_adds(b, b->len > 0 ? ",pod/" : "pod/");
		else {
			if (b->len > 0)
				dra_buf_adds(b, ",");
			/* "podgroups" -> "podgroup/" */
			dra_buf_addf(b, "%.*s/", (int)(strlen(r->resource) -
			    (r->resource[strlen(r->resource) - 1] == 's')),
			    r->resource);
		}
		dra_buf_adds(b, r->name != NULL ? r->name : "?");
	}
	for (i = 0; i < c->npods; i++) {
		seen = 0;
		for (j = 0; j < c->nreserved; j++) {
			if (c->reserved[j].name != NULL &&
			    strcmp(c->reserved[j].name,
			    c->pods[i]->meta.name) == 0)
				seen = 1;
		}
		if (!seen) {
			view_join(b, ",", "pod/");
			dra_buf_adds(b, c->pods[i]->meta.name);
		}
	}
}

static void
claim_devices(struct dra_buf *b, const struct kube_claim *c)
{
	const struct kube_result	*r;
	size_t				 i;

	for (i = 0; i < c->nresults; i++) {
		r = &c->results[i];
		if (i > 0)
			dra_buf_adds(b, ",");
		dra_buf_addf(b, "%s/%s/%s", r->driver, r->pool, r->device);
	}
}

static const char *
claim_node(const struct kube_claim *c)
{
	if (!c->allocated)
		return "-";
	if (c->alloc_nodes == NULL)
		return "<any>";
	if (c->alloc_nodes->single_node != NULL)
		return c->alloc_nodes->single_node;
	return "<selector>";
}

static void
claim_attrs(struct dra_buf *b, const struct kube_claim *c)
{
	const struct kube_attr	*a;
	struct dra_buf		 one;
	char			 tmp[256];
	size_t			 i;

	dra_buf_init(&one, DRA_BUF_MAX_SMALL);
	for (i = 0; i < c->nresults; i++) {
		dra_buf_reset(&one);
		if (c->results[i].dev != NULL) {
			a = dra_device_attr_any(c->results[i].dev, "uuid");
			if (a != NULL)
				dra_buf_addf(&one, "uuid=%s",
				    dra_attr_text(a, tmp, sizeof tmp));
			a = dra_device_attr_any(c->results[i].dev, "profile");
			if (a != NULL) {
				view_join(&one, ",", "profile=");
				dra_buf_adds(&one,
				    dra_attr_text(a, tmp, sizeof tmp));
			}
		}
		if (i > 0)
			dra_buf_adds(b, ";");
		dra_buf_adds(b, one.len > 0 ? dra_buf_str(&one) : "-");
	}
	dra_buf_release(&one);
}

struct dra_table *
dra_view_claims(const struct kube_snapshot *s, const struct dra_filter *f,
    int wide)
{
	struct dra_table	*t;
	struct view_rowb	 rb;
	const struct kube_claim	*c;
	struct dra_buf		 b;
	char			 tmp[128];
	void			**v;
	size_t			 i, j;
	int			 all_ns = view_all_ns(f);

	t = view_table_new(DRA_KIND_CLAIM);
	if (all_ns)
		view_col(t, "NAMESPACE", 0);
	view_col(t, "NAME", 0);
	view_col(t, "STATE", 0);
	view_col(t, "REQUESTS", 0);
	view_col(t, "DEVICES", 0);
	view_col(t, "NODE", 0);
	view_col(t, "PODS", 0);
	view_col(t, "AGE", 0);
	if (wide) {
		view_col(t, "REQUEST", DRA_COL_WIDE);
		view_col(t, "TEMPLATE", DRA_COL_WIDE);
		view_col(t, "ATTRIBUTES", DRA_COL_WIDE);
	}
	dra_buf_init(&b, DRA_BUF_MAX_PAGE);
	v = view_sort_meta((void *const *)s->claims.v, s->claims.n);
	for (i = 0; i < s->claims.n; i++) {
		c = v[i];
		if (!view_ns_ok(f, c->meta.namespace) ||
		    !view_labels_ok(f, &c->meta) ||
		    !view_name_ok(f, c->meta.name, NULL))
			continue;
		view_row(t, &rb, c);
		if (all_ns)
			view_cell(&rb, c->meta.namespace);
		view_cell(&rb, c->meta.name);
		view_cell(&rb, kube_claim_state(c, tmp, sizeof tmp));
		dra_buf_reset(&b);
		view_requests_text(&b, &c->spec);
		view_cell(&rb, dra_buf_str(&b));
		dra_buf_reset(&b);
		claim_devices(&b, c);
		view_cell(&rb, dra_buf_str(&b));
		view_cell(&rb, claim_node(c));
		dra_buf_reset(&b);
		claim_pods(&b, c);
		view_cell(&rb, dra_buf_str(&b));
		view_cell(&rb, dra_format_age(s->now, c->meta.created, tmp,
		    sizeof tmp));
		if (!wide)
			continue;
		dra_buf_reset(&b);
		for (j = 0; j < c->nresults; j++)
			view_join(&b, ",", c->results[j].request);
		view_cell(&rb, dra_buf_str(&b));
		view_cell(&rb, c->template_name);
		dra_buf_reset(&b);
		claim_attrs(&b, c);
		view_cell(&rb, dra_buf_str(&b));
	}
	free(v);
	dra_buf_release(&b);
	return t;
}

struct dra_table *
dra_view_templates(const struct kube_snapshot *s,
    const struct dra_filter *f, int wide)
{
	struct dra_table			*t;
	struct view_rowb			 rb;
	const struct kube_claim_template	*ct;
	struct dra_buf				 b;
	char					 tmp[64];
	void					**v;
	size_t					 i;
	int					 all_ns = view_all_ns(f);

	t = view_table_new(DRA_KIND_TEMPLATE);
	if (all_ns)
		view_col(t, "NAMESPACE", 0);
	view_col(t, "NAME", 0);
	view_col(t, "REQUESTS", 0);
	view_col(t, "AGE", 0);
	if (wide)
		view_col(t, "CONSTRAINTS", DRA_COL_WIDE | DRA_COL_RIGHT);
	dra_buf_init(&b, DRA_BUF_MAX_PAGE);
	v = view_sort_meta((void *const *)s->templates.v, s->templates.n);
	for (i = 0; i < s->templates.n; i++) {
		ct = v[i];
		if (!view_ns_ok(f, ct->meta.namespace) ||
		    !view_labels_ok(f, &ct->meta) ||
		    !view_name_ok(f, ct->meta.name, NULL))
			continue;
		view_row(t, &rb, ct);
		if (all_ns)
			view_cell(&rb, ct->meta.namespace);
		view_cell(&rb, ct->meta.name);
		dra_buf_reset(&b);
		view_requests_text(&b, &ct->spec);
		view_cell(&rb, dra_buf_str(&b));
		view_cell(&rb, dra_format_age(s->now, ct->meta.created, tmp,
		    sizeof tmp));
		if (wide)
			view_cellf(&rb, "%zu", ct->spec.nconstraints);
	}
	free(v);
	dra_buf_release(&b);
	return t;
}
