/*
 * test_tui.c: the UI's model without a terminal (tui/tui-int.h): text
 * widths and fitting; the list widget's filter, sort and layout; the
 * selection kept by object key when a snapshot with a new claim in
 * front replaces the old one; the hold-off of new data after a key;
 * ':' commands, namespaces and completion; the help generated from the
 * key tables and the tables free of clashes; GPU bars laid out as text
 * for hand-built GPUs; keys on the GPU map; and a draw into a screen
 * opened on /dev/null, read back line by line, at 80x24, 120x40 and
 * below the minimum.
 */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "gpus.h"
#include "snapshot.h"
#include "tui-int.h"

#define EXAMPLE	SOURCE_DIR "/examples/cluster.yaml"

static struct kube_snapshot *
load_example(const char *extra_claim)
{
	struct kube_snapshot	*s = kube_snapshot_new();
	struct dra_err		 err;
	cJSON			*obj;

	dra_err_clear(&err);
	if (kube_snapshot_load_file(s, EXAMPLE, &err) != KUBE_OK)
		fail_msg("%s", err.msg);
	if (extra_claim != NULL) {
		obj = cJSON_Parse(extra_claim);
		assert_non_null(obj);
		assert_int_equal(kube_snapshot_add(s, obj, NULL, NULL, &err),
		    KUBE_OK);
		cJSON_Delete(obj);
	}
	kube_snapshot_finish(s);
	/* One clock for every test: ages (and so column widths) must not
	   depend on when the test runs.  2026-11-30T00:15:00Z, 7h43m
	   after the example's claims were created. */
	s->now = 1795997700;
	return s;
}

/* A UI on the example, root view "view", 40x120. */
static struct tui *
new_ui(const char *view)
{
	struct tui_opts	 o;
	struct tui	*t;

	memset(&o, 0, sizeof o);
	o.view = view;
	t = tui_new(&o, NULL);
	tui_resize(t, 40, 120);
	tui_set_snapshot(t, load_example(NULL));
	tui_prepare(t);
	return t;
}

static const char *
top_title(struct tui *t)
{
	static char	buf[512];
	struct tui_view	*v = tui_top(t);

	return v->type->title(v, buf, sizeof buf);
}

static void
keys(struct tui *t, const char *s)
{
	for (; *s != '\0'; s++) {
		tui_key(t, (unsigned char)*s);
		tui_prepare(t);
	}
}

/* ---- text.c ------------------------------------------------------ */

static void
test_text(void **state)
{
	char	buf[64];

	(void)state;
	assert_int_equal(tui_strwidth("gpu-node-1"), 10);
	/* Two CJK characters, two columns each; a control char one. */
	assert_int_equal(tui_strwidth("\xe6\x97\xa5\xe6\x9c\xac"), 4);
	assert_int_equal(tui_strwidth("a\tb"), 3);
	/* ASCII glyphs until a UTF-8 screen is open. */
	assert_string_equal(tui_fit("abcdef", 4, buf, sizeof buf), "abc~");
	assert_string_equal(tui_fit("abcd", 4, buf, sizeof buf), "abcd");
	/* A wide character is never cut in half. */
	assert_string_equal(tui_fit("\xe6\x97\xa5\xe6\x9c\xac" "x", 4, buf,
	    sizeof buf), "\xe6\x97\xa5~");
	assert_true(dra_natcmp("gpu-2", "gpu-10") < 0);
	assert_true(dra_natcmp("gpu-10", "gpu-2") > 0);
	assert_true(dra_natcmp("gpu-02", "gpu-2") == 0);
	assert_true(dra_natcmp("a", "ab") < 0);
	assert_int_equal(tui_age_seconds("4m30s"), 270);
	assert_int_equal(tui_age_seconds("2d"), 172800);
	assert_int_equal(tui_age_seconds("3y"), 3 * 365 * 86400);
	assert_int_equal(tui_age_seconds("<unknown>"), -1);
	assert_int_equal(tui_age_seconds("7x"), -1);
	assert_ptr_equal(tui_strcasestr("Team-B/x", "team-b"), "Team-B/x");
	assert_null(tui_strcasestr("team-a", "team-b"));
}

/* ---- listview.c --------------------------------------------------- */

static const char *
row_name(const struct tui_listview *lv, size_t i)
{
	const struct kube_claim	*c = lv->table->rows[lv->idx[i]].obj;

	return c->meta.name;
}

