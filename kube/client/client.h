/*
 * client.h: the Kubernetes API client of kubectl-dra (library kube_client).
 *
 * A struct kube_client is built from kubeconfig files the way kubectl
 * builds its rest.Config (client-go tools/clientcmd: loader.go for the
 * KUBECONFIG list and merging, client_config.go for contexts and
 * overrides, validation.go for the checks, rest/config.go for in-cluster
 * configuration), then talks HTTP(S) through libcurl with the
 * credentials the configuration names (bearer token, token file, client
 * certificate, basic auth, exec credential plugins, impersonation).
 *
 * Nothing here prints or exits.  Every function that can fail returns
 * an enum kube_rc (kube/util/err.h) and fills a caller-supplied struct
 * dra_err; err may be NULL to discard the detail.  Messages are
 * lowercase and name the file and line:column, the field or the
 * request that failed.  No message and no log line ever contains a
 * token, a password, a private key or an exec plugin's environment.
 *
 * A client is not thread-safe: use one per thread.
 */
#ifndef KUBE_CLIENT_H
#define KUBE_CLIENT_H

#include <stddef.h>

#include "buf.h"
#include "err.h"

struct cJSON;
struct kube_client;

/* How an exec plugin may use standard input (interactiveMode). */
enum kube_stdin {
	KUBE_STDIN_DETECT = 0,	/* a terminal if isatty(0) */
	KUBE_STDIN_TERMINAL,	/* treat stdin as a terminal */
	KUBE_STDIN_NONE		/* stdin unavailable (e.g. a curses UI) */
};

/*
 * Everything kube_client_new needs besides the environment.  Zero it
 * (memset or "= { 0 }") and set what the command line gave; NULL or 0
 * means "not given".  Strings are borrowed for the duration of
 * kube_client_new only: the client keeps copies.
 *
 * The overrides are kubectl's global flags and apply exactly as
 * clientcmd's ConfigOverrides do (client_config.go getContext,
 * getAuthInfo, getCluster):
 *   - context picks the context instead of current-context; cluster
 *     and user replace the context's references.  A name given here
 *     that no file defines is an error.
 *   - namespace wins over the context's namespace (else "default").
 *   - server replaces the cluster's server and, unless tls_server_name
 *     is also given, clears the file's tls-server-name.
 *   - insecure_skip_tls_verify or certificate_authority replace the
 *     cluster's CA and CA data and insecure flag together.
 *   - token, username/password, client_certificate/client_key replace
 *     the user's fields of the same kind (paths relative to the
 *     current directory, as kubectl's flags are).
 *   - as, as_groups and as_uid set impersonation (kubectl --as,
 *     --as-group, --as-uid).
 */
struct kube_client_opts {
	const char	 *kubeconfig;	/* --kubeconfig: this file only */
	const char	 *context;	/* --context */
	const char	 *cluster;	/* --cluster */
	const char	 *user;		/* --user */
	const char	 *namespace;	/* -n, --namespace */
	const char	 *server;	/* -s, --server */
	const char	 *tls_server_name;
	const char	 *certificate_authority;
	int		  insecure_skip_tls_verify;
	const char	 *token;
	const char	 *username;
	const char	 *password;
	const char	 *client_certificate;
	const char	 *client_key;
	const char	 *as;
	const char	 *as_uid;
	const char *const *as_groups;	/* n_as_groups strings */
	size_t		  n_as_groups;

	long		  request_timeout_ms;	/* whole request; 0 = none */
	long		  connect_timeout_ms;	/* 0 = 10000 */
	int		  chunk_size;		/* list page size; 0 = 500 */

	/*
	 * Verbose log (kubectl -v).  log_level 0 logs nothing; >= 6 logs
	 * one line per request ("GET https://host/path 200 OK in 12 ms");
	 * >= 8 adds request and response headers, with the credentials in
	 * Authorization headers replaced by "<redacted>"; >= 9 adds up to
	 * 1 KiB of each response body.  line is borrowed for the call and
	 * has no trailing newline.
	 */
	void		(*log)(void *arg, int level, const char *line);
	void		 *log_arg;
	int		  log_level;

	/*
	 * Warnings for the user: the text of each distinct "Warning:"
	 * response header (RFC 7234 299 warnings, as client-go's
	 * WarningHandler with deduplication) and configuration warnings
	 * such as "config not found: FILE" when every KUBECONFIG entry is
	 * missing.  msg is borrowed for the call.  NULL drops them.
	 */
	void		(*warn)(void *arg, const char *msg);
	void		 *warn_arg;

