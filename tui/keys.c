/*
 * keys.c: the key tables (htop Action_setBindings).  Each table maps
 * key codes to an action; the views and the loop dispatch through
 * them, and the help screen is printed from them, so the two cannot
 * disagree.  The keys follow k9s where it has one (":" commands, "/"
 * filter, "y" YAML, Esc back, shift-N/shift-A sort) and less/vi for
 * moving.
 */
#include "tui-int.h"

#include <string.h>

const struct tui_binding tui_global_keys[] = {
	{ { ':', 0 }, ":", "command mode (:claims, :ns team-a, :ctx, :q; "
	    "Tab completes)", TUI_A_COMMAND },
	{ { '/', 0 }, "/", "filter rows (regex, /!x inverse); search in "
	    "text views", TUI_A_FILTER },
	{ { '?', 0 }, "?", "this help", TUI_A_HELP },
	{ { TUI_KEY_ESC, KEY_BACKSPACE, 127, 0 }, "Esc, Backspace",
	    "back (clears the filter first)", TUI_A_BACK },
	{ { 'q', 0 }, "q", "quit (back in a detail view)", TUI_A_QUIT },
	{ { TUI_CTRL('c'), 0 }, "ctrl-c", "quit at once", TUI_A_QUIT_NOW },
	{ { TUI_CTRL('r'), 0 }, "ctrl-r", "refresh: read the data again",
	    TUI_A_REFRESH },
	{ { TUI_CTRL('l'), 0 }, "ctrl-l", "redraw the screen", TUI_A_REDRAW },
	{ { '\t', 0 }, "Tab", "next view", TUI_A_NEXT_VIEW },
	{ { KEY_BTAB, 0 }, "shift-Tab", "previous view", TUI_A_PREV_VIEW },
	{ { 'p', 0 }, "p", "plan preview: the --plan layout beside today's",
	    TUI_A_PLAN },
	{ { 0 }, NULL, NULL, TUI_A_NONE }
};

const struct tui_binding tui_move_keys[] = {
	{ { KEY_UP, 'k', 0 }, "Up, k", "up one line", TUI_A_UP },
	{ { KEY_DOWN, 'j', 0 }, "Down, j", "down one line", TUI_A_DOWN },
	{ { KEY_PPAGE, TUI_CTRL('b'), 0 }, "PgUp, ctrl-b", "up one page",
	    TUI_A_PGUP },
	{ { KEY_NPAGE, TUI_CTRL('f'), ' ', 0 }, "PgDn, ctrl-f, Space",
	    "down one page", TUI_A_PGDN },
	{ { KEY_HOME, 'g', 0 }, "Home, g", "first line", TUI_A_HOME },
	{ { KEY_END, 'G', 0 }, "End, G", "last line", TUI_A_END },
	{ { 0 }, NULL, NULL, TUI_A_NONE }
};

const struct tui_binding tui_list_keys[] = {
	{ { '\r', '\n', KEY_ENTER, 'd' }, "Enter, d",
	    "describe the selected object", TUI_A_DESCRIBE },
	{ { 'y', 0 }, "y", "its YAML", TUI_A_YAML },
	{ { 'w', 0 }, "w",
	    "why: explain a pending claim, or a template's new claim",
	    TUI_A_WHY },
	{ { '>', 0 }, ">", "sort by the next column", TUI_A_SORT_NEXT },
	{ { '<', 0 }, "<", "sort by the previous column", TUI_A_SORT_PREV },
	{ { 'S', 0 }, "S", "reverse the sort order", TUI_A_SORT_REVERSE },
	{ { 'N', 0 }, "N", "sort by name", TUI_A_SORT_NAME },
	{ { 'A', 0 }, "A", "sort by age", TUI_A_SORT_AGE },
	{ { TUI_CTRL('w'), 0 }, "ctrl-w", "wide columns on/off",
	    TUI_A_WIDE },
	{ { KEY_LEFT, 'h', 0 }, "Left, h", "scroll the columns left",
	    TUI_A_LEFT },
	{ { KEY_RIGHT, 'l', 0 }, "Right, l",
	    "scroll the columns right (the title says +N columns)",
	    TUI_A_RIGHT },
	{ { 0 }, NULL, NULL, TUI_A_NONE }
};

const struct tui_binding tui_gpu_keys[] = {
	{ { KEY_LEFT, 'h', 0 }, "Left, h", "previous partition of the GPU",
	    TUI_A_LEFT },
	{ { KEY_RIGHT, 'l', 0 }, "Right, l", "next partition of the GPU",
	    TUI_A_RIGHT },
	{ { '\r', '\n', KEY_ENTER, 'd' }, "Enter, d",
	    "describe the partition's claim, else its device",
	    TUI_A_DESCRIBE },
	{ { 'y', 0 }, "y", "YAML of the claim, else the device", TUI_A_YAML },
	{ { 'w', 0 }, "w", "why for the partition's claim", TUI_A_WHY },
	{ { 0 }, NULL, NULL, TUI_A_NONE }
};

const struct tui_binding tui_text_keys[] = {
	{ { KEY_LEFT, 'h', 0 }, "Left, h", "scroll left", TUI_A_LEFT },
	{ { KEY_RIGHT, 'l', 0 }, "Right, l", "scroll right (long lines)",
	    TUI_A_RIGHT },
	{ { 'n', 0 }, "n", "next match of the search", TUI_A_SEARCH_NEXT },
	{ { 'N', 0 }, "N", "previous match", TUI_A_SEARCH_PREV },
	{ { 'r', 0 }, "r", "why: explain again on the newest data",
	    TUI_A_RECOMPUTE },
	{ { 0 }, NULL, NULL, TUI_A_NONE }
};

enum tui_action
tui_key_lookup(const struct tui_binding *table, int key)
{
	size_t	i, j;

	if (table == NULL)
		return TUI_A_NONE;
	for (i = 0; table[i].keys != NULL; i++) {
		for (j = 0; j < TUI_KEY_CODES && table[i].codes[j] != 0; j++) {
			if (table[i].codes[j] == key)
				return table[i].action;
		}
	}
	return TUI_A_NONE;
}

size_t
tui_key_help(const struct tui_binding *table, const char *heading,
    char *buf, size_t len)
{
	size_t	i, o = 0;
	int	n;

	if (len == 0)
		return 0;
	buf[0] = '\0';
	n = snprintf(buf, len, "%s\n", heading);
	if (n < 0 || (size_t)n >= len)
		return strlen(buf);
	o = (size_t)n;
	for (i = 0; table[i].keys != NULL; i++) {
		n = snprintf(buf + o, len - o, "  %-22s %s\n", table[i].keys,
		    table[i].help);
		if (n < 0 || (size_t)n >= len - o)
			return strlen(buf);
		o += (size_t)n;
	}
	return o;
}
