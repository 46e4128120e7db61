/*
 * cmd_get.c: "kubectl dra get KIND [NAME...]": the joined tables
 * (claims with their devices, nodes and pods; devices with their
 * state and holder; pools, slices, classes, templates, nodes; the DRA
 * keys of ResourceQuotas).
 */
#include "dra.h"

#include <stdlib.h>
#include <string.h>

static const char cmd_get_help[] =
"Kinds: claims (claim, resourceclaims), templates (template,\n"
"resourceclaimtemplates), slices (slice, resourceslices), devices (device,\n"
"dev), pools (pool), classes (class, deviceclasses), nodes (node, no),\n"
"quotas (quota, resourcequotas: one row per DRA quota key).\n"
"\n"
"Devices are named DRIVER/POOL/DEVICE or by device name, pools DRIVER/POOL\n"
"or by pool name.  Devices, pools and nodes show the claims of every\n"
"namespace that hold them.\n"
"\n"
"Examples:\n"
"  kubectl dra get claims -A\n"
"  kubectl dra get devices -o wide\n"
"  kubectl dra get claim my-claim -n team-a -o yaml\n"
"  kubectl dra get pools --from cluster.yaml\n"
"  kubectl dra get quotas -A\n";

static unsigned
cmd_get_needs(enum dra_kind kind, int wide)
{
	switch (kind) {
	case DRA_KIND_CLAIM:
		return DRA_NEED_CLAIMS | DRA_NEED_PODS |
		    (wide ? DRA_NEED_SLICES : DRA_NEED_PODS_PENDING);
	case DRA_KIND_TEMPLATE:
		return DRA_NEED_TEMPLATES;
	case DRA_KIND_SLICE:
		return DRA_NEED_SLICES;
	case DRA_KIND_DEVICE:
	case DRA_KIND_POOL:
		return DRA_NEED_SLICES | DRA_NEED_CLAIMS |
		    DRA_NEED_TAINT_RULES;
	case DRA_KIND_CLASS:
		return DRA_NEED_CLASSES;
	case DRA_KIND_QUOTA:
		/* Classes say which requests.<name> keys are DRA's. */
		return DRA_NEED_QUOTAS | DRA_NEED_CLASSES;
	case DRA_KIND_NODE:
	default:
		return DRA_NEED_NODES | DRA_NEED_SLICES | DRA_NEED_CLAIMS |
		    DRA_NEED_TAINT_RULES;
	}
}

/*
 * The list a kind's rows come from, and its resource name.  When the
 * server refuses that list the command fails (exit 1), as kubectl
 * does, rather than print "No resources found".
 */
static unsigned
cmd_get_primary(enum dra_kind kind, const char **resource)
{
	switch (kind) {
	case DRA_KIND_CLAIM:
		*resource = "resourceclaims";
		return DRA_NEED_CLAIMS;
	case DRA_KIND_TEMPLATE:
		*resource = "resourceclaimtemplates";
		return DRA_NEED_TEMPLATES;
	case DRA_KIND_CLASS:
		*resource = "deviceclasses";
		return DRA_NEED_CLASSES;
	case DRA_KIND_NODE:
		*resource = "nodes";
		return DRA_NEED_NODES;
	case DRA_KIND_QUOTA:
		*resource = "resourcequotas";
		return DRA_NEED_QUOTAS;
	case DRA_KIND_SLICE:
	case DRA_KIND_DEVICE:
	case DRA_KIND_POOL:
	default:
		*resource = "resourceslices";
		return DRA_NEED_SLICES;
	}
}

/*
 * Objects, not rows, for -o json|yaml|name: a quota shows one row per
 * key, its consecutive rows share the object.
 */
static void
unique_rows(struct dra_table *t)
{
	size_t	i, n = 0;

	for (i = 0; i < t->nrows; i++)
		if (n == 0 || t->rows[i].obj != t->rows[n - 1].obj ||
		    t->rows[i].obj == NULL)
			t->rows[n++] = t->rows[i];
	t->nrows = n;
}

