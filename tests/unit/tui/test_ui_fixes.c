/*
 * test_ui_fixes.c: what a fresh-eyes test of `kubectl dra ui` found
 * (issue 6), each checked on the model or on a screen opened on
 * /dev/null and read back line by line: a terminal without cursor
 * addressing refused; the status line without a standing note, its
 * messages expiring, kept over keys and after Enter, "reading FILE..."
 * gone when the source answers; the too-small notice wrapped; the
 * data's warnings counted in the header and listed by :warnings; :ns
 * of a namespace without objects said, with a suggestion; :why of a
 * template; the help's columns aligned; without colours the
 * selection, held partitions and quotas over the target told apart.
 */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "gpus.h"
#include "snapshot.h"
#include "tui-int.h"

#define EXAMPLE	SOURCE_DIR "/examples/cluster.yaml"

/* The example cluster, at a fixed clock (ages fix column widths). */
static struct kube_snapshot *
load_example(void)
{
	struct kube_snapshot	*s = kube_snapshot_new();
	struct dra_err		 err;

	dra_err_clear(&err);
	if (kube_snapshot_load_file(s, EXAMPLE, &err) != KUBE_OK)
		fail_msg("%s", err.msg);
	kube_snapshot_finish(s);
	s->now = 1795997700;
	return s;
}

/*
 * The example with two problems: a claim allocated a device no slice
 * publishes (a snapshot warning) and a GPU of a product the catalogue
 * does not know (a GPU map warning).
 */
static const char odd_claim[] =
    "{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": "
    "\"ResourceClaim\", \"metadata\": {\"name\": \"ghost\", "
    "\"namespace\": \"team-a\", \"uid\": \"u-ghost\", "
    "\"creationTimestamp\": \"2026-11-29T16:31:19Z\"}, \"spec\": "
    "{\"devices\": {\"requests\": [{\"name\": \"gpu\", \"exactly\": "
    "{\"deviceClassName\": \"gpu.nvidia.com\"}}]}}, \"status\": "
    "{\"allocation\": {\"devices\": {\"results\": [{\"request\": "
    "\"gpu\", \"driver\": \"gpu.nvidia.com\", \"pool\": "
    "\"gpu-node-1\", \"device\": \"gpu-9\"}]}}}}";
static const char odd_slice[] =
    "{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": "
    "\"ResourceSlice\", \"metadata\": {\"name\": \"t4\"}, \"spec\": "
    "{\"driver\": \"gpu.nvidia.com\", \"nodeName\": \"gpu-node-9\", "
    "\"pool\": {\"name\": \"gpu-node-9\", \"generation\": 1, "
    "\"resourceSliceCount\": 1}, \"devices\": [{\"name\": \"gpu-0\", "
    "\"attributes\": {\"type\": {\"string\": \"gpu\"}, "
    "\"productName\": {\"string\": \"Tesla T4\"}}}]}}";

static struct kube_snapshot *
load_odd(void)
{
	struct kube_snapshot	*s = kube_snapshot_new();
	struct dra_err		 err;
	const char		*docs[2] = { odd_claim, odd_slice };
	cJSON			*obj;
	int			 i;

	dra_err_clear(&err);
	if (kube_snapshot_load_file(s, EXAMPLE, &err) != KUBE_OK)
		fail_msg("%s", err.msg);
	for (i = 0; i < 2; i++) {
		obj = cJSON_Parse(docs[i]);
		assert_non_null(obj);
		if (kube_snapshot_add(s, obj, NULL, NULL, &err) != KUBE_OK)
			fail_msg("%s", err.msg);
		cJSON_Delete(obj);
	}
	kube_snapshot_finish(s);
	s->now = 1795997700;
	return s;
}

/* A screen on /dev/null, lines x cols, colours unless mono. */
struct scr {
	struct tui_screen	 scr;
	FILE			*in;
	FILE			*out;
};

static void
scr_open(struct scr *sc, int lines, int cols, int mono)
{
	struct dra_err	err;

	sc->in = fopen("/dev/null", "r");
	sc->out = fopen("/dev/null", "w");
	assert_non_null(sc->in);
	assert_non_null(sc->out);
	setenv("NO_COLOR", "", 1);
	dra_err_clear(&err);
	if (tui_screen_open(&sc->scr, sc->in, sc->out, "xterm-256color", mono,
	    0, 0, &err) != KUBE_OK)
		fail_msg("%s", err.msg);
	resizeterm(lines, cols);
}

