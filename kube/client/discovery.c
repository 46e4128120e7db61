/*
 * discovery.c: which resource.k8s.io version to read, and /version.
 *
 * Legacy (unaggregated) discovery is enough here: GET
 * /apis/resource.k8s.io is an APIGroup listing the served versions,
 * GET /apis/resource.k8s.io/<version> an APIResourceList.  Both are
 * readable by every user through the system:discovery role.  The
 * preference order (v1, v1beta2, v1beta1) is the newest API this tool
 * reads first, as kubectl prefers a group's preferredVersion; a server
 * that serves only v1alpha3 (Kubernetes 1.31-1.32) is not supported.
 *
 * DeviceTaintRules are read from the chosen version when it serves
 * them, else from the newest version that does (v1 in 1.37, v1beta2 in
 * 1.36, v1alpha3 before; v1beta1 never had the kind), so that
 * --dra-api-version v1beta1 still sees the rules a 1.37 server holds:
 * the APIResourceList of each candidate the group document lists is
 * read until one names devicetaintrules.
 */
#include "client-int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "buf.h"
#include "err.h"

#define DRA_GROUP	"resource.k8s.io"
#define UNSERVED	"the server does not serve resource.k8s.io " \
			"(Kubernetes 1.34+ serves resource.k8s.io/v1)"

static int	get_json(struct kube_client *, const char *, cJSON **,
		    struct dra_err *);
static int	has_taint_rules(struct kube_client *, const char *, int *,
		    struct dra_err *);
static int	group_serves(const cJSON *, const char *);

/* GET path and parse it; KUBE_E_PARSE names the path and byte. */
static int
get_json(struct kube_client *c, const char *path, cJSON **out,
    struct dra_err *err)
{
	struct dra_buf	 b;
	const char	*end = NULL;
	int		 rc;

	*out = NULL;
	dra_buf_init(&b, DRA_BUF_MAX_PAGE);
	rc = kube_client_get(c, path, &b, err);
	if (rc == KUBE_OK) {
		*out = cJSON_ParseWithLengthOpts(dra_buf_str(&b), b.len, &end,
		    0);
		if (*out == NULL || !cJSON_IsObject(*out)) {
			rc = dra_err_set(err, KUBE_E_PARSE, "malformed json in "
			    "response to GET %s at byte %ld", path,
			    *out == NULL && end != NULL && b.ptr != NULL ?
			    (long)(end - b.ptr) : 0L);
			cJSON_Delete(*out);
			*out = NULL;
		}
	}
	dra_buf_release(&b);
	return rc;
}

/*
 * Whether group version gv ("resource.k8s.io/v1") lists
 * devicetaintrules, into *yes.  A 404 (the version went away between
 * the two requests) is a no.
 */
static int
has_taint_rules(struct kube_client *c, const char *gv, int *yes,
    struct dra_err *err)
{
	cJSON		*list = NULL;
	const cJSON	*r, *name;
	char		 path[64];
	int		 rc;

	*yes = 0;
	snprintf(path, sizeof path, "/apis/%s", gv);
	rc = get_json(c, path, &list, err);
	if (rc == KUBE_E_NOT_FOUND) {
		dra_err_clear(err);
		return KUBE_OK;
	}
	if (rc != KUBE_OK)
		return rc;
	cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(list,
	    "resources")) {
		name = cJSON_GetObjectItemCaseSensitive(r, "name");
		if (cJSON_IsString(name) &&
		    strcmp(name->valuestring, "devicetaintrules") == 0)
			*yes = 1;
	}
	cJSON_Delete(list);
	return KUBE_OK;
}

/* Whether the APIGroup document's versions array names version. */
static int
group_serves(const cJSON *versions, const char *version)
{
	const cJSON	*v, *ver;

	cJSON_ArrayForEach(v, versions) {
		ver = cJSON_GetObjectItemCaseSensitive(v, "version");
		if (cJSON_IsString(ver) &&
		    strcmp(ver->valuestring, version) == 0)
			return 1;
	}
	return 0;
}

/* The versions this tool reads, newest first. */
static const struct {
	const char	*name;
	int		 bit;
} known[] = {
	{ "v1", KUBE_DRA_V1 },
	{ "v1beta2", KUBE_DRA_V1BETA2 },
	{ "v1beta1", KUBE_DRA_V1BETA1 },
};

char *
kube_dra_served_text(int served, char *buf, size_t len)
{
	size_t	i, at = 0;
	int	n;

	if (len == 0)
		return buf;
	buf[0] = '\0';
	for (i = 0; i < sizeof known / sizeof known[0]; i++) {
		if (!(served & known[i].bit))
			continue;
		n = snprintf(buf + at, len - at, "%s%s", at > 0 ? "," : "",
		    known[i].name);
		if (n < 0 || (size_t)n >= len - at) {
			buf[at] = '\0';	/* no part of a name */
			break;
		}
		at += (size_t)n;
	}
	return buf;
}

int
kube_discover_dra(struct kube_client *c, const char *want,
    struct kube_dra_info *info, struct dra_err *err)
{
	/* Where DeviceTaintRule may be served, newest first. */
	static const char *const taint_versions[] = { "v1", "v1beta2",
	    "v1alpha3" };
	cJSON		*group = NULL;
	const cJSON	*versions, *v, *ver;
	char		 gv[48];
	size_t		 i;
	int		 rc, yes;

