/*
 * test_model.c: decoding every served version into one model, pool
 * rules, the joins, and bad input.  Inputs are inline YAML/JSON in the
 * shapes real drivers and the API server produce; the shared cases
 * (../shared/cases) are read from CASES_DIR.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "model.h"
#include "snapshot.h"

static struct kube_snapshot *
load(const char *yaml)
{
	struct kube_snapshot	*s = kube_snapshot_new();
	struct dra_err		 err;

	if (kube_snapshot_load_mem(s, "test.yaml", yaml, strlen(yaml),
	    &err) != KUBE_OK)
		fail_msg("load: %s", err.msg);
	kube_snapshot_finish(s);
	return s;
}

static int
load_err(const char *doc, struct dra_err *err)
{
	struct kube_snapshot	*s = kube_snapshot_new();
	int			 rc;

	rc = kube_snapshot_load_mem(s, "bad.yaml", doc, strlen(doc), err);
	kube_snapshot_free(s);
	return rc;
}

static int
has_warning(const struct kube_snapshot *s, const char *needle)
{
	size_t	i;

	for (i = 0; i < s->warnings.n; i++)
		if (strstr(s->warnings.v[i]->message, needle) != NULL ||
		    strstr(s->warnings.v[i]->object, needle) != NULL)
			return 1;
	return 0;
}

/* The same claim and slice in v1, v1beta2 and v1beta1 shapes. */
static const char *const claim_versions[] = {
	"apiVersion: resource.k8s.io/v1\n"
	"kind: ResourceClaim\n"
	"metadata: {name: c, namespace: ns}\n"
	"spec:\n"
	"  devices:\n"
	"    requests:\n"
	"    - name: gpu\n"
	"      exactly:\n"
	"        deviceClassName: gpu.example.com\n"
	"        count: 2\n"
	"        selectors:\n"
	"        - cel: {expression: \"device.driver == 'x'\"}\n"
	"        tolerations:\n"
	"        - {key: k, operator: Exists, effect: NoSchedule}\n"
	"    - name: fallback\n"
	"      firstAvailable:\n"
	"      - {name: big, deviceClassName: big.example.com}\n"
	"      - {name: small, deviceClassName: small.example.com, "
	"count: 2}\n",

	"apiVersion: resource.k8s.io/v1beta2\n"
	"kind: ResourceClaim\n"
	"metadata: {name: c, namespace: ns}\n"
	"spec:\n"
	"  devices:\n"
	"    requests:\n"
	"    - name: gpu\n"
	"      exactly:\n"
	"        deviceClassName: gpu.example.com\n"
	"        allocationMode: ExactCount\n"
	"        count: 2\n"
	"        selectors:\n"
	"        - cel: {expression: \"device.driver == 'x'\"}\n"
	"        tolerations:\n"
	"        - {key: k, operator: Exists, effect: NoSchedule}\n"
	"    - name: fallback\n"
	"      firstAvailable:\n"
	"      - {name: big, deviceClassName: big.example.com}\n"
	"      - {name: small, deviceClassName: small.example.com, "
	"count: 2}\n",

	"{\"apiVersion\": \"resource.k8s.io/v1beta1\",\n"
	" \"kind\": \"ResourceClaim\",\n"
	" \"metadata\": {\"name\": \"c\", \"namespace\": \"ns\"},\n"
	" \"spec\": {\"devices\": {\"requests\": [\n"
	"  {\"name\": \"gpu\", \"deviceClassName\": \"gpu.example.com\",\n"
	"   \"allocationMode\": \"ExactCount\", \"count\": 2,\n"
	"   \"selectors\": [{\"cel\": {\"expression\": "
	"\"device.driver == 'x'\"}}],\n"
	"   \"tolerations\": [{\"key\": \"k\", \"operator\": \"Exists\","
	" \"effect\": \"NoSchedule\"}]},\n"
	"  {\"name\": \"fallback\", \"deviceClassName\": \"\",\n"
	"   \"firstAvailable\": [{\"name\": \"big\", "
	"\"deviceClassName\": \"big.example.com\"},\n"
	"    {\"name\": \"small\", \"deviceClassName\": "
	"\"small.example.com\", \"count\": 2}]}]}}}\n",
};

static void
test_claim_versions_normalise(void **state)
{
	struct kube_snapshot	*s;
	struct kube_claim	*c;
	struct kube_request	*r;
	size_t			 v;

	(void)state;
	for (v = 0; v < 3; v++) {
		s = load(claim_versions[v]);
		assert_int_equal(s->claims.n, 1);
		c = s->claims.v[0];
		assert_null(c->rejected);
		assert_int_equal(c->spec.nrequests, 2);
		r = &c->spec.requests[0];
		assert_string_equal(r->name, "gpu");
		assert_non_null(r->exactly);
		assert_string_equal(r->exactly->class_name, "gpu.example.com");
		assert_int_equal(r->exactly->mode, KUBE_MODE_EXACT_COUNT);
		assert_int_equal(r->exactly->count, 2);
		assert_int_equal(r->exactly->nselectors, 1);
		assert_string_equal(r->exactly->selectors[0],
		    "device.driver == 'x'");
		assert_int_equal(r->exactly->ntolerations, 1);
		assert_string_equal(r->exactly->tolerations[0].operator,
		    "Exists");
		r = &c->spec.requests[1];
		assert_null(r->exactly);
		assert_int_equal(r->nfirst_available, 2);
		assert_string_equal(r->first_available[1].name, "small");
		assert_string_equal(r->first_available[1].class_name,
		    "small.example.com");
		assert_int_equal(r->first_available[0].count, 1);
		assert_int_equal(r->first_available[1].count, 2);
		assert_int_equal(s->warnings.n, 0);
		kube_snapshot_free(s);
	}
}

