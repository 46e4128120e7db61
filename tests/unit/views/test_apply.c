/*
 * test_apply.c: the model of `kubectl dra apply` (views/apply.h) on
 * real plans: small fleets from plan_inventory_from_fleet(), a demand,
 * plan_solve() and dra_plan_document() as `kubectl dra plan` makes
 * them; the cluster is the snapshot plan_inventory_snapshot() publishes
 * for the same GPUs (NVIDIA's DynamicMIG shapes), with claims added
 * where a test needs one.  Checked: the objects in dependency order
 * with their REST paths and apply bodies, bad plans refused with the
 * field's path, normalization and the created/configured/unchanged
 * verdict, the backup's round trip and its errors, the staleness check
 * (a clean plan accepted; a node gone; a foreign claim on a GPU the
 * plan repartitions; a device gone) and every rollback step.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "apply.h"
#include "demand.h"
#include "geometry.h"
#include "inventory.h"
#include "plan.h"
#include "snapshot.h"
#include "solve.h"
#include "xmalloc.h"

static const char demand_text[] =
    "apiVersion: dra.kubectl.io/v1alpha1\n"
    "kind: Demand\n"
    "priorityClasses:\n"
    "- {name: high-ai, value: 1000}\n"
    "- {name: batch, value: 100}\n"
    "teams:\n"
    "- namespace: team-a\n"
    "  workloads:\n"
    "  - name: llm\n"
    "    replicas: 2\n"
    "    needs: {profile: 3g.40gb}\n"
    "    priorityClass: high-ai\n"
    "- namespace: team-b\n"
    "  workloads:\n"
    "  - name: nb\n"
    "    replicas: 2\n"
    "    needs: {profile: 1g.10gb}\n"
    "    priorityClass: batch\n";

struct fx {
	struct plan_inventory	*inv;
	struct plan_demand	*d;
	struct plan_result	*r;
	cJSON			*doc;
};

/* Place a running claim on GPU i at the placement of profile@start. */
static void
add_running(struct plan_inventory *inv, size_t i, const char *profile,
    int start, const char *ns, const char *claim)
{
	struct plan_gpu			*gp = &inv->gpus[i];
	const struct plan_geometry	*g = inv->geometries[gp->geometry];
	int				 p = plan_profile_index(g, profile);
	size_t				 k;

	assert_true(p >= 0);
	for (k = 0; k < g->nplacements; k++)
		if (g->placements[k].profile == p &&
		    g->placements[k].start == start)
			break;
	assert_true(k < g->nplacements);
	gp->running = xreallocarray(gp->running, gp->nrunning + 1,
	    sizeof *gp->running);
	gp->running[gp->nrunning].placement = (int)k;
	gp->running[gp->nrunning].namespace = xstrdup(ns);
	gp->running[gp->nrunning].claim = xstrdup(claim);
	gp->nrunning++;
}

/*
 * The quota charges of inv's running claims, as `plan` reads them from
 * a cluster: from the snapshot of inv, read back.
 */
static void
fx_usage(struct plan_inventory *inv)
{
	struct kube_snapshot	*s;
	struct plan_inventory	*back;
	struct plan_warnings	 warn;
	struct dra_err		 err;

	if (plan_inventory_snapshot(inv, &s, &err) != KUBE_OK)
		fail_msg("snapshot: %s", err.msg);
	memset(&warn, 0, sizeof warn);
	if (plan_inventory_from_snapshot(s, &back, &warn, &err) != KUBE_OK)
		fail_msg("inventory: %s", err.msg);
	plan_warnings_free(&warn);
	assert_true(back->nusage > 0);
	inv->usage = back->usage;
	inv->nusage = back->nusage;
	back->usage = NULL;
	back->nusage = 0;
	plan_inventory_free(back);
	kube_snapshot_free(s);
}

/*
 * A plan of demand_text on fleet; static_mig as `plan --mig static`
 * (GPUs without running claims become whole GPUs mig-parted may cut).
 * keep: a running claim team-a/kept on GPU 0 (3g.40gb at 0) first.
 */
static void
fx_plan(struct fx *f, const char *fleet, int static_mig, int keep)
{
	struct dra_plan_input	in;
	struct dra_err		err;
	size_t			i;

	memset(f, 0, sizeof *f);
	if (plan_inventory_from_fleet(fleet, &f->inv, &err) != KUBE_OK)
		fail_msg("fleet %s: %s", fleet, err.msg);
	if (plan_demand_parse("demand.yaml", demand_text,
	    strlen(demand_text), &f->d, &err) != KUBE_OK)
		fail_msg("demand: %s", err.msg);
	if (keep) {
		add_running(f->inv, 0, "3g.40gb", 0, "team-a", "kept");
		fx_usage(f->inv);
	}
	if (static_mig)
		for (i = 0; i < f->inv->ngpus; i++)
			if (f->inv->gpus[i].nrunning == 0)
				f->inv->gpus[i].mode = PLAN_MODE_WHOLE;
	if (plan_solve(f->inv, f->d, NULL, &f->r, &err) != KUBE_OK)
		fail_msg("solve: %s", err.msg);
	memset(&in, 0, sizeof in);
	in.inv = f->inv;
	in.demand = f->d;
	in.result = f->r;
	in.static_mig = static_mig;
	f->doc = dra_plan_document(&in);
	assert_non_null(f->doc);
	/* The cluster publishes the GPUs as they are today: DynamicMIG. */
	for (i = 0; i < f->inv->ngpus; i++)
		f->inv->gpus[i].mode = PLAN_MODE_DYNAMIC;
}

static void
fx_free(struct fx *f)
{
	cJSON_Delete(f->doc);
	plan_result_free(f->r);
	plan_demand_free(f->d);
	plan_inventory_free(f->inv);
}

/* The cluster of f's GPUs (their running claims as claims). */
static struct kube_snapshot *
fx_cluster(struct fx *f)
{
	struct kube_snapshot	*s;
	struct dra_err		 err;

	if (plan_inventory_snapshot(f->inv, &s, &err) != KUBE_OK)
		fail_msg("snapshot: %s", err.msg);
	return s;
}

/*
 * The value at a dotted path ("status.layout.0.node"); keys may hold
 * dots themselves ("spec.hard.count/resourceclaims.resource.k8s.io"):
 * the longest key that the rest of the path starts with wins.
 */
static cJSON *
at(const cJSON *v, const char *path)
{
	const cJSON	*c, *best;
	size_t		 n, bestn;

	while (v != NULL && *path != '\0') {
		if (cJSON_IsArray(v)) {
			v = cJSON_GetArrayItem(v, atoi(path));
			n = strcspn(path, ".");
		} else {
			best = NULL;
			bestn = 0;
			cJSON_ArrayForEach(c, v) {
				n = strlen(c->string);
				if (strncmp(path, c->string, n) == 0 &&
				    (path[n] == '\0' || path[n] == '.') &&
				    n > bestn) {
					best = c;
					bestn = n;
				}
			}
			v = best;
			n = bestn;
		}
		path += n;
		if (*path == '.')
			path++;
	}
	return (cJSON *)v;
}

static const char *
str_at(const cJSON *v, const char *path)
{
	const char	*s = cJSON_GetStringValue(at(v, path));

	if (s == NULL)
		fail_msg("no string at %s", path);
	return s;
}

static cJSON *
parse(const char *json)
{
	cJSON	*v = cJSON_Parse(json);

	if (v == NULL)
		fail_msg("bad test JSON: %s", json);
	return v;
}

