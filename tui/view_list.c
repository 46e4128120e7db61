/*
 * view_list.c: the list views, one per kind `get` knows (claims,
 * devices, pools, slices, classes, nodes, templates), and the contexts
 * list of ":ctx".
 *
 * Each shows the table views/ builds for `kubectl dra get` (the same
 * columns and rows), built once per snapshot for the namespace on
 * show, through the one list widget (listview.c).  Enter describes the
 * selected object, y shows its YAML and w explains a pending claim
 * or what a new claim from a template would get.
 */
#include "tui-int.h"

#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

struct list_data {
	enum dra_kind		 kind;
	struct dra_table	*table;
	struct tui_listview	 lv;
	int			 wide;
	int			 contexts;	/* the ":ctx" list */
};

static int	list_init(struct tui_view *, const void *);
static void	list_free(struct tui_view *);
static void	list_update(struct tui_view *, const struct kube_snapshot *);
static void	list_draw(struct tui_view *, int, int, int, int);
static int	list_key(struct tui_view *, enum tui_action, int);
static char	*list_title(struct tui_view *, char *, size_t);
static int	list_filter(struct tui_view *, const char *);
static void	list_scroll(struct tui_view *, int, int);
static int	list_click(struct tui_view *, int, int);
static enum tui_colour row_colour(const struct dra_table *,
		    const struct dra_row *);
static struct dra_table *contexts_table(struct tui *);

#define LIST_VIEW(var, vname, vkind, valiases)				\
const struct tui_view_type var = {					\
	vname, valiases, 1, 1, vkind, tui_list_keys, list_init,	\
	list_free, list_update, list_draw, list_key, list_title,	\
	list_filter, list_scroll, list_click				\
}

static const char *const claims_aliases[] = { "claim", "rc", NULL };
static const char *const devices_aliases[] = { "device", "dev", NULL };
static const char *const pools_aliases[] = { "pool", NULL };
static const char *const slices_aliases[] = { "slice", "rs", NULL };
static const char *const classes_aliases[] = { "class", "dc", NULL };
static const char *const nodes_aliases[] = { "node", "no", NULL };
static const char *const templates_aliases[] = { "template", "rct",
    NULL };
static const char *const quotas_aliases[] = { "quota", "rq", NULL };

LIST_VIEW(tui_view_claims, "claims", DRA_KIND_CLAIM, claims_aliases);
LIST_VIEW(tui_view_devices, "devices", DRA_KIND_DEVICE, devices_aliases);
LIST_VIEW(tui_view_pools, "pools", DRA_KIND_POOL, pools_aliases);
LIST_VIEW(tui_view_slices, "slices", DRA_KIND_SLICE, slices_aliases);
LIST_VIEW(tui_view_classes, "classes", DRA_KIND_CLASS, classes_aliases);
LIST_VIEW(tui_view_nodes, "nodes", DRA_KIND_NODE, nodes_aliases);
LIST_VIEW(tui_view_templates, "templates", DRA_KIND_TEMPLATE,
    templates_aliases);
LIST_VIEW(tui_view_quotas, "quotas", DRA_KIND_QUOTA, quotas_aliases);

const struct tui_view_type tui_view_contexts = {
	"contexts", NULL, 0, 0, -1, tui_list_keys, list_init, list_free,
	list_update, list_draw, list_key, list_title, list_filter,
	list_scroll, list_click
};

static int
list_init(struct tui_view *v, const void *arg)
{
	struct list_data	*d;

	(void)arg;
	d = xcalloc(1, sizeof *d);
	d->kind = v->type->kind >= 0 ? (enum dra_kind)v->type->kind :
	    DRA_KIND_COUNT;
	d->contexts = v->type == &tui_view_contexts;
	tui_lv_init(&d->lv);
	v->data = d;
	if (d->contexts) {
		d->table = contexts_table(v->tui);
		if (d->table == NULL) {
			tui_lv_free(&d->lv);
			free(d);
			v->data = NULL;
			return -1;
		}
		tui_lv_set_table(&d->lv, d->table);
	}
	return 0;
}

static void
list_free(struct tui_view *v)
{
	struct list_data	*d = v->data;

	if (d == NULL)
		return;
	tui_lv_free(&d->lv);
	dra_table_free(d->table);
	free(d);
}

