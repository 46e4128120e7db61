/*
 * baseline.h: the first-fit baseline of `kubectl dra plan` (issue 5):
 * what kube-scheduler would do with the same demand on dynamic MIG,
 * computed with the structured allocator of kube/dra (alloc.h), so the
 * plan can say what optimisation gains.
 *
 * Model.  Every GPU of the inventory is published as NVIDIA's driver
 * publishes it with DynamicMIG, whatever its mode today: one device per
 * placement of its geometry, sorted by name, consuming the GPU's
 * counter set (inventory.h, plan_inventory_snapshot_gpus()).  Running
 * instances are held from the start; static instances that nobody
 * uses do not exist on dynamic MIG and are ignored.  Instances arrive
 * one at a time, in the given order, and never leave.  Each becomes a
 * ResourceClaim of one request, exactly one device: class
 * PLAN_CLASS_MIG with the selector
 * device.attributes['gpu.nvidia.com'].profile == '<profile>' (and
 * productName == '<product>' when another geometry of the inventory
 * has a profile of that name and another product), or PLAN_CLASS_GPU
 * for the whole GPU; for a driver D other than gpu.nvidia.com, class D
 * with the same selectors in D's domain.  It is allocated with
 * dra_allocate() on the nodes that hold GPUs of its geometry, in
 * inventory order (node name, byte-wise): the first node where the
 * allocator finds a device wins, and the allocator's own first fit
 * picks the device there (GPUs in name order, each GPU's devices in
 * name order, the lowest free placement first).  That is first fit
 * across nodes, the most packing-friendly choice the scheduler could
 * make: the real kube-scheduler filters every node and scores them
 * (NodeResourcesFit, spreading), so it packs no better.  The picked
 * device is then held (dra_allocator_hold()).
 *
 * Scale.  A snapshot of a whole 100,000-GPU fleet would hold 2.6 M
 * devices (some 20 s and 4 GB), so the baseline never builds one.
 * Nodes with the same GPUs (names and geometries, in order) share one
 * node-shaped snapshot and one allocator; the allocator holds the
 * instances of one node at a time, and moving to another node of the
 * same shape gives back the old node's picks (dra_allocator_unhold())
 * and holds the new node's.  At most PLAN_BASELINE_MAX_SHAPES shapes
 * are kept; the least recently used is rebuilt when needed.  A cursor
 * per (geometry, profile) remembers the first node that may still take
 * the profile: a node that cannot take it now never will (instances
 * only arrive), so each node is refused at most once per profile and
 * the run is O(items + nodes x profiles) allocations, not quadratic.
 * Measured on 2 cores (PLAN_BASELINE_BENCH in test_baseline.c; H100,
 * 8 per node, 3.27 instances per GPU): 1,000 GPUs in 0.04-0.09 s,
 * 10,000 in 0.4-0.8 s, 100,000 in 3.6-7.5 s (about 20 us per
 * allocation), 78 MB; a shape costs about 1.5 MB and, for 8 H100, 3 ms
 * to build.
 *
 * Nothing here prints; allocation failure is fatal (xmalloc.h).
 */
#ifndef PLAN_BASELINE_H
#define PLAN_BASELINE_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "planner.h"

/* Node-shaped snapshots (and allocators) kept at once. */
#define PLAN_BASELINE_MAX_SHAPES	64

/* One instance to place, in arrival order. */
struct plan_baseline_item {
	const char	*profile;	/* a profile name of the geometry
					   ("3g.40gb", PLAN_WHOLE_GPU);
					   borrowed */
	size_t		 geometry;	/* index into inv->geometries: only
					   GPUs of it may take the item */
	const char	*namespace;	/* the team, for the caller; borrowed,
					   may be NULL */
	size_t		 workload;	/* the caller's index, carried */
	int		 memory;	/* memory slices of the profile
					   (plan_profile.memory): the key of
					   PLAN_ORDER_SMALL_FIRST and
					   PLAN_ORDER_LARGE_FIRST, unused by
					   plan_baseline() */
};

/* Where one item went. */
struct plan_baseline_place {
	int	 placed;	/* 0: no node could take it */
	size_t	 gpu;		/* index into inv->gpus */
	int	 placement;	/* index into that GPU's geometry */
	char	*device;	/* the device name the allocator picked */
};

struct plan_baseline_result {
	/* Where each item went: nplaces == nitems, in item order. */
	struct plan_baseline_place	*places;
	size_t				 nplaces;
	size_t				 placed;
	size_t				 unplaced;
	/* GPUs holding at least one instance, running ones included. */
	size_t				 gpus_used;
	/* The same per geometry (ngeometries == inv->ngeometries). */
	size_t				*gpus_used_by_geometry;
	size_t				 ngeometries;
	/* Work done, for measurements: dra_allocate() calls, snapshots. */
	uint64_t			 attempts;
	size_t				 snapshots;
};

/*
 * Place items[0..nitems) on inv one after another, as the file comment
 * says.  out is filled (free it with plan_baseline_result_free(), also
 * after an error).
 *
 * Returns KUBE_OK (items that fit nowhere are unplaced, not an error),
 * or KUBE_E_CONFIG with err naming the item ("baseline: item 3:
 * profile \"5g.50gb\" is not a profile of H100-80GB", "baseline: item
 * 0: geometry 4 is out of range") or the allocator's error or missing
 * verdict on a node ("baseline: item 7 on node n: ..."), which a
 * snapshot made by inventory.c should never give.  err may be NULL.
 */
int	plan_baseline(const struct plan_inventory *inv,
	    const struct plan_baseline_item *items, size_t nitems,
	    struct plan_baseline_result *out, struct dra_err *err);

/* Free what r owns and zero it.  NULL is a no-op. */
void	plan_baseline_result_free(struct plan_baseline_result *r);

/* Arrival orders for plan_baseline_order(). */
enum plan_order {
	PLAN_ORDER_GIVEN,	/* as given */
	PLAN_ORDER_SMALL_FIRST,	/* fewest memory slices first */
	PLAN_ORDER_LARGE_FIRST,	/* most memory slices first */
	PLAN_ORDER_RANDOM,	/* a seeded shuffle */
};

/*
 * Reorder items[0..n) in place.  The size orders sort by the items'
 * memory, stably (equal sizes keep their order).  PLAN_ORDER_RANDOM is
 * a Fisher-Yates shuffle driven by xorshift64* seeded with seed (0 is
 * replaced by a fixed non-zero constant): the same seed gives the same
 * order on every platform.  An unknown order leaves items as they are.
 */
void	plan_baseline_order(struct plan_baseline_item *items, size_t n,
	    enum plan_order order, uint64_t seed);

#endif
