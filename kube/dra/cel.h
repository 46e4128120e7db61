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
 * Coverage (Kubernetes 1.37: dynamic-resource-allocation 3d036712,
 * apiserver base environment 24a394e5, cel-go v0.27.0):
 *
 *   - the whole CEL grammar but message construction, leading-dot
 *     names and quoted identifiers; int/uint/double/string/bytes/bool/
 *     null/list/map literals (homogeneous, as HomogeneousAggregateLiterals
 *     requires), string escapes, raw and triple-quoted strings;
 *   - macros has, all, exists, exists_one, map, filter, the
 *     two-variable forms (all, exists, existsOne, transformList,
 *     transformMap), cel.bind (lazy), optMap, optFlatMap, sortBy;
 *   - optionals: .? [?] optional.of/none/ofNonZeroValue, hasValue,
 *     value, orValue, or, optional list and map entries;
 *   - strings ext v2 (charAt, indexOf, lastIndexOf, lowerAscii,
 *     upperAscii, replace, split, substring, trim, join,
 *     strings.quote), matches (see below), size, startsWith, endsWith,
 *     contains, conversions int/uint/double/string/bool/bytes/dyn,
 *     type() and type values (int, string, map, type, ...);
 *   - quantity() and its methods, semver() and its methods, the
 *     Kubernetes lists library (isSorted, sum, min, max, indexOf,
 *     lastIndexOf), lists ext v3 (slice, flatten, reverse, distinct,
 *     sort, lists.range), sets ext, DRA's includes() (an error beyond
 *     48 list items, as the 1.37 library has it).
 *
 * Unsupported (DRA_CEL_UNSUPPORTED): format(), timestamps, durations,
 * the dyn type value, url/ip/cidr, the authz libraries, any other
 * unknown function; a matches() pattern that Go's RE2 syntax rejects
 * (the API server would) or that PCRE2 would read differently, or
 * that exhausts PCRE2's backtracking limit; quantities beyond about 1e28;
 * expressions nested deeper than 250 levels; evaluations beyond
 * 1000000 comprehension steps (the cost limit is not modelled).
 *
 * Nothing here prints or exits.  Programs are immutable after
 * compilation and may be shared between threads (each thread keeps
 * one PCRE2 match block of its own).  An evaluation allocates only
 * for values it builds (strings, lists) beyond 2 KiB of stack.
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
 * type", "no such overload", "division by zero", ...) and err->code
 * KUBE_E_API; or DRA_CEL_UNSUPPORTED with err->msg "unsupported CEL
 * construct X at column N" and err->code KUBE_E_UNSUPPORTED.  A result
 * that is not a bool is DRA_CEL_ERROR "CEL result of type T could not
 * be converted to bool", as DeviceMatches words it.  Mirrors cel-go's
 * evaluation as the scheduler runs it (Kubernetes 1.37 structured
 * allocator); the cost limit is not modelled (see above).
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
