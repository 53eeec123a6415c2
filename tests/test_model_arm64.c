/*
 * test_model_arm64.c — the arm64 rules of docs/kernel-variant.md §2 against values
 * worked out by hand: PMCCNTR as index 32, 32-bit events with the upper
 * 32 bits biased in 64-bit counters, max_period >> 1 limits, the masked
 * delta, perf_user_access, and the architected timer with time_cycles and
 * time_mask.  The default timer is 1 GHz: mult 2^21, shift 21, so one
 * cycle is exactly one ns.
 *
 * The timer's width, by hand from drivers/clocksource/arm_arch_timer.c
 * arch_counter_get_width(): the bit length of (40 years of counts - 1),
 * at least 56.  40 years = 40 * 365 * 86400 s = 1261440000 s.
 *   1 GHz:     1261440000000000000 counts; 2^60 = 1152921504606846976 is
 *              below it, 2^61 = 2305843009213693952 above: 61 bits.
 *   62.5 MHz:  78840000000000000; 2^56 = 72057594037927936 below,
 *              2^57 above: 57 bits (QEMU's virt timer; the page's
 *              time_mask 2^57 - 1 in traces/hw/arm64-linux6.12-qemu7.2).
 *   50 MHz:    63072000000000000; 2^55 = 36028797018963968 below,
 *              2^56 above: 56 bits.
 *   24 MHz:    30274560000000000; 2^54 below, 2^55 above: 55, so 56.
 */
#include <stdio.h>

#include "testutil.h"
#include "state.h" /* the model's own tests read its state */
#include "scenario.h"

#define W_1GHZ 61 /* the default timer's width, worked out above */

static struct sm_model *m;

static struct sm_config arm_cfg(void)
{
	struct sm_config c;
	sm_config_default(&c, SM_ARM64);
	return c;
}

static uint64_t reg(unsigned counter)
{
	uint64_t v = 0;
	assert_int_equal(sm_model_arm64_counter(m, counter, &v), SM_OK);
	return v;
}

/* cycles on PMCCNTR (64-bit) as a 32-bit event: biased. */
static void test_cycle_counter_page(void **state)
{
	struct sm_config c = arm_cfg();
	(void)state;
	c.start = 5000;
	add_event(&c, "cycles", SM_EV_CYCLES, SM_AUTO, false);
	init_model(&m, &c);
	const struct perf_event_mmap_page *pc = sm_model_page(m, 0);

	assert_int_equal(pc->index, 32);
	assert_int_equal(pc->pmc_width, 32);
	assert_int_equal(pc->capabilities, 0x3e); /* rdpmc, time, zero, short */
	/* period = max_period >> 1 = 2^31 - 1; prev_count = -(2^31 - 1) */
	assert_int_equal(pc->offset, 0x7fffffff);
	assert_int_equal(reg(31), 0xffffffff80000001ull);
	assert_int_equal(pc->time_mult, 1u << 21);
	assert_int_equal(pc->time_shift, 21);
	assert_int_equal(pc->time_cycles, 5000); /* epoch at the start */
	assert_int_equal(pc->time_mask, (1ull << W_1GHZ) - 1);
	/* time_zero = epoch_ns - mul(epoch_cyc) = 0 - 5000 */
	assert_int_equal(pc->time_zero, (uint64_t)0 - 5000);
	assert_int_equal(pc->time_offset, pc->time_zero - 0);

	sm_model_advance(m, 100);
	uint64_t raw = reg(31);
	assert_int_equal((uint64_t)pc->offset + sext(raw, 32), 100);
	/* the biased 64-bit value happens to work unextended ... */
	assert_int_equal((uint64_t)pc->offset + raw, 100);
	/* ... but the low 32 bits alone are off by 2^32 */
	assert_int_equal((uint64_t)pc->offset + zext(raw, 32), 100 + (1ull << 32));
	/* time: cyc = time_cycles + ((cnt - time_cycles) & time_mask) */
	uint64_t cnt = sm_model_timer(m);
	uint64_t cyc = pc->time_cycles + ((cnt - pc->time_cycles) & pc->time_mask);
	uint64_t delta = pc->time_offset + mulshr(cyc, pc->time_mult, pc->time_shift);
	assert_int_equal(pc->time_enabled + delta, 100);
}

/* An event counter on a 32-bit PMU: left = 100, wraps at 2^32. */
static void test_32bit_overflow(void **state)
{
	struct sm_config c = arm_cfg();
	struct sm_truth t;
	(void)state;
	int e = add_event(&c, "l1d", SM_EV_OTHER, 2, false);
	c.event[e].left = 100;
	init_model(&m, &c);
	const struct perf_event_mmap_page *pc = sm_model_page(m, 0);

	assert_int_equal(pc->index, 3);
	assert_int_equal(reg(2), 0x100000000ull - 100);
	assert_int_equal(pc->offset, 100);
	sm_model_advance(m, 150);
	assert_int_equal(pc->lock, 4);
	assert_int_equal(pc->offset, 100 + 0x7fffffffll);
	uint64_t raw = reg(2);
	assert_int_equal(raw, 0x80000001ull + 50);
	sm_model_truth(m, 0, &t);
	assert_int_equal(t.count, 150);
	assert_int_equal((uint64_t)pc->offset + sext(raw, 32), 150);
	assert_int_equal((uint64_t)pc->offset + raw, 150 + (1ull << 32));
}

/* PMUv3p5 long counters: a 32-bit event is biased; the 64-bit register
 * overflows when its low 32 bits wrap. */
