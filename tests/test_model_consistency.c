/*
 * test_model_consistency.c — seeded random sequences of kernel actions on
 * all three arches.  After every step:
 *   1. the kernel's own accounting (read(2) on a copy of the model) equals
 *      the independent tally of counted events and the context times;
 *   2. the page, read the way the ABI documents it (offset + counter
 *      sign-extended from pmc_width, time_enabled/time_running + the delta
 *      from the time fields and the timer), gives exactly that truth —
 *      except right after IOC_RESET, where the counter must be
 *      zero-extended instead (the reset quirk of docs/kernel-variant.md §2).
 * Events that are OFF or in ERROR are skipped for (2): their page is
 * legitimately stale (no update follows the state change).
 *   3. the truth over a span of instants before the next activity
 *      (sm_model_truth_span(), what the explorer's window is made of)
 *      equals read(2) on a copy of the model moved on to each instant.
 * A second set of runs switches on what makes pages legitimately wrong
 * (hybrid PMUs, a SET_OUTPUT redirection, riscv64's SBI snapshot): there
 * (2) is left out, and (1), (3) and the snapshots still hold.
 */
#include "testutil.h"
#include "state.h" /* the model's own tests read its state */

static struct sm_model *m, *copy, *twin;
static uint64_t rng = 88172645463325252ull;

static uint64_t rnd(uint64_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng % n;
}

static uint64_t counter(uint32_t index)
{
	uint64_t v = 0;
	enum sm_fault f;
	switch (m->cfg->arch) {
	case SM_X86_64: f = sm_model_rdpmc(m, index - 1, &v); break;
	case SM_ARM64: f = sm_model_arm64_counter(m, index - 1, &v); break;
	default: f = sm_model_riscv_csr(m, 0xC00 + index - 1, &v); break;
	}
	assert_int_equal(f, SM_OK);
	return v;
}

/* The uapi header's reader, written out, with the reference reader's
 * one addition (reader/selfmon.c): a count that comes out negative is
 * 2^width short.  That is the page after an update without a reload
 * (IOC_RESET: prev_count unextended) and, on riscv64, after a counting
 * event's counter wrapped with no kernel activity. */
static void page_read(int ev, struct sm_truth *out)
{
	const struct perf_event_mmap_page *pc = sm_model_page(m, ev);
	uint64_t count = (uint64_t)pc->offset, delta = 0;

	assert_int_equal(pc->lock & 1, 0);
	if (pc->index) {
		uint64_t raw = counter(pc->index);
		count += sext(raw, pc->pmc_width);
		if ((int64_t)count < 0 && pc->pmc_width < 64)
			count += 1ull << pc->pmc_width;
	}
	if (pc->cap_user_time) {
		uint64_t cyc = sm_model_timer(m);
		if (pc->cap_user_time_short)
			cyc = pc->time_cycles + ((cyc - pc->time_cycles) & pc->time_mask);
		delta = pc->time_offset + mulshr(cyc, pc->time_mult, pc->time_shift);
	}
	out->count = count;
	out->enabled = pc->time_enabled + delta;
	out->running = pc->time_running + (pc->index ? delta : 0);
}

static bool page_checks = true; /* (2): off for the runs with features */

static void check_all(void)
{
	for (unsigned i = 0; i < m->cfg->nevents; i++) {
		struct sm_truth t, p;
		uint64_t buf[3];
		sm_model_truth(m, (int)i, &t);
		sm_model_copy(copy, m);
		assert_int_equal(sm_model_read(copy, (int)i, buf, sizeof(buf)), 24);
		assert_int_equal(buf[0], t.count);
		assert_int_equal(buf[1], t.enabled);
		assert_int_equal(buf[2], t.running);
		assert_true(t.running <= t.enabled);
		if (!page_checks || m->k.ev[i].state < SM_INACTIVE ||
		    m->k.ev[i].cfg->type == SM_EV_SOFTWARE)
			continue;
		page_read((int)i, &p);
		assert_int_equal(p.count, t.count);
		assert_int_equal(p.enabled, t.enabled);
		assert_int_equal(p.running, t.running);
	}
}

