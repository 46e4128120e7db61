/*
 * selector.c: Kubernetes label selectors, parsed and matched locally
 * (the grammar of apimachinery pkg/labels: "a=b", "a==b", "a!=b",
 * "a", "!a", "a in (x,y)", "a notin (x)", "a>1", "a<1", terms joined
 * by commas, all of which must hold).
 */
#include "views.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

enum sel_op {
	SEL_EQ,
	SEL_NE,
	SEL_IN,
	SEL_NOTIN,
	SEL_EXISTS,
	SEL_NOT_EXISTS,
	SEL_GT,
	SEL_LT,
};

struct sel_req {
	char		 *key;
	enum sel_op	  op;
	char		**values;
	size_t		  nvalues;
};

struct dra_selector {
	struct sel_req	*reqs;
	size_t		 nreqs;
};

struct sel_parser {
	const char	*text;
	const char	*p;
	struct dra_err	*err;
};

static int	sel_word(struct sel_parser *, char **, int);

static void
sel_ws(struct sel_parser *sp)
{
	while (*sp->p == ' ' || *sp->p == '\t')
		sp->p++;
}

static int
sel_fail(struct sel_parser *sp, const char *what)
{
	size_t	pos = (size_t)(sp->p - sp->text) + 1;

	if (*sp->p == '\0')
		return dra_err_set(sp->err, KUBE_E_PARSE,
		    "invalid label selector \"%s\": position %zu: %s, found "
		    "end of selector", sp->text, pos, what);
	return dra_err_set(sp->err, KUBE_E_PARSE,
	    "invalid label selector \"%s\": position %zu: %s, found '%c'",
	    sp->text, pos, what, *sp->p);
}

static int
sel_is_word(int c)
{
	return isalnum(c) || c == '-' || c == '_' || c == '.' || c == '/';
}

/* A key or value; empty allowed only for values. */
static int
sel_word(struct sel_parser *sp, char **out, int empty_ok)
{
	const char	*start;

	sel_ws(sp);
	start = sp->p;
	while (sel_is_word((unsigned char)*sp->p))
		sp->p++;
	if (sp->p == start && !empty_ok) {
		*out = NULL;
		return sel_fail(sp, "expected a label key");
	}
	*out = xstrndup(start, sp->p - start);
	return KUBE_OK;
}

static void
sel_add_value(struct sel_req *r, char *v)
{
	r->values = xreallocarray(r->values, r->nvalues + 1,
	    sizeof *r->values);
	r->values[r->nvalues++] = v;
}

static int
sel_set(struct sel_parser *sp, struct sel_req *r)
{
	char	*v;
	int	 rc;

	sel_ws(sp);
	if (*sp->p != '(')
		return sel_fail(sp, "expected '('");
	sp->p++;
	for (;;) {
		sel_ws(sp);
		rc = sel_word(sp, &v, 1);
		if (rc != KUBE_OK)
			return rc;
		sel_add_value(r, v);
		sel_ws(sp);
		if (*sp->p == ',') {
			sp->p++;
			continue;
		}
		if (*sp->p == ')') {
			sp->p++;
			return KUBE_OK;
		}
		return sel_fail(sp, "expected ',' or ')'");
	}
}

static int
sel_keyword(struct sel_parser *sp, const char *kw)
{
	size_t	n = strlen(kw);

	if (strncmp(sp->p, kw, n) != 0)
		return 0;
	if (sel_is_word((unsigned char)sp->p[n]))
		return 0;
	sp->p += n;
	return 1;
}

