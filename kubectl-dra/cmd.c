/*
 * cmd.c: the command table, lookup with suggestions, and usage texts
 * (tmux cmd.c: one sorted table of entries from the cmd-*.c files).
 */
#include "dra.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "strdist.h"

/* Sorted by name; NULL-terminated. */
const struct dra_cmd *const dra_cmd_table[] = {
	&dra_cmd_apply,
	&dra_cmd_complete,
	&dra_cmd_describe,
	&dra_cmd_doctor,
	&dra_cmd_get,
	&dra_cmd_help,
	&dra_cmd_plan,
	&dra_cmd_snapshot,
	&dra_cmd_top,
	&dra_cmd_ui,
	&dra_cmd_version,
	&dra_cmd_why,
	NULL
};

const struct dra_cmd *
dra_cmd_find(const char *name)
{
	size_t	i;

	for (i = 0; dra_cmd_table[i] != NULL; i++) {
		if (strcmp(dra_cmd_table[i]->name, name) == 0 ||
		    (dra_cmd_table[i]->alias != NULL &&
		    strcmp(dra_cmd_table[i]->alias, name) == 0))
			return dra_cmd_table[i];
	}
	return NULL;
}

int
dra_cmd_suggest(FILE *f, const char *name)
{
	const struct dra_cmd	*c;
	size_t			 i;
	int			 n = 0;

	for (i = 0; dra_cmd_table[i] != NULL; i++) {
		c = dra_cmd_table[i];
		if (c->cmd_flags & DRA_CMD_HIDDEN)
			continue;
		if (dra_strdist(name, c->name, 0) <= 2 || (*name != '\0' &&
		    strncmp(c->name, name, strlen(name)) == 0) ||
		    strncmp(name, c->name, strlen(c->name)) == 0) {
			if (f != NULL)
				fprintf(f, "\t%s\n", c->name);
			n++;
		}
	}
	return n;
}

void
dra_usage(FILE *f, const char *prog)
{
	const struct dra_cmd	*c;
	size_t			 i;

	fprintf(f, "%s shows Dynamic Resource Allocation (DRA) state: "
	    "claims with the\ndevices they got, devices with their holders, "
	    "pools, slices and classes.\n\n", prog);
	fprintf(f, "Usage:\n  %s COMMAND [ARGS] [flags]\n\n", prog);
	fprintf(f, "Commands:\n");
	for (i = 0; dra_cmd_table[i] != NULL; i++) {
		c = dra_cmd_table[i];
		if (c->cmd_flags & DRA_CMD_HIDDEN)
			continue;
		fprintf(f, "  %-10s %s\n", c->name, c->summary);
	}
	fprintf(f, "\nGlobal flags:\n");
	for (i = 0; dra_global_flags[i].name != NULL; i++) {
		const struct dra_flag	*fl = &dra_global_flags[i];
		char			 left[64];

		if (fl->short_name != 0 && strcmp(fl->name, "v") != 0)
			snprintf(left, sizeof left, "-%c, --%s%s%s",
			    fl->short_name, fl->name, fl->has_arg ? " " : "",
			    fl->arg_name);
		else
			snprintf(left, sizeof left, "    --%s%s%s", fl->name,
			    fl->has_arg ? (strcmp(fl->name, "v") == 0 ?
			    "=" : " ") : "", fl->arg_name);
		fprintf(f, "  %-34s %s\n", left, fl->help);
	}
	fprintf(f, "\nExit status: 0 ok, 1 error, 2 usage error, 3 negative "
	    "answer.\nUse \"%s help COMMAND\" for more about a command.\n",
	    prog);
}

void
dra_cmd_usage(FILE *f, const char *prog, const struct dra_cmd *cmd)
{
	const struct dra_flag	*fl;
	char			 left[64];
	size_t			 i;

	fprintf(f, "%s\n\nUsage:\n  %s %s %s\n", cmd->summary, prog,
	    cmd->name, cmd->usage);
	if (cmd->alias != NULL)
		fprintf(f, "\nAlias: %s\n", cmd->alias);
	if (cmd->help != NULL)
		fprintf(f, "\n%s", cmd->help);
	if (cmd->flags != NULL && cmd->flags[0].name != NULL) {
		fprintf(f, "\nFlags:\n");
		for (i = 0; cmd->flags[i].name != NULL; i++) {
			fl = &cmd->flags[i];
			snprintf(left, sizeof left, "--%s%s%s", fl->name,
			    fl->has_arg ? " " : "", fl->arg_name);
			fprintf(f, "  %-34s %s\n", left, fl->help);
		}
	}
	fprintf(f, "\nUse \"%s --help\" for the global flags.\n", prog);
}

enum dra_ret
dra_usage_error(const struct dra_ctx *ctx, const struct dra_cmd *cmd,
    const char *fmt, ...)
{
	va_list	ap;

	fputs("kubectl-dra: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (cmd != NULL)
		fprintf(stderr, "See '%s %s --help' for usage.\n", ctx->prog,
		    cmd->name);
	else
		fprintf(stderr, "See '%s --help' for usage.\n", ctx->prog);
	return DRA_RET_USAGE;
}
