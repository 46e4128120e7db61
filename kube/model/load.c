/*
 * load.c: streaming readers for snapshot files (see snapshot.h).
 *
 * YAML goes through libyaml's event parser.  Each document's root is
 * read key by key; when the root is a List ("items:" a sequence), each
 * element is built into a cJSON tree of its own, handed to
 * kube_snapshot_add() and freed, so memory holds one item at a time.
 * Scalars are typed as Kubernetes' YAML reader (go-yaml, YAML 1.1)
 * types them: plain null/~/empty is null, true/false (and yes/no/on/
 * off) are booleans, numbers are numbers (their source text is kept in
 * valuestring so "1.10" stays "1.10"), everything else a string.
 *
 * JSON is mapped into memory and read item by item: the root object's
 * keys are walked by hand, and each value (each element of "items")
 * is parsed on its own by cJSON straight from the mapping, which stops
 * at the value's end (one pass over the bytes).  Only when cJSON
 * fails is the value cut again by a bracket-and-string scanner, so a
 * malformed file is reported as before ("unterminated string" ...) at
 * the same position.  Pages already read are dropped from memory as it
 * goes; the line of an item is counted forward from the last one.
 */
#include "snapshot.h"
#include "model-int.h"

#include <sys/mman.h>
#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <yaml.h>

#include "buf.h"
#include "xmalloc.h"
#include "yamlscalar.h"

#define LOAD_MAX_DEPTH	128	/* nesting of one object */

struct yload {
	yaml_parser_t		 parser;
	yaml_event_t		 ev;
	int			 have_ev;
	const char		*name;
	struct kube_snapshot	*s;
	struct dra_err		*err;
	int			 in_items;	/* building an items[] entry */
};

/* Pending items of a List whose kind comes after its items. */
struct pending {
	cJSON	**v;
	size_t	 *line;		/* 0 when unknown (JSON) */
	size_t	 *idx;		/* position in items */
	size_t	  n, cap;
};

static int
yerr(struct yload *y)
{
	yaml_parser_t	*p = &y->parser;

	if (p->context != NULL)
		return dra_err_set(y->err, KUBE_E_PARSE, "%s:%zu:%zu: %s %s "
		    "(line %zu)", y->name, p->problem_mark.line + 1,
		    p->problem_mark.column + 1,
		    p->problem ? p->problem : "syntax error", p->context,
		    p->context_mark.line + 1);
	return dra_err_set(y->err, KUBE_E_PARSE, "%s:%zu:%zu: %s", y->name,
	    p->problem_mark.line + 1, p->problem_mark.column + 1,
	    p->problem ? p->problem : "syntax error");
}

/* The next event into y->ev (the previous one is freed). */
static int
ynext(struct yload *y)
{
	if (y->have_ev)
		yaml_event_delete(&y->ev);
	y->have_ev = 0;
	if (!yaml_parser_parse(&y->parser, &y->ev))
		return yerr(y);
	y->have_ev = 1;
	return KUBE_OK;
}

static cJSON *
scalar_json(const yaml_event_t *ev)
{
	const char	*v = (const char *)ev->data.scalar.value;
	cJSON		*j;
	double		 num;
	int		 b;

	if (ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE ||
	    (ev->data.scalar.tag != NULL &&
	    strcmp((const char *)ev->data.scalar.tag,
	    YAML_STR_TAG) == 0))
		return cJSON_CreateString(v);
	switch (dra_yaml_resolve(v, ev->data.scalar.length, &num, &b)) {
	case DRA_YAML_NULL:
		return cJSON_CreateNull();
	case DRA_YAML_BOOL:
		j = cJSON_CreateBool(b);
		break;
	case DRA_YAML_NUMBER:
		j = cJSON_CreateNumber(num);
		break;
	case DRA_YAML_STRING:
	default:
		return cJSON_CreateString(v);
	}
	/*
	 * Keep the literal (cJSON_Delete frees valuestring): where the
	 * field is a string, "1.10" stays "1.10" and "y" stays "y", as
	 * sigs.k8s.io/yaml keeps it when the target type is a string.
	 */
	j->valuestring = xstrdup(v);
	return j;
}

