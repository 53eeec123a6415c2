/*
 * session.h — one reader called once in one scenario, under a schedule of
 * injected kernel actions, on one engine; and what the parts of sim/ share
 * about it: readers, verdicts, schedules, the engine interface.
 *
 * Owns the types only.  Engines (engine_*.c) run the reader; the oracle
 * (oracle.c) samples the ground truth and judges; the explorer
 * (explore.c) chooses schedules.  None of them parses scenario text.
 */
#ifndef SELFMON_SESSION_H
#define SELFMON_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"
#include "scenario.h"
#include "verdict.h"

struct sm_image;

/* ---- readers --------------------------------------------------------- */

enum sm_abi { SM_ABI_RAW, SM_ABI_TIMES, SM_ABI_SCALED, SM_ABI_VALUES, SM_NABI };
const char *sm_abi_name(enum sm_abi abi);

/* A verdict a built-in reader is declared to get in one bundled scenario
 * (reader/variants/list.h); where none is declared it expects PASS.  A
 * failure comes with its least bound, the fewest injected actions that
 * show it (below it the cell PASSes: explore.c least_bound()), and the
 * actions of its counterexample: an action filter that keeps them (and
 * only leaves out the scenario's own) gives the same failure, since it
 * leaves the same first failing schedule of that bound.  `when` says
 * where the row holds instead of the scenario as bundled: "kernel=V"
 * under kernel variant V (the rows for V replace the others for that
 * scenario), "without=A[,B]" with those actions left out. */
struct sm_expect {
	const char *scenario; /* traces/scenario.scn; NULL ends a list */
	unsigned engines;     /* 1 << enum sm_engine_kind it applies on */
	enum sm_verdict verdict;
	unsigned least_bound; /* a failure's; 0 for PASS */
	const char *needs;    /* "overflow,reset"; "" none */
	const char *when;     /* NULL: as bundled */
};
/* Where an expectation is looked up: the exploration's bound, kernel and
 * action set. */
struct sm_expect_at {
	unsigned bound;
	unsigned kernel;      /* 1 << enum sm_kernel_variant */
	unsigned allowed;     /* the actions explored (1 << kind) */
	unsigned left_out;    /* the scenario's own actions left out */
	bool foreign;         /* actions added beyond the scenario's own, or
	                       * its scripted lines dropped: the scenario is
	                       * not the one the rows were found on */
};

struct sm_reader {
	const char *name;
	const char *what;     /* one line: the algorithm or the fault */
	const char *fault;    /* one line each, explain-bug; NULL: no bug */
	const char *fix;
	const struct sm_expect *expect; /* NULL-terminated; NULL: none */
	enum sm_abi abi;
	void (*native)(void); /* the routed build, cast by ABI; NULL: none */
	const char *symbol;   /* entry in the built reader code */
	unsigned arches;      /* 1 << enum sm_arch it is built for; 0: all */
	void (*hw)(void);     /* built with the real instructions (selfmon hw) */
	const struct sm_image *image; /* a user's reader loaded from ELF */
	const char *sched_name;       /* its name in schedule lines */
};
static inline bool sm_reader_on(const struct sm_reader *r, enum sm_arch a)
{
	return r->arches == 0 || (r->arches & (1u << a));
}
extern const struct sm_reader sm_readers[];
extern const unsigned sm_nreaders;
const struct sm_reader *sm_reader_find(const char *name);
/* Call a reader built into this binary (its native or hw entry) by its
 * ABI on page, with fd for read(2): count, enabled, running into v (0 what
 * the ABI does not return); the values ABI's return code, else 0. */
int sm_reader_call(void (*fn)(void), enum sm_abi abi, const void *page,
                   int fd, uint64_t v[3]);

/* The machine code of the built-in readers for one arch. */
struct sm_blob {
	enum sm_arch arch;
	const uint8_t *code;
	uint64_t size;
	const char *const *names; /* symbols and their offsets */
	const uint64_t *offsets;
	unsigned nsyms;
	const uint8_t *elf;       /* the image's ELF file, with its DWARF */
	uint64_t elf_size;
};
const struct sm_blob *sm_blob_for(enum sm_arch arch); /* NULL: not built */
#define SM_CODE_BASE 0x10000000ull

/* ---- verdicts: enum sm_verdict and its names are model/verdict.h ---- */

/* ---- schedules ------------------------------------------------------- */

#define SM_MAX_BOUND 6

struct sm_sched_item {
	uint64_t step;          /* before the step-th executed instruction */
	enum sm_action_kind kind;
};

