/*
 * live.c: the live data of `kubectl dra ui`, an informer per kind.
 *
 * client-go's shape (tools/cache/reflector.go ListAndWatch, store.go):
 * each kind is listed once (the pager of kube_client_list), then
 * watched from the list's resourceVersion with bookmarks; ADDED and
 * MODIFIED replace an object in the kind's cache, DELETED removes it,
 * every event and bookmark moves the resourceVersion on.  A watch the
 * server closes is started again from there; 410 Gone or an error
 * marks the data stale, waits (1 s, 2 s, 4 s ... 30 s) and lists the
 * kind again, replacing its cache only when the new list is whole.
 *
 * The caches hold each object as compact JSON text (without
 * managedFields) in a uthash table keyed by "namespace/name": a
 * fraction of a cJSON tree's memory.
 * The first snapshot is decoded while the first lists arrive: each
 * item goes to kube_snapshot_add as the pager lends it, besides into
 * the cache, in the order a build would add it, so once the last page
 * is in only kube_snapshot_finish remains.  Should that order break (a
 * list restarted after 410, an object twice, a list failing after
 * items), the snapshot is dropped and built from the caches.
 * After a burst of changes (the first change plus DEBOUNCE_MS) the
 * thread builds a finished struct kube_snapshot from every cache and
 * publishes it under the mutex, writing a byte to a pipe the UI polls;
 * the UI's poll takes it.  The next is built only once the UI has
 * taken the last (changes meanwhile wait in the caches), so memory
 * holds at most the UI's snapshot and one new one.
 *
 * The server itself is watched too: a health probe (GET /readyz, one
 * try, 5 s) every 5 s finds a server that stopped answering while its
 * connections stay open (a stopped process, a dead path the kernel
 * still acknowledges), which no watch would notice for minutes; every
 * request of the thread has a limit (30 s unless --request-timeout).
 * A failed probe, or a list that cannot reach the server, marks all
 * data stale, stops the watches and lists nothing until a probe (with
 * backoff, 1 s to 15 s) answers again; then every kind is listed
 * anew.  A context switch works the same way: the new context is
 * named at once, with no data, and discovered (then listed) with the
 * same backoff while it cannot be reached.
 *
 * A user who may not list a kind in every namespace gets, as `get`
 * does, its own namespace (-n, else the context's); the UI's ":ns
 * NAME" then makes NAME the namespace listed for those kinds
 * (set_namespace), the kinds read in every namespace staying so.
 *
 * Threads: dra_live_start lists in the caller's thread (an exec plugin
 * may prompt), then detaches the client from the terminal and starts
 * one thread that owns the client and the watch set from then on.  The
 * UI's thread only touches the fields under mu: commands (refresh,
 * namespace, context, stop), the published snapshot and status, the
 * log ring.  Stopping sets a flag that the client's cancel and sleep
 * hooks and the watch set's wake-up see, so stop returns at once.
 */
#include "live.h"

#ifdef DRA_HAVE_CLIENT

#include <errno.h>
#include <fcntl.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <uthash.h>

#include "buf.h"
#include "client.h"
#include "snapshot.h"
#include "source-int.h"
#include "xmalloc.h"

#define DEBOUNCE_MS	150	/* a burst of events, one snapshot */
#define BUILD_SHARE	3	/* at most 1/3 of the time building */
#define BACKOFF_MIN_MS	1000
#define BACKOFF_MAX_MS	30000
#define TICK_MS		1000	/* longest sleep of the thread */
#define LOG_LINES	256	/* -v lines kept for after the UI */
#define PROBE_EVERY_MS	5000	/* a health probe of the server */
#define PROBE_TIMEOUT_MS 5000	/* its limit, connecting included */
#define PROBE_PATH	"/readyz"
#define CONN_BACKOFF_MAX_MS 15000	/* probes of a server that is down */
#define REQUEST_TIMEOUT_MS 30000	/* each request, without
					   --request-timeout */
#define NKINDS		16

/* One cached object. */
struct obj {
	UT_hash_handle	 hh;
	char		*key;		/* "namespace/name" or "name" */
	char		*json;		/* compact JSON text */
};

enum kind_state {
	K_OFF,		/* not listed (not served, or not yet) */
	K_WATCH,	/* listed; watching, or about to */
	K_WAIT,		/* list again at retry_ms */
	K_DENIED	/* 403: empty until a refresh */
};

struct kind {
	struct dra_live			*l;
	const struct dra_api_kind	*k;
	struct obj			*objs;
	struct obj			*fresh;		/* a list under way */
	char				*api_version;	/* of its list */
	char				*rv;
	char				 path[512];	/* collection */
	struct kube_watch		*w;
	enum kind_state			 state;
	long				 backoff_ms;
	long long			 retry_ms;	/* monotonic */
	char				 why[512];	/* why K_WAIT */
	int				 limited;	/* listed in own_ns
							   only (403 for all) */
	int				 narrow;	/* namespaced, and
							   refused in every
							   namespace */
};

/* The thread's link to the server. */
enum conn_state {
	C_UP,		/* discovered; lists and watches run */
	C_DISCOVER,	/* a new context: discovery first */
	C_DOWN		/* the server did not answer: probes only */
};

struct dra_live {
	struct dra_ctx		*ctx;

	/* The thread's (the caller's before the thread starts). */
	struct kube_client	*c;
	struct kube_dra_info	 info;
	struct kube_watch_set	*ws;
	struct kind		 kinds[NKINDS];
	size_t			 nkinds;
	char			*ns;		/* NULL: every namespace */
	char			*own_ns;
	char			*pick_ns;	/* set_namespace's: replaces
						   own_ns (and ns) */
	enum conn_state		 conn;
	long long		 conn_retry_ms;	/* next try when not up */
	long			 conn_backoff_ms;
	char			 conn_why[512];	/* why not up */
	long long		 probe_ms;	/* next probe when up */
	struct kube_snapshot	*first;		/* decoded while listed */
	size_t			 first_n;	/* objects added to it */
	int			 dirty;
	long long		 dirty_ms;	/* first change unpublished */
	long long		 built_ms;	/* end of the last build */
	long			 build_ms;	/* how long it took */
	int64_t			 synced;	/* Unix s: all kinds current */
	char			 bad_object[512];

	pthread_t		 thread;
	int			 started;
	int			 pipe[2];

	pthread_mutex_t		 mu;
	pthread_cond_t		 cond;
	/* under mu */
	int			 stop;
	int			 detached;	/* the UI owns the terminal */
	int			 want_refresh;
	int			 want_ns;
	char			*want_ns_value;
	struct kube_client	*want_client;	/* a context to switch to */
	char			 warning[256];
	struct kube_snapshot	*pending;
	struct tui_source_status st;
	int			 notified;
	char			*lines[LOG_LINES];
	size_t			 nlines;	/* total ever logged */
	/* the kubeconfig's contexts (fixed) and the current one */
	char			**ctx_names;
	size_t			  nctx;
	char			 *ctx_current;
	char			 *ctx_current_ui;	/* lent to the UI */
};

