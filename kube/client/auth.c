/*
 * auth.c: credentials at request time.
 *
 * Static tokens, basic auth and client certificates come straight from
 * the configuration.  A tokenFile is re-read when its copy is a minute
 * old (client-go transport/token_source.go cachingTokenSource).  Exec
 * credential plugins follow plugin/pkg/client/auth/exec/exec.go: the
 * plugin runs with the user's environment plus exec.env plus
 * KUBERNETES_EXEC_INFO, stdin only when interactive, stderr passed
 * through (both /dev/null once the client is detached from the
 * terminal); its stdout must be an ExecCredential of the configured
 * apiVersion; the credential is kept until its expirationTimestamp (or
 * for the life of the client) and re-fetched once after a 401.
 */
#include "client-int.h"

#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cJSON.h>
#include <openssl/evp.h>

#include "buf.h"
#include "err.h"
#include "xmalloc.h"

extern char **environ;

static int	 read_token_file(const char *, char **, struct dra_err *);
static int	 exec_interactive(const struct kube_client *, int *,
		    struct dra_err *);
static char	**exec_envp(const struct kube_exec_config *, const char *);
static int	 exec_spawn(struct kube_client *, char **, int,
		    struct dra_buf *, struct dra_err *);
static int	 exec_parse(struct kube_client *, const struct dra_buf *,
		    struct dra_err *);
static void	 exec_cred_clear(struct kube_exec_cred *);
static int	 install_cert(struct kube_client *);

void
kube_secret_free(void *p, size_t len)
{
	if (p == NULL)
		return;
	explicit_bzero(p, len);
	free(p);
}

int
kube_base64_decode(const char *in, size_t len, unsigned char **out,
    size_t *outlen)
{
	unsigned char	*clean, *raw;
	size_t		 i, n = 0, pad = 0;
	int		 got;

	*out = NULL;
	*outlen = 0;
	clean = xmalloc(len + 1);
	for (i = 0; i < len; i++) {
		if (in[i] == '\r' || in[i] == '\n')
			continue;
		if (!((in[i] >= 'A' && in[i] <= 'Z') ||
		    (in[i] >= 'a' && in[i] <= 'z') ||
		    (in[i] >= '0' && in[i] <= '9') || in[i] == '+' ||
		    in[i] == '/' || in[i] == '=')) {
			kube_secret_free(clean, len + 1);
			return -1;
		}
		clean[n++] = (unsigned char)in[i];
	}
	if (n % 4 != 0) {
		kube_secret_free(clean, len + 1);
		return -1;
	}
	/* '=' only as the last one or two characters */
	for (i = 0; i < n; i++)
		if (clean[i] == '=' && i < n - 2) {
			kube_secret_free(clean, len + 1);
			return -1;
		}
	if (n >= 1 && clean[n - 1] == '=')
		pad++;
	if (n >= 2 && clean[n - 2] == '=') {
		if (pad == 0) {
			kube_secret_free(clean, len + 1);
			return -1;
		}
		pad++;
	}
	raw = xmalloc(n / 4 * 3 + 1);
	got = n > 0 ? EVP_DecodeBlock(raw, clean, (int)n) : 0;
	kube_secret_free(clean, len + 1);
	if (got < 0 || (size_t)got < pad) {
		kube_secret_free(raw, n / 4 * 3 + 1);
		return -1;
	}
	*outlen = (size_t)got - pad;
	raw[*outlen] = '\0';
	*out = raw;
	return 0;
}

char *
kube_base64_encode(const void *data, size_t len)
{
	char	*out;

	out = xmalloc((len + 2) / 3 * 4 + 1);
	EVP_EncodeBlock((unsigned char *)out, data, (int)len);
	return out;
}

