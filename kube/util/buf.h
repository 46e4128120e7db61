/*
 * buf.h: a growable byte buffer with a required maximum size.
 *
 * Modelled on curl's dynbuf (docs/internals/DYNBUF.md): every buffer
 * is created with the most it may ever hold, so data from the network
 * or a file can never grow it without bound.  An append that would
 * pass the maximum frees the buffer and returns KUBE_E_TOOBIG.  The
 * contents are always NUL-terminated (the NUL is not counted in len).
 */
#ifndef DRA_BUF_H
#define DRA_BUF_H

#include <stdarg.h>
#include <stddef.h>

/* Named limits (bytes). */
#define DRA_BUF_MAX_PAGE	(512UL << 20)	/* one API answer */
#define DRA_BUF_MAX_FILE	(4UL << 30)	/* one input file */
#define DRA_BUF_MAX_SMALL	(1UL << 20)	/* a token, a credential */

struct dra_buf {
	char	*ptr;		/* NULL until the first append */
	size_t	 len;		/* bytes used, not counting the NUL */
	size_t	 cap;		/* bytes allocated */
	size_t	 max;		/* len may never exceed this */
};

/* Make b empty, with limit max (> 0).  Allocates nothing. */
void	 dra_buf_init(struct dra_buf *b, size_t max);

/* Free the contents; b is empty again and keeps its limit. */
void	 dra_buf_release(struct dra_buf *b);

/* Keep the memory and the limit, set len to 0. */
void	 dra_buf_reset(struct dra_buf *b);

/*
 * Append len bytes of data.  Returns KUBE_OK, or KUBE_E_TOOBIG after
 * freeing the contents when the limit would be passed.
 */
int	 dra_buf_add(struct dra_buf *b, const void *data, size_t len);

/* Append a NUL-terminated string (as dra_buf_add). */
int	 dra_buf_adds(struct dra_buf *b, const char *s);

/* Append printf-style output (as dra_buf_add). */
int	 dra_buf_addf(struct dra_buf *b, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
int	 dra_buf_vaddf(struct dra_buf *b, const char *fmt, va_list ap)
	    __attribute__((format(printf, 2, 0)));

/*
 * Hand the contents to the caller, who frees them; b is left empty.
 * Returns "" newly allocated when nothing was ever added.
 */
char	*dra_buf_take(struct dra_buf *b);

/*
 * Append everything readable from fd until end of file (b keeps its
 * limit; EINTR is retried).  Returns 0, or an errno value: read's, or
 * EFBIG when the limit would be passed; b is then released.  The stack
 * buffer the bytes pass through is zeroed, since the file may hold
 * credentials.  fd stays open.
 */
int	 dra_buf_read_fd(struct dra_buf *b, int fd);

/* The contents, borrowed until the next call on b ("" when empty). */
const char *dra_buf_str(const struct dra_buf *b);

#endif
