/*
 * test_http.c: HTTP behaviour against the canned-response server:
 * headers, credentials, retries with Retry-After (the sleep is
 * recorded, never slept), Status errors, Warning headers, verbose
 * logging and its redaction, tls-server-name through connect-to,
 * proxy-url, path prefixes, size limits and transport errors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client-int.h"
#include "client.h"
#include "stub_server.h"
#include "tutil.h"
#include "xmalloc.h"

struct henv {
	struct stub_server	*s;
	char			*dir;
	struct kube_client	*c;
	struct tu_rec		 rec;
	struct dra_buf		 out;
	struct dra_err		 err;
};

/*
 * A client for the stub server.  cluster_extra and user are YAML lines
 * (indented for "cluster:" and "user:"); server_suffix is appended to
 * the server URL; server replaces it entirely when not NULL.
 */
static void
henv_open(struct henv *h, const char *cluster_extra, const char *user,
    const char *server, int http_creds, int log_level)
{
	struct kube_client_opts	 o;
	char			*yaml, *path;

	memset(h, 0, sizeof *h);
	h->s = stub_start();
	h->dir = tu_tmpdir();
	tu_env_reset(h->dir);
	yaml = xasprintf("current-context: t\n"
	    "clusters:\n- name: t\n  cluster:\n    server: %s\n%s"
	    "users:\n- name: u\n  user:\n%s"
	    "contexts:\n- name: t\n  context: {cluster: t, user: u}\n",
	    server != NULL ? server : stub_url(h->s),
	    cluster_extra != NULL ? cluster_extra : "",
	    user != NULL ? user : "    {}\n");
	free(tu_write(h->dir, "tok", "from-file\n", 0600));
	path = tu_write(h->dir, "config", yaml, 0600);
	free(yaml);
	tu_rec_init(&h->rec);
	memset(&o, 0, sizeof o);
	o.kubeconfig = path;
	o.log = tu_log;
	o.log_arg = &h->rec;
	o.log_level = log_level;
	o.warn = tu_warn;
	o.warn_arg = &h->rec;
	o.sleep = tu_sleep;
	o.sleep_arg = &h->rec;
	o.http_credentials = http_creds;
	o.incluster_dir = h->dir;
	o.stdin_mode = KUBE_STDIN_NONE;
	h->c = kube_client_new(&o, &h->err);
	free(path);
	if (h->c == NULL)
		fail_msg("kube_client_new: %s", h->err.msg);
	dra_buf_init(&h->out, 1 << 20);
}

static void
henv_close(struct henv *h)
{
	assert_int_equal(stub_pending(h->s), 0);
	kube_client_free(h->c);
	stub_stop(h->s);
	tu_rec_release(&h->rec);
	dra_buf_release(&h->out);
	tu_rmrf(h->dir);
	free(h->dir);
}

static const struct stub_request *
req(struct henv *h, size_t i)
{
	const struct stub_request	*r = stub_request(h->s, i);

	if (r == NULL)
		fail_msg("no request %zu", i);
	return r;
}

/* What every request carries; a body handed back as is. */
static void
test_basic_get(void **state)
{
	struct henv			 h;
	const struct stub_request	*r;
	const char			*log, *p;
	char				*want;

	(void)state;
	henv_open(&h, NULL, NULL, NULL, 0, 6);
	stub_reply_json(h.s, 200, "{\"major\":\"1\"}");
	assert_int_equal(kube_client_get(h.c, "/version?x=1", &h.out, &h.err),
	    KUBE_OK);
	assert_string_equal(dra_buf_str(&h.out), "{\"major\":\"1\"}");
	r = req(&h, 0);
	assert_string_equal(r->method, "GET");
	assert_string_equal(r->target, "/version?x=1");
	assert_string_equal(stub_header(r, "User-Agent"), "kubectl-dra/"
	    DRA_VERSION);
	assert_string_equal(stub_header(r, "Accept"), "application/json");
	assert_non_null(strstr(stub_header(r, "Accept-Encoding"), "gzip"));
	assert_null(stub_header(r, "Authorization"));
	want = xasprintf("%s:%d", "127.0.0.1", stub_port(h.s));
	assert_string_equal(stub_header(r, "Host"), want);
	free(want);
	/* level 6: "GET URL 200 OK in N ms" */
	log = dra_buf_str(&h.rec.log);
	want = xasprintf("GET %s/version?x=1 200 OK in ", stub_url(h.s));
	p = strstr(log, want);
	if (p == NULL)
		fail_msg("log lacks \"%s\":\n%s", want, log);
	p += strlen(want);
	assert_true(*p >= '0' && *p <= '9');
	assert_non_null(strstr(p, " ms\n"));
	free(want);
	/* no header lines below level 8 */
	assert_null(strstr(log, "Request Headers"));
	henv_close(&h);
}

