/*
 * tui-int.h: the inside of dra_tui, shared by its files, its unit
 * tests (tests/unit/tui) and the UI benchmark.
 *
 * The UI is a struct tui: the current snapshot, a stack of views
 * (the root is a list or the GPU map, detail views are pushed on it),
 * the prompt of command and filter mode, and the status line.  It can
 * be made and driven without a terminal:
 *
 *	t = tui_new(&opts, &src);		no curses needed
 *	tui_set_snapshot(t, snap, now_ms);	takes snap
 *	tui_resize(t, 40, 120);			the size views lay out for
 *	tui_key(t, 'j');			model changes only
 *	tui_prepare(t);				rebuild what the draw reads
 *	tui_draw(t);				needs curses (stdscr)
 *	tui_free(t);
 *
 * tui_draw writes to stdscr, so a test or a benchmark that draws first
 * opens a screen on any stream (tui_screen_open on /dev/null with
 * TERM "xterm-256color", then resizeterm) and reads the result back
 * with tui_screen_line.  tui_key never draws; tui_prepare never
 * writes to curses.  Nothing here prints or exits.
 */
#ifndef DRA_TUI_INT_H
#define DRA_TUI_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <curses.h>
#include <regex.h>

#include "tui.h"
#include "views.h"

struct dra_gpu;
struct dra_gpu_map;
struct tui;
struct tui_view;

/* Reaction flags of key handlers (CONVENTIONS.md b6). */
#define TUI_REDRAW	0x01	/* the screen changed */
#define TUI_REFRESH	0x02	/* fetch again (ctrl-r) */
#define TUI_QUIT	0x04	/* leave the UI */
#define TUI_UNHANDLED	0x08	/* not this handler's key */

/* The smallest screen the UI draws on; below it says so and waits. */
#define TUI_MIN_COLS	50
#define TUI_MIN_LINES	10

/*
 * A why text is made again with new data only when making it took
 * less than this; else the title says the data changed and r
 * recomputes it (the allocator over every node may take a second on a
 * large cluster, and data may change several times a second).
 */
#define TUI_WHY_AUTO_MS	100

/* Lines above and below the body: two header lines, the title, the
   breadcrumbs and the status line. */
#define TUI_HEAD_LINES	3
#define TUI_FOOT_LINES	2

/*
 * After a key, new data waits this long before it replaces the
 * current rows, so they do not move under the cursor (htop's
 * ScreenManager sortTimeout).
 */
#define TUI_HOLD_MS	800

/* How long a note and an error stay on the status line. */
#define TUI_STATUS_MS	4000
#define TUI_ERROR_MS	8000

/* ---- screen.c: the terminal ---------------------------------------- */

/*
 * The colour table, one X(NAME, FOREGROUND, BACKGROUND, COLOUR_ATTR,
 * MONO_ATTR) per element, expanded into enum tui_colour and the pair
 * table (ncdu's UI_COLORS, htop's ColorElements).  -1 is the
 * terminal's default colour (use_default_colors).  MONO_ATTR is used
 * when the terminal has no colours, NO_COLOR is set or --no-color was
 * given: the selection reverse and bold, held partitions underlined
 * (not reverse: the selection is), pending rows and quotas at the
 * target bold, tainted and over-ceiling ones bold and underlined.
 */
#define TUI_COLOURS(X) \
	X(NORMAL, -1, -1, A_NORMAL, A_NORMAL)                               \
	X(HEADER, COLOR_CYAN, -1, A_NORMAL, A_NORMAL)                       \
	X(HEADVAL, -1, -1, A_BOLD, A_BOLD)                                  \
	X(TITLE, COLOR_CYAN, -1, A_BOLD, A_BOLD)                            \
	X(COLHEAD, COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_UNDERLINE)          \
	X(SORTHEAD, COLOR_BLACK, COLOR_YELLOW, A_BOLD, A_BOLD | A_UNDERLINE) \
	X(SELECTED, COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE | A_BOLD)  \
	X(PENDING, COLOR_YELLOW, -1, A_NORMAL, A_BOLD)                      \
	X(BAD, COLOR_RED, -1, A_NORMAL, A_BOLD | A_UNDERLINE)               \
	X(LIVE, COLOR_GREEN, -1, A_BOLD, A_BOLD)                            \
	X(STALE, COLOR_YELLOW, -1, A_BOLD, A_BOLD | A_REVERSE)              \
	X(OFFLINE, COLOR_MAGENTA, -1, A_BOLD, A_BOLD)                       \
	X(ERROR, COLOR_RED, -1, A_BOLD, A_BOLD)                             \
	X(NOTE, COLOR_YELLOW, -1, A_NORMAL, A_NORMAL)                       \
	X(CRUMB, COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE)              \
	X(CRUMBTOP, COLOR_BLACK, COLOR_YELLOW, A_BOLD, A_BOLD | A_REVERSE)  \
	X(PROMPT, COLOR_YELLOW, -1, A_BOLD, A_BOLD)                         \
	X(MATCH, COLOR_BLACK, COLOR_YELLOW, A_NORMAL, A_UNDERLINE)          \
	X(DIM, -1, -1, A_DIM, A_DIM)                                        \
	X(UTILOK, COLOR_GREEN, -1, A_BOLD, A_NORMAL)                        \
	X(UTILWARN, COLOR_YELLOW, -1, A_BOLD, A_BOLD)                       \
	X(UTILHIGH, COLOR_RED, -1, A_BOLD, A_BOLD | A_UNDERLINE)            \
	X(PARTFREE, -1, -1, A_DIM, A_DIM)                                   \
	X(PARTPLAN, COLOR_BLACK, COLOR_MAGENTA, A_NORMAL, A_UNDERLINE)      \
	X(PARTBLOCK, COLOR_WHITE, COLOR_BLACK, A_DIM, A_DIM)                \
	X(PARTTAINT, COLOR_WHITE, COLOR_RED, A_BOLD, A_BOLD)                \
	X(TEAM0, COLOR_BLACK, COLOR_GREEN, A_NORMAL, A_UNDERLINE)           \
	X(TEAM1, COLOR_BLACK, COLOR_BLUE, A_NORMAL, A_UNDERLINE)            \
	X(TEAM2, COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_UNDERLINE)            \
	X(TEAM3, COLOR_BLACK, COLOR_YELLOW, A_NORMAL, A_UNDERLINE)          \
	X(TEAM4, COLOR_BLACK, COLOR_WHITE, A_NORMAL, A_UNDERLINE)           \
	X(TEAM5, COLOR_WHITE, COLOR_BLUE, A_BOLD, A_UNDERLINE)

