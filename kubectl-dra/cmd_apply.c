/*
 * cmd_apply.c: "kubectl dra apply -f PLAN [--yes]" and "kubectl dra
 * apply --rollback BACKUP [--yes]" (docs/APPLY.md).
 *
 * Applying a plan goes in phases, and nothing is written until every
 * check passed:
 *  1. read the plan and its objects in apply order (views/apply.h);
 *  2. check it still matches the cluster (dra_apply_stale(), on a
 *     snapshot of nodes, slices and claims): exit 3 if not;
 *  3. GET every object (the state before) and its namespace, and
 *     server-side apply it as a dry run: a conflict, a refusal or an
 *     invalid object stops here, nothing written;
 *  4. without --yes: print `kubectl diff`'s diff of live and dry-run
 *     objects (diff -u -N, or $KUBECTL_EXTERNAL_DIFF) and one line per
 *     object; stop;
 *  5. with --yes: write the backup file (temporary file, fsync, link
 *     so an existing file is never replaced), then apply object by
 *     object, journaling each one (and the uid of what it created) in
 *     the backup before the next.  A failure or a signal stops it
 *     with the list of what was and was not applied and the rollback
 *     command.
 * A rollback reads the backup, works out each object's step
 * (dra_rollback_step()), dry-runs them all, then (with --yes) does
 * them in reverse apply order.
 */
#include "dra.h"

#ifdef DRA_HAVE_CLIENT

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "apply.h"
#include "buf.h"
#include "client.h"
#include "snapshot.h"
#include "source-int.h"
#include "xmalloc.h"
#include "ydoc.h"

/* A plan or backup file is not larger than this. */
#define APPLY_FILE_MAX	(256UL << 20)
/* Retries of a PUT whose resourceVersion a controller overtook. */
#define APPLY_TRIES	5

#endif /* DRA_HAVE_CLIENT */

static const char cmd_apply_help[] =
"Applies a plan of `kubectl dra plan` (its PriorityClasses,\n"
"DeviceClasses, mig-parted ConfigMap, ResourceQuotas, in that order,\n"
"then its node labels) with server-side apply, field manager\n"
"kubectl-dra.\n"
"\n"
"Without --yes nothing changes: each object is applied as a\n"
"server-side dry run and the diff of the live objects against the\n"
"results is shown (diff -u, or $KUBECTL_EXTERNAL_DIFF as kubectl diff\n"
"uses it), then one line per object: created, configured or unchanged.\n"
"With --yes, the state of every object it touches is first written to\n"
"a backup file, then the objects are applied one by one; `--rollback\n"
"FILE` puts that state back (it previews too, unless --yes).\n"
"\n"
"Refused, with nothing changed: a plan that no longer matches the\n"
"cluster (a node or GPU gone, a GPU the plan repartitions now holding\n"
"a claim the plan does not keep, a quota the namespace's claims already\n"
"exceed; exit 3); fields another field manager\n"
"owns (unless --force-conflicts); a namespace that does not exist; an\n"
"object the user may not change.\n"
"\n"
"Exit status: 0 done (or previewed), 3 the plan no longer matches the\n"
"cluster, 1 error (nothing changed, or the report says what was), 2\n"
"usage.\n"
"\n"
"Examples:\n"
"  kubectl dra plan --demand demand.yaml -o yaml > plan.yaml\n"
"  kubectl dra apply -f plan.yaml\n"
"  kubectl dra apply -f plan.yaml --yes\n"
"  kubectl dra apply --rollback kubectl-dra-backup-20260101T120000Z.json\n"
"  kubectl dra apply --rollback kubectl-dra-backup-20260101T120000Z.json "
"--yes\n";

static const struct dra_flag cmd_apply_flags[] = {
	{ "filename", 'f', 1, DRA_F_FILENAME, "FILE",
	    "the Plan (kubectl dra plan -o yaml|json); - for stdin" },
	{ "yes", 0, 0, DRA_F_YES, "",
	    "act; without it, a server-side dry run and a diff" },
	{ "backup", 0, 1, DRA_F_BACKUP, "FILE",
	    "with --yes: where the state before goes (default "
	    "kubectl-dra-backup-<time>.json; never overwritten)" },
	{ "force-conflicts", 0, 0, DRA_F_FORCE_CONFLICTS, "",
	    "take the fields other field managers own (force=true)" },
	{ "rollback", 0, 1, DRA_F_ROLLBACK, "FILE",
	    "put back the state a backup file recorded" },
	{ NULL, 0, 0, 0, NULL, NULL }
};

#ifdef DRA_HAVE_CLIENT

/* What became of one object. */
enum st_result {
	ST_OK,			/* change says what */
	ST_CONFLICT,
	ST_FORBIDDEN,
	ST_NO_NAMESPACE,
	ST_INVALID,
	ST_ERROR,
	ST_NOT_APPLIED,		/* the apply stopped before it */
};

struct obj_state {
	cJSON			*live;		/* before; NULL: absent */
	cJSON			*result;	/* the server's answer */
	enum dra_apply_change	 change;
	enum st_result		 result_kind;
	char			*msg;		/* the problem, or NULL */
	/* --force-conflicts: "taking .x from \"other\"", or NULL. */
	char			*takes;
	const char		*verb;		/* rollback: what it did */
};

struct apply_run {
	struct dra_ctx		*ctx;
	struct kube_client	*c;
	int			 json;		/* -o json|yaml summary */
	int			 yaml;
	int			 dry;		/* no --yes */
	const char		*file;		/* plan or backup */
	const char		*backup;	/* --yes: the backup file */
	cJSON			*summary;	/* -o json: objects[] */
	int			 diff_failed;	/* the diff program failed */
};

static volatile sig_atomic_t apply_signal;

static const char *file_name(const char *);
static enum dra_ret read_doc(const char *, const char *, cJSON **);
static char	*obj_name(const char *, const char *, char *, size_t);
static int	 request(struct kube_client *, const char *, const char *,
		    const char *, const cJSON *, cJSON **, struct dra_err *);
static int	 get_object(struct kube_client *, const char *, cJSON **,
		    struct dra_err *);
static void	 set_problem(struct obj_state *, const struct dra_err *);
static const char *result_name(enum st_result);
static int	 write_diff(const char *, const char *, const cJSON *);
static void	 run_diff(struct apply_run *, const char *, const char *);
static void	 remove_dir(const char *);
static int	 backup_write(const char *, const struct dra_backup *, int,
		    struct dra_err *);
static void	 on_signal(int);
static void	 signals_catch(struct sigaction *);
static void	 signals_restore(const struct sigaction *);
static void	 summary_add(struct apply_run *, const char *, const char *,
		    const char *, const char *, const char *);
static enum dra_ret summary_print(struct apply_run *, enum dra_ret);
static enum dra_ret check_stale(struct apply_run *, const cJSON *);
static char	*apply_path(const char *, int, int);
static int	 apply_patch(struct apply_run *,
		    const struct dra_apply_item *, int, struct obj_state *,
		    struct dra_err *);
static enum dra_ret run_apply(struct apply_run *);
static char	*collection_of(const char *);
static int	 create_object(struct apply_run *,
		    const struct dra_apply_item *, struct dra_backup_obj *,
		    struct dra_err *);
static int	 owner_send(struct apply_run *, const char *, const cJSON *,
		    cJSON *(*)(const void *, const cJSON *), const void *,
		    cJSON **, struct dra_err *);
static cJSON	*mk_owner_patch(const void *, const cJSON *);
static cJSON	*mk_label_owners(const void *, const cJSON *);
static int	 owner_fix(struct apply_run *, const char *, const cJSON *,
		    cJSON **, struct dra_err *);
static char	*drift_note(const struct dra_rollback_step *);
static int	 rollback_send(struct apply_run *,
		    const struct dra_backup_obj *,
		    const struct dra_rollback_step *, int, cJSON **,
		    struct dra_err *);
