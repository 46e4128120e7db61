/*
 * cmd_doctor.c: "kubectl dra doctor": the cluster's DRA health, one
 * verdict per check with the objects named and a fix (docs/DOCTOR.md).
 *
 * The snapshot checks and every verdict rule live in views/doctor.c.
 * This file does what needs the network: the server's /version, the
 * resource.k8s.io discovery, the feature-gate probes (server-side dry
 * runs, POST ...?dryRun=All, nothing is stored) and the lists, each
 * kind on its own so that a list the user may not read turns into
 * "cannot read X" on the checks that need it rather than an error (a
 * namespace-limited user falls back to its own namespace, as `get`
 * does, and the checks say what they could not see).  With --from the
 * live checks are Skipped and the snapshot checks run on the file.
 *
 * Exit: 0 when every check is Ready (or Skipped), 3 otherwise, 1 when
 * the cluster or the file cannot be read at all or the file holds no
 * DRA object, 2 for usage errors.
 */
#include "dra.h"


#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "demand.h"
#include "doctor.h"
#include "snapshot.h"
#include "xmalloc.h"

#ifdef DRA_HAVE_CLIENT
#include "client.h"
#include "source-int.h"
#endif

/* The snapshot kinds of dra.h and of doctor.h are the same bits. */
_Static_assert(DRA_NEED_SLICES == DRA_DOCTOR_K_SLICES &&
    DRA_NEED_CLAIMS == DRA_DOCTOR_K_CLAIMS &&
    DRA_NEED_TEMPLATES == DRA_DOCTOR_K_TEMPLATES &&
    DRA_NEED_CLASSES == DRA_DOCTOR_K_CLASSES &&
    DRA_NEED_TAINT_RULES == DRA_DOCTOR_K_TAINT_RULES &&
    DRA_NEED_PODS == DRA_DOCTOR_K_PODS &&
    DRA_NEED_NODES == DRA_DOCTOR_K_NODES &&
    DRA_NEED_NAMESPACES == DRA_DOCTOR_K_NAMESPACES &&
    DRA_NEED_QUOTAS == DRA_DOCTOR_K_QUOTAS, "doctor kinds");

#define DOCTOR_DEFAULT_THRESHOLD	300	/* seconds: 5m */
/* Go's longest time.Duration, 2562047h47m16.854775807s. */
#define DOCTOR_MAX_THRESHOLD		(2562047.0 * 3600)

static const char cmd_doctor_help[] =
"Checks the cluster's Dynamic Resource Allocation set-up and gives each\n"
"check a verdict (Ready, Warning, Failed; Skipped for live checks with\n"
"--from, and for checks reading a kind the file did not capture), a\n"
"detail naming the objects concerned and a one-line fix:\n"
"\n"
"  server-version   the API server's version (DRA is GA from 1.34)\n"
"  dra-api          the resource.k8s.io versions served\n"
"  feature-gates    DRA gates, probed with server-side dry runs\n"
"  device-plugin    nodes whose GPUs a device plugin and a DRA driver\n"
"                   both hand out\n"
"  pools            incomplete or invalid resource pools\n"
"  orphan-slices    ResourceSlices of nodes that no longer exist\n"
"  pending-claims   claims pending longer than --pending-threshold,\n"
"                   the 50 oldest with why's verdict and reason\n"
"  leaked-claims    allocated claims reserved for no pod\n"
"  class-selectors  DeviceClasses whose selectors err or match nothing\n"
"  quota-coverage   namespaces using a class without a quota for it\n"
"  utilization      classes above the 95% ceiling (top classes)\n"
"  taint-rules      DeviceTaintRules keeping pods off devices\n"
"\n"
"A list the user may not read makes the checks that need it a Warning\n"
"(\"cannot read X: forbidden\"), never an error.  docs/DOCTOR.md\n"
"explains every rule.\n"
"\n"
"--pending-threshold takes a Go duration (30s, 1h30m, 500ms).\n"
"\n"
"Exit status: 0 every check Ready or Skipped, 3 otherwise, 1 error\n"
"(a file without any DRA object is one).\n"
"\n"
"Examples:\n"
"  kubectl dra doctor\n"
"  kubectl dra doctor --pending-threshold 1m -o json\n"
"  kubectl dra doctor --from snapshot.yaml\n";