/*
 * Skip the rest of the mapping whose keys are being read: y->ev holds
 * the last event read inside it; on return, its MAPPING_END.
 */
static int
yskip_mapping(struct yload *y)
{
	size_t	depth = 0;
	int	rc;

	for (;;) {
		if ((rc = ynext(y)) != KUBE_OK)
			return rc;
		switch (y->ev.type) {
		case YAML_MAPPING_START_EVENT:
		case YAML_SEQUENCE_START_EVENT:
			depth++;
			break;
		case YAML_MAPPING_END_EVENT:
			if (depth == 0)
				return KUBE_OK;
			depth--;
			break;
		case YAML_SEQUENCE_END_EVENT:
			depth--;
			break;
		default:
			break;
		}
	}
}

/*
 * Build the node whose first event is in y->ev into a cJSON tree.  On
 * return y->ev holds that node's last event.
 */
static int
ybuild(struct yload *y, cJSON **out, int depth)
{
	cJSON	*node = NULL, *child, *key;
	int	 rc;

	*out = NULL;
	if (depth > LOAD_MAX_DEPTH)
		return dra_err_set(y->err, KUBE_E_PARSE, "%s:%zu:%zu: nested "
		    "more than %d levels", y->name,
		    y->ev.start_mark.line + 1, y->ev.start_mark.column + 1,
		    LOAD_MAX_DEPTH);
	switch (y->ev.type) {
	case YAML_SCALAR_EVENT:
		*out = scalar_json(&y->ev);
		return KUBE_OK;
	case YAML_ALIAS_EVENT:
		return dra_err_set(y->err, KUBE_E_PARSE, "%s:%zu:%zu: YAML "
		    "aliases (*%s) are not supported", y->name,
		    y->ev.start_mark.line + 1, y->ev.start_mark.column + 1,
		    (const char *)y->ev.data.alias.anchor);
	case YAML_SEQUENCE_START_EVENT:
		node = cJSON_CreateArray();
		for (;;) {
			if ((rc = ynext(y)) != KUBE_OK)
				goto fail;
			if (y->ev.type == YAML_SEQUENCE_END_EVENT)
				break;
			if ((rc = ybuild(y, &child, depth + 1)) != KUBE_OK)
				goto fail;
			cJSON_AddItemToArray(node, child);
		}
		*out = node;
		return KUBE_OK;
	case YAML_MAPPING_START_EVENT:
		node = cJSON_CreateObject();
		for (;;) {
			if ((rc = ynext(y)) != KUBE_OK)
				goto fail;
			if (y->ev.type == YAML_MAPPING_END_EVENT)
				break;
			if (y->ev.type != YAML_SCALAR_EVENT) {
				rc = dra_err_set(y->err, KUBE_E_PARSE,
				    "%s:%zu:%zu: mapping keys must be scalars",
				    y->name, y->ev.start_mark.line + 1,
				    y->ev.start_mark.column + 1);
				goto fail;
			}
			key = cJSON_CreateString(
			    (const char *)y->ev.data.scalar.value);
			if ((rc = ynext(y)) != KUBE_OK ||
			    (rc = ybuild(y, &child, depth + 1)) != KUBE_OK) {
				cJSON_Delete(key);
				goto fail;
			}
			/*
			 * A repeated key is not checked for (the API server
			 * never writes one); the first one is read.
			 */
			cJSON_AddItemToObject(node, key->valuestring, child);
			/* An item of a kind nobody needs: no tree for it. */
			if (depth == 1 && y->in_items &&
			    strcmp(key->valuestring, "kind") == 0 &&
			    cJSON_IsString(child) &&
			    kube_snapshot_skips(y->s, child->valuestring)) {
				cJSON_Delete(key);
				cJSON_Delete(node);
				y->s->ignored++;
				return yskip_mapping(y);
			}
			cJSON_Delete(key);
		}
		*out = node;
		return KUBE_OK;
	default:
		return dra_err_set(y->err, KUBE_E_PARSE, "%s:%zu:%zu: "
		    "unexpected YAML event", y->name,
		    y->ev.start_mark.line + 1, y->ev.start_mark.column + 1);
	}
fail:
	cJSON_Delete(node);
	return rc;
}

