/*
 * yamlscalar.c: YAML 1.1 plain scalar resolution (see yamlscalar.h),
 * after go-yaml v2's resolve.go.
 */
#include "yamlscalar.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const yaml_true[] = { "y", "Y", "yes", "Yes", "YES",
    "true", "True", "TRUE", "on", "On", "ON", NULL };
static const char *const yaml_false[] = { "n", "N", "no", "No", "NO",
    "false", "False", "FALSE", "off", "Off", "OFF", NULL };

static int
word_in(const char *s, const char *const *list)
{
	size_t	i;

	for (i = 0; list[i] != NULL; i++)
		if (strcmp(s, list[i]) == 0)
			return 1;
	return 0;
}

/* An integer in base (digits and '_' after the prefix). */
static int
yaml_int(const char *s, int base, double *num)
{
	double		v = 0;
	int		digits = 0, d;

	for (; *s != '\0'; s++) {
		if (*s == '_')
			continue;
		if (isdigit((unsigned char)*s))
			d = *s - '0';
		else if (isxdigit((unsigned char)*s))
			d = tolower((unsigned char)*s) - 'a' + 10;
		else
			return 0;
		if (d >= base)
			return 0;
		v = v * base + d;
		digits++;
	}
	*num = v;
	return digits > 0;
}

/* [-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9_]*)?)([eE][-+]?[0-9]+)? */
static int
yaml_float(const char *s, double *num)
{
	char		 buf[128], *end;
	const char	*p = s;
	size_t		 n = 0;
	int		 digits = 0;

	if (*p == '+' || *p == '-')
		buf[n++] = *p++;
	for (; *p != '\0' && n < sizeof buf - 1; p++) {
		if (*p == '_')
			continue;
		if (isdigit((unsigned char)*p))
			digits++;
		else if (*p != '.' && *p != 'e' && *p != 'E' && *p != '+' &&
		    *p != '-')
			return 0;
		buf[n++] = *p;
	}
	if (*p != '\0' || digits == 0)
		return 0;
	buf[n] = '\0';
	*num = strtod(buf, &end);
	return *end == '\0';
}

enum dra_yaml_type
dra_yaml_resolve(const char *s, size_t len, double *num, int *b)
{
	const char	*p = s;
	int		 neg = 0;

	if (len == 0 || strcmp(s, "~") == 0 || strcmp(s, "null") == 0 ||
	    strcmp(s, "Null") == 0 || strcmp(s, "NULL") == 0)
		return DRA_YAML_NULL;
	if (word_in(s, yaml_true)) {
		*b = 1;
		return DRA_YAML_BOOL;
	}
	if (word_in(s, yaml_false)) {
		*b = 0;
		return DRA_YAML_BOOL;
	}
	if (strchr("+-.0123456789", s[0]) == NULL)
		return DRA_YAML_STRING;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	if (strcmp(p, ".inf") == 0 || strcmp(p, ".Inf") == 0 ||
	    strcmp(p, ".INF") == 0) {
		*num = neg ? -HUGE_VAL : HUGE_VAL;
		return DRA_YAML_NUMBER;
	}
	if (p == s && (strcmp(p, ".nan") == 0 || strcmp(p, ".NaN") == 0 ||
	    strcmp(p, ".NAN") == 0)) {
		*num = NAN;
		return DRA_YAML_NUMBER;
	}
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'o' || p[1] == 'b')) {
		if (!yaml_int(p + 2, p[1] == 'x' ? 16 : p[1] == 'o' ? 8 : 2,
		    num))
			return DRA_YAML_STRING;
	} else if (p[0] == '0' && p[1] != '\0' && strchr(p, '.') == NULL &&
	    strchr(p, 'e') == NULL && strchr(p, 'E') == NULL) {
		/* "017" is octal; "089" is not, but reads as a float. */
		if (!yaml_int(p + 1, 8, num) && !yaml_float(p, num))
			return DRA_YAML_STRING;
	} else if (!yaml_float(p, num)) {
		return DRA_YAML_STRING;
	}
	if (neg)
		*num = -*num;
	return DRA_YAML_NUMBER;
}
