/*
 * views.h: the tables and texts kubectl-dra shows, built from a
 * finished struct kube_snapshot.
 *
 * Every function here is pure: it reads the snapshot, allocates its
 * result and prints nothing, so the one-shot commands (kubectl-dra/
 * output.c renders a table like kubectl's tabwriter) and the ncurses
 * UI show the same rows.  Strings in a table live in the table's own
 * arena; model objects a row points at are borrowed from the snapshot
 * and stay valid until kube_snapshot_free().
 */
#ifndef DRA_VIEWS_H
#define DRA_VIEWS_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "err.h"
#include "model.h"

struct cJSON;

/* The kinds `get` and the UI know. */
enum dra_kind {
	DRA_KIND_CLAIM,
	DRA_KIND_TEMPLATE,
	DRA_KIND_SLICE,
	DRA_KIND_DEVICE,
	DRA_KIND_POOL,
	DRA_KIND_CLASS,
	DRA_KIND_NODE,
	DRA_KIND_QUOTA,		/* ResourceQuotas: one row per DRA key */
	DRA_KIND_COUNT
};

/*
 * What a kind is called.  name is the plural used in usage texts
 * ("claims"); singular the word describe takes and errors use
 * ("resourceclaim"); api_kind the Kubernetes kind, or NULL for the
 * plugin's own view kinds (devices, pools); resource the prefix of
 * `-o name` ("resourceclaim.resource.k8s.io", "device"); aliases a
 * NULL-terminated list of the other accepted spellings.
 */
struct dra_kind_info {
	enum dra_kind	 kind;
	const char	*name;
	const char	*singular;
	const char	*api_kind;
	const char	*resource;
	int		 namespaced;
	const char	*aliases[8];
};

/* The table of kinds, DRA_KIND_COUNT long, in enum order. */
extern const struct dra_kind_info dra_kinds[DRA_KIND_COUNT];

/*
 * The kind word names (name, singular or an alias, case-insensitive),
 * or NULL.  Borrowed, static.
 */
const struct dra_kind_info *dra_kind_find(const char *word);

/*
 * Label selectors (Kubernetes syntax): "a=b", "a==b", "a!=b", "a",
 * "!a", "a in (x,y)", "a notin (x)", terms joined by commas (AND).
 */
struct dra_selector;

/*
 * Parse text into *out (the caller frees it with dra_selector_free).
 * An empty text selects everything.  Returns KUBE_OK, or KUBE_E_PARSE
 * with err saying what was expected at which 1-based character
 * position ("position 7: expected ')' or ','"); *out is NULL then.
 */
int	dra_selector_parse(const char *text, struct dra_selector **out,
	    struct dra_err *err);

/* Whether labels[0..n) satisfy sel (NULL sel matches everything). */
int	dra_selector_match(const struct dra_selector *sel,
	    const struct kube_kv *labels, size_t n);

/* Free sel; NULL is a no-op. */
void	dra_selector_free(struct dra_selector *sel);

/*
 * Which objects a view shows.  namespace NULL means every namespace
 * (the NAMESPACE column is added for namespaced kinds, as kubectl -A
 * does); it is ignored for cluster-scoped kinds.  selector applies to
 * the object's labels (for devices and pools: the labels of the
 * ResourceSlice that publishes them; for nodes without a Node object:
 * no labels).  names (nnames long, may be 0) keeps only objects with
 * these names (devices: "driver/pool/device" or the device name;
 * pools: "driver/pool" or the pool name); if matched is not NULL it is
 * nnames long and the builder sets matched[i] to 1 for each name that
 * selected at least one row.  All borrowed.
 */
struct dra_filter {
	const char			*namespace;
	const struct dra_selector	*selector;
	char *const			*names;
	size_t				 nnames;
	int				*matched;
};

#define DRA_COL_WIDE	0x01	/* extra column of -o wide */
#define DRA_COL_RIGHT	0x02	/* right-aligned (numbers) */

struct dra_column {
	const char	*name;	/* upper case, static */
	unsigned	 flags;	/* DRA_COL_* */
};

/*
 * One row: ncolumns cells (never NULL; "-" or "" for nothing) and the
 * model object it shows, for -o json|yaml|name and UI selection:
 * struct kube_claim, kube_claim_template, kube_slice, kube_device,
 * kube_pool, kube_device_class, kube_quota (consecutive rows may show
 * one quota, one per key), or for nodes a struct kube_node (NULL
 * when the node is known only from slices; node_name has the name).
 */
struct dra_row {
	const char	**cells;
	const void	 *obj;
	const char	 *node_name;	/* DRA_KIND_NODE only */
};

#define DRA_TABLE_MAXCOLS	16

struct dra_table {
	enum dra_kind		 kind;
	struct dra_column	 columns[DRA_TABLE_MAXCOLS];
	size_t			 ncolumns;
	struct dra_row		*rows;
	size_t			 nrows;
	size_t			 caprows;
	struct dra_arena	 arena;		/* cells */
};

