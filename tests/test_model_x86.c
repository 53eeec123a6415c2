/*
 * test_model_x86.c — the x86-64 kernel model against values computed by
 * hand from the kernel's formulas (docs/kernel-variant.md §2).  Expected values are
 * written out here; only the action under test comes from the model.
 *
 * Defaults used: 4 GP + 3 fixed counters, W = 48, max_period = 2^47 - 1,
 * TSC 2.9 GHz: cyc2ns mult 1481023206 at shift 32, clamped by
 * __set_cyc2ns_scale() to mult 740511603, shift 31.
 */
#include "testutil.h"
#include "state.h" /* the model's own tests read its state */

#define W 48
#define M ((1ull << W) - 1)
#define MAXP ((1ull << 47) - 1)
#define MULT 740511603u
#define SHIFT 31
#define FIXED0_INDEX (((1u << 30) | 0) + 1)

static struct sm_model *m;

static uint64_t ns(uint64_t cyc, uint64_t offset)
{
	return offset + mulshr(cyc, MULT, SHIFT);
}

static struct sm_config pinned_instructions(uint64_t start)
{
	struct sm_config c;
	sm_config_default(&c, SM_X86_64);
	c.start = start;
	add_event(&c, "instructions", SM_EV_INSTRUCTIONS, SM_AUTO, true);
	return c;
}

static uint64_t rdpmc(uint32_t ecx)
{
	uint64_t v = 0;
	assert_int_equal(sm_model_rdpmc(m, ecx, &v), SM_OK);
	return v;
}

static void test_mmap_page(void **state)
{
	struct sm_config c = pinned_instructions(2900000);
	(void)state;
	init_model(&m, &c);
	const struct perf_event_mmap_page *pc = sm_model_page(m, 0);

	assert_int_equal(pc->version, 0);
	assert_int_equal(pc->lock, 2);               /* one update at mmap */
	assert_int_equal(pc->index, FIXED0_INDEX);   /* fixed counter 0 */
	/* offset = count - prev_count = 0 - (u64)-(2^47-1) */
	assert_int_equal(pc->offset, (int64_t)MAXP);
	assert_int_equal(pc->time_enabled, 0);
	assert_int_equal(pc->time_running, 0);
	/* deprecated-bit0 | rdpmc | time | time_zero */
	assert_int_equal(pc->capabilities, 0x1e);
	assert_int_equal(pc->pmc_width, 48);
	assert_int_equal(pc->time_mult, MULT);
	assert_int_equal(pc->time_shift, SHIFT);
	/* 2.9e6 cycles at 2.9 GHz is 1 ms: time_offset = 0 - 1000000 */
	assert_int_equal(pc->time_offset, (uint64_t)0 - 1000000);
	assert_int_equal(pc->time_zero, 0);
	assert_int_equal(pc->size, 96);
	assert_int_equal(pc->data_offset, 4096);
	/* the counter was loaded with -left */
	assert_int_equal(rdpmc(1u << 30), (0 - MAXP) & M);
	assert_int_equal(rdpmc(1u << 30), 0x800000000001ull);
}

static void test_counting_and_time(void **state)
{
	struct sm_config c = pinned_instructions(2900000);
	struct sm_truth t;
	(void)state;
	init_model(&m, &c);
	sm_model_advance(m, 1000);
	const struct perf_event_mmap_page *pc = sm_model_page(m, 0);
	uint64_t raw = rdpmc(1u << 30);

	assert_int_equal(raw, 0x800000000001ull + 1000);
	sm_model_truth(m, 0, &t);
	assert_int_equal(t.count, 1000);
	/* reader: offset + sign-extended counter */
	assert_int_equal((uint64_t)pc->offset + sext(raw, W), 1000);
	uint64_t e = ns(2901000, 0) - ns(2900000, 0);
	assert_int_equal(t.enabled, e);
	assert_int_equal(t.running, e);
	/* reader: time_enabled + time_offset + mul(tsc) */
	uint64_t delta = pc->time_offset + mulshr(sm_model_timer(m), MULT, SHIFT);
	assert_int_equal(pc->time_enabled + delta, e);
	/* read(2) agrees */
	uint64_t buf[3];
	assert_int_equal(sm_model_read(m, 0, buf, sizeof(buf)), 24);
	assert_int_equal(buf[0], 1000);
	assert_int_equal(buf[1], e);
	assert_int_equal(buf[2], e);
}

/* IOC_RESET: perf_event_read() leaves the zero-extended raw value in
 * prev_count, count = 0, the page is rewritten: offset = -raw.  A reader
 * that sign-extends the counter is now off by 2^48. */
static void test_reset_quirk(void **state)
{
	struct sm_config c = pinned_instructions(0);
	struct sm_truth t;
	(void)state;
	init_model(&m, &c);
	sm_model_advance(m, 100);
	assert_int_equal(act(m, SM_ACT_RESET, 0), 1);
	const struct perf_event_mmap_page *pc = sm_model_page(m, 0);

	assert_int_equal(pc->lock, 4);
	assert_int_equal(pc->index, FIXED0_INDEX);
	assert_int_equal(pc->offset, -(int64_t)(0x800000000001ull + 100));
	sm_model_advance(m, 50);
	uint64_t raw = rdpmc(1u << 30);
	assert_int_equal(raw, 0x800000000001ull + 150);
	sm_model_truth(m, 0, &t);
	assert_int_equal(t.count, 50);
	assert_int_equal((uint64_t)pc->offset + zext(raw, W), 50);
	assert_int_equal((uint64_t)pc->offset + sext(raw, W), 50 - (1ull << 48));
}

/* Variant reset_prev_count: the same reset leaves prev_count as a reload
 * would, raw sign-extended from 48 bits: 0x800000000001 + 100 - 2^48, so
 * offset = 0 - that = 2^47 - 1 - 100, and a sign-extending reader gets
 * the count; a zero-extending one is now off by 2^48 (as after any
 * reload).  Counting goes on unchanged: read(2) 50 events later says 50. */
static void test_reset_prev_count(void **state)
{
	struct sm_config c = pinned_instructions(0);
	struct sm_truth t;
	uint64_t buf[3];
	(void)state;
	c.kernel = 1u << SM_KV_RESET_PREV_COUNT;
	init_model(&m, &c);
	sm_model_advance(m, 100);
	assert_int_equal(act(m, SM_ACT_RESET, 0), 1);
	const struct perf_event_mmap_page *pc = sm_model_page(m, 0);

	assert_int_equal(pc->lock, 4);
	assert_int_equal(pc->index, FIXED0_INDEX);
	assert_int_equal(pc->offset, (int64_t)(MAXP - 100));
	sm_model_advance(m, 50);
	uint64_t raw = rdpmc(1u << 30);
	assert_int_equal(raw, 0x800000000001ull + 150);
	sm_model_truth(m, 0, &t);
	assert_int_equal(t.count, 50);
	assert_int_equal((uint64_t)pc->offset + sext(raw, W), 50);
	assert_int_equal((uint64_t)pc->offset + zext(raw, W), 50 + (1ull << 48));
	assert_int_equal(sm_model_read(m, 0, buf, sizeof(buf)), 24);
	assert_int_equal(buf[0], 50);
}

/* A counter loaded with left = 100 wraps after 100 events: the PMI
 * updates count (100), period_left = 0 -> left = period = 2^47-1, reload. */
static void check_natural_overflow(uint64_t max_period)
{
	struct sm_config c;
	struct sm_truth t;
	sm_config_default(&c, SM_X86_64);
	c.max_period = max_period;
	int e = add_event(&c, "branches", SM_EV_OTHER, 2, false);
	c.event[e].left = 100;
	init_model(&m, &c);
	const struct perf_event_mmap_page *pc = sm_model_page(m, 0);

	assert_int_equal(pc->index, 3);
	assert_int_equal(pc->offset, 100);
	assert_int_equal(rdpmc(2), (1ull << 48) - 100);
	sm_model_advance(m, 150);
	assert_int_equal(pc->lock, 4);
	assert_int_equal(pc->offset, (int64_t)(100 + max_period));
	uint64_t raw = rdpmc(2);
	assert_int_equal(raw, (1ull << 48) - max_period + 50);
	sm_model_truth(m, 0, &t);
	assert_int_equal(t.count, 150);
	assert_int_equal((uint64_t)pc->offset + sext(raw, W), 150);
	/* without sign extension a reader is off by 2^48 after a reload */
	assert_int_equal((uint64_t)pc->offset + zext(raw, W), 150 + (1ull << 48));
}

