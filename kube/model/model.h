/*
 * model.h: one DRA model for every served API version.
 *
 * A struct kube_snapshot holds everything the views need: the
 * resource.k8s.io objects (ResourceSlice, ResourceClaim,
 * ResourceClaimTemplate, DeviceClass, DeviceTaintRule) decoded from
 * v1, v1beta2 or v1beta1 into one shape (the v1 shape:
 * DRA-REFERENCE.md section 3: "basic" unwrapped, flat requests lifted
 * into "exactly"), the Pods that reference claims, Nodes, Namespaces
 * and ResourceQuotas, and, after kube_snapshot_finish(), the joins:
 * pools with their generation and completeness, every device with its
 * allocations, counter use, consumable capacity use and taints.
 *
 * Memory: the snapshot owns every object and string reachable from it
 * (one arena, CONVENTIONS.md b5); pointers into it are borrowed and
 * stay valid until kube_snapshot_free().  Objects are added one at a
 * time from borrowed cJSON trees that the caller may free right after,
 * so no whole document tree is ever needed (snapshot.h streams files;
 * the client hands over list pages).
 *
 * Nothing here prints or exits; warnings (unknown enum values, invalid
 * pools, allocations naming devices nobody publishes) are collected in
 * the snapshot for the command layer to show.
 */
#ifndef KUBE_MODEL_H
#define KUBE_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "err.h"

struct cJSON;

/*
 * A resource.Quantity.  milli is the value in thousandths, rounded up
 * away from zero as apimachinery's MilliValue() does ("1" is 1000,
 * "40Gi" is 42949672960000); text is the string as published, for
 * display.  Every quantity ParseQuantity accepts decodes: values up to
 * KUBE_QUANTITY_MILLI_MAX (1Pi, 2^50 units) in magnitude are exact, a
 * larger one saturates at KUBE_QUANTITY_MILLI_SAT (1Pi and 1m) and
 * keeps its text (16Pi, 1E, 1Ei and 9e18 all hold it), so that sums of
 * up to 8 such values cannot overflow int64, sums of realistic values
 * (bytes of memory, counts, bandwidth) stay exact, and a value beyond
 * the bound stays recognisable (kube_quantity_format prints ">1Pi").
 * Two saturated values compare equal.
 */
#define KUBE_QUANTITY_MILLI_MAX	(INT64_C(1125899906842624) * 1000)
#define KUBE_QUANTITY_MILLI_SAT	(KUBE_QUANTITY_MILLI_MAX + 1)

/*
 * The bound kube_quantity_add() saturates sums at: INT64_MAX / 2, so
 * that the difference of two such sums (a total minus what is used)
 * cannot overflow either.
 */
#define KUBE_QUANTITY_SUM_MAX	(INT64_MAX / 2)

struct kube_quantity {
	int64_t		 milli;
	const char	*text;
};

/*
 * Parse a Kubernetes quantity ("40Gi", "1.5", "500m", "2e3", "1E",
 * "16Pi") into *q (q->text is left NULL; callers set it), exactly as
 * apimachinery resource.ParseQuantity reads it (quantity.go
 * parseQuantityString and suffix.go interpret): sign, digits,
 * optional fraction, one suffix of Ki Mi Gi Ti Pi Ei n u m k M G T P E
 * or an exponent e<N>/E<N> (N an int64, cut to 32 bits as Go cuts
 * it); "", "1 ", "1Gb" and "1e" are errors, "-", "." and "Gi" are
 * zero as in Go.  The value is rounded up away from zero to milli;
 * beyond KUBE_QUANTITY_MILLI_MAX it saturates at
 * +-KUBE_QUANTITY_MILLI_SAT (no error).
 * Returns KUBE_OK, or KUBE_E_PARSE with err naming the text (and the
 * suffix when only the suffix is unknown).
 */
int	kube_quantity_parse(const char *s, struct kube_quantity *q,
	    struct dra_err *err);

/*
 * Whether q's value lies beyond KUBE_QUANTITY_MILLI_MAX, so that
 * q->milli holds +-KUBE_QUANTITY_MILLI_SAT, not the value.
 */
int	kube_quantity_saturated(const struct kube_quantity *q);

