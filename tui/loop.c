/*
 * loop.c: tui_run, the loop (htop ScreenManager_run, ncdu's input
 * loop with update_delay).
 *
 * One poll() waits on the terminal, on the source's descriptor (it
 * turns readable when a watch brought news) and on a timer.  Keys are
 * read with getch in no-delay mode until none is left, so a burst of
 * keys (a held arrow, a paste) is handled before one redraw, and the
 * ctrl-r presses among them make one refresh, done after them (after
 * "reading FILE..." is drawn: a file is read again in poll).  A
 * terminal resize interrupts poll (SIGWINCH) and ncurses then returns
 * KEY_RESIZE: it is handled here and nowhere else.  New snapshots go
 * through tui_offer_snapshot, which holds them back while keys are
 * coming (TUI_HOLD_MS) so rows do not move under the cursor.  The
 * screen is drawn only when something changed.
 *
 * ctrl-c (SIGINT), SIGTERM and SIGHUP end the loop like q, so the
 * terminal is always restored and stderr replayed.
 */
#include "tui-int.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int	mouse_event(struct tui *);
static void	do_refresh(struct tui *, struct tui_source *);
static void	on_signal(int);

/* SIGINT, SIGTERM or SIGHUP came: leave the screen as a quit does. */
static volatile sig_atomic_t	quit_signal;

static void
on_signal(int sig)
{
	quit_signal = sig;
}

int
tui_poll(struct tui *t, int first)
{
	struct kube_snapshot		*s = NULL;
	struct tui_source_status	 st;
	struct dra_err			 err;
	int				 rc, changed;

	if (t->src == NULL || t->src->poll == NULL)
		return 0;
	memset(&st, 0, sizeof st);
	dra_err_clear(&err);
	rc = t->src->poll(t->src->arg, &s, &st, &err);
	changed = !t->have_st || memcmp(&st, &t->st, sizeof st) != 0;
	/*
	 * The source answered: "reading FILE..." is over; a new note of
	 * the source (an error while listing) replaces a note of ours.
	 */
	if (t->status[0] != '\0' && (t->status_busy ? changed ||
	    rc != KUBE_OK || s != NULL : !t->status_err && st.note[0] !=
	    '\0' && (!t->have_st || strcmp(st.note, t->st.note) != 0))) {
		t->status[0] = '\0';
		t->status_busy = 0;
		changed = 1;
	}
	t->st = st;
	t->have_st = 1;
	if (rc != KUBE_OK) {
		tui_status(t, 1, "%s", err.msg[0] != '\0' ? err.msg :
		    kube_strerror(rc));
		changed = 1;
	}
	if (s != NULL) {
		if (first)
			tui_set_snapshot(t, s);
		else
			tui_offer_snapshot(t, s);
		changed = 1;
	}
	return changed ? TUI_REDRAW : 0;
}

/*
 * ctrl-r: say what is done and draw it before doing it (reading a large
 * file takes seconds, and the source's poll reads it), then ask the
 * source and take its answer.
 */
static void
do_refresh(struct tui *t, struct tui_source *src)
{
	if (t->have_st && t->st.live)
		tui_busy(t, "refreshing: listing again%s",
		    tui_glyphs()->ellipsis);
	else
		tui_busy(t, "reading %s%s", t->have_st ? t->st.where :
		    "the data again", tui_glyphs()->ellipsis);
	tui_prepare(t);
	tui_draw(t);
	if (src != NULL && src->refresh != NULL)
		/* refresh is a curses macro */
		(src->refresh)(src->arg);
	tui_poll(t, 0);
}

/* The mouse: the wheel scrolls, a click selects. */
static int
mouse_event(struct tui *t)
{
	struct tui_view	*v = tui_top(t);
	MEVENT		 ev;
	int		 r = 0, i;

	if (getmouse(&ev) != OK)
		return 0;
	if (ev.bstate & BUTTON4_PRESSED) {
		for (i = 0; i < 3; i++)
			r |= tui_key(t, KEY_UP);
		return r;
	}
	if (ev.bstate & BUTTON5_PRESSED) {
		for (i = 0; i < 3; i++)
			r |= tui_key(t, KEY_DOWN);
		return r;
	}
	if (v != NULL && v->type->click != NULL &&
	    (ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED |
	    BUTTON1_DOUBLE_CLICKED)) && ev.y >= TUI_HEAD_LINES &&
	    ev.y < t->lines - TUI_FOOT_LINES) {
		tui_prepare(t);
		r = v->type->click(v, ev.y - TUI_HEAD_LINES, ev.x);
		if (ev.bstate & BUTTON1_DOUBLE_CLICKED)
			r |= tui_key(t, '\r');
	}
	return r;
}

