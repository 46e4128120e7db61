/*
 * cel-re.c: matches() with Go's regexp (RE2) syntax, run by PCRE2.
 *
 * cel-go matches() is Go's regexp.MatchString: RE2 syntax, leftmost
 * match anywhere in the text.  Patterns are checked against what Go
 * accepts and rewritten where PCRE2 reads the same text differently:
 * \s is Go's [\t\n\f\r ] (PCRE2 adds \v), \v is the character VT (a
 * class in PCRE2), $ without (?m) matches only at the very end
 * (PCRE2_DOLLAR_ENDONLY), a '{' that starts no repetition is literal.
 * Whatever Go rejects (backreferences, lookaround, atomic and possessive
 * forms, \Z, \h, nested or over-1000 repetition, unknown \p names) or
 * PCRE2 would read otherwise is reported unsupported, never run:
 * the API server rejects such literal patterns (ValidateRegexLiterals)
 * with Go's own message, which is not reproduced here.
 *
 * A literal pattern is compiled (and JIT-compiled) once with the
 * program; PCRE2's backtracking is bounded by a match limit, and a
 * pattern that reaches it is unsupported (RE2 runs in linear time).
 */
#include "cel-int.h"

#define PCRE2_CODE_UNIT_WIDTH 8

#include <stdlib.h>
#include <string.h>

#include <pcre2.h>

#include "xmalloc.h"


/* Append to a growing pattern buffer. */
struct rebuf {
	char	*s;
	size_t	 n, a;
};

