/*
 * model.h — the kernel side of the self-monitoring ABI, in software.
 *
 * Owns: the configuration a model is built from (struct sm_config, filled by
 * the scenario parser or by tests), the kernel actions and the calls
 * engines make (advance time, apply an action, answer a counter or timer
 * read, read(2), ground truth, and what they read of a model's state:
 * access.c).  It is the model's API; the state's layout is state.h, which
 * only the model's own files and tests include, so a model is an opaque
 * struct here.  The model knows nothing about engines, readers or
 * scenario syntax (HACKING.md, Layout).  A snapshot is what state.c names,
 * not a struct copy.
 *
 * Units: `now` counts clock cycles (TSC on x86-64, the architected timer on
 * arm64, the time CSR on riscv64); every reader instruction is one cycle.
 * Times (enabled, running, page time fields) are ns derived from cycles with
 * the kernel's own conversion (model/clock.c).
 */
#ifndef SELFMON_MODEL_H
#define SELFMON_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "enums.h"
#include "page.h"

#define SM_MAX_CPUS 8
#define SM_MAX_EVENTS 8
#define SM_MAX_COUNTERS 32 /* per CPU, all arches */
#define SM_NAME_MAX 32
#define SM_MAX_PMU_TYPES 3 /* hybrid: CPU types (arm64 has tri-cluster SoCs) */

enum sm_writer { SM_WRITER_LOCAL, SM_WRITER_REMOTE };

/* What an event counts; decides the counters it may use (model/pmu.c). */
enum sm_event_type {
	SM_EV_OTHER,        /* any general-purpose counter */
	SM_EV_INSTRUCTIONS, /* x86 fixed 0 or GP; riscv instret; arm64 GP */
	SM_EV_CYCLES,       /* x86 fixed 1 or GP; arm64 PMCCNTR; riscv cycle */
	SM_EV_REF_CYCLES,   /* x86 fixed 2 only */
	SM_EV_SOFTWARE,     /* no counter, index always 0 (task-clock ...) */
};

#define SM_AUTO (-1) /* counter/cpu/event chosen by the model */

/* Model events per run: the multiplexing ticks and counter overflow
 * interrupts time brings.  A scenario whose run to its end (or check
 * instant) needs more is refused when it is loaded (run.c), so a few
 * bytes such as 'end 18446744073709551615' with 'pmu mux_interval=1'
 * cannot make the model work without bound.  The model itself stops
 * making them at SM_MODEL_HARD_CAP (and says so in `capped`): more than
 * a reader's call under the explorer can add to a loaded scenario
 * (20,000 steps, each at most one tick and one interrupt per event). */
#define SM_MAX_MODEL_EVENTS 100000
#define SM_MODEL_HARD_CAP (SM_MAX_MODEL_EVENTS + 1000000)

/* Counter numbers, one space per arch:
 *   x86-64:  general counter i -> i; fixed counter j -> SM_X86_FIXED + j
 *   arm64:   PMEVCNTR<n> -> n (0..30); PMCCNTR -> SM_ARM64_CYCLE (31)
 *   riscv64: CSR 0xC00 + n -> n (0 cycle, 2 instret, 3..31 hpmcounter) */
#define SM_X86_FIXED 16
#define SM_ARM64_CYCLE 31
#define SM_RISCV_CYCLE 0
#define SM_RISCV_TIME 1
#define SM_RISCV_INSTRET 2

struct sm_action {
	enum sm_action_kind kind;
	int event;       /* event number; SM_AUTO = the target event (0) */
	int cpu;         /* migrate: destination; SM_AUTO = next CPU */
	int counter;     /* rotate_in/migrate: counter number; SM_AUTO */
	uint64_t cycles; /* preempt/migrate: time off CPU; stall: duration */
	uint64_t period; /* period: the new sample period */
	uint32_t refresh; /* refresh: overflows added to the event's limit */
};

