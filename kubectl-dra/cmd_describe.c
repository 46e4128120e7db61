/*
 * cmd_describe.c: "kubectl dra describe claim|device|node|pool|quota
 * NAME": one object's joined story in kubectl describe's layout (the
 * texts come from views/describe.c).
 */
#include "dra.h"

#include <stdlib.h>
#include <string.h>

static const char cmd_describe_help[] =
"Kinds: claim NAME (in -n NS); device DRIVER/POOL/DEVICE, or the device\n"
"name alone when only one device has it; node NAME; pool DRIVER/POOL, or\n"
"the pool name alone when unique; quota NAME (a ResourceQuota in -n NS,\n"
"its DRA keys first).\n"
"\n"
"Examples:\n"
"  kubectl dra describe claim my-claim -n team-a\n"
"  kubectl dra describe device gpu.example.com/node-a/gpu-0\n"
"  kubectl dra describe node node-a\n"
"  kubectl dra describe quota gpu-quota -n team-a\n";

#define MAX_MATCHES	16

static enum dra_ret
ambiguous(const char *what, const char *spec, char **names, size_t n,
    size_t total)
{
	size_t	i, len = 0;
	char	list[1024];

	list[0] = '\0';
	for (i = 0; i < n && len < sizeof list; i++) {
		snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "",
		    names[i]);
		len = strlen(list);
	}
	return dra_error("%s name \"%s\" is ambiguous (%zu match: %s%s); "
	    "name it as %s", what, spec, total, list, total > n ? ", ..." : "",
	    strcmp(what, "device") == 0 ? "DRIVER/POOL/DEVICE" :
	    "DRIVER/POOL");
}

static enum dra_ret
describe_device(const struct kube_snapshot *s, const char *spec, char **text)
{
	struct kube_device	*m[MAX_MATCHES];
	char			*names[MAX_MATCHES];
	size_t			 n, i;
	enum dra_ret		 ret;

	n = dra_find_devices(s, spec, m, MAX_MATCHES);
	if (n == 0)
		return dra_error("device \"%s\" not found", spec);
	if (n > 1) {
		for (i = 0; i < n && i < MAX_MATCHES; i++) {
			names[i] = malloc(1024);
			if (names[i] != NULL)
				snprintf(names[i], 1024, "%s/%s/%s",
				    m[i]->slice->driver, m[i]->slice->pool_name,
				    m[i]->name);
		}
		ret = ambiguous("device", spec, names, i, n);
		while (i-- > 0)
			free(names[i]);
		return ret;
	}
	*text = dra_describe_device(s, m[0]);
	return DRA_RET_OK;
}

static enum dra_ret
describe_pool(const struct kube_snapshot *s, const char *spec, char **text)
{
	struct kube_pool	*m[MAX_MATCHES];
	char			*names[MAX_MATCHES];
	size_t			 n, i;
	enum dra_ret		 ret;

	n = dra_find_pools(s, spec, m, MAX_MATCHES);
	if (n == 0)
		return dra_error("pool \"%s\" not found", spec);
	if (n > 1) {
		for (i = 0; i < n && i < MAX_MATCHES; i++) {
			names[i] = malloc(1024);
			if (names[i] != NULL)
				snprintf(names[i], 1024, "%s/%s",
				    m[i]->driver, m[i]->name);
		}
		ret = ambiguous("pool", spec, names, i, n);
		while (i-- > 0)
			free(names[i]);
		return ret;
	}
	*text = dra_describe_pool(s, m[0]);
	return DRA_RET_OK;
}

static enum dra_ret
describe_node(const struct kube_snapshot *s, const char *name, char **text)
{
	struct kube_node	*node;
	size_t			 i;
	int			 known = 0;

	node = kube_snapshot_node(s, name);
	for (i = 0; node == NULL && i < s->slices.n && !known; i++) {
		const struct kube_slice	*sl = s->slices.v[i];
		size_t			 j;

		if (sl->node_name != NULL && strcmp(sl->node_name, name) == 0)
			known = 1;
		for (j = 0; j < sl->ndevices && !known; j++) {
			if (sl->devices[j].node_name != NULL &&
			    strcmp(sl->devices[j].node_name, name) == 0)
				known = 1;
		}
	}
	if (node == NULL && !known)
		return dra_error("node \"%s\" not found", name);
	*text = dra_describe_node(s, name, node);
	return DRA_RET_OK;
}

