/*
 * tui.c: the UI model: the snapshot on show, the stack of views, the
 * command and filter prompts, the status line, and the drawing of
 * what surrounds the views (header, title, breadcrumbs, status).
 *
 * Keys go to the top view first (its own key table, then the moving
 * keys), then to the global table; each handler returns reaction
 * flags (TUI_REDRAW, TUI_REFRESH, TUI_QUIT) and the loop (loop.c)
 * decides what to do with them.  The root views (gpus, claims, ...)
 * are kept once made, so coming back to one finds its filter, sort
 * and selection; a new snapshot rebuilds the view on screen at once
 * and the others when they are shown again.
 */
#include "tui-int.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "buf.h"
#include "gpus.h"
#include "strdist.h"
#include "xmalloc.h"

static void	count_snapshot(struct tui *);
static void	pop_view(struct tui *);
static int	global_action(struct tui *, enum tui_action);
static int	prompt_key(struct tui *, int);
static void	prompt_done(struct tui *, int);
static int	cmd_namespace(struct tui *, const char *);
static int	ns_has_objects(const struct kube_snapshot *, const char *);
static size_t	ns_known(const struct kube_snapshot *, const char **, size_t);
static void	ns_unknown(struct tui *, const char *);
static int	cmd_context(struct tui *, const char *);
static int	cmd_why(struct tui *, const char *);
static const char *why_find(const struct kube_snapshot *, int, const char *,
		    size_t *);
static int	cmd_warnings(struct tui *);
static void	draw_header(struct tui *);
static void	draw_title(struct tui *, struct tui_view *);
static void	draw_footer(struct tui *);
static void	draw_small(struct tui *, const char *);
static int	root_index(const struct tui_view_type *);
static int	is_root(const struct tui *, const struct tui_view *);
static void	invalidate_views(struct tui *);
static void	candidate(const char *, const char *, const char **, size_t *,
		    size_t);

const struct tui_view_type *const tui_root_views[] = {
	&tui_view_gpus,
	&tui_view_claims,
	&tui_view_devices,
	&tui_view_pools,
	&tui_view_slices,
	&tui_view_classes,
	&tui_view_quotas,
	&tui_view_nodes,
	&tui_view_templates,
	NULL
};

/* The ":" words that are not views. */
static const struct {
	const char	*word;
	const char	*args;
	const char	*help;
} commands[] = {
	{ "ns", "[NAME|-]", "show namespace NAME; alone or '-': all "
	    "namespaces" },
	{ "ctx", "[NAME]", "list the kubeconfig's contexts, or switch to "
	    "NAME" },
	{ "why", "KIND/NAME", "why a claim, pod or template (KIND) gets "
	    "its devices or not" },
	{ "plan", "", "the plan preview (--plan FILE)" },
	{ "warnings", "", "the data's warnings (the header counts them)" },
	{ "help", "", "this help" },
	{ "-", "", "the previous view" },
	{ "quit", "", "quit (also :q)" },
};
#define NCOMMANDS	(sizeof commands / sizeof commands[0])

int64_t
tui_now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void
tui_status(struct tui *t, int err, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(t->status, sizeof t->status, fmt, ap);
	va_end(ap);
	t->status_err = err;
	t->status_busy = 0;
	t->status_ms = t->now_ms;
}

void
tui_busy(struct tui *t, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(t->status, sizeof t->status, fmt, ap);
	va_end(ap);
	t->status_err = 0;
	t->status_busy = 1;
	t->status_ms = t->now_ms;
}

void
tui_note(struct tui *t, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(t->note, sizeof t->note, fmt, ap);
	va_end(ap);
	/* Counted again (tui_warning_count). */
	t->map_warn_gen = 0;
}

size_t
tui_warning_count(struct tui *t)
{
	struct dra_gpu_map	*m;
	struct dra_err		 err;

	if (t->snap == NULL)
		return 0;
	if (t->map_warn_gen != t->gen) {
		/* Only a map that had warnings is made again to count
		   them: they are rare, and the map costs tens of ms. */
		t->map_nwarnings = 0;
		if (t->note[0] != '\0') {
			dra_err_clear(&err);
			m = dra_gpu_map(t->snap, NULL, &err);
			if (m != NULL)
				t->map_nwarnings = m->nwarnings;
			dra_gpu_map_free(m);
		}
		t->map_warn_gen = t->gen;
	}
	return t->nwarnings + t->map_nwarnings;
}

const char *
tui_namespace(const struct tui *t)
{
	return t->ns[0] != '\0' ? t->ns : NULL;
}

struct tui_view *
tui_top(const struct tui *t)
{
	return t->depth > 0 ? t->stack[t->depth - 1] : NULL;
}

const struct tui_view_type *
tui_view_find(const char *word)
{
	const struct tui_view_type	*vt;
	const struct dra_kind_info	*k;
	size_t				 i, j;

	for (i = 0; tui_root_views[i] != NULL; i++) {
		vt = tui_root_views[i];
		if (strcasecmp(vt->name, word) == 0)
			return vt;
		for (j = 0; vt->aliases != NULL && vt->aliases[j] != NULL;
		    j++) {
			if (strcasecmp(vt->aliases[j], word) == 0)
				return vt;
		}
	}
	k = dra_kind_find(word);
	if (k != NULL) {
		for (i = 0; tui_root_views[i] != NULL; i++) {
			if (tui_root_views[i]->kind == (int)k->kind)
				return tui_root_views[i];
		}
	}
	return NULL;
}

int
tui_view_known(const char *word)
{
	return word != NULL && tui_view_find(word) != NULL;
}

const char *const *
tui_view_names(void)
{
	static const char	*names[TUI_MAX_ROOTS + 1];
	size_t			 i;

	for (i = 0; tui_root_views[i] != NULL && i < TUI_MAX_ROOTS; i++)
		names[i] = tui_root_views[i]->name;
	names[i] = NULL;
	return names;
}

static int
root_index(const struct tui_view_type *vt)
{
	int	i;

	for (i = 0; tui_root_views[i] != NULL; i++) {
		if (tui_root_views[i] == vt)
			return i;
	}
	return -1;
}

struct tui_view *
tui_view_new(struct tui *t, const struct tui_view_type *vt, const void *arg)
{
	struct tui_view	*v;

	v = xcalloc(1, sizeof *v);
	v->type = vt;
	v->tui = t;
	/* init builds from the snapshot itself and sets gen, or the view
	   is built by tui_prepare when it is shown. */
	if (vt->init(v, arg) != 0) {
		free(v);
		return NULL;
	}
	return v;
}

