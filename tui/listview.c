/*
 * listview.c: the one list widget (htop Panel, tmux mode-tree.c).
 *
 * A struct dra_table from views/ is shown through an index array: the
 * rows the filter keeps, in the sort order.  Everything that costs
 * time with 10,000 rows is done when the data, the filter or the sort
 * changes, never per key or per frame: the natural column widths once
 * per table, the joined row texts once per table on the first filter,
 * the index on a change.  Drawing touches only the rows on screen.
 *
 * The selection is kept by key (tui_row_key): after new data the
 * selected object is found again and kept on the same screen line, so
 * a watch event does not move rows under the cursor.
 */
#include "tui-int.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xmalloc.h"

#define COL_GAP	2
#define COL_MIN	10	/* narrower is no use: the column goes */

static void	lv_clear_rows(struct tui_listview *);
static void	lv_rebuild(struct tui_listview *);
static int	lv_match(const struct tui_listview *, size_t);
static void	lv_apply_sort(struct tui_listview *);
static void	lv_remember(struct tui_listview *);
static int	cmp_rows(const void *, const void *);
static int	shrink_columns(const struct tui_listview *, int *, int, int,
		    int);
static int	name_column(const struct dra_table *, size_t);
static int	col_priority(const struct dra_table *, size_t);

/* The listview being sorted (qsort has no argument). */
static const struct tui_listview *sorting;

void
tui_lv_init(struct tui_listview *lv)
{
	memset(lv, 0, sizeof *lv);
	lv->sort_col = -1;
	lv->height = 1;
}

static void
lv_clear_rows(struct tui_listview *lv)
{
	size_t	i;

	if (lv->lines != NULL && lv->table != NULL) {
		for (i = 0; i < lv->table->nrows; i++)
			free(lv->lines[i]);
	}
	free(lv->lines);
	lv->lines = NULL;
	free(lv->natw);
	lv->natw = NULL;
	free(lv->idx);
	lv->idx = NULL;
	lv->nidx = 0;
}

void
tui_lv_free(struct tui_listview *lv)
{
	lv_clear_rows(lv);
	if (lv->re_ok)
		regfree(&lv->re);
	lv->re_ok = 0;
	lv->table = NULL;
}

char *
tui_row_key(const struct dra_table *t, const struct dra_row *row, char *buf,
    size_t len)
{
	const struct kube_meta	*m = NULL;
	const char		*key = NULL;
	char			 name[400];
	size_t			 c;

	if (t->kind >= DRA_KIND_COUNT) {
		snprintf(buf, len, "%s %s", t->ncolumns > 0 ? row->cells[0] :
		    "", t->ncolumns > 1 ? row->cells[1] : "");
		return buf;
	}
	dra_row_name(t, row, name, sizeof name);
	switch (t->kind) {
	case DRA_KIND_CLAIM:
		m = &((const struct kube_claim *)row->obj)->meta;
		break;
	case DRA_KIND_TEMPLATE:
		m = &((const struct kube_claim_template *)row->obj)->meta;
		break;
	case DRA_KIND_QUOTA:
		/* A row per quota and key. */
		m = &((const struct kube_quota *)row->obj)->meta;
		for (c = 0; c < t->ncolumns; c++) {
			if (strcmp(t->columns[c].name, "RESOURCE") == 0)
				key = row->cells[c];
		}
		break;
	default:
		break;
	}
	snprintf(buf, len, "%s%s%s%s%s", name, m != NULL &&
	    m->namespace != NULL ? " " : "", m != NULL && m->namespace !=
	    NULL ? m->namespace : "", key != NULL ? " " : "",
	    key != NULL ? key : "");
	return buf;
}

/* Remember the selected row's key. */
static void
lv_remember(struct tui_listview *lv)
{
	const struct dra_row	*r = tui_lv_selected(lv);

	if (r != NULL)
		tui_row_key(lv->table, r, lv->selkey, sizeof lv->selkey);
}