static int	 restore_owners(struct apply_run *,
		    const struct dra_backup_obj *, const cJSON *,
		    struct dra_err *);
static const char *rollback_verb(enum dra_rollback_action);
static enum dra_ret run_rollback(struct apply_run *);

/* A file as messages name it: "-" is standard input. */
static const char *
file_name(const char *path)
{
	return strcmp(path, "-") == 0 ? "(stdin)" : path;
}

/* Read a JSON or YAML document (a plan or a backup) into *out. */
static enum dra_ret
read_doc(const char *path, const char *what, cJSON **out)
{
	struct dra_buf		 b;
	struct dra_err		 err;
	struct dra_arena	 a;
	struct kube_ynode	*root = NULL;
	const char		*p, *at, *q;
	unsigned long		 line = 1, col = 1;
	int			 fd;

	*out = NULL;
	fd = strcmp(path, "-") == 0 ? STDIN_FILENO : open(path, O_RDONLY);
	path = file_name(path);
	if (fd == -1)
		return dra_error("cannot read the %s %s: %s", what, path,
		    strerror(errno));
	dra_buf_init(&b, APPLY_FILE_MAX);
	errno = 0;
	if (dra_buf_read_fd(&b, fd) != KUBE_OK) {
		if (fd != STDIN_FILENO)
			close(fd);
		dra_buf_release(&b);
		return dra_error("cannot read the %s %s: %s", what, path,
		    errno != 0 ? strerror(errno) : "larger than 256 MiB");
	}
	if (fd != STDIN_FILENO)
		close(fd);
	p = dra_buf_str(&b);
	if (memchr(p, '\0', b.len) != NULL) {
		dra_buf_release(&b);
		return dra_error("the %s %s holds a NUL byte: it is not a "
		    "text file", what, path);
	}
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	if (*p == '\0') {
		dra_buf_release(&b);
		return dra_error("the %s %s is empty", what, path);
	}
	if (*p == '{' || *p == '[') {
		*out = cJSON_ParseWithOpts(p, &at, 1);
		if (*out == NULL) {
			at = cJSON_GetErrorPtr();
			for (q = dra_buf_str(&b); at != NULL && q < at; q++) {
				if (*q == '\n') {
					line++;
					col = 1;
				} else
					col++;
			}
			dra_buf_release(&b);
			return dra_error("%s:%lu:%lu: the %s is not valid JSON",
			    path, line, col, what);
		}
	} else {
		dra_arena_init(&a);
		dra_err_clear(&err);
		if (kube_yaml_load(path, dra_buf_str(&b), b.len,
		    KUBE_YAML_ONE_DOC | KUBE_YAML_NO_NUL, what, KUBE_E_PARSE,
		    &a, &root, &err) != KUBE_OK) {
			dra_arena_release(&a);
			dra_buf_release(&b);
			return dra_error("%s", err.msg);
		}
		if (root != NULL)
			*out = kube_ynode_to_json(root);
		dra_arena_release(&a);
	}
	dra_buf_release(&b);
	if (*out == NULL || !cJSON_IsObject(*out)) {
		cJSON_Delete(*out);
		*out = NULL;
		return dra_error("the %s %s is not a mapping (kubectl dra %s "
		    "writes one)", what, path, strcmp(what, "plan") == 0 ?
		    "plan -o yaml" : "apply --yes");
	}
	return DRA_RET_OK;
}

/* "resourcequota/dra-plan -n plan-a" into buf. */
static char *
obj_name(const char *display, const char *ns, char *buf, size_t len)
{
	if (ns != NULL)
		snprintf(buf, len, "%s -n %s", display, ns);
	else
		snprintf(buf, len, "%s", display);
	return buf;
}

/* One request with a JSON body (or none) and a JSON answer. */
static int
request(struct kube_client *c, const char *method, const char *path,
    const char *ctype, const cJSON *body, cJSON **out, struct dra_err *err)
{
	struct dra_buf	 b;
	char		*text = NULL;
	int		 rc;

	if (out != NULL)
		*out = NULL;
	if (body != NULL)
		text = cJSON_PrintUnformatted(body);
	dra_buf_init(&b, DRA_BUF_MAX_PAGE);
	rc = kube_client_request(c, method, path, body != NULL ? ctype : NULL,
	    text, text != NULL ? strlen(text) : 0, &b, err);
	free(text);
	if (rc == KUBE_OK && out != NULL && b.len > 0) {
		*out = cJSON_ParseWithLength(dra_buf_str(&b), b.len);
		if (*out == NULL)
			rc = dra_err_set(err, KUBE_E_PARSE, "%s %s: the answer "
			    "is not JSON", method, path);
	}
	dra_buf_release(&b);
	return rc;
}

/* GET path into *live; a 404 is *live NULL and KUBE_OK. */
static int
get_object(struct kube_client *c, const char *path, cJSON **live,
    struct dra_err *err)
{
	int	rc;

	rc = request(c, "GET", path, NULL, NULL, live, err);
	if (rc == KUBE_E_NOT_FOUND) {
		*live = NULL;
		return KUBE_OK;
	}
	return rc;
}

static void
set_problem(struct obj_state *st, const struct dra_err *err)
{
	switch (err->code) {
	case KUBE_E_CONFLICT:
		st->result_kind = ST_CONFLICT;
		break;
	case KUBE_E_FORBIDDEN:
		st->result_kind = ST_FORBIDDEN;
		break;
	default:
		st->result_kind = err->http_status == 422 ? ST_INVALID :
		    ST_ERROR;
		break;
	}
	free(st->msg);
	st->msg = xstrdup(err->msg);
}

static const char *
result_name(enum st_result r)
{
	switch (r) {
	case ST_OK:
		return "ok";
	case ST_CONFLICT:
		return "conflict";
	case ST_FORBIDDEN:
		return "forbidden";
	case ST_NO_NAMESPACE:
		return "namespace-missing";
	case ST_INVALID:
		return "invalid";
	case ST_ERROR:
		return "error";
	case ST_NOT_APPLIED:
		break;
	}
	return "not-applied";
}

/* obj, normalized, as YAML in dir/name. */
static int
write_diff(const char *dir, const char *name, const cJSON *obj)
{
	struct dra_err	 err;
	cJSON		*n;
	char		*path;
	FILE		*f;
	int		 rc;

	path = xasprintf("%s/%s", dir, name);
	f = fopen(path, "w");
	free(path);
	if (f == NULL)
		return -1;
	n = dra_apply_normalize(obj);
	rc = kube_yaml_write(f, n, &err);
	cJSON_Delete(n);
	if (fclose(f) != 0 || rc != KUBE_OK)
		return -1;
	return 0;
}

/*
 * diff -u -N LIVE MERGED, as kubectl diff runs it; $KUBECTL_EXTERNAL_DIFF
 * replaces "diff -u -N" (its words: the program and its arguments).
 */
