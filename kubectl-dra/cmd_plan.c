/*
 * cmd_plan.c: "kubectl dra plan --demand FILE": the GPU partition
 * (MIG) layout and per-namespace quotas that serve a demand on the
 * cluster's GPUs (or --from a snapshot, or a --fleet of catalogue
 * models), proven optimal by an integer program (planner/solve.h),
 * compared with what the scheduler's first fit would need
 * (planner/baseline.h), replayed through the allocator
 * (planner/verify.h), and printed as a table, a Plan document (YAML or
 * JSON) or an SVG picture (views/plan.h).
 */
#include "dra.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "baseline.h"
#include "buf.h"
#include "demand.h"
#include "inventory.h"
#include "plan.h"
#include "snapshot.h"
#include "solve.h"
#include "verify.h"
#include "xmalloc.h"

/* Replaying the plan through the allocator by default up to this size. */
#define PLAN_VERIFY_AUTO_GPUS	4096

static const char cmd_plan_help[] =
"Proposes how to cut the GPUs (whole GPUs and MIG profiles) and how many\n"
"devices each namespace may have, for the demand in FILE\n"
"(docs/PLAN-DEMAND.md): an integer program solved by GLPK, level by\n"
"level: serve the most priority-weighted replicas, then use the fewest\n"
"GPUs, then cut anew the fewest GPUs that hold running claims; devices\n"
"are spread across nodes.  GPUs come from the cluster (their running\n"
"instances stay where they are unless the demand's policy allows\n"
"repartitioning), from --from a snapshot, or from --fleet, a synthetic\n"
"fleet of catalogue models for what-if and purchase planning.\n"
"\n"
"The plan is compared with the scheduler's first fit on dynamic MIG\n"
"(the same devices placed one claim at a time by the structured\n"
"allocator, in several arrival orders) and replayed through the\n"
"allocator to check every instance lands where the plan says.\n"
"\n"
"Output: a table (default); -o yaml|json, the Plan document with the\n"
"layout, quotas and the manifests that realise it (DeviceClasses,\n"
"ResourceQuotas, PriorityClasses, the mig-parted ConfigMap and node\n"
"labels for static MIG; docs/PLAN-FORMAT.md); -o svg, a picture of\n"
"every GPU's slices coloured by team.\n"
"\n"
"Exit status: 0 a plan (optimal or not: the status says), 3 the\n"
"demand's minimums cannot be met (the binding constraint is named), 1\n"
"error, 2 usage.\n"
"\n"
"Examples:\n"
"  kubectl dra plan --demand demand.yaml\n"
"  kubectl dra plan --demand demand.yaml --fleet 16xH100-80GB,4xA100-40GB\n"
"  kubectl dra plan --demand demand.yaml --from snapshot.yaml -o yaml\n"
"  kubectl dra plan --demand demand.yaml --fleet 64xH100 -o svg > plan.svg\n";

static const struct dra_flag cmd_plan_flags[] = {
	{ "demand", 'f', 1, DRA_F_DEMAND, "FILE",
	    "the demand file (docs/PLAN-DEMAND.md); - for stdin" },
	{ "fleet", 0, 1, DRA_F_FLEET, "SPEC",
	    "plan a synthetic fleet, e.g. 16xH100-80GB,4xA100-40GB/4" },
	{ "mig", 0, 1, DRA_F_MIG, "MODE",
	    "dynamic (default for a fleet) or static: emit mig-parted "
	    "config for every GPU" },
	{ "time-limit", 0, 1, DRA_F_TIME_LIMIT, "DURATION",
	    "solver time limit, e.g. 30s, 2m (default: the demand's, 60s)" },
	{ "gap", 0, 1, DRA_F_GAP, "FRACTION",
	    "relative gap accepted, e.g. 0.01 or 1% (default: the "
	    "demand's, 0)" },
	{ "baseline", 0, 1, DRA_F_BASELINE, "ORDERS",
	    "first-fit baseline orders: as-given,small-first,large-first,"
	    "random, or none (default as-given,small-first,random)" },
	{ "verify", 0, 0, DRA_F_VERIFY, "",
	    "replay the plan through the allocator even on large fleets" },
	{ "no-verify", 0, 0, DRA_F_NO_VERIFY, "",
	    "do not replay the plan through the allocator" },
	{ NULL, 0, 0, 0, NULL, NULL }
};

