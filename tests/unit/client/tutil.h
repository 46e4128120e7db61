/*
 * tutil.h: helpers shared by the kube/client unit tests: temporary
 * directories, files, the environment kubeconfig loading reads, and
 * recorders for the log, warning and sleep callbacks.  Test code:
 * failures abort.
 */
#ifndef TUTIL_H
#define TUTIL_H

#include <stddef.h>

#include "buf.h"

/* A new directory under $TMPDIR or /tmp; the caller frees the name. */
char	*tu_tmpdir(void);

/* Remove dir and everything under it. */
void	 tu_rmrf(const char *dir);

/*
 * Write content to dir/name (creating parent folders) with mode, and
 * return the full path, which the caller frees.
 */
char	*tu_write(const char *dir, const char *name, const char *content,
	    int mode);

/* The contents of path (caller frees), or NULL when it cannot be read. */
char	*tu_read(const char *path);

/* s with every "@D" replaced by dir (caller frees); NULL gives NULL. */
char	*tu_subst(const char *s, const char *dir);

/*
 * Clear every variable kubeconfig loading looks at (KUBECONFIG,
 * KUBERNETES_SERVICE_HOST/PORT, POD_NAMESPACE, KUBERNETES_MASTER, the
 * proxy variables) and point HOME at home.
 */
void	 tu_env_reset(const char *home);

/* Recorders: arg is a struct tu_rec. */
struct tu_rec {
	struct dra_buf	log;		/* log lines, '\n'-separated */
	struct dra_buf	warnings;	/* warnings, '\n'-separated */
	long		sleeps[64];	/* ms per sleep call */
	int		nsleeps;
};

void	 tu_rec_init(struct tu_rec *r);
void	 tu_rec_release(struct tu_rec *r);
void	 tu_log(void *arg, int level, const char *line);
void	 tu_warn(void *arg, const char *msg);
void	 tu_sleep(void *arg, long ms);

#endif