static const struct dra_flag cmd_doctor_flags[] = {
	{ "pending-threshold", 0, 1, DRA_F_PENDING_THRESHOLD, "DURATION",
	    "name claims pending at least this long (default 5m; 0s: all)" },
	{ "no-color", 0, 0, DRA_F_NO_COLOR, "",
	    "print without colours (as NO_COLOR does)" },
	{ NULL, 0, 0, 0, NULL, NULL }
};

/*
 * A Go duration (time.ParseDuration): an optional sign, then numbers
 * with units ns, us (µs, μs), ms, s, m, h ("1h30m", "1.5s", "+5m"); a
 * number needs a unit except "0".  Into *sec; -1 when it is not one,
 * or is negative (no threshold is).  plan_duration_parse adds the units; the rest is
 * Go's syntax, which it does not check (it takes plain numbers).
 */
static int
go_duration(const char *text, double *sec)
{
	struct dra_buf	 b;
	const char	*p = text;
	int		 rc;

	if (*p == '-')
		return -1;		/* a threshold is not negative */
	if (*p == '+')
		p++;
	if (strcmp(p, "0") == 0) {
		*sec = 0;
		return 0;
	}
	if (*p == '\0' || p[strspn(p, "0123456789.")] == '\0')
		return -1;		/* a number without its unit */
	/* "µs" (U+00B5) and "μs" (U+03BC) are Go's "us". */
	dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	while (*p != '\0') {
		if (strncmp(p, "\xc2\xb5s", 3) == 0 ||
		    strncmp(p, "\xce\xbcs", 3) == 0) {
			dra_buf_adds(&b, "us");
			p += 3;
			continue;
		}
		dra_buf_add(&b, p, 1);
		p++;
	}
	rc = plan_duration_parse(dra_buf_str(&b), sec);
	dra_buf_release(&b);
	return rc;
}

#ifdef DRA_HAVE_CLIENT

/* The user's namespace, kept beyond the client (dra_doctor_opts). */
static char	doctor_ns[256];

struct list_arg {
	struct kube_snapshot		*s;
	const struct dra_api_kind	*k;
};

static int
list_item(void *arg, const cJSON *item, const char *list_api_version,
    struct dra_err *err)
{
	struct list_arg	*la = arg;

	return kube_snapshot_add(la->s, item, list_api_version,
	    la->k->list_kind, err);
}

/* Namespaces with pending claims listed one by one, up to this many. */
#define DOCTOR_POD_NS_MAX	16

/*
 * One kind (in namespace ns, NULL: all, a 403 there: the user's own
 * namespace) into s, noting a refusal in *o.  Returns KUBE_OK (a 403
 * included), KUBE_E_GONE or an error in err.
 */
static int
load_kind(struct kube_client *c, const struct kube_dra_info *info,
    const struct dra_api_kind *k, const char *ns, const char *own_ns,
    struct kube_snapshot *s, struct dra_doctor_opts *o, struct dra_err *err)
{
	struct dra_buf	 refused;
	struct list_arg	 la;
	char		 path[512];
	int		 rc;

	la.s = s;
	la.k = k;
	dra_buf_init(&refused, DRA_BUF_MAX_SMALL);
	rc = dra_list_kind(c, info, k, ns, own_ns, list_item, NULL, &la, path,
	    sizeof path, NULL, &refused, err);
	if (rc == KUBE_E_FORBIDDEN) {
		o->unread |= k->need;
		rc = KUBE_OK;
	} else if (rc == KUBE_OK && refused.len > 0)
		o->partial |= k->need;
	dra_buf_release(&refused);
	return rc;
}

