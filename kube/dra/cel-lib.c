/*
 * cel-lib.c: the functions of the Kubernetes 1.37 base CEL environment
 * that selectors use.
 *
 *  - strings: size, startsWith, endsWith, contains, matches, and the
 *    cel-go strings extension (ext.Strings version 2: charAt, indexOf,
 *    lastIndexOf, lowerAscii, upperAscii, replace, split, substring,
 *    trim, join); indices count code points as cel-go does.
 *  - matches (cel-re.c).
 *  - quantity() and its methods (apiserver pkg/cel/library/quantity.go),
 *    semver() and its methods (semverlib.go); parsing in cel-kube.c.
 *  - lists: the Kubernetes lists library (isSorted, sum, min, max,
 *    indexOf, lastIndexOf), cel-go ext.Lists version 3 (slice,
 *    flatten, reverse, distinct, sort, sortBy, lists.range) and
 *    ext.Sets (sets.contains, sets.equivalent, sets.intersects).
 *  - conversions int(), uint(), double(), string(), bool(), bytes(),
 *    dyn(); optional.of/none/ofNonZeroValue, hasValue, value.
 *  - includes(): DRA's (dynamic-resource-allocation cel/compile.go
 *    includesFunc, 1.37): a list whose first 48 items do not hold the
 *    value and that has more is the error "'includes' function cannot
 *    be applied to lists longer than 48 values".
 */
#include "cel-int.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NANO	((__int128)1000000000)





static struct cel_val
no_overload(struct cel_ctx *c)
{
	return cel_error(c, "no such overload");
}

/* UTF-8 helpers. */

size_t
cel_utf8_len(const char *s, size_t n)
{
	size_t i, cps = 0;

	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			cps++;
	return cps;
}

/* Byte offset of code point index cp in (s, n); n if cp is the end. */
static size_t
cp_offset(const char *s, size_t n, size_t cp)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (((unsigned char)s[i] & 0xc0) == 0x80)
			continue;
		if (cp-- == 0)
			return i;
	}
	return n;
}

/* Length of the UTF-8 sequence starting at s[0] (at least 1). */
static size_t
seq_len(const char *s, size_t n)
{
	size_t i = 1;

	while (i < n && ((unsigned char)s[i] & 0xc0) == 0x80)
		i++;
	return i;
}

int
cel_utf8_valid(const char *s, size_t n)
{
	size_t	 i = 0, k, len;
	uint32_t cp;

	while (i < n) {
		unsigned char ch = (unsigned char)s[i];

		if (ch < 0x80) {
			i++;
			continue;
		}
		if ((ch & 0xe0) == 0xc0) {
			len = 2;
			cp = ch & 0x1f;
		} else if ((ch & 0xf0) == 0xe0) {
			len = 3;
			cp = ch & 0x0f;
		} else if ((ch & 0xf8) == 0xf0) {
			len = 4;
			cp = ch & 0x07;
		} else
			return 0;
		if (i + len > n)
			return 0;
		for (k = 1; k < len; k++) {
			if (((unsigned char)s[i + k] & 0xc0) != 0x80)
				return 0;
			cp = (cp << 6) | ((unsigned char)s[i + k] & 0x3f);
		}
		if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
		    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		i += len;
	}
	return 1;
}

/* memmem over (h, hn) for (nd, nn) from byte from; -1 if absent. */
static long
find(const char *h, size_t hn, const char *nd, size_t nn, size_t from)
{
	size_t i;

	if (nn == 0)
		return (long)from;
	for (i = from; i + nn <= hn; i++)
		if (memcmp(h + i, nd, nn) == 0)
			return (long)i;
	return -1;
}

static char *
dup_bytes(struct cel_ctx *c, const char *s, size_t n)
{
	char *r = cel_alloc(c, n + 1);

	if (n)
		memcpy(r, s, n);
	r[n] = '\0';
	return r;
}

/* Conversions. */

/*
 * Go's fmt "%g" for a double, as cel-go's string(double) formats it:
 * the shortest digits that read back the same; exponent form when the
 * exponent is below -4 or at least 6 (strconv 'g' with precision -1).
 */
