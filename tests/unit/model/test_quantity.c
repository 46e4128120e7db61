/*
 * test_quantity.c: resource.Quantity parsing and formatting, against
 * values apimachinery's ParseQuantity/MilliValue give.
 *
 * The table of test_parse_apimachinery is the input list of
 * apimachinery's TestQuantityParse (pkg/api/resource/quantity_test.go,
 * v0.37.2), each also with "-" and "+" in front as that test does,
 * plus large, tiny and odd quantities; the milli values were computed
 * by k8s.io/apimachinery v0.37.2 itself (ParseQuantity, then the
 * exact value times 1000 rounded up away from zero as MilliValue
 * rounds, with math/big so that values beyond int64 are exact), and
 * are shown saturated at KUBE_QUANTITY_MILLI_MAX where they exceed it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model.h"

#define QMAX	KUBE_QUANTITY_MILLI_MAX
#define QSAT	KUBE_QUANTITY_MILLI_SAT

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
		if (q.milli != cases[i].milli || kube_quantity_saturated(&q))
			fail_msg("%s: got %lld, want %lld", cases[i].in,
			    (long long)q.milli, (long long)cases[i].milli);
	}
}

static void
test_parse_apimachinery(void **state)
{
	static const struct {
		const char	*in;
		int64_t		 milli;
		int		 saturated;
	} cases[] = {
		{ "0", INT64_C(0), 0 },
		{ "0n", INT64_C(0), 0 },
		{ "0u", INT64_C(0), 0 },
		{ "0m", INT64_C(0), 0 },
		{ "0Ki", INT64_C(0), 0 },
		{ "0k", INT64_C(0), 0 },
		{ "0Mi", INT64_C(0), 0 },
		{ "0M", INT64_C(0), 0 },
		{ "0Gi", INT64_C(0), 0 },
		{ "0G", INT64_C(0), 0 },
		{ "0Ti", INT64_C(0), 0 },
		{ "0T", INT64_C(0), 0 },
		{ "1", INT64_C(1000), 0 },
		{ "1Ki", INT64_C(1024000), 0 },
		{ "8Ki", INT64_C(8192000), 0 },
		{ "7Mi", INT64_C(7340032000), 0 },
		{ "6Gi", INT64_C(6442450944000), 0 },
		{ "5Ti", INT64_C(5497558138880000), 0 },
		{ "4Pi", QSAT, 1 },
		{ "3Ei", QSAT, 1 },
		{ "10Ti", INT64_C(10995116277760000), 0 },
		{ "100Ti", INT64_C(109951162777600000), 0 },
		{ "5n", INT64_C(1), 0 },
		{ "4u", INT64_C(1), 0 },
		{ "3m", INT64_C(3), 0 },
		{ "9", INT64_C(9000), 0 },
		{ "8k", INT64_C(8000000), 0 },
		{ "50k", INT64_C(50000000), 0 },
		{ "7M", INT64_C(7000000000), 0 },
		{ "6G", INT64_C(6000000000000), 0 },
		{ "5T", INT64_C(5000000000000000), 0 },
		{ "40T", INT64_C(40000000000000000), 0 },
		{ "300T", INT64_C(300000000000000000), 0 },
		{ "2P", QSAT, 1 },
		{ "1E", QSAT, 1 },
		{ "1E-3", INT64_C(1), 0 },
		{ "1e3", INT64_C(1000000), 0 },
		{ "1E6", INT64_C(1000000000), 0 },
		{ "1e9", INT64_C(1000000000000), 0 },
		{ "1E12", INT64_C(1000000000000000), 0 },
		{ "1e15", INT64_C(1000000000000000000), 0 },
		{ "1E18", QSAT, 1 },
		{ "1e14", INT64_C(100000000000000000), 0 },
		{ "1e13", INT64_C(10000000000000000), 0 },
		{ "100.035k", INT64_C(100035000), 0 },
		{ "0.001", INT64_C(1), 0 },
		{ "0.0005k", INT64_C(500), 0 },
		{ "0.005", INT64_C(5), 0 },
		{ "0.05", INT64_C(50), 0 },
		{ "0.5", INT64_C(500), 0 },
		{ "0.00050k", INT64_C(500), 0 },
		{ "0.00500", INT64_C(5), 0 },
		{ "0.05000", INT64_C(50), 0 },
		{ "0.50000", INT64_C(500), 0 },
		{ "0.5e0", INT64_C(500), 0 },
		{ "0.5e-1", INT64_C(50), 0 },
		{ "0.5e-2", INT64_C(5), 0 },
		{ "10.035M", INT64_C(10035000000), 0 },
		{ "1.2e3", INT64_C(1200000), 0 },
		{ "1.3E+6", INT64_C(1300000000), 0 },
		{ "1.40e9", INT64_C(1400000000000), 0 },
		{ "1.53E12", INT64_C(1530000000000000), 0 },
		{ "1.6e15", QSAT, 1 },
		{ "1.7E18", QSAT, 1 },
		{ "9.01", INT64_C(9010), 0 },
		{ "8.1k", INT64_C(8100000), 0 },
		{ "7.123456M", INT64_C(7123456000), 0 },
		{ "6.987654321G", INT64_C(6987654321000), 0 },
		{ "5.444T", INT64_C(5444000000000000), 0 },
		{ "40.1T", INT64_C(40100000000000000), 0 },
		{ "300.2T", INT64_C(300200000000000000), 0 },
		{ "2.5P", QSAT, 1 },
		{ "1.01E", QSAT, 1 },
		{ "3.001n", INT64_C(1), 0 },
		{ "1.1E-9", INT64_C(1), 0 },
		{ "0.0000000001", INT64_C(1), 0 },
		{ "0.0000000005", INT64_C(1), 0 },
		{ "0.00000000050", INT64_C(1), 0 },
		{ "0.5e-9", INT64_C(1), 0 },
		{ "0.9n", INT64_C(1), 0 },
		{ "0.00000012345", INT64_C(1), 0 },
		{ "0.00000012354", INT64_C(1), 0 },
		{ "9Ei", QSAT, 1 },
		{ "9223372036854775807Ki", QSAT, 1 },
		{ "12E", QSAT, 1 },
		{ "100.035Ki", INT64_C(102435840), 0 },
		{ "0.5Mi", INT64_C(524288000), 0 },
		{ "0.05Gi", INT64_C(53687091200), 0 },
		{ "0.025Ti", INT64_C(27487790694400), 0 },
		{ "0.000000000001Ki", INT64_C(1), 0 },
		{ ".001", INT64_C(1), 0 },
		{ ".0001k", INT64_C(100), 0 },
		{ "1.", INT64_C(1000), 0 },
		{ "1.G", INT64_C(1000000000000), 0 },
		{ "16Pi", QSAT, 1 },
		{ "1Ei", QSAT, 1 },
		{ "9e18", QSAT, 1 },
		{ "-16Pi", -QSAT, 1 },
		{ "1Pi", QMAX, 0 },
		{ "1025Ti", QSAT, 1 },
		{ "1024.001Ti", QSAT, 1 },
		{ "-1Pi", -QMAX, 0 },
		{ "Gi", INT64_C(0), 0 },
		{ "-", INT64_C(0), 0 },
		{ ".", INT64_C(0), 0 },
		{ "+", INT64_C(0), 0 },
		{ "e3", INT64_C(0), 0 },
		{ "-.", INT64_C(0), 0 },
		{ "1e4294967296", INT64_C(1000), 0 },
		{ "1e4294967295", INT64_C(100), 0 },
		{ "1e-4294967296", INT64_C(1000), 0 },
		{ "1e-40", INT64_C(1), 0 },
		{ "-1e-40", INT64_C(-1), 0 },
		{ "0.1234567890123456789012345Ki", INT64_C(126420), 0 },
		{ "1.0000000000000000005Ki", INT64_C(1024001), 0 },
		{ "0.000000000000000000000"
		    "0000000000000000000001Ei", INT64_C(1), 0 },
		{ "123456789012345678901234567890e-27", INT64_C(123457), 0 },
		{ "1e+3", INT64_C(1000000), 0 },
		{ "2e-3", INT64_C(2), 0 },
		{ "9223372036854775807", QSAT, 1 },
		{ "9223372036854775808", QSAT, 1 },
		{ "99999999Ei", QSAT, 1 },
		{ "1e9223372036854775807", INT64_C(100), 0 },
		{ "1e-9223372036854775808", INT64_C(1000), 0 },
		{ "-0", INT64_C(0), 0 },
		{ "-0n", INT64_C(0), 0 },
		{ "-0u", INT64_C(0), 0 },
		{ "-0m", INT64_C(0), 0 },
		{ "-0Ki", INT64_C(0), 0 },
		{ "-0k", INT64_C(0), 0 },
		{ "-0Mi", INT64_C(0), 0 },
		{ "-0M", INT64_C(0), 0 },
		{ "-0Gi", INT64_C(0), 0 },
		{ "-0G", INT64_C(0), 0 },
		{ "-0Ti", INT64_C(0), 0 },
		{ "-0T", INT64_C(0), 0 },
		{ "-1", INT64_C(-1000), 0 },
		{ "-1Ki", INT64_C(-1024000), 0 },
		{ "-8Ki", INT64_C(-8192000), 0 },
		{ "-7Mi", INT64_C(-7340032000), 0 },
		{ "-6Gi", INT64_C(-6442450944000), 0 },
		{ "-5Ti", INT64_C(-5497558138880000), 0 },
		{ "-4Pi", -QSAT, 1 },
		{ "-3Ei", -QSAT, 1 },
		{ "-10Ti", INT64_C(-10995116277760000), 0 },
		{ "-100Ti", INT64_C(-109951162777600000), 0 },
		{ "-5n", INT64_C(-1), 0 },
		{ "-4u", INT64_C(-1), 0 },
		{ "-3m", INT64_C(-3), 0 },
		{ "-9", INT64_C(-9000), 0 },
		{ "-8k", INT64_C(-8000000), 0 },
		{ "-50k", INT64_C(-50000000), 0 },
		{ "-7M", INT64_C(-7000000000), 0 },
		{ "-6G", INT64_C(-6000000000000), 0 },
		{ "-5T", INT64_C(-5000000000000000), 0 },
		{ "-40T", INT64_C(-40000000000000000), 0 },
		{ "-300T", INT64_C(-300000000000000000), 0 },
		{ "-2P", -QSAT, 1 },
		{ "-1E", -QSAT, 1 },
		{ "-1E-3", INT64_C(-1), 0 },
		{ "-1e3", INT64_C(-1000000), 0 },
		{ "-1E6", INT64_C(-1000000000), 0 },
		{ "-1e9", INT64_C(-1000000000000), 0 },
		{ "-1E12", INT64_C(-1000000000000000), 0 },
		{ "-1e15", INT64_C(-1000000000000000000), 0 },
		{ "-1E18", -QSAT, 1 },
		{ "-1e14", INT64_C(-100000000000000000), 0 },
		{ "-1e13", INT64_C(-10000000000000000), 0 },
		{ "-100.035k", INT64_C(-100035000), 0 },
		{ "-0.001", INT64_C(-1), 0 },
		{ "-0.0005k", INT64_C(-500), 0 },
		{ "-0.005", INT64_C(-5), 0 },
		{ "-0.05", INT64_C(-50), 0 },
		{ "-0.5", INT64_C(-500), 0 },
		{ "-0.00050k", INT64_C(-500), 0 },
		{ "-0.00500", INT64_C(-5), 0 },
		{ "-0.05000", INT64_C(-50), 0 },
		{ "-0.50000", INT64_C(-500), 0 },
		{ "-0.5e0", INT64_C(-500), 0 },
		{ "-0.5e-1", INT64_C(-50), 0 },
		{ "-0.5e-2", INT64_C(-5), 0 },
		{ "-10.035M", INT64_C(-10035000000), 0 },
		{ "-1.2e3", INT64_C(-1200000), 0 },
		{ "-1.3E+6", INT64_C(-1300000000), 0 },
		{ "-1.40e9", INT64_C(-1400000000000), 0 },
		{ "-1.53E12", INT64_C(-1530000000000000), 0 },
		{ "-1.6e15", -QSAT, 1 },
		{ "-1.7E18", -QSAT, 1 },
		{ "-9.01", INT64_C(-9010), 0 },
		{ "-8.1k", INT64_C(-8100000), 0 },
		{ "-7.123456M", INT64_C(-7123456000), 0 },
		{ "-6.987654321G", INT64_C(-6987654321000), 0 },
		{ "-5.444T", INT64_C(-5444000000000000), 0 },
		{ "-40.1T", INT64_C(-40100000000000000), 0 },
		{ "-300.2T", INT64_C(-300200000000000000), 0 },
		{ "-2.5P", -QSAT, 1 },
		{ "-1.01E", -QSAT, 1 },
		{ "-3.001n", INT64_C(-1), 0 },
		{ "-1.1E-9", INT64_C(-1), 0 },
		{ "-0.0000000001", INT64_C(-1), 0 },
		{ "-0.0000000005", INT64_C(-1), 0 },
		{ "-0.00000000050", INT64_C(-1), 0 },
		{ "-0.5e-9", INT64_C(-1), 0 },
		{ "-0.9n", INT64_C(-1), 0 },
		{ "-0.00000012345", INT64_C(-1), 0 },
		{ "-0.00000012354", INT64_C(-1), 0 },
		{ "-9Ei", -QSAT, 1 },
		{ "-9223372036854775807Ki", -QSAT, 1 },
		{ "-12E", -QSAT, 1 },
		{ "-100.035Ki", INT64_C(-102435840), 0 },
		{ "-0.5Mi", INT64_C(-524288000), 0 },
		{ "-0.05Gi", INT64_C(-53687091200), 0 },
		{ "-0.025Ti", INT64_C(-27487790694400), 0 },
		{ "-0.000000000001Ki", INT64_C(-1), 0 },
		{ "-.001", INT64_C(-1), 0 },
		{ "-.0001k", INT64_C(-100), 0 },
		{ "-1.", INT64_C(-1000), 0 },
		{ "-1.G", INT64_C(-1000000000000), 0 },
		{ "+0", INT64_C(0), 0 },
		{ "+0n", INT64_C(0), 0 },
		{ "+0u", INT64_C(0), 0 },
		{ "+0m", INT64_C(0), 0 },
		{ "+0Ki", INT64_C(0), 0 },
		{ "+0k", INT64_C(0), 0 },
		{ "+0Mi", INT64_C(0), 0 },
		{ "+0M", INT64_C(0), 0 },
		{ "+0Gi", INT64_C(0), 0 },
		{ "+0G", INT64_C(0), 0 },
		{ "+0Ti", INT64_C(0), 0 },
		{ "+0T", INT64_C(0), 0 },
		{ "+1", INT64_C(1000), 0 },
		{ "+1Ki", INT64_C(1024000), 0 },
		{ "+8Ki", INT64_C(8192000), 0 },
		{ "+7Mi", INT64_C(7340032000), 0 },
		{ "+6Gi", INT64_C(6442450944000), 0 },
		{ "+5Ti", INT64_C(5497558138880000), 0 },
		{ "+4Pi", QSAT, 1 },
		{ "+3Ei", QSAT, 1 },
		{ "+10Ti", INT64_C(10995116277760000), 0 },
		{ "+100Ti", INT64_C(109951162777600000), 0 },
		{ "+5n", INT64_C(1), 0 },
		{ "+4u", INT64_C(1), 0 },
		{ "+3m", INT64_C(3), 0 },
		{ "+9", INT64_C(9000), 0 },
		{ "+8k", INT64_C(8000000), 0 },
		{ "+50k", INT64_C(50000000), 0 },
		{ "+7M", INT64_C(7000000000), 0 },
		{ "+6G", INT64_C(6000000000000), 0 },
		{ "+5T", INT64_C(5000000000000000), 0 },
		{ "+40T", INT64_C(40000000000000000), 0 },
		{ "+300T", INT64_C(300000000000000000), 0 },
		{ "+2P", QSAT, 1 },
		{ "+1E", QSAT, 1 },
		{ "+1E-3", INT64_C(1), 0 },
		{ "+1e3", INT64_C(1000000), 0 },
		{ "+1E6", INT64_C(1000000000), 0 },
		{ "+1e9", INT64_C(1000000000000), 0 },
		{ "+1E12", INT64_C(1000000000000000), 0 },
		{ "+1e15", INT64_C(1000000000000000000), 0 },
		{ "+1E18", QSAT, 1 },
		{ "+1e14", INT64_C(100000000000000000), 0 },
		{ "+1e13", INT64_C(10000000000000000), 0 },
		{ "+100.035k", INT64_C(100035000), 0 },
		{ "+0.001", INT64_C(1), 0 },
		{ "+0.0005k", INT64_C(500), 0 },
		{ "+0.005", INT64_C(5), 0 },
		{ "+0.05", INT64_C(50), 0 },
		{ "+0.5", INT64_C(500), 0 },
		{ "+0.00050k", INT64_C(500), 0 },
		{ "+0.00500", INT64_C(5), 0 },
		{ "+0.05000", INT64_C(50), 0 },
		{ "+0.50000", INT64_C(500), 0 },
		{ "+0.5e0", INT64_C(500), 0 },
		{ "+0.5e-1", INT64_C(50), 0 },
		{ "+0.5e-2", INT64_C(5), 0 },
		{ "+10.035M", INT64_C(10035000000), 0 },
		{ "+1.2e3", INT64_C(1200000), 0 },
		{ "+1.3E+6", INT64_C(1300000000), 0 },
		{ "+1.40e9", INT64_C(1400000000000), 0 },
		{ "+1.53E12", INT64_C(1530000000000000), 0 },
		{ "+1.6e15", QSAT, 1 },
		{ "+1.7E18", QSAT, 1 },
		{ "+9.01", INT64_C(9010), 0 },
		{ "+8.1k", INT64_C(8100000), 0 },
		{ "+7.123456M", INT64_C(7123456000), 0 },
		{ "+6.987654321G", INT64_C(6987654321000), 0 },
		{ "+5.444T", INT64_C(5444000000000000), 0 },
		{ "+40.1T", INT64_C(40100000000000000), 0 },
		{ "+300.2T", INT64_C(300200000000000000), 0 },
		{ "+2.5P", QSAT, 1 },
		{ "+1.01E", QSAT, 1 },
		{ "+3.001n", INT64_C(1), 0 },
		{ "+1.1E-9", INT64_C(1), 0 },
		{ "+0.0000000001", INT64_C(1), 0 },
		{ "+0.0000000005", INT64_C(1), 0 },
		{ "+0.00000000050", INT64_C(1), 0 },
		{ "+0.5e-9", INT64_C(1), 0 },
		{ "+0.9n", INT64_C(1), 0 },
		{ "+0.00000012345", INT64_C(1), 0 },
		{ "+0.00000012354", INT64_C(1), 0 },
		{ "+9Ei", QSAT, 1 },
		{ "+9223372036854775807Ki", QSAT, 1 },
		{ "+12E", QSAT, 1 },
		{ "+100.035Ki", INT64_C(102435840), 0 },
		{ "+0.5Mi", INT64_C(524288000), 0 },
		{ "+0.05Gi", INT64_C(53687091200), 0 },
		{ "+0.025Ti", INT64_C(27487790694400), 0 },
		{ "+0.000000000001Ki", INT64_C(1), 0 },
		{ "+.001", INT64_C(1), 0 },
		{ "+.0001k", INT64_C(100), 0 },
		{ "+1.", INT64_C(1000), 0 },
		{ "+1.G", INT64_C(1000000000000), 0 },
	};
	struct kube_quantity	q;
	struct dra_err		err;
	size_t			i;
	int			sat;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if (kube_quantity_parse(cases[i].in, &q, &err) != KUBE_OK)
			fail_msg("%s: %s", cases[i].in, err.msg);
		q.text = cases[i].in;
		sat = kube_quantity_saturated(&q);
		if (q.milli != cases[i].milli || sat != cases[i].saturated)
			fail_msg("%s: got %lld%s, want %lld%s", cases[i].in,
			    (long long)q.milli, sat ? " saturated" : "",
			    (long long)cases[i].milli,
			    cases[i].saturated ? " saturated" : "");
	}
}

static void
test_parse_invalid(void **state)
{
	/* apimachinery's invalid list first, then ours. */
	static const char *const bad[] = { "1.1.M", "1+1.0M", "0.1mi",
	    "0.1am", "aoeu", ".5i", "1i", "-3.01i", "-3.01e-", " 1", "1 ",
	    "", "1Gb", "1.2.3", "1 Gi", "abc", "1e", "--1", "1KiB", "0x10",
	    "1e9223372036854775808", "1e-9223372036854775809", "1K", "1ki",
	    "1Ee3", "1e3e3", "1e+-3", "1E+", "1.5.Gi" };
	struct kube_quantity	q;
	struct dra_err		err;
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (kube_quantity_parse(bad[i], &q, &err) != KUBE_E_PARSE)
			fail_msg("\"%s\" parsed as %lld", bad[i],
			    (long long)q.milli);
		assert_non_null(strstr(err.msg, "quantity"));
	}
	assert_int_equal(kube_quantity_parse("1Gb", &q, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "quantity \"1Gb\": not a Kubernetes "
	    "quantity (e.g. \"40Gi\", \"1.5\", \"500m\", \"1E\", \"2e3\")");
	assert_int_equal(kube_quantity_parse("1Gi3", &q, &err), KUBE_E_PARSE);
	assert_string_equal(err.msg, "quantity \"1Gi3\": unknown suffix "
	    "\"Gi3\" (one of Ki Mi Gi Ti Pi Ei, n u m k M G T P E, or e<N>)");
}