/* gzip bodies are decoded; disable-compression sends no encoding. */
static void
test_compression(void **state)
{
	static const char gz[] = "\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\x03"
	    "\xab\x56\x4a\xce\xcf\x2d\x28\x4a\x2d\x2e\x4e\x4d\x51\xb2\x2a\x29"
	    "\x2a\x4d\xad\x05\x00\xf1\xea\x39\x95\x13\x00\x00\x00";
	struct henv	h;

	(void)state;
	henv_open(&h, NULL, NULL, NULL, 0, 0);
	stub_reply(h.s, 200, "Content-Type: application/json\r\n"
	    "Content-Encoding: gzip\r\n", gz, sizeof gz - 1);
	assert_int_equal(kube_client_get(h.c, "/x", &h.out, &h.err), KUBE_OK);
	assert_string_equal(dra_buf_str(&h.out), "{\"compressed\":true}");
	henv_close(&h);

	henv_open(&h, "    disable-compression: true\n", NULL, NULL, 0, 0);
	stub_reply_json(h.s, 200, "{}");
	assert_int_equal(kube_client_get(h.c, "/x", &h.out, &h.err), KUBE_OK);
	assert_null(stub_header(req(&h, 0), "Accept-Encoding"));
	henv_close(&h);
}

/* Credentials and impersonation headers (client-go round_trippers.go). */
static void
test_credentials(void **state)
{
	static const struct {
		const char	*user;
		int		 http_creds;
		const char	*authorization;	/* NULL: none sent */
	} t[] = {
		{ "    token: abc123\n", 1, "Bearer abc123" },
		/* client-go sends no credentials over plain http */
		{ "    token: abc123\n", 0, NULL },
		{ "    username: alice\n    password: s3cret\n", 1,
		    "Basic YWxpY2U6czNjcmV0" },
		{ "    tokenFile: tok\n", 1, "Bearer from-file" },
	};
	struct henv			 h;
	const struct stub_request	*r;
	size_t				 i;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		henv_open(&h, NULL, t[i].user, NULL, t[i].http_creds, 0);
		stub_reply_json(h.s, 200, "{}");
		assert_int_equal(kube_client_get(h.c, "/api", &h.out, &h.err),
		    KUBE_OK);
		r = req(&h, 0);
		if (t[i].authorization == NULL)
			assert_null(stub_header(r, "Authorization"));
		else
			assert_string_equal(stub_header(r, "Authorization"),
			    t[i].authorization);
		henv_close(&h);
	}

	henv_open(&h, NULL, "    as: jane\n    as-uid: \"7\"\n"
	    "    as-groups: [devs, ops]\n"
	    "    as-user-extra: {\"reason/why\": [oncall, audit]}\n",
	    NULL, 0, 0);
	stub_reply_json(h.s, 200, "{}");
	assert_int_equal(kube_client_get(h.c, "/api", &h.out, &h.err),
	    KUBE_OK);
	r = req(&h, 0);
	assert_string_equal(stub_header(r, "Impersonate-User"), "jane");
	assert_string_equal(stub_header(r, "Impersonate-Uid"), "7");
	assert_int_equal(stub_header_count(r, "Impersonate-Group"), 2);
	assert_int_equal(stub_header_count(r, "Impersonate-Extra-reason%2Fwhy"),
	    2);
	henv_close(&h);
}

