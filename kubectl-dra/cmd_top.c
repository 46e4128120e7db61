/*
 * cmd_top.c: "kubectl dra top" (issue 7), being built.
 */
#include "dra.h"

static enum dra_ret
cmd_top_exec(struct dra_ctx *ctx, struct dra_args *args)
{
	(void)ctx;
	(void)args;
	return dra_error("top is not built yet");
}

const struct dra_cmd dra_cmd_top = {
	"top", NULL,
	"Show device, GPU memory and counter use against capacity",
	"",
	NULL,
	NULL,
	DRA_CMD_HIDDEN,
	cmd_top_exec
};
