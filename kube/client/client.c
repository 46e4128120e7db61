/*
 * client.c: the client's life cycle, accessors and small helpers.
 *
 * kube_client_new loads the configuration (kubeconfig.c) and sets up
 * one libcurl easy handle (http.c) that every request reuses, so that
 * keep-alive connections and TLS sessions carry over.
 */
#include "client.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>

#include "client-int.h"
#include "err.h"
#include "xmalloc.h"

static time_t	client_now(void);
static void	client_sleep(void *, long);

static time_t
client_now(void)
{
	return time(NULL);
}

static void
client_sleep(void *arg, long ms)
{
	struct timespec	ts;

	(void)arg;
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000L;
	while (nanosleep(&ts, &ts) == -1)
		;
}

struct kube_client *
kube_client_new(const struct kube_client_opts *opts, struct dra_err *err)
{
	struct kube_client	*c;
	size_t			 i;

	dra_err_clear(err);
	c = xcalloc(1, sizeof *c);
	c->log = opts->log;
	c->log_arg = opts->log_arg;
	c->log_level = opts->log != NULL ? opts->log_level : 0;
	c->warn = opts->warn;
	c->warn_arg = opts->warn_arg;
	c->sleep = opts->sleep != NULL ? opts->sleep : client_sleep;
	c->sleep_arg = opts->sleep_arg;
	c->stdin_mode = opts->stdin_mode;
	c->http_credentials = opts->http_credentials;
	c->cancel = opts->cancel;
	c->cancel_arg = opts->cancel_arg;
	c->now = client_now;
	if (kube_config_load(opts, &c->cfg, err) != KUBE_OK) {
		free(c);
		return NULL;
	}
	for (i = 0; i < c->cfg.nfiles; i++)
		kube_client_logf(c, 6, "config loaded from file: %s",
		    c->cfg.files[i]);
	if (c->cfg.in_cluster)
		kube_client_logf(c, 4, "using in-cluster configuration");
	curl_global_init(CURL_GLOBAL_DEFAULT);
	if (kube_http_init(c, err) != KUBE_OK) {
		kube_client_free(c);
		return NULL;
	}
	return c;
}

void
kube_client_free(struct kube_client *c)
{
	struct kube_warning	*w, *next;

	if (c == NULL)
		return;
	if (c->curl != NULL) {
		curl_easy_cleanup(c->curl);
		curl_global_cleanup();
	}
	curl_slist_free_all(c->connect_to);
	kube_auth_free(c);
	for (w = c->warnings; w != NULL; w = next) {
		next = w->next;
		free(w);
	}
	kube_config_release(&c->cfg);
	free(c);
}

const char *
kube_client_context(const struct kube_client *c)
{
	return c->cfg.context;
}

const char *
kube_client_cluster_name(const struct kube_client *c)
{
	return c->cfg.cluster_name;
}

const char *
kube_client_user_name(const struct kube_client *c)
{
	return c->cfg.user_name;
}

const char *
kube_client_namespace(const struct kube_client *c)
{
	return c->cfg.namespace;
}

const char *
kube_client_server(const struct kube_client *c)
{
	return c->cfg.server;
}

int
kube_client_insecure(const struct kube_client *c)
{
	return c->cfg.insecure;
}

int
kube_client_in_cluster(const struct kube_client *c)
{
	return c->cfg.in_cluster;
}

const char *const *
kube_client_files(const struct kube_client *c, size_t *n)
{
	*n = c->cfg.nfiles;
	return c->cfg.files;
}

const char *const *
kube_client_contexts(const struct kube_client *c, size_t *n)
{
	*n = c->cfg.ncontexts;
	return c->cfg.contexts;
}

void
kube_client_detach_terminal(struct kube_client *c)
{
	c->detached = 1;
}

const char *
kube_client_auth_kind(const struct kube_client *c)
{
	const struct kube_config	*cfg = &c->cfg;

	if (cfg->username != NULL)
		return "basic";
	if (cfg->token != NULL)
		return "token";
	if (cfg->token_file != NULL)
		return cfg->in_cluster ? "in-cluster-token" : "token-file";
	if (cfg->cert_file != NULL || cfg->cert_data != NULL)
		return "client-certificate";
	if (cfg->exec != NULL)
		return "exec";
	return "none";
}

void
kube_client_logf(struct kube_client *c, int level, const char *fmt, ...)
{
	char	line[2048];
	va_list	ap;

	if (c->log == NULL || c->log_level < level)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	c->log(c->log_arg, level, line);
}

void
kube_client_warn(struct kube_client *c, const char *msg)
{
	struct kube_warning	*w;
	size_t			 len;

	if (c->warn == NULL)
		return;
	for (w = c->warnings; w != NULL; w = w->next)
		if (strcmp(w->msg, msg) == 0)
			return;
	len = strlen(msg);
	w = xmalloc(sizeof *w + len + 1);
	memcpy(w->msg, msg, len + 1);
	w->next = c->warnings;
	c->warnings = w;
	c->warn(c->warn_arg, msg);
}

char *
kube_query_escape(const char *s)
{
	static const char	 hex[] = "0123456789ABCDEF";
	char			*out, *o;
	const unsigned char	*p;

	out = xmalloc(strlen(s) * 3 + 1);
	o = out;
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (isalnum(*p) || *p == '-' || *p == '.' || *p == '_' ||
		    *p == '~')
			*o++ = (char)*p;
		else {
			*o++ = '%';
			*o++ = hex[*p >> 4];
			*o++ = hex[*p & 15];
		}
	}
	*o = '\0';
	return out;
}

/*
 * clientcmd helpers.go ParseTimeout: a bare non-negative integer is
 * seconds, else a Go duration (time.ParseDuration).
 */
int
kube_parse_timeout(const char *s, long *ms, struct dra_err *err)
{
	static const struct {
		const char	*unit;
		double		 ms;
	} units[] = {
		{ "ns", 1e-6 }, { "us", 1e-3 }, { "\xc2\xb5s", 1e-3 },
		{ "ms", 1 }, { "s", 1000 }, { "m", 60000 }, { "h", 3600000 },
	};
	const char	*p = s;
	char		*end;
	double		 total = 0, v;
	size_t		 i, ulen;
	long		 secs;

	*ms = 0;
	if (s == NULL || *s == '\0')
		return KUBE_OK;
	secs = strtol(s, &end, 10);
	if (*end == '\0' && end != s && secs >= 0 && s[0] != '+') {
		*ms = secs * 1000;
		return KUBE_OK;
	}
	if (*p == '+')
		p++;
	if (strcmp(p, "0") == 0)
		return KUBE_OK;
	while (*p != '\0') {
		if (!isdigit((unsigned char)*p) && *p != '.')
			goto bad;
		v = strtod(p, &end);
		if (end == p)
			goto bad;
		p = end;
		for (i = 0; i < sizeof units / sizeof units[0]; i++) {
			ulen = strlen(units[i].unit);
			if (strncmp(p, units[i].unit, ulen) == 0 &&
			    (units[i].unit[0] != 'm' || ulen == 2 ||
			    p[1] != 's'))
				break;
		}
		if (i == sizeof units / sizeof units[0])
			goto bad;
		total += v * units[i].ms;
		p += strlen(units[i].unit);
	}
	*ms = (long)(total + 0.5);
	return KUBE_OK;
bad:
	return dra_err_set(err, KUBE_E_CONFIG, "invalid timeout value \"%s\": "
	    "timeout must be a single integer in seconds, or an integer "
	    "followed by a corresponding time unit (e.g. 1s | 2m | 3h)", s);
}
