/*
 * strdist.h: how far apart two short strings are, for "did you mean"
 * suggestions (unknown commands, misspelt demand-file fields).
 */
#ifndef DRA_STRDIST_H
#define DRA_STRDIST_H

#include <stddef.h>

/* The most characters dra_strdist() compares. */
#define DRA_STRDIST_MAX	63

/*
 * The Levenshtein distance between a and b (insertions, deletions and
 * substitutions, each 1), ASCII letters compared without case when
 * icase is set.  SIZE_MAX when either string is longer than
 * DRA_STRDIST_MAX characters (never a suggestion).
 */
size_t	dra_strdist(const char *a, const char *b, int icase);

#endif
