/*
 * inventory.h: the GPUs the planner plans for (struct plan_inventory,
 * planner.h), from a synthetic fleet spec or from a finished
 * kube_snapshot, and back: the kube_snapshot that publishes an
 * inventory as NVIDIA's DRA driver does with DynamicMIG.
 *
 * Geometry: GPUs that publish partitionable devices (a counter set per
 * GPU and devices that consume it, KEP-4815; NVIDIA-MIG.md 1.6) get a
 * geometry derived from the ResourceSlices, whatever the driver; GPUs
 * of gpu.nvidia.com without counters (static MIG, whole GPUs) get the
 * catalogue geometry of their productName (catalog.h).  GPUs whose
 * geometries are identical share one plan_geometry.
 *
 * Units of counters, in a derived geometry as in the catalogue: the
 * counter named "memory" in MiB, every other counter in whole units
 * (kube_quantity.milli / 1000).  A published value that is not a whole
 * number of those units is rounded: capacities down, uses up (a
 * warning says so), so nothing fits that the allocator would refuse.
 *
 * Memory: an inventory owns everything in it (planner.h); free it with
 * plan_inventory_free().  Nothing here prints; allocation failure is
 * fatal (xmalloc.h).
 */
#ifndef PLAN_INVENTORY_H
#define PLAN_INVENTORY_H

#include <stddef.h>

#include "err.h"
#include "model.h"
#include "planner.h"

/* GPUs per node of a fleet spec without "/N" (A30: 4). */
#define PLAN_FLEET_GPUS_PER_NODE	8
#define PLAN_FLEET_GPUS_PER_NODE_A30	4
/* Bounds of a fleet spec: GPUs per node, and GPUs in all. */
#define PLAN_FLEET_MAX_PER_NODE		64
#define PLAN_FLEET_MAX_GPUS		1000000

/* KEP-4815: counter sets per ResourceSlice. */
#define PLAN_SLICE_MAX_COUNTER_SETS	8

/* The NVIDIA driver and its Helm chart's DeviceClasses (NVIDIA-MIG.md 1.2). */
#define PLAN_NVIDIA_DRIVER		"gpu.nvidia.com"
#define PLAN_CLASS_GPU			"gpu.nvidia.com"
#define PLAN_CLASS_MIG			"mig.nvidia.com"

/*
 * Warnings from reading a cluster: GPUs or instances left out, values
 * rounded.  v[0..n) are malloc'd, lowercase, without a final period,
 * each naming the object ("gpu.nvidia.com/node-a/gpu-3: ...").
 */
struct plan_warnings {
	char	**v;
	size_t	  n;
};

/* Free what w holds and zero it.  NULL is a no-op. */
void	plan_warnings_free(struct plan_warnings *w);

/*
 * A synthetic fleet from a spec such as "16xH100-80GB,4xA100-40GB/4"
 * (`kubectl dra plan --fleet`): comma-separated items COUNTxMODEL[/N]
 * (blanks around items and parts are ignored, 'x' or 'X'), COUNT GPUs
 * (1 and up, PLAN_FLEET_MAX_GPUS in all) of catalogue model MODEL
 * (any name plan_catalog_geometry() reads: canonical names, aliases,
 * productNames), N per node (1..PLAN_FLEET_MAX_PER_NODE; default
 * PLAN_FLEET_GPUS_PER_NODE, PLAN_FLEET_GPUS_PER_NODE_A30 for
 * A30-24GB).  The last node of an item holds the remainder.
 *
 * Nodes are named "<model>-<i>", the canonical model name lowercased
 * and i counted from 0 per model across the whole spec
 * ("8xH100-80GB,8xH100-80GB" gives h100-80gb-0 and h100-80gb-1); each
 * holds GPUs gpu-0 .. gpu-(N-1) in PLAN_MODE_DYNAMIC, nothing running,
 * with the PCI bus IDs of an HGX board (as bench/gen/gen_fleet.c).
 * One plan_geometry per distinct model (plan_catalog_geometry()), in
 * order of first mention.  GPUs sorted by node, then name (byte-wise,
 * as everywhere in the planner: h100-80gb-10 comes before
 * h100-80gb-2).  source is "fleet " and the spec; live is 0.
 *
 * Returns KUBE_OK and *out (free with plan_inventory_free()), or
 * KUBE_E_CONFIG with *out NULL and err naming the item and its
 * position: '--fleet: item 2 "4xA100": unknown GPU model "A100"
 * (known: ...)', '--fleet: item 1 "0xH100": count must be 1 to
 * 1000000', '--fleet: item 1 "8xH100/0": GPUs per node must be 1 to
 * 64', '--fleet: item 3 "": expected COUNTxMODEL[/GPUS-PER-NODE]',
 * '--fleet: empty'.  err may be NULL.
 */