	/*
	 * How the client waits before a retry (ms > 0).  NULL uses
	 * nanosleep(2); tests pass a recorder so that nothing sleeps.
	 */
	void		(*sleep)(void *arg, long ms);
	void		 *sleep_arg;

	enum kube_stdin	  stdin_mode;	/* for exec interactiveMode */

	/*
	 * Service account directory for in-cluster configuration; NULL
	 * means /var/run/secrets/kubernetes.io/serviceaccount.
	 */
	const char	 *incluster_dir;

	/*
	 * Send credentials over plain http:// too.  client-go sends none
	 * unless the transport is TLS (rest.IsConfigTransportTLS); only the
	 * loopback test servers set this.
	 */
	int		  http_credentials;

	/*
	 * Polled (from the requesting thread) while a request of
	 * kube_client_get, kube_client_request or kube_client_list runs:
	 * returning non-zero abandons it with KUBE_E_CONNECT ("... :
	 * canceled"), so that a background thread can stop promptly.
	 * NULL: never.  Retry waits go through sleep, which a caller
	 * wanting prompt cancellation also replaces.
	 */
	int		(*cancel)(void *arg);
	void		 *cancel_arg;
};

/*
 * Load the configuration as kubectl does and make a client.
 *
 * Files: opts->kubeconfig alone if set (it must exist), else each
 * entry of $KUBECONFIG (':'-separated; empty entries and duplicates
 * dropped; missing files skipped, with a warning if all are missing),
 * else ~/.kube/config.  The files are merged as clientcmd's loader.go
 * does: the first file that defines a cluster, user or context name
 * wins the whole entry, and the first file that sets current-context
 * wins it.  Relative certificate-authority, client-certificate,
 * client-key, tokenFile and an exec command containing '/' resolve
 * against the directory of the file that defined the entry.
 *
 * When the chosen context yields no cluster at all and no --server is
 * given, in-cluster configuration is used if KUBERNETES_SERVICE_HOST and
 * KUBERNETES_SERVICE_PORT are set and the service account token exists
 * (clientcmd merged_client_builder.go); the namespace then comes from
 * POD_NAMESPACE, the service account's namespace file, or "default".
 * Else KUBERNETES_MASTER, if set, is the server (clientcmd
 * ClusterDefaults).  Else the result is KUBE_E_CONFIG: kubectl would
 * fall back to http://localhost:8080, which is never what a user of
 * this tool wants.
 *
 * Validation follows clientcmd validation.go (ConfirmUsable) for the
 * chosen context, cluster and user, and reports all problems found in
 * one message ("invalid configuration: ...; ...").  Unlike clientcmd,
 * a context that names a cluster or user no file defines is an error
 * naming it and the files, rather than an anonymous request or a
 * request to localhost.
 *
 * A tokenFile is read here (an unreadable one is an error) and again
 * when it is a minute old.  Exec plugins run at the first request, not
 * here.
 *
 * Returns the client, which the caller frees with kube_client_free, or
 * NULL with err set:
 *   KUBE_E_CONFIG  no usable configuration: missing --kubeconfig file,
 *                  malformed YAML ("FILE:LINE:COL: problem"), a field
 *                  of the wrong type or bad base64 ("FILE:LINE:COL:
 *                  users[0].user.client-key-data: ..."), unknown names,
 *                  failed validation
 *   KUBE_E_IO      a file exists but cannot be read (the message
 *                  names it; an unreadable tokenFile is one)
 *   KUBE_E_TOOBIG  a kubeconfig file larger than 16 MiB
 */
struct kube_client *kube_client_new(const struct kube_client_opts *opts,
	    struct dra_err *err);

/* Free c and wipe the credentials it held.  NULL is a no-op. */
void	kube_client_free(struct kube_client *c);

/*
 * Accessors.  Strings are borrowed and live as long as c.
 */

/* Context name in use ("" for in-cluster or a context-less --server). */
const char *kube_client_context(const struct kube_client *c);

/* Cluster and user entry names in use ("" when none). */
const char *kube_client_cluster_name(const struct kube_client *c);
const char *kube_client_user_name(const struct kube_client *c);

/* Namespace: --namespace, else the context's, else "default". */
const char *kube_client_namespace(const struct kube_client *c);

/*
 * Server URL as requests use it: scheme, host, port if given, path
 * prefix if any, no trailing '/' ("https://10.0.0.1:6443").
 */
