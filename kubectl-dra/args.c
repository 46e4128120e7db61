/*
 * args.c: kubectl-style flag parsing (spf13/pflag as kubectl uses it).
 *
 * kubectl hands a plugin its words unchanged, so the plugin parses the
 * global flags itself: "--flag=value", "--flag value", "-n value",
 * "-nvalue", "-n=value", short booleans combined ("-Ah"), flags before
 * and after positionals, and "--" to end flags.  Booleans accept
 * "--flag=true|false".  One table describes the flags, so usage text,
 * completion and the parser agree.
 */
#include "dra.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xmalloc.h"
#ifdef DRA_HAVE_CLIENT
#include "client.h"
#endif

const struct dra_flag dra_global_flags[] = {
	{ "all-namespaces", 'A', 0, DRA_F_ALL_NAMESPACES, "",
	    "list the requested objects across all namespaces" },
	{ "as", 0, 1, DRA_F_AS, "USER",
	    "username to impersonate for the operation" },
	{ "as-group", 0, 1, DRA_F_AS_GROUP, "GROUP",
	    "group to impersonate (repeatable)" },
	{ "as-uid", 0, 1, DRA_F_AS_UID, "UID", "UID to impersonate" },
	{ "certificate-authority", 0, 1, DRA_F_CA, "FILE",
	    "path to a cert file for the certificate authority" },
	{ "client-certificate", 0, 1, DRA_F_CLIENT_CERT, "FILE",
	    "path to a client certificate file for TLS" },
	{ "client-key", 0, 1, DRA_F_CLIENT_KEY, "FILE",
	    "path to a client key file for TLS" },
	{ "cluster", 0, 1, DRA_F_CLUSTER, "NAME",
	    "the name of the kubeconfig cluster to use" },
	{ "context", 0, 1, DRA_F_CONTEXT, "NAME",
	    "the name of the kubeconfig context to use" },
	{ "dra-api-version", 0, 1, DRA_F_DRA_API_VERSION, "VERSION",
	    "read resource.k8s.io in this version (v1, v1beta2, v1beta1) "
	    "instead of the newest served" },
	{ "from", 0, 1, DRA_F_FROM, "FILE",
	    "read objects from FILE (kubectl get -o yaml|json output or a "
	    "snapshot; - for stdin) instead of the cluster" },
	{ "help", 'h', 0, DRA_F_HELP, "", "help for the command" },
	{ "insecure-skip-tls-verify", 0, 0, DRA_F_INSECURE, "",
	    "do not check the server's certificate (insecure)" },
	{ "kubeconfig", 0, 1, DRA_F_KUBECONFIG, "FILE",
	    "path to the kubeconfig file to use" },
	{ "namespace", 'n', 1, DRA_F_NAMESPACE, "NS",
	    "the namespace scope for this request" },
	{ "no-headers", 0, 0, DRA_F_NO_HEADERS, "",
	    "do not print headers in table output" },
	{ "output", 'o', 1, DRA_F_OUTPUT, "FORMAT",
	    "output format: wide, name, json or yaml" },
	{ "password", 0, 1, DRA_F_PASSWORD, "PASSWORD",
	    "password for basic authentication" },
	{ "request-timeout", 0, 1, DRA_F_REQUEST_TIMEOUT, "DURATION",
	    "time to wait for one request (1s, 2m, 3h; 0 waits forever)" },
	{ "selector", 'l', 1, DRA_F_SELECTOR, "SELECTOR",
	    "label selector to filter on (a=b, a!=b, a in (x,y), !a)" },
	{ "server", 's', 1, DRA_F_SERVER, "URL",
	    "the address and port of the Kubernetes API server" },
	{ "tls-server-name", 0, 1, DRA_F_TLS_SERVER_NAME, "NAME",
	    "server name for certificate validation" },
	{ "token", 0, 1, DRA_F_TOKEN, "TOKEN",
	    "bearer token for authentication to the API server" },
	{ "user", 0, 1, DRA_F_USER, "NAME",
	    "the name of the kubeconfig user to use" },
	{ "username", 0, 1, DRA_F_USERNAME, "NAME",
	    "username for basic authentication" },
	{ "v", 'v', 1, DRA_F_VERBOSE, "N",
	    "log level: 6 logs requests, 8 headers, 9 bodies" },
	{ NULL, 0, 0, 0, NULL, NULL }
};

