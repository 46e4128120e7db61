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

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "cel.h"
#include "views.h"
#include "views-int.h"
#include "why.h"
#include "xmalloc.h"

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
static struct match *match_build(const struct kube_snapshot *);
static void	match_free(struct match *);
static int	match_has(const struct match *, size_t, size_t);
static int	pool_usable(const struct kube_pool *);
static int64_t	qty_value(const char *);
static void	device_plugin(struct dra_doctor_report *,
		    const struct kube_snapshot *,
		    const struct dra_doctor_opts *, const struct match *);
static void	class_selectors(struct dra_doctor_report *,
		    const struct kube_snapshot *,
		    const struct dra_doctor_opts *, const struct match *);
static void	utilization(struct dra_doctor_report *,
		    const struct kube_snapshot *,
		    const struct dra_doctor_opts *, const struct match *);
static void	wrap(struct dra_buf *, const char *, size_t, size_t, size_t);

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

/*
 * Before a check: Skipped when o->skip says so; Warning "cannot read
 * X, Y: forbidden" when a kind it needs could not be read at all.
 * Returns 1 when the check was added that way (the caller stops).
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
	if (miss == 0)
		return 0;
	dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	for (k = 1; k <= DRA_DOCTOR_K_QUOTAS; k <<= 1) {
		if (miss & k)
			view_join(&b, ", ", kind_resource(k));
	}
	c = dra_doctor_add(r, name, DRA_DOCTOR_WARNING, "cannot read %s: "
	    "forbidden", dra_buf_str(&b));
	dra_doctor_fix(c, "run doctor as a user allowed to list %s (for "
	    "example a cluster admin) to get this check", dra_buf_str(&b));
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

static int
pool_usable(const struct kube_pool *p)
{
	return p != NULL && p->complete && p->invalid == NULL;
}

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
	const char			*key, *driver, *pool;
	char				*obj;
	size_t				 i, j, k, nbn = 0, cnt, nnodes = 0;
	int64_t				 val;

	if (gate_check(r, "device-plugin", o, DRA_DOCTOR_K_NODES |
	    DRA_DOCTOR_K_SLICES | DRA_DOCTOR_K_CLASSES))
		return;
	if (o->nodes_unknown) {
		dra_doctor_skip(r, "device-plugin", "no Node objects to read "
		    "status.allocatable from");
		return;
	}
	c = dra_doctor_add(r, "device-plugin", DRA_DOCTOR_READY, "-");
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
		return;
	}
	c->verdict = DRA_DOCTOR_FAILED;
	names_detail(c, nnodes == 1 ? "a device plugin and a DRA driver both "
	    "hand out the GPUs of node" : "a device plugin and a DRA driver "
	    "both hand out the GPUs of nodes");
	dra_doctor_fix(c, "run one of them per node: disable the device "
	    "plugin there (GPU Operator: kubectl label node NODE "
	    "nvidia.com/gpu.deploy.device-plugin=false), or stop the DRA "
	    "driver's kubelet plugin on it");
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
		    "and every consumed counter must exist (kubectl dra "
		    "describe pool DRIVER/POOL)");
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
	if (o->nodes_unknown) {
		dra_doctor_skip(r, "orphan-slices", "no Node objects to "
		    "compare the slices' nodes with");
		return;
	}
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
	dra_doctor_fix(c, "delete them (kubectl delete resourceslice NAME) "
	    "once the node is gone for good; a kubelet plugin's slices name "
	    "their Node as owner and are deleted with it");
}

/* ---- pending claims -------------------------------------------------- */

/* Seconds as a Go duration without zero units: "5m", "1h30m", "0s". */
static void
duration(int64_t sec, char *buf, size_t len)
{
	struct dra_buf	b;

	if (sec <= 0) {
		snprintf(buf, len, "0s");
		return;
	}
	dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	if (sec >= 3600)
		dra_buf_addf(&b, "%lldh", (long long)(sec / 3600));
	if (sec % 3600 >= 60)
		dra_buf_addf(&b, "%lldm", (long long)(sec % 3600 / 60));
	if (sec % 60 != 0)
		dra_buf_addf(&b, "%llds", (long long)(sec % 60));
	snprintf(buf, len, "%s", dra_buf_str(&b));
	dra_buf_release(&b);
}

