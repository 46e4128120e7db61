/*
 * source.c: where a command's objects come from: a file (--from, read
 * by kube_snapshot_load_file) or the cluster (kube/client: discovery
 * picks the resource.k8s.io version, then one paged list per kind the
 * view needs).
 *
 * A namespace-limited user cannot list everything: a 403 on one list
 * is not fatal; the command goes on with what it could read and one
 * "Warning:" line names the lists that were refused.
 *
 * The client built from the flags, the kinds and one kind's list with
 * that fallback are shared with live.c (source-int.h), which lists and
 * then watches for `ui`.
 */
#include "dra.h"

#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "snapshot.h"
#include "xmalloc.h"

#ifdef DRA_HAVE_CLIENT
#include "client.h"
#include "source-int.h"
#endif

void
dra_source_clock(struct kube_snapshot *s)
{
	const char	*now = getenv("KUBECTL_DRA_NOW");
	char		*end;
	long long	 v;

	if (now == NULL || *now == '\0')
		return;
	v = strtoll(now, &end, 10);
	if (*end == '\0' && v > 0)
		s->now = (int64_t)v;
}

/* Add the objects of --what-if FILE (before the joins). */
static int
load_what_if(struct dra_ctx *ctx, struct kube_snapshot *s,
    struct dra_err *err)
{
	if (ctx->opts.what_if == NULL)
		return KUBE_OK;
	return kube_snapshot_load_file(s, ctx->opts.what_if, err);
}

/* The kinds a file holds that needs does not ask for. */
static const struct {
	unsigned	 need;
	const char	*kind;
} need_kinds[] = {
	{ DRA_NEED_SLICES, "ResourceSlice" },
	{ DRA_NEED_CLAIMS, "ResourceClaim" },
	{ DRA_NEED_TEMPLATES, "ResourceClaimTemplate" },
	{ DRA_NEED_CLASSES, "DeviceClass" },
	{ DRA_NEED_TAINT_RULES, "DeviceTaintRule" },
	{ DRA_NEED_PODS, "Pod" },
	{ DRA_NEED_NODES, "Node" },
	{ DRA_NEED_NAMESPACES, "Namespace" },
	{ DRA_NEED_QUOTAS, "ResourceQuota" },
};

static enum dra_ret
load_file(struct dra_ctx *ctx, unsigned needs, struct kube_snapshot **out)
{
	static const char	*skip[sizeof need_kinds /
				    sizeof need_kinds[0] + 1];
	struct kube_snapshot	*s;
	struct dra_err		 err;
	size_t			 i, n = 0;

	s = kube_snapshot_new();
	/* Read only what the view needs, as a live load lists only that. */
	for (i = 0; i < sizeof need_kinds / sizeof need_kinds[0]; i++) {
		if (!(needs & need_kinds[i].need))
			skip[n++] = need_kinds[i].kind;
	}
	skip[n] = NULL;
	s->skip_kinds = skip;
	s->slices_unread = !(needs & DRA_NEED_SLICES);
	dra_err_clear(&err);
	if (kube_snapshot_load_file(s, ctx->opts.from, &err) != KUBE_OK ||
	    load_what_if(ctx, s, &err) != KUBE_OK) {
		kube_snapshot_free(s);
		return dra_error("%s", err.msg);
	}
	kube_snapshot_finish(s);
	dra_source_clock(s);
	*out = s;
	return DRA_RET_OK;
}

#ifdef DRA_HAVE_CLIENT

static struct kube_client	*client;
static int			 client_tried;
static struct dra_err		 client_err;

static void
client_log(void *arg, int level, const char *line)
{
	(void)arg;
	(void)level;
	fprintf(stderr, "%s\n", line);
}

static void
client_warn(void *arg, const char *msg)
{
	(void)arg;
	dra_warning("%s", msg);
}

struct kube_client *
dra_client_new(struct dra_ctx *ctx, const char *context,
    const struct kube_client_opts *hooks, struct dra_err *err)
{
	struct kube_client_opts	 co;
	const struct dra_opts	*o = &ctx->opts;
	long			 ms = 0;

	memset(&co, 0, sizeof co);
	co.kubeconfig = o->kubeconfig;
	co.context = context != NULL ? context : o->context;
	co.cluster = o->cluster;
	co.user = o->user;
	co.namespace = o->namespace;
	co.server = o->server;
	co.tls_server_name = o->tls_server_name;
	co.certificate_authority = o->ca;
	co.insecure_skip_tls_verify = o->insecure;
	co.token = o->token;
	co.username = o->username;
	co.password = o->password;
	co.client_certificate = o->client_cert;
	co.client_key = o->client_key;
	co.as = o->as;
	co.as_uid = o->as_uid;
	co.as_groups = o->as_groups;
	co.n_as_groups = o->nas_groups;
	if (o->request_timeout != NULL &&
	    kube_parse_timeout(o->request_timeout, &ms, err) != KUBE_OK)
		return NULL;
	co.request_timeout_ms = ms;
	co.log = client_log;
	co.warn = client_warn;
	if (hooks != NULL) {
		co.log = hooks->log;
		co.log_arg = hooks->log_arg;
		co.warn = hooks->warn;
		co.warn_arg = hooks->warn_arg;
		co.sleep = hooks->sleep;
		co.sleep_arg = hooks->sleep_arg;
		co.cancel = hooks->cancel;
		co.cancel_arg = hooks->cancel_arg;
		co.stdin_mode = hooks->stdin_mode;
	}
	co.log_level = o->verbosity;
	return kube_client_new(&co, err);
}

