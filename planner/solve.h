/*
 * solve.h: the integer program of `kubectl dra plan`, solved by GLPK.
 *
 * The model's size depends on the number of distinct GPU situations,
 * never on the number of GPUs (PLANNER-NOTES.md): GPUs are grouped
 * into classes (same geometry, same pinned instances, same way of
 * being cut), each class gets the list of its feasible completions
 * (patterns, geometry.h), and one integer variable counts how many
 * GPUs of the class take each pattern.  Because the GPUs of a class
 * are interchangeable, this is also the symmetry breaking the issue
 * asks for: no two solutions differ by a permutation of identical
 * GPUs.  On an empty GPU the patterns are exactly the feasible count
 * vectors (NVIDIA-MIG.md section 3); on a GPU with running instances
 * they are enumerated from the placements, so the model is exact in
 * both cases.
 *
 * Variables: n[c][q] GPUs of class c taking pattern q; x[w][g] devices
 * of geometry g given to workload w (the profile plan_profile_for()
 * picks); r[w] replicas of w served, min <= r <= max; with
 * repartitioning allowed, patterns of an empty GPU on classes that hold
 * running instances, whose running instances must then be hosted
 * again by devices of their profile.
 * Constraints: per class, its GPU count; per (geometry, profile),
 * devices given out <= devices the patterns make; per workload,
 * r <= replicas-per-device x devices; per team, caps in GPUs (compute
 * share) and GPU memory, running instances included; the utilization
 * ceiling: compute in use <= ceiling x the fleet's compute.
 * Objectives, lexicographic, one GLPK solve each with the previous
 * optimum fixed: (1) maximise priority-weighted replicas served,
 * weight priority+1 per replica; (2) minimise GPUs in use; (3)
 * minimise GPUs holding running claims that are cut anew (only when
 * repartitioning is allowed); (3b) minimise GPUs that mig-parted must
 * cut differently from today (static and whole GPUs only: a static GPU
 * whose instances today hold its pattern keeps them).  Level (4),
 * spreading across nodes, does not change (1)-(3) (any assignment of a
 * class's patterns to its GPUs has the same objectives), so it is
 * applied when counts become GPUs: patterns go to GPUs node by node in
 * turn, and each workload's devices to the node where it has fewest.
 * It is a rule, not part of the proof.
 *
 * GLPK is wrapped: its error hook longjmps back and frees its
 * environment, its terminal output goes to the caller's progress
 * callback line by line, the caller's time limit and relative gap are
 * passed on, and the status says "optimal" only when every level was
 * proven optimal.
 */
#ifndef PLAN_SOLVE_H
#define PLAN_SOLVE_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "planner.h"

enum plan_status {
	PLAN_OPTIMAL,		/* every level proven optimal (within gap 0) */
	PLAN_FEASIBLE,		/* a plan, not proven optimal: gap says how
				   far it may be (time limit or gap > 0) */
	PLAN_INFEASIBLE,	/* the minimums cannot be met: reasons */
	PLAN_NO_SOLUTION,	/* time limit before any plan was found */
};

/* Seconds on the monotonic clock, for the solver's and the replay's
   timings (differences only). */
double	plan_seconds(void);

/* "optimal", "feasible", "infeasible", "no-solution". */
const char *plan_status_name(enum plan_status st);

struct plan_solve_opts {
	double		 time_limit;	/* seconds, all levels together;
					   <= 0: the demand's policy */
	double		 mip_gap;	/* < 0: the demand's policy */
	/*
	 * Called with each line GLPK writes (without its newline) and
	 * with the planner's own progress lines; NULL discards them.
	 */
	void		(*progress)(void *arg, const char *line);
	void		*progress_arg;
};

/* Owner of an instance in a plan. */
enum plan_owner_kind {
	PLAN_OWNER_SPARE,	/* made by the layout, nobody's (static MIG
				   creates it; dynamic MIG never does) */
	PLAN_OWNER_WORKLOAD,	/* a device of a workload */
	PLAN_OWNER_RUNNING,	/* a running claim, kept in place */
	PLAN_OWNER_MOVED,	/* a running claim, re-placed here */
};

