/*
 * apply.c: the model of `kubectl dra apply` (apply.h).
 *
 * A plan is turned into a list of objects, one kind after another in
 * the order they depend on each other (a PriorityClass and a
 * DeviceClass before the quotas that name them; the mig-parted
 * ConfigMap before the node labels that select its configurations),
 * each with its REST path and server-side apply body.  Nothing is
 * taken from the document unchecked: kinds, API versions and names are
 * validated here, because they become URL paths.
 *
 * The staleness check reads the cluster's GPUs the way `plan` does
 * (plan_inventory_from_snapshot()) and compares them with the plan's
 * layout read by pv_read().  The backup is plain cJSON (a JSON file);
 * its decoder recomputes every path from kind, namespace and name, so
 * a hand-edited backup cannot send a rollback elsewhere.
 */
#include "apply.h"
#include "buf.h"
#include "plan-int.h"
#include "plan.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "inventory.h"
#include "model.h"
#include "planner.h"
#include "xmalloc.h"
#include "ydoc.h"

/* The kinds apply knows, in apply order. */
static const struct apply_kind {
	enum dra_apply_kind	 kind;
	const char		*name;
	const char		*group;		/* "" for the core group */
	const char		*resource;
	const char		*display;	/* kubectl's type name */
	int			 namespaced;
} apply_kinds[] = {
	{ DRA_APPLY_PRIORITY_CLASS, "PriorityClass", "scheduling.k8s.io",
	    "priorityclasses", "priorityclass.scheduling.k8s.io", 0 },
	{ DRA_APPLY_DEVICE_CLASS, "DeviceClass", "resource.k8s.io",
	    "deviceclasses", "deviceclass.resource.k8s.io", 0 },
	{ DRA_APPLY_CONFIG_MAP, "ConfigMap", "", "configmaps", "configmap",
	    1 },
	{ DRA_APPLY_QUOTA, "ResourceQuota", "", "resourcequotas",
	    "resourcequota", 1 },
	{ DRA_APPLY_NODE, "Node", "", "nodes", "node", 0 },
};
#define NKINDS	(sizeof apply_kinds / sizeof apply_kinds[0])

/* Metadata the server manages: never sent, never compared. */
static const char *const server_meta[] = {
	"managedFields", "resourceVersion", "uid", "creationTimestamp",
	"generation", "selfLink", NULL
};

static int	 fail(struct dra_err *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
static const struct apply_kind *kind_find(const char *);
static int	 version_ok(const struct apply_kind *, const char *);
static int	 dns_name(const char *, int);
static char	*object_path(const struct apply_kind *, const char *,
		    const char *, const char *);
static char	*object_display(const struct apply_kind *, const char *);
static const char *str_of(const cJSON *, const char *);
static const char *meta_str(const cJSON *, const char *);
static void	 strip_meta(cJSON *, int);
static void	 item_init(struct dra_apply_item *, const struct apply_kind *,
		    const char *, const char *, const char *, const char *);
static int	 item_manifest(const cJSON *, size_t, struct dra_apply_item *,
		    struct dra_err *);
static int	 item_node(const cJSON *, size_t, struct dra_apply_item *,
		    struct dra_err *);
static int	 item_cmp(const void *, const void *);
static int	 mig_configs(const struct dra_apply_item *, char ***, size_t *,
		    struct dra_err *);
struct sort_item;
static int	 plan_consistent(const struct pv_doc *,
		    const struct sort_item *, size_t, struct dra_err *);
static void	 list_add(char ***, size_t *, char *);
static int	 str_cmp(const void *, const void *);
static const struct plan_gpu *inv_gpu(const struct plan_inventory *,
		    const char *, const char *);
static int	 class_maps(const cJSON *, const struct kube_snapshot *,
		    const char *, const char *);
static int	 quota_used(const cJSON *, const struct kube_snapshot *,
		    const struct plan_inventory *, const char *, const char *,
		    int64_t *);
static void	 quota_stale(const cJSON *, const struct kube_snapshot *,
		    const struct plan_inventory *, struct dra_apply_stale *);
static size_t	 manager_end(const char *, size_t);
static void	 rollback_action(const struct dra_backup_obj *,
		    const cJSON *, struct dra_rollback_step *);
static void	 who_add(struct dra_buf *, const char *, int *);
static char	*drift_of(const struct dra_backup_obj *, const cJSON *,
		    int *);
static const cJSON *managed_fields(const cJSON *);
static cJSON	*owner_body(const cJSON *, cJSON *);
static cJSON	*label_set(cJSON *, int);
static void	 prune_entry(cJSON *, cJSON *);
static int	 same_str(const char *, const char *);
static cJSON	*entry_find(cJSON *, const cJSON *);

static int
fail(struct dra_err *err, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	dra_err_setv(err, KUBE_E_PARSE, fmt, ap);
	va_end(ap);
	return KUBE_E_PARSE;
}

static const struct apply_kind *
kind_find(const char *name)
{
	size_t	i;

	for (i = 0; i < NKINDS; i++)
		if (strcmp(apply_kinds[i].name, name) == 0)
			return &apply_kinds[i];
	return NULL;
}

/* Whether api_version is one the kind is served in. */
static int
version_ok(const struct apply_kind *k, const char *api_version)
{
	if (k->kind == DRA_APPLY_DEVICE_CLASS)
		return strcmp(api_version, "resource.k8s.io/v1") == 0 ||
		    strcmp(api_version, "resource.k8s.io/v1beta2") == 0 ||
		    strcmp(api_version, "resource.k8s.io/v1beta1") == 0;
	if (k->kind == DRA_APPLY_PRIORITY_CLASS)
		return strcmp(api_version, "scheduling.k8s.io/v1") == 0;
	return strcmp(api_version, "v1") == 0;
}

/*
 * A DNS subdomain (RFC 1123, 253 characters; label: 63 characters, no
 * dots), as Kubernetes' validation names objects.
 */
static int
dns_name(const char *s, int label)
{
	size_t	i, n = strlen(s);

	if (n == 0 || n > (label ? 63 : 253))
		return 0;
	for (i = 0; i < n; i++) {
		if ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' &&
		    s[i] <= '9'))
			continue;
		if (s[i] == '-' && i > 0 && i < n - 1)
			continue;
		if (s[i] == '.' && !label && i > 0 && i < n - 1 &&
		    s[i - 1] != '.' && s[i - 1] != '-' && s[i + 1] != '-')
			continue;
		return 0;
	}
	return 1;
}

static char *
object_path(const struct apply_kind *k, const char *api_version,
    const char *ns, const char *name)
{
	if (strcmp(api_version, "v1") == 0)
		return ns != NULL ? xasprintf("/api/v1/namespaces/%s/%s/%s",
		    ns, k->resource, name) : xasprintf("/api/v1/%s/%s",
		    k->resource, name);
	return ns != NULL ? xasprintf("/apis/%s/namespaces/%s/%s/%s",
	    api_version, ns, k->resource, name) :
	    xasprintf("/apis/%s/%s/%s", api_version, k->resource, name);
}

static char *
object_display(const struct apply_kind *k, const char *name)
{
	return xasprintf("%s/%s", k->display, name);
}

/* The string member key of o, or NULL. */
static const char *
str_of(const cJSON *o, const char *key)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static const char *
meta_str(const cJSON *obj, const char *key)
{
	return str_of(cJSON_GetObjectItemCaseSensitive(obj, "metadata"),
	    key);
}

/* Drop the server's metadata (and status when status is set). */
static void
strip_meta(cJSON *obj, int status)
{
	cJSON	*m = cJSON_GetObjectItemCaseSensitive(obj, "metadata");
	size_t	 i;

	for (i = 0; server_meta[i] != NULL; i++)
		cJSON_DeleteItemFromObjectCaseSensitive(m, server_meta[i]);
	if (status)
		cJSON_DeleteItemFromObjectCaseSensitive(obj, "status");
}

static void
item_init(struct dra_apply_item *it, const struct apply_kind *k,
    const char *api_version, const char *ns, const char *name,
    const char *source)
{
	it->kind = k->kind;
	it->api_version = xstrdup(api_version);
	it->kind_name = xstrdup(k->name);
	it->ns = ns != NULL ? xstrdup(ns) : NULL;
	it->name = xstrdup(name);
	it->path = object_path(k, api_version, ns, name);
	it->display = object_display(k, name);
	it->source = xstrdup(source);
}

/* status.manifests[i]. */
static int
item_manifest(const cJSON *m, size_t i, struct dra_apply_item *it,
    struct dra_err *err)
{
	const struct apply_kind	*k;
	const cJSON		*meta, *labels;
	const char		*av, *kind, *name, *ns;
	char			 p[64];
	cJSON			*body, *bl;

