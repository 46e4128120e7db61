/*
 * err.h: result codes and the error record every library fills.
 *
 * Libraries (kube/, planner/) never print: they return an enum kube_rc
 * and put the detail into a caller-supplied struct dra_err, the way
 * libcurl fills its error buffer (CONVENTIONS.md b4).  Only the
 * command layer turns a dra_err into text on stderr.
 */
#ifndef DRA_ERR_H
#define DRA_ERR_H

#include <stdarg.h>

enum kube_rc {
	KUBE_OK = 0,
	KUBE_E_CONFIG,		/* kubeconfig or flags unusable */
	KUBE_E_CONNECT,		/* cannot reach the server */
	KUBE_E_TLS,		/* certificate or handshake failure */
	KUBE_E_AUTH,		/* 401 */
	KUBE_E_FORBIDDEN,	/* 403 */
	KUBE_E_NOT_FOUND,	/* 404 */
	KUBE_E_CONFLICT,	/* 409 */
	KUBE_E_GONE,		/* 410: continue token or rv expired */
	KUBE_E_API,		/* any other non-2xx answer */
	KUBE_E_PARSE,		/* malformed JSON, YAML or object */
	KUBE_E_TOOBIG,		/* a size limit was reached */
	KUBE_E_TIMEOUT,		/* connect or request timeout */
	KUBE_E_UNSUPPORTED,	/* no resource.k8s.io version we read */
	KUBE_E_IO,		/* file system error */
	KUBE_E_EXEC,		/* exec credential plugin failed */
};

#define DRA_ERR_MSG_MAX	1024

/*
 * What went wrong.  code is a kube_rc; http_status is the HTTP status
 * of an API answer (0 otherwise); reason is the Kubernetes Status
 * reason ("NotFound", "Expired", ...) or empty; msg is the whole
 * human-readable message, lowercase, naming the file, field or
 * position where there is one.  Plain storage: nothing to free.
 */
struct dra_err {
	int	code;
	int	http_status;
	char	reason[64];
	char	msg[DRA_ERR_MSG_MAX];
};

/* Reset err to "no error".  err may be NULL. */
void	dra_err_clear(struct dra_err *err);

/*
 * Record code and a printf-style message in err (which may be NULL, to
 * discard), replacing what was there.  Returns code, so that
 * "return dra_err_set(err, KUBE_E_PARSE, ...)" is the idiom.
 */
int	dra_err_set(struct dra_err *err, int code, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));

/* dra_err_set with a va_list. */
int	dra_err_setv(struct dra_err *err, int code, const char *fmt,
	    va_list ap) __attribute__((format(printf, 3, 0)));

/*
 * Put "<prefix>: " in front of the message already in err, for context
 * added on the way up ("items[3]: ...", "file.yaml: ...").  Returns
 * err->code.  err may be NULL (returns KUBE_OK then).
 */
int	dra_err_prefix(struct dra_err *err, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/* A static, lowercase description of a kube_rc ("forbidden"). */
const char *kube_strerror(int code);

#endif