/* The progress line on stderr: one line, rewritten, on a terminal. */
struct progress {
	int	tty;
	int	verbose;
	int	shown;
};

static void
progress_line(void *arg, const char *line)
{
	struct progress	*p = arg;
	char		 clean[200];
	size_t		 i;

	for (i = 0; line[i] != '\0' && i < sizeof(clean) - 1; i++)
		clean[i] = (line[i] < 0x20 || line[i] == 0x7f) ? ' ' :
		    line[i];
	clean[i] = '\0';
	if (p->verbose) {
		fprintf(stderr, "%s\n", clean);
		return;
	}
	if (!p->tty)
		return;
	fprintf(stderr, "\r\033[K%.*s", 79, clean);
	fflush(stderr);
	p->shown = 1;
}

static void
progress_done(struct progress *p)
{
	if (p->shown) {
		fprintf(stderr, "\r\033[K");
		fflush(stderr);
		p->shown = 0;
	}
}

/* A Go duration ("30s", "1m30s") or seconds, within the demand's
   limits; -1 if malformed or out of range. */
static double
parse_duration(const char *s)
{
	double	v;

	if (plan_duration_parse(s, &v) != 0 || !isfinite(v) || v <= 0 ||
	    v > PLAN_DEMAND_MAX_TIME_LIMIT)
		return (-1);
	return (v);
}

/* "0.01", "1%": a fraction in [0, 1]; -1 if malformed. */
static double
parse_gap(const char *s)
{
	char	*end;
	double	 v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno != 0 || !isfinite(v))
		return (-1);
	if (strcmp(end, "%") == 0)
		v /= 100;
	else if (*end != '\0')
		return (-1);
	if (v < 0 || v > 1)
		return (-1);
	return (v);
}

/* Where the GPUs come from. */
static enum dra_ret
load_inventory(struct dra_ctx *ctx, struct plan_inventory **inv)
{
	struct kube_snapshot	*s;
	struct plan_warnings	 warn;
	struct dra_err		 err;
	enum dra_ret		 ret;
	size_t			 i;

	if (ctx->opts.fleet != NULL) {
		if (plan_inventory_from_fleet(ctx->opts.fleet, inv, &err) !=
		    KUBE_OK)
			return (dra_usage_error(ctx, ctx->cmd, "%s", err.msg));
		return (DRA_RET_OK);
	}
	ret = dra_source_load(ctx, DRA_NEED_SLICES | DRA_NEED_CLAIMS |
	    DRA_NEED_CLASSES | DRA_NEED_NODES, NULL, &s);
	if (ret != DRA_RET_OK)
		return (ret);
	dra_print_warnings(s, ctx->opts.verbosity >= 2);
	memset(&warn, 0, sizeof(warn));
	if (plan_inventory_from_snapshot(s, inv, &warn, &err) != KUBE_OK) {
		kube_snapshot_free(s);
		return (dra_error("%s", err.msg));
	}
	if (ctx->opts.from != NULL) {
		free((*inv)->source);
		(*inv)->source = xstrdup(ctx->opts.from);
	}
	for (i = 0; i < warn.n; i++)
		dra_warning("%s", warn.v[i]);
	plan_warnings_free(&warn);
	kube_snapshot_free(s);
	if ((*inv)->ngpus == 0) {
		plan_inventory_free(*inv);
		*inv = NULL;
		return (dra_error("no GPUs found in %s: the plan needs "
		    "ResourceSlices of gpu.nvidia.com or partitionable "
		    "devices (or use --fleet)", ctx->opts.from != NULL ?
		    ctx->opts.from : "the cluster"));
	}
	return (DRA_RET_OK);
}

/* The baseline orders asked for; -1 on an unknown word. */
static int
parse_orders(const char *s, enum plan_order *orders, const char **names,
    size_t *n)
{
	static const struct {
		const char	*name;
		enum plan_order	 order;
	} words[] = {
		{ "as-given", PLAN_ORDER_GIVEN },
		{ "small-first", PLAN_ORDER_SMALL_FIRST },
		{ "large-first", PLAN_ORDER_LARGE_FIRST },
		{ "random", PLAN_ORDER_RANDOM },
	};
	char	*copy, *w, *save;
	size_t	 i;
	int	 rc = 0;

	*n = 0;
	if (strcmp(s, "none") == 0)
		return (0);
	if (*s == '\0' || *s == ',' || s[strlen(s) - 1] == ',' ||
	    strstr(s, ",,") != NULL)
		return (-1);
	copy = xstrdup(s);
	for (w = strtok_r(copy, ",", &save); w != NULL;
	    w = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (strcmp(w, words[i].name) == 0)
				break;
		if (i == sizeof(words) / sizeof(words[0]) || *n == 4) {
			rc = -1;
			break;
		}
		orders[*n] = words[i].order;
		names[*n] = words[i].name;
		(*n)++;
	}
	free(copy);
	return (rc);
}

