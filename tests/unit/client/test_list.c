/*
 * test_list.c: paginated lists (limit/continue, 410 Expired restarts,
 * malformed pages), resource.k8s.io discovery and /version, against
 * the canned-response server.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "client-int.h"
#include "client.h"
#include "stub_server.h"
#include "tutil.h"
#include "xmalloc.h"

#define EXPIRED	"{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":" \
		"\"Failure\",\"message\":\"The provided continue " \
		"parameter is " \
		"too old to display a consistent list result.\",\"reason\":" \
		"\"Expired\",\"code\":410}"

struct lenv {
	struct stub_server	*s;
	char			*dir;
	struct kube_client	*c;
	struct dra_err		 err;
	/* what the callbacks saw */
	struct dra_buf		 seen;	/* "name@apiVersion " per item */
	int			 resets;
	/* fail on this item (1-based) */
	int			 stop_after;
	int			 items;
};

static void
lenv_open(struct lenv *l, int chunk)
{
	struct kube_client_opts	 o;
	char			*yaml, *path;

	memset(l, 0, sizeof *l);
	l->s = stub_start();
	l->dir = tu_tmpdir();
	tu_env_reset(l->dir);
	yaml = xasprintf("current-context: t\n"
	    "clusters: [{name: t, cluster: {server: \"%s\"}}]\n"
	    "contexts: [{name: t, context: {cluster: t}}]\n", stub_url(l->s));
	path = tu_write(l->dir, "config", yaml, 0600);
	free(yaml);
	memset(&o, 0, sizeof o);
	o.kubeconfig = path;
	o.chunk_size = chunk;
	o.incluster_dir = l->dir;
	l->c = kube_client_new(&o, &l->err);
	free(path);
	if (l->c == NULL)
		fail_msg("kube_client_new: %s", l->err.msg);
	dra_buf_init(&l->seen, 1 << 20);
}

static void
lenv_close(struct lenv *l)
{
	assert_int_equal(stub_pending(l->s), 0);
	kube_client_free(l->c);
	stub_stop(l->s);
	dra_buf_release(&l->seen);
	tu_rmrf(l->dir);
	free(l->dir);
}

static int
on_item(void *arg, const struct cJSON *item, const char *api_version,
    struct dra_err *err)
{
	struct lenv	*l = arg;
	const cJSON	*meta, *name;

	meta = cJSON_GetObjectItemCaseSensitive(item, "metadata");
	name = cJSON_GetObjectItemCaseSensitive(meta, "name");
	l->items++;
	dra_buf_addf(&l->seen, "%s@%s ", cJSON_IsString(name) ?
	    name->valuestring : "?", api_version);
	if (l->stop_after != 0 && l->items == l->stop_after)
		return dra_err_set(err, KUBE_E_PARSE, "item %d is bad",
		    l->items);
	return KUBE_OK;
}

static void
on_reset(void *arg)
{
	struct lenv	*l = arg;

	l->resets++;
	dra_buf_adds(&l->seen, "| ");
}

/* A page of n items named prefix0.. with an optional continue token. */
static char *
page(const char *prefix, int n, const char *cont, const char *rv)
{
	struct dra_buf	b;
	int		i;

	dra_buf_init(&b, 1 << 20);
	dra_buf_addf(&b, "{\"kind\":\"ResourceSliceList\",\"apiVersion\":"
	    "\"resource.k8s.io/v1\",\"metadata\":{\"resourceVersion\":\"%s\"",
	    rv);
	if (cont != NULL)
		dra_buf_addf(&b, ",\"continue\":\"%s\","
		    "\"remainingItemCount\":3", cont);
	dra_buf_adds(&b, "},\"items\":[");
	for (i = 0; i < n; i++)
		dra_buf_addf(&b, "%s{\"metadata\":{\"name\":\"%s%d\"}}",
		    i ? "," : "", prefix, i);
	dra_buf_adds(&b, "]}");
	return dra_buf_take(&b);
}

static void
reply_page(struct lenv *l, const char *prefix, int n, const char *cont,
    const char *rv)
{
	char	*p = page(prefix, n, cont, rv);

	stub_reply_json(l->s, 200, p);
	free(p);
}

