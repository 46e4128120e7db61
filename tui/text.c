/*
 * text.c: display widths and fitted drawing of UTF-8 text.
 *
 * Cells hold UTF-8 from the API (names are ASCII, messages and labels
 * need not be).  Widths come from mbrtowc and wcwidth in the current
 * locale, so a CJK label takes two columns and is never cut in half;
 * bytes that do not decode and control characters are shown as '?'
 * (one column), so an object cannot move the cursor or change the
 * terminal's state.
 *
 * Filters and sorting of long lists live here too, as pure functions
 * on strings: a filter is compiled once into a struct tui_match (a
 * plain ASCII word becomes a substring search on text lower-cased once
 * per table, which glibc's REG_ICASE would otherwise redo with towupper
 * on every character of every row on every key), and tui_natkey turns
 * a cell into a key whose byte order is dra_natcmp's, so a sort
 * compares with memcmp.
 */
#include "tui-int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>

#include "xmalloc.h"

struct uchar {
	size_t	len;		/* bytes */
	int	width;		/* columns */
	int	bad;		/* shown as '?' */
};

static void	next_char(const char *s, struct uchar *u);
static int	plain_text(const char *);
static int	simple_regex(const char *);
static void	lower_copy(char *, const char *, size_t);

/* The special characters of a POSIX extended regular expression. */
#define ERE_SPECIAL	"\\^$.[]|()*+?{}"

/* Decode the character at s (not at its NUL). */
static void
next_char(const char *s, struct uchar *u)
{
	mbstate_t	ps;
	wchar_t		wc;
	size_t		n;
	int		w;

	if ((unsigned char)*s < 0x80) {
		u->len = 1;
		u->width = 1;
		u->bad = iscntrl((unsigned char)*s) != 0;
		return;
	}
	memset(&ps, 0, sizeof ps);
	n = mbrtowc(&wc, s, MB_CUR_MAX, &ps);
	if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
		u->len = 1;
		u->width = 1;
		u->bad = 1;
		return;
	}
	w = wcwidth(wc);
	u->len = n;
	if (w < 0) {
		u->width = 1;
		u->bad = 1;
	} else {
		u->width = w;
		u->bad = 0;
	}
}

int
tui_strwidth(const char *s)
{
	struct uchar	u;
	int		w = 0;

	/* ASCII, most cells: a column a byte (a control character is
	   shown as '?'). */
	while (*s != '\0' && (unsigned char)*s < 0x80) {
		s++;
		w++;
	}
	while (*s != '\0') {
		next_char(s, &u);
		w += u.width;
		s += u.len;
	}
	return w;
}

char *
tui_fit(const char *s, int width, char *buf, size_t len)
{
	const char	*ell = tui_glyphs()->ellipsis;
	struct uchar	 u;
	size_t		 o = 0;
	int		 used = 0, ew;

	if (len == 0)
		return buf;
	buf[0] = '\0';
	if (width <= 0)
		return buf;
	if (tui_strwidth(s) <= width) {
		snprintf(buf, len, "%s", s);
		return buf;
	}
	ew = tui_strwidth(ell);
	while (*s != '\0') {
		next_char(s, &u);
		if (used + u.width > width - ew)
			break;
		if (o + u.len + 1 >= len)
			break;
		if (u.bad)
			buf[o++] = '?';
		else {
			memcpy(buf + o, s, u.len);
			o += u.len;
		}
		used += u.width;
		s += u.len;
	}
	buf[o] = '\0';
	if (width >= ew && o + strlen(ell) < len) {
		memcpy(buf + o, ell, strlen(ell) + 1);
	}
	return buf;
}

int
tui_addfit(WINDOW *w, const char *s, int width, int pad, int right)
{
	const char	*ell = tui_glyphs()->ellipsis;
	struct uchar	 u;
	int		 total, used = 0, limit, ew, cut;

	if (width <= 0)
		return 0;
	total = tui_strwidth(s);
	ew = tui_strwidth(ell);
	cut = total > width;
	limit = cut ? width - ew : width;
	if (!cut && right && pad) {
		for (; used < width - total; used++)
			waddch(w, ' ');
		limit = width;
	}
	while (*s != '\0') {
		next_char(s, &u);
		if (used + u.width > limit)
			break;
		if (u.bad)
			waddch(w, '?');
		else if (u.width > 0 || used > 0)
			waddnstr(w, s, (int)u.len);
		used += u.width;
		s += u.len;
	}
	if (cut && width >= ew) {
		/* A wide character that did not fit leaves a gap. */
		while (used < width - ew) {
			waddch(w, ' ');
			used++;
		}
		waddstr(w, ell);
		used += ew;
	}
	while (pad && used < width) {
		waddch(w, ' ');
		used++;
	}
	return used;
}

const char *
tui_skipcols(const char *s, int cols)
{
	struct uchar	u;
	int		w = 0;

	while (*s != '\0' && w < cols) {
		next_char(s, &u);
		w += u.width;
		s += u.len;
	}
	return s;
}

