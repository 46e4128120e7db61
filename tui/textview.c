/*
 * textview.c: a scrolling text (describe, YAML, why, help), like
 * less -S: the text is split into lines once; drawing shows the lines
 * from top and from column left (Left/Right), cut at the screen
 * width, the line of the current search match highlighted.  The
 * search is a case-insensitive extended regex (a substring when the
 * expression does not compile), wrapping around.
 */
#include "tui-int.h"

#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

static int	line_matches(const struct tui_textview *, size_t);

void
tui_tv_init(struct tui_textview *tv)
{
	memset(tv, 0, sizeof *tv);
	tv->match = (size_t)-1;
	tv->height = 1;
}

void
tui_tv_free(struct tui_textview *tv)
{
	free(tv->lines);
	free(tv->text);
	tv->lines = NULL;
	tv->text = NULL;
	tv->nlines = 0;
	if (tv->re_ok)
		regfree(&tv->re);
	tv->re_ok = 0;
}

void
tui_tv_set_text(struct tui_textview *tv, char *text, int keep)
{
	size_t	n = 0, i;
	char	*p;

	free(tv->lines);
	free(tv->text);
	tv->lines = NULL;
	tv->nlines = 0;
	tv->text = text != NULL ? text : xstrdup("");
	for (p = tv->text; *p != '\0'; p++) {
		if (*p == '\n')
			n++;
	}
	tv->lines = xcalloc(n + 1, sizeof *tv->lines);
	p = tv->text;
	for (i = 0; *p != '\0'; i++) {
		tv->lines[i] = p;
		p = strchr(p, '\n');
		if (p == NULL)
			break;
		*p++ = '\0';
	}
	if (p != NULL || i == 0)
		tv->nlines = i;
	else
		tv->nlines = i + 1;
	tv->width = 0;
	for (i = 0; i < tv->nlines; i++) {
		int	w = tui_strwidth(tv->lines[i]);

		if (w > tv->width)
			tv->width = w;
	}
	if (!keep) {
		tv->top = 0;
		tv->left = 0;
		tv->match = (size_t)-1;
	} else {
		if (tv->top >= tv->nlines)
			tv->top = tv->nlines > 0 ? tv->nlines - 1 : 0;
		if (tv->match != (size_t)-1 && tv->match >= tv->nlines)
			tv->match = (size_t)-1;
	}
}

static int
line_matches(const struct tui_textview *tv, size_t i)
{
	if (tv->re_ok)
		return regexec(&tv->re, tv->lines[i], 0, NULL, 0) == 0;
	return tui_strcasestr(tv->lines[i], tv->search) != NULL;
}

int
tui_tv_search(struct tui_textview *tv, const char *text, int dir)
{
	size_t	i, n, start;

	if (text != tv->search) {
		snprintf(tv->search, sizeof tv->search, "%s", text);
		if (tv->re_ok)
			regfree(&tv->re);
		tv->re_ok = tv->search[0] != '\0' && regcomp(&tv->re,
		    tv->search, REG_EXTENDED | REG_ICASE | REG_NOSUB) == 0;
		/* A new search starts at the top of the screen. */
		tv->match = tv->top > 0 ? tv->top - 1 : (size_t)-1;
		if (dir < 0)
			tv->match = tv->top;
	}
	if (tv->search[0] == '\0' || tv->nlines == 0) {
		tv->match = (size_t)-1;
		return 0;
	}
	if (tv->match == (size_t)-1)
		start = dir > 0 ? 0 : tv->nlines - 1;
	else if (dir > 0)
		start = (tv->match + 1) % tv->nlines;
	else
		start = (tv->match + tv->nlines - 1) % tv->nlines;
	for (n = 0; n < tv->nlines; n++) {
		if (dir > 0)
			i = (start + n) % tv->nlines;
		else
			i = (start + tv->nlines - n) % tv->nlines;
		if (line_matches(tv, i)) {
			tv->match = i;
			if (i < tv->top || i >= tv->top + (size_t)tv->height)
				tv->top = i > 2 ? i - 2 : 0;
			return 1;
		}
	}
	tv->match = (size_t)-1;
	return 0;
}

int
tui_tv_move(struct tui_textview *tv, long delta)
{
	size_t	old = tv->top, max;
	long	to;

	max = tv->nlines > (size_t)tv->height ? tv->nlines -
	    (size_t)tv->height : 0;
	to = (long)tv->top + delta;
	if (to < 0)
		to = 0;
	if ((size_t)to > max)
		to = (long)max;
	tv->top = (size_t)to;
	return tv->top != old ? TUI_REDRAW : 0;
}

int
tui_tv_side(struct tui_textview *tv, int delta)
{
	int	old = tv->left;

	tv->left += delta;
	if (tv->left > tv->width - 8)
		tv->left = tv->width - 8;
	if (tv->left < 0)
		tv->left = 0;
	return tv->left != old ? TUI_REDRAW : 0;
}

void
tui_tv_draw(struct tui_textview *tv, WINDOW *w, int y, int x, int h,
    int width)
{
	size_t	i, l;

	for (i = 0; (int)i < h; i++) {
		l = tv->top + i;
		wmove(w, y + (int)i, x);
		if (l < tv->nlines && l == tv->match)
			wattrset(w, tui_attr(TUI_C_MATCH));
		else
			wattrset(w, tui_attr(TUI_C_NORMAL));
		tui_addfit(w, l < tv->nlines ? tui_skipcols(tv->lines[l],
		    tv->left) : "", width, 1, 0);
	}
	wattrset(w, tui_attr(TUI_C_NORMAL));
}
