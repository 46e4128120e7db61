/*
 * yaml.c: a kubeconfig YAML node as JSON (the tree itself is
 * kube/util/ydoc.c's), for exec plugin config and extensions that are
 * passed on as they are.
 */
#include "client-int.h"

#include <cJSON.h>

#include "yamlscalar.h"

cJSON *
kube_ynode_to_json(const struct kube_ynode *n)
{
	cJSON	*j, *kid;
	double	 d;
	int	 b;
	size_t	 i;

	if (kube_ynode_is_null(n))
		return cJSON_CreateNull();
	switch (n->type) {
	case KUBE_Y_SCALAR:
		if (!n->plain)
			return cJSON_CreateString(n->str);
		switch (dra_yaml_resolve(n->str, n->len, &d, &b)) {
		case DRA_YAML_NULL:
			return cJSON_CreateNull();
		case DRA_YAML_BOOL:
			return cJSON_CreateBool(b);
		case DRA_YAML_NUMBER:
			return cJSON_CreateNumber(d);
		case DRA_YAML_STRING:
			break;
		}
		return cJSON_CreateString(n->str);
	case KUBE_Y_SEQ:
		j = cJSON_CreateArray();
		for (i = 0; i < n->n; i++)
			cJSON_AddItemToArray(j, kube_ynode_to_json(n->kids[i]));
		return j;
	case KUBE_Y_MAP:
		j = cJSON_CreateObject();
		for (i = 0; i + 1 < n->n; i += 2) {
			if (n->kids[i]->type != KUBE_Y_SCALAR)
				continue;
			kid = kube_ynode_to_json(n->kids[i + 1]);
			cJSON_DeleteItemFromObjectCaseSensitive(j,
			    n->kids[i]->str);
			cJSON_AddItemToObject(j, n->kids[i]->str, kid);
		}
		return j;
	}
	return cJSON_CreateNull();
}
