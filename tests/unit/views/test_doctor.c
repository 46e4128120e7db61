/*
 * test_doctor.c: the checks of `kubectl dra doctor` (views/doctor.h),
 * each on small snapshots read from YAML text, with a case that must
 * pass and one that must not, and the objects each names; the live
 * checks' verdicts from given answers (versions, discovery, dry-run
 * answers of the feature probes); permissions; the table and the
 * JSON document.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cjson/cJSON.h>

#include "doctor.h"
#include "snapshot.h"
#include "top.h"

/* 2025-11-30T00:00:00Z, ten minutes after the objects below. */
#define NOW	1764460800

#define NODE(n, extra) \
	"---\napiVersion: v1\nkind: Node\nmetadata: {name: " n "}\n" \
	"status: {allocatable: {pods: '110'" extra "}}\n"

#define CLASS(n, sel) \
	"---\napiVersion: resource.k8s.io/v1\nkind: DeviceClass\n" \
	"metadata: {name: " n "}\n" \
	"spec: {selectors: [{cel: {expression: \"" sel "\"}}]}\n"

/* A node-local pool of one slice with devices gpu-0..gpu-(n-1). */
static const char gpu_class[] =
    CLASS("gpu.example.com", "device.driver == 'gpu.example.com'");

static char *
slice(const char *name, const char *driver, const char *node,
    const char *pool, int count, int ndev)
{
	char	*s, *p;
	size_t	 len = 512 + (size_t)ndev * 64;
	int	 i, n;

	s = malloc(len);
	n = snprintf(s, len, "---\napiVersion: resource.k8s.io/v1\n"
	    "kind: ResourceSlice\nmetadata: {name: %s}\nspec:\n"
	    "  driver: %s\n  nodeName: %s\n"
	    "  pool: {name: %s, generation: 1, resourceSliceCount: %d}\n"
	    "  devices:\n", name, driver, node, pool, count);
	p = s + n;
	for (i = 0; i < ndev; i++)
		p += snprintf(p, len - (size_t)(p - s),
		    "  - {name: gpu-%d, attributes: {type: {string: gpu}}}\n",
		    i);
	return s;
}

/* A claim of class cls in ns, allocated to dev (NULL: pending). */
static char *
claim(const char *ns, const char *name, const char *cls, const char *dev,
    const char *pool, int reserved)
{
	char	*s;
	size_t	 len = 2048;

	s = malloc(len);
	snprintf(s, len, "---\napiVersion: resource.k8s.io/v1\n"
	    "kind: ResourceClaim\nmetadata: {name: %s, namespace: %s, "
	    "uid: u-%s, creationTimestamp: '2025-11-29T23:50:00Z'}\n"
	    "spec: {devices: {requests: [{name: r, exactly: "
	    "{deviceClassName: %s}}]}}\n%s%s%s%s%s%s%s", name, ns, name, cls,
	    dev != NULL ? "status:\n  allocation:\n    devices:\n"
	    "      results: [{request: r, driver: gpu.example.com, pool: " : "",
	    dev != NULL ? pool : "", dev != NULL ? ", device: " : "",
	    dev != NULL ? dev : "", dev != NULL ? "}]\n" : "",
	    dev != NULL && reserved ? "  reservedFor: [{resource: pods, "
	    "name: p-" : "", dev != NULL && reserved ? "x, uid: u1}]\n" : "");
	return s;
}

/* A pending claim of class cls created at ts, with request selector sel. */
static char *
claim_at(const char *ns, const char *name, const char *cls, const char *ts,
    const char *sel)
{
	char	*s;
	size_t	 len = 2048;

	s = malloc(len);
	snprintf(s, len, "---\napiVersion: resource.k8s.io/v1\n"
	    "kind: ResourceClaim\nmetadata: {name: %s, namespace: %s, "
	    "uid: u-%s, creationTimestamp: '%s'}\n"
	    "spec: {devices: {requests: [{name: r, exactly: "
	    "{deviceClassName: %s%s%s%s}}]}}\n", name, ns, name, ts, cls,
	    sel != NULL ? ", selectors: [{cel: {expression: \"" : "",
	    sel != NULL ? sel : "", sel != NULL ? "\"}}]" : "");
	return s;
}

static char *
cat(const char *a, ...)
{
	va_list		 ap;
	const char	*p;
	size_t		 len = strlen(a) + 1;
	char		*s;

	va_start(ap, a);
	while ((p = va_arg(ap, const char *)) != NULL)
		len += strlen(p);
	va_end(ap);
	s = malloc(len);
	len = strlen(a);
	memcpy(s, a, len + 1);
	va_start(ap, a);
	while ((p = va_arg(ap, const char *)) != NULL) {
		memcpy(s + len, p, strlen(p) + 1);
		len += strlen(p);
	}
	va_end(ap);
	return s;
}

static struct kube_snapshot *
load(const char *yaml)
{
	struct kube_snapshot	*s = kube_snapshot_new();
	struct dra_err		 err;

	if (kube_snapshot_load_mem(s, "test.yaml", yaml, strlen(yaml), &err) !=
	    KUBE_OK)
		fail_msg("load: %s", err.msg);
	kube_snapshot_finish(s);
	s->now = NOW;
	return s;
}

/* Run one check on yaml; returns the report (one check). */
typedef void (*check_fn)(struct dra_doctor_report *,
    const struct kube_snapshot *, const struct dra_doctor_opts *);

static struct dra_doctor_report *
run(check_fn fn, const char *yaml, const struct dra_doctor_opts *o)
{
	struct dra_doctor_report	*r = dra_doctor_report_new();
	struct kube_snapshot		*s = load(yaml);

	fn(r, s, o);
	kube_snapshot_free(s);
	assert_int_equal(r->nchecks, 1);
	return r;
}

static void
expect(struct dra_doctor_report *r, enum dra_doctor_verdict v,
    const char *name, size_t nfind)
{
	const struct dra_doctor_check	*c = &r->checks[0];

	assert_string_equal(c->name, name);
	if (c->verdict != v)
		fail_msg("%s: verdict %s, want %s (%s)", name,
		    dra_doctor_verdict_name(c->verdict),
		    dra_doctor_verdict_name(v), c->detail);
	assert_int_equal(c->nfindings, nfind);
	if (v == DRA_DOCTOR_WARNING || v == DRA_DOCTOR_FAILED)
		assert_non_null(c->fix);
}

