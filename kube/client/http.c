/*
 * http.c: requests through libcurl.
 *
 * One easy handle per client carries the TLS settings (verification on
 * unless insecure-skip-tls-verify, the cluster's CA as the only trust
 * anchor like Go's RootCAs, client certificates as blobs), the proxy
 * (proxy-url, else the *_PROXY variables as Go's ProxyFromEnvironment
 * reads them, never for loopback hosts), compression and timeouts.
 *
 * tls-server-name: libcurl 7.88 has no option to set the SNI and
 * verification name apart from the URL host, so the URL carries the
 * tls-server-name and CURLOPT_CONNECT_TO sends the connection to the
 * real host and port ("connect-to does not affect the host name used
 * for TLS", CURLOPT_CONNECT_TO(3)); a Host header keeps the server's
 * own authority, as Go's tls.Config.ServerName leaves Host alone.
 *
 * Each request: credentials (auth.c), headers, perform, then the
 * client-go decisions: retry reads on 429/503 and on 5xx with
 * Retry-After (rest/with_retry.go checkWait), re-run an exec plugin
 * once after a 401 (exec.go maybeRefreshCreds), decode a failure's
 * Status (rest/request.go transformResponse, apimachinery
 * errors.NewGenericServerResponse).
 */
#include "client-int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <cJSON.h>
#include <curl/curl.h>

#include "buf.h"
#include "err.h"
#include "xmalloc.h"

#ifndef DRA_VERSION
#define DRA_VERSION "0.0.0"
#endif

#define LOG_BODY_MAX	1024

/* What one attempt saw. */
struct attempt {
	struct kube_http_resp	 resp;		/* status line, headers */
	struct dra_buf		*out;		/* 2xx body */
	struct dra_buf		 errbody;	/* other bodies, capped */
	int			 toobig;
};

static size_t	on_body(char *, size_t, size_t, void *);
static int	on_progress(void *, curl_off_t, curl_off_t, curl_off_t,
		    curl_off_t);
static int	on_debug(CURL *, curl_infotype, char *, size_t, void *);
static const char *status_text(int);
static int	status_rc(int);
static int	is_loopback(const char *);
static const char *env_proxy(const char *);
static void	header_key_escape(struct dra_buf *, const char *);
static struct curl_slist *build_headers(struct kube_client *,
		    const struct kube_req *, const struct kube_auth *);
static int	curl_rc(CURLcode);
static const char *lower_method(const char *, char *, size_t);
static void	warn_one(void *, const char *);
static void	log_lines(struct kube_client *, int, const char *,
		    const char *, size_t);