const char *kube_client_server(const struct kube_client *c);

/*
 * Non-zero when TLS verification is off (insecure-skip-tls-verify in
 * the cluster or from the override).  The caller should warn the user.
 */
int	kube_client_insecure(const struct kube_client *c);

/* Non-zero when the configuration came from in-cluster settings. */
int	kube_client_in_cluster(const struct kube_client *c);

/*
 * The kubeconfig files that were read, in precedence order (missing
 * files skipped).  *n gets the count (0 for in-cluster); the array and
 * strings are borrowed.
 */
const char *const *kube_client_files(const struct kube_client *c,
	    size_t *n);

/*
 * The names of every context the kubeconfig files define, each once,
 * in file order (the first file that defines a name wins it, as
 * clientcmd's loader.go merges them).  *n gets the count (0 for
 * in-cluster or no files); the array and strings are borrowed.
 */
const char *const *kube_client_contexts(const struct kube_client *c,
	    size_t *n);

/*
 * From now on no exec credential plugin of c may use the terminal: it
 * runs with standard input and standard error on /dev/null and
 * spec.interactive false, so interactiveMode Always fails with
 * KUBE_E_EXEC ("exec plugin cannot support interactive mode: standard
 * input is not a terminal") instead of prompting.  For a full-screen
 * UI, after the credentials were obtained while the terminal was
 * still the user's.  There is no way back.
 */
void	kube_client_detach_terminal(struct kube_client *c);

/*
 * How requests authenticate, a static string: "token", "token-file",
 * "client-certificate", "basic", "exec", "in-cluster-token" or "none"
 * (token or basic auth come first when a certificate is also set).
 */
const char *kube_client_auth_kind(const struct kube_client *c);

/*
 * GET path (which starts with '/' and may carry "?query") and append
 * the body of a 2xx answer to out, whose limit the caller chose with
 * dra_buf_init.  Reads are retried on 429 and 503, and on other 5xx
 * answers that carry Retry-After, sleeping for Retry-After seconds (1
 * to 30; 1 when absent) through opts->sleep, for at most 10 tries
 * (client-go rest/with_retry.go, request.go maxRetries); a connection
 * that drops without an answer is retried the same way after 1 s.  A
 * 401 when an exec plugin supplied the credentials re-runs the plugin
 * once and repeats the request (client-go only refreshes for the next
 * request).
 *
 * On failure out keeps what it held before the call, except after
 * KUBE_E_TOOBIG (out freed, as dra_buf_add does).  Errors:
 *   KUBE_E_CONNECT, KUBE_E_TLS, KUBE_E_TIMEOUT   transport failures
 *   KUBE_E_AUTH (401), KUBE_E_FORBIDDEN (403), KUBE_E_NOT_FOUND (404),
 *   KUBE_E_CONFLICT (409), KUBE_E_GONE (410), KUBE_E_API (others)
 *                  err->msg is the server's Status message (e.g.
 *                  'resourceclaims.resource.k8s.io is forbidden: User
 *                  "x" cannot list ...'), or client-go's generic text
 *                  for the status code when the body is not a Status;
 *                  err->http_status and err->reason are set
 *   KUBE_E_TOOBIG  the body passed out's limit
 *   KUBE_E_EXEC    the exec credential plugin failed
 *   KUBE_E_IO      a tokenFile could not be re-read
 */
int	kube_client_get(struct kube_client *c, const char *path,
	    struct dra_buf *out, struct dra_err *err);

/*
 * Whether the server answers, quickly: GET path (a health endpoint
 * such as "/readyz" or "/version") once, within timeout_ms for the
 * whole request, connecting included (<= 0: the client's timeouts).
 * Nothing is retried (no 429/5xx or dropped-connection retries, which
 * would hide a server that hangs); a 401 with exec credentials still
 * re-runs the plugin once.  The body is read and dropped.  For a
 * client that watches and must notice a server that stopped answering
 * while its connections stay open (a stopped process, a half-open TCP
 * path): TCP keepalive alone does not see that, the kernel still
 * acknowledges.  An answer is logged at -v 7 (-v 6 logs every other
 * request), a failure at -v 6.
 * Returns KUBE_OK for a 2xx answer, else the errors of kube_client_get
 * (KUBE_E_TIMEOUT: "get URL: operation timed out after 5000
 * milliseconds ..."; KUBE_E_CONNECT; KUBE_E_FORBIDDEN, ... when the
 * server answered with that status).
 */
