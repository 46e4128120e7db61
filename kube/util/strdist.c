/*
 * strdist.c: the Levenshtein distance of two short strings (strdist.h),
 * one row of the dynamic programme at a time.
 */
#include "strdist.h"

#include <stdint.h>
#include <string.h>

static int
fold(int c, int icase)
{
	return (icase && c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

size_t
dra_strdist(const char *a, const char *b, int icase)
{
	size_t	la = strlen(a), lb = strlen(b), i, j, prev, cur, t;
	size_t	row[DRA_STRDIST_MAX + 1];

	if (la > DRA_STRDIST_MAX || lb > DRA_STRDIST_MAX)
		return SIZE_MAX;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			cur = prev + (fold((unsigned char)a[i - 1], icase) !=
			    fold((unsigned char)b[j - 1], icase));
			if (row[j] + 1 < cur)
				cur = row[j] + 1;
			if (row[j - 1] + 1 < cur)
				cur = row[j - 1] + 1;
			t = row[j];
			row[j] = cur;
			prev = t;
		}
	}
	return row[lb];
}
