/*
 * test_alloc.c: the structured allocator (kube/dra/alloc.h).
 *
 * Every shared case is run the way tests/oracle ran it on kube-scheduler
 * 1.37.2: each claim (or template) alone, as a pod that uses only it,
 * on each node in name order (or on the node its pod is pinned to);
 * the first node that fits wins, and an allocator error on any node
 * fails the pod.  The outcome must equal tests/oracle/records/<case>.json
 * (allocatable, node, devices in order, and the error text).
 *
 * Then one test per mechanism, on small inline snapshots without
 * selectors, asserting the exact devices.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cjson/cJSON.h>

#include "alloc.h"
#include "dratest.h"
#include "model.h"
#include "snapshot.h"
#include "xmalloc.h"

static struct dra_allocator *
new_alloc(const struct kube_snapshot *s, const struct dra_alloc_opts *o)
{
	struct dra_allocator	*a;
	struct dra_err		 err;

	if (dra_allocator_new(s, o, &a, &err) != KUBE_OK)
		fail_msg("allocator: %s", err.msg);
	return a;
}

/* Allocate claim ns/name alone on node; res filled. */
static void
alloc_claim(struct dra_allocator *a, const struct kube_snapshot *s,
    const char *ns, const char *name, const char *node,
    struct dra_alloc_result *res)
{
	struct kube_claim	*c = kube_snapshot_claim(s, ns, name);
	struct dra_claim_ref	 ref;
	struct dra_err		 err;

	if (c == NULL)
		fail_msg("no claim %s/%s", ns, name);
	ref.namespace = ns;
	ref.name = name;
	ref.spec = &c->spec;
	assert_int_equal(dra_allocate(a, node, kube_snapshot_node(s, node),
	    &ref, 1, res, &err), KUBE_OK);
}

/* "driver/pool/device,..." of res's picks. */
static const char *
picks(const struct dra_alloc_result *res)
{
	static char	buf[4096];
	size_t		i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < res->npicks; i++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s/%s/%s",
		    i ? "," : "", res->picks[i].device->slice->driver,
		    res->picks[i].device->slice->pool_name,
		    res->picks[i].device->name);
	return buf;
}

/* ------------------------------------------------------------------ */
/* The shared cases against the oracle records.                        */

static const struct kube_claim_spec *
find_spec(const struct kube_snapshot *s, const char *kind, const char *ns,
    const char *name)
{
	struct kube_claim	*c;
	size_t			 i;

	if (strcmp(kind, "ResourceClaim") == 0) {
		c = kube_snapshot_claim(s, ns, name);
		return c != NULL && c->rejected == NULL ? &c->spec : NULL;
	}
	for (i = 0; i < s->templates.n; i++) {
		if (strcmp(s->templates.v[i]->meta.namespace, ns) == 0 &&
		    strcmp(s->templates.v[i]->meta.name, name) == 0 &&
		    s->templates.v[i]->rejected == NULL)
			return &s->templates.v[i]->spec;
	}
	return NULL;
}

static int
cmp_strp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Nodes: Node objects, else the nodes slices name, in name order. */
static size_t
case_nodes(const struct kube_snapshot *s, const char **out, size_t max)
{
	size_t	i, j, n = 0;

	for (i = 0; i < s->nodes.n && n < max; i++)
		out[n++] = s->nodes.v[i]->meta.name;
	if (n > 0)
		return n;
	for (i = 0; i < s->slices.n && n < max; i++) {
		const char *name = s->slices.v[i]->node_name;

		if (name == NULL)
			continue;
		for (j = 0; j < n && strcmp(out[j], name) != 0; j++)
			;
		if (j == n)
			out[n++] = name;
	}
	qsort(out, n, sizeof *out, cmp_strp);
	return n;
}

static int	case_failures;

static void
check_case(const char *name)
{
	char			 path[1024], got[4096], want[4096];
	char			*json;
	cJSON			*rec, *cl, *dev;
	struct kube_snapshot	*s;
	struct dra_allocator	*a;
	struct dra_err		 err;
	const char		*nodes[64], *pinned, *kind, *ns, *cname;
	const char		*fit_node;
	size_t			 nnodes, i;
	int			 allocatable, blocked, want_alloc;
	char			*fit, *errmsg;

	snprintf(path, sizeof path, "%s/%s.json", RECORDS_DIR, name);
	if ((json = dratest_slurp(path)) == NULL)
		return;
	rec = cJSON_Parse(json);
	free(json);
	assert_non_null(rec);
	s = dratest_load_case(name);
	a = new_alloc(s, NULL);
	nnodes = case_nodes(s, nodes, 64);

	cJSON_ArrayForEach(cl, cJSON_GetObjectItem(rec, "claims")) {
		const struct kube_claim_spec	*spec;
		struct dra_claim_ref		 ref;
		struct dra_alloc_result		 res;
		cJSON				*pin;

		if (strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(cl,
		    "origin")), "scheduler") != 0)
			continue;
		kind = cJSON_GetStringValue(cJSON_GetObjectItem(cl, "kind"));
		ns = cJSON_GetStringValue(cJSON_GetObjectItem(cl,
		    "namespace"));
		cname = cJSON_GetStringValue(cJSON_GetObjectItem(cl, "name"));
		pin = cJSON_GetObjectItem(cl, "pinned");
		pinned = cJSON_IsString(pin) ? pin->valuestring : NULL;
		spec = find_spec(s, kind, ns, cname);
		if (spec == NULL)
			fail_msg("%s: no %s %s/%s", name, kind, ns, cname);
		ref.namespace = ns;
		ref.name = cname;
		ref.spec = spec;
		fit = NULL;
		fit_node = NULL;
		errmsg = NULL;
		blocked = 0;
		for (i = 0; i < nnodes; i++) {
			if (pinned != NULL && strcmp(nodes[i], pinned) != 0)
				continue;
			assert_int_equal(dra_allocate(a, nodes[i],
			    kube_snapshot_node(s, nodes[i]), &ref, 1, &res,
			    &err), KUBE_OK);
			if (res.status == DRA_ALLOC_UNKNOWN)
				fail_msg("%s: %s/%s on %s: unknown: %s", name,
				    ns, cname, nodes[i], res.message);
			if (res.status == DRA_ALLOC_ERROR &&
			    res.blocks_everywhere && !blocked) {
				blocked = 1;
				errmsg = xstrdup(res.message);
			}
			if (res.status == DRA_ALLOC_OK && fit == NULL) {
				fit = xstrdup(picks(&res));
				fit_node = nodes[i];
			}
			dra_alloc_result_free(&res);
		}
		allocatable = !blocked && fit != NULL;
		want_alloc = cJSON_IsTrue(cJSON_GetObjectItem(cl,
		    "allocatable"));
		want[0] = '\0';
		i = 0;
		cJSON_ArrayForEach(dev, cJSON_GetObjectItem(cl, "devices"))
			i += (size_t)snprintf(want + i, sizeof want - i,
			    "%s%s", i ? "," : "", dev->valuestring);
		snprintf(got, sizeof got, "%s", allocatable && fit ? fit : "");
		print_message("%s: %s/%s%s%s: %s [%s] on %s%s%s\n", name, ns,
		    cname, pinned ? " pinned to " : "", pinned ? pinned : "",
		    allocatable ? "allocatable" : "not allocatable", got,
		    allocatable ? fit_node : "-", errmsg ? ": " : "",
		    errmsg ? errmsg : "");
		if (allocatable != want_alloc || strcmp(got, want) != 0) {
			print_error("%s: %s/%s: want %s [%s], got %s [%s]\n",
			    name, ns, cname, want_alloc ? "allocatable" :
			    "not allocatable", want, allocatable ?
			    "allocatable" : "not allocatable", got);
			case_failures++;
		}
		if (allocatable && want_alloc && strcmp(fit_node,
		    cJSON_GetStringValue(cJSON_GetObjectItem(cl, "node"))) !=
		    0) {
			print_error("%s: %s/%s: node %s, want %s\n", name, ns,
			    cname, fit_node, cJSON_GetStringValue(
			    cJSON_GetObjectItem(cl, "node")));
			case_failures++;
		}
		/* A SchedulerError is the allocator's error, verbatim. */
		if (strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(cl,
		    "reason")) ? cJSON_GetStringValue(cJSON_GetObjectItem(cl,
		    "reason")) : "", "SchedulerError") == 0) {
			char full[2048];

			snprintf(full, sizeof full, "running \"DynamicResources"
			    "\" filter plugin: %s", errmsg ? errmsg : "");
			if (strcmp(full, cJSON_GetStringValue(
			    cJSON_GetObjectItem(cl, "message"))) != 0) {
				print_error("%s: %s/%s: error\n  got  %s\n  "
				    "want %s\n", name, ns, cname, full,
				    cJSON_GetStringValue(cJSON_GetObjectItem(cl,
				    "message")));
				case_failures++;
			}
		} else if (errmsg != NULL) {
			print_error("%s: %s/%s: unexpected error %s\n", name,
			    ns, cname, errmsg);
			case_failures++;
		}
		free(fit);
		free(errmsg);
	}
	dra_allocator_free(a);
	kube_snapshot_free(s);
	cJSON_Delete(rec);
}

