/*
 * top.h: the figures of `kubectl dra top` (docs/TOP.md): per node,
 * DeviceClass, namespace or pool, how many devices are allocated of
 * how many, how much GPU memory, how many GPUs are in use and their
 * compute utilization (the GPU map, gpus.h), the shared counters
 * consumed and the consumable capacity consumed, with a first totals
 * row ("*", as kube-capacity prints one).
 *
 * The counting rules follow the joins of kube/model (join.c, the
 * structured allocator of Kubernetes 1.37 as DRA-REFERENCE.md section 6
 * describes it) and the `get pools` table: every device of each pool's
 * newest generation counts, in one of five states (unusable, allocated,
 * tainted, blocked, free); a device is in use when allocated (a claim
 * holds it without adminAccess) or blocked (its counters are used up
 * by allocated devices), and utilization is in use / usable, the
 * figure doctor's utilization check reads from the classes' rows;
 * unusable pools count in no other figure; counters consumed are what
 * allocated devices consume (adminAccess results excluded); consumable
 * capacity is the consumedCapacity of the results on
 * allowMultipleAllocations devices.
 *
 * Pure: reads a finished snapshot, prints nothing.  The table, JSON and
 * Prometheus renderings are built here too (strings and trees the
 * caller prints), so the UI and tests see the same figures.
 */
#ifndef DRA_VIEWS_TOP_H
#define DRA_VIEWS_TOP_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "buf.h"
#include "err.h"
#include "model.h"
#include "views.h"

struct cJSON;

/* What a row is. */
enum dra_top_kind {
	DRA_TOP_NODES,
	DRA_TOP_CLASSES,
	DRA_TOP_NAMESPACES,
	DRA_TOP_POOLS,
};

/*
 * How a percentage compares with the planner's utilization policy
 * (gpus.h DRA_GPU_UTIL_TARGET 80%, DRA_GPU_UTIL_CEILING 95%): NONE
 * when there is no percentage (total 0) or it is not a utilization (a
 * namespace's share of the cluster), LOW below the target, HIGH from
 * the target to the ceiling, OVER above the ceiling.
 */
enum dra_top_level {
	DRA_TOP_LEVEL_NONE,
	DRA_TOP_LEVEL_LOW,
	DRA_TOP_LEVEL_HIGH,
	DRA_TOP_LEVEL_OVER,
};

/*
 * One counter name or capacity name summed over a row: used and total
 * in thousandths of the quantity (struct kube_quantity milli).
 * Counters: every counter set's counters of that name (the counter
 * named "memory" is not here: it is GPU memory); capacities: the
 * capacity of that id on allowMultipleAllocations devices and the
 * consumedCapacity of their results.
 */
struct dra_top_amount {
	const char	*name;
	int64_t		 used;
	int64_t		 total;
};

/*
 * One row.  Counts are devices; memory is bytes.  Strings live in the
 * top's arena, or are borrowed from the snapshot.
 *
 * devices: devices of the row, every state: nodes and pools, those
 * published there (each pool's newest generation, as `get pools`
 * counts them); classes, those every selector of the class matches;
 * namespaces, the cluster's (as in the totals row).
 *
 * Nodes, pools and classes split the devices into five exclusive
 * states, each device in the first that holds: unusable (its pool is
 * incomplete or invalid: nothing can be allocated from it, whatever
 * it holds), allocated (held by at least one claim result without
 * adminAccess, through any class; adminAccess only does not count),
 * tainted (a NoSchedule or NoExecute taint), blocked (free, but a
 * counter it consumes is used up by allocated devices: an allocated
 * MIG sibling of the same GPU took it), free; allocated + free +
 * blocked + tainted + unusable == devices.
 *
 * in_use: the devices that cannot be given out although not tainted:
 * allocated + blocked (nodes, pools, classes); namespaces, the devices
 * the namespace's claims hold (a device once), = allocated.  The
 * utilization of a row is in_use / (devices - unusable): the DEVICES
 * cell, its colour, the planner's 80% target and 95% ceiling and
 * doctor's utilization check are this figure (dra_top_percent).
 * Namespaces: unusable is the cluster's, so the share is of the
 * cluster's usable devices.
 *
 * mem_used, mem_total: GPU memory in bytes, devices of unusable pools
 * left out.  A device that consumes a counter set holding a counter
 * named "memory" (a partitionable device: NVIDIA DynamicMIG's
 * gpu-N-counter-set) counts through that counter set: the set's
 * memory counter is the total and what allocated devices consume of
 * it the use, so a GPU is counted once whatever MIG devices it is cut
 * into (classes: each counter set once per class, when a device the
 * class matches consumes it; its use is what any allocated device
 * consumed).  Any other device with a capacity named "memory" (any
 * domain) counts its capacity; allocated, all of it, or for an
 * allowMultipleAllocations device the memory its results consumed.
 * Namespaces count the memory of what their results hold (a
 * partitionable device: its own consumption of the memory counter).
 * Memory quantities past the model's 1Pi bound (saturated there,
 * model.h) are read again from their text (kube_quantity_approx), so a
 * 2Pi device is 2Pi and two are 4Pi; sums saturate at DRA_TOP_MEM_MAX
 * (the table prints ">8Ei").  What allocated devices consume of a
 * counter set and the consumedCapacity of shareable devices are the
 * model's sums in thousandths, exact up to 1Pi per value.
 *
 * gpus, gpus_used, compute: the GPU map's GPUs (gpus.h dra_gpu_map:
 * whole GPUs, static MIG parents, DynamicMIG counter sets) of usable
 * pools, those with compute slices held, and the mean of their
 * utilization (compute slices held / compute slices, 0..1); compute
 * is -1 without GPUs.  Namespaces: GPUs where the namespace holds a
 * part, of the fleet's, and compute its share of the fleet's mean
 * (the sum over its parts of the part's compute slices / its GPU's,
 * divided by the fleet's GPUs); the totals row's compute is the exact
 * sum of the rows' (each printed rounded down on its own, so the
 * printed rows may add up to less).  Classes: 0, 0, -1.
 *
 * counters, consumable: per name, sorted by name; nodes, pools,
 * classes and their totals (classes: the counter sets their devices
 * consume, each once), devices of unusable pools left out.
 *
 * claims, pending: classes, claims allocated with a request of the
 * class, and claims not allocated that ask for it (firstAvailable:
 * any subrequest); namespaces, allocated and not allocated claims.
 * Deleted claims are not counted; a claim whose results all have
 * adminAccess counts in both (it is a claim of the namespace and of
 * the class) although it holds no device.  0 for nodes and pools.
 */
