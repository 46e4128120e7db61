/*
 * alloc.h: the structured allocator of Kubernetes 1.37, in C.
 *
 * Mirrors k8s.io/dynamic-resource-allocation/structured (the
 * "incubating" implementation that 1.37's default gates select;
 * DRA-REFERENCE.md section 6.1) as kube-scheduler's DynamicResources
 * plugin runs it in Filter for one node: pool gathering (newest
 * generation, complete and valid pools only, slices reachable from the
 * node), then a depth-first, first-fit search over the pod's claims,
 * their requests, firstAvailable subrequests and devices, with
 * backtracking over constraints, counters and consumable capacity.
 *
 * Upstream sources: k8s.io/dynamic-resource-allocation v0.37.2 (the
 * module kube-scheduler 1.37.2 is built from):
 * structured/internal/incubating/allocator_incubating.go,
 * pools_incubating.go, compatibility_groups.go, constraint.go,
 * consumable_capacity.go, structured/internal/allocatedstate.go,
 * resourceclaim/devicetoleration.go, cel/errors.go; and k8s.io/kubernetes
 * v1.37.2 pkg/scheduler/framework/plugins/dynamicresources
 * (dynamicresources.go: PreFilter's class checks, how Filter treats the
 * allocator's errors; allocateddevices.go: which allocation results
 * hold a device).  What changed since the 2026-07-01 snapshot: see
 * alloc-search.c.  Not mirrored: the allocation result's node
 * selector, config, tolerations and share IDs; the scheduler's filter
 * timeout; capacity arithmetic beyond int64.
 *
 * State comes from a finished struct kube_snapshot (kube/model): the
 * devices that allocated claims hold (admin-access results excluded;
 * results with a shareID count as shares, with their consumedCapacity),
 * the counters they consume in each pool (on every node), and the
 * consumable capacity they use.  Slices and claims the API server
 * would reject (their "rejected" is set) do not exist for it.
 *
 * Nothing here prints or exits.  Memory: an allocator borrows the
 * snapshot, which must outlive it; results own their memory and are
 * freed with dra_alloc_result_free().
 */
#ifndef DRA_ALLOC_H
#define DRA_ALLOC_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "model.h"

/* DRA features the allocator honours (Kubernetes 1.37 gates). */
#define DRA_FEATURE_PRIORITIZED_LIST	0x01	/* DRAPrioritizedList, GA */
#define DRA_FEATURE_ADMIN_ACCESS	0x02	/* DRAAdminAccess, GA */
#define DRA_FEATURE_DEVICE_TAINTS	0x04	/* DRADeviceTaints, beta on */
#define DRA_FEATURE_PARTITIONABLE	0x08	/* DRAPartitionableDevices */
#define DRA_FEATURE_CONSUMABLE_CAPACITY	0x10	/* DRAConsumableCapacity */
#define DRA_FEATURE_BINDING_CONDITIONS	0x20	/* DRADeviceBindingConditions */
#define DRA_FEATURE_FRACTIONAL_CAPACITY	0x40	/* DRAFractionalCapacityRange,
						   beta, on at 1.37 */
/*
 * What kube-scheduler 1.37 runs with by default.  DRAListTypeAttributes,
 * DRADerivedAttributes and DRADeviceCompatibilityGroups (alpha) are
 * off and not modelled: slices whose devices name compatibility
 * groups are ignored, as 1.37 does with the gate off.
 */
#define DRA_FEATURES_1_37		0x7f

/* Default bound on search work: devices tried, summed over a search. */
#define DRA_ALLOC_MAX_STEPS		1000000

struct dra_alloc_opts {
	unsigned	features;	/* DRA_FEATURE_* bits */
	uint64_t	max_steps;	/* 0: DRA_ALLOC_MAX_STEPS */
	/*
	 * Non-zero: skip the answer by counting (see dra_allocate()) and
	 * always search, for tests of the max_steps bound.
	 */
	int		no_counting;
};

struct dra_allocator;