const char *
tui_strcasestr(const char *hay, const char *needle)
{
	size_t	n = strlen(needle);

	if (n == 0)
		return hay;
	for (; *hay != '\0'; hay++) {
		if (strncasecmp(hay, needle, n) == 0)
			return hay;
	}
	return NULL;
}

int64_t
tui_age_seconds(const char *s)
{
	int64_t	 total = 0, n;
	char	*end;

	if (!isdigit((unsigned char)*s))
		return -1;
	while (*s != '\0') {
		if (!isdigit((unsigned char)*s))
			return -1;
		n = strtoll(s, &end, 10);
		switch (*end) {
		case 's':
			total += n;
			break;
		case 'm':
			total += n * 60;
			break;
		case 'h':
			total += n * 3600;
			break;
		case 'd':
			total += n * 86400;
			break;
		case 'y':
			total += n * 365 * 86400;
			break;
		default:
			return -1;
		}
		s = end + 1;
	}
	return total;
}

size_t
tui_natkey(const char *s, unsigned char *buf, size_t len)
{
	const unsigned char	*p = (const unsigned char *)s, *e;
	size_t			 o = 0, n, i;

#define PUT(c) do {							\
	if (o < len)							\
		buf[o] = (unsigned char)(c);				\
	o++;								\
} while (0)
#define DIGIT(c)	((unsigned)(c) - '0' < 10)
	while (*p != '\0') {
		if (!DIGIT(*p)) {
			PUT(*p);
			p++;
			continue;
		}
		/* A number: leading zeros go, as in dra_natcmp. */
		while (*p == '0' && DIGIT(p[1]))
			p++;
		for (e = p; DIGIT(*e); e++)
			;
		n = (size_t)(e - p);
		if (n > UINT32_MAX)
			n = UINT32_MAX;
		if (n < 10)
			PUT('0' + n - 1);
		else {
			PUT('9');
			PUT(n >> 24);
			PUT(n >> 16);
			PUT(n >> 8);
			PUT(n);
		}
		for (i = 0; i < n; i++)
			PUT(p[i]);
		p = e;
	}
#undef DIGIT
#undef PUT
	return o;
}

/*
 * Whether s is a pattern that means itself: printable ASCII without a
 * special character of an extended regex.
 */
static int
plain_text(const char *s)
{
	for (; *s != '\0'; s++) {
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f ||
		    strchr(ERE_SPECIAL, *s) != NULL)
			return 0;
	}
	return 1;
}

/* Whether s is printable ASCII without a bracket or a backslash. */
static int
simple_regex(const char *s)
{
	for (; *s != '\0'; s++) {
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f ||
		    *s == '[' || *s == '\\')
			return 0;
	}
	return 1;
}

/* Copy s into buf (len bytes, cut), ASCII letters lower-cased. */
static void
lower_copy(char *buf, const char *s, size_t len)
{
	size_t	o = 0;

	if (len == 0)
		return;
	for (; *s != '\0' && o + 1 < len; s++) {
		if (*s >= 'A' && *s <= 'Z')
			buf[o++] = (char)(*s - 'A' + 'a');
		else
			buf[o++] = *s;
	}
	buf[o] = '\0';
}

void
tui_lower(char *dst, const char *s, size_t n, int *wide)
{
	const uint64_t	ones = 0x0101010101010101ULL;
	const uint64_t	high = 0x8080808080808080ULL;
	uint64_t	w, h, hi = 0;
	size_t		i;
	unsigned char	c;

	/*
	 * Eight bytes at a time (the rows of a list are lower-cased
	 * once per table, 10 MB at 100,000 devices): a byte is an upper
	 * case letter when it is ASCII, at least 'A' and not above 'Z'.
	 */
	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&w, s + i, 8);
		hi |= w;
		h = w & ~high;
		h = ((h + (0x80 - 'A') * ones) ^ (h + (0x7f - 'Z') * ones)) &
		    ~w & high;
		w |= h >> 2;
		memcpy(dst + i, &w, 8);
	}
	for (; i < n; i++) {
		c = (unsigned char)s[i];
		hi |= c;
		dst[i] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
	}
	if ((hi & high) != 0)
		*wide = 1;
}

void
tui_match_init(struct tui_match *m)
{
	memset(m, 0, sizeof *m);
	m->kind = TUI_MATCH_ALL;
}

void
tui_match_free(struct tui_match *m)
{
	if (m->re_ok)
		regfree(&m->re);
	if (m->lre_ok)
		regfree(&m->lre);
	tui_match_init(m);
}

