/*
 * state.h — the layout of a model's state, for the model's own files.
 *
 * Owns: struct sm_model and its parts (the kernel state struct sm_kstate
 * with its events, CPUs and counters, the store buffer, the environment,
 * the pages) and struct sm_snapshot.  What a field means is said here;
 * how it changes is said where it changes (kernel.c, event.c, the
 * drivers, stores.c).  Engines, commands and the rest of sim/ do not
 * include it: they see a model through model.h's calls.  The model's own
 * tests may.
 */
#ifndef SELFMON_MODEL_STATE_H
#define SELFMON_MODEL_STATE_H

#include "model.h"

struct sm_pmu_rules;

/* ---- state ----------------------------------------------------------
 *
 * By lifetime, as a model is built and explored:
 *   struct sm_config    immutable once the model is built; the model keeps
 *                       its own copy and everything reads it through
 *                       m->cfg (a const pointer);
 *   struct sm_kstate    the kernel's dynamic state (events, counters, CPUs,
 *                       context time): the unit of a snapshot, copied and
 *                       hashed field by field by name (state.c);
 *   struct sm_stores    the remote writer's store buffer (stores.c);
 *   page[]              the control pages' bytes;
 *   struct sm_env       what the model runs in (observer, cap on model
 *                       events): set by the driver, never copied.
 * A field added to one of them is copied and hashed only once state.c
 * names it. */

struct sm_counter {     /* one hardware counter register of one CPU */
	uint64_t base;      /* register value at base_time */
	uint64_t base_time; /* cycles */
	int owner;          /* event counting on it, or -1 */
};

struct sm_cpu {
	uint32_t mult;      /* sched_clock parameters, unclamped */
	uint16_t shift;
	uint64_t offset_ns;
	uint64_t epoch_cyc, epoch_ns;
	uint32_t kept;      /* riscv_keep_scounteren: scounteren bits left set
	                     * by a stopped counter (1 << counter) */
	struct sm_counter ctr[SM_MAX_COUNTERS];
};

struct sm_event {
	/* the event's configuration, m->cfg->event[i]: not state (neither
	 * copied nor hashed; state.c points it into the model's own copy) */
	const struct sm_event_cfg *cfg;
	enum sm_state state;
	int counter;         /* assigned counter on `cpu`, -1 if none (hw.idx:
	                      * still set while del() writes the page) */
	int last_counter;    /* for the scheduler's fast path (hw.idx) */
	uint64_t added;      /* x86: when it last went on its PMU (its place
	                      * in cpuc->event_list) */
	bool collected;      /* x86: added, not yet started (x86_pmu_add()
	                      * until x86_pmu_enable(); never between actions) */
	bool mapped;
	bool unmapped;       /* munmapped (perf_mmap_close()): the reader's
	                      * address of the page is gone for good */
	bool read_cnt;       /* riscv: PERF_EVENT_FLAG_USER_READ_CNT, set by
	                      * pmu_sbi_event_mapped() after mmap's first write */
	uint64_t count;      /* event->count */
	uint64_t prev_count; /* hw.prev_count */
	int64_t period_left; /* hw.period_left */
	uint64_t period;     /* hw.sample_period */
	uint64_t total_enabled, total_running, tstamp; /* ns, ctx time */
	uint64_t sw_stamp;   /* software events but the clocks: cycles of last
	                      * update (task-clock, cpu-clock: prev_count) */
	int32_t event_limit; /* overflows left before the event disables
	                      * itself; 0 = no limit (PERF_EVENT_IOC_REFRESH) */
	uint64_t truth;      /* independent tally of counted events */
	uint64_t truth_stamp;
	bool redirected;     /* cfg->output is in force: event->rb is the
	                      * target's (ring_buffer_attach()), from the
	                      * SET_OUTPUT right after its open on */
	uint64_t interrupts; /* hw.interrupts since the last tick;
	                      * SM_MAX_INTERRUPTS: throttled */
	bool throttled;      /* x86/arm64: its counter stopped by the PMI
	                      * handler when throttled (counts nothing) */
	uint64_t last_period;             /* hw.last_period */
	uint64_t freq_time_stamp;         /* hw.freq_time_stamp (ns) */
	uint64_t freq_count_stamp;        /* hw.freq_count_stamp */
};
#define SM_MAX_INTERRUPTS (~0ull) /* kernel/events/core.c MAX_INTERRUPTS */
/* TICK_NSEC of the modelled kernel: Debian's 6.12 has CONFIG_HZ=250 */
#define SM_TICK_NSEC 4000000ull

