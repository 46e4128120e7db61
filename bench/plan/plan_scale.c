/*
 * plan_scale.c: the planner's integer program at fleet scale, for
 * bench/plan.sh.  Builds a fleet in memory (GPUs of the given catalogue
 * models, 8 per node, a share of them holding one running instance at
 * a random placement), a mixed demand over N namespaces sized to a
 * fraction of the fleet, runs plan_solve() and prints one JSON line:
 * the size of the program, the status, gap, seconds and GPUs used.
 *
 * With --baseline ORDER (given, small-first, large-first, random) the
 * same devices are then placed by the first-fit baseline
 * (planner/baseline.h) in that order, timed, and its GPUs printed
 * beside the plan's.
 *
 *	plan-scale --gpus 1000 --models H100-80GB --pinned 0.3 \
 *	    --teams 10 --load 0.92 --seed 1 [--time-limit 60] \
 *	    [--baseline random]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "baseline.h"
#include "catalog.h"
#include "demand.h"
#include "geometry.h"
#include "solve.h"
#include "xmalloc.h"

static uint64_t rng = 88172645463325252ULL;

static uint64_t
next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (rng);
}

/* The mixed demand of PLANNER-NOTES.md, per 920 GPUs' worth. */
static const struct {
	const char	*shape;		/* profile prefix */
	double		 per_gpu;	/* instances per GPU of fleet */
} mix[] = {
	{ "1g.", 1400.0 / 1000 }, { "1g2", 300.0 / 1000 },
	{ "2g.", 700.0 / 1000 }, { "3g.", 600.0 / 1000 },
	{ "4g.", 150.0 / 1000 }, { "7g.", 120.0 / 1000 },
};

/* The profile of g for a mix shape: "1g2" is the double-memory 1g. */
static int
shape_profile(const struct plan_geometry *g, const char *shape)
{
	size_t	p;
	int	base = -1, dbl = -1;

	for (p = 0; p < g->nprofiles; p++) {
		const struct plan_profile *pr = &g->profiles[p];

		if (pr->whole || pr->me || strchr(pr->name, '+') != NULL ||
		    strchr(pr->name, '-') != NULL)
			continue;
		if (strncmp(shape, "1g", 2) == 0 && pr->compute == 1) {
			if (pr->memory == 1 && base < 0)
				base = (int)p;
			if (pr->memory == 2 && dbl < 0)
				dbl = (int)p;
		} else if (shape[0] - '0' == pr->compute && shape[1] == 'g')
			return ((int)p);
	}
	return (strcmp(shape, "1g2") == 0 ? dbl : base);
}