void
tui_view_free(struct tui_view *v)
{
	if (v == NULL)
		return;
	v->type->free(v);
	free(v);
}

static int
is_root(const struct tui *t, const struct tui_view *v)
{
	int	i;

	for (i = 0; i < TUI_MAX_ROOTS; i++) {
		if (t->roots[i] == v)
			return 1;
	}
	return 0;
}

void
tui_push(struct tui *t, struct tui_view *v)
{
	if (t->depth == TUI_MAX_DEPTH) {
		/* Drop the oldest detail view above the root. */
		if (!is_root(t, t->stack[1]))
			tui_view_free(t->stack[1]);
		memmove(t->stack + 1, t->stack + 2,
		    (TUI_MAX_DEPTH - 2) * sizeof *t->stack);
		t->depth--;
	}
	t->stack[t->depth++] = v;
}

static void
pop_view(struct tui *t)
{
	struct tui_view	*v;

	if (t->depth <= 1)
		return;
	v = t->stack[--t->depth];
	if (!is_root(t, v))
		tui_view_free(v);
}

int
tui_set_root(struct tui *t, const struct tui_view_type *vt)
{
	struct tui_view	*v;
	int		 i = root_index(vt);

	if (i < 0 || i >= TUI_MAX_ROOTS)
		return -1;
	if (t->roots[i] == NULL) {
		v = tui_view_new(t, vt, NULL);
		if (v == NULL)
			return -1;
		t->roots[i] = v;
	}
	while (t->depth > 1)
		pop_view(t);
	if (t->depth == 1 && t->stack[0] != t->roots[i])
		t->last_root = t->stack[0]->type;
	t->stack[0] = t->roots[i];
	t->depth = 1;
	return 0;
}

struct tui *
tui_new(const struct tui_opts *opts, struct tui_source *src)
{
	const struct tui_view_type	*vt = NULL;
	struct tui			*t;

	t = xcalloc(1, sizeof *t);
	t->opts = *opts;
	t->src = src;
	t->lines = 24;
	t->cols = 80;
	t->gen = 1;
	if (opts->namespace != NULL)
		snprintf(t->ns, sizeof t->ns, "%s", opts->namespace);
	if (opts->view != NULL)
		vt = tui_view_find(opts->view);
	if (vt == NULL)
		vt = tui_root_views[0];
	if (tui_set_root(t, vt) != 0)
		tui_set_root(t, &tui_view_claims);
	return t;
}

void
tui_free(struct tui *t)
{
	int	i;

	if (t == NULL)
		return;
	while (t->depth > 1)
		pop_view(t);
	t->depth = 0;
	for (i = 0; i < TUI_MAX_ROOTS; i++)
		tui_view_free(t->roots[i]);
	dra_gpu_map_free(t->plan_map);
	kube_snapshot_free(t->snap);
	kube_snapshot_free(t->pending);
	free(t);
}

/* The header's counts, once per snapshot. */
static void
count_snapshot(struct tui *t)
{
	const struct kube_snapshot	*s = t->snap;
	const char			*ns = tui_namespace(t);
	size_t				 i;

	const struct kube_warning	**w;

	t->nclaims = t->npending = t->ndevices = t->nallocated = 0;
	if (s == NULL)
		return;
	t->nwarnings = tui_snapshot_warnings(s, &w);
	free(w);
	for (i = 0; i < s->claims.n; i++) {
		const struct kube_claim	*c = s->claims.v[i];

		if (ns != NULL && (c->meta.namespace == NULL ||
		    strcmp(c->meta.namespace, ns) != 0))
			continue;
		t->nclaims++;
		if (!c->allocated)
			t->npending++;
	}
	for (i = 0; i < s->pools.n; i++) {
		t->ndevices += s->pools.v[i]->ndevices;
		t->nallocated += s->pools.v[i]->nallocated;
	}
}

/* Every view but the top one lets go of the snapshot; the top one
   rebuilds. */
static void
invalidate_views(struct tui *t)
{
	struct tui_view	*top = tui_top(t);
	int		 i;

	for (i = 0; i < TUI_MAX_ROOTS; i++) {
		if (t->roots[i] != NULL && t->roots[i] != top) {
			t->roots[i]->type->update(t->roots[i], NULL);
			t->roots[i]->gen = 0;
		}
	}
	for (i = 0; i < t->depth; i++) {
		if (t->stack[i] != top && !is_root(t, t->stack[i])) {
			t->stack[i]->type->update(t->stack[i], NULL);
			t->stack[i]->gen = 0;
		}
	}
	if (top != NULL && t->snap != NULL) {
		top->type->update(top, t->snap);
		top->gen = t->gen;
	}
}

void
tui_set_snapshot(struct tui *t, struct kube_snapshot *s)
{
	struct kube_snapshot	*old = t->snap;

	if (s == NULL)
		return;
	if (t->pending == s)
		t->pending = NULL;
	t->snap = s;
	t->gen++;
	invalidate_views(t);
	kube_snapshot_free(old);
	count_snapshot(t);
}

void
tui_offer_snapshot(struct tui *t, struct kube_snapshot *s)
{
	if (s == NULL)
		return;
	if (t->snap != NULL && t->last_key_ms != 0 &&
	    t->now_ms - t->last_key_ms < TUI_HOLD_MS) {
		kube_snapshot_free(t->pending);
		t->pending = s;
		return;
	}
	kube_snapshot_free(t->pending);
	t->pending = NULL;
	tui_set_snapshot(t, s);
}

int
tui_tick(struct tui *t, int64_t now_ms)
{
	int	r = 0;

	t->now_ms = now_ms;
	/* A message goes when old enough (not while a prompt shows what
	   the filter said). */
	if (t->status[0] != '\0' && t->mode == TUI_MODE_NORMAL &&
	    now_ms - t->status_ms >= (t->status_err ? TUI_ERROR_MS :
	    TUI_STATUS_MS)) {
		t->status[0] = '\0';
		t->status_err = t->status_busy = 0;
		r = TUI_REDRAW;
	}
	if (t->pending != NULL && now_ms - t->last_key_ms >= TUI_HOLD_MS) {
		tui_set_snapshot(t, t->pending);
		r = TUI_REDRAW;
	}
	return r;
}

void
tui_resize(struct tui *t, int lines, int cols)
{
	t->lines = lines;
	t->cols = cols;
}

