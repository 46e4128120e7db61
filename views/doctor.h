/*
 * doctor.h: the checks of `kubectl dra doctor` (docs/DOCTOR.md), each
 * a finding with a verdict, a one-line detail naming the objects, the
 * objects one by one, and a one-line fix.
 *
 * The checks that read only a finished struct kube_snapshot live here
 * as pure functions: each appends one struct dra_doctor_check to a
 * report.  The live checks (the server's /version, the
 * resource.k8s.io versions it serves, the feature gates probed with
 * server-side dry runs) need the network, which views/ may not use:
 * kubectl-dra/cmd_doctor.c makes the requests and hands the answers to
 * the pure builders below (dra_doctor_server, dra_doctor_api,
 * dra_doctor_features), so that every verdict rule is here, in one
 * place, and unit-tested.
 *
 * Nothing here prints.  A report owns every string reachable from it
 * (malloc'd, freed by dra_doctor_report_free); model objects are only
 * read, never kept.
 */
#ifndef DRA_DOCTOR_H
#define DRA_DOCTOR_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

struct cJSON;

/*
 * Verdicts, in increasing severity.  Skipped (a live check run with
 * --from, or a check without the objects it needs in a file) does not
 * make the report not ready.
 */
enum dra_doctor_verdict {
	DRA_DOCTOR_READY,
	DRA_DOCTOR_SKIPPED,
	DRA_DOCTOR_WARNING,
	DRA_DOCTOR_FAILED,
};

/* One object a check names, with what it says about it. */
struct dra_doctor_finding {
	char	*object;	/* "node/n1", "resourceclaim/ns/x", ... */
	char	*message;	/* one line, no newline */
};

struct dra_doctor_check {
	const char			*name;		/* static, see below */
	enum dra_doctor_verdict		 verdict;
	char				*detail;	/* one line */
	char				*fix;		/* one line, or NULL */
	struct dra_doctor_finding	*findings;
	size_t				 nfindings;
	size_t				 capfindings;
};

struct dra_doctor_report {
	struct dra_doctor_check	*checks;
	size_t			 nchecks;
	size_t			 capchecks;
};

/*
 * What a detail line names before "and N more" (the JSON and the
 * findings list every object).
 */
#define DRA_DOCTOR_NAMES	3

/*
 * At most this many pending claims are explained with dra_why(), the
 * oldest first (each runs the allocator on every node).
 */
#define DRA_DOCTOR_WHY_MAX	50

/* Utilization target and ceiling, percent (docs/DOCTOR.md). */
#define DRA_DOCTOR_TARGET	80
#define DRA_DOCTOR_CEILING	95

/* Kinds a check reads, for dra_doctor_opts.unread and .partial. */
#define DRA_DOCTOR_K_SLICES	0x001
#define DRA_DOCTOR_K_CLAIMS	0x002
#define DRA_DOCTOR_K_TEMPLATES	0x004
#define DRA_DOCTOR_K_CLASSES	0x008
#define DRA_DOCTOR_K_TAINT_RULES 0x010
#define DRA_DOCTOR_K_PODS	0x020
#define DRA_DOCTOR_K_NODES	0x040
#define DRA_DOCTOR_K_NAMESPACES	0x080
#define DRA_DOCTOR_K_QUOTAS	0x100

/*
 * How the snapshot checks run.  Zero it, then set:
 *   pending_threshold  seconds (fractions allowed) a claim may stay
 *                      pending before pending-claims names it (0:
 *                      every pending claim); ages are whole seconds
 *                      from s->now and each claim's creationTimestamp,
 *                      a negative age counts as 0
 *   unread             DRA_DOCTOR_K_* kinds that could not be read at
 *                      all (403): a check that needs one becomes
 *                      Warning "cannot read <resource>: forbidden"
 *   partial            namespaced kinds read only in partial_ns (the
 *                      namespace-limited user's own): the check runs
 *                      on what was read and is at least a Warning
 *                      saying what it could not see
 *   partial_ns         that namespace
 *   absent             DRA_DOCTOR_K_* kinds the source did not capture
 *                      (a file that holds no object of the kind and is
 *                      not a whole-cluster capture): a check that
 *                      reads one is Skipped, naming the kind and how
 *                      to capture it (kubectl dra snapshot); Pods only
 *                      drop pending-claims' "no pod uses it"
 *   taint_rules_unserved  the cluster serves no devicetaintrules in
 *                      the version read (none can exist): taint-rules
 *                      is Ready and says so
 *   skip               when not NULL, every snapshot check is Skipped
 *                      with this detail (the cluster serves no
 *                      resource.k8s.io version kubectl-dra reads)
 * All borrowed.
 */