void
dra_doctor_pending_claims(struct dra_doctor_report *r,
    const struct kube_snapshot *s, const struct dra_doctor_opts *o)
{
	struct dra_doctor_check		*c;
	const struct kube_claim		*cl;
	const struct dra_why_reason	*why0;
	struct dra_why_target		 t;
	struct dra_why			*w;
	struct dra_err			 err;
	struct dra_buf			 b;
	char				 age[32], thr[32], *obj;
	size_t				 i, nwhy = 0, nhard = 0;
	int64_t				 a;

	if (o == NULL)
		o = &no_opts;
	if (gate_check(r, "pending-claims", o, DRA_DOCTOR_K_CLAIMS))
		return;
	c = dra_doctor_add(r, "pending-claims", DRA_DOCTOR_READY, "-");
	dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	for (i = 0; i < s->claims.n; i++) {
		cl = s->claims.v[i];
		if (cl->allocated || cl->meta.deleted != 0)
			continue;
		a = cl->meta.created != 0 ? s->now - cl->meta.created : -1;
		if (a < -1)
			a = 0;
		if (a >= 0 && a < o->pending_threshold)
			continue;
		dra_buf_reset(&b);
		if (a > 0)
			dra_buf_addf(&b, "pending %s", dra_format_age(s->now,
			    cl->meta.created, age, sizeof age));
		else if (a == 0)
			dra_buf_adds(&b, "pending 0s");
		else
			dra_buf_adds(&b, "pending (age unknown)");
		if (cl->npods == 0)
			dra_buf_adds(&b, ", no pod uses it");
		if (nwhy < DRA_DOCTOR_WHY_MAX) {
			nwhy++;
			memset(&t, 0, sizeof t);
			t.claim = cl;
			w = NULL;
			dra_err_clear(&err);
			if (dra_why(s, &t, &w, &err) != KUBE_OK)
				dra_buf_addf(&b, "; why: %s", err.msg);
			else {
				dra_buf_addf(&b, "; %s", w->summary);
				if (w->verdict == DRA_WHY_NEVER ||
				    w->verdict == DRA_WHY_BLOCKED)
					nhard++;
				why0 = w->nreasons > 0 ? &w->reasons[0] :
				    NULL;
				if (why0 != NULL && w->verdict !=
				    DRA_WHY_ALLOCATABLE)
					dra_buf_addf(&b, "; first reason%s%s: "
					    "%s", why0->node != NULL ?
					    " on node " : "", why0->node !=
					    NULL ? why0->node : "",
					    why0->message);
			}
			dra_why_free(w);
		} else
			dra_buf_addf(&b, "; not explained (more than %d "
			    "pending claims): kubectl dra why claim/%s -n %s",
			    DRA_DOCTOR_WHY_MAX, cl->meta.name,
			    cl->meta.namespace);
		obj = fmt("resourceclaim/%s/%s", cl->meta.namespace,
		    cl->meta.name);
		dra_doctor_find(c, obj, "%s", dra_buf_str(&b));
		free(obj);
	}
	dra_buf_release(&b);
	duration(o->pending_threshold, thr, sizeof thr);
	if (c->nfindings == 0) {
		set_detail(c, "no claim pending for %s or more", thr);
		partial_note(c, o, DRA_DOCTOR_K_CLAIMS);
		return;
	}
	c->verdict = nhard > 0 ? DRA_DOCTOR_FAILED : DRA_DOCTOR_WARNING;
	dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	dra_buf_addf(&b, "%zu claim%s pending for %s or more", c->nfindings,
	    c->nfindings == 1 ? "" : "s", thr);
	names_detail(c, dra_buf_str(&b));
	dra_buf_release(&b);
	dra_doctor_fix(c, nhard > 0 ? "each claim's reason says what to "
	    "change (class, selectors, devices, taints); kubectl dra why "
	    "claim/NAME -n NS explains one in full" : "free devices or add "
	    "some, or wait; kubectl dra why claim/NAME -n NS explains one "
	    "in full");
	partial_note(c, o, DRA_DOCTOR_K_CLAIMS);
}

/* ---- leaked claims --------------------------------------------------- */