static const struct dra_flag *
flag_in(const struct dra_flag *tab, const char *name, size_t len,
    int short_name)
{
	size_t	i;

	if (tab == NULL)
		return NULL;
	for (i = 0; tab[i].name != NULL; i++) {
		if (short_name != 0) {
			if (tab[i].short_name == short_name)
				return &tab[i];
		} else if (strlen(tab[i].name) == len &&
		    strncmp(tab[i].name, name, len) == 0)
			return &tab[i];
	}
	return NULL;
}

static const struct dra_flag *
flag_find(const struct dra_cmd *cmd, const char *name, size_t len,
    int short_name)
{
	const struct dra_flag	*f;
	size_t			 i;

	f = flag_in(cmd != NULL ? cmd->flags : NULL, name, len, short_name);
	if (f != NULL)
		return f;
	f = flag_in(dra_global_flags, name, len, short_name);
	if (f != NULL || cmd != NULL)
		return f;
	/* No command yet: any command's flag. */
	for (i = 0; dra_cmd_table[i] != NULL; i++) {
		f = flag_in(dra_cmd_table[i]->flags, name, len, short_name);
		if (f != NULL)
			return f;
	}
	return NULL;
}

const struct dra_flag *
dra_flag_lookup(const struct dra_cmd *cmd, const char *word)
{
	const char	*eq;

	if (word[0] != '-' || word[1] == '\0')
		return NULL;
	if (word[1] == '-') {
		eq = strchr(word + 2, '=');
		return flag_find(cmd, word + 2, eq != NULL ?
		    (size_t)(eq - word - 2) : strlen(word + 2), 0);
	}
	return flag_find(cmd, NULL, 0, (unsigned char)word[1]);
}

static int
parse_bool(const char *v, int *out)
{
	if (strcasecmp(v, "true") == 0 || strcmp(v, "1") == 0 ||
	    strcasecmp(v, "t") == 0)
		*out = 1;
	else if (strcasecmp(v, "false") == 0 || strcmp(v, "0") == 0 ||
	    strcasecmp(v, "f") == 0)
		*out = 0;
	else
		return -1;
	return 0;
}

static int
set_flag(const struct dra_flag *f, const char *value, struct dra_opts *o,
    struct dra_err *err)
{
	char	*end;
	long	 v, ms;
	int	 b = 1;

