/*
 * output.c: printing tables and objects the way kubectl does.
 *
 * Tables follow kubectl's printers (k8s.io/cli-runtime printers
 * tabwriter: minimum width 6, padding 3, left-aligned, the last column
 * unpadded), widths in display columns (wcwidth).  Objects print as kubectl -o json (json.MarshalIndent
 * with 4 spaces, HTML-safe escapes) and -o yaml (kube_yaml_write); a
 * list of objects is a v1 List with an empty resourceVersion, as
 * kubectl prints one.
 */
/* wcwidth (X/Open), for display widths. */
#define _XOPEN_SOURCE	700

#include "dra.h"

#include <sys/ioctl.h>

#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "snapshot.h"
#include "xmalloc.h"

#define TAB_MINWIDTH	6
#define TAB_PADDING	3
#define TAB_COLUMNS	80	/* a terminal whose width is unknown */

int
dra_output_parse(const char *s, enum dra_output *out)
{
	if (s == NULL || *s == '\0')
		*out = DRA_OUT_TABLE;
	else if (strcmp(s, "wide") == 0)
		*out = DRA_OUT_WIDE;
	else if (strcmp(s, "name") == 0)
		*out = DRA_OUT_NAME;
	else if (strcmp(s, "json") == 0)
		*out = DRA_OUT_JSON;
	else if (strcmp(s, "yaml") == 0)
		*out = DRA_OUT_YAML;
	else
		return -1;
	return 0;
}

/*
 * LC_CTYPE for wcwidth: the user's when it is UTF-8, else C.UTF-8
 * (cells are UTF-8 whatever the locale says).  Once per process.
 */
static void
table_locale(void)
{
	static int	 done;
	const char	*cs;

	if (done)
		return;
	done = 1;
	if (setlocale(LC_CTYPE, "") != NULL &&
	    (cs = nl_langinfo(CODESET)) != NULL && strcmp(cs, "UTF-8") == 0)
		return;
	if (setlocale(LC_CTYPE, "C.UTF-8") == NULL)
		(void)setlocale(LC_CTYPE, "C");
}

/*
 * The display width of a UTF-8 cell in terminal columns: wcwidth of
 * each character (a wide CJK character takes two, a combining mark
 * none); a byte that does not decode, or a character wcwidth does not
 * know, one.
 */
static size_t
text_width(const char *s)
{
	mbstate_t	ps;
	wchar_t		wc;
	size_t		w = 0, n;
	int		cw;

	memset(&ps, 0, sizeof ps);
	while (*s != '\0') {
		if ((unsigned char)*s < 0x80) {
			s++;
			w++;
			continue;
		}
		n = mbrtowc(&wc, s, MB_CUR_MAX, &ps);
		if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
			memset(&ps, 0, sizeof ps);
			s++;
			w++;
			continue;
		}
		cw = wcwidth(wc);
		w += cw < 0 ? 1 : (size_t)cw;
		s += n;
	}
	return w;
}

/*
 * Write s with every control character (C0 and DEL) as '?', except
 * newlines and tabs when layout is set: names and messages come from
 * the cluster or a file, and an escape sequence in them must not
 * drive the terminal (kubectl's printers.EscapeTerminal).  Each '?' is
 * one column, as text_width counts a control byte.
 */
static void
put_printable(FILE *f, const char *s, int layout)
{
	const char	*p;

	for (p = s; *p != '\0'; p++) {
		if ((unsigned char)*p >= 0x20 && *p != 0x7f)
			continue;
		if (layout && (*p == '\n' || *p == '\t'))
			continue;
		fwrite(s, 1, (size_t)(p - s), f);
		fputc('?', f);
		s = p + 1;
	}
	fputs(s, f);
}

void
dra_print_text(FILE *f, const char *text)
{
	put_printable(f, text, 1);
}

static void
pad(FILE *f, size_t n)
{
	static const char	spaces[] = "                                ";

	while (n > 0) {
		size_t	k = n < sizeof spaces - 1 ? n : sizeof spaces - 1;

		fwrite(spaces, 1, k, f);
		n -= k;
	}
}

