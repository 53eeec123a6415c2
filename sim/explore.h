/*
 * explore.h — schedules: exhaustive exploration up to a bound, seeded
 * random sampling, minimisation, the one-line form, and trace files.
 */
#ifndef SELFMON_EXPLORE_H
#define SELFMON_EXPLORE_H

#include "session.h"

struct sm_explore_opts {
	unsigned bound;        /* at most this many injected actions */
	unsigned random_runs;  /* 0: exhaustive; else this many random ones */
	uint64_t seed;
};

struct sm_cell {
	/* PASS; INCOMPLETE (some schedule BLOCKED, so not every one was
	 * judged); the first failure found (after minimising: the minimised
	 * schedule's); or ERROR (selfmon's own) */
	enum sm_verdict verdict;
	enum sm_verdict found_verdict; /* of `found` */
	uint64_t runs, blocked;
	struct sm_schedule found, min;
	struct sm_result res;     /* of the minimised schedule */
};

/* Explore the session's reader in its scenario; fills cell. */
void sm_explore(struct sm_session *s, const struct sm_explore_opts *o,
                struct sm_cell *cell);
/* Run one schedule from the start; the result is in s->res. */
void sm_run_schedule(struct sm_session *s, const struct sm_schedule *sch);

/* ARCH:ENGINE:READER:SCENARIO:ITEMS, ITEMS = "-" or action@step,... */
void sm_schedule_format(char *buf, size_t n, enum sm_arch arch,
                        enum sm_engine_kind e, const char *reader,
                        const char *scenario, const struct sm_schedule *sch);
struct sm_schedule_line {
	enum sm_arch arch;
	enum sm_engine_kind engine;
	char reader[64];
	char scenario[512];
	struct sm_schedule sched;
};
int sm_schedule_parse(const char *text, struct sm_schedule_line *out,
                      char *err, size_t n);

/* Scenario names: a bundled name (x86_reset) or a path. */
int sm_scenario_resolve(const char *name, char *path, size_t n);
const char *sm_traces_dir(void);

#endif
