/*
 * watch.c: watches of collections, many at once in one thread.
 *
 * A watch set is a libcurl multi handle; each watch is an easy handle
 * copied from the client's (kube_http_dup: TLS, proxy, connect-to,
 * compression) with the request headers of kube_http_setup, so a
 * watch authenticates and logs exactly as kube_client_get does.  The
 * body is cut at newlines into a capped line buffer (the apiserver
 * writes one JSON object per line, apimachinery
 * pkg/runtime/serializer/streaming and the json framer); each line is
 * parsed with cJSON, the watch's resourceVersion moves to the
 * object's, and the event goes to the caller.  An ERROR event (a
 * Status) or a bad line stops the transfer from inside the write
 * callback; the end is reported from kube_watch_poll, never from
 * inside libcurl, so the end callback may start the next watch.
 *
 * What an end means follows client-go: a stream the server closes
 * (even without its last chunk: io.ErrUnexpectedEOF in
 * streamwatcher.go is logged, not an error) is resumed from the last
 * resourceVersion; 410 Gone in an ERROR event or as the answer means
 * list again (reflector.go isExpiredError); anything else is an error
 * the caller backs off from.
 */
#include "client-int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cJSON.h>
#include <curl/curl.h>

#include "buf.h"
#include "err.h"
#include "xmalloc.h"

/* Extra seconds after timeoutSeconds before a silent watch is cut. */
#define WATCH_TIMEOUT_MARGIN_S	30

struct kube_watch {
	struct kube_watch_set	*ws;
	struct kube_watch	*next;
	CURL			*h;
	struct curl_slist	*headers;
	char			*path;		/* collection, for messages */
	char			*shown;		/* URL for logs */
	char			*rv;
	kube_watch_event_fn	 event_cb;
	kube_watch_end_fn	 end_cb;
	void			*arg;

	struct kube_http_resp	 resp;
	struct dra_buf		 line;		/* a partial event line */
	struct dra_buf		 errbody;	/* a non-2xx body, capped */
	size_t			 max;		/* most bytes of one line */
	size_t			 offset;	/* stream bytes before line */
	size_t			 nevents;
	unsigned		 exec_gen;
	struct timespec		 t0;

	int			 rc;		/* set by the write callback */
	struct dra_err		 err;
	char			 errbuf[CURL_ERROR_SIZE];
};

struct kube_watch_set {
	struct kube_client	*c;
	CURLM			*multi;
	struct kube_watch	*head;
	size_t			 n;
	size_t			 max_event;
	int			 timeout_s;
};

static size_t	on_data(char *, size_t, size_t, void *);
static int	process_line(struct kube_watch *, const char *, size_t);
static int	event_type(const char *, enum kube_watch_type *);
static void	watch_free(struct kube_watch *);
static void	unlink_watch(struct kube_watch_set *, struct kube_watch *);
static void	finish(struct kube_watch_set *, struct kube_watch *,
		    CURLcode);
static int	reap(struct kube_watch_set *);

struct kube_watch_set *
kube_watch_set_new(struct kube_client *c)
{
	struct kube_watch_set	*ws;

	ws = xcalloc(1, sizeof *ws);
	ws->c = c;
	ws->multi = curl_multi_init();
	if (ws->multi == NULL)
		abort();	/* only out of memory makes this fail */
	ws->max_event = KUBE_WATCH_EVENT_MAX;
	ws->timeout_s = KUBE_WATCH_TIMEOUT_S;
	return ws;
}

void
kube_watch_set_free(struct kube_watch_set *ws)
{
	if (ws == NULL)
		return;
	while (ws->head != NULL)
		kube_watch_cancel(ws, ws->head);
	curl_multi_cleanup(ws->multi);
	free(ws);
}

void
kube_watch_set_limits(struct kube_watch_set *ws, size_t max_event,
    int timeout_s)
{
	ws->max_event = max_event > 0 ? max_event : KUBE_WATCH_EVENT_MAX;
	ws->timeout_s = timeout_s > 0 ? timeout_s : KUBE_WATCH_TIMEOUT_S;
}

size_t
kube_watch_count(const struct kube_watch_set *ws)
{
	return ws->n;
}

const char *
kube_watch_rv(const struct kube_watch *w)
{
	return w->rv;
}

static void
watch_free(struct kube_watch *w)
{
	if (w->h != NULL)
		curl_easy_cleanup(w->h);
	curl_slist_free_all(w->headers);
	kube_http_resp_release(&w->resp);
	dra_buf_release(&w->line);
	dra_buf_release(&w->errbody);
	free(w->path);
	free(w->shown);
	free(w->rv);
	free(w);
}