/* The bound of memory figures (bytes): INT64_MAX, 8Ei. */
#define DRA_TOP_MEM_MAX		INT64_MAX

struct dra_top_row {
	/* node ("<none>": devices of no single node), class, namespace
	   or "driver/pool"; "*" for the totals row */
	const char		*name;
	const char		*driver;	/* pools only, else NULL */
	const char		*pool;		/* pools only, else NULL */
	const char		*node;		/* pools: the node, or NULL */
	int64_t			 devices;
	int64_t			 in_use;
	int64_t			 allocated;
	int64_t			 free;
	int64_t			 blocked;
	int64_t			 tainted;
	int64_t			 unusable;
	int64_t			 mem_used;
	int64_t			 mem_total;
	int64_t			 gpus;
	int64_t			 gpus_used;
	double			 compute;
	struct dra_top_amount	*counters;
	size_t			 ncounters;
	struct dra_top_amount	*consumable;
	size_t			 nconsumable;
	int64_t			 claims;
	int64_t			 pending;
};

/*
 * One counter of one counter set, for the Prometheus output: used
 * and total in thousandths.  node is the slice's nodeName, or NULL.
 */
struct dra_top_counter {
	const char	*driver;
	const char	*pool;
	const char	*node;
	const char	*set;
	const char	*counter;
	int64_t		 used;
	int64_t		 total;
};

struct dra_top {
	enum dra_top_kind	 kind;
	struct dra_top_row	 total;		/* the "*" row */
	struct dra_top_row	*rows;
	size_t			 nrows;
	/* Nodes and pools: every counter of the counter sets of the
	   rows shown, usable pools only (an incomplete or invalid pool's
	   sets are in no figure), by driver, pool, set, counter, node;
	   each (driver, pool, node, set, counter) once. */
	struct dra_top_counter	*counters;
	size_t			 ncounters;
	/*
	 * The snapshot's ResourceSlices could not be read (a user
	 * limited to a namespace, kube_snapshot slices_unread): only
	 * claims, pending claims and the devices the claims' results
	 * name (allocated, in_use) are known; devices, unusable,
	 * mem_used, mem_total, gpus, gpus_used and compute are not (0,
	 * 0, ..., -1 here, "-" in the table, null in JSON, left out of
	 * Prometheus).
	 */
	int			 slices_unread;
	/* Classes: selectors that failed to compile or evaluate (CEL
	   errors, unsupported constructs): such a device does not match,
	   as the allocator would not pick it; each "class: message". */
	const char		**warnings;
	size_t			 nwarnings;
	struct dra_arena	 arena;
};

/*
 * The word of a kind ("nodes", "node", "no"; "classes", "class",
 * "deviceclasses", "deviceclass"; "namespaces", "namespace", "ns";
 * "pools", "pool"; case-insensitive) into *kind.  Returns 0, or -1
 * for another word.
 */
