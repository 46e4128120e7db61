/*
 * snapshot.c: the snapshot's lifetime, string interning, warnings and
 * lookups (see model.h).
 *
 * Strings that repeat across hundreds of thousands of devices (driver
 * and attribute names, product names, counter names) are interned in
 * a uthash table so each is stored once; the index built by
 * kube_snapshot_finish() is also uthash, keyed by the joined names.
 */
#include "model.h"
#include "model-int.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <uthash.h>

#include "xmalloc.h"

struct intern_entry {
	const char	*str;	/* in the arena */
	UT_hash_handle	 hh;
};

struct kube_snapshot *
kube_snapshot_new(void)
{
	struct kube_snapshot	*s;

	s = xcalloc(1, sizeof *s);
	dra_arena_init(&s->arena);
	s->now = (int64_t)time(NULL);
	return s;
}

void
kube_snapshot_free(struct kube_snapshot *s)
{
	struct intern_entry	*table, *e, *tmp;

	if (s == NULL)
		return;
	table = s->intern;
	HASH_ITER(hh, table, e, tmp) {
		HASH_DEL(table, e);
		/* entries live in the arena */
	}
	kube_index_free(s->index);
	free(s->slices.v);
	free(s->claims.v);
	free(s->templates.v);
	free(s->classes.v);
	free(s->taint_rules.v);
	free(s->pods.v);
	free(s->nodes.v);
	free(s->namespaces.v);
	free(s->quotas.v);
	free(s->pools.v);
	free(s->warnings.v);
	dra_arena_release(&s->arena);
	free(s);
}

void
kube_vec_push(void ***v, size_t *n, size_t *cap, void *item)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		*v = xreallocarray(*v, *cap, sizeof **v);
	}
	(*v)[(*n)++] = item;
}

const char *
kube_snapshot_intern_n(struct kube_snapshot *s, const char *str, size_t len)
{
	struct intern_entry	*table = s->intern, *e;

	HASH_FIND(hh, table, str, len, e);
	if (e != NULL)
		return e->str;
	e = dra_arena_alloc(&s->arena, sizeof *e);
	e->str = dra_arena_strndup(&s->arena, str, len);
	HASH_ADD_KEYPTR(hh, table, e->str, len, e);
	s->intern = table;
	return e->str;
}

const char *
kube_snapshot_intern(struct kube_snapshot *s, const char *str)
{
	if (str == NULL)
		return NULL;
	return kube_snapshot_intern_n(s, str, strlen(str));
}

void
kube_snapshot_warn(struct kube_snapshot *s, const char *object,
    const char *fmt, ...)
{
	struct kube_warning	*w;
	char			 msg[1024];
	va_list			 ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	w = dra_arena_alloc(&s->arena, sizeof *w);
	w->object = dra_arena_strdup(&s->arena, object);
	w->message = dra_arena_strdup(&s->arena, msg);
	KUBE_VEC_PUSH(&s->warnings, w);
}

const char *
kube_node_ready_text(const struct kube_node *n)
{
	return n->ready > 0 ? "True" : n->ready == 0 ? "False" : "Unknown";
}

const char *
kube_kv_get(const struct kube_kv *kv, size_t n, const char *key)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (strcmp(kv[i].key, key) == 0)
			return kv[i].value;
	}
	return NULL;
}

/* strconv.ParseInt(s, 10, 64) for a node label or selector value. */
static int
parse_int64(const char *s, int64_t *out)
{
	char		*end;
	long long	 v;

	if (s == NULL || *s == '\0' || isspace((unsigned char)*s))
		return 0;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || *end != '\0')
		return 0;
	*out = v;
	return 1;
}

static int
value_in(const struct kube_node_selector_req *r, const char *v)
{
	size_t	i;

	for (i = 0; i < r->nvalues; i++)
		if (strcmp(r->values[i], v) == 0)
			return 1;
	return 0;
}

/* labels.Requirement.Matches, after nodeaffinity's validation. */
static int
label_req_matches(const struct kube_node_selector_req *r,
    const struct kube_node *n)
{
	const char	*v;
	int64_t		 want, have;

	if (r->key == NULL || r->op == NULL)
		return 0;
	v = kube_kv_get(n->meta.labels, n->meta.nlabels, r->key);
	if (strcmp(r->op, "In") == 0)
		return r->nvalues > 0 && v != NULL && value_in(r, v);
	if (strcmp(r->op, "NotIn") == 0)
		return r->nvalues > 0 && (v == NULL || !value_in(r, v));
	if (strcmp(r->op, "Exists") == 0)
		return r->nvalues == 0 && v != NULL;
	if (strcmp(r->op, "DoesNotExist") == 0)
		return r->nvalues == 0 && v == NULL;
	if (strcmp(r->op, "Gt") == 0 || strcmp(r->op, "Lt") == 0) {
		if (r->nvalues != 1 || !parse_int64(r->values[0], &want))
			return 0;
		if (v == NULL || !parse_int64(v, &have))
			return 0;
		return r->op[0] == 'G' ? have > want : have < want;
	}
	return 0;
}

