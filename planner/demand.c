/*
 * demand.c: the demand file of `kubectl dra plan` (see demand.h and
 * docs/PLAN-DEMAND.md for the format).
 *
 * Two passes.  The first builds the document as a small tree in an
 * arena from libyaml's event stream (the approach of kube/client/
 * yaml.c, which the planner may not link): every node keeps the line
 * and column where it starts, aliases point at their anchored node and
 * the document's size with aliases expanded is capped, and scalars
 * remember whether they were plain, since YAML 1.1 resolves only plain
 * scalars to null, booleans and numbers.  The second walks the tree
 * into a struct plan_demand, field by field, naming FILE:LINE:COL and
 * the field path in every error.  Every mapping's keys are checked
 * against the fields its level knows, so a typo is an error, never a
 * default.
 *
 * The result is calloc'd with its arrays sized from the document
 * before they are filled, so plan_demand_free can release a half-read
 * demand on any error; the tree dies with the arena either way.
 */
#include "demand.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "arena.h"
#include "buf.h"
#include "model.h"
#include "xmalloc.h"
#include "yamlscalar.h"
#include "strdist.h"
#include "ydoc.h"

#define DEM_FLD			256		/* a field path */
#define DEM_QUOTE		256		/* a quoted value */
#define DEM_QUOTE_MAX		48		/* bytes of it shown */
#define DEM_MAX_SM		100000		/* needs.sm */

/*
 * PriorityClass values: Kubernetes takes an int32, at most 1e9 for the
 * classes users define.  Negative values are valid there; the planner
 * weighs a replica by max(priority, 0) + 1 (solve.c).
 */
#define DEM_PRIO_MIN		(-2147483647 - 1)
#define DEM_PRIO_MAX		1000000000

/* The reader's state. */
struct dem {
	const char		*file;
	struct dra_err		*err;
	struct dra_arena	 a;
};

static int	 dem_fail(struct dem *, const struct kube_ynode *, const char *,
		    const char *, ...) __attribute__((format(printf, 4, 5)));
static const char *dem_quote(char *, const char *);
static const char *dem_what(char *, const struct kube_ynode *);
static const char *dem_fld(char *, const char *, const char *);
static const char *dem_fldi(char *, const char *, size_t);
static int	 dem_yaml(struct dem *, const char *, size_t,
		    struct kube_ynode **);
static int	 dem_isnull(const struct kube_ynode *);
static const struct kube_ynode *dem_get(const struct kube_ynode *,
		    const char *);
static const struct kube_ynode *dem_opt(const struct kube_ynode *,
		    const char *);
static int	 dem_fields(struct dem *, const struct kube_ynode *,
		    const char *, const char *const *);
static int	 dem_map(struct dem *, const struct kube_ynode *, const char *,
		    const char *const *);
static int	 dem_seq(struct dem *, const struct kube_ynode *, const char *,
		    const char *);
static int	 dem_need(struct dem *, const struct kube_ynode *, const char *,
		    const char *, const struct kube_ynode **);
static int	 dem_str(struct dem *, const struct kube_ynode *, const char *,
		    const char **);
static int	 dem_int(struct dem *, const struct kube_ynode *, const char *,
		    int64_t, int64_t, const char *, int64_t *);
static int	 dem_bool(struct dem *, const struct kube_ynode *, const char *,
		    int *);
static int	 dem_decimal(const char *, double *);
static int	 dem_number(struct dem *, const struct kube_ynode *,
		    const char *, double *);
static int	 dem_ratio(struct dem *, const struct kube_ynode *,
		    const char *, double *);
static int	 dem_duration(struct dem *, const struct kube_ynode *,
		    const char *, double *);
static int	 dem_quantity(struct dem *, const struct kube_ynode *,
		    const char *, int, const char *, int64_t *);
static int64_t	 dem_mib(int64_t);
static int	 dem_label(const char *);
static int	 dem_subdomain(const char *);
static int	 dem_profile_ok(const char *);
static int	 dem_prefix_ok(const char *);
static int	 dem_dup(struct dem *, const struct kube_ynode *, size_t,
		    const char *, const char *, const char *);
static int	 dem_metadata(struct dem *, const struct kube_ynode *);
static int	 dem_policy(struct dem *, const struct kube_ynode *,
		    struct plan_policy *);
static int	 dem_classes(struct dem *, const struct kube_ynode *,
		    struct plan_demand *);
static int	 dem_replicas(struct dem *, const struct kube_ynode *,
		    const char *, struct plan_workload *);
static int	 dem_needs(struct dem *, const struct kube_ynode *,
		    const char *, struct plan_workload *);
static int	 dem_sharing(struct dem *, const struct kube_ynode *,
		    const char *, struct plan_workload *);
static int	 dem_workload(struct dem *, const struct kube_ynode *,
		    const char *, const struct plan_demand *,
		    struct plan_workload *);
static int	 dem_team(struct dem *, const struct kube_ynode *, const char *,
		    const struct plan_demand *, struct plan_team *);
static int	 dem_teams(struct dem *, const struct kube_ynode *,
		    struct plan_demand *);
static int	 dem_doc(struct dem *, const struct kube_ynode *,
		    struct plan_demand *);

static const char *const dem_top_fields[] = { "apiVersion", "kind",
    "metadata", "policy", "priorityClasses", "teams", NULL };
static const char *const dem_metadata_fields[] = { "name", "labels",
    "annotations", NULL };
static const char *const dem_policy_fields[] = { "price", "utilization",
    "repartitionRunning", "solver", "deviceClassPrefix", NULL };
static const char *const dem_price_fields[] = { "perGPUMonth", "currency",
    NULL };
static const char *const dem_util_fields[] = { "target", "ceiling", NULL };
static const char *const dem_solver_fields[] = { "timeLimit", "gap", NULL };
static const char *const dem_class_fields[] = { "name", "value", NULL };
static const char *const dem_team_fields[] = { "namespace", "caps",
    "workloads", NULL };
static const char *const dem_caps_fields[] = { "gpus", "memory", NULL };
static const char *const dem_workload_fields[] = { "name", "replicas",
    "needs", "sharing", "priorityClass", "model", NULL };
static const char *const dem_replicas_fields[] = { "min", "max", NULL };
static const char *const dem_needs_fields[] = { "profile", "gpu", "memory",
    "sm", NULL };
static const char *const dem_sharing_fields[] = { "mode",
    "replicasPerDevice", "memory", NULL };

/*
 * Messages.
 */

/* Record "FILE:LINE:COL: FIELD: message" (no "FIELD: " when fld is ""). */
static int
dem_fail(struct dem *m, const struct kube_ynode *n, const char *fld,
    const char *fmt, ...)
{
	char	msg[DRA_ERR_MSG_MAX];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (fld[0] == '\0')
		return dra_err_set(m->err, KUBE_E_PARSE, "%s:%lu:%lu: %s",
		    m->file, n->line, n->col, msg);
	return dra_err_set(m->err, KUBE_E_PARSE, "%s:%lu:%lu: %s: %s",
	    m->file, n->line, n->col, fld, msg);
}

