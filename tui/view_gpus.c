/*
 * view_gpus.c: the GPU view, the default one: the cluster's GPUs node
 * by node, each a bar of its memory slices with its partitions and the
 * claims holding them (views/gpus.h builds the map; gpubar.c draws
 * it).
 *
 * A line is a node or a GPU; Up/Down move between lines, Left/Right
 * between the partitions of the selected GPU, Enter describes the
 * partition's claim (or its device).  The filter keeps the GPUs whose
 * node, name, model, profiles or claims match, and the nodes that have
 * one.  The selection is kept by node and GPU name across snapshots.
 *
 * As in the lists (listview.c), a key costs what it changes: each GPU's
 * text is lower-cased once per map for plain filters (tui_match), a
 * word that grew tests only the GPUs kept, and the name and model
 * widths are measured once per map shown, not on every draw.
 */
#include "tui-int.h"

#include <stdlib.h>
#include <string.h>

#include "gpus.h"
#include "xmalloc.h"

struct gpus_data {
	struct dra_gpu_map	*map;		/* the snapshot's */
	struct dra_gpu_map	 fmap;		/* the filter's: own node
						   arrays, GPUs copied */
	int			 filtered;
	struct tui_match	 m;		/* the filter */
	struct tui_texts	 texts;		/* each GPU's text (gpu_text)
						   lower-cased, in map order;
						   on the first plain filter */
	unsigned char		*gmatch;	/* GPU i passes the filter,
						   or NULL */
	int			 namew;		/* of shown(), measured */
	int			 modelw;
	size_t			 sel;		/* line of the layout */
	size_t			 top;
	int			 height;
	int			 selpart;	/* index into parts, or -1 */
	char			 selkey[512];	/* "node\tgpu" */
};

static int	gpus_init(struct tui_view *, const void *);
static void	gpus_free(struct tui_view *);
static void	gpus_update(struct tui_view *, const struct kube_snapshot *);
static void	gpus_draw(struct tui_view *, int, int, int, int);
static int	gpus_key(struct tui_view *, enum tui_action, int);
static char	*gpus_title(struct tui_view *, char *, size_t);
static int	gpus_filter(struct tui_view *, const char *);
static void	gpus_scroll(struct tui_view *, int, int);
static int	gpus_click(struct tui_view *, int, int);
static const struct dra_gpu_map *shown(const struct gpus_data *);
static void	apply_filter(struct gpus_data *, int);
static void	measure(struct gpus_data *);
static void	free_texts(struct gpus_data *);
static void	gpu_texts(struct gpus_data *);
static const char *gpu_orig(void *, size_t);
static void	remember(struct gpus_data *);
static void	restore(struct gpus_data *);
static void	free_fmap(struct gpus_data *);
static void	gpu_text(const char *, const struct dra_gpu *, char *,
		    size_t);
static int	gpu_matches(const struct gpus_data *, size_t, const char *,
		    const struct dra_gpu *);
static int	bar_parts(const struct dra_gpu *, int *);
static int	open_selected(struct tui_view *, enum tui_detail);
static int	sticky_line(const struct gpus_data *, size_t *);

static const char *const gpus_aliases[] = { "gpu", "map", NULL };

const struct tui_view_type tui_view_gpus = {
	"gpus", gpus_aliases, 1, 1, -1, tui_gpu_keys, gpus_init, gpus_free,
	gpus_update, gpus_draw, gpus_key, gpus_title, gpus_filter,
	gpus_scroll, gpus_click
};

static const struct dra_gpu_map *
shown(const struct gpus_data *d)
{
	return d->filtered ? &d->fmap : d->map;
}

static int
gpus_init(struct tui_view *v, const void *arg)
{
	struct gpus_data	*d;

	(void)arg;
	d = xcalloc(1, sizeof *d);
	d->selpart = -1;
	d->height = 1;
	tui_match_init(&d->m);
	v->data = d;
	return 0;
}

static void
free_fmap(struct gpus_data *d)
{
	size_t	n;

	for (n = 0; n < d->fmap.nnodes; n++)
		free(d->fmap.nodes[n].gpus);
	free(d->fmap.nodes);
	memset(&d->fmap, 0, sizeof d->fmap);
	d->filtered = 0;
}

static void
gpus_free(struct tui_view *v)
{
	struct gpus_data	*d = v->data;

	free_fmap(d);
	free_texts(d);
	dra_gpu_map_free(d->map);
	tui_match_free(&d->m);
	free(d);
}