static void
scr_close(struct scr *sc)
{
	tui_screen_close(&sc->scr);
	fclose(sc->in);
	fclose(sc->out);
}

/* A UI on the example, root view "view", lines x cols, no source. */
static struct tui *
new_ui(const char *view, int lines, int cols)
{
	struct tui_opts	 o;
	struct tui	*t;

	memset(&o, 0, sizeof o);
	o.view = view;
	t = tui_new(&o, NULL);
	tui_resize(t, lines, cols);
	tui_set_snapshot(t, load_example());
	tui_prepare(t);
	return t;
}

static void
keys(struct tui *t, const char *s)
{
	for (; *s != '\0'; s++) {
		tui_key(t, (unsigned char)*s);
		tui_prepare(t);
	}
}

/* Line y of the screen after drawing t. */
static const char *
drawn(struct tui *t, int y)
{
	static char	line[1024];

	tui_prepare(t);
	tui_draw(t);
	return tui_screen_line(y, line, sizeof line);
}

/*
 * A source for tests: hands over snap once, says live/stale/note as
 * set, and fails once when fail is set.
 */
struct fixture {
	struct kube_snapshot	*snap;
	int			 live;
	const char		*note;
	int			 fail;
	int			 polls;
	int			 refreshes;
};

static int
fixture_poll(void *arg, struct kube_snapshot **out,
    struct tui_source_status *st, struct dra_err *err)
{
	struct fixture	*f = arg;

	f->polls++;
	*out = f->snap;
	f->snap = NULL;
	memset(st, 0, sizeof *st);
	st->live = f->live;
	snprintf(st->where, sizeof st->where, "%s", f->live ?
	    "context kind-dra" : EXAMPLE);
	if (f->note != NULL)
		snprintf(st->note, sizeof st->note, "%s", f->note);
	if (f->fail) {
		f->fail = 0;
		return dra_err_set(err, KUBE_E_IO, "cannot read it again");
	}
	return KUBE_OK;
}

static void
fixture_refresh(void *arg)
{
	struct fixture	*f = arg;

	f->refreshes++;
}

static struct tui *
fixture_ui(struct fixture *fx, struct tui_source *src, const char *view)
{
	struct tui_opts	 o;
	struct tui	*t;

	memset(&o, 0, sizeof o);
	o.view = view;
	memset(src, 0, sizeof *src);
	src->arg = fx;
	src->poll = fixture_poll;
	src->refresh = fixture_refresh;
	t = tui_new(&o, src);
	t->now_ms = 1000;
	tui_poll(t, 1);
	tui_resize(t, 24, 80);
	return t;
}

/* ---- 12: TERM=dumb --------------------------------------------------- */

static void
test_dumb_terminal(void **state)
{
	struct tui_screen	 scr;
	struct dra_err		 err;
	FILE			*in, *out;

	(void)state;
	in = fopen("/dev/null", "r");
	out = fopen("/dev/null", "w");
	dra_err_clear(&err);
	assert_int_equal(tui_screen_open(&scr, in, out, "dumb", 0, 0, 0,
	    &err), KUBE_E_IO);
	assert_string_equal(err.msg, "cannot open the terminal: terminal "
	    "type \"dumb\" cannot move the cursor (no cup capability); use "
	    "a terminal such as xterm");
	/* The screen was not opened: a real one opens after. */
	assert_int_equal(tui_screen_open(&scr, in, out, "xterm-256color", 0,
	    0, 0, &err), KUBE_OK);
	tui_screen_close(&scr);
	fclose(in);
	fclose(out);
}

/* ---- 9, 11, 19: the status line ----------------------------------- */

/*
 * The GPU map's taint warning is no standing note: the status line of
 * the example is empty in every view.
 */
