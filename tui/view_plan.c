/*
 * view_plan.c: the plan preview (p, with --plan FILE): the layout the
 * Plan document proposes beside today's, two GPU maps drawn the same
 * way (dra_gpu_map_plan and dra_gpu_map, gpubar.c), side by side when
 * the screen is wide enough, else one above the other.  Both scroll
 * together, so a node's GPUs today and planned sit level, and a GPU
 * line on top has its node's line kept above it.  The plan's map is
 * matched with today's on every snapshot: a GPU tainted today is
 * tainted in the plan, and a plan of other nodes (a synthetic --fleet)
 * says so on a line of its own.
 */
#include "tui-int.h"

#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "gpus.h"
#include "xmalloc.h"

/* Side by side from this many columns. */
#define PLAN_SIDE_COLS	120

/*
 * One above the other, each half has its heading and at least a node
 * line and a GPU below it; on fewer lines (50x10) today's heading goes.
 */
#define PLAN_STACK_LINES	6

struct plan_data {
	struct dra_gpu_map	*today;
	struct dra_gpu_map	*plan;		/* opts.plan, matched with
						   today's (taints) */
	char			 note[400];	/* the plan is for other
						   nodes, or "" */
	char			 brief[64];	/* the same in short */
	size_t			 top;
	int			 height;	/* lines of one map */
};

static int	plan_init(struct tui_view *, const void *);
static void	plan_free(struct tui_view *);
static void	plan_update(struct tui_view *, const struct kube_snapshot *);
static void	plan_draw(struct tui_view *, int, int, int, int);
static int	plan_key(struct tui_view *, enum tui_action, int);
static char	*plan_title(struct tui_view *, char *, size_t);
static void	plan_scroll(struct tui_view *, int, int);
static const char *plan_name(const struct tui *);
static size_t	plan_lines(struct tui_view *);
static size_t	plan_max_top(struct tui_view *);
static void	heading(const char *, const struct dra_gpu_map *, int, int,
		    int);
static void	draw_half(const struct dra_gpu_map *, int, int, int, int,
		    size_t);
static void	plan_note(struct tui_view *);

const struct tui_view_type tui_view_plan = {
	"plan", NULL, 0, 0, -1, NULL, plan_init, plan_free, plan_update,
	plan_draw, plan_key, plan_title, NULL, plan_scroll, NULL
};

/* The plan file's base name, for headings. */
static const char *
plan_name(const struct tui *t)
{
	const char	*f = t->opts.plan_file, *slash;

	if (f == NULL)
		return "preview";
	slash = strrchr(f, '/');
	return slash != NULL && slash[1] != '\0' ? slash + 1 : f;
}

static int
plan_init(struct tui_view *v, const void *arg)
{
	struct plan_data	*d;

	(void)arg;
	/* The document is checked once (tui_plan_map); each snapshot
	   then makes a map of it matched with today's. */
	if (tui_plan_map(v->tui) == NULL) {
		tui_status(v->tui, 1, "%s", v->tui->plan_err);
		return -1;
	}
	d = xcalloc(1, sizeof *d);
	d->height = 1;
	v->data = d;
	return 0;
}

static void
plan_free(struct tui_view *v)
{
	struct plan_data	*d = v->data;

	dra_gpu_map_free(d->today);
	dra_gpu_map_free(d->plan);
	free(d);
}

/*
 * When the plan's nodes are not today's, say so: a plan of a synthetic
 * fleet (`kubectl dra plan --fleet`, spec.inventory.live false) or of
 * another cluster beside today's GPUs compares nothing.
 */
