/*
 * test_demand.c: the demand file reader (planner/demand.c): the two
 * examples read to the values they say, every default, the other
 * forms of each field, and bad input refused with the exact message
 * and position.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "demand.h"

#define HEAD	"apiVersion: dra.kubectl.io/v1alpha1\nkind: Demand\n"

static struct plan_demand *
load_ok(const char *path)
{
	struct plan_demand	*d = NULL;
	struct dra_err		 err;

	if (plan_demand_load(path, &d, &err) != KUBE_OK)
		fail_msg("%s", err.msg);
	assert_non_null(d);
	return d;
}

static struct plan_demand *
parse_ok(const char *text)
{
	struct plan_demand	*d = NULL;
	struct dra_err		 err;

	if (plan_demand_parse("demand.yaml", text, strlen(text), &d, &err) !=
	    KUBE_OK)
		fail_msg("%s", err.msg);
	assert_non_null(d);
	return d;
}

static const struct plan_workload *
workload(const struct plan_demand *d, size_t t, size_t w)
{
	assert_true(t < d->nteams);
	assert_true(w < d->teams[t].nworkloads);
	return &d->teams[t].workloads[w];
}

static void
test_example(void **state)
{
	struct plan_demand		*d;
	const struct plan_workload	*w;
	const struct plan_team		*t;

	(void)state;
	d = load_ok(SOURCE_DIR "/examples/demand.yaml");
	assert_string_equal(d->file, SOURCE_DIR "/examples/demand.yaml");

	assert_true(d->policy.price == 15000);
	assert_string_equal(d->policy.currency, "RUB");
	assert_true(d->policy.target == 0.80);
	assert_true(d->policy.ceiling == 0.95);
	assert_int_equal(d->policy.repartition_running, 0);
	assert_true(d->policy.time_limit == 30);
	assert_true(d->policy.mip_gap == 0);
	assert_string_equal(d->policy.device_class_prefix, "mig-");

	assert_int_equal(d->npriority_classes, 2);
	assert_string_equal(d->priority_classes[0].name, "high-ai");
	assert_int_equal(d->priority_classes[0].value, 1000);
	assert_string_equal(d->priority_classes[1].name, "batch");
	assert_int_equal(d->priority_classes[1].value, 100);

	assert_int_equal(d->nteams, 4);

	t = &d->teams[0];
	assert_string_equal(t->namespace, "team-a");
	assert_int_equal(t->line, 24);
	assert_int_equal(t->cap_gpu_milli, 8000);
	assert_int_equal(t->cap_memory_mib, 2 * 1024 * 1024);
	assert_int_equal(t->nworkloads, 2);
	w = workload(d, 0, 0);
	assert_string_equal(w->name, "llm-serve");
	assert_int_equal(w->line, 27);
	assert_int_equal(w->min, 4);
	assert_int_equal(w->max, 8);
	assert_string_equal(w->profile, "3g.40gb");
	assert_int_equal(w->whole, 0);
	assert_int_equal(w->need_memory_mib, 0);
	assert_int_equal(w->need_sm, 0);
	assert_string_equal(w->model, "H100-80GB");
	assert_int_equal(w->share, PLAN_SHARE_EXCLUSIVE);
	assert_int_equal(w->per_device, 1);
	assert_string_equal(w->priority_class, "high-ai");
	assert_int_equal(w->priority, 1000);
	w = workload(d, 0, 1);
	assert_string_equal(w->name, "embeddings");
	assert_int_equal(w->min, 2);
	assert_int_equal(w->max, 6);
	assert_string_equal(w->profile, "1g.10gb");
	assert_null(w->model);
	assert_int_equal(w->priority, 1000);

	t = &d->teams[1];
	assert_string_equal(t->namespace, "team-b");
	assert_int_equal(t->cap_gpu_milli, 3000);
	assert_int_equal(t->cap_memory_mib, -1);
	w = workload(d, 1, 0);
	assert_string_equal(w->name, "notebook");
	assert_int_equal(w->min, 6);
	assert_int_equal(w->max, 6);
	assert_null(w->profile);
	assert_int_equal(w->whole, 0);
	assert_int_equal(w->need_memory_mib, 20 * 1024);
	assert_int_equal(w->need_sm, 30);
	assert_null(w->priority_class);
	assert_int_equal(w->priority, 0);
	w = workload(d, 1, 1);
	assert_string_equal(w->name, "ci-tests");
	assert_int_equal(w->min, 0);
	assert_int_equal(w->max, 8);
	assert_int_equal(w->share, PLAN_SHARE_TIME_SLICING);
	assert_int_equal(w->per_device, 4);
	assert_string_equal(w->priority_class, "batch");
	assert_int_equal(w->priority, 100);

	t = &d->teams[2];
	assert_string_equal(t->namespace, "ml-research");
	assert_int_equal(t->cap_gpu_milli, -1);
	assert_int_equal(t->cap_memory_mib, 1024 * 1024);
	w = workload(d, 2, 0);
	assert_string_equal(w->name, "pretrain");
	assert_int_equal(w->whole, 1);
	assert_null(w->profile);
	assert_string_equal(w->model, "H100-80GB");
	assert_int_equal(w->priority, 100);
	w = workload(d, 2, 1);
	assert_string_equal(w->name, "eval-server");
	assert_int_equal(w->whole, 1);
	assert_int_equal(w->share, PLAN_SHARE_TIME_SLICING);
	assert_int_equal(w->per_device, 2);
	assert_string_equal(w->model, "A100-40GB");
	assert_int_equal(w->priority, 1000);

	t = &d->teams[3];
	assert_string_equal(t->namespace, "data-platform");
	assert_int_equal(t->line, 70);
	assert_int_equal(t->cap_gpu_milli, -1);
	assert_int_equal(t->cap_memory_mib, -1);
	w = workload(d, 3, 0);
	assert_string_equal(w->name, "feature-store");
	assert_int_equal(w->min, 3);
	assert_int_equal(w->max, 6);
	assert_int_equal(w->whole, 1);
	assert_int_equal(w->share, PLAN_SHARE_MEMORY);
	assert_int_equal(w->share_memory_mib, 10240);
	assert_int_equal(w->per_device, 1);
	assert_int_equal(w->priority, 100);

	assert_ptr_equal(plan_demand_priority_class(d, "batch"),
	    &d->priority_classes[1]);
	assert_null(plan_demand_priority_class(d, "gold"));
	assert_null(plan_demand_priority_class(d, NULL));
	plan_demand_free(d);
}

static void
test_example_fragmentation(void **state)
{
	static const struct {
		const char	*ns;
		const char	*name;
		const char	*profile;
		int64_t		 count;
	} want[] = {
		{ "inference", "small-models", "1g.10gb", 24 },
		{ "inference", "long-context", "1g.20gb", 5 },
		{ "serving", "chat", "3g.40gb", 10 },
		{ "serving", "rerank", "2g.20gb", 12 },
		{ "training", "finetune", "4g.40gb", 3 },
		{ "training", "pretrain", "7g.80gb", 2 },
	};
	struct plan_demand		*d;
	const struct plan_workload	*w;
	size_t				 i, t, k = 0;
	int64_t				 total = 0;

	(void)state;
	d = load_ok(SOURCE_DIR "/examples/demand-fragmentation.yaml");
	assert_true(d->policy.price == 15000);
	assert_string_equal(d->policy.currency, "RUB");
	assert_true(d->policy.target == 1);
	assert_true(d->policy.ceiling == 1);
	assert_true(d->policy.time_limit == 60);
	assert_int_equal(d->npriority_classes, 0);
	assert_int_equal(d->nteams, 3);
	for (t = 0; t < d->nteams; t++) {
		for (i = 0; i < d->teams[t].nworkloads; i++, k++) {
			assert_true(k < sizeof want / sizeof want[0]);
			w = &d->teams[t].workloads[i];
			assert_string_equal(d->teams[t].namespace, want[k].ns);
			assert_string_equal(w->name, want[k].name);
			assert_string_equal(w->profile, want[k].profile);
			assert_int_equal(w->min, want[k].count);
			assert_int_equal(w->max, want[k].count);
			assert_int_equal(w->share, PLAN_SHARE_EXCLUSIVE);
			assert_int_equal(d->teams[t].cap_gpu_milli, -1);
			total += w->max;
		}
	}
	assert_int_equal(k, sizeof want / sizeof want[0]);
	assert_int_equal(total, 56);
	plan_demand_free(d);
}

static void
test_defaults(void **state)
{
	struct plan_demand		*d;
	const struct plan_workload	*w;

	(void)state;
	d = load_ok(DATA_DIR "/data/demand-defaults.yaml");
	assert_true(d->policy.price == 0);
	assert_string_equal(d->policy.currency, "");
	assert_true(d->policy.target == 0.80);
	assert_true(d->policy.ceiling == 0.95);
	assert_int_equal(d->policy.repartition_running, 0);
	assert_true(d->policy.time_limit == 60);
	assert_true(d->policy.mip_gap == 0);
	assert_string_equal(d->policy.device_class_prefix, "");
	assert_int_equal(d->npriority_classes, 0);
	assert_null(d->priority_classes);
	assert_int_equal(d->nteams, 1);
	assert_string_equal(d->teams[0].namespace, "solo");
	assert_int_equal(d->teams[0].cap_gpu_milli, -1);
	assert_int_equal(d->teams[0].cap_memory_mib, -1);
	assert_int_equal(d->teams[0].line, 6);
	w = workload(d, 0, 0);
	assert_string_equal(w->name, "job");
	assert_int_equal(w->line, 8);
	assert_int_equal(w->min, 1);
	assert_int_equal(w->max, 1);
	assert_string_equal(w->profile, "1g.10gb");
	assert_int_equal(w->whole, 0);
	assert_int_equal(w->need_memory_mib, 0);
	assert_int_equal(w->need_sm, 0);
	assert_null(w->model);
	assert_int_equal(w->share, PLAN_SHARE_EXCLUSIVE);
	assert_int_equal(w->per_device, 1);
	assert_int_equal(w->share_memory_mib, 0);
	assert_null(w->priority_class);
	assert_int_equal(w->priority, 0);
	plan_demand_free(d);

	/* An empty policy and null optional fields are the defaults too. */
	d = parse_ok(HEAD "metadata: {name: x}\npolicy: {}\n"
	    "priorityClasses:\nteams:\n- namespace: a\n  caps:\n"
	    "  workloads:\n  - {name: w, replicas: 2, needs: gpu, "
	    "sharing: ~, model: null}\n");
	assert_true(d->policy.target == 0.80);
	assert_true(d->policy.time_limit == 60);
	assert_int_equal(d->teams[0].cap_gpu_milli, -1);
	assert_int_equal(d->teams[0].workloads[0].whole, 1);
	assert_null(d->teams[0].workloads[0].profile);
	assert_int_equal(d->teams[0].workloads[0].share,
	    PLAN_SHARE_EXCLUSIVE);
	assert_null(d->teams[0].workloads[0].model);
	plan_demand_free(d);
}

