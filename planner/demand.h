/*
 * demand.h: the demand file of `kubectl dra plan` (docs/PLAN-DEMAND.md).
 *
 * A demand file is one YAML (or JSON) document of kind Demand, apiVersion
 * dra.kubectl.io/v1alpha1: the policy (price, utilization target and
 * ceiling, whether GPUs holding running claims may be repartitioned,
 * the solver's limits, a DeviceClass name prefix), the PriorityClasses
 * workloads refer to, and per team (one namespace) its caps and its
 * workloads.  It is read into a struct plan_demand (planner.h).
 *
 * The reader checks everything it can without an inventory: types,
 * ranges, names, unknown and duplicate fields, duplicate namespaces and
 * workload names, priority classes that are not listed.  Whether a
 * profile or GPU model exists is checked later, against the catalogue
 * or the cluster (solve.c), since that depends on the GPUs.
 *
 * Units in the result: memory in MiB, rounded up from the quantity
 * ("20G" is 19074 MiB); GPU caps in thousandths of a GPU ("2.5" is
 * 2500); ratios (utilization, gap) as fractions 0..1; the time limit in
 * seconds.
 *
 * Errors: every function that can fail returns a kube_rc and fills err.
 * A bad document is KUBE_E_PARSE with the message
 *
 *	FILE:LINE:COL: field.path: problem
 *
 * (for example "demand.yaml:14:15: teams[0].workloads[1].replicas.min:
 * expected a non-negative integer, got \"-1\""), where LINE:COL is the
 * offending value, or the key for an unknown or duplicate field, or the
 * enclosing mapping for a missing one; a YAML syntax error is
 * "FILE:LINE:COL: " and libyaml's problem.  A file that cannot be read
 * is KUBE_E_IO ("FILE: No such file or directory"), one larger than
 * PLAN_DEMAND_MAX_BYTES is KUBE_E_TOOBIG.  On error *out is NULL and
 * nothing is left allocated.
 */
#ifndef PLAN_DEMAND_H
#define PLAN_DEMAND_H

#include <stddef.h>

#include "err.h"
#include "planner.h"

#define PLAN_DEMAND_API_VERSION	"dra.kubectl.io/v1alpha1"
#define PLAN_DEMAND_KIND	"Demand"

/* Limits on what a demand file may ask for. */
#define PLAN_DEMAND_MAX_BYTES		(16UL << 20)	/* file size */
#define PLAN_DEMAND_MAX_REPLICAS	1000000000	/* per workload */
#define PLAN_DEMAND_MAX_PRICE		1e9	/* per GPU a month: a fleet's
						   cost stays exact in a
						   double */
#define PLAN_DEMAND_MAX_PER_DEVICE	1024	/* replicasPerDevice */
#define PLAN_DEMAND_MAX_TIME_LIMIT	86400.0	/* seconds (24h) */

/* Defaults of the policy when the file leaves a field out. */
#define PLAN_DEMAND_DEF_TARGET		0.80
#define PLAN_DEMAND_DEF_CEILING		0.95
#define PLAN_DEMAND_DEF_TIME_LIMIT	60.0	/* seconds */

/*
 * Read the demand file at path ("-" reads standard input, named
 * "<stdin>" in messages and in d->file).  On success *out is a new
 * plan_demand the caller frees with plan_demand_free(), and the
 * return is KUBE_OK.  Errors: KUBE_E_IO (cannot open or read),
 * KUBE_E_TOOBIG (more than PLAN_DEMAND_MAX_BYTES), KUBE_E_PARSE (see
 * above); *out is NULL then.  err may be NULL.
 */
int	plan_demand_load(const char *path, struct plan_demand **out,
	    struct dra_err *err);

/*
 * Parse a demand document from text (len bytes, need not be
 * NUL-terminated; YAML or JSON).  name is the file name used in
 * messages and copied into d->file ("<input>" when NULL).  Results and
 * errors as plan_demand_load, KUBE_E_PARSE only.
 *
 * Every string of the result is a malloc'd copy owned by *out; the
 * optional ones are NULL when absent (workload profile, model,
 * priority_class), except policy.currency and
 * policy.device_class_prefix, which are "" when absent.
 */
int	plan_demand_parse(const char *name, const char *text, size_t len,
	    struct plan_demand **out, struct dra_err *err);

/* Free d and everything it holds.  d may be NULL. */
void	plan_demand_free(struct plan_demand *d);

/*
 * The priority class called name in d, borrowed from d (valid until
 * plan_demand_free), or NULL when d lists none of that name or name is
 * NULL.
 */
const struct plan_priority_class *plan_demand_priority_class(
	    const struct plan_demand *d, const char *name);

/*
 * A duration in seconds from s: Go's syntax ("30s", "1m30s", "500ms",
 * "2h"; units h, m, s, ms, us, ns, summed) or a plain decimal number
 * of seconds.  Returns 0 with *out set, or -1 when s is neither.  The
 * range (above 0, at most PLAN_DEMAND_MAX_TIME_LIMIT) is the caller's.
 * Used for policy.solver.timeLimit and `plan --time-limit`.
 */
int	plan_duration_parse(const char *s, double *out);

#endif