int
kube_parse_rfc3339(const char *s, time_t *t)
{
	struct tm	 tm;
	int		 y, mo, d, h, mi, sec, n = 0, oh, om, sign;
	const char	*p;
	long		 off = 0;

	if (sscanf(s, "%4d-%2d-%2d%n", &y, &mo, &d, &n) != 3 || n != 10)
		return -1;
	p = s + n;
	if (*p != 'T' && *p != 't' && *p != ' ')
		return -1;
	p++;
	n = 0;
	if (sscanf(p, "%2d:%2d:%2d%n", &h, &mi, &sec, &n) != 3 || n != 8)
		return -1;
	p += n;
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return -1;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p == 'Z' || *p == 'z')
		p++;
	else if (*p == '+' || *p == '-') {
		sign = *p == '-' ? -1 : 1;
		n = 0;
		if (sscanf(p + 1, "%2d:%2d%n", &oh, &om, &n) != 2 || n != 5)
			return -1;
		off = sign * (oh * 3600L + om * 60L);
		p += 6;
	} else
		return -1;
	if (*p != '\0' || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 ||
	    mi > 59 || sec > 60)
		return -1;
	memset(&tm, 0, sizeof tm);
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = sec;
	*t = timegm(&tm) - off;
	return 0;
}

/*
 * The trimmed contents of a token file (token_source.go
 * fileTokenSource: an empty token is an error).
 */
static int
read_token_file(const char *path, char **tok, struct dra_err *err)
{
	struct dra_buf	 b;
	char		 chunk[4096];
	ssize_t		 n;
	size_t		 start = 0, end;
	int		 fd, e = 0;

	*tok = NULL;
	dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd == -1)
		return dra_err_set(err, KUBE_E_IO, "cannot read token file "
		    "\"%s\": %s", path, strerror(errno));
	for (;;) {
		n = read(fd, chunk, sizeof chunk);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			e = n == -1 ? errno : 0;
			break;
		}
		if (dra_buf_add(&b, chunk, (size_t)n) != KUBE_OK) {
			e = EFBIG;
			break;
		}
	}
	close(fd);
	explicit_bzero(chunk, sizeof chunk);
	if (e != 0) {
		if (b.ptr != NULL)
			explicit_bzero(b.ptr, b.len);
		dra_buf_release(&b);
		return dra_err_set(err, KUBE_E_IO, "cannot read token file "
		    "\"%s\": %s", path, e == EFBIG ? "file too large" :
		    strerror(e));
	}
	end = b.len;
	while (start < end && strchr(" \t\r\n", b.ptr[start]) != NULL)
		start++;
	while (end > start && strchr(" \t\r\n", b.ptr[end - 1]) != NULL)
		end--;
	if (end == start) {
		dra_buf_release(&b);
		return dra_err_set(err, KUBE_E_IO,
		    "read empty token from file \"%s\"", path);
	}
	*tok = xstrndup(b.ptr + start, end - start);
	explicit_bzero(b.ptr, b.len);
	dra_buf_release(&b);
	return KUBE_OK;
}

int
kube_auth_get(struct kube_client *c, struct kube_auth *auth,
    struct dra_err *err)
{
	const struct kube_config	*cfg = &c->cfg;
	char				*user, *b64;
	time_t				 now;
	int				 rc;

	memset(auth, 0, sizeof *auth);
	now = c->now();
	/* rest/transport.go: basic auth, else bearer token (file) */
	if (cfg->username != NULL) {
		user = xasprintf("%s:%s", cfg->username, cfg->password);
		b64 = kube_base64_encode(user, strlen(user));
		auth->authorization = xasprintf("Basic %s", b64);
		auth->kind = "Basic";
		kube_secret_free(user, strlen(user));
		kube_secret_free(b64, strlen(b64));
		return KUBE_OK;
	}
	if (cfg->token != NULL) {
		auth->authorization = xasprintf("Bearer %s", cfg->token);
		auth->kind = "Bearer";
		return KUBE_OK;
	}
	if (cfg->token_file != NULL) {
		if (c->file_token == NULL ||
		    now - c->file_token_at >= KUBE_TOKEN_FILE_TTL ||
		    now < c->file_token_at) {
			char *tok;

			if ((rc = read_token_file(cfg->token_file, &tok,
			    err)) != KUBE_OK)
				return rc;
			if (c->file_token != NULL)
				kube_secret_free(c->file_token,
				    strlen(c->file_token));
			c->file_token = tok;
			c->file_token_at = now;
		}
		auth->authorization = xasprintf("Bearer %s", c->file_token);
		auth->kind = "Bearer";
		return KUBE_OK;
	}
	if (cfg->exec == NULL)
		return KUBE_OK;
	/* exec.go getCreds: keep the credential until it expires */
	if (!c->exec.valid || (c->exec.expiry != 0 && now > c->exec.expiry)) {
		if ((rc = kube_exec_run(c, err)) != KUBE_OK)
			return rc;
	}
	auth->exec_gen = c->exec.gen;
	if (c->exec.token != NULL) {
		auth->authorization = xasprintf("Bearer %s", c->exec.token);
		auth->kind = "Bearer";
	}
	if (c->exec.cert != NULL && cfg->cert_file == NULL &&
	    cfg->cert_data == NULL && c->cert_installed != (int)c->exec.gen)
		auth->cert_changed = install_cert(c);
	return KUBE_OK;
}