/* What the filter reads of GPU g of node: its names, parts, claims. */
static void
gpu_text(const char *node, const struct dra_gpu *g, char *text, size_t len)
{
	size_t	o, k;

	snprintf(text, len, "%s %s %s %s", node, g->name,
	    g->model != NULL ? g->model : "", g->mode != NULL ? g->mode : "");
	o = strlen(text);
	for (k = 0; k < g->nparts && o + 1 < len; k++) {
		snprintf(text + o, len - o, " %s %s",
		    g->parts[k].profile != NULL ? g->parts[k].profile : "",
		    g->parts[k].claim != NULL ? g->parts[k].claim : "");
		o = strlen(text);
	}
}

static void
free_texts(struct gpus_data *d)
{
	tui_texts_free(&d->texts);
	free(d->gmatch);
	d->gmatch = NULL;
}

/* The lower-cased texts of every GPU of the map, once per map. */
static void
gpu_texts(struct gpus_data *d)
{
	const struct dra_gpu_node	*nd;
	char				 text[4096];
	size_t				 n, k;

	if (d->texts.text != NULL || d->map == NULL)
		return;
	tui_texts_init(&d->texts, d->map->ngpus, 128);
	for (n = 0; n < d->map->nnodes; n++) {
		nd = &d->map->nodes[n];
		for (k = 0; k < nd->ngpus; k++) {
			gpu_text(nd->name, &nd->gpus[k], text, sizeof text);
			tui_texts_add(&d->texts, text, strlen(text));
			tui_texts_end(&d->texts);
		}
	}
}

/* A GPU's own text for tui_texts_match. */
struct gpu_text_arg {
	const char		*node;
	const struct dra_gpu	*g;
	char			 text[4096];
};

static const char *
gpu_orig(void *arg, size_t i)
{
	struct gpu_text_arg	*a = arg;

	(void)i;
	gpu_text(a->node, a->g, a->text, sizeof a->text);
	return a->text;
}

/* Whether GPU g of node, the i-th of the map, matches the filter. */
static int
gpu_matches(const struct gpus_data *d, size_t i, const char *node,
    const struct dra_gpu *g)
{
	struct gpu_text_arg	a;

	a.node = node;
	a.g = g;
	return tui_texts_match(&d->texts, &d->m, i, gpu_orig, &a);
}

/*
 * The filtered map.  With narrow (tui_match_narrows) only the GPUs
 * the last filter kept are tested again.
 */
static void
apply_filter(struct gpus_data *d, int narrow)
{
	const struct dra_gpu_node	*nd;
	struct dra_gpu_node		*fn;
	size_t				 n, k, i;

	free_fmap(d);
	if (d->m.kind == TUI_MATCH_ALL || d->map == NULL) {
		free(d->gmatch);
		d->gmatch = NULL;
		measure(d);
		return;
	}
	if (tui_match_plain(&d->m, 0))
		gpu_texts(d);
	if (d->gmatch == NULL) {
		d->gmatch = xcalloc(d->map->ngpus + 1, sizeof *d->gmatch);
		narrow = 0;
	}
	for (n = 0, i = 0; n < d->map->nnodes; n++) {
		nd = &d->map->nodes[n];
		for (k = 0; k < nd->ngpus; k++, i++) {
			if (!narrow || d->gmatch[i])
				d->gmatch[i] = (unsigned char)gpu_matches(d,
				    i, nd->name, &nd->gpus[k]);
		}
	}
	d->filtered = 1;
	d->fmap.nodes = xcalloc(d->map->nnodes > 0 ? d->map->nnodes : 1,
	    sizeof *d->fmap.nodes);
	for (n = 0, i = 0; n < d->map->nnodes; n++) {
		nd = &d->map->nodes[n];
		fn = &d->fmap.nodes[d->fmap.nnodes];
		*fn = *nd;
		fn->gpus = NULL;
		fn->ngpus = 0;
		for (k = 0; k < nd->ngpus; k++, i++) {
			if (!d->gmatch[i])
				continue;
			if (fn->gpus == NULL)
				fn->gpus = xcalloc(nd->ngpus, sizeof *fn->gpus);
			fn->gpus[fn->ngpus++] = nd->gpus[k];
		}
		if (fn->ngpus == 0)
			continue;
		d->fmap.nnodes++;
		d->fmap.ngpus += fn->ngpus;
	}
	measure(d);
}