static void
run_diff(struct apply_run *r, const char *live, const char *merged)
{
	const char	*ext = getenv("KUBECTL_EXTERNAL_DIFF");
	struct sigaction old[3];
	char		*words = NULL, *w, *save, *argv[34];
	pid_t		 pid;
	int		 n = 0, status = 0;

	if (ext != NULL && *ext != '\0') {
		words = xstrdup(ext);
		for (w = strtok_r(words, " \t", &save); w != NULL && n < 31;
		    w = strtok_r(NULL, " \t", &save))
			argv[n++] = w;
	}
	if (n == 0) {
		argv[n++] = (char *)"diff";
		argv[n++] = (char *)"-u";
		argv[n++] = (char *)"-N";
	}
	argv[n++] = (char *)live;
	argv[n++] = (char *)merged;
	argv[n] = NULL;
	fflush(stdout);
	fflush(stderr);
	/* A signal while diff runs: caught here, the directories go. */
	signals_catch(old);
	pid = fork();
	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "kubectl-dra: error: cannot run %s: %s\n",
		    argv[0], strerror(errno));
		_exit(127);
	}
	if (pid == -1) {
		dra_error("cannot run %s: %s", argv[0], strerror(errno));
		r->diff_failed = 1;
	} else {
		while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
			;
		/* As kubectl diff: 0 and 1 are answers, more an error. */
		if (WIFEXITED(status) && WEXITSTATUS(status) > 1) {
			dra_error("%s exited with %d%s", argv[0],
			    WEXITSTATUS(status), WEXITSTATUS(status) == 127 ?
			    " (install diffutils, or set "
			    "KUBECTL_EXTERNAL_DIFF)" : "");
			r->diff_failed = 1;
		} else if (WIFSIGNALED(status) || apply_signal != 0) {
			dra_error("the diff was interrupted");
			r->diff_failed = 1;
		}
	}
	signals_restore(old);
	free(words);
}

/* Remove dir and the files in it (ours, made by mkdtemp). */
static void
remove_dir(const char *dir)
{
	char	*cmd[] = { (char *)"rm", (char *)"-rf", (char *)dir, NULL };
	pid_t	 pid;
	int	 status;

	if ((pid = fork()) == 0) {
		execvp(cmd[0], cmd);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
}

/*
 * Write b to file atomically: a temporary file in the same directory,
 * flushed to disk, then linked in (first: never replacing a file that
 * exists) or renamed over the last version, and the directory synced.
 */
static int
backup_write(const char *file, const struct dra_backup *b, int first,
    struct dra_err *err)
{
	cJSON	*doc;
	char	*tmp, *dir, *slash;
	FILE	*f;
	int	 fd, rc = KUBE_OK, e;

	tmp = xasprintf("%s.tmp.XXXXXX", file);
	if ((fd = mkstemp(tmp)) == -1) {
		rc = dra_err_set(err, KUBE_E_IO, "cannot write the backup "
		    "%s: %s", file, strerror(errno));
		free(tmp);
		return rc;
	}
	f = fdopen(fd, "w");
	doc = dra_backup_encode(b);
	dra_json_print(f, doc);
	cJSON_Delete(doc);
	if (fflush(f) != 0 || ferror(f) || fsync(fd) != 0) {
		e = errno;
		fclose(f);
		unlink(tmp);
		rc = dra_err_set(err, KUBE_E_IO, "cannot write the backup "
		    "%s: %s", file, strerror(e != 0 ? e : EIO));
		free(tmp);
		return rc;
	}
	fclose(f);
	if (first) {
		if (link(tmp, file) != 0) {
			e = errno;
			rc = dra_err_set(err, KUBE_E_IO, e == EEXIST ?
			    "the backup file %s already exists: it is not "
			    "overwritten; name another with --backup FILE" :
			    "cannot write the backup %s: %s", file,
			    strerror(e));
		}
		unlink(tmp);
	} else if (rename(tmp, file) != 0) {
		rc = dra_err_set(err, KUBE_E_IO, "cannot write the backup "
		    "%s: %s", file, strerror(errno));
		unlink(tmp);
	}
	free(tmp);
	if (rc != KUBE_OK)
		return rc;
	dir = xstrdup(file);
	slash = strrchr(dir, '/');
	if (slash == NULL) {
		free(dir);
		dir = xstrdup(".");
	} else if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	if ((fd = open(dir, O_RDONLY)) != -1) {
		fsync(fd);
		close(fd);
	}
	free(dir);
	return KUBE_OK;
}

static void
on_signal(int sig)
{
	apply_signal = sig;
}

/*
 * From now on SIGINT, SIGTERM and SIGHUP only set apply_signal (reset
 * here), so a run stops between objects and reports; old (3 entries)
 * receives the previous actions for signals_restore.
 */
static void
signals_catch(struct sigaction *old)
{
	struct sigaction	sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old[0]);
	sigaction(SIGTERM, &sa, &old[1]);
	sigaction(SIGHUP, &sa, &old[2]);
	apply_signal = 0;
}

/* Put back the actions signals_catch saved in old. */
static void
signals_restore(const struct sigaction *old)
{
	sigaction(SIGINT, &old[0], NULL);
	sigaction(SIGTERM, &old[1], NULL);
	sigaction(SIGHUP, &old[2], NULL);
}

/* One object's line of the -o json|yaml summary. */
static void
summary_add(struct apply_run *r, const char *kind, const char *ns,
    const char *name, const char *result, const char *msg)
{
	cJSON	*o;

	if (r->summary == NULL)
		return;
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "kind", kind);
	if (ns != NULL)
		cJSON_AddStringToObject(o, "namespace", ns);
	cJSON_AddStringToObject(o, "name", name);
	cJSON_AddStringToObject(o, "result", result);
	if (msg != NULL)
		cJSON_AddStringToObject(o, "message", msg);
	cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(r->summary,
	    "objects"), o);
}

static enum dra_ret
summary_print(struct apply_run *r, enum dra_ret ret)
{
	struct dra_err	err;

	if (r->summary == NULL)
		return ret;
	cJSON_AddNumberToObject(r->summary, "exitCode", ret);
	if (r->json)
		dra_json_print(stdout, r->summary);
	else if (kube_yaml_write(stdout, r->summary, &err) != KUBE_OK &&
	    ret == DRA_RET_OK)
		ret = dra_error("%s", err.msg);
	cJSON_Delete(r->summary);
	r->summary = NULL;
	return ret;
}

/* Refuse a plan the cluster no longer matches (exit 3). */
static enum dra_ret
check_stale(struct apply_run *r, const cJSON *plan)
{
	struct kube_snapshot	*s;
	struct dra_apply_stale	 st;
	struct dra_err		 err;
	enum dra_ret		 ret;
	cJSON			*a;
	size_t			 i;

	/*
	 * One clear refusal before anything is read: a user who may not
	 * list what the check needs gets the server's words, not a
	 * warning about a partial view followed by an error.
	 */
	for (i = 0; i < 3; i++) {
		static const char *const probe[] = { "/api/v1/nodes?limit=1",
		    "/apis/resource.k8s.io/v1/resourceslices?limit=1",
		    "/apis/resource.k8s.io/v1/resourceclaims?limit=1" };

		dra_err_clear(&err);
		if (request(r->c, "GET", probe[i], NULL, NULL, NULL, &err) ==
		    KUBE_E_FORBIDDEN)
			return dra_error("cannot check the plan %s against "
			    "the cluster: %s; apply needs to list nodes, "
			    "resourceslices and resourceclaims cluster-wide; "
			    "nothing was changed", file_name(r->file),
			    err.msg);
	}
	ret = dra_source_load(r->ctx, DRA_NEED_NODES | DRA_NEED_SLICES |
	    DRA_NEED_CLAIMS, NULL, &s);
	if (ret != DRA_RET_OK)
		return ret;
	if (r->ctx->denied & (DRA_NEED_NODES | DRA_NEED_SLICES |
	    DRA_NEED_CLAIMS)) {
		kube_snapshot_free(s);
		/* The server's own words for the first refused list. */
		dra_err_clear(&err);
		request(r->c, "GET", r->ctx->denied & DRA_NEED_NODES ?
		    "/api/v1/nodes?limit=1" : r->ctx->denied &
		    DRA_NEED_SLICES ? "/apis/resource.k8s.io/v1/"
		    "resourceslices?limit=1" : "/apis/resource.k8s.io/v1/"
		    "resourceclaims?limit=1", NULL, NULL, NULL, &err);
		return dra_error("cannot check the plan %s against the "
		    "cluster: %s; apply needs to list nodes, resourceslices "
		    "and resourceclaims cluster-wide; nothing was changed",
		    file_name(r->file), err.msg[0] != '\0' ? err.msg :
		    "forbidden");
	}
	if (dra_apply_stale(plan, s, &st, &err) != KUBE_OK) {
		kube_snapshot_free(s);
		dra_apply_stale_free(&st);
		return dra_error("%s: %s", file_name(r->file), err.msg);
	}
	kube_snapshot_free(s);
	for (i = 0; i < st.nnotes; i++)
		dra_warning("%s", st.notes[i]);
	if (r->summary != NULL && st.nnotes > 0) {
		a = cJSON_AddArrayToObject(r->summary, "warnings");
		for (i = 0; i < st.nnotes; i++)
			cJSON_AddItemToArray(a,
			    cJSON_CreateString(st.notes[i]));
	}
	if (st.nproblems == 0) {
		dra_apply_stale_free(&st);
		return DRA_RET_OK;
	}
	fprintf(stderr, "kubectl-dra: error: the plan %s no longer matches "
	    "the cluster (%zu problem%s); make a new plan; nothing was "
	    "changed:\n", file_name(r->file), st.nproblems,
	    st.nproblems == 1 ? "" : "s");
	for (i = 0; i < st.nproblems; i++)
		fprintf(stderr, "  %s\n", st.problems[i]);
	if (r->summary != NULL) {
		a = cJSON_AddArrayToObject(r->summary, "stale");
		for (i = 0; i < st.nproblems; i++)
			cJSON_AddItemToArray(a,
			    cJSON_CreateString(st.problems[i]));
	}
	dra_apply_stale_free(&st);
	return DRA_RET_NEGATIVE;
}

