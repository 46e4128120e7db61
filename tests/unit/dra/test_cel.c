/*
 * test_cel.c: unit tests of the selector CEL (kube/dra/cel.h).
 *
 *  - cel-vectors.txt: expressions, device attributes and expected
 *    results taken from Kubernetes' and cel-go's own tests (each block
 *    names its upstream file and test case); the format is described
 *    at the top of that file.
 *  - The shared cases 01 and 03 (../shared/cases): the selectors of
 *    their input.yaml against their devices, with the outcome the real
 *    kube-apiserver / kube-scheduler v1.37.2 recorded in
 *    tests/oracle/records (the compile error text and column, the
 *    runtime error text).
 *  - Robustness: truncations and byte mutations of every vector
 *    expression, deep nesting and over-long input, compiled and
 *    evaluated without a crash (run under -DDRA_ASAN=ON too).
 *  - Speed of a typical selector (printed; a loose lower bound).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arena.h"
#include "cel.h"
#include "dratest.h"
#include "model.h"
#include "snapshot.h"

#define MAX_ATTRS	64
#define MAX_EXPR	8192

/* One test vector. */
struct vector {
	char			 name[256];
	int			 line;		/* where the block starts */
	struct kube_slice	 slice;
	struct kube_device	 dev;
	struct kube_attr	 attrs[MAX_ATTRS];
	struct kube_capacity	 caps[MAX_ATTRS];
	char			 expr[MAX_EXPR];
	char			 want[16];	/* true false error compile
						   unsupported */
	char			 text[512];	/* expected message part */
};

static struct dra_arena	arena;		/* strings of all vectors */
static struct vector	*vectors;
static size_t		 nvectors;

