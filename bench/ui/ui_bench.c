/*
 * ui_bench.c: `kubectl dra ui` (tui/) at fleet scale, for bench/ui.sh.
 *
 * One run takes one snapshot file and one first view and measures, in
 * one process, what the targets speak of:
 *
 *   1. read: the file into memory (the data arriving; not counted);
 *   2. decode: kube_snapshot_load_mem + kube_snapshot_finish, the
 *      buffer then freed;
 *   3. model: tui_new, tui_resize, tui_poll of a source handing the
 *      snapshot over (as --from does), tui_prepare: the view's rows or
 *      GPU map built;
 *   4. draw: the first tui_draw, which ends with refresh (doupdate)
 *      into a curses screen opened on /dev/null, TERM xterm-256color,
 *      LINES x COLS (default 50 x 200); opening it is timed apart;
 *   5. keys: a fixed mix of keystrokes, each timed as the loop of
 *      tui/loop.c handles it: tui_key, tui_prepare, tui_draw;
 *   6. memory: the resident set (/proc/self/statm) after decoding,
 *      after the first screen and after the keys, and the peak
 *      (getrusage ru_maxrss).
 *
 * The output is one "NAME VALUE..." line per figure (milliseconds,
 * KiB), for awk:
 *
 *	bytes 73423497
 *	read_ms 25.1
 *	decode_ms 812.4
 *	screen_ms 1.2
 *	model_ms 40.3
 *	draw_ms 2.1
 *	first_ms 854.8		decode + model + draw
 *	decode_cpu_ms 801.0	the same in CPU time (user + system)
 *	line 2 <the title line>
 *	key KIND N MEDIAN P95 MAX
 *	keys_all N MEDIAN P95 MAX
 *	keys_all_cpu N MEDIAN P95 MAX	in CPU time
 *	rss_decoded_kb 123456
 *	...
 *
 *	ui-bench --file FILE [--view gpus|claims|devices]
 *	    [--lines N] [--cols N] [--repeat N] [--trace]
 *
 * --repeat runs the key mix N times (default 1); --trace prints each
 * key's time.  The bench reports and never judges: the exit status is
 * 0, or 1 when the file cannot be read or decoded or the screen cannot
 * be opened, 2 on a usage error.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/resource.h>

#include "snapshot.h"
#include "tui-int.h"

/* A key of the mix: what kind it counts as, and its code. */
struct step {
	int	 kind;
	int	 code;
};

enum kind {
	K_DOWN,
	K_UP,
	K_PGDN,
	K_ENDHOME,
	K_PART,
	K_FILTER_OPEN,
	K_FILTER_CHAR,
	K_FILTER_ENTER,
	K_FILTER_CLEAR,
	K_SORT,
	K_DESCRIBE,
	K_BACK,
	K_PROMPT_CHAR,
	K_SWITCH_BUILT,
	K_SWITCH_KEPT,
	K_NKINDS
};

static const char *const kind_names[K_NKINDS] = {
	"down", "up", "pgdn", "end_home", "partition", "filter_open",
	"filter_char", "filter_enter", "filter_clear", "sort", "describe",
	"back", "prompt_char", "switch_built", "switch_kept"
};

/* The mix, grown as it is built. */
struct mix {
	struct step	*v;
	size_t		 n;
	size_t		 cap;
};

/* The file as a data source (kubectl-dra/cmd_ui.c's --from). */
struct file_source {
	struct kube_snapshot	*snap;
	const char		*path;
};

static int	file_poll(void *, struct kube_snapshot **,
		    struct tui_source_status *, struct dra_err *);
static double	now_ms(void);
static double	cpu_ms(void);
static long	rss_kb(void);
static void	add(struct mix *, int, int);
static void	add_n(struct mix *, int, int, int);
static void	add_text(struct mix *, int, const char *);
static void	build_mix(struct mix *, const char *, int);
static int	cmp_double(const void *, const void *);
static void	stats(const char *, const char *, double *, size_t);
static char	*read_file(const char *, size_t *);
static void	usage(void);

static int
file_poll(void *arg, struct kube_snapshot **out, struct tui_source_status *st,
    struct dra_err *err)
{
	struct file_source	*fs = arg;

