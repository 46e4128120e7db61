/*
 * plan-table.c: a Plan document as text for people (dra_plan_table,
 * plan.h), the default output of `kubectl dra plan`.
 *
 * Three parts: a summary (label column of 10, values wrapped at 80
 * columns), the teams (one line per team with its totals and devices
 * per profile, one per workload, one for the quota) and the layout
 * (per node its name, then one line per GPU with its instances in
 * arrival order, wrapped under the first instance).  Above
 * DRA_PLAN_TABLE_MAX_GPUS GPUs the layout counts identical GPUs
 * instead.  Every name goes through pv_add_safe(), so a control
 * character in a document never reaches the terminal.
 */
#include "plan.h"
#include "plan-int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "xmalloc.h"

#define TB_WIDTH	80	/* columns */
#define TB_LABEL	10	/* width of the summary labels */

/* Items laid out on lines of TB_WIDTH, continuation lines indented. */
struct tb_line {
	struct pv_out	*o;
	size_t		 col;		/* current column */
	size_t		 indent;	/* of continuation lines */
	int		 any;		/* an item on this line */
};

/* A profile's devices, summed for a team. */
struct tb_prof {
	const char	*profile;
	int64_t		 devices;
};

/* One distinct GPU line, for large fleets. */
struct tb_group {
	char		*text;
	size_t		 first;		/* GPU number of its first */
	size_t		 count;
};

static size_t	 tb_width(const char *);
static char	*tb_safe(const char *);
static void	 tb_begin(struct tb_line *, struct pv_out *, size_t, size_t);
static void	 tb_item(struct tb_line *, const char *, const char *);
static void	 tb_end(struct tb_line *);
static void	 tb_label(struct tb_line *, struct pv_out *, const char *);
static void	 tb_money(struct pv_out *, const struct pv_doc *, double);
static char	*tb_money_item(const struct pv_doc *, const char *, double);
static void	 tb_summary(struct pv_out *, const struct pv_doc *);
static void	 tb_team_devices(struct tb_line *, const struct pv_workload *,
		    size_t);
static void	 tb_quota(struct pv_out *, const struct pv_team *);
static void	 tb_teams(struct pv_out *, const struct pv_doc *);
static char	*tb_inst_text(const struct pv_inst *);
static void	 tb_gpu_items(struct tb_line *, const struct pv_gpu *);
static void	 tb_layout(struct pv_out *, const struct pv_doc *);
static int	 tb_group_cmp(const void *, const void *);
static int	 tb_first_cmp(const void *, const void *);
static void	 tb_layout_counted(struct pv_out *, const struct pv_doc *);

