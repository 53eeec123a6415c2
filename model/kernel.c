/*
 * kernel.c — the kernel's perf core flows, as a model.
 *
 * Owns: counter assignment, context time, scheduling (sched in/out,
 * rotation, preemption, migration; event groups; the hybrid PMU filter),
 * overflow, frequency mode and throttling (interrupts and the tick),
 * reset, enable/disable, period changes, mmap and munmap, the buffer a
 * page write lands in (SET_OUTPUT), read(2)'s update of an event
 * (readfmt.c lays out its answer), the actions' entry point and the
 * ground truth.  One event's times, counter update, set_period and page
 * write are event.c's; what differs by arch is the model's PMU driver
 * (pmu.h's SM_RULES(): pmu_x86.c, pmu_arm64.c, pmu_riscv.c), which this
 * file never names; page contents are written by userpage.c.  Each flow
 * cites the kernel function it models.
 *
 * Ground truth is kept twice: the kernel's own count (count + pending
 * hardware delta, what read(2) returns) and an independent tally of the
 * events that happened (`truth`).  sm_model_truth() returns the tally;
 * tests assert that the two agree.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "config.h"
#include "drivers.h"
#include "event.h"
#include "kernel.h"
#include "pmu.h"
#include "stores.h"
#include "userpage.h"

/* ---- time ------------------------------------------------------------ */

/* update_context_time(), and the task entering or leaving its CPU. */
static void ctx_clock(struct sm_model *m, bool on)
{
	m->k.ctx_time = sm_ctx_now(m);
	m->k.task_on = on;
	m->k.ctx_stamp = sm_model_ns(m, m->k.task_cpu, m->k.now);
}

/* ---- scheduling ------------------------------------------------------ */

/* perf_pmu_enable() at the end of a scheduling section: the driver's
 * (x86_pmu_enable() starts what x86_pmu_add() collected; the others have
 * nothing left to do there). */
static void pmu_enable(struct sm_model *m)
{
	if (SM_RULES(m)->pmu_enable)
		SM_RULES(m)->pmu_enable(m);
}

/* x86_schedule_events() and friends, simplified: the counter asked for,
 * else the one used last time (the fast path; not on arm64:
 * armv8pmu_get_event_idx() has none), else the fixed counter for the
 * event, else the lowest free general counter. */
static int pick_counter(const struct sm_model *m, const struct sm_event *e,
                        int want)
{
	const struct sm_pmu_rules *r = SM_RULES(m);

	/* x86: an event constrained to one counter (counter=) goes on that
	 * one or not at all, as x86_schedule_events() allows it no other
	 * (x86_allowed()); taking another would leave a state no later
	 * schedule can keep (found by fuzz_scenario: two events constrained
	 * to one counter): the rules' constraint_only */
	if (r->constraint_only && e->cfg->counter != SM_AUTO)
		return (want < 0 || want == e->cfg->counter) &&
		       sm_counter_free(m, e->cfg->counter) &&
		       r->counter_ok(m->cfg, e->cfg, e->cfg->counter)
		       ? e->cfg->counter : -1;
	int tries[3] = { want >= 0 ? want : e->cfg->counter,
	                 r->reuse_last ? e->last_counter : -1,
	                 r->fixed_for(m->cfg, e->cfg->type) };

	for (int k = 0; k < 3; k++)
		if (tries[k] >= 0 && sm_counter_free(m, tries[k]) &&
		    r->counter_ok(m->cfg, e->cfg, tries[k]))
			return tries[k];
	for (int c = (int)r->first_gp(); c < SM_MAX_COUNTERS; c++)
		if (sm_counter_free(m, c) && r->counter_ok(m->cfg, e->cfg, c))
			return c;
	return -1;
}

/* event_sched_in() -> pmu->add(PERF_EF_START) -> start: the event becomes
 * ACTIVE first, then the counter is programmed and the page updated:
 * x86_pmu_add() only collects the event and x86_pmu_enable() starts it
 * (two writes in x86_pmu_start()); armpmu_add() and riscv_pmu_add() start
 * it and write the page once more: two writes on arm64, three on
 * riscv64. */
static bool sched_in(struct sm_model *m, int i, int want)
{
	struct sm_event *e = &m->k.ev[i];

	sm_event_sched_in_unthrottle(e);

	if (e->cfg->type == SM_EV_SOFTWARE) {
		/* perf_swevent_add(), cpu_clock_event_add() and
		 * task_clock_event_add() end with perf_event_update_userpage():
		 * a software event's page is rewritten at every sched in (seen
		 * on Linux 6.18 by selfmon hw record: one update per context
		 * switch of the task and at enable, none at disable) */
		sm_set_state(m, e, SM_ACTIVE);
		e->sw_stamp = m->k.now;
		/* task_clock_event_start(): prev_count = ctx->time;
		 * cpu_clock_event_start(): prev_count = local_clock() */
		if (sm_event_is_clock(e->cfg))
			e->prev_count = sm_sw_clock_now(m, e);
		sm_page_update(m, i);
		return true;
	}
	/* x86: x86_pmu_add() -> x86_schedule_events() over every event on
	 * the PMU, an event constrained by counter= too (x86_allowed());
	 * only a counter asked for by an action (rotate_in counter=) keeps
	 * the simplified choice.  (Placing counter= events outside the
	 * scheduler let four collected events and one placed one exceed the
	 * general counters: fuzz_scenario, x86_counter_bypass.)  The
	 * rules' schedule_add is that scheduler. */
	if (SM_RULES(m)->schedule_add && want < 0)
		return SM_RULES(m)->schedule_add(m, i);
	int c = pick_counter(m, e, want);
	if (c < 0)
		return false;
	sm_set_state(m, e, SM_ACTIVE);
	e->counter = e->last_counter = c;
	m->k.cpu[m->k.task_cpu].ctr[c].owner = i;
	if (SM_RULES(m)->added) /* arm64: the unused counters cleared */
		SM_RULES(m)->added(m, e);
	sm_pmu_start(m, i);
	if (SM_RULES(m)->add_writes_page)
		sm_page_update(m, i); /* armpmu_add(), riscv_pmu_add() */
	return true;
}

/* event_sched_out() -> pmu->del(): x86_pmu_del()/armpmu_del()/
 * riscv_pmu_del() stop with an update (PERF_HES_STOPPED) and rewrite the
 * page; the page then has index 0 and offset = count
 * (docs/kernel-variant.md §2).
 * armpmu_del() and riscv_pmu_del() clear hw.idx only after that write. */
static void sched_out(struct sm_model *m, int i)
{
	struct sm_event *e = &m->k.ev[i];

	sm_event_update(m, e);
	if (e->cfg->type != SM_EV_SOFTWARE) {
		sm_truth_sync(m, e);
		sm_counter_release(m, e->counter);
		sm_set_state(m, e, SM_INACTIVE);
		sm_page_write(m, i, true);
		e->counter = -1;
		return;
	}
	sm_set_state(m, e, SM_INACTIVE);
}

/* Which PMU an event belongs to: the CPU's PMU for hardware events (on
 * a hybrid system the PMU of its CPU type: 0 for the first type, 3 + t
 * for type t > 1); the software events are three PMUs (perf_task_clock,
 * perf_cpu_clock and perf_swevent for the others).  Since the per-PMU
 * contexts of Linux 6.2 (perf_event_pmu_context), a resched touches one
 * PMU's events only. */
