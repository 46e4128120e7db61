/*
 * cel-eval.c: evaluation of a parsed selector against one device.
 *
 * A tree walk over the node array with cel-go's rules (cel-spec
 * doc/langdef.md "Evaluation"): errors are values that propagate
 * through strict operators; && and || absorb an error when the other
 * operand decides the result, in either order; ?: evaluates only the
 * chosen branch; equality is heterogeneous (values of different types
 * are unequal, numbers compare by value); int and uint arithmetic
 * reports overflow.  A CV_UNSUP value (a construct found unsupported
 * only at run time, such as a non-literal regex we cannot map) takes
 * precedence over errors: when it may decide the result, the result is
 * unknown.
 *
 * The device maps are not built: device.attributes[domain] is a view
 * (CR_ATTR_DOMAIN) that looks ids up in the model.  As the DRA
 * library's map wrapper does (dynamic-resource-allocation cel/
 * compile.go, newStringInterfaceMapWithDefault), looking up a domain
 * always finds a (possibly empty) map, while `domain in
 * device.attributes` tests real presence.
 */
#include "cel-int.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

/* An overflow block of the evaluation arena. */
struct chunk {
	struct chunk	*next;
	size_t		 size;
	max_align_t	 data[];
};

#define CHUNK_MIN	16384

void *
cel_alloc(struct cel_ctx *c, size_t size)
{
	struct chunk	*ch;
	void		*r;

	size = (size + 15) & ~(size_t)15;
	if (size == 0)
		size = 16;
	if (c->used + size > c->size) {
		size_t n = size > CHUNK_MIN ? size : CHUNK_MIN;

		ch = xmalloc(sizeof *ch + n);
		ch->next = c->chunks;
		ch->size = n;
		c->chunks = ch;
		c->buf = (char *)ch->data;
		c->used = 0;
		c->size = n;
	}
	r = c->buf + c->used;
	c->used += size;
	return r;
}

static struct cel_val
vmsg(struct cel_ctx *c, int kind, const char *fmt, va_list ap)
{
	struct cel_val	v;
	char		tmp[512], *s;
	int		n;

	n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof tmp)
		n = sizeof tmp - 1;
	s = cel_alloc(c, (size_t)n + 1);
	memcpy(s, tmp, (size_t)n + 1);
	memset(&v, 0, sizeof v);
	v.k = (uint8_t)kind;
	v.s = s;
	v.n = (uint32_t)n;
	return v;
}

static struct cel_val	cel_unsup_text(struct cel_ctx *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));

static struct cel_val
cel_unsup_text(struct cel_ctx *c, const char *fmt, ...)
{
	struct cel_val	v;
	va_list		ap;

	va_start(ap, fmt);
	v = vmsg(c, CV_UNSUP, fmt, ap);
	va_end(ap);
	return v;
}

struct cel_val
cel_error(struct cel_ctx *c, const char *fmt, ...)
{
	struct cel_val	v;
	va_list		ap;

	va_start(ap, fmt);
	v = vmsg(c, CV_ERR, fmt, ap);
	va_end(ap);
	return v;
}

struct cel_val
cel_unsup(struct cel_ctx *c, uint32_t col, const char *fmt, ...)
{
	char		what[256];
	const char	*t = c->p->text;
	size_t		line = 1, start = 0, i;
	va_list		ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	/* Position as the compiler words it (cel-parse.c position()). */
	for (i = 0; i + 1 < col && t[i] != '\0'; i++) {
		if (t[i] == '\n') {
			line++;
			start = i + 1;
		}
	}
	if (line > 1)
		return cel_unsup_text(c, "unsupported CEL construct %s at line "
		    "%zu, column %zu", what, line, (size_t)col - start);
	return cel_unsup_text(c, "unsupported CEL construct %s at column %u",
	    what, col);
}




static int
is_err(struct cel_val v)
{
	return v.k == CV_ERR || v.k == CV_UNSUP;
}

/* The worse of two error values: unsupported wins over an error. */
static struct cel_val
worse(struct cel_val have, struct cel_val v)
{
	if (!is_err(have) || (have.k == CV_ERR && v.k == CV_UNSUP))
		return v;
	return have;
}

const char *
cel_value_type_name(struct cel_val v)
{
	switch (v.k) {
	case CV_NULL:		return "null_type";
	case CV_BOOL:		return "bool";
	case CV_INT:		return "int";
	case CV_UINT:		return "uint";
	case CV_DOUBLE:		return "double";
	case CV_STRING:		return "string";
	case CV_BYTES:		return "bytes";
	case CV_LIST:		return "list";
	case CV_MAP:		return "map";
	case CV_QUANTITY:	return "kubernetes.Quantity";
	case CV_SEMVER:		return "kubernetes.Semver";
	case CV_OPTIONAL:	return "optional_type";
	case CV_DEVICE:		return "kubernetes.DRADevice";
	case CV_TYPE:		return "type";
	default:		return "error";
	}
}

