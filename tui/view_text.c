/*
 * view_text.c: the detail views, a text each: describe (Enter), YAML
 * (y), why (w) and help (?).
 *
 * A detail view names its object (kind, namespace, name), never
 * points into a snapshot: with new data it finds the object again and
 * makes the text anew, keeping the scroll position, or says the
 * object was deleted and keeps the last text.  The texts are the
 * one-shot commands' (views/describe.c, kube_yaml_write, views/why.c),
 * so `kubectl dra describe` and the UI tell the same story.
 */
#include "tui-int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "gpus.h"
#include "snapshot.h"
#include "why.h"
#include "xmalloc.h"

struct text_data {
	struct tui_textview	 tv;
	enum tui_detail		 what;
	enum dra_kind		 kind;
	char			*ns;
	char			*name;
	int			 pod;
	char			 title[256];
	int			 gone;
	int64_t			 cost_ms;	/* making the text took */
	int			 outdated;	/* newer data, not applied */
};

static int	text_init(struct tui_view *, const void *);
static void	text_free(struct tui_view *);
static void	text_update(struct tui_view *, const struct kube_snapshot *);
static void	text_draw(struct tui_view *, int, int, int, int);
static int	text_key(struct tui_view *, enum tui_action, int);
static char	*text_title(struct tui_view *, char *, size_t);
static int	text_filter(struct tui_view *, const char *);
static void	text_scroll(struct tui_view *, int, int);
static char	*make_text(const struct text_data *,
		    const struct kube_snapshot *, char *, size_t);
static char	*yaml_text(const struct text_data *,
		    const struct kube_snapshot *, char *, size_t);
static char	*why_text(const struct text_data *,
		    const struct kube_snapshot *, char *, size_t);
static int	node_known(const struct kube_snapshot *, const char *);
static int	warning_cmp(const void *, const void *);
static const struct kube_taint *gpu_taint(const struct dra_gpu *);
static void	add_wrapped(struct dra_buf *, const char *, const char *);
static void	remake(struct tui_view *, const struct kube_snapshot *);

const struct tui_view_type tui_view_text = {
	"text", NULL, 0, 0, -1, tui_text_keys, text_init, text_free,
	text_update, text_draw, text_key, text_title, text_filter,
	text_scroll, NULL
};

/* Short kind words for titles, in enum dra_kind order. */
static const char *const kind_words[DRA_KIND_COUNT] = {
	"claim", "template", "slice", "device", "pool", "class", "node",
	"quota"
};

/* The YAML of the object the table of kind shows under name. */
static char *
yaml_text(const struct text_data *d, const struct kube_snapshot *s,
    char *why, size_t len)
{
	struct dra_table	*tb;
	struct dra_filter	 f;
	struct dra_err		 err;
	cJSON			*obj = NULL;
	char			*name = d->name, *out = NULL;
	size_t			 i, olen = 0;
	FILE			*mf;

	memset(&f, 0, sizeof f);
	f.namespace = d->ns;
	f.names = &name;
	f.nnames = 1;
	tb = dra_view(d->kind, s, &f, 0);
	for (i = 0; i < tb->nrows && obj == NULL; i++)
		obj = dra_row_object(s, tb, &tb->rows[i]);
	dra_table_free(tb);
	if (obj == NULL) {
		snprintf(why, len, "%s %s%s%s not found", kind_words[d->kind],
		    d->ns != NULL ? d->ns : "", d->ns != NULL ? "/" : "",
		    d->name);
		return NULL;
	}
	mf = open_memstream(&out, &olen);
	if (mf == NULL) {
		cJSON_Delete(obj);
		snprintf(why, len, "out of memory");
		return NULL;
	}
	dra_err_clear(&err);
	if (kube_yaml_write(mf, obj, &err) != KUBE_OK) {
		fclose(mf);
		free(out);
		cJSON_Delete(obj);
		snprintf(why, len, "YAML: %s", err.msg);
		return NULL;
	}
	fclose(mf);
	cJSON_Delete(obj);
	return out;
}

