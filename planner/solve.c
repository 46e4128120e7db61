/*
 * solve.c: the planner's integer program (solve.h), built over GPU
 * classes and solved level by level with GLPK.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <glpk.h>

#include "geometry.h"
#include "solve.h"
#include "xmalloc.h"

/* A class of interchangeable GPUs. */
struct cls {
	size_t			 geometry;
	enum plan_mig_mode	 mode;
	int			*pinned;	/* running placements, sorted */
	size_t			 npinned;
	int			 keep_existing;	/* static MIG with running
						   claims: today's layout */
	int			 tainted;	/* takes nothing new */
	int			*existing;	/* sorted, keep_existing */
	size_t			 nexisting;
	size_t			*gpus;		/* inventory indexes */
	size_t			 ngpus;
	struct plan_pattern	*pat;		/* kept: completions */
	size_t			 npat;
	int			 own_pat;	/* pat built here */
	struct plan_pattern	*rpat;		/* rebuilt: empty GPU */
	size_t			 nrpat;
	int			*pincount;	/* per profile, running */
	int			 col;		/* first n[c][q] column */
	int			 rcol;		/* first rn[c][q] column */
	int64_t			*sol;		/* npat */
	int64_t			*rsol;		/* nrpat */
};

/* A workload, flattened over teams. */
struct wl {
	size_t				 team;
	size_t				 index;
	const struct plan_workload	*w;
	int				*profile;	/* per geometry */
	int				*per_device;	/* per geometry */
	int				 xcol;		/* first x column,
							   per geometry with
							   profile >= 0 */
	int				*xcolg;		/* per geometry, 0 none */
	int				 rcol;		/* r column */
};

struct plan {
	const struct plan_inventory	*inv;
	const struct plan_demand	*d;
	const struct plan_solve_opts	*opts;
	struct cls			*cls;
	size_t				 ncls;
	struct wl			*wl;
	size_t				 nwl;
	size_t				*ngeo_gpus;	/* GPUs per geometry */
	double				 running_load;
	size_t				 pinned_gpus;	/* hold running claims */
	double				 fleet_compute;	/* in GPUs */
	int				 rebuild;	/* repartition allowed and
							   some class pinned */
	glp_prob			*lp;
	int				 ncols;
	int				*supply_row;	/* [g * MAXP + p] */
	size_t				 maxp;
	double				 time_limit;
	double				 gap;
	double				 t0;
	int				 kinds[4];	/* LEVEL_* per level */
	double				*xsol;		/* the last solution found,
							   per column (1-based) */
	struct plan_result		*res;
};

/* The objectives, in the order they are solved (solve.h). */
enum {
	LEVEL_SERVED,		/* priority-weighted replicas, maximised */
	LEVEL_GPUS,		/* GPUs in use */
	LEVEL_RECONFIGURED,	/* GPUs holding running claims cut anew */
	LEVEL_CHANGED,		/* GPUs mig-parted must cut differently */
};

/* GLPK's environment while it runs: hooks and the search's bound. */
struct glpk_ctx {
	jmp_buf				 jb;
	const struct plan_solve_opts	*opts;
	char				 line[512];
	size_t				 len;
	char				 last[512];	/* last full line */
	double				 bound;
	double				 gap;
	int				 have_bound;
};

const char *
plan_status_name(enum plan_status st)
{
	switch (st) {
	case PLAN_OPTIMAL:
		return ("optimal");
	case PLAN_FEASIBLE:
		return ("feasible");
	case PLAN_INFEASIBLE:
		return ("infeasible");
	case PLAN_NO_SOLUTION:
		return ("no-solution");
	}
	return ("unknown");
}

double
plan_seconds(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
}

static void
progress(const struct plan_solve_opts *o, const char *fmt, ...)
{
	char	buf[512];
	va_list	ap;

	if (o == NULL || o->progress == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	o->progress(o->progress_arg, buf);
}

/* GLPK's terminal output, cut into lines for the progress callback. */
static int
glpk_term(void *info, const char *s)
{
	struct glpk_ctx	*ctx = info;

	for (; *s != '\0'; s++) {
		if (*s == '\n' || ctx->len == sizeof(ctx->line) - 1) {
			ctx->line[ctx->len] = '\0';
			if (ctx->len > 0) {
				memcpy(ctx->last, ctx->line, ctx->len + 1);
				if (ctx->opts != NULL &&
				    ctx->opts->progress != NULL)
					ctx->opts->progress(
					    ctx->opts->progress_arg,
					    ctx->line);
			}
			ctx->len = 0;
			if (*s == '\n')
				continue;
		}
		ctx->line[ctx->len++] = *s;
	}
	return (1);	/* never GLPK's own stdout */
}

/* GLPK calls this on an internal error; it must not return. */
static void
glpk_error(void *info)
{
	struct glpk_ctx	*ctx = info;

	longjmp(ctx->jb, 1);
}

static void
glpk_cb(glp_tree *t, void *info)
{
	struct glpk_ctx	*ctx = info;
	int		 best;

	switch (glp_ios_reason(t)) {
	case GLP_ISELECT:
	case GLP_IBINGO:
	case GLP_IBRANCH:
		best = glp_ios_best_node(t);
		if (best != 0) {
			ctx->bound = glp_ios_node_bound(t, best);
			ctx->have_bound = 1;
		}
		ctx->gap = glp_ios_mip_gap(t);
		break;
	default:
		break;
	}
}

/* A column's value in the last solution kept. */
static double
col_val(const struct plan *pl, int col)
{
	if (pl->xsol == NULL || col <= 0 || col > pl->ncols)
		return (0);
	return (pl->xsol[col]);
}

/* Keep the solution GLPK holds, so a later level that finds none in
   time leaves this one. */
static void
save_solution(struct plan *pl)
{
	int	j;

	free(pl->xsol);
	pl->xsol = xcalloc((size_t)pl->ncols + 1, sizeof(double));
	for (j = 1; j <= pl->ncols; j++)
		pl->xsol[j] = glp_mip_col_val(pl->lp, j);
}

/* ------------------------------------------------------------------ */
/* Classes. */

static int
cmp_int(const void *a, const void *b)
{
	int	x = *(const int *)a, y = *(const int *)b;

	return ((x > y) - (x < y));
}

/* What decides a GPU's class, as a comparable key. */
struct gkey {
	size_t			 gpu;
	size_t			 geometry;
	int			 cat;		/* 0 dynamic, 1 any, 2 keep */
	int			*pinned;
	size_t			 npinned;
	int			*existing;
	size_t			 nexisting;
	size_t			 rank;		/* spread order */
};

static int
cmp_ints(const int *a, size_t na, const int *b, size_t nb)
{
	size_t	i;

	if (na != nb)
		return (na < nb ? -1 : 1);
	for (i = 0; i < na; i++)
		if (a[i] != b[i])
			return (a[i] < b[i] ? -1 : 1);
	return (0);
}

static int
cmp_gkey(const void *a, const void *b)
{
	const struct gkey	*x = a, *y = b;
	int			 c;

	if (x->geometry != y->geometry)
		return (x->geometry < y->geometry ? -1 : 1);
	if (x->cat != y->cat)
		return (x->cat < y->cat ? -1 : 1);
	if ((c = cmp_ints(x->pinned, x->npinned, y->pinned,
	    y->npinned)) != 0)
		return (c);
	if ((c = cmp_ints(x->existing, x->nexisting, y->existing,
	    y->nexisting)) != 0)
		return (c);
	if (x->rank != y->rank)
		return (x->rank < y->rank ? -1 : 1);
	return (0);
}

/* Spread order: the k-th GPU of every node, then the (k+1)-th. */
static void
spread_ranks(const struct plan_inventory *inv, size_t *rank)
{
	size_t	 i, k = 0, nnodes = 0, maxk = 0;
	size_t	*within, *node;

	within = xcalloc(inv->ngpus + 1, sizeof(*within));
	node = xcalloc(inv->ngpus + 1, sizeof(*node));
	for (i = 0; i < inv->ngpus; i++) {
		if (i > 0 && strcmp(inv->gpus[i].node,
		    inv->gpus[i - 1].node) == 0)
			k++;
		else {
			k = 0;
			if (i > 0)
				nnodes++;
		}
		within[i] = k;
		node[i] = nnodes;
		if (k > maxk)
			maxk = k;
	}
	nnodes++;
	for (i = 0; i < inv->ngpus; i++)
		rank[i] = within[i] * nnodes + node[i];
	free(within);
	free(node);
}

static void
pattern_free_own(struct plan_pattern *p, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(p[i].count);
		free(p[i].placements);
	}
	free(p);
}

/* The one pattern of a static GPU that keeps today's layout. */
static struct plan_pattern *
keep_pattern(const struct plan_geometry *g, const struct cls *c)
{
	struct plan_pattern	*p;
	size_t			 i, j;
	int			 pl, pinned;

	p = xcalloc(1, sizeof(*p));
	p->count = xcalloc(g->nprofiles, sizeof(int));
	p->placements = xcalloc(c->nexisting + 1, sizeof(int));
	for (i = 0; i < c->nexisting; i++) {
		pl = c->existing[i];
		pinned = 0;
		for (j = 0; j < c->npinned; j++)
			if (c->pinned[j] == pl)
				pinned = 1;
		p->compute += g->profiles[g->placements[pl].profile].compute;
		p->memory += g->profiles[g->placements[pl].profile].memory;
		if (pinned)
			continue;
		p->count[g->placements[pl].profile]++;
		p->placements[p->nplacements++] = pl;
	}
	return (p);
}