static long long now_ms(void);
static void	 notify(struct dra_live *);
static void	 on_log(void *, int, const char *);
static void	 on_warn(void *, const char *);
static void	 on_sleep(void *, long);
static int	 on_cancel(void *);
static void	 cache_clear(struct obj **);
static int	 cache_put(struct obj **, const cJSON *);
static int	 cache_del(struct obj **, const cJSON *);
static int	 kind_keeps(const struct kind *, const cJSON *);
static int	 list_item(void *, const cJSON *, const char *,
		    struct dra_err *);
static void	 list_reset(void *);
static int	 list_kind(struct dra_live *, struct kind *, struct dra_err *);
static int	 watch_event(void *, enum kube_watch_type, const cJSON *,
		    struct dra_err *);
static void	 watch_end(void *, int, const char *, const struct dra_err *);
static void	 watch_start(struct dra_live *, struct kind *);
static void	 kind_wait(struct dra_live *, struct kind *, const char *);
static void	 why_copy(char *, size_t, const char *);
static int	 transport_error(int);
static void	 server_down(struct dra_live *, const char *);
static void	 conn_wait(struct dra_live *, const char *);
static void	 conn_try(struct dra_live *);
static void	 probe(struct dra_live *);
static int	 probe_ok(int, const struct dra_err *, char *, size_t);
static int	 stopping(struct dra_live *);
static void	 pick_namespace(struct dra_live *, char *);
static void	 kinds_init(struct dra_live *);
static struct kube_snapshot *build(struct dra_live *);
static void	 first_add(struct dra_live *, struct kind *, const cJSON *);
static void	 first_drop(struct dra_live *, const char *);
static struct kube_snapshot *first_finish(struct dra_live *);
static void	 publish(struct dra_live *, struct kube_snapshot *);
static void	 status_update(struct dra_live *);
static void	 where_update(struct dra_live *);
static struct kube_client *client_make(struct dra_live *, const char *,
		    struct dra_err *);
static void	 switch_context(struct dra_live *, struct kube_client *);
static long long publish_at(const struct dra_live *);
static void	 live_logf(struct dra_live *, int, const char *, ...)
		    __attribute__((format(printf, 3, 4)));
static void	*run(void *);
static int	 src_poll(void *, struct kube_snapshot **,
		    struct tui_source_status *, struct dra_err *);
static int	 src_fd(void *);
static void	 src_refresh(void *);
static int	 src_set_namespace(void *, const char *, struct dra_err *);
static int	 src_contexts(void *, const char ***, const char **,
		    struct dra_err *);
static int	 src_set_context(void *, const char *, struct dra_err *);

static long long
now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wake the UI: one byte in the pipe until it polls (under mu). */
static void
notify(struct dra_live *l)
{
	ssize_t	n;

	if (l->notified)
		return;
	n = write(l->pipe[1], "x", 1);
	if (n == 1)
		l->notified = 1;
}

/*
 * Client log lines: printed as other commands print them until the UI
 * owns the terminal, then kept in a ring for dra_live_stop.  Lines
 * never hold credentials (client.h).
 */
static void
on_log(void *arg, int level, const char *line)
{
	struct dra_live	*l = arg;
	size_t		 i;

	(void)level;
	pthread_mutex_lock(&l->mu);
	if (!l->detached) {
		pthread_mutex_unlock(&l->mu);
		fprintf(stderr, "%s\n", line);
		return;
	}
	i = l->nlines++ % LOG_LINES;
	free(l->lines[i]);
	l->lines[i] = xstrdup(line);
	pthread_mutex_unlock(&l->mu);
}

static void
on_warn(void *arg, const char *msg)
{
	struct dra_live	*l = arg;

	pthread_mutex_lock(&l->mu);
	if (!l->detached) {
		pthread_mutex_unlock(&l->mu);
		dra_warning("%s", msg);
		return;
	}
	snprintf(l->warning, sizeof l->warning, "warning: %s", msg);
	pthread_mutex_unlock(&l->mu);
}

/* Retry-After waits: cut short by stop. */
static void
on_sleep(void *arg, long ms)
{
	struct dra_live	*l = arg;
	struct timespec	 ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&l->mu);
	while (!l->stop && l->want_client == NULL) {
		if (pthread_cond_timedwait(&l->cond, &l->mu, &ts) ==
		    ETIMEDOUT)
			break;
	}
	pthread_mutex_unlock(&l->mu);
}

/*
 * The client's cancel hook: a request of the thread is abandoned when
 * the source stops or another context is wanted (its server may be
 * the one that hangs).
 */
static int
on_cancel(void *arg)
{
	struct dra_live	*l = arg;
	int		 stop;

	pthread_mutex_lock(&l->mu);
	stop = l->stop || l->want_client != NULL;
	pthread_mutex_unlock(&l->mu);
	return stop;
}

static int
stopping(struct dra_live *l)
{
	int	stop;

	pthread_mutex_lock(&l->mu);
	stop = l->stop;
	pthread_mutex_unlock(&l->mu);
	return stop;
}

/*
 * The cache.
 */

static void
cache_clear(struct obj **h)
{
	struct obj	*o, *tmp;

	HASH_ITER(hh, *h, o, tmp) {
		HASH_DEL(*h, o);
		free(o->key);
		free(o->json);
		free(o);
	}
}

/* "namespace/name" of obj into buf; -1 when it has no name. */
static int
obj_key(const cJSON *obj, char *buf, size_t len)
{
	const cJSON	*meta, *ns, *name;

	meta = cJSON_GetObjectItemCaseSensitive(obj, "metadata");
	name = cJSON_GetObjectItemCaseSensitive(meta, "name");
	ns = cJSON_GetObjectItemCaseSensitive(meta, "namespace");
	if (!cJSON_IsString(name))
		return -1;
	if (cJSON_IsString(ns) && *ns->valuestring != '\0')
		snprintf(buf, len, "%s/%s", ns->valuestring,
		    name->valuestring);
	else
		snprintf(buf, len, "%s", name->valuestring);
	return 0;
}

/*
 * Store obj as compact JSON text under its key.  metadata.managedFields
 * is left out: the model never reads it and it is a third of what the
 * API server sends for claims and pods.  (It is taken out of the
 * borrowed object for the print and put back, the only change to an
 * object the client lends.)  Returns 0 for a new key, 1 when an entry
 * was replaced, -1 when nothing was stored (no name).
 */
static int
cache_put(struct obj **h, const cJSON *obj)
{
	struct obj	*o;
	cJSON		*meta, *mf;
	char		 key[512], *json;

	if (obj_key(obj, key, sizeof key) != 0)
		return -1;
	meta = cJSON_GetObjectItemCaseSensitive(obj, "metadata");
	mf = cJSON_DetachItemFromObjectCaseSensitive(meta, "managedFields");
	json = cJSON_PrintUnformatted(obj);
	if (mf != NULL)
		cJSON_AddItemToObject(meta, "managedFields", mf);
	if (json == NULL)
		return -1;
	HASH_FIND_STR(*h, key, o);
	if (o == NULL) {
		o = xcalloc(1, sizeof *o);
		o->key = xstrdup(key);
		HASH_ADD_KEYPTR(hh, *h, o->key, strlen(o->key), o);
		o->json = json;
		return 0;
	}
	free(o->json);
	o->json = json;
	return 1;
}

