/*
 * view_devices.c: the devices and pools tables, the plugin's own
 * kinds: one row per device of each pool's newest generation, one row
 * per (driver, pool), with the joined allocation, counter and taint
 * state kube_snapshot_finish() computed.
 */
#include "views.h"
#include "views-int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "xmalloc.h"

static int
slice_labels_ok(const struct dra_filter *f, const struct kube_slice *sl)
{
	return view_labels_ok(f, sl != NULL ? &sl->meta : NULL);
}

static void
device_claims(struct dra_buf *b, const struct kube_device *d)
{
	const struct kube_claim	*c;
	size_t			 i, j;
	int			 dup;

	for (i = 0; i < d->nallocs; i++) {
		c = d->allocs[i].claim;
		dup = 0;
		for (j = 0; j < i; j++) {
			if (d->allocs[j].claim == c)
				dup = 1;
		}
		if (dup)
			continue;
		if (b->len > 0)
			dra_buf_adds(b, ",");
		dra_buf_addf(b, "%s/%s", c->meta.namespace != NULL ?
		    c->meta.namespace : "", c->meta.name);
	}
}

/* Counters a device consumes: "set(memory=10Gi,+3)" per set. */
static void
device_counters(struct dra_buf *b, const struct kube_device *d)
{
	const struct kube_device_counters	*dc;
	const struct kube_counter		*key;
	char					 q[64];
	size_t					 i, j;

	for (i = 0; i < d->nconsumes; i++) {
		dc = &d->consumes[i];
		if (i > 0)
			dra_buf_adds(b, ";");
		key = dc->ncounters > 0 ? &dc->counters[0] : NULL;
		for (j = 0; j < dc->ncounters; j++) {
			if (strcmp(dc->counters[j].name, "memory") == 0)
				key = &dc->counters[j];
		}
		dra_buf_addf(b, "%s(", dc->counter_set);
		if (key != NULL)
			dra_buf_addf(b, "%s=%s", key->name,
			    view_qty_text(&key->value, q, sizeof q));
		if (dc->ncounters > 1)
			dra_buf_addf(b, ",+%zu", dc->ncounters - 1);
		dra_buf_adds(b, ")");
	}
}

static void
device_taints(struct dra_buf *b, const struct kube_device *d)
{
	const struct kube_taint	*tt;
	size_t			 i;

	for (i = 0; i < d->ntaints; i++) {
		tt = &d->taints[i];
		if (i > 0)
			dra_buf_adds(b, ",");
		dra_buf_adds(b, tt->key != NULL ? tt->key : "");
		if (tt->value != NULL && *tt->value != '\0')
			dra_buf_addf(b, "=%s", tt->value);
		dra_buf_addf(b, ":%s", tt->effect_text != NULL ?
		    tt->effect_text : "None");
	}
}

static const char *
attr_or(const struct kube_device *d, const char *id, char *buf, size_t len)
{
	const struct kube_attr	*a;

	a = dra_device_attr_any(d, id);
	return a != NULL ? dra_attr_text(a, buf, len) : NULL;
}

