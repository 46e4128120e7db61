/*
 * cmd_why.c: "kubectl dra why pod/NAME | claim/NAME | template/NAME":
 * why a pod's claims, a claim, or a claim from a template can or
 * cannot get their devices, re-running the scheduler's allocator
 * offline (kube/dra/why.h) and printing its report (views/why.c).
 */
#include "dra.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "why.h"
#include "xmalloc.h"

static const char cmd_why_help[] =
"Re-runs the decision kube-scheduler's DynamicResources plugin makes, node\n"
"by node, with the structured allocator of Kubernetes 1.37 and the CEL of\n"
"device selectors, on the cluster's current objects (or --from a file).\n"
"For every node that does not fit it names the first reason each request\n"
"fails: the devices the selectors match, which are held and by whom, the\n"
"counter of which counter set is exhausted, the untolerated taint, the\n"
"failing constraint, the incomplete pool.\n"
"\n"
"Verdicts: allocated; allocatable (and the devices it would get);\n"
"allocatable once the named claims release their devices; never; blocked\n"
"(an error such as a CEL runtime error fails the pod on every node);\n"
"unknown (an unsupported CEL construct, or the search bound was hit).\n"
"\n"
"Targets: pod/NAME (its claims together, on its node if bound),\n"
"claim/NAME (as a pod using only that claim), template/NAME (a new claim\n"
"from that ResourceClaimTemplate).\n"
"\n"
"Exit status: 0 allocated or allocatable, 3 not (or unknown), 1 error.\n"
"\n"
"Examples:\n"
"  kubectl dra why pod/trainer-0 -n team-a\n"
"  kubectl dra why claim/big-gpu -n team-a -o json\n"
"  kubectl dra why claim/big-gpu --what-if new-node.yaml\n"
"  kubectl dra why pod/trainer-0 --from snapshot.yaml --node node-7\n";

static const struct dra_flag cmd_why_flags[] = {
	{ "node", 0, 1, DRA_F_NODE, "NODE",
	    "consider only this node" },
	{ "what-if", 0, 1, DRA_F_WHAT_IF, "FILE",
	    "add the objects of FILE (slices, claims, nodes) first" },
	{ NULL, 0, 0, 0, NULL, NULL }
};

enum why_kind { WHY_POD, WHY_CLAIM, WHY_TEMPLATE };

/* "pod/x", "pods/x", "claim/x", "resourceclaim/x", "template/x", ... */
static int
parse_target(const char *kind, enum why_kind *k)
{
	static const struct {
		const char	*word;
		enum why_kind	 kind;
	} words[] = {
		{ "pod", WHY_POD }, { "pods", WHY_POD }, { "po", WHY_POD },
		{ "claim", WHY_CLAIM }, { "claims", WHY_CLAIM },
		{ "resourceclaim", WHY_CLAIM },
		{ "resourceclaims", WHY_CLAIM },
		{ "template", WHY_TEMPLATE }, { "templates", WHY_TEMPLATE },
		{ "resourceclaimtemplate", WHY_TEMPLATE },
		{ "resourceclaimtemplates", WHY_TEMPLATE },
	};
	size_t	i;

	for (i = 0; i < sizeof words / sizeof words[0]; i++) {
		if (strcasecmp(kind, words[i].word) == 0) {
			*k = words[i].kind;
			return 0;
		}
	}
	return -1;
}

/* Whether a Node object or a ResourceSlice names node. */
static int
node_known(const struct kube_snapshot *s, const char *node)
{
	size_t	i, j;

	if (kube_snapshot_node(s, node) != NULL)
		return 1;
	for (i = 0; i < s->slices.n; i++) {
		const struct kube_slice *sl = s->slices.v[i];

		if (sl->node_name != NULL && strcmp(sl->node_name, node) == 0)
			return 1;
		for (j = 0; j < sl->ndevices; j++) {
			if (sl->devices[j].node_name != NULL &&
			    strcmp(sl->devices[j].node_name, node) == 0)
				return 1;
		}
	}
	return 0;
}

static enum dra_ret
print_report(struct dra_ctx *ctx, const char *heading, const char *target,
    const char *claim, const struct dra_why *w)
{
	cJSON	*doc;
	char	*text;

	if (ctx->opts.output != NULL && strcmp(ctx->opts.output, "json") == 0) {
		doc = dra_why_json(target, claim, w);
		dra_json_print(stdout, doc);
		cJSON_Delete(doc);
	} else {
		text = dra_why_text(heading, w);
		dra_print_text(stdout, text);
		free(text);
	}
	if (fflush(stdout) != 0 || ferror(stdout))
		return dra_error("cannot write the report: output error");
	return w->allocatable == 1 ? DRA_RET_OK : DRA_RET_NEGATIVE;
}