/* Two events constrained to one counter (counter=1): x86_schedule_events()
 * allows each only counter 1, so the second cannot go on while the first
 * holds it: x86_pmu_add() fails, the event stays INACTIVE and its page
 * keeps index 0.  The first stays on counter 1 (page index 2), and a
 * rotation out and back in moves it off and onto counter 1 again, with
 * no read of a counter it does not hold (fuzz_scenario found the model
 * putting the second on counter 0, a state no later schedule kept). */
static void test_counter_clash(void **state)
{
	struct sm_config c;
	(void)state;
	sm_config_default(&c, SM_X86_64);
	add_event(&c, "a", SM_EV_OTHER, 1, false);
	add_event(&c, "b", SM_EV_OTHER, 1, false);
	init_model(&m, &c);
	assert_int_equal(sm_model_page(m, 0)->index, 2);
	assert_int_equal(sm_model_page(m, 1)->index, 0);
	assert_int_equal(m->k.ev[0].counter, 1);
	assert_int_equal(m->k.ev[1].state, SM_INACTIVE);
	assert_int_equal(m->k.ev[1].counter, -1);
	sm_model_advance(m, 100);
	assert_int_equal(act(m, SM_ACT_ROTATE_OUT, 0), 1);
	assert_int_equal(sm_model_page(m, 0)->index, 0);
	assert_int_equal(sm_model_page(m, 0)->offset, 100);
	assert_int_equal(act(m, SM_ACT_ROTATE_IN, 0), 1);
	assert_int_equal(sm_model_page(m, 0)->index, 2);
	assert_int_equal(m->k.ev[1].counter, -1);
}

static void test_overflow_47(void **state)
{
	(void)state;
	check_natural_overflow((1ull << 47) - 1);
}

static void test_overflow_31(void **state)
{
	(void)state;
	check_natural_overflow((1ull << 31) - 1); /* no full-width writes */
}

/* Injected overflow at t=10: the counter runs to its wrap (2^47 - 11 more
 * events), the PMI reloads with 2^47-1. */
static void test_injected_overflow(void **state)
{
	struct sm_config c;
	struct sm_truth t;
	uint64_t buf[3];
	(void)state;
	sm_config_default(&c, SM_X86_64);
	add_event(&c, "branches", SM_EV_OTHER, SM_AUTO, false);
	init_model(&m, &c);
	sm_model_advance(m, 10);
	assert_int_equal(act(m, SM_ACT_OVERFLOW, 0), 1);
	sm_model_truth(m, 0, &t);
	assert_int_equal(t.count, MAXP);
	assert_int_equal(sm_model_read(m, 0, buf, sizeof(buf)), 24);
	assert_int_equal(buf[0], MAXP);
	const struct perf_event_mmap_page *pc = sm_model_page(m, 0);
	assert_int_equal(pc->lock, 4);
	assert_int_equal(pc->index, 1);
	assert_int_equal(pc->offset, (int64_t)(2 * MAXP));
	assert_int_equal(rdpmc(0), 0x800000000001ull);
}

/* Three flexible events on two counters; perf_rotate_context() at t=1000
 * moves the first active one (a) to the end, then b, c and a go back in
 * that order: x86_pmu_add(b) keeps b's hw.idx 1 (fast path), but c has
 * never had a counter (hw.idx -1), so x86_pmu_add(c) takes
 * x86_schedule_events()'s slow path, which places both anew, lowest free
 * counter first in list order: b on counter 0, c on 1; a fails and gets
 * index 0.  x86_pmu_enable() then starts b (index 1) and c (index 2).  The opens rewrote the earlier
 * pages (__perf_install_in_context() -> ctx_resched()): opening b took a
 * out (x86_pmu_del(): one write) and in (x86_pmu_start(): two), opening
 * c took a and b out and in again, so a's lock is 2 + 6 + 6 = 14 and
 * b's 2 + 6 = 8 before the tick. */
static void test_multiplexing(void **state)
{
	struct sm_config c;
	struct sm_truth t;
	(void)state;
	sm_config_default(&c, SM_X86_64);
	c.gp = 2;
	c.fixed = 0;
	c.start = 0;
	add_event(&c, "a", SM_EV_OTHER, SM_AUTO, false);
	add_event(&c, "b", SM_EV_OTHER, SM_AUTO, false);
	add_event(&c, "c", SM_EV_OTHER, SM_AUTO, false);
	init_model(&m, &c);
	assert_int_equal(sm_model_page(m, 0)->index, 1);
	assert_int_equal(sm_model_page(m, 1)->index, 2);
	assert_int_equal(sm_model_page(m, 2)->index, 0);
	assert_int_equal(sm_model_page(m, 2)->offset, 0);

	sm_model_advance(m, 1000);
	assert_int_equal(act(m, SM_ACT_ROTATE, 0), 1);
	const struct perf_event_mmap_page *a = sm_model_page(m, 0);
	const struct perf_event_mmap_page *b = sm_model_page(m, 1);
	const struct perf_event_mmap_page *cc = sm_model_page(m, 2);
	uint64_t e1000 = ns(1000, 0);

	assert_int_equal(a->index, 0);
	assert_int_equal(a->offset, 1000);
	assert_int_equal(a->lock, 18); /* 14, sched out, failed sched in */
	assert_int_equal(a->time_enabled, e1000);
	assert_int_equal(a->time_running, e1000);
	assert_int_equal(b->index, 1);
	/* 8, sched out, sched in: x86_pmu_start() writes twice */
	assert_int_equal(b->lock, 14);
	/* b: count 1000, period_left 2^47-1-1000, prev = -(period_left) */
	assert_int_equal(b->offset, (int64_t)MAXP);
	assert_int_equal(cc->index, 2);
	assert_int_equal(cc->lock, 6); /* mmap, sched in (twice) */
	assert_int_equal(cc->offset, (int64_t)MAXP);
	assert_int_equal(cc->time_enabled, e1000);
	assert_int_equal(cc->time_running, 0);

	sm_model_advance(m, 500);
	sm_model_truth(m, 2, &t);
	assert_int_equal(t.count, 500);
	assert_int_equal(t.enabled, ns(1500, 0));
	assert_int_equal(t.running, ns(1500, 0) - e1000);
	sm_model_truth(m, 0, &t);
	assert_int_equal(t.count, 1000);
	assert_int_equal(t.enabled, ns(1500, 0));
	assert_int_equal(t.running, e1000);
}

/* x86_schedule_events()'s slow path moves a running event.  Pinned b
 * and a are opened in that order: b on counter 0, a on 1 (opening a
 * rescheduled b: never-assigned a sends x86_pmu_add() down the slow
 * path, which places b, then a, on the lowest free counters).  b is
 * disabled (counter 0 free), then flexible c, opened disabled, is
 * enabled: ctx_resched() leaves the pinned a on the PMU, and
 * x86_pmu_add(c) sees hw.idx -1 for c: the slow path places a (first in
 * cpuc->event_list) on counter 0 and c on 1.  x86_pmu_enable() stops a
 * (x86_pmu_stop(): no page write) and starts a, then c, each with two
 * writes (x86_perf_event_set_period() while PERF_HES_STOPPED: index 0;
 * then the index): a 0, 1; c 0, 2.  The page and rdpmc of counter 0
 * still give a's count. */
static void test_slow_path_moves_running(void **state)
{
	struct sm_config c;
	struct page_log log = { 0 };
	struct sm_truth t;
	(void)state;
	sm_config_default(&c, SM_X86_64);
	c.gp = 2;
	c.fixed = 0;
	add_event(&c, "b", SM_EV_OTHER, SM_AUTO, true);
	add_event(&c, "a", SM_EV_OTHER, SM_AUTO, true);
	int ec = add_event(&c, "c", SM_EV_OTHER, SM_AUTO, false);
	c.event[ec].enabled = false;
	init_model(&m, &c);
	const struct perf_event_mmap_page *pa = sm_model_page(m, 1);
	assert_int_equal(sm_model_page(m, 0)->index, 1);
	assert_int_equal(pa->index, 2);
	sm_model_advance(m, 300);
	assert_int_equal(act(m, SM_ACT_DISABLE, 0), 1);
	sm_model_advance(m, 200);
	sm_model_observe(m, page_log_note, &log);
	assert_int_equal(act(m, SM_ACT_ENABLE, ec), 1);
	assert_int_equal(log.n, 4);
	assert_int_equal(log.ev[0], 1);
	assert_int_equal(log.pg[0].index, 0);
	assert_int_equal(log.ev[1], 1);
	assert_int_equal(log.pg[1].index, 1);
	assert_int_equal(log.ev[2], ec);
	assert_int_equal(log.pg[2].index, 0);
	assert_int_equal(log.ev[3], ec);
	assert_int_equal(log.pg[3].index, 2);
	sm_model_observe(m, NULL, NULL);
	sm_model_advance(m, 50);
	sm_model_truth(m, 1, &t);
	assert_int_equal(t.count, 550);
	assert_int_equal((uint64_t)pa->offset + sext(rdpmc(0), W), 550);
}

