/*
 * why.h: why a ResourceClaim or a Pod's claims can or cannot get their
 * devices, with the evidence.
 *
 * kube-scheduler reports a failed DRA allocation as "cannot allocate
 * all claims" and names no claim, selector, device or counter
 * (DRA-REFERENCE.md section 6.2).  dra_why() re-runs the decision the
 * DynamicResources plugin makes in Filter, node by node, with the
 * allocator of alloc.h, and for every node that does not fit finds the
 * first reason each request fails with dra_device_check(): which
 * devices the class matches, which are held and by whom, which counter
 * of which counter set is exhausted, which taint is untolerated, which
 * constraint fails, which pool is incomplete.  When no node fits it
 * tries again with the holders released, to tell "allocatable once
 * these claims release their devices" from "never".
 *
 * Nothing here prints or exits.  A report owns its strings; pointers
 * to model objects borrow from the snapshot.
 */
#ifndef DRA_WHY_H
#define DRA_WHY_H

#include <stddef.h>

#include "alloc.h"
#include "err.h"
#include "model.h"

enum dra_why_verdict {
	DRA_WHY_ALLOCATED,	/* already allocated: devices say where */
	DRA_WHY_ALLOCATABLE,	/* a node fits now */
	DRA_WHY_AFTER_RELEASE,	/* fits once release[] free their devices */
	DRA_WHY_NEVER,		/* fits on no node even with all released */
	DRA_WHY_BLOCKED,	/* an allocator error fails the pod on every
				   node (CEL runtime error, All on an
				   incomplete pool, missing class) */
	DRA_WHY_UNKNOWN,	/* unsupported CEL or the search bound */
};

/* One device a claim holds or would get. */
struct dra_why_device {
	const struct kube_claim	*claim;		/* NULL: from a template */
	char			*claim_name;	/* "ns/name" */
	char			*request;	/* "req" or "req/sub" */
	const struct kube_device *device;	/* NULL if unpublished */
	char			*driver;
	char			*pool;
	char			*name;
	int			 admin_access;
	/* consumedCapacity of a shared device: "memory=40Gi, ..." or NULL */
	char			*consumed;
};

/*
 * One reason.  node NULL means every node (blocked, refused, or one
 * cause for all).  code is a stable word: dra_check_code()'s, plus
 * "no-devices", "count", "constraint", "combination", "allocator-error",
 * "unsupported", "cannot-allocate", "node-affinity",
 * "node-unschedulable", "claim-not-on-node", "claim-missing",
 * "claim-deleted", "reserved-full", "rejected", "no-nodes", and for
 * every node at once "no-match", "exceeds-node", "pools-updating",
 * "tainted" (README.md lists what each means).
 */
struct dra_why_reason {
	char		*node;
	char		*claim;		/* "ns/name" or NULL */
	char		*request;	/* "req", "req/sub" or NULL */
	const char	*code;		/* static */
	char		*message;	/* one sentence, no newline */
	char	       **evidence;	/* detail lines */
	size_t		 nevidence;
};

struct dra_why {
	enum dra_why_verdict	 verdict;
	int			 allocatable;	/* 1, 0, -1 unknown */
	char			*summary;	/* one line for people */
	char			*node;		/* first node that fits */
	struct dra_why_device	*devices;	/* on node, first fit */
	size_t			 ndevices;
	struct dra_why_reason	*reasons;
	size_t			 nreasons;
	char		       **fit_nodes;	/* every node that fits */
	size_t			 nfit_nodes;
	size_t			 nnodes;	/* nodes considered */
	char		       **release;	/* AFTER_RELEASE: "ns/name" */
	size_t			 nrelease;
	int			 release_any;	/* any one of release[] is
						   enough (else all) */
};

/* What to explain: a claim, or a pod with its claims. */
struct dra_why_target {
	const struct kube_claim	*claim;		/* or NULL */
	const struct kube_pod	*pod;		/* or NULL */
	const struct kube_claim_template *tmpl;	/* or NULL */
	const char		*node;		/* --node: only this node */
	unsigned		 features;	/* 0: DRA_FEATURES_1_37 */
	uint64_t		 max_steps;	/* 0: the default bound */
};

/*
 * Explain t (exactly one of claim, pod and tmpl set) over the finished
 * snapshot s (borrowed).  A claim alone is explained as a pod that uses
 * only that claim and has no node constraint (like `kubectl create` of
 * such a pod would be scheduled); a template as a new claim made from
 * it, the way the resourceclaim controller makes one.  For a pod: its claims in
 * spec.resourceClaims order (a template whose claim is not created yet
 * is explained from the template's spec); a pod bound to a node
 * (spec.nodeName) is explained on that node only.  Candidate nodes are
 * the snapshot's Node objects (schedulable ones), else the nodes that
 * slices name; claims already allocated restrict them to their
 * allocation's node.
 *
 * Returns KUBE_OK and *out (free with dra_why_free()), or KUBE_E_* with
 * err set (an argument error, or a snapshot not finished).
 */
int	dra_why(const struct kube_snapshot *s, const struct dra_why_target *t,
	    struct dra_why **out, struct dra_err *err);

void	dra_why_free(struct dra_why *w);

/* "allocated", "allocatable", "allocatable-after-release", "never",
 * "blocked", "unknown". */
const char *dra_why_verdict_name(enum dra_why_verdict v);

#endif
