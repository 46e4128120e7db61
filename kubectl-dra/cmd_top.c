/*
 * cmd_top.c: "kubectl dra top [nodes | classes | namespaces | pools]":
 * devices, GPU memory, GPUs, shared counters and consumable capacity
 * used against what is published, one row per node, DeviceClass,
 * namespace or pool after a totals row "*" (views/top.h computes the
 * figures; docs/TOP.md says what each column counts).
 *
 * Output: a table, its percentages coloured against the planner's 80%
 * target and 95% ceiling when stdout is a terminal (not with NO_COLOR
 * or --no-color); -o wide; -o json|yaml (the Top document); -o
 * prometheus (the text exposition format, for node_exporter's
 * textfile collector or a scrape job).
 */
#include "dra.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "snapshot.h"
#include "strdist.h"
#include "top.h"
#include "xmalloc.h"

#define TOP_MINWIDTH	6
#define TOP_PADDING	3

static const char cmd_top_help[] =
"Kinds: nodes (node, no; the default), classes (class, deviceclasses),\n"
"namespaces (namespace, ns), pools (pool).  Rows: devices allocated of\n"
"those published, GPU memory allocated (a DynamicMIG GPU through its\n"
"counter set, counted once), GPUs in use and their compute utilization,\n"
"the busiest shared counter and consumable capacity.  The first row, *,\n"
"holds the totals.  Percentages are green below the 80% target, yellow\n"
"up to the 95% ceiling, red above, on a terminal only (NO_COLOR or\n"
"--no-color: none).  docs/TOP.md defines every column.\n"
"\n"
"--sort COLUMN: name, devices, gpu-memory, gpus, compute, counters,\n"
"consumable, claims or pending; highest use first.  -l selects nodes,\n"
"classes or pools by label; -n keeps one namespace.  -o prometheus\n"
"prints the same figures in the Prometheus text format.\n"
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
static unsigned	 top_needs(enum dra_top_kind, int);
static int	 top_color(const struct dra_ctx *);
static size_t	 top_width(const char *);
static void	 top_pad(FILE *, size_t);
static void	 top_print_color(FILE *, const struct dra_table *,
		    const unsigned char *, int, int);

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

/* Colours only on a terminal, and not with NO_COLOR or --no-color. */
static int
top_color(const struct dra_ctx *ctx)
{
	const char	*nc = getenv("NO_COLOR");

	if (ctx->opts.no_color || (nc != NULL && *nc != '\0'))
		return 0;
	return isatty(fileno(stdout));
}

static size_t
top_width(const char *s)
{
	size_t	w = 0;

	for (; *s != '\0'; s++) {
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	}
	return w;
}

static void
top_pad(FILE *f, size_t n)
{
	while (n-- > 0)
		fputc(' ', f);
}

/*
 * The table as dra_table_print lays it out (output.c: kubectl's
 * tabwriter), each cell with a percentage in its level's colour.
 */
static void
top_print_color(FILE *f, const struct dra_table *t, const unsigned char *lv,
    int wide, int no_headers)
{
	static const char	*esc[] = { NULL, "\033[32m", "\033[33m",
				    "\033[31m" };
	size_t			*width, *vis, nvis = 0, i, j, w;
	const char		*c;
	unsigned char		 l;

	width = xcalloc(t->ncolumns + 1, sizeof *width);
	vis = xcalloc(t->ncolumns + 1, sizeof *vis);
	for (j = 0; j < t->ncolumns; j++) {
		if ((t->columns[j].flags & DRA_COL_WIDE) && !wide)
			continue;
		vis[nvis++] = j;
		width[j] = no_headers ? 0 : top_width(t->columns[j].name);
	}
	for (i = 0; i < t->nrows; i++) {
		for (j = 0; j < nvis; j++) {
			w = top_width(t->rows[i].cells[vis[j]]);
			if (w > width[vis[j]])
				width[vis[j]] = w;
		}
	}
	for (j = 0; j < nvis; j++) {
		width[vis[j]] += TOP_PADDING;
		if (width[vis[j]] < TOP_MINWIDTH)
			width[vis[j]] = TOP_MINWIDTH;
	}
	if (!no_headers) {
		for (j = 0; j < nvis; j++) {
			fputs(t->columns[vis[j]].name, f);
			if (j + 1 < nvis)
				top_pad(f, width[vis[j]] -
				    top_width(t->columns[vis[j]].name));
		}
		fputc('\n', f);
	}
	for (i = 0; i < t->nrows; i++) {
		for (j = 0; j < nvis; j++) {
			c = t->rows[i].cells[vis[j]];
			l = lv[i * t->ncolumns + vis[j]];
			if (l > DRA_TOP_LEVEL_NONE && l <= DRA_TOP_LEVEL_OVER)
				fprintf(f, "%s%s\033[0m", esc[l], c);
			else
				fputs(c, f);
			if (j + 1 < nvis)
				top_pad(f, width[vis[j]] - top_width(c));
		}
		fputc('\n', f);
	}
	free(width);
	free(vis);
}

static enum dra_ret
cmd_top_exec(struct dra_ctx *ctx, struct dra_args *args)
{
	struct dra_selector	*sel = NULL;
	struct kube_snapshot	*s = NULL;
	struct dra_top		*top = NULL;
	struct dra_table	*t = NULL;
	struct dra_filter	 f;
	struct dra_err		 err;
	enum dra_top_kind	 kind = DRA_TOP_NODES;
	enum top_out		 out;
	enum dra_ret		 ret = DRA_RET_OK;
	unsigned char		*lv = NULL;
	cJSON			*doc;
	char			*text;
	int			*matched = NULL, i;

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
	if (ctx->denied & (DRA_NEED_SLICES | DRA_NEED_CLAIMS |
	    (kind == DRA_TOP_CLASSES ? DRA_NEED_CLASSES : 0))) {
		ret = dra_error("cannot list %s: forbidden (top counts every "
		    "published device and every claim)",
		    (ctx->denied & DRA_NEED_SLICES) ? "resourceslices" :
		    (ctx->denied & DRA_NEED_CLAIMS) ? "resourceclaims" :
		    "deviceclasses");
		goto out;
	}
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
		ret = dra_error("%s \"%s\" not found",
		    kind == DRA_TOP_NODES ? "node" : kind == DRA_TOP_CLASSES ?
		    "deviceclass" : kind == DRA_TOP_POOLS ? "pool" :
		    "namespace", f.names[i]);
	}
	if (ret != DRA_RET_OK)
		goto out;
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
		t = dra_top_table(top, out == TOP_WIDE, &lv);
		if (top_color(ctx))
			top_print_color(stdout, t, lv, out == TOP_WIDE,
			    ctx->opts.no_headers);
		else
			dra_table_print(stdout, t, out == TOP_WIDE,
			    ctx->opts.no_headers);
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