static void
test_device_plugin(void **state)
{
	struct dra_doctor_report	*r;
	char				*y, *sl1, *sl2;

	(void)state;
	sl1 = slice("n1-gpu", "gpu.nvidia.com", "n1", "n1", 1, 4);
	sl2 = slice("n2-gpu", "gpu.nvidia.com", "n2", "n2", 1, 4);
	/* n1 advertises nvidia.com/gpu and publishes its GPUs: conflict. */
	y = cat(NODE("n1", ", nvidia.com/gpu: '4'"), NODE("n2", ""),
	    NODE("n3", ", nvidia.com/gpu: '8'"), sl1, sl2, NULL);
	r = run(dra_doctor_device_plugin, y, NULL);
	expect(r, DRA_DOCTOR_FAILED, "device-plugin", 1);
	assert_string_equal(r->checks[0].findings[0].object, "node/n1");
	assert_non_null(strstr(r->checks[0].findings[0].message,
	    "nvidia.com/gpu=4"));
	assert_non_null(strstr(r->checks[0].findings[0].message,
	    "publishes 4 devices"));
	/* The command names the node, whole, between backticks. */
	assert_non_null(strstr(r->checks[0].fix,
	    "`kubectl label node n1 nvidia.com/gpu.deploy.device-plugin="
	    "false`"));
	assert_null(strstr(r->checks[0].fix, "NODE"));
	dra_doctor_report_free(r);
	free(y);

	/* A zero count is no conflict; n3 has no DRA devices. */
	y = cat(NODE("n1", ", nvidia.com/gpu: '0'"), NODE("n2", ""),
	    NODE("n3", ", nvidia.com/gpu: '8'"), sl1, sl2, NULL);
	r = run(dra_doctor_device_plugin, y, NULL);
	expect(r, DRA_DOCTOR_READY, "device-plugin", 0);
	dra_doctor_report_free(r);
	free(y);

	/* Another vendor: a class maps the extended resource. */
	free(sl2);
	sl2 = slice("n1-fpga", "fpga.example.org", "n1", "n1", 1, 2);
	y = cat(NODE("n1", ", example.com/fpga: '2'"), sl2,
	    "---\napiVersion: resource.k8s.io/v1\nkind: DeviceClass\n"
	    "metadata: {name: fpga}\nspec: {extendedResourceName: "
	    "example.com/fpga, selectors: [{cel: {expression: "
	    "\"device.driver == 'fpga.example.org'\"}}]}\n", NULL);
	r = run(dra_doctor_device_plugin, y, NULL);
	expect(r, DRA_DOCTOR_FAILED, "device-plugin", 1);
	assert_non_null(strstr(r->checks[0].findings[0].message,
	    "fpga.example.org publishes 2 devices"));
	dra_doctor_report_free(r);
	free(y);
	free(sl1);
	free(sl2);
}

static void
test_pools(void **state)
{
	struct dra_doctor_report	*r;
	char				*y, *a, *b;

	(void)state;
	a = slice("p-a", "gpu.example.com", "n1", "n1", 2, 2);
	y = cat(NODE("n1", ""), a, NULL);
	r = run(dra_doctor_pools, y, NULL);
	expect(r, DRA_DOCTOR_WARNING, "pools", 1);
	assert_string_equal(r->checks[0].findings[0].object,
	    "pool/gpu.example.com/n1");
	assert_non_null(strstr(r->checks[0].findings[0].message,
	    "incomplete: 1 of 2 slices at generation 1"));
	assert_string_equal(r->checks[0].detail,
	    "incomplete pool: gpu.example.com/n1");
	dra_doctor_report_free(r);
	free(y);

	/* The second slice completes it. */
	b = slice("p-b", "gpu.example.com", "n1", "n1", 2, 0);
	y = cat(NODE("n1", ""), a, b, NULL);
	r = run(dra_doctor_pools, y, NULL);
	expect(r, DRA_DOCTOR_READY, "pools", 0);
	assert_string_equal(r->checks[0].detail, "1 pool complete and valid");
	dra_doctor_report_free(r);
	free(y);
	free(b);

	/* The same device names in both slices: invalid. */
	b = slice("p-b", "gpu.example.com", "n1", "n1", 2, 1);
	y = cat(NODE("n1", ""), a, b, NULL);
	r = run(dra_doctor_pools, y, NULL);
	expect(r, DRA_DOCTOR_FAILED, "pools", 1);
	assert_non_null(strstr(r->checks[0].findings[0].message, "invalid"));
	dra_doctor_report_free(r);
	free(y);
	free(a);
	free(b);
}

static void
test_orphan_slices(void **state)
{
	struct dra_doctor_report	*r;
	struct dra_doctor_opts		 o;
	char				*y, *a, *b;

	(void)state;
	a = slice("n1-gpu", "gpu.example.com", "n1", "n1", 1, 1);
	b = slice("gone-gpu", "gpu.example.com", "gone", "gone", 1, 3);
	y = cat(NODE("n1", ""), a, b, NULL);
	r = run(dra_doctor_orphan_slices, y, NULL);
	expect(r, DRA_DOCTOR_WARNING, "orphan-slices", 1);
	assert_string_equal(r->checks[0].findings[0].object,
	    "resourceslice/gone-gpu");
	assert_non_null(strstr(r->checks[0].findings[0].message,
	    "names node gone, which does not exist"));
	dra_doctor_report_free(r);
	free(y);

	y = cat(NODE("n1", ""), NODE("gone", ""), a, b, NULL);
	r = run(dra_doctor_orphan_slices, y, NULL);
	expect(r, DRA_DOCTOR_READY, "orphan-slices", 0);
	dra_doctor_report_free(r);
	free(y);

	/* A file without Node objects: skipped, not "all missing". */
	memset(&o, 0, sizeof o);
	o.absent = DRA_DOCTOR_K_NODES;
	y = cat(a, b, NULL);
	r = run(dra_doctor_orphan_slices, y, &o);
	expect(r, DRA_DOCTOR_SKIPPED, "orphan-slices", 0);
	assert_string_equal(r->checks[0].detail, "the file holds no Node "
	    "objects (`kubectl dra snapshot -o FILE` captures every kind)");
	dra_doctor_report_free(r);
	free(y);
	free(a);
	free(b);
}

