/*
 * test_ui_fixes.c: what a fresh-eyes test of `kubectl dra ui` found
 * (issue 6), each checked on the model or on a screen opened on
 * /dev/null and read back line by line: a terminal without cursor
 * addressing refused.
 */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "gpus.h"
#include "snapshot.h"
#include "tui-int.h"

#define EXAMPLE	SOURCE_DIR "/examples/cluster.yaml"

/* ---- 12: TERM=dumb --------------------------------------------------- */

static void
test_dumb_terminal(void **state)
{
	struct tui_screen	 scr;
	struct dra_err		 err;
	FILE			*in, *out;

	(void)state;
	in = fopen("/dev/null", "r");
	out = fopen("/dev/null", "w");
	dra_err_clear(&err);
	assert_int_equal(tui_screen_open(&scr, in, out, "dumb", 0, 0, 0,
	    &err), KUBE_E_IO);
	assert_string_equal(err.msg, "cannot open the terminal: terminal "
	    "type \"dumb\" cannot move the cursor (no cup capability); use "
	    "a terminal such as xterm");
	/* The screen was not opened: a real one opens after. */
	assert_int_equal(tui_screen_open(&scr, in, out, "xterm-256color", 0,
	    0, 0, &err), KUBE_OK);
	tui_screen_close(&scr);
	fclose(in);
	fclose(out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dumb_terminal),
	};

	setlocale(LC_CTYPE, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
