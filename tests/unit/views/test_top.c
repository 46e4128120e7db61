/*
 * test_top.c: the figures of `top` (views/top.h) on small snapshots,
 * every value worked out by hand in the comments: whole GPUs (one
 * tainted, a NIC beside them), a DynamicMIG GPU whose counter set is
 * counted once however it is cut, consumable capacity shared by two
 * claims, an incomplete pool, an adminAccess result; the totals row,
 * classes through their CEL selectors and the requests that name them,
 * namespaces, filters, sorting, levels, the table cells, and the
 * Prometheus text (escaping, the exact output of a small pool).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "buf.h"
#include "gpus.h"
#include "snapshot.h"
#include "top.h"

#define GI	(1024LL * 1024 * 1024)
#define H100	"NVIDIA H100 80GB HBM3"
#define EPS	1e-9

/*
 * Whole GPUs on n1: gpu-0 (team-a) and gpu-1 (team-b) allocated,
 * gpu-2 tainted NoSchedule, nic-0 free (no memory); each GPU 80Gi.
 * gpu-3 on n2, held only with adminAccess by team-c.
 */
static const char whole_yaml[] =
"apiVersion: resource.k8s.io/v1\n"
"kind: DeviceClass\n"
"metadata: {name: gpu.example.com, labels: {tier: gpu}}\n"
"spec:\n"
"  selectors:\n"
"  - cel: {expression: \"device.driver == 'gpu.example.com'\"}\n"
"---\n"
"apiVersion: resource.k8s.io/v1\n"
"kind: DeviceClass\n"
"metadata: {name: nic.example.com}\n"
"spec:\n"
"  selectors:\n"
"  - cel: {expression: \"device.driver == 'nic.example.com'\"}\n"
"---\n"
"apiVersion: v1\n"
"kind: Node\n"
"metadata: {name: n1, labels: {pool: big}}\n"
"---\n"
"apiVersion: v1\n"
"kind: Node\n"
"metadata: {name: n2, labels: {pool: small}}\n"
"---\n"
"apiVersion: resource.k8s.io/v1\n"
"kind: ResourceSlice\n"
"metadata: {name: n1-gpu}\n"
"spec:\n"
"  driver: gpu.example.com\n"
"  nodeName: n1\n"
"  pool: {name: n1, generation: 1, resourceSliceCount: 1}\n"
"  devices:\n"
"  - name: gpu-0\n"
"    attributes: {type: {string: gpu}}\n"
"    capacity: {memory: {value: 80Gi}}\n"
"  - name: gpu-1\n"
"    attributes: {type: {string: gpu}}\n"
"    capacity: {memory: {value: 80Gi}}\n"
"  - name: gpu-2\n"
"    attributes: {type: {string: gpu}}\n"
"    capacity: {memory: {value: 80Gi}}\n"
"    taints: [{key: bad, value: xid, effect: NoSchedule}]\n"
"---\n"
"apiVersion: resource.k8s.io/v1\n"
"kind: ResourceSlice\n"
"metadata: {name: n1-nic}\n"
"spec:\n"
"  driver: nic.example.com\n"
"  nodeName: n1\n"
"  pool: {name: n1, generation: 1, resourceSliceCount: 1}\n"
"  devices:\n"
"  - name: nic-0\n"
"---\n"
"apiVersion: resource.k8s.io/v1\n"
"kind: ResourceSlice\n"
"metadata: {name: n2-gpu}\n"
"spec:\n"
"  driver: gpu.example.com\n"
"  nodeName: n2\n"
"  pool: {name: n2, generation: 1, resourceSliceCount: 1}\n"
"  devices:\n"
"  - name: gpu-3\n"
"    attributes: {type: {string: gpu}}\n"
"    capacity: {memory: {value: 80Gi}}\n"
"---\n"
"apiVersion: resource.k8s.io/v1\n"
"kind: ResourceClaim\n"
"metadata: {name: a, namespace: team-a}\n"
"spec:\n"
"  devices:\n"
"    requests:\n"
"    - name: g\n"
"      exactly: {deviceClassName: gpu.example.com}\n"
"status:\n"
"  allocation:\n"
"    devices:\n"
"      results:\n"
"      - {request: g, driver: gpu.example.com, pool: n1, device: gpu-0}\n"
"---\n"
"apiVersion: resource.k8s.io/v1\n"
"kind: ResourceClaim\n"
"metadata: {name: b, namespace: team-b}\n"
"spec:\n"
"  devices:\n"
"    requests:\n"
"    - name: g\n"
"      firstAvailable:\n"
"      - {name: big, deviceClassName: gpu.example.com}\n"
"status:\n"
"  allocation:\n"
"    devices:\n"
"      results:\n"
"      - {request: g/big, driver: gpu.example.com, pool: n1, "
"device: gpu-1}\n"
"---\n"
"apiVersion: resource.k8s.io/v1\n"
"kind: ResourceClaim\n"
"metadata: {name: c, namespace: team-c}\n"
"spec:\n"
"  devices:\n"
"    requests:\n"
"    - name: g\n"
"      exactly: {deviceClassName: gpu.example.com, adminAccess: true}\n"
"status:\n"
"  allocation:\n"
"    devices:\n"
"      results:\n"
"      - {request: g, driver: gpu.example.com, pool: n2, device: gpu-3,"
" adminAccess: true}\n"
"---\n"
"apiVersion: resource.k8s.io/v1\n"
"kind: ResourceClaim\n"
"metadata: {name: wait, namespace: team-a}\n"
"spec:\n"
"  devices:\n"
"    requests:\n"
"    - name: n\n"
"      exactly: {deviceClassName: nic.example.com}\n";

/*
 * One DynamicMIG GPU on node m: counter set gpu-0-cs with memory 80Gi,
 * multiprocessors 132 and memory-slice-0..7; devices gpu-0 (whole:
 * all of it), 7g (all slices), 3g at 0 (slices 0-3, 40Gi, 60 SMs),
 * 1g at 4 and 1g at 5 (one slice, 10Gi, 16 SMs each).  team-a holds
 * the 3g, team-b the first 1g.
 */