static void
test_cases_match_records(void **state)
{
	DIR		*d;
	struct dirent	*e;
	char		*names[128];
	size_t		 n = 0, i;

	(void)state;
	d = opendir(CASES_DIR);
	assert_non_null(d);
	while ((e = readdir(d)) != NULL && n < 128) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof *names, cmp_strp);
	assert_true(n >= 14);
	case_failures = 0;
	for (i = 0; i < n; i++) {
		check_case(names[i]);
		free(names[i]);
	}
	assert_int_equal(case_failures, 0);
}

/* ------------------------------------------------------------------ */
/* Mechanisms, on inline snapshots without selectors.                  */

#define CLASS								\
	"apiVersion: resource.k8s.io/v1\n"				\
	"kind: DeviceClass\n"						\
	"metadata: {name: any}\n"					\
	"spec: {}\n"							\
	"---\n"

#define NODE(n)								\
	"apiVersion: v1\nkind: Node\nmetadata: {name: " n "}\n---\n"

/* Backtracking over matchAttribute; the per-request start position. */
static void
test_backtracking(void **state)
{
	struct kube_snapshot	*s;
	struct dra_allocator	*a;
	struct dra_alloc_result	 res;

	(void)state;
	s = dratest_load(CLASS NODE("n1")
	    "apiVersion: resource.k8s.io/v1\n"
	    "kind: ResourceSlice\n"
	    "metadata: {name: n1-dev}\n"
	    "spec:\n"
	    "  driver: dev.example.com\n"
	    "  nodeName: n1\n"
	    "  pool: {name: n1, generation: 1, resourceSliceCount: 1}\n"
	    "  devices:\n"
	    "  - {name: gpu-0, attributes: {root: {string: a}}}\n"
	    "  - {name: gpu-1, attributes: {root: {string: b}}}\n"
	    "  - {name: nic-0, attributes: {root: {string: b}}}\n"
	    "  - {name: nic-1, attributes: {root: {string: c}}}\n"
	    "  - {name: x-0, attributes: {root: {string: c}}}\n"
	    "---\n"
	    "apiVersion: resource.k8s.io/v1\n"
	    "kind: ResourceClaim\n"
	    "metadata: {name: pair, namespace: ns}\n"
	    "spec:\n"
	    "  devices:\n"
	    "    requests:\n"
	    "    - {name: gpu, exactly: {deviceClassName: any}}\n"
	    "    - {name: nic, exactly: {deviceClassName: any}}\n"
	    "    constraints:\n"
	    "    - {matchAttribute: dev.example.com/root}\n"
	    "---\n"
	    "apiVersion: resource.k8s.io/v1\n"
	    "kind: ResourceClaim\n"
	    "metadata: {name: three, namespace: ns}\n"
	    "spec:\n"
	    "  devices:\n"
	    "    requests:\n"
	    "    - {name: g, exactly: {deviceClassName: any, count: 2}}\n"
	    "    - {name: h, exactly: {deviceClassName: any}}\n"
	    "    constraints:\n"
	    "    - {requests: [g], distinctAttribute: dev.example.com/root}\n"
	    "    - {requests: [h], matchAttribute: dev.example.com/root}\n"
	    "---\n"
	    "apiVersion: resource.k8s.io/v1\n"
	    "kind: ResourceClaim\n"
	    "metadata: {name: same, namespace: ns}\n"
	    "spec:\n"
	    "  devices:\n"
	    "    requests:\n"
	    "    - {name: g, exactly: {deviceClassName: any, count: 3}}\n"
	    "    constraints:\n"
	    "    - {matchAttribute: dev.example.com/root}\n");
	a = new_alloc(s, NULL);
	/* gpu-0 (a) has no partner: back to gpu-1, then nic-0 (b). */
	alloc_claim(a, s, "ns", "pair", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_OK);
	assert_string_equal(picks(&res),
	    "dev.example.com/n1/gpu-1,dev.example.com/n1/nic-0");
	dra_alloc_result_free(&res);
	/* g: two distinct roots in slice order; h: anything after. */
	alloc_claim(a, s, "ns", "three", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_OK);
	assert_string_equal(picks(&res), "dev.example.com/n1/gpu-0,"
	    "dev.example.com/n1/gpu-1,dev.example.com/n1/nic-0");
	assert_string_equal(res.picks[2].request, "h");
	dra_alloc_result_free(&res);
	/* No root has three devices. */
	alloc_claim(a, s, "ns", "same", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_NO_FIT);
	dra_alloc_result_free(&res);
	dra_allocator_free(a);
	kube_snapshot_free(s);
}

/* matchAttribute that forces backtracking past the first device. */
static void
test_backtracking_constraint(void **state)
{
	struct kube_snapshot	*s;
	struct dra_allocator	*a;
	struct dra_alloc_result	 res;
	struct dra_alloc_opts	 o = { DRA_FEATURES_1_37, 0, 1 };

	(void)state;
	s = dratest_load(CLASS NODE("n1")
	    "apiVersion: resource.k8s.io/v1\n"
	    "kind: ResourceSlice\n"
	    "metadata: {name: n1-dev}\n"
	    "spec:\n"
	    "  driver: dev.example.com\n"
	    "  nodeName: n1\n"
	    "  pool: {name: n1, generation: 1, resourceSliceCount: 1}\n"
	    "  devices:\n"
	    "  - {name: gpu-0, attributes: {root: {string: a}}}\n"
	    "  - {name: gpu-1, attributes: {root: {string: b}}}\n"
	    "  - {name: nic-0, attributes: {root: {string: b}}}\n"
	    "---\n"
	    "apiVersion: resource.k8s.io/v1\n"
	    "kind: ResourceClaim\n"
	    "metadata: {name: pair, namespace: ns}\n"
	    "spec:\n"
	    "  devices:\n"
	    "    requests:\n"
	    "    - {name: gpu, exactly: {deviceClassName: any}}\n"
	    "    - {name: nic, exactly: {deviceClassName: any}}\n"
	    "    constraints:\n"
	    "    - {matchAttribute: dev.example.com/root}\n");
	a = new_alloc(s, &o);
	alloc_claim(a, s, "ns", "pair", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_OK);
	assert_string_equal(picks(&res),
	    "dev.example.com/n1/gpu-1,dev.example.com/n1/nic-0");
	/* gpu-0, then gpu-1, nic-0 for nic after gpu-0 fails: 3 + 2 + 1. */
	assert_true(res.steps >= 5);
	dra_alloc_result_free(&res);
	dra_allocator_free(a);
	kube_snapshot_free(s);
}

/* A shared counter set: what a device on another node holds counts. */
static const char counters_yaml[] = CLASS NODE("n1") NODE("n2")
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceSlice\n"
    "metadata: {name: p-counters}\n"
    "spec:\n"
    "  driver: dev.example.com\n"
    "  allNodes: true\n"
    "  pool: {name: p, generation: 1, resourceSliceCount: 3}\n"
    "  sharedCounters:\n"
    "  - name: cs\n"
    "    counters: {mem: {value: 8Gi}}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceSlice\n"
    "metadata: {name: p-n1}\n"
    "spec:\n"
    "  driver: dev.example.com\n"
    "  nodeName: n1\n"
    "  pool: {name: p, generation: 1, resourceSliceCount: 3}\n"
    "  devices:\n"
    "  - name: dev-a\n"
    "    consumesCounters:\n"
    "    - {counterSet: cs, counters: {mem: {value: 6Gi}}}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceSlice\n"
    "metadata: {name: p-n2}\n"
    "spec:\n"
    "  driver: dev.example.com\n"
    "  nodeName: n2\n"
    "  pool: {name: p, generation: 1, resourceSliceCount: 3}\n"
    "  devices:\n"
    "  - name: dev-b\n"
    "    consumesCounters:\n"
    "    - {counterSet: cs, counters: {mem: {value: 6Gi}}}\n"
    "  - name: dev-c\n"
    "    consumesCounters:\n"
    "    - {counterSet: cs, counters: {mem: {value: 2Gi}}}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: held, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - {name: r, exactly: {deviceClassName: any}}\n"
    "status:\n"
    "  allocation:\n"
    "    devices:\n"
    "      results:\n"
    "      - {request: r, driver: dev.example.com, pool: p, device: dev-a}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: one, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - {name: r, exactly: {deviceClassName: any}}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: two, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - {name: r, exactly: {deviceClassName: any, count: 2}}\n";

