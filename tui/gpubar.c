/*
 * gpubar.c: a GPU drawn as a bar of its memory slices (views/gpus.h),
 * and a GPU map drawn node by node, for the GPU view and both halves
 * of the plan preview.
 *
 * The layout of a bar is computed apart from drawing (tui_gpu_bar), so
 * tests check it as text.  Slice i of n takes columns [i*w/n,
 * (i+1)*w/n), so partitions line up across GPUs of the same kind, as
 * nvidia-smi's placement pictures do.  Parts held by a claim (or
 * planned) are placed first; a part overlapping one already placed is
 * not drawn, which is how the free devices of a dynamic-MIG GPU (every
 * possible placement is published) leave their slices showing free.
 */
#include "tui-int.h"

#include <stdlib.h>
#include <string.h>

#include "gpus.h"

#define UTIL_COLS	10	/* "  57% 4/7" */

static int	part_rank(const struct dra_gpu_part *);
static void	part_label(const struct dra_gpu *, const struct dra_gpu_part *,
		    char *, size_t);
static enum tui_colour part_colour(const struct dra_gpu_part *);
static void	draw_gpu(const struct dra_gpu *, int, int, int, int, int, int,
		    int, const char *);

enum tui_colour
tui_util_colour(double util)
{
	if (util < DRA_GPU_UTIL_TARGET)
		return TUI_C_UTILOK;
	if (util <= DRA_GPU_UTIL_CEILING)
		return TUI_C_UTILWARN;
	return TUI_C_UTILHIGH;
}

enum tui_colour
tui_team_colour(const char *ns)
{
	unsigned	h = 5381;

	if (ns == NULL)
		return TUI_C_TEAM0;
	while (*ns != '\0')
		h = h * 33 + (unsigned char)*ns++;
	return (enum tui_colour)(TUI_C_TEAM0 + h % TUI_NTEAMS);
}

/* Which parts are placed first: held, planned, tainted, then free. */
static int
part_rank(const struct dra_gpu_part *p)
{
	switch (p->state) {
	case DRA_PART_ALLOCATED:
		return 0;
	case DRA_PART_PLANNED:
		return 1;
	case DRA_PART_TAINTED:
		return 2;
	case DRA_PART_BLOCKED:
		return 4;
	default:
		return 3;
	}
}

static enum tui_colour
part_colour(const struct dra_gpu_part *p)
{
	switch (p->state) {
	case DRA_PART_ALLOCATED:
		return tui_team_colour(p->namespace);
	case DRA_PART_PLANNED:
		return p->claim != NULL ? tui_team_colour(p->namespace) :
		    TUI_C_PARTPLAN;
	case DRA_PART_TAINTED:
		return TUI_C_PARTTAINT;
	case DRA_PART_BLOCKED:
		return TUI_C_PARTBLOCK;
	default:
		return TUI_C_PARTFREE;
	}
}

/* "3g.40gb vllm-serve-0-gpu": the profile and the claim's name. */
static void
part_label(const struct dra_gpu *g, const struct dra_gpu_part *p, char *buf,
    size_t len)
{
	const char	*claim = p->claim, *slash;
	const char	*prof = p->profile != NULL ? p->profile : "whole";

	(void)g;
	if (claim != NULL && (slash = strchr(claim, '/')) != NULL)
		claim = slash + 1;
	if (claim != NULL && p->shared > 1)
		snprintf(buf, len, "%s %s +%d", prof, claim, p->shared - 1);
	else if (claim != NULL)
		snprintf(buf, len, "%s %s", prof, claim);
	else if (p->state == DRA_PART_PLANNED)
		snprintf(buf, len, "%s planned", prof);
	else if (p->state == DRA_PART_TAINTED)
		snprintf(buf, len, "%s tainted", prof);
	else
		snprintf(buf, len, "%s", prof);
}