/*
 * The value of q in units (not thousandths) as a double, for sums and
 * shares that must not stop at the 1Pi bound: q->milli / 1000 when q
 * is not saturated (exact to double's 53 bits); when it is, q->text
 * read again with kube_quantity_parse's own grammar (same sign, digits,
 * suffix and exponent, the exponent cut to 32 bits as Go cuts it) and
 * converted by strtod ("2Pi" 2^51, "1Ei" 2^60, "1e30" 1e30; digits
 * past the 40th dropped, so the result is correct to double
 * precision); +-HUGE_VAL when it exceeds a double ("1e400"), and
 * about +-1Pi (the saturated milli / 1000) when a saturated q has no
 * text.  Never fails; q is only read.
 */
double	kube_quantity_approx(const struct kube_quantity *q);

/*
 * a + b in milli, saturated at +-KUBE_QUANTITY_SUM_MAX: for sums of
 * quantities (counters consumed, capacity used) that must not
 * overflow whatever was published.
 */
int64_t	kube_quantity_add(int64_t a, int64_t b);

/*
 * Format milli (thousandths) the way people read it: binary suffixes
 * when the value is a whole multiple of 1024 (>= 1Ki), else decimal
 * with an "m" suffix for fractions; beyond +-KUBE_QUANTITY_MILLI_MAX
 * (a saturated quantity, or a sum past 1Pi) ">1Pi" or "<-1Pi", which
 * stays true whatever saturated.  Writes at most len bytes to buf (NUL
 * included) and returns buf.
 */
char	*kube_quantity_format(int64_t milli, char *buf, size_t len);

/* A name/value pair (labels, annotations, quota keys). */
struct kube_kv {
	const char	*key;
	const char	*value;
};

struct kube_owner_ref {
	const char	*kind;
	const char	*name;
	const char	*uid;
};

struct kube_meta {
	const char		*name;
	const char		*namespace;	/* NULL when cluster-scoped */
	const char		*uid;
	const char		*resource_version;
	int64_t			 generation;
	int64_t			 created;	/* Unix seconds, 0 unknown */
	int64_t			 deleted;	/* deletionTimestamp or 0 */
	struct kube_kv		*labels;
	size_t			 nlabels;
	struct kube_kv		*annotations;
	size_t			 nannotations;
	struct kube_owner_ref	*owners;
	size_t			 nowners;
};

struct kube_node;

/*
 * A node's Ready condition as kubectl shows it: "True", "False", or
 * "Unknown" (status Unknown, or no Ready condition).  Static string.
 */
const char *kube_node_ready_text(const struct kube_node *n);

/* Value of label/annotation key in kv[0..n), or NULL. */
const char *kube_kv_get(const struct kube_kv *kv, size_t n, const char *key);

/*
 * A device attribute.  domain/id split as CEL sees it
 * (device.attributes[domain].id); a published name without a domain
 * is filed under the driver's name.  List forms (DRAListTypeAttributes,
 * alpha) keep their items in list/nlist.
 */
enum kube_attr_type {
	KUBE_ATTR_INT,
	KUBE_ATTR_BOOL,
	KUBE_ATTR_STRING,
	KUBE_ATTR_VERSION,
	KUBE_ATTR_INTS,
	KUBE_ATTR_BOOLS,
	KUBE_ATTR_STRINGS,
	KUBE_ATTR_VERSIONS,
};

struct kube_attr {
	const char		*domain;
	const char		*id;
	enum kube_attr_type	 type;
	int64_t			 i;	/* INT, BOOL (0/1) */
	const char		*s;	/* STRING, VERSION */
	const char	       **list;	/* list forms, as text */
	size_t			 nlist;
};

/* capacity[i].requestPolicy (DRAConsumableCapacity). */
struct kube_request_policy {
	int			 has_default;
	struct kube_quantity	 def;
	struct kube_quantity	*valid_values;
	size_t			 nvalid_values;
	int			 has_range;
	struct kube_quantity	 min;
	int			 has_max;
	struct kube_quantity	 max;
	int			 has_step;
	struct kube_quantity	 step;
};

struct kube_capacity {
	const char			*domain;
	const char			*id;
	struct kube_quantity		 value;
	struct kube_request_policy	*policy;	/* NULL if none */
};

struct kube_counter {
	const char		*name;
	struct kube_quantity	 value;
};

/* sharedCounters[i] of a slice: a counter set. */
struct kube_counter_set {
	const char		*name;
	struct kube_counter	*counters;
	size_t			 ncounters;
	struct kube_slice	*slice;		/* where it is published */
	/* Joined: consumed[i] is what allocations take of counters[i]. */
	int64_t			*consumed;	/* milli, ncounters long */
};