static void
test_counters_across_nodes(void **state)
{
	struct kube_snapshot	*s;
	struct dra_allocator	*a;
	struct dra_alloc_result	 res;
	struct dra_check_detail	 det;
	struct kube_claim	*c;

	(void)state;
	s = dratest_load(counters_yaml);
	a = new_alloc(s, NULL);
	c = kube_snapshot_claim(s, "ns", "one");
	/* dev-a on n1 holds 6Gi of 8Gi: dev-b (6Gi) no, dev-c (2Gi) yes. */
	alloc_claim(a, s, "ns", "one", "n2", &res);
	assert_int_equal(res.status, DRA_ALLOC_OK);
	assert_string_equal(picks(&res), "dev.example.com/p/dev-c");
	dra_alloc_result_free(&res);
	assert_int_equal(dra_device_check(a, "n2", kube_snapshot_node(s,
	    "n2"), "ns", c->spec.requests[0].exactly, kube_snapshot_device(s,
	    "dev.example.com", "p", "dev-b"), &det), DRA_CHECK_COUNTERS);
	assert_string_equal(det.set->name, "cs");
	assert_string_equal(det.set->counters[det.counter].name, "mem");
	assert_int_equal(det.need, 6LL * 1024 * 1024 * 1024 * 1000);
	assert_int_equal(det.left, 2LL * 1024 * 1024 * 1024 * 1000);
	free(det.message);
	assert_int_equal(dra_device_check(a, "n1", kube_snapshot_node(s,
	    "n1"), "ns", c->spec.requests[0].exactly, kube_snapshot_device(s,
	    "dev.example.com", "p", "dev-a"), &det), DRA_CHECK_IN_USE);
	assert_int_equal(det.nholders, 1);
	assert_string_equal(det.holders[0].claim->meta.name, "held");
	free(det.message);
	assert_int_equal(dra_device_check(a, "n1", kube_snapshot_node(s,
	    "n1"), "ns", c->spec.requests[0].exactly, kube_snapshot_device(s,
	    "dev.example.com", "p", "dev-b"), &det), DRA_CHECK_NODE);
	free(det.message);
	/* Two devices: dev-b and dev-c together need 8Gi, 2Gi are left. */
	alloc_claim(a, s, "ns", "two", "n2", &res);
	assert_int_equal(res.status, DRA_ALLOC_NO_FIT);
	dra_alloc_result_free(&res);
	/* Released: dev-b (6Gi) and dev-c (2Gi) fit exactly. */
	dra_allocator_release(a, kube_snapshot_claim(s, "ns", "held"));
	alloc_claim(a, s, "ns", "two", "n2", &res);
	assert_int_equal(res.status, DRA_ALLOC_OK);
	assert_string_equal(picks(&res),
	    "dev.example.com/p/dev-b,dev.example.com/p/dev-c");
	dra_alloc_result_free(&res);
	alloc_claim(a, s, "ns", "one", "n2", &res);
	assert_string_equal(picks(&res), "dev.example.com/p/dev-b");
	dra_alloc_result_free(&res);
	dra_allocator_free(a);
	kube_snapshot_free(s);
}

#define GI	(1024LL * 1024 * 1024 * 1000)

static const char capacity_yaml[] = CLASS NODE("n1")
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceSlice\n"
    "metadata: {name: n1}\n"
    "spec:\n"
    "  driver: dev.example.com\n"
    "  nodeName: n1\n"
    "  pool: {name: n1, generation: 1, resourceSliceCount: 1}\n"
    "  devices:\n"
    "  - name: range\n"
    "    allowMultipleAllocations: true\n"
    "    capacity:\n"
    "      mem:\n"
    "        value: 40Gi\n"
    "        requestPolicy:\n"
    "          default: 1Gi\n"
    "          validRange: {min: 1Gi, max: 16Gi, step: 2Gi}\n"
    "  - name: values\n"
    "    allowMultipleAllocations: true\n"
    "    capacity:\n"
    "      mem:\n"
    "        value: 40Gi\n"
    "        requestPolicy:\n"
    "          default: 10Gi\n"
    "          validValues: [10Gi, 20Gi]\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: held, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - {name: r, exactly: {deviceClassName: any}}\n"
    "status:\n"
    "  allocation:\n"
    "    devices:\n"
    "      results:\n"
    "      - {request: r, driver: dev.example.com, pool: n1, "
    "device: range, shareID: 00000000-0000-0000-0000-000000000001, "
    "consumedCapacity: {mem: 30Gi}}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: four, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - name: r\n"
    "      exactly:\n"
    "        deviceClassName: any\n"
    "        capacity: {requests: {mem: 4Gi}}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: fifteen, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - name: r\n"
    "      exactly:\n"
    "        deviceClassName: any\n"
    "        capacity: {requests: {mem: 15Gi}}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: huge, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - name: r\n"
    "      exactly:\n"
    "        deviceClassName: any\n"
    "        capacity: {requests: {mem: 30Gi}}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: nomem, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - name: r\n"
    "      exactly:\n"
    "        deviceClassName: any\n"
    "        capacity: {requests: {cores: 1}}\n";

static void
test_capacity_rounding(void **state)
{
	struct kube_snapshot	*s;
	struct dra_allocator	*a;
	struct dra_alloc_result	 res;
	struct dra_check_detail	 det;

	(void)state;
	s = dratest_load(capacity_yaml);
	a = new_alloc(s, NULL);
	/* 4Gi on range: min 1Gi, step 2Gi: 5Gi; 30Gi + 5Gi <= 40Gi. */
	alloc_claim(a, s, "ns", "four", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_OK);
	assert_string_equal(picks(&res), "dev.example.com/n1/range");
	assert_int_equal(res.picks[0].nconsumed, 1);
	assert_int_equal(res.picks[0].consumed[0].value.milli, 5 * GI);
	dra_alloc_result_free(&res);
	/* 15Gi: range rounds to 15Gi but 30 + 15 > 40; values: 20Gi. */
	alloc_claim(a, s, "ns", "fifteen", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_OK);
	assert_string_equal(picks(&res), "dev.example.com/n1/values");
	assert_int_equal(res.picks[0].consumed[0].value.milli, 20 * GI);
	dra_alloc_result_free(&res);
	assert_int_equal(dra_device_check(a, "n1", NULL, "ns",
	    kube_snapshot_claim(s, "ns", "fifteen")->spec.requests[0].exactly,
	    kube_snapshot_device(s, "dev.example.com", "n1", "range"), &det),
	    DRA_CHECK_CAPACITY);
	assert_string_equal(det.capacity->id, "mem");
	assert_int_equal(det.need, 15 * GI);
	assert_int_equal(det.left, 10 * GI);
	free(det.message);
	/* 30Gi: above range's max, not a valid value (20Gi is the top). */
	alloc_claim(a, s, "ns", "huge", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_NO_FIT);
	dra_alloc_result_free(&res);
	/* A capacity no device publishes. */
	alloc_claim(a, s, "ns", "nomem", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_NO_FIT);
	dra_alloc_result_free(&res);
	assert_int_equal(dra_device_check(a, "n1", NULL, "ns",
	    kube_snapshot_claim(s, "ns", "nomem")->spec.requests[0].exactly,
	    kube_snapshot_device(s, "dev.example.com", "n1", "range"), &det),
	    DRA_CHECK_CAPACITY);
	assert_null(det.capacity);
	assert_non_null(strstr(det.message, "cores"));
	free(det.message);
	/* Released, 15Gi fits on range again. */
	dra_allocator_release(a, kube_snapshot_claim(s, "ns", "held"));
	alloc_claim(a, s, "ns", "fifteen", "n1", &res);
	assert_string_equal(picks(&res), "dev.example.com/n1/range");
	assert_int_equal(res.picks[0].consumed[0].value.milli, 15 * GI);
	dra_alloc_result_free(&res);
	dra_allocator_free(a);
	kube_snapshot_free(s);
}

static const char taints_yaml[] = CLASS NODE("n1")
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceSlice\n"
    "metadata: {name: n1}\n"
    "spec:\n"
    "  driver: dev.example.com\n"
    "  nodeName: n1\n"
    "  pool: {name: n1, generation: 1, resourceSliceCount: 1}\n"
    "  devices:\n"
    "  - name: d0\n"
    "    taints: [{key: ecc, value: bad, effect: NoSchedule}]\n"
    "  - name: d1\n"
    "    taints: [{key: maint, effect: None}]\n"
    "  - name: d2\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: DeviceTaintRule\n"
    "metadata: {name: drain-d2}\n"
    "spec:\n"
    "  deviceSelector: {driver: dev.example.com, device: d2}\n"
    "  taint: {key: drain, effect: NoExecute}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: plain, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - {name: r, exactly: {deviceClassName: any, count: 2}}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: equal, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - name: r\n"
    "      exactly:\n"
    "        deviceClassName: any\n"
    "        count: 2\n"
    "        tolerations: [{key: ecc, operator: Equal, value: bad}]\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: wrong-value, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - name: r\n"
    "      exactly:\n"
    "        deviceClassName: any\n"
    "        count: 2\n"
    "        tolerations: [{key: ecc, value: good}]\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: exists, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - name: r\n"
    "      exactly:\n"
    "        deviceClassName: any\n"
    "        allocationMode: All\n"
    "        tolerations: [{operator: Exists, effect: NoSchedule}, "
    "{key: drain, operator: Exists}]\n";

static void
test_taints(void **state)
{
	struct kube_snapshot	*s;
	struct dra_allocator	*a;
	struct dra_alloc_result	 res;
	struct dra_check_detail	 det;

	(void)state;
	s = dratest_load(taints_yaml);
	a = new_alloc(s, NULL);
	/* d0 NoSchedule, d2 NoExecute (rule): only d1 (None) is free. */
	alloc_claim(a, s, "ns", "plain", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_NO_FIT);
	dra_alloc_result_free(&res);
	assert_int_equal(dra_device_check(a, "n1", NULL, "ns",
	    kube_snapshot_claim(s, "ns", "plain")->spec.requests[0].exactly,
	    kube_snapshot_device(s, "dev.example.com", "n1", "d2"), &det),
	    DRA_CHECK_TAINT);
	assert_string_equal(det.taint->key, "drain");
	assert_string_equal(det.taint->rule, "drain-d2");
	free(det.message);
	alloc_claim(a, s, "ns", "equal", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_OK);
	assert_string_equal(picks(&res),
	    "dev.example.com/n1/d0,dev.example.com/n1/d1");
	dra_alloc_result_free(&res);
	alloc_claim(a, s, "ns", "wrong-value", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_NO_FIT);
	dra_alloc_result_free(&res);
	alloc_claim(a, s, "ns", "exists", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_OK);
	assert_string_equal(picks(&res), "dev.example.com/n1/d0,"
	    "dev.example.com/n1/d1,dev.example.com/n1/d2");
	dra_alloc_result_free(&res);
	dra_allocator_free(a);
	kube_snapshot_free(s);
}