static void test_bias_long_counters(void **state)
{
	struct sm_config c = arm_cfg();
	struct sm_truth t;
	(void)state;
	c.long_counters = true;
	int e = add_event(&c, "l1d", SM_EV_OTHER, 0, false);
	c.event[e].left = 100;
	init_model(&m, &c);
	assert_int_equal(reg(0), 0xffffffffffffff9cull);
	sm_model_advance(m, 130);
	assert_int_equal(reg(0), 0xffffffff80000001ull + 30);
	sm_model_truth(m, 0, &t);
	assert_int_equal(t.count, 130);
	const struct perf_event_mmap_page *pc = sm_model_page(m, 0);
	assert_int_equal((uint64_t)pc->offset + sext(reg(0), 32), 130);
}

/* IOC_RESET: prev_count is the unbiased (zero-extended) 32-bit value. */
static void test_reset_quirk(void **state)
{
	struct sm_config c = arm_cfg();
	(void)state;
	add_event(&c, "cycles", SM_EV_CYCLES, SM_AUTO, false);
	init_model(&m, &c);
	sm_model_advance(m, 100);
	assert_int_equal(act(m, SM_ACT_RESET, 0), 1);
	const struct perf_event_mmap_page *pc = sm_model_page(m, 0);
	assert_int_equal(pc->offset, -(int64_t)(0x80000001ull + 100));
	sm_model_advance(m, 20);
	uint64_t raw = reg(31);
	assert_int_equal((uint64_t)pc->offset + zext(raw, 32), 20);
	assert_int_equal((uint64_t)pc->offset + sext(raw, 32), 20 - (1ull << 32));
}

/* A 64-bit event: pmc_width 64, left = 2^63 - 1. */
static void test_long_event(void **state)
{
	struct sm_config c = arm_cfg();
	(void)state;
	int e = add_event(&c, "cycles", SM_EV_CYCLES, SM_AUTO, false);
	c.event[e].long64 = true;
	init_model(&m, &c);
	const struct perf_event_mmap_page *pc = sm_model_page(m, 0);
	assert_int_equal(pc->pmc_width, 64);
	assert_int_equal(pc->offset, INT64_MAX);
	assert_int_equal(reg(31), (1ull << 63) + 1);
	sm_model_advance(m, 10);
	assert_int_equal((uint64_t)pc->offset + reg(31), 10);
}

/* perf_user_access = 0, or an event without config1 bit 1: index 0, no
 * cap_user_rdpmc, pmc_width not written, counter reads are UNDEFINED. */
static void test_no_user_access(void **state)
{
	struct sm_config c = arm_cfg();
	uint64_t v;
	(void)state;
	c.user_access = 0;
	add_event(&c, "cycles", SM_EV_CYCLES, SM_AUTO, false);
	init_model(&m, &c);
	/* armv8pmu_user_event_idx() is 0 without the sysctl, but
	 * PERF_EVENT_FLAG_USER_READ_CNT comes from config1 bit 1 alone
	 * (__armv8_pmuv3_map_event()), and arch_perf_update_userpage() sets
	 * cap_user_rdpmc and pmc_width from it: 0x3e, 32 */
	assert_int_equal(sm_model_page(m, 0)->index, 0);
	assert_int_equal(sm_model_page(m, 0)->capabilities, 0x3e);
	assert_int_equal(sm_model_page(m, 0)->pmc_width, 32);
	assert_int_equal(sm_model_arm64_counter(m, 31, &v), SM_FAULT_ILL);

	c.user_access = 1;
	c.event[0].user = false; /* no config1 bit 1: no flag, no width */
	init_model(&m, &c);
	assert_int_equal(sm_model_page(m, 0)->index, 0);
	assert_int_equal(sm_model_page(m, 0)->capabilities, 0x3a);
	assert_int_equal(sm_model_page(m, 0)->pmc_width, 0);
	assert_int_equal(sm_model_arm64_counter(m, 31, &v), SM_FAULT_ILL);

	c.event[0].user = true;
	init_model(&m, &c);
	assert_int_equal(sm_model_arm64_counter(m, 31, &v), SM_OK);
	assert_int_equal(sm_model_arm64_counter(m, 0, &v), SM_OK);
	assert_int_equal(v, 0); /* unused counters are cleared */
	assert_int_equal(sm_model_arm64_counter(m, 6, &v), SM_FAULT_ILL);
}

/* The 61-bit timer of 1 GHz wraps during the run; the reader's masked
 * formula still gives the truth, one that ignores time_mask is off by
 * 2^61 ns. */
static void test_timer_wrap_time_mask(void **state)
{
	struct sm_config c = arm_cfg();
	struct sm_truth t;
	const uint64_t wrap = 1ull << W_1GHZ;
	(void)state;
	c.start = wrap - 1000;
	add_event(&c, "cycles", SM_EV_CYCLES, SM_AUTO, false);
	init_model(&m, &c);
	const struct perf_event_mmap_page *pc = sm_model_page(m, 0);
	assert_int_equal(pc->time_cycles, wrap - 1000);
	assert_int_equal(pc->time_mask, wrap - 1);
	sm_model_advance(m, 1500);
	uint64_t cnt = sm_model_timer(m);
	assert_int_equal(cnt, 500);
	sm_model_truth(m, 0, &t);
	assert_int_equal(t.enabled, 1500);
	uint64_t cyc = pc->time_cycles + ((cnt - pc->time_cycles) & pc->time_mask);
	assert_int_equal(pc->time_enabled + pc->time_offset +
	                 mulshr(cyc, pc->time_mult, pc->time_shift), 1500);
	assert_int_equal(pc->time_enabled + pc->time_offset +
	                 mulshr(cnt, pc->time_mult, pc->time_shift),
	                 1500 - wrap);
}