/* The contexts of the source as a two-column table. */
static struct dra_table *
contexts_table(struct tui *t)
{
	struct dra_table	*tb;
	struct dra_err		 err;
	const char		**names = NULL, *cur = NULL;
	size_t			 i, n;

	dra_err_clear(&err);
	if (t->src == NULL || t->src->contexts == NULL ||
	    t->src->contexts(t->src->arg, &names, &cur, &err) != KUBE_OK) {
		tui_status(t, 1, "contexts: %s", err.msg[0] != '\0' ?
		    err.msg : "not available");
		return NULL;
	}
	tb = xcalloc(1, sizeof *tb);
	tb->kind = DRA_KIND_COUNT;
	dra_arena_init(&tb->arena);
	tb->columns[0].name = "CURRENT";
	tb->columns[1].name = "NAME";
	tb->ncolumns = 2;
	for (n = 0; names != NULL && names[n] != NULL; n++)
		;
	tb->rows = xcalloc(n > 0 ? n : 1, sizeof *tb->rows);
	tb->caprows = n > 0 ? n : 1;
	for (i = 0; i < n; i++) {
		struct dra_row	*r = &tb->rows[tb->nrows++];

		r->cells = dra_arena_calloc(&tb->arena, 2, sizeof *r->cells);
		r->cells[0] = cur != NULL && strcmp(cur, names[i]) == 0 ?
		    "*" : "";
		r->cells[1] = dra_arena_strdup(&tb->arena, names[i]);
	}
	free(names);
	return tb;
}

static void
list_update(struct tui_view *v, const struct kube_snapshot *s)
{
	struct list_data	*d = v->data;
	struct dra_table	*old = d->table;
	struct dra_filter	 f;

	if (d->contexts)
		return;		/* not from the snapshot */
	if (s == NULL) {
		tui_lv_set_table(&d->lv, NULL);
		d->table = NULL;
		dra_table_free(old);
		return;
	}
	memset(&f, 0, sizeof f);
	f.namespace = tui_namespace(v->tui);
	d->table = dra_view(d->kind, s, &f, d->wide);
	tui_lv_set_table(&d->lv, d->table);
	dra_table_free(old);
}

static enum tui_colour
row_colour(const struct dra_table *t, const struct dra_row *row)
{
	const char	*cell;
	size_t		 c;
	long		 use;

	for (c = 0; c < t->ncolumns; c++) {
		/* Quotas: used against hard, as GPUs against the 80%
		   target and 95% ceiling; below the target uncoloured. */
		if (strcmp(t->columns[c].name, "USE%") == 0) {
			use = strtol(row->cells[c], NULL, 10);
			if (use >= 80)
				return tui_util_colour(use / 100.0) ==
				    TUI_C_UTILWARN ? TUI_C_PENDING : TUI_C_BAD;
			continue;
		}
		if (strcmp(t->columns[c].name, "STATE") != 0 &&
		    strcmp(t->columns[c].name, "COMPLETE") != 0)
			continue;
		cell = row->cells[c];
		if (strncmp(cell, "pending", 7) == 0)
			return TUI_C_PENDING;
		if (strstr(cell, "tainted") != NULL ||
		    strstr(cell, "unusable") != NULL ||
		    strstr(cell, "invalid") != NULL || strcmp(cell, "no") == 0)
			return TUI_C_BAD;
	}
	return TUI_C_NORMAL;
}

static void
list_draw(struct tui_view *v, int y, int x, int h, int w)
{
	struct list_data	*d = v->data;

	tui_lv_draw(&d->lv, stdscr, y, x, h, w, row_colour);
}

static void
list_scroll(struct tui_view *v, int h, int w)
{
	struct list_data	*d = v->data;

	d->lv.width = w;
	tui_lv_scroll(&d->lv, h);
}

static int
list_click(struct tui_view *v, int y, int x)
{
	struct list_data	*d = v->data;

	(void)x;
	if (y < 1)
		return 0;	/* the column header */
	tui_lv_select(&d->lv, d->lv.top + (size_t)(y - 1));
	return TUI_REDRAW;
}

