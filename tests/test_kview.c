/*
 * test_kview.c — the kernel state the page does not show
 * (sm_model_kview(), model/kview.c) against values worked out by hand
 * from the kernel's code for short action sequences: riscv64's scounteren
 * bit cleared by a rotation out and set again by the rotation in, with
 * prev_count and period_left as riscv_pmu_event_set_period() and
 * riscv_pmu_event_update() leave them; x86's CR4.PCE cleared by the
 * munmap of the last mapping; arm64's PMUSERENR_EL0 (and PMUACR_EL1 on
 * Linux 7.2 with PMUv3.9); and the one line the listing prints.
 */
#include "testutil.h"
#include "state.h" /* the model's own tests read its state */

static struct sm_model *m;

static void view(struct sm_kview *v)
{
	sm_model_kview(m, v);
}

static void says(const struct sm_kview *a, const struct sm_kview *b,
                 enum sm_action_kind why, const char *want)
{
	struct sm_kchange c[SM_KVIEW_MAX_ITEMS];
	char line[1024];
	unsigned n = sm_kview_diff(m->cfg, a, b, c);

	sm_kview_change_text(m->cfg, why, c, n, line, sizeof(line));
	if (!strstr(line, want))
		fail_msg("'%s' lacks '%s'", line, want);
}

/* One event of type other on hpmcounter3 (48 bits), perf_user_access 1.
 * riscv_pmu_event_init(): a counting event's sample_period is the width
 * mask of counter 0 (idx -1 at init: 64 bits) >> 1, so period_left =
 * 2^63 - 1; riscv_pmu_event_set_period() clamps left to the hpm's mask
 * >> 1 = 2^47 - 1 and sets prev_count = -left.  pmu_sbi_starting_cpu()
 * wrote scounteren = TM (0x2); pmu_sbi_ctr_start() of the mapped event
 * sets bit 3: 0xa. */
static void test_riscv_rotate(void **state)
{
	struct sm_config c;
	struct sm_kview a, b, d;
	const uint64_t left = (1ull << 47) - 1;
	(void)state;
	sm_config_default(&c, SM_RISCV64);
	c.user_access = 1;
	c.width = 48;
	add_event(&c, "l1d", SM_EV_OTHER, SM_AUTO, false);
	init_model(&m, &c);
	view(&a);
	assert_int_equal(a.ev[0].state, SM_ACTIVE);
	assert_int_equal(a.ev[0].counter, 3);
	assert_int_equal(a.ev[0].count, 0);
	assert_int_equal(a.ev[0].prev_count, (uint64_t)-(int64_t)left);
	assert_int_equal(a.ev[0].period_left, INT64_MAX);
	assert_int_equal(a.access, 0xa);
	assert_int_equal(a.user_access, 1);
	assert_int_equal(a.nevents, 1);
	assert_false(a.has_pmuacr);

	/* 1000 cycles at one event a cycle, then event_sched_out() ->
	 * riscv_pmu_stop(): riscv_pmu_event_update() reads the counter,
	 * 2^48 - left + 1000 (48 bits), as prev_count, adds the masked delta
	 * 1000 to count, takes it from period_left; pmu_sbi_ctr_stop()
	 * clears scounteren bit 3 (pmu_sbi_reset_scounteren()) */
	sm_model_advance(m, 1000);
	assert_int_equal(act(m, SM_ACT_ROTATE_OUT, 0), 1);
	view(&b);
	assert_int_equal(b.ev[0].state, SM_INACTIVE);
	assert_int_equal(b.ev[0].counter, -1);
	assert_int_equal(b.ev[0].count, 1000);
	assert_int_equal(b.ev[0].prev_count, (1ull << 48) - left + 1000);
	assert_int_equal(b.ev[0].period_left, INT64_MAX - 1000);
	assert_int_equal(b.access, 0x2);
	says(&a, &b, SM_ACT_ROTATE_OUT, "l1d: state ACTIVE -> INACTIVE, "
	     "counter 3 (hpmcounter3) -> none, count 0 -> 1000");
	says(&a, &b, SM_ACT_ROTATE_OUT, "; scounteren bit 3 (HPM3) cleared "
	     "(pmu_sbi_ctr_stop() -> pmu_sbi_reset_scounteren())");

	/* riscv_pmu_start(): set_period again (prev_count -left), and
	 * pmu_sbi_ctr_start() sets bit 3 */
	assert_int_equal(act(m, SM_ACT_ROTATE_IN, 0), 1);
	view(&d);
	assert_int_equal(d.ev[0].state, SM_ACTIVE);
	assert_int_equal(d.ev[0].counter, 3);
	assert_int_equal(d.ev[0].count, 1000);
	assert_int_equal(d.ev[0].prev_count, (uint64_t)-(int64_t)left);
	assert_int_equal(d.access, 0xa);
	says(&b, &d, SM_ACT_ROTATE_IN, "scounteren bit 3 (HPM3) set "
	     "(pmu_sbi_ctr_start() -> pmu_sbi_set_scounteren())");

	/* variant riscv_keep_scounteren: the stop leaves the bit, so the
	 * line says nothing of scounteren */
	c.kernel = 1u << SM_KV_RISCV_KEEP_SCOUNTEREN;
	init_model(&m, &c);
	assert_int_equal(act(m, SM_ACT_ROTATE_OUT, 0), 1);
	view(&b);
	assert_int_equal(b.ev[0].state, SM_INACTIVE);
	assert_int_equal(b.access, 0xa);

	/* legacy access (2): CY|TM|IR written at start, never changed */
	c.kernel = 0;
	c.user_access = 2;
	init_model(&m, &c);
	view(&a);
	assert_int_equal(a.access, 0x7);
}

