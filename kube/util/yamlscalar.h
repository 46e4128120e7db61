/*
 * yamlscalar.h: how a plain YAML scalar resolves to a type.
 *
 * Kubernetes reads YAML through sigs.k8s.io/yaml, which uses go-yaml v2
 * and so YAML 1.1's resolution of plain (unquoted) scalars: "~",
 * "null" and the empty string are null; y/yes/true/on and
 * n/no/false/off (in three capitalisations) are booleans; decimal,
 * 0x hexadecimal, 0o/0 octal and 0b binary integers (underscores
 * allowed) and decimal floats, ".inf" and ".nan" are numbers;
 * everything else is a string.  Quoted scalars are always strings:
 * callers check the style before asking.  Shared by the kubeconfig
 * reader (kube/client) and the snapshot reader (kube/model).
 */
#ifndef DRA_YAMLSCALAR_H
#define DRA_YAMLSCALAR_H

#include <stddef.h>

enum dra_yaml_type {
	DRA_YAML_NULL,
	DRA_YAML_BOOL,
	DRA_YAML_NUMBER,
	DRA_YAML_STRING,
};

/*
 * Resolve the plain scalar s (len bytes, NUL-terminated).  For a bool
 * *b is set to 0 or 1; for a number *num to its value (integers beyond
 * 2^53 lose precision, as they do in JSON).  Returns the type.
 */
enum dra_yaml_type dra_yaml_resolve(const char *s, size_t len, double *num,
	    int *b);

#endif