static void
test_pending_claims(void **state)
{
	struct dra_doctor_report	*r;
	struct dra_doctor_opts		 o;
	char				*y, *a, *c1, *c2;

	(void)state;
	a = slice("n1-gpu", "gpu.example.com", "n1", "n1", 1, 1);
	c1 = claim("team-a", "waits", "gpu.example.com", NULL, NULL, 0);
	c2 = claim("team-a", "holds", "gpu.example.com", "gpu-0", "n1", 1);
	y = cat(NODE("n1", ""), gpu_class, a, c1, c2, NULL);
	memset(&o, 0, sizeof o);
	o.pending_threshold = 300;
	r = run(dra_doctor_pending_claims, y, &o);
	/* Its only device is held: allocatable once holds releases it. */
	expect(r, DRA_DOCTOR_WARNING, "pending-claims", 1);
	assert_string_equal(r->checks[0].findings[0].object,
	    "resourceclaim/team-a/waits");
	assert_non_null(strstr(r->checks[0].findings[0].message,
	    "pending 10m, no pod uses it; not allocatable now; allocatable "
	    "once team-a/holds releases its devices"));
	assert_string_equal(r->checks[0].detail,
	    "1 claim pending for 5m or more: team-a/waits");
	dra_doctor_report_free(r);

	/* Ten minutes is under a threshold of 15m. */
	o.pending_threshold = 900;
	r = run(dra_doctor_pending_claims, y, &o);
	expect(r, DRA_DOCTOR_READY, "pending-claims", 0);
	assert_string_equal(r->checks[0].detail,
	    "no claim pending for 15m or more");
	dra_doctor_report_free(r);
	/* Thresholds below a second are shown as given (Go durations). */
	o.pending_threshold = 1e-9;
	r = run(dra_doctor_pending_claims, y, &o);
	assert_string_equal(r->checks[0].detail,
	    "1 claim pending for 1ns or more: team-a/waits");
	dra_doctor_report_free(r);
	o.pending_threshold = 0.5;
	r = run(dra_doctor_pending_claims, y, &o);
	assert_string_equal(r->checks[0].detail,
	    "1 claim pending for 500ms or more: team-a/waits");
	dra_doctor_report_free(r);
	o.pending_threshold = 90.5;
	r = run(dra_doctor_pending_claims, y, &o);
	assert_string_equal(r->checks[0].detail,
	    "1 claim pending for 1m30.5s or more: team-a/waits");
	dra_doctor_report_free(r);
	/* Without Pods read, "no pod uses it" is not said. */
	o.pending_threshold = 0;
	o.absent = DRA_DOCTOR_K_PODS;
	r = run(dra_doctor_pending_claims, y, &o);
	expect(r, DRA_DOCTOR_WARNING, "pending-claims", 1);
	assert_null(strstr(r->checks[0].findings[0].message, "no pod"));
	dra_doctor_report_free(r);
	o.absent = 0;

	free(y);
	free(c1);

	/* A class that does not exist: never, so Failed. */
	c1 = claim("team-a", "lost", "no-such-class", NULL, NULL, 0);
	y = cat(NODE("n1", ""), gpu_class, a, c1, NULL);
	o.pending_threshold = 0;
	r = run(dra_doctor_pending_claims, y, &o);
	expect(r, DRA_DOCTOR_FAILED, "pending-claims", 1);
	assert_non_null(strstr(r->checks[0].findings[0].message, "no-such-"
	    "class"));
	assert_non_null(strstr(r->checks[0].fix, "correct what the allocator "
	    "error names"));
	assert_non_null(strstr(r->checks[0].fix, "`kubectl dra why "
	    "claim/lost -n team-a`"));
	dra_doctor_report_free(r);
	free(y);
	free(a);
	free(c1);
	free(c2);
}

/* A never claim is not hidden behind allocatable ones (defect 5). */
static void
test_pending_many(void **state)
{
	struct dra_doctor_report	*r;
	struct dra_doctor_opts		 o;
	char				*y, *t, *c, name[16];
	int				 i;

	(void)state;
	memset(&o, 0, sizeof o);
	y = cat(NODE("n1", ""), gpu_class, NULL);
	t = slice("n1-gpu", "gpu.example.com", "n1", "n1", 1, 8);
	c = cat(y, t, NULL);
	free(y);
	free(t);
	y = c;
	/* Six allocatable claims, then a never one last by name. */
	for (i = 0; i < 6; i++) {
		snprintf(name, sizeof name, "a%d", i);
		c = claim_at("team-a", name, "gpu.example.com",
		    "2025-11-29T23:50:00Z", NULL);
		t = cat(y, c, NULL);
		free(y);
		free(c);
		y = t;
	}
	c = claim_at("team-a", "zz-never", "no-such-class",
	    "2025-11-29T23:50:00Z", NULL);
	t = cat(y, c, NULL);
	free(c);
	r = run(dra_doctor_pending_claims, t, &o);
	expect(r, DRA_DOCTOR_FAILED, "pending-claims", 7);
	assert_string_equal(r->checks[0].findings[0].object,
	    "resourceclaim/team-a/zz-never");
	assert_string_equal(r->checks[0].detail, "7 claims pending for 0s or "
	    "more (1 never or blocked): team-a/zz-never, team-a/a0, "
	    "team-a/a1 and 4 more");
	dra_doctor_report_free(r);
	free(t);

	/*
	 * More than DRA_DOCTOR_WHY_MAX: the oldest are explained.  An old
	 * never claim, last by name, is; a young one beyond the limit is
	 * named with its why command, and the cheap test still finds it
	 * never (its class does not exist): the verdict misses neither.
	 */
	for (i = 6; i < DRA_DOCTOR_WHY_MAX; i++) {
		snprintf(name, sizeof name, "a%d", i);
		c = claim_at("team-a", name, "gpu.example.com",
		    "2025-11-29T23:50:00Z", NULL);
		t = cat(y, c, NULL);
		free(y);
		free(c);
		y = t;
	}
	c = claim_at("team-a", "zz-old", "no-such-class",
	    "2025-11-29T23:00:00Z", NULL);
	t = claim_at("team-a", "zz-young", "no-such-class",
	    "2025-11-29T23:55:00Z", NULL);
	{
		char *all = cat(y, c, t, NULL);

		r = run(dra_doctor_pending_claims, all, &o);
		free(all);
	}
	free(c);
	free(t);
	expect(r, DRA_DOCTOR_FAILED, "pending-claims",
	    DRA_DOCTOR_WHY_MAX + 2);
	assert_string_equal(r->checks[0].findings[0].object,
	    "resourceclaim/team-a/zz-old");
	assert_non_null(strstr(r->checks[0].findings[0].message, "blocked"));
	assert_non_null(strstr(r->checks[0].detail, "(2 never or blocked)"));
	assert_non_null(strstr(r->checks[0].detail, "(the 50 oldest "
	    "explained)"));
	assert_string_equal(r->checks[0].findings[1].object,
	    "resourceclaim/team-a/zz-young");
	assert_non_null(strstr(r->checks[0].findings[1].message, "; never: "
	    "DeviceClass no-such-class does not exist; not explained (only "
	    "the 50 oldest pending claims are): `kubectl dra why "
	    "claim/zz-young -n team-a`"));
	dra_doctor_report_free(r);

	/* Beyond the limit, a request selector nothing matches: never. */
	c = claim_at("team-a", "zz-young", "gpu.example.com",
	    "2025-11-29T23:55:00Z", "device.driver == 'nobody.example.com'");
	t = claim_at("team-a", "zz-young-ok", "gpu.example.com",
	    "2025-11-29T23:55:00Z", "device.driver == 'gpu.example.com'");
	{
		char *all = cat(y, c, t, NULL);

		r = run(dra_doctor_pending_claims, all, &o);
		free(all);
	}
	free(c);
	free(t);
	expect(r, DRA_DOCTOR_FAILED, "pending-claims",
	    DRA_DOCTOR_WHY_MAX + 2);
	assert_string_equal(r->checks[0].findings[0].object,
	    "resourceclaim/team-a/zz-young");
	assert_non_null(strstr(r->checks[0].findings[0].message, "; never: "
	    "no published device matches class gpu.example.com and the "
	    "request's selectors; not explained"));
	assert_string_equal(r->checks[0].findings[DRA_DOCTOR_WHY_MAX + 1].
	    object, "resourceclaim/team-a/zz-young-ok");
	assert_null(strstr(r->checks[0].findings[DRA_DOCTOR_WHY_MAX + 1].
	    message, "never"));
	dra_doctor_report_free(r);
	free(y);
}