/* The tokenFile is re-read when its copy is a minute old. */
static time_t	fake_now;

static time_t
now_fn(void)
{
	return fake_now;
}

static void
test_token_file_reread(void **state)
{
	struct henv	h;

	(void)state;
	henv_open(&h, NULL, "    tokenFile: tok\n", NULL, 1, 0);
	free(tu_write(h.dir, "tok", "one\n", 0600));
	fake_now = 1000;
	h.c->now = now_fn;
	stub_reply_json(h.s, 200, "{}");
	stub_reply_json(h.s, 200, "{}");
	stub_reply_json(h.s, 200, "{}");
	assert_int_equal(kube_client_get(h.c, "/a", &h.out, &h.err), KUBE_OK);
	free(tu_write(h.dir, "tok", "two\n", 0600));
	fake_now = 1059;
	assert_int_equal(kube_client_get(h.c, "/a", &h.out, &h.err), KUBE_OK);
	fake_now = 1060;
	assert_int_equal(kube_client_get(h.c, "/a", &h.out, &h.err), KUBE_OK);
	assert_string_equal(stub_header(req(&h, 0), "Authorization"),
	    "Bearer one");
	assert_string_equal(stub_header(req(&h, 1), "Authorization"),
	    "Bearer one");
	assert_string_equal(stub_header(req(&h, 2), "Authorization"),
	    "Bearer two");
	henv_close(&h);
}

/* Retries of reads (rest/with_retry.go) with the sleeps recorded. */
static void
test_retries(void **state)
{
	static const struct {
		const char	*name;
		int		 status[3];
		const char	*retry_after[3];
		int		 want_rc;
		int		 want_requests;
		long		 want_sleeps[3];
		int		 nsleeps;
	} t[] = {
		{ "429 Retry-After 3", { 429, 200 }, { "3" }, KUBE_OK, 2,
		    { 3000 }, 1 },
		{ "503 without Retry-After", { 503, 503, 200 }, { NULL },
		    KUBE_OK, 3, { 1000, 1000 }, 2 },
		{ "500 with Retry-After", { 500, 200 }, { "2" }, KUBE_OK, 2,
		    { 2000 }, 1 },
		{ "500 without Retry-After: no retry", { 500 }, { NULL },
		    KUBE_E_API, 1, { 0 }, 0 },
		{ "Retry-After capped at 30 s", { 429, 200 }, { "120" },
		    KUBE_OK, 2, { 30000 }, 1 },
		{ "Retry-After 0 waits 1 s", { 504, 200 }, { "0" }, KUBE_OK, 2,
		    { 1000 }, 1 },
		{ "404 is final", { 404 }, { "5" }, KUBE_E_NOT_FOUND, 1,
		    { 0 }, 0 },
	};
	struct henv	 h;
	size_t		 i, j;
	char		*hdr;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		henv_open(&h, NULL, NULL, NULL, 0, 6);
		for (j = 0; j < 3 && t[i].status[j] != 0; j++) {
			hdr = t[i].retry_after[j] != NULL ?
			    xasprintf("Retry-After: %s\r\n",
			    t[i].retry_after[j]) : xstrdup("");
			stub_reply(h.s, t[i].status[j], hdr,
			    t[i].status[j] == 200 ? "{\"done\":1}" : "boom",
			    t[i].status[j] == 200 ? 10 : 4);
			free(hdr);
		}
		if (kube_client_get(h.c, "/r", &h.out, &h.err) !=
		    t[i].want_rc)
			fail_msg("%s: rc %d: %s", t[i].name, h.err.code,
			    h.err.msg);
		if ((int)stub_nrequests(h.s) != t[i].want_requests)
			fail_msg("%s: %zu requests", t[i].name,
			    stub_nrequests(h.s));
		if (h.rec.nsleeps != t[i].nsleeps)
			fail_msg("%s: %d sleeps", t[i].name, h.rec.nsleeps);
		for (j = 0; j < (size_t)t[i].nsleeps; j++)
			if (h.rec.sleeps[j] != t[i].want_sleeps[j])
				fail_msg("%s: sleep %zu is %ld ms", t[i].name,
				    j, h.rec.sleeps[j]);
		if (t[i].want_rc == KUBE_OK)
			assert_string_equal(dra_buf_str(&h.out),
			    "{\"done\":1}");
		henv_close(&h);
	}

	/* at most 10 tries */
	henv_open(&h, NULL, NULL, NULL, 0, 0);
	for (i = 0; i < 10; i++)
		stub_reply(h.s, 429, "Retry-After: 1\r\n", "", 0);
	assert_int_equal(kube_client_get(h.c, "/r", &h.out, &h.err),
	    KUBE_E_API);
	assert_int_equal(stub_nrequests(h.s), 10);
	assert_int_equal(h.rec.nsleeps, 9);
	assert_int_equal(h.err.http_status, 429);
	assert_string_equal(h.err.reason, "TooManyRequests");
	assert_string_equal(h.err.msg, "the server has received too many "
	    "requests and has asked us to try again later (get /r)");
	henv_close(&h);

	/* writes are not retried */
	henv_open(&h, NULL, NULL, NULL, 0, 0);
	stub_reply(h.s, 503, "Retry-After: 1\r\n", "", 0);
	assert_int_equal(kube_client_request(h.c, "PATCH", "/p",
	    "application/apply-patch+yaml", "a: b", 4, &h.out, &h.err),
	    KUBE_E_API);
	assert_int_equal(stub_nrequests(h.s), 1);
	assert_int_equal(h.rec.nsleeps, 0);
	henv_close(&h);

	/* a dropped connection is retried for reads */
	henv_open(&h, NULL, NULL, NULL, 0, 0);
	stub_reply_raw(h.s, "", 0, 1);
	stub_reply_json(h.s, 200, "{}");
	assert_int_equal(kube_client_get(h.c, "/r", &h.out, &h.err), KUBE_OK);
	assert_int_equal(stub_nrequests(h.s), 2);
	assert_int_equal(h.rec.nsleeps, 1);
	henv_close(&h);
}

