/*
 * kubeconfig.c: kubeconfig loading, merging, resolution and validation.
 *
 * The steps mirror client-go tools/clientcmd:
 *   1. files (loader.go NewDefaultClientConfigLoadingRules, Load):
 *      --kubeconfig alone, else $KUBECONFIG split on ':' with empty
 *      entries and duplicates dropped, else ~/.kube/config; missing
 *      files skipped;
 *   2. decode each file (api/v1/types.go field names; a duplicate name
 *      inside one file is an error as in api/v1/conversion.go) and
 *      resolve relative paths against the file's directory
 *      (loader.go ResolveLocalPaths, helpers GetAuthInfoFileReferences);
 *   3. merge: the first file that defines a name wins the whole entry,
 *      the first file that sets current-context wins it;
 *   4. pick context, cluster and user and lay the overrides on them
 *      (client_config.go getContext, getAuthInfo, getCluster);
 *   5. in-cluster fallback (merged_client_builder.go, rest/config.go
 *      InClusterConfig);
 *   6. validation (validation.go validateAuthInfo, validateClusterInfo).
 * Everything decoded lives in one arena; the chosen secrets are copied
 * into malloc'd memory so that kube_config_release can wipe them.
 *
 * Where this differs from clientcmd, on purpose:
 *   - a context naming a cluster or user that no file defines is an
 *     error (clientcmd goes on with an empty cluster or anonymously);
 *   - with no usable cluster at all the answer is an error, not
 *     http://localhost:8080;
 *   - string fields accept any scalar (clientcmd refuses "namespace:
 *     123"); booleans must be YAML 1.1 booleans, as there;
 *   - YAML merge keys ("<<") are not expanded;
 *   - auth-provider (gcp, azure, oidc) is refused with a pointer to the
 *     exec plugin that replaces it.
 */
#include "client-int.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cJSON.h>

#include "arena.h"
#include "buf.h"
#include "err.h"
#include "xmalloc.h"

#define EXEC_EXTENSION	"client.authentication.k8s.io/exec"
#define EXEC_V1		"client.authentication.k8s.io/v1"
#define EXEC_V1BETA1	"client.authentication.k8s.io/v1beta1"

struct kc_file {
	const char	*path;		/* as listed */
	const char	*dir;		/* absolute directory of path */
	const char	*current_context; /* NULL when unset or empty */
};

struct kc_cluster {
	const char		*name;
	const struct kc_file	*file;
	unsigned long		 line, col;
	const char		*server;
	const char		*tls_server_name;
	const char		*ca;
	unsigned char		*ca_data;
	size_t			 ca_len;
	const char		*proxy_url;
	int			 insecure;
	int			 disable_compression;
	char			*exec_ext;	/* JSON of the exec extension */
};

struct kc_user {
	const char		*name;
	const struct kc_file	*file;
	unsigned long		 line, col;
	const char		*token;
	const char		*token_file;
	const char		*cert;
	const char		*key;
	unsigned char		*cert_data;
	size_t			 cert_len;
	unsigned char		*key_data;
	size_t			 key_len;
	const char		*username;
	const char		*password;
	const char		*as;
	const char		*as_uid;
	const char		**as_groups;
	size_t			 n_as_groups;
	struct kube_extra	*as_extra;
	size_t			 n_as_extra;
	const char		*auth_provider;	/* its name, or NULL */
	struct kube_exec_config	*exec;
};

struct kc_context {
	const char		*name;
	const struct kc_file	*file;
	const char		*cluster;
	const char		*user;
	const char		*namespace;
};

/* The merged view of all files. */
struct kc_set {
	struct dra_arena	 *a;
	struct kc_file		**files;
	size_t			  nfiles;
	struct kc_cluster	**clusters;
	size_t			  nclusters;
	struct kc_user		**users;
	size_t			  nusers;
	struct kc_context	**contexts;
	size_t			  ncontexts;
	const char		 *current_context;
	const struct kc_file	 *current_context_file;
};

/* Decoding state of one file. */
struct kc_dec {
	struct dra_arena	*a;
	struct kc_file		*file;
	struct dra_err		*err;
};

static char	*path_clean(struct dra_arena *, const char *);
static char	*path_join(struct dra_arena *, const char *, const char *);
static char	*path_dir_abs(struct dra_arena *, const char *);
static const char *path_resolve(struct dra_arena *, const struct kc_file *,
		    const char *);
static int	 read_file(const char *, size_t, struct dra_buf *);
static const char *fld_cat(char *, size_t, const char *, const char *);
static int	 dec_fail(struct kc_dec *, const struct kube_ynode *,
		    const char *, const char *, ...)
		    __attribute__((format(printf, 4, 5)));
static int	 dec_str(struct kc_dec *, const struct kube_ynode *,
		    const char *, const char *, const char **);
static int	 dec_bool(struct kc_dec *, const struct kube_ynode *,
		    const char *, const char *, int *);
static int	 dec_strlist(struct kc_dec *, const struct kube_ynode *,
		    const char *, const char *, const char ***, size_t *);
static int	 dec_b64(struct kc_dec *, const struct kube_ynode *,
		    const char *, const char *, unsigned char **, size_t *);
static int	 dec_seq(struct kc_dec *, const struct kube_ynode *,
		    const char *, const struct kube_ynode **);
static int	 dec_map(struct kc_dec *, const struct kube_ynode *,
		    const char *, const struct kube_ynode **);
static int	 dec_cluster(struct kc_dec *, const struct kube_ynode *,
		    const char *, struct kc_cluster *);
static int	 dec_exec(struct kc_dec *, const struct kube_ynode *,
		    const char *, struct kube_exec_config **);
static int	 dec_user(struct kc_dec *, const struct kube_ynode *,
		    const char *, struct kc_user *);
static int	 dec_context(struct kc_dec *, const struct kube_ynode *,
		    const char *, struct kc_context *);
static int	 dec_file(struct kc_set *, struct kc_file *,
		    const struct kube_ynode *, struct dra_err *);
static int	 load_files(struct kc_set *, const struct kube_client_opts *,
		    struct dra_err *);
static const char *files_list(struct kc_set *);
static struct kc_cluster *find_cluster(struct kc_set *, const char *);
static struct kc_user *find_user(struct kc_set *, const char *);
static struct kc_context *find_context(struct kc_set *, const char *);
static int	 incluster_possible(const char *);
static char	*incluster_namespace(struct dra_arena *, const char *);
static int	 set_server(struct kube_config *, const char *, int,
		    struct dra_err *);