static int
add_item(struct kube_snapshot *s, cJSON *item, const char *api,
    const char *kind, const char *name, size_t idx, size_t line,
    int in_list, struct dra_err *err)
{
	int	rc;

	rc = kube_snapshot_add(s, item, api, kind, err);
	if (rc == KUBE_OK)
		return KUBE_OK;
	if (line > 0 && in_list)
		return dra_err_prefix(err, "%s:%zu: items[%zu]", name, line,
		    idx);
	if (line > 0)
		return dra_err_prefix(err, "%s:%zu", name, line);
	if (in_list)
		return dra_err_prefix(err, "%s: items[%zu]", name, idx);
	return dra_err_prefix(err, "%s", name);
}

static void
pending_push(struct pending *p, cJSON *item, size_t idx, size_t line)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 16;
		p->v = xreallocarray(p->v, p->cap, sizeof *p->v);
		p->line = xreallocarray(p->line, p->cap, sizeof *p->line);
		p->idx = xreallocarray(p->idx, p->cap, sizeof *p->idx);
	}
	p->v[p->n] = item;
	p->idx[p->n] = idx;
	p->line[p->n++] = line;
}

/* Add the held items once the list's apiVersion and kind are known. */
static int
pending_add(struct kube_snapshot *s, const struct pending *p,
    const char *api, const char *kind, const char *name,
    struct dra_err *err)
{
	size_t	i;
	int	rc;

	for (i = 0; i < p->n; i++) {
		rc = add_item(s, p->v[i], api, kind, name, p->idx[i],
		    p->line[i], 1, err);
		if (rc != KUBE_OK)
			return rc;
	}
	return KUBE_OK;
}

static void
pending_clear(struct pending *p)
{
	size_t	i;

	for (i = 0; i < p->n; i++)
		cJSON_Delete(p->v[i]);
	free(p->v);
	free(p->line);
	free(p->idx);
	memset(p, 0, sizeof *p);
}

/*
 * One document whose root mapping start is in y->ev.  The "items"
 * sequence is streamed; every other key is built and kept in root.
 */
