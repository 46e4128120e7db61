/*
 * plan-svg.c: a Plan document as an SVG 1.1 picture (dra_plan_svg,
 * plan.h), `kubectl dra plan -o svg`.
 *
 * Geometry: every GPU is a bar SVG_BAR_W wide of its memory slices (8
 * cells of 30, or 4 of 60), each instance a rectangle over the slices
 * it takes.  GPUs stack in a block per node under the node's name;
 * blocks flow SVG_COLS to a row.  Above DRA_PLAN_SVG_MAX_GPUS GPUs,
 * blocks give way to one row per distinct GPU layout with its count.
 * The picture is drawn into a buffer first, so the header can carry
 * the final height.
 *
 * Colours: a team's colour is its place in status.teams (then the
 * namespaces of running claims, in order of appearance) in a palette
 * of 12, so the same plan always gets the same colours.  Idle GPUs are
 * grey, headroom light grey; running claims are hatched, moved ones
 * hatched and dashed, spares white and dashed.
 */
#include "plan.h"
#include "plan-int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "xmalloc.h"

#define SVG_MARGIN	20
#define SVG_TITLE_H	56	/* the two title lines */
#define SVG_BAR_W	240	/* a GPU's bar */
#define SVG_BAR_H	30
#define SVG_LABEL_W	80	/* the GPU's name, left of its bar */
#define SVG_ROW_H	36	/* a GPU's row */
#define SVG_NODE_H	22	/* a node's name */
#define SVG_GAP		24	/* between blocks */
#define SVG_COLS	3	/* node blocks per row */
#define SVG_BLOCK_W	(SVG_LABEL_W + SVG_BAR_W)
#define SVG_FONT	9	/* instance labels */
#define SVG_CHAR_W	5.4	/* what a character of SVG_FONT takes */
#define SVG_MIN_W	800

static const char *const svg_palette[] = {
	"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
	"#b07aa1", "#ff9da7", "#9c755f", "#86bcb6", "#d37295", "#8cd17d",
};
#define SVG_NPALETTE	(sizeof svg_palette / sizeof svg_palette[0])

#define SVG_IDLE	"#d0d0d0"
#define SVG_HEADROOM	"#eeeeee"
#define SVG_FREE	"#ffffff"

/* Namespaces in colour order. */
struct svg_ns {
	const char	**v;
	size_t		  n;
};

/* Profiles in use and how many instances each. */
struct svg_prof {
	const char	*name;
	size_t		 count;
};

/* A distinct GPU layout (large fleets). */
struct svg_group {
	char			*key;
	const struct pv_gpu	*gpu;		/* its first GPU */
	size_t			 first;
	size_t			 count;
};

static void	 svg_esc(struct pv_out *, const char *);
static size_t	 svg_ns_index(struct svg_ns *, const char *);
static const char *svg_colour(struct svg_ns *, const char *);
static void	 svg_inst_title(struct pv_out *, const struct pv_gpu *,
		    const struct pv_inst *);
static void	 svg_gpu(struct pv_out *, struct svg_ns *,
		    const struct pv_gpu *, int, int);
static int	 svg_blocks(struct pv_out *, struct svg_ns *,
		    const struct pv_doc *, int, int *);
static char	*svg_key(const struct pv_gpu *);
static int	 svg_group_cmp(const void *, const void *);
static int	 svg_first_cmp(const void *, const void *);
static int	 svg_groups(struct pv_out *, struct svg_ns *,
		    const struct pv_doc *, int, int *);
static int	 svg_legend(struct pv_out *, struct svg_ns *,
		    const struct pv_doc *, int, int);

/* s as XML character data or attribute text. */
static void
svg_esc(struct pv_out *o, const char *s)
{
	const unsigned char	*p, *q;
	const char		*rep;

	if (s == NULL)
		return;
	for (p = q = (const unsigned char *)s; *p != '\0'; p++) {
		switch (*p) {
		case '&':
			rep = "&amp;";
			break;
		case '<':
			rep = "&lt;";
			break;
		case '>':
			rep = "&gt;";
			break;
		case '"':
			rep = "&quot;";
			break;
		case '\'':
			rep = "&apos;";
			break;
		default:
			rep = (*p < 0x20 || *p == 0x7f) ? "?" : NULL;
			break;
		}
		if (rep == NULL)
			continue;
		pv_addn(o, (const char *)q, (size_t)(p - q));
		pv_adds(o, rep);
		q = p + 1;
	}
	pv_addn(o, (const char *)q, (size_t)(p - q));
}

