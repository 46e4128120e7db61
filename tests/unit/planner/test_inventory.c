/*
 * test_inventory.c: the planner's inventory (planner/inventory.h):
 * fleet specs, GPUs read from snapshots (derived, static, whole,
 * another vendor's partitionable devices, the bundled example
 * cluster), and the snapshot an inventory publishes, read back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "catalog.h"
#include "geometry.h"
#include "inventory.h"
#include "model.h"
#include "snapshot.h"

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

static struct plan_inventory *
read_snapshot(const struct kube_snapshot *s, struct plan_warnings *w)
{
	struct plan_inventory	*inv;
	struct dra_err		 err;

	if (plan_inventory_from_snapshot(s, &inv, w, &err) != KUBE_OK)
		fail_msg("inventory: %s", err.msg);
	return inv;
}

static struct plan_inventory *
fleet(const char *spec)
{
	struct plan_inventory	*inv;
	struct dra_err		 err;

	if (plan_inventory_from_fleet(spec, &inv, &err) != KUBE_OK)
		fail_msg("fleet %s: %s", spec, err.msg);
	return inv;
}

static const struct plan_gpu *
gpu(const struct plan_inventory *inv, const char *node, const char *name)
{
	size_t	i;

	for (i = 0; i < inv->ngpus; i++)
		if (strcmp(inv->gpus[i].node, node) == 0 &&
		    strcmp(inv->gpus[i].name, name) == 0)
			return &inv->gpus[i];
	fail_msg("no GPU %s/%s", node, name);
	return NULL;
}

static const struct plan_geometry *
geo_of(const struct plan_inventory *inv, const struct plan_gpu *g)
{
	assert_true(g->geometry < inv->ngeometries);
	return inv->geometries[g->geometry];
}

/* "profile@start" of placement p. */
static void
pdesc(const struct plan_geometry *g, int p, char *buf, size_t len)
{
	assert_true(p >= 0 && (size_t)p < g->nplacements);
	snprintf(buf, len, "%s@%d", g->profiles[g->placements[p].profile].name,
	    g->placements[p].start);
}

/* "ns/claim=profile@start,..." of the GPU's running instances. */
static const char *
running(const struct plan_inventory *inv, const struct plan_gpu *g)
{
	static char	buf[2048];
	char		p[128];
	size_t		i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < g->nrunning; i++) {
		pdesc(geo_of(inv, g), g->running[i].placement, p, sizeof p);
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s/%s=%s",
		    i ? "," : "", g->running[i].namespace,
		    g->running[i].claim, p);
	}
	return buf;
}

/* "profile@start,..." of the GPU's existing (static) instances. */
static const char *
existing(const struct plan_inventory *inv, const struct plan_gpu *g)
{
	static char	buf[2048];
	char		p[128];
	size_t		i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < g->nexisting; i++) {
		pdesc(geo_of(inv, g), g->existing[i], p, sizeof p);
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s",
		    i ? "," : "", p);
	}
	return buf;
}

static int
counter_index(const struct plan_geometry *g, const char *name)
{
	size_t	i;

	for (i = 0; i < g->ncounters; i++)
		if (strcmp(g->counters[i], name) == 0)
			return (int)i;
	return -1;
}

/*
 * a (derived) is the catalogue geometry b as the driver publishes it:
 * the same counters and capacities (by name), the same profiles (by
 * name), the same placements in the same order with the same uses.
 */
static void
assert_same_geometry(const struct plan_geometry *a,
    const struct plan_geometry *b)
{
	const struct plan_profile	*p, *q;
	size_t				 i, c;
	int				 k, pi;

	assert_string_equal(a->model, b->model);
	assert_int_equal(a->ncounters, b->ncounters);
	for (c = 0; c < b->ncounters; c++) {
		k = counter_index(a, b->counters[c]);
		if (k < 0)
			fail_msg("counter %s missing", b->counters[c]);
		assert_int_equal(a->capacity[k], b->capacity[c]);
	}
	assert_int_equal(a->memory_slices, b->memory_slices);
	assert_int_equal(a->compute_slices, b->compute_slices);
	assert_int_equal(a->sm, b->sm);
	assert_int_equal(a->memory_mib, b->memory_mib);
	assert_int_equal(a->nprofiles, b->nprofiles);
	for (i = 0; i < b->nprofiles; i++) {
		q = &b->profiles[i];
		pi = plan_profile_index(a, q->name);
		if (pi < 0)
			fail_msg("profile %s missing", q->name);
		p = &a->profiles[pi];
		assert_int_equal(p->whole, q->whole);
		assert_int_equal(p->compute, q->compute);
		assert_int_equal(p->memory, q->memory);
		assert_int_equal(p->me, q->me);
		assert_int_equal(p->sm, q->sm);
		assert_int_equal(p->memory_mib, q->memory_mib);
		assert_int_equal(p->gi_id, q->gi_id);
	}
	assert_int_equal(a->nplacements, b->nplacements);
	for (i = 0; i < b->nplacements; i++) {
		assert_string_equal(a->profiles[a->placements[i].profile].name,
		    b->profiles[b->placements[i].profile].name);
		assert_int_equal(a->placements[i].start,
		    b->placements[i].start);
		for (c = 0; c < b->ncounters; c++)
			assert_int_equal(a->placements[i].use[counter_index(a,
			    b->counters[c])], b->placements[i].use[c]);
	}
}