/* Put the exec plugin's certificate and key on the handle. */
static int
install_cert(struct kube_client *c)
{
	struct curl_blob	blob;
	int			rotated = c->cert_installed != 0;

	blob.data = c->exec.cert;
	blob.len = c->exec.cert_len;
	blob.flags = CURL_BLOB_COPY;
	curl_easy_setopt(c->curl, CURLOPT_SSLCERT_BLOB, &blob);
	curl_easy_setopt(c->curl, CURLOPT_SSLCERTTYPE, "PEM");
	blob.data = c->exec.key;
	blob.len = c->exec.key_len;
	curl_easy_setopt(c->curl, CURLOPT_SSLKEY_BLOB, &blob);
	curl_easy_setopt(c->curl, CURLOPT_SSLKEYTYPE, "PEM");
	c->cert_installed = (int)c->exec.gen;
	return rotated;
}

void
kube_auth_release(struct kube_auth *auth)
{
	if (auth->authorization != NULL)
		kube_secret_free(auth->authorization,
		    strlen(auth->authorization));
	memset(auth, 0, sizeof *auth);
}

int
kube_auth_refresh(struct kube_client *c, unsigned gen, struct dra_err *err)
{
	if (c->cfg.exec == NULL || gen == 0)
		return dra_err_set(err, KUBE_E_AUTH, "no exec credentials");
	/* exec.go maybeRefreshCreds: unless they rotated already */
	if (c->exec.valid && c->exec.gen != gen)
		return KUBE_OK;
	return kube_exec_run(c, err);
}

static void
exec_cred_clear(struct kube_exec_cred *x)
{
	if (x->token != NULL)
		kube_secret_free(x->token, strlen(x->token));
	free(x->cert);
	kube_secret_free(x->key, x->key_len);
	x->token = NULL;
	x->cert = NULL;
	x->key = NULL;
	x->cert_len = x->key_len = 0;
	x->expiry = 0;
	x->valid = 0;
}

/* exec.go isInteractive */
static int
exec_interactive(const struct kube_client *c, int *interactive,
    struct dra_err *err)
{
	const char	*mode = c->cfg.exec->interactive_mode;
	int		 tty;

	switch (c->detached ? KUBE_STDIN_NONE : c->stdin_mode) {
	case KUBE_STDIN_TERMINAL:
		tty = 1;
		break;
	case KUBE_STDIN_NONE:
		tty = 0;
		break;
	default:
		tty = isatty(STDIN_FILENO);
		break;
	}
	*interactive = 0;
	if (strcmp(mode, "Never") == 0)
		return KUBE_OK;
	if (strcmp(mode, "IfAvailable") == 0) {
		*interactive = tty;
		return KUBE_OK;
	}
	if (strcmp(mode, "Always") == 0) {
		if (!tty)
			return dra_err_set(err, KUBE_E_EXEC, "exec plugin "
			    "cannot support interactive mode: standard input "
			    "is not a terminal");
		*interactive = 1;
		return KUBE_OK;
	}
	return dra_err_set(err, KUBE_E_EXEC, "exec plugin cannot support "
	    "interactive mode: unknown interactiveMode: \"%s\"", mode);
}