/* Go type names as cel-go's "expected iterable type" error shows them. */
static const char *
go_type_name(struct cel_val v)
{
	switch (v.k) {
	case CV_NULL:		return "types.Null";
	case CV_BOOL:		return "types.Bool";
	case CV_INT:		return "types.Int";
	case CV_UINT:		return "types.Uint";
	case CV_DOUBLE:		return "types.Double";
	case CV_STRING:		return "types.String";
	case CV_BYTES:		return "types.Bytes";
	case CV_QUANTITY:	return "cel.Quantity";
	case CV_SEMVER:		return "cel.Semver";
	case CV_OPTIONAL:	return "*types.Optional";
	default:		return "unknown";
	}
}

/* Device views. */

static int
streq(const char *a, const char *s, size_t n)
{
	return a != NULL && strncmp(a, s, n) == 0 && a[n] == '\0';
}

/* The value of attribute a. */
static struct cel_val
attr_value(struct cel_ctx *c, const struct kube_attr *a)
{
	struct cel_val		 v;
	struct cel_semver	*sv;
	const char		*why;

	memset(&v, 0, sizeof v);
	switch (a->type) {
	case KUBE_ATTR_INT:
		return vint(a->i);
	case KUBE_ATTR_BOOL:
		return vbool(a->i != 0);
	case KUBE_ATTR_STRING:
		return vstr(a->s ? a->s : "", a->s ? strlen(a->s) : 0);
	case KUBE_ATTR_VERSION:
		sv = cel_alloc(c, sizeof *sv);
		if (a->s == NULL || cel_semver_parse(a->s, strlen(a->s), 0,
		    sv, &why) != 0)
			return cel_error(c, "attribute %s: parse semantic "
			    "version: %s", a->id, a->s ? why : "empty");
		v.k = CV_SEMVER;
		v.sv = sv;
		return v;
	default:
		v.k = CV_LIST;
		v.rep = CR_ATTR;
		v.attr = a;
		v.n = (uint32_t)a->nlist;
		return v;
	}
}

struct cel_val
cel_list_get(struct cel_ctx *c, struct cel_val l, size_t i)
{
	const struct kube_attr	*a;
	const char		*s, *why;
	struct cel_semver	*sv;
	struct cel_val		 v;
	char			*end;

	if (l.rep == CR_VALS)
		return l.items[i];
	a = l.attr;
	s = a->list[i] ? a->list[i] : "";
	memset(&v, 0, sizeof v);
	switch (a->type) {
	case KUBE_ATTR_INTS:
		v = vint(strtoll(s, &end, 10));
		if (*end != '\0')
			return cel_error(c, "attribute %s: invalid int %s",
			    a->id, s);
		return v;
	case KUBE_ATTR_BOOLS:
		return vbool(strcmp(s, "true") == 0);
	case KUBE_ATTR_VERSIONS:
		sv = cel_alloc(c, sizeof *sv);
		if (cel_semver_parse(s, strlen(s), 0, sv, &why) != 0)
			return cel_error(c, "attribute %s: parse semantic "
			    "version: %s", a->id, why);
		v.k = CV_SEMVER;
		v.sv = sv;
		return v;
	default:
		return vstr(s, strlen(s));
	}
}

static struct cel_val
domain_map(int rep, const char *s, size_t n)
{
	struct cel_val v;

	memset(&v, 0, sizeof v);
	v.k = CV_MAP;
	v.rep = (uint8_t)rep;
	v.s = s;
	v.n = (uint32_t)n;
	return v;
}

/* Is domain (s, n) published by the device (attributes or capacity)? */
static int
has_domain(const struct kube_device *d, int caps, const char *s, size_t n)
{
	size_t i;

	if (caps) {
		for (i = 0; i < d->ncapacity; i++)
			if (streq(d->capacity[i].domain, s, n))
				return 1;
	} else {
		for (i = 0; i < d->nattrs; i++)
			if (streq(d->attrs[i].domain, s, n))
				return 1;
	}
	return 0;
}

/*
 * Look key up in map m.  Returns 1 and *out, 0 if absent, -1 if the
 * key's type cannot be a key of m.  Device domain maps always find.
 */
static int
map_find(struct cel_ctx *c, struct cel_val m, struct cel_val key,
    struct cel_val *out)
{
	const struct kube_device	*d = c->d;
	size_t				 i;
	struct cel_val			 e;

