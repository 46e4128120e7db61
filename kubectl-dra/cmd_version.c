/*
 * cmd_version.c: "kubectl dra version": the plugin's version and, when
 * a cluster is reachable, the server's and the resource.k8s.io
 * versions it serves.
 */
#include "dra.h"

#include <stdio.h>

static const struct dra_flag cmd_version_flags[] = {
	{ "client", 0, 0, DRA_F_CLIENT, "",
	    "print the client version only (no server request)" },
	{ NULL, 0, 0, 0, NULL, NULL }
};

static enum dra_ret
cmd_version_exec(struct dra_ctx *ctx, struct dra_args *args)
{
	struct dra_err	err;
	char		gv[64], served[128];

	if (args->argc > 0)
		return dra_usage_error(ctx, ctx->cmd, "unexpected argument "
		    "\"%s\"", args->argv[0]);
	printf("Client Version: v%s\n", DRA_VERSION);
	if (ctx->opts.client_only)
		return DRA_RET_OK;
	if (ctx->opts.from != NULL)
		return DRA_RET_OK;
	dra_err_clear(&err);
	if (dra_source_server_info(ctx, gv, sizeof gv, served, sizeof served,
	    &err) != DRA_RET_OK)
		return dra_error("cannot get the server version: %s", err.msg);
	printf("Server Version: %s\n", gv);
	printf("Served resource.k8s.io: %s\n", served);
	return DRA_RET_OK;
}

const struct dra_cmd dra_cmd_version = {
	"version", NULL,
	"Print the client and server versions",
	"[--client]",
	NULL,
	cmd_version_flags,
	0,
	cmd_version_exec
};
