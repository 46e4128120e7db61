/*
 * err.c: the error record (see err.h).
 */
#include "err.h"

#include <stdio.h>
#include <string.h>

void
dra_err_clear(struct dra_err *err)
{
	if (err == NULL)
		return;
	err->code = KUBE_OK;
	err->http_status = 0;
	err->reason[0] = '\0';
	err->msg[0] = '\0';
}

int
dra_err_setv(struct dra_err *err, int code, const char *fmt, va_list ap)
{
	if (err == NULL)
		return code;
	err->code = code;
	err->http_status = 0;
	err->reason[0] = '\0';
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	return code;
}

int
dra_err_set(struct dra_err *err, int code, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	dra_err_setv(err, code, fmt, ap);
	va_end(ap);
	return code;
}

int
dra_err_prefix(struct dra_err *err, const char *fmt, ...)
{
	char	prefix[256], old[DRA_ERR_MSG_MAX];
	va_list	ap;

	if (err == NULL)
		return KUBE_OK;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof prefix, fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof old);
	snprintf(err->msg, sizeof err->msg, "%s: %.*s", prefix,
	    (int)(sizeof err->msg - strlen(prefix) - 3), old);
	return err->code;
}

const char *
kube_strerror(int code)
{
	switch (code) {
	case KUBE_OK:
		return "ok";
	case KUBE_E_CONFIG:
		return "configuration error";
	case KUBE_E_CONNECT:
		return "cannot connect";
	case KUBE_E_TLS:
		return "tls error";
	case KUBE_E_AUTH:
		return "unauthorized";
	case KUBE_E_FORBIDDEN:
		return "forbidden";
	case KUBE_E_NOT_FOUND:
		return "not found";
	case KUBE_E_CONFLICT:
		return "conflict";
	case KUBE_E_GONE:
		return "gone";
	case KUBE_E_API:
		return "api error";
	case KUBE_E_PARSE:
		return "parse error";
	case KUBE_E_TOOBIG:
		return "too big";
	case KUBE_E_TIMEOUT:
		return "timed out";
	case KUBE_E_UNSUPPORTED:
		return "unsupported";
	case KUBE_E_IO:
		return "i/o error";
	case KUBE_E_EXEC:
		return "credential plugin failed";
	}
	return "unknown error";
}