void
tui_prepare(struct tui *t)
{
	struct tui_view	*v = tui_top(t);
	int		 h = t->lines - TUI_HEAD_LINES - TUI_FOOT_LINES;

	if (v == NULL)
		return;
	if (v->gen != t->gen && t->snap != NULL) {
		v->type->update(v, t->snap);
		v->gen = t->gen;
	}
	if (v->type->layout != NULL)
		v->type->layout(v, h > 1 ? h : 1, t->cols);
	/* For the header; a view's update may have found new ones. */
	tui_warning_count(t);
}

const struct dra_gpu_map *
tui_plan_map(struct tui *t)
{
	struct dra_err	err;

	if (t->plan_map != NULL)
		return t->plan_map;
	if (t->opts.plan == NULL) {
		snprintf(t->plan_err, sizeof t->plan_err, "no plan: start "
		    "with --plan FILE (a document of kubectl dra plan -o "
		    "yaml)");
		return NULL;
	}
	dra_err_clear(&err);
	t->plan_map = dra_gpu_map_plan(t->opts.plan, &err);
	if (t->plan_map == NULL)
		snprintf(t->plan_err, sizeof t->plan_err, "%.200s: %.900s",
		    t->opts.plan_file != NULL ? t->opts.plan_file : "plan",
		    err.msg);
	return t->plan_map;
}

/* ---- commands --------------------------------------------------------- */

/* The namespaced objects' namespaces, each once, into v (max). */
static size_t
ns_known(const struct kube_snapshot *s, const char **v, size_t max)
{
	const char	*ns;
	size_t		 n = 0, i, j, k;

	for (k = 0; k < 5; k++) {
		for (i = 0; ; i++) {
			if (k == 0 && i < s->namespaces.n)
				ns = s->namespaces.v[i]->meta.name;
			else if (k == 1 && i < s->claims.n)
				ns = s->claims.v[i]->meta.namespace;
			else if (k == 2 && i < s->pods.n)
				ns = s->pods.v[i]->meta.namespace;
			else if (k == 3 && i < s->templates.n)
				ns = s->templates.v[i]->meta.namespace;
			else if (k == 4 && i < s->quotas.n)
				ns = s->quotas.v[i]->meta.namespace;
			else
				break;
			if (ns == NULL || (k == 0 && !ns_has_objects(s, ns)))
				continue;
			for (j = 0; j < n && strcmp(v[j], ns) != 0; j++)
				;
			if (j == n && n < max)
				v[n++] = ns;
		}
	}
	return n;
}

/* Whether a claim, pod, template or quota of the snapshot is in ns. */
static int
ns_has_objects(const struct kube_snapshot *s, const char *ns)
{
	size_t	i;

#define NS_IN(vec) \
	for (i = 0; i < s->vec.n; i++) \
		if (s->vec.v[i]->meta.namespace != NULL && \
		    strcmp(s->vec.v[i]->meta.namespace, ns) == 0) \
			return 1;
	NS_IN(claims)
	NS_IN(pods)
	NS_IN(templates)
	NS_IN(quotas)
#undef NS_IN
	return 0;
}

/*
 * ":ns NAME" for a namespace without objects: taken (it may be empty),
 * and said, with the closest namespace that has some, or those there
 * are.
 */
static void
ns_unknown(struct tui *t, const char *ns)
{
	const char	*known[64], *best = NULL;
	char		 list[256];
	size_t		 n, i, d, bd = 0, o = 0;

	n = ns_known(t->snap, known, 64);
	for (i = 0; i < n; i++) {
		d = dra_strdist(ns, known[i], 1);
		if (d <= 2 && (best == NULL || d < bd)) {
			best = known[i];
			bd = d;
		}
	}
	if (best != NULL) {
		tui_status(t, 0, "namespace: %s (no objects in namespace %s; "
		    "did you mean \"%s\"?)", ns, ns, best);
		return;
	}
	list[0] = '\0';
	for (i = 0; i < n && i < 8 && o + 1 < sizeof list; i++) {
		snprintf(list + o, sizeof list - o, "%s%s", i > 0 ? ", " : "",
		    known[i]);
		o = strlen(list);
	}
	if (n == 0)
		tui_status(t, 0, "namespace: %s (no objects in namespace %s)",
		    ns, ns);
	else
		tui_status(t, 0, "namespace: %s (no objects in namespace %s; "
		    "namespaces with objects: %s%s)", ns, ns, list, n > 8 ?
		    ", ..." : "");
}

static int
cmd_namespace(struct tui *t, const char *arg)
{
	struct dra_err	err;
	const char	*ns = arg;
	int		 narrow;

	if (arg == NULL || strcmp(arg, "-") == 0 || strcmp(arg, "all") == 0 ||
	    strcmp(arg, "*") == 0 || strcmp(arg, "-A") == 0)
		ns = NULL;
	/* A source that lists one namespace lists this one instead. */
	narrow = t->src != NULL && t->src->set_namespace != NULL &&
	    (t->opts.narrow_source || (t->have_st && t->st.narrowed));
	if (narrow) {
		dra_err_clear(&err);
		if (t->src->set_namespace(t->src->arg, ns, &err) != KUBE_OK) {
			tui_status(t, 1, "namespace: %s", err.msg);
			return TUI_REDRAW;
		}
	}
	snprintf(t->ns, sizeof t->ns, "%s", ns != NULL ? ns : "");
	t->gen++;
	invalidate_views(t);
	count_snapshot(t);
	/* (A source that narrows lists the namespace anew.) */
	if (ns != NULL && t->snap != NULL && !narrow &&
	    !ns_has_objects(t->snap, ns))
		ns_unknown(t, ns);
	else if (narrow && !t->opts.narrow_source)
		tui_busy(t, "namespace: %s: listing%s", ns != NULL ? ns :
		    "all namespaces", tui_glyphs()->ellipsis);
	else
		tui_status(t, 0, "namespace: %s", ns != NULL ? ns :
		    "all namespaces");
	return TUI_REDRAW | (t->opts.narrow_source && t->src != NULL &&
	    t->src->set_namespace != NULL ? TUI_REFRESH : 0);
}