	if (!f->has_arg && value != NULL && parse_bool(value, &b) != 0)
		return dra_err_set(err, KUBE_E_CONFIG, "invalid argument "
		    "\"%s\" for \"--%s\" flag: expected true or false", value,
		    f->name);
	if (f->has_arg && value == NULL)
		return dra_err_set(err, KUBE_E_CONFIG,
		    "flag needs an argument: --%s", f->name);
	if (value == NULL)
		value = "";	/* a boolean flag: only b is read */
	switch (f->id) {
	case DRA_F_KUBECONFIG:
		o->kubeconfig = value;
		break;
	case DRA_F_CONTEXT:
		o->context = value;
		break;
	case DRA_F_CLUSTER:
		o->cluster = value;
		break;
	case DRA_F_USER:
		o->user = value;
		break;
	case DRA_F_NAMESPACE:
		if (*value == '\0')
			return dra_err_set(err, KUBE_E_CONFIG,
			    "--namespace must not be empty");
		o->namespace = value;
		break;
	case DRA_F_ALL_NAMESPACES:
		o->all_namespaces = b;
		break;
	case DRA_F_SELECTOR:
		o->selector = value;
		break;
	case DRA_F_OUTPUT:
		o->output = value;
		break;
	case DRA_F_NO_HEADERS:
		o->no_headers = b;
		break;
	case DRA_F_DRA_API_VERSION:
		if (strcmp(value, "v1") != 0 && strcmp(value, "v1beta2") != 0 &&
		    strcmp(value, "v1beta1") != 0)
			return dra_err_set(err, KUBE_E_CONFIG, "invalid "
			    "argument \"%s\" for \"--dra-api-version\" flag: "
			    "expected v1, v1beta2 or v1beta1", value);
		o->dra_api_version = value;
		break;
	case DRA_F_FROM:
		if (*value == '\0')
			return dra_err_set(err, KUBE_E_CONFIG,
			    "--from must name a file");
		o->from = value;
		break;
	case DRA_F_VERBOSE:
		v = strtol(value, &end, 10);
		if (*value == '\0' || *end != '\0' || v < 0 || v > 99)
			return dra_err_set(err, KUBE_E_CONFIG, "invalid "
			    "argument \"%s\" for \"-v, --v\" flag: expected "
			    "a level from 0 to 99", value);
		o->verbosity = (int)v;
		break;
	case DRA_F_REQUEST_TIMEOUT:
#ifdef DRA_HAVE_CLIENT
		if (kube_parse_timeout(value, &ms, err) != KUBE_OK)
			return KUBE_E_CONFIG;
#endif
		o->request_timeout = value;
		break;
	case DRA_F_SERVER:
		o->server = value;
		break;
	case DRA_F_TOKEN:
		o->token = value;
		break;
	case DRA_F_INSECURE:
		o->insecure = b;
		break;
	case DRA_F_CA:
		o->ca = value;
		break;
	case DRA_F_TLS_SERVER_NAME:
		o->tls_server_name = value;
		break;
	case DRA_F_CLIENT_CERT:
		o->client_cert = value;
		break;
	case DRA_F_CLIENT_KEY:
		o->client_key = value;
		break;
	case DRA_F_USERNAME:
		o->username = value;
		break;
	case DRA_F_PASSWORD:
		o->password = value;
		break;
	case DRA_F_AS:
		o->as = value;
		break;
	case DRA_F_AS_GROUP:
		if (o->nas_groups == DRA_MAX_AS_GROUPS)
			return dra_err_set(err, KUBE_E_CONFIG,
			    "too many --as-group flags (at most %d)",
			    DRA_MAX_AS_GROUPS);
		o->as_groups[o->nas_groups++] = value;
		break;
	case DRA_F_AS_UID:
		o->as_uid = value;
		break;
	case DRA_F_HELP:
		o->help = b;
		break;
	case DRA_F_FORMAT:
		o->format = value;
		break;
	case DRA_F_CLIENT:
		o->client_only = b;
		break;
	case DRA_F_NODE:
		o->node = value;
		break;
	case DRA_F_WHAT_IF:
		o->what_if = value;
		break;
	case DRA_F_DEMAND:
		o->demand = value;
		break;
	case DRA_F_FLEET:
		o->fleet = value;
		break;
	case DRA_F_MIG:
		o->mig = value;
		break;
	case DRA_F_TIME_LIMIT:
		o->time_limit = value;
		break;
	case DRA_F_GAP:
		o->gap = value;
		break;
	case DRA_F_BASELINE:
		o->baseline = value;
		break;
	case DRA_F_VERIFY:
		o->verify = b ? 1 : 0;
		break;
	case DRA_F_NO_VERIFY:
		o->verify = b ? -1 : 0;
		break;
	case DRA_F_PLAN:
		if (*value == '\0')
			return dra_err_set(err, KUBE_E_CONFIG,
			    "--plan must name a file");
		o->plan = value;
		break;
	case DRA_F_NO_COLOR:
		o->no_color = b;
		break;
	case DRA_F_MOUSE:
		o->mouse = b;
		break;
	case DRA_F_FILENAME:
		if (*value == '\0')
			return dra_err_set(err, KUBE_E_CONFIG,
			    "-f must name a file");
		o->filename = value;
		break;
	case DRA_F_YES:
		o->yes = b;
		break;
	case DRA_F_ROLLBACK:
		if (*value == '\0')
			return dra_err_set(err, KUBE_E_CONFIG,
			    "--rollback must name a backup file");
		o->rollback = value;
		break;
	case DRA_F_BACKUP:
		if (*value == '\0')
			return dra_err_set(err, KUBE_E_CONFIG,
			    "--backup must name a file");
		o->backup = value;
		break;
	case DRA_F_FORCE_CONFLICTS:
		o->force_conflicts = b;
		break;
	case DRA_F_PENDING_THRESHOLD:
		o->pending_threshold = value;
		break;
	case DRA_F_SORT:
		o->sort = value;
		break;
	}
	return KUBE_OK;
}