static int
build_classes(struct plan *pl, struct dra_err *err)
{
	const struct plan_inventory	*inv = pl->inv;
	struct gkey			*k;
	size_t				*rank;
	size_t				 i, j, start;
	struct cls			*c;
	const struct plan_gpu		*gp;
	const struct plan_geometry	*g;
	int				 rc, repart;

	repart = pl->d->policy.repartition_running;
	k = xcalloc(inv->ngpus + 1, sizeof(*k));
	rank = xcalloc(inv->ngpus + 1, sizeof(*rank));
	spread_ranks(inv, rank);
	for (i = 0; i < inv->ngpus; i++) {
		gp = &inv->gpus[i];
		k[i].gpu = i;
		k[i].geometry = gp->geometry;
		k[i].rank = rank[i];
		k[i].npinned = gp->nrunning;
		k[i].pinned = xcalloc(gp->nrunning + 1, sizeof(int));
		for (j = 0; j < gp->nrunning; j++)
			k[i].pinned[j] = gp->running[j].placement;
		qsort(k[i].pinned, k[i].npinned, sizeof(int), cmp_int);
		if (gp->tainted)
			k[i].cat = 3;
		else if (gp->mode == PLAN_MODE_DYNAMIC)
			k[i].cat = 0;
		else
			k[i].cat = (gp->mode == PLAN_MODE_STATIC &&
			    gp->nrunning > 0) ? 2 : 1;
		/* Static GPUs: today's instances tell them apart (what
		   they keep, and whether a pattern changes them). */
		if (gp->mode == PLAN_MODE_STATIC && !gp->tainted) {
			k[i].nexisting = gp->nexisting;
			k[i].existing = xcalloc(gp->nexisting + 1,
			    sizeof(int));
			memcpy(k[i].existing, gp->existing,
			    gp->nexisting * sizeof(int));
			qsort(k[i].existing, k[i].nexisting, sizeof(int),
			    cmp_int);
		}
	}
	free(rank);
	qsort(k, inv->ngpus, sizeof(*k), cmp_gkey);

	rc = KUBE_OK;
	for (i = 0; i < inv->ngpus; i = j) {
		for (j = i + 1; j < inv->ngpus; j++) {
			if (k[j].geometry != k[i].geometry ||
			    k[j].cat != k[i].cat ||
			    cmp_ints(k[j].pinned, k[j].npinned,
			    k[i].pinned, k[i].npinned) != 0 ||
			    cmp_ints(k[j].existing, k[j].nexisting,
			    k[i].existing, k[i].nexisting) != 0)
				break;
		}
		pl->cls = xreallocarray(pl->cls, pl->ncls + 1,
		    sizeof(*pl->cls));
		c = &pl->cls[pl->ncls++];
		memset(c, 0, sizeof(*c));
		c->geometry = k[i].geometry;
		c->mode = inv->gpus[k[i].gpu].mode;
		c->pinned = k[i].pinned;
		c->npinned = k[i].npinned;
		k[i].pinned = NULL;
		c->keep_existing = (k[i].cat == 2);
		c->tainted = (k[i].cat == 3);
		c->existing = k[i].existing;
		c->nexisting = k[i].nexisting;
		k[i].existing = NULL;
		c->ngpus = j - i;
		c->gpus = xcalloc(c->ngpus, sizeof(size_t));
		for (start = i; start < j; start++)
			c->gpus[start - i] = k[start].gpu;
		g = inv->geometries[c->geometry];
		c->pincount = xcalloc(g->nprofiles + 1, sizeof(int));
		for (start = 0; start < c->npinned; start++)
			c->pincount[g->placements[c->pinned[start]].profile]++;
		if (rc != KUBE_OK)
			continue;
		if (c->tainted) {
			/* Nothing added: one empty pattern. */
			c->pat = xcalloc(1, sizeof(*c->pat));
			c->pat->count = xcalloc(g->nprofiles + 1, sizeof(int));
			c->npat = 1;
			c->own_pat = 1;
			continue;
		}
		if (c->keep_existing) {
			c->pat = keep_pattern(g, c);
			c->npat = 1;
			c->own_pat = 1;
		} else {
			rc = plan_patterns(g, c->pinned, c->npinned,
			    c->mode == PLAN_MODE_DYNAMIC ?
			    PLAN_PATTERN_FIRST_FIT : 0, &c->pat, &c->npat, err);
			if (rc != KUBE_OK) {
				dra_err_prefix(err, "GPU %s/%s",
				    inv->gpus[c->gpus[0]].node,
				    inv->gpus[c->gpus[0]].name);
				continue;
			}
		}
		if (repart && c->npinned > 0) {
			rc = plan_patterns(g, NULL, 0,
			    c->mode == PLAN_MODE_DYNAMIC ?
			    PLAN_PATTERN_FIRST_FIT : 0, &c->rpat, &c->nrpat,
			    err);
			pl->rebuild = 1;
		}
	}
	for (i = 0; i < inv->ngpus; i++) {
		free(k[i].pinned);
		free(k[i].existing);
	}
	free(k);
	return (rc);
}

static void
free_classes(struct plan *pl)
{
	size_t		 i;
	struct cls	*c;

	for (i = 0; i < pl->ncls; i++) {
		c = &pl->cls[i];
		if (c->own_pat)
			pattern_free_own(c->pat, c->npat);
		else
			plan_patterns_free(c->pat, c->npat);
		plan_patterns_free(c->rpat, c->nrpat);
		free(c->pinned);
		free(c->existing);
		free(c->gpus);
		free(c->pincount);
		free(c->sol);
		free(c->rsol);
	}
	free(pl->cls);
}

/* ------------------------------------------------------------------ */
/* The integer program. */

static double
compute_share(const struct plan_geometry *g, int profile)
{
	const struct plan_profile	*p = &g->profiles[profile];

	if (p->whole || g->compute_slices <= 0)
		return (1.0);
	return ((double)p->compute / (double)g->compute_slices);
}

/* Running instances of a team: their GPU share and memory. */
static void
team_running(const struct plan *pl, const char *ns, double *gpus,
    int64_t *mib)
{
	const struct plan_inventory	*inv = pl->inv;
	const struct plan_geometry	*g;
	const struct plan_gpu		*gp;
	size_t				 i, j;
	int				 prof;

	*gpus = 0;
	*mib = 0;
	for (i = 0; i < inv->ngpus; i++) {
		gp = &inv->gpus[i];
		g = inv->geometries[gp->geometry];
		for (j = 0; j < gp->nrunning; j++) {
			if (strcmp(gp->running[j].namespace, ns) != 0)
				continue;
			prof = g->placements[gp->running[j].placement].profile;
			*gpus += compute_share(g, prof);
			*mib += g->profiles[prof].memory_mib;
		}
	}
}

/* An integer column in [lb, ub] (ub < 0: no upper bound). */
static int
add_col(struct plan *pl, double lb, double ub)
{
	int	j;

	j = glp_add_cols(pl->lp, 1);
	glp_set_col_kind(pl->lp, j, GLP_IV);
	if (ub < 0)
		glp_set_col_bnds(pl->lp, j, GLP_LO, lb, 0);
	else if (lb == ub)
		glp_set_col_bnds(pl->lp, j, GLP_FX, lb, ub);
	else
		glp_set_col_bnds(pl->lp, j, GLP_DB, lb, ub);
	return (j);
}

/* A continuous column >= 0: a slack of the explanation's program. */
static int
add_slack(struct plan *pl)
{
	int	j;

	j = glp_add_cols(pl->lp, 1);
	glp_set_col_kind(pl->lp, j, GLP_CV);
	glp_set_col_bnds(pl->lp, j, GLP_LO, 0, 0);
	return (j);
}

/* A sparse row being built. */
struct row {
	int	*ind;
	double	*val;
	int	 n, cap;
};

static void
row_add(struct row *r, int col, double v)
{
	if (v == 0)
		return;
	if (r->n + 2 > r->cap) {
		r->cap = r->cap == 0 ? 16 : r->cap * 2;
		r->ind = xreallocarray(r->ind, (size_t)r->cap, sizeof(int));
		r->val = xreallocarray(r->val, (size_t)r->cap,
		    sizeof(double));
	}
	r->n++;
	r->ind[r->n] = col;
	r->val[r->n] = v;
}

static int
row_put(struct plan *pl, struct row *r, int type, double lb, double ub,
    const char *name)
{
	int	i;

	i = glp_add_rows(pl->lp, 1);
	if (name != NULL)
		glp_set_row_name(pl->lp, i, name);
	glp_set_row_bnds(pl->lp, i, type, lb, ub);
	if (r->n > 0)
		glp_set_mat_row(pl->lp, i, r->n, r->ind, r->val);
	r->n = 0;
	return (i);
}