enum tui_colour {
#define TUI_COLOUR_ENUM(name, fg, bg, attr, mono) TUI_C_##name,
	TUI_COLOURS(TUI_COLOUR_ENUM)
#undef TUI_COLOUR_ENUM
	TUI_C_COUNT
};
#define TUI_NTEAMS	6

/*
 * The glyphs that depend on the terminal's character set (htop's
 * CRT_treeStr): UTF-8 when the locale's codeset is UTF-8, else ASCII.
 */
struct tui_glyphs {
	const char	*ellipsis;	/* "…" or "~" */
	const char	*free;		/* a free memory slice: "·" or "." */
	const char	*blocked;	/* "░" or ":" */
	const char	*sep;		/* between breadcrumbs: "›" or ">" */
	const char	*up;		/* sort order marks: "↑" or "^" */
	const char	*down;		/* "↓" or "v" */
};

/*
 * The terminal.  screen.c is the only file that sets it up or tears it
 * down (htop CRT_init/CRT_done, ncdu init_nc/close_nc).
 */
struct tui_screen {
	SCREEN		*sp;		/* from newterm */
	FILE		*in;		/* the terminal streams (not owned) */
	FILE		*out;
	int		 colour;	/* colours in use */
	int		 utf8;		/* the locale's codeset is UTF-8 */
	int		 mouse;		/* mouse reports enabled */
	int		 saved_stderr;	/* the real stderr while redirected,
					   or -1 */
	FILE		*errlog;	/* what was written to stderr */
};

/*
 * Open the terminal: setlocale(LC_CTYPE, ""), newterm(term, out, in)
 * (term NULL: $TERM), cbreak, noecho, nonl, keypad, curs_set(0),
 * set_escdelay(25), use_default_colors and the colour pairs of
 * TUI_COLOURS, unless no_color, NO_COLOR (any non-empty value,
 * https://no-color.org) or a terminal without colours make it
 * monochrome; the mouse when mouse is set.  With redirect, stderr goes
 * to a temporary file until tui_screen_close (htop redirectStderr), so
 * nothing written there by libraries or credential plugins breaks the
 * screen.  Returns KUBE_OK, or KUBE_E_IO with err filled ("cannot
 * open the terminal: unknown terminal type \"x\"", or for a terminal
 * type without cursor addressing such as dumb "... terminal type
 * \"dumb\" cannot move the cursor (no cup capability); use a terminal
 * such as xterm").
 */
int	tui_screen_open(struct tui_screen *scr, FILE *in, FILE *out,
	    const char *term, int no_color, int mouse, int redirect,
	    struct dra_err *err);

/*
 * Restore the terminal (endwin, delscreen) and stderr, then copy to
 * stderr what was written to it meanwhile.  Safe to call twice.
 */
void	tui_screen_close(struct tui_screen *scr);

/* The curses attribute of colour element c on the open screen. */
attr_t	tui_attr(enum tui_colour c);

/* The glyph set of the open screen (ASCII before one is open). */
const struct tui_glyphs *tui_glyphs(void);

/*
 * Line y of stdscr as text (UTF-8, trailing blanks removed), into buf
 * (len bytes); for tests and the benchmark.  Returns buf.
 */
char	*tui_screen_line(int y, char *buf, size_t len);

/* ---- text.c: display widths --------------------------------------- */

/*
 * The display width in terminal columns of the UTF-8 string s (wcwidth
 * per character in the current locale; an invalid byte or a control
 * character counts 1, as it is shown as '?').
 */
int	tui_strwidth(const char *s);

/*
 * Draw s on w at the cursor in exactly width columns: truncated with
 * the ellipsis glyph when longer (a wide character never split),
 * padded with blanks when shorter (pad set), control characters shown
 * as '?'.  Right-aligned when right is set.  Returns the columns
 * drawn.
 */
int	tui_addfit(WINDOW *w, const char *s, int width, int pad, int right);

/*
 * Copy into buf (len bytes) the longest prefix of s that fits width
 * columns, with the ellipsis glyph at the end when s was cut; for
 * tests and text layout.  Returns buf.
 */
char	*tui_fit(const char *s, int width, char *buf, size_t len);

/* s after its first cols display columns (a wide character that
   straddles the edge is skipped whole). */
const char *tui_skipcols(const char *s, int cols);

/* The first place needle occurs in hay, ignoring ASCII case, or NULL. */
const char *tui_strcasestr(const char *hay, const char *needle);

/*
 * An AGE cell ("5s", "4m30s", "3h", "2d", "3y") in seconds, for
 * sorting; -1 for "<unknown>" and anything else.
 */
