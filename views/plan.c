/*
 * plan.c: the Plan document of `kubectl dra plan` (plan.h), built from
 * the inventory, the demand and plan_solve()'s result.
 *
 * The document is built in one pass per section, in a fixed order, so
 * the same input always gives the same tree.  Quotas and manifests
 * need to know which DeviceClasses the plan uses: they are collected
 * first (struct pd_classes), from the grants and the running claims,
 * sorted by name, and every team's quota lists all of them (0 where
 * the team has nothing), so a team cannot take another class than the
 * plan gives it.  The mig-parted configuration is written as text
 * (the ConfigMap's config.yaml), one configuration per distinct node
 * layout, named dra-plan-1, dra-plan-2, ... in node order.
 */
#include "plan.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "inventory.h"
#include "xmalloc.h"

/* The quota key of claim objects and the class key suffix. */
#define PD_KEY_CLAIMS	"count/resourceclaims.resource.k8s.io"
#define PD_KEY_DEVICES	".deviceclass.resource.k8s.io/devices"
/* NVIDIA's Helm chart class for MIG devices of any profile. */
#define PD_CLASS_MIG	"mig.nvidia.com"
/* The prefix of MIG DeviceClasses when the policy names none. */
#define PD_DEFAULT_PREFIX "mig-"

/* One DeviceClass of the plan. */
struct pd_class {
	char				 name[256];
	char				 ext[256];	/* "" when none */
	const struct plan_geometry	*g;		/* first seen */
	const struct plan_profile	*p;		/* NULL: quota only */
};

struct pd_classes {
	struct pd_class	*v;
	size_t		 n;
};

/* A node's mig-parted configuration. */
struct pd_migcfg {
	char	*body;		/* the entries, as config.yaml text */
	uint64_t hash;		/* of body (FNV-1a) */
	char	 name[32];	/* "dra-plan-<n>" */
};

struct pd {
	const struct dra_plan_input	*in;
	const struct plan_inventory	*inv;
	const struct plan_demand	*d;
	const struct plan_result	*res;
	int				 layout;	/* has a layout */
	struct pd_classes		 cls;
	int64_t				*devices;	/* [team][class] */
	int64_t				*claims;	/* [team] */
	int64_t				*running;	/* [team] */
	struct pd_migcfg		*cfg;		/* distinct */
	size_t				 ncfg;
	int				*node_cfg;	/* per GPU: cfg index
							   of its node, -1 */
};

static double	 pd_round(double, int);
static void	 pd_add_int(cJSON *, const char *, int64_t);
static void	 pd_add_num(cJSON *, const char *, double, int);
static int	 pd_is_nvidia(const struct plan_geometry *);
static size_t	 pd_class_add(struct pd *, const struct plan_geometry *,
		    const struct plan_profile *);
static size_t	 pd_class_find(const struct pd *, const char *);
static int	 pd_class_cmp(const void *, const void *);
static void	 pd_collect_classes(struct pd *);
static size_t	 pd_team_of(const struct pd *, const char *);
static int	 pd_running_cmp(const void *, const void *);
static void	 pd_count_quota(struct pd *);
static size_t	 pd_team_of(const struct pd *, const char *);
static int	 pd_static(const struct pd *, const struct plan_gpu *);
static int	 pd_gpu_index(const struct plan_inventory *, size_t);
static int	 pd_same_node(const char *, const char *);
static void	 pd_gpu_entry(const struct pd *, size_t, struct dra_buf *);
static uint64_t	 pd_hash(const char *);
static void	 pd_migcfg(struct pd *);
static cJSON	*pd_meta(const char *, const char *);
static cJSON	*pd_spec(const struct pd *);
static cJSON	*pd_solver(const struct pd *);
static cJSON	*pd_summary(const struct pd *);
static cJSON	*pd_reasons(const struct pd *);
static cJSON	*pd_quota_hard(const struct pd *, size_t);
static cJSON	*pd_grant_find(cJSON *, const char *, const char *);
static void	 pd_grant_bump(cJSON *, const char *, int64_t);
static cJSON	*pd_teams(const struct pd *);
static cJSON	*pd_owner(const struct pd *, const struct plan_slot *);
static cJSON	*pd_layout(const struct pd *);
static cJSON	*pd_node_labels(const struct pd *);
static cJSON	*pd_device_class(const struct pd_class *);
static char	*pd_migparted_text(const struct pd *);
static cJSON	*pd_manifests(const struct pd *);

/* v rounded to decimals places (half away from zero). */
static double
pd_round(double v, int decimals)
{
	double	f = pow(10, decimals);
	double	r;

	if (isnan(v) || isinf(v))
		return 0;
	r = round(v * f) / f;
	return r == 0 ? 0 : r;	/* no -0 */
}

static void
pd_add_int(cJSON *o, const char *key, int64_t v)
{
	cJSON_AddNumberToObject(o, key, (double)v);
}

static void
pd_add_num(cJSON *o, const char *key, double v, int decimals)
{
	cJSON_AddNumberToObject(o, key, pd_round(v, decimals));
}

static int
pd_is_nvidia(const struct plan_geometry *g)
{
	return g->driver != NULL && strcmp(g->driver, PLAN_NVIDIA_DRIVER) == 0;
}

char *
dra_plan_class_name(const struct plan_geometry *g,
    const struct plan_profile *p, const char *prefix, char *buf, size_t len)
{
	const char	*driver = plan_geometry_driver(g);
	const char	*c;
	size_t		 n;
	int		 w;

	if (len == 0)
		return NULL;
	if (p->whole) {
		w = snprintf(buf, len, "%s", driver);
		return w >= 0 && (size_t)w < len ? buf : NULL;
	}
	if (prefix == NULL || *prefix == '\0')
		prefix = PD_DEFAULT_PREFIX;
	w = snprintf(buf, len, "%s", prefix);
	if (w < 0 || (size_t)w >= len)
		return NULL;
	n = (size_t)w;
	for (c = p->name; *c != '\0'; c++) {
		if (n + 1 >= len)
			return NULL;
		if (*c == '.' || *c == '+')
			buf[n++] = '-';
		else
			buf[n++] = (char)tolower((unsigned char)*c);
	}
	w = snprintf(buf + n, len - n, ".%s", driver);
	return w >= 0 && (size_t)w < len - n ? buf : NULL;
}