static const char dyn_yaml[] =
"apiVersion: resource.k8s.io/v1\n"
"kind: DeviceClass\n"
"metadata: {name: mig}\n"
"spec:\n"
"  selectors:\n"
"  - cel: {expression: \"device.attributes['gpu.nvidia.com'].type "
"== 'mig'\"}\n"
"---\n"
"apiVersion: resource.k8s.io/v1\n"
"kind: DeviceClass\n"
"metadata: {name: gpu}\n"
"spec:\n"
"  selectors:\n"
"  - cel: {expression: \"device.attributes['gpu.nvidia.com'].type "
"== 'gpu'\"}\n"
"---\n"
"apiVersion: resource.k8s.io/v1\n"
"kind: ResourceSlice\n"
"metadata: {name: m-counters}\n"
"spec:\n"
"  driver: gpu.nvidia.com\n"
"  nodeName: m\n"
"  pool: {name: m, generation: 1, resourceSliceCount: 2}\n"
"  sharedCounters:\n"
"  - name: gpu-0-cs\n"
"    counters:\n"
"      memory: {value: 80Gi}\n"
"      multiprocessors: {value: \"132\"}\n"
"      memory-slice-0: {value: \"1\"}\n"
"      memory-slice-1: {value: \"1\"}\n"
"      memory-slice-2: {value: \"1\"}\n"
"      memory-slice-3: {value: \"1\"}\n"
"      memory-slice-4: {value: \"1\"}\n"
"      memory-slice-5: {value: \"1\"}\n"
"      memory-slice-6: {value: \"1\"}\n"
"      memory-slice-7: {value: \"1\"}\n"
"---\n"
"apiVersion: resource.k8s.io/v1\n"
"kind: ResourceSlice\n"
"metadata: {name: m-devices}\n"
"spec:\n"
"  driver: gpu.nvidia.com\n"
"  nodeName: m\n"
"  pool: {name: m, generation: 1, resourceSliceCount: 2}\n"
"  devices:\n"
"  - name: gpu-0\n"
"    attributes: {type: {string: gpu}, productName: {string: " H100 "}}\n"
"    capacity: {memory: {value: 80Gi}}\n"
"    consumesCounters:\n"
"    - counterSet: gpu-0-cs\n"
"      counters: {memory: {value: 80Gi}, multiprocessors: {value: \"132\"},"
" memory-slice-0: {value: \"1\"}, memory-slice-1: {value: \"1\"},"
" memory-slice-2: {value: \"1\"}, memory-slice-3: {value: \"1\"},"
" memory-slice-4: {value: \"1\"}, memory-slice-5: {value: \"1\"},"
" memory-slice-6: {value: \"1\"}, memory-slice-7: {value: \"1\"}}\n"
"  - name: gpu-0-mig-7g80gb-0-0\n"
"    attributes: {type: {string: mig}, profile: {string: 7g.80gb},\n"
"      productName: {string: " H100 "}}\n"
"    capacity: {memory: {value: 80Gi}}\n"
"    consumesCounters:\n"
"    - counterSet: gpu-0-cs\n"
"      counters: {memory: {value: 80Gi}, multiprocessors: {value: \"132\"},"
" memory-slice-0: {value: \"1\"}, memory-slice-1: {value: \"1\"},"
" memory-slice-2: {value: \"1\"}, memory-slice-3: {value: \"1\"},"
" memory-slice-4: {value: \"1\"}, memory-slice-5: {value: \"1\"},"
" memory-slice-6: {value: \"1\"}, memory-slice-7: {value: \"1\"}}\n"
"  - name: gpu-0-mig-3g40gb-9-0\n"
"    attributes: {type: {string: mig}, profile: {string: 3g.40gb},\n"
"      productName: {string: " H100 "}}\n"
"    capacity: {memory: {value: 40Gi}}\n"
"    consumesCounters:\n"
"    - counterSet: gpu-0-cs\n"
"      counters: {memory: {value: 40Gi}, multiprocessors: {value: \"60\"},"
" memory-slice-0: {value: \"1\"}, memory-slice-1: {value: \"1\"},"
" memory-slice-2: {value: \"1\"}, memory-slice-3: {value: \"1\"}}\n"
"  - name: gpu-0-mig-1g10gb-19-4\n"
"    attributes: {type: {string: mig}, profile: {string: 1g.10gb},\n"
"      productName: {string: " H100 "}}\n"
"    capacity: {memory: {value: 10Gi}}\n"
"    consumesCounters:\n"
"    - counterSet: gpu-0-cs\n"
"      counters: {memory: {value: 10Gi}, multiprocessors: {value: \"16\"},"
" memory-slice-4: {value: \"1\"}}\n"
"  - name: gpu-0-mig-1g10gb-19-5\n"
"    attributes: {type: {string: mig}, profile: {string: 1g.10gb},\n"
"      productName: {string: " H100 "}}\n"
"    capacity: {memory: {value: 10Gi}}\n"
"    consumesCounters:\n"
"    - counterSet: gpu-0-cs\n"
"      counters: {memory: {value: 10Gi}, multiprocessors: {value: \"16\"},"
" memory-slice-5: {value: \"1\"}}\n"
"---\n"
"apiVersion: resource.k8s.io/v1\n"
"kind: ResourceClaim\n"
"metadata: {name: big, namespace: team-a}\n"
"spec:\n"
"  devices:\n"
"    requests:\n"
"    - name: m\n"
"      exactly: {deviceClassName: mig}\n"
"status:\n"
"  allocation:\n"
"    devices:\n"
"      results:\n"
"      - {request: m, driver: gpu.nvidia.com, pool: m, "
"device: gpu-0-mig-3g40gb-9-0}\n"
"---\n"
"apiVersion: resource.k8s.io/v1\n"
"kind: ResourceClaim\n"
"metadata: {name: small, namespace: team-b}\n"
"spec:\n"
"  devices:\n"
"    requests:\n"
"    - name: m\n"
"      exactly: {deviceClassName: mig}\n"
"status:\n"
"  allocation:\n"
"    devices:\n"
"      results:\n"
"      - {request: m, driver: gpu.nvidia.com, pool: m, "
"device: gpu-0-mig-1g10gb-19-4}\n";

/*
 * A shareable device (40Gi of memory, allowMultipleAllocations) on s1
 * held by two claims of team-a that consumed 10Gi and 20Gi; a second
 * pool on s2 that says it has 2 slices but publishes 1 (incomplete:
 * its device is unusable).
 */
static const char shared_yaml[] =
"apiVersion: resource.k8s.io/v1\n"
"kind: ResourceSlice\n"
"metadata: {name: s1}\n"
"spec:\n"
"  driver: gpu.example.com\n"
"  nodeName: s1\n"
"  pool: {name: s1, generation: 1, resourceSliceCount: 1}\n"
"  devices:\n"
"  - name: gpu-0\n"
"    allowMultipleAllocations: true\n"
"    capacity: {memory: {value: 40Gi}}\n"
"---\n"
"apiVersion: resource.k8s.io/v1\n"
"kind: ResourceSlice\n"
"metadata: {name: s2-a}\n"
"spec:\n"
"  driver: gpu.example.com\n"
"  nodeName: s2\n"
"  pool: {name: s2, generation: 1, resourceSliceCount: 2}\n"
"  devices:\n"
"  - name: gpu-0\n"
"    capacity: {memory: {value: 40Gi}}\n"
"---\n"
"apiVersion: resource.k8s.io/v1\n"
"kind: ResourceClaim\n"
"metadata: {name: x, namespace: team-a}\n"
"spec:\n"
"  devices:\n"
"    requests:\n"
"    - {name: g, exactly: {deviceClassName: shared}}\n"
"status:\n"
"  allocation:\n"
"    devices:\n"
"      results:\n"
"      - {request: g, driver: gpu.example.com, pool: s1, device: gpu-0,"
" shareID: 00000000-0000-0000-0000-000000000001,"
" consumedCapacity: {memory: 10Gi}}\n"
"---\n"
"apiVersion: resource.k8s.io/v1\n"
"kind: ResourceClaim\n"
"metadata: {name: y, namespace: team-a}\n"
"spec:\n"
"  devices:\n"
"    requests:\n"
"    - {name: g, exactly: {deviceClassName: shared}}\n"
"status:\n"
"  allocation:\n"
"    devices:\n"
"      results:\n"
"      - {request: g, driver: gpu.example.com, pool: s1, device: gpu-0,"
" shareID: 00000000-0000-0000-0000-000000000002,"
" consumedCapacity: {memory: 20Gi}}\n";

static struct kube_snapshot *
load_text(const char *doc)
{
	struct kube_snapshot	*s = kube_snapshot_new();
	struct dra_err		 err;

	if (kube_snapshot_load_mem(s, "test.yaml", doc, strlen(doc), &err) !=
	    KUBE_OK)
		fail_msg("load: %s", err.msg);
	kube_snapshot_finish(s);
	return s;
}

static struct dra_top *
top_of(const struct kube_snapshot *s, enum dra_top_kind kind,
    const struct dra_filter *f)
{
	struct dra_top	*t;
	struct dra_err	 err;

	dra_err_clear(&err);
	t = dra_top_build(s, kind, f, &err);
	if (t == NULL)
		fail_msg("dra_top_build: %s", err.msg);
	return t;
}

static const struct dra_top_row *
row_named(const struct dra_top *t, const char *name)
{
	size_t	i;

	for (i = 0; i < t->nrows; i++) {
		if (strcmp(t->rows[i].name, name) == 0)
			return &t->rows[i];
	}
	fail_msg("no row %s", name);
	return NULL;
}

static const struct dra_top_amount *
amount_named(const struct dra_top_amount *v, size_t n, const char *name)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (strcmp(v[i].name, name) == 0)
			return &v[i];
	}
	fail_msg("no amount %s", name);
	return NULL;
}

static void
near(double a, double b)
{
	if (fabs(a - b) > EPS)
		fail_msg("%.9f != %.9f", a, b);
}