int64_t	tui_age_seconds(const char *s);

/*
 * The natural-order key of s: byte strings whose order (memcmp over
 * the shorter length, then the shorter first) is dra_natcmp's, so a
 * sort encodes each cell once instead of running dra_natcmp on every
 * comparison.  A byte that is not a digit stands for itself.  A run
 * of digits, its leading zeros dropped as dra_natcmp does, becomes a
 * byte among the digits (so it sorts against other bytes as a digit
 * does) that says how long it is, '0' for 1 digit to '8' for 9, or '9'
 * and the length in 4 bytes big-endian, then the digits: "gpu-12" is
 * "gpu-" "1" "12".  Writes at most len bytes of the key into buf (buf
 * may be NULL when len is 0) and returns the key's whole length,
 * which may be more (at most twice strlen(s)): call again with a
 * buffer that large.
 */
size_t	tui_natkey(const char *s, unsigned char *buf, size_t len);

/*
 * Copy the n bytes at s into dst (n bytes; dst may be s) with the
 * ASCII letters lower-cased; set *wide when one is >= 0x80 (part of a
 * character outside ASCII, which only the regex can fold).
 */
void	tui_lower(char *dst, const char *s, size_t n, int *wide);

/*
 * A compiled filter, as the lists and the GPU map take it: a POSIX
 * extended regular expression matched case-insensitively, "!x" for
 * the texts that do not match, an invalid expression matched as plain
 * text ignoring ASCII case (tui_strcasestr).  A filter of printable
 * ASCII without a special character of a regex means itself: it is
 * searched as a substring of the text lower-cased once (ASCII), which
 * finds what regexec with REG_ICASE finds on ASCII text; a text with
 * other characters still goes through the regex, which folds them.  A
 * regex without brackets and backslashes is likewise matched on
 * ASCII text lower-cased, lower-cased itself and without REG_ICASE.
 */
enum tui_match_kind {
	TUI_MATCH_ALL,		/* "" or "!": every text */
	TUI_MATCH_SUB,		/* a plain word: substring, ASCII case */
	TUI_MATCH_REGEX,	/* an extended regex, REG_ICASE */
	TUI_MATCH_LITERAL,	/* an invalid regex: substring */
};

struct tui_match {
	char			 text[256];	/* as given; "!x" inverse */
	int			 inverse;
	enum tui_match_kind	 kind;
	int			 re_ok;		/* re compiled */
	regex_t			 re;
	int			 lre_ok;	/* lre compiled */
	regex_t			 lre;		/* REGEX without brackets or
						   escapes: lower-cased,
						   case-sensitive, for ASCII
						   text lower-cased */
	char			 needle[256];	/* the text (after '!')
						   lower-cased */
};

/* An empty filter (every text). */
void	tui_match_init(struct tui_match *m);

/* Free what m holds; m is then empty. */
void	tui_match_free(struct tui_match *m);

/*
 * Compile text (cut at 255 bytes) into m, replacing what it held.
 * Returns TUI_FILTER_LITERAL when text is not a valid regex (matched
 * as text), else 0.
 */
int	tui_match_set(struct tui_match *m, const char *text);

/*
 * Whether every text the filter text would match is matched by old
 * too (text is old's text, old is empty, or both are plain words, not
 * inverse, and text's word holds old's): then only what old kept need
 * be tested again.  0 when unsure.
 */
int	tui_match_narrows(const struct tui_match *old, const char *text);

/*
 * Whether tui_match_test needs no original text for a text whose
 * lower-cased copy is known and which has (wide set) or has not a
 * character outside ASCII.
 */
int	tui_match_plain(const struct tui_match *m, int wide);

/*
 * Whether a text passes m (its inverse applied): lower is the text
 * after tui_lower, orig the text itself; orig may be NULL when
 * tui_match_plain said so, lower may be NULL when it said not.
 */
int	tui_match_test(const struct tui_match *m, const char *lower,
	    const char *orig);

/*
 * The lower-cased texts of a list's rows or a map's GPUs, made once
 * per table or map for the filter (a plain word is a substring search
 * on them, tui_match_plain).  Item i is at text + off[i],
 * NUL-terminated; wide[i] is set when it has bytes outside ASCII.
 * Owned by the struct: tui_texts_free releases it.
 */
struct tui_texts {
	char		*text;		/* NULL until tui_texts_init */
	size_t		*off;
	unsigned char	*wide;
	size_t		 n;		/* items ended */
	size_t		 len;		/* bytes used */
	size_t		 cap;
	size_t		 start;		/* of the item being added */
};

/*
 * Start the texts of nitems items, avg bytes each (a first guess:
 * the buffer grows).  Any texts t held are freed first.
 */
void	tui_texts_init(struct tui_texts *t, size_t nitems, size_t avg);

/* Append the n bytes at s to the item being added. */
void	tui_texts_add(struct tui_texts *t, const char *s, size_t n);

/*
 * End the item being added: lower-case it (tui_lower), NUL-terminate
 * it and record it as item t->n.  At most nitems items.
 */
void	tui_texts_end(struct tui_texts *t);

/* Item i's lower-cased text, or NULL when the texts are not made. */
const char *tui_texts_get(const struct tui_texts *t, size_t i);

/*
 * Whether item i passes m.  orig(arg, i) gives the item's own text
 * (not lower-cased) when m needs it (tui_match_plain says no); it is
 * not called otherwise.
 */
int	tui_texts_match(const struct tui_texts *t, const struct tui_match *m,
	    size_t i, const char *(*orig)(void *, size_t), void *arg);

/* Free t's texts and zero it; a zeroed t is a no-op. */
void	tui_texts_free(struct tui_texts *t);

