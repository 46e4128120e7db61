/*
 * test_yamlscalar.c: YAML 1.1 plain scalar resolution, against what
 * go-yaml v2 (sigs.k8s.io/yaml, so kubectl) resolves.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <string.h>

#include <cmocka.h>

#include "yamlscalar.h"

static void
test_resolve(void **state)
{
	static const struct {
		const char		*in;
		enum dra_yaml_type	 type;
		double			 num;
		int			 b;
	} cases[] = {
		{ "", DRA_YAML_NULL, 0, 0 },
		{ "~", DRA_YAML_NULL, 0, 0 },
		{ "null", DRA_YAML_NULL, 0, 0 },
		{ "NULL", DRA_YAML_NULL, 0, 0 },
		{ "true", DRA_YAML_BOOL, 0, 1 },
		{ "Yes", DRA_YAML_BOOL, 0, 1 },
		{ "y", DRA_YAML_BOOL, 0, 1 },
		{ "on", DRA_YAML_BOOL, 0, 1 },
		{ "False", DRA_YAML_BOOL, 0, 0 },
		{ "n", DRA_YAML_BOOL, 0, 0 },
		{ "OFF", DRA_YAML_BOOL, 0, 0 },
		{ "1", DRA_YAML_NUMBER, 1, 0 },
		{ "-42", DRA_YAML_NUMBER, -42, 0 },
		{ "+7", DRA_YAML_NUMBER, 7, 0 },
		{ "1_000", DRA_YAML_NUMBER, 1000, 0 },
		{ "0x1F", DRA_YAML_NUMBER, 31, 0 },
		{ "0o17", DRA_YAML_NUMBER, 15, 0 },
		{ "017", DRA_YAML_NUMBER, 15, 0 },
		{ "0b101", DRA_YAML_NUMBER, 5, 0 },
		{ "089", DRA_YAML_NUMBER, 89, 0 },
		{ "1.5", DRA_YAML_NUMBER, 1.5, 0 },
		{ ".5", DRA_YAML_NUMBER, 0.5, 0 },
		{ "1e3", DRA_YAML_NUMBER, 1000, 0 },
		{ "-.inf", DRA_YAML_NUMBER, -HUGE_VAL, 0 },
		{ "40Gi", DRA_YAML_STRING, 0, 0 },
		{ "9.0.0", DRA_YAML_STRING, 0, 0 },
		{ "1.2.3", DRA_YAML_STRING, 0, 0 },
		{ "12:30", DRA_YAML_STRING, 0, 0 },
		{ "0x", DRA_YAML_STRING, 0, 0 },
		{ "0xZZ", DRA_YAML_STRING, 0, 0 },
		{ "-", DRA_YAML_STRING, 0, 0 },
		{ ".", DRA_YAML_STRING, 0, 0 },
		{ "yes please", DRA_YAML_STRING, 0, 0 },
		{ "gpu.nvidia.com", DRA_YAML_STRING, 0, 0 },
	};
	enum dra_yaml_type	t;
	double			num;
	int			b;
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		num = -1;
		b = -1;
		t = dra_yaml_resolve(cases[i].in, strlen(cases[i].in), &num,
		    &b);
		if (t != cases[i].type)
			fail_msg("\"%s\": type %d, want %d", cases[i].in, t,
			    cases[i].type);
		if (t == DRA_YAML_NUMBER && num != cases[i].num)
			fail_msg("\"%s\": %g, want %g", cases[i].in, num,
			    cases[i].num);
		if (t == DRA_YAML_BOOL && b != cases[i].b)
			fail_msg("\"%s\": %d, want %d", cases[i].in, b,
			    cases[i].b);
	}
	assert_int_equal(dra_yaml_resolve(".nan", 4, &num, &b),
	    DRA_YAML_NUMBER);
	assert_true(isnan(num));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resolve),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