/*
 * Build an allocator over s (finished; borrowed).  opts may be NULL
 * (DRA_FEATURES_1_37, the default bound).  Indexes, in O(slices +
 * allocation results) with uthash tables: slices by node name (the
 * rest are "shared", as allocator_incubating.go's NewAllocator splits
 * them), all slices of each (driver, pool), and the devices that
 * allocated claims hold, by driver/pool/device (the scheduler's
 * allocated state: admin-access results skipped, results with a
 * shareID kept apart with their consumedCapacity).  Each distinct
 * selector expression is compiled once, on first use (kube/dra/cel.h),
 * and each (device, request) verdict is cached for the allocator's
 * life.
 *
 * Returns KUBE_OK and *out, or KUBE_E_CONFIG with err set (s not
 * finished, unknown feature bits).  Compile errors are not returned
 * here: they surface when a request that uses the expression is
 * allocated or checked.  Free with dra_allocator_free().
 */
int	dra_allocator_new(const struct kube_snapshot *s,
	    const struct dra_alloc_opts *opts, struct dra_allocator **out,
	    struct dra_err *err);

/* Free a and everything it owns (not the snapshot).  NULL is a no-op. */
void	dra_allocator_free(struct dra_allocator *a);

/*
 * Treat claim c's current allocation as released: its devices, counters
 * and consumed capacity become free for later dra_allocate() and
 * dra_device_check() calls on a.  For "allocatable once these claims
 * release their devices".  c is borrowed from the snapshot.  A claim
 * that is not allocated is ignored.
 */
void	dra_allocator_release(struct dra_allocator *a,
	    const struct kube_claim *c);

/* One claim to allocate: its namespace and name (for messages) and spec. */
struct dra_claim_ref {
	const char			*namespace;
	const char			*name;
	const struct kube_claim_spec	*spec;
};

enum dra_alloc_status {
	DRA_ALLOC_OK,		/* a solution: picks */
	DRA_ALLOC_NO_FIT,	/* no solution on this node ("cannot allocate
				   all claims") */
	DRA_ALLOC_ERROR,	/* the allocator returned an error: the
				   scheduler's Filter fails with message */
	DRA_ALLOC_UNKNOWN,	/* unsupported CEL, or max_steps reached:
				   no verdict */
};

/* One allocated device. */
struct dra_alloc_pick {
	size_t			 claim;		/* index into claims[] */
	char			*request;	/* "req" or "req/sub" */
	const struct kube_device *device;	/* borrowed from snapshot */
	int			 admin_access;
	/* consumedCapacity for a device with allowMultipleAllocations */
	struct kube_capacity_request *consumed;	/* owned; ids borrowed */
	size_t			 nconsumed;
};

struct dra_alloc_result {
	enum dra_alloc_status	 status;
	struct dra_alloc_pick	*picks;		/* OK: in allocation order */
	size_t			 npicks;
	/*
	 * ERROR: the allocator's error in the scheduler's words, e.g.
	 * "claim default/all-gpus, request gpu: asks for all devices, but
	 * resource pool gpu.example.com/node-a is currently being updated"
	 * or "class gpu.example.com: selector #0 on device
	 * gpu.example.com/node-b/gpu-0: CEL runtime error: no such key:
	 * type".  UNKNOWN: why there is no verdict.  NULL otherwise.
	 */
	char			*message;
	/*
	 * ERROR only: non-zero when the error fails the pod on every node:
	 * the scheduler's Filter returns an error status, which aborts the
	 * scheduling attempt for the pod whichever node it happened on
	 * (a CEL runtime or compile error, All on a pool that is
	 * incomplete or invalid, more than 32 devices, a constraint that
	 * an All request cannot satisfy), or its PreFilter refuses the pod
	 * before any node is tried ("request R: device class C does not
	 * exist", checked for every request and subrequest first; the pod
	 * is then Unschedulable, not in error).  Zero for "invalid
	 * resource pools were encountered", which fails this node only
	 * (structured.ErrFailedAllocationOnNode).
	 */
	int			 blocks_everywhere;
	uint64_t		 steps;		/* devices tried */
};

