/*
 * write.c: snapshot files and YAML output (kube_snapshot_write,
 * kube_yaml_write in snapshot.h).
 *
 * A snapshot is one v1 List, written item by item: each object is
 * encoded (encode.c), emitted and freed before the next, so memory
 * holds one item's tree however large the cluster.  YAML goes through
 * one libyaml emitter for the whole stream (block style, lists not
 * indented under their key, as kubectl prints); JSON is the items
 * printed unformatted, one per line.
 *
 * Objects the API server would reject (a v1 object in the v1beta1
 * shape, case 12) are written back in the shape they were read, so
 * that reading the snapshot flags them again and every view shows
 * the same thing as from the original file.
 */
#include "model.h"
#include "snapshot.h"

#include <errno.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>
#include <yaml.h>

struct ywriter {
	yaml_emitter_t	 em;
	struct dra_err	*err;
	int		 failed;
};

static int
y_emit(struct ywriter *w, yaml_event_t *ev)
{
	if (w->failed) {
		yaml_event_delete(ev);
		return 0;
	}
	if (!yaml_emitter_emit(&w->em, ev)) {
		w->failed = 1;
		if (w->em.error == YAML_WRITER_ERROR)
			dra_err_set(w->err, KUBE_E_IO, "cannot write: %s",
			    strerror(errno != 0 ? errno : EIO));
		else
			dra_err_set(w->err, KUBE_E_IO, "yaml emitter: %s",
			    w->em.problem != NULL ? w->em.problem : "error");
		return 0;
	}
	return 1;
}

static int
y_scalar(struct ywriter *w, const char *s, size_t len,
    yaml_scalar_style_t style)
{
	yaml_event_t	ev;
	int		plain = style == YAML_PLAIN_SCALAR_STYLE ||
			    style == YAML_ANY_SCALAR_STYLE;

	if (!yaml_scalar_event_initialize(&ev, NULL, NULL,
	    (yaml_char_t *)(uintptr_t)s, (int)len, plain, !plain, style))
		return dra_err_set(w->err, KUBE_E_IO, "out of memory"), 0;
	return y_emit(w, &ev);
}

/* Whether a plain scalar s would read back as something else. */
static int
needs_quotes(const char *s)
{
	static const char	*words[] = { "null", "~", "true", "false",
	    "yes", "no", "on", "off", "y", "n", ".inf", "-.inf", "+.inf",
	    ".nan", NULL };
	const char		*p = s;
	size_t			 i;

	if (*s == '\0')
		return 1;
	for (i = 0; words[i] != NULL; i++) {
		if (strcasecmp(s, words[i]) == 0)
			return 1;
	}
	if (*p == '-' || *p == '+')
		p++;
	if (*p == '.')
		p++;
	if (*p < '0' || *p > '9')
		return 0;
	/* Numbers, hex, octal, sexagesimal, dates: all digit-led. */
	return strspn(s, "0123456789abcdefABCDEFxXoO._:+- ") == strlen(s);
}

static int
y_string(struct ywriter *w, const char *s)
{
	yaml_scalar_style_t	style = YAML_ANY_SCALAR_STYLE;

	if (needs_quotes(s))
		style = YAML_DOUBLE_QUOTED_SCALAR_STYLE;
	else if (strchr(s, '\n') != NULL)
		style = YAML_LITERAL_SCALAR_STYLE;
	return y_scalar(w, s, strlen(s), style);
}

static int
y_number(struct ywriter *w, double d)
{
	char	buf[64];

	if (isnan(d) || isinf(d))
		snprintf(buf, sizeof buf, "null");
	else if (d == floor(d) && fabs(d) < 1e15)
		snprintf(buf, sizeof buf, "%.0f", d);
	else {
		snprintf(buf, sizeof buf, "%.15g", d);
		if (strtod(buf, NULL) != d)
			snprintf(buf, sizeof buf, "%.17g", d);
	}
	return y_scalar(w, buf, strlen(buf), YAML_PLAIN_SCALAR_STYLE);
}