/*
 * The model's columns and rows.  elastic: the minimums, caps and the
 * ceiling get slack columns (for the explanation of an infeasible
 * demand); their indexes go to slack[] (nwl + 2 * nteams + 1 long).
 */
static void
build_model(struct plan *pl, int elastic, int *slack)
{
	const struct plan_inventory	*inv = pl->inv;
	const struct plan_demand	*d = pl->d;
	const struct plan_geometry	*g;
	struct row			 r = { 0 };
	struct cls			*c;
	struct wl			*w;
	size_t				 ci, q, wi, gi, t, p, ng = inv->ngeometries;
	double				 cap, run_gpus;
	int64_t				 run_mib;
	int				 col, ub, need, maxper;
	char				 name[64];

	pl->lp = glp_create_prob();
	glp_set_prob_name(pl->lp, "kubectl-dra-plan");

	for (ci = 0; ci < pl->ncls; ci++) {
		c = &pl->cls[ci];
		ub = (int)c->ngpus;
		c->col = 0;
		for (q = 0; q < c->npat; q++) {
			col = add_col(pl, 0, ub);
			if (q == 0)
				c->col = col;
		}
		c->rcol = 0;
		for (q = 0; q < c->nrpat; q++) {
			col = add_col(pl, 0, ub);
			if (q == 0)
				c->rcol = col;
		}
	}
	for (wi = 0; wi < pl->nwl; wi++) {
		w = &pl->wl[wi];
		for (gi = 0; gi < ng; gi++) {
			w->xcolg[gi] = 0;
			if (w->profile[gi] < 0 || pl->ngeo_gpus[gi] == 0)
				continue;
			w->xcolg[gi] = add_col(pl, 0, -1);
		}
		if (elastic)
			w->rcol = add_col(pl, 0, (double)w->w->max);
		else
			w->rcol = add_col(pl, (double)w->w->min,
			    (double)w->w->max);
	}

	/* Each class: its GPUs take one pattern each. */
	for (ci = 0; ci < pl->ncls; ci++) {
		c = &pl->cls[ci];
		for (q = 0; q < c->npat; q++)
			row_add(&r, c->col + (int)q, 1);
		for (q = 0; q < c->nrpat; q++)
			row_add(&r, c->rcol + (int)q, 1);
		snprintf(name, sizeof(name), "class%zu", ci);
		row_put(pl, &r, GLP_FX, (double)c->ngpus, (double)c->ngpus,
		    name);
	}

	/* Supply: devices given out <= devices the patterns make. */
	for (gi = 0; gi < ng; gi++) {
		g = inv->geometries[gi];
		for (p = 0; p < g->nprofiles; p++) {
			need = 0;
			for (wi = 0; wi < pl->nwl; wi++)
				if (pl->wl[wi].xcolg[gi] != 0 &&
				    pl->wl[wi].profile[gi] == (int)p)
					need = 1;
			for (ci = 0; ci < pl->ncls; ci++)
				if (pl->cls[ci].geometry == gi &&
				    pl->cls[ci].nrpat > 0 &&
				    pl->cls[ci].pincount[p] > 0)
					need = 1;
			pl->supply_row[gi * pl->maxp + p] = 0;
			if (!need)
				continue;
			for (wi = 0; wi < pl->nwl; wi++) {
				w = &pl->wl[wi];
				if (w->xcolg[gi] != 0 &&
				    w->profile[gi] == (int)p)
					row_add(&r, w->xcolg[gi], 1);
			}
			for (ci = 0; ci < pl->ncls; ci++) {
				c = &pl->cls[ci];
				if (c->geometry != gi)
					continue;
				for (q = 0; q < c->nrpat; q++)
					row_add(&r, c->rcol + (int)q,
					    c->pincount[p] -
					    c->rpat[q].count[p]);
				for (q = 0; q < c->npat; q++)
					row_add(&r, c->col + (int)q,
					    -c->pat[q].count[p]);
			}
			snprintf(name, sizeof(name), "supply%zu.%zu", gi, p);
			pl->supply_row[gi * pl->maxp + p] = row_put(pl, &r,
			    GLP_UP, 0, 0, name);
		}
	}

	/* Replicas served <= replicas the devices serve. */
	for (wi = 0; wi < pl->nwl; wi++) {
		w = &pl->wl[wi];
		row_add(&r, w->rcol, 1);
		for (gi = 0; gi < ng; gi++)
			if (w->xcolg[gi] != 0)
				row_add(&r, w->xcolg[gi],
				    -(double)w->per_device[gi]);
		snprintf(name, sizeof(name), "serve%zu", wi);
		row_put(pl, &r, GLP_UP, 0, 0, name);
		/*
		 * And no more devices than the replicas need: per x
		 * devices <= r + per - 1 (per the most replicas a device
		 * of any model serves), so an exclusive workload gets
		 * exactly one device a replica and none serves nobody.
		 */
		maxper = 1;
		for (gi = 0; gi < ng; gi++)
			if (w->xcolg[gi] != 0 && w->per_device[gi] > maxper)
				maxper = w->per_device[gi];
		for (gi = 0; gi < ng; gi++)
			if (w->xcolg[gi] != 0)
				row_add(&r, w->xcolg[gi],
				    (double)w->per_device[gi]);
		row_add(&r, w->rcol, -1);
		snprintf(name, sizeof(name), "need%zu", wi);
		row_put(pl, &r, GLP_UP, 0, (double)(maxper - 1), name);
		if (elastic) {
			/* r + s >= min */
			slack[wi] = add_slack(pl);
			row_add(&r, w->rcol, 1);
			row_add(&r, slack[wi], 1);
			row_put(pl, &r, GLP_LO, (double)w->w->min, 0, NULL);
		}
	}

	/* Team caps, running instances included. */
	for (t = 0; t < d->nteams; t++) {
		team_running(pl, d->teams[t].namespace, &run_gpus, &run_mib);
		if (d->teams[t].cap_gpu_milli >= 0) {
			for (wi = 0; wi < pl->nwl; wi++) {
				w = &pl->wl[wi];
				if (w->team != t)
					continue;
				for (gi = 0; gi < ng; gi++)
					if (w->xcolg[gi] != 0)
						row_add(&r, w->xcolg[gi],
						    1000.0 * compute_share(
						    inv->geometries[gi],
						    w->profile[gi]));
			}
			cap = (double)d->teams[t].cap_gpu_milli -
			    1000.0 * run_gpus;
			if (cap < 0)
				cap = 0;
			if (elastic) {
				slack[pl->nwl + 2 * t] = add_slack(pl);
				row_add(&r, slack[pl->nwl + 2 * t], -1);
			}
			row_put(pl, &r, GLP_UP, 0, cap + 1e-6, NULL);
		} else if (elastic)
			slack[pl->nwl + 2 * t] = 0;
		if (d->teams[t].cap_memory_mib >= 0) {
			for (wi = 0; wi < pl->nwl; wi++) {
				w = &pl->wl[wi];
				if (w->team != t)
					continue;
				for (gi = 0; gi < ng; gi++)
					if (w->xcolg[gi] != 0)
						row_add(&r, w->xcolg[gi],
						    (double)inv->geometries[gi]->
						    profiles[w->profile[gi]].
						    memory_mib);
			}
			cap = (double)(d->teams[t].cap_memory_mib - run_mib);
			if (cap < 0)
				cap = 0;
			if (elastic) {
				slack[pl->nwl + 2 * t + 1] = add_slack(pl);
				row_add(&r, slack[pl->nwl + 2 * t + 1], -1);
			}
			row_put(pl, &r, GLP_UP, 0, cap, NULL);
		} else if (elastic)
			slack[pl->nwl + 2 * t + 1] = 0;
	}

	/* The ceiling: compute in use <= ceiling x the fleet's. */
	for (wi = 0; wi < pl->nwl; wi++) {
		w = &pl->wl[wi];
		for (gi = 0; gi < ng; gi++)
			if (w->xcolg[gi] != 0)
				row_add(&r, w->xcolg[gi], compute_share(
				    inv->geometries[gi], w->profile[gi]));
	}
	cap = d->policy.ceiling * pl->fleet_compute - pl->running_load;
	if (cap < 0)
		cap = 0;
	if (elastic) {
		slack[pl->nwl + 2 * d->nteams] = add_slack(pl);
		row_add(&r, slack[pl->nwl + 2 * d->nteams], -1);
	}
	row_put(pl, &r, GLP_UP, 0, cap + 1e-6, "ceiling");
	free(r.ind);
	free(r.val);
	pl->ncols = glp_get_num_cols(pl->lp);
}

/*
 * Whether a GPU of class c taking pattern p must be cut anew by
 * mig-parted: a whole GPU that gets MIG instances, a static GPU whose
 * instances today cannot hold p (p fits in today's instances when it
 * needs no more of any profile than they have).  Dynamic MIG, tainted
 * GPUs and GPUs that keep today's layout never change.
 */