char *
kube_exec_info(const struct kube_client *c, int interactive)
{
	const struct kube_config	*cfg = &c->cfg;
	cJSON				*root, *spec, *cl, *conf;
	struct dra_buf			 ca;
	char				*s, *b64;
	int				 fd;
	ssize_t				 n;
	char				 chunk[4096];

	root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "kind", "ExecCredential");
	cJSON_AddStringToObject(root, "apiVersion", cfg->exec->api_version);
	spec = cJSON_AddObjectToObject(root, "spec");
	/* rest/exec.go ConfigToExecCluster, v1 Cluster json tags */
	if (cfg->exec->provide_cluster_info) {
		cl = cJSON_AddObjectToObject(spec, "cluster");
		cJSON_AddStringToObject(cl, "server", cfg->server);
		if (cfg->tls_server_name != NULL)
			cJSON_AddStringToObject(cl, "tls-server-name",
			    cfg->tls_server_name);
		if (cfg->insecure)
			cJSON_AddTrueToObject(cl, "insecure-skip-tls-verify");
		dra_buf_init(&ca, DRA_BUF_MAX_SMALL);
		if (cfg->ca_data != NULL)
			dra_buf_add(&ca, cfg->ca_data, cfg->ca_len);
		else if (cfg->ca_file != NULL &&
		    (fd = open(cfg->ca_file, O_RDONLY | O_CLOEXEC)) != -1) {
			while ((n = read(fd, chunk, sizeof chunk)) > 0)
				if (dra_buf_add(&ca, chunk, (size_t)n) !=
				    KUBE_OK)
					break;
			close(fd);
		}
		if (ca.len > 0) {
			b64 = kube_base64_encode(ca.ptr, ca.len);
			cJSON_AddStringToObject(cl,
			    "certificate-authority-data", b64);
			free(b64);
		}
		dra_buf_release(&ca);
		if (cfg->proxy_url != NULL)
			cJSON_AddStringToObject(cl, "proxy-url",
			    cfg->proxy_url);
		if (cfg->disable_compression)
			cJSON_AddTrueToObject(cl, "disable-compression");
		if (cfg->exec_cluster_config != NULL &&
		    (conf = cJSON_Parse(cfg->exec_cluster_config)) != NULL) {
			if (cJSON_IsNull(conf))
				cJSON_Delete(conf);
			else
				cJSON_AddItemToObject(cl, "config", conf);
		}
	}
	cJSON_AddBoolToObject(spec, "interactive", interactive);
	s = cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	if (s == NULL)
		s = xstrdup("{}");
	return s;
}

/*
 * The plugin's environment: ours, then exec.env (later entries win, as
 * Go's exec.Cmd dedups), then KUBERNETES_EXEC_INFO.
 */
static char **
exec_envp(const struct kube_exec_config *x, const char *info)
{
	char	**envp;
	size_t	  n = 0, i, j, k, len;
	const char *name;

	for (i = 0; environ[i] != NULL; i++)
		n++;
	envp = xcalloc(n + x->nenv + 2, sizeof *envp);
	k = 0;
	for (i = 0; environ[i] != NULL; i++) {
		len = strcspn(environ[i], "=");
		for (j = 0; j < x->nenv; j++)
			if (strlen(x->env[j].name) == len &&
			    strncmp(environ[i], x->env[j].name, len) == 0)
				break;
		if (j < x->nenv || (len == strlen("KUBERNETES_EXEC_INFO") &&
		    strncmp(environ[i], "KUBERNETES_EXEC_INFO", len) == 0))
			continue;
		envp[k++] = xstrdup(environ[i]);
	}
	for (j = 0; j < x->nenv; j++) {
		name = x->env[j].name;
		if (strcmp(name, "KUBERNETES_EXEC_INFO") == 0)
			continue;
		for (i = j + 1; i < x->nenv; i++)
			if (strcmp(x->env[i].name, name) == 0)
				break;
		if (i < x->nenv)
			continue;	/* a later entry wins */
		envp[k++] = xasprintf("%s=%s", name, x->env[j].value);
	}
	envp[k++] = xasprintf("KUBERNETES_EXEC_INFO=%s", info);
	envp[k] = NULL;
	return envp;
}

static int
exec_spawn(struct kube_client *c, char **envp, int interactive,
    struct dra_buf *out, struct dra_err *err)
{
	const struct kube_exec_config	*x = c->cfg.exec;
	posix_spawn_file_actions_t	 fa;
	char				**argv, chunk[4096];
	pid_t				 pid;
	ssize_t				 n;
	size_t				 i;
	int				 pfd[2], st, e, rc = KUBE_OK, big = 0;

