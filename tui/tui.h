/*
 * tui.h: the interactive terminal view of kubectl-dra (`kubectl dra ui`),
 * library dra_tui.
 *
 * The UI never touches the network: it draws whatever snapshots a
 * struct tui_source hands it.  kubectl-dra/cmd_ui.c backs the source
 * with a file (--from) or with the live list-and-watch of
 * kubectl-dra/live.c; tests back it with fixtures
 * (CONVENTIONS.md b6, ncdu's dir_output).
 *
 * Inside, model, drawing and input are kept apart: a view is a vtable
 * (tui-int.h) whose model is built from views/ tables, whose draw only
 * reads the model, and whose keys return reaction flags to the loop
 * (tui/loop.c).  Terminal set-up and teardown live only in
 * tui/screen.c.  Nothing here calls exit(); while curses runs nothing
 * is written to stdout or stderr.
 */
#ifndef DRA_TUI_H
#define DRA_TUI_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "model.h"

struct cJSON;

/*
 * What the data source says about itself, shown in the header and on
 * the status line.  Filled by tui_source.poll; strings are copied by
 * the UI.
 */
struct tui_source_status {
	int	 live;		/* 1: a cluster, watched; 0: a file */
	int	 stale;		/* 1: the data may be out of date (a watch
				   broke and is reconnecting, or the last
				   list failed); the UI shows it */
	int	 connecting;	/* 1: no data of this cluster yet (a
				   context switch the source has not
				   listed yet): nothing old is shown
				   under the new name */
	int	 partial;	/* 0: every kind was read; 1: some lists
				   were refused (403) or read in one
				   namespace only; 2: nothing could be
				   read.  The note says which */
	int	 narrowed;	/* 1: the source lists namespaced kinds in
				   one namespace only (the user may not
				   list every namespace): ":ns NAME" then
				   calls set_namespace, so that NAME is
				   the namespace listed */
	int64_t	 updated;	/* Unix seconds of the newest data */
	char	 where[256];	/* "context kind-dra (https://...)" or the
				   file name */
	char	 note[512];	/* the latest error or note for the status
				   line ("cannot list resourceslices
				   (forbidden); showing what could be
				   read"), "" for none; never a credential */
};

/*
 * A data source.  Every function pointer except poll may be NULL (the
 * UI then says the action is not available with this source).  arg is
 * passed back untouched.
 *
 * poll: called by the loop when fd is readable, on its timer and on
 *   ctrl-r.  When the data changed since the last call it stores a new
 *   finished snapshot in *out (ownership passes to the UI, which frees
 *   it with kube_snapshot_free), else *out = NULL.  It always fills
 *   *st.  Returns KUBE_OK, or an error code with err filled: the UI
 *   shows err.msg on the status line and keeps the old snapshot.  It
 *   must not block for long (no network round trip in the caller's
 *   thread).
 * fd: a descriptor that turns readable when poll has news (the UI
 *   polls it beside the terminal), or -1 to rely on the timer.
 * refresh: drop the cache and list everything again (ctrl-r).
 * set_namespace: the namespace the user looks at (NULL: all).  A
 *   source that lists one namespace lists ns from now on (NULL: its
 *   own again); one that reads every namespace may ignore it.
 *   Returns KUBE_OK or an error (err).  The UI calls it on ":ns" when
 *   tui_opts.narrow_source is set or the status says narrowed: by
 *   default a namespace is a filter of the views, and the source keeps
 *   every namespace it may read, because claims of other namespaces
 *   hold devices (the GPU map and the devices list would show them
 *   free); a user who may not list every namespace gets the one asked
 *   for instead of the one the source fell back to.
 * contexts: the kubeconfig's context names into *names (a
 *   NULL-terminated array the caller frees with free() for the array
 *   only; strings borrowed until the next call) and the current one
 *   into *current.  Returns KUBE_OK or an error.
 * set_context: switch to context name (reconnect, list again).
 *   Returns at once: KUBE_OK, or an error (an unknown name, a context
 *   whose configuration is unusable) and nothing changed.  From then
 *   on no data of the old context is handed over; the status names
 *   the new context with connecting set until its first lists are in,
 *   and says why while it cannot be reached (retried with backoff).
 *   The UI shows no data meanwhile.
 */
struct tui_source {
	void	*arg;
	int	(*poll)(void *arg, struct kube_snapshot **out,
		    struct tui_source_status *st, struct dra_err *err);
	int	(*fd)(void *arg);
	void	(*refresh)(void *arg);
	int	(*set_namespace)(void *arg, const char *ns,
		    struct dra_err *err);
	int	(*contexts)(void *arg, const char ***names,
		    const char **current, struct dra_err *err);
	int	(*set_context)(void *arg, const char *name,
		    struct dra_err *err);
};

/* How the UI starts. */
struct tui_opts {
	const char		*view;		/* first view (":" word), NULL:
						   "gpus" */
	const char		*namespace;	/* NULL: all namespaces */
	const struct cJSON	*plan;		/* a Plan document (--plan
						   FILE, views/plan.h), or
						   NULL; borrowed */
	const char		*plan_file;	/* its name, for titles */
	int			 no_color;	/* NO_COLOR or --no-color */
	int			 mouse;		/* enable mouse reports */
	int			 readonly;	/* reserved: no writes yet */
	int			 narrow_source;	/* ":ns" also calls
						   src->set_namespace */
	unsigned		 tick_ms;	/* poll timer, 0: 1000 */
};

/*
 * Run the UI on the terminal until the user quits.  src->poll is
 * called once before curses starts, so the first screen has data (the
 * caller has already done its first list).  Returns KUBE_OK, or an
 * error with err filled when the terminal cannot be set up ("not a
 * terminal", "terminal too small" is NOT an error: the UI says so and
 * waits for a resize).  The terminal is restored in every case.
 */
int	tui_run(const struct tui_opts *opts, struct tui_source *src,
	    struct dra_err *err);

/*
 * Whether word names a view the UI opens (tui_opts.view, ":word"):
 * "gpus", "claims", "devices", "pools", "slices", "classes", "quotas",
 * "nodes", "templates", their aliases, or any spelling of a kind `get` takes
 * (dra_kind_find).
 */
int	tui_view_known(const char *word);

/*
 * The names of the views in Tab order (the first is the default),
 * NULL-terminated; static, for usage texts and completion.
 */
const char *const *tui_view_names(void);

#endif