static void	 escape_hint(struct dra_buf *, const char *);
static void	 problemf(struct dra_buf *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
static const char *redact_url(struct dra_arena *, const char *);
static int	 check_proxy(const char *, char *, size_t);
static const char *in_file(struct dra_arena *, const struct kc_file *);
static char	*secret_dup(const void *, size_t);

/*
 * Paths.
 */

/* Lexical clean as Go's filepath.Clean. */
static char *
path_clean(struct dra_arena *a, const char *p)
{
	char	*out, *seg;
	size_t	 n, o = 0, len = strlen(p), i = 0, start;
	int	 rooted = p[0] == '/';
	size_t	 floor;

	out = dra_arena_alloc(a, len + 2);
	if (rooted)
		out[o++] = '/';
	floor = o;
	while (i < len) {
		while (i < len && p[i] == '/')
			i++;
		start = i;
		while (i < len && p[i] != '/')
			i++;
		n = i - start;
		seg = (char *)p + start;
		if (n == 0 || (n == 1 && seg[0] == '.'))
			continue;
		if (n == 2 && seg[0] == '.' && seg[1] == '.') {
			if (o > floor) {
				/* drop the last element */
				while (o > floor && out[o - 1] != '/')
					o--;
				if (o > floor)
					o--;
				continue;
			}
			if (rooted)
				continue;
			/* relative: keep "..", move the floor past it */
			if (o > 0)
				out[o++] = '/';
			out[o++] = '.';
			out[o++] = '.';
			floor = o;
			continue;
		}
		if (o > 0 && out[o - 1] != '/')
			out[o++] = '/';
		memcpy(out + o, seg, n);
		o += n;
	}
	if (o == 0)
		out[o++] = '.';
	out[o] = '\0';
	return out;
}

static char *
path_join(struct dra_arena *a, const char *dir, const char *rel)
{
	char	*tmp, *r;

	tmp = xasprintf("%s/%s", dir, rel);
	r = path_clean(a, tmp);
	free(tmp);
	return r;
}

/* Absolute directory of file path p. */
static char *
path_dir_abs(struct dra_arena *a, const char *p)
{
	char	 cwd[PATH_MAX], *abs, *slash;

	if (p[0] == '/')
		abs = path_clean(a, p);
	else if (getcwd(cwd, sizeof cwd) != NULL)
		abs = path_join(a, cwd, p);
	else
		abs = path_join(a, "/", p);
	abs = dra_arena_strdup(a, abs);
	slash = strrchr(abs, '/');
	if (slash == abs)
		slash[1] = '\0';
	else if (slash != NULL)
		*slash = '\0';
	return abs;
}

static const char *
path_resolve(struct dra_arena *a, const struct kc_file *f, const char *p)
{
	if (p == NULL || *p == '\0' || p[0] == '/')
		return p;
	return path_join(a, f->dir, p);
}

/*
 * Read at most max bytes of path into b.  Returns 0 or an errno value
 * (EFBIG when larger than max).
 */
static int
read_file(const char *path, size_t max, struct dra_buf *b)
{
	int	fd, e;

	dra_buf_init(b, max);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd == -1)
		return errno;
	e = dra_buf_read_fd(b, fd);
	close(fd);
	return e;
}

/*
 * Decoding.  Every error names FILE:LINE:COL and the field.
 */

/* "a.b" into buf (truncated to len), for field names in messages. */
static const char *
fld_cat(char *buf, size_t len, const char *a, const char *b)
{
	if (snprintf(buf, len, "%s.%s", a, b) < 0)
		buf[0] = '\0';
	return buf;
}
static int
dec_fail(struct kc_dec *d, const struct kube_ynode *n, const char *field,
    const char *fmt, ...)
{
	char	msg[512];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (n != NULL)
		return dra_err_set(d->err, KUBE_E_CONFIG, "%s:%lu:%lu: %s: %s",
		    d->file->path, n->line, n->col, field, msg);
	return dra_err_set(d->err, KUBE_E_CONFIG, "%s: %s: %s",
	    d->file->path, field, msg);
}

/* A string field: absent or null leaves *out NULL. */
static int
dec_str(struct kc_dec *d, const struct kube_ynode *m, const char *key,
    const char *field, const char **out)
{
	const struct kube_ynode	*n;

	n = kube_ynode_get(m, key);
	if (kube_ynode_is_null(n))
		return KUBE_OK;
	if (n->type != KUBE_Y_SCALAR)
		return dec_fail(d, n, field, "expected a string");
	*out = n->str;
	return KUBE_OK;
}

static int
dec_bool(struct kc_dec *d, const struct kube_ynode *m, const char *key,
    const char *field, int *out)
{
	const struct kube_ynode	*n;
	cJSON			*j;
	int			 rc = KUBE_OK;

	n = kube_ynode_get(m, key);
	if (kube_ynode_is_null(n))
		return KUBE_OK;
	j = kube_ynode_to_json(n);
	if (cJSON_IsBool(j))
		*out = cJSON_IsTrue(j);
	else
		rc = dec_fail(d, n, field, "expected true or false");
	cJSON_Delete(j);
	return rc;
}

static int
dec_seq(struct kc_dec *d, const struct kube_ynode *n, const char *field,
    const struct kube_ynode **out)
{
	*out = NULL;
	if (kube_ynode_is_null(n))
		return KUBE_OK;
	if (n->type != KUBE_Y_SEQ)
		return dec_fail(d, n, field, "expected a list");
	*out = n;
	return KUBE_OK;
}

static int
dec_map(struct kc_dec *d, const struct kube_ynode *n, const char *field,
    const struct kube_ynode **out)
{
	*out = NULL;
	if (kube_ynode_is_null(n))
		return KUBE_OK;
	if (n->type != KUBE_Y_MAP)
		return dec_fail(d, n, field, "expected a mapping");
	*out = n;
	return KUBE_OK;
}

static int
dec_strlist(struct kc_dec *d, const struct kube_ynode *m, const char *key,
    const char *field, const char ***out, size_t *nout)
{
	const struct kube_ynode	*seq;
	size_t			 i;
	int			 rc;

	*out = NULL;
	*nout = 0;
	if ((rc = dec_seq(d, kube_ynode_get(m, key), field, &seq)) !=
	    KUBE_OK || seq == NULL)
		return rc;
	*out = dra_arena_calloc(d->a, seq->n + 1, sizeof **out);
	for (i = 0; i < seq->n; i++) {
		if (seq->kids[i]->type != KUBE_Y_SCALAR)
			return dec_fail(d, seq->kids[i], field,
			    "item %zu: expected a string", i);
		(*out)[i] = kube_ynode_is_null(seq->kids[i]) ? "" :
		    seq->kids[i]->str;
	}
	*nout = seq->n;
	return KUBE_OK;
}

/* A []byte field: base64 in the file, decoded into the arena. */
static int
dec_b64(struct kc_dec *d, const struct kube_ynode *m, const char *key,
    const char *field, unsigned char **out, size_t *len)
{
	const char	*s = NULL;
	unsigned char	*raw;
	size_t		 n;
	int		 rc;

	if ((rc = dec_str(d, m, key, field, &s)) != KUBE_OK || s == NULL ||
	    *s == '\0')
		return rc;
	if (kube_base64_decode(s, strlen(s), &raw, &n) != 0)
		return dec_fail(d, kube_ynode_get(m, key), field,
		    "illegal base64 data");
	*out = dra_arena_alloc(d->a, n + 1);
	memcpy(*out, raw, n);
	(*out)[n] = '\0';
	*len = n;
	kube_secret_free(raw, n);
	return KUBE_OK;
}

static int
dec_cluster(struct kc_dec *d, const struct kube_ynode *m, const char *f,
    struct kc_cluster *c)
{
	const struct kube_ynode	*exts, *e;
	const char		*name;
	char			 fld[256];
	size_t			 i;
	cJSON			*j;
	int			 rc = KUBE_OK;

#define FLD(k) fld_cat(fld, sizeof fld, f, k)
	if (rc == KUBE_OK)
		rc = dec_str(d, m, "server", FLD("server"), &c->server);
	if (rc == KUBE_OK)
		rc = dec_str(d, m, "tls-server-name", FLD("tls-server-name"),
		    &c->tls_server_name);
	if (rc == KUBE_OK)
		rc = dec_bool(d, m, "insecure-skip-tls-verify",
		    FLD("insecure-skip-tls-verify"), &c->insecure);
	if (rc == KUBE_OK)
		rc = dec_str(d, m, "certificate-authority",
		    FLD("certificate-authority"), &c->ca);
	if (rc == KUBE_OK)
		rc = dec_b64(d, m, "certificate-authority-data",
		    FLD("certificate-authority-data"), &c->ca_data,
		    &c->ca_len);
	if (rc == KUBE_OK)
		rc = dec_str(d, m, "proxy-url", FLD("proxy-url"),
		    &c->proxy_url);
	if (rc == KUBE_OK)
		rc = dec_bool(d, m, "disable-compression",
		    FLD("disable-compression"), &c->disable_compression);
	if (rc == KUBE_OK)
		rc = dec_seq(d, kube_ynode_get(m, "extensions"),
		    FLD("extensions"), &exts);
	for (i = 0; rc == KUBE_OK && exts != NULL && i < exts->n; i++) {
		e = exts->kids[i];
		name = NULL;
		if (snprintf(fld, sizeof fld, "%s.extensions[%zu].name", f,
		    i) < 0)
			fld[0] = '\0';
		if (e->type != KUBE_Y_MAP)
			rc = dec_fail(d, e, fld, "expected a mapping");
		else
			rc = dec_str(d, e, "name", fld, &name);
		if (rc != KUBE_OK || name == NULL ||
		    strcmp(name, EXEC_EXTENSION) != 0)
			continue;
		j = kube_ynode_to_json(kube_ynode_get(e, "extension"));
		c->exec_ext = dra_arena_strdup(d->a, "null");
		if (j != NULL) {
			char *s = cJSON_PrintUnformatted(j);

			if (s != NULL)
				c->exec_ext = dra_arena_strdup(d->a, s);
			free(s);
			cJSON_Delete(j);
		}
	}
	if (rc == KUBE_OK) {
		c->ca = path_resolve(d->a, d->file, c->ca);
		if (c->server != NULL)
			c->server = dra_arena_strdup(d->a, c->server);
	}
#undef FLD
	return rc;
}