static void
unlink_watch(struct kube_watch_set *ws, struct kube_watch *w)
{
	struct kube_watch	**pp;

	for (pp = &ws->head; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == w) {
			*pp = w->next;
			ws->n--;
			break;
		}
	}
	curl_multi_remove_handle(ws->multi, w->h);
}

struct kube_watch *
kube_watch_add(struct kube_watch_set *ws, const char *path, const char *rv,
    kube_watch_event_fn event_cb, kube_watch_end_fn end_cb, void *arg,
    struct dra_err *err)
{
	struct kube_client	*c = ws->c;
	struct kube_watch	*w;
	struct kube_auth	 auth;
	struct kube_req		 req;
	struct dra_buf		 q;
	char			*esc, *url;
	long			 limit_ms;
	int			 rc;

	dra_err_clear(err);
	memset(&auth, 0, sizeof auth);
	if (c->send_creds && (rc = kube_auth_get(c, &auth, err)) != KUBE_OK)
		return NULL;

	w = xcalloc(1, sizeof *w);
	w->ws = ws;
	w->path = xstrdup(path);
	w->rv = xstrdup(rv != NULL ? rv : "");
	w->event_cb = event_cb;
	w->end_cb = end_cb;
	w->arg = arg;
	w->max = ws->max_event;
	kube_http_resp_init(&w->resp, c);
	dra_buf_init(&w->line, w->max + 1);
	dra_buf_init(&w->errbody, KUBE_ERROR_BODY_MAX);

	/* client-go ListWatch / reflector.go watchList options */
	dra_buf_init(&q, DRA_BUF_MAX_SMALL);
	dra_buf_adds(&q, path);
	dra_buf_adds(&q, strchr(path, '?') != NULL ? "&" : "?");
	dra_buf_adds(&q, "watch=1&allowWatchBookmarks=true");
	if (*w->rv != '\0') {
		esc = kube_query_escape(w->rv);
		dra_buf_addf(&q, "&resourceVersion=%s", esc);
		free(esc);
	}
	dra_buf_addf(&q, "&timeoutSeconds=%d", ws->timeout_s);
	url = xasprintf("%s%s", c->url_base, dra_buf_str(&q));
	w->shown = xasprintf("%s%s", c->cfg.server, dra_buf_str(&q));

	w->h = kube_http_dup(c);
	if (w->h == NULL) {
		kube_auth_release(&auth);
		dra_buf_release(&q);
		free(url);
		watch_free(w);
		dra_err_set(err, KUBE_E_CONNECT, "watch %s: cannot make a "
		    "libcurl handle", path);
		return NULL;
	}
	memset(&req, 0, sizeof req);
	req.method = "GET";
	req.path = dra_buf_str(&q);
	w->headers = kube_http_setup(c, w->h, url, &req, &auth, &w->resp);
	w->exec_gen = auth.exec_gen;
	kube_auth_release(&auth);
	dra_buf_release(&q);
	free(url);

