/*
 * encode.c: the model back into v1 JSON (kube_encode, snapshot.h).
 *
 * Every DRA kind comes out as resource.k8s.io/v1 whatever version it
 * was read from, so a claim read through v1beta1 shows "exactly" and
 * a device is flat (no "basic").  Keys come in the API's struct order
 * (apiVersion, kind, metadata, spec, status), as kubectl -o json
 * prints them.  Only what the model keeps is written: opaque config
 * bodies, a template's claim metadata and the full node selector
 * (kept as its one-line summary, rebuilt here) are the known gaps.
 *
 * Integers that a double cannot print exactly (|v| >= 1e15) are cJSON
 * raw numbers, so they keep every digit.
 */
#include "model.h"
#include "snapshot.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#define DRA_GROUP_VERSION	"resource.k8s.io/v1"

static cJSON *
num(int64_t v)
{
	char	buf[32];

	if (v > -1000000000000000LL && v < 1000000000000000LL)
		return cJSON_CreateNumber((double)v);
	snprintf(buf, sizeof buf, "%" PRId64, v);
	return cJSON_CreateRaw(buf);
}

static void
add_num(cJSON *o, const char *key, int64_t v)
{
	cJSON_AddItemToObject(o, key, num(v));
}

static void
add_str(cJSON *o, const char *key, const char *s)
{
	if (s != NULL)
		cJSON_AddStringToObject(o, key, s);
}

static void
add_time(cJSON *o, const char *key, int64_t t)
{
	struct tm	tm;
	time_t		tt = (time_t)t;
	char		buf[64];

	if (t == 0 || gmtime_r(&tt, &tm) == NULL)
		return;
	strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
	cJSON_AddStringToObject(o, key, buf);
}

static const char *
qty_text(const struct kube_quantity *q, char *buf, size_t len)
{
	if (q->text != NULL && *q->text != '\0')
		return q->text;
	return kube_quantity_format(q->milli, buf, len);
}

static void
add_qty(cJSON *o, const char *key, const struct kube_quantity *q)
{
	char	buf[64];

	cJSON_AddStringToObject(o, key, qty_text(q, buf, sizeof buf));
}

static cJSON *
str_array(const char *const *v, size_t n)
{
	cJSON	*a;
	size_t	 i;

	a = cJSON_CreateArray();
	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(v[i]));
	return a;
}

static void
add_kv(cJSON *o, const char *key, const struct kube_kv *kv, size_t n)
{
	cJSON	*m;
	size_t	 i;

	if (n == 0)
		return;
	m = cJSON_AddObjectToObject(o, key);
	for (i = 0; i < n; i++)
		cJSON_AddStringToObject(m, kv[i].key, kv[i].value != NULL ?
		    kv[i].value : "");
}

static cJSON *
new_object(const char *api_version, const char *kind)
{
	cJSON	*o;

	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "apiVersion", api_version);
	cJSON_AddStringToObject(o, "kind", kind);
	return o;
}

static void
add_meta(cJSON *o, const struct kube_meta *m)
{
	cJSON	*md, *refs, *r;
	size_t	 i;

	md = cJSON_AddObjectToObject(o, "metadata");
	add_str(md, "name", m->name);
	add_str(md, "namespace", m->namespace);
	add_str(md, "uid", m->uid);
	add_str(md, "resourceVersion", m->resource_version);
	if (m->generation != 0)
		add_num(md, "generation", m->generation);
	add_time(md, "creationTimestamp", m->created);
	add_time(md, "deletionTimestamp", m->deleted);
	add_kv(md, "labels", m->labels, m->nlabels);
	add_kv(md, "annotations", m->annotations, m->nannotations);
	if (m->nowners > 0) {
		refs = cJSON_AddArrayToObject(md, "ownerReferences");
		for (i = 0; i < m->nowners; i++) {
			r = cJSON_CreateObject();
			add_str(r, "kind", m->owners[i].kind);
			add_str(r, "name", m->owners[i].name);
			add_str(r, "uid", m->owners[i].uid);
			cJSON_AddItemToArray(refs, r);
		}
	}
}

/* One NodeSelectorRequirement list of a term. */
static void
add_reqs(cJSON *term, const char *kind,
    const struct kube_node_selector_req *r, size_t n)
{
	cJSON	*arr, *req;
	size_t	 i;

	if (n == 0)
		return;
	arr = cJSON_AddArrayToObject(term, kind);
	for (i = 0; i < n; i++) {
		req = cJSON_CreateObject();
		add_str(req, "key", r[i].key);
		add_str(req, "operator", r[i].op);
		if (r[i].nvalues > 0)
			cJSON_AddItemToObject(req, "values",
			    str_array(r[i].values, r[i].nvalues));
		cJSON_AddItemToArray(arr, req);
	}
}