/* Whole GPUs by node: states, memory, GPUs and compute; the totals. */
static void
test_whole_nodes(void **state)
{
	struct kube_snapshot		*s = load_text(whole_yaml);
	struct dra_top			*t = top_of(s, DRA_TOP_NODES, NULL);
	const struct dra_top_row	*r;

	(void)state;
	assert_int_equal(t->nrows, 2);
	r = &t->rows[0];
	assert_string_equal(r->name, "n1");
	/* gpu-0, gpu-1 held; gpu-2 tainted; nic-0 free. */
	assert_int_equal(r->devices, 4);
	assert_int_equal(r->allocated, 2);
	assert_int_equal(r->free, 1);
	assert_int_equal(r->tainted, 1);
	assert_int_equal(r->blocked, 0);
	assert_int_equal(r->unusable, 0);
	assert_int_equal(r->mem_used, 160 * GI);
	assert_int_equal(r->mem_total, 240 * GI);
	/* Three whole GPUs (the NIC is none), two held: 2/3. */
	assert_int_equal(r->gpus, 3);
	assert_int_equal(r->gpus_used, 2);
	near(r->compute, 2.0 / 3);
	/* n2: gpu-3 held only with adminAccess: not allocated. */
	r = &t->rows[1];
	assert_string_equal(r->name, "n2");
	assert_int_equal(r->devices, 1);
	assert_int_equal(r->allocated, 0);
	assert_int_equal(r->free, 1);
	assert_int_equal(r->mem_used, 0);
	assert_int_equal(r->mem_total, 80 * GI);
	assert_int_equal(r->gpus_used, 0);
	near(r->compute, 0);
	/* Totals: 2 of 5 devices, 160Gi of 320Gi, 2 of 4 GPUs, mean 2/4. */
	assert_string_equal(t->total.name, "*");
	assert_int_equal(t->total.devices, 5);
	assert_int_equal(t->total.allocated, 2);
	assert_int_equal(t->total.mem_used, 160 * GI);
	assert_int_equal(t->total.mem_total, 320 * GI);
	assert_int_equal(t->total.gpus, 4);
	assert_int_equal(t->total.gpus_used, 2);
	near(t->total.compute, 0.5);
	assert_int_equal(t->total.ncounters, 0);
	dra_top_free(t);
	kube_snapshot_free(s);
}

/* Namespaces: what their claims hold, pending claims, shares. */
static void
test_whole_namespaces(void **state)
{
	struct kube_snapshot		*s = load_text(whole_yaml);
	struct dra_top			*t;
	const struct dra_top_row	*r;

	(void)state;
	t = top_of(s, DRA_TOP_NAMESPACES, NULL);
	assert_int_equal(t->nrows, 3);
	r = row_named(t, "team-a");
	assert_int_equal(r->claims, 1);
	assert_int_equal(r->pending, 1);
	assert_int_equal(r->allocated, 1);
	assert_int_equal(r->devices, 5);	/* the cluster's */
	assert_int_equal(r->mem_used, 80 * GI);
	assert_int_equal(r->mem_total, 320 * GI);
	assert_int_equal(r->gpus_used, 1);
	assert_int_equal(r->gpus, 4);
	near(r->compute, 0.25);
	r = row_named(t, "team-b");
	assert_int_equal(r->allocated, 1);
	assert_int_equal(r->mem_used, 80 * GI);
	/* team-c's adminAccess result holds nothing. */
	r = row_named(t, "team-c");
	assert_int_equal(r->claims, 1);
	assert_int_equal(r->allocated, 0);
	assert_int_equal(r->mem_used, 0);
	assert_int_equal(r->gpus_used, 0);
	assert_int_equal(t->total.claims, 3);
	assert_int_equal(t->total.pending, 1);
	assert_int_equal(t->total.allocated, 2);
	assert_int_equal(t->total.mem_used, 160 * GI);
	assert_int_equal(t->total.gpus_used, 2);
	near(t->total.compute, 0.5);
	dra_top_free(t);
	kube_snapshot_free(s);
}

/*
 * Classes: CEL matches, the states of the matched devices, claims
 * through the class's requests (adminAccess ones too, as namespaces
 * count them).
 */
static void
test_whole_classes(void **state)
{
	struct kube_snapshot		*s = load_text(whole_yaml);
	struct dra_top			*t = top_of(s, DRA_TOP_CLASSES, NULL);
	const struct dra_top_row	*r;

	(void)state;
	assert_int_equal(t->nrows, 2);
	r = row_named(t, "gpu.example.com");
	assert_int_equal(r->devices, 4);	/* gpu-0..3 */
	assert_int_equal(r->allocated, 2);	/* a's and b/big's */
	assert_int_equal(r->tainted, 1);	/* gpu-2 */
	assert_int_equal(r->free, 1);		/* gpu-3: admin only */
	assert_int_equal(r->in_use, 2);
	assert_int_equal(r->mem_total, 320 * GI);
	assert_int_equal(r->mem_used, 160 * GI);
	assert_int_equal(r->claims, 3);		/* c (admin only) too */
	assert_int_equal(r->pending, 0);
	r = row_named(t, "nic.example.com");
	assert_int_equal(r->devices, 1);
	assert_int_equal(r->allocated, 0);
	assert_int_equal(r->mem_total, 0);
	assert_int_equal(r->pending, 1);	/* team-a/wait */
	assert_int_equal(t->total.devices, 5);
	assert_int_equal(t->total.allocated, 2);
	assert_int_equal(t->total.claims, 3);
	assert_int_equal(t->total.pending, 1);
	assert_int_equal(t->nwarnings, 0);
	dra_top_free(t);
	kube_snapshot_free(s);
}

/*
 * DynamicMIG: the GPU's 80Gi counted once through its counter set
 * (the devices' capacities add up to 220Gi), 50Gi consumed; gpu-0 and
 * the 7g blocked by the counters the 3g and the 1g use.
 */
static void
test_dynamic_mig(void **state)
{
	struct kube_snapshot		*s = load_text(dyn_yaml);
	struct dra_top			*t = top_of(s, DRA_TOP_NODES, NULL);
	const struct dra_top_row	*r;
	const struct dra_top_amount	*a;

	(void)state;
	assert_int_equal(t->nrows, 1);
	r = &t->rows[0];
	assert_int_equal(r->devices, 5);
	assert_int_equal(r->allocated, 2);
	assert_int_equal(r->blocked, 2);
	assert_int_equal(r->free, 1);
	assert_int_equal(r->in_use, 4);
	assert_int_equal(r->mem_used, 50 * GI);
	assert_int_equal(r->mem_total, 80 * GI);
	/* Counters by name, "memory" left out: 8 slices + SMs. */
	assert_int_equal(r->ncounters, 9);
	a = amount_named(r->counters, r->ncounters, "multiprocessors");
	assert_int_equal(a->used, 76 * 1000);
	assert_int_equal(a->total, 132 * 1000);
	a = amount_named(r->counters, r->ncounters, "memory-slice-4");
	assert_int_equal(a->used, 1000);
	a = amount_named(r->counters, r->ncounters, "memory-slice-5");
	assert_int_equal(a->used, 0);
	/* Sorted by name, naturally. */
	assert_string_equal(r->counters[0].name, "memory-slice-0");
	assert_string_equal(r->counters[8].name, "multiprocessors");
	/* One GPU; compute 3g + 1g of 7 slices. */
	assert_int_equal(r->gpus, 1);
	assert_int_equal(r->gpus_used, 1);
	near(r->compute, 4.0 / 7);
	/* The per-set detail keeps all 10 counters, memory too. */
	assert_int_equal(t->ncounters, 10);
	assert_string_equal(t->counters[0].counter, "memory");
	assert_int_equal(t->counters[0].used, 50 * GI * 1000);
	assert_string_equal(t->counters[0].set, "gpu-0-cs");
	dra_top_free(t);

	/*
	 * Classes: both see the one counter set's 80Gi, 50Gi of it in
	 * use.  mig: the 3g and a 1g allocated, the 7g blocked, the other
	 * 1g free: 3 of 4 in use.  gpu: the whole-GPU device blocked by
	 * its MIG siblings, so 1 of 1 in use (100%, over the ceiling),
	 * as doctor's utilization counts it, although no claim of the
	 * class holds it.
	 */
	t = top_of(s, DRA_TOP_CLASSES, NULL);
	r = row_named(t, "mig");
	assert_int_equal(r->devices, 4);
	assert_int_equal(r->allocated, 2);
	assert_int_equal(r->blocked, 1);
	assert_int_equal(r->free, 1);
	assert_int_equal(r->in_use, 3);
	assert_int_equal(r->mem_total, 80 * GI);
	assert_int_equal(r->mem_used, 50 * GI);
	r = row_named(t, "gpu");
	assert_int_equal(r->devices, 1);
	assert_int_equal(r->allocated, 0);
	assert_int_equal(r->blocked, 1);
	assert_int_equal(r->in_use, 1);
	assert_int_equal(dra_top_percent(r->in_use, r->devices - r->unusable,
	    NULL, 0), DRA_TOP_LEVEL_OVER);
	assert_int_equal(r->mem_total, 80 * GI);
	assert_int_equal(r->mem_used, 50 * GI);
	assert_int_equal(t->total.devices, 5);
	assert_int_equal(t->total.in_use, 4);
	assert_int_equal(t->total.mem_total, 80 * GI);
	assert_int_equal(t->total.mem_used, 50 * GI);
	dra_top_free(t);

	/* Namespaces: team-a 40Gi, team-b 10Gi of the cluster's 80Gi. */
	t = top_of(s, DRA_TOP_NAMESPACES, NULL);
	r = row_named(t, "team-a");
	assert_int_equal(r->mem_used, 40 * GI);
	assert_int_equal(r->mem_total, 80 * GI);
	near(r->compute, 3.0 / 7);
	r = row_named(t, "team-b");
	assert_int_equal(r->mem_used, 10 * GI);
	near(r->compute, 1.0 / 7);
	assert_int_equal(t->total.gpus_used, 1);
	dra_top_free(t);
	kube_snapshot_free(s);
}