/* Clock of one CPU.  x86-64: sched_clock from the TSC with cyc2ns
 * parameters.  arm64/riscv64: generic sched_clock over a `width`-bit
 * timer with an epoch. */
struct sm_clock_cfg {
	uint64_t hz;        /* if nonzero, mult/shift are derived from it */
	uint32_t mult;
	uint16_t shift;     /* as computed, before the page's 32 -> 31 clamp */
	uint64_t offset_ns; /* x86: cyc2ns_offset (+ __sched_clock_offset) */
	uint64_t epoch_cyc; /* arm64/riscv: sched_clock epoch_cyc */
	uint64_t epoch_ns;  /* arm64/riscv: sched_clock epoch_ns */
};

struct sm_event_cfg {
	char name[SM_NAME_MAX];
	enum sm_event_type type;
	int counter;       /* preferred counter number, SM_AUTO = any */
	bool pinned;
	bool enabled;      /* attr.disabled = !enabled */
	bool mmap;         /* mmapped at the start */
	bool long64;       /* arm64: config1 bit 0, 64-bit event */
	bool user;         /* arm64/riscv: config1 bit 1, user access wanted */
	bool clockid;      /* attr.use_clockid: no cap_user_time_zero */
	uint64_t period;   /* sample period; 0 = counting event (max_period) */
	uint64_t left;     /* initial period_left; 0 = period */
	uint32_t rate;     /* events per cycle while counting */
	/* attr.read_format: 0 is the default, TOTAL_TIME_ENABLED|RUNNING
	 * (so that a zeroed config keeps it); else SM_RF_GIVEN | the
	 * SM_RF_* bits asked for.  sm_event_read_format() gives the bits. */
	unsigned read_format;
	unsigned group;    /* 0: its own group's leader; else the leader's
	                    * index + 1 (attr group_fd) */
	unsigned pmu;      /* hybrid: the CPU type whose PMU it was opened
	                    * on (1-based, cfg->pmu_type_name[pmu - 1]) */
	unsigned output;   /* PERF_EVENT_IOC_SET_OUTPUT right after its open:
	                    * 1 + the earlier event whose buffer it writes
	                    * into (itself redirected or mmapped); 0 = none */
	uint64_t freq;     /* attr.freq with attr.sample_freq (Hz); 0 = none */
};

/* The event whose buffer event i writes into: i, or the end of its chain
 * of output= (perf_event_set_output() takes ring_buffer_get() of its
 * output event, which is that event's target's buffer when it is
 * redirected itself).  Each output= names an earlier event, so the chain
 * ends; the bound keeps a bad configuration from looping. */
static inline unsigned sm_rb_event(const struct sm_event_cfg *ev, unsigned i)
{
	for (unsigned k = 0; k < 64 && ev[i].output && ev[i].output - 1 < i; k++)
		i = ev[i].output - 1;
	return i;
}

/* attr.read_format bits (the uapi's PERF_FORMAT_*, same values). */
#define SM_RF_TOTAL_TIME_ENABLED (1u << 0)
#define SM_RF_TOTAL_TIME_RUNNING (1u << 1)
#define SM_RF_ID (1u << 2)
#define SM_RF_GROUP (1u << 3)
#define SM_RF_LOST (1u << 4) /* Linux 6.0 and later */
#define SM_RF_ALL 0x1fu
#define SM_RF_GIVEN (1u << 31) /* sm_event_cfg.read_format was declared */
#define SM_RF_DEFAULT (SM_RF_TOTAL_TIME_ENABLED | SM_RF_TOTAL_TIME_RUNNING)
/* The largest read(2) answer: nr, enabled, running, and value, id, lost
 * for each event of a group of all the events. */
#define SM_READ_MAX (8 * (3 + 3 * SM_MAX_EVENTS))