struct dra_table *
dra_view_devices(const struct kube_snapshot *s, const struct dra_filter *f,
    int wide)
{
	struct dra_table		 *t;
	struct view_rowb		  rb;
	struct kube_device		**v, *d;
	const struct kube_capacity	 *c;
	const char			 *type;
	struct dra_buf			  b;
	char				  tmp[256], full[1024];
	size_t				  i, n;

	t = view_table_new(DRA_KIND_DEVICE);
	view_col(t, "NODE", 0);
	view_col(t, "DRIVER", 0);
	view_col(t, "POOL", 0);
	view_col(t, "DEVICE", 0);
	view_col(t, "TYPE", 0);
	view_col(t, "CAPACITY", DRA_COL_RIGHT);
	view_col(t, "STATE", 0);
	view_col(t, "CLAIM", 0);
	if (wide) {
		view_col(t, "COUNTERS", DRA_COL_WIDE);
		view_col(t, "UUID", DRA_COL_WIDE);
		view_col(t, "PCI-BUS-ID", DRA_COL_WIDE);
		view_col(t, "TAINTS", DRA_COL_WIDE);
	}
	dra_buf_init(&b, DRA_BUF_MAX_PAGE);
	v = view_all_devices(s, &n);
	for (i = 0; i < n; i++) {
		d = v[i];
		if (!slice_labels_ok(f, d->slice))
			continue;
		if (f != NULL && f->nnames > 0) {
			snprintf(full, sizeof full, "%s/%s/%s",
			    d->slice->driver, d->slice->pool_name, d->name);
			if (!view_name_ok(f, full, d->name))
				continue;
		}
		view_row(t, &rb, d);
		view_cell(&rb, kube_device_node(d));
		view_cell(&rb, d->slice->driver);
		view_cell(&rb, d->slice->pool_name);
		view_cell(&rb, d->name);
		type = attr_or(d, "profile", tmp, sizeof tmp);
		if (type == NULL)
			type = attr_or(d, "type", tmp, sizeof tmp);
		view_cell(&rb, type);
		c = view_key_capacity(d);
		view_cell(&rb, c != NULL ? view_qty_text(&c->value, tmp,
		    sizeof tmp) : NULL);
		view_cell(&rb, dra_device_state(d, tmp, sizeof tmp));
		dra_buf_reset(&b);
		device_claims(&b, d);
		view_cell(&rb, dra_buf_str(&b));
		if (!wide)
			continue;
		dra_buf_reset(&b);
		device_counters(&b, d);
		view_cell(&rb, dra_buf_str(&b));
		view_cell(&rb, attr_or(d, "uuid", tmp, sizeof tmp));
		view_cell(&rb, attr_or(d, "pciBusID", tmp, sizeof tmp));
		dra_buf_reset(&b);
		device_taints(&b, d);
		view_cell(&rb, dra_buf_str(&b));
	}
	free(v);
	dra_buf_release(&b);
	return t;
}

/* Per-pool counter totals: every counter name summed over the sets. */
struct pool_counter {
	const char	*name;
	int64_t		 used;
	int64_t		 total;
};

static void
pool_counters(struct dra_buf *b, const struct kube_pool *p, int all)
{
	struct pool_counter		*pc = NULL;
	const struct kube_counter_set	*cs;
	const struct kube_slice		*sl;
	char				 q1[64], q2[64];
	size_t				 i, j, k, m, npc = 0;

	for (i = 0; i < p->nslices; i++) {
		sl = p->slices[i];
		for (j = 0; j < sl->ncounter_sets; j++) {
			cs = &sl->counter_sets[j];
			for (k = 0; k < cs->ncounters; k++) {
				for (m = 0; m < npc; m++) {
					if (strcmp(pc[m].name,
					    cs->counters[k].name) == 0)
						break;
				}
				if (m == npc) {
					pc = xreallocarray(pc, npc + 1,
					    sizeof *pc);
					pc[npc].name = cs->counters[k].name;
					pc[npc].used = 0;
					pc[npc].total = 0;
					npc++;
				}
				pc[m].total += cs->counters[k].value.milli;
				if (cs->consumed != NULL)
					pc[m].used += cs->consumed[k];
			}
		}
	}
	/* Narrow: the memory counter (else the first) and how many more. */
	k = 0;
	for (m = 0; m < npc; m++) {
		if (strcmp(pc[m].name, "memory") == 0)
			k = m;
	}
	for (m = 0; m < npc; m++) {
		if (!all && m != k)
			continue;
		if (b->len > 0)
			dra_buf_adds(b, ", ");
		dra_buf_addf(b, "%s %s/%s", pc[m].name,
		    view_qty(pc[m].used, q1, sizeof q1),
		    view_qty(pc[m].total, q2, sizeof q2));
	}
	if (!all && npc > 1)
		dra_buf_addf(b, " (+%zu)", npc - 1);
	free(pc);
}

/* Whether a device can take one more allocation. */
static int
device_available(const struct kube_device *d)
{
	const struct kube_capacity	*c;

	if (d->state & (KUBE_DEV_BLOCKED | KUBE_DEV_TAINTED |
	    KUBE_DEV_UNUSABLE))
		return 0;
	if (!(d->state & KUBE_DEV_ALLOCATED))
		return 1;
	if (!(d->state & KUBE_DEV_SHARED))
		return 0;
	c = view_key_capacity(d);
	if (c == NULL || d->capacity_used == NULL)
		return 1;
	return d->capacity_used[c - d->capacity] < c->value.milli;
}

