/*
 * test_gpus.c: the GPU map (views/gpus.h) part by part: a hand-built
 * DynamicMIG H100 holding 3g.40gb@0, 2g.20gb@4 and 1g.10gb@6 (the
 * overlapping free placements are no parts) and a whole GPU taken on
 * another; static MIG in both device-name forms and by memorySlice
 * capacities; whole GPUs, one shared by three claims; the DRA example
 * driver's GPUs and a product the catalogue does not know as whole
 * GPUs, NICs left out; shared case 08 (another driver's partitionable
 * devices); taints; utilization of GPUs, nodes and the fleet; the
 * filter; the bundled example cluster; a plan made by the planner,
 * read as a map and checked against its own document; malformed
 * plans refused naming the field.
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
#include "demand.h"
#include "geometry.h"
#include "gpus.h"
#include "inventory.h"
#include "plan.h"
#include "snapshot.h"
#include "solve.h"
#include "xmalloc.h"

#define H100	"NVIDIA H100 80GB HBM3"
#define EPS	1e-9

/* One placement of an H100: profile, GI profile ID, start, size. */
struct pl {
	const char	*profile;
	const char	*compact;	/* in device names */
	int		 giid;
	int		 start;
	int		 size;
};

static const struct pl h100[] = {
	{ "7g.80gb", "7g80gb", 0, 0, 8 },
	{ "4g.40gb", "4g40gb", 5, 0, 4 },
	{ "3g.40gb", "3g40gb", 9, 0, 4 },
	{ "3g.40gb", "3g40gb", 9, 4, 4 },
	{ "2g.20gb", "2g20gb", 14, 0, 2 },
	{ "2g.20gb", "2g20gb", 14, 2, 2 },
	{ "2g.20gb", "2g20gb", 14, 4, 2 },
	{ "1g.10gb", "1g10gb", 19, 0, 1 },
	{ "1g.10gb", "1g10gb", 19, 1, 1 },
	{ "1g.10gb", "1g10gb", 19, 2, 1 },
	{ "1g.10gb", "1g10gb", 19, 3, 1 },
	{ "1g.10gb", "1g10gb", 19, 4, 1 },
	{ "1g.10gb", "1g10gb", 19, 5, 1 },
	{ "1g.10gb", "1g10gb", 19, 6, 1 },
};

/* a == b within EPS. */
static void
near(double a, double b)
{
	if (fabs(a - b) > EPS)
		fail_msg("%.9f != %.9f", a, b);
}

static void
slices(struct dra_buf *b, int start, int size)
{
	int	i;

	for (i = start; i < start + size; i++)
		dra_buf_addf(b, "        memory-slice-%d: {value: \"1\"}\n", i);
}

/*
 * A node of DynamicMIG H100s as NVIDIA's driver publishes them
 * (NVIDIA-MIG.md 1.6): a counter slice with one set per GPU, then one
 * devices slice; GPU tainted (-1: none) gets a NoSchedule taint on its
 * whole device.
 */
static void
dyn_node(struct dra_buf *b, const char *node, int ngpus, int tainted)
{
	const struct pl	*p;
	int		 g, i;

	dra_buf_addf(b, "---\napiVersion: resource.k8s.io/v1\n"
	    "kind: ResourceSlice\nmetadata: {name: %s-counters}\nspec:\n"
	    "  driver: gpu.nvidia.com\n  nodeName: %s\n"
	    "  pool: {name: %s, generation: 1, resourceSliceCount: 2}\n"
	    "  sharedCounters:\n", node, node, node);
	for (g = 0; g < ngpus; g++) {
		dra_buf_addf(b, "  - name: gpu-%d-counter-set\n"
		    "    counters:\n", g);
		for (i = 0; i < 8; i++)
			dra_buf_addf(b, "      memory-slice-%d: "
			    "{value: \"1\"}\n", i);
	}
	dra_buf_addf(b, "---\napiVersion: resource.k8s.io/v1\n"
	    "kind: ResourceSlice\nmetadata: {name: %s-devices}\nspec:\n"
	    "  driver: gpu.nvidia.com\n  nodeName: %s\n"
	    "  pool: {name: %s, generation: 1, resourceSliceCount: 2}\n"
	    "  devices:\n", node, node, node);
	for (g = 0; g < ngpus; g++) {
		dra_buf_addf(b, "  - name: gpu-%d\n    attributes:\n"
		    "      type: {string: gpu}\n"
		    "      productName: {string: %s}\n"
		    "      resource.kubernetes.io/pciBusID: "
		    "{string: \"0000:%02x:00.0\"}\n"
		    "    consumesCounters:\n"
		    "    - counterSet: gpu-%d-counter-set\n      counters:\n",
		    g, H100, 0x18 + g, g);
		slices(b, 0, 8);
		if (g == tainted)
			dra_buf_addf(b, "    taints:\n    - {key: gpu.example/"
			    "xid, value: \"79\", effect: NoSchedule}\n");
		for (i = 0; i < (int)(sizeof h100 / sizeof h100[0]); i++) {
			p = &h100[i];
			dra_buf_addf(b, "  - name: gpu-%d-mig-%s-%d-%d\n"
			    "    attributes:\n      type: {string: mig}\n"
			    "      profile: {string: \"%s\"}\n"
			    "      productName: {string: %s}\n"
			    "    consumesCounters:\n"
			    "    - counterSet: gpu-%d-counter-set\n"
			    "      counters:\n", g, p->compact, p->giid,
			    p->start, p->profile, H100, g);
			slices(b, p->start, p->size);
		}
	}
}