	(void)err;
	*out = fs->snap;
	fs->snap = NULL;
	memset(st, 0, sizeof *st);
	snprintf(st->where, sizeof st->where, "%s", fs->path);
	return KUBE_OK;
}

static double
now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* CPU time of the process (user + system), ms. */
static double
cpu_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The resident set now, KiB: the second field of /proc/self/statm. */
static long
rss_kb(void)
{
	FILE	*f;
	long	 size, res = -1;

	if ((f = fopen("/proc/self/statm", "r")) == NULL)
		return -1;
	if (fscanf(f, "%ld %ld", &size, &res) != 2)
		res = -1;
	fclose(f);
	return res < 0 ? -1 : res * (sysconf(_SC_PAGESIZE) / 1024);
}

static void
add(struct mix *m, int kind, int code)
{
	if (m->n == m->cap) {
		m->cap = m->cap == 0 ? 256 : m->cap * 2;
		m->v = realloc(m->v, m->cap * sizeof *m->v);
		if (m->v == NULL) {
			perror("ui-bench");
			exit(1);
		}
	}
	m->v[m->n].kind = kind;
	m->v[m->n].code = code;
	m->n++;
}

static void
add_n(struct mix *m, int kind, int code, int n)
{
	while (n-- > 0)
		add(m, kind, code);
}

static void
add_text(struct mix *m, int kind, const char *s)
{
	for (; *s != '\0'; s++)
		add(m, kind, (unsigned char)*s);
}

/*
 * The key mix of view: moving (j, k, PgDn, G and g), two filters typed
 * a character at a time then cleared, sorting (list views) or moving
 * between partitions (GPU view), Enter into describe and Esc back, and
 * a switch to another view by a ":" command and back.
 */
static void
build_mix(struct mix *m, const char *view, int gpus)
{
	static const char *const filters[] = { "team-b", "node-12" };
	const char	*other = strcmp(view, "devices") == 0 ? "claims" :
			    "devices";
	char		 cmd[64];
	size_t		 i;
	int		 d;

	add_n(m, K_DOWN, 'j', 40);
	add_n(m, K_UP, 'k', 20);
	add_n(m, K_PGDN, KEY_NPAGE, 10);
	for (i = 0; i < 3; i++) {
		add(m, K_ENDHOME, 'G');
		add(m, K_ENDHOME, 'g');
	}
	if (gpus) {
		add_n(m, K_DOWN, 'j', 2);
		add_n(m, K_PART, 'l', 4);
		add_n(m, K_PART, 'h', 4);
	}
	for (i = 0; i < sizeof filters / sizeof filters[0]; i++) {
		add(m, K_FILTER_OPEN, '/');
		add_text(m, K_FILTER_CHAR, filters[i]);
		add(m, K_FILTER_ENTER, '\r');
		add_n(m, K_DOWN, 'j', 3);
		add(m, K_FILTER_CLEAR, TUI_KEY_ESC);
	}
	if (!gpus) {
		add_n(m, K_SORT, '>', 4);
		add_n(m, K_SORT, 'S', 2);
		add(m, K_SORT, 'N');
	}
	for (d = 0; d < 5; d++) {
		add_n(m, K_DOWN, 'j', 7);
		add(m, K_DESCRIBE, '\r');
		add(m, K_BACK, TUI_KEY_ESC);
	}
	snprintf(cmd, sizeof cmd, ":%s", other);
	add_text(m, K_PROMPT_CHAR, cmd);
	add(m, K_SWITCH_BUILT, '\r');
	add_n(m, K_DOWN, 'j', 5);
	snprintf(cmd, sizeof cmd, ":%s", view);
	add_text(m, K_PROMPT_CHAR, cmd);
	add(m, K_SWITCH_KEPT, '\r');
	snprintf(cmd, sizeof cmd, ":%s", other);
	add_text(m, K_PROMPT_CHAR, cmd);
	add(m, K_SWITCH_KEPT, '\r');
	snprintf(cmd, sizeof cmd, ":%s", view);
	add_text(m, K_PROMPT_CHAR, cmd);
	add(m, K_SWITCH_KEPT, '\r');
}