	switch (m.rep) {
	case CR_ATTRS:
	case CR_CAPS:
		if (key.k != CV_STRING)
			return -1;
		*out = domain_map(m.rep == CR_ATTRS ? CR_ATTR_DOMAIN :
		    CR_CAP_DOMAIN, key.s, key.n);
		return 1;
	case CR_ATTR_DOMAIN:
		if (key.k != CV_STRING)
			return -1;
		/* The id first: it usually tells attributes apart. */
		for (i = 0; i < d->nattrs; i++) {
			if (streq(d->attrs[i].id, key.s, key.n) &&
			    streq(d->attrs[i].domain, m.s, m.n)) {
				*out = attr_value(c, &d->attrs[i]);
				return 1;
			}
		}
		return 0;
	case CR_CAP_DOMAIN:
		if (key.k != CV_STRING)
			return -1;
		for (i = 0; i < d->ncapacity; i++) {
			if (streq(d->capacity[i].id, key.s, key.n) &&
			    streq(d->capacity[i].domain, m.s, m.n)) {
				memset(out, 0, sizeof *out);
				out->k = CV_QUANTITY;
				out->q = (__int128)d->capacity[i].value.milli *
				    1000000;
				return 1;
			}
		}
		return 0;
	default:
		for (i = 0; i < m.n; i++) {
			if (cel_equal(c, m.items[2 * i], key, &e) == 1) {
				*out = m.items[2 * i + 1];
				return 1;
			}
		}
		return 0;
	}
}

/* The keys of map m, as a list. */
static struct cel_val
map_keys(struct cel_ctx *c, struct cel_val m)
{
	const struct kube_device	*d = c->d;
	struct cel_val			*items, v;
	size_t				 i, j, n = 0, max;

	memset(&v, 0, sizeof v);
	v.k = CV_LIST;
	v.rep = CR_VALS;
	switch (m.rep) {
	case CR_ATTRS:
	case CR_ATTR_DOMAIN:
		max = d->nattrs;
		break;
	case CR_CAPS:
	case CR_CAP_DOMAIN:
		max = d->ncapacity;
		break;
	default:
		max = m.n;
		break;
	}
	items = cel_alloc(c, (max ? max : 1) * sizeof *items);
	for (i = 0; i < max; i++) {
		const char *k = NULL;

		switch (m.rep) {
		case CR_ATTRS:
			k = d->attrs[i].domain;
			for (j = 0; j < i && k != NULL; j++)
				if (streq(d->attrs[j].domain, k, strlen(k)))
					k = NULL;
			break;
		case CR_CAPS:
			k = d->capacity[i].domain;
			for (j = 0; j < i && k != NULL; j++)
				if (streq(d->capacity[j].domain, k, strlen(k)))
					k = NULL;
			break;
		case CR_ATTR_DOMAIN:
			if (streq(d->attrs[i].domain, m.s, m.n))
				k = d->attrs[i].id;
			break;
		case CR_CAP_DOMAIN:
			if (streq(d->capacity[i].domain, m.s, m.n))
				k = d->capacity[i].id;
			break;
		default:
			items[n++] = m.items[2 * i];
			continue;
		}
		if (k != NULL)
			items[n++] = vstr(k, strlen(k));
	}
	v.items = items;
	v.n = (uint32_t)n;
	return v;
}

size_t
cel_map_size(struct cel_ctx *c, struct cel_val m)
{
	if (m.rep == CR_VALS)
		return m.n;
	return map_keys(c, m).n;
}

/* Equality. */

/* The value of a number as cel-go converts it for mixed comparisons. */
static double
as_double(struct cel_val v)
{
	return v.k == CV_INT ? (double)v.i : v.k == CV_UINT ? (double)v.u : v.d;
}

static int
cmp_double(double a, double b)
{
	return a < b ? -1 : a > b;
}

/*
 * Compare numbers of any kinds as cel-go common/types/compare.go does
 * (CrossTypeNumericComparisons): a double against an integer is
 * compared in doubles once it is inside the integer's range.  Returns
 * -1, 0, 1, or 2 when a NaN is involved.
 */
static int
num_cmp(struct cel_val a, struct cel_val b)
{
	int	sign = 1;

	if ((a.k == CV_DOUBLE && isnan(a.d)) || (b.k == CV_DOUBLE &&
	    isnan(b.d)))
		return 2;
	if (a.k == b.k) {
		if (a.k == CV_INT)
			return a.i < b.i ? -1 : a.i > b.i;
		if (a.k == CV_UINT)
			return a.u < b.u ? -1 : a.u > b.u;
		return cmp_double(a.d, b.d);
	}
	if (b.k == CV_DOUBLE || (a.k == CV_UINT && b.k == CV_INT)) {
		struct cel_val t = a;

		a = b;
		b = t;
		sign = -1;
	}
	if (a.k == CV_DOUBLE) {
		if (b.k == CV_INT) {
			if (a.d < -9223372036854775808.0)
				return -sign;
			if (a.d > 9223372036854775807.0)
				return sign;
		} else {
			if (a.d < 0)
				return -sign;
			if (a.d > 18446744073709551615.0)
				return sign;
		}
		return sign * cmp_double(a.d, as_double(b));
	}
	/* a int, b uint */
	if (a.i < 0 || b.u > INT64_MAX)
		return -sign;
	return sign * (a.i < (int64_t)b.u ? -1 : a.i > (int64_t)b.u);
}