static const char first_yaml[] = CLASS NODE("n1")
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceSlice\n"
    "metadata: {name: n1}\n"
    "spec:\n"
    "  driver: dev.example.com\n"
    "  nodeName: n1\n"
    "  pool: {name: n1, generation: 1, resourceSliceCount: 1}\n"
    "  devices:\n"
    "  - {name: d0}\n"
    "  - {name: d1}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: fa, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - name: gpu\n"
    "      firstAvailable:\n"
    "      - {name: big, deviceClassName: any, count: 3}\n"
    "      - {name: missing, deviceClassName: any, count: 1, "
    "capacity: {requests: {mem: 1Gi}}}\n"
    "      - {name: small, deviceClassName: any, count: 2}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: limit, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - name: gpu\n"
    "      firstAvailable:\n"
    "      - {name: many, deviceClassName: any, count: 33}\n"
    "      - {name: one, deviceClassName: any, count: 1}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: too-many, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - {name: gpu, exactly: {deviceClassName: any, count: 33}}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: no-class, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - {name: gpu, exactly: {deviceClassName: nope}}\n";

static void
test_first_available_and_limit(void **state)
{
	struct kube_snapshot	*s;
	struct dra_allocator	*a;
	struct dra_alloc_result	 res;
	struct dra_check_detail	 det;

	(void)state;
	s = dratest_load(first_yaml);
	a = new_alloc(s, NULL);
	alloc_claim(a, s, "ns", "fa", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_OK);
	assert_string_equal(picks(&res),
	    "dev.example.com/n1/d0,dev.example.com/n1/d1");
	assert_string_equal(res.picks[0].request, "gpu/small");
	assert_string_equal(res.picks[1].request, "gpu/small");
	dra_alloc_result_free(&res);
	/* 33 is over the limit of 32 results: the next subrequest. */
	alloc_claim(a, s, "ns", "limit", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_OK);
	assert_string_equal(picks(&res), "dev.example.com/n1/d0");
	assert_string_equal(res.picks[0].request, "gpu/one");
	dra_alloc_result_free(&res);
	alloc_claim(a, s, "ns", "too-many", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_ERROR);
	assert_true(res.blocks_everywhere);
	assert_string_equal(res.message, "claim ns/too-many, request gpu: "
	    "adding 33 devices exceeds the claim limit of 32, with 0 already "
	    "accounted for");
	dra_alloc_result_free(&res);
	assert_int_equal(dra_device_check(a, "n1", NULL, "ns",
	    kube_snapshot_claim(s, "ns", "no-class")->spec.requests[0].exactly,
	    kube_snapshot_device(s, "dev.example.com", "n1", "d0"), &det),
	    DRA_CHECK_CLASS_MISSING);
	assert_string_equal(det.message, "device class nope does not exist");
	free(det.message);
	assert_string_equal(dra_check_code(DRA_CHECK_CLASS_MISSING),
	    "class-missing");
	alloc_claim(a, s, "ns", "no-class", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_ERROR);
	assert_true(res.blocks_everywhere);
	assert_string_equal(res.message,
	    "request gpu: device class nope does not exist");
	dra_alloc_result_free(&res);
	dra_allocator_free(a);
	kube_snapshot_free(s);
}

static const char all_yaml[] = CLASS NODE("n1") NODE("n2") NODE("n3")
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceSlice\n"
    "metadata: {name: n1}\n"
    "spec:\n"
    "  driver: dev.example.com\n"
    "  nodeName: n1\n"
    "  pool: {name: n1, generation: 1, resourceSliceCount: 1}\n"
    "  devices:\n"
    "  - {name: d0}\n"
    "  - {name: d1}\n"
    "  - {name: d2}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceSlice\n"
    "metadata: {name: n2-a}\n"
    "spec:\n"
    "  driver: dev.example.com\n"
    "  nodeName: n2\n"
    "  pool: {name: n2, generation: 1, resourceSliceCount: 2}\n"
    "  devices:\n"
    "  - {name: d0}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: held, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - {name: r, exactly: {deviceClassName: any}}\n"
    "status:\n"
    "  allocation:\n"
    "    devices:\n"
    "      results:\n"
    "      - {request: r, driver: dev.example.com, pool: n1, device: d1}\n"
    "      - {request: r, driver: dev.example.com, pool: n1, device: d2, "
    "adminAccess: true}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: all, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - {name: gpu, exactly: {deviceClassName: any, "
    "allocationMode: All}}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: admin, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - {name: gpu, exactly: {deviceClassName: any, "
    "allocationMode: All, adminAccess: true}}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: two, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - {name: gpu, exactly: {deviceClassName: any, count: 2}}\n";

static void
test_all_and_admin(void **state)
{
	struct kube_snapshot	*s;
	struct dra_allocator	*a;
	struct dra_alloc_result	 res;
	struct dra_check_detail	 det;

	(void)state;
	s = dratest_load(all_yaml);
	a = new_alloc(s, NULL);
	/* d1 is held: All must take it too, so it cannot. */
	alloc_claim(a, s, "ns", "all", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_NO_FIT);
	dra_alloc_result_free(&res);
	/* Admin access ignores holders. */
	alloc_claim(a, s, "ns", "admin", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_OK);
	assert_string_equal(picks(&res), "dev.example.com/n1/d0,"
	    "dev.example.com/n1/d1,dev.example.com/n1/d2");
	assert_true(res.picks[0].admin_access);
	dra_alloc_result_free(&res);
	/* d2 is held with admin access only: it is free. */
	alloc_claim(a, s, "ns", "two", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_OK);
	assert_string_equal(picks(&res),
	    "dev.example.com/n1/d0,dev.example.com/n1/d2");
	dra_alloc_result_free(&res);
	/* Pool n2 has 1 of 2 slices. */
	alloc_claim(a, s, "ns", "all", "n2", &res);
	assert_int_equal(res.status, DRA_ALLOC_ERROR);
	assert_true(res.blocks_everywhere);
	assert_string_equal(res.message, "claim ns/all, request gpu: asks "
	    "for all devices, but resource pool dev.example.com/n2 is "
	    "currently being updated");
	dra_alloc_result_free(&res);
	assert_int_equal(dra_device_check(a, "n2", NULL, "ns",
	    kube_snapshot_claim(s, "ns", "two")->spec.requests[0].exactly,
	    kube_snapshot_device(s, "dev.example.com", "n2", "d0"), &det),
	    DRA_CHECK_POOL_INCOMPLETE);
	assert_string_equal(det.message, "resource pool dev.example.com/n2 "
	    "is currently being updated");
	free(det.message);
	/* From n1, n2's device is out of reach. */
	assert_int_equal(dra_device_check(a, "n1", NULL, "ns",
	    kube_snapshot_claim(s, "ns", "two")->spec.requests[0].exactly,
	    kube_snapshot_device(s, "dev.example.com", "n2", "d0"), &det),
	    DRA_CHECK_NODE);
	free(det.message);
	/* No devices at all: All fails. */
	alloc_claim(a, s, "ns", "all", "n3", &res);
	assert_int_equal(res.status, DRA_ALLOC_NO_FIT);
	dra_alloc_result_free(&res);
	dra_allocator_release(a, kube_snapshot_claim(s, "ns", "held"));
	alloc_claim(a, s, "ns", "all", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_OK);
	assert_string_equal(picks(&res), "dev.example.com/n1/d0,"
	    "dev.example.com/n1/d1,dev.example.com/n1/d2");
	dra_alloc_result_free(&res);
	dra_allocator_free(a);
	kube_snapshot_free(s);
}