/* An allocated claim ns/name holding driver/pool/device. */
static void
claim(struct dra_buf *b, const char *ns, const char *name,
    const char *driver, const char *pool, const char *device)
{
	dra_buf_addf(b, "---\napiVersion: resource.k8s.io/v1\n"
	    "kind: ResourceClaim\nmetadata: {name: %s, namespace: %s}\n"
	    "spec:\n  devices:\n    requests:\n    - name: gpu\n"
	    "      exactly: {deviceClassName: %s}\n"
	    "status:\n  allocation:\n    devices:\n      results:\n"
	    "      - {request: gpu, driver: %s, pool: %s, device: %s}\n",
	    name, ns, driver, driver, pool, device);
}

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

static struct kube_snapshot *
load_buf(struct dra_buf *b)
{
	struct kube_snapshot	*s = load_text(dra_buf_str(b));

	dra_buf_release(b);
	return s;
}

static struct kube_snapshot *
load_file(const char *path)
{
	struct kube_snapshot	*s = kube_snapshot_new();
	struct dra_err		 err;

	if (kube_snapshot_load_file(s, path, &err) != KUBE_OK)
		fail_msg("%s: %s", path, err.msg);
	kube_snapshot_finish(s);
	return s;
}

static struct dra_gpu_map *
map_of(const struct kube_snapshot *s, const struct dra_filter *f)
{
	struct dra_gpu_map	*m;
	struct dra_err		 err;

	m = dra_gpu_map(s, f, &err);
	if (m == NULL)
		fail_msg("map: %s", err.msg);
	return m;
}

static const struct dra_gpu_node *
node_of(const struct dra_gpu_map *m, const char *node)
{
	size_t	i;

	for (i = 0; i < m->nnodes; i++)
		if (strcmp(m->nodes[i].name, node) == 0)
			return &m->nodes[i];
	fail_msg("no node %s", node);
	return NULL;
}

static const struct dra_gpu *
gpu_of(const struct dra_gpu_map *m, const char *node, const char *gpu)
{
	const struct dra_gpu_node	*n = node_of(m, node);
	size_t				 i;

	for (i = 0; i < n->ngpus; i++)
		if (strcmp(n->gpus[i].name, gpu) == 0)
			return &n->gpus[i];
	fail_msg("no GPU %s/%s", node, gpu);
	return NULL;
}

/* Part i of g is device with profile at start+size, in state, claim. */
static void
part_is(const struct dra_gpu *g, size_t i, const char *device,
    const char *profile, int start, int size, int compute,
    enum dra_gpu_part_state state, const char *claim)
{
	const struct dra_gpu_part	*p;

	assert_true(i < g->nparts);
	p = &g->parts[i];
	assert_string_equal(p->device, device);
	if (profile == NULL)
		assert_null(p->profile);
	else {
		assert_non_null(p->profile);
		assert_string_equal(p->profile, profile);
	}
	assert_int_equal(p->start, start);
	assert_int_equal(p->size, size);
	assert_int_equal(p->compute, compute);
	assert_int_equal(p->state, state);
	if (claim == NULL)
		assert_null(p->claim);
	else {
		assert_non_null(p->claim);
		assert_string_equal(p->claim, claim);
	}
}

static void
test_dynamic(void **state)
{
	struct dra_buf		 b;
	struct kube_snapshot	*s;
	struct dra_gpu_map	*m;
	const struct dra_gpu	*g;
	const struct dra_gpu_part *p;

	(void)state;
	dra_buf_init(&b, DRA_BUF_MAX_FILE);
	dyn_node(&b, "node-a", 3, -1);
	claim(&b, "team-a", "big", "gpu.nvidia.com", "node-a",
	    "gpu-0-mig-3g40gb-9-0");
	claim(&b, "team-b", "mid", "gpu.nvidia.com", "node-a",
	    "gpu-0-mig-2g20gb-14-4");
	claim(&b, "team-a", "tiny", "gpu.nvidia.com", "node-a",
	    "gpu-0-mig-1g10gb-19-6");
	claim(&b, "team-c", "whole", "gpu.nvidia.com", "node-a", "gpu-2");
	s = load_buf(&b);
	m = map_of(s, NULL);

	assert_int_equal(m->nnodes, 1);
	assert_int_equal(m->ngpus, 3);
	assert_int_equal(m->nparts, 4);
	assert_int_equal(m->nallocated, 4);
	g = gpu_of(m, "node-a", "gpu-0");
	assert_string_equal(g->mode, "mig-dynamic");
	assert_string_equal(g->driver, "gpu.nvidia.com");
	assert_string_equal(g->pool, "node-a");
	assert_string_equal(g->model, H100);
	assert_string_equal(g->pci_bus_id, "0000:18:00.0");
	assert_int_equal(g->nslices, 8);
	assert_int_equal(g->compute_total, 7);
	/* Only the allocated instances; the 23 free placements are gaps. */
	assert_int_equal(g->nparts, 3);
	part_is(g, 0, "gpu-0-mig-3g40gb-9-0", "3g.40gb", 0, 4, 3,
	    DRA_PART_ALLOCATED, "team-a/big");
	part_is(g, 1, "gpu-0-mig-2g20gb-14-4", "2g.20gb", 4, 2, 2,
	    DRA_PART_ALLOCATED, "team-b/mid");
	part_is(g, 2, "gpu-0-mig-1g10gb-19-6", "1g.10gb", 6, 1, 1,
	    DRA_PART_ALLOCATED, "team-a/tiny");
	p = &g->parts[1];
	assert_string_equal(p->namespace, "team-b");
	assert_non_null(p->claim_obj);
	assert_string_equal(p->claim_obj->meta.name, "mid");
	assert_non_null(p->device_obj);
	assert_string_equal(p->device_obj->name, "gpu-0-mig-2g20gb-14-4");
	assert_int_equal(p->shared, 1);
	assert_int_equal(g->compute_used, 6);
	assert_int_equal(g->slices_used, 7);
	near(g->util, 6.0 / 7);
	assert_int_equal(g->tainted, 0);

	g = gpu_of(m, "node-a", "gpu-1");
	assert_int_equal(g->nparts, 0);
	near(g->util, 0);

	/* The whole device of a partitionable GPU covers every slice. */
	g = gpu_of(m, "node-a", "gpu-2");
	assert_int_equal(g->nparts, 1);
	part_is(g, 0, "gpu-2", NULL, 0, 8, 7, DRA_PART_ALLOCATED,
	    "team-c/whole");
	near(g->util, 1);

	near(m->nodes[0].util, (6.0 / 7 + 0 + 1) / 3);
	near(m->util, (6.0 / 7 + 0 + 1) / 3);
	assert_int_equal(m->nwarnings, 0);
	dra_gpu_map_free(m);
	kube_snapshot_free(s);
}