/*
 * Handle the flag word argv[*i]; *i moves past a separate value.  With
 * o NULL nothing is stored (used to find the command word).
 */
static int
one_flag(const struct dra_cmd *cmd, int argc, char **argv, int *i,
    struct dra_opts *o, struct dra_err *err)
{
	const struct dra_flag	*f;
	const char		*w = argv[*i], *eq, *value;
	struct dra_opts		 scratch;
	size_t			 k;
	int			 rc;

	if (o == NULL) {
		memset(&scratch, 0, sizeof scratch);
		o = &scratch;
	}
	if (w[1] == '-') {
		eq = strchr(w + 2, '=');
		f = flag_find(cmd, w + 2, eq != NULL ? (size_t)(eq - w - 2) :
		    strlen(w + 2), 0);
		if (f == NULL)
			return dra_err_set(err, KUBE_E_CONFIG,
			    "unknown flag: --%.*s", eq != NULL ?
			    (int)(eq - w - 2) : (int)strlen(w + 2), w + 2);
		if (!f->has_arg)
			return set_flag(f, eq != NULL ? eq + 1 : NULL, o, err);
		if (eq != NULL)
			value = eq + 1;
		else if (*i + 1 < argc)
			value = argv[++*i];
		else
			return dra_err_set(err, KUBE_E_CONFIG,
			    "flag needs an argument: --%s", f->name);
		return set_flag(f, value, o, err);
	}
	/* Short flags, possibly combined: -Ah, -nfoo, -n=foo, -n foo. */
	for (k = 1; w[k] != '\0'; k++) {
		f = flag_find(cmd, NULL, 0, (unsigned char)w[k]);
		if (f == NULL)
			return dra_err_set(err, KUBE_E_CONFIG,
			    "unknown shorthand flag: '%c' in %s", w[k], w);
		if (!f->has_arg) {
			if (w[k + 1] == '=')
				return set_flag(f, w + k + 2, o, err);
			rc = set_flag(f, NULL, o, err);
			if (rc != KUBE_OK)
				return rc;
			continue;
		}
		if (w[k + 1] == '=')
			value = w + k + 2;
		else if (w[k + 1] != '\0')
			value = w + k + 1;
		else if (*i + 1 < argc)
			value = argv[++*i];
		else
			return dra_err_set(err, KUBE_E_CONFIG,
			    "flag needs an argument: '%c' in -%c", w[k], w[k]);
		return set_flag(f, value, o, err);
	}
	return KUBE_OK;
}

int
dra_args_command_index(int argc, char **argv)
{
	int	i;

	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			return i + 1 < argc ? i + 1 : -1;
		if (argv[i][0] != '-' || argv[i][1] == '\0')
			return i;
		/* Unknown flags are reported later, by the real parse. */
		(void)one_flag(NULL, argc, argv, &i, NULL, NULL);
	}
	return -1;
}

int
dra_args_parse(int argc, char **argv, int cmd_index,
    const struct dra_cmd *cmd, struct dra_opts *opts, struct dra_args *args,
    struct dra_err *err)
{
	int	i, rc, dashdash = 0;

	args->argv = xcalloc((size_t)argc + 1, sizeof *args->argv);
	args->argc = 0;
	for (i = 0; i < argc; i++) {
		if (i == cmd_index)
			continue;
		if (!dashdash && strcmp(argv[i], "--") == 0) {
			dashdash = 1;
			continue;
		}
		if (dashdash || argv[i][0] != '-' || argv[i][1] == '\0') {
			args->argv[args->argc++] = argv[i];
			continue;
		}
		rc = one_flag(cmd, argc, argv, &i, opts, err);
		if (rc != KUBE_OK)
			return rc;
	}
	return KUBE_OK;
}
