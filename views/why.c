/*
 * why.c: the `why` report as text for people and as the stable JSON
 * document of `why -o json` (views.h).
 */
#include "views.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "why.h"
#include "xmalloc.h"

/* Nodes shown in detail in the text; the rest are counted by reason. */
#define WHY_TEXT_NODES	5

static int
same(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return strcmp(a, b) == 0;
}

static void
text_reason(struct dra_buf *b, const struct dra_why_reason *r)
{
	size_t	e;

	dra_buf_adds(b, "  ");
	if (r->claim != NULL && r->request != NULL)
		dra_buf_addf(b, "%s request %s: ", r->claim, r->request);
	else if (r->claim != NULL)
		dra_buf_addf(b, "%s: ", r->claim);
	dra_buf_addf(b, "%s [%s]\n", r->message, r->code);
	for (e = 0; e < r->nevidence; e++)
		dra_buf_addf(b, "    %s\n", r->evidence[e]);
}

/*
 * Control characters from object names and attribute values (the API
 * server does not restrict attribute strings) must not reach a
 * terminal: each becomes '?'.  Newlines are ours and stay.  In place.
 */
static char *
printable(char *text)
{
	unsigned char	*p;

	for (p = (unsigned char *)text; *p != '\0'; p++) {
		if ((*p < 0x20 && *p != '\n') || *p == 0x7f)
			*p = '?';
	}
	return text;
}

char *
dra_why_text(const char *target, const struct dra_why *w)
{
	struct dra_buf	 b;
	const char	*node;
	size_t		 i, j, nodes_shown = 0, rest = 0;
	const char	*codes[32];
	size_t		 counts[32], ncodes = 0;

	dra_buf_init(&b, DRA_BUF_MAX_PAGE);
	dra_buf_addf(&b, "%s\n", target);
	dra_buf_addf(&b, "Verdict:   %s\n", w->summary);
	if (w->verdict != DRA_WHY_ALLOCATED && w->nnodes > 0)
		dra_buf_addf(&b, "Nodes:     %zu considered, %zu fit\n",
		    w->nnodes, w->nfit_nodes);
	if (w->ndevices > 0) {
		dra_buf_addf(&b, "\nDevices%s%s%s:\n", w->node != NULL ?
		    " (on node " : "", w->node != NULL ? w->node : "",
		    w->node != NULL ? ")" : "");
		for (i = 0; i < w->ndevices; i++)
			dra_buf_addf(&b, "  %s request %s: %s/%s/%s%s%s%s%s\n",
			    w->devices[i].claim_name, w->devices[i].request,
			    w->devices[i].driver, w->devices[i].pool,
			    w->devices[i].name,
			    w->devices[i].admin_access ? " (admin access)" : "",
			    w->devices[i].consumed != NULL ? " (consumes " : "",
			    w->devices[i].consumed != NULL ?
			    w->devices[i].consumed : "",
			    w->devices[i].consumed != NULL ? ")" : "");
	}
	if (w->nrelease > 0) {
		dra_buf_addf(&b, "\nTo release (%s):\n", w->release_any ?
		    "any one of them" : "all of them");
		for (i = 0; i < w->nrelease; i++)
			dra_buf_addf(&b, "  %s\n", w->release[i]);
	}
	/* Reasons for every node first, then node by node. */
	for (i = 0; i < w->nreasons; i++) {
		if (w->reasons[i].node != NULL)
			continue;
		if (i == 0 || w->reasons[i - 1].node != NULL)
			dra_buf_adds(&b, "\nEvery node:\n");
		text_reason(&b, &w->reasons[i]);
	}
	for (i = 0; i < w->nreasons; i++) {
		node = w->reasons[i].node;
		if (node == NULL)
			continue;
		if (i > 0 && same(w->reasons[i - 1].node, node))
			continue;
		if (nodes_shown++ < WHY_TEXT_NODES) {
			dra_buf_addf(&b, "\nNode %s:\n", node);
			for (j = i; j < w->nreasons &&
			    same(w->reasons[j].node, node); j++)
				text_reason(&b, &w->reasons[j]);
			continue;
		}
		rest++;
		for (j = i; j < w->nreasons && same(w->reasons[j].node, node);
		    j++) {
			size_t	k;

			for (k = 0; k < ncodes; k++) {
				if (strcmp(codes[k], w->reasons[j].code) == 0)
					break;
			}
			if (k == ncodes && ncodes < 32) {
				codes[ncodes] = w->reasons[j].code;
				counts[ncodes++] = 0;
			}
			if (k < ncodes)
				counts[k]++;
		}
	}
	if (rest > 0) {
		dra_buf_addf(&b, "\n%zu more node%s that do not fit, by "
		    "reason: ", rest, rest == 1 ? "" : "s");
		for (i = 0; i < ncodes; i++)
			dra_buf_addf(&b, "%s%zu %s", i ? ", " : "", counts[i],
			    codes[i]);
		dra_buf_adds(&b, "\n");
	}
	return printable(dra_buf_take(&b));
}