/* A NodeSelector from the terms the decoder kept whole. */
static cJSON *
node_selector(const struct kube_node_selector *ns)
{
	cJSON	*sel, *terms, *term;
	size_t	 i;

	sel = cJSON_CreateObject();
	terms = cJSON_AddArrayToObject(sel, "nodeSelectorTerms");
	for (i = 0; i < ns->nterms; i++) {
		term = cJSON_CreateObject();
		add_reqs(term, "matchExpressions", ns->terms[i].exprs,
		    ns->terms[i].nexprs);
		add_reqs(term, "matchFields", ns->terms[i].fields,
		    ns->terms[i].nfields);
		cJSON_AddItemToArray(terms, term);
	}
	return sel;
}

static void
qualified(const char *domain, const char *id, const char *driver,
    char *buf, size_t len)
{
	if (domain == NULL || *domain == '\0' ||
	    (driver != NULL && strcmp(domain, driver) == 0))
		snprintf(buf, len, "%s", id);
	else
		snprintf(buf, len, "%s/%s", domain, id);
}

static cJSON *
attr_json(const struct kube_attr *a)
{
	cJSON	*o, *l;
	size_t	 i;

	o = cJSON_CreateObject();
	switch (a->type) {
	case KUBE_ATTR_INT:
		add_num(o, "int", a->i);
		break;
	case KUBE_ATTR_BOOL:
		cJSON_AddBoolToObject(o, "bool", a->i != 0);
		break;
	case KUBE_ATTR_STRING:
		cJSON_AddStringToObject(o, "string", a->s != NULL ? a->s : "");
		break;
	case KUBE_ATTR_VERSION:
		cJSON_AddStringToObject(o, "version", a->s != NULL ?
		    a->s : "");
		break;
	case KUBE_ATTR_INTS:
		l = cJSON_AddArrayToObject(o, "ints");
		for (i = 0; i < a->nlist; i++)
			cJSON_AddItemToArray(l,
			    num(strtoll(a->list[i], NULL, 10)));
		break;
	case KUBE_ATTR_BOOLS:
		l = cJSON_AddArrayToObject(o, "bools");
		for (i = 0; i < a->nlist; i++)
			cJSON_AddItemToArray(l, cJSON_CreateBool(
			    strcmp(a->list[i], "true") == 0));
		break;
	case KUBE_ATTR_STRINGS:
		cJSON_AddItemToObject(o, "strings",
		    str_array(a->list, a->nlist));
		break;
	case KUBE_ATTR_VERSIONS:
		cJSON_AddItemToObject(o, "versions",
		    str_array(a->list, a->nlist));
		break;
	}
	return o;
}

static cJSON *
counters_json(const struct kube_counter *c, size_t n)
{
	cJSON	*m, *v;
	size_t	 i;

	m = cJSON_CreateObject();
	for (i = 0; i < n; i++) {
		v = cJSON_CreateObject();
		add_qty(v, "value", &c[i].value);
		cJSON_AddItemToObject(m, c[i].name, v);
	}
	return m;
}

static cJSON *
taint_json(const struct kube_taint *t)
{
	cJSON	*o;

	o = cJSON_CreateObject();
	add_str(o, "key", t->key);
	if (t->value != NULL && *t->value != '\0')
		add_str(o, "value", t->value);
	add_str(o, "effect", t->effect_text);
	add_str(o, "timeAdded", t->time_added);
	return o;
}

static cJSON *
policy_json(const struct kube_request_policy *p)
{
	cJSON	*o, *a, *r;
	char	 buf[64];
	size_t	 i;

	o = cJSON_CreateObject();
	if (p->has_default)
		add_qty(o, "default", &p->def);
	if (p->nvalid_values > 0) {
		a = cJSON_AddArrayToObject(o, "validValues");
		for (i = 0; i < p->nvalid_values; i++)
			cJSON_AddItemToArray(a, cJSON_CreateString(qty_text(
			    &p->valid_values[i], buf, sizeof buf)));
	}
	if (p->has_range) {
		r = cJSON_AddObjectToObject(o, "validRange");
		add_qty(r, "min", &p->min);
		if (p->has_max)
			add_qty(r, "max", &p->max);
		if (p->has_step)
			add_qty(r, "step", &p->step);
	}
	return o;
}

