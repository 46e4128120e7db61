/*
 * views-int.h: helpers shared by the files of views/ only.
 */
#ifndef DRA_VIEWS_INT_H
#define DRA_VIEWS_INT_H

#include <stdarg.h>
#include <stddef.h>

#include "buf.h"
#include "views.h"

/* A table with no columns yet. */
struct dra_table *view_table_new(enum dra_kind kind);

/* Append a column (name is static). */
void	view_col(struct dra_table *t, const char *name, unsigned flags);

/* Fills the cells of one row, left to right. */
struct view_rowb {
	struct dra_table	*t;
	struct dra_row		*row;
	size_t			 i;
};

/* Start a row showing obj; the cells are "" until set. */
void	view_row(struct dra_table *t, struct view_rowb *rb, const void *obj);

/* The next cell: a copy of s ("-" when s is NULL or empty). */
void	view_cell(struct view_rowb *rb, const char *s);
void	view_cellf(struct view_rowb *rb, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/* A copy of s in the table's arena. */
const char *view_strdup(struct dra_table *t, const char *s);

/*
 * Whether an object passes f's name list; marks f->matched.  The
 * object's names: n1 and optionally n2 (NULL), any may match.
 */
int	view_name_ok(const struct dra_filter *f, const char *n1,
	    const char *n2);

/* Namespace test: f->namespace NULL or equal to ns. */
int	view_ns_ok(const struct dra_filter *f, const char *ns);

/* Whether a namespaced kind shows the NAMESPACE column. */
int	view_all_ns(const struct dra_filter *f);

/* Label selector test. */
int	view_labels_ok(const struct dra_filter *f, const struct kube_meta *m);

/* strcmp that accepts NULL (sorts first). */
int	view_strcmp(const char *a, const char *b);

/* kube_quantity_format of milli into buf. */
char	*view_qty(int64_t milli, char *buf, size_t len);

/* A quantity as published, else formatted. */
const char *view_qty_text(const struct kube_quantity *q, char *buf,
	    size_t len);

/* Append s to b, separated by sep when b is not empty. */
void	view_join(struct dra_buf *b, const char *sep, const char *s);

/* The capacity a device is best described by: "memory", else first. */
const struct kube_capacity *view_key_capacity(const struct kube_device *d);

/* A request as "class xN" (firstAvailable: "a|b"), appended to b. */
void	view_request_text(struct dra_buf *b, const struct kube_request *r);

/* All requests of spec, ", " joined, appended to b. */
void	view_requests_text(struct dra_buf *b,
	    const struct kube_claim_spec *spec);

/* Every device of the pools' newest generation, in view order. */
struct kube_device **view_all_devices(const struct kube_snapshot *s,
	    size_t *n);

/*
 * A sorted copy (namespace, then name) of n objects whose first member
 * is a struct kube_meta (claims, templates, slices, classes, nodes).
 * The caller frees the array, not the objects.
 */
/*
 * A pool's device counts for the pools table and the Pool object:
 * devices of its newest generation, how many are allocated, blocked by
 * counters, tainted, and available (free, or shared with capacity
 * left; never blocked, tainted or in an unusable pool).
 */
struct view_pool_counts {
	size_t	devices;
	size_t	allocated;
	size_t	available;
	size_t	blocked;
	size_t	tainted;
};
void	view_pool_counts(const struct kube_pool *p,
	    struct view_pool_counts *out);

void	**view_sort_meta(void *const *v, size_t n);

#endif