static int
dec_exec(struct kc_dec *d, const struct kube_ynode *m, const char *f,
    struct kube_exec_config **out)
{
	struct kube_exec_config	*x;
	const struct kube_ynode	*env, *e;
	struct dra_buf		 hint;
	const char		*s = NULL;
	char			 fld[256];
	size_t			 i;
	int			 rc = KUBE_OK;

#define FLD(k) fld_cat(fld, sizeof fld, f, k)
	x = dra_arena_alloc(d->a, sizeof *x);
	if (rc == KUBE_OK)
		rc = dec_str(d, m, "command", FLD("command"), &x->command);
	if (rc == KUBE_OK)
		rc = dec_strlist(d, m, "args", FLD("args"), &x->args,
		    &x->nargs);
	if (rc == KUBE_OK)
		rc = dec_str(d, m, "apiVersion", FLD("apiVersion"),
		    &x->api_version);
	if (rc == KUBE_OK)
		rc = dec_str(d, m, "installHint", FLD("installHint"), &s);
	if (rc == KUBE_OK && s != NULL) {
		dra_buf_init(&hint, DRA_BUF_MAX_SMALL);
		escape_hint(&hint, s);
		x->install_hint = dra_arena_strdup(d->a, dra_buf_str(&hint));
		dra_buf_release(&hint);
	}
	if (rc == KUBE_OK)
		rc = dec_bool(d, m, "provideClusterInfo",
		    FLD("provideClusterInfo"), &x->provide_cluster_info);
	if (rc == KUBE_OK)
		rc = dec_str(d, m, "interactiveMode", FLD("interactiveMode"),
		    &x->interactive_mode);
	if (rc == KUBE_OK)
		rc = dec_seq(d, kube_ynode_get(m, "env"), FLD("env"), &env);
	if (rc == KUBE_OK && env != NULL) {
		x->env = dra_arena_calloc(d->a, env->n + 1, sizeof *x->env);
		for (i = 0; rc == KUBE_OK && i < env->n; i++) {
			e = env->kids[i];
			if (snprintf(fld, sizeof fld, "%s.env[%zu]", f, i) < 0)
				fld[0] = '\0';
			if (e->type != KUBE_Y_MAP) {
				rc = dec_fail(d, e, fld, "expected a mapping");
				break;
			}
			x->env[i].name = "";
			x->env[i].value = "";
			rc = dec_str(d, e, "name", fld, &x->env[i].name);
			if (rc == KUBE_OK)
				rc = dec_str(d, e, "value", fld,
				    &x->env[i].value);
			if (x->env[i].name == NULL)
				x->env[i].name = "";
			if (x->env[i].value == NULL)
				x->env[i].value = "";
		}
		x->nenv = env->n;
	}
	/* api/v1/defaults.go SetDefaults_ExecConfig */
	if (rc == KUBE_OK && (x->interactive_mode == NULL ||
	    *x->interactive_mode == '\0') && x->api_version != NULL &&
	    (strcmp(x->api_version, EXEC_V1BETA1) == 0 ||
	    strcmp(x->api_version,
	    "client.authentication.k8s.io/v1alpha1") == 0))
		x->interactive_mode = "IfAvailable";
	/* helpers.go GetAuthInfoFileReferences: only commands with a '/' */
	if (rc == KUBE_OK && x->command != NULL &&
	    strchr(x->command, '/') != NULL)
		x->command = path_resolve(d->a, d->file, x->command);
	*out = x;
#undef FLD
	return rc;
}

static int
dec_user(struct kc_dec *d, const struct kube_ynode *m, const char *f,
    struct kc_user *u)
{
	const struct kube_ynode	*extra, *ap, *ex;
	char			 fld[256];
	size_t			 i, n;
	int			 rc = KUBE_OK;

#define FLD(k) fld_cat(fld, sizeof fld, f, k)
	if (rc == KUBE_OK)
		rc = dec_str(d, m, "client-certificate",
		    FLD("client-certificate"), &u->cert);
	if (rc == KUBE_OK)
		rc = dec_b64(d, m, "client-certificate-data",
		    FLD("client-certificate-data"), &u->cert_data,
		    &u->cert_len);
	if (rc == KUBE_OK)
		rc = dec_str(d, m, "client-key", FLD("client-key"), &u->key);
	if (rc == KUBE_OK)
		rc = dec_b64(d, m, "client-key-data", FLD("client-key-data"),
		    &u->key_data, &u->key_len);
	if (rc == KUBE_OK)
		rc = dec_str(d, m, "token", FLD("token"), &u->token);
	if (rc == KUBE_OK)
		rc = dec_str(d, m, "tokenFile", FLD("tokenFile"),
		    &u->token_file);
	if (rc == KUBE_OK)
		rc = dec_str(d, m, "as", FLD("as"), &u->as);
	if (rc == KUBE_OK)
		rc = dec_str(d, m, "as-uid", FLD("as-uid"), &u->as_uid);
	if (rc == KUBE_OK)
		rc = dec_strlist(d, m, "as-groups", FLD("as-groups"),
		    &u->as_groups, &u->n_as_groups);
	if (rc == KUBE_OK)
		rc = dec_map(d, kube_ynode_get(m, "as-user-extra"),
		    FLD("as-user-extra"), &extra);
	if (rc == KUBE_OK && extra != NULL) {
		u->as_extra = dra_arena_calloc(d->a, extra->n / 2 + 1,
		    sizeof *u->as_extra);
		for (i = 0; rc == KUBE_OK && i + 1 < extra->n; i += 2) {
			struct kube_extra *x = &u->as_extra[u->n_as_extra];

			if (extra->kids[i]->type != KUBE_Y_SCALAR)
				continue;
			x->key = extra->kids[i]->str;
			fld_cat(fld, sizeof fld, f, "as-user-extra");
			n = strlen(fld);
			if (snprintf(fld + n, sizeof fld - n, ".%s",
			    x->key) < 0)
				fld[0] = '\0';
			rc = dec_strlist(d, extra, x->key, fld, &x->values,
			    &x->n);
			u->n_as_extra++;
		}
	}
	if (rc == KUBE_OK)
		rc = dec_str(d, m, "username", FLD("username"), &u->username);
	if (rc == KUBE_OK)
		rc = dec_str(d, m, "password", FLD("password"), &u->password);
	if (rc == KUBE_OK)
		rc = dec_map(d, kube_ynode_get(m, "auth-provider"),
		    FLD("auth-provider"), &ap);
	if (rc == KUBE_OK && ap != NULL) {
		u->auth_provider = "";
		rc = dec_str(d, ap, "name", FLD("auth-provider.name"),
		    &u->auth_provider);
		if (u->auth_provider == NULL)
			u->auth_provider = "";
	}
	if (rc == KUBE_OK)
		rc = dec_map(d, kube_ynode_get(m, "exec"), FLD("exec"), &ex);
	if (rc == KUBE_OK && ex != NULL)
		rc = dec_exec(d, ex, FLD("exec"), &u->exec);
	if (rc == KUBE_OK) {
		u->cert = path_resolve(d->a, d->file, u->cert);
		u->key = path_resolve(d->a, d->file, u->key);
		u->token_file = path_resolve(d->a, d->file, u->token_file);
	}
#undef FLD
	return rc;
}

