/*
 * test_model_riscv.c — the riscv64 rules of docs/kernel-variant.md §2 against values
 * worked out by hand: index = CSR - 0xC00 + 1, counter widths (cycle and
 * instret 64-bit, hpmcounters 48-bit by default), perf_user_access 0/1/2,
 * the masked delta and the time CSR.
 */
#include "testutil.h"
#include "state.h" /* the model's own tests read its state */

static struct sm_model *m;

static struct sm_config rv_cfg(void)
{
	struct sm_config c;
	sm_config_default(&c, SM_RISCV64);
	add_event(&c, "cycles", SM_EV_CYCLES, SM_AUTO, false);
	add_event(&c, "instructions", SM_EV_INSTRUCTIONS, SM_AUTO, false);
	add_event(&c, "l1d", SM_EV_OTHER, SM_AUTO, false);
	return c;
}

static uint64_t csr(unsigned n)
{
	uint64_t v = 0;
	assert_int_equal(sm_model_riscv_csr(m, n, &v), SM_OK);
	return v;
}

static void test_index_and_width(void **state)
{
	struct sm_config c = rv_cfg();
	(void)state;
	init_model(&m, &c);
	const struct perf_event_mmap_page *cy = sm_model_page(m, 0);
	const struct perf_event_mmap_page *in = sm_model_page(m, 1);
	const struct perf_event_mmap_page *hp = sm_model_page(m, 2);

	assert_int_equal(cy->index, 1);  /* CSR 0xC00 */
	assert_int_equal(in->index, 3);  /* CSR 0xC02 */
	assert_int_equal(hp->index, 4);  /* CSR 0xC03, hpmcounter3 */
	assert_int_equal(cy->pmc_width, 64);
	assert_int_equal(hp->pmc_width, 48);
	assert_int_equal(cy->capabilities, 0x3e);
	/* 64-bit cycle: period 2^63 - 1, prev = -(2^63 - 1) */
	assert_int_equal(cy->offset, INT64_MAX);
	assert_int_equal(csr(0xC00), (1ull << 63) + 1);
	/* 48-bit hpm: period 2^47 - 1 */
	assert_int_equal(hp->offset, (int64_t)((1ull << 47) - 1));
	assert_int_equal(csr(0xC03), (1ull << 47) + 1);
	sm_model_advance(m, 40);
	assert_int_equal((uint64_t)hp->offset + sext(csr(0xC03), 48), 40);
	assert_int_equal((uint64_t)cy->offset + csr(0xC00), 40);
	assert_int_equal(csr(0xC01), 40); /* time */
}

static void test_user_access_modes(void **state)
{
	struct sm_config c = rv_cfg();
	uint64_t v;
	(void)state;
	init_model(&m, &c); /* 1: counters with a user-readable event */
	assert_int_equal(sm_model_riscv_csr(m, 0xC04, &v), SM_FAULT_ILL);
	assert_int_equal(sm_model_riscv_csr(m, 0xC00 + 7, &v), SM_FAULT_ILL);

	c.user_access = 2; /* legacy: cycle and instret only, always */
	init_model(&m, &c);
	assert_int_equal(sm_model_page(m, 0)->index, 1);
	assert_int_equal(sm_model_page(m, 2)->index, 0);
	assert_int_equal(sm_model_page(m, 2)->pmc_width, 0);
	assert_int_equal(sm_model_riscv_csr(m, 0xC03, &v), SM_FAULT_ILL);
	assert_int_equal(sm_model_riscv_csr(m, 0xC02, &v), SM_OK);

	c.user_access = 0;
	init_model(&m, &c);
	assert_int_equal(sm_model_page(m, 0)->index, 0);
	assert_int_equal(sm_model_riscv_csr(m, 0xC00, &v), SM_FAULT_ILL);
	assert_int_equal(sm_model_riscv_csr(m, 0xC01, &v), SM_OK);
	assert_int_equal(sm_model_riscv_csr(m, 0xB00, &v), SM_FAULT_ILL);
}

