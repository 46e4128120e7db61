/*
 * cmd_top.c: "kubectl dra top [nodes | classes | namespaces | pools]":
 * devices, GPU memory, GPUs, shared counters and consumable capacity
 * used against what is published, one row per node, DeviceClass,
 * namespace or pool after a totals row "*" (views/top.h computes the
 * figures; docs/TOP.md says what each column counts).
 *
 * Output: a table laid out as kubectl's (output.c), its percentages coloured against the planner's 80% target
 * and 95% ceiling when stdout is a terminal (not with NO_COLOR,
 * --no-color or TERM=dumb); on a terminal narrower than the table the
 * last columns are left out with a warning (never with -o wide); -o
 * wide; -o json|yaml (the Top document); -o prometheus (the text
 * exposition format, for node_exporter's textfile collector or a
 * scrape job).  A user refused the cluster-scoped lists gets a message
 * naming them, or for namespaces the claims it may read.
 */
#include "dra.h"

#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "snapshot.h"
#include "strdist.h"
#include "top.h"
#include "xmalloc.h"


static const char cmd_top_help[] =
"Kinds: nodes (node, no; the default), classes (class, deviceclasses),\n"
"namespaces (namespace, ns), pools (pool).  DEVICES: devices in use\n"
"(allocated, or blocked: their shared counters used up by allocated\n"
"siblings) of the usable ones (unusable pools left out); GPU-MEMORY\n"
"allocated (a DynamicMIG GPU through its counter set, counted once);\n"
"GPUS in use and their compute utilization.  -o wide adds the busiest\n"
"shared counter and consumable capacity and the devices by state.  The\n"
"first row, *, holds the totals.  Percentages are green below the 80%\n"
"target, yellow up to the 95% ceiling, red above (95.1%, never 95%),\n"
"on a terminal only (NO_COLOR, TERM=dumb or --no-color: none); a\n"
"terminal narrower than the table loses its last columns, with a\n"
"warning.  docs/TOP.md defines every column.\n"
"\n"
"--sort COLUMN: name, devices, gpu-memory, gpus, compute, counters,\n"
"consumable, claims or pending; highest use first.  -l selects nodes,\n"
"classes or pools by label; -n keeps one namespace.  -o prometheus\n"
"prints the same figures in the Prometheus text format, families named\n"
"per kind (kubectl_dra_node_..., _pool_, _class_, _namespace_), so one\n"
"file per kind can share node_exporter's textfile directory.\n"
"\n"
"Examples:\n"
"  kubectl dra top\n"
"  kubectl dra top pools -o wide\n"
"  kubectl dra top namespaces --sort gpu-memory\n"
"  kubectl dra top nodes -l nvidia.com/gpu.product=H100 --sort compute\n"
"  kubectl dra top nodes -o prometheus > /var/lib/node_exporter/dra.prom\n";

static const struct dra_flag cmd_top_flags[] = {
	{ "sort", 0, 1, DRA_F_SORT, "COLUMN",
	    "sort rows by a column, highest use first (name: by name)" },
	{ "no-color", 0, 0, DRA_F_NO_COLOR, "",
	    "print without colours (as NO_COLOR does)" },
	{ NULL, 0, 0, 0, NULL, NULL }
};

enum top_out {
	TOP_TABLE,
	TOP_WIDE,
	TOP_JSON,
	TOP_YAML,
	TOP_PROMETHEUS,
};

static int	 top_output(const char *, enum top_out *);
static enum dra_ret top_bad_kind(struct dra_ctx *, const char *);
static enum dra_ret top_denied(struct dra_ctx *, enum dra_top_kind, int);
static unsigned	 top_needs(enum dra_top_kind, int);

static int
top_output(const char *s, enum top_out *out)
{
	if (s == NULL || *s == '\0')
		*out = TOP_TABLE;
	else if (strcmp(s, "wide") == 0)
		*out = TOP_WIDE;
	else if (strcmp(s, "json") == 0)
		*out = TOP_JSON;
	else if (strcmp(s, "yaml") == 0)
		*out = TOP_YAML;
	else if (strcmp(s, "prometheus") == 0)
		*out = TOP_PROMETHEUS;
	else
		return -1;
	return 0;
}

/* A usage error for an unknown kind, with the closest kind if any. */
static enum dra_ret
top_bad_kind(struct dra_ctx *ctx, const char *word)
{
	static const char	*kinds[] = { "nodes", "classes", "namespaces",
				    "pools" };
	const char		*best = NULL;
	size_t			 i, d, bd = 3;

	for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		d = dra_strdist(word, kinds[i], 1);
		if (d < bd) {
			bd = d;
			best = kinds[i];
		}
	}
	if (best != NULL)
		return dra_usage_error(ctx, ctx->cmd, "unknown kind \"%s\": "
		    "expected nodes, classes, namespaces or pools\n\n"
		    "Did you mean this?\n\t%s\n", word, best);
	return dra_usage_error(ctx, ctx->cmd, "unknown kind \"%s\": "
	    "expected nodes, classes, namespaces or pools", word);
}