/* The page's time_mask follows the timer's rate as
 * arch_counter_get_width() makes it (the widths worked out at the top),
 * for a scenario that gives only hz; a width= the kernel cannot have at
 * that rate is refused, and a config with one cannot be built. */
static void test_timer_width_from_rate(void **state)
{
	static const struct { const char *hz; unsigned bits; } rates[] = {
		{ "1000000000", 61 }, { "62500000", 57 }, { "50000000", 56 },
		{ "24000000", 56 },
	};
	struct sm_scenario s;
	char text[128], err[256];
	(void)state;
	for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
		snprintf(text, sizeof(text), "arch arm64\nclock hz=%s\n"
		         "event cycles\n", rates[i].hz);
		assert_int_equal(sm_scenario_parse("t.scn", text, &s, err,
		                                   sizeof(err)), 0);
		init_model(&m, &s.cfg);
		assert_int_equal(sm_model_page(m, 0)->time_mask,
		                 (1ull << rates[i].bits) - 1);
		/* width= the same as the rate's is accepted, another refused */
		snprintf(text, sizeof(text), "arch arm64\nclock hz=%s width=%u\n",
		         rates[i].hz, rates[i].bits);
		assert_int_equal(sm_scenario_parse("t.scn", text, &s, err,
		                                   sizeof(err)), 0);
		snprintf(text, sizeof(text), "arch arm64\nclock hz=%s width=%u\n",
		         rates[i].hz, rates[i].bits + 1);
		assert_int_equal(sm_scenario_parse("t.scn", text, &s, err,
		                                   sizeof(err)), -1);
	}
	/* the default config: 1 GHz; 56 bits there is not the kernel's */
	struct sm_config c = arm_cfg();
	assert_int_equal(c.timer_width, W_1GHZ);
	add_event(&c, "cycles", SM_EV_CYCLES, SM_AUTO, false);
	c.timer_width = 56;
	assert_int_equal(model_init(&m, &c, NULL, NULL, err, sizeof(err)), -1);
}

/* update_sched_clock() moves the epoch without a page update; the old
 * page still converts correctly. */
static void test_clock_epoch(void **state)
{
	struct sm_config c = arm_cfg();
	struct sm_action a = { .kind = SM_ACT_CLOCK_EPOCH, .event = SM_AUTO,
	                       .cpu = SM_AUTO, .counter = SM_AUTO };
	char err[64];
	struct sm_truth t;
	(void)state;
	add_event(&c, "cycles", SM_EV_CYCLES, SM_AUTO, false);
	init_model(&m, &c);
	sm_model_advance(m, 300);
	uint32_t lock = sm_model_page(m, 0)->lock;
	assert_int_equal(sm_model_apply(m, &a, err, sizeof(err)), 1);
	assert_int_equal(m->k.cpu[0].epoch_cyc, 300);
	assert_int_equal(m->k.cpu[0].epoch_ns, 300);
	assert_int_equal(sm_model_page(m, 0)->lock, lock);
	sm_model_advance(m, 200);
	sm_model_truth(m, 0, &t);
	assert_int_equal(t.enabled, 500);
	a.kind = SM_ACT_CLOCK_EPOCH;
	a.cpu = 5;
	assert_int_equal(sm_model_apply(m, &a, err, sizeof(err)), -1);
}

/* kernel/time/sched_clock.c has one clock_data (`cd`) for the system:
 * after update_sched_clock() at timer 300 (epoch_cyc 300, epoch_ns 300 at
 * 1 GHz, mult 2^21 shift 21) a migration to CPU 1 (1000 cycles off CPU)
 * finds the same epoch, so the page written at sched in there has
 * time_cycles = 300, time_zero = 300 - mul(300) = 0 and time_offset =
 * time_zero - now_ns = 0 - 1300.  A config with per-CPU clocks cannot
 * exist and is refused. */
static void test_clock_is_global(void **state)
{
	struct sm_config c = arm_cfg();
	struct sm_action a = { .kind = SM_ACT_CLOCK_EPOCH, .event = SM_AUTO,
	                       .cpu = SM_AUTO, .counter = SM_AUTO };
	char err[128];
	(void)state;
	add_event(&c, "cycles", SM_EV_CYCLES, SM_AUTO, false);
	init_model(&m, &c);
	sm_model_advance(m, 300);
	assert_int_equal(sm_model_apply(m, &a, err, sizeof(err)), 1);
	a.kind = SM_ACT_MIGRATE;
	a.cpu = 1;
	a.cycles = 1000;
	assert_int_equal(sm_model_apply(m, &a, err, sizeof(err)), 1);
	const struct perf_event_mmap_page *pc = sm_model_page(m, 0);
	assert_int_equal(m->k.task_cpu, 1);
	assert_int_equal(pc->time_cycles, 300);
	assert_int_equal(pc->time_zero, 0);
	assert_int_equal(pc->time_offset, (uint64_t)0 - 1300);
	/* clock_epoch names no CPU */
	a.kind = SM_ACT_CLOCK_EPOCH;
	assert_int_equal(sm_model_apply(m, &a, err, sizeof(err)), -1);
	/* per-CPU clocks do not exist here */
	c.cpu[1].hz = 25000000;
	assert_int_equal(model_init(&m, &c, NULL, NULL, err, sizeof(err)), -1);
	c.cpu[1].hz = c.cpu[0].hz;
	c.cpu[1].epoch_ns = 5;
	assert_int_equal(model_init(&m, &c, NULL, NULL, err, sizeof(err)), -1);
}

