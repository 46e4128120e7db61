/*
 * cel-parse.c: lexer, parser and static checker of the selector CEL.
 *
 * A recursive-descent parser for the CEL grammar (cel-spec
 * doc/langdef.md "Syntax"), building the node array of struct dra_cel
 * and typing every node on the way up, the way cel-go's checker types
 * the AST: `device` is kubernetes.DRADevice, attributes are dynamically
 * typed, capacities are kubernetes.Quantity, and an operator or
 * function whose operand types admit no overload is the compile error
 * "found no matching overload for ...", reported at the column cel-go
 * reports (the operator, the '(' of a call, the '.' of a selection).
 *
 * Constructs this evaluator does not implement do not fail the parse:
 * they are recorded in p->unsupported (the first one wins) and typed
 * dyn, so later syntax and type errors are still found.
 */
#include "cel-int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

enum tok_type {
	T_EOF, T_ERROR, T_INT, T_UINT, T_DOUBLE, T_STRING, T_BYTES, T_IDENT,
	T_TRUE, T_FALSE, T_NULL, T_IN,
	T_LPAREN, T_RPAREN, T_LBRACK, T_RBRACK, T_LBRACE, T_RBRACE,
	T_DOT, T_COMMA, T_COLON, T_QUESTION, T_NOT, T_MINUS, T_PLUS, T_STAR,
	T_SLASH, T_PERCENT, T_EQ, T_NE, T_LT, T_LE, T_GT, T_GE, T_AND, T_OR,
};

struct tok {
	enum tok_type	 type;
	size_t		 off;		/* byte offset of the first byte */
	size_t		 len;
	const char	*s;		/* T_STRING/T_BYTES: decoded, arena */
	size_t		 n;
	uint64_t	 u;		/* T_INT/T_UINT magnitude */
	double		 d;
};

struct scope {
	const char	*name;
	size_t		 n;
	int		 slot;
	struct cel_type	 ty;
};

struct parser {
	struct dra_cel	*p;
	const char	*s;
	size_t		 len;
	size_t		 pos;		/* lexer position */
	struct tok	 t;		/* current token */
	int		 depth;
	int		 failed;
	int		 stopped;	/* failed on a limit: unsupported */
	struct dra_err	*err;
	struct scope	 scope[CEL_MAX_SLOTS];
	int		 nscope;
};

static const struct cel_type ty_dyn = { CT_DYN, 0, 0, 0 };

/* Does a value of static kind k match any type (dyn, any)? */
#define WILD(k)	((k) == CT_DYN || (k) == CT_ANY)

/* N_VAR slots of identifiers that are not variables. */
#define SLOT_UNRESOLVED	0xff	/* an undeclared reference, so far */
#define SLOT_NAME	0xfe	/* the variable name argument of a macro */

static void	next(struct parser *);
static int32_t	parse_expr(struct parser *);
static void	fold_literal(struct parser *, int32_t, const int32_t *, int);

/* "line L, column N" or "column N" for byte offset off. */
static void
position(const struct parser *ps, size_t off, char *buf, size_t len)
{
	size_t	line = 1, start = 0, i;

	for (i = 0; i < off && i < ps->len; i++) {
		if (ps->s[i] == '\n') {
			line++;
			start = i + 1;
		}
	}
	if (line > 1)
		snprintf(buf, len, "line %zu, column %zu", line,
		    off - start + 1);
	else
		snprintf(buf, len, "column %zu", off + 1);
}

/* Record the first compile error, at byte offset off. */
static void
fail(struct parser *ps, size_t off, const char *fmt, ...)
{
	char	pos[64], msg[DRA_ERR_MSG_MAX];
	va_list	ap;

	if (ps->failed)
		return;
	ps->failed = 1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	position(ps, off, pos, sizeof pos);
	dra_err_set(ps->err, KUBE_E_PARSE, "%s: %s", pos, msg);
}

