/*
 * gpus.h: the GPU map, the model of the UI's GPU view (and of the
 * plan preview): the cluster's GPUs node by node, each GPU a bar of
 * its memory slices with the partitions placed on it and the claim
 * holding each.
 *
 * A GPU is a partitionable device's counter set (NVIDIA DynamicMIG:
 * one counter set per physical GPU, each MIG device consuming
 * memory-slice counters), a static MIG parent with its MIG devices
 * (productName, catalogue geometry), or a whole device with no
 * partitions (one slice).  The placement of a partition (which memory
 * slices) comes from planner/inventory.c's derivation, so the UI, the
 * planner and `why` agree on geometry.  Pure: reads a finished
 * snapshot or a Plan document, prints nothing.
 */
#ifndef DRA_VIEWS_GPUS_H
#define DRA_VIEWS_GPUS_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "err.h"
#include "model.h"
#include "views.h"

struct cJSON;

/* The utilization policy of the planner's defaults (PLAN-DEMAND.md). */
#define DRA_GPU_UTIL_TARGET	0.80
#define DRA_GPU_UTIL_CEILING	0.95

enum dra_gpu_part_state {
	DRA_PART_FREE,		/* published, not allocated */
	DRA_PART_ALLOCATED,	/* allocated to claim */
	DRA_PART_PLANNED,	/* plan preview: an instance the plan adds */
	DRA_PART_BLOCKED,	/* free but its counters are used up by an
				   overlapping allocated partition */
	DRA_PART_TAINTED,	/* NoSchedule/NoExecute taint */
};

/*
 * One partition (a MIG device, or the whole GPU) on a GPU.  Strings
 * live in the map's arena; claim_obj and device_obj are borrowed from
 * the snapshot (valid until kube_snapshot_free).
 *
 * State: ALLOCATED when a claim holds it (admin access does not
 * count); a part nobody holds is TAINTED when its device has a
 * NoSchedule/NoExecute taint, else BLOCKED when its counter set is
 * used up, else FREE.  An allocated part stays ALLOCATED even when
 * tainted (its GPU's tainted flag says so).  Plans: PLANNED (a
 * workload's new instance), ALLOCATED (running or moved claims), FREE
 * (a static spare).
 */
struct dra_gpu_part {
	const char		*device;	/* device name; never NULL (a
						   plan instance without one:
						   "<profile>@<start>") */
	const char		*profile;	/* MIG profile "3g.40gb", or
						   NULL for the whole GPU */
	int			 start;		/* first memory slice */
	int			 size;		/* memory slices, >= 1;
						   start + size <= nslices */
	int			 compute;	/* compute slices (the
						   profile's N of "<N>g."; the
						   whole GPU: compute_total;
						   unknown: size) */
	enum dra_gpu_part_state	 state;
	const char		*claim;		/* "ns/name" holding it (the
						   first of several), for a
						   PLANNED part the workload
						   "ns/workload"; or NULL */
	const char		*namespace;	/* the claim's namespace (the
						   team), or NULL */
	const struct kube_claim	*claim_obj;	/* borrowed from the
						   snapshot; NULL for plans */
	const struct kube_device *device_obj;	/* NULL for plans */
	int			 shared;	/* claims holding it: 0 free,
						   1, or >1 when shared
						   (allowMultipleAllocations:
						   time-slicing/MPS/consumable
						   capacity); a PLANNED part:
						   the replicas it serves */
};

/*
 * One physical GPU.  Partitions do not overlap; memory slices no part
 * covers are free (drawn as gaps).  Dynamic MIG lists allocated
 * instances only: the overlapping published-but-free placements are
 * not parts.
 */
struct dra_gpu {
	const char		*node;
	const char		*name;		/* whole-GPU device or counter
						   set name ("gpu-0") */
	const char		*driver;	/* "" in plan maps */
	const char		*pool;		/* "" in plan maps */
	const char		*model;		/* productName, else the
						   geometry's model, else "" */
	const char		*pci_bus_id;	/* or NULL */
	const char		*mode;		/* "whole", "mig-static",
						   "mig-dynamic" */
	int			 nslices;	/* memory slices (8 on an H100,
						   1 when not partitioned:
						   mode "whole") */
	int			 compute_total;	/* compute slices (7 on an H100,
						   1 when whole): the largest
						   "<N>g." profile, or a
						   counter named *compute*
						   when larger; else the
						   memory slices */
	int			 compute_used;	/* held by ALLOCATED and
						   PLANNED parts (a shared part
						   counts once) */
	int			 slices_used;	/* memory slices held */
	double			 util;		/* compute_used / total, 0..1 */
	int			 tainted;	/* a device of it has a
						   NoSchedule/NoExecute taint
						   (the planner plans nothing
						   new on it); 0 in plans */
	struct dra_gpu_part	*parts;		/* by start slice */
	size_t			 nparts;
};

