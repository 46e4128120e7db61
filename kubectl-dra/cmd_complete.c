/*
 * cmd_complete.c: the hidden "__complete" command behind shell
 * completion.  kubectl (1.26+) completes "kubectl dra ..." by running
 * the executable kubectl_complete-dra from PATH with the words typed
 * so far, the last one being the word to complete ("" for a new
 * word); that script runs "kubectl-dra __complete WORDS...".  The
 * answer is cobra's protocol: one candidate per line, then a line
 * ":DIRECTIVE" (4, ShellCompDirectiveNoFileComp; 0, the shell's own
 * file completion, for file arguments).
 *
 * Completed: command names, kinds for get and describe, object names
 * (from --from FILE or the cluster), flag names, -o and --format
 * values, namespaces, the views of ui.
 */
#include "dra.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"

#define DIRECTIVE_DEFAULT	0	/* let the shell complete files */
#define DIRECTIVE_NOSPACE	2	/* ShellCompDirectiveNoSpace */
#define DIRECTIVE_NOFILE	4	/* ShellCompDirectiveNoFileComp */

static const char *const output_values[] = { "json", "name", "wide",
    "yaml", NULL };
static const char *const format_values[] = { "json", "yaml", NULL };
static const char *const plan_output_values[] = { "json", "svg", "table",
    "yaml", NULL };
static const char *const doctor_output_values[] = { "json", "yaml", NULL };
static const char *const mig_values[] = { "dynamic", "static", NULL };
static const char *const baseline_values[] = { "as-given", "large-first",
    "none", "random", "small-first", NULL };
static const char *const get_kinds[] = { "claims", "classes", "devices",
    "nodes", "pools", "quotas", "slices", "templates", NULL };
static const char *const describe_kinds[] = { "claim", "device", "node",
    "pool", "quota", NULL };
static const char *const top_kinds[] = { "classes", "namespaces", "nodes",
    "pools", NULL };
static const char *const top_output_values[] = { "json", "prometheus",
    "wide", "yaml", NULL };
static const char *const top_sort_values[] = { "claims", "compute",
    "consumable", "counters", "devices", "gpu-memory", "gpus", "name",
    "pending", NULL };

static int
has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void
offer(const char *pre, const char *cand, const char *cur)
{
	size_t	n = strlen(pre);

	/* pre + cand starts with cur, without building the joined string. */
	if (strncmp(pre, cur, strlen(cur) < n ? strlen(cur) : n) != 0)
		return;
	if (strlen(cur) > n && !has_prefix(cand, cur + n))
		return;
	printf("%s%s\n", pre, cand);
}

static void
offer_list(const char *pre, const char *const *list, const char *cur)
{
	size_t	i;

	for (i = 0; list[i] != NULL; i++)
		offer(pre, list[i], cur);
}

static void
offer_flags(const struct dra_flag *tab, const char *cur)
{
	char	name[128];
	size_t	i;

	for (i = 0; tab != NULL && tab[i].name != NULL; i++) {
		snprintf(name, sizeof name, "--%s", tab[i].name);
		if (has_prefix(name, cur))
			printf("%s\n", name);
	}
}

/* Object names of a kind, from the file or the cluster. */
static void
offer_names(struct dra_ctx *ctx, const struct dra_kind_info *k,
    const char *cur)
{
	struct kube_snapshot	*s = NULL;
	struct dra_table	*t;
	struct dra_filter	 f;
	char			 name[2048], last[2048] = "";
	const char		*ns = NULL, *slash;
	unsigned		 needs;
	size_t			 i;

	if (k->namespaced && !ctx->opts.all_namespaces)
		ns = dra_default_namespace(ctx);
	needs = DRA_NEED_ALL & ~DRA_NEED_PODS;
	if (k->kind != DRA_KIND_QUOTA)
		needs &= ~DRA_NEED_QUOTAS;
	if (dra_source_load(ctx, needs, k->namespaced ? ns : NULL, &s) !=
	    DRA_RET_OK)
		return;
	memset(&f, 0, sizeof f);
	f.namespace = ns;
	t = dra_view(k->kind, s, &f, 0);
	for (i = 0; i < t->nrows; i++) {
		dra_row_name(t, &t->rows[i], name, sizeof name);
		/* "resourceclaim.resource.k8s.io/x" -> "x" */
		slash = k->kind == DRA_KIND_DEVICE || k->kind == DRA_KIND_POOL ?
		    strchr(name, '/') : strrchr(name, '/');
		/* A quota has a row per DRA key: offer it once. */
		if (strcmp(name, last) == 0)
			continue;
		snprintf(last, sizeof last, "%s", name);
		offer("", slash != NULL ? slash + 1 : name, cur);
	}
	dra_table_free(t);
	kube_snapshot_free(s);
}

