/*
 * quantity.c: resource.Quantity parsing and formatting.
 *
 * The grammar and its quirks are apimachinery's
 * (pkg/api/resource/quantity.go parseQuantityString, ParseQuantity and
 * suffix.go interpret):
 *
 *	<quantity>        ::= <signedNumber><suffix>
 *	<signedNumber>    ::= [+-] <number>
 *	<number>          ::= <digits> | <digits>. | <digits>.<digits>
 *	                    | .<digits> | (nothing: zero, so "-", "." and
 *	                      "Gi" are 0 as the Go scanner reads them)
 *	<suffix>          ::= Ki | Mi | Gi | Ti | Pi | Ei
 *	                    | n | u | m | "" | k | M | G | T | P | E
 *	                    | e<signedInt> | E<signedInt>
 *
 * The suffix is scanned as Go scans it: letters of "eEinumkKMGTP",
 * one optional sign, digits, then the end; it is then looked up, and
 * an exponent is a 64-bit integer cut to 32 bits as Go's int32()
 * conversion cuts it.  "1E" is 10^18 (exa), "1E3" is 1000.
 *
 * The value is kept in thousandths (milli), rounded up away from zero
 * as Quantity.MilliValue() rounds (ParseQuantity rounds up to nano
 * first; rounding up to nano and then to milli is rounding up to
 * milli).  It is computed exactly from the digit string: the integer
 * part after the decimal shift, times 2^(10 k) for a binary suffix,
 * plus the fraction times 2^(10 k) by long multiplication from its
 * last digit, so any number of digits and any exponent are exact up
 * to the bound KUBE_QUANTITY_MILLI_MAX (1Pi); a larger value saturates
 * at KUBE_QUANTITY_MILLI_SAT, one milli beyond, which formatting shows
 * as ">1Pi".  kube_quantity_approx reads a saturated value again from
 * its text, through the same scan, as a double.
 */
#include "model.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A quantity's text as scanned: the parts its value is made of. */
struct scanned {
	const char	*ip;		/* integer digits, no leading 0 */
	size_t		 nint;
	const char	*fp;		/* fraction digits */
	size_t		 nfrac;
	const char	*sfx;		/* the suffix as written */
	int32_t		 exp10;		/* the suffix's power of 10 */
	int		 bin;		/* and of 1024 */
	int		 neg;
};

static int	is_digit(char);
static int	exponent_suffix(const char *, int32_t *);
static int	scan(const char *, struct scanned *);

#define APPROX_DIGITS	40	/* digits kept: beyond double's 17 */

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * The exponent of an "e<N>" or "E<N>" suffix: strconv.ParseInt(N, 10,
 * 64) (optional sign, at least one digit, no overflow), then int32(),
 * which keeps the low 32 bits.  Returns 0 when N is not an int64.
 */
static int
exponent_suffix(const char *s, int32_t *exp)
{
	uint64_t	 v = 0, lim;
	uint32_t	 lo;
	int		 neg = 0;

	if (*s == '+' || *s == '-')
		neg = (*s++ == '-');
	if (*s == '\0')
		return 0;
	lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; *s != '\0'; s++) {
		if (!is_digit(*s))
			return 0;
		if (v > (lim - (uint64_t)(*s - '0')) / 10)
			return 0;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	if (neg)
		v = ~v + 1;		/* two's complement of the int64 */
	lo = (uint32_t)v;
	*exp = lo <= INT32_MAX ? (int32_t)lo : -(int32_t)(~lo) - 1;
	return 1;
}

/*
 * Scan s as parseQuantityString and suffix.go interpret read it into
 * *sc.  Returns 0, -1 when s is not a quantity, -2 for an unknown
 * suffix (sc->sfx names it).
 */