void
dra_doctor_leaked_claims(struct dra_doctor_report *r,
    const struct kube_snapshot *s, const struct dra_doctor_opts *o)
{
	struct dra_doctor_check		*c;
	const struct kube_claim		*cl;
	const struct kube_result	*res;
	struct dra_buf			 b;
	char				 age[32], *obj;
	size_t				 i, j;

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
	dra_doctor_fix(c, "delete a claim nothing will use (kubectl delete "
	    "resourceclaim NAME -n NS) to free its devices, or start the pod "
	    "it was made for");
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
	size_t				 i, nbad = 0, nnone = 0;

	if (gate_check(r, "class-selectors", o, DRA_DOCTOR_K_CLASSES |
	    DRA_DOCTOR_K_SLICES))
		return;
	c = dra_doctor_add(r, "class-selectors", DRA_DOCTOR_READY, "-");
	for (i = 0; i < mt->ncls; i++) {
		ce = &mt->cls[i];
		obj = fmt("deviceclass/%s", ce->cls->meta.name);
		if (ce->compile_err != NULL) {
			nbad++;
			dra_doctor_find(c, obj, "%s", ce->compile_err);
		} else if (ce->runtime_err != NULL) {
			nbad++;
			d = ce->err_dev;
			dra_doctor_find(c, obj, "%s (on %zu device%s, first "
			    "%s/%s/%s): the allocator fails every pod that "
			    "asks for the class", ce->runtime_err, ce->nerr,
			    ce->nerr == 1 ? "" : "s", d->slice->driver,
			    d->slice->pool_name, d->name);
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
	if (nbad + nnone == 0) {
		set_detail(c, "%zu class%s, each matching published devices",
		    mt->ncls, mt->ncls == 1 ? "" : "es");
		return;
	}
	if (nbad > 0) {
		c->verdict = DRA_DOCTOR_FAILED;
		if (nnone > 0)
			names_detail(c, "classes whose selectors fail or "
			    "match nothing");
		else
			names_detail(c, nbad == 1 ? "a class whose selector "
			    "fails" : "classes whose selectors fail");
		dra_doctor_fix(c, "correct the CEL of the class (guard "
		    "optional attributes with has() or .orValue()), "
		    "kubectl dra get devices shows what devices publish");
	} else {
		c->verdict = DRA_DOCTOR_WARNING;
		names_detail(c, nnone == 1 ? "a class that matches no device" :
		    "classes that match no device");
		dra_doctor_fix(c, "check the selectors against the published "
		    "attributes (kubectl dra get devices -o wide) or install "
		    "the driver that publishes such devices");
	}
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
	    "ResourceQuota of the namespace (kubectl dra plan proposes "
	    "quotas)");
	partial_note(c, o, DRA_DOCTOR_K_CLAIMS | DRA_DOCTOR_K_TEMPLATES |
	    DRA_DOCTOR_K_QUOTAS);
}

/* ---- utilization ----------------------------------------------------- */

static void
utilization(struct dra_doctor_report *r, const struct kube_snapshot *s,
    const struct dra_doctor_opts *o, const struct match *mt)
{
	struct dra_doctor_check		*c;
	const struct kube_device	*d;
	const char			**over, *bname = NULL;
	struct dra_buf			 b;
	char				*obj;
	size_t				 i, k, total, used, nover = 0;
	size_t				 ntarget = 0, btot = 0, bused = 0;
	unsigned			 pct, best = 0;

	if (gate_check(r, "utilization", o, DRA_DOCTOR_K_CLASSES |
	    DRA_DOCTOR_K_SLICES | DRA_DOCTOR_K_CLAIMS))
		return;
	(void)s;
	c = dra_doctor_add(r, "utilization", DRA_DOCTOR_READY, "-");
	over = xcalloc(mt->ncls + 1, sizeof *over);
	for (i = 0; i < mt->ncls; i++) {
		total = used = 0;
		for (k = 0; k < mt->ndev; k++) {
			d = mt->dev[k];
			if (!match_has(mt, i, k) || !pool_usable(d->pool))
				continue;
			total++;
			if (((d->state & KUBE_DEV_ALLOCATED) &&
			    !(d->state & KUBE_DEV_ADMIN)) ||
			    (d->state & KUBE_DEV_BLOCKED))
				used++;
		}
		if (total == 0)
			continue;
		pct = (unsigned)(used * 100 / total);
		if (bname == NULL || used * btot > bused * total) {
			bname = mt->cls[i].cls->meta.name;
			bused = used;
			btot = total;
			best = pct;
		}
		/* As the planner and top: at most the ceiling is allowed. */
		if (used * 100 < total * DRA_DOCTOR_TARGET)
			continue;
		obj = fmt("deviceclass/%s", mt->cls[i].cls->meta.name);
		if (used * 100 > total * DRA_DOCTOR_CEILING) {
			over[nover++] = mt->cls[i].cls->meta.name;
			dra_doctor_find(c, obj, "%zu of %zu devices in use "
			    "(%u%%), above the %d%% ceiling", used, total, pct,
			    DRA_DOCTOR_CEILING);
		} else {
			ntarget++;
			dra_doctor_find(c, obj, "%zu of %zu devices in use "
			    "(%u%%), at or above the %d%% target", used, total,
			    pct, DRA_DOCTOR_TARGET);
		}
		free(obj);
	}
	if (bname == NULL)
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
		    "then (kubectl dra plan sizes a layout)");
	} else if (ntarget > 0)
		names_detail(c, "within the 95% ceiling; at or above the 80% "
		    "target");
	else
		set_detail(c, "every class under the %d%% target (highest: "
		    "%s, %zu of %zu, %u%%)", DRA_DOCTOR_TARGET, bname, bused,
		    btot, best);
	free(over);
}