/* perf_rotate_context() rotates one PMU's context: task-clock (first in
 * the flexible list) is on a software PMU whose rotate_necessary is never
 * set, so the hardware tick neither picks it (ctx_event_to_rotate() takes
 * the first active *hardware* flexible event, a) nor rewrites its page.
 * One general counter: a on gp0, b waiting.  Opening b rescheduled the
 * hardware PMU (ctx_resched()): a out and in again, lock 2 + 2 + 4 = 8,
 * and b, not yet mapped, got no counter.  The tick: a out (page: index 0,
 * offset 100; lock 10), a to the end, b in on gp0 (index 1;
 * x86_pmu_start() writes twice: lock 6), a cannot go back:
 * group_update_userpage() (lock 12).  task-clock's page stays as mmap
 * left it (lock 2): its own PMU was never rescheduled after. */
static void test_rotation_per_pmu(void **state)
{
	struct sm_config c;
	(void)state;
	sm_config_default(&c, SM_X86_64);
	c.gp = 1;
	c.fixed = 0;
	add_event(&c, "task-clock", SM_EV_SOFTWARE, SM_AUTO, false);
	add_event(&c, "a", SM_EV_OTHER, SM_AUTO, false);
	add_event(&c, "b", SM_EV_OTHER, SM_AUTO, false);
	init_model(&m, &c);
	const struct perf_event_mmap_page *tc = sm_model_page(m, 0);
	const struct perf_event_mmap_page *a = sm_model_page(m, 1);
	const struct perf_event_mmap_page *b = sm_model_page(m, 2);
	assert_int_equal(a->index, 1);
	assert_int_equal(b->index, 0);
	sm_model_advance(m, 100);
	assert_int_equal(act(m, SM_ACT_ROTATE, 0), 1);
	assert_int_equal(tc->lock, 2);
	assert_int_equal(b->index, 1);
	assert_int_equal(b->lock, 6);
	assert_int_equal(a->index, 0);
	assert_int_equal(a->offset, 100);
	assert_int_equal(a->lock, 12);
}

/* Enabling a pinned event reschedules the PMU's pinned events too
 * (__perf_event_enable() -> ctx_resched(EVENT_PINNED), which brings
 * EVENT_FLEXIBLE): a (pinned, opened disabled) and b (pinned, on the only
 * counter).  IOC_ENABLE of a at t=100: b out (x86_pmu_del(): lock 4,
 * index 0, offset = its count 100), then the pinned groups in creation
 * order: a on gp0 (x86_pmu_start() writes twice: lock 2 + 4 = 6, index
 * 1), b cannot go back and is in ERROR (merge_sched_in(): no page
 * write). */
static void test_enable_pinned_reschedules_pinned(void **state)
{
	struct sm_config c;
	(void)state;
	sm_config_default(&c, SM_X86_64);
	c.gp = 1;
	c.fixed = 0;
	c.start = 0;
	add_event(&c, "a", SM_EV_OTHER, SM_AUTO, true);
	add_event(&c, "b", SM_EV_OTHER, SM_AUTO, true);
	c.event[0].enabled = false;
	init_model(&m, &c);
	const struct perf_event_mmap_page *a = sm_model_page(m, 0);
	const struct perf_event_mmap_page *b = sm_model_page(m, 1);
	assert_int_equal(a->index, 0);
	assert_int_equal(a->lock, 2);
	assert_int_equal(b->index, 1);
	assert_int_equal(b->lock, 2);
	sm_model_advance(m, 100);
	assert_int_equal(act(m, SM_ACT_ENABLE, 0), 1);
	assert_int_equal(a->index, 1);
	assert_int_equal(a->lock, 6);
	assert_int_equal(b->index, 0);
	assert_int_equal(b->lock, 4);
	assert_int_equal(b->offset, 100);
	assert_int_equal(m->k.ev[0].state, SM_ACTIVE);
	assert_int_equal(m->k.ev[1].state, SM_ERROR);
}

/* A lone flexible event that a pinned one keeps off the only counter:
 * merge_sched_in() sets rotate_necessary, so every tick rotates the
 * hardware PMU (nothing to take out, the event to the end of its own
 * list, a failed sched in) and group_update_userpage() rewrites the
 * waiting event's page: two ticks (mux every 100 cycles, 250 cycles
 * pass), two more updates after mmap's: lock 6, index 0, the times of
 * the last tick at cycle 200: enabled ns(200), running 0. */
static void test_waiting_event_each_tick(void **state)
{
	struct sm_config c;
	(void)state;
	sm_config_default(&c, SM_X86_64);
	c.gp = 1;
	c.fixed = 0;
	c.mux_interval = 100;
	add_event(&c, "p", SM_EV_OTHER, 0, true);
	add_event(&c, "f", SM_EV_OTHER, SM_AUTO, false);
	add_event(&c, "task-clock", SM_EV_SOFTWARE, SM_AUTO, false);
	init_model(&m, &c);
	const struct perf_event_mmap_page *f = sm_model_page(m, 1);
	assert_int_equal(f->lock, 2);
	sm_model_advance(m, 250);
	assert_int_equal(f->lock, 6);
	assert_int_equal(f->index, 0);
	assert_int_equal(f->time_enabled, ns(200, 0));
	assert_int_equal(f->time_running, 0);
	assert_int_equal(sm_model_page(m, 0)->lock, 2); /* pinned: never */
	assert_int_equal(sm_model_page(m, 2)->lock, 2); /* software: never */
}

/* x86_pmu_add() only collects the event; x86_pmu_enable() ->
 * x86_pmu_start(PERF_EF_RELOAD) runs x86_perf_event_set_period() while
 * hw.state is still PERF_HES_STOPPED, so perf_event_index() is 0 on that
 * first page (offset = count = 100), then clears hw.state and writes the
 * page again: index fixed0, offset = 100 - (u64)-(2^47 - 1 - 100) = MAXP.
 * Locks: mmap 2, sched out 4, then 6 and 8. */
static void test_sched_in_writes_twice(void **state)
{
	struct sm_config c = pinned_instructions(0);
	struct page_log log = { 0 };
	(void)state;
	init_model(&m, &c);
	sm_model_advance(m, 100);
	assert_int_equal(act(m, SM_ACT_ROTATE_OUT, 0), 1);
	sm_model_observe(m, page_log_note, &log);
	assert_int_equal(act(m, SM_ACT_ROTATE_IN, 0), 1);
	assert_int_equal(log.n, 2);
	assert_int_equal(log.pg[0].lock, 6);
	assert_int_equal(log.pg[0].index, 0);
	assert_int_equal(log.pg[0].offset, 100);
	assert_int_equal(log.pg[0].capabilities, 0x1e);
	assert_int_equal(log.pg[0].time_enabled, ns(100, 0));
	assert_int_equal(log.pg[1].lock, 8);
	assert_int_equal(log.pg[1].index, FIXED0_INDEX);
	assert_int_equal(log.pg[1].offset, (int64_t)MAXP);
	assert_int_equal(log.pg[1].time_enabled, ns(100, 0));
}

/* CPU clocks that differ need an unstable TSC: while it is stable every
 * CPU has the boot CPU's cyc2ns (cyc2ns_init_secondary_cpus()), and
 * sm_model_new() refuses a per-CPU offset.  With stable = false, CPU 1's
 * clock (sched_clock_cpu()) is 123456 ns ahead; off CPU for 2000 cycles
 * (no task time), sched in on CPU 1 at cycle 3000.  The page carries no
 * time parameters at all (arch_perf_update_userpage() returns before them
 * when !sched_clock_stable()): capabilities = bit0_is_deprecated 0x2 |
 * rdpmc 0x4, time_mult/shift/offset/zero as perf_event_init_userpage()
 * left them (0), pmc_width still written; time_enabled is the task time
 * of the sched out. */
