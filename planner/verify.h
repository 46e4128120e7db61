/*
 * verify.h: replay a plan through the structured allocator.
 *
 * The rule: the planner's layout must always be accepted by
 * the allocator of `kubectl dra why` (kube/dra/alloc.h).  This check
 * publishes the plan's GPUs as NVIDIA's driver does with DynamicMIG
 * (plan_inventory_snapshot_gpus(), node by node), keeps the running
 * claims the plan keeps, then, GPU by GPU in the plan's arrival order,
 * asks the allocator for each instance the plan adds, with a claim
 * that names only the instance's profile and its GPU (its PCI bus ID),
 * and compares the device the allocator picks (first fit) with the
 * device the plan names.  A plan passes when every instance lands on
 * exactly its planned device.  A second replay drops the GPU from the
 * claims (node-wide first fit) and counts how many still get a device
 * and how many the planned one: the plan's starts hold for claims that
 * name their GPU, as `kubectl dra apply` will make them.
 */
#ifndef PLAN_VERIFY_H
#define PLAN_VERIFY_H

#include <stddef.h>

#include "err.h"
#include "planner.h"
#include "solve.h"

struct plan_verify {
	size_t	 instances;	/* instances replayed */
	size_t	 accepted;	/* landed on the planned device */
	/*
	 * The same claims on dynamic MIG naming only their profile (and
	 * node), node-wide first fit in the plan's order, as the
	 * scheduler treats claims that do not name their GPU: how many
	 * get a device at all, and how many the planned one.
	 */
	size_t	 unpinned;	/* instances replayed that way */
	size_t	 unpinned_placed;
	size_t	 unpinned_as_planned;
	size_t	 nodes;		/* nodes replayed */
	double	 seconds;
	char	*first_failure;	/* NULL, or "node/gpu: instance 3
				   (3g.40gb): allocator picked X, plan
				   names Y" (malloc'd) */
};

/*
 * Replay r (a plan of inv, status OPTIMAL or FEASIBLE) through the
 * allocator.  Nodes without a used GPU are skipped.  Returns KUBE_OK
 * with *v filled (v->accepted < v->instances means the plan is not
 * accepted; first_failure says where), or KUBE_E_CONFIG with err set
 * when the snapshot cannot be built or the allocator fails (its
 * message).  Free v's contents with plan_verify_free().
 */
int	plan_verify(const struct plan_inventory *inv,
	    const struct plan_result *r, struct plan_verify *v,
	    struct dra_err *err);

void	plan_verify_free(struct plan_verify *v);

#endif