static enum dra_ret
cmd_get_exec(struct dra_ctx *ctx, struct dra_args *args)
{
	const struct dra_kind_info	*k;
	struct dra_selector		*sel = NULL;
	struct kube_snapshot		*s = NULL;
	struct dra_table		*t = NULL;
	struct dra_filter		 f;
	struct dra_err			 err;
	enum dra_output			 out;
	const char			*ns = NULL, *resource;
	int				*matched = NULL, i;
	enum dra_ret			 ret;

	if (args->argc == 0)
		return dra_usage_error(ctx, ctx->cmd, "you must specify the "
		    "kind to get: claims, templates, slices, devices, pools, "
		    "classes, nodes or quotas");
	k = dra_kind_find(args->argv[0]);
	if (k == NULL)
		return dra_usage_error(ctx, ctx->cmd, "unknown kind \"%s\": "
		    "expected claims, templates, slices, devices, pools, "
		    "classes, nodes or quotas", args->argv[0]);
	if (dra_output_parse(ctx->opts.output, &out) != 0)
		return dra_usage_error(ctx, ctx->cmd, "unsupported output "
		    "format \"%s\": allowed formats are json, name, wide, "
		    "yaml", ctx->opts.output);
	dra_err_clear(&err);
	if (ctx->opts.selector != NULL &&
	    dra_selector_parse(ctx->opts.selector, &sel, &err) != KUBE_OK)
		return dra_usage_error(ctx, ctx->cmd, "%s", err.msg);

	if (k->namespaced && !ctx->opts.all_namespaces)
		ns = dra_default_namespace(ctx);
	ret = dra_source_load(ctx, cmd_get_needs(k->kind,
	    out == DRA_OUT_WIDE || out == DRA_OUT_JSON || out == DRA_OUT_YAML),
	    k->kind == DRA_KIND_CLAIM || k->kind == DRA_KIND_TEMPLATE ||
	    k->kind == DRA_KIND_QUOTA ? ns : NULL, &s);
	if (ret != DRA_RET_OK)
		goto out;
	if (ctx->denied & cmd_get_primary(k->kind, &resource)) {
		if (ns != NULL && k->namespaced)
			ret = dra_error("cannot list %s in namespace \"%s\": "
			    "forbidden", resource, ns);
		else
			ret = dra_error("cannot list %s: forbidden", resource);
		goto out;
	}
	dra_print_warnings(s, ctx->opts.verbosity >= 2);

	memset(&f, 0, sizeof f);
	f.namespace = ns;
	f.selector = sel;
	f.names = args->argv + 1;
	f.nnames = (size_t)args->argc - 1;
	if (f.nnames > 0) {
		matched = calloc(f.nnames, sizeof *matched);
		if (matched == NULL) {
			ret = dra_error("out of memory");
			goto out;
		}
		f.matched = matched;
	}
	t = dra_view(k->kind, s, &f, out == DRA_OUT_WIDE);

	if (t->nrows == 0 && f.nnames == 0 &&
	    (out == DRA_OUT_TABLE || out == DRA_OUT_WIDE)) {
		fflush(stdout);
		if (ns != NULL)
			fprintf(stderr, "No resources found in %s namespace.\n",
			    ns);
		else
			fprintf(stderr, "No resources found\n");
	} else if (out == DRA_OUT_TABLE || out == DRA_OUT_WIDE) {
		if (t->nrows > 0)
			dra_table_print(stdout, t, out == DRA_OUT_WIDE,
			    ctx->opts.no_headers);
	} else {
		unique_rows(t);
		ret = dra_print_objects(stdout, s, t, out, f.nnames == 1);
	}

	for (i = 0; i < (int)f.nnames; i++) {
		if (matched[i])
			continue;
		if (ns != NULL)
			dra_error("%s \"%s\" not found in namespace \"%s\"",
			    k->singular, f.names[i], ns);
		else
			dra_error("%s \"%s\" not found", k->singular,
			    f.names[i]);
		ret = DRA_RET_ERROR;
	}
out:
	free(matched);
	dra_table_free(t);
	kube_snapshot_free(s);
	dra_selector_free(sel);
	return ret;
}

const struct dra_cmd dra_cmd_get = {
	"get", NULL,
	"List claims, devices, pools, slices, classes, templates, nodes or "
	"quotas",
	"KIND [NAME...] [-n NS | -A] [-l SELECTOR] [-o wide|name|json|yaml] "
	"[--no-headers]",
	cmd_get_help,
	NULL,
	0,
	cmd_get_exec
};
