/*
 * cmd_help.c: "kubectl dra help [COMMAND]".
 */
#include "dra.h"

#include <stdio.h>

static enum dra_ret
cmd_help_exec(struct dra_ctx *ctx, struct dra_args *args)
{
	const struct dra_cmd	*cmd;

	if (args->argc == 0) {
		dra_usage(stdout, ctx->prog);
		return DRA_RET_OK;
	}
	cmd = dra_cmd_find(args->argv[0]);
	if (cmd == NULL) {
		fprintf(stderr, "kubectl-dra: error: unknown command \"%s\" "
		    "for \"%s\"\n", args->argv[0], ctx->prog);
		if (dra_cmd_suggest(NULL, args->argv[0]) > 0) {
			fprintf(stderr, "\nDid you mean this?\n");
			dra_cmd_suggest(stderr, args->argv[0]);
			fputc('\n', stderr);
		}
		return DRA_RET_USAGE;
	}
	dra_cmd_usage(stdout, ctx->prog, cmd);
	return DRA_RET_OK;
}

const struct dra_cmd dra_cmd_help = {
	"help", NULL,
	"Help about any command",
	"[COMMAND]",
	NULL,
	NULL,
	0,
	cmd_help_exec
};