/* consumesCounters[i] of a device. */
struct kube_device_counters {
	const char		*counter_set;
	struct kube_counter	*counters;
	size_t			 ncounters;
	const char	       **compat_groups;
	size_t			 ncompat_groups;
	struct kube_counter_set	*set;		/* joined, NULL if missing */
};

enum kube_taint_effect {
	KUBE_TAINT_NONE,
	KUBE_TAINT_NO_SCHEDULE,
	KUBE_TAINT_NO_EXECUTE,
	KUBE_TAINT_UNKNOWN,	/* shown as published, treated as None */
};

struct kube_taint {
	const char		*key;
	const char		*value;
	const char		*effect_text;
	enum kube_taint_effect	 effect;
	const char		*time_added;
	const char		*rule;	/* DeviceTaintRule name, NULL if on slice */
};

/*
 * One NodeSelectorRequirement: key, operator ("In", "NotIn", "Exists",
 * "DoesNotExist", "Gt", "Lt"; kept as published) and values.
 */
struct kube_node_selector_req {
	const char	 *key;
	const char	 *op;
	const char	**values;
	size_t		  nvalues;
};

/* One NodeSelectorTerm: every requirement must hold. */
struct kube_node_selector_term {
	struct kube_node_selector_req	*exprs;		/* matchExpressions */
	size_t				 nexprs;
	struct kube_node_selector_req	*fields;	/* matchFields */
	size_t				 nfields;
};

/*
 * A NodeSelector, kept whole: its terms (ORed) for matching, plus
 * single_node, set when it is the common one-term "metadata.name In
 * [X]" form (allocation results, per-node slices), and a one-line
 * summary for display.
 */
struct kube_node_selector {
	const char			*single_node;
	const char			*summary;	/* e.g. "zone In [a,b]" */
	struct kube_node_selector_term	*terms;
	size_t				 nterms;
};

/* Device state flags, computed by kube_snapshot_finish(). */
#define KUBE_DEV_ALLOCATED	0x01	/* held by at least one claim */
#define KUBE_DEV_SHARED		0x02	/* allowMultipleAllocations */
#define KUBE_DEV_BLOCKED	0x04	/* free but its counters are used */
#define KUBE_DEV_TAINTED	0x08	/* NoSchedule / NoExecute taint */
#define KUBE_DEV_UNUSABLE	0x10	/* pool incomplete or invalid */
#define KUBE_DEV_ADMIN		0x20	/* held only with adminAccess */

struct kube_claim;

/* One claim result that names a device (joined). */
struct kube_device_alloc {
	struct kube_claim	*claim;
	size_t			 result;	/* index in claim->results */
};

struct kube_device {
	const char			*name;
	struct kube_slice		*slice;
	struct kube_pool		*pool;		/* joined */
	struct kube_attr		*attrs;
	size_t				 nattrs;
	struct kube_capacity		*capacity;
	size_t				 ncapacity;
	struct kube_device_counters	*consumes;
	size_t				 nconsumes;
	struct kube_taint		*taints;	/* slice + rules */
	size_t				 ntaints;
	size_t				 nslice_taints;	/* first n from slice */
	const char			*node_name;	/* per-device */
	int				 all_nodes;
	struct kube_node_selector	*node_selector;
	int				 allow_multiple;
	int				 binds_to_node;
	const char		       **binding_conditions;
	size_t				 nbinding_conditions;

	/* Joined by kube_snapshot_finish(). */
	unsigned			 state;		/* KUBE_DEV_* */
	struct kube_device_alloc	*allocs;
	size_t				 nallocs;
	int64_t				*capacity_used;	/* milli, ncapacity */
	const char			*blocked_by;	/* "set/counter" */
};

struct kube_slice {
	struct kube_meta		 meta;
	const char			*api_version;	/* as read */
	const char			*driver;
	const char			*pool_name;
	int64_t				 generation;
	int64_t				 slice_count;
	const char			*node_name;
	int				 all_nodes;
	struct kube_node_selector	*node_selector;
	int				 per_device_node_selection;
	struct kube_device		*devices;
	size_t				 ndevices;
	struct kube_counter_set		*counter_sets;
	size_t				 ncounter_sets;
	int				 stale;		/* older generation */
	const char			*rejected;	/* why the API server
							   would refuse it */
};

