/*
 * internal.h — what the model's files share and nobody else uses.
 *
 * Owns: the per-arch PMU rule table (pmu.c), the clock helpers (clock.c),
 * the pure page writer (userpage.c), the store buffer's entry points
 * (stores.c), the kernel's build step (kernel.c, for state.c) and
 * read(2)'s update of events (kernel.c, for readfmt.c).
 * Engines and the command include model.h only.
 */
#ifndef SELFMON_MODEL_INTERNAL_H
#define SELFMON_MODEL_INTERNAL_H

#include "model.h"

/* clock.c */
void sm_clock_derive(enum sm_arch arch, const struct sm_clock_cfg *c,
                     struct sm_cpu *cpu);
static inline uint64_t sm_timer_mask(const struct sm_model *m)
{
	unsigned w = m->cfg->timer_width;
	return w >= 64 ? ~0ull : (1ull << w) - 1;
}

/* The bodies of sm_model_ns() and sm_model_page_ns() (clock.c, where
 * their kernel sources are cited), inline for the truth's inner loop. */
static inline uint64_t sm_ns_of(const struct sm_model *m,
                                const struct sm_cpu *c, uint64_t cyc)
{
	if (m->cfg->arch == SM_X86_64)
		return c->offset_ns + (uint64_t)(((unsigned __int128)cyc *
		                                  c->mult) >> c->shift);
	uint64_t mask = sm_timer_mask(m);
	return c->epoch_ns + (uint64_t)(((unsigned __int128)
	       (((cyc & mask) - c->epoch_cyc) & mask) * c->mult) >> c->shift);
}

static inline uint64_t sm_page_ns_of(const struct sm_model *m,
                                     const struct sm_cpu *c, uint64_t cyc)
{
	if (m->cfg->arch == SM_X86_64)
		return sm_ns_of(m, c, cyc);
	uint64_t mask = sm_timer_mask(m);
	uint64_t zero = c->epoch_ns - (uint64_t)(((unsigned __int128)
	                c->epoch_cyc * c->mult) >> c->shift);
	uint32_t mult = c->shift == 32 ? c->mult >> 1 : c->mult;
	unsigned shift = c->shift == 32 ? 31 : c->shift;
	uint64_t t = c->epoch_cyc + (((cyc & mask) - c->epoch_cyc) & mask);
	return zero + (uint64_t)(((unsigned __int128)t * mult) >> shift);
}

/* event->group_leader: the event itself, or the leader its
 * sm_event_cfg.group names (perf_group_attach()). */
static inline unsigned sm_leader_of(const struct sm_config *cfg, unsigned i)
{
	unsigned g = cfg->event[i].group;
	return g ? g - 1 : i;
}

/* pmu.c: the arch differences of docs/kernel-variant.md §2 as one table. */
struct sm_pmu_rules {
	/* counter numbers an event may use, in the order tried */
	bool (*counter_ok)(const struct sm_config *cfg,
	                   const struct sm_event_cfg *ev, int counter);
	int (*fixed_for)(const struct sm_config *cfg, enum sm_event_type t);
	unsigned (*first_gp)(void);
	/* the counter used last time is tried first (x86's fast path); arm64
	 * has none */
	bool reuse_last;
	/* the event may be read from user space: the PMU's event_idx gives
	 * its counter (page index), and the counter is readable */
	bool (*user_read)(const struct sm_config *cfg, const struct sm_event *ev);
	/* the page's cap_user_rdpmc (arch_perf_update_userpage()) */
	bool (*cap_rdpmc)(const struct sm_config *cfg, const struct sm_event *ev);
	/* page index for an event on `counter` that user space may read */
	uint32_t (*index)(int counter);
	/* the width the page reports, and whether it is written at all */
	uint16_t (*pmc_width)(const struct sm_config *cfg, const struct sm_event *ev);
	bool width_only_if_rdpmc;
	/* delta mask of the counter update; also set_period's limit base */
	uint64_t (*max_period)(const struct sm_config *cfg,
	                       const struct sm_event *ev);
	/* register width of a counter */
	uint64_t (*reg_mask)(const struct sm_config *cfg, int counter);
	/* set_period's clamp of `left` */
	int64_t (*clamp_left)(const struct sm_config *cfg,
	                      const struct sm_event *ev, int64_t left);
	/* value written to the register for -left, and the value the
	 * kernel's read_counter returns from a raw register */
	uint64_t (*to_reg)(const struct sm_config *cfg, const struct sm_event *ev,
	                   int counter, uint64_t val);
	uint64_t (*from_reg)(const struct sm_config *cfg,
	                     const struct sm_event *ev, int counter, uint64_t raw);
	/* counter update: delta between two read_counter values */
	uint64_t (*delta)(const struct sm_config *cfg, const struct sm_event *ev,
	                  uint64_t prev, uint64_t now);
	/* default sample period of a counting event */
	uint64_t (*count_period)(const struct sm_config *cfg,
	                         const struct sm_event *ev);
};
extern const struct sm_pmu_rules sm_pmu[SM_NARCH];
/* arm64, Linux 7.2 with pmu smt=yes: cycles events take an event counter */
bool sm_arm64_cycles_avoid_pmccntr(const struct sm_config *cfg);
bool sm_counter_exists(const struct sm_config *cfg, int counter);

/* userpage.c: the values one perf_event_update_userpage() writes, as
 * kernel.c computes them (index, count, prev_count, times, caps, width,
 * clock), and the pure writer that turns them into stores. */
struct sm_page_values {
	uint32_t index;
	uint64_t count, prev_count;
	uint64_t enabled, running; /* times as of now */
	uint64_t now_ns;           /* sched_clock of the task's CPU now */
	bool cap_rdpmc;
	uint16_t pmc_width;
	bool time;                 /* the clock is given to user space */
	bool time_zero;            /* x86: cap_user_time_zero (no clockid) */
	uint32_t mult;             /* the CPU's sched_clock, unclamped */
	uint16_t shift;
	uint64_t offset_ns, epoch_cyc, epoch_ns, time_mask;
};
void sm_page_init(union sm_page_mem *p);
unsigned sm_page_stores(enum sm_arch arch, int ev,
                        const struct perf_event_mmap_page *shadow,
                        const struct sm_page_values *v,
                        struct sm_store out[SM_MAX_STORES]);

/* stores.c: a page write's stores join the buffer (landed at once by the
 * local writer); the next store in flight lands, even while frozen */
void sm_stores_push(struct sm_model *m, const struct sm_store *st,
                    unsigned n);
int sm_store_land(struct sm_model *m);

/* kernel.c: open the configuration's events on a zeroed model whose
 * configuration and environment are set (sm_model_new()).  0, or -1 with
 * a message in err. */
int sm_kernel_build(struct sm_model *m, char *err, size_t n);
/* kernel.c: perf_event_read()'s update of the counts and times read(2)
 * of event i answers with (the event, or its group with
 * PERF_FORMAT_GROUP), for readfmt.c */
void sm_kernel_read(struct sm_model *m, int i);
/* kernel.c: the registers that let user space read counters on the
 * task's CPU now, as the counter reads above see them (and kview.c
 * shows them): x86 CR4.PCE, arm64 PMUSERENR_EL0 and PMUACR_EL1, riscv64
 * scounteren */
bool sm_x86_cr4_pce(const struct sm_model *m);
uint32_t sm_arm64_pmuserenr(const struct sm_model *m);
uint32_t sm_arm64_pmuacr(const struct sm_model *m);
uint32_t sm_riscv_scounteren(const struct sm_model *m);

#endif
