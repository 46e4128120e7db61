/*
 * test_solve.c: the planner's integer program (planner/solve.c) on
 * small instances whose answer is known by hand: first-fit realisable
 * layouts, 4g+4g, priorities, pinned instances and repartitioning,
 * caps, the ceiling, sharing, headroom, and infeasible demand named in
 * words.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "catalog.h"
#include "demand.h"
#include "geometry.h"
#include "solve.h"
#include "xmalloc.h"

/* An inventory of n GPUs of one catalogue model, gpn per node. */
static struct plan_inventory *
fleet(const char *model, size_t n, size_t gpn, int mode)
{
	struct plan_inventory	*inv;
	struct plan_geometry	*g;
	struct dra_err		 err;
	char			 buf[64];
	size_t			 i;

	assert_int_equal(plan_catalog_geometry(model, &g, &err), KUBE_OK);
	inv = xcalloc(1, sizeof(*inv));
	inv->source = xstrdup("test");
	inv->geometries = xcalloc(1, sizeof(*inv->geometries));
	inv->geometries[0] = g;
	inv->ngeometries = 1;
	inv->gpus = xcalloc(n, sizeof(*inv->gpus));
	inv->ngpus = n;
	for (i = 0; i < n; i++) {
		snprintf(buf, sizeof(buf), "node-%zu", i / gpn);
		inv->gpus[i].node = xstrdup(buf);
		snprintf(buf, sizeof(buf), "gpu-%zu", i % gpn);
		inv->gpus[i].name = xstrdup(buf);
		inv->gpus[i].mode = (enum plan_mig_mode)mode;
	}
	return (inv);
}

/* Pin a running instance of profile at start on GPU i. */
static void
pin(struct plan_inventory *inv, size_t i, const char *profile, int start,
    const char *ns, const char *claim)
{
	const struct plan_geometry	*g = inv->geometries[0];
	struct plan_gpu			*gp = &inv->gpus[i];
	size_t				 k;
	int				 p = plan_profile_index(g, profile);

	assert_true(p >= 0);
	for (k = 0; k < g->nplacements; k++)
		if (g->placements[k].profile == p &&
		    g->placements[k].start == start)
			break;
	assert_true(k < g->nplacements);
	gp->running = xreallocarray(gp->running, gp->nrunning + 1,
	    sizeof(*gp->running));
	gp->running[gp->nrunning].placement = (int)k;
	gp->running[gp->nrunning].namespace = xstrdup(ns);
	gp->running[gp->nrunning].claim = xstrdup(claim);
	gp->nrunning++;
}

static void
fleet_free(struct plan_inventory *inv)
{
	size_t	i, j;

	for (i = 0; i < inv->ngpus; i++) {
		free(inv->gpus[i].node);
		free(inv->gpus[i].name);
		for (j = 0; j < inv->gpus[i].nrunning; j++) {
			free(inv->gpus[i].running[j].namespace);
			free(inv->gpus[i].running[j].claim);
		}
		free(inv->gpus[i].running);
	}
	free(inv->gpus);
	plan_geometry_free(inv->geometries[0]);
	free(inv->geometries);
	free(inv->source);
	free(inv);
}

static struct plan_demand *
demand(const char *fmt, ...)
{
	struct plan_demand	*d;
	struct dra_err		 err;
	char			 text[4096];
	va_list			 ap;
	int			 rc;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	rc = plan_demand_parse("test.yaml", text, strlen(text), &d, &err);
	if (rc != KUBE_OK)
		fail_msg("%s", err.msg);
	return (d);
}

#define HEAD "apiVersion: dra.kubectl.io/v1alpha1\nkind: Demand\n"

static struct plan_result *
solve(struct plan_inventory *inv, struct plan_demand *d)
{
	struct plan_result	*r;
	struct dra_err		 err;
	struct plan_solve_opts	 o = { 30, -1, NULL, NULL };

	if (plan_solve(inv, d, &o, &r, &err) != KUBE_OK)
		fail_msg("%s", err.msg);
	return (r);
}

/* The profile and start of slot k on GPU i. */
static void
slot_is(const struct plan_inventory *inv, const struct plan_result *r,
    size_t i, size_t k, const char *profile, int start)
{
	const struct plan_geometry	*g = inv->geometries[0];
	const struct plan_placement	*pl;

	assert_true(k < r->gpus[i].nslots);
	pl = &g->placements[r->gpus[i].slots[k].placement];
	assert_string_equal(g->profiles[pl->profile].name, profile);
	assert_int_equal(pl->start, start);
}

