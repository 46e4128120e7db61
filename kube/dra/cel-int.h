/*
 * cel-int.h: internals shared by the files of the selector CEL.
 *
 * The evaluator is split by concern, like curl's lib/ files that share
 * an *-int.h header:
 *
 *	cel-parse.c	lexer, recursive-descent parser and the static type
 *			check that the API server's compiler would apply
 *	cel-eval.c	tree-walking evaluation with cel-go's error rules
 *	cel-lib.c	the functions: strings ext, lists, sets, quantity
 *			and semver methods, conversions, optionals
 *	cel-re.c	matches(): Go's RE2 syntax checked and run by PCRE2
 *	cel-kube.c	Kubernetes Quantity and Semver values
 *	cel.c		the public API of cel.h
 *
 * A program is an array of nodes; children are indices.  Values are
 * small structs passed by value; everything an evaluation creates
 * (strings, lists, boxed optionals) comes from a per-evaluation bump
 * arena that starts on the C stack, so a typical selector evaluates
 * without calling malloc.
 */
#ifndef DRA_CEL_INT_H
#define DRA_CEL_INT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "arena.h"
#include "cel.h"

/* Limits.  DRA: CELSelectorExpressionMaxLength is 10 Ki. */
#define CEL_MAX_LEN		10240
#define CEL_MAX_DEPTH		250	/* cel-go parser recursion limit */
#define CEL_MAX_SLOTS		32	/* comprehension and bind variables */
/* includes(): resourceapi.ResourceSliceMaxAttributeValuesPerDevice */
#define CEL_INCLUDES_MAX	48
#define CEL_MAX_ARGS		8	/* arguments of a call we type */
/*
 * Comprehension steps per evaluation.  Kubernetes stops a selector at
 * a cost of 1000000 (CELSelectorExpressionMaxCost); cel-go's cost
 * model is not reproduced, so beyond this many steps the answer is
 * unsupported rather than a guess either way.
 */
#define CEL_MAX_ITERATIONS	1000000

/* Static types (the checker's view); CT_DYN matches anything. */
enum cel_tkind {
	CT_DYN,
	CT_BOOL,
	CT_INT,
	CT_UINT,
	CT_DOUBLE,
	CT_STRING,
	CT_BYTES,
	CT_NULL,
	CT_LIST,
	CT_MAP,
	CT_QUANTITY,
	CT_SEMVER,
	CT_OPTIONAL,
	CT_DEVICE,
	CT_TYPE,
	CT_ANY,		/* an attribute value: dyn that prints as "any" */
};

/* A static type: kind plus the kinds of its parameters (one level). */
struct cel_type {
	uint8_t	k;	/* enum cel_tkind */
	uint8_t	p1;	/* list element, map key, optional value */
	uint8_t	p2;	/* map value */
	uint8_t	p3;	/* value of a map value that is a map (device maps) */
};

/* Runtime value kinds. */
enum cel_vkind {
	CV_ERR,		/* CEL error value: msg */
	CV_UNSUP,	/* a construct we cannot evaluate: msg */
	CV_NULL,
	CV_BOOL,
	CV_INT,
	CV_UINT,
	CV_DOUBLE,
	CV_STRING,	/* s, n bytes (not NUL-terminated) */
	CV_BYTES,
	CV_LIST,
	CV_MAP,
	CV_QUANTITY,	/* q: nano units */
	CV_SEMVER,	/* sv */
	CV_OPTIONAL,	/* opt: NULL for optional.none() */
	CV_DEVICE,	/* the device variable */
	CV_TYPE,	/* a type value: i is the cel_vkind it names */
};

/* How a list or map value is stored (cel_val.rep). */
enum cel_rep {
	CR_VALS,	/* list: items[n]; map: items[2n] key, value */
	CR_ATTR,	/* list attribute: attr (DRAListTypeAttributes) */
	CR_ATTRS,	/* map: device.attributes */
	CR_CAPS,	/* map: device.capacity */
	CR_ATTR_DOMAIN,	/* map: device.attributes[s] */
	CR_CAP_DOMAIN,	/* map: device.capacity[s] */
};

struct cel_semver {
	uint64_t	 major, minor, patch;
	const char	*pre;		/* prerelease, without '-' */
	size_t		 npre;		/* 0: none */
};

struct cel_val {
	uint8_t		 k;	/* enum cel_vkind */
	uint8_t		 rep;	/* enum cel_rep for lists and maps */
	uint32_t	 n;	/* bytes of s, items of a CR_VALS list/map */
	union {
		int		 b;
		int64_t		 i;
		uint64_t	 u;
		double		 d;
		const char	*s;	/* string, bytes, domain, message */
		const struct cel_val	*items;
		const struct kube_attr	*attr;
		const struct cel_semver	*sv;
		const struct cel_val	*opt;
		__int128	 q;
	};
};