static struct cel_val
double_string(struct cel_ctx *c, double d)
{
	char	 buf[64], out[64];
	int	 prec, exp, nd, o = 0, i;
	char	*e, digits[32];

	if (isnan(d))
		return vstr("NaN", 3);
	if (isinf(d))
		return d > 0 ? vstr("+Inf", 4) : vstr("-Inf", 4);
	for (prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*e", prec - 1, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	e = strchr(buf, 'e');
	exp = (int)strtol(e + 1, NULL, 10);
	for (nd = 0, i = buf[0] == '-'; buf + i < e; i++)
		if (buf[i] != '.')
			digits[nd++] = buf[i];
	if (d < 0 || (d == 0 && signbit(d)))
		out[o++] = '-';
	if (exp < -4 || exp >= 6) {
		out[o++] = digits[0];
		if (nd > 1) {
			out[o++] = '.';
			memcpy(out + o, digits + 1, (size_t)nd - 1);
			o += nd - 1;
		}
		o += snprintf(out + o, sizeof out - (size_t)o, "e%c%02d",
		    exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
	} else if (exp < 0) {
		out[o++] = '0';
		out[o++] = '.';
		for (i = 0; i < -exp - 1; i++)
			out[o++] = '0';
		memcpy(out + o, digits, (size_t)nd);
		o += nd;
	} else {
		for (i = 0; i <= exp || i < nd; i++) {
			if (i == exp + 1)
				out[o++] = '.';
			out[o++] = i < nd ? digits[i] : '0';
		}
	}
	return vstr(dup_bytes(c, out, (size_t)o), (size_t)o);
}

/* A string that does not parse (cel-go String.ConvertToType). */
static struct cel_val
parse_error(struct cel_ctx *c, const char *to)
{
	return cel_error(c, "type conversion error from 'string' to '%s'", to);
}

static struct cel_val
to_int(struct cel_ctx *c, struct cel_val a)
{
	char	 buf[64], *end;
	long long v;

	switch (a.k) {
	case CV_INT:
		return a;
	case CV_UINT:
		if (a.u > INT64_MAX)
			return cel_error(c, "integer overflow");
		return vint((int64_t)a.u);
	case CV_DOUBLE:
		/* cel-go doubleToInt64Checked: both limits excluded. */
		if (!(a.d > -9223372036854775808.0 &&
		    a.d < 9223372036854775808.0))
			return cel_error(c, "integer overflow");
		return vint((int64_t)a.d);
	case CV_STRING:
		if (a.n == 0 || a.n >= sizeof buf)
			return parse_error(c, "int");
		memcpy(buf, a.s, a.n);
		buf[a.n] = '\0';
		if (!((buf[0] >= '0' && buf[0] <= '9') ||
		    ((buf[0] == '-' || buf[0] == '+') && a.n > 1)))
			return parse_error(c, "int");
		errno = 0;
		v = strtoll(buf, &end, 10);
		if (*end != '\0')
			return parse_error(c, "int");
		if (errno == ERANGE)
			return parse_error(c, "int");
		return vint(v);
	default:
		return no_overload(c);
	}
}

static struct cel_val
to_uint(struct cel_ctx *c, struct cel_val a)
{
	struct cel_val		 v = a;
	char			 buf[64], *end;
	unsigned long long	 u;

	v.k = CV_UINT;
	switch (a.k) {
	case CV_UINT:
		return a;
	case CV_INT:
		if (a.i < 0)
			return cel_error(c, "unsigned integer overflow");
		v.u = (uint64_t)a.i;
		return v;
	case CV_DOUBLE:
		if (!(a.d >= 0 && a.d < 18446744073709551616.0))
			return cel_error(c, "unsigned integer overflow");
		v.u = (uint64_t)a.d;
		return v;
	case CV_STRING:
		if (a.n == 0 || a.n >= sizeof buf || a.s[0] < '0' ||
		    a.s[0] > '9')
			return parse_error(c, "uint");
		memcpy(buf, a.s, a.n);
		buf[a.n] = '\0';
		errno = 0;
		u = strtoull(buf, &end, 10);
		if (*end != '\0')
			return parse_error(c, "uint");
		if (errno == ERANGE)
			return parse_error(c, "uint");
		v.u = u;
		return v;
	default:
		return no_overload(c);
	}
}

static struct cel_val
to_double(struct cel_ctx *c, struct cel_val a)
{
	struct cel_val	 v = a;
	char		 buf[128], *end;

	v.k = CV_DOUBLE;
	switch (a.k) {
	case CV_DOUBLE:
		return a;
	case CV_INT:
		v.d = (double)a.i;
		return v;
	case CV_UINT:
		v.d = (double)a.u;
		return v;
	case CV_STRING:
		if (a.n == 0 || a.n >= sizeof buf || a.s[0] == ' ' ||
		    a.s[0] == '\t' || a.s[0] == '\n')
			return parse_error(c, "double");
		memcpy(buf, a.s, a.n);
		buf[a.n] = '\0';
		v.d = strtod(buf, &end);
		if (*end != '\0')
			return parse_error(c, "double");
		return v;
	default:
		return no_overload(c);
	}
}

static struct cel_val
to_string(struct cel_ctx *c, struct cel_val a)
{
	char	buf[32];
	int	n;

	switch (a.k) {
	case CV_STRING:
		return a;
	case CV_INT:
		n = snprintf(buf, sizeof buf, "%" PRId64, a.i);
		return vstr(dup_bytes(c, buf, (size_t)n), (size_t)n);
	case CV_UINT:
		n = snprintf(buf, sizeof buf, "%" PRIu64, a.u);
		return vstr(dup_bytes(c, buf, (size_t)n), (size_t)n);
	case CV_DOUBLE:
		return double_string(c, a.d);
	case CV_BOOL:
		return a.b ? vstr("true", 4) : vstr("false", 5);
	case CV_BYTES:
		if (!cel_utf8_valid(a.s, a.n))
			return cel_error(c, "invalid UTF-8 in bytes, cannot "
			    "convert to string");
		return vstr(a.s, a.n);
	default:
		return no_overload(c);
	}
}

/* The zero value test of optional.ofNonZeroValue. */
static int
is_zero(struct cel_ctx *c, struct cel_val v)
{
	switch (v.k) {
	case CV_MAP:		return cel_map_size(c, v) == 0;
	case CV_QUANTITY:	return v.q == 0;
	case CV_NULL:		return 1;
	case CV_BOOL:		return !v.b;
	case CV_INT:		return v.i == 0;
	case CV_UINT:		return v.u == 0;
	case CV_DOUBLE:		return v.d == 0;
	case CV_STRING:
	case CV_BYTES:
	case CV_LIST:		return v.n == 0;
	case CV_OPTIONAL:	return v.opt == NULL;
	default:		return 0;
	}
}

/* String functions. */

static const char *
ascii_case(struct cel_ctx *c, struct cel_val s, int upper)
{
	char	*r = cel_alloc(c, (size_t)s.n + 1);
	size_t	 i;

	for (i = 0; i < s.n; i++) {
		char ch = s.s[i];

		if (upper && ch >= 'a' && ch <= 'z')
			ch = (char)(ch - 'a' + 'A');
		else if (!upper && ch >= 'A' && ch <= 'Z')
			ch = (char)(ch - 'A' + 'a');
		r[i] = ch;
	}
	r[s.n] = '\0';
	return r;
}

/* Length of Unicode white space (Go unicode.IsSpace) at s, or 0. */
static size_t
space_at(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;

	if (n >= 1 && (u[0] == ' ' || (u[0] >= '\t' && u[0] <= '\r')))
		return 1;
	if (n >= 2 && u[0] == 0xc2 && (u[1] == 0x85 || u[1] == 0xa0))
		return 2;
	if (n >= 3 && u[0] == 0xe1 && u[1] == 0x9a && u[2] == 0x80)
		return 3;
	if (n >= 3 && u[0] == 0xe2 && u[1] == 0x80 &&
	    ((u[2] >= 0x80 && u[2] <= 0x8a) || u[2] == 0xa8 ||
	    u[2] == 0xa9 || u[2] == 0xaf))
		return 3;
	if (n >= 3 && u[0] == 0xe2 && u[1] == 0x81 && u[2] == 0x9f)
		return 3;
	if (n >= 3 && u[0] == 0xe3 && u[1] == 0x80 && u[2] == 0x80)
		return 3;
	return 0;
}

static struct cel_val
trim(struct cel_val s)
{
	size_t	b = 0, e = s.n, k, i;

	while (b < e && (k = space_at(s.s + b, e - b)) > 0)
		b += k;
	/* From the end: find the last non-space code point. */
	for (i = b; i < e; ) {
		k = space_at(s.s + i, e - i);
		if (k == 0) {
			i += seq_len(s.s + i, e - i);
			continue;
		}
		{
			size_t j = i;

			while (j < e && (k = space_at(s.s + j, e - j)) > 0)
				j += k;
			if (j == e) {
				e = i;
				break;
			}
			i = j;
		}
	}
	return vstr(s.s + b, e - b);
}

/* Go strings.Replace(s, old, new, n). */
static struct cel_val
replace(struct cel_ctx *c, struct cel_val s, struct cel_val old,
    struct cel_val new, int64_t limit)
{
	size_t	 cnt = 0, i, o = 0, max;
	char	*r;
	long	 at;

	if (limit == 0)
		return s;
	/* Upper bound of the result size. */
	if (old.n == 0)
		max = (size_t)s.n + ((size_t)s.n + 1) * new.n;
	else
		max = (size_t)s.n + ((size_t)s.n / old.n + 1) * new.n;
	r = cel_alloc(c, max + 1);
	for (i = 0; i <= s.n; ) {
		if (limit >= 0 && cnt >= (uint64_t)limit)
			break;
		if (old.n == 0) {
			size_t k;

			if (new.n)
				memcpy(r + o, new.s, new.n);
			o += new.n;
			cnt++;
			if (i == s.n) {
				i++;
				break;
			}
			k = seq_len(s.s + i, s.n - i);
			memcpy(r + o, s.s + i, k);
			o += k;
			i += k;
			continue;
		}
		at = find(s.s, s.n, old.s, old.n, i);
		if (at < 0)
			break;
		memcpy(r + o, s.s + i, (size_t)at - i);
		o += (size_t)at - i;
		if (new.n)
			memcpy(r + o, new.s, new.n);
		o += new.n;
		i = (size_t)at + old.n;
		cnt++;
	}
	if (i < s.n) {
		memcpy(r + o, s.s + i, s.n - i);
		o += s.n - i;
	}
	r[o] = '\0';
	return vstr(r, o);
}

/* Go strings.SplitN(s, sep, n). */
static struct cel_val
split(struct cel_ctx *c, struct cel_val s, struct cel_val sep, int64_t limit)
{
	struct cel_val	 l, *items;
	size_t		 max, n = 0, i = 0;
	long		 at;

	memset(&l, 0, sizeof l);
	l.k = CV_LIST;
	l.rep = CR_VALS;
	if (limit == 0)
		return l;
	max = sep.n == 0 ? (size_t)s.n + 1 : (size_t)s.n / sep.n + 2;
	items = cel_alloc(c, max * sizeof *items);
	if (sep.n == 0) {
		while (i < s.n) {
			size_t k = seq_len(s.s + i, s.n - i);

			if (limit > 0 && n + 1 == (uint64_t)limit) {
				k = s.n - i;
			}
			items[n++] = vstr(s.s + i, k);
			i += k;
		}
	} else {
		for (;;) {
			if (limit > 0 && n + 1 == (uint64_t)limit)
				break;
			at = find(s.s, s.n, sep.s, sep.n, i);
			if (at < 0)
				break;
			items[n++] = vstr(s.s + i, (size_t)at - i);
			i = (size_t)at + sep.n;
		}
		items[n++] = vstr(s.s + i, s.n - i);
	}
	l.items = items;
	l.n = (uint32_t)n;
	return l;
}

/*
 * indexOf / lastIndexOf as cel-go v0.27.0 ext/strings.go (the version
 * Kubernetes 1.37 vendors): an empty needle is found at the offset
 * (the length without one); a negative offset is an error; an offset
 * at or beyond the length finds nothing.  Indices count code points.
 */
static struct cel_val
index_of(struct cel_ctx *c, struct cel_val s, struct cel_val sub,
    int has_off, int64_t off, int last)
{
	size_t	len = cel_utf8_len(s.s, s.n), sublen, i, from;
	long	at = -1;

	if (!has_off) {
		if (sub.n == 0)
			return vint(last ? (int64_t)len : 0);
		if (last && s.n < sub.n)
			return vint(-1);
		off = last ? (int64_t)len - 1 : 0;
	}
	if (sub.n == 0)
		return vint(off);
	if (off < 0)
		return cel_error(c, "index out of range: %" PRId64, off);
	if ((uint64_t)off >= len)
		return vint(-1);
	if (!last) {
		at = find(s.s, s.n, sub.s, sub.n, cp_offset(s.s, s.n,
		    (size_t)off));
		return vint(at < 0 ? -1 : (int64_t)cel_utf8_len(s.s,
		    (size_t)at));
	}
	sublen = cel_utf8_len(sub.s, sub.n);
	if (sublen > len)
		return vint(-1);
	if ((uint64_t)off > len - sublen)
		off = (int64_t)(len - sublen);
	for (i = (size_t)off + 1; i-- > 0; ) {
		from = cp_offset(s.s, s.n, i);
		if (s.n - from >= sub.n && memcmp(s.s + from, sub.s,
		    sub.n) == 0)
			return vint((int64_t)i);
	}
	return vint(-1);
}

static struct cel_val
substring(struct cel_ctx *c, struct cel_val s, int64_t start, int has_end,
    int64_t end)
{
	size_t	len = cel_utf8_len(s.s, s.n), b, e;

	if (!has_end)
		end = (int64_t)len;
	else if (start > end)
		return cel_error(c, "invalid substring range. start: %" PRId64
		    ", end: %" PRId64, start, end);
	if (start < 0 || (uint64_t)start > len)
		return cel_error(c, "index out of range: %" PRId64, start);
	if (end < 0 || (uint64_t)end > len)
		return cel_error(c, "index out of range: %" PRId64, end);
	b = cp_offset(s.s, s.n, (size_t)start);
	e = cp_offset(s.s, s.n, (size_t)end);
	return vstr(s.s + b, e - b);
}

static struct cel_val
join(struct cel_ctx *c, struct cel_val l, struct cel_val sep)
{
	size_t		 total = 0, i, o = 0;
	struct cel_val	 v;
	char		*r;

	for (i = 0; i < l.n; i++) {
		v = cel_list_get(c, l, i);
		if (v.k == CV_ERR || v.k == CV_UNSUP)
			return v;
		if (v.k != CV_STRING)
			return cel_error(c, "join: invalid input: %s",
			    cel_value_type_name(v));
		total += v.n + sep.n;
	}
	r = cel_alloc(c, total + 1);
	for (i = 0; i < l.n; i++) {
		v = cel_list_get(c, l, i);
		if (i > 0 && sep.n) {
			memcpy(r + o, sep.s, sep.n);
			o += sep.n;
		}
		if (v.n)
			memcpy(r + o, v.s, v.n);
		o += v.n;
	}
	r[o] = '\0';
	return vstr(r, o);
}

/* strings.quote (cel-go ext/strings.go quote). */
static struct cel_val
quote(struct cel_ctx *c, struct cel_val s, uint32_t col)
{
	char	*r, *o;
	size_t	 i;

	if (!cel_utf8_valid(s.s, s.n))
		return cel_unsup(c, col, "strings.quote of invalid UTF-8");
	r = o = cel_alloc(c, (size_t)s.n * 2 + 3);
	*o++ = '"';
	for (i = 0; i < s.n; i++) {
		const char *esc = NULL;

		switch (s.s[i]) {
		case '\a': esc = "\\a"; break;
		case '\b': esc = "\\b"; break;
		case '\f': esc = "\\f"; break;
		case '\n': esc = "\\n"; break;
		case '\r': esc = "\\r"; break;
		case '\t': esc = "\\t"; break;
		case '\v': esc = "\\v"; break;
		case '\\': esc = "\\\\"; break;
		case '"': esc = "\\\""; break;
		}
		if (esc != NULL) {
			*o++ = esc[0];
			*o++ = esc[1];
		} else
			*o++ = s.s[i];
	}
	*o++ = '"';
	*o = '\0';
	return vstr(r, (size_t)(o - r));
}

static int
sign128(__int128 q)
{
	return q < 0 ? -1 : q > 0;
}

/* Lists. */

/* A new list of n items (filled by the caller) from the arena. */
static struct cel_val
list_new(struct cel_ctx *c, size_t n, struct cel_val **items)
{
	struct cel_val v;

	memset(&v, 0, sizeof v);
	v.k = CV_LIST;
	v.rep = CR_VALS;
	v.n = (uint32_t)n;
	*items = cel_alloc(c, (n ? n : 1) * sizeof **items);
	v.items = *items;
	return v;
}

/* Does v have an ordering (cel-go traits.Comparer)? */
static int
comparable(struct cel_val v)
{
	return v.k == CV_INT || v.k == CV_UINT || v.k == CV_DOUBLE ||
	    v.k == CV_STRING || v.k == CV_BYTES || v.k == CV_BOOL;
}

/* Is x equal to an item of list l (cel-go baseList.Contains)? */
static int
list_has(struct cel_ctx *c, struct cel_val l, struct cel_val x)
{
	struct cel_val	e;
	size_t		i;

	for (i = 0; i < l.n; i++)
		if (cel_equal(c, cel_list_get(c, l, i), x, &e) == 1)
			return 1;
	return 0;
}

/*
 * isSorted, min and max of the Kubernetes lists library: an element
 * without an ordering is "no such overload"; a comparison that fails
 * (NaN, mixed kinds) counts as not out of order, as there.
 */
static struct cel_val
list_order(struct cel_ctx *c, const struct cel_node *n, struct cel_val l)
{
	struct cel_val	best, cur, e;
	size_t		i;
	int		r;

	if (l.n == 0) {
		if (n->sub == F_IS_SORTED)
			return vbool(1);
		return cel_error(c, "%s called on empty list", n->sub == F_MIN ?
		    "min" : "max");
	}
	best = cel_list_get(c, l, 0);
	if (!comparable(best))
		return no_overload(c);
	for (i = 1; i < l.n; i++) {
		cur = cel_list_get(c, l, i);
		if (!comparable(cur))
			return no_overload(c);
		r = cel_compare(c, best, cur, &e);
		if (n->sub == F_IS_SORTED) {
			if (r == 1)
				return vbool(0);
			best = cur;
		} else if ((n->sub == F_MIN && r == 1) ||
		    (n->sub == F_MAX && r == -1))
			best = cur;
	}
	return n->sub == F_IS_SORTED ? vbool(1) : best;
}

/* The items flatten(depth) produces from l, into out (if not NULL). */
static size_t
flatten(struct cel_ctx *c, struct cel_val l, int64_t depth,
    struct cel_val *out)
{
	struct cel_val	e;
	size_t		i, n = 0;

	for (i = 0; i < l.n; i++) {
		e = cel_list_get(c, l, i);
		if (e.k == CV_LIST && depth > 0)
			n += flatten(c, e, depth - 1, out ? out + n : NULL);
		else {
			if (out != NULL)
				out[n] = e;
			n++;
		}
	}
	return n;
}

/*
 * sort() and sortBy(): the items of l in the order of keys[] (the
 * items themselves for sort()), which must be comparable and of one
 * kind (cel-go ext/lists.go sortListByAssociatedKeys).  A stable
 * insertion sort: lists here are short.
 */
struct cel_val
cel_sort_by(struct cel_ctx *c, struct cel_val l, const struct cel_val *keys)
{
	struct cel_val	 v, *it, *ks, t, tk, e;
	size_t		 i, j;

	if (l.n == 0)
		return l;
	v = list_new(c, l.n, &it);
	ks = cel_alloc(c, l.n * sizeof *ks);
	for (i = 0; i < l.n; i++) {
		it[i] = cel_list_get(c, l, i);
		ks[i] = keys != NULL ? keys[i] : it[i];
	}
	if (!comparable(ks[0]))
		return cel_error(c, "list elements must be comparable");
	for (i = 1; i < l.n; i++)
		if (ks[i].k != ks[0].k)
			return cel_error(c, "list elements must have the same "
			    "type");
	c->iterations += (uint64_t)l.n * l.n;
	for (i = 1; i < l.n; i++) {
		t = it[i];
		tk = ks[i];
		for (j = i; j > 0 && cel_compare(c, tk, ks[j - 1], &e) == -1;
		    j--) {
			it[j] = it[j - 1];
			ks[j] = ks[j - 1];
		}
		it[j] = t;
		ks[j] = tk;
	}
	return v;
}

static struct cel_val
list_call(struct cel_ctx *c, const struct cel_node *n, struct cel_val l,
    const struct cel_val *args)
{
	struct cel_val	 v, *it, acc;
	size_t		 i, k;
	int64_t		 a, b;

	if (l.k != CV_LIST)
		return no_overload(c);
	switch (n->sub) {
	case F_IS_SORTED:
	case F_MIN:
	case F_MAX:
		return list_order(c, n, l);
	case F_SUM:
		/* The zero of the overload the checker picked. */
		memset(&acc, 0, sizeof acc);
		acc.k = n->ty.k == CT_DOUBLE ? CV_DOUBLE : n->ty.k == CT_UINT ?
		    CV_UINT : CV_INT;
		for (i = 0; i < l.n && acc.k != CV_ERR; i++)
			acc = cel_add(c, acc, cel_list_get(c, l, i));
		return acc;
	case F_SLICE:
		if (args[0].k != CV_INT || args[1].k != CV_INT)
			return no_overload(c);
		a = args[0].i;
		b = args[1].i;
		if (a < 0 || b < 0)
			return cel_error(c, "cannot slice(%" PRId64 ", %" PRId64
			    "), negative indexes not supported", a, b);
		if (a > b)
			return cel_error(c, "cannot slice(%" PRId64 ", %" PRId64
			    "), start index must be less than or equal to end "
			    "index", a, b);
		if ((uint64_t)b > l.n)
			return cel_error(c, "cannot slice(%" PRId64 ", %" PRId64
			    "), list is length %u", a, b, l.n);
		v = list_new(c, (size_t)(b - a), &it);
		for (i = 0; i < (size_t)(b - a); i++)
			it[i] = cel_list_get(c, l, (size_t)a + i);
		return v;
	case F_FLATTEN:
		a = 1;
		if (n->nargs == 1) {
			if (args[0].k != CV_INT)
				return no_overload(c);
			a = args[0].i;
		}
		if (a < 0)
			return cel_error(c, "level must be non-negative");
		k = flatten(c, l, a, NULL);
		v = list_new(c, k, &it);
		flatten(c, l, a, it);
		return v;
	case F_REVERSE:
		v = list_new(c, l.n, &it);
		for (i = 0; i < l.n; i++)
			it[i] = cel_list_get(c, l, l.n - 1 - i);
		return v;
	case F_DISTINCT:
		v = list_new(c, l.n, &it);
		v.n = 0;
		for (i = 0; i < l.n; i++) {
			struct cel_val x = cel_list_get(c, l, i);

			c->iterations += v.n;
			if (!list_has(c, v, x))
				it[v.n++] = x;
		}
		return v;
	default:
		return cel_sort_by(c, l, NULL);
	}
}

/* The Quantity or Semver receiver check of the shared method names. */
static int
same_kind(struct cel_val a, struct cel_val b, int k)
{
	return a.k == k && b.k == k;
}

struct cel_val
cel_call(struct cel_ctx *c, const struct cel_node *n, struct cel_val recv,
    const struct cel_val *args)
{
	struct cel_val		 v, e, *box;
	struct cel_semver	*sv;
	const char		*why = NULL;
	__int128		 q;
	size_t			 i, lim;
	int			 r;

	memset(&v, 0, sizeof v);
	if (n->a < 0 && n->nargs > 0 && n->sub != F_MATCHES &&
	    n->sub != F_QUANTITY && n->sub != F_IS_QUANTITY &&
	    n->sub != F_SEMVER && n->sub != F_IS_SEMVER)
		recv = args[0];
	switch (n->sub) {
	case F_SIZE:
		if (recv.k == CV_STRING)
			return vint((int64_t)cel_utf8_len(recv.s, recv.n));
		if (recv.k == CV_BYTES || recv.k == CV_LIST)
			return vint(recv.n);
		if (recv.k == CV_MAP)
			return vint((int64_t)cel_map_size(c, recv));
		return no_overload(c);
	case F_STARTS_WITH:
	case F_ENDS_WITH:
	case F_CONTAINS:
		if (recv.k != CV_STRING || args[0].k != CV_STRING)
			return no_overload(c);
		if (args[0].n > recv.n)
			return vbool(0);
		if (n->sub == F_STARTS_WITH)
			return vbool(memcmp(recv.s, args[0].s, args[0].n) == 0);
		if (n->sub == F_ENDS_WITH)
			return vbool(memcmp(recv.s + recv.n - args[0].n,
			    args[0].s, args[0].n) == 0);
		return vbool(find(recv.s, recv.n, args[0].s, args[0].n, 0) >=
		    0);
	case F_MATCHES:
		if (n->a < 0)
			recv = args[0];
		if (recv.k != CV_STRING || args[n->nargs - 1].k != CV_STRING)
			return no_overload(c);
		return cel_regex_match(c, n, recv, args[n->nargs - 1]);
	case F_LOWER_ASCII:
	case F_UPPER_ASCII:
		if (recv.k != CV_STRING)
			return no_overload(c);
		return vstr(ascii_case(c, recv, n->sub == F_UPPER_ASCII),
		    recv.n);
	case F_TRIM:
		if (recv.k != CV_STRING)
			return no_overload(c);
		return trim(recv);
	case F_REPLACE:
		if (recv.k != CV_STRING || args[0].k != CV_STRING ||
		    args[1].k != CV_STRING || (n->nargs == 3 &&
		    args[2].k != CV_INT))
			return no_overload(c);
		return replace(c, recv, args[0], args[1], n->nargs == 3 ?
		    args[2].i : -1);
	case F_SPLIT:
		if (recv.k != CV_STRING || args[0].k != CV_STRING ||
		    (n->nargs == 2 && args[1].k != CV_INT))
			return no_overload(c);
		return split(c, recv, args[0], n->nargs == 2 ? args[1].i : -1);
	case F_INDEX_OF:
	case F_LAST_INDEX_OF:
		if (recv.k == CV_LIST && n->nargs == 1) {
			/* Kubernetes lists library. */
			int64_t found = -1;

			for (i = 0; i < recv.n; i++) {
				r = cel_equal(c, cel_list_get(c, recv, i),
				    args[0], &e);
				if (r < 0)
					return e;
				if (r == 1) {
					found = (int64_t)i;
					if (n->sub == F_INDEX_OF)
						break;
				}
			}
			return vint(found);
		}
		if (recv.k != CV_STRING || args[0].k != CV_STRING ||
		    (n->nargs == 2 && args[1].k != CV_INT))
			return no_overload(c);
		return index_of(c, recv, args[0], n->nargs == 2,
		    n->nargs == 2 ? args[1].i : 0, n->sub == F_LAST_INDEX_OF);
	case F_SUBSTRING:
		if (recv.k != CV_STRING || args[0].k != CV_INT ||
		    (n->nargs == 2 && args[1].k != CV_INT))
			return no_overload(c);
		return substring(c, recv, args[0].i, n->nargs == 2,
		    n->nargs == 2 ? args[1].i : 0);
	case F_CHAR_AT:
		if (recv.k != CV_STRING || args[0].k != CV_INT)
			return no_overload(c);
		lim = cel_utf8_len(recv.s, recv.n);
		if (args[0].i < 0 || (uint64_t)args[0].i > lim)
			return cel_error(c, "index out of range: %" PRId64,
			    args[0].i);
		if ((uint64_t)args[0].i == lim)
			return vstr("", 0);
		i = cp_offset(recv.s, recv.n, (size_t)args[0].i);
		return vstr(recv.s + i, seq_len(recv.s + i, recv.n - i));
	case F_JOIN:
		if (recv.k != CV_LIST || (n->nargs == 1 &&
		    args[0].k != CV_STRING))
			return no_overload(c);
		return join(c, recv, n->nargs == 1 ? args[0] : vstr("", 0));
	case F_QUANTITY:
	case F_IS_QUANTITY:
		if (args[0].k != CV_STRING)
			return no_overload(c);
		r = cel_quantity_parse(args[0].s, args[0].n, &q, &why);
		if (r > 0)
			return cel_unsup(c, n->col, "quantity beyond about "
			    "1e28");
		if (n->sub == F_IS_QUANTITY)
			return vbool(r == 0);
		if (r < 0)
			return cel_error(c, "%s", why);
		return vquantity(q);
	case F_SEMVER:
	case F_IS_SEMVER:
		if (args[0].k != CV_STRING || (n->nargs == 2 &&
		    args[1].k != CV_BOOL))
			return no_overload(c);
		sv = cel_alloc(c, sizeof *sv);
		r = cel_semver_parse(args[0].s, args[0].n, n->nargs == 2 &&
		    args[1].b, sv, &why);
		if (n->sub == F_IS_SEMVER)
			return vbool(r == 0);
		if (r != 0)
			return cel_error(c, "%s", why);
		v.k = CV_SEMVER;
		v.sv = sv;
		return v;
	case F_COMPARE_TO:
	case F_IS_LESS_THAN:
	case F_IS_GREATER_THAN:
		if (same_kind(recv, args[0], CV_QUANTITY))
			r = recv.q < args[0].q ? -1 : recv.q > args[0].q;
		else if (same_kind(recv, args[0], CV_SEMVER))
			r = cel_semver_cmp(recv.sv, args[0].sv);
		else
			return no_overload(c);
		if (n->sub == F_COMPARE_TO)
			return vint(r);
		return vbool(n->sub == F_IS_LESS_THAN ? r < 0 : r > 0);
	case F_ADD:
	case F_SUB:
		if (recv.k != CV_QUANTITY)
			return no_overload(c);
		if (args[0].k == CV_QUANTITY)
			q = args[0].q;
		else if (args[0].k == CV_INT)
			q = (__int128)args[0].i * NANO;
		else
			return no_overload(c);
		if (n->sub == F_SUB)
			q = -q;
		if (__builtin_add_overflow(recv.q, q, &q))
			return cel_unsup(c, n->col, "quantity beyond about "
			    "1e28");
		return vquantity(q);
	case F_SIGN:
		if (recv.k != CV_QUANTITY)
			return no_overload(c);
		return vint(sign128(recv.q));
	case F_IS_INTEGER:
	case F_AS_INTEGER:
		if (recv.k != CV_QUANTITY)
			return no_overload(c);
		r = recv.q % NANO == 0 && recv.q / NANO <= INT64_MAX &&
		    recv.q / NANO >= INT64_MIN;
		if (n->sub == F_IS_INTEGER)
			return vbool(r);
		if (!r)
			return cel_error(c, "cannot convert value to integer");
		return vint((int64_t)(recv.q / NANO));
	case F_AS_APPROXIMATE_FLOAT:
		if (recv.k != CV_QUANTITY)
			return no_overload(c);
		v.k = CV_DOUBLE;
		v.d = (double)(recv.q / NANO) + (double)(recv.q % NANO) / 1e9;
		return v;
	case F_MAJOR:
	case F_MINOR:
	case F_PATCH:
		if (recv.k != CV_SEMVER)
			return no_overload(c);
		return vint((int64_t)(n->sub == F_MAJOR ? recv.sv->major :
		    n->sub == F_MINOR ? recv.sv->minor : recv.sv->patch));
	case F_INCLUDES:
		if (recv.k == CV_LIST) {
			for (i = 0; i < recv.n; i++) {
				if (i >= CEL_INCLUDES_MAX)
					return cel_error(c, "'includes' "
					    "function cannot be applied to "
					    "lists longer than %d values",
					    CEL_INCLUDES_MAX);
				if (cel_equal(c, cel_list_get(c, recv, i),
				    args[0], &e) == 1)
					return vbool(1);
			}
			return vbool(0);
		}
		return vbool(cel_equal(c, recv, args[0], &e) == 1);
	case F_INT:
		return to_int(c, recv);
	case F_UINT:
		return to_uint(c, recv);
	case F_DOUBLE:
		return to_double(c, recv);
	case F_STRING:
		return to_string(c, recv);
	case F_BOOL:
		if (recv.k == CV_BOOL)
			return recv;
		if (recv.k != CV_STRING)
			return no_overload(c);
		{
			static const char *const t[] = { "1", "t", "T", "TRUE",
			    "true", "True", NULL };
			static const char *const f[] = { "0", "f", "F", "FALSE",
			    "false", "False", NULL };

			for (i = 0; t[i] != NULL; i++) {
				if (strlen(t[i]) == recv.n &&
				    memcmp(t[i], recv.s, recv.n) == 0)
					return vbool(1);
				if (strlen(f[i]) == recv.n &&
				    memcmp(f[i], recv.s, recv.n) == 0)
					return vbool(0);
			}
		}
		return cel_error(c, "type conversion error from 'string' to "
		    "'bool'");
	case F_BYTES:
		if (recv.k != CV_STRING && recv.k != CV_BYTES)
			return no_overload(c);
		recv.k = CV_BYTES;
		return recv;
	case F_DYN:
		return recv;
	case F_TYPE:
		/* The scheduler's device value is a map (DeviceMatches). */
		v.k = CV_TYPE;
		v.i = recv.k == CV_DEVICE ? CV_MAP : recv.k;
		return v;
	case F_OPT_OF:
	case F_OPT_OF_NON_ZERO:
		v.k = CV_OPTIONAL;
		if (n->sub == F_OPT_OF_NON_ZERO && is_zero(c, recv))
			return v;
		box = cel_alloc(c, sizeof *box);
		*box = recv;
		v.opt = box;
		return v;
	case F_OPT_NONE:
		v.k = CV_OPTIONAL;
		return v;
	case F_QUOTE:
		if (recv.k != CV_STRING)
			return no_overload(c);
		return quote(c, recv, n->col);
	case F_IS_SORTED:
	case F_SUM:
	case F_MIN:
	case F_MAX:
	case F_SLICE:
	case F_FLATTEN:
	case F_REVERSE:
	case F_DISTINCT:
	case F_SORT:
		c->iterations += recv.n;
		return list_call(c, n, recv, args);
	case F_RANGE:
		if (args[0].k != CV_INT)
			return no_overload(c);
		if (args[0].i > CEL_MAX_ITERATIONS ||
		    (c->iterations += (uint64_t)(args[0].i > 0 ? args[0].i :
		    0)) > CEL_MAX_ITERATIONS)
			return cel_unsup(c, n->col, "evaluation beyond %d "
			    "comprehension steps (the cost limit is not "
			    "modelled)", CEL_MAX_ITERATIONS);
		v = list_new(c, args[0].i > 0 ? (size_t)args[0].i : 0, &box);
		for (i = 0; i < v.n; i++)
			box[i] = vint((int64_t)i);
		return v;
	case F_SETS_CONTAINS:
	case F_SETS_EQUIVALENT:
	case F_SETS_INTERSECTS:
		if (args[0].k != CV_LIST || args[1].k != CV_LIST)
			return no_overload(c);
		c->iterations += (uint64_t)args[0].n * args[1].n;
		if (n->sub == F_SETS_INTERSECTS) {
			for (i = 0; i < args[0].n; i++)
				if (list_has(c, args[1], cel_list_get(c,
				    args[0], i)))
					return vbool(1);
			return vbool(0);
		}
		for (i = 0; i < args[1].n; i++)
			if (!list_has(c, args[0], cel_list_get(c, args[1], i)))
				return vbool(0);
		if (n->sub == F_SETS_CONTAINS)
			return vbool(1);
		for (i = 0; i < args[0].n; i++)
			if (!list_has(c, args[1], cel_list_get(c, args[0], i)))
				return vbool(0);
		return vbool(1);
	case F_HAS_VALUE:
	case F_VALUE:
		if (recv.k != CV_OPTIONAL)
			return no_overload(c);
		if (n->sub == F_HAS_VALUE)
			return vbool(recv.opt != NULL);
		if (recv.opt == NULL)
			return cel_error(c, "optional.none() dereference");
		return *recv.opt;
	}
	return cel_unsup(c, n->col, "function #%d", n->sub);
}
