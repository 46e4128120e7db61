/*
 * doctor.c: the checks of `kubectl dra doctor` (doctor.h), the report
 * they fill, its table for people and its JSON document.
 *
 * Each snapshot check walks the finished snapshot once and appends one
 * check: a verdict, a detail line that names at most DRA_DOCTOR_NAMES
 * objects ("and N more"), one finding per object and a fix.  The rules
 * come from what Kubernetes 1.37 itself does (the structured
 * allocator's pool gathering and CEL, the ResourceQuota evaluator of
 * ResourceClaims, the resourceclaim controller); doctor.h says which
 * for each check and docs/DOCTOR.md explains them for users.
 *
 * DeviceClass selectors are evaluated over every published device once
 * (struct match) and shared by class-selectors, utilization and
 * device-plugin when dra_doctor_snapshot() runs them together.
 *
 * The live checks get their answers from kubectl-dra/cmd_doctor.c (the
 * only place that talks to the server) and are judged here too.
 */
#include "doctor.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "cel.h"
#include "top.h"
#include "views.h"
#include "views-int.h"
#include "why.h"
#include "xmalloc.h"

/* doctor's lines are top's (views/top.h dra_top_percent). */
_Static_assert(DRA_DOCTOR_TARGET == DRA_TOP_TARGET_PCT &&
    DRA_DOCTOR_CEILING == DRA_TOP_CEILING_PCT, "utilization lines");

/* Findings shown under a check in the table. */
#define DOCTOR_TEXT_FINDINGS	5

/* Selectors of every class evaluated over every published device. */
struct class_eval {
	const struct kube_device_class	*cls;
	struct dra_cel		       **progs;
	size_t				 nprogs;
	char				*compile_err;	/* or NULL */
	char				*runtime_err;	/* first, or NULL */
	const struct kube_device	*err_dev;
	size_t				 nerr;		/* devices erring */
	char				*unsupported;	/* or NULL */
	size_t				 matched;
};

struct match {
	struct kube_device	**dev;
	size_t			  ndev;
	struct class_eval	 *cls;
	size_t			  ncls;
	unsigned char		 *m;		/* ncls * ndev, 1 matches */
};

static char	*vfmt(const char *, va_list) __attribute__((format(printf,
		    1, 0)));
static char	*field_text(const char *);
static char	*fmt(const char *, ...) __attribute__((format(printf, 1,
		    2)));