/*
 * s in double quotes for a message, in buf (DEM_QUOTE bytes): quotes and
 * backslashes escaped, control characters as \xNN, cut after
 * DEM_QUOTE_MAX bytes with "...".  Returns buf.
 */
static const char *
dem_quote(char *buf, const char *s)
{
	size_t		 o = 0, i;
	unsigned char	 c;

	buf[o++] = '"';
	for (i = 0; s[i] != '\0' && i < DEM_QUOTE_MAX; i++) {
		c = (unsigned char)s[i];
		if (c == '"' || c == '\\') {
			buf[o++] = '\\';
			buf[o++] = (char)c;
		} else if (c < 0x20 || c == 0x7f) {
			snprintf(buf + o, DEM_QUOTE - o, "\\x%02x", c);
			o += 4;
		} else
			buf[o++] = (char)c;
	}
	if (s[i] != '\0') {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o++] = '"';
	buf[o] = '\0';
	return buf;
}

/* What n is, for "got ..." in messages: a quoted scalar or its kind. */
static const char *
dem_what(char *buf, const struct kube_ynode *n)
{
	switch (n->type) {
	case KUBE_Y_MAP:
		return "a mapping";
	case KUBE_Y_SEQ:
		return "a list";
	case KUBE_Y_SCALAR:
		break;
	}
	if (dem_isnull(n))
		return "null";
	return dem_quote(buf, n->str);
}

/* "parent.key" (or "key" at the top) into buf (DEM_FLD bytes). */
static const char *
dem_fld(char *buf, const char *parent, const char *key)
{
	int	n;

	if (parent[0] == '\0')
		n = snprintf(buf, DEM_FLD, "%s", key);
	else
		n = snprintf(buf, DEM_FLD, "%s.%s", parent, key);
	if (n < 0)
		buf[0] = '\0';
	return buf;
}

/* "parent[i]" into buf (DEM_FLD bytes). */
static const char *
dem_fldi(char *buf, const char *parent, size_t i)
{
	if (snprintf(buf, DEM_FLD, "%s[%zu]", parent, i) < 0)
		buf[0] = '\0';
	return buf;
}

/*
 * The YAML tree.
 */

/*
 * Parse the one document in text into *root (in m->a), with the shared
 * positioned reader (kube/util/ydoc.h).  A stream with no document, or
 * with a second one, is an error: a demand is one document, and a
 * second one silently ignored would be a surprise.
 */
static int
dem_yaml(struct dem *m, const char *text, size_t len, struct kube_ynode **root)
{
	int	rc;

	rc = kube_yaml_load(m->file, text, len, KUBE_YAML_ONE_DOC |
	    KUBE_YAML_NO_NUL, "a demand file holds one Demand", KUBE_E_PARSE,
	    &m->a, root, m->err);
	if (rc == KUBE_OK && (*root == NULL || dem_isnull(*root))) {
		*root = NULL;
		rc = dra_err_set(m->err, KUBE_E_PARSE,
		    "%s:1:1: the file is empty: expected a document of kind "
		    "%s", m->file, PLAN_DEMAND_KIND);
	}
	return rc;
}

/* Absent, or a plain null ("", "~", "null"). */
static int
dem_isnull(const struct kube_ynode *n)
{
	return kube_ynode_is_null(n);
}

/* The value of key in mapping map, or NULL. */
static const struct kube_ynode *
dem_get(const struct kube_ynode *map, const char *key)
{
	size_t	i;

	if (map == NULL || map->type != KUBE_Y_MAP)
		return NULL;
	for (i = 0; i + 1 < map->n; i += 2)
		if (map->kids[i]->type == KUBE_Y_SCALAR &&
		    strcmp(map->kids[i]->str, key) == 0)
			return map->kids[i + 1];
	return NULL;
}

/* The value of key, or NULL when absent or null (null means absent). */
static const struct kube_ynode *
dem_opt(const struct kube_ynode *map, const char *key)
{
	const struct kube_ynode	*n = dem_get(map, key);

	return dem_isnull(n) ? NULL : n;
}

/*
 * Checking a mapping's fields.
 */

/*
 * Every key of map must be a string naming one of known, at most once.
 * An unknown key is reported at its position with the nearest known
 * name ("did you mean") or the list of known ones.
 */
static int
dem_fields(struct dem *m, const struct kube_ynode *map, const char *fld,
    const char *const *known)
{
	const struct kube_ynode	*k;
	char			 q[DEM_QUOTE], list[DEM_FLD * 2];
	size_t			 i, j, best = SIZE_MAX, dist, o;
	const char		*near = NULL;

	for (i = 0; i + 1 < map->n; i += 2) {
		k = map->kids[i];
		if (k->type != KUBE_Y_SCALAR)
			return dem_fail(m, k, fld, "expected a field name, "
			    "got %s", dem_what(q, k));
		for (j = 0; j < i; j += 2)
			if (strcmp(map->kids[j]->str, k->str) == 0)
				return dem_fail(m, k, fld,
				    "duplicate field %s (first at %lu:%lu)",
				    dem_quote(q, k->str), map->kids[j]->line,
				    map->kids[j]->col);
		for (j = 0; known[j] != NULL; j++)
			if (strcmp(known[j], k->str) == 0)
				break;
		if (known[j] != NULL)
			continue;
		/*
		 * A near name: a few edits away, the start of one
		 * ("priority"), or one with more after it ("memory:2Ti",
		 * a missing space).
		 */
		for (j = 0; known[j] != NULL; j++) {
			dist = dra_strdist(known[j], k->str, 1);
			if ((k->len >= 3 && strncasecmp(known[j], k->str,
			    k->len) == 0) || (strlen(known[j]) >= 3 &&
			    strncasecmp(known[j], k->str,
			    strlen(known[j])) == 0))
				dist = 1;
			if (dist < best) {
				best = dist;
				near = known[j];
			}
		}
		if (near != NULL && (best <= 2 || best * 3 <= strlen(near)) &&
		    best < strlen(near) && best < k->len)
			return dem_fail(m, k, fld, "unknown field %s (did you "
			    "mean \"%s\"?)", dem_quote(q, k->str), near);
		o = 0;
		list[0] = '\0';
		for (j = 0; known[j] != NULL && o < sizeof list; j++)
			o += (size_t)snprintf(list + o, sizeof list - o,
			    "%s%s", j > 0 ? ", " : "", known[j]);
		return dem_fail(m, k, fld, "unknown field %s (known fields: "
		    "%s)", dem_quote(q, k->str), list);
	}
	return KUBE_OK;
}

/* n is a mapping whose fields are among known. */
static int
dem_map(struct dem *m, const struct kube_ynode *n, const char *fld,
    const char *const *known)
{
	char	q[DEM_QUOTE];

	if (n->type != KUBE_Y_MAP)
		return dem_fail(m, n, fld, "expected a mapping, got %s",
		    dem_what(q, n));
	return dem_fields(m, n, fld, known);
}