static void
test_pages(void **state)
{
	struct lenv	 l;
	char		*rv;

	(void)state;
	lenv_open(&l, 2);
	reply_page(&l, "a", 2, "tok/1+=", "100");
	reply_page(&l, "b", 2, "tok2", "100");
	reply_page(&l, "c", 1, NULL, "100");
	assert_int_equal(kube_client_list(l.c,
	    "/apis/resource.k8s.io/v1/resourceslices",
	    "fieldSelector=spec.nodeName%3Dn1", on_item, on_reset, &l, &rv,
	    &l.err), KUBE_OK);
	assert_string_equal(dra_buf_str(&l.seen),
	    "a0@resource.k8s.io/v1 a1@resource.k8s.io/v1 "
	    "b0@resource.k8s.io/v1 b1@resource.k8s.io/v1 "
	    "c0@resource.k8s.io/v1 ");
	assert_string_equal(rv, "100");
	free(rv);
	assert_int_equal(stub_nrequests(l.s), 3);
	assert_string_equal(stub_request(l.s, 0)->target,
	    "/apis/resource.k8s.io/v1/resourceslices?"
	    "fieldSelector=spec.nodeName%3Dn1&limit=2");
	assert_string_equal(stub_request(l.s, 1)->target,
	    "/apis/resource.k8s.io/v1/resourceslices?"
	    "fieldSelector=spec.nodeName%3Dn1&limit=2&continue=tok%2F1%2B%3D");
	assert_string_equal(stub_request(l.s, 2)->target,
	    "/apis/resource.k8s.io/v1/resourceslices?"
	    "fieldSelector=spec.nodeName%3Dn1&limit=2&continue=tok2");
	assert_int_equal(l.resets, 0);
	lenv_close(&l);

	/* default page size, no query, empty and null item lists */
	lenv_open(&l, 0);
	stub_reply_json(l.s, 200, "{\"apiVersion\":\"v1\",\"metadata\":"
	    "{\"resourceVersion\":\"7\"},\"items\":[]}");
	stub_reply_json(l.s, 200, "{\"apiVersion\":\"v1\",\"metadata\":{},"
	    "\"items\":null}");
	assert_int_equal(kube_client_list(l.c, "/api/v1/namespaces", NULL,
	    on_item, NULL, &l, &rv, &l.err), KUBE_OK);
	assert_string_equal(rv, "7");
	free(rv);
	assert_int_equal(kube_client_list(l.c, "/api/v1/pods?watch=0", "",
	    on_item, NULL, &l, NULL, &l.err), KUBE_OK);
	assert_string_equal(stub_request(l.s, 0)->target,
	    "/api/v1/namespaces?limit=500");
	assert_string_equal(stub_request(l.s, 1)->target,
	    "/api/v1/pods?watch=0&limit=500");
	assert_int_equal(l.items, 0);
	lenv_close(&l);
}

/* 410 Expired on a continue page: reset, then the whole list again. */
static void
test_expired(void **state)
{
	struct lenv	 l;
	char		*rv;

	(void)state;
	lenv_open(&l, 2);
	reply_page(&l, "a", 2, "t1", "100");
	stub_reply_json(l.s, 410, EXPIRED);
	reply_page(&l, "x", 2, "t2", "200");
	reply_page(&l, "y", 1, NULL, "200");
	assert_int_equal(kube_client_list(l.c, "/apis/resource.k8s.io/v1/"
	    "resourceclaims", NULL, on_item, on_reset, &l, &rv, &l.err),
	    KUBE_OK);
	assert_int_equal(l.resets, 1);
	assert_string_equal(dra_buf_str(&l.seen),
	    "a0@resource.k8s.io/v1 a1@resource.k8s.io/v1 | "
	    "x0@resource.k8s.io/v1 x1@resource.k8s.io/v1 "
	    "y0@resource.k8s.io/v1 ");
	assert_string_equal(rv, "200");
	free(rv);
	assert_int_equal(stub_nrequests(l.s), 4);
	assert_string_equal(stub_request(l.s, 2)->target,
	    "/apis/resource.k8s.io/v1/resourceclaims?limit=2");
	lenv_close(&l);

	/* expired twice: only one restart */
	lenv_open(&l, 2);
	reply_page(&l, "a", 2, "t1", "100");
	stub_reply_json(l.s, 410, EXPIRED);
	reply_page(&l, "x", 2, "t2", "200");
	stub_reply_json(l.s, 410, EXPIRED);
	rv = (char *)"untouched";
	assert_int_equal(kube_client_list(l.c, "/r", NULL, on_item, on_reset,
	    &l, &rv, &l.err), KUBE_E_GONE);
	assert_null(rv);
	assert_int_equal(l.resets, 1);
	assert_string_equal(l.err.reason, "Expired");
	assert_int_equal(l.err.http_status, 410);
	assert_string_equal(l.err.msg, "The provided continue parameter is "
	    "too old to display a consistent list result.");
	lenv_close(&l);

	/* without a reset callback the 410 is the caller's */
	lenv_open(&l, 2);
	reply_page(&l, "a", 2, "t1", "100");
	stub_reply_json(l.s, 410, EXPIRED);
	assert_int_equal(kube_client_list(l.c, "/r", NULL, on_item, NULL, &l,
	    NULL, &l.err), KUBE_E_GONE);
	assert_int_equal(stub_nrequests(l.s), 2);
	lenv_close(&l);

	/* a 410 on the first page is not a restart either */
	lenv_open(&l, 2);
	stub_reply_json(l.s, 410, EXPIRED);
	assert_int_equal(kube_client_list(l.c, "/r", NULL, on_item, on_reset,
	    &l, NULL, &l.err), KUBE_E_GONE);
	assert_int_equal(l.resets, 0);
	lenv_close(&l);
}