int	kube_client_ping(struct kube_client *c, const char *path,
	    long timeout_ms, struct dra_err *err);

/*
 * From now on every request of c (not its watches, which last
 * timeoutSeconds) ends with KUBE_E_TIMEOUT after ms milliseconds, as
 * kube_client_opts.request_timeout_ms does (0: no limit).  For a
 * caller that must not hang on a server that stops answering in the
 * middle of a request, when the user gave no --request-timeout.
 */
void	kube_client_set_request_timeout(struct kube_client *c, long ms);

/*
 * Any request: method ("GET", "POST", "PATCH", "PUT", "DELETE"), path
 * as for kube_client_get, content_type of body (NULL when there is no
 * body), body of len bytes (may be NULL when len is 0; borrowed).  The
 * 2xx answer is appended to out (NULL to discard it).  Only GET and
 * HEAD are retried on 429/5xx; the 401 exec re-run applies to all.
 * Errors as kube_client_get.
 */
int	kube_client_request(struct kube_client *c, const char *method,
	    const char *path, const char *content_type, const void *body,
	    size_t len, struct dra_buf *out, struct dra_err *err);

/*
 * Called once per element of a list's "items".  item is borrowed and
 * valid only during the call; list_api_version is the list's own
 * apiVersion ("resource.k8s.io/v1"), which matters because items of a
 * list often lack apiVersion and kind.  Return KUBE_OK to go on, or an
 * error code (with err filled) to stop the list with that code.
 */
typedef int	(*kube_list_item_fn)(void *arg, const struct cJSON *item,
		    const char *list_api_version, struct dra_err *err);

/* Called before a list restarts: drop every item handed so far. */
typedef void	(*kube_list_reset_fn)(void *arg);

/*
 * List the collection at path ("/apis/resource.k8s.io/v1/resourceslices")
 * page by page, as client-go's pager does: "limit=<chunk_size>" (500)
 * and then "continue=<token>" until metadata.continue is empty.  query
 * (NULL or "" for none) is extra URL-encoded query text such as
 * "fieldSelector=spec.nodeName%3Dn1" (see kube_query_escape).  Each page
 * is parsed with cJSON and freed before the next is fetched, so at most
 * one page is in memory.
 *
 * When a continue token has expired (410, reason Expired) the list
 * restarts from the beginning, once: reset_cb(arg) is called first so
 * the caller can drop what it got.  Without reset_cb the 410 is
 * returned as KUBE_E_GONE instead.
 *
 * resource_version, if not NULL, receives the list's
 * metadata.resourceVersion (the caller frees it; NULL on error).
 *
 * Errors: those of kube_client_get; KUBE_E_PARSE for a page that is
 * not JSON ("malformed json in response to GET PATH at byte N") or has
 * no items array; whatever item_cb returns.
 */
int	kube_client_list(struct kube_client *c, const char *path,
	    const char *query, kube_list_item_fn item_cb,
	    kube_list_reset_fn reset_cb, void *arg, char **resource_version,
	    struct dra_err *err);

/*
 * s percent-encoded for a query value (RFC 3986 unreserved characters
 * kept), newly allocated; the caller frees it.
 */
char	*kube_query_escape(const char *s);

/* resource.k8s.io versions this client can read, newest first. */
#define KUBE_DRA_V1		0x1
#define KUBE_DRA_V1BETA2	0x2
#define KUBE_DRA_V1BETA1	0x4

struct kube_dra_info {
	int	served;			/* KUBE_DRA_* bits the server serves */
	int	chosen;			/* one KUBE_DRA_* bit */
	char	version[16];		/* chosen version: "v1" */
	char	group_version[48];	/* "resource.k8s.io/v1" */
	int	device_taint_rules;	/* some version serves them */
	/*
	 * Where devicetaintrules are read: group_version when it serves
	 * them, else the newest version that does; "" when none does.
	 */
	char	taint_rules_group_version[48];
};

/*
 * Which resource.k8s.io versions the server serves (GET
 * /apis/resource.k8s.io) and which one to read: want ("v1", "v1beta2"
 * or "v1beta1") when not NULL, else v1, else v1beta2, else v1beta1;
 * then which version serves devicetaintrules (GET
 * /apis/resource.k8s.io/<version>): the chosen one when it does, else
 * the newest of v1, v1beta2 and v1alpha3 the group lists that does
 * (one more GET each; v1beta1 never served the kind), so that reading
 * an older version still finds the rules.  Fills *info.
 *
 * Errors: KUBE_E_UNSUPPORTED ("the server does not serve
 * resource.k8s.io (Kubernetes 1.34+ serves resource.k8s.io/v1)") when
 * the group is absent or serves none of these versions, or ("the
 * server does not serve resource.k8s.io/v1beta1; it serves v1") when
 * want is not served; KUBE_E_CONFIG when want is none of the three;
 * KUBE_E_PARSE for a malformed discovery document; those of
 * kube_client_get.
 */