/* armpmu_add() -> armpmu_start(): hw.state = 0, then
 * armpmu_event_set_period() writes the page (index already 3), and
 * armpmu_add() writes it again: after 100 events, out and back in on
 * counter 2, both pages have index 3 and offset = 100 - (u64)-(2^31 - 1
 * - 100) = 2^31 - 1; locks 6 and 8 (mmap 2, sched out 4).
 * PERF_EVENT_IOC_PERIOD on a sampling event is armpmu_stop() and
 * armpmu_start(): one write (lock 2 -> 4). */
static void test_sched_in_writes_twice(void **state)
{
	struct sm_config c = arm_cfg();
	struct page_log log = { 0 };
	struct sm_action a = { .kind = SM_ACT_PERIOD, .event = 0,
	                       .cpu = SM_AUTO, .counter = SM_AUTO, .period = 500 };
	char err[64];
	(void)state;
	add_event(&c, "l1d", SM_EV_OTHER, 2, false);
	init_model(&m, &c);
	sm_model_advance(m, 100);
	assert_int_equal(act(m, SM_ACT_ROTATE_OUT, 0), 1);
	sm_model_observe(m, page_log_note, &log);
	assert_int_equal(act(m, SM_ACT_ROTATE_IN, 0), 1);
	assert_int_equal(log.n, 2);
	for (unsigned k = 0; k < 2; k++) {
		assert_int_equal(log.pg[k].lock, 6 + 2 * k);
		assert_int_equal(log.pg[k].index, 3);
		assert_int_equal(log.pg[k].offset, 0x7fffffff);
		assert_int_equal(log.pg[k].capabilities, 0x3e);
	}
	c.event[0].period = 1000;
	init_model(&m, &c);
	assert_int_equal(sm_model_apply(m, &a, err, sizeof(err)), 1);
	assert_int_equal(sm_model_page(m, 0)->lock, 4);
	assert_int_equal(sm_model_page(m, 0)->offset, 500);
}

/* Opening an event reschedules its PMU (perf_event_open() ->
 * __perf_install_in_context() -> ctx_resched()): the events already
 * open and mapped there are taken out (armpmu_del(): one write, index 0)
 * and put back (armpmu_add() -> armpmu_start() ->
 * armpmu_event_set_period(): one write; armpmu_add(): one more).  cycles
 * (PMCCNTR, index 32), then instructions (counter 0, index 1) and
 * task-clock (a software PMU, so no resched of the hardware ones): mmap
 * 2, instructions' open +6, so cycles' lock is 8, instructions' and
 * task-clock's 2.  Seen so on Linux 6.12 by `selfmon vm arm64 record`
 * (traces/hw/arm64-*.trace). */
static void test_open_reschedules(void **state)
{
	struct sm_config c = arm_cfg();
	struct page_log log = { 0 };
	char err[64];
	(void)state;
	add_event(&c, "cycles", SM_EV_CYCLES, SM_AUTO, false);
	add_event(&c, "instructions", SM_EV_INSTRUCTIONS, SM_AUTO, false);
	add_event(&c, "task-clock", SM_EV_SOFTWARE, SM_AUTO, false);
	assert_int_equal(model_init(&m, &c, page_log_note, &log, err,
	                               sizeof(err)), 0);
	assert_int_equal(sm_model_page(m, 0)->lock, 8);
	assert_int_equal(sm_model_page(m, 0)->index, 32);
	assert_int_equal(sm_model_page(m, 1)->lock, 2);
	assert_int_equal(sm_model_page(m, 1)->index, 1);
	assert_int_equal(sm_model_page(m, 2)->lock, 2);
	/* in order: cycles' mmap, its three writes at instructions' open
	 * (out with index 0, in with 32 twice), instructions' mmap, then
	 * task-clock's */
	static const int ev[] = { 0, 0, 0, 0, 1, 2 };
	static const unsigned idx[] = { 32, 0, 32, 32, 1, 0 };
	assert_int_equal(log.n, 6);
	for (unsigned k = 0; k < 6; k++) {
		assert_int_equal(log.ev[k], ev[k]);
		assert_int_equal(log.pg[k].index, idx[k]);
	}
}

/* armv8pmu_get_single_idx() takes the lowest free counter at every add,
 * with no preference for the one the event had before: a on counter 0
 * (index 1), b on 1 (index 2); both disabled, b enabled again goes on
 * counter 0 (index 1).  Enabling a then reschedules the flexible events
 * in list order (ctx_resched()): a on 0 again, b on 1. */
static void test_lowest_free_counter(void **state)
{
	struct sm_config c = arm_cfg();
	(void)state;
	add_event(&c, "a", SM_EV_OTHER, SM_AUTO, false);
	add_event(&c, "b", SM_EV_OTHER, SM_AUTO, false);
	init_model(&m, &c);
	assert_int_equal(sm_model_page(m, 0)->index, 1);
	assert_int_equal(sm_model_page(m, 1)->index, 2);
	assert_int_equal(act(m, SM_ACT_DISABLE, 0), 1);
	assert_int_equal(act(m, SM_ACT_DISABLE, 1), 1);
	assert_int_equal(act(m, SM_ACT_ENABLE, 1), 1);
	assert_int_equal(sm_model_page(m, 1)->index, 1);
	assert_int_equal(act(m, SM_ACT_ENABLE, 0), 1);
	assert_int_equal(sm_model_page(m, 0)->index, 1);
	assert_int_equal(sm_model_page(m, 1)->index, 2);
}

/* IOC_DISABLE ends with perf_pmu_enable() -> armv8pmu_start() ->
 * armv8pmu_enable_user_access() (the context still has user events):
 * every counter not in use is zeroed, the one just freed too.  a on
 * counter 0 (loaded with 2^32 - (2^31 - 1) = 2^31 + 1), b on 1; after 100
 * events a is disabled: its counter reads 0, not the 2^31 + 101 it
 * stopped at, and b's counts on. */