#define SM_NPMUS (4 + SM_MAX_PMU_TYPES - 1)

static int pmu_of(const struct sm_event *e)
{
	if (e->cfg->type != SM_EV_SOFTWARE)
		return e->cfg->pmu > 1 ? 2 + (int)e->cfg->pmu : 0;
	if (!strcmp(e->cfg->name, "task-clock"))
		return 1;
	return !strcmp(e->cfg->name, "cpu-clock") ? 2 : 3;
}

static bool has_siblings(const struct sm_model *m, unsigned l)
{
	for (unsigned j = l + 1; j < m->k.nopen; j++)
		if (sm_leader_of(m->cfg, j) == l)
			return true;
	return false;
}

/* group_sched_out(): an active leader goes out, then each sibling
 * (event_sched_out() of one that is not active does nothing). */
static void group_sched_out(struct sm_model *m, unsigned l)
{
	if (m->k.ev[l].state != SM_ACTIVE)
		return;
	sched_out(m, (int)l);
	for (unsigned j = l + 1; j < m->k.nopen; j++)
		if (sm_leader_of(m->cfg, j) == l && m->k.ev[j].state == SM_ACTIVE)
			sched_out(m, (int)j);
}

/* group_sched_in() of a leader with siblings: the leader, then each
 * sibling in order, all or nothing.  arm64 and riscv64 have no
 * transaction of their own (perf_pmu_start_txn() only disables the
 * PMU): each member's add() programs and writes its page, and when one
 * cannot go on, the members already on are scheduled out again (the
 * siblings before it, then the leader: pmu->del() writes their pages).
 * `want` is a counter for event `who`.  x86 has a transaction
 * (x86_pmu_start_txn(): the rules' group_txn, pmu_x86.c). */
static bool group_sched_in(struct sm_model *m, unsigned l, int who, int want)
{
	if (SM_RULES(m)->group_txn) /* x86: the group as a whole */
		return SM_RULES(m)->group_txn(m, l);
	if (!sched_in(m, (int)l, (int)l == who ? want : SM_AUTO))
		return false;
	for (unsigned j = l + 1; j < m->k.nopen; j++) {
		if (sm_leader_of(m->cfg, j) != l || m->k.ev[j].state != SM_INACTIVE)
			continue;
		if (sched_in(m, (int)j, (int)j == who ? want : SM_AUTO))
			continue;
		for (unsigned k = l + 1; k < j; k++)
			if (sm_leader_of(m->cfg, k) == l &&
			    m->k.ev[k].state == SM_ACTIVE)
				sched_out(m, (int)k);
		sched_out(m, (int)l);
		return false;
	}
	return true;
}

/* group_update_userpage(): the leader's page, and the siblings' only if
 * the leader is mmapped (event_update_userpage() of the leader returns
 * false for an unmapped one, and the siblings are skipped). */
static void group_update_userpage(struct sm_model *m, unsigned l)
{
	if (!m->k.ev[l].mapped)
		return;
	sm_page_update(m, (int)l);
	for (unsigned j = l + 1; j < m->k.nopen; j++)
		if (sm_leader_of(m->cfg, j) == l)
			sm_page_update(m, (int)j);
}

/* Hybrid PMUs: visit_groups_merge() starts with `if (pmu->filter &&
 * pmu->filter(pmu, cpu)) return 0;` (x86_pmu_filter() ->
 * intel_pmu_filter(), arm64 armpmu_filter(): the CPU is not in the PMU's
 * supported_cpus), so on a CPU of another type a PMU's groups are not
 * visited at all: no merge_sched_in(), no page write, no ERROR for a
 * pinned event, no rotate_necessary, and no __link_epc(), so
 * perf_rotate_context() finds no task_epc to rotate.  The events stay
 * INACTIVE: their enabled time runs, their running time does not. */
static bool pmu_filtered(const struct sm_model *m, int pmu)
{
	unsigned type = pmu == 0 ? 1 : pmu >= 4 ? (unsigned)pmu - 2 : 0;

	return m->cfg->npmu_types && type &&
	       m->cfg->cpu_type[m->k.task_cpu] != type;
}

/* merge_sched_in() of group leader i: a group that cannot go on stays
 * INACTIVE; a pinned one's leader goes to ERROR, a flexible one asks for
 * rotation and gets its pages updated (group_update_userpage()).  After
 * the first failure no other hardware group is tried (can_add_hw = 0).
 * A lone event is a group of one: sched_in() (x86: its schedulability
 * tested at add, which the transaction's commit would do alike). */
static void try_sched_in(struct sm_model *m, int i, int want, bool *can_add)
{
	struct sm_event *e = &m->k.ev[i];
	bool group = has_siblings(m, (unsigned)i);

	if (e->state != SM_INACTIVE || pmu_filtered(m, pmu_of(e)))
		return;
	if ((*can_add || e->cfg->type == SM_EV_SOFTWARE) &&
	    (group ? group_sched_in(m, (unsigned)i, i, want)
	           : sched_in(m, i, want)))
		return;
	*can_add = false;
	if (e->cfg->pinned) {
		sm_set_state(m, e, SM_ERROR);
		return;
	}
	m->k.rotate_necessary |= 1u << pmu_of(e);
	group_update_userpage(m, (unsigned)i);
}

static bool on_pmu(const struct sm_model *m, unsigned i, int pmu)
{
	return pmu < 0 || pmu_of(&m->k.ev[i]) == pmu;
}

/* perf_event_sched_in(): pinned groups first (unless flexible_only),
 * then flexible ones in list order, of one PMU (pmu >= 0) or all.
 * `want` is a counter for `who`. */
static void sched_in_groups(struct sm_model *m, int who, int want, int pmu,
                            bool flexible_only)
{
	bool can_add = true;

	for (unsigned i = 0; i < m->k.nopen && !flexible_only; i++)
		if (m->k.ev[i].cfg->pinned && on_pmu(m, i, pmu))
			try_sched_in(m, (int)i, (int)i == who ? want : SM_AUTO, &can_add);
	can_add = true;
	for (unsigned k = 0; k < m->k.nflex; k++) {
		int i = (int)m->k.flex_order[k];
		if (on_pmu(m, (unsigned)i, pmu))
			try_sched_in(m, i, i == who ? want : SM_AUTO, &can_add);
	}
	pmu_enable(m); /* perf_pmu_enable() ends the section */
}

static void ctx_sched_in_pmu(struct sm_model *m, int who, int want, int pmu)
{
	sched_in_groups(m, who, want, pmu, false);
}

static void ctx_sched_in(struct sm_model *m, int who, int want)
{
	ctx_sched_in_pmu(m, who, want, -1);
}

/* ctx_sched_out() for flexible (or all) events of one PMU or all;
 * __pmu_ctx_sched_out() of the flexible events clears the PMU's
 * rotate_necessary (ctx_flexible_sched_in() sets it again). */
static void ctx_sched_out_pmu(struct sm_model *m, bool pinned_too, int pmu)
{
	for (unsigned i = 0; i < m->k.nopen; i++)
		if (sm_leader_of(m->cfg, i) == i && on_pmu(m, i, pmu) &&
		    (pinned_too || !m->k.ev[i].cfg->pinned))
			group_sched_out(m, i);
	m->k.rotate_necessary &= pmu < 0 ? 0u : ~(1u << pmu);
}

static void ctx_sched_out(struct sm_model *m, bool pinned_too)
{
	ctx_sched_out_pmu(m, pinned_too, -1);
}

