/*
 * test_plan_views.c: the views of a plan (views/plan.h) on real plans:
 * small fleets from plan_inventory_from_fleet(), demands parsed from
 * the YAML below, plan_solve(), then the Plan document checked field
 * by field (summary, cost, quota keys and values, DeviceClass CEL,
 * device names and arrival order, the mig-parted configuration with
 * --static-mig and for static MIG today, spares, running claims, the
 * whole GPU and +me, a 4-slice A30), its YAML, the table and the SVG
 * against golden files in data/ (DRA_UPDATE_GOLDEN=1 rewrites them),
 * the SVG's structure (balanced tags, one rect per instance), large
 * fleets counted, names made safe, and malformed documents refused
 * with the field's path.
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

#include "buf.h"
#include "catalog.h"
#include "demand.h"
#include "geometry.h"
#include "inventory.h"
#include "plan.h"
#include "snapshot.h"
#include "solve.h"
#include "xmalloc.h"

#define HEAD	"apiVersion: dra.kubectl.io/v1alpha1\nkind: Demand\n"

/* Two teams on H100s: MIG profiles, time-slicing, priorities. */
static const char demand_mixed[] = HEAD
    "policy:\n"
    "  price: {perGPUMonth: 15000, currency: RUB}\n"
    "  utilization: {target: 80%, ceiling: 95%}\n"
    "  solver: {timeLimit: 30s, gap: 0}\n"
    "priorityClasses:\n"
    "- {name: high-ai, value: 1000}\n"
    "- {name: batch, value: 100}\n"
    "teams:\n"
    "- namespace: team-a\n"
    "  workloads:\n"
    "  - name: llm\n"
    "    replicas: {min: 2, max: 3}\n"
    "    needs: {profile: 3g.40gb}\n"
    "    priorityClass: high-ai\n"
    "  - name: embed\n"
    "    replicas: 2\n"
    "    needs: {profile: 1g.10gb}\n"
    "    priorityClass: high-ai\n"
    "- namespace: team-b\n"
    "  workloads:\n"
    "  - name: nb\n"
    "    replicas: 1\n"
    "    needs: {profile: 2g.20gb}\n"
    "    priorityClass: batch\n"
    "  - name: ci\n"
    "    replicas: {min: 0, max: 6}\n"
    "    needs: {profile: 1g.10gb}\n"
    "    sharing: {mode: time-slicing, replicasPerDevice: 4}\n"
    "    priorityClass: batch\n";

/* More 3g.40gb than four GPUs hold. */
static const char demand_infeasible[] = HEAD
    "policy:\n"
    "  price: {perGPUMonth: 15000, currency: RUB}\n"
    "teams:\n"
    "- namespace: team-a\n"
    "  workloads:\n"
    "  - name: llm\n"
    "    replicas: {min: 10, max: 10}\n"
    "    needs: {profile: 3g.40gb}\n";

/* Whole GPUs and a 1g.10gb+me. */
static const char demand_whole[] = HEAD
    "policy:\n"
    "  price: {perGPUMonth: 1234.567, currency: USD}\n"
    "teams:\n"
    "- namespace: research\n"
    "  workloads:\n"
    "  - name: pretrain\n"
    "    replicas: 1\n"
    "    needs: gpu\n"
    "  - name: video\n"
    "    replicas: 1\n"
    "    needs: {profile: 1g.10gb+me}\n";

/* One workload of 3g.40gb, for large fleets. */
static const char demand_small[] = HEAD
    "teams:\n"
    "- namespace: team-a\n"
    "  workloads:\n"
    "  - name: llm\n"
    "    replicas: 3\n"
    "    needs: {profile: 3g.40gb}\n"
    "  - name: tiny\n"
    "    replicas: 1\n"
    "    needs: {profile: 1g.10gb}\n";

/* A solved plan and what it was made from. */
struct fx {
	struct plan_inventory	*inv;
	struct plan_demand	*d;
	struct plan_result	*r;
	cJSON			*doc;
};

static void
fx_solve(struct fx *f, const char *fleet, const char *demand)
{
	struct dra_err	err;

	memset(f, 0, sizeof *f);
	if (plan_inventory_from_fleet(fleet, &f->inv, &err) != KUBE_OK)
		fail_msg("fleet %s: %s", fleet, err.msg);
	if (plan_demand_parse("demand.yaml", demand, strlen(demand), &f->d,
	    &err) != KUBE_OK)
		fail_msg("demand: %s", err.msg);
}

/* Solve, zero the times (for golden files), build the document. */
static void
fx_plan(struct fx *f, int static_mig, const struct dra_plan_baseline *bl,
    size_t nbl)
{
	struct dra_plan_input	in;
	struct dra_err		err;
	size_t			i;

	if (plan_solve(f->inv, f->d, NULL, &f->r, &err) != KUBE_OK)
		fail_msg("solve: %s", err.msg);
	f->r->seconds = 0;
	for (i = 0; i < f->r->nlevels; i++)
		f->r->levels[i].seconds = 0;
	memset(&in, 0, sizeof in);
	in.inv = f->inv;
	in.demand = f->d;
	in.result = f->r;
	in.baselines = bl;
	in.nbaselines = nbl;
	in.static_mig = static_mig;
	f->doc = dra_plan_document(&in);
	assert_non_null(f->doc);
}

static void
fx_free(struct fx *f)
{
	cJSON_Delete(f->doc);
	plan_result_free(f->r);
	plan_demand_free(f->d);
	plan_inventory_free(f->inv);
}

/* The value at a path of object keys and array indexes ("a.b.2.c"). */
static cJSON *
at(const cJSON *root, const char *path)
{
	char		*copy = xstrdup(path), *p = copy, *part;
	const cJSON	*v = root;

	while (v != NULL && (part = strsep(&p, ".")) != NULL) {
		if (cJSON_IsArray(v) && part[0] >= '0' && part[0] <= '9')
			v = cJSON_GetArrayItem(v, atoi(part));
		else
			v = cJSON_GetObjectItemCaseSensitive(v, part);
	}
	free(copy);
	if (v == NULL)
		fail_msg("no %s in the document", path);
	return (cJSON *)v;
}

static const char *
str_at(const cJSON *root, const char *path)
{
	cJSON	*v = at(root, path);

	if (!cJSON_IsString(v))
		fail_msg("%s is not a string", path);
	return v->valuestring;
}

static double
num_at(const cJSON *root, const char *path)
{
	cJSON	*v = at(root, path);

	if (!cJSON_IsNumber(v))
		fail_msg("%s is not a number", path);
	return v->valuedouble;
}

/* Member key of the object at path (keys with dots in them). */
static const char *
key_at(const cJSON *root, const char *path, const char *key)
{
	cJSON	*v = cJSON_GetObjectItemCaseSensitive(at(root, path), key);

	if (!cJSON_IsString(v))
		fail_msg("no string %s in %s", key, path);
	return v->valuestring;
}

/* The manifest of kind and name. */
static cJSON *
manifest(const cJSON *doc, const char *kind, const char *ns,
    const char *name)
{
	cJSON	*m;

	cJSON_ArrayForEach(m, at(doc, "status.manifests")) {
		const cJSON *md = cJSON_GetObjectItem(m, "metadata");
		const cJSON *mns = cJSON_GetObjectItem(md, "namespace");

		if (strcmp(str_at(m, "kind"), kind) == 0 &&
		    strcmp(str_at(m, "metadata.name"), name) == 0 &&
		    (ns == NULL || (mns != NULL &&
		    strcmp(mns->valuestring, ns) == 0)))
			return m;
	}
	fail_msg("no %s %s in the manifests", kind, name);
	return NULL;
}