/* The objects of a static MIG plan, in apply order, with their paths. */
static void
test_items_order(void **state)
{
	struct fx		 f;
	struct dra_apply_items	 it;
	struct dra_err		 err;
	const cJSON		*b;
	size_t			 i;

	(void)state;
	fx_plan(&f, "2xH100-80GB/1", 1, 0);
	assert_int_equal(dra_apply_items(f.doc, &it, &err), KUBE_OK);
	/* 2 PriorityClasses, 2 MIG classes (3g.40gb, 1g.10gb), the
	   ConfigMap, 2 quotas, then the labels of both nodes. */
	assert_int_equal(it.n, 9);
	assert_string_equal(it.v[0].path,
	    "/apis/scheduling.k8s.io/v1/priorityclasses/high-ai");
	assert_string_equal(it.v[0].display,
	    "priorityclass.scheduling.k8s.io/high-ai");
	assert_string_equal(it.v[1].path,
	    "/apis/scheduling.k8s.io/v1/priorityclasses/batch");
	assert_string_equal(it.v[2].path, "/apis/resource.k8s.io/v1/"
	    "deviceclasses/mig-1g-10gb.gpu.nvidia.com");
	assert_string_equal(it.v[2].display,
	    "deviceclass.resource.k8s.io/mig-1g-10gb.gpu.nvidia.com");
	assert_string_equal(it.v[3].path, "/apis/resource.k8s.io/v1/"
	    "deviceclasses/mig-3g-40gb.gpu.nvidia.com");
	assert_int_equal(it.v[4].kind, DRA_APPLY_CONFIG_MAP);
	assert_string_equal(it.v[4].path, "/api/v1/namespaces/gpu-operator/"
	    "configmaps/default-mig-parted-config");
	assert_string_equal(it.v[4].display,
	    "configmap/default-mig-parted-config");
	assert_string_equal(it.v[5].path,
	    "/api/v1/namespaces/team-a/resourcequotas/dra-plan");
	assert_string_equal(it.v[6].path,
	    "/api/v1/namespaces/team-b/resourcequotas/dra-plan");
	assert_string_equal(it.v[6].ns, "team-b");
	assert_string_equal(it.v[7].path, "/api/v1/nodes/h100-80gb-0");
	assert_string_equal(it.v[7].display, "node/h100-80gb-0");
	assert_string_equal(it.v[8].path, "/api/v1/nodes/h100-80gb-1");
	for (i = 0; i + 1 < it.n; i++)
		assert_true(it.v[i].kind <= it.v[i + 1].kind);
	/* Namespaces in the order objects need them. */
	assert_int_equal(it.nns, 3);
	assert_string_equal(it.namespaces[0], "gpu-operator");
	assert_string_equal(it.namespaces[1], "team-a");
	assert_string_equal(it.namespaces[2], "team-b");
	/* Apply bodies: labelled, no server fields; a Node only labels. */
	for (i = 0; i < 7; i++) {
		b = it.v[i].body;
		assert_string_equal(str_at(b, "metadata.labels."
		    "app.kubernetes.io/managed-by"), "kubectl-dra");
		assert_null(at(b, "status"));
		assert_null(at(b, "metadata.creationTimestamp"));
	}
	assert_string_equal(str_at(it.v[5].body, "spec.hard."
	    "mig-3g-40gb.gpu.nvidia.com.deviceclass.resource.k8s.io/devices"),
	    "2");
	b = it.v[7].body;
	assert_string_equal(str_at(b, "apiVersion"), "v1");
	assert_string_equal(str_at(b, "kind"), "Node");
	assert_string_equal(str_at(b, "metadata.name"), "h100-80gb-0");
	assert_string_equal(str_at(b, "metadata.labels.nvidia.com/mig.config"),
	    str_at(f.doc, "status.nodeLabels.0.labels.nvidia.com/mig.config"));
	assert_int_equal(cJSON_GetArraySize(at(b, "metadata")), 2);
	assert_int_equal(cJSON_GetArraySize(b), 3);
	dra_apply_items_free(&it);
	fx_free(&f);
}

/* Bad plans: refused with the path of the field. */
/* The first manifest of kind in a plan (its index in *idx). */
static cJSON *
manifest_of(cJSON *doc, const char *kind, int *idx)
{
	cJSON	*m;
	int	 i = 0;

	cJSON_ArrayForEach(m, at(doc, "status.manifests")) {
		if (strcmp(str_at(m, "kind"), kind) == 0) {
			if (idx != NULL)
				*idx = i;
			return m;
		}
		i++;
	}
	fail_msg("no %s in the plan", kind);
	return NULL;
}