static const char *short_name(const char *);
static void	names_list(struct dra_buf *, const char *const *, size_t);
static void	add_names(struct dra_buf *, const struct dra_doctor_check *);
static void	set_detail(struct dra_doctor_check *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
static int	gate_check(struct dra_doctor_report *, const char *,
		    const struct dra_doctor_opts *, unsigned);
static void	partial_note(struct dra_doctor_check *,
		    const struct dra_doctor_opts *, unsigned);
static const char *kind_resource(unsigned);
static const char *kind_name(unsigned);
static struct match *match_build(const struct kube_snapshot *);
static void	match_free(struct match *);
static int	match_has(const struct match *, size_t, size_t);
static int64_t	qty_value(const char *);
static void	device_plugin(struct dra_doctor_report *,
		    const struct kube_snapshot *,
		    const struct dra_doctor_opts *, const struct match *);
static void	pending_claims(struct dra_doctor_report *,
		    const struct kube_snapshot *,
		    const struct dra_doctor_opts *, const struct match *);
static void	class_selectors(struct dra_doctor_report *,
		    const struct kube_snapshot *,
		    const struct dra_doctor_opts *, const struct match *);
static void	utilization(struct dra_doctor_report *,
		    const struct kube_snapshot *,
		    const struct dra_doctor_opts *);
static void	add_printable(struct dra_buf *, const char *, size_t);
static void	wrap(struct dra_buf *, const char *, size_t, size_t, size_t,
		    size_t);

static const struct dra_doctor_opts no_opts;

/* ---- the report ------------------------------------------------------ */

static char *
vfmt(const char *f, va_list ap)
{
	struct dra_buf	b;

	dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	dra_buf_vaddf(&b, f, ap);
	return dra_buf_take(&b);
}

static char *
fmt(const char *f, ...)
{
	va_list	 ap;
	char	*s;

	va_start(ap, f);
	s = vfmt(f, ap);
	va_end(ap);
	return s;
}

struct dra_doctor_report *
dra_doctor_report_new(void)
{
	return xcalloc(1, sizeof(struct dra_doctor_report));
}

void
dra_doctor_report_free(struct dra_doctor_report *r)
{
	struct dra_doctor_check	*c;
	size_t			 i, j;

	if (r == NULL)
		return;
	for (i = 0; i < r->nchecks; i++) {
		c = &r->checks[i];
		free(c->detail);
		free(c->fix);
		for (j = 0; j < c->nfindings; j++) {
			free(c->findings[j].object);
			free(c->findings[j].message);
		}
		free(c->findings);
	}
	free(r->checks);
	free(r);
}

struct dra_doctor_check *
dra_doctor_add(struct dra_doctor_report *r, const char *name,
    enum dra_doctor_verdict v, const char *f, ...)
{
	struct dra_doctor_check	*c;
	va_list			 ap;

	if (r->nchecks == r->capchecks) {
		r->capchecks = r->capchecks ? r->capchecks * 2 : 16;
		r->checks = xreallocarray(r->checks, r->capchecks,
		    sizeof *r->checks);
	}
	c = &r->checks[r->nchecks++];
	memset(c, 0, sizeof *c);
	c->name = name;
	c->verdict = v;
	va_start(ap, f);
	c->detail = vfmt(f, ap);
	va_end(ap);
	return c;
}

void
dra_doctor_fix(struct dra_doctor_check *c, const char *f, ...)
{
	va_list	ap;

	free(c->fix);
	va_start(ap, f);
	c->fix = vfmt(f, ap);
	va_end(ap);
}

void
dra_doctor_find(struct dra_doctor_check *c, const char *object,
    const char *f, ...)
{
	struct dra_doctor_finding	*fd;
	va_list				 ap;

	if (c->nfindings == c->capfindings) {
		c->capfindings = c->capfindings ? c->capfindings * 2 : 8;
		c->findings = xreallocarray(c->findings, c->capfindings,
		    sizeof *c->findings);
	}
	fd = &c->findings[c->nfindings++];
	fd->object = xstrdup(object);
	va_start(ap, f);
	fd->message = vfmt(f, ap);
	va_end(ap);
}

static void
set_detail(struct dra_doctor_check *c, const char *f, ...)
{
	va_list	ap;

	free(c->detail);
	va_start(ap, f);
	c->detail = vfmt(f, ap);
	va_end(ap);
}

const char *
dra_doctor_verdict_name(enum dra_doctor_verdict v)
{
	switch (v) {
	case DRA_DOCTOR_READY:
		return "Ready";
	case DRA_DOCTOR_SKIPPED:
		return "Skipped";
	case DRA_DOCTOR_WARNING:
		return "Warning";
	case DRA_DOCTOR_FAILED:
		return "Failed";
	}
	return "Unknown";
}

/* "resourceclaim/ns/x" -> "ns/x": the object without its kind. */
static const char *
short_name(const char *object)
{
	const char	*slash = strchr(object, '/');

	return slash != NULL ? slash + 1 : object;
}

/* names[0..n) as "a, b and c", at most DRA_DOCTOR_NAMES, "and N more". */
static void
names_list(struct dra_buf *b, const char *const *names, size_t n)
{
	size_t	i;

	for (i = 0; i < n && i < DRA_DOCTOR_NAMES; i++) {
		if (i > 0)
			dra_buf_adds(b, i + 1 == n ? " and " : ", ");
		dra_buf_adds(b, names[i]);
	}
	if (n > DRA_DOCTOR_NAMES)
		dra_buf_addf(b, " and %zu more", n - DRA_DOCTOR_NAMES);
}

/* The findings' names (names_list). */
static void
add_names(struct dra_buf *b, const struct dra_doctor_check *c)
{
	const char	*names[DRA_DOCTOR_NAMES + 1], *prev = NULL, *n;
	size_t		 i, nn = 0;

	/* Each name once (consecutive findings may name one object). */
	for (i = 0; i < c->nfindings; i++) {
		n = short_name(c->findings[i].object);
		if (prev != NULL && strcmp(prev, n) == 0)
			continue;
		prev = n;
		if (nn <= DRA_DOCTOR_NAMES)
			names[nn] = n;
		nn++;
	}
	names_list(b, names, nn);
}

/* Set the detail to "<lead>: a, b and N more". */
static void
names_detail(struct dra_doctor_check *c, const char *lead)
{
	struct dra_buf	b;

	dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	dra_buf_addf(&b, "%s: ", lead);
	add_names(&b, c);
	free(c->detail);
	c->detail = dra_buf_take(&b);
}

void
dra_doctor_unreadable(struct dra_doctor_report *r, const char *name,
    const char *what, const char *why, int forbidden)
{
	struct dra_doctor_check	*c;

	c = dra_doctor_add(r, name, DRA_DOCTOR_WARNING, "cannot %s: %s", what,
	    why);
	if (forbidden)
		dra_doctor_fix(c, "run doctor as a user allowed to %s (for "
		    "example a cluster admin) to get this check", what);
	else
		dra_doctor_fix(c, "retry; with -v 6 every request and its "
		    "answer is logged");
}

void
dra_doctor_skip(struct dra_doctor_report *r, const char *name,
    const char *why)
{
	dra_doctor_add(r, name, DRA_DOCTOR_SKIPPED, "%s", why);
}

int
dra_doctor_ready(const struct dra_doctor_report *r, size_t *failed,
    size_t *warnings)
{
	size_t	i, f = 0, w = 0;

	for (i = 0; i < r->nchecks; i++) {
		if (r->checks[i].verdict == DRA_DOCTOR_FAILED)
			f++;
		else if (r->checks[i].verdict == DRA_DOCTOR_WARNING)
			w++;
	}
	if (failed != NULL)
		*failed = f;
	if (warnings != NULL)
		*warnings = w;
	return f == 0 && w == 0;
}

char *
dra_doctor_overall(const struct dra_doctor_report *r, char *buf, size_t len)
{
	size_t	i, f, w, skipped = 0;

	for (i = 0; i < r->nchecks; i++)
		if (r->checks[i].verdict == DRA_DOCTOR_SKIPPED)
			skipped++;
	if (dra_doctor_ready(r, &f, &w)) {
		if (skipped == 0)
			snprintf(buf, len, "Ready");
		else
			snprintf(buf, len, "Ready (%zu check%s skipped)",
			    skipped, skipped == 1 ? "" : "s");
	} else if (f > 0 && w > 0)
		snprintf(buf, len, "Not ready: %zu failed, %zu warning%s", f,
		    w, w == 1 ? "" : "s");
	else if (f > 0)
		snprintf(buf, len, "Not ready: %zu failed", f);
	else
		snprintf(buf, len, "Not ready: %zu warning%s", w,
		    w == 1 ? "" : "s");
	return buf;
}

/* ---- permissions ----------------------------------------------------- */

static const char *
kind_resource(unsigned k)
{
	switch (k) {
	case DRA_DOCTOR_K_SLICES:
		return "resourceslices";
	case DRA_DOCTOR_K_CLAIMS:
		return "resourceclaims";
	case DRA_DOCTOR_K_TEMPLATES:
		return "resourceclaimtemplates";
	case DRA_DOCTOR_K_CLASSES:
		return "deviceclasses";
	case DRA_DOCTOR_K_TAINT_RULES:
		return "devicetaintrules";
	case DRA_DOCTOR_K_PODS:
		return "pods";
	case DRA_DOCTOR_K_NODES:
		return "nodes";
	case DRA_DOCTOR_K_NAMESPACES:
		return "namespaces";
	case DRA_DOCTOR_K_QUOTAS:
		return "resourcequotas";
	}
	return "?";
}

/* The Kubernetes kind of a DRA_DOCTOR_K_* bit, for "holds no X". */
static const char *
kind_name(unsigned k)
{
	switch (k) {
	case DRA_DOCTOR_K_SLICES:
		return "ResourceSlice";
	case DRA_DOCTOR_K_CLAIMS:
		return "ResourceClaim";
	case DRA_DOCTOR_K_TEMPLATES:
		return "ResourceClaimTemplate";
	case DRA_DOCTOR_K_CLASSES:
		return "DeviceClass";
	case DRA_DOCTOR_K_TAINT_RULES:
		return "DeviceTaintRule";
	case DRA_DOCTOR_K_PODS:
		return "Pod";
	case DRA_DOCTOR_K_NODES:
		return "Node";
	case DRA_DOCTOR_K_NAMESPACES:
		return "Namespace";
	case DRA_DOCTOR_K_QUOTAS:
		return "ResourceQuota";
	}
	return "?";
}

/*
 * Before a check: Skipped when o->skip says so; Warning "cannot read
 * X, Y: forbidden" when a kind it needs could not be read at all;
 * Skipped "the file holds no X objects" when the source did not
 * capture a kind it needs (o->absent).  Returns 1 when the check was
 * added that way (the caller stops).
 */
static int
gate_check(struct dra_doctor_report *r, const char *name,
    const struct dra_doctor_opts *o, unsigned needs)
{
	struct dra_doctor_check	*c;
	struct dra_buf		 b;
	unsigned		 k, miss = needs & o->unread;

	if (o->skip != NULL) {
		dra_doctor_skip(r, name, o->skip);
		return 1;
	}
	if (miss != 0) {
		dra_buf_init(&b, DRA_BUF_MAX_SMALL);
		for (k = 1; k <= DRA_DOCTOR_K_QUOTAS; k <<= 1) {
			if (miss & k)
				view_join(&b, ", ", kind_resource(k));
		}
		c = dra_doctor_add(r, name, DRA_DOCTOR_WARNING, "cannot read "
		    "%s: forbidden", dra_buf_str(&b));
		dra_doctor_fix(c, "run doctor as a user allowed to list %s "
		    "(for example a cluster admin) to get this check",
		    dra_buf_str(&b));
		dra_buf_release(&b);
		return 1;
	}
	/*
	 * Templates only add the classes of claims not made yet: a file
	 * without them still has its claims.
	 */
	miss = needs & o->absent & ~DRA_DOCTOR_K_TEMPLATES;
	if (miss == 0)
		return 0;
	dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	for (k = 1; k <= DRA_DOCTOR_K_QUOTAS; k <<= 1) {
		if (!(miss & k))
			continue;
		if (b.len > 0)
			dra_buf_adds(&b, (miss & ~((k << 1) - 1)) != 0 ? ", " :
			    " or ");
		dra_buf_adds(&b, kind_name(k));
	}
	dra_doctor_add(r, name, DRA_DOCTOR_SKIPPED, "the file holds no %s "
	    "objects (`kubectl dra snapshot -o FILE` captures every kind)",
	    dra_buf_str(&b));
	dra_buf_release(&b);
	return 1;
}

/*
 * After a check that read kinds only in the user's own namespace: at
 * least a Warning, the detail saying what was not seen.
 */
static void
partial_note(struct dra_doctor_check *c, const struct dra_doctor_opts *o,
    unsigned needs)
{
	struct dra_buf	b;
	unsigned	k, part = needs & o->partial;
	char		*d;

	if (part == 0)
		return;
	dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	for (k = 1; k <= DRA_DOCTOR_K_QUOTAS; k <<= 1) {
		if (part & k)
			view_join(&b, ", ", kind_resource(k));
	}
	d = fmt("%s; namespace %s only: cannot read %s outside it "
	    "(forbidden)", c->detail, o->partial_ns != NULL ? o->partial_ns :
	    "?", dra_buf_str(&b));
	free(c->detail);
	c->detail = d;
	if (c->verdict < DRA_DOCTOR_WARNING) {
		c->verdict = DRA_DOCTOR_WARNING;
		dra_doctor_fix(c, "run doctor as a user allowed to list %s in "
		    "every namespace to check them all", dra_buf_str(&b));
	}
	dra_buf_release(&b);
}

/* ---- live checks ------------------------------------------------------ */

void
dra_doctor_server(struct dra_doctor_report *r, const char *git_version,
    int major, int minor)
{
	struct dra_doctor_check	*c;
	const char		*gv = git_version != NULL && *git_version !=
				    '\0' ? git_version : "?";

	if (major > 1 || (major == 1 && minor > 37)) {
		dra_doctor_add(r, "server-version", DRA_DOCTOR_READY, "%s: "
		    "newer than Kubernetes 1.37, which kubectl-dra was "
		    "checked against", gv);
		return;
	}
	if (major == 1 && minor >= 34) {
		dra_doctor_add(r, "server-version", DRA_DOCTOR_READY, "%s: "
		    "DRA is generally available (resource.k8s.io/v1)", gv);
		return;
	}
	if (major == 1 && minor >= 32) {
		c = dra_doctor_add(r, "server-version", DRA_DOCTOR_WARNING,
		    "%s: DRA is beta before 1.34 (off unless the "
		    "DynamicResourceAllocation gate and resource.k8s.io/"
		    "v1beta1 are switched on)", gv);
		dra_doctor_fix(c, "upgrade to Kubernetes 1.34 or later, or "
		    "turn on the DynamicResourceAllocation feature gate and "
		    "--runtime-config=resource.k8s.io/v1beta1=true");
		return;
	}
	c = dra_doctor_add(r, "server-version", DRA_DOCTOR_FAILED, "%s: too "
	    "old: kubectl-dra reads resource.k8s.io v1beta1 (1.32) and "
	    "later", gv);
	dra_doctor_fix(c, "upgrade the cluster to Kubernetes 1.34 or later");
}

void
dra_doctor_api(struct dra_doctor_report *r, const char *served,
    const char *reading)
{
	struct dra_doctor_check	*c;
	const char		*p, *end;
	char			 shown[128];
	size_t			 i, j;
	int			 v1 = 0;

	if (served == NULL || *served == '\0') {
		c = dra_doctor_add(r, "dra-api", DRA_DOCTOR_FAILED,
		    "resource.k8s.io is not served in a version kubectl-dra "
		    "reads (v1, v1beta2, v1beta1)");
		dra_doctor_fix(c, "use Kubernetes 1.34 or later, where "
		    "resource.k8s.io/v1 is on by default");
		return;
	}
	for (p = served; *p != '\0'; p = *end == ',' ? end + 1 : end) {
		end = strchr(p, ',');
		if (end == NULL)
			end = p + strlen(p);
		if (end - p == 2 && strncmp(p, "v1", 2) == 0)
			v1 = 1;
	}
	/* "v1,v1beta2" shown as "v1, v1beta2". */
	for (i = j = 0; served[i] != '\0' && j + 3 < sizeof shown; i++) {
		shown[j++] = served[i];
		if (served[i] == ',')
			shown[j++] = ' ';
	}
	shown[j] = '\0';
	served = shown;
	if (v1) {
		dra_doctor_add(r, "dra-api", DRA_DOCTOR_READY, "resource.k8s.io "
		    "%s served; reading %s", served, reading != NULL ?
		    reading : "v1");
		return;
	}
	c = dra_doctor_add(r, "dra-api", DRA_DOCTOR_WARNING, "resource.k8s.io "
	    "%s served, not v1; reading %s", served, reading != NULL ?
	    reading : "?");
	dra_doctor_fix(c, "upgrade to Kubernetes 1.34 or later: v1beta1 is "
	    "removed in 1.38 and v1beta2 in 1.39");
}

/* Probe bodies: one gated field each, so a dropped one shows alone. */
#define PROBE_META \
	"\"metadata\":{\"generateName\":\"kubectl-dra-doctor-\"," \
	"\"labels\":{\"app.kubernetes.io/managed-by\":\"kubectl-dra\"}}"
#define PROBE_POOL \
	"\"driver\":\"doctor.kubectl-dra.io\",\"pool\":{\"name\":" \
	"\"probe\",\"generation\":1,\"resourceSliceCount\":1}," \
	"\"allNodes\":true"

const struct dra_doctor_probe dra_doctor_probes[] = {
	{ "DRAPrioritizedList", "resourceclaims", 1,
	    "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":"
	    "\"ResourceClaim\"," PROBE_META ",\"spec\":{\"devices\":"
	    "{\"requests\":[{\"name\":\"r\",\"firstAvailable\":[{\"name\":"
	    "\"s\",\"deviceClassName\":\"doctor.kubectl-dra.io\"}]}]}}}",
	    "spec.devices.requests.0.firstAvailable" },
	{ "DRADeviceTaints", "resourceclaims", 1,
	    "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":"
	    "\"ResourceClaim\"," PROBE_META ",\"spec\":{\"devices\":"
	    "{\"requests\":[{\"name\":\"r\",\"exactly\":{"
	    "\"deviceClassName\":\"doctor.kubectl-dra.io\",\"tolerations\":"
	    "[{\"key\":\"doctor.kubectl-dra.io/probe\",\"operator\":"
	    "\"Exists\",\"effect\":\"NoSchedule\"}]}}]}}}",
	    "spec.devices.requests.0.exactly.tolerations" },
	{ "DRAConsumableCapacity", "resourceclaims", 1,
	    "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":"
	    "\"ResourceClaim\"," PROBE_META ",\"spec\":{\"devices\":"
	    "{\"requests\":[{\"name\":\"r\",\"exactly\":{"
	    "\"deviceClassName\":\"doctor.kubectl-dra.io\",\"capacity\":"
	    "{\"requests\":{\"memory\":\"1Gi\"}}}}]}}}",
	    "spec.devices.requests.0.exactly.capacity.requests" },
	{ "DRAPartitionableDevices", "resourceslices", 0,
	    "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":"
	    "\"ResourceSlice\"," PROBE_META ",\"spec\":{" PROBE_POOL ","
	    "\"sharedCounters\":[{\"name\":\"cs\",\"counters\":{\"c\":"
	    "{\"value\":\"1\"}}}]}}",
	    "spec.sharedCounters" },
	{ "DRADeviceBindingConditions", "resourceslices", 0,
	    "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":"
	    "\"ResourceSlice\"," PROBE_META ",\"spec\":{" PROBE_POOL ","
	    "\"devices\":[{\"name\":\"d\",\"bindsToNode\":true,"
	    "\"bindingConditions\":[\"doctor-probe\"],"
	    "\"bindingFailureConditions\":[\"doctor-probe-failed\"]}]}}",
	    "spec.devices.0.bindingConditions" },
	{ "DRAExtendedResource", "deviceclasses", 0,
	    "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":"
	    "\"DeviceClass\"," PROBE_META ",\"spec\":{"
	    "\"extendedResourceName\":\"doctor.kubectl-dra.io/probe\"}}",
	    "spec.extendedResourceName" },
};
const size_t dra_doctor_nprobes = sizeof dra_doctor_probes /
    sizeof dra_doctor_probes[0];

int
dra_doctor_probe_kept(const struct dra_doctor_probe *p, const cJSON *answer)
{
	const cJSON	*v = answer;
	const char	*f = p->field, *dot;
	char		 part[64], *end;
	long		 idx;
	size_t		 n;

	while (v != NULL && *f != '\0') {
		dot = strchr(f, '.');
		n = dot != NULL ? (size_t)(dot - f) : strlen(f);
		if (n >= sizeof part)
			return 0;
		memcpy(part, f, n);
		part[n] = '\0';
		if (cJSON_IsArray(v)) {
			idx = strtol(part, &end, 10);
			if (*end != '\0' || idx < 0)
				return 0;
			v = cJSON_GetArrayItem(v, (int)idx);
		} else
			v = cJSON_GetObjectItemCaseSensitive(v, part);
		f += n;
		if (*f == '.')
			f++;
	}
	if (v == NULL || cJSON_IsNull(v))
		return 0;
	if ((cJSON_IsArray(v) || cJSON_IsObject(v)) && v->child == NULL)
		return 0;
	return 1;
}

/* "a.0.b" as people write it: "a[0].b" (newly allocated). */
static char *
field_text(const char *path)
{
	struct dra_buf	 b;
	const char	*p;
	size_t		 n;

	dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	for (p = path; *p != '\0'; p += n) {
		if (*p == '.' && p[1] >= '0' && p[1] <= '9') {
			n = 1 + strspn(p + 1, "0123456789");
			dra_buf_addf(&b, "[%.*s]", (int)(n - 1), p + 1);
			continue;
		}
		n = 1;
		dra_buf_add(&b, p, 1);
	}
	return dra_buf_take(&b);
}

void
dra_doctor_features(struct dra_doctor_report *r,
    const struct dra_doctor_probe_result *res, size_t n,
    int taint_rules_served)
{
	struct dra_doctor_check	*c;
	struct dra_buf		 on, off, unknown;
	size_t			 i, noff = 0, nforbidden = 0, nerror = 0;
	const char		*gate;
	char			*obj, *field;

	dra_buf_init(&on, DRA_BUF_MAX_SMALL);
	dra_buf_init(&off, DRA_BUF_MAX_SMALL);
	dra_buf_init(&unknown, DRA_BUF_MAX_SMALL);
	c = dra_doctor_add(r, "feature-gates", DRA_DOCTOR_READY, "-");
	for (i = 0; i < n; i++) {
		gate = res[i].probe->gate;
		switch (res[i].state) {
		case DRA_DOCTOR_PROBE_ON:
			view_join(&on, ", ", gate);
			break;
		case DRA_DOCTOR_PROBE_OFF:
			view_join(&off, ", ", gate);
			noff++;
			obj = fmt("gate/%s", gate);
			field = field_text(res[i].probe->field);
			dra_doctor_find(c, obj, "off: the API server dropped "
			    "%s from a dry-run create of %s", field,
			    res[i].probe->resource);
			free(field);
			free(obj);
			break;
		case DRA_DOCTOR_PROBE_FORBIDDEN:
			view_join(&unknown, ", ", gate);
			nforbidden++;
			break;
		case DRA_DOCTOR_PROBE_ERROR:
			view_join(&unknown, ", ", gate);
			nerror++;
			break;
		}
	}
	if (!taint_rules_served) {
		view_join(&off, ", ", "DRADeviceTaintRules");
		noff++;
		dra_doctor_find(c, "gate/DRADeviceTaintRules", "off: "
		    "devicetaintrules is not served in the version read");
	} else
		view_join(&on, ", ", "DRADeviceTaintRules");
	for (i = 0; i < n; i++) {
		if (res[i].state != DRA_DOCTOR_PROBE_FORBIDDEN &&
		    res[i].state != DRA_DOCTOR_PROBE_ERROR)
			continue;
		obj = fmt("gate/%s", res[i].probe->gate);
		if (res[i].state == DRA_DOCTOR_PROBE_FORBIDDEN)
			dra_doctor_find(c, obj, "cannot probe: forbidden to "
			    "create %s (a dry run)", res[i].probe->resource);
		else
			dra_doctor_find(c, obj, "cannot probe: %s",
			    res[i].message != NULL ? res[i].message :
			    "error");
		free(obj);
	}
	if (noff > 0) {
		c->verdict = DRA_DOCTOR_WARNING;
		set_detail(c, "off: %s%s%s", dra_buf_str(&off),
		    on.len > 0 ? "; on: " : "", dra_buf_str(&on));
		dra_doctor_fix(c, "turn the gates on (kube-apiserver, "
		    "kube-scheduler and kube-controller-manager "
		    "--feature-gates=Gate=true), or do not rely on the fields "
		    "they guard: the API server drops them silently");
	} else if (nforbidden > 0 || nerror > 0) {
		c->verdict = DRA_DOCTOR_WARNING;
		set_detail(c, "cannot probe %s: %s%s%s", dra_buf_str(&unknown),
		    nforbidden > 0 ? "forbidden" : "error",
		    on.len > 0 ? "; on: " : "", dra_buf_str(&on));
		dra_doctor_fix(c, nforbidden > 0 ? "run doctor as a user "
		    "allowed to create resourceclaims, resourceslices and "
		    "deviceclasses (only dry runs are sent)" : "retry; with "
		    "-v 6 every request and its answer is logged");
	} else
		set_detail(c, "on: %s", dra_buf_str(&on));
	dra_buf_release(&on);
	dra_buf_release(&off);
	dra_buf_release(&unknown);
}

/* ---- selectors over devices ----------------------------------------- */

static struct match *
match_build(const struct kube_snapshot *s)
{
	struct match		*mt;
	struct class_eval	*ce;
	struct dra_err		 err;
	const struct kube_pool	*p;
	size_t			 i, j, k, cap = 0;
	int			 rc;

	mt = xcalloc(1, sizeof *mt);
	for (i = 0; i < s->pools.n; i++) {
		p = s->pools.v[i];
		for (j = 0; j < p->nslices; j++) {
			for (k = 0; k < p->slices[j]->ndevices; k++) {
				if (mt->ndev == cap) {
					cap = cap ? cap * 2 : 256;
					mt->dev = xreallocarray(mt->dev, cap,
					    sizeof *mt->dev);
				}
				mt->dev[mt->ndev++] = &p->slices[j]->devices[k];
			}
		}
	}
	mt->ncls = s->classes.n;
	if (mt->ncls == 0)
		return mt;
	mt->cls = xcalloc(mt->ncls, sizeof *mt->cls);
	if (mt->ndev > 0)
		mt->m = xcalloc(mt->ncls, mt->ndev);
	for (i = 0; i < mt->ncls; i++) {
		ce = &mt->cls[i];
		ce->cls = s->classes.v[i];
		if (ce->cls->nselectors > 0)
			ce->progs = xcalloc(ce->cls->nselectors,
			    sizeof *ce->progs);
		for (j = 0; j < ce->cls->nselectors; j++) {
			dra_err_clear(&err);
			if (dra_cel_compile(ce->cls->selectors[j],
			    &ce->progs[j], &err) != KUBE_OK) {
				ce->compile_err = fmt("selector #%zu does not "
				    "compile: %s", j, err.msg);
				break;
			}
			ce->nprogs++;
			if (ce->unsupported == NULL &&
			    dra_cel_unsupported(ce->progs[j], NULL)) {
				const char *why = NULL;

				dra_cel_unsupported(ce->progs[j], &why);
				ce->unsupported = fmt("selector #%zu: %s", j,
				    why != NULL ? why : "unsupported");
			}
		}
		if (ce->compile_err != NULL)
			continue;
		for (k = 0; k < mt->ndev; k++) {
			rc = DRA_CEL_TRUE;
			for (j = 0; j < ce->nprogs && rc == DRA_CEL_TRUE;
			    j++) {
				dra_err_clear(&err);
				rc = dra_cel_eval(ce->progs[j], mt->dev[k],
				    &err);
				if (rc == DRA_CEL_ERROR) {
					ce->nerr++;
					if (ce->runtime_err == NULL) {
						ce->runtime_err = fmt(
						    "selector #%zu: %s", j,
						    err.msg);
						ce->err_dev = mt->dev[k];
					}
				}
			}
			if (rc == DRA_CEL_TRUE) {
				mt->m[i * mt->ndev + k] = 1;
				ce->matched++;
			}
		}
	}
	return mt;
}

static void
match_free(struct match *mt)
{
	size_t	i, j;

	if (mt == NULL)
		return;
	for (i = 0; i < mt->ncls; i++) {
		for (j = 0; j < mt->cls[i].nprogs; j++)
			dra_cel_free(mt->cls[i].progs[j]);
		free(mt->cls[i].progs);
		free(mt->cls[i].compile_err);
		free(mt->cls[i].runtime_err);
		free(mt->cls[i].unsupported);
	}
	free(mt->cls);
	free(mt->m);
	free(mt->dev);
	free(mt);
}

static int
match_has(const struct match *mt, size_t cls, size_t dev)
{
	return mt->m != NULL && mt->m[cls * mt->ndev + dev];
}

/* ---- device plugin conflict ------------------------------------------ */

/* Device plugin resources and the DRA driver of the same GPUs. */
static const struct {
	const char	*prefix;	/* allocatable key prefix */
	const char	*driver;
} vendor_pairs[] = {
	{ "nvidia.com/gpu", "gpu.nvidia.com" },
	{ "nvidia.com/mig-", "gpu.nvidia.com" },
	{ "amd.com/gpu", "gpu.amd.com" },
	{ "gpu.intel.com/", "gpu.intel.com" },
};

/* A quantity's whole value (0 when unreadable). */
static int64_t
qty_value(const char *text)
{
	struct kube_quantity	q;

	if (text == NULL || kube_quantity_parse(text, &q, NULL) != KUBE_OK)
		return 0;
	return q.milli / 1000;
}

/* Devices by node name, for device_plugin's lookups. */
struct by_node {
	const char	*node;
	size_t		 dev;		/* index in match->dev */
};

static int
by_node_cmp(const void *a, const void *b)
{
	const struct by_node	*x = a, *y = b;
	int			 d = strcmp(x->node, y->node);

	if (d != 0)
		return d;
	return x->dev < y->dev ? -1 : x->dev > y->dev;
}

/*
 * Whether the device plugin resource key (a node's allocatable) is one
 * a DRA driver may also hand out: a vendor pair, or a class's
 * extendedResourceName.
 */
static int
key_relevant(const char *key, const struct match *mt)
{
	size_t	v;

	for (v = 0; v < sizeof vendor_pairs / sizeof vendor_pairs[0]; v++)
		if (strncmp(key, vendor_pairs[v].prefix,
		    strlen(vendor_pairs[v].prefix)) == 0)
			return 1;
	for (v = 0; v < mt->ncls; v++) {
		if (mt->cls[v].cls->extended_resource_name != NULL &&
		    strcmp(mt->cls[v].cls->extended_resource_name, key) == 0)
			return 1;
	}
	return 0;
}

/* Whether device k of mt is one that key's device plugin also serves. */
static int
same_devices(const char *key, const struct match *mt, size_t k)
{
	const struct kube_device	*d = mt->dev[k];
	const char			*ext;
	size_t				 v;

	for (v = 0; v < sizeof vendor_pairs / sizeof vendor_pairs[0]; v++) {
		if (strncmp(key, vendor_pairs[v].prefix,
		    strlen(vendor_pairs[v].prefix)) == 0 &&
		    strcmp(d->slice->driver, vendor_pairs[v].driver) == 0)
			return 1;
	}
	for (v = 0; v < mt->ncls; v++) {
		ext = mt->cls[v].cls->extended_resource_name;
		if (ext != NULL && strcmp(ext, key) == 0 && match_has(mt, v, k))
			return 1;
	}
	return 0;
}

static void
device_plugin(struct dra_doctor_report *r, const struct kube_snapshot *s,
    const struct dra_doctor_opts *o, const struct match *mt)
{
	struct dra_doctor_check		*c;
	const struct kube_node		*n;
	const struct kube_device	*d;
	struct by_node			*bn, key0, *lo;
	struct dra_buf			 nv;
	const char			*key, *driver, *pool;
	char				*obj;
	size_t				 i, j, k, nbn = 0, cnt, nnodes = 0;
	size_t				 nnv = 0;
	int64_t				 val;

	if (gate_check(r, "device-plugin", o, DRA_DOCTOR_K_NODES |
	    DRA_DOCTOR_K_SLICES | DRA_DOCTOR_K_CLASSES))
		return;
	c = dra_doctor_add(r, "device-plugin", DRA_DOCTOR_READY, "-");
	dra_buf_init(&nv, DRA_BUF_MAX_SMALL);
	bn = xcalloc(mt->ndev + 1, sizeof *bn);
	for (k = 0; k < mt->ndev; k++) {
		if (kube_device_node(mt->dev[k]) == NULL)
			continue;
		bn[nbn].node = kube_device_node(mt->dev[k]);
		bn[nbn++].dev = k;
	}
	if (nbn > 1)
		qsort(bn, nbn, sizeof *bn, by_node_cmp);
	for (i = 0; i < s->nodes.n; i++) {
		n = s->nodes.v[i];
		/* The node's devices: the first entry not before it. */
		key0.node = n->meta.name;
		key0.dev = 0;
		lo = bn;
		for (j = nbn; j > 0;) {
			size_t half = j / 2;

			if (by_node_cmp(&lo[half], &key0) < 0) {
				lo += half + 1;
				j -= half + 1;
			} else
				j = half;
		}
		for (j = 0; j < n->nallocatable; j++) {
			key = n->allocatable[j].key;
			if (!key_relevant(key, mt))
				continue;
			val = qty_value(n->allocatable[j].value);
			if (val <= 0)
				continue;
			cnt = 0;
			driver = pool = NULL;
			for (k = (size_t)(lo - bn); k < nbn &&
			    strcmp(bn[k].node, n->meta.name) == 0; k++) {
				if (!same_devices(key, mt, bn[k].dev))
					continue;
				d = mt->dev[bn[k].dev];
				if (cnt++ == 0) {
					driver = d->slice->driver;
					pool = d->slice->pool_name;
				}
			}
			if (cnt == 0)
				continue;
			nnodes++;
			if (strncmp(key, "nvidia.com/", 11) == 0) {
				if (nnv < DRA_DOCTOR_NAMES)
					view_join(&nv, " ", n->meta.name);
				nnv++;
			}
			obj = fmt("node/%s", n->meta.name);
			dra_doctor_find(c, obj, "status.allocatable %s=%lld (a "
			    "device plugin) while DRA driver %s publishes %zu "
			    "device%s on it (pool %s)", key, (long long)val,
			    driver, cnt, cnt == 1 ? "" : "s", pool);
			free(obj);
			break;
		}
	}
	free(bn);
	if (nnodes == 0) {
		set_detail(c, "no node advertises a device plugin's GPUs that "
		    "a DRA driver also publishes");
		dra_buf_release(&nv);
		return;
	}
	c->verdict = DRA_DOCTOR_FAILED;
	names_detail(c, nnodes == 1 ? "a device plugin and a DRA driver both "
	    "hand out the GPUs of node" : "a device plugin and a DRA driver "
	    "both hand out the GPUs of nodes");
	if (nnv == 0)
		dra_doctor_fix(c, "run one of them per node: disable the "
		    "device plugin there, or stop the DRA driver's kubelet "
		    "plugin on %s", nnodes == 1 ? "it" : "them");
	else
		dra_doctor_fix(c, "run one of them per node: disable the "
		    "device plugin there, or stop the DRA driver's kubelet "
		    "plugin on %s; with the GPU Operator `kubectl label node "
		    "%s nvidia.com/gpu.deploy.device-plugin=false`%s",
		    nnodes == 1 ? "it" : "them", dra_buf_str(&nv), nnv >
		    DRA_DOCTOR_NAMES ? " and the same for the other nodes of "
		    "the findings" : "");
	dra_buf_release(&nv);
}

void
dra_doctor_device_plugin(struct dra_doctor_report *r,
    const struct kube_snapshot *s, const struct dra_doctor_opts *o)
{
	struct match	*mt;

	if (o == NULL)
		o = &no_opts;
	mt = match_build(s);
	device_plugin(r, s, o, mt);
	match_free(mt);
}

/* ---- pools ----------------------------------------------------------- */

void
dra_doctor_pools(struct dra_doctor_report *r, const struct kube_snapshot *s,
    const struct dra_doctor_opts *o)
{
	struct dra_doctor_check	*c;
	const struct kube_pool	*p;
	char			*obj;
	size_t			 i, ninvalid = 0, nincomplete = 0, nstale = 0;

	if (o == NULL)
		o = &no_opts;
	if (gate_check(r, "pools", o, DRA_DOCTOR_K_SLICES))
		return;
	c = dra_doctor_add(r, "pools", DRA_DOCTOR_READY, "-");
	for (i = 0; i < s->pools.n; i++) {
		p = s->pools.v[i];
		if (p->nstale > 0)
			nstale++;
		if (p->invalid == NULL && p->complete)
			continue;
		obj = fmt("pool/%s/%s", p->driver, p->name);
		if (p->invalid != NULL) {
			ninvalid++;
			dra_doctor_find(c, obj, "invalid: %s; the allocator "
			    "skips it", p->invalid);
		} else {
			nincomplete++;
			dra_doctor_find(c, obj, "incomplete: %zu of %lld "
			    "slices at generation %lld; the allocator skips "
			    "it", p->nslices, (long long)p->slice_count,
			    (long long)p->generation);
		}
		free(obj);
	}
	if (s->pools.n == 0) {
		set_detail(c, "no ResourceSlice is published");
		return;
	}
	if (ninvalid + nincomplete == 0) {
		set_detail(c, "%zu pool%s complete and valid%s", s->pools.n,
		    s->pools.n == 1 ? "" : "s", nstale > 0 ?
		    " (some with slices of an older generation, ignored)" :
		    "");
		return;
	}
	if (ninvalid > 0) {
		c->verdict = DRA_DOCTOR_FAILED;
		dra_doctor_fix(c, "fix the driver that publishes the pool: "
		    "device and counter-set names must be unique in a pool "
		    "and every consumed counter must exist; `kubectl dra "
		    "describe pool %s` shows it", c->nfindings == 1 ?
		    short_name(c->findings[0].object) : "DRIVER/POOL");
	} else {
		c->verdict = DRA_DOCTOR_WARNING;
		dra_doctor_fix(c, "wait for the driver to publish every slice "
		    "of the generation; if it stays so, restart the "
		    "driver's kubelet plugin on the node or delete the "
		    "pool's slices so it republishes them");
	}
	if (ninvalid > 0 && nincomplete > 0)
		names_detail(c, "invalid or incomplete pools");
	else if (ninvalid > 0)
		names_detail(c, ninvalid == 1 ? "invalid pool" :
		    "invalid pools");
	else
		names_detail(c, nincomplete == 1 ? "incomplete pool" :
		    "incomplete pools");
}

/* ---- slices of missing nodes ----------------------------------------- */

void
dra_doctor_orphan_slices(struct dra_doctor_report *r,
    const struct kube_snapshot *s, const struct dra_doctor_opts *o)
{
	struct dra_doctor_check	*c;
	const struct kube_slice	*sl;
	const char		*node;
	char			*obj;
	size_t			 i, j;

	if (o == NULL)
		o = &no_opts;
	if (gate_check(r, "orphan-slices", o, DRA_DOCTOR_K_SLICES |
	    DRA_DOCTOR_K_NODES))
		return;
	c = dra_doctor_add(r, "orphan-slices", DRA_DOCTOR_READY, "-");
	for (i = 0; i < s->slices.n; i++) {
		sl = s->slices.v[i];
		node = NULL;
		if (sl->node_name != NULL &&
		    kube_snapshot_node(s, sl->node_name) == NULL)
			node = sl->node_name;
		for (j = 0; node == NULL && j < sl->ndevices; j++) {
			if (sl->devices[j].node_name != NULL &&
			    kube_snapshot_node(s, sl->devices[j].node_name) ==
			    NULL)
				node = sl->devices[j].node_name;
		}
		if (node == NULL)
			continue;
		obj = fmt("resourceslice/%s", sl->meta.name);
		dra_doctor_find(c, obj, "names node %s, which does not exist "
		    "(driver %s, pool %s, %zu device%s)", node, sl->driver,
		    sl->pool_name, sl->ndevices, sl->ndevices == 1 ? "" : "s");
		free(obj);
	}
	if (c->nfindings == 0) {
		set_detail(c, "every slice's node exists (%zu slice%s, %zu "
		    "node%s)", s->slices.n, s->slices.n == 1 ? "" : "s",
		    s->nodes.n, s->nodes.n == 1 ? "" : "s");
		return;
	}
	c->verdict = DRA_DOCTOR_WARNING;
	names_detail(c, c->nfindings == 1 ? "a slice of a node that does "
	    "not exist" : "slices of nodes that do not exist");
	dra_doctor_fix(c, "once the node is gone for good, delete %s: "
	    "`kubectl delete resourceslice %s` (a kubelet plugin's slices "
	    "name their Node as owner and are deleted with it)",
	    c->nfindings == 1 ? "it" : "them", c->nfindings == 1 ?
	    short_name(c->findings[0].object) : "NAME");
}

/* ---- pending claims -------------------------------------------------- */

/*
 * Seconds as a Go duration without zero units: "5m", "1h30m", "0s",
 * "1.5s", below a second "500ms", "2µs", "1ns".
 */
static void
duration(double sec, char *buf, size_t len)
{
	struct dra_buf	b;
	double		whole, rest;
	long long	w;

	if (!(sec > 0)) {
		snprintf(buf, len, "0s");
		return;
	}
	dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	if (sec < 1e-6)
		dra_buf_addf(&b, "%.6gns", sec * 1e9);
	else if (sec < 1e-3)
		dra_buf_addf(&b, "%.6gµs", sec * 1e6);
	else if (sec < 1)
		dra_buf_addf(&b, "%.6gms", sec * 1e3);
	else {
		whole = floor(sec);
		rest = sec - whole;
		w = (long long)whole;
		if (w >= 3600)
			dra_buf_addf(&b, "%lldh", w / 3600);
		if (w % 3600 >= 60)
			dra_buf_addf(&b, "%lldm", w % 3600 / 60);
		if (w % 60 != 0 || rest > 0)
			dra_buf_addf(&b, "%.6gs", (double)(w % 60) + rest);
	}
	snprintf(buf, len, "%s", dra_buf_str(&b));
	dra_buf_release(&b);
}

/*
 * Whether pending-claims names cl: pending (no allocation, not being
 * deleted) for at least o->pending_threshold.  *age gets its age in
 * seconds, -1 when unknown (no creationTimestamp: always named).
 */
static int
claim_pending(const struct kube_snapshot *s, const struct kube_claim *cl,
    const struct dra_doctor_opts *o, int64_t *age)
{
	int64_t	a;

	if (cl->allocated || cl->meta.deleted != 0)
		return 0;
	a = cl->meta.created != 0 ? s->now - cl->meta.created : -1;
	if (a < -1)
		a = 0;
	*age = a;
	return a < 0 || (double)a >= o->pending_threshold;
}

size_t
dra_doctor_pod_namespaces(const struct kube_snapshot *s,
    const struct dra_doctor_opts *o, const char **out, size_t max)
{
	const struct kube_claim	*cl;
	size_t			 i, j, n = 0;
	int64_t			 a;

	if (o == NULL)
		o = &no_opts;
	for (i = 0; i < s->claims.n; i++) {
		cl = s->claims.v[i];
		if (!claim_pending(s, cl, o, &a) || cl->meta.namespace == NULL)
			continue;
		for (j = 0; j < n; j++)
			if (strcmp(out[j], cl->meta.namespace) == 0)
				break;
		if (j < n)
			continue;
		if (n == max)
			return max + 1;
		out[n++] = cl->meta.namespace;
	}
	return n;
}

/* A pending claim named by pending-claims. */
struct pend {
	const struct kube_claim	*cl;
	int64_t			 age;		/* seconds, -1 unknown */
	char			*text;		/* the finding */
	int			 hard;		/* never or blocked */
	const char		*code;		/* the reason shown, or NULL */
};

/* Oldest first (unknown ages first), then by namespace and name. */
static int
pend_age_cmp(const void *a, const void *b)
{
	const struct pend	*x = a, *y = b;
	int			 d;

	if (x->age != y->age) {
		if (x->age < 0 || y->age < 0)
			return x->age < 0 ? -1 : 1;
		return x->age > y->age ? -1 : 1;
	}
	if ((d = strcmp(x->cl->meta.namespace, y->cl->meta.namespace)) != 0)
		return d;
	return strcmp(x->cl->meta.name, y->cl->meta.name);
}

/* Never and blocked claims first, then pend_age_cmp. */
static int
pend_cmp(const void *a, const void *b)
{
	const struct pend	*x = a, *y = b;

	if (x->hard != y->hard)
		return x->hard ? -1 : 1;
	return pend_age_cmp(a, b);
}

/*
 * How telling a why reason is: one that says only that the class
 * matches nothing on a node (or that nothing is reachable there) is
 * the least, when other nodes give a reason about the claim itself.
 */
static int
reason_rank(const struct dra_why_reason *rs)
{
	static const char *const weak[] = {
		"class-selector", "no-devices", "node", "stale",
		"node-affinity", "node-unschedulable", "claim-not-on-node",
	};
	size_t	i;

	for (i = 0; i < sizeof weak / sizeof weak[0]; i++)
		if (strcmp(rs->code, weak[i]) == 0)
			return 0;
	if (strcmp(rs->code, "no-match") == 0)
		return 1;
	return 2;
}

/* The most telling reason of w (reason_rank, the first among equals). */
static const struct dra_why_reason *
best_reason(const struct dra_why *w)
{
	const struct dra_why_reason	*best = NULL;
	size_t				 i;

	for (i = 0; i < w->nreasons; i++)
		if (best == NULL || reason_rank(&w->reasons[i]) >
		    reason_rank(best))
			best = &w->reasons[i];
	return best;
}

/*
 * Append the selector a selector reason is about: its evidence line
 * "request selector #0 is false for 200 devices (a, b, ...): EXPR"
 * becomes "; request selector #0 is false: EXPR".
 */
static void
selector_evidence(struct dra_buf *b, const struct dra_why_reason *rs)
{
	const char	*e, *f, *x;

	if (rs->nevidence == 0 || (strcmp(rs->code, "request-selector") != 0 &&
	    strcmp(rs->code, "class-selector") != 0))
		return;
	e = rs->evidence[0];
	f = strstr(e, " is false for ");
	x = strstr(e, "): ");
	if (f == NULL || x == NULL || x < f)
		dra_buf_addf(b, " (%s)", e);
	else
		dra_buf_addf(b, " (%.*s is false: %s)", (int)(f - e), e, x + 3);
}

/* What a reason code points at, for the fix line; NULL: nothing new. */
static const char *
code_fix(const char *code)
{
	if (strcmp(code, "request-selector") == 0)
		return "correct the claim's request selectors (or its "
		    "template's) to values the devices publish";
	if (strcmp(code, "class-selector") == 0 ||
	    strcmp(code, "no-match") == 0 || strcmp(code, "no-devices") == 0)
		return "check the DeviceClass's selectors against the "
		    "devices, or install the driver that publishes such "
		    "devices";
	if (strcmp(code, "cel-error") == 0)
		return "guard optional attributes in the CEL (has(), "
		    ".orValue())";
	if (strcmp(code, "count") == 0)
		return "ask for fewer devices or add devices";
	if (strcmp(code, "in-use") == 0 || strcmp(code, "counters") == 0 ||
	    strcmp(code, "capacity") == 0)
		return "free devices (leaked or idle claims) or add some";
	if (strcmp(code, "taint") == 0 || strcmp(code, "tainted") == 0)
		return "tolerate the taint or remove it";
	if (strcmp(code, "pool-incomplete") == 0 ||
	    strcmp(code, "pools-updating") == 0)
		return "wait for the pool's driver to publish every slice";
	if (strcmp(code, "allocator-error") == 0)
		return "correct what the allocator error names (it fails "
		    "the pod on every node)";
	if (strcmp(code, "class-missing") == 0)
		return "create the DeviceClass or correct its name";
	return NULL;
}

/*
 * Whether no published device can ever serve request dr: its class
 * does not exist, or no device matches both the class's selectors and
 * the request's.  Returns 1 with why (len bytes) saying which, 0 when
 * a device matches or it cannot tell (a CEL error, an unsupported
 * construct): never claims are only ever proved, not guessed.
 */
static int
request_never(const struct match *mt, const struct kube_device_request *dr,
    char *why, size_t len)
{
	struct dra_cel	**progs;
	struct dra_err	  err;
	size_t		  i, j, k, n = 0;
	int		  rc = DRA_CEL_TRUE, found = 0, tell = 1;

	if (dr->class_name == NULL)
		return 0;
	for (i = 0; i < mt->ncls; i++)
		if (strcmp(mt->cls[i].cls->meta.name, dr->class_name) == 0)
			break;
	if (i == mt->ncls) {
		snprintf(why, len, "DeviceClass %s does not exist",
		    dr->class_name);
		return 1;
	}
	if (mt->cls[i].compile_err != NULL || mt->cls[i].unsupported != NULL)
		return 0;
	progs = xcalloc(dr->nselectors + 1, sizeof *progs);
	for (j = 0; j < dr->nselectors && tell; j++) {
		dra_err_clear(&err);
		if (dra_cel_compile(dr->selectors[j], &progs[n], &err) !=
		    KUBE_OK || dra_cel_unsupported(progs[n], NULL))
			tell = 0;
		if (progs[n] != NULL)
			n++;
	}
	for (k = 0; k < mt->ndev && tell && !found; k++) {
		if (!match_has(mt, i, k))
			continue;
		for (j = 0, rc = DRA_CEL_TRUE; j < n && rc == DRA_CEL_TRUE;
		    j++) {
			dra_err_clear(&err);
			rc = dra_cel_eval(progs[j], mt->dev[k], &err);
		}
		if (rc == DRA_CEL_ERROR)
			tell = 0;
		else if (rc == DRA_CEL_TRUE)
			found = 1;
	}
	for (j = 0; j < n; j++)
		dra_cel_free(progs[j]);
	free(progs);
	if (!tell || found)
		return 0;
	snprintf(why, len, "no published device matches class %s%s",
	    dr->class_name, dr->nselectors > 0 ? " and the request's "
	    "selectors" : "");
	return 1;
}

/*
 * The cheap test for claims beyond DRA_DOCTOR_WHY_MAX: 1 when a request
 * of cl can never be served (request_never; a firstAvailable request
 * when none of its subrequests can), with why.
 */
static int
claim_never(const struct match *mt, const struct kube_claim *cl, char *why,
    size_t len)
{
	const struct kube_request	*rq;
	size_t				 i, j;

	for (i = 0; i < cl->spec.nrequests; i++) {
		rq = &cl->spec.requests[i];
		if (rq->exactly != NULL) {
			if (request_never(mt, rq->exactly, why, len))
				return 1;
			continue;
		}
		for (j = 0; j < rq->nfirst_available; j++)
			if (!request_never(mt, &rq->first_available[j], why,
			    len))
				break;
		if (rq->nfirst_available > 0 && j == rq->nfirst_available)
			return 1;
	}
	return 0;
}

void
dra_doctor_pending_claims(struct dra_doctor_report *r,
    const struct kube_snapshot *s, const struct dra_doctor_opts *o)
{
	if (o == NULL)
		o = &no_opts;
	pending_claims(r, s, o, NULL);
}

/* mt: the classes over the devices, or NULL (built when needed). */
static void
pending_claims(struct dra_doctor_report *r, const struct kube_snapshot *s,
    const struct dra_doctor_opts *o, const struct match *mt)
{
	struct dra_doctor_check		*c;
	const struct kube_claim		*cl;
	const struct dra_why_reason	*rs;
	const struct pend		*first_hard = NULL;
	struct dra_why_target		 t;
	struct dra_why			*w;
	struct pend			*pv;
	struct dra_err			 err;
	struct dra_buf			 b, fix;
	struct match			*own = NULL;
	const char			*fx, *seen[16];
	char				 age[32], thr[32], *obj, never[256];
	size_t				 i, j, n = 0, nhard = 0, nseen = 0;
	int64_t				 a;
	int				 pods = 1;

	if (gate_check(r, "pending-claims", o, DRA_DOCTOR_K_CLAIMS |
	    DRA_DOCTOR_K_SLICES | DRA_DOCTOR_K_CLASSES))
		return;
	/* Without Pods, "no pod uses it" cannot be said. */
	if ((o->unread | o->absent) & DRA_DOCTOR_K_PODS)
		pods = 0;
	c = dra_doctor_add(r, "pending-claims", DRA_DOCTOR_READY, "-");
	pv = xcalloc(s->claims.n + 1, sizeof *pv);
	for (i = 0; i < s->claims.n; i++) {
		cl = s->claims.v[i];
		if (!claim_pending(s, cl, o, &a))
			continue;
		pv[n].cl = cl;
		pv[n++].age = a;
	}
	if (n > 1)
		qsort(pv, n, sizeof *pv, pend_age_cmp);
	dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	for (i = 0; i < n; i++) {
		cl = pv[i].cl;
		a = pv[i].age;
		dra_buf_reset(&b);
		if (a > 0)
			dra_buf_addf(&b, "pending %s", dra_format_age(s->now,
			    cl->meta.created, age, sizeof age));
		else if (a == 0)
			dra_buf_adds(&b, "pending 0s");
		else
			dra_buf_adds(&b, "pending (age unknown)");
		if (pods && cl->npods == 0)
			dra_buf_adds(&b, ", no pod uses it");
		if (i >= DRA_DOCTOR_WHY_MAX) {
			if (mt == NULL)
				mt = own = match_build(s);
			if (claim_never(mt, cl, never, sizeof never)) {
				pv[i].hard = 1;
				dra_buf_addf(&b, "; never: %s", never);
			}
			dra_buf_addf(&b, "; not explained (only the %d "
			    "oldest pending claims are): `kubectl dra why "
			    "claim/%s -n %s`", DRA_DOCTOR_WHY_MAX,
			    cl->meta.name, cl->meta.namespace);
			pv[i].text = dra_buf_take(&b);
			dra_buf_init(&b, DRA_BUF_MAX_SMALL);
			continue;
		}
		memset(&t, 0, sizeof t);
		t.claim = cl;
		w = NULL;
		dra_err_clear(&err);
		if (dra_why(s, &t, &w, &err) != KUBE_OK)
			dra_buf_addf(&b, "; why: %s", err.msg);
		else {
			dra_buf_addf(&b, "; %s", w->summary);
			pv[i].hard = w->verdict == DRA_WHY_NEVER ||
			    w->verdict == DRA_WHY_BLOCKED;
			rs = best_reason(w);
			if (rs != NULL && w->verdict != DRA_WHY_ALLOCATABLE) {
				pv[i].code = rs->code;
				dra_buf_addf(&b, "; reason%s%s: %s",
				    rs->node != NULL ? " on node " : "",
				    rs->node != NULL ? rs->node : "",
				    rs->message);
				selector_evidence(&b, rs);
				/* Static strings from why: kept past free. */
			}
		}
		dra_why_free(w);
		pv[i].text = dra_buf_take(&b);
		dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	}
	dra_buf_release(&b);
	if (n > 1)
		qsort(pv, n, sizeof *pv, pend_cmp);
	dra_buf_init(&fix, DRA_BUF_MAX_SMALL);
	for (i = 0; i < n; i++) {
		obj = fmt("resourceclaim/%s/%s", pv[i].cl->meta.namespace,
		    pv[i].cl->meta.name);
		dra_doctor_find(c, obj, "%s", pv[i].text);
		free(obj);
		if (pv[i].hard) {
			nhard++;
			if (first_hard == NULL)
				first_hard = &pv[i];
		}
		/* The fix says what the reasons shown point at. */
		if (pv[i].code == NULL || (fx = code_fix(pv[i].code)) == NULL)
			continue;
		for (j = 0; j < nseen; j++)
			if (seen[j] == fx)
				break;
		if (j < nseen || nseen == sizeof seen / sizeof seen[0])
			continue;
		seen[nseen++] = fx;
		view_join(&fix, "; ", fx);
	}
	duration(o->pending_threshold, thr, sizeof thr);
	if (n == 0) {
		set_detail(c, "no claim pending for %s or more", thr);
		partial_note(c, o, DRA_DOCTOR_K_CLAIMS);
	} else {
		c->verdict = nhard > 0 ? DRA_DOCTOR_FAILED :
		    DRA_DOCTOR_WARNING;
		dra_buf_init(&b, DRA_BUF_MAX_SMALL);
		dra_buf_addf(&b, "%zu claim%s pending for %s or more", n,
		    n == 1 ? "" : "s", thr);
		if (nhard > 0)
			dra_buf_addf(&b, " (%zu never or blocked)", nhard);
		if (n > DRA_DOCTOR_WHY_MAX)
			dra_buf_addf(&b, " (the %d oldest explained)",
			    DRA_DOCTOR_WHY_MAX);
		names_detail(c, dra_buf_str(&b));
		dra_buf_release(&b);
		if (fix.len == 0)
			dra_buf_adds(&fix, nhard > 0 ? "each claim's reason "
			    "says what to change" : "free devices or add "
			    "some, or wait");
		cl = first_hard != NULL ? first_hard->cl : pv[0].cl;
		dra_buf_addf(&fix, "; `kubectl dra why claim/%s -n %s` "
		    "explains a claim in full", cl->meta.name,
		    cl->meta.namespace);
		dra_doctor_fix(c, "%s", dra_buf_str(&fix));
		partial_note(c, o, DRA_DOCTOR_K_CLAIMS);
	}
	dra_buf_release(&fix);
	for (i = 0; i < n; i++)
		free(pv[i].text);
	free(pv);
	match_free(own);
}

/* ---- leaked claims --------------------------------------------------- */

void
dra_doctor_leaked_claims(struct dra_doctor_report *r,
    const struct kube_snapshot *s, const struct dra_doctor_opts *o)
{
	struct dra_doctor_check		*c;
	const struct kube_claim		*cl, *leak_one = NULL;
	const struct kube_result	*res;
	struct dra_buf			 b;
	char				 age[32], *obj;
	size_t				 i, j;
	int				 one;

	if (o == NULL)
		o = &no_opts;
	if (gate_check(r, "leaked-claims", o, DRA_DOCTOR_K_CLAIMS))
		return;
	c = dra_doctor_add(r, "leaked-claims", DRA_DOCTOR_READY, "-");
	dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	for (i = 0; i < s->claims.n; i++) {
		cl = s->claims.v[i];
		if (!cl->allocated || cl->nreserved > 0 ||
		    cl->meta.deleted != 0)
			continue;
		dra_buf_reset(&b);
		for (j = 0; j < cl->nresults && j < 4; j++) {
			res = &cl->results[j];
			view_join(&b, ", ", "");
			dra_buf_addf(&b, "%s/%s/%s", res->driver, res->pool,
			    res->device);
		}
		if (cl->nresults > 4)
			dra_buf_addf(&b, " and %zu more", cl->nresults - 4);
		if (leak_one == NULL)
			leak_one = cl;
		obj = fmt("resourceclaim/%s/%s", cl->meta.namespace,
		    cl->meta.name);
		dra_doctor_find(c, obj, "allocated %s%s, reserved for no pod, "
		    "age %s", cl->nresults == 0 ? "no device" : "",
		    dra_buf_str(&b), dra_format_age(s->now, cl->meta.created,
		    age, sizeof age));
		free(obj);
	}
	dra_buf_release(&b);
	if (c->nfindings == 0) {
		set_detail(c, "every allocated claim is reserved for a pod");
		partial_note(c, o, DRA_DOCTOR_K_CLAIMS);
		return;
	}
	c->verdict = DRA_DOCTOR_WARNING;
	names_detail(c, c->nfindings == 1 ? "allocated, reserved for no pod" :
	    "allocated, reserved for no pod");
	one = c->nfindings == 1;
	dra_doctor_fix(c, "start the pod the claim was made for, or delete "
	    "a claim nothing will use to free its devices: `kubectl delete "
	    "resourceclaim %s -n %s`", one ? leak_one->meta.name : "NAME",
	    one ? leak_one->meta.namespace : "NS");
	partial_note(c, o, DRA_DOCTOR_K_CLAIMS);
}

/* ---- class selectors ------------------------------------------------- */

static void
class_selectors(struct dra_doctor_report *r, const struct kube_snapshot *s,
    const struct dra_doctor_opts *o, const struct match *mt)
{
	struct dra_doctor_check		*c;
	const struct class_eval		*ce;
	const struct kube_device	*d;
	char				*obj;
	size_t				 i, nbad = 0, nerr = 0, nnone = 0;

	if (gate_check(r, "class-selectors", o, DRA_DOCTOR_K_CLASSES |
	    DRA_DOCTOR_K_SLICES))
		return;
	c = dra_doctor_add(r, "class-selectors", DRA_DOCTOR_READY, "-");
	/* Failed first, so the table shows them. */
	for (i = 0; i < mt->ncls; i++) {
		ce = &mt->cls[i];
		obj = fmt("deviceclass/%s", ce->cls->meta.name);
		d = ce->err_dev;
		if (ce->compile_err != NULL) {
			nbad++;
			dra_doctor_find(c, obj, "%s: the allocator fails every "
			    "pod that asks for the class", ce->compile_err);
		} else if (ce->runtime_err != NULL && ce->matched == 0) {
			nbad++;
			dra_doctor_find(c, obj, "%s on %zu of %zu published "
			    "devices (first %s/%s/%s) and no device matches: "
			    "no pod that asks for the class gets a device (the "
			    "allocator errs on nodes with such devices)",
			    ce->runtime_err, ce->nerr, mt->ndev,
			    d->slice->driver, d->slice->pool_name, d->name);
		}
		free(obj);
	}
	for (i = 0; i < mt->ncls; i++) {
		ce = &mt->cls[i];
		if (ce->compile_err != NULL || (ce->runtime_err != NULL &&
		    ce->matched == 0))
			continue;
		obj = fmt("deviceclass/%s", ce->cls->meta.name);
		d = ce->err_dev;
		if (ce->runtime_err != NULL) {
			nerr++;
			dra_doctor_find(c, obj, "%s on %zu of %zu published "
			    "devices (first %s/%s/%s), matching %zu: a pod "
			    "that asks for the class fails, and stays pending, "
			    "when on any node the allocator reaches such a "
			    "device before it has found the devices the claim "
			    "needs (shared case 01); `kubectl dra why` tells "
			    "for a claim",
			    ce->runtime_err, ce->nerr, mt->ndev,
			    d->slice->driver, d->slice->pool_name, d->name,
			    ce->matched);
		} else if (ce->matched == 0) {
			nnone++;
			if (ce->unsupported != NULL)
				dra_doctor_find(c, obj, "matches no device as "
				    "far as kubectl-dra can tell (%s)",
				    ce->unsupported);
			else
				dra_doctor_find(c, obj, "matches none of the "
				    "%zu published device%s", mt->ndev,
				    mt->ndev == 1 ? "" : "s");
		}
		free(obj);
	}
	(void)s;
	if (mt->ncls == 0) {
		set_detail(c, "no DeviceClass");
		return;
	}
	if (nbad + nerr + nnone == 0) {
		set_detail(c, "%zu class%s, each matching published devices",
		    mt->ncls, mt->ncls == 1 ? "" : "es");
		return;
	}
	if (nbad > 0) {
		c->verdict = DRA_DOCTOR_FAILED;
		names_detail(c, nerr + nnone > 0 ? "classes whose selectors "
		    "give no device, err on some or match nothing" : nbad == 1 ?
		    "a class whose selectors give no device" :
		    "classes whose selectors give no device");
	} else {
		c->verdict = DRA_DOCTOR_WARNING;
		if (nerr > 0 && nnone > 0)
			names_detail(c, "classes whose selectors err on some "
			    "devices or match nothing");
		else if (nerr > 0)
			names_detail(c, nerr == 1 ? "a class whose selector "
			    "errs on some devices" : "classes whose selectors "
			    "err on some devices");
		else
			names_detail(c, nnone == 1 ? "a class that matches no "
			    "device" : "classes that match no device");
	}
	if (nbad + nerr > 0)
		dra_doctor_fix(c, "correct the class's CEL (the attribute "
		    "names; guard optional attributes with has() or "
		    ".orValue()), or make every device publish them; `kubectl "
		    "dra get devices -o wide` shows what devices publish");
	else
		dra_doctor_fix(c, "check the selectors against the published "
		    "attributes (`kubectl dra get devices -o wide`) or install "
		    "the driver that publishes such devices");
}

void
dra_doctor_class_selectors(struct dra_doctor_report *r,
    const struct kube_snapshot *s, const struct dra_doctor_opts *o)
{
	struct match	*mt;

	if (o == NULL)
		o = &no_opts;
	mt = match_build(s);
	class_selectors(r, s, o, mt);
	match_free(mt);
}

/* ---- quota coverage -------------------------------------------------- */

struct use {
	const char	*ns;
	const char	*cls;
	const char	*what;		/* "claim x" or "template y" */
};

static int
use_cmp(const void *a, const void *b)
{
	const struct use	*x = a, *y = b;
	int			 d;

	if ((d = strcmp(x->ns, y->ns)) != 0)
		return d;
	return strcmp(x->cls, y->cls);
}

static void
add_uses(struct use **v, size_t *n, size_t *cap, const char *ns,
    const struct kube_claim_spec *spec, const char *what)
{
	const struct kube_request	*rq;
	size_t				 i, j;

	for (i = 0; i < spec->nrequests; i++) {
		rq = &spec->requests[i];
		for (j = 0; j < (rq->exactly != NULL ? 1 :
		    rq->nfirst_available); j++) {
			const struct kube_device_request *dr = rq->exactly !=
			    NULL ? rq->exactly : &rq->first_available[j];

			if (dr->class_name == NULL || *dr->class_name == '\0')
				continue;
			if (*n == *cap) {
				*cap = *cap ? *cap * 2 : 64;
				*v = xreallocarray(*v, *cap, sizeof **v);
			}
			(*v)[*n].ns = ns;
			(*v)[*n].cls = dr->class_name;
			(*v)[*n].what = what;
			(*n)++;
		}
	}
}

/* Whether a ResourceQuota of ns limits class cls (doctor.h). */
static int
quota_covers(const struct kube_snapshot *s, const char *ns, const char *cls)
{
	const struct kube_device_class	*dc;
	const struct kube_quota		*q;
	const char			*k, *ext = NULL;
	size_t				 i, j, n = strlen(cls);

	dc = kube_snapshot_class(s, cls);
	if (dc != NULL)
		ext = dc->extended_resource_name;
	for (i = 0; i < s->quotas.n; i++) {
		q = s->quotas.v[i];
		if (q->meta.namespace == NULL || strcmp(q->meta.namespace, ns)
		    != 0)
			continue;
		for (j = 0; j < q->nhard; j++) {
			k = q->hard[j].key;
			if (strncmp(k, cls, n) == 0 && strcmp(k + n,
			    ".deviceclass.resource.k8s.io/devices") == 0)
				return 1;
			if (strncmp(k, "requests.deviceclass.resource."
			    "kubernetes.io/", 44) == 0 && strcmp(k + 44,
			    cls) == 0)
				return 1;
			if (ext != NULL && strncmp(k, "requests.", 9) == 0 &&
			    strcmp(k + 9, ext) == 0)
				return 1;
		}
	}
	return 0;
}

void
dra_doctor_quota_coverage(struct dra_doctor_report *r,
    const struct kube_snapshot *s, const struct dra_doctor_opts *o)
{
	struct dra_doctor_check	*c;
	struct use		*v = NULL;
	char			**whats = NULL, *obj;
	size_t			 i, j, n = 0, cap = 0, nwhat = 0, ngroups = 0;

	if (o == NULL)
		o = &no_opts;
	if (gate_check(r, "quota-coverage", o, DRA_DOCTOR_K_CLAIMS |
	    DRA_DOCTOR_K_TEMPLATES | DRA_DOCTOR_K_QUOTAS))
		return;
	c = dra_doctor_add(r, "quota-coverage", DRA_DOCTOR_READY, "-");
	/* Names first, so the uses can point at them. */
	whats = xcalloc(s->claims.n + s->templates.n + 1, sizeof *whats);
	for (i = 0; i < s->claims.n; i++) {
		whats[nwhat] = fmt("claim %s", s->claims.v[i]->meta.name);
		add_uses(&v, &n, &cap, s->claims.v[i]->meta.namespace,
		    &s->claims.v[i]->spec, whats[nwhat++]);
	}
	for (i = 0; i < s->templates.n; i++) {
		whats[nwhat] = fmt("template %s",
		    s->templates.v[i]->meta.name);
		add_uses(&v, &n, &cap, s->templates.v[i]->meta.namespace,
		    &s->templates.v[i]->spec, whats[nwhat++]);
	}
	if (n > 1)
		qsort(v, n, sizeof *v, use_cmp);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && use_cmp(&v[i], &v[j]) == 0; j++)
			;
		ngroups++;
		if (quota_covers(s, v[i].ns, v[i].cls))
			continue;
		obj = fmt("namespace/%s", v[i].ns);
		dra_doctor_find(c, obj, "uses class %s (%s%s) and no "
		    "ResourceQuota limits it", v[i].cls, v[i].what,
		    j - i > 1 ? " and others" : "");
		free(obj);
	}
	free(v);
	for (i = 0; i < nwhat; i++)
		free(whats[i]);
	free(whats);
	if (c->nfindings == 0) {
		set_detail(c, ngroups == 0 ? "no namespace uses a "
		    "DeviceClass" : "every namespace has a quota for each "
		    "class it uses (%zu namespace and class pair%s)", ngroups,
		    ngroups == 1 ? "" : "s");
		partial_note(c, o, DRA_DOCTOR_K_CLAIMS |
		    DRA_DOCTOR_K_TEMPLATES | DRA_DOCTOR_K_QUOTAS);
		return;
	}
	c->verdict = DRA_DOCTOR_WARNING;
	names_detail(c, c->nfindings == 1 ? "a namespace uses a class "
	    "without a quota for it" : "namespaces use classes without a "
	    "quota for them");
	dra_doctor_fix(c, "add CLASS.deviceclass.resource.k8s.io/devices to a "
	    "ResourceQuota of the namespace; `kubectl dra plan` proposes "
	    "quotas");
	partial_note(c, o, DRA_DOCTOR_K_CLAIMS | DRA_DOCTOR_K_TEMPLATES |
	    DRA_DOCTOR_K_QUOTAS);
}

