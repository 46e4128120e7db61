/*
 * plan.h: the views of a plan (`kubectl dra plan`, issue 5): the Plan
 * document, and the table and the SVG picture drawn from it.
 *
 * The document (docs/PLAN-FORMAT.md, every field) is what the planner
 * decided, self-contained: the inventory and policy it planned for,
 * the solver's status, a summary with the cost, per team what each
 * workload is served and the quota that goes with it, the layout of
 * every GPU (instances in the order their claims must arrive), and the
 * Kubernetes objects that realise it (DeviceClasses, ResourceQuotas,
 * PriorityClasses, and for static MIG the mig-parted ConfigMap with
 * its node labels).  The table and the SVG are rendered from the
 * document alone, never from the planner's structs, so a plan saved
 * to a file can be shown again later (`kubectl dra apply`); they check
 * the fields they read and name the first one that is wrong.
 *
 * Everything here is pure: no printing, no files, no network.  The
 * output is deterministic: the same input gives byte-identical
 * documents, tables and pictures (give created NULL and the solver's
 * times as 0 for that).
 */
#ifndef DRA_PLAN_VIEW_H
#define DRA_PLAN_VIEW_H

#include <stddef.h>

#include "buf.h"
#include "err.h"
#include "planner.h"
#include "solve.h"

struct cJSON;

#define DRA_PLAN_API_VERSION	"dra.kubectl.io/v1alpha1"
#define DRA_PLAN_KIND		"Plan"

/* The name of the ResourceQuota the plan gives each team namespace. */
#define DRA_PLAN_QUOTA_NAME	"dra-plan"
/* The ConfigMap of the GPU Operator's MIG manager (NVIDIA-MIG.md s4). */
#define DRA_PLAN_MIG_CONFIGMAP	"default-mig-parted-config"
#define DRA_PLAN_MIG_NAMESPACE	"gpu-operator"
#define DRA_PLAN_MIG_LABEL	"nvidia.com/mig.config"
/* The label every manifest of a plan carries. */
#define DRA_PLAN_MANAGED_BY	"kubectl-dra"

/* The table collapses identical GPU layouts above this many GPUs. */
#define DRA_PLAN_TABLE_MAX_GPUS	64
/* The SVG draws distinct layouts with counts above this many GPUs. */
#define DRA_PLAN_SVG_MAX_GPUS	512

/*
 * One run of the first-fit baseline (what the scheduler would do with
 * the same demand on dynamic MIG, the claims in one order).  order
 * names the order ("as-given", "small-first", "random"); gpus_used is
 * the GPUs it takes, counted the way the plan counts used + headroom;
 * unplaced the devices it could not place.  Borrowed.
 */
struct dra_plan_baseline {
	const char	*order;
	size_t		 gpus_used;
	size_t		 unplaced;
};

/*
 * What a Plan document is built from, all borrowed.  result is
 * plan_solve()'s answer for inv and demand (any status; the layout,
 * quotas and manifests are there only for optimal and feasible
 * ones).  baselines (nbaselines long, may be 0) go into
 * status.summary.baseline; the best of them (fewest unplaced, then
 * fewest GPUs) is the cost baseline.  created is an RFC 3339 time for
 * metadata.creationTimestamp, or NULL to leave it out (tests).  With
 * static_mig set, every GPU gets a mig-parted configuration and its
 * node the nvidia.com/mig.config label (`plan --mig static`); without
 * it only GPUs in PLAN_MODE_STATIC or PLAN_MODE_WHOLE do.
 */
struct dra_plan_input {
	const struct plan_inventory	*inv;
	const struct plan_demand	*demand;
	const struct plan_result	*result;
	const struct dra_plan_baseline	*baselines;
	size_t				 nbaselines;
	const char			*created;
	int				 static_mig;
};