static void
test_items_errors(void **state)
{
	struct fx		 f;
	struct dra_apply_items	 it;
	struct dra_err		 err;
	cJSON			*doc, *m;
	int			 i;

	(void)state;
	fx_plan(&f, "2xH100-80GB/1", 1, 0);

	doc = cJSON_Duplicate(f.doc, 1);
	cJSON_ReplaceItemInObjectCaseSensitive(doc, "kind",
	    cJSON_CreateString("Demand"));
	assert_int_equal(dra_apply_items(doc, &it, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "kind: expected \"Plan\"");
	assert_int_equal(it.n, 0);
	cJSON_Delete(doc);

	/* Infeasible: no layout. */
	doc = cJSON_Duplicate(f.doc, 1);
	cJSON_DeleteItemFromObjectCaseSensitive(at(doc, "status"), "layout");
	cJSON_DeleteItemFromObjectCaseSensitive(at(doc, "status.summary.gpus"),
	    "used");
	cJSON_ReplaceItemInObjectCaseSensitive(at(doc, "status.solver"),
	    "status", cJSON_CreateString("infeasible"));
	assert_int_equal(dra_apply_items(doc, &it, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "status.layout: missing: the plan is "
	    "infeasible (status.solver.status), it has nothing to apply");
	cJSON_Delete(doc);

	doc = cJSON_Duplicate(f.doc, 1);
	m = at(doc, "status.manifests.2");
	cJSON_ReplaceItemInObjectCaseSensitive(m, "kind",
	    cJSON_CreateString("Secret"));
	assert_int_equal(dra_apply_items(doc, &it, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "status.manifests[2].kind: \"Secret\" "
	    "is not a kind a plan holds (PriorityClass, DeviceClass, "
	    "ConfigMap, ResourceQuota)");
	cJSON_Delete(doc);

	/* A name that would change the URL. */
	doc = cJSON_Duplicate(f.doc, 1);
	cJSON_ReplaceItemInObjectCaseSensitive(at(doc,
	    "status.manifests.0.metadata"), "name",
	    cJSON_CreateString("../../namespaces/kube-system"));
	assert_int_equal(dra_apply_items(doc, &it, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "status.manifests[0].metadata.name: "
	    "\"../../namespaces/kube-system\" is not a valid name (a DNS "
	    "subdomain)");
	cJSON_Delete(doc);

	/* A quota without its namespace; a class twice. */
	doc = cJSON_Duplicate(f.doc, 1);
	m = at(doc, "status.manifests");
	cJSON_DeleteItemFromObjectCaseSensitive(at(m, "5.metadata"),
	    "namespace");
	assert_int_equal(dra_apply_items(doc, &it, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "status.manifests[5].metadata.namespace:"
	    " missing (a ResourceQuota is namespaced)");
	cJSON_Delete(doc);
	doc = cJSON_Duplicate(f.doc, 1);
	m = at(doc, "status.manifests");
	cJSON_AddItemToArray(m, cJSON_Duplicate(at(m, "2"), 1));
	assert_int_equal(dra_apply_items(doc, &it, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "status.manifests[7]: DeviceClass "
	    "mig-1g-10gb.gpu.nvidia.com is named twice (also "
	    "status.manifests[2])");
	cJSON_Delete(doc);

	doc = cJSON_Duplicate(f.doc, 1);
	cJSON_ReplaceItemInObjectCaseSensitive(at(doc,
	    "status.nodeLabels.1.labels"), "nvidia.com/mig.config",
	    cJSON_CreateNumber(1));
	assert_int_equal(dra_apply_items(doc, &it, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "status.nodeLabels[1].labels."
	    "nvidia.com/mig.config: expected a string");
	cJSON_Delete(doc);

	/* Only the documented targets. */
	doc = cJSON_Duplicate(f.doc, 1);
	m = manifest_of(doc, "ConfigMap", NULL);
	cJSON_ReplaceItemInObjectCaseSensitive(at(m, "metadata"), "namespace",
	    cJSON_CreateString("kube-system"));
	cJSON_ReplaceItemInObjectCaseSensitive(at(m, "metadata"), "name",
	    cJSON_CreateString("coredns"));
	assert_int_equal(dra_apply_items(doc, &it, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "status.manifests[6]: ConfigMap "
	    "kube-system/coredns: a plan writes only the mig-parted "
	    "ConfigMap gpu-operator/default-mig-parted-config");
	cJSON_Delete(doc);
	doc = cJSON_Duplicate(f.doc, 1);
	cJSON_AddStringToObject(at(doc, "status.nodeLabels.0.labels"),
	    "kubernetes.io/hostname", "evil");
	assert_int_equal(dra_apply_items(doc, &it, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "status.nodeLabels[0].labels: "
	    "\"kubernetes.io/hostname\": a plan sets only the label "
	    "nvidia.com/mig.config");
	cJSON_Delete(doc);
	doc = cJSON_Duplicate(f.doc, 1);
	cJSON_ReplaceItemInObjectCaseSensitive(at(manifest_of(doc,
	    "ResourceQuota", NULL), "metadata"), "name",
	    cJSON_CreateString("compute"));
	assert_int_equal(dra_apply_items(doc, &it, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "status.manifests[4].metadata.name: "
	    "ResourceQuota \"compute\": a plan writes only the quota named "
	    "dra-plan");
	cJSON_Delete(doc);

	/* A cut file: its parts do not agree. */
	doc = cJSON_Duplicate(f.doc, 1);
	manifest_of(doc, "ConfigMap", &i);
	cJSON_DeleteItemFromArray(at(doc, "status.manifests"), i);
	assert_int_equal(dra_apply_items(doc, &it, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "status.nodeLabels[0].labels."
	    "nvidia.com/mig.config: \"dra-plan-1\" is not a configuration of "
	    "the plan's ConfigMap gpu-operator/default-mig-parted-config "
	    "(the plan has none: a cut file?)");
	cJSON_Delete(doc);
	doc = cJSON_Duplicate(f.doc, 1);
	cJSON_ReplaceItemInObjectCaseSensitive(at(doc,
	    "status.nodeLabels.1.labels"), "nvidia.com/mig.config",
	    cJSON_CreateString("all-balanced"));
	assert_int_equal(dra_apply_items(doc, &it, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "status.nodeLabels[1].labels."
	    "nvidia.com/mig.config: \"all-balanced\" is not a configuration "
	    "of the plan's ConfigMap gpu-operator/default-mig-parted-config "
	    "(not in its mig-configs)");
	cJSON_Delete(doc);
	doc = cJSON_Duplicate(f.doc, 1);
	manifest_of(doc, "ResourceQuota", &i);
	cJSON_DeleteItemFromArray(at(doc, "status.manifests"), i);
	assert_int_equal(dra_apply_items(doc, &it, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "status.manifests: no ResourceQuota for "
	    "namespace team-a, which status.teams gives a quota (a cut "
	    "file?)");
	cJSON_Delete(doc);
	doc = cJSON_Duplicate(f.doc, 1);
	cJSON_ReplaceItemInObjectCaseSensitive(at(manifest_of(doc,
	    "ResourceQuota", NULL), "spec.hard"),
	    "count/resourceclaims.resource.k8s.io", cJSON_CreateString("1000"));
	assert_int_equal(dra_apply_items(doc, &it, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "status.manifests[4].spec.hard: not the "
	    "quota status.teams gives namespace team-a");
	cJSON_Delete(doc);
	doc = cJSON_Duplicate(f.doc, 1);
	cJSON_DeleteItemFromArray(at(doc, "status.nodeLabels"), 0);
	assert_int_equal(dra_apply_items(doc, &it, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "status.nodeLabels: no label for node "
	    "h100-80gb-0, whose GPU gpu-0 the layout puts in whole mode "
	    "(mig-parted configures it)");
	cJSON_Delete(doc);
	fx_free(&f);
}

/* Server fields dropped; created, configured, unchanged. */
static void
test_normalize(void **state)
{
	cJSON	*live, *same, *other, *n;
	char	 buf[128];

	(void)state;
	live = parse("{\"apiVersion\":\"v1\",\"kind\":\"ResourceQuota\","
	    "\"metadata\":{\"name\":\"dra-plan\",\"namespace\":\"a\","
	    "\"uid\":\"u1\",\"resourceVersion\":\"7\",\"generation\":1,"
	    "\"creationTimestamp\":\"2026-01-01T00:00:00Z\","
	    "\"managedFields\":[{\"manager\":\"kubectl-dra\"}],"
	    "\"labels\":{\"x\":\"y\"}},"
	    "\"spec\":{\"hard\":{\"count/resourceclaims.resource.k8s.io\":"
	    "\"4\"}},\"status\":{\"used\":{}}}");
	n = dra_apply_normalize(live);
	assert_null(at(n, "metadata.uid"));
	assert_null(at(n, "metadata.resourceVersion"));
	assert_null(at(n, "metadata.generation"));
	assert_null(at(n, "metadata.creationTimestamp"));
	assert_null(at(n, "metadata.managedFields"));
	assert_null(at(n, "status"));
	assert_string_equal(str_at(n, "metadata.labels.x"), "y");
	assert_string_equal(str_at(n, "spec.hard."
	    "count/resourceclaims.resource.k8s.io"), "4");
	assert_non_null(at(live, "metadata.uid"));	/* a copy */
	cJSON_Delete(n);
	assert_null(dra_apply_normalize(NULL));

	/* The dry run's answer: a new resourceVersion, same content. */
	same = cJSON_Duplicate(live, 1);
	cJSON_ReplaceItemInObjectCaseSensitive(at(same, "metadata"),
	    "resourceVersion", cJSON_CreateString("8"));
	cJSON_ReplaceItemInObjectCaseSensitive(same, "status",
	    cJSON_CreateObject());
	other = cJSON_Duplicate(live, 1);
	cJSON_ReplaceItemInObjectCaseSensitive(at(other, "spec.hard"),
	    "count/resourceclaims.resource.k8s.io", cJSON_CreateString("5"));
	assert_int_equal(dra_apply_compare(NULL, same), DRA_CHANGE_CREATED);
	assert_int_equal(dra_apply_compare(live, same),
	    DRA_CHANGE_UNCHANGED);
	assert_int_equal(dra_apply_compare(live, other),
	    DRA_CHANGE_CONFIGURED);
	assert_string_equal(dra_apply_change_name(DRA_CHANGE_CONFIGURED),
	    "configured");
	assert_string_equal(dra_apply_diff_name("resource.k8s.io/v1",
	    "DeviceClass", NULL, "mig-1g-10gb.gpu.nvidia.com", buf,
	    sizeof buf), "resource.k8s.io.v1.DeviceClass..mig-1g-10gb.gpu."
	    "nvidia.com");
	assert_string_equal(dra_apply_diff_name("v1", "ResourceQuota", "a",
	    "dra-plan", buf, sizeof buf), "v1.ResourceQuota.a.dra-plan");
	cJSON_Delete(live);
	cJSON_Delete(same);
	cJSON_Delete(other);
}

/* A backup written and read back is the same; bad ones named. */
static void
test_backup(void **state)
{
	struct fx		 f;
	struct dra_apply_items	 it;
	struct dra_backup	 b, b2;
	struct dra_err		 err;
	cJSON			*quota, *node, *node2, *doc, *doc2, *bad;
	char			*text;

	(void)state;
	fx_plan(&f, "2xH100-80GB/1", 1, 0);
	assert_int_equal(dra_apply_items(f.doc, &it, &err), KUBE_OK);
	quota = parse("{\"apiVersion\":\"v1\",\"kind\":\"ResourceQuota\","
	    "\"metadata\":{\"name\":\"dra-plan\",\"namespace\":\"team-a\","
	    "\"uid\":\"q-1\",\"resourceVersion\":\"41\"},"
	    "\"spec\":{\"hard\":{\"pods\":\"9\"}}}");
	node = parse("{\"apiVersion\":\"v1\",\"kind\":\"Node\","
	    "\"metadata\":{\"name\":\"h100-80gb-0\",\"labels\":"
	    "{\"nvidia.com/mig.config\":\"all-disabled\",\"a\":\"b\"}}}");
	memset(&b, 0, sizeof b);
	b.created = xstrdup("2026-01-02T03:04:05Z");
	b.server = xstrdup("https://127.0.0.1:6443");
	b.context = xstrdup("admin");
	b.plan = xstrdup("plan.yaml");
	b.phase = xstrdup("applying");
	dra_backup_add(&b, &it.v[0], NULL);
	dra_backup_add(&b, &it.v[5], quota);
	dra_backup_add(&b, &it.v[7], node);
	node2 = parse("{\"apiVersion\":\"v1\",\"kind\":\"Node\","
	    "\"metadata\":{\"name\":\"h100-80gb-1\"}}");
	dra_backup_add(&b, &it.v[8], node2);
	cJSON_Delete(node2);
	b.v[0].applied = 1;
	b.v[0].uid = xstrdup("pc-uid-1");
	/* The previous value of each label the plan sets, null: none. */
	assert_string_equal(str_at(b.v[2].labels, "nvidia.com/mig.config"),
	    "all-disabled");
	assert_int_equal(cJSON_GetArraySize(b.v[2].labels), 1);
	assert_true(cJSON_IsNull(at(b.v[3].labels, "nvidia.com/mig.config")));

	doc = dra_backup_encode(&b);
	assert_string_equal(str_at(doc, "kind"), "ApplyBackup");
	assert_string_equal(str_at(doc, "objects.0.state"), "absent");
	assert_string_equal(str_at(doc, "objects.0.createdUID"), "pc-uid-1");
	assert_string_equal(str_at(doc, "objects.1.state"), "present");
	assert_string_equal(str_at(doc, "objects.1.object.metadata.uid"),
	    "q-1");
	assert_string_equal(str_at(doc, "objects.1.path"),
	    "/api/v1/namespaces/team-a/resourcequotas/dra-plan");
	text = cJSON_Print(doc);
	doc2 = parse(text);
	free(text);
	assert_int_equal(dra_backup_decode(doc2, &b2, &err), KUBE_OK);
	assert_int_equal(b2.n, 4);
	assert_string_equal(b2.server, "https://127.0.0.1:6443");
	assert_string_equal(b2.phase, "applying");
	assert_string_equal(b2.v[0].uid, "pc-uid-1");
	assert_true(b2.v[0].applied);
	assert_false(b2.v[0].present);
	assert_true(b2.v[1].present);
	assert_string_equal(b2.v[1].display, "resourcequota/dra-plan");
	assert_string_equal(b2.v[1].ns, "team-a");
	cJSON_Delete(doc2);
	doc2 = dra_backup_encode(&b2);
	assert_true(cJSON_Compare(doc, doc2, 1));
	cJSON_Delete(doc2);
	dra_backup_free(&b2);

	/* Errors. */
	bad = cJSON_Duplicate(doc, 1);
	cJSON_ReplaceItemInObjectCaseSensitive(bad, "kind",
	    cJSON_CreateString("Plan"));
	assert_int_equal(dra_backup_decode(bad, &b2, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "kind: expected \"ApplyBackup\"");
	dra_backup_free(&b2);
	cJSON_Delete(bad);
	bad = cJSON_Duplicate(doc, 1);
	cJSON_ReplaceItemInObjectCaseSensitive(at(bad, "objects.1"), "state",
	    cJSON_CreateString("gone"));
	assert_int_equal(dra_backup_decode(bad, &b2, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "objects[1].state: expected present or "
	    "absent");
	dra_backup_free(&b2);
	cJSON_Delete(bad);
	/* A path that is not the object's: a rollback must not go there. */
	bad = cJSON_Duplicate(doc, 1);
	cJSON_ReplaceItemInObjectCaseSensitive(at(bad, "objects.0"), "path",
	    cJSON_CreateString("/api/v1/namespaces/kube-system"));
	assert_int_equal(dra_backup_decode(bad, &b2, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "objects[0].path: \"/api/v1/namespaces/"
	    "kube-system\" is not the path of the PriorityClass named high-ai "
	    "(/apis/scheduling.k8s.io/v1/priorityclasses/high-ai)");
	dra_backup_free(&b2);
	cJSON_Delete(bad);
	bad = cJSON_Duplicate(doc, 1);
	cJSON_DeleteItemFromObjectCaseSensitive(at(bad, "objects.1"),
	    "object");
	assert_int_equal(dra_backup_decode(bad, &b2, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "objects[1].object: missing (state "
	    "present)");
	dra_backup_free(&b2);
	cJSON_Delete(bad);
	bad = cJSON_Duplicate(doc, 1);
	cJSON_DeleteItemFromObjectCaseSensitive(at(bad, "objects.2"),
	    "labels");
	assert_int_equal(dra_backup_decode(bad, &b2, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "objects[2].labels: missing (the node "
	    "labels the plan sets, with their values before)");
	dra_backup_free(&b2);
	cJSON_Delete(bad);
	/* A uid of an object that was there: apply did not create it. */
	bad = cJSON_Duplicate(doc, 1);
	cJSON_AddStringToObject(at(bad, "objects.1"), "createdUID", "q-1");
	assert_int_equal(dra_backup_decode(bad, &b2, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "objects[1].createdUID: only an object "
	    "that was absent can have been created");
	dra_backup_free(&b2);
	cJSON_Delete(bad);
	/* A Node absent: never created, never deleted. */
	bad = cJSON_Duplicate(doc, 1);
	cJSON_ReplaceItemInObjectCaseSensitive(at(bad, "objects.3"), "state",
	    cJSON_CreateString("absent"));
	cJSON_DeleteItemFromObjectCaseSensitive(at(bad, "objects.3"),
	    "object");
	assert_int_equal(dra_backup_decode(bad, &b2, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "objects[3].state: a Node apply labels "
	    "was present (apply never creates one)");
	dra_backup_free(&b2);
	cJSON_Delete(bad);
	bad = cJSON_Duplicate(doc, 1);
	cJSON_AddItemToArray(at(bad, "objects"), cJSON_Duplicate(at(bad,
	    "objects.0"), 1));
	assert_int_equal(dra_backup_decode(bad, &b2, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "objects[4]: /apis/scheduling.k8s.io/v1/"
	    "priorityclasses/high-ai is named twice (also objects[0])");
	dra_backup_free(&b2);
	cJSON_Delete(bad);
	bad = cJSON_Duplicate(doc, 1);
	cJSON_ReplaceItemInObjectCaseSensitive(at(bad, "status"), "phase",
	    cJSON_CreateString("bogus"));
	assert_int_equal(dra_backup_decode(bad, &b2, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "status.phase: expected prepared, "
	    "applying, complete or stopped");
	dra_backup_free(&b2);
	cJSON_Delete(bad);
	bad = cJSON_Duplicate(doc, 1);
	cJSON_ReplaceItemInObjectCaseSensitive(at(bad, "spec"), "fieldManager",
	    cJSON_CreateString("other"));
	assert_int_equal(dra_backup_decode(bad, &b2, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "spec.fieldManager: expected "
	    "\"kubectl-dra\"");
	dra_backup_free(&b2);
	cJSON_Delete(bad);
	bad = cJSON_Duplicate(doc, 1);
	cJSON_DeleteItemFromObjectCaseSensitive(at(bad, "spec"), "server");
	assert_int_equal(dra_backup_decode(bad, &b2, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "spec.server: missing");
	dra_backup_free(&b2);
	cJSON_Delete(bad);

	cJSON_Delete(doc);
	cJSON_Delete(quota);
	cJSON_Delete(node);
	dra_backup_free(&b);
	dra_apply_items_free(&it);
	fx_free(&f);
}

/* Does some problem (or note) contain text? */
static int
has(char **v, size_t n, const char *text)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (strstr(v[i], text) != NULL)
			return 1;
	return 0;
}

/* A clean plan passes; a node gone, a foreign claim, a device gone do not. */
static void
test_stale(void **state)
{
	struct fx		 f;
	struct kube_snapshot	*s;
	struct dra_apply_stale	 st;
	struct dra_err		 err;
	cJSON			*doc;
	const char		*dev;

	(void)state;
	/* Dynamic MIG, a running claim the plan keeps: clean. */
	fx_plan(&f, "2xH100-80GB/1", 0, 1);
	s = fx_cluster(&f);
	assert_int_equal(dra_apply_stale(f.doc, s, &st, &err), KUBE_OK);
	assert_int_equal(st.nproblems, 0);
	assert_int_equal(st.nnotes, 0);
	dra_apply_stale_free(&st);

	/* A node the plan names is gone (a plan from a cluster). */
	doc = cJSON_Duplicate(f.doc, 1);
	cJSON_ReplaceItemInObjectCaseSensitive(at(doc, "status.layout.1"),
	    "node", cJSON_CreateString("h100-80gb-9"));
	cJSON_ReplaceItemInObjectCaseSensitive(at(doc, "spec.inventory"),
	    "source", cJSON_CreateString("https://127.0.0.1:6443"));
	assert_int_equal(dra_apply_stale(doc, s, &st, &err), KUBE_OK);
	assert_int_equal(st.nproblems, 1);
	assert_string_equal(st.problems[0], "node h100-80gb-9: no longer "
	    "exists");
	dra_apply_stale_free(&st);
	/* The same for a plan made for a --fleet. */
	cJSON_ReplaceItemInObjectCaseSensitive(at(doc, "spec.inventory"),
	    "source", cJSON_CreateString("fleet 2xH100-80GB/1"));
	assert_int_equal(dra_apply_stale(doc, s, &st, &err), KUBE_OK);
	assert_string_equal(st.problems[0], "node h100-80gb-9: not in this "
	    "cluster: the plan was made for a synthetic fleet (fleet "
	    "2xH100-80GB/1)");
	dra_apply_stale_free(&st);
	cJSON_Delete(doc);

	/* A device the plan names is no longer published. */
	doc = cJSON_Duplicate(f.doc, 1);
	dev = str_at(doc, "status.layout.1.gpus.0.instances.0.device");
	assert_non_null(strstr(dev, "gpu-0-mig-"));
	cJSON_ReplaceItemInObjectCaseSensitive(at(doc,
	    "status.layout.1.gpus.0.instances.0"), "device",
	    cJSON_CreateString("gpu-0-mig-9g90gb-99-0"));
	assert_int_equal(dra_apply_stale(doc, s, &st, &err), KUBE_OK);
	assert_int_equal(st.nproblems, 1);
	assert_string_equal(st.problems[0], "h100-80gb-1/gpu-0: device "
	    "gpu-0-mig-9g90gb-99-0 is no longer published");
	dra_apply_stale_free(&st);
	cJSON_Delete(doc);
	kube_snapshot_free(s);

	/* A claim the plan did not know, on a GPU it leaves as it is: a
	   note, not a refusal. */
	add_running(f.inv, 1, "1g.10gb", 6, "intruder", "x");
	s = fx_cluster(&f);
	assert_int_equal(dra_apply_stale(f.doc, s, &st, &err), KUBE_OK);
	assert_int_equal(st.nproblems, 0);
	assert_int_equal(st.nnotes, 1);
	assert_non_null(strstr(st.notes[0], "h100-80gb-1/gpu-0: claim "
	    "intruder/x now holds gpu-0-mig-1g10gb-19-6"));
	dra_apply_stale_free(&st);
	kube_snapshot_free(s);
	fx_free(&f);

	/* Static MIG: both GPUs change mode; a claim now on one of them
	   makes the plan stale. */
	fx_plan(&f, "2xH100-80GB/1", 1, 0);
	s = fx_cluster(&f);
	assert_int_equal(dra_apply_stale(f.doc, s, &st, &err), KUBE_OK);
	assert_int_equal(st.nproblems, 0);
	dra_apply_stale_free(&st);
	kube_snapshot_free(s);
	add_running(f.inv, 0, "3g.40gb", 4, "team-x", "train-0");
	s = fx_cluster(&f);
	assert_int_equal(dra_apply_stale(f.doc, s, &st, &err), KUBE_OK);
	assert_int_equal(st.nproblems, 1);
	assert_true(has(st.problems, st.nproblems, "h100-80gb-0/gpu-0: "
	    "claim team-x/train-0 now holds gpu-0-mig-3g40gb-9-4, which the "
	    "plan does not keep; the plan changes its mode from dynamic to "
	    "whole"));
	dra_apply_stale_free(&st);
	kube_snapshot_free(s);
	fx_free(&f);
}

/* The quota of namespace ns in plan doc. */
static cJSON *
quota_of(cJSON *doc, const char *ns)
{
	cJSON	*m;

	cJSON_ArrayForEach(m, at(doc, "status.manifests"))
		if (strcmp(str_at(m, "kind"), "ResourceQuota") == 0 &&
		    strcmp(str_at(m, "metadata.namespace"), ns) == 0)
			return m;
	fail_msg("no quota of %s in the plan", ns);
	return NULL;
}

/*
 * A quota the plan applies that the namespace's claims already exceed
 * (charged as the ResourceQuota evaluator charges them) is a problem;
 * reaching it exactly is not.
 */
static void
test_stale_quota(void **state)
{
	struct fx		 f;
	struct kube_snapshot	*s;
	struct dra_apply_stale	 st;
	struct dra_err		 err;
	cJSON			*doc, *hard, *h;
	char			 key[256], want[512];
	size_t			 i;
	int			 ndev = 0;

	(void)state;
	fx_plan(&f, "2xH100-80GB/1", 0, 1);
	doc = cJSON_Duplicate(f.doc, 1);
	hard = at(quota_of(doc, "team-a"), "spec.hard");
	/* team-a/kept is one claim of one 3g.40gb device: at the limit. */
	cJSON_ReplaceItemInObjectCaseSensitive(hard,
	    "count/resourceclaims.resource.k8s.io", cJSON_CreateString("1"));
	/* The class its spec names (the evaluator charges that one). */
	for (i = 0; i < f.inv->nusage; i++)
		if (f.inv->usage[i].device_class != NULL) {
			snprintf(key, sizeof key, "%s.deviceclass.resource."
			    "k8s.io/devices", f.inv->usage[i].device_class);
			ndev++;
		}
	assert_int_equal(ndev, 1);
	h = cJSON_GetObjectItemCaseSensitive(hard, key);
	assert_non_null(h);
	assert_string_equal(h->valuestring, "1");
	s = fx_cluster(&f);
	assert_int_equal(dra_apply_stale(doc, s, &st, &err), KUBE_OK);
	assert_int_equal(st.nproblems, 0);
	dra_apply_stale_free(&st);
	kube_snapshot_free(s);

	/* One more claim of team-a since the plan: 2 claims of 1. */
	add_running(f.inv, 1, "3g.40gb", 0, "team-a", "late");
	s = fx_cluster(&f);
	assert_int_equal(dra_apply_stale(doc, s, &st, &err), KUBE_OK);
	assert_int_equal(st.nproblems, 2);
	assert_true(has(st.problems, st.nproblems, "quota dra-plan in "
	    "team-a: count/resourceclaims.resource.k8s.io: 2 used, the "
	    "plan's hard is 1: the namespace's claims already exceed it"));
	snprintf(want, sizeof want, "quota dra-plan in team-a: %s: 2 used, "
	    "the plan's hard is 1: the namespace's claims already exceed it",
	    key);
	assert_true(has(st.problems, st.nproblems, want));
	/*
	 * The plan as made: its hard counted team-a/kept's device of the
	 * class, and grants new claims only in the plan's own classes; the
	 * late claim is beyond it.
	 */
	dra_apply_stale_free(&st);
	assert_int_equal(dra_apply_stale(f.doc, s, &st, &err), KUBE_OK);
	assert_int_equal(st.nproblems, 1);
	assert_string_equal(st.problems[0], want);
	dra_apply_stale_free(&st);
	/* Another namespace's claims count nothing against team-b's. */
	hard = at(quota_of(doc, "team-b"), "spec.hard");
	cJSON_ReplaceItemInObjectCaseSensitive(hard,
	    "count/resourceclaims.resource.k8s.io", cJSON_CreateString("0"));
	assert_int_equal(dra_apply_stale(doc, s, &st, &err), KUBE_OK);
	assert_int_equal(st.nproblems, 2);
	assert_false(has(st.problems, st.nproblems, "team-b"));
	dra_apply_stale_free(&st);
	kube_snapshot_free(s);
	cJSON_Delete(doc);
	fx_free(&f);
}

/* What --force-conflicts takes, read from the server's 409 message. */
static void
test_conflict_takes(void **state)
{
	char	*t;

	(void)state;
	t = dra_apply_conflict_takes("Apply failed with 1 conflict: "
	    "conflict with \"other\": .spec.hard.count/resourceclaims."
	    "resource.k8s.io");
	assert_string_equal(t, "taking .spec.hard.count/resourceclaims."
	    "resource.k8s.io from \"other\"");
	free(t);
	t = dra_apply_conflict_takes("Apply failed with 3 conflicts: "
	    "conflicts with \"a: b\":\n- .metadata.labels.nvidia.com/"
	    "mig.config\n- .spec.x\nconflicts with \"kubectl\" using v1 at "
	    "2026-01-02T03:04:05Z:\n- .data.config.yaml");
	assert_string_equal(t, "taking .metadata.labels.nvidia.com/"
	    "mig.config, .spec.x from \"a: b\"; .data.config.yaml from "
	    "\"kubectl\" using v1 at 2026-01-02T03:04:05Z");
	free(t);
	t = dra_apply_conflict_takes("Apply failed with 1 conflict: "
	    "conflict with \"kube-controller-manager\" with subresource "
	    "\"status\" using v1: .status.used");
	assert_string_equal(t, "taking .status.used from "
	    "\"kube-controller-manager\" with subresource \"status\" using "
	    "v1");
	free(t);
	assert_null(dra_apply_conflict_takes("the object has been "
	    "modified; please apply your changes to the latest version"));
	assert_null(dra_apply_conflict_takes(NULL));
}

/* What a rollback does to each object. */
static void
test_rollback(void **state)
{
	struct dra_backup_obj		 o;
	struct dra_rollback_step	 st;
	cJSON				*live, *before;

	(void)state;
	memset(&o, 0, sizeof o);
	o.api_version = (char *)"v1";
	o.kind = (char *)"ResourceQuota";
	o.ns = (char *)"team-a";
	o.name = (char *)"dra-plan";

	/* Absent before. */
	dra_rollback_step(&o, NULL, &st);
	assert_int_equal(st.action, DRA_RB_NOTHING);
	dra_rollback_step_free(&st);
	live = parse("{\"metadata\":{\"name\":\"dra-plan\",\"uid\":\"u-2\","
	    "\"resourceVersion\":\"90\",\"labels\":{"
	    "\"app.kubernetes.io/managed-by\":\"kubectl-dra\"},"
	    "\"managedFields\":[{\"manager\":\"kubectl-dra\","
	    "\"operation\":\"Apply\"}]},\"spec\":{\"hard\":{\"pods\":\"1\"}}}");
	o.uid = (char *)"u-2";
	dra_rollback_step(&o, live, &st);
	assert_int_equal(st.action, DRA_RB_DELETE);
	assert_string_equal(str_at(st.body, "preconditions.uid"), "u-2");
	assert_string_equal(str_at(st.body, "kind"), "DeleteOptions");
	dra_rollback_step_free(&st);
	/* Made again by someone else: another uid. */
	o.uid = (char *)"u-1";
	dra_rollback_step(&o, live, &st);
	assert_int_equal(st.action, DRA_RB_KEEP);
	assert_null(st.body);
	assert_string_equal(st.why, "its uid u-2 is not the one apply "
	    "created (u-1): made again by someone else, left alone");
	dra_rollback_step_free(&st);
	/*
	 * No uid recorded: someone else created it (a later apply may
	 * have labelled it and own fields of it through Apply): kept.
	 */
	o.uid = NULL;
	dra_rollback_step(&o, live, &st);
	assert_int_equal(st.action, DRA_RB_KEEP);
	assert_null(st.body);
	assert_string_equal(st.why, "this apply recorded no uid of it (it "
	    "did not create it): left alone");
	dra_rollback_step_free(&st);
	cJSON_ReplaceItemInObjectCaseSensitive(at(live, "metadata"),
	    "managedFields", parse("[{\"manager\":\"kubectl-dra\","
	    "\"operation\":\"Update\"}]"));
	dra_rollback_step(&o, live, &st);
	assert_int_equal(st.action, DRA_RB_KEEP);
	dra_rollback_step_free(&st);
	/* Not labelled: never deleted. */
	o.uid = (char *)"u-2";
	cJSON_DeleteItemFromObjectCaseSensitive(at(live, "metadata"),
	    "labels");
	dra_rollback_step(&o, live, &st);
	assert_int_equal(st.action, DRA_RB_KEEP);
	assert_string_equal(st.why, "it does not carry "
	    "app.kubernetes.io/managed-by: kubectl-dra: not created by "
	    "apply, left alone");
	dra_rollback_step_free(&st);

	/* Present before. */
	before = parse("{\"apiVersion\":\"v1\",\"kind\":\"ResourceQuota\","
	    "\"metadata\":{\"name\":\"dra-plan\",\"namespace\":\"team-a\","
	    "\"uid\":\"u-0\",\"resourceVersion\":\"12\",\"managedFields\":"
	    "[{\"manager\":\"other\",\"operation\":\"Apply\"}]},"
	    "\"spec\":{\"hard\":{\"pods\":\"7\"}},\"status\":{}}");
	o.present = 1;
	o.uid = NULL;
	o.object = before;
	dra_rollback_step(&o, NULL, &st);
	assert_int_equal(st.action, DRA_RB_RECREATE);
	assert_null(at(st.body, "metadata.resourceVersion"));
	assert_null(at(st.body, "metadata.uid"));
	assert_null(at(st.body, "metadata.managedFields"));
	assert_string_equal(str_at(st.body, "spec.hard.pods"), "7");
	dra_rollback_step_free(&st);
	dra_rollback_step(&o, live, &st);
	assert_int_equal(st.action, DRA_RB_RESTORE);
	assert_string_equal(str_at(st.body, "metadata.resourceVersion"), "90");
	assert_null(at(st.body, "metadata.uid"));
	assert_null(at(st.body, "status"));
	assert_string_equal(str_at(st.body, "metadata.managedFields.0.manager"),
	    "other");
	assert_string_equal(str_at(st.body, "spec.hard.pods"), "7");
	dra_rollback_step_free(&st);
	/* Already as before (another rv, uid and owners only). */
	cJSON_ReplaceItemInObjectCaseSensitive(at(live, "spec.hard"), "pods",
	    cJSON_CreateString("7"));
	cJSON_AddStringToObject(at(live, "metadata"), "namespace", "team-a");
	cJSON_AddStringToObject(live, "apiVersion", "v1");
	cJSON_AddStringToObject(live, "kind", "ResourceQuota");
	dra_rollback_step(&o, live, &st);
	assert_int_equal(st.action, DRA_RB_NOTHING);
	dra_rollback_step_free(&st);
	cJSON_Delete(live);
	cJSON_Delete(before);

	/* A Node: only the labels the plan set, put back or removed. */
	memset(&o, 0, sizeof o);
	o.api_version = (char *)"v1";
	o.kind = (char *)"Node";
	o.name = (char *)"n1";
	o.present = 1;
	o.object = parse("{\"metadata\":{\"name\":\"n1\"}}");
	o.labels = parse("{\"nvidia.com/mig.config\":\"all-disabled\","
	    "\"x/new\":null}");
	live = parse("{\"metadata\":{\"name\":\"n1\",\"labels\":{"
	    "\"nvidia.com/mig.config\":\"dra-plan-1\",\"x/new\":\"v\","
	    "\"other\":\"kept\"}}}");
	dra_rollback_step(&o, live, &st);
	assert_int_equal(st.action, DRA_RB_LABELS);
	assert_string_equal(str_at(st.body, "metadata.labels."
	    "nvidia.com/mig.config"), "all-disabled");
	assert_true(cJSON_IsNull(at(st.body, "metadata.labels.x/new")));
	assert_null(at(st.body, "metadata.labels.other"));
	dra_rollback_step_free(&st);
	cJSON_Delete(live);
	live = parse("{\"metadata\":{\"name\":\"n1\",\"labels\":{"
	    "\"nvidia.com/mig.config\":\"all-disabled\"}}}");
	dra_rollback_step(&o, live, &st);
	assert_int_equal(st.action, DRA_RB_NOTHING);
	dra_rollback_step_free(&st);
	cJSON_Delete(live);
	/* A Node gone is never re-created from the backup. */
	dra_rollback_step(&o, NULL, &st);
	assert_int_equal(st.action, DRA_RB_KEEP);
	assert_null(st.body);
	assert_string_equal(st.why, "the node no longer exists: a rollback "
	    "never re-creates a Node, its labels are not restored");
	dra_rollback_step_free(&st);
	cJSON_Delete(o.object);
	cJSON_Delete(o.labels);
}

/*
 * What changed an object since the apply journaled it: named with who
 * changed it, reported only when the step undoes something, never for
 * a quota's status; and the journal's round trip through the backup.
 */
static void
test_drift(void **state)
{
	struct dra_backup_obj		 o;
	struct dra_backup		 b, b2;
	struct dra_rollback_step	 st;
	struct dra_err			 err;
	cJSON				*res, *live, *doc;

	(void)state;
	memset(&o, 0, sizeof o);
	o.api_version = (char *)"v1";
	o.kind = (char *)"ResourceQuota";
	o.ns = (char *)"team-a";
	o.name = (char *)"dra-plan";
	o.path = (char *)"/api/v1/namespaces/team-a/resourcequotas/dra-plan";
	o.display = (char *)"resourcequota/dra-plan";
	o.uid = (char *)"u-2";
	o.applied = 1;
	res = parse("{\"apiVersion\":\"v1\",\"kind\":\"ResourceQuota\","
	    "\"metadata\":{\"name\":\"dra-plan\",\"namespace\":\"team-a\","
	    "\"uid\":\"u-2\",\"resourceVersion\":\"90\",\"labels\":{"
	    "\"app.kubernetes.io/managed-by\":\"kubectl-dra\"},"
	    "\"managedFields\":[{\"manager\":\"kubectl-dra\","
	    "\"operation\":\"Apply\",\"time\":\"2026-01-01T00:00:00Z\"}]},"
	    "\"spec\":{\"hard\":{\"pods\":\"1\"}},\"status\":{}}");
	dra_backup_applied(&o, res);
	assert_string_equal(o.applied_rv, "90");
	assert_null(at(o.applied_obj, "status"));
	/* Unchanged, or only its status (the quota controller): none. */
	live = cJSON_Duplicate(res, 1);
	dra_rollback_step(&o, live, &st);
	assert_int_equal(st.action, DRA_RB_DELETE);
	assert_null(st.drift);
	dra_rollback_step_free(&st);
	cJSON_ReplaceItemInObjectCaseSensitive(at(live, "metadata"),
	    "resourceVersion", cJSON_CreateString("91"));
	cJSON_ReplaceItemInObject(live, "status",
	    parse("{\"used\":{\"pods\":\"1\"}}"));
	dra_rollback_step(&o, live, &st);
	assert_null(st.drift);
	dra_rollback_step_free(&st);
	/* Another manager changed a value since. */
	cJSON_ReplaceItemInObjectCaseSensitive(at(live, "metadata"),
	    "resourceVersion", cJSON_CreateString("95"));
	cJSON_ReplaceItemInObjectCaseSensitive(at(live, "spec.hard"), "pods",
	    cJSON_CreateString("5"));
	cJSON_AddItemToArray(at(live, "metadata.managedFields"),
	    parse("{\"manager\":\"other\",\"operation\":\"Apply\","
	    "\"time\":\"2026-01-02T00:00:00Z\"}"));
	/* The quota controller wrote the status meanwhile: not named. */
	cJSON_AddItemToArray(at(live, "metadata.managedFields"),
	    parse("{\"manager\":\"kube-controller-manager\",\"operation\":"
	    "\"Update\",\"subresource\":\"status\",\"time\":"
	    "\"2026-01-02T00:00:01Z\"}"));
	dra_rollback_step(&o, live, &st);
	assert_int_equal(st.action, DRA_RB_DELETE);
	assert_string_equal(st.drift, "changed since the apply "
	    "(resourceVersion 90 -> 95) by \"other\"");
	assert_false(st.drift_ours);
	dra_rollback_step_free(&st);
	/* A later apply of kubectl-dra too. */
	cJSON_ReplaceItemInObjectCaseSensitive(at(live,
	    "metadata.managedFields.0"), "time",
	    cJSON_CreateString("2026-01-03T00:00:00Z"));
	dra_rollback_step(&o, live, &st);
	assert_string_equal(st.drift, "changed since the apply "
	    "(resourceVersion 90 -> 95) by \"kubectl-dra\", \"other\"");
	assert_true(st.drift_ours);
	dra_rollback_step_free(&st);
	/* Left alone (another uid): nothing of theirs is undone. */
	o.uid = (char *)"u-9";
	dra_rollback_step(&o, live, &st);
	assert_int_equal(st.action, DRA_RB_KEEP);
	assert_null(st.drift);
	dra_rollback_step_free(&st);
	o.uid = (char *)"u-2";

	/* The journal goes through the backup file and back. */
	memset(&b, 0, sizeof b);
	b.server = (char *)"https://127.0.0.1:6443";
	b.v = &o;
	b.n = 1;
	doc = dra_backup_encode(&b);
	assert_string_equal(str_at(doc, "objects.0.appliedResourceVersion"),
	    "90");
	assert_non_null(at(doc, "objects.0.appliedObject"));
	assert_int_equal(dra_backup_decode(doc, &b2, &err), KUBE_OK);
	assert_string_equal(b2.v[0].applied_rv, "90");
	assert_true(cJSON_Compare(b2.v[0].applied_obj, o.applied_obj, 1));
	dra_backup_free(&b2);
	cJSON_ReplaceItemInObjectCaseSensitive(at(doc, "objects.0"),
	    "applied", cJSON_CreateFalse());
	assert_int_equal(dra_backup_decode(doc, &b2, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "objects[0].appliedResourceVersion: "
	    "only an object applied has one");
	dra_backup_free(&b2);
	cJSON_Delete(doc);
	free(o.applied_rv);
	cJSON_Delete(o.applied_obj);
	cJSON_Delete(live);
	cJSON_Delete(res);

	/* A Node: its labels the plan set, and who owns them now. */
	memset(&o, 0, sizeof o);
	o.api_version = (char *)"v1";
	o.kind = (char *)"Node";
	o.name = (char *)"n1";
	o.present = 1;
	o.applied = 1;
	o.object = parse("{\"metadata\":{\"name\":\"n1\"}}");
	o.labels = parse("{\"nvidia.com/mig.config\":null}");
	res = parse("{\"metadata\":{\"name\":\"n1\",\"resourceVersion\":"
	    "\"7\",\"labels\":{\"nvidia.com/mig.config\":\"dra-plan-1\","
	    "\"other\":\"x\"}}}");
	dra_backup_applied(&o, res);
	assert_string_equal(str_at(o.applied_obj,
	    "metadata.labels.nvidia.com/mig.config"), "dra-plan-1");
	assert_null(at(o.applied_obj, "metadata.labels.other"));
	/* The kubelet wrote its status, someone another label: none. */
	live = parse("{\"metadata\":{\"name\":\"n1\",\"resourceVersion\":"
	    "\"30\",\"labels\":{\"nvidia.com/mig.config\":\"dra-plan-1\","
	    "\"other\":\"y\"}}}");
	dra_rollback_step(&o, live, &st);
	assert_int_equal(st.action, DRA_RB_LABELS);
	assert_null(st.drift);
	dra_rollback_step_free(&st);
	cJSON_Delete(live);
	live = parse("{\"metadata\":{\"name\":\"n1\",\"resourceVersion\":"
	    "\"31\",\"labels\":{\"nvidia.com/mig.config\":\"all-1g\"},"
	    "\"managedFields\":[{\"manager\":\"kubectl-label\","
	    "\"operation\":\"Update\",\"fieldsV1\":{\"f:metadata\":{"
	    "\"f:labels\":{\"f:nvidia.com/mig.config\":{}}}}},"
	    "{\"manager\":\"kubelet\",\"operation\":\"Update\","
	    "\"fieldsV1\":{\"f:status\":{}}}]}}");
	dra_rollback_step(&o, live, &st);
	assert_int_equal(st.action, DRA_RB_LABELS);
	assert_string_equal(st.drift, "changed since the apply "
	    "(resourceVersion 7 -> 31) (nvidia.com/mig.config dra-plan-1 -> "
	    "all-1g) by \"kubectl-label\"");
	dra_rollback_step_free(&st);
	cJSON_Delete(live);
	cJSON_Delete(res);
	free(o.applied_rv);
	cJSON_Delete(o.applied_obj);
	cJSON_Delete(o.object);
	cJSON_Delete(o.labels);
}

/* The fieldsV1 label set of managedFields entry i of a body. */
static cJSON *
owned_labels(cJSON *body, int i)
{
	char	p[64];

	snprintf(p, sizeof p, "metadata.managedFields.%d.fieldsV1", i);
	return cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(at(body, p), "f:metadata"),
	    "f:labels");
}

/*
 * The owners after apply created an object (kubectl-dra through Apply
 * only), and a Node's label owners after a rollback (as before, never
 * kubectl-dra through Update).
 */
static void
test_owners(void **state)
{
	struct dra_backup_obj	 o;
	cJSON			*now, *body;

	(void)state;
	/* POST then server-side apply: the POST's Update entry goes. */
	now = parse("{\"metadata\":{\"name\":\"c\",\"resourceVersion\":"
	    "\"7\",\"managedFields\":[{\"manager\":\"kubectl-dra\","
	    "\"operation\":\"Update\",\"fieldsV1\":{\"f:value\":{}}},"
	    "{\"manager\":\"kubectl-dra\",\"operation\":\"Apply\","
	    "\"fieldsV1\":{\"f:value\":{}}}]}}");
	body = dra_apply_owner_patch(now);
	assert_non_null(body);
	assert_string_equal(str_at(body, "metadata.resourceVersion"), "7");
	assert_int_equal(cJSON_GetArraySize(at(body,
	    "metadata.managedFields")), 1);
	assert_string_equal(str_at(body, "metadata.managedFields.0.operation"),
	    "Apply");
	cJSON_Delete(body);
	/* Nothing to drop, or nothing would be left: no patch. */
	cJSON_DeleteItemFromArray(at(now, "metadata.managedFields"), 0);
	assert_null(dra_apply_owner_patch(now));
	cJSON_Delete(now);
	now = parse("{\"metadata\":{\"managedFields\":[{\"manager\":"
	    "\"kubectl-dra\",\"operation\":\"Update\"}]}}");
	assert_null(dra_apply_owner_patch(now));
	cJSON_Delete(now);

	/*
	 * gpu-operator applied mig.config; apply took it by force; the
	 * rollback's merge patch made kubectl-dra/Update its owner.
	 */
	memset(&o, 0, sizeof o);
	o.api_version = (char *)"v1";
	o.kind = (char *)"Node";
	o.name = (char *)"n1";
	o.present = 1;
	o.object = parse("{\"metadata\":{\"name\":\"n1\",\"managedFields\":["
	    "{\"manager\":\"load\",\"operation\":\"Update\",\"fieldsV1\":"
	    "{\"f:metadata\":{\"f:labels\":{\"f:zone\":{}}}}},"
	    "{\"manager\":\"gpu-operator\",\"operation\":\"Apply\","
	    "\"fieldsV1\":{\"f:metadata\":{\"f:labels\":{"
	    "\"f:nvidia.com/mig.config\":{}}}}}]}}");
	o.labels = parse("{\"nvidia.com/mig.config\":\"all-disabled\","
	    "\"x/new\":null}");
	now = parse("{\"metadata\":{\"name\":\"n1\",\"resourceVersion\":"
	    "\"99\",\"managedFields\":["
	    "{\"manager\":\"load\",\"operation\":\"Update\",\"fieldsV1\":"
	    "{\"f:metadata\":{\"f:labels\":{\"f:zone\":{}}}}},"
	    "{\"manager\":\"kubectl-dra\",\"operation\":\"Apply\","
	    "\"fieldsV1\":{\"f:metadata\":{\"f:labels\":{"
	    "\"f:x/new\":{}}}}},"
	    "{\"manager\":\"kubectl-dra\",\"operation\":\"Update\","
	    "\"fieldsV1\":{\"f:metadata\":{\"f:labels\":{"
	    "\"f:nvidia.com/mig.config\":{}}}}}]}}");
	body = dra_rollback_label_owners(&o, now);
	assert_non_null(body);
	assert_string_equal(str_at(body, "metadata.resourceVersion"), "99");
	/* load's entry as it was; kubectl-dra's both gone; gpu-operator's. */
	assert_int_equal(cJSON_GetArraySize(at(body,
	    "metadata.managedFields")), 2);
	assert_string_equal(str_at(body, "metadata.managedFields.0.manager"),
	    "load");
	assert_non_null(cJSON_GetObjectItemCaseSensitive(owned_labels(body,
	    0), "f:zone"));
	assert_string_equal(str_at(body, "metadata.managedFields.1.manager"),
	    "gpu-operator");
	assert_string_equal(str_at(body, "metadata.managedFields.1.operation"),
	    "Apply");
	assert_int_equal(cJSON_GetArraySize(owned_labels(body, 1)), 1);
	assert_non_null(cJSON_GetObjectItemCaseSensitive(owned_labels(body,
	    1), "f:nvidia.com/mig.config"));
	/* Once so, nothing more to do. */
	cJSON_ReplaceItemInObjectCaseSensitive(at(now, "metadata"),
	    "managedFields", cJSON_Duplicate(at(body,
	    "metadata.managedFields"), 1));
	cJSON_Delete(body);
	assert_null(dra_rollback_label_owners(&o, now));
	cJSON_Delete(now);
	cJSON_Delete(o.object);
	cJSON_Delete(o.labels);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_items_order),
		cmocka_unit_test(test_items_errors),
		cmocka_unit_test(test_normalize),
		cmocka_unit_test(test_backup),
		cmocka_unit_test(test_stale),
		cmocka_unit_test(test_stale_quota),
		cmocka_unit_test(test_conflict_takes),
		cmocka_unit_test(test_drift),
		cmocka_unit_test(test_rollback),
		cmocka_unit_test(test_owners),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
