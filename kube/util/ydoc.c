/*
 * ydoc.c: a YAML document loaded into a small tree with positions
 * (ydoc.h), shared by the kubeconfig and demand readers.
 */
#include "ydoc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "xmalloc.h"
#include "yamlscalar.h"

struct yanchor {
	struct yanchor		*next;
	const char		*name;
	struct kube_ynode	*node;
	unsigned long		 weight;
};

struct yframe {
	struct kube_ynode	 *node;
	const char		 *anchor;
	struct kube_ynode	**kids;
	size_t			  n;
	size_t			  cap;
	unsigned long		  weight;	/* expanded size */
};

static struct kube_ynode *yaml_node(struct dra_arena *, enum kube_ytype,
	    const yaml_mark_t *);
static void	yaml_push_kid(struct yframe *, struct kube_ynode *,
	    unsigned long);

static struct kube_ynode *
yaml_node(struct dra_arena *a, enum kube_ytype type, const yaml_mark_t *m)
{
	struct kube_ynode	*n;

	n = dra_arena_alloc(a, sizeof *n);
	n->type = type;
	n->line = (unsigned long)m->line + 1;
	n->col = (unsigned long)m->column + 1;
	return n;
}

static void
yaml_push_kid(struct yframe *f, struct kube_ynode *kid, unsigned long w)
{
	if (f->n == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 8;
		f->kids = xreallocarray(f->kids, f->cap, sizeof *f->kids);
	}
	f->kids[f->n++] = kid;
	f->weight += w;
	if (f->weight > KUBE_YAML_MAX_EXPANDED)
		f->weight = KUBE_YAML_MAX_EXPANDED + 1;
}

int
kube_yaml_load(const char *path, const char *data, size_t len,
    unsigned flags, const char *one_doc, int code, struct dra_arena *a,
    struct kube_ynode **root, struct dra_err *err)
{
	yaml_parser_t		 parser;
	yaml_event_t		 ev;
	struct yframe		 stack[KUBE_YAML_MAX_DEPTH + 1];
	struct yanchor		*anchors = NULL, *an;
	struct kube_ynode	*node, *done = NULL;
	unsigned long		 weight = 0;
	size_t			 depth = 0, i;
	int			 rc = KUBE_OK, finished = 0, docs = 0;
	const char		*anchor;

	*root = NULL;
	memset(stack, 0, sizeof stack);
	if (!yaml_parser_initialize(&parser))
		return dra_err_set(err, code,
		    "%s: cannot initialise the yaml parser", path);
	yaml_parser_set_input_string(&parser, (const unsigned char *)data,
	    len);

