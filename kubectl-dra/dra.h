/*
 * dra.h: the kubectl-dra command layer (kubectl-dra/).
 *
 * main.c parses the global flags and dispatches to one command file
 * per subcommand (cmd_<name>.c, each exporting one struct dra_cmd, as
 * tmux's cmd-*.c do); cmd.c holds the sorted table.  Only this layer
 * prints: libraries fill a struct dra_err and the commands turn it
 * into "kubectl-dra: error: ..." on stderr (CONVENTIONS.md b4).
 */
#ifndef DRA_H
#define DRA_H

#include <stdio.h>

#include "err.h"
#include "model.h"
#include "views.h"

struct cJSON;

/* Exit codes (README "Exit codes"). */
enum dra_ret {
	DRA_RET_OK = 0,		/* done */
	DRA_RET_ERROR = 1,	/* the operation failed (API, config, I/O) */
	DRA_RET_USAGE = 2,	/* bad command line */
	DRA_RET_NEGATIVE = 3,	/* the answer is no */
};

/* -o values for listing commands. */
enum dra_output {
	DRA_OUT_TABLE,
	DRA_OUT_WIDE,
	DRA_OUT_NAME,
	DRA_OUT_JSON,
	DRA_OUT_YAML,
};

/* Flag identifiers (args.c). */
enum dra_flag_id {
	DRA_F_KUBECONFIG = 1,
	DRA_F_CONTEXT,
	DRA_F_CLUSTER,
	DRA_F_USER,
	DRA_F_NAMESPACE,
	DRA_F_ALL_NAMESPACES,
	DRA_F_SELECTOR,
	DRA_F_OUTPUT,
	DRA_F_NO_HEADERS,
	DRA_F_FROM,
	DRA_F_DRA_API_VERSION,
	DRA_F_VERBOSE,
	DRA_F_REQUEST_TIMEOUT,
	DRA_F_SERVER,
	DRA_F_TOKEN,
	DRA_F_INSECURE,
	DRA_F_CA,
	DRA_F_TLS_SERVER_NAME,
	DRA_F_CLIENT_CERT,
	DRA_F_CLIENT_KEY,
	DRA_F_USERNAME,
	DRA_F_PASSWORD,
	DRA_F_AS,
	DRA_F_AS_GROUP,
	DRA_F_AS_UID,
	DRA_F_HELP,
	/* Command flags. */
	DRA_F_FORMAT,
	DRA_F_CLIENT,
	DRA_F_NODE,
	DRA_F_WHAT_IF,
	DRA_F_DEMAND,
	DRA_F_FLEET,
	DRA_F_MIG,
	DRA_F_TIME_LIMIT,
	DRA_F_GAP,
	DRA_F_BASELINE,
	DRA_F_VERIFY,
	DRA_F_NO_VERIFY,
	DRA_F_PLAN,
	DRA_F_NO_COLOR,
	DRA_F_MOUSE,
	DRA_F_FILENAME,
	DRA_F_YES,
	DRA_F_ROLLBACK,
	DRA_F_BACKUP,
	DRA_F_FORCE_CONFLICTS,
	DRA_F_PENDING_THRESHOLD,
	DRA_F_SORT,
};

/*
 * A flag: long name without "--", one-letter short name or 0, whether
 * it takes a value, its id, the value's name for usage ("" for bool
 * flags) and a one-line help.  Tables end with a NULL name.
 */
struct dra_flag {
	const char	*name;
	int		 short_name;
	int		 has_arg;
	enum dra_flag_id id;
	const char	*arg_name;
	const char	*help;
};

#define DRA_MAX_AS_GROUPS	16