static void
test_forms(void **state)
{
	struct plan_demand		*d;
	const struct plan_workload	*w;

	(void)state;
	d = load_ok(DATA_DIR "/data/demand-forms.yaml");
	assert_true(d->policy.price == 1234.5);
	assert_string_equal(d->policy.currency, "");
	assert_true(d->policy.target == 0.5);
	assert_true(d->policy.ceiling == 1);
	assert_int_equal(d->policy.repartition_running, 1);
	assert_true(d->policy.time_limit == 90);
	assert_true(d->policy.mip_gap == 0.01);
	assert_string_equal(d->policy.device_class_prefix,
	    "gpu.example.com-");
	assert_int_equal(d->npriority_classes, 0);
	assert_int_equal(d->nteams, 2);
	assert_int_equal(d->teams[0].cap_gpu_milli, 2500);
	assert_int_equal(d->teams[0].cap_memory_mib, 954);

	w = workload(d, 0, 0);
	assert_int_equal(w->min, 0);
	assert_int_equal(w->max, 3);
	assert_string_equal(w->profile, "2g.20gb");
	w = workload(d, 0, 1);
	assert_int_equal(w->min, 2);
	assert_int_equal(w->max, 2);
	assert_int_equal(w->whole, 1);
	assert_null(w->profile);
	assert_int_equal(w->share, PLAN_SHARE_EXCLUSIVE);
	w = workload(d, 0, 2);
	assert_int_equal(w->min, 0);
	assert_int_equal(w->max, 1);
	assert_null(w->profile);
	assert_int_equal(w->need_sm, 14);
	assert_int_equal(w->need_memory_mib, 0);
	w = workload(d, 0, 3);
	assert_int_equal(w->need_memory_mib, 1);
	assert_int_equal(w->share, PLAN_SHARE_TIME_SLICING);
	assert_int_equal(w->per_device, PLAN_DEMAND_MAX_PER_DEVICE);
	assert_string_equal(w->model, "NVIDIA H100 80GB HBM3");

	assert_int_equal(d->teams[1].cap_gpu_milli, 0);
	assert_int_equal(d->teams[1].cap_memory_mib, 0);
	w = workload(d, 1, 0);		/* the alias of teams[0]'s a */
	assert_string_equal(w->name, "a");
	assert_string_equal(w->profile, "2g.20gb");
	assert_int_equal(w->max, 3);
	w = workload(d, 1, 1);
	assert_int_equal(w->whole, 1);
	assert_int_equal(w->share, PLAN_SHARE_MEMORY);
	assert_int_equal(w->share_memory_mib, 1500);
	plan_demand_free(d);
}