static int
is_num(struct cel_val v)
{
	return v.k == CV_INT || v.k == CV_UINT || v.k == CV_DOUBLE;
}

static int
bytes_cmp(struct cel_val a, struct cel_val b)
{
	size_t	n = a.n < b.n ? a.n : b.n;
	int	r = n ? memcmp(a.s, b.s, n) : 0;

	if (r != 0)
		return r < 0 ? -1 : 1;
	return a.n < b.n ? -1 : a.n > b.n;
}

int
cel_equal(struct cel_ctx *c, struct cel_val a, struct cel_val b,
    struct cel_val *err)
{
	size_t	i, n;
	int	r;

	if (is_err(a) || is_err(b)) {
		*err = is_err(a) ? worse(a, b) : b;
		return -1;
	}
	if (is_num(a) && is_num(b))
		return num_cmp(a, b) == 0;
	if (a.k != b.k)
		return 0;
	switch (a.k) {
	case CV_NULL:
		return 1;
	case CV_BOOL:
		return a.b == b.b;
	case CV_STRING:
	case CV_BYTES:
		return bytes_cmp(a, b) == 0;
	case CV_QUANTITY:
		return a.q == b.q;
	case CV_SEMVER:
		return cel_semver_cmp(a.sv, b.sv) == 0;
	case CV_OPTIONAL:
		if (a.opt == NULL || b.opt == NULL)
			return a.opt == b.opt;
		return cel_equal(c, *a.opt, *b.opt, err);
	case CV_DEVICE:
		return 1;
	case CV_TYPE:
		return a.i == b.i;
	case CV_LIST:
		if (a.n != b.n)
			return 0;
		for (i = 0; i < a.n; i++) {
			r = cel_equal(c, cel_list_get(c, a, i),
			    cel_list_get(c, b, i), err);
			if (r != 1)
				return r;
		}
		return 1;
	case CV_MAP: {
		struct cel_val ka = map_keys(c, a), v, w;

		n = cel_map_size(c, b);
		if (ka.n != n)
			return 0;
		for (i = 0; i < ka.n; i++) {
			if (map_find(c, b, ka.items[i], &w) != 1)
				return 0;
			map_find(c, a, ka.items[i], &v);
			r = cel_equal(c, v, w, err);
			if (r != 1)
				return r;
		}
		return 1;
	}
	}
	return 0;
}

/* Operators. */

static struct cel_val
no_overload(struct cel_ctx *c)
{
	return cel_error(c, "no such overload");
}

int
cel_compare(struct cel_ctx *c, struct cel_val a, struct cel_val b,
    struct cel_val *err)
{
	int	r;

	if (is_err(a) || is_err(b)) {
		*err = is_err(a) ? worse(a, b) : b;
		return 2;
	}
	if (is_num(a) && is_num(b)) {
		r = num_cmp(a, b);
		if (r == 2)
			*err = cel_error(c, "NaN values cannot be ordered");
		return r;
	}
	if (a.k == b.k && (a.k == CV_STRING || a.k == CV_BYTES))
		return bytes_cmp(a, b);
	if (a.k == b.k && a.k == CV_BOOL)
		return a.b < b.b ? -1 : a.b > b.b;
	*err = no_overload(c);
	return 2;
}

static struct cel_val
compare(struct cel_ctx *c, int op, struct cel_val a, struct cel_val b)
{
	struct cel_val	e;
	int		r;

	if ((r = cel_compare(c, a, b, &e)) == 2)
		return e;
	switch (op) {
	case B_LT: return vbool(r < 0);
	case B_LE: return vbool(r <= 0);
	case B_GT: return vbool(r > 0);
	default: return vbool(r >= 0);
	}
}

static struct cel_val
concat(struct cel_ctx *c, struct cel_val a, struct cel_val b)
{
	struct cel_val	 v = a;
	struct cel_val	*items;
	char		*s;
	size_t		 i;

	if (a.k == CV_LIST) {
		items = cel_alloc(c, ((size_t)a.n + b.n + 1) * sizeof *items);
		for (i = 0; i < a.n; i++)
			items[i] = cel_list_get(c, a, i);
		for (i = 0; i < b.n; i++)
			items[a.n + i] = cel_list_get(c, b, i);
		v.rep = CR_VALS;
		v.items = items;
		v.n = a.n + b.n;
		return v;
	}
	s = cel_alloc(c, (size_t)a.n + b.n + 1);
	if (a.n)
		memcpy(s, a.s, a.n);
	if (b.n)
		memcpy(s + a.n, b.s, b.n);
	s[a.n + b.n] = '\0';
	v.s = s;
	v.n = a.n + b.n;
	return v;
}