static int
scan(const char *s, struct scanned *sc)
{
	static const struct {
		const char	*s;
		int		 exp10, bin;
	} table[] = {
		{ "", 0, 0 }, { "n", -9, 0 }, { "u", -6, 0 }, { "m", -3, 0 },
		{ "k", 3, 0 }, { "M", 6, 0 }, { "G", 9, 0 }, { "T", 12, 0 },
		{ "P", 15, 0 }, { "E", 18, 0 }, { "Ki", 0, 1 },
		{ "Mi", 0, 2 }, { "Gi", 0, 3 }, { "Ti", 0, 4 },
		{ "Pi", 0, 5 }, { "Ei", 0, 6 },
	};
	const char	*p = s;
	size_t		 i;
	int		 found = 0;

	memset(sc, 0, sizeof *sc);
	if (*s == '\0')
		return -1;

	/* parseQuantityString: sign, leading zeros, digits, fraction. */
	if (*p == '+' || *p == '-')
		sc->neg = (*p++ == '-');
	while (*p == '0')
		p++;
	sc->ip = p;
	while (is_digit(*p))
		p++;
	sc->nint = (size_t)(p - sc->ip);
	sc->fp = p;
	if (*p == '.') {
		sc->fp = ++p;
		while (is_digit(*p))
			p++;
		sc->nfrac = (size_t)(p - sc->fp);
	}
	sc->sfx = p;
	while (*p != '\0' && strchr("eEinumkKMGTP", *p) != NULL)
		p++;
	if (*p == '+' || *p == '-')
		p++;
	while (is_digit(*p))
		p++;
	if (*p != '\0')
		return -1;

	/* suffix.go interpret: the table, else an exponent. */
	for (i = 0; i < sizeof table / sizeof table[0]; i++) {
		if (strcmp(sc->sfx, table[i].s) == 0) {
			sc->exp10 = table[i].exp10;
			sc->bin = table[i].bin;
			found = 1;
			break;
		}
	}
	if (!found && sc->sfx[0] != '\0' && sc->sfx[1] != '\0' &&
	    (sc->sfx[0] == 'e' || sc->sfx[0] == 'E'))
		found = exponent_suffix(sc->sfx + 1, &sc->exp10);
	return found ? 0 : -2;
}

int
kube_quantity_parse(const char *s, struct kube_quantity *q,
    struct dra_err *err)
{
	const __int128	 max = KUBE_QUANTITY_MILLI_MAX;
	struct scanned	 sc;
	const char	*ip, *fp;
	size_t		 nint, nfrac, n, i;
	int64_t		 point;
	__int128	 ipart = 0, carry = 0, mul, t, v;
	int32_t		 exp10;
	int		 neg, bin, sat = 0, nz = 0, d;

	q->milli = 0;
	q->text = NULL;
	switch (scan(s, &sc)) {
	case -1:
		goto bad;
	case -2:
		return dra_err_set(err, KUBE_E_PARSE,
		    "quantity \"%s\": unknown suffix \"%s\" (one of Ki Mi Gi "
		    "Ti Pi Ei, n u m k M G T P E, or e<N>)", s, sc.sfx);
	}
	ip = sc.ip;
	fp = sc.fp;
	nint = sc.nint;
	nfrac = sc.nfrac;
	exp10 = sc.exp10;
	bin = sc.bin;
	neg = sc.neg;

	/*
	 * The digits (integer part, then fraction) are one string whose
	 * decimal point, after the shift by the exponent and by 3 for
	 * milli, sits after the first point digits.
	 */
	n = nint + nfrac;
	point = (int64_t)nint + exp10 + 3;
	mul = (__int128)1 << (10 * bin);

	/* The integer part, saturating. */
	for (i = 0; i < n && (int64_t)i < point && !sat; i++) {
		d = i < nint ? ip[i] - '0' : fp[i - nint] - '0';
		ipart = ipart * 10 + d;
		if (ipart > max)
			sat = 1;
	}
	for (i = n; ipart != 0 && !sat && (int64_t)i < point; i++) {
		ipart *= 10;
		if (ipart > max)
			sat = 1;
	}
	if (!sat && ipart > max / mul)
		sat = 1;

	/*
	 * The fraction times mul, by long multiplication from its last
	 * digit: carry ends as its integer part, nz says whether what
	 * is left is not zero (the value then rounds up).  Leading zeros
	 * beyond the digits (a large negative exponent) only carry.
	 */
	for (i = n; !sat && i > 0 && (int64_t)(i - 1) >= point; i--) {
		d = i - 1 < nint ? ip[i - 1] - '0' :
		    fp[i - 1 - nint] - '0';
		t = d * mul + carry;
		nz |= (t % 10) != 0;
		carry = t / 10;
	}
	for (; !sat && carry != 0 && point < 0; point++) {
		nz |= (carry % 10) != 0;
		carry /= 10;
	}