int
kube_http_init(struct kube_client *c, struct dra_err *err)
{
	struct kube_config	*cfg = &c->cfg;
	struct curl_blob	 blob;
	const char		*proxy, *host, *tls;
	char			*s, *base_host, *to;
	int			 ipv6, https;

	c->curl = curl_easy_init();
	if (c->curl == NULL)
		return dra_err_set(err, KUBE_E_CONFIG,
		    "cannot initialise libcurl");
	https = strcmp(cfg->scheme, "https") == 0;
	c->send_creds = https || c->http_credentials;
	curl_easy_setopt(c->curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c->curl, CURLOPT_ERRORBUFFER, c->errbuf);
	curl_easy_setopt(c->curl, CURLOPT_USERAGENT,
	    "kubectl-dra/" DRA_VERSION);
	curl_easy_setopt(c->curl, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c->curl, CURLOPT_CONNECTTIMEOUT_MS,
	    cfg->connect_timeout_ms);
	curl_easy_setopt(c->curl, CURLOPT_TIMEOUT_MS, cfg->request_timeout_ms);
	/*
	 * A peer that went away without a FIN (a host down, a NAT entry
	 * dropped) is noticed on an idle connection, a watch's included
	 * (they copy this handle): probes after 30 s, every 10 s.
	 */
	curl_easy_setopt(c->curl, CURLOPT_TCP_KEEPALIVE, 1L);
	curl_easy_setopt(c->curl, CURLOPT_TCP_KEEPIDLE, KUBE_KEEPIDLE_S);
	curl_easy_setopt(c->curl, CURLOPT_TCP_KEEPINTVL, KUBE_KEEPINTVL_S);
	if (!cfg->disable_compression)
		curl_easy_setopt(c->curl, CURLOPT_ACCEPT_ENCODING, "");
	if (c->cancel != NULL) {
		curl_easy_setopt(c->curl, CURLOPT_XFERINFOFUNCTION,
		    on_progress);
		curl_easy_setopt(c->curl, CURLOPT_XFERINFODATA, c);
		curl_easy_setopt(c->curl, CURLOPT_NOPROGRESS, 0L);
	}

	/* TLS */
	if (cfg->insecure) {
		curl_easy_setopt(c->curl, CURLOPT_SSL_VERIFYPEER, 0L);
		curl_easy_setopt(c->curl, CURLOPT_SSL_VERIFYHOST, 0L);
	} else {
		curl_easy_setopt(c->curl, CURLOPT_SSL_VERIFYPEER, 1L);
		curl_easy_setopt(c->curl, CURLOPT_SSL_VERIFYHOST, 2L);
	}
	if (cfg->ca_data != NULL) {
		blob.data = cfg->ca_data;
		blob.len = cfg->ca_len;
		blob.flags = CURL_BLOB_COPY;
		curl_easy_setopt(c->curl, CURLOPT_CAINFO, NULL);
		curl_easy_setopt(c->curl, CURLOPT_CAPATH, NULL);
		curl_easy_setopt(c->curl, CURLOPT_CAINFO_BLOB, &blob);
	} else if (cfg->ca_file != NULL) {
		curl_easy_setopt(c->curl, CURLOPT_CAPATH, NULL);
		curl_easy_setopt(c->curl, CURLOPT_CAINFO, cfg->ca_file);
	}
	if (cfg->cert_data != NULL) {
		blob.data = cfg->cert_data;
		blob.len = cfg->cert_len;
		blob.flags = CURL_BLOB_COPY;
		curl_easy_setopt(c->curl, CURLOPT_SSLCERT_BLOB, &blob);
	} else if (cfg->cert_file != NULL)
		curl_easy_setopt(c->curl, CURLOPT_SSLCERT, cfg->cert_file);
	if (cfg->key_data != NULL) {
		blob.data = cfg->key_data;
		blob.len = cfg->key_len;
		blob.flags = CURL_BLOB_COPY;
		curl_easy_setopt(c->curl, CURLOPT_SSLKEY_BLOB, &blob);
	} else if (cfg->key_file != NULL)
		curl_easy_setopt(c->curl, CURLOPT_SSLKEY, cfg->key_file);
	curl_easy_setopt(c->curl, CURLOPT_SSLCERTTYPE, "PEM");
	curl_easy_setopt(c->curl, CURLOPT_SSLKEYTYPE, "PEM");

	/* Proxy */
	if (cfg->proxy_url != NULL) {
		if (strncmp(cfg->proxy_url, "socks5://", 9) == 0) {
			/* Go's SOCKS5 dialer resolves names at the proxy */
			s = xasprintf("socks5h://%s", cfg->proxy_url + 9);
			curl_easy_setopt(c->curl, CURLOPT_PROXY, s);
			free(s);
		} else
			curl_easy_setopt(c->curl, CURLOPT_PROXY,
			    cfg->proxy_url);
		curl_easy_setopt(c->curl, CURLOPT_NOPROXY, "");
	} else {
		proxy = is_loopback(cfg->host) ? NULL : env_proxy(cfg->scheme);
		curl_easy_setopt(c->curl, CURLOPT_PROXY,
		    proxy != NULL ? proxy : "");
	}

	/* Base URL, with tls-server-name through connect-to */
	tls = cfg->tls_server_name;
	host = cfg->host;
	if (tls != NULL && strcmp(tls, host) != 0) {
		base_host = strchr(tls, ':') != NULL ?
		    xasprintf("[%s]", tls) : xstrdup(tls);
		ipv6 = strchr(host, ':') != NULL;
		to = xasprintf("%s:%d:%s%s%s:%d", base_host, cfg->port,
		    ipv6 ? "[" : "", host, ipv6 ? "]" : "", cfg->port);
		c->connect_to = curl_slist_append(NULL, to);
		free(to);
		curl_easy_setopt(c->curl, CURLOPT_CONNECT_TO, c->connect_to);
		if ((https && cfg->port == 443) ||
		    (!https && cfg->port == 80))
			s = xasprintf("Host: %s%s%s", ipv6 ? "[" : "", host,
			    ipv6 ? "]" : "");
		else
			s = xasprintf("Host: %s%s%s:%d", ipv6 ? "[" : "", host,
			    ipv6 ? "]" : "", cfg->port);
		c->host_header = dra_arena_strdup(&cfg->arena, s);
		free(s);
		s = xasprintf("%s://%s:%d%s", cfg->scheme, base_host, cfg->port,
		    cfg->server + strlen(cfg->scheme) + 3 +
		    strcspn(cfg->server + strlen(cfg->scheme) + 3, "/"));
		free(base_host);
	} else
		s = xstrdup(cfg->server);
	c->url_base = dra_arena_strdup(&cfg->arena, s);
	free(s);
	return KUBE_OK;
}