/* 3g + 4 x 1g fills one H100 only with the 1g's first (first fit). */
static void
test_first_fit_order(void **state)
{
	struct plan_inventory	*inv = fleet("H100-80GB", 2, 8, 0);
	struct plan_demand	*d;
	struct plan_result	*r;
	size_t			 k;

	d = demand(HEAD "teams:\n- namespace: a\n  workloads:\n"
	    "  - {name: big, replicas: 1, needs: {profile: 3g.40gb}}\n"
	    "  - {name: small, replicas: 4, needs: {profile: 1g.10gb}}\n");
	r = solve(inv, d);
	assert_int_equal(r->status, PLAN_OPTIMAL);
	assert_int_equal(r->gpus_used, 1);
	assert_int_equal(r->served[0][0], 1);
	assert_int_equal(r->served[0][1], 4);
	/* Exclusive: one device a replica, none more. */
	assert_int_equal(r->devices[0][0], 1);
	assert_int_equal(r->devices[0][1], 4);
	/* The used GPU: four 1g at 0..3 arrive before the 3g at 4. */
	k = r->gpus[0].used ? 0 : 1;
	assert_int_equal(r->gpus[k].nslots, 5);
	slot_is(inv, r, k, 0, "1g.10gb", 0);
	slot_is(inv, r, k, 3, "1g.10gb", 3);
	slot_is(inv, r, k, 4, "3g.40gb", 4);
	assert_int_equal(r->gpus[k].slots[4].kind, PLAN_OWNER_WORKLOAD);
	assert_int_equal(r->gpus[k].slots[4].workload, 0);
	plan_result_free(r);
	plan_demand_free(d);
	fleet_free(inv);
}

/* 4g + 4g never share a GPU. */
static void
test_two_4g(void **state)
{
	struct plan_inventory	*inv = fleet("H100-80GB", 3, 8, 0);
	struct plan_demand	*d;
	struct plan_result	*r;

	d = demand(HEAD "teams:\n- namespace: a\n  workloads:\n"
	    "  - {name: w, replicas: 2, needs: {profile: 4g.40gb}}\n");
	r = solve(inv, d);
	assert_int_equal(r->status, PLAN_OPTIMAL);
	assert_int_equal(r->gpus_used, 2);
	assert_int_equal(r->levels[1].value, 2);
	plan_result_free(r);
	plan_demand_free(d);
	fleet_free(inv);
}

/* "team-a needs 10 x 3g.40gb; the fleet holds at most 8". */
static void
test_infeasible_named(void **state)
{
	struct plan_inventory	*inv = fleet("H100-80GB", 4, 8, 0);
	struct plan_demand	*d;
	struct plan_result	*r;

	d = demand(HEAD "teams:\n- namespace: team-a\n  workloads:\n"
	    "  - {name: llm, replicas: 10, needs: {profile: 3g.40gb}}\n");
	r = solve(inv, d);
	assert_int_equal(r->status, PLAN_INFEASIBLE);
	assert_int_equal(r->nreasons, 1);
	assert_string_equal(r->reasons[0].constraint, "min");
	assert_string_equal(r->reasons[0].text,
	    "team-a/llm needs 10 x 3g.40gb; the fleet holds at most 8");
	plan_result_free(r);
	plan_demand_free(d);

	d = demand(HEAD "teams:\n- namespace: team-a\n  workloads:\n"
	    "  - {name: llm, replicas: 1, needs: {profile: 3g.47gb}}\n");
	r = solve(inv, d);
	assert_int_equal(r->status, PLAN_INFEASIBLE);
	assert_string_equal(r->reasons[0].constraint, "no-profile");
	plan_result_free(r);
	plan_demand_free(d);
	fleet_free(inv);
}

/* One GPU, two teams wanting it whole: the higher priority wins. */
static void
test_priority(void **state)
{
	struct plan_inventory	*inv = fleet("H100-80GB", 1, 8, 0);
	struct plan_demand	*d;
	struct plan_result	*r;

	d = demand(HEAD "policy: {utilization: {ceiling: 100%%, target: 100%%}}\n"
	    "priorityClasses:\n- {name: high-ai, value: 1000}\n"
	    "- {name: batch, value: 100}\n"
	    "teams:\n- namespace: a\n  workloads:\n"
	    "  - {name: low, replicas: {min: 0, max: 1}, needs: {profile: "
	    "7g.80gb}, priorityClass: batch}\n"
	    "- namespace: b\n  workloads:\n"
	    "  - {name: high, replicas: {min: 0, max: 1}, needs: {profile: "
	    "7g.80gb}, priorityClass: high-ai}\n");
	r = solve(inv, d);
	assert_int_equal(r->status, PLAN_OPTIMAL);
	assert_int_equal(r->served[0][0], 0);
	assert_int_equal(r->served[1][0], 1);
	assert_int_equal((int)r->levels[0].value, 1001);
	plan_result_free(r);
	plan_demand_free(d);
	fleet_free(inv);
}