static void
test_invalid_pool_and_selectors(void **state)
{
	struct kube_snapshot	*s;
	struct dra_allocator	*a;
	struct dra_alloc_result	 res;
	struct dra_check_detail	 det;

	(void)state;
	s = dratest_load(CLASS
	    "apiVersion: v1\nkind: Node\n"
	    "metadata: {name: n1, labels: {zone: a, gen: '5'}}\n---\n"
	    "apiVersion: v1\nkind: Node\n"
	    "metadata: {name: n2, labels: {zone: b}}\n---\n"
	    "apiVersion: v1\nkind: Node\n"
	    "metadata: {name: n4, labels: {zone: c}}\n---\n"
	    "apiVersion: resource.k8s.io/v1\n"
	    "kind: ResourceClaim\n"
	    "metadata: {name: two, namespace: ns}\n"
	    "spec:\n"
	    "  devices:\n"
	    "    requests:\n"
	    "    - {name: r, exactly: {deviceClassName: any, count: 2}}\n"
	    "---\n"
	    "apiVersion: resource.k8s.io/v1\n"
	    "kind: ResourceSlice\n"
	    "metadata: {name: zone-a}\n"
	    "spec:\n"
	    "  driver: net.example.com\n"
	    "  nodeSelector:\n"
	    "    nodeSelectorTerms:\n"
	    "    - matchExpressions:\n"
	    "      - {key: zone, operator: In, values: [a]}\n"
	    "      - {key: gen, operator: Gt, values: ['4']}\n"
	    "  pool: {name: zone-a, generation: 1, resourceSliceCount: 1}\n"
	    "  devices:\n"
	    "  - {name: za}\n"
	    "---\n"
	    "apiVersion: resource.k8s.io/v1\n"
	    "kind: ResourceSlice\n"
	    "metadata: {name: per-device}\n"
	    "spec:\n"
	    "  driver: net.example.com\n"
	    "  perDeviceNodeSelection: true\n"
	    "  pool: {name: pd, generation: 1, resourceSliceCount: 1}\n"
	    "  devices:\n"
	    "  - name: on-n2\n"
	    "    nodeSelector:\n"
	    "      nodeSelectorTerms:\n"
	    "      - matchFields:\n"
	    "        - {key: metadata.name, operator: In, values: [n2]}\n"
	    "  - {name: not-n1, nodeSelector: {nodeSelectorTerms: "
	    "[{matchExpressions: [{key: zone, operator: NotIn, "
	    "values: [a]}]}]}}\n"
	    "---\n"
	    "apiVersion: resource.k8s.io/v1\n"
	    "kind: ResourceSlice\n"
	    "metadata: {name: dup}\n"
	    "spec:\n"
	    "  driver: dev.example.com\n"
	    "  nodeName: n2\n"
	    "  pool: {name: n2, generation: 1, resourceSliceCount: 1}\n"
	    "  devices:\n"
	    "  - {name: x}\n"
	    "  - {name: x}\n"
	    "---\n"
	    "apiVersion: resource.k8s.io/v1\n"
	    "kind: ResourceClaim\n"
	    "metadata: {name: c, namespace: ns}\n"
	    "spec:\n"
	    "  devices:\n"
	    "    requests:\n"
	    "    - {name: r, exactly: {deviceClassName: any, "
	    "allocationMode: All}}\n"
	    "---\n"
	    "apiVersion: resource.k8s.io/v1\n"
	    "kind: ResourceClaim\n"
	    "metadata: {name: three, namespace: ns}\n"
	    "spec:\n"
	    "  devices:\n"
	    "    requests:\n"
	    "    - {name: r, exactly: {deviceClassName: any, count: 3}}\n");
	a = new_alloc(s, NULL);
	alloc_claim(a, s, "ns", "c", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_OK);
	assert_string_equal(picks(&res), "net.example.com/zone-a/za");
	dra_alloc_result_free(&res);
	/*
	 * n4 (zone c) sees the per-device slice through not-n1; on-n2 is
	 * in it but only for n2.
	 */
	alloc_claim(a, s, "ns", "c", "n4", &res);
	assert_int_equal(res.status, DRA_ALLOC_OK);
	assert_string_equal(picks(&res), "net.example.com/pd/not-n1");
	dra_alloc_result_free(&res);
	alloc_claim(a, s, "ns", "two", "n4", &res);
	assert_int_equal(res.status, DRA_ALLOC_NO_FIT);
	dra_alloc_result_free(&res);
	assert_int_equal(dra_device_check(a, "n4", kube_snapshot_node(s, "n4"),
	    "ns", kube_snapshot_claim(s, "ns", "two")->spec.requests[0].exactly,
	    kube_snapshot_device(s, "net.example.com", "pd", "on-n2"), &det),
	    DRA_CHECK_NODE);
	assert_non_null(strstr(det.message, "per-device"));
	free(det.message);
	alloc_claim(a, s, "ns", "two", "n2", &res);
	assert_int_equal(res.status, DRA_ALLOC_OK);
	assert_string_equal(picks(&res),
	    "net.example.com/pd/on-n2,net.example.com/pd/not-n1");
	dra_alloc_result_free(&res);
	/* n2: the invalid pool makes All an error. */
	alloc_claim(a, s, "ns", "c", "n2", &res);
	assert_int_equal(res.status, DRA_ALLOC_ERROR);
	assert_string_equal(res.message, "claim ns/c, request r: asks for "
	    "all devices, but resource pool dev.example.com/n2 is "
	    "currently invalid");
	dra_alloc_result_free(&res);
	/* Two devices on n2, three wanted: the invalid pool is named. */
	alloc_claim(a, s, "ns", "three", "n2", &res);
	assert_int_equal(res.status, DRA_ALLOC_ERROR);
	assert_false(res.blocks_everywhere);
	assert_string_equal(res.message,
	    "invalid resource pools were encountered");
	dra_alloc_result_free(&res);
	assert_int_equal(dra_device_check(a, "n2", NULL, "ns",
	    kube_snapshot_claim(s, "ns", "three")->spec.requests[0].exactly,
	    s->slices.v[0]->devices, &det), DRA_CHECK_POOL_INVALID);
	assert_string_equal(s->slices.v[0]->meta.name, "dup");
	assert_string_equal(det.message, "resource pool dev.example.com/n2 "
	    "is invalid: duplicate device name x");
	free(det.message);
	dra_allocator_free(a);
	kube_snapshot_free(s);
}

/*
 * Case 26's blow-up, rebuilt: 8 one-device requests under one
 * matchAttribute over 64 devices.  Seven groups of 8 devices share a
 * value; the last request can use only the 8 devices that publish
 * "mem", each with a value of its own.  No value gives all 8 requests
 * a device.  The search tries every ordering of 7 devices of a group
 * (millions of devices tried); counting answers at once.
 */
static char *
blowup_yaml(void)
{
	char	*buf = malloc(65536);
	size_t	 n = 0;
	int	 i;

	n += (size_t)snprintf(buf + n, 65536 - n, "%s%s", CLASS, NODE("n1"));
	n += (size_t)snprintf(buf + n, 65536 - n,
	    "apiVersion: resource.k8s.io/v1\n"
	    "kind: ResourceSlice\n"
	    "metadata: {name: n1}\n"
	    "spec:\n"
	    "  driver: dev.example.com\n"
	    "  nodeName: n1\n"
	    "  pool: {name: n1, generation: 1, resourceSliceCount: 1}\n"
	    "  devices:\n");
	for (i = 0; i < 64; i++) {
		if (i < 56)
			n += (size_t)snprintf(buf + n, 65536 - n,
			    "  - {name: d%d, attributes: {g: {int: %d}}}\n",
			    i, i % 7);
		else
			n += (size_t)snprintf(buf + n, 65536 - n,
			    "  - {name: d%d, attributes: {g: {int: %d}}, "
			    "capacity: {mem: {value: 1Gi}}}\n", i, 100 + i);
	}
	n += (size_t)snprintf(buf + n, 65536 - n,
	    "---\n"
	    "apiVersion: resource.k8s.io/v1\n"
	    "kind: ResourceClaim\n"
	    "metadata: {name: eight, namespace: ns}\n"
	    "spec:\n"
	    "  devices:\n"
	    "    requests:\n");
	for (i = 0; i < 7; i++)
		n += (size_t)snprintf(buf + n, 65536 - n,
		    "    - {name: r%d, exactly: {deviceClassName: any}}\n", i);
	n += (size_t)snprintf(buf + n, 65536 - n,
	    "    - {name: r7, exactly: {deviceClassName: any, "
	    "capacity: {requests: {mem: 1Gi}}}}\n"
	    "    constraints:\n"
	    "    - {matchAttribute: dev.example.com/g}\n");
	return buf;
}

static void
test_blowup_bound(void **state)
{
	struct kube_snapshot	*s;
	struct dra_allocator	*a;
	struct dra_alloc_result	 res;
	struct dra_alloc_opts	 o = { DRA_FEATURES_1_37, 200000, 1 };
	char			*yaml = blowup_yaml();

	(void)state;
	s = dratest_load(yaml);
	free(yaml);
	/* Searching: the bound stops it. */
	a = new_alloc(s, &o);
	alloc_claim(a, s, "ns", "eight", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_UNKNOWN);
	assert_string_equal(res.message,
	    "search stopped after 200000 devices tried (max_steps)");
	assert_int_equal(res.steps, 200001);
	dra_alloc_result_free(&res);
	dra_allocator_free(a);
	/* Counting: no value of g gives eight requests a device each. */
	a = new_alloc(s, NULL);
	alloc_claim(a, s, "ns", "eight", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_NO_FIT);
	assert_int_equal(res.steps, 0);
	dra_alloc_result_free(&res);
	dra_allocator_free(a);
	kube_snapshot_free(s);
}


/* Selectors: the verdicts, the runtime errors, the evidence. */
static const char selectors_yaml[] = NODE("n1")
    "apiVersion: resource.k8s.io/v1\n"
    "kind: DeviceClass\n"
    "metadata: {name: nomatch}\n"
    "spec:\n"
    "  selectors:\n"
    "  - cel: {expression: \"device.driver == 'none.example.com'\"}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: err-late, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - {name: a, exactly: {deviceClassName: gpu}}\n"
    "    - {name: b, exactly: {deviceClassName: nomatch}}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: DeviceClass\n"
    "metadata: {name: gpu}\n"
    "spec:\n"
    "  selectors:\n"
    "  - cel: {expression: \"device.driver == 'gpu.example.com'\"}\n"
    "  - cel: {expression: \"device.attributes['gpu.example.com'].model "
    "!= 'old'\"}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceSlice\n"
    "metadata: {name: n1-gpu}\n"
    "spec:\n"
    "  driver: gpu.example.com\n"
    "  nodeName: n1\n"
    "  pool: {name: n1, generation: 2, resourceSliceCount: 1}\n"
    "  devices:\n"
    "  - {name: g0, attributes: {model: {string: old}, mem: {int: 80}}}\n"
    "  - {name: g1, attributes: {model: {string: new}, mem: {int: 40}}}\n"
    "  - {name: g2, attributes: {model: {string: new}, mem: {int: 80}}}\n"
    "  - {name: g3, attributes: {mem: {int: 80}}}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceSlice\n"
    "metadata: {name: n1-gpu-old}\n"
    "spec:\n"
    "  driver: gpu.example.com\n"
    "  nodeName: n1\n"
    "  pool: {name: n1, generation: 1, resourceSliceCount: 1}\n"
    "  devices:\n"
    "  - {name: g9, attributes: {model: {string: new}, mem: {int: 80}}}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: big, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - name: r\n"
    "      exactly:\n"
    "        deviceClassName: gpu\n"
    "        count: 0\n"
    "        selectors:\n"
    "        - cel: {expression: \"device.attributes['gpu.example.com']"
    ".mem >= 80\"}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: two-big, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - name: r\n"
    "      exactly:\n"
    "        deviceClassName: gpu\n"
    "        count: 2\n"
    "        selectors:\n"
    "        - cel: {expression: \"device.attributes['gpu.example.com']"
    ".mem >= 80\"}\n";