static struct plan_geometry *
catalogue(const char *model)
{
	struct plan_geometry	*g;
	struct dra_err		 err;

	if (plan_catalog_geometry(model, &g, &err) != KUBE_OK)
		fail_msg("catalogue %s: %s", model, err.msg);
	return g;
}

static int
placement_of(const struct plan_geometry *g, const char *profile, int start)
{
	int	pi = plan_profile_index(g, profile);
	size_t	i;

	for (i = 0; i < g->nplacements; i++)
		if ((int)g->placements[i].profile == pi &&
		    g->placements[i].start == start)
			return (int)i;
	fail_msg("no placement %s@%d", profile, start);
	return -1;
}

/* ------------------------------------------------------------------ */

static void
test_fleet(void **state)
{
	struct plan_inventory	*inv;
	size_t			 i;

	(void)state;
	inv = fleet("16xH100-80GB,4xA100-40GB/4");
	assert_string_equal(inv->source, "fleet 16xH100-80GB,4xA100-40GB/4");
	assert_int_equal(inv->live, 0);
	assert_int_equal(inv->ngpus, 20);
	assert_int_equal(inv->ngeometries, 2);
	assert_string_equal(inv->geometries[0]->model, "H100-80GB");
	assert_string_equal(inv->geometries[1]->model, "A100-40GB");
	/* Sorted by node: a100-40gb-0 comes before h100-80gb-0. */
	assert_string_equal(inv->gpus[0].node, "a100-40gb-0");
	assert_string_equal(inv->gpus[0].name, "gpu-0");
	assert_int_equal(inv->gpus[0].geometry, 1);
	assert_string_equal(inv->gpus[3].node, "a100-40gb-0");
	assert_string_equal(inv->gpus[3].name, "gpu-3");
	assert_string_equal(inv->gpus[4].node, "h100-80gb-0");
	assert_string_equal(inv->gpus[4].name, "gpu-0");
	assert_int_equal(inv->gpus[4].geometry, 0);
	assert_string_equal(inv->gpus[4].pci_bus_id, "0000:18:00.0");
	assert_string_equal(inv->gpus[5].pci_bus_id, "0000:2a:00.0");
	assert_string_equal(inv->gpus[12].node, "h100-80gb-1");
	assert_string_equal(inv->gpus[19].node, "h100-80gb-1");
	assert_string_equal(inv->gpus[19].name, "gpu-7");
	for (i = 0; i < inv->ngpus; i++) {
		assert_int_equal(inv->gpus[i].mode, PLAN_MODE_DYNAMIC);
		assert_int_equal(inv->gpus[i].nrunning, 0);
		assert_int_equal(inv->gpus[i].nexisting, 0);
		assert_null(inv->gpus[i].devices);
	}
	plan_inventory_free(inv);

	/* A30: 4 per node by default; the last node holds the rest. */
	inv = fleet("10xA30");
	assert_int_equal(inv->ngpus, 10);
	assert_string_equal(inv->geometries[0]->model, "A30-24GB");
	assert_string_equal(inv->gpus[3].node, "a30-24gb-0");
	assert_string_equal(inv->gpus[4].node, "a30-24gb-1");
	assert_string_equal(inv->gpus[8].node, "a30-24gb-2");
	assert_string_equal(inv->gpus[9].name, "gpu-1");
	plan_inventory_free(inv);

	/* Blanks, lower case, an explicit per-node count. */
	inv = fleet(" 20 x h100 / 8 ");
	assert_int_equal(inv->ngpus, 20);
	assert_string_equal(inv->gpus[16].node, "h100-80gb-2");
	assert_string_equal(inv->gpus[19].name, "gpu-3");
	plan_inventory_free(inv);

	/* One model twice: one geometry, node numbers go on. */
	inv = fleet("8xH100-80GB,8xH100");
	assert_int_equal(inv->ngeometries, 1);
	assert_string_equal(inv->gpus[8].node, "h100-80gb-1");
	plan_inventory_free(inv);

	/* Byte-wise node order: h100-80gb-10 before h100-80gb-2. */
	inv = fleet("96xH100-80GB");
	assert_string_equal(inv->gpus[16].node, "h100-80gb-10");
	assert_string_equal(inv->gpus[95].node, "h100-80gb-9");
	plan_inventory_free(inv);
}