static void
test_no_standing_note(void **state)
{
	struct scr	 sc;
	struct tui	*t = new_ui("gpus", 24, 80);

	(void)state;
	scr_open(&sc, 24, 80, 0);
	assert_string_equal(drawn(t, 23), "");
	tui_command(t, "claims");
	assert_string_equal(drawn(t, 23), "");
	/* "no plan" is an error; after it the line is empty again. */
	t->now_ms = 1000;
	tui_command(t, "plan");
	assert_string_equal(drawn(t, 23), "no plan: start with --plan FILE "
	    "(a document of kubectl dra plan -o yaml)");
	assert_int_equal(tui_tick(t, 1000 + TUI_ERROR_MS - 1), 0);
	assert_string_equal(t->status, "no plan: start with --plan FILE (a "
	    "document of kubectl dra plan -o yaml)");
	assert_int_equal(tui_tick(t, 1000 + TUI_ERROR_MS), TUI_REDRAW);
	assert_string_equal(drawn(t, 23), "");
	scr_close(&sc);
	tui_free(t);
}

/* A message stays over keys; a note goes after TUI_STATUS_MS. */
static void
test_status_expires(void **state)
{
	struct tui	*t = new_ui("claims", 24, 80);

	(void)state;
	t->now_ms = 5000;
	tui_key(t, TUI_CTRL('w'));
	assert_string_equal(t->status, "wide columns on");
	assert_int_equal(t->status_err, 0);
	t->now_ms = 6000;
	keys(t, "jjk");
	assert_string_equal(t->status, "wide columns on");
	assert_int_equal(tui_tick(t, 5000 + TUI_STATUS_MS - 1), 0);
	assert_string_equal(t->status, "wide columns on");
	assert_int_equal(tui_tick(t, 5000 + TUI_STATUS_MS), TUI_REDRAW);
	assert_string_equal(t->status, "");
	tui_free(t);
}

/* An invalid regex's message stays when Enter leaves the prompt. */
static void
test_regex_error_kept(void **state)
{
	struct scr	 sc;
	struct tui	*t = new_ui("claims", 24, 80);

	(void)state;
	scr_open(&sc, 24, 80, 0);
	t->now_ms = 100;
	keys(t, "/[");
	assert_string_equal(t->status, "not a valid regular expression: "
	    "matching \"[\" as text");
	t->now_ms = 2000;
	keys(t, "\r");
	assert_int_equal(t->mode, TUI_MODE_NORMAL);
	assert_string_equal(drawn(t, 23), "not a valid regular expression: "
	    "matching \"[\" as text");
	/* Counted from Enter. */
	assert_int_equal(tui_tick(t, 2000 + TUI_STATUS_MS - 1), 0);
	assert_int_equal(tui_tick(t, 2000 + TUI_STATUS_MS), TUI_REDRAW);
	assert_string_equal(drawn(t, 23), "");
	scr_close(&sc);
	tui_free(t);
}

/*
 * "reading FILE..." goes when the source answers; a refresh of a live
 * source that broke: its error shows, no "refreshing" left over.
 */
static void
test_busy(void **state)
{
	struct scr		 sc;
	struct fixture		 fx;
	struct tui_source	 src;
	struct tui		*t;

	(void)state;
	memset(&fx, 0, sizeof fx);
	fx.snap = load_example();
	t = fixture_ui(&fx, &src, "claims");
	scr_open(&sc, 24, 80, 0);
	tui_busy(t, "reading %s...", EXAMPLE);
	assert_string_equal(drawn(t, 23), "reading " EXAMPLE "...");
	fx.snap = load_example();
	assert_int_equal(tui_poll(t, 0), TUI_REDRAW);
	assert_string_equal(t->status, "");
	/* A file that no longer reads: the error replaces it. */
	tui_busy(t, "reading %s...", EXAMPLE);
	fx.fail = 1;
	tui_poll(t, 0);
	assert_string_equal(t->status, "cannot read it again");
	assert_int_equal(t->status_err, 1);
	tui_free(t);

	/* Live: nothing new yet keeps it; the source's error replaces. */
	memset(&fx, 0, sizeof fx);
	fx.snap = load_example();
	fx.live = 1;
	t = fixture_ui(&fx, &src, "claims");
	tui_busy(t, "refreshing: listing again...");
	assert_int_equal(tui_poll(t, 0), 0);
	assert_string_equal(t->status, "refreshing: listing again...");
	fx.note = "cannot list resourceclaims: connection refused; next "
	    "try in 2s";
	assert_int_equal(tui_poll(t, 0), TUI_REDRAW);
	assert_string_equal(t->status, "");
	assert_string_equal(drawn(t, 23), "cannot list resourceclaims: "
	    "connection refused; next try in 2s");
	/* A note of ours gives way to a new note of the source. */
	tui_status(t, 0, "namespace: team-a");
	fx.note = "watch of resourceclaims broke; listing again";
	tui_poll(t, 0);
	assert_string_equal(drawn(t, 23), "watch of resourceclaims broke; "
	    "listing again");
	/* But an error of ours stays. */
	tui_status(t, 1, "unknown command");
	fx.note = "back";
	tui_poll(t, 0);
	assert_string_equal(drawn(t, 23), "unknown command");
	scr_close(&sc);
	tui_free(t);
}