char *
dra_plan_extended_resource(const struct plan_geometry *g,
    const struct plan_profile *p, char *buf, size_t len)
{
	const char	*c;
	size_t		 n;
	int		 w;

	if (!pd_is_nvidia(g) || len == 0)
		return NULL;
	if (p->whole) {
		w = snprintf(buf, len, "nvidia.com/gpu");
		return w >= 0 && (size_t)w < len ? buf : NULL;
	}
	w = snprintf(buf, len, "nvidia.com/mig-");
	if (w < 0 || (size_t)w >= len)
		return NULL;
	n = (size_t)w;
	for (c = p->name; *c != '\0'; c++) {
		if (n + 1 >= len)
			return NULL;
		buf[n++] = *c == '+' ? '.' : *c;
	}
	buf[n] = '\0';
	return buf;
}

/* The index of class name in the plan's classes, or cls.n. */
static size_t
pd_class_find(const struct pd *pd, const char *name)
{
	size_t	i;

	for (i = 0; i < pd->cls.n; i++)
		if (strcmp(pd->cls.v[i].name, name) == 0)
			return i;
	return pd->cls.n;
}

/* Add the class of profile p of g (once); returns its index. */
static size_t
pd_class_add(struct pd *pd, const struct plan_geometry *g,
    const struct plan_profile *p)
{
	struct pd_class	 c;
	size_t		 i;

	memset(&c, 0, sizeof c);
	if (dra_plan_class_name(g, p, pd->d->policy.device_class_prefix,
	    c.name, sizeof c.name) == NULL)
		return pd->cls.n;
	i = pd_class_find(pd, c.name);
	if (i < pd->cls.n) {
		if (pd->cls.v[i].p == NULL)
			pd->cls.v[i].p = p, pd->cls.v[i].g = g;
		return i;
	}
	if (dra_plan_extended_resource(g, p, c.ext, sizeof c.ext) == NULL)
		c.ext[0] = '\0';
	c.g = g;
	c.p = p;
	pd->cls.v = xreallocarray(pd->cls.v, pd->cls.n + 1, sizeof c);
	pd->cls.v[pd->cls.n] = c;
	return pd->cls.n++;
}

static int
pd_class_cmp(const void *a, const void *b)
{
	return strcmp(((const struct pd_class *)a)->name,
	    ((const struct pd_class *)b)->name);
}

/*
 * The classes of the plan: every profile granted or held by a running
 * claim; for a fleet of NVIDIA GPUs also the whole-GPU class
 * gpu.nvidia.com and the chart's mig.nvidia.com (quota only), so a
 * team's quota closes the driver's own classes too.  Sorted by name.
 */
static void
pd_collect_classes(struct pd *pd)
{
	const struct plan_inventory	*inv = pd->inv;
	const struct plan_geometry	*g;
	const struct plan_gpu		*gp;
	struct pd_class			 c;
	size_t				 i, j;
	int				 nvidia = 0;

	for (i = 0; i < pd->res->ngrants; i++) {
		g = inv->geometries[pd->res->grants[i].geometry];
		pd_class_add(pd, g, &g->profiles[pd->res->grants[i].profile]);
	}
	for (i = 0; i < inv->ngpus; i++) {
		gp = &inv->gpus[i];
		g = inv->geometries[gp->geometry];
		for (j = 0; j < gp->nrunning; j++)
			pd_class_add(pd, g, &g->profiles[g->placements[
			    gp->running[j].placement].profile]);
	}
	for (i = 0; i < inv->ngeometries; i++) {
		g = inv->geometries[i];
		if (!pd_is_nvidia(g))
			continue;
		nvidia = 1;
		for (j = 0; j < g->nprofiles; j++)
			if (g->profiles[j].whole) {
				pd_class_add(pd, g, &g->profiles[j]);
				break;
			}
	}
	if (nvidia && pd_class_find(pd, PD_CLASS_MIG) == pd->cls.n) {
		memset(&c, 0, sizeof c);
		snprintf(c.name, sizeof c.name, "%s", PD_CLASS_MIG);
		pd->cls.v = xreallocarray(pd->cls.v, pd->cls.n + 1, sizeof c);
		pd->cls.v[pd->cls.n++] = c;
	}
	/* The classes existing claims of the teams already charge. */
	for (i = 0; i < inv->nusage; i++) {
		if (inv->usage[i].device_class == NULL ||
		    pd_team_of(pd, inv->usage[i].namespace) == pd->d->nteams ||
		    pd_class_find(pd, inv->usage[i].device_class) != pd->cls.n)
			continue;
		memset(&c, 0, sizeof c);
		snprintf(c.name, sizeof c.name, "%s",
		    inv->usage[i].device_class);
		pd->cls.v = xreallocarray(pd->cls.v, pd->cls.n + 1, sizeof c);
		pd->cls.v[pd->cls.n++] = c;
	}
	if (pd->cls.n > 1)
		qsort(pd->cls.v, pd->cls.n, sizeof *pd->cls.v, pd_class_cmp);
}

/* The team of namespace ns, or d->nteams. */
static size_t
pd_team_of(const struct pd *pd, const char *ns)
{
	size_t	t;

	if (ns == NULL)
		return pd->d->nteams;
	for (t = 0; t < pd->d->nteams; t++)
		if (strcmp(pd->d->teams[t].namespace, ns) == 0)
			return t;
	return pd->d->nteams;
}

/* Running instances by namespace, then claim name. */
static int
pd_running_cmp(const void *a, const void *b)
{
	const struct plan_instance	*x = *(const struct plan_instance *
					    const *)a;
	const struct plan_instance	*y = *(const struct plan_instance *
					    const *)b;
	int				 c;

	c = strcmp(x->namespace != NULL ? x->namespace : "",
	    y->namespace != NULL ? y->namespace : "");
	if (c != 0)
		return c;
	return strcmp(x->claim != NULL ? x->claim : "",
	    y->claim != NULL ? y->claim : "");
}

/*
 * Devices per team and class, and claims per team: one claim per
 * device granted, plus what the namespace's existing claims (running
 * or pending) already charge, by the class their spec names
 * (inv->usage), since the quota admits new claims only above that.
 * The distinct running claims per team are counted for the summary.
 */