static int
pattern_changes(const struct plan *pl, const struct cls *c,
    const struct plan_pattern *p)
{
	const struct plan_geometry	*g = pl->inv->geometries[c->geometry];
	int				*have;
	size_t				 k;
	int				 changes = 0;

	if (c->tainted || c->keep_existing || c->mode == PLAN_MODE_DYNAMIC)
		return (0);
	if (c->mode == PLAN_MODE_WHOLE) {
		for (k = 0; k < g->nprofiles; k++)
			if (p->count[k] > 0 && !g->profiles[k].whole)
				return (1);
		return (0);
	}
	have = xcalloc(g->nprofiles + 1, sizeof(int));
	for (k = 0; k < c->nexisting; k++)
		have[g->placements[c->existing[k]].profile]++;
	for (k = 0; k < g->nprofiles; k++)
		if (p->count[k] > have[k])
			changes = 1;
	free(have);
	return (changes);
}

/* Set the objective of one level; other columns get 0. */
static void
set_objective(struct plan *pl, int level)
{
	struct cls	*c;
	struct wl	*w;
	size_t		 ci, q, wi;
	int		 j;

	for (j = 1; j <= pl->ncols; j++)
		glp_set_obj_coef(pl->lp, j, 0);
	switch (pl->kinds[level]) {
	case LEVEL_SERVED:
		glp_set_obj_dir(pl->lp, GLP_MAX);
		for (wi = 0; wi < pl->nwl; wi++) {
			w = &pl->wl[wi];
			glp_set_obj_coef(pl->lp, w->rcol,
			    (double)(w->w->priority > 0 ?
			    w->w->priority : 0) + 1);
		}
		break;
	case LEVEL_GPUS:
		/*
		 * GPUs in use: those of unpinned classes that take a
		 * pattern, plus every GPU holding running claims (the
		 * constant pl->pinned_gpus, added by read_level()), less
		 * those cut anew to nothing (their claims move away).
		 */
		glp_set_obj_dir(pl->lp, GLP_MIN);
		for (ci = 0; ci < pl->ncls; ci++) {
			c = &pl->cls[ci];
			for (q = 0; q < c->npat; q++)
				if (c->npinned == 0 &&
				    c->pat[q].nplacements > 0)
					glp_set_obj_coef(pl->lp,
					    c->col + (int)q, 1);
			for (q = 0; q < c->nrpat; q++)
				if (c->rpat[q].nplacements == 0)
					glp_set_obj_coef(pl->lp,
					    c->rcol + (int)q, -1);
		}
		break;
	case LEVEL_CHANGED:
		glp_set_obj_dir(pl->lp, GLP_MIN);
		for (ci = 0; ci < pl->ncls; ci++) {
			c = &pl->cls[ci];
			for (q = 0; q < c->npat; q++)
				if (pattern_changes(pl, c, &c->pat[q]))
					glp_set_obj_coef(pl->lp,
					    c->col + (int)q, 1);
		}
		break;
	case LEVEL_RECONFIGURED:
		glp_set_obj_dir(pl->lp, GLP_MIN);
		for (ci = 0; ci < pl->ncls; ci++) {
			c = &pl->cls[ci];
			for (q = 0; q < c->nrpat; q++)
				glp_set_obj_coef(pl->lp, c->rcol + (int)q, 1);
		}
		break;
	}
}

/* Fix the objective just solved at its value, as a row. */
static void
fix_objective(struct plan *pl, int maximize, double value)
{
	struct row	 r = { 0 };
	int		 j;
	double		 v;

	for (j = 1; j <= pl->ncols; j++)
		if ((v = glp_get_obj_coef(pl->lp, j)) != 0)
			row_add(&r, j, v);
	if (maximize)
		row_put(pl, &r, GLP_LO, value - 0.5, 0, "level");
	else
		row_put(pl, &r, GLP_UP, 0, value + 0.5, "level");
	free(r.ind);
	free(r.val);
}

/*
 * One glp_intopt under the hooks.  Returns 0 solved (status in *st:
 * GLP_OPT, GLP_FEAS, GLP_NOFEAS, GLP_UNDEF), -1 on a GLPK error (err).
 */
static int
run_glpk(struct plan *pl, struct glpk_ctx *ctx, int *st, int *ret,
    struct dra_err *err)
{
	glp_iocp	parm;
	double		left;

	glp_init_iocp(&parm);
	parm.presolve = GLP_ON;
	parm.msg_lev = GLP_MSG_ON;
	/*
	 * Gomory and MIR cuts close the pattern model's small integer
	 * gaps at the root: without them a nearly empty fleet (a few
	 * instances on hundreds of GPUs) sent GLPK through a long search
	 * for its first integer solution (13 s on 200 GPUs, none in 60 s
	 * on 600).  Measured in docs/BENCHMARKS.md.
	 */
	parm.gmi_cuts = GLP_ON;
	parm.mir_cuts = GLP_ON;
	parm.mip_gap = pl->gap;
	parm.cb_func = glpk_cb;
	parm.cb_info = ctx;
	left = pl->time_limit - (plan_seconds() - pl->t0);
	if (left < 0.001)
		left = 0.001;
	parm.tm_lim = left * 1000 > 2e9 ? 2000000000 : (int)(left * 1000);
	ctx->have_bound = 0;
	ctx->gap = 0;
	*ret = glp_intopt(pl->lp, &parm);
	*st = glp_mip_status(pl->lp);
	(void)err;
	return (0);
}

/* ------------------------------------------------------------------ */
/* From counts to GPUs. */

/* A device to place: a workload's or a moved running claim's. */
struct unit {
	enum plan_owner_kind		 kind;
	size_t				 wl;		/* into pl->wl */
	const struct plan_instance	*running;
	int				 replicas;
};

struct gpuwork {
	int	*pattern_count;	/* per profile: instances the pattern adds */
	const struct plan_pattern *pat;
	const struct cls *cls;
	int	 rebuilt;
	struct unit *units;	/* owners per added instance, by profile */
	size_t	 nunits;
	int	*unit_profile;
};

static void
gpu_add_unit(struct gpuwork *gw, int profile, const struct unit *u)
{
	gw->units = xreallocarray(gw->units, gw->nunits + 1,
	    sizeof(*gw->units));
	gw->unit_profile = xreallocarray(gw->unit_profile, gw->nunits + 1,
	    sizeof(int));
	gw->units[gw->nunits] = *u;
	gw->unit_profile[gw->nunits] = profile;
	gw->nunits++;
}

/* The free instances of one geometry and profile on one node. */
struct nodeq {
	size_t	*gpus;		/* one entry per free instance */
	size_t	 n, at;
	size_t	 next, prev;	/* ring of nodes with room */
};

/*
 * Give units[] their instances of profile p on geometry gi: each owner
 * in turn takes one on the next node that has room, so a workload's
 * devices spread over nodes (level 4); a new workload starts again at
 * the first node.  Nodes and the GPUs within them in inventory order.
 */
static void
assign_units(struct plan *pl, struct gpuwork *gws, size_t gi, int p,
    const struct unit *units, size_t nunits)
{
	const struct plan_inventory	*inv = pl->inv;
	struct nodeq			*nq = NULL;
	size_t				 nnq = 0, i, k, u, head, cur, live;
	int				 c;

	for (i = 0; i < inv->ngpus; i++) {
		if (inv->gpus[i].geometry != gi ||
		    gws[i].pattern_count == NULL ||
		    (c = gws[i].pattern_count[p]) <= 0)
			continue;
		if (nnq == 0 || strcmp(inv->gpus[nq[nnq - 1].gpus[0]].node,
		    inv->gpus[i].node) != 0) {
			nq = xreallocarray(nq, nnq + 1, sizeof(*nq));
			memset(&nq[nnq], 0, sizeof(*nq));
			nnq++;
		}
		k = nnq - 1;
		for (; c > 0; c--) {
			nq[k].gpus = xreallocarray(nq[k].gpus, nq[k].n + 1,
			    sizeof(size_t));
			nq[k].gpus[nq[k].n++] = i;
		}
	}
	if (nnq == 0)
		return;
	for (k = 0; k < nnq; k++) {
		nq[k].next = (k + 1) % nnq;
		nq[k].prev = (k + nnq - 1) % nnq;
	}
	head = cur = 0;
	live = nnq;
	for (u = 0; u < nunits && live > 0; u++) {
		if (u > 0 && units[u].kind == PLAN_OWNER_WORKLOAD &&
		    (units[u - 1].kind != PLAN_OWNER_WORKLOAD ||
		    units[u - 1].wl != units[u].wl))
			cur = head;
		gpu_add_unit(&gws[nq[cur].gpus[nq[cur].at++]], p, &units[u]);
		k = cur;
		cur = nq[cur].next;
		if (nq[k].at == nq[k].n) {
			/* No room left: out of the ring. */
			if (--live == 0)
				break;
			nq[nq[k].prev].next = nq[k].next;
			nq[nq[k].next].prev = nq[k].prev;
			if (head == k)
				head = nq[k].next;
		}
	}
	for (k = 0; k < nnq; k++)
		free(nq[k].gpus);
	free(nq);
}

/* Owners are placed higher priority first, then in input order. */
static const struct plan *sort_pl;

static int
cmp_wl_index(const void *a, const void *b)
{
	size_t	x = *(const size_t *)a, y = *(const size_t *)b;
	int64_t	px = sort_pl->wl[x].w->priority;
	int64_t	py = sort_pl->wl[y].w->priority;

	if (px != py)
		return (px > py ? -1 : 1);
	return ((x > y) - (x < y));
}