static void test_disable_zeroes_freed_counter(void **state)
{
	struct sm_config c = arm_cfg();
	(void)state;
	add_event(&c, "a", SM_EV_OTHER, SM_AUTO, false);
	add_event(&c, "b", SM_EV_OTHER, SM_AUTO, false);
	init_model(&m, &c);
	sm_model_advance(m, 100);
	assert_int_equal(reg(0), (1ull << 31) + 101);
	assert_int_equal(act(m, SM_ACT_DISABLE, 0), 1);
	assert_int_equal(reg(0), 0);
	assert_int_equal(reg(1), (1ull << 31) + 101);
}

/* perf_event_update_userpage() orders its stores with barrier() only: a
 * reader on another CPU can see the closing ++lock before the fields.
 * IOC_RESET after 100 events on counter 2 (loaded with 2^32 - (2^31 -
 * 1)): prev_count = 2^31 + 101, count 0, so offset is stored first as 0
 * (the count), then as 0 - (2^31 + 101).  After three stores (lock 3,
 * index, offset 0) the closing lock lands early: the page shows lock 4
 * (even, final) with offset 0, a torn page the seqlock cannot catch, for
 * the 256 cycles (SM_HOLD_CYCLES) the other stores stay unseen; then they
 * land one a cycle again, the second offset store first. */
static void test_remote_lock_early(void **state)
{
	struct sm_config c = arm_cfg();
	(void)state;
	add_event(&c, "l1d", SM_EV_OTHER, 2, false);
	c.writer = SM_WRITER_REMOTE;
	init_model(&m, &c);
	sm_model_advance(m, 100);
	assert_int_equal(act(m, SM_ACT_RESET, 0), 1);
	const struct perf_event_mmap_page *pc = sm_model_page(m, 0);
	unsigned n = sm_model_pending(m);
	assert_int_equal(sm_model_store_step(m), 8);  /* lock 3 */
	assert_int_equal(sm_model_store_step(m), 12); /* index */
	assert_int_equal(sm_model_store_step(m), 16); /* offset = count */
	assert_int_equal(act(m, SM_ACT_LOCK_EARLY, 0), 1);
	assert_int_equal(pc->lock, 4);
	assert_int_equal(pc->offset, 0);
	assert_int_equal(sm_model_pending(m), n - 4);
	assert_int_equal(sm_model_store_step(m), -1); /* held back */
	sm_model_advance(m, 256);
	assert_int_equal(pc->offset, 0);
	assert_int_equal(sm_model_pending(m), n - 4);
	sm_model_advance(m, 1);
	assert_int_equal(sm_model_pending(m), n - 5);
	assert_int_equal(pc->offset, -(int64_t)(0x80000000ull + 101));
	sm_model_flush(m);
	assert_int_equal(pc->lock, 4);
	/* nothing in flight: nothing to reorder */
	assert_int_equal(act(m, SM_ACT_LOCK_EARLY, 0), 0);
	/* before any store of an update has landed, the opening lock comes
	 * first (one location), then the closing one: lock 6, offset as the
	 * previous update left it */
	sm_model_advance(m, 10);
	assert_int_equal(act(m, SM_ACT_RESET, 0), 1);
	assert_int_equal(act(m, SM_ACT_LOCK_EARLY, 0), 1);
	assert_int_equal(pc->lock, 6);
	assert_int_equal(pc->offset, -(int64_t)(0x80000000ull + 101));
	/* x86 stores are seen in program order: no such action there */
	struct sm_config x;
	sm_config_default(&x, SM_X86_64);
	add_event(&x, "instructions", SM_EV_INSTRUCTIONS, SM_AUTO, false);
	x.writer = SM_WRITER_REMOTE;
	init_model(&m, &x);
	assert_int_equal(act(m, SM_ACT_LOCK_EARLY, 0), -1);
}

/* Variant userpage_wmb: smp_wmb() keeps the closing ++lock after the
 * field stores, so lock_early does not apply (0) and the same reset as
 * above lands in program order: lock 3, index, offset 0, ... */
static void test_userpage_wmb(void **state)
{
	struct sm_config c = arm_cfg();
	(void)state;
	add_event(&c, "l1d", SM_EV_OTHER, 2, false);
	c.writer = SM_WRITER_REMOTE;
	c.kernel = 1u << SM_KV_USERPAGE_WMB;
	init_model(&m, &c);
	sm_model_advance(m, 100);
	assert_int_equal(act(m, SM_ACT_RESET, 0), 1);
	const struct perf_event_mmap_page *pc = sm_model_page(m, 0);
	unsigned n = sm_model_pending(m);
	assert_int_equal(sm_model_store_step(m), 8);  /* lock 3 */
	assert_int_equal(act(m, SM_ACT_LOCK_EARLY, 0), 0);
	assert_int_equal(sm_model_pending(m), n - 1);
	assert_int_equal(pc->lock, 3);
	assert_int_equal(sm_model_store_step(m), 12); /* index */
	assert_int_equal(sm_model_store_step(m), 16); /* offset = count */
	assert_int_equal(act(m, SM_ACT_LOCK_EARLY, 0), 0);
	assert_int_equal(pc->lock, 3);
	sm_model_flush(m);
	assert_int_equal(pc->lock, 4);
	assert_int_equal(pc->offset, -(int64_t)(0x80000000ull + 101));
}

/* The arm64 shift clamp: the page gets shift 31 and mult >> 1 while
 * time_zero was computed with the unclamped values. */
