/*
 * view_cluster.c: the slices, classes and nodes tables, and dra_view()
 * which picks a builder by kind.
 */
#include "views.h"
#include "views-int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "xmalloc.h"

/* SELECTORS in the narrow table: the first CEL, at most this long. */
#define CLASS_SELECTOR_MAX	48

static const char *
slice_node(const struct kube_slice *sl)
{
	if (sl->node_name != NULL)
		return sl->node_name;
	if (sl->all_nodes)
		return "<all>";
	if (sl->node_selector != NULL)
		return sl->node_selector->single_node != NULL ?
		    sl->node_selector->single_node : "<selector>";
	if (sl->per_device_node_selection)
		return "<per-device>";
	return "-";
}

struct dra_table *
dra_view_slices(const struct kube_snapshot *s, const struct dra_filter *f,
    int wide)
{
	struct dra_table	*t;
	struct view_rowb	 rb;
	const struct kube_slice	*sl;
	char			 tmp[64];
	void			**v;
	size_t			 i;

	t = view_table_new(DRA_KIND_SLICE);
	view_col(t, "NAME", 0);
	view_col(t, "NODE", 0);
	view_col(t, "DRIVER", 0);
	view_col(t, "POOL", 0);
	view_col(t, "GENERATION", DRA_COL_RIGHT);
	view_col(t, "DEVICES", DRA_COL_RIGHT);
	view_col(t, "COUNTER-SETS", DRA_COL_RIGHT);
	view_col(t, "AGE", 0);
	if (wide) {
		view_col(t, "NODE-SELECTOR", DRA_COL_WIDE);
		view_col(t, "API-VERSION", DRA_COL_WIDE);
	}
	v = view_sort_meta((void *const *)s->slices.v, s->slices.n);
	for (i = 0; i < s->slices.n; i++) {
		sl = v[i];
		if (!view_labels_ok(f, &sl->meta) ||
		    !view_name_ok(f, sl->meta.name, NULL))
			continue;
		view_row(t, &rb, sl);
		view_cell(&rb, sl->meta.name);
		view_cell(&rb, slice_node(sl));
		view_cell(&rb, sl->driver);
		view_cell(&rb, sl->pool_name);
		view_cellf(&rb, "%" PRId64 "%s", sl->generation,
		    sl->stale ? "(stale)" : "");
		view_cellf(&rb, "%zu", sl->ndevices);
		view_cellf(&rb, "%zu", sl->ncounter_sets);
		view_cell(&rb, dra_format_age(s->now, sl->meta.created, tmp,
		    sizeof tmp));
		if (!wide)
			continue;
		view_cell(&rb, sl->node_selector != NULL ?
		    sl->node_selector->summary : NULL);
		view_cell(&rb, sl->api_version);
	}
	free(v);
	return t;
}

struct dra_table *
dra_view_classes(const struct kube_snapshot *s, const struct dra_filter *f,
    int wide)
{
	struct dra_table		*t;
	struct view_rowb		 rb;
	const struct kube_device_class	*dc;
	struct dra_buf			 b;
	char				 tmp[64];
	void				**v;
	size_t				 i, j;

	t = view_table_new(DRA_KIND_CLASS);
	view_col(t, "NAME", 0);
	view_col(t, "SELECTORS", 0);
	view_col(t, "EXTENDED-RESOURCE", 0);
	view_col(t, "AGE", 0);
	dra_buf_init(&b, DRA_BUF_MAX_PAGE);
	v = view_sort_meta((void *const *)s->classes.v, s->classes.n);
	for (i = 0; i < s->classes.n; i++) {
		dc = v[i];
		if (!view_labels_ok(f, &dc->meta) ||
		    !view_name_ok(f, dc->meta.name, NULL))
			continue;
		view_row(t, &rb, dc);
		view_cell(&rb, dc->meta.name);
		dra_buf_reset(&b);
		if (wide) {
			for (j = 0; j < dc->nselectors; j++)
				view_join(&b, " && ", dc->selectors[j]);
		} else if (dc->nselectors > 0) {
			if (strlen(dc->selectors[0]) > CLASS_SELECTOR_MAX)
				dra_buf_addf(&b, "%.*s...",
				    CLASS_SELECTOR_MAX - 3, dc->selectors[0]);
			else
				dra_buf_adds(&b, dc->selectors[0]);
			if (dc->nselectors > 1)
				dra_buf_addf(&b, " (+%zu)",
				    dc->nselectors - 1);
		}
		view_cell(&rb, dra_buf_str(&b));
		view_cell(&rb, dc->extended_resource_name);
		view_cell(&rb, dra_format_age(s->now, dc->meta.created, tmp,
		    sizeof tmp));
	}
	free(v);
	dra_buf_release(&b);
	return t;
}

struct node_entry {
	const char		*name;
	const struct kube_node	*node;
};

