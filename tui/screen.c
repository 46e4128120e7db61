/*
 * screen.c: the terminal, set up and torn down here only (htop's
 * CRT_init/CRT_done, ncdu's init_nc/close_nc).
 *
 * newterm on the given streams, cbreak (keys at once, ctrl-c still a
 * signal), noecho, nonl, keypad for the arrow and function keys,
 * curs_set(0), set_escdelay(25) so Esc answers at once (htop Panel.c).
 * Colours come from one table (TUI_COLOURS in tui-int.h) expanded into
 * pairs on default colours; without colours (no colour terminal,
 * NO_COLOR of https://no-color.org, --no-color) every element uses its
 * monochrome attribute instead.  Glyphs fall back to ASCII unless the
 * locale's codeset is UTF-8 (nl_langinfo).  A terminal type without
 * cursor addressing (cup; TERM=dumb) is refused like an unknown one.
 *
 * While curses runs, stderr goes to a temporary file: a library or an
 * exec credential plugin writing there would break the screen.  It is
 * copied to the real stderr after endwin (htop redirectStderr).
 */
#include "tui-int.h"

#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <term.h>

static void	redirect_stderr(struct tui_screen *);
static void	restore_stderr(struct tui_screen *);

static const struct {
	short	fg;
	short	bg;
	attr_t	attr;
	attr_t	mono;
} colour_table[TUI_C_COUNT] = {
#define TUI_COLOUR_ROW(name, fg, bg, attr, mono) { fg, bg, attr, mono },
	TUI_COLOURS(TUI_COLOUR_ROW)
#undef TUI_COLOUR_ROW
};

static const struct tui_glyphs glyphs_ascii = {
	"~", ".", ":", ">", "^", "v"
};
static const struct tui_glyphs glyphs_utf8 = {
	"\xe2\x80\xa6",		/* … */
	"\xc2\xb7",		/* · */
	"\xe2\x96\x91",		/* ░ */
	"\xe2\x80\xba",		/* › */
	"\xe2\x86\x91",		/* ↑ */
	"\xe2\x86\x93",		/* ↓ */
};

/* The open screen's state (one screen at a time). */
static const struct tui_glyphs	*glyphs = &glyphs_ascii;
static attr_t			 attrs[TUI_C_COUNT];
static int			 attrs_set;

const struct tui_glyphs *
tui_glyphs(void)
{
	return glyphs;
}

attr_t
tui_attr(enum tui_colour c)
{
	if (!attrs_set || (int)c < 0 || c >= TUI_C_COUNT)
		return A_NORMAL;
	return attrs[c];
}

static void
redirect_stderr(struct tui_screen *scr)
{
	FILE	*f;
	int	 fd;

	scr->saved_stderr = -1;
	scr->errlog = NULL;
	f = tmpfile();
	if (f == NULL)
		return;
	fflush(stderr);
	fd = dup(STDERR_FILENO);
	if (fd == -1) {
		fclose(f);
		return;
	}
	if (dup2(fileno(f), STDERR_FILENO) == -1) {
		close(fd);
		fclose(f);
		return;
	}
	scr->saved_stderr = fd;
	scr->errlog = f;
}

static void
restore_stderr(struct tui_screen *scr)
{
	char	buf[4096];
	size_t	n;

	if (scr->saved_stderr == -1)
		return;
	fflush(stderr);
	dup2(scr->saved_stderr, STDERR_FILENO);
	close(scr->saved_stderr);
	scr->saved_stderr = -1;
	if (scr->errlog == NULL)
		return;
	rewind(scr->errlog);
	while ((n = fread(buf, 1, sizeof buf, scr->errlog)) > 0)
		fwrite(buf, 1, n, stderr);
	fclose(scr->errlog);
	scr->errlog = NULL;
	fflush(stderr);
}

int
tui_screen_open(struct tui_screen *scr, FILE *in, FILE *out,
    const char *term, int no_color, int mouse, int redirect,
    struct dra_err *err)
{
	const char	*nc, *cs;
	char		*cup;
	short		 i;
	int		 e = 0;

	memset(scr, 0, sizeof *scr);
	scr->saved_stderr = -1;
	scr->in = in;
	scr->out = out;