int
tui_gpu_bar(const struct dra_gpu *g, int width, struct tui_bar_seg *segs)
{
	struct tui_bar_seg	 tmp;
	int			 n = g->nslices > 0 ? g->nslices : 1;
	int			 owner[256], rank, s, e, i, j, nsegs = 0;
	int			 dynamic;
	size_t			 k;

	if (n > 256)
		n = 256;
	if (width < n)
		width = n;
	for (i = 0; i < n; i++)
		owner[i] = -1;
	dynamic = g->mode != NULL && strcmp(g->mode, "mig-dynamic") == 0;
	/* Place parts by rank, first come first placed. */
	for (rank = 0; rank <= 4; rank++) {
		for (k = 0; k < g->nparts; k++) {
			const struct dra_gpu_part *p = &g->parts[k];

			if (part_rank(p) != rank)
				continue;
			if (dynamic && (p->state == DRA_PART_FREE ||
			    p->state == DRA_PART_BLOCKED))
				continue;
			s = p->start < 0 ? 0 : p->start;
			e = s + (p->size > 0 ? p->size : 1);
			if (e > n)
				e = n;
			for (i = s; i < e && owner[i] == -1; i++)
				;
			if (i < e || s >= e)
				continue;	/* overlaps */
			for (i = s; i < e; i++)
				owner[i] = (int)k;
			if (nsegs == TUI_BAR_MAXSEGS)
				break;
			segs[nsegs].col = s * width / n;
			segs[nsegs].width = e * width / n - s * width / n;
			segs[nsegs].part = (int)k;
			segs[nsegs].colour = part_colour(p);
			part_label(g, p, segs[nsegs].label,
			    sizeof segs[nsegs].label);
			nsegs++;
		}
	}
	/* Runs of free slices. */
	for (i = 0; i < n && nsegs < TUI_BAR_MAXSEGS; i++) {
		if (owner[i] != -1)
			continue;
		for (s = i; i < n && owner[i] == -1; i++)
			;
		segs[nsegs].col = s * width / n;
		segs[nsegs].width = i * width / n - s * width / n;
		segs[nsegs].part = -1;
		segs[nsegs].colour = TUI_C_PARTFREE;
		segs[nsegs].label[0] = '\0';
		nsegs++;
	}
	/* In column order (insertion sort: few segments). */
	for (i = 1; i < nsegs; i++) {
		tmp = segs[i];
		for (j = i; j > 0 && segs[j - 1].col > tmp.col; j--)
			segs[j] = segs[j - 1];
		segs[j] = tmp;
	}
	return nsegs;
}

char *
tui_gpu_bar_text(const struct dra_gpu *g, int width, char *buf, size_t len)
{
	const struct tui_glyphs	*gl = tui_glyphs();
	struct tui_bar_seg	 segs[TUI_BAR_MAXSEGS];
	char			 fit[256];
	size_t			 o = 0, fl = strlen(gl->free);
	int			 n, i, c, w;

	if (len == 0)
		return buf;
	buf[0] = '\0';
	n = tui_gpu_bar(g, width, segs);
	for (i = 0; i < n; i++) {
		if (o + 2 >= len)
			break;
		buf[o++] = '|';
		if (segs[i].part < 0) {
			for (c = 1; c < segs[i].width && o + fl + 1 < len;
			    c++) {
				memcpy(buf + o, gl->free, fl);
				o += fl;
			}
			continue;
		}
		tui_fit(segs[i].label, segs[i].width - 1, fit, sizeof fit);
		w = tui_strwidth(fit);
		snprintf(buf + o, len - o, "%s%*s", fit,
		    segs[i].width - 1 - w > 0 ? segs[i].width - 1 - w : 0, "");
		o = strlen(buf);
	}
	if (o + 1 < len)
		buf[o++] = '|';
	buf[o] = '\0';
	return buf;
}

size_t
tui_gpumap_lines(const struct dra_gpu_map *map)
{
	return map != NULL ? map->nnodes + map->ngpus : 0;
}

const struct dra_gpu *
tui_gpumap_gpu(const struct dra_gpu_map *map, size_t i, size_t *node)
{
	size_t	n, at = 0;

	if (map == NULL)
		return NULL;
	for (n = 0; n < map->nnodes; n++) {
		if (i == at) {
			if (node != NULL)
				*node = n;
			return NULL;
		}
		if (i <= at + map->nodes[n].ngpus) {
			if (node != NULL)
				*node = n;
			return &map->nodes[n].gpus[i - at - 1];
		}
		at += 1 + map->nodes[n].ngpus;
	}
	if (node != NULL)
		*node = map->nnodes;
	return NULL;
}