struct plan_slot {
	int			 placement;	/* into the GPU's geometry */
	enum plan_owner_kind	 kind;
	size_t			 team;		/* WORKLOAD */
	size_t			 workload;	/* WORKLOAD: in its team */
	const struct plan_instance *running;	/* RUNNING, MOVED: borrowed
						   from the inventory */
	int			 replicas;	/* WORKLOAD: replicas this
						   device serves */
};

/* The plan for one GPU of the inventory (same index). */
struct plan_gpu_layout {
	struct plan_slot	*slots;		/* running first, then the
						   added instances in the
						   order their claims must
						   arrive (first fit) */
	size_t			 nslots;
	int			 used;		/* holds an instance */
	int			 headroom;	/* kept in service, empty */
	int			 rebuilt;	/* held running claims and is
						   cut anew */
	int			 changed;	/* static MIG: its instances
						   differ from today's */
};

/* Devices of one geometry and profile given to one workload. */
struct plan_grant {
	size_t	 team;
	size_t	 workload;	/* in its team */
	size_t	 geometry;	/* into the inventory's geometries */
	int	 profile;	/* into that geometry's profiles */
	int64_t	 devices;
	int64_t	 replicas;	/* replicas they serve */
};

/* One level of the lexicographic objective. */
struct plan_level {
	const char	*name;		/* "served", "gpus", "reconfigured",
					   "changed" */
	double		 value;
	double		 bound;		/* best bound known (= value when
					   proven) */
	double		 gap;		/* relative, 0 when proven */
	int		 proven;
	double		 seconds;
};

/* A reason the minimums cannot be met, in words. */
struct plan_reason {
	char	*text;	/* "team-a/llm needs 10 x 3g.40gb; the fleet
			   holds at most 8" */
	char	*constraint; /* "min", "cap-gpus", "cap-memory",
				"ceiling", "no-profile" */
};

struct plan_result {
	enum plan_status	 status;
	double			 gap;		/* worst level's gap */
	double			 seconds;	/* solver wall time */
	struct plan_level	 levels[4];
	size_t			 nlevels;	/* solved */

	/* Per team t, workload i: served[t][i] replicas, devices[t][i]. */
	int64_t			**served;
	int64_t			**devices;
	/* What each workload gets, per GPU geometry (devices > 0 only). */
	struct plan_grant	*grants;
	size_t			 ngrants;

	struct plan_gpu_layout	*gpus;		/* inventory order */
	size_t			 ngpus;
	size_t			 gpus_used;
	size_t			 gpus_headroom;	/* kept for the target */
	size_t			 gpus_rebuilt;
	double			 load;		/* GPUs' worth of compute in
						   use (running included) */
	double			 utilization;	/* load / (used + headroom) */

	struct plan_reason	*reasons;	/* INFEASIBLE */
	size_t			 nreasons;

	/* Size of the integer program, for the record. */
	size_t			 nclasses;
	size_t			 npatterns;
	size_t			 ncols;
	size_t			 nrows;
};

/*
 * Plan inv for d.  Returns KUBE_OK with *out filled whatever the
 * status (INFEASIBLE carries reasons; NO_SOLUTION no layout), or
 * KUBE_E_CONFIG with err set when the input cannot be planned (a
 * running instance whose placements do not fit together, more
 * workloads or classes than GLPK can index) or GLPK itself failed
 * (its message).  inv and d are borrowed and must outlive *out (slots
 * point at the inventory's running instances).  Free *out with
 * plan_result_free().
 */
int	plan_solve(const struct plan_inventory *inv,
	    const struct plan_demand *d, const struct plan_solve_opts *opts,
	    struct plan_result **out, struct dra_err *err);

void	plan_result_free(struct plan_result *r);

#endif