static struct kube_client *
get_client(struct dra_ctx *ctx, struct dra_err *err)
{
	if (client_tried) {
		if (client == NULL && err != NULL)
			*err = client_err;
		return client;
	}
	client_tried = 1;
	client = dra_client_new(ctx, NULL, NULL, &client_err);
	if (client == NULL && err != NULL)
		*err = client_err;
	return client;
}

struct list_arg {
	struct kube_snapshot	*s;
	const char		*list_kind;
};

static int
list_item(void *arg, const cJSON *item, const char *list_api_version,
    struct dra_err *err)
{
	struct list_arg	*la = arg;

	return kube_snapshot_add(la->s, item, list_api_version, la->list_kind,
	    err);
}

const struct dra_api_kind dra_api_kinds[] = {
	{ DRA_NEED_NAMESPACES, 0, 0, "namespaces", "NamespaceList" },
	{ DRA_NEED_NODES, 0, 0, "nodes", "NodeList" },
	{ DRA_NEED_CLASSES, 1, 0, "deviceclasses", "DeviceClassList" },
	{ DRA_NEED_TAINT_RULES, 1, 0, "devicetaintrules",
	    "DeviceTaintRuleList" },
	{ DRA_NEED_SLICES, 1, 0, "resourceslices", "ResourceSliceList" },
	{ DRA_NEED_TEMPLATES, 1, 1, "resourceclaimtemplates",
	    "ResourceClaimTemplateList" },
	{ DRA_NEED_CLAIMS, 1, 1, "resourceclaims", "ResourceClaimList" },
	{ DRA_NEED_PODS, 0, 1, "pods", "PodList" },
	{ DRA_NEED_QUOTAS, 0, 1, "resourcequotas", "ResourceQuotaList" },
};
const size_t dra_napi_kinds = sizeof dra_api_kinds / sizeof dra_api_kinds[0];

#define PENDING_NS_MAX	16	/* beyond: list pods of every namespace */

/*
 * The namespaces of s's pending claims (at most PENDING_NS_MAX), into
 * out; returns how many, or PENDING_NS_MAX + 1 for "too many".
 */
static size_t
pending_namespaces(const struct kube_snapshot *s, const char **out)
{
	size_t	i, j, n = 0;

	for (i = 0; i < s->claims.n; i++) {
		const struct kube_claim *c = s->claims.v[i];

		if (c->allocated)
			continue;
		for (j = 0; j < n; j++)
			if (strcmp(out[j], c->meta.namespace) == 0)
				break;
		if (j < n)
			continue;
		if (n == PENDING_NS_MAX)
			return PENDING_NS_MAX + 1;
		out[n++] = c->meta.namespace;
	}
	return n;
}

/* Add "what" to the comma-separated list of refused reads. */
static void
refuse(struct dra_buf *refused, const char *fmt, const char *what,
    const char *ns)
{
	if (refused->len > 0)
		dra_buf_adds(refused, ", ");
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	dra_buf_addf(refused, fmt, what, ns);
#pragma GCC diagnostic pop
}

void
dra_kind_path(const struct dra_api_kind *k, const struct kube_dra_info *info,
    const char *ns, char *path, size_t len)
{
	char		*qns;

	const char	*gv = info->group_version;

	/* DeviceTaintRules may be served by another version than read. */
	if (k->need == DRA_NEED_TAINT_RULES &&
	    info->taint_rules_group_version[0] != '\0')
		gv = info->taint_rules_group_version;
	qns = ns != NULL && k->namespaced ? kube_query_escape(ns) : NULL;
	snprintf(path, len, "%s%s%s%s/%s", k->dra ? "/apis/" : "/api/v1",
	    k->dra ? gv : "",
	    qns != NULL ? "/namespaces/" : "", qns != NULL ? qns : "",
	    k->resource);
	free(qns);
}

int
dra_list_kind(struct kube_client *c, const struct kube_dra_info *info,
    const struct dra_api_kind *k, const char *ns, const char *own_ns,
    kube_list_item_fn item_cb, kube_list_reset_fn reset_cb, void *arg,
    char *path, size_t len, char **rv, struct dra_buf *refused,
    struct dra_err *err)
{
	int	rc;

