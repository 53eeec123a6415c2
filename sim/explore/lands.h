/*
 * lands.h — where a kernel action lands in a read, said from the listing:
 * "before step 10, the first load of page.lock: at the start of the
 * read".  explain-bug prints it under its example, the JSON of a listing
 * carries it (sim/teach/), and docs/abi.md quotes it, so the prose about
 * an example follows the instructions it shows.
 *
 * Owns the wording and the rule: an action that lands before step k is
 * placed against the reader's accesses (its page loads and its trapped
 * reads: rdpmc, mrs, csrr, rdtsc, read(2)) recorded in a listing, the
 * first at or after k and the last before it.  It reads a recorded
 * listing (explain.h, record set) and must not run anything.
 */
#ifndef SELFMON_LANDS_H
#define SELFMON_LANDS_H

#include <stddef.h>
#include <stdint.h>

#include "explain.h"

/* Where an action landing before step `step` falls in x's recorded
 * listing, as data: the accesses around it (indexes into x->ev, -1 for
 * none) and whether the listing stopped before it (max_steps). */
struct sm_lands {
	uint64_t step;
	long before;   /* the first access at or after step */
	long after;    /* the last access before step */
	bool unlisted; /* step is beyond the steps listed */
};
void sm_lands_find(const struct sm_explain *x, uint64_t step,
                   struct sm_lands *l);
/* One access in words: "the first load of page.lock", "the rdpmc" (an
 * ordinal only when the call makes that access more than once). */
void sm_lands_access(const struct sm_explain *x, long ev, char *buf,
                     size_t n);
/* The whole sentence without the action's name: "before step 10, the
 * first load of page.lock: at the start of the read". */
void sm_lands_text(const struct sm_explain *x, uint64_t step, char *buf,
                   size_t n);

#endif
