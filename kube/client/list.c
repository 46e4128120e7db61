/*
 * list.c: paginated lists.
 *
 * client-go's pager (tools/pager/pager.go) with kubectl's chunk size:
 * limit=500, then continue=<token> until metadata.continue is empty.
 * One page is fetched, parsed with cJSON, its raw text freed, its items
 * handed to the caller one by one, and the parse freed before the next
 * page, so memory holds at most one page.  A continue token that has
 * expired (410) restarts the list once, after the caller's reset
 * callback (the pager falls back to a full list in that case).
 */
#include "client-int.h"

#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "buf.h"
#include "err.h"
#include "xmalloc.h"

static char	*page_path(const char *, const char *, int, const char *);

static char *
page_path(const char *path, const char *query, int limit, const char *cont)
{
	struct dra_buf	 b;
	char		*esc;

	dra_buf_init(&b, DRA_BUF_MAX_SMALL * 16);
	dra_buf_adds(&b, path);
	dra_buf_adds(&b, strchr(path, '?') != NULL ? "&" : "?");
	if (query != NULL && *query != '\0') {
		dra_buf_adds(&b, query);
		dra_buf_adds(&b, "&");
	}
	dra_buf_addf(&b, "limit=%d", limit);
	if (cont != NULL) {
		esc = kube_query_escape(cont);
		dra_buf_addf(&b, "&continue=%s", esc);
		free(esc);
	}
	return dra_buf_take(&b);
}

int
kube_client_list(struct kube_client *c, const char *path, const char *query,
    kube_list_item_fn item_cb, kube_list_reset_fn reset_cb, void *arg,
    char **resource_version, struct dra_err *err)
{
	struct dra_buf	 body;
	cJSON		*root = NULL;
	const cJSON	*av, *meta, *rv, *next, *items, *item;
	const char	*end, *api_version;
	char		*cont = NULL, *url, *rvs = NULL;
	int		 rc = KUBE_OK, restarted = 0, done = 0;

	if (resource_version != NULL)
		*resource_version = NULL;
	while (!done) {
		url = page_path(path, query, c->cfg.chunk_size, cont);
		dra_buf_init(&body, DRA_BUF_MAX_PAGE);
		rc = kube_client_get(c, url, &body, err);
		if (rc == KUBE_E_GONE && cont != NULL && !restarted &&
		    reset_cb != NULL) {
			/* pager.go: the continue token expired */
			kube_client_logf(c, 6, "list %s: continue token "
			    "expired, restarting the list", path);
			dra_buf_release(&body);
			free(url);
			restarted = 1;
			free(cont);
			cont = NULL;
			free(rvs);
			rvs = NULL;
			reset_cb(arg);
			dra_err_clear(err);
			continue;
		}
		if (rc != KUBE_OK) {
			dra_buf_release(&body);
			free(url);
			break;
		}
		end = NULL;
		root = cJSON_ParseWithLengthOpts(dra_buf_str(&body), body.len,
		    &end, 0);
		if (root == NULL) {
			rc = dra_err_set(err, KUBE_E_PARSE, "malformed json in "
			    "response to GET %s at byte %ld", url,
			    end != NULL && body.ptr != NULL ?
			    (long)(end - body.ptr) : 0L);
			dra_buf_release(&body);
			free(url);
			break;
		}
		dra_buf_release(&body);
		items = cJSON_GetObjectItemCaseSensitive(root, "items");
		if (!cJSON_IsArray(items) && !cJSON_IsNull(items)) {
			rc = dra_err_set(err, KUBE_E_PARSE, "response to GET "
			    "%s is not a list (no items array)", url);
			free(url);
			break;
		}
		free(url);
		av = cJSON_GetObjectItemCaseSensitive(root, "apiVersion");
		api_version = cJSON_IsString(av) ? av->valuestring : "";
		meta = cJSON_GetObjectItemCaseSensitive(root, "metadata");
		rv = cJSON_GetObjectItemCaseSensitive(meta, "resourceVersion");
		if (cJSON_IsString(rv)) {
			free(rvs);
			rvs = xstrdup(rv->valuestring);
		}
		cJSON_ArrayForEach(item, items) {
			rc = item_cb(arg, item, api_version, err);
			if (rc != KUBE_OK)
				break;
		}
		next = cJSON_GetObjectItemCaseSensitive(meta, "continue");
		if (rc == KUBE_OK && cJSON_IsString(next) && cont != NULL &&
		    strcmp(cont, next->valuestring) == 0)
			/* A server that repeats itself would page forever. */
			rc = dra_err_set(err, KUBE_E_API, "list %s: the server "
			    "returned the same continue token twice", path);
		free(cont);
		cont = NULL;
		if (rc == KUBE_OK && cJSON_IsString(next) &&
		    *next->valuestring != '\0')
			cont = xstrdup(next->valuestring);
		else
			done = 1;
		cJSON_Delete(root);
		root = NULL;
		if (rc != KUBE_OK)
			break;
	}
	cJSON_Delete(root);
	free(cont);
	if (rc == KUBE_OK && resource_version != NULL)
		*resource_version = rvs != NULL ? rvs : xstrdup("");
	else
		free(rvs);
	return rc;
}