static void
test_fleet_errors(void **state)
{
	static const struct {
		const char	*spec;
		const char	*msg;	/* prefix */
	} bad[] = {
		{ "16xH100-80GB,4xA100", "--fleet: item 2 \"4xA100\": "
		    "unknown GPU model \"A100\" (known: A30-24GB" },
		{ "", "--fleet: empty" },
		{ "  ", "--fleet: empty" },
		{ "0xH100", "--fleet: item 1 \"0xH100\": count must be 1 to "
		    "1000000" },
		{ "2000000xH100", "--fleet: item 1 \"2000000xH100\": count "
		    "must be 1 to 1000000" },
		{ "600000xH100,600000xA30", "--fleet: item 2 "
		    "\"600000xA30\": the fleet would hold more than 1000000 "
		    "GPUs" },
		{ "8xH100/0", "--fleet: item 1 \"8xH100/0\": GPUs per node "
		    "must be 1 to 64" },
		{ "8xH100/65", "--fleet: item 1 \"8xH100/65\": GPUs per node "
		    "must be 1 to 64" },
		{ "H100", "--fleet: item 1 \"H100\": expected "
		    "COUNTxMODEL[/GPUS-PER-NODE]" },
		{ "8xH100,,4xA30", "--fleet: item 2 \"\": expected "
		    "COUNTxMODEL[/GPUS-PER-NODE]" },
		{ "8xH100/4x", "--fleet: item 1 \"8xH100/4x\": expected" },
		{ "8x", "--fleet: item 1 \"8x\": expected" },
		{ "8xH100, 4 * A30", "--fleet: item 2 \"4 * A30\": expected" },
	};
	struct plan_inventory	*inv;
	struct dra_err		 err;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		inv = (struct plan_inventory *)1;
		dra_err_clear(&err);
		assert_int_equal(plan_inventory_from_fleet(bad[i].spec, &inv,
		    &err), KUBE_E_CONFIG);
		assert_null(inv);
		if (strncmp(err.msg, bad[i].msg, strlen(bad[i].msg)) != 0)
			fail_msg("%s: got \"%s\", want \"%s...\"", bad[i].spec,
			    err.msg, bad[i].msg);
	}
	assert_int_equal(plan_inventory_from_fleet(NULL, &inv, &err),
	    KUBE_E_CONFIG);
	assert_string_equal(err.msg, "--fleet: empty");
}

/* Two H100 with DynamicMIG: the geometry derived equals the catalogue's. */
static void
test_snapshot_dynamic(void **state)
{
	struct kube_snapshot	*s;
	struct plan_inventory	*inv;
	struct plan_geometry	*cat;
	struct plan_warnings	 w;
	const struct plan_geometry *g;
	const struct plan_gpu	*g0, *g1;

	(void)state;
	s = load_file(DATA_DIR "/data/inv-dynamic.yaml");
	inv = read_snapshot(s, &w);
	assert_int_equal(w.n, 0);
	assert_int_equal(inv->live, 1);
	assert_int_equal(inv->ngpus, 2);
	assert_int_equal(inv->ngeometries, 1);
	g = inv->geometries[0];
	assert_int_equal(g->derived, 1);
	assert_string_equal(g->model, "H100-80GB");
	assert_string_equal(g->product, "NVIDIA H100 80GB HBM3");
	assert_string_equal(g->driver, "gpu.nvidia.com");
	assert_int_equal(g->compute_slices, 7);
	assert_int_equal(g->memory_slices, 8);
	assert_int_equal(g->sm, 132);
	assert_int_equal(g->memory_mib, 81152);
	cat = catalogue("H100-80GB");
	assert_same_geometry(g, cat);
	plan_geometry_free(cat);

	g0 = gpu(inv, "gpu-node-1", "gpu-0");
	g1 = gpu(inv, "gpu-node-1", "gpu-1");
	assert_ptr_equal(g0, &inv->gpus[0]);
	assert_int_equal(g0->mode, PLAN_MODE_DYNAMIC);
	assert_string_equal(g0->pci_bus_id, "0000:18:00.0");
	assert_string_equal(g1->pci_bus_id, "0000:2a:00.0");
	assert_string_equal(g0->devices[0], "gpu-0");
	assert_string_equal(g0->devices[1], "gpu-0-mig-1g10gb-19-0");
	assert_string_equal(g0->devices[25], "gpu-0-mig-7g80gb-0-0");
	assert_string_equal(g1->devices[24], "gpu-1-mig-4g40gb-5-0");
	/* In placement order; the admin-access claim on gpu-1 holds none. */
	assert_string_equal(running(inv, g0), "team-b/notebook-0=1g.10gb@4,"
	    "team-a/train-0=3g.40gb@0");
	assert_int_equal(g1->nrunning, 0);
	plan_inventory_free(inv);
	plan_warnings_free(&w);
	kube_snapshot_free(s);
}