	snprintf(p, sizeof p, "status.manifests[%zu]", i);
	if (!cJSON_IsObject(m))
		return fail(err, "%s: expected a mapping", p);
	if ((av = str_of(m, "apiVersion")) == NULL)
		return fail(err, "%s.apiVersion: missing", p);
	if ((kind = str_of(m, "kind")) == NULL)
		return fail(err, "%s.kind: missing", p);
	k = kind_find(kind);
	if (k == NULL || k->kind == DRA_APPLY_NODE)
		return fail(err, "%s.kind: \"%s\" is not a kind a plan holds "
		    "(PriorityClass, DeviceClass, ConfigMap, ResourceQuota)",
		    p, kind);
	if (!version_ok(k, av))
		return fail(err, "%s.apiVersion: \"%s\" is not served for a "
		    "%s (%s)", p, av, kind, k->kind == DRA_APPLY_DEVICE_CLASS ?
		    "resource.k8s.io/v1" : k->kind ==
		    DRA_APPLY_PRIORITY_CLASS ? "scheduling.k8s.io/v1" : "v1");
	meta = cJSON_GetObjectItemCaseSensitive(m, "metadata");
	if (!cJSON_IsObject(meta))
		return fail(err, "%s.metadata: missing", p);
	if ((name = str_of(meta, "name")) == NULL)
		return fail(err, "%s.metadata.name: missing", p);
	if (!dns_name(name, 0))
		return fail(err, "%s.metadata.name: \"%s\" is not a valid "
		    "name (a DNS subdomain)", p, name);
	ns = str_of(meta, "namespace");
	if (k->namespaced && ns == NULL)
		return fail(err, "%s.metadata.namespace: missing (a %s is "
		    "namespaced)", p, kind);
	if (!k->namespaced && ns != NULL)
		return fail(err, "%s.metadata.namespace: a %s is "
		    "cluster-scoped", p, kind);
	if (ns != NULL && !dns_name(ns, 1))
		return fail(err, "%s.metadata.namespace: \"%s\" is not a "
		    "valid namespace", p, ns);
	/* Only what docs/PLAN-FORMAT.md names: nothing else is written. */
	if (k->kind == DRA_APPLY_CONFIG_MAP && (strcmp(ns,
	    DRA_APPLY_MIG_NS) != 0 || strcmp(name, DRA_APPLY_MIG_CM) != 0))
		return fail(err, "%s: ConfigMap %s/%s: a plan writes only the "
		    "mig-parted ConfigMap %s/%s", p, ns, name,
		    DRA_APPLY_MIG_NS, DRA_APPLY_MIG_CM);
	if (k->kind == DRA_APPLY_QUOTA && strcmp(name,
	    DRA_APPLY_QUOTA_NAME) != 0)
		return fail(err, "%s.metadata.name: ResourceQuota \"%s\": a "
		    "plan writes only the quota named %s", p, name,
		    DRA_APPLY_QUOTA_NAME);
	labels = cJSON_GetObjectItemCaseSensitive(meta, "labels");
	if (labels != NULL && !cJSON_IsObject(labels))
		return fail(err, "%s.metadata.labels: expected a mapping", p);
	item_init(it, k, av, ns, name, p);
	body = cJSON_Duplicate(m, 1);
	strip_meta(body, 1);
	bl = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(
	    body, "metadata"), "labels");
	if (bl == NULL)
		bl = cJSON_AddObjectToObject(cJSON_GetObjectItemCaseSensitive(
		    body, "metadata"), "labels");
	cJSON_DeleteItemFromObjectCaseSensitive(bl, DRA_APPLY_MANAGED_BY);
	cJSON_AddStringToObject(bl, DRA_APPLY_MANAGED_BY,
	    DRA_APPLY_FIELD_MANAGER);
	it->body = body;
	return KUBE_OK;
}

/* status.nodeLabels[i]. */
static int
item_node(const cJSON *e, size_t i, struct dra_apply_item *it,
    struct dra_err *err)
{
	const cJSON	*labels, *l;
	const char	*node;
	char		 p[64];
	cJSON		*meta;

	snprintf(p, sizeof p, "status.nodeLabels[%zu]", i);
	if (!cJSON_IsObject(e))
		return fail(err, "%s: expected a mapping", p);
	if ((node = str_of(e, "node")) == NULL)
		return fail(err, "%s.node: missing", p);
	if (!dns_name(node, 0))
		return fail(err, "%s.node: \"%s\" is not a valid node name",
		    p, node);
	labels = cJSON_GetObjectItemCaseSensitive(e, "labels");
	if (!cJSON_IsObject(labels) || labels->child == NULL)
		return fail(err, "%s.labels: expected a mapping of strings",
		    p);
	cJSON_ArrayForEach(l, labels) {
		if (strcmp(l->string, DRA_APPLY_MIG_LABEL) != 0)
			return fail(err, "%s.labels: \"%s\": a plan sets only "
			    "the label %s", p, l->string, DRA_APPLY_MIG_LABEL);
		if (!cJSON_IsString(l))
			return fail(err, "%s.labels.%s: expected a string", p,
			    l->string);
	}
	item_init(it, &apply_kinds[NKINDS - 1], "v1", NULL, node, p);
	it->body = cJSON_CreateObject();
	cJSON_AddStringToObject(it->body, "apiVersion", "v1");
	cJSON_AddStringToObject(it->body, "kind", "Node");
	meta = cJSON_AddObjectToObject(it->body, "metadata");
	cJSON_AddStringToObject(meta, "name", node);
	cJSON_AddItemToObject(meta, "labels", cJSON_Duplicate(labels, 1));
	return KUBE_OK;
}

/* Apply order: kind, then the plan's order (source index). */
struct sort_item {
	struct dra_apply_item	 it;
	size_t			 seq;
};