/* GPUs in spread order (qsort over indexes). */
static const size_t *sort_rank;

static int
cmp_rank(const void *a, const void *b)
{
	size_t	x = sort_rank[*(const size_t *)a];
	size_t	y = sort_rank[*(const size_t *)b];

	return ((x > y) - (x < y));
}

/* Find the pattern of class c with this count vector (for dropping spares). */
static const struct plan_pattern *
find_pattern(const struct plan_pattern *pat, size_t npat, const int *count,
    size_t nprofiles)
{
	size_t	q;

	for (q = 0; q < npat; q++)
		if (memcmp(pat[q].count, count, nprofiles * sizeof(int)) == 0)
			return (&pat[q]);
	return (NULL);
}

/*
 * Whether the plan cuts a GPU differently from today: a static GPU
 * whose instances (running and spare) differ from the existing ones,
 * a whole GPU that gets MIG instances.  Dynamic MIG needs no change
 * made by hand: its instances come and go with their claims.
 */
static int
layout_changed(const struct plan_geometry *g, const struct plan_gpu *gp,
    const struct plan_gpu_layout *lay)
{
	int	*now, *then, changed = 0;
	size_t	 j;

	switch (gp->mode) {
	case PLAN_MODE_DYNAMIC:
		return (0);
	case PLAN_MODE_WHOLE:
		for (j = 0; j < lay->nslots; j++)
			if (!g->profiles[g->placements[lay->slots[j].
			    placement].profile].whole)
				changed = 1;
		return (changed);
	case PLAN_MODE_STATIC:
		break;
	}
	now = xcalloc(g->nprofiles + 1, sizeof(int));
	then = xcalloc(g->nprofiles + 1, sizeof(int));
	for (j = 0; j < gp->nexisting; j++)
		now[g->placements[gp->existing[j]].profile]++;
	for (j = 0; j < lay->nslots; j++)
		then[g->placements[lay->slots[j].placement].profile]++;
	changed = memcmp(now, then, g->nprofiles * sizeof(int)) != 0;
	free(now);
	free(then);
	return (changed);
}

/* Whether counts (per profile) fit in GPU gp's instances today. */
static int
fits_existing(const struct plan_geometry *g, const struct plan_gpu *gp,
    const int *counts)
{
	int	*have, fits = 1;
	size_t	 k;

	have = xcalloc(g->nprofiles + 1, sizeof(int));
	for (k = 0; k < gp->nexisting; k++)
		have[g->placements[gp->existing[k]].profile]++;
	for (k = 0; k < g->nprofiles; k++)
		if (counts[k] > have[k])
			fits = 0;
	free(have);
	return (fits);
}

static void
make_layouts(struct plan *pl)
{
	const struct plan_inventory	*inv = pl->inv;
	struct plan_result		*res = pl->res;
	struct gpuwork			*gws;
	struct cls			*c;
	const struct plan_geometry	*g;
	const struct plan_pattern	*pat;
	struct plan_gpu_layout		*lay;
	struct unit			*units = NULL, u;
	size_t				*rank, *order, *wlorder;
	size_t				 ci, q, k, i, gi, wi, nunits, s, j;
	size_t				 idle;
	int				 p, *owned, *used_unit, static_keep;
	const int			*plist;
	size_t				 nplist;
	int64_t				 left, dev, per;
	const struct plan_gpu		*gp;

	gws = xcalloc(inv->ngpus + 1, sizeof(*gws));
	rank = xcalloc(inv->ngpus + 1, sizeof(*rank));
	order = xcalloc(inv->ngpus + 1, sizeof(*order));
	spread_ranks(inv, rank);
	for (i = 0; i < inv->ngpus; i++)
		order[i] = i;
	sort_rank = rank;
	qsort(order, inv->ngpus, sizeof(size_t), cmp_rank);

	/* Patterns to GPUs: non-empty first, GPUs in spread order. */
	for (ci = 0; ci < pl->ncls; ci++) {
		c = &pl->cls[ci];
		k = 0;
		for (q = 0; q < c->nrpat; q++)
			for (s = 0; s < (size_t)c->rsol[q]; s++, k++) {
				gws[c->gpus[k]].pat = &c->rpat[q];
				gws[c->gpus[k]].rebuilt = 1;
				gws[c->gpus[k]].cls = c;
			}
		for (q = c->npat; q-- > 0;)
			for (s = 0; s < (size_t)c->sol[q]; s++, k++) {
				gws[c->gpus[k]].pat = &c->pat[q];
				gws[c->gpus[k]].cls = c;
			}
	}
	for (i = 0; i < inv->ngpus; i++)
		if (gws[i].pat != NULL)
			gws[i].pattern_count = gws[i].pat->count;

	/* Owners: moved running claims first, then workloads by priority. */
	wlorder = xcalloc(pl->nwl + 1, sizeof(size_t));
	for (wi = 0; wi < pl->nwl; wi++)
		wlorder[wi] = wi;
	sort_pl = pl;
	qsort(wlorder, pl->nwl, sizeof(size_t), cmp_wl_index);
	for (gi = 0; gi < inv->ngeometries; gi++) {
		g = inv->geometries[gi];
		for (p = 0; p < (int)g->nprofiles; p++) {
			nunits = 0;
			for (i = 0; i < inv->ngpus; i++) {
				gp = &inv->gpus[i];
				if (gp->geometry != gi || !gws[i].rebuilt)
					continue;
				for (j = 0; j < gp->nrunning; j++) {
					if (g->placements[gp->running[j].
					    placement].profile != p)
						continue;
					memset(&u, 0, sizeof(u));
					u.kind = PLAN_OWNER_MOVED;
					u.running = &gp->running[j];
					units = xreallocarray(units, nunits + 1,
					    sizeof(*units));
					units[nunits++] = u;
				}
			}
			for (k = 0; k < pl->nwl; k++) {
				wi = wlorder[k];
				if (pl->wl[wi].xcolg[gi] == 0 ||
				    pl->wl[wi].profile[gi] != p)
					continue;
				dev = (int64_t)llround(col_val(pl,
				    pl->wl[wi].xcolg[gi]));
				left = res->served[pl->wl[wi].team]
				    [pl->wl[wi].index];
				per = pl->wl[wi].per_device[gi];
				for (s = 0; s < (size_t)dev; s++) {
					memset(&u, 0, sizeof(u));
					u.kind = PLAN_OWNER_WORKLOAD;
					u.wl = wi;
					u.replicas = 0;
					units = xreallocarray(units, nunits + 1,
					    sizeof(*units));
					units[nunits++] = u;
				}
				(void)left;
				(void)per;
			}
			if (nunits > 0)
				assign_units(pl, gws, gi, p, units, nunits);
		}
	}
	free(units);
	free(wlorder);

	/* Replicas: each workload's devices serve per_device, the last
	   one what is left. */
	for (wi = 0; wi < pl->nwl; wi++) {
		left = res->served[pl->wl[wi].team][pl->wl[wi].index];
		for (i = 0; i < inv->ngpus; i++) {
			gi = inv->gpus[order[i]].geometry;
			for (j = 0; j < gws[order[i]].nunits; j++) {
				if (gws[order[i]].units[j].kind !=
				    PLAN_OWNER_WORKLOAD ||
				    gws[order[i]].units[j].wl != wi)
					continue;
				per = pl->wl[wi].per_device[gi];
				gws[order[i]].units[j].replicas =
				    (int)(left < per ? left : per);
				left -= gws[order[i]].units[j].replicas;
			}
		}
	}

	/* Slots: running first, then the realisation's placements. */
	res->gpus = xcalloc(inv->ngpus + 1, sizeof(*res->gpus));
	res->ngpus = inv->ngpus;
	for (i = 0; i < inv->ngpus; i++) {
		gp = &inv->gpus[i];
		g = inv->geometries[gp->geometry];
		lay = &res->gpus[i];
		lay->rebuilt = gws[i].rebuilt;
		pat = gws[i].pat;
		static_keep = 0;
		owned = xcalloc(g->nprofiles + 1, sizeof(int));
		for (j = 0; j < gws[i].nunits; j++)
			owned[gws[i].unit_profile[j]]++;
		/*
		 * Make only what is claimed: dynamic MIG never makes a
		 * spare, and a spare mig-parted would make is a choice
		 * among equal optima, not part of the plan.  A static GPU
		 * that keeps today's layout keeps its spares.
		 */
		if (pat != NULL && gp->mode == PLAN_MODE_STATIC &&
		    !lay->rebuilt && !gws[i].cls->keep_existing &&
		    fits_existing(g, gp, owned)) {
			/* Today's instances hold it: keep them, the rest
			   as spares (nothing for mig-parted to do). */
			static_keep = 1;
		} else if (pat != NULL && !gws[i].cls->keep_existing &&
		    memcmp(owned, pat->count, g->nprofiles * sizeof(int))
		    != 0) {
			const struct plan_pattern *alt;

			alt = lay->rebuilt ? find_pattern(gws[i].cls->rpat,
			    gws[i].cls->nrpat, owned, g->nprofiles) :
			    find_pattern(gws[i].cls->pat, gws[i].cls->npat,
			    owned, g->nprofiles);
			if (alt != NULL)
				pat = alt;
		}
		free(owned);
		if (static_keep) {
			plist = gp->existing;
			nplist = gp->nexisting;
		} else {
			plist = pat != NULL ? pat->placements : NULL;
			nplist = pat != NULL ? pat->nplacements : 0;
		}
		lay->slots = xcalloc(gp->nrunning + nplist + 1,
		    sizeof(*lay->slots));
		if (!lay->rebuilt)
			for (j = 0; j < gp->nrunning; j++) {
				lay->slots[lay->nslots].placement =
				    gp->running[j].placement;
				lay->slots[lay->nslots].kind =
				    PLAN_OWNER_RUNNING;
				lay->slots[lay->nslots].running =
				    &gp->running[j];
				lay->nslots++;
			}
		used_unit = xcalloc(gws[i].nunits + 1, sizeof(int));
		for (k = 0; k < nplist; k++) {
			struct plan_slot *sl = &lay->slots[lay->nslots++];

			sl->placement = plist[k];
			sl->kind = PLAN_OWNER_SPARE;
			p = g->placements[sl->placement].profile;
			for (j = 0; j < gws[i].nunits; j++) {
				if (used_unit[j] || gws[i].unit_profile[j] != p)
					continue;
				used_unit[j] = 1;
				sl->kind = gws[i].units[j].kind;
				sl->running = gws[i].units[j].running;
				if (sl->kind == PLAN_OWNER_WORKLOAD) {
					sl->team = pl->wl[gws[i].units[j].wl].team;
					sl->workload =
					    pl->wl[gws[i].units[j].wl].index;
					sl->replicas = gws[i].units[j].replicas;
				}
				break;
			}
		}
		free(used_unit);
		for (j = 0; j < lay->nslots; j++)
			if (lay->slots[j].kind != PLAN_OWNER_SPARE)
				lay->used = 1;
		/* A static GPU nobody uses keeps today's instances, as
		   spares: cutting it anew would gain nothing. */
		if (gp->mode == PLAN_MODE_STATIC && !lay->used) {
			free(lay->slots);
			lay->slots = xcalloc(gp->nexisting + 1,
			    sizeof(*lay->slots));
			lay->nslots = 0;
			for (j = 0; j < gp->nexisting; j++) {
				lay->slots[lay->nslots].placement =
				    gp->existing[j];
				lay->slots[lay->nslots].kind = PLAN_OWNER_SPARE;
				lay->nslots++;
			}
		}
		lay->changed = layout_changed(g, gp, lay);
		if (lay->used)
			res->gpus_used++;
		if (lay->rebuilt)
			res->gpus_rebuilt++;
		free(gws[i].units);
		free(gws[i].unit_profile);
	}

	/* Headroom: enough idle GPUs in service for the target. */
	if (pl->d->policy.target > 0) {
		double want = ceil(res->load / pl->d->policy.target - 1e-9);

		idle = 0;
		for (i = 0; i < inv->ngpus &&
		    (double)(res->gpus_used + res->gpus_headroom) < want;
		    i++) {
			lay = &res->gpus[order[i]];
			if (lay->used || lay->headroom)
				continue;
			lay->headroom = 1;
			res->gpus_headroom++;
		}
		(void)idle;
	}
	if (res->gpus_used + res->gpus_headroom > 0)
		res->utilization = res->load /
		    (double)(res->gpus_used + res->gpus_headroom);
	free(gws);
	free(rank);
	free(order);
}

