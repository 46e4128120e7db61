/*
 * apply.h: the model of `kubectl dra apply` (library dra_views): what
 * a Plan document asks the API server to hold, in the order it must
 * be applied; whether the plan still matches the cluster; the backup
 * file that undoes an apply; and what a rollback must do to each
 * object.  No I/O: kubectl-dra/cmd_apply.c sends the requests, prints
 * and writes files.
 *
 * Behaviour comes from:
 *  - server-side apply as `kubectl apply --server-side` does it on
 *    Kubernetes 1.37 (PATCH with Content-Type
 *    application/apply-patch+yaml, a JSON body, ?fieldManager=NAME,
 *    &force=true to take conflicting fields, &dryRun=All to preview;
 *    no managedFields in the body; ../shared/docs/ANCHORS.md section 6);
 *  - `kubectl diff`: live and merged objects written one file each,
 *    named <group>.<version>.<Kind>.<namespace>.<name>, compared with
 *    `diff -u -N` (or $KUBECTL_EXTERNAL_DIFF), after dropping the
 *    fields the server manages;
 *  - the Plan document (docs/PLAN-FORMAT.md: status.manifests,
 *    status.nodeLabels, status.layout), read with pv_read() (the same
 *    checks as the table);
 *  - the backup file and the rollback rules of docs/APPLY.md.
 *
 * Memory: every struct here owns its strings and cJSON trees; free it
 * with its _free function (NULL or zeroed structs are no-ops).
 * Allocation failure is fatal (xmalloc.h).
 */
#ifndef DRA_APPLY_H
#define DRA_APPLY_H

#include <stddef.h>

#include "err.h"

struct cJSON;
struct kube_snapshot;

#define DRA_APPLY_FIELD_MANAGER	"kubectl-dra"
#define DRA_APPLY_MANAGED_BY	"app.kubernetes.io/managed-by"
#define DRA_APPLY_BACKUP_API	"dra.kubectl.io/v1alpha1"
#define DRA_APPLY_BACKUP_KIND	"ApplyBackup"
/* The only ConfigMap, quota name and node label a plan may write. */
#define DRA_APPLY_MIG_NS	"gpu-operator"
#define DRA_APPLY_MIG_CM	"default-mig-parted-config"
#define DRA_APPLY_QUOTA_NAME	"dra-plan"
#define DRA_APPLY_MIG_LABEL	"nvidia.com/mig.config"

/* The kinds a plan may hold, in the order they are applied. */
enum dra_apply_kind {
	DRA_APPLY_PRIORITY_CLASS,	/* scheduling.k8s.io/v1 */
	DRA_APPLY_DEVICE_CLASS,		/* resource.k8s.io/v1 */
	DRA_APPLY_CONFIG_MAP,		/* v1, the mig-parted config */
	DRA_APPLY_QUOTA,		/* v1 ResourceQuota */
	DRA_APPLY_NODE,			/* v1 Node: labels only */
};

/* One object to apply. */
struct dra_apply_item {
	enum dra_apply_kind	 kind;
	char			*api_version;	/* "resource.k8s.io/v1" */
	char			*kind_name;	/* "DeviceClass" */
	char			*ns;		/* NULL: cluster-scoped */
	char			*name;
	/*
	 * The object's REST path, "/apis/resource.k8s.io/v1/
	 * deviceclasses/NAME" or "/api/v1/namespaces/NS/resourcequotas/
	 * NAME" (names are checked to be DNS names: nothing to escape).
	 */
	char			*path;
	/* kubectl's name: "deviceclass.resource.k8s.io/NAME",
	   "resourcequota/NAME", "node/NAME". */
	char			*display;
	char			*source;	/* "status.manifests[3]" */
	/*
	 * The server-side apply body: the manifest without managedFields,
	 * resourceVersion, uid, creationTimestamp, generation and status,
	 * labelled app.kubernetes.io/managed-by: kubectl-dra; for a Node,
	 * only apiVersion, kind, metadata.name and metadata.labels.
	 */
	struct cJSON		*body;
};

struct dra_apply_items {
	struct dra_apply_item	*v;
	size_t			 n;
	char			**namespaces;	/* distinct, in order */
	size_t			 nns;
};