/* ctx_event_to_rotate(): the PMU's first active flexible event (its
 * flexible_active list is in sched-in order, the list order), else its
 * first flexible event; -1 if it has none. */
static int event_to_rotate(const struct sm_model *m, int pmu)
{
	int first = -1;

	for (unsigned k = 0; k < m->k.nflex; k++) {
		unsigned i = m->k.flex_order[k];
		if (!on_pmu(m, i, pmu))
			continue;
		if (m->k.ev[i].state == SM_ACTIVE)
			return (int)k;
		if (first < 0)
			first = (int)k;
	}
	return first;
}

/* perf_rotate_context() of one PMU's context: rotation is per PMU since
 * Linux 6.2, and only a PMU whose rotate_necessary is set (an event of its
 * own failed to go on) rotates, so the software PMUs, whose add() never
 * fails, never do.  The PMU's flexible events go out, the one picked moves
 * to the end of the list (rotate_ctx()), its flexible events go back in;
 * one that still cannot go on gets its page rewritten
 * (merge_sched_in() -> group_update_userpage()), on every tick. */
static bool rotate_pmu(struct sm_model *m, int pmu)
{
	if (!(m->k.rotate_necessary & (1u << pmu)) || pmu_filtered(m, pmu))
		return false;
	int k = event_to_rotate(m, pmu);
	m->k.rotate_necessary &= ~(1u << pmu); /* cleared unconditionally */
	if (k < 0)
		return false;
	unsigned picked = m->k.flex_order[k];
	ctx_sched_out_pmu(m, false, pmu);
	memmove(&m->k.flex_order[k], &m->k.flex_order[k + 1],
	        (m->k.nflex - (unsigned)k - 1) * sizeof(m->k.flex_order[0]));
	m->k.flex_order[m->k.nflex - 1] = picked;
	sched_in_groups(m, -1, SM_AUTO, pmu, true);
	return true;
}

/* The multiplexing tick: perf_mux_hrtimer_handler() of each PMU. */
static int rotate(struct sm_model *m)
{
	int done = 0;

	if (!m->k.task_on)
		return 0;
	for (int pmu = 0; pmu < SM_NPMUS; pmu++)
		done |= rotate_pmu(m, pmu);
	return done;
}

/* perf_event_task_sched_out() ... perf_event_task_sched_in(): the task
 * leaves its CPU for `cycles` and comes back on `cpu`. */
static void switch_task(struct sm_model *m, uint64_t cycles, unsigned cpu,
                        int who, int want)
{
	ctx_sched_out(m, true);
	ctx_clock(m, false);
	m->k.now += cycles;
	m->k.task_cpu = cpu;
	ctx_clock(m, true);
	ctx_sched_in(m, who, want);
}

/* ---- actions --------------------------------------------------------- */

/* ---- frequency mode and throttling ----------------------------------- */

static unsigned fls64(uint64_t v)
{
	return v ? 64 - (unsigned)__builtin_clzll(v) : 0;
}

/* perf_calculate_period(): count * 10^9 / (nsec * sample_freq), with
 * the kernel's bit-by-bit loss of accuracy (REDUCE_FLS) until each
 * product fits in 64 bits. */
static uint64_t calculate_period(uint64_t freq, uint64_t nsec, uint64_t count)
{
	uint64_t sec = 1000000000ull, divisor, dividend;
	unsigned count_fls = fls64(count), nsec_fls = fls64(nsec);
	unsigned freq_fls = fls64(freq), sec_fls = 30;
#define REDUCE(a, b) do { if (a##_fls > b##_fls) { a >>= 1; a##_fls--; }                           else { b >>= 1; b##_fls--; } } while (0)
	while (count_fls + sec_fls > 64 && nsec_fls + freq_fls > 64) {
		REDUCE(nsec, freq);
		REDUCE(sec, count);
	}
	if (count_fls + sec_fls > 64) {
		divisor = nsec * freq;
		while (count_fls + sec_fls > 64) {
			REDUCE(count, sec);
			divisor >>= 1;
		}
		dividend = count * sec;
	} else {
		dividend = count * sec;
		while (nsec_fls + freq_fls > 64) {
			REDUCE(nsec, freq);
			dividend >>= 1;
		}
		divisor = nsec * freq;
	}
#undef REDUCE
	return divisor ? dividend / divisor : dividend;
}

/* perf_adjust_period(): the new sample_period is the old one plus an
 * eighth of the way to the computed period (rounded away from 0, at
 * least 1); if period_left is over 8 new periods it is dropped (0), and
 * with `disable` (from the interrupt) the event is stopped with an
 * update and started with a reload around it (sm_pmu_start(): its page
 * writes). */
static void adjust_period(struct sm_model *m, int i, uint64_t nsec,
                          uint64_t count, bool disable)
{
	struct sm_event *e = &m->k.ev[i];
	int64_t period = (int64_t)calculate_period(e->cfg->freq, nsec, count);
	int64_t delta = (int64_t)((uint64_t)period - e->period);

	delta = (delta >= 0 ? delta + 7 : delta - 7) / 8; /* low pass filter */
	int64_t sample_period = sm_wrap_add((int64_t)e->period, (uint64_t)delta);
	if (!sample_period)
		sample_period = 1;
	e->period = (uint64_t)sample_period;
	if (e->period_left <= (int64_t)((uint64_t)sample_period * 8))
		return;
	if (disable)
		sm_event_update(m, e);
	e->period_left = 0;
	if (disable)
		sm_pmu_start(m, i);
}

/* Throttled (x86/arm64): the PMI handler stops the counter after a
 * throttling perf_event_overflow() (intel handle_pmi_common():
 * x86_pmu_stop(event, 0); armv8pmu_handle_irq(): cpu_pmu->disable()),
 * no update, no page write: the page keeps its index and offset while
 * the counter counts nothing (hence no truth either) until the tick or a
 * sched in starts it again. */
static void throttle(struct sm_model *m, struct sm_event *e, bool on)
{
	uint64_t v = sm_counter_value(m, m->k.task_cpu, e->counter);

	sm_truth_sync(m, e);
	e->throttled = on;
	sm_counter_write(m, e->counter, v); /* frozen there, or counting on */
}

/* Can the core stop and start this event's counter (pmu->stop(),
 * pmu->start())?  Only an active hardware event on a counter. */
static bool on_counter(const struct sm_event *e)
{
	return e->state == SM_ACTIVE && e->counter >= 0 &&
	       e->cfg->type != SM_EV_SOFTWARE;
}

/* Linux 7.2 perf_event_throttle_group() (commit 9734e25fbf5a, "perf: Fix
 * the throttle logic for a group"): the core throttles the leader and
 * every sibling, each through perf_event_throttle(), which skips an event
 * that is not ACTIVE, sets hw.interrupts = MAX_INTERRUPTS and stops the
 * counter (pmu->stop(event, 0)).  The stop is the core's now, not the
 * handler's; riscv64's handler still restarts every overflowed counter
 * after it (pmu_sbi_start_overflow_mask()), so there, as in 6.12, no
 * counter stays stopped (throttle_stops). */
static void throttle_group(struct sm_model *m, unsigned i)
{
	unsigned leader = sm_leader_of(m->cfg, i);

	for (unsigned x = 0; x < m->k.nopen; x++) {
		struct sm_event *e = &m->k.ev[x];
		if (sm_leader_of(m->cfg, x) != leader || e->state != SM_ACTIVE)
			continue;
		e->interrupts = SM_MAX_INTERRUPTS;
		if (on_counter(e) && SM_RULES(m)->throttle_stops && !e->throttled)
			throttle(m, e, true);
	}
}