/* Failed calls: Status bodies and client-go's generic messages. */
static void
test_status_errors(void **state)
{
	static const struct {
		int		 status;
		const char	*body;
		int		 rc;
		const char	*reason;
		const char	*msg;
	} t[] = {
		{ 403, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\""
		    ":{},\"status\":\"Failure\",\"message\":\"resourceclaims."
		    "resource.k8s.io is forbidden: User \\\"x\\\" cannot list "
		    "resource \\\"resourceclaims\\\" in API group \\\"resource."
		    "k8s.io\\\" at the cluster scope\",\"reason\":"
		    "\"Forbidden\","
		    "\"details\":{\"group\":\"resource.k8s.io\",\"kind\":"
		    "\"resourceclaims\"},\"code\":403}", KUBE_E_FORBIDDEN,
		    "Forbidden", "resourceclaims.resource.k8s.io is forbidden: "
		    "User \"x\" cannot list resource \"resourceclaims\" in API "
		    "group \"resource.k8s.io\" at the cluster scope" },
		{ 404, "{\"kind\":\"Status\",\"status\":\"Failure\","
		    "\"message\":"
		    "\"resourceslices.resource.k8s.io \\\"s1\\\" not found\","
		    "\"reason\":\"NotFound\",\"code\":404}", KUBE_E_NOT_FOUND,
		    "NotFound", "resourceslices.resource.k8s.io \"s1\" not "
		    "found" },
		{ 404, "404 page not found\n", KUBE_E_NOT_FOUND, "NotFound",
		    "the server could not find the requested resource (get "
		    "/apis/x)" },
		{ 409, "", KUBE_E_CONFLICT, "Conflict",
		    "the server reported a conflict (get /apis/x)" },
		{ 410, "{\"kind\":\"Status\",\"message\":\"too old\","
		    "\"reason\":"
		    "\"Expired\",\"code\":410}", KUBE_E_GONE, "Expired",
		    "too old" },
		{ 401, "", KUBE_E_AUTH, "Unauthorized", "the server has asked "
		    "for the client to provide credentials (get /apis/x)" },
		{ 500, "<html>\n<b>oops</b></html>", KUBE_E_API,
		    "InternalError", "an error on the server (\"<html> "
		    "<b>oops</b></html>\") has prevented the request from "
		    "succeeding (get /apis/x)" },
		{ 502, "", KUBE_E_API, "InternalError",
		    "an error on the server "
		    "(\"unknown\") has prevented the request from succeeding "
		    "(get /apis/x)" },
		{ 418, "{not json", KUBE_E_API, "", "the server responded with "
		    "the status code 418 but did not return more information "
		    "(get /apis/x)" },
	};
	struct henv	h;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		henv_open(&h, NULL, NULL, NULL, 0, 0);
		dra_buf_adds(&h.out, "kept");
		stub_reply(h.s, t[i].status, NULL, t[i].body,
		    strlen(t[i].body));
		assert_int_equal(kube_client_get(h.c, "/apis/x", &h.out,
		    &h.err), t[i].rc);
		assert_int_equal(h.err.code, t[i].rc);
		assert_int_equal(h.err.http_status, t[i].status);
		assert_string_equal(h.err.reason, t[i].reason);
		assert_string_equal(h.err.msg, t[i].msg);
		/* the caller's buffer is left as it was */
		assert_string_equal(dra_buf_str(&h.out), "kept");
		henv_close(&h);
	}
}