/* Columns a UTF-8 string takes (code points; no wide characters). */
static size_t
tb_width(const char *s)
{
	size_t	n = 0;

	for (; *s != '\0'; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

/* A malloc'd copy of s with control characters written '?'. */
static char *
tb_safe(const char *s)
{
	char	*c = xstrdup(s != NULL ? s : ""), *p;

	for (p = c; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return c;
}

static void
tb_begin(struct tb_line *l, struct pv_out *o, size_t col, size_t indent)
{
	l->o = o;
	l->col = col;
	l->indent = indent;
	l->any = 0;
}

/*
 * Add item (already safe), after sep when the line has an item; an
 * item that would pass the width starts a new, indented line.
 */
static void
tb_item(struct tb_line *l, const char *item, const char *sep)
{
	size_t	w = tb_width(item), sw = l->any ? tb_width(sep) : 0, n;

	/* One column kept for the mark a later wrap leaves. */
	if (l->any && l->col + sw + w > TB_WIDTH - 1) {
		/* The separator's mark (",", ";") ends the line. */
		n = strlen(sep);
		while (n > 0 && sep[n - 1] == ' ')
			n--;
		pv_addn(l->o, sep, n);
		pv_addf(l->o, "\n%*s", (int)l->indent, "");
		l->col = l->indent;
	} else if (l->any) {
		pv_adds(l->o, sep);
		l->col += sw;
	}
	pv_adds(l->o, item);
	l->col += w;
	l->any = 1;
}

static void
tb_end(struct tb_line *l)
{
	pv_adds(l->o, "\n");
}

/* A summary line's label, the line ready for items. */
static void
tb_label(struct tb_line *l, struct pv_out *o, const char *label)
{
	pv_addf(o, "%-*s", TB_LABEL, label);
	tb_begin(l, o, TB_LABEL, TB_LABEL);
}

/* An amount and the currency. */
static void
tb_money(struct pv_out *o, const struct pv_doc *d, double v)
{
	char	buf[64];

	pv_adds(o, pv_money(v, buf, sizeof buf));
	if (d->currency != NULL && *d->currency != '\0') {
		pv_adds(o, " ");
		pv_add_safe(o, d->currency);
	}
}

/* Formats money into a malloc'd, safe item. */
static char *
tb_money_item(const struct pv_doc *d, const char *what, double v)
{
	struct dra_buf	b;
	struct pv_out	o;

	dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	o.b = &b;
	o.rc = KUBE_OK;
	pv_adds(&o, what);
	tb_money(&o, d, v);
	return dra_buf_take(&b);
}

static void
tb_summary(struct pv_out *o, const struct pv_doc *d)
{
	struct tb_line	 l;
	char		 buf[256], *s, *item;
	size_t		 i;

	tb_label(&l, o, "STATUS");
	s = tb_safe(d->status);
	snprintf(buf, sizeof buf, "%s, gap %g, %.3f s", s, d->gap,
	    d->seconds);
	free(s);
	tb_item(&l, buf, "");
	tb_end(&l);

	tb_label(&l, o, "GPUS");
	if (d->has_layout) {
		snprintf(buf, sizeof buf, "%lld in all:", (long long)d->total);
		tb_item(&l, buf, "");
		snprintf(buf, sizeof buf, "%lld used", (long long)d->used);
		tb_item(&l, buf, " ");
		snprintf(buf, sizeof buf, "%lld headroom",
		    (long long)d->headroom);
		tb_item(&l, buf, ", ");
		snprintf(buf, sizeof buf, "%lld idle", (long long)d->idle);
		tb_item(&l, buf, ", ");
		if (d->rebuilt > 0) {
			snprintf(buf, sizeof buf, "%lld cut anew",
			    (long long)d->rebuilt);
			tb_item(&l, buf, ", ");
		}
	} else {
		snprintf(buf, sizeof buf, "%lld in all", (long long)d->total);
		tb_item(&l, buf, "");
	}
	tb_end(&l);

	if (d->has_layout) {
		tb_label(&l, o, "LOAD");
		snprintf(buf, sizeof buf, "%.2f GPUs of compute,", d->load);
		tb_item(&l, buf, "");
		snprintf(buf, sizeof buf, "utilization %.1f%%",
		    d->utilization * 100);
		tb_item(&l, buf, " ");
		if (d->target > 0 || d->ceiling > 0) {
			snprintf(buf, sizeof buf, "(target %g%%, ceiling "
			    "%g%%)", d->target * 100, d->ceiling * 100);
			tb_item(&l, buf, " ");
		}
		tb_end(&l);
	}

	tb_label(&l, o, "COST");
	tb_item(&l, "per month:", "");
	s = tb_money_item(d, "before ", d->before);
	tb_item(&l, s, " ");
	free(s);
	if (d->has_layout) {
		s = tb_money_item(d, "after ", d->after);
		tb_item(&l, s, ", ");
		free(s);
		s = tb_money_item(d, "saving ", d->saving_before);
		tb_item(&l, s, ", ");
		free(s);
	}
	tb_end(&l);

	if (d->nbl > 0) {
		tb_label(&l, o, "BASELINE");
		tb_item(&l, "first fit:", "");
		for (i = 0; i < d->nbl; i++) {
			s = tb_safe(d->bl[i].order);
			if (d->bl[i].unplaced > 0)
				snprintf(buf, sizeof buf, "%s %lld GPUs (%lld "
				    "unplaced)", s, (long long)d->bl[i].gpus,
				    (long long)d->bl[i].unplaced);
			else
				snprintf(buf, sizeof buf, "%s %lld GPUs", s,
				    (long long)d->bl[i].gpus);
			free(s);
			tb_item(&l, buf, i == 0 ? " " : ", ");
		}
		tb_end(&l);
		if (d->baseline_order != NULL) {
			tb_label(&l, o, "");
			s = tb_safe(d->baseline_order);
			item = xasprintf("best %s:", s);
			tb_item(&l, item, "");
			free(item);
			free(s);
			s = tb_money_item(d, "", d->baseline);
			item = xasprintf("%s a month", s);
			free(s);
			s = item;
			tb_item(&l, s, " ");
			free(s);
			if (d->has_layout && d->saving_baseline >= 0)
				s = tb_money_item(d, "the plan saves ",
				    d->saving_baseline);
			else if (d->has_layout)
				s = tb_money_item(d, "the plan costs more by ",
				    -d->saving_baseline);
			else
				s = NULL;
			if (s != NULL)
				tb_item(&l, s, "; ");
			free(s);
			tb_end(&l);
		}
	}

	if (d->nreasons > 0) {
		for (i = 0; i < d->nreasons; i++) {
			char	*m = tb_safe(d->reasons[i].message);
			char	*c = tb_safe(d->reasons[i].constraint);
			char	*w, *p, *word;

			tb_label(&l, o, i == 0 ? "REASONS" : "");
			/* Words of the message, wrapped. */
			w = xasprintf("%s [%s]", m, c);
			for (p = w; (word = strsep(&p, " ")) != NULL;)
				if (*word != '\0')
					tb_item(&l, word, " ");
			free(w);
			free(m);
			free(c);
			tb_end(&l);
		}
	}
}

/* Devices per profile of n workloads, summed, "8 x 3g.40gb" items. */
static void
tb_team_devices(struct tb_line *l, const struct pv_workload *wl, size_t n)
{
	struct tb_prof	*p = NULL;
	size_t		 np = 0, i, j, k;
	char		*s, *item;

	for (i = 0; i < n; i++)
		for (j = 0; j < wl[i].ngrants; j++) {
			for (k = 0; k < np; k++)
				if (strcmp(p[k].profile,
				    wl[i].grants[j].profile) == 0)
					break;
			if (k == np) {
				p = xreallocarray(p, np + 1, sizeof *p);
				p[np].profile = wl[i].grants[j].profile;
				p[np++].devices = 0;
			}
			p[k].devices += wl[i].grants[j].devices;
		}
	if (np == 0)
		tb_item(l, "-", "");
	for (k = 0; k < np; k++) {
		s = tb_safe(p[k].profile);
		item = xasprintf("%lld x %s", (long long)p[k].devices, s);
		tb_item(l, item, ", ");
		free(item);
		free(s);
	}
	free(p);
}

/* "quota: 14 claims; class 8, class 6; every other class 0". */
static void
tb_quota(struct pv_out *o, const struct pv_team *t)
{
	static const char	 suffix[] =
				    ".deviceclass.resource.k8s.io/devices";
	struct tb_line		 l;
	char			*s, *item;
	size_t			 i, n, nzero = 0, nshown = 0;

	pv_adds(o, "  quota: ");
	tb_begin(&l, o, 9, 4);
	for (i = 0; i < t->nhard; i++)
		if (strcmp(t->hard[i].key,
		    "count/resourceclaims.resource.k8s.io") == 0) {
			s = tb_safe(t->hard[i].value);
			item = xasprintf("%s claim%s", s,
			    strcmp(s, "1") == 0 ? "" : "s");
			tb_item(&l, item, "");
			free(item);
			free(s);
		}
	for (i = 0; i < t->nhard; i++) {
		n = strlen(t->hard[i].key);
		if (n <= sizeof suffix - 1 || strcmp(t->hard[i].key + n -
		    (sizeof suffix - 1), suffix) != 0)
			continue;
		if (strcmp(t->hard[i].value, "0") == 0) {
			nzero++;
			continue;
		}
		s = tb_safe(t->hard[i].key);
		s[n - (sizeof suffix - 1)] = '\0';
		item = xasprintf("%s %s", s, t->hard[i].value);
		free(s);
		s = tb_safe(item);
		tb_item(&l, s, nshown++ == 0 ? "; " : ", ");
		free(s);
		free(item);
	}
	if (nzero > 0)
		tb_item(&l, nshown > 0 ? "every other class 0" :
		    "every class 0", "; ");
	tb_end(&l);
}

static void
tb_teams(struct pv_out *o, const struct pv_doc *d)
{
	struct tb_line		 l;
	const struct pv_team	*t;
	size_t			 w = 15, i, j, n;
	int64_t			 served, min, max;
	char			*s;

	if (d->nteams == 0)
		return;
	for (i = 0; i < d->nteams; i++) {
		n = tb_width(d->teams[i].ns);
		if (n > w)
			w = n;
		for (j = 0; j < d->teams[i].nwl; j++) {
			n = tb_width(d->teams[i].wl[j].name) + 2;
			if (n > w)
				w = n;
		}
	}
	if (w > 40)
		w = 40;
	pv_addf(o, "\n%-*s  SERVED    MIN    MAX  DEVICES\n", (int)w,
	    "TEAM / WORKLOAD");
	for (i = 0; i < d->nteams; i++) {
		t = &d->teams[i];
		served = min = max = 0;
		for (j = 0; j < t->nwl; j++) {
			served += t->wl[j].served;
			min += t->wl[j].min;
			max += t->wl[j].max;
		}
		s = tb_safe(t->ns);
		pv_addf(o, "%-*s  %6lld %6lld %6lld  ", (int)w, s,
		    (long long)served, (long long)min, (long long)max);
		tb_begin(&l, o, (tb_width(s) > w ? tb_width(s) : w) + 23,
		    w + 23);
		free(s);
		tb_team_devices(&l, t->wl, t->nwl);
		tb_end(&l);
		for (j = 0; j < t->nwl; j++) {
			s = tb_safe(t->wl[j].name);
			pv_addf(o, "  %-*s  %6lld %6lld %6lld  ", (int)w - 2,
			    s, (long long)t->wl[j].served,
			    (long long)t->wl[j].min, (long long)t->wl[j].max);
			tb_begin(&l, o, (tb_width(s) + 2 > w ?
			    tb_width(s) + 2 : w) + 23, w + 23);
			free(s);
			tb_team_devices(&l, &t->wl[j], 1);
			tb_end(&l);
		}
		if (t->has_quota)
			tb_quota(o, t);
	}
}

/* "[3g.40gb team-a/llm]", "[1g.10gb ·]": malloc'd and safe. */
static char *
tb_inst_text(const struct pv_inst *x)
{
	char	*p = tb_safe(x->profile), *ns, *name, *s;

	if (x->kind == PV_OWNER_SPARE) {
		s = xasprintf("[%s \xc2\xb7]", p);
		free(p);
		return s;
	}
	ns = tb_safe(x->ns);
	name = tb_safe(x->name);
	if (x->kind == PV_OWNER_WORKLOAD && x->replicas > 1)
		s = xasprintf("[%s %s/%s x%lld]", p, ns, name,
		    (long long)x->replicas);
	else if (x->kind == PV_OWNER_WORKLOAD)
		s = xasprintf("[%s %s/%s]", p, ns, name);
	else
		s = xasprintf("[%s %s/%s %s]", p, ns, name,
		    pv_owner_name(x->kind));
	free(p);
	free(ns);
	free(name);
	return s;
}

/* A GPU's instances, or its state, then its flags. */
static void
tb_gpu_items(struct tb_line *l, const struct pv_gpu *g)
{
	struct dra_buf	 b;
	struct pv_out	 o;
	size_t		 i;
	char		*s;

	for (i = 0; i < g->ninst; i++) {
		s = tb_inst_text(&g->inst[i]);
		tb_item(l, s, "");
		free(s);
	}
	if (g->ninst == 0)
		tb_item(l, g->state == PV_HEADROOM ? "headroom" :
		    g->state == PV_IDLE ? "idle" : "empty", "");
	dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	o.b = &b;
	o.rc = KUBE_OK;
	if (strcmp(g->mode, "dynamic") != 0)
		pv_add_safe(&o, g->mode);
	if (g->rebuilt)
		pv_adds(&o, b.len > 0 ? ", cut anew" : "cut anew");
	if (g->changed)
		pv_adds(&o, b.len > 0 ? ", changed" : "changed");
	if (g->mig_config != NULL) {
		pv_adds(&o, b.len > 0 ? ", config " : "config ");
		pv_add_safe(&o, g->mig_config);
	}
	if (b.len > 0) {
		s = xasprintf("(%s)", dra_buf_str(&b));
		tb_item(l, s, " ");
		free(s);
	}
	dra_buf_release(&b);
}

static void
tb_layout(struct pv_out *o, const struct pv_doc *d)
{
	struct tb_line	 l;
	size_t		 wn = 0, wm = 0, i, j, n;
	char		*s;

	for (i = 0; i < d->nnodes; i++)
		for (j = 0; j < d->nodes[i].ngpus; j++) {
			n = tb_width(d->nodes[i].gpus[j].name);
			if (n > wn)
				wn = n;
			n = tb_width(d->nodes[i].gpus[j].model);
			if (n > wm)
				wm = n;
		}
	if (wn > 20)
		wn = 20;
	if (wm > 20)
		wm = 20;
	pv_adds(o, "\nLAYOUT (claims arrive in the order shown)\n");
	for (i = 0; i < d->nnodes; i++) {
		s = tb_safe(d->nodes[i].name);
		pv_addf(o, "%s\n", s);
		free(s);
		for (j = 0; j < d->nodes[i].ngpus; j++) {
			const struct pv_gpu *g = &d->nodes[i].gpus[j];
			size_t c;

			s = tb_safe(g->name);
			pv_addf(o, "  %-*s  ", (int)wn, s);
			c = 2 + (tb_width(s) > wn ? tb_width(s) : wn) + 2;
			free(s);
			s = tb_safe(g->model);
			pv_addf(o, "%-*s  ", (int)wm, s);
			c += (tb_width(s) > wm ? tb_width(s) : wm) + 2;
			free(s);
			tb_begin(&l, o, c, 2 + wn + 2 + wm + 2);
			tb_gpu_items(&l, g);
			tb_end(&l);
		}
	}
}

static int
tb_group_cmp(const void *a, const void *b)
{
	const struct tb_group	*x = a, *y = b;
	int			 c = strcmp(x->text, y->text);

	if (c != 0)
		return c;
	return x->first < y->first ? -1 : x->first > y->first;
}

static int
tb_first_cmp(const void *a, const void *b)
{
	const struct tb_group	*x = a, *y = b;

	return x->first < y->first ? -1 : x->first > y->first;
}

/*
 * Each distinct GPU line once, with its count, in order of first
 * appearance.  A GPU's line is its model and items, laid out as they
 * would be at the count's column.
 */
static void
tb_layout_counted(struct pv_out *o, const struct pv_doc *d)
{
	struct tb_group	*g;
	struct tb_line	 l;
	struct dra_buf	 b;
	struct pv_out	 lo;
	size_t		 i, j, k = 0, ng = 0, wc, wm = 0, n;
	char		*s, cnt[32];

	g = xcalloc(d->ngpus + 1, sizeof *g);
	for (i = 0; i < d->nnodes; i++)
		for (j = 0; j < d->nodes[i].ngpus; j++) {
			n = tb_width(d->nodes[i].gpus[j].model);
			if (n > wm)
				wm = n;
		}
	if (wm > 20)
		wm = 20;
	snprintf(cnt, sizeof cnt, "%zu", d->ngpus);
	wc = strlen(cnt);
	for (i = 0; i < d->nnodes; i++)
		for (j = 0; j < d->nodes[i].ngpus; j++) {
			const struct pv_gpu *gp = &d->nodes[i].gpus[j];

			dra_buf_init(&b, DRA_BUF_MAX_PAGE);
			lo.b = &b;
			lo.rc = KUBE_OK;
			s = tb_safe(gp->model);
			pv_addf(&lo, "%-*s  ", (int)wm, s);
			n = 2 + wc + 4 + (tb_width(s) > wm ? tb_width(s) : wm)
			    + 2;
			free(s);
			tb_begin(&l, &lo, n, 2 + wc + 4 + wm + 2);
			tb_gpu_items(&l, gp);
			g[k].text = dra_buf_take(&b);
			g[k].first = k;
			g[k].count = 1;
			k++;
		}
	qsort(g, k, sizeof *g, tb_group_cmp);
	for (i = 0; i < k; i++) {
		if (ng > 0 && strcmp(g[ng - 1].text, g[i].text) == 0) {
			g[ng - 1].count++;
			free(g[i].text);
			continue;
		}
		g[ng++] = g[i];
	}
	qsort(g, ng, sizeof *g, tb_first_cmp);
	pv_addf(o, "\nLAYOUT (%zu GPUs on %zu nodes; identical GPUs counted)\n",
	    d->ngpus, d->nnodes);
	for (i = 0; i < ng; i++) {
		pv_addf(o, "  %*zu x  %s\n", (int)wc, g[i].count, g[i].text);
		free(g[i].text);
	}
	free(g);
}

int
dra_plan_table(const struct cJSON *plan, struct dra_buf *out,
    struct dra_err *err)
{
	struct pv_doc	 d;
	struct pv_out	 o;
	struct dra_buf	 b;
	int		 rc;

	if ((rc = pv_read(plan, &d, err)) != KUBE_OK) {
		pv_release(&d);
		return rc;
	}
	dra_buf_init(&b, out->max);
	o.b = &b;
	o.rc = KUBE_OK;
	tb_summary(&o, &d);
	tb_teams(&o, &d);
	if (d.ngpus > DRA_PLAN_TABLE_MAX_GPUS)
		tb_layout_counted(&o, &d);
	else if (d.ngpus > 0)
		tb_layout(&o, &d);
	pv_release(&d);
	if (o.rc == KUBE_OK)
		o.rc = dra_buf_add(out, b.ptr != NULL ? b.ptr : "", b.len);
	dra_buf_release(&b);
	if (o.rc != KUBE_OK)
		return dra_err_set(err, o.rc, "plan table: output larger "
		    "than %zu bytes", out->max);
	return KUBE_OK;
}
