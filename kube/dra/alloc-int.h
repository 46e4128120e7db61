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

struct dra_npool;

/* Every slice of one (driver, pool), any generation, in name order. */
struct dra_apool {
	char			*key;		/* driver KEY_SEP pool */
	const char		*driver;
	const char		*name;
	struct kube_slice     **slices;
	size_t			 nslices, cap;
	int64_t			 maxgen;	/* newest generation */
	size_t			 nmaxgen;	/* slices of it */
	/*
	 * The pool built from all nmaxgen slices (what every node that
	 * sees the whole pool gets), built on first use; memory in the
	 * allocator's pool_mem.
	 */
	struct dra_npool	*full;
	UT_hash_handle		 hh;
};

/* The slices whose spec.nodeName is one node, with their pools. */
struct dra_node_slices {
	const char		*node;
	struct kube_slice     **slices;
	struct dra_apool      **aps;
	size_t			 nslices, cap;
	UT_hash_handle		 hh;
};

/*
 * Scratch memory for one call: zeroed allocations from small malloc'd
 * chunks, all freed at once.  (The snapshot's 1 MiB arena blocks cost
 * a 1 MiB memset per call once malloc stops using mmap for them.)
 */
struct dra_scratch_chunk;
struct dra_scratch {
	struct dra_scratch_chunk	*head;
};
void	*dra_scratch_calloc(struct dra_scratch *s, size_t nmemb, size_t size);
char	*dra_scratch_strdup(struct dra_scratch *s, const char *str);
char	*dra_scratch_strndup(struct dra_scratch *s, const char *str,
	    size_t n);
void	 dra_scratch_release(struct dra_scratch *s);

/*
 * Names kube/model interns (driver, pool, counter-set and counter
 * names): equal strings of one snapshot are one pointer.
 */
#define DRA_SAME(a, b)	((a) == (b))

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

/* The held state of a published device, by its pointer. */
struct dra_held_dev {
	const struct kube_device	*dev;
	struct dra_held			*h;
	UT_hash_handle			 hh;
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

/* The selector verdict for one device (msg borrowed from the cache). */
struct dra_selres {
	enum dra_sel	 verdict;
	int		 is_class;	/* ERROR etc. came from class */
	size_t		 selector;
	const char	*msg;		/* CEL text, enhanced */
};

/*
 * The selector expressions of a request, joined: requests with the same
 * expressions (every claim made from one template) share verdicts.
 */
struct dra_sellist {
	char		*key;
	UT_hash_handle	 hh;
};

struct dra_reqsig {
	const void		*req;
	struct dra_sellist	*sig;
	UT_hash_handle		 hh;
};

struct dra_selkey {
	const void	*slice;
	const void	*sig;		/* struct dra_sellist */
	const void	*cls;
};

/*
 * Verdicts of one (request, class) for the devices of one slice:
 * v[i] is 0 until device i is evaluated, then verdict + 1, is_class
 * << 7 and selector << 8; msg[i] the text of an undecided verdict.
 */
struct dra_selslice {
	struct dra_selkey	 key;
	uint32_t		*v;
	char		       **msg;
	size_t			 n;
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
	/*
	 * What is left of each counter (sets[i]->counters[j]) after the
	 * allocated devices of the pool, for state generation avail_gen;
	 * see dra_pool_available().
	 */
	int64_t			**avail;
	uint64_t		  avail_gen;
};

/* The pools of one node, in the allocator's order. */
struct dra_gather {
	char			*node;
	const struct kube_node	*n;
	struct dra_npool	*pools;
	size_t			 npools;
	struct dra_scratch	 scratch;
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
	struct dra_apool	       **shared_aps;
	size_t				 nshared, capshared;
	struct dra_held			*held;		/* hash */
	struct dra_held_dev		*held_dev;	/* hash */
	struct dra_prog			*progs;		/* hash */
	struct dra_selslice		*selslices;	/* hash */
	struct dra_selslice		*last_ss;
	struct dra_sellist		*sellists;	/* hash */
	struct dra_reqsig		*reqsigs;	/* hash */
	struct dra_reqsig		*last_rs;
	struct dra_released		*released;	/* hash */
	struct dra_gather		*last;		/* newest gather */
	uint64_t			 state_gen;	/* bumped by release,
							   hold and unhold */
	int				 holds;		/* dra_allocator_hold()
							   was called */
	struct dra_scratch		 pool_mem;	/* dra_apool.full */
	struct kube_device_alloc	*holders;	/* dra_device_check */
	size_t				 nholders, capholders;
};

/* alloc.c */
#define DRA_KEY_SEP	'\x1f'
char	*dra_device_key(char *buf, size_t len, const char *driver,
	    const char *pool, const char *device);
const struct dra_held *dra_held_get(const struct dra_allocator *a,
	    const char *driver, const char *pool, const char *device);
const struct dra_held *dra_held_of(const struct dra_allocator *a,
	    const struct kube_device *d);
int	dra_held_in_use(const struct dra_held *h);
int	dra_held_allocated(const struct dra_held *h);
int	dra_node_matches(const char *node, const struct kube_node *n,
	    const char *node_name, int all_nodes,
	    const struct kube_node_selector *sel);
void	dra_selectors(struct dra_allocator *a, const struct kube_device *d,
	    const struct kube_device_request *r,
	    const struct kube_device_class *cls, struct dra_selres *out);
/*
 * The allocator's text for an undecided selector (selectorsMatch):
 * "class C: selector #i on device D: CEL runtime error: ..." or "claim
 * NS/NAME: ..." (claim_name NULL or "": "claim in namespace NS: ...").
 * NULL for a decided verdict.  The caller frees it.
 */
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
int	dra_capacity_fits(const struct dra_allocator *a,
	    const struct kube_device *d, const struct kube_device_request *r,
	    const struct dra_held *held, const int64_t *allocating,
	    const struct kube_capacity **bad, int64_t *need, int64_t *left,
	    const struct kube_capacity_request **missing);
/* -2 from dra_capacity_fits(): a consumed capacity would be negative. */
#define DRA_CAPACITY_NEGATIVE	(-2)
/* What r consumes of each capacity of d (d->ncapacity values). */
void	dra_capacity_consumed(const struct dra_allocator *a,
	    const struct kube_device *d, const struct kube_device_request *r,
	    int64_t *out);
/* The capacity's name as published ("id" in the driver's domain). */
const char *dra_capacity_name(const struct kube_device *d,
	    const struct kube_capacity *c, char *buf, size_t len);

/* alloc-pools.c */
struct dra_gather *dra_gather_pools(struct dra_allocator *a,
	    const char *node, const struct kube_node *n);
/*
 * checkAvailableCounters' available counters of np (a pool of g):
 * counter-set values minus what the allocated devices of the pool
 * (targeting the node or not) consume; [set][counter], milli, owned by
 * g, recomputed after a release.
 */
int64_t	**dra_pool_available(struct dra_allocator *a, struct dra_gather *g,
	    struct dra_npool *np);
void	dra_gather_free(struct dra_gather *g);

#endif