/*
 * The lists a user may not read (ctx->denied, after the source's
 * Warning line): without resourceclaims nothing can be said of use;
 * without the cluster-scoped resourceslices (deviceclasses for
 * classes, nodes for nodes -l) nodes, pools and classes have nothing
 * to count, and namespaces only what their claims name.  Returns
 * DRA_RET_OK, or the error naming what is missing.
 */
static enum dra_ret
top_denied(struct dra_ctx *ctx, enum dra_top_kind kind, int labels)
{
	unsigned	d = ctx->denied, c;

	if (kind == DRA_TOP_NAMESPACES) {
		if (d & DRA_NEED_CLAIMS)
			return dra_error("top namespaces counts the "
			    "resourceclaims, which this user may not list "
			    "(forbidden; -n NAMESPACE reads those of a "
			    "namespace it may)");
		if (d & DRA_NEED_SLICES)
			dra_warning("without resourceslices (cluster-scoped, "
			    "forbidden) DEVICES is the devices the claims "
			    "hold, with no total; GPU-MEMORY, GPUS and COMPUTE "
			    "are unknown (-)");
		return DRA_RET_OK;
	}
	c = d & (DRA_NEED_SLICES | (kind == DRA_TOP_CLASSES ?
	    DRA_NEED_CLASSES : 0) | (kind == DRA_TOP_NODES && labels ?
	    DRA_NEED_NODES : 0));
	if (c == 0 && !(d & DRA_NEED_CLAIMS))
		return DRA_RET_OK;
	if (c == 0)
		return dra_error("top %s counts devices in use from the "
		    "resourceclaims, which this user may not list "
		    "(forbidden)", dra_top_kind_name(kind));
	return dra_error("top %s needs to list %s%s%s%s%s (cluster-scoped)%s, "
	    "which this user may not (forbidden); kubectl dra top "
	    "namespaces -n NAMESPACE shows the claims of a namespace it may "
	    "read", dra_top_kind_name(kind),
	    (c & DRA_NEED_SLICES) ? "resourceslices" : "",
	    (c & DRA_NEED_SLICES) && (c & ~DRA_NEED_SLICES) ? ", " : "",
	    (c & DRA_NEED_CLASSES) ? "deviceclasses" : "",
	    (c & DRA_NEED_CLASSES) && (c & DRA_NEED_NODES) ? ", " : "",
	    (c & DRA_NEED_NODES) ? "nodes" : "",
	    (d & DRA_NEED_CLAIMS) ? " and resourceclaims" : "");
}

static unsigned
top_needs(enum dra_top_kind kind, int labels)
{
	unsigned	n = DRA_NEED_SLICES | DRA_NEED_CLAIMS |
			    DRA_NEED_TAINT_RULES;

	if (kind == DRA_TOP_CLASSES)
		n |= DRA_NEED_CLASSES;
	if (kind == DRA_TOP_NODES && labels)
		n |= DRA_NEED_NODES;
	return n;
}

/* The colour of each DRA_TOP_LEVEL_*: green, yellow, red. */
static const char *const top_escapes[] = {
	[DRA_TOP_LEVEL_NONE] = NULL,
	[DRA_TOP_LEVEL_LOW] = "\033[32m",
	[DRA_TOP_LEVEL_HIGH] = "\033[33m",
	[DRA_TOP_LEVEL_OVER] = "\033[31m",
};

