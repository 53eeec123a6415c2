/*
 * pmu_arm64.c — the arm64 PMU driver: drivers/perf/arm_pmuv3.c and
 * drivers/perf/arm_pmu.c as the model needs them.
 *
 * Owns: arm64's rules (PMEVCNTR<n>/PMCCNTR, the cycle counter's use,
 * 64-bit events and the long-counter bias, widths, periods), the user
 * access of armv8pmu_enable_user_access() (unused counters cleared,
 * PMUSERENR_EL0, Linux 7.2's PMUACR_EL1) and what user space's MRS of a
 * counter sees.  The perf core reaches it through sm_pmu_arm64 only.  It
 * must not decide generic flows (kernel.c) or page contents (userpage.c).
 */
#include "drivers.h"
#include "event.h"

/* A counter number names a register: PMEVCNTR<n> -> n, PMCCNTR ->
 * SM_ARM64_CYCLE (model.h). */
static bool arm64_counter_exists(const struct sm_config *cfg, int c)
{
	return c == SM_ARM64_CYCLE || (c >= 0 && (unsigned)c < cfg->gp);
}

/* Linux 7.2 armv8pmu_can_use_pmccntr(): not on a PMU whose cores have
 * SMT (cpu_pmu->has_smt, armpmu_register() from topology_core_has_smt():
 * PMCCNTR_EL0 counts the processor clock, on through a sibling's work
 * while this PE waits); 6.12 has no such test.  (Its other new refusal,
 * branch sampling, is not modelled: 6.12's armpmu_event_init() refuses a
 * branch-stack event outright, and the model has no event attributes of
 * that kind.) */
bool sm_arm64_cycles_avoid_pmccntr(const struct sm_config *cfg)
{
	return cfg->arch == SM_ARM64 && cfg->smt &&
	       sm_kernel_at_least(cfg, 7, 2);
}

static int arm64_fixed_for(const struct sm_config *cfg, enum sm_event_type t)
{
	/* armv8pmu_get_event_idx(): CPU_CYCLES prefers PMCCNTR_EL0 (on 7.2
	 * when armv8pmu_can_use_pmccntr()); otherwise the lowest free event
	 * counter, so the page index is that counter + 1, not 32. */
	return t == SM_EV_CYCLES && !sm_arm64_cycles_avoid_pmccntr(cfg)
	       ? SM_ARM64_CYCLE : -1;
}

static bool arm64_counter_ok(const struct sm_config *cfg,
                             const struct sm_event_cfg *ev, int c)
{
	if (c == SM_ARM64_CYCLE)
		return ev->type == SM_EV_CYCLES &&
		       !sm_arm64_cycles_avoid_pmccntr(cfg);
	/* a 64-bit event needs a 64-bit counter (chaining is not modelled) */
	return c >= 0 && (unsigned)c < cfg->gp &&
	       (!ev->long64 || cfg->long_counters);
}

/* armv8pmu_user_event_idx(): PERF_EVENT_FLAG_USER_READ_CNT (config1 bit
 * 1) and sysctl perf_user_access; the counters are readable at EL0 under
 * the same two conditions (armv8pmu_start()). */
static bool arm64_user_read(const struct sm_config *cfg,
                            const struct sm_event *e)
{
	return cfg->user_access == 1 && e->cfg->user &&
	       e->cfg->type != SM_EV_SOFTWARE;
}

/* arch_perf_update_userpage() (drivers/perf/arm_pmuv3.c): cap_user_rdpmc
 * = armv8pmu_event_has_user_read(), PERF_EVENT_FLAG_USER_READ_CNT, which
 * __armv8_pmuv3_map_event() sets from config1 bit 1 alone: with
 * perf_user_access = 0 the page still says cap_user_rdpmc = 1 and
 * pmc_width, only the index is 0.  The same function runs for every
 * event, software ones too: a sampling cpu-clock/task-clock's hw.flags is
 * the upper half of perf_swevent_hrtimer's address (sm_sampling_clock(), pmu.h),
 * 0xffff8000 for arm64 kernel text at 0xffff80008xxxxxxx, whose bit 31
 * is PERF_EVENT_FLAG_USER_READ_CNT: cap_user_rdpmc = 1, index 0. */
