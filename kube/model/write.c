/*
 * write.c: snapshot files and YAML output (kube_snapshot_write,
 * kube_yaml_write in snapshot.h).
 *
 * A snapshot is one v1 List, written item by item: each object is
 * encoded (encode.c), emitted and freed before the next, so memory
 * holds one item's tree however large the cluster.  YAML is block
 * style with lists not indented under their key, as kubectl prints,
 * written by a fast printer of its own (see write_yaml);
 * kube_yaml_write, for single values, drives libyaml's emitter.
 * JSON is the items printed unformatted, one per line.
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

	/*
	 * quoted_implicit: a string the emitter has to quote (ANY style,
	 * "a: b") is still a plain string, so it needs no "!" tag.  Only
	 * numbers, booleans and null (PLAIN style) must never be quoted.
	 */
	if (!yaml_scalar_event_initialize(&ev, NULL, NULL,
	    (yaml_char_t *)(uintptr_t)s, (int)len, plain,
	    style != YAML_PLAIN_SCALAR_STYLE, style))
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
	/* Only these first characters can start a non-string scalar. */
	if (strchr("nNtTfFyYoO~.+-0123456789", *s) == NULL)
		return 0;
	if (strlen(s) <= 5) {
		for (i = 0; words[i] != NULL; i++) {
			if (strcasecmp(s, words[i]) == 0)
				return 1;
		}
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

/*
 * The snapshot's YAML is written by a small block-style printer rather
 * than the libyaml emitter, which costs about 20 ns per byte (a
 * 200,000-device snapshot took over 9 s); this one writes the same
 * layout several times faster.  Its scalars are conservative: plain
 * only when made of characters that can never start or change a YAML
 * construct and not reading as a number, bool or null; everything
 * else is double-quoted with JSON-style escapes, which YAML's
 * double-quoted style accepts.  load.c reads it back through libyaml.
 */
struct fw {
	FILE		*f;
	char		 buf[1 << 16];
	size_t		 len;
	int		 failed;
};

static void
fw_flush(struct fw *w)
{
	if (w->len > 0 && !w->failed &&
	    fwrite(w->buf, 1, w->len, w->f) != w->len)
		w->failed = 1;
	w->len = 0;
}

static void
fw_add(struct fw *w, const char *s, size_t n)
{
	if (w->len + n > sizeof w->buf) {
		fw_flush(w);
		if (n > sizeof w->buf) {
			if (!w->failed && fwrite(s, 1, n, w->f) != n)
				w->failed = 1;
			return;
		}
	}
	memcpy(w->buf + w->len, s, n);
	w->len += n;
}

static void
fw_adds(struct fw *w, const char *s)
{
	fw_add(w, s, strlen(s));
}

static void
fw_indent(struct fw *w, int n)
{
	static const char	sp[] = "                                ";

	while (n > 0) {
		int	k = n < (int)sizeof sp - 1 ? n : (int)sizeof sp - 1;

		fw_add(w, sp, (size_t)k);
		n -= k;
	}
}

/* Characters a plain scalar may hold (1) and start with (2). */
static unsigned char plain_chars[256];

static void
plain_init(void)
{
	const char	*p;
	int		 c;

	if (plain_chars['a'] != 0)
		return;
	for (c = 0; c < 256; c++) {
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9'))
			plain_chars[c] = 3;
	}
	for (p = "._/-+=()', &|!<>[]"; *p != '\0'; p++)
		plain_chars[(unsigned char)*p] = 1;
	plain_chars['/'] = plain_chars['_'] = plain_chars['.'] = 3;
}

static int
plain_ok(const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 n;

	if (!(plain_chars[*p] & 2))
		return 0;
	for (n = 1; p[n] != '\0'; n++) {
		if (plain_chars[p[n]] == 0)
			return 0;
	}
	if (p[n - 1] == ' ')
		return 0;
	return !needs_quotes(s);
}

static void
fw_string(struct fw *w, const char *s)
{
	static const char	hex[] = "0123456789abcdef";
	const unsigned char	*p;
	char			 esc[8];

	if (plain_ok(s)) {
		fw_adds(w, s);
		return;
	}
	fw_add(w, "\"", 1);
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		switch (*p) {
		case '"':
			fw_add(w, "\\\"", 2);
			break;
		case '\\':
			fw_add(w, "\\\\", 2);
			break;
		case '\n':
			fw_add(w, "\\n", 2);
			break;
		case '\t':
			fw_add(w, "\\t", 2);
			break;
		case '\r':
			fw_add(w, "\\r", 2);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f) {
				memcpy(esc, "\\u00", 4);
				esc[4] = hex[*p >> 4];
				esc[5] = hex[*p & 15];
				fw_add(w, esc, 6);
			} else
				fw_add(w, (const char *)p, 1);
			break;
		}
	}
	fw_add(w, "\"", 1);
}