static void
test_listview_filter_sort(void **state)
{
	struct kube_snapshot	*s = load_example(NULL);
	struct dra_table	*t = dra_view(DRA_KIND_CLAIM, s, NULL, 0);
	struct tui_listview	 lv;
	int			 w[DRA_TABLE_MAXCOLS], name, age;

	(void)state;
	tui_lv_init(&lv);
	tui_lv_set_table(&lv, t);
	assert_int_equal(lv.nidx, 13);
	assert_string_equal(row_name(&lv, 0), "ddp-trainer-0-gpus");

	assert_int_equal(tui_lv_set_filter(&lv, "team-b"), 0);
	assert_int_equal(lv.nidx, 5);
	assert_string_equal(row_name(&lv, 0), "jupyter-alice-gpu-ktg9x");
	/* Case does not matter; a regex. */
	tui_lv_set_filter(&lv, "TEAM-(A|C)");
	assert_int_equal(lv.nidx, 8);
	/* Inverse. */
	tui_lv_set_filter(&lv, "!allocated");
	assert_int_equal(lv.nidx, 2);
	assert_string_equal(row_name(&lv, 0), "llm-pretrain-0-gpus");
	assert_string_equal(row_name(&lv, 1), "whisper-asr-0-gpu");
	/* Not a regex: matched as text. */
	assert_int_equal(tui_lv_set_filter(&lv, "(x"), TUI_FILTER_LITERAL);
	assert_int_equal(lv.nidx, 0);
	assert_null(tui_lv_selected(&lv));
	tui_lv_set_filter(&lv, "");
	assert_int_equal(lv.nidx, 13);

	/* Sort by name, descending; then back to the table's order. */
	name = tui_lv_column(&lv, "NAME");
	assert_int_equal(name, 1);
	tui_lv_sort(&lv, name, 1);
	assert_string_equal(row_name(&lv, 0), "whisper-asr-0-gpu");
	assert_string_equal(row_name(&lv, 12), "ddp-trainer-0-gpus");
	tui_lv_sort(&lv, -1, 0);
	assert_string_equal(row_name(&lv, 0), "ddp-trainer-0-gpus");
	/* Sorting keeps the selected object selected. */
	tui_lv_select(&lv, 3);
	assert_string_equal(row_name(&lv, lv.sel), "llm-pretrain-0-gpus");
	tui_lv_sort(&lv, name, 1);
	assert_string_equal(row_name(&lv, lv.sel), "llm-pretrain-0-gpus");
	assert_int_equal(lv.sel, 7);
	age = tui_lv_column(&lv, "AGE");
	assert_int_equal(age, 7);
	assert_int_equal(tui_lv_column(&lv, "nosuch"), -1);

	/* Moving clamps. */
	assert_int_equal(tui_lv_move(&lv, -100), TUI_REDRAW);
	assert_int_equal(lv.sel, 0);
	assert_int_equal(tui_lv_move(&lv, -1), 0);
	tui_lv_move(&lv, 100);
	assert_int_equal(lv.sel, 12);

	/* Layout: everything fits at 250 columns; at 80 the names stay
	   whole and nothing is narrower than its header. */
	tui_lv_layout(&lv, 250, w);
	assert_int_equal(w[1], 26);	/* llama-finetune-0-gpu-dr8f4 */
	assert_int_equal(w[0], 9);	/* NAMESPACE */
	tui_lv_layout(&lv, 80, w);
	assert_int_equal(w[1], 26);
	assert_int_equal(w[0], 9);
	/* REQUESTS and DEVICES, the widest unimportant ones, go; the
	   rest are cut to 10. */
	assert_int_equal(w[2], 10);	/* STATE */
	assert_int_equal(w[3], 0);
	assert_int_equal(w[4], 0);
	assert_int_equal(w[5], 10);	/* NODE */
	assert_int_equal(w[6], 10);	/* PODS */
	assert_int_equal(w[7], 5);	/* AGE */
	{
		int	total = 0, shown = 0;
		size_t	c;

		for (c = 0; c < t->ncolumns; c++) {
			if (w[c] == 0)
				continue;
			total += w[c] + (shown++ > 0 ? 2 : 0);
		}
		assert_int_equal(total, 80);
	}
	/* A very narrow screen: the names still first, NAME cut to 40%
	   of the width (16), so AGE still fits; five hidden. */
	assert_int_equal(tui_lv_layout(&lv, 40, w), 5);
	assert_int_equal(w[0], 9);
	assert_int_equal(w[1], 16);
	assert_int_equal(w[7], 5);
	assert_int_equal(w[2] + w[3] + w[4] + w[5] + w[6], 0);
	/* Scrolled sideways: NAMESPACE and NAME stay, the others follow
	   from STATE, then from REQUESTS; no further once AGE shows. */
	assert_int_equal(tui_lv_side(&lv, 1, 80), TUI_REDRAW);
	assert_int_equal(lv.left, 1);
	assert_int_equal(tui_lv_layout(&lv, 80, w), 4);
	assert_int_equal(w[0], 9);
	assert_int_equal(w[1], 26);
	assert_int_equal(w[2], 18);	/* STATE, whole */
	assert_true(w[3] > 0);		/* REQUESTS */
	assert_int_equal(tui_lv_side(&lv, 1, 80), TUI_REDRAW);
	tui_lv_layout(&lv, 80, w);
	assert_int_equal(w[2], 0);
	assert_true(w[3] > 0);
	while (tui_lv_side(&lv, 1, 80) != 0)
		;
	tui_lv_layout(&lv, 80, w);
	assert_int_equal(w[7], 5);	/* AGE: the last column shows */
	assert_int_equal(w[0], 9);
	assert_int_equal(w[1], 26);
	/* Left goes back to the fitted layout and stops there. */
	while (tui_lv_side(&lv, -1, 80) != 0)
		;
	assert_int_equal(lv.left, 0);
	assert_int_equal(tui_lv_layout(&lv, 80, w), 2);
	assert_int_equal(w[3] + w[4], 0);

	tui_lv_free(&lv);
	dra_table_free(t);
	kube_snapshot_free(s);
}

/*
 * The filter and the sort against the code they replaced: a table of
 * 400 rows made up to hold what is hard (ties, leading zeros, numbers
 * of ten digits and more, upper case, characters outside ASCII that
 * glibc's REG_ICASE folds onto ASCII letters, regex characters), and
 * the old implementation as the oracle: regexec with REG_ICASE on the
 * row's cells joined by blanks (tui_strcasestr for an invalid regex),
 * then qsort with dra_natcmp (AGE by duration), ties in table order.
 */
static const char *const nat_words[] = {
	"", "a", "ab", "b", "A", "gpu-2", "gpu-10", "gpu-02", "gpu-0",
	"gpu-00", "gpu-", "gpu-1a", "gpu-1/", "gpu-1:", "x9", "x10", "x010",
	"1234567890", "01234567890", "1234567891", "999999999",
	"12345678901234567890123", "node-9-gpu-3", "node-09-gpu-3",
	"node-9-gpu-03x", "z", "\xc3\x89t\xc3\xa9", "~", "0", "00", "7",
	"a0", "a00b", "a0b", NULL
};

static void
test_natkey(void **state)
{
	unsigned char	ka[128], kb[128];
	size_t		i, j, la, lb;
	int		c, k;

	(void)state;
	for (i = 0; nat_words[i] != NULL; i++) {
		la = tui_natkey(nat_words[i], ka, sizeof ka);
		assert_true(la <= 2 * strlen(nat_words[i]) + 5);
		/* Too small a buffer: the length still comes back. */
		assert_int_equal(tui_natkey(nat_words[i], NULL, 0), la);
		for (j = 0; nat_words[j] != NULL; j++) {
			lb = tui_natkey(nat_words[j], kb, sizeof kb);
			k = memcmp(ka, kb, la < lb ? la : lb);
			if (k == 0)
				k = la < lb ? -1 : la > lb;
			c = dra_natcmp(nat_words[i], nat_words[j]);
			if ((c < 0) != (k < 0) || (c > 0) != (k > 0))
				fail_msg("\"%s\" vs \"%s\": natcmp %d, key %d",
				    nat_words[i], nat_words[j], c, k);
		}
	}
	/* "gpu-12": the length of the number, then its digits. */
	la = tui_natkey("gpu-012", ka, sizeof ka);
	assert_int_equal(la, 7);
	assert_memory_equal(ka, "gpu-112", 7);
}

static const char *const fuzz_cells[] = {
	"team-a", "Team-B", "team-b", "TEAM-C", "gpu-1", "gpu-12", "gpu-012",
	"gpu-2", "node-1", "node-12", "node-120", "x(y", "a.b", "aXb",
	"\xc5\xbftrange",		/* U+017F long s: REG_ICASE finds "s" */
	"\xc3\x89T\xc3\x89",		/* ÉTÉ */
	"\xe6\x97\xa5\xe6\x9c\xac",	/* 日本 */
	"pending", "allocated", "1234567890123", "99", "099", "", NULL
};