/* Another vendor's partitionable device, no NVIDIA attributes. */
static void
test_snapshot_generic(void **state)
{
	struct kube_snapshot	*s;
	struct plan_inventory	*inv;
	struct plan_warnings	 w;
	const struct plan_geometry *g;
	const struct plan_gpu	*a;
	static const char *const names[] = { "gpu", "half", "half", "quarter",
	    "quarter", "quarter", "quarter", "tiny" };
	static const int starts[] = { 0, 0, 1, 0, 1, 2, 3, 0 };
	size_t			 i;

	(void)state;
	s = load_file(DATA_DIR "/data/inv-generic.yaml");
	inv = read_snapshot(s, &w);
	assert_int_equal(inv->ngpus, 1);
	a = &inv->gpus[0];
	assert_string_equal(a->node, "n1");
	assert_string_equal(a->name, "acc-0");
	assert_int_equal(a->mode, PLAN_MODE_DYNAMIC);
	assert_null(a->pci_bus_id);
	g = geo_of(inv, a);
	assert_int_equal(g->derived, 1);
	assert_string_equal(g->model, "accel.example.com");
	assert_null(g->product);
	assert_string_equal(g->driver, "accel.example.com");
	assert_int_equal(g->ncounters, 2);
	assert_string_equal(g->counters[0], "cores");
	assert_string_equal(g->counters[1], "memory");
	assert_int_equal(g->capacity[0], 8);
	assert_int_equal(g->capacity[1], 16384);
	assert_int_equal(g->memory_slices, 0);
	assert_int_equal(g->compute_slices, 0);
	assert_int_equal(g->nprofiles, 4);
	assert_int_equal(g->profiles[0].whole, 1);
	assert_int_equal(g->nplacements, 8);
	for (i = 0; i < 8; i++) {
		assert_string_equal(g->profiles[g->placements[i].profile].name,
		    names[i]);
		assert_int_equal(g->placements[i].start, starts[i]);
	}
	assert_string_equal(a->devices[0], "acc-0");
	assert_string_equal(a->devices[7], "acc-0-tiny-0");
	assert_int_equal(g->placements[1].use[0], 4);
	assert_int_equal(g->placements[1].use[1], 8192);
	assert_int_equal(g->placements[0].use[1], 16384);
	/* 1000Ki is rounded up to 1 MiB, with a warning. */
	assert_int_equal(g->placements[7].use[0], 1);
	assert_int_equal(g->placements[7].use[1], 1);
	assert_int_equal(w.n, 1);
	assert_non_null(strstr(w.v[0], "accel.example.com/n1/acc-0-set: "
	    "counter values are not whole units"));
	assert_string_equal(running(inv, a), "team-z/infer-0=quarter@1");
	plan_inventory_free(inv);
	plan_warnings_free(&w);
	kube_snapshot_free(s);
}