static cJSON *
device_json(const struct kube_slice *sl, const struct kube_device *d)
{
	cJSON	*o, *m, *v, *a, *e;
	char	 key[512];
	size_t	 i;

	o = cJSON_CreateObject();
	add_str(o, "name", d->name);
	if (d->nattrs > 0) {
		m = cJSON_AddObjectToObject(o, "attributes");
		for (i = 0; i < d->nattrs; i++) {
			qualified(d->attrs[i].domain, d->attrs[i].id,
			    sl->driver, key, sizeof key);
			cJSON_AddItemToObject(m, key, attr_json(&d->attrs[i]));
		}
	}
	if (d->ncapacity > 0) {
		m = cJSON_AddObjectToObject(o, "capacity");
		for (i = 0; i < d->ncapacity; i++) {
			qualified(d->capacity[i].domain, d->capacity[i].id,
			    sl->driver, key, sizeof key);
			v = cJSON_CreateObject();
			add_qty(v, "value", &d->capacity[i].value);
			if (d->capacity[i].policy != NULL)
				cJSON_AddItemToObject(v, "requestPolicy",
				    policy_json(d->capacity[i].policy));
			cJSON_AddItemToObject(m, key, v);
		}
	}
	if (d->nconsumes > 0) {
		a = cJSON_AddArrayToObject(o, "consumesCounters");
		for (i = 0; i < d->nconsumes; i++) {
			e = cJSON_CreateObject();
			add_str(e, "counterSet", d->consumes[i].counter_set);
			cJSON_AddItemToObject(e, "counters", counters_json(
			    d->consumes[i].counters,
			    d->consumes[i].ncounters));
			if (d->consumes[i].ncompat_groups > 0)
				cJSON_AddItemToObject(e, "compatibilityGroups",
				    str_array(d->consumes[i].compat_groups,
				    d->consumes[i].ncompat_groups));
			cJSON_AddItemToArray(a, e);
		}
	}
	add_str(o, "nodeName", sl->per_device_node_selection ?
	    d->node_name : NULL);
	if (sl->per_device_node_selection && d->node_selector != NULL)
		cJSON_AddItemToObject(o, "nodeSelector",
		    node_selector(d->node_selector));
	if (sl->per_device_node_selection && d->all_nodes)
		cJSON_AddTrueToObject(o, "allNodes");
	if (d->nslice_taints > 0) {
		a = cJSON_AddArrayToObject(o, "taints");
		for (i = 0; i < d->nslice_taints; i++)
			cJSON_AddItemToArray(a, taint_json(&d->taints[i]));
	}
	if (d->binds_to_node)
		cJSON_AddTrueToObject(o, "bindsToNode");
	if (d->nbinding_conditions > 0)
		cJSON_AddItemToObject(o, "bindingConditions",
		    str_array(d->binding_conditions, d->nbinding_conditions));
	if (d->allow_multiple)
		cJSON_AddTrueToObject(o, "allowMultipleAllocations");
	return o;
}

static cJSON *
encode_slice(const struct kube_slice *sl)
{
	cJSON	*o, *spec, *pool, *a, *e;
	size_t	 i;

	o = new_object(DRA_GROUP_VERSION, "ResourceSlice");
	add_meta(o, &sl->meta);
	spec = cJSON_AddObjectToObject(o, "spec");
	add_str(spec, "driver", sl->driver);
	pool = cJSON_AddObjectToObject(spec, "pool");
	add_str(pool, "name", sl->pool_name);
	add_num(pool, "generation", sl->generation);
	add_num(pool, "resourceSliceCount", sl->slice_count);
	add_str(spec, "nodeName", sl->node_name);
	if (sl->node_selector != NULL)
		cJSON_AddItemToObject(spec, "nodeSelector",
		    node_selector(sl->node_selector));
	if (sl->all_nodes)
		cJSON_AddTrueToObject(spec, "allNodes");
	if (sl->per_device_node_selection)
		cJSON_AddTrueToObject(spec, "perDeviceNodeSelection");
	if (sl->ndevices > 0) {
		a = cJSON_AddArrayToObject(spec, "devices");
		for (i = 0; i < sl->ndevices; i++)
			cJSON_AddItemToArray(a, device_json(sl,
			    &sl->devices[i]));
	}
	if (sl->ncounter_sets > 0) {
		a = cJSON_AddArrayToObject(spec, "sharedCounters");
		for (i = 0; i < sl->ncounter_sets; i++) {
			e = cJSON_CreateObject();
			add_str(e, "name", sl->counter_sets[i].name);
			cJSON_AddItemToObject(e, "counters", counters_json(
			    sl->counter_sets[i].counters,
			    sl->counter_sets[i].ncounters));
			cJSON_AddItemToArray(a, e);
		}
	}
	return o;
}