static int
dec_context(struct kc_dec *d, const struct kube_ynode *m, const char *f,
    struct kc_context *c)
{
	char	fld[256];
	int	rc = KUBE_OK;

#define FLD(k) fld_cat(fld, sizeof fld, f, k)
	if (rc == KUBE_OK)
		rc = dec_str(d, m, "cluster", FLD("cluster"), &c->cluster);
	if (rc == KUBE_OK)
		rc = dec_str(d, m, "user", FLD("user"), &c->user);
	if (rc == KUBE_OK)
		rc = dec_str(d, m, "namespace", FLD("namespace"),
		    &c->namespace);
#undef FLD
	return rc;
}

/*
 * Decode one file's document and merge it into s: entries whose name
 * s already has are dropped whole (first file wins).
 */
static int
dec_file(struct kc_set *s, struct kc_file *file,
    const struct kube_ynode *root, struct dra_err *err)
{
	static const char *const lists[] = { "clusters", "users", "contexts" };
	static const char *const inner[] = { "cluster", "user", "context" };
	struct kc_dec		 d = { s->a, file, err };
	const struct kube_ynode	*seq, *e, *body;
	const char		*str = NULL, *name;
	char			 fld[128];
	size_t			 i, j, k, first;
	int			 rc = KUBE_OK;
	void			*ent;

	if (root == NULL)
		return KUBE_OK;
	if (root->type != KUBE_Y_MAP)
		return dec_fail(&d, root, "kubeconfig",
		    "expected a mapping with clusters, users and contexts");
	if ((rc = dec_str(&d, root, "apiVersion", "apiVersion", &str)) !=
	    KUBE_OK)
		return rc;
	if (str != NULL && *str != '\0' && strcmp(str, "v1") != 0)
		return dec_fail(&d, kube_ynode_get(root, "apiVersion"),
		    "apiVersion", "unsupported version \"%s\" (want v1)", str);
	str = NULL;
	if ((rc = dec_str(&d, root, "kind", "kind", &str)) != KUBE_OK)
		return rc;
	if (str != NULL && *str != '\0' && strcmp(str, "Config") != 0)
		return dec_fail(&d, kube_ynode_get(root, "kind"), "kind",
		    "unsupported kind \"%s\" (want Config)", str);
	str = NULL;
	if ((rc = dec_str(&d, root, "current-context", "current-context",
	    &str)) != KUBE_OK)
		return rc;
	if (str != NULL && *str != '\0')
		file->current_context = str;

	for (k = 0; k < 3 && rc == KUBE_OK; k++) {
		rc = dec_seq(&d, kube_ynode_get(root, lists[k]), lists[k],
		    &seq);
		if (rc != KUBE_OK || seq == NULL)
			continue;
		first = k == 0 ? s->nclusters : k == 1 ? s->nusers :
		    s->ncontexts;
		for (i = 0; rc == KUBE_OK && i < seq->n; i++) {
			e = seq->kids[i];
			snprintf(fld, sizeof fld, "%s[%zu]", lists[k], i);
			if (e->type != KUBE_Y_MAP) {
				rc = dec_fail(&d, e, fld, "expected a mapping");
				break;
			}
			name = NULL;
			snprintf(fld, sizeof fld, "%s[%zu].name", lists[k], i);
			if ((rc = dec_str(&d, e, "name", fld, &name)) !=
			    KUBE_OK)
				break;
			if (name == NULL)
				name = "";
			snprintf(fld, sizeof fld, "%s[%zu].%s", lists[k], i,
			    inner[k]);
			if ((rc = dec_map(&d, kube_ynode_get(e, inner[k]), fld,
			    &body)) != KUBE_OK)
				break;
			/* api/v1/conversion.go: a name twice in one file */
			for (j = first; j < (k == 0 ? s->nclusters : k == 1 ?
			    s->nusers : s->ncontexts); j++) {
				const char *other = k == 0 ?
				    s->clusters[j]->name : k == 1 ?
				    s->users[j]->name : s->contexts[j]->name;

				if (strcmp(other, name) == 0)
					return dec_fail(&d, e, fld,
					    "duplicate name \"%s\" in %s",
					    name, lists[k]);
			}
			if (k == 0) {
				struct kc_cluster *c;

				c = dra_arena_alloc(s->a, sizeof *c);
				c->name = name;
				c->file = file;
				c->line = e->line;
				c->col = e->col;
				if (body != NULL)
					rc = dec_cluster(&d, body, fld, c);
				ent = c;
			} else if (k == 1) {
				struct kc_user *u;

				u = dra_arena_alloc(s->a, sizeof *u);
				u->name = name;
				u->file = file;
				u->line = e->line;
				u->col = e->col;
				if (body != NULL)
					rc = dec_user(&d, body, fld, u);
				ent = u;
			} else {
				struct kc_context *c;

				c = dra_arena_alloc(s->a, sizeof *c);
				c->name = name;
				c->file = file;
				if (body != NULL)
					rc = dec_context(&d, body, fld, c);
				ent = c;
			}
			if (rc != KUBE_OK)
				break;
			if (k == 0) {
				s->clusters = xreallocarray(s->clusters,
				    s->nclusters + 1, sizeof *s->clusters);
				s->clusters[s->nclusters++] = ent;
			} else if (k == 1) {
				s->users = xreallocarray(s->users,
				    s->nusers + 1, sizeof *s->users);
				s->users[s->nusers++] = ent;
			} else {
				s->contexts = xreallocarray(s->contexts,
				    s->ncontexts + 1, sizeof *s->contexts);
				s->contexts[s->ncontexts++] = ent;
			}
		}
	}
	return rc;
}

/* First entry of that name (first file wins, loader.go). */
static struct kc_cluster *
find_cluster(struct kc_set *s, const char *name)
{
	size_t	i;

	for (i = 0; i < s->nclusters; i++)
		if (strcmp(s->clusters[i]->name, name) == 0)
			return s->clusters[i];
	return NULL;
}

static struct kc_user *
find_user(struct kc_set *s, const char *name)
{
	size_t	i;

	for (i = 0; i < s->nusers; i++)
		if (strcmp(s->users[i]->name, name) == 0)
			return s->users[i];
	return NULL;
}

static struct kc_context *
find_context(struct kc_set *s, const char *name)
{
	size_t	i;

	for (i = 0; i < s->ncontexts; i++)
		if (strcmp(s->contexts[i]->name, name) == 0)
			return s->contexts[i];
	return NULL;
}

/* "a, b" of the loaded files, or "no kubeconfig file". */
static const char *
files_list(struct kc_set *s)
{
	struct dra_buf	b;
	const char	*r;
	size_t		i;

	if (s->nfiles == 0)
		return "no kubeconfig file";
	dra_buf_init(&b, DRA_BUF_MAX_SMALL);
	for (i = 0; i < s->nfiles; i++)
		dra_buf_addf(&b, "%s%s", i > 0 ? ", " : "", s->files[i]->path);
	r = dra_arena_strdup(s->a, dra_buf_str(&b));
	dra_buf_release(&b);
	return r;
}

/*
 * loader.go Load: read every file of the precedence list that exists.
 */
static int
load_files(struct kc_set *s, const struct kube_client_opts *opts,
    struct dra_err *err)
{
	const char		**list = NULL;
	size_t			  nlist = 0, i, j;
	struct dra_buf		  missing, data;
	const char		 *env, *home;
	char			 *copy, *p, *q;
	struct kube_ynode	 *root;
	struct kc_file		 *f;
	struct passwd		 *pw;
	struct stat		  st;
	int			  rc = KUBE_OK, e, warn_all = 0, dup;