/*
 * The target of `why`: "pod/", "claim/", "template/", then the names of
 * that kind in the namespace.  Returns the directive.
 */
static int
offer_why(struct dra_ctx *ctx, const char *cur)
{
	static const char *const kinds[] = { "pod/", "claim/", "template/",
	    NULL };
	struct kube_snapshot	*s = NULL;
	const char		*ns;
	size_t			 i;

	if (strchr(cur, '/') == NULL) {
		offer_list("", kinds, cur);
		return DIRECTIVE_NOFILE | DIRECTIVE_NOSPACE;
	}
	ns = dra_default_namespace(ctx);
	if (dra_source_load(ctx, DRA_NEED_CLAIMS | DRA_NEED_TEMPLATES |
	    DRA_NEED_PODS, ns, &s) != DRA_RET_OK)
		return DIRECTIVE_NOFILE;
	if (has_prefix(cur, "claim/")) {
		for (i = 0; i < s->claims.n; i++)
			offer("claim/", s->claims.v[i]->meta.name, cur);
	} else if (has_prefix(cur, "template/")) {
		for (i = 0; i < s->templates.n; i++)
			offer("template/", s->templates.v[i]->meta.name, cur);
	} else if (has_prefix(cur, "pod/")) {
		for (i = 0; i < s->pods.n; i++)
			offer("pod/", s->pods.v[i]->meta.name, cur);
	}
	kube_snapshot_free(s);
	return DIRECTIVE_NOFILE;
}

static void
offer_namespaces(struct dra_ctx *ctx, const char *pre, const char *cur)
{
	struct kube_snapshot	*s = NULL;
	const char		*last = NULL;
	size_t			 i;

	if (dra_source_load(ctx, DRA_NEED_NAMESPACES | DRA_NEED_CLAIMS, NULL,
	    &s) != DRA_RET_OK)
		return;
	for (i = 0; i < s->namespaces.n; i++)
		offer(pre, s->namespaces.v[i]->meta.name, cur);
	if (s->namespaces.n == 0) {
		/* A file without Namespace objects: the claims' ones. */
		for (i = 0; i < s->claims.n; i++) {
			const char *ns = s->claims.v[i]->meta.namespace;

			if (ns != NULL && (last == NULL ||
			    strcmp(ns, last) != 0))
				offer(pre, ns, cur);
			last = ns;
		}
	}
	kube_snapshot_free(s);
}

/* Values of the flag f; returns the directive. */
static int
offer_values(struct dra_ctx *ctx, const struct dra_cmd *cmd,
    const struct dra_flag *f, const char *pre, const char *cur)
{
	switch (f->id) {
	case DRA_F_OUTPUT:
		if (cmd == &dra_cmd_snapshot)
			return DIRECTIVE_DEFAULT;
		offer_list(pre, cmd == &dra_cmd_plan ? plan_output_values :
		    cmd == &dra_cmd_doctor || cmd == &dra_cmd_apply ?
		    doctor_output_values : cmd == &dra_cmd_top ?
		    top_output_values : output_values, cur);
		return DIRECTIVE_NOFILE;
	case DRA_F_SORT:
		if (cmd == &dra_cmd_top)
			offer_list(pre, top_sort_values, cur);
		return DIRECTIVE_NOFILE;
	case DRA_F_MIG:
		offer_list(pre, mig_values, cur);
		return DIRECTIVE_NOFILE;
	case DRA_F_BASELINE:
		offer_list(pre, baseline_values, cur);
		return DIRECTIVE_NOFILE;
	case DRA_F_FORMAT:
		offer_list(pre, format_values, cur);
		return DIRECTIVE_NOFILE;
	case DRA_F_NAMESPACE:
		offer_namespaces(ctx, pre, cur);
		return DIRECTIVE_NOFILE;
	case DRA_F_FROM:
	case DRA_F_PLAN:
	case DRA_F_WHAT_IF:
	case DRA_F_DEMAND:
	case DRA_F_FILENAME:
	case DRA_F_ROLLBACK:
	case DRA_F_BACKUP:
	case DRA_F_KUBECONFIG:
	case DRA_F_CA:
	case DRA_F_CLIENT_CERT:
	case DRA_F_CLIENT_KEY:
		return DIRECTIVE_DEFAULT;
	default:
		return DIRECTIVE_NOFILE;
	}
}

