/*
 * cel-kube.c: the Kubernetes value types of the selector CEL.
 *
 *  - Quantity: k8s.io/apimachinery resource.ParseQuantity (sign,
 *    digits, fraction, one suffix or a decimal exponent, with its two
 *    error texts), kept exactly in nano units in 128 bits and rounded
 *    up to nano as ParseQuantity rounds.  Values beyond about 1e28
 *    units are reported as out of range (the caller: unsupported).
 *  - Semver: github.com/blang/semver/v4 Parse (strict
 *    major.minor.patch[-pre][+build]) and the apiserver library's
 *    normalize flag (pkg/cel/library/semverlib.go normalizeAndParse),
 *    ordered by semver 2.0.0 precedence; build data is ignored.
 */
#include "cel-int.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/*
 * Parse s as resource.ParseQuantity does into nano units.  Returns 0,
 * -1 with *why (the apimachinery error text), or 1 when the value is
 * outside what 128 bits of nano units hold.
 */
int
cel_quantity_parse(const char *s, size_t n, __int128 *nano, const char **why)
{
	static const char fmt_wrong[] = "quantities must match the regular "
	    "expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
	static const struct {
		const char	*s;
		int		 exp10, exp2;
	} sfx[] = {
		{ "", 0, 0 }, { "n", -9, 0 }, { "u", -6, 0 }, { "m", -3, 0 },
		{ "k", 3, 0 }, { "M", 6, 0 }, { "G", 9, 0 }, { "T", 12, 0 },
		{ "P", 15, 0 }, { "E", 18, 0 }, { "Ki", 0, 10 },
		{ "Mi", 0, 20 }, { "Gi", 0, 30 }, { "Ti", 0, 40 },
		{ "Pi", 0, 50 }, { "Ei", 0, 60 },
	};
	size_t		 i = 0, num, nnum, den = 0, nden = 0, sf, k;
	int		 neg = 0, exp10 = 0, exp2 = 0, found = 0, scale;
	__int128	 m = 0, lim = ((__int128)1) << 120;

	if (n == 0) {
		*why = fmt_wrong;
		return -1;
	}
	if (s[0] == '-' || s[0] == '+')
		neg = s[i++] == '-';
	while (i < n && s[i] == '0')
		i++;
	num = i;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	nnum = i - num;
	if (i < n && s[i] == '.') {
		den = ++i;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
		nden = i - den;
	}
	if (i == (size_t)(s[0] == '-' || s[0] == '+')) {
		*why = fmt_wrong;
		return -1;
	}
	sf = i;
	while (i < n && strchr("eEinumkKMGTP", s[i]) != NULL)
		i++;
	if (i < n && (s[i] == '-' || s[i] == '+'))
		i++;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	if (i < n) {
		*why = fmt_wrong;
		return -1;
	}
	for (k = 0; k < sizeof sfx / sizeof sfx[0]; k++) {
		if (strlen(sfx[k].s) == n - sf &&
		    memcmp(sfx[k].s, s + sf, n - sf) == 0) {
			exp10 = sfx[k].exp10;
			exp2 = sfx[k].exp2;
			found = 1;
		}
	}
	if (!found && n - sf > 1 && (s[sf] == 'e' || s[sf] == 'E')) {
		long	e = 0;
		size_t	j = sf + 1;
		int	eneg = 0;

		if (s[j] == '-' || s[j] == '+')
			eneg = s[j++] == '-';
		if (j < n) {
			found = 1;
			for (; j < n; j++) {
				if (s[j] < '0' || s[j] > '9') {
					found = 0;
					break;
				}
				e = e > 100000 ? e : e * 10 + (s[j] - '0');
			}
			exp10 = (int)(eneg ? -e : e);
		}
	}
	if (!found) {
		*why = "unable to parse quantity's suffix";
		return -1;
	}
	/* m = all digits; value = m * 10^(exp10 - nden) * 2^exp2. */
	for (k = 0; k < nnum + nden; k++) {
		char d = k < nnum ? s[num + k] : s[den + k - nnum];

		if (m > lim)
			return 1;
		m = m * 10 + (d - '0');
	}
	for (k = 0; k < (size_t)exp2; k++) {
		if (m > lim)
			return 1;
		m *= 2;
	}
	scale = exp10 - (int)nden + 9;
	if (scale > 40)
		return m == 0 ? (*nano = 0, 0) : 1;
	for (; scale > 0; scale--) {
		if (m > lim)
			return 1;
		m *= 10;
	}
	if (scale < 0) {
		int	 inexact = 0;

		for (; scale < 0 && m != 0; scale++) {
			inexact |= (m % 10) != 0;
			m /= 10;
		}
		/* ParseQuantity rounds up (away from zero) to nano. */
		if (inexact)
			m += 1;
	}
	*nano = neg ? -m : m;
	return 0;
}

