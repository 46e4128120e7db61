/*
 * tutil.c: test helpers (see tutil.h).
 */
#define _GNU_SOURCE
#include "tutil.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "xmalloc.h"

char *
tu_tmpdir(void)
{
	const char	*base = getenv("TMPDIR");
	char		*t;

	t = xasprintf("%s/kube-client-test.XXXXXX",
	    base != NULL && *base != '\0' ? base : "/tmp");
	if (mkdtemp(t) == NULL) {
		perror("mkdtemp");
		abort();
	}
	return t;
}

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

void
tu_rmrf(const char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

char *
tu_write(const char *dir, const char *name, const char *content, int mode)
{
	char	*path, *p;
	int	 fd;
	size_t	 len = strlen(content);

	path = xasprintf("%s/%s", dir, name);
	for (p = path + strlen(dir) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		mkdir(path, 0700);
		*p = '/';
	}
	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	if (fd == -1 || write(fd, content, len) != (ssize_t)len) {
		perror(path);
		abort();
	}
	close(fd);
	chmod(path, (mode_t)mode);
	return path;
}

char *
tu_read(const char *path)
{
	struct dra_buf	b;
	char		chunk[4096];
	ssize_t		n;
	int		fd;

	fd = open(path, O_RDONLY);
	if (fd == -1)
		return NULL;
	dra_buf_init(&b, 1 << 24);
	while ((n = read(fd, chunk, sizeof chunk)) > 0)
		dra_buf_add(&b, chunk, (size_t)n);
	close(fd);
	return dra_buf_take(&b);
}

char *
tu_subst(const char *s, const char *dir)
{
	struct dra_buf	 b;
	const char	*p;

	if (s == NULL)
		return NULL;
	dra_buf_init(&b, 1 << 20);
	while ((p = strstr(s, "@D")) != NULL) {
		dra_buf_add(&b, s, (size_t)(p - s));
		dra_buf_adds(&b, dir);
		s = p + 2;
	}
	dra_buf_adds(&b, s);
	return dra_buf_take(&b);
}

void
tu_env_reset(const char *home)
{
	static const char *const vars[] = { "KUBECONFIG",
	    "KUBERNETES_SERVICE_HOST", "KUBERNETES_SERVICE_PORT",
	    "POD_NAMESPACE", "KUBERNETES_MASTER", "HTTP_PROXY", "http_proxy",
	    "HTTPS_PROXY", "https_proxy", "NO_PROXY", "no_proxy",
	    "ALL_PROXY", "all_proxy", NULL };
	size_t	i;

	for (i = 0; vars[i] != NULL; i++)
		unsetenv(vars[i]);
	setenv("HOME", home, 1);
}

void
tu_rec_init(struct tu_rec *r)
{
	memset(r, 0, sizeof *r);
	dra_buf_init(&r->log, 1 << 24);
	dra_buf_init(&r->warnings, 1 << 20);
}

void
tu_rec_release(struct tu_rec *r)
{
	dra_buf_release(&r->log);
	dra_buf_release(&r->warnings);
}

void
tu_log(void *arg, int level, const char *line)
{
	struct tu_rec	*r = arg;

	(void)level;
	dra_buf_adds(&r->log, line);
	dra_buf_adds(&r->log, "\n");
}

void
tu_warn(void *arg, const char *msg)
{
	struct tu_rec	*r = arg;

	dra_buf_adds(&r->warnings, msg);
	dra_buf_adds(&r->warnings, "\n");
}

void
tu_sleep(void *arg, long ms)
{
	struct tu_rec	*r = arg;

	if (r->nsleeps < (int)(sizeof r->sleeps / sizeof r->sleeps[0]))
		r->sleeps[r->nsleeps] = ms;
	r->nsleeps++;
}