/* ---- utilization ----------------------------------------------------- */

/*
 * From the rows of `top classes` (views/top.h), so that the two give
 * one figure, worded and rounded alike: in use (allocated or blocked)
 * of the class's usable devices, dra_top_percent's text and level.
 */
static void
utilization(struct dra_doctor_report *r, const struct kube_snapshot *s,
    const struct dra_doctor_opts *o)
{
	struct dra_doctor_check		*c;
	const struct dra_top_row	*row, *best = NULL;
	struct dra_top			*t;
	struct dra_err			 err;
	struct dra_buf			 b;
	enum dra_top_level		 lv;
	const char			**over;
	char				*obj, pct[32];
	size_t				 i, nover = 0, ntarget = 0;
	int64_t				 used, total, bused = 0, btot = 0;

	if (gate_check(r, "utilization", o, DRA_DOCTOR_K_CLASSES |
	    DRA_DOCTOR_K_SLICES | DRA_DOCTOR_K_CLAIMS))
		return;
	c = dra_doctor_add(r, "utilization", DRA_DOCTOR_READY, "-");
	dra_err_clear(&err);
	t = dra_top_build(s, DRA_TOP_CLASSES, NULL, &err);
	if (t == NULL) {
		c->verdict = DRA_DOCTOR_WARNING;
		set_detail(c, "cannot count the devices in use: %s", err.msg);
		return;
	}
	over = xcalloc(t->nrows + 1, sizeof *over);
	for (i = 0; i < t->nrows; i++) {
		row = &t->rows[i];
		used = row->in_use;
		total = row->devices - row->unusable;
		if (total <= 0)
			continue;
		if (best == NULL || (__int128)used * btot >
		    (__int128)bused * total) {
			best = row;
			bused = used;
			btot = total;
		}
		lv = dra_top_percent(used, total, pct, sizeof pct);
		if (lv != DRA_TOP_LEVEL_OVER && lv != DRA_TOP_LEVEL_HIGH)
			continue;
		obj = fmt("deviceclass/%s", row->name);
		if (lv == DRA_TOP_LEVEL_OVER) {
			over[nover++] = row->name;
			dra_doctor_find(c, obj, "%lld of %lld devices in use "
			    "(%s), above the %d%% ceiling", (long long)used,
			    (long long)total, pct, DRA_DOCTOR_CEILING);
		} else {
			ntarget++;
			dra_doctor_find(c, obj, "%lld of %lld devices in use "
			    "(%s), at or above the %d%% target",
			    (long long)used, (long long)total, pct,
			    DRA_DOCTOR_TARGET);
		}
		free(obj);
	}
	if (best == NULL)
		set_detail(c, "no class matches a device of a complete, "
		    "valid pool");
	else if (nover > 0) {
		c->verdict = DRA_DOCTOR_FAILED;
		dra_buf_init(&b, DRA_BUF_MAX_SMALL);
		dra_buf_addf(&b, "above the %d%% ceiling: ",
		    DRA_DOCTOR_CEILING);
		names_list(&b, over, nover);
		free(c->detail);
		c->detail = dra_buf_take(&b);
		dra_doctor_fix(c, "add devices of the class or free some "
		    "(leaked or idle claims); new claims of it wait until "
		    "then; `kubectl dra plan` sizes a layout");
	} else if (ntarget > 0)
		names_detail(c, "within the 95% ceiling; at or above the 80% "
		    "target");
	else {
		dra_top_percent(bused, btot, pct, sizeof pct);
		set_detail(c, "every class under the %d%% target (highest: "
		    "%s, %lld of %lld, %s)", DRA_DOCTOR_TARGET, best->name,
		    (long long)bused, (long long)btot, pct);
	}
	free(over);
	dra_top_free(t);
}