/* Node operations. */
enum cel_op {
	N_LIT,		/* lit */
	N_DEVICE,	/* the `device` variable */
	N_VAR,		/* slot */
	N_SELECT,	/* a.name; flags CEL_F_OPTIONAL for a.?name */
	N_HAS,		/* has(a.name) */
	N_INDEX,	/* a[b]; CEL_F_OPTIONAL for a[?b] */
	N_AND,		/* args: n-ary && */
	N_OR,		/* args: n-ary || */
	N_NOT,
	N_NEG,
	N_COND,		/* a ? b : c */
	N_BINARY,	/* a <binop> b */
	N_IN,		/* a in b */
	N_CALL,		/* fn; receiver a (or -1); args */
	N_LIST,		/* args */
	N_MAP,		/* args: key, value, key, value ... */
	N_COMP,		/* macro fn over a; slot (and slot2 with
			   CEL_F_TWO_VAR); b predicate/transform, c filter */
	N_BIND,		/* cel.bind: slot = a; result b */
	N_OPT_ENTRY,	/* ?a in a list or map literal (a optional) */
};

#define CEL_F_OPTIONAL	0x01
#define CEL_F_TWO_VAR	0x02	/* N_COMP binds index/key and value */

/* Binary operators of N_BINARY. */
enum cel_binop {
	B_EQ, B_NE, B_LT, B_LE, B_GT, B_GE, B_ADD, B_SUB, B_MUL, B_DIV, B_MOD,
};

/* Built-in functions and macros. */
enum cel_fn {
	F_SIZE, F_STARTS_WITH, F_ENDS_WITH, F_CONTAINS, F_MATCHES,
	F_LOWER_ASCII, F_UPPER_ASCII, F_TRIM, F_REPLACE, F_SPLIT, F_INDEX_OF,
	F_LAST_INDEX_OF, F_SUBSTRING, F_CHAR_AT, F_JOIN,
	F_QUANTITY, F_IS_QUANTITY, F_SEMVER, F_IS_SEMVER,
	F_COMPARE_TO, F_IS_LESS_THAN, F_IS_GREATER_THAN, F_ADD, F_SUB,
	F_SIGN, F_IS_INTEGER, F_AS_INTEGER, F_AS_APPROXIMATE_FLOAT,
	F_MAJOR, F_MINOR, F_PATCH,
	F_INCLUDES,
	F_INT, F_UINT, F_DOUBLE, F_STRING, F_BOOL, F_BYTES, F_DYN,
	F_OPT_OF, F_OPT_NONE, F_OPT_OF_NON_ZERO, F_OR_VALUE, F_HAS_VALUE,
	F_VALUE, F_OR, F_QUOTE,
	F_IS_SORTED, F_SUM, F_MIN, F_MAX, F_SLICE, F_FLATTEN, F_REVERSE,
	F_DISTINCT, F_SORT, F_RANGE, F_SETS_CONTAINS, F_SETS_EQUIVALENT,
	F_SETS_INTERSECTS, F_TYPE,
	/* macros (N_COMP) */
	F_ALL, F_EXISTS, F_EXISTS_ONE, F_MAP, F_FILTER, F_TRANSFORM_LIST,
	F_TRANSFORM_MAP, F_OPT_MAP, F_OPT_FLAT_MAP, F_SORT_BY,
};

struct cel_node {
	uint8_t		 op;	/* enum cel_op */
	uint8_t		 sub;	/* binop, fn */
	uint8_t		 flags;
	uint8_t		 slot;
	uint8_t		 slot2;
	uint32_t	 col;	/* 1-based byte column */
	int32_t		 a, b, c;
	uint32_t	 args;	/* first index into dra_cel.args */
	uint32_t	 nargs;
	struct cel_type	 ty;
	struct cel_val	 lit;	/* N_LIT; N_SELECT/N_HAS: the field name */
	void		*re;	/* F_MATCHES with a literal pattern */
};

struct dra_cel {
	char		*text;
	struct cel_node	*nodes;
	size_t		 nnodes, anodes;
	int32_t		*args;
	size_t		 nargs, aargs;
	int32_t		 root;
	int		 nslots;
	char		*unsupported;	/* first unsupported construct */
	void		*mctx;		/* pcre2_match_context */
	struct dra_arena arena;		/* literal strings, messages */
};

/* The per-evaluation state. */
struct cel_ctx {
	const struct dra_cel	*p;
	const struct kube_device *d;
	uint64_t		 iterations;	/* comprehension steps so far */
	/* cel.bind values not computed yet: node index + 1, or 0. */
	int32_t			 lazy[CEL_MAX_SLOTS];
	struct cel_val		 vars[CEL_MAX_SLOTS];
	char			*buf;		/* bump area, first on stack */
	size_t			 used, size;
	void			*chunks;	/* malloc'd overflow blocks */
};

/* cel-parse.c */

/*
 * Parse and check p->text into p's nodes (p->root; -1 when a limit
 * stopped the parse, which leaves p->unsupported set).  Returns KUBE_OK
 * or KUBE_E_PARSE with err "column N: ..." as cel.h describes.
 */
int	cel_parse(struct dra_cel *p, struct dra_err *err);

/* t as cel-go's checker prints types ("list(int)", "any"), into buf. */
const char *cel_type_name(struct cel_type t, char *buf, size_t len);