static void
re_put(struct rebuf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->a) {
		b->a = (b->n + n + 1) * 2;
		b->s = xreallocarray(b->s, b->a, 1);
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

static void
re_puts(struct rebuf *b, const char *s)
{
	re_put(b, s, strlen(s));
}

/*
 * The length of the escape \x.. or \p.. / \P.. at p[i] when Go
 * accepts it and PCRE2 reads it the same, else 0: \xHH with two hex
 * digits or \x{H...} up to U+10FFFF; \pX for a one-letter category,
 * \p{Name} and \p{^Name} for the general categories, Any and common
 * scripts (PCRE2 knows more names than Go: those are not taken).
 */
static size_t
re_escape_len(const char *p, size_t n, size_t i)
{
	static const char *const names[] = {
		"C", "Cc", "Cf", "Co", "Cs", "L", "Ll", "Lm", "Lo", "Lt", "Lu",
		"M", "Mc", "Me", "Mn", "N", "Nd", "Nl", "No", "P", "Pc", "Pd",
		"Pe", "Pf", "Pi", "Po", "Ps", "S", "Sc", "Sk", "Sm", "So", "Z",
		"Zl", "Zp", "Zs", "Any", "Arabic", "Armenian", "Bengali",
		"Common", "Cyrillic", "Devanagari", "Georgian", "Greek", "Han",
		"Hangul", "Hebrew", "Hiragana", "Inherited", "Katakana",
		"Latin", "Thai", NULL,
	};
	const char	*e;
	size_t		 j, len;
	unsigned long	 v = 0;

	if (i + 2 >= n)
		return 0;
	if (p[i + 1] == 'x') {
		if (p[i + 2] != '{')
			return i + 3 < n && cel_hexval(p[i + 2]) >= 0 &&
			    cel_hexval(p[i + 3]) >= 0 ? 4 : 0;
		for (j = i + 3; j < n && cel_hexval(p[j]) >= 0 && j < i + 11; j++)
			v = v * 16 + (unsigned long)cel_hexval(p[j]);
		if (j == i + 3 || j >= n || p[j] != '}' || v > 0x10ffff)
			return 0;
		return j + 1 - i;
	}
	if (p[i + 2] != '{')
		return strchr("CLMNPSZ", p[i + 2]) != NULL ? 3 : 0;
	e = memchr(p + i + 3, '}', n - i - 3);
	if (e == NULL)
		return 0;
	j = i + 3 + (p[i + 3] == '^');
	len = (size_t)(e - (p + j));
	for (v = 0; names[v] != NULL; v++)
		if (strlen(names[v]) == len &&
		    memcmp(names[v], p + j, len) == 0)
			return (size_t)(e - p) + 1 - i;
	return 0;
}

/*
 * The length of the group opening "(?..." at p[i] when Go accepts it:
 * (?: (?P< (?< or flags (?ims-U) / (?ims-U: with a flag before the
 * end and at most one '-', not last.  0 for anything else Go rejects
 * (lookaround, atomic groups, comments, ...).
 */
static size_t
re_group_len(const char *p, size_t n, size_t i)
{
	size_t	j = i + 2;
	int	dash = 0, flags = 0;

	if (j >= n)
		return 0;
	if (p[j] == ':')
		return 3;
	if (p[j] == 'P' && j + 1 < n && p[j + 1] == '<')
		return 4;
	if (p[j] == '<' && j + 1 < n && p[j + 1] != '=' && p[j + 1] != '!')
		return 3;
	for (; j < n && strchr("imsU-", p[j]) != NULL; j++) {
		if (p[j] == '-')
			dash++;
		else
			flags++;
	}
	if (flags == 0 || dash > 1 || j >= n || p[j - 1] == '-' ||
	    (p[j] != ')' && p[j] != ':'))
		return 0;
	return j + 1 - i;
}

/* Parse {n}, {n,} or {n,m} at p[i]; returns its length or 0. */
static size_t
re_repeat(const char *p, size_t n, size_t i, long *lo, long *hi)
{
	size_t	j = i + 1;
	long	v;

	if (j >= n || p[j] < '0' || p[j] > '9')
		return 0;
	for (v = 0; j < n && p[j] >= '0' && p[j] <= '9'; j++)
		v = v > 100000 ? v : v * 10 + (p[j] - '0');
	*lo = *hi = v;
	if (j < n && p[j] == ',') {
		j++;
		*hi = -1;
		if (j < n && p[j] >= '0' && p[j] <= '9') {
			for (v = 0; j < n && p[j] >= '0' && p[j] <= '9'; j++)
				v = v > 100000 ? v : v * 10 + (p[j] - '0');
			*hi = v;
		}
	}
	if (j >= n || p[j] != '}')
		return 0;
	return j + 1 - i;
}

/*
 * Rewrite Go regexp syntax (pat, n) into PCRE2 syntax in b.  Returns
 * NULL, or what is not supported.
 */
static const char *
re_translate(const char *p, size_t n, struct rebuf *b)
{
	size_t	i = 0, k;
	int	quant_ok = 0;	/* a quantifier may follow */
	int	after_group = 0;	/* ... and would repeat a group */
	long	lo, hi;
	/*
	 * Go limits nested counted repetition ("x{2}{2}...", "(x{10}){200}")
	 * to 1000 copies: prod[d] is the largest product of counts inside
	 * the group open at depth d; inner that of the group just closed.
	 */
	long	prod[64], inner = 1;
	int	depth = 0;

	prod[0] = 1;

	while (i < n) {
		char ch = p[i];

		if (ch == '\\') {
			if (i + 1 >= n)
				return "trailing backslash";
			ch = p[i + 1];
			if (ch == 'Q') {
				const char *e = NULL;

				for (k = i + 2; k + 1 < n; k++)
					if (p[k] == '\\' && p[k + 1] == 'E') {
						e = p + k;
						break;
					}
				k = e ? (size_t)(e - p) + 2 : n;
				re_put(b, p + i, k - i);
				if (e == NULL)
					re_puts(b, "\\E");
				/* An empty \Q\E is nothing to repeat. */
				quant_ok = (e ? (size_t)(e - p) : n) > i + 2;
				after_group = 0;
				i = k;
				continue;
			}
			if (ch == 's')
				re_puts(b, "[\\t\\n\\f\\r ]");
			else if (ch == 'S')
				re_puts(b, "[^\\t\\n\\f\\r ]");
			else if (ch == 'v')
				re_puts(b, "\\x0B");
			else if (ch == 'x' || ch == 'p' || ch == 'P') {
				if ((k = re_escape_len(p, n, i)) == 0)
					return "escape sequence";
				re_put(b, p + i, k);
				quant_ok = 1;
				after_group = 0;
				i += k;
				continue;
			} else if (strchr("afnrtdDwWbBAz", ch) != NULL)
				re_put(b, p + i, 2);
			else if ((ch >= '0' && ch <= '9') ||
			    (ch >= 'a' && ch <= 'z') || (ch >= 'A' &&
			    ch <= 'Z') || (unsigned char)ch >= 0x80)
				return "escape sequence";
			else
				re_put(b, p + i, 2);
			quant_ok = strchr("bBAz", ch) == NULL;
			after_group = 0;
			i += 2;
			continue;
		}
		if (ch == '[') {
			size_t	j = i + 1;

			re_puts(b, "[");
			if (j < n && p[j] == '^')
				re_put(b, p + j++, 1);
			if (j < n && p[j] == ']') {
				re_puts(b, "\\]");
				j++;
			}
			for (; j < n && p[j] != ']'; j++) {
				if (p[j] == '[' && j + 1 < n &&
				    p[j + 1] == ':') {
					const char *e = memchr(p + j, ']',
					    n - j);

					if (e == NULL || e[-1] != ':')
						return "character class";
					re_put(b, p + j,
					    (size_t)(e - p) + 1 - j);
					j = (size_t)(e - p);
					continue;
				}
				if (p[j] == '[') {
					re_puts(b, "\\[");
					continue;
				}
				if (p[j] != '\\') {
					re_put(b, p + j, 1);
					continue;
				}
				if (++j >= n)
					return "trailing backslash";
				ch = p[j];
				if (ch == 's')
					re_puts(b, "\\t\\n\\f\\r ");
				else if (ch == 'S')
					/* All but Go's \s (\t\n\f\r ). */
					re_puts(b, "\\x00-\\x08\\x0b\\x0e-\\x1f"
					    "\\x21-\\x{10ffff}");
				else if (ch == 'v')
					re_puts(b, "\\x0B");
				else if (ch == 'x' || ch == 'p' || ch == 'P') {
					k = re_escape_len(p, n, j - 1);
					if (k == 0)
						return "escape sequence in "
						    "a class";
					re_put(b, p + j - 1, k);
					j += k - 2;
				} else if (strchr("afnrtdDwW", ch) != NULL) {
					re_puts(b, "\\");
					re_put(b, p + j, 1);
				} else if ((ch >= '0' && ch <= '9') ||
				    (ch >= 'a' && ch <= 'z') ||
				    (ch >= 'A' && ch <= 'Z') ||
				    (unsigned char)ch >= 0x80)
					return "escape sequence in a class";
				else {
					re_puts(b, "\\");
					re_put(b, p + j, 1);
				}
			}
			if (j >= n)
				return "unterminated character class";
			re_puts(b, "]");
			i = j + 1;
			quant_ok = 1;
			after_group = 0;
			continue;
		}
		if (ch == '(') {
			size_t len = 1;

			if (i + 1 < n && p[i + 1] == '*')
				return "PCRE verb";
			if (i + 1 < n && p[i + 1] == '?' &&
			    (len = re_group_len(p, n, i)) == 0)
				return "group syntax";
			re_put(b, p + i, len);
			i += len;
			quant_ok = 0;
			after_group = 0;
			/* (?flags) sets flags and opens no group. */
			if (p[i - 1] == ')')
				continue;
			if (++depth >= (int)(sizeof prod / sizeof prod[0]))
				return "group nesting";
			prod[depth] = 1;
			continue;
		}
		if (ch == '*' || ch == '+' || ch == '?' ||
		    (ch == '{' && re_repeat(p, n, i, &lo, &hi) > 0)) {
			size_t len = 1;

			if (!quant_ok)
				return "repetition operator";
			if (ch == '{') {
				long count;

				len = re_repeat(p, n, i, &lo, &hi);
				if (lo > 1000 || hi > 1000 ||
				    (hi >= 0 && hi < lo))
					return "repeat count";
				count = (hi >= 0 ? hi : lo) *
				    (after_group ? inner : 1);
				if (count > 1000)
					return "repeat count";
				if (count > prod[depth])
					prod[depth] = count;
			}
			after_group = 0;
			re_put(b, p + i, len);
			i += len;
			if (i < n && p[i] == '?') {
				re_puts(b, "?");
				i++;
			}
			if (i < n && (p[i] == '+' || p[i] == '*' ||
			    p[i] == '?' || (p[i] == '{' &&
			    re_repeat(p, n, i, &lo, &hi) > 0)))
				return "nested repetition operator";
			quant_ok = 0;
			continue;
		}
		if (ch == '{' || ch == '}') {
			re_puts(b, ch == '{' ? "\\{" : "\\}");
			i++;
			quant_ok = 1;
			after_group = 0;
			continue;
		}
		if (ch == '#' || ch == ' ') {
			/* Literal in Go; escape against extended mode. */
			re_puts(b, "\\");
			re_put(b, p + i, 1);
			i++;
			quant_ok = 1;
			after_group = 0;
			continue;
		}
		if (ch == ')' && depth > 0) {
			inner = prod[depth--];
			if (inner > prod[depth])
				prod[depth] = inner;
		}
		re_put(b, p + i, 1);
		quant_ok = ch != '|' && ch != '^' && ch != '$' && ch != ')' ?
		    1 : ch == ')';
		after_group = ch == ')';
		i++;
	}
	return NULL;
}

void *
cel_regex_compile(struct dra_cel *p, const char *pat, size_t n,
    const char **why)
{
	struct rebuf		 b = { NULL, 0, 0 };
	pcre2_compile_context	*cc;
	pcre2_code		*re;
	PCRE2_SIZE		 eoff;
	int			 rc;

	re_put(&b, "", 0);
	if (!cel_utf8_valid(pat, n)) {
		*why = "invalid UTF-8";
		free(b.s);
		return NULL;
	}
	if ((*why = re_translate(pat, n, &b)) != NULL) {
		free(b.s);
		return NULL;
	}
	cc = pcre2_compile_context_create(NULL);
	pcre2_set_newline(cc, PCRE2_NEWLINE_LF);
	pcre2_set_bsr(cc, PCRE2_BSR_ANYCRLF);
	re = pcre2_compile((PCRE2_SPTR)b.s, b.n, PCRE2_UTF |
	    PCRE2_MATCH_INVALID_UTF | PCRE2_DOLLAR_ENDONLY |
	    PCRE2_NEVER_BACKSLASH_C, &rc, &eoff, cc);
	pcre2_compile_context_free(cc);
	free(b.s);
	if (re == NULL) {
		*why = "pattern PCRE2 does not accept";
		return NULL;
	}
	(void)pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
	return re;
}

void
cel_regex_context(struct dra_cel *p)
{
	if (p->mctx != NULL)
		return;
	p->mctx = pcre2_match_context_create(NULL);
	pcre2_set_match_limit(p->mctx, 1000000);
	pcre2_set_depth_limit(p->mctx, 10000);
}

void
cel_regex_free(void *re)
{
	pcre2_code_free(re);
}

void
cel_regex_free_context(void *mctx)
{
	pcre2_match_context_free(mctx);
}

/*
 * Match data is per thread (a program is shared between threads);
 * one is kept per thread so that evaluations do not allocate.
 */
static _Thread_local pcre2_match_data *tl_md;

struct cel_val
cel_regex_match(struct cel_ctx *c, const struct cel_node *n,
    struct cel_val s, struct cel_val pat)
{
	pcre2_code	*re = n->re;
	const char	*why = NULL;
	int		 rc;

	if (re == NULL) {
		re = cel_regex_compile(NULL, pat.s, pat.n, &why);
		if (re == NULL)
			return cel_unsup(c, n->col, "regular expression: %s",
			    why);
	}
	if (tl_md == NULL)
		tl_md = pcre2_match_data_create(1, NULL);
	rc = pcre2_match(re, (PCRE2_SPTR)s.s, s.n, 0, 0, tl_md,
	    c->p->mctx);
	if (re != n->re)
		pcre2_code_free(re);
	if (rc >= 0)
		return vbool(1);
	if (rc == PCRE2_ERROR_NOMATCH)
		return vbool(0);
	return cel_unsup(c, n->col, "regular expression too costly for a "
	    "backtracking matcher");
}
