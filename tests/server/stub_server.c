/*
 * stub_server.c: the canned-response HTTP server (see stub_server.h).
 *
 * One thread polls the listening socket, every open connection and a
 * wake-up pipe.  Bytes read are kept per connection until a request
 * (headers plus Content-Length body) is complete; then the request is
 * recorded and the next queued reply written.  A streamed reply's
 * headers are written the same way; its chunks are then written by the
 * test's thread, under the mutex that also guards the connection
 * table's changes.
 */
#define _GNU_SOURCE
#include "stub_server.h"

#include <sys/socket.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define MAX_CONNS	32

struct stub_stream {
	struct stub_server	*s;
	int			 fd;		/* -1 until ready or after */
	int			 ready;
	int			 gone;		/* the connection closed */
};

struct reply {
	struct reply		*next;
	char			*data;
	size_t			 len;
	int			 close_after;
	struct stub_stream	*stream;
};

struct conn {
	int			 fd;
	int			 num;
	char			*buf;
	size_t			 len;
	size_t			 cap;
	struct stub_stream	*stream;	/* a reply being streamed */
};

struct stub_server {
	int			 lfd;
	int			 port;
	int			 wake[2];
	char			 url[64];
	pthread_t		 thread;
	pthread_mutex_t		 mu;
	pthread_cond_t		 cond;		/* a stream got ready */
	struct reply		*head;
	struct reply		*tail;
	size_t			 npending;
	struct stub_request	*reqs;
	size_t			 nreqs;
	struct conn		 conns[MAX_CONNS];
	int			 nconns;
	int			 conn_seq;
};

static void	*serve(void *);
static void	 die(const char *);
static void	*xalloc(size_t);
static int	 try_request(struct stub_server *, struct conn *);
static void	 drop_conn(struct stub_server *, int);
static const char *reason_of(int);

static void
die(const char *what)
{
	fprintf(stderr, "stub_server: %s: %s\n", what, strerror(errno));
	abort();
}

static void *
xalloc(size_t n)
{
	void	*p = calloc(1, n ? n : 1);

	if (p == NULL)
		die("calloc");
	return p;
}

struct stub_server *
stub_start(void)
{
	struct stub_server	*s;
	struct sockaddr_in	 sin;
	socklen_t		 sl = sizeof sin;
	int			 one = 1;

	s = xalloc(sizeof *s);
	s->lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s->lfd == -1)
		die("socket");
	setsockopt(s->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sin.sin_port = 0;
	if (bind(s->lfd, (struct sockaddr *)&sin, sizeof sin) == -1)
		die("bind");
	if (listen(s->lfd, 16) == -1)
		die("listen");
	if (getsockname(s->lfd, (struct sockaddr *)&sin, &sl) == -1)
		die("getsockname");
	s->port = ntohs(sin.sin_port);
	snprintf(s->url, sizeof s->url, "http://127.0.0.1:%d", s->port);
	if (pipe(s->wake) == -1)
		die("pipe");
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cond, NULL);
	if (pthread_create(&s->thread, NULL, serve, s) != 0)
		die("pthread_create");
	return s;
}

static void
free_requests(struct stub_server *s)
{
	size_t	i, j;

	for (i = 0; i < s->nreqs; i++) {
		free(s->reqs[i].target);
		free(s->reqs[i].body);
		for (j = 0; j < s->reqs[i].nheaders; j++) {
			free(s->reqs[i].headers[j].name);
			free(s->reqs[i].headers[j].value);
		}
		free(s->reqs[i].headers);
	}
	free(s->reqs);
	s->reqs = NULL;
	s->nreqs = 0;
}

static void
free_replies(struct stub_server *s)
{
	struct reply	*r, *next;

	for (r = s->head; r != NULL; r = next) {
		next = r->next;
		free(r->data);
		free(r->stream);
		free(r);
	}
	s->head = s->tail = NULL;
	s->npending = 0;
}

void
stub_stop(struct stub_server *s)
{
	int	i;

	if (s == NULL)
		return;
	if (write(s->wake[1], "x", 1) != 1)
		die("write");
	pthread_join(s->thread, NULL);
	for (i = 0; i < s->nconns; i++) {
		close(s->conns[i].fd);
		free(s->conns[i].buf);
	}
	close(s->lfd);
	close(s->wake[0]);
	close(s->wake[1]);
	free_requests(s);
	free_replies(s);
	pthread_cond_destroy(&s->cond);
	pthread_mutex_destroy(&s->mu);
	free(s);
}

