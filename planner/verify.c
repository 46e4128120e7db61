/*
 * verify.c: replay a plan through the structured allocator (verify.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "inventory.h"
#include "verify.h"
#include "xmalloc.h"

/* The PCI bus ID the snapshot gives GPU gp: its own, else a device's. */
static const char *
gpu_bus(const struct kube_snapshot *s, const struct plan_inventory *inv,
    const struct plan_gpu *gp, char *name, size_t len)
{
	const struct kube_device	*dev;
	const struct kube_attr		*a;

	if (plan_inventory_device(inv, gp, 0, name, len) == NULL)
		return (NULL);
	dev = kube_snapshot_device(s, plan_geometry_driver(
	    inv->geometries[gp->geometry]), gp->node, name);
	if (dev == NULL)
		return (gp->pci_bus_id);
	a = kube_device_attr(dev, "resource.kubernetes.io", "pciBusID");
	return (a != NULL && a->s != NULL ? a->s : gp->pci_bus_id);
}

/* A one-device claim of class cls with one selector, in reusable memory. */
struct one_claim {
	struct kube_device_request	 dr;
	struct kube_request		 rq;
	struct kube_claim_spec		 spec;
	struct dra_claim_ref		 ref;
	const char			*sel[1];
};

static void
one_claim(struct one_claim *c, const char *cls, const char *selector)
{
	memset(c, 0, sizeof(*c));
	c->sel[0] = selector;
	c->dr.name = "";
	c->dr.class_name = cls;
	c->dr.selectors = c->sel;
	c->dr.nselectors = 1;
	c->dr.mode = KUBE_MODE_EXACT_COUNT;
	c->dr.mode_text = "ExactCount";
	c->dr.count = 1;
	c->rq.name = "gpu";
	c->rq.exactly = &c->dr;
	c->spec.requests = &c->rq;
	c->spec.nrequests = 1;
	c->ref.namespace = "plan";
	c->ref.name = "verify";
	c->ref.spec = &c->spec;
}

/*
 * A static or whole GPU: its instances are made by mig-parted at the
 * planned placements, so the allocator's per-device checks (counters
 * of the memory slices and engines, in use) must pass for exactly the
 * planned device, which is then held.
 */
static void
check_device(struct dra_allocator *a, const struct kube_snapshot *s,
    const struct plan_gpu *gp, const struct kube_device_request *dr,
    const char *want, const struct plan_geometry *g,
    const struct plan_placement *pl, size_t k, struct plan_verify *v)
{
	struct kube_device		*dev;
	struct dra_check_detail		 det;
	struct dra_alloc_result		 res;
	struct dra_alloc_pick		 pick;
	enum dra_check			 ck = DRA_CHECK_NODE;
	char				 msg[512];

	dev = kube_snapshot_device(s, plan_geometry_driver(g), gp->node,
	    want);
	if (dev != NULL) {
		memset(&det, 0, sizeof(det));
		ck = dra_device_check(a, gp->node, kube_snapshot_node(s,
		    gp->node), "plan", dr, dev, &det);
	}
	if (ck == DRA_CHECK_OK) {
		memset(&pick, 0, sizeof(pick));
		pick.request = (char *)"gpu";
		pick.device = dev;
		memset(&res, 0, sizeof(res));
		res.status = DRA_ALLOC_OK;
		res.picks = &pick;
		res.npicks = 1;
		dra_allocator_hold(a, &res);
		v->accepted++;
		return;
	}
	if (v->first_failure != NULL)
		return;
	snprintf(msg, sizeof(msg), "%s/%s: instance %zu (%s): the allocator "
	    "refuses device %s (check %d)", gp->node, gp->name, k + 1,
	    g->profiles[pl->profile].name, want, (int)ck);
	v->first_failure = xstrdup(msg);
}