/* Go's httpproxy: the upper-case name first, then the lower-case one. */
static const char *
env_proxy(const char *scheme)
{
	const char	*v;

	if (strcmp(scheme, "https") == 0) {
		v = getenv("HTTPS_PROXY");
		if (v == NULL || *v == '\0')
			v = getenv("https_proxy");
	} else {
		v = getenv("HTTP_PROXY");
		if (v == NULL || *v == '\0')
			v = getenv("http_proxy");
	}
	return v != NULL && *v != '\0' ? v : NULL;
}

/* Go's ProxyFromEnvironment never proxies localhost or loopback IPs. */
static int
is_loopback(const char *host)
{
	return strcasecmp(host, "localhost") == 0 ||
	    strncmp(host, "127.", 4) == 0 || strcmp(host, "::1") == 0;
}

/* client-go transport/round_trippers.go headerKeyEscape */
static void
header_key_escape(struct dra_buf *b, const char *key)
{
	const unsigned char	*p;

	for (p = (const unsigned char *)key; *p != '\0'; p++) {
		if (isalnum(*p) || strchr("!#$&'*+-.^_`|~", *p) != NULL)
			dra_buf_add(b, p, 1);
		else
			dra_buf_addf(b, "%%%02X", *p);
	}
}

static struct curl_slist *
build_headers(struct kube_client *c, const struct kube_req *req,
    const struct kube_auth *auth)
{
	const struct kube_config	*cfg = &c->cfg;
	struct curl_slist		*h = NULL;
	struct dra_buf			 b;
	char				*s;
	size_t				 i, j;

	h = curl_slist_append(h, "Accept: application/json");
	if (req->content_type != NULL) {
		s = xasprintf("Content-Type: %s", req->content_type);
		h = curl_slist_append(h, s);
		free(s);
	}
	if (req->body != NULL || req->content_type != NULL)
		h = curl_slist_append(h, "Expect:");
	if (c->host_header != NULL)
		h = curl_slist_append(h, c->host_header);
	if (auth->authorization != NULL) {
		s = xasprintf("Authorization: %s", auth->authorization);
		h = curl_slist_append(h, s);
		kube_secret_free(s, strlen(s));
	}
	/* round_trippers.go NewImpersonatingRoundTripper */
	if (cfg->as != NULL) {
		s = xasprintf("Impersonate-User: %s", cfg->as);
		h = curl_slist_append(h, s);
		free(s);
		if (cfg->as_uid != NULL) {
			s = xasprintf("Impersonate-Uid: %s", cfg->as_uid);
			h = curl_slist_append(h, s);
			free(s);
		}
		for (i = 0; i < cfg->n_as_groups; i++) {
			s = xasprintf("Impersonate-Group: %s",
			    cfg->as_groups[i]);
			h = curl_slist_append(h, s);
			free(s);
		}
		for (i = 0; i < cfg->n_as_extra; i++) {
			for (j = 0; j < cfg->as_extra[i].n; j++) {
				dra_buf_init(&b, DRA_BUF_MAX_SMALL);
				dra_buf_adds(&b, "Impersonate-Extra-");
				header_key_escape(&b, cfg->as_extra[i].key);
				dra_buf_addf(&b, ": %s",
				    cfg->as_extra[i].values[j]);
				h = curl_slist_append(h, dra_buf_str(&b));
				dra_buf_release(&b);
			}
		}
	}
	return h;
}

void
kube_http_resp_init(struct kube_http_resp *r, struct kube_client *c)
{
	memset(r, 0, sizeof *r);
	r->c = c;
	r->retry_after = -1;
	dra_buf_init(&r->headers, DRA_BUF_MAX_SMALL);
}

void
kube_http_resp_reset(struct kube_http_resp *r)
{
	r->status = 0;
	r->reason[0] = '\0';
	r->retry_after = -1;
	curl_slist_free_all(r->warnings);
	r->warnings = NULL;
	dra_buf_reset(&r->headers);
}

void
kube_http_resp_release(struct kube_http_resp *r)
{
	curl_slist_free_all(r->warnings);
	r->warnings = NULL;
	dra_buf_release(&r->headers);
}