/* The colour index of namespace ns, added when new. */
static size_t
svg_ns_index(struct svg_ns *ns, const char *name)
{
	size_t	i;

	for (i = 0; i < ns->n; i++)
		if (strcmp(ns->v[i], name) == 0)
			return i;
	ns->v = xreallocarray(ns->v, ns->n + 1, sizeof *ns->v);
	ns->v[ns->n] = name;
	return ns->n++;
}

static const char *
svg_colour(struct svg_ns *ns, const char *name)
{
	return svg_palette[svg_ns_index(ns, name != NULL ? name : "") %
	    SVG_NPALETTE];
}

/* "<title>device: profile, owner</title>" of an instance. */
static void
svg_inst_title(struct pv_out *o, const struct pv_gpu *g,
    const struct pv_inst *x)
{
	pv_adds(o, "<title>");
	svg_esc(o, g->name);
	if (x->device != NULL) {
		pv_adds(o, " ");
		svg_esc(o, x->device);
	}
	pv_adds(o, ": ");
	svg_esc(o, x->profile);
	pv_addf(o, " at slice %lld, #%lld, ", (long long)x->start,
	    (long long)x->order);
	switch (x->kind) {
	case PV_OWNER_WORKLOAD:
		pv_adds(o, "workload ");
		svg_esc(o, x->ns);
		pv_adds(o, "/");
		svg_esc(o, x->name);
		pv_addf(o, " (%lld replica%s)", (long long)x->replicas,
		    x->replicas == 1 ? "" : "s");
		break;
	case PV_OWNER_RUNNING:
	case PV_OWNER_MOVED:
		pv_addf(o, "%s claim ", x->kind == PV_OWNER_RUNNING ?
		    "running" : "moved");
		svg_esc(o, x->ns);
		pv_adds(o, "/");
		svg_esc(o, x->name);
		break;
	case PV_OWNER_SPARE:
		pv_adds(o, "spare");
		break;
	}
	pv_adds(o, "</title>");
}