/* Two mapped instructions events under sysfs rdpmc 1: CR4.PCE is set
 * while mm->context.perf_rdpmc_allowed is not 0 (x86_pmu_event_mapped(),
 * cr4_update_pce_mm()); the munmap of the first leaves it at 1, of the
 * last drops it to 0 (x86_pmu_event_unmapped()).  The events stay ACTIVE
 * on their counters.  x86_perf_event_set_period() of a counting event
 * (sample_period = x86_pmu.max_period) sets prev_count = -max_period. */
static void test_x86_munmap(void **state)
{
	struct sm_config c;
	struct sm_kview a, b, d;
	uint64_t v;
	(void)state;
	sm_config_default(&c, SM_X86_64);
	c.user_access = 1;
	add_event(&c, "a", SM_EV_OTHER, 0, false);
	add_event(&c, "b", SM_EV_OTHER, 1, false);
	init_model(&m, &c);
	view(&a);
	assert_int_equal(a.access, 1);
	assert_int_equal(a.ev[0].counter, 0);
	assert_int_equal(a.ev[1].counter, 1);
	assert_int_equal(a.ev[0].prev_count, (uint64_t)-(int64_t)c.max_period);
	assert_int_equal(a.ev[0].period_left, (int64_t)c.max_period);
	assert_int_equal(act(m, SM_ACT_MUNMAP, 0), 1);
	view(&b);
	assert_int_equal(b.access, 1);
	assert_int_equal(sm_model_rdpmc(m, 0, &v), SM_OK);
	struct sm_action un1 = { .kind = SM_ACT_MUNMAP, .event = 1 };
	char err[128];
	assert_int_equal(sm_model_apply(m, &un1, err, sizeof(err)), 1);
	view(&d);
	assert_int_equal(d.access, 0);
	assert_int_equal(d.ev[0].state, SM_ACTIVE);
	assert_int_equal(d.ev[1].state, SM_ACTIVE);
	assert_int_equal(d.ev[1].counter, 1);
	assert_int_equal(sm_model_rdpmc(m, 0, &v), SM_FAULT_GP);
	says(&b, &d, SM_ACT_MUNMAP, "CR4.PCE cleared (x86_pmu_event_unmapped() "
	     "-> cr4_update_pce())");

	/* sysfs rdpmc 2: rdpmc_always_available_key, whatever is mapped */
	c.user_access = 2;
	init_model(&m, &c);
	assert_int_equal(act(m, SM_ACT_MUNMAP, 0), 1);
	struct sm_action un = { .kind = SM_ACT_MUNMAP, .event = 1 };
	assert_int_equal(sm_model_apply(m, &un, err, sizeof(err)), 1);
	view(&a);
	assert_int_equal(a.access, 1);
}

/* arm64 6.12: armv8pmu_start() writes PMUSERENR_EL0 = ER|CR (0xc) while
 * perf_user_access is 1 and ctx->nr_user counts a mapped event with
 * config1 bit 1; 6.12 has no event_unmapped(), so a munmap leaves it.
 * Linux 7.2 with FEAT_PMUv3p9: ER|CR|UEN (0x1c) and PMUACR_EL1 with the
 * bit of each counter whose event has user read (C, bit 31, for
 * PMCCNTR_EL0), rewritten at each start: a disable clears it. */