	dra_buf_init(&missing, DRA_BUF_MAX_SMALL);
	if (opts->kubeconfig != NULL && *opts->kubeconfig != '\0') {
		if (stat(opts->kubeconfig, &st) == -1 && errno == ENOENT)
			return dra_err_set(err, KUBE_E_CONFIG,
			    "cannot read kubeconfig \"%s\": %s",
			    opts->kubeconfig, strerror(ENOENT));
		list = xcalloc(1, sizeof *list);
		list[nlist++] = opts->kubeconfig;
	} else if ((env = getenv("KUBECONFIG")) != NULL && *env != '\0') {
		warn_all = 1;
		copy = dra_arena_strdup(s->a, env);
		list = xcalloc(strlen(env) + 1, sizeof *list);
		for (p = copy; p != NULL; p = q) {
			q = strchr(p, ':');
			if (q != NULL)
				*q++ = '\0';
			if (*p == '\0')
				continue;
			for (dup = 0, j = 0; j < nlist; j++)
				if (strcmp(list[j], p) == 0)
					dup = 1;
			if (!dup)
				list[nlist++] = p;
		}
	} else {
		home = getenv("HOME");
		if ((home == NULL || *home == '\0') &&
		    (pw = getpwuid(getuid())) != NULL)
			home = pw->pw_dir;
		if (home == NULL)
			home = "/";
		list = xcalloc(1, sizeof *list);
		list[nlist++] = path_join(s->a, home, ".kube/config");
	}

	for (i = 0; rc == KUBE_OK && i < nlist; i++) {
		e = read_file(list[i], KUBE_CONFIG_MAX_FILE, &data);
		if (e == ENOENT) {
			dra_buf_addf(&missing, "%s%s", missing.len ? ", " : "",
			    list[i]);
			continue;
		}
		if (e != 0) {
			rc = dra_err_set(err, e == EFBIG ? KUBE_E_TOOBIG :
			    KUBE_E_IO, "error loading config file \"%s\": %s",
			    list[i], e == EFBIG ? "file too large" :
			    strerror(e));
			break;
		}
		f = dra_arena_alloc(s->a, sizeof *f);
		f->path = dra_arena_strdup(s->a, list[i]);
		f->dir = path_dir_abs(s->a, list[i]);
		rc = kube_yaml_load(f->path, dra_buf_str(&data), data.len, 0,
		    NULL, KUBE_E_CONFIG,
		    s->a, &root, err);
		if (rc == KUBE_OK)
			rc = dec_file(s, f, root, err);
		if (data.ptr != NULL)
			explicit_bzero(data.ptr, data.len);
		dra_buf_release(&data);
		if (rc != KUBE_OK)
			break;
		s->files = xreallocarray(s->files, s->nfiles + 1,
		    sizeof *s->files);
		s->files[s->nfiles++] = f;
		if (s->current_context == NULL && f->current_context != NULL) {
			s->current_context = f->current_context;
			s->current_context_file = f;
		}
	}
	if (rc == KUBE_OK && warn_all && s->nfiles == 0 && missing.len > 0 &&
	    opts->warn != NULL) {
		char *msg = xasprintf("config not found: %s",
		    dra_buf_str(&missing));

		opts->warn(opts->warn_arg, msg);
		free(msg);
	}
	dra_buf_release(&missing);
	free(list);
	return rc;
}

/*
 * In-cluster (rest/config.go InClusterConfig,
 * client_config.go inClusterClientConfig.Possible).
 */
static int
incluster_possible(const char *dir)
{
	struct stat	 st;
	char		*tok;
	const char	*h, *p;
	int		 ok;

	h = getenv("KUBERNETES_SERVICE_HOST");
	p = getenv("KUBERNETES_SERVICE_PORT");
	if (h == NULL || *h == '\0' || p == NULL || *p == '\0')
		return 0;
	tok = xasprintf("%s/token", dir);
	ok = stat(tok, &st) == 0 && !S_ISDIR(st.st_mode);
	free(tok);
	return ok;
}

static char *
incluster_namespace(struct dra_arena *a, const char *dir)
{
	struct dra_buf	 b;
	const char	*env;
	char		*path, *ns = NULL, *s, *end;

	env = getenv("POD_NAMESPACE");
	if (env != NULL && *env != '\0')
		return dra_arena_strdup(a, env);
	path = xasprintf("%s/namespace", dir);
	if (read_file(path, DRA_BUF_MAX_SMALL, &b) == 0) {
		s = b.ptr != NULL ? b.ptr : (char *)"";
		while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
			s++;
		end = s + strlen(s);
		while (end > s && (end[-1] == ' ' || end[-1] == '\t' ||
		    end[-1] == '\n' || end[-1] == '\r'))
			*--end = '\0';
		if (*s != '\0')
			ns = dra_arena_strdup(a, s);
		dra_buf_release(&b);
	}
	free(path);
	return ns != NULL ? ns : dra_arena_strdup(a, "default");
}

/*
 * Split the server URL (rest/url_utils.go DefaultServerURL): a bare
 * host:port gets https:// when TLS is implied (CA, client cert or
 * insecure), else http://; a path is kept as a prefix; query and
 * fragment are dropped.
 */
static int
set_server(struct kube_config *cfg, const char *server, int default_tls,
    struct dra_err *err)
{
	struct dra_arena	*a = &cfg->arena;
	const char		*p, *auth, *end, *at, *rest;
	char			*host, *prefix, *colon, *url;
	long			 port = 0;
	size_t			 n;
	int			 v6;

	p = strstr(server, "://");
	if (p != NULL) {
		cfg->scheme = dra_arena_strndup(a, server,
		    (size_t)(p - server));
		auth = p + 3;
	} else {
		cfg->scheme = dra_arena_strdup(a, default_tls ? "https" :
		    "http");
		auth = server;
	}
	for (n = 0; cfg->scheme[n] != '\0'; n++)
		((char *)cfg->scheme)[n] = (char)(cfg->scheme[n] | 0x20);
	if (strcmp(cfg->scheme, "http") != 0 &&
	    strcmp(cfg->scheme, "https") != 0)
		return dra_err_set(err, KUBE_E_CONFIG,
		    "invalid server \"%s\": unsupported scheme \"%s\"",
		    redact_url(a, server), cfg->scheme);
	end = auth + strcspn(auth, "/?#");
	at = memchr(auth, '@', (size_t)(end - auth));
	if (at != NULL)
		auth = at + 1;	/* user info is never used */
	if (end == auth)
		return dra_err_set(err, KUBE_E_CONFIG,
		    "invalid server \"%s\": no host", redact_url(a, server));
	host = dra_arena_strndup(a, auth, (size_t)(end - auth));
	if (host[0] == '[') {
		colon = strchr(host, ']');
		if (colon == NULL)
			return dra_err_set(err, KUBE_E_CONFIG,
			    "invalid server \"%s\": unclosed '['",
			    redact_url(a, server));
		*colon++ = '\0';
		if (*colon == ':')
			port = strtol(colon + 1, NULL, 10);
		else if (*colon != '\0')
			return dra_err_set(err, KUBE_E_CONFIG,
			    "invalid server \"%s\"", redact_url(a, server));
		host++;
	} else if ((colon = strrchr(host, ':')) != NULL) {
		*colon = '\0';
		port = strtol(colon + 1, &colon, 10);
		if (*colon != '\0')
			return dra_err_set(err, KUBE_E_CONFIG,
			    "invalid server \"%s\": bad port",
			    redact_url(a, server));
	}
	if (port < 0 || port > 65535)
		return dra_err_set(err, KUBE_E_CONFIG,
		    "invalid server \"%s\": bad port", redact_url(a, server));
	if (port == 0)
		port = strcmp(cfg->scheme, "https") == 0 ? 443 : 80;
	cfg->host = host;
	cfg->port = (int)port;
	rest = end;
	n = strcspn(rest, "?#");
	prefix = dra_arena_strndup(a, rest, n);
	while (n > 0 && prefix[n - 1] == '/')
		prefix[--n] = '\0';
	v6 = strchr(host, ':') != NULL;
	url = xasprintf("%s://%s%s%s:%d%s", cfg->scheme, v6 ? "[" : "", host,
	    v6 ? "]" : "", cfg->port, prefix);
	cfg->server = dra_arena_strdup(a, url);
	free(url);
	return KUBE_OK;
}