/* n is a list with at least one item (of what, for the message). */
static int
dem_seq(struct dem *m, const struct kube_ynode *n, const char *fld,
    const char *what)
{
	char	q[DEM_QUOTE];

	if (n->type != KUBE_Y_SEQ)
		return dem_fail(m, n, fld, "expected a list of %s, got %s",
		    what, dem_what(q, n));
	if (n->n == 0)
		return dem_fail(m, n, fld, "expected at least one %s", what);
	return KUBE_OK;
}

/* The value of required field key of map, in *out. */
static int
dem_need(struct dem *m, const struct kube_ynode *map, const char *fld,
    const char *key, const struct kube_ynode **out)
{
	char	f[DEM_FLD];

	*out = dem_get(map, key);
	if (*out == NULL)
		return dem_fail(m, map, dem_fld(f, fld, key),
		    "required field is missing");
	if (dem_isnull(*out))
		return dem_fail(m, *out, dem_fld(f, fld, key),
		    "required, got null");
	return KUBE_OK;
}

/*
 * Scalars.
 */

/* A string without control characters (borrowed from the tree). */
static int
dem_str(struct dem *m, const struct kube_ynode *n, const char *fld,
    const char **out)
{
	char	q[DEM_QUOTE];
	size_t	i;

	if (n->type != KUBE_Y_SCALAR)
		return dem_fail(m, n, fld, "expected a string, got %s",
		    dem_what(q, n));
	for (i = 0; i < n->len; i++)
		if ((unsigned char)n->str[i] < 0x20 || n->str[i] == 0x7f)
			return dem_fail(m, n, fld, "%s holds a control "
			    "character", dem_quote(q, n->str));
	*out = n->str;
	return KUBE_OK;
}

/*
 * A plain integer in [min, max]; what describes the lower bound for the
 * message ("a non-negative integer").
 */
static int
dem_int(struct dem *m, const struct kube_ynode *n, const char *fld,
    int64_t min, int64_t max, const char *what, int64_t *out)
{
	char	q[DEM_QUOTE];
	double	v;
	int	b;

	if (n->type != KUBE_Y_SCALAR || !n->plain ||
	    dra_yaml_resolve(n->str, n->len, &v, &b) != DRA_YAML_NUMBER ||
	    !isfinite(v) || v != floor(v) || v < (double)min)
		return dem_fail(m, n, fld, "expected %s, got %s", what,
		    dem_what(q, n));
	if (v > (double)max)
		return dem_fail(m, n, fld, "%s is above the limit %lld",
		    dem_quote(q, n->str), (long long)max);
	*out = (int64_t)v;
	return KUBE_OK;
}

static int
dem_bool(struct dem *m, const struct kube_ynode *n, const char *fld, int *out)
{
	char	q[DEM_QUOTE];
	double	v;

	if (n->type != KUBE_Y_SCALAR || !n->plain ||
	    dra_yaml_resolve(n->str, n->len, &v, out) != DRA_YAML_BOOL)
		return dem_fail(m, n, fld, "expected true or false, got %s",
		    dem_what(q, n));
	return KUBE_OK;
}

/* s is "12", "12.5", ".5" or "12." (no sign, no exponent). */
static int
dem_decimal(const char *s, double *v)
{
	const char	*p;
	int		 digits = 0, dots = 0;

	for (p = s; *p != '\0'; p++) {
		if (*p >= '0' && *p <= '9')
			digits++;
		else if (*p == '.' && dots++ == 0)
			continue;
		else
			return 0;
	}
	if (digits == 0)
		return 0;
	*v = strtod(s, NULL);
	return isfinite(*v);
}

/* A non-negative number, plain or quoted. */
static int
dem_number(struct dem *m, const struct kube_ynode *n, const char *fld,
    double *out)
{
	char	q[DEM_QUOTE];
	int	b;

	if (n->type == KUBE_Y_SCALAR && n->plain &&
	    dra_yaml_resolve(n->str, n->len, out, &b) == DRA_YAML_NUMBER &&
	    isfinite(*out) && *out >= 0)
		return KUBE_OK;
	if (n->type == KUBE_Y_SCALAR && !n->plain && dem_decimal(n->str, out))
		return KUBE_OK;
	return dem_fail(m, n, fld, "expected a non-negative number, got %s",
	    dem_what(q, n));
}

/* A fraction 0..1 ("0.8") or a percentage 0..100% ("80%", "12.5%"). */
static int
dem_ratio(struct dem *m, const struct kube_ynode *n, const char *fld,
    double *out)
{
	char	q[DEM_QUOTE], num[64];
	double	v;

	if (n->type != KUBE_Y_SCALAR)
		goto bad;
	if (n->len > 1 && n->len < sizeof num && n->str[n->len - 1] == '%') {
		memcpy(num, n->str, n->len - 1);
		num[n->len - 1] = '\0';
		if (!dem_decimal(num, &v))
			goto bad;
		if (v > 100)
			return dem_fail(m, n, fld, "must be at most 100%%, "
			    "got %s", dem_quote(q, n->str));
		*out = v / 100;
		return KUBE_OK;
	}
	if (!dem_decimal(n->str, &v))
		goto bad;
	if (v > 1)
		return dem_fail(m, n, fld, "expected a fraction from 0 to 1 "
		    "or a percentage, got %s (write \"%s%%\" for a "
		    "percentage)", dem_quote(q, n->str), n->str);
	*out = v;
	return KUBE_OK;
bad:
	return dem_fail(m, n, fld, "expected a fraction such as 0.8 or a "
	    "percentage such as 80%%, got %s", dem_what(q, n));
}

int
plan_duration_parse(const char *s, double *out)
{
	static const struct {
		const char	*unit;
		double		 sec;
	} units[] = {	/* "ms" before "m", so "m" does not take it */
		{ "ns", 1e-9 }, { "us", 1e-6 }, { "ms", 1e-3 },
		{ "h", 3600 }, { "m", 60 }, { "s", 1 },
	};
	char		 num[64];
	const char	*p = s, *start;
	double		 v, total = 0;
	size_t		 k, len;

	if (*p == '\0')
		return -1;
	if (dem_decimal(s, &v)) {	/* a plain number of seconds */
		*out = v;
		return 0;
	}
	while (*p != '\0') {
		start = p;
		while ((*p >= '0' && *p <= '9') || *p == '.')
			p++;
		len = (size_t)(p - start);
		if (len == 0 || len >= sizeof num)
			return -1;
		memcpy(num, start, len);
		num[len] = '\0';
		if (!dem_decimal(num, &v))
			return -1;
		for (k = 0; k < sizeof units / sizeof units[0]; k++)
			if (strncmp(p, units[k].unit,
			    strlen(units[k].unit)) == 0)
				break;
		if (k == sizeof units / sizeof units[0])
			return -1;
		p += strlen(units[k].unit);
		total += v * units[k].sec;
	}
	*out = total;
	return 0;
}

/*
 * A duration in seconds: Go's syntax ("30s", "1m30s", "500ms", "2h";
 * units h, m, s, ms, us, ns) or a plain number of seconds.
 */