static void
test_saturated(void **state)
{
	struct kube_quantity	q;
	struct dra_err		err;
	char			buf[64];

	(void)state;
	assert_int_equal(kube_quantity_parse("16Pi", &q, &err), KUBE_OK);
	assert_true(q.milli == QSAT);
	assert_null(q.text);
	assert_true(kube_quantity_saturated(&q));
	assert_string_equal(kube_quantity_format(q.milli, buf, sizeof buf),
	    ">1Pi");

	assert_int_equal(kube_quantity_parse("-1E", &q, &err), KUBE_OK);
	assert_true(q.milli == -QSAT);
	assert_true(kube_quantity_saturated(&q));
	assert_string_equal(kube_quantity_format(q.milli, buf, sizeof buf),
	    "<-1Pi");

	/* The bound itself is exact, one milli more is not. */
	assert_int_equal(kube_quantity_parse("1Pi", &q, &err), KUBE_OK);
	assert_true(q.milli == QMAX);
	assert_false(kube_quantity_saturated(&q));
	assert_string_equal(kube_quantity_format(q.milli, buf, sizeof buf),
	    "1Pi");
	assert_int_equal(kube_quantity_parse("1125899906842624000m", &q,
	    &err), KUBE_OK);
	assert_false(kube_quantity_saturated(&q));
	assert_int_equal(kube_quantity_parse("1125899906842624000.000001m",
	    &q, &err), KUBE_OK);
	assert_true(kube_quantity_saturated(&q));
	assert_int_equal(kube_quantity_parse("1023Ti", &q, &err), KUBE_OK);
	assert_false(kube_quantity_saturated(&q));

	/* Eight saturated values still add up inside int64. */
	assert_true(8 * QSAT > 0 && 8 * QSAT / 8 == QSAT);

	/* Sums saturate at KUBE_QUANTITY_SUM_MAX, never overflow. */
	assert_true(kube_quantity_add(QMAX, QMAX) == 2 * QMAX);
	assert_true(kube_quantity_add(INT64_MAX, 1) == KUBE_QUANTITY_SUM_MAX);
	assert_true(kube_quantity_add(KUBE_QUANTITY_SUM_MAX, QMAX) ==
	    KUBE_QUANTITY_SUM_MAX);
	assert_true(kube_quantity_add(INT64_MIN, -1) ==
	    -KUBE_QUANTITY_SUM_MAX);
	assert_true(kube_quantity_add(-KUBE_QUANTITY_SUM_MAX, -QMAX) ==
	    -KUBE_QUANTITY_SUM_MAX);
	assert_true(kube_quantity_add(QMAX, -QMAX) == 0);
	assert_true(kube_quantity_add(1500, 2500) == 4000);
}

