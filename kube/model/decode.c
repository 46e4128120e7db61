/*
 * decode.c: from a cJSON object of any served version to the model.
 *
 * One decoder per kind reads the v1 shape and, where v1beta1 differs
 * (DRA-REFERENCE.md section 3), the v1beta1 shape too: a device's
 * fields under "basic" are unwrapped and a flat request's fields are
 * lifted into "exactly".  v1beta2 has the v1 shape.  An object that
 * claims v1 but carries v1beta1 fields is what the API server rejects
 * with "strict decoding error: unknown field" (case 12): it is still
 * decoded so it can be shown, marked rejected, with a warning naming
 * the field.
 *
 * Every read goes through a small cursor (struct dec) that tracks the
 * JSON path, so a type error names the exact field:
 * "resourceslice/x: spec.devices[2].name: expected a string".
 */
#include "model.h"
#include "model-int.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "xmalloc.h"

#define DEC_MAX_ITEMS	100000	/* entries in any one list field */
#define DEC_MAX_DEPTH	32	/* path frames */

struct dec {
	struct kube_snapshot	*s;
	struct dra_err		*err;
	const char		*what;		/* "resourceslice/x" */
	const char		*api_version;
	int			 v1beta1;	/* flat shapes */
	int			 failed;
	/*
	 * The JSON path, kept as a stack of unformatted frames (a format
	 * with at most one %zu or %s argument) and printed only when an
	 * error or warning needs it: decoding 200,000 devices must not
	 * pay for a snprintf per field.
	 */
	struct {
		const char	*fmt;
		int		 argtype;	/* 0 none, 'z' size_t, 's' str */
		size_t		 z;
		const char	*s;
	}			 frames[DEC_MAX_DEPTH];
	size_t			 plen;		/* frames in use */
	char			 path[512];	/* formatted by dec_path() */
};

static void	 dec_push(struct dec *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
static void	 dec_pop(struct dec *, size_t);
static void	 dec_fail(struct dec *, const char *, const char *, ...)
		    __attribute__((format(printf, 3, 4)));

static void
dec_push(struct dec *d, const char *fmt, ...)
{
	const char	*pct;
	va_list		 ap;

	if (d->plen == DEC_MAX_DEPTH)
		return;
	d->frames[d->plen].fmt = fmt;
	d->frames[d->plen].argtype = 0;
	if ((pct = strchr(fmt, '%')) != NULL) {
		va_start(ap, fmt);
		if (pct[1] == 'z') {
			d->frames[d->plen].argtype = 'z';
			d->frames[d->plen].z = va_arg(ap, size_t);
		} else {
			d->frames[d->plen].argtype = 's';
			d->frames[d->plen].s = va_arg(ap, const char *);
		}
		va_end(ap);
	}
	d->plen++;
}

static void
dec_pop(struct dec *d, size_t len)
{
	d->plen = len;
}

/* The path so far without its leading '.', into d->path. */
static const char *
dec_path(struct dec *d)
{
	size_t	i, n = 0;
	int	w;

	d->path[0] = '\0';
	for (i = 0; i < d->plen && n < sizeof d->path; i++) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
		if (d->frames[i].argtype == 'z')
			w = snprintf(d->path + n, sizeof d->path - n,
			    d->frames[i].fmt, d->frames[i].z);
		else if (d->frames[i].argtype == 's')
			w = snprintf(d->path + n, sizeof d->path - n,
			    d->frames[i].fmt, d->frames[i].s);
		else
			w = snprintf(d->path + n, sizeof d->path - n, "%s",
			    d->frames[i].fmt);
#pragma GCC diagnostic pop
		if (w < 0)
			break;
		n += (size_t)w;
	}
	return d->path[0] == '.' ? d->path + 1 : d->path;
}

/* Record the first error: "<what>: <path>.<field>: <message>". */
static void
dec_fail(struct dec *d, const char *field, const char *fmt, ...)
{
	char	msg[512];
	va_list	ap;

	if (d->failed)
		return;
	d->failed = 1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	dra_err_set(d->err, KUBE_E_PARSE, "%s: %s%s%s: %s", d->what,
	    dec_path(d), field != NULL && d->plen > 0 ? "." : "",
	    field != NULL ? field : "", msg);
}

static const char *
type_name(const cJSON *v)
{
	if (cJSON_IsString(v))
		return "a string";
	if (cJSON_IsNumber(v))
		return "a number";
	if (cJSON_IsBool(v))
		return "a boolean";
	if (cJSON_IsArray(v))
		return "a list";
	if (cJSON_IsObject(v))
		return "an object";
	return "null";
}

/* The field's item, or NULL when absent or null. */
static const cJSON *
get(const cJSON *obj, const char *field)
{
	const cJSON	*v;

	if (obj == NULL || !cJSON_IsObject(obj))
		return NULL;
	v = cJSON_GetObjectItemCaseSensitive(obj, field);
	if (v == NULL || cJSON_IsNull(v))
		return NULL;
	return v;
}

/*
 * The text of a scalar: strings as they are; numbers and booleans as
 * written (the YAML reader keeps the literal in valuestring: "y",
 * "1.10") or else formatted.  NULL for other types.
 */
static const char *
scalar_text(const cJSON *v, char *buf, size_t len)
{
	double	x;

	if (cJSON_IsString(v))
		return v->valuestring;
	if (cJSON_IsNumber(v)) {
		if (v->valuestring != NULL)
			return v->valuestring;
		x = v->valuedouble;
		if (x == floor(x) && fabs(x) < 9e15)
			snprintf(buf, len, "%" PRId64, (int64_t)x);
		else
			snprintf(buf, len, "%.17g", x);
		return buf;
	}
	if (cJSON_IsBool(v)) {
		if (v->valuestring != NULL)
			return v->valuestring;
		return cJSON_IsTrue(v) ? "true" : "false";
	}
	return NULL;
}

/*
 * A string field's text, borrowed from the tree or written into buf
 * (len bytes) for a number; NULL when absent, of another type (an
 * error) or after an error.
 */
static const char *
str_text(struct dec *d, const cJSON *obj, const char *field, int required,
    char *buf, size_t len)
{
	const cJSON	*v = get(obj, field);
	const char	*t;

	if (d->failed)
		return NULL;
	if (v == NULL) {
		if (required)
			dec_fail(d, field, "required field is missing");
		return NULL;
	}
	if ((t = scalar_text(v, buf, len)) == NULL) {
		dec_fail(d, field, "expected a string, found %s", type_name(v));
		return NULL;
	}
	return t;
}

/* A string field copied into the arena (intern: shared copy). */
static const char *
str_field(struct dec *d, const cJSON *obj, const char *field, int required,
    int intern)
{
	const char	*t;
	char		 buf[64];

	if ((t = str_text(d, obj, field, required, buf, sizeof buf)) == NULL)
		return NULL;
	if (intern)
		return kube_snapshot_intern(d->s, t);
	return dra_arena_strdup(&d->s->arena, t);
}