static struct cel_val
arith(struct cel_ctx *c, int op, struct cel_val a, struct cel_val b)
{
	struct cel_val	v;

	if (a.k != b.k)
		return no_overload(c);
	v = a;
	switch (a.k) {
	case CV_INT:
		switch (op) {
		case B_ADD:
			if (__builtin_add_overflow(a.i, b.i, &v.i))
				return cel_error(c, "integer overflow");
			return v;
		case B_SUB:
			if (__builtin_sub_overflow(a.i, b.i, &v.i))
				return cel_error(c, "integer overflow");
			return v;
		case B_MUL:
			if (__builtin_mul_overflow(a.i, b.i, &v.i))
				return cel_error(c, "integer overflow");
			return v;
		case B_DIV:
			if (b.i == 0)
				return cel_error(c, "division by zero");
			if (a.i == INT64_MIN && b.i == -1)
				return cel_error(c, "integer overflow");
			v.i = a.i / b.i;
			return v;
		default:
			if (b.i == 0)
				return cel_error(c, "modulus by zero");
			if (a.i == INT64_MIN && b.i == -1)
				return cel_error(c, "integer overflow");
			v.i = a.i % b.i;
			return v;
		}
	case CV_UINT:
		switch (op) {
		case B_ADD:
			if (__builtin_add_overflow(a.u, b.u, &v.u))
				return cel_error(c, "unsigned integer "
				    "overflow");
			return v;
		case B_SUB:
			if (__builtin_sub_overflow(a.u, b.u, &v.u))
				return cel_error(c, "unsigned integer "
				    "overflow");
			return v;
		case B_MUL:
			if (__builtin_mul_overflow(a.u, b.u, &v.u))
				return cel_error(c, "unsigned integer "
				    "overflow");
			return v;
		case B_DIV:
			if (b.u == 0)
				return cel_error(c, "division by zero");
			v.u = a.u / b.u;
			return v;
		default:
			if (b.u == 0)
				return cel_error(c, "modulus by zero");
			v.u = a.u % b.u;
			return v;
		}
	case CV_DOUBLE:
		switch (op) {
		case B_ADD: v.d = a.d + b.d; return v;
		case B_SUB: v.d = a.d - b.d; return v;
		case B_MUL: v.d = a.d * b.d; return v;
		case B_DIV: v.d = a.d / b.d; return v;
		default: return no_overload(c);
		}
	case CV_STRING:
	case CV_BYTES:
	case CV_LIST:
		if (op != B_ADD)
			return no_overload(c);
		return concat(c, a, b);
	default:
		return no_overload(c);
	}
}

struct cel_val
cel_add(struct cel_ctx *c, struct cel_val a, struct cel_val b)
{
	return arith(c, B_ADD, a, b);
}

static struct cel_val
binary(struct cel_ctx *c, int op, struct cel_val a, struct cel_val b)
{
	struct cel_val	e;
	int		r;

	if (is_err(a) || is_err(b))
		return is_err(a) ? worse(a, b) : b;
	switch (op) {
	case B_EQ:
	case B_NE:
		r = cel_equal(c, a, b, &e);
		if (r < 0)
			return e;
		return vbool(op == B_EQ ? r : !r);
	case B_LT:
	case B_LE:
	case B_GT:
	case B_GE:
		return compare(c, op, a, b);
	default:
		return arith(c, op, a, b);
	}
}

/* Format a map key for "no such key: <key>". */
static struct cel_val
no_such_key(struct cel_ctx *c, struct cel_val key)
{
	switch (key.k) {
	case CV_STRING:
		return cel_error(c, "no such key: %.*s", (int)key.n, key.s);
	case CV_INT:
		return cel_error(c, "no such key: %" PRId64, key.i);
	case CV_UINT:
		return cel_error(c, "no such key: %" PRIu64, key.u);
	case CV_BOOL:
		return cel_error(c, "no such key: %s", key.b ? "true" :
		    "false");
	default:
		return cel_error(c, "no such key");
	}
}

static struct cel_val
some(struct cel_ctx *c, struct cel_val v)
{
	struct cel_val	 o, *box;

	if (is_err(v))
		return v;
	box = cel_alloc(c, sizeof *box);
	*box = v;
	memset(&o, 0, sizeof o);
	o.k = CV_OPTIONAL;
	o.opt = box;
	return o;
}

static struct cel_val
none(void)
{
	struct cel_val o;

	memset(&o, 0, sizeof o);
	o.k = CV_OPTIONAL;
	return o;
}

/*
 * Index or select key on v.  optional: a.?b / a[?b] (and anything
 * after an optional), giving optional.none() for a missing key.
 */
