/*
 * session.h — one reader called once in one scenario, under a schedule of
 * injected kernel actions, on one engine: the session (the cell, the run,
 * the window, the result), the engine interface, and the tracer hooks a
 * listing attaches to.
 *
 * Owns the session's types and session.c's functions.  Engines
 * (engine_*.c) run the reader; the session samples the ground truth and
 * hands the window to the oracle (sim/oracle/); the explorer (sim/explore/)
 * chooses schedules.  The readers are reader.h, a schedule schedule.h, a
 * result result.h.  None of them parses scenario text.
 */
#ifndef SELFMON_SESSION_H
#define SELFMON_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"
#include "oracle.h"
#include "reader.h"
#include "result.h"
#include "scenario.h"
#include "schedule.h"
#include "verdict.h"

/* ---- a session ------------------------------------------------------- */

#define SM_BUDGET 20000        /* Unicorn: instructions of one call */
#define SM_NATIVE_BUDGET 5000  /* native: routed calls of one call */
/* The budget of one call on engine e, in its steps. */
static inline uint64_t sm_budget(enum sm_engine_kind e)
{
	return e == SM_ENGINE_NATIVE ? SM_NATIVE_BUDGET : SM_BUDGET;
}
/* Out of the budget: the kernel wrote the page within this many steps
 * before, so the reader is still retrying (BLOCKED), else LIVELOCK. */
#define SM_BLOCKED_WINDOW 1000
/* Observation points are steps of one run, kept ascending and distinct,
 * so a run of at most SM_BUDGET steps has at most SM_BUDGET + 1: every
 * observing instruction of every run is an injection point. */
#define SM_MAX_POINTS (SM_BUDGET + 2)
#define SM_EVENT_FD 3          /* the target event's fd as readers see it */

struct sm_hasher;               /* state_hash.h */

/* What a tracer is told as a run happens, as lua_State holds its hook:
 * engines and session.c call these through s->tracer (set by
 * sm_replay()), never a listing directly.  insn before each executed
 * instruction (Unicorn); native at each routed call of the native engine,
 * with its argument and the caller's return address in this process;
 * load a load of the page (off, size, value); trap a trapped counter or
 * timer read or a syscall and its answer; action a kernel action applied
 * (rc as sm_session_apply(), updates the model's page updates before it);
 * store one store of a remote writer's update (the field's offset);
 * second_call (optional) a two-call ABI's read called (its first step
 * next). */
struct sm_session;
struct sm_tracer {
	void (*insn)(struct sm_session *s, uint64_t addr, const uint8_t *bytes,
	             unsigned len);
	void (*native)(struct sm_session *s, const char *what, uint64_t arg,
	               const void *caller);
	void (*load)(struct sm_session *s, unsigned off, unsigned size,
	             uint64_t value);
	void (*trap)(struct sm_session *s, const char *what, uint64_t arg,
	             uint64_t value);
	void (*action)(struct sm_session *s, enum sm_action_kind kind, int rc,
	               uint64_t updates_before);
	void (*store)(struct sm_session *s, int off);
	void (*second_call)(struct sm_session *s);
};

/* Where one call of the reader is: with the model and the engine's own
 * state, exactly what a snapshot saves and restores, as one copy.  The
 * points and samples are logs that only grow during a run: a snapshot
 * keeps their lengths. */
struct sm_run {
	const struct sm_schedule *sched;
	unsigned sched_next;        /* replay mode: next item to apply */
	unsigned timed_next;        /* scenario actions after check_at */
	uint64_t step;              /* instructions executed so far */
	uint64_t deadline;          /* next natural model activity */
	bool kernel_active;         /* an action was applied during the call */
	uint64_t last_kernel_step;  /* when the kernel last wrote the page */
	unsigned npoints, nsamples; /* lengths of the two logs */
	/* samples owed to the log: the truth at owed_n instants from
	 * owed_from under the model's state as it is now; paid before the
	 * state changes (sm_session_settle) */
	uint64_t owed_from;
	unsigned owed_n;
	unsigned applied;           /* 1 << kind: actions applied in the call */
	/* the counter path (sm_session_returned()): the last of the
	 * reader's counter reads (x86 rdpmc; arm64 mrs of PMEVCNTR<n>_EL0,
	 * PMCCNTR_EL0 or PMXEVCNTR_EL0; riscv64 csrr of cycle, instret or
	 * hpmcounterN; the native engine's routed rdpmc) and read(2)s of the
	 * event's fd was a counter read; and, once the reader returned,
	 * whether its value counts as derived from that read */
	bool counter_last;
	bool counter_path;
	/* step + 1 of the read the explorer chose to answer with the stale
	 * selection (sm_session_stale()); 0: none */
	uint64_t stale_at;
	/* a two-call ABI (reader.h): which call runs (0 the first, 1 the
	 * read), and from the read on, how many of the window's samples are
	 * the first call's */
	unsigned call;
	unsigned split;
};

/* State split by lifetime: the cell (scenario, reader, engine; the arch
 * is the scenario's) never changes while its schedules are explored; the
 * run changes at every step; the window is the truth the oracle judges
 * by; the result is the run's verdict. */