static void
test_json(void **state)
{
	struct plan_demand		*d;
	const struct plan_workload	*w;

	(void)state;
	d = load_ok(DATA_DIR "/data/demand-json.yaml");
	assert_true(d->policy.price == 99.5);
	assert_string_equal(d->policy.currency, "USD");
	assert_true(d->policy.target == 0.70);
	assert_true(d->policy.ceiling == 0.9);
	assert_int_equal(d->policy.repartition_running, 1);
	assert_true(d->policy.time_limit == 0.5);
	assert_true(d->policy.mip_gap == 0.02);
	assert_int_equal(d->priority_classes[0].value, -5);
	assert_string_equal(d->teams[0].namespace, "json-team");
	assert_int_equal(d->teams[0].cap_gpu_milli, 1500);
	assert_int_equal(d->teams[0].cap_memory_mib, 80 * 1024);
	w = workload(d, 0, 0);
	assert_int_equal(w->min, 1);
	assert_int_equal(w->max, 2);
	assert_int_equal(w->need_memory_mib, 40 * 1024);
	assert_int_equal(w->need_sm, 60);
	assert_int_equal(w->share, PLAN_SHARE_MPS);
	assert_int_equal(w->per_device, 3);
	assert_string_equal(w->priority_class, "gold");
	assert_int_equal(w->priority, -5);
	plan_demand_free(d);
}