static int
ydocument_mapping(struct yload *y)
{
	cJSON		*root, *child, *v;
	struct pending	 pend;
	char		*key = NULL;
	const char	*api = NULL, *kind = NULL;
	size_t		 idx = 0, line;
	int		 rc = KUBE_OK, streamed = 0;

	memset(&pend, 0, sizeof pend);
	root = cJSON_CreateObject();
	for (;;) {
		if ((rc = ynext(y)) != KUBE_OK)
			goto out;
		if (y->ev.type == YAML_MAPPING_END_EVENT)
			break;
		if (y->ev.type != YAML_SCALAR_EVENT) {
			rc = dra_err_set(y->err, KUBE_E_PARSE, "%s:%zu:%zu: "
			    "mapping keys must be scalars", y->name,
			    y->ev.start_mark.line + 1,
			    y->ev.start_mark.column + 1);
			goto out;
		}
		free(key);
		key = xstrdup((const char *)y->ev.data.scalar.value);
		if ((rc = ynext(y)) != KUBE_OK)
			goto out;
		if (strcmp(key, "items") == 0 &&
		    y->ev.type == YAML_SEQUENCE_START_EVENT) {
			streamed = 1;
			for (;;) {
				if ((rc = ynext(y)) != KUBE_OK)
					goto out;
				if (y->ev.type == YAML_SEQUENCE_END_EVENT)
					break;
				line = y->ev.start_mark.line + 1;
				y->in_items = 1;
				rc = ybuild(y, &child, 1);
				y->in_items = 0;
				if (rc != KUBE_OK)
					goto out;
				if (child == NULL) {	/* skipped */
					idx++;
					continue;
				}
				v = cJSON_GetObjectItemCaseSensitive(child,
				    "kind");
				if (!cJSON_IsString(v) && kind == NULL) {
					/* Its kind may come from the list. */
					pending_push(&pend, child, idx++, line);
					continue;
				}
				rc = add_item(y->s, child, api, kind, y->name,
				    idx++, line, 1, y->err);
				cJSON_Delete(child);
				if (rc != KUBE_OK)
					goto out;
			}
			continue;
		}
		if ((rc = ybuild(y, &child, 1)) != KUBE_OK)
			goto out;
		cJSON_DeleteItemFromObjectCaseSensitive(root, key);
		cJSON_AddItemToObject(root, key, child);
		if (strcmp(key, "apiVersion") == 0 && cJSON_IsString(child))
			api = child->valuestring;
		if (strcmp(key, "kind") == 0 && cJSON_IsString(child))
			kind = child->valuestring;
		/* A document of a kind nobody needs. */
		if (!streamed && kind != NULL &&
		    kube_snapshot_skips(y->s, kind)) {
			y->s->ignored++;
			rc = yskip_mapping(y);
			goto out;
		}
	}
	if (!streamed) {
		rc = add_item(y->s, root, NULL, NULL, y->name, 0,
		    y->ev.start_mark.line + 1, 0, y->err);
		goto out;
	}
	rc = pending_add(y->s, &pend, api, kind, y->name, y->err);
out:
	pending_clear(&pend);
	free(key);
	cJSON_Delete(root);
	return rc;
}

static int
load_yaml(struct kube_snapshot *s, const char *name, FILE *f,
    const char *data, size_t len, struct dra_err *err)
{
	struct yload	 y;
	cJSON		*root;
	int		 rc = KUBE_OK;

	memset(&y, 0, sizeof y);
	y.name = name;
	y.s = s;
	y.err = err;
	if (!yaml_parser_initialize(&y.parser))
		return dra_err_set(err, KUBE_E_PARSE, "%s: cannot start the "
		    "YAML parser", name);
	if (f != NULL)
		yaml_parser_set_input_file(&y.parser, f);
	else
		yaml_parser_set_input_string(&y.parser,
		    (const unsigned char *)data, len);
	for (;;) {
		if ((rc = ynext(&y)) != KUBE_OK)
			break;
		if (y.ev.type == YAML_STREAM_END_EVENT)
			break;
		if (y.ev.type != YAML_DOCUMENT_START_EVENT)
			continue;
		if ((rc = ynext(&y)) != KUBE_OK)
			break;
		if (y.ev.type == YAML_MAPPING_START_EVENT) {
			rc = ydocument_mapping(&y);
		} else if (y.ev.type == YAML_SCALAR_EVENT &&
		    y.ev.data.scalar.length == 0) {
			rc = KUBE_OK;	/* an empty document */
		} else {
			if ((rc = ybuild(&y, &root, 0)) == KUBE_OK) {
				if (!cJSON_IsNull(root))
					rc = add_item(s, root, NULL, NULL,
					    name, 0, y.ev.start_mark.line + 1,
					    0, err);
				cJSON_Delete(root);
			}
		}
		if (rc != KUBE_OK)
			break;
	}
	if (y.have_ev)
		yaml_event_delete(&y.ev);
	yaml_parser_delete(&y.parser);
	return rc;
}

/* JSON: line and column of offset off in data. */
static void
json_position(const char *data, size_t off, size_t *line, size_t *col)
{
	size_t	i;

	*line = 1;
	*col = 1;
	for (i = 0; i < off; i++) {
		if (data[i] == '\n') {
			(*line)++;
			*col = 1;
		} else
			(*col)++;
	}
}

