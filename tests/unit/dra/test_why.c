/*
 * test_why.c: `why` on every shared case (../shared/cases), checked
 * against the case's expect.json: whether each claim is allocatable,
 * whether the failure blocks the pod on every node, the exact devices
 * where expect.json names them, and that the explanation a person
 * reads names every one of the case's reason_keywords (the claim,
 * device, counter or taint a user needs to see).  Plus the release
 * analysis and the JSON document's stable keys.
 */
#include <ctype.h>
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "dratest.h"
#include "model.h"
#include "snapshot.h"
#include "views.h"
#include "why.h"

static void
lower(char *s)
{
	for (; *s != '\0'; s++)
		*s = (char)tolower((unsigned char)*s);
}

/*
 * Explain ns/name as kube-scheduler met it in the oracle's records:
 * through the input's Pod that uses it, else the claim, else a claim
 * from the template of that name.
 */
static struct dra_why *
why_named(const struct kube_snapshot *s, const char *ns, const char *name)
{
	struct dra_why_target		 t;
	struct dra_why			*w = NULL;
	struct dra_err			 err;
	size_t				 i;

	memset(&t, 0, sizeof t);
	/* The input's own Pod, when one uses it (its pinning counts). */
	for (i = 0; i < s->pods.n && t.pod == NULL; i++) {
		const struct kube_pod	*p = s->pods.v[i];
		size_t			 j;

		if (strcmp(p->meta.namespace, ns) != 0)
			continue;
		for (j = 0; j < p->nclaims; j++) {
			if ((p->claims[j].claim_name != NULL &&
			    strcmp(p->claims[j].claim_name, name) == 0) ||
			    (p->claims[j].template_name != NULL &&
			    strcmp(p->claims[j].template_name, name) == 0))
				t.pod = p;
		}
	}
	if (t.pod != NULL)
		goto explain;
	t.claim = kube_snapshot_claim(s, ns, name);
	if (t.claim == NULL)
		t.tmpl = kube_snapshot_template(s, ns, name);
	if (t.claim == NULL && t.tmpl == NULL)
		fail_msg("no claim or template %s/%s", ns, name);
explain:
	if (dra_why(s, &t, &w, &err) != KUBE_OK)
		fail_msg("why %s/%s: %s", ns, name, err.msg);
	return w;
}

static int
has_device(const struct dra_why *w, const char *id)
{
	char	buf[1024];
	size_t	i;

	for (i = 0; i < w->ndevices; i++) {
		snprintf(buf, sizeof buf, "%s/%s/%s", w->devices[i].driver,
		    w->devices[i].pool, w->devices[i].name);
		if (strcmp(buf, id) == 0)
			return 1;
	}
	return 0;
}

/* One case: every claim of expect.json.  Returns claims checked. */
static int
check_case(const char *name)
{
	struct kube_snapshot	*s;
	cJSON			*doc, *claims, *c, *v, *kw;
	char			 path[1024], *text, *json;
	int			 n = 0;

	snprintf(path, sizeof path, "%s/%s/expect.json", CASES_DIR, name);
	json = dratest_slurp(path);
	if (json == NULL)
		fail_msg("cannot read %s", path);
	doc = cJSON_Parse(json);
	free(json);
	assert_non_null(doc);
	s = dratest_load_case(name);
	claims = cJSON_GetObjectItem(doc, "claims");
	cJSON_ArrayForEach(c, claims) {
		const char	*ns = cJSON_GetObjectItem(c, "namespace")->valuestring;
		const char	*cn = cJSON_GetObjectItem(c, "name")->valuestring;
		struct dra_why	*w;
		int		 want;

		w = why_named(s, ns, cn);
		print_message("%s %s/%s: %s\n", name, ns, cn, w->summary);
		want = cJSON_IsTrue(cJSON_GetObjectItem(c, "allocatable"));
		if (w->allocatable != want)
			fail_msg("%s %s/%s: allocatable %d, expected %d (%s)",
			    name, ns, cn, w->allocatable, want, w->summary);
		v = cJSON_GetObjectItem(c, "blocked_everywhere");
		if (v != NULL && (w->verdict == DRA_WHY_BLOCKED) !=
		    cJSON_IsTrue(v))
			fail_msg("%s %s/%s: verdict %s, blocked_everywhere %d",
			    name, ns, cn, dra_why_verdict_name(w->verdict),
			    cJSON_IsTrue(v));
		v = cJSON_GetObjectItem(c, "devices");
		if (cJSON_IsArray(v)) {
			cJSON *d;

			assert_int_equal(w->ndevices, cJSON_GetArraySize(v));
			cJSON_ArrayForEach(d, v) {
				if (!has_device(w, d->valuestring))
					fail_msg("%s %s/%s: no device %s", name,
					    ns, cn, d->valuestring);
			}
		}
		text = dra_why_text("t", w);
		lower(text);
		cJSON_ArrayForEach(kw, cJSON_GetObjectItem(c,
		    "reason_keywords")) {
			char word[256];

			snprintf(word, sizeof word, "%s", kw->valuestring);
			lower(word);
			if (strstr(text, word) == NULL)
				fail_msg("%s %s/%s: the explanation does not "
				    "name \"%s\":\n%s", name, ns, cn, word,
				    text);
		}
		free(text);
		dra_why_free(w);
		n++;
	}
	kube_snapshot_free(s);
	cJSON_Delete(doc);
	return n;
}