/*
 * The reason shown is about the claim (its request selector on the
 * node whose devices the class matches), not "the class matches none
 * of n1's devices"; the fix points at the request (defect 14).
 */
static void
test_pending_reason(void **state)
{
	struct dra_doctor_report	*r;
	struct dra_doctor_opts		 o;
	char				*y, *nic, *gpu, *c;
	const char			*m;

	(void)state;
	memset(&o, 0, sizeof o);
	nic = slice("n1-nic", "nic.example.com", "n1", "n1", 1, 2);
	gpu = slice("n2-gpu", "gpu.example.com", "n2", "n2", 1, 2);
	c = claim_at("team-b", "asr", "gpu.example.com",
	    "2025-11-29T23:50:00Z", "device.attributes['gpu.example.com']."
	    "type == 'tpu'");
	y = cat(NODE("n1", ""), NODE("n2", ""), gpu_class, nic, gpu, c, NULL);
	r = run(dra_doctor_pending_claims, y, &o);
	expect(r, DRA_DOCTOR_FAILED, "pending-claims", 1);
	m = r->checks[0].findings[0].message;
	assert_non_null(strstr(m, "reason on node n2: "));
	assert_non_null(strstr(m, "matches the request's selectors (request "
	    "selector #0 is false: device.attributes['gpu.example.com'].type "
	    "== 'tpu')"));
	assert_null(strstr(m, "node n1"));
	assert_true(strncmp(r->checks[0].fix, "correct the claim's request "
	    "selectors", 37) == 0);
	assert_null(strstr(r->checks[0].fix, "DeviceClass"));
	dra_doctor_report_free(r);
	free(y);
	free(nic);
	free(gpu);
	free(c);
}

/* Where live doctor lists Pods: namespaces of claims it names. */
static void
test_pod_namespaces(void **state)
{
	struct kube_snapshot	*s;
	struct dra_doctor_opts	 o;
	const char		*ns[4];
	char			*y, *a, *b, *c, *d;

	(void)state;
	memset(&o, 0, sizeof o);
	a = claim("team-a", "p1", "gpu.example.com", NULL, NULL, 0);
	b = claim("team-a", "p2", "gpu.example.com", NULL, NULL, 0);
	c = claim("team-b", "p3", "gpu.example.com", NULL, NULL, 0);
	d = claim("team-c", "held", "gpu.example.com", "gpu-0", "n1", 1);
	y = cat(a, b, c, d, NULL);
	s = load(y);
	assert_int_equal(dra_doctor_pod_namespaces(s, &o, ns, 4), 2);
	assert_string_equal(ns[0], "team-a");
	assert_string_equal(ns[1], "team-b");
	/* More than max: every namespace. */
	assert_int_equal(dra_doctor_pod_namespaces(s, &o, ns, 1), 2);
	/* Ten minutes old, under a 15m threshold: none. */
	o.pending_threshold = 900;
	assert_int_equal(dra_doctor_pod_namespaces(s, &o, ns, 4), 0);
	kube_snapshot_free(s);
	free(y);
	y = cat(d, NULL);
	s = load(y);
	o.pending_threshold = 0;
	assert_int_equal(dra_doctor_pod_namespaces(s, &o, ns, 4), 0);
	kube_snapshot_free(s);
	free(y);
	free(a);
	free(b);
	free(c);
	free(d);
}

static void
test_leaked_claims(void **state)
{
	struct dra_doctor_report	*r;
	char				*y, *a, *c1, *c2;

	(void)state;
	a = slice("n1-gpu", "gpu.example.com", "n1", "n1", 1, 2);
	c1 = claim("team-a", "leak", "gpu.example.com", "gpu-0", "n1", 0);
	c2 = claim("team-a", "used", "gpu.example.com", "gpu-1", "n1", 1);
	y = cat(NODE("n1", ""), gpu_class, a, c1, c2, NULL);
	r = run(dra_doctor_leaked_claims, y, NULL);
	expect(r, DRA_DOCTOR_WARNING, "leaked-claims", 1);
	assert_string_equal(r->checks[0].findings[0].object,
	    "resourceclaim/team-a/leak");
	assert_string_equal(r->checks[0].findings[0].message,
	    "allocated gpu.example.com/n1/gpu-0, reserved for no pod, "
	    "age 10m");
	dra_doctor_report_free(r);
	free(y);

	y = cat(NODE("n1", ""), gpu_class, a, c2, NULL);
	r = run(dra_doctor_leaked_claims, y, NULL);
	expect(r, DRA_DOCTOR_READY, "leaked-claims", 0);
	dra_doctor_report_free(r);
	free(y);
	free(a);
	free(c1);
	free(c2);
}

