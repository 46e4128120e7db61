/*
 * cmd_doctor.c: "kubectl dra doctor" (issue 7), being built.
 */
#include "dra.h"

static enum dra_ret
cmd_doctor_exec(struct dra_ctx *ctx, struct dra_args *args)
{
	(void)ctx;
	(void)args;
	return dra_error("doctor is not built yet");
}

const struct dra_cmd dra_cmd_doctor = {
	"doctor", NULL,
	"Check the cluster's DRA health, each finding with a fix",
	"",
	NULL,
	NULL,
	DRA_CMD_HIDDEN,
	cmd_doctor_exec
};