/* Malformed pages, non-lists, callback errors. */
static void
test_list_errors(void **state)
{
	struct lenv	l;

	(void)state;
	lenv_open(&l, 2);
	reply_page(&l, "a", 2, "t1", "1");
	stub_reply_json(l.s, 200, "{\"items\":[{\"metadata\":{}}, oops]}");
	assert_int_equal(kube_client_list(l.c, "/r", NULL, on_item, on_reset,
	    &l, NULL, &l.err), KUBE_E_PARSE);
	assert_string_equal(l.err.msg, "malformed json in response to GET "
	    "/r?limit=2&continue=t1 at byte 27");
	assert_int_equal(l.items, 2);
	lenv_close(&l);

	lenv_open(&l, 2);
	stub_reply_json(l.s, 200, "{\"kind\":\"Pod\",\"metadata\":{}}");
	assert_int_equal(kube_client_list(l.c, "/r", NULL, on_item, on_reset,
	    &l, NULL, &l.err), KUBE_E_PARSE);
	assert_string_equal(l.err.msg, "response to GET /r?limit=2 is not a "
	    "list (no items array)");
	lenv_close(&l);

	/* the callback stops the list; no further page is fetched */
	lenv_open(&l, 2);
	l.stop_after = 2;
	reply_page(&l, "a", 2, "t1", "1");
	assert_int_equal(kube_client_list(l.c, "/r", NULL, on_item, on_reset,
	    &l, NULL, &l.err), KUBE_E_PARSE);
	assert_string_equal(l.err.msg, "item 2 is bad");
	assert_int_equal(stub_nrequests(l.s), 1);
	lenv_close(&l);

	/* a server that hands back the same continue token is stopped */
	lenv_open(&l, 2);
	reply_page(&l, "a", 2, "same", "1");
	reply_page(&l, "b", 2, "same", "1");
	assert_int_equal(kube_client_list(l.c, "/r", NULL, on_item, on_reset,
	    &l, NULL, &l.err), KUBE_E_API);
	assert_string_equal(l.err.msg, "list /r: the server returned the "
	    "same continue token twice");
	assert_int_equal(stub_nrequests(l.s), 2);
	lenv_close(&l);

	/* forbidden lists report the Status */
	lenv_open(&l, 2);
	stub_reply_json(l.s, 403, "{\"kind\":\"Status\",\"message\":"
	    "\"resourceslices.resource.k8s.io is forbidden: User \\\"x\\\" "
	    "cannot list resource\",\"reason\":\"Forbidden\",\"code\":403}");
	assert_int_equal(kube_client_list(l.c, "/r", NULL, on_item, on_reset,
	    &l, NULL, &l.err), KUBE_E_FORBIDDEN);
	assert_string_equal(l.err.msg, "resourceslices.resource.k8s.io is "
	    "forbidden: User \"x\" cannot list resource");
	lenv_close(&l);
}