/* Too small: the size needed is always read, wrapped when narrow. */
static void
test_too_small(void **state)
{
	struct scr	 sc;
	struct tui	*t = new_ui("gpus", 5, 20);

	(void)state;
	scr_open(&sc, 5, 20, 0);
	assert_string_equal(drawn(t, 0), "");
	assert_string_equal(drawn(t, 1), "terminal too small:");
	assert_string_equal(drawn(t, 2), "20x5, need 50x10");
	resizeterm(3, 12);
	tui_resize(t, 3, 12);
	assert_string_equal(drawn(t, 0), "terminal too");
	assert_string_equal(drawn(t, 1), "small: 12x3,");
	assert_string_equal(drawn(t, 2), "need 50x10");
	/* Where it fits, one line in the middle. */
	resizeterm(8, 40);
	tui_resize(t, 8, 40);
	assert_string_equal(drawn(t, 4), "terminal too small: 40x8, need "
	    "50x10");
	scr_close(&sc);
	tui_free(t);
}

/* ---- 10: :warnings ----------------------------------------------- */

/* The line of the text view on top that holds text, or NULL. */
static const char *
text_line(struct tui *t, const char *text)
{
	static char	 line[1024];
	int		 y;

	tui_prepare(t);
	tui_draw(t);
	for (y = TUI_HEAD_LINES; y < t->lines - TUI_FOOT_LINES; y++) {
		tui_screen_line(y, line, sizeof line);
		if (strstr(line, text) != NULL)
			return line;
	}
	return NULL;
}

static void
test_warnings(void **state)
{
	struct scr	 sc;
	struct tui	*t = new_ui("claims", 40, 120);
	const char	*l;

	(void)state;
	scr_open(&sc, 40, 120, 0);
	/* The example: no warning, its tainted GPU for information. */
	assert_int_equal(tui_warning_count(t), 0);
	assert_null(strstr(drawn(t, 0), "warning"));
	assert_int_equal(tui_command(t, "warnings"), TUI_REDRAW);
	assert_non_null(strstr(drawn(t, 2), " warnings "));
	assert_string_equal(drawn(t, 38), " claims  \xe2\x80\xba  warnings");
	assert_non_null(text_line(t, " No warnings about the data."));
	l = text_line(t, "gpu-node-4/gpu-3");
	assert_non_null(l);
	assert_string_equal(l, "   gpu-node-4/gpu-3: taint "
	    "nvidia.com/gpu-unhealthy=xid-79:NoSchedule");
	tui_free(t);

	/* A warning of the snapshot and one of the GPU map. */
	t = new_ui("claims", 40, 120);
	tui_set_snapshot(t, load_odd());
	tui_prepare(t);
	assert_int_equal(t->nwarnings, 1);
	assert_int_equal(tui_warning_count(t), 1);
	/* The GPU map, once made, says it has one too. */
	tui_command(t, "gpus");
	tui_prepare(t);
	assert_int_equal(tui_warning_count(t), 2);
	l = drawn(t, 0);
	assert_non_null(strstr(l, " 2 warnings (:warnings)  OFFLINE file"));
	/* Typed, completed. */
	keys(t, ":war\t\r");
	assert_non_null(text_line(t, " 2 warnings about the data."));
	l = text_line(t, "ghost");
	assert_non_null(l);
	/* Wrapped for 80 columns. */
	assert_string_equal(l, "   resourceclaim team-a/ghost: allocated "
	    "device");
	l = text_line(t, "gpu-9");
	assert_non_null(l);
	assert_string_equal(l, "     gpu.nvidia.com/gpu-node-1/gpu-9 is not "
	    "published by any current");
	assert_non_null(text_line(t, "     ResourceSlice"));
	l = text_line(t, "gpu-node-9");
	assert_non_null(l);
	assert_string_equal(l, "   gpu.nvidia.com/gpu-node-9/gpu-0: product "
	    "\"Tesla T4\" is not in the GPU");
	scr_close(&sc);
	tui_free(t);
}