/* ---- listview.c: the one list widget ------------------------------ */

/*
 * The list widget every table uses (htop Panel, tmux mode-tree): a
 * struct dra_table (borrowed) shown through idx, the rows the filter
 * keeps in the chosen order.  The selection is kept by the row's key
 * (tui_row_key), so it stays on its object when data is replaced.
 * Column widths are the widest cell of each column (computed once per
 * table), fitted to the screen when drawn.
 *
 * What a key costs with 100,000 rows: a filter character tests each
 * row's lower-cased text (made once per table) with a substring search
 * when the filter is a plain word, and only the rows shown when the
 * word grew; the kept rows are taken from order, every row already in
 * sort order, so nothing is sorted again.  A sort encodes the column's
 * cells once (tui_natkey, AGE in seconds) and sorts those; the other
 * direction of the same column reverses order.  The selection is
 * found by row index while the table stays.
 */
struct tui_listview {
	const struct dra_table	*table;		/* borrowed, or NULL */
	int			*natw;		/* natural column widths */
	struct tui_texts	 texts;		/* rows joined by blanks,
						   lower-cased; made on the
						   first plain filter */
	unsigned char		*match;		/* row i passes the filter;
						   NULL: every row does */
	size_t			*order;		/* every row, in sort order */
	uint32_t		*rank;		/* row i's place among the
						   distinct keys of order_col */
	int			 order_col;	/* order is by this column,
						   -1 the table's, -2 none */
	int			 order_desc;
	size_t			*idx;		/* rows shown, in order */
	size_t			 nidx;
	char			 filter[256];	/* as typed, "!x" inverse */
	struct tui_match	 m;		/* filter compiled */
	int			 sort_col;	/* -1: the table's order */
	int			 sort_desc;
	size_t			 sel;		/* index into idx */
	size_t			 top;		/* first row shown */
	int			 height;	/* rows shown by the last
						   layout (a page) */
	int			 width;		/* columns of the last
						   layout */
	int			 left;		/* 0: the columns fitted
						   (tui_lv_layout); k > 0:
						   scrolled sideways, the
						   pinned columns then the
						   others from the k-th */
	char			 selkey[512];	/* key of the selection */
};

/* An empty list. */
void	tui_lv_init(struct tui_listview *lv);

/* Free what lv owns (not the table). */
void	tui_lv_free(struct tui_listview *lv);

/*
 * Show t (borrowed; NULL empties the list).  Widths are recomputed,
 * the filter and the sort applied again and the selection moved to the
 * row whose key is lv->selkey (else it keeps its position, clamped).
 * The selected row keeps its distance from the top of the screen so
 * rows do not jump.
 */
void	tui_lv_set_table(struct tui_listview *lv, const struct dra_table *t);

/*
 * Set the filter: a POSIX extended regular expression matched case
 * insensitively against the row's cells joined by blanks ("/team-a"),
 * or, with a leading '!', rows that do not match ("/!free").  An
 * invalid expression is matched as a plain substring and
 * TUI_FILTER_LITERAL returned; else 0.  "" clears the filter.
 */
#define TUI_FILTER_LITERAL	1
int	tui_lv_set_filter(struct tui_listview *lv, const char *text);

/*
 * Sort by column col (-1: the table's own order) ascending, or
 * descending with desc; natural order, AGE columns by duration.
 * Stable: equal cells keep the table's order.
 */
void	tui_lv_sort(struct tui_listview *lv, int col, int desc);

/* The index of the column named name (upper case), or -1. */
int	tui_lv_column(const struct tui_listview *lv, const char *name);

/* Move the selection to index i of the shown rows (clamped). */
void	tui_lv_select(struct tui_listview *lv, size_t i);

/*
 * Move the selection: by delta rows (a page is lv->height rows).
 * Returns TUI_REDRAW when it moved, else 0.
 */
int	tui_lv_move(struct tui_listview *lv, long delta);

/* The selected row, or NULL when no row is shown. */
const struct dra_row *tui_lv_selected(const struct tui_listview *lv);

/*
 * Fit the columns into width screen columns: the widths each column
 * gets in out (ncolumns long; 0 hides a column).  Columns are
 * separated by 2 blanks.  A name column (NAME, NAMESPACE, a device's
 * DEVICE, a pool's POOL) is given at most 40% of width and never more
 * than 48 columns (its header at least), so a long name does not push
 * every other column out (the whole name is in describe); the sorted
 * column one more for its arrow.  With lv->left 0, when even 10
 * columns each (or the header, or less when the cells are narrower) do
 * not fit, whole columns are left out, the least important first (the
 * -o wide columns, then the others; names never, STATE, CLAIM, AGE,
 * quota figures last), the widest of equals first; then the widest
 * columns shrink together, names last, none below its header.  With
 * lv->left k > 0 (scrolled sideways), the pinned columns (the first,
 * and the second when the first is NAMESPACE) stay and the others
 * follow in table order from the k-th, as many as fit.  Returns how
 * many columns are hidden.
 */
int	tui_lv_layout(const struct tui_listview *lv, int width, int *out);

/*
 * Scroll the columns sideways by delta (Left -1, Right 1) for a list
 * width columns wide: from the fitted layout Right starts the scrolled
 * one at the first column not pinned; Right stops once the last column
 * is shown, Left at the fitted layout.  Returns TUI_REDRAW when it
 * moved, else 0.
 */
int	tui_lv_side(struct tui_listview *lv, int delta, int width);

/* Row colour hook of a view: the colour of a row, or TUI_C_NORMAL. */
typedef enum tui_colour (*tui_row_colour_fn)(const struct dra_table *,
	    const struct dra_row *);