static void test_arm64(void **state)
{
	struct sm_config c;
	struct sm_kview a, b;
	(void)state;
	sm_config_default(&c, SM_ARM64);
	c.user_access = 1;
	add_event(&c, "cycles", SM_EV_CYCLES, SM_AUTO, false);
	init_model(&m, &c);
	view(&a);
	assert_int_equal(a.access, 0xc);
	assert_int_equal(a.ev[0].counter, SM_ARM64_CYCLE);
	assert_false(a.has_pmuacr);
	assert_int_equal(act(m, SM_ACT_MUNMAP, 0), 1);
	view(&b);
	assert_int_equal(b.access, 0xc);

	c.user_access = 0;
	init_model(&m, &c);
	view(&a);
	assert_int_equal(a.access, 0);

	c.user_access = 1;
	c.kernel = 1u << SM_KV_LINUX_7_2;
	c.pmuv3p9 = true;
	c.long_counters = true;
	init_model(&m, &c);
	view(&a);
	assert_true(a.has_pmuacr);
	assert_int_equal(a.access, 0x1c);
	assert_int_equal(a.pmuacr, 1u << 31);
	assert_int_equal(act(m, SM_ACT_DISABLE, 0), 1);
	view(&b);
	assert_int_equal(b.ev[0].state, SM_OFF);
	assert_int_equal(b.pmuacr, 0);
	assert_int_equal(b.access, 0x1c);
	says(&a, &b, SM_ACT_DISABLE, "cycles: state ACTIVE -> OFF, counter 31 "
	     "(PMCCNTR_EL0) -> none");
	says(&a, &b, SM_ACT_DISABLE, "; PMUACR_EL1 bit 31 (C) cleared "
	     "(armv8pmu_start() -> armv8pmu_enable_user_access())");
}

/* The items: names, and the view read back item by item. */
static void test_items(void **state)
{
	struct sm_config c;
	struct sm_kview a;
	char buf[200];
	(void)state;
	sm_config_default(&c, SM_RISCV64);
	c.user_access = 1;
	add_event(&c, "l1d", SM_EV_OTHER, SM_AUTO, false);
	add_event(&c, "l2", SM_EV_OTHER, SM_AUTO, false);
	init_model(&m, &c);
	view(&a);
	assert_int_equal(sm_kview_nitems(m->cfg), 2 * 5 + 3);
	sm_kview_item_key(m->cfg, 6, buf, sizeof(buf));
	assert_string_equal(buf, "ev1.counter");
	sm_kview_item_label(m->cfg, 6, buf, sizeof(buf));
	assert_string_equal(buf, "l2: counter");
	assert_int_equal(sm_kview_item(m->cfg, &a, 6), 4); /* hpmcounter4 */
	sm_kview_item_text(m->cfg, 6, 4, buf, sizeof(buf));
	assert_string_equal(buf, "4 (hpmcounter4)");
	sm_kview_item_key(m->cfg, 10, buf, sizeof(buf));
	assert_string_equal(buf, "scounteren");
	assert_int_equal(sm_kview_item(m->cfg, &a, 10), 0x1a); /* TM|3|4 */
	sm_kview_item_note(m->cfg, 10, 0x1a, buf, sizeof(buf));
	assert_string_equal(buf, "csrr of time, hpmcounter3, hpmcounter4 "
	                    "allowed; of any other counter, SIGILL");
	sm_kview_item_text(m->cfg, 0, SM_INACTIVE, buf, sizeof(buf));
	assert_string_equal(buf, "INACTIVE");
	/* the same view: no difference, no line */
	struct sm_kchange ch[SM_KVIEW_MAX_ITEMS];
	assert_int_equal(sm_kview_diff(m->cfg, &a, &a, ch), 0);
	sm_kview_change_text(m->cfg, SM_ACT_ROTATE, ch, 0, buf, sizeof(buf));
	assert_string_equal(buf, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_riscv_rotate),
		cmocka_unit_test(test_x86_munmap),
		cmocka_unit_test(test_arm64),
		cmocka_unit_test(test_items),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	sm_model_free(m);
	return rc;
}