/*
 * A running 1g at slice 3 leaves room for one 3g only (at 4); with
 * repartitioning allowed the GPU is cut anew and the running claim
 * moves.
 */
static void
test_pinned_and_repartition(void **state)
{
	struct plan_inventory	*inv = fleet("H100-80GB", 1, 8, 0);
	struct plan_demand	*d;
	struct plan_result	*r;
	size_t			 k, moved = 0;

	pin(inv, 0, "1g.10gb", 3, "old", "claim-0");
	d = demand(HEAD "policy: {utilization: {ceiling: 100%%}}\n"
	    "teams:\n- namespace: team-a\n  workloads:\n"
	    "  - {name: two, replicas: 2, needs: {profile: 3g.40gb}}\n");
	r = solve(inv, d);
	assert_int_equal(r->status, PLAN_INFEASIBLE);
	assert_string_equal(r->reasons[0].text,
	    "team-a/two needs 2 x 3g.40gb; the fleet holds at most 1");
	plan_result_free(r);
	plan_demand_free(d);

	d = demand(HEAD "policy: {utilization: {ceiling: 100%%}, "
	    "repartitionRunning: true}\n"
	    "teams:\n- namespace: team-a\n  workloads:\n"
	    "  - {name: one, replicas: 1, needs: {profile: 3g.40gb}}\n");
	r = solve(inv, d);
	assert_int_equal(r->status, PLAN_OPTIMAL);
	/* One 3g fits beside the pinned 1g: nothing is cut anew. */
	assert_int_equal(r->gpus_rebuilt, 0);
	assert_int_equal(r->gpus[0].slots[0].kind, PLAN_OWNER_RUNNING);
	slot_is(inv, r, 0, 1, "3g.40gb", 4);
	plan_result_free(r);
	plan_demand_free(d);

	/* Two 3g need the slice the 1g holds: cut anew, 1g moved. */
	d = demand(HEAD "policy: {utilization: {ceiling: 100%%}, "
	    "repartitionRunning: true}\n"
	    "teams:\n- namespace: team-a\n  workloads:\n"
	    "  - {name: two, replicas: 2, needs: {profile: 3g.40gb}}\n");
	fleet_free(inv);
	inv = fleet("H100-80GB", 2, 8, 0);
	pin(inv, 0, "1g.10gb", 3, "old", "claim-0");
	r = solve(inv, d);
	assert_int_equal(r->status, PLAN_OPTIMAL);
	assert_int_equal(r->served[0][0], 2);
	/* Fewest GPUs first: both 3g on one GPU means cutting GPU 0. */
	assert_int_equal(r->gpus_used, 2);
	for (k = 0; k < r->gpus[0].nslots; k++)
		if (r->gpus[0].slots[k].kind == PLAN_OWNER_MOVED)
			moved++;
	for (k = 0; k < r->gpus[1].nslots; k++)
		if (r->gpus[1].slots[k].kind == PLAN_OWNER_MOVED)
			moved++;
	/* Either GPU 0 keeps its 1g (one 3g there, one on GPU 1) or it
	   is cut and the 1g moves: the third level prefers keeping. */
	assert_int_equal(r->gpus_rebuilt, 0);
	assert_int_equal(moved, 0);
	plan_result_free(r);
	plan_demand_free(d);
	fleet_free(inv);

	/* A 4g needs slices 0-3: the GPU is cut anew, the 1g moves to 4. */
	inv = fleet("H100-80GB", 1, 8, 0);
	pin(inv, 0, "1g.10gb", 3, "old", "claim-0");
	d = demand(HEAD "policy: {utilization: {ceiling: 100%%}, "
	    "repartitionRunning: true}\n"
	    "teams:\n- namespace: team-a\n  workloads:\n"
	    "  - {name: big, replicas: 1, needs: {profile: 4g.40gb}}\n");
	r = solve(inv, d);
	assert_int_equal(r->status, PLAN_OPTIMAL);
	assert_int_equal(r->gpus_rebuilt, 1);
	assert_int_equal((int)r->levels[2].value, 1);
	assert_int_equal(r->gpus[0].nslots, 2);
	moved = 0;
	for (k = 0; k < r->gpus[0].nslots; k++) {
		const struct plan_placement *pp = &inv->geometries[0]->
		    placements[r->gpus[0].slots[k].placement];

		if (r->gpus[0].slots[k].kind == PLAN_OWNER_MOVED) {
			moved++;
			assert_string_equal(r->gpus[0].slots[k].running->claim,
			    "claim-0");
			assert_true(pp->start >= 4);
		} else
			assert_int_equal(pp->start, 0);
	}
	assert_int_equal(moved, 1);
	plan_result_free(r);
	plan_demand_free(d);
	fleet_free(inv);
}