static void
test_slice_basic_unwrapped(void **state)
{
	static const char *const docs[] = {
		"apiVersion: resource.k8s.io/v1beta1\n"
		"kind: ResourceSlice\n"
		"metadata: {name: s}\n"
		"spec:\n"
		"  driver: gpu.example.com\n"
		"  nodeName: node-a\n"
		"  pool: {name: node-a, generation: 1, resourceSliceCount: 1}\n"
		"  devices:\n"
		"  - name: gpu-0\n"
		"    basic:\n"
		"      attributes:\n"
		"        model: {string: model-x}\n"
		"        resource.kubernetes.io/pcieRoot: {string: pci0}\n"
		"        index: {int: 3}\n"
		"      capacity:\n"
		"        memory: {value: 40Gi}\n",
		"apiVersion: resource.k8s.io/v1\n"
		"kind: ResourceSlice\n"
		"metadata: {name: s}\n"
		"spec:\n"
		"  driver: gpu.example.com\n"
		"  nodeName: node-a\n"
		"  pool: {name: node-a, generation: 1, resourceSliceCount: 1}\n"
		"  devices:\n"
		"  - name: gpu-0\n"
		"    attributes:\n"
		"      model: {string: model-x}\n"
		"      resource.kubernetes.io/pcieRoot: {string: pci0}\n"
		"      index: {int: 3}\n"
		"    capacity:\n"
		"      memory: {value: 40Gi}\n",
	};
	struct kube_snapshot		*s;
	struct kube_device		*d;
	const struct kube_attr		*a;
	const struct kube_capacity	*c;
	size_t				 v;

	(void)state;
	for (v = 0; v < 2; v++) {
		s = load(docs[v]);
		assert_int_equal(s->ndevices, 1);
		d = kube_snapshot_device(s, "gpu.example.com", "node-a",
		    "gpu-0");
		assert_non_null(d);
		a = kube_device_attr(d, NULL, "model");
		assert_non_null(a);
		assert_int_equal(a->type, KUBE_ATTR_STRING);
		assert_string_equal(a->s, "model-x");
		assert_string_equal(a->domain, "gpu.example.com");
		a = kube_device_attr(d, "resource.kubernetes.io", "pcieRoot");
		assert_non_null(a);
		assert_string_equal(a->s, "pci0");
		a = kube_device_attr(d, NULL, "index");
		assert_int_equal(a->type, KUBE_ATTR_INT);
		assert_int_equal(a->i, 3);
		c = kube_device_capacity(d, NULL, "memory");
		assert_non_null(c);
		assert_int_equal(c->value.milli, INT64_C(42949672960000));
		assert_string_equal(c->value.text, "40Gi");
		assert_string_equal(kube_device_node(d), "node-a");
		assert_int_equal(s->warnings.n, 0);
		kube_snapshot_free(s);
	}
}

/* Case 12: v1beta1 fields inside v1 objects are what the server rejects. */
static void
test_case12_beta_fields_in_v1(void **state)
{
	struct kube_snapshot	*s = kube_snapshot_new();
	struct dra_err		 err;
	struct kube_claim	*c;
	size_t			 i, rejected = 0;

	(void)state;
	assert_int_equal(kube_snapshot_load_file(s, CASES_DIR
	    "/12-v1beta1-fields-in-v1-objects/input.yaml", &err), KUBE_OK);
	kube_snapshot_finish(s);
	assert_true(has_warning(s,
	    "spec.spec.devices.requests[0].deviceClassName: v1beta1 field"));
	assert_true(has_warning(s, "spec.devices[0].basic: v1beta1 field"));
	for (i = 0; i < s->templates.n; i++) {
		if (strcmp(s->templates.v[i]->meta.name,
		    "single-gpu-old-shape") == 0) {
			assert_non_null(s->templates.v[i]->rejected);
			rejected++;
		} else
			assert_null(s->templates.v[i]->rejected);
	}
	for (i = 0; i < s->slices.n; i++) {
		if (strcmp(s->slices.v[i]->meta.name,
		    "node-a-gpu-old-shape") == 0) {
			assert_non_null(s->slices.v[i]->rejected);
			rejected++;
		}
	}
	assert_int_equal(rejected, 2);
	/* The rejected slice is not part of the pool; the v1 one is. */
	assert_int_equal(s->pools.n, 1);
	assert_int_equal(s->pools.v[0]->nslices, 1);
	assert_string_equal(s->pools.v[0]->slices[0]->meta.name,
	    "node-a-gpu");
	/* legacy-claim (v1beta1) reads as a v1 claim. */
	c = kube_snapshot_claim(s, "gpu-test1", "legacy-claim");
	assert_non_null(c);
	assert_null(c->rejected);
	assert_string_equal(c->api_version, "resource.k8s.io/v1beta1");
	assert_non_null(c->spec.requests[0].exactly);
	assert_string_equal(c->spec.requests[0].exactly->class_name,
	    "gpu.example.com");
	assert_int_equal(c->spec.requests[0].exactly->count, 1);
	assert_string_equal(c->spec.requests[0].exactly->mode_text,
	    "ExactCount");
	kube_snapshot_free(s);
}