/* A URL with any user:password@ replaced, for messages. */
static const char *
redact_url(struct dra_arena *a, const char *u)
{
	const char	*p, *at, *end;
	char		*s, *r;

	p = strstr(u, "://");
	p = p != NULL ? p + 3 : u;
	end = p + strcspn(p, "/?#");
	at = memchr(p, '@', (size_t)(end - p));
	if (at == NULL)
		return u;
	s = xasprintf("%.*s<redacted>%s", (int)(p - u), u, at);
	r = dra_arena_strdup(a, s);
	free(s);
	return r;
}

/* helpers.go parseProxyURL */
static int
check_proxy(const char *u, char *why, size_t len)
{
	const char	*p;
	size_t		 n;

	p = strstr(u, "://");
	n = p != NULL ? (size_t)(p - u) : 0;
	if ((n == 4 && strncmp(u, "http", 4) == 0) ||
	    (n == 5 && strncmp(u, "https", 5) == 0) ||
	    (n == 6 && strncmp(u, "socks5", 6) == 0))
		return 0;
	snprintf(why, len, "unsupported scheme \"%.*s\", must be http, "
	    "https, or socks5", (int)n, u);
	return -1;
}

/* client_config.go cleanANSIEscapeCodes: control characters as U+XXXX. */
static void
escape_hint(struct dra_buf *b, const char *s)
{
	const unsigned char	*p;

	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if ((*p < 0x20 && (*p < 0x09 || *p > 0x0d)) || *p == 0x7f)
			dra_buf_addf(b, "U+%04X", *p);
		else
			dra_buf_add(b, p, 1);
	}
}

static void
problemf(struct dra_buf *b, const char *fmt, ...)
{
	va_list	ap;

	if (b->len > 0)
		dra_buf_adds(b, "; ");
	va_start(ap, fmt);
	dra_buf_vaddf(b, fmt, ap);
	va_end(ap);
}

/* " (in FILE)" for messages. */
static const char *
in_file(struct dra_arena *a, const struct kc_file *f)
{
	char		*s;
	const char	*r;

	s = xasprintf(" (in %s)", f->path);
	r = dra_arena_strdup(a, s);
	free(s);
	return r;
}

static char *
secret_dup(const void *p, size_t len)
{
	char	*s;

	s = xmalloc(len + 1);
	memcpy(s, p, len);
	s[len] = '\0';
	return s;
}

int
kube_config_load(const struct kube_client_opts *opts,
    struct kube_config *cfg, struct dra_err *err)
{
	struct kc_set		 s;
	struct kc_context	*ctx = NULL;
	struct kc_cluster	 cl, *clp = NULL;
	struct kc_user		 us, *usp = NULL;
	struct dra_buf		 probs, tok;
	struct dra_arena	*a = &cfg->arena;
	const char		*ctx_name, *cl_name, *us_name, *icdir, *master;
	const char		*where, *cl_where = "", *us_where = "";
	char			 why[256];
	size_t			 i;
	int			 rc = KUBE_OK, e, default_tls, cert, empty;

	memset(cfg, 0, sizeof *cfg);
	dra_arena_init(a);
	memset(&s, 0, sizeof s);
	s.a = a;
	dra_buf_init(&probs, DRA_BUF_MAX_SMALL);
	memset(&cl, 0, sizeof cl);
	memset(&us, 0, sizeof us);

	cfg->request_timeout_ms = opts->request_timeout_ms;
	cfg->connect_timeout_ms = opts->connect_timeout_ms > 0 ?
	    opts->connect_timeout_ms : KUBE_CONNECT_TIMEOUT_MS;
	cfg->chunk_size = opts->chunk_size > 0 ? opts->chunk_size :
	    KUBE_CHUNK_SIZE;
	icdir = opts->incluster_dir != NULL ? opts->incluster_dir :
	    KUBE_INCLUSTER_DIR;

	if ((rc = load_files(&s, opts, err)) != KUBE_OK)
		goto out;
	cfg->files = dra_arena_calloc(a, s.nfiles + 1, sizeof *cfg->files);
	for (i = 0; i < s.nfiles; i++)
		cfg->files[i] = s.files[i]->path;
	cfg->nfiles = s.nfiles;
	where = files_list(&s);
	/* context names, first file first, each once (loader.go) */
	cfg->contexts = dra_arena_calloc(a, s.ncontexts + 1,
	    sizeof *cfg->contexts);
	for (i = 0; i < s.ncontexts; i++) {
		if (find_context(&s, s.contexts[i]->name) == s.contexts[i])
			cfg->contexts[cfg->ncontexts++] = s.contexts[i]->name;
	}

	/* client_config.go getContextName, getContext */
	ctx_name = opts->context != NULL && *opts->context != '\0' ?
	    opts->context : s.current_context != NULL ? s.current_context : "";
	if (*ctx_name != '\0' && (ctx = find_context(&s, ctx_name)) == NULL) {
		if (opts->context != NULL && *opts->context != '\0')
			rc = dra_err_set(err, KUBE_E_CONFIG,
			    "context \"%s\" does not exist in %s", ctx_name,
			    where);
		else
			rc = dra_err_set(err, KUBE_E_CONFIG,
			    "context \"%s\" (current-context in %s) does not "
			    "exist in %s", ctx_name,
			    s.current_context_file->path, where);
		goto out;
	}
	cl_name = opts->cluster != NULL && *opts->cluster != '\0' ?
	    opts->cluster : ctx != NULL && ctx->cluster != NULL ?
	    ctx->cluster : "";
	us_name = opts->user != NULL && *opts->user != '\0' ? opts->user :
	    ctx != NULL && ctx->user != NULL ? ctx->user : "";
	if (*cl_name != '\0' && (clp = find_cluster(&s, cl_name)) == NULL) {
		if (opts->cluster != NULL && *opts->cluster != '\0')
			rc = dra_err_set(err, KUBE_E_CONFIG,
			    "cluster \"%s\" does not exist in %s", cl_name,
			    where);
		else
			rc = dra_err_set(err, KUBE_E_CONFIG,
			    "cluster \"%s\" of context \"%s\" (in %s) does not "
			    "exist in %s", cl_name, ctx_name, ctx->file->path,
			    where);
		goto out;
	}
	if (*us_name != '\0' && (usp = find_user(&s, us_name)) == NULL) {
		if (opts->user != NULL && *opts->user != '\0')
			rc = dra_err_set(err, KUBE_E_CONFIG,
			    "user \"%s\" does not exist in %s", us_name, where);
		else
			rc = dra_err_set(err, KUBE_E_CONFIG,
			    "user \"%s\" of context \"%s\" (in %s) does not "
			    "exist in %s", us_name, ctx_name, ctx->file->path,
			    where);
		goto out;
	}
	if (clp != NULL) {
		cl = *clp;
		cl_where = in_file(a, clp->file);
	}
	if (usp != NULL) {
		us = *usp;
		us_where = in_file(a, usp->file);
	}

	/* getCluster: overrides on top of the file's cluster */
	if (opts->server != NULL && *opts->server != '\0')
		cl.server = opts->server;
	if (opts->insecure_skip_tls_verify ||
	    (opts->certificate_authority != NULL &&
	    *opts->certificate_authority != '\0')) {
		cl.insecure = opts->insecure_skip_tls_verify;
		cl.ca = opts->certificate_authority != NULL &&
		    *opts->certificate_authority != '\0' ?
		    opts->certificate_authority : NULL;
		cl.ca_data = NULL;
		cl.ca_len = 0;
	}
	if ((opts->tls_server_name != NULL && *opts->tls_server_name != '\0') ||
	    (opts->server != NULL && *opts->server != '\0'))
		cl.tls_server_name = opts->tls_server_name != NULL &&
		    *opts->tls_server_name != '\0' ? opts->tls_server_name :
		    NULL;