static int
item_cmp(const void *a, const void *b)
{
	const struct sort_item	*x = a, *y = b;

	if (x->it.kind != y->it.kind)
		return x->it.kind < y->it.kind ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void
list_add(char ***v, size_t *n, char *s)
{
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	(*v)[(*n)++] = s;
}

/*
 * The names of mig-configs in the ConfigMap body cm's
 * data["config.yaml"], into *names (count *n); KUBE_E_PARSE naming the
 * field when it is not mig-parted's v1 format.
 */
static int
mig_configs(const struct dra_apply_item *cm, char ***names, size_t *n,
    struct dra_err *err)
{
	struct dra_arena	 a;
	struct kube_ynode	*root = NULL;
	const struct kube_ynode	*mc;
	struct dra_err		 e;
	const char		*text;
	size_t			 i;
	int			 rc = KUBE_OK;

	text = str_of(cJSON_GetObjectItemCaseSensitive(cm->body, "data"),
	    "config.yaml");
	if (text == NULL)
		return fail(err, "%s.data.config.yaml: missing (the mig-parted "
		    "configurations the node labels name)", cm->source);
	dra_arena_init(&a);
	if (kube_yaml_load("config.yaml", text, strlen(text),
	    KUBE_YAML_ONE_DOC, "mig-parted configurations", KUBE_E_PARSE,
	    &a, &root, &e) != KUBE_OK) {
		rc = fail(err, "%s.data.config.yaml: %s", cm->source, e.msg);
		goto out;
	}
	mc = root != NULL && root->type == KUBE_Y_MAP ?
	    kube_ynode_get(root, "mig-configs") : NULL;
	if (mc == NULL || mc->type != KUBE_Y_MAP) {
		rc = fail(err, "%s.data.config.yaml: mig-configs: expected a "
		    "mapping of configurations", cm->source);
		goto out;
	}
	for (i = 0; i + 1 < mc->n; i += 2)
		if (mc->kids[i]->type == KUBE_Y_SCALAR)
			list_add(names, n, xstrdup(mc->kids[i]->str));
out:
	dra_arena_release(&a);
	return rc;
}

/*
 * The parts of a plan agree (a cut or hand-edited file does not):
 * every node label names a configuration of the ConfigMap, on a node
 * of the layout; every node of the layout with a GPU mig-parted
 * configures (mode static or whole) is labelled; every team's quota
 * is there with the hard limits status.teams gives, and no other.
 */
static int
plan_consistent(const struct pv_doc *d, const struct sort_item *si,
    size_t n, struct dra_err *err)
{
	const struct dra_apply_item	*cm = NULL, *it;
	const cJSON			*hard, *h, *v;
	char				**cfg = NULL;
	size_t				 ncfg = 0, i, j, k;
	int				 rc = KUBE_OK, found;

	for (i = 0; i < n; i++)
		if (si[i].it.kind == DRA_APPLY_CONFIG_MAP)
			cm = &si[i].it;
	if (cm != NULL && (rc = mig_configs(cm, &cfg, &ncfg, err)) !=
	    KUBE_OK)
		goto out;
	for (i = 0; i < n && rc == KUBE_OK; i++) {
		it = &si[i].it;
		if (it->kind == DRA_APPLY_NODE) {
			v = cJSON_GetObjectItemCaseSensitive(
			    cJSON_GetObjectItemCaseSensitive(it->body,
			    "metadata"), "labels")->child;
			for (j = 0; j < ncfg; j++)
				if (strcmp(cfg[j], v->valuestring) == 0)
					break;
			if (j == ncfg) {
				rc = fail(err, "%s.labels.%s: \"%s\" is not a "
				    "configuration of the plan's ConfigMap "
				    "%s/%s (%s)", it->source, v->string,
				    v->valuestring, DRA_APPLY_MIG_NS,
				    DRA_APPLY_MIG_CM, cm == NULL ? "the plan "
				    "has none: a cut file?" : "not in its "
				    "mig-configs");
				break;
			}
			for (j = 0; j < d->nnodes; j++)
				if (strcmp(d->nodes[j].name, it->name) == 0)
					break;
			if (j == d->nnodes)
				rc = fail(err, "%s.node: %s is not a node of "
				    "status.layout", it->source, it->name);
		} else if (it->kind == DRA_APPLY_QUOTA) {
			for (j = 0; j < d->nteams; j++)
				if (d->teams[j].has_quota &&
				    strcmp(d->teams[j].ns, it->ns) == 0)
					break;
			if (j == d->nteams) {
				rc = fail(err, "%s: the quota of namespace %s "
				    "is not in status.teams", it->source,
				    it->ns);
				break;
			}
			hard = cJSON_GetObjectItemCaseSensitive(
			    cJSON_GetObjectItemCaseSensitive(it->body, "spec"),
			    "hard");
			found = cJSON_GetArraySize(hard) ==
			    (int)d->teams[j].nhard;
			for (k = 0; found && k < d->teams[j].nhard; k++) {
				h = cJSON_GetObjectItemCaseSensitive(hard,
				    d->teams[j].hard[k].key);
				found = cJSON_IsString(h) && strcmp(
				    h->valuestring, d->teams[j].hard[k].value)
				    == 0;
			}
			if (!found)
				rc = fail(err, "%s.spec.hard: not the quota "
				    "status.teams gives namespace %s",
				    it->source, it->ns);
		}
	}
	for (j = 0; rc == KUBE_OK && j < d->nteams; j++) {
		if (!d->teams[j].has_quota)
			continue;
		for (i = 0; i < n; i++)
			if (si[i].it.kind == DRA_APPLY_QUOTA &&
			    strcmp(si[i].it.ns, d->teams[j].ns) == 0)
				break;
		if (i == n)
			rc = fail(err, "status.manifests: no ResourceQuota for "
			    "namespace %s, which status.teams gives a quota "
			    "(a cut file?)", d->teams[j].ns);
	}
	for (j = 0; rc == KUBE_OK && j < d->nnodes; j++) {
		for (k = 0; k < d->nodes[j].ngpus; k++)
			if (strcmp(d->nodes[j].gpus[k].mode, "dynamic") != 0)
				break;
		if (k == d->nodes[j].ngpus)
			continue;
		for (i = 0; i < n; i++)
			if (si[i].it.kind == DRA_APPLY_NODE &&
			    strcmp(si[i].it.name, d->nodes[j].name) == 0)
				break;
		if (i == n)
			rc = fail(err, "status.nodeLabels: no label for node "
			    "%s, whose GPU %s the layout puts in %s mode "
			    "(mig-parted configures it)", d->nodes[j].name,
			    d->nodes[j].gpus[k].name, d->nodes[j].gpus[k].mode);
	}
out:
	for (i = 0; i < ncfg; i++)
		free(cfg[i]);
	free(cfg);
	return rc;
}

int
dra_apply_items(const cJSON *plan, struct dra_apply_items *out,
    struct dra_err *err)
{
	struct pv_doc		 d;
	struct sort_item	*si;
	const cJSON		*st, *ms, *nl, *e;
	size_t			 n = 0, cap, i, j;
	int			 rc;

	memset(out, 0, sizeof *out);
	rc = pv_read(plan, &d, err);
	if (rc == KUBE_OK && !d.has_layout)
		rc = fail(err, "status.layout: missing: the plan is %s "
		    "(status.solver.status), it has nothing to apply",
		    d.status);
	if (rc != KUBE_OK) {
		pv_release(&d);
		return rc;
	}
	st = cJSON_GetObjectItemCaseSensitive(plan, "status");
	ms = cJSON_GetObjectItemCaseSensitive(st, "manifests");
	nl = cJSON_GetObjectItemCaseSensitive(st, "nodeLabels");
	if (!cJSON_IsArray(ms) || (nl != NULL && !cJSON_IsArray(nl))) {
		pv_release(&d);
		if (!cJSON_IsArray(ms))
			return fail(err, "status.manifests: %s", ms == NULL ?
			    "missing" : "expected a list");
		return fail(err, "status.nodeLabels: expected a list");
	}
	cap = (size_t)cJSON_GetArraySize(ms) + (size_t)cJSON_GetArraySize(nl);
	si = xcalloc(cap + 1, sizeof *si);
	i = 0;
	cJSON_ArrayForEach(e, ms) {
		si[n].seq = n;
		if ((rc = item_manifest(e, i++, &si[n].it, err)) != KUBE_OK)
			goto bad;
		n++;
	}
	i = 0;
	cJSON_ArrayForEach(e, nl) {
		si[n].seq = n;
		if ((rc = item_node(e, i++, &si[n].it, err)) != KUBE_OK)
			goto bad;
		n++;
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < i; j++)
			if (strcmp(si[i].it.path, si[j].it.path) == 0) {
				rc = fail(err, "%s: %s %s%s%s is named twice "
				    "(also %s)", si[i].it.source,
				    si[i].it.kind_name, si[i].it.ns != NULL ?
				    si[i].it.ns : "", si[i].it.ns != NULL ?
				    "/" : "", si[i].it.name, si[j].it.source);
				goto bad;
			}
	if ((rc = plan_consistent(&d, si, n, err)) != KUBE_OK)
		goto bad;
	pv_release(&d);
	qsort(si, n, sizeof *si, item_cmp);
	out->v = xcalloc(n + 1, sizeof *out->v);
	for (i = 0; i < n; i++) {
		out->v[i] = si[i].it;
		if (out->v[i].ns == NULL)
			continue;
		for (j = 0; j < out->nns; j++)
			if (strcmp(out->namespaces[j], out->v[i].ns) == 0)
				break;
		if (j == out->nns)
			list_add(&out->namespaces, &out->nns,
			    xstrdup(out->v[i].ns));
	}
	out->n = n;
	free(si);
	return KUBE_OK;

bad:
	pv_release(&d);
	/* si[0..n) are whole items; a failed one holds nothing. */
	out->v = xcalloc(n + 1, sizeof *out->v);
	for (i = 0; i < n; i++)
		out->v[i] = si[i].it;
	out->n = n;
	free(si);
	dra_apply_items_free(out);
	return rc;
}

void
dra_apply_items_free(struct dra_apply_items *items)
{
	size_t	i;

	if (items == NULL)
		return;
	for (i = 0; i < items->n; i++) {
		free(items->v[i].api_version);
		free(items->v[i].kind_name);
		free(items->v[i].ns);
		free(items->v[i].name);
		free(items->v[i].path);
		free(items->v[i].display);
		free(items->v[i].source);
		cJSON_Delete(items->v[i].body);
	}
	free(items->v);
	for (i = 0; i < items->nns; i++)
		free(items->namespaces[i]);
	free(items->namespaces);
	memset(items, 0, sizeof *items);
}

cJSON *
dra_apply_normalize(const cJSON *obj)
{
	cJSON	*c;

	if (obj == NULL)
		return NULL;
	c = cJSON_Duplicate(obj, 1);
	strip_meta(c, 1);
	return c;
}

enum dra_apply_change
dra_apply_compare(const cJSON *live, const cJSON *result)
{
	cJSON	*a, *b;
	int	 same;

	if (live == NULL)
		return DRA_CHANGE_CREATED;
	a = dra_apply_normalize(live);
	b = dra_apply_normalize(result);
	same = cJSON_Compare(a, b, 1);
	cJSON_Delete(a);
	cJSON_Delete(b);
	return same ? DRA_CHANGE_UNCHANGED : DRA_CHANGE_CONFIGURED;
}

const char *
dra_apply_change_name(enum dra_apply_change c)
{
	switch (c) {
	case DRA_CHANGE_CREATED:
		return "created";
	case DRA_CHANGE_CONFIGURED:
		return "configured";
	case DRA_CHANGE_UNCHANGED:
		break;
	}
	return "unchanged";
}

char *
dra_apply_diff_name(const char *api_version, const char *kind,
    const char *ns, const char *name, char *buf, size_t len)
{
	char	*p;

	snprintf(buf, len, "%s.%s.%s.%s", api_version, kind,
	    ns != NULL ? ns : "", name);
	for (p = buf; *p != '\0'; p++)
		if (*p == '/')
			*p = '.';
	return buf;
}

/* Staleness. */

static int
str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The GPU named name on node (inventory order: node, then name). */
static const struct plan_gpu *
inv_gpu(const struct plan_inventory *inv, const char *node, const char *name)
{
	size_t	lo = 0, hi = inv->ngpus, mid;
	int	c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strcmp(inv->gpus[mid].node, node);
		if (c == 0)
			c = strcmp(inv->gpus[mid].name, name);
		if (c == 0)
			return &inv->gpus[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/*
 * Whether DeviceClass cls maps the extended resource ext: in the plan
 * (its DeviceClass manifests, which apply creates) or in s.
 */
static int
class_maps(const cJSON *manifests, const struct kube_snapshot *s,
    const char *cls, const char *ext)
{
	const cJSON	*m;
	const char	*e;
	size_t		 i;

	cJSON_ArrayForEach(m, manifests) {
		if (!same_str(str_of(m, "kind"), "DeviceClass") ||
		    !same_str(meta_str(m, "name"), cls))
			continue;
		e = str_of(cJSON_GetObjectItemCaseSensitive(m, "spec"),
		    "extendedResourceName");
		return e != NULL && strcmp(e, ext) == 0;
	}
	for (i = 0; i < s->classes.n; i++)
		if (same_str(s->classes.v[i]->meta.name, cls))
			return same_str(s->classes.v[i]->
			    extended_resource_name, ext);
	return 0;
}

/*
 * What the claims of namespace ns charge to quota key key, as the
 * ResourceQuota evaluator counts them (inv->usage, read_usage() of
 * planner/inventory.c): count/resourceclaims.resource.k8s.io the
 * claims, <class>.deviceclass.resource.k8s.io/devices and
 * requests.deviceclass.resource.kubernetes.io/<class> the devices
 * requested of the class, requests.<ext> those of every class mapping
 * ext.  Returns 0 for a key it does not count (Pods' own extended
 * resource requests are not read).
 */
static int
quota_used(const cJSON *manifests, const struct kube_snapshot *s,
    const struct plan_inventory *inv, const char *ns, const char *key,
    int64_t *used)
{
	static const char	 dev_sfx[] = ".deviceclass.resource.k8s.io/"
				    "devices";
	static const char	 ext_pfx[] = "requests.deviceclass.resource."
				    "kubernetes.io/";
	const struct plan_usage	*u;
	size_t			 i, kl = strlen(key), sl = strlen(dev_sfx);
	int			 claims, dev, ext, req, match;

	claims = strcmp(key, "count/resourceclaims.resource.k8s.io") == 0;
	dev = kl > sl && strcmp(key + kl - sl, dev_sfx) == 0;
	ext = strncmp(key, ext_pfx, strlen(ext_pfx)) == 0;
	req = !ext && strncmp(key, "requests.", 9) == 0;
	if (!claims && !dev && !ext && !req)
		return 0;
	*used = 0;
	for (i = 0; i < inv->nusage; i++) {
		u = &inv->usage[i];
		if (strcmp(u->namespace, ns) != 0 ||
		    (u->device_class == NULL) != claims)
			continue;
		if (claims)
			match = 1;
		else if (dev)
			match = strlen(u->device_class) == kl - sl &&
			    strncmp(u->device_class, key, kl - sl) == 0;
		else if (ext)
			match = strcmp(u->device_class, key +
			    strlen(ext_pfx)) == 0;
		else
			match = class_maps(manifests, s, u->device_class,
			    key + 9);
		if (match)
			*used += u->count;
	}
	return 1;
}

/*
 * Each ResourceQuota of the plan whose hard value a key is already
 * beyond, by what the namespace's claims charge now: a problem (the
 * quota would refuse every new claim of the namespace from its birth).
 */
static void
quota_stale(const cJSON *plan, const struct kube_snapshot *s,
    const struct plan_inventory *inv, struct dra_apply_stale *out)
{
	const cJSON		*manifests, *m, *h;
	const char		*ns;
	struct kube_quantity	 q;
	int64_t			 used;

	manifests = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(plan, "status"), "manifests");
	cJSON_ArrayForEach(m, manifests) {
		if (!same_str(str_of(m, "kind"), "ResourceQuota") ||
		    (ns = meta_str(m, "namespace")) == NULL)
			continue;
		cJSON_ArrayForEach(h, cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetObjectItemCaseSensitive(m, "spec"), "hard")) {
			if (!cJSON_IsString(h) || kube_quantity_parse(
			    h->valuestring, &q, NULL) != KUBE_OK ||
			    !quota_used(manifests, s, inv, ns, h->string,
			    &used) || used > INT64_MAX / 1000 ||
			    used * 1000 <= q.milli)
				continue;
			list_add(&out->problems, &out->nproblems, xasprintf(
			    "quota %s in %s: %s: %lld used, the plan's hard "
			    "is %s: the namespace's claims already exceed it",
			    meta_str(m, "name") != NULL ? meta_str(m, "name") :
			    "", ns, h->string, (long long)used,
			    h->valuestring));
		}
	}
}

int
dra_apply_stale(const cJSON *plan, const struct kube_snapshot *s,
    struct dra_apply_stale *out, struct dra_err *err)
{
	struct pv_doc		 d;
	struct plan_inventory	*inv = NULL;
	struct plan_warnings	 warn;
	const struct pv_gpu	*pg;
	const struct plan_gpu	*g;
	const cJSON		*layout, *ln, *lg;
	char			**kept = NULL, **nodes = NULL, *key;
	char			 dev[256];
	const char		*why, *bus, *fleet;
	size_t			 nkept = 0, nnodes = 0, i, j, k, p;
	int			 rc, found, repart;

	memset(out, 0, sizeof *out);
	if ((rc = pv_read(plan, &d, err)) != KUBE_OK || !d.has_layout)
		goto out;
	memset(&warn, 0, sizeof warn);
	if ((rc = plan_inventory_from_snapshot(s, &inv, &warn, err)) !=
	    KUBE_OK) {
		plan_warnings_free(&warn);
		goto out;
	}
	plan_warnings_free(&warn);
	/* The claims the plan keeps, and the nodes there are. */
	for (i = 0; i < d.nnodes; i++)
		for (j = 0; j < d.nodes[i].ngpus; j++)
			for (k = 0; k < d.nodes[i].gpus[j].ninst; k++) {
				const struct pv_inst *x =
				    &d.nodes[i].gpus[j].inst[k];

				if (x->kind == PV_OWNER_RUNNING ||
				    x->kind == PV_OWNER_MOVED)
					list_add(&kept, &nkept, xasprintf(
					    "%s/%s", x->ns, x->name));
			}
	if (nkept > 0)
		qsort(kept, nkept, sizeof *kept, str_cmp);
	for (i = 0; i < s->nodes.n; i++)
		list_add(&nodes, &nnodes, xstrdup(s->nodes.v[i]->meta.name));
	if (nnodes > 0)
		qsort(nodes, nnodes, sizeof *nodes, str_cmp);
	fleet = d.source != NULL && strncmp(d.source, "fleet ", 6) == 0 ?
	    d.source : NULL;

	layout = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(plan, "status"), "layout");
	ln = layout->child;
	for (i = 0; i < d.nnodes; i++, ln = ln->next) {
		const char *nn = d.nodes[i].name;

		if (nnodes == 0 || bsearch(&nn, nodes, nnodes,
		    sizeof *nodes, str_cmp) == NULL) {
			if (fleet != NULL)
				list_add(&out->problems, &out->nproblems,
				    xasprintf("node %s: not in this cluster: "
				    "the plan was made for a synthetic fleet "
				    "(%s)", nn, fleet));
			else
				list_add(&out->problems, &out->nproblems,
				    xasprintf("node %s: no longer exists", nn));
			continue;
		}
		lg = cJSON_GetObjectItemCaseSensitive(ln, "gpus")->child;
		for (j = 0; j < d.nodes[i].ngpus; j++, lg = lg->next) {
			pg = &d.nodes[i].gpus[j];
			g = inv_gpu(inv, nn, pg->name);
			if (g == NULL) {
				list_add(&out->problems, &out->nproblems,
				    xasprintf("%s/%s: the GPU is no longer "
				    "published (no ResourceSlice device of "
				    "it on node %s)", nn, pg->name, nn));
				continue;
			}
			bus = str_of(lg, "pciBusID");
			if (bus != NULL && g->pci_bus_id != NULL &&
			    strcmp(bus, g->pci_bus_id) != 0)
				list_add(&out->problems, &out->nproblems,
				    xasprintf("%s/%s: PCI bus ID %s, the plan "
				    "says %s: another GPU now has this name",
				    nn, pg->name, g->pci_bus_id, bus));
			why = NULL;
			if (strcmp(pg->mode, plan_mig_mode_name(g->mode)) != 0)
				why = "changes its mode";
			else if (pg->rebuilt)
				why = "cuts it anew";
			else if (pg->changed)
				why = "reconfigures its MIG instances";
			repart = why != NULL;
			for (k = 0; k < g->nrunning; k++) {
				key = xasprintf("%s/%s",
				    g->running[k].namespace,
				    g->running[k].claim);
				found = nkept > 0 && bsearch(&key, kept,
				    nkept, sizeof *kept, str_cmp) != NULL;
				if (!found && plan_inventory_device(inv, g,
				    g->running[k].placement, dev,
				    sizeof dev) == NULL)
					snprintf(dev, sizeof dev, "a device");
				if (!found && repart && strcmp(why,
				    "changes its mode") == 0)
					list_add(&out->problems,
					    &out->nproblems, xasprintf("%s/%s: "
					    "claim %s now holds %s, which the "
					    "plan does not keep; the plan "
					    "changes its mode from %s to %s",
					    nn, pg->name, key, dev,
					    plan_mig_mode_name(g->mode), pg->mode));
				else if (!found && repart)
					list_add(&out->problems,
					    &out->nproblems, xasprintf("%s/%s: "
					    "claim %s now holds %s, which the "
					    "plan does not keep; the plan %s",
					    nn, pg->name, key, dev, why));
				else if (!found)
					list_add(&out->notes, &out->nnotes,
					    xasprintf("%s/%s: claim %s now "
					    "holds %s, which the plan did not "
					    "know: its instances there may not "
					    "land as planned", nn, pg->name,
					    key, dev));
				free(key);
			}
			if (strcmp(pg->mode, "dynamic") != 0 ||
			    g->mode != PLAN_MODE_DYNAMIC)
				continue;
			for (k = 0; k < pg->ninst; k++) {
				const char *want = pg->inst[k].device;

				if (want == NULL)
					continue;
				found = 0;
				for (p = 0; !found && p < inv->geometries[
				    g->geometry]->nplacements; p++)
					found = plan_inventory_device(inv, g,
					    (int)p, dev, sizeof dev) != NULL &&
					    strcmp(dev, want) == 0;
				if (!found)
					list_add(&out->problems,
					    &out->nproblems, xasprintf("%s/%s: "
					    "device %s is no longer published",
					    nn, pg->name, want));
			}
		}
	}
	quota_stale(plan, s, inv, out);
	rc = KUBE_OK;
out:
	for (i = 0; i < nkept; i++)
		free(kept[i]);
	free(kept);
	for (i = 0; i < nnodes; i++)
		free(nodes[i]);
	free(nodes);
	plan_inventory_free(inv);
	pv_release(&d);
	return rc;
}