static void test_shift_clamp(void **state)
{
	struct sm_config c = arm_cfg();
	(void)state;
	for (int i = 0; i < SM_MAX_CPUS; i++) {
		c.cpu[i].hz = 0;
		c.cpu[i].mult = 3;
		c.cpu[i].shift = 32;
		c.cpu[i].epoch_cyc = 1ull << 33;
		c.cpu[i].epoch_ns = 100;
	}
	add_event(&c, "cycles", SM_EV_CYCLES, SM_AUTO, false);
	init_model(&m, &c);
	const struct perf_event_mmap_page *pc = sm_model_page(m, 0);
	assert_int_equal(pc->time_shift, 31);
	assert_int_equal(pc->time_mult, 1);
	/* 100 - (2^33 * 3 >> 32) = 100 - 6 */
	assert_int_equal(pc->time_zero, 94);
}

/* A sampling software clock `name` (period 10^6, no config1 user bit)
 * with perf_user_access 0, on kernel `kernel`. */
static struct sm_config sampling_clock_cfg(const char *name, unsigned kernel)
{
	struct sm_config c = arm_cfg();
	c.kernel = kernel;
	c.user_access = 0;
	int e = add_event(&c, name, SM_EV_SOFTWARE, SM_AUTO, false);
	c.event[e].user = false;
	c.event[e].period = 1000000;
	return c;
}

/* Linux 6.12: a sampling cpu-clock/task-clock's hw.flags overlays the
 * upper half of hw.hrtimer.function = perf_swevent_hrtimer (kernel text
 * at 0xffff80008xxxxxxx): flags = 0xffff8000, so
 * PERF_EVENT_FLAG_USER_READ_CNT (bit 31) is set and ARMPMU_EVT_64BIT
 * (bit 0) is not.  arch_perf_update_userpage() writes cap_user_rdpmc = 1
 * and pmc_width = 32 whatever perf_user_access and config1 say; the index
 * stays 0 (perf_swevent_event_idx()).  By hand: bit0_is_deprecated 0x2 |
 * rdpmc 0x4 | time 0x8 | time_zero 0x10 | time_short 0x20 = 0x3e. */
static void test_sampling_clock_caps(void **state)
{
	static const char *const names[] = { "task-clock", "cpu-clock" };
	(void)state;
	for (int k = 0; k < 2; k++) {
		struct sm_config c = sampling_clock_cfg(names[k], 0);
		init_model(&m, &c);
		const struct perf_event_mmap_page *pc = sm_model_page(m, 0);
		assert_int_equal(pc->index, 0);
		assert_int_equal(pc->capabilities, 0x3e);
		assert_int_equal(pc->pmc_width, 32);

		/* counting: the hrtimer is never set up, flags stay 0: no
		 * rdpmc, no pmc_width (0x2 | 0x8 | 0x10 | 0x20) */
		c.event[0].period = 0;
		init_model(&m, &c);
		pc = sm_model_page(m, 0); /* a new model */
		assert_int_equal(pc->index, 0);
		assert_int_equal(pc->capabilities, 0x3a);
		assert_int_equal(pc->pmc_width, 0);
	}

	/* other software events have no hrtimer: flags 0 */
	struct sm_config c = arm_cfg();
	int e = add_event(&c, "page-faults", SM_EV_SOFTWARE, SM_AUTO, false);
	c.event[e].period = 1000;
	init_model(&m, &c);
	assert_int_equal(sm_model_page(m, 0)->capabilities, 0x3a);
	assert_int_equal(sm_model_page(m, 0)->pmc_width, 0);
}

/* Linux 7.2: struct hw_perf_event's hardware part gained config1 and
 * dyn_constraint (include/linux/perf_event.h), so hw.flags is at bytes
 * 60..63 of the union; struct hrtimer (include/linux/hrtimer_types.h)
 * is now node 0..47 (rb_node_linked 40 + expires 8), base 48..55,
 * is_queued, is_rel, is_soft, is_hard, is_lazy 56..60, padding 61..63,
 * _softexpires 64..71, function 72..79.  hw.flags = is_lazy | padding,
 * all 0 after __hrtimer_setup()'s memset and a mode without LAZY_REARM:
 * no PERF_EVENT_FLAG_USER_READ_CNT, so cap_user_rdpmc = 0 and pmc_width
 * is not written (arch_perf_update_userpage() writes it only with
 * cap_user_rdpmc): 0x2 | 0x8 | 0x10 | 0x20 = 0x3a, width 0. */
static void test_v72_sampling_clock_caps(void **state)
{
	static const char *const names[] = { "task-clock", "cpu-clock" };
	(void)state;
	for (int k = 0; k < 2; k++) {
		struct sm_config c = sampling_clock_cfg(names[k],
		                                        1u << SM_KV_LINUX_7_2);
		init_model(&m, &c);
		const struct perf_event_mmap_page *pc = sm_model_page(m, 0);
		assert_int_equal(pc->index, 0);
		assert_int_equal(pc->capabilities, 0x3a);
		assert_int_equal(pc->pmc_width, 0);
	}
}

/* Linux 7.2 armv8pmu_can_use_pmccntr(): not on SMT cores.  cycles then
 * takes the lowest free event counter: with `a` on counter 0 it is
 * counter 1, page index 2 (armv8pmu_user_event_idx(): idx + 1), not 32;
 * a 32-bit counter loaded with 2^32 - (2^31 - 1) = 2^31 + 1 (period
 * max_period >> 1), so after 100 cycles 2^31 + 101 and the page's offset
 * 2^31 - 1 plus the low 32 bits sign-extended is 100.  On 6.12 the same
 * configuration puts cycles on PMCCNTR (index 32): has_smt is not
 * looked at. */