/* A pool: all slices of one driver and pool name (joined). */
struct kube_pool {
	const char		*driver;
	const char		*name;
	const char		*node_name;	/* if all slices agree */
	int64_t			 generation;	/* newest seen */
	int64_t			 slice_count;	/* resourceSliceCount */
	size_t			 nslices;	/* at the newest generation */
	size_t			 nstale;	/* at older generations */
	int			 complete;
	const char		*invalid;	/* why it is invalid, or NULL */
	struct kube_slice      **slices;	/* newest generation only */
	size_t			 ndevices;
	size_t			 nallocated;
	size_t			 nblocked;
	size_t			 ntainted;
};

/* Allocation modes; UNKNOWN keeps the text (refuse to evaluate). */
enum kube_alloc_mode {
	KUBE_MODE_EXACT_COUNT,
	KUBE_MODE_ALL,
	KUBE_MODE_UNKNOWN,
};

struct kube_toleration {
	const char	*key;
	const char	*operator;	/* "Equal" (default) or "Exists" */
	const char	*value;
	const char	*effect;	/* NULL matches every effect */
	int64_t		 seconds;	/* -1 when unset */
};

struct kube_capacity_request {
	const char		*domain;
	const char		*id;
	struct kube_quantity	 value;
};

/* Both an ExactDeviceRequest and a DeviceSubRequest. */
struct kube_device_request {
	const char			*name;	/* subrequest name, or "" */
	const char			*class_name;
	const char		       **selectors;	/* CEL expressions */
	size_t				 nselectors;
	enum kube_alloc_mode		 mode;
	const char			*mode_text;
	int64_t				 count;
	int				 admin_access;
	struct kube_toleration		*tolerations;
	size_t				 ntolerations;
	struct kube_capacity_request	*capacity;
	size_t				 ncapacity;
};

struct kube_request {
	const char			*name;
	struct kube_device_request	*exactly;	/* NULL with first_available */
	struct kube_device_request	*first_available;
	size_t				 nfirst_available;
};

struct kube_constraint {
	const char	**requests;
	size_t		  nrequests;
	const char	 *match_attribute;
	const char	 *distinct_attribute;
	const char	 *unknown;	/* a constraint type we do not know */
};

struct kube_claim_spec {
	struct kube_request	*requests;
	size_t			 nrequests;
	struct kube_constraint	*constraints;
	size_t			 nconstraints;
	size_t			 nconfig;
};

struct kube_result {
	const char		*request;	/* "req" or "req/sub" */
	const char		*driver;
	const char		*pool;
	const char		*device;
	int			 admin_access;
	const char		*share_id;
	struct kube_capacity_request *consumed;
	size_t			 nconsumed;
	struct kube_device	*dev;		/* joined, NULL if unknown */
};

struct kube_reserved {
	const char	*resource;	/* "pods" */
	const char	*name;
	const char	*uid;
};

struct kube_pod;

struct kube_claim {
	struct kube_meta		 meta;
	const char			*api_version;
	const char			*rejected;	/* as on a slice */
	struct kube_claim_spec		 spec;
	int				 allocated;
	struct kube_result		*results;
	size_t				 nresults;
	struct kube_node_selector	*alloc_nodes;	/* NULL: everywhere */
	struct kube_reserved		*reserved;
	size_t				 nreserved;
	/* Joined. */
	struct kube_pod		       **pods;		/* pods that use it */
	size_t				 npods;
	const char			*template_name;	/* via its pod */
};

struct kube_claim_template {
	struct kube_meta	meta;
	const char		*api_version;
	const char		*rejected;	/* as on a slice */
	struct kube_claim_spec	spec;
};

struct kube_device_class {
	struct kube_meta	 meta;
	const char		*api_version;
	const char	       **selectors;
	size_t			 nselectors;
	size_t			 nconfig;
	const char		*extended_resource_name;
};

struct kube_taint_rule {
	struct kube_meta	 meta;
	int			 has_selector;	/* absent selects none */
	const char		*driver;	/* NULL: any */
	const char		*pool;
	const char		*device;
	struct kube_taint	 taint;
};

/* spec.resourceClaims[i] of a pod, with the claim it resolves to. */
struct kube_pod_claim {
	const char		*name;
	const char		*claim_name;	/* resourceClaimName */
	const char		*template_name;	/* resourceClaimTemplateName */
	const char		*status_name;	/* status.resourceClaimStatuses */
	struct kube_claim	*claim;		/* joined */
};

struct kube_pod {
	struct kube_meta	 meta;
	const char		*node_name;
	struct kube_kv		*node_selector;	/* spec.nodeSelector */
	size_t			 nnode_selector;
	/* spec.affinity.nodeAffinity.requiredDuringScheduling...; or NULL */
	struct kube_node_selector *affinity;
	const char		*phase;
	const char		*unschedulable;	/* PodScheduled=False message */
	struct kube_pod_claim	*claims;
	size_t			 nclaims;
};