/* Case 25: claims joined with devices, nodes and pods. */
static void
test_case25_claims_joined(void **state)
{
	struct kube_snapshot	*s = kube_snapshot_new();
	struct dra_err		 err;
	struct kube_claim	*c;
	struct kube_device	*d0, *d1;
	char			 st[64];

	(void)state;
	assert_int_equal(kube_snapshot_load_file(s, CASES_DIR
	    "/25-list-claims-show-allocated-devices/input.yaml", &err),
	    KUBE_OK);
	kube_snapshot_finish(s);
	d0 = kube_snapshot_device(s, "gpu.example.com", "node-a", "gpu-0");
	d1 = kube_snapshot_device(s, "gpu.example.com", "node-a", "gpu-1");
	assert_non_null(d0);
	assert_non_null(d1);

	c = kube_snapshot_claim(s, "serving", "blocker");
	assert_string_equal(kube_claim_state(c, st, sizeof st),
	    "allocated,reserved");
	assert_int_equal(c->nresults, 1);
	assert_ptr_equal(c->results[0].dev, d0);
	assert_string_equal(c->results[0].request, "gpus");
	assert_string_equal(c->alloc_nodes->single_node, "node-a");
	assert_string_equal(c->reserved[0].name, "blocker-pod");
	assert_int_equal(d0->nallocs, 1);
	assert_ptr_equal(d0->allocs[0].claim, c);
	assert_true(d0->state & KUBE_DEV_ALLOCATED);

	c = kube_snapshot_claim(s, "serving", "worker-0-gpu-x7k2p");
	assert_ptr_equal(c->results[0].dev, d1);
	assert_string_equal(c->reserved[0].name, "worker-0");
	assert_string_equal(kube_kv_get(c->meta.annotations,
	    c->meta.nannotations, "resource.kubernetes.io/pod-claim-name"),
	    "gpu");

	c = kube_snapshot_claim(s, "serving", "worker-1-gpu-q9m4d");
	assert_string_equal(kube_claim_state(c, st, sizeof st), "pending");
	assert_int_equal(c->nresults, 0);
	assert_null(c->alloc_nodes);

	assert_int_equal(s->pools.v[0]->ndevices, 2);
	assert_int_equal(s->pools.v[0]->nallocated, 2);
	assert_int_equal(s->warnings.n, 0);
	kube_snapshot_free(s);
}

/* Pools: newest generation only, completeness, invalid pools. */
static void
test_pool_rules(void **state)
{
	static const char *doc =
	    "apiVersion: v1\nkind: List\nitems:\n"
	    "- apiVersion: resource.k8s.io/v1\n  kind: ResourceSlice\n"
	    "  metadata: {name: a-gen1}\n"
	    "  spec: {driver: d, nodeName: a, pool: {name: a, generation: 1,"
	    " resourceSliceCount: 1}, devices: [{name: old-0}, {name: x}]}\n"
	    "- apiVersion: resource.k8s.io/v1\n  kind: ResourceSlice\n"
	    "  metadata: {name: a-gen2}\n"
	    "  spec: {driver: d, nodeName: a, pool: {name: a, generation: 2,"
	    " resourceSliceCount: 1}, devices: [{name: x}]}\n"
	    "- apiVersion: resource.k8s.io/v1\n  kind: ResourceSlice\n"
	    "  metadata: {name: b-1}\n"
	    "  spec: {driver: d, nodeName: b, pool: {name: b, generation: 1,"
	    " resourceSliceCount: 2}, devices: [{name: y}]}\n"
	    "- apiVersion: resource.k8s.io/v1\n  kind: ResourceSlice\n"
	    "  metadata: {name: c-1}\n"
	    "  spec: {driver: d, nodeName: c, pool: {name: c, generation: 1,"
	    " resourceSliceCount: 2}, devices: [{name: z}]}\n"
	    "- apiVersion: resource.k8s.io/v1\n  kind: ResourceSlice\n"
	    "  metadata: {name: c-2}\n"
	    "  spec: {driver: d, nodeName: c, pool: {name: c, generation: 1,"
	    " resourceSliceCount: 2}, devices: [{name: z}]}\n"
	    "- apiVersion: resource.k8s.io/v1\n  kind: ResourceSlice\n"
	    "  metadata: {name: e-1}\n"
	    "  spec: {driver: d, nodeName: e, pool: {name: e, generation: 1,"
	    " resourceSliceCount: 1}, sharedCounters: [{name: cs, counters:"
	    " {mem: {value: 8Gi}}}], devices: [{name: p, consumesCounters:"
	    " [{counterSet: nope, counters: {mem: {value: 1Gi}}}]}]}\n";
	struct kube_snapshot	*s;
	struct kube_pool	*p;

	(void)state;
	s = load(doc);
	assert_int_equal(s->pools.n, 4);

	p = kube_snapshot_pool(s, "d", "a");
	assert_int_equal(p->generation, 2);
	assert_int_equal(p->nslices, 1);
	assert_int_equal(p->nstale, 1);
	assert_true(p->complete);
	assert_null(p->invalid);
	assert_null(kube_snapshot_device(s, "d", "a", "old-0"));
	assert_non_null(kube_snapshot_device(s, "d", "a", "x"));

	p = kube_snapshot_pool(s, "d", "b");
	assert_false(p->complete);
	assert_true(kube_snapshot_device(s, "d", "b", "y")->state &
	    KUBE_DEV_UNUSABLE);
	assert_true(has_warning(s, "incomplete pool: 1 of 2 slices"));

	p = kube_snapshot_pool(s, "d", "c");
	assert_true(p->complete);
	assert_non_null(p->invalid);
	assert_string_equal(p->invalid, "device name z is used more than "
	    "once");

	p = kube_snapshot_pool(s, "d", "e");
	assert_non_null(p->invalid);
	assert_non_null(strstr(p->invalid, "counter set nope"));
	kube_snapshot_free(s);
}