/* Consumable capacity shared by two claims; an incomplete pool. */
static void
test_consumable_incomplete(void **state)
{
	struct kube_snapshot		*s = load_text(shared_yaml);
	struct dra_top			*t = top_of(s, DRA_TOP_POOLS, NULL);
	const struct dra_top_row	*r;

	(void)state;
	assert_int_equal(t->nrows, 2);
	r = &t->rows[0];
	assert_string_equal(r->driver, "gpu.example.com");
	assert_string_equal(r->pool, "s1");
	assert_string_equal(r->node, "s1");
	assert_int_equal(r->devices, 1);
	assert_int_equal(r->allocated, 1);
	assert_int_equal(r->mem_used, 30 * GI);
	assert_int_equal(r->mem_total, 40 * GI);
	assert_int_equal(r->nconsumable, 1);
	assert_string_equal(r->consumable[0].name, "memory");
	assert_int_equal(r->consumable[0].used, 30 * GI * 1000);
	assert_int_equal(r->consumable[0].total, 40 * GI * 1000);
	r = &t->rows[1];
	assert_string_equal(r->pool, "s2");
	assert_int_equal(r->devices, 1);
	assert_int_equal(r->unusable, 1);
	assert_int_equal(r->free, 0);
	assert_int_equal(r->in_use, 0);
	/* An unusable pool's memory is left out. */
	assert_int_equal(r->mem_total, 0);
	assert_int_equal(t->total.unusable, 1);
	assert_int_equal(t->total.mem_total, 40 * GI);
	dra_top_free(t);

	/* The namespace holds the one device once, 30Gi of it. */
	t = top_of(s, DRA_TOP_NAMESPACES, NULL);
	r = row_named(t, "team-a");
	assert_int_equal(r->claims, 2);
	assert_int_equal(r->allocated, 1);
	assert_int_equal(r->mem_used, 30 * GI);
	dra_top_free(t);
	kube_snapshot_free(s);
}

/* Filters: node names and labels, class labels, one namespace. */
static void
test_filters(void **state)
{
	struct kube_snapshot	*s = load_text(whole_yaml);
	struct dra_selector	*sel;
	struct dra_filter	 f;
	struct dra_top		*t;
	struct dra_err		 err;
	char			 n2[] = "n2", nope[] = "nope";
	char			*names[] = { n2, nope };
	int			 matched[2] = { 0, 0 };

	(void)state;
	memset(&f, 0, sizeof f);
	f.names = names;
	f.nnames = 2;
	f.matched = matched;
	t = top_of(s, DRA_TOP_NODES, &f);
	assert_int_equal(t->nrows, 1);
	assert_string_equal(t->rows[0].name, "n2");
	assert_int_equal(matched[0], 1);
	assert_int_equal(matched[1], 0);
	/* The totals are the rows shown. */
	assert_int_equal(t->total.devices, 1);
	dra_top_free(t);

	assert_int_equal(dra_selector_parse("pool=big", &sel, &err), KUBE_OK);
	memset(&f, 0, sizeof f);
	f.selector = sel;
	t = top_of(s, DRA_TOP_NODES, &f);
	assert_int_equal(t->nrows, 1);
	assert_string_equal(t->rows[0].name, "n1");
	dra_top_free(t);
	dra_selector_free(sel);

	assert_int_equal(dra_selector_parse("tier=gpu", &sel, &err), KUBE_OK);
	f.selector = sel;
	t = top_of(s, DRA_TOP_CLASSES, &f);
	assert_int_equal(t->nrows, 1);
	assert_string_equal(t->rows[0].name, "gpu.example.com");
	dra_top_free(t);
	dra_selector_free(sel);

	memset(&f, 0, sizeof f);
	f.namespace = "team-b";
	t = top_of(s, DRA_TOP_NAMESPACES, &f);
	assert_int_equal(t->nrows, 1);
	assert_string_equal(t->rows[0].name, "team-b");
	assert_int_equal(t->total.allocated, 1);
	dra_top_free(t);
	/* A namespace without claims still has its row. */
	f.namespace = "empty";
	t = top_of(s, DRA_TOP_NAMESPACES, &f);
	assert_int_equal(t->nrows, 1);
	assert_int_equal(t->rows[0].claims, 0);
	dra_top_free(t);
	kube_snapshot_free(s);
}

static void
swap_rows(struct dra_top *t)
{
	struct dra_top_row	r = t->rows[0];

	t->rows[0] = t->rows[1];
	t->rows[1] = r;
}