static void
pd_count_quota(struct pd *pd)
{
	const struct plan_inventory	*inv = pd->inv;
	const struct plan_geometry	*g;
	const struct plan_gpu		*gp;
	const struct plan_grant		*gr;
	const struct plan_instance	*ri, **run = NULL;
	char				 name[256];
	size_t				 i, j, c, t, nc = pd->cls.n, nrun = 0;

	pd->devices = xcalloc(pd->d->nteams * nc + 1, sizeof(int64_t));
	pd->claims = xcalloc(pd->d->nteams + 1, sizeof(int64_t));
	pd->running = xcalloc(pd->d->nteams + 1, sizeof(int64_t));
	for (i = 0; i < pd->res->ngrants; i++) {
		gr = &pd->res->grants[i];
		g = inv->geometries[gr->geometry];
		if (dra_plan_class_name(g, &g->profiles[gr->profile],
		    pd->d->policy.device_class_prefix, name, sizeof name) ==
		    NULL || (c = pd_class_find(pd, name)) == nc)
			continue;
		pd->devices[gr->team * nc + c] += gr->devices;
		pd->claims[gr->team] += gr->devices;
	}
	for (i = 0; i < inv->ngpus; i++) {
		gp = &inv->gpus[i];
		g = inv->geometries[gp->geometry];
		for (j = 0; j < gp->nrunning; j++) {
			ri = &gp->running[j];
			if ((t = pd_team_of(pd, ri->namespace)) ==
			    pd->d->nteams)
				continue;
			run = xreallocarray(run, nrun + 1, sizeof *run);
			run[nrun++] = ri;
		}
	}
	/* A claim holding several instances is one claim. */
	if (nrun > 1)
		qsort(run, nrun, sizeof *run, pd_running_cmp);
	for (i = 0; i < nrun; i++) {
		if (i > 0 && pd_running_cmp(&run[i - 1], &run[i]) == 0)
			continue;
		t = pd_team_of(pd, run[i]->namespace);
		pd->running[t]++;
	}
	free(run);
	for (i = 0; i < inv->nusage; i++) {
		if ((t = pd_team_of(pd, inv->usage[i].namespace)) ==
		    pd->d->nteams)
			continue;
		if (inv->usage[i].device_class == NULL)
			pd->claims[t] += inv->usage[i].count;
		else if ((c = pd_class_find(pd, inv->usage[i].device_class)) <
		    nc)
			pd->devices[t * nc + c] += inv->usage[i].count;
	}
}

static int
pd_same_node(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return strcmp(a, b) == 0;
}

/* Whether GPU gp gets a mig-parted configuration. */
static int
pd_static(const struct pd *pd, const struct plan_gpu *gp)
{
	return pd->in->static_mig || gp->mode == PLAN_MODE_STATIC ||
	    gp->mode == PLAN_MODE_WHOLE;
}

/*
 * The index mig-parted knows GPU i by: N of a "gpu-N" name (the
 * driver's minor number, which is the index on every usual board),
 * else its position among its node's GPUs.
 */
static int
pd_gpu_index(const struct plan_inventory *inv, size_t i)
{
	const char	*name = inv->gpus[i].name, *p;
	const char	*node = inv->gpus[i].node;
	size_t		 k;
	int		 pos = 0;
	long		 v;

	if (name != NULL && strncmp(name, "gpu-", 4) == 0 &&
	    name[4] != '\0' && strspn(name + 4, "0123456789") ==
	    strlen(name + 4) && strlen(name + 4) <= 6) {
		v = strtol(name + 4, NULL, 10);
		return (int)v;
	}
	for (k = i; k-- > 0;) {
		p = inv->gpus[k].node;
		if ((p == NULL) != (node == NULL) ||
		    (p != NULL && strcmp(p, node) != 0))
			break;
		pos++;
	}
	return pos;
}

/* One GPU's entry signature: "off" or the mig-devices lines. */
static void
pd_gpu_entry(const struct pd *pd, size_t i, struct dra_buf *b)
{
	const struct plan_gpu		*gp = &pd->inv->gpus[i];
	const struct plan_geometry	*g = pd->inv->geometries[gp->geometry];
	const struct plan_gpu_layout	*lay = &pd->res->gpus[i];
	int				*count;
	size_t				 j, p;
	int				 whole = 0, any = 0;

	count = xcalloc(g->nprofiles + 1, sizeof(int));
	for (j = 0; j < lay->nslots; j++) {
		p = (size_t)g->placements[lay->slots[j].placement].profile;
		if (g->profiles[p].whole)
			whole = 1;
		else
			count[p]++;
	}
	if (whole || (gp->mode == PLAN_MODE_WHOLE && lay->nslots == 0)) {
		dra_buf_adds(b, "    mig-enabled: false\n");
		free(count);
		return;
	}
	dra_buf_adds(b, "    mig-enabled: true\n");
	for (p = 0; p < g->nprofiles; p++) {
		if (count[p] == 0)
			continue;
		if (!any)
			dra_buf_adds(b, "    mig-devices:\n");
		any = 1;
		dra_buf_addf(b, "      \"%s\": %d\n", g->profiles[p].name,
		    count[p]);
	}
	if (!any)
		dra_buf_adds(b, "    mig-devices: {}\n");
	free(count);
}