static void
test_class_selectors(void **state)
{
	struct dra_doctor_report	*r;
	char				*y, *a;

	(void)state;
	a = slice("n1-gpu", "gpu.example.com", "n1", "n1", 1, 2);
	y = cat(NODE("n1", ""), gpu_class, a, NULL);
	r = run(dra_doctor_class_selectors, y, NULL);
	expect(r, DRA_DOCTOR_READY, "class-selectors", 0);
	dra_doctor_report_free(r);
	free(y);

	y = cat(NODE("n1", ""), gpu_class, a,
	    CLASS("tpu", "device.driver == 'tpu.example.com'"), NULL);
	r = run(dra_doctor_class_selectors, y, NULL);
	expect(r, DRA_DOCTOR_WARNING, "class-selectors", 1);
	assert_string_equal(r->checks[0].findings[0].object,
	    "deviceclass/tpu");
	assert_string_equal(r->checks[0].findings[0].message,
	    "matches none of the 2 published devices");
	dra_doctor_report_free(r);
	free(y);

	/*
	 * A missing attribute errs at run time (shared case 01).  On every
	 * device, nothing matching: no pod of the class gets a device.
	 */
	y = cat(NODE("n1", ""), gpu_class, a,
	    CLASS("model", "device.attributes['gpu.example.com'].model == "
	    "'x'"), NULL);
	r = run(dra_doctor_class_selectors, y, NULL);
	expect(r, DRA_DOCTOR_FAILED, "class-selectors", 1);
	assert_non_null(strstr(r->checks[0].findings[0].message,
	    "no such key: model"));
	assert_non_null(strstr(r->checks[0].findings[0].message,
	    "no pod that asks for the class gets a device"));
	dra_doctor_report_free(r);
	free(y);

	/*
	 * Erring on the NICs only, matching the GPUs: the scheduler may
	 * still allocate where a GPU comes first (defect 4): a Warning
	 * that says when the error blocks, not "fails every pod".
	 */
	{
		char *nic = slice("n1-nic", "nic.example.com", "n1", "n1-nic",
		    1, 3);

		y = cat(NODE("n1", ""), a, nic, CLASS("typed",
		    "device.attributes['gpu.example.com'].type == 'gpu'"),
		    NULL);
		r = run(dra_doctor_class_selectors, y, NULL);
		expect(r, DRA_DOCTOR_WARNING, "class-selectors", 1);
		assert_string_equal(r->checks[0].detail, "a class whose "
		    "selector errs on some devices: typed");
		assert_non_null(strstr(r->checks[0].findings[0].message,
		    "on 3 of 5 published devices (first nic.example.com/"
		    "n1-nic/gpu-0), matching 2: a pod that asks for the "
		    "class fails, and stays pending, when on any node the "
		    "allocator reaches such a device before"));
		assert_null(strstr(r->checks[0].findings[0].message,
		    "every pod"));
		dra_doctor_report_free(r);
		free(y);
		free(nic);
	}

	/* Not a bool: refused at compile time. */
	y = cat(NODE("n1", ""), gpu_class, a,
	    CLASS("bad", "device.driver"), NULL);
	r = run(dra_doctor_class_selectors, y, NULL);
	expect(r, DRA_DOCTOR_FAILED, "class-selectors", 1);
	assert_non_null(strstr(r->checks[0].findings[0].message,
	    "selector #0 does not compile"));
	dra_doctor_report_free(r);
	free(y);
	free(a);
}

static void
test_quota_coverage(void **state)
{
	struct dra_doctor_report	*r;
	char				*y, *c1, *base;

	(void)state;
	c1 = claim("team-a", "c", "gpu.example.com", NULL, NULL, 0);
	base = cat("---\napiVersion: resource.k8s.io/v1\nkind: DeviceClass\n"
	    "metadata: {name: gpu.example.com}\n"
	    "spec: {extendedResourceName: example.com/gpu}\n", c1,
	    "---\napiVersion: resource.k8s.io/v1\n"
	    "kind: ResourceClaimTemplate\nmetadata: {name: t, namespace: "
	    "team-b}\nspec: {spec: {devices: {requests: [{name: r, "
	    "firstAvailable: [{name: a, deviceClassName: big}, {name: b, "
	    "deviceClassName: gpu.example.com}]}]}}}\n", NULL);
#define QUOTA(ns, key) \
	"---\napiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q, " \
	"namespace: " ns "}\nspec: {hard: {'" key "': '4'}}\n"

	y = cat(base, NULL);
	r = run(dra_doctor_quota_coverage, y, NULL);
	expect(r, DRA_DOCTOR_WARNING, "quota-coverage", 3);
	assert_string_equal(r->checks[0].findings[0].object,
	    "namespace/team-a");
	assert_string_equal(r->checks[0].findings[0].message,
	    "uses class gpu.example.com (claim c) and no ResourceQuota "
	    "limits it");
	assert_string_equal(r->checks[0].findings[1].message,
	    "uses class big (template t) and no ResourceQuota limits it");
	assert_string_equal(r->checks[0].detail, "namespaces use classes "
	    "without a quota for them: team-a and team-b");
	dra_doctor_report_free(r);
	free(y);

	/* Each of the three key forms covers; count/ alone does not. */
	y = cat(base, QUOTA("team-a",
	    "gpu.example.com.deviceclass.resource.k8s.io/devices"),
	    QUOTA("team-b", "requests.example.com/gpu"),
	    "---\napiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q2, "
	    "namespace: team-b}\nspec: {hard: {'requests.deviceclass."
	    "resource.kubernetes.io/big': '1'}}\n", NULL);
	r = run(dra_doctor_quota_coverage, y, NULL);
	expect(r, DRA_DOCTOR_READY, "quota-coverage", 0);
	dra_doctor_report_free(r);
	free(y);

	y = cat(base, QUOTA("team-a", "count/resourceclaims.resource.k8s.io"),
	    QUOTA("team-b", "requests.example.com/gpu"), NULL);
	r = run(dra_doctor_quota_coverage, y, NULL);
	expect(r, DRA_DOCTOR_WARNING, "quota-coverage", 2);
	assert_string_equal(r->checks[0].findings[1].object,
	    "namespace/team-b");
	assert_non_null(strstr(r->checks[0].findings[1].message, "class big"));
	dra_doctor_report_free(r);
	free(y);
	free(base);
	free(c1);
}