struct kube_node {
	struct kube_meta	 meta;
	int			 ready;		/* Ready condition: 1 True,
						   0 False, -1 Unknown or
						   none */
	int			 unschedulable;
	struct kube_kv		*allocatable;	/* extended resources too */
	size_t			 nallocatable;
	/* Joined. */
	size_t			 ndevices;
	size_t			 nallocated;
};

struct kube_namespace {
	struct kube_meta	meta;
};

struct kube_quota {
	struct kube_meta	 meta;
	struct kube_kv		*hard;		/* spec.hard */
	size_t			 nhard;
	struct kube_kv		*used;		/* status.used */
	size_t			 nused;
};

/* A warning found while decoding or joining, for the command layer. */
struct kube_warning {
	const char	*object;	/* "resourceslice/x", "pool d/p" */
	const char	*message;
};

/* Growable arrays of borrowed pointers, one per kind. */
#define KUBE_VEC(type)	struct { type **v; size_t n, cap; }

struct kube_snapshot {
	struct dra_arena	 arena;
	const char		*source;	/* file name or server URL */
	const char		*served_version; /* resource.k8s.io/vX */
	int64_t			 now;		/* Unix seconds, for ages */

	KUBE_VEC(struct kube_slice)		slices;
	KUBE_VEC(struct kube_claim)		claims;
	KUBE_VEC(struct kube_claim_template)	templates;
	KUBE_VEC(struct kube_device_class)	classes;
	KUBE_VEC(struct kube_taint_rule)	taint_rules;
	KUBE_VEC(struct kube_pod)		pods;
	KUBE_VEC(struct kube_node)		nodes;
	KUBE_VEC(struct kube_namespace)		namespaces;
	KUBE_VEC(struct kube_quota)		quotas;
	KUBE_VEC(struct kube_pool)		pools;
	KUBE_VEC(struct kube_warning)		warnings;
	size_t					ignored; /* other kinds */
	/*
	 * Set by a loader that did not read ResourceSlices (a view that
	 * needs none): allocations are then not checked against the
	 * published devices, and no warning says they are unpublished.
	 */
	int					slices_unread;
	/*
	 * Kinds ("Pod", "ResourceQuota", ...) the caller does not need:
	 * kube_snapshot_add() counts them in ignored, and the file
	 * readers skip them before building their trees.  NULL-terminated,
	 * borrowed; NULL keeps every kind.
	 */
	const char *const			*skip_kinds;
	size_t					ndevices;

	struct kube_index	*index;		/* lookups, after finish */
	void			*intern;	/* string intern table */
	int			 finished;
};

/* An empty snapshot; never NULL.  Free with kube_snapshot_free(). */
struct kube_snapshot *kube_snapshot_new(void);

/* Free s and everything it owns.  NULL is a no-op. */
void	kube_snapshot_free(struct kube_snapshot *s);

/*
 * Decode one object and add it.  obj is borrowed.  Its apiVersion and
 * kind come from the object, else from list_api_version/list_kind (the
 * list it came in: items of a list often lack them; either may be
 * NULL).  Supported: resource.k8s.io v1, v1beta2, v1beta1 (and
 * v1alpha3 DeviceTaintRule) kinds ResourceSlice, ResourceClaim,
 * ResourceClaimTemplate, DeviceClass, DeviceTaintRule; v1 Pod, Node,
 * Namespace, ResourceQuota.  A nested List is unpacked.  Other kinds
 * are counted in s->ignored and skipped.  Unknown fields are ignored;
 * unknown enum values are kept as text and a warning is recorded.
 *
 * Returns KUBE_OK, or KUBE_E_PARSE with err naming the object and the
 * JSON path of the bad field ("resourceslice/x: spec.devices[2].name:
 * expected a string").  After an error s is unchanged apart from arena
 * memory.  Must not be called after kube_snapshot_finish().
 */
int	kube_snapshot_add(struct kube_snapshot *s, const struct cJSON *obj,
	    const char *list_api_version, const char *list_kind,
	    struct dra_err *err);

