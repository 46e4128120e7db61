/*
 * cmd_ui.c: "kubectl dra ui [VIEW]": the interactive terminal view
 * (tui/, issue 6), k9s for DRA: the GPUs node by node with their
 * partitions and holders, the lists of `get`, describe, YAML and why
 * on a key, live.
 *
 * This file wires a data source to tui_run: a file (--from, read once
 * here before the screen is set up, "reading FILE..." on a terminal's
 * stderr meanwhile; ctrl-r reads it again in poll) or the cluster (kubectl-dra/live.c:
 * the first list happens here too, so an exec credential plugin can
 * still prompt, then a thread watches).  A --plan document is read
 * here (JSON or YAML) and handed over as cJSON.  Everything printed
 * is printed before the screen opens or after it closes.
 */
#include "dra.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "tui.h"
#include "ydoc.h"

#ifdef DRA_HAVE_CLIENT
#include "client.h"
#include "live.h"
#endif

/* A plan document is not larger than this. */
#define UI_PLAN_MAX	(64UL * 1024 * 1024)

static void	file_refresh(void *);
static int	file_poll(void *, struct kube_snapshot **,
		    struct tui_source_status *, struct dra_err *);
static enum dra_ret read_plan(const char *, cJSON **);
static enum dra_ret cmd_ui_exec(struct dra_ctx *, struct dra_args *);

static const char cmd_ui_help[] =
"An interactive view of the cluster's Dynamic Resource Allocation state,\n"
"in the manner of k9s: the GPUs node by node, each a bar of its memory\n"
"slices with the MIG partitions on it and the claim holding each, free\n"
"slices visible at once and utilization coloured against the 80% target\n"
"and 95% ceiling; the lists of `get` (claims, devices, pools, slices,\n"
"classes, quotas, nodes, templates) with sortable columns.  Enter\n"
"describes the selected object, y shows its YAML, w explains a pending\n"
"claim, p shows a --plan beside today's layout.  Data is listed, then\n"
"watched: the header says LIVE, or STALE while a watch reconnects, or\n"
"OFFLINE for a file.  Plain `kubectl dra` on a terminal opens it too.\n"
"\n"
"Keys: ':' commands (:claims, :devices, :gpus, :ns team-a, :ctx, :q),\n"
"'/' filter (a regex; /!x keeps rows that do not match), '?' every key,\n"
"Esc back, q quit.  VIEW is the first view (default gpus): gpus,\n"
"claims, devices, pools, slices, classes, quotas, nodes or templates.\n"
"\n"
"NO_COLOR (any value) or --no-color draws without colours.  Standard\n"
"input and output must be a terminal; use `get` in scripts.\n"
"\n"
"Examples:\n"
"  kubectl dra ui\n"
"  kubectl dra ui claims -n team-a\n"
"  kubectl dra ui --from snapshot.yaml\n"
"  kubectl dra plan --demand demand.yaml -o yaml > plan.yaml\n"
"  kubectl dra ui --plan plan.yaml\n";

static const struct dra_flag cmd_ui_flags[] = {
	{ "plan", 0, 1, DRA_F_PLAN, "FILE",
	    "a Plan document (plan -o yaml|json) to preview with p" },
	{ "no-color", 0, 0, DRA_F_NO_COLOR, "",
	    "draw without colours (as NO_COLOR does)" },
	{ "mouse", 0, 0, DRA_F_MOUSE, "",
	    "mouse: a click selects, the wheel scrolls" },
	{ NULL, 0, 0, 0, NULL, NULL }
};

/*
 * --from FILE: the snapshot, handed over on the first poll; ctrl-r
 * reads the file again (a new `kubectl dra snapshot` of it).
 */
struct file_source {
	struct dra_ctx		*ctx;
	struct kube_snapshot	*snap;
	const char		*path;
	size_t			 nwarnings;
	int			 reread;
};

static void
file_refresh(void *arg)
{
	struct file_source	*fs = arg;

	fs->reread = 1;
}

static int
file_poll(void *arg, struct kube_snapshot **out, struct tui_source_status *st,
    struct dra_err *err)
{
	struct file_source	*fs = arg;
	struct kube_snapshot	*s = NULL;
	struct timespec		 t0, t1;
	enum dra_ret		 ret;