static uint64_t
pd_hash(const char *s)
{
	uint64_t	h = 1469598103934665603ULL;

	for (; *s != '\0'; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return h;
}

/*
 * The mig-parted configuration of every node with GPUs that get one:
 * GPUs with the same entry are listed together, entries in order of
 * their first GPU index; nodes with the same text share a name.
 */
static void
pd_migcfg(struct pd *pd)
{
	const struct plan_inventory	*inv = pd->inv;
	struct dra_buf			 body, *ent = NULL;
	int				**idx = NULL;
	size_t				*nidx = NULL, nent, i, j, k, start;
	const char			*node;
	char				*text;
	uint64_t			 h;

	pd->node_cfg = xcalloc(inv->ngpus + 1, sizeof(int));
	for (i = 0; i < inv->ngpus; i++)
		pd->node_cfg[i] = -1;
	for (start = 0; start < inv->ngpus; start = i) {
		node = inv->gpus[start].node;
		nent = 0;
		for (i = start; i < inv->ngpus; i++) {
			struct dra_buf	e;

			if (!pd_same_node(inv->gpus[i].node, node))
				break;
			if (!pd_static(pd, &inv->gpus[i]))
				continue;
			dra_buf_init(&e, DRA_BUF_MAX_SMALL);
			pd_gpu_entry(pd, i, &e);
			for (j = 0; j < nent; j++)
				if (strcmp(dra_buf_str(&ent[j]),
				    dra_buf_str(&e)) == 0)
					break;
			if (j == nent) {
				ent = xreallocarray(ent, nent + 1,
				    sizeof *ent);
				idx = xreallocarray(idx, nent + 1,
				    sizeof *idx);
				nidx = xreallocarray(nidx, nent + 1,
				    sizeof *nidx);
				ent[nent] = e;
				idx[nent] = NULL;
				nidx[nent] = 0;
				nent++;
			} else
				dra_buf_release(&e);
			idx[j] = xreallocarray(idx[j], nidx[j] + 1,
			    sizeof(int));
			idx[j][nidx[j]++] = pd_gpu_index(inv, i);
		}
		if (nent == 0)
			continue;
		/* Indexes ascending within an entry, entries by first. */
		for (j = 0; j < nent; j++)
			for (k = 1; k < nidx[j]; k++) {
				size_t	m = k;
				int	v = idx[j][k];

				while (m > 0 && idx[j][m - 1] > v) {
					idx[j][m] = idx[j][m - 1];
					m--;
				}
				idx[j][m] = v;
			}
		for (j = 1; j < nent; j++) {
			size_t		 m = j;
			struct dra_buf	 te = ent[j];
			int		*ti = idx[j];
			size_t		 tn = nidx[j];

			while (m > 0 && idx[m - 1][0] > ti[0]) {
				ent[m] = ent[m - 1];
				idx[m] = idx[m - 1];
				nidx[m] = nidx[m - 1];
				m--;
			}
			ent[m] = te;
			idx[m] = ti;
			nidx[m] = tn;
		}
		dra_buf_init(&body, DRA_BUF_MAX_PAGE);
		for (j = 0; j < nent; j++) {
			dra_buf_adds(&body, "  - devices: [");
			for (k = 0; k < nidx[j]; k++)
				dra_buf_addf(&body, "%s%d", k ? ", " : "",
				    idx[j][k]);
			dra_buf_adds(&body, "]\n");
			dra_buf_adds(&body, dra_buf_str(&ent[j]));
			dra_buf_release(&ent[j]);
			free(idx[j]);
		}
		text = dra_buf_take(&body);
		h = pd_hash(text);
		for (k = 0; k < pd->ncfg; k++)
			if (pd->cfg[k].hash == h &&
			    strcmp(pd->cfg[k].body, text) == 0)
				break;
		if (k == pd->ncfg) {
			pd->cfg = xreallocarray(pd->cfg, pd->ncfg + 1,
			    sizeof *pd->cfg);
			pd->cfg[k].body = text;
			pd->cfg[k].hash = h;
			snprintf(pd->cfg[k].name, sizeof pd->cfg[k].name,
			    "dra-plan-%zu", k + 1);
			pd->ncfg++;
		} else
			free(text);
		for (j = start; j < i; j++)
			if (pd_static(pd, &inv->gpus[j]))
				pd->node_cfg[j] = (int)k;
	}
	free(ent);
	free(idx);
	free(nidx);
}

static cJSON *
pd_meta(const char *name, const char *ns)
{
	cJSON	*m = cJSON_CreateObject(), *l;

	cJSON_AddStringToObject(m, "name", name);
	if (ns != NULL)
		cJSON_AddStringToObject(m, "namespace", ns);
	l = cJSON_AddObjectToObject(m, "labels");
	cJSON_AddStringToObject(l, "app.kubernetes.io/managed-by",
	    DRA_PLAN_MANAGED_BY);
	return m;
}

static cJSON *
pd_spec(const struct pd *pd)
{
	const struct plan_inventory	*inv = pd->inv;
	const struct plan_policy	*pol = &pd->d->policy;
	cJSON				*spec, *o, *a, *m, *s;
	size_t				 gi, i, n;
	int				 mode;
	size_t				 nwl = 0;

	spec = cJSON_CreateObject();
	o = cJSON_AddObjectToObject(spec, "inventory");
	cJSON_AddStringToObject(o, "source", inv->source != NULL ?
	    inv->source : "");
	cJSON_AddBoolToObject(o, "live", inv->live);
	pd_add_int(o, "gpus", (int64_t)inv->ngpus);
	a = cJSON_AddArrayToObject(o, "models");
	for (gi = 0; gi < inv->ngeometries; gi++)
		for (mode = PLAN_MODE_DYNAMIC; mode <= PLAN_MODE_WHOLE;
		    mode++) {
			const struct plan_geometry *g = inv->geometries[gi];

			n = 0;
			for (i = 0; i < inv->ngpus; i++)
				if (inv->gpus[i].geometry == gi &&
				    (int)inv->gpus[i].mode == mode)
					n++;
			if (n == 0)
				continue;
			m = cJSON_CreateObject();
			cJSON_AddStringToObject(m, "model", g->model != NULL ?
			    g->model : "");
			if (g->product != NULL)
				cJSON_AddStringToObject(m, "product",
				    g->product);
			pd_add_int(m, "gpus", (int64_t)n);
			cJSON_AddBoolToObject(m, "derived", g->derived);
			cJSON_AddStringToObject(m, "mode",
			    plan_mig_mode_name((enum plan_mig_mode)mode));
			pd_add_int(m, "memorySlices", g->memory_slices);
			pd_add_int(m, "computeSlices", g->compute_slices);
			cJSON_AddItemToArray(a, m);
		}

	o = cJSON_AddObjectToObject(spec, "demand");
	cJSON_AddStringToObject(o, "file", pd->d->file != NULL ?
	    pd->d->file : "");
	pd_add_int(o, "teams", (int64_t)pd->d->nteams);
	for (i = 0; i < pd->d->nteams; i++)
		nwl += pd->d->teams[i].nworkloads;
	pd_add_int(o, "workloads", (int64_t)nwl);

	o = cJSON_AddObjectToObject(spec, "policy");
	pd_add_num(o, "pricePerGPUMonth", pol->price, 2);
	cJSON_AddStringToObject(o, "currency", pol->currency != NULL ?
	    pol->currency : "");
	pd_add_num(o, "utilizationTarget", pol->target, 3);
	pd_add_num(o, "utilizationCeiling", pol->ceiling, 3);
	cJSON_AddBoolToObject(o, "repartitionRunning",
	    pol->repartition_running);
	cJSON_AddStringToObject(o, "deviceClassPrefix",
	    pol->device_class_prefix != NULL &&
	    *pol->device_class_prefix != '\0' ?
	    pol->device_class_prefix : PD_DEFAULT_PREFIX);
	cJSON_AddBoolToObject(o, "staticMIG", pd->in->static_mig);
	s = cJSON_AddObjectToObject(o, "solver");
	pd_add_num(s, "timeLimitSeconds", pol->time_limit, 3);
	pd_add_num(s, "gap", pol->mip_gap, 6);
	return spec;
}

static cJSON *
pd_solver(const struct pd *pd)
{
	const struct plan_result	*res = pd->res;
	cJSON				*o, *a, *l;
	size_t				 i;

	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "status", plan_status_name(res->status));
	pd_add_num(o, "gap", res->gap, 6);
	pd_add_num(o, "seconds", res->seconds, 3);
	pd_add_int(o, "classes", (int64_t)res->nclasses);
	pd_add_int(o, "patterns", (int64_t)res->npatterns);
	pd_add_int(o, "columns", (int64_t)res->ncols);
	pd_add_int(o, "rows", (int64_t)res->nrows);
	a = cJSON_AddArrayToObject(o, "levels");
	for (i = 0; i < res->nlevels && i < 3; i++) {
		const struct plan_level *lv = &res->levels[i];

		l = cJSON_CreateObject();
		cJSON_AddStringToObject(l, "name", lv->name != NULL ?
		    lv->name : "");
		pd_add_num(l, "value", lv->value, 6);
		pd_add_num(l, "bound", lv->bound, 6);
		pd_add_num(l, "gap", lv->gap, 6);
		cJSON_AddBoolToObject(l, "proven", lv->proven);
		pd_add_num(l, "seconds", lv->seconds, 3);
		cJSON_AddItemToArray(a, l);
	}
	return o;
}