/*
 * The objects plan (a Plan document, kubectl dra plan -o json|yaml,
 * borrowed) asks for: status.manifests and status.nodeLabels, sorted
 * into the order they must be applied (PriorityClasses,
 * DeviceClasses, the ConfigMap, ResourceQuotas, Nodes; the plan's
 * order within a kind), each with its REST path and apply body, and
 * the namespaces they need.  *out is filled (release it with
 * dra_apply_items_free() whatever the result).
 *
 * Errors, KUBE_E_PARSE, the message naming the field by its path:
 * those of pv_read() ("kind: expected \"Plan\""); "status.layout:
 * missing: the plan is infeasible (status.solver.status), it has
 * nothing to apply"; "status.manifests[2].kind: \"Secret\" is not a
 * kind a plan holds (PriorityClass, DeviceClass, ConfigMap,
 * ResourceQuota)"; "status.manifests[2].apiVersion: expected v1 for a
 * ResourceQuota"; "status.manifests[2].metadata.name: \"a/b\" is not
 * a valid name"; "status.manifests[2].metadata.namespace: missing";
 * "status.nodeLabels[0].labels: expected a mapping of strings"; an
 * object named twice.  Only what docs/PLAN-FORMAT.md names is
 * accepted: the ConfigMap gpu-operator/default-mig-parted-config,
 * quotas named dra-plan, the node label nvidia.com/mig.config.  The
 * parts must agree (a cut or edited file does not): each node label
 * names a configuration of the ConfigMap's config.yaml mig-configs, on
 * a node of status.layout; each layout node with a GPU in static or
 * whole mode is labelled; each team with a quota in status.teams has
 * its ResourceQuota with the same spec.hard, and no other quota is
 * there.
 */
int	dra_apply_items(const struct cJSON *plan, struct dra_apply_items *out,
	    struct dra_err *err);

void	dra_apply_items_free(struct dra_apply_items *items);

/*
 * A copy of obj (a Kubernetes object; NULL gives NULL) without what
 * the server manages and a diff should not show: metadata.managedFields,
 * resourceVersion, uid, creationTimestamp, generation, selfLink, and
 * status.  The caller deletes it.
 */
struct cJSON *dra_apply_normalize(const struct cJSON *obj);

/* What an apply does (or did) to an object. */
enum dra_apply_change {
	DRA_CHANGE_CREATED,
	DRA_CHANGE_CONFIGURED,
	DRA_CHANGE_UNCHANGED,
};

/*
 * The change from live (the object before; NULL when absent) to
 * result (the server's answer to the apply or its dry run), compared
 * normalized (dra_apply_normalize()): created, configured or
 * unchanged, as kubectl reports them.
 */
enum dra_apply_change dra_apply_compare(const struct cJSON *live,
	    const struct cJSON *result);

/* "created", "configured", "unchanged". */
const char *dra_apply_change_name(enum dra_apply_change c);

/*
 * The file name `kubectl diff` gives an object in its LIVE and MERGED
 * directories: "<apiVersion with / as .>.<Kind>.<namespace>.<name>"
 * ("resource.k8s.io.v1.DeviceClass..mig-1g-10gb.gpu.nvidia.com" when
 * cluster-scoped).  Into buf (len bytes), returned.
 */
char	*dra_apply_diff_name(const char *api_version, const char *kind,
	    const char *ns, const char *name, char *buf, size_t len);

/*
 * What --force-conflicts takes, from msg, the message of the 409 a
 * server-side apply without force=true answers (apimachinery's
 * managedfields conflict.go wording: "Apply failed with 1 conflict:
 * conflict with \"other\": .spec.hard.x", or "Apply failed with 3
 * conflicts: conflicts with \"a\":\n- .x\n- .y\nconflicts with \"b\"
 * using v1:\n- .z"): "taking .spec.hard.x from \"other\"", "taking
 * .x, .y from \"a\"; .z from \"b\" using v1" (each manager as the
 * server names it, with its subresource or Update's API version).
 * NULL when msg names no conflict (msg NULL too).  Malloc'd; the
 * caller frees it.
 */
char	*dra_apply_conflict_takes(const char *msg);

/*
 * Whether the plan still matches the cluster.  problems are reasons to
 * refuse it; notes are differences the apply survives (a GPU it leaves
 * alone now holds a claim it did not plan for).  Each string is
 * malloc'd, one line, naming the node, GPU, device and claim.
 */
struct dra_apply_stale {
	char	**problems;
	size_t	  nproblems;
	char	**notes;
	size_t	  nnotes;
};