void
dra_doctor_utilization(struct dra_doctor_report *r,
    const struct kube_snapshot *s, const struct dra_doctor_opts *o)
{
	if (o == NULL)
		o = &no_opts;
	utilization(r, s, o);
}

/* ---- device taint rules ---------------------------------------------- */

void
dra_doctor_taint_rules(struct dra_doctor_report *r,
    const struct kube_snapshot *s, const struct dra_doctor_opts *o)
{
	struct dra_doctor_check		*c;
	const struct kube_taint_rule	*tr;
	const struct kube_pool		*p;
	const struct kube_device	*d, *first;
	struct dra_buf			 none;
	char				*obj;
	size_t				 i, j, k, l, t, cnt, nnone = 0;

	if (o == NULL)
		o = &no_opts;
	if (o->skip == NULL && o->taint_rules_unserved) {
		dra_doctor_add(r, "taint-rules", DRA_DOCTOR_READY, "the "
		    "version read serves no devicetaintrules");
		return;
	}
	if (gate_check(r, "taint-rules", o, DRA_DOCTOR_K_TAINT_RULES |
	    DRA_DOCTOR_K_SLICES))
		return;
	c = dra_doctor_add(r, "taint-rules", DRA_DOCTOR_READY, "-");
	dra_buf_init(&none, DRA_BUF_MAX_SMALL);
	for (i = 0; i < s->taint_rules.n; i++) {
		tr = s->taint_rules.v[i];
		cnt = 0;
		first = NULL;
		for (j = 0; j < s->pools.n; j++) {
			p = s->pools.v[j];
			for (k = 0; k < p->nslices; k++) {
				for (l = 0; l < p->slices[k]->ndevices; l++) {
					d = &p->slices[k]->devices[l];
					for (t = d->nslice_taints; t <
					    d->ntaints; t++) {
						if (d->taints[t].rule != NULL &&
						    strcmp(d->taints[t].rule,
						    tr->meta.name) == 0)
							break;
					}
					if (t == d->ntaints)
						continue;
					if (cnt++ == 0)
						first = d;
				}
			}
		}
		if (tr->taint.effect != KUBE_TAINT_NO_SCHEDULE &&
		    tr->taint.effect != KUBE_TAINT_NO_EXECUTE) {
			nnone++;
			view_join(&none, ", ", tr->meta.name);
			continue;
		}
		obj = fmt("devicetaintrule/%s", tr->meta.name);
		if (first != NULL)
			dra_doctor_find(c, obj, "%s%s%s:%s taints %zu "
			    "device%s (first %s/%s/%s)", tr->taint.key,
			    tr->taint.value != NULL ? "=" : "",
			    tr->taint.value != NULL ? tr->taint.value : "",
			    tr->taint.effect_text, cnt, cnt == 1 ? "" : "s",
			    first->slice->driver, first->slice->pool_name,
			    first->name);
		else
			dra_doctor_find(c, obj, "%s%s%s:%s taints no device "
			    "now (selector %s/%s/%s)", tr->taint.key,
			    tr->taint.value != NULL ? "=" : "",
			    tr->taint.value != NULL ? tr->taint.value : "",
			    tr->taint.effect_text, tr->driver != NULL ?
			    tr->driver : "*", tr->pool != NULL ? tr->pool :
			    "*", tr->device != NULL ? tr->device : "*");
		free(obj);
	}
	if (c->nfindings == 0) {
		if (nnone > 0)
			set_detail(c, "no rule keeps pods off devices; effect "
			    "None (dry run): %s", dra_buf_str(&none));
		else
			set_detail(c, "no DeviceTaintRule");
		dra_buf_release(&none);
		return;
	}
	dra_buf_release(&none);
	c->verdict = DRA_DOCTOR_WARNING;
	names_detail(c, c->nfindings == 1 ? "an active DeviceTaintRule" :
	    "active DeviceTaintRules");
	dra_doctor_fix(c, "until the rule is deleted, pods without a "
	    "matching toleration cannot get the devices (NoExecute evicts "
	    "them); once the maintenance is over: `kubectl delete "
	    "devicetaintrule %s`", c->nfindings == 1 ?
	    short_name(c->findings[0].object) : "NAME");
}