/* Partitionable devices: counters used across the pool block others. */
static void
test_counters_block(void **state)
{
	static const char *doc =
	    "apiVersion: v1\nkind: List\nitems:\n"
	    "- apiVersion: resource.k8s.io/v1\n  kind: ResourceSlice\n"
	    "  metadata: {name: counters}\n"
	    "  spec:\n    driver: d\n    nodeName: n\n"
	    "    pool: {name: n, generation: 1, resourceSliceCount: 2}\n"
	    "    sharedCounters:\n    - name: gpu-0-counter-set\n"
	    "      counters:\n        memory: {value: 8Gi}\n"
	    "        memory-slice-0: {value: \"1\"}\n"
	    "        memory-slice-1: {value: \"1\"}\n"
	    "- apiVersion: resource.k8s.io/v1\n  kind: ResourceSlice\n"
	    "  metadata: {name: devices}\n"
	    "  spec:\n    driver: d\n    nodeName: n\n"
	    "    pool: {name: n, generation: 1, resourceSliceCount: 2}\n"
	    "    devices:\n"
	    "    - name: gpu-0\n      consumesCounters:\n"
	    "      - counterSet: gpu-0-counter-set\n        counters:\n"
	    "          memory: {value: 8Gi}\n"
	    "          memory-slice-0: {value: \"1\"}\n"
	    "          memory-slice-1: {value: \"1\"}\n"
	    "    - name: half-0\n      consumesCounters:\n"
	    "      - counterSet: gpu-0-counter-set\n        counters:\n"
	    "          memory: {value: 4Gi}\n"
	    "          memory-slice-0: {value: \"1\"}\n"
	    "    - name: half-1\n      consumesCounters:\n"
	    "      - counterSet: gpu-0-counter-set\n        counters:\n"
	    "          memory: {value: 4Gi}\n"
	    "          memory-slice-1: {value: \"1\"}\n"
	    "- apiVersion: resource.k8s.io/v1\n  kind: ResourceClaim\n"
	    "  metadata: {name: c, namespace: ns}\n"
	    "  spec: {devices: {requests: [{name: r, exactly: "
	    "{deviceClassName: x}}]}}\n"
	    "  status:\n    allocation:\n      devices:\n        results:\n"
	    "        - {request: r, driver: d, pool: n, device: half-0}\n"
	    "    reservedFor: [{resource: pods, name: p, uid: u}]\n"
	    "- apiVersion: v1\n  kind: Pod\n"
	    "  metadata: {name: p, namespace: ns}\n"
	    "  spec: {nodeName: n, resourceClaims: [{name: gpu, "
	    "resourceClaimName: c}], containers: [{name: x}]}\n"
	    "  status: {phase: Running}\n"
	    "- apiVersion: v1\n  kind: Node\n  metadata: {name: n}\n"
	    "  status: {conditions: [{type: Ready, status: \"True\"}]}\n";
	struct kube_snapshot	*s;
	struct kube_device	*full, *h0, *h1;
	struct kube_counter_set	*cs;
	struct kube_claim	*c;

	(void)state;
	s = load(doc);
	full = kube_snapshot_device(s, "d", "n", "gpu-0");
	h0 = kube_snapshot_device(s, "d", "n", "half-0");
	h1 = kube_snapshot_device(s, "d", "n", "half-1");
	assert_true(h0->state & KUBE_DEV_ALLOCATED);
	assert_true(full->state & KUBE_DEV_BLOCKED);
	assert_string_equal(full->blocked_by, "gpu-0-counter-set/memory");
	assert_false(h1->state & (KUBE_DEV_BLOCKED | KUBE_DEV_ALLOCATED));
	cs = full->consumes[0].set;
	assert_non_null(cs);
	assert_string_equal(cs->name, "gpu-0-counter-set");
	assert_int_equal(cs->consumed[0], INT64_C(4294967296000));
	assert_int_equal(cs->consumed[1], 1000);
	assert_int_equal(cs->consumed[2], 0);
	assert_int_equal(s->pools.v[0]->nblocked, 1);
	c = kube_snapshot_claim(s, "ns", "c");
	assert_int_equal(c->npods, 1);
	assert_string_equal(c->pods[0]->meta.name, "p");
	assert_ptr_equal(s->pods.v[0]->claims[0].claim, c);
	assert_int_equal(kube_snapshot_node(s, "n")->ndevices, 3);
	assert_int_equal(kube_snapshot_node(s, "n")->nallocated, 1);
	assert_int_equal(kube_snapshot_node(s, "n")->ready, 1);
	assert_string_equal(kube_node_ready_text(kube_snapshot_node(s, "n")),
	    "True");
	kube_snapshot_free(s);
}

/*
 * Quantities beyond int64 thousandths decode (saturated, their text
 * kept, white space trimmed as Quantity.UnmarshalJSON trims), and the
 * sums the joins make of them saturate instead of overflowing: nine
 * claims each consuming 16Pi of one shared device, one claim taking
 * 16Pi of a 1Ei counter set.
 */
