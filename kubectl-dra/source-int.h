/*
 * source-int.h: what source.c shares with live.c (the live data of
 * `ui`): the client built from the command line, the kinds a view may
 * list with their collection paths, and one kind's list with the
 * namespace-limited user's fallback.  Only built with the cluster
 * client (DRA_HAVE_CLIENT).
 */
#ifndef DRA_SOURCE_INT_H
#define DRA_SOURCE_INT_H

#include <stddef.h>

#include "buf.h"
#include "client.h"
#include "dra.h"
#include "err.h"

/* A kind a view may need, and where it is listed. */
struct dra_api_kind {
	unsigned	 need;		/* its DRA_NEED_* bit */
	int		 dra;		/* under /apis/resource.k8s.io/V */
	int		 namespaced;
	const char	*resource;	/* "resourceclaims" */
	const char	*list_kind;	/* "ResourceClaimList" */
};

/*
 * Every kind, in the order source.c lists them (cluster-scoped first,
 * claims before pods); dra_napi_kinds entries.
 */
extern const struct dra_api_kind	dra_api_kinds[];
extern const size_t		dra_napi_kinds;

/*
 * A new client from ctx's flags (--kubeconfig, --context, -s, --token,
 * --as, --request-timeout, ...), as every command builds it, except:
 * context, when not NULL, replaces --context; hooks, when not NULL,
 * gives the log, warn, sleep and cancel callbacks with their
 * arguments and stdin_mode (the log level stays -v's); NULL uses the
 * command layer's callbacks, which print to stderr.  Returns the
 * client (kube_client_free) or NULL with err.
 */
struct kube_client *dra_client_new(struct dra_ctx *ctx, const char *context,
	    const struct kube_client_opts *hooks, struct dra_err *err);

/*
 * The collection path of kind k into path (len bytes): in namespace ns
 * when k is namespaced and ns is not NULL, else of every namespace;
 * info names the resource.k8s.io version for DRA kinds.
 */
void	dra_kind_path(const struct dra_api_kind *k,
	    const struct kube_dra_info *info, const char *ns, char *path,
	    size_t len);

/*
 * List kind k as `get` does: namespaced kinds in ns (NULL: every
 * namespace; after a 403 there, in own_ns, the namespace-limited
 * user's own), each item to item_cb(arg) as kube_client_list hands
 * them (reset_cb as there; NULL returns KUBE_E_GONE when a continue
 * token expires).  On KUBE_OK, path (len bytes) holds the collection
 * that was read, for a watch, and *rv (when rv is not NULL) the list's
 * resourceVersion (the caller frees it).  A refusal is appended to
 * refused as "resourceslices" (a cluster-scoped kind), "resourceclaims
 * in namespace \"a\"" (ns given), "resourceclaims in all namespaces and
 * in namespace \"a\"" (ns NULL, own_ns refused too) or "pods outside
 * namespace \"a\"" (the last with KUBE_OK: the own namespace could be
 * read).  Returns KUBE_OK, KUBE_E_FORBIDDEN (a 403;
 * nothing listed), or the errors of kube_client_list.
 */
int	dra_list_kind(struct kube_client *c, const struct kube_dra_info *info,
	    const struct dra_api_kind *k, const char *ns, const char *own_ns,
	    kube_list_item_fn item_cb, kube_list_reset_fn reset_cb, void *arg,
	    char *path, size_t len, char **rv, struct dra_buf *refused,
	    struct dra_err *err);

#endif
