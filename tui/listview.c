/*
 * listview.c: the one list widget (htop Panel, tmux mode-tree.c).
 *
 * A struct dra_table from views/ is shown through an index array: the
 * rows the filter keeps, in the sort order.  Everything that costs
 * time with 10,000 rows is done when the data, the filter or the sort
 * changes, never per frame, and as little as a key needs:
 *
 *  - the natural column widths once per table;
 *  - the joined, lower-cased row texts once per table on the first
 *    plain filter (a regex joins a row as it tests it);
 *  - order, every row in the sort order, once per table and sort
 *    column: the column's cells turned into keys once (tui_natkey, AGE
 *    in seconds) and sorted with memcmp; the other direction reverses
 *    order (ties keep the table's order both ways);
 *  - match, whether each row passes the filter: a plain word is a
 *    substring search; a word that grew tests only the rows shown;
 *  - idx, order's rows that match, on any change (linear).
 *
 * Drawing touches only the rows on screen.
 *
 * The selection is kept by key (tui_row_key): after new data the
 * selected object is found again and kept on the same screen line, so
 * a watch event does not move rows under the cursor.  While the table
 * stays, a filter or a sort finds it by row index instead.
 */
#include "tui-int.h"

#include <endian.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xmalloc.h"

#define COL_GAP	2
#define COL_MIN	10	/* narrower is no use: the column goes */
#define NAME_MAX	48	/* a name column at most (and 40%) */

/*
 * A row being sorted: its key's first 8 bytes as a big-endian number
 * (zero-padded; for AGE the seconds + 1), the rest of the key, the
 * key's length and the row.  Comparing pre decides most pairs with one
 * instruction.
 */
struct sort_ent {
	uint64_t		 pre;
	const unsigned char	*rest;
	uint32_t		 len;
	uint32_t		 row;
};

#define SORT_SMALL	12	/* insertion sort below this */

static void	lv_clear_rows(struct tui_listview *);
static void	lv_place(struct tui_listview *, int, size_t, size_t, size_t);
static void	lv_collect(struct tui_listview *);
static void	lv_texts(struct tui_listview *);
static const char *lv_orig(void *, size_t);
static char	*lv_join(const struct tui_listview *, size_t, char **,
		    size_t *);
static int	lv_test(const struct tui_listview *, size_t, char **,
		    size_t *);
static void	lv_match_all(struct tui_listview *);
static void	lv_match_shown(struct tui_listview *);
static void	lv_order(struct tui_listview *);
static void	lv_flip(struct tui_listview *);
static void	lv_remember(struct tui_listview *);
static int	ent_cmp(const struct sort_ent *, const struct sort_ent *);
static void	ent_sort(struct sort_ent *, struct sort_ent *, size_t);
static int	shrink_columns(const struct tui_listview *, int *, int, int,
		    int);
static int	name_column(const struct dra_table *, size_t);
static int	col_priority(const struct dra_table *, size_t);
static int	want_width(const struct tui_listview *, size_t, int);
static size_t	pinned_columns(const struct dra_table *);
static int	layout_scrolled(const struct tui_listview *, int,
		    const int *, int *);

void
tui_lv_init(struct tui_listview *lv)
{
	memset(lv, 0, sizeof *lv);
	tui_match_init(&lv->m);
	lv->sort_col = -1;
	lv->order_col = -2;
	lv->height = 1;
}