static void
test_selectors(void **state)
{
	struct kube_snapshot	*s;
	struct dra_allocator	*a;
	struct dra_alloc_result	 res;
	struct dra_check_detail	 det;
	const struct kube_device_request *r;

	(void)state;
	s = dratest_load(selectors_yaml);
	a = new_alloc(s, NULL);
	r = kube_snapshot_claim(s, "ns", "big")->spec.requests[0].exactly;
	/* g0: class selector #1 false; g1: request selector false. */
	assert_int_equal(dra_device_check(a, "n1", NULL, "ns", r,
	    kube_snapshot_device(s, "gpu.example.com", "n1", "g0"), &det),
	    DRA_CHECK_CLASS_SELECTOR);
	assert_int_equal(det.selector, 1);
	free(det.message);
	assert_int_equal(dra_device_check(a, "n1", NULL, "ns", r,
	    kube_snapshot_device(s, "gpu.example.com", "n1", "g1"), &det),
	    DRA_CHECK_REQUEST_SELECTOR);
	assert_int_equal(det.selector, 0);
	free(det.message);
	assert_int_equal(dra_device_check(a, "n1", NULL, "ns", r,
	    kube_snapshot_device(s, "gpu.example.com", "n1", "g2"), &det),
	    DRA_CHECK_OK);
	free(det.message);
	/* g3 lacks "model": the class's selector #1 fails to evaluate. */
	assert_int_equal(dra_device_check(a, "n1", NULL, "ns", r,
	    kube_snapshot_device(s, "gpu.example.com", "n1", "g3"), &det),
	    DRA_CHECK_CEL_ERROR);
	assert_int_equal(det.selector, 1);
	assert_string_equal(det.message, "class gpu: selector #1 on device "
	    "gpu.example.com/n1/g3: CEL runtime error: no such key: model. "
	    "consider using CEL optional chaining (.? followed by orValue()) "
	    "or guarding the check with has() for optional fields");
	free(det.message);
	/* g9 is in a slice of an older generation. */
	assert_int_equal(dra_device_check(a, "n1", NULL, "ns", r,
	    s->slices.v[1]->devices, &det), DRA_CHECK_STALE);
	assert_string_equal(s->slices.v[1]->devices[0].name, "g9");
	free(det.message);
	/* count 0 is one device (API defaulting); g2 fits before g3. */
	alloc_claim(a, s, "ns", "big", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_OK);
	assert_string_equal(picks(&res), "gpu.example.com/n1/g2");
	dra_alloc_result_free(&res);
	/*
	 * b matches nothing, but the search tries every device for a,
	 * g3 too: the error, not "no fit" (counting must agree).
	 */
	alloc_claim(a, s, "ns", "err-late", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_ERROR);
	assert_non_null(strstr(res.message, "gpu.example.com/n1/g3"));
	dra_alloc_result_free(&res);
	/* A second device means evaluating g3: the error aborts. */
	alloc_claim(a, s, "ns", "two-big", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_ERROR);
	assert_true(res.blocks_everywhere);
	assert_string_equal(res.message, "class gpu: selector #1 on device "
	    "gpu.example.com/n1/g3: CEL runtime error: no such key: model. "
	    "consider using CEL optional chaining (.? followed by orValue()) "
	    "or guarding the check with has() for optional fields");
	dra_alloc_result_free(&res);
	dra_allocator_free(a);
	kube_snapshot_free(s);
}


/*
 * The fixes of July 2026 that kube-scheduler 1.37.2 has: counters per
 * pool ID (#140435), no second charge for a shared device (#140437),
 * All fails on a matching device with no capacity left (#140769).
 */
static const char fixes_yaml[] = CLASS NODE("n1")
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceSlice\n"
    "metadata: {name: a-counters}\n"
    "spec:\n"
    "  driver: a.example.com\n"
    "  nodeName: n1\n"
    "  pool: {name: n1, generation: 1, resourceSliceCount: 2}\n"
    "  sharedCounters: [{name: cs, counters: {mem: {value: 1Gi}}}]\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceSlice\n"
    "metadata: {name: a-devices}\n"
    "spec:\n"
    "  driver: a.example.com\n"
    "  nodeName: n1\n"
    "  pool: {name: n1, generation: 1, resourceSliceCount: 2}\n"
    "  devices:\n"
    "  - {name: a0, consumesCounters: [{counterSet: cs, "
    "counters: {mem: {value: 1Gi}}}]}\n"
    "  - {name: a1, consumesCounters: [{counterSet: cs, "
    "counters: {mem: {value: 2Gi}}}]}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceSlice\n"
    "metadata: {name: b-counters}\n"
    "spec:\n"
    "  driver: b.example.com\n"
    "  nodeName: n1\n"
    "  pool: {name: n1, generation: 1, resourceSliceCount: 2}\n"
    "  sharedCounters: [{name: cs, counters: {mem: {value: 8Gi}}}]\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceSlice\n"
    "metadata: {name: b-devices}\n"
    "spec:\n"
    "  driver: b.example.com\n"
    "  nodeName: n1\n"
    "  pool: {name: n1, generation: 1, resourceSliceCount: 2}\n"
    "  devices:\n"
    "  - {name: b0, consumesCounters: [{counterSet: cs, "
    "counters: {mem: {value: 4Gi}}}]}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceSlice\n"
    "metadata: {name: c-counters}\n"
    "spec:\n"
    "  driver: c.example.com\n"
    "  nodeName: n1\n"
    "  pool: {name: c, generation: 1, resourceSliceCount: 2}\n"
    "  sharedCounters: [{name: cs, counters: {mem: {value: 1Gi}}}]\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceSlice\n"
    "metadata: {name: c-devices}\n"
    "spec:\n"
    "  driver: c.example.com\n"
    "  nodeName: n1\n"
    "  pool: {name: c, generation: 1, resourceSliceCount: 2}\n"
    "  devices:\n"
    "  - name: shared\n"
    "    allowMultipleAllocations: true\n"
    "    consumesCounters: [{counterSet: cs, counters: {mem: {value: 1Gi}}}]\n"
    "  - {name: m0, allowMultipleAllocations: true, "
    "capacity: {slots: {value: 1}}}\n"
    "  - {name: m1, allowMultipleAllocations: true, "
    "capacity: {slots: {value: 1}}}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: held, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - {name: r, exactly: {deviceClassName: any}}\n"
    "status:\n"
    "  allocation:\n"
    "    devices:\n"
    "      results:\n"
    "      - {request: r, driver: a.example.com, pool: n1, device: a0}\n"
    "      - {request: r, driver: c.example.com, pool: c, device: shared, "
    "shareID: 00000000-0000-0000-0000-000000000002}\n"
    "      - {request: r, driver: c.example.com, pool: c, device: m0, "
    "shareID: 00000000-0000-0000-0000-000000000003, "
    "consumedCapacity: {slots: 1}}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: one, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - {name: r, exactly: {deviceClassName: any}}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: slots, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - name: r\n"
    "      exactly:\n"
    "        deviceClassName: any\n"
    "        allocationMode: All\n"
    "        capacity: {requests: {slots: 1}}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: three, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - {name: r, exactly: {deviceClassName: any, count: 3}}\n";

static void
test_fixes_1_37(void **state)
{
	struct kube_snapshot	*s;
	struct dra_allocator	*a;
	struct dra_alloc_result	 res;

	(void)state;
	s = dratest_load(fixes_yaml);
	a = new_alloc(s, NULL);
	/*
	 * a0 is held, a1 needs 2Gi of a's 1Gi; b0 draws on b's own "cs"
	 * (8Gi), not on a's, though both pools are called n1.
	 */
	alloc_claim(a, s, "ns", "one", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_OK);
	assert_string_equal(picks(&res), "b.example.com/n1/b0");
	dra_alloc_result_free(&res);
	/*
	 * b0; "shared" is shared already, its 1Gi is not charged again;
	 * m1 (m0's only slot is taken, no request: it wants it all).
	 */
	alloc_claim(a, s, "ns", "three", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_OK);
	assert_string_equal(picks(&res), "b.example.com/n1/b0,"
	    "c.example.com/c/shared,c.example.com/c/m1");
	dra_alloc_result_free(&res);
	/* All: m0 matches but its slot is used, so All fails. */
	alloc_claim(a, s, "ns", "slots", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_NO_FIT);
	dra_alloc_result_free(&res);
	dra_allocator_release(a, kube_snapshot_claim(s, "ns", "held"));
	alloc_claim(a, s, "ns", "slots", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_OK);
	assert_string_equal(picks(&res),
	    "c.example.com/c/m0,c.example.com/c/m1");
	assert_int_equal(res.picks[1].nconsumed, 1);
	assert_int_equal(res.picks[1].consumed[0].value.milli, 1000);
	dra_alloc_result_free(&res);
	dra_allocator_free(a);
	kube_snapshot_free(s);
}