size_t
kube_http_on_header(char *data, size_t size, size_t nmemb, void *arg)
{
	struct kube_http_resp	*r = arg;
	size_t			 len = size * nmemb, n, vlen;
	const char		*v;
	char			*val, *sp;
	int			 code;

	n = len;
	while (n > 0 && (data[n - 1] == '\r' || data[n - 1] == '\n'))
		n--;
	if (n >= 5 && strncmp(data, "HTTP/", 5) == 0) {
		/* a new response (1xx, then the final one) */
		kube_http_resp_reset(r);
		sp = memchr(data, ' ', n);
		if (sp != NULL && sscanf(sp + 1, "%3d", &code) == 1) {
			r->status = code;
			v = sp + 4;
			while (v < data + n && *v == ' ')
				v++;
			snprintf(r->reason, sizeof r->reason, "%.*s",
			    (int)(data + n - v), v);
		}
		return len;
	}
	if (n == 0) {
		r->complete = r->status >= 200;
		return len;
	}
	if (r->c->log_level >= 8) {
		dra_buf_add(&r->headers, data, n);
		dra_buf_add(&r->headers, "\n", 1);
	}
	v = memchr(data, ':', n);
	if (v == NULL)
		return len;
	vlen = n - (size_t)(v + 1 - data);
	val = xstrndup(v + 1, vlen);
	for (sp = val; *sp == ' ' || *sp == '\t'; sp++)
		;
	if ((size_t)(v - data) == 11 && strncasecmp(data, "retry-after",
	    11) == 0) {
		char	*end;
		long	 secs = strtol(sp, &end, 10);

		if (end != sp && *end == '\0' && secs >= 0)
			r->retry_after = secs;
	} else if ((size_t)(v - data) == 7 && strncasecmp(data, "warning",
	    7) == 0)
		r->warnings = curl_slist_append(r->warnings, sp);
	free(val);
	return len;
}

static size_t
on_body(char *data, size_t size, size_t nmemb, void *arg)
{
	struct attempt	*at = arg;
	size_t		 len = size * nmemb, room;

	if (at->resp.status >= 200 && at->resp.status < 300) {
		if (at->out == NULL)
			return len;
		if (dra_buf_add(at->out, data, len) != KUBE_OK) {
			at->toobig = 1;
			return 0;
		}
		return len;
	}
	room = at->errbody.max - at->errbody.len;
	if (room > 0)
		dra_buf_add(&at->errbody, data, len < room ? len : room);
	return len;
}

/* Request headers for the log, credentials redacted. */
static int
on_debug(CURL *h, curl_infotype type, char *data, size_t size, void *arg)
{
	struct kube_client	*c = arg;
	const char		*p = data, *end = data + size, *nl;
	size_t			 n;
	char			 line[1024];
	int			 first = 1;

	(void)h;
	if (type != CURLINFO_HEADER_OUT)
		return 0;
	kube_client_logf(c, 8, "Request Headers:");
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		n = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		if (n > 0 && p[n - 1] == '\r')
			n--;
		if (first) {
			first = 0;	/* the request line */
		} else if (n > 0) {
			if ((n > 14 && strncasecmp(p, "authorization:", 14) ==
			    0) || (n > 20 && strncasecmp(p,
			    "proxy-authorization:", 20) == 0)) {
				const char *colon = memchr(p, ':', n);
				const char *v = colon + 1, *sp;

				while (v < p + n && *v == ' ')
					v++;
				sp = memchr(v, ' ', (size_t)(p + n - v));
				snprintf(line, sizeof line,
				    "    %.*s: %.*s <redacted>",
				    (int)(colon - p), p,
				    sp != NULL ? (int)(sp - v) : 0, v);
			} else
				snprintf(line, sizeof line, "    %.*s", (int)n,
				    p);
			kube_client_logf(c, 8, "%s", line);
		}
		p = nl != NULL ? nl + 1 : end;
	}
	return 0;
}

static void
log_lines(struct kube_client *c, int level, const char *title,
    const char *text, size_t len)
{
	const char	*p = text, *end = text + len, *nl;

	kube_client_logf(c, level, "%s", title);
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		if (nl > p)
			kube_client_logf(c, level, "    %.*s", (int)(nl - p),
			    p);
		p = nl + 1;
	}
}

/* The client's cancel hook, polled by libcurl during transfers. */
static int
on_progress(void *arg, curl_off_t dltotal, curl_off_t dlnow,
    curl_off_t ultotal, curl_off_t ulnow)
{
	struct kube_client	*c = arg;

	(void)dltotal;
	(void)dlnow;
	(void)ultotal;
	(void)ulnow;
	return c->cancel != NULL && c->cancel(c->cancel_arg) ? 1 : 0;
}

long
kube_elapsed_ms(const struct timespec *t0)
{
	struct timespec	t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (long)(t1.tv_sec - t0->tv_sec) * 1000 +
	    (t1.tv_nsec - t0->tv_nsec) / 1000000;
}

/* "get" for "GET" into buf of len bytes, for messages. */
static const char *
lower_method(const char *m, char *buf, size_t len)
{
	size_t	i;

	for (i = 0; m[i] != '\0' && i + 1 < len; i++)
		buf[i] = (char)tolower((unsigned char)m[i]);
	buf[i] = '\0';
	return buf;
}

static int
curl_rc(CURLcode cc)
{
	switch (cc) {
	case CURLE_OPERATION_TIMEDOUT:
		return KUBE_E_TIMEOUT;
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CERTPROBLEM:
	case CURLE_SSL_CIPHER:
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_SSL_ISSUER_ERROR:
	case CURLE_SSL_CRL_BADFILE:
	case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
	case CURLE_SSL_INVALIDCERTSTATUS:
	case CURLE_SSL_ENGINE_NOTFOUND:
	case CURLE_SSL_ENGINE_SETFAILED:
	case CURLE_USE_SSL_FAILED:
		return KUBE_E_TLS;
	default:
		return KUBE_E_CONNECT;
	}
}