/* Sorting, levels, kinds, the table cells and colour levels. */
static void
test_sort_table(void **state)
{
	struct kube_snapshot	*s = load_text(whole_yaml);
	struct dra_top		*t = top_of(s, DRA_TOP_NODES, NULL);
	struct dra_table	*tb;
	struct dra_err		 err;
	enum dra_top_kind	 k;
	unsigned char		*lv;
	size_t			 i;

	(void)state;
	assert_int_equal(dra_top_level(79, 100), DRA_TOP_LEVEL_LOW);
	assert_int_equal(dra_top_level(80, 100), DRA_TOP_LEVEL_HIGH);
	assert_int_equal(dra_top_level(95, 100), DRA_TOP_LEVEL_HIGH);
	assert_int_equal(dra_top_level(96, 100), DRA_TOP_LEVEL_OVER);
	assert_int_equal(dra_top_level(1, 0), DRA_TOP_LEVEL_NONE);
	assert_int_equal(dra_top_kind_parse("NO", &k), 0);
	assert_int_equal(k, DRA_TOP_NODES);
	assert_int_equal(dra_top_kind_parse("ns", &k), 0);
	assert_int_equal(k, DRA_TOP_NAMESPACES);
	assert_int_equal(dra_top_kind_parse("deviceclass", &k), 0);
	assert_int_equal(k, DRA_TOP_CLASSES);
	assert_int_equal(dra_top_kind_parse("pods", &k), -1);

	/* n2 has no memory in use: last by memory; rows swapped first. */
	swap_rows(t);
	assert_string_equal(t->rows[0].name, "n2");
	assert_int_equal(dra_top_sort(t, "GPU-MEMORY", &err), KUBE_OK);
	assert_string_equal(t->rows[0].name, "n1");
	swap_rows(t);
	assert_int_equal(dra_top_sort(t, "name", &err), KUBE_OK);
	assert_string_equal(t->rows[0].name, "n1");
	swap_rows(t);
	assert_int_equal(dra_top_sort(t, "devices", &err), KUBE_OK);
	assert_string_equal(t->rows[0].name, "n1");
	assert_int_equal(dra_top_sort(t, "claims", &err), KUBE_E_CONFIG);
	assert_non_null(strstr(err.msg, "unknown sort column \"claims\""));

	/*
	 * The default table: 5 columns (80 of a terminal hold them);
	 * counters, consumable capacity and the states are -o wide's.
	 */
	tb = dra_top_table(t, 0, &lv);
	assert_int_equal(tb->ncolumns, 5);
	assert_int_equal(tb->nrows, 3);
	assert_string_equal(tb->columns[2].name, "GPU-MEMORY");
	assert_string_equal(tb->columns[4].name, "COMPUTE");
	assert_string_equal(tb->rows[0].cells[0], "*");
	assert_string_equal(tb->rows[0].cells[1], "2/5 (40%)");
	assert_string_equal(tb->rows[0].cells[2], "160/320Gi (50%)");
	assert_string_equal(tb->rows[0].cells[3], "2/4");
	assert_string_equal(tb->rows[0].cells[4], "50%");
	assert_string_equal(tb->rows[1].cells[2], "160/240Gi (66%)");
	assert_string_equal(tb->rows[1].cells[4], "66%");
	assert_int_equal(lv[1 * 5 + 1], DRA_TOP_LEVEL_LOW);
	assert_int_equal(lv[0], DRA_TOP_LEVEL_NONE);
	free(lv);
	dra_table_free(tb);

	/* Wide: the five states add up to the devices. */
	tb = dra_top_table(t, 1, &lv);
	assert_int_equal(tb->ncolumns, 12);
	assert_string_equal(tb->columns[7].name, "ALLOCATED");
	assert_string_equal(tb->columns[11].name, "FREE");
	assert_string_equal(tb->rows[1].cells[0], "n1");
	assert_string_equal(tb->rows[1].cells[7], "2");	/* allocated */
	assert_string_equal(tb->rows[1].cells[8], "0");	/* blocked */
	assert_string_equal(tb->rows[1].cells[9], "1");	/* tainted */
	assert_string_equal(tb->rows[1].cells[10], "0");	/* unusable */
	assert_string_equal(tb->rows[1].cells[11], "1");	/* free */
	free(lv);
	dra_table_free(tb);

	/*
	 * 951 of 1000 devices in use is above the ceiling: the cell says
	 * 95.1%, not 95%, and its colour is red; 950 is 95%, yellow.
	 */
	t->rows[0].in_use = 951;
	t->rows[0].devices = 1000;
	t->rows[0].unusable = 0;
	t->rows[1].in_use = 950;
	t->rows[1].devices = 1000;
	t->rows[1].unusable = 0;
	tb = dra_top_table(t, 0, &lv);
	assert_string_equal(tb->rows[1].cells[1], "951/1000 (95.1%)");
	assert_int_equal(lv[1 * 5 + 1], DRA_TOP_LEVEL_OVER);
	assert_string_equal(tb->rows[2].cells[1], "950/1000 (95%)");
	assert_int_equal(lv[2 * 5 + 1], DRA_TOP_LEVEL_HIGH);
	free(lv);
	dra_table_free(tb);
	dra_top_free(t);

	/* 100% of a shared device's memory is over the ceiling. */
	kube_snapshot_free(s);
	s = load_text(dyn_yaml);
	t = top_of(s, DRA_TOP_NODES, NULL);
	tb = dra_top_table(t, 1, &lv);
	/* Busiest counter: memory-slice-0 1/1, then 8 more names. */
	assert_string_equal(tb->rows[1].cells[5],
	    "memory-slice-0 1/1 (100%) +8");
	assert_int_equal(lv[12 + 5], DRA_TOP_LEVEL_OVER);
	assert_string_equal(tb->rows[1].cells[2], "50/80Gi (62%)");
	free(lv);
	dra_table_free(tb);
	/*
	 * The busiest is the highest share, not the first name: with
	 * only memory-slice-7 used, it is named although last of the
	 * slices.
	 */
	for (i = 0; i < t->rows[0].ncounters; i++) {
		if (strncmp(t->rows[0].counters[i].name, "memory-slice-",
		    13) == 0)
			t->rows[0].counters[i].used =
			    strcmp(t->rows[0].counters[i].name,
			    "memory-slice-7") == 0 ? 1000 : 0;
	}
	tb = dra_top_table(t, 1, &lv);
	assert_string_equal(tb->rows[1].cells[5],
	    "memory-slice-7 1/1 (100%) +8");
	free(lv);
	dra_table_free(tb);
	dra_top_free(t);
	kube_snapshot_free(s);
}

/*
 * Percent text and level agree: a value above a line never prints as
 * the line (951 of 1000 is over the 95% ceiling: "95.1%", red; 950 is
 * "95%", yellow), decimals only next to the lines, rounded down.
 */
static void
test_percent(void **state)
{
	char	p[32];

	(void)state;
	assert_int_equal(DRA_TOP_TARGET_PCT,
	    (int)(DRA_GPU_UTIL_TARGET * 100 + 0.5));
	assert_int_equal(DRA_TOP_CEILING_PCT,
	    (int)(DRA_GPU_UTIL_CEILING * 100 + 0.5));
	assert_int_equal(dra_top_percent(951, 1000, p, sizeof p),
	    DRA_TOP_LEVEL_OVER);
	assert_string_equal(p, "95.1%");
	assert_int_equal(dra_top_percent(950, 1000, p, sizeof p),
	    DRA_TOP_LEVEL_HIGH);
	assert_string_equal(p, "95%");
	assert_int_equal(dra_top_percent(9501, 10000, p, sizeof p),
	    DRA_TOP_LEVEL_OVER);
	assert_string_equal(p, "95.01%");
	assert_int_equal(dra_top_percent(959, 1000, p, sizeof p),
	    DRA_TOP_LEVEL_OVER);
	assert_string_equal(p, "95.9%");
	assert_int_equal(dra_top_percent(96, 100, p, sizeof p),
	    DRA_TOP_LEVEL_OVER);
	assert_string_equal(p, "96%");
	/* 95 + 1e-9 %: closer than 6 decimals show, rounded up. */
	assert_int_equal(dra_top_percent(95000000001LL, 100000000000LL, p,
	    sizeof p), DRA_TOP_LEVEL_OVER);
	assert_string_equal(p, "95.000001%");
	/* The target: 80% itself is yellow; just under is 79%, green. */
	assert_int_equal(dra_top_percent(80, 100, p, sizeof p),
	    DRA_TOP_LEVEL_HIGH);
	assert_string_equal(p, "80%");
	assert_int_equal(dra_top_percent(7999, 10000, p, sizeof p),
	    DRA_TOP_LEVEL_LOW);
	assert_string_equal(p, "79%");
	assert_int_equal(dra_top_percent(805, 1000, p, sizeof p),
	    DRA_TOP_LEVEL_HIGH);
	assert_string_equal(p, "80.5%");
	/* Elsewhere rounded down, as kube-capacity; none without total. */
	assert_int_equal(dra_top_percent(2, 208, p, sizeof p),
	    DRA_TOP_LEVEL_LOW);
	assert_string_equal(p, "0%");
	assert_int_equal(dra_top_percent(1, 0, p, sizeof p),
	    DRA_TOP_LEVEL_NONE);
	assert_string_equal(p, "-");
	/* Huge totals do not overflow (16Pi in thousandths). */
	assert_int_equal(dra_top_percent(INT64_MAX / 2, INT64_MAX, p,
	    sizeof p), DRA_TOP_LEVEL_LOW);
	assert_string_equal(p, "49%");
	/* Ratios: 0.95 from a floating sum is the line, not above it. */
	assert_int_equal(dra_top_ratio_percent(0.1 * 3 + 0.65, p, sizeof p),
	    DRA_TOP_LEVEL_HIGH);
	assert_string_equal(p, "95%");
	assert_int_equal(dra_top_ratio_percent(0.9512, p, sizeof p),
	    DRA_TOP_LEVEL_OVER);
	assert_string_equal(p, "95.1%");
	assert_int_equal(dra_top_ratio_percent(-1, p, sizeof p),
	    DRA_TOP_LEVEL_NONE);
	assert_string_equal(p, "-");
	assert_int_equal(dra_top_level(951, 1000), DRA_TOP_LEVEL_OVER);
}

static void
test_prom_escape(void **state)
{
	struct dra_buf	b;

	(void)state;
	dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	dra_top_prom_escape(&b, "a\\b\"c\nd");
	assert_string_equal(dra_buf_str(&b), "a\\\\b\\\"c\\nd");
	dra_buf_reset(&b);
	dra_top_prom_escape(&b, NULL);
	assert_string_equal(dra_buf_str(&b), "");
	dra_buf_release(&b);
}

