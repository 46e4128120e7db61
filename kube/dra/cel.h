/*
 * cel.h: the CEL that DRA device selectors use, evaluated in C.
 *
 * DeviceClass selectors and request selectors are CEL expressions over
 * one variable, `device` (DRA-REFERENCE.md section 4; Kubernetes 1.37
 * k8s.io/dynamic-resource-allocation/cel):
 *
 *   device.driver                    string
 *   device.attributes[domain].id     int, bool, string, semver (and
 *                                    lists with DRAListTypeAttributes)
 *   device.capacity[domain].id       Quantity
 *   device.allowMultipleAllocations  bool
 *
 * plus the libraries of the Kubernetes base environment that selectors
 * use: literals, && || ! ?:, comparisons (cross-type numeric), in,
 * has(), optional access .? / [?] with orValue/hasValue/value, string
 * functions (size, startsWith, endsWith, contains, matches (RE2 syntax,
 * run with PCRE2), lowerAscii, upperAscii, trim, ...), quantity() and
 * its methods, semver() and its methods, lists and includes().
 *
 * Semantics follow cel-go: errors are values, and && / || absorb an
 * error when the other side decides the result (false && err is false,
 * true || err is true).  Looking up a domain that the device does not
 * publish gives an empty map; an id it does not publish is the runtime
 * error "no such key: <id>".
 *
 * An expression that uses a construct this evaluator does not implement
 * compiles to a program whose every evaluation answers
 * DRA_CEL_UNSUPPORTED with "unsupported CEL construct X at column N":
 * the caller reports "unknown", never a guess.
 *
 * Nothing here prints or exits.  Programs are immutable after
 * compilation and may be shared between threads.
 */
#ifndef DRA_CEL_H
#define DRA_CEL_H

#include <stddef.h>

#include "err.h"
#include "model.h"

/* A compiled selector expression. */
struct dra_cel;

/* Results of dra_cel_eval(). */
#define DRA_CEL_FALSE		0
#define DRA_CEL_TRUE		1
#define DRA_CEL_ERROR		(-1)	/* CEL runtime error (err holds it) */
#define DRA_CEL_UNSUPPORTED	(-2)	/* construct we do not implement */

/*
 * Compile expr (NUL-terminated, borrowed) into *out.
 *
 * Returns KUBE_OK and a program in *out (free it with dra_cel_free()),
 * or KUBE_E_PARSE with err->msg "column N: <problem>" (1-based byte
 * column, as cel-go reports `<input>:1:N`) for a syntax error or a
 * type error the API server's compiler would also reject (for example
 * `found no matching overload for '_>=_' applied to
 * '(kubernetes.Quantity, int)'`, or an expression that is not bool).
 * *out is NULL on error.  An unsupported construct is not an error
 * here: see the file comment.
 */
int	dra_cel_compile(const char *expr, struct dra_cel **out,
	    struct dra_err *err);

/*
 * Evaluate p for device d (borrowed; its attributes with domain and id
 * as decoded by kube/model; device.driver is d->slice->driver).
 *
 * Returns DRA_CEL_TRUE or DRA_CEL_FALSE; DRA_CEL_ERROR with err->msg
 * holding the CEL runtime error text as cel-go words it ("no such key:
 * type", "no such overload", "division by zero", ...); or
 * DRA_CEL_UNSUPPORTED with err->msg "unsupported CEL construct X at
 * column N".  Mirrors cel-go's evaluation as the scheduler runs it
 * (Kubernetes 1.37 structured allocator); the cost limit is not
 * modelled.
 */
int	dra_cel_eval(const struct dra_cel *p, const struct kube_device *d,
	    struct dra_err *err);

/* The expression text p was compiled from (borrowed from p). */
const char *dra_cel_text(const struct dra_cel *p);

/*
 * Non-zero if p contains a construct this evaluator does not implement;
 * then *why (if why is not NULL) points at p's "unsupported CEL
 * construct X at column N" text (borrowed from p).
 */
int	dra_cel_unsupported(const struct dra_cel *p, const char **why);

/* Free p.  NULL is a no-op. */
void	dra_cel_free(struct dra_cel *p);

#endif