/* ---- all of them ----------------------------------------------------- */

void
dra_doctor_snapshot(struct dra_doctor_report *r,
    const struct kube_snapshot *s, const struct dra_doctor_opts *o)
{
	struct match	*mt;

	if (o == NULL)
		o = &no_opts;
	mt = match_build(s);
	device_plugin(r, s, o, mt);
	dra_doctor_pools(r, s, o);
	dra_doctor_orphan_slices(r, s, o);
	pending_claims(r, s, o, mt);
	dra_doctor_leaked_claims(r, s, o);
	class_selectors(r, s, o, mt);
	dra_doctor_quota_coverage(r, s, o);
	utilization(r, s, o);
	dra_doctor_taint_rules(r, s, o);
	match_free(mt);
}

/* ---- text and JSON --------------------------------------------------- */

/*
 * Append n bytes of s to b with every control character (C0 and DEL:
 * escape sequences, BEL, tabs, newlines from an object's names, CEL
 * or the server's messages) written as '?', so the terminal shows the
 * text and never obeys it (kubectl escapes terminal control in the
 * same way, printers.EscapeTerminal).  The JSON keeps the text as it is.
 */
static void
add_printable(struct dra_buf *b, const char *s, size_t n)
{
	size_t	i, from = 0;

	for (i = 0; i < n; i++) {
		if ((unsigned char)s[i] >= 0x20 && s[i] != 0x7f)
			continue;
		dra_buf_add(b, s + from, i - from);
		dra_buf_adds(b, "?");
		from = i + 1;
	}
	dra_buf_add(b, s + from, n - from);
}