/* The name and model widths of the map shown. */
static void
measure(struct gpus_data *d)
{
	tui_gpumap_widths(shown(d), &d->namew, &d->modelw);
}

static void
remember(struct gpus_data *d)
{
	const struct dra_gpu	*g;
	size_t			 n;

	g = tui_gpumap_gpu(shown(d), d->sel, &n);
	if (n >= (shown(d) != NULL ? shown(d)->nnodes : 0)) {
		d->selkey[0] = '\0';
		return;
	}
	snprintf(d->selkey, sizeof d->selkey, "%s\t%s",
	    shown(d)->nodes[n].name, g != NULL ? g->name : "");
}

/* Find the remembered line again, keeping it on its screen line. */
static void
restore(struct gpus_data *d)
{
	const struct dra_gpu_map	*m = shown(d);
	const struct dra_gpu_node	*nd;
	const char			*tab;
	size_t				 l, total, n, k, off, nlen;

	total = tui_gpumap_lines(m);
	off = d->sel >= d->top ? d->sel - d->top : 0;
	tab = strchr(d->selkey, '\t');
	nlen = tab != NULL ? (size_t)(tab - d->selkey) : 0;
	/* "node\tgpu": a walk over the nodes, into the one named. */
	for (n = 0, l = 0; tab != NULL && m != NULL && n < m->nnodes; n++) {
		nd = &m->nodes[n];
		if (strncmp(nd->name, d->selkey, nlen) != 0 ||
		    nd->name[nlen] != '\0') {
			l += 1 + nd->ngpus;
			continue;
		}
		if (tab[1] == '\0')
			goto found;
		for (k = 0; k < nd->ngpus; k++) {
			if (strcmp(nd->gpus[k].name, tab + 1) == 0) {
				l += 1 + k;
				goto found;
			}
		}
		l += 1 + nd->ngpus;
	}
	if (d->sel >= total)
		d->sel = total > 0 ? total - 1 : 0;
	d->selpart = -1;
	return;
found:
	d->sel = l;
	d->top = l >= off ? l - off : 0;
}

static void
gpus_update(struct tui_view *v, const struct kube_snapshot *s)
{
	struct gpus_data	*d = v->data;
	struct dra_err		 err;

	free_fmap(d);
	free_texts(d);
	dra_gpu_map_free(d->map);
	d->map = NULL;
	measure(d);
	if (s == NULL)
		return;
	dra_err_clear(&err);
	d->map = dra_gpu_map(s, NULL, &err);
	if (d->map == NULL) {
		tui_status(v->tui, 1, "GPU map: %s", err.msg);
		return;
	}
	if (d->map->nwarnings > 0)
		tui_note(v->tui, "GPU map: %s%s", d->map->warnings[0],
		    d->map->nwarnings > 1 ? " (and more)" : "");
	else
		tui_note(v->tui, "%s", "");
	apply_filter(d, 0);
	restore(d);
}

static void
gpus_scroll(struct tui_view *v, int h, int w)
{
	struct gpus_data	*d = v->data;
	size_t			 total = tui_gpumap_lines(shown(d));

	(void)w;
	d->height = h > 0 ? h : 1;
	if (d->sel >= total)
		d->sel = total > 0 ? total - 1 : 0;
	if (d->sel < d->top)
		d->top = d->sel;
	if (d->sel >= d->top + (size_t)d->height)
		d->top = d->sel - (size_t)d->height + 1;
	if (total <= (size_t)d->height)
		d->top = 0;
	else if (d->top + (size_t)d->height > total)
		d->top = total - (size_t)d->height;
	/*
	 * Scrolled into a node, its line takes the first row (see
	 * sticky_line): one line fewer of the map shows, so the
	 * selection may need the top one further down.
	 */
	while (d->top < d->sel && sticky_line(d, NULL) &&
	    d->sel >= d->top + (size_t)d->height - 1)
		d->top++;
}

/*
 * Whether the top line is a GPU line with room for its node's line
 * above it (the node of every GPU shown stays on screen, as in the
 * plan preview); *line gets the node's line.
 */
