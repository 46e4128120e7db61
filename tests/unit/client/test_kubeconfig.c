/*
 * test_kubeconfig.c: kubeconfig loading, merging, overrides, paths,
 * credentials, in-cluster configuration and validation, table-driven.
 *
 * Every case gets a fresh directory @D holding the same fixture files
 * (plus the case's own extra file), an environment cleared of
 * everything kubeconfig loading reads, and the overrides it lists.  The
 * expectations are "key=value" strings checked against what the client
 * resolved (public accessors and, for credentials and paths, the
 * internal struct kube_config).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client-int.h"
#include "client.h"
#include "tutil.h"
#include "xmalloc.h"

#define A_YAML \
	"apiVersion: v1\n" \
	"kind: Config\n" \
	"current-context: ctx-a\n" \
	"clusters:\n" \
	"- name: shared\n" \
	"  cluster:\n" \
	"    server: https://a.example:6443\n" \
	"    certificate-authority: certs/ca.crt\n" \
	"    tls-server-name: a-name\n" \
	"- name: only-a\n" \
	"  cluster:\n" \
	"    server: https://only-a.example\n" \
	"users:\n" \
	"- name: shared-user\n" \
	"  user:\n" \
	"    token: token-a\n" \
	"contexts:\n" \
	"- name: ctx-a\n" \
	"  context: {cluster: shared, user: shared-user, namespace: ns-a}\n" \
	"- name: ctx-shared\n" \
	"  context: {cluster: only-a, user: shared-user}\n" \
	"- name: ctx-lost-cluster\n" \
	"  context: {cluster: nowhere, user: shared-user}\n" \
	"- name: ctx-lost-user\n" \
	"  context: {cluster: only-a, user: nobody}\n" \
	"- name: ctx-no-cluster\n" \
	"  context: {user: shared-user}\n"

#define B_YAML \
	"current-context: ctx-b\n" \
	"clusters:\n" \
	"- name: shared\n" \
	"  cluster:\n" \
	"    server: https://b.example:6443\n" \
	"    insecure-skip-tls-verify: true\n" \
	"- name: only-b\n" \
	"  cluster: {server: \"http://only-b.example:8080\", " \
	"disable-compression: yes}\n" \
	"users:\n" \
	"- name: shared-user\n" \
	"  user: {username: bob, password: secret-b}\n" \
	"- name: user-b\n" \
	"  user: {tokenFile: tok}\n" \
	"contexts:\n" \
	"- name: ctx-b\n" \
	"  context: {cluster: only-b, user: user-b, namespace: ns-b}\n" \
	"- name: ctx-shared\n" \
	"  context: {cluster: only-b, user: user-b}\n"

#define C_YAML \
	"clusters:\n" \
	"- name: c\n" \
	"  cluster: {server: \"https://c.example\"}\n" \
	"contexts:\n" \
	"- name: ctx-c\n" \
	"  context: {cluster: c}\n"

#define HOME_YAML \
	"current-context: home\n" \
	"clusters: [{name: home, cluster: {server: https://home.example}}]\n" \
	"contexts: [{name: home, context: {cluster: home}}]\n"

#define REL_YAML \
	"current-context: rel\n" \
	"clusters:\n" \
	"- name: rel\n" \
	"  cluster:\n" \
	"    server: https://rel.example\n" \
	"    certificate-authority: ../certs/ca.crt\n" \
	"users:\n" \
	"- name: rel\n" \
	"  user:\n" \
	"    client-certificate: client.crt\n" \
	"    client-key: ./keys/../client.key\n" \
	"- name: tokfile\n" \
	"  user: {tokenFile: ../tok}\n" \
	"- name: abs\n" \
	"  user: {client-certificate: /dev/null, " \
	"client-key: /dev/null}\n" \
	"contexts:\n" \
	"- name: rel\n" \
	"  context: {cluster: rel, user: rel}\n" \
	"- name: tokfile\n" \
	"  context: {cluster: rel, user: tokfile}\n"

#define EXEC_YAML \
	"current-context: x\n" \
	"clusters:\n" \
	"- name: x\n" \
	"  cluster:\n" \
	"    server: https://x.example\n" \
	"users:\n" \
	"- name: rel\n" \
	"  user:\n" \
	"    exec:\n" \
	"      command: ./bin/plugin\n" \
	"      args: [get-token, --verbose]\n" \
	"      env: [{name: A, value: \"1\"}, {name: B, value: two}]\n" \
	"      apiVersion: client.authentication.k8s.io/v1beta1\n" \
	"      installHint: \"\\e[1mInstall it\\e[0m\\nplease\"\n" \
	"      provideClusterInfo: true\n" \
	"- name: bare\n" \
	"  user:\n" \
	"    exec:\n" \
	"      command: gke-gcloud-auth-plugin\n" \
	"      apiVersion: client.authentication.k8s.io/v1\n" \
	"      interactiveMode: Never\n" \
	"contexts:\n" \
	"- name: x\n" \
	"  context: {cluster: x, user: rel}\n" \
	"- name: bare\n" \
	"  context: {cluster: x, user: bare}\n"

/* CA-PEM\n, CERT\n, KEY\n in base64 */
#define DATA_YAML \
	"current-context: d\n" \
	"clusters:\n" \
	"- name: d\n" \
	"  cluster:\n" \
	"    server: 10.1.2.3:6443\n" \
	"    certificate-authority-data: Q0EtUEVNCg==\n" \
	"users:\n" \
	"- name: d\n" \
	"  user:\n" \
	"    client-certificate-data: Q0VSVAo=\n" \
	"    client-key-data: |\n" \
	"      S0VZ\n" \
	"      Cg==\n" \
	"    as: jane\n" \
	"    as-uid: \"42\"\n" \
	"    as-groups: [devs, ops]\n" \
	"    as-user-extra: {reason: [oncall, audit]}\n" \
	"contexts:\n" \
	"- name: d\n" \
	"  context: {cluster: d, user: d, namespace: data-ns}\n"

struct fixture {
	const char	*name;
	const char	*content;
	int		 mode;
};