/*
 * A field requirement: In/NotIn with one value, against the node's
 * fields, of which there is one, metadata.name (any other key reads
 * as "", as fields.Set does).
 */
static int
field_req_matches(const struct kube_node_selector_req *r,
    const char *node_name)
{
	const char	*v;

	if (r->key == NULL || r->op == NULL || r->nvalues != 1)
		return 0;
	v = strcmp(r->key, "metadata.name") == 0 && node_name != NULL ?
	    node_name : "";
	if (strcmp(r->op, "In") == 0)
		return strcmp(v, r->values[0]) == 0;
	if (strcmp(r->op, "NotIn") == 0)
		return strcmp(v, r->values[0]) != 0;
	return 0;
}

int
kube_node_selector_match(const struct kube_node_selector *ns,
    const char *node_name, const struct kube_node *n)
{
	const struct kube_node_selector_term	*t;
	size_t					 i, j;
	int					 ok;

	if (ns == NULL)
		return 0;
	if (n != NULL && node_name == NULL)
		node_name = n->meta.name;
	for (i = 0; i < ns->nterms; i++) {
		t = &ns->terms[i];
		if (t->nexprs == 0 && t->nfields == 0)
			continue;
		if (n == NULL && t->nexprs > 0)
			continue;
		ok = 1;
		for (j = 0; ok && j < t->nexprs; j++)
			ok = label_req_matches(&t->exprs[j], n);
		for (j = 0; ok && j < t->nfields; j++)
			ok = field_req_matches(&t->fields[j], node_name);
		if (ok)
			return 1;
	}
	return 0;
}

const char *
kube_device_node(const struct kube_device *d)
{
	if (d->node_name != NULL)
		return d->node_name;
	if (d->slice != NULL && d->slice->node_name != NULL)
		return d->slice->node_name;
	if (d->node_selector != NULL && d->node_selector->single_node != NULL)
		return d->node_selector->single_node;
	if (d->slice != NULL && d->slice->node_selector != NULL)
		return d->slice->node_selector->single_node;
	return NULL;
}

static const char *
device_domain(const struct kube_device *d, const char *domain)
{
	if (domain != NULL)
		return domain;
	return d->slice != NULL ? d->slice->driver : "";
}

const struct kube_attr *
kube_device_attr(const struct kube_device *d, const char *domain,
    const char *id)
{
	size_t	i;

	domain = device_domain(d, domain);
	for (i = 0; i < d->nattrs; i++) {
		if (strcmp(d->attrs[i].id, id) == 0 &&
		    strcmp(d->attrs[i].domain, domain) == 0)
			return &d->attrs[i];
	}
	return NULL;
}

const struct kube_capacity *
kube_device_capacity(const struct kube_device *d, const char *domain,
    const char *id)
{
	size_t	i;

	domain = device_domain(d, domain);
	for (i = 0; i < d->ncapacity; i++) {
		if (strcmp(d->capacity[i].id, id) == 0 &&
		    strcmp(d->capacity[i].domain, domain) == 0)
			return &d->capacity[i];
	}
	return NULL;
}

char *
kube_claim_state(const struct kube_claim *c, char *buf, size_t len)
{
	/* Mirrors kubectl's printer: pkg/printers/internalversion. */
	buf[0] = '\0';
	if (c->meta.deleted != 0)
		snprintf(buf, len, "deleted");
	if (!c->allocated) {
		if (c->meta.deleted == 0)
			snprintf(buf, len, "pending");
	} else {
		snprintf(buf + strlen(buf), len - strlen(buf), "%sallocated%s",
		    buf[0] != '\0' ? "," : "",
		    c->nreserved > 0 ? ",reserved" : "");
	}
	return buf;
}

int
kube_pod_fits_node(const struct kube_pod *p, const char *node_name,
    const struct kube_node *n)
{
	const char	*v;
	size_t		 i;

	if (p->node_name != NULL && *p->node_name != '\0')
		return strcmp(p->node_name, node_name) == 0;
	for (i = 0; i < p->nnode_selector; i++) {
		if (n != NULL)
			v = kube_kv_get(n->meta.labels, n->meta.nlabels,
			    p->node_selector[i].key);
		else if (strcmp(p->node_selector[i].key,
		    "kubernetes.io/hostname") == 0)
			v = node_name;
		else
			v = NULL;
		if (v == NULL || p->node_selector[i].value == NULL ||
		    strcmp(v, p->node_selector[i].value) != 0)
			return 0;
	}
	if (p->affinity != NULL &&
	    !kube_node_selector_match(p->affinity, node_name, n))
		return 0;
	return 1;
}

int
kube_snapshot_skips(const struct kube_snapshot *s, const char *kind)
{
	size_t	i;

	if (s->skip_kinds == NULL || kind == NULL)
		return 0;
	for (i = 0; s->skip_kinds[i] != NULL; i++) {
		if (strcmp(s->skip_kinds[i], kind) == 0)
			return 1;
	}
	return 0;
}