static int
sticky_line(const struct gpus_data *d, size_t *line)
{
	const struct dra_gpu_map	*m = shown(d);
	size_t				 n, i, l = 0;

	if (d->height < 2 || d->top >= tui_gpumap_lines(m) ||
	    tui_gpumap_gpu(m, d->top, &n) == NULL)
		return 0;
	for (i = 0; i < n; i++)
		l += 1 + m->nodes[i].ngpus;
	if (line != NULL)
		*line = l;
	return 1;
}

static int
gpus_click(struct tui_view *v, int y, int x)
{
	struct gpus_data	*d = v->data;
	size_t			 total = tui_gpumap_lines(shown(d));
	size_t			 line, node;

	(void)x;
	if (sticky_line(d, &node))
		line = y == 0 ? node : d->top + (size_t)y - 1;
	else
		line = d->top + (size_t)y;
	if (line >= total)
		return 0;
	if (d->sel != line)
		d->selpart = -1;
	d->sel = line;
	remember(d);
	return TUI_REDRAW;
}

static void
gpus_draw(struct tui_view *v, int y, int x, int h, int w)
{
	struct gpus_data	*d = v->data;
	char			 msg[300];
	size_t			 node;
	int			 i;

	if (d->filtered && shown(d)->ngpus == 0 && d->map->ngpus > 0) {
		/* The filter kept nothing: say so, not "no GPUs". */
		snprintf(msg, sizeof msg, " no GPU matches /%s", d->m.text);
		for (i = 0; i < h; i++) {
			move(y + i, x);
			tui_addfit(stdscr, i == 0 ? msg : "", w, 1, 0);
		}
		return;
	}
	if (h >= 2 && sticky_line(d, &node)) {
		tui_gpumap_draw_cols(shown(d), y, x, 1, w, node, -1, -1,
		    tui_namespace(v->tui), d->namew, d->modelw);
		y++;
		h--;
	}
	tui_gpumap_draw_cols(shown(d), y, x, h, w, d->top, (long)d->sel,
	    d->selpart, tui_namespace(v->tui), d->namew, d->modelw);
}

static char *
gpus_title(struct tui_view *v, char *buf, size_t len)
{
	struct gpus_data		*d = v->data;
	const struct dra_gpu_map	*m = shown(d);
	const char			*ns = tui_namespace(v->tui);
	char				 count[64];

	if (m == NULL) {
		snprintf(buf, len, "gpus");
		return buf;
	}
	if (d->filtered)
		snprintf(count, sizeof count, "%zu/%zu", m->ngpus,
		    d->map->ngpus);
	else
		snprintf(count, sizeof count, "%zu", m->ngpus);
	snprintf(buf, len, "gpus%s%s%s[%s] util %.0f%%, %zu of %zu "
	    "partitions held", ns != NULL ? "(" : "", ns != NULL ? ns : "",
	    ns != NULL ? ")" : "", count, d->map->util * 100,
	    d->map->nallocated, d->map->nparts);
	return buf;
}

static int
gpus_filter(struct tui_view *v, const char *text)
{
	struct gpus_data	*d = v->data;
	char			 copy[sizeof d->m.text];
	int			 narrow;

	remember(d);
	snprintf(v->filter, sizeof v->filter, "%s", text);
	snprintf(copy, sizeof copy, "%s", text);
	if (strcmp(copy, d->m.text) == 0)
		return 0;	/* the same GPUs */
	narrow = d->gmatch != NULL && tui_match_narrows(&d->m, copy);
	if (tui_match_set(&d->m, copy) == TUI_FILTER_LITERAL)
		tui_status(v->tui, 0, "not a valid regular expression: "
		    "matching \"%s\" as text", copy);
	apply_filter(d, narrow);
	restore(d);
	return 0;
}

/* The parts of g in bar order, drawn ones only; returns how many. */
static int
bar_parts(const struct dra_gpu *g, int *parts)
{
	struct tui_bar_seg	segs[TUI_BAR_MAXSEGS];
	int			n, i, np = 0;

	n = tui_gpu_bar(g, 256, segs);
	for (i = 0; i < n; i++) {
		if (segs[i].part >= 0)
			parts[np++] = segs[i].part;
	}
	return np;
}