static int
cmd_context(struct tui *t, const char *arg)
{
	struct tui_view		*v;
	struct kube_snapshot	*s;
	struct dra_err		 err;

	if (t->src == NULL || t->src->contexts == NULL) {
		tui_status(t, 1, "contexts: not available when reading a "
		    "file (--from)");
		return TUI_REDRAW;
	}
	if (arg == NULL) {
		v = tui_view_new(t, &tui_view_contexts, NULL);
		if (v != NULL)
			tui_push(t, v);
		return TUI_REDRAW;
	}
	if (t->src->set_context == NULL) {
		tui_status(t, 1, "contexts: switching is not available");
		return TUI_REDRAW;
	}
	dra_err_clear(&err);
	if (t->src->set_context(t->src->arg, arg, &err) != KUBE_OK) {
		tui_status(t, 1, "context %s: %s", arg, err.msg);
		return TUI_REDRAW;
	}
	/* Nothing of the old context under the new one's name. */
	s = kube_snapshot_new();
	kube_snapshot_finish(s);
	kube_snapshot_free(t->pending);
	t->pending = NULL;
	tui_set_snapshot(t, s);
	/* Enter on the contexts list: back where it was opened from. */
	if ((v = tui_top(t)) != NULL && v->type == &tui_view_contexts)
		pop_view(t);
	tui_status(t, 0, "context: %s", arg);
	return TUI_REDRAW;
}

static int
cmd_warnings(struct tui *t)
{
	struct tui_detail_arg	 a;
	struct tui_view		*v = tui_top(t);
	char			 tb[64];

	if (v != NULL && v->type == &tui_view_text &&
	    strcmp(v->type->title(v, tb, sizeof tb), "warnings") == 0)
		return 0;
	memset(&a, 0, sizeof a);
	a.what = TUI_D_WARNINGS;
	a.kind = DRA_KIND_CLAIM;
	a.name = "warnings";
	tui_open_detail(t, &a);
	return TUI_REDRAW;
}

/* The kinds :why explains: KIND/NAME, as `kubectl dra why` takes. */
static const struct {
	const char	*word;
	int		 kind;		/* WHY_* */
} why_words[] = {
	{ "pod", 0 }, { "pods", 0 }, { "po", 0 },
	{ "claim", 1 }, { "claims", 1 }, { "resourceclaim", 1 },
	{ "resourceclaims", 1 },
	{ "template", 2 }, { "templates", 2 }, { "resourceclaimtemplate", 2 },
	{ "resourceclaimtemplates", 2 },
};
#define WHY_POD		0
#define WHY_CLAIM	1
#define WHY_TEMPLATE	2

/* The namespace of the one object of kind named name, or NULL (*n how
   many there are). */
static const char *
why_find(const struct kube_snapshot *s, int kind, const char *name,
    size_t *n)
{
	const char	*ns = NULL;
	size_t		 i;

	*n = 0;
#define WHY_SCAN(vec) \
	for (i = 0; i < s->vec.n; i++) \
		if (strcmp(s->vec.v[i]->meta.name, name) == 0) { \
			ns = s->vec.v[i]->meta.namespace; \
			(*n)++; \
		}
	if (kind == WHY_POD) {
		WHY_SCAN(pods)
	} else if (kind == WHY_CLAIM) {
		WHY_SCAN(claims)
	} else {
		WHY_SCAN(templates)
	}
#undef WHY_SCAN
	return ns;
}

static int
cmd_why(struct tui *t, const char *arg)
{
	static const char *const kinds[] = { "pod", "claim", "template" };
	struct tui_detail_arg	 a;
	const char		*slash, *name, *ns, *found;
	char			 nsbuf[254], word[32];
	size_t			 i, n = 0;
	int			 kind = -1;

	if (arg != NULL && (slash = strchr(arg, '/')) != NULL &&
	    (size_t)(slash - arg) < sizeof word) {
		snprintf(word, sizeof word, "%.*s", (int)(slash - arg), arg);
		for (i = 0; i < sizeof why_words / sizeof why_words[0]; i++)
			if (strcasecmp(word, why_words[i].word) == 0)
				kind = why_words[i].kind;
	}
	if (kind < 0) {
		tui_status(t, 1, "why: name claim/NAME, pod/NAME or "
		    "template/NAME");
		return TUI_REDRAW;
	}
	name = slash + 1;
	ns = tui_namespace(t);
	/* KIND/NS/NAME */
	if ((slash = strchr(name, '/')) != NULL) {
		snprintf(nsbuf, sizeof nsbuf, "%.*s", (int)(slash - name),
		    name);
		ns = nsbuf;
		name = slash + 1;
	}
	if (t->snap == NULL) {
		tui_status(t, 1, "why: no data yet");
		return TUI_REDRAW;
	}
	if (ns == NULL) {
		/* Every namespace: the name must be unique. */
		found = why_find(t->snap, kind, name, &n);
		if (n != 1) {
			tui_status(t, 1, "why: %s \"%s\" %s; name it as "
			    "%s/NAMESPACE/NAME or set :ns", kinds[kind], name,
			    n == 0 ? "not found" : "is in several namespaces",
			    kinds[kind]);
			return TUI_REDRAW;
		}
		snprintf(nsbuf, sizeof nsbuf, "%s", found != NULL ? found :
		    "");
		ns = nsbuf;
	}
	memset(&a, 0, sizeof a);
	a.what = TUI_D_WHY;
	a.kind = kind == WHY_TEMPLATE ? DRA_KIND_TEMPLATE : DRA_KIND_CLAIM;
	a.ns = ns;
	a.name = name;
	a.pod = kind == WHY_POD;
	tui_open_detail(t, &a);
	return TUI_REDRAW;
}