void
dra_apply_stale_free(struct dra_apply_stale *st)
{
	size_t	i;

	if (st == NULL)
		return;
	for (i = 0; i < st->nproblems; i++)
		free(st->problems[i]);
	free(st->problems);
	for (i = 0; i < st->nnotes; i++)
		free(st->notes[i]);
	free(st->notes);
	memset(st, 0, sizeof *st);
}

/* The end of a manager's words that start line[0..len): after its
   quoted name (\" escapes) and what follows it up to ": " or the end. */
static size_t
manager_end(const char *line, size_t len)
{
	size_t	i = 0;

	if (len > 0 && line[0] == '"')
		for (i = 1; i < len && line[i] != '"'; i++)
			if (line[i] == '\\' && i + 1 < len)
				i++;
	for (; i < len; i++)
		if (line[i] == ':' && (i + 1 == len || line[i + 1] == ' '))
			return i;
	return len;
}

char *
dra_apply_conflict_takes(const char *msg)
{
	struct dra_buf	 out;
	const char	*p, *line, *nl, *w;
	size_t		 len, m, nmgr = 0, npath;
	char		*r;

	if (msg == NULL)
		return NULL;
	dra_buf_init(&out, DRA_BUF_MAX_SMALL);
	for (p = msg; *p != '\0'; p = *nl != '\0' ? nl + 1 : nl) {
		nl = strchr(p, '\n');
		if (nl == NULL)
			nl = p + strlen(p);
		if ((w = strstr(p, "conflict with ")) != NULL && w < nl)
			w += strlen("conflict with ");
		else if ((w = strstr(p, "conflicts with ")) != NULL && w < nl)
			w += strlen("conflicts with ");
		else
			continue;
		line = w;
		len = (size_t)(nl - w);
		m = manager_end(line, len);
		if (m == len)
			continue;
		dra_buf_adds(&out, nmgr++ == 0 ? "taking " : "; ");
		npath = 0;
		if (m + 2 < len) {
			/* "conflict with "m": .path" */
			dra_buf_add(&out, line + m + 2, len - m - 2);
			npath++;
		} else {
			/* "conflicts with "m":" then "- .path" lines. */
			while (*nl == '\n' && nl[1] == '-' && nl[2] == ' ') {
				p = nl + 3;
				nl = strchr(p, '\n');
				if (nl == NULL)
					nl = p + strlen(p);
				if (npath++ > 0)
					dra_buf_adds(&out, ", ");
				dra_buf_add(&out, p, (size_t)(nl - p));
			}
		}
		if (npath == 0)
			dra_buf_adds(&out, "its fields");
		dra_buf_adds(&out, " from ");
		dra_buf_add(&out, line, m);
	}
	r = nmgr > 0 ? dra_buf_take(&out) : NULL;
	dra_buf_release(&out);
	return r;
}