/* One GPU's bar at (x, y): cells, then its instances. */
static void
svg_gpu(struct pv_out *o, struct svg_ns *ns, const struct pv_gpu *g,
    int x, int y)
{
	const struct pv_inst	*in;
	const char		*fill, *dot;
	double			 cw = (double)SVG_BAR_W / (double)g->slices;
	double			 ix, iw, cx;
	size_t			 i, len;
	int64_t			 c;

	fill = g->state == PV_IDLE ? SVG_IDLE : g->state == PV_HEADROOM ?
	    SVG_HEADROOM : SVG_FREE;
	pv_addf(o, "<g class=\"gpu\"><title>");
	svg_esc(o, g->name);
	pv_adds(o, " ");
	svg_esc(o, g->model);
	pv_adds(o, " ");
	svg_esc(o, g->mode);
	pv_addf(o, ", %s%s%s</title>\n", g->state == PV_IDLE ? "idle" :
	    g->state == PV_HEADROOM ? "headroom" : "used",
	    g->rebuilt ? ", cut anew" : "", g->changed ? ", changed" : "");
	for (c = 0; c < g->slices; c++)
		pv_addf(o, "<rect class=\"cell\" x=\"%.1f\" y=\"%d\" "
		    "width=\"%.1f\" height=\"%d\" fill=\"%s\" "
		    "stroke=\"#b0b0b0\"/>\n", x + c * cw, y, cw, SVG_BAR_H,
		    fill);
	pv_adds(o, "</g>\n");
	for (i = 0; i < g->ninst; i++) {
		in = &g->inst[i];
		ix = x + (double)in->start * cw;
		iw = (double)in->slices * cw;
		pv_adds(o, "<g>");
		svg_inst_title(o, g, in);
		if (in->kind == PV_OWNER_SPARE)
			pv_addf(o, "<rect class=\"instance\" x=\"%.1f\" "
			    "y=\"%d\" width=\"%.1f\" height=\"%d\" "
			    "fill=\"#ffffff\" stroke=\"#707070\" "
			    "stroke-dasharray=\"3,2\"/>", ix + 1, y + 1,
			    iw - 2, SVG_BAR_H - 2);
		else {
			pv_addf(o, "<rect class=\"instance\" x=\"%.1f\" "
			    "y=\"%d\" width=\"%.1f\" height=\"%d\" "
			    "fill=\"%s\" stroke=\"#303030\"%s/>", ix + 1,
			    y + 1, iw - 2, SVG_BAR_H - 2,
			    svg_colour(ns, in->ns),
			    in->kind == PV_OWNER_MOVED ?
			    " stroke-dasharray=\"4,2\" stroke-width=\"2\"" :
			    "");
			if (in->kind != PV_OWNER_WORKLOAD)
				pv_addf(o, "<rect class=\"hatch\" "
				    "x=\"%.1f\" y=\"%d\" width=\"%.1f\" "
				    "height=\"%d\" fill=\"url(#hatch)\"/>",
				    ix + 1, y + 1, iw - 2, SVG_BAR_H - 2);
		}
		/* The profile, on two lines at its '.' when narrow. */
		cx = ix + iw / 2;
		len = strlen(in->profile);
		dot = strchr(in->profile, '.');
		if ((double)len * SVG_CHAR_W <= iw - 4 || dot == NULL) {
			pv_addf(o, "<text x=\"%.1f\" y=\"%d\" "
			    "text-anchor=\"middle\" font-size=\"%d\">", cx,
			    y + SVG_BAR_H / 2 + 3, SVG_FONT);
			svg_esc(o, in->profile);
			pv_adds(o, "</text>");
		} else {
			char	*head = xstrndup(in->profile,
				    (size_t)(dot - in->profile));

			pv_addf(o, "<text x=\"%.1f\" y=\"%d\" "
			    "text-anchor=\"middle\" font-size=\"%d\">"
			    "<tspan x=\"%.1f\" dy=\"0\">", cx,
			    y + SVG_BAR_H / 2 - 2, SVG_FONT, cx);
			svg_esc(o, head);
			pv_addf(o, "</tspan><tspan x=\"%.1f\" dy=\"%d\">", cx,
			    SVG_FONT + 1);
			svg_esc(o, dot + 1);
			pv_adds(o, "</tspan></text>");
			free(head);
		}
		pv_adds(o, "</g>\n");
	}
}

/* Node blocks from y; returns the y below them; *w the width used. */
static int
svg_blocks(struct pv_out *o, struct svg_ns *ns, const struct pv_doc *d,
    int y, int *w)
{
	const struct pv_node	*n;
	size_t			 i, j, col = 0;
	int			 x, rowh = 0, h;

	for (i = 0; i < d->nnodes; i++) {
		n = &d->nodes[i];
		if (col == SVG_COLS) {
			y += rowh + SVG_GAP;
			rowh = 0;
			col = 0;
		}
		x = SVG_MARGIN + (int)col * (SVG_BLOCK_W + SVG_GAP);
		if (x + SVG_BLOCK_W + SVG_MARGIN > *w)
			*w = x + SVG_BLOCK_W + SVG_MARGIN;
		pv_addf(o, "<g class=\"node\">\n<text x=\"%d\" y=\"%d\" "
		    "font-size=\"12\" font-weight=\"bold\">", x,
		    y + SVG_NODE_H - 8);
		svg_esc(o, n->name);
		pv_adds(o, "</text>\n");
		for (j = 0; j < n->ngpus; j++) {
			int gy = y + SVG_NODE_H + (int)j * SVG_ROW_H;

			pv_addf(o, "<text x=\"%d\" y=\"%d\" font-size=\"11\">",
			    x, gy + SVG_BAR_H / 2 + 4);
			svg_esc(o, n->gpus[j].name);
			pv_adds(o, "</text>\n");
			svg_gpu(o, ns, &n->gpus[j], x + SVG_LABEL_W, gy);
		}
		pv_adds(o, "</g>\n");
		h = SVG_NODE_H + (int)n->ngpus * SVG_ROW_H;
		if (h > rowh)
			rowh = h;
		col++;
	}
	return y + rowh + SVG_GAP;
}