static int
dem_duration(struct dem *m, const struct kube_ynode *n, const char *fld,
    double *out)
{
	char		 q[DEM_QUOTE];
	double		 v, total = 0;
	int		 b;

	if (n->type != KUBE_Y_SCALAR)
		goto bad;
	if (n->plain && dra_yaml_resolve(n->str, n->len, &v, &b) ==
	    DRA_YAML_NUMBER) {
		if (!isfinite(v) || v < 0)
			goto bad;
		total = v;
		goto range;
	}
	if (plan_duration_parse(n->str, &total) != 0)
		goto bad;
range:
	if (total <= 0)
		return dem_fail(m, n, fld, "must be above 0, got %s",
		    dem_quote(q, n->str));
	if (total > PLAN_DEMAND_MAX_TIME_LIMIT)
		return dem_fail(m, n, fld, "%s is above the limit 24h",
		    dem_quote(q, n->str));
	*out = total;
	return KUBE_OK;
bad:
	return dem_fail(m, n, fld, "expected a duration such as 30s, 2m or "
	    "1m30s, got %s", dem_what(q, n));
}

/*
 * A Kubernetes quantity in thousandths (kube_quantity_parse), at least
 * 0, or above 0 when positive.  example shows a valid value in the
 * message ("20Gi").
 */
static int
dem_quantity(struct dem *m, const struct kube_ynode *n, const char *fld,
    int positive, const char *example, int64_t *milli)
{
	struct kube_quantity	 qt;
	struct dra_err		 e;
	char			 q[DEM_QUOTE];

	if (n->type != KUBE_Y_SCALAR)
		return dem_fail(m, n, fld, "expected a quantity such as %s, "
		    "got %s", example, dem_what(q, n));
	if (kube_quantity_parse(n->str, &qt, &e) != KUBE_OK) {
		if (strstr(e.msg, "out of range") != NULL)
			return dem_fail(m, n, fld, "quantity %s is out of "
			    "range", dem_quote(q, n->str));
		return dem_fail(m, n, fld, "invalid quantity %s (expected a "
		    "quantity such as %s)", dem_quote(q, n->str), example);
	}
	if (qt.milli < 0 || (positive && qt.milli == 0))
		return dem_fail(m, n, fld, "expected a %s quantity, got %s",
		    positive ? "positive" : "non-negative",
		    dem_quote(q, n->str));
	*milli = qt.milli;
	return KUBE_OK;
}

/* Thousandths of a byte to MiB, rounded up. */
static int64_t
dem_mib(int64_t milli)
{
	int64_t	bytes = milli / 1000 + (milli % 1000 != 0);

	return bytes / 1048576 + (bytes % 1048576 != 0);
}

/*
 * Names.
 */

/* An RFC 1123 label: [a-z0-9]([-a-z0-9]*[a-z0-9])?, at most 63. */
static int
dem_label(const char *s)
{
	size_t	len = strlen(s), i;

	if (len == 0 || len > 63 || s[0] == '-' || s[len - 1] == '-')
		return 0;
	for (i = 0; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
			return 0;
	return 1;
}

/* An RFC 1123 subdomain: labels joined by '.', at most 253. */
static int
dem_subdomain(const char *s)
{
	size_t	len = strlen(s), i;

	if (len == 0 || len > 253)
		return 0;
	for (i = 0; i < len; i++) {
		if ((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= '0' && s[i] <= '9'))
			continue;
		if (s[i] != '-' && s[i] != '.')
			return 0;
		/* '-' and '.' only between alphanumerics... */
		if (i == 0 || i == len - 1)
			return 0;
		/* ...and '.' only between two of them. */
		if (s[i] == '.' && (s[i - 1] == '-' || s[i - 1] == '.' ||
		    s[i + 1] == '-'))
			return 0;
	}
	return 1;
}

/* A profile name: [A-Za-z0-9.+_-], at most 64 ("3g.40gb", "1g.10gb+me"). */
static int
dem_profile_ok(const char *s)
{
	size_t	len = strlen(s), i;

	if (len == 0 || len > 64)
		return 0;
	for (i = 0; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= 'A' && s[i] <= 'Z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '.' ||
		    s[i] == '+' || s[i] == '_' || s[i] == '-'))
			return 0;
	return 1;
}

/* A DeviceClass name prefix: "" or [a-z0-9][a-z0-9.-]*, at most 200. */
static int
dem_prefix_ok(const char *s)
{
	size_t	len = strlen(s), i;

	if (len == 0)
		return 1;
	if (len > 200)
		return 0;
	for (i = 0; i < len; i++) {
		if ((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= '0' && s[i] <= '9'))
			continue;
		if (i == 0 || (s[i] != '-' && s[i] != '.'))
			return 0;
		/* Every dot-separated label of the name the prefix starts
		   must begin and end with a letter or digit. */
		if (s[i] == '.' && (s[i - 1] == '.' || s[i - 1] == '-'))
			return 0;
		if (s[i] == '-' && s[i - 1] == '.')
			return 0;
	}
	return 1;
}

/*
 * Items 0..i-1 of seq must not have the value name in their field key:
 * the first one that does is reported (with where it was).
 */
static int
dem_dup(struct dem *m, const struct kube_ynode *seq, size_t i,
    const char *key, const char *fld, const char *in)
{
	const struct kube_ynode	*n, *prev;
	char			 q[DEM_QUOTE];
	size_t			 j;

	n = dem_get(seq->kids[i], key);
	for (j = 0; j < i; j++) {
		prev = dem_get(seq->kids[j], key);
		if (strcmp(prev->str, n->str) != 0)
			continue;
		return dem_fail(m, n, fld, "%s is listed twice%s%s (first at "
		    "%lu:%lu)", dem_quote(q, n->str), in[0] != '\0' ?
		    " in " : "", in, prev->line, prev->col);
	}
	return KUBE_OK;
}

/*
 * The document.
 */

/* metadata: name, labels, annotations; read for checking, not kept. */
static int
dem_metadata(struct dem *m, const struct kube_ynode *n)
{
	const struct kube_ynode	*v;
	const char		*s;
	const char		*const maps[] = { "labels", "annotations" };
	char			 f[DEM_FLD], g[DEM_FLD], q[DEM_QUOTE];
	size_t			 i, j;
	int			 rc;

	if ((rc = dem_map(m, n, "metadata", dem_metadata_fields)) != KUBE_OK)
		return rc;
	if ((v = dem_opt(n, "name")) != NULL) {
		dem_fld(f, "metadata", "name");
		if ((rc = dem_str(m, v, f, &s)) != KUBE_OK)
			return rc;
		if (!dem_subdomain(s))
			return dem_fail(m, v, f, "%s is not a valid name "
			    "(RFC 1123 subdomain: lowercase letters, digits, "
			    "'-' and '.')", dem_quote(q, s));
	}
	for (i = 0; i < 2; i++) {
		if ((v = dem_opt(n, maps[i])) == NULL)
			continue;
		dem_fld(f, "metadata", maps[i]);
		if (v->type != KUBE_Y_MAP)
			return dem_fail(m, v, f, "expected a mapping, got %s",
			    dem_what(q, v));
		for (j = 0; j + 1 < v->n; j += 2) {
			if (v->kids[j]->type != KUBE_Y_SCALAR)
				return dem_fail(m, v->kids[j], f, "expected "
				    "a key, got %s", dem_what(q, v->kids[j]));
			dem_fld(g, f, v->kids[j]->str);
			if (v->kids[j + 1]->type != KUBE_Y_SCALAR)
				return dem_fail(m, v->kids[j + 1], g,
				    "expected a string, got %s",
				    dem_what(q, v->kids[j + 1]));
		}
	}
	return KUBE_OK;
}

