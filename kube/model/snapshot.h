/*
 * snapshot.h: reading and writing snapshot files.
 *
 * A snapshot file is what `kubectl dra snapshot` writes: one v1 List
 * (YAML or JSON) of every object the views need.  The reader accepts
 * more: any `kubectl get -o yaml|json` output (a List or one object),
 * multi-document YAML, and JSON, all streamed: YAML through libyaml's
 * event parser and JSON by cutting the top-level "items" array into
 * one element at a time, so memory holds one item's tree, never the
 * whole document (a large GPU cluster publishes hundreds of MB).
 */
#ifndef KUBE_SNAPSHOT_H
#define KUBE_SNAPSHOT_H

#include <stdio.h>

#include "err.h"
#include "model.h"

/*
 * Add every object in the file at path ("-" for standard input) to s,
 * by kube_snapshot_add().  The format is sniffed: JSON when the first
 * non-blank byte is '{' or '[', YAML otherwise.  Does not call
 * kube_snapshot_finish().
 *
 * Errors: KUBE_E_IO (cannot open or read; message names the path and
 * strerror), KUBE_E_PARSE (malformed document: "PATH:LINE:COL: problem"
 * for YAML and JSON alike; a bad object: "PATH: items[N]
 * (resourceslice/x): spec.devices[2].name: expected a string").  On
 * error s may hold the objects read before the bad one.
 */
int	kube_snapshot_load_file(struct kube_snapshot *s, const char *path,
	    struct dra_err *err);

/* As kube_snapshot_load_file, from a buffer (name is used in errors). */
int	kube_snapshot_load_mem(struct kube_snapshot *s, const char *name,
	    const char *data, size_t len, struct dra_err *err);

enum kube_format {
	KUBE_FORMAT_YAML,
	KUBE_FORMAT_JSON,
};

/*
 * Encode one object of s back into the v1 form as a new cJSON tree
 * (apiVersion resource.k8s.io/v1 for DRA kinds whatever version was
 * read, so a claim read through v1beta1 shows "exactly").  The caller
 * frees the tree with cJSON_Delete.  kind is the Kubernetes kind
 * ("ResourceSlice", "ResourceClaim", "ResourceClaimTemplate",
 * "DeviceClass", "DeviceTaintRule", "Pod", "Node", "Namespace",
 * "ResourceQuota") and obj the matching model struct.  Pods, Nodes and
 * Namespaces carry only the fields the model keeps.
 */
struct cJSON *kube_encode(const char *kind, const void *obj);

/*
 * Write every object of s as one v1 List to f in fmt, streamed item
 * by item.  Returns KUBE_OK or KUBE_E_IO when a write fails (err names
 * errno).  The caller owns f and decides where it goes (the command
 * writes a temporary file and renames it, so nothing is half-written).
 */
int	kube_snapshot_write(const struct kube_snapshot *s, FILE *f,
	    enum kube_format fmt, struct dra_err *err);

/*
 * Write one cJSON value to f as YAML (block style, kubectl's layout:
 * 2-space indent, lists not indented under their key), through
 * libyaml's emitter.  Returns KUBE_OK or KUBE_E_IO.
 */
int	kube_yaml_write(FILE *f, const struct cJSON *value,
	    struct dra_err *err);

#endif