static cJSON *
selectors_json(const char *const *sel, size_t n)
{
	cJSON	*a, *e, *cel;
	size_t	 i;

	a = cJSON_CreateArray();
	for (i = 0; i < n; i++) {
		e = cJSON_CreateObject();
		cel = cJSON_AddObjectToObject(e, "cel");
		cJSON_AddStringToObject(cel, "expression", sel[i]);
		cJSON_AddItemToArray(a, e);
	}
	return a;
}

static void
device_request_fields(cJSON *o, const struct kube_device_request *r,
    int sub)
{
	cJSON	*a, *t, *cap, *reqs;
	char	 key[512];
	size_t	 i;

	if (sub)
		add_str(o, "name", r->name);
	add_str(o, "deviceClassName", r->class_name);
	if (r->nselectors > 0)
		cJSON_AddItemToObject(o, "selectors",
		    selectors_json(r->selectors, r->nselectors));
	add_str(o, "allocationMode", r->mode_text != NULL ? r->mode_text :
	    r->mode == KUBE_MODE_ALL ? "All" : "ExactCount");
	if (r->mode == KUBE_MODE_EXACT_COUNT)
		add_num(o, "count", r->count);
	if (r->admin_access)
		cJSON_AddTrueToObject(o, "adminAccess");
	if (r->ntolerations > 0) {
		a = cJSON_AddArrayToObject(o, "tolerations");
		for (i = 0; i < r->ntolerations; i++) {
			t = cJSON_CreateObject();
			add_str(t, "key", r->tolerations[i].key);
			add_str(t, "operator", r->tolerations[i].operator);
			add_str(t, "value", r->tolerations[i].value);
			add_str(t, "effect", r->tolerations[i].effect);
			if (r->tolerations[i].seconds >= 0)
				add_num(t, "tolerationSeconds",
				    r->tolerations[i].seconds);
			cJSON_AddItemToArray(a, t);
		}
	}
	if (r->ncapacity > 0) {
		cap = cJSON_AddObjectToObject(o, "capacity");
		reqs = cJSON_AddObjectToObject(cap, "requests");
		for (i = 0; i < r->ncapacity; i++) {
			qualified(r->capacity[i].domain, r->capacity[i].id,
			    NULL, key, sizeof key);
			add_qty(reqs, key, &r->capacity[i].value);
		}
	}
}

static cJSON *
claim_spec_json(const struct kube_claim_spec *cs)
{
	cJSON			*spec, *devs, *a, *r, *fa, *e;
	const struct kube_request *rq;
	size_t			 i, j;

	spec = cJSON_CreateObject();
	devs = cJSON_AddObjectToObject(spec, "devices");
	if (cs->nrequests > 0) {
		a = cJSON_AddArrayToObject(devs, "requests");
		for (i = 0; i < cs->nrequests; i++) {
			rq = &cs->requests[i];
			r = cJSON_CreateObject();
			add_str(r, "name", rq->name);
			if (rq->exactly != NULL)
				device_request_fields(cJSON_AddObjectToObject(
				    r, "exactly"), rq->exactly, 0);
			if (rq->nfirst_available > 0) {
				fa = cJSON_AddArrayToObject(r,
				    "firstAvailable");
				for (j = 0; j < rq->nfirst_available; j++) {
					e = cJSON_CreateObject();
					device_request_fields(e,
					    &rq->first_available[j], 1);
					cJSON_AddItemToArray(fa, e);
				}
			}
			cJSON_AddItemToArray(a, r);
		}
	}
	if (cs->nconstraints > 0) {
		a = cJSON_AddArrayToObject(devs, "constraints");
		for (i = 0; i < cs->nconstraints; i++) {
			e = cJSON_CreateObject();
			if (cs->constraints[i].nrequests > 0)
				cJSON_AddItemToObject(e, "requests", str_array(
				    cs->constraints[i].requests,
				    cs->constraints[i].nrequests));
			add_str(e, "matchAttribute",
			    cs->constraints[i].match_attribute);
			add_str(e, "distinctAttribute",
			    cs->constraints[i].distinct_attribute);
			cJSON_AddItemToArray(a, e);
		}
	}
	return spec;
}