static void
test_big_quantities(void **state)
{
	static const char *doc =
	    "apiVersion: v1\nkind: List\nitems:\n"
	    "- apiVersion: resource.k8s.io/v1\n  kind: ResourceSlice\n"
	    "  metadata: {name: counters}\n"
	    "  spec:\n    driver: d\n    nodeName: n\n"
	    "    pool: {name: n, generation: 1, resourceSliceCount: 2}\n"
	    "    sharedCounters:\n    - name: fabric\n"
	    "      counters: {memory: {value: 1Ei}}\n"
	    "- apiVersion: resource.k8s.io/v1\n  kind: ResourceSlice\n"
	    "  metadata: {name: devices}\n"
	    "  spec:\n    driver: d\n    nodeName: n\n"
	    "    pool: {name: n, generation: 1, resourceSliceCount: 2}\n"
	    "    devices:\n"
	    "    - name: big\n      capacity:\n"
	    "        memory: {value: 16Pi}\n"
	    "        bandwidth: {value: 1E}\n"
	    "        lanes: {value: \" 9e18 \"}\n"
	    "        plain: {value: 18014398509481984000}\n"
	    "        small: {value: \" 40Gi\"}\n"
	    "    - name: part-0\n      consumesCounters:\n"
	    "      - counterSet: fabric\n"
	    "        counters: {memory: {value: 16Pi}}\n"
	    "    - name: shared\n      allowMultipleAllocations: true\n"
	    "      capacity: {mem: {value: 16Pi}}\n"
	    "- apiVersion: resource.k8s.io/v1\n  kind: ResourceClaim\n"
	    "  metadata: {name: c, namespace: ns}\n"
	    "  spec: {devices: {requests: [{name: r, exactly: "
	    "{deviceClassName: x}}]}}\n"
	    "  status: {allocation: {devices: {results: [{request: r, "
	    "driver: d, pool: n, device: part-0}]}}}\n"
	    "- apiVersion: resource.k8s.io/v1\n  kind: ResourceClaim\n"
	    "  metadata: {name: s0, namespace: ns}\n"
	    "  spec: {devices: {requests: [{name: r, exactly: "
	    "{deviceClassName: x}}]}}\n"
	    "  status: {allocation: {devices: {results: [{request: r, "
	    "driver: d, pool: n, device: shared, shareID: s0, "
	    "consumedCapacity: {mem: 16Pi}}]}}}\n"
	    "- apiVersion: resource.k8s.io/v1\n  kind: ResourceClaim\n"
	    "  metadata: {name: s1, namespace: ns}\n"
	    "  spec: {devices: {requests: [{name: r, exactly: "
	    "{deviceClassName: x}}]}}\n"
	    "  status: {allocation: {devices: {results: [{request: r, "
	    "driver: d, pool: n, device: shared, shareID: s1, "
	    "consumedCapacity: {mem: 16Pi}}]}}}\n"
	    "- apiVersion: resource.k8s.io/v1\n  kind: ResourceClaim\n"
	    "  metadata: {name: s2, namespace: ns}\n"
	    "  spec: {devices: {requests: [{name: r, exactly: "
	    "{deviceClassName: x}}]}}\n"
	    "  status: {allocation: {devices: {results: [{request: r, "
	    "driver: d, pool: n, device: shared, shareID: s2, "
	    "consumedCapacity: {mem: 16Pi}}]}}}\n"
	    "- apiVersion: resource.k8s.io/v1\n  kind: ResourceClaim\n"
	    "  metadata: {name: s3, namespace: ns}\n"
	    "  spec: {devices: {requests: [{name: r, exactly: "
	    "{deviceClassName: x}}]}}\n"
	    "  status: {allocation: {devices: {results: [{request: r, "
	    "driver: d, pool: n, device: shared, shareID: s3, "
	    "consumedCapacity: {mem: 16Pi}}]}}}\n"
	    "- apiVersion: resource.k8s.io/v1\n  kind: ResourceClaim\n"
	    "  metadata: {name: s4, namespace: ns}\n"
	    "  spec: {devices: {requests: [{name: r, exactly: "
	    "{deviceClassName: x}}]}}\n"
	    "  status: {allocation: {devices: {results: [{request: r, "
	    "driver: d, pool: n, device: shared, shareID: s4, "
	    "consumedCapacity: {mem: 16Pi}}]}}}\n"
	    "- apiVersion: resource.k8s.io/v1\n  kind: ResourceClaim\n"
	    "  metadata: {name: s5, namespace: ns}\n"
	    "  spec: {devices: {requests: [{name: r, exactly: "
	    "{deviceClassName: x}}]}}\n"
	    "  status: {allocation: {devices: {results: [{request: r, "
	    "driver: d, pool: n, device: shared, shareID: s5, "
	    "consumedCapacity: {mem: 16Pi}}]}}}\n"
	    "- apiVersion: resource.k8s.io/v1\n  kind: ResourceClaim\n"
	    "  metadata: {name: s6, namespace: ns}\n"
	    "  spec: {devices: {requests: [{name: r, exactly: "
	    "{deviceClassName: x}}]}}\n"
	    "  status: {allocation: {devices: {results: [{request: r, "
	    "driver: d, pool: n, device: shared, shareID: s6, "
	    "consumedCapacity: {mem: 16Pi}}]}}}\n"
	    "- apiVersion: resource.k8s.io/v1\n  kind: ResourceClaim\n"
	    "  metadata: {name: s7, namespace: ns}\n"
	    "  spec: {devices: {requests: [{name: r, exactly: "
	    "{deviceClassName: x}}]}}\n"
	    "  status: {allocation: {devices: {results: [{request: r, "
	    "driver: d, pool: n, device: shared, shareID: s7, "
	    "consumedCapacity: {mem: 16Pi}}]}}}\n"
	    "- apiVersion: resource.k8s.io/v1\n  kind: ResourceClaim\n"
	    "  metadata: {name: s8, namespace: ns}\n"
	    "  spec: {devices: {requests: [{name: r, exactly: "
	    "{deviceClassName: x}}]}}\n"
	    "  status: {allocation: {devices: {results: [{request: r, "
	    "driver: d, pool: n, device: shared, shareID: s8, "
	    "consumedCapacity: {mem: 16Pi}}]}}}\n"
	    ;
	static const struct {
		const char	*name;
		const char	*text;
		int		 saturated;
	} want[] = {
		{ "memory", "16Pi", 1 },
		{ "bandwidth", "1E", 1 },
		{ "lanes", "9e18", 1 },
		{ "plain", "18014398509481984000", 1 },
		{ "small", "40Gi", 0 },
	};
	struct kube_snapshot	*s;
	struct kube_device	*big, *part, *shared;
	size_t			 i;
	char			 buf[64];

	(void)state;
	s = load(doc);
	big = kube_snapshot_device(s, "d", "n", "big");
	part = kube_snapshot_device(s, "d", "n", "part-0");
	shared = kube_snapshot_device(s, "d", "n", "shared");
	assert_non_null(big);
	assert_non_null(part);
	assert_non_null(shared);
	assert_int_equal(big->ncapacity, 5);
	for (i = 0; i < big->ncapacity; i++) {
		assert_string_equal(big->capacity[i].id, want[i].name);
		assert_string_equal(big->capacity[i].value.text,
		    want[i].text);
		if (kube_quantity_saturated(&big->capacity[i].value) !=
		    want[i].saturated)
			fail_msg("%s: saturated %d", want[i].name,
			    !want[i].saturated);
	}
	assert_true(big->capacity[0].value.milli ==
	    KUBE_QUANTITY_MILLI_SAT);
	assert_true(big->capacity[4].value.milli ==
	    INT64_C(42949672960000));
	assert_string_equal(kube_quantity_format(big->capacity[0].value.milli,
	    buf, sizeof buf), ">1Pi");

	/* One claim took 16Pi of the 1Ei set: the bound, not the value. */
	assert_true(part->state & KUBE_DEV_ALLOCATED);
	assert_true(part->consumes[0].set->consumed[0] ==
	    KUBE_QUANTITY_MILLI_SAT);

	/* Nine times 16Pi saturates the sum; int64 never overflows. */
	assert_int_equal(shared->nallocs, 9);
	assert_non_null(shared->capacity_used);
	assert_true(shared->capacity_used[0] == KUBE_QUANTITY_SUM_MAX);
	kube_snapshot_free(s);
}