	if (pipe(pfd) == -1)
		return dra_err_set(err, KUBE_E_EXEC, "exec: pipe: %s",
		    strerror(errno));
	argv = xcalloc(x->nargs + 2, sizeof *argv);
	argv[0] = (char *)x->command;
	for (i = 0; i < x->nargs; i++)
		argv[i + 1] = (char *)x->args[i];
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], STDOUT_FILENO);
	posix_spawn_file_actions_addclose(&fa, pfd[0]);
	posix_spawn_file_actions_addclose(&fa, pfd[1]);
	if (!interactive)
		posix_spawn_file_actions_addopen(&fa, STDIN_FILENO,
		    "/dev/null", O_RDONLY, 0);
	if (c->detached)
		/* a curses screen owns the terminal: no prompt, no text */
		posix_spawn_file_actions_addopen(&fa, STDERR_FILENO,
		    "/dev/null", O_WRONLY, 0);
	e = strchr(x->command, '/') != NULL ?
	    posix_spawn(&pid, x->command, &fa, NULL, argv, envp) :
	    posix_spawnp(&pid, x->command, &fa, NULL, argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	free(argv);
	close(pfd[1]);
	if (e != 0) {
		close(pfd[0]);
		/* exec.go wrapCmdRunErrorLocked */
		if (e == ENOENT)
			return dra_err_set(err, KUBE_E_EXEC, "exec: executable "
			    "%s not found%s%s", x->command,
			    x->install_hint != NULL ? "\n\n" : "",
			    x->install_hint != NULL ? x->install_hint : "");
		return dra_err_set(err, KUBE_E_EXEC, "exec: %s: %s",
		    x->command, strerror(e));
	}
	for (;;) {
		n = read(pfd[0], chunk, sizeof chunk);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (!big && dra_buf_add(out, chunk, (size_t)n) != KUBE_OK)
			big = 1;	/* drain so the plugin can exit */
	}
	explicit_bzero(chunk, sizeof chunk);
	close(pfd[0]);
	while (waitpid(pid, &st, 0) == -1) {
		if (errno != EINTR)
			return dra_err_set(err, KUBE_E_EXEC, "exec: wait: %s",
			    strerror(errno));
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127 && out->len == 0)
		rc = dra_err_set(err, KUBE_E_EXEC, "exec: executable %s not "
		    "found%s%s", x->command,
		    x->install_hint != NULL ? "\n\n" : "",
		    x->install_hint != NULL ? x->install_hint : "");
	else if (WIFEXITED(st) && WEXITSTATUS(st) != 0)
		rc = dra_err_set(err, KUBE_E_EXEC, "exec: executable %s failed "
		    "with exit code %d", x->command, WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		rc = dra_err_set(err, KUBE_E_EXEC, "exec: executable %s was "
		    "killed by signal %d", x->command, WTERMSIG(st));
	else if (big)
		rc = dra_err_set(err, KUBE_E_EXEC, "exec: executable %s wrote "
		    "more than %lu bytes", x->command,
		    (unsigned long)KUBE_EXEC_MAX_OUTPUT);
	return rc;
}

/* exec.go refreshCredsLocked, after the run */
static int
exec_parse(struct kube_client *c, const struct dra_buf *out,
    struct dra_err *err)
{
	const struct kube_exec_config	*x = c->cfg.exec;
	const cJSON			*av, *kind, *status, *tok, *crt, *key;
	const cJSON			*exp;
	const char			*end = NULL;
	struct kube_exec_cred		 nc;
	cJSON				*root;
	int				 rc = KUBE_OK;

	memset(&nc, 0, sizeof nc);
	root = cJSON_ParseWithLengthOpts(dra_buf_str(out), out->len, &end, 0);
	if (root == NULL || !cJSON_IsObject(root)) {
		rc = dra_err_set(err, KUBE_E_EXEC, "exec plugin %s: decoding "
		    "stdout: %s at byte %ld", x->command,
		    root == NULL ? "malformed json" : "not a json object",
		    end != NULL ? (long)(end - dra_buf_str(out)) : 0L);
		goto out;
	}
	av = cJSON_GetObjectItemCaseSensitive(root, "apiVersion");
	kind = cJSON_GetObjectItemCaseSensitive(root, "kind");
	if (!cJSON_IsString(av) || strcmp(av->valuestring,
	    x->api_version) != 0) {
		rc = dra_err_set(err, KUBE_E_EXEC, "exec plugin is configured "
		    "to use API version %s, plugin returned version %s",
		    x->api_version, cJSON_IsString(av) ? av->valuestring :
		    "(none)");
		goto out;
	}
	if (!cJSON_IsString(kind) || strcmp(kind->valuestring,
	    "ExecCredential") != 0) {
		rc = dra_err_set(err, KUBE_E_EXEC, "exec plugin %s: decoding "
		    "stdout: kind is not ExecCredential", x->command);
		goto out;
	}
	status = cJSON_GetObjectItemCaseSensitive(root, "status");
	if (!cJSON_IsObject(status)) {
		rc = dra_err_set(err, KUBE_E_EXEC,
		    "exec plugin didn't return a status field");
		goto out;
	}
	tok = cJSON_GetObjectItemCaseSensitive(status, "token");
	crt = cJSON_GetObjectItemCaseSensitive(status,
	    "clientCertificateData");
	key = cJSON_GetObjectItemCaseSensitive(status, "clientKeyData");
	exp = cJSON_GetObjectItemCaseSensitive(status, "expirationTimestamp");
	if (!cJSON_IsString(tok) || *tok->valuestring == '\0')
		tok = NULL;
	if (!cJSON_IsString(crt) || *crt->valuestring == '\0')
		crt = NULL;
	if (!cJSON_IsString(key) || *key->valuestring == '\0')
		key = NULL;
	if (tok == NULL && crt == NULL && key == NULL) {
		rc = dra_err_set(err, KUBE_E_EXEC,
		    "exec plugin didn't return a token or cert/key pair");
		goto out;
	}
	if ((crt == NULL) != (key == NULL)) {
		rc = dra_err_set(err, KUBE_E_EXEC, "exec plugin returned only "
		    "certificate or key, not both");
		goto out;
	}
	if (cJSON_IsString(exp) && kube_parse_rfc3339(exp->valuestring,
	    &nc.expiry) != 0) {
		rc = dra_err_set(err, KUBE_E_EXEC, "exec plugin %s: decoding "
		    "stdout: bad expirationTimestamp \"%s\"", x->command,
		    exp->valuestring);
		goto out;
	}
	if (tok != NULL)
		nc.token = xstrdup(tok->valuestring);
	if (crt != NULL) {
		nc.cert_len = strlen(crt->valuestring);
		nc.cert = xstrdup(crt->valuestring);
		nc.key_len = strlen(key->valuestring);
		nc.key = xstrdup(key->valuestring);
		explicit_bzero(key->valuestring, nc.key_len);
	}
	if (tok != NULL)
		explicit_bzero(tok->valuestring, strlen(tok->valuestring));
	nc.valid = 1;
	nc.gen = c->exec.gen + 1;
	exec_cred_clear(&c->exec);
	c->exec = nc;
out:
	cJSON_Delete(root);
	return rc;
}

int
kube_exec_run(struct kube_client *c, struct dra_err *err)
{
	struct dra_buf	  out;
	char		**envp, *info;
	size_t		  i;
	int		  interactive, rc;

	if ((rc = exec_interactive(c, &interactive, err)) != KUBE_OK)
		return rc;
	info = kube_exec_info(c, interactive);
	envp = exec_envp(c->cfg.exec, info);
	free(info);
	kube_client_logf(c, 6, "running exec credential plugin %s",
	    c->cfg.exec->command);
	dra_buf_init(&out, KUBE_EXEC_MAX_OUTPUT);
	rc = exec_spawn(c, envp, interactive, &out, err);
	for (i = 0; envp[i] != NULL; i++)
		kube_secret_free(envp[i], strlen(envp[i]));
	free(envp);
	if (rc == KUBE_OK)
		rc = exec_parse(c, &out, err);
	if (out.ptr != NULL)
		explicit_bzero(out.ptr, out.len);
	dra_buf_release(&out);
	return rc;
}

void
kube_auth_free(struct kube_client *c)
{
	exec_cred_clear(&c->exec);
	if (c->file_token != NULL)
		kube_secret_free(c->file_token, strlen(c->file_token));
	c->file_token = NULL;
}