/* Remove obj's entry; returns 1, or 0 when there was none. */
static int
cache_del(struct obj **h, const cJSON *obj)
{
	struct obj	*o;
	char		 key[512];

	if (obj_key(obj, key, sizeof key) != 0)
		return 0;
	HASH_FIND_STR(*h, key, o);
	if (o == NULL)
		return 0;
	HASH_DEL(*h, o);
	free(o->key);
	free(o->json);
	free(o);
	return 1;
}

/*
 * Lists.
 */

/*
 * Whether kd keeps obj: every object, except that of pods only those
 * that use ResourceClaims (spec.resourceClaims, immutable once the pod
 * exists) concern DRA; a cluster's other pods, often most of them, are
 * neither stored nor decoded.
 */
static int
kind_keeps(const struct kind *kd, const cJSON *obj)
{
	const cJSON	*spec, *rc;

	if (kd->k->need != DRA_NEED_PODS)
		return 1;
	spec = cJSON_GetObjectItemCaseSensitive(obj, "spec");
	rc = cJSON_GetObjectItemCaseSensitive(spec, "resourceClaims");
	return cJSON_GetArraySize(rc) > 0;
}

static int
list_item(void *arg, const cJSON *item, const char *list_api_version,
    struct dra_err *err)
{
	struct kind	*kd = arg;
	int		 put;

	(void)err;
	if (kd->api_version == NULL && list_api_version != NULL)
		kd->api_version = xstrdup(list_api_version);
	if (!kind_keeps(kd, item))
		return KUBE_OK;
	put = cache_put(&kd->fresh, item);
	if (put == 0)
		first_add(kd->l, kd, item);
	else if (put == 1)
		first_drop(kd->l, "an object listed twice");
	return KUBE_OK;
}

static void
list_reset(void *arg)
{
	struct kind	*kd = arg;

	if (kd->fresh != NULL)
		first_drop(kd->l, "a list restarted");
	cache_clear(&kd->fresh);
}

/*
 * List kd into a fresh cache and swap it in.  Returns KUBE_OK,
 * KUBE_E_FORBIDDEN (kd is then K_DENIED and empty) or an error.
 */
static int
list_kind(struct dra_live *l, struct kind *kd, struct dra_err *err)
{
	struct dra_buf	 refused;
	const char	*ns = NULL, *own;
	char		*rv = NULL, *old_av;
	int		 rc;

	if (kd->w != NULL) {
		kube_watch_cancel(l->ws, kd->w);
		kd->w = NULL;
	}
	/* the namespace asked for (set_namespace) replaces the own one */
	own = l->pick_ns != NULL ? l->pick_ns : l->own_ns;
	if (kd->k->namespaced && l->ns != NULL)
		ns = l->pick_ns != NULL ? l->pick_ns : l->ns;
	dra_buf_init(&refused, DRA_BUF_MAX_SMALL);
	old_av = kd->api_version;
	kd->api_version = NULL;
	rc = dra_list_kind(l->c, &l->info, kd->k, ns, own, list_item,
	    list_reset, kd, kd->path, sizeof kd->path, &rv, &refused, err);
	/* the refusal's text is made by refusals() from the states */
	dra_buf_release(&refused);
	kd->limited = rc == KUBE_OK && kd->k->namespaced && ns == NULL &&
	    strstr(kd->path, "/namespaces/") != NULL;
	/* refused in every namespace: the own one was tried next */
	if (rc == KUBE_OK || rc == KUBE_E_FORBIDDEN)
		kd->narrow = kd->k->namespaced && ns == NULL &&
		    (kd->limited || rc == KUBE_E_FORBIDDEN);
	if (rc != KUBE_OK) {
		if (kd->fresh != NULL)
			first_drop(l, "a list failed after items");
		cache_clear(&kd->fresh);
		free(kd->api_version);
		kd->api_version = old_av;
		if (rc == KUBE_E_FORBIDDEN) {
			free(old_av);
			kd->api_version = NULL;
			cache_clear(&kd->objs);
			free(kd->rv);
			kd->rv = NULL;
			kd->state = K_DENIED;
			l->dirty = 1;
		}
		return rc;
	}
	free(old_av);
	cache_clear(&kd->objs);
	kd->objs = kd->fresh;
	kd->fresh = NULL;
	free(kd->rv);
	kd->rv = rv;
	kd->state = K_WATCH;
	kd->why[0] = '\0';
	if (!l->dirty)
		l->dirty_ms = now_ms();
	l->dirty = 1;
	return KUBE_OK;
}

/*
 * Watches.
 */

static int
watch_event(void *arg, enum kube_watch_type type, const cJSON *obj,
    struct dra_err *err)
{
	struct kind	*kd = arg;
	struct dra_live	*l = kd->l;

	(void)err;
	kd->backoff_ms = 0;	/* the watch works */
	if (type == KUBE_WATCH_BOOKMARK)
		return KUBE_OK;
	if (type == KUBE_WATCH_DELETED) {
		if (!cache_del(&kd->objs, obj))
			return KUBE_OK;
	} else if (kind_keeps(kd, obj))
		cache_put(&kd->objs, obj);
	else
		return KUBE_OK;
	if (!l->dirty)
		l->dirty_ms = now_ms();
	l->dirty = 1;
	return KUBE_OK;
}

static void
watch_end(void *arg, int rc, const char *rv, const struct dra_err *err)
{
	struct kind	*kd = arg;
	struct dra_live	*l = kd->l;
	char		 why[512];

	kd->w = NULL;
	free(kd->rv);
	kd->rv = xstrdup(rv);
	if (rc == KUBE_OK) {
		/* timeoutSeconds passed: go on from rv (reflector.go) */
		kd->backoff_ms = 0;
		watch_start(l, kd);
		return;
	}
	snprintf(why, sizeof why, "watch %s: %.400s", kd->k->resource,
	    rc == KUBE_E_GONE ? "the resource version is too old" :
	    err->msg);
	kind_wait(l, kd, why);
	/* the server may be gone: ask it now rather than per kind */
	if (transport_error(rc))
		l->probe_ms = 0;
}

static void
watch_start(struct dra_live *l, struct kind *kd)
{
	struct dra_err	err;
	char		why[512];

	dra_err_clear(&err);
	kd->w = kube_watch_add(l->ws, kd->path, kd->rv, watch_event,
	    watch_end, kd, &err);
	if (kd->w == NULL) {
		snprintf(why, sizeof why, "watch %s: %.400s",
		    kd->k->resource, err.msg);
		kind_wait(l, kd, why);
	}
}

/*
 * Mark kd stale: list it again after the next backoff step.  why is
 * "list KIND: MSG" or "watch KIND: MSG"; a transport error's "get URL: "
 * in MSG is dropped (the URL of a watch is long and says little on a
 * status line).
 */
static void
kind_wait(struct dra_live *l, struct kind *kd, const char *why)
{
	(void)l;
	kd->backoff_ms = kd->backoff_ms == 0 ? BACKOFF_MIN_MS :
	    kd->backoff_ms * 2;
	if (kd->backoff_ms > BACKOFF_MAX_MS)
		kd->backoff_ms = BACKOFF_MAX_MS;
	kd->retry_ms = now_ms() + kd->backoff_ms;
	kd->state = K_WAIT;
	why_copy(kd->why, sizeof kd->why, why);
}

