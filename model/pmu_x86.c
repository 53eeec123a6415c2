/*
 * pmu_x86.c — the x86-64 PMU driver: arch/x86/events/core.c and
 * arch/x86/events/intel/core.c as the model needs them.
 *
 * Owns: x86-64's rules (counters, fixed-counter constraints, rdpmc index,
 * widths, the counter arithmetic), x86_schedule_events() with x86_pmu_add()'s
 * collection, the group transaction and x86_pmu_enable(), and what user
 * space's rdpmc sees (CR4.PCE, the counters).  The perf core reaches it
 * through sm_pmu_x86 only.  It must not decide generic flows
 * (kernel.c) or page contents (userpage.c).
 */
#include "drivers.h"
#include "event.h"

/* A counter number names a register: general counter i -> i, fixed
 * counter j -> SM_X86_FIXED + j (model.h). */
static bool x86_counter_exists(const struct sm_config *cfg, int c)
{
	return (c >= 0 && (unsigned)c < cfg->gp) ||
	       (c >= SM_X86_FIXED && (unsigned)(c - SM_X86_FIXED) < cfg->fixed);
}

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
 * perf_swevent_hrtimer (sm_sampling_clock(), pmu.h): x86-64 kernel text is at
 * 0xffffffff8xxxxxxx, KASLR or not, so hw.flags reads 0xffffffff and the
 * page says cap_user_rdpmc = 1 whatever sysfs rdpmc says, next to index 0
 * (perf_swevent_event_idx()). */