/*
 * Append text to b wrapped at width: the first line continues at
 * column col, later lines start with indent spaces.  Breaks at spaces;
 * a word longer than a line stays whole.  A command between backticks
 * ("`kubectl dra why claim/x -n a`") is one word, printed without its
 * backticks: never split, it starts a line of its own when it does not
 * fit after the text before it, and a command longer than the line
 * from indent starts at cmdcol (<= indent) instead, or where it ends at
 * width when it is longer than that too (from column 0 at the least).
 */
static void
wrap(struct dra_buf *b, const char *text, size_t col, size_t indent,
    size_t cmdcol, size_t width)
{
	const char	*p = text, *word, *close, *tail, *next;
	size_t		 pl, wl, tl, total, at;
	int		 first = 1, cmd;

	while (*p != '\0') {
		while (*p == ' ')
			p++;
		if (*p == '\0')
			break;
		/* What sticks before a command ("(`kubectl ...`"). */
		pl = strcspn(p, " `");
		cmd = p[pl] == '`' && (close = strchr(p + pl + 1, '`')) !=
		    NULL;
		if (cmd) {
			word = p + pl + 1;
			wl = (size_t)(close - word);
			tail = close + 1;
		} else {
			pl = 0;
			word = p;
			wl = strcspn(p, " ");
			tail = p + wl;
		}
		/* What sticks after it (punctuation after a command). */
		tl = strcspn(tail, " ");
		next = tail + tl;
		total = pl + wl + tl;
		if (!first && col + 1 + total > width) {
			at = indent;
			if (cmd && at + total > width)
				at = cmdcol < indent ? cmdcol : indent;
			if (cmd && at + total > width)
				at = width > total ? width - total : 0;
			dra_buf_addf(b, "\n%*s", (int)at, "");
			col = at;
		} else if (!first) {
			dra_buf_adds(b, " ");
			col++;
		}
		add_printable(b, p, pl);
		add_printable(b, word, wl);
		add_printable(b, tail, tl);
		col += total;
		first = 0;
		p = next;
	}
	dra_buf_adds(b, "\n");
}