/* Record the first unsupported construct, at byte offset off. */
static void
unsupported(struct parser *ps, size_t off, const char *fmt, ...)
{
	char	pos[64], what[256];
	va_list	ap;

	if (ps->p->unsupported != NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	position(ps, off, pos, sizeof pos);
	ps->p->unsupported = xasprintf("unsupported CEL construct %s at %s",
	    what, pos);
}

/* Lexer. */

static int
is_ident_start(int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	    ch == '_';
}

static int
is_digit(int ch)
{
	return ch >= '0' && ch <= '9';
}

/* Append code point cp as UTF-8 to out (room for 4 bytes). */
static size_t
put_utf8(char *out, uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/*
 * Lex a string or bytes literal at ps->pos (just past any r/b prefix
 * letters) into the token: quotes ' " or triple quotes, escapes as in
 * cel-spec "String and Bytes Values" unless raw.
 */
static void
lex_string(struct parser *ps, int raw, int bytes)
{
	const char	*s = ps->s;
	char		 q = s[ps->pos], *out;
	int		 triple = 0;
	size_t		 i, o = 0, start = ps->t.off;

	if (ps->pos + 2 < ps->len && s[ps->pos + 1] == q &&
	    s[ps->pos + 2] == q) {
		triple = 1;
		ps->pos += 3;
	} else
		ps->pos++;
	out = dra_arena_alloc(&ps->p->arena, ps->len - ps->pos + 1);
	for (i = ps->pos;; ) {
		if (i >= ps->len) {
			fail(ps, start, "Syntax error: unterminated string "
			    "literal");
			ps->t.type = T_ERROR;
			return;
		}
		if (triple ? (s[i] == q && i + 2 < ps->len &&
		    s[i + 1] == q && s[i + 2] == q) : s[i] == q)
			break;
		if (!triple && (s[i] == '\n' || s[i] == '\r')) {
			fail(ps, start, "Syntax error: newline in string "
			    "literal");
			ps->t.type = T_ERROR;
			return;
		}
		if (s[i] != '\\' || raw) {
			out[o++] = s[i++];
			continue;
		}
		if (++i >= ps->len)
			continue;
		switch (s[i]) {
		case 'a': out[o++] = '\a'; i++; break;
		case 'b': out[o++] = '\b'; i++; break;
		case 'f': out[o++] = '\f'; i++; break;
		case 'n': out[o++] = '\n'; i++; break;
		case 'r': out[o++] = '\r'; i++; break;
		case 't': out[o++] = '\t'; i++; break;
		case 'v': out[o++] = '\v'; i++; break;
		case '\\': case '\'': case '"': case '`': case '?':
			out[o++] = s[i++];
			break;
		case 'x': case 'X': case 'u': case 'U': {
			int	 nd = (s[i] == 'u') ? 4 : (s[i] == 'U') ? 8 : 2;
			int	 k, h;
			uint32_t cp = 0;
			char	 kind = s[i];

			for (k = 0, i++; k < nd; k++, i++) {
				if (i >= ps->len || (h = cel_hexval(s[i])) < 0) {
					fail(ps, start, "Syntax error: invalid "
					    "escape sequence");
					ps->t.type = T_ERROR;
					return;
				}
				cp = cp * 16 + (uint32_t)h;
			}
			if (bytes && (kind == 'x' || kind == 'X'))
				out[o++] = (char)cp;
			else if (cp > 0x10ffff ||
			    (cp >= 0xd800 && cp <= 0xdfff)) {
				fail(ps, start, "Syntax error: invalid unicode "
				    "code point");
				ps->t.type = T_ERROR;
				return;
			} else
				o += put_utf8(out + o, cp);
			break;
		}
		case '0': case '1': case '2': case '3': {
			uint32_t cp = 0;
			int	 k;

			for (k = 0; k < 3; k++, i++) {
				if (i >= ps->len || s[i] < '0' || s[i] > '7') {
					fail(ps, start, "Syntax error: invalid "
					    "escape sequence");
					ps->t.type = T_ERROR;
					return;
				}
				cp = cp * 8 + (uint32_t)(s[i] - '0');
			}
			if (bytes)
				out[o++] = (char)cp;
			else
				o += put_utf8(out + o, cp);
			break;
		}
		default:
			fail(ps, start, "Syntax error: invalid escape sequence "
			    "'\\%c'", s[i]);
			ps->t.type = T_ERROR;
			return;
		}
	}
	out[o] = '\0';
	ps->pos = i + (triple ? 3 : 1);
	ps->t.type = bytes ? T_BYTES : T_STRING;
	ps->t.s = out;
	ps->t.n = o;
}

/* Lex a number at ps->pos. */
static void
lex_number(struct parser *ps)
{
	const char	*s = ps->s;
	size_t		 i = ps->pos, start = i;
	int		 isdbl = 0;
	char		 tmp[128];

	if (s[i] == '0' && i + 1 < ps->len && (s[i + 1] == 'x' ||
	    s[i + 1] == 'X')) {
		uint64_t v = 0;
		int	 over = 0, nd = 0;

		for (i += 2; i < ps->len && cel_hexval(s[i]) >= 0; i++, nd++) {
			if (v > UINT64_MAX / 16)
				over = 1;
			v = v * 16 + (uint64_t)cel_hexval(s[i]);
		}
		if (nd == 0 || over) {
			fail(ps, start, "Syntax error: invalid int literal");
			ps->t.type = T_ERROR;
			return;
		}
		ps->t.u = v;
		goto suffix;
	}
	while (i < ps->len && is_digit(s[i]))
		i++;
	if (i + 1 < ps->len && s[i] == '.' && is_digit(s[i + 1])) {
		isdbl = 1;
		for (i++; i < ps->len && is_digit(s[i]); i++)
			;
	}
	if (i < ps->len && (s[i] == 'e' || s[i] == 'E')) {
		size_t j = i + 1;

		if (j < ps->len && (s[j] == '+' || s[j] == '-'))
			j++;
		if (j < ps->len && is_digit(s[j])) {
			isdbl = 1;
			for (i = j; i < ps->len && is_digit(s[i]); i++)
				;
		}
	}
	if (isdbl) {
		if (i - start >= sizeof tmp) {
			fail(ps, start, "Syntax error: invalid double literal");
			ps->t.type = T_ERROR;
			return;
		}
		memcpy(tmp, s + start, i - start);
		tmp[i - start] = '\0';
		ps->t.d = strtod(tmp, NULL);
		ps->t.type = T_DOUBLE;
		ps->pos = i;
		return;
	} else {
		uint64_t v = 0;
		size_t	 j;

		for (j = start; j < i; j++) {
			if (v > (UINT64_MAX - (uint64_t)(s[j] - '0')) / 10) {
				fail(ps, start, "Syntax error: invalid int "
				    "literal");
				ps->t.type = T_ERROR;
				return;
			}
			v = v * 10 + (uint64_t)(s[j] - '0');
		}
		ps->t.u = v;
	}
suffix:
	if (i < ps->len && (s[i] == 'u' || s[i] == 'U')) {
		ps->t.type = T_UINT;
		i++;
	} else
		ps->t.type = T_INT;
	ps->pos = i;
}


/* Advance to the next token. */
static void
next(struct parser *ps)
{
	const char	*s = ps->s;
	size_t		 i;

	if (ps->t.type == T_ERROR)
		return;
	for (;;) {
		while (ps->pos < ps->len && (s[ps->pos] == ' ' ||
		    s[ps->pos] == '\t' || s[ps->pos] == '\n' ||
		    s[ps->pos] == '\r' || s[ps->pos] == '\f'))
			ps->pos++;
		if (ps->pos + 1 < ps->len && s[ps->pos] == '/' &&
		    s[ps->pos + 1] == '/') {
			while (ps->pos < ps->len && s[ps->pos] != '\n')
				ps->pos++;
			continue;
		}
		break;
	}
	ps->t.off = ps->pos;
	ps->t.s = NULL;
	if (ps->pos >= ps->len) {
		ps->t.type = T_EOF;
		ps->t.len = 0;
		return;
	}
	i = ps->pos;
	if (is_ident_start(s[i])) {
		if ((s[i] == 'r' || s[i] == 'R' || s[i] == 'b' ||
		    s[i] == 'B') && i + 1 < ps->len) {
			int raw = 0, bytes = 0;
			size_t j = i;

			while (j < ps->len && j < i + 2 &&
			    strchr("rRbB", s[j]) != NULL) {
				if (s[j] == 'r' || s[j] == 'R')
					raw++;
				else
					bytes++;
				j++;
			}
			if (j < ps->len && (s[j] == '"' || s[j] == '\'') &&
			    raw <= 1 && bytes <= 1) {
				ps->pos = j;
				lex_string(ps, raw, bytes);
				ps->t.len = ps->pos - ps->t.off;
				return;
			}
		}
		while (i < ps->len && (is_ident_start(s[i]) ||
		    is_digit(s[i])))
			i++;
		ps->t.len = i - ps->pos;
		ps->pos = i;
		ps->t.type = T_IDENT;
		if (ps->t.len == 4 && memcmp(s + ps->t.off, "true", 4) == 0)
			ps->t.type = T_TRUE;
		else if (ps->t.len == 5 &&
		    memcmp(s + ps->t.off, "false", 5) == 0)
			ps->t.type = T_FALSE;
		else if (ps->t.len == 4 &&
		    memcmp(s + ps->t.off, "null", 4) == 0)
			ps->t.type = T_NULL;
		else if (ps->t.len == 2 && memcmp(s + ps->t.off, "in", 2) == 0)
			ps->t.type = T_IN;
		return;
	}
	if (is_digit(s[i]) || (s[i] == '.' && i + 1 < ps->len &&
	    is_digit(s[i + 1]))) {
		lex_number(ps);
		ps->t.len = ps->pos - ps->t.off;
		return;
	}
	if (s[i] == '"' || s[i] == '\'') {
		lex_string(ps, 0, 0);
		ps->t.len = ps->pos - ps->t.off;
		return;
	}
#define TWO(a, b) (s[i] == (a) && i + 1 < ps->len && s[i + 1] == (b))
	ps->t.len = 2;
	if (TWO('=', '='))
		ps->t.type = T_EQ;
	else if (TWO('!', '='))
		ps->t.type = T_NE;
	else if (TWO('<', '='))
		ps->t.type = T_LE;
	else if (TWO('>', '='))
		ps->t.type = T_GE;
	else if (TWO('&', '&'))
		ps->t.type = T_AND;
	else if (TWO('|', '|'))
		ps->t.type = T_OR;
	else {
		ps->t.len = 1;
		switch (s[i]) {
		case '(': ps->t.type = T_LPAREN; break;
		case ')': ps->t.type = T_RPAREN; break;
		case '[': ps->t.type = T_LBRACK; break;
		case ']': ps->t.type = T_RBRACK; break;
		case '{': ps->t.type = T_LBRACE; break;
		case '}': ps->t.type = T_RBRACE; break;
		case '.': ps->t.type = T_DOT; break;
		case ',': ps->t.type = T_COMMA; break;
		case ':': ps->t.type = T_COLON; break;
		case '?': ps->t.type = T_QUESTION; break;
		case '!': ps->t.type = T_NOT; break;
		case '-': ps->t.type = T_MINUS; break;
		case '+': ps->t.type = T_PLUS; break;
		case '*': ps->t.type = T_STAR; break;
		case '/': ps->t.type = T_SLASH; break;
		case '%': ps->t.type = T_PERCENT; break;
		case '<': ps->t.type = T_LT; break;
		case '>': ps->t.type = T_GT; break;
		case '`':
			/* cel-go's optional quoted identifiers. */
			unsupported(ps, i, "quoted identifier");
			ps->stopped = ps->failed = 1;
			ps->t.type = T_ERROR;
			return;
		default:
			fail(ps, i, "Syntax error: token recognition error at: "
			    "'%c'", s[i]);
			ps->t.type = T_ERROR;
			return;
		}
	}
#undef TWO
	ps->pos += ps->t.len;
}

/* cel-go parser reservedIds: not usable as identifiers. */
static const char *const reserved[] = {
	"as", "break", "const", "continue", "else", "for", "function", "if",
	"import", "let", "loop", "package", "namespace", "return", "var",
	"void", "while", NULL,
};

/* Static types. */

static struct cel_type
ty(int k)
{
	struct cel_type t = { (uint8_t)k, CT_DYN, CT_DYN, CT_DYN };

	return t;
}

static struct cel_type
ty2(int k, int p1, int p2)
{
	struct cel_type t = { (uint8_t)k, (uint8_t)p1, (uint8_t)p2, CT_DYN };

	return t;
}

static const char *
kind_name(int k)
{
	switch (k) {
	case CT_BOOL:		return "bool";
	case CT_INT:		return "int";
	case CT_UINT:		return "uint";
	case CT_DOUBLE:		return "double";
	case CT_STRING:		return "string";
	case CT_BYTES:		return "bytes";
	case CT_NULL:		return "null";
	case CT_ANY:		return "any";
	case CT_LIST:		return "list";
	case CT_MAP:		return "map";
	case CT_QUANTITY:	return "kubernetes.Quantity";
	case CT_SEMVER:		return "kubernetes.Semver";
	case CT_OPTIONAL:	return "optional_type";
	case CT_DEVICE:		return "kubernetes.DRADevice";
	case CT_TYPE:		return "type";
	default:		return "dyn";
	}
}

/* A parameter kind as cel-go prints it (nested lists/maps as dyn). */
static const char *
param_name(int k)
{
	if (k == CT_LIST)
		return "list(dyn)";
	if (k == CT_MAP)
		return "map(dyn, dyn)";
	if (k == CT_OPTIONAL)
		return "optional_type(dyn)";
	return kind_name(k);
}

const char *
cel_type_name(struct cel_type t, char *buf, size_t len)
{
	switch (t.k) {
	case CT_LIST:
		snprintf(buf, len, "list(%s)", param_name(t.p1));
		break;
	case CT_OPTIONAL:
		snprintf(buf, len, "optional_type(%s)", param_name(t.p1));
		break;
	case CT_MAP:
		if (t.p2 == CT_MAP)
			snprintf(buf, len, "map(%s, map(string, %s))",
			    kind_name(t.p1), param_name(t.p3));
		else
			snprintf(buf, len, "map(%s, %s)", kind_name(t.p1),
			    param_name(t.p2));
		break;
	default:
		snprintf(buf, len, "%s", kind_name(t.k));
		break;
	}
	return buf;
}

/* Can a value of static type a be used where b is expected? */
static int
kind_ok(int a, int b)
{
	return WILD(a) || WILD(b) || a == b;
}

static int
type_ok(struct cel_type a, struct cel_type b)
{
	if (!kind_ok(a.k, b.k))
		return 0;
	if (a.k != b.k)
		return 1;
	if (a.k == CT_LIST || a.k == CT_OPTIONAL)
		return kind_ok(a.p1, b.p1);
	if (a.k == CT_MAP)
		return kind_ok(a.p1, b.p1) && kind_ok(a.p2, b.p2);
	return 1;
}

/* The type of an element of a value of type t (list item, map value). */
static struct cel_type
elem_type(struct cel_type t)
{
	if (t.k == CT_LIST || t.k == CT_OPTIONAL)
		return ty(t.p1);
	if (t.k == CT_MAP) {
		if (t.p2 == CT_MAP)
			return ty2(CT_MAP, CT_STRING, t.p3);
		return ty(t.p2);
	}
	return ty_dyn;
}

/* Nodes. */

static int32_t
node_new(struct parser *ps, int op, size_t off)
{
	struct dra_cel	*p = ps->p;
	struct cel_node	*n;

	if (p->nnodes == p->anodes) {
		p->anodes = p->anodes ? p->anodes * 2 : 32;
		p->nodes = xreallocarray(p->nodes, p->anodes, sizeof *n);
	}
	n = &p->nodes[p->nnodes];
	memset(n, 0, sizeof *n);
	n->op = (uint8_t)op;
	n->col = (uint32_t)off + 1;
	n->a = n->b = n->c = -1;
	n->ty = ty_dyn;
	return (int32_t)p->nnodes++;
}

#define NODE(ps, i)	(&(ps)->p->nodes[(i)])

/* Append the list of nargs node indices in v to p->args. */
static void
set_args(struct parser *ps, int32_t n, const int32_t *v, size_t nv)
{
	struct dra_cel *p = ps->p;

	while (p->nargs + nv > p->aargs) {
		p->aargs = p->aargs ? p->aargs * 2 : 32;
		p->args = xreallocarray(p->args, p->aargs, sizeof *p->args);
	}
	NODE(ps, n)->args = (uint32_t)p->nargs;
	NODE(ps, n)->nargs = (uint32_t)nv;
	if (nv > 0)
		memcpy(p->args + p->nargs, v, nv * sizeof *v);
	p->nargs += nv;
}

static int
accept(struct parser *ps, enum tok_type t)
{
	if (ps->t.type != t)
		return 0;
	next(ps);
	return 1;
}

static const char *
tok_text(const struct parser *ps, char *buf, size_t len)
{
	if (ps->t.type == T_EOF)
		return "<EOF>";
	snprintf(buf, len, "%.*s", (int)(ps->t.len > 40 ? 40 : ps->t.len),
	    ps->s + ps->t.off);
	return buf;
}

static int
expect(struct parser *ps, enum tok_type t, const char *what)
{
	char	buf[64];

	if (ps->t.type == t) {
		next(ps);
		return 1;
	}
	if (ps->t.type != T_ERROR)
		fail(ps, ps->t.off, "Syntax error: mismatched input '%s' "
		    "expecting %s", tok_text(ps, buf, sizeof buf), what);
	return 0;
}

/* "found no matching overload" for an operator over types in v[]. */
static void
no_overload(struct parser *ps, size_t off, const char *name,
    const struct cel_type *v, int nv)
{
	char	sig[256], tb[64];
	size_t	o = 0;
	int	i;

	sig[o++] = '(';
	for (i = 0; i < nv; i++)
		o += (size_t)snprintf(sig + o, sizeof sig - o, "%s%s",
		    i ? ", " : "", cel_type_name(v[i], tb, sizeof tb));
	snprintf(sig + o, sizeof sig - o, ")");
	fail(ps, off, "found no matching overload for '%s' applied to '%s'",
	    name, sig);
}

/* Function signatures for the checker. */

struct sig {
	const char	*name;
	uint8_t		 fn;
	uint8_t		 member;	/* receiver is recv */
	uint8_t		 nargs;
	uint8_t		 recv;
	uint8_t		 arg[3];
	uint8_t		 res;
};

#define D	CT_DYN
#define B	CT_BOOL
#define I	CT_INT
#define U	CT_UINT
#define F	CT_DOUBLE
#define S	CT_STRING
#define Y	CT_BYTES
#define L	CT_LIST
#define M	CT_MAP
#define Q	CT_QUANTITY
#define V	CT_SEMVER
#define O	CT_OPTIONAL

static const struct sig sigs[] = {
	{ "size", F_SIZE, 0, 1, 0, { S }, I },
	{ "size", F_SIZE, 0, 1, 0, { Y }, I },
	{ "size", F_SIZE, 0, 1, 0, { L }, I },
	{ "size", F_SIZE, 0, 1, 0, { M }, I },
	{ "size", F_SIZE, 1, 0, S, { 0 }, I },
	{ "size", F_SIZE, 1, 0, Y, { 0 }, I },
	{ "size", F_SIZE, 1, 0, L, { 0 }, I },
	{ "size", F_SIZE, 1, 0, M, { 0 }, I },
	{ "startsWith", F_STARTS_WITH, 1, 1, S, { S }, B },
	{ "endsWith", F_ENDS_WITH, 1, 1, S, { S }, B },
	{ "contains", F_CONTAINS, 1, 1, S, { S }, B },
	{ "matches", F_MATCHES, 1, 1, S, { S }, B },
	{ "matches", F_MATCHES, 0, 2, 0, { S, S }, B },
	{ "lowerAscii", F_LOWER_ASCII, 1, 0, S, { 0 }, S },
	{ "upperAscii", F_UPPER_ASCII, 1, 0, S, { 0 }, S },
	{ "trim", F_TRIM, 1, 0, S, { 0 }, S },
	{ "replace", F_REPLACE, 1, 2, S, { S, S }, S },
	{ "replace", F_REPLACE, 1, 3, S, { S, S, I }, S },
	{ "split", F_SPLIT, 1, 1, S, { S }, L },
	{ "split", F_SPLIT, 1, 2, S, { S, I }, L },
	{ "indexOf", F_INDEX_OF, 1, 1, S, { S }, I },
	{ "indexOf", F_INDEX_OF, 1, 2, S, { S, I }, I },
	{ "indexOf", F_INDEX_OF, 1, 1, L, { D }, I },
	{ "lastIndexOf", F_LAST_INDEX_OF, 1, 1, S, { S }, I },
	{ "lastIndexOf", F_LAST_INDEX_OF, 1, 2, S, { S, I }, I },
	{ "lastIndexOf", F_LAST_INDEX_OF, 1, 1, L, { D }, I },
	{ "substring", F_SUBSTRING, 1, 1, S, { I }, S },
	{ "substring", F_SUBSTRING, 1, 2, S, { I, I }, S },
	{ "charAt", F_CHAR_AT, 1, 1, S, { I }, S },
	{ "join", F_JOIN, 1, 0, L, { 0 }, S },
	{ "join", F_JOIN, 1, 1, L, { S }, S },
	{ "quantity", F_QUANTITY, 0, 1, 0, { S }, Q },
	{ "isQuantity", F_IS_QUANTITY, 0, 1, 0, { S }, B },
	{ "semver", F_SEMVER, 0, 1, 0, { S }, V },
	{ "semver", F_SEMVER, 0, 2, 0, { S, B }, V },
	{ "isSemver", F_IS_SEMVER, 0, 1, 0, { S }, B },
	{ "isSemver", F_IS_SEMVER, 0, 2, 0, { S, B }, B },
	{ "compareTo", F_COMPARE_TO, 1, 1, Q, { Q }, I },
	{ "compareTo", F_COMPARE_TO, 1, 1, V, { V }, I },
	{ "isLessThan", F_IS_LESS_THAN, 1, 1, Q, { Q }, B },
	{ "isLessThan", F_IS_LESS_THAN, 1, 1, V, { V }, B },
	{ "isGreaterThan", F_IS_GREATER_THAN, 1, 1, Q, { Q }, B },
	{ "isGreaterThan", F_IS_GREATER_THAN, 1, 1, V, { V }, B },
	{ "add", F_ADD, 1, 1, Q, { Q }, Q },
	{ "add", F_ADD, 1, 1, Q, { I }, Q },
	{ "sub", F_SUB, 1, 1, Q, { Q }, Q },
	{ "sub", F_SUB, 1, 1, Q, { I }, Q },
	{ "sign", F_SIGN, 1, 0, Q, { 0 }, I },
	{ "isInteger", F_IS_INTEGER, 1, 0, Q, { 0 }, B },
	{ "asInteger", F_AS_INTEGER, 1, 0, Q, { 0 }, I },
	{ "asApproximateFloat", F_AS_APPROXIMATE_FLOAT, 1, 0, Q, { 0 }, F },
	{ "major", F_MAJOR, 1, 0, V, { 0 }, I },
	{ "minor", F_MINOR, 1, 0, V, { 0 }, I },
	{ "patch", F_PATCH, 1, 0, V, { 0 }, I },
	{ "includes", F_INCLUDES, 1, 1, D, { D }, B },
	{ "int", F_INT, 0, 1, 0, { I }, I },
	{ "int", F_INT, 0, 1, 0, { U }, I },
	{ "int", F_INT, 0, 1, 0, { F }, I },
	{ "int", F_INT, 0, 1, 0, { S }, I },
	{ "uint", F_UINT, 0, 1, 0, { I }, U },
	{ "uint", F_UINT, 0, 1, 0, { U }, U },
	{ "uint", F_UINT, 0, 1, 0, { F }, U },
	{ "uint", F_UINT, 0, 1, 0, { S }, U },
	{ "double", F_DOUBLE, 0, 1, 0, { I }, F },
	{ "double", F_DOUBLE, 0, 1, 0, { U }, F },
	{ "double", F_DOUBLE, 0, 1, 0, { F }, F },
	{ "double", F_DOUBLE, 0, 1, 0, { S }, F },
	{ "string", F_STRING, 0, 1, 0, { S }, S },
	{ "string", F_STRING, 0, 1, 0, { I }, S },
	{ "string", F_STRING, 0, 1, 0, { U }, S },
	{ "string", F_STRING, 0, 1, 0, { F }, S },
	{ "string", F_STRING, 0, 1, 0, { B }, S },
	{ "string", F_STRING, 0, 1, 0, { Y }, S },
	{ "bool", F_BOOL, 0, 1, 0, { B }, B },
	{ "bool", F_BOOL, 0, 1, 0, { S }, B },
	{ "bytes", F_BYTES, 0, 1, 0, { Y }, Y },
	{ "bytes", F_BYTES, 0, 1, 0, { S }, Y },
	{ "dyn", F_DYN, 0, 1, 0, { D }, D },
	{ "type", F_TYPE, 0, 1, 0, { D }, CT_TYPE },
	{ "optional.of", F_OPT_OF, 0, 1, 0, { D }, O },
	{ "optional.none", F_OPT_NONE, 0, 0, 0, { 0 }, O },
	{ "optional.ofNonZeroValue", F_OPT_OF_NON_ZERO, 0, 1, 0, { D }, O },
	{ "orValue", F_OR_VALUE, 1, 1, O, { D }, D },
	{ "hasValue", F_HAS_VALUE, 1, 0, O, { 0 }, B },
	{ "value", F_VALUE, 1, 0, O, { 0 }, D },
	{ "or", F_OR, 1, 1, O, { O }, O },
	{ "strings.quote", F_QUOTE, 0, 1, 0, { S }, S },
	/* Kubernetes lists library (pkg/cel/library/lists.go). */
	{ "isSorted", F_IS_SORTED, 1, 0, L, { 0 }, B },
	{ "sum", F_SUM, 1, 0, L, { 0 }, D },
	{ "min", F_MIN, 1, 0, L, { 0 }, D },
	{ "max", F_MAX, 1, 0, L, { 0 }, D },
	/* cel-go ext.Lists version 3 (ext/lists.go). */
	{ "slice", F_SLICE, 1, 2, L, { I, I }, L },
	{ "flatten", F_FLATTEN, 1, 0, L, { 0 }, L },
	{ "flatten", F_FLATTEN, 1, 1, L, { I }, L },
	{ "reverse", F_REVERSE, 1, 0, L, { 0 }, L },
	{ "distinct", F_DISTINCT, 1, 0, L, { 0 }, L },
	{ "sort", F_SORT, 1, 0, L, { 0 }, L },
	{ "lists.range", F_RANGE, 0, 1, 0, { I }, L },
	/* cel-go ext.Sets (ext/sets.go). */
	{ "sets.contains", F_SETS_CONTAINS, 0, 2, 0, { L, L }, B },
	{ "sets.equivalent", F_SETS_EQUIVALENT, 0, 2, 0, { L, L }, B },
	{ "sets.intersects", F_SETS_INTERSECTS, 0, 2, 0, { L, L }, B },
	{ NULL, 0, 0, 0, 0, { 0 }, 0 },
};

#undef D
#undef B
#undef I
#undef U
#undef F
#undef S
#undef Y
#undef L
#undef M
#undef Q
#undef V
#undef O

/*
 * Resolve the call name(args) (member: recv.name(args)) against sigs.
 * Returns 1 and sets *fn and *res, 0 after reporting no matching
 * overload, -1 if the name is not one we implement.
 */
static int
resolve(struct parser *ps, size_t off, const char *name, int member,
    struct cel_type recv, const struct cel_type *at, int nargs, int *fn,
    struct cel_type *res)
{
	const struct sig	*sg;
	int			 known = 0, found = 0, i;
	struct cel_type		 r = ty_dyn;

	for (sg = sigs; sg->name != NULL; sg++) {
		if (strcmp(sg->name, name) != 0 || sg->member != member)
			continue;
		known = 1;
		if (sg->nargs != nargs)
			continue;
		if (member && !kind_ok(recv.k, sg->recv))
			continue;
		for (i = 0; i < nargs; i++)
			if (!kind_ok(at[i].k, sg->arg[i]))
				break;
		if (i < nargs)
			continue;
		if (sg->fn == F_JOIN && !kind_ok(recv.p1, CT_STRING))
			continue;
		/* sets.*(list(T), list(T)) */
		if (sg->fn >= F_SETS_CONTAINS && sg->fn <= F_SETS_INTERSECTS &&
		    !type_ok(at[0], at[1]))
			continue;
		if (!found)
			r = sg->fn == F_SPLIT ? ty2(CT_LIST, CT_STRING, 0) :
			    ty(sg->res);
		else if (r.k != sg->res)
			r = ty_dyn;
		*fn = sg->fn;
		found++;
	}
	if (!known)
		return -1;
	if (!found) {
		char	sig[256], tb[64];
		size_t	o = 0;

		if (member)
			o += (size_t)snprintf(sig, sizeof sig, "%s.",
			    cel_type_name(recv, tb, sizeof tb));
		o += (size_t)snprintf(sig + o, sizeof sig - o, "(");
		for (i = 0; i < nargs && o < sizeof sig; i++)
			o += (size_t)snprintf(sig + o, sizeof sig - o, "%s%s",
			    i ? ", " : "", cel_type_name(at[i], tb, sizeof tb));
		if (o < sizeof sig)
			snprintf(sig + o, sizeof sig - o, ")");
		fail(ps, off, "found no matching overload for '%s' applied "
		    "to '%s'", name, sig);
		return 0;
	}
	/* Generic results. */
	switch (*fn) {
	case F_OR_VALUE:
	case F_VALUE:
		r = recv.k == CT_OPTIONAL ? elem_type(recv) : ty_dyn;
		if (*fn == F_OR_VALUE && !type_ok(r, at[0]))
			r = ty_dyn;
		break;
	case F_OPT_OF:
	case F_OPT_OF_NON_ZERO:
		r = ty2(CT_OPTIONAL, at[0].k, 0);
		break;
	case F_OR:
		r = recv;
		break;
	case F_SUM:
	case F_MIN:
	case F_MAX:
		r = recv.k == CT_LIST ? elem_type(recv) : ty_dyn;
		break;
	case F_SLICE:
	case F_REVERSE:
	case F_DISTINCT:
	case F_SORT:
		r = recv.k == CT_LIST ? recv : ty2(CT_LIST, CT_DYN, 0);
		break;
	case F_RANGE:
		r = ty2(CT_LIST, CT_INT, 0);
		break;
	}
	*res = r;
	return 1;
}

/* Expressions. */

static int
enter(struct parser *ps)
{
	if (++ps->depth > CEL_MAX_DEPTH) {
		unsupported(ps, ps->t.off, "nesting deeper than %d",
		    CEL_MAX_DEPTH);
		ps->failed = ps->stopped = 1;
		return 0;
	}
	return 1;
}

/* Parse "(" args ")" after the '(' was consumed; up to max args. */
static int
parse_args(struct parser *ps, int32_t *v, int max)
{
	int	n = 0;

	if (ps->t.type == T_RPAREN) {
		next(ps);
		return 0;
	}
	for (;;) {
		int32_t a = parse_expr(ps);

		if (ps->failed)
			return -1;
		if (n < max)
			v[n] = a;
		n++;
		if (!accept(ps, T_COMMA))
			break;
	}
	if (!expect(ps, T_RPAREN, "{',', ')'}"))
		return -1;
	return n;
}

static int
lookup_var(struct parser *ps, const char *name, size_t n)
{
	int	i;

	for (i = ps->nscope - 1; i >= 0; i--)
		if (ps->scope[i].n == n && memcmp(ps->scope[i].name, name,
		    n) == 0)
			return i;
	return -1;
}

/* A select of field (s, n) on node a, at offset off. */
static int32_t
make_select(struct parser *ps, int32_t a, const char *name, size_t nname,
    size_t off, int optional)
{
	int32_t		 n = node_new(ps, N_SELECT, off);
	struct cel_type	 at = NODE(ps, a)->ty, r = ty_dyn;
	char		 tb[64];
	char		*f = dra_arena_strndup(&ps->p->arena, name, nname);

	NODE(ps, n)->a = a;
	NODE(ps, n)->flags = optional ? CEL_F_OPTIONAL : 0;
	NODE(ps, n)->lit.k = CV_STRING;
	NODE(ps, n)->lit.s = f;
	NODE(ps, n)->lit.n = (uint32_t)nname;
	if (at.k == CT_OPTIONAL)
		at = elem_type(at);
	switch (at.k) {
	case CT_DEVICE:
		if (strcmp(f, "driver") == 0)
			r = ty(CT_STRING);
		else if (strcmp(f, "attributes") == 0) {
			r = ty2(CT_MAP, CT_STRING, CT_MAP);
			r.p3 = CT_ANY;
		} else if (strcmp(f, "capacity") == 0) {
			r = ty2(CT_MAP, CT_STRING, CT_MAP);
			r.p3 = CT_QUANTITY;
		} else if (strcmp(f, "allowMultipleAllocations") == 0)
			r = ty(CT_BOOL);
		else
			fail(ps, off, "undefined field '%s'", f);
		break;
	case CT_MAP:
		if (!kind_ok(at.p1, CT_STRING))
			no_overload(ps, off, "_[_]", (struct cel_type[]){ at,
			    ty(CT_STRING) }, 2);
		r = elem_type(at);
		break;
	case CT_DYN:
	case CT_ANY:
		break;
	default:
		fail(ps, off, "type '%s' does not support field selection",
		    cel_type_name(at, tb, sizeof tb));
		break;
	}
	if (optional || NODE(ps, a)->ty.k == CT_OPTIONAL)
		r = ty2(CT_OPTIONAL, r.k, 0);
	NODE(ps, n)->ty = r;
	return n;
}

/* An index a[b] at offset off. */
static int32_t
make_index(struct parser *ps, int32_t a, int32_t b, size_t off,
    int optional)
{
	int32_t		 n = node_new(ps, N_INDEX, off);
	struct cel_type	 at = NODE(ps, a)->ty, bt = NODE(ps, b)->ty;
	struct cel_type	 r = ty_dyn;

	NODE(ps, n)->a = a;
	NODE(ps, n)->b = b;
	NODE(ps, n)->flags = optional ? CEL_F_OPTIONAL : 0;
	if (at.k == CT_OPTIONAL)
		at = elem_type(at);
	switch (at.k) {
	case CT_LIST:
		/* cel-go stdlib: index_list is (list(A), int) only. */
		if (!kind_ok(bt.k, CT_INT))
			no_overload(ps, off, "_[_]", (struct cel_type[]){ at,
			    bt }, 2);
		r = elem_type(at);
		break;
	case CT_MAP:
		if (!kind_ok(bt.k, at.p1))
			no_overload(ps, off, "_[_]", (struct cel_type[]){ at,
			    bt }, 2);
		r = elem_type(at);
		break;
	case CT_DYN:
	case CT_ANY:
		break;
	default:
		no_overload(ps, off, "_[_]", (struct cel_type[]){ at, bt }, 2);
		break;
	}
	if (optional || NODE(ps, a)->ty.k == CT_OPTIONAL)
		r = ty2(CT_OPTIONAL, r.k, 0);
	NODE(ps, n)->ty = r;
	return n;
}

/* The range type of a comprehension and its iteration variable type. */
static struct cel_type
range_var_type(struct parser *ps, int32_t range, size_t off)
{
	struct cel_type	 rt = NODE(ps, range)->ty;
	char		 tb[64];

	switch (rt.k) {
	case CT_LIST:
		return ty(rt.p1);
	case CT_MAP:
		return ty(rt.p1);
	case CT_DYN:
	case CT_ANY:
		return ty_dyn;
	default:
		fail(ps, off, "expression of type '%s' cannot be range of a "
		    "comprehension (must be list, map, or dynamic)",
		    cel_type_name(rt, tb, sizeof tb));
		return ty_dyn;
	}
}

static int
push_var(struct parser *ps, int32_t ident, struct cel_type t, size_t off)
{
	struct scope	*sc;

	if (ps->nscope >= CEL_MAX_SLOTS || ps->p->nslots >= CEL_MAX_SLOTS) {
		unsupported(ps, off, "more than %d bound variables",
		    CEL_MAX_SLOTS);
		ps->failed = ps->stopped = 1;
		return -1;
	}
	sc = &ps->scope[ps->nscope++];
	sc->name = NODE(ps, ident)->lit.s;
	sc->n = NODE(ps, ident)->lit.n;
	sc->slot = ps->p->nslots++;
	sc->ty = t;
	return sc->slot;
}

/*
 * The argument of a macro that names a variable must be a simple
 * identifier; parse_primary leaves it as an unresolved N_VAR with its
 * name in lit.  Taking it marks it as a name.
 */
static int
is_ident_arg(struct parser *ps, int32_t a)
{
	if (NODE(ps, a)->op != N_VAR || NODE(ps, a)->slot != SLOT_UNRESOLVED)
		return 0;
	NODE(ps, a)->slot = SLOT_NAME;
	return 1;
}

/*
 * The number of arguments of the call whose '(' was just consumed,
 * found by scanning ahead to the matching ')': cel-go picks a macro by
 * its arity (all with two arguments, or three in the two-variable
 * form).  The lexer state is restored afterwards.
 */
static int
count_args(struct parser *ps)
{
	size_t		save = ps->pos;
	struct tok	st = ps->t;
	int		depth = 0, n = 0, failed = ps->failed;

	if (ps->t.type == T_RPAREN)
		return 0;
	n = 1;
	while (ps->t.type != T_EOF && ps->t.type != T_ERROR) {
		enum tok_type t = ps->t.type;

		if (t == T_LPAREN || t == T_LBRACK || t == T_LBRACE)
			depth++;
		else if (t == T_RPAREN || t == T_RBRACK || t == T_RBRACE) {
			if (depth-- == 0)
				break;
		} else if (t == T_COMMA && depth == 0)
			n++;
		next(ps);
	}
	/* Lexing errors are found again when the arguments are parsed. */
	ps->failed = failed;
	ps->pos = save;
	ps->t = st;
	return n;
}

/* Parse a macro's variable-name argument and the ',' after it. */
static int32_t
parse_var_name(struct parser *ps)
{
	int32_t	v = parse_expr(ps);

	if (ps->failed)
		return -1;
	if (!is_ident_arg(ps, v)) {
		fail(ps, NODE(ps, v)->col - 1, "argument must be a simple "
		    "name");
		return -1;
	}
	if (!expect(ps, T_COMMA, "','"))
		return -1;
	return v;
}

/*
 * Parse a macro call recv.name( with nargs arguments, after the '(' at
 * offset off: all, exists, exists_one, map, filter (cel-go
 * parser/macro.go) and, with three or four arguments, the two-variable
 * forms of ext.TwoVarComprehensions (all, exists, existsOne,
 * transformList, transformMap), which bind an index or key and a
 * value.
 */
static int32_t
parse_comprehension(struct parser *ps, int32_t recv, int fn, int nargs,
    size_t off)
{
	int32_t		 n, var, var2 = -1, e1, e2 = -1;
	struct cel_type	 vt, vt2 = ty_dyn, t1, rt = NODE(ps, recv)->ty;
	int		 slot, slot2 = 0, two;

	two = fn == F_TRANSFORM_LIST || fn == F_TRANSFORM_MAP ||
	    ((fn == F_ALL || fn == F_EXISTS || fn == F_EXISTS_ONE) &&
	    nargs == 3);
	if ((var = parse_var_name(ps)) < 0)
		return -1;
	if (two && (var2 = parse_var_name(ps)) < 0)
		return -1;
	if (fn == F_OPT_MAP || fn == F_OPT_FLAT_MAP) {
		if (!kind_ok(rt.k, CT_OPTIONAL))
			no_overload(ps, off, fn == F_OPT_MAP ? "optMap" :
			    "optFlatMap", &rt, 1);
		vt = elem_type(rt);
	} else
		vt = range_var_type(ps, recv, off);
	if (two) {
		if (rt.k == CT_LIST) {
			vt2 = vt;
			vt = ty(CT_INT);
		} else if (rt.k == CT_MAP)
			vt2 = elem_type(rt);
	}
	if ((slot = push_var(ps, var, vt, off)) < 0)
		return -1;
	if (two && (slot2 = push_var(ps, var2, vt2, off)) < 0)
		return -1;
	e1 = parse_expr(ps);
	if (!ps->failed && (fn == F_MAP || fn == F_TRANSFORM_LIST ||
	    fn == F_TRANSFORM_MAP) && accept(ps, T_COMMA))
		e2 = parse_expr(ps);
	ps->nscope -= two ? 2 : 1;
	if (ps->failed || !expect(ps, T_RPAREN, "')'"))
		return -1;
	n = node_new(ps, N_COMP, off);
	NODE(ps, n)->sub = (uint8_t)fn;
	NODE(ps, n)->slot = (uint8_t)slot;
	NODE(ps, n)->slot2 = (uint8_t)slot2;
	NODE(ps, n)->flags = two ? CEL_F_TWO_VAR : 0;
	NODE(ps, n)->a = recv;
	t1 = NODE(ps, e1)->ty;
	switch (fn) {
	case F_ALL:
	case F_EXISTS:
	case F_EXISTS_ONE:
	case F_FILTER:
		if (!kind_ok(t1.k, CT_BOOL))
			no_overload(ps, NODE(ps, e1)->col - 1, "_&&_",
			    (struct cel_type[]){ ty(CT_BOOL), t1 }, 2);
		NODE(ps, n)->b = e1;
		NODE(ps, n)->ty = fn == F_FILTER ? ty2(CT_LIST, vt.k, 0) :
		    ty(CT_BOOL);
		break;
	case F_OPT_MAP:
		NODE(ps, n)->b = e1;
		NODE(ps, n)->ty = ty2(CT_OPTIONAL, t1.k, 0);
		break;
	case F_SORT_BY:
		NODE(ps, n)->b = e1;
		NODE(ps, n)->ty = rt.k == CT_LIST ? rt :
		    ty2(CT_LIST, CT_DYN, 0);
		break;
	case F_OPT_FLAT_MAP:
		if (!kind_ok(t1.k, CT_OPTIONAL))
			no_overload(ps, NODE(ps, e1)->col - 1, "optFlatMap",
			    &t1, 1);
		NODE(ps, n)->b = e1;
		NODE(ps, n)->ty = t1;
		break;
	default:
		if (e2 >= 0) {
			if (!kind_ok(t1.k, CT_BOOL))
				no_overload(ps, NODE(ps, e1)->col - 1, "_?_:_",
				    (struct cel_type[]){ t1 }, 1);
			NODE(ps, n)->c = e1;
			NODE(ps, n)->b = e2;
		} else
			NODE(ps, n)->b = e1;
		NODE(ps, n)->ty = fn == F_TRANSFORM_MAP ?
		    ty2(CT_MAP, vt.k, NODE(ps, NODE(ps, n)->b)->ty.k) :
		    ty2(CT_LIST, NODE(ps, NODE(ps, n)->b)->ty.k, 0);
		break;
	}
	return n;
}

/* cel.bind(var, init, expr) after the '(' at off. */
static int32_t
parse_bind(struct parser *ps, size_t off)
{
	int32_t	n, var, init, body;
	int	slot;

	var = parse_expr(ps);
	if (ps->failed)
		return -1;
	if (!is_ident_arg(ps, var)) {
		fail(ps, NODE(ps, var)->col - 1, "cel.bind() variable name "
		    "must be a simple identifier");
		return -1;
	}
	if (!expect(ps, T_COMMA, "','"))
		return -1;
	init = parse_expr(ps);
	if (ps->failed || !expect(ps, T_COMMA, "','"))
		return -1;
	if ((slot = push_var(ps, var, NODE(ps, init)->ty, off)) < 0)
		return -1;
	body = parse_expr(ps);
	ps->nscope--;
	if (ps->failed || !expect(ps, T_RPAREN, "')'"))
		return -1;
	n = node_new(ps, N_BIND, off);
	NODE(ps, n)->slot = (uint8_t)slot;
	NODE(ps, n)->a = init;
	NODE(ps, n)->b = body;
	NODE(ps, n)->ty = NODE(ps, body)->ty;
	return n;
}

/*
 * A call of function name (recv is -1 for a global call) whose '(' is
 * at off and has been consumed.
 */
static int32_t
parse_call(struct parser *ps, int32_t recv, const char *name, size_t off,
    size_t name_off)
{
	int32_t		 v[CEL_MAX_ARGS], n;
	struct cel_type	 at[CEL_MAX_ARGS], rt = ty_dyn, res;
	int		 nargs, i, fn = 0, r;

	if (recv >= 0) {
		/* Macros and the argument counts they take. */
		static const struct {
			const char	*name;
			int		 fn, min, max;
		} macros[] = {
			{ "all", F_ALL, 2, 3 }, { "exists", F_EXISTS, 2, 3 },
			{ "exists_one", F_EXISTS_ONE, 2, 3 },
			{ "existsOne", F_EXISTS_ONE, 3, 3 },
			{ "map", F_MAP, 2, 3 }, { "filter", F_FILTER, 2, 2 },
			{ "transformList", F_TRANSFORM_LIST, 3, 4 },
			{ "transformMap", F_TRANSFORM_MAP, 3, 4 },
			{ "optMap", F_OPT_MAP, 2, 2 },
			{ "sortBy", F_SORT_BY, 2, 2 },
			{ "optFlatMap", F_OPT_FLAT_MAP, 2, 2 },
		};
		int	na = -1;

		for (i = 0; i < (int)(sizeof macros / sizeof macros[0]); i++) {
			if (strcmp(name, macros[i].name) != 0)
				continue;
			if (na < 0)
				na = count_args(ps);
			if (na >= macros[i].min && na <= macros[i].max)
				return parse_comprehension(ps, recv,
				    macros[i].fn, na, off);
		}
		rt = NODE(ps, recv)->ty;
	} else if (strcmp(name, "has") == 0) {
		int32_t a;

		if ((nargs = parse_args(ps, v, 1)) < 0)
			return -1;
		a = v[0];
		if (nargs != 1 || NODE(ps, a)->op != N_SELECT ||
		    (NODE(ps, a)->flags & CEL_F_OPTIONAL)) {
			fail(ps, off, "invalid argument to has() macro");
			return -1;
		}
		NODE(ps, a)->op = N_HAS;
		NODE(ps, a)->ty = ty(CT_BOOL);
		return a;
	} else if (strcmp(name, "cel.bind") == 0)
		return parse_bind(ps, off);
	if ((nargs = parse_args(ps, v, CEL_MAX_ARGS)) < 0)
		return -1;
	n = node_new(ps, N_CALL, off);
	NODE(ps, n)->a = recv;
	if (nargs > CEL_MAX_ARGS) {
		unsupported(ps, name_off, "function '%s' with %d arguments",
		    name, nargs);
		return n;
	}
	set_args(ps, n, v, (size_t)nargs);
	for (i = 0; i < nargs; i++)
		at[i] = NODE(ps, v[i])->ty;
	r = resolve(ps, off, name, recv >= 0, rt, at, nargs, &fn, &res);
	if (r < 0) {
		unsupported(ps, name_off, "function '%s'", name);
		return n;
	}
	if (r == 0)
		return n;
	NODE(ps, n)->sub = (uint8_t)fn;
	NODE(ps, n)->ty = res;
	fold_literal(ps, n, v, nargs);
	/* A literal pattern is compiled once, here. */
	if (fn == F_MATCHES)
		cel_regex_context(ps->p);
	if (fn == F_MATCHES && NODE(ps, v[nargs - 1])->op == N_LIT &&
	    NODE(ps, v[nargs - 1])->lit.k == CV_STRING) {
		const char	*why = NULL;
		struct cel_val	*lit = &NODE(ps, v[nargs - 1])->lit;
		void		*re;

		re = cel_regex_compile(ps->p, lit->s, lit->n, &why);
		if (re == NULL)
			unsupported(ps, NODE(ps, v[nargs - 1])->col - 1,
			    "regular expression: %s", why);
		NODE(ps, n)->re = re;
	}
	return n;
}

/*
 * quantity("40Gi") and semver("1.2.3") of literals become literals:
 * they are parsed once instead of on every evaluation.  A literal that
 * does not parse stays a call, to fail at run time as in cel-go.
 */
static void
fold_literal(struct parser *ps, int32_t n, const int32_t *v, int nargs)
{
	struct cel_node		*nd = NODE(ps, n);
	const struct cel_val	*a0;
	struct cel_semver	*sv;
	const char		*why;
	__int128		 q;
	int			 normalize = 0;

	if ((nd->sub != F_QUANTITY && nd->sub != F_SEMVER) ||
	    NODE(ps, v[0])->op != N_LIT || NODE(ps, v[0])->lit.k != CV_STRING)
		return;
	a0 = &NODE(ps, v[0])->lit;
	if (nd->sub == F_QUANTITY) {
		if (cel_quantity_parse(a0->s, a0->n, &q, &why) != 0)
			return;
		nd->op = N_LIT;
		memset(&nd->lit, 0, sizeof nd->lit);
		nd->lit.k = CV_QUANTITY;
		nd->lit.q = q;
		return;
	}
	if (nargs == 2) {
		if (NODE(ps, v[1])->op != N_LIT || NODE(ps, v[1])->lit.k !=
		    CV_BOOL)
			return;
		normalize = NODE(ps, v[1])->lit.b;
	}
	sv = dra_arena_alloc(&ps->p->arena, sizeof *sv);
	if (cel_semver_parse(a0->s, a0->n, normalize, sv, &why) != 0)
		return;
	nd->op = N_LIT;
	memset(&nd->lit, 0, sizeof nd->lit);
	nd->lit.k = CV_SEMVER;
	nd->lit.sv = sv;
}

/* A literal node of kind k. */
static int32_t
make_lit(struct parser *ps, size_t off, int vk, int tk)
{
	int32_t n = node_new(ps, N_LIT, off);

	NODE(ps, n)->lit.k = (uint8_t)vk;
	NODE(ps, n)->ty = ty(tk);
	return n;
}

/* The type names CEL predeclares and the value kinds they name. */
static const struct {
	const char	*name;
	int		 kind;		/* enum cel_vkind, -1: unsupported */
} type_names[] = {
	{ "int", CV_INT }, { "uint", CV_UINT }, { "double", CV_DOUBLE },
	{ "string", CV_STRING }, { "bool", CV_BOOL }, { "bytes", CV_BYTES },
	{ "list", CV_LIST }, { "map", CV_MAP }, { "null_type", CV_NULL },
	{ "type", CV_TYPE }, { "optional_type", CV_OPTIONAL },
	{ "dyn", -1 },
};

/* The type_names[] index of identifier (s, n), or -1. */
static int
type_name(const char *s, size_t n)
{
	size_t	i;

	for (i = 0; i < sizeof type_names / sizeof type_names[0]; i++)
		if (strlen(type_names[i].name) == n &&
		    memcmp(type_names[i].name, s, n) == 0)
			return (int)i;
	return -1;
}

/* Is the identifier (s, n) a type name that CEL predeclares? */
static int
is_type_name(const char *s, size_t n)
{
	return type_name(s, n) >= 0;
}

/* Wrap e, an optional value, as an optional entry of a literal. */
static int32_t
optional_entry(struct parser *ps, int32_t e, size_t off)
{
	int32_t		n = node_new(ps, N_OPT_ENTRY, off);
	struct cel_type	t = NODE(ps, e)->ty;

	if (!kind_ok(t.k, CT_OPTIONAL))
		no_overload(ps, off, "optional entry", &t, 1);
	NODE(ps, n)->a = e;
	NODE(ps, n)->ty = elem_type(t);
	return n;
}

static int32_t
parse_list_or_map(struct parser *ps, int map)
{
	size_t		 off = ps->t.off;
	int32_t		*v = NULL, n;
	size_t		 nv = 0, av = 0, i;
	struct cel_type	 et = ty_dyn, kt = ty_dyn;
	enum tok_type	 close = map ? T_RBRACE : T_RBRACK;

	next(ps);
	while (!ps->failed && ps->t.type != close) {
		int32_t	e;
		size_t	qoff = ps->t.off;
		int	opt = accept(ps, T_QUESTION);

		e = parse_expr(ps);
		if (ps->failed)
			break;
		/*
		 * An optional entry: [?e] and {?k: e} take e's value if it
		 * has one and leave the entry out for optional.none().
		 */
		if (opt && !map)
			e = optional_entry(ps, e, qoff);
		if (nv + 2 > av) {
			av = av ? av * 2 : 8;
			v = xreallocarray(v, av, sizeof *v);
		}
		v[nv++] = e;
		if (map) {
			if (!expect(ps, T_COLON, "':'"))
				break;
			e = parse_expr(ps);
			if (ps->failed)
				break;
			if (opt)
				e = optional_entry(ps, e, qoff);
			v[nv++] = e;
		}
		if (!accept(ps, T_COMMA))
			break;
	}
	if (!ps->failed)
		expect(ps, close, map ? "'}'" : "']'");
	if (ps->failed) {
		free(v);
		return -1;
	}
	n = node_new(ps, map ? N_MAP : N_LIST, off);
	set_args(ps, n, v, nv);
	/*
	 * The Kubernetes base environment sets HomogeneousAggregateLiterals:
	 * elements (and keys) must agree, dyn and any joining with all.
	 */
	for (i = 0; i < nv; i++) {
		struct cel_type	 t = NODE(ps, v[i])->ty, *have;
		char		 tb1[64], tb2[64];

		have = map && i % 2 == 0 ? &kt : &et;
		if (i < (map ? 2u : 1u) || WILD(have->k))
			*have = t;
		else if (!WILD(t.k) && !type_ok(*have, t)) {
			fail(ps, NODE(ps, v[i])->col - 1, "expected type '%s' "
			    "but found '%s'", cel_type_name(*have, tb1,
			    sizeof tb1), cel_type_name(t, tb2, sizeof tb2));
			break;
		}
	}
	NODE(ps, n)->ty = map ? ty2(CT_MAP, kt.k, et.k) :
	    ty2(CT_LIST, et.k, 0);
	free(v);
	return n;
}

static int32_t
parse_primary(struct parser *ps)
{
	size_t	 off = ps->t.off;
	int32_t	 n;
	char	 buf[64];

	switch (ps->t.type) {
	case T_INT:
		if (ps->t.u > INT64_MAX) {
			fail(ps, off, "Syntax error: invalid int literal");
			return -1;
		}
		n = make_lit(ps, off, CV_INT, CT_INT);
		NODE(ps, n)->lit.i = (int64_t)ps->t.u;
		next(ps);
		return n;
	case T_UINT:
		n = make_lit(ps, off, CV_UINT, CT_UINT);
		NODE(ps, n)->lit.u = ps->t.u;
		next(ps);
		return n;
	case T_DOUBLE:
		n = make_lit(ps, off, CV_DOUBLE, CT_DOUBLE);
		NODE(ps, n)->lit.d = ps->t.d;
		next(ps);
		return n;
	case T_STRING:
	case T_BYTES:
		n = make_lit(ps, off, ps->t.type == T_STRING ? CV_STRING :
		    CV_BYTES, ps->t.type == T_STRING ? CT_STRING : CT_BYTES);
		NODE(ps, n)->lit.s = ps->t.s;
		NODE(ps, n)->lit.n = (uint32_t)ps->t.n;
		next(ps);
		return n;
	case T_TRUE:
	case T_FALSE:
		n = make_lit(ps, off, CV_BOOL, CT_BOOL);
		NODE(ps, n)->lit.b = ps->t.type == T_TRUE;
		next(ps);
		return n;
	case T_NULL:
		n = make_lit(ps, off, CV_NULL, CT_NULL);
		next(ps);
		return n;
	case T_LPAREN:
		next(ps);
		n = parse_expr(ps);
		if (ps->failed || !expect(ps, T_RPAREN, "')'"))
			return -1;
		return n;
	case T_LBRACK:
		return parse_list_or_map(ps, 0);
	case T_LBRACE:
		return parse_list_or_map(ps, 1);
	case T_DOT:
		unsupported(ps, off, "leading '.' in a name");
		next(ps);
		if (ps->t.type != T_IDENT) {
			fail(ps, ps->t.off, "Syntax error: mismatched input "
			    "'%s' expecting IDENTIFIER", tok_text(ps, buf,
			    sizeof buf));
			return -1;
		}
		/* FALLTHROUGH */
	case T_IDENT: {
		const char	*name = ps->s + ps->t.off;
		size_t		 nlen = ps->t.len, name_off = ps->t.off;
		int		 i;
		char		 qual[128];

		/* Reserved words may name fields, not identifiers. */
		for (i = 0; reserved[i] != NULL; i++) {
			if (strlen(reserved[i]) == nlen &&
			    memcmp(reserved[i], name, nlen) == 0) {
				fail(ps, name_off, "Syntax error: reserved "
				    "identifier: %s", reserved[i]);
				return -1;
			}
		}
		next(ps);
		/* Namespaced functions: optional.of(), cel.bind(), ... */
		if (ps->t.type == T_DOT && lookup_var(ps, name, nlen) < 0 &&
		    !(nlen == 6 && memcmp(name, "device", 6) == 0)) {
			size_t save = ps->pos;
			struct tok st = ps->t;

			next(ps);
			if (ps->t.type == T_IDENT) {
				const char *fname = ps->s + ps->t.off;
				size_t flen = ps->t.len;

				next(ps);
				if (ps->t.type == T_LPAREN) {
					size_t loff = ps->t.off;

					snprintf(qual, sizeof qual, "%.*s.%.*s",
					    (int)(nlen > 60 ? 60 : nlen), name,
					    (int)(flen > 60 ? 60 : flen),
					    fname);
					next(ps);
					return parse_call(ps, -1, qual, loff,
					    name_off);
				}
			}
			ps->pos = save;
			ps->t = st;
		}
		if (ps->t.type == T_LPAREN) {
			size_t loff = ps->t.off;

			snprintf(qual, sizeof qual, "%.*s",
			    (int)(nlen > 100 ? 100 : nlen), name);
			next(ps);
			return parse_call(ps, -1, qual, loff, name_off);
		}
		if (nlen == 6 && memcmp(name, "device", 6) == 0 &&
		    lookup_var(ps, name, nlen) < 0) {
			n = node_new(ps, N_DEVICE, name_off);
			NODE(ps, n)->ty = ty(CT_DEVICE);
			return n;
		}
		/* A type name is a type value: type(x) == string. */
		if (lookup_var(ps, name, nlen) < 0 &&
		    (i = type_name(name, nlen)) >= 0 &&
		    type_names[i].kind >= 0 && ps->t.type != T_COMMA) {
			n = make_lit(ps, name_off, CV_TYPE, CT_TYPE);
			NODE(ps, n)->lit.i = type_names[i].kind;
			return n;
		}
		n = node_new(ps, N_VAR, name_off);
		NODE(ps, n)->lit.k = CV_STRING;
		NODE(ps, n)->lit.s = dra_arena_strndup(&ps->p->arena, name,
		    nlen);
		NODE(ps, n)->lit.n = (uint32_t)nlen;
		if ((i = lookup_var(ps, name, nlen)) >= 0) {
			NODE(ps, n)->slot = (uint8_t)ps->scope[i].slot;
			NODE(ps, n)->ty = ps->scope[i].ty;
			return n;
		}
		/*
		 * Unresolved: the variable name of a macro, or else an
		 * error that check_names() reports once parsing is done.
		 */
		NODE(ps, n)->slot = SLOT_UNRESOLVED;
		return n;
	}
	case T_ERROR:
		return -1;
	default:
		fail(ps, off, "Syntax error: mismatched input '%s' expecting "
		    "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', "
		    "NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}",
		    tok_text(ps, buf, sizeof buf));
		return -1;
	}
}

static int32_t
parse_member(struct parser *ps)
{
	int32_t	n = parse_primary(ps);
	char	buf[64];

	while (!ps->failed) {
		size_t	off = ps->t.off;

		if (ps->t.type == T_DOT) {
			int		 optional = 0;
			const char	*name;
			size_t		 nlen, name_off;

			next(ps);
			if (ps->t.type == T_QUESTION) {
				optional = 1;
				next(ps);
			}
			if (ps->t.type != T_IDENT) {
				if (ps->t.type != T_ERROR)
					fail(ps, ps->t.off, "Syntax error: "
					    "mismatched input '%s' expecting "
					    "IDENTIFIER", tok_text(ps, buf,
					    sizeof buf));
				return -1;
			}
			name = ps->s + ps->t.off;
			nlen = ps->t.len;
			name_off = ps->t.off;
			next(ps);
			if (ps->t.type == T_LPAREN && !optional) {
				char	fname[128];
				size_t	loff = ps->t.off;

				snprintf(fname, sizeof fname, "%.*s",
				    (int)(nlen > 100 ? 100 : nlen), name);
				next(ps);
				n = parse_call(ps, n, fname, loff, name_off);
				if (n < 0)
					return -1;
				continue;
			}
			n = make_select(ps, n, name, nlen, off, optional);
		} else if (ps->t.type == T_LBRACK) {
			int	optional = 0;
			int32_t	b;

			next(ps);
			if (ps->t.type == T_QUESTION) {
				optional = 1;
				next(ps);
			}
			b = parse_expr(ps);
			if (ps->failed || !expect(ps, T_RBRACK, "']'"))
				return -1;
			n = make_index(ps, n, b, off, optional);
		} else if (ps->t.type == T_LBRACE && n >= 0 &&
		    (NODE(ps, n)->op == N_VAR || NODE(ps, n)->op == N_SELECT)) {
			unsupported(ps, off, "message construction");
			ps->failed = ps->stopped = 1;
			return -1;
		} else
			break;
	}
	return ps->failed ? -1 : n;
}

static int32_t
parse_unary(struct parser *ps)
{
	size_t		 off = ps->t.off;
	int32_t		 a, n;
	struct cel_type	 at;

	if (!enter(ps))
		return -1;
	if (ps->t.type == T_NOT) {
		next(ps);
		a = parse_unary(ps);
		ps->depth--;
		if (ps->failed)
			return -1;
		at = NODE(ps, a)->ty;
		if (!kind_ok(at.k, CT_BOOL))
			no_overload(ps, off, "!_", &at, 1);
		n = node_new(ps, N_NOT, off);
		NODE(ps, n)->a = a;
		NODE(ps, n)->ty = ty(CT_BOOL);
		return n;
	}
	if (ps->t.type == T_MINUS) {
		next(ps);
		/* A negative literal: -9223372036854775808 is valid. */
		if ((ps->t.type == T_INT || ps->t.type == T_DOUBLE) &&
		    ps->t.off == off + 1) {
			if (ps->t.type == T_INT) {
				if (ps->t.u > (uint64_t)INT64_MAX + 1) {
					fail(ps, off, "Syntax error: invalid "
					    "int literal");
					ps->depth--;
					return -1;
				}
				n = make_lit(ps, off, CV_INT, CT_INT);
				NODE(ps, n)->lit.i = (int64_t)(0 - ps->t.u);
			} else {
				n = make_lit(ps, off, CV_DOUBLE, CT_DOUBLE);
				NODE(ps, n)->lit.d = -ps->t.d;
			}
			next(ps);
			ps->depth--;
			return n;
		}
		a = parse_unary(ps);
		ps->depth--;
		if (ps->failed)
			return -1;
		at = NODE(ps, a)->ty;
		if (!kind_ok(at.k, CT_INT) && !kind_ok(at.k, CT_DOUBLE))
			no_overload(ps, off, "-_", &at, 1);
		n = node_new(ps, N_NEG, off);
		NODE(ps, n)->a = a;
		NODE(ps, n)->ty = WILD(at.k) ? ty_dyn : ty(at.k);
		return n;
	}
	n = parse_member(ps);
	ps->depth--;
	return n;
}

/* Is kind k one that the ordering operators take? */
static int
ordered(int k)
{
	return k == CT_INT || k == CT_UINT || k == CT_DOUBLE ||
	    k == CT_STRING || k == CT_BYTES || k == CT_BOOL;
}

static int
numeric(int k)
{
	return k == CT_INT || k == CT_UINT || k == CT_DOUBLE;
}

static const char *const binop_names[] = {
	"_==_", "_!=_", "_<_", "_<=_", "_>_", "_>=_", "_+_", "_-_", "_*_",
	"_/_", "_%_",
};

/* Type a binary operator node; report when no overload applies. */
static struct cel_type
check_binary(struct parser *ps, int op, struct cel_type l, struct cel_type r,
    size_t off)
{
	int ok = 1;

	switch (op) {
	case B_EQ:
	case B_NE:
		ok = type_ok(l, r);
		if (ok)
			return ty(CT_BOOL);
		break;
	case B_LT:
	case B_LE:
	case B_GT:
	case B_GE:
		/* Kubernetes enables cross-type numeric comparisons. */
		if (WILD(l.k))
			ok = WILD(r.k) || ordered(r.k);
		else if (WILD(r.k))
			ok = ordered(l.k);
		else
			ok = (numeric(l.k) && numeric(r.k)) ||
			    (ordered(l.k) && l.k == r.k);
		if (ok)
			return ty(CT_BOOL);
		break;
	default: {
		int	k = WILD(l.k) ? r.k : l.k;

		if (!WILD(l.k) && !WILD(r.k) && l.k != r.k)
			ok = 0;
		else if (WILD(k))
			return ty_dyn;
		else if (op == B_ADD)
			ok = numeric(k) || k == CT_STRING || k == CT_BYTES ||
			    k == CT_LIST;
		else if (op == B_MOD)
			ok = k == CT_INT || k == CT_UINT;
		else
			ok = numeric(k);
		if (ok) {
			if (k == CT_LIST)
				return ty2(CT_LIST, l.k == CT_LIST &&
				    r.k == CT_LIST && l.p1 == r.p1 ? l.p1 :
				    CT_DYN, 0);
			return ty(k);
		}
		break;
	}
	}
	no_overload(ps, off, binop_names[op], (struct cel_type[]){ l, r }, 2);
	return ty_dyn;
}

static int32_t
parse_binary(struct parser *ps, int level);

/* Binary levels: 0 relation, 1 addition, 2 multiplication. */
static int32_t
parse_binary(struct parser *ps, int level)
{
	int32_t	a, b, n;
	int	op;

	a = level == 2 ? parse_unary(ps) : parse_binary(ps, level + 1);
	while (!ps->failed) {
		size_t	off = ps->t.off;
		int	in = 0;

		switch (ps->t.type) {
		case T_EQ: op = level == 0 ? B_EQ : -1; break;
		case T_NE: op = level == 0 ? B_NE : -1; break;
		case T_LT: op = level == 0 ? B_LT : -1; break;
		case T_LE: op = level == 0 ? B_LE : -1; break;
		case T_GT: op = level == 0 ? B_GT : -1; break;
		case T_GE: op = level == 0 ? B_GE : -1; break;
		case T_IN: op = level == 0 ? 0 : -1; in = 1; break;
		case T_PLUS: op = level == 1 ? B_ADD : -1; break;
		case T_MINUS: op = level == 1 ? B_SUB : -1; break;
		case T_STAR: op = level == 2 ? B_MUL : -1; break;
		case T_SLASH: op = level == 2 ? B_DIV : -1; break;
		case T_PERCENT: op = level == 2 ? B_MOD : -1; break;
		default: op = -1; break;
		}
		if (op < 0)
			break;
		if (!enter(ps))
			return -1;
		next(ps);
		b = level == 2 ? parse_unary(ps) : parse_binary(ps, level + 1);
		ps->depth--;
		if (ps->failed)
			return -1;
		if (in) {
			struct cel_type lt = NODE(ps, a)->ty;
			struct cel_type rt = NODE(ps, b)->ty;
			int ok;

			/* (A, list(A)) and (A, map(A, B)) */
			if (rt.k == CT_LIST)
				ok = kind_ok(lt.k, rt.p1);
			else if (rt.k == CT_MAP)
				ok = kind_ok(lt.k, rt.p1);
			else
				ok = WILD(rt.k);
			if (!ok)
				no_overload(ps, off, "@in",
				    (struct cel_type[]){ lt, rt }, 2);
			n = node_new(ps, N_IN, off);
			NODE(ps, n)->ty = ty(CT_BOOL);
		} else {
			struct cel_type t = check_binary(ps, op,
			    NODE(ps, a)->ty, NODE(ps, b)->ty, off);

			n = node_new(ps, N_BINARY, off);
			NODE(ps, n)->sub = (uint8_t)op;
			NODE(ps, n)->ty = t;
		}
		NODE(ps, n)->a = a;
		NODE(ps, n)->b = b;
		a = n;
	}
	return ps->failed ? -1 : a;
}

/* && (and_op) or || chains, flattened into one n-ary node. */
static int32_t
parse_logic(struct parser *ps, int or)
{
	int32_t		 first, *v = NULL, n;
	size_t		 nv = 0, av = 0, off = 0;
	enum tok_type	 tt = or ? T_OR : T_AND;
	const char	*name = or ? "_||_" : "_&&_";

	first = or ? parse_logic(ps, 0) : parse_binary(ps, 0);
	if (ps->failed || ps->t.type != tt)
		return ps->failed ? -1 : first;
	v = xreallocarray(NULL, av = 8, sizeof *v);
	v[nv++] = first;
	while (!ps->failed && ps->t.type == tt) {
		int32_t		b;
		struct cel_type	lt, rt;

		if (nv == 1)
			off = ps->t.off;
		next(ps);
		b = or ? parse_logic(ps, 0) : parse_binary(ps, 0);
		if (ps->failed)
			break;
		lt = nv == 1 ? NODE(ps, first)->ty : ty(CT_BOOL);
		rt = NODE(ps, b)->ty;
		if (!kind_ok(lt.k, CT_BOOL) || !kind_ok(rt.k, CT_BOOL))
			no_overload(ps, off, name,
			    (struct cel_type[]){ lt, rt }, 2);
		if (nv == av)
			v = xreallocarray(v, av *= 2, sizeof *v);
		v[nv++] = b;
	}
	if (ps->failed) {
		free(v);
		return -1;
	}
	n = node_new(ps, or ? N_OR : N_AND, off);
	set_args(ps, n, v, nv);
	NODE(ps, n)->ty = ty(CT_BOOL);
	free(v);
	return n;
}

static int32_t
parse_expr(struct parser *ps)
{
	int32_t		 c, a, b, n;
	size_t		 off;
	struct cel_type	 ct, at, bt;

	if (!enter(ps))
		return -1;
	c = parse_logic(ps, 1);
	if (ps->failed || ps->t.type != T_QUESTION) {
		ps->depth--;
		return ps->failed ? -1 : c;
	}
	off = ps->t.off;
	next(ps);
	a = parse_logic(ps, 1);
	if (ps->failed || !expect(ps, T_COLON, "':'"))
		return -1;
	b = parse_expr(ps);
	ps->depth--;
	if (ps->failed)
		return -1;
	ct = NODE(ps, c)->ty;
	at = NODE(ps, a)->ty;
	bt = NODE(ps, b)->ty;
	if (!kind_ok(ct.k, CT_BOOL) || !type_ok(at, bt))
		no_overload(ps, off, "_?_:_", (struct cel_type[]){ ct, at, bt },
		    3);
	n = node_new(ps, N_COND, off);
	NODE(ps, n)->a = c;
	NODE(ps, n)->b = a;
	NODE(ps, n)->c = b;
	NODE(ps, n)->ty = at.k == bt.k ? at : ty_dyn;
	return n;
}

/* Report identifiers that named nothing (the first, by position). */
static void
check_names(struct parser *ps)
{
	struct cel_node	*n, *first = NULL;
	size_t		 i;

	for (i = 0; i < ps->p->nnodes; i++) {
		n = &ps->p->nodes[i];
		if (n->op == N_VAR && n->slot == SLOT_UNRESOLVED &&
		    (first == NULL || n->col < first->col))
			first = n;
	}
	/*
	 * A construct we do not implement may be a macro that binds the
	 * name; then the program is unsupported, not wrong.
	 */
	if (first == NULL || ps->p->unsupported != NULL)
		return;
	if (is_type_name(first->lit.s, first->lit.n))
		unsupported(ps, first->col - 1, "type value '%s'",
		    first->lit.s);
	else
		fail(ps, first->col - 1, "undeclared reference to '%.*s' (in "
		    "container '')", (int)(first->lit.n > 100 ? 100 :
		    first->lit.n), first->lit.s);
}

/*
 * The height of the tree: evaluation recurses once per level.  Nodes
 * come after their children, so one pass in order computes it.  && and
 * || chains are n-ary nodes (cel-go balances them), so they add one.
 */
static int
tree_height(const struct dra_cel *p)
{
	int	*h = xcalloc(p->nnodes, sizeof *h), max = 0, m;
	size_t	 i, k;

	for (i = 0; i < p->nnodes; i++) {
		const struct cel_node *n = &p->nodes[i];

		m = 0;
		if (n->a >= 0 && h[n->a] > m)
			m = h[n->a];
		if (n->b >= 0 && h[n->b] > m)
			m = h[n->b];
		if (n->c >= 0 && h[n->c] > m)
			m = h[n->c];
		for (k = 0; k < n->nargs; k++)
			if (h[p->args[n->args + k]] > m)
				m = h[p->args[n->args + k]];
		h[i] = m + 1;
		if (h[i] > max)
			max = h[i];
	}
	free(h);
	return max;
}

int
cel_parse(struct dra_cel *p, struct dra_err *err)
{
	struct parser	ps;
	char		tb[64], buf[64];

	memset(&ps, 0, sizeof ps);
	ps.p = p;
	ps.s = p->text;
	ps.len = strlen(p->text);
	ps.err = err;
	ps.t.type = T_EOF;
	if (ps.len > CEL_MAX_LEN)
		return dra_err_set(err, KUBE_E_PARSE, "column %d: expression "
		    "is longer than %d bytes", CEL_MAX_LEN + 1, CEL_MAX_LEN);
	next(&ps);
	p->root = parse_expr(&ps);
	if (!ps.failed && ps.t.type != T_EOF)
		fail(&ps, ps.t.off, "Syntax error: extraneous input '%s' "
		    "expecting <EOF>", tok_text(&ps, buf, sizeof buf));
	if (!ps.failed)
		check_names(&ps);
	if (!ps.failed && tree_height(p) > CEL_MAX_DEPTH) {
		unsupported(&ps, 0, "nesting deeper than %d", CEL_MAX_DEPTH);
		ps.failed = ps.stopped = 1;
	}
	if (ps.failed) {
		if (ps.stopped) {
			/* Stopped on a limit: the program is unsupported. */
			p->root = -1;
			return KUBE_OK;
		}
		return KUBE_E_PARSE;
	}
	/*
	 * The DRA compiler accepts bool, any and (with list attributes,
	 * as the scheduler compiles) dyn.
	 */
	if (p->nodes[p->root].ty.k != CT_BOOL &&
	    !WILD(p->nodes[p->root].ty.k))
		return dra_err_set(err, KUBE_E_PARSE, "column 1: must evaluate "
		    "to bool or the unknown type, not %s",
		    cel_type_name(p->nodes[p->root].ty, tb, sizeof tb));
	return KUBE_OK;
}