static void
fw_scalar(struct fw *w, const cJSON *v)
{
	char	buf[64];
	double	d;

	if (cJSON_IsString(v))
		fw_string(w, v->valuestring);
	else if (cJSON_IsRaw(v))
		fw_adds(w, v->valuestring);
	else if (cJSON_IsNumber(v)) {
		d = v->valuedouble;
		if (isnan(d) || isinf(d))
			fw_adds(w, "null");
		else if (d == floor(d) && fabs(d) < 1e15) {
			snprintf(buf, sizeof buf, "%.0f", d);
			fw_adds(w, buf);
		} else {
			snprintf(buf, sizeof buf, "%.15g", d);
			if (strtod(buf, NULL) != d)
				snprintf(buf, sizeof buf, "%.17g", d);
			fw_adds(w, buf);
		}
	} else if (cJSON_IsTrue(v))
		fw_adds(w, "true");
	else if (cJSON_IsFalse(v))
		fw_adds(w, "false");
	else
		fw_adds(w, "null");
}

static int
is_container(const cJSON *v)
{
	return cJSON_IsObject(v) || cJSON_IsArray(v);
}

static void	fw_node(struct fw *, const cJSON *, int, int);

/*
 * A mapping's entries at indent.  first_inline: the first key goes on
 * the current line (after "- ").
 */
/* A value written on its key's or dash's line: {}, [] or a scalar. */
static void
fw_leaf(struct fw *w, const cJSON *c)
{
	if (cJSON_IsObject(c))
		fw_adds(w, "{}\n");
	else if (cJSON_IsArray(c))
		fw_adds(w, "[]\n");
	else {
		fw_scalar(w, c);
		fw_add(w, "\n", 1);
	}
}

static void
fw_map(struct fw *w, const cJSON *v, int indent, int first_inline)
{
	const cJSON	*c;

	for (c = v->child; c != NULL; c = c->next) {
		if (c != v->child || !first_inline)
			fw_indent(w, indent);
		fw_string(w, c->string != NULL ? c->string : "");
		fw_add(w, ":", 1);
		if (is_container(c) && c->child != NULL) {
			fw_add(w, "\n", 1);
			/* Lists sit at their key's indent (kubectl's). */
			fw_node(w, c, cJSON_IsArray(c) ? indent : indent + 2,
			    0);
		} else {
			fw_add(w, " ", 1);
			fw_leaf(w, c);
		}
	}
}

static void
fw_seq(struct fw *w, const cJSON *v, int indent)
{
	const cJSON	*c;

	for (c = v->child; c != NULL; c = c->next) {
		fw_indent(w, indent);
		if (cJSON_IsObject(c) && c->child != NULL) {
			fw_add(w, "- ", 2);
			fw_map(w, c, indent + 2, 1);
		} else if (cJSON_IsArray(c) && c->child != NULL) {
			fw_add(w, "-\n", 2);
			fw_seq(w, c, indent + 2);
		} else {
			fw_add(w, "- ", 2);
			fw_leaf(w, c);
		}
	}
}

static void
fw_node(struct fw *w, const cJSON *v, int indent, int first_inline)
{
	if (cJSON_IsObject(v))
		fw_map(w, v, indent, first_inline);
	else if (cJSON_IsArray(v))
		fw_seq(w, v, indent);
	else {
		fw_scalar(w, v);
		fw_add(w, "\n", 1);
	}
}

static int
write_yaml(const struct kube_snapshot *s, FILE *f, struct dra_err *err)
{
	struct fw		*w;
	struct kind_list	 l[16];
	cJSON			*o, *item;
	size_t			 nl, i, j, total = 0;
	int			 failed;

	w = malloc(sizeof *w);
	if (w == NULL)
		return dra_err_set(err, KUBE_E_IO, "out of memory");
	w->f = f;
	w->len = 0;
	w->failed = 0;
	plain_init();
	nl = kind_lists(s, l);
	for (i = 0; i < nl; i++)
		total += l[i].n;
	fw_adds(w, "apiVersion: v1\nkind: List\nitems:");
	fw_adds(w, total == 0 ? " []\n" : "\n");
	/* Each item is a one-element sequence at indent 0. */
	item = cJSON_CreateArray();
	for (i = 0; i < nl && !w->failed; i++) {
		for (j = 0; j < l[i].n && !w->failed; j++) {
			o = snapshot_item(l[i].kind, l[i].v[j]);
			if (o == NULL)
				continue;
			cJSON_AddItemToArray(item, o);
			fw_seq(w, item, 0);
			cJSON_DeleteItemFromArray(item, 0);
		}
	}
	cJSON_Delete(item);
	fw_adds(w, "metadata:\n  resourceVersion: \"\"\n");
	fw_flush(w);
	failed = w->failed;
	free(w);
	if (failed || fflush(f) != 0 || ferror(f))
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