/*
 * Check plan (borrowed) against s (a finished snapshot of the
 * cluster with its nodes, ResourceSlices and ResourceClaims; borrowed),
 * filling *out (free with dra_apply_stale_free() whatever the result):
 *  - every node of status.layout exists as a Node ("node gpu-node-9:
 *    no longer exists"; a plan made for a --fleet is named as such);
 *  - every GPU of the layout is still published on its node, with the
 *    same PCI bus ID when the plan records one;
 *  - every device a dynamic MIG GPU's instances name is still
 *    published;
 *  - a GPU the plan repartitions (rebuilt, changed, or a mode other
 *    than today's) holds no allocated claim that the plan does not
 *    keep: claims the plan keeps are those its owner.kind running and
 *    moved name, anywhere in the layout ("gpu-node-1/gpu-3: claim
 *    team-x/train-0 now holds gpu-3 (allocated after the plan was
 *    made); the plan changes its partitioning");
 *  - such a claim on a GPU the plan does not repartition is a note;
 *  - no ResourceQuota of the plan has a hard value its namespace's
 *    claims already exceed ("quota dra-plan in team-c: count/
 *    resourceclaims.resource.k8s.io: 6 used, the plan's hard is 5: the
 *    namespace's claims already exceed it"; reaching it is fine).  The
 *    claims are charged as the ResourceQuota evaluator charges them
 *    (the inventory's usage: count/resourceclaims, <class>.deviceclass.
 *    resource.k8s.io/devices, requests.deviceclass.resource.
 *    kubernetes.io/<class>, and requests.<ext> for the classes of the
 *    plan or of s mapping ext), so USED is what `kubectl dra get
 *    quotas` shows once the quota exists; Pods' own extended resource
 *    requests are not counted.
 * GPUs come from plan_inventory_from_snapshot() (planner/inventory.h),
 * so a GPU and its holders are what `plan` would see now.
 * Returns KUBE_OK, or the errors of pv_read() (KUBE_E_PARSE) and of
 * plan_inventory_from_snapshot().
 */
int	dra_apply_stale(const struct cJSON *plan,
	    const struct kube_snapshot *s, struct dra_apply_stale *out,
	    struct dra_err *err);

void	dra_apply_stale_free(struct dra_apply_stale *st);

/*
 * The backup file (docs/APPLY.md): the state before an apply of every
 * object it touches, and a journal of what it did.
 */
struct dra_backup_obj {
	char		*api_version;
	char		*kind;
	char		*ns;		/* NULL: cluster-scoped */
	char		*name;
	char		*path;		/* its REST path */
	char		*display;	/* "resourcequota/dra-plan" */
	int		 present;	/* it existed before the apply */
	struct cJSON	*object;	/* present: the whole object then */
	/*
	 * Node: the labels the plan sets, each with its value before
	 * (a string) or null when the node did not have it.  NULL for
	 * other kinds.
	 */
	struct cJSON	*labels;
	int		 applied;	/* the apply of it succeeded */
	char		*uid;		/* uid of the object it created */
	/*
	 * The journal of the apply (dra_backup_applied()): the object's
	 * resourceVersion right after it was applied, and what it was
	 * then: a Node's labels the plan set ({"metadata": {"labels":
	 * {...}}}), else the object without status (its managedFields
	 * kept).  NULL in a backup of an older kubectl-dra, or for an
	 * object not applied.
	 */
	char		*applied_rv;
	struct cJSON	*applied_obj;
};

struct dra_backup {
	char			*created;	/* RFC 3339 */
	char			*server;	/* kube_client_server() */
	char			*context;
	char			*plan;		/* the plan's file name */
	/* "prepared", "applying", "complete" or "stopped". */
	char			*phase;
	struct dra_backup_obj	*v;
	size_t			 n;
};

/*
 * Append item's state to b: live (the object as GET returned it,
 * borrowed, copied; NULL when it does not exist).  For a Node, labels
 * records the previous value of each label the item sets.
 */
void	dra_backup_add(struct dra_backup *b, const struct dra_apply_item *it,
	    const struct cJSON *live);

/*
 * Journal in o that apply just applied it: result is the object as the
 * server answered the last write of it (borrowed); its resourceVersion
 * and content (docs/APPLY.md: appliedResourceVersion, appliedObject)
 * let a rollback tell what changed since.  Nothing is recorded when
 * result has no resourceVersion.
 */
void	dra_backup_applied(struct dra_backup_obj *o,
	    const struct cJSON *result);

/*
 * b as a backup document (apiVersion dra.kubectl.io/v1alpha1, kind
 * ApplyBackup), a new cJSON tree the caller deletes.
 */
struct cJSON *dra_backup_encode(const struct dra_backup *b);

/*
 * Read a backup document doc (borrowed) into *b (free with
 * dra_backup_free() whatever the result).  Every field is checked;
 * errors are KUBE_E_PARSE naming the field ("objects[2].state:
 * expected present or absent", "kind: expected \"ApplyBackup\"",
 * "objects[1].object: missing (state present)", "objects[0].path:
 * \"/x\" is not the path of a Node named n").
 */