static int
dem_policy(struct dem *m, const struct kube_ynode *n, struct plan_policy *p)
{
	const struct kube_ynode	*sub, *v, *target = NULL, *ceiling = NULL;
	const char		*s;
	char			 f[DEM_FLD], q[DEM_QUOTE];
	int			 rc;

	if ((rc = dem_map(m, n, "policy", dem_policy_fields)) != KUBE_OK)
		return rc;

	if ((sub = dem_opt(n, "price")) != NULL) {
		if ((rc = dem_map(m, sub, "policy.price",
		    dem_price_fields)) != KUBE_OK)
			return rc;
		if ((v = dem_opt(sub, "perGPUMonth")) != NULL &&
		    (rc = dem_number(m, v, "policy.price.perGPUMonth",
		    &p->price)) != KUBE_OK)
			return rc;
		if (v != NULL && p->price > PLAN_DEMAND_MAX_PRICE)
			return dem_fail(m, v, "policy.price.perGPUMonth",
			    "%s is above the limit of 1e9 a GPU a month",
			    dem_quote(q, v->str));
		if ((v = dem_opt(sub, "currency")) != NULL) {
			dem_fld(f, "policy.price", "currency");
			if ((rc = dem_str(m, v, f, &s)) != KUBE_OK)
				return rc;
			if (strlen(s) > 16 || strchr(s, ' ') != NULL)
				return dem_fail(m, v, f, "%s is not a currency "
				    "(at most 16 characters, no spaces: RUB, "
				    "USD)", dem_quote(q, s));
			free(p->currency);
			p->currency = xstrdup(s);
		}
	}

	if ((sub = dem_opt(n, "utilization")) != NULL) {
		if ((rc = dem_map(m, sub, "policy.utilization",
		    dem_util_fields)) != KUBE_OK)
			return rc;
		if ((target = dem_opt(sub, "target")) != NULL &&
		    (rc = dem_ratio(m, target, "policy.utilization.target",
		    &p->target)) != KUBE_OK)
			return rc;
		if ((ceiling = dem_opt(sub, "ceiling")) != NULL &&
		    (rc = dem_ratio(m, ceiling, "policy.utilization.ceiling",
		    &p->ceiling)) != KUBE_OK)
			return rc;
		if (target != NULL && p->target <= 0)
			return dem_fail(m, target, "policy.utilization.target",
			    "must be above 0, got %s",
			    dem_quote(q, target->str));
		if (ceiling != NULL && p->ceiling <= 0)
			return dem_fail(m, ceiling,
			    "policy.utilization.ceiling", "must be above 0, "
			    "got %s", dem_quote(q, ceiling->str));
		if (p->target > p->ceiling && target != NULL)
			return dem_fail(m, target, "policy.utilization.target",
			    "%g%% is above the ceiling %g%%%s",
			    p->target * 100, p->ceiling * 100,
			    ceiling == NULL ? " (the default)" : "");
		if (p->target > p->ceiling)
			return dem_fail(m, ceiling,
			    "policy.utilization.ceiling", "%g%% is below the "
			    "target %g%% (the default)", p->ceiling * 100,
			    p->target * 100);
	}

	if ((v = dem_opt(n, "repartitionRunning")) != NULL &&
	    (rc = dem_bool(m, v, "policy.repartitionRunning",
	    &p->repartition_running)) != KUBE_OK)
		return rc;

	if ((sub = dem_opt(n, "solver")) != NULL) {
		if ((rc = dem_map(m, sub, "policy.solver",
		    dem_solver_fields)) != KUBE_OK)
			return rc;
		if ((v = dem_opt(sub, "timeLimit")) != NULL &&
		    (rc = dem_duration(m, v, "policy.solver.timeLimit",
		    &p->time_limit)) != KUBE_OK)
			return rc;
		if ((v = dem_opt(sub, "gap")) != NULL &&
		    (rc = dem_ratio(m, v, "policy.solver.gap",
		    &p->mip_gap)) != KUBE_OK)
			return rc;
	}

	if ((v = dem_opt(n, "deviceClassPrefix")) != NULL) {
		if ((rc = dem_str(m, v, "policy.deviceClassPrefix", &s)) !=
		    KUBE_OK)
			return rc;
		if (!dem_prefix_ok(s))
			return dem_fail(m, v, "policy.deviceClassPrefix",
			    "%s is not a DeviceClass name prefix (lowercase "
			    "letters, digits, '-' and '.', starting with a "
			    "letter or digit, no \"..\", \".-\" or \"-.\")",
			    dem_quote(q, s));
		free(p->device_class_prefix);
		p->device_class_prefix = xstrdup(s);
	}
	return KUBE_OK;
}

static int
dem_classes(struct dem *m, const struct kube_ynode *n, struct plan_demand *d)
{
	const struct kube_ynode	*item, *v;
	const char		*s;
	char			 f[DEM_FLD], g[DEM_FLD], q[DEM_QUOTE];
	size_t			 i;
	int			 rc;

	if (n->type != KUBE_Y_SEQ)
		return dem_fail(m, n, "priorityClasses", "expected a list of "
		    "priority classes, got %s", dem_what(q, n));
	if (n->n == 0)
		return KUBE_OK;
	d->priority_classes = xcalloc(n->n, sizeof *d->priority_classes);
	d->npriority_classes = n->n;
	for (i = 0; i < n->n; i++) {
		item = n->kids[i];
		dem_fldi(f, "priorityClasses", i);
		if ((rc = dem_map(m, item, f, dem_class_fields)) != KUBE_OK)
			return rc;
		if ((rc = dem_need(m, item, f, "name", &v)) != KUBE_OK)
			return rc;
		dem_fld(g, f, "name");
		if ((rc = dem_str(m, v, g, &s)) != KUBE_OK)
			return rc;
		if (!dem_subdomain(s))
			return dem_fail(m, v, g, "%s is not a valid "
			    "PriorityClass name (RFC 1123 subdomain: "
			    "lowercase letters, digits, '-' and '.')",
			    dem_quote(q, s));
		if (strncmp(s, "system-", 7) == 0)
			return dem_fail(m, v, g, "%s: names starting with "
			    "\"system-\" are reserved by Kubernetes",
			    dem_quote(q, s));
		if ((rc = dem_dup(m, n, i, "name", g, "")) != KUBE_OK)
			return rc;
		d->priority_classes[i].name = xstrdup(s);
		if ((rc = dem_need(m, item, f, "value", &v)) != KUBE_OK)
			return rc;
		dem_fld(g, f, "value");
		if ((rc = dem_int(m, v, g, DEM_PRIO_MIN, DEM_PRIO_MAX,
		    "an integer from -2147483648 to 1000000000",
		    &d->priority_classes[i].value)) != KUBE_OK)
			return rc;
	}
	return KUBE_OK;
}