/*
 * Every kind, all namespaces (a 403 there: the user's own namespace),
 * except Namespaces and Pods: only pending-claims and its why read
 * them, so they are listed only when a claim is pending beyond the
 * threshold, the Pods only in the namespaces of such claims
 * (dra_doctor_pod_namespaces; all of them above DOCTOR_POD_NS_MAX).
 * On a cluster without such a claim that saves the Pod pages, the
 * longest list.  Fills *o's unread, partial and taint_rules_unserved.
 * Returns KUBE_OK, KUBE_E_GONE (start again) or an error in err.
 */
static int
load_kinds(struct kube_client *c, const struct kube_dra_info *info,
    const char *own_ns, struct kube_snapshot *s, struct dra_doctor_opts *o,
    struct dra_err *err)
{
	const struct dra_api_kind	*k, *kpods = NULL, *kns = NULL;
	const char			*pns[DOCTOR_POD_NS_MAX];
	size_t				 i, npns;
	int				 rc;

	for (i = 0; i < dra_napi_kinds; i++) {
		k = &dra_api_kinds[i];
		if (k->need == DRA_NEED_PODS) {
			kpods = k;
			continue;
		}
		if (k->need == DRA_NEED_NAMESPACES) {
			kns = k;
			continue;
		}
		if (k->need == DRA_NEED_TAINT_RULES &&
		    !info->device_taint_rules) {
			o->taint_rules_unserved = 1;
			continue;
		}
		if ((rc = load_kind(c, info, k, NULL, own_ns, s, o, err)) !=
		    KUBE_OK)
			return rc;
	}
	npns = dra_doctor_pod_namespaces(s, o, pns, DOCTOR_POD_NS_MAX);
	if (npns > 0 && kns != NULL && (rc = load_kind(c, info, kns, NULL,
	    own_ns, s, o, err)) != KUBE_OK)
		return rc;
	if (npns > DOCTOR_POD_NS_MAX && kpods != NULL)
		return load_kind(c, info, kpods, NULL, own_ns, s, o, err);
	for (i = 0; i < npns && kpods != NULL; i++) {
		if ((rc = load_kind(c, info, kpods, pns[i], own_ns, s, o,
		    err)) != KUBE_OK)
			return rc;
	}
	if (o->unread & DRA_NEED_SLICES)
		s->slices_unread = 1;
	return KUBE_OK;
}

/* One probe: POST the object with dryRun=All and judge the answer. */
static void
probe(struct kube_client *c, const struct kube_dra_info *info,
    const char *ns, const struct dra_doctor_probe *p,
    struct dra_doctor_probe_result *res, char *msg, size_t msglen)
{
	struct dra_buf	 out, body;
	struct dra_err	 err;
	char		 path[512], *qns = NULL;
	const char	*at;
	cJSON		*answer;
	int		 rc;

	res->probe = p;
	res->message = NULL;
	if (p->namespaced)
		qns = kube_query_escape(ns);
	snprintf(path, sizeof path, "/apis/%s/%s%s%s%s?dryRun=All",
	    info->group_version, qns != NULL ? "namespaces/" : "",
	    qns != NULL ? qns : "", qns != NULL ? "/" : "", p->resource);
	free(qns);
	/* The v1 body in the version read (v1beta2 has the same shape). */
	dra_buf_init(&body, DRA_BUF_MAX_SMALL);
	at = strstr(p->body, "\"resource.k8s.io/v1\"");
	if (at != NULL) {
		dra_buf_add(&body, p->body, (size_t)(at - p->body));
		dra_buf_addf(&body, "\"%s\"", info->group_version);
		dra_buf_adds(&body, at + strlen("\"resource.k8s.io/v1\""));
	} else
		dra_buf_adds(&body, p->body);
	dra_buf_init(&out, DRA_BUF_MAX_PAGE);
	dra_err_clear(&err);
	rc = kube_client_request(c, "POST", path, "application/json",
	    dra_buf_str(&body), body.len, &out, &err);
	dra_buf_release(&body);
	if (rc == KUBE_OK) {
		answer = cJSON_ParseWithLength(dra_buf_str(&out), out.len);
		if (answer == NULL) {
			res->state = DRA_DOCTOR_PROBE_ERROR;
			snprintf(msg, msglen, "malformed answer to a dry-run "
			    "create of %s", p->resource);
			res->message = msg;
		} else
			res->state = dra_doctor_probe_kept(p, answer) ?
			    DRA_DOCTOR_PROBE_ON : DRA_DOCTOR_PROBE_OFF;
		cJSON_Delete(answer);
	} else if (rc == KUBE_E_FORBIDDEN)
		res->state = DRA_DOCTOR_PROBE_FORBIDDEN;
	else if (err.http_status == 422) {
		/* Valid with the field, invalid without: dropped. */
		res->state = DRA_DOCTOR_PROBE_OFF;
	} else {
		res->state = DRA_DOCTOR_PROBE_ERROR;
		snprintf(msg, msglen, "%s", err.msg);
		res->message = msg;
	}
	dra_buf_release(&out);
}