/* cel-eval.c */

/* The value of node n; errors and unsupported are CV_ERR / CV_UNSUP. */
struct cel_val cel_eval(struct cel_ctx *c, int32_t n);

/* size bytes from the evaluation arena, freed when evaluation ends. */
void	*cel_alloc(struct cel_ctx *c, size_t size);

/* A CEL error value with a printf message (in the arena). */
struct cel_val cel_error(struct cel_ctx *c, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/* An unsupported value: "unsupported CEL construct <what> at column N". */
struct cel_val cel_unsup(struct cel_ctx *c, uint32_t col, const char *fmt,
	    ...) __attribute__((format(printf, 3, 4)));

/*
 * CEL equality of a and b (heterogeneous, numbers by value): 1 or 0;
 * -1 with *err when either is an error value.
 */
int	cel_equal(struct cel_ctx *c, struct cel_val a, struct cel_val b,
	    struct cel_val *err);

/*
 * The ordering of a and b (numbers across kinds, strings, bytes,
 * bools): -1, 0, 1; 2 with *err set ("no such overload", NaN).
 */
int	cel_compare(struct cel_ctx *c, struct cel_val a, struct cel_val b,
	    struct cel_val *err);

/* a + b with CEL's overloads and overflow errors. */
struct cel_val cel_add(struct cel_ctx *c, struct cel_val a, struct cel_val b);

/* The number of keys of map m (device maps counted in the model). */
size_t	cel_map_size(struct cel_ctx *c, struct cel_val m);

/* Item i (< l.n) of list l; attribute lists are converted on the fly. */
struct cel_val cel_list_get(struct cel_ctx *c, struct cel_val l, size_t i);

/*
 * The items of list l ordered by keys[i] (l's items when NULL), as
 * sort() and sortBy() order them; an error value if they cannot be.
 */
struct cel_val cel_sort_by(struct cel_ctx *c, struct cel_val l,
	    const struct cel_val *keys);

/* The CEL type name of v's kind ("string", "kubernetes.Semver"). */
const char *cel_value_type_name(struct cel_val v);

/* cel-lib.c */

/* Call node n's function on recv (if a method) and its evaluated args. */
struct cel_val cel_call(struct cel_ctx *c, const struct cel_node *n,
	    struct cel_val recv, const struct cel_val *args);

/* Code points in (s, n) / whether (s, n) is valid UTF-8. */
size_t	cel_utf8_len(const char *s, size_t n);
int	cel_utf8_valid(const char *s, size_t n);

/* cel-re.c */

/*
 * Compile Go-syntax pattern (pat, n) for PCRE2.  Returns the code (free
 * with cel_regex_free) or NULL with *why naming what is unsupported.
 * p, if not NULL, is the program that will run it (unused otherwise).
 */
void	*cel_regex_compile(struct dra_cel *p, const char *pat, size_t n,
	    const char **why);

/* Give p the match context (backtracking limits) its matches use. */
void	cel_regex_context(struct dra_cel *p);

/* s.matches(pat) for call node n (n->re: pat compiled in advance). */
struct cel_val cel_regex_match(struct cel_ctx *c, const struct cel_node *n,
	    struct cel_val s, struct cel_val pat);

void	cel_regex_free(void *re);
void	cel_regex_free_context(void *mctx);

/* cel-kube.c */

/*
 * Parse quantity (s, n) into nano units.  Returns 0; -1 with *why the
 * apimachinery error text; 1 if beyond the 128-bit nano range.
 */
int	cel_quantity_parse(const char *s, size_t n, __int128 *nano,
	    const char **why);

/*
 * Parse version (s, n), strictly or normalized (semver(s, true)).
 * Returns 0 with *v (v->pre points into s), or -1 with *why.
 */
int	cel_semver_parse(const char *s, size_t n, int normalize,
	    struct cel_semver *v, const char **why);

/* Semver precedence of a and b: -1, 0, 1. */
int	cel_semver_cmp(const struct cel_semver *a, const struct cel_semver *b);

/* The value of hexadecimal digit ch, or -1 (escapes, in CEL and RE2). */
static inline int
cel_hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* Value constructors, shared by the evaluator and the library. */
static inline struct cel_val
vbool(int b)
{
	struct cel_val v;

	memset(&v, 0, sizeof v);
	v.k = CV_BOOL;
	v.b = b != 0;
	return v;
}

static inline struct cel_val
vint(int64_t i)
{
	struct cel_val v;

	memset(&v, 0, sizeof v);
	v.k = CV_INT;
	v.i = i;
	return v;
}

static inline struct cel_val
vstr(const char *s, size_t n)
{
	struct cel_val v;

	memset(&v, 0, sizeof v);
	v.k = CV_STRING;
	v.s = s;
	v.n = (uint32_t)n;
	return v;
}

static inline struct cel_val
vquantity(__int128 q)
{
	struct cel_val v;

	memset(&v, 0, sizeof v);
	v.k = CV_QUANTITY;
	v.q = q;
	return v;
}

#endif
