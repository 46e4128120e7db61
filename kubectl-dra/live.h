/*
 * live.h: the live data of `kubectl dra ui`: every kind the UI shows,
 * listed once and then watched from a background thread, handed to
 * the UI as finished snapshots through a struct tui_source (tui/tui.h).
 */
#ifndef DRA_LIVE_H
#define DRA_LIVE_H

#include "dra.h"
#include "err.h"
#include "tui.h"

struct dra_live;

/*
 * Build the client from ctx's flags (as every command does), discover
 * resource.k8s.io, and list every kind the UI shows (DRA_NEED_ALL:
 * slices, claims, templates, classes, taint rules when served, the pods
 * that use ResourceClaims, nodes, namespaces, quotas) in namespace ns
 * (NULL: every namespace),
 * here, in the caller's thread, so that an exec credential plugin may
 * still prompt on the terminal; from then on the client is detached
 * from the terminal (kube_client_detach_terminal).  Then a background
 * thread watches each kind from its list's resourceVersion, as
 * client-go's reflector does, and publishes a new snapshot after each
 * burst of changes.  The thread never writes to stdout or stderr: its
 * errors become the status note, its -v log lines are kept (and
 * printed by dra_live_stop, after the UI has left the screen).
 *
 * A 403 on a kind is not fatal: the kind stays empty and the note says
 * "cannot list resourceslices (forbidden); showing what could be
 * read" (status partial 1; 2 when nothing could be read); a
 * namespace-limited user gets its own namespace (-n, else the
 * context's) for the namespaced kinds, as `get` does (status
 * narrowed).
 *
 * The thread probes the server (GET /readyz, 5 s, every 5 s) and
 * limits each request to 30 s unless --request-timeout is given: a
 * server that stops answering turns the data stale within about 10 s,
 * with the reason in the note; watches stop and the probe is retried
 * with backoff (1 s to 15 s) until it answers, then everything is
 * listed again.
 *
 * Returns the live source, or NULL with err filled (the messages of
 * other commands' live loads: configuration, connection, discovery,
 * a failed list).
 */
struct dra_live *dra_live_start(struct dra_ctx *ctx, const char *ns,
	    struct dra_err *err);

/*
 * Fill src with l's callbacks (arg = l): poll hands over the newest
 * snapshot, fd turns readable when there is one, refresh probes the
 * server and lists everything again, set_namespace makes ns (NULL:
 * the own namespace again) the namespace listed for the kinds refused
 * in every namespace (for every namespaced kind when dra_live_start
 * was given a namespace), contexts names the kubeconfig's contexts,
 * set_context switches to another: its client is made at once (an
 * unusable context is an error and nothing changes), the old
 * context's data is no longer handed over, the status names the new
 * one, connecting, and the thread discovers and lists it (errors on
 * the status note, retried with backoff).  The first poll returns the
 * snapshot of the first list.
 */
void	dra_live_source(struct dra_live *l, struct tui_source *src);

/*
 * Stop the thread (promptly: waits and transfers are interrupted),
 * print the -v log lines it kept to stderr, and free everything,
 * including snapshots not handed over.  NULL is a no-op.
 */
void	dra_live_stop(struct dra_live *l);

#endif
