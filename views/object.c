/*
 * object.c: rows as objects, for -o json|yaml.
 *
 * API kinds go through kube_encode(), so an object read through
 * v1beta1 prints in its v1 shape.  Devices and pools are not API
 * kinds; they print as the plugin's own objects, version
 * dra.kubectl.io/v1alpha1:
 *
 *   kind: Device
 *   driver, pool, name      the device ID driver/pool/name
 *   node                    node it is usable from (absent: network)
 *   slice                   the ResourceSlice publishing it
 *   state                   [free|allocated|admin|shared|blocked|
 *                            tainted|unusable]
 *   blockedBy               "set/counter" when blocked
 *   claims                  [{namespace, name, request, adminAccess?,
 *                            shareID?}] holding it
 *   attributes              {"domain/id": value} (int, bool, string,
 *                            version string, or lists of those)
 *   capacity                {"domain/id": {value, used?}} quantities
 *   counters                [{counterSet, counters: {name: quantity}}]
 *                            consumed from shared counter sets
 *   taints                  [{key, value?, effect, rule?}]
 *
 *   kind: Pool
 *   driver, name, node      node when every slice is on one node
 *   generation              newest generation seen
 *   resourceSliceCount      slices the pool says it has
 *   slices                  names of the slices at that generation
 *   staleSlices             how many slices have older generations
 *   complete                bool
 *   invalid                 why the pool is invalid (absent if valid)
 *   devices, allocated, available, blocked, tainted    counts
 *   counterSets             [{name, slice, counters: {name: {total,
 *                            used}}}] quantities
 */
#include "views.h"
#include "views-int.h"

#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "snapshot.h"

#define VIEW_API_VERSION	"dra.kubectl.io/v1alpha1"

static void
qualified(const struct kube_device *d, const char *domain, const char *id,
    char *buf, size_t len)
{
	if (domain == NULL || *domain == '\0' ||
	    (d->slice != NULL && strcmp(domain, d->slice->driver) == 0))
		snprintf(buf, len, "%s", id);
	else
		snprintf(buf, len, "%s/%s", domain, id);
}

static cJSON *
attr_value(const struct kube_attr *a)
{
	cJSON	*arr;
	size_t	 i;

	switch (a->type) {
	case KUBE_ATTR_INT:
		return cJSON_CreateNumber((double)a->i);
	case KUBE_ATTR_BOOL:
		return cJSON_CreateBool(a->i != 0);
	case KUBE_ATTR_STRING:
	case KUBE_ATTR_VERSION:
		return cJSON_CreateString(a->s != NULL ? a->s : "");
	default:
		arr = cJSON_CreateArray();
		for (i = 0; i < a->nlist; i++)
			cJSON_AddItemToArray(arr,
			    cJSON_CreateString(a->list[i]));
		return arr;
	}
}

static void
add_state(cJSON *arr, const struct kube_device *d)
{
	if ((d->state & KUBE_DEV_SHARED) && d->nallocs > 0)
		cJSON_AddItemToArray(arr, cJSON_CreateString("shared"));
	else if (d->state & KUBE_DEV_ALLOCATED)
		cJSON_AddItemToArray(arr, cJSON_CreateString("allocated"));
	else if (d->state & KUBE_DEV_ADMIN)
		cJSON_AddItemToArray(arr, cJSON_CreateString("admin"));
	else if (d->state & KUBE_DEV_BLOCKED)
		cJSON_AddItemToArray(arr, cJSON_CreateString("blocked"));
	else if (!(d->state & (KUBE_DEV_TAINTED | KUBE_DEV_UNUSABLE)))
		cJSON_AddItemToArray(arr, cJSON_CreateString("free"));
	if (d->state & KUBE_DEV_TAINTED)
		cJSON_AddItemToArray(arr, cJSON_CreateString("tainted"));
	if (d->state & KUBE_DEV_UNUSABLE)
		cJSON_AddItemToArray(arr, cJSON_CreateString("unusable"));
}