/* why into dst (len bytes) without a transport error's "get URL: ". */
static void
why_copy(char *dst, size_t len, const char *why)
{
	const char	*p, *url, *end;

	p = strstr(why, ": get http");
	if (p != NULL) {
		url = p + 6;
		end = strstr(url, ": ");
		if (end != NULL && memchr(url, ' ', (size_t)(end - url)) ==
		    NULL) {
			snprintf(dst, len, "%.*s: %s", (int)(p - why), why,
			    end + 2);
			return;
		}
	}
	snprintf(dst, len, "%s", why);
}

/* Whether rc says the server could not be reached (or answered not). */
static int
transport_error(int rc)
{
	return rc == KUBE_E_CONNECT || rc == KUBE_E_TIMEOUT ||
	    rc == KUBE_E_TLS;
}

/*
 * The server does not answer (why: what failed): every kind is stale,
 * its watch stopped (a watch on a server that hangs waits for
 * minutes), and nothing is listed until a probe answers (conn_try).
 * The caches stay: the UI shows the data as it was, stale.
 */
static void
server_down(struct dra_live *l, const char *why)
{
	struct kind	*kd;
	size_t		 i;

	if (l->conn == C_UP) {
		l->conn = C_DOWN;
		l->conn_backoff_ms = 0;
		live_logf(l, 6, "the server is down: %s", why);
	}
	conn_wait(l, why);
	for (i = 0; i < l->nkinds; i++) {
		kd = &l->kinds[i];
		if (kd->w != NULL)
			kube_watch_cancel(l->ws, kd->w);
		kd->w = NULL;
		if (kd->state == K_WATCH)
			kd->state = K_WAIT;
	}
}

/* Not up: the next try after the next backoff step; why for the note. */
static void
conn_wait(struct dra_live *l, const char *why)
{
	l->conn_backoff_ms = l->conn_backoff_ms == 0 ? BACKOFF_MIN_MS :
	    l->conn_backoff_ms * 2;
	if (l->conn_backoff_ms > CONN_BACKOFF_MAX_MS)
		l->conn_backoff_ms = CONN_BACKOFF_MAX_MS;
	l->conn_retry_ms = now_ms() + l->conn_backoff_ms;
	why_copy(l->conn_why, sizeof l->conn_why, why);
}

/*
 * Whether a probe's answer (rc of kube_client_ping) says the server is
 * there: any answer but a 5xx (/readyz may be refused to a user, or
 * missing behind a proxy: the server still answers).  Else why gets
 * the reason.
 */
static int
probe_ok(int rc, const struct dra_err *err, char *why, size_t len)
{
	if (rc == KUBE_OK || rc == KUBE_E_AUTH || rc == KUBE_E_FORBIDDEN ||
	    rc == KUBE_E_NOT_FOUND)
		return 1;
	if (rc == KUBE_E_API && err->http_status >= 500)
		snprintf(why, len, "the API server is not ready (GET %s: %d)",
		    PROBE_PATH, err->http_status);
	else
		snprintf(why, len, "the API server does not answer: %.400s",
		    err->msg);
	return 0;
}

/*
 * Up: the periodic probe; a server that does not answer within
 * PROBE_TIMEOUT_MS is down.
 */
static void
probe(struct dra_live *l)
{
	struct dra_err	err;
	char		why[512];
	int		rc;

	dra_err_clear(&err);
	rc = kube_client_ping(l->c, PROBE_PATH, PROBE_TIMEOUT_MS, &err);
	l->probe_ms = now_ms() + PROBE_EVERY_MS;
	if (!probe_ok(rc, &err, why, sizeof why) && !on_cancel(l))
		server_down(l, why);
}

/*
 * Not up, and the time has come: discover a new context's server, or
 * probe one that was down.  When it answers, every kind that is not
 * refused is listed at once.
 */
static void
conn_try(struct dra_live *l)
{
	struct kube_dra_info	 info;
	struct dra_err		 err;
	struct kind		*kd;
	char			 why[512];
	size_t			 i;
	int			 rc;

	dra_err_clear(&err);
	if (l->conn == C_DISCOVER) {
		rc = kube_discover_dra(l->c, l->ctx->opts.dra_api_version,
		    &info, &err);
		if (rc != KUBE_OK) {
			if (on_cancel(l))
				return;
			snprintf(why, sizeof why, "%scontext \"%.64s\": "
			    "%.400s", transport_error(rc) ? "cannot reach " :
			    "", kube_client_context(l->c), err.msg);
			conn_wait(l, why);
			return;
		}
		l->info = info;
	} else {
		rc = kube_client_ping(l->c, PROBE_PATH, PROBE_TIMEOUT_MS,
		    &err);
		if (!probe_ok(rc, &err, why, sizeof why)) {
			if (!on_cancel(l))
				conn_wait(l, why);
			return;
		}
	}
	live_logf(l, 6, "the server answers: listing again");
	l->conn = C_UP;
	l->conn_backoff_ms = 0;
	l->conn_why[0] = '\0';
	l->probe_ms = now_ms() + PROBE_EVERY_MS;
	for (i = 0; i < l->nkinds; i++) {
		kd = &l->kinds[i];
		if (kd->state == K_WAIT) {
			kd->retry_ms = 0;
			kd->backoff_ms = 0;
		}
	}
}

static void
kinds_init(struct dra_live *l)
{
	size_t	i;

	l->nkinds = dra_napi_kinds < NKINDS ? dra_napi_kinds : NKINDS;
	for (i = 0; i < l->nkinds; i++) {
		l->kinds[i].l = l;
		l->kinds[i].k = &dra_api_kinds[i];
		l->kinds[i].state = K_OFF;
	}
}

/* Every kind listed now (the first list, a new context). */
static int
list_all(struct dra_live *l, struct dra_err *err)
{
	struct kind	*kd;
	size_t		 i;
	int		 rc;

	for (i = 0; i < l->nkinds; i++) {
		kd = &l->kinds[i];
		if (kd->k->need == DRA_NEED_TAINT_RULES &&
		    !l->info.device_taint_rules) {
			kd->state = K_OFF;
			cache_clear(&kd->objs);
			continue;
		}
		rc = list_kind(l, kd, err);
		if (rc != KUBE_OK && rc != KUBE_E_FORBIDDEN)
			return rc;
	}
	return KUBE_OK;
}

/*
 * Snapshots.
 */

/*
 * The first snapshot, decoded as the first lists arrive: obj (lent by
 * the pager, just stored in kd's cache) is added as build() would add
 * it, with the kind's list apiVersion and kind.
 */
static void
first_add(struct dra_live *l, struct kind *kd, const cJSON *obj)
{
	struct dra_err	err;

	if (l->first == NULL)
		return;
	dra_err_clear(&err);
	if (kube_snapshot_add(l->first, obj, kd->api_version,
	    kd->k->list_kind, &err) != KUBE_OK && l->bad_object[0] == '\0')
		snprintf(l->bad_object, sizeof l->bad_object, "%.500s",
		    err.msg);
	l->first_n++;
}