/* Small values that come out exactly: memory rounding, durations. */
static void
test_units(void **state)
{
	static const struct {
		const char	*memory;
		int64_t		 mib;
	} mem[] = {
		{ "1", 1 }, { "1Mi", 1 }, { "1048577", 2 }, { "1Gi", 1024 },
		{ "20G", 19074 }, { "2Ti", 2097152 }, { "0.5Gi", 512 },
		{ "1500Mi", 1500 }, { "1e9", 954 },
	};
	static const struct {
		const char	*limit;
		double		 sec;
	} dur[] = {
		{ "30s", 30 }, { "2m", 120 }, { "1h", 3600 },
		{ "1m30s", 90 }, { "1.5s", 1.5 }, { "250ms", 0.25 },
		{ "45", 45 }, { "0.25", 0.25 }, { "24h", 86400 },
	};
	struct plan_demand	*d;
	char			 text[512];
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof mem / sizeof mem[0]; i++) {
		snprintf(text, sizeof text, HEAD "teams:\n- namespace: a\n"
		    "  workloads:\n  - {name: w, replicas: 1, needs: "
		    "{memory: \"%s\"}}\n", mem[i].memory);
		d = parse_ok(text);
		if (d->teams[0].workloads[0].need_memory_mib != mem[i].mib)
			fail_msg("%s: %lld MiB, want %lld", mem[i].memory,
			    (long long)d->teams[0].workloads[0].need_memory_mib,
			    (long long)mem[i].mib);
		plan_demand_free(d);
	}
	for (i = 0; i < sizeof dur / sizeof dur[0]; i++) {
		snprintf(text, sizeof text, HEAD "policy: {solver: "
		    "{timeLimit: %s}}\nteams:\n- namespace: a\n"
		    "  workloads:\n  - {name: w, replicas: 1, needs: gpu}\n",
		    dur[i].limit);
		d = parse_ok(text);
		if (d->policy.time_limit != dur[i].sec)
			fail_msg("%s: %g s, want %g", dur[i].limit,
			    d->policy.time_limit, dur[i].sec);
		plan_demand_free(d);
	}
}

/*
 * Bad input: each is refused with KUBE_E_PARSE and exactly this
 * message, and nothing leaks (ASan builds).
 */