int	dra_top_kind_parse(const char *word, enum dra_top_kind *kind);

/* The plural name of kind ("nodes"); static. */
const char *dra_top_kind_name(enum dra_top_kind kind);

/*
 * The figures of kind for a finished snapshot s (borrowed; the top
 * points at its strings and must not outlive it).
 *
 * f (may be NULL: everything) filters the rows: f->names keeps rows by
 * name (nodes, classes, namespaces; pools "driver/pool" or the pool
 * name), setting f->matched; f->selector tests the labels of the Node
 * object (nodes; a node without one has none), of the DeviceClass
 * (classes), of a slice of the pool (pools); f->namespace keeps that
 * namespace's row (namespaces; shown even without claims).  The totals
 * row sums the rows shown; for classes, whose devices may match
 * several classes, it counts each device once (matched by any class
 * shown, allocated through any); for namespaces its devices, memory
 * and GPUs totals are the cluster's.
 *
 * Rows come by name in natural order (dra_natcmp; "<none>" last),
 * pools by driver then pool.  Nodes are those with devices: devices
 * tied to no node (allNodes, a node selector) make the "<none>" row.
 * Namespaces are those with claims.  Cost: linear in devices and
 * results plus the GPU map; classes evaluate each class's selectors
 * (kube/dra/cel.h) on every device.
 *
 * Returns a new top (free with dra_top_free), or NULL with err
 * (KUBE_E_CONFIG) when s is NULL or not finished.
 */
struct dra_top *dra_top_build(const struct kube_snapshot *s,
	    enum dra_top_kind kind, const struct dra_filter *f,
	    struct dra_err *err);

/*
 * Sort the rows (not the totals row) by column, a name of
 * dra_top_table's header, case-insensitive, or an alias: "name" (and
 * "node", "class", "namespace", "pool": the first column) ascending;
 * "devices", "gpu-memory" ("memory"), "gpus", "compute", "counters",
 * "consumable" by their percentage, highest first (a row without one
 * last); "claims", "pending" by count, highest first; ties by name.
 * Returns KUBE_OK, or KUBE_E_CONFIG with err listing the columns when
 * column is unknown for the kind (rows unchanged).
 */
int	dra_top_sort(struct dra_top *t, const char *column,
	    struct dra_err *err);

/*
 * The table of t (totals row first, named "*"): nodes NODE, DEVICES,
 * GPU-MEMORY, GPUS, COMPUTE; pools DRIVER, POOL, then the same;
 * classes CLASS, DEVICES, GPU-MEMORY, CLAIMS, PENDING; namespaces
 * NAMESPACE, CLAIMS, PENDING, DEVICES, GPU-MEMORY, GPUS, COMPUTE.  So
 * the example cluster's tables hold in 80 columns.  wide adds, but for
 * namespaces, COUNTERS, CONSUMABLE, ALLOCATED, BLOCKED, TAINTED,
 * UNUSABLE, FREE (pools: NODE after POOL, "<none>" without one).
 *
 * Cells: DEVICES "in use/usable (pct)", in_use / (devices - unusable)
 * ("32/258 (12%)"); GPU-MEMORY used/total in binary units, 3 digits,
 * the unit once when both share it ("49.2/634Gi (7%)", "616Gi/2.5Ti
 * (24%)"); GPUS "used/total"; COMPUTE "38%"; COUNTERS and CONSUMABLE
 * the name with the highest share used (ties: the most used, then the
 * first name) and "+N" other names ("memory-slice-0 1/8 (12%) +13");
 * "-" when there is nothing (no total).  Every percentage is
 * dra_top_percent's text.
 *
 * levels, when not NULL, receives a new array (the caller frees it) of
 * nrows * ncolumns enum dra_top_level, row by row, for colouring:
 * the level of the cell's percentage, from the same dra_top_percent
 * call as its text (namespace rows other than the totals row: NONE, a
 * share is not a utilization).  Never NULL; free the table with
 * dra_table_free.
 */
struct dra_table *dra_top_table(const struct dra_top *t, int wide,
	    unsigned char **levels);

/*
 * The planner's utilization policy in whole percent: the 80% target
 * and the 95% ceiling of gpus.h (DRA_GPU_UTIL_TARGET, _CEILING; the
 * unit test checks they agree).
 */
#define DRA_TOP_TARGET_PCT	80
#define DRA_TOP_CEILING_PCT	95