/*
 * Build the table of one kind.  s must be finished
 * (kube_snapshot_finish).  f may be NULL (everything).  With wide the
 * DRA_COL_WIDE columns are added (they are left out otherwise).  Rows
 * come in kubectl's order: by namespace then name; devices by node,
 * driver, pool, then device name in natural order ("gpu-2" before
 * "gpu-10").  Never NULL; free with dra_table_free.
 */
struct dra_table *dra_view(enum dra_kind kind, const struct kube_snapshot *s,
	    const struct dra_filter *f, int wide);
struct dra_table *dra_view_claims(const struct kube_snapshot *s,
	    const struct dra_filter *f, int wide);
struct dra_table *dra_view_templates(const struct kube_snapshot *s,
	    const struct dra_filter *f, int wide);
struct dra_table *dra_view_slices(const struct kube_snapshot *s,
	    const struct dra_filter *f, int wide);
struct dra_table *dra_view_devices(const struct kube_snapshot *s,
	    const struct dra_filter *f, int wide);
struct dra_table *dra_view_pools(const struct kube_snapshot *s,
	    const struct dra_filter *f, int wide);
struct dra_table *dra_view_classes(const struct kube_snapshot *s,
	    const struct dra_filter *f, int wide);
struct dra_table *dra_view_nodes(const struct kube_snapshot *s,
	    const struct dra_filter *f, int wide);

/*
 * The quotas table (views/view_quota.c): one row per ResourceQuota
 * and DRA quota key (dra_quota_key_dra), keys sorted, quotas by
 * namespace and name: NAMESPACE (all namespaces only), NAME,
 * RESOURCE (the key), USED (status.used, "0" when not counted yet),
 * HARD (spec.hard), USE% (dra_quota_use, right-aligned); wide adds
 * AGE.  Keys that are not DRA's are left out, wide or not, and a
 * quota without DRA keys has no row unless f names it (then one row
 * with RESOURCE "<none>").  Consecutive rows share their obj.
 */
struct dra_table *dra_view_quotas(const struct kube_snapshot *s,
	    const struct dra_filter *f, int wide);

/*
 * Whether quota key is one of DRA's, as the ResourceQuota evaluator
 * of ResourceClaims charges them in Kubernetes 1.34 to 1.37
 * (DRA-REFERENCE.md section 5): it names the resource.k8s.io group
 * ("count/resourceclaims.resource.k8s.io",
 * "<class>.deviceclass.resource.k8s.io/devices"), it is a class's
 * implicit extended resource
 * ("requests.deviceclass.resource.kubernetes.io/<class>"), or it is
 * "requests.<name>" and a DeviceClass of s (may be NULL: none) has
 * extendedResourceName <name>.  1 or 0.
 */
int	dra_quota_key_dra(const struct kube_snapshot *s, const char *key);

/*
 * The keys of q's spec.hard that are DRA's (dra is 1) or not (0),
 * sorted by key, into out (room for q->nhard); returns how many.
 * Borrowed from q.
 */
size_t	dra_quota_keys(const struct kube_snapshot *s,
	    const struct kube_quota *q, int dra, const struct kube_kv **out);

/*
 * used of hard as a percent rounded down ("75%", "12%" for 1 of 8,
 * "150%"; quantities such as "10", "40Gi", "500m"), into buf (len
 * bytes), returned; "-" when hard is NULL, unreadable or 0, or used is
 * unreadable; used NULL is 0.
 */
char	*dra_quota_use(const char *used, const char *hard, char *buf,
	    size_t len);

/*
 * Natural order of two names, the order of every list kubectl-dra
 * shows ("gpu-2" before "gpu-10"): runs of digits compare as numbers
 * (leading zeros ignored, so "gpu-02" equals "gpu-2"), other bytes as
 * unsigned chars, a prefix first.  NULL sorts before any string.
 * Returns <0, 0 or >0 as strcmp.  Shared by the views and the UI's
 * sort keys (tui/text.c tui_natkey encodes the same order).
 */
int	dra_natcmp(const char *a, const char *b);

/* Free t and its cells; NULL is a no-op. */
void	dra_table_free(struct dra_table *t);

/*
 * The metadata of a row's object for the API kinds that have one in
 * the model (claims, templates, slices, classes, quotas), else NULL
 * (devices and pools are the plugin's view kinds; a node row may have
 * no Node object).  Borrowed from the snapshot.
 */
const struct kube_meta *dra_row_meta(const struct dra_table *t,
	    const struct dra_row *row);

/*
 * The name of a row's object as `-o name` prints it
 * ("resourceclaim.resource.k8s.io/x", "device/driver/pool/dev",
 * "pool/driver/pool", "node/n").  Writes at most len bytes (NUL
 * included) into buf and returns buf.
 */