static int
lv_match(const struct tui_listview *lv, size_t i)
{
	int	m;

	if (lv->filter[0] == '\0' || (lv->inverse && lv->filter[1] == '\0'))
		return 1;
	if (lv->literal)
		m = tui_strcasestr(lv->lines[i], lv->filter +
		    lv->inverse) != NULL;
	else
		m = regexec(&lv->re, lv->lines[i], 0, NULL, 0) == 0;
	return lv->inverse ? !m : m;
}

static int
cmp_rows(const void *pa, const void *pb)
{
	const struct tui_listview	*lv = sorting;
	size_t				 a = *(const size_t *)pa;
	size_t				 b = *(const size_t *)pb;
	const char			*ca, *cb;
	int64_t				 sa, sb;
	int				 c;

	ca = lv->table->rows[a].cells[lv->sort_col];
	cb = lv->table->rows[b].cells[lv->sort_col];
	if (strcmp(lv->table->columns[lv->sort_col].name, "AGE") == 0) {
		sa = tui_age_seconds(ca);
		sb = tui_age_seconds(cb);
		c = sa < sb ? -1 : sa > sb;
	} else
		c = tui_natcmp(ca, cb);
	if (lv->sort_desc)
		c = -c;
	if (c == 0)
		c = a < b ? -1 : a > b;	/* stable */
	return c;
}

static void
lv_apply_sort(struct tui_listview *lv)
{
	if (lv->table == NULL || lv->sort_col < 0 ||
	    (size_t)lv->sort_col >= lv->table->ncolumns || lv->nidx < 2)
		return;
	sorting = lv;
	qsort(lv->idx, lv->nidx, sizeof *lv->idx, cmp_rows);
	sorting = NULL;
}

/* Filter and sort again; find the selection by key. */
static void
lv_rebuild(struct tui_listview *lv)
{
	const struct dra_table	*t = lv->table;
	char			 key[512];
	size_t			 i, oldsel = lv->sel, oldtop = lv->top;
	int			 found = 0;

	lv->nidx = 0;
	if (t == NULL || t->nrows == 0) {
		lv->sel = lv->top = 0;
		return;
	}
	if (lv->idx == NULL)
		lv->idx = xcalloc(t->nrows, sizeof *lv->idx);
	for (i = 0; i < t->nrows; i++) {
		if (lv_match(lv, i))
			lv->idx[lv->nidx++] = i;
	}
	lv_apply_sort(lv);
	if (lv->selkey[0] != '\0') {
		for (i = 0; i < lv->nidx; i++) {
			tui_row_key(t, &t->rows[lv->idx[i]], key, sizeof key);
			if (strcmp(key, lv->selkey) == 0) {
				lv->sel = i;
				found = 1;
				break;
			}
		}
	}
	if (!found)
		lv->sel = oldsel;
	if (lv->nidx == 0)
		lv->sel = 0;
	else if (lv->sel >= lv->nidx)
		lv->sel = lv->nidx - 1;
	/* Keep the selection on the same screen line. */
	if (oldsel >= oldtop && lv->sel >= oldsel - oldtop)
		lv->top = lv->sel - (oldsel - oldtop);
	else
		lv->top = 0;
	if (!found)
		lv_remember(lv);
}

void
tui_lv_set_table(struct tui_listview *lv, const struct dra_table *t)
{
	size_t	i, c;
	int	w;

	lv_clear_rows(lv);
	lv->table = t;
	if (t == NULL)
		return;
	lv->natw = xcalloc(t->ncolumns > 0 ? t->ncolumns : 1,
	    sizeof *lv->natw);
	for (c = 0; c < t->ncolumns; c++)
		lv->natw[c] = tui_strwidth(t->columns[c].name);
	for (i = 0; i < t->nrows; i++) {
		for (c = 0; c < t->ncolumns; c++) {
			w = tui_strwidth(t->rows[i].cells[c]);
			if (w > lv->natw[c])
				lv->natw[c] = w;
		}
	}
	if (lv->sort_col >= (int)t->ncolumns)
		lv->sort_col = -1;
	if (lv->filter[0] != '\0' && !(lv->inverse && lv->filter[1] == '\0'))
		tui_lv_set_filter(lv, lv->filter);
	else
		lv_rebuild(lv);
}