/* __perf_event_account_interrupt() (from perf_event_overflow() of a
 * sampling event): hw.interrupts counts the interrupts of this tick
 * (perf_throttled_seq; MAX_INTERRUPTS + 1 wraps to 0); at
 * max_samples_per_tick the event is throttled (MAX_INTERRUPTS) and
 * perf_event_overflow() returns 1.  x86 and arm64 then stop the counter
 * (throttle()).  riscv64's pmu_sbi_ovf_handler() ignores the return
 * value ("RISC-V don't have to disable interrupts to avoid throttling
 * here") and pmu_sbi_start_overflow_mask() restarts every counter, so
 * there throttling is ineffective: the event counts and interrupts on.
 * A frequency event then adjusts its period to the time since its last
 * interrupt, if that is under two ticks (perf_adjust_period(), with
 * disable). */
static void account_interrupt(struct sm_model *m, int i)
{
	struct sm_event *e = &m->k.ev[i];

	if (!sm_is_sampling(e->cfg))
		return;
	/* counted only where it can throttle (no state otherwise) */
	e->interrupts += m->cfg->max_samples != 0;
	bool throttled = m->cfg->max_samples &&
	                 e->interrupts >= m->cfg->max_samples;
	if (throttled)
		e->interrupts = SM_MAX_INTERRUPTS;
	if (e->cfg->freq) {
		uint64_t now = sm_model_ns(m, m->k.task_cpu, m->k.now);
		int64_t delta = (int64_t)(now - e->freq_time_stamp);
		e->freq_time_stamp = now;
		if (delta > 0 && delta < (int64_t)(2 * SM_TICK_NSEC))
			adjust_period(m, i, (uint64_t)delta, e->last_period, true);
	}
	if (!throttled)
		return;
	if (sm_kernel_at_least(m->cfg, 7, 2))
		throttle_group(m, i);
	else if (SM_RULES(m)->throttle_stops) /* the handler's stop */
		throttle(m, e, true);
}

/* pmu->start(event, 0): x86_pmu_start() without a reload enables the
 * counter and writes the page once; armpmu_start() and riscv_pmu_start()
 * always set the period again (sm_pmu_start()); riscv64 folds the count
 * of a counter that never stopped first (each driver's start_noreload,
 * pmu_*.c). */
static void pmu_start_noreload(struct sm_model *m, int i)
{
	SM_RULES(m)->start_noreload(m, i);
}

/* Linux 7.2 perf_adjust_freq_unthr_events(): a leader at MAX_INTERRUPTS
 * is unthrottled with its group (perf_event_unthrottle_group(event,
 * is_event_in_freq_mode(event))): each ACTIVE sibling gets hw.interrupts
 * = 0 (done for all at the tick's start, below) and pmu->start(event, 0);
 * the leader itself as in 6.12 (tick_event()), started unless it is a
 * frequency event.  1 if a counter started. */
static int unthrottle_siblings(struct sm_model *m, unsigned leader)
{
	int done = 0;

	for (unsigned x = 0; x < m->k.nopen; x++) {
		struct sm_event *e = &m->k.ev[x];
		if (x == leader || sm_leader_of(m->cfg, x) != leader ||
		    !on_counter(e))
			continue;
		/* stopped at the throttle; on x86 a start of a running counter
		 * does nothing (x86_pmu_start(): !PERF_HES_STOPPED) */
		bool stopped = e->throttled;
		if (stopped)
			throttle(m, e, false);
		if (stopped || !SM_RULES(m)->throttle_stops) {
			pmu_start_noreload(m, (int)x);
			done = 1;
		}
	}
	return done;
}

/* One event of perf_adjust_freq_unthr_events(): a throttled event is
 * unthrottled and, unless it is a frequency event, started again
 * (pmu->start(event, 0)); a frequency event is stopped with an update,
 * its period adjusted to the events counted since the last tick over
 * TICK_NSEC (if any), and started again, with a reload if it counted. */
static int tick_event(struct sm_model *m, unsigned i, bool was)
{
	struct sm_event *e = &m->k.ev[i];
	int done = 0;

	if (was && sm_kernel_at_least(m->cfg, 7, 2))
		done = unthrottle_siblings(m, i);
	if (!on_counter(e))
		return done;
	if (was && e->throttled)
		throttle(m, e, false);
	if (was && !e->cfg->freq) {
		pmu_start_noreload(m, (int)i);
		done = 1;
	}
	if (!e->cfg->freq)
		return done;
	sm_event_update(m, e); /* pmu->stop(event, PERF_EF_UPDATE) */
	uint64_t delta = e->count - e->freq_count_stamp;
	e->freq_count_stamp = e->count;
	if ((int64_t)delta > 0) {
		adjust_period(m, (int)i, SM_TICK_NSEC, delta, false);
		sm_pmu_start(m, (int)i);
	} else {
		pmu_start_noreload(m, (int)i);
	}
	return 1;
}

/* perf_event_task_tick() -> perf_adjust_freq_unthr_context(): for each
 * PMU of the context (pmu_ctx_list: in the order their first events were
 * opened), perf_adjust_freq_unthr_events() over its pinned_active list,
 * then its flexible_active list.  Those lists hold group leaders only
 * (merge_sched_in() adds the leader), in the order they went on: the
 * pinned ones in open order, the flexible ones in the rotated order
 * (flex_order).  A sibling is not visited: a throttled sibling stays
 * throttled (its counter stopped, until a sched in), a frequency sibling
 * keeps its period.  perf_throttled_seq moves on, so every event's next
 * interrupt counts from 1 (__perf_event_account_interrupt()): interrupts
 * is 0 here; whether the counter is stopped is e->throttled. */
static int tick(struct sm_model *m)
{
	int done = 0;
	bool was[SM_MAX_EVENTS];
	unsigned pmus = 0;

	if (!m->k.task_on)
		return 0;
	for (unsigned i = 0; i < m->k.nopen; i++) {
		was[i] = m->k.ev[i].interrupts == SM_MAX_INTERRUPTS;
		m->k.ev[i].interrupts = 0;
	}
	for (unsigned i = 0; i < m->k.nopen; i++) {
		int pmu = pmu_of(&m->k.ev[i]);
		if (pmus & (1u << pmu))
			continue;
		pmus |= 1u << pmu;
		for (unsigned j = 0; j < m->k.nopen; j++)
			if (m->k.ev[j].cfg->pinned && pmu_of(&m->k.ev[j]) == pmu &&
			    sm_leader_of(m->cfg, j) == j)
				done |= tick_event(m, j, was[j]);
		for (unsigned k = 0; k < m->k.nflex; k++) {
			unsigned j = m->k.flex_order[k];
			if (j < m->k.nopen && pmu_of(&m->k.ev[j]) == pmu)
				done |= tick_event(m, j, was[j]);
		}
	}
	return done;
}