/* The plan's devices, one baseline item each, in demand-file order. */
static struct plan_baseline_item *
baseline_items(const struct plan_inventory *inv,
    const struct plan_demand *d, const struct plan_result *r, size_t *n)
{
	struct plan_baseline_item	*items = NULL;
	const struct plan_grant		*gr;
	size_t				 i, k, t, w;
	int64_t				 j;

	*n = 0;
	for (t = 0; t < d->nteams; t++)
		for (w = 0; w < d->teams[t].nworkloads; w++)
			for (i = 0; i < r->ngrants; i++) {
				gr = &r->grants[i];
				if (gr->team != t || gr->workload != w)
					continue;
				items = xreallocarray(items, *n +
				    (size_t)gr->devices + 1, sizeof(*items));
				for (j = 0; j < gr->devices; j++) {
					k = (*n)++;
					memset(&items[k], 0, sizeof(items[k]));
					items[k].geometry = gr->geometry;
					items[k].profile = inv->geometries[
					    gr->geometry]->profiles[gr->profile].
					    name;
					items[k].namespace =
					    d->teams[t].namespace;
					items[k].workload = w;
					items[k].memory = inv->geometries[
					    gr->geometry]->profiles[gr->profile].
					    memory;
				}
			}
	return (items);
}

static enum dra_ret
run_baselines(struct dra_ctx *ctx, const struct plan_inventory *inv,
    const struct plan_demand *d, const struct plan_result *r,
    struct dra_plan_baseline *out, size_t *nout, struct progress *pr)
{
	enum plan_order			 orders[4];
	const char			*names[4];
	struct plan_baseline_item	*items, *copy;
	struct plan_baseline_result	 br;
	struct dra_err			 err;
	size_t				 n, nitems, o;

	*nout = 0;
	if (parse_orders(ctx->opts.baseline != NULL ? ctx->opts.baseline :
	    "as-given,small-first,random", orders, names, &n) != 0)
		return (dra_usage_error(ctx, ctx->cmd, "--baseline: expected "
		    "a comma-separated list of as-given, small-first, "
		    "large-first, random, or none; got \"%s\"",
		    ctx->opts.baseline));
	items = baseline_items(inv, d, r, &nitems);
	for (o = 0; o < n; o++) {
		copy = xcalloc(nitems + 1, sizeof(*copy));
		memcpy(copy, items, nitems * sizeof(*copy));
		plan_baseline_order(copy, nitems, orders[o], 1);
		progress_line(pr, names[o]);
		memset(&br, 0, sizeof(br));
		if (plan_baseline(inv, copy, nitems, &br, &err) != KUBE_OK) {
			free(copy);
			free(items);
			progress_done(pr);
			return (dra_error("first-fit baseline: %s", err.msg));
		}
		out[*nout].order = names[o];
		out[*nout].gpus_used = br.gpus_used;
		out[*nout].unplaced = br.unplaced;
		(*nout)++;
		plan_baseline_result_free(&br);
		free(copy);
	}
	free(items);
	return (DRA_RET_OK);
}

static enum dra_ret
print_plan(struct dra_ctx *ctx, const struct cJSON *doc)
{
	struct dra_buf	 b;
	struct dra_err	 err;
	const char	*o = ctx->opts.output;
	int		 rc;

	if (o != NULL && strcmp(o, "json") == 0) {
		dra_json_print(stdout, doc);
		return (DRA_RET_OK);
	}
	if (o != NULL && strcmp(o, "yaml") == 0) {
		if (kube_yaml_write(stdout, doc, &err) != KUBE_OK)
			return (dra_error("%s", err.msg));
		return (DRA_RET_OK);
	}
	dra_buf_init(&b, DRA_BUF_MAX_FILE);
	if (o != NULL && strcmp(o, "svg") == 0)
		rc = dra_plan_svg(doc, &b, &err);
	else
		rc = dra_plan_table(doc, &b, &err);
	if (rc != KUBE_OK) {
		dra_buf_release(&b);
		return (dra_error("%s", err.msg));
	}
	fwrite(dra_buf_str(&b), 1, b.len, stdout);
	dra_buf_release(&b);
	return (DRA_RET_OK);
}