/* The query of an apply: field manager, validation, dry run, force. */
static char *
apply_path(const char *path, int dry, int force)
{
	return xasprintf("%s?fieldManager=%s&fieldValidation=Strict%s%s",
	    path, DRA_APPLY_FIELD_MANAGER, dry ? "&dryRun=All" : "",
	    force ? "&force=true" : "");
}

/*
 * Server-side apply of it (a dry run when dry) into st->result.  With
 * --force-conflicts, first without force: a conflict then says in
 * st->takes which fields of which managers force=true takes, and the
 * apply is sent again with force.
 */
static int
apply_patch(struct apply_run *r, const struct dra_apply_item *it, int dry,
    struct obj_state *st, struct dra_err *err)
{
	char	*path;
	int	 rc, force;

	free(st->takes);
	st->takes = NULL;
	for (force = 0;; force = 1) {
		path = apply_path(it->path, dry, force);
		rc = request(r->c, "PATCH", path,
		    "application/apply-patch+yaml", it->body, &st->result,
		    err);
		free(path);
		if (rc != KUBE_E_CONFLICT || force ||
		    !r->ctx->opts.force_conflicts)
			break;
		st->takes = dra_apply_conflict_takes(err->msg);
		if (st->takes == NULL)
			st->takes = xasprintf("taking what conflicts: %s",
			    err->msg);
	}
	return rc;
}

