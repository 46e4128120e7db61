/*
 * plan-read.c: a Plan document read back and checked (plan-int.h),
 * for the table and the SVG, and the small output helpers they share.
 *
 * Every field the renderers use is checked for its type and range
 * here, and the first bad one is named by its path in the document
 * ("status.layout[2].gpus[0].instances[1].profile: expected a
 * string"), so the renderers can trust what they get.  Fields the
 * renderers do not use are not checked: a document from a newer
 * version with more fields still renders.
 */
#include "plan-int.h"
#include "plan.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "xmalloc.h"

/* Longest field path kept in a message. */
#define RD_PATH	512

/* A reader: the error record and whether a field failed. */
struct rd {
	struct dra_err	*err;
	int		 rc;
};

static int	 rd_fail(struct rd *, const char *, const char *, ...)
		    __attribute__((format(printf, 3, 4)));
static void	 rd_path(char *, const char *, const char *);
static void	 rd_pathf(char *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
static const cJSON *rd_get(struct rd *, const cJSON *, const char *,
		    const char *, int);
static const cJSON *rd_obj(struct rd *, const cJSON *, const char *,
		    const char *, int);
static const cJSON *rd_arr(struct rd *, const cJSON *, const char *,
		    const char *, int);
static const char *rd_str(struct rd *, const cJSON *, const char *,
		    const char *, int);
static int64_t	 rd_int(struct rd *, const cJSON *, const char *,
		    const char *, int, int64_t, int64_t, int64_t);
static double	 rd_num(struct rd *, const cJSON *, const char *,
		    const char *, int);
static int	 rd_bool(struct rd *, const cJSON *, const char *,
		    const char *);
static void	 rd_summary(struct rd *, const cJSON *, struct pv_doc *);
static void	 rd_teams(struct rd *, const cJSON *, struct pv_doc *);
static void	 rd_inst(struct rd *, const cJSON *, const char *,
		    struct pv_gpu *, struct pv_inst *);
static void	 rd_layout(struct rd *, const cJSON *, struct pv_doc *);

static int
rd_fail(struct rd *r, const char *path, const char *fmt, ...)
{
	char	msg[DRA_ERR_MSG_MAX];
	va_list	ap;

	if (r->rc != KUBE_OK)
		return r->rc;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (*path != '\0')
		dra_err_set(r->err, KUBE_E_PARSE, "%s: %s", path, msg);
	else
		dra_err_set(r->err, KUBE_E_PARSE, "%s", msg);
	r->rc = KUBE_E_PARSE;
	return r->rc;
}

/* out = path "." key (or key alone at the top). */
static void
rd_path(char *out, const char *path, const char *key)
{
	if (*path == '\0')
		rd_pathf(out, "%s", key);
	else
		rd_pathf(out, "%s.%s", path, key);
}

/* A path into out (RD_PATH bytes), cut short when longer. */
static void
rd_pathf(char *out, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(out, RD_PATH, fmt, ap);
	va_end(ap);
}

/* Member key of o; NULL when absent (a failure when required). */
static const cJSON *
rd_get(struct rd *r, const cJSON *o, const char *path, const char *key,
    int required)
{
	const cJSON	*v;
	char		 p[RD_PATH];

	if (r->rc != KUBE_OK)
		return NULL;
	v = cJSON_GetObjectItemCaseSensitive(o, key);
	if (v == NULL || cJSON_IsNull(v)) {
		if (required) {
			rd_path(p, path, key);
			rd_fail(r, p, "missing");
		}
		return NULL;
	}
	return v;
}

static const cJSON *
rd_obj(struct rd *r, const cJSON *o, const char *path, const char *key,
    int required)
{
	const cJSON	*v = rd_get(r, o, path, key, required);
	char		 p[RD_PATH];

	if (v != NULL && !cJSON_IsObject(v)) {
		rd_path(p, path, key);
		rd_fail(r, p, "expected a mapping");
		return NULL;
	}
	return v;
}

static const cJSON *
rd_arr(struct rd *r, const cJSON *o, const char *path, const char *key,
    int required)
{
	const cJSON	*v = rd_get(r, o, path, key, required);
	char		 p[RD_PATH];

	if (v != NULL && !cJSON_IsArray(v)) {
		rd_path(p, path, key);
		rd_fail(r, p, "expected a list");
		return NULL;
	}
	return v;
}

static const char *
rd_str(struct rd *r, const cJSON *o, const char *path, const char *key,
    int required)
{
	const cJSON	*v = rd_get(r, o, path, key, required);
	char		 p[RD_PATH];

	if (v == NULL)
		return NULL;
	if (!cJSON_IsString(v) || v->valuestring == NULL) {
		rd_path(p, path, key);
		rd_fail(r, p, "expected a string");
		return NULL;
	}
	return v->valuestring;
}

/* An integer in [lo, hi]; def when absent and not required. */
static int64_t
rd_int(struct rd *r, const cJSON *o, const char *path, const char *key,
    int required, int64_t lo, int64_t hi, int64_t def)
{
	const cJSON	*v = rd_get(r, o, path, key, required);
	char		 p[RD_PATH];
	double		 d;

	if (v == NULL)
		return def;
	d = v->valuedouble;
	if (!cJSON_IsNumber(v) || isnan(d) || d != floor(d) ||
	    fabs(d) > 9e15) {
		rd_path(p, path, key);
		rd_fail(r, p, "expected an integer");
		return def;
	}
	if (d < (double)lo || d > (double)hi) {
		rd_path(p, path, key);
		rd_fail(r, p, "expected an integer from %lld to %lld, got %.0f",
		    (long long)lo, (long long)hi, d);
		return def;
	}
	return (int64_t)d;
}

static double
rd_num(struct rd *r, const cJSON *o, const char *path, const char *key,
    int required)
{
	const cJSON	*v = rd_get(r, o, path, key, required);
	char		 p[RD_PATH];

	if (v == NULL)
		return 0;
	if (!cJSON_IsNumber(v) || isnan(v->valuedouble) ||
	    isinf(v->valuedouble)) {
		rd_path(p, path, key);
		rd_fail(r, p, "expected a number");
		return 0;
	}
	return v->valuedouble;
}

/* An optional boolean (false when absent). */
static int
rd_bool(struct rd *r, const cJSON *o, const char *path, const char *key)
{
	const cJSON	*v = rd_get(r, o, path, key, 0);
	char		 p[RD_PATH];

	if (v == NULL)
		return 0;
	if (!cJSON_IsBool(v)) {
		rd_path(p, path, key);
		rd_fail(r, p, "expected true or false");
		return 0;
	}
	return cJSON_IsTrue(v);
}

static void
rd_summary(struct rd *r, const cJSON *st, struct pv_doc *d)
{
	const cJSON	*sum, *g, *c, *a, *e;
	char		 p[RD_PATH];
	size_t		 i = 0;

	sum = rd_obj(r, st, "status", "summary", 1);
	g = rd_obj(r, sum, "status.summary", "gpus", 1);
	d->total = rd_int(r, g, "status.summary.gpus", "total", 1, 0,
	    PV_MAX_COUNT, 0);
	d->has_layout = r->rc == KUBE_OK &&
	    cJSON_GetObjectItemCaseSensitive(g, "used") != NULL;
	if (d->has_layout) {
		d->used = rd_int(r, g, "status.summary.gpus", "used", 1, 0,
		    PV_MAX_COUNT, 0);
		d->headroom = rd_int(r, g, "status.summary.gpus", "headroom",
		    1, 0, PV_MAX_COUNT, 0);
		d->idle = rd_int(r, g, "status.summary.gpus", "idle", 1, 0,
		    PV_MAX_COUNT, 0);
		d->rebuilt = rd_int(r, g, "status.summary.gpus", "rebuilt", 0,
		    0, PV_MAX_COUNT, 0);
		d->load = rd_num(r, sum, "status.summary", "load", 1);
		d->utilization = rd_num(r, sum, "status.summary",
		    "utilization", 1);
	}
	c = rd_obj(r, sum, "status.summary", "cost", 1);
	d->currency = rd_str(r, c, "status.summary.cost", "currency", 1);
	d->price = rd_num(r, c, "status.summary.cost", "perGPUMonth", 1);
	d->before = rd_num(r, c, "status.summary.cost", "before", 1);
	if (d->has_layout) {
		d->after = rd_num(r, c, "status.summary.cost", "after", 1);
		d->saving_before = rd_num(r, c, "status.summary.cost",
		    "savingVsBefore", 1);
	}
	d->baseline_order = rd_str(r, c, "status.summary.cost",
	    "baselineOrder", 0);
	if (d->baseline_order != NULL) {
		d->baseline = rd_num(r, c, "status.summary.cost", "baseline",
		    1);
		if (d->has_layout)
			d->saving_baseline = rd_num(r, c,
			    "status.summary.cost", "savingVsBaseline", 1);
	}
	a = rd_arr(r, sum, "status.summary", "baseline", 0);
	if (a == NULL || r->rc != KUBE_OK)
		return;
	d->nbl = (size_t)cJSON_GetArraySize(a);
	d->bl = xcalloc(d->nbl + 1, sizeof *d->bl);
	cJSON_ArrayForEach(e, a) {
		rd_pathf(p, "status.summary.baseline[%zu]", i);
		if (!cJSON_IsObject(e)) {
			rd_fail(r, p, "expected a mapping");
			return;
		}
		d->bl[i].order = rd_str(r, e, p, "order", 1);
		d->bl[i].gpus = rd_int(r, e, p, "gpus", 1, 0, PV_MAX_COUNT, 0);
		d->bl[i].unplaced = rd_int(r, e, p, "unplaced", 1, 0,
		    PV_MAX_COUNT, 0);
		i++;
	}
}

static void
rd_teams(struct rd *r, const cJSON *st, struct pv_doc *d)
{
	const cJSON		*a, *t, *ws, *w, *gs, *g, *q, *h, *kv;
	struct pv_team		*team;
	struct pv_workload	*wl;
	char			 p[RD_PATH], pw[RD_PATH], pg[RD_PATH];
	size_t			 i = 0, j, k;

	a = rd_arr(r, st, "status", "teams", 1);
	if (a == NULL)
		return;
	d->nteams = (size_t)cJSON_GetArraySize(a);
	d->teams = xcalloc(d->nteams + 1, sizeof *d->teams);
	cJSON_ArrayForEach(t, a) {
		if (r->rc != KUBE_OK)
			return;
		team = &d->teams[i];
		rd_pathf(p, "status.teams[%zu]", i++);
		if (!cJSON_IsObject(t)) {
			rd_fail(r, p, "expected a mapping");
			return;
		}
		team->ns = rd_str(r, t, p, "namespace", 1);
		ws = rd_arr(r, t, p, "workloads", 1);
		if (ws == NULL)
			return;
		team->nwl = (size_t)cJSON_GetArraySize(ws);
		team->wl = xcalloc(team->nwl + 1, sizeof *team->wl);
		j = 0;
		cJSON_ArrayForEach(w, ws) {
			wl = &team->wl[j];
			rd_pathf(pw, "%s.workloads[%zu]", p, j++);
			if (!cJSON_IsObject(w)) {
				rd_fail(r, pw, "expected a mapping");
				return;
			}
			wl->name = rd_str(r, w, pw, "name", 1);
			wl->priority_class = rd_str(r, w, pw, "priorityClass",
			    0);
			wl->min = rd_int(r, w, pw, "min", 1, 0, PV_MAX_COUNT,
			    0);
			wl->max = rd_int(r, w, pw, "max", 1, 0, PV_MAX_COUNT,
			    0);
			wl->served = rd_int(r, w, pw, "served", 1, 0,
			    PV_MAX_COUNT, 0);
			wl->devices = rd_int(r, w, pw, "devices", 1, 0,
			    PV_MAX_COUNT, 0);
			gs = rd_arr(r, w, pw, "grants", 0);
			if (gs == NULL)
				continue;
			wl->ngrants = (size_t)cJSON_GetArraySize(gs);
			wl->grants = xcalloc(wl->ngrants + 1,
			    sizeof *wl->grants);
			k = 0;
			cJSON_ArrayForEach(g, gs) {
				rd_pathf(pg, "%s.grants[%zu]", pw,
				    k);
				if (!cJSON_IsObject(g)) {
					rd_fail(r, pg, "expected a mapping");
					return;
				}
				wl->grants[k].model = rd_str(r, g, pg, "model",
				    1);
				wl->grants[k].profile = rd_str(r, g, pg,
				    "profile", 1);
				wl->grants[k].devices = rd_int(r, g, pg,
				    "devices", 1, 0, PV_MAX_COUNT, 0);
				wl->grants[k].replicas = rd_int(r, g, pg,
				    "replicas", 1, 0, PV_MAX_COUNT, 0);
				k++;
			}
		}
		q = rd_obj(r, t, p, "quota", 0);
		if (q == NULL)
			continue;
		rd_pathf(pw, "%s.quota", p);
		h = rd_obj(r, q, pw, "hard", 1);
		if (h == NULL)
			return;
		team->has_quota = 1;
		team->nhard = (size_t)cJSON_GetArraySize(h);
		team->hard = xcalloc(team->nhard + 1, sizeof *team->hard);
		k = 0;
		cJSON_ArrayForEach(kv, h) {
			if (!cJSON_IsString(kv) || kv->valuestring == NULL) {
				rd_pathf(pg, "%s.hard.%s", pw,
				    kv->string != NULL ? kv->string : "");
				rd_fail(r, pg, "expected a string");
				return;
			}
			team->hard[k].key = kv->string != NULL ? kv->string :
			    "";
			team->hard[k].value = kv->valuestring;
			k++;
		}
	}
}

static void
rd_inst(struct rd *r, const cJSON *x, const char *p, struct pv_gpu *g,
    struct pv_inst *in)
{
	const cJSON	*o;
	const char	*kind;
	char		 po[RD_PATH];

	if (!cJSON_IsObject(x)) {
		rd_fail(r, p, "expected a mapping");
		return;
	}
	in->order = rd_int(r, x, p, "order", 1, 0, PV_MAX_COUNT, 0);
	in->device = rd_str(r, x, p, "device", 0);
	in->profile = rd_str(r, x, p, "profile", 1);
	in->start = rd_int(r, x, p, "start", 1, 0, PV_MAX_SLICES - 1, 0);
	in->slices = rd_int(r, x, p, "memorySlices", 1, 1, PV_MAX_SLICES, 1);
	if (r->rc == KUBE_OK && in->start + in->slices > g->slices) {
		rd_fail(r, p, "memory slices %lld to %lld are outside the "
		    "GPU's %lld", (long long)in->start,
		    (long long)(in->start + in->slices - 1),
		    (long long)g->slices);
		return;
	}
	o = rd_obj(r, x, p, "owner", 1);
	rd_pathf(po, "%s.owner", p);
	kind = rd_str(r, o, po, "kind", 1);
	if (kind == NULL)
		return;
	if (strcmp(kind, "workload") == 0) {
		in->kind = PV_OWNER_WORKLOAD;
		in->ns = rd_str(r, o, po, "namespace", 1);
		in->name = rd_str(r, o, po, "workload", 1);
		in->replicas = rd_int(r, o, po, "replicas", 0, 0,
		    PV_MAX_COUNT, 1);
	} else if (strcmp(kind, "running") == 0 ||
	    strcmp(kind, "moved") == 0) {
		in->kind = kind[0] == 'r' ? PV_OWNER_RUNNING : PV_OWNER_MOVED;
		in->ns = rd_str(r, o, po, "namespace", 1);
		in->name = rd_str(r, o, po, "claim", 1);
	} else if (strcmp(kind, "spare") == 0)
		in->kind = PV_OWNER_SPARE;
	else {
		rd_pathf(po, "%s.owner.kind", p);
		rd_fail(r, po, "expected workload, running, moved or spare");
	}
}

static void
rd_layout(struct rd *r, const cJSON *st, struct pv_doc *d)
{
	const cJSON	*a, *n, *gs, *g, *is, *x;
	struct pv_node	*node;
	struct pv_gpu	*gpu;
	const char	*state;
	char		 p[RD_PATH], pg[RD_PATH], pi[RD_PATH];
	size_t		 i = 0, j, k;

	a = rd_arr(r, st, "status", "layout", 0);
	if (a == NULL)
		return;
	d->nnodes = (size_t)cJSON_GetArraySize(a);
	d->nodes = xcalloc(d->nnodes + 1, sizeof *d->nodes);
	cJSON_ArrayForEach(n, a) {
		if (r->rc != KUBE_OK)
			return;
		node = &d->nodes[i];
		rd_pathf(p, "status.layout[%zu]", i++);
		if (!cJSON_IsObject(n)) {
			rd_fail(r, p, "expected a mapping");
			return;
		}
		node->name = rd_str(r, n, p, "node", 1);
		gs = rd_arr(r, n, p, "gpus", 1);
		if (gs == NULL)
			return;
		node->ngpus = (size_t)cJSON_GetArraySize(gs);
		node->gpus = xcalloc(node->ngpus + 1, sizeof *node->gpus);
		d->ngpus += node->ngpus;
		j = 0;
		cJSON_ArrayForEach(g, gs) {
			if (r->rc != KUBE_OK)
				return;
			gpu = &node->gpus[j];
			rd_pathf(pg, "%s.gpus[%zu]", p, j++);
			if (!cJSON_IsObject(g)) {
				rd_fail(r, pg, "expected a mapping");
				return;
			}
			gpu->node = node->name;
			gpu->name = rd_str(r, g, pg, "name", 1);
			gpu->model = rd_str(r, g, pg, "model", 1);
			gpu->mode = rd_str(r, g, pg, "mode", 1);
			state = rd_str(r, g, pg, "state", 1);
			if (state != NULL && strcmp(state, "used") == 0)
				gpu->state = PV_USED;
			else if (state != NULL &&
			    strcmp(state, "headroom") == 0)
				gpu->state = PV_HEADROOM;
			else if (state != NULL && strcmp(state, "idle") == 0)
				gpu->state = PV_IDLE;
			else if (state != NULL) {
				rd_pathf(pi, "%s.state", pg);
				rd_fail(r, pi, "expected used, headroom or "
				    "idle");
			}
			gpu->rebuilt = rd_bool(r, g, pg, "rebuilt");
			gpu->changed = rd_bool(r, g, pg, "changed");
			gpu->slices = rd_int(r, g, pg, "memorySlices", 1, 1,
			    PV_MAX_SLICES, 1);
			gpu->mig_config = rd_str(r, g, pg, "migConfig", 0);
			is = rd_arr(r, g, pg, "instances", 1);
			if (is == NULL)
				return;
			gpu->ninst = (size_t)cJSON_GetArraySize(is);
			gpu->inst = xcalloc(gpu->ninst + 1, sizeof *gpu->inst);
			d->ninst += gpu->ninst;
			k = 0;
			cJSON_ArrayForEach(x, is) {
				rd_pathf(pi, "%s.instances[%zu]",
				    pg, k);
				rd_inst(r, x, pi, gpu, &gpu->inst[k++]);
				if (r->rc != KUBE_OK)
					return;
			}
		}
	}
}

int
pv_read(const cJSON *plan, struct pv_doc *d, struct dra_err *err)
{
	struct rd	 r;
	const cJSON	*spec, *st, *sv, *a, *e, *o;
	const char	*s;
	char		 p[RD_PATH];
	size_t		 i = 0;

	memset(d, 0, sizeof *d);
	r.err = err;
	r.rc = KUBE_OK;
	if (!cJSON_IsObject(plan))
		return rd_fail(&r, "", "expected a Plan document (a mapping)");
	s = rd_str(&r, plan, "", "apiVersion", 1);
	if (s != NULL && strcmp(s, DRA_PLAN_API_VERSION) != 0)
		return rd_fail(&r, "apiVersion", "expected \"%s\"",
		    DRA_PLAN_API_VERSION);
	s = rd_str(&r, plan, "", "kind", 1);
	if (s != NULL && strcmp(s, DRA_PLAN_KIND) != 0)
		return rd_fail(&r, "kind", "expected \"%s\"", DRA_PLAN_KIND);

	spec = rd_obj(&r, plan, "", "spec", 1);
	o = rd_obj(&r, spec, "spec", "inventory", 0);
	d->source = rd_str(&r, o, "spec.inventory", "source", 0);
	o = rd_obj(&r, spec, "spec", "policy", 0);
	d->target = rd_num(&r, o, "spec.policy", "utilizationTarget", 0);
	d->ceiling = rd_num(&r, o, "spec.policy", "utilizationCeiling", 0);

	st = rd_obj(&r, plan, "", "status", 1);
	sv = rd_obj(&r, st, "status", "solver", 1);
	d->status = rd_str(&r, sv, "status.solver", "status", 1);
	d->gap = rd_num(&r, sv, "status.solver", "gap", 1);
	d->seconds = rd_num(&r, sv, "status.solver", "seconds", 1);
	if (r.rc != KUBE_OK)
		return r.rc;
	rd_summary(&r, st, d);
	if (r.rc != KUBE_OK)
		return r.rc;
	a = rd_arr(&r, st, "status", "reasons", 0);
	if (a != NULL) {
		d->nreasons = (size_t)cJSON_GetArraySize(a);
		d->reasons = xcalloc(d->nreasons + 1, sizeof *d->reasons);
		cJSON_ArrayForEach(e, a) {
			rd_pathf(p, "status.reasons[%zu]", i);
			if (!cJSON_IsObject(e))
				return rd_fail(&r, p, "expected a mapping");
			d->reasons[i].constraint = rd_str(&r, e, p,
			    "constraint", 1);
			d->reasons[i].message = rd_str(&r, e, p, "message", 1);
			i++;
		}
	}
	if (r.rc == KUBE_OK)
		rd_teams(&r, st, d);
	if (r.rc == KUBE_OK)
		rd_layout(&r, st, d);
	return r.rc;
}

void
pv_release(struct pv_doc *d)
{
	size_t	i, j;

	for (i = 0; i < d->nteams; i++) {
		for (j = 0; j < d->teams[i].nwl; j++)
			free(d->teams[i].wl[j].grants);
		free(d->teams[i].wl);
		free(d->teams[i].hard);
	}
	free(d->teams);
	for (i = 0; i < d->nnodes; i++) {
		for (j = 0; j < d->nodes[i].ngpus; j++)
			free(d->nodes[i].gpus[j].inst);
		free(d->nodes[i].gpus);
	}
	free(d->nodes);
	free(d->reasons);
	free(d->bl);
	memset(d, 0, sizeof *d);
}

const char *
pv_owner_name(enum pv_owner_kind k)
{
	switch (k) {
	case PV_OWNER_WORKLOAD:
		return "workload";
	case PV_OWNER_RUNNING:
		return "running";
	case PV_OWNER_MOVED:
		return "moved";
	case PV_OWNER_SPARE:
		return "spare";
	}
	return "spare";
}

void
pv_addn(struct pv_out *o, const char *s, size_t n)
{
	if (o->rc != KUBE_OK || n == 0)
		return;
	o->rc = dra_buf_add(o->b, s, n);
}

void
pv_adds(struct pv_out *o, const char *s)
{
	pv_addn(o, s, strlen(s));
}

void
pv_addf(struct pv_out *o, const char *fmt, ...)
{
	va_list	ap;

	if (o->rc != KUBE_OK)
		return;
	va_start(ap, fmt);
	o->rc = dra_buf_vaddf(o->b, fmt, ap);
	va_end(ap);
}

void
pv_add_safe(struct pv_out *o, const char *s)
{
	const unsigned char	*p, *q;

	if (s == NULL)
		return;
	for (p = q = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p >= 0x20 && *p != 0x7f)
			continue;
		pv_addn(o, (const char *)q, (size_t)(p - q));
		pv_adds(o, "?");
		q = p + 1;
	}
	pv_addn(o, (const char *)q, (size_t)(p - q));
}