/* The exact exposition of the shareable and incomplete pools. */
static void
test_prometheus_pools(void **state)
{
	static const char	want[] =
"# HELP kubectl_dra_pool_devices DRA devices by state, each in one: "
"unusable (pool incomplete or invalid), else allocated (held without "
"adminAccess), tainted, blocked (counters used up by allocated devices) or "
"free; in use is allocated + blocked (kubectl dra top pools).\n"
"# TYPE kubectl_dra_pool_devices gauge\n"
"kubectl_dra_pool_devices{driver=\"gpu.example.com\",pool=\"s1\","
"node=\"s1\",state=\"allocated\"} 1\n"
"kubectl_dra_pool_devices{driver=\"gpu.example.com\",pool=\"s1\","
"node=\"s1\",state=\"blocked\"} 0\n"
"kubectl_dra_pool_devices{driver=\"gpu.example.com\",pool=\"s1\","
"node=\"s1\",state=\"tainted\"} 0\n"
"kubectl_dra_pool_devices{driver=\"gpu.example.com\",pool=\"s1\","
"node=\"s1\",state=\"unusable\"} 0\n"
"kubectl_dra_pool_devices{driver=\"gpu.example.com\",pool=\"s1\","
"node=\"s1\",state=\"free\"} 0\n"
"kubectl_dra_pool_devices{driver=\"gpu.example.com\",pool=\"s2\","
"node=\"s2\",state=\"allocated\"} 0\n"
"kubectl_dra_pool_devices{driver=\"gpu.example.com\",pool=\"s2\","
"node=\"s2\",state=\"blocked\"} 0\n"
"kubectl_dra_pool_devices{driver=\"gpu.example.com\",pool=\"s2\","
"node=\"s2\",state=\"tainted\"} 0\n"
"kubectl_dra_pool_devices{driver=\"gpu.example.com\",pool=\"s2\","
"node=\"s2\",state=\"unusable\"} 1\n"
"kubectl_dra_pool_devices{driver=\"gpu.example.com\",pool=\"s2\","
"node=\"s2\",state=\"free\"} 0\n"
"# HELP kubectl_dra_pool_devices_total DRA devices published, the newest "
"generation of each pool (kubectl dra top pools).\n"
"# TYPE kubectl_dra_pool_devices_total gauge\n"
"kubectl_dra_pool_devices_total{driver=\"gpu.example.com\",pool=\"s1\","
"node=\"s1\"} 1\n"
"kubectl_dra_pool_devices_total{driver=\"gpu.example.com\",pool=\"s2\","
"node=\"s2\"} 1\n"
"# HELP kubectl_dra_pool_gpu_memory_bytes GPU memory in bytes consumed by "
"allocated devices (a partitionable device through its counter set's "
"memory counter); unusable pools left out (kubectl dra top pools).\n"
"# TYPE kubectl_dra_pool_gpu_memory_bytes gauge\n"
"kubectl_dra_pool_gpu_memory_bytes{driver=\"gpu.example.com\",pool=\"s1\","
"node=\"s1\",state=\"allocated\"} 32212254720\n"
"kubectl_dra_pool_gpu_memory_bytes{driver=\"gpu.example.com\",pool=\"s2\","
"node=\"s2\",state=\"allocated\"} 0\n"
"# HELP kubectl_dra_pool_gpu_memory_bytes_total GPU memory in bytes; "
"unusable pools left out (kubectl dra top pools).\n"
"# TYPE kubectl_dra_pool_gpu_memory_bytes_total gauge\n"
"kubectl_dra_pool_gpu_memory_bytes_total{driver=\"gpu.example.com\","
"pool=\"s1\",node=\"s1\"} 42949672960\n"
"kubectl_dra_pool_gpu_memory_bytes_total{driver=\"gpu.example.com\","
"pool=\"s2\",node=\"s2\"} 0\n";
	struct kube_snapshot	*s = load_text(shared_yaml);
	struct dra_top		*t = top_of(s, DRA_TOP_POOLS, NULL);
	char			*text, *p;

	(void)state;
	text = dra_top_prometheus(t);
	assert_true(strncmp(text, want, strlen(want)) == 0);
	/* The consumable capacity families, each HELP/TYPE once. */
	p = strstr(text, "kubectl_dra_pool_consumable_capacity{driver=\"gpu."
	    "example.com\",pool=\"s1\",node=\"s1\",capacity=\"memory\","
	    "state=\"consumed\"} 32212254720\n");
	assert_non_null(p);
	assert_non_null(strstr(text, "kubectl_dra_pool_consumable_capacity_"
	    "total{driver=\"gpu.example.com\",pool=\"s1\",node=\"s1\","
	    "capacity=\"memory\"} 42949672960\n"));
	p = strstr(text, "# TYPE kubectl_dra_pool_devices gauge");
	assert_null(strstr(p + 1, "# TYPE kubectl_dra_pool_devices gauge"));
	assert_int_equal(text[strlen(text) - 1], '\n');
	free(text);
	dra_top_free(t);
	kube_snapshot_free(s);

	/* Counters per set: fractional quantities in their unit. */
	s = load_text(dyn_yaml);
	t = top_of(s, DRA_TOP_NODES, NULL);
	text = dra_top_prometheus(t);
	/* Nodes: per counter name, memory left out (it is GPU memory). */
	assert_non_null(strstr(text, "kubectl_dra_node_counter{node=\"m\","
	    "counter=\"multiprocessors\",state=\"consumed\"} 76\n"));
	assert_non_null(strstr(text, "kubectl_dra_node_counter_total{"
	    "node=\"m\",counter=\"multiprocessors\"} 132\n"));
	assert_null(strstr(text, "counter=\"memory\""));
	assert_non_null(strstr(text,
	    "kubectl_dra_node_gpu_compute_ratio{node=\"m\"} 0.5714\n"));
	free(text);
	dra_top_free(t);
	/* Pools: every counter of each set, memory included. */
	t = top_of(s, DRA_TOP_POOLS, NULL);
	text = dra_top_prometheus(t);
	assert_non_null(strstr(text, "kubectl_dra_pool_counter_set_counter{"
	    "driver=\"gpu.nvidia.com\",pool=\"m\",node=\"m\","
	    "counter_set=\"gpu-0-cs\",counter=\"multiprocessors\","
	    "state=\"consumed\"} 76\n"));
	assert_non_null(strstr(text, "kubectl_dra_pool_counter_set_counter_"
	    "total{driver=\"gpu.nvidia.com\",pool=\"m\",node=\"m\","
	    "counter_set=\"gpu-0-cs\",counter=\"memory\"} 85899345920\n"));
	free(text);
	dra_top_free(t);
	kube_snapshot_free(s);
}

/*
 * The textfile collector reads one file per kind into one registry:
 * no family (so no HELP text) and no series may come from two kinds.
 * Every family of each kind's text is kubectl_dra_<kind>_...
 */
static void
test_prometheus_kinds(void **state)
{
	static const char	*prefix[] = { "kubectl_dra_node_",
				    "kubectl_dra_class_",
				    "kubectl_dra_namespace_",
				    "kubectl_dra_pool_" };
	static const char	*docs[] = { whole_yaml, dyn_yaml };
	struct kube_snapshot	*s;
	struct dra_top		*t;
	char			*text[4], *line, *next, *copy;
	size_t			 d, k, n;

	(void)state;
	for (d = 0; d < 2; d++) {
		s = load_text(docs[d]);
		for (k = 0; k < 4; k++) {
			t = top_of(s, (enum dra_top_kind)k, NULL);
			text[k] = dra_top_prometheus(t);
			dra_top_free(t);
		}
		for (k = 0; k < 4; k++) {
			copy = strdup(text[k]);
			n = 0;
			for (line = copy; *line != '\0'; line = next) {
				next = strchr(line, '\n');
				assert_non_null(next);
				*next++ = '\0';
				if (strncmp(line, "# HELP ", 7) == 0)
					line += 7;
				else if (strncmp(line, "# TYPE ", 7) == 0)
					line += 7;
				if (strncmp(line, prefix[k],
				    strlen(prefix[k])) != 0)
					fail_msg("%s: %s", prefix[k], line);
				n++;
			}
			assert_true(n > 10);
			free(copy);
		}
		for (k = 0; k < 4; k++)
			free(text[k]);
		kube_snapshot_free(s);
	}
}

/*
 * A pool of no node (allNodes) is the "<none>" row, not a row named
 * after the pool (the GPU map names its GPU after the pool); in
 * Prometheus, node="".
 */