static char *
trim_nl(char *s)
{
	size_t n = strlen(s);

	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

/* The attribute type a vector names ("int", "strings", ...). */
static enum kube_attr_type
attr_type(const char *t, int line)
{
	static const struct {
		const char		*name;
		enum kube_attr_type	 type;
	} types[] = {
		{ "int", KUBE_ATTR_INT }, { "bool", KUBE_ATTR_BOOL },
		{ "string", KUBE_ATTR_STRING },
		{ "version", KUBE_ATTR_VERSION }, { "ints", KUBE_ATTR_INTS },
		{ "bools", KUBE_ATTR_BOOLS }, { "strings", KUBE_ATTR_STRINGS },
		{ "versions", KUBE_ATTR_VERSIONS },
	};
	size_t i;

	for (i = 0; i < sizeof types / sizeof types[0]; i++)
		if (strcmp(types[i].name, t) == 0)
			return types[i].type;
	fail_msg("cel-vectors.txt:%d: unknown attribute type %s", line, t);
	return KUBE_ATTR_INT;
}

/* Split "domain/id" (or "id": the driver's domain). */
static void
split_name(struct vector *v, const char *name, const char **domain,
    const char **id)
{
	const char *slash = strchr(name, '/');

	if (slash == NULL) {
		*domain = v->slice.driver;
		*id = dra_arena_strdup(&arena, name);
	} else {
		*domain = dra_arena_strndup(&arena, name,
		    (size_t)(slash - name));
		*id = dra_arena_strdup(&arena, slash + 1);
	}
}

/* Apply one "keyword argument" line of a vector block to v. */
static void
vector_line(struct vector *v, char *line, int lineno)
{
	char	*arg = strchr(line, ' '), *rest;

	if (arg != NULL)
		*arg++ = '\0';
	else
		arg = line + strlen(line);
	if (strcmp(line, "driver") == 0)
		v->slice.driver = dra_arena_strdup(&arena, arg);
	else if (strcmp(line, "multi") == 0)
		v->dev.allow_multiple = strcmp(arg, "true") == 0;
	else if (strcmp(line, "attr") == 0) {
		struct kube_attr	*a = &v->attrs[v->dev.nattrs++];
		char			*type, *val;

		assert_true(v->dev.nattrs <= MAX_ATTRS);
		type = strchr(arg, ' ');
		assert_non_null(type);
		*type++ = '\0';
		val = strchr(type, ' ');
		if (val != NULL)
			*val++ = '\0';
		else
			val = type + strlen(type);
		split_name(v, arg, &a->domain, &a->id);
		a->type = attr_type(type, lineno);
		switch (a->type) {
		case KUBE_ATTR_INT:
			a->i = strtoll(val, NULL, 10);
			break;
		case KUBE_ATTR_BOOL:
			a->i = strcmp(val, "true") == 0;
			break;
		case KUBE_ATTR_STRING:
		case KUBE_ATTR_VERSION:
			a->s = dra_arena_strdup(&arena, val);
			break;
		default:
			/* Space-separated items. */
			a->list = dra_arena_calloc(&arena, 64,
			    sizeof *a->list);
			for (rest = val; *rest != '\0'; ) {
				size_t len = strcspn(rest, " ");

				assert_true(a->nlist < 64);
				if (len > 0)
					a->list[a->nlist++] =
					    dra_arena_strndup(&arena, rest, len);
				rest += len + (rest[len] == ' ');
			}
			break;
		}
	} else if (strcmp(line, "cap") == 0) {
		struct kube_capacity	*c = &v->caps[v->dev.ncapacity++];
		struct dra_err		 err;
		char			*val = strchr(arg, ' ');

		assert_non_null(val);
		*val++ = '\0';
		split_name(v, arg, &c->domain, &c->id);
		if (kube_quantity_parse(val, &c->value, &err) != KUBE_OK)
			fail_msg("cel-vectors.txt:%d: %s", lineno, err.msg);
		c->value.text = dra_arena_strdup(&arena, val);
	} else if (strcmp(line, "expr") == 0) {
		if (v->expr[0] != '\0')
			strncat(v->expr, "\n", MAX_EXPR - strlen(v->expr) - 1);
		strncat(v->expr, arg, MAX_EXPR - strlen(v->expr) - 1);
	} else if (strcmp(line, "want") == 0) {
		rest = strchr(arg, ' ');
		if (rest != NULL)
			*rest++ = '\0';
		snprintf(v->want, sizeof v->want, "%s", arg);
		snprintf(v->text, sizeof v->text, "%s", rest ? rest : "");
	} else
		fail_msg("cel-vectors.txt:%d: unknown line '%s'", lineno,
		    line);
}

/* Read DATA_DIR/cel-vectors.txt into vectors[]. */
static int
load_vectors(void **state)
{
	FILE		*f;
	char		 buf[MAX_EXPR];
	int		 lineno = 0;
	struct vector	*v = NULL;
	size_t		 cap = 0;

	(void)state;
	dra_arena_init(&arena);
	f = fopen(DATA_DIR "/cel-vectors.txt", "r");
	assert_non_null(f);
	while (fgets(buf, sizeof buf, f) != NULL) {
		lineno++;
		trim_nl(buf);
		if (buf[0] == '\0') {
			v = NULL;
			continue;
		}
		if (v == NULL) {
			if (buf[0] == '#' && buf[1] == '#')
				continue;	/* file commentary */
			if (nvectors == cap) {
				cap = cap ? cap * 2 : 64;
				vectors = realloc(vectors, cap *
				    sizeof *vectors);
				assert_non_null(vectors);
			}
			v = &vectors[nvectors++];
			memset(v, 0, sizeof *v);
			v->line = lineno;
			v->slice.driver = "";
			v->dev.name = "dev-0";
		}
		if (buf[0] == '#') {
			if (v->name[0] == '\0')
				snprintf(v->name, sizeof v->name, "%s",
				    buf + 1 + (buf[1] == ' '));
			continue;
		}
		vector_line(v, buf, lineno);
	}
	fclose(f);
	assert_true(nvectors > 0);
	/* The array has moved while it grew: point devices at it now. */
	for (v = vectors; v < vectors + nvectors; v++) {
		v->dev.slice = &v->slice;
		v->dev.attrs = v->attrs;
		v->dev.capacity = v->caps;
	}
	return 0;
}

static int
free_vectors(void **state)
{
	(void)state;
	free(vectors);
	dra_arena_release(&arena);
	return 0;
}

/* Run one vector; returns NULL or what went wrong (static buffer). */
static const char *
run_vector(const struct vector *v)
{
	static char	 why[2048];
	struct dra_cel	*p = NULL;
	struct dra_err	 err;
	int		 rc, r;
	const char	*got;

	memset(&err, 0, sizeof err);
	rc = dra_cel_compile(v->expr, &p, &err);
	if (strcmp(v->want, "compile") == 0) {
		if (rc != KUBE_E_PARSE) {
			r = p ? dra_cel_eval(p, &v->dev, &err) : 0;
			dra_cel_free(p);
			snprintf(why, sizeof why, "compiled (eval %d: %s), "
			    "want compile error '%s'", r, err.msg, v->text);
			return why;
		}
		if (p != NULL)
			return "compile error but program returned";
		if (strstr(err.msg, v->text) == NULL) {
			snprintf(why, sizeof why, "compile error '%s', want "
			    "'%s'", err.msg, v->text);
			return why;
		}
		return NULL;
	}
	if (rc != KUBE_OK) {
		snprintf(why, sizeof why, "compile error '%s'", err.msg);
		return why;
	}
	r = dra_cel_eval(p, &v->dev, &err);
	/* Evaluation is repeatable: a second run gives the same. */
	if (dra_cel_eval(p, &v->dev, &err) != r) {
		dra_cel_free(p);
		return "second evaluation differs";
	}
	dra_cel_free(p);
	switch (r) {
	case DRA_CEL_TRUE: got = "true"; break;
	case DRA_CEL_FALSE: got = "false"; break;
	case DRA_CEL_ERROR: got = "error"; break;
	case DRA_CEL_UNSUPPORTED: got = "unsupported"; break;
	default: got = "?"; break;
	}
	if (strcmp(got, v->want) != 0) {
		snprintf(why, sizeof why, "got %s%s%s, want %s %s", got,
		    r < 0 ? ": " : "", r < 0 ? err.msg : "", v->want, v->text);
		return why;
	}
	if (r < 0 && strstr(err.msg, v->text) == NULL) {
		snprintf(why, sizeof why, "%s '%s', want '%s'", got, err.msg,
		    v->text);
		return why;
	}
	return NULL;
}

static void
test_vectors(void **state)
{
	size_t		 i, failed = 0;
	const char	*why;

	(void)state;
	for (i = 0; i < nvectors; i++) {
		if ((why = run_vector(&vectors[i])) == NULL)
			continue;
		failed++;
		print_message("cel-vectors.txt:%d: %s\n  expr: %s\n  %s\n",
		    vectors[i].line, vectors[i].name, vectors[i].expr, why);
	}
	print_message("%zu vectors, %zu failed\n", nvectors, failed);
	assert_int_equal(failed, 0);
}

/* The shared cases, against what the real control plane recorded. */

static int
eval_on(const char *expr, const struct kube_snapshot *s, const char *pool,
    const char *device, struct dra_err *err)
{
	struct dra_cel		*p;
	struct kube_device	*d;
	int			 r;

	d = kube_snapshot_device(s, "gpu.example.com", pool, device);
	assert_non_null(d);
	assert_int_equal(dra_cel_compile(expr, &p, err), KUBE_OK);
	r = dra_cel_eval(p, d, err);
	dra_cel_free(p);
	return r;
}

/*
 * 01: the class selector reads `type`, which node-b's device does not
 * publish.  The scheduler recorded "CEL runtime error: no such key:
 * type" for node-b/gpu-0; node-a/gpu-0 matches.
 */
static void
test_case01(void **state)
{
	struct kube_snapshot		*s = dratest_load_case(
	    "01-cel-missing-attribute-runtime-error");
	const struct kube_device_class	*dc;
	struct dra_err			 err;
	char				*rec, *at, want[256];
	size_t				 n;

	(void)state;
	dc = kube_snapshot_class(s, "gpu.example.com");
	assert_non_null(dc);
	assert_int_equal(dc->nselectors, 1);
	rec = dratest_slurp(RECORDS_DIR
	    "/01-cel-missing-attribute-runtime-error.txt");
	assert_non_null(rec);
	at = strstr(rec, "CEL runtime error: ");
	assert_non_null(at);
	at += strlen("CEL runtime error: ");
	n = strcspn(at, ".\n");
	snprintf(want, sizeof want, "%.*s", (int)n, at);
	assert_string_equal(want, "no such key: type");
	assert_int_equal(eval_on(dc->selectors[0], s, "node-a", "gpu-0",
	    &err), DRA_CEL_TRUE);
	assert_int_equal(eval_on(dc->selectors[0], s, "node-b", "gpu-0",
	    &err), DRA_CEL_ERROR);
	assert_string_equal(err.msg, want);
	/* The fixes the case suggests evaluate cleanly on node-b. */
	assert_int_equal(eval_on("'type' in device.attributes"
	    "['gpu.example.com'] && device.attributes['gpu.example.com']"
	    ".type == 'gpu'", s, "node-b", "gpu-0", &err), DRA_CEL_FALSE);
	assert_int_equal(eval_on("device.attributes['gpu.example.com']"
	    ".?type.orValue('') == 'gpu'", s, "node-b", "gpu-0", &err),
	    DRA_CEL_FALSE);
	assert_int_equal(eval_on("device.attributes['gpu.example.com']"
	    ".?type.orValue('') == 'gpu'", s, "node-a", "gpu-0", &err),
	    DRA_CEL_TRUE);
	free(rec);
	kube_snapshot_free(s);
}

/*
 * 03: relational operators on quantities are compile errors; the
 * records hold kube-apiserver's "<input>:1:43: found no matching
 * overload ..." which must read "column 43: found ..." here.
 */
static void
test_case03(void **state)
{
	struct kube_snapshot	*s = dratest_load_case(
	    "03-cel-quantity-relational-operator");
	struct dra_err		 err;
	char			*rec, *at, want[512];
	const char		*names[] = { "big-gpu-operator",
	    "big-gpu-number" };
	const struct kube_claim	*cl;
	struct dra_cel		*p;
	size_t			 i, n;

	(void)state;
	rec = dratest_slurp(RECORDS_DIR
	    "/03-cel-quantity-relational-operator.txt");
	assert_non_null(rec);
	at = rec;
	for (i = 0; i < 2; i++) {
		cl = kube_snapshot_claim(s, "team-a", names[i]);
		assert_non_null(cl);
		at = strstr(at, "compilation failed: ERROR: <input>:1:");
		assert_non_null(at);
		at += strlen("compilation failed: ERROR: <input>:1:");
		n = strcspn(at, "\n");
		snprintf(want, sizeof want, "column %.*s", (int)n, at);
		{
			char *colon = strchr(want + 7, ':');

			assert_non_null(colon);
		}
		assert_int_equal(dra_cel_compile(
		    cl->spec.requests[0].exactly->selectors[0], &p, &err),
		    KUBE_E_PARSE);
		assert_null(p);
		assert_string_equal(err.msg, want);
	}
	/* C: compareTo; D: semantic equality. */
	cl = kube_snapshot_claim(s, "team-a", "big-gpu-compareto");
	assert_non_null(cl);
	{
		const char *sel = cl->spec.requests[0].exactly->selectors[0];

		assert_int_equal(eval_on(sel, s, "node-a", "gpu-0", &err),
		    DRA_CEL_FALSE);
		assert_int_equal(eval_on(sel, s, "node-a", "gpu-1", &err),
		    DRA_CEL_TRUE);
		assert_int_equal(eval_on(sel, s, "node-a", "gpu-2", &err),
		    DRA_CEL_TRUE);
	}
	cl = kube_snapshot_claim(s, "team-a", "exact-48g");
	assert_non_null(cl);
	{
		const char *sel = cl->spec.requests[0].exactly->selectors[0];

		assert_int_equal(eval_on(sel, s, "node-a", "gpu-0", &err),
		    DRA_CEL_FALSE);
		assert_int_equal(eval_on(sel, s, "node-a", "gpu-1", &err),
		    DRA_CEL_TRUE);
		assert_int_equal(eval_on(sel, s, "node-a", "gpu-2", &err),
		    DRA_CEL_FALSE);
	}
	free(rec);
	kube_snapshot_free(s);
}

/* Robustness. */

/* Compile and (if it compiles) evaluate e; the result must be sane. */
static void
no_crash(const char *e, const struct kube_device *d)
{
	struct dra_cel	*p = NULL;
	struct dra_err	 err;
	int		 rc, r;

	rc = dra_cel_compile(e, &p, &err);
	if (rc != KUBE_OK) {
		assert_int_equal(rc, KUBE_E_PARSE);
		assert_null(p);
		assert_true(strncmp(err.msg, "column ", 7) == 0 ||
		    strncmp(err.msg, "line ", 5) == 0);
		return;
	}
	r = dra_cel_eval(p, d, &err);
	assert_true(r >= DRA_CEL_UNSUPPORTED && r <= DRA_CEL_TRUE);
	if (r == DRA_CEL_UNSUPPORTED)
		assert_non_null(strstr(err.msg, "unsupported CEL construct"));
	assert_string_equal(dra_cel_text(p), e);
	dra_cel_free(p);
}

static void
test_robust(void **state)
{
	static const char bytes[] = "()[]{}.?!-+*/%<>=&|'\"\\ 0189aeuxr,:";
	char		*buf;
	size_t		 i, j, n, k;
	unsigned	 seed = 12345;
	struct dra_cel	*p;
	struct dra_err	 err;

	(void)state;
	buf = malloc(16384);
	assert_non_null(buf);
	for (i = 0; i < nvectors; i++) {
		const char *e = vectors[i].expr;

		n = strlen(e);
		/* Prefixes, about 40 per expression. */
		for (j = 0; j < n; j += n / 40 + 1) {
			memcpy(buf, e, j);
			buf[j] = '\0';
			no_crash(buf, &vectors[i].dev);
		}
		/* Random single-byte mutations. */
		for (k = 0; k < 20 && n > 0; k++) {
			memcpy(buf, e, n + 1);
			seed = seed * 1103515245 + 12345;
			j = (seed >> 8) % n;
			seed = seed * 1103515245 + 12345;
			buf[j] = bytes[(seed >> 8) % (sizeof bytes - 1)];
			no_crash(buf, &vectors[i].dev);
		}
	}
	/* Deep nesting: unsupported (cel-go's limit), not a crash. */
	n = 0;
	for (j = 0; j < 3000; j++)
		buf[n++] = '(';
	buf[n++] = '1';
	for (j = 0; j < 3000; j++)
		buf[n++] = ')';
	buf[n] = '\0';
	assert_int_equal(dra_cel_compile(buf, &p, &err), KUBE_OK);
	assert_true(dra_cel_unsupported(p, NULL));
	dra_cel_free(p);
	n = 0;
	for (j = 0; j < 2000; j++) {
		memcpy(buf + n, "!", 1);
		n++;
	}
	memcpy(buf + n, "true", 5);
	no_crash(buf, &vectors[0].dev);
	/* A long flat && chain is fine (no recursion per operand). */
	n = 0;
	while (n + 10 < 10000) {
		memcpy(buf + n, "true && ", 8);
		n += 8;
	}
	memcpy(buf + n, "true", 5);
	assert_int_equal(dra_cel_compile(buf, &p, &err), KUBE_OK);
	assert_int_equal(dra_cel_eval(p, &vectors[0].dev, &err), DRA_CEL_TRUE);
	dra_cel_free(p);
	/* Over 10 Ki: the API server's CELSelectorExpressionMaxLength. */
	memset(buf, ' ', 10241);
	memcpy(buf, "true", 4);
	buf[10241] = '\0';
	assert_int_equal(dra_cel_compile(buf, &p, &err), KUBE_E_PARSE);
	assert_non_null(strstr(err.msg, "longer than 10240"));
	free(buf);
}

/* The typical selector of the issue, evaluated again and again. */
static void
test_repeatable(void **state)
{
	static const char expr[] = "device.attributes[\"gpu.nvidia.com\"]"
	    ".productName == \"NVIDIA H100 80GB HBM3\" && "
	    "device.capacity[\"gpu.nvidia.com\"].memory.compareTo("
	    "quantity(\"40Gi\")) >= 0";
	struct kube_slice	sl = { .driver = "gpu.nvidia.com" };
	struct kube_attr	at[6] = {
		{ "gpu.nvidia.com", "uuid", KUBE_ATTR_STRING, 0, "GPU-1", 0,
		    0 },
		{ "gpu.nvidia.com", "index", KUBE_ATTR_INT, 3, NULL, 0, 0 },
		{ "gpu.nvidia.com", "architecture", KUBE_ATTR_STRING, 0,
		    "Hopper", 0, 0 },
		{ "gpu.nvidia.com", "driverVersion", KUBE_ATTR_VERSION, 0,
		    "550.54.15", 0, 0 },
		{ "gpu.nvidia.com", "cudaComputeCapability",
		    KUBE_ATTR_VERSION, 0, "9.0.0", 0, 0 },
		{ "gpu.nvidia.com", "productName", KUBE_ATTR_STRING, 0,
		    "NVIDIA H100 80GB HBM3", 0, 0 },
	};
	struct kube_capacity	cp[1] = {
		{ "gpu.nvidia.com", "memory", { 85899345920000LL, "80Gi" },
		    NULL },
	};
	struct kube_device	d;
	struct dra_cel		*p;
	struct dra_err		 err;
	long			 i, iters = 20000;

	(void)state;
	memset(&d, 0, sizeof d);
	d.slice = &sl;
	d.attrs = at;
	d.nattrs = 6;
	d.capacity = cp;
	d.ncapacity = 1;
	assert_int_equal(dra_cel_compile(expr, &p, &err), KUBE_OK);
	/* A program keeps no state between evaluations. */
	for (i = 0; i < iters; i++)
		assert_int_equal(dra_cel_eval(p, &d, &err), DRA_CEL_TRUE);
	d.nattrs = 5;	/* no productName: the other branch, every time */
	for (i = 0; i < iters; i++)
		assert_int_equal(dra_cel_eval(p, &d, &err), DRA_CEL_ERROR);
	dra_cel_free(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_case01),
		cmocka_unit_test(test_case03),
		cmocka_unit_test(test_robust),
		cmocka_unit_test(test_repeatable),
	};

	return cmocka_run_group_tests(tests, load_vectors, free_vectors);
}