static const char *const fuzz_ages[] = {
	"5s", "4m30s", "3h", "2d", "10d", "1y", "<unknown>", "59s", "1m",
	"3h", NULL
};

static size_t
count(const char *const *v)
{
	size_t	n = 0;

	while (v[n] != NULL)
		n++;
	return n;
}

/* 400 rows: NAME, NAMESPACE, STATE, NUM, AGE from a fixed sequence. */
static struct dra_table *
fuzz_table(void)
{
	static const char *const cols[] = { "NAME", "NAMESPACE", "STATE",
	    "NUM", "AGE" };
	struct dra_table	*t = calloc(1, sizeof *t);
	size_t			 nc = count(fuzz_cells), na = count(fuzz_ages);
	size_t			 i, c;
	unsigned		 x = 12345;
	char			 name[64];

	assert_non_null(t);
	t->kind = DRA_KIND_COUNT;
	dra_arena_init(&t->arena);
	for (c = 0; c < 5; c++)
		t->columns[c].name = cols[c];
	t->ncolumns = 5;
	t->rows = calloc(400, sizeof *t->rows);
	assert_non_null(t->rows);
	t->caprows = 400;
	for (i = 0; i < 400; i++) {
		struct dra_row	*r = &t->rows[t->nrows++];

		r->cells = dra_arena_calloc(&t->arena, 5, sizeof *r->cells);
		for (c = 0; c < 5; c++) {
			x = x * 1103515245 + 12345;
			if (c == 0) {
				snprintf(name, sizeof name, "%s-%u",
				    fuzz_cells[(x >> 8) % nc], (x >> 4) % 40);
				r->cells[c] = dra_arena_strdup(&t->arena,
				    name);
			} else if (c == 4)
				r->cells[c] = fuzz_ages[(x >> 8) % na];
			else
				r->cells[c] = fuzz_cells[(x >> 8) % nc];
		}
	}
	return t;
}

/* The old implementation: the rows text keeps, in sort order. */
static const struct dra_table *ref_table;
static int ref_col, ref_desc;

static int
ref_cmp(const void *pa, const void *pb)
{
	size_t		 a = *(const size_t *)pa, b = *(const size_t *)pb;
	const char	*ca = ref_table->rows[a].cells[ref_col];
	const char	*cb = ref_table->rows[b].cells[ref_col];
	int64_t		 sa, sb;
	int		 c;

	if (strcmp(ref_table->columns[ref_col].name, "AGE") == 0) {
		sa = tui_age_seconds(ca);
		sb = tui_age_seconds(cb);
		c = sa < sb ? -1 : sa > sb;
	} else
		c = dra_natcmp(ca, cb);
	if (ref_desc)
		c = -c;
	if (c == 0)
		c = a < b ? -1 : a > b;
	return c;
}

static size_t
ref_rows(const struct dra_table *t, const char *text, int col, int desc,
    size_t *out)
{
	regex_t		 re;
	char		 line[1024];
	size_t		 i, c, n = 0;
	int		 inv = text[0] == '!', re_ok = 0, m;

	if (text[inv] != '\0')
		re_ok = regcomp(&re, text + inv, REG_EXTENDED | REG_ICASE |
		    REG_NOSUB) == 0;
	for (i = 0; i < t->nrows; i++) {
		if (text[inv] == '\0') {
			out[n++] = i;
			continue;
		}
		line[0] = '\0';
		for (c = 0; c < t->ncolumns; c++) {
			strncat(line, t->rows[i].cells[c],
			    sizeof line - strlen(line) - 1);
			strncat(line, " ", sizeof line - strlen(line) - 1);
		}
		m = re_ok ? regexec(&re, line, 0, NULL, 0) == 0 :
		    tui_strcasestr(line, text + inv) != NULL;
		if (inv ? !m : m)
			out[n++] = i;
	}
	if (re_ok)
		regfree(&re);
	if (col >= 0) {
		ref_table = t;
		ref_col = col;
		ref_desc = desc;
		qsort(out, n, sizeof *out, ref_cmp);
	}
	return n;
}

/* lv shows exactly what the old code showed, and so does a fresh one. */
static void
check_rows(const struct tui_listview *lv, const char *step)
{
	struct tui_listview	 fresh;
	size_t			 want[400], n, i;

	n = ref_rows(lv->table, lv->filter, lv->sort_col, lv->sort_desc,
	    want);
	if (lv->nidx != n)
		fail_msg("%s: %zu rows, the old code %zu", step, lv->nidx, n);
	for (i = 0; i < n; i++) {
		if (lv->idx[i] != want[i])
			fail_msg("%s: row %zu is %zu, the old code %zu", step,
			    i, lv->idx[i], want[i]);
	}
	tui_lv_init(&fresh);
	tui_lv_set_table(&fresh, lv->table);
	tui_lv_sort(&fresh, lv->sort_col, lv->sort_desc);
	tui_lv_set_filter(&fresh, lv->filter);
	assert_int_equal(fresh.nidx, n);
	assert_memory_equal(fresh.idx, want, n * sizeof *want);
	tui_lv_free(&fresh);
}