/* Semantic versions. */

static int
all_digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return n > 0;
}

static int
ident_chars(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' &&
		    s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		    s[i] == '-'))
			return 0;
	return 1;
}

/* A version number part: digits without leading zeros, into *v. */
static int
semver_num(const char *s, size_t n, uint64_t *v, const char **why,
    const char *what)
{
	size_t i;

	if (!all_digits(s, n)) {
		*why = what;
		return -1;
	}
	if (n > 1 && s[0] == '0') {
		*why = "version number must not contain leading zeroes";
		return -1;
	}
	for (*v = 0, i = 0; i < n; i++) {
		if (*v > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10) {
			*why = "version number out of range";
			return -1;
		}
		*v = *v * 10 + (uint64_t)(s[i] - '0');
	}
	return 0;
}

/* Parse "x.y.z[-pre][+build]" strictly (blang/semver Parse). */
static int
semver_strict(const char *s, size_t n, struct cel_semver *v,
    const char **why)
{
	const char	*d1, *d2, *end = s + n, *pre = NULL, *build = NULL;
	const char	*q, *e;

	memset(v, 0, sizeof *v);
	d1 = memchr(s, '.', n);
	d2 = d1 ? memchr(d1 + 1, '.', (size_t)(end - d1 - 1)) : NULL;
	if (d1 == NULL || d2 == NULL) {
		*why = "No Major.Minor.Patch elements found";
		return -1;
	}
	if (semver_num(s, (size_t)(d1 - s), &v->major, why,
	    "Invalid character(s) found in major number") != 0 ||
	    semver_num(d1 + 1, (size_t)(d2 - d1 - 1), &v->minor, why,
	    "Invalid character(s) found in minor number") != 0)
		return -1;
	for (q = d2 + 1; q < end && *q != '-' && *q != '+'; q++)
		;
	if (semver_num(d2 + 1, (size_t)(q - d2 - 1), &v->patch, why,
	    "Invalid character(s) found in patch number") != 0)
		return -1;
	if (q < end && *q == '-') {
		pre = q + 1;
		for (q = pre; q < end && *q != '+'; q++)
			;
		v->pre = pre;
		v->npre = (size_t)(q - pre);
		/* Each identifier: non-empty; numeric without zeros. */
		for (e = pre; ; ) {
			const char *dot = memchr(e, '.', (size_t)(q - e));
			size_t	    len = (size_t)((dot ? dot : q) - e);

			if (len == 0) {
				*why = "Prerelease is empty";
				return -1;
			}
			if (all_digits(e, len) && len > 1 && e[0] == '0') {
				*why = "Numeric PreRelease version must not "
				    "contain leading zeroes";
				return -1;
			}
			if (!ident_chars(e, len)) {
				*why = "Invalid character(s) found in "
				    "prerelease";
				return -1;
			}
			if (dot == NULL)
				break;
			e = dot + 1;
		}
	}
	if (q < end && *q == '+') {
		build = q + 1;
		for (e = build; ; ) {
			const char *dot = memchr(e, '.', (size_t)(end - e));
			size_t	    len = (size_t)((dot ? dot : end) - e);

			if (len == 0 || !ident_chars(e, len)) {
				*why = "Invalid character(s) found in build "
				    "meta data";
				return -1;
			}
			if (dot == NULL)
				break;
			e = dot + 1;
		}
	}
	return 0;
}