/* ------------------------------------------------------------------ */
/* Infeasible demand: which constraint binds, in words. */

static void
add_reason(struct plan_result *res, const char *constraint,
    const char *fmt, ...)
{
	char	buf[1024];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	res->reasons = xreallocarray(res->reasons, res->nreasons + 1,
	    sizeof(*res->reasons));
	res->reasons[res->nreasons].text = xstrdup(buf);
	res->reasons[res->nreasons].constraint = xstrdup(constraint);
	res->nreasons++;
}

/* What a workload needs, in words: "3g.40gb", "a whole GPU". */
static void
need_text(const struct plan *pl, const struct wl *w, char *buf,
    size_t len)
{
	const struct plan_inventory	*inv = pl->inv;
	const struct plan_profile	*pr;
	const char			*shown[16], *name;
	size_t				 gi, k;
	int				 n = 0;

	buf[0] = '\0';
	for (gi = 0; gi < inv->ngeometries; gi++) {
		if (w->profile[gi] < 0)
			continue;
		pr = &inv->geometries[gi]->profiles[w->profile[gi]];
		name = pr->whole ? "whole GPU" : pr->name;
		for (k = 0; k < (size_t)n; k++)
			if (strcmp(shown[k], name) == 0)
				break;
		if (k < (size_t)n || n == 16)
			continue;
		shown[n] = name;
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
		    n++ > 0 ? " or " : "", name);
	}
	if (n == 0) {
		if (w->w->profile != NULL)
			snprintf(buf, len, "%s", w->w->profile);
		else if (w->w->whole)
			snprintf(buf, len, "whole GPU");
		else if (w->w->need_sm > 0 && w->w->need_memory_mib > 0)
			snprintf(buf, len, "device of at least %lld MiB and %d "
			    "SMs", (long long)w->w->need_memory_mib,
			    w->w->need_sm);
		else if (w->w->need_sm > 0)
			snprintf(buf, len, "device of at least %d SMs",
			    w->w->need_sm);
		else
			snprintf(buf, len, "device of at least %lld MiB",
			    (long long)w->w->need_memory_mib);
	}
}

/* Most devices of w's profiles the fleet could make, alone. */
static int64_t
fleet_max(const struct plan *pl, const struct wl *w)
{
	const struct cls	*c;
	size_t			 ci, q;
	int64_t			 total = 0, best;
	int			 p;

	for (ci = 0; ci < pl->ncls; ci++) {
		c = &pl->cls[ci];
		p = w->profile[c->geometry];
		if (p < 0)
			continue;
		best = 0;
		for (q = 0; q < c->npat; q++)
			if (c->pat[q].count[p] > best)
				best = c->pat[q].count[p];
		for (q = 0; q < c->nrpat; q++)
			if (c->rpat[q].count[p] - c->pincount[p] > best)
				best = c->rpat[q].count[p] - c->pincount[p];
		total += best * (int64_t)c->ngpus *
		    w->per_device[c->geometry];
	}
	return (total);
}

static void
explain(struct plan *pl, struct glpk_ctx *ctx, struct dra_err *err)
{
	const struct plan_demand	*d = pl->d;
	struct plan_result		*res = pl->res;
	int				*slack, st, ret;
	size_t				 wi, t, nslack;
	double				 v, obj;
	struct wl			*w;
	char				 need[256];
	int64_t				 most, got, maxmem;
	size_t				 gi;

	nslack = pl->nwl + 2 * d->nteams + 1;
	slack = xcalloc(nslack, sizeof(int));
	glp_delete_prob(pl->lp);
	build_model(pl, 1, slack);
	glp_set_obj_dir(pl->lp, GLP_MIN);
	/*
	 * Every slack is priced in GPUs' worth, so the cheapest
	 * relaxation is the constraint that binds: a replica short costs
	 * its device's compute share (the smallest over the models that
	 * serve it) divided among the replicas a device serves, a cap or
	 * the ceiling what it is short by.  Replicas cost 1% more, so a
	 * cap or the ceiling that binds as much is named rather than the
	 * fleet.
	 */
	maxmem = 0;
	for (gi = 0; gi < pl->inv->ngeometries; gi++)
		if (pl->inv->geometries[gi]->memory_mib > maxmem)
			maxmem = pl->inv->geometries[gi]->memory_mib;
	if (maxmem <= 0)
		maxmem = 81920;
	for (wi = 0; wi < nslack; wi++) {
		if (slack[wi] == 0)
			continue;
		if (wi < pl->nwl) {
			w = &pl->wl[wi];
			obj = 1;
			for (gi = 0; gi < pl->inv->ngeometries; gi++) {
				double share;

				if (w->profile[gi] < 0)
					continue;
				share = compute_share(pl->inv->geometries[gi],
				    w->profile[gi]) / (double)w->per_device[gi];
				if (share < obj)
					obj = share;
			}
			obj *= 1.01;
		} else if (wi == nslack - 1)
			obj = 1;			/* per GPU */
		else if ((wi - pl->nwl) % 2 == 0)
			obj = 1.0 / 1000;		/* per milli-GPU */
		else
			obj = 1.0 / (double)maxmem;	/* per MiB */
		glp_set_obj_coef(pl->lp, slack[wi], obj);
	}
	progress(pl->opts, "plan: the minimums cannot all be met; finding "
	    "the constraint that binds");
	run_glpk(pl, ctx, &st, &ret, err);
	if (st == GLP_OPT || st == GLP_FEAS)
		save_solution(pl);
	if (st != GLP_OPT && st != GLP_FEAS) {
		add_reason(res, "min", "the minimums cannot be met, and the "
		    "solver found no smallest relaxation within the time "
		    "limit");
		free(slack);
		return;
	}
	for (wi = 0; wi < pl->nwl; wi++) {
		v = col_val(pl, slack[wi]);
		if (v < 0.5)
			continue;
		w = &pl->wl[wi];
		need_text(pl, w, need, sizeof(need));
		most = fleet_max(pl, w);
		got = w->w->min - (int64_t)ceil(v - 1e-6);
		if (most < w->w->min)
			add_reason(res, "min", "%s/%s needs %lld x %s; the "
			    "fleet holds at most %lld", d->teams[w->team].
			    namespace, w->w->name, (long long)w->w->min, need,
			    (long long)most);
		else
			add_reason(res, "min", "%s/%s needs %lld x %s; beside "
			    "the other teams' minimums at most %lld fit",
			    d->teams[w->team].namespace, w->w->name,
			    (long long)w->w->min, need, (long long)got);
	}
	for (t = 0; t < d->nteams; t++) {
		if (slack[pl->nwl + 2 * t] != 0 &&
		    (v = col_val(pl, slack[pl->nwl + 2 * t])) >
		    0.5)
			add_reason(res, "cap-gpus", "%s's minimums need %.2f "
			    "GPUs; its cap is %.2f GPUs", d->teams[t].namespace,
			    ((double)d->teams[t].cap_gpu_milli + v) / 1000.0,
			    (double)d->teams[t].cap_gpu_milli / 1000.0);
		if (slack[pl->nwl + 2 * t + 1] != 0 &&
		    (v = col_val(pl,
		    slack[pl->nwl + 2 * t + 1])) > 0.5)
			add_reason(res, "cap-memory", "%s's minimums need "
			    "%.0f GiB of GPU memory; its cap is %.0f GiB",
			    d->teams[t].namespace,
			    ((double)d->teams[t].cap_memory_mib + v) / 1024.0,
			    (double)d->teams[t].cap_memory_mib / 1024.0);
	}
	if (slack[nslack - 1] != 0 &&
	    (v = col_val(pl, slack[nslack - 1])) > 1e-6)
		add_reason(res, "ceiling", "the minimums need %.2f GPUs of "
		    "compute; the %.0f%% ceiling allows %.2f of the fleet's "
		    "%.0f", d->policy.ceiling * pl->fleet_compute -
		    pl->running_load + v + pl->running_load,
		    d->policy.ceiling * 100,
		    d->policy.ceiling * pl->fleet_compute, pl->fleet_compute);
	if (res->nreasons == 0)
		add_reason(res, "min", "the minimums cannot be met together");
	free(slack);
}