/* A NoSchedule taint marks the GPU; a held part stays allocated. */
static void
test_tainted(void **state)
{
	struct dra_buf		 b;
	struct kube_snapshot	*s;
	struct dra_gpu_map	*m;
	const struct dra_gpu	*g;

	(void)state;
	dra_buf_init(&b, DRA_BUF_MAX_FILE);
	dyn_node(&b, "node-t", 2, 1);
	claim(&b, "team-a", "on-tainted", "gpu.nvidia.com", "node-t",
	    "gpu-1-mig-1g10gb-19-3");
	s = load_buf(&b);
	m = map_of(s, NULL);
	assert_int_equal(gpu_of(m, "node-t", "gpu-0")->tainted, 0);
	g = gpu_of(m, "node-t", "gpu-1");
	assert_int_equal(g->tainted, 1);
	assert_int_equal(g->nparts, 1);
	part_is(g, 0, "gpu-1-mig-1g10gb-19-3", "1g.10gb", 3, 1, 1,
	    DRA_PART_ALLOCATED, "team-a/on-tainted");
	/* The map marks it: the inventory's note on it is no warning. */
	assert_int_equal(m->nwarnings, 0);
	dra_gpu_map_free(m);
	kube_snapshot_free(s);
}

/*
 * Static MIG: devices without counters named after their parent, in
 * the v25.12 form, the v25.3 form (giid-start-size) and placed by
 * memorySlice capacities alone.
 */
static const char static_doc[] =
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceSlice\n"
    "metadata: {name: st-gpu}\n"
    "spec:\n"
    "  driver: gpu.nvidia.com\n"
    "  nodeName: node-s\n"
    "  pool: {name: node-s, generation: 1, resourceSliceCount: 1}\n"
    "  devices:\n"
    "  - name: gpu-0-mig-9-4-4\n"
    "    attributes:\n"
    "      type: {string: mig}\n"
    "      profile: {string: 3g.40gb}\n"
    "      productName: {string: " H100 "}\n"
    "      parentUUID: {string: GPU-S0}\n"
    "      uuid: {string: MIG-1}\n"
    "      resource.kubernetes.io/pciBusID: {string: \"0000:18:00.0\"}\n"
    "  - name: gpu-0-mig-1g10gb-19-0\n"
    "    attributes:\n"
    "      type: {string: mig}\n"
    "      profile: {string: 1g.10gb}\n"
    "      productName: {string: " H100 "}\n"
    "      parentUUID: {string: GPU-S0}\n"
    "      uuid: {string: MIG-2}\n"
    "  - name: gpu-0-mig-2g20gb-a\n"
    "    attributes:\n"
    "      type: {string: mig}\n"
    "      profile: {string: 2g.20gb}\n"
    "      productName: {string: " H100 "}\n"
    "      parentUUID: {string: GPU-S0}\n"
    "      uuid: {string: MIG-3}\n"
    "    capacity:\n"
    "      memorySlice2: {value: \"1\"}\n"
    "      memorySlice3: {value: \"1\"}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata: {name: s1, namespace: team-a}\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - name: gpu\n"
    "      exactly: {deviceClassName: mig.nvidia.com}\n"
    "status:\n"
    "  allocation:\n"
    "    devices:\n"
    "      results:\n"
    "      - {request: gpu, driver: gpu.nvidia.com, pool: node-s, "
    "device: gpu-0-mig-9-4-4}\n";

static void
test_static(void **state)
{
	struct kube_snapshot	*s;
	struct dra_gpu_map	*m;
	const struct dra_gpu	*g;

	(void)state;
	s = load_text(static_doc);
	m = map_of(s, NULL);
	assert_int_equal(m->ngpus, 1);
	g = gpu_of(m, "node-s", "gpu-0");
	assert_string_equal(g->mode, "mig-static");
	assert_string_equal(g->pool, "node-s");
	assert_string_equal(g->pci_bus_id, "0000:18:00.0");
	assert_int_equal(g->nslices, 8);
	assert_int_equal(g->compute_total, 7);
	/* Static MIG devices exist: free ones are parts too. */
	assert_int_equal(g->nparts, 3);
	part_is(g, 0, "gpu-0-mig-1g10gb-19-0", "1g.10gb", 0, 1, 1,
	    DRA_PART_FREE, NULL);
	part_is(g, 1, "gpu-0-mig-2g20gb-a", "2g.20gb", 2, 2, 2,
	    DRA_PART_FREE, NULL);
	part_is(g, 2, "gpu-0-mig-9-4-4", "3g.40gb", 4, 4, 3,
	    DRA_PART_ALLOCATED, "team-a/s1");
	assert_int_equal(g->parts[0].shared, 0);
	assert_int_equal(g->compute_used, 3);
	assert_int_equal(g->slices_used, 4);
	near(g->util, 3.0 / 7);
	assert_int_equal(m->nallocated, 1);
	dra_gpu_map_free(m);
	kube_snapshot_free(s);
}