/* Kernels (variant.c): the base the model follows is Linux 6.12; a
 * kernel version (one bit, SM_KV_LINUX_*) makes a later release the base,
 * and kernel variants are proposed kernel changes, one behaviour each,
 * applied on top of whichever base.  sm_config.kernel holds 1 << SM_KV_*
 * of those switched on; 0 is Linux 6.12 as it is (`base`). */
enum sm_kernel_variant {
	SM_KV_RESET_PREV_COUNT,      /* x86: reset leaves prev_count sign-
	                              * extended (kernel.c reset()) */
	SM_KV_RISCV_KEEP_SCOUNTEREN, /* riscv: stop keeps the scounteren bit
	                              * (kernel.c counter_release(); read by
	                              * sm_model_riscv_csr()) */
	SM_KV_USERPAGE_WMB,          /* arm64/riscv: smp_wmb() in the page
	                              * update (kernel.c, lock_early) */
	SM_KV_LINUX_7_2,             /* a version: Linux 7.2.13 is the base
	                              * (sm_kernel_at_least(cfg, 7, 2)) */
	SM_NVARIANTS
};

struct sm_variant {
	const char *name;
	unsigned arches;    /* 1 << enum sm_arch where it applies */
	const char *what;   /* one line */
	const char *source; /* the patch or proposal it stands for */
	unsigned version;   /* a kernel version: major << 8 | minor; 0 for a
	                     * variant */
};

#define SM_KERNEL_BASE_VERSION 0x060cu /* Linux 6.12 */

const struct sm_variant *sm_variant_get(unsigned i); /* NULL past the end */
int sm_variant_from_name(const char *name);          /* -1 if unknown */
/* "base" or NAME[,NAME...] into bits (at most one version; "6.12" is
 * the base); arch -1: any arch.  0, or -1 with one line in err. */
int sm_kernel_parse(const char *list, int arch, unsigned *bits, char *err,
                    size_t n);
int sm_kernel_check_arch(unsigned bits, enum sm_arch arch, char *err,
                         size_t n);
unsigned sm_kernel_arches(unsigned bits); /* 1 << arch where all apply */
/* "base", or the version then the variants: "7.2,userpage_wmb" */
const char *sm_kernel_text(unsigned bits, char *buf, size_t n);
/* The two kernels of a kernel diff: "A..B" (each a list as above; *from
 * A, *to B, *range true) or "V" (*to V, *range false: the caller's own
 * kernel is the old one, V added to it makes the new).  0, or -1 with
 * one line in err. */
int sm_kernel_diff_parse(const char *spec, unsigned *from, unsigned *to,
                         bool *range, char *err, size_t n);
/* The kernel release bits stand for: major << 8 | minor (0x060c base). */
unsigned sm_kernel_version(unsigned bits);
struct sm_config;
/* The model's kernel is release major.minor or later: the one test a
 * behaviour that changed between releases makes (grep
 * sm_kernel_at_least). */
bool sm_kernel_at_least(const struct sm_config *cfg, unsigned major,
                        unsigned minor);
#define SM_KV(m, v) (((m)->cfg->kernel >> (v)) & 1u)