	if (fs->reread) {
		fs->reread = 0;
		/* Its error message goes to stderr, replayed after the
		   screen closes; the status line says it failed. */
		clock_gettime(CLOCK_MONOTONIC, &t0);
		ret = dra_source_load(fs->ctx, DRA_NEED_ALL, NULL, &s);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (fs->ctx->opts.verbosity >= 6)
			fprintf(stderr, "ui: read %s again in %lld ms\n",
			    fs->path, (long long)(t1.tv_sec - t0.tv_sec) *
			    1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000);
		if (ret != DRA_RET_OK) {
			memset(st, 0, sizeof *st);
			snprintf(st->where, sizeof st->where, "%s", fs->path);
			*out = NULL;
			return dra_err_set(err, KUBE_E_IO, "cannot read %s "
			    "again; showing what was read before", fs->path);
		}
		kube_snapshot_free(fs->snap);
		fs->snap = s;
		fs->nwarnings = s->warnings.n;
	}
	*out = fs->snap;
	fs->snap = NULL;
	memset(st, 0, sizeof *st);
	st->live = 0;
	snprintf(st->where, sizeof st->where, "%s", fs->path);
	if (fs->nwarnings > 0)
		snprintf(st->note, sizeof st->note, "%zu warning%s about the "
		    "file's objects: :warnings lists %s", fs->nwarnings,
		    fs->nwarnings == 1 ? "" : "s", fs->nwarnings == 1 ? "it" :
		    "them");
	return KUBE_OK;
}

/* Read a Plan document, JSON or YAML, into *out. */
static enum dra_ret
read_plan(const char *path, cJSON **out)
{
	struct dra_buf		 b;
	struct dra_err		 err;
	const char		*p;
	int			 fd;
#ifdef DRA_HAVE_CLIENT
	struct dra_arena	 a;
	struct kube_ynode	*root = NULL;
#endif

	*out = NULL;
	fd = strcmp(path, "-") == 0 ? STDIN_FILENO : open(path, O_RDONLY);
	if (fd == -1)
		return dra_error("cannot read the plan %s: %s", path,
		    strerror(errno));
	dra_buf_init(&b, UI_PLAN_MAX);
	if (dra_buf_read_fd(&b, fd) != KUBE_OK) {
		if (fd != STDIN_FILENO)
			close(fd);
		dra_buf_release(&b);
		return dra_error("cannot read the plan %s: %s", path,
		    errno != 0 ? strerror(errno) : "too large");
	}
	if (fd != STDIN_FILENO)
		close(fd);
	p = dra_buf_str(&b);
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	if (*p == '{') {
		*out = cJSON_Parse(p);
		dra_buf_release(&b);
		if (*out == NULL)
			return dra_error("the plan %s is not valid JSON", path);
		return DRA_RET_OK;
	}
#ifdef DRA_HAVE_CLIENT
	dra_arena_init(&a);
	dra_err_clear(&err);
	if (kube_yaml_load(path, dra_buf_str(&b), strlen(dra_buf_str(&b)),
	    KUBE_YAML_ONE_DOC, "a Plan", KUBE_E_PARSE, &a, &root, &err) !=
	    KUBE_OK) {
		dra_arena_release(&a);
		dra_buf_release(&b);
		return dra_error("%s", err.msg);
	}
	if (root != NULL)
		*out = kube_ynode_to_json(root);
	dra_arena_release(&a);
#else
	(void)err;
#endif
	dra_buf_release(&b);
	if (*out == NULL || !cJSON_IsObject(*out)) {
		cJSON_Delete(*out);
		*out = NULL;
		return dra_error("the plan %s is not a Plan document (kubectl "
		    "dra plan -o yaml writes one)", path);
	}
	return DRA_RET_OK;
}