int
tui_lv_set_filter(struct tui_listview *lv, const char *text)
{
	const struct dra_table	*t = lv->table;
	size_t			 i, c, n, o;
	int			 ret = 0;
	char			 copy[sizeof lv->filter];

	snprintf(copy, sizeof copy, "%s", text);
	snprintf(lv->filter, sizeof lv->filter, "%s", copy);
	lv->inverse = lv->filter[0] == '!';
	if (lv->re_ok)
		regfree(&lv->re);
	lv->re_ok = 0;
	lv->literal = 0;
	if (lv->filter[lv->inverse] != '\0') {
		if (regcomp(&lv->re, lv->filter + lv->inverse, REG_EXTENDED |
		    REG_ICASE | REG_NOSUB) == 0)
			lv->re_ok = 1;
		else {
			lv->literal = 1;
			ret = TUI_FILTER_LITERAL;
		}
		/* The joined texts, once per table. */
		if (t != NULL && lv->lines == NULL && t->nrows > 0) {
			lv->lines = xcalloc(t->nrows, sizeof *lv->lines);
			for (i = 0; i < t->nrows; i++) {
				n = 1;
				for (c = 0; c < t->ncolumns; c++)
					n += strlen(t->rows[i].cells[c]) + 1;
				lv->lines[i] = xmalloc(n);
				o = 0;
				for (c = 0; c < t->ncolumns; c++) {
					n = strlen(t->rows[i].cells[c]);
					memcpy(lv->lines[i] + o,
					    t->rows[i].cells[c], n);
					o += n;
					lv->lines[i][o++] = ' ';
				}
				lv->lines[i][o] = '\0';
			}
		}
	}
	lv_rebuild(lv);
	return ret;
}

void
tui_lv_sort(struct tui_listview *lv, int col, int desc)
{
	lv->sort_col = col;
	lv->sort_desc = desc;
	lv_rebuild(lv);
}

int
tui_lv_column(const struct tui_listview *lv, const char *name)
{
	size_t	c;

	if (lv->table == NULL)
		return -1;
	for (c = 0; c < lv->table->ncolumns; c++) {
		if (strcasecmp(lv->table->columns[c].name, name) == 0)
			return (int)c;
	}
	return -1;
}

void
tui_lv_select(struct tui_listview *lv, size_t i)
{
	if (lv->nidx == 0) {
		lv->sel = 0;
		return;
	}
	lv->sel = i >= lv->nidx ? lv->nidx - 1 : i;
	lv_remember(lv);
}

int
tui_lv_move(struct tui_listview *lv, long delta)
{
	size_t	old = lv->sel;
	long	to;

	if (lv->nidx == 0)
		return 0;
	to = (long)lv->sel + delta;
	if (to < 0)
		to = 0;
	if (to >= (long)lv->nidx)
		to = (long)lv->nidx - 1;
	tui_lv_select(lv, (size_t)to);
	return lv->sel != old ? TUI_REDRAW : 0;
}

const struct dra_row *
tui_lv_selected(const struct tui_listview *lv)
{
	if (lv->table == NULL || lv->nidx == 0)
		return NULL;
	return &lv->table->rows[lv->idx[lv->sel]];
}

/*
 * One water-filling pass over the columns (pass 0: all but the name
 * columns; pass 1: all).  Returns the new total width.
 */