/*
 * Draw lv at (y, x), h lines by width columns on w: the column header,
 * then the rows from lv->top, the selection highlighted, the others
 * in the colour the view's hook gives (colour may be NULL).  Only
 * reads lv: tui_lv_scroll has made the selection visible.
 */
void	tui_lv_draw(struct tui_listview *lv, WINDOW *w, int y, int x, int h,
	    int width, tui_row_colour_fn colour);

/*
 * Keep the selection visible in a window of h rows (sets height and
 * top; the part of drawing that changes the model).
 */
void	tui_lv_scroll(struct tui_listview *lv, int h);

/*
 * The key of a row, stable across snapshots: dra_row_name() plus the
 * namespace of namespaced objects ("resourceclaim.resource.k8s.io/x
 * team-a").  Into buf; returns buf.
 */
char	*tui_row_key(const struct dra_table *t, const struct dra_row *row,
	    char *buf, size_t len);

/* ---- textview.c: scrolling text ----------------------------------- */

/*
 * A text shown line by line (describe, YAML, why, help) with a search:
 * the text is owned, split into lines once.
 */
struct tui_textview {
	char		*text;
	char		**lines;
	size_t		 nlines;
	size_t		 top;		/* first line shown */
	int		 height;
	int		 left;		/* columns scrolled sideways */
	int		 width;		/* of the widest line */
	char		 search[256];
	int		 re_ok;
	regex_t		 re;
	size_t		 match;		/* line of the current match, or
					   (size_t)-1 */
};

void	tui_tv_init(struct tui_textview *tv);
void	tui_tv_free(struct tui_textview *tv);

/*
 * Replace the text (owned from now on; NULL: empty).  With keep, the
 * scroll position and the search stay.
 */
void	tui_tv_set_text(struct tui_textview *tv, char *text, int keep);

/*
 * Search for text (a case-insensitive extended regex, or a substring
 * when invalid) from the line after the current match (dir 1) or
 * before it (dir -1), wrapping; "" clears.  Scrolls to the match.
 * Returns 1 when found, 0 when not.
 */
int	tui_tv_search(struct tui_textview *tv, const char *text, int dir);

/* Scroll by delta lines (clamped).  Returns TUI_REDRAW when moved. */
int	tui_tv_move(struct tui_textview *tv, long delta);

/* Scroll sideways by delta columns (clamped to the widest line). */
int	tui_tv_side(struct tui_textview *tv, int delta);

/* Draw on w at (y, x), h by width; lines cut at width. */
void	tui_tv_draw(struct tui_textview *tv, WINDOW *w, int y, int x, int h,
	    int width);

/* ---- keys.c: key tables ------------------------------------------- */

/* What a key does: the actions of every key table. */
enum tui_action {
	TUI_A_NONE,
	/* Global. */
	TUI_A_QUIT,
	TUI_A_QUIT_NOW,
	TUI_A_BACK,
	TUI_A_COMMAND,
	TUI_A_FILTER,
	TUI_A_HELP,
	TUI_A_REFRESH,
	TUI_A_NEXT_VIEW,
	TUI_A_PREV_VIEW,
	TUI_A_PLAN,
	TUI_A_REDRAW,
	/* Moving (every view). */
	TUI_A_UP,
	TUI_A_DOWN,
	TUI_A_PGUP,
	TUI_A_PGDN,
	TUI_A_HOME,
	TUI_A_END,
	TUI_A_LEFT,
	TUI_A_RIGHT,
	/* On the selected row. */
	TUI_A_DESCRIBE,
	TUI_A_YAML,
	TUI_A_WHY,
	TUI_A_SORT_NEXT,
	TUI_A_SORT_PREV,
	TUI_A_SORT_REVERSE,
	TUI_A_SORT_NAME,
	TUI_A_SORT_AGE,
	TUI_A_WIDE,
	/* Text views. */
	TUI_A_SEARCH_NEXT,
	TUI_A_SEARCH_PREV,
	TUI_A_RECOMPUTE,
};

#define TUI_KEY_CODES	4

/*
 * One binding: up to TUI_KEY_CODES key codes (0-terminated), how the
 * help shows them, what the key does in words, and the action.  Tables
 * end with an entry whose keys is NULL.  The help screen is generated
 * from these tables, so it lists exactly what the dispatch does.
 */
struct tui_binding {
	int		 codes[TUI_KEY_CODES];
	const char	*keys;
	const char	*help;
	enum tui_action	 action;
};

#define TUI_CTRL(c)	((c) & 0x1f)
#define TUI_KEY_ESC	27

extern const struct tui_binding tui_global_keys[];
extern const struct tui_binding tui_move_keys[];
extern const struct tui_binding tui_list_keys[];
extern const struct tui_binding tui_text_keys[];
extern const struct tui_binding tui_gpu_keys[];

/* The action key has in table, or TUI_A_NONE. */
enum tui_action tui_key_lookup(const struct tui_binding *table, int key);

/*
 * Append the help of table to buf (len bytes) under heading, one
 * "  KEYS  HELP" line per binding; returns the bytes written.
 */
size_t	tui_key_help(const struct tui_binding *table, const char *heading,
	    char *buf, size_t len);

/* ---- views: a vtable per kind of screen --------------------------- */