/* The PMI handler (x86_pmu_handle_irq(), armv8pmu_handle_irq(),
 * pmu_sbi_ovf_handler()) for an event whose counter wrapped: update the
 * count, then reload through set_period (which updates the page).
 * pmu_sbi_ovf_handler() marks the event PERF_HES_STOPPED before, so its
 * set_period page has index 0 (and offset = count), then clears hw.state
 * without a page write, and pmu_sbi_start_overflow_mask() restarts the
 * counters:
 * - without the SBI snapshot extension pmu_sbi_start_ovf_ctrs_sbi()
 *   starts each overflowed counter at prev_count and writes its page
 *   again (perf_event_update_userpage(): the index is back);
 * - with it (pmu snapshot=yes: sbi_pmu_snapshot_available())
 *   pmu_sbi_start_ovf_ctrs_snapshot() puts prev_count in the shared
 *   memory's ctr_values[] and starts every used counter in one SBI call
 *   (SBI_PMU_START_FLAG_INIT_SNAPSHOT) with no page write: the counter
 *   counts on from -left, readable (scounteren is untouched), while the
 *   page keeps index 0 and the count at the overflow until its next
 *   write (a sched in, a reset, an IOC_PERIOD restart). */
static int disable(struct sm_model *m, int i);

static void overflow_irq(struct sm_model *m, int i)
{
	struct sm_event *e = &m->k.ev[i];
	const struct sm_pmu_rules *r = SM_RULES(m);

	sm_event_update(m, e);
	/* the handlers go on to perf_event_overflow() only when set_period
	 * says a period ended (x86 handle_pmi_common() and
	 * x86_pmu_handle_irq(), armv8pmu_handle_irq(): `continue`;
	 * pmu_sbi_ovf_handler(): `if (riscv_pmu_event_set_period())`) */
	bool ended = sm_set_period(m, i, r->irq_stopped);
	if (ended)
		account_interrupt(m, i); /* perf_event_overflow() */
	if (r->irq_restart) /* riscv64: pmu_sbi_start_overflow_mask() */
		r->irq_restart(m, i);
	/* __perf_event_overflow() of a sampling event: with an event_limit
	 * (PERF_EVENT_IOC_REFRESH), the overflow that brings it to 0 calls
	 * perf_event_disable_inatomic(); the driver stops the counter
	 * (x86_pmu_stop(), cpu_pmu->disable()) and the irq_work that follows
	 * the interrupt, before the task runs again, disables the event
	 * (perf_pending_disable() -> perf_event_disable_local() ->
	 * __perf_event_disable()): scheduled out, its page written with
	 * index 0, OFF. */
	if (ended && sm_is_sampling(e->cfg) && e->event_limit &&
	    --e->event_limit == 0)
		disable(m, i);
}

/* riscv64 pmu_sbi_ovf_handler() skips an event that is not a sampling
 * event (!is_sampling_event()): a counting event's wrap is not updated,
 * reloaded or written to the page; pmu_sbi_start_ovf_ctrs_sbi() starts
 * its counter again without a new value, so it counts on from 0. */
static bool wrap_is_silent(const struct sm_model *m, const struct sm_event *e)
{
	return SM_RULES(m)->counting_wrap_silent && !sm_is_sampling(e->cfg);
}

/* Injected overflow: the counter runs to its wrap at this instant (a
 * burst of events, counted in the truth), then the interrupt, which on
 * riscv64 does nothing for a counting event (wrap_is_silent()).  There
 * the wrap is made only from the counter's upper half, where the kernel
 * programs it (-left, riscv_pmu_event_set_period()): one wrap past that
 * still pairs with the page's offset and with prev_count.  From the
 * lower half (after such a wrap, or a reset that kept the counter) the
 * burst would be a whole 2^width of events with no kernel activity,
 * which the page cannot give and read(2), whose delta is masked to the
 * width (riscv_pmu_event_update()), loses as well: no reader can be
 * right there. */
static int overflow_now(struct sm_model *m, int i)
{
	struct sm_event *e = &m->k.ev[i];

	if (e->state != SM_ACTIVE || e->counter < 0)
		return 0;
	uint64_t mask = SM_RULES(m)->reg_mask(m->cfg, e->counter);
	uint64_t v = sm_counter_value(m, m->k.task_cpu, e->counter);
	uint64_t burst = mask - v + 1;
	bool silent = wrap_is_silent(m, e);

	if (silent && !(v & ~(mask >> 1)))
		return 0;
	sm_truth_sync(m, e);
	e->truth += burst;
	sm_counter_write(m, e->counter, 0);
	if (!silent)
		overflow_irq(m, i);
	return 1;
}

/* Kernel variant reset_prev_count (variant.c; the 2023 perf-list patch
 * "perf/x86: fixes a potential perf_event reset failure"): the reset
 * leaves prev_count as a reload (x86_perf_event_set_period()) would, the
 * counter's value sign-extended from its width, so the page's offset =
 * count - prev_count is what a sign-extending reader adds its rdpmc to.
 * The counter update shifts both values up first: counting is unchanged. */
static void reset_prev_count(struct sm_model *m, struct sm_event *e)
{
	unsigned s = 64 - m->cfg->width;

	if (!SM_KV(m, SM_KV_RESET_PREV_COUNT) || e->state != SM_ACTIVE ||
	    e->counter < 0 || e->cfg->type == SM_EV_SOFTWARE || s >= 64)
		return;
	e->prev_count = (uint64_t)((int64_t)(e->prev_count << s) >> s);
}

/* _perf_event_reset(): perf_event_read() (updates count and prev_count),
 * count = 0, perf_event_update_userpage(). */
static int reset(struct sm_model *m, int i)
{
	struct sm_event *e = &m->k.ev[i];

	sm_event_update(m, e);
	reset_prev_count(m, e);
	sm_truth_sync(m, e);
	e->count = 0;
	e->truth = 0;
	sm_page_update(m, i);
	return 1;
}

/* ctx_resched(cpuctx, task_ctx, pmu, get_event_type(event)) for event
 * i: the PMU's flexible events out, and its pinned ones too when i is
 * pinned (EVENT_PINNED brings EVENT_FLEXIBLE with it), then
 * perf_event_sched_in() of the PMU: pinned in creation order, then
 * flexible. */
static void resched(struct sm_model *m, int i)
{
	if (!m->k.task_on)
		return;
	int pmu = pmu_of(&m->k.ev[i]);
	/* get_event_type(): "if our group leader is pinned, so are we" */
	bool pinned = m->k.ev[sm_leader_of(m->cfg, (unsigned)i)].cfg->pinned;
	ctx_sched_out_pmu(m, pinned, pmu);
	ctx_sched_in_pmu(m, -1, SM_AUTO, pmu);
}

/* _perf_event_enable() -> __perf_event_enable(): OFF/ERROR -> INACTIVE,
 * then ctx_resched() for the event; a sibling whose leader is not active
 * is not put on ("don't put it on unless the group is on"). */
static int enable(struct sm_model *m, int i)
{
	struct sm_event *e = &m->k.ev[i];
	unsigned l = sm_leader_of(m->cfg, (unsigned)i);

	if (e->state >= SM_INACTIVE)
		return 0;
	sm_set_state(m, e, SM_INACTIVE);
	if (l == (unsigned)i || m->k.ev[l].state == SM_ACTIVE)
		resched(m, i);
	return 1;
}

/* __perf_event_disable(): a leader takes its whole group out
 * (group_sched_out(); the siblings stay INACTIVE), a sibling only itself
 * (__event_disable() -> event_sched_out()); then OFF.  No page update
 * after the state change. */