/* Open the detail of the selection: the node, the claim or device. */
static int
open_selected(struct tui_view *v, enum tui_detail what)
{
	struct gpus_data		*d = v->data;
	const struct dra_gpu_map	*m = shown(d);
	const struct dra_gpu		*g;
	const struct dra_gpu_part	*p = NULL;
	struct tui_detail_arg		 a;
	char				 buf[1024];
	size_t				 n;
	int				 parts[TUI_BAR_MAXSEGS], np;

	if (m == NULL || tui_gpumap_lines(m) == 0)
		return TUI_REDRAW;
	g = tui_gpumap_gpu(m, d->sel, &n);
	memset(&a, 0, sizeof a);
	a.what = what;
	if (g == NULL) {
		if (what == TUI_D_WHY)
			goto nowhy;
		a.kind = DRA_KIND_NODE;
		a.name = m->nodes[n].name;
		tui_open_detail(v->tui, &a);
		return TUI_REDRAW;
	}
	if (d->selpart >= 0 && (size_t)d->selpart < g->nparts)
		p = &g->parts[d->selpart];
	else if ((np = bar_parts(g, parts)) == 1)
		p = &g->parts[parts[0]];
	if (what == TUI_D_WHY)
		goto nowhy;
	if (p != NULL && p->claim_obj != NULL) {
		a.kind = DRA_KIND_CLAIM;
		a.ns = p->claim_obj->meta.namespace;
		a.name = p->claim_obj->meta.name;
	} else if (p != NULL && p->device_obj != NULL) {
		a.kind = DRA_KIND_DEVICE;
		snprintf(buf, sizeof buf, "%s/%s/%s",
		    p->device_obj->slice->driver,
		    p->device_obj->slice->pool_name, p->device_obj->name);
		a.name = buf;
	} else if (g->mode != NULL && strcmp(g->mode, "whole") == 0) {
		a.kind = DRA_KIND_DEVICE;
		snprintf(buf, sizeof buf, "%s/%s/%s", g->driver, g->pool,
		    g->name);
		a.name = buf;
	} else {
		tui_status(v->tui, 1, "select a partition with Left/Right "
		    "(free slices have no object)");
		return TUI_REDRAW;
	}
	tui_open_detail(v->tui, &a);
	return TUI_REDRAW;
nowhy:
	tui_status(v->tui, 0, "partitions on the map are allocated: w "
	    "explains pending claims in :claims (or :why claim/NAME)");
	return TUI_REDRAW;
}

static int
gpus_key(struct tui_view *v, enum tui_action a, int key)
{
	struct gpus_data		*d = v->data;
	const struct dra_gpu_map	*m = shown(d);
	const struct dra_gpu		*g;
	size_t				 total = tui_gpumap_lines(m), old;
	int				 parts[TUI_BAR_MAXSEGS], np, i, at;
	long				 to;

	(void)key;
	old = d->sel;
	switch (a) {
	case TUI_A_UP:
	case TUI_A_DOWN:
	case TUI_A_PGUP:
	case TUI_A_PGDN:
		to = (long)d->sel + (a == TUI_A_UP ? -1 : a == TUI_A_DOWN ?
		    1 : a == TUI_A_PGUP ? -(long)d->height : d->height);
		if (to < 0)
			to = 0;
		if (total > 0 && to >= (long)total)
			to = (long)total - 1;
		d->sel = total > 0 ? (size_t)to : 0;
		break;
	case TUI_A_HOME:
		d->sel = 0;
		break;
	case TUI_A_END:
		d->sel = total > 0 ? total - 1 : 0;
		break;
	case TUI_A_LEFT:
	case TUI_A_RIGHT:
		g = tui_gpumap_gpu(m, d->sel, NULL);
		if (g == NULL)
			return TUI_REDRAW;
		np = bar_parts(g, parts);
		if (np == 0)
			return TUI_REDRAW;
		for (at = -1, i = 0; i < np; i++) {
			if (parts[i] == d->selpart)
				at = i;
		}
		if (at < 0)
			at = a == TUI_A_RIGHT ? 0 : np - 1;
		else if (a == TUI_A_RIGHT)
			at = at + 1 < np ? at + 1 : at;
		else
			at = at > 0 ? at - 1 : 0;
		d->selpart = parts[at];
		return TUI_REDRAW;
	case TUI_A_DESCRIBE:
		return open_selected(v, TUI_D_DESCRIBE);
	case TUI_A_YAML:
		return open_selected(v, TUI_D_YAML);
	case TUI_A_WHY:
		return open_selected(v, TUI_D_WHY);
	default:
		return TUI_UNHANDLED;
	}
	if (d->sel != old)
		d->selpart = -1;
	remember(d);
	return TUI_REDRAW;
}