static char *
yaml_of(const cJSON *doc)
{
	struct dra_err	 err;
	char		*text = NULL;
	size_t		 len = 0;
	FILE		*f = open_memstream(&text, &len);

	assert_non_null(f);
	if (kube_yaml_write(f, doc, &err) != KUBE_OK)
		fail_msg("yaml: %s", err.msg);
	fclose(f);
	return text;
}

static char *
table_of(const cJSON *doc)
{
	struct dra_buf	b;
	struct dra_err	err;

	dra_buf_init(&b, DRA_BUF_MAX_PAGE);
	if (dra_plan_table(doc, &b, &err) != KUBE_OK)
		fail_msg("table: %s", err.msg);
	return dra_buf_take(&b);
}

static char *
svg_of(const cJSON *doc)
{
	struct dra_buf	b;
	struct dra_err	err;

	dra_buf_init(&b, DRA_BUF_MAX_PAGE);
	if (dra_plan_svg(doc, &b, &err) != KUBE_OK)
		fail_msg("svg: %s", err.msg);
	return dra_buf_take(&b);
}

/* Compare text with data/<name>, or write it with DRA_UPDATE_GOLDEN. */
static void
golden(const char *name, const char *text)
{
	char	 path[1024], *want;
	FILE	*f;
	long	 n;

	snprintf(path, sizeof path, "%s/data/%s", DATA_DIR, name);
	if (getenv("DRA_UPDATE_GOLDEN") != NULL) {
		f = fopen(path, "w");
		assert_non_null(f);
		fputs(text, f);
		fclose(f);
		return;
	}
	f = fopen(path, "r");
	if (f == NULL)
		fail_msg("%s: missing (DRA_UPDATE_GOLDEN=1 writes it)", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	want = xcalloc((size_t)n + 1, 1);
	assert_int_equal(fread(want, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	if (strcmp(want, text) != 0) {
		fprintf(stderr, "--- got %s:\n%s", name, text);
		fail_msg("%s differs from the golden file", name);
	}
	free(want);
}

/*
 * A structural check of an SVG: it starts with the XML declaration
 * and one <svg> root with the SVG namespace, every tag is closed in
 * order, attribute values are quoted and carry no '<', text holds no
 * bare '&' and no control character.  Returns the number of elements
 * <rect class="instance" ...>.
 */
static size_t
svg_check(const char *s)
{
	const char	*stack[64], *p = s, *q, *name;
	size_t		 len[64], depth = 0, n, instances = 0, roots = 0;
	char		 quote;

	assert_true(strncmp(s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
	    39) == 0);
	p = s + 39;
	while (*p != '\0') {
		if ((unsigned char)*p < 0x20 && *p != '\n')
			fail_msg("control character at %td", p - s);
		if (*p == '&') {
			n = strspn(p + 1,
			    "abcdefghijklmnopqrstuvwxyz#0123456789");
			if (n == 0 || p[1 + n] != ';')
				fail_msg("bare & at %td", p - s);
			p += n + 2;
			continue;
		}
		if (*p != '<') {
			if (*p == '>')
				fail_msg("bare > at %td", p - s);
			if (depth == 0 && *p != '\n')
				fail_msg("text outside the root at %td",
				    p - s);
			p++;
			continue;
		}
		if (p[1] == '/') {
			name = p + 2;
			n = strcspn(name, ">");
			if (depth == 0 || n != len[depth - 1] ||
			    strncmp(name, stack[depth - 1], n) != 0)
				fail_msg("</%.*s> does not close <%.*s> at %td",
				    (int)n, name, depth ? (int)len[depth - 1] :
				    0, depth ? stack[depth - 1] : "", p - s);
			depth--;
			p = name + n + 1;
			continue;
		}
		name = p + 1;
		n = strcspn(name, " />");
		assert_true(n > 0);
		if (depth == 0) {
			roots++;
			assert_true(n == 3 && strncmp(name, "svg", 3) == 0);
			assert_non_null(strstr(name,
			    "xmlns=\"http://www.w3.org/2000/svg\""));
		}
		if (n == 4 && strncmp(name, "rect", 4) == 0 &&
		    strncmp(name + 4, " class=\"instance\"", 17) == 0)
			instances++;
		/* Attributes, quoted. */
		q = name + n;
		while (*q != '>' && !(q[0] == '/' && q[1] == '>')) {
			if (*q == '\0')
				fail_msg("unterminated tag at %td", p - s);
			if (*q == '"' || *q == '\'') {
				quote = *q++;
				while (*q != quote) {
					if (*q == '\0' || *q == '<')
						fail_msg("bad attribute at %td",
						    q - s);
					q++;
				}
			}
			q++;
		}
		if (*q == '/') {
			p = q + 2;
			continue;
		}
		assert_true(depth < 64);
		stack[depth] = name;
		len[depth++] = n;
		p = q + 1;
	}
	assert_int_equal(depth, 0);
	assert_int_equal(roots, 1);
	return instances;
}

/* Instances in the document's layout. */
static size_t
count_instances(const cJSON *doc)
{
	const cJSON	*n, *g;
	size_t		 k = 0;

	cJSON_ArrayForEach(n, at(doc, "status.layout"))
		cJSON_ArrayForEach(g, cJSON_GetObjectItem(n, "gpus"))
			k += (size_t)cJSON_GetArraySize(
			    cJSON_GetObjectItem(g, "instances"));
	return k;
}


/* The hard quota of team index t in the document. */
static const char *
hard(const cJSON *doc, int t, const char *key)
{
	char	path[512];

	snprintf(path, sizeof path, "status.teams.%d.quota.hard", t);
	{
		cJSON *v = cJSON_GetObjectItemCaseSensitive(at(doc, path),
		    key);

		if (v == NULL || !cJSON_IsString(v))
			fail_msg("no quota key %s in team %d", key, t);
		return v->valuestring;
	}
}

/*
 * Every instance of the layout: orders 1, 2, ... across the plan; the
 * device name NVIDIA's driver gives the placement; the arrival order
 * on each GPU is first fit (each instance is where plan_first_fit()
 * puts the next claim of its profile); slices never overlap.  Returns
 * the instances, counting per profile into counts (3 profiles).
 */
static size_t
check_layout(const struct fx *f)
{
	const struct plan_geometry	*g = f->inv->geometries[0];
	const cJSON			*n, *gp, *x;
	int				 occ[16], nocc, p, pl, used[64];
	int64_t				 order = 0;
	size_t				 k = 0, i, gi = 0;
	char				 want[128];

	cJSON_ArrayForEach(n, at(f->doc, "status.layout"))
		cJSON_ArrayForEach(gp, at(n, "gpus")) {
			const struct plan_gpu *ig = &f->inv->gpus[gi++];

			assert_string_equal(str_at(n, "node"), ig->node);
			assert_string_equal(str_at(gp, "name"), ig->name);
			assert_int_equal(num_at(gp, "memorySlices"), 8);
			nocc = 0;
			memset(used, 0, sizeof used);
			cJSON_ArrayForEach(x, at(gp, "instances")) {
				const char *prof = str_at(x, "profile");
				int start = (int)num_at(x, "start");
				int ms = (int)num_at(x, "memorySlices");

				assert_int_equal(num_at(x, "order"), ++order);
				p = plan_profile_index(g, prof);
				assert_true(p >= 0);
				/* Where first fit puts it. */
				pl = plan_first_fit(g, occ, (size_t)nocc, p);
				assert_true(pl >= 0);
				if (!g->profiles[p].whole)
					assert_int_equal(
					    g->placements[pl].start, start);
				assert_int_equal(ms, g->profiles[p].whole ?
				    8 : g->profiles[p].memory);
				occ[nocc++] = pl;
				for (i = (size_t)start;
				    i < (size_t)(start + ms); i++) {
					assert_int_equal(used[i], 0);
					used[i] = 1;
				}
				/* gpu-0-mig-3g40gb-9-4 */
				if (g->profiles[p].whole)
					snprintf(want, sizeof want, "%s",
					    ig->name);
				else {
					char	 slug[32];
					size_t	 j, o = 0;

					for (j = 0; prof[j] != '\0'; j++)
						if (prof[j] == '+')
							slug[o++] = '-';
						else if (prof[j] != '.')
							slug[o++] = prof[j];
					slug[o] = '\0';
					snprintf(want, sizeof want,
					    "%s-mig-%s-%d-%d", ig->name, slug,
					    strcmp(prof, "1g.10gb") == 0 ? 19 :
					    strcmp(prof, "1g.10gb+me") == 0 ?
					    20 : strcmp(prof, "2g.20gb") ==
					    0 ? 14 : strcmp(prof, "3g.40gb") ==
					    0 ? 9 : -1, start);
				}
				assert_string_equal(str_at(x, "device"), want);
				k++;
			}
		}
	assert_int_equal(gi, f->inv->ngpus);
	return k;
}

/* Devices and replicas the layout gives ns/workload. */
static void
owned(const cJSON *doc, const char *ns, const char *wl, int64_t *devices,
    int64_t *replicas)
{
	const cJSON	*n, *gp, *x;

	*devices = *replicas = 0;
	cJSON_ArrayForEach(n, at(doc, "status.layout"))
		cJSON_ArrayForEach(gp, at(n, "gpus"))
			cJSON_ArrayForEach(x, at(gp, "instances")) {
				const cJSON *o = at(x, "owner");

				if (strcmp(str_at(o, "kind"), "workload") !=
				    0 || strcmp(str_at(o, "namespace"), ns) !=
				    0 || strcmp(str_at(o, "workload"), wl) != 0)
					continue;
				(*devices)++;
				*replicas += (int64_t)num_at(o, "replicas");
			}
}

static const struct dra_plan_baseline mixed_bl[] = {
	{ "as-given", 4, 0 }, { "small-first", 4, 0 }, { "random", 3, 1 },
};

/*
 * 4 H100 on 2 nodes; team-a 3 x 3g.40gb (llm, 2..3) and 2 x 1g.10gb,
 * team-b 1 x 2g.20gb and 6 CI replicas time-sliced 4 a device (2 x
 * 1g.10gb).  By hand: 15 compute slices of 7 and 18 memory slices of 8
 * need 3 GPUs and fit in 3; load 15/7 = 2.14 GPUs, utilization
 * 2.14/3 = 0.714, and ceil(2.14/0.8) = 3 GPUs leaves no headroom.
 */
static void
test_mixed(void **state)
{
	struct fx	 f;
	const cJSON	*dc, *q;
	int64_t		 dev, rep;
	char		*y1, *y2, *t, *svg;

	(void)state;
	fx_solve(&f, "4xH100-80GB/2", demand_mixed);
	fx_plan(&f, 0, mixed_bl, 3);

	assert_string_equal(str_at(f.doc, "apiVersion"),
	    "dra.kubectl.io/v1alpha1");
	assert_string_equal(str_at(f.doc, "kind"), "Plan");
	assert_null(cJSON_GetObjectItem(at(f.doc, "metadata"),
	    "creationTimestamp"));
	assert_string_equal(str_at(f.doc, "spec.inventory.source"),
	    "fleet 4xH100-80GB/2");
	assert_int_equal(num_at(f.doc, "spec.inventory.models.0.gpus"), 4);
	assert_string_equal(str_at(f.doc, "spec.inventory.models.0.mode"),
	    "dynamic");
	assert_string_equal(str_at(f.doc, "spec.policy.currency"), "RUB");
	assert_true(num_at(f.doc, "spec.policy.utilizationTarget") == 0.8);

	assert_string_equal(str_at(f.doc, "status.solver.status"), "optimal");
	assert_true(num_at(f.doc, "status.solver.gap") == 0);
	assert_int_equal(num_at(f.doc, "status.summary.gpus.total"), 4);
	assert_int_equal(num_at(f.doc, "status.summary.gpus.used"), 3);
	assert_int_equal(num_at(f.doc, "status.summary.gpus.headroom"), 0);
	assert_int_equal(num_at(f.doc, "status.summary.gpus.idle"), 1);
	assert_int_equal(num_at(f.doc, "status.summary.gpus.rebuilt"), 0);
	assert_true(num_at(f.doc, "status.summary.load") == 2.14);
	assert_true(num_at(f.doc, "status.summary.utilization") == 0.714);
	assert_true(num_at(f.doc, "status.summary.cost.before") == 60000);
	assert_true(num_at(f.doc, "status.summary.cost.after") == 45000);
	/* random needs fewer GPUs but leaves one unplaced: not the best. */
	assert_string_equal(str_at(f.doc, "status.summary.cost.baselineOrder"),
	    "as-given");
	assert_true(num_at(f.doc, "status.summary.cost.baseline") == 60000);
	assert_true(num_at(f.doc, "status.summary.cost.savingVsBefore") ==
	    15000);
	assert_true(num_at(f.doc, "status.summary.cost.savingVsBaseline") ==
	    15000);
	assert_int_equal(cJSON_GetArraySize(at(f.doc,
	    "status.summary.baseline")), 3);
	assert_int_equal(num_at(f.doc, "status.summary.baseline.2.unplaced"),
	    1);
	assert_null(cJSON_GetObjectItem(at(f.doc, "status"), "reasons"));

	/* Workloads: served and devices, by grant and by layout. */
	assert_string_equal(str_at(f.doc, "status.teams.0.namespace"),
	    "team-a");
	assert_string_equal(str_at(f.doc,
	    "status.teams.0.workloads.0.priorityClass"), "high-ai");
	assert_int_equal(num_at(f.doc, "status.teams.0.workloads.0.priority"),
	    1000);
	assert_int_equal(num_at(f.doc, "status.teams.0.workloads.0.served"),
	    3);
	assert_string_equal(str_at(f.doc,
	    "status.teams.0.workloads.0.grants.0.deviceClass"),
	    "mig-3g-40gb.gpu.nvidia.com");
	assert_int_equal(num_at(f.doc,
	    "status.teams.0.workloads.0.grants.0.devices"), 3);
	assert_int_equal(num_at(f.doc, "status.teams.1.workloads.1.served"),
	    6);
	assert_int_equal(num_at(f.doc, "status.teams.1.workloads.1.devices"),
	    2);
	assert_int_equal(num_at(f.doc,
	    "status.teams.1.workloads.1.grants.0.replicas"), 6);
	owned(f.doc, "team-a", "llm", &dev, &rep);
	assert_int_equal(dev, 3);
	assert_int_equal(rep, 3);
	owned(f.doc, "team-b", "ci", &dev, &rep);
	assert_int_equal(dev, 2);
	assert_int_equal(rep, 6);
	owned(f.doc, "team-b", "nb", &dev, &rep);
	assert_int_equal(dev, 1);

	/* Quotas: every class of the plan, 0 where nothing is granted. */
	assert_string_equal(hard(f.doc, 0,
	    "count/resourceclaims.resource.k8s.io"), "5");
	assert_string_equal(hard(f.doc, 0, "mig-3g-40gb.gpu.nvidia.com."
	    "deviceclass.resource.k8s.io/devices"), "3");
	assert_string_equal(hard(f.doc, 0, "requests.nvidia.com/mig-3g.40gb"),
	    "3");
	assert_string_equal(hard(f.doc, 0, "mig-1g-10gb.gpu.nvidia.com."
	    "deviceclass.resource.k8s.io/devices"), "2");
	assert_string_equal(hard(f.doc, 0, "mig-2g-20gb.gpu.nvidia.com."
	    "deviceclass.resource.k8s.io/devices"), "0");
	assert_string_equal(hard(f.doc, 0, "gpu.nvidia.com."
	    "deviceclass.resource.k8s.io/devices"), "0");
	assert_string_equal(hard(f.doc, 0, "requests.nvidia.com/gpu"), "0");
	assert_string_equal(hard(f.doc, 0, "mig.nvidia.com."
	    "deviceclass.resource.k8s.io/devices"), "0");
	assert_int_equal(cJSON_GetArraySize(at(f.doc,
	    "status.teams.0.quota.hard")), 10);
	assert_string_equal(hard(f.doc, 1,
	    "count/resourceclaims.resource.k8s.io"), "3");
	assert_string_equal(hard(f.doc, 1, "mig-1g-10gb.gpu.nvidia.com."
	    "deviceclass.resource.k8s.io/devices"), "2");
	assert_string_equal(hard(f.doc, 1, "requests.nvidia.com/mig-2g.20gb"),
	    "1");
	q = manifest(f.doc, "ResourceQuota", "team-b", "dra-plan");
	assert_string_equal(str_at(q, "apiVersion"), "v1");
	assert_true(cJSON_Compare(at(q, "spec.hard"),
	    at(f.doc, "status.teams.1.quota.hard"), 1));

	/* DeviceClasses: NVIDIA's demo convention; the Helm chart's own
	   gpu.nvidia.com is used, never emitted. */
	dc = manifest(f.doc, "DeviceClass", NULL,
	    "mig-3g-40gb.gpu.nvidia.com");
	assert_string_equal(str_at(dc, "apiVersion"), "resource.k8s.io/v1");
	assert_string_equal(str_at(dc, "spec.selectors.0.cel.expression"),
	    "device.driver == 'gpu.nvidia.com' && "
	    "device.attributes['gpu.nvidia.com'].type == 'mig' && "
	    "device.attributes['gpu.nvidia.com'].profile == '3g.40gb'");
	assert_string_equal(str_at(dc, "spec.extendedResourceName"),
	    "nvidia.com/mig-3g.40gb");
	cJSON_ArrayForEach(dc, at(f.doc, "status.manifests"))
		assert_string_not_equal(str_at(dc, "metadata.name"),
		    "gpu.nvidia.com");
	assert_string_equal(hard(f.doc, 0, "requests.nvidia.com/gpu"), "0");
	dc = manifest(f.doc, "PriorityClass", NULL, "high-ai");
	assert_string_equal(str_at(dc, "apiVersion"), "scheduling.k8s.io/v1");
	assert_int_equal(num_at(dc, "value"), 1000);
	assert_int_equal(num_at(manifest(f.doc, "PriorityClass", NULL,
	    "batch"), "value"), 100);
	/* 2 PriorityClasses, 3 DeviceClasses, 2 quotas; no ConfigMap. */
	assert_int_equal(cJSON_GetArraySize(at(f.doc, "status.manifests")), 7);
	assert_int_equal(cJSON_GetArraySize(at(f.doc, "status.nodeLabels")),
	    0);

	/* The layout: orders, device names, first fit, no overlap. */
	assert_int_equal(check_layout(&f), 8);
	assert_string_equal(str_at(f.doc, "status.layout.1.gpus.1.state"),
	    "idle");
	assert_null(cJSON_GetObjectItem(at(f.doc, "status.layout.0.gpus.0"),
	    "migConfig"));

	/* Deterministic, and as recorded. */
	y1 = yaml_of(f.doc);
	cJSON_Delete(f.doc);
	f.doc = NULL;
	{
		struct dra_plan_input in;

		memset(&in, 0, sizeof in);
		in.inv = f.inv;
		in.demand = f.d;
		in.result = f.r;
		in.baselines = mixed_bl;
		in.nbaselines = 3;
		f.doc = dra_plan_document(&in);
	}
	y2 = yaml_of(f.doc);
	assert_string_equal(y1, y2);
	golden("plan-mixed.yaml", y1);
	t = table_of(f.doc);
	golden("plan-mixed.txt", t);
	svg = svg_of(f.doc);
	assert_int_equal(svg_check(svg), 8);
	golden("plan-mixed.svg", svg);
	free(y1);
	free(y2);
	free(t);
	free(svg);
	fx_free(&f);
}

/* --static-mig: a mig-parted configuration per distinct node layout. */
static void
test_static_mig(void **state)
{
	struct fx	 f;
	const cJSON	*cm;
	char		*y, *t;

	(void)state;
	fx_solve(&f, "4xH100-80GB/2", demand_mixed);
	fx_plan(&f, 1, NULL, 0);
	assert_true(cJSON_IsTrue(at(f.doc, "spec.policy.staticMIG")));
	cm = manifest(f.doc, "ConfigMap", "gpu-operator",
	    "default-mig-parted-config");
	assert_string_equal(key_at(cm, "data", "config.yaml"),
	    "version: v1\n"
	    "mig-configs:\n"
	    "  all-disabled:\n"
	    "  - devices: all\n"
	    "    mig-enabled: false\n"
	    "  all-enabled:\n"
	    "  - devices: all\n"
	    "    mig-enabled: true\n"
	    "    mig-devices: {}\n"
	    "  dra-plan-1:\n"
	    "  - devices: [0]\n"
	    "    mig-enabled: true\n"
	    "    mig-devices:\n"
	    "      \"1g.10gb\": 4\n"
	    "      \"3g.40gb\": 1\n"
	    "  - devices: [1]\n"
	    "    mig-enabled: true\n"
	    "    mig-devices:\n"
	    "      \"2g.20gb\": 1\n"
	    "      \"3g.40gb\": 1\n"
	    "  dra-plan-2:\n"
	    "  - devices: [0]\n"
	    "    mig-enabled: true\n"
	    "    mig-devices:\n"
	    "      \"3g.40gb\": 1\n"
	    "  - devices: [1]\n"
	    "    mig-enabled: true\n"
	    "    mig-devices: {}\n");
	assert_int_equal(cJSON_GetArraySize(at(f.doc, "status.nodeLabels")),
	    2);
	assert_string_equal(str_at(f.doc, "status.nodeLabels.0.node"),
	    "h100-80gb-0");
	assert_string_equal(key_at(f.doc, "status.nodeLabels.0.labels",
	    "nvidia.com/mig.config"), "dra-plan-1");
	assert_string_equal(key_at(f.doc, "status.nodeLabels.1.labels",
	    "nvidia.com/mig.config"), "dra-plan-2");
	assert_string_equal(str_at(f.doc, "status.layout.0.gpus.1.migConfig"),
	    "dra-plan-1");
	assert_string_equal(str_at(f.doc, "status.layout.1.gpus.1.migConfig"),
	    "dra-plan-2");
	y = yaml_of(f.doc);
	golden("plan-static.yaml", y);
	t = table_of(f.doc);
	assert_non_null(strstr(t,
	    "  gpu-1  H100-80GB  idle (config dra-plan-2)\n"));
	free(y);
	free(t);
	fx_free(&f);
}

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

/* What existing claims charge to a namespace's quota (inventory). */
static void
add_usage(struct plan_inventory *inv, const char *ns, const char *cls,
    int64_t count)
{
	inv->usage = xreallocarray(inv->usage, inv->nusage + 1,
	    sizeof *inv->usage);
	inv->usage[inv->nusage].namespace = xstrdup(ns);
	inv->usage[inv->nusage].device_class = cls != NULL ? xstrdup(cls) :
	    NULL;
	inv->usage[inv->nusage].count = count;
	inv->nusage++;
}

/*
 * Running claims stay where they are and their namespace's quota makes
 * room for what its existing claims charge: team-a/old holds a 3g.40gb
 * and a 1g.10gb (one claim asking mig.nvidia.com for two devices),
 * other/x a 1g.10gb in a namespace without a team.
 */
static void
test_running(void **state)
{
	struct fx	 f;
	const cJSON	*n, *gp, *x;
	int		 running = 0;
	char		*t, *svg, want[32];

	(void)state;
	fx_solve(&f, "3xH100-80GB", demand_mixed);
	add_running(f.inv, 0, "3g.40gb", 0, "team-a", "old");
	add_running(f.inv, 1, "1g.10gb", 6, "team-a", "old");
	add_running(f.inv, 1, "1g.10gb", 5, "other", "x");
	add_usage(f.inv, "team-a", NULL, 1);
	add_usage(f.inv, "team-a", "mig.nvidia.com", 2);
	add_usage(f.inv, "other", NULL, 1);
	add_usage(f.inv, "other", "mig.nvidia.com", 1);
	fx_plan(&f, 0, NULL, 0);
	assert_string_equal(str_at(f.doc, "status.solver.status"), "optimal");
	assert_int_equal(num_at(f.doc, "status.teams.0.runningClaims"), 1);
	assert_int_equal(num_at(f.doc, "status.teams.1.runningClaims"), 0);
	/* 3 + 2 granted, plus what the existing claim charges: one
	   claim, two devices of the class its spec names. */
	assert_string_equal(hard(f.doc, 0,
	    "count/resourceclaims.resource.k8s.io"), "6");
	assert_string_equal(hard(f.doc, 0, "mig-3g-40gb.gpu.nvidia.com."
	    "deviceclass.resource.k8s.io/devices"), "3");
	assert_string_equal(hard(f.doc, 0, "mig-1g-10gb.gpu.nvidia.com."
	    "deviceclass.resource.k8s.io/devices"), "2");
	assert_string_equal(hard(f.doc, 0, "requests.nvidia.com/mig-1g.10gb"),
	    "2");
	assert_string_equal(hard(f.doc, 0, "mig.nvidia.com."
	    "deviceclass.resource.k8s.io/devices"), "2");
	/* team-b: one claim per device granted, nothing running. */
	snprintf(want, sizeof want, "%d", (int)(num_at(f.doc,
	    "status.teams.1.workloads.0.devices") + num_at(f.doc,
	    "status.teams.1.workloads.1.devices")));
	assert_string_equal(hard(f.doc, 1,
	    "count/resourceclaims.resource.k8s.io"), want);
	cJSON_ArrayForEach(n, at(f.doc, "status.layout"))
		cJSON_ArrayForEach(gp, at(n, "gpus"))
			cJSON_ArrayForEach(x, at(gp, "instances")) {
				const cJSON *o = at(x, "owner");

				if (strcmp(str_at(o, "kind"), "running") != 0)
					continue;
				running++;
				if (strcmp(str_at(o, "namespace"), "other") ==
				    0) {
					assert_string_equal(str_at(o, "claim"),
					    "x");
					assert_int_equal(num_at(x, "start"), 5);
					assert_string_equal(str_at(x, "device"),
					    "gpu-1-mig-1g10gb-19-5");
				}
			}
	assert_int_equal(running, 3);
	t = table_of(f.doc);
	assert_non_null(strstr(t, "[1g.10gb other/x running]"));
	assert_non_null(strstr(t, "[3g.40gb team-a/old running]"));
	golden("plan-running.txt", t);
	svg = svg_of(f.doc);
	assert_int_equal(svg_check(svg), count_instances(f.doc));
	golden("plan-running.svg", svg);
	assert_non_null(strstr(svg, "class=\"hatch\""));
	assert_non_null(strstr(svg, ">other</text>"));
	free(t);
	free(svg);
	fx_free(&f);
}

/*
 * Static MIG today: gpu-0 holds two 3g.40gb made by mig-parted, gpu-1
 * seven 1g.10gb.  The plan's static GPUs get their mig-parted
 * configuration without --static-mig, and a spare instance (added to
 * the solver's layout by hand: the view must show what a layout holds)
 * is listed, drawn and configured as such.
 */
static void
test_static_today(void **state)
{
	struct fx			 f;
	const struct plan_geometry	*g;
	struct plan_gpu_layout		*lay;
	struct dra_plan_input		 in;
	const cJSON			*x, *n, *gp;
	size_t				 i, k, spare_gpu = 2;
	int				 p, used[8], start = -1, spares = 0;
	char				*t, *svg, want[64];

	(void)state;
	fx_solve(&f, "2xH100-80GB", demand_small);
	g = f.inv->geometries[0];
	for (i = 0; i < 2; i++) {
		f.inv->gpus[i].mode = PLAN_MODE_STATIC;
		p = plan_profile_index(g, i == 0 ? "3g.40gb" : "1g.10gb");
		for (k = 0; k < g->nplacements; k++) {
			if (g->placements[k].profile != p)
				continue;
			f.inv->gpus[i].existing = xreallocarray(
			    f.inv->gpus[i].existing,
			    f.inv->gpus[i].nexisting + 1, sizeof(int));
			f.inv->gpus[i].existing[f.inv->gpus[i].nexisting++] =
			    (int)k;
		}
	}
	fx_plan(&f, 0, NULL, 0);
	cJSON_Delete(f.doc);

	/* A spare 1g.10gb in the first free slice of a GPU. */
	p = plan_profile_index(g, "1g.10gb");
	for (i = 0; i < 2 && start < 0; i++) {
		lay = &f.r->gpus[i];
		memset(used, 0, sizeof used);
		for (k = 0; k < lay->nslots; k++) {
			const struct plan_placement *pl =
			    &g->placements[lay->slots[k].placement];
			int s;

			for (s = pl->start; s < pl->start +
			    g->profiles[pl->profile].memory; s++)
				used[s] = 1;
		}
		for (k = 0; k < 8 && start < 0; k++)
			if (!used[k])
				start = (int)k;
		spare_gpu = i;
	}
	assert_true(start >= 0);
	for (k = 0; k < g->nplacements; k++)
		if (g->placements[k].profile == p &&
		    g->placements[k].start == start)
			break;
	lay = &f.r->gpus[spare_gpu];
	lay->slots = xreallocarray(lay->slots, lay->nslots + 1,
	    sizeof *lay->slots);
	memset(&lay->slots[lay->nslots], 0, sizeof *lay->slots);
	lay->slots[lay->nslots].placement = (int)k;
	lay->slots[lay->nslots++].kind = PLAN_OWNER_SPARE;
	memset(&in, 0, sizeof in);
	in.inv = f.inv;
	in.demand = f.d;
	in.result = f.r;
	f.doc = dra_plan_document(&in);

	assert_string_equal(str_at(f.doc, "spec.inventory.models.0.mode"),
	    "static");
	assert_string_equal(str_at(f.doc, "status.layout.0.gpus.0.mode"),
	    "static");
	assert_string_equal(str_at(f.doc, "status.layout.0.gpus.0.migConfig"),
	    "dra-plan-1");
	assert_string_equal(key_at(f.doc, "status.nodeLabels.0.labels",
	    "nvidia.com/mig.config"), "dra-plan-1");
	assert_true(cJSON_IsBool(at(f.doc, "status.layout.0.gpus.1.changed")));
	assert_int_equal(cJSON_IsTrue(at(f.doc,
	    "status.layout.0.gpus.0.changed")), f.r->gpus[0].changed);
	cJSON_ArrayForEach(n, at(f.doc, "status.layout"))
		cJSON_ArrayForEach(gp, at(n, "gpus"))
			cJSON_ArrayForEach(x, at(gp, "instances")) {
				if (strcmp(str_at(x, "owner.kind"), "spare") !=
				    0)
					continue;
				spares++;
				assert_int_equal(num_at(x, "start"), start);
				assert_int_equal(cJSON_GetArraySize(at(x,
				    "owner")), 1);
			}
	assert_int_equal(spares, 1);
	/* The spare is an instance mig-parted makes: 1g.10gb counted. */
	assert_non_null(strstr(key_at(manifest(f.doc, "ConfigMap",
	    "gpu-operator", "default-mig-parted-config"), "data",
	    "config.yaml"), "\"1g.10gb\":"));
	t = table_of(f.doc);
	snprintf(want, sizeof want, "[1g.10gb \xc2\xb7]");
	assert_non_null(strstr(t, want));
	assert_non_null(strstr(t, "(static, "));
	svg = svg_of(f.doc);
	assert_int_equal(svg_check(svg), count_instances(f.doc));
	assert_non_null(strstr(svg, "fill=\"#ffffff\" stroke=\"#707070\" "
	    "stroke-dasharray=\"3,2\"/><text"));
	free(t);
	free(svg);
	fx_free(&f);
}

/* The whole GPU and a +me profile: names, CEL, mig-parted keys, money. */
static void
test_whole_me(void **state)
{
	struct fx	 f;
	const cJSON	*dc, *n, *gp, *x;
	const char	*cfg;
	int		 whole = 0;
	char		*t;

	(void)state;
	fx_solve(&f, "2xH100-80GB", demand_whole);
	fx_plan(&f, 1, NULL, 0);
	assert_true(num_at(f.doc, "spec.policy.pricePerGPUMonth") == 1234.57);
	assert_true(num_at(f.doc, "status.summary.cost.before") == 2469.13);
	dc = manifest(f.doc, "DeviceClass", NULL,
	    "mig-1g-10gb-me.gpu.nvidia.com");
	assert_string_equal(str_at(dc, "spec.selectors.0.cel.expression"),
	    "device.driver == 'gpu.nvidia.com' && "
	    "device.attributes['gpu.nvidia.com'].type == 'mig' && "
	    "device.attributes['gpu.nvidia.com'].profile == '1g.10gb+me'");
	assert_string_equal(str_at(dc, "spec.extendedResourceName"),
	    "nvidia.com/mig-1g.10gb.me");
	assert_string_equal(hard(f.doc, 0, "gpu.nvidia.com."
	    "deviceclass.resource.k8s.io/devices"), "1");
	assert_string_equal(hard(f.doc, 0, "requests.nvidia.com/gpu"), "1");
	assert_string_equal(hard(f.doc, 0,
	    "requests.nvidia.com/mig-1g.10gb.me"), "1");
	assert_string_equal(hard(f.doc, 0,
	    "count/resourceclaims.resource.k8s.io"), "2");
	cJSON_ArrayForEach(n, at(f.doc, "status.layout"))
		cJSON_ArrayForEach(gp, at(n, "gpus"))
			cJSON_ArrayForEach(x, at(gp, "instances"))
				if (strcmp(str_at(x, "profile"), "gpu") == 0) {
					whole++;
					assert_int_equal(num_at(x, "start"), 0);
					assert_int_equal(num_at(x,
					    "memorySlices"), 8);
					assert_string_equal(str_at(x, "device"),
					    str_at(gp, "name"));
				}
	assert_int_equal(whole, 1);
	assert_int_equal(check_layout(&f), 2);
	cfg = key_at(manifest(f.doc, "ConfigMap", "gpu-operator",
	    "default-mig-parted-config"), "data", "config.yaml");
	/* The +me key keeps its '+'; the whole GPU turns MIG off. */
	assert_non_null(strstr(cfg, "  dra-plan-1:\n"
	    "  - devices: [0]\n"
	    "    mig-enabled: true\n"
	    "    mig-devices:\n"
	    "      \"1g.10gb+me\": 1\n"
	    "  - devices: [1]\n"
	    "    mig-enabled: false\n"));
	t = table_of(f.doc);
	assert_non_null(strstr(t, "before 2,469.13 USD"));
	assert_non_null(strstr(t, "[gpu research/pretrain]"));
	free(t);
	fx_free(&f);
}

/* A 4-slice GPU: bars of 4 cells, the instance over its slices. */
static void
test_a30(void **state)
{
	static const char	 demand[] = HEAD
	    "teams:\n"
	    "- namespace: t\n"
	    "  workloads:\n"
	    "  - name: w\n"
	    "    replicas: 1\n"
	    "    needs: {profile: 2g.12gb}\n";
	struct fx		 f;
	char			*svg;

	(void)state;
	fx_solve(&f, "1xA30-24GB", demand);
	fx_plan(&f, 0, NULL, 0);
	assert_int_equal(num_at(f.doc, "status.layout.0.gpus.0.memorySlices"),
	    4);
	assert_int_equal(num_at(f.doc,
	    "status.layout.0.gpus.0.instances.0.memorySlices"), 2);
	svg = svg_of(f.doc);
	assert_int_equal(svg_check(svg), 1);
	/* Cells of 60 pixels, the instance two of them wide. */
	assert_non_null(strstr(svg, "width=\"60.0\" height=\"30\""));
	assert_non_null(strstr(svg, "class=\"instance\""));
	assert_non_null(strstr(svg, "width=\"118.0\" height=\"28\""));
	free(svg);
	fx_free(&f);
}

/* A minimum the fleet cannot hold: the reasons, no layout. */
static void
test_infeasible(void **state)
{
	struct fx	 f;
	char		*t, *svg, *y;

	(void)state;
	fx_solve(&f, "4xH100-80GB/2", demand_infeasible);
	fx_plan(&f, 0, NULL, 0);
	assert_string_equal(str_at(f.doc, "status.solver.status"),
	    "infeasible");
	assert_true(cJSON_GetArraySize(at(f.doc, "status.reasons")) >= 1);
	assert_non_null(strstr(str_at(f.doc, "status.reasons.0.message"),
	    "team-a/llm needs 10 x 3g.40gb"));
	assert_null(cJSON_GetObjectItem(at(f.doc, "status"), "layout"));
	assert_null(cJSON_GetObjectItem(at(f.doc, "status"), "manifests"));
	assert_null(cJSON_GetObjectItem(at(f.doc, "status.summary.gpus"),
	    "used"));
	assert_null(cJSON_GetObjectItem(at(f.doc, "status.summary.cost"),
	    "after"));
	assert_null(cJSON_GetObjectItem(at(f.doc, "status.teams.0"),
	    "quota"));
	assert_int_equal(num_at(f.doc, "status.teams.0.workloads.0.served"),
	    0);
	y = yaml_of(f.doc);
	golden("plan-infeasible.yaml", y);
	t = table_of(f.doc);
	golden("plan-infeasible.txt", t);
	svg = svg_of(f.doc);
	assert_int_equal(svg_check(svg), 0);
	assert_non_null(strstr(svg, "team-a/llm needs 10 x 3g.40gb"));
	free(y);
	free(t);
	free(svg);
	fx_free(&f);
}

/* A slot of workload w of team 0 at profile@start of GPU i. */
static void
hand_slot(struct fx *f, size_t i, const char *profile, int start, size_t w)
{
	const struct plan_geometry	*g = f->inv->geometries[0];
	struct plan_gpu_layout		*lay = &f->r->gpus[i];
	int				 p = plan_profile_index(g, profile);
	size_t				 k;

	for (k = 0; k < g->nplacements; k++)
		if (g->placements[k].profile == p &&
		    g->placements[k].start == start)
			break;
	assert_true(k < g->nplacements);
	lay->slots = xreallocarray(lay->slots, lay->nslots + 1,
	    sizeof *lay->slots);
	memset(&lay->slots[lay->nslots], 0, sizeof *lay->slots);
	lay->slots[lay->nslots].placement = (int)k;
	lay->slots[lay->nslots].kind = PLAN_OWNER_WORKLOAD;
	lay->slots[lay->nslots].team = 0;
	lay->slots[lay->nslots].workload = w;
	lay->slots[lay->nslots].replicas = 1;
	lay->nslots++;
	lay->used = 1;
}

/* demand_small served on GPUs 0 and 1, as a plan_result by hand. */
static void
hand_result(struct fx *f)
{
	struct plan_result	*r;
	struct dra_plan_input	 in;

	r = xcalloc(1, sizeof *r);
	r->status = PLAN_OPTIMAL;
	r->served = xcalloc(2, sizeof *r->served);
	r->devices = xcalloc(2, sizeof *r->devices);
	r->served[0] = xcalloc(2, sizeof(int64_t));
	r->devices[0] = xcalloc(2, sizeof(int64_t));
	r->served[0][0] = r->devices[0][0] = 3;
	r->served[0][1] = r->devices[0][1] = 1;
	r->grants = xcalloc(2, sizeof *r->grants);
	r->grants[0].workload = 0;
	r->grants[0].profile = plan_profile_index(f->inv->geometries[0],
	    "3g.40gb");
	r->grants[0].devices = r->grants[0].replicas = 3;
	r->grants[1].workload = 1;
	r->grants[1].profile = plan_profile_index(f->inv->geometries[0],
	    "1g.10gb");
	r->grants[1].devices = r->grants[1].replicas = 1;
	r->ngrants = 2;
	r->ngpus = f->inv->ngpus;
	r->gpus = xcalloc(r->ngpus, sizeof *r->gpus);
	r->gpus_used = 2;
	r->load = 10.0 / 7;
	r->utilization = r->load / 2;
	f->r = r;
	hand_slot(f, 0, "3g.40gb", 0, 0);
	hand_slot(f, 0, "3g.40gb", 4, 0);
	hand_slot(f, 1, "3g.40gb", 0, 0);
	hand_slot(f, 1, "1g.10gb", 4, 1);
	memset(&in, 0, sizeof in);
	in.inv = f->inv;
	in.demand = f->d;
	in.result = r;
	f->doc = dra_plan_document(&in);
}

/* Above 64 GPUs the table counts identical GPUs; above 512 the SVG. */
static void
test_large(void **state)
{
	struct fx	 f;
	char		*t, *svg, *p;
	size_t		 lines = 0;

	(void)state;
	fx_solve(&f, "72xH100-80GB", demand_small);
	fx_plan(&f, 0, NULL, 0);
	t = table_of(f.doc);
	assert_non_null(strstr(t, "LAYOUT (72 GPUs on 9 nodes; identical "
	    "GPUs counted)\n"));
	/* 70 idle GPUs, one line. */
	assert_non_null(strstr(t, "  70 x  H100-80GB  idle\n"));
	for (p = strstr(t, "LAYOUT"); p != NULL && *p != '\0'; p++)
		if (*p == '\n')
			lines++;
	assert_true(lines <= 4);
	golden("plan-large.txt", t);
	svg = svg_of(f.doc);
	/* 72 GPUs are still drawn one by one. */
	assert_int_equal(svg_check(svg), count_instances(f.doc));
	free(t);
	free(svg);
	fx_free(&f);

	/*
	 * 600 GPUs by hand (the solver's time on large fleets is its own
	 * test): gpu 0 of the first node holds llm's 3g.40gb at 0 and 4,
	 * gpu 1 llm's third and tiny's 1g.10gb, the rest idle.
	 */
	fx_solve(&f, "600xH100-80GB", demand_small);
	hand_result(&f);
	assert_int_equal(count_instances(f.doc), 4);
	svg = svg_of(f.doc);
	assert_non_null(strstr(svg, "distinct GPU layouts of 600 GPUs on 75 "
	    "nodes"));
	assert_non_null(strstr(svg, ">598 &#215;</text>"));
	assert_int_equal(svg_check(svg), 4);
	assert_true(strlen(svg) < 20000);
	golden("plan-large.svg", svg);
	free(svg);
	fx_free(&f);
}

/* Names with control characters and markup: safe in both outputs. */
static void
test_safe_names(void **state)
{
	struct fx	 f;
	cJSON		*o;
	char		*t, *svg;

	(void)state;
	fx_solve(&f, "4xH100-80GB/2", demand_mixed);
	fx_plan(&f, 0, NULL, 0);
	o = at(f.doc, "status.layout.0.gpus.0.instances.0.owner");
	cJSON_ReplaceItemInObject(o, "workload",
	    cJSON_CreateString("e\x1b[31m<&>\"'"));
	cJSON_ReplaceItemInObject(at(f.doc, "status.layout.0"), "node",
	    cJSON_CreateString("n\rode<1>"));
	t = table_of(f.doc);
	assert_null(strchr(t, '\x1b'));
	assert_null(strchr(t, '\r'));
	assert_non_null(strstr(t, "e?[31m<&>\"'"));
	assert_non_null(strstr(t, "n?ode<1>\n"));
	svg = svg_of(f.doc);
	assert_int_equal(svg_check(svg), 8);
	assert_non_null(strstr(svg, "e?[31m&lt;&amp;&gt;&quot;&apos;"));
	assert_non_null(strstr(svg, ">n?ode&lt;1&gt;</text>"));
	free(t);
	free(svg);
	fx_free(&f);
}

/* One mutation of a good document and the error it must give. */
struct bad {
	const char	*parent;	/* path to the object changed */
	const char	*key;		/* member replaced (NULL: parent) */
	const char	*json;		/* new value; NULL deletes it */
	const char	*msg;
};

static const struct bad bads[] = {
	{ "status.layout.0.gpus.0.instances.1", "profile", "7",
	  "status.layout[0].gpus[0].instances[1].profile: expected a "
	  "string" },
	{ "", "status", NULL, "status: missing" },
	{ "", "kind", "\"Demand\"", "kind: expected \"Plan\"" },
	{ "", "apiVersion", "\"v1\"",
	  "apiVersion: expected \"dra.kubectl.io/v1alpha1\"" },
	{ "status.layout.1.gpus.1", "state", "\"busy\"",
	  "status.layout[1].gpus[1].state: expected used, headroom or idle" },
	{ "status.layout.0.gpus.1.instances.0", "start", "7",
	  "status.layout[0].gpus[1].instances[0]: memory slices 7 to 8 are "
	  "outside the GPU's 8" },
	{ "status.layout.0.gpus.0", "memorySlices", "65",
	  "status.layout[0].gpus[0].memorySlices: expected an integer from 1 "
	  "to 64, got 65" },
	{ "status.layout.0.gpus.0", "rebuilt", "\"no\"",
	  "status.layout[0].gpus[0].rebuilt: expected true or false" },
	{ "status.layout.0.gpus.0.instances.0.owner", "kind", "\"thief\"",
	  "status.layout[0].gpus[0].instances[0].owner.kind: expected "
	  "workload, running, moved or spare" },
	{ "status.layout.0.gpus.0.instances.0.owner", "namespace", NULL,
	  "status.layout[0].gpus[0].instances[0].owner.namespace: missing" },
	{ "status.layout.0.gpus.0.instances.0", "order", "1.5",
	  "status.layout[0].gpus[0].instances[0].order: expected an "
	  "integer" },
	{ "status.layout.1", "gpus", "{}",
	  "status.layout[1].gpus: expected a list" },
	{ "status.layout", NULL, "[3]", "status.layout[0]: expected a "
	  "mapping" },
	{ "status.teams.1.quota.hard", "count/resourceclaims.resource.k8s.io",
	  "3", "status.teams[1].quota.hard.count/resourceclaims.resource."
	  "k8s.io: expected a string" },
	{ "status.teams.0.workloads.1", "served", "-1",
	  "status.teams[0].workloads[1].served: expected an integer from 0 "
	  "to 1000000000, got -1" },
	{ "status.summary.gpus", "total", "\"4\"",
	  "status.summary.gpus.total: expected an integer" },
	{ "status.summary.cost", "after", NULL,
	  "status.summary.cost.after: missing" },
	{ "status.solver", "gap", "null", "status.solver.gap: missing" },
	{ "status.summary.baseline.0", "order", "[]",
	  "status.summary.baseline[0].order: expected a string" },
};

static void
test_malformed(void **state)
{
	struct fx	 f;
	struct dra_buf	 b;
	struct dra_err	 err;
	cJSON		*doc, *parent, *v;
	size_t		 i;
	int		 which;

	(void)state;
	fx_solve(&f, "4xH100-80GB/2", demand_mixed);
	fx_plan(&f, 0, mixed_bl, 3);
	for (i = 0; i < sizeof bads / sizeof bads[0]; i++) {
		doc = cJSON_Duplicate(f.doc, 1);
		parent = *bads[i].parent != '\0' ? at(doc, bads[i].parent) :
		    doc;
		if (bads[i].key == NULL) {
			/* Replace parent itself in its own parent. */
			cJSON_ReplaceItemInObject(at(doc, "status"), "layout",
			    cJSON_Parse(bads[i].json));
		} else if (bads[i].json == NULL)
			cJSON_DeleteItemFromObjectCaseSensitive(parent,
			    bads[i].key);
		else {
			v = cJSON_Parse(bads[i].json);
			assert_non_null(v);
			cJSON_ReplaceItemInObjectCaseSensitive(parent,
			    bads[i].key, v);
		}
		for (which = 0; which < 2; which++) {
			dra_buf_init(&b, DRA_BUF_MAX_PAGE);
			dra_buf_adds(&b, "kept");
			memset(&err, 0, sizeof err);
			assert_int_equal(which == 0 ? dra_plan_table(doc, &b,
			    &err) : dra_plan_svg(doc, &b, &err),
			    KUBE_E_PARSE);
			assert_int_equal(err.code, KUBE_E_PARSE);
			if (strcmp(err.msg, bads[i].msg) != 0)
				fail_msg("case %zu: got \"%s\", want \"%s\"",
				    i, err.msg, bads[i].msg);
			assert_string_equal(dra_buf_str(&b), "kept");
			dra_buf_release(&b);
		}
		cJSON_Delete(doc);
	}
	/* Not a mapping at all. */
	doc = cJSON_CreateArray();
	dra_buf_init(&b, DRA_BUF_MAX_PAGE);
	assert_int_equal(dra_plan_table(doc, &b, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "expected a Plan document (a mapping)");
	/* Too small a buffer. */
	dra_buf_release(&b);
	dra_buf_init(&b, 100);
	assert_int_equal(dra_plan_table(f.doc, &b, &err), KUBE_E_TOOBIG);
	assert_int_equal(dra_plan_svg(f.doc, &b, &err), KUBE_E_TOOBIG);
	dra_buf_release(&b);
	cJSON_Delete(doc);
	fx_free(&f);
}

/* Class and extended resource names. */
static void
test_names(void **state)
{
	struct plan_geometry	*g;
	struct dra_err		 err;
	char			 buf[256];
	int			 p;

	(void)state;
	if (plan_catalog_geometry("H100-80GB", &g, &err) != KUBE_OK)
		fail_msg("%s", err.msg);
	p = plan_profile_index(g, "1g.10gb+me");
	assert_true(p >= 0);
	assert_string_equal(dra_plan_class_name(g, &g->profiles[p], NULL, buf,
	    sizeof buf), "mig-1g-10gb-me.gpu.nvidia.com");
	assert_string_equal(dra_plan_class_name(g, &g->profiles[p], "",
	    buf, sizeof buf), "mig-1g-10gb-me.gpu.nvidia.com");
	assert_string_equal(dra_plan_class_name(g, &g->profiles[p],
	    "team.example-", buf, sizeof buf),
	    "team.example-1g-10gb-me.gpu.nvidia.com");
	assert_null(dra_plan_class_name(g, &g->profiles[p], NULL, buf, 10));
	assert_string_equal(dra_plan_extended_resource(g, &g->profiles[p],
	    buf, sizeof buf), "nvidia.com/mig-1g.10gb.me");
	p = plan_profile_index(g, "gpu");
	assert_true(p >= 0);
	assert_string_equal(dra_plan_class_name(g, &g->profiles[p], "x-",
	    buf, sizeof buf), "gpu.nvidia.com");
	assert_string_equal(dra_plan_extended_resource(g, &g->profiles[p],
	    buf, sizeof buf), "nvidia.com/gpu");
	free(g->driver);
	g->driver = xstrdup("gpu.example.com");
	assert_null(dra_plan_extended_resource(g, &g->profiles[p], buf,
	    sizeof buf));
	assert_string_equal(dra_plan_class_name(g, &g->profiles[p], NULL,
	    buf, sizeof buf), "gpu.example.com");
	plan_geometry_free(g);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mixed),
		cmocka_unit_test(test_static_mig),
		cmocka_unit_test(test_running),
		cmocka_unit_test(test_static_today),
		cmocka_unit_test(test_whole_me),
		cmocka_unit_test(test_a30),
		cmocka_unit_test(test_infeasible),
		cmocka_unit_test(test_large),
		cmocka_unit_test(test_safe_names),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
