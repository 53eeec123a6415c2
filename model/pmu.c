/*
 * pmu.c — per-arch PMU rules: counters, index encoding, widths, periods.
 *
 * Owns: the sm_pmu[] rule table that kernel.c and userpage.c consult for
 * everything that differs between x86-64, arm64 and riscv64
 * (docs/kernel-variant.md §2).
 * Each rule cites the kernel function it models.  It holds no state.
 */
#include <string.h>

#include "internal.h"

static uint64_t mask_bits(unsigned w)
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
static bool sampling_clock(const struct sm_config *cfg,
                           const struct sm_event *e)
{
	return !sm_kernel_at_least(cfg, 7, 2) &&
	       e->cfg->type == SM_EV_SOFTWARE && e->cfg->period != 0 &&
	       (!strcmp(e->cfg->name, "cpu-clock") ||
	        !strcmp(e->cfg->name, "task-clock"));
}

/* ---- x86-64: arch/x86/events/core.c -------------------------------- */

/* Fixed counter j counts one event: 0 instructions, 1 cycles, 2 ref-cycles
 * (arch/x86/events/intel/core.c fixed-counter constraints). */
static int x86_fixed_for(const struct sm_config *cfg, enum sm_event_type t)
{
	int j = t == SM_EV_INSTRUCTIONS ? 0 : t == SM_EV_CYCLES ? 1
	      : t == SM_EV_REF_CYCLES ? 2 : -1;
	return j >= 0 && (unsigned)j < cfg->fixed ? SM_X86_FIXED + j : -1;
}

static bool x86_counter_ok(const struct sm_config *cfg,
                           const struct sm_event_cfg *ev, int c)
{
	if (c >= 0 && (unsigned)c < cfg->gp)
		return ev->type != SM_EV_REF_CYCLES; /* ref-cycles: fixed only */
	return c >= SM_X86_FIXED && x86_fixed_for(cfg, ev->type) == c;
}

/* x86_pmu_event_init(): PERF_EVENT_FLAG_USER_READ_CNT when sysfs rdpmc
 * is not 0; software events never have it. */
static bool x86_user_read(const struct sm_config *cfg, const struct sm_event *e)
{
	return cfg->user_access != 0 && e->cfg->type != SM_EV_SOFTWARE;
}

/* x86_pmu_event_idx(): event_base_rdpmc + 1, where the rdpmc ECX of
 * fixed counter j is (1 << 30) | j. */
static uint32_t x86_index(int c)
{
	if (c >= SM_X86_FIXED)
		return ((1u << 30) | (uint32_t)(c - SM_X86_FIXED)) + 1;
	return (uint32_t)c + 1;
}

/* arch_perf_update_userpage(): cap_user_rdpmc from
 * PERF_EVENT_FLAG_USER_READ_CNT, the same condition as the index; for a
 * sampling cpu-clock/task-clock that bit is bit 63 of the address of
 * perf_swevent_hrtimer (sampling_clock()): x86-64 kernel text is at
 * 0xffffffff8xxxxxxx, KASLR or not, so hw.flags reads 0xffffffff and the
 * page says cap_user_rdpmc = 1 whatever sysfs rdpmc says, next to index 0
 * (perf_swevent_event_idx()). */
static bool x86_cap_rdpmc(const struct sm_config *cfg, const struct sm_event *e)
{
	return x86_user_read(cfg, e) || sampling_clock(cfg, e);
}

/* arch_perf_update_userpage(): pmc_width = x86_pmu.cntval_bits always. */
static uint16_t x86_pmc_width(const struct sm_config *cfg,
                              const struct sm_event *e)
{
	(void)e;
	return (uint16_t)cfg->width;
}

static uint64_t x86_max_period(const struct sm_config *cfg,
                               const struct sm_event *e)
{
	(void)e;
	return cfg->max_period;
}

static uint64_t x86_reg_mask(const struct sm_config *cfg, int c)
{
	(void)c;
	return mask_bits(cfg->width); /* x86_pmu.cntval_mask */
}

/* x86_perf_event_set_period(): at least 2 ("certain CPUs don't like it
 * if just 1 hw_event is left"), at most max_period. */
static int64_t x86_clamp_left(const struct sm_config *cfg,
                              const struct sm_event *e, int64_t left)
{
	(void)e;
	if (left < 2)
		left = 2;
	if ((uint64_t)left > cfg->max_period)
		left = (int64_t)cfg->max_period;
	return left;
}

static uint64_t x86_to_reg(const struct sm_config *cfg,
                           const struct sm_event *e, int c, uint64_t v)
{
	(void)e;
	return v & x86_reg_mask(cfg, c); /* wrmsrl(.., (u64)(-left) & mask) */
}

/* rdpmc returns the counter zero-extended; x86_perf_event_update() keeps
 * that raw value as prev_count. */