/* ------------------------------------------------------------------ */

/* The levels' names, by kind (LEVEL_*). */
static const char *const level_names[] = { "served", "gpus",
    "reconfigured", "changed" };

static void
read_level(struct plan *pl, struct glpk_ctx *ctx, int level, int st,
    int ret, double t)
{
	struct plan_level	*lv = &pl->res->levels[level];
	int			 kind = pl->kinds[level];
	int			 maximize = (kind == LEVEL_SERVED);

	lv->name = level_names[kind];
	/* GPUs holding running claims are in use whatever they take. */
	lv->value = glp_mip_obj_val(pl->lp) + (kind == LEVEL_GPUS ?
	    (double)pl->pinned_gpus : 0);
	lv->seconds = plan_seconds() - t;
	lv->proven = (st == GLP_OPT && ret == 0);
	if (lv->proven) {
		lv->bound = lv->value;
		lv->gap = 0;
	} else {
		lv->bound = ctx->have_bound ? ctx->bound + (kind == LEVEL_GPUS ?
		    (double)pl->pinned_gpus : 0) : lv->value;
		if (maximize)
			lv->bound = floor(lv->bound + 1e-6);
		else
			lv->bound = ceil(lv->bound - 1e-6);
		lv->gap = fabs(lv->value - lv->bound) /
		    (fabs(lv->value) > 1e-9 ? fabs(lv->value) : 1.0);
		if (lv->gap < 1e-9) {
			/* The bound closes it: proven after all. */
			lv->proven = 1;
			lv->gap = 0;
		}
	}
	pl->res->nlevels = (size_t)level + 1;
}

/*
 * A level after the first that found no solution in time: the plan
 * keeps the previous level's solution, and the level records what that
 * solution scores on its objective, against the best bound GLPK had
 * (none: 0), so the gap says how far it may be.
 */
static void
unsolved_level(struct plan *pl, struct glpk_ctx *ctx, int level, double t)
{
	struct plan_level	*lv = &pl->res->levels[level];
	double			 v = 0, konst;
	int			 j;

	konst = pl->kinds[level] == LEVEL_GPUS ? (double)pl->pinned_gpus : 0;
	for (j = 1; j <= pl->ncols; j++)
		v += glp_get_obj_coef(pl->lp, j) * col_val(pl, j);
	lv->name = level_names[pl->kinds[level]];
	lv->value = v + konst;
	lv->bound = ctx->have_bound ? ceil(ctx->bound + konst - 1e-6) :
	    konst;
	if (lv->bound > lv->value)
		lv->bound = lv->value;
	lv->gap = (lv->value - lv->bound) / (fabs(lv->value) > 1e-9 ?
	    fabs(lv->value) : 1.0);
	lv->proven = lv->gap < 1e-9;
	lv->seconds = plan_seconds() - t;
	pl->res->nlevels = (size_t)level + 1;
	if (lv->gap > pl->res->gap)
		pl->res->gap = lv->gap;
	pl->res->status = PLAN_FEASIBLE;
}

static void
read_solution(struct plan *pl)
{
	struct plan_result		*res = pl->res;
	const struct plan_inventory	*inv = pl->inv;
	struct cls			*c;
	struct wl			*w;
	size_t				 ci, q, wi, gi, j;
	int64_t				 dev;
	const struct plan_gpu		*gp;
	const struct plan_geometry	*g;

	for (ci = 0; ci < pl->ncls; ci++) {
		c = &pl->cls[ci];
		c->sol = xcalloc(c->npat + 1, sizeof(int64_t));
		c->rsol = xcalloc(c->nrpat + 1, sizeof(int64_t));
		for (q = 0; q < c->npat; q++)
			c->sol[q] = (int64_t)llround(col_val(pl,
			    c->col + (int)q));
		for (q = 0; q < c->nrpat; q++)
			c->rsol[q] = (int64_t)llround(col_val(pl,
			    c->rcol + (int)q));
	}
	res->load = pl->running_load;
	for (wi = 0; wi < pl->nwl; wi++) {
		w = &pl->wl[wi];
		res->served[w->team][w->index] = (int64_t)llround(
		    col_val(pl, w->rcol));
		for (gi = 0; gi < inv->ngeometries; gi++) {
			if (w->xcolg[gi] == 0)
				continue;
			dev = (int64_t)llround(col_val(pl,
			    w->xcolg[gi]));
			if (dev == 0)
				continue;
			res->devices[w->team][w->index] += dev;
			res->load += (double)dev * compute_share(
			    inv->geometries[gi], w->profile[gi]);
			res->grants = xreallocarray(res->grants,
			    res->ngrants + 1, sizeof(*res->grants));
			res->grants[res->ngrants].team = w->team;
			res->grants[res->ngrants].workload = w->index;
			res->grants[res->ngrants].geometry = gi;
			res->grants[res->ngrants].profile = w->profile[gi];
			res->grants[res->ngrants].devices = dev;
			res->grants[res->ngrants].replicas = 0;
			res->ngrants++;
		}
	}
	/* Replicas per grant: in geometry order, each device serves
	   per_device until the served count is reached. */
	for (wi = 0; wi < pl->nwl; wi++) {
		int64_t left;

		w = &pl->wl[wi];
		left = res->served[w->team][w->index];
		for (j = 0; j < res->ngrants; j++) {
			struct plan_grant *gr = &res->grants[j];
			int64_t cap;

			if (gr->team != w->team || gr->workload != w->index)
				continue;
			cap = gr->devices * w->per_device[gr->geometry];
			gr->replicas = left < cap ? left : cap;
			left -= gr->replicas;
		}
	}
	(void)gp;
	(void)g;
}

int
plan_solve(const struct plan_inventory *inv, const struct plan_demand *d,
    const struct plan_solve_opts *opts, struct plan_result **out,
    struct dra_err *err)
{
	struct plan		 pl;
	struct plan_result	*res;
	struct glpk_ctx		 ctx;
	struct wl		*w;
	size_t			 t, i, gi, wi, maxp = 1;
	volatile int		 rc = KUBE_OK;
	int			 st, ret, level, nlevels, per;
	int			*dynamic_geo = NULL;
	double			 tl;

	*out = NULL;
	memset(&pl, 0, sizeof(pl));
	pl.inv = inv;
	pl.d = d;
	pl.opts = opts;
	pl.t0 = plan_seconds();
	pl.time_limit = (opts != NULL && opts->time_limit > 0) ?
	    opts->time_limit : d->policy.time_limit;
	if (pl.time_limit <= 0)
		pl.time_limit = 60;
	pl.gap = (opts != NULL && opts->mip_gap >= 0) ? opts->mip_gap :
	    d->policy.mip_gap;
	if (pl.gap < 0)
		pl.gap = 0;