static const struct fixture fixtures[] = {
	{ "a.yaml", A_YAML, 0600 },
	{ "b.yaml", B_YAML, 0600 },
	{ "c.yaml", C_YAML, 0600 },
	{ "empty.yaml", "", 0600 },
	{ "home/.kube/config", HOME_YAML, 0600 },
	{ "certs/ca.crt", "-----BEGIN CERTIFICATE-----\nMIIB\n"
	    "-----END CERTIFICATE-----\n", 0600 },
	{ "tok", "  file-token\n", 0600 },
	{ "sub/config", REL_YAML, 0600 },
	{ "sub/client.crt", "CERT\n", 0600 },
	{ "sub/client.key", "KEY\n", 0600 },
	{ "sub/exec.yaml", EXEC_YAML, 0600 },
	{ "data.yaml", DATA_YAML, 0600 },
	{ "sa/token", "sa-token\n", 0600 },
	{ "sa/ca.crt", "SA-CA\n", 0600 },
	{ "sa/namespace", "  kube-ns \n", 0600 },
	{ NULL, NULL, 0 }
};

struct kc_case {
	const char	*name;
	const char	*extra_name;	/* one more file for this case */
	const char	*extra;
	const char	*env[4];	/* "NAME=value", @D expanded */
	const char	*kubeconfig_env; /* KUBECONFIG, or NULL to unset */
	const char	*cwd;		/* chdir here first (@D) */
	const char	*remove;	/* fixture file to delete */
	/* overrides, @D expanded */
	const char	*kubeconfig;
	const char	*context;
	const char	*cluster;
	const char	*user;
	const char	*ns;
	const char	*server;
	const char	*tls_server_name;
	const char	*ca;
	int		 insecure;
	const char	*token;
	const char	*username;
	const char	*password;
	const char	*as;
	const char	*as_group;
	int		 rc;
	const char	*err[4];	/* substrings of the message */
	const char	*not_in_err;	/* must not appear in the message */
	const char	*want[20];	/* "key=value" */
};

/* The resolved value of key as text (caller frees). */
static char *
field(struct kube_client *c, const char *key)
{
	const struct kube_config	*cfg = &c->cfg;
	struct dra_buf			 b;
	size_t				 i, j, n;
	const char *const		*files;

	dra_buf_init(&b, 1 << 20);
#define S(v) dra_buf_adds(&b, (v) != NULL ? (v) : "(null)")
	if (strcmp(key, "context") == 0)
		S(kube_client_context(c));
	else if (strcmp(key, "cluster") == 0)
		S(kube_client_cluster_name(c));
	else if (strcmp(key, "user") == 0)
		S(kube_client_user_name(c));
	else if (strcmp(key, "namespace") == 0)
		S(kube_client_namespace(c));
	else if (strcmp(key, "server") == 0)
		S(kube_client_server(c));
	else if (strcmp(key, "auth") == 0)
		S(kube_client_auth_kind(c));
	else if (strcmp(key, "insecure") == 0)
		dra_buf_addf(&b, "%d", kube_client_insecure(c));
	else if (strcmp(key, "in_cluster") == 0)
		dra_buf_addf(&b, "%d", kube_client_in_cluster(c));
	else if (strcmp(key, "files") == 0) {
		files = kube_client_files(c, &n);
		for (i = 0; i < n; i++)
			dra_buf_addf(&b, "%s%s", i ? "," : "", files[i]);
	} else if (strcmp(key, "token") == 0)
		S(cfg->token);
	else if (strcmp(key, "token_file") == 0)
		S(cfg->token_file);
	else if (strcmp(key, "ca_file") == 0)
		S(cfg->ca_file);
	else if (strcmp(key, "ca_data") == 0)
		S((const char *)cfg->ca_data);
	else if (strcmp(key, "cert_file") == 0)
		S(cfg->cert_file);
	else if (strcmp(key, "cert_data") == 0)
		S((const char *)cfg->cert_data);
	else if (strcmp(key, "key_file") == 0)
		S(cfg->key_file);
	else if (strcmp(key, "key_data") == 0)
		S((const char *)cfg->key_data);
	else if (strcmp(key, "username") == 0)
		S(cfg->username);
	else if (strcmp(key, "password") == 0)
		S(cfg->password);
	else if (strcmp(key, "tls_server_name") == 0)
		S(cfg->tls_server_name);
	else if (strcmp(key, "proxy_url") == 0)
		S(cfg->proxy_url);
	else if (strcmp(key, "disable_compression") == 0)
		dra_buf_addf(&b, "%d", cfg->disable_compression);
	else if (strcmp(key, "as") == 0)
		S(cfg->as);
	else if (strcmp(key, "as_uid") == 0)
		S(cfg->as_uid);
	else if (strcmp(key, "as_groups") == 0) {
		for (i = 0; i < cfg->n_as_groups; i++)
			dra_buf_addf(&b, "%s%s", i ? "," : "",
			    cfg->as_groups[i]);
	} else if (strcmp(key, "as_extra") == 0) {
		for (i = 0; i < cfg->n_as_extra; i++) {
			dra_buf_addf(&b, "%s%s=", i ? ";" : "",
			    cfg->as_extra[i].key);
			for (j = 0; j < cfg->as_extra[i].n; j++)
				dra_buf_addf(&b, "%s%s", j ? "|" : "",
				    cfg->as_extra[i].values[j]);
		}
	} else if (strcmp(key, "exec_command") == 0)
		S(cfg->exec != NULL ? cfg->exec->command : NULL);
	else if (strcmp(key, "exec_args") == 0) {
		for (i = 0; cfg->exec != NULL && i < cfg->exec->nargs; i++)
			dra_buf_addf(&b, "%s%s", i ? "," : "",
			    cfg->exec->args[i]);
	} else if (strcmp(key, "exec_env") == 0) {
		for (i = 0; cfg->exec != NULL && i < cfg->exec->nenv; i++)
			dra_buf_addf(&b, "%s%s=%s", i ? "," : "",
			    cfg->exec->env[i].name, cfg->exec->env[i].value);
	} else if (strcmp(key, "exec_mode") == 0)
		S(cfg->exec != NULL ? cfg->exec->interactive_mode : NULL);
	else if (strcmp(key, "exec_hint") == 0)
		S(cfg->exec != NULL ? cfg->exec->install_hint : NULL);
	else if (strcmp(key, "exec_cluster_info") == 0)
		dra_buf_addf(&b, "%d", cfg->exec != NULL ?
		    cfg->exec->provide_cluster_info : -1);
	else
		fail_msg("unknown key %s", key);
#undef S
	return dra_buf_take(&b);
}