/*
 * The live checks, then the lists into *out.  Returns DRA_RET_OK, or
 * the exit code after printing the error (nothing to report on).
 */
static enum dra_ret
run_live(struct dra_ctx *ctx, struct dra_doctor_report *r,
    struct dra_doctor_opts *o, struct kube_snapshot **out)
{
	struct dra_doctor_probe_result	*res;
	struct kube_client		*c;
	struct kube_dra_info		 info;
	struct kube_snapshot		*s = NULL;
	struct dra_err			 err;
	const char			*own_ns;
	char				 gv[64], served[64], (*msgs)[DRA_ERR_MSG_MAX];
	size_t				 i;
	int				 major, minor, rc, attempt;

	dra_err_clear(&err);
	c = dra_client_new(ctx, NULL, NULL, &err);
	if (c == NULL)
		return dra_error("%s", err.msg);
	if (kube_client_insecure(c))
		dra_warning("TLS verification is off: the server's identity "
		    "is not checked");
	snprintf(doctor_ns, sizeof doctor_ns, "%s", ctx->opts.namespace !=
	    NULL ? ctx->opts.namespace : kube_client_namespace(c));
	own_ns = doctor_ns;
	o->partial_ns = doctor_ns;

	/* server-version */
	rc = kube_server_version(c, &major, &minor, gv, sizeof gv, &err);
	if (rc == KUBE_OK)
		dra_doctor_server(r, gv, major, minor);
	else if (rc == KUBE_E_FORBIDDEN || rc == KUBE_E_API ||
	    rc == KUBE_E_PARSE || rc == KUBE_E_NOT_FOUND)
		dra_doctor_unreadable(r, "server-version", "read /version",
		    err.msg, rc == KUBE_E_FORBIDDEN);
	else {
		kube_client_free(c);
		return dra_error("%s", err.msg);
	}

	/* dra-api */
	dra_err_clear(&err);
	rc = kube_discover_dra(c, ctx->opts.dra_api_version, &info, &err);
	if (rc == KUBE_E_UNSUPPORTED || rc == KUBE_E_FORBIDDEN ||
	    rc == KUBE_E_API || rc == KUBE_E_PARSE) {
		if (rc == KUBE_E_UNSUPPORTED && ctx->opts.dra_api_version ==
		    NULL)
			dra_doctor_api(r, "", NULL);
		else
			dra_doctor_unreadable(r, "dra-api", "discover "
			    "resource.k8s.io", err.msg, rc ==
			    KUBE_E_FORBIDDEN);
		o->skip = "resource.k8s.io cannot be read (see dra-api)";
		dra_doctor_skip(r, "feature-gates", o->skip);
		kube_client_free(c);
		return DRA_RET_OK;
	}
	if (rc != KUBE_OK) {
		kube_client_free(c);
		return dra_error("%s", err.msg);
	}
	dra_doctor_api(r, kube_dra_served_text(info.served, served,
	    sizeof served), info.version);