/* The backup. */

void
dra_backup_add(struct dra_backup *b, const struct dra_apply_item *it,
    const cJSON *live)
{
	struct dra_backup_obj	*o;
	const cJSON		*want, *l, *cur;

	b->v = xreallocarray(b->v, b->n + 1, sizeof *b->v);
	o = &b->v[b->n++];
	memset(o, 0, sizeof *o);
	o->api_version = xstrdup(it->api_version);
	o->kind = xstrdup(it->kind_name);
	o->ns = it->ns != NULL ? xstrdup(it->ns) : NULL;
	o->name = xstrdup(it->name);
	o->path = xstrdup(it->path);
	o->display = xstrdup(it->display);
	o->present = live != NULL;
	o->object = live != NULL ? cJSON_Duplicate(live, 1) : NULL;
	if (it->kind != DRA_APPLY_NODE)
		return;
	o->labels = cJSON_CreateObject();
	want = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(it->body, "metadata"), "labels");
	cur = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(live, "metadata"), "labels");
	cJSON_ArrayForEach(l, want) {
		const char *v = str_of(cur, l->string);

		if (v != NULL)
			cJSON_AddStringToObject(o->labels, l->string, v);
		else
			cJSON_AddNullToObject(o->labels, l->string);
	}
}

cJSON *
dra_backup_encode(const struct dra_backup *b)
{
	const struct dra_backup_obj	*o;
	cJSON				*doc, *x, *a, *e;
	size_t				 i;

	doc = cJSON_CreateObject();
	cJSON_AddStringToObject(doc, "apiVersion", DRA_APPLY_BACKUP_API);
	cJSON_AddStringToObject(doc, "kind", DRA_APPLY_BACKUP_KIND);
	x = cJSON_AddObjectToObject(doc, "metadata");
	if (b->created != NULL)
		cJSON_AddStringToObject(x, "creationTimestamp", b->created);
	x = cJSON_AddObjectToObject(doc, "spec");
	cJSON_AddStringToObject(x, "server", b->server != NULL ? b->server :
	    "");
	cJSON_AddStringToObject(x, "context", b->context != NULL ?
	    b->context : "");
	cJSON_AddStringToObject(x, "plan", b->plan != NULL ? b->plan : "");
	cJSON_AddStringToObject(x, "fieldManager", DRA_APPLY_FIELD_MANAGER);
	x = cJSON_AddObjectToObject(doc, "status");
	cJSON_AddStringToObject(x, "phase", b->phase != NULL ? b->phase :
	    "prepared");
	a = cJSON_AddArrayToObject(doc, "objects");
	for (i = 0; i < b->n; i++) {
		o = &b->v[i];
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "apiVersion", o->api_version);
		cJSON_AddStringToObject(e, "kind", o->kind);
		if (o->ns != NULL)
			cJSON_AddStringToObject(e, "namespace", o->ns);
		cJSON_AddStringToObject(e, "name", o->name);
		cJSON_AddStringToObject(e, "path", o->path);
		cJSON_AddStringToObject(e, "state", o->present ? "present" :
		    "absent");
		cJSON_AddBoolToObject(e, "applied", o->applied);
		if (o->uid != NULL)
			cJSON_AddStringToObject(e, "createdUID", o->uid);
		if (o->labels != NULL)
			cJSON_AddItemToObject(e, "labels",
			    cJSON_Duplicate(o->labels, 1));
		if (o->object != NULL)
			cJSON_AddItemToObject(e, "object",
			    cJSON_Duplicate(o->object, 1));
		if (o->applied_rv != NULL)
			cJSON_AddStringToObject(e, "appliedResourceVersion",
			    o->applied_rv);
		if (o->applied_obj != NULL)
			cJSON_AddItemToObject(e, "appliedObject",
			    cJSON_Duplicate(o->applied_obj, 1));
		cJSON_AddItemToArray(a, e);
	}
	return doc;
}

/* A required string member of o at path p; NULL after a failure. */
static const char *
bk_str(const cJSON *o, const char *p, const char *key, int required,
    int *rc, struct dra_err *err)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (*rc != KUBE_OK)
		return NULL;
	if (v == NULL && !required)
		return NULL;
	if (v == NULL) {
		*rc = fail(err, "%s%s%s: missing", p, *p != '\0' ? "." : "",
		    key);
		return NULL;
	}
	if (!cJSON_IsString(v)) {
		*rc = fail(err, "%s%s%s: expected a string", p, *p != '\0' ?
		    "." : "", key);
		return NULL;
	}
	return v->valuestring;
}