static bool x86_cap_rdpmc(const struct sm_config *cfg, const struct sm_event *e)
{
	return x86_user_read(cfg, e) || sm_sampling_clock(cfg, e);
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
	return sm_mask_bits(cfg->width); /* x86_pmu.cntval_mask */
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

/* ---- x86_schedule_events() ------------------------------------------ */

/* The counters event e may use: its constraint (one counter if the
 * scenario names it). */
static bool x86_allowed(const struct sm_model *m, const struct sm_event *e,
                        int c)
{
	if (e->cfg->counter != SM_AUTO)
		return c == e->cfg->counter;
	return x86_counter_exists(m->cfg, c) &&
	       x86_counter_ok(m->cfg, e->cfg, c);
}

static unsigned x86_weight(const struct sm_model *m, const struct sm_event *e)
{
	unsigned w = 0;

	for (int c = 0; c < SM_MAX_COUNTERS; c++)
		w += x86_allowed(m, e, c);
	return w;
}

/* arch/x86/events/core.c x86_schedule_events() for the events on the
 * PMU in the order x86_pmu_add() collected them (cpuc->event_list: the
 * active hardware events by `added`), then the newcomer n (-1: none).
 * The fast path keeps every event's hw.idx (its counter if it runs; the
 * one it had last, -1 if it never had one, if it is only collected) while
 * each is set, allowed and not taken by one before it; otherwise
 * perf_assign_events() places them all anew, fewest allowed counters
 * first (in list order among equals), each on its first allowed fixed
 * counter (perf_sched_find_counter() prefers them), else the lowest
 * allowed free general one.  list[]/to[] get the events and counters;
 * false if they cannot all go on. */
static bool x86_schedule(const struct sm_model *m, int n, int list[],
                         int to[], unsigned *len)
{
	unsigned k = 0;
	uint64_t used = 0;

	for (unsigned i = 0; i < m->k.nopen; i++) {
		const struct sm_event *e = &m->k.ev[i];
		if ((int)i == n || e->state != SM_ACTIVE ||
		    (e->counter < 0 && !e->collected))
			continue;
		unsigned at = k++;
		while (at && m->k.ev[list[at - 1]].added > e->added) {
			list[at] = list[at - 1];
			at--;
		}
		list[at] = (int)i;
	}
	if (n >= 0)
		list[k++] = n;
	*len = k;
	bool fast = true;
	for (unsigned j = 0; j < k && fast; j++) {
		const struct sm_event *e = &m->k.ev[list[j]];
		int c = e->counter >= 0 ? e->counter : e->last_counter;
		fast = c >= 0 && x86_allowed(m, e, c) && !(used >> c & 1);
		used |= 1ull << (c & 63);
		to[j] = c;
	}
	if (fast)
		return true;
	used = 0;
	for (unsigned w = 1; w <= SM_MAX_COUNTERS; w++)
		for (unsigned j = 0; j < k; j++) {
			const struct sm_event *e = &m->k.ev[list[j]];
			if (x86_weight(m, e) != w)
				continue;
			int pick = -1;
			for (int c = SM_X86_FIXED; c < SM_MAX_COUNTERS && pick < 0; c++)
				if (x86_allowed(m, e, c) && !(used >> c & 1))
					pick = c;
			for (int c = 0; c < SM_X86_FIXED && pick < 0; c++)
				if (x86_allowed(m, e, c) && !(used >> c & 1))
					pick = c;
			if (pick < 0)
				return false;
			used |= 1ull << pick;
			to[j] = pick;
		}
	return true;
}

/* x86_pmu_add(): the event is collected if the PMU can schedule it with
 * the others (else -EINVAL: it does not go on); nothing is programmed or
 * written until x86_pmu_enable() (x86_enable()). */
static bool x86_sched_in(struct sm_model *m, int n)
{
	int list[SM_MAX_EVENTS], to[SM_MAX_EVENTS];
	unsigned len;
	struct sm_event *e = &m->k.ev[n];

	if (!x86_schedule(m, n, list, to, &len))
		return false;
	sm_set_state(m, e, SM_ACTIVE);
	e->added = ++m->k.adds;
	e->collected = true;
	return true;
}

/* x86_pmu_enable() at the end of a perf_pmu_disable() section, with the
 * last schedule (the same list again): the running events whose counter
 * changed stop with an update (x86_pmu_stop(), no page write), then in
 * list order each moved or collected one gets its counter
 * (x86_assign_hw_event()) and starts with a reload (x86_pmu_start(): two
 * page writes).  Linux 7.2 also gives a moved event that was stopped
 * (PERF_HES_ARCH) x86_pmu_set_period(), which rewrites its page; no model
 * event is on the PMU and stopped (nothing throttles), so there is none
 * to rewrite: whoever adds one writes its page here when
 * sm_kernel_at_least(m->cfg, 7, 2). */
static void x86_enable(struct sm_model *m)
{
	int list[SM_MAX_EVENTS], to[SM_MAX_EVENTS];
	unsigned len;
	bool start[SM_MAX_EVENTS];

	if (!x86_schedule(m, -1, list, to, &len))
		return;
	for (unsigned j = 0; j < len; j++) {
		struct sm_event *e = &m->k.ev[list[j]];
		start[j] = e->collected || to[j] != e->counter;
		if (!start[j] || e->collected)
			continue;
		sm_event_update(m, e);
		sm_truth_sync(m, e);
		sm_counter_release(m, e->counter);
		e->counter = -1;
	}
	for (unsigned j = 0; j < len; j++) {
		struct sm_event *e = &m->k.ev[list[j]];
		if (!start[j])
			continue;
		e->collected = false;
		e->counter = e->last_counter = to[j];
		m->k.cpu[m->k.task_cpu].ctr[to[j]].owner = list[j];
		sm_pmu_start(m, list[j]);
	}
}

/* x86 group_sched_in() inside x86_pmu_start_txn(PERF_PMU_TXN_ADD):
 * x86_pmu_add() of each member only collects it (the schedulability test
 * is left to the commit), x86_pmu_commit_txn() schedules them all with
 * the events on the PMU (x86_schedule_events()); if that fails
 * group_sched_out()'s x86_pmu_del() of a member added in the transaction
 * only undoes the add (no stop, no page write). */
static bool x86_group_sched_in(struct sm_model *m, unsigned l)
{
	int list[SM_MAX_EVENTS], to[SM_MAX_EVENTS];
	unsigned len;

	for (unsigned j = l; j < m->k.nopen; j++) {
		struct sm_event *e = &m->k.ev[j];
		/* event_sched_in() of an OFF (or ERROR) sibling does nothing */
		if (sm_leader_of(m->cfg, j) != l || e->state != SM_INACTIVE)
			continue;
		sm_event_sched_in_unthrottle(e); /* event_sched_in() */
		sm_set_state(m, e, SM_ACTIVE);
		e->added = ++m->k.adds;
		e->collected = true;
	}
	if (x86_schedule(m, -1, list, to, &len))
		return true; /* x86_pmu_enable() at the section's end starts them */
	for (unsigned j = l; j < m->k.nopen; j++) {
		struct sm_event *e = &m->k.ev[j];
		if (sm_leader_of(m->cfg, j) != l || !e->collected)
			continue;
		e->collected = false;
		sm_set_state(m, e, SM_INACTIVE);
	}
	return false;
}

/* pmu->start(event, 0): x86_pmu_start() without a reload enables the
 * counter and writes the page once. */
static void x86_start_noreload(struct sm_model *m, int i)
{
	sm_page_update(m, i);
}

/* ---- user space's rdpmc ---------------------------------------------- */

/* x86 CR4.PCE of the task's CPU: cr4_update_pce_mm() (arch/x86/mm/tlb.c)
 * sets it under sysfs rdpmc 2 (rdpmc_always_available_key) and, under 1,
 * while this mm's perf_rdpmc_allowed is not 0: from the mmap of an event
 * with user read (x86_pmu_event_mapped()) to the munmap of the last one
 * (x86_pmu_event_unmapped()). */
bool sm_x86_cr4_pce(const struct sm_model *m)
{
	bool pce = m->cfg->user_access == 2;

	for (unsigned i = 0; !pce && m->cfg->user_access == 1 &&
	                     i < m->k.nopen; i++)
		pce = m->k.ev[i].mapped && x86_user_read(m->cfg, &m->k.ev[i]);
	return pce;
}

/* x86 RDPMC: CR4.PCE decides (sm_x86_cr4_pce()); ECX bit 30 selects the
 * fixed counters; any other ECX is #GP. */
enum sm_fault sm_model_rdpmc(const struct sm_model *m, uint32_t ecx,
                             uint64_t *val)
{
	int c;

	if (!sm_x86_cr4_pce(m))
		return SM_FAULT_GP;
	if (ecx & (1u << 30))
		c = (ecx & ~(1u << 30)) < m->cfg->fixed
		        ? SM_X86_FIXED + (int)(ecx & ~(1u << 30)) : -1;
	else
		c = ecx < m->cfg->gp ? (int)ecx : -1;
	if (c < 0)
		return SM_FAULT_GP;
	*val = sm_counter_value(m, m->k.task_cpu, c);
	return SM_OK;
}

const struct sm_pmu_rules sm_pmu_x86 = {
	.counter_exists = x86_counter_exists,
	.counter_ok = x86_counter_ok, .fixed_for = x86_fixed_for,
	.first_gp = sm_gp_from_zero, .reuse_last = true,
	.constraint_only = true, /* x86_allowed() */
	.user_read = x86_user_read, .cap_rdpmc = x86_cap_rdpmc,
	.index = x86_index, .pmc_width = x86_pmc_width,
	.width_only_if_rdpmc = false, .max_period = x86_max_period,
	.reg_mask = x86_reg_mask, .clamp_left = x86_clamp_left,
	.to_reg = x86_to_reg, .from_reg = x86_from_reg,
	.delta = x86_delta, .count_period = x86_count_period,
	/* x86_pmu_start(): x86_perf_event_set_period() while
	 * PERF_HES_STOPPED, then perf_event_update_userpage() */
	.start_stopped = true, .start_writes_again = true,
	.start_noreload = x86_start_noreload,
	/* x86_pmu_add() collects, x86_pmu_enable() starts (x86_sched_in(),
	 * x86_enable()): no page write of its own at add */
	.schedule_add = x86_sched_in, .add_writes_page = false,
	.group_txn = x86_group_sched_in, .pmu_enable = x86_enable,
	/* x86_pmu_handle_irq() reloads a running event; a throttling
	 * perf_event_overflow() has intel handle_pmi_common() stop it */
	.irq_stopped = false, .throttle_stops = true,
	/* x86 stores are seen in program order; sched_clock is the TSC's
	 * cyc2ns (arch/x86/kernel/tsc.c) */
	.weak_order = false, .timer_sched_clock = false,
};
