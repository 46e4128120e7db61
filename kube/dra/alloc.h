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
 * State comes from a finished struct kube_snapshot (kube/model): the
 * devices that allocated claims hold (admin-access results excluded),
 * the counters they consume in each pool (on every node), and the
 * consumable capacity they use.
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
/* What kube-scheduler 1.37 runs with by default. */
#define DRA_FEATURES_1_37		0x3f

/* Default bound on search work: devices tried, summed over a search. */
#define DRA_ALLOC_MAX_STEPS		1000000

struct dra_alloc_opts {
	unsigned	features;	/* DRA_FEATURE_* bits */
	uint64_t	max_steps;	/* 0: DRA_ALLOC_MAX_STEPS */
};

struct dra_allocator;

/*
 * Build an allocator over s (finished; borrowed).  opts may be NULL
 * (DRA_FEATURES_1_37, the default bound).  Compiles every DeviceClass
 * and request selector once (kube/dra/cel.h).
 *
 * Returns KUBE_OK and *out, or KUBE_E_* with err set (out of range
 * options).  Compile errors are not returned here: they surface when
 * a request that uses the expression is allocated or checked.
 */
int	dra_allocator_new(const struct kube_snapshot *s,
	    const struct dra_alloc_opts *opts, struct dra_allocator **out,
	    struct dra_err *err);

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
	 * ERROR only: non-zero when the error fails the pod on every node
	 * (a CEL runtime error, a missing DeviceClass, All on an incomplete
	 * pool reachable from every node) rather than on this node alone
	 * ("invalid resource pools were encountered").
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
 * Returns KUBE_OK with *res filled (status says the outcome), or
 * KUBE_E_* with err set on misuse (the snapshot is not finished).
 * Free *res with dra_alloc_result_free().
 */
int	dra_allocate(struct dra_allocator *a, const char *node,
	    const struct kube_node *n, const struct dra_claim_ref *claims,
	    size_t nclaims, struct dra_alloc_result *res,
	    struct dra_err *err);

void	dra_alloc_result_free(struct dra_alloc_result *res);

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

/* Evidence for a failed check.  Pointers borrow from the snapshot. */
struct dra_check_detail {
	enum dra_check			 check;
	size_t				 selector;	/* SELECTOR/CEL_* */
	const struct kube_device_alloc	*holders;	/* IN_USE */
	size_t				 nholders;
	const struct kube_counter_set	*set;		/* COUNTERS */
	size_t				 counter;	/* index in set */
	const struct kube_capacity	*capacity;	/* CAPACITY */
	int64_t				 need;		/* milli */
	int64_t				 left;		/* milli */
	const struct kube_taint		*taint;		/* TAINT */
	/* CEL_ERROR, CEL_UNSUPPORTED, FEATURE, POOL_*: owned text */
	char				*message;
};

/*
 * Check device d for request r (an exact request or a subrequest) of a
 * claim in namespace claim_ns, on node (and n, as for dra_allocate()),
 * against the allocator's current state (no devices picked yet).
 * Fills *out (free out->message with free()) and returns out->check.
 */
enum dra_check dra_device_check(struct dra_allocator *a, const char *node,
	    const struct kube_node *n, const char *claim_ns,
	    const struct kube_device_request *r, const struct kube_device *d,
	    struct dra_check_detail *out);

/* A short stable code for a check ("in-use", "counters", ...). */
const char *dra_check_code(enum dra_check c);

#endif