static void
test_listview_incremental(void **state)
{
	/* Typed a character at a time, erased, inverted, regexes. */
	static const char *const steps[] = {
		"t", "te", "tea", "team", "team-", "team-b", "team-", "TEAM-",
		"TEAM-B", "team-b-1", "team-b-12", "team-b-1", "team-b-1|node",
		"team-b-1|node-1", "team-b", "team-b?", "", "g", "gp",
		"gpu", "gpu-", "gpu-0", "gpu-01", "gpu-012", "Gpu-012", "!",
		"!x", "!x(", "!x(y", "!team", "!team-a", "x", "x(", "x(y",
		"x(y-", "(", "a.b", "a", "aX", "axb", "AXB", "s", "st", "str",
		"stran", "\xc3\xa9", "\xc3\xa9t", "\xc3\x89T\xc3\x89", "t\xc3",
		"t\xc3\x89", "\xe6\x97\xa5", "gpu.*1$", "^gpu-(1|2)",
		"[[:upper:]]", "[a-z]+-[0-9]{2}", "\\.", "node-1[0-9]",
		"node", "node-12", "NODE-120", "node-12", "node-1", "pend",
		"pending 1", "pending 12", "pending 1", "99", "099", "9",
		"", NULL
	};
	struct dra_table	*t = fuzz_table();
	struct tui_listview	 lv;
	const struct dra_row	*before;
	char			 what[300];
	size_t			 i, j, selrow;
	int			 sorts[][2] = { { -1, 0 }, { 3, 0 }, { 3, 1 },
	    { 4, 1 }, { 4, 0 }, { 0, 0 }, { 2, 1 }, { 1, 0 } };

	(void)state;
	tui_lv_init(&lv);
	tui_lv_set_table(&lv, t);
	check_rows(&lv, "no filter");
	for (j = 0; j < sizeof sorts / sizeof sorts[0]; j++) {
		tui_lv_sort(&lv, sorts[j][0], sorts[j][1]);
		snprintf(what, sizeof what, "sort %d %d", sorts[j][0],
		    sorts[j][1]);
		check_rows(&lv, what);
		for (i = 0; steps[i] != NULL; i++) {
			before = tui_lv_selected(&lv);
			selrow = before != NULL ? lv.idx[lv.sel] : 0;
			tui_lv_set_filter(&lv, steps[i]);
			snprintf(what, sizeof what, "sort %d %d, filter \"%s\"",
			    sorts[j][0], sorts[j][1], steps[i]);
			check_rows(&lv, what);
			/* A row still shown stays selected. */
			if (before != NULL) {
				size_t	k;

				for (k = 0; k < lv.nidx; k++) {
					if (lv.idx[k] == selrow)
						assert_int_equal(lv.sel, k);
				}
			}
			/* Now and then, move and sort on top of a filter. */
			if (i % 7 == 3)
				tui_lv_move(&lv, 5);
			if (i % 11 == 5) {
				tui_lv_sort(&lv, lv.sort_col < 0 ? 0 :
				    lv.sort_col, !lv.sort_desc);
				check_rows(&lv, "reversed under a filter");
				tui_lv_sort(&lv, sorts[j][0], sorts[j][1]);
				check_rows(&lv, "sorted back");
			}
		}
	}
	/* New data (the same table again): the filter applies at once. */
	tui_lv_set_filter(&lv, "team");
	tui_lv_sort(&lv, 4, 1);
	tui_lv_set_table(&lv, t);
	check_rows(&lv, "the table again");
	tui_lv_free(&lv);
	dra_table_free(t);
}

/* Sorting a real table: AGE, names and numbers, both ways. */
static void
test_listview_sort_order(void **state)
{
	struct kube_snapshot	*s = load_example(NULL);
	struct dra_table	*t = dra_view(DRA_KIND_DEVICE, s, NULL, 0);
	struct tui_listview	 lv;
	size_t			 c;
	int			 d;

	(void)state;
	tui_lv_init(&lv);
	tui_lv_set_table(&lv, t);
	for (c = 0; c < t->ncolumns; c++) {
		for (d = 0; d < 2; d++) {
			tui_lv_sort(&lv, (int)c, d);
			check_rows(&lv, t->columns[c].name);
		}
		/* The other way first: the flip of a fresh sort. */
		tui_lv_sort(&lv, (int)c, 1);
		tui_lv_sort(&lv, (int)c, 0);
		check_rows(&lv, t->columns[c].name);
	}
	tui_lv_free(&lv);
	dra_table_free(t);
	kube_snapshot_free(s);
}

/* ---- the model: selection, hold-off ------------------------------- */

static const char new_claim[] =
"{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"ResourceClaim\","
" \"metadata\": {\"name\": \"aaa-new\", \"namespace\": \"team-a\","
" \"uid\": \"u-new\", \"creationTimestamp\": \"2026-11-29T20:00:00Z\"},"
" \"spec\": {\"devices\": {\"requests\": [{\"name\": \"gpu\","
" \"exactly\": {\"deviceClassName\": \"gpu.nvidia.com\"}}]}}}";

static void
test_selection_kept(void **state)
{
	struct tui	*t = new_ui("claims");

	(void)state;
	assert_string_equal(top_title(t), "claims(all)[13]");
	/* jupyter-bob, the 6th row. */
	keys(t, "jjjjj");
	/* A claim sorted in front of it arrives. */
	tui_set_snapshot(t, load_example(new_claim));
	tui_prepare(t);
	assert_string_equal(top_title(t), "claims(all)[14]");
	keys(t, "\r");
	assert_string_equal(top_title(t),
	    "describe claim team-b/jupyter-bob-gpu-cr4j2");
	keys(t, "q");
	assert_string_equal(top_title(t), "claims(all)[14]");
	/* The detail view finds its object again in new data... */
	keys(t, "y");
	tui_set_snapshot(t, load_example(NULL));
	tui_prepare(t);
	assert_string_equal(top_title(t),
	    "yaml claim team-b/jupyter-bob-gpu-cr4j2");
	keys(t, "q");
	/* ...and says when it is gone. */
	keys(t, "gj");
	tui_set_snapshot(t, load_example(new_claim));
	tui_prepare(t);
	keys(t, "g\r");
	assert_string_equal(top_title(t), "describe claim team-a/aaa-new");
	tui_set_snapshot(t, load_example(NULL));
	tui_prepare(t);
	assert_string_equal(top_title(t),
	    "describe claim team-a/aaa-new (deleted)");
	tui_free(t);
}

static void
test_hold_off(void **state)
{
	struct tui	*t = new_ui("claims");

	(void)state;
	t->now_ms = 100000;
	keys(t, "j");
	t->now_ms += 10;
	tui_offer_snapshot(t, load_example(new_claim));
	/* Held: a key came just now. */
	assert_non_null(t->pending);
	assert_string_equal(top_title(t), "claims(all)[13]");
	assert_int_equal(tui_tick(t, t->now_ms + 100), 0);
	assert_non_null(t->pending);
	assert_int_equal(tui_tick(t, 100000 + TUI_HOLD_MS), TUI_REDRAW);
	assert_null(t->pending);
	tui_prepare(t);
	assert_string_equal(top_title(t), "claims(all)[14]");
	/* Without a recent key new data is shown at once. */
	t->now_ms += 10 * TUI_HOLD_MS;
	tui_offer_snapshot(t, load_example(NULL));
	assert_null(t->pending);
	tui_prepare(t);
	assert_string_equal(top_title(t), "claims(all)[13]");
	tui_free(t);
}

/* ---- commands ----------------------------------------------------- */