struct sm_schedule {
	unsigned n;
	struct sm_sched_item item[SM_MAX_BOUND];
	/* 1 << kind: the scenario's scripted lines of these actions are
	 * skipped (--drop-scripted); the caller applies it to the scenario */
	unsigned dropped;
	/* 1 << enum sm_kernel_variant: the kernel it ran under (";kernel="),
	 * with SM_SCHED_KERNEL once named (";kernel=base" included); the
	 * caller applies it to the scenario's config */
	unsigned kernel;
};
#define SM_SCHED_KERNEL (1u << 31)

/* ---- a session ------------------------------------------------------- */

enum sm_engine_kind { SM_ENGINE_UNICORN, SM_ENGINE_NATIVE, SM_NENGINES };
const char *sm_engine_name(enum sm_engine_kind e);
/* The row of r's declared expectations that holds for the bundled
 * scenario on engine e under `at`, or NULL where none does: then r is not
 * held to any verdict there.  No row for the scenario: PASS.  Under a
 * foreign action set nothing is known (even the reference reader meets
 * a kernel hazard there: a rotation added to riscv64 faults it). */
const struct sm_expect *sm_reader_expect(const struct sm_reader *r,
                                         const char *scenario,
                                         enum sm_engine_kind e,
                                         const struct sm_expect_at *at);
/* The verdict a row gives at this bound: PASS below its least bound. */
static inline enum sm_verdict sm_expect_verdict(const struct sm_expect *x,
                                                unsigned bound)
{
	return bound < x->least_bound ? SM_V_PASS : x->verdict;
}
/* A row's needs, or the action set of its `when` ("without=..."), as
 * 1 << kind; -1 (all bits) for a name that is no action. */
unsigned sm_expect_actions(const char *list);
/* The kernel variant of a "kernel=V" row (1 << SM_KV_*), else 0. */
unsigned sm_expect_kernel(const struct sm_expect *x);


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

/* A result as data: what is wrong, filled by the oracle (WRONG_VALUE) or
 * the engines (FAULT); the sentence in detail is rendered from it
 * (sm_result_render()), and every output reads these fields, never the
 * sentence. */
enum sm_wrong_field {
	SM_WF_COUNT, SM_WF_ENABLED, SM_WF_RUNNING,
	SM_WF_SCALED,   /* the scaled ABI's count */
	SM_WF_RELATION, /* running > enabled: value running, truth_lo enabled */
	SM_WF_RC,       /* the values ABI's error return: value (int64_t) rc */
	SM_NWF
};
const char *sm_wrong_field_name(enum sm_wrong_field f);
/* What an exact power-of-two offset from the truth points at, by the
 * offset, its sign, the field, the counter's width and the schedule. */
enum sm_cause {
	SM_CAUSE_NONE,        /* no exact power-of-two offset */
	SM_CAUSE_NO_SEXT,     /* 2^width above: the counter not sign-extended */
	SM_CAUSE_RESET_QUIRK, /* 2^width below after a reset (IOC_RESET) */
	SM_CAUSE_MASKED,      /* 2^width below, the truth past 2^width: the
	                       * whole count masked to the counter's width */
	SM_CAUSE_SEXT_BELOW,  /* 2^width below, neither of those */
	SM_CAUSE_HALF,        /* 2^(width-1): the wrong sign bit or mask */
	SM_CAUSE_TIME_WRAP,   /* a time off by 2^k: time_cycles/time_mask */
	SM_CAUSE_OTHER_WIDTH, /* 2^k, not this counter's width */
	SM_NCAUSES
};
const char *sm_cause_name(enum sm_cause c); /* JSON's spelling */
struct sm_wrong {
	enum sm_wrong_field field;
	uint64_t value;              /* what the reader returned */
	uint64_t truth_lo, truth_hi; /* the truth's range over the call */
	unsigned offset_bits;        /* value = a truth +- 2^bits; 0: none */
	bool above;                  /* ... with +, else - */
	enum sm_cause cause;
	bool burst;    /* an overflow's burst of events during the call: the
	                * truth jumped over the values between lo and hi */
};
enum sm_fault_kind {
	SM_FK_NONE,
	SM_FK_MEMORY,      /* a load, store or fetch: addr is the address */
	SM_FK_INSTRUCTION, /* an instruction user level may not run */
	SM_FK_COUNTER,     /* a counter read the CPU refused (#GP, UNDEFINED) */
	SM_FK_EXCEPTION,   /* another CPU exception or signal */
	SM_FK_CALL,        /* a bad call, return or library argument */
	SM_NFK
};
const char *sm_fault_kind_name(enum sm_fault_kind k);

