/*
 * test_exec.c: exec credential plugins (client.authentication.k8s.io v1
 * and v1beta1) with a small shell script as the plugin.
 *
 * The script counts its runs in a file next to it, saves the
 * KUBERNETES_EXEC_INFO it got, the value of FOO and one line of its
 * standard input, and prints an ExecCredential chosen by $MODE (set
 * through the kubeconfig's exec.env).  Credentials are fetched with
 * kube_auth_get, as each request does; the 401 re-run goes through the
 * stub HTTP server.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cJSON.h>

#include "client-int.h"
#include "client.h"
#include "stub_server.h"
#include "tutil.h"
#include "xmalloc.h"

#define V1	"client.authentication.k8s.io/v1"
#define V1BETA1	"client.authentication.k8s.io/v1beta1"

static const char plugin[] =
    "#!/bin/sh\n"
    "d=$(dirname \"$0\")\n"
    "n=$(cat \"$d/count\" 2>/dev/null || echo 0)\n"
    "n=$((n + 1))\n"
    "echo $n > \"$d/count\"\n"
    "printf '%s' \"$KUBERNETES_EXEC_INFO\" > \"$d/info\"\n"
    "printf '%s' \"$FOO\" > \"$d/foo\"\n"
    "line=''\n"
    "read -r line || true\n"
    "printf '%s' \"$line\" > \"$d/stdin\"\n"
    "printf '%s' \"$*\" > \"$d/args\"\n"
    "exp=''\n"
    "[ -n \"$EXPIRY\" ] && exp=\",\\\"expirationTimestamp\\\":"
    "\\\"$EXPIRY\\\"\"\n"
    "case \"$MODE\" in\n"
    "token) printf '{\"apiVersion\":\"%s\",\"kind\":\"ExecCredential\","
    "\"status\":{\"token\":\"tok-%s\"%s}}' \"$API\" \"$n\" \"$exp\" ;;\n"
    "cert) printf '{\"apiVersion\":\"%s\",\"kind\":\"ExecCredential\","
    "\"status\":{\"clientCertificateData\":\"CERT-%s\","
    "\"clientKeyData\":\"KEY-%s\"}}' \"$API\" \"$n\" \"$n\" ;;\n"
    "certonly) printf '{\"apiVersion\":\"%s\",\"kind\":\"ExecCredential\","
    "\"status\":{\"clientCertificateData\":\"CERT\"}}' \"$API\" ;;\n"
    "empty) printf '{\"apiVersion\":\"%s\",\"kind\":\"ExecCredential\","
    "\"status\":{}}' \"$API\" ;;\n"
    "nostatus) printf '{\"apiVersion\":\"%s\",\"kind\":\"ExecCredential\""
    "}' \"$API\" ;;\n"
    "other) printf '{\"apiVersion\":\"" V1BETA1 "\",\"kind\":"
    "\"ExecCredential\",\"status\":{\"token\":\"t\"}}' ;;\n"
    "garbage) echo 'token: not json' ;;\n"
    "badexp) printf '{\"apiVersion\":\"%s\",\"kind\":\"ExecCredential\","
    "\"status\":{\"token\":\"t\",\"expirationTimestamp\":\"soon\"}}' "
    "\"$API\" ;;\n"
    "fail) echo 'plugin says no' >&2; exit 3 ;;\n"
    "noisy) echo 'Password for user:' >&2\n"
    "  printf '{\"apiVersion\":\"%s\",\"kind\":\"ExecCredential\","
    "\"status\":{\"token\":\"tok-%s\"%s}}' \"$API\" \"$n\" \"$exp\" ;;\n"
    "esac\n";

struct env {
	char			*dir;
	char			*kubeconfig;
	struct kube_client	*c;
	struct tu_rec		 rec;
};

/*
 * Write the plugin and a kubeconfig whose user runs it with MODE, API
 * (both versions: exec.apiVersion and the one printed), extra env
 * lines, interactiveMode (NULL to omit) and provideClusterInfo.
 */