static int
y_node(struct ywriter *w, const cJSON *v)
{
	yaml_event_t	 ev;
	const cJSON	*c;

	if (cJSON_IsObject(v)) {
		yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
		    v->child == NULL ? YAML_FLOW_MAPPING_STYLE :
		    YAML_BLOCK_MAPPING_STYLE);
		if (!y_emit(w, &ev))
			return 0;
		for (c = v->child; c != NULL; c = c->next) {
			if (!y_string(w, c->string != NULL ? c->string : "") ||
			    !y_node(w, c))
				return 0;
		}
		yaml_mapping_end_event_initialize(&ev);
		return y_emit(w, &ev);
	}
	if (cJSON_IsArray(v)) {
		yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
		    v->child == NULL ? YAML_FLOW_SEQUENCE_STYLE :
		    YAML_BLOCK_SEQUENCE_STYLE);
		if (!y_emit(w, &ev))
			return 0;
		for (c = v->child; c != NULL; c = c->next) {
			if (!y_node(w, c))
				return 0;
		}
		yaml_sequence_end_event_initialize(&ev);
		return y_emit(w, &ev);
	}
	if (cJSON_IsString(v))
		return y_string(w, v->valuestring);
	if (cJSON_IsRaw(v))
		return y_scalar(w, v->valuestring, strlen(v->valuestring),
		    YAML_PLAIN_SCALAR_STYLE);
	if (cJSON_IsNumber(v))
		return y_number(w, v->valuedouble);
	if (cJSON_IsTrue(v))
		return y_scalar(w, "true", 4, YAML_PLAIN_SCALAR_STYLE);
	if (cJSON_IsFalse(v))
		return y_scalar(w, "false", 5, YAML_PLAIN_SCALAR_STYLE);
	return y_scalar(w, "null", 4, YAML_PLAIN_SCALAR_STYLE);
}

static int
y_begin(struct ywriter *w, FILE *f, struct dra_err *err)
{
	yaml_event_t	ev;

	memset(w, 0, sizeof *w);
	w->err = err;
	if (!yaml_emitter_initialize(&w->em))
		return dra_err_set(err, KUBE_E_IO, "out of memory"), 0;
	yaml_emitter_set_output_file(&w->em, f);
	yaml_emitter_set_unicode(&w->em, 1);
	yaml_emitter_set_width(&w->em, -1);
	yaml_emitter_set_indent(&w->em, 2);
	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	if (!y_emit(w, &ev))
		return 0;
	yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
	return y_emit(w, &ev);
}

static int
y_end(struct ywriter *w)
{
	yaml_event_t	ev;

	yaml_document_end_event_initialize(&ev, 1);
	if (y_emit(w, &ev)) {
		yaml_stream_end_event_initialize(&ev);
		if (y_emit(w, &ev) && !yaml_emitter_flush(&w->em) &&
		    !w->failed) {
			w->failed = 1;
			dra_err_set(w->err, KUBE_E_IO, "cannot write: %s",
			    strerror(errno != 0 ? errno : EIO));
		}
	}
	yaml_emitter_delete(&w->em);
	return !w->failed;
}

int
kube_yaml_write(FILE *f, const cJSON *value, struct dra_err *err)
{
	struct ywriter	w;

	errno = 0;
	if (!y_begin(&w, f, err)) {
		yaml_emitter_delete(&w.em);
		return err != NULL ? err->code : KUBE_E_IO;
	}
	y_node(&w, value);
	if (!y_end(&w))
		return err != NULL ? err->code : KUBE_E_IO;
	if (fflush(f) != 0 || ferror(f))
		return dra_err_set(err, KUBE_E_IO, "cannot write: %s",
		    strerror(errno != 0 ? errno : EIO));
	return KUBE_OK;
}

/* Move the fields of "exactly" up into the request (v1beta1 shape). */
static void
flatten_requests(cJSON *spec)
{
	cJSON	*reqs, *r, *ex, *f;

	reqs = cJSON_GetObjectItem(cJSON_GetObjectItem(spec, "devices"),
	    "requests");
	cJSON_ArrayForEach(r, reqs) {
		ex = cJSON_DetachItemFromObject(r, "exactly");
		if (ex == NULL)
			continue;
		while ((f = ex->child) != NULL) {
			cJSON_DetachItemViaPointer(ex, f);
			cJSON_AddItemToObject(r, f->string, f);
		}
		cJSON_Delete(ex);
	}
}

/* Wrap each device's fields under "basic" (v1beta1 shape). */
static void
wrap_basic(cJSON *spec)
{
	cJSON	*devs, *d, *basic, *f, *next;

	devs = cJSON_GetObjectItem(spec, "devices");
	cJSON_ArrayForEach(d, devs) {
		basic = cJSON_CreateObject();
		for (f = d->child; f != NULL; f = next) {
			next = f->next;
			if (strcmp(f->string, "name") == 0)
				continue;
			cJSON_DetachItemViaPointer(d, f);
			cJSON_AddItemToObject(basic, f->string, f);
		}
		cJSON_AddItemToObject(d, "basic", basic);
	}
}