static char *
why_text(const struct text_data *d, const struct kube_snapshot *s,
    char *why, size_t len)
{
	struct dra_why_target	 t;
	struct dra_why		*w = NULL;
	struct dra_err		 err;
	char			 heading[600], *text;

	memset(&t, 0, sizeof t);
	if (d->pod) {
		t.pod = kube_snapshot_pod(s, d->ns, d->name);
		if (t.pod == NULL) {
			snprintf(why, len, "pod %s/%s not found (pods that use "
			    "no claim are not read)", d->ns, d->name);
			return NULL;
		}
		snprintf(heading, sizeof heading, "Pod %s/%s", d->ns, d->name);
	} else if (d->kind == DRA_KIND_TEMPLATE) {
		/* A new claim made from it (kubectl dra why template/). */
		t.tmpl = kube_snapshot_template(s, d->ns, d->name);
		if (t.tmpl == NULL) {
			snprintf(why, len, "template %s/%s not found", d->ns,
			    d->name);
			return NULL;
		}
		snprintf(heading, sizeof heading, "ResourceClaimTemplate %s/%s "
		    "(a new claim from it)", d->ns, d->name);
	} else {
		t.claim = kube_snapshot_claim(s, d->ns, d->name);
		if (t.claim == NULL) {
			snprintf(why, len, "claim %s/%s not found", d->ns,
			    d->name);
			return NULL;
		}
		snprintf(heading, sizeof heading, "ResourceClaim %s/%s",
		    d->ns, d->name);
	}
	dra_err_clear(&err);
	if (dra_why(s, &t, &w, &err) != KUBE_OK) {
		snprintf(why, len, "why: %s", err.msg);
		return NULL;
	}
	text = dra_why_text(heading, w);
	dra_why_free(w);
	return text;
}

/* A node is known from its Node object or a slice naming it. */
static int
node_known(const struct kube_snapshot *s, const char *name)
{
	size_t	i, j;

	if (kube_snapshot_node(s, name) != NULL)
		return 1;
	for (i = 0; i < s->slices.n; i++) {
		const struct kube_slice	*sl = s->slices.v[i];

		if (sl->node_name != NULL && strcmp(sl->node_name, name) == 0)
			return 1;
		for (j = 0; j < sl->ndevices; j++) {
			if (sl->devices[j].node_name != NULL &&
			    strcmp(sl->devices[j].node_name, name) == 0)
				return 1;
		}
	}
	return 0;
}

static int
warning_cmp(const void *a, const void *b)
{
	const struct kube_warning	*x = *(const struct kube_warning *
					    const *)a;
	const struct kube_warning	*y = *(const struct kube_warning *
					    const *)b;
	int				 c;

	c = strcmp(x->object != NULL ? x->object : "", y->object != NULL ?
	    y->object : "");
	if (c != 0)
		return c;
	return strcmp(x->message != NULL ? x->message : "",
	    y->message != NULL ? y->message : "");
}

size_t
tui_snapshot_warnings(const struct kube_snapshot *s,
    const struct kube_warning ***out)
{
	const struct kube_warning	**v;
	size_t				  i, n = 0;

	*out = NULL;
	if (s == NULL || s->warnings.n == 0)
		return 0;
	v = xreallocarray(NULL, s->warnings.n, sizeof *v);
	memcpy(v, s->warnings.v, s->warnings.n * sizeof *v);
	qsort(v, s->warnings.n, sizeof *v, warning_cmp);
	for (i = 0; i < s->warnings.n; i++) {
		if (n > 0 && warning_cmp(&v[n - 1], &v[i]) == 0)
			continue;
		v[n++] = v[i];
	}
	*out = v;
	return n;
}

/* The NoSchedule or NoExecute taint that marks g, or NULL. */
static const struct kube_taint *
gpu_taint(const struct dra_gpu *g)
{
	const struct kube_device	*d;
	size_t				 i, j;

	for (i = 0; i < g->nparts; i++) {
		d = g->parts[i].device_obj;
		for (j = 0; d != NULL && j < d->ntaints; j++) {
			if (d->taints[j].effect == KUBE_TAINT_NO_SCHEDULE ||
			    d->taints[j].effect == KUBE_TAINT_NO_EXECUTE)
				return &d->taints[j];
		}
	}
	return NULL;
}

/* The width the warnings are wrapped to, so 80 columns read them. */
#define WARN_COLS	76