static const char *
verdict_color(enum dra_doctor_verdict v)
{
	switch (v) {
	case DRA_DOCTOR_READY:
		return "\033[32m";
	case DRA_DOCTOR_SKIPPED:
		return "\033[2m";
	case DRA_DOCTOR_WARNING:
		return "\033[33m";
	case DRA_DOCTOR_FAILED:
		return "\033[31m";
	}
	return "";
}

char *
dra_doctor_text(const struct dra_doctor_report *r, int width, int color)
{
	const struct dra_doctor_check	*c;
	struct dra_buf			 b;
	char				 overall[128], *line;
	const char			*vn;
	size_t				 i, j, cw = 5, vw = 7, ind, w;
	size_t				 f, wn;

	w = width < 60 ? 60 : (size_t)width;
	for (i = 0; i < r->nchecks; i++)
		if (strlen(r->checks[i].name) > cw)
			cw = strlen(r->checks[i].name);
	cw += 3;
	vw += 3;
	ind = cw + vw;
	dra_buf_init(&b, DRA_BUF_MAX_PAGE);
	dra_buf_addf(&b, "%-*s%-*s%s\n", (int)cw, "CHECK", (int)vw, "VERDICT",
	    "DETAIL");
	for (i = 0; i < r->nchecks; i++) {
		c = &r->checks[i];
		vn = dra_doctor_verdict_name(c->verdict);
		dra_buf_addf(&b, "%-*s", (int)cw, c->name);
		if (color)
			dra_buf_addf(&b, "%s%s\033[0m%*s",
			    verdict_color(c->verdict), vn,
			    (int)(vw - strlen(vn)), "");
		else
			dra_buf_addf(&b, "%-*s", (int)vw, vn);
		wrap(&b, c->detail, ind, ind, ind, w);
		if (c->verdict == DRA_DOCTOR_READY ||
		    c->verdict == DRA_DOCTOR_SKIPPED)
			continue;
		for (j = 0; j < c->nfindings && j < DOCTOR_TEXT_FINDINGS;
		    j++) {
			/* The dash always with the object's name. */
			line = fmt("%s: %s", c->findings[j].object,
			    c->findings[j].message);
			dra_buf_addf(&b, "%*s- ", (int)ind, "");
			wrap(&b, line, ind + 2, ind + 2, ind, w);
			free(line);
		}
		if (c->nfindings > DOCTOR_TEXT_FINDINGS) {
			line = fmt("and %zu more (-o json lists every one)",
			    c->nfindings - DOCTOR_TEXT_FINDINGS);
			dra_buf_addf(&b, "%*s", (int)ind + 2, "");
			wrap(&b, line, ind + 2, ind + 2, ind, w);
			free(line);
		}
		if (c->fix != NULL) {
			line = fmt("Fix: %s", c->fix);
			dra_buf_addf(&b, "%*s", (int)ind, "");
			wrap(&b, line, ind, ind + 5, ind, w);
			free(line);
		}
	}
	dra_doctor_overall(r, overall, sizeof overall);
	if (color)
		dra_buf_addf(&b, "\n%s%s\033[0m\n", dra_doctor_ready(r, &f,
		    &wn) ? verdict_color(DRA_DOCTOR_READY) : f > 0 ?
		    verdict_color(DRA_DOCTOR_FAILED) :
		    verdict_color(DRA_DOCTOR_WARNING), overall);
	else
		dra_buf_addf(&b, "\n%s\n", overall);
	return dra_buf_take(&b);
}