/* examples/cluster.yaml, GPU by GPU. */
static void
test_example_cluster(void **state)
{
	static const char *const node3[8] = {
		"1g.10gb@2,1g.10gb@3,2g.20gb@0,3g.40gb@4",
		"3g.40gb@4,4g.40gb@0",
		"1g.10gb@0,1g.10gb@1,1g.10gb@2,1g.10gb@3,1g.10gb@4,1g.10gb@5,"
		    "1g.10gb@6",
		"1g.20gb@6,2g.20gb@0,2g.20gb@2,2g.20gb@4",
		"3g.40gb@0,3g.40gb@4",
		"1g.10gb@2,1g.10gb@3,2g.20gb@0,3g.40gb@4",
		"3g.40gb@4,4g.40gb@0",
		"1g.10gb@0,1g.10gb@1,1g.10gb@2,1g.10gb@3,1g.10gb@4,1g.10gb@5,"
		    "1g.10gb@6",
	};
	static const char *const node1[8] = {
		"team-a/ddp-trainer-0-gpus=gpu@0",
		"team-a/ddp-trainer-0-gpus=gpu@0",
		"team-a/llama-finetune-0-gpu-dr8f4=gpu@0",
		"team-c/sd-batch-0-gpu=gpu@0",
		"team-b/rdma-bench-0-gpu-nic=gpu@0",
		"team-a/eval-harness-0-gpu-87znp=gpu@0",
		"", "",
	};
	struct kube_snapshot	*s;
	struct plan_inventory	*inv;
	struct plan_warnings	 w;
	struct plan_geometry	*cat;
	const struct plan_gpu	*g;
	char			 name[16];
	size_t			 i;

	(void)state;
	s = load_file(SOURCE_DIR "/examples/cluster.yaml");
	inv = read_snapshot(s, &w);
	/* gpu-node-4's gpu-3 carries NoSchedule: it takes nothing new. */
	assert_int_equal(w.n, 1);
	assert_string_equal(w.v[0], "gpu.nvidia.com/gpu-node-4/gpu-3: taint "
	    "nvidia.com/gpu-unhealthy=xid-79:NoSchedule on device gpu-3; "
	    "nothing new is planned on it");
	for (i = 0; i < 32; i++)
		assert_int_equal(inv->gpus[i].tainted,
		    strcmp(inv->gpus[i].node, "gpu-node-4") == 0 &&
		    strcmp(inv->gpus[i].name, "gpu-3") == 0);
	assert_int_equal(inv->ngpus, 32);
	assert_int_equal(inv->ngeometries, 2);
	/* gpu-node-1 (whole) comes first: the catalogue's H100. */
	assert_int_equal(inv->geometries[0]->derived, 0);
	assert_string_equal(inv->geometries[0]->model, "H100-80GB");
	assert_int_equal(inv->geometries[1]->derived, 1);
	cat = catalogue("H100-80GB");
	assert_same_geometry(inv->geometries[1], cat);
	plan_geometry_free(cat);
	for (i = 0; i < 8; i++) {
		snprintf(name, sizeof name, "gpu-%zu", i);
		g = gpu(inv, "gpu-node-1", name);
		assert_int_equal(g->mode, PLAN_MODE_WHOLE);
		assert_int_equal(g->geometry, 0);
		assert_int_equal(g->nexisting, 0);
		assert_null(g->devices);
		assert_string_equal(running(inv, g), node1[i]);

		g = gpu(inv, "gpu-node-2", name);
		assert_int_equal(g->mode, PLAN_MODE_DYNAMIC);
		assert_int_equal(g->geometry, 1);
		assert_string_equal(running(inv, g), i == 0 ?
		    "team-b/jupyter-bob-gpu-cr4j2=1g.10gb@4,"
		    "team-b/vllm-serve-0-gpu=3g.40gb@0" : "");

		g = gpu(inv, "gpu-node-3", name);
		assert_int_equal(g->mode, PLAN_MODE_STATIC);
		assert_int_equal(g->geometry, 0);
		assert_string_equal(existing(inv, g), node3[i]);
		assert_string_equal(running(inv, g), i == 0 ?
		    "team-b/jupyter-alice-gpu-ktg9x=1g.10gb@2,"
		    "team-c/triton-infer-0-gpu-kc4tp=2g.20gb@0,"
		    "team-c/rag-embed-0-gpu=3g.40gb@4" : i == 3 ?
		    "team-c/triton-infer-1-gpu-mlt4q=1g.20gb@6" : "");

		g = gpu(inv, "gpu-node-4", name);
		assert_int_equal(g->mode, PLAN_MODE_WHOLE);
		assert_int_equal(g->nrunning, 0);
	}
	assert_string_equal(gpu(inv, "gpu-node-3", "gpu-7")->pci_bus_id,
	    "0000:db:00.0");
	assert_string_equal(gpu(inv, "gpu-node-2", "gpu-1")->pci_bus_id,
	    "0000:2a:00.0");
	plan_inventory_free(inv);
	plan_warnings_free(&w);
	kube_snapshot_free(s);
}