/* Every flag's value after parsing; NULL/0 when not given. */
struct dra_opts {
	const char	*kubeconfig;
	const char	*context;
	const char	*cluster;
	const char	*user;
	const char	*namespace;
	int		 all_namespaces;
	const char	*selector;
	const char	*output;
	int		 no_headers;
	const char	*from;
	const char	*dra_api_version; /* NULL: the newest served */
	int		 verbosity;
	const char	*request_timeout;
	const char	*server;
	const char	*token;
	int		 insecure;
	const char	*ca;
	const char	*tls_server_name;
	const char	*client_cert;
	const char	*client_key;
	const char	*username;
	const char	*password;
	const char	*as;
	const char	*as_groups[DRA_MAX_AS_GROUPS];
	size_t		 nas_groups;
	const char	*as_uid;
	int		 help;
	const char	*format;	/* snapshot --format */
	int		 client_only;	/* version --client */
	const char	*node;		/* why --node */
	const char	*what_if;	/* why --what-if FILE */
	const char	*demand;	/* plan --demand FILE */
	const char	*fleet;		/* plan --fleet SPEC */
	const char	*mig;		/* plan --mig dynamic|static */
	const char	*time_limit;	/* plan --time-limit DURATION */
	const char	*gap;		/* plan --gap FRACTION */
	const char	*baseline;	/* plan --baseline ORDERS */
	int		 verify;	/* plan --verify: 1, --no-verify: -1 */
	/* cmd_ui.c */
	const char	*plan;		/* ui --plan FILE */
	int		 no_color;	/* ui --no-color */
	int		 mouse;		/* ui --mouse */
	/* cmd_apply.c */
	const char	*filename;	/* apply -f FILE (the Plan) */
	int		 yes;		/* apply --yes: act, not preview */
	const char	*rollback;	/* apply --rollback FILE */
	const char	*backup;	/* apply --backup FILE */
	int		 force_conflicts; /* apply --force-conflicts */
	/* cmd_doctor.c */
	const char	*pending_threshold; /* doctor --pending-threshold */
	/* cmd_top.c */
	const char	*sort;		/* top --sort COLUMN */
};

/* The positional words after the command name (borrowed from argv). */
struct dra_args {
	char	**argv;
	int	  argc;
};

struct dra_cmd;

/* What every command gets. */
struct dra_ctx {
	const char		*prog;	/* "kubectl dra" or "kubectl-dra" */
	const struct dra_cmd	*cmd;
	struct dra_opts		 opts;
	unsigned		 denied; /* DRA_NEED_* lists refused (403) */
};

/* struct dra_cmd flags. */
#define DRA_CMD_HIDDEN		0x01	/* not in help or completion */
#define DRA_CMD_RAW_ARGS	0x02	/* argv passed unparsed (__complete) */

struct dra_cmd {
	const char		*name;
	const char		*alias;		/* NULL if none */
	const char		*summary;	/* one line, for help */
	const char		*usage;		/* after "kubectl dra NAME " */
	const char		*help;		/* longer text, examples */
	const struct dra_flag	*flags;		/* own flags, or NULL */
	int			 cmd_flags;	/* DRA_CMD_* */
	enum dra_ret		(*exec)(struct dra_ctx *, struct dra_args *);
};

/* cmd.c */
extern const struct dra_cmd *const dra_cmd_table[];
extern const struct dra_cmd dra_cmd_apply;
extern const struct dra_cmd dra_cmd_complete;
extern const struct dra_cmd dra_cmd_describe;
extern const struct dra_cmd dra_cmd_doctor;
extern const struct dra_cmd dra_cmd_get;
extern const struct dra_cmd dra_cmd_help;
extern const struct dra_cmd dra_cmd_plan;
extern const struct dra_cmd dra_cmd_snapshot;
extern const struct dra_cmd dra_cmd_top;
extern const struct dra_cmd dra_cmd_ui;
extern const struct dra_cmd dra_cmd_version;
extern const struct dra_cmd dra_cmd_why;

/* The command named name (exact name or alias), or NULL. */
const struct dra_cmd *dra_cmd_find(const char *name);

/*
 * Write to f the names of visible commands close to name (a prefix of
 * it, it a prefix of them, or at most 2 edits away), one per line with
 * a tab in front (f NULL: only count).  Returns how many there are.
 */
int	dra_cmd_suggest(FILE *f, const char *name);

/* Print the overall usage (every command) to f. */
void	dra_usage(FILE *f, const char *prog);

/* Print one command's usage, help and flags to f. */
void	dra_cmd_usage(FILE *f, const char *prog, const struct dra_cmd *cmd);