static void test_migrate_time_offset(void **state)
{
	struct sm_config c = pinned_instructions(0);
	struct sm_action a = { .kind = SM_ACT_MIGRATE, .event = SM_AUTO,
	                       .cpu = 1, .counter = SM_AUTO, .cycles = 2000 };
	struct sm_truth t;
	char err[128];
	(void)state;
	c.cpu[1].offset_ns = 123456;
	assert_int_equal(model_init(&m, &c, NULL, NULL, err, sizeof(err)), -1);
	assert_string_equal(err, "config: x86 keeps one cyc2ns for all CPUs "
	                    "while the TSC is stable: CPU clocks must not differ");
	c.stable = false;
	init_model(&m, &c);
	sm_model_advance(m, 1000);
	assert_int_equal(sm_model_apply(m, &a, err, sizeof(err)), 1);
	const struct perf_event_mmap_page *pc = sm_model_page(m, 0);

	/* mmap, sched out, sched in (x86_pmu_start(): twice) */
	assert_int_equal(pc->lock, 8);
	assert_int_equal(pc->index, FIXED0_INDEX);
	assert_int_equal(pc->capabilities, 0x6);
	assert_int_equal(pc->pmc_width, W);
	assert_int_equal(pc->time_mult, 0);
	assert_int_equal(pc->time_shift, 0);
	assert_int_equal(pc->time_zero, 0);
	assert_int_equal(pc->time_offset, 0);
	assert_int_equal(pc->time_enabled, ns(1000, 0));
	assert_int_equal(pc->time_running, ns(1000, 0));
	assert_int_equal(pc->offset, (int64_t)(1000 + MAXP - 1000));

	sm_model_advance(m, 500);
	sm_model_truth(m, 0, &t);
	assert_int_equal(t.count, 1500);
	/* the kernel's time goes on in CPU 1's clock */
	uint64_t want = ns(1000, 0) + ns(3500, 123456) - ns(3000, 123456);
	assert_int_equal(t.enabled, want);
}

/* Preemption: the TSC advances 5000 cycles, task time does not. */
static void test_preempt(void **state)
{
	struct sm_config c = pinned_instructions(0);
	struct sm_truth t;
	(void)state;
	init_model(&m, &c);
	sm_model_advance(m, 100);
	struct sm_action a = { .kind = SM_ACT_PREEMPT, .event = SM_AUTO,
	                       .cpu = SM_AUTO, .counter = SM_AUTO, .cycles = 5000 };
	char err[64];
	assert_int_equal(sm_model_apply(m, &a, err, sizeof(err)), 1);
	assert_int_equal(sm_model_timer(m), 5100);
	sm_model_truth(m, 0, &t);
	assert_int_equal(t.count, 100);
	assert_int_equal(t.enabled, ns(100, 0));
	const struct perf_event_mmap_page *pc = sm_model_page(m, 0);
	assert_int_equal(pc->time_offset, 0 - ns(5100, 0));
	assert_int_equal(pc->time_enabled, ns(100, 0));
}

/* The remote writer: each store of perf_event_update_userpage() is a
 * separate step; the lock is odd in between; offset is first the count. */
static void test_remote_store_order(void **state)
{
	static const char *const order[] = {
		"lock", "index", "offset", "offset", "time_enabled",
		"time_running", "capabilities", "capabilities", "capabilities",
		"pmc_width", "capabilities", "time_mult", "time_shift",
		"time_offset", "capabilities", "time_zero", "lock",
	};
	struct sm_config c = pinned_instructions(0);
	(void)state;
	c.writer = SM_WRITER_REMOTE;
	init_model(&m, &c);
	sm_model_advance(m, 100);
	const struct perf_event_mmap_page *pc = sm_model_page(m, 0);
	assert_int_equal(pc->lock, 2);
	assert_int_equal(act(m, SM_ACT_RESET, 0), 1);
	assert_int_equal(sm_model_pending(m), 17);
	assert_int_equal(pc->lock, 2); /* nothing visible yet */
	for (unsigned k = 0; k < 17; k++) {
		int off = sm_model_store_step(m);
		assert_true(off >= 0);
		assert_string_equal(selfmon_page_field_at((unsigned)off)->name,
		                    order[k]);
		if (k == 0)
			assert_int_equal(pc->lock, 3); /* odd while updating */
		if (k == 2)
			assert_int_equal(pc->offset, 0); /* count, reset to 0 */
		if (k == 3) /* then count - prev_count (zero-extended raw) */
			assert_int_equal(pc->offset,
			                 -(int64_t)(0x800000000001ull + 100));
		if (k == 6) /* cap_user_time cleared first */
			assert_int_equal(pc->capabilities, 0x16);
	}
	assert_int_equal(pc->lock, 4);
	assert_int_equal(pc->capabilities, 0x1e);
	assert_int_equal(sm_model_store_step(m), -1);
}

/* The remote writer and a sched in: both writes of x86_pmu_start() are
 * in flight, in order: the first has 16 stores (index 0: offset is
 * stored once, perf_event_update_userpage() subtracts prev_count only
 * for an index), the second 17.  A reader on another CPU sees the first
 * page whole after 16 of them (lock 6, index 0, offset = count = 100),
 * then the second begin (lock 7) and end (lock 8, fixed0, offset 100 -
 * (u64)-(2^47 - 1 - 100) = MAXP). */
static void test_remote_sched_in(void **state)
{
	struct sm_config c = pinned_instructions(0);
	(void)state;
	c.writer = SM_WRITER_REMOTE;
	init_model(&m, &c);
	sm_model_advance(m, 100);
	assert_int_equal(act(m, SM_ACT_ROTATE_OUT, 0), 1);
	assert_int_equal(act(m, SM_ACT_ROTATE_IN, 0), 1);
	const struct perf_event_mmap_page *pc = sm_model_page(m, 0);
	assert_int_equal(pc->lock, 4); /* the sched out landed, nothing else */
	assert_int_equal(sm_model_pending(m), 33);
	assert_true(sm_model_store_step(m) >= 0);
	assert_int_equal(pc->lock, 5);
	for (unsigned k = 1; k < 16; k++)
		assert_true(sm_model_store_step(m) >= 0);
	assert_int_equal(pc->lock, 6);
	assert_int_equal(pc->index, 0);
	assert_int_equal(pc->offset, 100);
	assert_int_equal(sm_model_store_step(m),
	                 (int)offsetof(struct perf_event_mmap_page, lock));
	assert_int_equal(pc->lock, 7);
	sm_model_flush(m);
	assert_int_equal(pc->lock, 8);
	assert_int_equal(pc->index, FIXED0_INDEX);
	assert_int_equal(pc->offset, (int64_t)MAXP);
	assert_int_equal(sm_model_pending(m), 0);
}

static void test_rdpmc_permission(void **state)
{
	struct sm_config c = pinned_instructions(0);
	uint64_t v;
	(void)state;
	c.user_access = 0; /* sysfs rdpmc = 0 */
	init_model(&m, &c);
	assert_int_equal(sm_model_rdpmc(m, 1u << 30, &v), SM_FAULT_GP);
	assert_int_equal(sm_model_page(m, 0)->index, 0);
	assert_int_equal(sm_model_page(m, 0)->capabilities & 4, 0);

	c.user_access = 1; /* only while an event is mmapped */
	c.event[0].mmap = false;
	init_model(&m, &c);
	assert_int_equal(sm_model_rdpmc(m, 1u << 30, &v), SM_FAULT_GP);
	assert_int_equal(act(m, SM_ACT_MMAP, 0), 1);
	assert_int_equal(sm_model_rdpmc(m, 1u << 30, &v), SM_OK);
	assert_int_equal(sm_model_rdpmc(m, 3, &v), SM_OK);  /* GP 3 exists */
	assert_int_equal(sm_model_rdpmc(m, 4, &v), SM_FAULT_GP);
	assert_int_equal(sm_model_rdpmc(m, (1u << 30) | 3, &v), SM_FAULT_GP);
	assert_int_equal(sm_model_rdpmc(m, (1u << 29), &v), SM_FAULT_GP);

	c.user_access = 2; /* always */
	init_model(&m, &c);
	assert_int_equal(sm_model_rdpmc(m, 0, &v), SM_OK);
}