/* The reason phrase of code (HTTP/2 sends none). */
static const char *
status_text(int code)
{
	switch (code) {
	case 200: return "OK";
	case 201: return "Created";
	case 202: return "Accepted";
	case 204: return "No Content";
	case 400: return "Bad Request";
	case 401: return "Unauthorized";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 406: return "Not Acceptable";
	case 409: return "Conflict";
	case 410: return "Gone";
	case 415: return "Unsupported Media Type";
	case 422: return "Unprocessable Entity";
	case 429: return "Too Many Requests";
	case 500: return "Internal Server Error";
	case 502: return "Bad Gateway";
	case 503: return "Service Unavailable";
	case 504: return "Gateway Timeout";
	}
	return "";
}

static int
status_rc(int code)
{
	switch (code) {
	case 401:
		return KUBE_E_AUTH;
	case 403:
		return KUBE_E_FORBIDDEN;
	case 404:
		return KUBE_E_NOT_FOUND;
	case 409:
		return KUBE_E_CONFLICT;
	case 410:
		return KUBE_E_GONE;
	}
	return KUBE_E_API;
}

int
kube_status_error(int code, const char *method, const char *path,
    const char *body, size_t len, struct dra_err *err)
{
	const cJSON	*kind, *msg, *reason;
	cJSON		*root = NULL;
	const char	*generic = NULL, *text;
	char		 snippet[256], *lower;
	size_t		 i, n;
	int		 rc = status_rc(code);

	if (len > 0)
		root = cJSON_ParseWithLength(body, len);
	kind = cJSON_GetObjectItemCaseSensitive(root, "kind");
	msg = cJSON_GetObjectItemCaseSensitive(root, "message");
	reason = cJSON_GetObjectItemCaseSensitive(root, "reason");
	if (cJSON_IsString(kind) && strcmp(kind->valuestring, "Status") == 0 &&
	    cJSON_IsString(msg) && *msg->valuestring != '\0') {
		dra_err_set(err, rc, "%s", msg->valuestring);
		if (err != NULL && cJSON_IsString(reason))
			snprintf(err->reason, sizeof err->reason, "%s",
			    reason->valuestring);
		goto out;
	}
	/* apimachinery errors.go NewGenericServerResponse */
	switch (code) {
	case 400: generic = "the server rejected our request for an unknown "
	    "reason"; break;
	case 401: generic = "the server has asked for the client to provide "
	    "credentials"; break;
	case 403: generic = "the server does not allow access to the "
	    "requested resource"; break;
	case 404: generic = "the server could not find the requested "
	    "resource"; break;
	case 405: generic = "the server does not allow this method on the "
	    "requested resource"; break;
	case 409: generic = "the server reported a conflict"; break;
	case 410: generic = "the requested resource is no longer available";
	    break;
	case 415: generic = "the server responded with the status code 415 "
	    "but did not return more information"; break;
	case 422: generic = "the server rejected our request due to an error "
	    "in our request"; break;
	case 429: generic = "the server has received too many requests and "
	    "has asked us to try again later"; break;
	case 503: generic = "the server is currently unable to handle the "
	    "request"; break;
	case 504: generic = "the server was unable to return a response in "
	    "the time allotted, but may still be processing the request";
	    break;
	}
	lower = xstrdup(method);
	for (i = 0; lower[i] != '\0'; i++)
		lower[i] = (char)tolower((unsigned char)lower[i]);
	if (generic != NULL)
		dra_err_set(err, rc, "%s (%s %s)", generic, lower, path);
	else {
		/* a printable prefix of the body, as client-go quotes it */
		n = 0;
		for (i = 0; i < len && n + 1 < sizeof snippet; i++)
			if (isprint((unsigned char)body[i]))
				snippet[n++] = body[i];
			else if (n > 0 && snippet[n - 1] != ' ')
				snippet[n++] = ' ';
		while (n > 0 && snippet[n - 1] == ' ')
			n--;
		snippet[n] = '\0';
		text = n > 0 ? snippet : "unknown";
		if (code >= 500)
			dra_err_set(err, rc, "an error on the server (\"%s\") "
			    "has prevented the request from succeeding (%s %s)",
			    text, lower, path);
		else
			dra_err_set(err, rc, "the server responded with the "
			    "status code %d but did not return more "
			    "information (%s %s)", code, lower, path);
	}
	free(lower);
	if (err != NULL) {
		const char *r;

		switch (code) {
		case 400: r = "BadRequest"; break;
		case 401: r = "Unauthorized"; break;
		case 403: r = "Forbidden"; break;
		case 404: r = "NotFound"; break;
		case 405: r = "MethodNotAllowed"; break;
		case 409: r = "Conflict"; break;
		case 410: r = "Gone"; break;
		case 422: r = "Invalid"; break;
		case 429: r = "TooManyRequests"; break;
		case 503: r = "ServiceUnavailable"; break;
		case 504: r = "Timeout"; break;
		default: r = code >= 500 ? "InternalError" : ""; break;
		}
		snprintf(err->reason, sizeof err->reason, "%s", r);
	}
out:
	if (err != NULL)
		err->http_status = code;
	cJSON_Delete(root);
	return rc;
}