static void
plan_note(struct tui_view *v)
{
	struct plan_data	*d = v->data;
	const cJSON		*inv, *src, *live;
	const char		*source;
	size_t			 common;

	d->note[0] = d->brief[0] = '\0';
	common = dra_gpu_map_match(d->plan, d->today);
	if (d->plan->nnodes == 0 || common == d->plan->nnodes)
		return;
	inv = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(v->tui->opts.plan, "spec"),
	    "inventory");
	src = cJSON_GetObjectItemCaseSensitive(inv, "source");
	live = cJSON_GetObjectItemCaseSensitive(inv, "live");
	source = cJSON_IsString(src) ? src->valuestring : "?";
	if (common > 0) {
		snprintf(d->note, sizeof d->note, "%zu of the plan's %zu nodes "
		    "are not in today's data (the plan is of %.200s)",
		    d->plan->nnodes - common, d->plan->nnodes, source);
		snprintf(d->brief, sizeof d->brief, "%zu nodes not today's",
		    d->plan->nnodes - common);
	} else if (cJSON_IsFalse(live)) {
		snprintf(d->note, sizeof d->note, "the plan is for a synthetic "
		    "fleet (%.200s): no node in common with today's", source);
		snprintf(d->brief, sizeof d->brief, "a synthetic fleet");
	} else {
		snprintf(d->note, sizeof d->note, "the plan is of other nodes "
		    "(%.200s): no node in common with today's", source);
		snprintf(d->brief, sizeof d->brief, "no node in common");
	}
}

static void
plan_update(struct tui_view *v, const struct kube_snapshot *s)
{
	struct plan_data	*d = v->data;
	struct dra_err		 err;

	dra_gpu_map_free(d->today);
	dra_gpu_map_free(d->plan);
	d->today = d->plan = NULL;
	d->note[0] = d->brief[0] = '\0';
	if (s == NULL)
		return;
	dra_err_clear(&err);
	d->today = dra_gpu_map(s, NULL, &err);
	if (d->today == NULL)
		tui_status(v->tui, 1, "GPU map: %s", err.msg);
	/* Read when the view opened: it reads again. */
	dra_err_clear(&err);
	d->plan = dra_gpu_map_plan(v->tui->opts.plan, &err);
	if (d->plan == NULL) {
		tui_status(v->tui, 1, "%s", err.msg);
		return;
	}
	plan_note(v);
}

static size_t
plan_lines(struct tui_view *v)
{
	struct plan_data	*d = v->data;
	size_t			 a, b;

	a = tui_gpumap_lines(d->today);
	b = tui_gpumap_lines(d->plan);
	return a > b ? a : b;
}

/*
 * The last top line: scrolled into a node, its line stays on top
 * (draw_half), so a page shows one GPU line less.
 */
static size_t
plan_max_top(struct tui_view *v)
{
	struct plan_data	*d = v->data;
	size_t			 total = plan_lines(v);

	if (total <= (size_t)d->height)
		return 0;
	return total - (size_t)d->height + 1;
}

/* The body: a note line when the plan is of other nodes, then the
   halves (each a heading and a map, today's heading dropped when
   tight). */
static void
plan_scroll(struct tui_view *v, int h, int w)
{
	struct plan_data	*d = v->data;

	if (d->note[0] != '\0' && (w >= PLAN_SIDE_COLS || h - 1 >=
	    PLAN_STACK_LINES))
		h--;
	if (w >= PLAN_SIDE_COLS)
		d->height = h - 1;
	else if (h >= PLAN_STACK_LINES)
		d->height = (h - 2) / 2;
	else
		d->height = (h - 1) / 2;
	if (d->height < 1)
		d->height = 1;
	if (d->top > plan_max_top(v))
		d->top = plan_max_top(v);
}

/* The heading of one half: what it is, GPUs, utilization. */
static void
heading(const char *what, const struct dra_gpu_map *m, int y, int x, int w)
{
	char	line[512], util[16];
	int	used;

	if (m != NULL)
		snprintf(line, sizeof line, "%s: %zu GPU%s, %zu partitions "
		    "held, util ", what, m->ngpus, m->ngpus == 1 ? "" : "s",
		    m->nallocated);
	else
		snprintf(line, sizeof line, "%s: no GPU map", what);
	move(y, x);
	attrset(tui_attr(TUI_C_TITLE));
	used = tui_addfit(stdscr, line, w, 0, 0);
	if (m != NULL && tui_strwidth(line) < w) {
		snprintf(util, sizeof util, "%.0f%%", m->util * 100);
		attrset(tui_attr(tui_util_colour(m->util)));
		tui_addfit(stdscr, util, w - used, 0, 0);
	}
	attrset(tui_attr(TUI_C_NORMAL));
}

