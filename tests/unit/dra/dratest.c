/* dratest.c: see dratest.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dratest.h"
#include "snapshot.h"

char *
dratest_slurp(const char *path)
{
	FILE	*f = fopen(path, "rb");
	char	*buf;
	long	 len;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)len + 1);
	if (buf != NULL && fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

struct kube_snapshot *
dratest_load(const char *doc)
{
	struct kube_snapshot	*s = kube_snapshot_new();
	struct dra_err		 err;

	if (kube_snapshot_load_mem(s, "test.yaml", doc, strlen(doc), &err) !=
	    KUBE_OK)
		fail_msg("load: %s", err.msg);
	kube_snapshot_finish(s);
	return s;
}

struct kube_snapshot *
dratest_load_case(const char *name)
{
	struct kube_snapshot	*s = kube_snapshot_new();
	struct dra_err		 err;
	char			 path[1024];

	snprintf(path, sizeof path, "%s/%s/input.yaml", CASES_DIR, name);
	if (kube_snapshot_load_file(s, path, &err) != KUBE_OK)
		fail_msg("%s: %s", path, err.msg);
	kube_snapshot_finish(s);
	return s;
}