/*
 * k8s.io/apimachinery/pkg/util/net ParseWarningHeader: code SP agent SP
 * quoted-text [SP quoted-date], comma-separated.
 */
int
kube_warning_parse(const char *value, void (*fn)(void *, const char *),
    void *arg)
{
	struct dra_buf	 text;
	const char	*p = value;
	int		 code, count = 0, ok = 1;

	dra_buf_init(&text, DRA_BUF_MAX_SMALL);
	while (*p != '\0' && ok) {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (*p == '\0')
			break;
		if (!isdigit((unsigned char)p[0]) ||
		    !isdigit((unsigned char)p[1]) ||
		    !isdigit((unsigned char)p[2]) || p[3] != ' ') {
			ok = 0;
			break;
		}
		code = (p[0] - '0') * 100 + (p[1] - '0') * 10 + (p[2] - '0');
		p += 4;
		while (*p != '\0' && *p != ' ')
			p++;
		if (*p++ != ' ' || *p++ != '"') {
			ok = 0;
			break;
		}
		dra_buf_reset(&text);
		while (*p != '\0' && *p != '"') {
			if (*p == '\\' && p[1] != '\0')
				p++;
			dra_buf_add(&text, p, 1);
			p++;
		}
		if (*p++ != '"') {
			ok = 0;
			break;
		}
		if (*p == ' ' && p[1] == '"') {
			p += 2;
			while (*p != '\0' && *p != '"')
				p++;
			if (*p == '"')
				p++;
		}
		if (code == 299) {
			fn(arg, dra_buf_str(&text));
			count++;
		}
	}
	if (!ok && count == 0) {
		fn(arg, value);
		count++;
	}
	dra_buf_release(&text);
	return count;
}

static void
warn_one(void *arg, const char *msg)
{
	kube_client_warn(arg, msg);
}

CURL *
kube_http_dup(struct kube_client *c)
{
	CURL	*h;

	h = curl_easy_duphandle(c->curl);
	if (h == NULL)
		return NULL;
	/* the copy must not write into c's error buffer */
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, NULL);
	/* nor call the cancel hook: its owner removes it instead */
	curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, NULL);
	curl_easy_setopt(h, CURLOPT_NOPROGRESS, 1L);
	return h;
}

struct curl_slist *
kube_http_setup(struct kube_client *c, CURL *h, const char *url,
    const struct kube_req *req, const struct kube_auth *auth,
    struct kube_http_resp *resp)
{
	struct curl_slist	*headers;
	int			 is_get, is_head;

	is_get = strcmp(req->method, "GET") == 0;
	is_head = strcmp(req->method, "HEAD") == 0;
	headers = build_headers(c, req, auth);
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
	curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, NULL);
	curl_easy_setopt(h, CURLOPT_NOBODY, 0L);
	curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
	if (is_head)
		curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
	else if (req->body != NULL || req->content_type != NULL) {
		curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE,
		    (curl_off_t)req->body_len);
		curl_easy_setopt(h, CURLOPT_POSTFIELDS,
		    req->body != NULL ? req->body : "");
		if (strcmp(req->method, "POST") != 0)
			curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST,
			    req->method);
	} else if (!is_get)
		curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, req->method);
	curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, kube_http_on_header);
	curl_easy_setopt(h, CURLOPT_HEADERDATA, resp);
	curl_easy_setopt(h, CURLOPT_FRESH_CONNECT,
	    auth->cert_changed ? 1L : 0L);
	if (c->log_level >= 8) {
		curl_easy_setopt(h, CURLOPT_DEBUGFUNCTION, on_debug);
		curl_easy_setopt(h, CURLOPT_DEBUGDATA, c);
		curl_easy_setopt(h, CURLOPT_VERBOSE, 1L);
	}
	kube_http_resp_reset(resp);
	return headers;
}