/* ---- 15: :ns of a namespace without objects ------------------------ */

static void
test_ns_unknown(void **state)
{
	struct tui	*t = new_ui("claims", 24, 80);

	(void)state;
	tui_command(t, "ns team-a");
	assert_string_equal(t->status, "namespace: team-a");
	/* Taken (a namespace may be empty), and said. */
	tui_command(t, "ns nope");
	assert_string_equal(t->ns, "nope");
	assert_string_equal(t->status, "namespace: nope (no objects in "
	    "namespace nope; namespaces with objects: team-a, team-b, "
	    "team-c)");
	assert_int_equal(t->status_err, 0);
	tui_command(t, "ns team-d");
	assert_string_equal(t->ns, "team-d");
	assert_string_equal(t->status, "namespace: team-d (no objects in "
	    "namespace team-d; did you mean \"team-a\"?)");
	tui_command(t, "claims teamb");
	assert_string_equal(t->status, "namespace: teamb (no objects in "
	    "namespace teamb; did you mean \"team-b\"?)");
	tui_command(t, "ns");
	assert_string_equal(t->status, "namespace: all namespaces");
	tui_free(t);
}

/* ---- 16: why a template ------------------------------------------- */

static void
test_why_template(void **state)
{
	struct tui	*t = new_ui("templates", 40, 120);
	struct tui_view	*v;
	char		 buf[256];

	(void)state;
	tui_command(t, "why template/gpu-template");
	assert_string_equal(t->status, "why: template \"gpu-template\" is in "
	    "several namespaces; name it as template/NAMESPACE/NAME or set "
	    ":ns");
	tui_command(t, "why template/team-a/gpu-template");
	v = tui_top(t);
	assert_ptr_equal(v->type, &tui_view_text);
	assert_string_equal(v->type->title(v, buf, sizeof buf),
	    "why template team-a/gpu-template");
	tui_key(t, TUI_KEY_ESC);
	/* In the namespace set, any spelling why takes. */
	tui_command(t, "ns team-c");
	tui_command(t, "why resourceclaimtemplate/mig-1g20gb-template");
	v = tui_top(t);
	assert_string_equal(v->type->title(v, buf, sizeof buf),
	    "why template team-c/mig-1g20gb-template");
	tui_key(t, TUI_KEY_ESC);
	tui_command(t, "why template/nosuch");
	assert_string_equal(t->status, "template team-c/nosuch not found");
	tui_command(t, "why node/gpu-node-1");
	assert_string_equal(t->status, "why: name claim/NAME, pod/NAME or "
	    "template/NAME");
	tui_free(t);
}

/* w on the templates list explains what a new claim would get. */
static void
test_why_template_key(void **state)
{
	struct tui	*t = new_ui("templates", 40, 120);
	struct tui_view	*v;
	char		 buf[256];

	(void)state;
	keys(t, "w");
	v = tui_top(t);
	assert_ptr_equal(v->type, &tui_view_text);
	assert_string_equal(t->status, "");
	assert_string_equal(v->type->title(v, buf, sizeof buf),
	    "why template team-a/gpu-template");
	tui_free(t);
}

/* ---- columns: long names, hidden columns, the sort arrow ---------- */

/* The example with a claim whose name is 233 characters long. */
static struct kube_snapshot *
load_long(void)
{
	struct kube_snapshot	*s = kube_snapshot_new();
	struct dra_err		 err;
	char			 name[234], doc[1024];
	cJSON			*obj;

	memset(name, 'x', 233);
	name[233] = '\0';
	snprintf(doc, sizeof doc, "{\"apiVersion\": \"resource.k8s.io/v1\", "
	    "\"kind\": \"ResourceClaim\", \"metadata\": {\"name\": \"%s\", "
	    "\"namespace\": \"team-a\", \"uid\": \"u-long\", "
	    "\"creationTimestamp\": \"2026-11-29T16:31:19Z\"}, \"spec\": "
	    "{\"devices\": {\"requests\": [{\"name\": \"gpu\", \"exactly\": "
	    "{\"deviceClassName\": \"gpu.nvidia.com\"}}]}}}", name);
	dra_err_clear(&err);
	if (kube_snapshot_load_file(s, EXAMPLE, &err) != KUBE_OK)
		fail_msg("%s", err.msg);
	obj = cJSON_Parse(doc);
	assert_non_null(obj);
	if (kube_snapshot_add(s, obj, NULL, NULL, &err) != KUBE_OK)
		fail_msg("%s", err.msg);
	cJSON_Delete(obj);
	kube_snapshot_finish(s);
	s->now = 1795997700;
	return s;
}

