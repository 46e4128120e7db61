/*
 * tcp_relay.c: a TCP relay on loopback, so that an e2e test can cut a
 * client's connections to the real API server and let it back in
 * (tests/e2e/t0090-ui-live.sh: the UI's watches break, it shows the
 * data as stale, and recovers).  TLS passes through untouched.
 *
 *	tcp_relay [-p PORT] TARGET_PORT PORT_FILE
 *
 * Listens on 127.0.0.1:PORT (0 or no -p: any free port), writes the
 * port to PORT_FILE once it listens, and copies bytes both ways
 * between each accepted connection and a new one to
 * 127.0.0.1:TARGET_PORT.  Killing it (SIGTERM) drops every connection
 * at once, as a server that goes away.  One thread, poll(2), at most
 * MAX_PAIRS connections.  Test code: system errors end it with 1.
 */
#define _GNU_SOURCE
#include <sys/socket.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_PAIRS	64

struct pair {
	int	fd[2];		/* client, server */
};

static struct pair	pairs[MAX_PAIRS];
static int		npairs;

static void
die(const char *what)
{
	fprintf(stderr, "tcp_relay: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int
port_arg(const char *s)
{
	char	*end;
	long	 v = strtol(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v < 0 || v > 65535) {
		fprintf(stderr, "tcp_relay: bad port \"%s\"\n", s);
		exit(2);
	}
	return (int)v;
}

static int
dial(int port)
{
	struct sockaddr_in	sin;
	int			fd;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd == -1)
		die("socket");
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sin.sin_port = htons((uint16_t)port);
	if (connect(fd, (struct sockaddr *)&sin, sizeof sin) == -1) {
		close(fd);
		return -1;
	}
	return fd;
}

static void
drop(int i)
{
	close(pairs[i].fd[0]);
	close(pairs[i].fd[1]);
	pairs[i] = pairs[--npairs];
}

/* Copy what from can give to to; -1 when either side is done. */
static int
copy(int from, int to)
{
	char	buf[65536];
	ssize_t	n, w, off = 0;

	n = read(from, buf, sizeof buf);
	if (n == -1 && errno == EINTR)
		return 0;
	if (n <= 0)
		return -1;
	while (off < n) {
		w = send(to, buf + off, (size_t)(n - off), MSG_NOSIGNAL);
		if (w == -1 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		off += w;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct sockaddr_in	 sin;
	struct pollfd		 pfd[1 + 2 * MAX_PAIRS];
	socklen_t		 sl = sizeof sin;
	FILE			*f;
	int			 ch, port = 0, target, lfd, one = 1, i, n, c, s;

	while ((ch = getopt(argc, argv, "p:")) != -1) {
		if (ch != 'p')
			goto usage;
		port = port_arg(optarg);
	}
	argc -= optind;
	argv += optind;
	if (argc != 2)
		goto usage;
	target = port_arg(argv[0]);
	signal(SIGPIPE, SIG_IGN);

	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd == -1)
		die("socket");
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sin.sin_port = htons((uint16_t)port);
	if (bind(lfd, (struct sockaddr *)&sin, sizeof sin) == -1)
		die("bind");
	if (listen(lfd, 64) == -1)
		die("listen");
	if (getsockname(lfd, (struct sockaddr *)&sin, &sl) == -1)
		die("getsockname");
	if ((f = fopen(argv[1], "w")) == NULL)
		die(argv[1]);
	fprintf(f, "%d\n", ntohs(sin.sin_port));
	if (fclose(f) != 0)
		die(argv[1]);

	for (;;) {
		pfd[0].fd = lfd;
		pfd[0].events = npairs < MAX_PAIRS ? POLLIN : 0;
		for (i = 0; i < npairs; i++) {
			pfd[1 + 2 * i].fd = pairs[i].fd[0];
			pfd[1 + 2 * i].events = POLLIN;
			pfd[2 + 2 * i].fd = pairs[i].fd[1];
			pfd[2 + 2 * i].events = POLLIN;
		}
		n = 1 + 2 * npairs;
		if (poll(pfd, (nfds_t)n, -1) == -1) {
			if (errno == EINTR)
				continue;
			die("poll");
		}
		/* pairs from the end: drop() moves the last one down */
		for (i = npairs - 1; i >= 0; i--) {
			if ((pfd[1 + 2 * i].revents != 0 && copy(pairs[i].fd[0],
			    pairs[i].fd[1]) == -1) ||
			    (pfd[2 + 2 * i].revents != 0 &&
			    copy(pairs[i].fd[1], pairs[i].fd[0]) == -1))
				drop(i);
		}
		if (pfd[0].revents & POLLIN) {
			c = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
			if (c == -1)
				continue;
			if ((s = dial(target)) == -1) {
				close(c);
				continue;
			}
			pairs[npairs].fd[0] = c;
			pairs[npairs].fd[1] = s;
			npairs++;
		}
	}
usage:
	fprintf(stderr, "usage: tcp_relay [-p PORT] TARGET_PORT PORT_FILE\n");
	return 2;
}