/*
 * Whole GPUs: NVIDIA's (one free, one taken, one shared by three
 * claims), one of a product the catalogue does not know, the DRA
 * example driver's (no type attribute), and a NIC that is no GPU.
 */
static const char whole_doc[] =
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceSlice\n"
    "metadata: {name: w-gpu}\n"
    "spec:\n"
    "  driver: gpu.nvidia.com\n"
    "  nodeName: node-w\n"
    "  pool: {name: node-w, generation: 1, resourceSliceCount: 1}\n"
    "  devices:\n"
    "  - name: gpu-0\n"
    "    attributes:\n"
    "      type: {string: gpu}\n"
    "      productName: {string: " H100 "}\n"
    "      uuid: {string: GPU-W0}\n"
    "  - name: gpu-1\n"
    "    attributes:\n"
    "      type: {string: gpu}\n"
    "      productName: {string: " H100 "}\n"
    "      uuid: {string: GPU-W1}\n"
    "  - name: gpu-2\n"
    "    allowMultipleAllocations: true\n"
    "    attributes:\n"
    "      type: {string: gpu}\n"
    "      productName: {string: " H100 "}\n"
    "      uuid: {string: GPU-W2}\n"
    "  - name: gpu-10\n"
    "    attributes:\n"
    "      type: {string: gpu}\n"
    "      productName: {string: Tesla T4}\n"
    "      uuid: {string: GPU-W10}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceSlice\n"
    "metadata: {name: w-example}\n"
    "spec:\n"
    "  driver: gpu.example.com\n"
    "  nodeName: node-w\n"
    "  pool: {name: node-w, generation: 1, resourceSliceCount: 1}\n"
    "  devices:\n"
    "  - name: gpu-0\n"
    "    attributes:\n"
    "      model: {string: LATEST-GPU-MODEL}\n"
    "      index: {int: 0}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceSlice\n"
    "metadata: {name: w-nic}\n"
    "spec:\n"
    "  driver: nic.example.com\n"
    "  nodeName: node-w\n"
    "  pool: {name: node-w, generation: 1, resourceSliceCount: 1}\n"
    "  devices:\n"
    "  - name: nic-0\n"
    "    attributes:\n"
    "      type: {string: nic}\n";

static void
test_whole(void **state)
{
	struct dra_buf		 b;
	struct kube_snapshot	*s;
	struct dra_gpu_map	*m;
	const struct dra_gpu_node *n;
	const struct dra_gpu	*g;

	(void)state;
	dra_buf_init(&b, DRA_BUF_MAX_FILE);
	dra_buf_adds(&b, whole_doc);
	claim(&b, "team-x", "w0", "gpu.nvidia.com", "node-w", "gpu-0");
	claim(&b, "team-y", "s-b", "gpu.nvidia.com", "node-w", "gpu-2");
	claim(&b, "team-y", "s-a", "gpu.nvidia.com", "node-w", "gpu-2");
	claim(&b, "team-z", "s-c", "gpu.nvidia.com", "node-w", "gpu-2");
	claim(&b, "team-x", "ex", "gpu.example.com", "node-w", "gpu-0");
	s = load_buf(&b);
	m = map_of(s, NULL);

	n = node_of(m, "node-w");
	/* Natural order: gpu-2 before gpu-10; the example driver after. */
	assert_int_equal(n->ngpus, 5);
	assert_string_equal(n->gpus[0].name, "gpu-0");
	assert_string_equal(n->gpus[0].driver, "gpu.example.com");
	assert_string_equal(n->gpus[1].name, "gpu-0");
	assert_string_equal(n->gpus[1].driver, "gpu.nvidia.com");
	assert_string_equal(n->gpus[2].name, "gpu-1");
	assert_string_equal(n->gpus[3].name, "gpu-2");
	assert_string_equal(n->gpus[4].name, "gpu-10");

	g = &n->gpus[1];
	assert_string_equal(g->mode, "whole");
	assert_int_equal(g->nslices, 1);
	assert_int_equal(g->compute_total, 1);
	assert_int_equal(g->nparts, 1);
	part_is(g, 0, "gpu-0", NULL, 0, 1, 1, DRA_PART_ALLOCATED,
	    "team-x/w0");
	assert_int_equal(g->parts[0].shared, 1);
	near(g->util, 1);

	g = &n->gpus[2];
	part_is(g, 0, "gpu-1", NULL, 0, 1, 1, DRA_PART_FREE, NULL);
	near(g->util, 0);

	/* Shared: three claims, the first by namespace and name shown. */
	g = &n->gpus[3];
	assert_int_equal(g->nparts, 1);
	part_is(g, 0, "gpu-2", NULL, 0, 1, 1, DRA_PART_ALLOCATED,
	    "team-y/s-a");
	assert_int_equal(g->parts[0].shared, 3);
	assert_int_equal(g->compute_used, 1);

	/* Not in the catalogue: still a whole GPU, and a warning. */
	g = &n->gpus[4];
	assert_string_equal(g->mode, "whole");
	assert_string_equal(g->model, "Tesla T4");
	part_is(g, 0, "gpu-10", NULL, 0, 1, 1, DRA_PART_FREE, NULL);
	assert_int_equal(m->nwarnings, 1);
	assert_non_null(strstr(m->warnings[0], "\"Tesla T4\" is not in the "
	    "GPU catalogue"));

	/* The DRA example driver's GPU, by its driver's name. */
	g = &n->gpus[0];
	assert_string_equal(g->mode, "whole");
	assert_string_equal(g->model, "LATEST-GPU-MODEL");
	part_is(g, 0, "gpu-0", NULL, 0, 1, 1, DRA_PART_ALLOCATED,
	    "team-x/ex");

	/* 3 of 5 GPUs taken; the NIC is not a GPU. */
	assert_int_equal(m->ngpus, 5);
	assert_int_equal(m->nparts, 5);
	assert_int_equal(m->nallocated, 3);
	near(n->util, 3.0 / 5);
	near(m->util, 3.0 / 5);
	dra_gpu_map_free(m);
	kube_snapshot_free(s);
}

