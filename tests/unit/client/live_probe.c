/*
 * live_probe.c: the live source of `kubectl dra ui` (kubectl-dra/
 * live.c) without a terminal, for tests and measurements against a
 * real cluster.
 *
 *	live_probe [-n NAMESPACE] [-c CLAIM] [-t SECONDS] [-v LEVEL]
 *	    [-w DIR]
 *
 * Starts the source from $KUBECONFIG, then prints one line per
 * snapshot handed over and per status change:
 *
 *	<ms since start> snapshot claims=N slices=N devices=N pods=N
 *	    [claim=NS/NAME present|absent]
 *	<ms> status stale=0|1 connecting=0|1 partial=0|1|2
 *	    narrowed=0|1 where=TEXT note=TEXT
 *
 * and reads commands on standard input: "r" (refresh), "n NS" (set
 * namespace; "n" alone: all), "x CTX" (set context), "q" (quit).  It
 * quits after SECONDS (default: at end of input) and prints the peak
 * resident set size ("maxrss_kb=N").  -v is kubectl's -v: the live
 * source's log lines (requests, snapshot build times) come out on
 * standard error when it stops.  -w writes each snapshot handed over
 * as a v1 List (kube_snapshot_write, JSON) to DIR/snapshot-N.json, N
 * from 1, so two snapshots of the same objects can be compared byte
 * for byte (the first, decoded while listed, against one built from
 * the caches after "r").
 */
#include <sys/resource.h>

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dra.h"
#include "live.h"
#include "snapshot.h"

static long long t0;
static const char *write_dir;
static int nwritten;

static long long
ms_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The command layer's printers, which source.c and live.c call. */
enum dra_ret
dra_error(const char *fmt, ...)
{
	va_list	ap;

	fputs("live_probe: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return DRA_RET_ERROR;
}

void
dra_warning(const char *fmt, ...)
{
	va_list	ap;

	fputs("Warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void
show(const struct kube_snapshot *s, const char *claim)
{
	size_t	i;
	int	found = 0;
	char	key[512];

	printf("%lld snapshot claims=%zu slices=%zu devices=%zu pods=%zu",
	    ms_now() - t0, s->claims.n, s->slices.n, s->ndevices, s->pods.n);
	if (claim != NULL) {
		for (i = 0; i < s->claims.n; i++) {
			snprintf(key, sizeof key, "%s/%s",
			    s->claims.v[i]->meta.namespace,
			    s->claims.v[i]->meta.name);
			if (strcmp(key, claim) == 0)
				found = 1;
		}
		printf(" claim=%s %s", claim, found ? "present" : "absent");
	}
	printf("\n");
	fflush(stdout);
}

/* Snapshot s as DIR/snapshot-N.json (-w). */
static void
save(const struct kube_snapshot *s)
{
	struct dra_err	 err;
	char		 path[4096];
	FILE		*f;

	snprintf(path, sizeof path, "%s/snapshot-%d.json", write_dir,
	    ++nwritten);
	if ((f = fopen(path, "w")) == NULL) {
		fprintf(stderr, "live_probe: %s: cannot write\n", path);
		return;
	}
	if (kube_snapshot_write(s, f, KUBE_FORMAT_JSON, &err) != KUBE_OK)
		fprintf(stderr, "live_probe: %s: %s\n", path, err.msg);
	fclose(f);
}

int
main(int argc, char **argv)
{
	struct dra_ctx			 ctx;
	struct dra_live			*l;
	struct tui_source		 src;
	struct tui_source_status	 st, last;
	struct kube_snapshot		*s;
	struct dra_err			 err;
	struct pollfd			 pfd[2];
	struct rusage			 ru;
	const char			*ns = NULL, *claim = NULL;
	char				 line[256];
	long long			 limit = -1, left;
	int				 ch, in_open = 1, n;
	int				 verbosity = 0;

	while ((ch = getopt(argc, argv, "n:c:t:v:w:")) != -1) {
		switch (ch) {
		case 'n':
			ns = optarg;
			break;
		case 'c':
			claim = optarg;
			break;
		case 't':
			limit = strtoll(optarg, NULL, 10) * 1000;
			break;
		case 'v':
			verbosity = (int)strtol(optarg, NULL, 10);
			break;
		case 'w':
			write_dir = optarg;
			break;
		default:
			fprintf(stderr, "usage: live_probe [-n NS] [-c CLAIM] "
			    "[-t SECONDS] [-v LEVEL] [-w DIR]\n");
			return 2;
		}
	}
	memset(&ctx, 0, sizeof ctx);
	ctx.prog = "live_probe";
	ctx.opts.namespace = ns;	/* as -n sets it */
	ctx.opts.verbosity = verbosity;
	t0 = ms_now();
	dra_err_clear(&err);
	l = dra_live_start(&ctx, ns, &err);
	if (l == NULL) {
		fprintf(stderr, "live_probe: %s\n", err.msg);
		return 1;
	}
	printf("%lld started\n", ms_now() - t0);
	dra_live_source(l, &src);
	memset(&last, 0, sizeof last);
	for (;;) {
		s = NULL;
		src.poll(src.arg, &s, &st, &err);
		if (s != NULL) {
			show(s, claim);
			if (write_dir != NULL)
				save(s);
			kube_snapshot_free(s);
		}
		if (st.stale != last.stale || st.connecting !=
		    last.connecting || st.partial != last.partial ||
		    st.narrowed != last.narrowed ||
		    strcmp(st.where, last.where) != 0 ||
		    strcmp(st.note, last.note) != 0) {
			printf("%lld status stale=%d connecting=%d partial=%d "
			    "narrowed=%d where=%s note=%s\n", ms_now() - t0,
			    st.stale, st.connecting, st.partial, st.narrowed,
			    st.where, st.note);
			fflush(stdout);
		}
		last = st;
		pfd[0].fd = src.fd(src.arg);
		pfd[0].events = POLLIN;
		pfd[1].fd = in_open ? 0 : -1;
		pfd[1].events = POLLIN;
		left = limit < 0 ? 1000 : t0 + limit - ms_now();
		if (limit >= 0 && left <= 0)
			break;
		if (!in_open && limit < 0)
			break;
		if (poll(pfd, 2, (int)(left < 1000 ? left : 1000)) <= 0)
			continue;
		if (pfd[1].revents != 0) {
			if (fgets(line, sizeof line, stdin) == NULL) {
				in_open = 0;
				continue;
			}
			line[strcspn(line, "\n")] = '\0';
			if (strcmp(line, "q") == 0)
				break;
			if (strcmp(line, "r") == 0)
				src.refresh(src.arg);
			else if (line[0] == 'n')
				src.set_namespace(src.arg, line[1] == ' ' ?
				    line + 2 : NULL, &err);
			else if (line[0] == 'x' && line[1] == ' ' &&
			    src.set_context(src.arg, line + 2, &err) != 0)
				printf("%lld error %s\n", ms_now() - t0,
				    err.msg);
			fflush(stdout);
		}
	}
	n = 0;
	dra_live_stop(l);
	getrusage(RUSAGE_SELF, &ru);
	printf("%lld stopped maxrss_kb=%ld\n", ms_now() - t0, ru.ru_maxrss);
	return n;
}