	dra_kind_path(k, info, ns, path, len);
	rc = kube_client_list(c, path, NULL, item_cb, reset_cb, arg, rv, err);
	if (rc == KUBE_E_FORBIDDEN && ns == NULL && k->namespaced) {
		dra_kind_path(k, info, own_ns, path, len);
		rc = kube_client_list(c, path, NULL, item_cb, reset_cb, arg,
		    rv, err);
		if (rc == KUBE_OK) {
			refuse(refused, "%s outside namespace \"%s\"",
			    k->resource, own_ns);
			return KUBE_OK;
		}
	}
	if (rc == KUBE_E_FORBIDDEN) {
		if (k->namespaced && ns == NULL)
			refuse(refused, "%s in all namespaces and in "
			    "namespace \"%s\"", k->resource, own_ns);
		else if (k->namespaced)
			refuse(refused, "%s in namespace \"%s\"",
			    k->resource, ns);
		else
			refuse(refused, "%s%s", k->resource, "");
	}
	return rc;
}

/*
 * One pass over the lists.  Returns KUBE_OK, KUBE_E_GONE (a continue
 * token expired: the caller starts again) or another error in err.
 * A 403 is not an error: the kind's DRA_NEED_ bit goes into *denied
 * and the refusal into refused[0] for a cluster-scoped kind, refused[1]
 * for a namespaced one.  A namespace-limited user who asked for every
 * namespace still gets the namespace of -n, or else of the kubeconfig
 * context.
 */
static int
load_lists(struct kube_client *c, const struct kube_dra_info *info,
    unsigned needs, const char *ns, const char *own_ns,
    struct kube_snapshot *s, struct dra_buf *refused, unsigned *denied,
    struct dra_err *err)
{
	struct list_arg	 la;
	const char	*pns[PENDING_NS_MAX];
	char		 path[512];
	char		*qns;
	size_t		 i, j, npns;
	int		 rc;

	for (i = 0; i < dra_napi_kinds; i++) {
		const struct dra_api_kind	*k = &dra_api_kinds[i];

		if (!(needs & k->need))
			continue;
		la.s = s;
		la.list_kind = k->list_kind;
		/* Claims come before pods in dra_api_kinds. */
		if (k->need == DRA_NEED_PODS &&
		    (needs & DRA_NEED_PODS_PENDING) && !(*denied &
		    DRA_NEED_CLAIMS) &&
		    (npns = pending_namespaces(s, pns)) <= PENDING_NS_MAX) {
			for (j = 0; j < npns; j++) {
				if (ns != NULL && strcmp(ns, pns[j]) != 0)
					continue;
				qns = kube_query_escape(pns[j]);
				snprintf(path, sizeof path,
				    "/api/v1/namespaces/%s/pods", qns);
				free(qns);
				rc = kube_client_list(c, path, NULL, list_item,
				    NULL, &la, NULL, err);
				if (rc == KUBE_E_FORBIDDEN) {
					*denied |= k->need;
					refuse(&refused[1],
					    "%s in namespace \"%s\"",
					    k->resource, pns[j]);
					continue;
				}
				if (rc != KUBE_OK)
					return rc;
			}
			continue;
		}
		if (k->need == DRA_NEED_TAINT_RULES &&
		    !info->device_taint_rules)
			continue;
		rc = dra_list_kind(c, info, k, k->need == DRA_NEED_PODS &&
		    (needs & DRA_NEED_PODS_OWN) ? own_ns : ns, own_ns,
		    list_item, NULL, &la, path, sizeof path, NULL,
		    &refused[k->namespaced != 0], err);
		if (rc == KUBE_E_FORBIDDEN) {
			*denied |= k->need;
			continue;
		}
		if (rc != KUBE_OK)
			return rc;
	}
	return KUBE_OK;
}

/*
 * The one "Warning:" line of the refused lists: the cluster-scoped
 * kinds (refused[0]) as such, then the namespaced ones (refused[1],
 * each naming its namespace): "cannot list devicetaintrules,
 * resourceslices (cluster-wide), resourceclaims in namespace \"a\":
 * forbidden; showing what could be read".
 */
static void
warn_refused(struct dra_buf *refused)
{
	if (refused[0].len == 0 && refused[1].len == 0)
		return;
	dra_warning("cannot list %s%s%s%s: forbidden; showing what could "
	    "be read", dra_buf_str(&refused[0]),
	    refused[0].len > 0 ? " (cluster-wide)" : "",
	    refused[0].len > 0 && refused[1].len > 0 ? ", " : "",
	    dra_buf_str(&refused[1]));
}