/*
 * Shared case 08: gpu.example.com partitionable devices; gpu-0 holds
 * another team's 1g.10gb at placement 6.  Its profiles stop at 4g, but
 * its compute-slices counter says 7.
 */
static void
test_case08(void **state)
{
	struct kube_snapshot	*s;
	struct dra_gpu_map	*m;
	const struct dra_gpu	*g;

	(void)state;
	s = load_file(CASES_DIR "/08-mig-4g-2g-1g-same-gpu/input.yaml");
	m = map_of(s, NULL);
	assert_int_equal(m->nnodes, 1);
	assert_int_equal(m->ngpus, 2);
	g = gpu_of(m, "node-a", "gpu-0");
	assert_string_equal(g->driver, "gpu.example.com");
	assert_string_equal(g->mode, "mig-dynamic");
	assert_int_equal(g->nslices, 8);
	assert_int_equal(g->compute_total, 7);
	assert_int_equal(g->nparts, 1);
	part_is(g, 0, "gpu-0-mig-1g10gb-6", "1g.10gb", 6, 1, 1,
	    DRA_PART_ALLOCATED, "other-team/existing-1g");
	near(g->util, 1.0 / 7);
	g = gpu_of(m, "node-a", "gpu-1");
	assert_int_equal(g->nparts, 0);
	near(m->util, 1.0 / 14);
	dra_gpu_map_free(m);
	kube_snapshot_free(s);
}

/*
 * The bundled example: whole GPUs (gpu-node-1), DynamicMIG
 * (gpu-node-2), static MIG (gpu-node-3), a tainted whole GPU
 * (gpu-node-4); a NIC that is no GPU.
 */
static void
test_example(void **state)
{
	struct kube_snapshot	*s;
	struct dra_gpu_map	*m;
	const struct dra_gpu	*g;

	(void)state;
	s = load_file(SOURCE_DIR "/examples/cluster.yaml");
	m = map_of(s, NULL);
	assert_int_equal(m->nnodes, 4);
	assert_int_equal(m->ngpus, 32);
	assert_int_equal(m->nparts, 50);
	assert_int_equal(m->nallocated, 12);

	g = gpu_of(m, "gpu-node-1", "gpu-1");
	part_is(g, 0, "gpu-1", NULL, 0, 1, 1, DRA_PART_ALLOCATED,
	    "team-a/ddp-trainer-0-gpus");
	assert_string_equal(g->pci_bus_id, "0000:2a:00.0");

	g = gpu_of(m, "gpu-node-2", "gpu-0");
	assert_int_equal(g->nparts, 2);
	part_is(g, 0, "gpu-0-mig-3g40gb-9-0", "3g.40gb", 0, 4, 3,
	    DRA_PART_ALLOCATED, "team-b/vllm-serve-0-gpu");
	part_is(g, 1, "gpu-0-mig-1g10gb-19-4", "1g.10gb", 4, 1, 1,
	    DRA_PART_ALLOCATED, "team-b/jupyter-bob-gpu-cr4j2");
	near(g->util, 4.0 / 7);

	g = gpu_of(m, "gpu-node-3", "gpu-0");
	assert_string_equal(g->mode, "mig-static");
	assert_int_equal(g->nparts, 4);
	part_is(g, 0, "gpu-0-mig-2g20gb-14-0", "2g.20gb", 0, 2, 2,
	    DRA_PART_ALLOCATED, "team-c/triton-infer-0-gpu-kc4tp");
	part_is(g, 1, "gpu-0-mig-1g10gb-19-2", "1g.10gb", 2, 1, 1,
	    DRA_PART_ALLOCATED, "team-b/jupyter-alice-gpu-ktg9x");
	part_is(g, 2, "gpu-0-mig-1g10gb-19-3", "1g.10gb", 3, 1, 1,
	    DRA_PART_FREE, NULL);
	part_is(g, 3, "gpu-0-mig-3g40gb-9-4", "3g.40gb", 4, 4, 3,
	    DRA_PART_ALLOCATED, "team-c/rag-embed-0-gpu");
	g = gpu_of(m, "gpu-node-3", "gpu-3");
	part_is(g, 3, "gpu-3-mig-1g20gb-15-6", "1g.20gb", 6, 2, 1,
	    DRA_PART_ALLOCATED, "team-c/triton-infer-1-gpu-mlt4q");

	/* A free whole GPU with a NoSchedule taint. */
	g = gpu_of(m, "gpu-node-4", "gpu-3");
	assert_int_equal(g->tainted, 1);
	part_is(g, 0, "gpu-3", NULL, 0, 1, 1, DRA_PART_TAINTED, NULL);
	assert_int_equal(gpu_of(m, "gpu-node-4", "gpu-2")->tainted, 0);
	/* Marked, so no warning about it (the UI showed it over every
	   view). */
	assert_int_equal(m->nwarnings, 0);

	/* 6 whole GPUs, 4/7, 6/7 and 1/7 of three more, over 32. */
	near(node_of(m, "gpu-node-1")->util, 6.0 / 8);
	near(node_of(m, "gpu-node-2")->util, 4.0 / 7 / 8);
	near(node_of(m, "gpu-node-3")->util, 1.0 / 8);
	near(node_of(m, "gpu-node-4")->util, 0);
	near(m->util, (6 + 11.0 / 7) / 32);
	dra_gpu_map_free(m);
	kube_snapshot_free(s);
}