static void
setup(struct env *e, const char *mode, const char *api, const char *imode,
    int cluster_info, const char *expiry, const char *server,
    const char *command)
{
	char	*yaml;

	memset(e, 0, sizeof *e);
	e->dir = tu_tmpdir();
	tu_env_reset(e->dir);
	free(tu_write(e->dir, "bin/plugin.sh", plugin, 0700));
	free(tu_write(e->dir, "ca.crt", "CA-FILE-PEM\n", 0600));
	yaml = xasprintf(
	    "current-context: x\n"
	    "clusters:\n"
	    "- name: x\n"
	    "  cluster:\n"
	    "    server: %s\n"
	    "    tls-server-name: api.internal\n"
	    "    certificate-authority: ca.crt\n"
	    "%s"
	    "    extensions:\n"
	    "    - name: other\n"
	    "      extension: {x: 1}\n"
	    "    - name: client.authentication.k8s.io/exec\n"
	    "      extension: {audience: \"kube\", retries: 3, "
	    "debug: true}\n"
	    "users:\n"
	    "- name: u\n"
	    "  user:\n"
	    "    exec:\n"
	    "      command: %s\n"
	    "      args: [--flag, value]\n"
	    "      apiVersion: %s\n"
	    "%s%s%s"
	    "      provideClusterInfo: %s\n"
	    "      installHint: install the plugin\n"
	    "      env:\n"
	    "      - {name: MODE, value: %s}\n"
	    "      - {name: API, value: %s}\n"
	    "      - {name: FOO, value: bar}\n"
	    "      - {name: EXPIRY, value: \"%s\"}\n"
	    "contexts:\n"
	    "- name: x\n"
	    "  context: {cluster: x, user: u}\n",
	    server != NULL ? server : "https://10.0.0.1:6443",
	    server != NULL ? "" : "    proxy-url: http://proxy.invalid:3128\n",
	    command != NULL ? command : "./bin/plugin.sh", api,
	    imode != NULL ? "      interactiveMode: " : "",
	    imode != NULL ? imode : "", imode != NULL ? "\n" : "",
	    cluster_info ? "true" : "false", mode, api,
	    expiry != NULL ? expiry : "");
	e->kubeconfig = tu_write(e->dir, "config", yaml, 0600);
	free(yaml);
	tu_rec_init(&e->rec);
}

static struct kube_client *
client(struct env *e, enum kube_stdin stdin_mode)
{
	struct kube_client_opts	o;
	struct dra_err		err;

	memset(&o, 0, sizeof o);
	o.kubeconfig = e->kubeconfig;
	o.stdin_mode = stdin_mode;
	o.log = tu_log;
	o.log_arg = &e->rec;
	o.log_level = 9;
	o.sleep = tu_sleep;
	o.sleep_arg = &e->rec;
	o.http_credentials = 1;
	o.incluster_dir = e->dir;
	e->c = kube_client_new(&o, &err);
	if (e->c == NULL)
		fail_msg("kube_client_new: %s", err.msg);
	return e->c;
}

static void
teardown_env(struct env *e)
{
	kube_client_free(e->c);
	tu_rec_release(&e->rec);
	tu_rmrf(e->dir);
	free(e->dir);
	free(e->kubeconfig);
}

/* The contents of DIR/name as a string (freed by the caller). */
static char *
slurp(const struct env *e, const char *name)
{
	char	*p, *s;

	p = xasprintf("%s/bin/%s", e->dir, name);
	s = tu_read(p);
	free(p);
	return s != NULL ? s : xstrdup("(none)");
}

static int
runs(const struct env *e)
{
	char	*s = slurp(e, "count");
	int	 n = atoi(s);

	free(s);
	return n;
}