int
tui_command(struct tui *t, const char *line)
{
	const struct tui_view_type	*vt;
	char				 buf[256], *w[3], *p;
	size_t				 n = 0, i, d, best = 0;
	const char			*sugg = NULL;

	snprintf(buf, sizeof buf, "%s", line);
	p = buf;
	while (n < 3) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			break;
		w[n++] = p;
		while (*p != '\0' && *p != ' ' && *p != '\t')
			p++;
		if (*p != '\0')
			*p++ = '\0';
	}
	if (n == 0)
		return TUI_REDRAW;
	if (strcmp(w[0], "q") == 0 || strcmp(w[0], "q!") == 0 ||
	    strcmp(w[0], "quit") == 0 || strcmp(w[0], "exit") == 0) {
		t->quit = 1;
		return TUI_QUIT;
	}
	if (strcmp(w[0], "ns") == 0 || strcmp(w[0], "namespace") == 0 ||
	    strcmp(w[0], "namespaces") == 0)
		return cmd_namespace(t, n > 1 ? w[1] : NULL);
	if (strcmp(w[0], "ctx") == 0 || strcmp(w[0], "context") == 0 ||
	    strcmp(w[0], "contexts") == 0)
		return cmd_context(t, n > 1 ? w[1] : NULL);
	if (strcmp(w[0], "why") == 0)
		return cmd_why(t, n > 1 ? w[1] : NULL);
	if (strcmp(w[0], "help") == 0 || strcmp(w[0], "?") == 0)
		return global_action(t, TUI_A_HELP);
	if (strcmp(w[0], "plan") == 0)
		return global_action(t, TUI_A_PLAN);
	if (strcmp(w[0], "warnings") == 0 || strcmp(w[0], "warning") == 0 ||
	    strcmp(w[0], "warn") == 0)
		return cmd_warnings(t);
	if (strcmp(w[0], "-") == 0) {
		if (t->last_root != NULL)
			tui_set_root(t, t->last_root);
		return TUI_REDRAW;
	}
	vt = tui_view_find(w[0]);
	if (vt != NULL) {
		if (tui_set_root(t, vt) != 0)
			return TUI_REDRAW;
		/* ":claims team-a", ":claims /fred" (k9s). */
		for (i = 1; i < n; i++) {
			if (w[i][0] == '/') {
				if (vt->filter != NULL) {
					tui_prepare(t);
					vt->filter(tui_top(t), w[i] + 1);
				}
			} else
				cmd_namespace(t, w[i]);
		}
		return TUI_REDRAW;
	}
	/* The closest word, for the message. */
	for (i = 0; tui_root_views[i] != NULL; i++) {
		d = dra_strdist(w[0], tui_root_views[i]->name, 1);
		if (d <= 2 && (sugg == NULL || d < best)) {
			sugg = tui_root_views[i]->name;
			best = d;
		}
	}
	for (i = 0; i < NCOMMANDS; i++) {
		d = dra_strdist(w[0], commands[i].word, 1);
		if (d <= 1 && (sugg == NULL || d < best)) {
			sugg = commands[i].word;
			best = d;
		}
	}
	if (sugg != NULL)
		tui_status(t, 1, "unknown command \":%s\"; did you mean "
		    "\":%s\"?", w[0], sugg);
	else
		tui_status(t, 1, "unknown command \":%s\" (? lists them)",
		    w[0]);
	return TUI_REDRAW;
}

/* Add word to the candidates when it starts with prefix. */
static void
candidate(const char *word, const char *prefix, const char **cand,
    size_t *n, size_t max)
{
	size_t	i;

	if (strncmp(word, prefix, strlen(prefix)) != 0)
		return;
	for (i = 0; i < *n; i++) {
		if (strcmp(cand[i], word) == 0)
			return;
	}
	if (*n < max)
		cand[(*n)++] = word;
}

int
tui_complete(struct tui *t, char *line, size_t len)
{
	const char	*cand[64], **names = NULL, *cur = NULL, *prefix;
	struct dra_err	 err;
	char		 head[256];
	size_t		 n = 0, i, lcp, hl = 0, o;
	char		*sp;

	t->hint[0] = '\0';
	sp = strchr(line, ' ');
	if (sp == NULL) {
		prefix = line;
		for (i = 0; tui_root_views[i] != NULL; i++)
			candidate(tui_root_views[i]->name, prefix, cand, &n,
			    64);
		for (i = 0; i < NCOMMANDS; i++)
			candidate(commands[i].word, prefix, cand, &n, 64);
	} else {
		hl = (size_t)(sp - line) + 1;
		while (line[hl] == ' ')
			hl++;
		prefix = line + hl;
		snprintf(head, sizeof head, "%.*s", (int)(sp - line), line);
		if (strcmp(head, "ns") == 0 && t->snap != NULL) {
			for (i = 0; i < t->snap->namespaces.n; i++)
				candidate(t->snap->namespaces.v[i]->meta.name,
				    prefix, cand, &n, 64);
			for (i = 0; i < t->snap->claims.n; i++)
				candidate(t->snap->claims.v[i]->meta.namespace,
				    prefix, cand, &n, 64);
		} else if (strcmp(head, "ctx") == 0 && t->src != NULL &&
		    t->src->contexts != NULL) {
			dra_err_clear(&err);
			if (t->src->contexts(t->src->arg, &names, &cur,
			    &err) == KUBE_OK && names != NULL) {
				for (i = 0; names[i] != NULL; i++)
					candidate(names[i], prefix, cand, &n,
					    64);
			}
		}
	}
	if (n == 0) {
		free(names);
		return 0;
	}
	lcp = strlen(cand[0]);
	for (i = 1; i < n; i++) {
		size_t	j = 0;

		while (j < lcp && cand[i][j] == cand[0][j])
			j++;
		lcp = j;
	}
	if (lcp > strlen(prefix) || n == 1) {
		o = (size_t)(prefix - line);
		snprintf(line + o, len > o ? len - o : 0, "%.*s%s", (int)lcp,
		    cand[0], n == 1 ? " " : "");
	}
	if (n > 1) {
		o = 0;
		for (i = 0; i < n && o + 1 < sizeof t->hint; i++) {
			snprintf(t->hint + o, sizeof t->hint - o, "%s%s",
			    i > 0 ? " " : "", cand[i]);
			o = strlen(t->hint);
		}
	}
	free(names);
	return (int)n;
}

/* ---- help ------------------------------------------------------------- */

