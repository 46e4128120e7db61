/*
 * alloc-int.h: internals shared by the allocator's files only
 * (alloc.c: the allocator, its state and the per-device checks;
 * alloc-pools.c: pools as GatherPools sees them from one node;
 * alloc-search.c: dra_allocate(); alloc-check.c: dra_device_check()).
 */
#ifndef DRA_ALLOC_INT_H
#define DRA_ALLOC_INT_H

#include <stddef.h>
#include <stdint.h>

#include <uthash.h>

#include "alloc.h"
#include "arena.h"
#include "cel.h"

/* Kubernetes resourceapi.AllocationResultsMaxSize. */
#define DRA_ALLOC_RESULTS_MAX	32

/* Every slice of one (driver, pool), any generation, in name order. */
struct dra_apool {
	char			*key;		/* driver KEY_SEP pool */
	const char		*driver;
	const char		*name;
	struct kube_slice     **slices;
	size_t			 nslices, cap;
	UT_hash_handle		 hh;
};

/* The slices whose spec.nodeName is one node. */
struct dra_node_slices {
	const char		*node;
	struct kube_slice     **slices;
	size_t			 nslices, cap;
	UT_hash_handle		 hh;
};

/* Consumed capacity of one (domain, id), in milli. */
struct dra_cap_amount {
	const char	*domain;
	const char	*id;
	int64_t		 milli;
};

/*
 * What allocated claims hold of one device ID (the scheduler's
 * AllocatedState): dedicated results (AllocatedDevices), shared ones
 * (AllocatedSharedDeviceIDs) and their summed consumedCapacity
 * (AggregatedCapacity, present when ncapres > 0).
 */
struct dra_held {
	char			*key;		/* driver KEY_SEP pool KEY_SEP dev */
	int			 ndedicated;
	int			 nshared;
	int			 ncapres;
	struct dra_cap_amount	*cap;
	size_t			 ncap, capcap;
	UT_hash_handle		 hh;
};

/* A compiled selector expression, shared by every use of its text. */
struct dra_prog {
	char			*expr;
	struct dra_cel		*prog;		/* NULL: compile failed */
	char			*compile_err;
	UT_hash_handle		 hh;
};

/* Verdicts of the class and request selectors for one device. */
enum dra_sel {
	DRA_SEL_MATCH,
	DRA_SEL_CLASS_FALSE,
	DRA_SEL_REQ_FALSE,
	DRA_SEL_ERROR,		/* runtime error: msg */
	DRA_SEL_COMPILE,	/* compile error: msg */
	DRA_SEL_UNSUPPORTED,	/* msg */
};

struct dra_selkey {
	const void	*dev;
	const void	*req;
	const void	*cls;
};

struct dra_selres {
	struct dra_selkey	 key;
	enum dra_sel		 verdict;
	int			 is_class;	/* ERROR etc. came from class */
	size_t			 selector;
	char			*msg;		/* CEL text, enhanced */
	UT_hash_handle		 hh;
};

/* A claim treated as released. */
struct dra_released {
	const struct kube_claim	*claim;
	UT_hash_handle		 hh;
};

/* A pool as GatherPools builds it for one node. */
struct dra_npool {
	struct dra_apool	 *ap;
	const char		 *driver;
	const char		 *name;
	int			  incomplete;
	int			  invalid;
	char			 *invalid_reason;
	int			  binding;
	struct kube_slice	**slices;	/* device slices targeting node */
	size_t			  nslices;
	struct kube_slice	**others;	/* device slices not targeting */
	size_t			  nothers;
	struct kube_counter_set **sets;
	size_t			  nsets;
};

/* The pools of one node, in the allocator's order. */
struct dra_gather {
	char			*node;
	const struct kube_node	*n;
	struct dra_npool	*pools;
	size_t			 npools;
	struct dra_arena	 arena;
};

struct dra_allocator {
	const struct kube_snapshot	*s;
	unsigned			 features;
	uint64_t			 max_steps;
	int				 no_counting;
	struct dra_arena		 arena;
	struct dra_apool		*apools;	/* hash */
	struct dra_node_slices		*on_node;	/* hash */
	struct kube_slice	       **shared;	/* no nodeName */
	size_t				 nshared, capshared;
	struct dra_held			*held;		/* hash */
	struct dra_prog			*progs;		/* hash */
	struct dra_selres		*selres;	/* hash */
	struct dra_released		*released;	/* hash */
	struct dra_gather		*last;		/* newest gather */
	struct kube_device_alloc	*holders;	/* dra_device_check */
	size_t				 nholders, capholders;
};

/* alloc.c */
#define DRA_KEY_SEP	'\x1f'
char	*dra_device_key(char *buf, size_t len, const char *driver,
	    const char *pool, const char *device);
const struct dra_held *dra_held_get(const struct dra_allocator *a,
	    const char *driver, const char *pool, const char *device);
int	dra_held_in_use(const struct dra_held *h);
int	dra_held_allocated(const struct dra_held *h);
int	dra_node_matches(const char *node, const struct kube_node *n,
	    const char *node_name, int all_nodes,
	    const struct kube_node_selector *sel);
const struct dra_selres *dra_selectors(struct dra_allocator *a,
	    const struct kube_device *d, const struct kube_device_request *r,
	    const struct kube_device_class *cls);
char	*dra_cel_message(const struct dra_selres *sr,
	    const struct kube_device_class *cls, const char *claim_ns,
	    const char *claim_name, const struct kube_device *d);
const struct kube_taint *dra_untolerated_taint(const struct kube_device *d,
	    const struct kube_device_request *r);
const struct kube_device_class *dra_class(const struct dra_allocator *a,
	    const char *name);

/*
 * Consumable capacity (consumable_capacity.go): whether request r fits
 * into device d given what is already consumed (held, may be NULL) and
 * what this attempt consumes (allocating, d->ncapacity values, may be
 * NULL).  Returns 1 fits, 0 does not (*bad, *need, *left set), -1 r
 * requests a capacity d does not publish (*missing set).
 */
int	dra_capacity_fits(const struct kube_device *d,
	    const struct kube_device_request *r, const struct dra_held *held,
	    const int64_t *allocating, const struct kube_capacity **bad,
	    int64_t *need, int64_t *left,
	    const struct kube_capacity_request **missing);
/* What r consumes of each capacity of d (d->ncapacity values). */
void	dra_capacity_consumed(const struct kube_device *d,
	    const struct kube_device_request *r, int64_t *out);

/* alloc-pools.c */
struct dra_gather *dra_gather_pools(struct dra_allocator *a,
	    const char *node, const struct kube_node *n);
void	dra_gather_free(struct dra_gather *g);

#endif