/* A rotation out of hpmcounter3: pmu_sbi_ctr_stop() clears its
 * scounteren bit, so csrr traps.  Variant riscv_keep_scounteren keeps the
 * bit: csrr reads the stopped counter, frozen at 2^47 + 1 + 40, while the
 * page says index 0 (lock 2 -> 4: the seqlock sees the change). */
static void test_keep_scounteren(void **state)
{
	struct sm_config c;
	uint64_t v;
	(void)state;
	sm_config_default(&c, SM_RISCV64);
	add_event(&c, "l1d", SM_EV_OTHER, 3, false);
	for (int keep = 0; keep < 2; keep++) {
		c.kernel = keep ? 1u << SM_KV_RISCV_KEEP_SCOUNTEREN : 0;
		init_model(&m, &c);
		sm_model_advance(m, 40);
		assert_int_equal(csr(0xC03), (1ull << 47) + 1 + 40);
		assert_int_equal(act(m, SM_ACT_ROTATE_OUT, 0), 1);
		sm_model_advance(m, 10);
		assert_int_equal(sm_model_page(m, 0)->index, 0);
		assert_int_equal(sm_model_riscv_csr(m, 0xC03, &v),
		                 keep ? SM_OK : SM_FAULT_ILL);
		if (keep)
			assert_int_equal(v, (1ull << 47) + 1 + 40);
		/* a counter no mapped event used keeps trapping */
		assert_int_equal(sm_model_riscv_csr(m, 0xC04, &v), SM_FAULT_ILL);
	}
}

/* hpm overflow at 48 bits of a sampling event (period 2^47 - 1) with
 * left = 100, and its reload with 2^47 - 1. */
static void test_hpm_overflow_and_reset(void **state)
{
	struct sm_config c = rv_cfg();
	struct sm_truth t;
	(void)state;
	c.event[2].period = (1ull << 47) - 1;
	c.event[2].left = 100;
	init_model(&m, &c);
	const struct perf_event_mmap_page *pc = sm_model_page(m, 2);
	assert_int_equal(csr(0xC03), (1ull << 48) - 100);
	sm_model_advance(m, 130);
	/* perf_mmap() + riscv_pmu_event_mapped(): 4; pmu_sbi_ovf_handler()'s
	 * set_period and pmu_sbi_start_overflow_mask(): 8 */
	assert_int_equal(pc->lock, 8);
	assert_int_equal(pc->offset, (int64_t)(100 + (1ull << 47) - 1));
	sm_model_truth(m, 2, &t);
	assert_int_equal(t.count, 130);
	assert_int_equal((uint64_t)pc->offset + sext(csr(0xC03), 48), 130);
	assert_int_equal(act(m, SM_ACT_RESET, 2), 1);
	sm_model_advance(m, 5);
	assert_int_equal((uint64_t)pc->offset + zext(csr(0xC03), 48), 5);
	assert_int_equal((uint64_t)pc->offset + sext(csr(0xC03), 48),
	                 5 - (1ull << 48));
}

/* riscv_perf_user_access() needs hw.idx != -1.  An event that never had
 * a counter (mmapped while disabled) gets cap_user_rdpmc = 0 and no
 * pmc_width: capabilities = bit0_is_deprecated | time | time_zero |
 * time_short = 0x3a, pmc_width 0.  riscv_pmu_del() writes its page before
 * hw.idx = -1 (cap 1, width 48, index 0: PERF_HES_STOPPED); a later write
 * while scheduled out (IOC_RESET) has cap 0 and leaves the width at 48. */