void
view_pool_counts(const struct kube_pool *p, struct view_pool_counts *out)
{
	const struct kube_device	*d;
	size_t				 j, k;

	memset(out, 0, sizeof *out);
	for (j = 0; j < p->nslices; j++) {
		for (k = 0; k < p->slices[j]->ndevices; k++) {
			d = &p->slices[j]->devices[k];
			out->devices++;
			if (d->state & KUBE_DEV_ALLOCATED)
				out->allocated++;
			if (d->state & KUBE_DEV_BLOCKED)
				out->blocked++;
			if (d->state & KUBE_DEV_TAINTED)
				out->tainted++;
			if (device_available(d))
				out->available++;
		}
	}
}

static const char *
pool_node(const struct kube_pool *p)
{
	const struct kube_slice	*sl;

	if (p->node_name != NULL)
		return p->node_name;
	if (p->nslices == 0)
		return "-";
	sl = p->slices[0];
	if (sl->all_nodes)
		return "<all>";
	if (sl->node_selector != NULL)
		return "<selector>";
	if (sl->per_device_node_selection)
		return "<per-device>";
	return "-";
}

struct dra_table *
dra_view_pools(const struct kube_snapshot *s, const struct dra_filter *f,
    int wide)
{
	struct dra_table	*t;
	struct view_rowb	 rb;
	const struct kube_pool	*p;
	struct view_pool_counts	 pc;
	struct dra_buf		 b;
	char			 full[1024];
	size_t			 i, j, ndev, nalloc, navail, nblk, ntnt;
	int			 ok;

	t = view_table_new(DRA_KIND_POOL);
	view_col(t, "DRIVER", 0);
	view_col(t, "POOL", 0);
	view_col(t, "NODE", 0);
	view_col(t, "GENERATION", DRA_COL_RIGHT);
	view_col(t, "SLICES", 0);
	view_col(t, "COMPLETE", 0);
	view_col(t, "DEVICES", DRA_COL_RIGHT);
	view_col(t, "ALLOCATED", DRA_COL_RIGHT);
	view_col(t, "AVAILABLE", DRA_COL_RIGHT);
	view_col(t, "COUNTERS", 0);
	if (wide) {
		view_col(t, "STALE-SLICES", DRA_COL_WIDE | DRA_COL_RIGHT);
		view_col(t, "BLOCKED", DRA_COL_WIDE | DRA_COL_RIGHT);
		view_col(t, "TAINTED", DRA_COL_WIDE | DRA_COL_RIGHT);
	}
	dra_buf_init(&b, DRA_BUF_MAX_PAGE);
	for (i = 0; i < s->pools.n; i++) {
		p = s->pools.v[i];
		if (f != NULL && f->selector != NULL) {
			ok = 0;
			for (j = 0; j < p->nslices && !ok; j++)
				ok = slice_labels_ok(f, p->slices[j]);
			if (!ok)
				continue;
		}
		if (f != NULL && f->nnames > 0) {
			snprintf(full, sizeof full, "%s/%s", p->driver,
			    p->name);
			if (!view_name_ok(f, full, p->name))
				continue;
		}
		view_pool_counts(p, &pc);
		ndev = pc.devices;
		nalloc = pc.allocated;
		navail = pc.available;
		nblk = pc.blocked;
		ntnt = pc.tainted;
		view_row(t, &rb, p);
		view_cell(&rb, p->driver);
		view_cell(&rb, p->name);
		view_cell(&rb, pool_node(p));
		view_cellf(&rb, "%" PRId64, p->generation);
		view_cellf(&rb, "%zu/%" PRId64, p->nslices, p->slice_count);
		if (p->invalid != NULL)
			view_cellf(&rb, "invalid: %s", p->invalid);
		else
			view_cell(&rb, p->complete ? "yes" : "no");
		view_cellf(&rb, "%zu", ndev);
		view_cellf(&rb, "%zu", nalloc);
		view_cellf(&rb, "%zu", navail);
		dra_buf_reset(&b);
		pool_counters(&b, p, wide);
		view_cell(&rb, dra_buf_str(&b));
		if (!wide)
			continue;
		view_cellf(&rb, "%zu", p->nstale);
		view_cellf(&rb, "%zu", nblk);
		view_cellf(&rb, "%zu", ntnt);
	}
	dra_buf_release(&b);
	return t;
}