struct sm_config {
	enum sm_arch arch;
	unsigned kernel;      /* 1 << enum sm_kernel_variant; 0 = base */
	/* PMU */
	unsigned gp;          /* x86 general counters / arm64 event counters */
	unsigned fixed;       /* x86 fixed counters */
	unsigned width;       /* counter width: x86 pmc_width; riscv hpm */
	uint64_t max_period;  /* x86: 2^47-1 or 2^31-1 */
	int user_access;      /* x86 sysfs rdpmc; arm64/riscv perf_user_access */
	bool long_counters;   /* arm64 PMUv3p5: 64-bit event counters */
	bool pmuv3p9;         /* arm64 FEAT_PMUv3p9: PMUACR_EL1 (used from
	                       * Linux 7.2; implies long_counters) */
	bool smt;             /* arm64: the PMU's cores have SMT (has_smt,
	                       * used from Linux 7.2) */
	uint64_t mux_interval; /* cycles between rotation ticks; 0 = none */
	/* clock */
	bool stable;          /* x86: TSC is the stable native sched clock */
	unsigned timer_width; /* arm64/riscv: timer bits (sched_clock mask) */
	uint64_t start;       /* clock cycles at scenario time 0 */
	unsigned ncpus;
	struct sm_clock_cfg cpu[SM_MAX_CPUS];
	/* task and events */
	unsigned task_cpu;
	enum sm_writer writer;
	unsigned nevents;
	struct sm_event_cfg event[SM_MAX_EVENTS];
	bool sbi_snapshot;    /* riscv64: the SBI PMU snapshot extension
	                       * (sbi_pmu_snapshot_available()) */	/* hybrid PMUs (x86 cpu_core/cpu_atom, arm64 big.LITTLE): one PMU
	 * per CPU type, each CPU of one type (1-based; every CPU has one
	 * once npmu_types > 0); no types: one PMU on every CPU */
	unsigned npmu_types;
	char pmu_type_name[SM_MAX_PMU_TYPES][SM_NAME_MAX];
	unsigned cpu_type[SM_MAX_CPUS];
	/* max_samples_per_tick (the kernel's: DIV_ROUND_UP(
	 * perf_event_max_sample_rate, HZ), 400); 0 = never throttle, the
	 * default (config.c says why) */
	uint64_t max_samples;
};

/* Defaults per arch (docs/kernel-variant.md §2); the parser starts from
 * these. */
void sm_config_default(struct sm_config *cfg, enum sm_arch arch);

/* The event states (perf_event_state: OFF, ERROR, INACTIVE, ACTIVE). */
enum sm_state { SM_OFF, SM_ERROR, SM_INACTIVE, SM_ACTIVE };

/* A model and its snapshot: their layout is the model's own (state.h). */
struct sm_model;
struct sm_snapshot;

/* Called after every page write (kernel.c's page writes): the model, the
 * event whose page was written, the action it was written for. */
typedef void (*sm_observer)(void *ctx, const void *model, int event,
                            enum sm_action_kind why);


/* enabled_pub/running_pub: the same times as a correct reader computes
 * them from a page the kernel writes now (time_offset + the page's
 * cycles-to-ns conversion): on arm64 and riscv64 that conversion can
 * differ from sched_clock's by its rounding (sm_model_page_ns()); equal to
 * enabled/running where the time is not advancing. */
struct sm_truth {
	uint64_t count, enabled, running;
	uint64_t enabled_pub, running_pub;
};

/* Fault answers to counter reads. */
enum sm_fault { SM_OK = 0, SM_FAULT_GP = 1, SM_FAULT_ILL = 2 };

/* The one constructor: a model built from (a copy of) cfg, the task on
 * cfg->task_cpu at cfg->start, enabled events scheduled in, mmapped
 * events' pages initialised; its pages page-aligned.  `fn` (may be NULL)
 * is called after every page write, the first ones included.  NULL with
 * a message in err. */
struct sm_model *sm_model_new(const struct sm_config *cfg, sm_observer fn,
                              void *ctx, char *err, size_t errlen);
/* The same model built again in place (its pages stay where they are):
 * 0, or -1 with a message in err. */
int sm_model_rebuild(struct sm_model *m, char *err, size_t errlen);
void sm_model_free(struct sm_model *m);
void sm_model_observe(struct sm_model *m, sm_observer fn, void *ctx);
/* Model events (ticks, interrupts) per run before `capped` is set. */
void sm_model_set_cap(struct sm_model *m, uint64_t cap);

/* Snapshots (state.c): save and restore the state of models built from
 * one configuration; copy one model's state into another built from an
 * equal configuration.  The environment is not touched. */