static bool arm64_cap_rdpmc(const struct sm_config *cfg,
                            const struct sm_event *e)
{
	return (e->cfg->user && e->cfg->type != SM_EV_SOFTWARE) ||
	       sm_sampling_clock(cfg, e);
}

/* arch_perf_update_userpage() (drivers/perf/arm_pmuv3.c): 64 for
 * ARMPMU_EVT_64BIT events, else 32; written only with cap_user_rdpmc.
 * A software event has no config1 (long64 means nothing to it); for a
 * sampling cpu-clock/task-clock ARMPMU_EVT_64BIT (flags bit 0) is bit 32
 * of perf_swevent_hrtimer's address, 0 in the image's link-time place
 * 0xffff80008xxxxxxx (KIMAGE_VADDR, no KASLR), so 32.  (A KASLR offset,
 * kaslr_early_init(), moves the image in the vmalloc area and can set that
 * bit: 64 then; not modelled.) */
static uint16_t arm64_pmc_width(const struct sm_config *cfg,
                                const struct sm_event *e)
{
	(void)cfg;
	if (e->cfg->type == SM_EV_SOFTWARE)
		return 32;
	return e->cfg->long64 ? 64 : 32;
}

/* arm_pmu_event_max_period() */
static uint64_t arm64_max_period(const struct sm_config *cfg,
                                 const struct sm_event *e)
{
	(void)cfg;
	return e->cfg->long64 ? ~0ull : 0xffffffffull;
}

/* PMCCNTR is 64-bit; event counters are 64-bit on PMUv3p5. */
static uint64_t arm64_reg_mask(const struct sm_config *cfg, int c)
{
	return c == SM_ARM64_CYCLE || cfg->long_counters ? ~0ull : 0xffffffffull;
}

/* armpmu_event_set_period(): left is limited to max_period >> 1. */
static int64_t arm64_clamp_left(const struct sm_config *cfg,
                                const struct sm_event *e, int64_t left)
{
	return sm_half_clamp(arm64_max_period(cfg, e), left);
}

/* armv8pmu_event_needs_bias(): a 32-bit event in a 64-bit counter. */
static bool arm64_biased(const struct sm_config *cfg,
                         const struct sm_event *e, int c)
{
	return !e->cfg->long64 && arm64_reg_mask(cfg, c) == ~0ull;
}

/* armv8pmu_write_counter() -> armv8pmu_bias_long_counter(): the upper
 * 32 bits are set so the 64-bit counter overflows with the low 32. */
static uint64_t arm64_to_reg(const struct sm_config *cfg,
                             const struct sm_event *e, int c, uint64_t v)
{
	v &= arm64_max_period(cfg, e);
	return arm64_biased(cfg, e, c) ? v | 0xffffffff00000000ull : v;
}

/* armv8pmu_read_counter() -> armv8pmu_unbias_long_counter(). */
static uint64_t arm64_from_reg(const struct sm_config *cfg,
                               const struct sm_event *e, int c, uint64_t raw)
{
	return arm64_biased(cfg, e, c) ? raw & 0xffffffffull : raw;
}

/* armpmu_event_update(): (new - prev) & max_period. */
static uint64_t arm64_delta(const struct sm_config *cfg,
                            const struct sm_event *e, uint64_t prev,
                            uint64_t now)
{
	return (now - prev) & arm64_max_period(cfg, e);
}

/* __hw_perf_event_init(): a counting event runs with half the max
 * period. */
static uint64_t arm64_count_period(const struct sm_config *cfg,
                                   const struct sm_event *e)
{
	return arm64_max_period(cfg, e) >> 1;
}