struct sm_result {
	enum sm_verdict verdict;
	char detail[1024];
	uint64_t value[3];     /* what the reader returned (count, en, run) */
	int rc;                /* values ABI: return code */
	uint64_t steps;        /* instructions (native: routed calls) */
	/* WRONG_VALUE: every wrong field, in the order count, enabled,
	 * running (or the one relation, scaled count or error return) */
	unsigned nwrong;
	struct sm_wrong wrong[3];
	unsigned width;        /* the counter's width the causes refer to */
	enum sm_arch arch;
	bool rounded;          /* PASS: a time matched the page's rounding */
	/* FAULT: its kind, the instruction's address and the accessed one
	 * (has_addr: a memory fault's) */
	enum sm_fault_kind fault;
	uint64_t fault_pc, fault_addr;
	bool has_pc, has_addr;
	/* room for whether the counter path was taken (issue #26 item 5) */
};
/* detail from the fields (a WRONG_VALUE's, a PASS's); other verdicts'
 * sentences are the engines' own and are left alone. */
void sm_result_render(struct sm_result *r);
/* Mark a FAULT's kind and addresses (before or after sm_result_set). */
void sm_result_fault(struct sm_result *r, enum sm_fault_kind k, bool has_pc,
                     uint64_t pc, bool has_addr, uint64_t addr);

struct sm_explain;              /* explain.c: the --explain listing */
struct sm_hasher;               /* state_hash.h */

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
	struct sm_model model;      /* the kernel, at the page's fixed address */
	struct sm_run run;
	/* observation points: steps that load the page or trap */
	uint64_t points[SM_MAX_POINTS];
	/* the oracle's window: truth at every instant of the call, sized at
	 * init for the longest run (sm_session_init) */
	struct sm_truth *samples;
	uint64_t *scratch;          /* max_samples, for the oracle */
	unsigned max_samples;
	/* the result */
	struct sm_result res;
	struct sm_explain *explain; /* NULL unless --explain */
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
/* What to do (async-signal-safe) before the emulator's fatal guards end
 * the process (Unicorn out of memory, or aborting): the outputs' layer
 * removes its temporaries.  One function; the last set wins. */
void sm_engine_on_fatal(void (*fn)(void));
const struct sm_engine_ops *sm_engine_ops(enum sm_engine_kind e);

/* A zeroed session at the alignment its pages need; free with
 * sm_session_free() (closes the engine). */
struct sm_session *sm_session_new(void);
void sm_session_free(struct sm_session *s);

/* Shared by the engines (session.c). */
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
	struct sm_model *m = &s->model;
	const struct sm_scenario *scn = s->scn;
	uint64_t t = m->now + 1;

	if (r->step == 0 || t >= r->deadline ||
	    m->backlog_next != m->nbacklog || m->pending_next != m->npending ||
	    (r->timed_next < scn->nactions &&
	     scn->cfg.start + scn->act[r->timed_next].at <= t) ||
	    (r->sched && r->sched_next < r->sched->n &&
	     r->sched->item[r->sched_next].step == r->step)) {
		sm_session_tick_full(s);
		return;
	}
	m->now = t;
	if (r->owed_n && r->owed_from + r->owed_n == t)
		r->owed_n++; /* sm_session_sample(), inline */
	else
		sm_session_sample(s);
}
int sm_session_apply(struct sm_session *s, enum sm_action_kind kind);
void sm_session_observe(struct sm_session *s, uint64_t step);
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
struct sm_window {
	const struct sm_truth *s;
	unsigned n;
	uint64_t *scratch;   /* n values the oracle may overwrite (sorting) */
	bool terse;          /* a PASS gets no detail line (the explorer's
	                      * runs: only a failure's detail is kept) */
	/* what the session knows of the call, for the causes (zero: x86-64,
	 * width from the arch, no reset, no overflow) */
	enum sm_arch arch;
	unsigned width;      /* the page's pmc_width (0: the arch's usual) */
	bool reset;          /* a reset before or during the call */
	bool overflow;       /* an overflow during the call (a burst) */
};
void sm_oracle(const struct sm_window *w, enum sm_abi abi,
               const uint64_t value[3], int rc, struct sm_result *res);
void sm_oracle_judge(struct sm_session *s, const uint64_t value[3], int rc);
void sm_result_set(struct sm_result *r, enum sm_verdict v, const char *fmt,
                   ...) __attribute__((format(printf, 3, 4)));

#endif