/* kube_quantity_approx: the value in units, past the 1Pi bound too. */
static void
test_approx(void **state)
{
	static const struct {
		const char	*text;
		double		 units;
	} cases[] = {
		/* exact below the bound, from milli */
		{ "40Gi", 42949672960.0 },
		{ "500m", 0.5 },
		{ "-1.5", -1.5 },
		{ "1Pi", 1125899906842624.0 },
		/* saturated: from the text */
		{ "2Pi", 2251799813685248.0 },
		{ "4Pi", 4503599627370496.0 },
		{ "16Pi", 18014398509481984.0 },
		{ "1Ei", 1152921504606846976.0 },
		{ "1.5Ei", 1729382256910270464.0 },
		{ "-2Pi", -2251799813685248.0 },
		{ "1E", 1e18 },
		{ "1e30", 1e30 },
		{ "12345678901234567890123456789012345678901234567890",
		    12345678901234567890123456789012345678901234567890.0 },
		{ ".5e20", 5e19 },
	};
	struct kube_quantity	q;
	struct dra_err		err;
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_int_equal(kube_quantity_parse(cases[i].text, &q,
		    &err), KUBE_OK);
		q.text = cases[i].text;
		if (kube_quantity_approx(&q) != cases[i].units)
			fail_msg("%s: %.17g, want %.17g", cases[i].text,
			    kube_quantity_approx(&q), cases[i].units);
	}

	/* Without its text a saturated value is about 1Pi. */
	assert_int_equal(kube_quantity_parse("2Pi", &q, &err), KUBE_OK);
	assert_null(q.text);
	assert_true(kube_quantity_approx(&q) == 1125899906842624.001);
	/* An exponent past a double's range. */
	assert_int_equal(kube_quantity_parse("1e400", &q, &err), KUBE_OK);
	q.text = "1e400";
	assert_true(kube_quantity_approx(&q) > 1e308);
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
		{ QMAX, "1Pi" },
		{ -QMAX, "-1Pi" },
		{ QMAX - 1, "1125899906842623999m" },
		{ QMAX - 1024000, "1099511627775Ki" },
		{ QSAT, ">1Pi" },
		{ 8 * QMAX, ">1Pi" },
		{ INT64_MAX, ">1Pi" },
		{ INT64_MIN, "<-1Pi" },
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
		cmocka_unit_test(test_parse_apimachinery),
		cmocka_unit_test(test_parse_invalid),
		cmocka_unit_test(test_saturated),
		cmocka_unit_test(test_approx),
		cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