size_t
dra_terminal_columns(void)
{
	struct winsize	 ws;
	const char	*e;
	long		 n;
	char		*end;

	if (!isatty(fileno(stdout)))
		return 0;
	if (ioctl(fileno(stdout), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	if ((e = getenv("COLUMNS")) != NULL) {
		n = strtol(e, &end, 10);
		if (*e != '\0' && *end == '\0' && n > 0 && n < 10000)
			return (size_t)n;
	}
	return TAB_COLUMNS;
}

int
dra_color_wanted(const struct dra_ctx *ctx)
{
	const char	*nc = getenv("NO_COLOR"), *term = getenv("TERM");

	if (ctx->opts.no_color || (nc != NULL && *nc != '\0'))
		return 0;
	if (term == NULL || *term == '\0' || strcmp(term, "dumb") == 0)
		return 0;
	return isatty(fileno(stdout));
}

void
dra_table_print(FILE *f, const struct dra_table *t, int wide, int no_headers)
{
	dra_table_print_styled(f, t, wide, no_headers, NULL);
}

void
dra_table_print_styled(FILE *f, const struct dra_table *t, int wide,
    int no_headers, const struct dra_table_style *st)
{
	size_t		*width, *vis, nvis = 0, keep, i, j, w, total;
	const char	*c, *esc;
	unsigned char	 l;
	char		 dropped[256];
	int		 n;

	table_locale();
	width = xcalloc(t->ncolumns + 1, sizeof *width);
	vis = xcalloc(t->ncolumns + 1, sizeof *vis);
	for (j = 0; j < t->ncolumns; j++) {
		if ((t->columns[j].flags & DRA_COL_WIDE) && !wide)
			continue;
		vis[nvis++] = j;
		width[j] = no_headers ? 0 : text_width(t->columns[j].name);
	}
	for (i = 0; i < t->nrows; i++) {
		for (j = 0; j < nvis; j++) {
			w = text_width(t->rows[i].cells[vis[j]]);
			if (w > width[vis[j]])
				width[vis[j]] = w;
		}
	}
	for (j = 0; j < nvis; j++) {
		width[vis[j]] += TAB_PADDING;
		if (width[vis[j]] < TAB_MINWIDTH)
			width[vis[j]] = TAB_MINWIDTH;
	}
	/* The line is the padded columns but the last, unpadded. */
	keep = nvis;
	while (st != NULL && st->columns > 0 && keep > st->keep_min) {
		for (total = 0, j = 0; j + 1 < keep; j++)
			total += width[vis[j]];
		total += width[vis[keep - 1]] - TAB_PADDING;
		if (total <= st->columns)
			break;
		keep--;
	}
	if (keep < nvis) {
		dropped[0] = '\0';
		for (j = keep, n = 0; j < nvis; j++)
			n += snprintf(dropped + (n < (int)sizeof dropped ? n :
			    (int)sizeof dropped - 1), (size_t)(n <
			    (int)sizeof dropped ? (int)sizeof dropped - n : 1),
			    "%s%s", j > keep ? ", " : "",
			    t->columns[vis[j]].name);
		dra_warning("%s not shown: the table is wider than the "
		    "terminal's %zu columns (-o wide or a pipe prints every "
		    "column)", dropped, st->columns);
		nvis = keep;
	}
	if (!no_headers) {
		for (j = 0; j < nvis; j++) {
			fputs(t->columns[vis[j]].name, f);
			if (j + 1 < nvis)
				pad(f, width[vis[j]] -
				    text_width(t->columns[vis[j]].name));
		}
		fputc('\n', f);
	}
	for (i = 0; i < t->nrows; i++) {
		for (j = 0; j < nvis; j++) {
			c = t->rows[i].cells[vis[j]];
			esc = NULL;
			if (st != NULL && st->levels != NULL) {
				l = st->levels[i * t->ncolumns + vis[j]];
				if (l < st->ncolors)
					esc = st->colors[l];
			}
			if (esc != NULL)
				fputs(esc, f);
			put_printable(f, c, 0);
			if (esc != NULL)
				fputs("\033[0m", f);
			if (j + 1 < nvis)
				pad(f, width[vis[j]] - text_width(c));
		}
		fputc('\n', f);
	}
	free(width);
	free(vis);
}

static void
json_string(FILE *f, const char *s)
{
	static const char	hex[] = "0123456789abcdef";
	const unsigned char	*p;

	fputc('"', f);
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		case '<':
		case '>':
		case '&':
			fprintf(f, "\\u00%c%c", hex[*p >> 4], hex[*p & 15]);
			break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u00%c%c", hex[*p >> 4],
				    hex[*p & 15]);
			else if (p[0] == 0xe2 && p[1] == 0x80 &&
			    (p[2] == 0xa8 || p[2] == 0xa9)) {
				fprintf(f, "\\u202%c", p[2] == 0xa8 ? '8' :
				    '9');
				p += 2;
			} else
				fputc(*p, f);
			break;
		}
	}
	fputc('"', f);
}

static void
json_number(FILE *f, double d)
{
	char	buf[64];

	if (isnan(d) || isinf(d))
		fputs("null", f);
	else if (d == floor(d) && fabs(d) < 1e21)
		fprintf(f, "%.0f", d);
	else {
		snprintf(buf, sizeof buf, "%.15g", d);
		if (strtod(buf, NULL) != d)
			snprintf(buf, sizeof buf, "%.17g", d);
		fputs(buf, f);
	}
}