/* One node: its used GPUs, their kept running claims, the replay. */
static int
verify_node(const struct plan_inventory *inv, const struct plan_result *r,
    const size_t *gpus, size_t ngpus, struct plan_verify *v,
    struct dra_err *err)
{
	struct plan_inventory		 copy;
	struct kube_snapshot		*s = NULL;
	struct dra_allocator		*a = NULL;
	struct dra_alloc_result		 res;
	struct one_claim		 oc;
	const struct plan_geometry	*g;
	const struct plan_gpu		*gp;
	const struct plan_gpu_layout	*lay;
	const struct plan_placement	*pl;
	const char			*bus;
	char				 selector[1024], want[128], name[128];
	char				 qbus[128], prof[768];
	size_t				 i, k;
	int				 rc;

	/* Rebuilt GPUs publish no running claims: they were moved. */
	copy = *inv;
	copy.gpus = xcalloc(inv->ngpus, sizeof(*copy.gpus));
	memcpy(copy.gpus, inv->gpus, inv->ngpus * sizeof(*copy.gpus));
	for (i = 0; i < ngpus; i++)
		if (r->gpus[gpus[i]].rebuilt)
			copy.gpus[gpus[i]].nrunning = 0;
	rc = plan_inventory_snapshot_gpus(&copy, gpus, ngpus, 0, &s, err);
	free(copy.gpus);
	if (rc != KUBE_OK)
		return (rc);
	if ((rc = dra_allocator_new(s, NULL, &a, err)) != KUBE_OK) {
		kube_snapshot_free(s);
		return (rc);
	}
	for (i = 0; i < ngpus && rc == KUBE_OK; i++) {
		gp = &inv->gpus[gpus[i]];
		g = inv->geometries[gp->geometry];
		lay = &r->gpus[gpus[i]];
		bus = gpu_bus(s, inv, gp, name, sizeof(name));
		plan_cel_quote(bus != NULL ? bus : "", qbus, sizeof(qbus));
		for (k = 0; k < lay->nslots; k++) {
			if (lay->slots[k].kind == PLAN_OWNER_RUNNING)
				continue;	/* published as allocated */
			if (gp->mode == PLAN_MODE_DYNAMIC &&
			    lay->slots[k].kind == PLAN_OWNER_SPARE)
				continue;	/* nobody claims it */
			if (!lay->used)
				continue;	/* kept as it is */
			pl = &g->placements[lay->slots[k].placement];
			v->instances++;
			if (g->profiles[pl->profile].whole)
				snprintf(selector, sizeof(selector),
				    "device.attributes['resource.kubernetes.io']"
				    ".pciBusID == '%s'", qbus);
			else
				snprintf(selector, sizeof(selector),
				    "%s && device.attributes"
				    "['resource.kubernetes.io'].pciBusID == '%s'",
				    plan_profile_selector(g, &g->profiles[
				    pl->profile], prof, sizeof(prof)), qbus);
			one_claim(&oc, plan_inventory_class(g,
			    g->profiles[pl->profile].whole), selector);
			if (plan_inventory_device(inv, gp,
			    lay->slots[k].placement, want,
			    sizeof(want)) == NULL)
				want[0] = '\0';
			if (gp->mode != PLAN_MODE_DYNAMIC) {
				/* mig-parted makes the instance where the
				   plan says: check that very device. */
				check_device(a, s, gp, &oc.dr, want, g, pl, k, v);
				continue;
			}
			memset(&res, 0, sizeof(res));
			rc = dra_allocate(a, gp->node, kube_snapshot_node(s,
			    gp->node), &oc.ref, 1, &res, err);
			if (rc != KUBE_OK)
				break;
			if (res.status == DRA_ALLOC_OK && res.npicks == 1 &&
			    strcmp(res.picks[0].device->name, want) == 0) {
				v->accepted++;
				dra_allocator_hold(a, &res);
			} else if (v->first_failure == NULL) {
				char msg[512];

				snprintf(msg, sizeof(msg), "%s/%s: instance %zu "
				    "(%s): allocator %s%s, plan names %s",
				    gp->node, gp->name, k + 1,
				    g->profiles[pl->profile].name,
				    res.status == DRA_ALLOC_OK ? "picked " :
				    "found no device",
				    res.status == DRA_ALLOC_OK &&
				    res.npicks > 0 ? res.picks[0].device->name :
				    (res.message != NULL ? res.message : ""),
				    want);
				v->first_failure = xstrdup(msg);
				if (res.status == DRA_ALLOC_OK)
					dra_allocator_hold(a, &res);
			}
			dra_alloc_result_free(&res);
		}
	}
	dra_allocator_free(a);
	a = NULL;