char *
pv_money(double v, char *buf, size_t len)
{
	char		 digits[64], *out;
	long long	 cents, whole;
	size_t		 n, i, o = 0;
	int		 neg = 0;

	if (isnan(v) || isinf(v) || fabs(v) > 9e15)
		v = 0;
	cents = llround(v * 100);
	if (cents < 0) {
		neg = 1;
		cents = -cents;
	}
	whole = cents / 100;
	cents %= 100;
	rd_pathf(digits, "%lld", whole);
	n = strlen(digits);
	out = xmalloc(n + n / 3 + 8);
	if (neg)
		out[o++] = '-';
	for (i = 0; i < n; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = '\0';
	if (cents != 0)
		snprintf(buf, len, "%s.%02lld", out, cents);
	else
		snprintf(buf, len, "%s", out);
	free(out);
	return buf;
}

char *
pv_headline(const struct pv_doc *d, char *buf, size_t len)
{
	struct dra_buf	 b;
	struct pv_out	 o;
	char		 m[64];
	unsigned char	*p;

	dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	o.b = &b;
	o.rc = KUBE_OK;
	pv_adds(&o, "Plan (");
	pv_add_safe(&o, d->status);
	pv_adds(&o, "): ");
	if (d->has_layout) {
		pv_addf(&o, "%lld of %lld GPUs used", (long long)d->used,
		    (long long)d->total);
		if (d->headroom > 0)
			pv_addf(&o, ", %lld headroom", (long long)d->headroom);
		pv_addf(&o, "; utilization %.1f%%", d->utilization * 100);
	}
	if (d->has_layout && d->price > 0) {
		pv_adds(&o, "; ");
		pv_adds(&o, pv_money(d->after, m, sizeof m));
		if (d->currency != NULL && *d->currency != '\0') {
			pv_adds(&o, " ");
			pv_add_safe(&o, d->currency);
		}
		pv_addf(&o, " a month, saving %s", pv_money(d->saving_before,
		    m, sizeof m));
		if (d->currency != NULL && *d->currency != '\0') {
			pv_adds(&o, " ");
			pv_add_safe(&o, d->currency);
		}
	}
	if (!d->has_layout) {
		pv_addf(&o, "%lld GPUs, no layout", (long long)d->total);
		if (d->nreasons > 0)
			pv_addf(&o, "; %zu reason%s", d->nreasons,
			    d->nreasons == 1 ? "" : "s");
	}
	snprintf(buf, len, "%s", dra_buf_str(&b));
	dra_buf_release(&b);
	for (p = (unsigned char *)buf; *p != '\0'; p++)
		if (*p < 0x20 || *p == 0x7f)
			*p = '?';
	return buf;
}
