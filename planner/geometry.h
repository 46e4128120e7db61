/*
 * geometry.h: placements on one GPU, their feasibility, first fit and
 * the per-GPU patterns (the instance mixes a GPU can still take).
 *
 * Everything here works on any struct plan_geometry (planner.h): from
 * the catalogue (catalog.h) or derived from the ResourceSlices a
 * driver publishes.  The one rule is the DRA counter rule: placements
 * may coexist on one GPU when, for every counter, the sum of their
 * use[] is at most the capacity, and a placement (a device) is taken
 * at most once (NVIDIA-MIG.md section 3: "the DRA counter model is
 * exactly the placement model").  Nothing assumes NVIDIA counter
 * names or 8 memory slices, except plan_device_name(), which writes
 * the NVIDIA driver's device names.
 *
 * First fit: the structured allocator walks a GPU's devices in the
 * order the driver publishes them, which is name order, and takes the
 * first that matches and fits (NVIDIA-MIG.md 1.3).  placements[] is in
 * that order, so "first fit" below means the first in placements[].
 *
 * Nothing here prints or exits; allocation failure is fatal
 * (xmalloc.h).
 */
#ifndef PLAN_GEOMETRY_H
#define PLAN_GEOMETRY_H

#include <stddef.h>

#include "err.h"
#include "planner.h"

/*
 * 1 when the n placements (indexes into g->placements) can coexist
 * on one GPU: each index is valid, none is listed twice, and for every
 * counter the sum of their use[] is within g->capacity.  0 otherwise.
 * n == 0 fits (placements may then be NULL).
 */
int	plan_placements_fit(const struct plan_geometry *g,
	    const int *placements, size_t n);

/*
 * The placement the structured allocator would take for one more
 * instance of profile (an index into g->profiles) on a GPU holding
 * the nocc placements in occupied: the first placement of that profile
 * in placements[] order that is not occupied and fits with the
 * occupied ones.  -1 when none does or profile is out of range.  The
 * occupied placements are taken as given, even if they do not fit
 * together.
 */
int	plan_first_fit(const struct plan_geometry *g, const int *occupied,
	    size_t nocc, int profile);

/* plan_patterns() flags. */
#define PLAN_PATTERN_FIRST_FIT	0x1

/*
 * One pattern: a mix of instances that can be added to a GPU, with one
 * concrete realisation.
 */
struct plan_pattern {
	int	*count;		/* g->nprofiles long: instances added per
				   profile, pinned ones excluded */
	int	*placements;	/* the added placements, in an arrival
				   order for which sequential
				   plan_first_fit() gives exactly these
				   (with PLAN_PATTERN_FIRST_FIT); NULL when
				   nothing is added */
	size_t	 nplacements;
	int	 compute;	/* compute slices in use, pinned included */
	int	 memory;	/* memory slices in use, pinned included */
};

/*
 * Every distinct count vector that can be added to one GPU of
 * geometry g already holding the npinned placements in pinned, each
 * with one realisation.  The empty vector ("nothing added") is always
 * there, and so is the whole GPU when nothing is pinned and g has one.
 *
 * Without flags, a vector is kept when some set of placements with
 * those counts fits together with the pinned ones; that is what
 * static MIG can have (mig-parted makes any layout), and the
 * realisation is such a set.  With PLAN_PATTERN_FIRST_FIT a vector is
 * kept only when some arrival order of its instances, each placed by
 * plan_first_fit() from the pinned state, ends with those counts; that
 * is what dynamic MIG can produce without departures, since the
 * scheduler places every instance first fit.  The realisation is that
 * arrival order (a shortest search from the pinned state over arrival
 * orders, memoised on the occupied set: exact, not a heuristic).
 *
 * On KUBE_OK, *out is a new array of *nout patterns (at least 1),
 * sorted by count vector (lexicographically, profile by profile, so
 * the empty vector comes first), which the caller frees with
 * plan_patterns_free().  Errors, with *out NULL and *nout 0:
 * KUBE_E_CONFIG when a pinned index is out of range or the pinned
 * placements do not fit together (the message names them as
 * "<profile>@<start>" and the counter that overflows); KUBE_E_TOOBIG
 * when the search passes 2,000,000 states (no catalogue geometry comes
 * near: an H100 needs a few thousand).  err may be NULL.
 */
int	plan_patterns(const struct plan_geometry *g, const int *pinned,
	    size_t npinned, unsigned flags, struct plan_pattern **out,
	    size_t *nout, struct dra_err *err);

/* Free n patterns from plan_patterns().  p may be NULL. */
void	plan_patterns_free(struct plan_pattern *p, size_t n);

/*
 * The NVIDIA driver's device name (v25.12 and later, static and
 * dynamic MIG alike, NVIDIA-MIG.md 1.3) of a placement on the GPU
 * whose whole device is gpu_name ("gpu-0"): the whole GPU is gpu_name
 * itself; a MIG placement is
 * "<gpu_name>-mig-<profile>-<GI profile ID>-<start>" with the profile
 * lowercased, its dots dropped and '+' written '-'
 * ("gpu-0-mig-3g40gb-9-4", "gpu-0-mig-1g10gb-me-20-0").
 *
 * Writes the NUL-terminated name into buf (len bytes) and returns buf;
 * returns NULL when placement is out of range, the profile's GI ID is
 * unknown (gi_id < 0 on a MIG profile), or the name does not fit in
 * len bytes.
 */
char	*plan_device_name(const struct plan_geometry *g,
	    const char *gpu_name, int placement, char *buf, size_t len);

/* The index of the profile named name (exact match) in g, or -1. */
int	plan_profile_index(const struct plan_geometry *g, const char *name);

/*
 * The profile of g that serves one device of workload w, or -1:
 *
 *  - w->model set (a catalogue name, alias or productName as
 *    plan_catalog_geometry() reads it): any other model gives -1.  It
 *    matches when it equals g->model case-insensitively or both name
 *    the same catalogue model (g->model, or g->product for a derived
 *    geometry);
 *  - w->profile: the profile of that exact name;
 *  - w->whole: the whole GPU (the first profile with whole set);
 *  - otherwise a requirement, need_memory_mib (MiB) and/or need_sm:
 *    the smallest MIG profile that meets both, by fewest compute
 *    slices, then fewest memory slices, then least memory_mib, then
 *    profile order; never a +me profile (only by name); the whole GPU
 *    only when no MIG profile meets it.  A profile whose sm or
 *    memory_mib is 0 (unknown) does not meet a requirement on that
 *    dimension.  No profile, whole or requirement at all gives -1.
 *
 * per_device (may be NULL) receives the replicas one device serves:
 * 1 for PLAN_SHARE_EXCLUSIVE; w->per_device (at least 1) for
 * time-slicing and MPS; for PLAN_SHARE_MEMORY the profile's
 * memory_mib / w->share_memory_mib rounded down, and when that is 0
 * (or either is unknown) *per_device is -1 and the function returns
 * -1.  On -1 for any other reason *per_device is -1 too.
 */
int	plan_profile_for(const struct plan_geometry *g,
	    const struct plan_workload *w, int *per_device);

#endif