	/* getAuthInfo: overrides on top of the file's user */
	if (opts->token != NULL && *opts->token != '\0')
		us.token = opts->token;
	if (opts->username != NULL && *opts->username != '\0')
		us.username = opts->username;
	if (opts->password != NULL && *opts->password != '\0')
		us.password = opts->password;
	if (opts->client_certificate != NULL &&
	    *opts->client_certificate != '\0') {
		us.cert = opts->client_certificate;
		us.cert_data = NULL;
		us.cert_len = 0;
	}
	if (opts->client_key != NULL && *opts->client_key != '\0') {
		us.key = opts->client_key;
		us.key_data = NULL;
		us.key_len = 0;
	}
	if (opts->as != NULL && *opts->as != '\0')
		us.as = opts->as;
	if (opts->as_uid != NULL && *opts->as_uid != '\0')
		us.as_uid = opts->as_uid;
	if (opts->n_as_groups > 0) {
		us.as_groups = dra_arena_calloc(a, opts->n_as_groups,
		    sizeof *us.as_groups);
		for (i = 0; i < opts->n_as_groups; i++)
			us.as_groups[i] = opts->as_groups[i];
		us.n_as_groups = opts->n_as_groups;
	}

	/*
	 * merged_client_builder.go ClientConfig: a configuration that is
	 * only the defaults gives way to in-cluster configuration.
	 */
	empty = (cl.server == NULL || *cl.server == '\0') && cl.ca == NULL &&
	    cl.ca_data == NULL && !cl.insecure && cl.tls_server_name == NULL &&
	    cl.proxy_url == NULL;
	if (empty && incluster_possible(icdir)) {
		const char	*h = getenv("KUBERNETES_SERVICE_HOST");
		const char	*p = getenv("KUBERNETES_SERVICE_PORT");
		char		*url, *ca;

		cfg->in_cluster = 1;
		url = strchr(h, ':') != NULL ?
		    xasprintf("https://[%s]:%s", h, p) :
		    xasprintf("https://%s:%s", h, p);
		memset(&cl, 0, sizeof cl);
		cl.server = dra_arena_strdup(a, url);
		free(url);
		ca = xasprintf("%s/ca.crt", icdir);
		if (access(ca, R_OK) == 0)
			cl.ca = dra_arena_strdup(a, ca);
		free(ca);
		memset(&us, 0, sizeof us);
		ca = xasprintf("%s/token", icdir);
		us.token_file = dra_arena_strdup(a, ca);
		free(ca);
		/* inClusterClientConfig.ClientConfig overrides */
		if (opts->server != NULL && *opts->server != '\0')
			cl.server = opts->server;
		if (opts->token != NULL && *opts->token != '\0') {
			us.token = opts->token;
			us.token_file = NULL;
		}
		if (opts->certificate_authority != NULL &&
		    *opts->certificate_authority != '\0')
			cl.ca = opts->certificate_authority;
		if (opts->as != NULL && *opts->as != '\0') {
			us.as = opts->as;
			us.as_uid = opts->as_uid;
			us.as_groups = (const char **)opts->as_groups;
			us.n_as_groups = opts->n_as_groups;
		}
		ctx_name = cl_name = us_name = "";
		ctx = NULL;
	} else if (empty) {
		master = getenv("KUBERNETES_MASTER");
		if (master != NULL && *master != '\0')
			cl.server = master;
		else if (s.nfiles == 0) {
			rc = dra_err_set(err, KUBE_E_CONFIG,
			    "no configuration has been provided: no kubeconfig "
			    "file found (%s) and not running in a cluster; use "
			    "--kubeconfig, KUBECONFIG or --server",
			    opts->kubeconfig != NULL && *opts->kubeconfig ?
			    opts->kubeconfig : getenv("KUBECONFIG") != NULL &&
			    *getenv("KUBECONFIG") ? "KUBECONFIG is empty or "
			    "lists only missing files" : "~/.kube/config is "
			    "missing");
			goto out;
		} else if (*ctx_name == '\0') {
			rc = dra_err_set(err, KUBE_E_CONFIG,
			    "no context chosen: current-context is not set in "
			    "%s and --context was not given", where);
			goto out;
		} else if (*cl_name == '\0') {
			rc = dra_err_set(err, KUBE_E_CONFIG,
			    "cluster was not specified for context \"%s\" "
			    "(in %s)", ctx_name, ctx->file->path);
			goto out;
		}
		/* else a cluster entry with nothing in it: validated below */
	}

	cfg->context = dra_arena_strdup(a, ctx_name);
	cfg->cluster_name = dra_arena_strdup(a, cl_name);
	cfg->user_name = dra_arena_strdup(a, us_name);

	/* Namespace (client_config.go, merged_client_builder.go Namespace) */
	if (opts->namespace != NULL && *opts->namespace != '\0')
		cfg->namespace = dra_arena_strdup(a, opts->namespace);
	else if (!cfg->in_cluster && ctx != NULL && ctx->namespace != NULL &&
	    *ctx->namespace != '\0')
		cfg->namespace = dra_arena_strdup(a, ctx->namespace);
	else if (incluster_possible(icdir))
		cfg->namespace = incluster_namespace(a, icdir);
	else
		cfg->namespace = dra_arena_strdup(a, "default");

	/* validation.go validateClusterInfo */
	if (cl.server == NULL || *cl.server == '\0') {
		if (*cl_name == '\0')
			problemf(&probs, "default cluster has no server "
			    "defined");
		else
			problemf(&probs, "no server found for cluster \"%s\"%s",
			    cl_name, cl_where);
	}
	if (cl.proxy_url != NULL && *cl.proxy_url != '\0' &&
	    check_proxy(cl.proxy_url, why, sizeof why) != 0)
		problemf(&probs, "invalid 'proxy-url' \"%s\" for cluster "
		    "\"%s\"%s: %s", redact_url(a, cl.proxy_url), cl_name,
		    cl_where, why);
	if (cl.ca != NULL && *cl.ca != '\0' && cl.ca_data != NULL)
		problemf(&probs, "certificate-authority-data and "
		    "certificate-authority are both specified for \"%s\"%s; "
		    "certificate-authority-data will override", cl_name,
		    cl_where);
	if (cl.ca != NULL && *cl.ca != '\0' && access(cl.ca, R_OK) != 0)
		problemf(&probs, "unable to read certificate-authority %s for "
		    "\"%s\"%s due to %s", cl.ca, cl_name, cl_where,
		    strerror(errno));
	if (cl.insecure && ((cl.ca != NULL && *cl.ca != '\0') ||
	    cl.ca_data != NULL))
		problemf(&probs, "specifying a root certificates file with the "
		    "insecure flag is not allowed (cluster \"%s\"%s)", cl_name,
		    cl_where);