static const struct kc_case cases[] = {
	/* KUBECONFIG merging (loader.go) */
	{ .name = "first file wins whole entries",
	  .kubeconfig_env = "@D/a.yaml:@D/b.yaml",
	  .want = { "context=ctx-a", "cluster=shared", "user=shared-user",
	    "namespace=ns-a", "server=https://a.example:6443", "insecure=0",
	    "auth=token", "token=token-a", "username=(null)",
	    "ca_file=@D/certs/ca.crt", "tls_server_name=a-name",
	    "files=@D/a.yaml,@D/b.yaml" } },
	{ .name = "reverse order: b wins",
	  .kubeconfig_env = "@D/b.yaml:@D/a.yaml",
	  .want = { "context=ctx-b", "cluster=only-b", "user=user-b",
	    "namespace=ns-b", "server=http://only-b.example:8080",
	    "auth=token-file", "token_file=@D/tok", "disable_compression=1",
	    "files=@D/b.yaml,@D/a.yaml" } },
	{ .name = "shared name from b: whole entry, no field mixing",
	  .kubeconfig_env = "@D/b.yaml:@D/a.yaml", .context = "ctx-a",
	  .want = { "cluster=shared", "server=https://b.example:6443",
	    "insecure=1", "ca_file=(null)", "tls_server_name=(null)",
	    "auth=basic", "username=bob", "password=secret-b",
	    "token=(null)", "namespace=ns-a" } },
	{ .name = "current-context from the first file setting it",
	  .kubeconfig_env = "@D/c.yaml:@D/empty.yaml:@D/b.yaml:@D/a.yaml",
	  .want = { "context=ctx-b", "files=@D/c.yaml,@D/empty.yaml,"
	    "@D/b.yaml,@D/a.yaml" } },
	{ .name = "duplicates and empty entries dropped",
	  .kubeconfig_env = "@D/a.yaml::@D/a.yaml:@D/b.yaml:@D/a.yaml:",
	  .want = { "context=ctx-a", "files=@D/a.yaml,@D/b.yaml" } },
	{ .name = "missing files skipped",
	  .kubeconfig_env = "@D/missing.yaml:@D/b.yaml:@D/gone",
	  .want = { "context=ctx-b", "files=@D/b.yaml" } },
	{ .name = "all files missing: warning and error",
	  .kubeconfig_env = "@D/missing.yaml:@D/gone",
	  .rc = KUBE_E_CONFIG,
	  .err = { "no configuration has been provided",
	    "KUBECONFIG is empty or lists only missing files" },
	  .want = { "warnings=config not found: @D/missing.yaml, @D/gone\n" } },
	{ .name = "default file ~/.kube/config",
	  .want = { "context=home", "server=https://home.example:443",
	    "files=@D/home/.kube/config", "namespace=default",
	    "auth=none", "user=" } },
	{ .name = "--kubeconfig is that file only",
	  .kubeconfig_env = "@D/a.yaml", .kubeconfig = "@D/b.yaml",
	  .want = { "context=ctx-b", "files=@D/b.yaml" } },
	{ .name = "--kubeconfig must exist",
	  .kubeconfig = "@D/nope.yaml", .rc = KUBE_E_CONFIG,
	  .err = { "cannot read kubeconfig \"@D/nope.yaml\": No such file" } },

	/* Overrides (client_config.go) */
	{ .name = "--context picks another context",
	  .kubeconfig_env = "@D/a.yaml:@D/b.yaml", .context = "ctx-shared",
	  .want = { "context=ctx-shared", "cluster=only-a",
	    "server=https://only-a.example:443", "namespace=default" } },
	{ .name = "--cluster and --user replace the context's",
	  .kubeconfig_env = "@D/a.yaml:@D/b.yaml", .cluster = "only-b",
	  .user = "user-b",
	  .want = { "context=ctx-a", "cluster=only-b", "user=user-b",
	    "server=http://only-b.example:8080", "auth=token-file",
	    "namespace=ns-a" } },
	{ .name = "-n wins over the context namespace",
	  .kubeconfig_env = "@D/a.yaml", .ns = "team-x",
	  .want = { "namespace=team-x" } },
	{ .name = "--server clears the file's tls-server-name",
	  .kubeconfig_env = "@D/a.yaml", .server = "https://other:7443",
	  .want = { "server=https://other:7443", "tls_server_name=(null)",
	    "ca_file=@D/certs/ca.crt" } },
	{ .name = "--server with --tls-server-name keeps the flag's",
	  .kubeconfig_env = "@D/a.yaml", .server = "https://other:7443",
	  .tls_server_name = "flag-name",
	  .want = { "tls_server_name=flag-name" } },
	{ .name = "--insecure-skip-tls-verify clears the CA",
	  .kubeconfig_env = "@D/a.yaml", .insecure = 1,
	  .want = { "insecure=1", "ca_file=(null)" } },
	{ .name = "--certificate-authority replaces CA and insecure",
	  .kubeconfig_env = "@D/b.yaml", .context = "ctx-shared",
	  .cluster = "shared", .ca = "@D/sa/ca.crt",
	  .want = { "insecure=0", "ca_file=@D/sa/ca.crt" } },
	{ .name = "--token replaces the file's token source",
	  .kubeconfig_env = "@D/b.yaml", .token = "flag-token",
	  .want = { "auth=token", "token=flag-token" } },
	{ .name = "--as and --as-group",
	  .kubeconfig_env = "@D/a.yaml", .as = "admin", .as_group = "g1",
	  .want = { "as=admin", "as_groups=g1", "as_uid=(null)" } },
	{ .name = "unknown --context names it and the files",
	  .kubeconfig_env = "@D/a.yaml:@D/b.yaml", .context = "nope",
	  .rc = KUBE_E_CONFIG,
	  .err = { "context \"nope\" does not exist in @D/a.yaml, "
	    "@D/b.yaml" } },
	{ .name = "unknown --cluster",
	  .kubeconfig_env = "@D/a.yaml", .cluster = "nope",
	  .rc = KUBE_E_CONFIG,
	  .err = { "cluster \"nope\" does not exist in @D/a.yaml" } },
	{ .name = "unknown --user",
	  .kubeconfig_env = "@D/a.yaml", .user = "nope",
	  .rc = KUBE_E_CONFIG,
	  .err = { "user \"nope\" does not exist in @D/a.yaml" } },
	{ .name = "current-context naming a missing context",
	  .extra_name = "lost.yaml", .extra = "current-context: gone\n",
	  .kubeconfig_env = "@D/lost.yaml:@D/c.yaml",
	  .rc = KUBE_E_CONFIG,
	  .err = { "context \"gone\" (current-context in @D/lost.yaml) "
	    "does not exist in @D/lost.yaml, @D/c.yaml" } },
	{ .name = "context naming a missing cluster",
	  .kubeconfig_env = "@D/a.yaml", .context = "ctx-lost-cluster",
	  .rc = KUBE_E_CONFIG,
	  .err = { "cluster \"nowhere\" of context \"ctx-lost-cluster\" "
	    "(in @D/a.yaml) does not exist in @D/a.yaml" } },
	{ .name = "context naming a missing user",
	  .kubeconfig_env = "@D/a.yaml", .context = "ctx-lost-user",
	  .rc = KUBE_E_CONFIG,
	  .err = { "user \"nobody\" of context \"ctx-lost-user\"" } },
	{ .name = "context without a cluster",
	  .kubeconfig_env = "@D/a.yaml", .context = "ctx-no-cluster",
	  .rc = KUBE_E_CONFIG,
	  .err = { "cluster was not specified for context "
	    "\"ctx-no-cluster\"" } },
	{ .name = "no current-context and no --context",
	  .kubeconfig_env = "@D/c.yaml", .rc = KUBE_E_CONFIG,
	  .err = { "no context chosen: current-context is not set in "
	    "@D/c.yaml" } },
	{ .name = "bad --server port; its credentials not shown",
	  .kubeconfig_env = "@D/a.yaml", .server = "https://u:pw9@h:6x43",
	  .rc = KUBE_E_CONFIG,
	  .err = { "invalid server \"https://<redacted>@h:6x43\": bad port" },
	  .not_in_err = "pw9" },
	{ .name = "--server with an unsupported scheme",
	  .kubeconfig_env = "@D/a.yaml", .server = "ftp://h",
	  .rc = KUBE_E_CONFIG,
	  .err = { "invalid server \"ftp://h\": unsupported scheme \"ftp\"" } },
	{ .name = "--server alone needs no kubeconfig",
	  .kubeconfig_env = "@D/missing", .server = "https://s.example",
	  .token = "t",
	  .want = { "server=https://s.example:443", "context=",
	    "auth=token", "namespace=default", "files=" } },

	/* Relative paths (loader.go ResolveLocalPaths) */
	{ .name = "paths resolve against the file's folder",
	  .cwd = "@D", .kubeconfig_env = "sub/config",
	  .want = { "ca_file=@D/certs/ca.crt", "cert_file=@D/sub/client.crt",
	    "key_file=@D/sub/client.key", "auth=client-certificate",
	    "files=sub/config" } },
	{ .name = "tokenFile resolves and is read",
	  .kubeconfig_env = "@D/sub/config", .context = "tokfile",
	  .want = { "token_file=@D/tok", "auth=token-file" } },
	{ .name = "absolute paths stay",
	  .kubeconfig_env = "@D/sub/config", .user = "abs",
	  .want = { "cert_file=/dev/null", "key_file=/dev/null" } },
	{ .name = "exec command with a slash resolves, v1beta1 defaults",
	  .kubeconfig_env = "@D/sub/exec.yaml",
	  .want = { "exec_command=@D/sub/bin/plugin",
	    "exec_args=get-token,--verbose", "exec_env=A=1,B=two",
	    "exec_mode=IfAvailable", "exec_cluster_info=1", "auth=exec",
	    "exec_hint=U+001B[1mInstall itU+001B[0m\nplease" } },
	{ .name = "bare exec command stays for PATH lookup",
	  .kubeconfig_env = "@D/sub/exec.yaml", .context = "bare",
	  .want = { "exec_command=gke-gcloud-auth-plugin",
	    "exec_mode=Never", "exec_cluster_info=0", "exec_args=" } },

	/* -data fields, impersonation, bare host:port */
	{ .name = "base64 data decoded, TLS implied by CA data",
	  .kubeconfig_env = "@D/data.yaml",
	  .want = { "ca_data=CA-PEM\n", "cert_data=CERT\n",
	    "key_data=KEY\n", "server=https://10.1.2.3:6443",
	    "auth=client-certificate", "as=jane", "as_uid=42",
	    "as_groups=devs,ops", "as_extra=reason=oncall|audit",
	    "namespace=data-ns" } },
	{ .name = "bare host:port without TLS hints is http",
	  .extra_name = "plain.yaml",
	  .extra = "current-context: p\n"
	    "clusters: [{name: p, cluster: {server: \"10.0.0.9:8080\"}}]\n"
	    "contexts: [{name: p, context: {cluster: p}}]\n",
	  .kubeconfig_env = "@D/plain.yaml",
	  .want = { "server=http://10.0.0.9:8080" } },
	{ .name = "server path prefix kept, trailing slash dropped",
	  .extra_name = "prefix.yaml",
	  .extra = "current-context: p\n"
	    "clusters: [{name: p, cluster: {server: "
	    "\"https://rancher.example/k8s/clusters/c-1/?x=1\", "
	    "proxy-url: \"socks5://127.0.0.1:1080\"}}]\n"
	    "contexts: [{name: p, context: {cluster: p}}]\n",
	  .kubeconfig_env = "@D/prefix.yaml",
	  .want = { "server=https://rancher.example:443/k8s/clusters/c-1",
	    "proxy_url=socks5://127.0.0.1:1080" } },
	{ .name = "IPv6 server",
	  .extra_name = "v6.yaml",
	  .extra = "current-context: p\n"
	    "clusters: [{name: p, cluster: {server: \"https://[fd00::1]\"}}]\n"
	    "contexts: [{name: p, context: {cluster: p}}]\n",
	  .kubeconfig_env = "@D/v6.yaml",
	  .want = { "server=https://[fd00::1]:443" } },

	/* In-cluster (rest/config.go InClusterConfig) */
	{ .name = "in-cluster when there is no kubeconfig",
	  .env = { "KUBERNETES_SERVICE_HOST=10.96.0.1",
	    "KUBERNETES_SERVICE_PORT=443" },
	  .kubeconfig_env = "@D/missing",
	  .want = { "in_cluster=1", "server=https://10.96.0.1:443",
	    "token_file=@D/sa/token", "ca_file=@D/sa/ca.crt",
	    "namespace=kube-ns", "auth=in-cluster-token", "context=",
	    "files=" } },
	{ .name = "in-cluster: POD_NAMESPACE, IPv6, -s keeps the token",
	  .env = { "KUBERNETES_SERVICE_HOST=fd00::1",
	    "KUBERNETES_SERVICE_PORT=6443", "POD_NAMESPACE=pod-ns" },
	  .kubeconfig_env = "@D/missing",
	  .want = { "server=https://[fd00::1]:6443", "namespace=pod-ns" } },
	{ .name = "in-cluster: -n and --token win",
	  .env = { "KUBERNETES_SERVICE_HOST=10.96.0.1",
	    "KUBERNETES_SERVICE_PORT=443" },
	  .kubeconfig_env = "@D/missing", .ns = "flag-ns", .token = "flag",
	  .want = { "namespace=flag-ns", "auth=token", "token=flag" } },
	{ .name = "in-cluster ignored when a kubeconfig has a cluster",
	  .env = { "KUBERNETES_SERVICE_HOST=10.96.0.1",
	    "KUBERNETES_SERVICE_PORT=443" },
	  .kubeconfig_env = "@D/a.yaml", .context = "ctx-shared",
	  .want = { "in_cluster=0", "server=https://only-a.example:443",
	    "namespace=kube-ns" } },
	{ .name = "in-cluster needs the token file",
	  .env = { "KUBERNETES_SERVICE_HOST=10.96.0.1",
	    "KUBERNETES_SERVICE_PORT=443" },
	  .kubeconfig_env = "@D/missing", .remove = "sa/token",
	  .rc = KUBE_E_CONFIG,
	  .err = { "no configuration has been provided" } },
	{ .name = "KUBERNETES_MASTER is the default server",
	  .env = { "KUBERNETES_MASTER=https://master.example:6443" },
	  .kubeconfig_env = "@D/missing",
	  .want = { "server=https://master.example:6443", "in_cluster=0" } },

	/* Validation (validation.go) */
	{ .name = "token and basic auth both set",
	  .kubeconfig_env = "@D/b.yaml", .context = "ctx-shared",
	  .user = "shared-user", .token = "t2",
	  .rc = KUBE_E_CONFIG,
	  .err = { "invalid configuration: more than one authentication "
	    "method found for \"shared-user\" (in @D/b.yaml); found [token "
	    "basicAuth], only one is allowed" },
	  .not_in_err = "secret-b" },
	{ .name = "client cert without key",
	  .extra_name = "nokey.yaml",
	  .extra = "current-context: k\n"
	    "clusters: [{name: k, cluster: {server: https://k}}]\n"
	    "users: [{name: u, user: {client-certificate-data: Q0VSVAo=}}]\n"
	    "contexts: [{name: k, context: {cluster: k, user: u}}]\n",
	  .kubeconfig_env = "@D/nokey.yaml", .rc = KUBE_E_CONFIG,
	  .err = { "client-key-data or client-key must be specified for "
	    "\"u\" (in @D/nokey.yaml) to use the clientCert "
	    "authentication method" } },
	{ .name = "cert file and data both, unreadable key",
	  .extra_name = "both.yaml",
	  .extra = "current-context: k\n"
	    "clusters: [{name: k, cluster: {server: https://k, "
	    "certificate-authority: nope.crt}}]\n"
	    "users: [{name: u, user: {client-certificate-data: Q0VSVAo=, "
	    "client-certificate: sub/client.crt, client-key: gone.key}}]\n"
	    "contexts: [{name: k, context: {cluster: k, user: u}}]\n",
	  .kubeconfig_env = "@D/both.yaml", .rc = KUBE_E_CONFIG,
	  .err = { "client-cert-data and client-cert are both specified",
	    "unable to read client-key @D/gone.key for \"u\"",
	    "unable to read certificate-authority @D/nope.crt for \"k\"" } },
	{ .name = "exec without command, apiVersion, interactiveMode",
	  .extra_name = "exec-bad.yaml",
	  .extra = "current-context: k\n"
	    "clusters: [{name: k, cluster: {server: https://k}}]\n"
	    "users: [{name: u, user: {exec: {args: [x], "
	    "env: [{value: v}]}}}]\n"
	    "contexts: [{name: k, context: {cluster: k, user: u}}]\n",
	  .kubeconfig_env = "@D/exec-bad.yaml", .rc = KUBE_E_CONFIG,
	  .err = { "command must be specified for \"u\"",
	    "apiVersion must be specified for \"u\"",
	    "env variable name must be specified",
	    "interactiveMode must be specified" } },
	{ .name = "exec v1 requires interactiveMode",
	  .extra_name = "exec-v1.yaml",
	  .extra = "current-context: k\n"
	    "clusters: [{name: k, cluster: {server: https://k}}]\n"
	    "users: [{name: u, user: {exec: {command: p, apiVersion: "
	    "client.authentication.k8s.io/v1}}}, {name: w, user: {exec: {"
	    "command: p, interactiveMode: Sometimes, apiVersion: "
	    "client.authentication.k8s.io/v1alpha1}}}]\n"
	    "contexts: [{name: k, context: {cluster: k, user: u}}]\n",
	  .kubeconfig_env = "@D/exec-v1.yaml", .rc = KUBE_E_CONFIG,
	  .err = { "invalid configuration: interactiveMode must be "
	    "specified for \"u\" (in @D/exec-v1.yaml) to use exec "
	    "authentication plugin" } },
	{ .name = "exec apiVersion v1alpha1 and a bad interactiveMode",
	  .kubeconfig_env = "@D/exec-v1.yaml", .user = "w",
	  .extra_name = "exec-v1.yaml",
	  .extra = "users: [{name: w, user: {exec: {"
	    "command: p, interactiveMode: Sometimes, apiVersion: "
	    "client.authentication.k8s.io/v1alpha1}}}]\n"
	    "clusters: [{name: k, cluster: {server: https://k}}]\n"
	    "contexts: [{name: k, context: {cluster: k, user: u}}]\n"
	    "current-context: k\n",
	  .rc = KUBE_E_CONFIG,
	  .err = { "exec plugin: invalid apiVersion "
	    "\"client.authentication.k8s.io/v1alpha1\"",
	    "invalid interactiveMode for \"w\" (in @D/exec-v1.yaml): "
	    "\"Sometimes\"" } },
	{ .name = "impersonation extras need as",
	  .extra_name = "imp.yaml",
	  .extra = "current-context: k\n"
	    "clusters: [{name: k, cluster: {server: https://k}}]\n"
	    "users: [{name: u, user: {as-groups: [g]}}]\n"
	    "contexts: [{name: k, context: {cluster: k, user: u}}]\n",
	  .kubeconfig_env = "@D/imp.yaml", .rc = KUBE_E_CONFIG,
	  .err = { "requesting uid, groups or user-extra for \"u\" (in "
	    "@D/imp.yaml) without impersonating a user" } },
	{ .name = "CA file and data both; insecure with a CA",
	  .extra_name = "ca.yaml",
	  .extra = "current-context: k\n"
	    "clusters: [{name: k, cluster: {server: https://k, "
	    "certificate-authority: certs/ca.crt, "
	    "certificate-authority-data: Q0EtUEVNCg==, "
	    "insecure-skip-tls-verify: true}}]\n"
	    "contexts: [{name: k, context: {cluster: k}}]\n",
	  .kubeconfig_env = "@D/ca.yaml", .rc = KUBE_E_CONFIG,
	  .err = { "certificate-authority-data and certificate-authority "
	    "are both specified for \"k\" (in @D/ca.yaml)",
	    "specifying a root certificates file with the insecure flag "
	    "is not allowed" } },
	{ .name = "proxy-url scheme; credentials in it not shown",
	  .extra_name = "proxy.yaml",
	  .extra = "current-context: k\n"
	    "clusters: [{name: k, cluster: {server: https://k, "
	    "proxy-url: \"ftp://user:hunter2@proxy:21\"}}]\n"
	    "contexts: [{name: k, context: {cluster: k}}]\n",
	  .kubeconfig_env = "@D/proxy.yaml", .rc = KUBE_E_CONFIG,
	  .err = { "invalid 'proxy-url' \"ftp://<redacted>@proxy:21\" for "
	    "cluster \"k\" (in @D/proxy.yaml): unsupported scheme \"ftp\", "
	    "must be http, https, or socks5" },
	  .not_in_err = "hunter2" },
	{ .name = "cluster without server",
	  .extra_name = "noserver.yaml",
	  .extra = "current-context: k\n"
	    "clusters: [{name: k, cluster: {insecure-skip-tls-verify: on}}]\n"
	    "contexts: [{name: k, context: {cluster: k}}]\n",
	  .kubeconfig_env = "@D/noserver.yaml", .rc = KUBE_E_CONFIG,
	  .err = { "invalid configuration: no server found for cluster "
	    "\"k\" (in @D/noserver.yaml)" } },
	{ .name = "gcp auth-provider points to the plugin",
	  .extra_name = "gcp.yaml",
	  .extra = "current-context: k\n"
	    "clusters: [{name: k, cluster: {server: https://k}}]\n"
	    "users: [{name: u, user: {auth-provider: {name: gcp, "
	    "config: {access-token: secret-gcp}}}}]\n"
	    "contexts: [{name: k, context: {cluster: k, user: u}}]\n",
	  .kubeconfig_env = "@D/gcp.yaml", .rc = KUBE_E_CONFIG,
	  .err = { "the gcp auth plugin has been removed",
	    "gke-gcloud-auth-plugin" },
	  .not_in_err = "secret-gcp" },
	{ .name = "unreadable tokenFile",
	  .extra_name = "tf.yaml",
	  .extra = "current-context: k\n"
	    "clusters: [{name: k, cluster: {server: https://k}}]\n"
	    "users: [{name: u, user: {tokenFile: no-such-token}}]\n"
	    "contexts: [{name: k, context: {cluster: k, user: u}}]\n",
	  .kubeconfig_env = "@D/tf.yaml", .rc = KUBE_E_IO,
	  .err = { "cannot read tokenFile \"@D/no-such-token\" of user \"u\" "
	    "(in @D/tf.yaml): No such file or directory" } },

	/* Decoding errors: position and field */
	{ .name = "malformed yaml gives file:line:col",
	  .extra_name = "bad.yaml",
	  .extra = "clusters:\n- name: x\n  cluster:\n    server: a\n"
	    "   oops: b\n",
	  .kubeconfig_env = "@D/a.yaml:@D/bad.yaml", .rc = KUBE_E_CONFIG,
	  .err = { "@D/bad.yaml:5:4: did not find expected key while "
	    "parsing a block mapping" } },
	{ .name = "mapping values not allowed",
	  .extra_name = "bad.yaml", .extra = "current-context: a: b\n",
	  .kubeconfig_env = "@D/bad.yaml", .rc = KUBE_E_CONFIG,
	  .err = { "@D/bad.yaml:1:19: mapping values are not allowed in "
	    "this context" } },
	{ .name = "unterminated quote",
	  .extra_name = "bad.yaml",
	  .extra = "current-context: k\nclusters:\n- name: \"x\n",
	  .kubeconfig_env = "@D/bad.yaml", .rc = KUBE_E_CONFIG,
	  .err = { "@D/bad.yaml:4:1: found unexpected end of stream while "
	    "scanning a quoted scalar" } },
	{ .name = "a quoted bool is not a bool",
	  .extra_name = "type.yaml",
	  .extra = "clusters:\n- name: x\n  cluster:\n"
	    "    insecure-skip-tls-verify: \"true\"\n",
	  .kubeconfig_env = "@D/type.yaml", .rc = KUBE_E_CONFIG,
	  .err = { "@D/type.yaml:4:31: clusters[0].cluster."
	    "insecure-skip-tls-verify: expected true or false" } },
	{ .name = "clusters must be a list",
	  .extra_name = "type.yaml", .extra = "\nclusters: {a: b}\n",
	  .kubeconfig_env = "@D/type.yaml", .rc = KUBE_E_CONFIG,
	  .err = { "@D/type.yaml:2:11: clusters: expected a list" } },
	{ .name = "bad base64 names field and file, not the data",
	  .extra_name = "b64.yaml",
	  .extra = "users:\n- name: u\n  user:\n"
	    "    client-key-data: c2VjcmV0LWtleQ=!\n",
	  .kubeconfig_env = "@D/b64.yaml", .rc = KUBE_E_CONFIG,
	  .err = { "@D/b64.yaml:4:22: users[0].user.client-key-data: "
	    "illegal base64 data" },
	  .not_in_err = "c2VjcmV0LWtleQ" },
	{ .name = "duplicate name in one file",
	  .extra_name = "dup.yaml",
	  .extra = "contexts:\n- {name: x, context: {}}\n"
	    "- {name: x, context: {}}\n",
	  .kubeconfig_env = "@D/dup.yaml", .rc = KUBE_E_CONFIG,
	  .err = { "@D/dup.yaml:3:3: contexts[1].context: duplicate name "
	    "\"x\" in contexts" } },
	{ .name = "unsupported apiVersion",
	  .extra_name = "v2.yaml", .extra = "apiVersion: v2\nkind: Config\n",
	  .kubeconfig_env = "@D/v2.yaml", .rc = KUBE_E_CONFIG,
	  .err = { "@D/v2.yaml:1:13: apiVersion: unsupported version "
	    "\"v2\"" } },
	{ .name = "not a mapping",
	  .extra_name = "scalar.yaml", .extra = "just text\n",
	  .kubeconfig_env = "@D/scalar.yaml", .rc = KUBE_E_CONFIG,
	  .err = { "@D/scalar.yaml:1:1: kubeconfig: expected a mapping" } },
	{ .name = "aliases expand; bombs refused",
	  .extra_name = "bomb.yaml",
	  .extra = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
	    "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
	    "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
	    "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
	    "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
	    "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n",
	  .kubeconfig_env = "@D/bomb.yaml", .rc = KUBE_E_CONFIG,
	  .err = { "@D/bomb.yaml:6:", "expands to more than 1000000 nodes" } },
	{ .name = "anchors and aliases work",
	  .extra_name = "alias.yaml",
	  .extra = "current-context: k\n"
	    "clusters: [{name: k, cluster: &c {server: https://k}}, "
	    "{name: k2, cluster: *c}]\n"
	    "contexts: [{name: k, context: {cluster: k2}}]\n",
	  .kubeconfig_env = "@D/alias.yaml",
	  .want = { "cluster=k2", "server=https://k:443" } },
};