/* replicas: N, or {min, max} (min defaults to 0, max to min). */
static int
dem_replicas(struct dem *m, const struct kube_ynode *n, const char *fld,
    struct plan_workload *w)
{
	const struct kube_ynode	*min, *max;
	char			 f[DEM_FLD], q[DEM_QUOTE];
	int			 rc;

	if (n->type == KUBE_Y_SCALAR) {
		if ((rc = dem_int(m, n, fld, 1, PLAN_DEMAND_MAX_REPLICAS,
		    "a positive integer or {min, max}", &w->min)) != KUBE_OK)
			return rc;
		w->max = w->min;
		return KUBE_OK;
	}
	if (n->type != KUBE_Y_MAP)
		return dem_fail(m, n, fld, "expected a positive integer or "
		    "{min, max}, got %s", dem_what(q, n));
	if ((rc = dem_fields(m, n, fld, dem_replicas_fields)) != KUBE_OK)
		return rc;
	min = dem_opt(n, "min");
	max = dem_opt(n, "max");
	if (min == NULL && max == NULL)
		return dem_fail(m, n, fld, "give min, max or both");
	w->min = 0;
	if (min != NULL && (rc = dem_int(m, min, dem_fld(f, fld, "min"), 0,
	    PLAN_DEMAND_MAX_REPLICAS, "a non-negative integer", &w->min)) !=
	    KUBE_OK)
		return rc;
	if (max == NULL) {
		if (w->min == 0)
			return dem_fail(m, n, fld, "min 0 without max asks "
			    "for nothing: give max");
		w->max = w->min;
		return KUBE_OK;
	}
	if ((rc = dem_int(m, max, dem_fld(f, fld, "max"), 1,
	    PLAN_DEMAND_MAX_REPLICAS, "a positive integer", &w->max)) !=
	    KUBE_OK)
		return rc;
	if (w->min > w->max)
		return dem_fail(m, min, dem_fld(f, fld, "min"), "%lld is "
		    "above max %lld", (long long)w->min, (long long)w->max);
	return KUBE_OK;
}

/* needs: a profile, the whole GPU, or a memory/sm requirement. */
static int
dem_needs(struct dem *m, const struct kube_ynode *n, const char *fld,
    struct plan_workload *w)
{
	const struct kube_ynode	*profile, *gpu, *mem, *sm, *pn;
	const char		*s;
	char			 f[DEM_FLD], q[DEM_QUOTE];
	int64_t			 milli, v;
	int			 rc, kinds;

	if (n->type == KUBE_Y_SCALAR) {
		pn = n;
		snprintf(f, sizeof f, "%s", fld);
	} else {
		if ((rc = dem_map(m, n, fld, dem_needs_fields)) != KUBE_OK)
			return rc;
		profile = dem_opt(n, "profile");
		gpu = dem_opt(n, "gpu");
		mem = dem_opt(n, "memory");
		sm = dem_opt(n, "sm");
		kinds = (profile != NULL) + (gpu != NULL) +
		    (mem != NULL || sm != NULL);
		if (kinds != 1)
			return dem_fail(m, n, fld, "give exactly one of "
			    "profile, gpu, or a memory/sm requirement");
		if (gpu != NULL) {
			dem_fld(f, fld, "gpu");
			if (gpu->type != KUBE_Y_SCALAR ||
			    strcmp(gpu->str, "whole") != 0)
				return dem_fail(m, gpu, f, "expected "
				    "\"whole\", got %s", dem_what(q, gpu));
			w->whole = 1;
			return KUBE_OK;
		}
		if (mem != NULL) {
			if ((rc = dem_quantity(m, mem, dem_fld(f, fld,
			    "memory"), 1, "20Gi", &milli)) != KUBE_OK)
				return rc;
			w->need_memory_mib = dem_mib(milli);
		}
		if (sm != NULL) {
			if ((rc = dem_int(m, sm, dem_fld(f, fld, "sm"), 1,
			    DEM_MAX_SM, "a positive integer", &v)) != KUBE_OK)
				return rc;
			w->need_sm = (int)v;
		}
		if (profile == NULL)
			return KUBE_OK;
		pn = profile;
		dem_fld(f, fld, "profile");
	}
	if ((rc = dem_str(m, pn, f, &s)) != KUBE_OK)
		return rc;
	if (strcmp(s, PLAN_WHOLE_GPU) == 0) {
		w->whole = 1;
		return KUBE_OK;
	}
	if (!dem_profile_ok(s))
		return dem_fail(m, pn, f, "%s is not a profile name (letters, "
		    "digits, '.', '+', '_' and '-', such as 3g.40gb)",
		    dem_quote(q, s));
	w->profile = xstrdup(s);
	return KUBE_OK;
}

/*
 * sharing: exclusive, or {mode: exclusive | time-slicing | mps | memory}
 * with replicasPerDevice (time-slicing, mps) or memory (memory).
 */
static int
dem_sharing(struct dem *m, const struct kube_ynode *n, const char *fld,
    struct plan_workload *w)
{
	static const struct {
		const char	*name;
		enum plan_share	 share;
	} modes[] = {
		{ "exclusive", PLAN_SHARE_EXCLUSIVE },
		{ "time-slicing", PLAN_SHARE_TIME_SLICING },
		{ "mps", PLAN_SHARE_MPS },
		{ "memory", PLAN_SHARE_MEMORY },
	};
	const struct kube_ynode	*mode, *per, *mem;
	const char		*s;
	char			 f[DEM_FLD], q[DEM_QUOTE];
	int64_t			 milli;
	size_t			 i;
	int			 rc;

	if (n->type == KUBE_Y_SCALAR) {
		mode = n;
		snprintf(f, sizeof f, "%s", fld);
	} else {
		if ((rc = dem_map(m, n, fld, dem_sharing_fields)) != KUBE_OK)
			return rc;
		if ((rc = dem_need(m, n, fld, "mode", &mode)) != KUBE_OK)
			return rc;
		dem_fld(f, fld, "mode");
	}
	if ((rc = dem_str(m, mode, f, &s)) != KUBE_OK)
		return rc;
	for (i = 0; i < sizeof modes / sizeof modes[0]; i++)
		if (strcmp(modes[i].name, s) == 0)
			break;
	if (i == sizeof modes / sizeof modes[0])
		return dem_fail(m, mode, f, "expected exclusive, time-slicing, "
		    "mps or memory, got %s", dem_quote(q, s));
	w->share = modes[i].share;
	w->per_device = 1;
	if (n->type == KUBE_Y_SCALAR) {
		if (w->share == PLAN_SHARE_TIME_SLICING ||
		    w->share == PLAN_SHARE_MPS)
			return dem_fail(m, n, fld, "%s needs "
			    "replicasPerDevice: write {mode: %s, "
			    "replicasPerDevice: N}", s, s);
		if (w->share == PLAN_SHARE_MEMORY)
			return dem_fail(m, n, fld, "memory needs each "
			    "replica's share: write {mode: memory, memory: "
			    "10Gi}");
		return KUBE_OK;
	}