/* What is left out, and said so. */
static void
test_snapshot_warnings(void **state)
{
	struct kube_snapshot	*s;
	struct plan_inventory	*inv;
	struct plan_warnings	 w;
	struct dra_err		 err;

	(void)state;
	s = load_text(
	    "apiVersion: resource.k8s.io/v1\n"
	    "kind: ResourceSlice\n"
	    "metadata: {name: n1-gpu}\n"
	    "spec:\n"
	    "  driver: gpu.nvidia.com\n"
	    "  nodeName: n1\n"
	    "  pool: {name: n1, generation: 1, resourceSliceCount: 1}\n"
	    "  devices:\n"
	    "  - name: gpu-0\n"
	    "    attributes:\n"
	    "      type: {string: gpu}\n"
	    "      uuid: {string: GPU-0}\n"
	    "      productName: {string: NVIDIA L4}\n"
	    "  - name: gpu-1-mig-1g10gb-19-7\n"
	    "    attributes:\n"
	    "      type: {string: mig}\n"
	    "      parentUUID: {string: GPU-1}\n"
	    "      profile: {string: 1g.10gb}\n"
	    "      productName: {string: NVIDIA H100 80GB HBM3}\n"
	    "  - name: gpu-1-mig-3g40gb-9-4\n"
	    "    attributes:\n"
	    "      type: {string: mig}\n"
	    "      parentUUID: {string: GPU-1}\n"
	    "      profile: {string: 3g.40gb}\n"
	    "      productName: {string: NVIDIA H100 80GB HBM3}\n"
	    "    capacity: {memorySlice4: {value: \"1\"}, memorySlice5: "
	    "{value: \"1\"}}\n"
	    "  - name: gpu-2-mig-9-0-4\n"
	    "    attributes:\n"
	    "      type: {string: mig}\n"
	    "      parentUUID: {string: GPU-2}\n"
	    "      profile: {string: 3g.40gb}\n"
	    "      productName: {string: NVIDIA H100 80GB HBM3}\n"
	    "  - name: vfio-0\n"
	    "    attributes:\n"
	    "      type: {string: vfio}\n");
	inv = read_snapshot(s, &w);
	/* The L4 is not in the catalogue; 1g.10gb never starts at 7. */
	assert_int_equal(w.n, 2);
	assert_string_equal(w.v[0], "gpu.nvidia.com/n1/gpu-0: product "
	    "\"NVIDIA L4\" is not in the GPU catalogue; GPU skipped");
	assert_string_equal(w.v[1], "gpu.nvidia.com/n1/gpu-1-mig-1g10gb-19-7: "
	    "profile \"1g.10gb\" at memory slice 7 is no placement of "
	    "H100-80GB; instance skipped");
	assert_int_equal(inv->ngpus, 2);
	/* Start from memorySlice<i> first, then the v25.3 name form. */
	assert_string_equal(inv->gpus[0].name, "gpu-1");
	assert_int_equal(inv->gpus[0].mode, PLAN_MODE_STATIC);
	assert_string_equal(existing(inv, &inv->gpus[0]), "3g.40gb@4");
	assert_string_equal(inv->gpus[1].name, "gpu-2");
	assert_string_equal(existing(inv, &inv->gpus[1]), "3g.40gb@0");
	plan_inventory_free(inv);
	plan_warnings_free(&w);
	/* Warnings are optional; an unfinished snapshot is refused. */
	inv = read_snapshot(s, NULL);
	plan_inventory_free(inv);
	kube_snapshot_free(s);
	s = kube_snapshot_new();
	assert_int_equal(plan_inventory_from_snapshot(s, &inv, NULL, &err),
	    KUBE_E_CONFIG);
	assert_null(inv);
	kube_snapshot_free(s);
}

/*
 * Ampere with DynamicMIG publishes no whole GPU: the full-size profile
 * consumes every counter but stays a profile, and the GPU is named
 * after its counter set.
 */
static void
test_snapshot_no_whole(void **state)
{
	struct kube_snapshot	*s;
	struct plan_inventory	*inv;
	const struct plan_geometry *g;

	(void)state;
	s = load_text(
	    "apiVersion: resource.k8s.io/v1\n"
	    "kind: ResourceSlice\n"
	    "metadata: {name: n1-gpu}\n"
	    "spec:\n"
	    "  driver: gpu.nvidia.com\n"
	    "  nodeName: n1\n"
	    "  pool: {name: n1, generation: 1, resourceSliceCount: 1}\n"
	    "  sharedCounters:\n"
	    "  - name: gpu-0-counter-set\n"
	    "    counters: {memory-slice-0: {value: '1'}, memory-slice-1: "
	    "{value: '1'}}\n"
	    "  devices:\n"
	    "  - name: gpu-0-mig-2g10gb-5-0\n"
	    "    attributes: {type: {string: mig}, profile: {string: 2g.10gb}, "
	    "productName: {string: NVIDIA A30}}\n"
	    "    consumesCounters:\n"
	    "    - {counterSet: gpu-0-counter-set, counters: {memory-slice-0: "
	    "{value: '1'}, memory-slice-1: {value: '1'}}}\n"
	    "  - name: gpu-0-mig-1g5gb-14-1\n"
	    "    attributes: {type: {string: mig}, profile: {string: 1g.5gb}, "
	    "productName: {string: NVIDIA A30}}\n"
	    "    consumesCounters:\n"
	    "    - {counterSet: gpu-0-counter-set, counters: {memory-slice-1: "
	    "{value: '1'}}}\n");
	inv = read_snapshot(s, NULL);
	assert_int_equal(inv->ngpus, 1);
	assert_string_equal(inv->gpus[0].name, "gpu-0");
	g = inv->geometries[0];
	assert_string_equal(g->model, "A30-24GB");
	assert_int_equal(g->nprofiles, 2);
	assert_string_equal(g->profiles[0].name, "1g.5gb");
	assert_int_equal(g->profiles[0].whole, 0);
	assert_int_equal(g->profiles[0].gi_id, 14);
	assert_string_equal(g->profiles[1].name, "2g.10gb");
	assert_int_equal(g->profiles[1].whole, 0);
	assert_int_equal(g->profiles[1].compute, 2);
	assert_int_equal(g->profiles[1].memory, 2);
	assert_int_equal(g->compute_slices, 2);
	assert_int_equal(g->placements[0].start, 1);
	assert_int_equal(g->placements[1].start, 0);
	plan_inventory_free(inv);
	kube_snapshot_free(s);
}