static char *
list_title(struct tui_view *v, char *buf, size_t len)
{
	struct list_data	*d = v->data;
	const char		*ns = tui_namespace(v->tui);
	size_t			 total, o;
	int			 widths[DRA_TABLE_MAXCOLS], hidden = 0;

	total = d->table != NULL ? d->table->nrows : 0;
	if (d->table != NULL && d->lv.width > 0)
		hidden = tui_lv_layout(&d->lv, d->lv.width, widths);
	if (d->contexts || d->kind >= DRA_KIND_COUNT ||
	    !dra_kinds[d->kind].namespaced)
		ns = NULL;
	else if (ns == NULL)
		ns = "all";
	if (d->lv.nidx != total || v->filter[0] != '\0')
		snprintf(buf, len, "%s%s%s%s[%zu/%zu]", v->type->name,
		    ns != NULL ? "(" : "", ns != NULL ? ns : "",
		    ns != NULL ? ")" : "", d->lv.nidx, total);
	else
		snprintf(buf, len, "%s%s%s%s[%zu]", v->type->name,
		    ns != NULL ? "(" : "", ns != NULL ? ns : "",
		    ns != NULL ? ")" : "", total);
	/* Columns the width hides, and how to reach them. */
	o = strlen(buf);
	if (hidden > 0 && o < len)
		snprintf(buf + o, len - o, " +%d column%s, %s", hidden,
		    hidden == 1 ? "" : "s", strcmp(tui_glyphs()->up, "^") ==
		    0 ? "h/l" : "\xe2\x86\x90/\xe2\x86\x92");
	return buf;
}

static int
list_filter(struct tui_view *v, const char *text)
{
	struct list_data	*d = v->data;

	snprintf(v->filter, sizeof v->filter, "%s", text);
	if (tui_lv_set_filter(&d->lv, text) == TUI_FILTER_LITERAL)
		tui_status(v->tui, 0, "not a valid regular expression: "
		    "matching \"%s\" as text", text);
	return 0;
}

int
tui_row_target(const struct dra_table *tb, const struct dra_row *row,
    struct tui_detail_arg *a, char *buf, size_t len)
{
	const struct kube_device	*dev;
	const struct kube_pool		*p;
	const struct kube_meta		*m;

	memset(a, 0, sizeof *a);
	a->kind = tb->kind;
	m = dra_row_meta(tb, row);
	if (m == NULL) {
		switch (tb->kind) {
		case DRA_KIND_DEVICE:
			dev = row->obj;
			snprintf(buf, len, "%s/%s/%s", dev->slice->driver,
			    dev->slice->pool_name, dev->name);
			break;
		case DRA_KIND_POOL:
			p = row->obj;
			snprintf(buf, len, "%s/%s", p->driver, p->name);
			break;
		case DRA_KIND_NODE:
			snprintf(buf, len, "%s", row->node_name);
			break;
		default:
			return -1;
		}
		a->name = buf;
		return 0;
	}
	/* name NUL namespace in buf */
	snprintf(buf, len, "%s", m->name);
	a->name = buf;
	if (m->namespace != NULL && strlen(buf) + 1 < len) {
		snprintf(buf + strlen(buf) + 1, len - strlen(buf) - 1, "%s",
		    m->namespace);
		a->ns = buf + strlen(buf) + 1;
	}
	return 0;
}