static void test_v72_smt_cycles(void **state)
{
	(void)state;
	for (int v72 = 0; v72 < 2; v72++) {
		struct sm_config c = arm_cfg();
		c.smt = true;
		c.kernel = v72 ? 1u << SM_KV_LINUX_7_2 : 0;
		add_event(&c, "a", SM_EV_OTHER, SM_AUTO, false);
		add_event(&c, "cycles", SM_EV_CYCLES, SM_AUTO, false);
		init_model(&m, &c);
		const struct perf_event_mmap_page *pc = sm_model_page(m, 1);
		assert_int_equal(pc->index, v72 ? 2 : 32);
		assert_int_equal(pc->pmc_width, 32);
		assert_int_equal(pc->offset, 0x7fffffff);
		sm_model_advance(m, 100);
		if (v72) {
			assert_int_equal(reg(1), (1ull << 31) + 101);
			assert_int_equal(reg(31), 0); /* PMCCNTR unused: cleared */
		}
		assert_int_equal((uint64_t)pc->offset +
		                 sext(reg(pc->index - 1), 32), 100);
	}
	/* a 64-bit cycles event without long counters needs PMCCNTR (no
	 * chaining in the model): refused on 7.2 with SMT */
	struct sm_config c = arm_cfg();
	char err[256];
	c.smt = true;
	c.kernel = 1u << SM_KV_LINUX_7_2;
	int e = add_event(&c, "cycles", SM_EV_CYCLES, SM_AUTO, false);
	c.event[e].long64 = true;
	assert_int_equal(model_init(&m, &c, NULL, NULL, err, sizeof(err)), -1);
	c.kernel = 0;
	init_model(&m, &c);
	assert_int_equal(sm_model_page(m, 0)->index, 32);
}

/* Linux 7.2 on FEAT_PMUv3p9: armv8pmu_enable_user_access() writes
 * PMUACR_EL1 = the counters in use whose event has user read and sets
 * PMUSERENR_EL0.UEN; EL0 reads of the others are RAZ (Arm ARM,
 * PMUACR_EL1.P<m>).  `a` (config1 user bit) on counter 0, `b` (no user
 * bit) on counter 1, both 32-bit events on long counters: loaded with
 * -(2^31 - 1) = 0xffffffff80000001 and counting.  After 100 events a's
 * counter reads 0xffffffff80000065 on both kernels; b's reads the same
 * live value on 6.12 (ER=1 opens every counter) and 0 on 7.2.  6.12 on
 * the same hardware does not know PMUACR_EL1 (UEN stays 0). */
static void test_v72_pmuacr(void **state)
{
	(void)state;
	for (int v72 = 0; v72 < 2; v72++) {
		struct sm_config c = arm_cfg();
		c.long_counters = c.pmuv3p9 = true;
		c.kernel = v72 ? 1u << SM_KV_LINUX_7_2 : 0;
		add_event(&c, "a", SM_EV_OTHER, SM_AUTO, false);
		int b = add_event(&c, "b", SM_EV_OTHER, SM_AUTO, false);
		c.event[b].user = false;
		init_model(&m, &c);
		sm_model_advance(m, 100);
		assert_int_equal(sm_model_page(m, 0)->index, 1);
		assert_int_equal(reg(0), 0xffffffff80000065ull);
		assert_int_equal(reg(1), v72 ? 0 : 0xffffffff80000065ull);
		assert_int_equal(reg(2), 0); /* unused: cleared, or RAZ */
		/* a disabled: its counter is cleared on 6.12, RAZ on 7.2 */
		assert_int_equal(act(m, SM_ACT_DISABLE, 0), 1);
		assert_int_equal(reg(0), 0);
	}
	/* PMUv3.9 includes PMUv3p5's long counters */
	struct sm_config c = arm_cfg();
	char err[256];
	c.pmuv3p9 = true;
	add_event(&c, "a", SM_EV_OTHER, SM_AUTO, false);
	assert_int_equal(model_init(&m, &c, NULL, NULL, err, sizeof(err)), -1);
}

/* big.LITTLE: CPU 0 of type 1 (armv8_cortex_a76), CPU 1 of type 2
 * (armv8_cortex_a55), a pinned event on the big PMU.  Opened and mmapped
 * on CPU 0: on counter 0 (index 1), offset 0 - (u64)-0x7fffffff (lock 2).
 * 100 cycles in, a migration to CPU 1: armpmu_del() writes the page
 * (lock 4, index 0, offset = count = 100); there armpmu_filter() keeps the
 * big PMU's groups out (visit_groups_merge()): no write, no ERROR.  Back
 * on CPU 0, armpmu_start() and armpmu_add() write twice (lock 8): counter
 * 0 again, offset 100 + (0x7fffffff - 100): a counting event's period is
 * max_period >> 1 (__hw_perf_event_init()), 100 of it used. */
static void test_big_little_filter(void **state)
{
	struct sm_config c = arm_cfg();
	struct sm_action a = { .kind = SM_ACT_MIGRATE, .event = SM_AUTO,
	                       .cpu = 1, .counter = SM_AUTO, .cycles = 500 };
	char err[128];
	(void)state;
	c.nevents = 0;
	add_event(&c, "big", SM_EV_OTHER, SM_AUTO, true);
	set_hybrid(&c, "armv8_cortex_a76", "armv8_cortex_a55");
	c.event[0].pmu = 1;
	init_model(&m, &c);
	const struct perf_event_mmap_page *pc = sm_model_page(m, 0);
	assert_int_equal(pc->lock, 2);
	assert_int_equal(pc->index, 1);
	assert_int_equal(pc->offset, 0x7fffffff);
	sm_model_advance(m, 100);
	assert_int_equal(sm_model_apply(m, &a, err, sizeof(err)), 1);
	assert_int_equal(pc->lock, 4);
	assert_int_equal(pc->index, 0);
	assert_int_equal(pc->offset, 100);
	assert_int_equal(m->k.ev[0].state, SM_INACTIVE);
	a.cpu = 0;
	assert_int_equal(sm_model_apply(m, &a, err, sizeof(err)), 1);
	assert_int_equal(pc->lock, 8);
	assert_int_equal(pc->index, 1);
	assert_int_equal(pc->offset, 100 + (0x7fffffffll - 100));
}