int	kube_discover_dra(struct kube_client *c, const char *want,
	    struct kube_dra_info *info, struct dra_err *err);

/*
 * The versions in served (KUBE_DRA_* bits, as kube_dra_info.served)
 * as text, newest first, comma-separated: "v1,v1beta2"; "" for none.
 * Written into buf of len bytes (cut at a whole name when it does not
 * fit); returns buf.
 */
char	*kube_dra_served_text(int served, char *buf, size_t len);

/*
 * The server's version from GET /version: *major and *minor as numbers
 * (leading digits of "major"/"minor", so GKE's "37+" gives 37), and
 * gitVersion ("v1.37.2") copied NUL-terminated into git_version of
 * git_version_len bytes (truncated if longer; git_version may be NULL).
 * Errors: KUBE_E_PARSE when the answer lacks major or minor; those of
 * kube_client_get.
 */
int	kube_server_version(struct kube_client *c, int *major, int *minor,
	    char *git_version, size_t git_version_len, struct dra_err *err);

/*
 * Watches.
 *
 * A watch is "GET <collection>?watch=1&allowWatchBookmarks=true&
 * resourceVersion=RV&timeoutSeconds=N": the server answers 200 and
 * then streams one JSON object per line, {"type": T, "object": O},
 * until timeoutSeconds pass or something breaks (Kubernetes API
 * concepts, "Efficient detection of changes"; apimachinery
 * pkg/watch/streamwatcher.go, client-go rest/watch/decoder.go).  T is
 * ADDED, MODIFIED or DELETED with O the object; BOOKMARK with O an
 * object of the kind carrying only metadata.resourceVersion; or ERROR
 * with O a Status.  Every event's metadata.resourceVersion is where a
 * new watch resumes (client-go tools/cache/reflector.go watchHandler
 * and setLastSyncResourceVersion).
 *
 * A watch set runs many watches in one thread over libcurl's multi
 * interface: one easy handle per watch with the TLS, proxy, compression
 * and credential set-up of kube_client_get (HTTP/2 multiplexes them on
 * one connection when the server offers it), redacted logs as
 * kube_client_get's at -v 6/8.  Nothing is retried inside: the caller
 * decides as client-go's reflector does (resume from the last
 * resourceVersion after a clean end; list again after 410 Gone or an
 * error, with backoff).
 */
struct kube_watch_set;
struct kube_watch;

/* The events a watch hands over (ERROR ends the watch instead). */
enum kube_watch_type {
	KUBE_WATCH_ADDED = 1,
	KUBE_WATCH_MODIFIED,
	KUBE_WATCH_DELETED,
	KUBE_WATCH_BOOKMARK
};

/* Default most bytes of one event line, and server-side timeout. */
#define KUBE_WATCH_EVENT_MAX	(64UL << 20)
#define KUBE_WATCH_TIMEOUT_S	300

/*
 * One event.  object is borrowed for the call (for BOOKMARK it has
 * only apiVersion, kind and metadata.resourceVersion).  The watch's
 * resourceVersion has already moved to the event's.  Return KUBE_OK to
 * go on, or an error code with err filled to end the watch with it.
 * Must not add, cancel or free watches.
 */
typedef int	(*kube_watch_event_fn)(void *arg, enum kube_watch_type type,
		    const struct cJSON *object, struct dra_err *err);

/*
 * The end of a watch, called once, from kube_watch_poll.  rv is the
 * last resourceVersion seen (the one the watch started from when no
 * event came; borrowed for the call); rc and err say why:
 *   KUBE_OK         the server closed the stream (timeoutSeconds, an
 *                   apiserver shutting down, a cut connection after a
 *                   whole event): watch again from rv
 *   KUBE_E_GONE     410 Gone: an ERROR event with a Status of code 410
 *                   ("too old resource version: 5 (1204)"), or a 410
 *                   answer: list again and watch from the new list's
 *                   resourceVersion
 *   KUBE_E_TOOBIG   one event line was longer than the set's limit
 *   KUBE_E_PARSE    a line that is not a watch event (err names the
 *                   byte offset in the stream), or an unknown type
 *   the errors of kube_client_get for a non-2xx answer or an ERROR
 *   event with another code, and for transport failures (a 401 after
 *   exec credentials re-runs the plugin first, so a new list or watch
 *   gets fresh ones)
 *   whatever the event callback returned
 * After the call the watch is freed; the callback may add new watches
 * (to resume) but not cancel this one.
 */