static const char *
group_doc(const char *versions)
{
	static char	buf[1024];

	snprintf(buf, sizeof buf, "{\"kind\":\"APIGroup\",\"apiVersion\":"
	    "\"v1\",\"name\":\"resource.k8s.io\",\"versions\":[%s]}",
	    versions);
	return buf;
}

#define NF	"404"		/* a "more" reply that is a 404 */

static void
test_discovery(void **state)
{
	static const struct {
		const char	*name;
		const char	*want;		/* --dra-api-version */
		const char	*versions;	/* NULL: 404 */
		const char	*resources;	/* of the chosen version */
		int		 rc;
		int		 served;
		const char	*version;
		int		 taints;
		const char	*msg;
		/*
		 * DeviceTaintRules elsewhere: the versions asked next, in
		 * order, with their resources (NF: a 404), and the group
		 * version the rules are then read from ("" none).
		 */
		const char	*more_version[2];
		const char	*more[2];
		const char	*taint_gv;
	} t[] = {
		{ "1.34+: v1 preferred", NULL, "{\"groupVersion\":\"resource.k8s.io/"
		    "v1\",\"version\":\"v1\"},{\"groupVersion\":\"resource.k8s."
		    "io/v1beta2\",\"version\":\"v1beta2\"},{\"groupVersion\":"
		    "\"resource.k8s.io/v1beta1\",\"version\":\"v1beta1\"}",
		    "{\"name\":\"resourceslices\"},{\"name\":"
		    "\"devicetaintrules\"},{\"name\":\"devicetaintrules/"
		    "status\"}", KUBE_OK, KUBE_DRA_V1 | KUBE_DRA_V1BETA2 |
		    KUBE_DRA_V1BETA1, "v1", 1, NULL, { NULL, NULL },
		    { NULL, NULL }, "resource.k8s.io/v1" },
		{ "1.33: v1beta2, rules in v1alpha3", NULL, "{\"version\":"
		    "\"v1beta2\"},{\"version\":\"v1beta1\"},{\"version\":"
		    "\"v1alpha3\"}", "{\"name\":\"resourceclaims\"}", KUBE_OK,
		    KUBE_DRA_V1BETA2 | KUBE_DRA_V1BETA1, "v1beta2", 1, NULL,
		    { "v1alpha3", NULL }, { "{\"name\":\"devicetaintrules\"}",
		    NULL }, "resource.k8s.io/v1alpha3" },
		{ "1.32: v1beta1", NULL, "{\"version\":\"v1beta1\"}", "", KUBE_OK,
		    KUBE_DRA_V1BETA1, "v1beta1", 0, NULL, { NULL, NULL },
		    { NULL, NULL }, "" },
		{ "no group", NULL, NULL, NULL, KUBE_E_UNSUPPORTED, 0, "", 0,
		    "the server does not serve resource.k8s.io (Kubernetes "
		    "1.34+ serves resource.k8s.io/v1)", { NULL, NULL },
		    { NULL, NULL }, "" },
		{ "alpha only", NULL, "{\"version\":\"v1alpha3\"}", NULL,
		    KUBE_E_UNSUPPORTED, 0, "", 0, "the server does not serve "
		    "resource.k8s.io (Kubernetes 1.34+ serves "
		    "resource.k8s.io/v1); it serves only versions this tool "
		    "cannot read", { NULL, NULL }, { NULL, NULL }, "" },
		{ "broken", NULL, "oops", NULL, KUBE_E_PARSE, 0, "", 0,
		    "malformed json in response to GET /apis/resource.k8s.io "
		    "at byte 74", { NULL, NULL }, { NULL, NULL }, "" },
		{ "1.37, want v1beta1: rules from v1", "v1beta1",
		    "{\"version\":\"v1\"},{\"version\":\"v1beta2\"},"
		    "{\"version\":\"v1beta1\"}", "{\"name\":\"resourceslices\"}",
		    KUBE_OK, KUBE_DRA_V1 | KUBE_DRA_V1BETA2 | KUBE_DRA_V1BETA1,
		    "v1beta1", 1, NULL, { "v1", NULL },
		    { "{\"name\":\"resourceslices\"},{\"name\":"
		    "\"devicetaintrules\"}", NULL }, "resource.k8s.io/v1" },
		{ "1.36: v1 without, v1beta2 with", NULL,
		    "{\"version\":\"v1\"},{\"version\":\"v1beta2\"},"
		    "{\"version\":\"v1beta1\"}", "{\"name\":\"resourceslices\"}",
		    KUBE_OK, KUBE_DRA_V1 | KUBE_DRA_V1BETA2 | KUBE_DRA_V1BETA1,
		    "v1", 1, NULL, { "v1beta2", NULL },
		    { "{\"name\":\"devicetaintrules/status\"},{\"name\":"
		    "\"devicetaintrules\"}", NULL }, "resource.k8s.io/v1beta2" },
		{ "1.35: none (v1beta1 never asked)", NULL,
		    "{\"version\":\"v1\"},{\"version\":\"v1beta2\"},"
		    "{\"version\":\"v1beta1\"}", "{\"name\":\"resourceslices\"}",
		    KUBE_OK, KUBE_DRA_V1 | KUBE_DRA_V1BETA2 | KUBE_DRA_V1BETA1,
		    "v1", 0, NULL, { "v1beta2", NULL },
		    { "{\"name\":\"resourceclaims\"}", NULL }, "" },
		{ "want v1beta1: v1 gone (404), v1beta2 has them", "v1beta1",
		    "{\"version\":\"v1\"},{\"version\":\"v1beta2\"},"
		    "{\"version\":\"v1beta1\"}", "", KUBE_OK, KUBE_DRA_V1 |
		    KUBE_DRA_V1BETA2 | KUBE_DRA_V1BETA1, "v1beta1", 1, NULL,
		    { "v1", "v1beta2" }, { NF, "{\"name\":"
		    "\"devicetaintrules\"}" }, "resource.k8s.io/v1beta2" },
		{ "want v1beta1 of three", "v1beta1", "{\"version\":\"v1\"},"
		    "{\"version\":\"v1beta2\"},{\"version\":\"v1beta1\"}",
		    "{\"name\":\"resourceslices\"}", KUBE_OK, KUBE_DRA_V1 |
		    KUBE_DRA_V1BETA2 | KUBE_DRA_V1BETA1, "v1beta1", 0, NULL,
		    { "v1", "v1beta2" }, { "", "" }, "" },
		{ "want v1beta2, not served", "v1beta2", "{\"version\":"
		    "\"v1\"}", NULL, KUBE_E_UNSUPPORTED, KUBE_DRA_V1, "", 0,
		    "the server does not serve resource.k8s.io/v1beta2; it "
		    "serves v1", { NULL, NULL }, { NULL, NULL }, "" },
	};
	struct lenv		 l;
	struct kube_dra_info	 info;
	char			*doc, *want;
	size_t			 i, j, nreq;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		lenv_open(&l, 0);
		nreq = 1;
		if (t[i].versions == NULL)
			stub_reply_json(l.s, 404, "{\"kind\":\"Status\","
			    "\"message\":\"the server could not find the "
			    "requested resource\",\"reason\":\"NotFound\","
			    "\"code\":404}");
		else
			stub_reply_json(l.s, 200, group_doc(t[i].versions));
		if (t[i].resources != NULL) {
			doc = xasprintf("{\"kind\":\"APIResourceList\","
			    "\"groupVersion\":\"resource.k8s.io/%s\","
			    "\"resources\":[%s]}", t[i].version,
			    t[i].resources);
			stub_reply_json(l.s, 200, doc);
			free(doc);
			nreq++;
		}
		for (j = 0; j < 2 && t[i].more[j] != NULL; j++, nreq++) {
			if (strcmp(t[i].more[j], NF) == 0) {
				stub_reply_json(l.s, 404, "{\"kind\":"
				    "\"Status\",\"reason\":\"NotFound\","
				    "\"code\":404}");
				continue;
			}
			doc = xasprintf("{\"kind\":\"APIResourceList\","
			    "\"groupVersion\":\"resource.k8s.io/%s\","
			    "\"resources\":[%s]}", t[i].more_version[j],
			    t[i].more[j]);
			stub_reply_json(l.s, 200, doc);
			free(doc);
		}
		if (kube_discover_dra(l.c, t[i].want, &info, &l.err) != t[i].rc)
			fail_msg("%s: rc %d: %s", t[i].name, l.err.code,
			    l.err.msg);
		assert_int_equal(info.served, t[i].served);
		assert_string_equal(info.version, t[i].version);
		if (info.device_taint_rules != t[i].taints ||
		    strcmp(info.taint_rules_group_version,
		    t[i].taint_gv) != 0)
			fail_msg("%s: taint rules %d in \"%s\"", t[i].name,
			    info.device_taint_rules,
			    info.taint_rules_group_version);
		/* Exactly the requests the case answers, in order. */
		if (stub_nrequests(l.s) != nreq)
			fail_msg("%s: %zu requests, want %zu", t[i].name,
			    stub_nrequests(l.s), nreq);
		if (t[i].rc == KUBE_OK) {
			want = xasprintf("resource.k8s.io/%s", t[i].version);
			assert_string_equal(info.group_version, want);
			free(want);
			want = xasprintf("/apis/resource.k8s.io/%s",
			    t[i].version);
			assert_string_equal(stub_request(l.s, 1)->target,
			    want);
			free(want);
			for (j = 0; j < 2 && t[i].more[j] != NULL; j++) {
				want = xasprintf("/apis/resource.k8s.io/%s",
				    t[i].more_version[j]);
				assert_string_equal(stub_request(l.s,
				    2 + j)->target, want);
				free(want);
			}
		} else
			assert_string_equal(l.err.msg, t[i].msg);
		assert_string_equal(stub_request(l.s, 0)->target,
		    "/apis/resource.k8s.io");
		lenv_close(&l);
	}
}