struct dra_doctor_opts {
	double		 pending_threshold;
	unsigned	 unread;
	unsigned	 partial;
	const char	*partial_ns;
	unsigned	 absent;
	int		 taint_rules_unserved;
	const char	*skip;
};

/* An empty report; never NULL.  Free with dra_doctor_report_free(). */
struct dra_doctor_report *dra_doctor_report_new(void);

/* Free r and every string it holds.  NULL is a no-op. */
void	dra_doctor_report_free(struct dra_doctor_report *r);

/*
 * Append a check called name (static, borrowed: a stable lower-case
 * word such as "server-version") with verdict v and the printf-style
 * detail; returns it, owned by r, for dra_doctor_fix() and
 * dra_doctor_find().  The pointer is valid until the next
 * dra_doctor_add() on r.
 */
struct dra_doctor_check *dra_doctor_add(struct dra_doctor_report *r,
	    const char *name, enum dra_doctor_verdict v, const char *fmt, ...)
	    __attribute__((format(printf, 4, 5)));

/* Set c's fix line (printf-style; replaces an earlier one). */
void	dra_doctor_fix(struct dra_doctor_check *c, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/* Append a finding: object (copied) and a printf-style message. */
void	dra_doctor_find(struct dra_doctor_check *c, const char *object,
	    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* "Ready", "Skipped", "Warning", "Failed" (static). */
const char *dra_doctor_verdict_name(enum dra_doctor_verdict v);

/*
 * The live checks, from the answers cmd_doctor.c obtained.
 *
 * dra_doctor_server: "server-version".  git_version is /version's
 * gitVersion ("v1.37.2"), major and minor its numbers.  Ready from
 * 1.34 (resource.k8s.io/v1 GA, DRA on by default; DRA-REFERENCE.md
 * section 1) up to 1.37; Ready with a note above 1.37 (newer than what
 * kubectl-dra was checked against); Warning for 1.32 and 1.33 (DRA
 * beta: off unless the DynamicResourceAllocation gate and the beta API
 * are switched on); Failed below 1.32 (no API version kubectl-dra
 * reads).
 */
void	dra_doctor_server(struct dra_doctor_report *r, const char *git_version,
	    int major, int minor);

/*
 * dra_doctor_api: "dra-api".  served is the comma-separated list of
 * resource.k8s.io versions the server serves of those kubectl-dra
 * reads ("v1,v1beta2"; "" or NULL: none), reading the one read.
 * Ready when v1 is served; Warning when only v1beta2/v1beta1 are
 * (deprecated, removed in 1.39 and 1.38); Failed when none is (the
 * DRA checks cannot run).
 */
void	dra_doctor_api(struct dra_doctor_report *r, const char *served,
	    const char *reading);

/*
 * dra_doctor_unreadable: a live check whose request failed for a
 * reason that is not the check's answer (403, an error status): name
 * becomes Warning "cannot <what>: <why>" with a fix about permissions
 * when forbidden is set.
 */
void	dra_doctor_unreadable(struct dra_doctor_report *r, const char *name,
	    const char *what, const char *why, int forbidden);

/*
 * dra_doctor_skip: name becomes Skipped with the detail why (for
 * instance the live checks under --from).
 */
void	dra_doctor_skip(struct dra_doctor_report *r, const char *name,
	    const char *why);

/*
 * A feature probe: a server-side dry-run create (POST
 * <collection>?dryRun=All) of an object that sets a field only a
 * feature gate lets through.  When the gate is off the API server
 * drops the field on write (DRA-REFERENCE.md section 2.6), so its
 * absence from the answer is the gate's state.  gate is the gate's
 * name; resource the collection ("resourceclaims", namespaced, or
 * "resourceslices", "deviceclasses"); body the object as JSON text
 * (resource.k8s.io/v1 shape; cmd_doctor.c replaces the apiVersion
 * with the version read when it is v1beta2, the same shape; probes
 * are not sent to a v1beta1-only server); field the dotted path of
 * the gated field in the answer ("spec.devices.requests.0.
 * firstAvailable", numbers index arrays).
 */
struct dra_doctor_probe {
	const char	*gate;
	const char	*resource;
	int		 namespaced;
	const char	*body;
	const char	*field;
};

/* The probes, dra_doctor_nprobes of them, in the order they run. */
extern const struct dra_doctor_probe	dra_doctor_probes[];
extern const size_t			dra_doctor_nprobes;

/*
 * Whether the dry-run answer (a parsed object, borrowed) kept p's
 * field: 1 kept (the gate is on), 0 dropped (off).  A NULL answer is
 * 0.
 */
int	dra_doctor_probe_kept(const struct dra_doctor_probe *p,
	    const struct cJSON *answer);

/* What a probe came to. */
enum dra_doctor_probe_state {
	DRA_DOCTOR_PROBE_ON,		/* the field was kept */
	DRA_DOCTOR_PROBE_OFF,		/* dropped, or refused as invalid
					   once dropped (422) */
	DRA_DOCTOR_PROBE_FORBIDDEN,	/* 403: the user may not create it */
	DRA_DOCTOR_PROBE_ERROR,		/* another failure; message says */
};

struct dra_doctor_probe_result {
	const struct dra_doctor_probe	*probe;
	enum dra_doctor_probe_state	 state;
	const char			*message;	/* ERROR: why; borrowed */
};

/*
 * dra_doctor_features: "feature-gates" from n probe results (borrowed)
 * and whether the version read serves devicetaintrules (the
 * DRADeviceTaintRules gate; discovery).  Ready when every probe is on
 * and DeviceTaintRules are served; Warning when a gate is off (its
 * field is silently dropped: objects using it lose it), when a probe
 * was forbidden ("cannot probe: forbidden", never fatal) or failed.
 * One finding per gate, "gate/<Name>", saying on, off or why unknown.
 */
void	dra_doctor_features(struct dra_doctor_report *r,
	    const struct dra_doctor_probe_result *res, size_t n,
	    int taint_rules_served);

/*
 * The snapshot checks.  Each appends exactly one check to r, reading
 * the finished snapshot s (borrowed) with the options o (NULL: all
 * zero).  Rules and sources (docs/DOCTOR.md has the fixes):
 *
 * dra_doctor_device_plugin: "device-plugin".  A node whose
 * status.allocatable advertises an extended resource > 0 of a device
 * plugin (nvidia.com/gpu, nvidia.com/mig-..., amd.com/gpu,
 * gpu.intel.com/...) while a DRA driver of the same vendor
 * (gpu.nvidia.com, gpu.amd.com, gpu.intel.com) publishes devices on
 * that node, or while a DeviceClass whose extendedResourceName is that
 * resource matches devices published on that node: both would hand out
 * the same GPUs (NVIDIA-MIG.md section 1.1: the device-plugin stack
 * and the DRA driver are not used together).  Failed, one finding per
 * node.  Needs nodes, slices, classes.
 *
 * dra_doctor_pools: "pools".  Pool completeness and validity as the
 * structured allocator's pool gathering computes them (Kubernetes
 * 1.37, DRA-REFERENCE.md section 6.1; joined by kube_snapshot_finish):
 * an invalid pool (duplicate device or counter-set names, a missing
 * counter set or counter) is Failed; an incomplete pool (fewer slices
 * than resourceSliceCount at the newest generation) is a Warning (the
 * allocator skips both; an update in progress is incomplete for a
 * moment).  Pools with slices of an older generation are noted.
 * Needs slices.
 *
 * dra_doctor_orphan_slices: "orphan-slices".  ResourceSlices whose
 * spec.nodeName, or a device's nodeName, names a node that has no Node
 * object: Warning (the allocator never reaches them; a kubelet
 * plugin's slices name the Node as owner and are garbage-collected
 * with it, these were not).  Needs slices, nodes.
 *
 * dra_doctor_pending_claims: "pending-claims".  Claims without an
 * allocation, not being deleted, pending for at least
 * o->pending_threshold seconds.  The DRA_DOCTOR_WHY_MAX oldest are
 * explained with dra_why() (kube/dra/why.h): its verdict, summary and
 * its most telling reason (one about the claim, such as its request
 * selectors, before one that says only that the class matches nothing
 * on some node; a selector reason with the selector); the others name
 * the `kubectl dra why` command, after a cheap test that proves
 * never: a request whose class is missing or that no published device
 * matches (class and request selectors).  Failed when a claim can
 * never be allocated or is blocked (dra_why NEVER, BLOCKED, or the
 * cheap test), else Warning; such claims come first in the findings.  The fix says what
 * the reasons shown point at (request selectors, class, devices in
 * use, taints, ...) and names a claim's why command.  "no pod uses it"
 * is added when no Pod references the claim (not when Pods are unread
 * or absent).  Needs claims, slices, classes (nodes, pods, namespaces
 * for the why).
 *
 * dra_doctor_leaked_claims: "leaked-claims".  Allocated claims
 * reserved for no pod (status.reservedFor empty), not being deleted,
 * with their devices and age: their devices stay allocated and no pod
 * runs with them.  Warning.  (The resourceclaim controller of
 * Kubernetes 1.37 deallocates a claim when it removes its last
 * reservation, so these come from allocations written without one.)
 * Needs claims.
 *
 * dra_doctor_class_selectors: "class-selectors".  Every DeviceClass's
 * selectors (kube/dra/cel.h, cel-go semantics: every selector must be
 * true) over every device published in the newest generation of any
 * pool.  Failed: a selector that does not compile, or that errs at
 * run time (a missing attribute: "no such key") while no device
 * matches: no pod asking for the class gets a device.  Warning: a
 * selector that errs on some devices while others match (the
 * structured allocator returns the error, and the pod stays pending,
 * only when it evaluates such a device on a node before it has found
 * what the claim needs: shared case 01; the scheduler may allocate
 * claims of the class where matching devices come first), named with
 * the error and the first such device; a class that matches no device.
 * Needs classes, slices.
 *
 * dra_doctor_quota_coverage: "quota-coverage".  Namespaces whose
 * claims or claim templates request a DeviceClass (exactly or any
 * firstAvailable subrequest) while no ResourceQuota of the namespace
 * limits that class: a hard key <class>.deviceclass.resource.k8s.io/
 * devices, requests.deviceclass.resource.kubernetes.io/<class>, or
 * requests.<the class's extendedResourceName> (the ResourceQuota
 * evaluator of ResourceClaims, DRA-REFERENCE.md section 5;
 * count/resourceclaims alone bounds claims, not devices).  Warning,
 * one finding per namespace and class.  Needs claims, templates,
 * quotas (classes for extended resource names).
 *
 * dra_doctor_utilization: "utilization".  Per DeviceClass: of the
 * devices its selectors match in complete, valid pools, how many are
 * in use: allocated (not only through adminAccess) or blocked (free,
 * but a counter they consume is used up, e.g. a MIG placement
 * overlapping an allocated one).  Above DRA_DOCTOR_CEILING percent:
 * Failed (new claims of the class will wait); at or above
 * DRA_DOCTOR_TARGET: Ready with the class named in the detail and a
 * finding.  The planner's policy (planner.h: in use at most the
 * ceiling) and `top`'s colours draw the same lines.
 * Needs classes, slices, claims.
 *
 * dra_doctor_taint_rules: "taint-rules".  DeviceTaintRules with effect
 * NoSchedule or NoExecute, each with the devices it taints now
 * (kube_snapshot_finish joins rules to devices, DRA-REFERENCE.md
 * section 2.4): Warning.  Rules with effect None only report what
 * NoExecute would evict: Ready, named in the detail.  Needs taint
 * rules, slices.
 */
void	dra_doctor_device_plugin(struct dra_doctor_report *r,
	    const struct kube_snapshot *s, const struct dra_doctor_opts *o);
void	dra_doctor_pools(struct dra_doctor_report *r,
	    const struct kube_snapshot *s, const struct dra_doctor_opts *o);
void	dra_doctor_orphan_slices(struct dra_doctor_report *r,
	    const struct kube_snapshot *s, const struct dra_doctor_opts *o);
void	dra_doctor_pending_claims(struct dra_doctor_report *r,
	    const struct kube_snapshot *s, const struct dra_doctor_opts *o);
void	dra_doctor_leaked_claims(struct dra_doctor_report *r,
	    const struct kube_snapshot *s, const struct dra_doctor_opts *o);
void	dra_doctor_class_selectors(struct dra_doctor_report *r,
	    const struct kube_snapshot *s, const struct dra_doctor_opts *o);
void	dra_doctor_quota_coverage(struct dra_doctor_report *r,
	    const struct kube_snapshot *s, const struct dra_doctor_opts *o);
void	dra_doctor_utilization(struct dra_doctor_report *r,
	    const struct kube_snapshot *s, const struct dra_doctor_opts *o);
void	dra_doctor_taint_rules(struct dra_doctor_report *r,
	    const struct kube_snapshot *s, const struct dra_doctor_opts *o);

/*
 * The namespaces whose Pods pending-claims reads (to say "no pod uses
 * it"): those holding a claim it names, pending for at least
 * o->pending_threshold (NULL: all zero).  Works on a snapshot whose
 * claims are added but not yet finished, so that a live load lists
 * Pods only there (none at all without such a claim).  Up to max
 * names into out (borrowed from s); returns their number, or max + 1
 * when there are more (then list the Pods of every namespace).
 */
size_t	dra_doctor_pod_namespaces(const struct kube_snapshot *s,
	    const struct dra_doctor_opts *o, const char **out, size_t max);

/*
 * Every snapshot check above, in that order, evaluating each class's
 * selectors over the devices once for the three checks that need
 * them.
 */
void	dra_doctor_snapshot(struct dra_doctor_report *r,
	    const struct kube_snapshot *s, const struct dra_doctor_opts *o);

/*
 * Count r's checks by verdict: *failed and *warnings (either may be
 * NULL).  Returns 1 when the report is ready (no Warning, no Failed).
 */
int	dra_doctor_ready(const struct dra_doctor_report *r, size_t *failed,
	    size_t *warnings);

/*
 * The overall line: "Ready", "Ready (N checks skipped)", or "Not
 * ready: 2 failed, 1 warning".  Into buf (len bytes), returned.
 */
char	*dra_doctor_overall(const struct dra_doctor_report *r, char *buf,
	    size_t len);

/*
 * The report for people: a table CHECK, VERDICT, DETAIL with the
 * detail wrapped at width columns (at least 60), under each check
 * that is not Ready or Skipped its findings (at most 5, then "and N
 * more") and its fix, then a blank line and the overall line.  With
 * color, verdicts are wrapped in ANSI SGR colours (Ready green,
 * Warning yellow, Failed red, Skipped dim).  A new string the caller
 * frees.
 */
char	*dra_doctor_text(const struct dra_doctor_report *r, int width,
	    int color);

/*
 * The stable JSON document of `doctor -o json|yaml`: {"apiVersion":
 * "dra.kubectl.io/v1alpha1", "kind": "DoctorReport", "ready": bool,
 * "summary": the overall line, "failed": n, "warnings": n, "checks":
 * [{"name", "verdict", "detail", "fix" (null when none), "objects":
 * [names], "findings": [{"object", "message"}]}]}.  A new cJSON tree
 * the caller deletes.
 */
struct cJSON *dra_doctor_json(const struct dra_doctor_report *r);

#endif