static void
test_commands(void **state)
{
	struct tui	*t = new_ui(NULL);
	char		 line[256];

	(void)state;
	assert_ptr_equal(tui_top(t)->type, &tui_view_gpus);
	assert_int_equal(tui_command(t, "claims"), TUI_REDRAW);
	tui_prepare(t);
	assert_ptr_equal(tui_top(t)->type, &tui_view_claims);
	/* Aliases and kubectl's spellings. */
	tui_command(t, "dev");
	assert_ptr_equal(tui_top(t)->type, &tui_view_devices);
	tui_command(t, "resourceslices");
	assert_ptr_equal(tui_top(t)->type, &tui_view_slices);
	tui_command(t, "  pools  ");
	assert_ptr_equal(tui_top(t)->type, &tui_view_pools);
	/* ":-" goes back to the previous root. */
	tui_command(t, "-");
	assert_ptr_equal(tui_top(t)->type, &tui_view_slices);
	/* A namespace. */
	tui_command(t, "claims team-a");
	tui_prepare(t);
	assert_string_equal(t->ns, "team-a");
	assert_string_equal(top_title(t), "claims(team-a)[4]");
	assert_int_equal(t->nclaims, 4);
	assert_int_equal(t->npending, 1);
	tui_command(t, "ns");
	tui_prepare(t);
	assert_string_equal(t->ns, "");
	assert_string_equal(top_title(t), "claims(all)[13]");
	tui_command(t, "ns team-b");
	tui_command(t, "ns -");
	assert_string_equal(t->ns, "");
	/* ":claims /re" filters. */
	tui_command(t, "claims /pending");
	tui_prepare(t);
	assert_string_equal(top_title(t), "claims(all)[2/13]");
	/* Mistakes. */
	tui_command(t, "claimz");
	assert_string_equal(t->status, "unknown command \":claimz\"; did "
	    "you mean \":claims\"?");
	assert_int_equal(t->status_err, 1);
	tui_command(t, "xyzzy");
	assert_string_equal(t->status, "unknown command \":xyzzy\" (? lists "
	    "them)");
	tui_command(t, "ctx");
	assert_string_equal(t->status, "contexts: not available when reading "
	    "a file (--from)");
	tui_command(t, "why claim/nosuch");
	assert_string_equal(t->status, "why: claim \"nosuch\" not found; name "
	    "it as claim/NAMESPACE/NAME or set :ns");
	tui_command(t, "why claim/team-a/llm-pretrain-0-gpus");
	assert_string_equal(top_title(t),
	    "why claim team-a/llm-pretrain-0-gpus");
	tui_command(t, "plan");
	assert_string_equal(t->status, "no plan: start with --plan FILE (a "
	    "document of kubectl dra plan -o yaml)");
	/* Completion. */
	snprintf(line, sizeof line, "dev");
	assert_int_equal(tui_complete(t, line, sizeof line), 1);
	assert_string_equal(line, "devices ");
	snprintf(line, sizeof line, "cl");
	assert_int_equal(tui_complete(t, line, sizeof line), 2);
	assert_string_equal(line, "cla");
	assert_string_equal(t->hint, "claims classes");
	snprintf(line, sizeof line, "ns team-");
	assert_int_equal(tui_complete(t, line, sizeof line), 3);
	assert_string_equal(t->hint, "team-a team-b team-c");
	snprintf(line, sizeof line, "ns team-c");
	assert_int_equal(tui_complete(t, line, sizeof line), 1);
	assert_string_equal(line, "ns team-c ");
	snprintf(line, sizeof line, "zz");
	assert_int_equal(tui_complete(t, line, sizeof line), 0);
	/* The prompt: typed, erased, run. */
	keys(t, ":nodx");
	assert_int_equal(t->mode, TUI_MODE_COMMAND);
	tui_key(t, KEY_BACKSPACE);
	keys(t, "es\r");
	assert_int_equal(t->mode, TUI_MODE_NORMAL);
	assert_ptr_equal(tui_top(t)->type, &tui_view_nodes);
	/* Esc leaves the prompt without running it. */
	keys(t, ":claims");
	tui_key(t, TUI_KEY_ESC);
	assert_ptr_equal(tui_top(t)->type, &tui_view_nodes);
	assert_int_equal(tui_command(t, "q"), TUI_QUIT);
	assert_int_equal(t->quit, 1);
	tui_free(t);
}

/* ---- keys and help ------------------------------------------------ */

/* No key means two things among the tables active together. */
static void
no_clash(const struct tui_binding *a, const struct tui_binding *b)
{
	size_t	i, j, k, l;

	for (i = 0; a[i].keys != NULL; i++) {
		for (k = 0; k < TUI_KEY_CODES && a[i].codes[k] != 0; k++) {
			for (j = 0; b[j].keys != NULL; j++) {
				if (a == b && i == j)
					continue;
				for (l = 0; l < TUI_KEY_CODES &&
				    b[j].codes[l] != 0; l++) {
					if (a[i].codes[k] == b[j].codes[l])
						fail_msg("key %d: \"%s\", "
						    "\"%s\"", a[i].codes[k],
						    a[i].help, b[j].help);
				}
			}
		}
	}
}

static void
help_has(const char *help, const struct tui_binding *tab)
{
	char	line[256];
	size_t	i;

	for (i = 0; tab[i].keys != NULL; i++) {
		snprintf(line, sizeof line, "  %-22s %s\n", tab[i].keys,
		    tab[i].help);
		if (strstr(help, line) == NULL)
			fail_msg("help lacks \"%s\"", line);
		assert_int_equal(tui_key_lookup(tab, tab[i].codes[0]),
		    tab[i].action);
	}
}

static void
test_help_from_tables(void **state)
{
	const struct tui_binding	*views[] = { tui_list_keys,
					    tui_gpu_keys, tui_text_keys };
	struct tui			*t = new_ui("claims");
	char				*help;
	size_t				 i;

	(void)state;
	for (i = 0; i < 3; i++) {
		no_clash(views[i], views[i]);
		no_clash(views[i], tui_move_keys);
		no_clash(views[i], tui_global_keys);
	}
	no_clash(tui_move_keys, tui_global_keys);
	no_clash(tui_global_keys, tui_global_keys);

	help = tui_help_text(t);
	help_has(help, tui_global_keys);
	help_has(help, tui_move_keys);
	help_has(help, tui_list_keys);
	help_has(help, tui_gpu_keys);
	help_has(help, tui_text_keys);
	for (i = 0; tui_root_views[i] != NULL; i++) {
		char	want[64];

		snprintf(want, sizeof want, "  :%s", tui_root_views[i]->name);
		assert_non_null(strstr(help, want));
	}
	assert_non_null(strstr(help, "  :ns [NAME|-]"));
	free(help);
	assert_int_equal(tui_key_lookup(tui_list_keys, 'x'), TUI_A_NONE);

	/* ? opens it, a second ? does not stack another. */
	keys(t, "?");
	assert_string_equal(top_title(t), "help");
	assert_int_equal(t->depth, 2);
	keys(t, "?");
	assert_int_equal(t->depth, 2);
	/* Search in it: the line of the match is current. */
	keys(t, "/ctrl-w\r");
	assert_string_equal(tui_top(t)->filter, "ctrl-w");
	tui_key(t, TUI_KEY_ESC);	/* clears the search */
	assert_string_equal(tui_top(t)->filter, "");
	tui_key(t, TUI_KEY_ESC);	/* back */
	assert_int_equal(t->depth, 1);
	tui_free(t);
}