static enum dra_ret
cmd_why_exec(struct dra_ctx *ctx, struct dra_args *args)
{
	struct kube_snapshot			*s = NULL;
	struct kube_claim			*c = NULL;
	const struct kube_claim_template	*tpl;
	struct dra_why_target			 t;
	struct dra_why				*w = NULL;
	struct dra_err				 err;
	enum why_kind				 kind;
	const char				*ns, *name, *slash;
	char					 word[64], *heading = NULL;
	char					*target = NULL, *claim = NULL;
	unsigned				 needs;
	enum dra_ret				 ret;

	if (args->argc < 1)
		return dra_usage_error(ctx, ctx->cmd, "you must name a pod, a "
		    "claim or a template: pod/NAME, claim/NAME or "
		    "template/NAME");
	if (args->argc > 2 || (args->argc == 2 &&
	    strchr(args->argv[0], '/') != NULL))
		return dra_usage_error(ctx, ctx->cmd, "why explains one pod "
		    "or claim at a time");
	if (ctx->opts.output != NULL && strcmp(ctx->opts.output, "json") != 0)
		return dra_usage_error(ctx, ctx->cmd, "unknown output format "
		    "\"%s\" for why: use -o json", ctx->opts.output);
	if (args->argc == 2) {
		snprintf(word, sizeof word, "%s", args->argv[0]);
		name = args->argv[1];
	} else if ((slash = strchr(args->argv[0], '/')) != NULL &&
	    (size_t)(slash - args->argv[0]) < sizeof word) {
		snprintf(word, sizeof word, "%.*s",
		    (int)(slash - args->argv[0]), args->argv[0]);
		name = slash + 1;
	} else
		return dra_usage_error(ctx, ctx->cmd, "\"%s\": expected "
		    "pod/NAME, claim/NAME or template/NAME", args->argv[0]);
	if (parse_target(word, &kind) != 0)
		return dra_usage_error(ctx, ctx->cmd, "cannot explain \"%s\": "
		    "expected pod, claim or template", word);
	if (*name == '\0' || strchr(name, '/') != NULL)
		return dra_usage_error(ctx, ctx->cmd, "\"%s\" is not a valid "
		    "name", name);

	ns = dra_default_namespace(ctx);
	needs = DRA_NEED_SLICES | DRA_NEED_CLAIMS | DRA_NEED_TEMPLATES |
	    DRA_NEED_CLASSES | DRA_NEED_TAINT_RULES | DRA_NEED_NODES |
	    DRA_NEED_NAMESPACES;
	if (kind == WHY_POD)
		needs |= DRA_NEED_PODS | DRA_NEED_PODS_OWN;
	/* Claims everywhere: any namespace's claims hold devices. */
	ret = dra_source_load(ctx, needs, NULL, &s);
	if (ret != DRA_RET_OK)
		return ret;
	dra_print_warnings(s, ctx->opts.verbosity >= 2);

	memset(&t, 0, sizeof t);
	t.node = ctx->opts.node;
	if (t.node != NULL && !node_known(s, t.node)) {
		ret = dra_error("node \"%s\" not found: no Node object and no "
		    "ResourceSlice names it", t.node);
		goto out;
	}
	switch (kind) {
	case WHY_POD:
		t.pod = kube_snapshot_pod(s, ns, name);
		if (t.pod == NULL) {
			ret = dra_error("pod \"%s\" not found in namespace "
			    "\"%s\"%s", name, ns, (ctx->denied &
			    DRA_NEED_PODS) ? " (pods could not be listed: "
			    "forbidden)" : ", or it uses no ResourceClaim");
			goto out;
		}
		heading = xasprintf("Pod %s/%s", ns, name);
		target = xasprintf("pod/%s/%s", ns, name);
		break;
	case WHY_CLAIM:
		c = kube_snapshot_claim(s, ns, name);
		if (c == NULL) {
			ret = dra_error("resourceclaim \"%s\" not found in "
			    "namespace \"%s\"%s", name, ns, (ctx->denied &
			    DRA_NEED_CLAIMS) ? " (claims could not be listed: "
			    "forbidden)" : "");
			goto out;
		}
		t.claim = c;
		heading = xasprintf("ResourceClaim %s/%s", ns, name);
		target = xasprintf("claim/%s/%s", ns, name);
		claim = xasprintf("%s/%s", ns, name);
		break;
	case WHY_TEMPLATE:
		tpl = kube_snapshot_template(s, ns, name);
		if (tpl == NULL) {
			ret = dra_error("resourceclaimtemplate \"%s\" not "
			    "found in namespace \"%s\"", name, ns);
			goto out;
		}
		t.tmpl = tpl;
		heading = xasprintf("ResourceClaimTemplate %s/%s (a new claim "
		    "from it)", ns, name);
		target = xasprintf("template/%s/%s", ns, name);
		claim = xasprintf("%s/%s", ns, name);
		break;
	}
	dra_err_clear(&err);
	if (dra_why(s, &t, &w, &err) != KUBE_OK) {
		ret = dra_error("%s", err.msg);
		goto out;
	}
	ret = print_report(ctx, heading, target, claim, w);
out:
	dra_why_free(w);
	free(heading);
	free(target);
	free(claim);
	kube_snapshot_free(s);
	return ret;
}

const struct dra_cmd dra_cmd_why = {
	"why", NULL,
	"Explain why a pod or claim can or cannot get its devices",
	"pod/NAME | claim/NAME | template/NAME [-n NS] [--node NODE] "
	    "[--what-if FILE] [-o json]",
	cmd_why_help,
	cmd_why_flags,
	0,
	cmd_why_exec
};