/* Index encoding of general and fixed counters. */
static void test_index_encoding(void **state)
{
	struct sm_config c;
	(void)state;
	sm_config_default(&c, SM_X86_64);
	add_event(&c, "cycles", SM_EV_CYCLES, SM_AUTO, true);
	add_event(&c, "ref-cycles", SM_EV_REF_CYCLES, SM_AUTO, true);
	add_event(&c, "x", SM_EV_OTHER, 3, true);
	add_event(&c, "y", SM_EV_CYCLES, 1, true);
	add_event(&c, "task-clock", SM_EV_SOFTWARE, SM_AUTO, false);
	init_model(&m, &c);
	assert_int_equal(sm_model_page(m, 0)->index, ((1u << 30) | 1) + 1);
	assert_int_equal(sm_model_page(m, 1)->index, ((1u << 30) | 2) + 1);
	assert_int_equal(sm_model_page(m, 2)->index, 4);
	assert_int_equal(sm_model_page(m, 3)->index, 2);
	assert_int_equal(sm_model_page(m, 4)->index, 0);
	assert_int_equal(sm_model_page(m, 4)->capabilities & 4, 0);
}

/* Disable: sched out (index 0, offset = count), then OFF without another
 * update; enable: back on a counter with a reload. */
static void test_disable_enable(void **state)
{
	struct sm_config c = pinned_instructions(0);
	struct sm_truth t;
	(void)state;
	init_model(&m, &c);
	sm_model_advance(m, 100);
	assert_int_equal(act(m, SM_ACT_DISABLE, 0), 1);
	const struct perf_event_mmap_page *pc = sm_model_page(m, 0);
	assert_int_equal(pc->index, 0);
	assert_int_equal(pc->offset, 100);
	assert_int_equal(pc->lock, 4);
	sm_model_advance(m, 200);
	sm_model_truth(m, 0, &t);
	assert_int_equal(t.count, 100);
	assert_int_equal(t.enabled, ns(100, 0));
	assert_int_equal(act(m, SM_ACT_DISABLE, 0), 0); /* already off */
	assert_int_equal(act(m, SM_ACT_ENABLE, 0), 1);
	assert_int_equal(pc->lock, 8); /* x86_pmu_start() writes twice */
	assert_int_equal(pc->index, FIXED0_INDEX);
	assert_int_equal(pc->offset, (int64_t)(100 + MAXP - 100));
	assert_int_equal(pc->time_enabled, ns(100, 0));
	sm_model_advance(m, 10);
	sm_model_truth(m, 0, &t);
	assert_int_equal(t.enabled, ns(100, 0) + ns(310, 0) - ns(300, 0));
}

/* PERF_EVENT_IOC_PERIOD 1000 on a sampling event (period 5000):
 * __perf_event_period() stops it with an update (count 7, period_left
 * 5000 - 7), sets period_left = 0 and restarts with a reload:
 * x86_perf_event_set_period() takes left = 0 + 1000, prev_count =
 * (u64)-1000, so offset = 7 + 1000 and the counter holds 2^48 - 1000. */
static void test_period(void **state)
{
	struct sm_config c = pinned_instructions(0);
	struct sm_action a = { .kind = SM_ACT_PERIOD, .event = 0,
	                       .cpu = SM_AUTO, .counter = SM_AUTO, .period = 1000 };
	char err[64];
	(void)state;
	c.event[0].period = 5000;
	init_model(&m, &c);
	sm_model_advance(m, 7);
	assert_int_equal(sm_model_apply(m, &a, err, sizeof(err)), 1);
	assert_int_equal(sm_model_page(m, 0)->offset, 7 + 1000);
	assert_int_equal(rdpmc(1u << 30), (1ull << 48) - 1000);
	/* mmap 2; x86_pmu_start() twice: 6; overflow at +1000, reload
	 * 1000 (x86_perf_event_set_period() once): 8 */
	sm_model_advance(m, 1500);
	assert_int_equal(sm_model_page(m, 0)->lock, 8);
	assert_int_equal(rdpmc(1u << 30), (1ull << 48) - 1000 + 500);
}

/* PERF_EVENT_IOC_PERIOD on a counting event: _perf_event_period() returns
 * -EINVAL (!is_sampling_event()) before touching anything.  The page, the
 * counter and the next overflow stay those of the counting period
 * 2^47 - 1: lock 2, offset 2^47 - 1, counter 2^48 - (2^47 - 1) + 7. */
static void test_period_counting_refused(void **state)
{
	struct sm_config c = pinned_instructions(0);
	struct sm_action a = { .kind = SM_ACT_PERIOD, .event = 0,
	                       .cpu = SM_AUTO, .counter = SM_AUTO, .period = 1000 };
	char err[64];
	(void)state;
	init_model(&m, &c);
	sm_model_advance(m, 7);
	assert_int_equal(sm_model_apply(m, &a, err, sizeof(err)), 0);
	const struct perf_event_mmap_page *pc = sm_model_page(m, 0);
	assert_int_equal(pc->lock, 2);
	assert_int_equal(pc->offset, (int64_t)MAXP);
	assert_int_equal(rdpmc(1u << 30), (1ull << 48) - MAXP + 7);
	sm_model_advance(m, 1500); /* no overflow 1000 events later */
	assert_int_equal(pc->lock, 2);
	assert_int_equal(rdpmc(1u << 30), (1ull << 48) - MAXP + 1507);
	/* a sampling event refuses a value with bit 63 set the same way */
	c.event[0].period = 5000;
	init_model(&m, &c);
	a.period = 1ull << 63;
	assert_int_equal(sm_model_apply(m, &a, err, sizeof(err)), 0);
	assert_int_equal(sm_model_page(m, 0)->lock, 2);
}

/* A clock that is not the stable TSC: no time capabilities. */
static void test_unstable_clock(void **state)
{
	struct sm_config c = pinned_instructions(0);
	(void)state;
	c.stable = false;
	init_model(&m, &c);
	assert_int_equal(sm_model_page(m, 0)->capabilities, 0x6);
	assert_int_equal(sm_model_page(m, 0)->time_mult, 0);
}

/* Explicit rotate_out / rotate_in on a chosen counter: out gives index 0
 * and offset = count; in on GP 2 reloads with the remaining period. */
static void test_rotate_out_in(void **state)
{
	struct sm_config c;
	struct sm_action a = { .kind = SM_ACT_ROTATE_IN, .event = 0,
	                       .cpu = SM_AUTO, .counter = 2 };
	char err[64];
	(void)state;
	sm_config_default(&c, SM_X86_64);
	add_event(&c, "branches", SM_EV_OTHER, SM_AUTO, false);
	init_model(&m, &c);
	sm_model_advance(m, 40);
	assert_int_equal(act(m, SM_ACT_ROTATE_OUT, 0), 1);
	const struct perf_event_mmap_page *pc = sm_model_page(m, 0);
	assert_int_equal(pc->index, 0);
	assert_int_equal(pc->offset, 40);
	assert_int_equal(act(m, SM_ACT_ROTATE_OUT, 0), 0); /* not active */
	sm_model_advance(m, 60);
	assert_int_equal(sm_model_apply(m, &a, err, sizeof(err)), 1);
	assert_int_equal(pc->index, 3);
	assert_int_equal(pc->offset, (int64_t)(40 + MAXP - 40));
	assert_int_equal(rdpmc(2), (0 - (MAXP - 40)) & M);
	a.counter = 9; /* no such counter */
	assert_int_equal(sm_model_apply(m, &a, err, sizeof(err)), -1);
}

/* read(2) updates count and prev_count but not the page: the page stays
 * consistent with the sign-extended prev_count of the last reload. */
static void test_read_keeps_page(void **state)
{
	struct sm_config c = pinned_instructions(0);
	(void)state;
	init_model(&m, &c);
	sm_model_advance(m, 30);
	assert_int_equal(act(m, SM_ACT_READ, 0), 1);
	const struct perf_event_mmap_page *pc = sm_model_page(m, 0);
	assert_int_equal(pc->lock, 2);
	assert_int_equal(m->k.ev[0].prev_count, 0x800000000001ull + 30);
	assert_int_equal(m->k.ev[0].count, 30);
	sm_model_advance(m, 5);
	assert_int_equal((uint64_t)pc->offset + sext(rdpmc(1u << 30), W), 35);
}