int	plan_inventory_from_fleet(const char *spec,
	    struct plan_inventory **out, struct dra_err *err);

/*
 * The GPUs of snapshot s (finished; borrowed, may be freed after).
 * Only current objects count: slices of a pool's newest generation
 * that the API server would accept, in pools that are not invalid
 * (such pools are skipped with a warning).
 *
 * (a) Partitionable devices, any driver: every counter set that
 *     devices consume is one GPU, in PLAN_MODE_DYNAMIC.  Its geometry
 *     is derived from the slices:
 *      - counters: the set's counters, sorted by name (the order they
 *        are published in is no part of the geometry), with their
 *        values as capacities (units above);
 *      - placements: one per device consuming the set, in device-name
 *        order (the allocator's first-fit order within a GPU); use[]
 *        is what the device consumes of each counter (0 if not named);
 *        start is the lowest N of the memory-slice-N counters it
 *        consumes (else the last number of its name, else 0);
 *      - profiles, in order of first appearance: the device's
 *        `profile` attribute; PLAN_WHOLE_GPU for a device of type
 *        "gpu", or one without a profile attribute nor type "mig" that
 *        consumes every counter of the set at its full value (whole =
 *        1; a full-size MIG profile such as 7g.80gb consumes
 *        everything too and stays a profile); else the device name
 *        without the GPU's name and '-' in front and without a last
 *        "-<number>" ("acc-0-half-1" on acc-0 is "half").  memory
 *        counts the memory-slice counters consumed; compute is N of a
 *        "<N>g." name, for the whole GPU the geometry's
 *        compute_slices (the largest N of its profiles); me is 1 for
 *        "+me" names; sm and memory_mib are the device's capacities
 *        multiprocessors and memory, else what it consumes of the
 *        counters of those names; gi_id is the GI profile ID of an
 *        NVIDIA device name, else -1;
 *      - model: plan_catalog_for_product() of the productName
 *        attribute, else the productName, else the driver; product
 *        the productName (NULL when none); driver the slice's driver;
 *        memory_slices the number of memory-slice-N counters;
 *        compute_slices as above (0 when no name says); sm and
 *        memory_mib the capacities of the counters multiprocessors
 *        and memory, else the largest profile's (0 when none says);
 *        derived 1; source names s.
 *     GPUs with identical derived geometries (all of the above, in
 *     order) share one.  The GPU's name is the name of its whole
 *     device (as above), else the set's name without "-counter-set"
 *     (Ampere's "gpu-0-counter-set" is gpu-0); devices[] holds the
 *     device name of every placement.  A device consuming two counter
 *     sets counts for the first only (a warning says so).
 * (b) Devices of gpu.nvidia.com that consume no counters: whole GPUs
 *     (type "gpu", by uuid) and static MIG devices (type "mig", by
 *     parentUUID; the parent GPU need not be published).  The
 *     geometry is the catalogue's for the productName (one shared
 *     plan_geometry per model); a product the catalogue does not
 *     know skips the GPU with a warning.  The GPU is named after its
 *     whole device, else the MIG devices' "gpu-N" prefix.  Mode
 *     PLAN_MODE_STATIC when it has MIG devices, else PLAN_MODE_WHOLE.
 *     existing[] holds the MIG devices as placements, matched by
 *     profile and start (the memorySlice<i> capacities, lowest i; else
 *     the device name: the last number, or the middle one of the
 *     v25.3/v25.8 form gpu-N-mig-<giid>-<start>-<size>); an instance
 *     that matches no placement is left out with a warning.
 *
 * Running instances (both kinds): each device that a claim of s holds
 * (an allocation result naming it, admin access excluded), with that
 * claim's namespace and name (the first such claim); a held whole
 * device of a static or whole GPU is the whole-GPU placement.
 *
 * The node of a GPU is its slice's nodeName (for a counter set: the
 * set's slice, else its devices'), or the pool name for devices that
 * are not local to one node.  pci_bus_id is the
 * resource.kubernetes.io/pciBusID attribute of its whole device, else
 * of any of its devices.  GPUs are sorted by node, then name
 * (byte-wise); source is s->source (or "snapshot"); live is 1.
 *
 * warn (may be NULL) receives the warnings; free with
 * plan_warnings_free().  Returns KUBE_OK and *out (free with
 * plan_inventory_free(); an inventory without GPUs is not an error),
 * or KUBE_E_CONFIG when s is NULL or not finished.  err may be NULL.
 */