static void
test_utilization(void **state)
{
	struct dra_doctor_report	*r;
	char				*y, *a, *cl[20];
	char				 name[16], dev[16];
	size_t				 i;
	int				 n;

	(void)state;
	a = slice("n1-gpu", "gpu.example.com", "n1", "n1", 1, 20);
	for (i = 0; i < 20; i++) {
		snprintf(name, sizeof name, "c%zu", i);
		snprintf(dev, sizeof dev, "gpu-%zu", i);
		cl[i] = claim("team-a", name, "gpu.example.com", dev, "n1", 1);
	}
	/* 20 of 20: above the ceiling. */
	y = cat(NODE("n1", ""), gpu_class, a, NULL);
	for (n = 0; n < 20; n++) {
		char *t = cat(y, cl[n], NULL);

		free(y);
		y = t;
	}
	r = run(dra_doctor_utilization, y, NULL);
	expect(r, DRA_DOCTOR_FAILED, "utilization", 1);
	assert_string_equal(r->checks[0].findings[0].message,
	    "20 of 20 devices in use (100%), above the 95% ceiling");
	assert_string_equal(r->checks[0].detail,
	    "above the 95% ceiling: gpu.example.com");
	dra_doctor_report_free(r);
	free(y);

	/* 19 of 20: 95%, at the ceiling, allowed: Ready, the class named. */
	y = cat(NODE("n1", ""), gpu_class, a, NULL);
	for (n = 0; n < 19; n++) {
		char *t = cat(y, cl[n], NULL);

		free(y);
		y = t;
	}
	r = run(dra_doctor_utilization, y, NULL);
	expect(r, DRA_DOCTOR_READY, "utilization", 1);
	assert_string_equal(r->checks[0].findings[0].message,
	    "19 of 20 devices in use (95%), at or above the 80% target");
	assert_string_equal(r->checks[0].detail, "within the 95% ceiling; at "
	    "or above the 80% target: gpu.example.com");
	dra_doctor_report_free(r);
	free(y);

	/* 15 of 20: 75%, under the target. */
	y = cat(NODE("n1", ""), gpu_class, a, NULL);
	for (n = 0; n < 15; n++) {
		char *t = cat(y, cl[n], NULL);

		free(y);
		y = t;
	}
	r = run(dra_doctor_utilization, y, NULL);
	expect(r, DRA_DOCTOR_READY, "utilization", 0);
	dra_doctor_report_free(r);
	free(y);

	y = cat(NODE("n1", ""), gpu_class, a, cl[0], NULL);
	r = run(dra_doctor_utilization, y, NULL);
	expect(r, DRA_DOCTOR_READY, "utilization", 0);
	assert_string_equal(r->checks[0].detail, "every class under the 80% "
	    "target (highest: gpu.example.com, 1 of 20, 5%)");
	dra_doctor_report_free(r);
	free(y);
	for (i = 0; i < 20; i++)
		free(cl[i]);
	free(a);

	/*
	 * 191 of 200, 95.5%: above the ceiling, and never printed as
	 * "95%" (defect 15): top's text (dra_top_percent).
	 */
	a = slice("n1-gpu", "gpu.example.com", "n1", "n1", 1, 200);
	y = cat(NODE("n1", ""), gpu_class, a, NULL);
	for (n = 0; n < 191; n++) {
		char *c, *t;

		snprintf(name, sizeof name, "c%d", n);
		snprintf(dev, sizeof dev, "gpu-%d", n);
		c = claim("team-a", name, "gpu.example.com", dev, "n1", 1);
		t = cat(y, c, NULL);
		free(c);
		free(y);
		y = t;
	}
	r = run(dra_doctor_utilization, y, NULL);
	expect(r, DRA_DOCTOR_FAILED, "utilization", 1);
	assert_string_equal(r->checks[0].findings[0].message,
	    "191 of 200 devices in use (95.5%), above the 95% ceiling");
	dra_doctor_report_free(r);
	free(y);
	free(a);
}

/*
 * doctor's utilization is top's DEVICES figure for the class: in use
 * (allocated, or blocked by a MIG sibling's counters) of its usable
 * devices, with top's text (defect 7).
 */
static void
test_utilization_top(void **state)
{
	struct dra_doctor_report	*r;
	struct kube_snapshot		*s;
	struct dra_top			*t;
	struct dra_err			 err;
	const char			*y;
	char				 pct[32], want[128];
	size_t				 i;

	(void)state;
	/* A GPU cut into two MIG halves on one counter; one allocated. */
	y = NODE("n1", "")
	    CLASS("mig", "device.driver == 'gpu.example.com'")
	    "---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\n"
	    "metadata: {name: n1-mig}\nspec:\n  driver: gpu.example.com\n"
	    "  nodeName: n1\n"
	    "  pool: {name: n1, generation: 1, resourceSliceCount: 1}\n"
	    "  sharedCounters:\n"
	    "  - {name: gpu-0-cs, counters: {slices: {value: '2'}}}\n"
	    "  devices:\n"
	    "  - {name: whole, consumesCounters: [{counterSet: gpu-0-cs, "
	    "counters: {slices: {value: '2'}}}]}\n"
	    "  - {name: half-0, consumesCounters: [{counterSet: gpu-0-cs, "
	    "counters: {slices: {value: '1'}}}]}\n"
	    "  - {name: half-1, consumesCounters: [{counterSet: gpu-0-cs, "
	    "counters: {slices: {value: '1'}}}]}\n"
	    "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n"
	    "metadata: {name: c, namespace: a, uid: u-c}\n"
	    "spec: {devices: {requests: [{name: r, exactly: "
	    "{deviceClassName: mig}}]}}\n"
	    "status:\n  allocation:\n    devices:\n      results: "
	    "[{request: r, driver: gpu.example.com, pool: n1, device: "
	    "half-0}]\n  reservedFor: [{resource: pods, name: p, uid: u}]\n";
	s = load(y);
	dra_err_clear(&err);
	t = dra_top_build(s, DRA_TOP_CLASSES, NULL, &err);
	assert_non_null(t);
	for (i = 0; i < t->nrows; i++)
		if (strcmp(t->rows[i].name, "mig") == 0)
			break;
	assert_true(i < t->nrows);
	/* half-0 allocated, whole blocked: 2 of 3 in use. */
	assert_int_equal(t->rows[i].in_use, 2);
	dra_top_percent(t->rows[i].in_use, t->rows[i].devices -
	    t->rows[i].unusable, pct, sizeof pct);
	snprintf(want, sizeof want, "every class under the 80%% target "
	    "(highest: mig, 2 of 3, %s)", pct);
	r = dra_doctor_report_new();
	dra_doctor_utilization(r, s, NULL);
	assert_string_equal(r->checks[0].detail, want);
	assert_string_equal(pct, "66%");
	dra_doctor_report_free(r);
	dra_top_free(t);
	kube_snapshot_free(s);
}

static void
test_taint_rules(void **state)
{
	struct dra_doctor_report	*r;
	struct dra_doctor_opts		 o;
	char				*y, *a;

	(void)state;
	a = slice("n1-gpu", "gpu.example.com", "n1", "n1", 1, 3);
#define RULE(n, effect) \
	"---\napiVersion: resource.k8s.io/v1\nkind: DeviceTaintRule\n" \
	"metadata: {name: " n "}\nspec: {deviceSelector: {driver: " \
	"gpu.example.com, pool: n1}, taint: {key: maint, value: 'yes', " \
	"effect: " effect "}}\n"

	y = cat(NODE("n1", ""), a, RULE("drain", "NoSchedule"), NULL);
	r = run(dra_doctor_taint_rules, y, NULL);
	expect(r, DRA_DOCTOR_WARNING, "taint-rules", 1);
	assert_string_equal(r->checks[0].findings[0].object,
	    "devicetaintrule/drain");
	assert_string_equal(r->checks[0].findings[0].message,
	    "maint=yes:NoSchedule taints 3 devices (first "
	    "gpu.example.com/n1/gpu-0)");
	dra_doctor_report_free(r);
	free(y);

	y = cat(NODE("n1", ""), a, RULE("dry", "None"), NULL);
	r = run(dra_doctor_taint_rules, y, NULL);
	expect(r, DRA_DOCTOR_READY, "taint-rules", 0);
	assert_string_equal(r->checks[0].detail, "no rule keeps pods off "
	    "devices; effect None (dry run): dry");
	dra_doctor_report_free(r);

	memset(&o, 0, sizeof o);
	o.taint_rules_unserved = 1;
	r = run(dra_doctor_taint_rules, y, &o);
	expect(r, DRA_DOCTOR_READY, "taint-rules", 0);
	dra_doctor_report_free(r);
	free(y);
	free(a);
}