/*
 * A kind of view (tmux struct window_mode, CONVENTIONS.md b6).
 *
 * name/aliases: the ":" words that open it (NULL aliases: none);
 *   detail views have no name a command takes (command 0); list
 *   views also answer to every spelling dra_kind_find() knows.
 * root: a top-level view (Tab cycles them; ":name" replaces the
 *   stack with it); else it is pushed on the stack.
 * keys: the view's own key table (dispatch and help), or NULL.
 * init: set v->data up; arg is the view's argument (a struct
 *   tui_detail_arg for detail views, else NULL).  A view that builds
 *   its model from tui->snap here sets v->gen = tui->gen; else update
 *   builds it when the view is first shown.  Returns 0, or -1 with the
 *   reason on the status line (the view is then not shown).
 * free: release v->data.
 * update: the snapshot changed to s: rebuild the model from it (s is
 *   tui->snap), or with s NULL release every pointer into the old one
 *   (the view is not shown; it is updated again before it is).
 * draw: draw the model in the body (y, x, h, w) of stdscr; only reads
 *   the model (tui_prepare has scrolled it).
 * key: handle action (from its keys or the moving keys) or the raw
 *   key; returns TUI_* flags, TUI_UNHANDLED when not its key.
 * title: the view's title line ("claims(all)[13]") into buf.
 * filter: set the filter (list views) or search (text views) to text;
 *   NULL when the view has neither.
 * layout: lay the model out for a body of h lines by w columns (keep
 *   the selection visible); called by tui_prepare before each draw.
 * click: the mouse clicked line y, column x of the body (or NULL).
 */
struct tui_view_type {
	const char		 *name;
	const char		 *const *aliases;
	int			  command;	/* opened by ":name" */
	int			  root;		/* a top-level view */
	int			  kind;		/* enum dra_kind of a list
						   view, else -1 */
	const struct tui_binding *keys;
	int	(*init)(struct tui_view *v, const void *arg);
	void	(*free)(struct tui_view *v);
	void	(*update)(struct tui_view *v, const struct kube_snapshot *s);
	void	(*draw)(struct tui_view *v, int y, int x, int h, int w);
	int	(*key)(struct tui_view *v, enum tui_action a, int key);
	char	*(*title)(struct tui_view *v, char *buf, size_t len);
	int	(*filter)(struct tui_view *v, const char *text);
	void	(*layout)(struct tui_view *v, int h, int w);
	int	(*click)(struct tui_view *v, int y, int x);
};

struct tui_view {
	const struct tui_view_type	*type;
	struct tui			*tui;
	void				*data;
	uint64_t			 gen;	/* snapshot generation the
						   model was built from */
	char				 filter[256];
};

/* The root views, in Tab order, and the detail views. */
extern const struct tui_view_type tui_view_gpus;
extern const struct tui_view_type tui_view_claims;
extern const struct tui_view_type tui_view_devices;
extern const struct tui_view_type tui_view_pools;
extern const struct tui_view_type tui_view_slices;
extern const struct tui_view_type tui_view_classes;
extern const struct tui_view_type tui_view_nodes;
extern const struct tui_view_type tui_view_templates;
extern const struct tui_view_type tui_view_quotas;
extern const struct tui_view_type tui_view_contexts;
extern const struct tui_view_type tui_view_text;
extern const struct tui_view_type tui_view_plan;

/* NULL-terminated, Tab order. */
extern const struct tui_view_type *const tui_root_views[];

/* What a detail view shows. */
enum tui_detail {
	TUI_D_DESCRIBE,
	TUI_D_YAML,
	TUI_D_WHY,
	TUI_D_HELP,
	TUI_D_WARNINGS,	/* the data's warnings (:warnings) */
};

/*
 * The object of a detail view, by name so it is found again in every
 * new snapshot: kind, namespace (NULL for cluster-scoped), and the name
 * as dra_filter names takes it ("driver/pool/device" for devices,
 * "driver/pool" for pools); pod names a pod for TUI_D_WHY (kind
 * DRA_KIND_TEMPLATE there: a new claim from the template).  text is a
 * fixed text (help), copied.
 */
struct tui_detail_arg {
	enum tui_detail	 what;
	enum dra_kind	 kind;
	const char	*ns;
	const char	*name;
	int		 pod;
	const char	*text;
	const char	*title;
};

/*
 * Open the detail view of a: pushes it on the stack.  Returns 0, or -1
 * with the status line saying why (the object is gone, no describe for
 * this kind).
 */
int	tui_open_detail(struct tui *t, const struct tui_detail_arg *a);

/*
 * The detail target of a list row (kind, namespace, name), into a;
 * the strings live in buf.  Returns 0, or -1 for a row without one.
 */
int	tui_row_target(const struct dra_table *tb, const struct dra_row *row,
	    struct tui_detail_arg *a, char *buf, size_t len);

/* ---- gpubar.c: the GPU bars --------------------------------------- */

/*
 * One segment of a GPU bar: columns [col, col + width) of the bar,
 * the part drawn there (index into g->parts, or -1 for free slices)
 * and its colour.
 */
struct tui_bar_seg {
	int		 col;
	int		 width;
	int		 part;
	enum tui_colour	 colour;
	char		 label[96];
};

#define TUI_BAR_MAXSEGS	64

/*
 * Lay the GPU g out as a bar width columns wide (width >= the slice
 * count): slice i spans columns [i * width / n, (i + 1) * width / n).
 * Allocated, planned and tainted parts come first; a part overlapping
 * one already placed is left out (a dynamic-MIG GPU publishes every
 * placement as a device, so its free devices are not drawn at all:
 * their slices show as free).  Each part is labelled "PROFILE
 * CLAIM" (the claim's name without its namespace; "whole" for an
 * unpartitioned GPU).  Fills segs (at most TUI_BAR_MAXSEGS, in column
 * order) and returns how many.
 */
int	tui_gpu_bar(const struct dra_gpu *g, int width,
	    struct tui_bar_seg *segs);