char *
tui_help_text(const struct tui *t)
{
	struct dra_buf			 b;
	const struct tui_view_type	*vt;
	char				 chunk[4096];
	size_t				 i, j;

	(void)t;
	dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	dra_buf_adds(&b, "kubectl dra ui: the cluster's DRA devices, claims "
	    "and GPUs, live.\n\n");
	tui_key_help(tui_global_keys, "Keys everywhere", chunk, sizeof chunk);
	dra_buf_adds(&b, chunk);
	tui_key_help(tui_move_keys, "\nMoving", chunk, sizeof chunk);
	dra_buf_adds(&b, chunk);
	tui_key_help(tui_list_keys, "\nLists (claims, devices, pools, ...)",
	    chunk, sizeof chunk);
	dra_buf_adds(&b, chunk);
	tui_key_help(tui_gpu_keys, "\nGPU map (gpus)", chunk, sizeof chunk);
	dra_buf_adds(&b, chunk);
	tui_key_help(tui_text_keys, "\nText views (describe, YAML, why, "
	    "help)", chunk, sizeof chunk);
	dra_buf_adds(&b, chunk);
	dra_buf_adds(&b, "\nPrompts (: and /)\n"
	    "  Enter                  run the command, keep the filter\n"
	    "  Esc                    cancel\n"
	    "  Tab                    complete a view, command, namespace "
	    "or context\n"
	    "  ctrl-u, ctrl-w         erase the line, the last word\n");
	dra_buf_adds(&b, "\nViews (:NAME, or Tab to cycle)\n");
	/* In the key tables' columns ("  %-22s %s"). */
	for (i = 0; tui_root_views[i] != NULL; i++) {
		vt = tui_root_views[i];
		snprintf(chunk, sizeof chunk, ":%s", vt->name);
		dra_buf_addf(&b, "  %-22s", chunk);
		for (j = 0; vt->aliases != NULL && vt->aliases[j] != NULL;
		    j++)
			dra_buf_addf(&b, "%s:%s", j > 0 ? ", " : " also ",
			    vt->aliases[j]);
		dra_buf_adds(&b, "\n");
	}
	dra_buf_adds(&b, "\nCommands\n");
	for (i = 0; i < NCOMMANDS; i++) {
		snprintf(chunk, sizeof chunk, ":%s %s", commands[i].word,
		    commands[i].args);
		dra_buf_addf(&b, "  %-22s %s\n", chunk, commands[i].help);
	}
	dra_buf_adds(&b, "\nColours: utilization green below the 80% target, "
	    "yellow to the 95%\nceiling, red above; GPU partitions coloured "
	    "by the claim's namespace.\n");
	return dra_buf_take(&b);
}

/* ---- keys ------------------------------------------------------------- */

static int
global_action(struct tui *t, enum tui_action a)
{
	struct tui_view			*v = tui_top(t), *nv;
	struct tui_detail_arg		 da;
	char				*help, tb[64];
	int				 i, n;

	switch (a) {
	case TUI_A_QUIT:
		if (t->depth > 1) {
			pop_view(t);
			return TUI_REDRAW;
		}
		t->quit = 1;
		return TUI_QUIT;
	case TUI_A_QUIT_NOW:
		t->quit = 1;
		return TUI_QUIT;
	case TUI_A_BACK:
		if (v != NULL && v->filter[0] != '\0' &&
		    v->type->filter != NULL) {
			v->type->filter(v, "");
			v->filter[0] = '\0';
			return TUI_REDRAW;
		}
		if (t->depth > 1)
			pop_view(t);
		return TUI_REDRAW;
	case TUI_A_COMMAND:
		t->status[0] = '\0';
		t->mode = TUI_MODE_COMMAND;
		t->prompt[0] = '\0';
		t->plen = 0;
		t->hint[0] = '\0';
		return TUI_REDRAW;
	case TUI_A_FILTER:
		if (v == NULL || v->type->filter == NULL) {
			tui_status(t, 1, "this view has no filter");
			return TUI_REDRAW;
		}
		t->status[0] = '\0';
		t->mode = TUI_MODE_FILTER;
		snprintf(t->saved_filter, sizeof t->saved_filter, "%s",
		    v->filter);
		snprintf(t->prompt, sizeof t->prompt, "%s", v->filter);
		t->plen = strlen(t->prompt);
		return TUI_REDRAW;
	case TUI_A_HELP:
		if (v != NULL && v->type == &tui_view_text) {
			v->type->title(v, tb, sizeof tb);
			if (strcmp(tb, "help") == 0)
				return 0;
		}
		help = tui_help_text(t);
		memset(&da, 0, sizeof da);
		da.what = TUI_D_HELP;
		da.text = help;
		da.title = "help";
		tui_open_detail(t, &da);
		free(help);
		return TUI_REDRAW;
	case TUI_A_REFRESH:
		/* The loop says what it does (reading FILE...) and does it
		   once for every ctrl-r waiting. */
		return TUI_REDRAW | TUI_REFRESH;
	case TUI_A_REDRAW:
		return TUI_REDRAW;
	case TUI_A_NEXT_VIEW:
	case TUI_A_PREV_VIEW:
		for (n = 0; tui_root_views[n] != NULL; n++)
			;
		i = root_index(t->stack[0]->type);
		i = a == TUI_A_NEXT_VIEW ? (i + 1) % n : (i + n - 1) % n;
		tui_set_root(t, tui_root_views[i]);
		return TUI_REDRAW;
	case TUI_A_PLAN:
		if (t->opts.plan == NULL) {
			tui_status(t, 1, "no plan: start with --plan FILE (a "
			    "document of kubectl dra plan -o yaml)");
			return TUI_REDRAW;
		}
		if (v != NULL && v->type == &tui_view_plan)
			return 0;
		nv = tui_view_new(t, &tui_view_plan, NULL);
		if (nv != NULL)
			tui_push(t, nv);
		return TUI_REDRAW;
	default:
		return TUI_UNHANDLED;
	}
}

/* Leave prompt mode; keep says whether the line is used. */
static void
prompt_done(struct tui *t, int keep)
{
	struct tui_view	*v = tui_top(t);
	enum tui_mode	 mode = t->mode;
	char		 line[256];

	t->mode = TUI_MODE_NORMAL;
	t->hint[0] = '\0';
	snprintf(line, sizeof line, "%s", t->prompt);
	if (mode == TUI_MODE_FILTER && v != NULL) {
		if (!keep) {
			v->type->filter(v, t->saved_filter);
			snprintf(v->filter, sizeof v->filter, "%s",
			    t->saved_filter);
		}
		return;
	}
	if (mode == TUI_MODE_COMMAND && keep)
		tui_command(t, line);
}