static int
bk_obj(const cJSON *e, size_t i, struct dra_backup_obj *o,
    struct dra_err *err)
{
	const struct apply_kind	*k;
	const cJSON		*v, *l;
	const char		*av, *kind, *ns, *name, *path, *state, *uid;
	const char		*arv;
	char			 p[64], *want;
	int			 rc = KUBE_OK;

	snprintf(p, sizeof p, "objects[%zu]", i);
	if (!cJSON_IsObject(e))
		return fail(err, "%s: expected a mapping", p);
	av = bk_str(e, p, "apiVersion", 1, &rc, err);
	kind = bk_str(e, p, "kind", 1, &rc, err);
	ns = bk_str(e, p, "namespace", 0, &rc, err);
	name = bk_str(e, p, "name", 1, &rc, err);
	path = bk_str(e, p, "path", 1, &rc, err);
	state = bk_str(e, p, "state", 1, &rc, err);
	uid = bk_str(e, p, "createdUID", 0, &rc, err);
	arv = bk_str(e, p, "appliedResourceVersion", 0, &rc, err);
	if (rc != KUBE_OK)
		return rc;
	if ((k = kind_find(kind)) == NULL)
		return fail(err, "%s.kind: \"%s\" is not a kind apply touches",
		    p, kind);
	if (!version_ok(k, av))
		return fail(err, "%s.apiVersion: \"%s\" is not served for a "
		    "%s", p, av, kind);
	if (!dns_name(name, 0))
		return fail(err, "%s.name: \"%s\" is not a valid name", p,
		    name);
	if (k->namespaced != (ns != NULL) || (ns != NULL &&
	    !dns_name(ns, 1)))
		return fail(err, "%s.namespace: %s", p, k->namespaced ?
		    "missing or not a valid namespace" : "a cluster-scoped "
		    "object has none");
	want = object_path(k, av, ns, name);
	if (strcmp(want, path) != 0) {
		rc = fail(err, "%s.path: \"%s\" is not the path of the %s "
		    "named %s (%s)", p, path, kind, name, want);
		free(want);
		return rc;
	}
	o->path = want;
	o->api_version = xstrdup(av);
	o->kind = xstrdup(k->name);
	o->ns = ns != NULL ? xstrdup(ns) : NULL;
	o->name = xstrdup(name);
	o->display = object_display(k, name);
	o->uid = uid != NULL ? xstrdup(uid) : NULL;
	if (strcmp(state, "present") == 0)
		o->present = 1;
	else if (strcmp(state, "absent") != 0)
		return fail(err, "%s.state: expected present or absent", p);
	if (k->kind == DRA_APPLY_NODE && !o->present)
		return fail(err, "%s.state: a Node apply labels was present "
		    "(apply never creates one)", p);
	if (o->present && uid != NULL)
		return fail(err, "%s.createdUID: only an object that was "
		    "absent can have been created", p);
	if (uid != NULL && *uid == '\0')
		return fail(err, "%s.createdUID: empty", p);
	v = cJSON_GetObjectItemCaseSensitive(e, "applied");
	if (v != NULL && !cJSON_IsBool(v))
		return fail(err, "%s.applied: expected true or false", p);
	o->applied = cJSON_IsTrue(v);
	v = cJSON_GetObjectItemCaseSensitive(e, "object");
	if (o->present) {
		if (!cJSON_IsObject(v))
			return fail(err, "%s.object: %s (state present)", p,
			    v == NULL ? "missing" : "expected a mapping");
		if (meta_str(v, "name") == NULL ||
		    strcmp(meta_str(v, "name"), name) != 0 ||
		    (ns != NULL && (meta_str(v, "namespace") == NULL ||
		    strcmp(meta_str(v, "namespace"), ns) != 0)))
			return fail(err, "%s.object.metadata: not the object "
			    "%s%s%s", p, ns != NULL ? ns : "", ns != NULL ?
			    "/" : "", name);
		o->object = cJSON_Duplicate(v, 1);
	} else if (v != NULL)
		return fail(err, "%s.object: state absent has no object", p);
	v = cJSON_GetObjectItemCaseSensitive(e, "labels");
	if (k->kind == DRA_APPLY_NODE) {
		if (!cJSON_IsObject(v))
			return fail(err, "%s.labels: %s (the node labels the "
			    "plan sets, with their values before)", p,
			    v == NULL ? "missing" : "expected a mapping");
		cJSON_ArrayForEach(l, v)
			if (!cJSON_IsString(l) && !cJSON_IsNull(l))
				return fail(err, "%s.labels.%s: expected a "
				    "string or null", p, l->string);
		o->labels = cJSON_Duplicate(v, 1);
	} else if (v != NULL)
		return fail(err, "%s.labels: only a Node has labels here", p);
	v = cJSON_GetObjectItemCaseSensitive(e, "appliedObject");
	if ((arv != NULL || v != NULL) && !o->applied)
		return fail(err, "%s.%s: only an object applied has one", p,
		    arv != NULL ? "appliedResourceVersion" : "appliedObject");
	if ((arv == NULL) != (v == NULL))
		return fail(err, "%s.%s: missing (appliedResourceVersion and "
		    "appliedObject go together)", p, arv == NULL ?
		    "appliedResourceVersion" : "appliedObject");
	if (v != NULL && !cJSON_IsObject(v))
		return fail(err, "%s.appliedObject: expected a mapping", p);
	if (arv != NULL && *arv == '\0')
		return fail(err, "%s.appliedResourceVersion: empty", p);
	o->applied_rv = arv != NULL ? xstrdup(arv) : NULL;
	o->applied_obj = v != NULL ? cJSON_Duplicate(v, 1) : NULL;
	return KUBE_OK;
}

int
dra_backup_decode(const cJSON *doc, struct dra_backup *b, struct dra_err *err)
{
	const cJSON	*x, *a, *e;
	const char	*s;
	size_t		 i = 0, j;
	int		 rc = KUBE_OK;

	memset(b, 0, sizeof *b);
	if (!cJSON_IsObject(doc))
		return fail(err, "expected a backup document (a mapping)");
	s = bk_str(doc, "", "apiVersion", 1, &rc, err);
	if (s != NULL && strcmp(s, DRA_APPLY_BACKUP_API) != 0)
		return fail(err, "apiVersion: expected \"%s\"",
		    DRA_APPLY_BACKUP_API);
	s = bk_str(doc, "", "kind", 1, &rc, err);
	if (s != NULL && strcmp(s, DRA_APPLY_BACKUP_KIND) != 0)
		return fail(err, "kind: expected \"%s\"",
		    DRA_APPLY_BACKUP_KIND);
	if (rc != KUBE_OK)
		return rc;
	x = cJSON_GetObjectItemCaseSensitive(doc, "metadata");
	if ((s = bk_str(x, "metadata", "creationTimestamp", 0, &rc, err)) !=
	    NULL)
		b->created = xstrdup(s);
	x = cJSON_GetObjectItemCaseSensitive(doc, "spec");
	if (!cJSON_IsObject(x))
		return fail(err, "spec: missing");
	if ((s = bk_str(x, "spec", "server", 1, &rc, err)) != NULL)
		b->server = xstrdup(s);
	if ((s = bk_str(x, "spec", "context", 0, &rc, err)) != NULL)
		b->context = xstrdup(s);
	if ((s = bk_str(x, "spec", "plan", 0, &rc, err)) != NULL)
		b->plan = xstrdup(s);
	s = bk_str(x, "spec", "fieldManager", 0, &rc, err);
	if (s != NULL && strcmp(s, DRA_APPLY_FIELD_MANAGER) != 0)
		return fail(err, "spec.fieldManager: expected \"%s\"",
		    DRA_APPLY_FIELD_MANAGER);
	x = cJSON_GetObjectItemCaseSensitive(doc, "status");
	if ((s = bk_str(x, "status", "phase", 0, &rc, err)) != NULL) {
		if (strcmp(s, "prepared") != 0 && strcmp(s, "applying") != 0 &&
		    strcmp(s, "complete") != 0 && strcmp(s, "stopped") != 0)
			return fail(err, "status.phase: expected prepared, "
			    "applying, complete or stopped");
		b->phase = xstrdup(s);
	}
	if (rc != KUBE_OK)
		return rc;
	a = cJSON_GetObjectItemCaseSensitive(doc, "objects");
	if (!cJSON_IsArray(a))
		return fail(err, "objects: %s", a == NULL ? "missing" :
		    "expected a list");
	b->v = xcalloc((size_t)cJSON_GetArraySize(a) + 1, sizeof *b->v);
	cJSON_ArrayForEach(e, a) {
		rc = bk_obj(e, i, &b->v[i], err);
		b->n = ++i;
		if (rc != KUBE_OK)
			return rc;
		for (j = 0; j + 1 < i; j++)
			if (strcmp(b->v[j].path, b->v[i - 1].path) == 0)
				return fail(err, "objects[%zu]: %s is named "
				    "twice (also objects[%zu])", i - 1,
				    b->v[i - 1].path, j);
	}
	return KUBE_OK;
}

