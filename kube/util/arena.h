/*
 * arena.h: a bump allocator for data that lives and dies together.
 *
 * A decoded snapshot holds hundreds of thousands of small objects
 * (devices, attributes, counters) that are all freed at once; an arena
 * makes each allocation a pointer bump and the release one loop over
 * a few large blocks (CONVENTIONS.md b5: one owner per snapshot).
 */
#ifndef DRA_ARENA_H
#define DRA_ARENA_H

#include <stddef.h>

struct dra_arena_block;

struct dra_arena {
	struct dra_arena_block	*head;	/* newest block first */
	size_t			 used;	/* bytes handed out, for stats */
};

/* Make a an empty arena; allocates nothing yet. */
void	 dra_arena_init(struct dra_arena *a);

/* Free every block; a is empty again and may be reused. */
void	 dra_arena_release(struct dra_arena *a);

/*
 * size bytes (> 0) aligned for any type, zero-filled, owned by a and
 * valid until dra_arena_release.  Never returns NULL.
 */
void	*dra_arena_alloc(struct dra_arena *a, size_t size);

/* nmemb * size bytes (overflow checked) as dra_arena_alloc. */
void	*dra_arena_calloc(struct dra_arena *a, size_t nmemb, size_t size);

/* A copy of s (NULL gives NULL) / of its first n bytes, in a. */
char	*dra_arena_strdup(struct dra_arena *a, const char *s);
char	*dra_arena_strndup(struct dra_arena *a, const char *s, size_t n);

#endif