/*
 * Allocate claims[0..nclaims) together, as the scheduler does for one
 * pod on node (its name; n may be NULL when the snapshot has no Node
 * object, then node selectors other than a single node name do not
 * match).  Claims are tried in the given order (the pod's order).
 * Devices already held (see the file comment, and
 * dra_allocator_release()) are not free.
 *
 * Mirrors allocator_incubating.go's Allocate and allocateOne and
 * pools_incubating.go's GatherPools (Kubernetes 1.37,
 * k8s.io/dynamic-resource-allocation/structured/internal/incubating):
 * the same pools, the same checks in the same order, the same first
 * solution, the same error texts (without the scheduler's "running
 * \"DynamicResources\" filter plugin: " prefix).
 *
 * Two additions the scheduler does not have, neither of which changes
 * an answer it would give:
 *  - the answer by counting: before the search, when some request
 *    (every subrequest of a firstAvailable request) has fewer devices
 *    passing the per-device checks than it needs, when no value of a
 *    matchAttribute can give every request of the constraint enough
 *    devices, when the devices of distinctAttribute requests outnumber
 *    the distinct values, or when the pod needs more devices than
 *    there are candidates, the result is NO_FIT at once.
 *    It is not used when a selector fails to evaluate or an All
 *    request meets constraints (the search could return an error).
 *  - the bound: after opts.max_steps devices tried, UNKNOWN with
 *    message "search stopped after N devices tried (max_steps)".
 *
 * Returns KUBE_OK with *res filled (status says the outcome), or
 * KUBE_E_CONFIG with err set on misuse (a NULL argument).  Free *res
 * with dra_alloc_result_free().
 */
int	dra_allocate(struct dra_allocator *a, const char *node,
	    const struct kube_node *n, const struct dra_claim_ref *claims,
	    size_t nclaims, struct dra_alloc_result *res,
	    struct dra_err *err);

/* Free what res owns and zero it.  NULL is a no-op. */
void	dra_alloc_result_free(struct dra_alloc_result *res);

/*
 * Treat the picks of res, a DRA_ALLOC_OK result of dra_allocate() on a,
 * as allocated from now on: the inverse of dra_allocator_release(),
 * for callers that place claims one after another (the planner's
 * first-fit baseline) instead of writing them back into the snapshot.
 * What the scheduler's allocated state would hold once the claims
 * carried res as their allocation (kube-scheduler 1.37
 * allocateddevices.go, foreachAllocatedDevice): each picked device is
 * in use (AllocatedDevices), or with DRAConsumableCapacity, when it
 * allows multiple allocations, shared (AllocatedSharedDeviceIDs) with
 * the capacity the pick consumed added to its AggregatedCapacity; the
 * counters the devices consume are taken from their counter sets for
 * every node, as for any allocated device.  Admin-access picks hold
 * nothing, as in the scheduler.
 *
 * Later dra_allocate() and dra_device_check() calls on a see the held
 * devices; dra_device_check() then reports DRA_CHECK_IN_USE with no
 * holders (no claim of the snapshot names them).  res is borrowed and
 * may be freed right after; its device pointers must come from a's
 * snapshot.  A result that is not DRA_ALLOC_OK, and NULL a or res, are
 * ignored.
 */
void	dra_allocator_hold(struct dra_allocator *a,
	    const struct dra_alloc_result *res);

/*
 * Undo dra_allocator_hold(a, res) for the same picks (res need not be
 * the same object, but must have been held on a before): their
 * devices, counters and capacity are free again.  For callers that
 * reuse one allocator for several states (the baseline swaps the
 * instances of nodes that share one node-shaped snapshot).  Unholding
 * picks that were never held leaves counts below zero: undefined.
 */
void	dra_allocator_unhold(struct dra_allocator *a,
	    const struct dra_alloc_result *res);

/*
 * The per-device checks, for explanations.  The first failing check in
 * the allocator's order (reachability and pool state first, then the
 * order of section 6.1: in use, class selectors, request selectors,
 * node selection, consumable capacity, counters, taints).
 */
enum dra_check {
	DRA_CHECK_OK,
	DRA_CHECK_NODE,			/* not reachable from the node */
	DRA_CHECK_POOL_INCOMPLETE,	/* pool is being updated */
	DRA_CHECK_POOL_INVALID,
	DRA_CHECK_STALE,		/* slice of an older generation */
	DRA_CHECK_IN_USE,		/* held by another claim */
	DRA_CHECK_CLASS_SELECTOR,	/* class selector #selector false */
	DRA_CHECK_REQUEST_SELECTOR,	/* request selector #selector false */
	DRA_CHECK_CEL_ERROR,		/* runtime error (message) */
	DRA_CHECK_CEL_UNSUPPORTED,	/* no verdict (message) */
	DRA_CHECK_CAPACITY,		/* consumable capacity too small */
	DRA_CHECK_COUNTERS,		/* a counter would go below zero */
	DRA_CHECK_TAINT,		/* untolerated taint */
	DRA_CHECK_FEATURE,		/* needs a DRA feature that is off */
	DRA_CHECK_CLASS_MISSING,	/* the DeviceClass does not exist */
};