struct words {
	uint64_t w[4096];
	size_t n;
};

static void put_words(void *h, const uint64_t *w, size_t n)
{
	struct words *b = h;
	assert_true(b->n + n <= sizeof(b->w) / sizeof(b->w[0]));
	memcpy(b->w + b->n, w, n * sizeof(w[0]));
	b->n += n;
}

static struct words wa, wb;
static struct sm_snapshot snap;

/* Equal state, as pruning sees it, and equal pages. */
static void same_state(const struct sm_model *a, const struct sm_model *b)
{
	wa.n = wb.n = 0;
	sm_model_state_words(a, put_words, &wa);
	sm_model_state_words(b, put_words, &wb);
	assert_int_equal(wa.n, wb.n);
	assert_memory_equal(wa.w, wb.w, wa.n * sizeof(wa.w[0]));
	for (unsigned i = 0; i < a->cfg->nevents; i++)
		assert_memory_equal(sm_model_page(a, (int)i), sm_model_page(b, (int)i),
		                    sizeof(struct perf_event_mmap_page));
}

static void check_span(void)
{
	enum { N = 48 };
	struct sm_truth span[N];
	uint64_t deadline = sm_model_next_activity(m), buf[3];

	for (unsigned i = 0; i < m->cfg->nevents; i++) {
		sm_model_truth_span(m, (int)i, m->k.now, N, span);
		for (unsigned k = 0; k < N && m->k.now + k < deadline; k++) {
			sm_model_copy(copy, m);
			sm_model_advance(copy, k);
			assert_int_equal(sm_model_read(copy, (int)i, buf, sizeof(buf)),
			                 24);
			assert_int_equal(buf[0], span[k].count);
			assert_int_equal(buf[1], span[k].enabled);
			assert_int_equal(buf[2], span[k].running);
		}
	}
}

static const enum sm_action_kind kinds[] = {
	SM_ACT_OVERFLOW, SM_ACT_ROTATE, SM_ACT_ROTATE_OUT, SM_ACT_ROTATE_IN,
	SM_ACT_PREEMPT, SM_ACT_MIGRATE, SM_ACT_RESET, SM_ACT_STALL,
	SM_ACT_PERIOD, SM_ACT_READ, SM_ACT_DISABLE, SM_ACT_ENABLE,
	SM_ACT_CLOCK_EPOCH,
};

/* Hybrid PMUs on x86-64 and arm64 (CPU 0 of one type, CPU 1 of the
 * other, each hardware event on one of them), the fourth event redirected
 * into the third's buffer, on riscv64 the SBI snapshot, the first event
 * in frequency mode and a low max_samples_per_tick (throttling; the
 * runs add ticks). */
static void add_features(struct sm_config *c)
{
	c->event[0].left = 0;
	c->event[0].freq = 1 + rnd(100000);
	c->max_samples = 2 + rnd(6);
	if (c->arch == SM_RISCV64) {
		c->sbi_snapshot = true;
	} else {
		set_hybrid(c, "cpu_core", "cpu_atom");
		for (unsigned i = 0; i < c->nevents; i++)
			c->event[i].pmu = c->event[i].type == SM_EV_SOFTWARE
			                  ? 0 : 1 + (unsigned)rnd(2);
	}
	c->event[3].output = 3;
	c->event[3].mmap = false;
}

