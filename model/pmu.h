/*
 * pmu.h — what a PMU driver is to the model's perf core: the per-arch
 * rules (docs/kernel-variant.md §2), as data columns and hooks.
 *
 * Owns: struct sm_pmu_rules, SM_RULES() (a model's rules: the driver of
 * its arch, picked once by sm_kernel_build()) and the small helpers the
 * drivers' rules have in common.  The drivers (pmu_x86.c, pmu_arm64.c,
 * pmu_riscv.c) fill one table each; the perf core (event.c, kernel.c)
 * reads them through SM_RULES() and never names an arch.  No function
 * declared here is defined anywhere: this is an interface, so the core
 * includes it without depending on any driver.
 */
#ifndef SELFMON_MODEL_PMU_H
#define SELFMON_MODEL_PMU_H

#include <string.h>

#include "state.h"

struct sm_pmu_rules {
	/* ---- counters ---- */
	/* a counter number names a register this PMU has */
	bool (*counter_exists)(const struct sm_config *cfg, int counter);
	/* counter numbers an event may use, in the order tried */
	bool (*counter_ok)(const struct sm_config *cfg,
	                   const struct sm_event_cfg *ev, int counter);
	int (*fixed_for)(const struct sm_config *cfg, enum sm_event_type t);
	unsigned (*first_gp)(void);
	/* the counter used last time is tried first (x86's fast path); arm64
	 * has none */
	bool reuse_last;
	/* an event constrained to one counter (counter=) goes on that one or
	 * not at all (x86: x86_schedule_events() allows it no other) */
	bool constraint_only;

	/* ---- user access and the page ---- */
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

	/* ---- counter arithmetic ---- */
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

	/* ---- the driver's flows (NULL hook: the driver does nothing) ---- */
	/* the driver's stop of counter c, before its owner leaves it
	 * (sm_counter_release()) */
	void (*ctr_stop)(struct sm_model *m, int c);
	/* pmu->start(PERF_EF_RELOAD) (sm_pmu_start()): the set_period page
	 * write made while the event is PERF_HES_STOPPED (index 0), and a
	 * second write after it */
	bool start_stopped, start_writes_again;
	/* pmu->start(event, 0): a start without a reload */
	void (*start_noreload)(struct sm_model *m, int i);
	/* pmu->add() only collects the event: the PMU schedules it with the
	 * others (NULL: the core picks its counter, sched_in()) */
	bool (*schedule_add)(struct sm_model *m, int i);
	/* after the core gave an event its counter, before the start */
	void (*added)(struct sm_model *m, const struct sm_event *e);
	/* pmu->add() writes the page once more after the start */
	bool add_writes_page;
	/* group_sched_in()'s transaction: the group placed as a whole (NULL:
	 * member by member, each one's add() on its own) */
	bool (*group_txn)(struct sm_model *m, unsigned leader);
	/* perf_pmu_enable() at the end of a scheduling section */
	void (*pmu_enable)(struct sm_model *m);
	/* perf_pmu_enable() at the end of __perf_event_disable() */
	void (*disabled)(struct sm_model *m);
	/* pmu->event_mapped() after the mmap's first page write, and
	 * pmu->event_unmapped() at munmap */
	void (*event_mapped)(struct sm_model *m, int i);
	void (*event_unmapped)(struct sm_model *m, int i);
	/* the PMI handler: its set_period write made with the event stopped
	 * (index 0), and what it does after the interrupt is accounted */
	bool irq_stopped;
	void (*irq_restart)(struct sm_model *m, int i);
	/* the handler leaves a counting event's wrap alone */
	bool counting_wrap_silent;
	/* a throttling interrupt stops the event's counter */
	bool throttle_stops;

	/* ---- the arch beyond its PMU ---- */
	/* the remote writer's stores may be seen out of order (lock_early) */
	bool weak_order;
	/* sched_clock is the generic one over the architected timer, with an
	 * epoch (kernel/time/sched_clock.c); else x86's TSC cyc2ns */
	bool timer_sched_clock;
};

/* The rules of model m's arch. */
#define SM_RULES(m) ((m)->pmu)

static inline uint64_t sm_mask_bits(unsigned w)
{
	return w >= 64 ? ~0ull : (1ull << w) - 1;
}

/* A sampling cpu-clock or task-clock event: Linux 6.12's
 * perf_swevent_init_hrtimer() (kernel/events/core.c, called from
 * cpu_clock_event_init() and task_clock_event_init() when
 * is_sampling_event()) sets hw.hrtimer.function = perf_swevent_hrtimer.
 * In struct hw_perf_event (include/linux/perf_event.h) the hrtimer shares
 * the first union with the hardware members, and on a 64-bit little-endian
 * kernel `function` (bytes 40..47 of struct hrtimer: timerqueue_node 32,
 * _softexpires 8) lies under `last_cpu` (40..43) and `flags` (44..47).  So
 * hw.flags is the upper half of a kernel text address, and every test of
 * hw.flags on such an event reads pointer bits: bit 31, the sign bit of
 * the address, is PERF_EVENT_FLAG_USER_READ_CNT and is always set.  A
 * counting clock event leaves the hrtimer zero (the event is allocated
 * zeroed), so its flags are 0; other software events never touch it.
 *
 * Linux 7.2 moved both sides (include/linux/perf_event.h: the hardware
 * struct gained config1 and dyn_constraint, so hw.flags is at bytes
 * 60..63; include/linux/hrtimer_types.h: struct hrtimer starts with a
 * timerqueue_linked_node of 48 bytes, then base 48..55, the bools
 * is_queued..is_lazy 56..60, and `function` at 72..79).  hw.flags now
 * lies under is_lazy and padding, which __hrtimer_setup()
 * (kernel/time/hrtimer.c) zeroes and perf_swevent_init_hrtimer()'s
 * HRTIMER_MODE_REL_HARD leaves 0: no overlay on 7.2. */
static inline bool sm_sampling_clock(const struct sm_config *cfg,
                                     const struct sm_event *e)
{
	return !sm_kernel_at_least(cfg, 7, 2) &&
	       e->cfg->type == SM_EV_SOFTWARE && e->cfg->period != 0 &&
	       (!strcmp(e->cfg->name, "cpu-clock") ||
	        !strcmp(e->cfg->name, "task-clock"));
}

/* armpmu_event_set_period() and riscv_pmu_event_set_period(): left is
 * limited to max_period >> 1. */
static inline int64_t sm_half_clamp(uint64_t max_period, int64_t left)
{
	uint64_t lim = max_period >> 1;
	return (uint64_t)left > lim ? (int64_t)lim : left;
}

/* armv8pmu_user_event_idx(), riscv_pmu_event_idx(): counter number + 1. */
static inline uint32_t sm_index_plus_one(int c)
{
	return (uint32_t)c + 1;
}

/* General counters numbered from 0 (x86, arm64). */
static inline unsigned sm_gp_from_zero(void)
{
	return 0;
}

#endif