/* stall: time passes with the task running; a wrap inside the stall is
 * handled at its own cycle. */
static void test_stall_with_wrap(void **state)
{
	struct sm_config c = pinned_instructions(0);
	struct sm_action a = { .kind = SM_ACT_STALL, .event = SM_AUTO,
	                       .cpu = SM_AUTO, .counter = SM_AUTO, .cycles = 500 };
	char err[64];
	struct sm_truth t;
	(void)state;
	c.event[0].left = 200;
	init_model(&m, &c);
	assert_int_equal(sm_model_apply(m, &a, err, sizeof(err)), 1);
	assert_int_equal(sm_model_timer(m), 500);
	const struct perf_event_mmap_page *pc = sm_model_page(m, 0);
	assert_int_equal(pc->lock, 4);
	assert_int_equal(pc->time_offset, 0 - ns(200, 0));
	assert_int_equal(pc->offset, (int64_t)(200 + MAXP));
	sm_model_truth(m, 0, &t);
	assert_int_equal(t.count, 500);
}

/* Linux 6.12: a sampling cpu-clock/task-clock's hw.flags overlays the
 * upper half of hw.hrtimer.function = perf_swevent_hrtimer; x86-64
 * kernel text is 0xffffffff8xxxxxxx, so flags = 0xffffffff and
 * arch_perf_update_userpage() sees PERF_EVENT_FLAG_USER_READ_CNT:
 * cap_user_rdpmc = 1 even with sysfs rdpmc = 0, pmc_width =
 * x86_pmu.cntval_bits as always, index 0 (perf_swevent_event_idx()).
 * By hand: bit0_is_deprecated 0x2 | rdpmc 0x4 | time 0x8 | time_zero 0x10
 * = 0x1e; without the flag 0x1a. */
static void test_sampling_clock_caps(void **state)
{
	static const char *const names[] = { "task-clock", "cpu-clock" };
	(void)state;
	for (int k = 0; k < 2; k++) {
		struct sm_config c;
		sm_config_default(&c, SM_X86_64);
		c.user_access = 0;
		int e = add_event(&c, names[k], SM_EV_SOFTWARE, SM_AUTO, false);
		c.event[e].period = 1000000;
		init_model(&m, &c);
		const struct perf_event_mmap_page *pc = sm_model_page(m, 0);
		assert_int_equal(pc->index, 0);
		assert_int_equal(pc->capabilities, 0x1e);
		assert_int_equal(pc->pmc_width, W);
		uint64_t v;
		/* the flag of a software event does not set CR4.PCE
		 * (x86_pmu_event_mapped() is the x86 PMU's only) */
		assert_int_equal(sm_model_rdpmc(m, 0, &v), SM_FAULT_GP);

		c.event[e].period = 0; /* counting: no hrtimer, flags 0 */
		init_model(&m, &c);
		pc = sm_model_page(m, 0); /* a new model */
		assert_int_equal(pc->index, 0);
		assert_int_equal(pc->capabilities, 0x1a);
		assert_int_equal(pc->pmc_width, W);
	}

	struct sm_config c;
	sm_config_default(&c, SM_X86_64);
	int e = add_event(&c, "context-switches", SM_EV_SOFTWARE, SM_AUTO, false);
	c.event[e].period = 1;
	init_model(&m, &c);
	assert_int_equal(sm_model_page(m, 0)->capabilities, 0x1a);
}

/* Linux 7.2: hw.flags sits at bytes 60..63 of hw_perf_event's union
 * (config1 and dyn_constraint joined the hardware part), under struct
 * hrtimer's is_lazy and padding (its function pointer moved to 72..79):
 * zero for a sampling clock, so arch_perf_update_userpage() writes
 * cap_user_rdpmc = !!(flags & PERF_EVENT_FLAG_USER_READ_CNT) = 0, with
 * rdpmc = 1 and rdpmc = 0 alike: 0x2 | 0x8 | 0x10 = 0x1a; pmc_width is
 * cntval_bits as always. */
static void test_v72_sampling_clock_caps(void **state)
{
	static const char *const names[] = { "task-clock", "cpu-clock" };
	(void)state;
	for (int k = 0; k < 4; k++) {
		struct sm_config c;
		sm_config_default(&c, SM_X86_64);
		c.kernel = 1u << SM_KV_LINUX_7_2;
		c.user_access = k / 2;
		int e = add_event(&c, names[k % 2], SM_EV_SOFTWARE, SM_AUTO, false);
		c.event[e].period = 1000000;
		init_model(&m, &c);
		const struct perf_event_mmap_page *pc = sm_model_page(m, 0);
		assert_int_equal(pc->index, 0);
		assert_int_equal(pc->capabilities, 0x1a);
		assert_int_equal(pc->pmc_width, W);
	}
}

/* Software clocks count ns while they run, not cycles:
 * task_clock_event_update() adds the task context's time since the last
 * update (ctx->time, in ns), cpu_clock_event_update() local_clock()'s.
 * Here both are cyc2ns of the TSC, worked out by hand: __set_cyc2ns_scale()
 * takes clocks_calc_mult_shift(kHz 2900000 -> 10^6 ns/ms, maxsec 0):
 * shift 32 fits, mult = round(10^6 * 2^32 / 2900000), then halved for
 * shift 31; ns = (cyc * mult) >> 31 (+ the CPU's offset, which a
 * difference drops).  The task runs [S, S+2900), is preempted 1000
 * cycles (off its CPU: neither clock counts), runs 5800 more, migrates
 * for 500 cycles to CPU 1 (another offset: an unstable TSC) and runs 1450 there. */
static void test_software_clocks_count_ns(void **state)
{
	const uint64_t S = 1000003; /* not a multiple: rounding shows */
	uint64_t mult32 = ((1000000ull << 32) + 2900000 / 2) / 2900000;
	uint32_t mult = (uint32_t)(mult32 >> 1);
	struct sm_action mig = { .kind = SM_ACT_MIGRATE, .event = 0, .cpu = 1,
	                         .counter = SM_AUTO, .cycles = 500 };
	struct sm_config c;
	struct sm_truth t;
	uint64_t buf[3], want;
	char err[128];
	(void)state;
	assert_int_equal(mult32, 1481023206u);
#define NS(cyc) ((uint64_t)(((unsigned __int128)(cyc) * mult) >> 31))
	sm_config_default(&c, SM_X86_64);
	c.start = S;
	c.stable = false; /* CPU clocks differ only with an unstable TSC */
	c.cpu[1].offset_ns = 777777;
	add_event(&c, "task-clock", SM_EV_SOFTWARE, SM_AUTO, false);
	add_event(&c, "cpu-clock", SM_EV_SOFTWARE, SM_AUTO, false);
	init_model(&m, &c);
	sm_model_advance(m, 2900);
	want = NS(S + 2900) - NS(S);
	assert_int_equal(want, 1000);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(sm_model_read(m, i, buf, sizeof(buf)), 24);
		assert_int_equal(buf[0], want);
		sm_model_truth(m, i, &t);
		assert_int_equal(t.count, want);
	}
	assert_int_equal(act(m, SM_ACT_PREEMPT, 0), 1); /* 1000 cycles off */
	sm_model_advance(m, 5800);
	assert_int_equal(sm_model_apply(m, &mig, err, sizeof(err)), 1);
	sm_model_advance(m, 1450);
	uint64_t a = S + 2900 + 1000, b = a + 5800, d = b + 500;
	want += NS(b) - NS(a) + NS(d + 1450) - NS(d);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(sm_model_read(m, i, buf, sizeof(buf)), 24);
		assert_int_equal(buf[0], want);
		sm_model_truth(m, i, &t);
		assert_int_equal(t.count, want);
	}
	/* task-clock's count is its running time */
	assert_int_equal(sm_model_read(m, 0, buf, sizeof(buf)), 24);
	assert_int_equal(buf[0], buf[2]);
#undef NS
}