struct jscan {
	const char	*data;
	size_t		 len;
	size_t		 pos;
	const char	*name;
	struct dra_err	*err;
	size_t		 dropped;	/* bytes released from memory */
	int		 mapped;
	size_t		 line_off;	/* jline(): lines counted up to */
	size_t		 line;		/* the line of line_off */
};

static int
jfail(struct jscan *j, size_t off, const char *what)
{
	size_t	line, col;

	json_position(j->data, off < j->len ? off : j->len, &line, &col);
	return dra_err_set(j->err, KUBE_E_PARSE, "%s:%zu:%zu: %s", j->name,
	    line, col, what);
}

static void
jspace(struct jscan *j)
{
	while (j->pos < j->len && isspace((unsigned char)j->data[j->pos]))
		j->pos++;
}

/* Skip one JSON value starting at j->pos (not validated here). */
static int
jskip(struct jscan *j)
{
	size_t	depth = 0, start = j->pos;
	char	c;

	jspace(j);
	start = j->pos;
	while (j->pos < j->len) {
		c = j->data[j->pos];
		if (c == '"') {
			for (j->pos++; j->pos < j->len &&
			    j->data[j->pos] != '"'; j->pos++)
				if (j->data[j->pos] == '\\')
					j->pos++;
			if (j->pos >= j->len)
				return jfail(j, start, "unterminated string");
			j->pos++;
			if (depth == 0)
				return KUBE_OK;
			continue;
		}
		if (c == '{' || c == '[') {
			depth++;
		} else if (c == '}' || c == ']') {
			if (depth == 0)
				return jfail(j, j->pos,
				    "unexpected closing bracket");
			if (--depth == 0) {
				j->pos++;
				return KUBE_OK;
			}
		} else if (depth == 0 && (c == ',' || isspace(
		    (unsigned char)c))) {
			return j->pos > start ? KUBE_OK :
			    jfail(j, j->pos, "expected a value");
		}
		j->pos++;
	}
	if (depth > 0)
		return jfail(j, start, "unterminated object or list");
	return KUBE_OK;
}

/*
 * Cut the value at j->pos with jskip, then parse the cut with cJSON:
 * the errors of a malformed value, with their positions.
 */
static int
jparse_cut(struct jscan *j, cJSON **out)
{
	const char	*end = NULL;
	size_t		 start;
	int		 rc;

	jspace(j);
	start = j->pos;
	if ((rc = jskip(j)) != KUBE_OK)
		return rc;
	*out = cJSON_ParseWithLengthOpts(j->data + start, j->pos - start,
	    &end, 0);
	if (*out == NULL)
		return jfail(j, end != NULL ? (size_t)(end - j->data) : start,
		    "malformed JSON");
	return KUBE_OK;
}

/*
 * Parse the value at j->pos with cJSON, which stops at its end (it
 * reads no further than the value); j->pos then points past it.  A
 * value cJSON rejects goes through jparse_cut for the message.
 */
static int
jparse(struct jscan *j, cJSON **out)
{
	const char	*end = NULL;
	size_t		 start;

	jspace(j);
	start = j->pos;
	if (start < j->len) {
		*out = cJSON_ParseWithLengthOpts(j->data + start,
		    j->len - start, &end, 0);
		if (*out != NULL) {
			j->pos = (size_t)(end - j->data);
			return KUBE_OK;
		}
	}
	j->pos = start;
	return jparse_cut(j, out);
}

/*
 * The line of offset off, counted on from the last call's offset (off
 * never goes back), so pages already dropped are not read again.
 */
