/*
 * quantity.c: resource.Quantity parsing and formatting.
 *
 * The grammar is apimachinery's (pkg/api/resource/quantity.go):
 *
 *	<quantity>        ::= <signedNumber><suffix>
 *	<signedNumber>    ::= [+-] <digits> [ . <digits> ] | [+-] . <digits>
 *	<suffix>          ::= Ki | Mi | Gi | Ti | Pi | Ei
 *	                    | n | u | m | "" | k | M | G | T | P | E
 *	                    | e<signedNumber> | E<signedNumber>
 *
 * The value is kept in thousandths (milli), rounded up away from zero
 * as Quantity.MilliValue() rounds, which is exact for every quantity
 * a DRA driver publishes (memory in bytes, counts, engine counters).
 */
#include "model.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define MILLI_MAX	(INT64_MAX / 2)

/* Multiply *v by m, saturating into an overflow flag. */
static int
mul_ok(__int128 *v, __int128 m)
{
	*v *= m;
	return *v <= MILLI_MAX && *v >= -MILLI_MAX;
}

int
kube_quantity_parse(const char *s, struct kube_quantity *q,
    struct dra_err *err)
{
	const char	*p = s;
	__int128	 mant = 0, den = 1, mul = 1;
	int		 neg = 0, ndigits = 0, exp10 = 0, expneg = 0;
	int		 bin = 0, i, e;

	q->milli = 0;
	q->text = NULL;
	if (*p == '+' || *p == '-')
		neg = (*p++ == '-');
	for (; isdigit((unsigned char)*p); p++, ndigits++) {
		mant = mant * 10 + (*p - '0');
		if (mant > ((__int128)1 << 100))
			goto range;
	}
	if (*p == '.') {
		for (p++; isdigit((unsigned char)*p); p++, ndigits++) {
			if (den < ((__int128)1 << 100)) {
				mant = mant * 10 + (*p - '0');
				den *= 10;
			}
		}
	}
	if (ndigits == 0)
		goto bad;

	if (p[0] != '\0' && p[1] == 'i') {
		switch (p[0]) {
		case 'K': bin = 1; break;
		case 'M': bin = 2; break;
		case 'G': bin = 3; break;
		case 'T': bin = 4; break;
		case 'P': bin = 5; break;
		case 'E': bin = 6; break;
		default: goto bad;
		}
		if (p[2] != '\0')
			goto bad;
		for (i = 0; i < bin; i++)
			mul *= 1024;
	} else if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			expneg = (*p++ == '-');
		if (!isdigit((unsigned char)*p))
			goto bad;
		for (; isdigit((unsigned char)*p); p++) {
			exp10 = exp10 * 10 + (*p - '0');
			if (exp10 > 40)
				goto range;
		}
		if (*p != '\0')
			goto bad;
		if (expneg)
			exp10 = -exp10;
	} else if (*p != '\0') {
		if (p[1] != '\0')
			goto bad;
		switch (*p) {
		case 'n': exp10 = -9; break;
		case 'u': exp10 = -6; break;
		case 'm': exp10 = -3; break;
		case 'k': exp10 = 3; break;
		case 'M': exp10 = 6; break;
		case 'G': exp10 = 9; break;
		case 'T': exp10 = 12; break;
		case 'P': exp10 = 15; break;
		case 'E': exp10 = 18; break;
		default: goto bad;
		}
	}

	/* value = mant * mul * 10^exp10 / den; milli = value * 1000. */
	e = exp10 + 3;
	for (; e > 0; e--) {
		if (!mul_ok(&mant, 10))
			goto range;
	}
	for (; e < 0; e++)
		den *= 10;
	if (!mul_ok(&mant, mul))
		goto range;
	/* Round up away from zero, as MilliValue does. */
	mant = (mant + den - 1) / den;
	if (mant > MILLI_MAX)
		goto range;
	q->milli = neg ? -(int64_t)mant : (int64_t)mant;
	return KUBE_OK;

bad:
	return dra_err_set(err, KUBE_E_PARSE,
	    "quantity \"%s\": not a Kubernetes quantity (e.g. \"40Gi\", "
	    "\"1.5\", \"500m\")", s);
range:
	return dra_err_set(err, KUBE_E_PARSE,
	    "quantity \"%s\": out of range", s);
}

char *
kube_quantity_format(int64_t milli, char *buf, size_t len)
{
	static const char *const bin[] = { "Ki", "Mi", "Gi", "Ti", "Pi",
	    "Ei" };
	int64_t		 v, a;
	int		 i, unit = -1;

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