/*
 * A map from line top in h lines: when top is a GPU line its node's
 * line stays on the first line, so every GPU shown has its node.
 */
static void
draw_half(const struct dra_gpu_map *m, int y, int x, int h, int w,
    size_t top)
{
	size_t	node, line, i;

	if (h >= 2 && top < tui_gpumap_lines(m) &&
	    tui_gpumap_gpu(m, top, &node) != NULL) {
		for (i = 0, line = 0; i < node; i++)
			line += 1 + m->nodes[i].ngpus;
		tui_gpumap_draw(m, y, x, 1, w, line, -1, -1, NULL);
		tui_gpumap_draw(m, y + 1, x, h - 1, w, top, -1, -1, NULL);
		return;
	}
	tui_gpumap_draw(m, y, x, h, w, top, -1, -1, NULL);
}

static void
plan_draw(struct tui_view *v, int y, int x, int h, int w)
{
	struct plan_data	*d = v->data;
	char			 what[600];
	int			 half, i, tight;

	if (d->note[0] != '\0' && (w >= PLAN_SIDE_COLS || h - 1 >=
	    PLAN_STACK_LINES)) {
		move(y, x);
		attrset(tui_attr(TUI_C_NOTE));
		tui_addfit(stdscr, d->note, w, 1, 0);
		attrset(tui_attr(TUI_C_NORMAL));
		y++;
		h--;
		snprintf(what, sizeof what, "plan %s", plan_name(v->tui));
	} else if (d->note[0] != '\0')
		snprintf(what, sizeof what, "plan %s (%s)", plan_name(v->tui),
		    d->brief);
	else
		snprintf(what, sizeof what, "plan %s", plan_name(v->tui));
	if (w >= PLAN_SIDE_COLS) {
		half = (w - 1) / 2;
		heading("today", d->today, y, x, half);
		draw_half(d->today, y + 1, x, d->height, half, d->top);
		attrset(tui_attr(TUI_C_DIM));
		for (i = 0; i < h; i++)
			mvaddch(y + i, x + half, ACS_VLINE);
		attrset(tui_attr(TUI_C_NORMAL));
		heading(what, d->plan, y, x + half + 1, w - half - 1);
		draw_half(d->plan, y + 1, x + half + 1, d->height,
		    w - half - 1, d->top);
		return;
	}
	tight = h < PLAN_STACK_LINES;
	if (!tight) {
		heading("today", d->today, y, x, w);
		y++;
	}
	draw_half(d->today, y, x, d->height, w, d->top);
	y += d->height;
	heading(what, d->plan, y, x, w);
	draw_half(d->plan, y + 1, x, tight ? h - d->height - 1 : d->height,
	    w, d->top);
}

static int
plan_key(struct tui_view *v, enum tui_action a, int key)
{
	struct plan_data	*d = v->data;
	long			 to = (long)d->top;

	(void)key;
	switch (a) {
	case TUI_A_UP:
		to--;
		break;
	case TUI_A_DOWN:
		to++;
		break;
	case TUI_A_PGUP:
		to -= d->height > 1 ? d->height - 1 : 1;
		break;
	case TUI_A_PGDN:
		to += d->height > 1 ? d->height - 1 : 1;
		break;
	case TUI_A_HOME:
		to = 0;
		break;
	case TUI_A_END:
		to = (long)plan_lines(v);
		break;
	default:
		return TUI_UNHANDLED;
	}
	if (to > (long)plan_max_top(v))
		to = (long)plan_max_top(v);
	if (to < 0)
		to = 0;
	d->top = (size_t)to;
	return TUI_REDRAW;
}

static char *
plan_title(struct tui_view *v, char *buf, size_t len)
{
	snprintf(buf, len, "plan %s", plan_name(v->tui));
	return buf;
}
