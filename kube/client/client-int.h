/*
 * client-int.h: internals shared by the files of kube/client (like
 * curl's lib/urlapi-int.h).  Nothing outside kube/client and its unit
 * tests includes this.
 */
#ifndef KUBE_CLIENT_INT_H
#define KUBE_CLIENT_INT_H

#include <stddef.h>
#include <time.h>

#include <curl/curl.h>

#include "arena.h"
#include "buf.h"
#include "client.h"
#include "err.h"
#include "ydoc.h"

struct cJSON;

/* Largest kubeconfig, service account or token file we read. */
#define KUBE_CONFIG_MAX_FILE	(16UL << 20)
/* Most bytes of an exec plugin's stdout. */
#define KUBE_EXEC_MAX_OUTPUT	(1UL << 20)
/* Most bytes of a non-2xx body kept for its Status. */
#define KUBE_ERROR_BODY_MAX	(64UL << 10)
/* Most tries of one read (client-go request.go maxRetries). */
#define KUBE_RETRY_MAX_TRIES	10
/* Cap and default of a Retry-After wait, in seconds. */
#define KUBE_RETRY_AFTER_MAX	30
#define KUBE_RETRY_AFTER_DEFAULT 1
/* A tokenFile is re-read when its copy is this old (seconds). */
#define KUBE_TOKEN_FILE_TTL	60
/* Default connect timeout (ms) and list page size. */
#define KUBE_CONNECT_TIMEOUT_MS	10000L
#define KUBE_CHUNK_SIZE		500
/* TCP keepalive of every connection: first probe, then every (s). */
#define KUBE_KEEPIDLE_S		30L
#define KUBE_KEEPINTVL_S	10L
#define KUBE_INCLUSTER_DIR	"/var/run/secrets/kubernetes.io/serviceaccount"

/* yaml.c: kube_ynode_to_json is public (client.h). */

/*
 * auth.c and kubeconfig.c: decoded configuration.
 */
struct kube_exec_env {
	const char	*name;
	const char	*value;
};

struct kube_exec_config {
	const char		 *command;	/* resolved if it has a '/' */
	const char		**args;
	size_t			  nargs;
	struct kube_exec_env	 *env;
	size_t			  nenv;
	const char		 *api_version;
	const char		 *install_hint;	/* control chars escaped */
	int			  provide_cluster_info;
	/* Never IfAvailable Always */
	const char		 *interactive_mode;
};

struct kube_extra {
	const char	 *key;
	const char	**values;
	size_t		  n;
};

/*
 * The resolved configuration: one cluster, one user, one namespace.
 * Strings live in arena; secrets (token, password, key data) are
 * malloc'd separately so that kube_config_release can wipe them.
 */
struct kube_config {
	struct dra_arena	  arena;

	const char		**files;	/* files read */
	size_t			  nfiles;
	const char		 *context;	/* "" when none */
	const char		 *cluster_name;
	const char		 *user_name;
	const char		 *namespace;
	int			  in_cluster;

	/* cluster */
	const char		 *server;	/* normalised, no trailing / */
	const char		 *scheme;	/* "http" or "https" */
	const char		 *host;		/* no brackets */
	int			  port;
	const char		 *tls_server_name;
	const char		 *proxy_url;
	const char		 *ca_file;
	unsigned char		 *ca_data;	/* PEM, in arena */
	size_t			  ca_len;
	int			  insecure;
	int			  disable_compression;
	char			 *exec_cluster_config;	/* JSON, in arena */

	/* user */
	char			 *token;	/* secret */
	const char		 *token_file;
	const char		 *cert_file;
	const char		 *key_file;
	unsigned char		 *cert_data;	/* PEM, in arena */
	size_t			  cert_len;
	unsigned char		 *key_data;	/* secret */
	size_t			  key_len;
	char			 *username;
	char			 *password;	/* secret */
	const char		 *as;
	const char		 *as_uid;
	const char		**as_groups;
	size_t			  n_as_groups;
	struct kube_extra	 *as_extra;
	size_t			  n_as_extra;
	struct kube_exec_config	 *exec;		/* NULL unless exec */

	long			  request_timeout_ms;
	long			  connect_timeout_ms;
	int			  chunk_size;

	/* every context name of the merged files, first file first */
	const char		**contexts;
	size_t			  ncontexts;
};

/*
 * Load, merge, resolve and validate as kube_client_new documents.
 * Warnings go to opts->warn.  On success cfg is filled and owned by
 * the caller (kube_config_release); on failure cfg is released.
 */
int	kube_config_load(const struct kube_client_opts *opts,
	    struct kube_config *cfg, struct dra_err *err);

/* Free cfg, wiping its secrets. */
void	kube_config_release(struct kube_config *cfg);

