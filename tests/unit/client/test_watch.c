/*
 * test_watch.c: watches (kube/client/watch.c).  The line cutter is fed
 * directly (every split of a stream, bookmarks, ERROR 410, malformed
 * and over-long lines); the whole path runs against the canned-answer
 * server's streamed replies (events split across chunks, a clean end,
 * a cut stream, a 403, two watches at once, the wake-up).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cJSON.h>

#include "client-int.h"
#include "client.h"
#include "stub_server.h"
#include "tutil.h"
#include "xmalloc.h"

#define EV(type, name, rv) "{\"type\":\"" type "\",\"object\":{\"kind\":" \
	"\"ResourceClaim\",\"apiVersion\":\"resource.k8s.io/v1\"," \
	"\"metadata\":{\"name\":\"" name "\",\"namespace\":\"a\"," \
	"\"resourceVersion\":\"" rv "\"}}}\n"
#define BOOKMARK(rv) "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":" \
	"\"ResourceClaim\",\"apiVersion\":\"resource.k8s.io/v1\"," \
	"\"metadata\":{\"resourceVersion\":\"" rv "\"}}}\n"
#define GONE "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\"," \
	"\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\"," \
	"\"message\":\"too old resource version: 5 (1204)\",\"reason\":" \
	"\"Expired\",\"code\":410}}\n"
#define GONE_STATUS "{\"kind\":\"Status\",\"code\":410,\"reason\":" \
	"\"Gone\",\"message\":\"too old resource version\"}"
#define FORBIDDEN "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":" \
	"\"Failure\",\"message\":\"resourceclaims.resource.k8s.io is " \
	"forbidden: User \\\"x\\\" cannot watch resource \\\"resourceclaims" \
	"\\\"\",\"reason\":\"Forbidden\",\"code\":403}"

#define PATH	"/apis/resource.k8s.io/v1/resourceclaims"

struct wenv {
	struct stub_server	*s;
	char			*dir;
	struct kube_client	*c;
	struct kube_watch_set	*ws;
	struct dra_err		 err;
	struct tu_rec		 rec;
};

/* What one watch saw. */
struct seen {
	struct dra_buf	 events;	/* "ADDED a/x@5 " ... */
	int		 ended;
	int		 end_rc;
	char		 end_rv[64];
	char		 end_msg[DRA_ERR_MSG_MAX];
	int		 fail_on;	/* event number to fail on, 0 none */
	int		 n;
};

static void
wenv_open(struct wenv *e, const char *user_yaml)
{
	struct kube_client_opts	 o;
	char			*yaml, *path;

	memset(e, 0, sizeof *e);
	tu_rec_init(&e->rec);
	e->s = stub_start();
	e->dir = tu_tmpdir();
	tu_env_reset(e->dir);
	yaml = xasprintf("current-context: t\n"
	    "clusters: [{name: t, cluster: {server: \"%s\"}}]\n"
	    "users: [{name: u, user: %s}]\n"
	    "contexts: [{name: t, context: {cluster: t, user: u}},"
	    " {name: other, context: {cluster: t}}]\n", stub_url(e->s),
	    user_yaml != NULL ? user_yaml : "{}");
	path = tu_write(e->dir, "config", yaml, 0600);
	free(yaml);
	memset(&o, 0, sizeof o);
	o.kubeconfig = path;
	o.incluster_dir = e->dir;
	o.http_credentials = 1;
	o.log = tu_log;
	o.log_arg = &e->rec;
	o.log_level = 9;
	o.warn = tu_warn;
	o.warn_arg = &e->rec;
	e->c = kube_client_new(&o, &e->err);
	free(path);
	if (e->c == NULL)
		fail_msg("kube_client_new: %s", e->err.msg);
	e->ws = kube_watch_set_new(e->c);
}

static void
wenv_close(struct wenv *e)
{
	kube_watch_set_free(e->ws);
	assert_int_equal(stub_pending(e->s), 0);
	kube_client_free(e->c);
	stub_stop(e->s);
	tu_rec_release(&e->rec);
	tu_rmrf(e->dir);
	free(e->dir);
}

static void
seen_init(struct seen *sn)
{
	memset(sn, 0, sizeof *sn);
	dra_buf_init(&sn->events, 1 << 20);
}

static int
on_event(void *arg, enum kube_watch_type t, const struct cJSON *obj,
    struct dra_err *err)
{
	static const char	*names[] = { "?", "ADDED", "MODIFIED",
				    "DELETED", "BOOKMARK" };
	struct seen		*sn = arg;
	const cJSON		*meta, *name, *rv;