int
stub_port(const struct stub_server *s)
{
	return s->port;
}

const char *
stub_url(const struct stub_server *s)
{
	return s->url;
}

void
stub_reply_raw(struct stub_server *s, const void *raw, size_t len,
    int close_after)
{
	struct reply	*r;

	r = xalloc(sizeof *r);
	r->data = xalloc(len + 1);
	memcpy(r->data, raw, len);
	r->len = len;
	r->close_after = close_after;
	pthread_mutex_lock(&s->mu);
	if (s->tail != NULL)
		s->tail->next = r;
	else
		s->head = r;
	s->tail = r;
	s->npending++;
	pthread_mutex_unlock(&s->mu);
}

static const char *
reason_of(int status)
{
	switch (status) {
	case 200: return "OK";
	case 201: return "Created";
	case 401: return "Unauthorized";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 409: return "Conflict";
	case 410: return "Gone";
	case 429: return "Too Many Requests";
	case 500: return "Internal Server Error";
	case 502: return "Bad Gateway";
	case 503: return "Service Unavailable";
	case 504: return "Gateway Timeout";
	}
	return "Status";
}

void
stub_reply(struct stub_server *s, int status, const char *headers,
    const void *body, size_t len)
{
	char	*raw;
	int	 n;
	size_t	 hl;

	hl = headers != NULL ? strlen(headers) : 0;
	raw = xalloc(hl + len + 256);
	n = snprintf(raw, hl + 256, "HTTP/1.1 %d %s\r\n%sContent-Length: "
	    "%zu\r\n\r\n", status, reason_of(status),
	    headers != NULL ? headers : "", len);
	memcpy(raw + n, body, len);
	stub_reply_raw(s, raw, (size_t)n + len, 0);
	free(raw);
}

void
stub_reply_json(struct stub_server *s, int status, const char *json)
{
	stub_reply(s, status, "Content-Type: application/json\r\n", json,
	    strlen(json));
}

struct stub_stream *
stub_reply_stream(struct stub_server *s, int status, const char *headers)
{
	struct stub_stream	*st;
	struct reply		*r;
	char			*raw;
	size_t			 hl;

	st = xalloc(sizeof *st);
	st->s = s;
	st->fd = -1;
	hl = headers != NULL ? strlen(headers) : 0;
	raw = xalloc(hl + 256);
	snprintf(raw, hl + 256, "HTTP/1.1 %d %s\r\n%sTransfer-Encoding: "
	    "chunked\r\n\r\n", status, reason_of(status),
	    headers != NULL ? headers : "");
	r = xalloc(sizeof *r);
	r->data = raw;
	r->len = strlen(raw);
	r->stream = st;
	pthread_mutex_lock(&s->mu);
	if (s->tail != NULL)
		s->tail->next = r;
	else
		s->head = r;
	s->tail = r;
	s->npending++;
	pthread_mutex_unlock(&s->mu);
	return st;
}

int
stub_stream_ready(struct stub_stream *st)
{
	int	ready;

	pthread_mutex_lock(&st->s->mu);
	ready = st->ready;
	pthread_mutex_unlock(&st->s->mu);
	return ready;
}

/* Under mu: wait for the request, then write all of p (if still open). */
static void
stream_write(struct stub_stream *st, const char *p, size_t len)
{
	ssize_t	n;

	while (!st->ready)
		pthread_cond_wait(&st->s->cond, &st->s->mu);
	while (len > 0 && st->fd != -1) {
		n = send(st->fd, p, len, MSG_NOSIGNAL);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		p += n;
		len -= (size_t)n;
	}
}

void
stub_stream_send(struct stub_stream *st, const void *data, size_t len)
{
	char	head[32];

	if (len == 0)
		return;		/* a zero chunk would end the body */
	snprintf(head, sizeof head, "%zx\r\n", len);
	pthread_mutex_lock(&st->s->mu);
	stream_write(st, head, strlen(head));
	stream_write(st, data, len);
	stream_write(st, "\r\n", 2);
	pthread_mutex_unlock(&st->s->mu);
}