/* The open of a second event after the first, mmapped (one page write:
 * perf_event_init_userpage() + perf_event_update_userpage(), lock 2).
 * Enabled, it is installed with the IPI: __perf_install_in_context() ->
 * ctx_resched() schedules the first out and in again, three more writes
 * of its page (armpmu_del(), armpmu_start(), armpmu_add()): lock 8, as
 * the real 6.12 kernel shows.  Disabled, or enabled but the sibling of a
 * disabled leader, perf_install_in_context() only adds it (its effective
 * state is OFF and the context has events): the first page stays at
 * lock 2. */
static void test_open_disabled_no_resched(void **state)
{
	(void)state;
	struct {
		bool enabled, grouped_under_off;
		unsigned lock;
	} cases[] = { { true, false, 8 }, { false, false, 2 }, { true, true, 2 } };
	for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct sm_config c = arm_cfg();
		c.mux_interval = 0;
		add_event(&c, "first", SM_EV_OTHER, SM_AUTO, false);
		if (cases[k].grouped_under_off) {
			int l = add_event(&c, "leader", SM_EV_OTHER, SM_AUTO, false);
			c.event[l].enabled = false;
			c.event[l].mmap = false;
			int s = add_event(&c, "sibling", SM_EV_OTHER, SM_AUTO, false);
			c.event[s].group = (unsigned)l + 1;
			c.event[s].mmap = false;
		} else {
			int e = add_event(&c, "second", SM_EV_OTHER, SM_AUTO, false);
			c.event[e].enabled = cases[k].enabled;
			c.event[e].mmap = false;
		}
		init_model(&m, &c);
		assert_int_equal(sm_model_page(m, 0)->lock, cases[k].lock);
	}
}

/* A period longer than a wrap: 3647483647 on a 32-bit PMEVCNTR with
 * IOC_REFRESH 1, as tried on the real arm64 6.12 kernel.
 * armpmu_event_set_period() programs at most max_period >> 1 =
 * 2^31 - 1 = 2147483647 events, so the counter wraps there with
 * period_left 3647483647 - 2147483647 = 1500000000 > 0: set_period
 * returns 0, armv8pmu_handle_irq() goes on to the next counter, and the
 * wrap is no overflow (the page rewritten, the index kept, the refresh
 * not used).  The period ends 1500000000 events later, at 3647483647:
 * that overflow uses the refresh and the event is disabled (index 0,
 * the count stays 3647483647). */
static void test_clamped_wrap_not_overflow(void **state)
{
	struct sm_config c = arm_cfg();
	struct sm_action a = { .kind = SM_ACT_REFRESH, .event = 0,
	                       .cpu = SM_AUTO, .counter = SM_AUTO, .refresh = 1 };
	uint64_t v[3];
	char err[128];
	(void)state;
	c.mux_interval = 0;
	int e = add_event(&c, "branches", SM_EV_OTHER, SM_AUTO, false);
	c.event[e].period = 3647483647ull;
	c.event[e].enabled = false;
	init_model(&m, &c);
	assert_int_equal(sm_model_apply(m, &a, err, sizeof(err)), 1);
	assert_int_not_equal(sm_model_page(m, 0)->index, 0);
	sm_model_advance(m, 2147483647ull + 1000);
	assert_int_not_equal(sm_model_page(m, 0)->index, 0);
	assert_int_equal(sm_model_read(m, 0, v, sizeof(v)), 24);
	assert_int_equal(v[0], 2147483647ull + 1000);
	sm_model_advance(m, 1500000000ull);
	assert_int_equal(sm_model_page(m, 0)->index, 0);
	assert_int_equal(sm_model_read(m, 0, v, sizeof(v)), 24);
	assert_int_equal(v[0], 3647483647ull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cycle_counter_page),
		cmocka_unit_test(test_32bit_overflow),
		cmocka_unit_test(test_bias_long_counters),
		cmocka_unit_test(test_reset_quirk),
		cmocka_unit_test(test_long_event),
		cmocka_unit_test(test_no_user_access),
		cmocka_unit_test(test_timer_wrap_time_mask),
		cmocka_unit_test(test_timer_width_from_rate),
		cmocka_unit_test(test_clock_epoch),
		cmocka_unit_test(test_clock_is_global),
		cmocka_unit_test(test_sched_in_writes_twice),
		cmocka_unit_test(test_open_reschedules),
		cmocka_unit_test(test_lowest_free_counter),
		cmocka_unit_test(test_disable_zeroes_freed_counter),
		cmocka_unit_test(test_remote_lock_early),
		cmocka_unit_test(test_userpage_wmb),
		cmocka_unit_test(test_big_little_filter),
		cmocka_unit_test(test_shift_clamp),
		cmocka_unit_test(test_sampling_clock_caps),
		cmocka_unit_test(test_v72_sampling_clock_caps),
		cmocka_unit_test(test_v72_smt_cycles),
		cmocka_unit_test(test_v72_pmuacr),
		cmocka_unit_test(test_open_disabled_no_resched),
		cmocka_unit_test(test_clamped_wrap_not_overflow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