static void
test_taints_and_rules(void **state)
{
	static const char *doc =
	    "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\n"
	    "metadata: {name: s}\n"
	    "spec:\n  driver: d\n  nodeName: n\n"
	    "  pool: {name: n, generation: 1, resourceSliceCount: 1}\n"
	    "  devices:\n"
	    "  - {name: a, taints: [{key: k, value: v, effect: NoSchedule}]}\n"
	    "  - {name: b, taints: [{key: k, effect: None}]}\n"
	    "  - {name: c, taints: [{key: k, effect: Sparkle}]}\n"
	    "  - {name: e}\n"
	    "---\n"
	    "apiVersion: resource.k8s.io/v1\nkind: DeviceTaintRule\n"
	    "metadata: {name: maint}\n"
	    "spec:\n  deviceSelector: {driver: d, pool: n, device: e}\n"
	    "  taint: {key: maintenance, effect: NoExecute}\n"
	    "---\n"
	    "apiVersion: resource.k8s.io/v1\nkind: DeviceTaintRule\n"
	    "metadata: {name: none}\n"
	    "spec:\n  taint: {key: nothing, effect: NoExecute}\n";
	struct kube_snapshot	*s;
	struct kube_device	*d;

	(void)state;
	s = load(doc);
	d = kube_snapshot_device(s, "d", "n", "a");
	assert_true(d->state & KUBE_DEV_TAINTED);
	d = kube_snapshot_device(s, "d", "n", "b");
	assert_false(d->state & KUBE_DEV_TAINTED);
	d = kube_snapshot_device(s, "d", "n", "c");
	assert_false(d->state & KUBE_DEV_TAINTED);
	assert_int_equal(d->taints[0].effect, KUBE_TAINT_UNKNOWN);
	assert_true(has_warning(s, "unknown taint effect \"Sparkle\""));
	d = kube_snapshot_device(s, "d", "n", "e");
	assert_true(d->state & KUBE_DEV_TAINTED);
	assert_int_equal(d->ntaints, 1);
	assert_string_equal(d->taints[0].rule, "maint");
	assert_string_equal(d->taints[0].key, "maintenance");
	kube_snapshot_free(s);
}

static void
test_unknown_enums_shown(void **state)
{
	static const char *doc =
	    "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n"
	    "metadata: {name: c}\n"
	    "spec: {devices: {requests: [{name: r, exactly: "
	    "{deviceClassName: x, allocationMode: Some}}]}}\n";
	struct kube_snapshot	*s;
	struct kube_claim	*c;

	(void)state;
	s = load(doc);
	c = kube_snapshot_claim(s, "default", "c");
	assert_non_null(c);
	assert_int_equal(c->spec.requests[0].exactly->mode,
	    KUBE_MODE_UNKNOWN);
	assert_string_equal(c->spec.requests[0].exactly->mode_text, "Some");
	assert_true(has_warning(s, "unknown allocation mode \"Some\""));
	kube_snapshot_free(s);
}

static void
test_bad_input(void **state)
{
	static const struct {
		const char	*doc;
		const char	*want;
	} cases[] = {
		{ "kind: ResourceSlice\nmetadata: {name: x\n",
		    "bad.yaml:3:1: " },
		{ "a: [1, 2\nb: 3\n", "bad.yaml:2:" },
		{ "{\"kind\": \"List\", \"items\": [{\"a\": 1},, ]}",
		    "bad.yaml:1:" },
		{ "{\"kind\": \"List\",\n \"items\": [\n {\"kind\": \"Pod\"",
		    "bad.yaml:3:2: unterminated" },
		{ "apiVersion: v1\nkind: List\nitems:\n"
		  "- apiVersion: resource.k8s.io/v1\n  kind: ResourceSlice\n"
		  "  metadata: {name: s}\n"
		  "  spec: {driver: d, pool: {name: p}, devices: [{name: [1]}]}\n",
		    "bad.yaml:4: items[0]: resourceslice s: "
		    "spec.devices[0].name: expected a string, found a list" },
		{ "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\n"
		  "metadata: {name: s}\n"
		  "spec: {driver: d, pool: {name: p}, devices: [{name: a, "
		  "capacity: {memory: {value: 12XB}}}]}\n",
		    "spec.devices[0].capacity[memory].value: quantity "
		    "\"12XB\"" },
		{ "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n"
		  "metadata: {name: c}\nspec: {devices: {requests: [{name: r,"
		  " exactly: {deviceClassName: x, count: many}}]}}\n",
		    "bad.yaml:5: resourceclaim c: "
		    "spec.devices.requests[0].exactly.count: expected an "
		    "integer" },
		{ "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\n"
		  "spec: {driver: d}\n",
		    "metadata: required field is missing" },
		{ "- &a {x: 1}\n- *a\n", "aliases" },
	};
	struct dra_err	err;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_int_equal(load_err(cases[i].doc, &err), KUBE_E_PARSE);
		if (strstr(err.msg, cases[i].want) == NULL)
			fail_msg("case %zu: message \"%s\" lacks \"%s\"", i,
			    err.msg, cases[i].want);
	}
}