void
stub_stream_end(struct stub_stream *st, int clean)
{
	struct stub_server	*s = st->s;
	int			 i;

	pthread_mutex_lock(&s->mu);
	if (clean)
		stream_write(st, "0\r\n\r\n", 5);
	else {
		while (!st->ready)
			pthread_cond_wait(&s->cond, &s->mu);
		if (st->fd != -1)
			shutdown(st->fd, SHUT_RDWR);
	}
	/* the connection forgets the stream; the server thread closes it */
	for (i = 0; i < s->nconns; i++)
		if (s->conns[i].stream == st)
			s->conns[i].stream = NULL;
	pthread_mutex_unlock(&s->mu);
	free(st);
}

size_t
stub_pending(struct stub_server *s)
{
	size_t	n;

	pthread_mutex_lock(&s->mu);
	n = s->npending;
	pthread_mutex_unlock(&s->mu);
	return n;
}

size_t
stub_nrequests(struct stub_server *s)
{
	size_t	n;

	pthread_mutex_lock(&s->mu);
	n = s->nreqs;
	pthread_mutex_unlock(&s->mu);
	return n;
}

const struct stub_request *
stub_request(struct stub_server *s, size_t i)
{
	const struct stub_request	*r = NULL;

	pthread_mutex_lock(&s->mu);
	if (i < s->nreqs)
		r = &s->reqs[i];
	pthread_mutex_unlock(&s->mu);
	return r;
}

const char *
stub_header(const struct stub_request *r, const char *name)
{
	size_t	i;

	for (i = 0; r != NULL && i < r->nheaders; i++)
		if (strcasecmp(r->headers[i].name, name) == 0)
			return r->headers[i].value;
	return NULL;
}

size_t
stub_header_count(const struct stub_request *r, const char *name)
{
	size_t	i, n = 0;

	for (i = 0; r != NULL && i < r->nheaders; i++)
		if (strcasecmp(r->headers[i].name, name) == 0)
			n++;
	return n;
}

void
stub_clear(struct stub_server *s)
{
	pthread_mutex_lock(&s->mu);
	free_requests(s);
	free_replies(s);
	pthread_mutex_unlock(&s->mu);
}

static void
drop_conn(struct stub_server *s, int i)
{
	/* under mu: stub_stream_end looks at the streams of conns */
	pthread_mutex_lock(&s->mu);
	if (s->conns[i].stream != NULL) {
		s->conns[i].stream->fd = -1;
		s->conns[i].stream->gone = 1;
		s->conns[i].stream = NULL;
	}
	close(s->conns[i].fd);
	free(s->conns[i].buf);
	s->conns[i] = s->conns[--s->nconns];
	pthread_mutex_unlock(&s->mu);
}