/* ---- user access: armv8pmu_enable_user_access() --------------------- */

/* arm64 on Linux 7.2 with FEAT_PMUv3p9 (pmu pmuv3p9=yes):
 * armv8pmu_enable_user_access() (drivers/perf/arm_pmuv3.c) writes
 * PMUACR_EL1 with the counters in use whose event has user read
 * (armv8pmu_event_has_user_read()), sets PMUSERENR_EL0.UEN and clears no
 * counter.  The architecture makes EL0 accesses to a counter whose
 * PMUACR_EL1 bit is 0 RAZ/WI while UEN is 1 (Arm ARM, PMUACR_EL1.P<m>
 * and .C), so such a counter reads 0 whoever owns it.  The mask is
 * rewritten at every armv8pmu_start() (each perf_pmu_enable() while the
 * context has user events), so between actions it is what the counters'
 * owners are now. */
static bool arm64_pmuacr(const struct sm_config *cfg)
{
	return cfg->arch == SM_ARM64 && cfg->pmuv3p9 &&
	       sm_kernel_at_least(cfg, 7, 2);
}

static bool arm64_pmuacr_allows(const struct sm_model *m, int c)
{
	int owner = m->k.cpu[m->k.task_cpu].ctr[c].owner;

	/* PERF_EVENT_FLAG_USER_READ_CNT: config1 bit 1 of a hardware event
	 * (__armv8_pmuv3_map_event()) */
	return owner >= 0 && m->k.ev[owner].cfg->user &&
	       m->k.ev[owner].cfg->type != SM_EV_SOFTWARE;
}

/* arm64 armv8pmu_enable_user_access(): counters not in use are cleared
 * before EL0 may read them, so nothing leaks from other tasks (6.12, and
 * 7.2 without PMUv3.9: with it, PMUACR_EL1 hides them instead). */
static void arm64_clear_unused(struct sm_model *m)
{
	if (arm64_pmuacr(m->cfg))
		return;
	for (int c = 0; c < SM_MAX_COUNTERS; c++)
		if (sm_counter_free(m, c))
			sm_counter_write(m, c, 0);
}

/* Does the task have an mmapped event with user read access?  (arm64:
 * ctx->nr_user, counted at perf_mmap() whatever the event's state; a
 * munmap does not take it off: munmap_event().) */
static bool user_events_mapped(const struct sm_model *m)
{
	for (unsigned i = 0; i < m->k.nopen; i++)
		if ((m->k.ev[i].mapped || m->k.ev[i].unmapped) &&
		    arm64_user_read(m->cfg, &m->k.ev[i]))
			return true;
	return false;
}

/* armpmu_add() of an event with user read: the counters not in use are
 * cleared before EL0 may read them (arm64_clear_unused()). */
static void arm64_added(struct sm_model *m, const struct sm_event *e)
{
	if (arm64_user_read(m->cfg, e))
		arm64_clear_unused(m);
}

/* event_function() ends with perf_pmu_enable(): on arm64
 * armpmu_enable() -> armv8pmu_start() -> armv8pmu_enable_user_access()
 * while the context has user events (nr_user, the disabled one still
 * among them), which zeroes every counter not in use, the one just
 * freed included */
static void arm64_disabled(struct sm_model *m)
{
	if (m->cfg->user_access == 1 && user_events_mapped(m))
		arm64_clear_unused(m);
}

/* pmu->start(event, 0): armpmu_start() always sets the period again. */
static void arm64_start_noreload(struct sm_model *m, int i)
{
	sm_pmu_start(m, i);
}

/* ---- user space's counter reads -------------------------------------- */

/* arm64 PMUSERENR_EL0 of the task's CPU: armv8pmu_start() sets ER|CR
 * (armv8pmu_enable_user_access(); with PMUv3.9 on Linux 7.2 UEN too,
 * arm64_pmuacr()) while sysctl perf_user_access is 1 and the task's
 * context has user-readable mmapped events (nr_user), whether or not they
 * are on a counter right now, and writes 0 otherwise
 * (armv8pmu_disable_user_access()). */