/* Warning headers: the text of each, once per client. */
static void
test_warnings(void **state)
{
	struct henv	h;

	(void)state;
	henv_open(&h, NULL, NULL, NULL, 0, 0);
	stub_reply(h.s, 200, "Warning: 299 - \"resource.k8s.io/v1beta1 is "
	    "deprecated\"\r\nWarning: 299 - \"a \\\"quoted\\\" word\", "
	    "299 - \"second\" \"Mon, 01 Jan 2026 00:00:00 GMT\"\r\n"
	    "Warning: 199 - \"misc\"\r\n", "{}", 2);
	stub_reply(h.s, 200, "Warning: 299 - \"second\"\r\n"
	    "Warning: not a warning\r\n", "{}", 2);
	assert_int_equal(kube_client_get(h.c, "/a", &h.out, &h.err), KUBE_OK);
	assert_int_equal(kube_client_get(h.c, "/a", &h.out, &h.err), KUBE_OK);
	assert_string_equal(dra_buf_str(&h.rec.warnings),
	    "resource.k8s.io/v1beta1 is deprecated\n"
	    "a \"quoted\" word\n"
	    "second\n"
	    "not a warning\n");
	henv_close(&h);
}

/* Verbose logs: headers at 8, credentials never. */
static void
test_log_redaction(void **state)
{
	static const struct {
		const char	*user;
		const char	*shown;
		const char	*secret[2];
	} t[] = {
		{ "    token: tok-SECRET-1\n",
		    "Authorization: Bearer <redacted>",
		    { "tok-SECRET-1", NULL } },
		{ "    username: bob\n    password: pw-SECRET-2\n",
		    "Authorization: Basic <redacted>",
		    { "pw-SECRET-2", "Ym9iOnB3LVNFQ1JFVC0y" } },
	};
	struct henv	 h;
	const char	*log;
	size_t		 i, j;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		henv_open(&h, NULL, t[i].user, NULL, 1, 9);
		stub_reply(h.s, 200, "X-Test: yes\r\n", "{\"body\":1}", 10);
		stub_reply_json(h.s, 401, "{\"kind\":\"Status\",\"message\":"
		    "\"Unauthorized\",\"code\":401}");
		assert_int_equal(kube_client_get(h.c, "/a", &h.out, &h.err),
		    KUBE_OK);
		assert_int_equal(kube_client_get(h.c, "/a", &h.out, &h.err),
		    KUBE_E_AUTH);
		log = dra_buf_str(&h.rec.log);
		assert_non_null(strstr(log, "Request Headers:\n"));
		assert_non_null(strstr(log, t[i].shown));
		assert_non_null(strstr(log, "    Accept: application/json\n"));
		assert_non_null(strstr(log, "Response Headers:\n"));
		assert_non_null(strstr(log, "    X-Test: yes\n"));
		assert_non_null(strstr(log, "Response Body: {\"body\":1}\n"));
		for (j = 0; j < 2 && t[i].secret[j] != NULL; j++) {
			if (strstr(log, t[i].secret[j]) != NULL)
				fail_msg("log shows %s:\n%s", t[i].secret[j],
				    log);
			assert_null(strstr(h.err.msg, t[i].secret[j]));
		}
		henv_close(&h);
	}
}