/* Fetch credentials; returns the Authorization value (caller frees). */
static char *
auth_header(struct env *e, int want_rc, struct dra_err *err)
{
	struct kube_auth	a;
	char			*h;
	int			 rc;

	rc = kube_auth_get(e->c, &a, err);
	if (rc != want_rc)
		fail_msg("kube_auth_get: rc %d, want %d (%s)", rc, want_rc,
		    err->msg);
	h = xstrdup(a.authorization != NULL ? a.authorization : "(none)");
	kube_auth_release(&a);
	return h;
}

/* v1 and v1beta1: token, args, env, caching for the process lifetime. */
static void
test_token_cached(void **state)
{
	static const char *const apis[] = { V1, V1BETA1 };
	struct env	 e;
	struct dra_err	 err;
	char		*h, *s;
	size_t		 i;

	(void)state;
	for (i = 0; i < 2; i++) {
		setup(&e, "token", apis[i], "Never", 0, NULL, NULL, NULL);
		setenv("FOO", "outer-value", 1);
		client(&e, KUBE_STDIN_NONE);
		assert_string_equal(kube_client_auth_kind(e.c), "exec");
		assert_int_equal(runs(&e), 0);	/* not before a request */
		h = auth_header(&e, KUBE_OK, &err);
		assert_string_equal(h, "Bearer tok-1");
		free(h);
		h = auth_header(&e, KUBE_OK, &err);
		assert_string_equal(h, "Bearer tok-1");
		free(h);
		assert_int_equal(runs(&e), 1);
		s = slurp(&e, "foo");
		assert_string_equal(s, "bar");	/* exec.env wins */
		free(s);
		s = slurp(&e, "args");
		assert_string_equal(s, "--flag value");
		free(s);
		assert_non_null(strstr(dra_buf_str(&e.rec.log),
		    "running exec credential plugin "));
		assert_null(strstr(dra_buf_str(&e.rec.log), "tok-1"));
		unsetenv("FOO");
		teardown_env(&e);
	}
}

/* expirationTimestamp: re-run when past, keep when in the future. */
static void
test_expiry(void **state)
{
	struct env	 e;
	struct dra_err	 err;
	char		*h;

	(void)state;
	setup(&e, "token", V1, "Never", 0, "2000-01-01T00:00:00Z", NULL,
	    NULL);
	client(&e, KUBE_STDIN_NONE);
	h = auth_header(&e, KUBE_OK, &err);
	assert_string_equal(h, "Bearer tok-1");
	free(h);
	h = auth_header(&e, KUBE_OK, &err);
	assert_string_equal(h, "Bearer tok-2");
	free(h);
	assert_int_equal(runs(&e), 2);
	teardown_env(&e);

	setup(&e, "token", V1, "Never", 0, "2999-01-01T00:00:00+01:00", NULL,
	    NULL);
	client(&e, KUBE_STDIN_NONE);
	h = auth_header(&e, KUBE_OK, &err);
	free(h);
	h = auth_header(&e, KUBE_OK, &err);
	assert_string_equal(h, "Bearer tok-1");
	free(h);
	assert_int_equal(runs(&e), 1);
	assert_int_equal(e.c->exec.expiry, 32472140400LL);
	teardown_env(&e);
}