int
main(int argc, char **argv)
{
	struct plan_inventory	 inv;
	struct plan_demand	*d;
	struct plan_result	*r;
	struct plan_solve_opts	 o;
	struct dra_err		 err;
	char			 models[256] = "H100-80GB", *m, *save;
	char			 buf[64], *text;
	size_t			 ngpus = 1000, nteams = 10, i, k, t, nm = 0;
	double			 pinned = 0.3, load = 0.92, tl = 60;
	struct plan_geometry	*geo[16];
	size_t			 tlen;
	const char		*order = NULL;

	for (i = 1; i + 1 < (size_t)argc; i += 2) {
		if (strcmp(argv[i], "--gpus") == 0)
			ngpus = strtoul(argv[i + 1], NULL, 10);
		else if (strcmp(argv[i], "--models") == 0)
			snprintf(models, sizeof(models), "%s", argv[i + 1]);
		else if (strcmp(argv[i], "--pinned") == 0)
			pinned = atof(argv[i + 1]);
		else if (strcmp(argv[i], "--teams") == 0)
			nteams = strtoul(argv[i + 1], NULL, 10);
		else if (strcmp(argv[i], "--load") == 0)
			load = atof(argv[i + 1]);
		else if (strcmp(argv[i], "--seed") == 0)
			rng += strtoull(argv[i + 1], NULL, 10) * 7919;
		else if (strcmp(argv[i], "--time-limit") == 0)
			tl = atof(argv[i + 1]);
		else if (strcmp(argv[i], "--baseline") == 0)
			order = argv[i + 1];
		else {
			fprintf(stderr, "plan-scale: unknown flag %s\n",
			    argv[i]);
			return (2);
		}
	}
	memset(&inv, 0, sizeof(inv));
	for (m = strtok_r(models, ",", &save); m != NULL && nm < 16;
	    m = strtok_r(NULL, ",", &save)) {
		if (plan_catalog_geometry(m, &geo[nm], &err) != KUBE_OK) {
			fprintf(stderr, "plan-scale: %s\n", err.msg);
			return (2);
		}
		nm++;
	}
	inv.geometries = geo;
	inv.ngeometries = nm;
	inv.gpus = xcalloc(ngpus, sizeof(*inv.gpus));
	inv.ngpus = ngpus;
	for (i = 0; i < ngpus; i++) {
		struct plan_gpu *gp = &inv.gpus[i];
		const struct plan_geometry *g;

		gp->geometry = (i / 8) % nm;
		g = geo[gp->geometry];
		snprintf(buf, sizeof(buf), "node-%06zu", i / 8);
		gp->node = xstrdup(buf);
		snprintf(buf, sizeof(buf), "gpu-%zu", i % 8);
		gp->name = xstrdup(buf);
		gp->mode = PLAN_MODE_DYNAMIC;
		if ((double)(next() % 1000) < pinned * 1000) {
			int pl;

			do
				pl = (int)(next() % g->nplacements);
			while (g->profiles[g->placements[pl].profile].whole);
			gp->running = xcalloc(1, sizeof(*gp->running));
			gp->running[0].placement = pl;
			gp->running[0].namespace = xstrdup("running");
			gp->running[0].claim = xstrdup("c");
			gp->nrunning = 1;
		}
	}
	/* Demand: per namespace, each shape of each model. */
	tlen = 1 << 20;
	text = xcalloc(tlen, 1);
	k = (size_t)snprintf(text, tlen, "apiVersion: dra.kubectl.io/v1alpha1\n"
	    "kind: Demand\npolicy: {utilization: {ceiling: 100%%}, "
	    "solver: {timeLimit: %gs}}\n"
	    "priorityClasses:\n- {name: high-ai, value: 1000}\n"
	    "- {name: batch, value: 100}\nteams:\n", tl);
	for (t = 0; t < nteams; t++) {
		size_t	 team_start = k, added = 0;

		k += (size_t)snprintf(text + k, tlen - k,
		    "- namespace: team-%zu\n  workloads:\n", t);
		for (i = 0; i < nm; i++) {
			size_t s;

			for (s = 0; s < sizeof(mix) / sizeof(mix[0]); s++) {
				int p = shape_profile(geo[i], mix[s].shape);
				double n = mix[s].per_gpu * load / 0.92 *
				    (double)ngpus / (double)nm /
				    (double)nteams;
				long want = (long)(n * (0.8 + (double)(next() %
				    400) / 1000.0));

				if (p < 0 || want <= 0)
					continue;
				k += (size_t)snprintf(text + k, tlen - k,
				    "  - {name: w%zu-%zu, replicas: {min: %ld, "
				    "max: %ld}, needs: {profile: \"%s\"}, "
				    "model: %s, priorityClass: %s}\n", i, s,
				    want * 7 / 10, want, geo[i]->profiles[p].name,
				    geo[i]->model, s % 2 ? "batch" : "high-ai");
				added++;
			}
		}
		if (added == 0)
			k = team_start;	/* a small fleet: no demand here */
	}
	if (plan_demand_parse("bench", text, k, &d, &err) != KUBE_OK) {
		fprintf(stderr, "plan-scale: %s\n", err.msg);
		return (2);
	}
	memset(&o, 0, sizeof(o));
	o.time_limit = tl;
	o.mip_gap = -1;
	if (plan_solve(&inv, d, &o, &r, &err) != KUBE_OK) {
		fprintf(stderr, "plan-scale: %s\n", err.msg);
		return (1);
	}
	printf("{\"gpus\": %zu, \"models\": %zu, \"classes\": %zu, "
	    "\"patterns\": %zu, \"columns\": %zu, \"rows\": %zu, "
	    "\"status\": \"%s\", \"gap\": %g, \"seconds\": %.3f, "
	    "\"used\": %zu, \"levels\": [%.0f, %.0f]", ngpus, nm,
	    r->nclasses, r->npatterns, r->ncols, r->nrows,
	    plan_status_name(r->status), r->gap, r->seconds, r->gpus_used,
	    r->levels[0].value, r->levels[1].value);
	if (order != NULL) {
		struct plan_baseline_item	*items = NULL;
		struct plan_baseline_result	 br;
		size_t				 n = 0, g;
		int64_t				 j;
		double				 t0;
		enum plan_order			 ord = PLAN_ORDER_RANDOM;

		if (strcmp(order, "given") == 0)
			ord = PLAN_ORDER_GIVEN;
		else if (strcmp(order, "small-first") == 0)
			ord = PLAN_ORDER_SMALL_FIRST;
		else if (strcmp(order, "large-first") == 0)
			ord = PLAN_ORDER_LARGE_FIRST;
		for (g = 0; g < r->ngrants; g++) {
			const struct plan_grant *gr = &r->grants[g];

			items = xreallocarray(items, n + (size_t)gr->devices + 1,
			    sizeof(*items));
			for (j = 0; j < gr->devices; j++, n++) {
				memset(&items[n], 0, sizeof(items[n]));
				items[n].geometry = gr->geometry;
				items[n].profile = geo[gr->geometry]->
				    profiles[gr->profile].name;
				items[n].memory = geo[gr->geometry]->
				    profiles[gr->profile].memory;
				items[n].workload = gr->workload;
			}
		}
		plan_baseline_order(items, n, ord, 1);
		memset(&br, 0, sizeof(br));
		t0 = plan_seconds();
		if (plan_baseline(&inv, items, n, &br, &err) != KUBE_OK) {
			fprintf(stderr, "plan-scale: %s\n", err.msg);
			return (1);
		}
		printf(", \"baseline\": {\"order\": \"%s\", \"gpus\": %zu, "
		    "\"unplaced\": %zu, \"seconds\": %.3f}", order,
		    br.gpus_used, br.unplaced, plan_seconds() - t0);
		plan_baseline_result_free(&br);
		free(items);
	}
	printf("}\n");
	plan_result_free(r);
	plan_demand_free(d);
	free(text);
	return (0);
}