/*
 * Add "  " a, ": " and b (b alone when a is NULL or empty), word-wrapped
 * at WARN_COLS columns, continuation lines indented by four.
 */
static void
add_wrapped(struct dra_buf *b, const char *a, const char *msg)
{
	char		 text[2048], word[1024];
	const char	*p, *w;
	int		 col = 2, ww;

	if (a != NULL && *a != '\0')
		snprintf(text, sizeof text, "%s: %s", a, msg);
	else
		snprintf(text, sizeof text, "%s", msg);
	dra_buf_adds(b, "  ");
	for (p = text; *p != '\0'; ) {
		while (*p == ' ')
			p++;
		if (*p == '\0')
			break;
		w = p;
		while (*p != '\0' && *p != ' ')
			p++;
		snprintf(word, sizeof word, "%.*s", (int)(p - w), w);
		ww = tui_strwidth(word);
		if (col > 2 && col + 1 + ww > WARN_COLS) {
			dra_buf_adds(b, "\n    ");
			col = 4;
		} else if (col > 2) {
			dra_buf_adds(b, " ");
			col++;
		}
		dra_buf_adds(b, word);
		col += ww;
	}
	dra_buf_adds(b, "\n");
}

char *
tui_warnings_text(const struct kube_snapshot *s, size_t *n)
{
	const struct kube_warning	**v;
	const struct kube_taint		 *ta;
	const struct dra_gpu		 *g;
	struct dra_gpu_map		 *m;
	struct dra_buf			  b;
	struct dra_err			  err;
	size_t				  nv, i, k, ntainted = 0;

	dra_buf_init(&b, DRA_BUF_MAX_PAGE);
	nv = tui_snapshot_warnings(s, &v);
	dra_err_clear(&err);
	m = dra_gpu_map(s, NULL, &err);
	*n = nv + (m != NULL ? m->nwarnings : 0);
	if (*n == 0)
		dra_buf_adds(&b, "No warnings about the data.\n");
	else
		dra_buf_addf(&b, "%zu warning%s about the data.\n", *n,
		    *n == 1 ? "" : "s");
	if (nv > 0) {
		dra_buf_adds(&b, "\nReading the objects:\n");
		for (i = 0; i < nv; i++)
			add_wrapped(&b, v[i]->object, v[i]->message);
	}
	free(v);
	if (m == NULL) {
		dra_buf_addf(&b, "\nThe GPU map: %s\n", err.msg);
		return dra_buf_take(&b);
	}
	if (m->nwarnings > 0) {
		dra_buf_adds(&b, "\nThe GPU map (GPUs or partitions it leaves "
		    "out):\n");
		for (i = 0; i < m->nwarnings; i++)
			add_wrapped(&b, NULL, m->warnings[i]);
	}
	for (i = 0; i < m->nnodes; i++) {
		for (k = 0; k < m->nodes[i].ngpus; k++) {
			g = &m->nodes[i].gpus[k];
			if (!g->tainted)
				continue;
			if (ntainted++ == 0)
				dra_buf_adds(&b, "\nTainted GPUs, marked on the "
				    "map (nothing new is scheduled on\nthem; "
				    "not a warning):\n");
			ta = gpu_taint(g);
			if (ta != NULL)
				dra_buf_addf(&b, "  %s/%s: taint %s%s%s:%s\n",
				    g->node, g->name, ta->key,
				    ta->value != NULL && *ta->value != '\0' ?
				    "=" : "", ta->value != NULL ? ta->value :
				    "", ta->effect_text != NULL ?
				    ta->effect_text : "");
			else
				dra_buf_addf(&b, "  %s/%s\n", g->node,
				    g->name);
		}
	}
	dra_gpu_map_free(m);
	return dra_buf_take(&b);
}