static cJSON *
pd_summary(const struct pd *pd)
{
	const struct plan_result	*res = pd->res;
	const struct dra_plan_input	*in = pd->in;
	const struct dra_plan_baseline	*best = NULL, *b;
	double				 price = pd->d->policy.price;
	double				 before, after, base = 0;
	cJSON				*o, *g, *c, *a, *e;
	size_t				 i, total = pd->inv->ngpus, inuse;

	o = cJSON_CreateObject();
	g = cJSON_AddObjectToObject(o, "gpus");
	pd_add_int(g, "total", (int64_t)total);
	inuse = res->gpus_used + res->gpus_headroom;
	if (pd->layout) {
		pd_add_int(g, "used", (int64_t)res->gpus_used);
		pd_add_int(g, "headroom", (int64_t)res->gpus_headroom);
		pd_add_int(g, "idle", (int64_t)(total > inuse ?
		    total - inuse : 0));
		pd_add_int(g, "rebuilt", (int64_t)res->gpus_rebuilt);
		pd_add_num(o, "load", res->load, 2);
		pd_add_num(o, "utilization", res->utilization, 3);
	}

	for (i = 0; i < in->nbaselines; i++) {
		b = &in->baselines[i];
		if (best == NULL || b->unplaced < best->unplaced ||
		    (b->unplaced == best->unplaced &&
		    b->gpus_used < best->gpus_used))
			best = b;
	}
	before = (double)total * price;
	after = (double)inuse * price;
	if (best != NULL) {
		/*
		 * Like for like: first fit needs the same headroom for the
		 * same load, so its GPUs in service are its GPUs used, or
		 * what the utilization target keeps in service, whichever
		 * is more (the plan's used + headroom is the same rule).
		 */
		double	want = 0;
		size_t	keep = best->gpus_used;

		if (pd->d->policy.target > 0 && pd->layout)
			want = ceil(res->load / pd->d->policy.target - 1e-9);
		if (want > (double)total)
			want = (double)total;
		if ((double)keep < want)
			keep = (size_t)want;
		base = (double)keep * price;
	}
	c = cJSON_AddObjectToObject(o, "cost");
	cJSON_AddStringToObject(c, "currency", pd->d->policy.currency !=
	    NULL ? pd->d->policy.currency : "");
	pd_add_num(c, "perGPUMonth", price, 2);
	pd_add_num(c, "before", before, 2);
	if (pd->layout)
		pd_add_num(c, "after", after, 2);
	if (best != NULL) {
		pd_add_num(c, "baseline", base, 2);
		cJSON_AddStringToObject(c, "baselineOrder", best->order !=
		    NULL ? best->order : "");
	}
	if (pd->layout) {
		pd_add_num(c, "savingVsBefore", before - after, 2);
		if (best != NULL)
			pd_add_num(c, "savingVsBaseline", base - after, 2);
	}

	a = cJSON_AddArrayToObject(o, "baseline");
	for (i = 0; i < in->nbaselines; i++) {
		b = &in->baselines[i];
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "order", b->order != NULL ?
		    b->order : "");
		pd_add_int(e, "gpus", (int64_t)b->gpus_used);
		pd_add_int(e, "unplaced", (int64_t)b->unplaced);
		cJSON_AddItemToArray(a, e);
	}
	return o;
}

static cJSON *
pd_reasons(const struct pd *pd)
{
	cJSON	*a = cJSON_CreateArray(), *r;
	size_t	 i;

	for (i = 0; i < pd->res->nreasons; i++) {
		r = cJSON_CreateObject();
		cJSON_AddStringToObject(r, "constraint",
		    pd->res->reasons[i].constraint != NULL ?
		    pd->res->reasons[i].constraint : "");
		cJSON_AddStringToObject(r, "message",
		    pd->res->reasons[i].text != NULL ?
		    pd->res->reasons[i].text : "");
		cJSON_AddItemToArray(a, r);
	}
	return a;
}

/*
 * Team t's quota: per class its devices key and, where the class maps
 * an extended resource, requests.<name> (both sorted with the claims
 * key by name, which cJSON keeps).
 */