static struct cel_val
lookup(struct cel_ctx *c, struct cel_val v, struct cel_val key, int optional)
{
	struct cel_val	out;
	int		r;

	if (is_err(v))
		return v;
	if (is_err(key))
		return key;
	if (v.k == CV_OPTIONAL) {
		if (v.opt == NULL)
			return v;
		v = *v.opt;
		optional = 1;
	}
	switch (v.k) {
	case CV_MAP:
		r = map_find(c, v, key, &out);
		if (r < 0)
			return optional ? none() : no_such_key(c, key);
		if (r == 0)
			return optional ? none() : no_such_key(c, key);
		return optional ? some(c, out) : out;
	case CV_LIST: {
		int64_t i;

		if (key.k == CV_INT)
			i = key.i;
		else if (key.k == CV_UINT)
			i = key.u > INT64_MAX ? -1 : (int64_t)key.u;
		else if (key.k == CV_DOUBLE && key.d == (double)(int64_t)key.d)
			i = (int64_t)key.d;
		else
			return no_overload(c);
		if (i < 0 || (uint64_t)i >= v.n) {
			if (optional)
				return none();
			return cel_error(c, "index out of bounds: %" PRId64, i);
		}
		out = cel_list_get(c, v, (size_t)i);
		return optional ? some(c, out) : out;
	}
	case CV_DEVICE:
		if (key.k == CV_STRING) {
			const struct kube_device *d = c->d;

			if (streq("driver", key.s, key.n)) {
				const char *s = d->slice && d->slice->driver ?
				    d->slice->driver : "";

				out = vstr(s, strlen(s));
			} else if (streq("attributes", key.s, key.n))
				out = domain_map(CR_ATTRS, NULL, 0);
			else if (streq("capacity", key.s, key.n))
				out = domain_map(CR_CAPS, NULL, 0);
			else if (streq("allowMultipleAllocations", key.s,
			    key.n))
				out = vbool(d->allow_multiple);
			else
				return optional ? none() : no_such_key(c, key);
			return optional ? some(c, out) : out;
		}
		return optional ? none() : no_such_key(c, key);
	default:
		return no_overload(c);
	}
}

/* Evaluation. */

/* m[key] for a key of map m known to be present. */
static struct cel_val
cel_eval_index(struct cel_ctx *c, struct cel_val m, struct cel_val key)
{
	struct cel_val out;

	if (map_find(c, m, key, &out) != 1)
		return no_such_key(c, key);
	return out;
}

static struct cel_val
eval_logic(struct cel_ctx *c, const struct cel_node *n)
{
	const int32_t	*args = c->p->args + n->args;
	int		 decide = n->op == N_OR;	/* value that decides */
	struct cel_val	 bad, v;
	uint32_t	 i;

	memset(&bad, 0, sizeof bad);
	bad.k = CV_BOOL;
	for (i = 0; i < n->nargs; i++) {
		v = cel_eval(c, args[i]);
		if (v.k == CV_BOOL) {
			if (v.b == decide)
				return v;
			continue;
		}
		if (!is_err(v))
			v = no_overload(c);
		bad = worse(bad, v);
	}
	return is_err(bad) ? bad : vbool(!decide);
}

static struct cel_val
eval_in(struct cel_ctx *c, struct cel_val a, struct cel_val b)
{
	struct cel_val	e;
	size_t		i;

	if (is_err(a) || is_err(b))
		return is_err(a) ? worse(a, b) : b;
	if (b.k == CV_LIST) {
		for (i = 0; i < b.n; i++)
			if (cel_equal(c, a, cel_list_get(c, b, i), &e) == 1)
				return vbool(1);
		return vbool(0);
	}
	if (b.k == CV_MAP) {
		if (b.rep == CR_ATTRS || b.rep == CR_CAPS)
			return vbool(a.k == CV_STRING && has_domain(c->d,
			    b.rep == CR_CAPS, a.s, a.n));
		return vbool(map_find(c, b, a, &e) == 1);
	}
	return no_overload(c);
}

/*
 * Comprehension macros.  all and exists combine their predicates as
 * && and || do (an error is absorbed by a deciding false or true);
 * exists_one, map, filter and the transforms propagate the first
 * error (cel-go parser/macro.go and ext/comprehensions.go expansions).
 * Over a list the variable is the element (two-variable form: index
 * and element); over a map, the key (two-variable form: key, value).
 */
