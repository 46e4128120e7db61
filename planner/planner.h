/*
 * planner.h: the types every part of the planner (dra_plan) shares.
 *
 * The planner answers "how should these GPUs be cut, and how much of
 * each cut may each team have" as an integer program (GLPK).  Its
 * parts, one file and header each (docs/ARCHITECTURE.md):
 *
 *   catalog.c    the GPU model catalogue: MIG geometry per model,
 *                with sources (catalog.h)
 *   geometry.c   placements, feasibility, the per-GPU patterns (the
 *                feasible completions of a GPU), first-fit realisation
 *                (geometry.h)
 *   inventory.c  GPUs from a kube_snapshot (catalogue or geometry
 *                derived from partitionable devices) or from a
 *                synthetic fleet spec; the snapshot a plan realises
 *                (inventory.h)
 *   demand.c     the demand file: teams, workloads, caps, priorities,
 *                policy (demand.h)
 *   solve.c      the integer program over GPU classes, GLPK wrapped
 *                (solve.h)
 *   baseline.c   the first-fit baseline, by the structured allocator
 *                (baseline.h)
 *
 * Rules: no network (kube/client), no printing, no exit.  Errors fill
 * a struct dra_err (kube/util/err.h) naming the file, field or
 * position.  Memory: every struct below is owned by whoever made it
 * and freed by the matching *_free(); strings are malloc'd copies.
 */
#ifndef PLANNER_H
#define PLANNER_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

/* The profile name of the whole GPU (MIG off, or the full device). */
#define PLAN_WHOLE_GPU		"gpu"

/*
 * A MIG profile (or the whole GPU) of one GPU model.  compute and
 * memory count slices (GPCs and memory slices, NVIDIA-MIG.md section
 * 2); for the whole GPU they are the model's totals.
 */
struct plan_profile {
	char	*name;		/* the driver's `profile` attribute:
				   "3g.40gb", "1g.10gb+me"; "gpu" whole */
	int	 whole;		/* the whole GPU */
	int	 compute;	/* compute slices */
	int	 memory;	/* memory slices */
	int	 me;		/* takes the media extensions (+me) */
	int	 sm;		/* multiprocessors; 0 when unknown */
	int64_t	 memory_mib;	/* device memory, MiB */
	int	 gi_id;		/* GPU instance profile ID (device names);
				   -1 unknown or whole */
};

/*
 * One placement: a profile at a start position, as one partitionable
 * device of NVIDIA's dynamic MIG publishes it.  use[] is what it
 * consumes of each of the geometry's counters.
 */
struct plan_placement {
	int	 profile;	/* index into plan_geometry.profiles */
	int	 start;		/* first memory slice; 0 for the whole GPU */
	int64_t	*use;		/* ncounters long */
};

/*
 * The geometry of one GPU model: its counters (a counter set of
 * KEP-4815: memory-slice-0..N-1, multiprocessors, engines, ...), its
 * profiles and its placements.  Two placements may coexist on one GPU
 * when their use[] sums stay within capacity[] for every counter;
 * that is the whole rule, for the catalogue and for geometry derived
 * from ResourceSlices alike (NVIDIA-MIG.md section 3: "the DRA counter
 * model is exactly the placement model").
 *
 * placements[] are in first-fit order: the order the structured
 * allocator tries them, which is the driver's device-name order
 * within a GPU.
 */
struct plan_geometry {
	char			*model;		/* "H100-80GB"; derived:
						   the productName */
	char			*product;	/* productName attribute */
	char			*driver;	/* "gpu.nvidia.com" */
	int			 compute_slices; /* 7 or 4; 0 unknown */
	int			 memory_slices;	/* 8 or 4 */
	int			 sm;		/* whole GPU */
	int64_t			 memory_mib;	/* whole GPU */
	size_t			 ncounters;
	char			**counters;	/* names */
	int64_t			*capacity;	/* ncounters long */
	struct plan_profile	*profiles;
	size_t			 nprofiles;
	struct plan_placement	*placements;
	size_t			 nplacements;
	int			 derived;	/* from ResourceSlices */
	char			*source;	/* where its numbers come from */
};

/* How a GPU is partitioned on the cluster. */
enum plan_mig_mode {
	PLAN_MODE_DYNAMIC,	/* partitionable devices (DynamicMIG): the
				   scheduler creates instances on demand */
	PLAN_MODE_STATIC,	/* MIG instances made by mig-parted */
	PLAN_MODE_WHOLE,	/* published as a whole GPU only */
};

/* An instance that holds a running claim (pinned unless repartitioned). */
struct plan_instance {
	int	 placement;	/* index into the GPU's geometry */
	char	*namespace;	/* of the claim */
	char	*claim;		/* claim name */
};