/* The first snapshot no longer matches the caches: build it anew. */
static void
first_drop(struct dra_live *l, const char *why)
{
	if (l->first == NULL)
		return;
	live_logf(l, 6, "first snapshot built from the caches: %s", why);
	kube_snapshot_free(l->first);
	l->first = NULL;
}

/*
 * After the first lists: the snapshot decoded while they arrived,
 * finished, or (dropped meanwhile) one built from the caches.
 */
static struct kube_snapshot *
first_finish(struct dra_live *l)
{
	struct kube_snapshot	*s = l->first;
	long long		 t0;
	size_t			 i;

	l->first = NULL;
	if (s == NULL)
		return build(l);
	t0 = now_ms();
	for (i = 0; i < l->nkinds; i++)
		if (l->kinds[i].k->need == DRA_NEED_SLICES &&
		    l->kinds[i].state == K_DENIED)
			s->slices_unread = 1;
	kube_snapshot_finish(s);
	l->built_ms = now_ms();
	l->build_ms = (long)(l->built_ms - t0);
	live_logf(l, 6, "snapshot of %zu objects built in %ld ms (decoded "
	    "as listed)", l->first_n, l->build_ms);
	return s;
}

static struct kube_snapshot *
build(struct dra_live *l)
{
	struct kube_snapshot	*s;
	struct kind		*kd;
	struct obj		*o, *tmp;
	struct dra_err		 err;
	cJSON			*root;
	long long		 t0;
	size_t			 i, n = 0;

	t0 = now_ms();
	s = kube_snapshot_new();
	s->source = kube_snapshot_intern(s, kube_client_server(l->c));
	s->served_version = kube_snapshot_intern(s, l->info.group_version);
	l->bad_object[0] = '\0';
	for (i = 0; i < l->nkinds; i++) {
		kd = &l->kinds[i];
		if (kd->k->need == DRA_NEED_SLICES && kd->state == K_DENIED)
			s->slices_unread = 1;
		HASH_ITER(hh, kd->objs, o, tmp) {
			root = cJSON_Parse(o->json);
			if (root == NULL)
				continue;
			dra_err_clear(&err);
			if (kube_snapshot_add(s, root, kd->api_version,
			    kd->k->list_kind, &err) != KUBE_OK &&
			    l->bad_object[0] == '\0')
				snprintf(l->bad_object, sizeof l->bad_object,
				    "%.500s", err.msg);
			cJSON_Delete(root);
			n++;
		}
	}
	kube_snapshot_finish(s);
	l->built_ms = now_ms();
	l->build_ms = (long)(l->built_ms - t0);
	live_logf(l, 6, "snapshot of %zu objects built in %ld ms", n,
	    l->build_ms);
	return s;
}

/*
 * When the pending changes are published: DEBOUNCE_MS after the first
 * (a burst becomes one snapshot), and not before the thread has rested
 * (BUILD_SHARE - 1) times the last build's duration, so a cluster that
 * never stops changing costs at most a third of a core.
 */
static long long
publish_at(const struct dra_live *l)
{
	long long	t = l->dirty_ms + DEBOUNCE_MS, rest;

	rest = l->built_ms + (long long)l->build_ms * (BUILD_SHARE - 1);
	return t > rest ? t : rest;
}

/* A line for the -v log (kept by on_log), at level. */
static void
live_logf(struct dra_live *l, int level, const char *fmt, ...)
{
	char	line[512];
	va_list	ap;

	if (l->ctx->opts.verbosity < level)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	on_log(l, level, line);
}

/*
 * Hand s over (the UI's poll takes it), replacing one not taken yet;
 * dropped when another context is wanted: s is of the old one.
 */
static void
publish(struct dra_live *l, struct kube_snapshot *s)
{
	pthread_mutex_lock(&l->mu);
	if (l->want_client != NULL) {
		pthread_mutex_unlock(&l->mu);
		kube_snapshot_free(s);
		return;
	}
	kube_snapshot_free(l->pending);
	l->pending = s;
	notify(l);
	pthread_mutex_unlock(&l->mu);
}

/*
 * What 403s keep from view, short enough for a status line: "cannot
 * list resourceslices, nodes (forbidden) nor beyond namespace
 * \"team-a\"; showing what could be read" (as `get` says it in its
 * Warning line, grouped), into b; nothing when all could be read.
 * When nothing could be read it says so, short ("nothing could be
 * read: every list was forbidden, cluster-wide and in namespace
 * \"default\"; :ns NAME lists another namespace", the hint when the
 * namespaced kinds were refused in every namespace).  Returns
 * tui_source_status.partial: 0 (all read), 1 (some refused or read in
 * one namespace) or 2 (nothing).
 */
static int
refusals(struct dra_live *l, struct dra_buf *b)
{
	struct kind	*kd;
	const char	*own, *nsd_ns;
	size_t		 i, nden = 0, nlim = 0, nns = 0, nread = 0, nnarrow = 0;
	size_t		 n, nsd;
	int		 pass;

	own = l->pick_ns != NULL ? l->pick_ns : l->own_ns != NULL ?
	    l->own_ns : "";
	nsd_ns = l->ns != NULL && l->pick_ns == NULL ? l->ns : own;
	for (i = 0; i < l->nkinds; i++) {
		kd = &l->kinds[i];
		nden += kd->state == K_DENIED;
		nlim += kd->limited;
		nnarrow += kd->narrow;
		nns += kd->k->namespaced && kd->state != K_DENIED &&
		    kd->state != K_OFF;
		nread += kd->state != K_DENIED && kd->state != K_OFF;
	}
	if (nden == 0 && nlim == 0)
		return 0;
	if (nread == 0) {
		dra_buf_adds(b, "nothing could be read: every list was "
		    "forbidden");
		if (nnarrow > 0)
			dra_buf_addf(b, ", cluster-wide and in namespace "
			    "\"%s\"; :ns NAME lists another namespace",
			    nsd_ns);
		return 2;
	}
	dra_buf_adds(b, "cannot list ");
	/* the cluster's kinds, then the namespace's, named once */
	for (pass = 0, n = 0; pass < 2; pass++) {
		nsd = 0;
		for (i = 0; i < l->nkinds; i++) {
			kd = &l->kinds[i];
			if (kd->state != K_DENIED ||
			    kd->k->namespaced != pass)
				continue;
			dra_buf_addf(b, "%s%s", n++ > 0 ? ", " : "",
			    kd->k->resource);
			nsd += pass;
		}
		if (nsd > 0)
			dra_buf_addf(b, " in namespace \"%s\"", nsd_ns);
	}
	if (nden > 0)
		dra_buf_adds(b, " (forbidden)");
	if (nlim > 0) {
		dra_buf_adds(b, nden > 0 ? " nor " : "");
		if (nlim < nns) {
			for (i = 0, n = 0; i < l->nkinds; i++) {
				kd = &l->kinds[i];
				if (kd->limited)
					dra_buf_addf(b, "%s%s", n++ > 0 ?
					    ", " : "", kd->k->resource);
			}
			dra_buf_adds(b, " ");
		}
		dra_buf_addf(b, "beyond namespace \"%s\"%s", own,
		    nden > 0 ? "" : " (forbidden)");
	}
	dra_buf_adds(b, "; showing what could be read");
	return 1;
}