void
dra_backup_free(struct dra_backup *b)
{
	size_t	i;

	if (b == NULL)
		return;
	for (i = 0; i < b->n; i++) {
		free(b->v[i].api_version);
		free(b->v[i].kind);
		free(b->v[i].ns);
		free(b->v[i].name);
		free(b->v[i].path);
		free(b->v[i].display);
		cJSON_Delete(b->v[i].object);
		cJSON_Delete(b->v[i].labels);
		free(b->v[i].uid);
		free(b->v[i].applied_rv);
		cJSON_Delete(b->v[i].applied_obj);
	}
	free(b->v);
	free(b->created);
	free(b->server);
	free(b->context);
	free(b->plan);
	free(b->phase);
	memset(b, 0, sizeof *b);
}

/* Rollback. */

/* The managedFields list of obj, or NULL. */
static const cJSON *
managed_fields(const cJSON *obj)
{
	const cJSON	*mf = cJSON_GetObjectItemCaseSensitive(
			    cJSON_GetObjectItemCaseSensitive(obj, "metadata"),
			    "managedFields");

	return cJSON_IsArray(mf) ? mf : NULL;
}

/* {"metadata":{"resourceVersion":RV,"managedFields":mf}}; takes mf. */
static cJSON *
owner_body(const cJSON *now, cJSON *mf)
{
	cJSON		*body, *meta;
	const char	*rv = meta_str(now, "resourceVersion");

	body = cJSON_CreateObject();
	meta = cJSON_AddObjectToObject(body, "metadata");
	if (rv != NULL)
		cJSON_AddStringToObject(meta, "resourceVersion", rv);
	cJSON_AddItemToObject(meta, "managedFields", mf);
	return body;
}

cJSON *
dra_apply_owner_patch(const cJSON *obj)
{
	const cJSON	*e;
	cJSON		*out;
	const char	*m, *op;
	int		 dropped = 0;

	out = cJSON_CreateArray();
	cJSON_ArrayForEach(e, managed_fields(obj)) {
		m = str_of(e, "manager");
		op = str_of(e, "operation");
		if (m != NULL && op != NULL && strcmp(m,
		    DRA_APPLY_FIELD_MANAGER) == 0 && strcmp(op, "Update") == 0)
			dropped++;
		else
			cJSON_AddItemToArray(out, cJSON_Duplicate(e, 1));
	}
	/* An empty list would mean "unchanged" to the API server. */
	if (dropped == 0 || out->child == NULL) {
		cJSON_Delete(out);
		return NULL;
	}
	return owner_body(obj, out);
}

/* fieldsV1.f:metadata.f:labels of a managedFields entry. */
static cJSON *
label_set(cJSON *e, int create)
{
	static const char *const keys[] = { "fieldsV1", "f:metadata",
	    "f:labels" };
	cJSON	*v = e, *n;
	size_t	 i;

	for (i = 0; i < 3 && v != NULL; i++) {
		n = cJSON_GetObjectItemCaseSensitive(v, keys[i]);
		if (n == NULL && create)
			n = cJSON_AddObjectToObject(v, keys[i]);
		v = cJSON_IsObject(n) ? n : NULL;
	}
	return v;
}

/* Drop what removing a label left empty; the entry itself if nothing. */
static void
prune_entry(cJSON *list, cJSON *e)
{
	cJSON	*fv = cJSON_GetObjectItemCaseSensitive(e, "fieldsV1");
	cJSON	*md = cJSON_GetObjectItemCaseSensitive(fv, "f:metadata");
	cJSON	*fl = cJSON_GetObjectItemCaseSensitive(md, "f:labels");

	if (fl != NULL && fl->child == NULL)
		cJSON_DeleteItemFromObjectCaseSensitive(md, "f:labels");
	if (md != NULL && md->child == NULL)
		cJSON_DeleteItemFromObjectCaseSensitive(fv, "f:metadata");
	if (fv != NULL && fv->child == NULL)
		cJSON_Delete(cJSON_DetachItemViaPointer(list, e));
}

static int
same_str(const char *a, const char *b)
{
	return a == NULL ? b == NULL : b != NULL && strcmp(a, b) == 0;
}

/* The entry of list with b's manager, operation and subresource. */
static cJSON *
entry_find(cJSON *list, const cJSON *b)
{
	cJSON	*e;

	cJSON_ArrayForEach(e, list)
		if (same_str(str_of(e, "manager"), str_of(b, "manager")) &&
		    same_str(str_of(e, "operation"), str_of(b, "operation")) &&
		    same_str(str_of(e, "subresource"),
		    str_of(b, "subresource")))
			return e;
	return NULL;
}

cJSON *
dra_rollback_label_owners(const struct dra_backup_obj *o, const cJSON *now)
{
	const cJSON	*mf, *l, *b;
	cJSON		*out, *e, *next, *fl;
	char		*key;
	int		 same;

	if (o->labels == NULL || now == NULL)
		return NULL;
	mf = managed_fields(now);
	out = mf != NULL ? cJSON_Duplicate(mf, 1) : cJSON_CreateArray();
	/* No one owns a label the plan set... */
	cJSON_ArrayForEach(l, o->labels) {
		key = xasprintf("f:%s", l->string);
		for (e = out->child; e != NULL; e = next) {
			next = e->next;
			fl = label_set(e, 0);
			if (fl == NULL || !cJSON_HasObjectItem(fl, key))
				continue;
			cJSON_DeleteItemFromObjectCaseSensitive(fl, key);
			prune_entry(out, e);
		}
		free(key);
	}
	/* ...but those that owned it before, when it had a value. */
	cJSON_ArrayForEach(l, o->labels) {
		if (!cJSON_IsString(l))
			continue;
		key = xasprintf("f:%s", l->string);
		cJSON_ArrayForEach(b, managed_fields(o->object)) {
			fl = label_set((cJSON *)b, 0);
			if (fl == NULL || !cJSON_HasObjectItem(fl, key))
				continue;
			if ((e = entry_find(out, b)) == NULL) {
				e = cJSON_Duplicate(b, 1);
				cJSON_ReplaceItemInObjectCaseSensitive(e,
				    "fieldsV1", cJSON_CreateObject());
				cJSON_AddItemToArray(out, e);
			}
			fl = label_set(e, 1);
			if (!cJSON_HasObjectItem(fl, key))
				cJSON_AddItemToObject(fl, key,
				    cJSON_CreateObject());
		}
		free(key);
	}
	if (mf != NULL)
		same = cJSON_Compare(out, mf, 1);
	else
		same = out->child == NULL;
	if (same || out->child == NULL) {
		cJSON_Delete(out);
		return NULL;
	}
	return owner_body(now, out);
}

static void
rollback_action(const struct dra_backup_obj *o, const cJSON *live,
    struct dra_rollback_step *st)
{
	const cJSON	*l, *cur;
	const char	*by, *uid, *rv, *now;
	cJSON		*body, *meta, *labels, *a, *b;
	int		 same;