	/* validation.go validateAuthInfo */
	if (us.token != NULL && *us.token != '\0' &&
	    ((us.username != NULL && *us.username != '\0') ||
	    (us.password != NULL && *us.password != '\0')))
		problemf(&probs, "more than one authentication method found "
		    "for \"%s\"%s; found [token basicAuth], only one is "
		    "allowed", us_name, us_where);
	cert = (us.cert != NULL && *us.cert != '\0') || us.cert_data != NULL;
	if (cert) {
		if (us.cert != NULL && *us.cert != '\0' && us.cert_data != NULL)
			problemf(&probs, "client-cert-data and client-cert are "
			    "both specified for \"%s\"%s; client-cert-data "
			    "will override", us_name, us_where);
		if (us.key != NULL && *us.key != '\0' && us.key_data != NULL)
			problemf(&probs, "client-key-data and client-key are "
			    "both specified for \"%s\"%s; client-key-data will "
			    "override", us_name, us_where);
		if ((us.key == NULL || *us.key == '\0') && us.key_data == NULL)
			problemf(&probs, "client-key-data or client-key must "
			    "be specified for \"%s\"%s to use the clientCert "
			    "authentication method", us_name, us_where);
		if (us.cert != NULL && *us.cert != '\0' &&
		    access(us.cert, R_OK) != 0)
			problemf(&probs, "unable to read client-cert %s for "
			    "\"%s\"%s due to %s", us.cert, us_name, us_where,
			    strerror(errno));
		if (us.key != NULL && *us.key != '\0' &&
		    access(us.key, R_OK) != 0)
			problemf(&probs, "unable to read client-key %s for "
			    "\"%s\"%s due to %s", us.key, us_name, us_where,
			    strerror(errno));
	}
	if (us.exec != NULL) {
		struct kube_exec_config *x = us.exec;

		if (us.auth_provider != NULL)
			problemf(&probs, "authProvider cannot be provided in "
			    "combination with an exec plugin for \"%s\"%s",
			    us_name, us_where);
		if (x->command == NULL || *x->command == '\0')
			problemf(&probs, "command must be specified for "
			    "\"%s\"%s to use exec authentication plugin",
			    us_name, us_where);
		if (x->api_version == NULL || *x->api_version == '\0')
			problemf(&probs, "apiVersion must be specified for "
			    "\"%s\"%s to use exec authentication plugin",
			    us_name, us_where);
		else if (strcmp(x->api_version, EXEC_V1) != 0 &&
		    strcmp(x->api_version, EXEC_V1BETA1) != 0)
			problemf(&probs, "exec plugin: invalid apiVersion "
			    "\"%s\" for \"%s\"%s", x->api_version, us_name,
			    us_where);
		for (i = 0; i < x->nenv; i++)
			if (*x->env[i].name == '\0') {
				problemf(&probs, "env variable name must be "
				    "specified for \"%s\"%s to use exec "
				    "authentication plugin", us_name, us_where);
				break;
			}
		if (x->interactive_mode == NULL || *x->interactive_mode == '\0')
			problemf(&probs, "interactiveMode must be specified "
			    "for \"%s\"%s to use exec authentication plugin",
			    us_name, us_where);
		else if (strcmp(x->interactive_mode, "Never") != 0 &&
		    strcmp(x->interactive_mode, "IfAvailable") != 0 &&
		    strcmp(x->interactive_mode, "Always") != 0)
			problemf(&probs, "invalid interactiveMode for "
			    "\"%s\"%s: \"%s\"", us_name, us_where,
			    x->interactive_mode);
	} else if (us.auth_provider != NULL) {
		/* plugin/pkg/client/auth/gcp, azure: removed */
		if (strcmp(us.auth_provider, "gcp") == 0)
			problemf(&probs, "the gcp auth plugin has been removed "
			    "(user \"%s\"%s); please use the "
			    "\"gke-gcloud-auth-plugin\" kubectl/client-go "
			    "credential plugin instead", us_name, us_where);
		else if (strcmp(us.auth_provider, "azure") == 0)
			problemf(&probs, "the azure auth plugin has been "
			    "removed (user \"%s\"%s); please use the "
			    "\"kubelogin\" client-go credentials plugin "
			    "instead", us_name, us_where);
		else
			problemf(&probs, "auth-provider \"%s\" of user "
			    "\"%s\"%s is not supported by kubectl-dra; use an "
			    "exec credential plugin (for oidc: kubelogin)",
			    us.auth_provider, us_name, us_where);
	}
	if (((us.as_uid != NULL && *us.as_uid != '\0') || us.n_as_groups > 0 ||
	    us.n_as_extra > 0) && (us.as == NULL || *us.as == '\0'))
		problemf(&probs, "requesting uid, groups or user-extra for "
		    "\"%s\"%s without impersonating a user", us_name, us_where);
	if (probs.len > 0) {
		rc = dra_err_set(err, KUBE_E_CONFIG,
		    "invalid configuration: %s", dra_buf_str(&probs));
		goto out;
	}

	/* The resolved cluster. */
	default_tls = cl.ca != NULL || cl.ca_data != NULL || cert ||
	    cl.insecure;
	if ((rc = set_server(cfg, cl.server, default_tls, err)) != KUBE_OK)
		goto out;
	cfg->tls_server_name = cl.tls_server_name != NULL &&
	    *cl.tls_server_name != '\0' ?
	    dra_arena_strdup(a, cl.tls_server_name) : NULL;
	cfg->proxy_url = cl.proxy_url != NULL && *cl.proxy_url != '\0' ?
	    dra_arena_strdup(a, cl.proxy_url) : NULL;
	cfg->ca_file = cl.ca != NULL && *cl.ca != '\0' ?
	    dra_arena_strdup(a, cl.ca) : NULL;
	cfg->ca_data = cl.ca_data;
	cfg->ca_len = cl.ca_len;
	cfg->insecure = cl.insecure;
	cfg->disable_compression = cl.disable_compression;
	cfg->exec_cluster_config = cl.exec_ext;

	/* The resolved user. */
	if (us.token != NULL && *us.token != '\0')
		cfg->token = xstrdup(us.token);
	else if (us.token_file != NULL && *us.token_file != '\0') {
		cfg->token_file = dra_arena_strdup(a, us.token_file);
		e = read_file(cfg->token_file, DRA_BUF_MAX_SMALL, &tok);
		if (e != 0) {
			rc = dra_err_set(err, KUBE_E_IO,
			    "cannot read tokenFile \"%s\" of user \"%s\"%s: %s",
			    cfg->token_file, us_name, us_where,
			    e == EFBIG ? "file too large" : strerror(e));
			goto out;
		}
		if (tok.ptr != NULL)
			explicit_bzero(tok.ptr, tok.len);
		dra_buf_release(&tok);
	}
	if (us.cert_data != NULL) {
		cfg->cert_data = us.cert_data;
		cfg->cert_len = us.cert_len;
	} else if (us.cert != NULL && *us.cert != '\0')
		cfg->cert_file = dra_arena_strdup(a, us.cert);
	if (us.key_data != NULL) {
		cfg->key_data = (unsigned char *)secret_dup(us.key_data,
		    us.key_len);
		cfg->key_len = us.key_len;
		explicit_bzero(us.key_data, us.key_len);
	} else if (us.key != NULL && *us.key != '\0')
		cfg->key_file = dra_arena_strdup(a, us.key);
	if ((us.username != NULL && *us.username != '\0') ||
	    (us.password != NULL && *us.password != '\0')) {
		cfg->username = xstrdup(us.username != NULL ? us.username : "");
		cfg->password = xstrdup(us.password != NULL ? us.password : "");
	}
	cfg->as = us.as != NULL && *us.as != '\0' ?
	    dra_arena_strdup(a, us.as) : NULL;
	if (cfg->as != NULL) {
		cfg->as_uid = us.as_uid != NULL && *us.as_uid != '\0' ?
		    dra_arena_strdup(a, us.as_uid) : NULL;
		cfg->as_groups = dra_arena_calloc(a, us.n_as_groups + 1,
		    sizeof *cfg->as_groups);
		for (i = 0; i < us.n_as_groups; i++)
			cfg->as_groups[i] = dra_arena_strdup(a,
			    us.as_groups[i]);
		cfg->n_as_groups = us.n_as_groups;
		cfg->as_extra = us.as_extra;
		cfg->n_as_extra = us.n_as_extra;
	}
	cfg->exec = us.exec;

out:
	free(s.files);
	free(s.clusters);
	free(s.users);
	free(s.contexts);
	dra_buf_release(&probs);
	if (rc != KUBE_OK)
		kube_config_release(cfg);
	return rc;
}

void
kube_config_release(struct kube_config *cfg)
{
	if (cfg->token != NULL)
		kube_secret_free(cfg->token, strlen(cfg->token));
	if (cfg->password != NULL)
		kube_secret_free(cfg->password, strlen(cfg->password));
	free(cfg->username);
	kube_secret_free(cfg->key_data, cfg->key_len);
	dra_arena_release(&cfg->arena);
	memset(cfg, 0, sizeof *cfg);
}