	if (!sat) {
		v = ipart * mul + carry + nz;
		if (v > max)
			sat = 1;
		else
			q->milli = (int64_t)(neg ? -v : v);
	}
	if (sat)
		q->milli = neg ? -KUBE_QUANTITY_MILLI_SAT :
		    KUBE_QUANTITY_MILLI_SAT;
	return KUBE_OK;

bad:
	return dra_err_set(err, KUBE_E_PARSE,
	    "quantity \"%s\": not a Kubernetes quantity (e.g. \"40Gi\", "
	    "\"1.5\", \"500m\", \"1E\", \"2e3\")", s);
}

int
kube_quantity_saturated(const struct kube_quantity *q)
{
	return q->milli > KUBE_QUANTITY_MILLI_MAX ||
	    q->milli < -KUBE_QUANTITY_MILLI_MAX;
}

double
kube_quantity_approx(const struct kube_quantity *q)
{
	struct scanned	 sc;
	char		 buf[2 * APPROX_DIGITS + 32];
	size_t		 ni, nf;
	int64_t		 e;
	double		 v;
	int		 i;

	if (!kube_quantity_saturated(q) || q->text == NULL ||
	    scan(q->text, &sc) != 0)
		return (double)q->milli / 1000;
	/*
	 * The digits as a C number for strtod, the exponent that of the
	 * suffix (as scan read it, cut to 32 bits as Go cuts it); digits
	 * beyond APPROX_DIGITS are below double's precision and dropped.
	 */
	ni = sc.nint < APPROX_DIGITS ? sc.nint : APPROX_DIGITS;
	nf = sc.nint >= APPROX_DIGITS ? 0 :
	    (sc.nfrac < APPROX_DIGITS ? sc.nfrac : APPROX_DIGITS);
	e = (int64_t)sc.exp10 + (int64_t)(sc.nint - ni);
	snprintf(buf, sizeof buf, "%s0%.*s.%.*se%" PRId64, sc.neg ? "-" : "",
	    (int)ni, sc.ip, (int)nf, sc.fp, e);
	v = strtod(buf, NULL);
	for (i = 0; i < sc.bin; i++)
		v *= 1024;
	return v;
}

int64_t
kube_quantity_add(int64_t a, int64_t b)
{
	int64_t	r;

	if (__builtin_add_overflow(a, b, &r) || r > KUBE_QUANTITY_SUM_MAX)
		return a < 0 && b < 0 ? -KUBE_QUANTITY_SUM_MAX :
		    KUBE_QUANTITY_SUM_MAX;
	if (r < -KUBE_QUANTITY_SUM_MAX)
		return -KUBE_QUANTITY_SUM_MAX;
	return r;
}

char *
kube_quantity_format(int64_t milli, char *buf, size_t len)
{
	static const char *const bin[] = { "Ki", "Mi", "Gi", "Ti", "Pi",
	    "Ei" };
	int64_t		 v, a;
	int		 i, unit = -1;

	if (milli > KUBE_QUANTITY_MILLI_MAX ||
	    milli < -KUBE_QUANTITY_MILLI_MAX) {
		snprintf(buf, len, "%s1Pi", milli < 0 ? "<-" : ">");
		return buf;
	}
	if (milli % 1000 != 0) {
		snprintf(buf, len, "%" PRId64 "m", milli);
		return buf;
	}
	v = milli / 1000;
	a = v < 0 ? -v : v;
	for (i = 0; i < 6 && a != 0 && a % 1024 == 0; i++) {
		a /= 1024;
		unit = i;
	}
	if (unit >= 0)
		snprintf(buf, len, "%s%" PRId64 "%s", v < 0 ? "-" : "", a,
		    bin[unit]);
	else
		snprintf(buf, len, "%" PRId64, v);
	return buf;
}