static struct tui *
long_ui(int lines, int cols)
{
	struct tui_opts	 o;
	struct tui	*t;

	memset(&o, 0, sizeof o);
	o.view = "claims";
	t = tui_new(&o, NULL);
	tui_resize(t, lines, cols);
	tui_set_snapshot(t, load_long());
	tui_prepare(t);
	return t;
}

/*
 * A 233-character name takes at most 40% of the width (48 columns at
 * most): at 120 and 300 columns every other column stays.
 */
static void
test_long_name(void **state)
{
	struct scr	 sc;
	struct tui	*t;
	const char	*l;

	(void)state;
	scr_open(&sc, 40, 120, 0);
	t = long_ui(40, 120);
	l = drawn(t, 3);
	assert_non_null(strstr(l, "NAMESPACE  NAME  "));
	assert_non_null(strstr(l, "  STATE  "));
	assert_non_null(strstr(l, "  REQUESTS  "));
	assert_non_null(strstr(l, "  NODE  "));
	assert_non_null(strstr(l, "  PODS  "));
	assert_non_null(strstr(l, "  AGE"));
	/* DEVICES is the one left out, and the title says so. */
	assert_non_null(strstr(drawn(t, 2), "[14] +1 column, "));
	/* NAME is 48 columns wide: STATE starts at 9 + 2 + 48 + 2. */
	l = drawn(t, 3);
	assert_int_equal(strstr(l, "STATE") - l, 61);
	tui_free(t);
	resizeterm(40, 300);
	t = long_ui(40, 300);
	l = drawn(t, 3);
	assert_non_null(strstr(l, "  DEVICES  "));
	assert_non_null(strstr(l, "  PODS  "));
	assert_int_equal(strstr(l, "STATE") - l, 61);
	tui_free(t);
	scr_close(&sc);
}

/*
 * At 80x24 the title says how many columns are hidden, and Right / l
 * scrolls them in with NAMESPACE and NAME kept; ctrl-w hides the wide
 * extras first, not DEVICES.
 */
static void
test_hidden_columns(void **state)
{
	struct scr	 sc;
	struct tui	*t;
	const char	*l;

	(void)state;
	scr_open(&sc, 24, 80, 0);
	t = new_ui("claims", 24, 80);
	assert_non_null(strstr(drawn(t, 2), "claims(all)[13] +2 columns, "
	    "\xe2\x86\x90/\xe2\x86\x92"));
	assert_null(strstr(drawn(t, 3), "DEVICES"));
	keys(t, "l");
	l = drawn(t, 3);
	assert_non_null(strstr(l, "NAMESPACE  NAME "));
	assert_non_null(strstr(l, "REQUESTS"));
	keys(t, "ll");
	assert_non_null(strstr(drawn(t, 3), "DEVICES"));
	keys(t, "hhh");
	assert_null(strstr(drawn(t, 3), "DEVICES"));
	tui_free(t);
	/* Wide at 120: DEVICES stays, REQUEST and TEMPLATE wait right. */
	resizeterm(40, 120);
	t = new_ui("claims", 40, 120);
	tui_key(t, TUI_CTRL('w'));
	l = drawn(t, 3);
	assert_non_null(strstr(l, "DEVICES"));
	assert_non_null(strstr(l, "PODS"));
	assert_non_null(strstr(drawn(t, 2), "+2 columns"));
	tui_free(t);
	scr_close(&sc);
}