static void
lv_clear_rows(struct tui_listview *lv)
{
	tui_texts_free(&lv->texts);
	free(lv->match);
	lv->match = NULL;
	free(lv->order);
	lv->order = NULL;
	free(lv->rank);
	lv->rank = NULL;
	lv->order_col = -2;
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
	tui_match_free(&lv->m);
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
	m = dra_row_meta(t, row);
	/* A quota has a row per key. */
	for (c = 0; t->kind == DRA_KIND_QUOTA && c < t->ncolumns; c++) {
		if (strcmp(t->columns[c].name, "RESOURCE") == 0)
			key = row->cells[c];
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

/* The joined text of row i (cells each followed by a blank). */
static char *
lv_join(const struct tui_listview *lv, size_t i, char **buf, size_t *cap)
{
	const struct dra_row	*r = &lv->table->rows[i];
	size_t			 c, n = 1, o = 0;

	for (c = 0; c < lv->table->ncolumns; c++)
		n += strlen(r->cells[c]) + 1;
	if (n > *cap) {
		*buf = xreallocarray(*buf, n, 1);
		*cap = n;
	}
	for (c = 0; c < lv->table->ncolumns; c++) {
		n = strlen(r->cells[c]);
		memcpy(*buf + o, r->cells[c], n);
		o += n;
		(*buf)[o++] = ' ';
	}
	(*buf)[o] = '\0';
	return *buf;
}

/* The lower-cased texts of every row, once per table. */
static void
lv_texts(struct tui_listview *lv)
{
	const struct dra_table	*t = lv->table;
	size_t			 i, c;

	if (lv->texts.text != NULL || t == NULL)
		return;
	tui_texts_init(&lv->texts, t->nrows, 64);
	for (i = 0; i < t->nrows; i++) {
		for (c = 0; c < t->ncolumns; c++) {
			tui_texts_add(&lv->texts, t->rows[i].cells[c],
			    strlen(t->rows[i].cells[c]));
			tui_texts_add(&lv->texts, " ", 1);
		}
		tui_texts_end(&lv->texts);
	}
}

/* A row's own text for tui_texts_match: its cells joined. */
struct lv_join_arg {
	const struct tui_listview	*lv;
	char				**buf;
	size_t				 *cap;
};

static const char *
lv_orig(void *arg, size_t i)
{
	struct lv_join_arg	*a = arg;

	return lv_join(a->lv, i, a->buf, a->cap);
}

/* Whether row i passes the filter (buf: scratch for its joined text). */
static int
lv_test(const struct tui_listview *lv, size_t i, char **buf, size_t *cap)
{
	struct lv_join_arg	a = { lv, buf, cap };

	return tui_texts_match(&lv->texts, &lv->m, i, lv_orig, &a);
}

/* Test every row. */
static void
lv_match_all(struct tui_listview *lv)
{
	const struct dra_table	*t = lv->table;
	char			*buf = NULL;
	size_t			 i, cap = 0;

	if (lv->m.kind == TUI_MATCH_ALL || t == NULL) {
		free(lv->match);
		lv->match = NULL;
		return;
	}
	if (tui_match_plain(&lv->m, 0))
		lv_texts(lv);
	if (lv->match == NULL)
		lv->match = xcalloc(t->nrows > 0 ? t->nrows : 1,
		    sizeof *lv->match);
	for (i = 0; i < t->nrows; i++)
		lv->match[i] = (unsigned char)lv_test(lv, i, &buf, &cap);
	free(buf);
}

/*
 * The filter narrowed (tui_match_narrows): test only the rows shown,
 * and drop from idx, which stays in order, those that fail.
 */
static void
lv_match_shown(struct tui_listview *lv)
{
	char	*buf = NULL;
	size_t	 i, n = 0, cap = 0;

	if (tui_match_plain(&lv->m, 0))
		lv_texts(lv);
	for (i = 0; i < lv->nidx; i++) {
		if (lv_test(lv, lv->idx[i], &buf, &cap))
			lv->idx[n++] = lv->idx[i];
		else
			lv->match[lv->idx[i]] = 0;
	}
	lv->nidx = n;
	free(buf);
}

/* idx: the rows of order that pass the filter. */
static void
lv_collect(struct tui_listview *lv)
{
	const struct dra_table	*t = lv->table;
	size_t			 i;

	lv->nidx = 0;
	if (t == NULL || t->nrows == 0)
		return;
	lv_order(lv);
	if (lv->idx == NULL)
		lv->idx = xcalloc(t->nrows, sizeof *lv->idx);
	if (lv->match == NULL) {
		memcpy(lv->idx, lv->order, t->nrows * sizeof *lv->idx);
		lv->nidx = t->nrows;
		return;
	}
	for (i = 0; i < t->nrows; i++) {
		if (lv->match[lv->order[i]])
			lv->idx[lv->nidx++] = lv->order[i];
	}
}

/* Key order: pre, the rest, then the shorter first (memcmp order). */
static int
ent_cmp(const struct sort_ent *a, const struct sort_ent *b)
{
	uint32_t	n;
	int		c;

	if (a->pre != b->pre)
		return a->pre < b->pre ? -1 : 1;
	n = a->len < b->len ? a->len : b->len;
	if (n > 8) {
		c = memcmp(a->rest, b->rest, n - 8);
		if (c != 0)
			return c;
	}
	return a->len < b->len ? -1 : a->len > b->len;
}

/*
 * A stable merge sort of e (n entries; tmp as many): equal keys keep
 * their order, the table's.  A merge whose halves are already in order
 * is skipped, so a column the table is sorted by, or one value
 * throughout (a DRIVER column), costs one comparison per row.
 */
static void
ent_sort(struct sort_ent *e, struct sort_ent *tmp, size_t n)
{
	struct sort_ent	x;
	size_t		i, j, k, mid;

	if (n < SORT_SMALL) {
		for (i = 1; i < n; i++) {
			x = e[i];
			for (j = i; j > 0 && ent_cmp(&e[j - 1], &x) > 0; j--)
				e[j] = e[j - 1];
			e[j] = x;
		}
		return;
	}
	mid = n / 2;
	ent_sort(e, tmp, mid);
	ent_sort(e + mid, tmp + mid, n - mid);
	if (ent_cmp(&e[mid - 1], &e[mid]) <= 0)
		return;
	memcpy(tmp, e, n * sizeof *e);
	for (i = 0, j = mid, k = 0; i < mid && j < n; k++) {
		if (ent_cmp(&tmp[j], &tmp[i]) < 0)
			e[k] = tmp[j++];
		else
			e[k] = tmp[i++];
	}
	while (i < mid)
		e[k++] = tmp[i++];
	while (j < n)
		e[k++] = tmp[j++];
}

/*
 * The other direction of the same column: reversed, each run of equal
 * keys reversed back so ties keep the table's order (as the
 * comparison's tie-break on the row index does in both directions).
 */
static void
lv_flip(struct tui_listview *lv)
{
	size_t	n = lv->table->nrows, i, j, k, tmp;

	for (i = 0, j = n; i + 1 < j; i++, j--) {
		tmp = lv->order[i];
		lv->order[i] = lv->order[j - 1];
		lv->order[j - 1] = tmp;
	}
	for (i = 0; i < n; i = k) {
		for (k = i + 1; k < n && lv->rank[lv->order[k]] ==
		    lv->rank[lv->order[i]]; k++)
			;
		for (j = k; i + 1 < j; i++, j--) {
			tmp = lv->order[i];
			lv->order[i] = lv->order[j - 1];
			lv->order[j - 1] = tmp;
		}
	}
	lv->order_desc = !lv->order_desc;
}

/*
 * order for sort_col and sort_desc: the table's order for no column;
 * natural order of the cells, AGE columns by duration, ties in the
 * table's order.
 */
static void
lv_order(struct tui_listview *lv)
{
	const struct dra_table	*t = lv->table;
	struct sort_ent		*e, *tmp;
	unsigned char		*keys = NULL, *k;
	const char		*cell;
	size_t			*off = NULL;
	size_t			 n = t->nrows, i, j, o, cap, klen, lcp;
	int			 col = lv->sort_col;

	if (col >= (int)t->ncolumns)
		col = -1;
	if (lv->order == NULL)
		lv->order = xcalloc(n, sizeof *lv->order);
	if (col < 0) {
		if (lv->order_col != -1) {
			for (i = 0; i < n; i++)
				lv->order[i] = i;
			lv->order_col = -1;
		}
		return;
	}
	if (lv->order_col == col) {
		if (lv->order_desc != (lv->sort_desc != 0))
			lv_flip(lv);
		return;
	}
	e = xcalloc(n, sizeof *e);
	tmp = xcalloc(n, sizeof *tmp);
	off = xcalloc(n, sizeof *off);
	if (strcmp(t->columns[col].name, "AGE") == 0) {
		/* -1 ("<unknown>") first. */
		for (i = 0; i < n; i++) {
			e[i].pre = (uint64_t)(tui_age_seconds(
			    t->rows[i].cells[col]) + 1);
			e[i].row = (uint32_t)i;
		}
	} else {
		/* The keys, one buffer (twice the cells is always enough). */
		cap = 64;
		keys = xmalloc(cap);
		o = 0;
		for (i = 0; i < n; i++) {
			cell = t->rows[i].cells[col];
			klen = 2 * strlen(cell) + 8;
			if (o + klen > cap) {
				while (o + klen > cap)
					cap *= 2;
				keys = xreallocarray(keys, cap, 1);
			}
			klen = tui_natkey(cell, keys + o, cap - o);
			if (klen > UINT32_MAX)
				klen = UINT32_MAX;
			e[i].len = (uint32_t)klen;
			e[i].row = (uint32_t)i;
			off[i] = o;
			o += klen;
		}
		/* Every key starts with the same lcp bytes: skip them. */
		lcp = n > 0 ? e[0].len : 0;
		for (i = 1; i < n && lcp > 0; i++) {
			for (j = 0; j < lcp && j < e[i].len && keys[off[i] +
			    j] == keys[j]; j++)
				;
			lcp = j;
		}
		for (i = 0; i < n; i++) {
			k = keys + off[i] + lcp;
			e[i].len -= (uint32_t)lcp;
			if (e[i].len >= 8) {
				memcpy(&e[i].pre, k, 8);
				e[i].pre = be64toh(e[i].pre);
			} else {
				for (j = 0; j < 8; j++)
					e[i].pre = e[i].pre << 8 |
					    (j < e[i].len ? k[j] : 0);
			}
			e[i].rest = k + 8;
		}
	}
	ent_sort(e, tmp, n);
	if (lv->rank == NULL)
		lv->rank = xcalloc(n, sizeof *lv->rank);
	for (i = 0; i < n; i++) {
		lv->order[i] = e[i].row;
		if (i == 0)
			lv->rank[e[i].row] = 0;
		else if (ent_cmp(&e[i - 1], &e[i]) == 0)
			lv->rank[e[i].row] = lv->rank[e[i - 1].row];
		else
			lv->rank[e[i].row] = lv->rank[e[i - 1].row] + 1;
	}
	free(off);
	free(tmp);
	free(keys);
	free(e);
	lv->order_col = col;
	lv->order_desc = 0;
	if (lv->sort_desc)
		lv_flip(lv);
}

/*
 * Put the selection back after idx changed: on row selrow when have is
 * set (the same table), else on the row whose key is selkey; else at
 * its old index, clamped.  oldsel and oldtop are sel and top before
 * the change: the selection keeps its screen line.
 */
static void
lv_place(struct tui_listview *lv, int have, size_t selrow, size_t oldsel,
    size_t oldtop)
{
	const struct dra_table	*t = lv->table;
	char			 key[512];
	size_t			 i;
	int			 found = 0;

	if (t == NULL || t->nrows == 0) {
		lv->nidx = 0;
		lv->sel = lv->top = 0;
		return;
	}
	if (have) {
		for (i = 0; i < lv->nidx; i++) {
			if (lv->idx[i] == selrow) {
				lv->sel = i;
				found = 1;
				break;
			}
		}
	} else if (lv->selkey[0] != '\0') {
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
	lv_match_all(lv);
	lv_collect(lv);
	lv_place(lv, 0, 0, lv->sel, lv->top);
}

int
tui_lv_set_filter(struct tui_listview *lv, const char *text)
{
	const struct dra_table	*t = lv->table;
	size_t			 oldsel = lv->sel, oldtop = lv->top, selrow;
	int			 ret, have, narrow, same;
	char			 copy[sizeof lv->filter];

	have = lv->nidx > 0 && lv->sel < lv->nidx;
	selrow = have ? lv->idx[lv->sel] : 0;
	snprintf(copy, sizeof copy, "%s", text);
	same = strcmp(lv->m.text, copy) == 0;
	narrow = lv->match != NULL && tui_match_narrows(&lv->m, copy);
	memcpy(lv->filter, copy, sizeof lv->filter);
	ret = tui_match_set(&lv->m, lv->filter);
	if (t == NULL || t->nrows == 0) {
		lv_place(lv, 0, 0, oldsel, oldtop);
		return ret;
	}
	if (same && lv->idx != NULL)
		return ret;	/* the same rows */
	if (narrow && lv->m.kind != TUI_MATCH_ALL)
		lv_match_shown(lv);
	else {
		lv_match_all(lv);
		lv_collect(lv);
	}
	lv_place(lv, have, selrow, oldsel, oldtop);
	return ret;
}

void
tui_lv_sort(struct tui_listview *lv, int col, int desc)
{
	size_t	oldsel = lv->sel, oldtop = lv->top, selrow;
	int	have = lv->nidx > 0 && lv->sel < lv->nidx;

	selrow = have ? lv->idx[lv->sel] : 0;
	lv->sort_col = col;
	lv->sort_desc = desc;
	lv_collect(lv);
	lv_place(lv, have, selrow, oldsel, oldtop);
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
 * Which columns go first when the screen is narrow: 0 first (the -o
 * wide extras), then 1, 2; the names (3) only when nothing else is
 * left.
 */
static int
col_priority(const struct dra_table *t, size_t c)
{
	static const char *const keep[] = { "STATE", "CLAIM", "USE%", "USED",
	    "HARD", "AGE", "RESOURCE", "COMPLETE", "AVAILABLE", NULL };
	size_t	i;

	if (name_column(t, c))
		return 3;
	for (i = 0; keep[i] != NULL; i++) {
		if (strcmp(t->columns[c].name, keep[i]) == 0)
			return 2;
	}
	/* The -o wide extras go before the columns get shows. */
	return (t->columns[c].flags & DRA_COL_WIDE) != 0 ? 0 : 1;
}

/* The width column c wants in a list width columns wide (see
   tui_lv_layout). */
static int
want_width(const struct tui_listview *lv, size_t c, int width)
{
	const struct dra_table	*t = lv->table;
	int			 w = lv->natw[c], head, cap;

	head = tui_strwidth(t->columns[c].name);
	if (name_column(t, c)) {
		cap = width * 2 / 5;
		if (cap > NAME_MAX)
			cap = NAME_MAX;
		if (cap < head)
			cap = head;
		if (w > cap)
			w = cap;
	}
	if ((int)c == lv->sort_col && w < head + 1)
		w = head + 1;	/* the arrow */
	return w;
}

/* The columns that stay when the list scrolls sideways. */
static size_t
pinned_columns(const struct dra_table *t)
{
	if (t->ncolumns > 1 && strcmp(t->columns[0].name, "NAMESPACE") == 0)
		return 2;
	return t->ncolumns > 0 ? 1 : 0;
}

/* The scrolled layout (lv->left > 0); returns the width used. */
static int
layout_scrolled(const struct tui_listview *lv, int width, const int *nat,
    int *out)
{
	const struct dra_table	*t = lv->table;
	size_t			 c, n = t->ncolumns, pin = pinned_columns(t);
	int			 total = 0, shown = 0, gap, room, head, minw;

	for (c = 0; c < n; c++)
		out[c] = 0;
	for (c = 0; c < pin; c++) {
		out[c] = nat[c];
		total += nat[c] + (shown++ > 0 ? COL_GAP : 0);
	}
	for (c = pin + (size_t)lv->left - 1; c < n; c++) {
		gap = shown > 0 ? COL_GAP : 0;
		room = width - total - gap;
		if (nat[c] <= room) {
			out[c] = nat[c];
			total += nat[c] + gap;
			shown++;
			continue;
		}
		head = tui_strwidth(t->columns[c].name);
		minw = head > COL_MIN ? head : COL_MIN;
		if (minw > nat[c])
			minw = nat[c];
		if (room >= minw) {
			out[c] = room;
			total = width;
		}
		break;
	}
	return total;
}

int
tui_lv_layout(const struct tui_listview *lv, int width, int *out)
{
	const struct dra_table	*t = lv->table;
	size_t			 c, n, drop;
	int			 total, need, shown, pass, minw, head, hidden;
	int			 nat[DRA_TABLE_MAXCOLS];

	if (t == NULL)
		return 0;
	n = t->ncolumns;
	for (c = 0; c < n; c++)
		out[c] = nat[c] = want_width(lv, c, width);
	if (lv->left > 0) {
		total = layout_scrolled(lv, width, nat, out);
		goto fit;
	}
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
				minw = nat[c];
			need += nat[c] < minw ? nat[c] : minw;
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
			    col_priority(t, drop) && nat[c] >= nat[drop]))
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
fit:
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
	hidden = 0;
	for (c = 0; c < n; c++) {
		if (out[c] == 0)
			hidden++;
	}
	return hidden;
}

int
tui_lv_side(struct tui_listview *lv, int delta, int width)
{
	const struct dra_table	*t = lv->table;
	int			 out[DRA_TABLE_MAXCOLS], old = lv->left;
	size_t			 n;

	if (t == NULL || t->ncolumns == 0 || width <= 0)
		return 0;
	n = t->ncolumns;
	if (delta < 0) {
		if (lv->left > 0)
			lv->left--;
	} else if (delta > 0) {
		/* Further only while a column is hidden on the right. */
		if (tui_lv_layout(lv, width, out) > 0 && (lv->left == 0 ||
		    out[n - 1] == 0) && (size_t)lv->left < n -
		    pinned_columns(t))
			lv->left++;
	}
	return lv->left != old ? TUI_REDRAW : 0;
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
	int			 widths[DRA_TABLE_MAXCOLS], cx, first, aw, used;
	const char		*arrow;
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
			/* The arrow stays; the name is cut before it. */
			arrow = lv->sort_desc ? g->down : g->up;
			aw = tui_strwidth(arrow);
			wattrset(w, tui_attr(TUI_C_SORTHEAD));
			if (widths[c] > aw) {
				cx += tui_addfit(w, t->columns[c].name,
				    widths[c] - aw < tui_strwidth(
				    t->columns[c].name) ? widths[c] - aw :
				    tui_strwidth(t->columns[c].name), 0, 0);
				cx += tui_addfit(w, arrow, aw, 0, 0);
				used = tui_strwidth(t->columns[c].name) + aw;
				if (used < widths[c])
					cx += tui_addfit(w, "", widths[c] -
					    used, 1, 0);
			} else
				cx += tui_addfit(w, arrow, widths[c], 1, 0);
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