/*
 * Decode standard base64 (padding required; CR and LF ignored, as Go's
 * encoding/json does for []byte).  *out is malloc'd with a NUL after
 * the *outlen bytes; the caller frees it.  Returns 0, or -1 for bad
 * input (*out NULL).
 */
int	kube_base64_decode(const char *in, size_t len, unsigned char **out,
	    size_t *outlen);

/* Standard base64 of len bytes, newly allocated. */
char	*kube_base64_encode(const void *data, size_t len);

/*
 * RFC 3339 date-time ("2026-11-29T10:00:00Z", fractions and offsets
 * allowed) to *t.  Returns 0 or -1.
 */
int	kube_parse_rfc3339(const char *s, time_t *t);

/* Free a malloc'd secret after zeroing its len bytes (NULL is fine). */
void	kube_secret_free(void *p, size_t len);

/*
 * auth.c: credentials at request time.
 */
struct kube_exec_cred {
	char		*token;		/* secret, or NULL */
	char		*cert;		/* PEM, or NULL */
	size_t		 cert_len;
	char		*key;		/* secret PEM, or NULL */
	size_t		 key_len;
	time_t		 expiry;	/* 0: keep for the process lifetime */
	int		 valid;
	unsigned	 gen;		/* bumped on every successful run */
};

/* What one request sends. */
struct kube_auth {
	char		*authorization;	/* header value, secret, or NULL */
	const char	*kind;		/* for logs: "Bearer", "Basic" */
	int		 cert_changed;	/* exec rotated the client cert */
	unsigned	 exec_gen;	/* exec generation used, 0 if none */
};

/*
 * The current credentials of c into *auth (release with
 * kube_auth_release): the static token, else the tokenFile (re-read
 * after KUBE_TOKEN_FILE_TTL), else basic auth, else the exec plugin's
 * token (running the plugin when there is no credential or it has
 * expired).  Client certificates from exec are installed on the curl
 * handle here.  Errors: KUBE_E_IO (token file), KUBE_E_EXEC.
 */
int	kube_auth_get(struct kube_client *c, struct kube_auth *auth,
	    struct dra_err *err);
void	kube_auth_release(struct kube_auth *auth);

/*
 * After a 401 answered credentials of generation gen: re-run the exec
 * plugin unless it has already run since.  Returns KUBE_OK when new
 * credentials exist (the caller may retry), else an error.
 */
int	kube_auth_refresh(struct kube_client *c, unsigned gen,
	    struct dra_err *err);

/*
 * Run the exec plugin of c's configuration once and store the
 * credential in c.  Errors: KUBE_E_EXEC with client-go's messages
 * ("exec: executable X not found", "... failed with exit code N",
 * "decoding stdout: ...", "exec plugin is configured to use API
 * version A, plugin returned version B", ...).
 */
int	kube_exec_run(struct kube_client *c, struct dra_err *err);

/*
 * The KUBERNETES_EXEC_INFO JSON for c (newly allocated) with
 * spec.interactive as given.
 */
char	*kube_exec_info(const struct kube_client *c, int interactive);

/*
 * http.c
 */
struct kube_warning {
	struct kube_warning	*next;
	char			 msg[];
};

struct kube_client {
	struct kube_config	  cfg;
	CURL			 *curl;
	char			  errbuf[CURL_ERROR_SIZE];
	struct curl_slist	 *connect_to;

	/* caller hooks (from opts) */
	void			(*log)(void *, int, const char *);
	void			 *log_arg;
	int			  log_level;
	void			(*warn)(void *, const char *);
	void			 *warn_arg;
	void			(*sleep)(void *, long);
	void			 *sleep_arg;
	enum kube_stdin		  stdin_mode;
	int			  detached;	/* exec: no terminal at all */
	int			  http_credentials;
	int			(*cancel)(void *);
	void			 *cancel_arg;
	time_t			(*now)(void);	/* tests replace it */

	/* credentials */
	char			 *file_token;	/* secret; tokenFile copy */
	time_t			  file_token_at;
	struct kube_exec_cred	  exec;
	int			  cert_installed;

	struct kube_warning	 *warnings;	/* already reported */
	const char		 *url_base;	/* scheme://host:port/prefix */
	const char		 *host_header;	/* "Host: ..." or NULL */
	int			  send_creds;	/* TLS or http_credentials */
};

/* One request as http.c runs it. */
struct kube_req {
	const char		*method;
	const char		*path;		/* "/..." with query */
	const char		*content_type;
	const void		*body;
	size_t			 body_len;
	struct dra_buf		*out;		/* 2xx body; NULL drops */
	int			 retry;		/* idempotent: retry 429/5xx */
	long			 timeout_ms;	/* > 0: this request's limit,
						   connecting included */
	int			 quiet;		/* a 2xx logged at -v 7,
						   not 6 (a periodic probe) */
};