	res = xcalloc(1, sizeof(*res));
	pl.res = res;
	res->served = xcalloc(d->nteams + 1, sizeof(int64_t *));
	res->devices = xcalloc(d->nteams + 1, sizeof(int64_t *));
	for (t = 0; t < d->nteams; t++) {
		res->served[t] = xcalloc(d->teams[t].nworkloads + 1,
		    sizeof(int64_t));
		res->devices[t] = xcalloc(d->teams[t].nworkloads + 1,
		    sizeof(int64_t));
		pl.nwl += d->teams[t].nworkloads;
	}
	res->gpus = NULL;

	/* Workloads and the profile each takes per geometry. */
	pl.wl = xcalloc(pl.nwl + 1, sizeof(*pl.wl));
	pl.ngeo_gpus = xcalloc(inv->ngeometries + 1, sizeof(size_t));
	for (i = 0; i < inv->ngpus; i++)
		pl.ngeo_gpus[inv->gpus[i].geometry]++;
	for (gi = 0; gi < inv->ngeometries; gi++)
		if (inv->geometries[gi]->nprofiles > maxp)
			maxp = inv->geometries[gi]->nprofiles;
	pl.maxp = maxp;
	pl.supply_row = xcalloc(inv->ngeometries * maxp + 1, sizeof(int));
	dynamic_geo = xcalloc(inv->ngeometries + 1, sizeof(int));
	for (i = 0; i < inv->ngpus; i++)
		if (inv->gpus[i].mode == PLAN_MODE_DYNAMIC)
			dynamic_geo[inv->gpus[i].geometry] = 1;
	wi = 0;
	for (t = 0; t < d->nteams; t++)
		for (i = 0; i < d->teams[t].nworkloads; i++, wi++) {
			w = &pl.wl[wi];
			w->team = t;
			w->index = i;
			w->w = &d->teams[t].workloads[i];
			w->profile = xcalloc(inv->ngeometries + 1,
			    sizeof(int));
			w->per_device = xcalloc(inv->ngeometries + 1,
			    sizeof(int));
			w->xcolg = xcalloc(inv->ngeometries + 1, sizeof(int));
			for (gi = 0; gi < inv->ngeometries; gi++) {
				per = 1;
				w->profile[gi] = plan_profile_for(
				    inv->geometries[gi], w->w, &per);
				if (pl.ngeo_gpus[gi] == 0 || per <= 0)
					w->profile[gi] = -1;
				/* NVIDIA's driver cannot run MPS with
				   DynamicMIG (NVIDIA-MIG.md 1.6, 5). */
				if (w->w->share == PLAN_SHARE_MPS &&
				    dynamic_geo[gi])
					w->profile[gi] = -1;
				w->per_device[gi] = per > 0 ? per : 1;
			}
		}

	for (i = 0; i < inv->ngpus; i++) {
		const struct plan_gpu		*gp = &inv->gpus[i];
		const struct plan_geometry	*g = inv->geometries[gp->geometry];
		size_t				 j;

		pl.fleet_compute += 1.0;
		if (gp->nrunning > 0)
			pl.pinned_gpus++;
		for (j = 0; j < gp->nrunning; j++)
			pl.running_load += compute_share(g,
			    g->placements[gp->running[j].placement].profile);
	}

	if ((rc = build_classes(&pl, err)) != KUBE_OK)
		goto out;
	for (i = 0; i < pl.ncls; i++)
		res->npatterns += pl.cls[i].npat + pl.cls[i].nrpat;
	res->nclasses = pl.ncls;
	progress(opts, "plan: %zu GPUs in %zu classes, %zu patterns, "
	    "%zu workloads", inv->ngpus, pl.ncls, res->npatterns, pl.nwl);

	/* A minimum no GPU model can serve needs no solver. */
	for (wi = 0; wi < pl.nwl; wi++) {
		char	 need[256];
		int	 any = 0;

		w = &pl.wl[wi];
		for (gi = 0; gi < inv->ngeometries; gi++)
			if (w->profile[gi] >= 0)
				any = 1;
		if (any || w->w->min == 0)
			continue;
		need_text(&pl, w, need, sizeof(need));
		if (w->w->model != NULL)
			add_reason(res, "no-profile", "%s/%s needs %lld x %s "
			    "on %s; no GPU of the fleet is that model with "
			    "that profile", d->teams[w->team].namespace,
			    w->w->name, (long long)w->w->min, need,
			    w->w->model);
		else
			add_reason(res, "no-profile", "%s/%s needs %lld x %s; "
			    "no GPU of the fleet offers it",
			    d->teams[w->team].namespace, w->w->name,
			    (long long)w->w->min, need);
	}
	if (res->nreasons > 0) {
		res->status = PLAN_INFEASIBLE;
		goto out;
	}

	memset(&ctx, 0, sizeof(ctx));
	ctx.opts = opts;
	glp_term_hook(glpk_term, &ctx);
	glp_error_hook(glpk_error, &ctx);
	if (setjmp(ctx.jb) != 0) {
		rc = dra_err_set(err, KUBE_E_CONFIG, "GLPK failed: %s",
		    ctx.last[0] != '\0' ? ctx.last : "internal error");
		pl.lp = NULL;
		glp_free_env();
		goto out;
	}

	build_model(&pl, 0, NULL);
	res->ncols = (size_t)glp_get_num_cols(pl.lp);
	res->nrows = (size_t)glp_get_num_rows(pl.lp);
	nlevels = 0;
	pl.kinds[nlevels++] = LEVEL_SERVED;
	pl.kinds[nlevels++] = LEVEL_GPUS;
	if (pl.rebuild)
		pl.kinds[nlevels++] = LEVEL_RECONFIGURED;
	for (i = 0; i < pl.ncls; i++)
		if (pl.cls[i].mode != PLAN_MODE_DYNAMIC &&
		    !pl.cls[i].tainted && !pl.cls[i].keep_existing) {
			pl.kinds[nlevels++] = LEVEL_CHANGED;
			break;
		}
	res->status = PLAN_OPTIMAL;
	for (level = 0; level < nlevels; level++) {
		tl = plan_seconds();
		set_objective(&pl, level);
		progress(opts, "plan: level %d of %d (%s)", level + 1,
		    nlevels, pl.kinds[level] == LEVEL_SERVED ? "serve the most "
		    "priority-weighted demand" : pl.kinds[level] ==
		    LEVEL_GPUS ? "use the fewest GPUs" : pl.kinds[level] ==
		    LEVEL_RECONFIGURED ? "cut the fewest GPUs that hold work" :
		    "reconfigure the fewest GPUs by mig-parted");
		run_glpk(&pl, &ctx, &st, &ret, err);
		if (st != GLP_OPT && st != GLP_FEAS) {
			if (level == 0 && (st == GLP_NOFEAS ||
			    ret == GLP_ENOPFS)) {
				res->status = PLAN_INFEASIBLE;
				explain(&pl, &ctx, err);
			} else if (level == 0)
				res->status = PLAN_NO_SOLUTION;
			else
				unsolved_level(&pl, &ctx, level, tl);
			break;
		}
		read_level(&pl, &ctx, level, st, ret, tl);
		save_solution(&pl);
		if (!res->levels[level].proven)
			res->status = PLAN_FEASIBLE;
		if (res->levels[level].gap > res->gap)
			res->gap = res->levels[level].gap;
		if (level + 1 < nlevels)
			fix_objective(&pl, pl.kinds[level] == LEVEL_SERVED,
			    res->levels[level].value - (pl.kinds[level] ==
			    LEVEL_GPUS ? (double)pl.pinned_gpus : 0));
	}
	if (res->status == PLAN_OPTIMAL || res->status == PLAN_FEASIBLE) {
		/* A later level not reached for lack of time leaves the
		   previous level's solution, not proven for it. */
		if (res->nlevels < (size_t)nlevels) {
			res->status = PLAN_FEASIBLE;
			res->gap = res->gap > 0 ? res->gap : 1;
		}
		read_solution(&pl);
		make_layouts(&pl);
	}
	if (pl.lp != NULL)
		glp_delete_prob(pl.lp);
	pl.lp = NULL;
	glp_term_hook(NULL, NULL);
	glp_error_hook(NULL, NULL);
	glp_free_env();

out:
	res->seconds = plan_seconds() - pl.t0;
	free_classes(&pl);
	for (wi = 0; wi < pl.nwl; wi++) {
		free(pl.wl[wi].profile);
		free(pl.wl[wi].per_device);
		free(pl.wl[wi].xcolg);
	}
	free(pl.wl);
	free(pl.xsol);
	free(pl.ngeo_gpus);
	free(pl.supply_row);
	free(dynamic_geo);
	if (rc != KUBE_OK) {
		plan_result_free(res);
		return (rc);
	}
	*out = res;
	return (KUBE_OK);
}

void
plan_result_free(struct plan_result *r)
{
	size_t	i;

	if (r == NULL)
		return;
	if (r->served != NULL)
		for (i = 0; r->served[i] != NULL; i++) {
			free(r->served[i]);
			free(r->devices[i]);
		}
	free(r->served);
	free(r->devices);
	free(r->grants);
	for (i = 0; i < r->ngpus; i++)
		free(r->gpus[i].slots);
	free(r->gpus);
	for (i = 0; i < r->nreasons; i++) {
		free(r->reasons[i].text);
		free(r->reasons[i].constraint);
	}
	free(r->reasons);
	free(r);
}