/* The text of d on s, or NULL with the reason in why. */
static char *
make_text(const struct text_data *d, const struct kube_snapshot *s,
    char *why, size_t len)
{
	struct kube_device	*dev;
	struct kube_pool	*pool;
	struct kube_claim	*c;
	const struct kube_quota	*q;
	size_t			 i;

	switch (d->what) {
	case TUI_D_HELP:
		return NULL;
	case TUI_D_WARNINGS:
		return tui_warnings_text(s, &i);
	case TUI_D_YAML:
		return yaml_text(d, s, why, len);
	case TUI_D_WHY:
		return why_text(d, s, why, len);
	case TUI_D_DESCRIBE:
		break;
	}
	switch (d->kind) {
	case DRA_KIND_CLAIM:
		c = kube_snapshot_claim(s, d->ns, d->name);
		if (c != NULL)
			return dra_describe_claim(s, c);
		break;
	case DRA_KIND_DEVICE:
		if (dra_find_devices(s, d->name, &dev, 1) == 1)
			return dra_describe_device(s, dev);
		break;
	case DRA_KIND_POOL:
		if (dra_find_pools(s, d->name, &pool, 1) == 1)
			return dra_describe_pool(s, pool);
		break;
	case DRA_KIND_QUOTA:
		for (i = 0; i < s->quotas.n; i++) {
			q = s->quotas.v[i];
			if (strcmp(q->meta.name, d->name) == 0 &&
			    d->ns != NULL && q->meta.namespace != NULL &&
			    strcmp(q->meta.namespace, d->ns) == 0)
				return dra_describe_quota(s, q);
		}
		break;
	case DRA_KIND_NODE:
		if (node_known(s, d->name))
			return dra_describe_node(s, d->name,
			    kube_snapshot_node(s, d->name));
		break;
	default:
		/* No describe text for this kind: its YAML. */
		return yaml_text(d, s, why, len);
	}
	snprintf(why, len, "%s %s%s%s not found", kind_words[d->kind],
	    d->ns != NULL ? d->ns : "", d->ns != NULL ? "/" : "", d->name);
	return NULL;
}

static int
text_init(struct tui_view *v, const void *arg)
{
	const struct tui_detail_arg	*a = arg;
	struct text_data		*d;
	char				 why[1200], *text;
	const char			*verb;
	int64_t				 t0;

	d = xcalloc(1, sizeof *d);
	tui_tv_init(&d->tv);
	d->what = a->what;
	d->kind = a->kind < DRA_KIND_COUNT ? a->kind : DRA_KIND_CLAIM;
	d->ns = a->ns != NULL ? xstrdup(a->ns) : NULL;
	d->name = xstrdup(a->name != NULL ? a->name : "");
	d->pod = a->pod;
	v->data = d;
	switch (d->what) {
	case TUI_D_HELP:
		snprintf(d->title, sizeof d->title, "%s", a->title != NULL ?
		    a->title : "help");
		tui_tv_set_text(&d->tv, xstrdup(a->text != NULL ? a->text :
		    ""), 0);
		return 0;
	case TUI_D_YAML:
		verb = "yaml";
		break;
	case TUI_D_WHY:
		verb = "why";
		break;
	default:
		verb = "describe";
		break;
	}
	if (d->what == TUI_D_WARNINGS)
		snprintf(d->title, sizeof d->title, "warnings");
	else
		snprintf(d->title, sizeof d->title, "%s %s %s%s%s", verb,
		    d->pod ? "pod" : kind_words[d->kind], d->ns != NULL ?
		    d->ns : "", d->ns != NULL ? "/" : "", d->name);
	if (v->tui->snap == NULL) {
		tui_status(v->tui, 1, "no data yet");
		text_free(v);
		return -1;
	}
	t0 = tui_now_ms();
	text = make_text(d, v->tui->snap, why, sizeof why);
	d->cost_ms = tui_now_ms() - t0;
	if (text == NULL) {
		tui_status(v->tui, 1, "%s", why);
		text_free(v);
		return -1;
	}
	tui_tv_set_text(&d->tv, text, 0);
	v->gen = v->tui->gen;
	return 0;
}

static void
text_free(struct tui_view *v)
{
	struct text_data	*d = v->data;

	if (d == NULL)
		return;
	tui_tv_free(&d->tv);
	free(d->ns);
	free(d->name);
	free(d);
	v->data = NULL;
}