static size_t
jline(struct jscan *j, size_t off)
{
	const char	*p, *end;

	if (off < j->line_off) {	/* not expected: count from 0 */
		j->line_off = 0;
		j->line = 1;
	}
	p = j->data + j->line_off;
	end = j->data + off;
	while (p < end && (p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		j->line++;
		p++;
	}
	j->line_off = off;
	return j->line;
}

/* Drop pages before pos from memory: they will not be read again. */
static void
jrelease(struct jscan *j)
{
	long	page = sysconf(_SC_PAGESIZE);
	size_t	upto;

	if (!j->mapped || page <= 0)
		return;
	upto = j->pos & ~((size_t)page - 1);
	if (upto > j->dropped + (64UL << 20)) {
		madvise((char *)j->data + j->dropped, upto - j->dropped,
		    MADV_DONTNEED);
		j->dropped = upto;
	}
}

static int
load_json(struct kube_snapshot *s, const char *name, const char *data,
    size_t len, int mapped, struct dra_err *err)
{
	struct jscan	 j;
	cJSON		*v, *root = NULL, *child;
	struct pending	 pend;
	char		*key = NULL;
	const char	*api = NULL, *kind = NULL;
	size_t		 idx = 0, line, istart;
	int		 rc = KUBE_OK, streamed = 0;

	memset(&j, 0, sizeof j);
	memset(&pend, 0, sizeof pend);
	j.data = data;
	j.len = len;
	j.name = name;
	j.err = err;
	j.mapped = mapped;
	j.line = 1;
	jspace(&j);
	if (j.pos < len && data[j.pos] == '[') {
		/* A bare array of objects. */
		if ((rc = jparse(&j, &root)) != KUBE_OK)
			return rc;
		cJSON_ArrayForEach(child, root) {
			rc = add_item(s, child, NULL, NULL, name, idx++, 0, 1,
			    err);
			if (rc != KUBE_OK)
				break;
		}
		cJSON_Delete(root);
		return rc;
	}
	if (j.pos >= len || data[j.pos] != '{')
		return jfail(&j, j.pos, "expected a JSON object");
	root = cJSON_CreateObject();
	j.pos++;
	for (;;) {
		jspace(&j);
		if (j.pos < len && data[j.pos] == '}') {
			j.pos++;
			break;
		}
		if (j.pos >= len || data[j.pos] != '"') {
			rc = jfail(&j, j.pos, "expected a key");
			goto out;
		}
		if ((rc = jparse(&j, &v)) != KUBE_OK)
			goto out;
		free(key);
		key = xstrdup(cJSON_IsString(v) ? v->valuestring : "");
		cJSON_Delete(v);
		jspace(&j);
		if (j.pos >= len || data[j.pos] != ':') {
			rc = jfail(&j, j.pos, "expected ':'");
			goto out;
		}
		j.pos++;
		jspace(&j);
		if (strcmp(key, "items") == 0 && j.pos < len &&
		    data[j.pos] == '[') {
			streamed = 1;
			j.pos++;
			for (;;) {
				jspace(&j);
				if (j.pos < len && data[j.pos] == ']') {
					j.pos++;
					break;
				}
				jspace(&j);
				istart = j.pos;
				if ((rc = jparse(&j, &child)) != KUBE_OK)
					goto out;
				if (!cJSON_IsString(cJSON_GetObjectItem(child,
				    "kind")) && kind == NULL) {
					line = jline(&j, istart);
					pending_push(&pend, child, idx++, line);
				} else {
					rc = kube_snapshot_add(s, child, api,
					    kind, err);
					cJSON_Delete(child);
					if (rc != KUBE_OK) {
						line = jline(&j, istart);
						dra_err_prefix(err, "%s:%zu: "
						    "items[%zu]", name, line,
						    idx);
						goto out;
					}
					idx++;
				}
				jrelease(&j);
				jspace(&j);
				if (j.pos < len && data[j.pos] == ',')
					j.pos++;
				else if (j.pos >= len || data[j.pos] != ']') {
					rc = jfail(&j, j.pos,
					    "expected ',' or ']'");
					goto out;
				}
			}
		} else {
			if ((rc = jparse(&j, &child)) != KUBE_OK)
				goto out;
			cJSON_AddItemToObject(root, key, child);
			if (strcmp(key, "apiVersion") == 0 &&
			    cJSON_IsString(child))
				api = child->valuestring;
			if (strcmp(key, "kind") == 0 && cJSON_IsString(child))
				kind = child->valuestring;
		}
		jspace(&j);
		if (j.pos < len && data[j.pos] == ',')
			j.pos++;
		else if (j.pos >= len || data[j.pos] != '}') {
			rc = jfail(&j, j.pos, "expected ',' or '}'");
			goto out;
		}
	}
	jspace(&j);
	if (j.pos < len) {
		rc = jfail(&j, j.pos, "unexpected data after the object");
		goto out;
	}
	if (!streamed) {
		rc = add_item(s, root, NULL, NULL, name, 0, 0, 0, err);
		goto out;
	}
	rc = pending_add(s, &pend, api, kind, name, err);
out:
	pending_clear(&pend);
	free(key);
	cJSON_Delete(root);
	return rc;
}

static int
looks_json(const char *data, size_t len)
{
	size_t	i;

	for (i = 0; i < len; i++) {
		if (isspace((unsigned char)data[i]))
			continue;
		return data[i] == '{' || data[i] == '[';
	}
	return 0;
}

int
kube_snapshot_load_mem(struct kube_snapshot *s, const char *name,
    const char *data, size_t len, struct dra_err *err)
{
	if (looks_json(data, len))
		return load_json(s, name, data, len, 0, err);
	return load_yaml(s, name, NULL, data, len, err);
}

static int
load_stdin(struct kube_snapshot *s, struct dra_err *err)
{
	struct dra_buf	 b;
	char		 chunk[65536];
	size_t		 n;
	int		 rc;

	dra_buf_init(&b, DRA_BUF_MAX_FILE);
	while ((n = fread(chunk, 1, sizeof chunk, stdin)) > 0) {
		if (dra_buf_add(&b, chunk, n) != KUBE_OK)
			return dra_err_set(err, KUBE_E_TOOBIG, "standard "
			    "input: larger than %lu bytes", DRA_BUF_MAX_FILE);
	}
	if (ferror(stdin)) {
		dra_buf_release(&b);
		return dra_err_set(err, KUBE_E_IO, "standard input: %s",
		    strerror(errno));
	}
	rc = kube_snapshot_load_mem(s, "<stdin>", dra_buf_str(&b), b.len,
	    err);
	dra_buf_release(&b);
	return rc;
}

int
kube_snapshot_load_file(struct kube_snapshot *s, const char *path,
    struct dra_err *err)
{
	struct stat	 st;
	FILE		*f;
	char		 head[512];
	void		*map;
	size_t		 n;
	int		 fd, rc;

	if (strcmp(path, "-") == 0)
		return load_stdin(s, err);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return dra_err_set(err, KUBE_E_IO, "%s: %s", path,
		    strerror(errno));
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode)) {
		rc = dra_err_set(err, KUBE_E_IO, "%s: %s", path,
		    S_ISDIR(st.st_mode) ? "is a directory" :
		    "not a regular file");
		close(fd);
		return rc;
	}
	n = (size_t)pread(fd, head, sizeof head, 0);
	if (n == (size_t)-1)
		n = 0;
	if (looks_json(head, n)) {
		if (st.st_size == 0) {
			close(fd);
			return KUBE_OK;
		}
		map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE,
		    fd, 0);
		close(fd);
		if (map == MAP_FAILED)
			return dra_err_set(err, KUBE_E_IO, "%s: %s", path,
			    strerror(errno));
		madvise(map, (size_t)st.st_size, MADV_SEQUENTIAL);
		rc = load_json(s, path, map, (size_t)st.st_size, 1, err);
		munmap(map, (size_t)st.st_size);
		return rc;
	}
	if ((f = fdopen(fd, "r")) == NULL) {
		rc = dra_err_set(err, KUBE_E_IO, "%s: %s", path,
		    strerror(errno));
		close(fd);
		return rc;
	}
	rc = load_yaml(s, path, f, NULL, 0, err);
	fclose(f);
	return rc;
}