/* A cap of 1 GPU allows two 3g (6/7) but not three. */
static void
test_cap(void **state)
{
	struct plan_inventory	*inv = fleet("H100-80GB", 4, 8, 0);
	struct plan_demand	*d;
	struct plan_result	*r;

	d = demand(HEAD "teams:\n- namespace: a\n  caps: {gpus: 1}\n"
	    "  workloads:\n"
	    "  - {name: w, replicas: {min: 0, max: 5}, needs: {profile: "
	    "3g.40gb}}\n");
	r = solve(inv, d);
	assert_int_equal(r->status, PLAN_OPTIMAL);
	assert_int_equal(r->served[0][0], 2);
	plan_result_free(r);
	plan_demand_free(d);

	d = demand(HEAD "teams:\n- namespace: a\n  caps: {gpus: 1}\n"
	    "  workloads:\n"
	    "  - {name: w, replicas: 3, needs: {profile: 3g.40gb}}\n");
	r = solve(inv, d);
	assert_int_equal(r->status, PLAN_INFEASIBLE);
	assert_string_equal(r->reasons[0].constraint, "cap-gpus");
	plan_result_free(r);
	plan_demand_free(d);
	fleet_free(inv);
}

/* The ceiling: one whole GPU of two is 50%; two of two is over 95%. */
static void
test_ceiling_and_headroom(void **state)
{
	struct plan_inventory	*inv = fleet("H100-80GB", 4, 8, 0);
	struct plan_demand	*d;
	struct plan_result	*r;

	d = demand(HEAD "teams:\n- namespace: a\n  workloads:\n"
	    "  - {name: w, replicas: 4, needs: gpu}\n");
	r = solve(inv, d);
	assert_int_equal(r->status, PLAN_INFEASIBLE);
	assert_string_equal(r->reasons[0].constraint, "ceiling");
	plan_result_free(r);
	plan_demand_free(d);

	/* 3 whole GPUs: load 3, target 80% wants 4 in service. */
	d = demand(HEAD "teams:\n- namespace: a\n  workloads:\n"
	    "  - {name: w, replicas: 3, needs: gpu}\n");
	r = solve(inv, d);
	assert_int_equal(r->status, PLAN_OPTIMAL);
	assert_int_equal(r->gpus_used, 3);
	assert_int_equal(r->gpus_headroom, 1);
	assert_true(r->utilization > 0.749 && r->utilization < 0.751);
	plan_result_free(r);
	plan_demand_free(d);
	fleet_free(inv);
}

/* Time-slicing: 10 replicas, 4 per device: 3 devices. */
static void
test_sharing(void **state)
{
	struct plan_inventory	*inv = fleet("H100-80GB", 1, 8, 0);
	struct plan_demand	*d;
	struct plan_result	*r;

	d = demand(HEAD "teams:\n- namespace: a\n  workloads:\n"
	    "  - {name: nb, replicas: 10, needs: {profile: 1g.10gb}, "
	    "sharing: {mode: time-slicing, replicasPerDevice: 4}}\n");
	r = solve(inv, d);
	assert_int_equal(r->status, PLAN_OPTIMAL);
	assert_int_equal(r->served[0][0], 10);
	assert_int_equal(r->devices[0][0], 3);
	assert_int_equal(r->ngrants, 1);
	assert_int_equal(r->grants[0].replicas, 10);
	plan_result_free(r);
	plan_demand_free(d);
	fleet_free(inv);
}

/*
 * mig-parted reconfigures as few GPUs as it can: two 3g.40gb go to the
 * static GPU that has two today (kept as it is), not to a whole GPU
 * that would have to be cut.
 */