/* tls-server-name: URL host for SNI, connection to the real server. */
static void
test_tls_server_name(void **state)
{
	struct henv			 h;
	const struct stub_request	*r;
	char				*want;

	(void)state;
	henv_open(&h, "    tls-server-name: kubernetes.invalid\n", NULL, NULL,
	    0, 6);
	stub_reply_json(h.s, 200, "{}");
	assert_int_equal(kube_client_get(h.c, "/version", &h.out, &h.err),
	    KUBE_OK);
	r = req(&h, 0);
	assert_string_equal(r->target, "/version");
	want = xasprintf("127.0.0.1:%d", stub_port(h.s));
	assert_string_equal(stub_header(r, "Host"), want);
	assert_int_equal(stub_header_count(r, "Host"), 1);
	free(want);
	/* the log shows the server as configured */
	want = xasprintf("GET %s/version 200 OK", stub_url(h.s));
	assert_non_null(strstr(dra_buf_str(&h.rec.log), want));
	free(want);
	assert_string_equal(kube_client_server(h.c), stub_url(h.s));
	henv_close(&h);
}

/* proxy-url: the request goes to the proxy with an absolute URL. */
static void
test_proxy_and_prefix(void **state)
{
	struct henv	 h;
	char		*extra;
	struct stub_server *p;

	(void)state;
	p = stub_start();
	extra = xasprintf("    proxy-url: %s\n", stub_url(p));
	henv_open(&h, extra, NULL, "http://api.invalid:6443", 0, 0);
	free(extra);
	stub_reply_json(p, 200, "{\"via\":\"proxy\"}");
	assert_int_equal(kube_client_get(h.c, "/version", &h.out, &h.err),
	    KUBE_OK);
	assert_string_equal(dra_buf_str(&h.out), "{\"via\":\"proxy\"}");
	assert_int_equal(stub_nrequests(p), 1);
	assert_string_equal(stub_request(p, 0)->target,
	    "http://api.invalid:6443/version");
	assert_int_equal(stub_nrequests(h.s), 0);
	henv_close(&h);
	stub_stop(p);

	/* environment proxies are not used for loopback servers */
	p = stub_start();
	henv_open(&h, NULL, NULL, NULL, 0, 0);
	setenv("HTTP_PROXY", stub_url(p), 1);
	kube_client_free(h.c);
	{
		struct kube_client_opts o;
		char *path = xasprintf("%s/config", h.dir);

		memset(&o, 0, sizeof o);
		o.kubeconfig = path;
		o.incluster_dir = h.dir;
		h.c = kube_client_new(&o, &h.err);
		free(path);
	}
	stub_reply_json(h.s, 200, "{}");
	assert_int_equal(kube_client_get(h.c, "/x", &h.out, &h.err), KUBE_OK);
	assert_int_equal(stub_nrequests(p), 0);
	unsetenv("HTTP_PROXY");
	henv_close(&h);
	stub_stop(p);

	/* a server path is a prefix of every request */
	henv_open(&h, NULL, NULL, NULL, 0, 0);
	kube_client_free(h.c);
	{
		struct kube_client_opts o;
		char *path = xasprintf("%s/config", h.dir);
		char *server = xasprintf("%s/k8s/clusters/c-1/",
		    stub_url(h.s));

		memset(&o, 0, sizeof o);
		o.kubeconfig = path;
		o.server = server;
		o.incluster_dir = h.dir;
		h.c = kube_client_new(&o, &h.err);
		free(path);
		free(server);
	}
	stub_reply_json(h.s, 200, "{}");
	assert_int_equal(kube_client_get(h.c, "/api/v1?a=b", &h.out, &h.err),
	    KUBE_OK);
	assert_string_equal(req(&h, 0)->target, "/k8s/clusters/c-1/api/v1?a=b");
	henv_close(&h);
}

