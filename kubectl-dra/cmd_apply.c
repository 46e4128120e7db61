/*
 * cmd_apply.c: "kubectl dra apply" (issue 7), being built.
 */
#include "dra.h"

static enum dra_ret
cmd_apply_exec(struct dra_ctx *ctx, struct dra_args *args)
{
	(void)ctx;
	(void)args;
	return dra_error("apply is not built yet");
}

const struct dra_cmd dra_cmd_apply = {
	"apply", NULL,
	"Apply a plan's manifests safely (preview, backup, rollback)",
	"",
	NULL,
	NULL,
	DRA_CMD_HIDDEN,
	cmd_apply_exec
};