static void
run_case(const struct kc_case *tc)
{
	struct kube_client_opts	 o;
	struct kube_client	*c;
	struct dra_err		 err;
	struct tu_rec		 rec;
	char			*dir, *home, *s, *w, *got, *eq, *old_cwd;
	char			*sub[16];
	const char		*groups[1];
	size_t			 i, ns = 0;

	dir = tu_tmpdir();
	for (i = 0; fixtures[i].name != NULL; i++)
		free(tu_write(dir, fixtures[i].name, fixtures[i].content,
		    fixtures[i].mode));
	if (tc->extra_name != NULL)
		free(tu_write(dir, tc->extra_name, tc->extra, 0600));
	if (tc->remove != NULL) {
		s = xasprintf("%s/%s", dir, tc->remove);
		unlink(s);
		free(s);
	}
	home = xasprintf("%s/home", dir);
	tu_env_reset(home);
	for (i = 0; i < 4 && tc->env[i] != NULL; i++) {
		s = tu_subst(tc->env[i], dir);
		eq = strchr(s, '=');
		*eq = '\0';
		setenv(s, eq + 1, 1);
		free(s);
	}
	if (tc->kubeconfig_env != NULL) {
		s = tu_subst(tc->kubeconfig_env, dir);
		setenv("KUBECONFIG", s, 1);
		free(s);
	}
	old_cwd = getcwd(NULL, 0);
	if (tc->cwd != NULL) {
		s = tu_subst(tc->cwd, dir);
		assert_int_equal(chdir(s), 0);
		free(s);
	}

	memset(&o, 0, sizeof o);
#define SUB(v) ((v) != NULL ? (sub[ns++] = tu_subst((v), dir)) : NULL)
	o.kubeconfig = SUB(tc->kubeconfig);
	o.context = tc->context;
	o.cluster = tc->cluster;
	o.user = tc->user;
	o.namespace = tc->ns;
	o.server = tc->server;
	o.tls_server_name = tc->tls_server_name;
	o.certificate_authority = SUB(tc->ca);
	o.insecure_skip_tls_verify = tc->insecure;
	o.token = tc->token;
	o.username = tc->username;
	o.password = tc->password;
	o.as = tc->as;
	if (tc->as_group != NULL) {
		groups[0] = tc->as_group;
		o.as_groups = groups;
		o.n_as_groups = 1;
	}
	o.incluster_dir = SUB("@D/sa");
#undef SUB
	tu_rec_init(&rec);
	o.warn = tu_warn;
	o.warn_arg = &rec;

	c = kube_client_new(&o, &err);
	if (tc->rc != KUBE_OK) {
		if (c != NULL)
			fail_msg("%s: expected error %d, got a client",
			    tc->name, tc->rc);
		if (err.code != tc->rc)
			fail_msg("%s: code %d, want %d (%s)", tc->name,
			    err.code, tc->rc, err.msg);
		for (i = 0; i < 4 && tc->err[i] != NULL; i++) {
			w = tu_subst(tc->err[i], dir);
			if (strstr(err.msg, w) == NULL)
				fail_msg("%s:\n message: %s\n lacks: %s",
				    tc->name, err.msg, w);
			free(w);
		}
		if (tc->not_in_err != NULL &&
		    strstr(err.msg, tc->not_in_err) != NULL)
			fail_msg("%s: message shows \"%s\": %s", tc->name,
			    tc->not_in_err, err.msg);
	} else if (c == NULL)
		fail_msg("%s: unexpected error %d: %s", tc->name, err.code,
		    err.msg);
	for (i = 0; i < 20 && tc->want[i] != NULL; i++) {
		w = tu_subst(tc->want[i], dir);
		eq = strchr(w, '=');
		*eq = '\0';
		if (strcmp(w, "warnings") == 0)
			got = xstrdup(dra_buf_str(&rec.warnings));
		else
			got = field(c, w);
		if (strcmp(got, eq + 1) != 0)
			fail_msg("%s: %s is \"%s\", want \"%s\"", tc->name, w,
			    got, eq + 1);
		free(got);
		free(w);
	}
	kube_client_free(c);
	tu_rec_release(&rec);
	if (old_cwd != NULL) {
		assert_int_equal(chdir(old_cwd), 0);
		free(old_cwd);
	}
	for (i = 0; i < ns; i++)
		free(sub[i]);
	tu_rmrf(dir);
	free(dir);
	free(home);
}

