/*
 * explore.h — schedules: exhaustive exploration up to a bound (a failure
 * at its least bound), seeded random sampling, minimisation.  (A
 * schedule's one-line form is schedule_line.h's, included here for the
 * explorer's callers; counterexample trace files are cex_trace.h's.)
 */
#ifndef SELFMON_EXPLORE_H
#define SELFMON_EXPLORE_H

#include <stdatomic.h>

#include "schedule_line.h"
#include "session.h"

#define SM_DEFAULT_BOUND 2 /* check's --bound */

struct sm_explore_opts {
	unsigned bound;        /* at most this many choices: injected
	                        * actions and the CPU's stale reads */
	unsigned random_runs;  /* 0: exhaustive; else this many random ones */
	uint64_t seed;
	unsigned time_limit;   /* seconds for one cell; 0: none */
	bool no_prune;         /* run every schedule, even from a state
	                        * already explored (prune.h) */
	bool no_stale;         /* never choose the CPU's stale read at a
	                        * choice point (--without stale_select) */
	/* optional (NULL: none), shared by the cells explored at once: each
	 * schedule run adds 1 to *progress (for a progress line, read by
	 * another thread), and once *stop is set (Ctrl-C) the exploration
	 * stops as at the time limit, the cell marked interrupted */
	atomic_ulong *progress;
	const atomic_bool *stop;
};

struct sm_cell {
	/* PASS; INCOMPLETE (some schedule BLOCKED, so not every one was
	 * judged); the first failure found (after minimising: the minimised
	 * schedule's); or ERROR (selfmon's own) */
	enum sm_verdict verdict;
	enum sm_verdict found_verdict; /* of `found` */
	bool timed_out;                /* stopped at the time limit */
	bool interrupted;              /* ... or by *stop: not a result */
	/* schedules judged, and BLOCKED among them; pruned of them were
	 * counted from an explored subtree with an equal state (prune.h),
	 * not run, at `cuts` branch points */
	uint64_t runs, blocked, pruned, cuts;
	/* of runs, those that returned a value derived from a counter read
	 * (sm_run.counter_path), pruned ones counted as runs are */
	uint64_t counter_path;
	bool stale_left_out; /* a choice point's stale read was not taken
	                      * (opts.no_stale): the CPU could have */
	bool pruning;        /* the exploration pruned (snapshots, hash) */
	bool prune_full;     /* its table filled: later equal states were run */
	struct sm_schedule found, min;
	struct sm_result res;     /* of the minimised schedule */
	/* a failure's least bound: the fewest actions any failing schedule
	 * has, so the bounds at and above it all report this failure, and
	 * the ones below it PASS (explore.c least_bound()); SM_LEAST_UNKNOWN
	 * for random sampling, or when the time limit cut the search */
	unsigned least_bound;
};
#define SM_LEAST_UNKNOWN (~0u)

/* Explore the session's reader in its scenario; fills cell. */
void sm_explore(struct sm_session *s, const struct sm_explore_opts *o,
                struct sm_cell *cell);
/* Run one schedule from the start; the result is in s->res. */
void sm_run_schedule(struct sm_session *s, const struct sm_schedule *sch);

#endif