char	*dra_row_name(const struct dra_table *t, const struct dra_row *row,
	    char *buf, size_t len);

/*
 * A row's object as a new cJSON tree, which the caller deletes: API
 * kinds through kube_encode (v1 shape, whatever version was read);
 * devices and pools as the plugin's documented view objects,
 * apiVersion dra.kubectl.io/v1alpha1, kind Device or Pool (see
 * views/object.c for the fields).  Nodes known only from slices
 * become a Node with just metadata.name.
 */
struct cJSON *dra_row_object(const struct kube_snapshot *s,
	    const struct dra_table *t, const struct dra_row *row);

/* The Device and Pool view objects (see dra_row_object). */
struct cJSON *dra_device_object(const struct kube_device *d);
struct cJSON *dra_pool_object(const struct kube_pool *p);

/*
 * The age of an object created at `then` (Unix seconds) seen at `now`,
 * in kubectl's short form (apimachinery duration.HumanDuration: "5s",
 * "4m30s", "3h", "2d", "10d", "3y"); "<unknown>" when then is 0 and
 * "<invalid>" when it lies more than a second ahead.  Writes into buf
 * (len bytes) and returns it.
 */
char	*dra_format_age(int64_t now, int64_t then, char *buf, size_t len);

/*
 * A device's state words joined by commas: one of "free",
 * "allocated", "admin" (held only through adminAccess), "shared(N)"
 * or "shared(USED/TOTAL)" for a shareable device, "blocked(SET)" when
 * free but its counter set is used up, then "tainted" and/or
 * "unusable" (pool incomplete or invalid).  Writes into buf.
 */
char	*dra_device_state(const struct kube_device *d, char *buf,
	    size_t len);

/*
 * The attribute id of a device in its driver's domain, else in any
 * domain; NULL when absent.  Borrowed.
 */
const struct kube_attr *dra_device_attr_any(const struct kube_device *d,
	    const char *id);

/* An attribute's value as text ("7", "true", "a,b"), into buf. */
char	*dra_attr_text(const struct kube_attr *a, char *buf, size_t len);

/*
 * Find devices: spec is "driver/pool/device" (pool may contain '/')
 * or a bare device name.  Stores up to max matches in out and returns
 * how many there are in all (may exceed max).
 */
size_t	dra_find_devices(const struct kube_snapshot *s, const char *spec,
	    struct kube_device **out, size_t max);

/*
 * Find pools: spec is "driver/pool" or a pool name, as
 * dra_find_devices.
 */
size_t	dra_find_pools(const struct kube_snapshot *s, const char *spec,
	    struct kube_pool **out, size_t max);

/*
 * `kubectl describe`-style texts ("Name:" fields aligned, sections
 * indented by two spaces).  Each returns a new NUL-terminated string
 * the caller frees.  node_name names a node that may have no Node
 * object (node NULL).
 */
char	*dra_describe_claim(const struct kube_snapshot *s,
	    const struct kube_claim *c);
char	*dra_describe_device(const struct kube_snapshot *s,
	    const struct kube_device *d);
char	*dra_describe_pool(const struct kube_snapshot *s,
	    const struct kube_pool *p);
char	*dra_describe_node(const struct kube_snapshot *s,
	    const char *node_name, const struct kube_node *node);

/*
 * A ResourceQuota as kubectl describe quota shows it (Name, Namespace,
 * then Resource / Used / Hard, here with Use), DRA keys first
 * (dra_quota_key_dra), then the others, each group sorted by key.
 */
char	*dra_describe_quota(const struct kube_snapshot *s,
	    const struct kube_quota *q);

struct dra_why;

/*
 * The `why` report (kube/dra/why.h) for people: target (a heading such
 * as "ResourceClaim default/x"), the verdict, the devices it holds or
 * would get, the claims to release, then the reasons: those of every
 * node, then node by node (the first 5 nodes in full, the others
 * counted by reason code).  Returns a new string the caller frees.
 */
char	*dra_why_text(const char *target, const struct dra_why *w);

/*
 * The stable JSON document of `why -o json`: {"kind": "Why", "target",
 * "claim" (ns/name or null), "allocatable" (true, false, or null when
 * unknown), "verdict" (dra_why_verdict_name()), "summary", "node" (the
 * first node that fits, or the allocated node), "devices": [{"claim",
 * "request", "driver", "pool", "device", and when set "adminAccess":
 * true, "consumedCapacity": "memory=40Gi"}], "nodesConsidered",
 * "fitNodes": [names], "release": ["ns/name"], "releaseNeeds" ("none",
 * "any": one of release[] is enough, "all"), "reasons": [{"node" (null:
 * every node), "claim", "request", "code", "message", "evidence":
 * [lines]}]}.  Returns a new cJSON tree the caller deletes.
 */
struct cJSON *dra_why_json(const char *target, const char *claim,
	    const struct dra_why *w);

#endif