cJSON *
dra_device_object(const struct kube_device *d)
{
	cJSON				*o, *arr, *m, *e, *cm;
	const struct kube_result	*r;
	const struct kube_claim		*c;
	const struct kube_taint		*tt;
	char				 key[512], q[64];
	const char			*node;
	size_t				 i, j;

	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "apiVersion", VIEW_API_VERSION);
	cJSON_AddStringToObject(o, "kind", "Device");
	cJSON_AddStringToObject(o, "driver", d->slice->driver);
	cJSON_AddStringToObject(o, "pool", d->slice->pool_name);
	cJSON_AddStringToObject(o, "name", d->name);
	node = kube_device_node(d);
	if (node != NULL)
		cJSON_AddStringToObject(o, "node", node);
	cJSON_AddStringToObject(o, "slice", d->slice->meta.name);
	arr = cJSON_AddArrayToObject(o, "state");
	add_state(arr, d);
	if ((d->state & KUBE_DEV_BLOCKED) && d->blocked_by != NULL)
		cJSON_AddStringToObject(o, "blockedBy", d->blocked_by);
	arr = cJSON_AddArrayToObject(o, "claims");
	for (i = 0; i < d->nallocs; i++) {
		c = d->allocs[i].claim;
		r = &c->results[d->allocs[i].result];
		e = cJSON_CreateObject();
		if (c->meta.namespace != NULL)
			cJSON_AddStringToObject(e, "namespace",
			    c->meta.namespace);
		cJSON_AddStringToObject(e, "name", c->meta.name);
		cJSON_AddStringToObject(e, "request", r->request);
		if (r->admin_access)
			cJSON_AddTrueToObject(e, "adminAccess");
		if (r->share_id != NULL)
			cJSON_AddStringToObject(e, "shareID", r->share_id);
		cJSON_AddItemToArray(arr, e);
	}
	m = cJSON_AddObjectToObject(o, "attributes");
	for (i = 0; i < d->nattrs; i++) {
		qualified(d, d->attrs[i].domain, d->attrs[i].id, key,
		    sizeof key);
		cJSON_AddItemToObject(m, key, attr_value(&d->attrs[i]));
	}
	m = cJSON_AddObjectToObject(o, "capacity");
	for (i = 0; i < d->ncapacity; i++) {
		qualified(d, d->capacity[i].domain, d->capacity[i].id, key,
		    sizeof key);
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "value",
		    view_qty_text(&d->capacity[i].value, q, sizeof q));
		if (d->capacity_used != NULL && d->capacity_used[i] != 0)
			cJSON_AddStringToObject(e, "used",
			    view_qty(d->capacity_used[i], q, sizeof q));
		cJSON_AddItemToObject(m, key, e);
	}
	arr = cJSON_AddArrayToObject(o, "counters");
	for (i = 0; i < d->nconsumes; i++) {
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "counterSet",
		    d->consumes[i].counter_set);
		cm = cJSON_AddObjectToObject(e, "counters");
		for (j = 0; j < d->consumes[i].ncounters; j++)
			cJSON_AddStringToObject(cm,
			    d->consumes[i].counters[j].name,
			    view_qty_text(&d->consumes[i].counters[j].value,
			    q, sizeof q));
		cJSON_AddItemToArray(arr, e);
	}
	arr = cJSON_AddArrayToObject(o, "taints");
	for (i = 0; i < d->ntaints; i++) {
		tt = &d->taints[i];
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "key", tt->key != NULL ?
		    tt->key : "");
		if (tt->value != NULL && *tt->value != '\0')
			cJSON_AddStringToObject(e, "value", tt->value);
		cJSON_AddStringToObject(e, "effect", tt->effect_text != NULL ?
		    tt->effect_text : "None");
		if (tt->rule != NULL)
			cJSON_AddStringToObject(e, "rule", tt->rule);
		cJSON_AddItemToArray(arr, e);
	}
	return o;
}

cJSON *
dra_pool_object(const struct kube_pool *p)
{
	cJSON				*o, *arr, *e, *cm, *ce;
	const struct kube_slice		*sl;
	const struct kube_counter_set	*cs;
	char				 q[64];
	struct view_pool_counts		 pc;
	size_t				 i, j, k;

	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "apiVersion", VIEW_API_VERSION);
	cJSON_AddStringToObject(o, "kind", "Pool");
	cJSON_AddStringToObject(o, "driver", p->driver);
	cJSON_AddStringToObject(o, "name", p->name);
	if (p->node_name != NULL)
		cJSON_AddStringToObject(o, "node", p->node_name);
	cJSON_AddNumberToObject(o, "generation", (double)p->generation);
	cJSON_AddNumberToObject(o, "resourceSliceCount",
	    (double)p->slice_count);
	arr = cJSON_AddArrayToObject(o, "slices");
	for (i = 0; i < p->nslices; i++)
		cJSON_AddItemToArray(arr,
		    cJSON_CreateString(p->slices[i]->meta.name));
	cJSON_AddNumberToObject(o, "staleSlices", (double)p->nstale);
	cJSON_AddBoolToObject(o, "complete", p->complete);
	if (p->invalid != NULL)
		cJSON_AddStringToObject(o, "invalid", p->invalid);
	view_pool_counts(p, &pc);
	cJSON_AddNumberToObject(o, "devices", (double)pc.devices);
	cJSON_AddNumberToObject(o, "allocated", (double)pc.allocated);
	cJSON_AddNumberToObject(o, "available", (double)pc.available);
	cJSON_AddNumberToObject(o, "blocked", (double)pc.blocked);
	cJSON_AddNumberToObject(o, "tainted", (double)pc.tainted);
	arr = cJSON_AddArrayToObject(o, "counterSets");
	for (i = 0; i < p->nslices; i++) {
		sl = p->slices[i];
		for (j = 0; j < sl->ncounter_sets; j++) {
			cs = &sl->counter_sets[j];
			e = cJSON_CreateObject();
			cJSON_AddStringToObject(e, "name", cs->name);
			cJSON_AddStringToObject(e, "slice", sl->meta.name);
			cm = cJSON_AddObjectToObject(e, "counters");
			for (k = 0; k < cs->ncounters; k++) {
				ce = cJSON_CreateObject();
				cJSON_AddStringToObject(ce, "total",
				    view_qty_text(&cs->counters[k].value, q,
				    sizeof q));
				cJSON_AddStringToObject(ce, "used",
				    view_qty(cs->consumed != NULL ?
				    cs->consumed[k] : 0, q, sizeof q));
				cJSON_AddItemToObject(cm, cs->counters[k].name,
				    ce);
			}
			cJSON_AddItemToArray(arr, e);
		}
	}
	return o;
}

cJSON *
dra_row_object(const struct kube_snapshot *s, const struct dra_table *t,
    const struct dra_row *row)
{
	cJSON	*o, *m;

	(void)s;
	switch (t->kind) {
	case DRA_KIND_DEVICE:
		return dra_device_object(row->obj);
	case DRA_KIND_POOL:
		return dra_pool_object(row->obj);
	case DRA_KIND_NODE:
		if (row->obj != NULL)
			return kube_encode("Node", row->obj);
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "apiVersion", "v1");
		cJSON_AddStringToObject(o, "kind", "Node");
		m = cJSON_AddObjectToObject(o, "metadata");
		cJSON_AddStringToObject(m, "name", row->node_name);
		return o;
	default:
		return kube_encode(dra_kinds[t->kind].api_kind, row->obj);
	}
}