struct sm_kstate {
	uint64_t now;          /* cycles */
	unsigned nopen;        /* events opened so far: the first nopen of
	                        * cfg->event[] exist (all, once built) */
	unsigned task_cpu;
	bool task_on;
	unsigned rotate_necessary; /* per PMU (kernel.c pmu_of()): 1 << pmu */
	uint64_t ctx_time, ctx_stamp; /* task context time and ns stamp */
	uint64_t next_rotate;  /* cycles; 0 = none */
	unsigned flex_order[SM_MAX_EVENTS]; /* flexible list, rotated */
	unsigned nflex;
	uint64_t adds;         /* x86: x86_pmu_add()s so far (ev[].added) */
	enum sm_action_kind cause; /* action being applied, for observers */
	uint64_t updates;      /* page updates so far */
	uint64_t activity;     /* multiplexing ticks and overflow interrupts */
	bool capped;           /* activity reached the cap (sm_env): time went
	                        * on without them (drivers report it) */
	struct sm_event ev[SM_MAX_EVENTS];
	struct sm_cpu cpu[SM_MAX_CPUS]; /* the first cfg->ncpus are used */
};

/* One store of a page update (remote writer: one reader-visible step). */
struct sm_store {
	uint16_t off;
	uint8_t size;
	int8_t ev;       /* the page it lands on */
	uint64_t val;
};
#define SM_MAX_STORES 32   /* one update */
#define SM_MAX_BACKLOG 128 /* earlier updates of one action, still in flight */
#define SM_HOLD_CYCLES 256 /* lock_early: how long the fields stay unseen */

/* Remote writer: stores not yet visible.  pending[] holds the last
 * update's; backlog[] what was left of the updates before it in the same
 * action (a sched in writes the page two or three times), which lands
 * first.  Entries before pending_next/backlog_next have landed. */
struct sm_stores {
	struct sm_store pending[SM_MAX_STORES];
	unsigned npending, pending_next;
	struct sm_store backlog[SM_MAX_BACKLOG];
	unsigned nbacklog, backlog_next;
	uint64_t frozen_until; /* lock_early: nothing lands before (cycles) */
};

struct sm_env {
	sm_observer observe;   /* after every page write (kernel.c) */
	void *observe_ctx;
	uint64_t activity_cap; /* SM_MODEL_HARD_CAP, or lower (run.c) */
};

union sm_page_mem {
	struct perf_event_mmap_page pc;
	uint8_t bytes[SELFMON_PAGE_SIZE];
};

struct sm_model {
	const struct sm_config *cfg; /* = &config */
	/* the driver of cfg->arch (pmu.h's SM_RULES()): set by
	 * sm_kernel_build(), neither state nor configuration */
	const struct sm_pmu_rules *pmu;
	struct sm_kstate k;
	struct sm_stores sb;
	struct sm_env env;
	struct sm_config config;
	_Alignas(4096) union sm_page_mem page[SM_MAX_EVENTS];
};

/* What a snapshot holds: the kernel state, the stores in flight and of
 * each page the part the kernel writes (the rest stays zero). */
struct sm_snapshot {
	struct sm_kstate k;
	struct sm_stores sb;
	struct perf_event_mmap_page page[SM_MAX_EVENTS];
};

#endif