/* The sort arrow shows whole in a column as narrow as its header. */
static void
test_sort_arrow(void **state)
{
	struct scr	 sc;
	struct tui	*t;
	const char	*l;

	(void)state;
	scr_open(&sc, 24, 80, 0);
	t = new_ui("claims", 24, 80);
	keys(t, ">");
	l = drawn(t, 3);
	assert_memory_equal(l, "NAMESPACE\xe2\x86\x91", 12);
	keys(t, "A");
	assert_non_null(strstr(drawn(t, 3), "AGE\xe2\x86\x91"));
	keys(t, "A");
	assert_non_null(strstr(drawn(t, 3), "AGE\xe2\x86\x93"));
	tui_free(t);
	scr_close(&sc);
}

/* The GPU view's filter: nothing kept, or not a regex, is said. */
static void
test_gpu_filter_messages(void **state)
{
	struct scr	 sc;
	struct tui	*t;

	(void)state;
	scr_open(&sc, 40, 120, 0);
	t = new_ui("gpus", 40, 120);
	keys(t, "/zzzz\r");
	assert_string_equal(drawn(t, 3), " no GPU matches /zzzz");
	keys(t, "\x1b/(x\r");
	assert_string_equal(t->status, "not a valid regular expression: "
	    "matching \"(x\" as text");
	tui_free(t);
	scr_close(&sc);
}

/* ---- 17: the help's columns ---------------------------------------- */

/*
 * Every line of the help that has a second column starts it where the
 * key tables do (column 25: "  " and 22 columns and a blank), and no
 * first column runs into it.
 */
static void
test_help_columns(void **state)
{
	struct tui	*t = new_ui("claims", 24, 80);
	char		*help = tui_help_text(t), *line, *next;
	int		 views = 0, commands = 0, keys = 0, section = 0;

	(void)state;
	for (line = help; line != NULL && *line != '\0'; line = next) {
		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		if (strncmp(line, "Views", 5) == 0)
			section = 1;
		else if (strncmp(line, "Commands", 8) == 0)
			section = 2;
		else if (line[0] != ' ' && line[0] != '\0')
			section = 0;
		if (strncmp(line, "  ", 2) != 0 || strlen(line) <= 25)
			continue;
		if (section == 0)
			keys++;
		if (section == 1)
			views++;
		if (section == 2)
			commands++;
		/* The second column at 25, after a blank. */
		if (line[24] != ' ' || line[25] == ' ')
			fail_msg("help column: \"%s\"", line);
	}
	assert_int_equal(views, 9);
	assert_int_equal(commands, 8);
	assert_true(keys > 30);
	free(help);
	help = tui_help_text(t);
	assert_non_null(strstr(help, "\n  :gpus                  also :gpu, "
	    ":map\n"));
	assert_non_null(strstr(help, "\n  :why KIND/NAME         why a claim, "
	    "pod or template (KIND) gets its devices or not\n"));
	free(help);
	tui_free(t);
}

/* ---- 18: without colours ----------------------------------------- */

/* The attributes (colour pair aside) of line y, column x. */
static attr_t
attr_at(int y, int x)
{
	cchar_t	cc;
	wchar_t	wc[CCHARW_MAX + 1];
	attr_t	a = 0;
	short	pair;

	if (mvwin_wch(stdscr, y, x, &cc) == ERR ||
	    getcchar(&cc, wc, &a, &pair, NULL) == ERR)
		fail_msg("no cell at %d,%d", y, x);
	return a & (A_REVERSE | A_BOLD | A_UNDERLINE | A_DIM);
}

/* The first line of the screen that holds text, or -1. */
static int
find_line(const char *text)
{
	char	line[1024];
	int	y;

	for (y = 0; y < LINES; y++)
		if (strstr(tui_screen_line(y, line, sizeof line), text) !=
		    NULL)
			return y;
	return -1;
}