static void
test_permissions(void **state)
{
	struct dra_doctor_report	*r;
	struct dra_doctor_opts		 o;
	char				*y, *c1;

	(void)state;
	c1 = claim("team-a", "leak", "gpu.example.com", "gpu-0", "n1", 0);
	y = cat(c1, NULL);
	memset(&o, 0, sizeof o);
	o.unread = DRA_DOCTOR_K_SLICES | DRA_DOCTOR_K_NODES;
	r = run(dra_doctor_pools, y, &o);
	expect(r, DRA_DOCTOR_WARNING, "pools", 0);
	assert_string_equal(r->checks[0].detail,
	    "cannot read resourceslices: forbidden");
	dra_doctor_report_free(r);

	/* Claims of team-a only: the finding, and what was not seen. */
	o.unread = 0;
	o.partial = DRA_DOCTOR_K_CLAIMS;
	o.partial_ns = "team-a";
	r = run(dra_doctor_leaked_claims, y, &o);
	expect(r, DRA_DOCTOR_WARNING, "leaked-claims", 1);
	assert_non_null(strstr(r->checks[0].detail, "namespace team-a only: "
	    "cannot read resourceclaims outside it (forbidden)"));
	dra_doctor_report_free(r);

	o.skip = "resource.k8s.io cannot be read";
	r = run(dra_doctor_leaked_claims, y, &o);
	expect(r, DRA_DOCTOR_SKIPPED, "leaked-claims", 0);
	dra_doctor_report_free(r);
	free(y);
	free(c1);
}

static void
test_live(void **state)
{
	struct dra_doctor_report	*r = dra_doctor_report_new();

	(void)state;
	dra_doctor_server(r, "v1.37.2", 1, 37);
	dra_doctor_server(r, "v1.33.1", 1, 33);
	dra_doctor_server(r, "v1.30.0", 1, 30);
	dra_doctor_server(r, "v1.38.0", 1, 38);
	dra_doctor_api(r, "v1,v1beta2", "v1");
	dra_doctor_api(r, "v1beta1", "v1beta1");
	dra_doctor_api(r, "", NULL);
	assert_int_equal(r->nchecks, 7);
	assert_int_equal(r->checks[0].verdict, DRA_DOCTOR_READY);
	assert_int_equal(r->checks[1].verdict, DRA_DOCTOR_WARNING);
	assert_int_equal(r->checks[2].verdict, DRA_DOCTOR_FAILED);
	assert_int_equal(r->checks[3].verdict, DRA_DOCTOR_READY);
	assert_non_null(strstr(r->checks[3].detail, "newer than"));
	assert_int_equal(r->checks[4].verdict, DRA_DOCTOR_READY);
	assert_string_equal(r->checks[4].detail,
	    "resource.k8s.io v1, v1beta2 served; reading v1");
	assert_int_equal(r->checks[5].verdict, DRA_DOCTOR_WARNING);
	assert_int_equal(r->checks[6].verdict, DRA_DOCTOR_FAILED);
	dra_doctor_report_free(r);
}

static void
test_probes(void **state)
{
	struct dra_doctor_probe_result	 res[16];
	struct dra_doctor_report	*r;
	const struct dra_doctor_probe	*p;
	cJSON				*sent, *dropped;
	size_t				 i;

	(void)state;
	assert_true(dra_doctor_nprobes >= 6 && dra_doctor_nprobes <= 16);
	for (i = 0; i < dra_doctor_nprobes; i++) {
		p = &dra_doctor_probes[i];
		/* What is sent keeps the field; the body is valid JSON. */
		sent = cJSON_Parse(p->body);
		assert_non_null(sent);
		assert_int_equal(dra_doctor_probe_kept(p, sent), 1);
		cJSON_Delete(sent);
	}
	/* The answer of a server with DRAConsumableCapacity off. */
	p = &dra_doctor_probes[2];
	assert_string_equal(p->gate, "DRAConsumableCapacity");
	dropped = cJSON_Parse("{\"kind\":\"ResourceClaim\",\"spec\":"
	    "{\"devices\":{\"requests\":[{\"name\":\"r\",\"exactly\":"
	    "{\"deviceClassName\":\"x\",\"allocationMode\":\"ExactCount\","
	    "\"count\":1}}]}}}");
	assert_int_equal(dra_doctor_probe_kept(p, dropped), 0);
	assert_int_equal(dra_doctor_probe_kept(p, NULL), 0);
	cJSON_Delete(dropped);

	for (i = 0; i < dra_doctor_nprobes; i++) {
		res[i].probe = &dra_doctor_probes[i];
		res[i].state = DRA_DOCTOR_PROBE_ON;
		res[i].message = NULL;
	}
	r = dra_doctor_report_new();
	dra_doctor_features(r, res, dra_doctor_nprobes, 1);
	res[2].state = DRA_DOCTOR_PROBE_OFF;
	dra_doctor_features(r, res, dra_doctor_nprobes, 1);
	res[2].state = DRA_DOCTOR_PROBE_FORBIDDEN;
	dra_doctor_features(r, res, dra_doctor_nprobes, 0);
	assert_int_equal(r->checks[0].verdict, DRA_DOCTOR_READY);
	assert_non_null(strstr(r->checks[0].detail, "DRADeviceTaintRules"));
	assert_int_equal(r->checks[1].verdict, DRA_DOCTOR_WARNING);
	assert_int_equal(r->checks[1].nfindings, 1);
	assert_string_equal(r->checks[1].findings[0].object,
	    "gate/DRAConsumableCapacity");
	assert_string_equal(r->checks[1].findings[0].message, "off: the API "
	    "server dropped spec.devices.requests[0].exactly.capacity."
	    "requests from a dry-run create of resourceclaims");
	assert_string_equal(r->checks[1].detail, "off: DRAConsumableCapacity; "
	    "on: DRAPrioritizedList, DRADeviceTaints, "
	    "DRAPartitionableDevices, DRADeviceBindingConditions, "
	    "DRAExtendedResource, DRADeviceTaintRules");
	/* Forbidden is never fatal; a gate off still says off. */
	assert_int_equal(r->checks[2].verdict, DRA_DOCTOR_WARNING);
	assert_int_equal(r->checks[2].nfindings, 2);
	assert_string_equal(r->checks[2].findings[1].message,
	    "cannot probe: forbidden to create resourceclaims (a dry run)");
	dra_doctor_report_free(r);
}