/* KUBERNETES_EXEC_INFO with and without provideClusterInfo. */
static void
test_exec_info(void **state)
{
	struct env	 e;
	struct dra_err	 err;
	cJSON		*j;
	const cJSON	*spec, *cl, *conf;
	char		*s, *h;

	(void)state;
	setup(&e, "token", V1, "Never", 1, NULL, NULL, NULL);
	client(&e, KUBE_STDIN_NONE);
	h = auth_header(&e, KUBE_OK, &err);
	free(h);
	s = slurp(&e, "info");
	j = cJSON_Parse(s);
	assert_non_null(j);
	assert_string_equal(cJSON_GetObjectItem(j, "apiVersion")->valuestring,
	    V1);
	assert_string_equal(cJSON_GetObjectItem(j, "kind")->valuestring,
	    "ExecCredential");
	spec = cJSON_GetObjectItem(j, "spec");
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(spec, "interactive")));
	cl = cJSON_GetObjectItem(spec, "cluster");
	assert_non_null(cl);
	assert_string_equal(cJSON_GetObjectItem(cl, "server")->valuestring,
	    "https://10.0.0.1:6443");
	assert_string_equal(cJSON_GetObjectItem(cl,
	    "tls-server-name")->valuestring, "api.internal");
	/* base64 of the CA file's contents */
	assert_string_equal(cJSON_GetObjectItem(cl,
	    "certificate-authority-data")->valuestring,
	    "Q0EtRklMRS1QRU0K");
	assert_string_equal(cJSON_GetObjectItem(cl, "proxy-url")->valuestring,
	    "http://proxy.invalid:3128");
	assert_null(cJSON_GetObjectItem(cl, "insecure-skip-tls-verify"));
	conf = cJSON_GetObjectItem(cl, "config");
	assert_string_equal(cJSON_GetObjectItem(conf, "audience")->valuestring,
	    "kube");
	assert_int_equal(cJSON_GetObjectItem(conf, "retries")->valueint, 3);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(conf, "debug")));
	cJSON_Delete(j);
	free(s);
	teardown_env(&e);

	setup(&e, "token", V1BETA1, NULL, 0, NULL, NULL, NULL);
	client(&e, KUBE_STDIN_NONE);
	h = auth_header(&e, KUBE_OK, &err);
	free(h);
	s = slurp(&e, "info");
	assert_string_equal(s, "{\"kind\":\"ExecCredential\",\"apiVersion\":"
	    "\"" V1BETA1 "\",\"spec\":{\"interactive\":false}}");
	free(s);
	teardown_env(&e);
}

/* interactiveMode: stdin attached only when interactive. */
static void
test_interactive(void **state)
{
	static const struct {
		const char	*mode;
		enum kube_stdin	 in;
		int		 rc;
		const char	*interactive;	/* in the exec info */
		const char	*stdin_line;	/* what the plugin read */
	} t[] = {
		{ "Never", KUBE_STDIN_TERMINAL, KUBE_OK, "false", "" },
		{ "IfAvailable", KUBE_STDIN_TERMINAL, KUBE_OK, "true",
		    "typed-secret" },
		{ "IfAvailable", KUBE_STDIN_NONE, KUBE_OK, "false", "" },
		{ "Always", KUBE_STDIN_TERMINAL, KUBE_OK, "true",
		    "typed-secret" },
		{ "Always", KUBE_STDIN_NONE, KUBE_E_EXEC, NULL, NULL },
	};
	struct env	 e;
	struct dra_err	 err;
	char		*h, *s, *in, *want;
	size_t		 i;
	int		 saved, fd;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		setup(&e, "token", V1, t[i].mode, 0, NULL, NULL, NULL);
		in = tu_write(e.dir, "stdin.txt", "typed-secret\n", 0600);
		saved = dup(STDIN_FILENO);
		fd = open(in, O_RDONLY);
		dup2(fd, STDIN_FILENO);
		close(fd);
		client(&e, t[i].in);
		h = auth_header(&e, t[i].rc, &err);
		dup2(saved, STDIN_FILENO);
		close(saved);
		free(h);
		if (t[i].rc != KUBE_OK) {
			assert_string_equal(err.msg, "exec plugin cannot "
			    "support interactive mode: standard input is not "
			    "a terminal");
			assert_int_equal(runs(&e), 0);
		} else {
			s = slurp(&e, "info");
			want = xasprintf("\"interactive\":%s",
			    t[i].interactive);
			if (strstr(s, want) == NULL)
				fail_msg("%s: info %s lacks %s", t[i].mode, s,
				    want);
			free(want);
			free(s);
			s = slurp(&e, "stdin");
			assert_string_equal(s, t[i].stdin_line);
			free(s);
		}
		free(in);
		teardown_env(&e);
	}
}