static int
shrink_columns(const struct tui_listview *lv, int *out, int total, int width,
    int pass)
{
	const struct dra_table	*t = lv->table;
	size_t			 c, n = t->ncolumns;
	int			 head, shrink;

	while (total > width) {
		int	w1 = 0, w2 = 0, k = 0, step, over = total - width;

		for (c = 0; c < n; c++) {
			head = tui_strwidth(t->columns[c].name);
			if (out[c] <= head || (pass == 0 && name_column(t, c)))
				continue;
			if (out[c] > w1) {
				w2 = w1;
				w1 = out[c];
			} else if (out[c] < w1 && out[c] > w2)
				w2 = out[c];
		}
		if (w1 == 0)
			break;
		for (c = 0; c < n; c++) {
			if (out[c] == w1 && !(pass == 0 && name_column(t, c)) &&
			    out[c] > tui_strwidth(t->columns[c].name))
				k++;
		}
		step = (over + k - 1) / k;
		if (step > w1 - w2)
			step = w1 - w2;
		if (step < 1)
			step = 1;
		for (c = 0; c < n && total > width; c++) {
			head = tui_strwidth(t->columns[c].name);
			if (out[c] != w1 || out[c] <= head ||
			    (pass == 0 && name_column(t, c)))
				continue;
			shrink = step;
			if (out[c] - shrink < head)
				shrink = out[c] - head;
			if (shrink > total - width)
				shrink = total - width;
			out[c] -= shrink;
			total -= shrink;
		}
	}
	return total;
}

/* The columns that name the object (shrunk last). */
static int
name_column(const struct dra_table *t, size_t c)
{
	const char	*n = t->columns[c].name;

	return strcmp(n, "NAME") == 0 || strcmp(n, "NAMESPACE") == 0 ||
	    (t->kind == DRA_KIND_DEVICE && strcmp(n, "DEVICE") == 0) ||
	    (t->kind == DRA_KIND_POOL && strcmp(n, "POOL") == 0);
}

/*
 * Which columns go first when the screen is narrow: 0 first, then 1;
 * the names (2) only when nothing else is left.
 */
static int
col_priority(const struct dra_table *t, size_t c)
{
	static const char *const keep[] = { "STATE", "CLAIM", "USE%", "USED",
	    "HARD", "AGE", "RESOURCE", "COMPLETE", "AVAILABLE", NULL };
	size_t	i;

	if (name_column(t, c))
		return 2;
	for (i = 0; keep[i] != NULL; i++) {
		if (strcmp(t->columns[c].name, keep[i]) == 0)
			return 1;
	}
	return 0;
}

void
tui_lv_layout(const struct tui_listview *lv, int width, int *out)
{
	const struct dra_table	*t = lv->table;
	size_t			 c, n, drop;
	int			 total, need, shown, pass, minw, head;

	if (t == NULL)
		return;
	n = t->ncolumns;
	for (c = 0; c < n; c++)
		out[c] = lv->natw[c];
	/*
	 * A column cut below COL_MIN columns (or its header) says
	 * nothing: leave whole columns out instead, the least important
	 * and widest first, until the rest fit at that width.
	 */
	for (;;) {
		need = 0;
		shown = 0;
		for (c = 0; c < n; c++) {
			if (out[c] == 0)
				continue;
			head = tui_strwidth(t->columns[c].name);
			minw = head > COL_MIN ? head : COL_MIN;
			/* Names are kept whole as long as anything else
			   can go. */
			if (name_column(t, c))
				minw = lv->natw[c];
			need += lv->natw[c] < minw ? lv->natw[c] : minw;
			shown++;
		}
		need += shown > 0 ? (shown - 1) * COL_GAP : 0;
		if (need <= width || shown <= 1)
			break;
		drop = n;
		for (c = 0; c < n; c++) {
			if (out[c] == 0)
				continue;
			if (drop == n || col_priority(t, c) <
			    col_priority(t, drop) || (col_priority(t, c) ==
			    col_priority(t, drop) && lv->natw[c] >=
			    lv->natw[drop]))
				drop = c;
		}
		out[drop] = 0;
	}
	total = 0;
	shown = 0;
	for (c = 0; c < n; c++) {
		if (out[c] == 0)
			continue;
		total += out[c] + (shown > 0 ? COL_GAP : 0);
		shown++;
	}
	/*
	 * Water-filling: the widest columns shrink together to the width
	 * of the next widest, until everything fits; no column below its
	 * header.  Names shrink last (k9s keeps them whole).
	 */
	for (pass = 0; pass < 2 && total > width; pass++)
		total = shrink_columns(lv, out, total, width, pass);
	/* Still too wide (a very narrow screen): drop from the right. */
	for (c = n; total > width && c-- > 1;) {
		if (out[c] == 0)
			continue;
		total -= out[c] + COL_GAP;
		out[c] = 0;
	}
}

