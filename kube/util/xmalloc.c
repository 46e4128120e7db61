/*
 * xmalloc.c: the never-NULL allocation wrappers (see xmalloc.h).
 */
#include "xmalloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void xmalloc_die(const char *) __attribute__((noreturn));

static void
xmalloc_die(const char *what)
{
	fprintf(stderr, "kubectl-dra: %s\n", what);
	abort();
}

void *
xmalloc(size_t size)
{
	void	*p;

	if (size == 0)
		xmalloc_die("xmalloc: zero size");
	if ((p = malloc(size)) == NULL)
		xmalloc_die("out of memory");
	return p;
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void	*p;

	if (nmemb == 0 || size == 0)
		xmalloc_die("xcalloc: zero size");
	if ((p = calloc(nmemb, size)) == NULL)
		xmalloc_die("out of memory");
	return p;
}

void *
xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	void	*p;

	if (nmemb == 0 || size == 0)
		xmalloc_die("xreallocarray: zero size");
	if (SIZE_MAX / nmemb < size)
		xmalloc_die("xreallocarray: size overflow");
	if ((p = realloc(ptr, nmemb * size)) == NULL)
		xmalloc_die("out of memory");
	return p;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char	*p;
	size_t	 len;

	len = strnlen(s, n);
	p = xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list	 ap, ap2;
	char	*p;
	int	 n;

	va_start(ap, fmt);
	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		xmalloc_die("xasprintf: bad format");
	p = xmalloc((size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	return p;
}