static int
complete(struct dra_ctx *ctx, int n, char **words, const char *cur)
{
	const struct dra_cmd		*cmd = NULL;
	const struct dra_flag		*f;
	const struct dra_kind_info	*k;
	struct dra_args			 args;
	struct dra_err			 err;
	const char			*prev, *eq;
	char				 pre[128];
	size_t				 i;
	int				 ci, directive;

	ci = dra_args_command_index(n, words);
	if (ci >= 0)
		cmd = dra_cmd_find(words[ci]);
	memset(&args, 0, sizeof args);
	(void)dra_args_parse(n, words, ci, cmd, &ctx->opts, &args, &err);

	/* The value of a flag: "-o |" or "--output=|". */
	prev = n > 0 ? words[n - 1] : NULL;
	if (prev != NULL && prev[0] == '-' && strchr(prev, '=') == NULL &&
	    (f = dra_flag_lookup(cmd, prev)) != NULL && f->has_arg &&
	    (prev[1] == '-' || prev[2] == '\0')) {
		directive = offer_values(ctx, cmd, f, "", cur);
		goto out;
	}
	if (has_prefix(cur, "--") && (eq = strchr(cur, '=')) != NULL) {
		f = dra_flag_lookup(cmd, cur);
		directive = DIRECTIVE_NOFILE;
		if (f != NULL && f->has_arg) {
			snprintf(pre, sizeof pre, "%.*s", (int)(eq - cur + 1),
			    cur);
			directive = offer_values(ctx, cmd, f, pre, cur);
		}
		goto out;
	}
	if (cur[0] == '-') {
		offer_flags(cmd != NULL ? cmd->flags : NULL, cur);
		offer_flags(dra_global_flags, cur);
		directive = DIRECTIVE_NOFILE;
		goto out;
	}
	directive = DIRECTIVE_NOFILE;
	if (cmd == NULL) {
		for (i = 0; dra_cmd_table[i] != NULL; i++) {
			if (!(dra_cmd_table[i]->cmd_flags & DRA_CMD_HIDDEN))
				offer("", dra_cmd_table[i]->name, cur);
		}
		goto out;
	}
	if (cmd == &dra_cmd_help) {
		if (args.argc == 0) {
			for (i = 0; dra_cmd_table[i] != NULL; i++) {
				if (!(dra_cmd_table[i]->cmd_flags &
				    DRA_CMD_HIDDEN))
					offer("", dra_cmd_table[i]->name, cur);
			}
		}
		goto out;
	}
	if (cmd == &dra_cmd_why) {
		if (args.argc == 0)
			directive = offer_why(ctx, cur);
		goto out;
	}
	if (cmd == &dra_cmd_ui) {
		if (args.argc == 0)
			offer_list("", tui_view_names(), cur);
		goto out;
	}
	if (cmd == &dra_cmd_top) {
		if (args.argc == 0)
			offer_list("", top_kinds, cur);
		goto out;
	}
	if (cmd != &dra_cmd_get && cmd != &dra_cmd_describe)
		goto out;
	if (args.argc == 0) {
		offer_list("", cmd == &dra_cmd_get ? get_kinds :
		    describe_kinds, cur);
		goto out;
	}
	k = dra_kind_find(args.argv[0]);
	if (k != NULL)
		offer_names(ctx, k, cur);
out:
	free(args.argv);
	printf(":%d\n", directive);
	return DRA_RET_OK;
}

static enum dra_ret
cmd_complete_exec(struct dra_ctx *ctx, struct dra_args *args)
{
	const char	*cur;

	/* Errors and warnings would land in the user's prompt. */
	if (freopen("/dev/null", "w", stderr) == NULL)
		return DRA_RET_ERROR;
	memset(&ctx->opts, 0, sizeof ctx->opts);
	cur = args->argc > 0 ? args->argv[args->argc - 1] : "";
	return complete(ctx, args->argc > 0 ? args->argc - 1 : 0, args->argv,
	    cur);
}

const struct dra_cmd dra_cmd_complete = {
	"__complete", NULL,
	"Shell completion (run by kubectl_complete-dra)",
	"WORDS...",
	NULL,
	NULL,
	DRA_CMD_HIDDEN | DRA_CMD_RAW_ARGS,
	cmd_complete_exec
};
