/*
 * buf.c: the capped byte buffer (see buf.h).
 */
#include "buf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "xmalloc.h"

void
dra_buf_init(struct dra_buf *b, size_t max)
{
	b->ptr = NULL;
	b->len = 0;
	b->cap = 0;
	b->max = max;
}

void
dra_buf_release(struct dra_buf *b)
{
	free(b->ptr);
	b->ptr = NULL;
	b->len = 0;
	b->cap = 0;
}

void
dra_buf_reset(struct dra_buf *b)
{
	b->len = 0;
	if (b->ptr != NULL)
		b->ptr[0] = '\0';
}

int
dra_buf_add(struct dra_buf *b, const void *data, size_t len)
{
	size_t	need, cap;

	if (len > b->max || b->len > b->max - len) {
		dra_buf_release(b);
		return KUBE_E_TOOBIG;
	}
	need = b->len + len + 1;
	if (need > b->cap) {
		cap = b->cap ? b->cap : 256;
		while (cap < need)
			cap *= 2;
		b->ptr = xreallocarray(b->ptr, cap, 1);
		b->cap = cap;
	}
	if (len > 0)
		memcpy(b->ptr + b->len, data, len);
	b->len += len;
	b->ptr[b->len] = '\0';
	return KUBE_OK;
}

int
dra_buf_adds(struct dra_buf *b, const char *s)
{
	return dra_buf_add(b, s, strlen(s));
}

int
dra_buf_vaddf(struct dra_buf *b, const char *fmt, va_list ap)
{
	char	 small[256], *big;
	va_list	 ap2;
	int	 n, rc;

	va_copy(ap2, ap);
	n = vsnprintf(small, sizeof small, fmt, ap);
	if (n < 0) {
		va_end(ap2);
		return KUBE_E_PARSE;
	}
	if ((size_t)n < sizeof small) {
		va_end(ap2);
		return dra_buf_add(b, small, (size_t)n);
	}
	big = xmalloc((size_t)n + 1);
	vsnprintf(big, (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	rc = dra_buf_add(b, big, (size_t)n);
	free(big);
	return rc;
}

int
dra_buf_addf(struct dra_buf *b, const char *fmt, ...)
{
	va_list	ap;
	int	rc;

	va_start(ap, fmt);
	rc = dra_buf_vaddf(b, fmt, ap);
	va_end(ap);
	return rc;
}

char *
dra_buf_take(struct dra_buf *b)
{
	char	*p;

	p = b->ptr != NULL ? b->ptr : xstrdup("");
	b->ptr = NULL;
	b->len = 0;
	b->cap = 0;
	return p;
}

const char *
dra_buf_str(const struct dra_buf *b)
{
	return b->ptr != NULL ? b->ptr : "";
}

int
dra_buf_read_fd(struct dra_buf *b, int fd)
{
	char	chunk[16384];
	ssize_t	n;
	int	e = 0;

	for (;;) {
		n = read(fd, chunk, sizeof chunk);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			e = errno;
			break;
		}
		if (n == 0)
			break;
		if (dra_buf_add(b, chunk, (size_t)n) != KUBE_OK) {
			e = EFBIG;
			break;
		}
	}
	explicit_bzero(chunk, sizeof chunk);
	if (e != 0)
		dra_buf_release(b);
	return e;
}