/* ---- GPU bars ----------------------------------------------------- */

static void
test_gpu_bar(void **state)
{
	struct dra_gpu_part	parts[3];
	struct dra_gpu		g;
	struct tui_bar_seg	segs[TUI_BAR_MAXSEGS];
	char			buf[256];
	int			n;

	(void)state;
	memset(parts, 0, sizeof parts);
	memset(&g, 0, sizeof g);
	g.name = "gpu-0";
	g.mode = "mig-dynamic";
	g.nslices = 8;
	g.compute_total = 7;
	g.parts = parts;
	g.nparts = 2;
	parts[0].device = "gpu-0-mig-3g40gb-9-0";
	parts[0].profile = "3g.40gb";
	parts[0].start = 0;
	parts[0].size = 4;
	parts[0].state = DRA_PART_ALLOCATED;
	parts[0].claim = "team-b/vllm-serve-0-gpu";
	parts[0].namespace = "team-b";
	parts[1].device = "gpu-0-mig-1g10gb-19-4";
	parts[1].profile = "1g.10gb";
	parts[1].start = 4;
	parts[1].size = 1;
	parts[1].state = DRA_PART_ALLOCATED;
	parts[1].claim = "team-b/jupyter-bob-gpu-cr4j2";
	parts[1].namespace = "team-b";

	/* 40 columns: 5 a slice. */
	assert_string_equal(tui_gpu_bar_text(&g, 40, buf, sizeof buf),
	    "|3g.40gb vllm-serve~|1g.~|..............|");
	n = tui_gpu_bar(&g, 40, segs);
	assert_int_equal(n, 3);
	assert_int_equal(segs[0].col, 0);
	assert_int_equal(segs[0].width, 20);
	assert_int_equal(segs[0].part, 0);
	assert_int_equal(segs[1].col, 20);
	assert_int_equal(segs[1].width, 5);
	assert_int_equal(segs[2].col, 25);
	assert_int_equal(segs[2].width, 15);
	assert_int_equal(segs[2].part, -1);
	assert_int_equal(segs[2].colour, TUI_C_PARTFREE);
	assert_int_equal(segs[0].colour, tui_team_colour("team-b"));
	/* 80 columns: the labels fit. */
	assert_string_equal(tui_gpu_bar_text(&g, 80, buf, sizeof buf),
	    "|3g.40gb vllm-serve-0-gpu               |"
	    "1g.10gb ~|.............................|");

	/* Static MIG: free instances are drawn with their profile, a part
	   overlapping a placed one is not; planned parts say so. */
	g.mode = "mig-static";
	g.nparts = 3;
	parts[1].state = DRA_PART_FREE;
	parts[1].claim = NULL;
	parts[2].device = "overlap";
	parts[2].profile = "2g.20gb";
	parts[2].start = 2;
	parts[2].size = 2;
	parts[2].state = DRA_PART_FREE;
	assert_string_equal(tui_gpu_bar_text(&g, 40, buf, sizeof buf),
	    "|3g.40gb vllm-serve~|1g.~|..............|");
	parts[0].state = DRA_PART_PLANNED;
	parts[0].claim = NULL;
	assert_string_equal(tui_gpu_bar_text(&g, 40, buf, sizeof buf),
	    "|3g.40gb planned    |1g.~|..............|");
	assert_int_equal(tui_gpu_bar(&g, 40, segs), 3);
	assert_int_equal(segs[0].colour, TUI_C_PARTPLAN);
	/* A whole GPU shared by three claims. */
	memset(parts, 0, sizeof parts);
	g.mode = "whole";
	g.nslices = 1;
	g.nparts = 1;
	parts[0].device = "gpu-3";
	parts[0].start = 0;
	parts[0].size = 1;
	parts[0].state = DRA_PART_ALLOCATED;
	parts[0].claim = "team-c/infer";
	parts[0].shared = 3;
	assert_string_equal(tui_gpu_bar_text(&g, 20, buf, sizeof buf),
	    "|whole infer +2     |");

	/* The 80% target and 95% ceiling. */
	assert_int_equal(tui_util_colour(0.0), TUI_C_UTILOK);
	assert_int_equal(tui_util_colour(0.79), TUI_C_UTILOK);
	assert_int_equal(tui_util_colour(0.80), TUI_C_UTILWARN);
	assert_int_equal(tui_util_colour(0.95), TUI_C_UTILWARN);
	assert_int_equal(tui_util_colour(0.951), TUI_C_UTILHIGH);
	assert_int_equal(tui_team_colour("team-a"),
	    tui_team_colour("team-a"));
}

static void
test_gpu_view(void **state)
{
	struct tui	*t = new_ui(NULL);

	(void)state;
	assert_string_equal(top_title(t),
	    "gpus[32] util 24%, 12 of 50 partitions held");
	/* Line 0 is gpu-node-1: Enter describes the node. */
	keys(t, "\r");
	assert_string_equal(top_title(t), "describe node gpu-node-1");
	keys(t, "q");
	/* gpu-node-2 gpu-0 is line 10; its partitions left to right. */
	keys(t, "jjjjjjjjjj");
	tui_key(t, KEY_RIGHT);
	keys(t, "\r");
	assert_string_equal(top_title(t),
	    "describe claim team-b/vllm-serve-0-gpu");
	keys(t, "q");
	tui_key(t, KEY_RIGHT);
	tui_key(t, KEY_RIGHT);	/* stays on the last */
	keys(t, "y");
	assert_string_equal(top_title(t),
	    "yaml claim team-b/jupyter-bob-gpu-cr4j2");
	keys(t, "q");
	/* The filter keeps matching GPUs; the selection follows. */
	keys(t, "/jupyter\r");
	assert_string_equal(top_title(t),
	    "gpus[2/32] util 24%, 12 of 50 partitions held");
	tui_key(t, TUI_KEY_ESC);
	assert_string_equal(top_title(t),
	    "gpus[32] util 24%, 12 of 50 partitions held");
	tui_free(t);
}

/*
 * The GPU view's filter typed a character at a time gives what a fresh
 * view given the whole filter gives (title, every line drawn), and
 * keeps as many GPUs as the old code did: regexec with REG_ICASE on
 * "node name model mode" and each part's " profile claim"
 * (tui_strcasestr for an invalid regex).
 */