static void
json_value(FILE *f, const cJSON *v, int level)
{
	const cJSON	*c;
	int		 i;

	if (cJSON_IsObject(v) || cJSON_IsArray(v)) {
		int	obj = cJSON_IsObject(v);

		if (v->child == NULL) {
			fputs(obj ? "{}" : "[]", f);
			return;
		}
		fputc(obj ? '{' : '[', f);
		for (c = v->child; c != NULL; c = c->next) {
			fputc('\n', f);
			for (i = 0; i <= level; i++)
				fputs("    ", f);
			if (obj) {
				json_string(f, c->string != NULL ? c->string :
				    "");
				fputs(": ", f);
			}
			json_value(f, c, level + 1);
			if (c->next != NULL)
				fputc(',', f);
		}
		fputc('\n', f);
		for (i = 0; i < level; i++)
			fputs("    ", f);
		fputc(obj ? '}' : ']', f);
		return;
	}
	if (cJSON_IsString(v))
		json_string(f, v->valuestring);
	else if (cJSON_IsRaw(v))
		fputs(v->valuestring, f);
	else if (cJSON_IsNumber(v))
		json_number(f, v->valuedouble);
	else if (cJSON_IsTrue(v))
		fputs("true", f);
	else if (cJSON_IsFalse(v))
		fputs("false", f);
	else
		fputs("null", f);
}

void
dra_json_print(FILE *f, const cJSON *v)
{
	json_value(f, v, 0);
	fputc('\n', f);
}

static enum dra_ret
print_one(FILE *f, const cJSON *o, enum dra_output out)
{
	struct dra_err	err;

	if (out == DRA_OUT_JSON) {
		dra_json_print(f, o);
		return DRA_RET_OK;
	}
	if (kube_yaml_write(f, o, &err) != KUBE_OK)
		return dra_error("%s", err.msg);
	return DRA_RET_OK;
}

enum dra_ret
dra_print_objects(FILE *f, const struct kube_snapshot *s,
    const struct dra_table *t, enum dra_output out, int single)
{
	cJSON		*list, *items, *o, *md;
	char		 name[2048];
	size_t		 i;
	enum dra_ret	 ret;

	if (out == DRA_OUT_NAME) {
		for (i = 0; i < t->nrows; i++)
			fprintf(f, "%s\n", dra_row_name(t, &t->rows[i], name,
			    sizeof name));
		return DRA_RET_OK;
	}
	if (single && t->nrows == 1) {
		o = dra_row_object(s, t, &t->rows[0]);
		ret = print_one(f, o, out);
		cJSON_Delete(o);
		return ret;
	}
	/*
	 * One tree for the whole list: kubectl's layout needs the items
	 * nested under "items", and JSON output of a huge list is rare.
	 */
	list = cJSON_CreateObject();
	cJSON_AddStringToObject(list, "apiVersion", "v1");
	items = cJSON_AddArrayToObject(list, "items");
	for (i = 0; i < t->nrows; i++) {
		o = dra_row_object(s, t, &t->rows[i]);
		if (o != NULL)
			cJSON_AddItemToArray(items, o);
	}
	cJSON_AddStringToObject(list, "kind", "List");
	md = cJSON_AddObjectToObject(list, "metadata");
	cJSON_AddStringToObject(md, "resourceVersion", "");
	ret = print_one(f, list, out);
	cJSON_Delete(list);
	return ret;
}

static int
warning_cmp(const void *pa, const void *pb)
{
	const struct kube_warning	*a = *(const struct kube_warning *const *)pa;
	const struct kube_warning	*b = *(const struct kube_warning *const *)pb;
	int				 c;

	c = strcmp(a->object != NULL ? a->object : "",
	    b->object != NULL ? b->object : "");
	if (c == 0)
		c = strcmp(a->message, b->message);
	return c;
}

void
dra_print_warnings(const struct kube_snapshot *s, int all)
{
	const struct kube_warning	**v, *w;
	size_t				  i, shown = 0, n = 0;

	if (s->warnings.n == 0)
		return;
	/*
	 * Sorted by object, so the order does not depend on the order of
	 * the input (a snapshot file lists kinds in its own order), and
	 * each distinct warning once.
	 */
	v = xreallocarray(NULL, s->warnings.n, sizeof *v);
	memcpy(v, s->warnings.v, s->warnings.n * sizeof *v);
	qsort(v, s->warnings.n, sizeof *v, warning_cmp);
	for (i = 0; i < s->warnings.n; i++) {
		w = v[i];
		if (i > 0 && warning_cmp(&v[i - 1], &v[i]) == 0)
			continue;
		n++;
		if (!all && shown == DRA_MAX_WARNINGS)
			continue;
		if (w->object != NULL && *w->object != '\0')
			dra_warning("%s: %s", w->object, w->message);
		else
			dra_warning("%s", w->message);
		shown++;
	}
	if (n > shown)
		dra_warning("%zu more warnings not shown (use -v 2 to see "
		    "them all)", n - shown);
	free(v);
}