int	plan_inventory_from_snapshot(const struct kube_snapshot *s,
	    struct plan_inventory **out, struct plan_warnings *warn,
	    struct dra_err *err);

/* plan_inventory_snapshot_gpus() flags. */
#define PLAN_SNAP_NO_CLAIMS	0x1	/* leave running instances out */

/*
 * A finished kube_snapshot that publishes the GPUs of inv as NVIDIA's
 * DRA driver does with DynamicMIG on Kubernetes 1.35 and later
 * (NVIDIA-MIG.md 1.6 and 1.7; the shapes of bench/gen/gen_fleet.c
 * --layout dynamic-mig), whatever the GPUs' mode:
 *
 *  - per node and driver, one pool named after the node at generation
 *    1: ceil(G/PLAN_SLICE_MAX_COUNTER_SETS) slices holding only
 *    sharedCounters, one counter set "<gpu>-counter-set" per GPU (the
 *    geometry's counters and capacities; memory as "<MiB>Mi"), then
 *    one devices-only slice per GPU; resourceSliceCount counts them
 *    all.  Slices are named "<node>-<driver>-<k>", k zero-padded so
 *    that slice-name order is GPU-name order (for 10 slices or fewer
 *    the names gen_fleet.c writes);
 *  - per GPU, one device per placement, sorted by name: the
 *    gpu->devices[] names, else plan_device_name().  Attributes
 *    type ("gpu" for the whole GPU, else "mig"), productName
 *    (the geometry's product, else its model), uuid (whole GPU; a
 *    fixed hash of node and GPU name, "GPU-xxxxxxxx-...") or
 *    parentUUID and profile (MIG), resource.kubernetes.io/pciBusID
 *    (the GPU's, else an HGX board's bus for its position); capacity:
 *    every counter but memory-slice-N, named in camelCase
 *    ("copy-engines" is copyEngines), with the placement's use, plus
 *    the profile's multiprocessors and memory where no counter has
 *    them; and consumesCounters: its set, every counter it uses plus
 *    the zero ones that are not memory slices;
 *  - a Node per node (labels kubernetes.io/hostname,
 *    nvidia.com/gpu.product, nvidia.com/gpu.count; Ready), the
 *    DeviceClasses of the driver's Helm chart: PLAN_CLASS_GPU
 *    (type == 'gpu', extendedResourceName nvidia.com/gpu) and
 *    PLAN_CLASS_MIG (type == 'mig'); for a GPU of another driver D, a
 *    class D selecting device.driver == 'D';
 *  - unless flags has PLAN_SNAP_NO_CLAIMS, the running instances as
 *    allocated ResourceClaims (one per namespace and claim name, one
 *    request per instance: "gpu", or "gpu-<k>" when there are several,
 *    exactly one device of the class with the selector
 *    device.attributes['<driver>'].profile == '<profile>' for MIG;
 *    the allocation result names the device and a node selector the
 *    node), and their Namespaces, so the allocator sees them in use.
 *
 * gpus[0..ngpus) are indexes into inv->gpus (each once; any order);
 * plan_inventory_snapshot() takes them all.  Cost: O(devices), 26 per
 * H100: on 2 cores, 1,000 H100 take 0.21 s and 40 MB, 10,000 take
 * 2.0 s and 390 MB (reading them back 0.03 s and 0.27 s); a
 * 100,000-GPU fleet would take some 20 s and 4 GB, which is why the
 * baseline (baseline.h) builds node-sized ones.
 *
 * Returns KUBE_OK and *out (free with kube_snapshot_free()), or
 * KUBE_E_CONFIG with *out NULL when an index is out of range or
 * repeated, a placement has no device name (plan_device_name() gives
 * none: a MIG profile without GI ID), or the model refuses an object
 * (the message says which).  err may be NULL.
 */