/* Bodies, methods, limits and transport failures. */
static void
test_request_and_limits(void **state)
{
	struct henv			 h;
	const struct stub_request	*r;
	struct dra_buf			 small;
	struct stub_server		*gone;
	struct kube_client_opts		 o;
	char				*path, *url, big[100];

	(void)state;
	henv_open(&h, NULL, NULL, NULL, 0, 0);
	stub_reply_json(h.s, 201, "{\"created\":true}");
	stub_reply_json(h.s, 200, "{}");
	assert_int_equal(kube_client_request(h.c, "PATCH",
	    "/apis/x?fieldManager=kubectl-dra", "application/apply-patch+yaml",
	    "spec: {}\n", 9, &h.out, &h.err), KUBE_OK);
	assert_string_equal(dra_buf_str(&h.out), "{\"created\":true}");
	r = req(&h, 0);
	assert_string_equal(r->method, "PATCH");
	assert_string_equal(r->target, "/apis/x?fieldManager=kubectl-dra");
	assert_string_equal(stub_header(r, "Content-Type"),
	    "application/apply-patch+yaml");
	assert_string_equal(r->body, "spec: {}\n");
	assert_null(stub_header(r, "Expect"));
	/* a GET after a PATCH is a GET again */
	assert_int_equal(kube_client_request(h.c, "DELETE", "/apis/x", NULL,
	    NULL, 0, NULL, &h.err), KUBE_OK);
	assert_string_equal(req(&h, 1)->method, "DELETE");
	stub_reply_json(h.s, 200, "{}");
	assert_int_equal(kube_client_get(h.c, "/g", &h.out, &h.err), KUBE_OK);
	assert_string_equal(req(&h, 2)->method, "GET");
	assert_int_equal(req(&h, 2)->body_len, 0);

	/* more than the buffer's limit */
	memset(big, 'x', sizeof big);
	stub_reply(h.s, 200, NULL, big, sizeof big);
	dra_buf_init(&small, 10);
	assert_int_equal(kube_client_get(h.c, "/big", &small, &h.err),
	    KUBE_E_TOOBIG);
	assert_string_equal(h.err.msg, "response to GET /big is larger than "
	    "10 bytes");
	dra_buf_release(&small);
	henv_close(&h);

	/* nothing listens: connect error naming the URL */
	gone = stub_start();
	url = xasprintf("%s", stub_url(gone));
	stub_stop(gone);
	henv_open(&h, NULL, NULL, NULL, 0, 0);
	kube_client_free(h.c);
	path = xasprintf("%s/config", h.dir);
	memset(&o, 0, sizeof o);
	o.kubeconfig = path;
	o.server = url;
	o.incluster_dir = h.dir;
	h.c = kube_client_new(&o, &h.err);
	assert_non_null(h.c);
	assert_int_equal(kube_client_get(h.c, "/version", &h.out, &h.err),
	    KUBE_E_CONNECT);
	assert_int_equal(h.err.http_status, 0);
	{
		char *want = xasprintf("get %s/version: failed to connect",
		    url);

		if (strncmp(h.err.msg, want, strlen(want)) != 0)
			fail_msg("message: %s", h.err.msg);
		free(want);
	}
	free(path);
	free(url);
	henv_close(&h);
}

/*
 * kube_client_ping: one try, no retry of a 503 or a dropped connection,
 * its own limit on a server that answers nothing (the headers never
 * come), and the client's limits back for the next request; at -v 6
 * an answer is not logged (a probe every few seconds would fill the
 * log), a failure is;
 * kube_client_set_request_timeout ends a request that hangs.
 */