/*
 * kube-scheduler 1.37.2's allocator (dynamic-resource-allocation
 * v0.37.2) beyond the July snapshot: distinctAttribute over every
 * device, fractional capacity ranges, slices with compatibility groups
 * ignored, negative capacities and unknown classes refused.
 */
static const char v1372_yaml[] = NODE("n1")
    "apiVersion: resource.k8s.io/v1\n"
    "kind: DeviceClass\n"
    "metadata: {name: any}\n"
    "spec: {}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: DeviceClass\n"
    "metadata: {name: dev}\n"
    "spec:\n"
    "  selectors:\n"
    "  - cel: {expression: \"device.driver == 'dev.example.com'\"}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceSlice\n"
    "metadata: {name: n1}\n"
    "spec:\n"
    "  driver: dev.example.com\n"
    "  nodeName: n1\n"
    "  pool: {name: n1, generation: 1, resourceSliceCount: 1}\n"
    "  devices:\n"
    "  - {name: d0, attributes: {v: {string: a}}}\n"
    "  - {name: d1, attributes: {v: {string: b}}}\n"
    "  - {name: d2, attributes: {v: {string: a}}}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceSlice\n"
    "metadata: {name: frac}\n"
    "spec:\n"
    "  driver: frac.example.com\n"
    "  nodeName: n1\n"
    "  pool: {name: frac, generation: 1, resourceSliceCount: 1}\n"
    "  devices:\n"
    "  - name: f0\n"
    "    allowMultipleAllocations: true\n"
    "    capacity:\n"
    "      cores:\n"
    "        value: '4'\n"
    "        requestPolicy:\n"
    "          validRange: {min: 500m, step: 250m}\n"
    "  - name: neg\n"
    "    capacity: {slots: {value: '-1'}}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceSlice\n"
    "metadata: {name: compat}\n"
    "spec:\n"
    "  driver: compat.example.com\n"
    "  nodeName: n1\n"
    "  pool: {name: compat, generation: 1, resourceSliceCount: 2}\n"
    "  sharedCounters: [{name: cs, counters: {mem: {value: 8}}}]\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceSlice\n"
    "metadata: {name: compat-devices}\n"
    "spec:\n"
    "  driver: compat.example.com\n"
    "  nodeName: n1\n"
    "  pool: {name: compat, generation: 1, resourceSliceCount: 2}\n"
    "  devices:\n"
    "  - name: g0\n"
    "    consumesCounters:\n"
    "    - {counterSet: cs, counters: {mem: {value: 4}}, "
    "compatibilityGroups: [x]}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: three, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - {name: r, exactly: {deviceClassName: dev, count: 3}}\n"
    "    constraints:\n"
    "    - {distinctAttribute: dev.example.com/v}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: two, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - {name: r, exactly: {deviceClassName: dev, count: 2}}\n"
    "    constraints:\n"
    "    - {distinctAttribute: dev.example.com/v}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: cores, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - name: r\n"
    "      exactly:\n"
    "        deviceClassName: any\n"
    "        capacity: {requests: {cores: 600m}}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: slots, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - name: r\n"
    "      exactly:\n"
    "        deviceClassName: any\n"
    "        count: 5\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: all, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - {name: r, exactly: {deviceClassName: any, allocationMode: All}}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: sub-class, namespace: ns}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - {name: ok, exactly: {deviceClassName: any}}\n"
    "    - name: r\n"
    "      firstAvailable:\n"
    "      - {name: a, deviceClassName: any}\n"
    "      - {name: b, deviceClassName: gone}\n";

static void
test_v1_37_2(void **state)
{
	struct kube_snapshot	*s;
	struct dra_allocator	*a;
	struct dra_alloc_result	 res;
	struct dra_alloc_opts	 o = { DRA_FEATURES_1_37 &
	    ~DRA_FEATURE_FRACTIONAL_CAPACITY, 0, 0 };
	struct dra_alloc_opts	 searching = { DRA_FEATURES_1_37, 0, 1 };

	(void)state;
	s = dratest_load(v1372_yaml);
	a = new_alloc(s, NULL);
	/* d0 (a), d1 (b); d2 repeats a: three distinct values do not exist. */
	alloc_claim(a, s, "ns", "two", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_OK);
	assert_string_equal(picks(&res),
	    "dev.example.com/n1/d0,dev.example.com/n1/d1");
	dra_alloc_result_free(&res);
	alloc_claim(a, s, "ns", "three", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_NO_FIT);
	assert_int_equal(res.steps, 0);		/* counted, not searched */
	dra_alloc_result_free(&res);
	dra_allocator_free(a);
	a = new_alloc(s, &searching);
	alloc_claim(a, s, "ns", "three", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_NO_FIT);
	assert_true(res.steps > 0);
	dra_alloc_result_free(&res);
	dra_allocator_free(a);
	a = new_alloc(s, NULL);
	/* 600m rounds up to 750m in steps of 250m from 500m. */
	alloc_claim(a, s, "ns", "cores", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_OK);
	assert_string_equal(picks(&res), "frac.example.com/frac/f0");
	assert_int_equal(res.picks[0].consumed[0].value.milli, 750);
	dra_alloc_result_free(&res);
	/* neg's capacity is negative: the allocation aborts. */
	alloc_claim(a, s, "ns", "slots", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_ERROR);
	assert_true(res.blocks_everywhere);
	assert_string_equal(res.message, "claim ns/slots, request r: checking "
	    "capacity for device frac.example.com/frac/neg: capacity "
	    "\"slots\": capacity value is negative");
	dra_alloc_result_free(&res);
	/* The compatibility-group slice is ignored: its pool is incomplete. */
	alloc_claim(a, s, "ns", "all", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_ERROR);
	assert_string_equal(res.message, "claim ns/all, request r: asks for "
	    "all devices, but resource pool compat.example.com/compat is "
	    "currently being updated");
	dra_alloc_result_free(&res);
	/* PreFilter checks every subrequest's class, picked or not. */
	alloc_claim(a, s, "ns", "sub-class", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_ERROR);
	assert_true(res.blocks_everywhere);
	assert_string_equal(res.message,
	    "request r/b: device class gone does not exist");
	dra_alloc_result_free(&res);
	dra_allocator_free(a);
	/* Without fractional ranges: whole units, 600m is 1, then 1. */
	a = new_alloc(s, &o);
	alloc_claim(a, s, "ns", "cores", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_OK);
	assert_int_equal(res.picks[0].consumed[0].value.milli, 1000);
	dra_alloc_result_free(&res);
	dra_allocator_free(a);
	kube_snapshot_free(s);
}

static void
test_node_selector_match(void **state)
{
	struct kube_snapshot	*s;
	struct kube_node	*n1, *n2;
	struct kube_slice	*sl;

	(void)state;
	s = dratest_load("apiVersion: v1\nkind: Node\n"
	    "metadata: {name: n1, labels: {zone: a, gen: '5'}}\n---\n"
	    "apiVersion: v1\nkind: Node\n"
	    "metadata: {name: n2, labels: {zone: b}}\n---\n"
	    "apiVersion: resource.k8s.io/v1\n"
	    "kind: ResourceSlice\n"
	    "metadata: {name: s}\n"
	    "spec:\n"
	    "  driver: d\n"
	    "  nodeSelector:\n"
	    "    nodeSelectorTerms:\n"
	    "    - matchExpressions:\n"
	    "      - {key: gen, operator: Lt, values: ['5']}\n"
	    "    - matchExpressions:\n"
	    "      - {key: gen, operator: DoesNotExist}\n"
	    "      matchFields:\n"
	    "      - {key: metadata.name, operator: NotIn, values: [n3]}\n"
	    "  pool: {name: p, generation: 1, resourceSliceCount: 1}\n");
	n1 = kube_snapshot_node(s, "n1");
	n2 = kube_snapshot_node(s, "n2");
	sl = s->slices.v[0];
	assert_int_equal(sl->node_selector->nterms, 2);
	assert_int_equal(sl->node_selector->terms[1].nexprs, 1);
	assert_int_equal(sl->node_selector->terms[1].nfields, 1);
	assert_string_equal(sl->node_selector->terms[1].fields[0].values[0],
	    "n3");
	assert_false(kube_node_selector_match(sl->node_selector, "n1", n1));
	assert_true(kube_node_selector_match(sl->node_selector, "n2", n2));
	/* Without a Node object labels are unknown. */
	assert_false(kube_node_selector_match(sl->node_selector, "n2",
	    NULL));
	kube_snapshot_free(s);
}

/*
 * dra_allocator_hold() and dra_allocator_unhold(): picks placed one after
 * another hold their devices, counters and consumed capacity, and give
 * them back.
 */
/*
 * A request built in memory the caller reuses (one claim after
 * another at the same address, selectors in the same buffer) gets the
 * verdicts of its own selectors, not of the request that used the
 * memory before.
 */