static cJSON *
json_str(const char *s)
{
	return s != NULL ? cJSON_CreateString(s) : cJSON_CreateNull();
}

static cJSON *
json_strings(char *const *v, size_t n)
{
	cJSON	*a = cJSON_CreateArray();
	size_t	 i;

	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(v[i]));
	return a;
}

struct cJSON *
dra_why_json(const char *target, const char *claim, const struct dra_why *w)
{
	cJSON	*o, *a, *d;
	size_t	 i;

	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "kind", "Why");
	cJSON_AddItemToObject(o, "target", json_str(target));
	cJSON_AddItemToObject(o, "claim", json_str(claim));
	if (w->allocatable < 0)
		cJSON_AddNullToObject(o, "allocatable");
	else
		cJSON_AddBoolToObject(o, "allocatable", w->allocatable);
	cJSON_AddStringToObject(o, "verdict", dra_why_verdict_name(w->verdict));
	cJSON_AddItemToObject(o, "summary", json_str(w->summary));
	cJSON_AddItemToObject(o, "node", json_str(w->node));
	a = cJSON_AddArrayToObject(o, "devices");
	for (i = 0; i < w->ndevices; i++) {
		d = cJSON_CreateObject();
		cJSON_AddStringToObject(d, "claim", w->devices[i].claim_name);
		cJSON_AddStringToObject(d, "request", w->devices[i].request);
		cJSON_AddStringToObject(d, "driver", w->devices[i].driver);
		cJSON_AddStringToObject(d, "pool", w->devices[i].pool);
		cJSON_AddStringToObject(d, "device", w->devices[i].name);
		if (w->devices[i].admin_access)
			cJSON_AddBoolToObject(d, "adminAccess", 1);
		if (w->devices[i].consumed != NULL)
			cJSON_AddStringToObject(d, "consumedCapacity",
			    w->devices[i].consumed);
		cJSON_AddItemToArray(a, d);
	}
	cJSON_AddNumberToObject(o, "nodesConsidered", (double)w->nnodes);
	cJSON_AddItemToObject(o, "fitNodes", json_strings(w->fit_nodes,
	    w->nfit_nodes));
	cJSON_AddItemToObject(o, "release", json_strings(w->release,
	    w->nrelease));
	cJSON_AddStringToObject(o, "releaseNeeds", w->nrelease == 0 ? "none" :
	    w->release_any ? "any" : "all");
	a = cJSON_AddArrayToObject(o, "reasons");
	for (i = 0; i < w->nreasons; i++) {
		const struct dra_why_reason *r = &w->reasons[i];

		d = cJSON_CreateObject();
		cJSON_AddItemToObject(d, "node", json_str(r->node));
		cJSON_AddItemToObject(d, "claim", json_str(r->claim));
		cJSON_AddItemToObject(d, "request", json_str(r->request));
		cJSON_AddStringToObject(d, "code", r->code);
		cJSON_AddStringToObject(d, "message", r->message);
		cJSON_AddItemToObject(d, "evidence", json_strings(r->evidence,
		    r->nevidence));
		cJSON_AddItemToArray(a, d);
	}
	return o;
}