static void
test_fewest_changed(void **state)
{
	struct plan_inventory	*inv = fleet("H100-80GB", 2, 8,
				    PLAN_MODE_WHOLE);
	const struct plan_geometry *g = inv->geometries[0];
	struct plan_demand	*d;
	struct plan_result	*r;
	size_t			 k;
	int			 p = plan_profile_index(g, "3g.40gb");

	inv->gpus[1].mode = PLAN_MODE_STATIC;
	for (k = 0; k < g->nplacements; k++)
		if (g->placements[k].profile == p) {
			inv->gpus[1].existing = xreallocarray(
			    inv->gpus[1].existing, inv->gpus[1].nexisting + 1,
			    sizeof(int));
			inv->gpus[1].existing[inv->gpus[1].nexisting++] =
			    (int)k;
		}
	assert_int_equal(inv->gpus[1].nexisting, 2);
	d = demand(HEAD "policy: {utilization: {ceiling: 100%%}}\n"
	    "teams:\n- namespace: a\n  workloads:\n"
	    "  - {name: x, replicas: 2, needs: {profile: 3g.40gb}}\n");
	r = solve(inv, d);
	assert_int_equal(r->status, PLAN_OPTIMAL);
	assert_int_equal(r->nlevels, 3);
	assert_string_equal(r->levels[2].name, "changed");
	assert_int_equal((int)r->levels[2].value, 0);
	assert_false(r->gpus[0].used);
	assert_true(r->gpus[1].used);
	assert_false(r->gpus[1].changed);
	assert_int_equal(r->gpus[1].nslots, 2);
	plan_result_free(r);
	plan_demand_free(d);
	free(inv->gpus[1].existing);
	inv->gpus[1].existing = NULL;
	fleet_free(inv);
}

/* MPS never runs on GPUs cut by dynamic MIG; on whole GPUs it does. */
static void
test_mps_not_dynamic(void **state)
{
	struct plan_inventory	*inv = fleet("H100-80GB", 2, 8, 0);
	struct plan_demand	*d;
	struct plan_result	*r;

	d = demand(HEAD "teams:\n- namespace: a\n  workloads:\n"
	    "  - {name: m, replicas: 4, needs: gpu, "
	    "sharing: {mode: mps, replicasPerDevice: 2}}\n");
	r = solve(inv, d);
	assert_int_equal(r->status, PLAN_INFEASIBLE);
	assert_string_equal(r->reasons[0].constraint, "no-profile");
	plan_result_free(r);
	fleet_free(inv);

	inv = fleet("H100-80GB", 3, 8, PLAN_MODE_WHOLE);
	r = solve(inv, d);
	assert_int_equal(r->status, PLAN_OPTIMAL);
	assert_int_equal(r->devices[0][0], 2);
	plan_result_free(r);
	plan_demand_free(d);
	fleet_free(inv);
}

/* Spread: two workloads of 2 whole GPUs each on 2 nodes x 2 GPUs. */
static void
test_spread(void **state)
{
	struct plan_inventory	*inv = fleet("H100-80GB", 4, 2, 0);
	struct plan_demand	*d;
	struct plan_result	*r;
	size_t			 i, n0 = 0, n1 = 0;

	d = demand(HEAD "policy: {utilization: {ceiling: 100%%}}\n"
	    "teams:\n- namespace: a\n  workloads:\n"
	    "  - {name: w, replicas: 2, needs: {profile: 3g.40gb}}\n");
	r = solve(inv, d);
	assert_int_equal(r->status, PLAN_OPTIMAL);
	for (i = 0; i < 4; i++) {
		if (!r->gpus[i].used)
			continue;
		if (strcmp(inv->gpus[i].node, "node-0") == 0)
			n0++;
		else
			n1++;
	}
	/* Fewest GPUs: one GPU holds both 3g; on one node. */
	assert_int_equal(r->gpus_used, 1);
	assert_int_equal(n0 + n1, 1);
	plan_result_free(r);
	plan_demand_free(d);
	fleet_free(inv);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_fit_order),
		cmocka_unit_test(test_two_4g),
		cmocka_unit_test(test_infeasible_named),
		cmocka_unit_test(test_priority),
		cmocka_unit_test(test_pinned_and_repartition),
		cmocka_unit_test(test_cap),
		cmocka_unit_test(test_ceiling_and_headroom),
		cmocka_unit_test(test_sharing),
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_mps_not_dynamic),
		cmocka_unit_test(test_fewest_changed),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