static void
add_running(struct plan_inventory *inv, size_t gi, const char *profile,
    int start, const char *ns, const char *claim)
{
	struct plan_gpu	*g = &inv->gpus[gi];

	g->running = realloc(g->running, (g->nrunning + 1) *
	    sizeof *g->running);
	assert_non_null(g->running);
	g->running[g->nrunning].placement = placement_of(geo_of(inv, g),
	    profile, start);
	g->running[g->nrunning].namespace = strdup(ns);
	g->running[g->nrunning].claim = strdup(claim);
	g->nrunning++;
}

/* Inventory -> snapshot -> inventory keeps the GPUs and the geometry. */
static void
assert_round_trip(const struct plan_inventory *a,
    const struct plan_inventory *b)
{
	char	ra[2048];
	size_t	i;

	assert_int_equal(a->ngpus, b->ngpus);
	for (i = 0; i < a->ngpus; i++) {
		assert_string_equal(a->gpus[i].node, b->gpus[i].node);
		assert_string_equal(a->gpus[i].name, b->gpus[i].name);
		assert_int_equal(b->gpus[i].mode, PLAN_MODE_DYNAMIC);
		if (a->gpus[i].pci_bus_id != NULL)
			assert_string_equal(a->gpus[i].pci_bus_id,
			    b->gpus[i].pci_bus_id);
		snprintf(ra, sizeof ra, "%s", running(a, &a->gpus[i]));
		assert_string_equal(running(b, &b->gpus[i]), ra);
		assert_same_geometry(geo_of(b, &b->gpus[i]),
		    geo_of(a, &a->gpus[i]));
		assert_int_equal(geo_of(b, &b->gpus[i])->derived, 1);
	}
}