int	kube_http_do(struct kube_client *c, const struct kube_req *req,
	    struct dra_err *err);

/*
 * The answer's status line and headers as kube_http_on_header collects
 * them, shared by kube_http_do and the watches of watch.c.
 */
struct kube_http_resp {
	struct kube_client	*c;
	int			 status;	/* final status, 0 before */
	char			 reason[64];
	long			 retry_after;	/* seconds, -1 when absent */
	int			 complete;	/* the final headers ended */
	int			 quiet;		/* a 2xx logged at -v 7 */
	struct curl_slist	*warnings;	/* raw Warning values */
	struct dra_buf		 headers;	/* for the log (level >= 8) */
};

void	kube_http_resp_init(struct kube_http_resp *r, struct kube_client *c);
void	kube_http_resp_reset(struct kube_http_resp *r);
void	kube_http_resp_release(struct kube_http_resp *r);

/* CURLOPT_HEADERFUNCTION with CURLOPT_HEADERDATA a kube_http_resp. */
size_t	kube_http_on_header(char *data, size_t size, size_t nmemb,
	    void *resp);

/*
 * A new easy handle with every connection option of c->curl (TLS,
 * proxy, connect-to, compression, timeouts; not the cancel hook): for a
 * transfer that runs beside c's own, such as a watch in a multi
 * handle.  NULL when libcurl cannot copy it.  The caller cleans it up.
 */
CURL	*kube_http_dup(struct kube_client *c);

/*
 * The per-request options of req on h: url, method, body, the headers
 * (Accept, Host for tls-server-name, Authorization from auth,
 * impersonation), the header callback filling resp (which is reset),
 * a fresh connection after an exec certificate rotation, and the
 * redacted request-header log at level 8.  Returns the header list,
 * which must outlive the transfer; free it with curl_slist_free_all.
 */
struct curl_slist *kube_http_setup(struct kube_client *c, CURL *h,
	    const char *url, const struct kube_req *req,
	    const struct kube_auth *auth, struct kube_http_resp *resp);

/*
 * After a transfer that got an answer: log "METHOD URL CODE REASON in
 * N ms" and more (NULL or text appended) at level 6, the response
 * headers at level 8, and hand the Warning headers to the warning
 * callback.
 */
void	kube_http_log_done(struct kube_client *c, const char *method,
	    const char *shown, struct kube_http_resp *r, long ms,
	    const char *more);

/*
 * A transfer that failed in libcurl (cc, with its error buffer, which
 * may be NULL): log it at level 6 and fill err ("get URL: failed to
 * connect ...", "... canceled" when the cancel hook stopped it).
 * Returns KUBE_E_TIMEOUT, KUBE_E_TLS or KUBE_E_CONNECT.
 */
int	kube_http_transport_error(struct kube_client *c, CURLcode cc,
	    const char *errbuf, const char *method, const char *shown,
	    long ms, struct dra_err *err);

/*
 * watch.c: hand len bytes of w's stream to its line cutter, as the
 * write callback does (tests feed split and malformed streams through
 * it).  Returns KUBE_OK, or the rc that ends w (KUBE_E_TOOBIG,
 * KUBE_E_PARSE, the ERROR event's, the event callback's), which every
 * later call returns too.
 */
struct kube_watch;
int	kube_watch_feed(struct kube_watch *w, const char *data, size_t len);

/* Milliseconds since t0 (CLOCK_MONOTONIC). */
long	kube_elapsed_ms(const struct timespec *t0);

/* Set up c->curl from c->cfg; KUBE_E_CONFIG if libcurl refuses. */
int	kube_http_init(struct kube_client *c, struct dra_err *err);

/* Hand msg to the warning callback once per distinct message. */
void	kube_client_warn(struct kube_client *c, const char *msg);

/* Log a printf-style line at level when c's level allows. */
void	kube_client_logf(struct kube_client *c, int level, const char *fmt,
	    ...) __attribute__((format(printf, 3, 4)));

/*
 * Decode a non-2xx answer into err: the Status message and reason when
 * the body is a Status, else client-go's generic text for the code.
 * Returns the kube_rc for the code.
 */
int	kube_status_error(int http_status, const char *method,
	    const char *path, const char *body, size_t len,
	    struct dra_err *err);

/*
 * Hand the text of each 299 warning in the value of a "Warning:" header
 * ('299 - "text" [date], ...', client-go net.ParseWarningHeaders) to
 * fn; a value that does not parse is handed over whole.  Returns the
 * number of texts handed.
 */
int	kube_warning_parse(const char *value,
	    void (*fn)(void *, const char *), void *arg);

/* Free the credentials auth.c keeps in c. */
void	kube_auth_free(struct kube_client *c);

#endif