struct dra_gpu_node {
	const char		*name;
	struct dra_gpu		*gpus;		/* by name, natural order */
	size_t			 ngpus;
	double			 util;		/* mean over its GPUs */
};

struct dra_gpu_map {
	struct dra_gpu_node	*nodes;		/* by name, natural order
						   ("n-2" before "n-10") */
	size_t			 nnodes;
	size_t			 ngpus;
	size_t			 nparts;
	size_t			 nallocated;	/* parts held by a claim
						   (ALLOCATED or PLANNED) */
	double			 util;		/* fleet mean, 0..1 */
	const char		**warnings;	/* the inventory's (GPUs or
						   instances left out: a
						   product the catalogue does
						   not know, an invalid pool),
						   lowercase, for a status
						   line; not its note on a
						   tainted GPU (the map marks
						   it); none for plans */
	size_t			 nwarnings;
	struct dra_arena	 arena;		/* everything above */
};

/*
 * The GPU map of a finished snapshot (borrowed; it must outlive the
 * map, whose parts point into it).
 *
 * Which GPUs (planner/inventory.h plan_inventory_from_snapshot, so the
 * map and the planner agree): every counter set that partitionable
 * devices consume, any driver (mode "mig-dynamic"); gpu.nvidia.com
 * devices without counters: static MIG parents with their MIG devices
 * ("mig-static", the catalogue geometry of the productName) and whole
 * GPUs ("whole").  Besides those, every other device that consumes no
 * counters, is not of type "mig", and has type "gpu" or (with no type
 * attribute) a driver whose first label is "gpu" (gpu.example.com,
 * gpu.intel.com) is a whole GPU; NICs and the like are not GPUs.
 *
 * f (may be NULL: everything): f->names keeps the GPUs of these nodes
 * (setting f->matched); f->selector tests the labels of the Node
 * object (a node without one has none); f->namespace does not filter:
 * a GPU is shown whole, its parts of every namespace with their claims,
 * so free space and neighbours stay visible (the UI highlights the
 * namespace).  The counts and utilizations cover the GPUs kept.
 *
 * Returns a new map (free with dra_gpu_map_free), or NULL with err
 * filled (KUBE_E_CONFIG) when s is NULL or not finished.  A snapshot
 * without GPUs gives an empty map, not an error.  Cost: linear in the
 * devices (plus the inventory's derivation): 1,300 H100 GPUs with
 * 34,000 devices in a few tens of milliseconds.
 */
struct dra_gpu_map *dra_gpu_map(const struct kube_snapshot *s,
	    const struct dra_filter *f, struct dra_err *err);

/*
 * The layout a Plan document proposes (views/plan.h, PLAN-FORMAT.md
 * status.layout), as a GPU map: per node and GPU each instance, with
 * its start, memorySlices, profile ("gpu": the whole GPU, profile
 * NULL) and owner: `workload` instances are DRA_PART_PLANNED (claim
 * "ns/workload", shared its replicas), `running` and `moved` ones
 * DRA_PART_ALLOCATED with their claim, `spare` ones DRA_PART_FREE.
 * Compute slices of a GPU: spec.inventory.models[].computeSlices of
 * its model (and mode), else the catalogue's, else its memory slices.
 * A GPU in mode "whole" whose instances are whole GPUs (or none) is
 * one slice and one compute unit, as dra_gpu_map draws a whole GPU,
 * and without an instance it has one DRA_PART_FREE part.
 * A plan without a layout (infeasible) gives an empty map.  The
 * document is read by plan-read.c's pv_read (the same checks as the
 * plan table and SVG); plan is borrowed and may be deleted after:
 * the map copies what it keeps.  NULL with err (KUBE_E_PARSE) naming
 * the field by its path ("status.layout[0].gpus[1].instances[2].start:
 * expected an integer") when the document is malformed.
 */
struct dra_gpu_map *dra_gpu_map_plan(const struct cJSON *plan,
	    struct dra_err *err);

/*
 * Match plan (a map of dra_gpu_map_plan) with today (a map of
 * dra_gpu_map, or NULL) by node and GPU name: a GPU tainted today is
 * tainted in the plan too (the planner puts nothing new there, and a
 * plan document does not say it), drawn as today's map draws it: its
 * free parts DRA_PART_TAINTED, and a GPU without parts one
 * DRA_PART_TAINTED part over all its slices.  Counts and utilization
 * do not change.  Returns how many of the plan's nodes today's map has
 * a GPU of (0: the plan is for other nodes, such as a synthetic fleet
 * of `kubectl dra plan --fleet`).  Call it once per plan map.
 */
size_t	dra_gpu_map_match(struct dra_gpu_map *plan,
	    const struct dra_gpu_map *today);

/* Free m; NULL is a no-op. */
void	dra_gpu_map_free(struct dra_gpu_map *m);

#endif