int	plan_inventory_snapshot(const struct plan_inventory *inv,
	    struct kube_snapshot **out, struct dra_err *err);
int	plan_inventory_snapshot_gpus(const struct plan_inventory *inv,
	    const size_t *gpus, size_t ngpus, unsigned flags,
	    struct kube_snapshot **out, struct dra_err *err);

/*
 * The device name of placement p of GPU g of inv: g->devices[p] when
 * the GPU publishes names, else plan_device_name().  Writes into buf
 * (len bytes) and returns it, or NULL when there is none or it does
 * not fit.
 */
char	*plan_inventory_device(const struct plan_inventory *inv,
	    const struct plan_gpu *g, int p, char *buf, size_t len);

/*
 * The word a Plan document and its readers use for mode m: "dynamic",
 * "static" or "whole" (docs/PLAN-FORMAT.md, status.layout[].gpus[].mode).
 * Static storage.
 */
const char	*plan_mig_mode_name(enum plan_mig_mode m);

/*
 * The first memory slice of a static MIG device d: the lowest i of its
 * memorySlice<i> capacities (non-zero), else from its name: the start
 * of gpu-N-mig-<profile>-<giid>-<start> (NVIDIA's driver v25.12 on) or
 * of gpu-N-mig-<giid>-<start>-<size> (v25.3, v25.8), else the name's
 * last number.  -1 when none of these gives one.  Shared by the
 * inventory and the UI's GPU map (views/gpus.c), so both place an
 * instance alike.
 */
int	plan_static_mig_start(const struct kube_device *d);

/*
 * The node a GPU of d is planned on: d's node (nodeName, else the
 * single node of a node selector), else its pool's name.  Borrowed.
 * Shared with the UI's GPU map (views/gpus.c), so both group alike.
 */
const char *plan_device_node(const struct kube_device *d);

/*
 * The first claim holding d other than through admin access, whose
 * instance the inventory counts as running, or NULL.  With nclaims
 * not NULL it also gets how many distinct claims hold d (a shared
 * device); NULL and 0 when none.  Borrowed from the snapshot.
 */
const struct kube_claim *plan_device_holder(const struct kube_device *d,
	    int *nclaims);

/* The compute slices N of a MIG profile named "<N>g.*", else 0. */
int	plan_profile_compute(const char *name);

/* The driver of g's devices: g->driver, else gpu.nvidia.com. */
const char *plan_geometry_driver(const struct plan_geometry *g);

/*
 * The DeviceClass a snapshot of plan_inventory_snapshot() offers for a
 * placement of g (whole: the whole GPU): NVIDIA's chart classes
 * PLAN_CLASS_GPU and PLAN_CLASS_MIG for gpu.nvidia.com, else the class
 * named after the driver.
 */
const char *plan_inventory_class(const struct plan_geometry *g, int whole);

/*
 * The selector of one MIG profile p of g in a snapshot of
 * plan_inventory_snapshot(), into buf (len bytes), returned:
 * "device.attributes['<driver>'].type == 'mig' &&
 * device.attributes['<driver>'].profile == '<p>'", quoted; the type
 * test first, so that a class naming the whole driver never reaches a
 * device without a profile (a CEL runtime error).
 */
char	*plan_profile_selector(const struct plan_geometry *g,
	    const struct plan_profile *p, char *buf, size_t len);

/*
 * The body of a CEL string literal for s, ' and \ escaped, into buf
 * (len bytes, NUL-terminated, cut short when s does not fit): for the
 * selectors the planner writes (`device.attributes['D'].profile ==
 * '<this>'`).
 */
void	plan_cel_quote(const char *s, char *buf, size_t len);

/* Free inv and everything it owns (geometries included).  NULL: no-op. */
void	plan_inventory_free(struct plan_inventory *inv);

#endif