	per = dem_opt(n, "replicasPerDevice");
	mem = dem_opt(n, "memory");
	if (w->share == PLAN_SHARE_TIME_SLICING ||
	    w->share == PLAN_SHARE_MPS) {
		if ((rc = dem_need(m, n, fld, "replicasPerDevice", &per)) !=
		    KUBE_OK)
			return rc;
		if ((rc = dem_int(m, per, dem_fld(f, fld,
		    "replicasPerDevice"), 1, PLAN_DEMAND_MAX_PER_DEVICE,
		    "a positive integer", &milli)) != KUBE_OK)
			return rc;
		w->per_device = (int)milli;
	} else if (per != NULL)
		return dem_fail(m, per, dem_fld(f, fld, "replicasPerDevice"),
		    "only with mode time-slicing or mps");
	if (w->share == PLAN_SHARE_MEMORY) {
		if ((rc = dem_need(m, n, fld, "memory", &mem)) != KUBE_OK)
			return rc;
		if ((rc = dem_quantity(m, mem, dem_fld(f, fld, "memory"), 1,
		    "10Gi", &milli)) != KUBE_OK)
			return rc;
		w->share_memory_mib = dem_mib(milli);
	} else if (mem != NULL)
		return dem_fail(m, mem, dem_fld(f, fld, "memory"),
		    "only with mode memory");
	return KUBE_OK;
}

static int
dem_workload(struct dem *m, const struct kube_ynode *n, const char *fld,
    const struct plan_demand *d, struct plan_workload *w)
{
	const struct plan_priority_class	*pc;
	const struct kube_ynode			*v;
	const char				*s;
	char					 f[DEM_FLD], q[DEM_QUOTE];
	int					 rc;

	w->line = (int)n->line;
	w->share = PLAN_SHARE_EXCLUSIVE;
	w->per_device = 1;
	if ((rc = dem_map(m, n, fld, dem_workload_fields)) != KUBE_OK)
		return rc;

	if ((rc = dem_need(m, n, fld, "name", &v)) != KUBE_OK)
		return rc;
	dem_fld(f, fld, "name");
	if ((rc = dem_str(m, v, f, &s)) != KUBE_OK)
		return rc;
	if (!dem_label(s))
		return dem_fail(m, v, f, "%s is not a valid workload name "
		    "(RFC 1123 label: at most 63 lowercase letters, digits "
		    "and '-', starting and ending with a letter or digit)",
		    dem_quote(q, s));
	w->name = xstrdup(s);

	if ((rc = dem_need(m, n, fld, "replicas", &v)) != KUBE_OK ||
	    (rc = dem_replicas(m, v, dem_fld(f, fld, "replicas"), w)) !=
	    KUBE_OK)
		return rc;
	if ((rc = dem_need(m, n, fld, "needs", &v)) != KUBE_OK ||
	    (rc = dem_needs(m, v, dem_fld(f, fld, "needs"), w)) != KUBE_OK)
		return rc;
	if ((v = dem_opt(n, "sharing")) != NULL &&
	    (rc = dem_sharing(m, v, dem_fld(f, fld, "sharing"), w)) !=
	    KUBE_OK)
		return rc;

	if ((v = dem_opt(n, "priorityClass")) != NULL) {
		dem_fld(f, fld, "priorityClass");
		if ((rc = dem_str(m, v, f, &s)) != KUBE_OK)
			return rc;
		if ((pc = plan_demand_priority_class(d, s)) == NULL)
			return dem_fail(m, v, f, "%s is not listed in "
			    "priorityClasses", dem_quote(q, s));
		w->priority_class = xstrdup(s);
		w->priority = pc->value;
	}

	if ((v = dem_opt(n, "model")) != NULL) {
		dem_fld(f, fld, "model");
		if ((rc = dem_str(m, v, f, &s)) != KUBE_OK)
			return rc;
		if (*s == '\0' || strlen(s) > 128)
			return dem_fail(m, v, f, "%s is not a GPU model name "
			    "(1 to 128 characters, such as H100-80GB)",
			    dem_quote(q, s));
		w->model = xstrdup(s);
	}
	return KUBE_OK;
}

static int
dem_team(struct dem *m, const struct kube_ynode *n, const char *fld,
    const struct plan_demand *d, struct plan_team *t)
{
	const struct kube_ynode	*v, *caps, *seq;
	const char		*s;
	char			 f[DEM_FLD], g[DEM_FLD], h[DEM_FLD];
	char			 q[DEM_QUOTE];
	int64_t			 milli;
	size_t			 i;
	int			 rc;

	t->line = (int)n->line;
	t->cap_gpu_milli = -1;
	t->cap_memory_mib = -1;
	if ((rc = dem_map(m, n, fld, dem_team_fields)) != KUBE_OK)
		return rc;

	if ((rc = dem_need(m, n, fld, "namespace", &v)) != KUBE_OK)
		return rc;
	dem_fld(f, fld, "namespace");
	if ((rc = dem_str(m, v, f, &s)) != KUBE_OK)
		return rc;
	if (!dem_label(s))
		return dem_fail(m, v, f, "%s is not a valid namespace name "
		    "(RFC 1123 label: at most 63 lowercase letters, digits "
		    "and '-', starting and ending with a letter or digit)",
		    dem_quote(q, s));
	t->namespace = xstrdup(s);

	if ((caps = dem_opt(n, "caps")) != NULL) {
		dem_fld(f, fld, "caps");
		if ((rc = dem_map(m, caps, f, dem_caps_fields)) != KUBE_OK)
			return rc;
		if ((v = dem_opt(caps, "gpus")) != NULL) {
			if ((rc = dem_quantity(m, v, dem_fld(g, f, "gpus"), 0,
			    "8 or 2.5", &milli)) != KUBE_OK)
				return rc;
			t->cap_gpu_milli = milli;
		}
		if ((v = dem_opt(caps, "memory")) != NULL) {
			if ((rc = dem_quantity(m, v, dem_fld(g, f, "memory"),
			    0, "2Ti or 640Gi", &milli)) != KUBE_OK)
				return rc;
			t->cap_memory_mib = dem_mib(milli);
		}
	}

	if ((rc = dem_need(m, n, fld, "workloads", &seq)) != KUBE_OK)
		return rc;
	dem_fld(f, fld, "workloads");
	if ((rc = dem_seq(m, seq, f, "workload")) != KUBE_OK)
		return rc;
	t->workloads = xcalloc(seq->n, sizeof *t->workloads);
	t->nworkloads = seq->n;
	for (i = 0; i < seq->n; i++) {
		dem_fldi(g, f, i);
		if ((rc = dem_workload(m, seq->kids[i], g, d,
		    &t->workloads[i])) != KUBE_OK)
			return rc;
		if ((rc = dem_dup(m, seq, i, "name", dem_fld(h, g, "name"),
		    t->namespace)) != KUBE_OK)
			return rc;
	}
	return KUBE_OK;
}