static uint64_t x86_from_reg(const struct sm_config *cfg,
                             const struct sm_event *e, int c, uint64_t raw)
{
	(void)cfg, (void)e, (void)c;
	return raw;
}

/* x86_perf_event_update(): shift both values up to bit 63, subtract,
 * shift back logically: the delta modulo 2^W of a W-bit counter. */
static uint64_t x86_delta(const struct sm_config *cfg,
                          const struct sm_event *e, uint64_t prev, uint64_t now)
{
	unsigned s = 64 - cfg->width;
	(void)e;
	return ((now << s) - (prev << s)) >> s;
}

/* x86_setup_perfctr(): a counting event runs with x86_pmu.max_period. */
static uint64_t x86_count_period(const struct sm_config *cfg,
                                 const struct sm_event *e)
{
	(void)e;
	return cfg->max_period;
}

static unsigned gp_from_zero(void)
{
	return 0;
}

/* ---- arm64: drivers/perf/arm_pmuv3.c, drivers/perf/arm_pmu.c ------- */

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
 * the upper half of perf_swevent_hrtimer's address (sampling_clock()),
 * 0xffff8000 for arm64 kernel text at 0xffff80008xxxxxxx, whose bit 31
 * is PERF_EVENT_FLAG_USER_READ_CNT: cap_user_rdpmc = 1, index 0. */
static bool arm64_cap_rdpmc(const struct sm_config *cfg,
                            const struct sm_event *e)
{
	return (e->cfg->user && e->cfg->type != SM_EV_SOFTWARE) ||
	       sampling_clock(cfg, e);
}