/*
 * Evidence for a failed check.  Pointers borrow from the snapshot,
 * except holders (see below).
 */
struct dra_check_detail {
	enum dra_check			 check;
	/* SELECTOR, CEL_*: index of the selector in the class or request */
	size_t				 selector;
	/*
	 * IN_USE: the allocation results that hold d (admin-access and
	 * shareID results excluded, released claims excluded).  Owned by
	 * the allocator, valid until the next dra_device_check() on it.
	 */
	const struct kube_device_alloc	*holders;
	size_t				 nholders;
	const struct kube_counter_set	*set;		/* COUNTERS */
	size_t				 counter;	/* index in set */
	/*
	 * CAPACITY: the device capacity that does not fit, or NULL when
	 * the request names a capacity the device does not publish
	 * (message says which).  need: what the request consumes after
	 * requestPolicy rounding; left: capacity value minus what is
	 * already consumed.  COUNTERS: need is what d consumes of the
	 * counter, left what the counter set has left (may be negative).
	 * Both in milli units (kube_quantity.milli).
	 */
	const struct kube_capacity	*capacity;
	int64_t				 need;
	int64_t				 left;
	const struct kube_taint		*taint;		/* TAINT */
	/*
	 * CEL_ERROR, CEL_UNSUPPORTED, FEATURE, POOL_*, STALE, CAPACITY,
	 * CLASS_MISSING, NODE: text owned by the caller (free()), else
	 * NULL.
	 */
	char				*message;
};

/*
 * Check device d for request r (an exact request or a subrequest) of a
 * claim in namespace claim_ns, on node (and n, as for dra_allocate()),
 * against the allocator's current state (no devices picked yet).
 * Checks run in the order allocator_incubating.go's allocateOne,
 * isSelectable and allocateDevice run them (Kubernetes 1.37), after
 * reachability from the node and the pool's state (GatherPools):
 * NODE / POOL_INCOMPLETE / STALE / POOL_INVALID, CLASS_MISSING,
 * IN_USE (not for adminAccess), FEATURE (binding conditions while the
 * feature is off), CLASS_SELECTOR / REQUEST_SELECTOR / CEL_*, NODE
 * (per-device node selection), CAPACITY, FEATURE (counters while
 * partitionable devices are off), COUNTERS, TAINT.  Constraints are
 * not per-device and are not checked.
 * Fills *out (free out->message with free()) and returns out->check.
 */
enum dra_check dra_device_check(struct dra_allocator *a, const char *node,
	    const struct kube_node *n, const char *claim_ns,
	    const struct kube_device_request *r, const struct kube_device *d,
	    struct dra_check_detail *out);

/*
 * A short stable code for a check: "ok", "node", "pool-incomplete",
 * "pool-invalid", "stale", "in-use", "class-selector",
 * "request-selector", "cel-error", "cel-unsupported", "capacity",
 * "counters", "taint", "feature", "class-missing".  Static string.
 */
const char *dra_check_code(enum dra_check c);

/*
 * Only the selector step of dra_device_check(): whether d matches the
 * class selectors, then the request selectors of r (results cached as
 * the search caches them).  For explanations of devices that fail an
 * earlier check (a device in use: does it matter to this request?).
 * Returns DRA_CHECK_OK, DRA_CHECK_CLASS_SELECTOR or
 * DRA_CHECK_REQUEST_SELECTOR (out->selector says which),
 * DRA_CHECK_CEL_ERROR or DRA_CHECK_CEL_UNSUPPORTED (out->message, to be
 * freed), or DRA_CHECK_CLASS_MISSING.  Mirrors selectorsMatch of the
 * 1.37 allocator.
 */
enum dra_check dra_device_selected(struct dra_allocator *a,
	    const char *claim_ns, const struct kube_device_request *r,
	    const struct kube_device *d, struct dra_check_detail *out);

#endif
