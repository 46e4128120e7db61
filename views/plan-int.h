/*
 * plan-int.h: what the files of the plan views share (plan-read.c,
 * plan-table.c, plan-svg.c): a Plan document read and checked into
 * plain structs, and an output buffer that remembers its first
 * failure.
 *
 * The table and the SVG read a document through pv_read() only, so
 * both check the same fields the same way.  Strings in a struct pv_doc
 * are borrowed from the cJSON tree it was read from and live as long
 * as that tree; the arrays are the struct's own (pv_release()).
 */
#ifndef DRA_PLAN_INT_H
#define DRA_PLAN_INT_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "err.h"

struct cJSON;

/* Bounds a document must respect (beyond them it is malformed). */
#define PV_MAX_SLICES	64		/* memory slices of one GPU */
#define PV_MAX_COUNT	1000000000LL	/* any count */

enum pv_owner_kind {
	PV_OWNER_WORKLOAD,
	PV_OWNER_RUNNING,
	PV_OWNER_MOVED,
	PV_OWNER_SPARE,
};

struct pv_inst {
	int64_t			 order;
	const char		*device;	/* NULL when absent */
	const char		*profile;
	int64_t			 start;
	int64_t			 slices;	/* memorySlices */
	enum pv_owner_kind	 kind;
	const char		*ns;		/* workload, running, moved */
	const char		*name;		/* workload or claim */
	int64_t			 replicas;	/* workload */
};

enum pv_state {
	PV_USED,
	PV_HEADROOM,
	PV_IDLE,
};

struct pv_gpu {
	const char	*node;		/* its node's name */
	const char	*name;
	const char	*model;
	const char	*mode;		/* "dynamic", "static", "whole" */
	enum pv_state	 state;
	int		 rebuilt;
	int		 changed;
	int64_t		 slices;	/* memorySlices, 1..PV_MAX_SLICES */
	const char	*mig_config;	/* NULL when absent */
	struct pv_inst	*inst;
	size_t		 ninst;
};

struct pv_node {
	const char	*name;
	struct pv_gpu	*gpus;
	size_t		 ngpus;
};

struct pv_grant {
	const char	*model;
	const char	*profile;
	int64_t		 devices;
	int64_t		 replicas;
};

struct pv_workload {
	const char	*name;
	const char	*priority_class;	/* NULL when absent */
	int64_t		 min, max, served, devices;
	struct pv_grant	*grants;
	size_t		 ngrants;
};

struct pv_kv {
	const char	*key;
	const char	*value;
};

struct pv_team {
	const char		*ns;
	struct pv_workload	*wl;
	size_t			 nwl;
	struct pv_kv		*hard;		/* quota.hard, in order */
	size_t			 nhard;
	int			 has_quota;
};

struct pv_reason {
	const char	*constraint;
	const char	*message;
};

struct pv_baseline {
	const char	*order;
	int64_t		 gpus;
	int64_t		 unplaced;
};

struct pv_doc {
	/* spec */
	const char		*source;
	double			 target, ceiling;
	/* status.solver */
	const char		*status;
	double			 gap, seconds;
	/* status.summary */
	int64_t			 total;
	int			 has_layout;	/* used .. utilization set */
	int64_t			 used, headroom, idle, rebuilt;
	double			 load, utilization;
	const char		*currency;
	double			 price, before, after, baseline;
	double			 saving_before, saving_baseline;
	const char		*baseline_order;	/* NULL: none */
	struct pv_baseline	*bl;
	size_t			 nbl;
	/* status */
	struct pv_reason	*reasons;
	size_t			 nreasons;
	struct pv_team		*teams;
	size_t			 nteams;
	struct pv_node		*nodes;
	size_t			 nnodes;
	size_t			 ngpus;		/* in all nodes */
	size_t			 ninst;		/* in all GPUs */
};

/*
 * Read and check plan (a Plan document) into *d, which the caller
 * releases with pv_release() whatever the result.  Returns KUBE_OK,
 * or KUBE_E_PARSE with err naming the first bad field by its path
 * ("status.layout[2].gpus[0].instances[1].profile: expected a
 * string").
 */
int	pv_read(const struct cJSON *plan, struct pv_doc *d,
	    struct dra_err *err);

/* Free what d holds and zero it. */
void	pv_release(struct pv_doc *d);

/* The text of an owner kind ("workload", "running", ...). */
const char *pv_owner_name(enum pv_owner_kind k);

/*
 * An output buffer that stops at its first failure: after an append
 * fails (KUBE_E_TOOBIG) every later one is a no-op and rc keeps the
 * failure, so a long rendering checks once at the end.
 */
struct pv_out {
	struct dra_buf	*b;
	int		 rc;
};

void	pv_adds(struct pv_out *o, const char *s);
void	pv_addn(struct pv_out *o, const char *s, size_t n);
void	pv_addf(struct pv_out *o, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/*
 * s with control characters (and DEL) written '?', appended; for
 * terminals.  NULL appends "".
 */
void	pv_add_safe(struct pv_out *o, const char *s);

/*
 * Money as people read it: thousands separated by ',' and cents only
 * when there are some ("240,000", "1,234.50", "-15,000").  Into buf.
 */
char	*pv_money(double v, char *buf, size_t len);

/*
 * A summary line for titles: "Plan (optimal): 3 of 16 GPUs used, 1
 * headroom; utilization 78.6%; 60,000 RUB a month, saving 180,000
 * RUB"; without a layout "Plan (infeasible): 16 GPUs, no layout; 1
 * reason".  Into buf (len bytes), control characters replaced.
 */
char	*pv_headline(const struct pv_doc *d, char *buf, size_t len);

#endif