/*
 * kube_client_detach_terminal: a plugin that prompted on the terminal
 * (its stdin and stderr the user's) gets neither afterwards, and
 * interactiveMode Always fails instead of prompting under a UI.
 */
static void
test_detached(void **state)
{
	struct env	 e;
	struct dra_err	 err;
	char		*h, *s, *in, *errf;
	int		 saved_in, saved_err, fd;

	(void)state;
	/* an expired credential: the plugin runs for every request */
	setup(&e, "noisy", V1, "IfAvailable", 0, "2000-01-01T00:00:00Z",
	    NULL, NULL);
	in = tu_write(e.dir, "stdin.txt", "typed-secret\n", 0600);
	errf = xasprintf("%s/stderr.txt", e.dir);
	saved_in = dup(STDIN_FILENO);
	saved_err = dup(STDERR_FILENO);
	fd = open(in, O_RDONLY);
	dup2(fd, STDIN_FILENO);
	close(fd);
	fd = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	dup2(fd, STDERR_FILENO);
	close(fd);
	client(&e, KUBE_STDIN_TERMINAL);

	h = auth_header(&e, KUBE_OK, &err);
	assert_string_equal(h, "Bearer tok-1");
	free(h);
	s = slurp(&e, "stdin");
	assert_string_equal(s, "typed-secret");
	free(s);
	s = tu_read(errf);
	assert_string_equal(s, "Password for user:\n");
	free(s);

	kube_client_detach_terminal(e.c);
	h = auth_header(&e, KUBE_OK, &err);
	assert_string_equal(h, "Bearer tok-2");
	free(h);
	s = slurp(&e, "stdin");
	assert_string_equal(s, "");		/* /dev/null */
	free(s);
	s = slurp(&e, "info");
	assert_non_null(strstr(s, "\"interactive\":false"));
	free(s);
	s = tu_read(errf);
	assert_string_equal(s, "Password for user:\n");	/* no more */
	free(s);

	dup2(saved_in, STDIN_FILENO);
	dup2(saved_err, STDERR_FILENO);
	close(saved_in);
	close(saved_err);
	free(in);
	free(errf);
	teardown_env(&e);

	/* Always: refused once detached, the plugin never runs */
	setup(&e, "token", V1, "Always", 0, NULL, NULL, NULL);
	client(&e, KUBE_STDIN_TERMINAL);
	kube_client_detach_terminal(e.c);
	h = auth_header(&e, KUBE_E_EXEC, &err);
	free(h);
	assert_string_equal(err.msg, "exec plugin cannot support interactive "
	    "mode: standard input is not a terminal");
	assert_int_equal(runs(&e), 0);
	teardown_env(&e);
}

/* A client certificate from the plugin. */
static void
test_cert(void **state)
{
	struct env	 e;
	struct dra_err	 err;
	char		*h;

	(void)state;
	setup(&e, "cert", V1, "Never", 0, NULL, NULL, NULL);
	client(&e, KUBE_STDIN_NONE);
	h = auth_header(&e, KUBE_OK, &err);
	assert_string_equal(h, "(none)");
	free(h);
	assert_string_equal(e.c->exec.cert, "CERT-1");
	assert_string_equal(e.c->exec.key, "KEY-1");
	assert_int_equal(e.c->cert_installed, 1);
	teardown_env(&e);
}