/* Hybrid PMUs: CPU 0 a P-core (cpu_core), CPU 1 an E-core (cpu_atom); a
 * pinned instructions event on cpu_core (fixed 0) and an event on
 * cpu_atom.  Opened on CPU 0, the atom event is filtered
 * (visit_groups_merge(): pmu->filter): never scheduled, its page written
 * only by mmap (lock 2, index 0, offset 0, times 0).  1000 cycles in, a
 * migration of 2000 cycles to CPU 1: the sched out writes the core
 * event's page (lock 4, index 0, offset = count = 1000, enabled =
 * running = ns(1000)); on CPU 1 cpu_core is filtered: no write, no ERROR
 * although pinned (INACTIVE), and the atom event goes on GP 0 (index 1)
 * with x86_pmu_start()'s two writes (lock 6, offset 0 - (u64)-MAXP).
 * 500 cycles later read(2) says count 1000, enabled ns(1000) + ns(3500)
 * - ns(3000), running ns(1000); the page's time base is still the sched
 * out at cycle 1000 (time_offset = -ns(1000)), so extrapolating from it
 * gives ns(3500): the 2000 cycles off CPU too.  Back on CPU 0 the core
 * event's sched in writes twice (lock 8, fixed 0, offset = 1000 - (u64)
 * -(MAXP - 1000) = MAXP). */
static void test_hybrid_filter(void **state)
{
	struct sm_config c = pinned_instructions(0);
	struct sm_action a = { .kind = SM_ACT_MIGRATE, .event = SM_AUTO,
	                       .cpu = 1, .counter = SM_AUTO, .cycles = 2000 };
	struct sm_truth t;
	uint64_t v[3];
	char err[128];
	(void)state;
	set_hybrid(&c, "cpu_core", "cpu_atom");
	c.event[0].pmu = 1;
	int at = add_event(&c, "atom", SM_EV_OTHER, SM_AUTO, false);
	assert_int_equal(model_init(&m, &c, NULL, NULL, err, sizeof(err)), -1);
	assert_string_equal(err, "atom: hybrid PMUs: a hardware event needs "
	                    "the PMU of a CPU type");
	c.event[at].pmu = 2;
	init_model(&m, &c);
	const struct perf_event_mmap_page *core = sm_model_page(m, 0);
	const struct perf_event_mmap_page *atom = sm_model_page(m, at);
	assert_int_equal(core->lock, 2);
	assert_int_equal(core->index, FIXED0_INDEX);
	assert_int_equal(atom->lock, 2);
	assert_int_equal(atom->index, 0);
	assert_int_equal(atom->offset, 0);
	assert_int_equal(atom->time_running, 0);
	assert_int_equal(m->k.ev[at].state, SM_INACTIVE);
	assert_int_equal(act(m, SM_ACT_ROTATE_IN, at), 0); /* filtered */

	sm_model_advance(m, 1000);
	assert_int_equal(sm_model_apply(m, &a, err, sizeof(err)), 1);
	assert_int_equal(core->lock, 4);
	assert_int_equal(core->index, 0);
	assert_int_equal(core->offset, 1000);
	assert_int_equal(core->time_enabled, ns(1000, 0));
	assert_int_equal(core->time_running, ns(1000, 0));
	assert_int_equal(core->time_offset, 0 - ns(1000, 0));
	assert_int_equal(m->k.ev[0].state, SM_INACTIVE); /* not ERROR */
	assert_int_equal(atom->lock, 6);
	assert_int_equal(atom->index, 1);
	assert_int_equal(atom->offset, (int64_t)MAXP);

	sm_model_advance(m, 500);
	sm_model_truth(m, 0, &t);
	uint64_t enabled = ns(1000, 0) + ns(3500, 0) - ns(3000, 0);
	assert_int_equal(t.count, 1000);
	assert_int_equal(t.enabled, enabled);
	assert_int_equal(t.running, ns(1000, 0));
	assert_int_equal(sm_model_read(m, 0, v, sizeof(v)), 24);
	assert_int_equal(v[0], 1000);
	assert_int_equal(v[1], enabled);
	assert_int_equal(v[2], ns(1000, 0));
	assert_int_equal(core->lock, 4);
	assert_int_equal(core->time_enabled + core->time_offset +
	                 ns(sm_model_timer(m), 0), ns(3500, 0));
	sm_model_truth(m, at, &t);
	assert_int_equal(t.count, 500);
	assert_int_equal((uint64_t)atom->offset + sext(rdpmc(0), W), 500);

	a.cpu = 0;
	assert_int_equal(sm_model_apply(m, &a, err, sizeof(err)), 1);
	assert_int_equal(core->lock, 8);
	assert_int_equal(core->index, FIXED0_INDEX);
	assert_int_equal(core->offset, (int64_t)MAXP);
	assert_int_equal(atom->lock, 8);
	assert_int_equal(atom->index, 0);
	assert_int_equal(atom->offset, 500);
}

/* A chain of SET_OUTPUT: `c` (5 events a cycle) redirected to `br`,
 * itself redirected to `instructions`.  perf_event_set_output() takes
 * ring_buffer_get(br), which is instructions' buffer: c's page writes
 * land in instructions' page, c has none of its own.  After 1000 cycles
 * an IOC_RESET of c (perf_event_update_userpage(c)) writes c's values
 * there: its counter's index (a general counter: instructions is on
 * fixed 0, br on another), a count of 0 with prev_count the raw counter
 * value (perf_event_reset() leaves it), so the page's offset pairs with
 * the zero-extended counter: 0, then 50 ten cycles on. */
static void test_set_output_chain(void **state)
{
	struct sm_config c;
	(void)state;
	sm_config_default(&c, SM_X86_64);
	add_event(&c, "instructions", SM_EV_INSTRUCTIONS, SM_AUTO, false);
	int br = add_event(&c, "br", SM_EV_OTHER, SM_AUTO, false);
	c.event[br].output = 1;
	c.event[br].mmap = false;
	int ce = add_event(&c, "c", SM_EV_OTHER, SM_AUTO, false);
	c.event[ce].output = (unsigned)br + 1;
	c.event[ce].mmap = false;
	c.event[ce].rate = 5;
	init_model(&m, &c);
	sm_model_advance(m, 1000);
	assert_int_equal(act(m, SM_ACT_RESET, ce), 1);
	const struct perf_event_mmap_page *pc = sm_model_page(m, 0);
	assert_int_equal(sm_model_page(m, ce)->lock, 0);
	uint32_t idx = pc->index;
	assert_true(idx >= 1 && idx <= 4); /* a general counter */
	assert_int_equal((uint64_t)pc->offset + zext(rdpmc(idx - 1), W), 0);
	sm_model_advance(m, 10);
	assert_int_equal((uint64_t)pc->offset + zext(rdpmc(idx - 1), W), 50);
}

/* PERF_EVENT_IOC_SET_OUTPUT: `br` (3 events a cycle) redirected into the
 * buffer of `instructions`.  The build: instructions opened and mmapped
 * (lock 2); br's open reschedules the PMU: instructions out (lock 4),
 * then x86_schedule_events() puts br on GP 0 and instructions on fixed 0
 * and x86_pmu_start() writes instructions twice (lock 8: fixed 0,
 * offset MAXP); br has no buffer until the SET_OUTPUT after its open.
 * 1000 cycles in, a preemption: instructions out (lock 10: index 0,
 * offset 1000), br out, written into the same page (lock 12: index 0,
 * offset 3000); back in, instructions' two writes (lock 16: fixed 0,
 * offset 1000 - (u64)-(MAXP - 1000) = MAXP), then br's two (lock 20:
 * GP 0, index 1, offset 3000 - (u64)-(MAXP - 3000) = MAXP).  A reader
 * of the page: MAXP + sext48(rdpmc(0)) = 3000, br's count, while
 * instructions counted 1000. */
/* x86_pmu_event_init() -> validate_event(): ref-cycles counts only on
 * fixed counter 2, so on a PMU without it no counter can take it and
 * perf_event_open() fails (EINVAL); with it, it opens on fixed 2. */
static void test_no_counter_refused(void **state)
{
	struct sm_config c;
	char err[160];
	(void)state;
	sm_config_default(&c, SM_X86_64);
	c.fixed = 0;
	add_event(&c, "ref", SM_EV_REF_CYCLES, SM_AUTO, false);
	assert_int_equal(model_init(&m, &c, NULL, NULL, err, sizeof(err)), -1);
	assert_string_equal(err, "ref: no counter of this PMU can count this "
	                    "event (perf_event_open() fails: EINVAL)");
	c.fixed = 3;
	init_model(&m, &c);
	assert_int_equal(sm_model_page(m, 0)->index, (1u << 30 | 2) + 1);
}