static void
test_request_reused_memory(void **state)
{
	struct kube_snapshot		*s;
	struct dra_allocator		*a;
	struct dra_alloc_result		 res;
	struct dra_err			 err;
	struct kube_device_request	 dr;
	struct kube_request		 rq;
	struct kube_claim_spec		 spec;
	struct dra_claim_ref		 ref;
	char				 sel[128];
	const char			*sv[1] = { sel };
	const char			*want[] = { "d-a", "d-b" };
	size_t				 i;

	(void)state;
	s = dratest_load(CLASS NODE("n1")
	    "apiVersion: resource.k8s.io/v1\n"
	    "kind: ResourceSlice\n"
	    "metadata: {name: n1}\n"
	    "spec:\n"
	    "  driver: dev.example.com\n"
	    "  nodeName: n1\n"
	    "  pool: {name: n1, generation: 1, resourceSliceCount: 1}\n"
	    "  devices:\n"
	    "  - name: d-a\n"
	    "    attributes: {kind: {string: a}}\n"
	    "  - name: d-b\n"
	    "    attributes: {kind: {string: b}}\n");
	a = new_alloc(s, NULL);
	for (i = 0; i < 2; i++) {
		snprintf(sel, sizeof(sel),
		    "device.attributes['dev.example.com'].kind == '%s'",
		    i == 0 ? "a" : "b");
		memset(&dr, 0, sizeof(dr));
		dr.name = "";
		dr.class_name = "any";
		dr.selectors = sv;
		dr.nselectors = 1;
		dr.mode = KUBE_MODE_EXACT_COUNT;
		dr.count = 1;
		memset(&rq, 0, sizeof(rq));
		rq.name = "r";
		rq.exactly = &dr;
		memset(&spec, 0, sizeof(spec));
		spec.requests = &rq;
		spec.nrequests = 1;
		memset(&ref, 0, sizeof(ref));
		ref.namespace = "ns";
		ref.name = "c";
		ref.spec = &spec;
		memset(&res, 0, sizeof(res));
		assert_int_equal(dra_allocate(a, "n1", kube_snapshot_node(s,
		    "n1"), &ref, 1, &res, &err), KUBE_OK);
		assert_int_equal(res.status, DRA_ALLOC_OK);
		assert_string_equal(res.picks[0].device->name, want[i]);
		dra_alloc_result_free(&res);
	}
	dra_allocator_free(a);
	kube_snapshot_free(s);
}

static void
test_hold(void **state)
{
	struct kube_snapshot	*s, *cs;
	struct dra_allocator	*a;
	struct dra_alloc_result	 big, small, res, v1, v2;
	struct dra_check_detail	 det;
	const struct kube_device_request *r;

	(void)state;
	s = dratest_load(CLASS NODE("n1")
	    "apiVersion: resource.k8s.io/v1\n"
	    "kind: ResourceSlice\n"
	    "metadata: {name: n1-0}\n"
	    "spec:\n"
	    "  driver: dev.example.com\n"
	    "  nodeName: n1\n"
	    "  pool: {name: n1, generation: 1, resourceSliceCount: 2}\n"
	    "  sharedCounters:\n"
	    "  - name: cs\n"
	    "    counters: {mem: {value: 8Gi}}\n"
	    "---\n"
	    "apiVersion: resource.k8s.io/v1\n"
	    "kind: ResourceSlice\n"
	    "metadata: {name: n1-1}\n"
	    "spec:\n"
	    "  driver: dev.example.com\n"
	    "  nodeName: n1\n"
	    "  pool: {name: n1, generation: 1, resourceSliceCount: 2}\n"
	    "  devices:\n"
	    "  - name: d-big\n"
	    "    consumesCounters:\n"
	    "    - {counterSet: cs, counters: {mem: {value: 6Gi}}}\n"
	    "  - name: d-small\n"
	    "    consumesCounters:\n"
	    "    - {counterSet: cs, counters: {mem: {value: 2Gi}}}\n"
	    "  - name: d-tiny\n"
	    "    consumesCounters:\n"
	    "    - {counterSet: cs, counters: {mem: {value: 2Gi}}}\n"
	    "---\n"
	    "apiVersion: resource.k8s.io/v1\n"
	    "kind: ResourceClaim\n"
	    "metadata: {name: one, namespace: ns}\n"
	    "spec:\n"
	    "  devices:\n"
	    "    requests:\n"
	    "    - {name: r, exactly: {deviceClassName: any}}\n");
	a = new_alloc(s, NULL);
	r = kube_snapshot_claim(s, "ns", "one")->spec.requests[0].exactly;
	/* Nothing held: first fit takes d-big, and again without a hold. */
	alloc_claim(a, s, "ns", "one", "n1", &big);
	assert_string_equal(picks(&big), "dev.example.com/n1/d-big");
	alloc_claim(a, s, "ns", "one", "n1", &res);
	assert_string_equal(picks(&res), "dev.example.com/n1/d-big");
	dra_alloc_result_free(&res);
	/* Held: d-big is in use, 2Gi of 8Gi are left for d-small. */
	dra_allocator_hold(a, &big);
	assert_int_equal(dra_device_check(a, "n1", kube_snapshot_node(s, "n1"),
	    "ns", r, kube_snapshot_device(s, "dev.example.com", "n1", "d-big"),
	    &det), DRA_CHECK_IN_USE);
	assert_int_equal(det.nholders, 0);
	free(det.message);
	alloc_claim(a, s, "ns", "one", "n1", &small);
	assert_string_equal(picks(&small), "dev.example.com/n1/d-small");
	dra_allocator_hold(a, &small);
	/* Both held: d-tiny's 2Gi do not fit any more. */
	alloc_claim(a, s, "ns", "one", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_NO_FIT);
	dra_alloc_result_free(&res);
	assert_int_equal(dra_device_check(a, "n1", kube_snapshot_node(s, "n1"),
	    "ns", r, kube_snapshot_device(s, "dev.example.com", "n1",
	    "d-tiny"), &det), DRA_CHECK_COUNTERS);
	assert_int_equal(det.need, 2 * GI);
	assert_int_equal(det.left, 0);
	free(det.message);
	/* A failed result holds nothing. */
	dra_allocator_hold(a, &res);
	/* d-big given back: 6Gi free again, d-big is the first fit. */
	dra_allocator_unhold(a, &big);
	alloc_claim(a, s, "ns", "one", "n1", &res);
	assert_string_equal(picks(&res), "dev.example.com/n1/d-big");
	dra_alloc_result_free(&res);
	/* d-small given back too: nothing is held. */
	dra_allocator_unhold(a, &small);
	assert_int_equal(dra_device_check(a, "n1", kube_snapshot_node(s, "n1"),
	    "ns", r, kube_snapshot_device(s, "dev.example.com", "n1",
	    "d-small"), &det), DRA_CHECK_OK);
	free(det.message);
	dra_alloc_result_free(&big);
	dra_alloc_result_free(&small);
	dra_allocator_free(a);
	kube_snapshot_free(s);

	/* Consumable capacity: held shares add up with the claim's 30Gi. */
	cs = dratest_load(capacity_yaml);
	a = new_alloc(cs, NULL);
	/* 15Gi: range has 10Gi left; values rounds to 20Gi of 40Gi. */
	alloc_claim(a, cs, "ns", "fifteen", "n1", &v1);
	assert_string_equal(picks(&v1), "dev.example.com/n1/values");
	assert_int_equal(v1.picks[0].consumed[0].value.milli, 20 * GI);
	dra_allocator_hold(a, &v1);
	alloc_claim(a, cs, "ns", "fifteen", "n1", &v2);
	assert_string_equal(picks(&v2), "dev.example.com/n1/values");
	dra_allocator_hold(a, &v2);
	/* 40Gi of values are held now. */
	alloc_claim(a, cs, "ns", "fifteen", "n1", &res);
	assert_int_equal(res.status, DRA_ALLOC_NO_FIT);
	dra_alloc_result_free(&res);
	assert_int_equal(dra_device_check(a, "n1", NULL, "ns",
	    kube_snapshot_claim(cs, "ns", "fifteen")->spec.requests[0].exactly,
	    kube_snapshot_device(cs, "dev.example.com", "n1", "values"), &det),
	    DRA_CHECK_CAPACITY);
	assert_int_equal(det.left, 0);
	free(det.message);
	dra_allocator_unhold(a, &v1);
	alloc_claim(a, cs, "ns", "fifteen", "n1", &res);
	assert_string_equal(picks(&res), "dev.example.com/n1/values");
	dra_alloc_result_free(&res);
	dra_alloc_result_free(&v1);
	dra_alloc_result_free(&v2);
	dra_allocator_free(a);
	kube_snapshot_free(cs);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_node_selector_match),
		cmocka_unit_test(test_backtracking),
		cmocka_unit_test(test_backtracking_constraint),
		cmocka_unit_test(test_counters_across_nodes),
		cmocka_unit_test(test_capacity_rounding),
		cmocka_unit_test(test_taints),
		cmocka_unit_test(test_first_available_and_limit),
		cmocka_unit_test(test_all_and_admin),
		cmocka_unit_test(test_invalid_pool_and_selectors),
		cmocka_unit_test(test_blowup_bound),
		cmocka_unit_test(test_selectors),
		cmocka_unit_test(test_fixes_1_37),
		cmocka_unit_test(test_v1_37_2),
		cmocka_unit_test(test_hold),
		cmocka_unit_test(test_request_reused_memory),
		cmocka_unit_test(test_cases_match_records),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