/*
 * Report a usage error: "kubectl-dra: error: MSG" and "See 'PROG CMD
 * --help' for usage." on stderr.  cmd may be NULL.  Returns
 * DRA_RET_USAGE.
 */
enum dra_ret dra_usage_error(const struct dra_ctx *ctx,
	    const struct dra_cmd *cmd, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));

/* main.c */

/* "kubectl-dra: error: MSG" on stderr; returns DRA_RET_ERROR. */
enum dra_ret dra_error(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2)));

/* "Warning: MSG" on stderr. */
void	dra_warning(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2)));

/* args.c */

/* The global flags every command takes (NULL-terminated table). */
extern const struct dra_flag dra_global_flags[];

/*
 * Parse argv[0..argc) (the words after the program name) for cmd:
 * global flags and cmd's own flags anywhere, "--flag=value", "--flag
 * value", "-n value", "-nvalue", "-n=value", combined short booleans
 * ("-Ah"), "--" ending flags.  The command word itself (the first
 * positional, at index cmd_index, -1 when none) is skipped.  Fills
 * *opts and the positionals into *args (args->argv is allocated, the
 * caller frees it; the strings are borrowed from argv).  Returns
 * KUBE_OK or KUBE_E_CONFIG with err naming the flag ("unknown flag:
 * --foo", "flag needs an argument: -n").
 */
int	dra_args_parse(int argc, char **argv, int cmd_index,
	    const struct dra_cmd *cmd, struct dra_opts *opts,
	    struct dra_args *args, struct dra_err *err);

/*
 * The index in argv[0..argc) of the first positional word (the command
 * name), skipping flags and their values as any command would parse
 * them; -1 when there is none.
 */
int	dra_args_command_index(int argc, char **argv);

/* The flag named word ("--name" or "-n"), searching globals then cmd. */
const struct dra_flag *dra_flag_lookup(const struct dra_cmd *cmd,
	    const char *word);

/* output.c */

/* Parse an -o value for listing.  Returns 0, or -1 if unknown. */
int	dra_output_parse(const char *s, enum dra_output *out);

/*
 * Render t like kubectl's tabwriter (columns padded to the widest
 * cell plus 3 spaces, at least 6; headers upper case; no trailing
 * spaces).  Wide columns only when wide; no header line with
 * no_headers.
 */
void	dra_table_print(FILE *f, const struct dra_table *t, int wide,
	    int no_headers);

/* How dra_table_print_styled colours and fits a table. */
struct dra_table_style {
	/*
	 * A colour index per cell (t->nrows * t->ncolumns, row-major;
	 * borrowed) or NULL; colors[i] (ncolors entries) is the escape
	 * sequence written before a cell of index i ("\033[0m" after it,
	 * never around the padding), NULL for none.
	 */
	const unsigned char	*levels;
	const char *const	*colors;
	size_t			 ncolors;
	/*
	 * The terminal's width in columns (0: no limit).  Columns after
	 * the first keep_min that the width cannot hold are left out,
	 * rightmost first, and named in one "Warning:" line on stderr.
	 */
	size_t			 columns;
	size_t			 keep_min;
};

/*
 * dra_table_print with per-cell colours and a width to fit (st NULL:
 * exactly dra_table_print).  Both measure cells in display columns:
 * wcwidth per character in a UTF-8 LC_CTYPE (set once: the user's when
 * it is UTF-8, else C.UTF-8), a byte that does not decode as one.
 */
void	dra_table_print_styled(FILE *f, const struct dra_table *t, int wide,
	    int no_headers, const struct dra_table_style *st);

/*
 * The width of the terminal on stdout (TIOCGWINSZ, else $COLUMNS, else
 * 80), or 0 when stdout is not a terminal: pipes and files get every
 * column, as kubectl prints them.
 */
size_t	dra_terminal_columns(void);

/*
 * Whether stdout gets colours: a terminal, and not --no-color, a
 * non-empty NO_COLOR (no-color.org), TERM unset or "dumb".
 */
int	dra_color_wanted(const struct dra_ctx *ctx);