static cJSON *
encode_claim(const struct kube_claim *c)
{
	cJSON				*o, *st, *al, *devs, *res, *r, *m, *a;
	const struct kube_result	*kr;
	char				 key[512];
	size_t				 i, j;

	o = new_object(DRA_GROUP_VERSION, "ResourceClaim");
	add_meta(o, &c->meta);
	cJSON_AddItemToObject(o, "spec", claim_spec_json(&c->spec));
	if (!c->allocated && c->nreserved == 0)
		return o;
	st = cJSON_AddObjectToObject(o, "status");
	if (c->allocated) {
		al = cJSON_AddObjectToObject(st, "allocation");
		devs = cJSON_AddObjectToObject(al, "devices");
		res = cJSON_AddArrayToObject(devs, "results");
		for (i = 0; i < c->nresults; i++) {
			kr = &c->results[i];
			r = cJSON_CreateObject();
			add_str(r, "request", kr->request);
			add_str(r, "driver", kr->driver);
			add_str(r, "pool", kr->pool);
			add_str(r, "device", kr->device);
			if (kr->admin_access)
				cJSON_AddTrueToObject(r, "adminAccess");
			add_str(r, "shareID", kr->share_id);
			if (kr->nconsumed > 0) {
				m = cJSON_AddObjectToObject(r,
				    "consumedCapacity");
				for (j = 0; j < kr->nconsumed; j++) {
					qualified(kr->consumed[j].domain,
					    kr->consumed[j].id, kr->driver,
					    key, sizeof key);
					add_qty(m, key,
					    &kr->consumed[j].value);
				}
			}
			cJSON_AddItemToArray(res, r);
		}
		if (c->alloc_nodes != NULL)
			cJSON_AddItemToObject(al, "nodeSelector",
			    node_selector(c->alloc_nodes));
	}
	if (c->nreserved > 0) {
		a = cJSON_AddArrayToObject(st, "reservedFor");
		for (i = 0; i < c->nreserved; i++) {
			r = cJSON_CreateObject();
			add_str(r, "resource", c->reserved[i].resource);
			add_str(r, "name", c->reserved[i].name);
			add_str(r, "uid", c->reserved[i].uid);
			cJSON_AddItemToArray(a, r);
		}
	}
	return o;
}

static cJSON *
encode_template(const struct kube_claim_template *t)
{
	cJSON	*o, *spec;

	o = new_object(DRA_GROUP_VERSION, "ResourceClaimTemplate");
	add_meta(o, &t->meta);
	spec = cJSON_AddObjectToObject(o, "spec");
	cJSON_AddItemToObject(spec, "spec", claim_spec_json(&t->spec));
	return o;
}

static cJSON *
encode_class(const struct kube_device_class *dc)
{
	cJSON	*o, *spec;

	o = new_object(DRA_GROUP_VERSION, "DeviceClass");
	add_meta(o, &dc->meta);
	spec = cJSON_AddObjectToObject(o, "spec");
	if (dc->nselectors > 0)
		cJSON_AddItemToObject(spec, "selectors",
		    selectors_json(dc->selectors, dc->nselectors));
	add_str(spec, "extendedResourceName", dc->extended_resource_name);
	return o;
}

static cJSON *
encode_taint_rule(const struct kube_taint_rule *tr)
{
	cJSON	*o, *spec, *sel;

	o = new_object(DRA_GROUP_VERSION, "DeviceTaintRule");
	add_meta(o, &tr->meta);
	spec = cJSON_AddObjectToObject(o, "spec");
	if (tr->has_selector) {
		sel = cJSON_AddObjectToObject(spec, "deviceSelector");
		add_str(sel, "driver", tr->driver);
		add_str(sel, "pool", tr->pool);
		add_str(sel, "device", tr->device);
	}
	cJSON_AddItemToObject(spec, "taint", taint_json(&tr->taint));
	return o;
}