static void test_cap_needs_counter(void **state)
{
	struct sm_config c = rv_cfg();
	(void)state;
	c.event[2].enabled = false;
	init_model(&m, &c);
	const struct perf_event_mmap_page *pc = sm_model_page(m, 2);
	assert_int_equal(pc->index, 0);
	assert_int_equal(pc->capabilities, 0x3a);
	assert_int_equal(pc->pmc_width, 0);

	c.event[2].enabled = true;
	init_model(&m, &c);
	pc = sm_model_page(m, 2); /* a new model */
	assert_int_equal(pc->capabilities, 0x3e);
	sm_model_advance(m, 10);
	assert_int_equal(act(m, SM_ACT_ROTATE_OUT, 2), 1);
	assert_int_equal(pc->index, 0);
	assert_int_equal(pc->offset, 10);
	assert_int_equal(pc->capabilities, 0x3e);
	assert_int_equal(pc->pmc_width, 48);
	assert_int_equal(act(m, SM_ACT_RESET, 2), 1);
	assert_int_equal(pc->offset, 0);
	assert_int_equal(pc->capabilities, 0x3a);
	assert_int_equal(pc->pmc_width, 48);
}

/* riscv_pmu_event_init(): a counting event's period is half the width
 * mask of counter 0 (hw.idx is -1 there), 2^63 - 1, whatever counter it
 * runs on; riscv_pmu_event_set_period() clamps left to the hpmcounter's
 * (2^48 - 1) >> 1.  After 100 events, out and back in: period_left =
 * 2^63 - 1 - 100, still clamped to 2^47 - 1, so prev_count = -(2^47 - 1),
 * the counter holds 2^48 - (2^47 - 1) = 2^47 + 1 and offset = 100 +
 * 2^47 - 1. */
static void test_counting_period(void **state)
{
	struct sm_config c = rv_cfg();
	(void)state;
	init_model(&m, &c);
	sm_model_advance(m, 100);
	assert_int_equal(act(m, SM_ACT_ROTATE_OUT, 2), 1);
	assert_int_equal(act(m, SM_ACT_ROTATE_IN, 2), 1);
	const struct perf_event_mmap_page *pc = sm_model_page(m, 2);
	assert_int_equal(pc->index, 4);
	assert_int_equal(csr(0xC03), (1ull << 47) + 1);
	assert_int_equal(pc->offset, (int64_t)(100 + (1ull << 47) - 1));
	assert_int_equal(m->k.ev[2].period, (1ull << 63) - 1);
}

/* riscv64 page writes, by hand from drivers/perf/riscv_pmu.c and
 * riscv_pmu_sbi.c (hpmcounter3, index 4, 48 bits):
 * - perf_mmap() writes before riscv_pmu_event_mapped(): the flag
 *   PERF_EVENT_FLAG_USER_READ_CNT is not set yet, so index 0, offset =
 *   count = 0, cap_user_rdpmc 0 (0x3a), no width; then
 *   pmu_sbi_event_mapped() sets it and the page is written again: index
 *   4, offset = 0 - (u64)-(2^47 - 1), 0x3e, width 48.  Locks 2, 4.
 * - riscv_pmu_add() -> riscv_pmu_start(): riscv_pmu_event_set_period(),
 *   then after ctr_start(), then in riscv_pmu_add(): three writes, all
 *   with index 4 and offset 100 + 2^47 - 1 (after 100 events out and back
 *   in; the period 2^63 - 1 clamped).  Locks 8, 10, 12 (out: 6).
 * - pmu_sbi_ovf_handler(): PERF_HES_STOPPED, update, set_period (index 0,
 *   offset = count), then pmu_sbi_start_overflow_mask() writes with index
 *   4.  The injected wrap adds 2^48 - 1 - (2^47 + 1) + 1 = 2^47 - 1
 *   events: count 2^47 + 99, offset then count + 2^47 - 1.  Locks 14,
 *   16. */