/*
 * The bar as plain text, for tests: each segment starts with '|' and
 * holds its label cut to fit (the ellipsis glyph marks a cut), free
 * slices are the free glyph, the bar ends with '|': width + 1 columns
 * (glyphs of tui_glyphs(): ASCII until a UTF-8 screen is open).  Into
 * buf; returns buf.
 */
char	*tui_gpu_bar_text(const struct dra_gpu *g, int width, char *buf,
	    size_t len);

/* The colour of a utilization (0..1) against the 80% target and 95%
   ceiling: UTILOK below the target, UTILWARN to the ceiling, UTILHIGH
   above. */
enum tui_colour tui_util_colour(double util);

/* The colour of a team (namespace): one of TEAM0..TEAM5 by hash. */
enum tui_colour tui_team_colour(const char *ns);

/*
 * Draw map on stdscr at (y, x), h lines by w columns from line first
 * of its layout (a line per node, a line per GPU), line sel highlighted
 * (-1: none) and part selpart of it (an index into its parts, -1:
 * none).  With ns set, parts of other namespaces are dimmed (the map
 * keeps them so free space and neighbours stay visible).  Used by the
 * GPU view and both halves of the plan preview.  Returns the lines the
 * whole map takes.
 */
size_t	tui_gpumap_draw(const struct dra_gpu_map *map, int y, int x, int h,
	    int w, size_t first, long sel, int selpart, const char *ns);

/*
 * The widths tui_gpumap_draw gives the GPU names and models: the widest
 * of the map's (names at least 4, at most 20 columns; models at most
 * 22), so bars line up.  A pass over every GPU (tui_strwidth): a view
 * drawing the same map again keeps them (tui_gpumap_draw_cols).
 */
void	tui_gpumap_widths(const struct dra_gpu_map *map, int *namew,
	    int *modelw);

/*
 * tui_gpumap_draw with the widths of tui_gpumap_widths given (the
 * model is left out below 100 columns all the same).  Touches only
 * the lines drawn.
 */
size_t	tui_gpumap_draw_cols(const struct dra_gpu_map *map, int y, int x,
	    int h, int w, size_t first, long sel, int selpart, const char *ns,
	    int namew, int modelw);

/* The lines tui_gpumap_draw lays map out in. */
size_t	tui_gpumap_lines(const struct dra_gpu_map *map);

/*
 * The GPU on line i of the layout, or NULL for a node line; *node gets
 * the node index when not NULL.
 */
const struct dra_gpu *tui_gpumap_gpu(const struct dra_gpu_map *map,
	    size_t i, size_t *node);

/* ---- tui.c: the model ----------------------------------------------- */

enum tui_mode {
	TUI_MODE_NORMAL,
	TUI_MODE_COMMAND,	/* ":" prompt */
	TUI_MODE_FILTER,	/* "/" prompt */
};

#define TUI_MAX_DEPTH	16
#define TUI_MAX_ROOTS	16

struct tui {
	struct tui_opts		 opts;
	struct tui_source	*src;
	struct kube_snapshot	*snap;		/* shown; owned */
	struct kube_snapshot	*pending;	/* held off; owned */
	uint64_t		 gen;		/* bumps with snap */
	struct tui_source_status st;
	int			 have_st;

	char			 ns[254];	/* "" for all namespaces */

	struct tui_view		*roots[TUI_MAX_ROOTS];	/* one per type,
							   kept */
	struct tui_view		*stack[TUI_MAX_DEPTH];
	int			 depth;
	const struct tui_view_type *last_root;	/* for ":-" */

	enum tui_mode		 mode;
	char			 prompt[256];	/* text being typed */
	size_t			 plen;
	char			 saved_filter[256]; /* restored on Esc */
	char			 hint[256];	/* completion candidates */

	char			 status[512];	/* a message (tui_status) */
	int			 status_err;
	int			 status_busy;	/* "reading FILE...": goes
						   when the source answers */
	int64_t			 status_ms;	/* now_ms when it was set */
	char			 note[512];	/* the GPU map's warning
						   (tui_note); not drawn */

	int			 lines;		/* screen size */
	int			 cols;
	int64_t			 now_ms;	/* monotonic, last event */
	int64_t			 last_key_ms;
	int			 quit;

	/* Counts for the header, per snapshot. */
	size_t			 nclaims, npending, ndevices, nallocated;
	size_t			 nwarnings;	/* the snapshot's, distinct */
	size_t			 map_nwarnings;	/* the GPU map's, of */
	uint64_t		 map_warn_gen;	/* this generation */

	struct dra_gpu_map	*plan_map;	/* of opts.plan, lazily */
	char			 plan_err[1200];
};

/*
 * A new UI on src (borrowed, may be NULL for tests) with opts
 * (copied; strings and the plan borrowed).  Opens opts->view (or
 * "gpus") as the root; an unknown view name is refused by tui_run's
 * caller (tui_view_known), here it falls back to the first view.
 * Allocation failure is fatal (xmalloc.h).  Needs no terminal.
 */
struct tui *tui_new(const struct tui_opts *opts, struct tui_source *src);

/* Free t, its views and snapshots. */
void	tui_free(struct tui *t);

/*
 * Show snapshot s (owned from now on; finished; NULL is ignored): the
 * view on screen rebuilds at once, keeping its selection by object key;
 * the others release their pointers and rebuild when shown; the old
 * snapshot is freed.
 */
void	tui_set_snapshot(struct tui *t, struct kube_snapshot *s);