static void
test_cases(void **state)
{
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		run_case(&cases[i]);
}

/* Go's time.ParseDuration units and clientcmd ParseTimeout. */
static void
test_parse_timeout(void **state)
{
	static const struct {
		const char	*in;
		int		 rc;
		long		 ms;
	} t[] = {
		{ "", KUBE_OK, 0 }, { "0", KUBE_OK, 0 }, { "5", KUBE_OK, 5000 },
		{ "1s", KUBE_OK, 1000 }, { "500ms", KUBE_OK, 500 },
		{ "2m", KUBE_OK, 120000 }, { "1m30s", KUBE_OK, 90000 },
		{ "1.5h", KUBE_OK, 5400000 }, { "3h", KUBE_OK, 10800000 },
		{ "1x", KUBE_E_CONFIG, 0 }, { "abc", KUBE_E_CONFIG, 0 },
		{ "-1", KUBE_E_CONFIG, 0 }, { "s", KUBE_E_CONFIG, 0 },
	};
	struct dra_err	err;
	size_t		i;
	long		ms;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		ms = -1;
		if (kube_parse_timeout(t[i].in, &ms, &err) != t[i].rc)
			fail_msg("timeout \"%s\": rc %d", t[i].in, err.code);
		if (t[i].rc == KUBE_OK && ms != t[i].ms)
			fail_msg("timeout \"%s\": %ld ms, want %ld", t[i].in,
			    ms, t[i].ms);
	}
	assert_int_equal(kube_parse_timeout("7y", &ms, &err), KUBE_E_CONFIG);
	assert_non_null(strstr(err.msg, "invalid timeout value \"7y\""));
}