static int64_t
int_field(struct dec *d, const cJSON *obj, const char *field, int64_t def)
{
	const cJSON	*v = get(obj, field);
	char		*end;
	long long	 n;

	if (d->failed || v == NULL)
		return def;
	if (cJSON_IsNumber(v)) {
		if (v->valuedouble != floor(v->valuedouble) ||
		    fabs(v->valuedouble) > 9.2e18) {
			dec_fail(d, field, "expected an integer");
			return def;
		}
		return (int64_t)v->valuedouble;
	}
	if (cJSON_IsString(v)) {
		n = strtoll(v->valuestring, &end, 10);
		if (end != v->valuestring && *end == '\0')
			return n;
	}
	dec_fail(d, field, "expected an integer, found %s", type_name(v));
	return def;
}

static int
bool_field(struct dec *d, const cJSON *obj, const char *field)
{
	const cJSON	*v = get(obj, field);

	if (d->failed || v == NULL)
		return 0;
	if (cJSON_IsBool(v))
		return cJSON_IsTrue(v);
	if (cJSON_IsString(v)) {
		if (strcmp(v->valuestring, "true") == 0)
			return 1;
		if (strcmp(v->valuestring, "false") == 0)
			return 0;
	}
	dec_fail(d, field, "expected a boolean, found %s", type_name(v));
	return 0;
}

/* The field as an object or list; a wrong type fails. */
static const cJSON *
obj_field(struct dec *d, const cJSON *obj, const char *field)
{
	const cJSON	*v = get(obj, field);

	if (d->failed || v == NULL)
		return NULL;
	if (!cJSON_IsObject(v)) {
		dec_fail(d, field, "expected an object, found %s",
		    type_name(v));
		return NULL;
	}
	return v;
}

static const cJSON *
list_field(struct dec *d, const cJSON *obj, const char *field, size_t *n)
{
	const cJSON	*v = get(obj, field);
	int		 size;

	*n = 0;
	if (d->failed || v == NULL)
		return NULL;
	if (!cJSON_IsArray(v)) {
		dec_fail(d, field, "expected a list, found %s", type_name(v));
		return NULL;
	}
	size = cJSON_GetArraySize(v);
	if (size > DEC_MAX_ITEMS) {
		dec_fail(d, field, "more than %d entries", DEC_MAX_ITEMS);
		return NULL;
	}
	*n = (size_t)size;
	return v;
}

static void
quantity_value(struct dec *d, const cJSON *v, const char *field,
    struct kube_quantity *q)
{
	const char	*t;
	char		 buf[64], trimmed[256];
	size_t		 n;
	struct dra_err	 qerr;

	if (d->failed)
		return;
	if ((t = scalar_text(v, buf, sizeof buf)) == NULL ||
	    cJSON_IsBool(v)) {
		dec_fail(d, field, "expected a quantity, found %s",
		    type_name(v));
		return;
	}
	/* Quantity.UnmarshalJSON trims white space before parsing. */
	while (*t != '\0' && strchr(" \t\n\v\f\r", *t) != NULL)
		t++;
	n = strlen(t);
	while (n > 0 && strchr(" \t\n\v\f\r", t[n - 1]) != NULL)
		n--;
	if (t[n] != '\0') {
		if (n >= sizeof trimmed) {
			dec_fail(d, field, "quantity of more than %zu "
			    "characters", sizeof trimmed - 1);
			return;
		}
		memcpy(trimmed, t, n);
		trimmed[n] = '\0';
		t = trimmed;
	}
	if (kube_quantity_parse(t, q, &qerr) != KUBE_OK) {
		dec_fail(d, field, "%s", qerr.msg);
		return;
	}
	q->text = kube_snapshot_intern(d->s, t);
}

/* {value: Q} (counters, capacity) at field of obj. */
static void
quantity_field(struct dec *d, const cJSON *obj, const char *field,
    struct kube_quantity *q)
{
	const cJSON	*v = get(obj, field);

	if (d->failed)
		return;
	if (v == NULL) {
		dec_fail(d, field, "required field is missing");
		return;
	}
	quantity_value(d, v, field, q);
}

static const char **
str_list(struct dec *d, const cJSON *obj, const char *field, size_t *n)
{
	const cJSON	*l, *v;
	const char     **out;
	const char	*t;
	char		 buf[64];
	size_t		 i = 0, save = d->plen;

	if ((l = list_field(d, obj, field, n)) == NULL || *n == 0)
		return NULL;
	out = dra_arena_calloc(&d->s->arena, *n, sizeof *out);
	cJSON_ArrayForEach(v, l) {
		if ((t = scalar_text(v, buf, sizeof buf)) == NULL) {
			dec_push(d, ".%s[%zu]", field, i);
			dec_fail(d, NULL, "expected a string, found %s",
			    type_name(v));
			dec_pop(d, save);
			return NULL;
		}
		out[i++] = kube_snapshot_intern(d->s, t);
	}
	return out;
}

/* A map of string to scalar (labels, annotations, quota hard). */
static struct kube_kv *
kv_map(struct dec *d, const cJSON *obj, const char *field, size_t *n)
{
	const cJSON	*m, *v;
	struct kube_kv	*out;
	const char	*t;
	char		 buf[64];
	size_t		 i = 0;

	*n = 0;
	if ((m = obj_field(d, obj, field)) == NULL)
		return NULL;
	*n = (size_t)cJSON_GetArraySize(m);
	if (*n == 0)
		return NULL;
	out = dra_arena_calloc(&d->s->arena, *n, sizeof *out);
	cJSON_ArrayForEach(v, m) {
		if ((t = scalar_text(v, buf, sizeof buf)) == NULL) {
			dec_fail(d, field, "value of \"%s\": expected a "
			    "string, found %s", v->string, type_name(v));
			return NULL;
		}
		out[i].key = kube_snapshot_intern(d->s, v->string);
		out[i].value = dra_arena_strdup(&d->s->arena, t);
		i++;
	}
	return out;
}

/* The n digits at p as a number, or -1. */
static int
digits(const char *p, int n)
{
	int	v = 0, i;

	for (i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -1;
		v = v * 10 + (p[i] - '0');
	}
	return v;
}

/*
 * Days from 1970-01-01 to year y, month m (1-12), day d of the
 * proleptic Gregorian calendar; d (and the clock fields the caller
 * adds) may run past the month's end, as timegm() lets them.  From
 * Howard Hinnant's days_from_civil.
 */
