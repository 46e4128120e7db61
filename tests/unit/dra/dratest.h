/*
 * dratest.h: what the kube/dra unit tests share.  Each function fails
 * the running cmocka test (fail_msg) on a load error, naming the file
 * or input; the caller owns what it returns.
 */
#ifndef DRATEST_H
#define DRATEST_H

#include "model.h"

/*
 * The whole file at path, NUL-terminated (free() it), or NULL when it
 * cannot be read (the caller decides whether that is a failure).
 */
char	*dratest_slurp(const char *path);

/* A finished snapshot of the YAML or JSON text doc (kube_snapshot_free). */
struct kube_snapshot *dratest_load(const char *doc);

/* A finished snapshot of CASES_DIR/name/input.yaml (a shared case). */
struct kube_snapshot *dratest_load_case(const char *name);

#endif