/* The status from the kinds' states (the thread's view), under mu. */
static void
status_update(struct dra_live *l)
{
	struct tui_source_status	 st;
	struct dra_buf			 refused;
	struct kind			*kd;
	const char			*why = NULL;
	long long			 wait_ms = 0;
	size_t				 i;

	memset(&st, 0, sizeof st);
	dra_buf_init(&refused, DRA_BUF_MAX_SMALL);
	if (l->conn != C_UP) {
		/* the server first: the kinds wait for it */
		st.stale = 1;
		if (l->conn_why[0] != '\0') {
			why = l->conn_why;
			wait_ms = l->conn_retry_ms - now_ms();
		}
	}
	for (i = 0; i < l->nkinds; i++) {
		kd = &l->kinds[i];
		if (kd->narrow)
			st.narrowed = 1;
		if (kd->state == K_WAIT) {
			st.stale = 1;
			if (why == NULL && l->conn == C_UP) {
				why = kd->why;
				wait_ms = kd->retry_ms - now_ms();
			}
		}
	}
	if (wait_ms < 0)
		wait_ms = 0;
	st.narrowed |= l->ns != NULL;
	st.connecting = l->conn == C_DISCOVER;
	st.partial = refusals(l, &refused);
	pthread_mutex_lock(&l->mu);
	if (l->want_client != NULL) {
		/* src_set_context said "connecting"; this is of the old */
		pthread_mutex_unlock(&l->mu);
		dra_buf_release(&refused);
		return;
	}
	if (why != NULL)
		snprintf(st.note, sizeof st.note, "%.440s; next try in %lld s",
		    why, wait_ms / 1000 + 1);
	else if (st.connecting)
		snprintf(st.note, sizeof st.note, "connecting to context "
		    "\"%.200s\"...", kube_client_context(l->c));
	else if (refused.len > 0)
		snprintf(st.note, sizeof st.note, "%s", dra_buf_str(&refused));
	else if (l->bad_object[0] != '\0')
		snprintf(st.note, sizeof st.note, "%s", l->bad_object);
	else if (l->warning[0] != '\0')
		snprintf(st.note, sizeof st.note, "%s", l->warning);
	st.live = 1;
	/* the newest data: now, unless a kind is out of step since then */
	if (!st.stale)
		l->synced = (int64_t)time(NULL);
	st.updated = l->synced;
	memcpy(st.where, l->st.where, sizeof st.where);
	if (st.stale != l->st.stale || st.connecting != l->st.connecting ||
	    st.partial != l->st.partial || st.narrowed != l->st.narrowed ||
	    strcmp(st.note, l->st.note) != 0)
		notify(l);
	l->st = st;
	pthread_mutex_unlock(&l->mu);
	dra_buf_release(&refused);
}

/* "context NAME (SERVER)" of the current client, under mu. */
static void
where_update(struct dra_live *l)
{
	const char	*ctx = kube_client_context(l->c);

	pthread_mutex_lock(&l->mu);
	if (*ctx != '\0')
		snprintf(l->st.where, sizeof l->st.where, "context %s (%s)",
		    ctx, kube_client_server(l->c));
	else
		snprintf(l->st.where, sizeof l->st.where, "%s",
		    kube_client_server(l->c));
	free(l->ctx_current);
	l->ctx_current = xstrdup(ctx);
	pthread_mutex_unlock(&l->mu);
}

/*
 * A client for context (NULL: the command line's), with the hooks of
 * the live source, every request limited to REQUEST_TIMEOUT_MS unless
 * --request-timeout says otherwise (a list on a server that stops
 * answering would hold the thread for good).
 */
static struct kube_client *
client_make(struct dra_live *l, const char *context, struct dra_err *err)
{
	struct kube_client_opts	 hooks;
	struct kube_client	*c;

	memset(&hooks, 0, sizeof hooks);
	hooks.log = on_log;
	hooks.log_arg = l;
	hooks.warn = on_warn;
	hooks.warn_arg = l;
	hooks.sleep = on_sleep;
	hooks.sleep_arg = l;
	hooks.cancel = on_cancel;
	hooks.cancel_arg = l;
	c = dra_client_new(l->ctx, context, &hooks, err);
	if (c != NULL && l->ctx->opts.request_timeout == NULL)
		kube_client_set_request_timeout(c, REQUEST_TIMEOUT_MS);
	return c;
}

/*
 * In the thread: c (made by src_set_context) replaces the client.
 * Everything of the old context goes: watches, caches, notes; the new
 * one is discovered first (conn_try), then listed.
 */
static void
switch_context(struct dra_live *l, struct kube_client *c)
{
	struct kube_watch_set	*ws, *old;
	struct kind		*kd;
	size_t			 i;

	/* ws is swapped under mu (the UI's thread wakes it up) */
	ws = kube_watch_set_new(c);
	pthread_mutex_lock(&l->mu);
	l->warning[0] = '\0';
	old = l->ws;
	l->ws = ws;
	pthread_mutex_unlock(&l->mu);
	kube_watch_set_free(old);
	for (i = 0; i < l->nkinds; i++) {
		kd = &l->kinds[i];
		kd->w = NULL;	/* freed with the set */
		cache_clear(&kd->objs);
		free(kd->rv);
		kd->rv = NULL;
		kd->limited = 0;
		kd->narrow = 0;
		kd->state = K_WAIT;
		kd->retry_ms = 0;
		kd->backoff_ms = 0;
		kd->why[0] = '\0';
	}
	kube_client_free(l->c);
	l->c = c;
	memset(&l->info, 0, sizeof l->info);
	free(l->own_ns);
	l->own_ns = xstrdup(l->ctx->opts.namespace != NULL ?
	    l->ctx->opts.namespace : kube_client_namespace(c));
	l->bad_object[0] = '\0';
	l->synced = 0;
	l->conn = C_DISCOVER;
	l->conn_retry_ms = 0;
	l->conn_backoff_ms = 0;
	l->conn_why[0] = '\0';
	where_update(l);
	/* an empty snapshot of the new context, at once */
	l->dirty = 1;
	l->dirty_ms = now_ms();
	live_logf(l, 6, "switched to context \"%s\"",
	    kube_client_context(c));
}

/*
 * set_namespace: pick (owned, NULL: the own namespace again) is listed
 * instead of the own one; the kinds refused in every namespace (all
 * namespaced kinds when the source was started on one namespace) are
 * listed again, the others stay as they are.
 */
static void
pick_namespace(struct dra_live *l, char *pick)
{
	struct kind	*kd;
	size_t		 i;

	free(l->pick_ns);
	l->pick_ns = pick;
	for (i = 0; i < l->nkinds; i++) {
		kd = &l->kinds[i];
		if (!kd->k->namespaced || kd->state == K_OFF ||
		    (l->ns == NULL && !kd->narrow))
			continue;
		if (kd->w != NULL)
			kube_watch_cancel(l->ws, kd->w);
		kd->w = NULL;
		cache_clear(&kd->objs);
		kd->limited = 0;
		kd->state = K_WAIT;
		kd->retry_ms = 0;
		kd->backoff_ms = 0;
		kd->why[0] = '\0';
	}
	l->dirty = 1;
	l->dirty_ms = now_ms();
}