static enum dra_ret
run_apply(struct apply_run *r)
{
	struct dra_ctx		*ctx = r->ctx;
	struct dra_apply_items	 items;
	struct dra_backup	 bk;
	struct obj_state	*st = NULL;
	struct dra_err		 err;
	struct sigaction	 old[3];
	enum dra_ret		 ret = DRA_RET_OK;
	cJSON			*plan = NULL, *ns, *dry, *fixed;
	enum dra_apply_change	 dry_change;
	char			 name[600], fname[600], tmpl[2][64];
	char			*path, *missing = NULL, defname[64], *note;
	const char		*verb;
	size_t			 i, j, nbad = 0, ndone = 0, counts[3] = { 0 };
	size_t			 failed_at = (size_t)-1;
	int			 rc, *nsok = NULL, stopped = 0, diffs = 0;
	int			 raced;
	time_t			 now;
	static const char	 raced_msg[] = "created by someone else "
	    "after it was read: applied to it, not recorded as created (a "
	    "rollback leaves it)";

	memset(&items, 0, sizeof items);
	memset(&bk, 0, sizeof bk);
	if ((ret = read_doc(r->file, "plan", &plan)) != DRA_RET_OK)
		return ret;
	if (dra_apply_items(plan, &items, &err) != KUBE_OK) {
		ret = dra_error("%s: %s", file_name(r->file), err.msg);
		goto out;
	}
	if (!r->dry) {
		if (r->backup == NULL) {
			now = time(NULL);
			strftime(defname, sizeof defname,
			    "kubectl-dra-backup-%Y%m%dT%H%M%SZ.json",
			    gmtime(&now));
			r->backup = defname;
		}
		if (access(r->backup, F_OK) == 0) {
			ret = dra_error("the backup file %s already exists: "
			    "it is not overwritten; name another with "
			    "--backup FILE; nothing was changed", r->backup);
			goto out;
		}
	}
	if ((r->c = dra_client_new(ctx, NULL, NULL, &err)) == NULL) {
		ret = dra_error("%s", err.msg);
		goto out;
	}
	if ((ret = check_stale(r, plan)) != DRA_RET_OK)
		goto out;

	/* The namespaces, then each object and its dry run. */
	nsok = xcalloc(items.nns + 1, sizeof *nsok);
	for (i = 0; i < items.nns; i++) {
		path = xasprintf("/api/v1/namespaces/%s", items.namespaces[i]);
		rc = get_object(r->c, path, &ns, &err);
		free(path);
		nsok[i] = rc == KUBE_OK && ns != NULL;
		cJSON_Delete(ns);
		if (rc == KUBE_OK && !nsok[i]) {
			path = xasprintf("%s%s%s", missing != NULL ? missing :
			    "", missing != NULL ? " " : "",
			    items.namespaces[i]);
			free(missing);
			missing = path;
		}
		/* A user who may not read namespaces finds out below. */
		if (rc == KUBE_E_FORBIDDEN)
			nsok[i] = 1;
		else if (rc != KUBE_OK) {
			ret = dra_error("namespace %s: %s",
			    items.namespaces[i], err.msg);
			goto out;
		}
	}
	st = xcalloc(items.n + 1, sizeof *st);
	for (i = 0; i < items.n; i++) {
		const struct dra_apply_item *it = &items.v[i];

		rc = get_object(r->c, it->path, &st[i].live, &err);
		if (rc == KUBE_OK && it->ns != NULL) {
			for (j = 0; j < items.nns; j++)
				if (strcmp(items.namespaces[j], it->ns) == 0)
					break;
			if (!nsok[j]) {
				st[i].result_kind = ST_NO_NAMESPACE;
				st[i].msg = xasprintf("namespace %s does not "
				    "exist: create it first (kubectl create "
				    "namespace %s)", it->ns, it->ns);
				nbad++;
				continue;
			}
		}
		if (rc == KUBE_OK && it->kind == DRA_APPLY_NODE &&
		    st[i].live == NULL) {
			st[i].result_kind = ST_ERROR;
			st[i].msg = xasprintf("node %s does not exist",
			    it->name);
			nbad++;
			continue;
		}
		if (rc == KUBE_OK)
			rc = apply_patch(r, it, 1, &st[i], &err);
		if (rc != KUBE_OK) {
			set_problem(&st[i], &err);
			nbad++;
			continue;
		}
		st[i].change = dra_apply_compare(st[i].live, st[i].result);
	}

	/* Preview, or the problems that stop an apply. */
	if (r->dry && !r->json && !r->yaml) {
		snprintf(tmpl[0], sizeof tmpl[0], "%s/LIVE-XXXXXX",
		    getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
		snprintf(tmpl[1], sizeof tmpl[1], "%s/MERGED-XXXXXX",
		    getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
		if (mkdtemp(tmpl[0]) == NULL || mkdtemp(tmpl[1]) == NULL) {
			ret = dra_error("cannot make a directory for the "
			    "diff: %s", strerror(errno));
			goto out;
		}
		for (i = 0; i < items.n; i++) {
			const struct dra_apply_item *it = &items.v[i];

			if (st[i].result == NULL || st[i].change ==
			    DRA_CHANGE_UNCHANGED)
				continue;
			dra_apply_diff_name(it->api_version, it->kind_name,
			    it->ns, it->name, fname, sizeof fname);
			if ((st[i].live != NULL && write_diff(tmpl[0], fname,
			    st[i].live) != 0) || write_diff(tmpl[1], fname,
			    st[i].result) != 0)
				dra_warning("cannot write the diff of %s",
				    it->display);
			diffs++;
		}
		if (diffs > 0)
			run_diff(r, tmpl[0], tmpl[1]);
		remove_dir(tmpl[0]);
		remove_dir(tmpl[1]);
	}
	for (i = 0; i < items.n; i++) {
		const struct dra_apply_item *it = &items.v[i];

		obj_name(it->display, it->ns, name, sizeof name);
		if (st[i].msg != NULL) {
			summary_add(r, it->kind_name, it->ns, it->name,
			    result_name(st[i].result_kind), st[i].msg);
			dra_error("%s: %s%s", name, st[i].result_kind ==
			    ST_CONFLICT ? "conflict: " : st[i].result_kind ==
			    ST_FORBIDDEN ? "forbidden: " : "", st[i].msg);
			continue;
		}
		if (r->dry) {
			summary_add(r, it->kind_name, it->ns, it->name,
			    dra_apply_change_name(st[i].change),
			    st[i].takes);
			counts[st[i].change]++;
			if (r->summary == NULL)
				printf("%s %s (dry run)%s%s\n", name,
				    dra_apply_change_name(st[i].change),
				    st[i].takes != NULL ? ": " : "",
				    st[i].takes != NULL ? st[i].takes : "");
		}
	}
	if (nbad > 0) {
		if (missing != NULL)
			fprintf(stderr, "Create the missing namespaces first: "
			    "kubectl create namespace %s\n", missing);
		for (i = 0; i < items.n; i++)
			if (st[i].result_kind == ST_CONFLICT &&
			    !ctx->opts.force_conflicts) {
				fprintf(stderr, "Fields another field manager "
				    "owns are never taken silently: "
				    "--force-conflicts takes them.\n");
				break;
			}
		ret = dra_error("%zu of %zu objects cannot be applied; "
		    "nothing was changed", nbad, items.n);
		goto out;
	}
	if (r->dry && r->diff_failed) {
		ret = DRA_RET_ERROR;
		goto out;
	}
	if (r->dry) {
		if (r->summary == NULL)
			printf("\nDry run: %zu to create, %zu to configure, "
			    "%zu unchanged; nothing was changed.\n"
			    "To apply: %s apply -f %s --yes%s\n",
			    counts[DRA_CHANGE_CREATED],
			    counts[DRA_CHANGE_CONFIGURED],
			    counts[DRA_CHANGE_UNCHANGED], ctx->prog, r->file,
			    ctx->opts.force_conflicts ? " --force-conflicts" :
			    "");
		goto out;
	}

	/* --yes: the backup, then each object, journaled. */
	now = time(NULL);
	strftime(fname, sizeof fname, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	bk.created = xstrdup(fname);
	bk.server = xstrdup(kube_client_server(r->c));
	bk.context = xstrdup(kube_client_context(r->c));
	bk.plan = xstrdup(r->file);
	bk.phase = xstrdup("applying");
	for (i = 0; i < items.n; i++)
		dra_backup_add(&bk, &items.v[i], st[i].live);
	if (backup_write(r->backup, &bk, 1, &err) != KUBE_OK) {
		ret = dra_error("%s; nothing was changed", err.msg);
		goto out;
	}
	if (r->summary != NULL)
		cJSON_AddStringToObject(r->summary, "backup", r->backup);
	else
		printf("Backup of the state before: %s\n", r->backup);
	signals_catch(old);
	for (i = 0; i < items.n; i++) {
		const struct dra_apply_item *it = &items.v[i];

		obj_name(it->display, it->ns, name, sizeof name);
		if (apply_signal != 0) {
			stopped = 1;
			dra_error("interrupted by signal %d",
			    (int)apply_signal);
			break;
		}
		dry = st[i].result;
		dry_change = st[i].change;
		st[i].result = NULL;
		raced = 0;
		rc = KUBE_OK;
		if (st[i].live == NULL) {
			/*
			 * Absent when read: created by a POST, which fails
			 * with 409 AlreadyExists when someone made it in
			 * between, so that only an object this apply made
			 * has its uid recorded (and a rollback deletes
			 * nothing else).  Journaled before going on.
			 */
			rc = create_object(r, it, &bk.v[i], &err);
			if (rc == KUBE_E_CONFLICT && strcmp(err.reason,
			    "AlreadyExists") == 0) {
				raced = 1;
				rc = KUBE_OK;
			} else if (rc == KUBE_OK && backup_write(r->backup,
			    &bk, 0, &err) != KUBE_OK) {
				cJSON_Delete(dry);
				dra_error("%s: %s: the journal of what was "
				    "created could not be written", name,
				    err.msg);
				summary_add(r, it->kind_name, it->ns, it->name,
				    "created", err.msg);
				failed_at = i;
				stopped = 1;
				break;
			}
		}
		if (rc == KUBE_OK)
			rc = apply_patch(r, it, 0, &st[i], &err);
		if (rc != KUBE_OK) {
			cJSON_Delete(dry);
			set_problem(&st[i], &err);
			summary_add(r, it->kind_name, it->ns, it->name,
			    result_name(st[i].result_kind), st[i].msg);
			dra_error("%s: %s", name, st[i].msg);
			failed_at = i;
			stopped = 1;
			break;
		}
		fixed = NULL;
		if (bk.v[i].uid != NULL && owner_fix(r, it->path,
		    st[i].result, &fixed, &err) != KUBE_OK)
			dra_warning("%s: kubectl-dra still owns its fields "
			    "through Update too: %s", name, err.msg);
		/* Journaled: what it is now, so a rollback sees changes. */
		dra_backup_applied(&bk.v[i], fixed != NULL ? fixed :
		    st[i].result);
		cJSON_Delete(fixed);
		/*
		 * Against the object read before; but when the dry run
		 * found nothing to change and the apply gave what the dry
		 * run did, a write by someone else in between is not ours.
		 */
		st[i].change = dra_apply_compare(st[i].live, st[i].result);
		if (st[i].change == DRA_CHANGE_CONFIGURED && dry_change ==
		    DRA_CHANGE_UNCHANGED && dra_apply_compare(dry,
		    st[i].result) == DRA_CHANGE_UNCHANGED)
			st[i].change = DRA_CHANGE_UNCHANGED;
		cJSON_Delete(dry);
		if (raced)
			st[i].change = DRA_CHANGE_CONFIGURED;
		bk.v[i].applied = 1;
		ndone++;
		note = NULL;
		if (raced || st[i].takes != NULL)
			note = xasprintf("%s%s%s", raced ? raced_msg : "",
			    raced && st[i].takes != NULL ? "; " : "",
			    st[i].takes != NULL ? st[i].takes : "");
		summary_add(r, it->kind_name, it->ns, it->name,
		    dra_apply_change_name(st[i].change), note);
		if (r->summary == NULL)
			printf("%s %s%s%s\n", name,
			    dra_apply_change_name(st[i].change), note != NULL ?
			    ": " : "", note != NULL ? note : "");
		free(note);
		fflush(stdout);
		if (backup_write(r->backup, &bk, 0, &err) != KUBE_OK) {
			dra_error("%s: the journal of what was applied "
			    "could not be written", err.msg);
			stopped = 1;
			i++;
			break;
		}
	}
	signals_restore(old);
	free(bk.phase);
	bk.phase = xstrdup(stopped ? "stopped" : "complete");
	if (backup_write(r->backup, &bk, 0, &err) != KUBE_OK)
		dra_warning("%s", err.msg);
	if (!stopped)
		goto out;
	fprintf(stderr, "Apply stopped after %zu of %zu objects.\n", ndone,
	    items.n);
	for (j = 0; j < items.n; j++) {
		obj_name(items.v[j].display, items.v[j].ns, name,
		    sizeof name);
		verb = bk.v[j].applied ? "applied" : "not applied";
		fprintf(stderr, "  %-11s  %s\n", verb, name);
		if (!bk.v[j].applied && j != failed_at)
			summary_add(r, items.v[j].kind_name, items.v[j].ns,
			    items.v[j].name, result_name(ST_NOT_APPLIED),
			    NULL);
	}
	fprintf(stderr, "To undo what was applied: %s apply --rollback %s "
	    "--yes\n", ctx->prog, r->backup);
	ret = DRA_RET_ERROR;

out:
	for (i = 0; st != NULL && i < items.n; i++) {
		cJSON_Delete(st[i].live);
		cJSON_Delete(st[i].result);
		free(st[i].msg);
		free(st[i].takes);
	}
	free(st);
	free(nsok);
	free(missing);
	dra_backup_free(&bk);
	dra_apply_items_free(&items);
	cJSON_Delete(plan);
	return ret;
}

/* The collection path of an object path (without "/NAME"). */
static char *
collection_of(const char *path)
{
	const char	*slash = strrchr(path, '/');

	return xstrndup(path, (size_t)(slash - path));
}

/*
 * Create it with a POST (never an update: 409 AlreadyExists when it
 * exists) and record the uid the 201 answer gives in o.
 */
static int
create_object(struct apply_run *r, const struct dra_apply_item *it,
    struct dra_backup_obj *o, struct dra_err *err)
{
	cJSON		*res = NULL;
	const char	*uid;
	char		*coll, *path;
	int		 rc;

	coll = collection_of(it->path);
	path = xasprintf("%s?fieldManager=%s&fieldValidation=Strict", coll,
	    DRA_APPLY_FIELD_MANAGER);
	free(coll);
	rc = request(r->c, "POST", path, "application/json", it->body, &res,
	    err);
	free(path);
	if (rc == KUBE_OK) {
		uid = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetObjectItemCaseSensitive(res, "metadata"),
		    "uid"));
		if (uid != NULL && *uid != '\0')
			o->uid = xstrdup(uid);
		else
			rc = dra_err_set(err, KUBE_E_PARSE, "POST %s: the "
			    "answer has no metadata.uid", it->path);
	}
	cJSON_Delete(res);
	return rc;
}

/*
 * A field-owner merge patch at path: body (NULL: nothing to do) made
 * by mk from the object now; on 409 (someone wrote in between) read
 * it again and retry, up to APPLY_TRIES times.  out (may be NULL): the
 * object afterwards, when known.
 */
static int
owner_send(struct apply_run *r, const char *opath, const cJSON *now,
    cJSON *(*mk)(const void *, const cJSON *), const void *arg,
    cJSON **out, struct dra_err *err)
{
	cJSON	*cur, *body, *res = NULL;
	char	*path;
	int	 rc = KUBE_OK, tries;

	path = xasprintf("%s?fieldManager=%s", opath,
	    DRA_APPLY_FIELD_MANAGER);
	cur = cJSON_Duplicate(now, 1);
	for (tries = 0; cur != NULL; tries++) {
		if ((body = mk(arg, cur)) == NULL) {
			res = cur;
			cur = NULL;
			break;
		}
		rc = request(r->c, "PATCH", path,
		    "application/merge-patch+json", body, &res, err);
		cJSON_Delete(body);
		if (rc != KUBE_E_CONFLICT || tries == APPLY_TRIES)
			break;
		cJSON_Delete(cur);
		if ((rc = get_object(r->c, opath, &cur, err)) != KUBE_OK)
			break;
	}
	cJSON_Delete(cur);
	free(path);
	if (out != NULL && rc == KUBE_OK)
		*out = res;
	else
		cJSON_Delete(res);
	return rc;
}

static cJSON *
mk_owner_patch(const void *arg, const cJSON *now)
{
	(void)arg;
	return dra_apply_owner_patch(now);
}

static cJSON *
mk_label_owners(const void *arg, const cJSON *now)
{
	return dra_rollback_label_owners(arg, now);
}

/* A created object: kubectl-dra owns it through Apply only. */
static int
owner_fix(struct apply_run *r, const char *path, const cJSON *now,
    cJSON **out, struct dra_err *err)
{
	return owner_send(r, path, now, mk_owner_patch, NULL, out, err);
}

/*
 * The line's note of a step on an object changed since the apply
 * ("changed since the apply (...) by \"other\"; restoring anyway"), or
 * NULL.  What was done is said too: a rollback puts the state before
 * back whoever wrote since; the preview shows it first.
 */
static char *
drift_note(const struct dra_rollback_step *s)
{
	const char	*what = NULL;

	if (s->drift == NULL)
		return NULL;
	switch (s->action) {
	case DRA_RB_RESTORE:
		what = "restoring anyway";
		break;
	case DRA_RB_LABELS:
		what = "restoring its labels anyway";
		break;
	case DRA_RB_DELETE:
		what = "deleting anyway";
		break;
	case DRA_RB_RECREATE:
		what = "re-creating it";
		break;
	case DRA_RB_NOTHING:
	case DRA_RB_KEEP:
		break;
	}
	return xasprintf("%s%s%s", s->drift, what != NULL ? "; " : "",
	    what != NULL ? what : "");
}

/* Send rollback step s of o; the answer into *out. */
static int
rollback_send(struct apply_run *r, const struct dra_backup_obj *o,
    const struct dra_rollback_step *s, int dry, cJSON **out,
    struct dra_err *err)
{
	cJSON	*body;
	char	*path, *coll;
	int	 rc;

	*out = NULL;
	switch (s->action) {
	case DRA_RB_RESTORE:
		path = xasprintf("%s?fieldManager=%s%s", o->path,
		    DRA_APPLY_FIELD_MANAGER, dry ? "&dryRun=All" : "");
		rc = request(r->c, "PUT", path, "application/json", s->body,
		    out, err);
		break;
	case DRA_RB_RECREATE:
		coll = collection_of(o->path);
		path = xasprintf("%s?fieldManager=%s%s", coll,
		    DRA_APPLY_FIELD_MANAGER, dry ? "&dryRun=All" : "");
		free(coll);
		rc = request(r->c, "POST", path, "application/json", s->body,
		    out, err);
		break;
	case DRA_RB_DELETE:
		/*
		 * With a DeleteOptions body the API server reads the
		 * options from the body only: ?dryRun=All alone would
		 * delete.  Both say it.
		 */
		body = cJSON_Duplicate(s->body, 1);
		if (dry)
			cJSON_AddItemToObject(body, "dryRun",
			    cJSON_CreateStringArray((const char *[]){ "All" },
			    1));
		path = xasprintf("%s%s", o->path, dry ? "?dryRun=All" : "");
		rc = request(r->c, "DELETE", path, "application/json", body,
		    NULL, err);
		cJSON_Delete(body);
		break;
	case DRA_RB_LABELS:
		path = xasprintf("%s?fieldManager=%s%s", o->path,
		    DRA_APPLY_FIELD_MANAGER, dry ? "&dryRun=All" : "");
		rc = request(r->c, "PATCH", path,
		    "application/merge-patch+json", s->body, out, err);
		break;
	default:
		return KUBE_OK;
	}
	free(path);
	return rc;
}

/*
 * After a restoring PUT: the field owners as the backup recorded them.
 * The PUT that changed the values made kubectl-dra their owner; a
 * second PUT that changes no value but managedFields sets them as
 * given (the API server takes a request's managedFields when they
 * differ from the object's).
 */
static int
restore_owners(struct apply_run *r, const struct dra_backup_obj *o,
    const cJSON *now, struct dra_err *err)
{
	const cJSON	*mf;
	cJSON		*body, *meta;
	char		*path;
	int		 rc, tries;

	mf = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(o->object, "metadata"),
	    "managedFields");
	if (!cJSON_IsArray(mf) || now == NULL)
		return KUBE_OK;
	path = xasprintf("%s?fieldManager=%s", o->path,
	    DRA_APPLY_FIELD_MANAGER);
	body = cJSON_Duplicate(now, 1);
	for (tries = 0;; tries++) {
		meta = cJSON_GetObjectItemCaseSensitive(body, "metadata");
		cJSON_DeleteItemFromObjectCaseSensitive(meta,
		    "managedFields");
		cJSON_AddItemToObject(meta, "managedFields",
		    cJSON_Duplicate(mf, 1));
		rc = request(r->c, "PUT", path, "application/json", body,
		    NULL, err);
		if (rc != KUBE_E_CONFLICT || tries == APPLY_TRIES)
			break;
		cJSON_Delete(body);
		if ((rc = get_object(r->c, o->path, &body, err)) != KUBE_OK ||
		    body == NULL)
			break;
	}
	free(path);
	cJSON_Delete(body);
	return rc;
}