static void
test_text_json(void **state)
{
	struct dra_doctor_report	*r;
	struct kube_snapshot		*s;
	char				*y, *text, *line, *save, *a, *c1;
	char				 overall[64];
	cJSON				*doc, *checks, *c;
	size_t				 nf, nw;

	(void)state;
	a = slice("n1-gpu", "gpu.nvidia.com", "n1", "n1", 2, 2);
	c1 = claim("team-a", "leak", "gpu.example.com", "gpu-0", "n1", 0);
	y = cat(NODE("n1", ", nvidia.com/gpu: '2'"), gpu_class, a, c1, NULL);
	s = load(y);
	r = dra_doctor_report_new();
	dra_doctor_skip(r, "server-version", "live only (--from)");
	dra_doctor_snapshot(r, s, NULL);
	assert_int_equal(r->nchecks, 10);
	assert_int_equal(dra_doctor_ready(r, &nf, &nw), 0);
	/*
	 * Failed: device-plugin.  Warning: pools (1 of 2 slices),
	 * leaked-claims, class-selectors (gpu.example.com matches none of
	 * the gpu.nvidia.com devices), quota-coverage.
	 */
	assert_int_equal(nf, 1);
	assert_int_equal(nw, 4);
	assert_string_equal(dra_doctor_overall(r, overall, sizeof overall),
	    "Not ready: 1 failed, 4 warnings");
	text = dra_doctor_text(r, 80, 0);
	assert_non_null(strstr(text, "CHECK             VERDICT   DETAIL\n"));
	assert_non_null(strstr(text, "\nserver-version    Skipped   live only "
	    "(--from)\n"));
	assert_non_null(strstr(text, "\ndevice-plugin     Failed    "));
	assert_non_null(strstr(text, "Fix: run one of them per node"));
	assert_non_null(strstr(text, "\n\nNot ready: 1 failed, 4 warnings\n"));
	assert_null(strstr(text, "\033["));
	for (line = text; (save = strchr(line, '\n')) != NULL;
	    line = save + 1)
		if (save - line > 80)
			fail_msg("line longer than 80: %.*s", (int)(save - line),
			    line);
	free(text);
	text = dra_doctor_text(r, 80, 1);
	assert_non_null(strstr(text, "\033[31mFailed\033[0m    "));
	free(text);

	doc = dra_doctor_json(r);
	assert_string_equal(cJSON_GetObjectItem(doc, "kind")->valuestring,
	    "DoctorReport");
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(doc, "ready")));
	assert_int_equal(cJSON_GetObjectItem(doc, "failed")->valueint, 1);
	checks = cJSON_GetObjectItem(doc, "checks");
	assert_int_equal(cJSON_GetArraySize(checks), 10);
	c = cJSON_GetArrayItem(checks, 1);
	assert_string_equal(cJSON_GetObjectItem(c, "name")->valuestring,
	    "device-plugin");
	assert_string_equal(cJSON_GetObjectItem(c, "verdict")->valuestring,
	    "Failed");
	assert_string_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(c,
	    "objects"), 0)->valuestring, "node/n1");
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetArrayItem(
	    checks, 0), "fix")));
	cJSON_Delete(doc);
	dra_doctor_report_free(r);
	kube_snapshot_free(s);
	free(y);
	free(a);
	free(c1);

	/*
	 * 80 columns (defect 16): a command is never split and loses its
	 * backticks; a 200-character name never leaves a lone "-".
	 */
	{
		struct dra_doctor_check	*ck;
		char			 longname[220], *p;

		memset(longname, 'x', 200);
		memcpy(longname, "node/", 5);
		longname[200] = '\0';
		r = dra_doctor_report_new();
		ck = dra_doctor_add(r, "device-plugin", DRA_DOCTOR_FAILED,
		    "nodes: %s", longname + 5);
		dra_doctor_find(ck, longname, "status.allocatable "
		    "nvidia.com/gpu=2");
		dra_doctor_fix(ck, "run one of them per node: disable the "
		    "device plugin there, or stop the DRA driver's kubelet "
		    "plugin on it; with the GPU Operator `kubectl label node "
		    "gpu-node-17 nvidia.com/gpu.deploy.device-plugin=false` "
		    "and so on");
		text = dra_doctor_text(r, 80, 0);
		assert_null(strchr(text, '`'));
		/* The command whole on one line, within 80 columns. */
		p = strstr(text, "kubectl label node gpu-node-17 "
		    "nvidia.com/gpu.deploy.device-plugin=false\n");
		assert_non_null(p);
		while (p > text && p[-1] != '\n')
			p--;
		assert_true(strchr(p, '\n') - p <= 80);
		assert_non_null(strstr(text, "- node/xxx"));
		for (line = text; (save = strchr(line, '\n')) != NULL;
		    line = save + 1) {
			p = line + strspn(line, " ");
			if (save - p == 1 && *p == '-')
				fail_msg("a lone dash:\n%s", text);
		}
		free(text);
		dra_doctor_report_free(r);
	}

	/* A clean cluster. */
	r = dra_doctor_report_new();
	dra_doctor_skip(r, "server-version", "live only (--from)");
	assert_string_equal(dra_doctor_overall(r, overall, sizeof overall),
	    "Ready (1 check skipped)");
	assert_int_equal(dra_doctor_ready(r, NULL, NULL), 1);
	dra_doctor_report_free(r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_device_plugin),
		cmocka_unit_test(test_pools),
		cmocka_unit_test(test_orphan_slices),
		cmocka_unit_test(test_pending_claims),
		cmocka_unit_test(test_pending_many),
		cmocka_unit_test(test_pending_reason),
		cmocka_unit_test(test_pod_namespaces),
		cmocka_unit_test(test_leaked_claims),
		cmocka_unit_test(test_class_selectors),
		cmocka_unit_test(test_quota_coverage),
		cmocka_unit_test(test_utilization),
		cmocka_unit_test(test_utilization_top),
		cmocka_unit_test(test_taint_rules),
		cmocka_unit_test(test_permissions),
		cmocka_unit_test(test_live),
		cmocka_unit_test(test_probes),
		cmocka_unit_test(test_text_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