static int
sel_req(struct sel_parser *sp, struct sel_req *r)
{
	char	*v;
	int	 rc;

	sel_ws(sp);
	if (*sp->p == '!') {
		sp->p++;
		r->op = SEL_NOT_EXISTS;
		return sel_word(sp, &r->key, 0);
	}
	rc = sel_word(sp, &r->key, 0);
	if (rc != KUBE_OK)
		return rc;
	sel_ws(sp);
	switch (*sp->p) {
	case '\0':
	case ',':
		r->op = SEL_EXISTS;
		return KUBE_OK;
	case '=':
		sp->p++;
		if (*sp->p == '=')
			sp->p++;
		r->op = SEL_EQ;
		break;
	case '!':
		if (sp->p[1] != '=')
			return sel_fail(sp, "expected '!=', '=', '==', 'in' "
			    "or 'notin'");
		sp->p += 2;
		r->op = SEL_NE;
		break;
	case '>':
		sp->p++;
		r->op = SEL_GT;
		break;
	case '<':
		sp->p++;
		r->op = SEL_LT;
		break;
	default:
		if (sel_keyword(sp, "in")) {
			r->op = SEL_IN;
			return sel_set(sp, r);
		}
		if (sel_keyword(sp, "notin")) {
			r->op = SEL_NOTIN;
			return sel_set(sp, r);
		}
		return sel_fail(sp, "expected '=', '==', '!=', 'in', "
		    "'notin' or ','");
	}
	rc = sel_word(sp, &v, r->op == SEL_EQ || r->op == SEL_NE);
	if (rc != KUBE_OK)
		return rc;
	sel_add_value(r, v);
	if ((r->op == SEL_GT || r->op == SEL_LT) &&
	    strspn(v, "-0123456789") != strlen(v))
		return dra_err_set(sp->err, KUBE_E_PARSE,
		    "invalid label selector \"%s\": for '>' and '<' the "
		    "value must be an integer", sp->text);
	return KUBE_OK;
}

int
dra_selector_parse(const char *text, struct dra_selector **out,
    struct dra_err *err)
{
	struct dra_selector	*sel;
	struct sel_parser	 sp;
	struct sel_req		*r;
	int			 rc;

	sel = xcalloc(1, sizeof *sel);
	*out = NULL;
	sp.text = text;
	sp.p = text;
	sp.err = err;
	sel_ws(&sp);
	if (*sp.p == '\0') {
		*out = sel;
		return KUBE_OK;
	}
	for (;;) {
		sel->reqs = xreallocarray(sel->reqs, sel->nreqs + 1,
		    sizeof *sel->reqs);
		r = &sel->reqs[sel->nreqs++];
		memset(r, 0, sizeof *r);
		rc = sel_req(&sp, r);
		if (rc != KUBE_OK) {
			dra_selector_free(sel);
			return rc;
		}
		sel_ws(&sp);
		if (*sp.p == '\0')
			break;
		if (*sp.p != ',') {
			rc = sel_fail(&sp, "expected ','");
			dra_selector_free(sel);
			return rc;
		}
		sp.p++;
	}
	*out = sel;
	return KUBE_OK;
}

static int
sel_in(const struct sel_req *r, const char *v)
{
	size_t	i;

	for (i = 0; i < r->nvalues; i++) {
		if (strcmp(r->values[i], v) == 0)
			return 1;
	}
	return 0;
}

int
dra_selector_match(const struct dra_selector *sel,
    const struct kube_kv *labels, size_t n)
{
	const struct sel_req	*r;
	const char		*v;
	long long		 a, b;
	size_t			 i;

	if (sel == NULL)
		return 1;
	for (i = 0; i < sel->nreqs; i++) {
		r = &sel->reqs[i];
		v = labels != NULL ? kube_kv_get(labels, n, r->key) : NULL;
		switch (r->op) {
		case SEL_EQ:
		case SEL_IN:
			if (v == NULL || !sel_in(r, v))
				return 0;
			break;
		case SEL_NE:
		case SEL_NOTIN:
			if (v != NULL && sel_in(r, v))
				return 0;
			break;
		case SEL_EXISTS:
			if (v == NULL)
				return 0;
			break;
		case SEL_NOT_EXISTS:
			if (v != NULL)
				return 0;
			break;
		case SEL_GT:
		case SEL_LT:
			if (v == NULL || *v == '\0' ||
			    strspn(v, "-0123456789") != strlen(v))
				return 0;
			a = strtoll(v, NULL, 10);
			b = strtoll(r->values[0], NULL, 10);
			if (r->op == SEL_GT ? !(a > b) : !(a < b))
				return 0;
			break;
		}
	}
	return 1;
}

void
dra_selector_free(struct dra_selector *sel)
{
	size_t	i, j;

	if (sel == NULL)
		return;
	for (i = 0; i < sel->nreqs; i++) {
		free(sel->reqs[i].key);
		for (j = 0; j < sel->reqs[i].nvalues; j++)
			free(sel->reqs[i].values[j]);
		free(sel->reqs[i].values);
	}
	free(sel->reqs);
	free(sel);
}