static void
test_ping(void **state)
{
	struct henv		 h;
	struct stub_stream	*st;

	(void)state;
	henv_open(&h, NULL, NULL, NULL, 0, 6);
	/* (first: a connection libcurl reuses would be tried again) */
	stub_reply_raw(h.s, "", 0, 1);
	assert_int_equal(kube_client_ping(h.c, "/readyz", 5000, &h.err),
	    KUBE_E_CONNECT);
	assert_int_equal(stub_nrequests(h.s), 1);
	assert_int_equal(h.rec.nsleeps, 0);

	stub_reply(h.s, 200, NULL, "ok", 2);
	dra_buf_reset(&h.rec.log);
	assert_int_equal(kube_client_ping(h.c, "/readyz", 5000, &h.err),
	    KUBE_OK);
	assert_string_equal(req(&h, 1)->target, "/readyz");
	assert_int_equal(h.rec.log.len, 0);

	stub_reply(h.s, 503, "Retry-After: 1\r\n", "not ready", 9);
	assert_int_equal(kube_client_ping(h.c, "/readyz", 5000, &h.err),
	    KUBE_E_API);
	assert_int_equal(h.err.http_status, 503);
	assert_non_null(strstr(dra_buf_str(&h.rec.log), "/readyz 503"));
	assert_int_equal(stub_nrequests(h.s), 3);
	assert_int_equal(h.rec.nsleeps, 0);

	/* a body that never comes: the ping's own limit */
	st = stub_reply_stream(h.s, 200, NULL);
	assert_int_equal(kube_client_ping(h.c, "/readyz", 300, &h.err),
	    KUBE_E_TIMEOUT);
	if (strstr(h.err.msg, "timed out") == NULL)
		fail_msg("message: %s", h.err.msg);
	stub_stream_end(st, 0);

	/* the client's own limit (none) again: a whole answer */
	stub_reply_json(h.s, 200, "{\"major\":\"1\"}");
	assert_int_equal(kube_client_get(h.c, "/version", &h.out, &h.err),
	    KUBE_OK);
	assert_string_equal(dra_buf_str(&h.out), "{\"major\":\"1\"}");

	/* a request timeout set later ends a request that hangs */
	kube_client_set_request_timeout(h.c, 300);
	st = stub_reply_stream(h.s, 200, NULL);
	assert_int_equal(kube_client_get(h.c, "/hang", &h.out, &h.err),
	    KUBE_E_TIMEOUT);
	stub_stream_end(st, 0);
	henv_close(&h);
}

/* Accessors the CLI prints. */
static void
test_accessors(void **state)
{
	struct henv		 h;
	const char *const	*files;
	size_t			 n;
	char			*want;

	(void)state;
	henv_open(&h, "    insecure-skip-tls-verify: true\n", NULL,
	    "https://10.9.8.7:6443", 0, 0);
	assert_string_equal(kube_client_context(h.c), "t");
	assert_string_equal(kube_client_cluster_name(h.c), "t");
	assert_string_equal(kube_client_user_name(h.c), "u");
	assert_string_equal(kube_client_namespace(h.c), "default");
	assert_string_equal(kube_client_server(h.c), "https://10.9.8.7:6443");
	assert_int_equal(kube_client_insecure(h.c), 1);
	assert_int_equal(kube_client_in_cluster(h.c), 0);
	assert_string_equal(kube_client_auth_kind(h.c), "none");
	files = kube_client_files(h.c, &n);
	assert_int_equal(n, 1);
	want = xasprintf("%s/config", h.dir);
	assert_string_equal(files[0], want);
	free(want);
	henv_close(&h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic_get),
		cmocka_unit_test(test_compression),
		cmocka_unit_test(test_credentials),
		cmocka_unit_test(test_token_file_reread),
		cmocka_unit_test(test_retries),
		cmocka_unit_test(test_status_errors),
		cmocka_unit_test(test_warnings),
		cmocka_unit_test(test_log_redaction),
		cmocka_unit_test(test_tls_server_name),
		cmocka_unit_test(test_proxy_and_prefix),
		cmocka_unit_test(test_request_and_limits),
		cmocka_unit_test(test_ping),
		cmocka_unit_test(test_accessors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