/* armv8pmu_user_event_idx(): counter number + 1; PMCCNTR is 32. */
static uint32_t plus_one_index(int c)
{
	return (uint32_t)c + 1;
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
static int64_t half_max_clamp(const struct sm_config *cfg,
                              const struct sm_event *e, int64_t left)
{
	uint64_t lim = sm_pmu[cfg->arch].max_period(cfg, e) >> 1;
	return (uint64_t)left > lim ? (int64_t)lim : left;
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

/* armpmu_event_update(): (new - prev) & max_period.  riscv_pmu_event_update()
 * does the same with the counter's width mask. */
static uint64_t masked_delta(const struct sm_config *cfg,
                             const struct sm_event *e, uint64_t prev,
                             uint64_t now)
{
	return (now - prev) & sm_pmu[cfg->arch].max_period(cfg, e);
}

/* __hw_perf_event_init(): a counting event runs with half the max
 * period. */
static uint64_t half_max_period(const struct sm_config *cfg,
                                const struct sm_event *e)
{
	return sm_pmu[cfg->arch].max_period(cfg, e) >> 1;
}

/* ---- riscv64: drivers/perf/riscv_pmu.c, riscv_pmu_sbi.c ------------ */

static int riscv_fixed_for(const struct sm_config *cfg, enum sm_event_type t)
{
	(void)cfg;
	return t == SM_EV_CYCLES ? SM_RISCV_CYCLE
	     : t == SM_EV_INSTRUCTIONS ? SM_RISCV_INSTRET : -1;
}

static bool riscv_counter_ok(const struct sm_config *cfg,
                             const struct sm_event_cfg *ev, int c)
{
	if (c == SM_RISCV_CYCLE)
		return ev->type == SM_EV_CYCLES;
	if (c == SM_RISCV_INSTRET)
		return ev->type == SM_EV_INSTRUCTIONS;
	return c >= 3 && (unsigned)c < 3 + cfg->gp;
}

static unsigned riscv_first_gp(void)
{
	return 3;
}

/* riscv_pmu_event_idx() with PERF_EVENT_FLAG_USER_READ_CNT, which
 * pmu_sbi_event_mapped() sets once the event is mmapped (read_cnt):
 * perf_user_access 1 gives it to mmapped hardware events; 2 ("legacy")
 * only to cycle and instret, which are then always readable. */
static bool riscv_user_read(const struct sm_config *cfg,
                            const struct sm_event *e)
{
	enum sm_event_type t = e->cfg->type;

	if (t == SM_EV_SOFTWARE || !e->read_cnt)
		return false;
	if (cfg->user_access == 1)
		return e->cfg->user;
	return cfg->user_access == 2 &&
	       (t == SM_EV_CYCLES || t == SM_EV_INSTRUCTIONS);
}

/* drivers/perf/riscv_pmu.c riscv_perf_user_access(): a hardware event
 * with PERF_EVENT_FLAG_USER_READ_CNT and a counter (hw.idx != -1: from
 * riscv_pmu_add() to the end of riscv_pmu_del()).  A page written while
 * the event has none says cap_user_rdpmc = 0 and leaves pmc_width.  The
 * attr.type test comes first, so a sampling clock event's hw.flags
 * (sampling_clock()) is never looked at here. */
static bool riscv_cap_rdpmc(const struct sm_config *cfg,
                            const struct sm_event *e)
{
	return riscv_user_read(cfg, e) && e->counter >= 0;
}

/* cycle and instret are 64-bit; hpmcounters have the configured width. */
static uint64_t riscv_reg_mask(const struct sm_config *cfg, int c)
{
	return c < 3 ? ~0ull : mask_bits(cfg->width);
}

/* riscv_pmu_ctr_get_width_mask(); pmc_width = ctr_get_width() + 1. */
static uint64_t riscv_max_period(const struct sm_config *cfg,
                                 const struct sm_event *e)
{
	return riscv_reg_mask(cfg, e->counter >= 0 ? e->counter
	                         : riscv_fixed_for(cfg, e->cfg->type) >= 0
	                             ? riscv_fixed_for(cfg, e->cfg->type) : 3);
}

/* riscv_pmu_event_init(): a counting event gets half the width mask
 * riscv_pmu_ctr_get_width_mask() returns before the event has a counter
 * (hw.idx == -1): that of counter 0, the 64-bit cycle counter, whatever
 * counter it later runs on.  So the period is 2^63 - 1 and
 * riscv_pmu_event_set_period() clamps `left` to the counter's own half
 * mask (2^47 - 1 for a 48-bit hpmcounter) at every reload. */
static uint64_t riscv_count_period(const struct sm_config *cfg,
                                   const struct sm_event *e)
{
	(void)e;
	return riscv_reg_mask(cfg, SM_RISCV_CYCLE) >> 1;
}

static uint16_t riscv_pmc_width(const struct sm_config *cfg,
                                const struct sm_event *e)
{
	uint64_t m = riscv_max_period(cfg, e);
	uint16_t w = 0;
	while (m) {
		w++;
		m >>= 1;
	}
	return w;
}

static uint64_t riscv_to_reg(const struct sm_config *cfg,
                             const struct sm_event *e, int c, uint64_t v)
{
	(void)e;
	return v & riscv_reg_mask(cfg, c);
}

const struct sm_pmu_rules sm_pmu[SM_NARCH] = {
	[SM_X86_64] = {
		.counter_ok = x86_counter_ok, .fixed_for = x86_fixed_for,
		.first_gp = gp_from_zero, .reuse_last = true, .user_read = x86_user_read,
		.cap_rdpmc = x86_cap_rdpmc,
		.index = x86_index, .pmc_width = x86_pmc_width,
		.width_only_if_rdpmc = false, .max_period = x86_max_period,
		.reg_mask = x86_reg_mask, .clamp_left = x86_clamp_left,
		.to_reg = x86_to_reg, .from_reg = x86_from_reg,
		.delta = x86_delta, .count_period = x86_count_period,
	},
	[SM_ARM64] = {
		/* armv8pmu_get_event_idx(): the cycle counter for a cycles
		 * event if free, else armv8pmu_get_single_idx(): the lowest free
		 * counter, whatever the event had before */
		.counter_ok = arm64_counter_ok, .fixed_for = arm64_fixed_for,
		.first_gp = gp_from_zero, .reuse_last = false, .user_read = arm64_user_read,
		.cap_rdpmc = arm64_cap_rdpmc,
		.index = plus_one_index, .pmc_width = arm64_pmc_width,
		.width_only_if_rdpmc = true, .max_period = arm64_max_period,
		.reg_mask = arm64_reg_mask, .clamp_left = half_max_clamp,
		.to_reg = arm64_to_reg, .from_reg = arm64_from_reg,
		.delta = masked_delta, .count_period = half_max_period,
	},
	[SM_RISCV64] = {
		/* (the SBI firmware chooses: modelled as x86's) */
		.counter_ok = riscv_counter_ok, .fixed_for = riscv_fixed_for,
		.first_gp = riscv_first_gp, .reuse_last = true, .user_read = riscv_user_read,
		.cap_rdpmc = riscv_cap_rdpmc,
		.index = plus_one_index, .pmc_width = riscv_pmc_width,
		.width_only_if_rdpmc = true, .max_period = riscv_max_period,
		.reg_mask = riscv_reg_mask, .clamp_left = half_max_clamp,
		.to_reg = riscv_to_reg, .from_reg = x86_from_reg,
		.delta = masked_delta, .count_period = riscv_count_period,
	},
};

/* A counter number names a register this PMU has. */
bool sm_counter_exists(const struct sm_config *cfg, int c)
{
	switch (cfg->arch) {
	case SM_X86_64:
		return (c >= 0 && (unsigned)c < cfg->gp) ||
		       (c >= SM_X86_FIXED && (unsigned)(c - SM_X86_FIXED) < cfg->fixed);
	case SM_ARM64:
		return c == SM_ARM64_CYCLE || (c >= 0 && (unsigned)c < cfg->gp);
	default:
		return c == SM_RISCV_CYCLE || c == SM_RISCV_INSTRET ||
		       (c >= 3 && (unsigned)c < 3 + cfg->gp);
	}
}