/*
 * The Plan document (apiVersion dra.kubectl.io/v1alpha1, kind Plan;
 * docs/PLAN-FORMAT.md) of in, as a new cJSON tree the caller frees
 * with cJSON_Delete().  Integers are JSON integers, money is rounded
 * to cents, ratios to 3 decimals (the gap to 6), times to
 * milliseconds.  Strings from the inventory and the demand are copied
 * as they are (the table and the SVG make them safe).  Never NULL;
 * allocation failure is fatal (xmalloc.h).
 */
struct cJSON	*dra_plan_document(const struct dra_plan_input *in);

/*
 * The plan as text for people (the default output of `plan`): the
 * solver's status, the GPUs, utilization and cost; one block per team
 * (its workloads served against their minimum and maximum, devices per
 * profile, the quota); the layout, per node one line per GPU with its
 * instances in arrival order ("[3g.40gb team-a/llm]", "[1g.10gb ·]"
 * for a spare, "running"/"moved" for running claims), wrapped to 80
 * columns; above DRA_PLAN_TABLE_MAX_GPUS GPUs, identical GPU layouts
 * collapse into one "N x" line each.  An infeasible plan shows its
 * reasons instead.  Control characters of names become '?'.
 *
 * plan is a Plan document (dra_plan_document(), or one read back from
 * a file), borrowed.  The text is appended to out (initialised by the
 * caller, whose limit applies).  Returns KUBE_OK; KUBE_E_PARSE when
 * the document is malformed, with err naming the field and what was
 * expected ("status.layout[2].gpus[0].instances[1].profile: expected
 * a string"); KUBE_E_TOOBIG when out's limit is reached.  On error out
 * holds what it held before (or nothing, after KUBE_E_TOOBIG).  err may
 * be NULL.
 */
int		 dra_plan_table(const struct cJSON *plan, struct dra_buf *out,
		    struct dra_err *err);

/*
 * The plan as an SVG 1.1 picture (`plan -o svg`): a title with the
 * summary; every GPU as a bar of its memory slices, grouped by node
 * under the node's name; each instance a rectangle (class "instance")
 * over its slices, labelled with its profile and coloured by its
 * team's namespace (a stable palette in the order of status.teams,
 * then of appearance); running claims hatched, spares outlined, idle
 * GPUs grey; a legend of the teams and the profiles in use.  Above
 * DRA_PLAN_SVG_MAX_GPUS GPUs, each distinct GPU layout is drawn once
 * with its count.  Text is XML-escaped, control characters become
 * '?'.  Arguments, results and errors as dra_plan_table().
 */
int		 dra_plan_svg(const struct cJSON *plan, struct dra_buf *out,
		    struct dra_err *err);

/*
 * The DeviceClass the plan emits for profile p of geometry g, given
 * the demand's policy.device_class_prefix (NULL or "" for NVIDIA's
 * "mig-"):
 *
 *  - the whole GPU: the driver's own class, named after the driver
 *    ("gpu.nvidia.com", NVIDIA's Helm chart class);
 *  - a MIG profile: "<prefix><profile>.<driver>" with the profile
 *    lowercased and '.' and '+' written '-', NVIDIA's demo convention
 *    ("mig-1g-12gb.gpu.nvidia.com", "mig-1g-10gb-me.gpu.nvidia.com").
 *
 * Writes the NUL-terminated name into buf (len bytes) and returns buf,
 * or NULL when it does not fit.
 */
char		*dra_plan_class_name(const struct plan_geometry *g,
		    const struct plan_profile *p, const char *prefix,
		    char *buf, size_t len);

/*
 * The extended resource name the DeviceClass of profile p maps, for
 * the quota key requests.<name>: for gpu.nvidia.com "nvidia.com/gpu"
 * (whole) or "nvidia.com/mig-<profile>" with '+' written '.'
 * ("nvidia.com/mig-1g.10gb.me", the device plugin's names); NULL (and
 * no extendedResourceName) for any other driver.  Writes into buf as
 * dra_plan_class_name().
 */
char		*dra_plan_extended_resource(const struct plan_geometry *g,
		    const struct plan_profile *p, char *buf, size_t len);

#endif