int
cel_semver_parse(const char *s, size_t n, int normalize,
    struct cel_semver *v, const char **why)
{
	char		 buf[256];
	const char	*part[3], *end;
	size_t		 plen[3], o = 0, k;
	int		 np = 0, r;

	if (!normalize)
		return semver_strict(s, n, v, why);
	/*
	 * apiserver semverlib.go normalizeAndParse: drop a leading 'v';
	 * split into at most three parts at '.'; strip leading zeros of
	 * parts longer than one byte (keeping a 0 before what is not a
	 * digit); pad a short version with .0 unless its last part holds
	 * prerelease or build data; then parse strictly.
	 */
	if (n > 0 && s[0] == 'v') {
		s++;
		n--;
	}
	end = s + n;
	for (part[0] = s; np < 3; np++) {
		const char *dot = np < 2 ? memchr(part[np], '.',
		    (size_t)(end - part[np])) : NULL;

		plen[np] = (size_t)((dot ? dot : end) - part[np]);
		if (dot == NULL) {
			np++;
			break;
		}
		part[np + 1] = dot + 1;
	}
	if (np < 3 && (memchr(part[np - 1], '-', plen[np - 1]) != NULL ||
	    memchr(part[np - 1], '+', plen[np - 1]) != NULL)) {
		*why = "short version cannot contain PreRelease/Build meta "
		    "data";
		return -1;
	}
	if (n + 8 > sizeof buf) {
		*why = "version too long";
		return -1;
	}
	for (k = 0; k < 3; k++) {
		const char	*p = k < (size_t)np ? part[k] : "0";
		size_t		 len = k < (size_t)np ? plen[k] : 1;

		if (k > 0)
			buf[o++] = '.';
		if (len > 1) {
			while (len > 0 && *p == '0') {
				p++;
				len--;
			}
			if (len == 0 || *p < '0' || *p > '9')
				buf[o++] = '0';
		}
		memcpy(buf + o, p, len);
		o += len;
	}
	if ((r = semver_strict(buf, o, v, why)) != 0)
		return r;
	/*
	 * Normalizing changes nothing after the prerelease's '-': point at
	 * the same bytes in s, which outlives the value (buf does not).
	 */
	if (v->npre > 0)
		v->pre = end - (buf + o - v->pre);
	return 0;
}

/* Compare prerelease identifiers as semver 2.0.0 section 11 says. */
static int
pre_cmp(const char *a, size_t na, const char *b, size_t nb)
{
	const char *ea = a + na, *eb = b + nb;

	if (na == 0 || nb == 0)
		return na == nb ? 0 : na == 0 ? 1 : -1;
	for (;;) {
		const char *da = memchr(a, '.', (size_t)(ea - a));
		const char *db = memchr(b, '.', (size_t)(eb - b));
		size_t	    la = (size_t)((da ? da : ea) - a);
		size_t	    lb = (size_t)((db ? db : eb) - b);
		int	    an = all_digits(a, la), bn = all_digits(b, lb), r;

		if (an && bn) {
			if (la != lb)
				return la < lb ? -1 : 1;
			r = memcmp(a, b, la);
		} else if (an != bn)
			return an ? -1 : 1;
		else {
			r = memcmp(a, b, la < lb ? la : lb);
			if (r == 0 && la != lb)
				r = la < lb ? -1 : 1;
		}
		if (r != 0)
			return r < 0 ? -1 : 1;
		if (da == NULL || db == NULL)
			return da == db ? 0 : da == NULL ? -1 : 1;
		a = da + 1;
		b = db + 1;
	}
}

int
cel_semver_cmp(const struct cel_semver *a, const struct cel_semver *b)
{
	if (a->major != b->major)
		return a->major < b->major ? -1 : 1;
	if (a->minor != b->minor)
		return a->minor < b->minor ? -1 : 1;
	if (a->patch != b->patch)
		return a->patch < b->patch ? -1 : 1;
	return pre_cmp(a->pre, a->npre, b->pre, b->npre);
}