static void *
run(void *arg)
{
	struct dra_live		*l = arg;
	struct kind		*kd;
	struct kube_client	*c;
	struct dra_err		 err;
	char			*ns = NULL, why[512];
	long long		 now, next;
	size_t			 i;
	int			 refresh, set_ns, rc, waiting;

	for (i = 0; i < l->nkinds; i++) {
		if (l->kinds[i].state == K_WATCH)
			watch_start(l, &l->kinds[i]);
	}
	l->conn = C_UP;
	l->probe_ms = now_ms() + PROBE_EVERY_MS;
	status_update(l);
	for (;;) {
		pthread_mutex_lock(&l->mu);
		if (l->stop) {
			pthread_mutex_unlock(&l->mu);
			break;
		}
		refresh = l->want_refresh;
		l->want_refresh = 0;
		set_ns = l->want_ns;
		l->want_ns = 0;
		ns = l->want_ns_value;
		l->want_ns_value = NULL;
		c = l->want_client;
		l->want_client = NULL;
		pthread_mutex_unlock(&l->mu);

		if (c != NULL)
			switch_context(l, c);
		if (set_ns) {
			pick_namespace(l, ns);
			ns = NULL;
		}
		free(ns);
		ns = NULL;
		if (refresh) {
			for (i = 0; i < l->nkinds; i++) {
				kd = &l->kinds[i];
				if (kd->state == K_OFF)
					continue;
				if (kd->w != NULL)
					kube_watch_cancel(l->ws, kd->w);
				kd->w = NULL;
				kd->state = K_WAIT;
				kd->retry_ms = 0;
				kd->backoff_ms = 0;
			}
			/* ask the server first: it may hang */
			l->conn_retry_ms = 0;
			l->conn_backoff_ms = 0;
			l->probe_ms = 0;
		}

		/* the server: discovered, or probed */
		if (l->conn != C_UP && now_ms() >= l->conn_retry_ms)
			conn_try(l);
		else if (l->conn == C_UP && now_ms() >= l->probe_ms)
			probe(l);

		/* lists due */
		for (i = 0; i < l->nkinds && l->conn == C_UP && !on_cancel(l);
		    i++) {
			kd = &l->kinds[i];
			if (kd->state != K_WAIT || kd->retry_ms > now_ms())
				continue;
			if (kd->k->need == DRA_NEED_TAINT_RULES &&
			    !l->info.device_taint_rules) {
				kd->state = K_OFF;
				continue;
			}
			dra_err_clear(&err);
			rc = list_kind(l, kd, &err);
			if (rc == KUBE_OK)
				watch_start(l, kd);
			else if (rc != KUBE_E_FORBIDDEN) {
				snprintf(why, sizeof why, "list %s: %.400s",
				    kd->k->resource, err.msg);
				kind_wait(l, kd, why);
				/* no list gets through: ask the server */
				if (transport_error(rc) && !on_cancel(l))
					server_down(l, why);
			}
		}

		/*
		 * At most two snapshots besides the caches: the UI's and
		 * one new one.  While the last one waits to be taken, the
		 * next is not built; taking it wakes the thread.
		 */
		pthread_mutex_lock(&l->mu);
		waiting = l->pending != NULL;
		pthread_mutex_unlock(&l->mu);
		now = now_ms();
		if (l->dirty && !waiting && now >= publish_at(l)) {
			l->dirty = 0;
			publish(l, build(l));
			now = now_ms();
		}
		status_update(l);

		next = now + TICK_MS;
		if (l->dirty && !waiting && publish_at(l) < next)
			next = publish_at(l);
		if (l->conn != C_UP && l->conn_retry_ms < next)
			next = l->conn_retry_ms;
		if (l->conn == C_UP && l->probe_ms < next)
			next = l->probe_ms;
		for (i = 0; i < l->nkinds && l->conn == C_UP; i++) {
			kd = &l->kinds[i];
			if (kd->state == K_WAIT && kd->retry_ms < next)
				next = kd->retry_ms;
		}
		if (stopping(l))
			break;
		dra_err_clear(&err);
		kube_watch_poll(l->ws, next > now ? (long)(next - now) : 0,
		    &err);
	}
	return NULL;
}

/*
 * The source.
 */

static int
src_poll(void *arg, struct kube_snapshot **out, struct tui_source_status *st,
    struct dra_err *err)
{
	struct dra_live	*l = arg;
	char		 c[64];

	(void)err;
	pthread_mutex_lock(&l->mu);
	while (read(l->pipe[0], c, sizeof c) > 0)
		;
	l->notified = 0;
	*out = l->pending;
	l->pending = NULL;
	if (*out != NULL && l->ws != NULL)
		kube_watch_wakeup(l->ws);	/* the next may be built */
	*st = l->st;
	pthread_mutex_unlock(&l->mu);
	return KUBE_OK;
}

static int
src_fd(void *arg)
{
	struct dra_live	*l = arg;

	return l->pipe[0];
}

static void
src_refresh(void *arg)
{
	struct dra_live	*l = arg;

	pthread_mutex_lock(&l->mu);
	l->want_refresh = 1;
	if (l->ws != NULL)
		kube_watch_wakeup(l->ws);
	pthread_mutex_unlock(&l->mu);
}

static int
src_set_namespace(void *arg, const char *ns, struct dra_err *err)
{
	struct dra_live	*l = arg;

	(void)err;
	pthread_mutex_lock(&l->mu);
	l->want_ns = 1;
	free(l->want_ns_value);
	l->want_ns_value = ns != NULL && *ns != '\0' ? xstrdup(ns) : NULL;
	if (l->ws != NULL)
		kube_watch_wakeup(l->ws);
	pthread_mutex_unlock(&l->mu);
	return KUBE_OK;
}

static int
src_contexts(void *arg, const char ***names, const char **current,
    struct dra_err *err)
{
	struct dra_live	 *l = arg;
	const char	**v;
	size_t		  i;

	(void)err;
	v = xcalloc(l->nctx + 1, sizeof *v);
	for (i = 0; i < l->nctx; i++)
		v[i] = l->ctx_names[i];
	*names = v;
	pthread_mutex_lock(&l->mu);
	free(l->ctx_current_ui);
	l->ctx_current_ui = xstrdup(l->ctx_current != NULL ?
	    l->ctx_current : "");
	*current = l->ctx_current_ui;
	pthread_mutex_unlock(&l->mu);
	return KUBE_OK;
}

/*
 * The new context's client is made here, in the UI's thread (reading
 * the kubeconfig files is quick; an exec plugin only runs at the first
 * request, in the thread), so an unusable context is refused at once
 * and nothing changes.  Else the status names the new context from
 * now on, connecting; the old context's snapshot not yet taken is
 * dropped, as is any the thread still makes of it (publish), and its
 * request under way is abandoned (on_cancel).
 */
