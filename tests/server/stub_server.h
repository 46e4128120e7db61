/*
 * stub_server.h: a canned-response HTTP/1.1 server for tests.
 *
 * It listens on 127.0.0.1 on an ephemeral port, in a thread of the test
 * process, and answers each request with the next reply the test
 * queued, in order (plain http only; the real TLS path is tested
 * against a real kube-apiserver).  Every request is recorded before its
 * reply goes out, so once the client has the reply the test can inspect
 * what was sent.  Connections are kept alive unless a reply says
 * otherwise, and several may be open at once, as libcurl expects.
 * Used for what a real API server cannot be made to do on demand: 429
 * with Retry-After, 503, malformed bodies, 410 Expired in the middle of
 * a list, Status bodies, Warning headers, and watch streams the test
 * writes chunk by chunk (events split across chunks, an ERROR event, a
 * stream cut in the middle).
 *
 * Test code: on any system error the functions abort() (via assert-like
 * checks) rather than report.
 */
#ifndef STUB_SERVER_H
#define STUB_SERVER_H

#include <stddef.h>

struct stub_server;

struct stub_header {
	char	*name;
	char	*value;
};

struct stub_request {
	char			 method[16];
	char			*target;	/* "/path?q", or absolute URL */
	struct stub_header	*headers;
	size_t			 nheaders;
	char			*body;		/* NUL-terminated */
	size_t			 body_len;
	int			 conn;		/* connection number, from 1 */
};

/* Start a server; never NULL.  Free with stub_stop. */
struct stub_server *stub_start(void);

/* Stop the thread, close everything, free s and its recorded requests. */
void	stub_stop(struct stub_server *s);

/* The port it listens on (127.0.0.1). */
int	stub_port(const struct stub_server *s);

/* "http://127.0.0.1:PORT" in a static buffer of the server. */
const char *stub_url(const struct stub_server *s);

/*
 * Queue a reply: status with its reason phrase, extra header lines
 * (each "Name: value\r\n", or NULL), and body of len bytes (copied).
 * Content-Length is added.
 */
void	stub_reply(struct stub_server *s, int status, const char *headers,
	    const void *body, size_t len);

/* stub_reply with Content-Type: application/json and a string body. */
void	stub_reply_json(struct stub_server *s, int status, const char *json);

/*
 * Queue raw bytes to write as the whole reply (len may be 0); close the
 * connection afterwards when close_after is set.  A zero-length reply
 * with close_after drops the connection without answering.
 */
void	stub_reply_raw(struct stub_server *s, const void *raw, size_t len,
	    int close_after);

/*
 * A streamed reply (a watch): queued like stub_reply, answered with
 * the status line, headers and "Transfer-Encoding: chunked" when its
 * request arrives; the body is then written by the test.
 */
struct stub_stream;

struct stub_stream *stub_reply_stream(struct stub_server *s, int status,
	    const char *headers);

/* Non-zero once the stream's request has arrived and headers are out. */
int	stub_stream_ready(struct stub_stream *st);

/*
 * Write len bytes of data as one HTTP chunk (waits until the stream is
 * ready; nothing happens when the client has closed the connection).
 */
void	stub_stream_send(struct stub_stream *st, const void *data,
	    size_t len);

/*
 * End the stream and free st: clean, with the last chunk (the
 * connection stays open for the next request), or cut: the connection
 * is shut down without it, as a server that dies mid-stream.
 */
void	stub_stream_end(struct stub_stream *st, int clean);

/* Replies still queued. */
size_t	stub_pending(struct stub_server *s);

/* Requests recorded so far. */
size_t	stub_nrequests(struct stub_server *s);

/* Request i (from 0), valid until stub_stop or stub_clear. */
const struct stub_request *stub_request(struct stub_server *s, size_t i);

/* Value of header name (case-insensitive) in r, or NULL. */
const char *stub_header(const struct stub_request *r, const char *name);

/* How many times header name occurs in r. */
size_t	stub_header_count(const struct stub_request *r, const char *name);

/* Forget the recorded requests and queued replies. */
void	stub_clear(struct stub_server *s);

#endif