static void random_run(enum sm_arch arch, bool features)
{
	struct sm_config c;
	char err[128];

	sm_config_default(&c, arch);
	c.gp = 2;
	c.fixed = 1;
	c.start = rnd(1ull << 40);
	/* the timer wraps now and then: riscv64's made 40 bits wide; arm64's
	 * width is the kernel's for its rate (61 at 1 GHz), so it starts
	 * within 2^18 cycles (a run's length) of the wrap */
	if (arch == SM_RISCV64)
		c.timer_width = 40;
	if (arch == SM_ARM64)
		c.start = (1ull << c.timer_width) - 1 - (c.start & 0x3ffff);
	/* no per-CPU clock offset: x86 keeps one cyc2ns for all CPUs while
	 * the TSC is stable (the model refuses one that differs), arm64 and
	 * riscv64 one sched_clock; the draw keeps the random sequence */
	(void)rnd(1000000);
	c.mux_interval = rnd(2) ? 0 : 500 + rnd(3000);
	int e = add_event(&c, "instructions", SM_EV_INSTRUCTIONS, SM_AUTO, false);
	c.event[e].left = 1 + rnd(5000);
	add_event(&c, "cycles", SM_EV_CYCLES, SM_AUTO, false);
	e = add_event(&c, "other", SM_EV_OTHER, SM_AUTO, false);
	c.event[e].rate = 1 + (uint32_t)rnd(3);
	add_event(&c, "more", SM_EV_OTHER, SM_AUTO, false);
	/* a software clock: its ns tally against its own clock reads */
	add_event(&c, rnd(2) ? "task-clock" : "cpu-clock", SM_EV_SOFTWARE,
	          SM_AUTO, false);
	if (arch == SM_ARM64 && rnd(2))
		c.long_counters = true;
	if (features)
		add_features(&c);
	page_checks = !features;
	assert_int_equal(model_init(&m, &c, NULL, NULL, err, sizeof(err)), 0);
	sm_model_free(copy); /* copies: no observer */
	sm_model_free(twin);
	copy = sm_model_new(&c, NULL, NULL, err, sizeof(err));
	twin = sm_model_new(&c, NULL, NULL, err, sizeof(err));
	assert_non_null(copy);
	assert_non_null(twin);
	check_all();
	for (int step = 0; step < 60; step++) {
		struct sm_action a = {
			.kind = kinds[rnd(sizeof(kinds) / sizeof(kinds[0]))],
			.event = (int)rnd(c.nevents), .cpu = SM_AUTO,
			.counter = SM_AUTO, .cycles = 1 + rnd(3000),
			.period = 1 + rnd(10000),
		};
		if (a.kind == SM_ACT_CLOCK_EPOCH && arch == SM_X86_64)
			continue;
		if (features && rnd(4) == 0)
			a.kind = SM_ACT_TICK;
		/* IOC_PERIOD of a frequency event is refused (not modelled) */
		if (a.kind == SM_ACT_PERIOD && c.event[a.event].freq)
			continue;
		/* a snapshot restored runs on as the model it was taken of */
		sm_model_save(m, &snap);
		sm_model_restore(twin, &snap);
		assert_true(sm_model_apply(m, &a, err, sizeof(err)) >= 0);
		assert_true(sm_model_apply(twin, &a, err, sizeof(err)) >= 0);
		uint64_t adv = rnd(2000);
		sm_model_advance(twin, adv);
		check_all();
		check_span();
		sm_model_advance(m, adv);
		same_state(m, twin);
		check_all();
	}
}

static void test_random_x86(void **state)
{
	(void)state;
	for (int i = 0; i < 150; i++)
		random_run(SM_X86_64, false);
}

static void test_random_arm64(void **state)
{
	(void)state;
	for (int i = 0; i < 150; i++)
		random_run(SM_ARM64, false);
}

static void test_random_riscv(void **state)
{
	(void)state;
	for (int i = 0; i < 150; i++)
		random_run(SM_RISCV64, false);
}

static void test_random_features(void **state)
{
	(void)state;
	for (int i = 0; i < 60; i++)
		for (enum sm_arch a = 0; a < SM_NARCH; a++)
			random_run(a, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_x86),
		cmocka_unit_test(test_random_arm64),
		cmocka_unit_test(test_random_riscv),
		cmocka_unit_test(test_random_features),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