static int
node_entry_cmp(const void *pa, const void *pb)
{
	const struct node_entry	*a = pa, *b = pb;

	return view_strcmp(a->name, b->name);
}

struct dra_table *
dra_view_nodes(const struct kube_snapshot *s, const struct dra_filter *f,
    int wide)
{
	struct dra_table	 *t;
	struct view_rowb	  rb;
	struct kube_device	**dv;
	struct node_entry	 *ne;
	const char		 *name, *dn;
	struct dra_buf		  drivers;
	size_t			  i, j, nne, ndv, lo, ndev, nalloc;
	size_t			  npools;

	t = view_table_new(DRA_KIND_NODE);
	view_col(t, "NAME", 0);
	view_col(t, "READY", 0);
	view_col(t, "DEVICES", DRA_COL_RIGHT);
	view_col(t, "ALLOCATED", DRA_COL_RIGHT);
	view_col(t, "DRIVERS", 0);
	if (wide)
		view_col(t, "POOLS", DRA_COL_WIDE | DRA_COL_RIGHT);

	/* Every Node object, and every node slices name. */
	dv = view_all_devices(s, &ndv);
	ne = xreallocarray(NULL, s->nodes.n + ndv + 1, sizeof *ne);
	nne = 0;
	for (i = 0; i < s->nodes.n; i++) {
		ne[nne].name = s->nodes.v[i]->meta.name;
		ne[nne].node = s->nodes.v[i];
		nne++;
	}
	for (i = 0; i < ndv; i++) {
		dn = kube_device_node(dv[i]);
		if (dn == NULL || (i > 0 &&
		    view_strcmp(dn, kube_device_node(dv[i - 1])) == 0))
			continue;
		ne[nne].name = dn;
		ne[nne].node = NULL;
		nne++;
	}
	qsort(ne, nne, sizeof *ne, node_entry_cmp);

	dra_buf_init(&drivers, DRA_BUF_MAX_PAGE);
	lo = 0;
	for (i = 0; i < nne; i++) {
		name = ne[i].name;
		if (i + 1 < nne && strcmp(ne[i + 1].name, name) == 0 &&
		    ne[i + 1].node != NULL)
			continue;	/* keep the entry with a Node */
		if (i > 0 && strcmp(ne[i - 1].name, name) == 0 &&
		    ne[i - 1].node != NULL)
			continue;
		/* Devices are sorted by node (NULL first). */
		while (lo < ndv && view_strcmp(kube_device_node(dv[lo]),
		    name) < 0)
			lo++;
		ndev = nalloc = npools = 0;
		dra_buf_reset(&drivers);
		for (j = lo; j < ndv; j++) {
			if (view_strcmp(kube_device_node(dv[j]), name) != 0)
				break;
			ndev++;
			if (dv[j]->state & KUBE_DEV_ALLOCATED)
				nalloc++;
			if (j == lo || dv[j]->pool != dv[j - 1]->pool)
				npools++;
			/* Sorted by driver within a node. */
			if (j == lo || strcmp(dv[j]->slice->driver,
			    dv[j - 1]->slice->driver) != 0)
				view_join(&drivers, ",", dv[j]->slice->driver);
		}
		if (!view_labels_ok(f, ne[i].node != NULL ?
		    &ne[i].node->meta : NULL) || !view_name_ok(f, name, NULL))
			continue;
		view_row(t, &rb, ne[i].node);
		rb.row->node_name = name;
		view_cell(&rb, name);
		if (ne[i].node == NULL)
			view_cell(&rb, "-");
		else
			view_cell(&rb, kube_node_ready_text(ne[i].node));
		view_cellf(&rb, "%zu", ndev);
		view_cellf(&rb, "%zu", nalloc);
		view_cell(&rb, dra_buf_str(&drivers));
		if (wide)
			view_cellf(&rb, "%zu", npools);
	}
	dra_buf_release(&drivers);
	free(ne);
	free(dv);
	return t;
}

struct dra_table *
dra_view(enum dra_kind kind, const struct kube_snapshot *s,
    const struct dra_filter *f, int wide)
{
	switch (kind) {
	case DRA_KIND_CLAIM:
		return dra_view_claims(s, f, wide);
	case DRA_KIND_TEMPLATE:
		return dra_view_templates(s, f, wide);
	case DRA_KIND_SLICE:
		return dra_view_slices(s, f, wide);
	case DRA_KIND_DEVICE:
		return dra_view_devices(s, f, wide);
	case DRA_KIND_POOL:
		return dra_view_pools(s, f, wide);
	case DRA_KIND_CLASS:
		return dra_view_classes(s, f, wide);
	case DRA_KIND_QUOTA:
		return dra_view_quotas(s, f, wide);
	case DRA_KIND_NODE:
	default:
		return dra_view_nodes(s, f, wide);
	}
}