typedef void	(*kube_watch_end_fn)(void *arg, int rc, const char *rv,
		    const struct dra_err *err);

/*
 * An empty watch set for c, which it borrows: c must outlive it and is
 * used for credentials and logging from the thread that polls the set
 * (never at the same time as another request on c from another
 * thread).  Never NULL.
 */
struct kube_watch_set *kube_watch_set_new(struct kube_client *c);

/* Cancel every watch (no end callbacks) and free ws.  NULL: no-op. */
void	kube_watch_set_free(struct kube_watch_set *ws);

/*
 * Limits of later watches: max_event bytes per event line (0 keeps
 * KUBE_WATCH_EVENT_MAX) and timeout_s seconds asked of the server
 * (timeoutSeconds; 0 keeps KUBE_WATCH_TIMEOUT_S).  A watch whose
 * server stays silent for timeout_s plus 30 s is ended with
 * KUBE_E_TIMEOUT.
 */
void	kube_watch_set_limits(struct kube_watch_set *ws, size_t max_event,
	    int timeout_s);

/*
 * Start watching the collection at path ("/apis/resource.k8s.io/v1/
 * resourceclaims" or ".../namespaces/NS/resourceclaims", no query) from
 * resource version rv (a list's metadata.resourceVersion; "" or NULL
 * for "now", as client-go never does after a list).  The request is
 * sent by kube_watch_poll.  Credentials are taken now (an exec plugin
 * may run).  Returns the watch, owned by the set, or NULL with err:
 * KUBE_E_EXEC, KUBE_E_IO (as kube_client_get) or KUBE_E_CONNECT when
 * libcurl cannot make a handle.
 */
struct kube_watch *kube_watch_add(struct kube_watch_set *ws,
	    const char *path, const char *rv, kube_watch_event_fn event_cb,
	    kube_watch_end_fn end_cb, void *arg, struct dra_err *err);

/*
 * Stop w and free it without calling its end callback (not from
 * inside a callback of w).
 */
void	kube_watch_cancel(struct kube_watch_set *ws, struct kube_watch *w);

/* w's resourceVersion now (borrowed until its next event). */
const char *kube_watch_rv(const struct kube_watch *w);

/* How many watches the set runs. */
size_t	kube_watch_count(const struct kube_watch_set *ws);

/*
 * Move every watch along: wait up to timeout_ms (0: do not wait) for
 * data, a wake-up or a watch's end, then hand over every complete
 * event line and end the watches that ended.  Waits the whole time
 * even with no watch (so it doubles as the thread's sleep).  Returns
 * KUBE_OK, or KUBE_E_CONNECT when libcurl's multi interface fails.
 */
int	kube_watch_poll(struct kube_watch_set *ws, long timeout_ms,
	    struct dra_err *err);

/*
 * Make a kube_watch_poll that waits (or the next one) return at once.
 * The only function here that may be called from any thread.
 */
void	kube_watch_wakeup(struct kube_watch_set *ws);

/*
 * Parse a kubectl --request-timeout value into *ms: "" or "0" is 0 (no
 * timeout), a bare integer is seconds, else a Go duration such as
 * "1m30s", "500ms", "2h" (clientcmd ParseTimeout).  Returns KUBE_OK or
 * KUBE_E_CONFIG ("invalid timeout value ...").
 */
int	kube_parse_timeout(const char *s, long *ms, struct dra_err *err);

/*
 * A YAML tree read by kube/util/ydoc.h's kube_yaml_load as a new cJSON
 * value, the caller deletes it: mappings become objects, sequences
 * arrays, plain scalars are resolved as YAML 1.1 does (go-yaml v2,
 * yamlscalar.h: null, booleans, integers, floats; quoted scalars stay
 * strings).  n NULL gives NULL.  Used for kubeconfig exec configs and
 * extensions, and by `ui --plan` to read a Plan written as YAML.
 */
struct kube_ynode;
struct cJSON *kube_ynode_to_json(const struct kube_ynode *n);

#endif