uint32_t sm_arm64_pmuserenr(const struct sm_model *m)
{
	if (m->cfg->arch != SM_ARM64 || m->cfg->user_access != 1 ||
	    !m->k.task_on || !user_events_mapped(m))
		return 0;
	return SM_PMUSERENR_ER | SM_PMUSERENR_CR |
	       (arm64_pmuacr(m->cfg) ? SM_PMUSERENR_UEN : 0);
}

/* arm64 PMUACR_EL1 (Linux 7.2 with FEAT_PMUv3p9, arm64_pmuacr()): bit n
 * for PMEVCNTR<n>_EL0, bit 31 (C) for PMCCNTR_EL0, the counters whose
 * owner has user read; 0 where the register is not used. */
uint32_t sm_arm64_pmuacr(const struct sm_model *m)
{
	uint32_t v = 0;

	for (int c = 0; arm64_pmuacr(m->cfg) && c < 32; c++)
		if (arm64_counter_exists(m->cfg, c) && arm64_pmuacr_allows(m, c))
			v |= 1u << c;
	return v;
}

/* arm64 MRS of PMEVCNTR<n>_EL0 / PMCCNTR_EL0: allowed by PMUSERENR_EL0.ER
 * and .CR (sm_arm64_pmuserenr(), set and cleared together); otherwise, or
 * for a counter that does not exist, the read is UNDEFINED (SIGILL). */
enum sm_fault sm_model_arm64_counter(const struct sm_model *m, unsigned c,
                                     uint64_t *val)
{
	if (!(sm_arm64_pmuserenr(m) & SM_PMUSERENR_ER) ||
	    !arm64_counter_exists(m->cfg, (int)c))
		return SM_FAULT_ILL;
	if (arm64_pmuacr(m->cfg) && !(sm_arm64_pmuacr(m) >> c & 1)) {
		*val = 0; /* RAZ: not in PMUACR_EL1 (arm64_pmuacr()) */
		return SM_OK;
	}
	*val = sm_counter_value(m, m->k.task_cpu, (int)c);
	return SM_OK;
}

const struct sm_pmu_rules sm_pmu_arm64 = {
	.counter_exists = arm64_counter_exists,
	/* armv8pmu_get_event_idx(): the cycle counter for a cycles
	 * event if free, else armv8pmu_get_single_idx(): the lowest free
	 * counter, whatever the event had before */
	.counter_ok = arm64_counter_ok, .fixed_for = arm64_fixed_for,
	.first_gp = sm_gp_from_zero, .reuse_last = false,
	.constraint_only = false,
	.user_read = arm64_user_read, .cap_rdpmc = arm64_cap_rdpmc,
	/* armv8pmu_user_event_idx(): counter number + 1; PMCCNTR is 32 */
	.index = sm_index_plus_one, .pmc_width = arm64_pmc_width,
	.width_only_if_rdpmc = true, .max_period = arm64_max_period,
	.reg_mask = arm64_reg_mask, .clamp_left = arm64_clamp_left,
	.to_reg = arm64_to_reg, .from_reg = arm64_from_reg,
	.delta = arm64_delta, .count_period = arm64_count_period,
	/* armpmu_start(): hw.state = 0, then armpmu_event_set_period():
	 * one write; armpmu_add() writes the page once more */
	.start_stopped = false, .start_writes_again = false,
	.start_noreload = arm64_start_noreload,
	.added = arm64_added, .add_writes_page = true,
	.disabled = arm64_disabled,
	/* armv8pmu_handle_irq() reloads a running event and, for a
	 * throttling perf_event_overflow(), stops it (cpu_pmu->disable()) */
	.irq_stopped = false, .throttle_stops = true,
	/* weakly ordered; the generic sched_clock over the architected
	 * timer */
	.weak_order = true, .timer_sched_clock = true,
};