	/* feature-gates */
	if (info.chosen == KUBE_DRA_V1BETA1)
		dra_doctor_skip(r, "feature-gates", "the probes need "
		    "resource.k8s.io v1 or v1beta2");
	else {
		res = xcalloc(dra_doctor_nprobes, sizeof *res);
		msgs = xcalloc(dra_doctor_nprobes, sizeof *msgs);
		for (i = 0; i < dra_doctor_nprobes; i++)
			probe(c, &info, own_ns, &dra_doctor_probes[i],
			    &res[i], msgs[i], sizeof msgs[i]);
		dra_doctor_features(r, res, dra_doctor_nprobes,
		    info.device_taint_rules);
		free(res);
		free(msgs);
	}

	/* The objects. */
	for (attempt = 0;; attempt++) {
		s = kube_snapshot_new();
		s->source = kube_snapshot_intern(s, kube_client_server(c));
		s->served_version = kube_snapshot_intern(s,
		    info.group_version);
		dra_source_clock(s);	/* pending-claims' threshold, before Pods */
		o->unread = o->partial = 0;
		dra_err_clear(&err);
		rc = load_kinds(c, &info, own_ns, s, o, &err);
		if (rc == KUBE_E_GONE && attempt == 0) {
			kube_snapshot_free(s);
			continue;
		}
		break;
	}
	kube_client_free(c);
	if (rc != KUBE_OK) {
		kube_snapshot_free(s);
		return dra_error("%s", err.msg);
	}
	kube_snapshot_finish(s);
	dra_source_clock(s);
	*out = s;
	return DRA_RET_OK;
}

#endif /* DRA_HAVE_CLIENT */

/*
 * The kinds a file did not capture (dra_doctor_opts.absent): none for
 * a whole-cluster capture, which a file holding Namespace objects is
 * taken to be (`kubectl dra snapshot` writes every kind, and every
 * cluster has namespaces); otherwise (a `kubectl get KINDS -o yaml`)
 * every kind of which it holds no object.
 */
static unsigned
file_absent(const struct kube_snapshot *s)
{
	unsigned	absent = 0;

	if (s->namespaces.n > 0)
		return 0;
	absent |= s->slices.n == 0 ? DRA_DOCTOR_K_SLICES : 0;
	absent |= s->claims.n == 0 ? DRA_DOCTOR_K_CLAIMS : 0;
	absent |= s->templates.n == 0 ? DRA_DOCTOR_K_TEMPLATES : 0;
	absent |= s->classes.n == 0 ? DRA_DOCTOR_K_CLASSES : 0;
	absent |= s->taint_rules.n == 0 ? DRA_DOCTOR_K_TAINT_RULES : 0;
	absent |= s->pods.n == 0 ? DRA_DOCTOR_K_PODS : 0;
	absent |= s->nodes.n == 0 ? DRA_DOCTOR_K_NODES : 0;
	absent |= DRA_DOCTOR_K_NAMESPACES;
	absent |= s->quotas.n == 0 ? DRA_DOCTOR_K_QUOTAS : 0;
	return absent;
}

static enum dra_ret
print_report(struct dra_ctx *ctx, const struct dra_doctor_report *r)
{
	struct dra_err	 err;
	const char	*o = ctx->opts.output;
	cJSON		*doc;
	char		*text;
	size_t		 width;

	if (o != NULL && (strcmp(o, "json") == 0 || strcmp(o, "yaml") == 0)) {
		doc = dra_doctor_json(r);
		if (strcmp(o, "json") == 0)
			dra_json_print(stdout, doc);
		else if (kube_yaml_write(stdout, doc, &err) != KUBE_OK) {
			cJSON_Delete(doc);
			return dra_error("%s", err.msg);
		}
		cJSON_Delete(doc);
	} else {
		width = dra_terminal_columns();
		text = dra_doctor_text(r, width > 0 && width < 10000 ?
		    (int)width : 80, dra_color_wanted(ctx));
		fputs(text, stdout);
		free(text);
	}
	if (fflush(stdout) != 0 || ferror(stdout))
		return dra_error("cannot write the report: output error");
	return dra_doctor_ready(r, NULL, NULL) ? DRA_RET_OK :
	    DRA_RET_NEGATIVE;
}

