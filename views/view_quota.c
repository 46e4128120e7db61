/*
 * view_quota.c: the quotas table: one row per ResourceQuota and DRA
 * quota key, with what is used of what is allowed.
 *
 * Which keys are DRA's follows Kubernetes' ResourceQuota evaluator
 * for ResourceClaims, 1.34 to 1.37 (DRA-REFERENCE.md section 5): any
 * key naming the resource.k8s.io group (count/resourceclaims and
 * count/resourceclaimtemplates.resource.k8s.io,
 * <class>.deviceclass.resource.k8s.io/devices), the implicit extended
 * resource of a class (requests.deviceclass.resource.kubernetes.io/
 * <class>, DRAExtendedResource), and requests.<name> when a
 * DeviceClass of the snapshot maps the extended resource <name>
 * (requests.nvidia.com/gpu).  Other keys (cpu, pods, ...) are left out
 * of the table, -o wide too: the rows are the DRA keys, whatever the
 * columns; `describe quota` shows every key, DRA keys first.
 */
#include "views.h"
#include "views-int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

#define EXT_PREFIX	"requests.deviceclass.resource.kubernetes.io/"

static int	cmp_key(const void *, const void *);

int
dra_quota_key_dra(const struct kube_snapshot *s, const char *key)
{
	const char	*ext;
	size_t		 i;

	if (key == NULL)
		return 0;
	if (strstr(key, "resource.k8s.io") != NULL)
		return 1;
	if (strncmp(key, EXT_PREFIX, strlen(EXT_PREFIX)) == 0)
		return key[strlen(EXT_PREFIX)] != '\0';
	if (strncmp(key, "requests.", 9) != 0 || key[9] == '\0' || s == NULL)
		return 0;
	for (i = 0; i < s->classes.n; i++) {
		ext = s->classes.v[i]->extended_resource_name;
		if (ext != NULL && strcmp(ext, key + 9) == 0)
			return 1;
	}
	return 0;
}

char *
dra_quota_use(const char *used, const char *hard, char *buf, size_t len)
{
	struct kube_quantity	u, h;

	if (len == 0)
		return buf;
	snprintf(buf, len, "-");
	if (hard == NULL || kube_quantity_parse(hard, &h, NULL) != KUBE_OK ||
	    h.milli <= 0)
		return buf;
	u.milli = 0;
	if (used != NULL && kube_quantity_parse(used, &u, NULL) != KUBE_OK)
		return buf;
	if (u.milli < 0)
		u.milli = 0;
	/* Rounded down: 99.6% of a quota is not 100%. */
	snprintf(buf, len, "%.0f%%", floor((double)u.milli * 100 /
	    (double)h.milli));
	return buf;
}

static int
cmp_key(const void *a, const void *b)
{
	return strcmp((*(const struct kube_kv *const *)a)->key,
	    (*(const struct kube_kv *const *)b)->key);
}

size_t
dra_quota_keys(const struct kube_snapshot *s, const struct kube_quota *q,
    int dra, const struct kube_kv **out)
{
	size_t	i, n = 0;

	for (i = 0; i < q->nhard; i++)
		if (q->hard[i].key != NULL &&
		    dra_quota_key_dra(s, q->hard[i].key) == dra)
			out[n++] = &q->hard[i];
	if (n > 1)
		qsort(out, n, sizeof *out, cmp_key);
	return n;
}

struct dra_table *
dra_view_quotas(const struct kube_snapshot *s, const struct dra_filter *f,
    int wide)
{
	struct dra_table	 *t;
	struct view_rowb	  rb;
	const struct kube_quota	 *q;
	const struct kube_kv	**keys;
	const char		 *used;
	char			  pct[32], age[32];
	void			**v;
	size_t			  i, k, n;
	int			  all = view_all_ns(f);

	t = view_table_new(DRA_KIND_QUOTA);
	if (all)
		view_col(t, "NAMESPACE", 0);
	view_col(t, "NAME", 0);
	view_col(t, "RESOURCE", 0);
	view_col(t, "USED", DRA_COL_RIGHT);
	view_col(t, "HARD", DRA_COL_RIGHT);
	view_col(t, "USE%", DRA_COL_RIGHT);
	if (wide)
		view_col(t, "AGE", DRA_COL_WIDE);
	v = view_sort_meta((void *const *)s->quotas.v, s->quotas.n);
	for (i = 0; i < s->quotas.n; i++) {
		q = v[i];
		if (!view_ns_ok(f, q->meta.namespace) ||
		    !view_labels_ok(f, &q->meta) ||
		    !view_name_ok(f, q->meta.name, NULL))
			continue;
		keys = xcalloc(q->nhard + 1, sizeof *keys);
		n = dra_quota_keys(s, q, 1, keys);
		/* Named but without DRA keys: one row saying so. */
		for (k = 0; k < n || (k == 0 && f != NULL && f->nnames > 0);
		    k++) {
			view_row(t, &rb, q);
			if (all)
				view_cell(&rb, q->meta.namespace);
			view_cell(&rb, q->meta.name);
			if (k < n) {
				used = kube_kv_get(q->used, q->nused,
				    keys[k]->key);
				view_cell(&rb, keys[k]->key);
				view_cell(&rb, used != NULL ? used : "0");
				view_cell(&rb, keys[k]->value);
				view_cell(&rb, dra_quota_use(used,
				    keys[k]->value, pct, sizeof pct));
			} else {
				view_cell(&rb, "<none>");
				view_cell(&rb, "-");
				view_cell(&rb, "-");
				view_cell(&rb, "-");
			}
			if (wide)
				view_cell(&rb, dra_format_age(s->now,
				    q->meta.created, age, sizeof age));
		}
		free(keys);
	}
	free(v);
	return t;
}
