/*
 * test_quantity.c: resource.Quantity parsing and formatting, against
 * values apimachinery's ParseQuantity/MilliValue give.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model.h"

static void
test_parse_valid(void **state)
{
	static const struct {
		const char	*in;
		int64_t		 milli;
	} cases[] = {
		{ "0", 0 },
		{ "1", 1000 },
		{ "132", 132000 },
		{ "1.5", 1500 },
		{ ".5", 500 },
		{ "500m", 500 },
		{ "1m", 1 },
		{ "1u", 1 },		/* rounded up, as MilliValue */
		{ "100n", 1 },
		{ "-1", -1000 },
		{ "+2", 2000 },
		{ "1k", 1000000 },
		{ "2M", 2000000000 },
		{ "1Ki", 1024000 },
		{ "40Gi", INT64_C(42949672960000) },
		{ "81559Mi", INT64_C(85520809984000) },
		{ "9984Mi", INT64_C(10468982784000) },
		{ "2Ti", INT64_C(2199023255552000) },
		{ "1e3", 1000000 },
		{ "1E-3", 1 },
		{ "12e0", 12000 },
		{ "0.1Gi", INT64_C(107374182400) },
	};
	struct kube_quantity	q;
	struct dra_err		err;
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_int_equal(kube_quantity_parse(cases[i].in, &q, &err),
		    KUBE_OK);
		if (q.milli != cases[i].milli)
			fail_msg("%s: got %lld, want %lld", cases[i].in,
			    (long long)q.milli, (long long)cases[i].milli);
	}
}

static void
test_parse_invalid(void **state)
{
	static const char *const bad[] = { "", "Gi", "1Gb", "1.2.3", "1 Gi",
	    "abc", "1e", "--1", "1KiB", "0x10" };
	struct kube_quantity	q;
	struct dra_err		err;
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(kube_quantity_parse(bad[i], &q, &err),
		    KUBE_E_PARSE);
		assert_non_null(strstr(err.msg, "quantity"));
	}
	assert_int_equal(kube_quantity_parse("99999999Ei", &q, &err),
	    KUBE_E_PARSE);
	assert_non_null(strstr(err.msg, "out of range"));
}

static void
test_format(void **state)
{
	static const struct {
		int64_t		 milli;
		const char	*out;
	} cases[] = {
		{ 0, "0" },
		{ 132000, "132" },
		{ 1024000, "1Ki" },
		{ INT64_C(42949672960000), "40Gi" },
		{ INT64_C(85520809984000), "81559Mi" },
		{ 1500, "1500m" },
		{ 1536000, "1536" },
		{ -1024000, "-1Ki" },
	};
	char	buf[64];
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		assert_string_equal(kube_quantity_format(cases[i].milli, buf,
		    sizeof buf), cases[i].out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_valid),
		cmocka_unit_test(test_parse_invalid),
		cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