void
kube_http_log_done(struct kube_client *c, const char *method,
    const char *shown, struct kube_http_resp *r, long ms, const char *more)
{
	struct curl_slist	*w;

	kube_client_logf(c, r->quiet && r->status >= 200 && r->status < 300 ?
	    7 : 6, "%s %s %d %s in %ld ms%s", method, shown,
	    r->status, r->reason[0] != '\0' ? r->reason :
	    status_text(r->status), ms, more != NULL ? more : "");
	if (c->log_level >= 8 && r->headers.len > 0)
		log_lines(c, 8, "Response Headers:", dra_buf_str(&r->headers),
		    r->headers.len);
	for (w = r->warnings; w != NULL; w = w->next)
		kube_warning_parse(w->data, warn_one, c);
	curl_slist_free_all(r->warnings);
	r->warnings = NULL;
}

int
kube_http_transport_error(struct kube_client *c, CURLcode cc,
    const char *errbuf, const char *method, const char *shown, long ms,
    struct dra_err *err)
{
	char	msg[CURL_ERROR_SIZE + 64], lm[16];

	if (cc == CURLE_ABORTED_BY_CALLBACK)
		snprintf(msg, sizeof msg, "canceled");
	else
		snprintf(msg, sizeof msg, "%s", errbuf != NULL &&
		    errbuf[0] != '\0' ? errbuf : curl_easy_strerror(cc));
	/* "Failed to connect" but not "SSL: ..." */
	if (isupper((unsigned char)msg[0]) && islower((unsigned char)msg[1]))
		msg[0] = (char)tolower((unsigned char)msg[0]);
	kube_client_logf(c, 6, "%s %s failed in %ld ms: %s", method, shown, ms,
	    msg);
	return dra_err_set(err, curl_rc(cc), "%s %s: %s",
	    lower_method(method, lm, sizeof lm), shown, msg);
}

int
kube_http_do(struct kube_client *c, const struct kube_req *req,
    struct dra_err *err)
{
	struct attempt		 at;
	struct kube_auth	 auth;
	struct curl_slist	*headers;
	struct timespec		 t0;
	CURLcode		 cc;
	char			*url, *shown;
	size_t			 orig_len;
	long			 ms, wait;
	int			 tries = 0, refreshed = 0, rc = KUBE_OK, again;
	unsigned		 gen;

	dra_err_clear(err);
	orig_len = req->out != NULL ? req->out->len : 0;
	url = xasprintf("%s%s", c->url_base, req->path);
	shown = xasprintf("%s%s", c->cfg.server, req->path);
	memset(&at, 0, sizeof at);
	kube_http_resp_init(&at.resp, c);
	at.resp.quiet = req->quiet;
	at.out = req->out;
	dra_buf_init(&at.errbody, KUBE_ERROR_BODY_MAX);