static void test_page_writes(void **state)
{
	struct sm_config c = rv_cfg();
	struct page_log log = { 0 };
	char err[128];
	(void)state;
	c.event[2].period = INT64_MAX; /* sampling: the handler reloads it */
	assert_int_equal(model_init(&m, &c, page_log_note, &log, err,
	                               sizeof(err)), 0);
	unsigned k = 0;
	while (k < log.n && log.ev[k] != 2)
		k++;
	assert_true(k + 1 < log.n);
	assert_int_equal(log.ev[k + 1], 2);
	assert_int_equal(log.pg[k].lock, 2);
	assert_int_equal(log.pg[k].index, 0);
	assert_int_equal(log.pg[k].offset, 0);
	assert_int_equal(log.pg[k].capabilities, 0x3a);
	assert_int_equal(log.pg[k].pmc_width, 0);
	assert_int_equal(log.pg[k + 1].lock, 4);
	assert_int_equal(log.pg[k + 1].index, 4);
	assert_int_equal(log.pg[k + 1].offset, (int64_t)((1ull << 47) - 1));
	assert_int_equal(log.pg[k + 1].capabilities, 0x3e);
	assert_int_equal(log.pg[k + 1].pmc_width, 48);

	sm_model_advance(m, 100);
	assert_int_equal(act(m, SM_ACT_ROTATE_OUT, 2), 1);
	log.n = 0;
	assert_int_equal(act(m, SM_ACT_ROTATE_IN, 2), 1);
	assert_int_equal(log.n, 3);
	for (k = 0; k < 3; k++) {
		assert_int_equal(log.pg[k].lock, 8 + 2 * k);
		assert_int_equal(log.pg[k].index, 4);
		assert_int_equal(log.pg[k].offset,
		                 (int64_t)(100 + (1ull << 47) - 1));
	}

	log.n = 0;
	assert_int_equal(act(m, SM_ACT_OVERFLOW, 2), 1);
	assert_int_equal(log.n, 2);
	assert_int_equal(log.pg[0].lock, 14);
	assert_int_equal(log.pg[0].index, 0);
	assert_int_equal(log.pg[0].offset, (int64_t)((1ull << 47) + 99));
	assert_int_equal(log.pg[1].lock, 16);
	assert_int_equal(log.pg[1].index, 4);
	assert_int_equal(log.pg[1].offset,
	                 (int64_t)((1ull << 47) + 99 + (1ull << 47) - 1));
}

/* pmu_sbi_ovf_handler() skips a counting event: at the wrap of a 48-bit
 * hpmcounter started at 2^48 - 100 (left 100) nothing is updated,
 * reloaded or written.  mmap writes the page twice (lock 4, offset
 * 0 - (u64)-100 = 100); 130 events later the counter reads 30 and the
 * page is unchanged: 100 + sext48(30) = 130 is the count, as read(2)'s
 * masked delta (30 - (2^48 - 100)) & (2^48 - 1) = 130 says.  From there
 * (the counter's lower half) an injected wrap would be a burst of
 * 2^48 - 30 events that leaves 100 + 0, 2^48 short: not explored.  After
 * a sched out and in (set_period: the counter at 2^48 - (2^47 - 1), the
 * period 2^63 - 1 clamped to half the mask) the wrap is made from the
 * upper half: the burst 2^47 - 1 - 10 after 10 events, the counter at 0,
 * no page write, and the page's offset alone is the count. */
static void test_counting_wrap_is_silent(void **state)
{
	struct sm_config c = rv_cfg();
	struct page_log log = { 0 };
	struct sm_truth t;
	uint64_t v[3];
	char err[128];
	(void)state;
	c.event[2].left = 100; /* a counting event: no period */
	assert_int_equal(model_init(&m, &c, page_log_note, &log, err,
	                               sizeof(err)), 0);
	const struct perf_event_mmap_page *pc = sm_model_page(m, 2);
	assert_int_equal(pc->lock, 4);
	assert_int_equal(pc->offset, 100);
	assert_int_equal(csr(0xC03), (1ull << 48) - 100);
	log.n = 0;
	sm_model_advance(m, 130);
	assert_int_equal(log.n, 0);  /* no page write at the wrap */
	assert_int_equal(pc->lock, 4);
	assert_int_equal(csr(0xC03), 30);
	assert_int_equal((uint64_t)pc->offset + sext(csr(0xC03), 48), 130);
	sm_model_truth(m, 2, &t);
	assert_int_equal(t.count, 130);
	assert_int_equal(sm_model_read(m, 2, v, sizeof(v)), 24);
	assert_int_equal(v[0], 130);
	assert_int_equal(act(m, SM_ACT_OVERFLOW, 2), 0); /* lower half */

	assert_int_equal(act(m, SM_ACT_ROTATE_OUT, 2), 1);
	assert_int_equal(act(m, SM_ACT_ROTATE_IN, 2), 1);
	assert_int_equal(csr(0xC03), (1ull << 48) - ((1ull << 47) - 1));
	uint64_t lock = pc->lock;
	sm_model_advance(m, 10);
	log.n = 0;
	assert_int_equal(act(m, SM_ACT_OVERFLOW, 2), 1);
	assert_int_equal(log.n, 0);
	assert_int_equal(pc->lock, lock);
	assert_int_equal(csr(0xC03), 0);
	sm_model_truth(m, 2, &t);
	assert_int_equal(t.count, 130 + (1ull << 47) - 1);
	assert_int_equal((uint64_t)pc->offset + sext(csr(0xC03), 48), t.count);
	assert_int_equal(sm_model_read(m, 2, v, sizeof(v)), 24);
	assert_int_equal(v[0], t.count);
	assert_int_equal(act(m, SM_ACT_OVERFLOW, 2), 0); /* once */
}