	memset(st, 0, sizeof *st);
	if (!o->present && live == NULL) {
		st->action = DRA_RB_NOTHING;
		st->why = xstrdup("absent, as before");
		return;
	}
	if (!o->present) {
		by = str_of(cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetObjectItemCaseSensitive(live, "metadata"),
		    "labels"), DRA_APPLY_MANAGED_BY);
		uid = meta_str(live, "uid");
		if (by == NULL || strcmp(by, DRA_APPLY_FIELD_MANAGER) != 0) {
			st->action = DRA_RB_KEEP;
			st->why = xasprintf("it does not carry %s: %s: not "
			    "created by apply, left alone",
			    DRA_APPLY_MANAGED_BY, DRA_APPLY_FIELD_MANAGER);
			return;
		}
		if (o->uid != NULL && (uid == NULL ||
		    strcmp(uid, o->uid) != 0)) {
			st->action = DRA_RB_KEEP;
			st->why = xasprintf("its uid %s is not the one apply "
			    "created (%s): made again by someone else, left "
			    "alone", uid != NULL ? uid : "(none)", o->uid);
			return;
		}
		/*
		 * Only a uid the apply recorded when its create answered
		 * 201 proves the object is its own: a later apply (or a
		 * writer racing this one) may have labelled and applied
		 * an object someone else created.
		 */
		if (o->uid == NULL) {
			st->action = DRA_RB_KEEP;
			st->why = xstrdup("this apply recorded no uid of it "
			    "(it did not create it): left alone");
			return;
		}
		st->action = DRA_RB_DELETE;
		st->body = cJSON_CreateObject();
		cJSON_AddStringToObject(st->body, "apiVersion", "v1");
		cJSON_AddStringToObject(st->body, "kind", "DeleteOptions");
		if (uid != NULL)
			cJSON_AddStringToObject(cJSON_AddObjectToObject(
			    st->body, "preconditions"), "uid", uid);
		return;
	}
	if (live == NULL && o->labels != NULL) {
		/* A Node is the kubelet's: never made from a backup. */
		st->action = DRA_RB_KEEP;
		st->why = xstrdup("the node no longer exists: a rollback "
		    "never re-creates a Node, its labels are not restored");
		return;
	}
	if (live == NULL) {
		st->action = DRA_RB_RECREATE;
		st->body = cJSON_Duplicate(o->object, 1);
		strip_meta(st->body, 1);
		return;
	}
	if (o->labels != NULL) {
		body = cJSON_CreateObject();
		labels = cJSON_AddObjectToObject(cJSON_AddObjectToObject(body,
		    "metadata"), "labels");
		cur = cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetObjectItemCaseSensitive(live, "metadata"),
		    "labels");
		cJSON_ArrayForEach(l, o->labels) {
			now = str_of(cur, l->string);
			if (cJSON_IsString(l) && (now == NULL ||
			    strcmp(now, l->valuestring) != 0))
				cJSON_AddStringToObject(labels, l->string,
				    l->valuestring);
			else if (cJSON_IsNull(l) && now != NULL)
				cJSON_AddNullToObject(labels, l->string);
		}
		if (labels->child == NULL) {
			cJSON_Delete(body);
			st->action = DRA_RB_NOTHING;
			st->why = xstrdup("its labels are as before");
			return;
		}
		st->action = DRA_RB_LABELS;
		st->body = body;
		return;
	}
	body = cJSON_Duplicate(o->object, 1);
	meta = cJSON_GetObjectItemCaseSensitive(body, "metadata");
	cJSON_DeleteItemFromObjectCaseSensitive(meta, "uid");
	cJSON_DeleteItemFromObjectCaseSensitive(meta, "generation");
	cJSON_DeleteItemFromObjectCaseSensitive(meta, "creationTimestamp");
	cJSON_DeleteItemFromObjectCaseSensitive(meta, "selfLink");
	cJSON_DeleteItemFromObjectCaseSensitive(meta, "resourceVersion");
	cJSON_DeleteItemFromObjectCaseSensitive(body, "status");
	a = dra_apply_normalize(body);
	b = dra_apply_normalize(live);
	same = cJSON_Compare(a, b, 1);
	cJSON_Delete(a);
	cJSON_Delete(b);
	if (same) {
		cJSON_Delete(body);
		st->action = DRA_RB_NOTHING;
		st->why = xstrdup("as before");
		return;
	}
	if ((rv = meta_str(live, "resourceVersion")) != NULL)
		cJSON_AddStringToObject(meta, "resourceVersion", rv);
	st->action = DRA_RB_RESTORE;
	st->body = body;
}

void
dra_rollback_step_free(struct dra_rollback_step *st)
{
	if (st == NULL)
		return;
	cJSON_Delete(st->body);
	free(st->why);
	free(st->drift);
	memset(st, 0, sizeof *st);
}

/* Add manager m (quoted) to the list in b, once; *ours when it is
   kubectl-dra. */
static void
who_add(struct dra_buf *b, const char *m, int *ours)
{
	char	*q;

	if (m == NULL)
		return;
	q = xasprintf("\"%s\"", m);
	if (strstr(dra_buf_str(b), q) == NULL) {
		dra_buf_adds(b, b->len == 0 ? " by " : ", ");
		dra_buf_adds(b, q);
	}
	free(q);
	if (strcmp(m, DRA_APPLY_FIELD_MANAGER) == 0)
		*ours = 1;
}

/*
 * What changed o since the apply recorded it (o->applied_rv,
 * o->applied_obj), given live: NULL when nothing did (or nothing was
 * recorded).  A Node: the labels the plan set, named with the managers
 * owning them now.  Another kind: its normalized content, named with
 * the managers whose managedFields entries are new or newer.
 */
static char *
drift_of(const struct dra_backup_obj *o, const cJSON *live, int *ours)
{
	struct dra_buf	 who, what;
	const cJSON	*l, *cur, *e, *f, *mine;
	const char	*rv, *now;
	cJSON		*a, *b;
	char		*r, *k;
	int		 same;

	*ours = 0;
	if (!o->applied || o->applied_rv == NULL || o->applied_obj == NULL)
		return NULL;
	if (live == NULL)
		return xasprintf("deleted since the apply (resourceVersion %s "
		    "then)", o->applied_rv);
	rv = meta_str(live, "resourceVersion");
	if (rv != NULL && strcmp(rv, o->applied_rv) == 0)
		return NULL;
	dra_buf_init(&who, DRA_BUF_MAX_SMALL);
	dra_buf_init(&what, DRA_BUF_MAX_SMALL);
	if (o->labels != NULL) {
		mine = cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetObjectItemCaseSensitive(o->applied_obj,
		    "metadata"), "labels");
		cur = cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetObjectItemCaseSensitive(live, "metadata"),
		    "labels");
		cJSON_ArrayForEach(l, mine) {
			now = str_of(cur, l->string);
			if (same_str(now, cJSON_GetStringValue(l)))
				continue;
			dra_buf_addf(&what, "%s%s %s -> %s", what.len > 0 ?
			    ", " : " (", l->string, cJSON_IsString(l) ?
			    l->valuestring : "(none)", now != NULL ? now :
			    "(none)");
			k = xasprintf("f:%s", l->string);
			cJSON_ArrayForEach(e, managed_fields(live)) {
				f = cJSON_GetObjectItemCaseSensitive(
				    cJSON_GetObjectItemCaseSensitive(
				    cJSON_GetObjectItemCaseSensitive(
				    cJSON_GetObjectItemCaseSensitive(e,
				    "fieldsV1"), "f:metadata"), "f:labels"),
				    k);
				if (f != NULL)
					who_add(&who, str_of(e, "manager"),
					    ours);
			}
			free(k);
		}
		if (what.len == 0) {
			dra_buf_release(&who);
			dra_buf_release(&what);
			return NULL;
		}
		dra_buf_adds(&what, ")");
	} else {
		a = dra_apply_normalize(o->applied_obj);
		b = dra_apply_normalize(live);
		same = cJSON_Compare(a, b, 1);
		cJSON_Delete(a);
		cJSON_Delete(b);
		if (same) {
			dra_buf_release(&who);
			dra_buf_release(&what);
			return NULL;
		}
		cJSON_ArrayForEach(e, managed_fields(live)) {
			/* A status writer changed no content compared. */
			if (same_str(str_of(e, "subresource"), "status"))
				continue;
			cJSON_ArrayForEach(f, managed_fields(o->applied_obj))
				if (same_str(str_of(e, "manager"),
				    str_of(f, "manager")) &&
				    same_str(str_of(e, "operation"),
				    str_of(f, "operation")) &&
				    same_str(str_of(e, "subresource"),
				    str_of(f, "subresource")) &&
				    same_str(str_of(e, "time"),
				    str_of(f, "time")))
					break;
			if (f == NULL)
				who_add(&who, str_of(e, "manager"), ours);
		}
	}
	r = xasprintf("changed since the apply (resourceVersion %s -> %s)%s%s",
	    o->applied_rv, rv != NULL ? rv : "(none)", dra_buf_str(&what),
	    dra_buf_str(&who));
	dra_buf_release(&who);
	dra_buf_release(&what);
	return r;
}

void
dra_rollback_step(const struct dra_backup_obj *o, const cJSON *live,
    struct dra_rollback_step *st)
{
	memset(st, 0, sizeof *st);
	rollback_action(o, live, st);
	/* Already as before, or left alone: nothing of theirs undone. */
	if (st->action != DRA_RB_NOTHING && st->action != DRA_RB_KEEP)
		st->drift = drift_of(o, live, &st->drift_ours);
}

void
dra_backup_applied(struct dra_backup_obj *o, const cJSON *result)
{
	const cJSON	*want, *cur, *l;
	const char	*v;
	cJSON		*labels;

	free(o->applied_rv);
	cJSON_Delete(o->applied_obj);
	o->applied_rv = NULL;
	o->applied_obj = NULL;
	if ((v = meta_str(result, "resourceVersion")) == NULL)
		return;
	o->applied_rv = xstrdup(v);
	if (o->labels != NULL) {
		/* A Node: only the labels the plan set, as they are now. */
		o->applied_obj = cJSON_CreateObject();
		labels = cJSON_AddObjectToObject(cJSON_AddObjectToObject(
		    o->applied_obj, "metadata"), "labels");
		want = o->labels;
		cur = cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetObjectItemCaseSensitive(result, "metadata"),
		    "labels");
		cJSON_ArrayForEach(l, want) {
			if ((v = str_of(cur, l->string)) != NULL)
				cJSON_AddStringToObject(labels, l->string, v);
			else
				cJSON_AddNullToObject(labels, l->string);
		}
		return;
	}
	o->applied_obj = cJSON_Duplicate(result, 1);
	cJSON_DeleteItemFromObjectCaseSensitive(o->applied_obj, "status");
}