static int disable(struct sm_model *m, int i)
{
	struct sm_event *e = &m->k.ev[i];

	if (e->state < SM_INACTIVE)
		return 0;
	if (sm_leader_of(m->cfg, (unsigned)i) == (unsigned)i)
		group_sched_out(m, (unsigned)i);
	else if (e->state == SM_ACTIVE)
		sched_out(m, i);
	sm_set_state(m, e, SM_OFF);
	/* event_function() ends with perf_pmu_enable(): on arm64
	 * armpmu_enable() -> armv8pmu_start() -> armv8pmu_enable_user_access()
	 * while the context has user events (nr_user, the disabled one still
	 * among them), which zeroes every counter not in use, the one just
	 * freed included (the rules' disabled, pmu_arm64.c) */
	if (SM_RULES(m)->disabled)
		SM_RULES(m)->disabled(m);
	return 1;
}

/* _perf_event_period(): a counting event (!is_sampling_event(): no
 * attr.sample_period) and a value with bit 63 set are refused with EINVAL
 * before anything changes (the PMUs modelled have no check_period that
 * refuses more).  Otherwise __perf_event_period(): stop with update,
 * period_left = 0, new period, start with reload (sm_pmu_start(): left =
 * period, the page updates). */
static int period(struct sm_model *m, int i, uint64_t p)
{
	struct sm_event *e = &m->k.ev[i];

	if (e->cfg->period == 0 || (p >> 63))
		return 0;
	if (e->state == SM_ACTIVE)
		sm_event_update(m, e);
	e->period_left = 0;
	e->period = p;
	if (e->state == SM_ACTIVE && e->counter >= 0)
		sm_pmu_start(m, i);
	return 1;
}

/* _perf_event_refresh(): refused (EINVAL, nothing changes) for an event
 * that is not sampling (!is_sampling_event(): neither a period nor a
 * frequency, which shares its field; inherited events, also refused, are
 * not modelled); else event_limit += refresh and _perf_event_enable(). */
static int refresh(struct sm_model *m, int i, uint32_t n)
{
	struct sm_event *e = &m->k.ev[i];

	if (!sm_is_sampling(e->cfg) || n > INT32_MAX)
		return 0;
	e->event_limit = (int32_t)((uint32_t)e->event_limit + n);
	enable(m, i);
	return 1;
}

/* perf_mmap() -> perf_event_init_userpage() + perf_event_update_userpage(),
 * then pmu->event_mapped(): x86_pmu_event_mapped() lets this mm use rdpmc
 * (sysfs rdpmc = 1) and writes nothing; riscv_pmu_event_mapped() has
 * pmu_sbi_event_mapped() set PERF_EVENT_FLAG_USER_READ_CNT (so the first
 * page has index 0 and cap_user_rdpmc 0) and writes the page again. */
static int mmap_event(struct sm_model *m, int i)
{
	struct sm_event *e = &m->k.ev[i];

	/* a redirected event has no page of its own (see sm_model_apply());
	 * after a munmap the reader holds the old address; a new mapping
	 * would be elsewhere, which no reader is given: not modelled */
	if (e->mapped || e->redirected || e->unmapped)
		return 0;
	e->mapped = true;
	sm_page_init(&m->page[i]);
	sm_page_update(m, i);
	if (SM_RULES(m)->event_mapped) /* riscv64: pmu_sbi_event_mapped() */
		SM_RULES(m)->event_mapped(m, i);
	return 1;
}

/* munmap of the page: perf_mmap_close() runs pmu->event_unmapped() and
 * then drops the buffer (ring_buffer_attach(event, NULL)), so no later
 * perf_event_update_userpage() writes it (sm_page_write() checks `mapped`),
 * and the reader's address of it is gone: a load from it is the reader's
 * SIGSEGV (the Unicorn engine faults it, engine_unicorn.c).  Per arch:
 *   x86: x86_pmu_event_unmapped() drops mm->context.perf_rdpmc_allowed;
 *        at 0 cr4_update_pce() clears CR4.PCE on the mm's CPUs, so under
 *        sysfs rdpmc=1 a later rdpmc is #GP unless another event with
 *        user read is still mapped (sm_model_rdpmc() counts them);
 *   riscv64: pmu_sbi_event_unmapped() clears PERF_EVENT_FLAG_USER_READ_CNT
 *        and the counter's scounteren bit (the rules' event_unmapped,
 *        pmu_riscv.c);
 *   arm64: arm_pmuv3.c has no event_unmapped() in 6.12: ctx->nr_user
 *        counts the event from list_add_event() to list_del_event(), so
 *        PMUSERENR access stays (user_events_mapped() counts it).
 * A second munmap has nothing to close. */
static int munmap_event(struct sm_model *m, int i)
{
	struct sm_event *e = &m->k.ev[i];

	if (!e->mapped)
		return 0;
	e->mapped = false;
	e->unmapped = true;
	if (SM_RULES(m)->event_unmapped)
		SM_RULES(m)->event_unmapped(m, i);
	return 1;
}

/* rotate_out/rotate_in: the event's group goes off or on the PMU as a
 * unit, as rotation moves groups (rotate_ctx() moves a leader in the
 * flexible groups; group_sched_out(), merge_sched_in()).  A sibling that
 * is not active itself (OFF) is not rotated out; one whose group is on is
 * not rotated in. */
static int rotate_out(struct sm_model *m, int i)
{
	unsigned l = sm_leader_of(m->cfg, (unsigned)i);

	if (m->k.ev[i].state != SM_ACTIVE)
		return 0;
	group_sched_out(m, l);
	m->k.rotate_necessary |= 1u << pmu_of(&m->k.ev[i]);
	return 1;
}

static int rotate_in(struct sm_model *m, int i, int want)
{
	bool can_add = true;
	unsigned l = sm_leader_of(m->cfg, (unsigned)i);

	if (m->k.ev[i].state != SM_INACTIVE || m->k.ev[l].state != SM_INACTIVE ||
	    !m->k.task_on || pmu_filtered(m, pmu_of(&m->k.ev[l])))
		return 0;
	try_sched_in(m, (int)l, l == (unsigned)i ? want : SM_AUTO, &can_add);
	pmu_enable(m);
	return 1;
}

/* kernel/time/sched_clock.c update_sched_clock(): a new epoch at the
 * current timer value, continuous in ns.  sched_clock's clock_data `cd`
 * is one for the system, so every CPU's copy takes the same epoch. */
static int clock_epoch(struct sm_model *m)
{
	uint64_t cyc = sm_model_timer(m);
	uint64_t ns = sm_model_ns(m, m->k.task_cpu, m->k.now);

	/* the tally of a running software clock takes its ns up to here
	 * with the old epoch, as the event's own clock reads did */
	for (unsigned i = 0; i < m->cfg->nevents; i++)
		if (sm_event_is_clock(m->k.ev[i].cfg))
			sm_truth_sync(m, &m->k.ev[i]);
	for (unsigned k = 0; k < m->cfg->ncpus; k++) {
		m->k.cpu[k].epoch_cyc = cyc;
		m->k.cpu[k].epoch_ns = ns; /* continuous: ns(now) is unchanged */
	}
	return 1;
}

static int fail(char *err, size_t n, const char *msg, const char *what)
{
	if (err && n)
		snprintf(err, n, "%s: %s", what, msg);
	return -1;
}