/* The grant of gs for model and profile, or NULL. */
static cJSON *
pd_grant_find(cJSON *gs, const char *model, const char *profile)
{
	cJSON	*gr, *m, *p;

	cJSON_ArrayForEach(gr, gs) {
		m = cJSON_GetObjectItemCaseSensitive(gr, "model");
		p = cJSON_GetObjectItemCaseSensitive(gr, "profile");
		if (cJSON_IsString(m) && cJSON_IsString(p) &&
		    strcmp(m->valuestring, model != NULL ? model : "") == 0 &&
		    strcmp(p->valuestring, profile) == 0)
			return gr;
	}
	return NULL;
}

/* Add n to the integer field key of o. */
static void
pd_grant_bump(cJSON *o, const char *key, int64_t n)
{
	cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (cJSON_IsNumber(v))
		cJSON_SetNumberValue(v, v->valuedouble + (double)n);
}

static cJSON *
pd_quota_hard(const struct pd *pd, size_t t)
{
	cJSON		*h = cJSON_CreateObject();
	char		**keys, val[32];
	int64_t		*vals;
	size_t		 n = 0, i, j, nc = pd->cls.n;

	keys = xcalloc(2 * nc + 2, sizeof(char *));
	vals = xcalloc(2 * nc + 2, sizeof(int64_t));
	for (i = 0; i < nc; i++) {
		keys[n] = xasprintf("%s%s", pd->cls.v[i].name, PD_KEY_DEVICES);
		vals[n++] = pd->devices[t * nc + i];
		if (pd->cls.v[i].ext[0] != '\0') {
			keys[n] = xasprintf("requests.%s", pd->cls.v[i].ext);
			vals[n++] = pd->devices[t * nc + i];
		}
	}
	keys[n] = xstrdup(PD_KEY_CLAIMS);
	vals[n++] = pd->claims[t];
	/* Insertion sort by key: a handful of keys. */
	for (i = 1; i < n; i++) {
		char	*k = keys[i];
		int64_t	 v = vals[i];

		for (j = i; j > 0 && strcmp(keys[j - 1], k) > 0; j--) {
			keys[j] = keys[j - 1];
			vals[j] = vals[j - 1];
		}
		keys[j] = k;
		vals[j] = v;
	}
	for (i = 0; i < n; i++) {
		/* Two classes could map one extended resource. */
		if (i > 0 && strcmp(keys[i], keys[i - 1]) == 0) {
			cJSON	*prev = cJSON_GetObjectItemCaseSensitive(h,
				    keys[i]);

			snprintf(val, sizeof val, "%" PRId64, vals[i] +
			    (int64_t)strtoll(prev->valuestring, NULL, 10));
			cJSON_ReplaceItemInObjectCaseSensitive(h, keys[i],
			    cJSON_CreateString(val));
		} else {
			snprintf(val, sizeof val, "%" PRId64, vals[i]);
			cJSON_AddStringToObject(h, keys[i], val);
		}
	}
	for (i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
	free(vals);
	return h;
}

static cJSON *
pd_teams(const struct pd *pd)
{
	const struct plan_demand	*d = pd->d;
	const struct plan_result	*res = pd->res;
	const struct plan_geometry	*g;
	cJSON				*a, *t, *ws, *w, *gs, *gr, *q;
	char				 name[256];
	size_t				 ti, wi, k;

	a = cJSON_CreateArray();
	for (ti = 0; ti < d->nteams; ti++) {
		const struct plan_team *team = &d->teams[ti];

		t = cJSON_CreateObject();
		cJSON_AddStringToObject(t, "namespace", team->namespace);
		if (pd->layout)
			pd_add_int(t, "runningClaims", pd->running[ti]);
		ws = cJSON_AddArrayToObject(t, "workloads");
		for (wi = 0; wi < team->nworkloads; wi++) {
			const struct plan_workload *wl = &team->workloads[wi];

			w = cJSON_CreateObject();
			cJSON_AddStringToObject(w, "name", wl->name);
			if (wl->priority_class != NULL)
				cJSON_AddStringToObject(w, "priorityClass",
				    wl->priority_class);
			pd_add_int(w, "priority", wl->priority);
			pd_add_int(w, "min", wl->min);
			pd_add_int(w, "max", wl->max);
			pd_add_int(w, "served", res->served != NULL ?
			    res->served[ti][wi] : 0);
			pd_add_int(w, "devices", res->devices != NULL ?
			    res->devices[ti][wi] : 0);
			gs = cJSON_AddArrayToObject(w, "grants");
			for (k = 0; k < res->ngrants; k++) {
				const struct plan_grant *x = &res->grants[k];

				if (x->team != ti || x->workload != wi)
					continue;
				g = pd->inv->geometries[x->geometry];
				/* One entry per model and profile, even when
				   two geometries share them (a model both
				   derived from slices and from the catalogue). */
				if ((gr = pd_grant_find(gs, g->model,
				    g->profiles[x->profile].name)) != NULL) {
					pd_grant_bump(gr, "devices", x->devices);
					pd_grant_bump(gr, "replicas", x->replicas);
					continue;
				}
				gr = cJSON_CreateObject();
				cJSON_AddStringToObject(gr, "model",
				    g->model != NULL ? g->model : "");
				cJSON_AddStringToObject(gr, "profile",
				    g->profiles[x->profile].name);
				if (dra_plan_class_name(g,
				    &g->profiles[x->profile],
				    d->policy.device_class_prefix, name,
				    sizeof name) != NULL)
					cJSON_AddStringToObject(gr,
					    "deviceClass", name);
				pd_add_int(gr, "devices", x->devices);
				pd_add_int(gr, "replicas", x->replicas);
				cJSON_AddItemToArray(gs, gr);
			}
			cJSON_AddItemToArray(ws, w);
		}
		if (pd->layout) {
			q = cJSON_AddObjectToObject(t, "quota");
			cJSON_AddStringToObject(q, "name",
			    DRA_PLAN_QUOTA_NAME);
			cJSON_AddItemToObject(q, "hard",
			    pd_quota_hard(pd, ti));
		}
		cJSON_AddItemToArray(a, t);
	}
	return a;
}

static cJSON *
pd_owner(const struct pd *pd, const struct plan_slot *s)
{
	cJSON	*o = cJSON_CreateObject();
	const struct plan_team *team;

	switch (s->kind) {
	case PLAN_OWNER_WORKLOAD:
		team = &pd->d->teams[s->team];
		cJSON_AddStringToObject(o, "kind", "workload");
		cJSON_AddStringToObject(o, "namespace", team->namespace);
		cJSON_AddStringToObject(o, "workload",
		    team->workloads[s->workload].name);
		pd_add_int(o, "replicas", s->replicas);
		break;
	case PLAN_OWNER_RUNNING:
	case PLAN_OWNER_MOVED:
		cJSON_AddStringToObject(o, "kind", s->kind ==
		    PLAN_OWNER_RUNNING ? "running" : "moved");
		cJSON_AddStringToObject(o, "namespace", s->running != NULL &&
		    s->running->namespace != NULL ? s->running->namespace : "");
		cJSON_AddStringToObject(o, "claim", s->running != NULL &&
		    s->running->claim != NULL ? s->running->claim : "");
		break;
	case PLAN_OWNER_SPARE:
		cJSON_AddStringToObject(o, "kind", "spare");
		break;
	}
	return o;
}

static cJSON *
pd_layout(const struct pd *pd)
{
	const struct plan_inventory	*inv = pd->inv;
	const struct plan_result	*res = pd->res;
	const struct plan_geometry	*g;
	const struct plan_gpu		*gp;
	const struct plan_gpu_layout	*lay;
	const struct plan_placement	*pl;
	const struct plan_profile	*pr;
	cJSON				*a, *node = NULL, *gpus = NULL, *o;
	cJSON				*insts, *x;
	const char			*cur = NULL;
	char				 dev[256];
	size_t				 i, j;
	int64_t				 order = 0;
	int				 slices;

	a = cJSON_CreateArray();
	for (i = 0; i < inv->ngpus && i < res->ngpus; i++) {
		gp = &inv->gpus[i];
		g = inv->geometries[gp->geometry];
		lay = &res->gpus[i];
		if (node == NULL || !pd_same_node(gp->node, cur)) {
			node = cJSON_CreateObject();
			cJSON_AddStringToObject(node, "node", gp->node != NULL ?
			    gp->node : "");
			gpus = cJSON_AddArrayToObject(node, "gpus");
			cJSON_AddItemToArray(a, node);
			cur = gp->node;
		}
		/* Slices of the bar: the geometry's, else what its
		   placements reach. */
		slices = g->memory_slices;
		if (slices <= 0) {
			for (j = 0; j < g->nplacements; j++) {
				pl = &g->placements[j];
				int end = pl->start +
				    g->profiles[pl->profile].memory;

				if (end > slices)
					slices = end;
			}
			if (slices <= 0)
				slices = 1;
		}
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", gp->name != NULL ?
		    gp->name : "");
		cJSON_AddStringToObject(o, "model", g->model != NULL ?
		    g->model : "");
		cJSON_AddStringToObject(o, "mode", plan_mig_mode_name(gp->mode));
		if (gp->pci_bus_id != NULL)
			cJSON_AddStringToObject(o, "pciBusID",
			    gp->pci_bus_id);
		cJSON_AddStringToObject(o, "state", lay->used ? "used" :
		    lay->headroom ? "headroom" : "idle");
		cJSON_AddBoolToObject(o, "rebuilt", lay->rebuilt);
		cJSON_AddBoolToObject(o, "changed", lay->changed);
		pd_add_int(o, "memorySlices", slices);
		if (pd->node_cfg != NULL && pd->node_cfg[i] >= 0)
			cJSON_AddStringToObject(o, "migConfig",
			    pd->cfg[pd->node_cfg[i]].name);
		insts = cJSON_AddArrayToObject(o, "instances");
		for (j = 0; j < lay->nslots; j++) {
			pl = &g->placements[lay->slots[j].placement];
			pr = &g->profiles[pl->profile];
			x = cJSON_CreateObject();
			pd_add_int(x, "order", ++order);
			if (plan_inventory_device(inv, gp,
			    lay->slots[j].placement, dev, sizeof dev) != NULL)
				cJSON_AddStringToObject(x, "device", dev);
			cJSON_AddStringToObject(x, "profile", pr->name);
			pd_add_int(x, "start", pr->whole ? 0 : pl->start);
			pd_add_int(x, "memorySlices", pr->whole ? slices :
			    pr->memory);
			cJSON_AddItemToObject(x, "owner",
			    pd_owner(pd, &lay->slots[j]));
			cJSON_AddItemToArray(insts, x);
		}
		cJSON_AddItemToArray(gpus, o);
	}
	return a;
}