static void
test_missing_file(void **state)
{
	struct kube_snapshot	*s = kube_snapshot_new();
	struct dra_err		 err;

	(void)state;
	assert_int_equal(kube_snapshot_load_file(s, "/nonexistent/x.yaml",
	    &err), KUBE_E_IO);
	assert_string_equal(err.msg,
	    "/nonexistent/x.yaml: No such file or directory");
	kube_snapshot_free(s);
}

/* Items of a list without kind take it from the list's kind. */
static void
test_list_kind_inherited(void **state)
{
	static const char *doc =
	    "{\"apiVersion\": \"resource.k8s.io/v1\", \"items\": [\n"
	    " {\"metadata\": {\"name\": \"c1\", \"namespace\": \"a\"}, "
	    "\"spec\": {\"devices\": {}}}],\n"
	    " \"kind\": \"ResourceClaimList\", \"metadata\": {}}\n";
	struct kube_snapshot	*s;

	(void)state;
	s = load(doc);
	assert_int_equal(s->claims.n, 1);
	assert_string_equal(s->claims.v[0]->meta.name, "c1");
	kube_snapshot_free(s);
}

/* Plain YAML literals keep their text where the field is a string. */
static void
test_yaml_literals_kept(void **state)
{
	static const char *doc =
	    "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\n"
	    "metadata: {name: s, labels: {tier: y, rev: 1.10, on: off}}\n"
	    "spec:\n  driver: d\n  nodeName: n\n"
	    "  pool: {name: n, generation: 1, resourceSliceCount: 1}\n"
	    "  devices:\n"
	    "  - name: y\n"
	    "    attributes: {v: {string: 1.10}, n: {int: 0x10}}\n";
	struct kube_snapshot	*s;
	struct kube_slice	*sl;
	struct kube_device	*d;

	(void)state;
	s = load(doc);
	sl = s->slices.v[0];
	assert_string_equal(kube_kv_get(sl->meta.labels, sl->meta.nlabels,
	    "tier"), "y");
	assert_string_equal(kube_kv_get(sl->meta.labels, sl->meta.nlabels,
	    "rev"), "1.10");
	assert_string_equal(kube_kv_get(sl->meta.labels, sl->meta.nlabels,
	    "on"), "off");
	d = kube_snapshot_device(s, "d", "n", "y");
	assert_non_null(d);
	assert_string_equal(kube_device_attr(d, NULL, "v")->s, "1.10");
	assert_int_equal(kube_device_attr(d, NULL, "n")->i, 16);
	kube_snapshot_free(s);
}

#define CLAIM_C	"{\"apiVersion\": \"resource.k8s.io/v1\", " \
	"\"kind\": \"ResourceClaim\", \"metadata\": {\"name\": \"c\", " \
	"\"namespace\": \"a\"}, \"spec\": {\"devices\": {}}}"
#define CLAIM_BARE(n)	"{\"metadata\": {\"name\": \"" n "\", " \
	"\"namespace\": \"a\"}, \"spec\": {\"devices\": {}}}"
#define CLAIM_BAD	"{\"metadata\": {\"name\": \"e\", " \
	"\"namespace\": \"a\"}, \"spec\": {\"devices\": {\"requests\": " \
	"[{\"name\": \"r\", \"exactly\": {\"deviceClassName\": \"x\", " \
	"\"count\": \"many\"}}]}}}"

/*
 * The JSON reader parses each value in place; a malformed one is
 * reported with the message and position of the scanner that cuts it
 * (line:column of the value, or of the byte cJSON stopped at).
 */