static void
test_version(void **state)
{
	struct lenv	l;
	int		major, minor;
	char		git[8];

	(void)state;
	lenv_open(&l, 0);
	stub_reply_json(l.s, 200, "{\"major\":\"1\",\"minor\":\"37+\","
	    "\"gitVersion\":\"v1.37.2-gke.100\",\"platform\":\"linux/amd64\"}");
	stub_reply_json(l.s, 200, "{\"major\":\"\",\"minor\":\"\"}");
	assert_int_equal(kube_server_version(l.c, &major, &minor, git,
	    sizeof git, &l.err), KUBE_OK);
	assert_int_equal(major, 1);
	assert_int_equal(minor, 37);
	assert_string_equal(git, "v1.37.2");	/* truncated to the buffer */
	assert_string_equal(stub_request(l.s, 0)->target, "/version");
	assert_int_equal(kube_server_version(l.c, &major, &minor, NULL, 0,
	    &l.err), KUBE_E_PARSE);
	assert_string_equal(l.err.msg, "response to GET /version has no "
	    "numeric major and minor");
	lenv_close(&l);
}

static void
test_query_escape(void **state)
{
	char	*s;

	(void)state;
	s = kube_query_escape("spec.nodeName=n1,spec.driver=gpu.nvidia.com "
	    "a/b+c~_-");
	assert_string_equal(s, "spec.nodeName%3Dn1%2Cspec.driver%3Dgpu.nvidia"
	    ".com%20a%2Fb%2Bc~_-");
	free(s);
	s = kube_query_escape("");
	assert_string_equal(s, "");
	free(s);
}

/* The served versions as `version` and doctor print them. */
static void
test_served_text(void **state)
{
	char	buf[64], small[9];

	(void)state;
	assert_string_equal(kube_dra_served_text(KUBE_DRA_V1 |
	    KUBE_DRA_V1BETA2 | KUBE_DRA_V1BETA1, buf, sizeof buf),
	    "v1,v1beta2,v1beta1");
	assert_string_equal(kube_dra_served_text(KUBE_DRA_V1 |
	    KUBE_DRA_V1BETA1, buf, sizeof buf), "v1,v1beta1");
	assert_string_equal(kube_dra_served_text(KUBE_DRA_V1BETA2, buf,
	    sizeof buf), "v1beta2");
	assert_string_equal(kube_dra_served_text(0, buf, sizeof buf), "");
	/* Cut at a whole name. */
	assert_string_equal(kube_dra_served_text(KUBE_DRA_V1 |
	    KUBE_DRA_V1BETA2, small, sizeof small), "v1");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pages),
		cmocka_unit_test(test_expired),
		cmocka_unit_test(test_list_errors),
		cmocka_unit_test(test_discovery),
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_query_escape),
		cmocka_unit_test(test_served_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
