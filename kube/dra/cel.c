/*
 * cel.c: the public API of the selector CEL (see cel.h).
 *
 * Compilation parses and checks the expression (cel-parse.c);
 * evaluation walks the program with a bump arena that starts on the
 * C stack (cel-eval.c), so a typical selector costs no malloc.
 */
#include "cel.h"

#include <stdlib.h>
#include <string.h>

#include "cel-int.h"
#include "xmalloc.h"

/* Bytes of the evaluation arena kept on the stack. */
#define EVAL_STACK	2048

int
dra_cel_compile(const char *expr, struct dra_cel **out, struct dra_err *err)
{
	struct dra_cel	*p;
	int		 rc;

	*out = NULL;
	p = xcalloc(1, sizeof *p);
	p->text = xstrdup(expr);
	p->root = -1;
	dra_arena_init(&p->arena);
	rc = cel_parse(p, err);
	if (rc != KUBE_OK) {
		dra_cel_free(p);
		return rc;
	}
	if (p->root < 0 && p->unsupported == NULL)
		p->unsupported = xstrdup("unsupported CEL construct "
		    "expression at column 1");
	*out = p;
	return KUBE_OK;
}

int
dra_cel_eval(const struct dra_cel *p, const struct kube_device *d,
    struct dra_err *err)
{
	struct cel_ctx	 c;
	struct cel_val	 v;
	max_align_t	 stack[EVAL_STACK / sizeof(max_align_t)];
	void		*ch, *next;
	int		 rc;

	if (p->unsupported != NULL) {
		dra_err_set(err, KUBE_E_UNSUPPORTED, "%s", p->unsupported);
		return DRA_CEL_UNSUPPORTED;
	}
	/* All but vars, which are set before use. */
	memset(&c, 0, offsetof(struct cel_ctx, vars));
	c.p = p;
	c.d = d;
	c.buf = (char *)stack;
	c.size = sizeof stack;
	c.used = 0;
	c.chunks = NULL;
	v = cel_eval(&c, p->root);
	switch (v.k) {
	case CV_BOOL:
		rc = v.b ? DRA_CEL_TRUE : DRA_CEL_FALSE;
		break;
	case CV_UNSUP:
		dra_err_set(err, KUBE_E_UNSUPPORTED, "%s", v.s);
		rc = DRA_CEL_UNSUPPORTED;
		break;
	case CV_ERR:
		dra_err_set(err, KUBE_E_API, "%s", v.s);
		rc = DRA_CEL_ERROR;
		break;
	default:
		/* dynamic-resource-allocation cel DeviceMatches. */
		dra_err_set(err, KUBE_E_API, "CEL result of type %s could not "
		    "be converted to bool", cel_value_type_name(v));
		rc = DRA_CEL_ERROR;
		break;
	}
	for (ch = c.chunks; ch != NULL; ch = next) {
		next = *(void **)ch;
		free(ch);
	}
	return rc;
}

const char *
dra_cel_text(const struct dra_cel *p)
{
	return p->text;
}

int
dra_cel_unsupported(const struct dra_cel *p, const char **why)
{
	if (p->unsupported == NULL)
		return 0;
	if (why != NULL)
		*why = p->unsupported;
	return 1;
}

void
dra_cel_free(struct dra_cel *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->nnodes; i++)
		if (p->nodes[i].re != NULL)
			cel_regex_free(p->nodes[i].re);
	if (p->mctx != NULL)
		cel_regex_free_context(p->mctx);
	dra_arena_release(&p->arena);
	free(p->nodes);
	free(p->args);
	free(p->unsupported);
	free(p->text);
	free(p);
}
