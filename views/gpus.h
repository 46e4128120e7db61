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

/* One partition (a MIG device, or the whole GPU) on a GPU. */
struct dra_gpu_part {
	const char		*device;	/* device name */
	const char		*profile;	/* MIG profile "3g.40gb", or
						   NULL for the whole GPU */
	int			 start;		/* first memory slice */
	int			 size;		/* memory slices */
	int			 compute;	/* compute slices */
	enum dra_gpu_part_state	 state;
	const char		*claim;		/* "ns/name" holding it, or
						   NULL */
	const char		*namespace;	/* the claim's namespace (the
						   team), or NULL */
	const struct kube_claim	*claim_obj;	/* borrowed from the
						   snapshot; NULL for plans */
	const struct kube_device *device_obj;	/* NULL for plans */
	int			 shared;	/* claims sharing it (>1:
						   time-slicing/MPS/consumable
						   capacity) */
};

/* One physical GPU. */
struct dra_gpu {
	const char		*node;
	const char		*name;		/* whole-GPU device or counter
						   set name */
	const char		*driver;
	const char		*pool;
	const char		*model;		/* productName or "" */
	const char		*pci_bus_id;	/* or NULL */
	const char		*mode;		/* "whole", "mig-static",
						   "mig-dynamic" */
	int			 nslices;	/* memory slices (8 on an H100,
						   1 when not partitioned) */
	int			 compute_total;	/* compute slices (7 on an H100,
						   1 when whole) */
	int			 compute_used;	/* held by allocated parts */
	int			 slices_used;	/* memory slices held */
	double			 util;		/* compute_used / total, 0..1 */
	int			 tainted;
	struct dra_gpu_part	*parts;		/* by start slice */
	size_t			 nparts;
};

struct dra_gpu_node {
	const char		*name;
	struct dra_gpu		*gpus;		/* by device name, natural order */
	size_t			 ngpus;
	double			 util;		/* mean over its GPUs */
};

struct dra_gpu_map {
	struct dra_gpu_node	*nodes;		/* by name */
	size_t			 nnodes;
	size_t			 ngpus;
	size_t			 nparts;
	size_t			 nallocated;	/* parts held by a claim */
	double			 util;		/* fleet mean, 0..1 */
	struct dra_arena	 arena;		/* everything above */
};

/*
 * The GPU map of a finished snapshot.  f filters nodes' GPUs by the
 * namespace of the claims holding parts (f->namespace: GPUs with no
 * part of that namespace are still listed, their foreign parts shown)
 * and by names (node names); NULL: everything.  Returns a new map (free
 * with dra_gpu_map_free), or NULL with err filled when the snapshot's
 * devices cannot be read as GPUs (a broken counter geometry).  A
 * snapshot without GPUs gives an empty map, not an error.
 */
struct dra_gpu_map *dra_gpu_map(const struct kube_snapshot *s,
	    const struct dra_filter *f, struct dra_err *err);

/*
 * The layout a Plan document proposes (views/plan.h, PLAN-FORMAT.md
 * status.layout), as a GPU map: parts the plan adds are
 * DRA_PART_PLANNED, running ones DRA_PART_ALLOCATED with their claim.
 * plan is borrowed.  NULL with err naming the field when the document
 * is malformed.
 */
struct dra_gpu_map *dra_gpu_map_plan(const struct cJSON *plan,
	    struct dra_err *err);

/* Free m; NULL is a no-op. */
void	dra_gpu_map_free(struct dra_gpu_map *m);

#endif