static size_t
ref_gpus(const struct kube_snapshot *s, const char *text)
{
	struct dra_gpu_map	*map;
	const struct dra_gpu	*g;
	struct dra_err		 err;
	regex_t			 re;
	char			 line[4096];
	size_t			 n, k, p, kept = 0;
	int			 inv = text[0] == '!', re_ok, m;

	dra_err_clear(&err);
	map = dra_gpu_map(s, NULL, &err);
	assert_non_null(map);
	re_ok = regcomp(&re, text + inv, REG_EXTENDED | REG_ICASE |
	    REG_NOSUB) == 0;
	for (n = 0; n < map->nnodes; n++) {
		for (k = 0; k < map->nodes[n].ngpus; k++) {
			g = &map->nodes[n].gpus[k];
			snprintf(line, sizeof line, "%s %s %s %s",
			    map->nodes[n].name, g->name, g->model != NULL ?
			    g->model : "", g->mode != NULL ? g->mode : "");
			for (p = 0; p < g->nparts; p++) {
				strncat(line, " ", sizeof line - strlen(line) -
				    1);
				strncat(line, g->parts[p].profile != NULL ?
				    g->parts[p].profile : "", sizeof line -
				    strlen(line) - 1);
				strncat(line, " ", sizeof line - strlen(line) -
				    1);
				strncat(line, g->parts[p].claim != NULL ?
				    g->parts[p].claim : "", sizeof line -
				    strlen(line) - 1);
			}
			m = re_ok ? regexec(&re, line, 0, NULL, 0) == 0 :
			    tui_strcasestr(line, text + inv) != NULL;
			kept += inv ? !m : m;
		}
	}
	if (re_ok)
		regfree(&re);
	dra_gpu_map_free(map);
	return kept;
}

static void
test_gpu_filter_incremental(void **state)
{
	static const char *const steps[] = {
		"g", "gp", "gpu", "gpu-", "gpu-n", "gpu-node-2", "gpu-node-",
		"gpu-node-2|node-3", "jup", "jupyter", "JUPYTER", "!", "!jup",
		"!jupyter", "3g", "3g.", "3g.4", "3g.40gb", "3g.40gb vllm",
		"whole", "h100", "H100 80", "H100 80GB", "mig", "mig-dyn",
		"node-(1|3)", "(x", "(", "", "team-b/", "team-b/v", NULL
	};
	struct kube_snapshot	*s = load_example(NULL);
	struct tui_screen	 scr;
	struct tui_view		*v;
	struct dra_err		 err;
	struct tui		*t, *f;
	FILE			*in, *out;
	static char		 lines[60][512];
	char			 b[512], want[64];
	size_t			 i, total;
	const char		*c;
	int			 y;

	(void)state;
	in = fopen("/dev/null", "r");
	out = fopen("/dev/null", "w");
	assert_non_null(in);
	assert_non_null(out);
	dra_err_clear(&err);
	assert_int_equal(tui_screen_open(&scr, in, out, "xterm-256color", 1,
	    0, 0, &err), KUBE_OK);
	resizeterm(60, 160);
	t = new_ui(NULL);
	tui_resize(t, 60, 160);
	total = ref_gpus(s, "");
	keys(t, "jjjj/");
	for (i = 0; steps[i] != NULL; i++) {
		/* Erase the prompt, then type the step. */
		tui_key(t, TUI_CTRL('u'));
		for (c = steps[i]; *c != '\0'; c++)
			tui_key(t, (unsigned char)*c);
		tui_prepare(t);
		if (steps[i][steps[i][0] == '!'] == '\0')
			snprintf(want, sizeof want, "gpus[%zu]", total);
		else
			snprintf(want, sizeof want, "gpus[%zu/%zu]",
			    ref_gpus(s, steps[i]), total);
		if (strncmp(top_title(t), want, strlen(want)) != 0)
			fail_msg("\"%s\": %s, the old code %s", steps[i],
			    top_title(t), want);
		/* A fresh view with the whole filter draws the same. */
		f = new_ui(NULL);
		tui_resize(f, 60, 160);
		v = tui_top(f);
		snprintf(v->filter, sizeof v->filter, "%s", steps[i]);
		v->type->filter(v, steps[i]);
		tui_prepare(f);
		tui_draw(t);
		for (y = 2; y < 58; y++)
			tui_screen_line(y, lines[y], sizeof lines[y]);
		tui_draw(f);
		for (y = 2; y < 58; y++) {
			tui_screen_line(y, b, sizeof b);
			if (strcmp(lines[y], b) != 0)
				fail_msg("\"%s\", line %d: \"%s\", fresh "
				    "\"%s\"", steps[i], y, lines[y], b);
		}
		tui_free(f);
	}
	tui_free(t);
	tui_screen_close(&scr);
	fclose(in);
	fclose(out);
	kube_snapshot_free(s);
}

/* ---- drawing ------------------------------------------------------ */

/* A fixture source: the example once, then nothing. */
struct fixture {
	struct kube_snapshot	*snap;
	int			 polls;
	int			 live;
	int			 stale;
	const char		*note;
};

static int
fixture_poll(void *arg, struct kube_snapshot **out,
    struct tui_source_status *st, struct dra_err *err)
{
	struct fixture	*f = arg;

	(void)err;
	f->polls++;
	*out = f->snap;
	f->snap = NULL;
	memset(st, 0, sizeof *st);
	st->live = f->live;
	st->stale = f->stale;
	st->updated = (int64_t)time(NULL) - 12;
	if (f->live)
		snprintf(st->where, sizeof st->where, "context kind-dra "
		    "(https://127.0.0.1:6443)");
	else
		snprintf(st->where, sizeof st->where, "%s", EXAMPLE);
	if (f->note != NULL)
		snprintf(st->note, sizeof st->note, "%s", f->note);
	return KUBE_OK;
}