int sm_model_apply(struct sm_model *m, const struct sm_action *a, char *err,
                   size_t n)
{
	int i = a->event == SM_AUTO ? 0 : a->event;
	const char *name = sm_action_name(a->kind);

	if (i < 0 || (unsigned)i >= m->k.nopen)
		return fail(err, n, "no such event", name);
	if (a->kind == SM_ACT_LOCK_EARLY) { /* acts on the stores in flight */
		if (!SM_RULES(m)->weak_order)
			return fail(err, n, "applies to arm64 and riscv64 only "
			            "(x86 stores are seen in program order)", name);
		/* variant userpage_wmb: smp_wmb() in
		 * perf_event_update_userpage() orders the closing ++lock
		 * after the field stores, so it cannot land early */
		if (SM_KV(m, SM_KV_USERPAGE_WMB))
			return 0;
		return sm_model_lock_early(m);
	}
	/* x86_pmu_commit_txn() places a group as a whole
	 * (x86_schedule_events()): no counter is asked for one member */
	if (a->counter != SM_AUTO && SM_RULES(m)->group_txn &&
	    (m->cfg->event[i].group || has_siblings(m, (unsigned)i)))
		return fail(err, n, "counter= does not apply to an event in a "
		            "group on x86_64: the group's counters are placed as a "
		            "whole", name);
	sm_model_flush(m); /* the writer finishes one update before the next */
	m->k.cause = a->kind;
	switch (a->kind) {
	case SM_ACT_MMAP:
		/* 6.12 perf_mmap() of a redirected event maps its target's
		 * buffer (event->rb is set): no page of its own */
		if (m->k.ev[i].redirected)
			return fail(err, n, "a redirected event (output=) has its "
			            "target's buffer, no page of its own", name);
		return mmap_event(m, i);
	case SM_ACT_ENABLE: return enable(m, i);
	case SM_ACT_DISABLE: return disable(m, i);
	case SM_ACT_ROTATE_OUT: return rotate_out(m, i);
	case SM_ACT_ROTATE_IN:
		if (a->counter != SM_AUTO && !sm_counter_exists(m->cfg, a->counter))
			return fail(err, n, "no such counter", name);
		return rotate_in(m, i, a->counter);
	case SM_ACT_ROTATE: return rotate(m);
	case SM_ACT_OVERFLOW: return overflow_now(m, i);
	case SM_ACT_RESET: return reset(m, i);
	case SM_ACT_PERIOD:
		if (a->period == 0)
			return fail(err, n, "period must be at least 1", name);
		/* _perf_event_period() of a frequency event sets sample_freq:
		 * not modelled */
		if (m->k.ev[i].cfg->freq)
			return fail(err, n, "not modelled on a frequency event "
			            "(it sets sample_freq)", name);
		return period(m, i, a->period);
	case SM_ACT_REFRESH: return refresh(m, i, a->refresh);
	case SM_ACT_MUNMAP: return munmap_event(m, i);
	case SM_ACT_READ:
		/* read(2) of an event in error state is end of file: nothing
		 * read (readfmt.c says the same for sm_model_read()) */
		if (m->k.ev[i].state == SM_ERROR)
			return 0;
		sm_kernel_read(m, i);
		return 1;
	case SM_ACT_STALL:
		sm_model_advance(m, a->cycles);
		return 1;
	case SM_ACT_PREEMPT:
		if (!m->k.task_on)
			return 0;
		switch_task(m, a->cycles, m->k.task_cpu, i, a->counter);
		return 1;
	case SM_ACT_MIGRATE: {
		unsigned cpu = a->cpu == SM_AUTO ? (m->k.task_cpu + 1) % m->cfg->ncpus
		                                 : (unsigned)a->cpu;
		if (cpu >= m->cfg->ncpus)
			return fail(err, n, "no such cpu", name);
		if (!m->k.task_on)
			return 0;
		switch_task(m, a->cycles, cpu, i, a->counter);
		return 1;
	}
	case SM_ACT_CLOCK_EPOCH:
		if (!SM_RULES(m)->timer_sched_clock) /* x86: the TSC's cyc2ns */
			return fail(err, n, "applies to arm64 and riscv64 only", name);
		if (a->cpu != SM_AUTO)
			return fail(err, n, "takes no cpu: sched_clock is one clock "
			            "for all CPUs", name);
		return clock_epoch(m);
	case SM_ACT_TICK: return tick(m);
	case SM_ACT_LOCK_EARLY: /* above */
	case SM_NACTIONS: break;
	}
	return fail(err, n, "unknown action", name);
}

/* ---- time passing ---------------------------------------------------- */

/* Cycles until the counter of event i wraps (UINT64_MAX: never).  The
 * wrap instant follows from the last write of the register, so a wrap
 * due at this very cycle (two counters wrapping together) is not lost. */
static uint64_t cycles_to_wrap(const struct sm_model *m, int i)
{
	const struct sm_event *e = &m->k.ev[i];
	const struct sm_counter *r = &m->k.cpu[m->k.task_cpu].ctr[e->counter];
	uint64_t mask = SM_RULES(m)->reg_mask(m->cfg, e->counter);
	uint64_t dist = mask - (r->base & mask);

	if (dist == ~0ull)
		return ~0ull;
	uint64_t wrap_at = r->base_time + (dist / e->cfg->rate) + 1;
	return wrap_at - m->k.now;
}

/* The next natural kernel activity: a counter wrap (PMI) or a
 * multiplexing tick (perf_mux_hrtimer_handler()). */
static uint64_t next_activity(const struct sm_model *m, int *who)
{
	uint64_t best = ~0ull;

	*who = -1;
	if (!m->k.task_on)
		return best;
	for (unsigned i = 0; i < m->k.nopen; i++) {
		const struct sm_event *e = &m->k.ev[i];
		if (e->state != SM_ACTIVE || e->counter < 0 || wrap_is_silent(m, e) ||
		    e->throttled)
			continue;
		uint64_t d = cycles_to_wrap(m, (int)i);
		if (d < best) {
			best = d;
			*who = (int)i;
		}
	}
	if (m->k.next_rotate && m->k.next_rotate - m->k.now < best) {
		best = m->k.next_rotate - m->k.now;
		*who = -2;
	}
	return best;
}

/* Absolute cycle of the next natural activity (~0: none). */
uint64_t sm_model_next_activity(const struct sm_model *m)
{
	int who;
	uint64_t d = next_activity(m, &who);

	return who == -1 || d > ~0ull - m->k.now ? ~0ull : m->k.now + d;
}

/* The remote writer lands one pending store per cycle as time passes; a
 * new update first completes the one in flight. */
void sm_model_advance(struct sm_model *m, uint64_t cycles)
{
	uint64_t target = m->k.now + cycles;

	for (uint64_t k = 0; k < cycles && sm_model_pending(m); k++)
		if (m->k.now + k >= m->sb.frozen_until) /* lock_early holds them */
			sm_store_land(m);
	for (;;) {
		int who;
		uint64_t d = next_activity(m, &who);
		if (who == -1 || d > target - m->k.now)
			break;
		if (m->k.activity >= m->env.activity_cap) { /* see model.h */
			m->k.capped = true;
			break;
		}
		m->k.activity++;
		sm_model_flush(m);
		m->k.now += d;
		if (who == -2) {
			m->k.next_rotate += m->cfg->mux_interval;
			m->k.cause = SM_ACT_ROTATE;
			rotate(m);
		} else {
			m->k.cause = SM_ACT_OVERFLOW;
			overflow_irq(m, who);
		}
		sm_model_flush(m);
	}
	m->k.now = target;
}

/* ---- reads ----------------------------------------------------------- */

