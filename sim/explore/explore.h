/*
 * explore.h — schedules: exhaustive exploration up to a bound (a failure
 * at its least bound), seeded random sampling, minimisation, the one-line
 * form.  (Counterexample trace files are cmd_check.c's and cmd_replay.c's.)
 */
#ifndef SELFMON_EXPLORE_H
#define SELFMON_EXPLORE_H

#include "session.h"

#define SM_DEFAULT_BOUND 2 /* check's --bound */

struct sm_explore_opts {
	unsigned bound;        /* at most this many injected actions */
	unsigned random_runs;  /* 0: exhaustive; else this many random ones */
	uint64_t seed;
	unsigned time_limit;   /* seconds for one cell; 0: none */
	bool no_prune;         /* run every schedule, even from a state
	                        * already explored (prune.h) */
};

struct sm_cell {
	/* PASS; INCOMPLETE (some schedule BLOCKED, so not every one was
	 * judged); the first failure found (after minimising: the minimised
	 * schedule's); or ERROR (selfmon's own) */
	enum sm_verdict verdict;
	enum sm_verdict found_verdict; /* of `found` */
	bool timed_out;                /* stopped at the time limit */
	/* schedules judged, and BLOCKED among them; pruned of them were
	 * counted from an explored subtree with an equal state (prune.h),
	 * not run, at `cuts` branch points */
	uint64_t runs, blocked, pruned, cuts;
	/* of runs, those that returned a value derived from a counter read
	 * (sm_run.counter_path), pruned ones counted as runs are */
	uint64_t counter_path;
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

/* ARCH:ENGINE:READER:SCENARIO:ITEMS[;dropped=ACTION,...][;kernel=V,...]
 * ITEMS = "-" or action@step,...; the dropped set is sch->dropped, the
 * kernel variants sch->kernel.
 * sm_schedule_format() writes at most n bytes and returns the length of
 * the whole line (as snprintf); sm_schedule_text() returns it in memory
 * of its own (free() it; NULL when out of memory). */
size_t sm_schedule_format(char *buf, size_t n, enum sm_arch arch,
                          enum sm_engine_kind e, const char *reader,
                          const char *scenario, const struct sm_schedule *sch);
char *sm_schedule_text(enum sm_arch arch, enum sm_engine_kind e,
                       const char *reader, const char *scenario,
                       const struct sm_schedule *sch);
/* A parsed line; reader and scenario point into memory the line owns:
 * release it with sm_schedule_line_free(). */
struct sm_schedule_line {
	enum sm_arch arch;
	enum sm_engine_kind engine;
	char *reader, *scenario;
	struct sm_schedule sched;
	char *text;
};
#define SM_SCHEDULE_MAX (64 * 1024) /* longest line parsed, in bytes */
int sm_schedule_parse(const char *text, struct sm_schedule_line *out,
                      char *err, size_t n);
void sm_schedule_line_free(struct sm_schedule_line *l);


#endif