static void
test_round_trip(void **state)
{
	struct plan_inventory	*inv, *back;
	struct kube_snapshot	*s, *ex;
	struct plan_warnings	 w;
	struct dra_err		 err;
	const struct kube_pool	*pool;
	const struct kube_device *d;
	const struct kube_claim	*c;
	size_t			 v[2];

	(void)state;
	inv = fleet("3xH100-80GB/2,2xA30-24GB");
	/* a30-24gb-0: gpu-0, gpu-1; h100-80gb-0: gpu-0, gpu-1; -1: gpu-0. */
	assert_string_equal(inv->gpus[2].node, "h100-80gb-0");
	/* In placement order, as the snapshot reader gives them. */
	add_running(inv, 2, "1g.10gb", 0, "team-a", "c2");
	add_running(inv, 2, "3g.40gb", 4, "team-a", "c1");
	add_running(inv, 4, PLAN_WHOLE_GPU, 0, "team-b", "c3");
	add_running(inv, 1, "2g.12gb", 2, "team-c", "c4");
	assert_int_equal(plan_inventory_snapshot(inv, &s, &err), KUBE_OK);
	/* The split layout: one counter slice, one slice per GPU. */
	pool = kube_snapshot_pool(s, "gpu.nvidia.com", "h100-80gb-0");
	assert_non_null(pool);
	assert_int_equal(pool->slice_count, 3);
	assert_int_equal(pool->nslices, 3);
	assert_true(pool->complete);
	assert_null(pool->invalid);
	assert_int_equal(pool->ndevices, 52);
	assert_string_equal(pool->slices[0]->meta.name,
	    "h100-80gb-0-gpu.nvidia.com-0");
	assert_int_equal(pool->slices[0]->ncounter_sets, 2);
	assert_string_equal(pool->slices[0]->counter_sets[1].name,
	    "gpu-1-counter-set");
	assert_int_equal(pool->slices[1]->ndevices, 26);
	assert_string_equal(pool->slices[1]->devices[0].name, "gpu-0");
	assert_string_equal(pool->slices[1]->devices[25].name,
	    "gpu-0-mig-7g80gb-0-0");
	assert_int_equal(kube_snapshot_pool(s, "gpu.nvidia.com",
	    "a30-24gb-0")->ndevices, 2 * inv->geometries[1]->nplacements);
	assert_non_null(kube_snapshot_class(s, PLAN_CLASS_MIG));
	assert_non_null(kube_snapshot_class(s, PLAN_CLASS_GPU));
	assert_non_null(kube_snapshot_node(s, "a30-24gb-0"));
	/* Running instances are allocated claims; their devices in use. */
	c = kube_snapshot_claim(s, "team-a", "c1");
	assert_non_null(c);
	assert_true(c->allocated);
	d = kube_snapshot_device(s, "gpu.nvidia.com", "h100-80gb-0",
	    "gpu-0-mig-3g40gb-9-4");
	assert_true(d->state & KUBE_DEV_ALLOCATED);
	assert_string_equal(kube_device_attr(d, NULL, "profile")->s,
	    "3g.40gb");
	assert_string_equal(kube_device_attr(d, NULL, "productName")->s,
	    "NVIDIA H100 80GB HBM3");
	assert_string_equal(kube_device_attr(d, "resource.kubernetes.io",
	    "pciBusID")->s, "0000:18:00.0");
	/* 4g.40gb@0 needs slice 0, which 1g.10gb@0 holds. */
	d = kube_snapshot_device(s, "gpu.nvidia.com", "h100-80gb-0",
	    "gpu-0-mig-4g40gb-5-0");
	assert_true(d->state & KUBE_DEV_BLOCKED);
	d = kube_snapshot_device(s, "gpu.nvidia.com", "h100-80gb-1", "gpu-0");
	assert_true(d->state & KUBE_DEV_ALLOCATED);
	back = read_snapshot(s, &w);
	assert_int_equal(w.n, 0);
	assert_round_trip(inv, back);
	assert_int_equal(back->ngeometries, 2);
	plan_inventory_free(back);
	kube_snapshot_free(s);

	/* Some GPUs only; bad indexes. */
	v[0] = 4;
	v[1] = 0;
	assert_int_equal(plan_inventory_snapshot_gpus(inv, v, 2,
	    PLAN_SNAP_NO_CLAIMS, &s, &err), KUBE_OK);
	assert_int_equal(s->pools.n, 2);
	assert_int_equal(s->claims.n, 0);
	kube_snapshot_free(s);
	v[1] = 4;
	assert_int_equal(plan_inventory_snapshot_gpus(inv, v, 2, 0, &s, &err),
	    KUBE_E_CONFIG);
	assert_null(s);
	v[1] = 5;
	assert_int_equal(plan_inventory_snapshot_gpus(inv, v, 2, 0, &s, &err),
	    KUBE_E_CONFIG);
	plan_inventory_free(inv);

	/* More than 8 GPUs on a node: two counter slices, padded names. */
	inv = fleet("10xH100-80GB/10");
	assert_int_equal(plan_inventory_snapshot(inv, &s, &err), KUBE_OK);
	pool = kube_snapshot_pool(s, "gpu.nvidia.com", "h100-80gb-0");
	assert_int_equal(pool->slice_count, 12);
	assert_true(pool->complete);
	assert_null(pool->invalid);
	assert_string_equal(pool->slices[0]->meta.name,
	    "h100-80gb-0-gpu.nvidia.com-00");
	assert_int_equal(pool->slices[0]->ncounter_sets, 8);
	assert_int_equal(pool->slices[1]->ncounter_sets, 2);
	/* gpu-0, gpu-1, gpu-2, ...: slice 04 holds gpu-2. */
	assert_string_equal(pool->slices[4]->devices[0].name, "gpu-2");
	back = read_snapshot(s, NULL);
	assert_round_trip(inv, back);
	plan_inventory_free(back);
	kube_snapshot_free(s);
	plan_inventory_free(inv);

	/* The example cluster: every GPU comes back dynamic, one geometry. */
	ex = load_file(SOURCE_DIR "/examples/cluster.yaml");
	inv = read_snapshot(ex, NULL);
	assert_int_equal(plan_inventory_snapshot(inv, &s, &err), KUBE_OK);
	back = read_snapshot(s, &w);
	assert_int_equal(w.n, 0);
	assert_round_trip(inv, back);
	assert_int_equal(back->ngeometries, 1);
	plan_inventory_free(back);
	kube_snapshot_free(s);
	plan_inventory_free(inv);
	kube_snapshot_free(ex);

	/* Another vendor: its class and selector domain are its own. */
	ex = load_file(DATA_DIR "/data/inv-generic.yaml");
	inv = read_snapshot(ex, NULL);
	assert_int_equal(plan_inventory_snapshot(inv, &s, &err), KUBE_OK);
	assert_non_null(kube_snapshot_class(s, "accel.example.com"));
	assert_null(kube_snapshot_class(s, PLAN_CLASS_MIG));
	d = kube_snapshot_device(s, "accel.example.com", "n1",
	    "acc-0-quarter-1");
	assert_true(d->state & KUBE_DEV_ALLOCATED);
	back = read_snapshot(s, NULL);
	assert_round_trip(inv, back);
	plan_inventory_free(back);
	kube_snapshot_free(s);
	plan_inventory_free(inv);
	kube_snapshot_free(ex);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fleet),
		cmocka_unit_test(test_fleet_errors),
		cmocka_unit_test(test_snapshot_dynamic),
		cmocka_unit_test(test_snapshot_generic),
		cmocka_unit_test(test_example_cluster),
		cmocka_unit_test(test_snapshot_warnings),
		cmocka_unit_test(test_snapshot_no_whole),
		cmocka_unit_test(test_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