void sm_model_truth(const struct sm_model *m, int i, struct sm_truth *t)
{
	sm_model_truth_span(m, i, m->k.now, 1, t);
}

/* The count is the independent tally; enabled and running are
 * __perf_update_times() at ctx time perf_event_time_now() (sm_ctx_now(),
 * sm_event_times()), written out here with the state's parts hoisted out
 * of the loop over instants. */
void sm_model_truth_span(const struct sm_model *m, int i, uint64_t from,
                         unsigned n, struct sm_truth *out)
{
	/* copies, so that the stores to out[] cannot alias what they read */
	const struct sm_event e = m->k.ev[i];
	const struct sm_cpu c = m->k.cpu[m->k.task_cpu];
	const uint64_t ctx_time = m->k.ctx_time, ctx_stamp = m->k.ctx_stamp;
	const enum sm_state st = sm_effective_state(m, (unsigned)i);
	const bool active = st == SM_ACTIVE, on = st >= SM_INACTIVE;
	const bool tsc = !SM_RULES(m)->timer_sched_clock, task_on = m->k.task_on;
	const uint64_t rate = e.cfg->rate;
	const bool clock = sm_event_is_clock(e.cfg); /* ns: sm_truth_sync() */
	const uint64_t stamp_ns = clock ? sm_ns_of(m, &c, e.truth_stamp) : 0;

	for (unsigned k = 0; k < n; k++) {
		uint64_t t = from + k, ctx = ctx_time, r = 0;
		if (task_on) { /* the page's rounding, where time advances */
			uint64_t ns = sm_ns_of(m, &c, t);
			ctx += ns - ctx_stamp;
			if (!tsc) /* x86: the page's conversion is sched_clock's */
				r = sm_page_ns_of(m, &c, t) - ns;
		}
		uint64_t d = ctx - e.tstamp;
		uint64_t enabled = e.total_enabled + (on ? d : 0);
		uint64_t running = e.total_running + (active ? d : 0);
		uint64_t ran = !active || e.throttled ? 0
		               : clock ? sm_ns_of(m, &c, t) - stamp_ns
		                       : rate * (t - e.truth_stamp);
		out[k] = (struct sm_truth){
			.count = e.truth + ran,
			.enabled = enabled, .running = running,
			.enabled_pub = enabled + (on ? r : 0),
			.running_pub = running + (active ? r : 0),
		};
	}
}

/* perf_event_read(): an active event's count is updated from its counter
 * (the page is NOT updated), and its times are brought up to now
 * (perf_event_update_time()). */
static void read_event(struct sm_model *m, struct sm_event *e)
{
	sm_event_update(m, e);
	sm_update_times(m, e);
}

/* __perf_read()'s perf_event_read() part: with PERF_FORMAT_GROUP the
 * leader and each sibling (perf_read_group(): perf_event_read(leader,
 * true)), else the event (perf_read_one()); readfmt.c lays them out. */
void sm_kernel_read(struct sm_model *m, int i)
{
	if (!(sm_event_read_format(&m->cfg->event[i]) & SM_RF_GROUP)) {
		read_event(m, &m->k.ev[i]);
		return;
	}
	unsigned l = sm_leader_of(m->cfg, (unsigned)i);
	for (unsigned j = 0; j < m->k.nopen; j++)
		if (sm_leader_of(m->cfg, j) == l)
			read_event(m, &m->k.ev[j]);
}

/* ---- construction ---------------------------------------------------- */

static void init_event(struct sm_model *m, int i)
{
	struct sm_event *e = &m->k.ev[i];

	e->cfg = &m->cfg->event[i];
	e->state = e->cfg->enabled ? SM_INACTIVE : SM_OFF;
	e->counter = e->last_counter = -1;
	e->period = e->cfg->period ? e->cfg->period
	                          : SM_RULES(m)->count_period(m->cfg, e);
	/* perf_event_alloc(): a frequency event starts with sample_period 1
	 * (hw.last_period too); the interrupts and ticks adjust it */
	if (e->cfg->freq)
		e->period = e->last_period = 1;
	e->period_left = (int64_t)(e->cfg->left ? e->cfg->left : e->period);
	e->truth_stamp = e->sw_stamp = m->k.now;
	/* the flexible groups hold leaders (perf_event_groups_insert() of a
	 * sibling never happens: perf_group_attach() links it to its
	 * leader) */
	if (!e->cfg->pinned && sm_leader_of(m->cfg, (unsigned)i) == (unsigned)i)
		m->k.flex_order[m->k.nflex++] = (unsigned)i;
}
/* The kernel as a model is built (sm_model_new(), state.c): the task on
 * its CPU at the start, then the events opened one by one on the running
 * task, in order, each mmapped (if it is at the start) before the next is
 * opened, as `hw record` and most programs do: perf_event_open() ->
 * perf_install_in_context() -> __perf_install_in_context():
 * add_event_to_ctx(), then ctx_resched() for the new event, so that the
 * events already open on its PMU are scheduled out and in again and their
 * pages rewritten (on arm64 three writes each: armpmu_del(),
 * armpmu_start(), armpmu_add(); seen by `selfmon vm arm64 record`).  An
 * event that will not run (__perf_effective_state() OFF: disabled, or
 * the sibling of a disabled leader) is only added, without the IPI and so
 * without ctx_resched(), unless it is the context's first event
 * (perf_install_in_context(): "can be initialized without IPI", with
 * ctx->nr_events): the pages of the events before it are not written.
 * While event i is opened the events after it do not exist yet: k.nopen
 * is i + 1. */
int sm_kernel_build(struct sm_model *m, char *err, size_t n)
{
	const struct sm_config *cfg = m->cfg;

	if (sm_config_check(cfg, err, n) < 0)
		return -1;
	m->pmu = sm_pmu_of(cfg->arch);
	m->k.now = cfg->start;
	for (unsigned c = 0; c < SM_MAX_CPUS; c++) {
		sm_clock_derive(cfg->arch, &cfg->cpu[c], &m->k.cpu[c]);
		/* sched_clock's epoch is never more than a wrap old: an epoch
		 * left at 0 means "at the start". */
		if (m->pmu->timer_sched_clock && m->k.cpu[c].epoch_cyc == 0)
			m->k.cpu[c].epoch_cyc = sm_model_timer(m);
		for (int k = 0; k < SM_MAX_COUNTERS; k++)
			m->k.cpu[c].ctr[k].owner = -1;
	}
	m->k.task_cpu = cfg->task_cpu;
	if (cfg->mux_interval)
		m->k.next_rotate = m->k.now + cfg->mux_interval;
	ctx_clock(m, true);
	for (unsigned i = 0; i < cfg->nevents; i++) {
		m->k.nopen = i + 1;
		init_event(m, (int)i);
		m->k.cause = SM_ACT_ENABLE;
		if (i == 0 || sm_effective_state(m, i) != SM_OFF)
			resched(m, (int)i);
		/* PERF_EVENT_IOC_SET_OUTPUT right after the open: no page
		 * write (perf_event_set_output() -> ring_buffer_attach()) */
		m->k.ev[i].redirected = cfg->event[i].output != 0;
		if (cfg->event[i].mmap) {
			m->k.cause = SM_ACT_MMAP;
			mmap_event(m, (int)i);
		}
	}
	sm_model_flush(m);
	return 0;
}


const struct perf_event_mmap_page *sm_model_page(const struct sm_model *m,
                                                 int i)
{
	return &m->page[i].pc;
}
