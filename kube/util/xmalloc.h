/*
 * xmalloc.h: allocation that never returns NULL.
 *
 * kubectl-dra is an application, so running out of memory is fatal
 * (tmux xmalloc.c, htop XUtils.h): each function prints
 * "kubectl-dra: out of memory" and aborts rather than return NULL.
 * A zero-size request is a bug and aborts too.  Sizes that come from
 * the network are capped before they get here (see buf.h).
 */
#ifndef DRA_XMALLOC_H
#define DRA_XMALLOC_H

#include <stddef.h>

/* malloc(size); size must be > 0.  The caller owns and frees the result. */
void	*xmalloc(size_t size);

/* calloc(nmemb, size) with overflow check; both must be > 0. */
void	*xcalloc(size_t nmemb, size_t size);

/*
 * realloc(ptr, nmemb * size) with overflow check; ptr may be NULL.
 * On return the old pointer is invalid.
 */
void	*xreallocarray(void *ptr, size_t nmemb, size_t size);

/* strdup(s); s must not be NULL. */
char	*xstrdup(const char *s);

/* The first n bytes of s (or fewer, up to its NUL) as a new string. */
char	*xstrndup(const char *s, size_t n);

/* printf into a newly allocated string, which the caller frees. */
char	*xasprintf(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2)));

#endif