	meta = cJSON_GetObjectItemCaseSensitive(obj, "metadata");
	name = cJSON_GetObjectItemCaseSensitive(meta, "name");
	rv = cJSON_GetObjectItemCaseSensitive(meta, "resourceVersion");
	dra_buf_addf(&sn->events, "%s %s@%s ", names[t],
	    cJSON_IsString(name) ? name->valuestring : "-",
	    cJSON_IsString(rv) ? rv->valuestring : "-");
	if (++sn->n == sn->fail_on)
		return dra_err_set(err, KUBE_E_IO, "event %d refused", sn->n);
	return KUBE_OK;
}

static void
on_end(void *arg, int rc, const char *rv, const struct dra_err *err)
{
	struct seen	*sn = arg;

	sn->ended++;
	sn->end_rc = rc;
	snprintf(sn->end_rv, sizeof sn->end_rv, "%s", rv);
	snprintf(sn->end_msg, sizeof sn->end_msg, "%s", err->msg);
}

/* Poll until sn has ended (the cap is ctest's, not ours). */
static void
poll_until_end(struct wenv *e, struct seen *sn)
{
	while (!sn->ended)
		assert_int_equal(kube_watch_poll(e->ws, 100, &e->err), KUBE_OK);
}

static void
poll_until_ready(struct wenv *e, struct stub_stream *st)
{
	while (!stub_stream_ready(st))
		assert_int_equal(kube_watch_poll(e->ws, 20, &e->err), KUBE_OK);
}

/* Poll until sn holds want (as a prefix-free substring). */
static void
poll_until_events(struct wenv *e, struct seen *sn, const char *want)
{
	while (strcmp(dra_buf_str(&sn->events), want) != 0 && !sn->ended)
		assert_int_equal(kube_watch_poll(e->ws, 50, &e->err), KUBE_OK);
	assert_string_equal(dra_buf_str(&sn->events), want);
}

/*
 * The line cutter, fed directly.
 */

static const char stream3[] = EV("ADDED", "x", "6") EV("MODIFIED", "x", "7")
    BOOKMARK("9") EV("DELETED", "x", "10");

/* Every split of a stream into two feeds gives the same events. */
static void
test_feed_every_split(void **state)
{
	struct wenv		 e;
	struct seen		 sn;
	struct kube_watch	*w;
	size_t			 n = strlen(stream3), k;

	(void)state;
	wenv_open(&e, NULL);
	for (k = 0; k <= n; k++) {
		seen_init(&sn);
		w = kube_watch_add(e.ws, PATH, "5", on_event, on_end, &sn,
		    &e.err);
		assert_non_null(w);
		assert_string_equal(kube_watch_rv(w), "5");
		assert_int_equal(kube_watch_feed(w, stream3, k), KUBE_OK);
		assert_int_equal(kube_watch_feed(w, stream3 + k, n - k),
		    KUBE_OK);
		assert_string_equal(dra_buf_str(&sn.events),
		    "ADDED x@6 MODIFIED x@7 BOOKMARK -@9 DELETED x@10 ");
		assert_string_equal(kube_watch_rv(w), "10");
		kube_watch_cancel(e.ws, w);
		assert_int_equal(sn.ended, 0);	/* cancel: no end call */
		dra_buf_release(&sn.events);
	}
	/* byte by byte, with blank and CRLF lines between events */
	seen_init(&sn);
	w = kube_watch_add(e.ws, PATH, "5", on_event, on_end, &sn, &e.err);
	{
		static const char s2[] = "\n" EV("ADDED", "y", "11") "\r\n"
		    BOOKMARK("12");
		for (k = 0; k < sizeof s2 - 1; k++)
			assert_int_equal(kube_watch_feed(w, s2 + k, 1),
			    KUBE_OK);
	}
	assert_string_equal(dra_buf_str(&sn.events),
	    "ADDED y@11 BOOKMARK -@12 ");
	assert_string_equal(kube_watch_rv(w), "12");
	assert_int_equal(kube_watch_count(e.ws), 1);
	kube_watch_cancel(e.ws, w);
	assert_int_equal(kube_watch_count(e.ws), 0);
	dra_buf_release(&sn.events);
	wenv_close(&e);
}