static void
test_json_errors(void **state)
{
	static const struct {
		const char	*doc;
		const char	*want;
	} cases[] = {
		{ "{\"kind\": \"List\",\n \"items\": [{\"kind\": \"Pod\", "
		  "\"a\": \"x}]}",
		    "bad.yaml:2:12: unterminated string" },
		{ "{\"kind\": \"List\",\n \"items\": [{\"kind\": \"Pod\"]]}",
		    "bad.yaml:2:26: malformed JSON" },
		{ "{\"kind\": \"List\",\n \"items\": [{\"kind\": \"Pod\" "
		  "\"a\": 1}]}",
		    "bad.yaml:2:27: malformed JSON" },
		{ "{\"kind\": \"List\", \"items\": [tru]}",
		    "bad.yaml:1:31: unexpected closing bracket" },
		{ "{\"kind\": \"List\", \"items\": [nul, {}]}",
		    "bad.yaml:1:28: malformed JSON" },
		{ "{\"kind\": \"List\", \"items\": [\n {\"kind\": \"Pod\"}\n",
		    "bad.yaml:3:1: expected ',' or ']'" },
		{ "[{\"kind\": \"Pod\"}, {]", "bad.yaml:1:1: unterminated "
		  "object or list" },
		{ "{\"kind\": \"List\", \"items\": [" CLAIM_C "] x",
		    "bad.yaml:1:161: expected ',' or '}'" },
		{ "{\"kind\": \"List\", \"items\": [" CLAIM_C "]} x",
		    "bad.yaml:1:162: unexpected data after the object" },
		/* a number ends where its digits do */
		{ "{\"kind\": \"List\", \"items\": [" CLAIM_C "], \"n\": 5x}",
		    "bad.yaml:1:168: expected ',' or '}'" },
		{ "{\"kind\" \"List\"}", "bad.yaml:1:9: expected ':'" },
		{ "{kind: 1}", "bad.yaml:1:2: expected a key" },
		/* a DRA pod whose metadata or nodeName is malformed: an
		 * error, not an abort on a zero-sized allocation */
		{ "{\"kind\": \"List\", \"items\": [{\"apiVersion\": \"v1\", "
		  "\"kind\": \"Pod\", \"metadata\": [], \"spec\": "
		  "{\"resourceClaims\": [{\"name\": \"g\"}]}}]}",
		    "bad.yaml:1: items[0]: pod ?: metadata.metadata: expected "
		    "an object, found a list" },
		{ "{\"kind\": \"List\", \"items\": [{\"apiVersion\": \"v1\", "
		  "\"kind\": \"Pod\", \"metadata\": {\"name\": \"p\", "
		  "\"namespace\": \"a\"}, \"spec\": {\"nodeName\": [1], "
		  "\"resourceClaims\": [{\"name\": \"g\"}]}}]}",
		    "bad.yaml:1: items[0]: pod a/p: spec.nodeName: expected a "
		    "string, found a list" },
	};
	struct dra_err	err;
	size_t		i, bad = 0;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if (load_err(cases[i].doc, &err) != KUBE_E_PARSE)
			snprintf(err.msg, sizeof err.msg, "(loaded)");
		if (strcmp(err.msg, cases[i].want) != 0) {
			print_message("case %zu: message \"%s\", want "
			    "\"%s\"\n", i, err.msg, cases[i].want);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/*
 * Items are numbered and placed on their line, also when their kind
 * comes from a list kind written after them, and in a mapped file.
 */
static void
test_json_items(void **state)
{
	static const char *late =
	    "{\"apiVersion\": \"resource.k8s.io/v1\", \"items\": [\n"
	    CLAIM_BARE("c1") ",\n\n" CLAIM_BARE("c2") ",\n"
	    " " CLAIM_BAD "],\n \"kind\": \"ResourceClaimList\"}\n";
	static const char *early =
	    "{\"apiVersion\": \"resource.k8s.io/v1\",\n"
	    " \"kind\": \"ResourceClaimList\", \"items\": [\n"
	    CLAIM_BARE("c1") ",\n" CLAIM_BARE("c2") ",\n\n\n"
	    " " CLAIM_BAD "]}\n";
	static const char *number_last =
	    "{\"kind\": \"List\", \"items\": [" CLAIM_C "], \"n\": 5}";
	struct kube_snapshot	*s;
	struct dra_err		 err;
	char			 path[] = "/tmp/test_model.XXXXXX";
	FILE			*f;
	int			 fd;

	(void)state;
	assert_int_equal(load_err(late, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "bad.yaml:5: items[2]: resourceclaim "
	    "a/e: spec.devices.requests[0].exactly.count: expected an "
	    "integer, found a string");
	assert_int_equal(load_err(early, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "bad.yaml:7: items[2]: resourceclaim "
	    "a/e: spec.devices.requests[0].exactly.count: expected an "
	    "integer, found a string");

	/* a scalar right before '}' ends the value */
	s = load(number_last);
	assert_int_equal(s->claims.n, 1);
	assert_string_equal(s->claims.v[0]->meta.name, "c");
	kube_snapshot_free(s);

	/* the same through the mapped file */
	fd = mkstemp(path);
	assert_true(fd != -1);
	f = fdopen(fd, "w");
	assert_non_null(f);
	assert_int_equal(fputs(early, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
	s = kube_snapshot_new();
	assert_int_equal(kube_snapshot_load_file(s, path, &err),
	    KUBE_E_PARSE);
	kube_snapshot_free(s);
	unlink(path);
	assert_non_null(strstr(err.msg, ":7: items[2]: resourceclaim a/e: "));
	assert_int_equal(strncmp(err.msg, path, strlen(path)), 0);
}

/*
 * creationTimestamp as seconds since the epoch: the usual form read
 * by hand, days past a month's end carried as timegm() carries them,
 * other spellings through sscanf, anything else 0.
 */
static void
test_timestamps(void **state)
{
	static const struct {
		const char	*ts;
		int64_t		 want;
	} cases[] = {
		{ "1970-01-01T00:00:00Z", 0 },
		{ "1969-12-31T23:59:59Z", -1 },
		{ "2000-03-01T00:00:00Z", 951868800 },
		{ "2026-11-20T10:00:00Z", 1795168800 },
		{ "2026-11-20T10:00:00.123456+00:00", 1795168800 },
		{ "2024-02-29T23:59:60Z", 1709251200 },
		{ "2026-02-30T00:00:00Z", 1772409600 },
		{ "2026-1-5T01:02:03Z", 1767574923 },
		{ "2026-13-01T00:00:00Z", 1798761600 },
		{ "yesterday", 0 },
	};
	struct kube_snapshot	*s;
	char			 doc[512];
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(doc, sizeof doc, "apiVersion: v1\nkind: Namespace\n"
		    "metadata: {name: n, creationTimestamp: \"%s\"}\n",
		    cases[i].ts);
		s = load(doc);
		assert_int_equal(s->namespaces.n, 1);
		if (s->namespaces.v[0]->meta.created != cases[i].want)
			fail_msg("%s: %lld, want %lld", cases[i].ts,
			    (long long)s->namespaces.v[0]->meta.created,
			    (long long)cases[i].want);
		kube_snapshot_free(s);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_claim_versions_normalise),
		cmocka_unit_test(test_slice_basic_unwrapped),
		cmocka_unit_test(test_case12_beta_fields_in_v1),
		cmocka_unit_test(test_case25_claims_joined),
		cmocka_unit_test(test_pool_rules),
		cmocka_unit_test(test_counters_block),
		cmocka_unit_test(test_big_quantities),
		cmocka_unit_test(test_taints_and_rules),
		cmocka_unit_test(test_unknown_enums_shown),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_list_kind_inherited),
		cmocka_unit_test(test_yaml_literals_kept),
		cmocka_unit_test(test_json_errors),
		cmocka_unit_test(test_json_items),
		cmocka_unit_test(test_timestamps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