static void
test_mono(void **state)
{
	struct scr	 sc;
	struct tui	*t = new_ui("quotas", 24, 100);
	int		 y, x, c;
	char		 line[1024];

	(void)state;
	scr_open(&sc, 24, 100, 1);
	assert_int_equal(sc.scr.colour, 0);
	assert_int_equal(tui_attr(TUI_C_SELECTED), A_REVERSE | A_BOLD);
	/* Held partitions are not drawn like the selection. */
	for (c = TUI_C_TEAM0; c < TUI_C_TEAM0 + TUI_NTEAMS; c++) {
		assert_int_equal(tui_attr((enum tui_colour)c) & A_REVERSE, 0);
		assert_int_not_equal(tui_attr((enum tui_colour)c), A_NORMAL);
	}
	/* The selected row: reverse and bold from edge to edge. */
	tui_prepare(t);
	tui_draw(t);
	y = find_line("count/resourceclaims");
	assert_true(y > 0);
	for (x = 0; x < 100; x++)
		assert_int_equal(attr_at(y, x), A_REVERSE | A_BOLD);
	/* 100% of hard: bold and underlined; 75% (under the target):
	   plain. */
	y = find_line("100%");
	assert_true(y > 0);
	assert_int_equal(attr_at(y, 0), A_BOLD | A_UNDERLINE);
	y = find_line("75%");
	assert_true(y > 0);
	assert_int_equal(attr_at(y, 0), 0);
	/* A pending claim is bold. */
	tui_command(t, "claims");
	tui_prepare(t);
	tui_draw(t);
	y = find_line("llm-pretrain-0-gpus");
	assert_true(y > 0);
	assert_non_null(strstr(tui_screen_line(y, line, sizeof line),
	    "pending"));
	assert_int_equal(attr_at(y, 0), A_BOLD);
	/* On the GPU map, a held partition is underlined, the selected
	   GPU's name reverse and bold. */
	tui_command(t, "gpus");
	tui_key(t, 'j');
	tui_prepare(t);
	tui_draw(t);
	y = find_line("ddp-trainer-0-gpus");
	assert_int_equal(y, 4);
	assert_int_equal(attr_at(y, 2), A_REVERSE | A_BOLD);
	x = (int)(strstr(tui_screen_line(y, line, sizeof line),
	    "|whole ddp") - line) + 1;
	assert_int_equal(attr_at(y, x), A_UNDERLINE);
	/* The selected node line: its utilization and the blanks after
	   it too (it kept the utilization's attribute, unpadded). */
	tui_key(t, 'k');
	tui_prepare(t);
	tui_draw(t);
	y = find_line("gpu-node-1  8 GPUs  util 75%");
	assert_int_equal(y, 3);
	for (x = 0; x < 100; x++)
		assert_int_equal(attr_at(y, x), A_REVERSE | A_BOLD);
	scr_close(&sc);
	tui_free(t);
}

/*
 * The GPU map scrolled into a node keeps the node's line on the first
 * row (after G the GPUs on screen had no node on it), and a click on
 * that row selects the node.
 */
static void
test_gpus_sticky_node(void **state)
{
	struct scr	 sc;
	struct tui	*t = new_ui("gpus", 14, 100);
	char		 line[1024];
	int		 i;

	(void)state;
	scr_open(&sc, 14, 100, 0);
	tui_key(t, 'G');
	tui_prepare(t);
	tui_draw(t);
	tui_screen_line(3, line, sizeof line);
	assert_non_null(strstr(line, "gpu-node-4  8 GPUs"));
	for (i = 0; i < 12; i++)
		tui_key(t, 'k');
	tui_prepare(t);
	tui_draw(t);
	/* Line 12 of node 3's 9 is gpu-4: its node on the first row. */
	tui_screen_line(3, line, sizeof line);
	assert_non_null(strstr(line, "gpu-node-3  8 GPUs  util 12%"));
	tui_screen_line(4, line, sizeof line);
	assert_non_null(strstr(line, "  gpu-4 "));
	scr_close(&sc);
	tui_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dumb_terminal),
		cmocka_unit_test(test_no_standing_note),
		cmocka_unit_test(test_status_expires),
		cmocka_unit_test(test_regex_error_kept),
		cmocka_unit_test(test_busy),
		cmocka_unit_test(test_too_small),
		cmocka_unit_test(test_warnings),
		cmocka_unit_test(test_ns_unknown),
		cmocka_unit_test(test_why_template),
		cmocka_unit_test(test_why_template_key),
		cmocka_unit_test(test_long_name),
		cmocka_unit_test(test_hidden_columns),
		cmocka_unit_test(test_sort_arrow),
		cmocka_unit_test(test_gpu_filter_messages),
		cmocka_unit_test(test_help_columns),
		cmocka_unit_test(test_mono),
		cmocka_unit_test(test_gpus_sticky_node),
	};

	setlocale(LC_CTYPE, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