/* Draw one GPU's line at (y, x), w columns. */
static void
draw_gpu(const struct dra_gpu *g, int y, int x, int w, int namew, int modelw,
    int selected, int selpart, const char *ns)
{
	const struct tui_glyphs	*gl = tui_glyphs();
	struct tui_bar_seg	 segs[TUI_BAR_MAXSEGS];
	char			 util[32];
	int			 barw, n, i, c, sel;

	move(y, x);
	attrset(tui_attr(selected ? TUI_C_SELECTED : TUI_C_NORMAL));
	tui_addfit(stdscr, "  ", 2, 1, 0);
	tui_addfit(stdscr, g->name, namew, 1, 0);
	addch(' ');
	if (modelw > 0) {
		attrset(tui_attr(selected ? TUI_C_SELECTED : TUI_C_DIM));
		tui_addfit(stdscr, g->model != NULL ? g->model : "", modelw,
		    1, 0);
		addch(' ');
	}
	barw = w - 2 - namew - 1 - (modelw > 0 ? modelw + 1 : 0) - UTIL_COLS -
	    1;
	if (barw < (g->nslices > 0 ? g->nslices : 1)) {
		attrset(tui_attr(TUI_C_NORMAL));
		return;
	}
	n = tui_gpu_bar(g, barw, segs);
	for (i = 0; i < n; i++) {
		sel = selected && segs[i].part >= 0 && segs[i].part == selpart;
		attrset(tui_attr(TUI_C_DIM));
		addch(sel ? '>' : '|');
		c = segs[i].colour;
		if (ns != NULL && segs[i].part >= 0 &&
		    g->parts[segs[i].part].namespace != NULL &&
		    strcmp(g->parts[segs[i].part].namespace, ns) != 0)
			c = TUI_C_DIM;
		attrset(tui_attr(sel ? TUI_C_SELECTED : (enum tui_colour)c));
		if (segs[i].part < 0) {
			for (c = 1; c < segs[i].width; c++)
				addstr(gl->free);
		} else
			tui_addfit(stdscr, segs[i].label, segs[i].width - 1,
			    1, 0);
	}
	attrset(tui_attr(TUI_C_DIM));
	addch('|');
	snprintf(util, sizeof util, " %3.0f%% %d/%d", g->util * 100,
	    g->compute_used, g->compute_total);
	attrset(tui_attr(tui_util_colour(g->util)));
	tui_addfit(stdscr, util, UTIL_COLS, 1, 0);
	attrset(tui_attr(TUI_C_NORMAL));
}

void
tui_gpumap_widths(const struct dra_gpu_map *map, int *namew, int *modelw)
{
	const struct dra_gpu	*g;
	size_t			 n, k;
	int			 w;

	*namew = 4;
	*modelw = 0;
	for (n = 0; map != NULL && n < map->nnodes; n++) {
		for (k = 0; k < map->nodes[n].ngpus; k++) {
			g = &map->nodes[n].gpus[k];
			w = tui_strwidth(g->name);
			if (w > *namew)
				*namew = w;
			w = g->model != NULL ? tui_strwidth(g->model) : 0;
			if (w > *modelw)
				*modelw = w;
		}
	}
	if (*namew > 20)
		*namew = 20;
	if (*modelw > 22)
		*modelw = 22;
}

size_t
tui_gpumap_draw(const struct dra_gpu_map *map, int y, int x, int h, int w,
    size_t first, long sel, int selpart, const char *ns)
{
	int	namew, modelw;

	tui_gpumap_widths(map, &namew, &modelw);
	return tui_gpumap_draw_cols(map, y, x, h, w, first, sel, selpart, ns,
	    namew, modelw);
}

size_t
tui_gpumap_draw_cols(const struct dra_gpu_map *map, int y, int x, int h,
    int w, size_t first, long sel, int selpart, const char *ns, int namew,
    int modelw)
{
	const struct dra_gpu_node	*nd;
	char				 line[512];
	size_t				 total, l, n, k;
	int				 row, used;

	total = tui_gpumap_lines(map);
	if (map == NULL || total == 0) {
		move(y, x);
		tui_addfit(stdscr, map == NULL ? " (no GPU map)" :
		    " no GPUs: no ResourceSlice publishes a GPU", w, 1, 0);
		return total;
	}
	if (w < 100)
		modelw = 0;
	/* Line first is node n's line (k 0) or its GPU k - 1. */
	tui_gpumap_gpu(map, first, &n);
	for (k = first, l = 0; l < n; l++)
		k -= 1 + map->nodes[l].ngpus;
	row = 0;
	for (l = first; l < total && row < h && n < map->nnodes; l++, row++) {
		nd = &map->nodes[n];
		if (k > 0) {
			draw_gpu(&nd->gpus[k - 1], y + row, x, w, namew, modelw,
			    (long)l == sel, selpart, ns);
		} else {
			move(y + row, x);
			attrset(tui_attr((long)l == sel ? TUI_C_SELECTED :
			    TUI_C_HEADVAL));
			used = tui_addfit(stdscr, nd->name, w / 2, 0, 0);
			attrset(tui_attr((long)l == sel ? TUI_C_SELECTED :
			    TUI_C_NORMAL));
			snprintf(line, sizeof line, "  %zu GPU%s  util ",
			    nd->ngpus, nd->ngpus == 1 ? "" : "s");
			used += tui_addfit(stdscr, line, w - used, 0, 0);
			/* Selected: one attribute across the whole line. */
			attrset(tui_attr((long)l == sel ? TUI_C_SELECTED :
			    tui_util_colour(nd->util)));
			snprintf(line, sizeof line, "%.0f%%", nd->util * 100);
			used += tui_addfit(stdscr, line, w - used, 0, 0);
			if ((long)l == sel && used < w)
				tui_addfit(stdscr, "", w - used, 1, 0);
			attrset(tui_attr(TUI_C_NORMAL));
		}
		if (++k > nd->ngpus) {
			k = 0;
			n++;
		}
	}
	return total;
}