static cJSON *
pd_node_labels(const struct pd *pd)
{
	const struct plan_inventory	*inv = pd->inv;
	cJSON				*a = cJSON_CreateArray(), *n, *l;
	size_t				 i, last = inv->ngpus;

	for (i = 0; i < inv->ngpus; i++) {
		if (pd->node_cfg[i] < 0)
			continue;
		/* Once per node: at its first GPU with a config. */
		if (last < inv->ngpus && pd_same_node(inv->gpus[last].node,
		    inv->gpus[i].node))
			continue;
		last = i;
		n = cJSON_CreateObject();
		cJSON_AddStringToObject(n, "node", inv->gpus[i].node != NULL ?
		    inv->gpus[i].node : "");
		l = cJSON_AddObjectToObject(n, "labels");
		cJSON_AddStringToObject(l, DRA_PLAN_MIG_LABEL,
		    pd->cfg[pd->node_cfg[i]].name);
		cJSON_AddItemToArray(a, n);
	}
	return a;
}

static cJSON *
pd_device_class(const struct pd_class *c)
{
	const char	*driver = plan_geometry_driver(c->g);
	cJSON		*o, *spec, *sels, *sel, *cel;
	char		*expr, qd[256], qp[256];

	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "apiVersion", "resource.k8s.io/v1");
	cJSON_AddStringToObject(o, "kind", "DeviceClass");
	cJSON_AddItemToObject(o, "metadata", pd_meta(c->name, NULL));
	spec = cJSON_AddObjectToObject(o, "spec");
	sels = cJSON_AddArrayToObject(spec, "selectors");
	plan_cel_quote(driver, qd, sizeof qd);
	plan_cel_quote(c->p->name, qp, sizeof qp);
	if (c->p->whole)
		expr = xasprintf("device.driver == '%s' && "
		    "device.attributes['%s'].type == 'gpu'", qd, qd);
	else
		expr = xasprintf("device.driver == '%s' && "
		    "device.attributes['%s'].type == 'mig' && "
		    "device.attributes['%s'].profile == '%s'", qd, qd,
		    qd, qp);
	sel = cJSON_CreateObject();
	cel = cJSON_AddObjectToObject(sel, "cel");
	cJSON_AddStringToObject(cel, "expression", expr);
	cJSON_AddItemToArray(sels, sel);
	free(expr);
	if (c->ext[0] != '\0')
		cJSON_AddStringToObject(spec, "extendedResourceName", c->ext);
	return o;
}