	/* Again, the claims naming only their profile: node-wide. */
	if (rc == KUBE_OK)
		rc = dra_allocator_new(s, NULL, &a, err);
	for (i = 0; i < ngpus && rc == KUBE_OK; i++) {
		gp = &inv->gpus[gpus[i]];
		g = inv->geometries[gp->geometry];
		lay = &r->gpus[gpus[i]];
		if (gp->mode != PLAN_MODE_DYNAMIC || !lay->used)
			continue;
		for (k = 0; k < lay->nslots; k++) {
			if (lay->slots[k].kind == PLAN_OWNER_RUNNING ||
			    lay->slots[k].kind == PLAN_OWNER_SPARE)
				continue;
			pl = &g->placements[lay->slots[k].placement];
			if (g->profiles[pl->profile].whole)
				snprintf(selector, sizeof(selector), "true");
			else
				plan_profile_selector(g, &g->profiles[
				    pl->profile], selector, sizeof(selector));
			one_claim(&oc, plan_inventory_class(g,
			    g->profiles[pl->profile].whole), selector);
			memset(&res, 0, sizeof(res));
			rc = dra_allocate(a, gp->node, kube_snapshot_node(s,
			    gp->node), &oc.ref, 1, &res, err);
			if (rc != KUBE_OK)
				break;
			v->unpinned++;
			if (res.status == DRA_ALLOC_OK && res.npicks == 1) {
				v->unpinned_placed++;
				if (plan_inventory_device(inv, gp,
				    lay->slots[k].placement, want,
				    sizeof(want)) != NULL && strcmp(
				    res.picks[0].device->name, want) == 0)
					v->unpinned_as_planned++;
				dra_allocator_hold(a, &res);
			}
			dra_alloc_result_free(&res);
		}
	}
	dra_allocator_free(a);
	kube_snapshot_free(s);
	v->nodes++;
	return (rc);
}

int
plan_verify(const struct plan_inventory *inv, const struct plan_result *r,
    struct plan_verify *v, struct dra_err *err)
{
	size_t	*gpus, n, i, j;
	int	 rc = KUBE_OK, any;
	double	 t0 = plan_seconds();

	memset(v, 0, sizeof(*v));
	if (r->gpus == NULL || r->ngpus != inv->ngpus)
		return (dra_err_set(err, KUBE_E_CONFIG,
		    "plan has no layout to verify"));
	gpus = xcalloc(inv->ngpus + 1, sizeof(size_t));
	for (i = 0; i < inv->ngpus && rc == KUBE_OK; i = j) {
		n = 0;
		any = 0;
		for (j = i; j < inv->ngpus &&
		    strcmp(inv->gpus[j].node, inv->gpus[i].node) == 0; j++) {
			gpus[n++] = j;
			if (r->gpus[j].used)
				any = 1;
		}
		if (any)
			rc = verify_node(inv, r, gpus, n, v, err);
	}
	free(gpus);
	v->seconds = plan_seconds() - t0;
	return (rc);
}

void
plan_verify_free(struct plan_verify *v)
{
	if (v == NULL)
		return;
	free(v->first_failure);
	v->first_failure = NULL;
}