void sm_model_save(const struct sm_model *m, struct sm_snapshot *s);
void sm_model_restore(struct sm_model *m, const struct sm_snapshot *s);
void sm_model_copy(struct sm_model *to, const struct sm_model *from);
/* A snapshot's memory (zeroed), and its release. */
struct sm_snapshot *sm_snapshot_new(void);
void sm_snapshot_free(struct sm_snapshot *s);

/* Reading a model (access.c): what engines and commands see of its state
 * without its layout.  The configuration the model keeps (its own copy);
 * the cycle it is at; its page updates so far; the action being applied
 * (for observers); the CPU the task is on; whether the model's events
 * reached their cap (sm_model_set_cap()) and time went on without them;
 * whether event ev's page was munmapped (its address is gone). */
const struct sm_config *sm_model_config(const struct sm_model *m);
uint64_t sm_model_now(const struct sm_model *m);
uint64_t sm_model_updates(const struct sm_model *m);
enum sm_action_kind sm_model_cause(const struct sm_model *m);
unsigned sm_model_task_cpu(const struct sm_model *m);
bool sm_model_capped(const struct sm_model *m);
bool sm_model_unmapped(const struct sm_model *m, int ev);
/* The page of event ev as memory (SELFMON_PAGE_SIZE bytes, page-aligned)
 * for an engine to map read-only where the reader sees it. */
void *sm_model_page_mem(struct sm_model *m, int ev);
/* Store k of the last page update, landed or not: false past its last. */
bool sm_model_store_at(const struct sm_model *m, unsigned k, uint16_t *off,
                       uint64_t *val);
/* Time moves one cycle if nothing is due before deadline (the cycle of
 * the model's next activity, sm_model_next_activity()) and no remote
 * store is in flight; false, and nothing changes, otherwise. */
bool sm_model_idle_step(struct sm_model *m, uint64_t deadline);
/* The state a snapshot holds, as named fields: `put` is called with runs
 * of 64-bit words that together say everything the model's future
 * depends on (less the stores that have landed) and nothing else (no
 * padding, pointers or configuration).  For pruning hashes. */
void sm_model_state_words(const struct sm_model *m,
                          void (*put)(void *h, const uint64_t *w, size_t n),
                          void *h);

/* Time passes by `cycles` with the task running: counters count, natural
 * overflows and multiplexing ticks happen at their cycle, and a remote
 * writer lands one pending store per cycle. */
void sm_model_advance(struct sm_model *m, uint64_t cycles);
/* Absolute cycle of the next counter wrap or multiplexing tick, ~0 if
 * none: time can be moved on freely before it. */
uint64_t sm_model_next_activity(const struct sm_model *m);

/* Apply a kernel action now.  1 if it changed something, 0 if it does not
 * apply in this state (e.g. rotate_out of an inactive event), -1 on a bad
 * argument (message in err). */
int sm_model_apply(struct sm_model *m, const struct sm_action *a,
                   char *err, size_t errlen);

/* Ground truth of event `ev` now (what read(2) would return), pure. */
void sm_model_truth(const struct sm_model *m, int ev, struct sm_truth *t);
/* The truth at the n instants from, from + 1, ... with the model's state
 * as it is (only time differs): sm_model_truth() at each of them. */
void sm_model_truth_span(const struct sm_model *m, int ev, uint64_t from,
                         unsigned n, struct sm_truth *out);
/* read(2) of event `ev` as __perf_read() answers it, in the layout of the
 * event's read_format (perf_read_one(), or perf_read_group() with
 * PERF_FORMAT_GROUP; the default, TOTAL_TIME_ENABLED|RUNNING, is 24
 * bytes: value, enabled, running); updates count and prev_count like the
 * kernel.  Returns the bytes written (at most SM_READ_MAX), 0 for an
 * event in error state (end of file), -ENOSPC when len is below
 * sm_model_read_size(), -EBADF for no such event. */
long sm_model_read(struct sm_model *m, int ev, void *buf, size_t len);
/* event->read_size: the bytes read(2) of `ev` needs and writes
 * (__perf_event_read_size()); 0 for no such event. */