	memset(info, 0, sizeof *info);
	if (want != NULL) {
		for (i = 0; i < sizeof known / sizeof known[0]; i++)
			if (strcmp(want, known[i].name) == 0)
				break;
		if (i == sizeof known / sizeof known[0])
			return dra_err_set(err, KUBE_E_CONFIG, "unknown "
			    DRA_GROUP " version \"%s\": expected v1, v1beta2 "
			    "or v1beta1", want);
	}
	rc = get_json(c, "/apis/" DRA_GROUP, &group, err);
	if (rc == KUBE_E_NOT_FOUND) {
		rc = dra_err_set(err, KUBE_E_UNSUPPORTED, UNSERVED);
		goto out;
	}
	if (rc != KUBE_OK)
		goto out;
	versions = cJSON_GetObjectItemCaseSensitive(group, "versions");
	if (!cJSON_IsArray(versions)) {
		rc = dra_err_set(err, KUBE_E_PARSE, "response to GET /apis/"
		    DRA_GROUP " has no versions array");
		goto out;
	}
	cJSON_ArrayForEach(v, versions) {
		ver = cJSON_GetObjectItemCaseSensitive(v, "version");
		if (!cJSON_IsString(ver))
			continue;
		for (i = 0; i < sizeof known / sizeof known[0]; i++)
			if (strcmp(ver->valuestring, known[i].name) == 0)
				info->served |= known[i].bit;
	}
	for (i = 0; i < sizeof known / sizeof known[0]; i++) {
		if (want != NULL && strcmp(want, known[i].name) != 0)
			continue;
		if (info->served & known[i].bit)
			break;
	}
	if (i == sizeof known / sizeof known[0] && want != NULL &&
	    info->served != 0) {
		rc = dra_err_set(err, KUBE_E_UNSUPPORTED, "the server does "
		    "not serve " DRA_GROUP "/%s; it serves%s%s%s", want,
		    info->served & KUBE_DRA_V1 ? " v1" : "",
		    info->served & KUBE_DRA_V1BETA2 ? " v1beta2" : "",
		    info->served & KUBE_DRA_V1BETA1 ? " v1beta1" : "");
		goto out;
	}
	if (i == sizeof known / sizeof known[0]) {
		rc = dra_err_set(err, KUBE_E_UNSUPPORTED, UNSERVED
		    "; it serves only versions this tool cannot read");
		goto out;
	}
	info->chosen = known[i].bit;
	snprintf(info->version, sizeof info->version, "%s", known[i].name);
	snprintf(info->group_version, sizeof info->group_version, "%s/%s",
	    DRA_GROUP, known[i].name);

	/* DeviceTaintRules: the chosen version, else the newest. */
	if ((rc = has_taint_rules(c, info->group_version, &yes, err)) !=
	    KUBE_OK)
		goto out;
	if (yes)
		snprintf(info->taint_rules_group_version,
		    sizeof info->taint_rules_group_version, "%s",
		    info->group_version);
	for (i = 0; !yes && i < sizeof taint_versions /
	    sizeof taint_versions[0]; i++) {
		if (strcmp(taint_versions[i], info->version) == 0 ||
		    !group_serves(versions, taint_versions[i]))
			continue;
		snprintf(gv, sizeof gv, DRA_GROUP "/%s", taint_versions[i]);
		if ((rc = has_taint_rules(c, gv, &yes, err)) != KUBE_OK)
			goto out;
		if (yes)
			snprintf(info->taint_rules_group_version,
			    sizeof info->taint_rules_group_version, "%s", gv);
	}
	info->device_taint_rules = yes;
out:
	cJSON_Delete(group);
	return rc;
}

int
kube_server_version(struct kube_client *c, int *major, int *minor,
    char *git_version, size_t git_version_len, struct dra_err *err)
{
	cJSON		*root = NULL;
	const cJSON	*ma, *mi, *gv;
	int		 rc;

	*major = *minor = 0;
	if (git_version != NULL && git_version_len > 0)
		git_version[0] = '\0';
	if ((rc = get_json(c, "/version", &root, err)) != KUBE_OK)
		goto out;
	ma = cJSON_GetObjectItemCaseSensitive(root, "major");
	mi = cJSON_GetObjectItemCaseSensitive(root, "minor");
	gv = cJSON_GetObjectItemCaseSensitive(root, "gitVersion");
	if (!cJSON_IsString(ma) || !cJSON_IsString(mi) ||
	    ma->valuestring[0] < '0' || ma->valuestring[0] > '9' ||
	    mi->valuestring[0] < '0' || mi->valuestring[0] > '9') {
		rc = dra_err_set(err, KUBE_E_PARSE, "response to GET /version "
		    "has no numeric major and minor");
		goto out;
	}
	*major = (int)strtol(ma->valuestring, NULL, 10);
	*minor = (int)strtol(mi->valuestring, NULL, 10);
	if (git_version != NULL && git_version_len > 0 && cJSON_IsString(gv))
		snprintf(git_version, git_version_len, "%s", gv->valuestring);
out:
	cJSON_Delete(root);
	return rc;
}