/* What makes two GPUs draw the same (not their names). */
static char *
svg_key(const struct pv_gpu *g)
{
	struct dra_buf	 b;
	struct pv_out	 o;
	size_t		 i;

	dra_buf_init(&b, DRA_BUF_MAX_PAGE);
	o.b = &b;
	o.rc = KUBE_OK;
	pv_addf(&o, "%s|%s|%d|%d|%d|%lld", g->model, g->mode, (int)g->state,
	    g->rebuilt, g->changed, (long long)g->slices);
	for (i = 0; i < g->ninst; i++)
		pv_addf(&o, "|%s,%lld,%lld,%d,%s,%s,%lld", g->inst[i].profile,
		    (long long)g->inst[i].start, (long long)g->inst[i].slices,
		    (int)g->inst[i].kind, g->inst[i].ns != NULL ?
		    g->inst[i].ns : "", g->inst[i].name != NULL ?
		    g->inst[i].name : "", (long long)g->inst[i].replicas);
	return dra_buf_take(&b);
}

static int
svg_group_cmp(const void *a, const void *b)
{
	const struct svg_group	*x = a, *y = b;
	int			 c = strcmp(x->key, y->key);

	if (c != 0)
		return c;
	return x->first < y->first ? -1 : x->first > y->first;
}

static int
svg_first_cmp(const void *a, const void *b)
{
	const struct svg_group	*x = a, *y = b;

	return x->first < y->first ? -1 : x->first > y->first;
}

/* Large fleets: one row per distinct GPU layout, with its count. */
static int
svg_groups(struct pv_out *o, struct svg_ns *ns, const struct pv_doc *d,
    int y, int *w)
{
	struct svg_group	*g;
	size_t			 i, j, k = 0, ng = 0;
	int			 x = SVG_MARGIN;

	g = xcalloc(d->ngpus + 1, sizeof *g);
	for (i = 0; i < d->nnodes; i++)
		for (j = 0; j < d->nodes[i].ngpus; j++) {
			g[k].key = svg_key(&d->nodes[i].gpus[j]);
			g[k].gpu = &d->nodes[i].gpus[j];
			g[k].first = k;
			g[k].count = 1;
			k++;
		}
	qsort(g, k, sizeof *g, svg_group_cmp);
	for (i = 0; i < k; i++) {
		if (ng > 0 && strcmp(g[ng - 1].key, g[i].key) == 0) {
			g[ng - 1].count++;
			free(g[i].key);
			continue;
		}
		g[ng++] = g[i];
	}
	qsort(g, ng, sizeof *g, svg_first_cmp);
	pv_addf(o, "<text x=\"%d\" y=\"%d\" font-size=\"12\" "
	    "font-weight=\"bold\">%zu distinct GPU layouts of %zu GPUs on "
	    "%zu nodes</text>\n", x, y + SVG_NODE_H - 8, ng, d->ngpus,
	    d->nnodes);
	y += SVG_NODE_H;
	if (x + 2 * SVG_LABEL_W + SVG_BAR_W + SVG_MARGIN > *w)
		*w = x + 2 * SVG_LABEL_W + SVG_BAR_W + SVG_MARGIN;
	for (i = 0; i < ng; i++) {
		pv_addf(o, "<g class=\"layout\">\n<text x=\"%d\" y=\"%d\" "
		    "font-size=\"11\">%zu &#215;</text>\n<text x=\"%d\" "
		    "y=\"%d\" font-size=\"11\">", x, y + SVG_BAR_H / 2 + 4,
		    g[i].count, x + SVG_LABEL_W, y + SVG_BAR_H / 2 + 4);
		svg_esc(o, g[i].gpu->model);
		pv_adds(o, "</text>\n");
		svg_gpu(o, ns, g[i].gpu, x + 2 * SVG_LABEL_W, y);
		pv_adds(o, "</g>\n");
		y += SVG_ROW_H;
		free(g[i].key);
	}
	free(g);
	return y + SVG_GAP;
}