	setlocale(LC_CTYPE, "");
	cs = nl_langinfo(CODESET);
	scr->utf8 = cs != NULL && (strcasecmp(cs, "UTF-8") == 0 ||
	    strcasecmp(cs, "utf8") == 0);
	glyphs = scr->utf8 ? &glyphs_utf8 : &glyphs_ascii;

	if (term == NULL) {
		term = getenv("TERM");
		if (term == NULL || *term == '\0')
			return dra_err_set(err, KUBE_E_IO, "cannot open the "
			    "terminal: TERM is not set");
	}
	/*
	 * Check the terminal type first: a newterm that fails leaks its
	 * pre-screen (ncurses 6.4).
	 */
	if (setupterm(term, fileno(out), &e) != OK)
		return dra_err_set(err, KUBE_E_IO, "cannot open the terminal: "
		    "%s \"%s\"", e == 0 ? "unknown terminal type" :
		    "no terminfo database for", term);
	/*
	 * A terminal that cannot move the cursor (TERM=dumb, emacs'
	 * shell) would get one garbled line: refuse it as htop and less
	 * do.
	 */
	cup = tigetstr("cup");
	if (cup == NULL || cup == (char *)-1) {
		del_curterm(cur_term);
		return dra_err_set(err, KUBE_E_IO, "cannot open the terminal: "
		    "terminal type \"%s\" cannot move the cursor (no cup "
		    "capability); use a terminal such as xterm", term);
	}
	del_curterm(cur_term);
	if (redirect)
		redirect_stderr(scr);
	scr->sp = newterm(term, out, in);
	if (scr->sp == NULL) {
		restore_stderr(scr);
		return dra_err_set(err, KUBE_E_IO, "cannot open the terminal: "
		    "unknown terminal type \"%s\"", term);
	}
	set_term(scr->sp);
	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	/* Keys come when poll() says so (tui/loop.c). */
	nodelay(stdscr, TRUE);

	nc = getenv("NO_COLOR");
	scr->colour = has_colors() && !no_color && (nc == NULL || *nc == '\0');
	if (scr->colour) {
		start_color();
		use_default_colors();
		for (i = 0; i < TUI_C_COUNT; i++) {
			if (colour_table[i].fg == -1 &&
			    colour_table[i].bg == -1) {
				attrs[i] = colour_table[i].attr;
				continue;
			}
			if (i + 1 >= COLOR_PAIRS) {
				attrs[i] = colour_table[i].mono;
				continue;
			}
			init_pair(i + 1, colour_table[i].fg,
			    colour_table[i].bg);
			attrs[i] = COLOR_PAIR(i + 1) | colour_table[i].attr;
		}
	} else {
		for (i = 0; i < TUI_C_COUNT; i++)
			attrs[i] = colour_table[i].mono;
	}
	attrs_set = 1;
	if (mouse) {
		mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED |
		    BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED |
		    BUTTON5_PRESSED, NULL);
		mouseinterval(0);
		scr->mouse = 1;
	}
	return KUBE_OK;
}

void
tui_screen_close(struct tui_screen *scr)
{
	if (scr->sp != NULL) {
		if (scr->mouse)
			mousemask(0, NULL);
		curs_set(1);
		endwin();
		delscreen(scr->sp);
		scr->sp = NULL;
	}
	attrs_set = 0;
	glyphs = &glyphs_ascii;
	restore_stderr(scr);
}

char *
tui_screen_line(int y, char *buf, size_t len)
{
	cchar_t	cc;
	wchar_t	wc[CCHARW_MAX + 1];
	attr_t	a;
	short	pair;
	char	mb[16];
	size_t	o = 0, n, end = 0;
	int	x, cols = getmaxx(stdscr);

	if (len == 0)
		return buf;
	for (x = 0; x < cols; x++) {
		if (mvwin_wch(stdscr, y, x, &cc) == ERR)
			break;
		if (getcchar(&cc, wc, &a, &pair, NULL) == ERR)
			continue;
		if (wc[0] == L'\0')
			continue;	/* the right half of a wide char */
		n = wcstombs(mb, wc, sizeof mb);
		if (n == (size_t)-1) {
			mb[0] = '?';
			n = 1;
		}
		if (o + n + 1 >= len)
			break;
		memcpy(buf + o, mb, n);
		o += n;
		if (!(n == 1 && mb[0] == ' '))
			end = o;
	}
	buf[end] = '\0';
	return buf;
}
