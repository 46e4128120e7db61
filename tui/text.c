/*
 * text.c: display widths and fitted drawing of UTF-8 text.
 *
 * Cells hold UTF-8 from the API (names are ASCII, messages and labels
 * need not be).  Widths come from mbrtowc and wcwidth in the current
 * locale, so a CJK label takes two columns and is never cut in half;
 * bytes that do not decode and control characters are shown as '?'
 * (one column), so an object cannot move the cursor or change the
 * terminal's state.
 */
#include "tui-int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>

struct uchar {
	size_t	len;		/* bytes */
	int	width;		/* columns */
	int	bad;		/* shown as '?' */
};

static void	next_char(const char *s, struct uchar *u);

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

int
tui_natcmp(const char *a, const char *b)
{
	const char	*na, *nb;
	size_t		 la, lb;
	int		 c;

	while (*a != '\0' && *b != '\0') {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			while (*a == '0' && isdigit((unsigned char)a[1]))
				a++;
			while (*b == '0' && isdigit((unsigned char)b[1]))
				b++;
			for (na = a; isdigit((unsigned char)*na); na++)
				;
			for (nb = b; isdigit((unsigned char)*nb); nb++)
				;
			la = (size_t)(na - a);
			lb = (size_t)(nb - b);
			if (la != lb)
				return la < lb ? -1 : 1;
			c = strncmp(a, b, la);
			if (c != 0)
				return c;
			a = na;
			b = nb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	if (*a == *b)
		return 0;
	return *a == '\0' ? -1 : 1;
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