static int
prompt_key(struct tui *t, int key)
{
	struct tui_view	*v = tui_top(t);

	switch (key) {
	case '\r':
	case '\n':
	case KEY_ENTER:
		/* What the filter said (an invalid regex) stays; a
		   command says its own. */
		t->status_ms = t->now_ms;
		prompt_done(t, 1);
		return t->quit ? TUI_QUIT : TUI_REDRAW;
	default:
		break;
	}
	/* The message is about the text being typed. */
	t->status[0] = '\0';
	t->status_err = t->status_busy = 0;
	switch (key) {
	case TUI_KEY_ESC:
		prompt_done(t, 0);
		return TUI_REDRAW;
	case KEY_BACKSPACE:
	case 127:
	case TUI_CTRL('h'):
		if (t->plen == 0) {
			prompt_done(t, 0);
			return TUI_REDRAW;
		}
		/* One UTF-8 character. */
		do {
			t->plen--;
		} while (t->plen > 0 &&
		    ((unsigned char)t->prompt[t->plen] & 0xc0) == 0x80);
		t->prompt[t->plen] = '\0';
		break;
	case TUI_CTRL('u'):
		t->plen = 0;
		t->prompt[0] = '\0';
		break;
	case TUI_CTRL('w'):
		while (t->plen > 0 && t->prompt[t->plen - 1] == ' ')
			t->plen--;
		while (t->plen > 0 && t->prompt[t->plen - 1] != ' ')
			t->plen--;
		t->prompt[t->plen] = '\0';
		break;
	case '\t':
		if (t->mode == TUI_MODE_COMMAND) {
			tui_complete(t, t->prompt, sizeof t->prompt);
			t->plen = strlen(t->prompt);
		}
		return TUI_REDRAW;
	case TUI_CTRL('c'):
		t->quit = 1;
		return TUI_QUIT;
	default:
		if (key < ' ' || key > 0xff || key == 127)
			return 0;
		if (t->plen + 1 >= sizeof t->prompt)
			return 0;
		t->prompt[t->plen++] = (char)key;
		t->prompt[t->plen] = '\0';
		break;
	}
	t->hint[0] = '\0';
	/* The filter follows the typing (k9s). */
	if (t->mode == TUI_MODE_FILTER && v != NULL) {
		snprintf(v->filter, sizeof v->filter, "%s", t->prompt);
		v->type->filter(v, t->prompt);
	}
	return TUI_REDRAW;
}

int
tui_key(struct tui *t, int key)
{
	struct tui_view	*v = tui_top(t);
	enum tui_action	 a;
	int		 r;

	t->last_key_ms = t->now_ms != 0 ? t->now_ms : 1;
	if (t->mode != TUI_MODE_NORMAL)
		return prompt_key(t, key);
	if (v == NULL)
		return 0;
	/* The model must be current before a key acts on it. */
	tui_prepare(t);
	a = tui_key_lookup(v->type->keys, key);
	if (a != TUI_A_NONE) {
		r = v->type->key(v, a, key);
		if (!(r & TUI_UNHANDLED))
			return r;
	}
	a = tui_key_lookup(tui_move_keys, key);
	if (a != TUI_A_NONE) {
		r = v->type->key(v, a, key);
		if (!(r & TUI_UNHANDLED))
			return r;
	}
	a = tui_key_lookup(tui_global_keys, key);
	if (a != TUI_A_NONE) {
		r = global_action(t, a);
		if (!(r & TUI_UNHANDLED))
			return r;
	}
	return v->type->key(v, TUI_A_NONE, key) & ~TUI_UNHANDLED;
}

/* ---- drawing ---------------------------------------------------------- */

static void
draw_header(struct tui *t)
{
	char		 left[512], right[80], ind[64], warn[64];
	enum tui_colour	 ic;
	int64_t		 age;
	size_t		 nw;
	int		 rw, lw, ww;

	if (!t->have_st)
		snprintf(ind, sizeof ind, " ");
	if (t->have_st && t->st.live) {
		if (t->st.connecting) {
			snprintf(ind, sizeof ind, "CONNECTING");
			ic = TUI_C_STALE;
		} else if (t->st.stale) {
			age = t->st.updated > 0 ? (int64_t)time(NULL) -
			    t->st.updated : 0;
			snprintf(ind, sizeof ind, "STALE %llds",
			    (long long)(age > 0 ? age : 0));
			ic = TUI_C_STALE;
		} else if (t->st.partial > 0) {
			/* watched, but not all of it could be read */
			snprintf(ind, sizeof ind, "%s", t->st.partial > 1 ?
			    "NO ACCESS" : "LIVE (partial)");
			ic = TUI_C_STALE;
		} else {
			snprintf(ind, sizeof ind, "LIVE");
			ic = TUI_C_LIVE;
		}
	} else {
		snprintf(ind, sizeof ind, "OFFLINE file");
		ic = TUI_C_OFFLINE;
	}

	/* Line 0: where, and the live indicator on the right. */
	move(0, 0);
	attrset(tui_attr(TUI_C_HEADER));
	snprintf(left, sizeof left, " %s%s", t->have_st && t->st.live ?
	    "" : "File: ", t->have_st ? t->st.where :
	    (t->snap != NULL && t->snap->source != NULL ? t->snap->source :
	    "-"));
	snprintf(right, sizeof right, " %s ", ind);
	rw = tui_strwidth(right);
	nw = tui_warning_count(t);
	if (nw > 0)
		snprintf(warn, sizeof warn, " %zu warning%s (:warnings) ", nw,
		    nw == 1 ? "" : "s");
	else
		warn[0] = '\0';
	ww = tui_strwidth(warn);
	/* The warnings give way to the file name on a narrow screen. */
	if (t->cols - rw - ww < tui_strwidth(left) &&
	    t->cols - rw - ww < t->cols / 2) {
		warn[0] = '\0';
		ww = 0;
	}
	lw = t->cols - rw - ww;
	tui_addfit(stdscr, left, lw > 0 ? lw : 0, 1, 0);
	if (ww > 0) {
		attrset(tui_attr(TUI_C_NOTE));
		tui_addfit(stdscr, warn, ww, 1, 0);
	}
	attrset(tui_attr(ic));
	tui_addfit(stdscr, right, rw, 1, 0);

	/* Line 1: namespace and counts. */
	move(1, 0);
	attrset(tui_attr(TUI_C_HEADER));
	snprintf(left, sizeof left, " Namespace: %s   Claims: %zu (%zu "
	    "pending)   Devices: %zu (%zu allocated)", t->ns[0] != '\0' ?
	    t->ns : "all", t->nclaims, t->npending, t->ndevices,
	    t->nallocated);
	snprintf(right, sizeof right, "?:help ::cmd /:filter q:quit ");
	rw = tui_strwidth(right);
	lw = t->cols - rw;
	if (lw < tui_strwidth(left)) {
		lw = t->cols;
		rw = 0;
	}
	tui_addfit(stdscr, left, lw, 1, 0);
	if (rw > 0) {
		attrset(tui_attr(TUI_C_DIM));
		tui_addfit(stdscr, right, rw, 1, 1);
	}
	attrset(tui_attr(TUI_C_NORMAL));
}