static void
test_every_case(void **state)
{
	DIR		*d;
	struct dirent	*e;
	char		 path[1024];
	FILE		*f;
	int		 cases = 0, claims = 0;

	(void)state;
	d = opendir(CASES_DIR);
	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s/expect.json", CASES_DIR,
		    e->d_name);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		fclose(f);
		claims += check_case(e->d_name);
		cases++;
	}
	closedir(d);
	/* The 14 shared cases hold 23 claims with an expected outcome. */
	assert_true(cases >= 14);
	assert_true(claims >= 23);
}

/* Case 10: counters, not "in use"; the holder is named for release. */
static void
test_release_names_holder(void **state)
{
	struct kube_snapshot	*s;
	struct dra_why		*w;

	(void)state;
	s = dratest_load_case("10-shared-counter-exhaustion");
	w = why_named(s, "default", "second");
	assert_int_equal(w->verdict, DRA_WHY_AFTER_RELEASE);
	assert_int_equal(w->nrelease, 1);
	assert_string_equal(w->release[0], "default/first");
	assert_true(w->nreasons >= 1);
	assert_string_equal(w->reasons[0].code, "counters");
	assert_string_equal(w->reasons[0].node, "node-a");
	dra_why_free(w);
	kube_snapshot_free(s);
}

/* A claim asking for more devices than any node has: never. */
static const char nine[] =
"apiVersion: resource.k8s.io/v1\n"
"kind: DeviceClass\n"
"metadata: {name: gpu.example.com}\n"
"spec:\n"
"  selectors:\n"
"  - cel: {expression: \"device.driver == 'gpu.example.com'\"}\n"
"---\n"
"apiVersion: resource.k8s.io/v1\n"
"kind: ResourceSlice\n"
"metadata: {name: node-a-gpus}\n"
"spec:\n"
"  driver: gpu.example.com\n"
"  nodeName: node-a\n"
"  pool: {name: node-a, generation: 1, resourceSliceCount: 1}\n"
"  devices:\n"
"  - {name: gpu-0}\n"
"  - {name: gpu-1}\n"
"---\n"
"apiVersion: resource.k8s.io/v1\n"
"kind: ResourceClaim\n"
"metadata: {name: three, namespace: default}\n"
"spec:\n"
"  devices:\n"
"    requests:\n"
"    - name: gpus\n"
"      exactly: {deviceClassName: gpu.example.com, count: 3}\n";

static void
test_never_and_json(void **state)
{
	struct kube_snapshot	*s;
	struct dra_why		*w;
	cJSON			*doc, *r;

	(void)state;
	s = dratest_load(nine);
	w = why_named(s, "default", "three");
	assert_int_equal(w->verdict, DRA_WHY_NEVER);
	assert_int_equal(w->allocatable, 0);
	assert_int_equal(w->nnodes, 1);
	assert_string_equal(w->summary, "never: the claim asks for more "
	    "devices than any node has");
	assert_int_equal(w->nreasons, 2);
	assert_null(w->reasons[1].node);
	assert_string_equal(w->reasons[1].code, "exceeds-node");
	assert_string_equal(w->reasons[0].request, "gpus");
	assert_string_equal(w->reasons[0].code, "count");
	assert_non_null(strstr(w->reasons[0].message,
	    "node node-a has only 2 matching devices"));
	doc = dra_why_json("claim/default/three", "default/three", w);
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(doc, "allocatable")));
	assert_string_equal(cJSON_GetObjectItem(doc, "verdict")->valuestring,
	    "never");
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(doc,
	    "devices")), 0);
	r = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "reasons"), 0);
	assert_string_equal(cJSON_GetObjectItem(r, "node")->valuestring,
	    "node-a");
	assert_string_equal(cJSON_GetObjectItem(r, "request")->valuestring,
	    "gpus");
	cJSON_Delete(doc);
	dra_why_free(w);
	kube_snapshot_free(s);
}

/* A pending claim being deleted: the scheduler will not allocate it. */
static void
test_deleted_claim(void **state)
{
	static const char doc[] =
	    "apiVersion: resource.k8s.io/v1\n"
	    "kind: ResourceSlice\n"
	    "metadata: {name: s}\n"
	    "spec:\n"
	    "  driver: gpu.example.com\n"
	    "  nodeName: node-a\n"
	    "  pool: {name: node-a, generation: 1, resourceSliceCount: 1}\n"
	    "  devices: [{name: gpu-0}]\n"
	    "---\n"
	    "apiVersion: resource.k8s.io/v1\n"
	    "kind: DeviceClass\n"
	    "metadata: {name: gpu.example.com}\n"
	    "---\n"
	    "apiVersion: resource.k8s.io/v1\n"
	    "kind: ResourceClaim\n"
	    "metadata: {name: gone, namespace: default, deletionTimestamp: "
	    "\"2025-11-30T00:00:00Z\", finalizers: [x]}\n"
	    "spec:\n"
	    "  devices:\n"
	    "    requests:\n"
	    "    - {name: gpu, exactly: {deviceClassName: gpu.example.com}}\n";
	struct kube_snapshot	*s;
	struct dra_why		*w;

	(void)state;
	s = dratest_load(doc);
	w = why_named(s, "default", "gone");
	assert_int_equal(w->allocatable, 0);
	assert_int_equal(w->nreasons, 1);
	assert_string_equal(w->reasons[0].code, "claim-deleted");
	assert_null(w->reasons[0].node);
	dra_why_free(w);
	kube_snapshot_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_case),
		cmocka_unit_test(test_release_names_holder),
		cmocka_unit_test(test_never_and_json),
		cmocka_unit_test(test_deleted_claim),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