/* riscv_perf_user_access() tests attr.type before hw.flags, so the 6.12
 * overlay of a sampling clock event's hrtimer.function on hw.flags
 * (arm64 and x86 see PERF_EVENT_FLAG_USER_READ_CNT there) never reaches
 * the page: bit0_is_deprecated 0x2 | time 0x8 | time_zero 0x10 |
 * time_short 0x20 = 0x3a, pmc_width not written. */
static void test_sampling_clock_caps(void **state)
{
	struct sm_config c = rv_cfg();
	(void)state;
	int e = add_event(&c, "task-clock", SM_EV_SOFTWARE, SM_AUTO, false);
	c.event[e].period = 1000000;
	init_model(&m, &c);
	assert_int_equal(sm_model_page(m, e)->index, 0);
	assert_int_equal(sm_model_page(m, e)->capabilities, 0x3a);
	assert_int_equal(sm_model_page(m, e)->pmc_width, 0);
}

/* The SBI PMU snapshot extension (pmu snapshot=yes): a sampling hpm
 * event (counter 3, index 4) with period 1000 and left 100.  mmap writes
 * twice (lock 4, offset 0 - (u64)-100 = 100).  The counter wraps after
 * 100 events: pmu_sbi_ovf_handler() updates count = 100 and reloads
 * (left = period = 1000, prev_count = -1000, the counter at 2^48 - 1000)
 * with the event PERF_HES_STOPPED: the page gets index 0 and offset =
 * count = 100 (lock 6).  pmu_sbi_start_ovf_ctrs_snapshot() restarts the
 * counter with no page write, so 30 events later the page still says
 * index 0 and 100 while the count is 130 (read(2) says so); the counter
 * itself stays readable.  Without the snapshot
 * pmu_sbi_start_ovf_ctrs_sbi() writes the page again (lock 8): index 4
 * and offset 100 - (u64)-1000 = 1100, and 1100 + sext48(2^48 - 970) =
 * 130.  The next sched in (rotate out and in) brings the index back. */
static void test_sbi_snapshot(void **state)
{
	struct sm_config c;
	uint64_t v[3], raw;
	(void)state;
	sm_config_default(&c, SM_RISCV64);
	add_event(&c, "l1d", SM_EV_OTHER, 3, false);
	c.event[0].period = 1000;
	c.event[0].left = 100;
	for (int snap = 0; snap < 2; snap++) {
		c.sbi_snapshot = snap;
		init_model(&m, &c);
		const struct perf_event_mmap_page *pc = sm_model_page(m, 0);
		assert_int_equal(pc->lock, 4);
		assert_int_equal(pc->index, 4);
		assert_int_equal(pc->offset, 100);
		sm_model_advance(m, 130);
		assert_int_equal(sm_model_riscv_csr(m, 0xC03, &raw), SM_OK);
		assert_int_equal(raw, (1ull << 48) - 1000 + 30);
		assert_int_equal(pc->lock, snap ? 6 : 8);
		assert_int_equal(pc->index, snap ? 0 : 4);
		assert_int_equal(pc->offset, snap ? 100 : 1100);
		if (!snap)
			assert_int_equal((uint64_t)pc->offset + sext(raw, 48), 130);
		assert_int_equal(sm_model_read(m, 0, v, sizeof(v)), 24);
		assert_int_equal(v[0], 130);
		assert_int_equal(act(m, SM_ACT_ROTATE_OUT, 0), 1);
		assert_int_equal(act(m, SM_ACT_ROTATE_IN, 0), 1);
		/* riscv_pmu_add(): the index is back, offset = count -
		 * prev_count with prev_count -(1000 - 30) after the update */
		assert_int_equal(pc->index, 4);
		assert_int_equal(pc->offset, 130 + 970);
	}
}