	for (;;) {
		tries++;
		again = 0;
		memset(&auth, 0, sizeof auth);
		if (c->send_creds &&
		    (rc = kube_auth_get(c, &auth, err)) != KUBE_OK)
			break;
		headers = kube_http_setup(c, c->curl, url, req, &auth,
		    &at.resp);
		curl_easy_setopt(c->curl, CURLOPT_WRITEFUNCTION, on_body);
		curl_easy_setopt(c->curl, CURLOPT_WRITEDATA, &at);

		at.toobig = 0;
		dra_buf_reset(&at.errbody);
		c->errbuf[0] = '\0';
		if (req->timeout_ms > 0) {
			curl_easy_setopt(c->curl, CURLOPT_TIMEOUT_MS,
			    req->timeout_ms);
			curl_easy_setopt(c->curl, CURLOPT_CONNECTTIMEOUT_MS,
			    req->timeout_ms < c->cfg.connect_timeout_ms ?
			    req->timeout_ms : c->cfg.connect_timeout_ms);
		}
		clock_gettime(CLOCK_MONOTONIC, &t0);
		cc = curl_easy_perform(c->curl);
		ms = kube_elapsed_ms(&t0);
		if (req->timeout_ms > 0) {
			curl_easy_setopt(c->curl, CURLOPT_TIMEOUT_MS,
			    c->cfg.request_timeout_ms);
			curl_easy_setopt(c->curl, CURLOPT_CONNECTTIMEOUT_MS,
			    c->cfg.connect_timeout_ms);
		}
		curl_easy_setopt(c->curl, CURLOPT_HTTPHEADER, NULL);
		curl_slist_free_all(headers);
		gen = auth.exec_gen;
		kube_auth_release(&auth);

		if (cc != CURLE_OK) {
			if (at.toobig) {
				kube_http_transport_error(c, cc, c->errbuf,
				    req->method, shown, ms, NULL);
				rc = dra_err_set(err, KUBE_E_TOOBIG,
				    "response to %s %s is larger than %zu "
				    "bytes", req->method, req->path,
				    req->out->max);
				break;
			}
			if (req->retry && tries < KUBE_RETRY_MAX_TRIES &&
			    (cc == CURLE_GOT_NOTHING ||
			    cc == CURLE_SEND_ERROR || cc == CURLE_RECV_ERROR ||
			    cc == CURLE_PARTIAL_FILE)) {
				/* with_retry.go: connection reset, EOF */
				kube_http_transport_error(c, cc, c->errbuf,
				    req->method, shown, ms, NULL);
				if (req->out != NULL) {
					req->out->len = orig_len;
					if (req->out->ptr != NULL)
						req->out->ptr[orig_len] = '\0';
				}
				c->sleep(c->sleep_arg,
				    KUBE_RETRY_AFTER_DEFAULT * 1000L);
				continue;
			}
			rc = kube_http_transport_error(c, cc, c->errbuf,
			    req->method, shown, ms, err);
			break;
		}

		kube_http_log_done(c, req->method, shown, &at.resp, ms, NULL);
		if (c->log_level >= 9) {
			const char	*b;
			size_t		 n;

			if (at.resp.status >= 200 && at.resp.status < 300 &&
			    req->out != NULL) {
				b = req->out->ptr != NULL ?
				    req->out->ptr + orig_len : "";
				n = req->out->len - orig_len;
			} else {
				b = dra_buf_str(&at.errbody);
				n = at.errbody.len;
			}
			kube_client_logf(c, 9, "Response Body: %.*s%s",
			    (int)(n < LOG_BODY_MAX ? n : LOG_BODY_MAX), b,
			    n > LOG_BODY_MAX ? " [truncated]" : "");
		}

		if (at.resp.status >= 200 && at.resp.status < 300)
			break;
		if (at.resp.status == 401 && gen != 0 && !refreshed) {
			/* exec.go: the plugin runs again, once */
			refreshed = 1;
			kube_client_logf(c, 6, "401: refreshing exec "
			    "credentials");
			if ((rc = kube_auth_refresh(c, gen, err)) != KUBE_OK)
				break;
			again = 1;
		} else if (req->retry && tries < KUBE_RETRY_MAX_TRIES &&
		    (at.resp.status == 429 || at.resp.status == 503 ||
		    (at.resp.status >= 500 && at.resp.retry_after >= 0))) {
			wait = at.resp.retry_after >= 0 ?
			    at.resp.retry_after : KUBE_RETRY_AFTER_DEFAULT;
			if (wait > KUBE_RETRY_AFTER_MAX)
				wait = KUBE_RETRY_AFTER_MAX;
			if (wait < 1)
				wait = 1;
			kube_client_logf(c, 6, "got %d, retrying in %ld s "
			    "(try %d of %d)", at.resp.status, wait, tries + 1,
			    KUBE_RETRY_MAX_TRIES);
			c->sleep(c->sleep_arg, wait * 1000L);
			again = 1;
		}
		if (again)
			continue;
		rc = kube_status_error(at.resp.status, req->method, req->path,
		    dra_buf_str(&at.errbody), at.errbody.len, err);
		break;
	}
	if (rc != KUBE_OK && rc != KUBE_E_TOOBIG && req->out != NULL) {
		req->out->len = orig_len;
		if (req->out->ptr != NULL)
			req->out->ptr[orig_len] = '\0';
	}
	kube_http_resp_release(&at.resp);
	dra_buf_release(&at.errbody);
	free(url);
	free(shown);
	return rc;
}

int
kube_client_get(struct kube_client *c, const char *path,
    struct dra_buf *out, struct dra_err *err)
{
	struct kube_req	req;

	memset(&req, 0, sizeof req);
	req.method = "GET";
	req.path = path;
	req.out = out;
	req.retry = 1;
	return kube_http_do(c, &req, err);
}

int
kube_client_ping(struct kube_client *c, const char *path, long timeout_ms,
    struct dra_err *err)
{
	struct kube_req	req;
	struct dra_buf	out;
	int		rc;

	dra_buf_init(&out, DRA_BUF_MAX_SMALL);
	memset(&req, 0, sizeof req);
	req.method = "GET";
	req.path = path;
	req.out = &out;
	req.retry = 0;
	req.timeout_ms = timeout_ms;
	req.quiet = 1;
	rc = kube_http_do(c, &req, err);
	dra_buf_release(&out);
	return rc;
}

void
kube_client_set_request_timeout(struct kube_client *c, long ms)
{
	c->cfg.request_timeout_ms = ms > 0 ? ms : 0;
	curl_easy_setopt(c->curl, CURLOPT_TIMEOUT_MS,
	    c->cfg.request_timeout_ms);
}

int
kube_client_request(struct kube_client *c, const char *method,
    const char *path, const char *content_type, const void *body,
    size_t len, struct dra_buf *out, struct dra_err *err)
{
	struct kube_req	req;

	memset(&req, 0, sizeof req);
	req.method = method;
	req.path = path;
	req.content_type = content_type;
	req.body = body;
	req.body_len = len;
	req.out = out;
	req.retry = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
	return kube_http_do(c, &req, err);
}
