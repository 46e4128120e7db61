/*
 * ydoc.h: a YAML document as a small tree with positions.
 *
 * For the hand-written files the plugin reads field by field and must
 * answer with "FILE:12:7: users[0].user.token: ...": kubeconfig files
 * (kube/client) and demand files (planner/).  The whole document is
 * built in an arena from libyaml's event stream with an explicit
 * stack; each node keeps the line and column where it starts.
 * Aliases point at the anchored node instead of copying it (the tree
 * is a DAG, freed with the arena); to keep "billion laughs" documents
 * out, the size of the document with every alias expanded is counted
 * and capped.  Scalars keep their text and whether they were plain,
 * because YAML 1.1 resolves only plain scalars to null, booleans and
 * numbers (go-yaml v2, which sigs.k8s.io/yaml and so clientcmd use).
 */
#ifndef DRA_YDOC_H
#define DRA_YDOC_H

#include <stddef.h>

#include "arena.h"
#include "err.h"

#define KUBE_YAML_MAX_EXPANDED	1000000UL	/* nodes, aliases expanded */
#define KUBE_YAML_MAX_DEPTH	256		/* nesting */

enum kube_ytype {
	KUBE_Y_SCALAR,
	KUBE_Y_SEQ,
	KUBE_Y_MAP
};

struct kube_ynode {
	enum kube_ytype		  type;
	int			  plain;  /* scalar unquoted and untagged
					     (or tagged !!int, !!bool...) */
	const char		 *str;	  /* scalar text, NUL-terminated */
	size_t			  len;	  /* scalar length */
	struct kube_ynode	**kids;	  /* SEQ items; MAP key,value pairs */
	size_t			  n;	  /* SEQ items; MAP pairs * 2 */
	unsigned long		  line;	  /* 1-based start position */
	unsigned long		  col;
};

/* kube_yaml_load() flags. */
#define KUBE_YAML_ONE_DOC	0x1	/* a second document is an error
					   (else only the first one counts,
					   as go-yaml v2 reads) */
#define KUBE_YAML_NO_NUL	0x2	/* a NUL character in a scalar is an
					   error */

/*
 * Parse the first YAML document of data (len bytes) into *root, all in
 * a.  *root is NULL for an empty stream.  path names the file in
 * messages; code is the kube_rc every error carries (KUBE_E_CONFIG for
 * a kubeconfig, KUBE_E_PARSE for a demand).  Errors, "PATH:LINE:COL:
 * problem": libyaml's problem at its problem_mark, "unknown anchor
 * \"x\"", "nesting deeper than 256 levels", "the document expands to
 * more than 1000000 nodes through aliases", with KUBE_YAML_ONE_DOC
 * "a second document: <one_doc>" (one_doc says what the file holds),
 * with KUBE_YAML_NO_NUL "a NUL character in a value".  Nothing is left
 * allocated outside a on error.
 */
int	kube_yaml_load(const char *path, const char *data, size_t len,
	    unsigned flags, const char *one_doc, int code,
	    struct dra_arena *a, struct kube_ynode **root,
	    struct dra_err *err);

/* The value of key in MAP node m (the last one if repeated), or NULL. */
const struct kube_ynode *kube_ynode_get(const struct kube_ynode *m,
	    const char *key);

/* Plain scalars "~", "null", "Null", "NULL" and "" are null (YAML 1.1);
   so is a NULL node. */
int	kube_ynode_is_null(const struct kube_ynode *n);

#endif