static int
list_key(struct tui_view *v, enum tui_action a, int key)
{
	struct list_data	*d = v->data;
	struct tui		*t = v->tui;
	const struct dra_row	*row = tui_lv_selected(&d->lv);
	struct tui_detail_arg	 da;
	char			 buf[1024];
	int			 col, ncol;

	(void)key;
	ncol = d->table != NULL ? (int)d->table->ncolumns : 0;
	switch (a) {
	case TUI_A_UP:
		return tui_lv_move(&d->lv, -1) | TUI_REDRAW;
	case TUI_A_DOWN:
		return tui_lv_move(&d->lv, 1) | TUI_REDRAW;
	case TUI_A_PGUP:
		return tui_lv_move(&d->lv, -(long)d->lv.height) | TUI_REDRAW;
	case TUI_A_PGDN:
		return tui_lv_move(&d->lv, d->lv.height) | TUI_REDRAW;
	case TUI_A_HOME:
		tui_lv_select(&d->lv, 0);
		return TUI_REDRAW;
	case TUI_A_END:
		tui_lv_select(&d->lv, d->lv.nidx > 0 ? d->lv.nidx - 1 : 0);
		return TUI_REDRAW;
	case TUI_A_DESCRIBE:
	case TUI_A_YAML:
		if (row == NULL)
			return TUI_REDRAW;
		if (d->contexts) {
			if (a != TUI_A_DESCRIBE)
				return TUI_REDRAW;
			snprintf(buf, sizeof buf, "ctx %s", row->cells[1]);
			return tui_command(t, buf);
		}
		if (tui_row_target(d->table, row, &da, buf, sizeof buf) != 0)
			return TUI_REDRAW;
		da.what = a == TUI_A_YAML ? TUI_D_YAML : TUI_D_DESCRIBE;
		tui_open_detail(t, &da);
		return TUI_REDRAW;
	case TUI_A_WHY:
		if (row == NULL || d->contexts)
			return TUI_REDRAW;
		if (d->kind == DRA_KIND_TEMPLATE) {
			/* What a new claim from the template would get. */
			if (tui_row_target(d->table, row, &da, buf,
			    sizeof buf) != 0)
				return TUI_REDRAW;
			da.what = TUI_D_WHY;
			da.kind = DRA_KIND_TEMPLATE;
			tui_open_detail(t, &da);
			return TUI_REDRAW;
		}
		if (d->kind != DRA_KIND_CLAIM) {
			tui_status(t, 1, "w explains claims and templates: "
			    "select a pending claim in :claims or a template "
			    "in :templates, or :why pod/NAME");
			return TUI_REDRAW;
		}
		if (((const struct kube_claim *)row->obj)->allocated) {
			tui_status(t, 0, "claim %s/%s is allocated: nothing "
			    "to explain (Enter describes it)",
			    ((const struct kube_claim *)row->obj)->meta.
			    namespace, ((const struct kube_claim *)row->obj)->
			    meta.name);
			return TUI_REDRAW;
		}
		tui_row_target(d->table, row, &da, buf, sizeof buf);
		da.what = TUI_D_WHY;
		tui_open_detail(t, &da);
		return TUI_REDRAW;
	case TUI_A_SORT_NEXT:
		col = d->lv.sort_col + 1;
		if (col >= ncol)
			col = -1;
		tui_lv_sort(&d->lv, col, 0);
		return TUI_REDRAW;
	case TUI_A_SORT_PREV:
		col = d->lv.sort_col < 0 ? ncol - 1 : d->lv.sort_col - 1;
		tui_lv_sort(&d->lv, col, 0);
		return TUI_REDRAW;
	case TUI_A_SORT_REVERSE:
		tui_lv_sort(&d->lv, d->lv.sort_col < 0 ? 0 : d->lv.sort_col,
		    !d->lv.sort_desc);
		return TUI_REDRAW;
	case TUI_A_SORT_NAME:
	case TUI_A_SORT_AGE:
		if (a == TUI_A_SORT_AGE)
			col = tui_lv_column(&d->lv, "AGE");
		else {
			col = tui_lv_column(&d->lv, "NAME");
			if (col < 0)
				col = tui_lv_column(&d->lv, d->kind ==
				    DRA_KIND_POOL ? "POOL" : d->kind ==
				    DRA_KIND_NODE ? "NODE" : "DEVICE");
		}
		if (col < 0) {
			tui_status(t, 1, "this list has no %s column",
			    a == TUI_A_SORT_AGE ? "AGE" : "NAME");
			return TUI_REDRAW;
		}
		tui_lv_sort(&d->lv, col, d->lv.sort_col == col ?
		    !d->lv.sort_desc : 0);
		return TUI_REDRAW;
	case TUI_A_LEFT:
		return tui_lv_side(&d->lv, -1, d->lv.width) | TUI_REDRAW;
	case TUI_A_RIGHT:
		return tui_lv_side(&d->lv, 1, d->lv.width) | TUI_REDRAW;
	case TUI_A_WIDE:
		if (d->contexts)
			return TUI_REDRAW;
		d->wide = !d->wide;
		d->lv.left = 0;
		if (t->snap != NULL)
			list_update(v, t->snap);
		tui_status(t, 0, "wide columns %s", d->wide ? "on" : "off");
		return TUI_REDRAW;
	default:
		return TUI_UNHANDLED;
	}
}