/*
 * used / total (any unit, total > 0) as `top` prints a percentage and
 * colours it, and as doctor words its utilization, so the two never
 * disagree.  The level: LOW below the target (used * 100 < total *
 * 80), HIGH from the target to the ceiling inclusive (95% itself is
 * allowed, as the planner's ceiling), OVER above; total <= 0: NONE.
 * The text, written to buf (len bytes, 32 are enough; NULL: level
 * only): the percentage rounded down ("7%", "100%", "250%"), except
 * when that would print a line the value is above: 80 < x < 81 and
 * 95 < x < 96 print the decimals that show it, rounded down, at most
 * 6 ("95.1%" for 951 of 1000, "80.01%"; 950 of 1000 is "95%"), and
 * closer than 0.000001% the sixth decimal rounded up, so the text is
 * above the line whenever the level is.  total <= 0: "-".  Exact
 * (128-bit integer arithmetic); used < 0 counts as 0.
 */
enum dra_top_level dra_top_percent(int64_t used, int64_t total, char *buf,
	    size_t len);

/*
 * The same for a ratio x (0..1 and above; COMPUTE, a mean of ratios),
 * taken in billionths (x rounded to 9 decimals, so 0.95 computed as
 * 0.9499999999999999 is 95%); x < 0 or NaN: NONE and "-".
 */
enum dra_top_level dra_top_ratio_percent(double x, char *buf, size_t len);

/*
 * The level of used / total (total <= 0: NONE): dra_top_percent's when
 * both are whole numbers below 9e15, else dra_top_ratio_percent's.
 */
enum dra_top_level dra_top_level(double used, double total);

/*
 * The JSON document of `top -o json|yaml`: {"apiVersion":
 * "dra.kubectl.io/v1alpha1", "kind": "Top", "of": "nodes", "total":
 * ROW, "rows": [ROW]}, ROW {"name", ("driver", "pool", "node" for
 * pools), "devices": {"inUse", "allocated", "total", "unusable", and
 * except namespaces "blocked", "tainted", "free"}, "gpuMemoryBytes":
 * {"allocated", "total"}, except classes "gpus": {"used", "total"}
 * and "compute" (0..1 or null), except namespaces "counters":
 * [{"name", "used", "total"}] and "consumableCapacity": [{"name",
 * "used", "total"}] (quantities as strings, "50432Mi"), and for
 * classes and namespaces "claims", "pendingClaims"}.  Figures that
 * are not known (t->slices_unread: devices "total" and "unusable",
 * "gpuMemoryBytes", "gpus", "compute") are null, never 0.  A new tree
 * the caller deletes.
 */
struct cJSON *dra_top_json(const struct dra_top *t);

/*
 * The figures in the Prometheus text exposition format 0.0.4, every
 * family a gauge with "# HELP" and "# TYPE" once before its samples,
 * samples in row order (the totals row is left out: sum the rows).
 * Every family is of one kind, kubectl_dra_<K>_... with K node, pool,
 * class or namespace, so the texts of the four kinds can sit side by
 * side in one textfile-collector directory: no family, HELP text or
 * series is in two.  The row's labels: {node} (the "<none>" row:
 * node=""), {class}, {namespace}, {driver, pool, node} (node "" for a
 * pool of no single node), the same names on every sample of a family.
 *   _devices{..., state="allocated|blocked|tainted|unusable|free"}
 *     (namespaces: state="allocated" only), _devices_total,
 *   _gpu_memory_bytes{..., state="allocated"}, _gpu_memory_bytes_total
 *   _gpus{..., state="used"}, _gpus_total, _gpu_compute_ratio (not
 *     classes; nodes and pools: rows with GPUs)
 *   _consumable_capacity{..., capacity, state="consumed"},
 *     _consumable_capacity_total (not namespaces)
 *   _counter{..., counter, state="consumed"}, _counter_total (nodes,
 *     classes: per counter name, memory left out); pools instead
 *     _counter_set_counter{driver, pool, node, counter_set, counter,
 *     state="consumed"}, _counter_set_counter_total (every counter of
 *     each counter set of a usable pool, memory included)
 *   _claims{..., state="allocated|pending"} (classes, namespaces)
 * Label values escaped as the format says (\\, \", \n); values plain
 * decimal numbers (bytes, counts; quantities in their unit, "0.5" for
 * 500m).  No series (family and label values) is printed twice.
 * Unknown figures (t->slices_unread) are left out, families and all:
 * _devices_total, _gpu_memory_bytes(_total), _gpus(_total),
 * _gpu_compute_ratio; never written as 0.
 * Returns a new NUL-terminated string the caller frees.
 */
char	*dra_top_prometheus(const struct dra_top *t);

/*
 * A label value escaped for the exposition format (backslash, double
 * quote and newline become \\, \" and \n) appended to b.
 */
void	dra_top_prom_escape(struct dra_buf *b, const char *value);

/* Free t; NULL is a no-op. */
void	dra_top_free(struct dra_top *t);

#endif