static cJSON *
encode_pod(const struct kube_pod *p)
{
	cJSON	*o, *spec, *st, *a, *e;
	size_t	 i, n;

	o = new_object("v1", "Pod");
	add_meta(o, &p->meta);
	spec = cJSON_AddObjectToObject(o, "spec");
	add_str(spec, "nodeName", p->node_name);
	add_kv(spec, "nodeSelector", p->node_selector, p->nnode_selector);
	if (p->affinity != NULL)
		cJSON_AddItemToObject(cJSON_AddObjectToObject(
		    cJSON_AddObjectToObject(spec, "affinity"), "nodeAffinity"),
		    "requiredDuringSchedulingIgnoredDuringExecution",
		    node_selector(p->affinity));
	if (p->nclaims > 0) {
		a = cJSON_AddArrayToObject(spec, "resourceClaims");
		for (i = 0; i < p->nclaims; i++) {
			e = cJSON_CreateObject();
			add_str(e, "name", p->claims[i].name);
			add_str(e, "resourceClaimName",
			    p->claims[i].claim_name);
			add_str(e, "resourceClaimTemplateName",
			    p->claims[i].template_name);
			cJSON_AddItemToArray(a, e);
		}
	}
	st = cJSON_AddObjectToObject(o, "status");
	add_str(st, "phase", p->phase);
	if (p->unschedulable != NULL) {
		a = cJSON_AddArrayToObject(st, "conditions");
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "type", "PodScheduled");
		cJSON_AddStringToObject(e, "status", "False");
		cJSON_AddStringToObject(e, "reason", "Unschedulable");
		cJSON_AddStringToObject(e, "message", p->unschedulable);
		cJSON_AddItemToArray(a, e);
	}
	for (i = n = 0; i < p->nclaims; i++)
		n += p->claims[i].status_name != NULL;
	if (n > 0) {
		a = cJSON_AddArrayToObject(st, "resourceClaimStatuses");
		for (i = 0; i < p->nclaims; i++) {
			if (p->claims[i].status_name == NULL)
				continue;
			e = cJSON_CreateObject();
			add_str(e, "name", p->claims[i].name);
			add_str(e, "resourceClaimName",
			    p->claims[i].status_name);
			cJSON_AddItemToArray(a, e);
		}
	}
	return o;
}

static cJSON *
encode_node(const struct kube_node *n)
{
	cJSON	*o, *spec, *st, *a, *e;

	o = new_object("v1", "Node");
	add_meta(o, &n->meta);
	spec = cJSON_AddObjectToObject(o, "spec");
	if (n->unschedulable)
		cJSON_AddTrueToObject(spec, "unschedulable");
	st = cJSON_AddObjectToObject(o, "status");
	add_kv(st, "allocatable", n->allocatable, n->nallocatable);
	a = cJSON_AddArrayToObject(st, "conditions");
	e = cJSON_CreateObject();
	cJSON_AddStringToObject(e, "type", "Ready");
	cJSON_AddStringToObject(e, "status", kube_node_ready_text(n));
	cJSON_AddItemToArray(a, e);
	return o;
}

static cJSON *
encode_namespace(const struct kube_namespace *ns)
{
	cJSON	*o;

	o = new_object("v1", "Namespace");
	add_meta(o, &ns->meta);
	return o;
}

static cJSON *
encode_quota(const struct kube_quota *q)
{
	cJSON	*o, *spec, *st;

	o = new_object("v1", "ResourceQuota");
	add_meta(o, &q->meta);
	spec = cJSON_AddObjectToObject(o, "spec");
	add_kv(spec, "hard", q->hard, q->nhard);
	if (q->nused > 0) {
		st = cJSON_AddObjectToObject(o, "status");
		add_kv(st, "hard", q->hard, q->nhard);
		add_kv(st, "used", q->used, q->nused);
	}
	return o;
}

cJSON *
kube_encode(const char *kind, const void *obj)
{
	if (kind == NULL || obj == NULL)
		return NULL;
	if (strcmp(kind, "ResourceSlice") == 0)
		return encode_slice(obj);
	if (strcmp(kind, "ResourceClaim") == 0)
		return encode_claim(obj);
	if (strcmp(kind, "ResourceClaimTemplate") == 0)
		return encode_template(obj);
	if (strcmp(kind, "DeviceClass") == 0)
		return encode_class(obj);
	if (strcmp(kind, "DeviceTaintRule") == 0)
		return encode_taint_rule(obj);
	if (strcmp(kind, "Pod") == 0)
		return encode_pod(obj);
	if (strcmp(kind, "Node") == 0)
		return encode_node(obj);
	if (strcmp(kind, "Namespace") == 0)
		return encode_namespace(obj);
	if (strcmp(kind, "ResourceQuota") == 0)
		return encode_quota(obj);
	return NULL;
}