void
tui_lv_scroll(struct tui_listview *lv, int h)
{
	size_t	rows = h > 1 ? (size_t)(h - 1) : 1;

	lv->height = (int)rows;
	if (lv->sel < lv->top)
		lv->top = lv->sel;
	if (lv->sel >= lv->top + rows)
		lv->top = lv->sel - rows + 1;
	if (lv->nidx <= rows)
		lv->top = 0;
	else if (lv->top + rows > lv->nidx)
		lv->top = lv->nidx - rows;
}

void
tui_lv_draw(struct tui_listview *lv, WINDOW *w, int y, int x, int h,
    int width, tui_row_colour_fn colour)
{
	const struct dra_table	*t = lv->table;
	const struct tui_glyphs	*g = tui_glyphs();
	int			 widths[DRA_TABLE_MAXCOLS], cx, first;
	char			 head[64];
	size_t			 c, i, r;
	attr_t			 a;

	if (h <= 0 || width <= 0)
		return;
	if (t == NULL || t->ncolumns == 0) {
		wmove(w, y, x);
		tui_addfit(w, "(no data)", width, 1, 0);
		return;
	}
	tui_lv_layout(lv, width, widths);

	/* Header. */
	wmove(w, y, x);
	wattrset(w, tui_attr(TUI_C_COLHEAD));
	cx = 0;
	first = 1;
	for (c = 0; c < t->ncolumns; c++) {
		if (widths[c] == 0)
			continue;
		if (!first) {
			tui_addfit(w, "", COL_GAP, 1, 0);
			cx += COL_GAP;
		}
		first = 0;
		if ((int)c == lv->sort_col) {
			snprintf(head, sizeof head, "%s%s",
			    t->columns[c].name, lv->sort_desc ? g->down :
			    g->up);
			wattrset(w, tui_attr(TUI_C_SORTHEAD));
			cx += tui_addfit(w, head, widths[c], 1, 0);
			wattrset(w, tui_attr(TUI_C_COLHEAD));
		} else
			cx += tui_addfit(w, t->columns[c].name, widths[c], 1,
			    (t->columns[c].flags & DRA_COL_RIGHT) != 0);
	}
	if (cx < width)
		tui_addfit(w, "", width - cx, 1, 0);

	/* Rows. */
	for (i = 0; (int)i < h - 1; i++) {
		r = lv->top + i;
		wmove(w, y + 1 + (int)i, x);
		if (r >= lv->nidx) {
			wattrset(w, tui_attr(TUI_C_NORMAL));
			tui_addfit(w, "", width, 1, 0);
			continue;
		}
		if (r == lv->sel)
			a = tui_attr(TUI_C_SELECTED);
		else if (colour != NULL)
			a = tui_attr(colour(t, &t->rows[lv->idx[r]]));
		else
			a = tui_attr(TUI_C_NORMAL);
		wattrset(w, a);
		cx = 0;
		first = 1;
		for (c = 0; c < t->ncolumns; c++) {
			if (widths[c] == 0)
				continue;
			if (!first) {
				tui_addfit(w, "", COL_GAP, 1, 0);
				cx += COL_GAP;
			}
			first = 0;
			cx += tui_addfit(w, t->rows[lv->idx[r]].cells[c],
			    widths[c], 1,
			    (t->columns[c].flags & DRA_COL_RIGHT) != 0);
		}
		if (cx < width)
			tui_addfit(w, "", width - cx, 1, 0);
	}
	wattrset(w, tui_attr(TUI_C_NORMAL));
}