static enum dra_ret
load_live(struct dra_ctx *ctx, unsigned needs, const char *ns,
    struct kube_snapshot **out)
{
	struct kube_client	*c;
	struct kube_dra_info	 info;
	struct kube_snapshot	*s;
	struct dra_buf		 refused[2];
	struct dra_err		 err;
	const char		*own_ns;
	unsigned		 denied = 0;
	int			 rc, attempt;

	dra_err_clear(&err);
	c = get_client(ctx, &err);
	if (c == NULL)
		return dra_error("%s", err.msg);
	if (kube_client_insecure(c))
		dra_warning("TLS verification is off: the server's identity "
		    "is not checked");
	if (kube_discover_dra(c, ctx->opts.dra_api_version, &info, &err) !=
	    KUBE_OK)
		return dra_error("%s", err.msg);
	dra_buf_init(&refused[0], DRA_BUF_MAX_SMALL);
	dra_buf_init(&refused[1], DRA_BUF_MAX_SMALL);
	for (attempt = 0;; attempt++) {
		s = kube_snapshot_new();
		s->source = kube_snapshot_intern(s, kube_client_server(c));
		s->served_version = kube_snapshot_intern(s,
		    info.group_version);
		s->slices_unread = !(needs & DRA_NEED_SLICES);
		dra_buf_reset(&refused[0]);
		dra_buf_reset(&refused[1]);
		denied = 0;
		own_ns = ctx->opts.namespace != NULL ? ctx->opts.namespace :
		    kube_client_namespace(c);
		rc = load_lists(c, &info, needs, ns, own_ns, s, refused,
		    &denied, &err);
		if (rc == KUBE_E_GONE && attempt == 0) {
			kube_snapshot_free(s);
			continue;
		}
		break;
	}
	if (rc == KUBE_OK)
		rc = load_what_if(ctx, s, &err);
	if (rc != KUBE_OK) {
		kube_snapshot_free(s);
		dra_buf_release(&refused[0]);
		dra_buf_release(&refused[1]);
		return dra_error("%s", err.msg);
	}
	warn_refused(refused);
	dra_buf_release(&refused[0]);
	dra_buf_release(&refused[1]);
	/* Refused slices: allocations cannot be checked against them. */
	if (denied & DRA_NEED_SLICES)
		s->slices_unread = 1;
	ctx->denied = denied;
	kube_snapshot_finish(s);
	dra_source_clock(s);
	*out = s;
	return DRA_RET_OK;
}

#endif /* DRA_HAVE_CLIENT */

enum dra_ret
dra_source_load(struct dra_ctx *ctx, unsigned needs, const char *namespace,
    struct kube_snapshot **out)
{
	*out = NULL;
	if (ctx->opts.from != NULL)
		return load_file(ctx, needs, out);
#ifdef DRA_HAVE_CLIENT
	return load_live(ctx, needs, namespace, out);
#else
	(void)needs;
	(void)namespace;
	return dra_error("this build has no cluster client: read objects "
	    "from a file with --from FILE");
#endif
}

const char *
dra_default_namespace(struct dra_ctx *ctx)
{
#ifdef DRA_HAVE_CLIENT
	struct kube_client	*c;
#endif

	if (ctx->opts.namespace != NULL)
		return ctx->opts.namespace;
	if (ctx->opts.from != NULL)
		return "default";
#ifdef DRA_HAVE_CLIENT
	c = get_client(ctx, NULL);
	if (c != NULL)
		return kube_client_namespace(c);
#endif
	return "default";
}

enum dra_ret
dra_source_server_info(struct dra_ctx *ctx, char *git_version, size_t gvlen,
    char *served, size_t slen, struct dra_err *err)
{
#ifdef DRA_HAVE_CLIENT
	struct kube_client	*c;
	struct kube_dra_info	 info;
	char			 names[64];
	int			 major, minor;

	c = get_client(ctx, err);
	if (c == NULL)
		return DRA_RET_ERROR;
	if (kube_server_version(c, &major, &minor, git_version, gvlen, err) !=
	    KUBE_OK)
		return DRA_RET_ERROR;
	served[0] = '\0';
	if (kube_discover_dra(c, ctx->opts.dra_api_version, &info, err) !=
	    KUBE_OK) {
		if (err->code != KUBE_E_UNSUPPORTED)
			return DRA_RET_ERROR;
		snprintf(served, slen, "none");
		return DRA_RET_OK;
	}
	snprintf(served, slen, "%s (reading %s)",
	    kube_dra_served_text(info.served, names, sizeof names),
	    info.version);
	return DRA_RET_OK;
#else
	(void)ctx;
	(void)git_version;
	(void)gvlen;
	(void)served;
	(void)slen;
	dra_err_set(err, KUBE_E_CONFIG, "this build has no cluster client");
	return DRA_RET_ERROR;
#endif
}