	curl_easy_setopt(w->h, CURLOPT_ERRORBUFFER, w->errbuf);
	curl_easy_setopt(w->h, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(w->h, CURLOPT_WRITEDATA, w);
	curl_easy_setopt(w->h, CURLOPT_PRIVATE, w);
	curl_easy_setopt(w->h, CURLOPT_TCP_KEEPALIVE, 1L);
	/* a watch lasts timeoutSeconds; --request-timeout is for requests */
	limit_ms = (long)(ws->timeout_s + WATCH_TIMEOUT_MARGIN_S) * 1000L;
	curl_easy_setopt(w->h, CURLOPT_TIMEOUT_MS, limit_ms);
	clock_gettime(CLOCK_MONOTONIC, &w->t0);
	if (curl_multi_add_handle(ws->multi, w->h) != CURLM_OK) {
		watch_free(w);
		dra_err_set(err, KUBE_E_CONNECT, "watch %s: cannot add the "
		    "transfer", path);
		return NULL;
	}
	w->next = ws->head;
	ws->head = w;
	ws->n++;
	kube_client_logf(c, 7, "watch %s from resourceVersion \"%s\"", path,
	    w->rv);
	return w;
}

void
kube_watch_cancel(struct kube_watch_set *ws, struct kube_watch *w)
{
	unlink_watch(ws, w);
	kube_client_logf(ws->c, 7, "watch %s canceled after %zu events",
	    w->path, w->nevents);
	watch_free(w);
}

static int
event_type(const char *s, enum kube_watch_type *t)
{
	if (strcmp(s, "ADDED") == 0)
		*t = KUBE_WATCH_ADDED;
	else if (strcmp(s, "MODIFIED") == 0)
		*t = KUBE_WATCH_MODIFIED;
	else if (strcmp(s, "DELETED") == 0)
		*t = KUBE_WATCH_DELETED;
	else if (strcmp(s, "BOOKMARK") == 0)
		*t = KUBE_WATCH_BOOKMARK;
	else
		return -1;
	return 0;
}

/* One event line (without its newline).  KUBE_OK or the end's rc. */
static int
process_line(struct kube_watch *w, const char *text, size_t n)
{
	const cJSON		*type, *obj, *meta, *rv, *code;
	enum kube_watch_type	 t;
	const char		*end = NULL;
	cJSON			*root;
	char			*status;
	size_t			 i;
	int			 rc = KUBE_OK;

	for (i = 0; i < n; i++)
		if (text[i] != ' ' && text[i] != '\t' && text[i] != '\r')
			break;
	if (i == n)
		return KUBE_OK;		/* a blank line */
	root = cJSON_ParseWithLengthOpts(text, n, &end, 0);
	if (root == NULL)
		return dra_err_set(&w->err, KUBE_E_PARSE, "malformed json in "
		    "watch of %s at byte %zu", w->path, w->offset +
		    (end != NULL && end >= text ? (size_t)(end - text) : 0));
	type = cJSON_GetObjectItemCaseSensitive(root, "type");
	obj = cJSON_GetObjectItemCaseSensitive(root, "object");
	if (!cJSON_IsString(type) || !cJSON_IsObject(obj)) {
		rc = dra_err_set(&w->err, KUBE_E_PARSE, "watch of %s: event "
		    "at byte %zu is not a watch event (no type or object)",
		    w->path, w->offset);
		goto out;
	}
	if (strcmp(type->valuestring, "ERROR") == 0) {
		/* a metav1.Status (apierrors.FromObject) */
		code = cJSON_GetObjectItemCaseSensitive(obj, "code");
		status = cJSON_PrintUnformatted(obj);
		rc = kube_status_error(cJSON_IsNumber(code) ?
		    code->valueint : 500, "GET", w->path, status,
		    status != NULL ? strlen(status) : 0, &w->err);
		free(status);
		if (rc == KUBE_OK)
			rc = dra_err_set(&w->err, KUBE_E_API, "watch of %s: "
			    "error event", w->path);
		goto out;
	}
	if (event_type(type->valuestring, &t) != 0) {
		rc = dra_err_set(&w->err, KUBE_E_PARSE, "watch of %s: unknown "
		    "event type \"%.64s\" at byte %zu", w->path,
		    type->valuestring, w->offset);
		goto out;
	}
	meta = cJSON_GetObjectItemCaseSensitive(obj, "metadata");
	rv = cJSON_GetObjectItemCaseSensitive(meta, "resourceVersion");
	if (cJSON_IsString(rv) && *rv->valuestring != '\0') {
		free(w->rv);
		w->rv = xstrdup(rv->valuestring);
	}
	w->nevents++;
	if (w->event_cb != NULL) {
		dra_err_clear(&w->err);
		rc = w->event_cb(w->arg, t, obj, &w->err);
	}
out:
	cJSON_Delete(root);
	return rc;
}

int
kube_watch_feed(struct kube_watch *w, const char *data, size_t len)
{
	const char	*nl;
	size_t		 n, start;
	int		 rc;

	if (w->rc != KUBE_OK)
		return w->rc;
	while (len > 0) {
		nl = memchr(data, '\n', len);
		n = nl != NULL ? (size_t)(nl - data) : len;
		if (w->line.len + n > w->max) {
			dra_buf_release(&w->line);
			return w->rc = dra_err_set(&w->err, KUBE_E_TOOBIG,
			    "watch of %s: an event at byte %zu is larger "
			    "than %zu bytes", w->path, w->offset, w->max);
		}
		if (nl == NULL) {
			dra_buf_add(&w->line, data, n);
			return KUBE_OK;
		}
		start = w->line.len;
		if (start == 0)
			rc = process_line(w, data, n);
		else {
			dra_buf_add(&w->line, data, n);
			rc = process_line(w, w->line.ptr, w->line.len);
		}
		w->offset += start + n + 1;
		dra_buf_reset(&w->line);
		if (rc != KUBE_OK)
			return w->rc = rc;
		data += n + 1;
		len -= n + 1;
	}
	return KUBE_OK;
}

static size_t
on_data(char *data, size_t size, size_t nmemb, void *arg)
{
	struct kube_watch	*w = arg;
	size_t			 len = size * nmemb, room;

	if (w->resp.status < 200 || w->resp.status >= 300) {
		room = w->errbody.max - w->errbody.len;
		if (room > 0)
			dra_buf_add(&w->errbody, data, len < room ? len : room);
		return len;
	}
	if (kube_watch_feed(w, data, len) != KUBE_OK)
		return 0;	/* CURLE_WRITE_ERROR ends the transfer */
	return len;
}

/* Decide how w ended (cc from libcurl), report it and free w. */
static void
finish(struct kube_watch_set *ws, struct kube_watch *w, CURLcode cc)
{
	struct kube_client	*c = ws->c;
	char			 more[96];
	long			 ms;
	int			 rc = KUBE_OK, status = w->resp.status;

	ms = kube_elapsed_ms(&w->t0);
	unlink_watch(ws, w);
	snprintf(more, sizeof more, ", watch ended after %zu events",
	    w->nevents);
	if (w->rc != KUBE_OK) {
		rc = w->rc;
		kube_http_log_done(c, "GET", w->shown, &w->resp, ms, more);
	} else if (status != 0 && (status < 200 || status >= 300) &&
	    (cc == CURLE_OK || w->resp.complete)) {
		kube_http_log_done(c, "GET", w->shown, &w->resp, ms, NULL);
		rc = kube_status_error(status, "GET", w->path,
		    dra_buf_str(&w->errbody), w->errbody.len, &w->err);
		if (status == 401 && w->exec_gen != 0) {
			/* exec.go: the next request gets fresh credentials */
			kube_client_logf(c, 6, "401: refreshing exec "
			    "credentials");
			kube_auth_refresh(c, w->exec_gen, NULL);
		}
	} else if (cc == CURLE_OK || (cc == CURLE_PARTIAL_FILE &&
	    status >= 200 && status < 300)) {
		/* the server closed the stream: resume (streamwatcher.go) */
		kube_http_log_done(c, "GET", w->shown, &w->resp, ms, more);
		if (w->line.len > 0) {
			rc = process_line(w, w->line.ptr, w->line.len);
			dra_buf_reset(&w->line);
			if (rc != KUBE_OK && cc == CURLE_PARTIAL_FILE) {
				/* a cut in the middle of an event */
				kube_client_logf(c, 6, "watch of %s: the "
				    "stream ended inside an event", w->path);
				dra_err_clear(&w->err);
				rc = KUBE_OK;
			}
		}
	} else
		rc = kube_http_transport_error(c, cc, w->errbuf, "GET",
		    w->shown, ms, &w->err);
	if (rc == KUBE_OK)
		dra_err_clear(&w->err);
	if (w->end_cb != NULL)
		w->end_cb(w->arg, rc, w->rv, &w->err);
	watch_free(w);
}

/* Report the watches that ended; returns how many. */
static int
reap(struct kube_watch_set *ws)
{
	struct kube_watch	*w;
	CURLMsg			*msg;
	int			 left, n = 0;
	char			*priv;

	while ((msg = curl_multi_info_read(ws->multi, &left)) != NULL) {
		if (msg->msg != CURLMSG_DONE)
			continue;
		priv = NULL;
		curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &priv);
		w = (struct kube_watch *)(void *)priv;
		if (w == NULL)
			continue;
		finish(ws, w, msg->data.result);
		n++;
	}
	return n;
}

int
kube_watch_poll(struct kube_watch_set *ws, long timeout_ms,
    struct dra_err *err)
{
	CURLMcode	mc;
	int		running, ended;

	mc = curl_multi_perform(ws->multi, &running);
	if (mc != CURLM_OK)
		return dra_err_set(err, KUBE_E_CONNECT, "watch: %s",
		    curl_multi_strerror(mc));
	ended = reap(ws);
	if (timeout_ms <= 0 || ended > 0)
		return KUBE_OK;
	if (timeout_ms > 24L * 3600 * 1000)
		timeout_ms = 24L * 3600 * 1000;
	mc = curl_multi_poll(ws->multi, NULL, 0, (int)timeout_ms, NULL);
	if (mc != CURLM_OK)
		return dra_err_set(err, KUBE_E_CONNECT, "watch: %s",
		    curl_multi_strerror(mc));
	mc = curl_multi_perform(ws->multi, &running);
	if (mc != CURLM_OK)
		return dra_err_set(err, KUBE_E_CONNECT, "watch: %s",
		    curl_multi_strerror(mc));
	reap(ws);
	return KUBE_OK;
}

void
kube_watch_wakeup(struct kube_watch_set *ws)
{
	curl_multi_wakeup(ws->multi);
}