/* ERROR 410, malformed lines, unknown types, the callback's error. */
static void
test_feed_errors(void **state)
{
	static const struct {
		const char	*stream;
		int		 rc;
		const char	*msg;		/* substring of err.msg */
		const char	*events;
	} cases[] = {
		{ EV("ADDED", "x", "6") GONE EV("ADDED", "z", "8"),
		    KUBE_E_GONE, "too old resource version: 5 (1204)",
		    "ADDED x@6 " },
		{ EV("ADDED", "x", "6") "{\"type\":\"ADDED\",\"object\":{\n",
		    KUBE_E_PARSE, "malformed json in watch of " PATH
		    " at byte ", "ADDED x@6 " },
		{ "{\"type\":\"RENAMED\",\"object\":{}}\n", KUBE_E_PARSE,
		    "unknown event type \"RENAMED\" at byte 0", "" },
		{ "{\"object\":{}}\n", KUBE_E_PARSE, "not a watch event",
		    "" },
		{ "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\","
		    "\"code\":500,\"message\":\"etcd is gone\"}}\n",
		    KUBE_E_API, "etcd is gone", "" },
		{ EV("ADDED", "x", "6") EV("ADDED", "y", "7")
		    EV("ADDED", "z", "8"), KUBE_E_IO, "event 2 refused",
		    "ADDED x@6 ADDED y@7 " },
	};
	struct wenv		 e;
	struct seen		 sn;
	struct kube_watch	*w;
	size_t			 i;
	int			 rc;

	(void)state;
	wenv_open(&e, NULL);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		seen_init(&sn);
		sn.fail_on = cases[i].rc == KUBE_E_IO ? 2 : 0;
		w = kube_watch_add(e.ws, PATH, "5", on_event, on_end, &sn,
		    &e.err);
		rc = kube_watch_feed(w, cases[i].stream,
		    strlen(cases[i].stream));
		assert_int_equal(rc, cases[i].rc);
		/* every later feed returns the same */
		assert_int_equal(kube_watch_feed(w, "\n", 1), cases[i].rc);
		assert_string_equal(dra_buf_str(&sn.events), cases[i].events);
		kube_watch_cancel(e.ws, w);
		dra_buf_release(&sn.events);
	}
	/* the malformed line's offset is in the stream, after event 1 */
	seen_init(&sn);
	w = kube_watch_add(e.ws, PATH, "5", on_event, on_end, &sn, &e.err);
	rc = kube_watch_feed(w, cases[1].stream, strlen(cases[1].stream));
	assert_int_equal(rc, KUBE_E_PARSE);
	kube_watch_cancel(e.ws, w);
	dra_buf_release(&sn.events);
	wenv_close(&e);
}

/* A line longer than the set's limit: KUBE_E_TOOBIG, even in pieces. */
static void
test_feed_toobig(void **state)
{
	struct wenv		 e;
	struct seen		 sn;
	struct kube_watch	*w;
	char			 big[200];
	const char		*ev = EV("ADDED", "x", "6");
	size_t			 evlen = strlen(ev) - 1;	/* no \n */

	(void)state;
	wenv_open(&e, NULL);
	/* exactly the limit passes */
	kube_watch_set_limits(e.ws, evlen, 0);
	seen_init(&sn);
	w = kube_watch_add(e.ws, PATH, "5", on_event, on_end, &sn, &e.err);
	assert_int_equal(kube_watch_feed(w, ev, 10), KUBE_OK);
	assert_int_equal(kube_watch_feed(w, ev + 10, evlen + 1 - 10),
	    KUBE_OK);
	assert_string_equal(dra_buf_str(&sn.events), "ADDED x@6 ");
	kube_watch_cancel(e.ws, w);
	dra_buf_release(&sn.events);

	/* one byte more does not, whether it comes whole or in pieces */
	kube_watch_set_limits(e.ws, evlen - 1, 0);
	seen_init(&sn);
	w = kube_watch_add(e.ws, PATH, "5", on_event, on_end, &sn, &e.err);
	assert_int_equal(kube_watch_feed(w, ev, strlen(ev)), KUBE_E_TOOBIG);
	kube_watch_cancel(e.ws, w);
	dra_buf_release(&sn.events);
	seen_init(&sn);
	w = kube_watch_add(e.ws, PATH, "5", on_event, on_end, &sn, &e.err);
	memset(big, 'a', sizeof big);
	assert_int_equal(kube_watch_feed(w, big, 50), KUBE_OK);
	assert_int_equal(kube_watch_feed(w, big, 150), KUBE_E_TOOBIG);
	assert_string_equal(dra_buf_str(&sn.events), "");
	kube_watch_cancel(e.ws, w);
	dra_buf_release(&sn.events);
	wenv_close(&e);
}