/* Node names and the Node's labels filter; namespaces do not. */
static void
test_filter(void **state)
{
	struct kube_snapshot	*s;
	struct dra_gpu_map	*m;
	struct dra_selector	*sel;
	struct dra_filter	 f;
	struct dra_err		 err;
	static char		 n3[] = "gpu-node-3", nope[] = "nope";
	char			*names[2] = { n3, nope };
	int			 matched[2] = { 0, 0 };

	(void)state;
	s = load_file(SOURCE_DIR "/examples/cluster.yaml");
	memset(&f, 0, sizeof f);
	f.names = names;
	f.nnames = 2;
	f.matched = matched;
	f.namespace = "team-a";
	m = map_of(s, &f);
	assert_int_equal(m->nnodes, 1);
	assert_string_equal(m->nodes[0].name, "gpu-node-3");
	assert_int_equal(m->ngpus, 8);
	/* team-b's and team-c's parts are still there. */
	assert_int_equal(m->nallocated, 4);
	assert_int_equal(matched[0], 1);
	assert_int_equal(matched[1], 0);
	dra_gpu_map_free(m);

	assert_int_equal(dra_selector_parse("kubernetes.io/hostname in "
	    "(gpu-node-2,gpu-node-4)", &sel, &err), KUBE_OK);
	memset(&f, 0, sizeof f);
	f.selector = sel;
	m = map_of(s, &f);
	assert_int_equal(m->nnodes, 2);
	assert_string_equal(m->nodes[0].name, "gpu-node-2");
	assert_string_equal(m->nodes[1].name, "gpu-node-4");
	dra_gpu_map_free(m);
	dra_selector_free(sel);
	kube_snapshot_free(s);
}

/* No GPUs: an empty map; an unfinished snapshot: an error. */
static void
test_empty(void **state)
{
	struct kube_snapshot	*s;
	struct dra_gpu_map	*m;
	struct dra_err		 err;

	(void)state;
	s = kube_snapshot_new();
	assert_null(dra_gpu_map(s, NULL, &err));
	assert_int_equal(err.code, KUBE_E_CONFIG);
	assert_non_null(strstr(err.msg, "not finished"));
	kube_snapshot_finish(s);
	m = map_of(s, NULL);
	assert_int_equal(m->nnodes, 0);
	assert_int_equal(m->ngpus, 0);
	near(m->util, 0);
	dra_gpu_map_free(m);
	dra_gpu_map_free(NULL);
	kube_snapshot_free(s);
}

/* ------------------------------------------------------------------ */
/* Plans. */

static const char demand[] =
    "apiVersion: dra.kubectl.io/v1alpha1\nkind: Demand\n"
    "teams:\n"
    "- namespace: team-a\n"
    "  workloads:\n"
    "  - name: llm\n"
    "    replicas: 2\n"
    "    needs: {profile: 3g.40gb}\n"
    "  - name: tiny\n"
    "    replicas: 1\n"
    "    needs: {profile: 1g.10gb}\n"
    "- namespace: team-b\n"
    "  workloads:\n"
    "  - name: ci\n"
    "    replicas: 4\n"
    "    needs: {profile: 1g.10gb}\n"
    "    sharing: {mode: time-slicing, replicasPerDevice: 4}\n";

/* A solved plan: 2 H100s on one node, team-a/old running 3g@0. */
static cJSON *
make_plan(void)
{
	struct plan_inventory	*inv;
	struct plan_demand	*d;
	struct plan_result	*r;
	struct plan_gpu		*gp;
	const struct plan_geometry *geo;
	struct dra_plan_input	 in;
	struct dra_err		 err;
	cJSON			*doc;
	size_t			 k;
	int			 p;

	if (plan_inventory_from_fleet("2xH100-80GB", &inv, &err) != KUBE_OK)
		fail_msg("fleet: %s", err.msg);
	gp = &inv->gpus[0];
	geo = inv->geometries[gp->geometry];
	p = plan_profile_index(geo, "3g.40gb");
	for (k = 0; k < geo->nplacements; k++)
		if (geo->placements[k].profile == p &&
		    geo->placements[k].start == 0)
			break;
	assert_true(k < geo->nplacements);
	gp->running = xcalloc(1, sizeof *gp->running);
	gp->running[0].placement = (int)k;
	gp->running[0].namespace = xstrdup("team-a");
	gp->running[0].claim = xstrdup("old");
	gp->nrunning = 1;
	if (plan_demand_parse("demand.yaml", demand, strlen(demand), &d,
	    &err) != KUBE_OK)
		fail_msg("demand: %s", err.msg);
	if (plan_solve(inv, d, NULL, &r, &err) != KUBE_OK)
		fail_msg("solve: %s", err.msg);
	memset(&in, 0, sizeof in);
	in.inv = inv;
	in.demand = d;
	in.result = r;
	doc = dra_plan_document(&in);
	plan_result_free(r);
	plan_demand_free(d);
	plan_inventory_free(inv);
	return doc;
}

static const cJSON *
get(const cJSON *o, const char *k)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, k);

	assert_non_null(v);
	return v;
}