/* The item as the snapshot stores it; NULL when it has no v1 form. */
static cJSON *
snapshot_item(const char *kind, const void *obj)
{
	cJSON	*o, *spec;

	o = kube_encode(kind, obj);
	if (o == NULL)
		return NULL;
	spec = cJSON_GetObjectItem(o, "spec");
	if (strcmp(kind, "ResourceSlice") == 0 &&
	    ((const struct kube_slice *)obj)->rejected != NULL)
		wrap_basic(spec);
	else if (strcmp(kind, "ResourceClaim") == 0 &&
	    ((const struct kube_claim *)obj)->rejected != NULL)
		flatten_requests(spec);
	else if (strcmp(kind, "ResourceClaimTemplate") == 0 &&
	    ((const struct kube_claim_template *)obj)->rejected != NULL)
		flatten_requests(cJSON_GetObjectItem(spec, "spec"));
	return o;
}

struct kind_list {
	const char	*kind;
	void *const	*v;
	size_t		 n;
};

static size_t
kind_lists(const struct kube_snapshot *s, struct kind_list *l)
{
	size_t	n = 0;

#define KL(k, vec)	do {						\
	l[n].kind = (k);						\
	l[n].v = (void *const *)(vec).v;				\
	l[n].n = (vec).n;						\
	n++;								\
} while (0)
	KL("Namespace", s->namespaces);
	KL("Node", s->nodes);
	KL("DeviceClass", s->classes);
	KL("DeviceTaintRule", s->taint_rules);
	KL("ResourceSlice", s->slices);
	KL("ResourceClaimTemplate", s->templates);
	KL("ResourceClaim", s->claims);
	KL("Pod", s->pods);
	KL("ResourceQuota", s->quotas);
#undef KL
	return n;
}

static int
write_json(const struct kube_snapshot *s, FILE *f, struct dra_err *err)
{
	struct kind_list	 l[16];
	cJSON			*o;
	char			*text;
	size_t			 nl, i, j;
	int			 first = 1;

	nl = kind_lists(s, l);
	fputs("{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[", f);
	for (i = 0; i < nl; i++) {
		for (j = 0; j < l[i].n; j++) {
			o = snapshot_item(l[i].kind, l[i].v[j]);
			if (o == NULL)
				continue;
			text = cJSON_PrintUnformatted(o);
			cJSON_Delete(o);
			if (text == NULL)
				return dra_err_set(err, KUBE_E_IO,
				    "out of memory");
			fputs(first ? "\n" : ",\n", f);
			fputs(text, f);
			cJSON_free(text);
			first = 0;
			if (ferror(f))
				goto fail;
		}
	}
	fputs("\n],\"metadata\":{\"resourceVersion\":\"\"}}\n", f);
	if (fflush(f) != 0 || ferror(f))
		goto fail;
	return KUBE_OK;
fail:
	return dra_err_set(err, KUBE_E_IO, "cannot write: %s",
	    strerror(errno != 0 ? errno : EIO));
}

static int
write_yaml(const struct kube_snapshot *s, FILE *f, struct dra_err *err)
{
	struct ywriter		 w;
	struct kind_list	 l[16];
	yaml_event_t		 ev;
	cJSON			*o;
	size_t			 nl, i, j;
	int			 ok;

	if (!y_begin(&w, f, err)) {
		yaml_emitter_delete(&w.em);
		return err != NULL ? err->code : KUBE_E_IO;
	}
	yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
	    YAML_BLOCK_MAPPING_STYLE);
	y_emit(&w, &ev);
	y_string(&w, "apiVersion");
	y_string(&w, "v1");
	y_string(&w, "kind");
	y_string(&w, "List");
	y_string(&w, "items");
	nl = kind_lists(s, l);
	for (i = j = 0; i < nl; i++)
		j += l[i].n;
	yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
	    j == 0 ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE);
	y_emit(&w, &ev);
	for (i = 0; i < nl && !w.failed; i++) {
		for (j = 0; j < l[i].n && !w.failed; j++) {
			o = snapshot_item(l[i].kind, l[i].v[j]);
			if (o == NULL)
				continue;
			y_node(&w, o);
			cJSON_Delete(o);
		}
	}
	yaml_sequence_end_event_initialize(&ev);
	y_emit(&w, &ev);
	yaml_mapping_end_event_initialize(&ev);
	y_emit(&w, &ev);
	ok = y_end(&w);
	if (!ok)
		return err != NULL ? err->code : KUBE_E_IO;
	if (fflush(f) != 0 || ferror(f))
		return dra_err_set(err, KUBE_E_IO, "cannot write: %s",
		    strerror(errno != 0 ? errno : EIO));
	return KUBE_OK;
}

int
kube_snapshot_write(const struct kube_snapshot *s, FILE *f,
    enum kube_format fmt, struct dra_err *err)
{
	errno = 0;
	if (fmt == KUBE_FORMAT_JSON)
		return write_json(s, f, err);
	return write_yaml(s, f, err);
}