static int
src_set_context(void *arg, const char *name, struct dra_err *err)
{
	struct dra_live		*l = arg;
	struct kube_client	*c, *old;
	size_t			 i;

	for (i = 0; i < l->nctx; i++)
		if (strcmp(l->ctx_names[i], name) == 0)
			break;
	if (i == l->nctx)
		return dra_err_set(err, KUBE_E_CONFIG, "context \"%s\" does "
		    "not exist in the kubeconfig", name);
	c = client_make(l, name, err);
	if (c == NULL)
		return err->code != KUBE_OK ? err->code : KUBE_E_CONFIG;
	kube_client_detach_terminal(c);
	pthread_mutex_lock(&l->mu);
	old = l->want_client;
	l->want_client = c;
	kube_snapshot_free(l->pending);
	l->pending = NULL;
	free(l->ctx_current);
	l->ctx_current = xstrdup(kube_client_context(c));
	snprintf(l->st.where, sizeof l->st.where, "context %s (%s)",
	    kube_client_context(c), kube_client_server(c));
	l->st.stale = 1;
	l->st.connecting = 1;
	l->st.partial = 0;
	l->st.narrowed = 0;
	l->st.updated = 0;
	snprintf(l->st.note, sizeof l->st.note, "connecting to context "
	    "\"%.200s\"...", kube_client_context(c));
	notify(l);
	if (l->ws != NULL)
		kube_watch_wakeup(l->ws);
	pthread_cond_broadcast(&l->cond);
	pthread_mutex_unlock(&l->mu);
	kube_client_free(old);	/* never used */
	return KUBE_OK;
}

void
dra_live_source(struct dra_live *l, struct tui_source *src)
{
	memset(src, 0, sizeof *src);
	src->arg = l;
	src->poll = src_poll;
	src->fd = src_fd;
	src->refresh = src_refresh;
	src->set_namespace = src_set_namespace;
	src->contexts = src_contexts;
	src->set_context = src_set_context;
}

struct dra_live *
dra_live_start(struct dra_ctx *ctx, const char *ns, struct dra_err *err)
{
	struct dra_live		 *l;
	const char *const	 *names;
	size_t			  i, n;
	int			  flags;

#ifdef __GLIBC__
	/*
	 * One malloc arena for both threads: the snapshots the thread
	 * builds are freed by the UI's thread and the other way round;
	 * with an arena of its own the thread held 23 MB more (135 MB
	 * against 112 MB at 10,000 devices and 8,000 claims).
	 */
	mallopt(M_ARENA_MAX, 1);
#endif
	l = xcalloc(1, sizeof *l);
	l->ctx = ctx;
	l->pipe[0] = l->pipe[1] = -1;
	pthread_mutex_init(&l->mu, NULL);
	pthread_cond_init(&l->cond, NULL);
	kinds_init(l);
	l->ns = ns != NULL ? xstrdup(ns) : NULL;
	if (pipe(l->pipe) == -1) {
		dra_err_set(err, KUBE_E_IO, "pipe: %s", strerror(errno));
		goto fail;
	}
	for (i = 0; i < 2; i++) {
		flags = fcntl(l->pipe[i], F_GETFL);
		fcntl(l->pipe[i], F_SETFL, flags | O_NONBLOCK);
		fcntl(l->pipe[i], F_SETFD, FD_CLOEXEC);
	}

	l->c = client_make(l, NULL, err);
	if (l->c == NULL)
		goto fail;
	if (kube_client_insecure(l->c))
		dra_warning("TLS verification is off: the server's identity "
		    "is not checked");
	if (kube_discover_dra(l->c, ctx->opts.dra_api_version, &l->info,
	    err) != KUBE_OK)
		goto fail;
	l->own_ns = xstrdup(ctx->opts.namespace != NULL ?
	    ctx->opts.namespace : kube_client_namespace(l->c));
	names = kube_client_contexts(l->c, &n);
	l->ctx_names = xcalloc(n + 1, sizeof *l->ctx_names);
	for (i = 0; i < n; i++)
		l->ctx_names[i] = xstrdup(names[i]);
	l->nctx = n;
	where_update(l);

	/* the first list, while the terminal is still the user's */
	l->first = kube_snapshot_new();
	l->first->source = kube_snapshot_intern(l->first,
	    kube_client_server(l->c));
	l->first->served_version = kube_snapshot_intern(l->first,
	    l->info.group_version);
	l->bad_object[0] = '\0';
	if (list_all(l, err) != KUBE_OK)
		goto fail;
	l->ws = kube_watch_set_new(l->c);
	l->dirty = 0;
	publish(l, first_finish(l));
	status_update(l);

	kube_client_detach_terminal(l->c);
	pthread_mutex_lock(&l->mu);
	l->detached = 1;
	pthread_mutex_unlock(&l->mu);
	if (pthread_create(&l->thread, NULL, run, l) != 0) {
		dra_err_set(err, KUBE_E_IO, "cannot start the watch thread");
		goto fail;
	}
	l->started = 1;
	return l;
fail:
	dra_live_stop(l);
	return NULL;
}

void
dra_live_stop(struct dra_live *l)
{
	size_t	i, first;

	if (l == NULL)
		return;
	pthread_mutex_lock(&l->mu);
	l->stop = 1;
	if (l->ws != NULL)
		kube_watch_wakeup(l->ws);
	pthread_cond_broadcast(&l->cond);
	pthread_mutex_unlock(&l->mu);
	if (l->started)
		pthread_join(l->thread, NULL);

	/* the -v lines the UI kept off the screen */
	first = l->nlines > LOG_LINES ? l->nlines - LOG_LINES : 0;
	if (first > 0)
		fprintf(stderr, "(%zu earlier log lines dropped)\n", first);
	for (i = first; i < l->nlines; i++)
		fprintf(stderr, "%s\n", l->lines[i % LOG_LINES]);
	for (i = 0; i < LOG_LINES; i++)
		free(l->lines[i]);

	kube_watch_set_free(l->ws);
	for (i = 0; i < l->nkinds; i++) {
		cache_clear(&l->kinds[i].objs);
		cache_clear(&l->kinds[i].fresh);
		free(l->kinds[i].api_version);
		free(l->kinds[i].rv);
	}
	kube_client_free(l->c);
	kube_snapshot_free(l->pending);
	kube_snapshot_free(l->first);
	for (i = 0; i < l->nctx; i++)
		free(l->ctx_names[i]);
	free(l->ctx_names);
	free(l->ctx_current);
	free(l->ctx_current_ui);
	free(l->ns);
	free(l->own_ns);
	free(l->want_ns_value);
	free(l->pick_ns);
	kube_client_free(l->want_client);
	if (l->pipe[0] != -1)
		close(l->pipe[0]);
	if (l->pipe[1] != -1)
		close(l->pipe[1]);
	pthread_cond_destroy(&l->cond);
	pthread_mutex_destroy(&l->mu);
	free(l);
}

#else /* !DRA_HAVE_CLIENT */

struct dra_live *
dra_live_start(struct dra_ctx *ctx, const char *ns, struct dra_err *err)
{
	(void)ctx;
	(void)ns;
	dra_err_set(err, KUBE_E_CONFIG, "this build has no cluster client: "
	    "read objects from a file with --from FILE");
	return NULL;
}

void
dra_live_source(struct dra_live *l, struct tui_source *src)
{
	(void)l;
	(void)src;
}

void
dra_live_stop(struct dra_live *l)
{
	(void)l;
}

#endif /* DRA_HAVE_CLIENT */