int
tui_run(const struct tui_opts *opts, struct tui_source *src,
    struct dra_err *err)
{
	struct tui		*t;
	struct tui_screen	 scr;
	struct pollfd		 pfd[2];
	struct sigaction	 sa, old_int, old_term, old_hup;
	int64_t			 now, next_tick, wait;
	unsigned		 tick;
	int			 dirty = 1, sfd, n, r, ch, flags, clear = 0;
	int			 refresh_wanted = 0;

	tick = opts->tick_ms != 0 ? opts->tick_ms : 1000;
	t = tui_new(opts, src);
	t->now_ms = tui_now_ms();
	/* The first data before curses: the first screen has it. */
	tui_poll(t, 1);
	if (tui_screen_open(&scr, stdin, stdout, NULL, opts->no_color,
	    opts->mouse, 1, err) != KUBE_OK) {
		tui_free(t);
		return err->code;
	}
	tui_resize(t, LINES, COLS);
	/* No SA_RESTART: poll() returns at once. */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	quit_signal = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);
	next_tick = tui_now_ms() + tick;
	while (!t->quit && !quit_signal) {
		if (dirty) {
			if (clear) {
				clearok(curscr, TRUE);
				clear = 0;
			}
			tui_prepare(t);
			tui_draw(t);
			dirty = 0;
		}
		now = tui_now_ms();
		wait = next_tick - now;
		if (t->pending != NULL && TUI_HOLD_MS - (now -
		    t->last_key_ms) < wait)
			wait = TUI_HOLD_MS - (now - t->last_key_ms);
		if (wait < 0)
			wait = 0;
		n = 0;
		pfd[n].fd = fileno(scr.in);
		pfd[n].events = POLLIN;
		pfd[n++].revents = 0;
		sfd = src != NULL && src->fd != NULL ? src->fd(src->arg) : -1;
		if (sfd >= 0) {
			pfd[n].fd = sfd;
			pfd[n].events = POLLIN;
			pfd[n++].revents = 0;
		}
		r = poll(pfd, (nfds_t)n, (int)wait);
		if (r == -1 && errno != EINTR) {
			tui_status(t, 1, "poll: %s", strerror(errno));
			dirty = 1;
		}
		t->now_ms = now = tui_now_ms();
		if (quit_signal)
			break;
		if (pfd[0].revents & (POLLHUP | POLLERR | POLLNVAL))
			break;		/* the terminal went away */

		/* Every key waiting, then one redraw. */
		while (!t->quit && (ch = getch()) != ERR) {
			if (ch == KEY_RESIZE) {
				tui_resize(t, LINES, COLS);
				dirty = 1;
				continue;
			}
			if (ch == KEY_MOUSE)
				flags = mouse_event(t);
			else
				flags = tui_key(t, ch);
			if (ch == TUI_CTRL('l'))
				clear = 1;
			if (flags & TUI_REDRAW)
				dirty = 1;
			/* Every ctrl-r waiting makes one refresh. */
			if (flags & TUI_REFRESH)
				refresh_wanted = 1;
		}
		if (t->quit || quit_signal)
			break;
		if (refresh_wanted) {
			refresh_wanted = 0;
			do_refresh(t, src);
			dirty = 1;
		}
		if (n > 1 && (pfd[1].revents & POLLIN))
			dirty |= tui_poll(t, 0);
		if (now >= next_tick) {
			dirty |= tui_poll(t, 0);
			/* The age of stale data is shown. */
			if (t->have_st && t->st.live && t->st.stale)
				dirty = 1;
			next_tick = now + tick;
		}
		dirty |= tui_tick(t, now);
	}
	tui_screen_close(&scr);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	tui_free(t);
	return KUBE_OK;
}