static void
test_no_node(void **state)
{
	static const char	doc[] =
"apiVersion: resource.k8s.io/v1\n"
"kind: ResourceSlice\n"
"metadata: {name: net}\n"
"spec:\n"
"  driver: gpu.example.com\n"
"  allNodes: true\n"
"  pool: {name: net-pool, generation: 1, resourceSliceCount: 1}\n"
"  devices:\n"
"  - name: gpu-0\n"
"    attributes: {type: {string: gpu}}\n"
"    capacity: {memory: {value: 10Gi}}\n";
	struct kube_snapshot	*s = load_text(doc);
	struct dra_top		*t = top_of(s, DRA_TOP_NODES, NULL);
	char			*text;

	(void)state;
	assert_int_equal(t->nrows, 1);
	assert_string_equal(t->rows[0].name, "<none>");
	assert_int_equal(t->rows[0].devices, 1);
	assert_int_equal(t->rows[0].gpus, 1);
	text = dra_top_prometheus(t);
	assert_non_null(strstr(text,
	    "kubectl_dra_node_gpus_total{node=\"\"} 1\n"));
	assert_null(strstr(text, "net-pool"));
	free(text);
	dra_top_free(t);
	kube_snapshot_free(s);
}

/*
 * An incomplete pool's DynamicMIG GPU: every device unusable, and the
 * GPU, its memory and its counters left out of GPUS, COMPUTE,
 * GPU-MEMORY and COUNTERS (nothing can be allocated from it).
 */
static void
test_unusable_gpus(void **state)
{
	struct kube_snapshot	*s;
	struct dra_top		*t;
	char			*doc, *p;

	(void)state;
	/* dyn_yaml with 3 slices announced, 2 published. */
	doc = strdup(dyn_yaml);
	while ((p = strstr(doc, "resourceSliceCount: 2")) != NULL)
		p[20] = '3';
	s = load_text(doc);
	t = top_of(s, DRA_TOP_NODES, NULL);
	assert_int_equal(t->nrows, 1);
	assert_int_equal(t->rows[0].devices, 5);
	assert_int_equal(t->rows[0].unusable, 5);
	assert_int_equal(t->rows[0].allocated, 0);
	assert_int_equal(t->rows[0].in_use, 0);
	assert_int_equal(t->rows[0].gpus, 0);
	assert_true(t->rows[0].compute < 0);
	assert_int_equal(t->rows[0].mem_total, 0);
	assert_int_equal(t->rows[0].ncounters, 0);
	dra_top_free(t);
	t = top_of(s, DRA_TOP_NAMESPACES, NULL);
	assert_int_equal(t->total.gpus, 0);
	assert_int_equal(t->total.unusable, 5);
	dra_top_free(t);
	kube_snapshot_free(s);
	free(doc);
}

/* The JSON document's shape and figures. */
static void
test_json(void **state)
{
	struct kube_snapshot	*s = load_text(whole_yaml);
	struct dra_top		*t = top_of(s, DRA_TOP_NAMESPACES, NULL);
	cJSON			*o, *r;

	(void)state;
	o = dra_top_json(t);
	assert_string_equal(cJSON_GetObjectItem(o, "kind")->valuestring,
	    "Top");
	assert_string_equal(cJSON_GetObjectItem(o, "of")->valuestring,
	    "namespaces");
	r = cJSON_GetArrayItem(cJSON_GetObjectItem(o, "rows"), 0);
	assert_string_equal(cJSON_GetObjectItem(r, "name")->valuestring,
	    "team-a");
	assert_int_equal(cJSON_GetObjectItem(r, "pendingClaims")->valueint,
	    1);
	assert_true(cJSON_GetObjectItem(cJSON_GetObjectItem(r,
	    "gpuMemoryBytes"), "allocated")->valuedouble == 80.0 * GI);
	cJSON_Delete(o);
	dra_top_free(t);
	kube_snapshot_free(s);
}

/*
 * GPU memory past the model's 1Pi bound (quantities saturated there)
 * is read again from its text: n1's two 2Pi GPUs are 4Pi, one of them
 * allocated 2Pi; n2's 1e30 bytes saturate the sums at DRA_TOP_MEM_MAX.
 */
static const char huge_yaml[] =
"apiVersion: resource.k8s.io/v1\n"
"kind: ResourceSlice\n"
"metadata: {name: n1}\n"
"spec:\n"
"  driver: gpu.example.com\n"
"  nodeName: n1\n"
"  pool: {name: n1, generation: 1, resourceSliceCount: 1}\n"
"  devices:\n"
"  - {name: big-0, capacity: {memory: {value: 2Pi}}}\n"
"  - {name: big-1, capacity: {memory: {value: 2Pi}}}\n"
"---\n"
"apiVersion: resource.k8s.io/v1\n"
"kind: ResourceSlice\n"
"metadata: {name: n2}\n"
"spec:\n"
"  driver: gpu.example.com\n"
"  nodeName: n2\n"
"  pool: {name: n2, generation: 1, resourceSliceCount: 1}\n"
"  devices:\n"
"  - {name: huge, capacity: {memory: {value: 1e30}}}\n"
"---\n"
"apiVersion: resource.k8s.io/v1\n"
"kind: ResourceClaim\n"
"metadata: {name: x, namespace: team-a}\n"
"spec:\n"
"  devices:\n"
"    requests:\n"
"    - {name: g, exactly: {deviceClassName: gpu}}\n"
"status:\n"
"  allocation:\n"
"    devices:\n"
"      results:\n"
"      - {request: g, driver: gpu.example.com, pool: n1, device: big-0}\n";

static void
test_huge_memory(void **state)
{
	const int64_t		 pi = 1125899906842624LL;
	struct kube_snapshot	*s = load_text(huge_yaml);
	struct dra_top		*t = top_of(s, DRA_TOP_NODES, NULL);
	struct dra_table	*tb;
	const struct dra_top_row *r;
	cJSON			*o;
	char			*text;

	(void)state;
	r = row_named(t, "n1");
	assert_true(r->mem_used == 2 * pi);
	assert_true(r->mem_total == 4 * pi);
	r = row_named(t, "n2");
	assert_true(r->mem_used == 0);
	assert_true(r->mem_total == DRA_TOP_MEM_MAX);
	assert_true(t->total.mem_used == 2 * pi);
	assert_true(t->total.mem_total == DRA_TOP_MEM_MAX);
	tb = dra_top_table(t, 0, NULL);
	assert_string_equal(tb->rows[1].cells[2], "2/4Pi (50%)");
	assert_string_equal(tb->rows[2].cells[2], "0/>8Ei (0%)");
	dra_table_free(tb);
	text = dra_top_prometheus(t);
	assert_non_null(strstr(text, "kubectl_dra_node_gpu_memory_bytes_total"
	    "{node=\"n1\"} 4503599627370496\n"));
	assert_non_null(strstr(text, "kubectl_dra_node_gpu_memory_bytes{"
	    "node=\"n1\",state=\"allocated\"} 2251799813685248\n"));
	free(text);
	o = dra_top_json(t);
	assert_true(cJSON_GetObjectItem(cJSON_GetObjectItem(
	    cJSON_GetArrayItem(cJSON_GetObjectItem(o, "rows"), 0),
	    "gpuMemoryBytes"), "total")->valuedouble == 4.0 * (double)pi);
	cJSON_Delete(o);
	dra_top_free(t);

	/* A namespace holding one 2Pi GPU holds 2Pi. */
	t = top_of(s, DRA_TOP_NAMESPACES, NULL);
	assert_true(row_named(t, "team-a")->mem_used == 2 * pi);
	dra_top_free(t);
	kube_snapshot_free(s);
}

/*
 * A pool that defines a counter set twice is invalid: its devices are
 * unusable and its counter sets are in no figure, Prometheus included
 * (they would repeat series node_exporter refuses); no series of any
 * kind's text is printed twice.
 */