/* Teams, profiles and marks, from y; returns the y below. */
static int
svg_legend(struct pv_out *o, struct svg_ns *ns, const struct pv_doc *d,
    int y, int w)
{
	struct svg_prof	*p = NULL;
	size_t		 np = 0, i, j, k, l;
	int		 x, iw;
	char		 cnt[32];
	static const struct {
		const char	*label;
		const char	*fill;
		const char	*extra;
		int		 hatch;
	} marks[] = {
		{ "running claim", "#ffffff", "", 1 },
		{ "spare instance", "#ffffff", " stroke-dasharray=\"3,2\"",
		  0 },
		{ "headroom GPU", SVG_HEADROOM, "", 0 },
		{ "idle GPU", SVG_IDLE, "", 0 },
	};

	pv_addf(o, "<g class=\"legend\">\n<text x=\"%d\" y=\"%d\" "
	    "font-size=\"12\" font-weight=\"bold\">Teams</text>\n",
	    SVG_MARGIN, y + 12);
	y += 20;
	x = SVG_MARGIN;
	for (i = 0; i < ns->n; i++) {
		iw = 24 + (int)(strlen(ns->v[i]) * 6.5);
		if (x > SVG_MARGIN && x + iw > w - SVG_MARGIN) {
			x = SVG_MARGIN;
			y += 18;
		}
		pv_addf(o, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"12\" "
		    "fill=\"%s\" stroke=\"#303030\"/><text x=\"%d\" y=\"%d\" "
		    "font-size=\"11\">", x, y, svg_palette[i % SVG_NPALETTE],
		    x + 18, y + 10);
		svg_esc(o, ns->v[i]);
		pv_adds(o, "</text>\n");
		x += iw + 12;
	}
	if (ns->n == 0)
		pv_addf(o, "<text x=\"%d\" y=\"%d\" font-size=\"11\">none"
		    "</text>\n", x, y + 10);
	y += 26;

	for (i = 0; i < d->nnodes; i++)
		for (j = 0; j < d->nodes[i].ngpus; j++)
			for (k = 0; k < d->nodes[i].gpus[j].ninst; k++) {
				const char *pr =
				    d->nodes[i].gpus[j].inst[k].profile;

				for (l = 0; l < np; l++)
					if (strcmp(p[l].name, pr) == 0)
						break;
				if (l == np) {
					p = xreallocarray(p, np + 1,
					    sizeof *p);
					p[np].name = pr;
					p[np++].count = 0;
				}
				p[l].count++;
			}
	pv_addf(o, "<text x=\"%d\" y=\"%d\" font-size=\"12\" "
	    "font-weight=\"bold\">Profiles</text>\n", SVG_MARGIN, y + 12);
	y += 20;
	x = SVG_MARGIN;
	for (i = 0; i < np; i++) {
		snprintf(cnt, sizeof cnt, " \xc3\x97 %zu", p[i].count);
		iw = (int)((strlen(p[i].name) + strlen(cnt)) * 6.5);
		if (x > SVG_MARGIN && x + iw > w - SVG_MARGIN) {
			x = SVG_MARGIN;
			y += 18;
		}
		pv_addf(o, "<text x=\"%d\" y=\"%d\" font-size=\"11\">", x,
		    y + 10);
		svg_esc(o, p[i].name);
		pv_addf(o, "%s</text>\n", cnt);
		x += iw + 16;
	}
	if (np == 0)
		pv_addf(o, "<text x=\"%d\" y=\"%d\" font-size=\"11\">none"
		    "</text>\n", x, y + 10);
	free(p);
	y += 26;

	x = SVG_MARGIN;
	for (i = 0; i < sizeof marks / sizeof marks[0]; i++) {
		pv_addf(o, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"12\" "
		    "fill=\"%s\" stroke=\"#707070\"%s/>", x, y, marks[i].fill,
		    marks[i].extra);
		if (marks[i].hatch)
			pv_addf(o, "<rect x=\"%d\" y=\"%d\" width=\"14\" "
			    "height=\"12\" fill=\"url(#hatch)\"/>", x, y);
		pv_addf(o, "<text x=\"%d\" y=\"%d\" font-size=\"11\">%s"
		    "</text>\n", x + 18, y + 10, marks[i].label);
		x += 130;
	}
	pv_adds(o, "</g>\n");
	return y + 12 + SVG_MARGIN;
}