static void
test_base64(void **state)
{
	static const struct {
		const char	*in;
		const char	*out;	/* NULL: must fail */
	} t[] = {
		{ "", "" }, { "YQ==", "a" }, { "YWI=", "ab" },
		{ "YWJj", "abc" },
		{ "YW\nJj\r\n", "abc" }, { "YQ=", NULL }, { "Y===", NULL },
		{ "YQ==YQ==", NULL }, { "YW J j", NULL }, { "YWJ", NULL },
		{ "Y=Jj", NULL }, { "YWJj!", NULL },
	};
	unsigned char	*out;
	size_t		 i, len;
	int		 rc;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		rc = kube_base64_decode(t[i].in, strlen(t[i].in), &out, &len);
		if (t[i].out == NULL) {
			if (rc == 0)
				fail_msg("base64 \"%s\" accepted", t[i].in);
			assert_null(out);
			continue;
		}
		if (rc != 0)
			fail_msg("base64 \"%s\" refused", t[i].in);
		assert_int_equal(len, strlen(t[i].out));
		assert_memory_equal(out, t[i].out, len);
		free(out);
	}
	out = (unsigned char *)kube_base64_encode("user:pass", 9);
	assert_string_equal((char *)out, "dXNlcjpwYXNz");
	free(out);
}