/* Make the text again from s. */
static void
remake(struct tui_view *v, const struct kube_snapshot *s)
{
	struct text_data	*d = v->data;
	char			 why[1200], *text;
	int64_t			 t0;

	d->outdated = 0;
	t0 = tui_now_ms();
	text = make_text(d, s, why, sizeof why);
	d->cost_ms = tui_now_ms() - t0;
	if (text == NULL) {
		d->gone = 1;
		return;
	}
	d->gone = 0;
	tui_tv_set_text(&d->tv, text, 1);
	if (d->tv.search[0] != '\0' && d->tv.match != (size_t)-1)
		d->tv.match = d->tv.match < d->tv.nlines ? d->tv.match :
		    (size_t)-1;
}

static void
text_update(struct tui_view *v, const struct kube_snapshot *s)
{
	struct text_data	*d = v->data;

	/* The text is owned: nothing to let go of. */
	if (s == NULL || d->what == TUI_D_HELP)
		return;
	if (d->what == TUI_D_WHY && d->cost_ms >= TUI_WHY_AUTO_MS) {
		d->outdated = 1;
		return;
	}
	remake(v, s);
}

static void
text_scroll(struct tui_view *v, int h, int w)
{
	struct text_data	*d = v->data;

	(void)w;
	d->tv.height = h > 0 ? h : 1;
	tui_tv_move(&d->tv, 0);
}

static void
text_draw(struct tui_view *v, int y, int x, int h, int w)
{
	struct text_data	*d = v->data;

	tui_tv_draw(&d->tv, stdscr, y, x + 1, h, w - 1);
}

static char *
text_title(struct tui_view *v, char *buf, size_t len)
{
	struct text_data	*d = v->data;

	if (d->gone)
		snprintf(buf, len, "%s (deleted)", d->title);
	else if (d->outdated)
		snprintf(buf, len, "%s (the data changed: r explains again)",
		    d->title);
	else
		snprintf(buf, len, "%s", d->title);
	return buf;
}

static int
text_filter(struct tui_view *v, const char *text)
{
	struct text_data	*d = v->data;

	snprintf(v->filter, sizeof v->filter, "%s", text);
	if (text[0] != '\0' && !tui_tv_search(&d->tv, text, 1))
		tui_status(v->tui, 1, "not found: %s", text);
	else if (text[0] == '\0')
		tui_tv_search(&d->tv, "", 1);
	return 0;
}

static int
text_key(struct tui_view *v, enum tui_action a, int key)
{
	struct text_data	*d = v->data;

	(void)key;
	switch (a) {
	case TUI_A_UP:
		return tui_tv_move(&d->tv, -1) | TUI_REDRAW;
	case TUI_A_DOWN:
		return tui_tv_move(&d->tv, 1) | TUI_REDRAW;
	case TUI_A_PGUP:
		return tui_tv_move(&d->tv, -(long)d->tv.height) | TUI_REDRAW;
	case TUI_A_PGDN:
		return tui_tv_move(&d->tv, d->tv.height) | TUI_REDRAW;
	case TUI_A_HOME:
		d->tv.top = 0;
		d->tv.left = 0;
		return TUI_REDRAW;
	case TUI_A_LEFT:
		return tui_tv_side(&d->tv, -8) | TUI_REDRAW;
	case TUI_A_RIGHT:
		return tui_tv_side(&d->tv, 8) | TUI_REDRAW;
	case TUI_A_END:
		return tui_tv_move(&d->tv, (long)d->tv.nlines) | TUI_REDRAW;
	case TUI_A_RECOMPUTE:
		if (d->what != TUI_D_WHY)
			return TUI_UNHANDLED;
		if (v->tui->snap != NULL)
			remake(v, v->tui->snap);
		return TUI_REDRAW;
	case TUI_A_SEARCH_NEXT:
	case TUI_A_SEARCH_PREV:
		if (d->tv.search[0] == '\0') {
			tui_status(v->tui, 1, "no search: / searches");
			return TUI_REDRAW;
		}
		if (!tui_tv_search(&d->tv, d->tv.search,
		    a == TUI_A_SEARCH_NEXT ? 1 : -1))
			tui_status(v->tui, 1, "not found: %s", d->tv.search);
		return TUI_REDRAW;
	default:
		return TUI_UNHANDLED;
	}
}

int
tui_open_detail(struct tui *t, const struct tui_detail_arg *a)
{
	struct tui_view	*v;

	v = tui_view_new(t, &tui_view_text, a);
	if (v == NULL)
		return -1;
	tui_push(t, v);
	return 0;
}
