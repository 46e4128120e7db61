/*
 * view_plan.c: the plan preview (p, with --plan FILE): the layout the
 * Plan document proposes beside today's, two GPU maps drawn the same
 * way (dra_gpu_map_plan and dra_gpu_map, gpubar.c), side by side when
 * the screen is wide enough, else one above the other.  Both scroll
 * together, so a node's GPUs today and planned sit level.
 */
#include "tui-int.h"

#include <stdlib.h>
#include <string.h>

#include "gpus.h"
#include "xmalloc.h"

/* Side by side from this many columns. */
#define PLAN_SIDE_COLS	120

struct plan_data {
	struct dra_gpu_map	*today;
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
static void	heading(const char *, const struct dra_gpu_map *, int, int,
		    int);

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
	free(d);
}

static void
plan_update(struct tui_view *v, const struct kube_snapshot *s)
{
	struct plan_data	*d = v->data;
	struct dra_err		 err;

	dra_gpu_map_free(d->today);
	d->today = NULL;
	if (s == NULL)
		return;
	dra_err_clear(&err);
	d->today = dra_gpu_map(s, NULL, &err);
	if (d->today == NULL)
		tui_status(v->tui, 1, "GPU map: %s", err.msg);
}

static size_t
plan_lines(struct tui_view *v)
{
	struct plan_data		*d = v->data;
	const struct dra_gpu_map	*p = tui_plan_map(v->tui);
	size_t				 a, b;

	a = tui_gpumap_lines(d->today);
	b = tui_gpumap_lines(p);
	return a > b ? a : b;
}

static void
plan_scroll(struct tui_view *v, int h, int w)
{
	struct plan_data	*d = v->data;
	size_t			 total = plan_lines(v);

	if (w >= PLAN_SIDE_COLS)
		d->height = h - 1;
	else
		d->height = h / 2 - 1;
	if (d->height < 1)
		d->height = 1;
	if (total <= (size_t)d->height)
		d->top = 0;
	else if (d->top + (size_t)d->height > total)
		d->top = total - (size_t)d->height;
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

static void
plan_draw(struct tui_view *v, int y, int x, int h, int w)
{
	struct plan_data		*d = v->data;
	const struct dra_gpu_map	*p = tui_plan_map(v->tui);
	char				 what[300];
	int				 half, i;

	snprintf(what, sizeof what, "plan %s", plan_name(v->tui));
	if (w >= PLAN_SIDE_COLS) {
		half = (w - 1) / 2;
		heading("today", d->today, y, x, half);
		tui_gpumap_draw(d->today, y + 1, x, d->height, half, d->top,
		    -1, -1, NULL);
		attrset(tui_attr(TUI_C_DIM));
		for (i = 0; i < h; i++)
			mvaddch(y + i, x + half, ACS_VLINE);
		attrset(tui_attr(TUI_C_NORMAL));
		heading(what, p, y, x + half + 1, w - half - 1);
		tui_gpumap_draw(p, y + 1, x + half + 1, d->height,
		    w - half - 1, d->top, -1, -1, NULL);
		return;
	}
	heading("today", d->today, y, x, w);
	tui_gpumap_draw(d->today, y + 1, x, d->height, w, d->top, -1, -1,
	    NULL);
	heading(what, p, y + 1 + d->height, x, w);
	tui_gpumap_draw(p, y + 2 + d->height, x, d->height, w, d->top, -1, -1,
	    NULL);
}

static int
plan_key(struct tui_view *v, enum tui_action a, int key)
{
	struct plan_data	*d = v->data;
	size_t			 total = plan_lines(v);
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
		to -= d->height;
		break;
	case TUI_A_PGDN:
		to += d->height;
		break;
	case TUI_A_HOME:
		to = 0;
		break;
	case TUI_A_END:
		to = (long)total;
		break;
	default:
		return TUI_UNHANDLED;
	}
	if (total > (size_t)d->height && to > (long)(total -
	    (size_t)d->height))
		to = (long)(total - (size_t)d->height);
	if (to < 0 || total <= (size_t)d->height)
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