static void test_set_output(void **state)
{
	struct sm_config c;
	struct sm_truth t;
	struct sm_action a = { .kind = SM_ACT_MMAP, .event = 1, .cpu = SM_AUTO,
	                       .counter = SM_AUTO };
	char err[160];
	(void)state;
	sm_config_default(&c, SM_X86_64);
	add_event(&c, "instructions", SM_EV_INSTRUCTIONS, SM_AUTO, false);
	int br = add_event(&c, "br", SM_EV_OTHER, SM_AUTO, false);
	c.event[br].rate = 3;
	c.event[br].output = 1;
	assert_int_equal(model_init(&m, &c, NULL, NULL, err, sizeof(err)), -1);
	assert_string_equal(err, "br: output= needs an earlier event of the "
	                    "same clock whose buffer is mapped, and no mmap of "
	                    "its own");
	c.event[br].mmap = false;
	init_model(&m, &c);
	const struct perf_event_mmap_page *pc = sm_model_page(m, 0);
	assert_int_equal(pc->lock, 8);
	assert_int_equal(pc->index, FIXED0_INDEX);
	assert_int_equal(pc->offset, (int64_t)MAXP);
	assert_int_equal(sm_model_page(m, br)->lock, 0); /* none of its own */
	assert_int_equal(sm_model_apply(m, &a, err, sizeof(err)), -1);

	sm_model_advance(m, 1000);
	assert_int_equal((uint64_t)pc->offset + sext(rdpmc(1u << 30), W), 1000);
	assert_int_equal(act(m, SM_ACT_PREEMPT, 0), 1);
	assert_int_equal(pc->lock, 20);
	assert_int_equal(pc->index, 1);
	assert_int_equal(pc->offset, (int64_t)MAXP);
	assert_int_equal((uint64_t)pc->offset + sext(rdpmc(0), W), 3000);
	sm_model_truth(m, 0, &t);
	assert_int_equal(t.count, 1000);
	assert_int_equal(sm_model_page(m, br)->lock, 0);
	/* the target's next write of its own puts its values back */
	assert_int_equal(act(m, SM_ACT_RESET, 0), 1);
	assert_int_equal(pc->lock, 22);
	assert_int_equal(pc->index, FIXED0_INDEX);
}

/* Frequency mode and throttling: instructions at freq=1000 with
 * max_samples_per_tick 3, the TSC at 2.9 GHz from 0 (ns(2) = 0, ns(4) =
 * 1, ns(6) = 2).  perf_event_alloc(): period 1; x86_perf_event_set_period()
 * programs at least 2 (offset 2 at mmap).  Interrupts at cycles 2, 4 and
 * 6, each reloading: at 2 the time since the (zero) stamp is 0 ns, no
 * adjustment; at 4, 1 ns for last_period 1: perf_calculate_period() =
 * 1 * 10^9 / (1 * 1000) = 10^6, the period moves an eighth of the way:
 * 1 + (10^6 - 1 + 7) / 8 = 125001; at 6 the reload takes it (period_left
 * -1 + 125001 = 125000: offset 6 + 125000, lock 8), the third interrupt
 * throttles the event, the period moves on to p2 = 125001 + (125001 *
 * 10^6 - 125001 + 7) / 8 and the counter stops with no page write.
 * 100 cycles later the count is still 6.  A tick unthrottles it and, as a
 * frequency event, stops it with an update (6 counted since the tick
 * stamp 0: period 6 * 10^9 / (4 ms * 1000) = 1, p3 = p2 + (1 - p2 - 7) /
 * 8), then starts it with a reload: index 0 and offset = count 6 (lock
 * 10), then fixed 0 and 6 + 125000 (lock 12).  10 cycles on, a tick
 * that counted 10 reloads (lock 16), and one right after it, with
 * nothing counted, starts it without a reload: one write (lock 18) whose
 * offset pairs with the zero-extended counter (prev_count is the raw
 * value read at the stop), as after IOC_RESET. */
static void test_freq_and_throttle(void **state)
{
	struct sm_config c = pinned_instructions(0);
	(void)state;
	c.event[0].pinned = false;
	c.event[0].freq = 1000;
	c.max_samples = 3;
	init_model(&m, &c);
	const struct perf_event_mmap_page *pc = sm_model_page(m, 0);
	assert_int_equal(ns(2, 0), 0);
	assert_int_equal(ns(4, 0), 1);
	assert_int_equal(ns(6, 0), 2);
	assert_int_equal(pc->lock, 2);
	assert_int_equal(pc->offset, 2);
	sm_model_advance(m, 4);
	assert_int_equal(pc->lock, 6);
	assert_int_equal(m->k.ev[0].period, 125001);
	sm_model_advance(m, 2);
	uint64_t p2 = 125001 + (125001ull * 1000000 - 125001 + 7) / 8;
	assert_int_equal(pc->lock, 8);
	assert_int_equal(pc->index, FIXED0_INDEX);
	assert_int_equal(pc->offset, 6 + 125000);
	assert_int_equal(m->k.ev[0].period, p2);
	assert_int_equal(m->k.ev[0].interrupts, SM_MAX_INTERRUPTS);
	sm_model_advance(m, 100);
	struct sm_truth t;
	sm_model_truth(m, 0, &t);
	assert_int_equal(t.count, 6);
	assert_int_equal(pc->lock, 8);
	assert_int_equal((uint64_t)pc->offset + sext(rdpmc(1u << 30), W), 6);

	assert_int_equal(act(m, SM_ACT_TICK, 0), 1);
	int64_t d = (int64_t)(1 - p2) - 7;
	assert_int_equal(m->k.ev[0].period, p2 + (uint64_t)(d / 8));
	assert_int_equal(m->k.ev[0].interrupts, 0);
	assert_int_equal(pc->lock, 12);
	assert_int_equal(pc->index, FIXED0_INDEX);
	assert_int_equal(pc->offset, 6 + 125000);
	sm_model_advance(m, 10);
	assert_int_equal((uint64_t)pc->offset + sext(rdpmc(1u << 30), W), 16);
	sm_model_truth(m, 0, &t);
	assert_int_equal(t.count, 16);

	assert_int_equal(act(m, SM_ACT_TICK, 0), 1);
	assert_int_equal(pc->lock, 16);
	assert_int_equal(act(m, SM_ACT_TICK, 0), 1);
	assert_int_equal(pc->lock, 18);
	uint64_t raw = rdpmc(1u << 30);
	assert_int_equal((uint64_t)pc->offset + zext(raw, W), 16);
	assert_int_equal((uint64_t)pc->offset + sext(raw, W), 16 - (1ull << W));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mmap_page),
		cmocka_unit_test(test_counting_and_time),
		cmocka_unit_test(test_reset_quirk),
		cmocka_unit_test(test_reset_prev_count),
		cmocka_unit_test(test_counter_clash),
		cmocka_unit_test(test_overflow_47),
		cmocka_unit_test(test_overflow_31),
		cmocka_unit_test(test_injected_overflow),
		cmocka_unit_test(test_multiplexing),
		cmocka_unit_test(test_slow_path_moves_running),
		cmocka_unit_test(test_rotation_per_pmu),
		cmocka_unit_test(test_sched_in_writes_twice),
		cmocka_unit_test(test_waiting_event_each_tick),
		cmocka_unit_test(test_migrate_time_offset),
		cmocka_unit_test(test_preempt),
		cmocka_unit_test(test_remote_store_order),
		cmocka_unit_test(test_remote_sched_in),
		cmocka_unit_test(test_rdpmc_permission),
		cmocka_unit_test(test_index_encoding),
		cmocka_unit_test(test_disable_enable),
		cmocka_unit_test(test_period),
		cmocka_unit_test(test_period_counting_refused),
		cmocka_unit_test(test_unstable_clock),
		cmocka_unit_test(test_rotate_out_in),
		cmocka_unit_test(test_enable_pinned_reschedules_pinned),
		cmocka_unit_test(test_read_keeps_page),
		cmocka_unit_test(test_stall_with_wrap),
		cmocka_unit_test(test_sampling_clock_caps),
		cmocka_unit_test(test_v72_sampling_clock_caps),
		cmocka_unit_test(test_hybrid_filter),
		cmocka_unit_test(test_no_counter_refused),
		cmocka_unit_test(test_set_output),
		cmocka_unit_test(test_set_output_chain),
		cmocka_unit_test(test_freq_and_throttle),
		cmocka_unit_test(test_software_clocks_count_ns),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