static struct cel_val
eval_comp(struct cel_ctx *c, const struct cel_node *n)
{
	struct cel_val	 range = cel_eval(c, n->a), keys, v, bad, *out = NULL;
	size_t		 i, count = 0, nout = 0;
	int		 fn = n->sub, two = n->flags & CEL_F_TWO_VAR, ismap;

	if (is_err(range))
		return range;
	if (fn == F_OPT_MAP || fn == F_OPT_FLAT_MAP) {
		/* cel-go optional library macros. */
		if (range.k != CV_OPTIONAL)
			return no_overload(c);
		if (range.opt == NULL)
			return range;
		c->vars[n->slot] = *range.opt;
		v = cel_eval(c, n->b);
		if (is_err(v) || fn == F_OPT_MAP)
			return some(c, v);
		return v.k == CV_OPTIONAL ? v : no_overload(c);
	}
	ismap = range.k == CV_MAP;
	if (ismap)
		keys = map_keys(c, range);
	else if (range.k == CV_LIST)
		keys = range;
	else if (two)
		return cel_error(c, "unsupported comprehension range type: %s",
		    go_type_name(range));
	else
		return cel_error(c, "got '%s', expected iterable type",
		    go_type_name(range));
	memset(&bad, 0, sizeof bad);
	bad.k = CV_BOOL;
	if (fn == F_MAP || fn == F_FILTER || fn == F_TRANSFORM_LIST ||
	    fn == F_TRANSFORM_MAP || fn == F_SORT_BY)
		out = cel_alloc(c, ((size_t)keys.n + 1) * 2 * sizeof *out);
	for (i = 0; i < keys.n; i++) {
		struct cel_val elem;

		if (++c->iterations > CEL_MAX_ITERATIONS)
			return cel_unsup(c, n->col, "evaluation beyond %d "
			    "comprehension steps (the cost limit is not "
			    "modelled)", CEL_MAX_ITERATIONS);
		elem = cel_list_get(c, keys, i);
		if (is_err(elem))
			return elem;
		if (!two)
			c->vars[n->slot] = elem;
		else if (ismap) {
			c->vars[n->slot] = elem;
			c->vars[n->slot2] = cel_eval_index(c, range, elem);
		} else {
			c->vars[n->slot] = vint((int64_t)i);
			c->vars[n->slot2] = elem;
		}
		if (fn == F_MAP || fn == F_TRANSFORM_LIST ||
		    fn == F_TRANSFORM_MAP || fn == F_SORT_BY) {
			if (n->c >= 0) {
				v = cel_eval(c, n->c);
				if (is_err(v))
					return v;
				if (v.k != CV_BOOL)
					return no_overload(c);
				if (!v.b)
					continue;
			}
			v = cel_eval(c, n->b);
			if (is_err(v))
				return v;
			if (fn == F_TRANSFORM_MAP)
				out[nout++] = c->vars[n->slot];
			out[nout++] = v;
			continue;
		}
		v = cel_eval(c, n->b);
		if (v.k != CV_BOOL && !is_err(v))
			v = no_overload(c);
		switch (fn) {
		case F_ALL:
		case F_EXISTS:
			if (is_err(v))
				bad = worse(bad, v);
			else if (v.b == (fn == F_EXISTS))
				return v;
			break;
		case F_EXISTS_ONE:
			if (is_err(v))
				return v;
			count += v.b;
			break;
		case F_FILTER:
			if (is_err(v))
				return v;
			if (v.b)
				out[nout++] = elem;
			break;
		}
	}
	switch (fn) {
	case F_ALL:
	case F_EXISTS:
		return is_err(bad) ? bad : vbool(fn == F_ALL);
	case F_EXISTS_ONE:
		return vbool(count == 1);
	case F_SORT_BY:
		/* cel-go ext/lists.go: sortBy maps to @sortByAssociatedKeys. */
		if (ismap)
			return no_overload(c);
		return cel_sort_by(c, range, out);
	default:
		memset(&v, 0, sizeof v);
		v.k = fn == F_TRANSFORM_MAP ? CV_MAP : CV_LIST;
		v.rep = CR_VALS;
		v.items = out;
		v.n = (uint32_t)(fn == F_TRANSFORM_MAP ? nout / 2 : nout);
		return v;
	}
}

static struct cel_val
eval_call(struct cel_ctx *c, const struct cel_node *n)
{
	struct cel_val	 recv, args[CEL_MAX_ARGS], bad;
	const int32_t	*ai = c->p->args + n->args;
	uint32_t	 i;

	memset(&recv, 0, sizeof recv);
	memset(&bad, 0, sizeof bad);
	bad.k = CV_NULL;
	if (n->a >= 0) {
		recv = cel_eval(c, n->a);
		if (is_err(recv))
			bad = recv;
	}
	/* orValue() and or() evaluate their argument only when needed. */
	if ((n->sub == F_OR_VALUE || n->sub == F_OR) && !is_err(bad)) {
		if (recv.k != CV_OPTIONAL)
			return no_overload(c);
		if (recv.opt != NULL)
			return n->sub == F_OR ? recv : *recv.opt;
		return cel_eval(c, ai[0]);
	}
	for (i = 0; i < n->nargs; i++) {
		args[i] = cel_eval(c, ai[i]);
		if (is_err(args[i]))
			bad = worse(bad, args[i]);
	}
	if (is_err(bad))
		return bad;
	return cel_call(c, n, recv, args);
}