/*
 * Build the joins (see the file comment).  Mirrors the structured
 * allocator's pool gathering (Kubernetes 1.37, DRA-REFERENCE.md
 * section 6.1): for each (driver, pool) only slices of the newest
 * generation count; a pool is complete when resourceSliceCount slices
 * of that generation are present; a pool is invalid when device names
 * or counter-set names repeat in it or a device consumes a counter set
 * or counter that does not exist.  Counter use per counter set sums
 * the consumesCounters of every allocated device of the pool (on any
 * node), admin-access results excluded; consumable capacity sums
 * consumedCapacity per device.  Taints join slice taints with matching
 * DeviceTaintRules.  Pods join claims by spec.resourceClaims,
 * status.resourceClaimStatuses and reservedFor.  Sorting: slices,
 * pools, claims and nodes by name as kubectl does.  Call it once,
 * after the last kube_snapshot_add(); later calls do nothing.
 */
void	kube_snapshot_finish(struct kube_snapshot *s);

/* Lookups (after finish); NULL when absent.  Borrowed results. */
struct kube_device *kube_snapshot_device(const struct kube_snapshot *s,
	    const char *driver, const char *pool, const char *device);
struct kube_pool *kube_snapshot_pool(const struct kube_snapshot *s,
	    const char *driver, const char *pool);
struct kube_claim *kube_snapshot_claim(const struct kube_snapshot *s,
	    const char *namespace, const char *name);
struct kube_node *kube_snapshot_node(const struct kube_snapshot *s,
	    const char *name);
struct kube_device_class *kube_snapshot_class(
	    const struct kube_snapshot *s, const char *name);
struct kube_pod *kube_snapshot_pod(const struct kube_snapshot *s,
	    const char *namespace, const char *name);
struct kube_claim_template *kube_snapshot_template(
	    const struct kube_snapshot *s, const char *namespace,
	    const char *name);

/*
 * Whether node selector ns matches the node called node_name (n is its
 * Node object, or NULL when the snapshot has none).  Mirrors
 * k8s.io/component-helpers/scheduling/corev1/nodeaffinity NodeSelector
 * .Match (Kubernetes 1.37), which the structured allocator's
 * NodeMatches uses: terms are ORed, a term without requirements
 * matches nothing, matchExpressions test n's labels (In, NotIn,
 * Exists, DoesNotExist; Gt and Lt compare one integer value with an
 * integer label), matchFields test the node's fields with In or NotIn
 * and one value (metadata.name is the only field; others read "").  A
 * requirement Kubernetes would refuse to parse (an unknown operator
 * or field, Gt with two values, ...) makes its term not match.
 * Without n, a term matches only if all its requirements are
 * matchFields (no labels are known).  Returns 1 or 0; NULL ns is 0.
 */
int	kube_node_selector_match(const struct kube_node_selector *ns,
	    const char *node_name, const struct kube_node *n);

/*
 * Whether pod p may run on node node_name (n its Node, or NULL when the
 * snapshot has none) as far as its spec.nodeSelector and required node
 * affinity say (the scheduler's NodeAffinity filter, Kubernetes 1.37:
 * every nodeSelector label must equal the node's; the affinity's terms
 * are matched by kube_node_selector_match()).  Without n, the only
 * label known is kubernetes.io/hostname, taken as node_name; any other
 * label does not match.  A bound pod (spec.nodeName) fits only its
 * node.  Returns 1 or 0.
 */
int	kube_pod_fits_node(const struct kube_pod *p, const char *node_name,
	    const struct kube_node *n);

/*
 * The node a device is usable from: the slice's or the device's
 * nodeName, or NULL for network-attached devices (allNodes or a node
 * selector).
 */
const char *kube_device_node(const struct kube_device *d);

/* Attribute or capacity by domain and id (NULL domain: the driver). */
const struct kube_attr *kube_device_attr(const struct kube_device *d,
	    const char *domain, const char *id);
const struct kube_capacity *kube_device_capacity(
	    const struct kube_device *d, const char *domain, const char *id);

/*
 * The claim's state as kubectl prints it (DRA-REFERENCE.md section 7):
 * "deleted" / "pending" / "allocated" / "allocated,reserved", comma
 * joined.  Writes into buf (len bytes) and returns it.
 */
char	*kube_claim_state(const struct kube_claim *c, char *buf, size_t len);

/* Whether kind is one of s->skip_kinds. */
int	kube_snapshot_skips(const struct kube_snapshot *s, const char *kind);

/* Record a warning (object and printf message are copied). */
void	kube_snapshot_warn(struct kube_snapshot *s, const char *object,
	    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Copy a string into the snapshot, interned (equal strings shared). */
const char *kube_snapshot_intern(struct kube_snapshot *s, const char *str);

#endif