/* One physical GPU. */
struct plan_gpu {
	char			*node;
	char			*name;		/* the whole GPU's device
						   name, "gpu-0" */
	size_t			 geometry;	/* into inventory geometries */
	enum plan_mig_mode	 mode;
	struct plan_instance	*running;	/* held by claims */
	size_t			 nrunning;
	int			*existing;	/* static MIG: instances
						   that exist now (placements),
						   running ones included */
	size_t			 nexisting;
	/*
	 * Device name per placement (nplacements long) when the GPU
	 * publishes them (derived geometry, dynamic MIG); NULL: names
	 * follow the driver's scheme, see plan_device_name().
	 */
	char			**devices;
	char			*pci_bus_id;	/* resource.kubernetes.io/pciBusID,
						   or NULL */
	/*
	 * A device of this GPU carries a NoSchedule or NoExecute taint
	 * (from its slice or a DeviceTaintRule): the workloads of a plan
	 * tolerate none, so nothing new is planned on it.
	 */
	int			 tainted;
};

/*
 * What the ResourceClaims that exist in a namespace already charge to
 * its ResourceQuota, allocated or pending (Kubernetes 1.37's
 * resource_claims.go evaluator: a claim's spec is charged, ExactCount
 * its count, All 32, firstAvailable the largest count per class of one
 * request).  device_class NULL: the claim objects themselves
 * (count/resourceclaims.resource.k8s.io).
 */
struct plan_usage {
	char	*namespace;
	char	*device_class;
	int64_t	 count;
};

/* The GPUs to plan for. */
struct plan_inventory {
	char			*source;	/* "fleet 16xH100-80GB", a
						   file name, a server */
	struct plan_geometry	**geometries;
	size_t			 ngeometries;
	struct plan_gpu		*gpus;		/* sorted by node, then
						   device name */
	size_t			 ngpus;
	int			 live;		/* from a cluster or snapshot
						   (not synthetic) */
	struct plan_usage	*usage;		/* existing claims' quota
						   charges, by namespace and
						   class; none for a fleet */
	size_t			 nusage;
};

/* How replicas of a workload may share one device (NVIDIA-MIG.md s5). */
enum plan_share {
	PLAN_SHARE_EXCLUSIVE,
	PLAN_SHARE_TIME_SLICING,
	PLAN_SHARE_MPS,
	PLAN_SHARE_MEMORY,	/* consumable memory share (KEP-5075) */
};

/*
 * One workload of a team: how many replicas (min guaranteed, max
 * wanted) and what each needs.  The need is exactly one of: a MIG
 * profile by name, a whole GPU, or a requirement (memory and SMs) that
 * the planner maps to the smallest fitting profile of each GPU model.
 */
struct plan_workload {
	char		*name;
	int64_t		 min;		/* replicas guaranteed */
	int64_t		 max;		/* replicas wanted, >= min */
	char		*profile;	/* "3g.40gb", or NULL */
	int		 whole;		/* a whole GPU */
	int64_t		 need_memory_mib; /* requirement, 0 none */
	int		 need_sm;	/* requirement, 0 none */
	char		*model;		/* only this catalogue model, NULL any */
	enum plan_share	 share;
	int		 per_device;	/* replicas per device when shared
					   (time-slicing, MPS: given;
					   memory: derived per model); 1 */
	int64_t		 share_memory_mib; /* PLAN_SHARE_MEMORY */
	char		*priority_class;  /* PriorityClass name, or NULL */
	int64_t		 priority;	/* its value; 0 when none */
	int		 line;		/* in the demand file, for messages */
};

/* A team: one namespace, its workloads and caps. */
struct plan_team {
	char			*namespace;
	struct plan_workload	*workloads;
	size_t			 nworkloads;
	int64_t			 cap_gpu_milli;	  /* at most this many GPUs,
						     in thousandths of a GPU
						     (compute share); -1 none */
	int64_t			 cap_memory_mib;  /* GPU memory; -1 none */
	int			 line;
};

struct plan_priority_class {
	char	*name;
	int64_t	 value;
};

/* Policy: money, headroom, what may be repartitioned, the solver. */
struct plan_policy {
	double		 price;		/* per GPU per month */
	char		*currency;	/* "RUB" */
	double		 target;	/* utilization target, 0..1 (0.80) */
	double		 ceiling;	/* utilization ceiling, 0..1 (0.95) */
	int		 repartition_running; /* GPUs holding running claims
						 may be cut anew */
	double		 time_limit;	/* seconds for the solver, > 0 */
	double		 mip_gap;	/* relative gap accepted, >= 0 */
	char		*device_class_prefix; /* "mig-" -> DeviceClass
						 "mig-3g.40gb" ... */
};

/* The demand file. */
struct plan_demand {
	char				*file;
	struct plan_team		*teams;
	size_t				 nteams;
	struct plan_priority_class	*priority_classes;
	size_t				 npriority_classes;
	struct plan_policy		 policy;
};

#endif
