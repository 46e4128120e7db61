/*
 * main.c: kubectl-dra's entry point: find the command word among the
 * flags, parse the flags for that command, run it and map its result
 * to the exit status (0 ok, 1 error, 2 usage, 3 negative answer).
 *
 * kubectl runs a plugin named kubectl-dra for "kubectl dra ..." and
 * passes the words after "dra" unchanged; usage texts say "kubectl
 * dra" when the program's name starts with "kubectl-" (krew's
 * best-practices guide).
 */
#include "dra.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum dra_ret
dra_error(const char *fmt, ...)
{
	va_list	ap;

	fflush(stdout);
	fputs("kubectl-dra: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return DRA_RET_ERROR;
}

void
dra_warning(const char *fmt, ...)
{
	va_list	ap;

	fflush(stdout);
	fputs("Warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*
 * Whether a command line without a command word opens the UI: standard
 * input and output are a terminal and no --help was asked for (the
 * words are then parsed as the UI's flags).
 */
static int
ui_default(int nwords, char **words)
{
	int	i;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return 0;
	for (i = 0; i < nwords; i++) {
		if (strcmp(words[i], "--") == 0)
			break;
		if (strcmp(words[i], "-h") == 0 ||
		    strcmp(words[i], "--help") == 0 ||
		    strncmp(words[i], "--help=", 7) == 0)
			return 0;
	}
	return 1;
}

static const char *
program_name(const char *argv0)
{
	const char	*base;

	if (argv0 == NULL)
		return "kubectl dra";
	base = strrchr(argv0, '/');
	base = base != NULL ? base + 1 : argv0;
	if (strncmp(base, "kubectl-", 8) == 0 ||
	    strncmp(base, "kubectl_", 8) == 0)
		return "kubectl dra";
	return base;
}

int
main(int argc, char **argv)
{
	struct dra_ctx		 ctx;
	struct dra_args		 args;
	struct dra_err		 err;
	const struct dra_cmd	*cmd;
	char			**words = argv + 1;
	int			 nwords = argc > 0 ? argc - 1 : 0, ci;
	enum dra_ret		 ret;

	memset(&ctx, 0, sizeof ctx);
	memset(&args, 0, sizeof args);
	dra_err_clear(&err);
	ctx.prog = program_name(argc > 0 ? argv[0] : NULL);

	ci = dra_args_command_index(nwords, words);
	if (ci < 0 && !ui_default(nwords, words)) {
		if (dra_args_parse(nwords, words, -1, NULL, &ctx.opts, &args,
		    &err) != KUBE_OK) {
			free(args.argv);
			return dra_usage_error(&ctx, NULL, "%s", err.msg);
		}
		free(args.argv);
		if (nwords == 0 || ctx.opts.help) {
			dra_usage(stdout, ctx.prog);
			return DRA_RET_OK;
		}
		return dra_usage_error(&ctx, NULL, "no command given");
	}

	/* Plain "kubectl dra [flags]" on a terminal: the UI (issue 6). */
	cmd = ci < 0 ? &dra_cmd_ui : dra_cmd_find(words[ci]);
	if (cmd == NULL) {
		fprintf(stderr, "kubectl-dra: error: unknown command \"%s\" "
		    "for \"%s\"\n", words[ci], ctx.prog);
		if (dra_cmd_suggest(NULL, words[ci]) > 0) {
			fprintf(stderr, "\nDid you mean this?\n");
			dra_cmd_suggest(stderr, words[ci]);
			fputc('\n', stderr);
		}
		fprintf(stderr, "See '%s --help' for usage.\n", ctx.prog);
		return DRA_RET_USAGE;
	}
	ctx.cmd = cmd;
	if (cmd->cmd_flags & DRA_CMD_RAW_ARGS) {
		args.argv = words + ci + 1;
		args.argc = nwords - ci - 1;
		return cmd->exec(&ctx, &args);
	}
	if (dra_args_parse(nwords, words, ci, cmd, &ctx.opts, &args, &err) !=
	    KUBE_OK) {
		free(args.argv);
		return dra_usage_error(&ctx, cmd, "%s", err.msg);
	}
	if (ctx.opts.help) {
		dra_cmd_usage(stdout, ctx.prog, cmd);
		free(args.argv);
		return DRA_RET_OK;
	}
	ret = cmd->exec(&ctx, &args);
	free(args.argv);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (ret == DRA_RET_OK)
			ret = dra_error("cannot write to standard output");
	}
	return ret;
}