	while (!finished) {
		if (!yaml_parser_parse(&parser, &ev)) {
			rc = dra_err_set(err, code,
			    "%s:%lu:%lu: %s%s%s", path,
			    (unsigned long)parser.problem_mark.line + 1,
			    (unsigned long)parser.problem_mark.column + 1,
			    parser.problem != NULL ? parser.problem :
			    "malformed yaml",
			    parser.context != NULL ? " " : "",
			    parser.context != NULL ? parser.context : "");
			break;
		}
		node = NULL;
		anchor = NULL;
		switch (ev.type) {
		case YAML_DOCUMENT_START_EVENT:
			if (++docs > 1 && (flags & KUBE_YAML_ONE_DOC))
				rc = dra_err_set(err, code,
				    "%s:%lu:%lu: a second document: %s", path,
				    (unsigned long)ev.start_mark.line + 1,
				    (unsigned long)ev.start_mark.column + 1,
				    one_doc != NULL ? one_doc : "one is "
				    "expected");
			break;
		case YAML_DOCUMENT_END_EVENT:
			/* Only the first document counts (go-yaml v2). */
			if (!(flags & KUBE_YAML_ONE_DOC))
				finished = 1;
			break;
		case YAML_STREAM_END_EVENT:
			finished = 1;
			break;
		case YAML_SCALAR_EVENT:
			node = yaml_node(a, KUBE_Y_SCALAR, &ev.start_mark);
			node->str = dra_arena_strndup(a,
			    (const char *)ev.data.scalar.value,
			    ev.data.scalar.length);
			node->len = strlen(node->str);
			if ((flags & KUBE_YAML_NO_NUL) &&
			    node->len != ev.data.scalar.length)
				rc = dra_err_set(err, code,
				    "%s:%lu:%lu: a NUL character in a value",
				    path, node->line, node->col);
			node->plain = ev.data.scalar.style ==
			    YAML_PLAIN_SCALAR_STYLE &&
			    ev.data.scalar.tag == NULL;
			if (ev.data.scalar.tag != NULL && strcmp((const char *)
			    ev.data.scalar.tag, "!!str") != 0 &&
			    strcmp((const char *)ev.data.scalar.tag,
			    YAML_STR_TAG) != 0)
				node->plain = 1;	/* !!bool, !!int... */
			anchor = (const char *)ev.data.scalar.anchor;
			weight = 1;
			break;
		case YAML_ALIAS_EVENT:
			for (an = anchors; an != NULL; an = an->next)
				if (strcmp(an->name,
				    (const char *)ev.data.alias.anchor) == 0)
					break;
			if (an == NULL) {
				rc = dra_err_set(err, code,
				    "%s:%lu:%lu: unknown anchor \"%s\"", path,
				    (unsigned long)ev.start_mark.line + 1,
				    (unsigned long)ev.start_mark.column + 1,
				    (const char *)ev.data.alias.anchor);
				break;
			}
			node = an->node;
			weight = an->weight;
			break;
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (depth == KUBE_YAML_MAX_DEPTH) {
				rc = dra_err_set(err, code,
				    "%s:%lu:%lu: nesting deeper than %d levels",
				    path, (unsigned long)ev.start_mark.line + 1,
				    (unsigned long)ev.start_mark.column + 1,
				    KUBE_YAML_MAX_DEPTH);
				break;
			}
			depth++;
			memset(&stack[depth], 0, sizeof stack[depth]);
			stack[depth].node = yaml_node(a,
			    ev.type == YAML_MAPPING_START_EVENT ? KUBE_Y_MAP :
			    KUBE_Y_SEQ, &ev.start_mark);
			anchor = ev.type == YAML_MAPPING_START_EVENT ?
			    (const char *)ev.data.mapping_start.anchor :
			    (const char *)ev.data.sequence_start.anchor;
			if (anchor != NULL)
				stack[depth].anchor = dra_arena_strdup(a,
				    anchor);
			stack[depth].weight = 1;
			anchor = NULL;
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			node = stack[depth].node;
			node->n = stack[depth].n;
			if (node->n > 0) {
				node->kids = dra_arena_calloc(a, node->n,
				    sizeof *node->kids);
				memcpy(node->kids, stack[depth].kids,
				    node->n * sizeof *node->kids);
			}
			free(stack[depth].kids);
			stack[depth].kids = NULL;
			anchor = stack[depth].anchor;
			weight = stack[depth].weight;
			depth--;
			break;
		default:
			break;
		}
		if (rc == KUBE_OK && node != NULL) {
			if (anchor != NULL) {
				an = dra_arena_alloc(a, sizeof *an);
				an->name = dra_arena_strdup(a, anchor);
				an->node = node;
				an->weight = weight;
				an->next = anchors;
				anchors = an;
			}
			if (depth == 0)
				done = node;
			else
				yaml_push_kid(&stack[depth], node, weight);
			if ((depth == 0 ? weight :
			    stack[depth].weight) > KUBE_YAML_MAX_EXPANDED)
				rc = dra_err_set(err, code,
				    "%s:%lu:%lu: the document expands to more than "
				    "%lu nodes through aliases", path,
				    (unsigned long)ev.start_mark.line + 1,
				    (unsigned long)ev.start_mark.column + 1,
				    KUBE_YAML_MAX_EXPANDED);
		}
		yaml_event_delete(&ev);
		if (rc != KUBE_OK)
			break;
	}
	for (i = 1; i <= depth; i++)
		free(stack[i].kids);
	yaml_parser_delete(&parser);
	(void)docs;
	if (rc == KUBE_OK)
		*root = done;
	return rc;
}

const struct kube_ynode *
kube_ynode_get(const struct kube_ynode *m, const char *key)
{
	const struct kube_ynode	*found = NULL, *k;
	size_t			 i;

	if (m == NULL || m->type != KUBE_Y_MAP)
		return NULL;
	for (i = 0; i + 1 < m->n; i += 2) {
		k = m->kids[i];
		if (k->type == KUBE_Y_SCALAR && strcmp(k->str, key) == 0)
			found = m->kids[i + 1];
	}
	return found;
}

int
kube_ynode_is_null(const struct kube_ynode *n)
{
	if (n == NULL)
		return 1;
	double	d;
	int	b;

	if (n->type != KUBE_Y_SCALAR || !n->plain)
		return 0;
	return dra_yaml_resolve(n->str, n->len, &d, &b) == DRA_YAML_NULL;
}