/*
 * Print the rows of t as -o name, json or yaml: one "kind/name" per
 * line; or a v1 List (one object alone when single is set and there
 * is one row), kubectl's layout (JSON indented by 4 spaces).  Returns
 * DRA_RET_OK or DRA_RET_ERROR after a write error.
 */
enum dra_ret dra_print_objects(FILE *f, const struct kube_snapshot *s,
	    const struct dra_table *t, enum dra_output out, int single);

/*
 * Write a report text (describe, why) to f with every control
 * character but newlines and tabs as '?', so names and messages from
 * the cluster or a file never drive the terminal, as table cells never
 * do (kubectl's printers.EscapeTerminal).
 */
void	dra_print_text(FILE *f, const char *text);

/* Write v as indented JSON (kubectl -o json layout) and a newline. */
void	dra_json_print(FILE *f, const struct cJSON *v);

/*
 * Print the snapshot's warnings to stderr as "Warning: OBJECT:
 * MESSAGE", each distinct one once; at most DRA_MAX_WARNINGS of them
 * and a count of the rest unless all is set (-v 2 or more).
 */
#define DRA_MAX_WARNINGS	50
void	dra_print_warnings(const struct kube_snapshot *s, int all);

/* source.c */

/* What a command needs read (DRA_NEED_*). */
#define DRA_NEED_SLICES		0x001
#define DRA_NEED_CLAIMS		0x002
#define DRA_NEED_TEMPLATES	0x004
#define DRA_NEED_CLASSES	0x008
#define DRA_NEED_TAINT_RULES	0x010
#define DRA_NEED_PODS		0x020
#define DRA_NEED_NODES		0x040
#define DRA_NEED_NAMESPACES	0x080
#define DRA_NEED_QUOTAS		0x100
#define DRA_NEED_ALL		0x1ff
/*
 * With DRA_NEED_PODS: only the pods that may wait for a pending claim
 * are needed (the claims view: reserved pods are named by the claims'
 * reservedFor), so pods are listed only in the namespaces that hold a
 * pending claim, or not at all.
 */
#define DRA_NEED_PODS_PENDING	0x200
/*
 * With DRA_NEED_PODS: only the pods of the command's own namespace (-n,
 * else the kubeconfig context's), whatever namespace the other kinds
 * are listed in (`why pod/NAME` needs every claim but one pod).
 */
#define DRA_NEED_PODS_OWN	0x400

/*
 * Fill a finished snapshot: from --from FILE when given, else live
 * from the cluster (discovery picks v1, v1beta2 or v1beta1; only the
 * kinds in needs are listed; namespaced kinds in namespace, or in all
 * namespaces when namespace is NULL).  A list the user may not read
 * (403) is skipped with one "Warning:" line naming what could not be
 * read.  KUBECTL_DRA_NOW (Unix seconds), when set, replaces the
 * snapshot's clock, for reproducible ages.  ctx->opts.what_if, when
 * set, names a file whose objects are added before the joins are built
 * (hypothetical slices or claims for `why --what-if`).  On success
 * *out is the
 * snapshot (free with kube_snapshot_free); on failure the error has
 * been printed and the exit code is returned.
 */
enum dra_ret dra_source_load(struct dra_ctx *ctx, unsigned needs,
	    const char *namespace, struct kube_snapshot **out);

/*
 * KUBECTL_DRA_NOW (Unix seconds), when set to a positive number,
 * replaces s->now, so ages are reproducible in tests; else s->now is
 * left as it is.
 */
void	dra_source_clock(struct kube_snapshot *s);

/*
 * The namespace a command works in: -n, else the kubeconfig context's
 * (when a cluster client is built in and configured), else "default".
 * Borrowed (static or from opts).
 */
const char *dra_default_namespace(struct dra_ctx *ctx);

/*
 * Server and client facts for `version`: fills buf with the server's
 * gitVersion and served resource.k8s.io versions.  Returns DRA_RET_OK,
 * or DRA_RET_ERROR with the reason in err (not printed).
 */
enum dra_ret dra_source_server_info(struct dra_ctx *ctx, char *git_version,
	    size_t gvlen, char *served, size_t slen, struct dra_err *err);

#endif