/*
 * Offer a snapshot from the source (owned from now on): shown at once,
 * unless a key came in the last TUI_HOLD_MS (by t->now_ms, which the
 * loop sets), then held until tui_tick; a newer offer replaces a held
 * one.
 */
void	tui_offer_snapshot(struct tui *t, struct kube_snapshot *s);

/*
 * Ask the source for news (tui_source.poll): the status is kept for the
 * header, an error goes to the status line, a new snapshot is offered
 * (tui_offer_snapshot), or with first set shown at once (the first
 * data, before the screen opens).  Returns TUI_REDRAW when something
 * shown changed.  A UI without a source: 0.
 */
int	tui_poll(struct tui *t, int first);

/* Time passed: apply a held snapshot when the hold-off is over, clear
   a message old enough (tui_status).  Returns TUI_REDRAW when it
   did either. */
int	tui_tick(struct tui *t, int64_t now_ms);

/* The screen size the views lay out for. */
void	tui_resize(struct tui *t, int lines, int cols);

/*
 * One key (a curses key code, KEY_RESIZE excluded): prompt editing in
 * command and filter mode, else the top view's keys, the moving keys,
 * then the global keys.  Returns TUI_* flags; t->quit is set on quit.
 */
int	tui_key(struct tui *t, int key);

/*
 * Run a ":" command line (without the colon): a view name or alias
 * ("claims", "dev"), optionally with a namespace and/or "/FILTER"
 * ("claims team-a /llm"); "ns NAME", "ns" / "ns -" / "ns all" (every
 * namespace); "ctx" (the contexts) or "ctx NAME"; "why pod/NAME",
 * "why claim/NAME" or "why template/NAME" (any spelling `kubectl dra
 * why` takes; in the current namespace, or KIND/NS/NAME);
 * "plan"; "warnings" (the data's warnings); "help"; "-" (the previous
 * root view); "q" / "quit".
 * Returns TUI_* flags; an unknown command is an error on the status
 * line with the closest word suggested.
 */
int	tui_command(struct tui *t, const char *line);

/*
 * Complete the last word of line in place (len bytes): the command
 * word among the view names and commands, or the argument of "ns" (the
 * snapshot's namespaces) and "ctx" (the source's contexts).  The word
 * becomes the longest common prefix of the candidates (with a blank
 * after a single one); the candidates go into t->hint when there are
 * several.  Returns how many candidates there are.
 */
int	tui_complete(struct tui *t, char *line, size_t len);

/* Make the views to be drawn current (rebuild, scroll); no curses. */
void	tui_prepare(struct tui *t);

/* Draw everything on stdscr and refresh it. */
void	tui_draw(struct tui *t);

/* The view on top of the stack. */
struct tui_view *tui_top(const struct tui *t);

/* Push v (made by tui_view_new) on the stack. */
void	tui_push(struct tui *t, struct tui_view *v);

/* Make the root view of type vt the only view (":claims"). */
int	tui_set_root(struct tui *t, const struct tui_view_type *vt);

/* A new view of type vt; NULL when its init fails. */
struct tui_view *tui_view_new(struct tui *t, const struct tui_view_type *vt,
	    const void *arg);

/* Free v. */
void	tui_view_free(struct tui_view *v);

/* The view type named word (name or alias), or NULL. */
const struct tui_view_type *tui_view_find(const char *word);

/*
 * Put a message on the status line (err: shown as an error, else as a
 * note), replacing the one there.  Keys do not wipe it: it goes when
 * it is TUI_STATUS_MS old (an error TUI_ERROR_MS; tui_tick clears it
 * by t->now_ms), when another replaces it, or, a note, when the
 * source's note changes; the source's note shows again after it.
 */
void	tui_status(struct tui *t, int err, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));

/*
 * Put a progress message on the status line ("reading FILE..."): a
 * note that goes as soon as the source answers (tui_poll brings a
 * snapshot, an error or a new status), or after TUI_STATUS_MS.
 */
void	tui_busy(struct tui *t, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/*
 * What a view found about the data (the GPU map's first warning, or
 * "" for none).  Not shown on the status line: it stays no standing
 * note over every view.
 */
void	tui_note(struct tui *t, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/* The namespace filter for views: NULL for all namespaces. */
const char *tui_namespace(const struct tui *t);

/*
 * The warnings about the data the header counts and :warnings lists:
 * the snapshot's distinct ones (what `kubectl dra get` prints) plus
 * the GPU map's (GPUs it leaves out), these known once a GPU map of
 * this snapshot was made with warnings (tui_note), then counted by
 * making it again once per snapshot.
 */
size_t	tui_warning_count(struct tui *t);

/*
 * The snapshot's warnings sorted by object then message, each distinct
 * one once (as `kubectl dra get` prints them), into *out (an array the
 * caller frees; the warnings are borrowed from s).  Returns how many.
 */
size_t	tui_snapshot_warnings(const struct kube_snapshot *s,
	    const struct kube_warning ***out);

/*
 * The text of the :warnings view for s: the snapshot's warnings, the
 * GPU map's and, for information, the tainted GPUs the map marks; *n
 * gets the number of warnings (tainted GPUs are not).  A new string
 * the caller frees.
 */
char	*tui_warnings_text(const struct kube_snapshot *s, size_t *n);

/*
 * The help text: every key table and the commands, generated from the
 * tables.  A new string the caller frees.
 */
char	*tui_help_text(const struct tui *t);

/* The plan's GPU map (opts.plan), built on first use; NULL with
   t->plan_err set when there is no plan or it cannot be read. */
const struct dra_gpu_map *tui_plan_map(struct tui *t);

/* Milliseconds of a monotonic clock. */
int64_t	tui_now_ms(void);

#endif