size_t sm_model_read_size(const struct sm_model *m, int ev);
/* The event's attr.read_format bits (SM_RF_*). */
unsigned sm_event_read_format(const struct sm_event_cfg *e);
/* primary_event_id(): the id read(2) gives with PERF_FORMAT_ID. */
uint64_t sm_model_event_id(const struct sm_model *m, int ev);

/* Counter and timer reads as the CPU the task is on answers them. */
enum sm_fault sm_model_rdpmc(const struct sm_model *m, uint32_t ecx,
                             uint64_t *val);                /* x86-64 */
enum sm_fault sm_model_arm64_counter(const struct sm_model *m,
                                     unsigned counter, uint64_t *val);
enum sm_fault sm_model_riscv_csr(const struct sm_model *m, unsigned csr,
                                 uint64_t *val);
uint64_t sm_model_timer(const struct sm_model *m); /* rdtsc / CNTVCT / time */

/* The page of event `ev` (all zero until it is mmapped). */
const struct perf_event_mmap_page *sm_model_page(const struct sm_model *m,
                                                 int ev);

/* Remote writer: stores not yet visible (of the last update and of the
 * earlier updates of the same action). */
unsigned sm_model_pending(const struct sm_model *m);
/* The offset of the store that lands next, or -1. */
int sm_model_next_store(const struct sm_model *m);
/* Make the next pending store visible; returns its offset, or -1 (none,
 * or lock_early holds them back). */
int sm_model_store_step(struct sm_model *m);
/* Weak ordering (arm64, riscv64): the closing ++lock of the update in
 * flight becomes visible now, before the field stores still in flight
 * (and its opening ++lock with it, if that had not landed), which then
 * stay unseen for SM_HOLD_CYCLES.  1 if it did, 0 if nothing was in
 * flight. */
int sm_model_lock_early(struct sm_model *m);
void sm_model_flush(struct sm_model *m);
/* The page of `ev` as it will be once every pending store has landed. */
void sm_model_page_after(const struct sm_model *m, int ev,
                         struct perf_event_mmap_page *out);

/* Helpers shared with tests and engines. */
uint64_t sm_mul_u64_u32_shr(uint64_t a, uint32_t mul, unsigned shift);
void sm_calc_mult_shift(uint32_t *mult, uint32_t *shift, uint32_t from,
                        uint32_t to, uint32_t maxsec);
uint64_t sm_model_ns(const struct sm_model *m, unsigned cpu, uint64_t cyc);
/* A software clock event (task-clock or cpu-clock by name, of type
 * software): it counts ns, not cycles * rate (kernel.c). */
bool sm_event_is_clock(const struct sm_event_cfg *e);
/* arm64: the architected timer's width in bits for a timer of `hz`, as
 * arch_counter_get_width() gives it (56..64). */
unsigned sm_arm64_timer_width(uint64_t hz);
/* What a correct reader computes as "now" in ns from the page's time
 * fields as the kernel writes them on `cpu` (time_zero + the page's
 * conversion of the timer value), for the timer at cycle `cyc`. */
uint64_t sm_model_page_ns(const struct sm_model *m, unsigned cpu,
                          uint64_t cyc);

/* ---- the kernel state the page does not show (kview.c) ----------------
 *
 * For teaching (replay --explain, the page's kernel panel): what decides
 * what a reader can see besides the page, read from a model without
 * changing it.  Per event its state, counter (hw.idx), count, prev_count
 * (hw.prev_count) and period_left (hw.period_left); and the register that
 * lets user space read counters on the task's CPU: x86 CR4.PCE (0 or 1),
 * arm64 PMUSERENR_EL0 (SM_PMUSERENR_* bits) with PMUACR_EL1 where Linux
 * 7.2 uses it, riscv64 scounteren (bit n: CSR 0xC00 + n). */