static void
test_rfc3339(void **state)
{
	static const struct {
		const char	*in;
		int		 rc;
		long long	 t;
	} t[] = {
		{ "1970-01-01T00:00:00Z", 0, 0 },
		{ "2026-11-29T10:00:00Z", 0, 1795946400LL },
		{ "2026-11-29T10:00:00.123456789Z", 0, 1795946400LL },
		{ "2026-11-29T12:00:00+02:00", 0, 1795946400LL },
		{ "2026-11-29T05:30:00-04:30", 0, 1795946400LL },
		{ "2026-11-29 10:00:00Z", 0, 1795946400LL },
		{ "2026-11-29T10:00:00", -1, 0 },
		{ "2026-13-29T10:00:00Z", -1, 0 },
		{ "yesterday", -1, 0 },
	};
	time_t	tt;
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		tt = 0;
		if (kube_parse_rfc3339(t[i].in, &tt) != t[i].rc)
			fail_msg("rfc3339 \"%s\": wrong result", t[i].in);
		if (t[i].rc == 0 && (long long)tt != t[i].t)
			fail_msg("rfc3339 \"%s\": %lld, want %lld", t[i].in,
			    (long long)tt, t[i].t);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_parse_timeout),
		cmocka_unit_test(test_base64),
		cmocka_unit_test(test_rfc3339),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