static enum dra_ret
describe_quota(struct dra_ctx *ctx, const struct kube_snapshot *s,
    const char *ns, const char *name, char **text)
{
	size_t	i;

	for (i = 0; i < s->quotas.n; i++)
		if (strcmp(s->quotas.v[i]->meta.name, name) == 0 &&
		    s->quotas.v[i]->meta.namespace != NULL &&
		    strcmp(s->quotas.v[i]->meta.namespace, ns) == 0) {
			*text = dra_describe_quota(s, s->quotas.v[i]);
			return DRA_RET_OK;
		}
	if (ctx->denied & DRA_NEED_QUOTAS)
		return dra_error("cannot read resourcequota \"%s\" in "
		    "namespace \"%s\": forbidden", name, ns);
	return dra_error("resourcequota \"%s\" not found in namespace "
	    "\"%s\"", name, ns);
}

static enum dra_ret
cmd_describe_exec(struct dra_ctx *ctx, struct dra_args *args)
{
	const struct dra_kind_info	*k;
	struct kube_snapshot		*s = NULL;
	struct kube_claim		*c;
	const char			*ns = NULL;
	char				*text;
	unsigned			 needs;
	enum dra_ret			 ret, r;
	int				 i, printed = 0;

	if (args->argc < 2)
		return dra_usage_error(ctx, ctx->cmd, "you must specify a kind "
		    "(claim, device, node, pool or quota) and a name");
	k = dra_kind_find(args->argv[0]);
	if (k == NULL || (k->kind != DRA_KIND_CLAIM &&
	    k->kind != DRA_KIND_DEVICE && k->kind != DRA_KIND_NODE &&
	    k->kind != DRA_KIND_POOL && k->kind != DRA_KIND_QUOTA))
		return dra_usage_error(ctx, ctx->cmd, "cannot describe \"%s\": "
		    "expected claim, device, node, pool or quota",
		    args->argv[0]);
	if (ctx->opts.output != NULL)
		return dra_usage_error(ctx, ctx->cmd, "describe does not take "
		    "-o; use \"%s get %s NAME -o yaml\"", ctx->prog, k->name);
	needs = DRA_NEED_SLICES | DRA_NEED_CLAIMS | DRA_NEED_TAINT_RULES |
	    DRA_NEED_PODS;
	if (k->kind == DRA_KIND_NODE)
		needs |= DRA_NEED_NODES;
	if (k->kind == DRA_KIND_CLAIM) {
		ns = dra_default_namespace(ctx);
		ret = dra_source_load(ctx, needs | DRA_NEED_TEMPLATES, ns, &s);
	} else if (k->kind == DRA_KIND_QUOTA) {
		/* Classes say which requests.<name> keys are DRA's. */
		ns = dra_default_namespace(ctx);
		ret = dra_source_load(ctx, DRA_NEED_QUOTAS | DRA_NEED_CLASSES,
		    ns, &s);
	} else
		ret = dra_source_load(ctx, needs, NULL, &s);
	if (ret != DRA_RET_OK)
		return ret;
	dra_print_warnings(s, ctx->opts.verbosity >= 2);
	for (i = 1; i < args->argc; i++) {
		text = NULL;
		switch (k->kind) {
		case DRA_KIND_CLAIM:
			c = kube_snapshot_claim(s, ns, args->argv[i]);
			if (c == NULL && (ctx->denied & DRA_NEED_CLAIMS))
				r = dra_error("cannot read resourceclaim "
				    "\"%s\" in namespace \"%s\": forbidden",
				    args->argv[i], ns);
			else if (c == NULL)
				r = dra_error("resourceclaim \"%s\" not found "
				    "in namespace \"%s\"", args->argv[i], ns);
			else {
				text = dra_describe_claim(s, c);
				r = DRA_RET_OK;
			}
			break;
		case DRA_KIND_DEVICE:
			r = describe_device(s, args->argv[i], &text);
			break;
		case DRA_KIND_POOL:
			r = describe_pool(s, args->argv[i], &text);
			break;
		case DRA_KIND_QUOTA:
			r = describe_quota(ctx, s, ns, args->argv[i], &text);
			break;
		default:
			r = describe_node(s, args->argv[i], &text);
			break;
		}
		if (text != NULL) {
			if (printed++ > 0)
				fputs("\n\n", stdout);
			dra_print_text(stdout, text);
			free(text);
		}
		if (r != DRA_RET_OK)
			ret = r;
	}
	kube_snapshot_free(s);
	return ret;
}

const struct dra_cmd dra_cmd_describe = {
	"describe", NULL,
	"Show one claim, device, node, pool or quota with everything joined "
	"to it",
	"claim|device|node|pool|quota NAME... [-n NS]",
	cmd_describe_help,
	NULL,
	0,
	cmd_describe_exec
};