#define SM_PMUSERENR_EN (1u << 0)
#define SM_PMUSERENR_SW (1u << 1)
#define SM_PMUSERENR_CR (1u << 2)
#define SM_PMUSERENR_ER (1u << 3)
#define SM_PMUSERENR_UEN (1u << 4)

struct sm_kview_event {
	enum sm_state state;
	int counter;          /* -1: on none */
	uint64_t count, prev_count;
	int64_t period_left;
};

struct sm_kview {
	unsigned cpu;         /* the task's CPU, whose registers these are */
	int user_access;      /* x86 sysfs rdpmc; arm64/riscv64 sysctl
	                       * perf_user_access */
	uint64_t access;      /* CR4.PCE, PMUSERENR_EL0 or scounteren */
	bool has_pmuacr;      /* arm64: PMUACR_EL1 is in use */
	uint32_t pmuacr;
	unsigned nevents;     /* = cfg->nevents */
	struct sm_kview_event ev[SM_MAX_EVENTS];
};

void sm_model_kview(const struct sm_model *m, struct sm_kview *v);
const char *sm_state_name(enum sm_state s); /* "ACTIVE" ... */

/* The view as numbered items, one row each: per event (in order) its
 * state, counter, count, prev_count, period_left; then the access
 * register, PMUACR_EL1 where used, and the user-access setting.  The
 * numbering depends on the configuration only. */
enum sm_kitem {
	SM_KI_STATE, SM_KI_COUNTER, SM_KI_COUNT, SM_KI_PREV_COUNT,
	SM_KI_PERIOD_LEFT, SM_KI_PER_EVENT,
	SM_KI_ACCESS = SM_KI_PER_EVENT, SM_KI_PMUACR, SM_KI_SETTING
};
unsigned sm_kview_nitems(const struct sm_config *cfg);
/* item i as a number (signed ones as two's complement); its kind
 * (enum sm_kitem) and event (-1: a register) */
uint64_t sm_kview_item(const struct sm_config *cfg, const struct sm_kview *v,
                       unsigned i);
int sm_kview_item_kind(const struct sm_config *cfg, unsigned i, int *event);
/* key ("ev0.state", "scounteren"), label ("cycles: state"), the value
 * as text ("ACTIVE", "3: hpmcounter3", "0xa") and what it means ("TM
 * HPM3: csrr of time, hpmcounter3 allowed"; "" when nothing to add) */
void sm_kview_item_key(const struct sm_config *cfg, unsigned i, char *buf,
                       size_t n);
void sm_kview_item_label(const struct sm_config *cfg, unsigned i, char *buf,
                         size_t n);
void sm_kview_item_text(const struct sm_config *cfg, unsigned i, uint64_t v,
                        char *buf, size_t n);
void sm_kview_item_note(const struct sm_config *cfg, unsigned i, uint64_t v,
                        char *buf, size_t n);
#define SM_KVIEW_MAX_ITEMS (SM_MAX_EVENTS * SM_KI_PER_EVENT + 3)
/* One item that differs between two views. */
struct sm_kchange {
	unsigned item;
	uint64_t old, value;
};
/* The items that differ from a to b, in item order: how many (at most
 * SM_KVIEW_MAX_ITEMS). */
unsigned sm_kview_diff(const struct sm_config *cfg, const struct sm_kview *a,
                       const struct sm_kview *b, struct sm_kchange *out);
/* One line saying what an action changed, with the kernel function that
 * wrote the register: "cycles: state ACTIVE -> INACTIVE, counter 3 ->
 * none; scounteren bit 3 (HPM3) cleared (pmu_sbi_ctr_stop() ->
 * pmu_sbi_reset_scounteren())".  "" for no change. */
void sm_kview_change_text(const struct sm_config *cfg,
                          enum sm_action_kind why,
                          const struct sm_kchange *c, unsigned nc,
                          char *buf, size_t n);

#endif
