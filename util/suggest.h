/*
 * suggest.h — "did you mean": the known name nearest to a mistyped one,
 * as git and perf suggest a command.
 *
 * Owns the distance (Damerau–Levenshtein with adjacent transpositions,
 * case-blind) and the rule for close enough.  It must not know what the
 * names are: callers pass their own lists.
 */
#ifndef SELFMON_SUGGEST_H
#define SELFMON_SUGGEST_H

#include <stddef.h>

/* Incremental form: start with best = NULL, offer each candidate; the
 * nearest one close enough to `typed` is kept (the first of equals). */
struct sm_suggest {
	const char *typed;
	const char *best;
	unsigned dist;
};
void sm_suggest_init(struct sm_suggest *s, const char *typed);
void sm_suggest_offer(struct sm_suggest *s, const char *candidate);

/* The nearest of names[0..n) to typed, close enough to be a slip of the
 * keyboard (at most one edit for a word of up to 4 letters, two up to 8,
 * three beyond), or NULL. */
const char *sm_suggest(const char *typed, const char *const *names, size_t n);

#endif