static void
test_draw(void **state)
{
	struct tui_screen	 scr;
	struct dra_err		 err;
	struct tui_opts		 o;
	struct tui_source	 src;
	struct fixture		 fx;
	struct tui		*t;
	FILE			*in, *out;
	char			 line[1024];
	int			 y;

	(void)state;
	memset(&o, 0, sizeof o);
	o.view = "claims";
	memset(&src, 0, sizeof src);
	memset(&fx, 0, sizeof fx);
	fx.snap = load_example(NULL);
	src.arg = &fx;
	src.poll = fixture_poll;
	t = tui_new(&o, &src);
	assert_int_equal(tui_poll(t, 1), TUI_REDRAW);
	assert_int_equal(fx.polls, 1);
	assert_int_equal(tui_poll(t, 0), 0);	/* nothing new */
	assert_int_equal(fx.polls, 2);
	setenv("NO_COLOR", "", 1);
	in = fopen("/dev/null", "r");
	out = fopen("/dev/null", "w");
	assert_non_null(in);
	assert_non_null(out);
	dra_err_clear(&err);
	assert_int_equal(tui_screen_open(&scr, in, out, "xterm-256color", 0,
	    0, 0, &err), KUBE_OK);
	assert_int_equal(scr.colour, 1);
	assert_int_equal(scr.utf8, 1);

	resizeterm(24, 80);
	tui_resize(t, 24, 80);
	tui_prepare(t);
	tui_draw(t);
	tui_screen_line(0, line, sizeof line);
	assert_non_null(strstr(line, " File: " EXAMPLE));
	assert_non_null(strstr(line, "OFFLINE file"));
	tui_screen_line(1, line, sizeof line);
	assert_string_equal(line, " Namespace: all   Claims: 13 (2 pending)"
	    "   Devices: 258 (13 allocated)");
	tui_screen_line(2, line, sizeof line);
	assert_non_null(strstr(line, " claims(all)[13] +2 columns, "
	    "\xe2\x86\x90/\xe2\x86\x92 "));
	tui_screen_line(3, line, sizeof line);
	assert_string_equal(line, "NAMESPACE  NAME                        "
	    "STATE       NODE        PODS        AGE");
	tui_screen_line(4, line, sizeof line);
	assert_non_null(strstr(line, "team-a     ddp-trainer-0-gpus   "));
	tui_screen_line(22, line, sizeof line);
	assert_string_equal(line, " claims");
	for (y = 0; y < 24; y++) {
		tui_screen_line(y, line, sizeof line);
		assert_true(tui_strwidth(line) <= 80);
	}

	/* The GPU map at 120x40. */
	resizeterm(40, 120);
	tui_resize(t, 40, 120);
	tui_command(t, "gpus");
	tui_prepare(t);
	tui_draw(t);
	tui_screen_line(3, line, sizeof line);
	assert_string_equal(line, "gpu-node-1  8 GPUs  util 75%");
	tui_screen_line(13, line, sizeof line);
	assert_non_null(strstr(line, "  gpu-0 NVIDIA H100 80GB HBM3 "
	    "|3g.40gb vllm-serve-0-gpu "));
	assert_non_null(strstr(line, "|  57% 4/7"));

	/* Below the minimum. */
	resizeterm(8, 40);
	tui_resize(t, 8, 40);
	tui_draw(t);
	tui_screen_line(4, line, sizeof line);
	assert_string_equal(line, "terminal too small: 40x8, need 50x10");

	tui_screen_close(&scr);
	fclose(in);
	fclose(out);
	tui_free(t);
}

/* The header's live, stale and offline states; the source's note. */
static void
test_header(void **state)
{
	struct tui_screen	 scr;
	struct dra_err		 err;
	struct tui_opts		 o;
	struct tui_source	 src;
	struct fixture		 fx;
	struct tui		*t;
	FILE			*in, *out;
	char			 line[1024];
	size_t			 n;

	(void)state;
	memset(&o, 0, sizeof o);
	memset(&src, 0, sizeof src);
	memset(&fx, 0, sizeof fx);
	fx.snap = load_example(NULL);
	fx.live = 1;
	fx.note = "cannot list resourceslices (forbidden); showing what "
	    "could be read";
	src.arg = &fx;
	src.poll = fixture_poll;
	t = tui_new(&o, &src);
	tui_poll(t, 1);
	in = fopen("/dev/null", "r");
	out = fopen("/dev/null", "w");
	assert_int_equal(tui_screen_open(&scr, in, out, "xterm-256color", 0,
	    0, 0, &err), KUBE_OK);
	resizeterm(24, 80);
	tui_resize(t, 24, 80);
	tui_prepare(t);
	tui_draw(t);
	tui_screen_line(0, line, sizeof line);
	assert_non_null(strstr(line, " context kind-dra "
	    "(https://127.0.0.1:6443)"));
	n = strlen(line);
	assert_true(n > 5 && strcmp(line + n - 5, " LIVE") == 0);
	tui_screen_line(23, line, sizeof line);
	assert_string_equal(line, "cannot list resourceslices (forbidden); "
	    "showing what could be read");
	/* A broken watch: stale, with the age of the data. */
	fx.stale = 1;
	fx.note = NULL;
	assert_int_equal(tui_poll(t, 0), TUI_REDRAW);
	tui_draw(t);
	tui_screen_line(0, line, sizeof line);
	n = strlen(line);
	assert_true(n > 10 && (strcmp(line + n - 10, " STALE 12s") == 0 ||
	    strcmp(line + n - 10, " STALE 13s") == 0));
	/* The source's note is gone with it; the GPU map's warnings are
	   not a standing note (the tainted GPU is marked on its bar). */
	tui_screen_line(23, line, sizeof line);
	assert_null(strstr(line, "forbidden"));
	assert_null(strstr(line, "GPU map:"));
	tui_screen_close(&scr);
	fclose(in);
	fclose(out);
	tui_free(t);
}

static void
test_no_color(void **state)
{
	struct tui_screen	scr;
	struct dra_err		err;
	FILE			*in, *out;

	(void)state;
	in = fopen("/dev/null", "r");
	out = fopen("/dev/null", "w");
	setenv("NO_COLOR", "1", 1);
	assert_int_equal(tui_screen_open(&scr, in, out, "xterm-256color", 0,
	    0, 0, &err), KUBE_OK);
	assert_int_equal(scr.colour, 0);
	assert_int_equal(tui_attr(TUI_C_SELECTED), A_REVERSE | A_BOLD);
	tui_screen_close(&scr);
	setenv("NO_COLOR", "", 1);
	assert_int_equal(tui_screen_open(&scr, in, out, "xterm-256color", 1,
	    0, 0, &err), KUBE_OK);
	assert_int_equal(scr.colour, 0);
	tui_screen_close(&scr);
	assert_int_equal(tui_screen_open(&scr, in, out, "no-such-terminal", 0,
	    0, 0, &err), KUBE_E_IO);
	assert_string_equal(err.msg, "cannot open the terminal: unknown "
	    "terminal type \"no-such-terminal\"");
	fclose(in);
	fclose(out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_listview_filter_sort),
		cmocka_unit_test(test_natkey),
		cmocka_unit_test(test_listview_incremental),
		cmocka_unit_test(test_listview_sort_order),
		cmocka_unit_test(test_selection_kept),
		cmocka_unit_test(test_hold_off),
		cmocka_unit_test(test_commands),
		cmocka_unit_test(test_help_from_tables),
		cmocka_unit_test(test_gpu_bar),
		cmocka_unit_test(test_gpu_view),
		cmocka_unit_test(test_gpu_filter_incremental),
		cmocka_unit_test(test_draw),
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_no_color),
	};

	setlocale(LC_CTYPE, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