static void
draw_title(struct tui *t, struct tui_view *v)
{
	char	title[512], full[800];
	int	w, x, i;

	v->type->title(v, title, sizeof title);
	if (v->filter[0] != '\0' && v->type != &tui_view_text)
		snprintf(full, sizeof full, " %s </%s> ", title, v->filter);
	else if (v->filter[0] != '\0')
		snprintf(full, sizeof full, " %s [/%s] ", title, v->filter);
	else
		snprintf(full, sizeof full, " %s ", title);
	w = tui_strwidth(full);
	if (w > t->cols)
		w = t->cols;
	x = (t->cols - w) / 2;
	move(2, 0);
	attrset(tui_attr(TUI_C_HEADER));
	for (i = 0; i < t->cols; i++)
		addch(ACS_HLINE);
	move(2, x);
	attrset(tui_attr(TUI_C_TITLE));
	tui_addfit(stdscr, full, w, 0, 0);
	attrset(tui_attr(TUI_C_NORMAL));
}

static void
draw_footer(struct tui *t)
{
	const struct tui_glyphs	*g = tui_glyphs();
	struct tui_view		*v;
	const char		*hint;
	char			 crumb[128], line[600];
	int			 i, x = 0, y = t->lines - 2, w, hw;

	/* Breadcrumbs. */
	move(y, 0);
	attrset(tui_attr(TUI_C_NORMAL));
	clrtoeol();
	for (i = 0; i < t->depth && x < t->cols; i++) {
		v = t->stack[i];
		v->type->title(v, line, sizeof line);
		line[strcspn(line, "([ ")] = '\0';
		snprintf(crumb, sizeof crumb, " %.100s ", line);
		w = tui_strwidth(crumb);
		if (x + w > t->cols)
			w = t->cols - x;
		move(y, x);
		attrset(tui_attr(i == t->depth - 1 ? TUI_C_CRUMBTOP :
		    TUI_C_CRUMB));
		tui_addfit(stdscr, crumb, w, 0, 0);
		x += w;
		if (i + 1 < t->depth && x + 3 < t->cols) {
			attrset(tui_attr(TUI_C_DIM));
			snprintf(crumb, sizeof crumb, " %s ", g->sep);
			x += tui_addfit(stdscr, crumb, 3, 0, 0);
		}
	}

	/* Status or prompt. */
	y = t->lines - 1;
	move(y, 0);
	attrset(tui_attr(TUI_C_NORMAL));
	clrtoeol();
	if (t->mode != TUI_MODE_NORMAL) {
		/* The prompt, and on the right the completion candidates
		   or what the filter said. */
		hint = t->hint[0] != '\0' ? t->hint : t->status;
		attrset(tui_attr(TUI_C_PROMPT));
		snprintf(line, sizeof line, "%c%s", t->mode ==
		    TUI_MODE_COMMAND ? ':' : '/', t->prompt);
		w = tui_strwidth(line);
		hw = hint[0] != '\0' ? t->cols - w - 3 : 0;
		if (hw > tui_strwidth(hint))
			hw = tui_strwidth(hint);
		if (hw < 10)
			hw = 0;
		move(y, 0);
		tui_addfit(stdscr, line, t->cols - (hw > 0 ? hw + 2 : 1), 0,
		    0);
		attrset(tui_attr(TUI_C_SELECTED));
		addch(' ');
		if (hw > 0) {
			attrset(tui_attr(hint == t->status && t->status_err ?
			    TUI_C_ERROR : TUI_C_DIM));
			move(y, t->cols - hw);
			tui_addfit(stdscr, hint, hw, 0, 0);
		}
	} else if (t->status[0] != '\0') {
		attrset(tui_attr(t->status_err ? TUI_C_ERROR : TUI_C_NOTE));
		tui_addfit(stdscr, t->status, t->cols, 0, 0);
	} else if (t->have_st && t->st.note[0] != '\0') {
		attrset(tui_attr(TUI_C_NOTE));
		tui_addfit(stdscr, t->st.note, t->cols, 0, 0);
	}
	attrset(tui_attr(TUI_C_NORMAL));
}

/*
 * The too-small message on the middle line, or word-wrapped onto as
 * many lines as it needs when it is wider than the screen, so the size
 * needed is always read (a word wider than the screen is cut).
 */
static void
draw_small(struct tui *t, const char *msg)
{
	char		 lines[8][128];
	const char	*p, *word;
	size_t		 wl, o;
	int		 n = 0, i, y;

	if (tui_strwidth(msg) <= t->cols) {
		move(t->lines / 2, 0);
		tui_addfit(stdscr, msg, t->cols, 0, 0);
		return;
	}
	lines[0][0] = '\0';
	for (p = msg; *p != '\0'; ) {
		while (*p == ' ')
			p++;
		if (*p == '\0')
			break;
		word = p;
		while (*p != '\0' && *p != ' ')
			p++;
		wl = (size_t)(p - word);
		o = strlen(lines[n]);
		if (o > 0 && (int)(o + 1 + wl) > t->cols) {
			if (n == 7)
				break;
			lines[++n][0] = '\0';
			o = 0;
		}
		snprintf(lines[n] + o, sizeof lines[n] - o, "%s%.*s",
		    o > 0 ? " " : "", (int)wl, word);
	}
	y = (t->lines - (n + 1)) / 2;
	if (y < 0)
		y = 0;
	for (i = 0; i <= n && y + i < t->lines; i++) {
		move(y + i, 0);
		tui_addfit(stdscr, lines[i], t->cols, 0, 0);
	}
}

void
tui_draw(struct tui *t)
{
	struct tui_view	*v = tui_top(t);
	char		 msg[128];
	int		 h;

	erase();
	if (t->lines < TUI_MIN_LINES || t->cols < TUI_MIN_COLS) {
		snprintf(msg, sizeof msg, "terminal too small: %dx%d, "
		    "need %dx%d", t->cols, t->lines, TUI_MIN_COLS,
		    TUI_MIN_LINES);
		draw_small(t, msg);
		refresh();
		return;
	}
	draw_header(t);
	if (v != NULL) {
		draw_title(t, v);
		h = t->lines - TUI_HEAD_LINES - TUI_FOOT_LINES;
		if (t->snap == NULL) {
			move(TUI_HEAD_LINES, 1);
			addstr("waiting for data...");
		} else
			v->type->draw(v, TUI_HEAD_LINES, 0, h, t->cols);
	}
	draw_footer(t);
	refresh();
}