struct cel_val
cel_eval(struct cel_ctx *c, int32_t idx)
{
	const struct cel_node	*n = &c->p->nodes[idx];
	const int32_t		*ai;
	struct cel_val		 a, b, v, *items;
	uint32_t		 i, j;

	switch (n->op) {
	case N_LIT:
		return n->lit;
	case N_DEVICE:
		memset(&v, 0, sizeof v);
		v.k = CV_DEVICE;
		return v;
	case N_VAR:
		if (c->lazy[n->slot] > 0) {
			/* cel-go folder.ResolveName: bound on first use. */
			int32_t init = c->lazy[n->slot] - 1;

			c->lazy[n->slot] = 0;
			c->vars[n->slot] = cel_eval(c, init);
		}
		return c->vars[n->slot];
	case N_SELECT:
		return lookup(c, cel_eval(c, n->a), n->lit,
		    n->flags & CEL_F_OPTIONAL);
	case N_INDEX:
		a = cel_eval(c, n->a);
		return lookup(c, a, cel_eval(c, n->b),
		    n->flags & CEL_F_OPTIONAL);
	case N_HAS:
		a = cel_eval(c, n->a);
		if (is_err(a))
			return a;
		/* has(x.?y.z): none has nothing; a value is looked into. */
		if (a.k == CV_OPTIONAL) {
			if (a.opt == NULL)
				return vbool(0);
			a = *a.opt;
		}
		/*
		 * The scheduler passes device as a map holding all four
		 * fields (DeviceMatches), so each is present.
		 */
		if (a.k == CV_DEVICE)
			return vbool(!is_err(lookup(c, a, n->lit, 0)));
		if (a.k != CV_MAP)
			return cel_error(c, "invalid type for field "
			    "selection.");
		return vbool(map_find(c, a, n->lit, &v) == 1);
	case N_AND:
	case N_OR:
		return eval_logic(c, n);
	case N_NOT:
		a = cel_eval(c, n->a);
		if (is_err(a))
			return a;
		if (a.k != CV_BOOL)
			return no_overload(c);
		return vbool(!a.b);
	case N_NEG:
		a = cel_eval(c, n->a);
		if (is_err(a))
			return a;
		if (a.k == CV_INT) {
			if (a.i == INT64_MIN)
				return cel_error(c, "integer overflow");
			a.i = -a.i;
			return a;
		}
		if (a.k == CV_DOUBLE) {
			a.d = -a.d;
			return a;
		}
		return no_overload(c);
	case N_COND:
		a = cel_eval(c, n->a);
		if (is_err(a))
			return a;
		if (a.k != CV_BOOL)
			return no_overload(c);
		return cel_eval(c, a.b ? n->b : n->c);
	case N_BINARY:
		a = cel_eval(c, n->a);
		return binary(c, n->sub, a, cel_eval(c, n->b));
	case N_IN:
		a = cel_eval(c, n->a);
		return eval_in(c, a, cel_eval(c, n->b));
	case N_CALL:
		return eval_call(c, n);
	case N_LIST:
	case N_MAP:
		ai = c->p->args + n->args;
		items = cel_alloc(c, (n->nargs ? n->nargs : 1) *
		    sizeof *items);
		for (i = 0, j = 0; i < n->nargs; i++) {
			int opt = c->p->nodes[ai[i]].op == N_OPT_ENTRY;

			items[j] = cel_eval(c, opt ? c->p->nodes[ai[i]].a :
			    ai[i]);
			if (is_err(items[j]))
				return items[j];
			if (opt) {
				if (items[j].k != CV_OPTIONAL)
					return no_overload(c);
				if (items[j].opt == NULL) {
					/* Leave out the entry (and its key). */
					if (n->op == N_MAP)
						j--;
					continue;
				}
				items[j] = *items[j].opt;
			}
			j++;
		}
		memset(&v, 0, sizeof v);
		v.k = n->op == N_LIST ? CV_LIST : CV_MAP;
		v.rep = CR_VALS;
		v.items = items;
		v.n = n->op == N_LIST ? j : j / 2;
		if (n->op == N_MAP) {
			for (i = 0; i < v.n; i++) {
				if (items[2 * i].k != CV_STRING &&
				    items[2 * i].k != CV_INT &&
				    items[2 * i].k != CV_UINT &&
				    items[2 * i].k != CV_BOOL)
					return cel_unsup(c, n->col, "map key "
					    "of type %s", cel_value_type_name(
					    items[2 * i]));
				for (j = 0; j < i; j++)
					if (cel_equal(c, items[2 * j],
					    items[2 * i], &b) == 1)
						return cel_unsup(c, n->col,
						    "map literal with a "
						    "repeated key");
			}
		}
		return v;
	case N_COMP:
		return eval_comp(c, n);
	case N_BIND:
		c->lazy[n->slot] = n->a + 1;
		return cel_eval(c, n->b);
	case N_OPT_ENTRY:
		/* Evaluated by its list or map. */
		break;
	}
	return cel_unsup(c, n->col, "expression");
}