/*
 * The whole path, against the canned server.
 */

/* Events split across chunks, a bookmark, the server's clean end. */
static void
test_stream_clean_end(void **state)
{
	struct wenv			 e;
	struct seen			 sn;
	struct stub_stream		*st;
	const struct stub_request	*r;
	const char			*ev = EV("ADDED", "x", "6");

	(void)state;
	wenv_open(&e, "{token: sekrit}");
	seen_init(&sn);
	st = stub_reply_stream(e.s, 200, "Content-Type: application/json\r\n"
	    "Warning: 299 - \"watch warned\"\r\n");
	assert_non_null(kube_watch_add(e.ws, PATH, "5", on_event, on_end, &sn,
	    &e.err));
	poll_until_ready(&e, st);
	r = stub_request(e.s, 0);
	assert_string_equal(r->method, "GET");
	assert_string_equal(r->target, PATH "?watch=1&allowWatchBookmarks="
	    "true&resourceVersion=5&timeoutSeconds=300");
	assert_string_equal(stub_header(r, "Authorization"), "Bearer sekrit");

	/* one event in three chunks */
	stub_stream_send(st, ev, 7);
	assert_int_equal(kube_watch_poll(e.ws, 50, &e.err), KUBE_OK);
	stub_stream_send(st, ev + 7, 20);
	assert_int_equal(kube_watch_poll(e.ws, 50, &e.err), KUBE_OK);
	stub_stream_send(st, ev + 27, strlen(ev) - 27);
	poll_until_events(&e, &sn, "ADDED x@6 ");
	/* two events and a bookmark in one chunk */
	stub_stream_send(st, EV("MODIFIED", "x", "7") BOOKMARK("9")
	    EV("ADDED", "y", "10"), strlen(EV("MODIFIED", "x", "7")
	    BOOKMARK("9") EV("ADDED", "y", "10")));
	poll_until_events(&e, &sn, "ADDED x@6 MODIFIED x@7 BOOKMARK -@9 "
	    "ADDED y@10 ");
	stub_stream_send(st, BOOKMARK("12"), strlen(BOOKMARK("12")));
	stub_stream_end(st, 1);
	poll_until_end(&e, &sn);
	assert_int_equal(sn.ended, 1);
	assert_int_equal(sn.end_rc, KUBE_OK);
	assert_string_equal(sn.end_rv, "12");	/* resume from here */
	assert_string_equal(sn.end_msg, "");
	assert_int_equal(kube_watch_count(e.ws), 0);
	/* redacted logs, the warning passed on once */
	assert_non_null(strstr(dra_buf_str(&e.rec.log), "GET " "http"));
	assert_non_null(strstr(dra_buf_str(&e.rec.log), "200 OK in "));
	assert_non_null(strstr(dra_buf_str(&e.rec.log),
	    "watch ended after 5 events"));
	assert_non_null(strstr(dra_buf_str(&e.rec.log),
	    "Authorization: Bearer <redacted>"));
	assert_null(strstr(dra_buf_str(&e.rec.log), "sekrit"));
	assert_string_equal(dra_buf_str(&e.rec.warnings), "watch warned\n");
	dra_buf_release(&sn.events);
	wenv_close(&e);
}

/* The end callback may start the next watch (resume from its rv). */
struct resume {
	struct wenv	*e;
	struct seen	 first;
	struct seen	 second;
};

static int
on_event_first(void *arg, enum kube_watch_type t, const struct cJSON *obj,
    struct dra_err *err)
{
	struct resume	*rs = arg;

	return on_event(&rs->first, t, obj, err);
}

static void
on_end_resume(void *arg, int rc, const char *rv, const struct dra_err *err)
{
	struct resume	*rs = arg;

	on_end(&rs->first, rc, rv, err);
	assert_non_null(kube_watch_add(rs->e->ws, PATH, rv, on_event, on_end,
	    &rs->second, &rs->e->err));
}