static enum dra_ret
cmd_top_exec(struct dra_ctx *ctx, struct dra_args *args)
{
	struct dra_selector	*sel = NULL;
	struct kube_snapshot	*s = NULL;
	struct dra_top		*top = NULL;
	struct dra_table	*t = NULL;
	struct dra_filter	 f;
	struct dra_table_style	 st;
	struct dra_err		 err;
	enum dra_top_kind	 kind = DRA_TOP_NODES;
	enum top_out		 out;
	enum dra_ret		 ret = DRA_RET_OK;
	unsigned char		*lv = NULL;
	cJSON			*doc;
	char			*text;
	int			*matched = NULL, i;

	/* "--sort --from x": the next flag taken as the column. */
	if (ctx->opts.sort != NULL && (*ctx->opts.sort == '\0' ||
	    *ctx->opts.sort == '-'))
		return dra_usage_error(ctx, ctx->cmd, "flag needs an "
		    "argument: --sort (a column: name, devices, gpu-memory, "
		    "gpus, compute, counters, consumable, claims, pending)");
	if (args->argc > 0 && dra_top_kind_parse(args->argv[0], &kind) != 0)
		return top_bad_kind(ctx, args->argv[0]);
	if (top_output(ctx->opts.output, &out) != 0)
		return dra_usage_error(ctx, ctx->cmd, "unsupported output "
		    "format \"%s\": allowed formats are json, prometheus, "
		    "wide, yaml", ctx->opts.output);
	if (ctx->opts.selector != NULL && kind == DRA_TOP_NAMESPACES)
		return dra_usage_error(ctx, ctx->cmd, "-l selects nodes, "
		    "classes or pools, not namespaces");
	dra_err_clear(&err);
	if (ctx->opts.selector != NULL &&
	    dra_selector_parse(ctx->opts.selector, &sel, &err) != KUBE_OK)
		return dra_usage_error(ctx, ctx->cmd, "%s", err.msg);

	ret = dra_source_load(ctx, top_needs(kind, sel != NULL), NULL, &s);
	if (ret != DRA_RET_OK)
		goto out;
	if ((ret = top_denied(ctx, kind, sel != NULL)) != DRA_RET_OK)
		goto out;
	dra_print_warnings(s, ctx->opts.verbosity >= 2);

	memset(&f, 0, sizeof f);
	f.selector = sel;
	if (kind == DRA_TOP_NAMESPACES && !ctx->opts.all_namespaces)
		f.namespace = ctx->opts.namespace;
	if (args->argc > 1) {
		f.names = args->argv + 1;
		f.nnames = (size_t)args->argc - 1;
		matched = xcalloc(f.nnames, sizeof *matched);
		f.matched = matched;
	}
	top = dra_top_build(s, kind, &f, &err);
	if (top == NULL) {
		ret = dra_error("%s", err.msg);
		goto out;
	}
	for (i = 0; i < (int)top->nwarnings; i++)
		dra_warning("deviceclass %s", top->warnings[i]);
	for (i = 0; i < (int)f.nnames; i++) {
		if (matched[i])
			continue;
		if (kind == DRA_TOP_NAMESPACES)
			ret = dra_error("namespace \"%s\" not found: no "
			    "resourceclaims in it%s", f.names[i],
			    f.namespace != NULL ? " (or -n names another)" :
			    "");
		else
			ret = dra_error("%s \"%s\" not found%s",
			    kind == DRA_TOP_NODES ? "node" :
			    kind == DRA_TOP_CLASSES ? "deviceclass" : "pool",
			    f.names[i], kind == DRA_TOP_NODES ? " (a node "
			    "without DRA devices has no row)" : "");
	}
	if (ret != DRA_RET_OK)
		goto out;
	/* A selector that matches nothing: said, as kubectl says it. */
	if (top->nrows == 0 && (out == TOP_TABLE || out == TOP_WIDE)) {
		fprintf(stderr, "No resources found\n");
		goto out;
	}
	if (ctx->opts.sort != NULL && out != TOP_PROMETHEUS &&
	    dra_top_sort(top, ctx->opts.sort, &err) != KUBE_OK) {
		ret = dra_usage_error(ctx, ctx->cmd, "%s", err.msg);
		goto out;
	}

	switch (out) {
	case TOP_PROMETHEUS:
		text = dra_top_prometheus(top);
		fputs(text, stdout);
		free(text);
		break;
	case TOP_JSON:
	case TOP_YAML:
		doc = dra_top_json(top);
		if (out == TOP_JSON)
			dra_json_print(stdout, doc);
		else if (kube_yaml_write(stdout, doc, &err) != KUBE_OK)
			ret = dra_error("%s", err.msg);
		cJSON_Delete(doc);
		break;
	case TOP_TABLE:
	case TOP_WIDE:
	default:
		memset(&st, 0, sizeof st);
		t = dra_top_table(top, out == TOP_WIDE, &lv);
		/*
		 * Percentages in their level's colour; a terminal gets what
		 * its width holds, the name columns and DEVICES at least;
		 * -o wide and pipes every column.
		 */
		if (dra_color_wanted(ctx)) {
			st.levels = lv;
			st.colors = top_escapes;
			st.ncolors = sizeof top_escapes / sizeof top_escapes[0];
		}
		st.columns = out == TOP_WIDE ? 0 : dra_terminal_columns();
		st.keep_min = kind == DRA_TOP_POOLS ? 3 :
		    kind == DRA_TOP_NAMESPACES ? 4 : 2;
		dra_table_print_styled(stdout, t, out == TOP_WIDE,
		    ctx->opts.no_headers, &st);
		break;
	}
	if (fflush(stdout) != 0 || ferror(stdout))
		ret = dra_error("writing the output failed");
out:
	free(lv);
	free(matched);
	dra_table_free(t);
	dra_top_free(top);
	kube_snapshot_free(s);
	dra_selector_free(sel);
	return ret;
}

const struct dra_cmd dra_cmd_top = {
	"top", NULL,
	"Show device, GPU memory and counter use against capacity",
	"[nodes|classes|namespaces|pools] [NAME...] [-n NS | -A] "
	"[-l SELECTOR] [--sort COLUMN] [-o wide|json|yaml|prometheus]",
	cmd_top_help,
	cmd_top_flags,
	0,
	cmd_top_exec
};
