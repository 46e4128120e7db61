/*
 * test_quota.c: which ResourceQuota keys are DRA's (views.h
 * dra_quota_key_dra) in every form Kubernetes 1.34-1.37 charges
 * ResourceClaims to, and the USE% of the quotas table
 * (dra_quota_use) on quantities, zero and unreadable values.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "snapshot.h"
#include "views.h"

static const char classes[] =
    "apiVersion: resource.k8s.io/v1\n"
    "kind: DeviceClass\n"
    "metadata: {name: gpu.nvidia.com}\n"
    "spec: {extendedResourceName: nvidia.com/gpu}\n";

static void
test_keys(void **state)
{
	struct kube_snapshot	*s = kube_snapshot_new();
	struct dra_err		 err;

	(void)state;
	if (kube_snapshot_load_mem(s, "classes.yaml", classes,
	    strlen(classes), &err) != KUBE_OK)
		fail_msg("load: %s", err.msg);
	kube_snapshot_finish(s);
	assert_int_equal(dra_quota_key_dra(s,
	    "count/resourceclaims.resource.k8s.io"), 1);
	assert_int_equal(dra_quota_key_dra(s,
	    "count/resourceclaimtemplates.resource.k8s.io"), 1);
	assert_int_equal(dra_quota_key_dra(s,
	    "gpu.example.com.deviceclass.resource.k8s.io/devices"), 1);
	assert_int_equal(dra_quota_key_dra(s,
	    "requests.deviceclass.resource.kubernetes.io/mig.nvidia.com"), 1);
	assert_int_equal(dra_quota_key_dra(s,
	    "requests.deviceclass.resource.kubernetes.io/"), 0);
	/* Only an extended resource some class maps. */
	assert_int_equal(dra_quota_key_dra(s, "requests.nvidia.com/gpu"), 1);
	assert_int_equal(dra_quota_key_dra(NULL, "requests.nvidia.com/gpu"),
	    0);
	assert_int_equal(dra_quota_key_dra(s, "requests.example.com/fpga"),
	    0);
	assert_int_equal(dra_quota_key_dra(s, "nvidia.com/gpu"), 0);
	assert_int_equal(dra_quota_key_dra(s, "requests.cpu"), 0);
	assert_int_equal(dra_quota_key_dra(s, "pods"), 0);
	assert_int_equal(dra_quota_key_dra(s, "count/pods"), 0);
	assert_int_equal(dra_quota_key_dra(s, NULL), 0);
	kube_snapshot_free(s);
}

static void
test_use(void **state)
{
	char	buf[16];

	(void)state;
	assert_string_equal(dra_quota_use("3", "10", buf, sizeof buf), "30%");
	assert_string_equal(dra_quota_use("1", "8", buf, sizeof buf), "12%");
	assert_string_equal(dra_quota_use("199", "200", buf, sizeof buf),
	    "99%");
	assert_string_equal(dra_quota_use("3", "2", buf, sizeof buf),
	    "150%");
	assert_string_equal(dra_quota_use("10Gi", "40Gi", buf, sizeof buf),
	    "25%");
	assert_string_equal(dra_quota_use("3500m", "16", buf, sizeof buf),
	    "21%");
	assert_string_equal(dra_quota_use(NULL, "4", buf, sizeof buf), "0%");
	assert_string_equal(dra_quota_use("0", "0", buf, sizeof buf), "-");
	assert_string_equal(dra_quota_use("1", NULL, buf, sizeof buf), "-");
	assert_string_equal(dra_quota_use("1", "lots", buf, sizeof buf), "-");
	assert_string_equal(dra_quota_use("x", "4", buf, sizeof buf), "-");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_use),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