static const char *
rollback_verb(enum dra_rollback_action a)
{
	switch (a) {
	case DRA_RB_RESTORE:
		return "restored";
	case DRA_RB_RECREATE:
		return "re-created";
	case DRA_RB_DELETE:
		return "deleted";
	case DRA_RB_LABELS:
		return "labels restored";
	case DRA_RB_KEEP:
		return "left alone";
	case DRA_RB_NOTHING:
		break;
	}
	return "unchanged";
}

static enum dra_ret
run_rollback(struct apply_run *r)
{
	struct dra_ctx			*ctx = r->ctx;
	struct dra_backup		 bk;
	struct dra_rollback_step	*steps = NULL;
	struct obj_state		*st = NULL;
	struct dra_err			 err;
	enum dra_ret			 ret = DRA_RET_OK;
	cJSON				*doc = NULL, *res;
	struct sigaction		 old[3];
	char				 name[600], fname[600], tmpl[2][64];
	size_t				 i, k, nbad = 0, ndone = 0;
	size_t				 nchange = 0, nours = 0;
	char				*drift, *note;
	int				 rc, diffs = 0, stopped = 0, tries;

	memset(&bk, 0, sizeof bk);
	if ((ret = read_doc(r->file, "backup", &doc)) != DRA_RET_OK)
		return ret;
	if (dra_backup_decode(doc, &bk, &err) != KUBE_OK) {
		ret = dra_error("%s: %s; nothing was changed",
		    file_name(r->file), err.msg);
		goto out;
	}
	if ((r->c = dra_client_new(ctx, NULL, NULL, &err)) == NULL) {
		ret = dra_error("%s", err.msg);
		goto out;
	}
	if (strcmp(bk.server, kube_client_server(r->c)) != 0) {
		ret = dra_error("%s: the backup was taken on the server %s; "
		    "the current context talks to %s; nothing was changed "
		    "(choose its context with --context)", r->file, bk.server,
		    kube_client_server(r->c));
		goto out;
	}
	steps = xcalloc(bk.n + 1, sizeof *steps);
	st = xcalloc(bk.n + 1, sizeof *st);
	/* Reverse apply order: node labels first, classes last. */
	for (k = bk.n; k-- > 0;) {
		rc = get_object(r->c, bk.v[k].path, &st[k].live, &err);
		if (rc == KUBE_OK) {
			dra_rollback_step(&bk.v[k], st[k].live, &steps[k]);
			rc = rollback_send(r, &bk.v[k], &steps[k], 1,
			    &st[k].result, &err);
		}
		if (rc != KUBE_OK) {
			set_problem(&st[k], &err);
			nbad++;
		}
	}
	if (r->dry && !r->json && !r->yaml) {
		snprintf(tmpl[0], sizeof tmpl[0], "%s/LIVE-XXXXXX",
		    getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
		snprintf(tmpl[1], sizeof tmpl[1], "%s/MERGED-XXXXXX",
		    getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
		if (mkdtemp(tmpl[0]) == NULL || mkdtemp(tmpl[1]) == NULL) {
			ret = dra_error("cannot make a directory for the "
			    "diff: %s", strerror(errno));
			goto out;
		}
		for (k = bk.n; k-- > 0;) {
			if (st[k].msg != NULL ||
			    steps[k].action == DRA_RB_NOTHING ||
			    steps[k].action == DRA_RB_KEEP)
				continue;
			dra_apply_diff_name(bk.v[k].api_version, bk.v[k].kind,
			    bk.v[k].ns, bk.v[k].name, fname, sizeof fname);
			if ((st[k].live != NULL && write_diff(tmpl[0], fname,
			    st[k].live) != 0) || (st[k].result != NULL &&
			    steps[k].action != DRA_RB_DELETE &&
			    write_diff(tmpl[1], fname, st[k].result) != 0))
				dra_warning("cannot write the diff of %s",
				    bk.v[k].display);
			diffs++;
		}
		if (diffs > 0)
			run_diff(r, tmpl[0], tmpl[1]);
		remove_dir(tmpl[0]);
		remove_dir(tmpl[1]);
	}
	for (k = bk.n; k-- > 0;) {
		obj_name(bk.v[k].display, bk.v[k].ns, name, sizeof name);
		if (st[k].msg != NULL) {
			summary_add(r, bk.v[k].kind, bk.v[k].ns, bk.v[k].name,
			    result_name(st[k].result_kind), st[k].msg);
			dra_error("%s: %s%s", name, st[k].result_kind ==
			    ST_FORBIDDEN ? "forbidden: " : "", st[k].msg);
			continue;
		}
		if (steps[k].action != DRA_RB_NOTHING &&
		    steps[k].action != DRA_RB_KEEP)
			nchange++;
		if (steps[k].drift_ours)
			nours++;
		if (!r->dry && steps[k].action != DRA_RB_NOTHING &&
		    steps[k].action != DRA_RB_KEEP)
			continue;
		drift = drift_note(&steps[k]);
		note = NULL;
		if (steps[k].why != NULL || drift != NULL)
			note = xasprintf("%s%s%s", steps[k].why != NULL ?
			    steps[k].why : "", steps[k].why != NULL &&
			    drift != NULL ? "; " : "", drift != NULL ? drift :
			    "");
		summary_add(r, bk.v[k].kind, bk.v[k].ns, bk.v[k].name,
		    rollback_verb(steps[k].action), note);
		if (r->summary == NULL)
			printf("%s %s%s%s%s\n", name,
			    rollback_verb(steps[k].action), steps[k].why ==
			    NULL ? " (dry run)" : "", note != NULL ? ": " : "",
			    note != NULL ? note : "");
		free(drift);
		free(note);
	}
	if (nours > 0)
		dra_warning("%zu object%s of this backup %s changed by a "
		    "later kubectl-dra apply: rolling this backup back undoes "
		    "that apply on %s too; roll the newer backups back first, "
		    "newest first", nours, nours == 1 ? "" : "s", nours == 1 ?
		    "was" : "were", nours == 1 ? "it" : "them");
	if (nbad > 0) {
		ret = dra_error("%zu of %zu objects cannot be rolled back; "
		    "nothing was changed", nbad, bk.n);
		goto out;
	}
	if (r->dry && r->diff_failed) {
		ret = DRA_RET_ERROR;
		goto out;
	}
	if (r->dry) {
		if (r->summary == NULL)
			printf("\nDry run: %zu object%s to put back; nothing "
			    "was changed.\nTo roll back: %s apply --rollback "
			    "%s --yes\n", nchange, nchange == 1 ? "" : "s",
			    ctx->prog, r->file);
		goto out;
	}
	signals_catch(old);
	for (k = bk.n; k-- > 0;) {
		if (steps[k].action == DRA_RB_NOTHING ||
		    steps[k].action == DRA_RB_KEEP)
			continue;
		obj_name(bk.v[k].display, bk.v[k].ns, name, sizeof name);
		if (apply_signal != 0) {
			dra_error("interrupted by signal %d",
			    (int)apply_signal);
			stopped = 1;
			break;
		}
		/*
		 * A PUT names the resourceVersion it read: when a
		 * controller wrote in between (a quota's status), read
		 * again and retry, as kubectl's retry on conflict does.
		 */
		for (tries = 0;; tries++) {
			res = NULL;
			rc = rollback_send(r, &bk.v[k], &steps[k], 0, &res,
			    &err);
			/*
			 * The owners as they were: a restored or re-created
			 * object's from the backup, a Node's labels'
			 * (never kubectl-dra through Update).
			 */
			if (rc == KUBE_OK && (steps[k].action ==
			    DRA_RB_RESTORE || steps[k].action ==
			    DRA_RB_RECREATE))
				rc = restore_owners(r, &bk.v[k], res, &err);
			else if (rc == KUBE_OK && steps[k].action ==
			    DRA_RB_LABELS)
				rc = owner_send(r, bk.v[k].path, res,
				    mk_label_owners, &bk.v[k], NULL, &err);
			cJSON_Delete(res);
			if (rc != KUBE_E_CONFLICT || tries == APPLY_TRIES ||
			    steps[k].action != DRA_RB_RESTORE)
				break;
			cJSON_Delete(st[k].live);
			if ((rc = get_object(r->c, bk.v[k].path, &st[k].live,
			    &err)) != KUBE_OK)
				break;
			dra_rollback_step_free(&steps[k]);
			dra_rollback_step(&bk.v[k], st[k].live, &steps[k]);
			if (steps[k].action != DRA_RB_RESTORE)
				break;
		}
		if (rc != KUBE_OK) {
			set_problem(&st[k], &err);
			summary_add(r, bk.v[k].kind, bk.v[k].ns, bk.v[k].name,
			    result_name(st[k].result_kind), st[k].msg);
			dra_error("%s: %s", name, st[k].msg);
			stopped = 1;
			break;
		}
		st[k].verb = rollback_verb(steps[k].action);
		ndone++;
		drift = drift_note(&steps[k]);
		summary_add(r, bk.v[k].kind, bk.v[k].ns, bk.v[k].name,
		    st[k].verb, drift);
		if (r->summary == NULL)
			printf("%s %s%s%s\n", name, st[k].verb, drift != NULL ?
			    ": " : "", drift != NULL ? drift : "");
		free(drift);
	}
	signals_restore(old);
	if (stopped) {
		fprintf(stderr, "Rollback stopped after %zu of %zu changes:\n",
		    ndone, nchange);
		for (i = bk.n; i-- > 0;) {
			if (steps[i].action == DRA_RB_NOTHING ||
			    steps[i].action == DRA_RB_KEEP)
				continue;
			obj_name(bk.v[i].display, bk.v[i].ns, name,
			    sizeof name);
			fprintf(stderr, "  %-15s  %s\n", st[i].verb != NULL ?
			    st[i].verb : "not rolled back", name);
			if (st[i].verb == NULL && st[i].msg == NULL)
				summary_add(r, bk.v[i].kind, bk.v[i].ns,
				    bk.v[i].name, "not-rolled-back", NULL);
		}
		fprintf(stderr, "Run it again to finish (what is already as "
		    "before is left as it is):\n  %s apply --rollback %s "
		    "--yes\n", ctx->prog, r->file);
		ret = DRA_RET_ERROR;
	}

out:
	for (i = 0; st != NULL && i < bk.n; i++) {
		cJSON_Delete(st[i].live);
		cJSON_Delete(st[i].result);
		free(st[i].msg);
		dra_rollback_step_free(&steps[i]);
	}
	free(st);
	free(steps);
	dra_backup_free(&bk);
	cJSON_Delete(doc);
	return ret;
}

static enum dra_ret
cmd_apply_exec(struct dra_ctx *ctx, struct dra_args *args)
{
	struct apply_run	 r;
	const struct dra_opts	*o = &ctx->opts;
	enum dra_ret		 ret;

	if (args->argc > 0)
		return dra_usage_error(ctx, ctx->cmd, "unexpected argument "
		    "\"%s\": the plan is given with -f FILE", args->argv[0]);
	if (o->filename == NULL && o->rollback == NULL)
		return dra_usage_error(ctx, ctx->cmd, "-f PLAN or --rollback "
		    "BACKUP is required");
	if (o->filename != NULL && o->rollback != NULL)
		return dra_usage_error(ctx, ctx->cmd, "-f and --rollback "
		    "exclude each other: apply a plan or roll one back");
	if (o->rollback != NULL && (o->backup != NULL ||
	    o->force_conflicts))
		return dra_usage_error(ctx, ctx->cmd, "--%s applies to -f "
		    "PLAN, not to --rollback", o->backup != NULL ? "backup" :
		    "force-conflicts");
	if (o->backup != NULL && !o->yes)
		return dra_usage_error(ctx, ctx->cmd, "--backup needs --yes "
		    "(a preview changes nothing and writes no backup)");
	if (o->from != NULL)
		return dra_usage_error(ctx, ctx->cmd, "--from does not apply: "
		    "apply reads and changes the cluster itself");
	if (o->namespace != NULL || o->all_namespaces)
		return dra_usage_error(ctx, ctx->cmd, "%s does not apply: the "
		    "plan names the namespace of each object",
		    o->all_namespaces ? "-A" : "-n");
	if (o->output != NULL && strcmp(o->output, "json") != 0 &&
	    strcmp(o->output, "yaml") != 0)
		return dra_usage_error(ctx, ctx->cmd, "unknown output format "
		    "\"%s\" for apply: use json or yaml (a summary)",
		    o->output);
	memset(&r, 0, sizeof r);
	r.ctx = ctx;
	r.dry = !o->yes;
	r.json = o->output != NULL && strcmp(o->output, "json") == 0;
	r.yaml = o->output != NULL && strcmp(o->output, "yaml") == 0;
	r.file = o->rollback != NULL ? o->rollback : o->filename;
	r.backup = o->backup;
	if (r.json || r.yaml) {
		r.summary = cJSON_CreateObject();
		cJSON_AddStringToObject(r.summary, "apiVersion",
		    DRA_APPLY_BACKUP_API);
		cJSON_AddStringToObject(r.summary, "kind", o->rollback !=
		    NULL ? "RollbackResult" : "ApplyResult");
		cJSON_AddStringToObject(r.summary, o->rollback != NULL ?
		    "backup" : "plan", r.file);
		cJSON_AddBoolToObject(r.summary, "dryRun", r.dry);
		cJSON_AddArrayToObject(r.summary, "objects");
	}
	ret = o->rollback != NULL ? run_rollback(&r) : run_apply(&r);
	ret = summary_print(&r, ret);
	kube_client_free(r.c);
	return ret;
}

#else /* !DRA_HAVE_CLIENT */

static enum dra_ret
cmd_apply_exec(struct dra_ctx *ctx, struct dra_args *args)
{
	(void)ctx;
	(void)args;
	return dra_error("this build has no cluster client: apply needs one");
}

#endif

const struct dra_cmd dra_cmd_apply = {
	"apply", NULL,
	"apply a plan's manifests safely (preview, backup, rollback)",
	"-f PLAN [--yes] [--backup FILE] [--force-conflicts] | "
	"--rollback BACKUP [--yes]",
	cmd_apply_help,
	cmd_apply_flags,
	0,
	cmd_apply_exec
};