static int64_t
civil_days(int64_t y, int m, int d)
{
	int64_t	era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/*
 * RFC 3339 as the API server writes it; 0 when absent or odd.  The
 * text is read in place ("YYYY-MM-DDTHH:MM:SS" by hand, the common
 * case; anything else through sscanf and timegm, as before).
 */
static int64_t
time_field(struct dec *d, const cJSON *obj, const char *field)
{
	const char	*t;
	char		 buf[64];
	struct tm	 tm;
	int		 y, mo, da, h, mi, se;

	if ((t = str_text(d, obj, field, 0, buf, sizeof buf)) == NULL)
		return 0;
	if (strnlen(t, 19) == 19 && t[4] == '-' && t[7] == '-' &&
	    t[10] == 'T' && t[13] == ':' && t[16] == ':' &&
	    (y = digits(t, 4)) >= 0 && (mo = digits(t + 5, 2)) >= 1 &&
	    mo <= 12 && (da = digits(t + 8, 2)) >= 0 &&
	    (h = digits(t + 11, 2)) >= 0 && (mi = digits(t + 14, 2)) >= 0 &&
	    (se = digits(t + 17, 2)) >= 0)
		return ((civil_days(y, mo, da) * 24 + h) * 60 + mi) * 60 + se;
	memset(&tm, 0, sizeof tm);
	if (sscanf(t, "%4d-%2d-%2dT%2d:%2d:%2d", &tm.tm_year, &tm.tm_mon,
	    &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6)
		return 0;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (int64_t)timegm(&tm);
}

static void
decode_meta(struct dec *d, const cJSON *obj, struct kube_meta *m,
    int namespaced)
{
	const cJSON	*md, *l, *v;
	size_t		 n, i = 0, save;

	save = d->plen;
	dec_push(d, ".metadata");
	md = obj_field(d, obj, "metadata");
	if (md == NULL) {
		dec_pop(d, save);
		dec_fail(d, "metadata", "required field is missing");
		return;
	}
	m->name = str_field(d, md, "name", 1, 0);
	m->namespace = str_field(d, md, "namespace", 0, 1);
	if (namespaced && m->namespace == NULL)
		m->namespace = kube_snapshot_intern(d->s, "default");
	if (!namespaced)
		m->namespace = NULL;
	m->uid = str_field(d, md, "uid", 0, 0);
	m->resource_version = str_field(d, md, "resourceVersion", 0, 0);
	m->generation = int_field(d, md, "generation", 0);
	m->created = time_field(d, md, "creationTimestamp");
	m->deleted = time_field(d, md, "deletionTimestamp");
	m->labels = kv_map(d, md, "labels", &m->nlabels);
	m->annotations = kv_map(d, md, "annotations", &m->nannotations);
	if ((l = list_field(d, md, "ownerReferences", &n)) != NULL &&
	    n > 0) {
		m->owners = dra_arena_calloc(&d->s->arena, n, sizeof
		    *m->owners);
		cJSON_ArrayForEach(v, l) {
			m->owners[i].kind = str_field(d, v, "kind", 0, 1);
			m->owners[i].name = str_field(d, v, "name", 0, 0);
			m->owners[i].uid = str_field(d, v, "uid", 0, 0);
			i++;
		}
		m->nowners = n;
	}
	dec_pop(d, save);
}

/*
 * The scalar values of a NodeSelectorRequirement, as text; anything
 * else is skipped, as the summary always did (the API server refuses
 * such a selector anyway).
 */
static const char **
selector_values(struct dec *d, const cJSON *vals, size_t *n)
{
	const cJSON	 *v;
	const char	**out, *t;
	char		  buf[64];
	size_t		  max;

	*n = 0;
	if (!cJSON_IsArray(vals) || (max = (size_t)cJSON_GetArraySize(vals))
	    == 0)
		return NULL;
	out = dra_arena_calloc(&d->s->arena, max, sizeof *out);
	cJSON_ArrayForEach(v, vals) {
		if ((t = scalar_text(v, buf, sizeof buf)) != NULL)
			out[(*n)++] = kube_snapshot_intern(d->s, t);
	}
	return out;
}

/*
 * A core NodeSelector.  single_node is set for the one-term
 * "metadata.name In [X]" form that allocations and per-node slices use.
 */
static struct kube_node_selector *
decode_node_selector(struct dec *d, const cJSON *ns)
{
	struct kube_node_selector	*sel;
	struct dra_buf			 b;
	const cJSON			*terms, *t, *e, *vals, *v;
	const char			*kinds[2] = { "matchExpressions",
					    "matchFields" };
	const char			*key, *op, *single = NULL;
	struct kube_node_selector_term	*term;
	struct kube_node_selector_req	*req;
	size_t				 nterms, n, nreq = 0, nr, ri;
	int				 k, ti = 0, ei;

	terms = list_field(d, ns, "nodeSelectorTerms", &nterms);
	if (d->failed)
		return NULL;
	sel = dra_arena_alloc(&d->s->arena, sizeof *sel);
	if (nterms > 0) {
		sel->terms = dra_arena_calloc(&d->s->arena, nterms,
		    sizeof *sel->terms);
		sel->nterms = nterms;
	}
	dra_buf_init(&b, 4096);
	cJSON_ArrayForEach(t, terms) {
		term = &sel->terms[ti];
		if (ti++ > 0)
			dra_buf_adds(&b, " || ");
		ei = 0;
		for (k = 0; k < 2; k++) {
			nr = cJSON_IsArray(get(t, kinds[k])) ?
			    (size_t)cJSON_GetArraySize(get(t, kinds[k])) : 0;
			req = nr > 0 ? dra_arena_calloc(&d->s->arena, nr,
			    sizeof *req) : NULL;
			if (k == 0) {
				term->exprs = req;
				term->nexprs = nr;
			} else {
				term->fields = req;
				term->nfields = nr;
			}
			ri = 0;
			cJSON_ArrayForEach(e, get(t, kinds[k])) {
				key = str_field(d, e, "key", 0, 1);
				op = str_field(d, e, "operator", 0, 1);
				vals = get(e, "values");
				if (ri < nr) {
					req[ri].key = key;
					req[ri].op = op;
					req[ri].values = selector_values(d,
					    vals, &req[ri].nvalues);
					ri++;
				}
				nreq++;
				dra_buf_addf(&b, "%s%s %s", ei++ > 0 ? ", " :
				    "", key ? key : "?", op ? op : "?");
				n = 0;
				if (cJSON_IsArray(vals)) {
					dra_buf_adds(&b, " [");
					cJSON_ArrayForEach(v, vals) {
						if (cJSON_IsString(v))
							dra_buf_addf(&b, "%s%s",
							    n++ ? "," : "",
							    v->valuestring);
					}
					dra_buf_adds(&b, "]");
				}
				if (k == 1 && key != NULL && op != NULL &&
				    strcmp(key, "metadata.name") == 0 &&
				    strcmp(op, "In") == 0 && n == 1)
					single = cJSON_GetArrayItem(vals,
					    0)->valuestring;
			}
		}
	}
	if (nterms == 1 && nreq == 1 && single != NULL)
		sel->single_node = kube_snapshot_intern(d->s, single);
	sel->summary = dra_arena_strdup(&d->s->arena, dra_buf_str(&b));
	dra_buf_release(&b);
	return sel;
}

static void
split_qualified(struct dec *d, const char *name, const char *driver,
    const char **domain, const char **id)
{
	const char	*slash = strrchr(name, '/');

	if (slash == NULL) {
		*domain = kube_snapshot_intern(d->s, driver ? driver : "");
		*id = kube_snapshot_intern(d->s, name);
	} else {
		*domain = kube_snapshot_intern_n(d->s, name,
		    (size_t)(slash - name));
		*id = kube_snapshot_intern(d->s, slash + 1);
	}
}

static void
decode_attrs(struct dec *d, const cJSON *body, const char *driver,
    struct kube_device *dev)
{
	static const struct {
		const char		*key;
		enum kube_attr_type	 type;
	} forms[] = {
		{ "int", KUBE_ATTR_INT }, { "bool", KUBE_ATTR_BOOL },
		{ "string", KUBE_ATTR_STRING },
		{ "version", KUBE_ATTR_VERSION },
		{ "ints", KUBE_ATTR_INTS }, { "bools", KUBE_ATTR_BOOLS },
		{ "strings", KUBE_ATTR_STRINGS },
		{ "versions", KUBE_ATTR_VERSIONS },
	};
	const cJSON		*m, *a;
	struct kube_attr	*at;
	size_t			 i = 0, f, save;
	int			 found;

	if ((m = obj_field(d, body, "attributes")) == NULL)
		return;
	dev->nattrs = (size_t)cJSON_GetArraySize(m);
	if (dev->nattrs == 0)
		return;
	dev->attrs = dra_arena_calloc(&d->s->arena, dev->nattrs,
	    sizeof *dev->attrs);
	save = d->plen;
	cJSON_ArrayForEach(a, m) {
		at = &dev->attrs[i++];
		dec_push(d, ".attributes[%s]", a->string);
		split_qualified(d, a->string, driver, &at->domain, &at->id);
		found = 0;
		for (f = 0; f < sizeof forms / sizeof forms[0]; f++) {
			if (get(a, forms[f].key) == NULL)
				continue;
			found = 1;
			at->type = forms[f].type;
			switch (at->type) {
			case KUBE_ATTR_INT:
				at->i = int_field(d, a, "int", 0);
				break;
			case KUBE_ATTR_BOOL:
				at->i = bool_field(d, a, "bool");
				break;
			case KUBE_ATTR_STRING:
				at->s = str_field(d, a, "string", 1, 1);
				break;
			case KUBE_ATTR_VERSION:
				at->s = str_field(d, a, "version", 1, 1);
				break;
			default:
				at->list = str_list(d, a, forms[f].key,
				    &at->nlist);
				break;
			}
			break;
		}
		if (!found)
			dec_fail(d, NULL, "expected one of int, bool, string, "
			    "version");
		dec_pop(d, save);
	}
}

static struct kube_request_policy *
decode_policy(struct dec *d, const cJSON *p)
{
	struct kube_request_policy	*rp;
	const cJSON			*vv, *v, *r;
	size_t				 i = 0;

	rp = dra_arena_alloc(&d->s->arena, sizeof *rp);
	if (get(p, "default") != NULL) {
		rp->has_default = 1;
		quantity_field(d, p, "default", &rp->def);
	}
	if ((vv = list_field(d, p, "validValues", &rp->nvalid_values)) !=
	    NULL && rp->nvalid_values > 0) {
		rp->valid_values = dra_arena_calloc(&d->s->arena,
		    rp->nvalid_values, sizeof *rp->valid_values);
		cJSON_ArrayForEach(v, vv)
			quantity_value(d, v, "validValues",
			    &rp->valid_values[i++]);
	}
	if ((r = obj_field(d, p, "validRange")) != NULL) {
		rp->has_range = 1;
		if (get(r, "min") != NULL)
			quantity_field(d, r, "min", &rp->min);
		if ((rp->has_max = get(r, "max") != NULL))
			quantity_field(d, r, "max", &rp->max);
		if ((rp->has_step = get(r, "step") != NULL))
			quantity_field(d, r, "step", &rp->step);
	}
	return rp;
}

static void
decode_capacity(struct dec *d, const cJSON *body, const char *driver,
    struct kube_device *dev)
{
	const cJSON		*m, *c, *p;
	struct kube_capacity	*cap;
	size_t			 i = 0, save;

	if ((m = obj_field(d, body, "capacity")) == NULL)
		return;
	dev->ncapacity = (size_t)cJSON_GetArraySize(m);
	if (dev->ncapacity == 0)
		return;
	dev->capacity = dra_arena_calloc(&d->s->arena, dev->ncapacity,
	    sizeof *dev->capacity);
	save = d->plen;
	cJSON_ArrayForEach(c, m) {
		cap = &dev->capacity[i++];
		dec_push(d, ".capacity[%s]", c->string);
		split_qualified(d, c->string, driver, &cap->domain, &cap->id);
		quantity_field(d, c, "value", &cap->value);
		if ((p = obj_field(d, c, "requestPolicy")) != NULL)
			cap->policy = decode_policy(d, p);
		dec_pop(d, save);
	}
}

static struct kube_counter *
decode_counters(struct dec *d, const cJSON *obj, size_t *n)
{
	const cJSON		*m, *c;
	struct kube_counter	*out;
	size_t			 i = 0, save = d->plen;

	*n = 0;
	if ((m = obj_field(d, obj, "counters")) == NULL)
		return NULL;
	*n = (size_t)cJSON_GetArraySize(m);
	if (*n == 0)
		return NULL;
	out = dra_arena_calloc(&d->s->arena, *n, sizeof *out);
	cJSON_ArrayForEach(c, m) {
		dec_push(d, ".counters[%s]", c->string);
		out[i].name = kube_snapshot_intern(d->s, c->string);
		quantity_field(d, c, "value", &out[i].value);
		dec_pop(d, save);
		i++;
	}
	return out;
}

static enum kube_taint_effect
taint_effect(const char *e)
{
	if (e == NULL || strcmp(e, "None") == 0)
		return KUBE_TAINT_NONE;
	if (strcmp(e, "NoSchedule") == 0)
		return KUBE_TAINT_NO_SCHEDULE;
	if (strcmp(e, "NoExecute") == 0)
		return KUBE_TAINT_NO_EXECUTE;
	return KUBE_TAINT_UNKNOWN;
}

static void
decode_taint(struct dec *d, const cJSON *t, struct kube_taint *out)
{
	out->key = str_field(d, t, "key", 1, 1);
	out->value = str_field(d, t, "value", 0, 1);
	out->effect_text = str_field(d, t, "effect", 1, 1);
	out->effect = taint_effect(out->effect_text);
	out->time_added = str_field(d, t, "timeAdded", 0, 0);
	if (out->effect == KUBE_TAINT_UNKNOWN && !d->failed)
		kube_snapshot_warn(d->s, d->what, "%s.effect: unknown taint "
		    "effect \"%s\" (treated as None)", dec_path(d),
		    out->effect_text);
}

/* Warn that a v1 object carries a v1beta1 field: the server rejects it. */
static void
beta_field_in_v1(struct dec *d, const char *field, const char *fix,
    const char **rejected)
{
	char	msg[768];

	snprintf(msg, sizeof msg, "%s%s%s: v1beta1 field in a %s object "
	    "(the API server rejects it: strict decoding error: unknown "
	    "field; %s)", dec_path(d), d->plen > 0 ? "." : "", field,
	    d->api_version, fix);
	kube_snapshot_warn(d->s, d->what, "%s", msg);
	if (*rejected == NULL)
		*rejected = dra_arena_strdup(&d->s->arena, msg);
}

static void
decode_device(struct dec *d, const cJSON *dj, struct kube_slice *sl,
    struct kube_device *dev)
{
	const cJSON	*body = dj, *l, *c, *ns;
	size_t		 n, i, save = d->plen;

	dev->slice = sl;
	dev->name = str_field(d, dj, "name", 1, 0);
	if (get(dj, "basic") != NULL) {
		if (!d->v1beta1)
			beta_field_in_v1(d, "basic", "in v1 the device's "
			    "fields sit directly on the device",
			    &sl->rejected);
		body = obj_field(d, dj, "basic");
		dec_push(d, ".basic");
	}
	decode_attrs(d, body, sl->driver, dev);
	decode_capacity(d, body, sl->driver, dev);
	if ((l = list_field(d, body, "consumesCounters", &n)) != NULL &&
	    n > 0) {
		dev->consumes = dra_arena_calloc(&d->s->arena, n,
		    sizeof *dev->consumes);
		dev->nconsumes = n;
		i = 0;
		cJSON_ArrayForEach(c, l) {
			size_t s2 = d->plen;

			dec_push(d, ".consumesCounters[%zu]", i);
			dev->consumes[i].counter_set = str_field(d, c,
			    "counterSet", 1, 1);
			dev->consumes[i].counters = decode_counters(d, c,
			    &dev->consumes[i].ncounters);
			dev->consumes[i].compat_groups = str_list(d, c,
			    "compatibilityGroups",
			    &dev->consumes[i].ncompat_groups);
			dec_pop(d, s2);
			i++;
		}
	}
	if ((l = list_field(d, body, "taints", &n)) != NULL && n > 0) {
		dev->taints = dra_arena_calloc(&d->s->arena, n,
		    sizeof *dev->taints);
		dev->ntaints = dev->nslice_taints = n;
		i = 0;
		cJSON_ArrayForEach(c, l) {
			size_t s2 = d->plen;

			dec_push(d, ".taints[%zu]", i);
			decode_taint(d, c, &dev->taints[i++]);
			dec_pop(d, s2);
		}
	}
	dev->node_name = str_field(d, body, "nodeName", 0, 1);
	dev->all_nodes = bool_field(d, body, "allNodes");
	if ((ns = obj_field(d, body, "nodeSelector")) != NULL)
		dev->node_selector = decode_node_selector(d, ns);
	dev->allow_multiple = bool_field(d, body, "allowMultipleAllocations");
	dev->binds_to_node = bool_field(d, body, "bindsToNode");
	dev->binding_conditions = str_list(d, body, "bindingConditions",
	    &dev->nbinding_conditions);
	dec_pop(d, save);
}

static void
decode_slice(struct dec *d, const cJSON *obj)
{
	struct kube_slice	*sl;
	const cJSON		*spec, *pool, *l, *c, *ns;
	size_t			 n, i, save;

	sl = dra_arena_alloc(&d->s->arena, sizeof *sl);
	sl->api_version = d->api_version;
	decode_meta(d, obj, &sl->meta, 0);
	dec_push(d, ".spec");
	if ((spec = obj_field(d, obj, "spec")) == NULL) {
		dec_fail(d, NULL, "required field is missing");
		return;
	}
	sl->driver = str_field(d, spec, "driver", 1, 1);
	save = d->plen;
	dec_push(d, ".pool");
	if ((pool = obj_field(d, spec, "pool")) == NULL)
		dec_fail(d, NULL, "required field is missing");
	sl->pool_name = str_field(d, pool, "name", 1, 1);
	sl->generation = int_field(d, pool, "generation", 0);
	sl->slice_count = int_field(d, pool, "resourceSliceCount", 1);
	dec_pop(d, save);
	sl->node_name = str_field(d, spec, "nodeName", 0, 1);
	sl->all_nodes = bool_field(d, spec, "allNodes");
	sl->per_device_node_selection = bool_field(d, spec,
	    "perDeviceNodeSelection");
	if ((ns = obj_field(d, spec, "nodeSelector")) != NULL)
		sl->node_selector = decode_node_selector(d, ns);

	if ((l = list_field(d, spec, "sharedCounters", &n)) != NULL &&
	    n > 0) {
		sl->counter_sets = dra_arena_calloc(&d->s->arena, n,
		    sizeof *sl->counter_sets);
		sl->ncounter_sets = n;
		i = 0;
		cJSON_ArrayForEach(c, l) {
			dec_push(d, ".sharedCounters[%zu]", i);
			sl->counter_sets[i].slice = sl;
			sl->counter_sets[i].name = str_field(d, c, "name", 1,
			    1);
			sl->counter_sets[i].counters = decode_counters(d, c,
			    &sl->counter_sets[i].ncounters);
			dec_pop(d, save);
			i++;
		}
	}
	if ((l = list_field(d, spec, "devices", &n)) != NULL && n > 0) {
		sl->devices = dra_arena_calloc(&d->s->arena, n,
		    sizeof *sl->devices);
		sl->ndevices = n;
		i = 0;
		cJSON_ArrayForEach(c, l) {
			dec_push(d, ".devices[%zu]", i);
			decode_device(d, c, sl, &sl->devices[i++]);
			dec_pop(d, save);
		}
	}
	if (!d->failed)
		KUBE_VEC_PUSH(&d->s->slices, sl);
}

static const char *const dec_request_flat[] = {
	"deviceClassName", "selectors", "allocationMode", "count",
	"adminAccess", "tolerations", "capacity", NULL
};

/* Fields of an ExactDeviceRequest or DeviceSubRequest at obj. */
static void
decode_device_request(struct dec *d, const cJSON *obj,
    struct kube_device_request *r)
{
	const cJSON	*l, *v, *cap, *reqs;
	size_t		 n, i = 0, save = d->plen;

	r->class_name = str_field(d, obj, "deviceClassName", 0, 1);
	if ((l = list_field(d, obj, "selectors", &n)) != NULL && n > 0) {
		r->selectors = dra_arena_calloc(&d->s->arena, n,
		    sizeof *r->selectors);
		r->nselectors = n;
		cJSON_ArrayForEach(v, l) {
			dec_push(d, ".selectors[%zu].cel", i);
			r->selectors[i++] = str_field(d, get(v, "cel"),
			    "expression", 1, 1);
			dec_pop(d, save);
		}
	}
	r->mode_text = str_field(d, obj, "allocationMode", 0, 1);
	if (r->mode_text == NULL || strcmp(r->mode_text, "ExactCount") == 0)
		r->mode = KUBE_MODE_EXACT_COUNT;
	else if (strcmp(r->mode_text, "All") == 0)
		r->mode = KUBE_MODE_ALL;
	else {
		r->mode = KUBE_MODE_UNKNOWN;
		if (!d->failed)
			kube_snapshot_warn(d->s, d->what, "%s.allocationMode: "
			    "unknown allocation mode \"%s\" (shown, not "
			    "evaluated)", dec_path(d), r->mode_text);
	}
	if (r->mode_text == NULL)
		r->mode_text = "ExactCount";
	r->count = int_field(d, obj, "count",
	    r->mode == KUBE_MODE_EXACT_COUNT ? 1 : 0);
	r->admin_access = bool_field(d, obj, "adminAccess");
	if ((l = list_field(d, obj, "tolerations", &n)) != NULL && n > 0) {
		r->tolerations = dra_arena_calloc(&d->s->arena, n,
		    sizeof *r->tolerations);
		r->ntolerations = n;
		i = 0;
		cJSON_ArrayForEach(v, l) {
			struct kube_toleration *t = &r->tolerations[i];

			dec_push(d, ".tolerations[%zu]", i++);
			t->key = str_field(d, v, "key", 0, 1);
			t->operator = str_field(d, v, "operator", 0, 1);
			if (t->operator == NULL)
				t->operator = "Equal";
			t->value = str_field(d, v, "value", 0, 1);
			t->effect = str_field(d, v, "effect", 0, 1);
			t->seconds = int_field(d, v, "tolerationSeconds", -1);
			dec_pop(d, save);
		}
	}
	if ((cap = obj_field(d, obj, "capacity")) != NULL &&
	    (reqs = obj_field(d, cap, "requests")) != NULL) {
		n = (size_t)cJSON_GetArraySize(reqs);
		if (n > 0) {
			r->capacity = dra_arena_calloc(&d->s->arena, n,
			    sizeof *r->capacity);
			r->ncapacity = n;
		}
		i = 0;
		cJSON_ArrayForEach(v, reqs) {
			dec_push(d, ".capacity.requests");
			split_qualified(d, v->string, NULL,
			    &r->capacity[i].domain, &r->capacity[i].id);
			quantity_value(d, v, v->string, &r->capacity[i].value);
			dec_pop(d, save);
			i++;
		}
	}
}

static void
decode_claim_spec(struct dec *d, const cJSON *spec,
    struct kube_claim_spec *cs, const char **rejected)
{
	const cJSON		*devs, *l, *v, *e, *fa;
	struct kube_request	*rq;
	size_t			 n, i = 0, j, k, save;

	dec_push(d, ".devices");
	save = d->plen;
	devs = obj_field(d, spec, "devices");
	if ((l = list_field(d, devs, "requests", &n)) != NULL && n > 0) {
		cs->requests = dra_arena_calloc(&d->s->arena, n,
		    sizeof *cs->requests);
		cs->nrequests = n;
		cJSON_ArrayForEach(v, l) {
			rq = &cs->requests[i];
			dec_push(d, ".requests[%zu]", i++);
			rq->name = str_field(d, v, "name", 1, 0);
			e = get(v, "exactly");
			fa = get(v, "firstAvailable");
			if (e != NULL) {
				size_t s2 = d->plen;

				rq->exactly = dra_arena_alloc(&d->s->arena,
				    sizeof *rq->exactly);
				rq->exactly->name = "";
				dec_push(d, ".exactly");
				decode_device_request(d, obj_field(d, v,
				    "exactly"), rq->exactly);
				dec_pop(d, s2);
			} else if (fa == NULL || d->v1beta1 ||
			    get(v, "deviceClassName") != NULL) {
				/* v1beta1: flat fields lifted into exactly. */
				if (!d->v1beta1) {
					for (k = 0; dec_request_flat[k]; k++)
						if (get(v, dec_request_flat[k]))
							beta_field_in_v1(d,
							    dec_request_flat[k],
							    "move it under "
							    "'exactly'", rejected);
				}
				if (fa == NULL) {
					rq->exactly = dra_arena_alloc(
					    &d->s->arena, sizeof *rq->exactly);
					rq->exactly->name = "";
					decode_device_request(d, v,
					    rq->exactly);
				}
			}
			if (fa != NULL) {
				size_t s2 = d->plen, nfa;
				const cJSON *sub;

				fa = list_field(d, v, "firstAvailable", &nfa);
				rq->nfirst_available = nfa;
				if (nfa > 0)
					rq->first_available = dra_arena_calloc(
					    &d->s->arena, nfa,
					    sizeof *rq->first_available);
				j = 0;
				cJSON_ArrayForEach(sub, fa) {
					struct kube_device_request *sr =
					    &rq->first_available[j];

					dec_push(d, ".firstAvailable[%zu]",
					    j++);
					sr->name = str_field(d, sub, "name", 1,
					    0);
					decode_device_request(d, sub, sr);
					dec_pop(d, s2);
				}
			}
			dec_pop(d, save);
		}
	}
	if ((l = list_field(d, devs, "constraints", &n)) != NULL && n > 0) {
		cs->constraints = dra_arena_calloc(&d->s->arena, n,
		    sizeof *cs->constraints);
		cs->nconstraints = n;
		i = 0;
		cJSON_ArrayForEach(v, l) {
			struct kube_constraint *c = &cs->constraints[i];

			dec_push(d, ".constraints[%zu]", i++);
			c->requests = str_list(d, v, "requests",
			    &c->nrequests);
			c->match_attribute = str_field(d, v, "matchAttribute",
			    0, 1);
			c->distinct_attribute = str_field(d, v,
			    "distinctAttribute", 0, 1);
			if (c->match_attribute == NULL &&
			    c->distinct_attribute == NULL && !d->failed) {
				c->unknown = "constraint of unknown type";
				kube_snapshot_warn(d->s, d->what, "%s: "
				    "constraint without matchAttribute or "
				    "distinctAttribute (shown, not evaluated)",
				    dec_path(d));
			}
			dec_pop(d, save);
		}
	}
	list_field(d, devs, "config", &cs->nconfig);
}

static void
decode_result(struct dec *d, const cJSON *v, struct kube_result *r)
{
	const cJSON	*m, *c;
	size_t		 i = 0;

	r->request = str_field(d, v, "request", 1, 1);
	r->driver = str_field(d, v, "driver", 1, 1);
	r->pool = str_field(d, v, "pool", 1, 1);
	r->device = str_field(d, v, "device", 1, 0);
	r->admin_access = bool_field(d, v, "adminAccess");
	r->share_id = str_field(d, v, "shareID", 0, 0);
	if ((m = obj_field(d, v, "consumedCapacity")) != NULL) {
		r->nconsumed = (size_t)cJSON_GetArraySize(m);
		if (r->nconsumed > 0)
			r->consumed = dra_arena_calloc(&d->s->arena,
			    r->nconsumed, sizeof *r->consumed);
		cJSON_ArrayForEach(c, m) {
			split_qualified(d, c->string, r->driver,
			    &r->consumed[i].domain, &r->consumed[i].id);
			quantity_value(d, c, "consumedCapacity",
			    &r->consumed[i].value);
			i++;
		}
	}
}

static void
decode_claim(struct dec *d, const cJSON *obj)
{
	struct kube_claim	*c;
	const cJSON		*spec, *st, *al, *devs, *l, *v, *ns;
	size_t			 n, i = 0, save;

	c = dra_arena_alloc(&d->s->arena, sizeof *c);
	c->api_version = d->api_version;
	decode_meta(d, obj, &c->meta, 1);
	save = d->plen;
	dec_push(d, ".spec");
	spec = obj_field(d, obj, "spec");
	decode_claim_spec(d, spec, &c->spec, &c->rejected);
	dec_pop(d, save);

	dec_push(d, ".status");
	st = obj_field(d, obj, "status");
	if ((al = obj_field(d, st, "allocation")) != NULL) {
		c->allocated = 1;
		dec_push(d, ".allocation.devices");
		devs = obj_field(d, al, "devices");
		if ((l = list_field(d, devs, "results", &n)) != NULL &&
		    n > 0) {
			size_t s2 = d->plen;

			c->results = dra_arena_calloc(&d->s->arena, n,
			    sizeof *c->results);
			c->nresults = n;
			cJSON_ArrayForEach(v, l) {
				dec_push(d, ".results[%zu]", i);
				decode_result(d, v, &c->results[i++]);
				dec_pop(d, s2);
			}
		}
		dec_pop(d, save);
		dec_push(d, ".status.allocation");
		if ((ns = obj_field(d, al, "nodeSelector")) != NULL)
			c->alloc_nodes = decode_node_selector(d, ns);
	}
	dec_pop(d, save);
	dec_push(d, ".status");
	if ((l = list_field(d, st, "reservedFor", &n)) != NULL && n > 0) {
		size_t s2 = d->plen;

		c->reserved = dra_arena_calloc(&d->s->arena, n,
		    sizeof *c->reserved);
		c->nreserved = n;
		i = 0;
		cJSON_ArrayForEach(v, l) {
			dec_push(d, ".reservedFor[%zu]", i);
			c->reserved[i].resource = str_field(d, v, "resource",
			    1, 1);
			c->reserved[i].name = str_field(d, v, "name", 1, 0);
			c->reserved[i].uid = str_field(d, v, "uid", 0, 0);
			dec_pop(d, s2);
			i++;
		}
	}
	dec_pop(d, save);
	if (!d->failed)
		KUBE_VEC_PUSH(&d->s->claims, c);
}

static void
decode_template(struct dec *d, const cJSON *obj)
{
	struct kube_claim_template	*t;
	const cJSON			*spec;
	size_t				 save;

	t = dra_arena_alloc(&d->s->arena, sizeof *t);
	t->api_version = d->api_version;
	decode_meta(d, obj, &t->meta, 1);
	save = d->plen;
	dec_push(d, ".spec.spec");
	spec = obj_field(d, obj_field(d, obj, "spec"), "spec");
	decode_claim_spec(d, spec, &t->spec, &t->rejected);
	dec_pop(d, save);
	if (!d->failed)
		KUBE_VEC_PUSH(&d->s->templates, t);
}

static void
decode_class(struct dec *d, const cJSON *obj)
{
	struct kube_device_class	*c;
	const cJSON			*spec, *l, *v;
	size_t				 n, i = 0, save;

	c = dra_arena_alloc(&d->s->arena, sizeof *c);
	c->api_version = d->api_version;
	decode_meta(d, obj, &c->meta, 0);
	save = d->plen;
	dec_push(d, ".spec");
	spec = obj_field(d, obj, "spec");
	if ((l = list_field(d, spec, "selectors", &n)) != NULL && n > 0) {
		c->selectors = dra_arena_calloc(&d->s->arena, n,
		    sizeof *c->selectors);
		c->nselectors = n;
		cJSON_ArrayForEach(v, l) {
			size_t s2 = d->plen;

			dec_push(d, ".selectors[%zu].cel", i);
			c->selectors[i++] = str_field(d, get(v, "cel"),
			    "expression", 1, 1);
			dec_pop(d, s2);
		}
	}
	list_field(d, spec, "config", &c->nconfig);
	c->extended_resource_name = str_field(d, spec,
	    "extendedResourceName", 0, 1);
	dec_pop(d, save);
	if (!d->failed)
		KUBE_VEC_PUSH(&d->s->classes, c);
}

static void
decode_taint_rule(struct dec *d, const cJSON *obj)
{
	struct kube_taint_rule	*r;
	const cJSON		*spec, *sel, *t;
	size_t			 save;

	r = dra_arena_alloc(&d->s->arena, sizeof *r);
	decode_meta(d, obj, &r->meta, 0);
	save = d->plen;
	dec_push(d, ".spec");
	spec = obj_field(d, obj, "spec");
	if ((sel = get(spec, "deviceSelector")) != NULL) {
		r->has_selector = 1;
		r->driver = str_field(d, sel, "driver", 0, 1);
		r->pool = str_field(d, sel, "pool", 0, 1);
		r->device = str_field(d, sel, "device", 0, 0);
	}
	dec_push(d, ".taint");
	if ((t = obj_field(d, spec, "taint")) == NULL)
		dec_fail(d, NULL, "required field is missing");
	else
		decode_taint(d, t, &r->taint);
	r->taint.rule = r->meta.name;
	dec_pop(d, save);
	if (!d->failed)
		KUBE_VEC_PUSH(&d->s->taint_rules, r);
}

static void
decode_pod(struct dec *d, const cJSON *obj)
{
	struct kube_pod	*p;
	const cJSON	*spec, *st, *l, *v;
	const char	*type, *status;
	size_t		 n, i = 0, j, nst, save;

	spec = get(obj, "spec");
	l = get(spec, "resourceClaims");
	if (!cJSON_IsArray(l) || cJSON_GetArraySize(l) == 0) {
		d->s->ignored++;	/* the model keeps DRA pods only */
		return;
	}
	p = dra_arena_alloc(&d->s->arena, sizeof *p);
	decode_meta(d, obj, &p->meta, 1);
	if (d->failed)
		return;
	save = d->plen;
	dec_push(d, ".spec");
	p->node_name = str_field(d, spec, "nodeName", 0, 1);
	p->node_selector = kv_map(d, spec, "nodeSelector",
	    &p->nnode_selector);
	v = get(get(get(spec, "affinity"), "nodeAffinity"),
	    "requiredDuringSchedulingIgnoredDuringExecution");
	if (v != NULL) {
		size_t s2 = d->plen;

		dec_push(d, ".affinity.nodeAffinity."
		    "requiredDuringSchedulingIgnoredDuringExecution");
		p->affinity = decode_node_selector(d, v);
		dec_pop(d, s2);
	}
	l = list_field(d, spec, "resourceClaims", &n);
	if (l == NULL || n == 0)	/* spec.nodeName and the like failed */
		return;
	p->claims = dra_arena_calloc(&d->s->arena, n, sizeof *p->claims);
	p->nclaims = n;
	cJSON_ArrayForEach(v, l) {
		size_t s2 = d->plen;

		dec_push(d, ".resourceClaims[%zu]", i);
		p->claims[i].name = str_field(d, v, "name", 1, 0);
		p->claims[i].claim_name = str_field(d, v, "resourceClaimName",
		    0, 0);
		p->claims[i].template_name = str_field(d, v,
		    "resourceClaimTemplateName", 0, 0);
		dec_pop(d, s2);
		i++;
	}
	dec_pop(d, save);
	dec_push(d, ".status");
	st = get(obj, "status");
	p->phase = str_field(d, st, "phase", 0, 1);
	if ((l = list_field(d, st, "resourceClaimStatuses", &nst)) != NULL) {
		cJSON_ArrayForEach(v, l) {
			const char *name = str_field(d, v, "name", 0, 0);
			const char *cn = str_field(d, v, "resourceClaimName",
			    0, 0);

			for (j = 0; name != NULL && j < p->nclaims; j++)
				if (strcmp(p->claims[j].name, name) == 0)
					p->claims[j].status_name = cn;
		}
	}
	if ((l = list_field(d, st, "conditions", &nst)) != NULL) {
		cJSON_ArrayForEach(v, l) {
			type = str_field(d, v, "type", 0, 1);
			status = str_field(d, v, "status", 0, 1);
			if (type != NULL && status != NULL &&
			    strcmp(type, "PodScheduled") == 0 &&
			    strcmp(status, "False") == 0)
				p->unschedulable = str_field(d, v, "message",
				    0, 0);
		}
	}
	dec_pop(d, save);
	if (!d->failed)
		KUBE_VEC_PUSH(&d->s->pods, p);
}

static void
decode_node(struct dec *d, const cJSON *obj)
{
	struct kube_node	*nd;
	const cJSON		*st, *l, *v;
	const char		*type, *status;
	size_t			 n, save;

	nd = dra_arena_alloc(&d->s->arena, sizeof *nd);
	nd->ready = -1;		/* no Ready condition: Unknown */
	decode_meta(d, obj, &nd->meta, 0);
	save = d->plen;
	dec_push(d, ".spec");
	nd->unschedulable = bool_field(d, get(obj, "spec"), "unschedulable");
	dec_pop(d, save);
	dec_push(d, ".status");
	st = get(obj, "status");
	nd->allocatable = kv_map(d, st, "allocatable", &nd->nallocatable);
	if ((l = list_field(d, st, "conditions", &n)) != NULL) {
		cJSON_ArrayForEach(v, l) {
			type = str_field(d, v, "type", 0, 1);
			status = str_field(d, v, "status", 0, 1);
			if (type != NULL && status != NULL &&
			    strcmp(type, "Ready") == 0)
				nd->ready = strcmp(status, "True") == 0 ? 1 :
				    strcmp(status, "False") == 0 ? 0 : -1;
		}
	}
	dec_pop(d, save);
	if (!d->failed)
		KUBE_VEC_PUSH(&d->s->nodes, nd);
}

static void
decode_namespace(struct dec *d, const cJSON *obj)
{
	struct kube_namespace	*ns;

	ns = dra_arena_alloc(&d->s->arena, sizeof *ns);
	decode_meta(d, obj, &ns->meta, 0);
	if (!d->failed)
		KUBE_VEC_PUSH(&d->s->namespaces, ns);
}

static void
decode_quota(struct dec *d, const cJSON *obj)
{
	struct kube_quota	*q;
	size_t			 save;

	q = dra_arena_alloc(&d->s->arena, sizeof *q);
	decode_meta(d, obj, &q->meta, 1);
	save = d->plen;
	dec_push(d, ".spec");
	q->hard = kv_map(d, get(obj, "spec"), "hard", &q->nhard);
	dec_pop(d, save);
	dec_push(d, ".status");
	q->used = kv_map(d, get(obj, "status"), "used", &q->nused);
	dec_pop(d, save);
	if (!d->failed)
		KUBE_VEC_PUSH(&d->s->quotas, q);
}

static const struct {
	const char	*kind;
	int		 dra;		/* resource.k8s.io kind */
	void		(*decode)(struct dec *, const cJSON *);
} decoders[] = {
	{ "DeviceClass", 1, decode_class },
	{ "DeviceTaintRule", 1, decode_taint_rule },
	{ "Namespace", 0, decode_namespace },
	{ "Node", 0, decode_node },
	{ "Pod", 0, decode_pod },
	{ "ResourceClaim", 1, decode_claim },
	{ "ResourceClaimTemplate", 1, decode_template },
	{ "ResourceQuota", 0, decode_quota },
	{ "ResourceSlice", 1, decode_slice },
};

int
kube_snapshot_add(struct kube_snapshot *s, const cJSON *obj,
    const char *list_api_version, const char *list_kind,
    struct dra_err *err)
{
	struct dec	 d;
	const cJSON	*v, *items, *item;
	const char	*api, *kind, *name, *ns, *version;
	char		 what[320], lower[64];
	size_t		 i, k, idx = 0;
	int		 rc;

	if (!cJSON_IsObject(obj))
		return dra_err_set(err, KUBE_E_PARSE,
		    "expected an object, found %s", type_name(obj));
	v = get(obj, "apiVersion");
	api = cJSON_IsString(v) ? v->valuestring : list_api_version;
	v = get(obj, "kind");
	kind = cJSON_IsString(v) ? v->valuestring : NULL;
	if (kind == NULL && list_kind != NULL) {
		/* "ResourceSliceList" -> "ResourceSlice" */
		k = strlen(list_kind);
		if (k > 4 && strcmp(list_kind + k - 4, "List") == 0 &&
		    k - 4 < sizeof lower) {
			memcpy(lower, list_kind, k - 4);
			lower[k - 4] = '\0';
			kind = lower;
		}
	}
	if (kind == NULL)
		return dra_err_set(err, KUBE_E_PARSE,
		    "object without \"kind\"");
	k = strlen(kind);
	if (strcmp(kind, "List") == 0 || (k > 4 &&
	    strcmp(kind + k - 4, "List") == 0 && get(obj, "items"))) {
		items = get(obj, "items");
		if (items != NULL && !cJSON_IsArray(items))
			return dra_err_set(err, KUBE_E_PARSE,
			    "items: expected a list, found %s",
			    type_name(items));
		cJSON_ArrayForEach(item, items) {
			rc = kube_snapshot_add(s, item, api, kind, err);
			if (rc != KUBE_OK)
				return dra_err_prefix(err, "items[%zu]", idx);
			idx++;
		}
		return KUBE_OK;
	}
	for (i = 0; i < sizeof decoders / sizeof decoders[0]; i++)
		if (strcmp(decoders[i].kind, kind) == 0)
			break;
	if (i == sizeof decoders / sizeof decoders[0] || api == NULL ||
	    kube_snapshot_skips(s, kind)) {
		s->ignored++;
		return KUBE_OK;
	}
	version = strchr(api, '/') ? strchr(api, '/') + 1 : api;
	if (decoders[i].dra) {
		if (strncmp(api, "resource.k8s.io/", 16) != 0) {
			s->ignored++;
			return KUBE_OK;
		}
	} else if (strcmp(api, "v1") != 0) {
		s->ignored++;
		return KUBE_OK;
	}

	v = get(get(obj, "metadata"), "name");
	name = cJSON_IsString(v) ? v->valuestring : "?";
	v = get(get(obj, "metadata"), "namespace");
	ns = cJSON_IsString(v) ? v->valuestring : NULL;
	for (k = 0; kind[k] != '\0' && k < sizeof lower - 1; k++)
		lower[k] = (char)((kind[k] >= 'A' && kind[k] <= 'Z') ?
		    kind[k] - 'A' + 'a' : kind[k]);
	lower[k] = '\0';
	snprintf(what, sizeof what, "%s %s%s%s", lower, ns ? ns : "",
	    ns ? "/" : "", name);

	memset(&d, 0, sizeof d);
	d.s = s;
	d.err = err;
	d.what = what;
	d.api_version = kube_snapshot_intern(s, api);
	d.v1beta1 = strcmp(version, "v1beta1") == 0 ||
	    strcmp(version, "v1alpha3") == 0;
	decoders[i].decode(&d, obj);
	if (d.failed)
		return KUBE_E_PARSE;
	return KUBE_OK;
}
