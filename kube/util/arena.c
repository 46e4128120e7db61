/*
 * arena.c: the bump allocator (see arena.h).
 *
 * Blocks are 1 MiB, or larger for a single big request; each keeps its
 * own fill pointer.  Alignment is that of max_align_t.  Blocks are
 * calloc'd, which is how every allocation comes back zeroed.
 */
#include "arena.h"

#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

#define ARENA_BLOCK	(1UL << 20)
#define ARENA_ALIGN	alignof(max_align_t)

struct dra_arena_block {
	struct dra_arena_block	*next;
	size_t			 size;	/* usable bytes in data */
	size_t			 fill;	/* bytes used in data */
	alignas(max_align_t) unsigned char data[];
};

void
dra_arena_init(struct dra_arena *a)
{
	a->head = NULL;
	a->used = 0;
}

void
dra_arena_release(struct dra_arena *a)
{
	struct dra_arena_block	*b, *next;

	for (b = a->head; b != NULL; b = next) {
		next = b->next;
		free(b);
	}
	a->head = NULL;
	a->used = 0;
}

void *
dra_arena_alloc(struct dra_arena *a, size_t size)
{
	struct dra_arena_block	*b;
	size_t			 want, bsize;
	void			*p;

	if (size == 0 || size > SIZE_MAX - ARENA_ALIGN)
		return xmalloc(0);	/* aborts: a bug */
	want = (size + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1);
	b = a->head;
	if (b == NULL || b->size - b->fill < want) {
		bsize = want > ARENA_BLOCK / 4 ? want : ARENA_BLOCK;
		/*
		 * calloc: fresh pages come zeroed from the kernel, so
		 * nothing is cleared twice, and a bump allocator never
		 * hands out the same bytes again.
		 */
		b = xcalloc(1, sizeof *b + bsize);
		b->size = bsize;
		b->fill = 0;
		if (bsize == ARENA_BLOCK || a->head == NULL) {
			b->next = a->head;
			a->head = b;
		} else {
			/* A big one-off: keep filling the current block. */
			b->next = a->head->next;
			a->head->next = b;
		}
	}
	p = b->data + b->fill;
	b->fill += want;
	a->used += want;
	return p;		/* zero: the block was calloc'd */
}

void *
dra_arena_calloc(struct dra_arena *a, size_t nmemb, size_t size)
{
	if (nmemb != 0 && SIZE_MAX / nmemb < size)
		return xmalloc(0);	/* aborts: a bug */
	return dra_arena_alloc(a, nmemb * size);
}

char *
dra_arena_strndup(struct dra_arena *a, const char *s, size_t n)
{
	char	*p;
	size_t	 len;

	if (s == NULL)
		return NULL;
	len = strnlen(s, n);
	p = dra_arena_alloc(a, len + 1);
	memcpy(p, s, len);
	return p;
}

char *
dra_arena_strdup(struct dra_arena *a, const char *s)
{
	if (s == NULL)
		return NULL;
	return dra_arena_strndup(a, s, strlen(s));
}