int
dra_plan_svg(const struct cJSON *plan, struct dra_buf *out,
    struct dra_err *err)
{
	struct pv_doc	 d;
	struct pv_out	 o, bo;
	struct dra_buf	 head, body;
	struct svg_ns	 ns;
	char		 line[1024];
	size_t		 i, j, k;
	int		 rc, y, w = SVG_MIN_W;

	if ((rc = pv_read(plan, &d, err)) != KUBE_OK) {
		pv_release(&d);
		return rc;
	}
	memset(&ns, 0, sizeof ns);
	for (i = 0; i < d.nteams; i++)
		svg_ns_index(&ns, d.teams[i].ns);
	for (i = 0; i < d.nnodes; i++)
		for (j = 0; j < d.nodes[i].ngpus; j++)
			for (k = 0; k < d.nodes[i].gpus[j].ninst; k++)
				if (d.nodes[i].gpus[j].inst[k].ns != NULL)
					svg_ns_index(&ns,
					    d.nodes[i].gpus[j].inst[k].ns);

	dra_buf_init(&body, out->max);
	bo.b = &body;
	bo.rc = KUBE_OK;
	y = SVG_MARGIN + SVG_TITLE_H;
	if (d.ngpus > DRA_PLAN_SVG_MAX_GPUS)
		y = svg_groups(&bo, &ns, &d, y, &w);
	else if (d.ngpus > 0)
		y = svg_blocks(&bo, &ns, &d, y, &w);
	else {
		for (i = 0; i < d.nreasons; i++) {
			pv_addf(&bo, "<text x=\"%d\" y=\"%d\" "
			    "font-size=\"12\">", SVG_MARGIN, y + 14);
			svg_esc(&bo, d.reasons[i].message);
			pv_adds(&bo, "</text>\n");
			y += 20;
		}
		y += SVG_GAP;
	}
	y = svg_legend(&bo, &ns, &d, y, w);

	dra_buf_init(&head, out->max);
	o.b = &head;
	o.rc = KUBE_OK;
	pv_headline(&d, line, sizeof line);
	/* Wide enough for the title (about 9.5 pixels a character). */
	if (2 * SVG_MARGIN + (int)(strlen(line) * 19 / 2) > w)
		w = 2 * SVG_MARGIN + (int)(strlen(line) * 19 / 2);
	pv_addf(&o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
	    "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
	    "font-family=\"sans-serif\">\n<title>", w, y, w, y);
	svg_esc(&o, line);
	pv_adds(&o, "</title>\n<defs><pattern id=\"hatch\" width=\"6\" "
	    "height=\"6\" patternUnits=\"userSpaceOnUse\" "
	    "patternTransform=\"rotate(45)\"><line x1=\"0\" y1=\"0\" "
	    "x2=\"0\" y2=\"6\" stroke=\"#000000\" stroke-opacity=\"0.5\" "
	    "stroke-width=\"2\"/></pattern></defs>\n");
	pv_addf(&o, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" "
	    "fill=\"#ffffff\"/>\n", w, y);
	pv_addf(&o, "<text x=\"%d\" y=\"%d\" font-size=\"16\" "
	    "font-weight=\"bold\">", SVG_MARGIN, SVG_MARGIN + 14);
	svg_esc(&o, line);
	pv_adds(&o, "</text>\n");
	pv_addf(&o, "<text x=\"%d\" y=\"%d\" font-size=\"11\">",
	    SVG_MARGIN, SVG_MARGIN + 34);
	if (d.source != NULL) {
		svg_esc(&o, d.source);
		pv_adds(&o, "; ");
	}
	pv_addf(&o, "solver gap %g, %.3f s", d.gap, d.seconds);
	pv_adds(&o, "</text>\n");
	if (bo.rc == KUBE_OK)
		pv_addn(&o, body.ptr != NULL ? body.ptr : "", body.len);
	else
		o.rc = bo.rc;
	pv_adds(&o, "</svg>\n");
	dra_buf_release(&body);
	free(ns.v);
	pv_release(&d);
	if (o.rc == KUBE_OK)
		o.rc = dra_buf_add(out, head.ptr, head.len);
	dra_buf_release(&head);
	if (o.rc != KUBE_OK)
		return dra_err_set(err, o.rc, "plan picture: output larger "
		    "than %zu bytes", out->max);
	return KUBE_OK;
}
