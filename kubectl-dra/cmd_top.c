/*
 * cmd_top.c: "kubectl dra top [nodes | classes | namespaces | pools]":
 * devices, GPU memory, GPUs, shared counters and consumable capacity
 * used against what is published, one row per node, DeviceClass,
 * namespace or pool after a totals row "*" (views/top.h computes the
 * figures; docs/TOP.md says what each column counts).
 *
 * Output: a table laid out as kubectl's (widths in display columns,
 * wcwidth), its percentages coloured against the planner's 80% target
 * and 95% ceiling when stdout is a terminal (not with NO_COLOR,
 * --no-color or TERM=dumb); on a terminal narrower than the table the
 * last columns are left out with a warning (never with -o wide); -o
 * wide; -o json|yaml (the Top document); -o prometheus (the text
 * exposition format, for node_exporter's textfile collector or a
 * scrape job).  A user refused the cluster-scoped lists gets a message
 * naming them, or for namespaces the claims it may read.
 */
/* wcwidth (X/Open), for display widths. */
#define _XOPEN_SOURCE	700

#include "dra.h"

#include <sys/ioctl.h>

#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include <cjson/cJSON.h>

#include "snapshot.h"
#include "strdist.h"
#include "top.h"
#include "xmalloc.h"

#define TOP_MINWIDTH	6
#define TOP_PADDING	3
#define TOP_COLUMNS	80	/* a terminal whose width is unknown */

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
static int	 top_color(const struct dra_ctx *);
static size_t	 top_columns(void);
static size_t	 top_width(const char *);
static void	 top_locale(void);
static void	 top_pad(FILE *, size_t);
static void	 top_print(FILE *, const struct dra_table *,
		    const unsigned char *, int, int, int, size_t, size_t);

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

/*
 * Colours only on a terminal that has them: not with NO_COLOR,
 * --no-color, TERM unset or "dumb".
 */
static int
top_color(const struct dra_ctx *ctx)
{
	const char	*nc = getenv("NO_COLOR"), *term = getenv("TERM");

	if (ctx->opts.no_color || (nc != NULL && *nc != '\0'))
		return 0;
	if (term == NULL || *term == '\0' || strcmp(term, "dumb") == 0)
		return 0;
	return isatty(fileno(stdout));
}

/*
 * The columns of the terminal on stdout (TIOCGWINSZ, else $COLUMNS,
 * else 80), or 0 when stdout is not a terminal: pipes and files get
 * every column, as kubectl prints them.
 */
static size_t
top_columns(void)
{
	struct winsize	 ws;
	const char	*e;
	long		 n;
	char		*end;

	if (!isatty(fileno(stdout)))
		return 0;
	if (ioctl(fileno(stdout), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	if ((e = getenv("COLUMNS")) != NULL) {
		n = strtol(e, &end, 10);
		if (*e != '\0' && *end == '\0' && n > 0 && n < 10000)
			return (size_t)n;
	}
	return TOP_COLUMNS;
}

/*
 * The display width of a UTF-8 cell in terminal columns: wcwidth of
 * each character (a wide CJK character takes two, a combining mark
 * none); a byte that does not decode, or a character wcwidth does not
 * know, one.  The caller has set LC_CTYPE to a UTF-8 locale.
 */
static size_t
top_width(const char *s)
{
	mbstate_t	ps;
	wchar_t		wc;
	size_t		w = 0, n;
	int		cw;

	memset(&ps, 0, sizeof ps);
	while (*s != '\0') {
		if ((unsigned char)*s < 0x80) {
			s++;
			w++;
			continue;
		}
		n = mbrtowc(&wc, s, MB_CUR_MAX, &ps);
		if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
			memset(&ps, 0, sizeof ps);
			s++;
			w++;
			continue;
		}
		cw = wcwidth(wc);
		w += cw < 0 ? 1 : (size_t)cw;
		s += n;
	}
	return w;
}

/*
 * wcwidth needs a UTF-8 LC_CTYPE: the user's when it is one, else
 * C.UTF-8 (cells are UTF-8 whatever the locale says).
 */
static void
top_locale(void)
{
	const char	*cs;

	if (setlocale(LC_CTYPE, "") != NULL &&
	    (cs = nl_langinfo(CODESET)) != NULL &&
	    strcmp(cs, "UTF-8") == 0)
		return;
	if (setlocale(LC_CTYPE, "C.UTF-8") == NULL)
		(void)setlocale(LC_CTYPE, "C");
}

static void
top_pad(FILE *f, size_t n)
{
	while (n-- > 0)
		fputc(' ', f);
}

/*
 * The table as dra_table_print lays it out (output.c: kubectl's
 * tabwriter, minimum width 6, padding 3, the last column unpadded),
 * widths in display columns, each cell with a percentage in its
 * level's colour when color is set (the escape codes surround the
 * cell, not its padding).  Given columns (a terminal's width), the
 * columns after the first cols_min that the width cannot hold are
 * left out, rightmost first, and named on standard error.
 */
static void
top_print(FILE *f, const struct dra_table *t, const unsigned char *lv,
    int wide, int no_headers, int color, size_t columns, size_t cols_min)
{
	static const char	*esc[] = { NULL, "\033[32m", "\033[33m",
				    "\033[31m" };
	size_t			*width, *vis, nvis = 0, keep, i, j, w, total;
	const char		*c;
	unsigned char		 l;
	char			 dropped[256];
	int			 n;

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
	/* The line is the padded columns but the last, unpadded. */
	keep = nvis;
	while (columns > 0 && keep > cols_min) {
		for (total = 0, j = 0; j + 1 < keep; j++)
			total += width[vis[j]];
		total += width[vis[keep - 1]] - TOP_PADDING;
		if (total <= columns)
			break;
		keep--;
	}
	if (keep < nvis) {
		dropped[0] = '\0';
		for (j = keep, n = 0; j < nvis; j++)
			n += snprintf(dropped + (n < (int)sizeof dropped ? n :
			    (int)sizeof dropped - 1), (size_t)(n <
			    (int)sizeof dropped ? (int)sizeof dropped - n : 1),
			    "%s%s", j > keep ? ", " : "",
			    t->columns[vis[j]].name);
		dra_warning("%s not shown: the table is wider than the "
		    "terminal's %zu columns (-o wide or a pipe prints every "
		    "column)", dropped, columns);
		nvis = keep;
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
			if (color && l > DRA_TOP_LEVEL_NONE &&
			    l <= DRA_TOP_LEVEL_OVER)
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
		t = dra_top_table(top, out == TOP_WIDE, &lv);
		top_locale();
		/*
		 * A terminal gets what its width holds, the name columns
		 * and DEVICES at least; -o wide and pipes every column.
		 */
		top_print(stdout, t, lv, out == TOP_WIDE,
		    ctx->opts.no_headers, top_color(ctx), out == TOP_WIDE ?
		    0 : top_columns(), kind == DRA_TOP_POOLS ? 3 :
		    kind == DRA_TOP_NAMESPACES ? 4 : 2);
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