int
tui_match_set(struct tui_match *m, const char *text)
{
	char	copy[sizeof m->text];
	int	plain;

	snprintf(copy, sizeof copy, "%s", text);
	tui_match_free(m);
	memcpy(m->text, copy, sizeof m->text);
	m->inverse = m->text[0] == '!';
	if (m->text[m->inverse] == '\0')
		return 0;	/* "" and "!": every row */
	plain = plain_text(m->text + m->inverse);
	lower_copy(m->needle, m->text + m->inverse, sizeof m->needle);
	if (regcomp(&m->re, m->text + m->inverse, REG_EXTENDED | REG_ICASE |
	    REG_NOSUB) == 0) {
		m->re_ok = 1;
		m->kind = plain ? TUI_MATCH_SUB : TUI_MATCH_REGEX;
		/*
		 * Without brackets and escapes a letter of a regex is
		 * only ever itself, so on ASCII text the lower-cased
		 * pattern finds, case-sensitively, what the pattern finds
		 * ignoring case; and glibc matches an ASCII pattern
		 * without REG_ICASE byte by byte, not through wide
		 * characters (towupper on each).
		 */
		if (!plain && simple_regex(m->text + m->inverse) &&
		    regcomp(&m->lre, m->needle, REG_EXTENDED | REG_NOSUB) ==
		    0)
			m->lre_ok = 1;
		return 0;
	}
	m->kind = TUI_MATCH_LITERAL;
	return TUI_FILTER_LITERAL;
}

int
tui_match_narrows(const struct tui_match *old, const char *text)
{
	char	needle[sizeof old->needle];
	int	inverse = text[0] == '!';

	if (strcmp(old->text, text) == 0)
		return 1;
	if (old->kind == TUI_MATCH_ALL)
		return 1;
	if (text[inverse] == '\0')
		return 0;	/* every row: more than before */
	if (old->inverse || inverse || (old->kind != TUI_MATCH_SUB &&
	    old->kind != TUI_MATCH_LITERAL))
		return 0;
	/* A plain word that holds the old word: fewer rows, none new. */
	if (!plain_text(text))
		return 0;
	lower_copy(needle, text, sizeof needle);
	return strstr(needle, old->needle) != NULL;
}

int
tui_match_plain(const struct tui_match *m, int wide)
{
	return m->kind == TUI_MATCH_ALL || (!wide && (m->kind ==
	    TUI_MATCH_SUB || m->kind == TUI_MATCH_LITERAL || m->lre_ok));
}

int
tui_match_test(const struct tui_match *m, const char *lower,
    const char *orig)
{
	int	r;

	switch (m->kind) {
	case TUI_MATCH_ALL:
		return 1;
	case TUI_MATCH_SUB:
		r = orig == NULL ? strstr(lower, m->needle) != NULL :
		    regexec(&m->re, orig, 0, NULL, 0) == 0;
		break;
	case TUI_MATCH_LITERAL:
		r = orig == NULL ? strstr(lower, m->needle) != NULL :
		    tui_strcasestr(orig, m->text + m->inverse) != NULL;
		break;
	default:
		r = orig == NULL ? regexec(&m->lre, lower, 0, NULL, 0) == 0 :
		    regexec(&m->re, orig, 0, NULL, 0) == 0;
		break;
	}
	return m->inverse ? !r : r;
}

void
tui_texts_init(struct tui_texts *t, size_t nitems, size_t avg)
{
	tui_texts_free(t);
	t->cap = avg * (nitems + 1);
	t->text = xmalloc(t->cap);
	t->off = xcalloc(nitems + 1, sizeof *t->off);
	t->wide = xcalloc(nitems + 1, sizeof *t->wide);
}

void
tui_texts_add(struct tui_texts *t, const char *s, size_t n)
{
	if (t->len + n + 1 > t->cap) {
		while (t->len + n + 1 > t->cap)
			t->cap *= 2;
		t->text = xreallocarray(t->text, t->cap, 1);
	}
	memcpy(t->text + t->len, s, n);
	t->len += n;
}

void
tui_texts_end(struct tui_texts *t)
{
	int	wide = 0;

	tui_texts_add(t, "", 0);	/* room for the NUL */
	tui_lower(t->text + t->start, t->text + t->start,
	    t->len - t->start, &wide);
	t->text[t->len++] = '\0';
	t->off[t->n] = t->start;
	t->wide[t->n] = (unsigned char)wide;
	t->n++;
	t->start = t->len;
}

const char *
tui_texts_get(const struct tui_texts *t, size_t i)
{
	return t->text != NULL && i < t->n ? t->text + t->off[i] : NULL;
}

int
tui_texts_match(const struct tui_texts *t, const struct tui_match *m,
    size_t i, const char *(*orig)(void *, size_t), void *arg)
{
	const char	*lower = tui_texts_get(t, i);

	if (lower != NULL && tui_match_plain(m, t->wide[i]))
		return tui_match_test(m, lower, NULL);
	return tui_match_test(m, lower, orig(arg, i));
}

void
tui_texts_free(struct tui_texts *t)
{
	free(t->text);
	free(t->off);
	free(t->wide);
	memset(t, 0, sizeof *t);
}