static enum dra_ret
cmd_ui_exec(struct dra_ctx *ctx, struct dra_args *args)
{
	struct tui_opts		 o;
	struct tui_source	 src;
	struct file_source	 fs;
	struct dra_err		 err;
	cJSON			*plan = NULL, *kind;
	const char		*nc;
	enum dra_ret		 ret;
	int			 rc, reading = 0;
#ifdef DRA_HAVE_CLIENT
	struct dra_live		*live = NULL;
#endif

	if (args->argc > 1)
		return dra_usage_error(ctx, ctx->cmd, "ui takes at most one "
		    "view name");
	if (args->argc == 1 && !tui_view_known(args->argv[0]))
		return dra_usage_error(ctx, ctx->cmd, "unknown view \"%s\": "
		    "use gpus, claims, devices, pools, slices, classes, "
		    "quotas, nodes or templates", args->argv[0]);
	if (ctx->opts.output != NULL)
		return dra_usage_error(ctx, ctx->cmd, "ui does not take -o; "
		    "use \"%s get\" for output", ctx->prog);
	if (ctx->opts.selector != NULL)
		return dra_usage_error(ctx, ctx->cmd, "ui does not take -l; "
		    "filter with / in the view");
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return dra_error("ui needs a terminal: standard input and "
		    "output must be a terminal (use \"%s get\" in scripts)",
		    ctx->prog);

	if (ctx->opts.plan != NULL) {
		ret = read_plan(ctx->opts.plan, &plan);
		if (ret != DRA_RET_OK)
			return ret;
		kind = cJSON_GetObjectItemCaseSensitive(plan, "kind");
		if (!cJSON_IsString(kind) || strcmp(kind->valuestring,
		    "Plan") != 0) {
			cJSON_Delete(plan);
			return dra_error("%s is not a Plan document (kind: "
			    "Plan; kubectl dra plan -o yaml writes one)",
			    ctx->opts.plan);
		}
	}

	memset(&o, 0, sizeof o);
	o.view = args->argc == 1 ? args->argv[0] : NULL;
	o.namespace = ctx->opts.all_namespaces ? NULL : ctx->opts.namespace;
	o.plan = plan;
	o.plan_file = ctx->opts.plan;
	nc = getenv("NO_COLOR");
	o.no_color = ctx->opts.no_color || (nc != NULL && *nc != '\0');
	o.mouse = ctx->opts.mouse;
	memset(&src, 0, sizeof src);
	dra_err_clear(&err);

	if (ctx->opts.from != NULL) {
		memset(&fs, 0, sizeof fs);
		/*
		 * A large file takes seconds: say so on the terminal, on a
		 * line an error printed next overwrites (it is longer) and
		 * that is erased once read.
		 */
		if (isatty(STDERR_FILENO))
			reading = fprintf(stderr, "reading %s...\r",
			    ctx->opts.from);
		fflush(stderr);
		ret = dra_source_load(ctx, DRA_NEED_ALL, NULL, &fs.snap);
		if (reading > 1 && ret == DRA_RET_OK)
			fprintf(stderr, "%*s\r", reading - 1, "");
		fflush(stderr);
		if (ret != DRA_RET_OK) {
			cJSON_Delete(plan);
			return ret;
		}
		fs.ctx = ctx;
		fs.path = ctx->opts.from;
		fs.nwarnings = fs.snap->warnings.n;
		src.arg = &fs;
		src.poll = file_poll;
		src.refresh = file_refresh;
		rc = tui_run(&o, &src, &err);
		kube_snapshot_free(fs.snap);
	} else {
#ifdef DRA_HAVE_CLIENT
		/*
		 * Every namespace is listed (a namespace-limited user gets
		 * its own, with a note): claims of other namespaces hold
		 * devices.  -n filters the views.
		 */
		live = dra_live_start(ctx, NULL, &err);
		if (live == NULL) {
			cJSON_Delete(plan);
			return dra_error("%s", err.msg);
		}
		dra_live_source(live, &src);
		rc = tui_run(&o, &src, &err);
		dra_live_stop(live);
#else
		cJSON_Delete(plan);
		return dra_error("this build has no cluster client: use "
		    "--from FILE (a file of \"%s snapshot\")", ctx->prog);
#endif
	}
	cJSON_Delete(plan);
	if (rc != KUBE_OK)
		return dra_error("%s", err.msg);
	return DRA_RET_OK;
}

const struct dra_cmd dra_cmd_ui = {
	"ui", NULL,
	"Browse GPUs, claims and devices interactively (a terminal UI)",
	"[VIEW] [--from FILE] [-n NS | -A] [--plan FILE] [--no-color] "
	    "[--mouse]",
	cmd_ui_help,
	cmd_ui_flags,
	0,
	cmd_ui_exec
};