static int
write_all(int fd, const char *p, size_t len)
{
	ssize_t	n;

	while (len > 0) {
		n = write(fd, p, len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * If c holds a whole request, record it, answer it and return 1 (or -1
 * when the connection must close); 0 when more bytes are needed.
 */
static int
try_request(struct stub_server *s, struct conn *c)
{
	struct stub_request	 r;
	struct reply		*rep;
	char			*end, *line, *next, *colon, *v;
	size_t			 hlen, clen = 0, total;
	int			 close_after = 0, rc = 1;

	if (c->len == 0)
		return 0;
	end = memmem(c->buf, c->len, "\r\n\r\n", 4);
	if (end == NULL)
		return 0;
	hlen = (size_t)(end - c->buf) + 4;
	memset(&r, 0, sizeof r);
	/* Content-Length */
	for (line = c->buf; line < end; line = next + 2) {
		next = memmem(line, (size_t)(end + 2 - line), "\r\n", 2);
		if (next == NULL)
			break;
		if ((size_t)(next - line) > 15 &&
		    strncasecmp(line, "content-length:", 15) == 0)
			clen = strtoul(line + 15, NULL, 10);
	}
	total = hlen + clen;
	if (c->len < total)
		return 0;

	/* request line */
	line = c->buf;
	next = memmem(line, hlen, "\r\n", 2);
	{
		char *sp1 = memchr(line, ' ', (size_t)(next - line));
		char *sp2 = sp1 != NULL ? memchr(sp1 + 1, ' ',
		    (size_t)(next - sp1 - 1)) : NULL;

		if (sp1 == NULL || sp2 == NULL)
			return -1;
		snprintf(r.method, sizeof r.method, "%.*s", (int)(sp1 - line),
		    line);
		r.target = strndup(sp1 + 1, (size_t)(sp2 - sp1 - 1));
	}
	for (line = next + 2; line < end + 2; line = next + 2) {
		next = memmem(line, (size_t)(end + 2 - line), "\r\n", 2);
		if (next == NULL || next == line)
			break;
		colon = memchr(line, ':', (size_t)(next - line));
		if (colon == NULL)
			continue;
		v = colon + 1;
		while (*v == ' ')
			v++;
		r.headers = realloc(r.headers, (r.nheaders + 1) *
		    sizeof *r.headers);
		if (r.headers == NULL)
			die("realloc");
		r.headers[r.nheaders].name = strndup(line,
		    (size_t)(colon - line));
		r.headers[r.nheaders].value = strndup(v, (size_t)(next - v));
		r.nheaders++;
	}
	r.body = xalloc(clen + 1);
	memcpy(r.body, c->buf + hlen, clen);
	r.body_len = clen;
	r.conn = c->num;
	memmove(c->buf, c->buf + total, c->len - total);
	c->len -= total;

	pthread_mutex_lock(&s->mu);
	s->reqs = realloc(s->reqs, (s->nreqs + 1) * sizeof *s->reqs);
	if (s->reqs == NULL)
		die("realloc");
	s->reqs[s->nreqs++] = r;
	rep = s->head;
	if (rep != NULL) {
		s->head = rep->next;
		if (s->head == NULL)
			s->tail = NULL;
		s->npending--;
	}
	pthread_mutex_unlock(&s->mu);

	if (rep == NULL) {
		static const char none[] = "HTTP/1.1 500 Internal Server Error"
		    "\r\nContent-Length: 25\r\nConnection: close\r\n\r\n"
		    "stub: no canned response\n";

		write_all(c->fd, none, sizeof none - 1);
		return -1;
	}
	if (write_all(c->fd, rep->data, rep->len) == -1)
		rc = -1;
	if (rep->stream != NULL) {
		pthread_mutex_lock(&s->mu);
		rep->stream->fd = c->fd;
		rep->stream->ready = 1;
		c->stream = rep->stream;
		pthread_cond_broadcast(&s->cond);
		pthread_mutex_unlock(&s->mu);
	}
	close_after = rep->close_after;
	free(rep->data);
	free(rep);
	return close_after ? -1 : rc;
}

static void *
serve(void *arg)
{
	struct stub_server	*s = arg;
	struct pollfd		 pfd[MAX_CONNS + 2];
	struct conn		*c;
	ssize_t			 n;
	int			 i, nfds, fd, r;

	for (;;) {
		pfd[0].fd = s->wake[0];
		pfd[0].events = POLLIN;
		pfd[1].fd = s->lfd;
		pfd[1].events = s->nconns < MAX_CONNS ? POLLIN : 0;
		for (i = 0; i < s->nconns; i++) {
			pfd[i + 2].fd = s->conns[i].fd;
			pfd[i + 2].events = POLLIN;
		}
		nfds = s->nconns + 2;
		if (poll(pfd, (nfds_t)nfds, -1) == -1) {
			if (errno == EINTR)
				continue;
			die("poll");
		}
		if (pfd[0].revents != 0)
			break;
		/* connections first: their indexes are stable until now */
		for (i = nfds - 1; i >= 2; i--) {
			if (pfd[i].revents == 0)
				continue;
			c = &s->conns[i - 2];
			if (c->cap - c->len < 4096) {
				c->cap = c->cap ? c->cap * 2 : 8192;
				c->buf = realloc(c->buf, c->cap);
				if (c->buf == NULL)
					die("realloc");
			}
			n = read(c->fd, c->buf + c->len, c->cap - c->len);
			if (n <= 0) {
				drop_conn(s, i - 2);
				continue;
			}
			c->len += (size_t)n;
			while ((r = try_request(s, c)) == 1)
				;
			if (r == -1)
				drop_conn(s, i - 2);
		}
		if (pfd[1].revents & POLLIN) {
			fd = accept4(s->lfd, NULL, NULL, SOCK_CLOEXEC);
			if (fd != -1) {
				pthread_mutex_lock(&s->mu);
				c = &s->conns[s->nconns++];
				memset(c, 0, sizeof *c);
				c->fd = fd;
				c->num = ++s->conn_seq;
				pthread_mutex_unlock(&s->mu);
			}
		}
	}
	return NULL;
}