int	dra_backup_decode(const struct cJSON *doc, struct dra_backup *b,
	    struct dra_err *err);

void	dra_backup_free(struct dra_backup *b);

/*
 * After apply created obj (the answer of its create-only POST,
 * borrowed) and applied it: the JSON merge patch that removes the
 * managedFields entries of kubectl-dra with operation Update that the
 * POST left, so that kubectl-dra owns the object through Apply only,
 * as a server-side apply that created it would ({"metadata":
 * {"resourceVersion": obj's, "managedFields": [the other entries]}};
 * the resourceVersion makes it fail with 409 when someone wrote in
 * between).  The API server takes a write's managedFields as given
 * when they differ and no value changes.  NULL when there is no such
 * entry or no other entry would be left.  The caller deletes it.
 */
struct cJSON *dra_apply_owner_patch(const struct cJSON *obj);

/* What rolling one object back does. */
enum dra_rollback_action {
	DRA_RB_NOTHING,		/* already as in the backup */
	DRA_RB_RESTORE,		/* PUT body at path */
	DRA_RB_RECREATE,	/* POST body to the collection */
	DRA_RB_DELETE,		/* DELETE path, body = DeleteOptions */
	DRA_RB_LABELS,		/* PATCH path, merge patch body */
	DRA_RB_KEEP,		/* left alone: not created by apply */
};

struct dra_rollback_step {
	enum dra_rollback_action  action;
	struct cJSON		 *body;		/* NULL for NOTHING, KEEP */
	char			 *why;		/* NOTHING, KEEP: one line */
	/*
	 * What changed the object since the apply, or NULL: "changed
	 * since the apply (resourceVersion 812 -> 907) by \"other\"", for
	 * a Node with the labels ("(nvidia.com/mig.config all-balanced ->
	 * all-1g.10gb)"), or "deleted since the apply (resourceVersion
	 * 812 then)".  Only when the backup journaled the apply
	 * (applied_rv) and the live object differs from what it applied
	 * (a Node: in the labels the plan set; another kind: normalized,
	 * dra_apply_normalize(), so a quota's status does not count).
	 * drift_ours: one of those named is kubectl-dra itself (a later
	 * apply).
	 */
	char			 *drift;
	int			  drift_ours;
};

/*
 * What rolling back o (one object of a backup, borrowed) does given
 * live, the object now (borrowed; NULL when absent):
 *  - absent then and now: NOTHING;
 *  - absent then, present now: DELETE with preconditions.uid = live's
 *    uid, only when live carries app.kubernetes.io/managed-by:
 *    kubectl-dra and has the uid the backup recorded as created by
 *    that apply (createdUID); without a recorded uid, or with another,
 *    KEEP, saying why: a rollback never deletes what it did not
 *    create;
 *  - a Node gone: KEEP (a Node is never re-created);
 *  - present then, absent now: RECREATE with the backup's object
 *    (without resourceVersion, uid, managedFields, status);
 *  - a Node: LABELS, a JSON merge patch putting back each label the
 *    plan set (null removes it), or NOTHING when they already are;
 *  - present both: RESTORE, a PUT body of the backup's object at
 *    live's resourceVersion (its managedFields too, so field
 *    ownership is as it was; no uid, no status), or NOTHING when the
 *    normalized objects are equal.
 * And st->drift, when the step changes something (not NOTHING, KEEP).
 * Fills *st (free with dra_rollback_step_free()).
 */
void	dra_rollback_step(const struct dra_backup_obj *o,
	    const struct cJSON *live, struct dra_rollback_step *st);

void	dra_rollback_step_free(struct dra_rollback_step *st);

/*
 * After a Node's labels were put back (now: the Node the merge patch
 * answered, borrowed): the JSON merge patch that gives each label the
 * plan set its owners again.  Every managedFields entry of now loses
 * the labels of o->labels (an entry left empty goes); each label that
 * had a value before is owned again by the entries (same manager,
 * operation and subresource) that owned it in o->object, added back
 * when they are gone.  So kubectl-dra owns none of them, through
 * Update or Apply, unless it did before.  Body as
 * dra_apply_owner_patch(), at now's resourceVersion; NULL when the
 * owners already are so (or o is not a Node).  The caller deletes it.
 */
struct cJSON *dra_rollback_label_owners(const struct dra_backup_obj *o,
	    const struct cJSON *now);

#endif