static void
test_stream_resume(void **state)
{
	struct wenv			 e;
	struct resume			 rs;
	struct stub_stream		*st1, *st2;
	const struct stub_request	*r;

	(void)state;
	wenv_open(&e, NULL);
	rs.e = &e;
	seen_init(&rs.first);
	seen_init(&rs.second);
	st1 = stub_reply_stream(e.s, 200, NULL);
	st2 = stub_reply_stream(e.s, 200, NULL);
	assert_non_null(kube_watch_add(e.ws, PATH, "5", on_event_first,
	    on_end_resume, &rs, &e.err));
	poll_until_ready(&e, st1);
	stub_stream_send(st1, BOOKMARK("33"), strlen(BOOKMARK("33")));
	stub_stream_end(st1, 1);
	poll_until_ready(&e, st2);
	r = stub_request(e.s, 1);
	assert_string_equal(r->target, PATH "?watch=1&allowWatchBookmarks="
	    "true&resourceVersion=33&timeoutSeconds=300");
	assert_int_equal(rs.first.end_rc, KUBE_OK);
	stub_stream_send(st2, GONE, strlen(GONE));
	poll_until_end(&e, &rs.second);
	assert_int_equal(rs.second.end_rc, KUBE_E_GONE);
	assert_string_equal(rs.second.end_rv, "33");
	assert_non_null(strstr(rs.second.end_msg,
	    "too old resource version"));
	/* the transfer was stopped from the write callback */
	stub_stream_end(st2, 1);
	dra_buf_release(&rs.first.events);
	dra_buf_release(&rs.second.events);
	wenv_close(&e);
}

/* A stream cut without its last chunk is a server's end: resume. */
static void
test_stream_cut(void **state)
{
	struct wenv		 e;
	struct seen		 sn;
	struct stub_stream	*st;
	const char		*ev = EV("ADDED", "x", "6");

	(void)state;
	wenv_open(&e, NULL);
	/* after a whole event */
	seen_init(&sn);
	st = stub_reply_stream(e.s, 200, NULL);
	kube_watch_add(e.ws, PATH, "5", on_event, on_end, &sn, &e.err);
	poll_until_ready(&e, st);
	stub_stream_send(st, ev, strlen(ev));
	poll_until_events(&e, &sn, "ADDED x@6 ");
	stub_stream_end(st, 0);
	poll_until_end(&e, &sn);
	assert_int_equal(sn.end_rc, KUBE_OK);
	assert_string_equal(sn.end_rv, "6");
	dra_buf_release(&sn.events);

	/* inside an event: the half event is dropped, rv stays */
	seen_init(&sn);
	st = stub_reply_stream(e.s, 200, NULL);
	kube_watch_add(e.ws, PATH, "6", on_event, on_end, &sn, &e.err);
	poll_until_ready(&e, st);
	stub_stream_send(st, ev, 20);
	assert_int_equal(kube_watch_poll(e.ws, 50, &e.err), KUBE_OK);
	stub_stream_end(st, 0);
	poll_until_end(&e, &sn);
	assert_int_equal(sn.end_rc, KUBE_OK);
	assert_string_equal(sn.end_rv, "6");
	assert_string_equal(dra_buf_str(&sn.events), "");
	assert_non_null(strstr(dra_buf_str(&e.rec.log),
	    "the stream ended inside an event"));
	dra_buf_release(&sn.events);
	wenv_close(&e);
}

/* HTTP errors are mapped as kube_client_get maps them. */
static void
test_stream_http_errors(void **state)
{
	struct wenv	e;
	struct seen	sn;

	(void)state;
	wenv_open(&e, NULL);
	seen_init(&sn);
	stub_reply_json(e.s, 403, FORBIDDEN);
	kube_watch_add(e.ws, PATH, "5", on_event, on_end, &sn, &e.err);
	poll_until_end(&e, &sn);
	assert_int_equal(sn.end_rc, KUBE_E_FORBIDDEN);
	assert_string_equal(sn.end_msg, "resourceclaims.resource.k8s.io is "
	    "forbidden: User \"x\" cannot watch resource \"resourceclaims\"");
	assert_string_equal(sn.end_rv, "5");
	dra_buf_release(&sn.events);

	seen_init(&sn);
	/* (closing, so the next watch needs a new connection) */
	stub_reply(e.s, 410, "Content-Type: application/json\r\n"
	    "Connection: close\r\n", GONE_STATUS, strlen(GONE_STATUS));
	kube_watch_add(e.ws, PATH, "5", on_event, on_end, &sn, &e.err);
	poll_until_end(&e, &sn);
	assert_int_equal(sn.end_rc, KUBE_E_GONE);
	dra_buf_release(&sn.events);

	/* nobody listening: a transport error naming the URL */
	seen_init(&sn);
	stub_reply_raw(e.s, "", 0, 1);
	kube_watch_add(e.ws, PATH, "5", on_event, on_end, &sn, &e.err);
	poll_until_end(&e, &sn);
	assert_int_equal(sn.end_rc, KUBE_E_CONNECT);
	assert_non_null(strstr(sn.end_msg, "get http://127.0.0.1:"));
	dra_buf_release(&sn.events);
	wenv_close(&e);
}