static enum dra_ret
cmd_doctor_exec(struct dra_ctx *ctx, struct dra_args *args)
{
	struct dra_doctor_report	*r;
	struct dra_doctor_opts		 o;
	struct kube_snapshot		*s = NULL;
	const char			*out = ctx->opts.output;
	double				 thr = DOCTOR_DEFAULT_THRESHOLD;
	enum dra_ret			 ret;

	if (args->argc > 0)
		return dra_usage_error(ctx, ctx->cmd, "unexpected argument "
		    "\"%s\": doctor checks the whole cluster",
		    args->argv[0]);
	if (out != NULL && strcmp(out, "json") != 0 &&
	    strcmp(out, "yaml") != 0)
		return dra_usage_error(ctx, ctx->cmd, "unknown output format "
		    "\"%s\" for doctor: use -o json or -o yaml", out);
	if (ctx->opts.pending_threshold != NULL &&
	    (go_duration(ctx->opts.pending_threshold, &thr) != 0 ||
	    !isfinite(thr) || thr < 0 || thr > DOCTOR_MAX_THRESHOLD))
		return dra_usage_error(ctx, ctx->cmd, "invalid "
		    "--pending-threshold \"%s\": expected a duration such as "
		    "30s, 5m or 1h30m (0s names every pending claim)",
		    ctx->opts.pending_threshold);

	memset(&o, 0, sizeof o);
	o.pending_threshold = thr;
	r = dra_doctor_report_new();
	if (ctx->opts.from != NULL) {
		ret = dra_source_load(ctx, DRA_NEED_ALL, NULL, &s);
		if (ret != DRA_RET_OK) {
			dra_doctor_report_free(r);
			return ret;
		}
		if (s->slices.n + s->claims.n + s->templates.n +
		    s->classes.n + s->taint_rules.n == 0) {
			dra_doctor_report_free(r);
			kube_snapshot_free(s);
			return dra_error("%s holds no ResourceSlice, "
			    "ResourceClaim, ResourceClaimTemplate, DeviceClass "
			    "or DeviceTaintRule: nothing to check (kubectl dra "
			    "snapshot -o FILE captures a cluster)",
			    ctx->opts.from);
		}
		dra_doctor_skip(r, "server-version", "live only (--from)");
		dra_doctor_skip(r, "dra-api", "live only (--from)");
		dra_doctor_skip(r, "feature-gates", "live only (--from)");
		o.absent = file_absent(s);
	} else {
#ifdef DRA_HAVE_CLIENT
		ret = run_live(ctx, r, &o, &s);
		if (ret != DRA_RET_OK) {
			dra_doctor_report_free(r);
			return ret;
		}
#else
		dra_doctor_report_free(r);
		return dra_error("this build has no cluster client: check a "
		    "snapshot with --from FILE");
#endif
	}
	if (s != NULL)
		dra_print_warnings(s, ctx->opts.verbosity >= 2);
	else {
		s = kube_snapshot_new();
		kube_snapshot_finish(s);
	}
	dra_doctor_snapshot(r, s, &o);
	ret = print_report(ctx, r);
	dra_doctor_report_free(r);
	kube_snapshot_free(s);
	return ret;
}

const struct dra_cmd dra_cmd_doctor = {
	"doctor", NULL,
	"Check the cluster's DRA health, each finding with a fix",
	"[--pending-threshold DURATION] [--from FILE] [-o json|yaml] "
	    "[--no-color]",
	cmd_doctor_help,
	cmd_doctor_flags,
	0,
	cmd_doctor_exec
};