cJSON *
dra_doctor_json(const struct dra_doctor_report *r)
{
	const struct dra_doctor_check	*c;
	cJSON				*doc, *checks, *o, *objs, *finds, *f;
	char				 overall[128];
	size_t				 i, j, nf, nw;
	int				 ready;

	ready = dra_doctor_ready(r, &nf, &nw);
	doc = cJSON_CreateObject();
	cJSON_AddStringToObject(doc, "apiVersion", "dra.kubectl.io/v1alpha1");
	cJSON_AddStringToObject(doc, "kind", "DoctorReport");
	cJSON_AddBoolToObject(doc, "ready", ready);
	cJSON_AddStringToObject(doc, "summary", dra_doctor_overall(r, overall,
	    sizeof overall));
	cJSON_AddNumberToObject(doc, "failed", (double)nf);
	cJSON_AddNumberToObject(doc, "warnings", (double)nw);
	checks = cJSON_AddArrayToObject(doc, "checks");
	for (i = 0; i < r->nchecks; i++) {
		c = &r->checks[i];
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", c->name);
		cJSON_AddStringToObject(o, "verdict",
		    dra_doctor_verdict_name(c->verdict));
		cJSON_AddStringToObject(o, "detail", c->detail);
		if (c->fix != NULL)
			cJSON_AddStringToObject(o, "fix", c->fix);
		else
			cJSON_AddNullToObject(o, "fix");
		objs = cJSON_AddArrayToObject(o, "objects");
		finds = cJSON_AddArrayToObject(o, "findings");
		for (j = 0; j < c->nfindings; j++) {
			cJSON_AddItemToArray(objs, cJSON_CreateString(
			    c->findings[j].object));
			f = cJSON_CreateObject();
			cJSON_AddStringToObject(f, "object",
			    c->findings[j].object);
			cJSON_AddStringToObject(f, "message",
			    c->findings[j].message);
			cJSON_AddItemToArray(finds, f);
		}
		cJSON_AddItemToArray(checks, o);
	}
	return doc;
}