static void
test_plan(void **state)
{
	struct dra_gpu_map	*m;
	struct dra_err		 err;
	const struct dra_gpu	*g;
	const struct dra_gpu_part *p;
	const cJSON		*layout, *n, *jg, *in, *o;
	cJSON			*doc;
	size_t			 k, nplanned = 0, nrunning = 0;
	int			 found, compute = 0, ns;
	char			 want[128];

	(void)state;
	doc = make_plan();
	assert_string_equal(get(get(get(doc, "status"), "solver"),
	    "status")->valuestring, "optimal");
	m = dra_gpu_map_plan(doc, &err);
	if (m == NULL)
		fail_msg("plan map: %s", err.msg);
	layout = get(get(doc, "status"), "layout");
	assert_int_equal(m->nnodes, (size_t)cJSON_GetArraySize(layout));
	assert_int_equal(m->nnodes, 1);
	assert_int_equal(m->ngpus, 2);
	/* Every instance of the document is a part of its GPU. */
	cJSON_ArrayForEach(n, layout) {
		cJSON_ArrayForEach(jg, get(n, "gpus")) {
			g = gpu_of(m, get(n, "node")->valuestring,
			    get(jg, "name")->valuestring);
			assert_string_equal(g->mode, "mig-dynamic");
			assert_string_equal(g->model, "H100-80GB");
			assert_string_equal(g->pci_bus_id,
			    get(jg, "pciBusID")->valuestring);
			assert_int_equal(g->nslices, 8);
			assert_int_equal(g->compute_total, 7);
			assert_int_equal(g->nparts, (size_t)cJSON_GetArraySize(
			    get(jg, "instances")));
			compute = 0;
			cJSON_ArrayForEach(in, get(jg, "instances")) {
				o = get(in, "owner");
				found = 0;
				for (k = 0; k < g->nparts && !found; k++) {
					p = &g->parts[k];
					if (strcmp(p->device, get(in,
					    "device")->valuestring) != 0)
						continue;
					found = 1;
					assert_int_equal(p->start,
					    get(in, "start")->valueint);
					assert_int_equal(p->size, get(in,
					    "memorySlices")->valueint);
					assert_string_equal(p->profile,
					    get(in, "profile")->valuestring);
					assert_string_equal(p->namespace,
					    get(o, "namespace")->valuestring);
					compute += p->compute;
					if (strcmp(get(o, "kind")->valuestring,
					    "running") == 0) {
						assert_int_equal(p->state,
						    DRA_PART_ALLOCATED);
						snprintf(want, sizeof want,
						    "%s/%s", get(o,
						    "namespace")->valuestring,
						    get(o,
						    "claim")->valuestring);
						nrunning++;
					} else {
						assert_int_equal(p->state,
						    DRA_PART_PLANNED);
						snprintf(want, sizeof want,
						    "%s/%s", get(o,
						    "namespace")->valuestring,
						    get(o,
						    "workload")->valuestring);
						assert_int_equal(p->shared,
						    get(o,
						    "replicas")->valueint);
						nplanned++;
					}
					assert_string_equal(p->claim, want);
				}
				assert_true(found);
			}
			assert_int_equal(g->compute_used, compute);
			near(g->util, compute / 7.0);
			for (k = 1; k < g->nparts; k++)
				assert_true(g->parts[k - 1].start +
				    g->parts[k - 1].size <= g->parts[k].start);
		}
	}
	/* The running 3g.40gb stays at 0 on gpu-0. */
	g = gpu_of(m, "h100-80gb-0", "gpu-0");
	part_is(g, 0, "gpu-0-mig-3g40gb-9-0", "3g.40gb", 0, 4, 3,
	    DRA_PART_ALLOCATED, "team-a/old");
	/* 2 llm + 1 tiny + 1 ci device (4 replicas on one), 1 running. */
	assert_int_equal(nrunning, 1);
	assert_int_equal(nplanned, 4);
	assert_int_equal(m->nparts, 5);
	assert_int_equal(m->nallocated, 5);
	/* 3 x 3g and 2 x 1g: 11 of 14 compute slices. */
	ns = gpu_of(m, "h100-80gb-0", "gpu-0")->compute_used +
	    gpu_of(m, "h100-80gb-0", "gpu-1")->compute_used;
	assert_int_equal(ns, 11);
	near(m->util, 11.0 / 14);
	dra_gpu_map_free(m);

	/* No layout (as an infeasible plan): no GPUs. */
	cJSON_DeleteItemFromObjectCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(doc, "status"), "layout");
	m = dra_gpu_map_plan(doc, &err);
	assert_non_null(m);
	assert_int_equal(m->nnodes, 0);
	dra_gpu_map_free(m);
	cJSON_Delete(doc);
}

/*
 * A plan of the example cluster: whole GPUs kept whole are whole on
 * the plan's map too (1 slice, 1/1, not 8 slices and 7/7), a free one
 * a free whole part; matched with today's map, the tainted GPU is
 * tainted on the plan's side, and every node is in common.  A fleet's
 * plan has no node in common with the example.
 */