static int
cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* "WHAT NAME N MEDIAN P95 MAX" of the n values in v (sorted here). */
static void
stats(const char *what, const char *name, double *v, size_t n)
{
	double	med, p95;
	size_t	k;

	if (n == 0)
		return;
	qsort(v, n, sizeof *v, cmp_double);
	med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	/* Nearest rank. */
	k = (size_t)(0.95 * (double)n + 0.999999);
	if (k < 1)
		k = 1;
	p95 = v[k - 1];
	printf("%s%s%s %zu %.4f %.4f %.4f\n", what, name[0] != '\0' ? " " :
	    "", name, n, med, p95, v[n - 1]);
}

static char *
read_file(const char *path, size_t *len)
{
	FILE	*f;
	char	*buf = NULL, *nb;
	size_t	 cap = 0, n = 0, r;

	if ((f = fopen(path, "rb")) == NULL)
		return NULL;
	for (;;) {
		if (cap - n < 1 << 20) {
			cap = cap == 0 ? 16 << 20 : cap * 2;
			if ((nb = realloc(buf, cap + 1)) == NULL) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
		if (r == 0)
			break;
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static void
usage(void)
{
	fprintf(stderr, "usage: ui-bench --file FILE [--view gpus|claims|"
	    "devices] [--lines N] [--cols N] [--repeat N] [--trace]\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	struct kube_snapshot	*s;
	struct tui_opts		 o;
	struct tui_source	 src;
	struct file_source	 fs;
	struct tui_screen	 scr;
	struct tui		*t;
	struct dra_err		 err;
	struct rusage		 ru;
	struct mix		 m;
	FILE			*in, *out;
	const char		*file = NULL, *view = "gpus";
	char			*data, line[2048];
	double			 t0, t1, t_decode, t_model, t_draw, *all;
	double			 c0, c1, c_decode, c_model, c_draw, *allc;
	double			*per[K_NKINDS];
	size_t			 len, i, r, nper[K_NKINDS], nall = 0;
	int			 lines = 50, cols = 200, repeat = 1, trace = 0;
	int			 y, gpus;
	long			 rss_decoded, rss_first;

	for (i = 1; i < (size_t)argc; i++) {
		if (strcmp(argv[i], "--trace") == 0) {
			trace = 1;
			continue;
		}
		if (i + 1 >= (size_t)argc)
			usage();
		if (strcmp(argv[i], "--file") == 0)
			file = argv[++i];
		else if (strcmp(argv[i], "--view") == 0)
			view = argv[++i];
		else if (strcmp(argv[i], "--lines") == 0)
			lines = (int)strtol(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--cols") == 0)
			cols = (int)strtol(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--repeat") == 0)
			repeat = (int)strtol(argv[++i], NULL, 10);
		else
			usage();
	}
	if (file == NULL || lines < TUI_MIN_LINES || cols < TUI_MIN_COLS ||
	    repeat < 1 || !tui_view_known(view))
		usage();
	gpus = strcmp(view, "gpus") == 0;

	/* 1. The data arrives. */
	t0 = now_ms();
	if ((data = read_file(file, &len)) == NULL) {
		perror(file);
		return 1;
	}
	t1 = now_ms();
	printf("bytes %zu\nread_ms %.3f\n", len, t1 - t0);

	/* 2. Decoded into a snapshot. */
	dra_err_clear(&err);
	t0 = now_ms();
	c0 = cpu_ms();
	s = kube_snapshot_new();
	if (kube_snapshot_load_mem(s, file, data, len, &err) != KUBE_OK) {
		fprintf(stderr, "ui-bench: %s\n", err.msg);
		return 1;
	}
	kube_snapshot_finish(s);
	t1 = now_ms();
	c1 = cpu_ms();
	t_decode = t1 - t0;
	c_decode = c1 - c0;
	free(data);
	rss_decoded = rss_kb();
	printf("decode_ms %.3f\nclaims %zu\ndevices %zu\n", t_decode,
	    s->claims.n, s->ndevices);

	/* The terminal: open before the data in a live UI. */
	in = fopen("/dev/null", "r");
	out = fopen("/dev/null", "w");
	if (in == NULL || out == NULL) {
		perror("/dev/null");
		return 1;
	}
	t0 = now_ms();
	if (tui_screen_open(&scr, in, out, "xterm-256color", 0, 0, 0,
	    &err) != KUBE_OK) {
		fprintf(stderr, "ui-bench: %s\n", err.msg);
		return 1;
	}
	resizeterm(lines, cols);
	t1 = now_ms();
	printf("screen_ms %.3f\nutf8 %d\ncolour %d\n", t1 - t0, scr.utf8,
	    scr.colour);

	/* 3. The UI's model. */
	memset(&o, 0, sizeof o);
	o.view = view;
	t0 = now_ms();
	c0 = cpu_ms();
	memset(&src, 0, sizeof src);
	fs.snap = s;
	fs.path = file;
	src.arg = &fs;
	src.poll = file_poll;
	t = tui_new(&o, &src);
	t->now_ms = tui_now_ms();
	tui_resize(t, lines, cols);
	tui_poll(t, 1);
	tui_prepare(t);
	t1 = now_ms();
	c1 = cpu_ms();
	t_model = t1 - t0;
	c_model = c1 - c0;

	/* 4. The first screen. */
	t0 = now_ms();
	c0 = cpu_ms();
	tui_draw(t);
	t1 = now_ms();
	c1 = cpu_ms();
	t_draw = t1 - t0;
	c_draw = c1 - c0;
	rss_first = rss_kb();
	printf("model_ms %.3f\ndraw_ms %.3f\nfirst_ms %.3f\n", t_model,
	    t_draw, t_decode + t_model + t_draw);
	printf("decode_cpu_ms %.3f\nmodel_cpu_ms %.3f\ndraw_cpu_ms %.3f\n"
	    "first_cpu_ms %.3f\n", c_decode, c_model, c_draw,
	    c_decode + c_model + c_draw);
	for (y = 0; y < 6 && y < lines; y++) {
		tui_screen_line(y, line, sizeof line);
		printf("line %d %s\n", y, line);
	}

	/* 5. Keystrokes. */
	memset(&m, 0, sizeof m);
	build_mix(&m, view, gpus);
	all = calloc(m.n * (size_t)repeat, sizeof *all);
	allc = calloc(m.n * (size_t)repeat, sizeof *allc);
	for (i = 0; i < K_NKINDS; i++) {
		per[i] = calloc(m.n * (size_t)repeat, sizeof *per[i]);
		nper[i] = 0;
	}
	for (r = 0; r < (size_t)repeat; r++) {
		for (i = 0; i < m.n; i++) {
			t->now_ms = tui_now_ms();
			t0 = now_ms();
			c0 = cpu_ms();
			tui_key(t, m.v[i].code);
			tui_prepare(t);
			tui_draw(t);
			t1 = now_ms();
			c1 = cpu_ms();
			allc[nall] = c1 - c0;
			all[nall++] = t1 - t0;
			per[m.v[i].kind][nper[m.v[i].kind]++] = t1 - t0;
			if (trace) {
				tui_screen_line(2, line, sizeof line);
				printf("trace %s %d %.4f %s\n",
				    kind_names[m.v[i].kind], m.v[i].code,
				    t1 - t0, line);
			}
		}
	}
	for (i = 0; i < K_NKINDS; i++)
		stats("key", kind_names[i], per[i], nper[i]);
	stats("keys_all", "", all, nall);
	stats("keys_all_cpu", "", allc, nall);
	for (y = 0; y < 3; y++) {
		tui_screen_line(y, line, sizeof line);
		printf("end_line %d %s\n", y, line);
	}

	/* 6. Memory. */
	getrusage(RUSAGE_SELF, &ru);
	printf("rss_decoded_kb %ld\nrss_first_kb %ld\nrss_end_kb %ld\n"
	    "maxrss_kb %ld\n", rss_decoded, rss_first, rss_kb(),
	    ru.ru_maxrss);

	tui_screen_close(&scr);
	fclose(in);
	fclose(out);
	tui_free(t);
	for (i = 0; i < K_NKINDS; i++)
		free(per[i]);
	free(all);
	free(allc);
	free(m.v);
	return 0;
}