/* config.yaml of the mig-parted ConfigMap. */
static char *
pd_migparted_text(const struct pd *pd)
{
	struct dra_buf	b;
	size_t		i;

	dra_buf_init(&b, DRA_BUF_MAX_PAGE);
	dra_buf_adds(&b, "version: v1\nmig-configs:\n");
	/* The operator's defaults, which nodes not in the plan name. */
	dra_buf_adds(&b, "  all-disabled:\n  - devices: all\n"
	    "    mig-enabled: false\n");
	dra_buf_adds(&b, "  all-enabled:\n  - devices: all\n"
	    "    mig-enabled: true\n    mig-devices: {}\n");
	for (i = 0; i < pd->ncfg; i++) {
		dra_buf_addf(&b, "  %s:\n", pd->cfg[i].name);
		dra_buf_adds(&b, pd->cfg[i].body);
	}
	return dra_buf_take(&b);
}

static cJSON *
pd_manifests(const struct pd *pd)
{
	const struct plan_demand	*d = pd->d;
	cJSON				*a, *o, *spec, *data;
	char				*text;
	size_t				 i;

	a = cJSON_CreateArray();
	for (i = 0; i < d->npriority_classes; i++) {
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "apiVersion",
		    "scheduling.k8s.io/v1");
		cJSON_AddStringToObject(o, "kind", "PriorityClass");
		cJSON_AddItemToObject(o, "metadata",
		    pd_meta(d->priority_classes[i].name, NULL));
		pd_add_int(o, "value", d->priority_classes[i].value);
		cJSON_AddBoolToObject(o, "globalDefault", 0);
		cJSON_AddStringToObject(o, "description",
		    "priority of workloads planned by kubectl dra plan");
		cJSON_AddItemToArray(a, o);
	}
	/*
	 * NVIDIA's Helm chart installs gpu.nvidia.com and owns it
	 * (managed-by Helm): the plan uses it and never emits it, so
	 * applying a plan does not take the chart's class over.
	 */
	for (i = 0; i < pd->cls.n; i++)
		if (pd->cls.v[i].p != NULL &&
		    strcmp(pd->cls.v[i].name, PLAN_CLASS_GPU) != 0)
			cJSON_AddItemToArray(a,
			    pd_device_class(&pd->cls.v[i]));
	for (i = 0; i < d->nteams; i++) {
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "apiVersion", "v1");
		cJSON_AddStringToObject(o, "kind", "ResourceQuota");
		cJSON_AddItemToObject(o, "metadata",
		    pd_meta(DRA_PLAN_QUOTA_NAME, d->teams[i].namespace));
		spec = cJSON_AddObjectToObject(o, "spec");
		cJSON_AddItemToObject(spec, "hard", pd_quota_hard(pd, i));
		cJSON_AddItemToArray(a, o);
	}
	if (pd->ncfg > 0) {
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "apiVersion", "v1");
		cJSON_AddStringToObject(o, "kind", "ConfigMap");
		cJSON_AddItemToObject(o, "metadata",
		    pd_meta(DRA_PLAN_MIG_CONFIGMAP, DRA_PLAN_MIG_NAMESPACE));
		data = cJSON_AddObjectToObject(o, "data");
		text = pd_migparted_text(pd);
		cJSON_AddStringToObject(data, "config.yaml", text);
		free(text);
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

struct cJSON *
dra_plan_document(const struct dra_plan_input *in)
{
	struct pd	 pd;
	cJSON		*doc, *meta, *status;
	size_t		 i;

	memset(&pd, 0, sizeof pd);
	pd.in = in;
	pd.inv = in->inv;
	pd.d = in->demand;
	pd.res = in->result;
	pd.layout = (pd.res->status == PLAN_OPTIMAL ||
	    pd.res->status == PLAN_FEASIBLE) && pd.res->gpus != NULL &&
	    pd.res->ngpus == pd.inv->ngpus;
	if (pd.layout) {
		pd_collect_classes(&pd);
		pd_count_quota(&pd);
		pd_migcfg(&pd);
	}

	doc = cJSON_CreateObject();
	cJSON_AddStringToObject(doc, "apiVersion", DRA_PLAN_API_VERSION);
	cJSON_AddStringToObject(doc, "kind", DRA_PLAN_KIND);
	meta = cJSON_AddObjectToObject(doc, "metadata");
	cJSON_AddStringToObject(meta, "name", "plan");
	if (in->created != NULL)
		cJSON_AddStringToObject(meta, "creationTimestamp",
		    in->created);
	cJSON_AddItemToObject(doc, "spec", pd_spec(&pd));
	status = cJSON_AddObjectToObject(doc, "status");
	cJSON_AddItemToObject(status, "solver", pd_solver(&pd));
	cJSON_AddItemToObject(status, "summary", pd_summary(&pd));
	if (pd.res->nreasons > 0)
		cJSON_AddItemToObject(status, "reasons", pd_reasons(&pd));
	cJSON_AddItemToObject(status, "teams", pd_teams(&pd));
	if (pd.layout) {
		cJSON_AddItemToObject(status, "layout", pd_layout(&pd));
		cJSON_AddItemToObject(status, "nodeLabels",
		    pd_node_labels(&pd));
		cJSON_AddItemToObject(status, "manifests", pd_manifests(&pd));
	}

	free(pd.cls.v);
	free(pd.devices);
	free(pd.claims);
	free(pd.running);
	for (i = 0; i < pd.ncfg; i++)
		free(pd.cfg[i].body);
	free(pd.cfg);
	free(pd.node_cfg);
	return doc;
}