static enum dra_ret
cmd_plan_exec(struct dra_ctx *ctx, struct dra_args *args)
{
	struct plan_inventory		*inv = NULL;
	struct plan_demand		*d = NULL;
	struct plan_result		*r = NULL;
	struct plan_solve_opts		 so;
	struct plan_verify		 v;
	struct dra_plan_baseline	 bl[4];
	struct dra_plan_input		 in;
	struct progress			 pr;
	struct dra_err			 err;
	struct cJSON			*doc = NULL, *status, *vj;
	enum dra_ret			 ret = DRA_RET_OK;
	size_t				 nbl = 0;
	char				 created[32];
	time_t				 now;
	int				 verify, static_mig = 0;

	if (args->argc > 0)
		return (dra_usage_error(ctx, ctx->cmd, "unexpected argument "
		    "\"%s\": the demand is given with --demand FILE",
		    args->argv[0]));
	if (ctx->opts.demand == NULL)
		return (dra_usage_error(ctx, ctx->cmd, "--demand FILE is "
		    "required (docs/PLAN-DEMAND.md; examples/demand.yaml)"));
	if (ctx->opts.output != NULL && strcmp(ctx->opts.output, "yaml") != 0 &&
	    strcmp(ctx->opts.output, "json") != 0 &&
	    strcmp(ctx->opts.output, "svg") != 0 &&
	    strcmp(ctx->opts.output, "table") != 0)
		return (dra_usage_error(ctx, ctx->cmd, "unknown output format "
		    "\"%s\" for plan: use table, yaml, json or svg",
		    ctx->opts.output));
	if (ctx->opts.fleet != NULL && ctx->opts.from != NULL)
		return (dra_usage_error(ctx, ctx->cmd, "--fleet and --from "
		    "both name the GPUs: give one"));
	memset(&so, 0, sizeof(so));
	so.mip_gap = -1;
	if (ctx->opts.time_limit != NULL &&
	    (so.time_limit = parse_duration(ctx->opts.time_limit)) < 0)
		return (dra_usage_error(ctx, ctx->cmd, "--time-limit: "
		    "expected a duration from 1ms to 24h such as 30s, 2m or "
		    "1m30s, got \"%s\"", ctx->opts.time_limit));
	if (ctx->opts.gap != NULL &&
	    (so.mip_gap = parse_gap(ctx->opts.gap)) < 0)
		return (dra_usage_error(ctx, ctx->cmd, "--gap: expected a "
		    "fraction from 0 to 1 such as 0.01 or 1%%, got \"%s\"",
		    ctx->opts.gap));
	if (ctx->opts.baseline != NULL) {
		enum plan_order	 ord[4];
		const char	*names[4];
		size_t		 n;

		if (parse_orders(ctx->opts.baseline, ord, names, &n) != 0)
			return (dra_usage_error(ctx, ctx->cmd, "--baseline: "
			    "expected a comma-separated list of as-given, "
			    "small-first, large-first, random, or none; got "
			    "\"%s\"", ctx->opts.baseline));
	}
	if (ctx->opts.mig != NULL) {
		if (strcmp(ctx->opts.mig, "static") == 0)
			static_mig = 1;
		else if (strcmp(ctx->opts.mig, "dynamic") != 0)
			return (dra_usage_error(ctx, ctx->cmd, "--mig: expected "
			    "dynamic or static, got \"%s\"", ctx->opts.mig));
	}

	if (plan_demand_load(ctx->opts.demand, &d, &err) != KUBE_OK)
		return (dra_error("%s", err.msg));
	/* The flags override the demand's solver policy, and the plan
	   records what applied. */
	if (so.time_limit > 0)
		d->policy.time_limit = so.time_limit;
	if (so.mip_gap >= 0)
		d->policy.mip_gap = so.mip_gap;
	if ((ret = load_inventory(ctx, &inv)) != DRA_RET_OK)
		goto out;
	if (static_mig) {
		/* mig-parted makes any layout: every GPU may be cut. */
		for (size_t i = 0; i < inv->ngpus; i++)
			if (inv->gpus[i].mode == PLAN_MODE_DYNAMIC &&
			    inv->gpus[i].nrunning == 0)
				inv->gpus[i].mode = PLAN_MODE_WHOLE;
	}

	memset(&pr, 0, sizeof(pr));
	pr.tty = isatty(STDERR_FILENO);
	pr.verbose = ctx->opts.verbosity >= 4;
	so.progress = progress_line;
	so.progress_arg = &pr;
	if (plan_solve(inv, d, &so, &r, &err) != KUBE_OK) {
		progress_done(&pr);
		ret = dra_error("%s", err.msg);
		goto out;
	}
	if (r->status != PLAN_INFEASIBLE && r->status != PLAN_NO_SOLUTION) {
		ret = run_baselines(ctx, inv, d, r, bl, &nbl, &pr);
		if (ret != DRA_RET_OK)
			goto out;
	}
	progress_done(&pr);

	memset(&in, 0, sizeof(in));
	in.inv = inv;
	in.demand = d;
	in.result = r;
	in.baselines = bl;
	in.nbaselines = nbl;
	in.static_mig = static_mig;
	if (getenv("KUBECTL_DRA_NOW") == NULL) {
		now = time(NULL);
		strftime(created, sizeof(created), "%Y-%m-%dT%H:%M:%SZ",
		    gmtime(&now));
		in.created = created;
	}
	doc = dra_plan_document(&in);

	/* Replay through the allocator: the layout must be accepted. */
	verify = ctx->opts.verify;
	if (verify == 0)
		verify = (r->status != PLAN_INFEASIBLE &&
		    r->gpus_used <= PLAN_VERIFY_AUTO_GPUS) ? 1 : -1;
	status = cJSON_GetObjectItemCaseSensitive(doc, "status");
	if (verify > 0 && r->status != PLAN_INFEASIBLE &&
	    r->status != PLAN_NO_SOLUTION && status != NULL) {
		progress_line(&pr, "replaying the plan through the allocator");
		if (plan_verify(inv, r, &v, &err) != KUBE_OK) {
			progress_done(&pr);
			ret = dra_error("replaying the plan: %s", err.msg);
			goto out;
		}
		progress_done(&pr);
		vj = cJSON_AddObjectToObject(status, "verification");
		cJSON_AddStringToObject(vj, "by", "structured allocator "
		    "(Kubernetes 1.37): claims naming their GPU (PCI bus ID), "
		    "first fit in arrival order on dynamic MIG; the planned "
		    "device on static MIG");
		cJSON_AddNumberToObject(vj, "instances", (double)v.instances);
		cJSON_AddNumberToObject(vj, "accepted", (double)v.accepted);
		if (v.first_failure != NULL)
			cJSON_AddStringToObject(vj, "firstFailure",
			    v.first_failure);
		if (v.unpinned > 0) {
			cJSON *u = cJSON_AddObjectToObject(vj, "unpinned");

			cJSON_AddStringToObject(u, "by", "the same claims on "
			    "dynamic MIG naming only their profile and node: "
			    "node-wide first fit in the plan's order");
			cJSON_AddNumberToObject(u, "instances",
			    (double)v.unpinned);
			cJSON_AddNumberToObject(u, "placed",
			    (double)v.unpinned_placed);
			cJSON_AddNumberToObject(u, "asPlanned",
			    (double)v.unpinned_as_planned);
		}
		if (v.accepted != v.instances)
			dra_warning("the allocator does not accept the plan: "
			    "%s", v.first_failure != NULL ? v.first_failure :
			    "");
		plan_verify_free(&v);
	}
	ret = print_plan(ctx, doc);
	if (ret == DRA_RET_OK && r->status == PLAN_INFEASIBLE)
		ret = DRA_RET_NEGATIVE;
	if (ret == DRA_RET_OK && r->status == PLAN_NO_SOLUTION)
		ret = dra_error("no plan found within the time limit of %gs; "
		    "raise --time-limit or accept a --gap",
		    d->policy.time_limit);

out:
	cJSON_Delete(doc);
	plan_result_free(r);
	plan_inventory_free(inv);
	plan_demand_free(d);
	return (ret);
}

const struct dra_cmd dra_cmd_plan = {
	"plan", NULL,
	"propose optimal GPU partition (MIG) layouts and quotas",
	"--demand FILE [--fleet SPEC | --from FILE] [-o table|yaml|json|svg]",
	cmd_plan_help,
	cmd_plan_flags,
	0,
	cmd_plan_exec,
};