/* Plugin failures and bad output: client-go's messages. */
static void
test_errors(void **state)
{
	static const struct {
		const char	*mode;
		const char	*command;
		const char	*msg;	/* @D: the directory */
	} t[] = {
		{ "fail", NULL, "exec: executable @D/bin/plugin.sh failed with "
		    "exit code 3" },
		{ "token", "no-such-plugin-xyz", "exec: executable "
		    "no-such-plugin-xyz not found\n\ninstall the plugin" },
		{ "token", "./bin/missing.sh", "exec: executable "
		    "@D/bin/missing.sh not found\n\ninstall the plugin" },
		{ "garbage", NULL, "exec plugin @D/bin/plugin.sh: decoding "
		    "stdout: malformed json at byte 0" },
		{ "other", NULL, "exec plugin is configured to use API version "
		    V1 ", plugin returned version " V1BETA1 },
		{ "nostatus", NULL, "exec plugin didn't return a status "
		    "field" },
		{ "empty", NULL, "exec plugin didn't return a token or "
		    "cert/key pair" },
		{ "certonly", NULL, "exec plugin returned only certificate or "
		    "key, not both" },
		{ "badexp", NULL, "exec plugin @D/bin/plugin.sh: decoding "
		    "stdout: bad expirationTimestamp \"soon\"" },
	};
	struct env	 e;
	struct dra_err	 err;
	char		*h, *want;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		setup(&e, t[i].mode, V1, "Never", 0, NULL, NULL, t[i].command);
		client(&e, KUBE_STDIN_NONE);
		h = auth_header(&e, KUBE_E_EXEC, &err);
		free(h);
		want = tu_subst(t[i].msg, e.dir);
		if (strcmp(err.msg, want) != 0)
			fail_msg("mode %s:\n got: %s\nwant: %s", t[i].mode,
			    err.msg, want);
		free(want);
		assert_int_equal(e.c->exec.valid, 0);
		teardown_env(&e);
	}
}

/* A 401 re-runs the plugin once and repeats the request. */
static void
test_401_rerun(void **state)
{
	struct stub_server		*s;
	struct env			 e;
	struct dra_err			 err;
	struct dra_buf			 b;
	const struct stub_request	*r;
	static const char		 unauth[] = "{\"kind\":\"Status\","
	    "\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":"
	    "\"Unauthorized\",\"reason\":\"Unauthorized\",\"code\":401}";

	(void)state;
	s = stub_start();
	setup(&e, "token", V1, "Never", 0, NULL, stub_url(s), NULL);
	client(&e, KUBE_STDIN_NONE);

	/* 401, then the plugin runs again and the retry succeeds */
	stub_reply_json(s, 401, unauth);
	stub_reply_json(s, 200, "{\"ok\":true}");
	dra_buf_init(&b, 1 << 20);
	assert_int_equal(kube_client_get(e.c, "/version", &b, &err), KUBE_OK);
	assert_string_equal(dra_buf_str(&b), "{\"ok\":true}");
	assert_int_equal(stub_nrequests(s), 2);
	r = stub_request(s, 0);
	assert_string_equal(stub_header(r, "Authorization"), "Bearer tok-1");
	r = stub_request(s, 1);
	assert_string_equal(stub_header(r, "Authorization"), "Bearer tok-2");
	assert_int_equal(runs(&e), 2);

	/* 401 twice: one re-run only, then the error */
	stub_reply_json(s, 401, unauth);
	stub_reply_json(s, 401, unauth);
	dra_buf_reset(&b);
	assert_int_equal(kube_client_get(e.c, "/version", &b, &err),
	    KUBE_E_AUTH);
	assert_int_equal(err.http_status, 401);
	assert_string_equal(err.reason, "Unauthorized");
	assert_string_equal(err.msg, "Unauthorized");
	assert_int_equal(stub_nrequests(s), 4);
	assert_string_equal(stub_header(stub_request(s, 3), "Authorization"),
	    "Bearer tok-3");
	assert_int_equal(runs(&e), 3);
	assert_int_equal(stub_pending(s), 0);
	assert_null(strstr(dra_buf_str(&e.rec.log), "tok-"));
	assert_non_null(strstr(dra_buf_str(&e.rec.log),
	    "Authorization: Bearer <redacted>"));
	dra_buf_release(&b);
	teardown_env(&e);
	stub_stop(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_token_cached),
		cmocka_unit_test(test_expiry),
		cmocka_unit_test(test_exec_info),
		cmocka_unit_test(test_interactive),
		cmocka_unit_test(test_detached),
		cmocka_unit_test(test_cert),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_401_rerun),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
