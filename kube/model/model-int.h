/*
 * model-int.h: internals shared by the files of kube/model only.
 */
#ifndef KUBE_MODEL_INT_H
#define KUBE_MODEL_INT_H

#include <stddef.h>

#include "model.h"

/* Append item to a KUBE_VEC; grows with xreallocarray. */
void	kube_vec_push(void ***v, size_t *n, size_t *cap, void *item);
#define KUBE_VEC_PUSH(vec, item)					\
	kube_vec_push((void ***)&(vec)->v, &(vec)->n, &(vec)->cap, (item))

/* Intern len bytes of str (need not be NUL-terminated). */
const char *kube_snapshot_intern_n(struct kube_snapshot *s, const char *str,
	    size_t len);

/* The lookup tables built by kube_snapshot_finish(). */
void	kube_index_free(struct kube_index *ix);

#endif