void
dra_doctor_utilization(struct dra_doctor_report *r,
    const struct kube_snapshot *s, const struct dra_doctor_opts *o)
{
	struct match	*mt;

	if (o == NULL)
		o = &no_opts;
	mt = match_build(s);
	utilization(r, s, o, mt);
	match_free(mt);
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
	dra_doctor_fix(c, "delete a rule once its maintenance is over "
	    "(kubectl delete devicetaintrule NAME); until then pods without "
	    "a matching toleration cannot get the devices (NoExecute evicts "
	    "them)");
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
	dra_doctor_pending_claims(r, s, o);
	dra_doctor_leaked_claims(r, s, o);
	class_selectors(r, s, o, mt);
	dra_doctor_quota_coverage(r, s, o);
	utilization(r, s, o, mt);
	dra_doctor_taint_rules(r, s, o);
	match_free(mt);
}

/* ---- text and JSON --------------------------------------------------- */

/*
 * Append text to b wrapped at width: the first line continues at
 * column col, later lines start with indent spaces.  Breaks at spaces;
 * a word longer than a line stays whole.
 */
static void
wrap(struct dra_buf *b, const char *text, size_t col, size_t indent,
    size_t width)
{
	const char	*p = text, *end;
	size_t		 wl, first = 1;

	while (*p != '\0') {
		while (*p == ' ')
			p++;
		if (*p == '\0')
			break;
		end = strchr(p, ' ');
		wl = end != NULL ? (size_t)(end - p) : strlen(p);
		if (!first && col + 1 + wl > width) {
			dra_buf_addf(b, "\n%*s", (int)indent, "");
			col = indent;
		} else if (!first) {
			dra_buf_adds(b, " ");
			col++;
		}
		dra_buf_add(b, p, wl);
		col += wl;
		first = 0;
		p += wl;
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
		wrap(&b, c->detail, ind, ind, w);
		if (c->verdict == DRA_DOCTOR_READY ||
		    c->verdict == DRA_DOCTOR_SKIPPED)
			continue;
		for (j = 0; j < c->nfindings && j < DOCTOR_TEXT_FINDINGS;
		    j++) {
			line = fmt("- %s: %s", c->findings[j].object,
			    c->findings[j].message);
			dra_buf_addf(&b, "%*s", (int)ind, "");
			wrap(&b, line, ind, ind + 2, w);
			free(line);
		}
		if (c->nfindings > DOCTOR_TEXT_FINDINGS) {
			line = fmt("and %zu more (-o json lists every one)",
			    c->nfindings - DOCTOR_TEXT_FINDINGS);
			dra_buf_addf(&b, "%*s", (int)ind + 2, "");
			wrap(&b, line, ind + 2, ind + 2, w);
			free(line);
		}
		if (c->fix != NULL) {
			line = fmt("Fix: %s", c->fix);
			dra_buf_addf(&b, "%*s", (int)ind, "");
			wrap(&b, line, ind, ind + 5, w);
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