/* Two watches at once, each event to its own callback. */
static void
test_stream_two(void **state)
{
	struct wenv			 e;
	struct seen			 a, b, *by_req[2];
	struct stub_stream		*st[2];
	const struct stub_request	*r;
	int				 i;

	(void)state;
	wenv_open(&e, NULL);
	seen_init(&a);
	seen_init(&b);
	st[0] = stub_reply_stream(e.s, 200, NULL);
	st[1] = stub_reply_stream(e.s, 200, NULL);
	kube_watch_add(e.ws, PATH, "5", on_event, on_end, &a, &e.err);
	kube_watch_add(e.ws, "/api/v1/pods", "7", on_event, on_end, &b,
	    &e.err);
	assert_int_equal(kube_watch_count(e.ws), 2);
	poll_until_ready(&e, st[0]);
	poll_until_ready(&e, st[1]);
	/* replies go out in the order requests arrived */
	for (i = 0; i < 2; i++) {
		r = stub_request(e.s, (size_t)i);
		by_req[i] = strncmp(r->target, PATH, strlen(PATH)) == 0 ?
		    &a : &b;
	}
	assert_ptr_not_equal(by_req[0], by_req[1]);
	for (i = 0; i < 2; i++) {
		if (by_req[i] == &a)
			stub_stream_send(st[i], EV("ADDED", "c", "6"),
			    strlen(EV("ADDED", "c", "6")));
		else
			stub_stream_send(st[i], EV("DELETED", "p", "8"),
			    strlen(EV("DELETED", "p", "8")));
	}
	poll_until_events(&e, &a, "ADDED c@6 ");
	poll_until_events(&e, &b, "DELETED p@8 ");
	stub_stream_end(st[0], 1);
	stub_stream_end(st[1], 1);
	poll_until_end(&e, &a);
	poll_until_end(&e, &b);
	assert_string_equal(a.end_rv, "6");
	assert_string_equal(b.end_rv, "8");
	dra_buf_release(&a.events);
	dra_buf_release(&b.events);
	wenv_close(&e);
}

static void *
wake_later(void *arg)
{
	struct kube_watch_set	*ws = arg;
	struct timespec		 ts = { 0, 100 * 1000000L };

	nanosleep(&ts, NULL);
	kube_watch_wakeup(ws);
	return NULL;
}

/* A poll waiting with nothing to do returns on a wake-up. */
static void
test_wakeup(void **state)
{
	struct wenv	e;
	struct timespec	t0, t1;
	pthread_t	th;
	double		secs;

	(void)state;
	wenv_open(&e, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(pthread_create(&th, NULL, wake_later, e.ws), 0);
	/* ten minutes unless woken */
	assert_int_equal(kube_watch_poll(e.ws, 600000, &e.err), KUBE_OK);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	pthread_join(th, NULL);
	secs = (double)(t1.tv_sec - t0.tv_sec) +
	    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	assert_true(secs < 300);
	/* and without watches, poll still waits: 0 ms does not */
	assert_int_equal(kube_watch_poll(e.ws, 0, &e.err), KUBE_OK);
	wenv_close(&e);
}

/* Contexts of the merged kubeconfig. */
static void
test_contexts(void **state)
{
	struct wenv		 e;
	const char *const	*names;
	size_t			 n;

	(void)state;
	wenv_open(&e, NULL);
	names = kube_client_contexts(e.c, &n);
	assert_int_equal(n, 2);
	assert_string_equal(names[0], "t");
	assert_string_equal(names[1], "other");
	assert_null(names[2]);
	wenv_close(&e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_feed_every_split),
		cmocka_unit_test(test_feed_errors),
		cmocka_unit_test(test_feed_toobig),
		cmocka_unit_test(test_stream_clean_end),
		cmocka_unit_test(test_stream_resume),
		cmocka_unit_test(test_stream_cut),
		cmocka_unit_test(test_stream_http_errors),
		cmocka_unit_test(test_stream_two),
		cmocka_unit_test(test_wakeup),
		cmocka_unit_test(test_contexts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
