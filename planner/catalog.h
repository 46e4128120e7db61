/*
 * catalog.h: the GPU model catalogue of the planner, the MIG geometry
 * of each NVIDIA model as a struct plan_geometry (planner.h).
 *
 * Models: A30-24GB, A100-40GB, A100-80GB, H100-80GB, H100-NVL,
 * H200, B200, GB200, RTX-PRO-6000.  Every number comes from
 * ../shared/docs/NVIDIA-MIG.md (sections 1.5-1.7, 2.1-2.3, 3) or,
 * for the H100-80GB engine and MiB counters, from what
 * bench/gen/gen_fleet.c publishes; docs/GPU-CATALOG.md has one table
 * per model with the source of each number, and the comment above
 * each model in catalog.c says the same.  Numbers the sources do not
 * give are 0 (SM, MiB), never guessed.
 *
 * A catalogue geometry is what NVIDIA's DynamicMIG would publish for
 * one GPU of the model (NVIDIA-MIG.md 1.6):
 *
 *  - counters: memory-slice-0 .. memory-slice-<N-1> (capacity 1 each,
 *    N = 8, or 4 on A30 and RTX PRO); ofa-engines (capacity 1: the
 *    +me profiles and the full-size profile take it, section 3 rule
 *    4); and, only where every profile's value is known for the model,
 *    multiprocessors, copy-engines, decoders, encoders, jpeg-engines
 *    and memory (MiB, only from exact MiB figures).  A counter whose
 *    value is unknown for some profile is left out, so feasibility
 *    never rests on an invented number.  A capacity is the maximum
 *    over the profiles (the full-size profile's value).
 *  - profiles: the MIG profiles of sections 2.1-2.3 in table order
 *    (1g, 1g+me, 1g double memory, 2g, 3g, 4g, 7g; on the 4/4
 *    family 1g, 1g+me, 2g, 2g+me (A30 only), 4g), then the whole GPU
 *    PLAN_WHOLE_GPU ("gpu", whole = 1, the model's slice totals, the
 *    full-size profile's SM and MiB as section 1.5 says the full GPU
 *    carries with DynamicMIG).
 *  - placements: one per (profile, start) of section 2.1 / 2.3, plus
 *    the whole GPU, which consumes the full capacity of every counter;
 *    in the driver's device-name order within one GPU (byte-wise
 *    string order of gpu-0, gpu-0-mig-<profile>-<giid>-<start>,
 *    NVIDIA-MIG.md 1.3), which is the structured allocator's first-fit
 *    order.  H100-80GB: 26 placements (25 MIG devices and gpu-0) with
 *    15 counters, exactly the devices and counter values gen_fleet.c
 *    publishes per GPU.
 */
#ifndef PLAN_CATALOG_H
#define PLAN_CATALOG_H

#include <stddef.h>

#include "err.h"
#include "planner.h"

/* The number of models in the catalogue (9). */
size_t		 plan_catalog_count(void);

/*
 * The canonical name of model i, 0 <= i < plan_catalog_count(), in
 * catalogue order ("A30-24GB", "A100-40GB", "A100-80GB", "H100-80GB",
 * "H100-NVL", "H200", "B200", "GB200", "RTX-PRO-6000"); NULL when i is
 * out of range.  The string is static.
 */
const char	*plan_catalog_name(size_t i);

/*
 * Build the geometry of one catalogue model into *out.
 *
 * model is matched case-insensitively against, in this order: the
 * canonical names; the aliases ("A30", "H100" for H100-80GB,
 * "H100-94GB" for H100-NVL, "H200-141GB", "B200-180GB",
 * "GB200-186GB", "RTX-PRO-6000-Blackwell", "RTXPRO6000"); and last the
 * productName rules of plan_catalog_for_product(), so "NVIDIA H100
 * 80GB HBM3" or "A100-SXM4-40GB" name a model too.  "A100" alone is
 * ambiguous and unknown.
 *
 * Returns KUBE_OK and a new geometry that the caller frees with
 * plan_geometry_free(); its model is the canonical name, product the
 * model's usual productName, driver "gpu.nvidia.com", derived 0 and
 * source a sentence naming where the numbers come from.  An unknown
 * model returns KUBE_E_CONFIG, leaves *out NULL and says
 * 'unknown GPU model "X" (known: A30-24GB, A100-40GB, ...)' in err
 * (which may be NULL).
 */
int		 plan_catalog_geometry(const char *model,
		    struct plan_geometry **out, struct dra_err *err);

/*
 * The catalogue model of a productName attribute (NVIDIA-MIG.md 1.4),
 * or NULL when it names no catalogue model.  Rules, the first that
 * matches wins; a word matches when it occurs case-insensitively and
 * no letter or digit adjoins it ("B200" is not in "GB200", "A30" not
 * in "RTX A3000"):
 *
 *   GH200                     -> NULL (H100 96GB / 144GB: not here)
 *   H100 and NVL              -> H100-NVL
 *   H100 and 94GB             -> H100-NVL (same profiles, section 2.2)
 *   H100 and 96GB             -> NULL
 *   H100                      -> H100-80GB ("NVIDIA H100 80GB HBM3",
 *                                "NVIDIA H100 PCIe")
 *   H200                      -> H200 (SXM and NVL, 141GB)
 *   A100 and 80GB             -> A100-80GB ("NVIDIA A100-SXM4-80GB",
 *                                "NVIDIA A100 80GB PCIe")
 *   A100 and 40GB             -> A100-40GB ("NVIDIA A100-SXM4-40GB",
 *                                "NVIDIA A100-PCIE-40GB")
 *   GB200                     -> GB200
 *   B200                      -> B200
 *   A30                       -> A30-24GB ("NVIDIA A30")
 *   RTX PRO 6000 and Blackwell -> RTX-PRO-6000 (Server, Workstation
 *                                and Max-Q editions, section 2.3)
 *
 * The returned string is static.  product may be NULL (returns NULL).
 */
const char	*plan_catalog_for_product(const char *product);

/*
 * The canonical catalogue name of model, read as
 * plan_catalog_geometry() reads it (name, alias, then productName
 * rules), or NULL when it names no catalogue model or is NULL.  Cheap:
 * builds nothing.  The returned string is static.
 */
const char	*plan_catalog_canonical(const char *model);

/*
 * Free a geometry and everything it holds: model, product, driver,
 * source, every counter name, capacity, every profile name, profiles,
 * every placement's use and placements.  Works for catalogue and
 * derived geometries alike, as long as every pointer in it was
 * malloc'd (or is NULL).  g may be NULL.
 */
void		 plan_geometry_free(struct plan_geometry *g);

#endif