static void
test_errors(void **state)
{
	static const struct {
		const char	*text;
		const char	*msg;
	} cases[] = {
		/* 1: the example of the brief, a negative minimum */
		{ HEAD "teams:\n- namespace: team-a\n  workloads:\n"
		  "  - {name: a, replicas: 1, needs: gpu}\n"
		  "  - name: b\n    replicas: {min: -1, max: 2}\n"
		  "    needs: gpu\n",
		  "demand.yaml:8:21: teams[0].workloads[1].replicas.min: "
		  "expected a non-negative integer, got \"-1\"" },
		/* 2: two kinds of need */
		{ HEAD "teams:\n- namespace: a\n  workloads:\n"
		  "  - name: w\n    replicas: 1\n"
		  "    needs: {profile: 3g.40gb, memory: 20Gi}\n",
		  "demand.yaml:8:12: teams[0].workloads[0].needs: give exactly "
		  "one of profile, gpu, or a memory/sm requirement" },
		/* 3: no need at all */
		{ HEAD "teams:\n- namespace: a\n  workloads:\n"
		  "  - {name: w, replicas: 1, needs: {}}\n",
		  "demand.yaml:6:35: teams[0].workloads[0].needs: give exactly "
		  "one of profile, gpu, or a memory/sm requirement" },
		/* 4: a priority class that is not listed */
		{ HEAD "priorityClasses:\n- {name: batch, value: 100}\n"
		  "teams:\n- namespace: a\n  workloads:\n"
		  "  - name: w\n    replicas: 1\n    needs: gpu\n"
		  "    priorityClass: gold\n",
		  "demand.yaml:11:20: teams[0].workloads[0].priorityClass: "
		  "\"gold\" is not listed in priorityClasses" },
		/* 5: a typo in a field name */
		{ HEAD "teams:\n- namespace: a\n  workloads:\n"
		  "  - name: w\n    replica: 1\n    needs: gpu\n",
		  "demand.yaml:7:5: teams[0].workloads[0]: unknown field "
		  "\"replica\" (did you mean \"replicas\"?)" },
		/* 6: an unknown field, nothing near it */
		{ HEAD "budget: 5\nteams: []\n",
		  "demand.yaml:3:1: unknown field \"budget\" (known fields: "
		  "apiVersion, kind, metadata, policy, priorityClasses, "
		  "teams)" },
		/* 7: the same namespace twice */
		{ HEAD "teams:\n"
		  "- namespace: a\n  workloads: [{name: w, replicas: 1, "
		  "needs: gpu}]\n"
		  "- namespace: a\n  workloads: [{name: w, replicas: 1, "
		  "needs: gpu}]\n",
		  "demand.yaml:6:14: teams[1].namespace: \"a\" is listed "
		  "twice (first at 4:14)" },
		/* 8: the same workload twice in a team */
		{ HEAD "teams:\n- namespace: team-a\n  workloads:\n"
		  "  - {name: w, replicas: 1, needs: gpu}\n"
		  "  - {name: w, replicas: 2, needs: gpu}\n",
		  "demand.yaml:7:12: teams[0].workloads[1].name: \"w\" is "
		  "listed twice in team-a (first at 6:12)" },
		/* 9: min above max */
		{ HEAD "teams:\n- namespace: a\n  workloads:\n"
		  "  - {name: w, replicas: {min: 5, max: 3}, needs: gpu}\n",
		  "demand.yaml:6:31: teams[0].workloads[0].replicas.min: 5 is "
		  "above max 3" },
		/* 10: the target above the ceiling */
		{ HEAD "policy:\n  utilization: {target: 97%, ceiling: 95%}\n"
		  "teams: []\n",
		  "demand.yaml:4:25: policy.utilization.target: 97% is above "
		  "the ceiling 95%" },
		/* 11: the target above the default ceiling */
		{ HEAD "policy:\n  utilization: {target: 0.96}\nteams: []\n",
		  "demand.yaml:4:25: policy.utilization.target: 96% is above "
		  "the ceiling 95% (the default)" },
		/* 12: a ceiling above 100% */
		{ HEAD "policy:\n  utilization: {ceiling: 120%}\nteams: []\n",
		  "demand.yaml:4:26: policy.utilization.ceiling: must be at "
		  "most 100%, got \"120%\"" },
		/* 13: a percentage without its sign */
		{ HEAD "policy:\n  utilization: {target: 80}\nteams: []\n",
		  "demand.yaml:4:25: policy.utilization.target: expected a "
		  "fraction from 0 to 1 or a percentage, got \"80\" (write "
		  "\"80%\" for a percentage)" },
		/* 14: a namespace that is no RFC 1123 label */
		{ HEAD "teams:\n- namespace: Team_A\n  workloads: "
		  "[{name: w, replicas: 1, needs: gpu}]\n",
		  "demand.yaml:4:14: teams[0].namespace: \"Team_A\" is not a "
		  "valid namespace name (RFC 1123 label: at most 63 lowercase "
		  "letters, digits and '-', starting and ending with a letter "
		  "or digit)" },
		/* 15: an invalid quantity */
		{ HEAD "teams:\n- namespace: a\n"
		  "  caps: {gpus: 8, memory: 2TB}\n"
		  "  workloads: [{name: w, replicas: 1, needs: gpu}]\n",
		  "demand.yaml:5:27: teams[0].caps.memory: invalid quantity "
		  "\"2TB\" (expected a quantity such as 2Ti or 640Gi)" },
		/* 16: a negative cap */
		{ HEAD "teams:\n- namespace: a\n  caps: {gpus: -2}\n"
		  "  workloads: [{name: w, replicas: 1, needs: gpu}]\n",
		  "demand.yaml:5:16: teams[0].caps.gpus: expected a "
		  "non-negative quantity, got \"-2\"" },
		/* 17: the wrong apiVersion */
		{ "apiVersion: v1\nkind: Demand\nteams: []\n",
		  "demand.yaml:1:13: apiVersion: expected "
		  "\"dra.kubectl.io/v1alpha1\", got \"v1\"" },
		/* 18: the wrong kind */
		{ "apiVersion: dra.kubectl.io/v1alpha1\nkind: List\n"
		  "items: []\n",
		  "demand.yaml:2:7: kind: expected \"Demand\", got \"List\"" },
		/* 19: no apiVersion */
		{ "kind: Demand\nteams: []\n",
		  "demand.yaml:1:1: apiVersion: required field is missing "
		  "(expected \"dra.kubectl.io/v1alpha1\")" },
		/* 20: no team */
		{ HEAD "teams: []\n",
		  "demand.yaml:3:8: teams: expected at least one team" },
		/* 21: teams left out */
		{ HEAD "policy: {}\n",
		  "demand.yaml:1:1: teams: required field is missing" },
		/* 22: a YAML syntax error */
		{ HEAD "teams:\n- namespace: a\n  workloads: [\n",
		  "demand.yaml:6:1: did not find expected node content while "
		  "parsing a flow node" },
		/* 23: a field given twice */
		{ HEAD "teams:\n- namespace: a\n  namespace: b\n",
		  "demand.yaml:5:3: teams[0]: duplicate field \"namespace\" "
		  "(first at 4:3)" },
		/* 24: time-slicing without its count */
		{ HEAD "teams:\n- namespace: a\n  workloads:\n"
		  "  - {name: w, replicas: 1, needs: gpu, sharing: mps}\n",
		  "demand.yaml:6:49: teams[0].workloads[0].sharing: mps needs "
		  "replicasPerDevice: write {mode: mps, "
		  "replicasPerDevice: N}" },
		/* 25: a count on an exclusive device */
		{ HEAD "teams:\n- namespace: a\n  workloads:\n"
		  "  - name: w\n    replicas: 1\n    needs: gpu\n"
		  "    sharing: {mode: exclusive, replicasPerDevice: 2}\n",
		  "demand.yaml:9:51: teams[0].workloads[0].sharing."
		  "replicasPerDevice: only with mode time-slicing or mps" },
		/* 26: an unknown sharing mode */
		{ HEAD "teams:\n- namespace: a\n  workloads:\n"
		  "  - name: w\n    replicas: 1\n    needs: gpu\n"
		  "    sharing: {mode: shared}\n",
		  "demand.yaml:9:21: teams[0].workloads[0].sharing.mode: "
		  "expected exclusive, time-slicing, mps or memory, got "
		  "\"shared\"" },
		/* 27: gpu: something else than whole */
		{ HEAD "teams:\n- namespace: a\n  workloads:\n"
		  "  - {name: w, replicas: 1, needs: {gpu: half}}\n",
		  "demand.yaml:6:41: teams[0].workloads[0].needs.gpu: expected "
		  "\"whole\", got \"half\"" },
		/* 28: a fractional replica count */
		{ HEAD "teams:\n- namespace: a\n  workloads:\n"
		  "  - {name: w, replicas: 2.5, needs: gpu}\n",
		  "demand.yaml:6:25: teams[0].workloads[0].replicas: expected "
		  "a positive integer or {min, max}, got \"2.5\"" },
		/* 29: a time limit that is not a duration */
		{ HEAD "policy:\n  solver: {timeLimit: 30 seconds}\n"
		  "teams: []\n",
		  "demand.yaml:4:23: policy.solver.timeLimit: expected a "
		  "duration such as 30s, 2m or 1m30s, got \"30 seconds\"" },
		/* 30: a zero time limit */
		{ HEAD "policy:\n  solver: {timeLimit: 0s}\nteams: []\n",
		  "demand.yaml:4:23: policy.solver.timeLimit: must be above 0, "
		  "got \"0s\"" },
		/* 31: a second document */
		{ HEAD "teams: []\n---\n" HEAD,
		  "demand.yaml:4:1: a second document: a demand file holds "
		  "one Demand" },
		/* 32: an empty file */
		{ "# nothing\n",
		  "demand.yaml:1:1: the file is empty: expected a document of "
		  "kind Demand" },
		/* 33: the document is a list */
		{ "- a\n- b\n",
		  "demand.yaml:1:1: expected a mapping of kind Demand, got a "
		  "list" },
		/* 34: a priority class listed twice */
		{ HEAD "priorityClasses:\n- {name: batch, value: 1}\n"
		  "- {name: batch, value: 2}\nteams: []\n",
		  "demand.yaml:5:10: priorityClasses[1].name: \"batch\" is "
		  "listed twice (first at 4:10)" },
		/* 35: a priority class name Kubernetes reserves */
		{ HEAD "priorityClasses:\n- {name: system-high, value: 1}\n"
		  "teams: []\n",
		  "demand.yaml:4:10: priorityClasses[0].name: \"system-high\": "
		  "names starting with \"system-\" are reserved by "
		  "Kubernetes" },
		/* 36: a priority above what users may define */
		{ HEAD "priorityClasses:\n- {name: top, value: 2000000000}\n"
		  "teams: []\n",
		  "demand.yaml:4:22: priorityClasses[0].value: \"2000000000\" "
		  "is above the limit 1000000000" },
		/* 37: a priority below int32 */
		{ HEAD "priorityClasses:\n- {name: low, value: -3000000000}\n"
		  "teams: []\n",
		  "demand.yaml:4:22: priorityClasses[0].value: expected an "
		  "integer from -2147483648 to 1000000000, got "
		  "\"-3000000000\"" },
		/* 38: a team without workloads */
		{ HEAD "teams:\n- namespace: a\n  workloads: []\n",
		  "demand.yaml:5:14: teams[0].workloads: expected at least one "
		  "workload" },
		/* 39: min 0 and no max */
		{ HEAD "teams:\n- namespace: a\n  workloads:\n"
		  "  - {name: w, replicas: {min: 0}, needs: gpu}\n",
		  "demand.yaml:6:25: teams[0].workloads[0].replicas: min 0 "
		  "without max asks for nothing: give max" },
		/* 40: an unknown anchor */
		{ HEAD "teams: *nope\n",
		  "demand.yaml:3:8: unknown anchor \"nope\"" },
		/* 41: a control character, shown escaped */
		{ HEAD "teams:\n- namespace: \"a\\tb\"\n"
		  "  workloads: [{name: w, replicas: 1, needs: gpu}]\n",
		  "demand.yaml:4:14: teams[0].namespace: \"a\\x09b\" holds a "
		  "control character" },
		/* 42: a quoted integer is a string */
		{ HEAD "teams:\n- namespace: a\n  workloads:\n"
		  "  - {name: w, replicas: \"3\", needs: gpu}\n",
		  "demand.yaml:6:25: teams[0].workloads[0].replicas: expected "
		  "a positive integer or {min, max}, got \"3\"" },
		/* 43: a bad profile name */
		{ HEAD "teams:\n- namespace: a\n  workloads:\n"
		  "  - {name: w, replicas: 1, needs: 3g 40gb}\n",
		  "demand.yaml:6:35: teams[0].workloads[0].needs: \"3g 40gb\" "
		  "is not a profile name (letters, digits, '.', '+', '_' and "
		  "'-', such as 3g.40gb)" },
		/* 44: memory sharing without the share */
		{ HEAD "teams:\n- namespace: a\n  workloads:\n"
		  "  - name: w\n    replicas: 1\n    needs: gpu\n"
		  "    sharing: {mode: memory}\n",
		  "demand.yaml:9:14: teams[0].workloads[0].sharing.memory: "
		  "required field is missing" },
		/* 45: a zero memory requirement */
		{ HEAD "teams:\n- namespace: a\n  workloads:\n"
		  "  - {name: w, replicas: 1, needs: {memory: 0Gi, sm: 4}}\n",
		  "demand.yaml:6:44: teams[0].workloads[0].needs.memory: "
		  "expected a positive quantity, got \"0Gi\"" },
		/* 46: JSON, with an error */
		{ "{\"apiVersion\": \"dra.kubectl.io/v1alpha1\", "
		  "\"kind\": \"Demand\",\n \"teams\": [{\"namespace\": \"a\", "
		  "\"workloads\": [{\"name\": \"w\", \"replicas\": 1, "
		  "\"needs\": \"gpu\", \"priority\": 5}]}]}\n",
		  "demand.yaml:2:90: teams[0].workloads[0]: unknown field "
		  "\"priority\" (did you mean \"priorityClass\"?)" },
		/* 47: caps as a list */
		{ HEAD "teams:\n- namespace: a\n  caps: [8]\n"
		  "  workloads: [{name: w, replicas: 1, needs: gpu}]\n",
		  "demand.yaml:5:9: teams[0].caps: expected a mapping, got a "
		  "list" },
		/* 48: a missing space after the colon */
		{ HEAD "teams:\n- namespace: a\n  caps: {memory:2Ti}\n"
		  "  workloads: [{name: w, replicas: 1, needs: gpu}]\n",
		  "demand.yaml:5:10: teams[0].caps: unknown field "
		  "\"memory:2Ti\" (did you mean \"memory\"?)" },
	};
	struct plan_demand	*d;
	struct dra_err		 err;
	size_t			 i, bad = 0;
	int			 rc;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		d = (struct plan_demand *)&err;
		rc = plan_demand_parse("demand.yaml", cases[i].text,
		    strlen(cases[i].text), &d, &err);
		if (rc != KUBE_E_PARSE || err.code != KUBE_E_PARSE) {
			print_error("case %zu: rc %d, want KUBE_E_PARSE\n",
			    i + 1, rc);
			bad++;
		}
		if (rc == KUBE_OK)
			plan_demand_free(d);
		else if (d != NULL) {
			print_error("case %zu: *out not NULL\n", i + 1);
			bad++;
		}
		if (strcmp(err.msg, cases[i].msg) != 0) {
			print_error("case %zu:\n got: %s\nwant: %s\n", i + 1,
			    err.msg, cases[i].msg);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/* Errors from files: the name given is the one in messages. */
static void
test_files(void **state)
{
	struct plan_demand	*d = NULL;
	struct dra_err		 err;

	(void)state;
	assert_int_equal(plan_demand_load(DATA_DIR "/data/demand-bad-typo.yaml",
	    &d, &err), KUBE_E_PARSE);
	assert_null(d);
	assert_string_equal(err.msg, DATA_DIR "/data/demand-bad-typo.yaml:"
	    "7:5: teams[0].workloads[0]: unknown field \"replica\" (did you "
	    "mean \"replicas\"?)");

	assert_int_equal(plan_demand_load(DATA_DIR
	    "/data/demand-bad-syntax.yaml", &d, &err), KUBE_E_PARSE);
	assert_null(d);
	assert_string_equal(err.msg, DATA_DIR "/data/demand-bad-syntax.yaml:"
	    "8:10: did not find expected ',' or '}' while parsing a flow "
	    "mapping");

	assert_int_equal(plan_demand_load(DATA_DIR "/data/no-such-file.yaml",
	    &d, &err), KUBE_E_IO);
	assert_null(d);
	assert_string_equal(err.msg, DATA_DIR "/data/no-such-file.yaml: "
	    "No such file or directory");

	assert_int_equal(plan_demand_load(DATA_DIR "/data", &d, &err),
	    KUBE_E_IO);
	assert_null(d);
	assert_string_equal(err.msg, DATA_DIR "/data: Is a directory");
}

/* "-" reads standard input, named <stdin>. */
static void
test_stdin(void **state)
{
	struct plan_demand	*d = NULL;
	struct dra_err		 err;
	int			 saved;

	(void)state;
	saved = dup(STDIN_FILENO);
	assert_true(saved >= 0);
	assert_non_null(freopen(DATA_DIR "/data/demand-bad-typo.yaml", "r",
	    stdin));
	assert_int_equal(plan_demand_load("-", &d, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "<stdin>:7:5: teams[0].workloads[0]: "
	    "unknown field \"replica\" (did you mean \"replicas\"?)");
	assert_non_null(freopen(DATA_DIR "/data/demand-defaults.yaml", "r",
	    stdin));
	d = load_ok("-");
	assert_string_equal(d->file, "<stdin>");
	assert_string_equal(d->teams[0].namespace, "solo");
	plan_demand_free(d);
	assert_int_equal(dup2(saved, STDIN_FILENO), STDIN_FILENO);
	close(saved);
}

/* A file above PLAN_DEMAND_MAX_BYTES is refused, not read whole. */
static void
test_too_big(void **state)
{
	struct plan_demand	*d = NULL;
	struct dra_err		 err;
	char			 path[] = "/tmp/test_demand.XXXXXX";
	char			 line[4096];
	size_t			 i;
	FILE			*f;
	int			 fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	memset(line, ' ', sizeof line - 1);
	line[sizeof line - 1] = '\n';
	for (i = 0; i <= PLAN_DEMAND_MAX_BYTES / sizeof line; i++)
		assert_int_equal(fwrite(line, 1, sizeof line, f), sizeof line);
	fclose(f);
	assert_int_equal(plan_demand_load(path, &d, &err), KUBE_E_TOOBIG);
	assert_null(d);
	assert_non_null(strstr(err.msg, ": larger than 16 MiB"));
	unlink(path);
}

static void
test_free_null(void **state)
{
	(void)state;
	plan_demand_free(NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_example),
		cmocka_unit_test(test_example_fragmentation),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_stdin),
		cmocka_unit_test(test_too_big),
		cmocka_unit_test(test_free_null),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