static int
dem_teams(struct dem *m, const struct kube_ynode *n, struct plan_demand *d)
{
	char	f[DEM_FLD], g[DEM_FLD];
	size_t	i;
	int	rc;

	if ((rc = dem_seq(m, n, "teams", "team")) != KUBE_OK)
		return rc;
	d->teams = xcalloc(n->n, sizeof *d->teams);
	d->nteams = n->n;
	for (i = 0; i < n->n; i++) {
		dem_fldi(f, "teams", i);
		if ((rc = dem_team(m, n->kids[i], f, d, &d->teams[i])) !=
		    KUBE_OK)
			return rc;
		if ((rc = dem_dup(m, n, i, "namespace",
		    dem_fld(g, f, "namespace"), "")) != KUBE_OK)
			return rc;
	}
	return KUBE_OK;
}

static int
dem_doc(struct dem *m, const struct kube_ynode *root, struct plan_demand *d)
{
	static const struct {
		const char	*key;
		const char	*want;
	} head[] = {
		{ "apiVersion", PLAN_DEMAND_API_VERSION },
		{ "kind", PLAN_DEMAND_KIND },
	};
	const struct kube_ynode	*v;
	char			 q[DEM_QUOTE];
	size_t			 i;
	int			 rc;

	if (root->type != KUBE_Y_MAP)
		return dem_fail(m, root, "", "expected a mapping of kind %s, "
		    "got %s", PLAN_DEMAND_KIND, dem_what(q, root));
	/* What the document is comes before what it holds. */
	for (i = 0; i < sizeof head / sizeof head[0]; i++) {
		v = dem_get(root, head[i].key);
		if (v == NULL)
			return dem_fail(m, root, head[i].key, "required field "
			    "is missing (expected \"%s\")", head[i].want);
		if (v->type != KUBE_Y_SCALAR || strcmp(v->str, head[i].want) != 0)
			return dem_fail(m, v, head[i].key, "expected \"%s\", "
			    "got %s", head[i].want, dem_what(q, v));
	}
	if ((rc = dem_fields(m, root, "", dem_top_fields)) != KUBE_OK)
		return rc;
	if ((v = dem_opt(root, "metadata")) != NULL &&
	    (rc = dem_metadata(m, v)) != KUBE_OK)
		return rc;
	if ((v = dem_opt(root, "policy")) != NULL &&
	    (rc = dem_policy(m, v, &d->policy)) != KUBE_OK)
		return rc;
	if ((v = dem_opt(root, "priorityClasses")) != NULL &&
	    (rc = dem_classes(m, v, d)) != KUBE_OK)
		return rc;
	if ((rc = dem_need(m, root, "", "teams", &v)) != KUBE_OK)
		return rc;
	return dem_teams(m, v, d);
}

/*
 * Public.
 */

int
plan_demand_parse(const char *name, const char *text, size_t len,
    struct plan_demand **out, struct dra_err *err)
{
	struct dem		 m;
	struct kube_ynode		*root;
	struct plan_demand	*d;
	int			 rc;

	*out = NULL;
	if (name == NULL)
		name = "<input>";
	memset(&m, 0, sizeof m);
	m.file = name;
	m.err = err;
	dra_arena_init(&m.a);

	d = xcalloc(1, sizeof *d);
	d->file = xstrdup(name);
	d->policy.price = 0;
	d->policy.currency = xstrdup("");
	d->policy.target = PLAN_DEMAND_DEF_TARGET;
	d->policy.ceiling = PLAN_DEMAND_DEF_CEILING;
	d->policy.repartition_running = 0;
	d->policy.time_limit = PLAN_DEMAND_DEF_TIME_LIMIT;
	d->policy.mip_gap = 0;
	d->policy.device_class_prefix = xstrdup("");

	rc = dem_yaml(&m, text != NULL ? text : "", text != NULL ? len : 0,
	    &root);
	if (rc == KUBE_OK)
		rc = dem_doc(&m, root, d);
	dra_arena_release(&m.a);
	if (rc != KUBE_OK) {
		plan_demand_free(d);
		return rc;
	}
	dra_err_clear(err);
	*out = d;
	return KUBE_OK;
}

int
plan_demand_load(const char *path, struct plan_demand **out,
    struct dra_err *err)
{
	struct dra_buf	 b;
	const char	*name;
	int		 fd, rc = KUBE_OK, e;

	*out = NULL;
	if (strcmp(path, "-") == 0) {
		name = "<stdin>";
		fd = STDIN_FILENO;
	} else {
		name = path;
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd == -1)
			return dra_err_set(err, KUBE_E_IO, "%s: %s", path,
			    strerror(errno));
	}
	dra_buf_init(&b, PLAN_DEMAND_MAX_BYTES);
	e = dra_buf_read_fd(&b, fd);
	if (fd != STDIN_FILENO)
		close(fd);
	if (e == EFBIG)
		rc = dra_err_set(err, KUBE_E_TOOBIG, "%s: larger than %lu MiB",
		    name, PLAN_DEMAND_MAX_BYTES >> 20);
	else if (e != 0)
		rc = dra_err_set(err, KUBE_E_IO, "%s: %s", name, strerror(e));
	if (rc == KUBE_OK)
		rc = plan_demand_parse(name, dra_buf_str(&b), b.len, out, err);
	dra_buf_release(&b);
	return rc;
}

void
plan_demand_free(struct plan_demand *d)
{
	struct plan_team	*t;
	struct plan_workload	*w;
	size_t			 i, j;

	if (d == NULL)
		return;
	for (i = 0; i < d->nteams; i++) {
		t = &d->teams[i];
		for (j = 0; j < t->nworkloads; j++) {
			w = &t->workloads[j];
			free(w->name);
			free(w->profile);
			free(w->model);
			free(w->priority_class);
		}
		free(t->workloads);
		free(t->namespace);
	}
	free(d->teams);
	for (i = 0; i < d->npriority_classes; i++)
		free(d->priority_classes[i].name);
	free(d->priority_classes);
	free(d->policy.currency);
	free(d->policy.device_class_prefix);
	free(d->file);
	free(d);
}

const struct plan_priority_class *
plan_demand_priority_class(const struct plan_demand *d, const char *name)
{
	size_t	i;

	if (d == NULL || name == NULL)
		return NULL;
	for (i = 0; i < d->npriority_classes; i++)
		if (d->priority_classes[i].name != NULL &&
		    strcmp(d->priority_classes[i].name, name) == 0)
			return &d->priority_classes[i];
	return NULL;
}