static void
test_prometheus_invalid_pool(void **state)
{
	static const char	extra[] =
"---\n"
"apiVersion: resource.k8s.io/v1\n"
"kind: ResourceSlice\n"
"metadata: {name: m-counters-again}\n"
"spec:\n"
"  driver: gpu.nvidia.com\n"
"  nodeName: m\n"
"  pool: {name: m, generation: 1, resourceSliceCount: 3}\n"
"  sharedCounters:\n"
"  - name: gpu-0-cs\n"
"    counters:\n"
"      memory: {value: 80Gi}\n";
	struct kube_snapshot	*s;
	struct dra_top		*t;
	char			*text, *line, *next, *p;
	size_t			 n;

	(void)state;
	n = strlen(dyn_yaml) + strlen(extra) + 1;
	text = malloc(n);
	snprintf(text, n, "%s%s", dyn_yaml, extra);
	while ((p = strstr(text, "resourceSliceCount: 2")) != NULL)
		p[20] = '3';
	s = load_text(text);
	free(text);
	assert_non_null(s->pools.v[0]->invalid);

	t = top_of(s, DRA_TOP_POOLS, NULL);
	assert_int_equal(t->ncounters, 0);
	assert_int_equal(t->rows[0].unusable, t->rows[0].devices);
	text = dra_top_prometheus(t);
	assert_null(strstr(text, "kubectl_dra_pool_counter_set_counter{"));
	assert_null(strstr(text, "kubectl_dra_pool_counter_set_counter_"
	    "total{"));
	/* Every sample line once. */
	n = 0;
	for (line = text; *line != '\0'; line = next) {
		next = strchr(line, '\n') + 1;
		n++;
		if (*line == '#')
			continue;
		/* "\n" and the line: a later line equal to it */
		assert_true(line > text);
		p = strndup(line - 1, (size_t)(next - line + 1));
		if (strstr(next - 1, p) != NULL)
			fail_msg("repeated: %s", p + 1);
		free(p);
	}
	assert_true(n > 10);
	free(text);
	dra_top_free(t);
	kube_snapshot_free(s);
}

/*
 * A user limited to team-a (live.c sets slices_unread when the
 * cluster-scoped ResourceSlices are refused): the claims and the
 * devices their results name are known, nothing else is.  JSON says
 * null, Prometheus leaves the families out, never 0.
 */
static void
test_slices_unread(void **state)
{
	static const char	doc[] =
"apiVersion: resource.k8s.io/v1\n"
"kind: ResourceClaim\n"
"metadata: {name: a, namespace: team-a}\n"
"spec:\n"
"  devices:\n"
"    requests:\n"
"    - {name: g, exactly: {deviceClassName: gpu, count: 2}}\n"
"status:\n"
"  allocation:\n"
"    devices:\n"
"      results:\n"
"      - {request: g, driver: gpu.example.com, pool: n1, device: gpu-0}\n"
"      - {request: g, driver: gpu.example.com, pool: n1, device: gpu-1}\n"
"---\n"
"apiVersion: resource.k8s.io/v1\n"
"kind: ResourceClaim\n"
"metadata: {name: b, namespace: team-a}\n"
"spec:\n"
"  devices:\n"
"    requests:\n"
"    - {name: g, exactly: {deviceClassName: gpu}}\n";
	struct kube_snapshot	*s = kube_snapshot_new();
	struct dra_filter	 f;
	struct dra_top		*t;
	struct dra_table	*tb;
	struct dra_err		 err;
	cJSON			*o, *r, *d;
	char			*text;

	(void)state;
	s->slices_unread = 1;
	if (kube_snapshot_load_mem(s, "test.yaml", doc, strlen(doc), &err) !=
	    KUBE_OK)
		fail_msg("load: %s", err.msg);
	kube_snapshot_finish(s);
	memset(&f, 0, sizeof f);
	f.namespace = "team-a";
	t = top_of(s, DRA_TOP_NAMESPACES, &f);
	assert_true(t->slices_unread);
	assert_int_equal(t->nrows, 1);
	assert_int_equal(t->rows[0].claims, 1);
	assert_int_equal(t->rows[0].pending, 1);
	assert_int_equal(t->rows[0].allocated, 2);

	tb = dra_top_table(t, 0, NULL);
	assert_string_equal(tb->columns[3].name, "DEVICES");
	assert_string_equal(tb->rows[1].cells[3], "2");
	assert_string_equal(tb->rows[1].cells[4], "-");	/* GPU-MEMORY */
	assert_string_equal(tb->rows[1].cells[5], "-");	/* GPUS */
	assert_string_equal(tb->rows[1].cells[6], "-");	/* COMPUTE */
	dra_table_free(tb);

	o = dra_top_json(t);
	r = cJSON_GetArrayItem(cJSON_GetObjectItem(o, "rows"), 0);
	d = cJSON_GetObjectItem(r, "devices");
	assert_true(cJSON_GetObjectItem(d, "inUse")->valuedouble == 2);
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(d, "total")));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(d, "unusable")));
	d = cJSON_GetObjectItem(r, "gpuMemoryBytes");
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(d, "allocated")));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(d, "total")));
	d = cJSON_GetObjectItem(r, "gpus");
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(d, "used")));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(d, "total")));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(r, "compute")));
	assert_true(cJSON_GetObjectItem(r, "claims")->valuedouble == 1);
	d = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(o,
	    "total"), "gpuMemoryBytes"), "total");
	assert_true(cJSON_IsNull(d));
	cJSON_Delete(o);

	text = dra_top_prometheus(t);
	assert_non_null(strstr(text, "kubectl_dra_namespace_devices{"
	    "namespace=\"team-a\",state=\"allocated\"} 2\n"));
	assert_non_null(strstr(text, "kubectl_dra_namespace_claims{"
	    "namespace=\"team-a\",state=\"pending\"} 1\n"));
	assert_null(strstr(text, "_devices_total"));
	assert_null(strstr(text, "_gpu_memory_bytes"));
	assert_null(strstr(text, "_gpus"));
	assert_null(strstr(text, "_gpu_compute_ratio"));
	free(text);
	dra_top_free(t);
	kube_snapshot_free(s);
}

/*
 * Namespaces' COMPUTE: each row's share rounded down, the "*" row the
 * exact sum of the rows' shares, rounded down once, so the printed
 * rows may add up to less (12% + 5% + 5% under a 24% total).
 */
static void
test_namespace_compute_sum(void **state)
{
	struct kube_snapshot	*s = load_text(whole_yaml);
	struct dra_top		*t = top_of(s, DRA_TOP_NAMESPACES, NULL);
	struct dra_table	*tb;
	double			 sum = 0;
	size_t			 i;

	(void)state;
	for (i = 0; i < t->nrows; i++)
		sum += t->rows[i].compute > 0 ? t->rows[i].compute : 0;
	assert_true(sum > 0);
	near(t->total.compute, sum);

	assert_true(t->nrows >= 2);
	t->rows[0].compute = 0.129;
	t->rows[1].compute = 0.059;
	for (i = 2; i < t->nrows; i++)
		t->rows[i].compute = 0;
	t->total.compute = 0.129 + 0.059 + 0.059;
	tb = dra_top_table(t, 0, NULL);
	assert_string_equal(tb->columns[6].name, "COMPUTE");
	assert_string_equal(tb->rows[0].cells[6], "24%");
	assert_string_equal(tb->rows[1].cells[6], "12%");
	assert_string_equal(tb->rows[2].cells[6], "5%");
	dra_table_free(tb);
	dra_top_free(t);
	kube_snapshot_free(s);
}

/* Shared case 10: device-2 blocked by the 6Gi of 8Gi device-1 uses. */
static void
test_case10(void **state)
{
	struct kube_snapshot	*s = kube_snapshot_new();
	struct dra_top		*t;
	struct dra_err		 err;

	(void)state;
	if (kube_snapshot_load_file(s, CASES_DIR
	    "/10-shared-counter-exhaustion/input.yaml", &err) != KUBE_OK)
		fail_msg("%s", err.msg);
	kube_snapshot_finish(s);
	t = top_of(s, DRA_TOP_POOLS, NULL);
	assert_int_equal(t->nrows, 1);
	assert_int_equal(t->rows[0].allocated, 1);
	assert_int_equal(t->rows[0].blocked, 1);
	assert_int_equal(t->rows[0].mem_used, 6 * GI);
	assert_int_equal(t->rows[0].mem_total, 8 * GI);
	dra_top_free(t);
	kube_snapshot_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole_nodes),
		cmocka_unit_test(test_whole_namespaces),
		cmocka_unit_test(test_whole_classes),
		cmocka_unit_test(test_dynamic_mig),
		cmocka_unit_test(test_consumable_incomplete),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_sort_table),
		cmocka_unit_test(test_percent),
		cmocka_unit_test(test_prom_escape),
		cmocka_unit_test(test_prometheus_pools),
		cmocka_unit_test(test_prometheus_kinds),
		cmocka_unit_test(test_no_node),
		cmocka_unit_test(test_unusable_gpus),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_case10),
		cmocka_unit_test(test_huge_memory),
		cmocka_unit_test(test_prometheus_invalid_pool),
		cmocka_unit_test(test_slices_unread),
		cmocka_unit_test(test_namespace_compute_sum),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
