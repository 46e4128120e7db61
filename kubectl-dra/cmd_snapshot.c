/*
 * cmd_snapshot.c: "kubectl dra snapshot -o FILE": every object the
 * views use, from all namespaces, as one v1 List that --from reads
 * back.  The file is written to a temporary name in the same
 * directory and renamed into place, so a reader never sees half a
 * snapshot and a failed write leaves the old file alone.  A symlink is
 * followed (the rename replaces its target, the link stays), an
 * existing file keeps its mode, and what is not a regular file (a
 * device, a FIFO, /dev/stdout) is written to directly, never
 * replaced.  SIGINT, SIGTERM and SIGHUP remove the temporary file.
 */
#include "dra.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "snapshot.h"
#include "xmalloc.h"

static const char cmd_snapshot_help[] =
"Writes every ResourceSlice, ResourceClaim, ResourceClaimTemplate,\n"
"DeviceClass, DeviceTaintRule, Pod, Node, Namespace and ResourceQuota\n"
"(all namespaces) to FILE, or to standard output with -o -.  The format\n"
"is JSON when FILE ends in .json, else YAML, unless --format says.\n"
"Any command reads it back with --from FILE.\n"
"\n"
"Examples:\n"
"  kubectl dra snapshot -o cluster.yaml\n"
"  kubectl dra get devices --from cluster.yaml\n";

static const struct dra_flag cmd_snapshot_flags[] = {
	{ "format", 0, 1, DRA_F_FORMAT, "yaml|json",
	    "file format (default: from FILE's extension, else yaml)" },
	{ NULL, 0, 0, 0, NULL, NULL }
};

/* The temporary file to remove if a signal ends the write. */
static volatile sig_atomic_t	 snapshot_have_tmp;
static char			 snapshot_tmp[PATH_MAX];

static void
snapshot_on_signal(int sig)
{
	if (snapshot_have_tmp)
		unlink(snapshot_tmp);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Write straight into something that is not a regular file. */
static enum dra_ret
write_direct(const struct kube_snapshot *s, const char *path,
    enum kube_format fmt)
{
	struct dra_err	 err;
	FILE		*f;
	int		 rc;

	if ((f = fopen(path, "w")) == NULL)
		return dra_error("%s: %s", path, strerror(errno));
	dra_err_clear(&err);
	rc = kube_snapshot_write(s, f, fmt, &err);
	if (fclose(f) != 0 && rc == KUBE_OK)
		rc = dra_err_set(&err, KUBE_E_IO, "%s", strerror(errno));
	if (rc != KUBE_OK)
		return dra_error("%s: %s", path, err.msg);
	return DRA_RET_OK;
}

static enum dra_ret
write_atomic(const struct kube_snapshot *s, const char *given,
    enum kube_format fmt)
{
	struct dra_err	 err;
	struct stat	 st;
	struct sigaction sa, old_int, old_term, old_hup;
	const char	*slash, *base, *path = given;
	char		*tmp, *real = NULL;
	FILE		*f;
	mode_t		 mask, mode;
	int		 fd, rc, saved, exists;

	exists = stat(given, &st) == 0;
	if (exists && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode))
			return dra_error("%s: is a directory", given);
		return write_direct(s, given, fmt);
	}
	if (exists && (real = realpath(given, NULL)) != NULL)
		path = real;		/* replace a symlink's target */
	mask = umask(0);
	umask(mask);
	mode = exists ? (st.st_mode & 07777) : (0666 & ~mask);

	slash = strrchr(path, '/');
	base = slash != NULL ? slash + 1 : path;
	if (*base == '\0')
		return dra_error("%s: is a directory", path);
	tmp = xasprintf("%.*s.%s.XXXXXX", slash != NULL ?
	    (int)(slash - path + 1) : 0, path, base);
	if (strlen(tmp) >= sizeof snapshot_tmp) {
		free(tmp);
		free(real);
		return dra_error("%s: name too long", given);
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = snapshot_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);
	if ((fd = mkstemp(tmp)) == -1) {
		saved = errno;
		free(tmp);
		free(real);
		return dra_error("cannot create a temporary file next to "
		    "\"%s\": %s", given, strerror(saved));
	}
	memcpy(snapshot_tmp, tmp, strlen(tmp) + 1);
	snapshot_have_tmp = 1;
	(void)fchmod(fd, mode);
	dra_err_clear(&err);
	if ((f = fdopen(fd, "w")) == NULL) {
		saved = errno;
		close(fd);
		rc = dra_err_set(&err, KUBE_E_IO, "%s", strerror(saved));
	} else {
		rc = kube_snapshot_write(s, f, fmt, &err);
		if (rc == KUBE_OK && (fflush(f) != 0 ||
		    fsync(fileno(f)) != 0))
			rc = dra_err_set(&err, KUBE_E_IO, "%s",
			    strerror(errno));
		if (fclose(f) != 0 && rc == KUBE_OK)
			rc = dra_err_set(&err, KUBE_E_IO, "%s",
			    strerror(errno));
	}
	if (rc == KUBE_OK && rename(tmp, path) != 0)
		rc = dra_err_set(&err, KUBE_E_IO, "cannot rename to \"%s\": %s",
		    path, strerror(errno));
	if (rc != KUBE_OK)
		unlink(tmp);
	snapshot_have_tmp = 0;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	free(tmp);
	free(real);
	if (rc != KUBE_OK)
		return dra_error("%s: %s", given, err.msg);
	return DRA_RET_OK;
}

static enum dra_ret
cmd_snapshot_exec(struct dra_ctx *ctx, struct dra_args *args)
{
	struct kube_snapshot	*s;
	struct dra_err		 err;
	enum kube_format	 fmt;
	const char		*path = ctx->opts.output, *dot;
	enum dra_ret		 ret;

	if (args->argc > 0)
		return dra_usage_error(ctx, ctx->cmd, "unexpected argument "
		    "\"%s\"", args->argv[0]);
	if (path == NULL || *path == '\0')
		return dra_usage_error(ctx, ctx->cmd, "snapshot needs -o FILE "
		    "(- for standard output)");
	if (ctx->opts.format != NULL) {
		if (strcmp(ctx->opts.format, "json") == 0)
			fmt = KUBE_FORMAT_JSON;
		else if (strcmp(ctx->opts.format, "yaml") == 0)
			fmt = KUBE_FORMAT_YAML;
		else
			return dra_usage_error(ctx, ctx->cmd, "unknown format "
			    "\"%s\": expected yaml or json", ctx->opts.format);
	} else {
		dot = strrchr(path, '.');
		fmt = dot != NULL && strcmp(dot, ".json") == 0 ?
		    KUBE_FORMAT_JSON : KUBE_FORMAT_YAML;
	}
	ret = dra_source_load(ctx, DRA_NEED_ALL, NULL, &s);
	if (ret != DRA_RET_OK)
		return ret;
	dra_print_warnings(s, ctx->opts.verbosity >= 2);
	if (strcmp(path, "-") == 0) {
		dra_err_clear(&err);
		if (kube_snapshot_write(s, stdout, fmt, &err) != KUBE_OK)
			ret = dra_error("standard output: %s", err.msg);
	} else
		ret = write_atomic(s, path, fmt);
	kube_snapshot_free(s);
	return ret;
}

const struct dra_cmd dra_cmd_snapshot = {
	"snapshot", NULL,
	"Save every DRA object of the cluster to a file for --from",
	"-o FILE [--format yaml|json]",
	cmd_snapshot_help,
	cmd_snapshot_flags,
	0,
	cmd_snapshot_exec
};