static void
test_plan_whole_tainted(void **state)
{
	struct kube_snapshot	*s;
	struct plan_inventory	*inv;
	struct plan_warnings	 warn;
	struct plan_demand	*d;
	struct plan_result	*r;
	struct dra_plan_input	 in;
	struct dra_gpu_map	*today, *m;
	struct dra_err		 err;
	const struct dra_gpu	*g;
	const cJSON		*n, *jg, *jin;
	cJSON			*doc;
	size_t			 nfree = 0, nheld = 0;

	(void)state;
	s = load_file(SOURCE_DIR "/examples/cluster.yaml");
	if (plan_inventory_from_snapshot(s, &inv, &warn, &err) != KUBE_OK)
		fail_msg("inventory: %s", err.msg);
	plan_warnings_free(&warn);
	if (plan_demand_parse("demand.yaml", demand, strlen(demand), &d,
	    &err) != KUBE_OK)
		fail_msg("demand: %s", err.msg);
	if (plan_solve(inv, d, NULL, &r, &err) != KUBE_OK)
		fail_msg("solve: %s", err.msg);
	memset(&in, 0, sizeof in);
	in.inv = inv;
	in.demand = d;
	in.result = r;
	doc = dra_plan_document(&in);
	plan_result_free(r);
	plan_demand_free(d);
	plan_inventory_free(inv);
	m = dra_gpu_map_plan(doc, &err);
	if (m == NULL)
		fail_msg("plan map: %s", err.msg);
	/* Every whole-mode GPU of the document kept whole. */
	cJSON_ArrayForEach(n, get(get(doc, "status"), "layout")) {
		cJSON_ArrayForEach(jg, get(n, "gpus")) {
			if (strcmp(get(jg, "mode")->valuestring, "whole") != 0)
				continue;
			jin = get(jg, "instances");
			if (cJSON_GetArraySize(jin) > 1 ||
			    (cJSON_GetArraySize(jin) == 1 && strcmp(get(
			    jin->child, "profile")->valuestring, "gpu") != 0))
				continue;
			g = gpu_of(m, get(n, "node")->valuestring,
			    get(jg, "name")->valuestring);
			assert_string_equal(g->mode, "whole");
			assert_int_equal(g->nslices, 1);
			assert_int_equal(g->compute_total, 1);
			assert_int_equal(g->nparts, 1);
			assert_int_equal(g->parts[0].start, 0);
			assert_int_equal(g->parts[0].size, 1);
			if (cJSON_GetArraySize(jin) == 0) {
				part_is(g, 0, g->name, NULL, 0, 1, 1,
				    DRA_PART_FREE, NULL);
				near(g->util, 0);
				nfree++;
			} else {
				assert_int_equal(g->compute_used, 1);
				near(g->util, 1);
				nheld++;
			}
		}
	}
	/* ddp-trainer's GPUs stay as they run. */
	part_is(gpu_of(m, "gpu-node-1", "gpu-0"), 0, "gpu-0", NULL, 0, 1, 1,
	    DRA_PART_ALLOCATED, "team-a/ddp-trainer-0-gpus");
	assert_int_equal(nheld, 6);
	assert_true(nfree >= 1);
	/* Today's taint comes over. */
	g = gpu_of(m, "gpu-node-4", "gpu-3");
	assert_int_equal(g->tainted, 0);
	today = map_of(s, NULL);
	assert_int_equal(dra_gpu_map_match(m, today), 4);
	assert_int_equal(g->tainted, 1);
	assert_int_equal(g->nparts, 1);
	assert_int_equal(g->parts[0].state, DRA_PART_TAINTED);
	assert_int_equal(gpu_of(m, "gpu-node-4", "gpu-2")->tainted, 0);
	dra_gpu_map_free(m);
	cJSON_Delete(doc);

	/* A fleet (h100-80gb-0): nothing in common. */
	doc = make_plan();
	m = dra_gpu_map_plan(doc, &err);
	assert_non_null(m);
	assert_int_equal(dra_gpu_map_match(m, today), 0);
	assert_int_equal(dra_gpu_map_match(m, NULL), 0);
	dra_gpu_map_free(m);
	cJSON_Delete(doc);
	dra_gpu_map_free(today);
	kube_snapshot_free(s);
}

/* Set field key of the first GPU (or its first instance) to v. */
static cJSON *
broken(const char *where, const char *key, cJSON *v)
{
	cJSON	*doc = make_plan(), *o;

	if (strcmp(where, "models") == 0)
		o = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetObjectItemCaseSensitive(doc, "spec"),
		    "inventory"), "models"), 0);
	else {
		o = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetObjectItemCaseSensitive(doc, "status"),
		    "layout"), 0), "gpus"), 0);
		if (strcmp(where, "instance") == 0)
			o = cJSON_GetArrayItem(
			    cJSON_GetObjectItemCaseSensitive(o,
			    "instances"), 0);
	}
	assert_non_null(o);
	cJSON_ReplaceItemInObjectCaseSensitive(o, key, v);
	return doc;
}

static void
refused(cJSON *doc, const char *msg)
{
	struct dra_err	err;

	dra_err_clear(&err);
	assert_null(dra_gpu_map_plan(doc, &err));
	assert_int_equal(err.code, KUBE_E_PARSE);
	assert_string_equal(err.msg, msg);
	cJSON_Delete(doc);
}

static void
test_plan_malformed(void **state)
{
	struct dra_err	err;
	cJSON		*doc;

	(void)state;
	refused(broken("instance", "start", cJSON_CreateString("x")),
	    "status.layout[0].gpus[0].instances[0].start: expected an "
	    "integer");
	refused(broken("instance", "memorySlices", cJSON_CreateNumber(9)),
	    "status.layout[0].gpus[0].instances[0]: memory slices 0 to 8 "
	    "are outside the GPU's 8");
	refused(broken("gpu", "pciBusID", cJSON_CreateNumber(5)),
	    "status.layout[0].gpus[0].pciBusID: expected a string");
	refused(broken("models", "computeSlices", cJSON_CreateString("7")),
	    "spec.inventory.models[0].computeSlices: expected an integer "
	    "from 0 to 64");
	doc = cJSON_CreateObject();
	cJSON_AddStringToObject(doc, "apiVersion", "v1");
	refused(doc, "apiVersion: expected \"dra.kubectl.io/v1alpha1\"");
	assert_null(dra_gpu_map_plan(NULL, &err));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dynamic),
		cmocka_unit_test(test_tainted),
		cmocka_unit_test(test_static),
		cmocka_unit_test(test_whole),
		cmocka_unit_test(test_case08),
		cmocka_unit_test(test_example),
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_plan_malformed),
		cmocka_unit_test(test_plan_whole_tainted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