struct sm_session {
	/* the cell */
	const struct sm_scenario *scn;
	const struct sm_reader *reader;
	enum sm_engine_kind engine;
	/* the run */
	struct sm_model *model;     /* the kernel; its pages stay where they
	                             * are (sm_model_rebuild()) */
	/* the model at the call, made once at init and restored at each
	 * start (the native engine re-executes every schedule from it) */
	struct sm_snapshot *at_call;
	uint64_t at_call_timed_next;
	struct sm_run run;
	/* observation points: steps that load the page or trap; stale[i]:
	 * points[i] is also a choice the CPU has (sm_session_stale_point()) */
	uint64_t points[SM_MAX_POINTS];
	uint8_t stale[SM_MAX_POINTS];
	/* the oracle's window: truth at every instant of the call, sized at
	 * init for the longest run (sm_session_init) */
	struct sm_truth *samples;
	uint64_t *scratch;          /* max_samples, for the oracle */
	unsigned max_samples;
	/* the result */
	struct sm_result res;
	/* the tracer (a listing: sim/explore/explain.c) and its state; NULL
	 * unless --explain, and then called as the run happens */
	const struct sm_tracer *tracer;
	void *trace;
	bool terse;                 /* judge PASS without its detail line */
	void *eng;                  /* engine private state */
};

/* Engine interface.  begin() puts the session at the reader's call with
 * the model at check_at; run() executes until before instruction `stop`
 * (UINT64_MAX: to the end) and returns true if it stopped there, false
 * when the call ended (res filled).  Engines without snapshots run each
 * schedule whole from begin() (sched items applied at their steps). */
struct sm_engine_ops {
	int (*open)(struct sm_session *s, char *err, size_t n);
	void (*close)(struct sm_session *s);
	void (*begin)(struct sm_session *s);
	bool (*run)(struct sm_session *s, uint64_t stop);
	/* optional: state snapshots (NULL: re-execute); save makes a new one
	 * when snap is NULL, and returns NULL when out of memory */
	void *(*save)(struct sm_session *s, void *snap);
	void (*restore)(struct sm_session *s, const void *snap);
	void (*free_snap)(void *snap);
	/* optional, with save: hash everything a snapshot saves, the model
	 * and the run's position included (state_hash.h) */
	void (*hash)(struct sm_session *s, struct sm_hasher *h);
};
extern const struct sm_engine_ops sm_engine_unicorn, sm_engine_native;
const struct sm_engine_ops *sm_engine_ops(enum sm_engine_kind e);

/* A zeroed session; free with
 * sm_session_free() (closes the engine). */
struct sm_session *sm_session_new(void);
void sm_session_free(struct sm_session *s);

/* Shared by the engines (session.c).  Init may be called again on the
 * same session for the next cell: an engine of the same kind keeps what
 * it can (the emulator, for the same code: engine_unicorn.c). */
int sm_session_init(struct sm_session *s, const struct sm_scenario *scn,
                    const struct sm_reader *r, enum sm_engine_kind e,
                    char *err, size_t n);
void sm_session_start(struct sm_session *s); /* model at check_at */
/* The truth at this instant into the window (owed until settled). */
void sm_session_sample(struct sm_session *s);
/* Pay the owed samples: before anything changes the model's state other
 * than time, and before the window is read. */
void sm_session_settle(struct sm_session *s);
/* Before each step: time moves one cycle, timed and scheduled actions and
 * remote stores land, the truth is sampled.  Inline for the step on which
 * nothing lands (most of them); sm_session_tick_full() for the others. */
void sm_session_tick_full(struct sm_session *s);
static inline void sm_session_tick(struct sm_session *s)
{
	struct sm_run *r = &s->run;
	struct sm_model *m = s->model;
	const struct sm_scenario *scn = s->scn;
	uint64_t t = sm_model_now(m) + 1;

	/* sm_model_idle_step() last: it moves time when nothing lands */
	if (r->step == 0 ||
	    (r->timed_next < scn->nactions &&
	     scn->cfg.start + scn->act[r->timed_next].at <= t) ||
	    (r->sched && r->sched_next < r->sched->n &&
	     r->sched->item[r->sched_next].step == r->step) ||
	    !sm_model_idle_step(m, r->deadline)) {
		sm_session_tick_full(s);
		return;
	}
	if (r->owed_n && r->owed_from + r->owed_n == t)
		r->owed_n++; /* sm_session_sample(), inline */
	else
		sm_session_sample(s);
}
int sm_session_apply(struct sm_session *s, enum sm_action_kind kind);
void sm_session_observe(struct sm_session *s, uint64_t step);
/* The CPU's choice at a read of PMXEVCNTR_EL0 with a PMSELR_EL0 write not
 * yet synchronized (uc_arm64.c): the read at `step` takes the stale
 * selection when the explorer chose so (run.stale_at) or the schedule
 * being replayed names the step (";stale_select="); the explorer's
 * choice is then taken. */
bool sm_session_stale(struct sm_session *s, uint64_t step);
/* The read at `step` took the fresh selection but might have taken the
 * stale one: an observation point the explorer branches on. */
void sm_session_stale_point(struct sm_session *s, uint64_t step);
/* The reader returned, with rc its values ABI return code: the run's
 * counter_path is set.  The criterion (cheap, and stated in README): a
 * counter read answered during the call, no read(2) of the event's fd
 * after the last one, and for the values ABI rc == 0 (1 says "from
 * read(2)").  A reader that reads the counter and then returns a value
 * from elsewhere without a read(2) still counts: the criterion is what
 * the engine sees, not a data flow. */
void sm_session_returned(struct sm_session *s, int rc);
/* Budget exhausted: BLOCKED if the kernel kept writing, else LIVELOCK. */
void sm_session_budget(struct sm_session *s);

/* oracle.c: judge the values a reader returned by its ABI against a
 * window of truth samples; sm_oracle_judge() with the session's window. */
/* The reader returned value (by its ABI) and rc: the oracle judges it
 * against the session's window (sm_oracle()). */
void sm_oracle_judge(struct sm_session *s, const uint64_t value[3], int rc);

#endif