/* Throttling is ineffective on riscv64: max_samples_per_tick 1, a
 * sampling hpm event (counter 3) with period 100, left 100.  Its first
 * interrupt (cycle 100) throttles it (hw.interrupts = MAX_INTERRUPTS),
 * but pmu_sbi_ovf_handler() ignores perf_event_overflow()'s return and
 * restarts the counter: it counts on (2^48 - 100 + 50 at cycle 150) and
 * interrupts again at 200 (MAX_INTERRUPTS + 1 wraps to 0: not
 * throttled) and at 300 (1: throttled again).  The same on x86 stops the counter: frozen at
 * -100 & (2^48 - 1) after the first interrupt, no more interrupts. */
static void throttle_model(enum sm_arch arch, int counter)
{
	struct sm_config c;

	sm_config_default(&c, arch);
	add_event(&c, "l1d", SM_EV_OTHER, counter, false);
	c.event[0].period = 100;
	c.event[0].left = 100;
	c.max_samples = 1;
	init_model(&m, &c);
	sm_model_advance(m, 150);
}

static void test_throttle_ineffective(void **state)
{
	struct sm_truth t;
	uint64_t raw;
	(void)state;
	throttle_model(SM_RISCV64, 3);
	assert_int_equal(m->k.ev[0].interrupts, SM_MAX_INTERRUPTS);
	assert_false(m->k.ev[0].throttled);
	assert_int_equal(sm_model_riscv_csr(m, 0xC03, &raw), SM_OK);
	assert_int_equal(raw, (1ull << 48) - 100 + 50);
	sm_model_truth(m, 0, &t);
	assert_int_equal(t.count, 150);
	sm_model_advance(m, 50);
	assert_int_equal(sm_model_riscv_csr(m, 0xC03, &raw), SM_OK);
	assert_int_equal(raw, (1ull << 48) - 100);
	assert_int_equal(m->k.ev[0].interrupts, 0);
	sm_model_advance(m, 100);
	assert_int_equal(m->k.ev[0].interrupts, SM_MAX_INTERRUPTS);
	sm_model_truth(m, 0, &t);
	assert_int_equal(t.count, 300);

	throttle_model(SM_X86_64, 0);
	assert_true(m->k.ev[0].throttled);
	assert_int_equal(sm_model_rdpmc(m, 0, &raw), SM_OK);
	assert_int_equal(raw, (1ull << 48) - 100);
	sm_model_truth(m, 0, &t);
	assert_int_equal(t.count, 100);
	assert_int_equal(sm_model_next_activity(m), ~0ull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_index_and_width),
		cmocka_unit_test(test_keep_scounteren),
		cmocka_unit_test(test_user_access_modes),
		cmocka_unit_test(test_hpm_overflow_and_reset),
		cmocka_unit_test(test_cap_needs_counter),
		cmocka_unit_test(test_counting_period),
		cmocka_unit_test(test_page_writes),
		cmocka_unit_test(test_counting_wrap_is_silent),
		cmocka_unit_test(test_sampling_clock_caps),
		cmocka_unit_test(test_sbi_snapshot),
		cmocka_unit_test(test_throttle_ineffective),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
