/*
 * lookalike.h — does a user's failure look like a corpus fault?  The
 * corpus reader (reader/variants/) whose failure in the same scenario has
 * the same signature, so that check's details and explain-bug can say
 * "this looks like `no_sext`" with that variant's fault and fix.
 *
 * Owns the signature, the search and the sentence that says it.
 */
#ifndef SELFMON_LOOKALIKE_H
#define SELFMON_LOOKALIKE_H

#include "explore.h"
#include "reader.h"

/* The corpus readers whose failure in scn (the bundled scn_name, as the
 * cell ran it: its action filter applied, `at` its expectation context)
 * has cell's signature, at most max into out, those of the user's ABI
 * first, then the later in the corpus table (its single-fault mutants
 * follow the re-implementations: the more specific fault); how many.  The signature:
 * the verdict; a WRONG_VALUE's wrong values, each one's field, cause and
 * power-of-two offset (its bits and sign), of the fields the user's ABI
 * (abi) returns; a FAULT's kind; and the
 * minimised counterexample's actions, in order.  Candidates are the
 * corpus readers declared to fail there with those actions at that least
 * bound (list.h), each explored in scn (Unicorn engine) to compare the
 * rest. */
unsigned sm_lookalike(const struct sm_scenario *scn, const char *scn_name,
                      enum sm_abi abi, const struct sm_cell *cell,
                      const struct sm_expect_at *at,
                      const struct sm_reader **out, unsigned max);
/* "this looks like `NAME` ...: FAULT", "its fix: FIX" for the first of
 * r[0..n), and the others' names, each line after indent, on stdout
 * (nothing when n is 0). */
void sm_lookalike_print(const struct sm_reader *const *r, unsigned n,
                        const char *indent);

#endif
