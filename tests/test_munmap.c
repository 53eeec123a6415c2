/*
 * test_munmap.c — munmap of the page (the `munmap` action) against what
 * Linux 6.12 does, worked out by hand: perf_mmap_close() runs the PMU's
 * event_unmapped() and drops the buffer, so no later
 * perf_event_update_userpage() writes the page, and
 *   x86: x86_pmu_event_unmapped() drops perf_rdpmc_allowed; at 0
 *        cr4_update_pce() clears CR4.PCE, so rdpmc is #GP under sysfs
 *        rdpmc=1 (while another mapped event is left, it is not);
 *   riscv64: pmu_sbi_event_unmapped() clears PERF_EVENT_FLAG_USER_READ_CNT
 *        and, under perf_user_access 1, the counter's scounteren bit
 *        (pmu_sbi_reset_scounteren(), only for an event with hw.idx !=
 *        -1): csrr of it is SIGILL; under legacy access 2 cycle and
 *        instret stay readable;
 *   arm64: no event_unmapped() in arm_pmuv3.c: ctx->nr_user keeps the
 *        event (list_add_event() .. list_del_event()), so PMUSERENR access
 *        stays.
 * A second munmap, and an mmap after a munmap (a new address no reader
 * holds), change nothing.
 */
#include "testutil.h"
#include "state.h" /* the model's own tests read its state */

#define FIXED0_INDEX (((1u << 30) | 0) + 1)

static struct sm_model *m;

/* A model of one event on `arch` with perf_user_access (sysfs rdpmc on
 * x86-64) `ua` and kernel variants `kv`. */
static struct sm_config one_event(enum sm_arch arch, int ua, unsigned kv,
                                  const char *name, enum sm_event_type t,
                                  int counter, bool pinned)
{
	struct sm_config c;

	sm_config_default(&c, arch);
	c.user_access = ua;
	c.kernel = kv;
	add_event(&c, name, t, counter, pinned);
	init_model(&m, &c);
	return c;
}

/* x86-64 defaults, sysfs rdpmc=1: a pinned `instructions` on fixed 0
 * (rdpmc ECX 2^30) and a pinned `cycles` on fixed 1, both mmapped. */
static void x86_two(void)
{
	struct sm_config c;

	sm_config_default(&c, SM_X86_64);
	c.user_access = 1;
	c.mux_interval = 0;
	add_event(&c, "instructions", SM_EV_INSTRUCTIONS, SM_AUTO, true);
	add_event(&c, "cycles", SM_EV_CYCLES, SM_AUTO, true);
	init_model(&m, &c);
}

/* munmap of event 0: no page write from then on (a disable would write
 * index 0 and offset = count, as it does to the still mapped event 1), and
 * rdpmc works while event 1 keeps perf_rdpmc_allowed at 1; munmap of
 * event 1 brings it to 0: #GP. */
static void test_x86(void **state)
{
	struct perf_event_mmap_page before;
	uint64_t v;
	(void)state;
	x86_two();
	sm_model_advance(m, 100);
	assert_int_equal(sm_model_page(m, 0)->index, FIXED0_INDEX);
	assert_int_equal(sm_model_rdpmc(m, 1u << 30, &v), SM_OK);

	assert_int_equal(act(m, SM_ACT_MUNMAP, 0), 1);
	memcpy(&before, sm_model_page(m, 0), sizeof(before));
	uint64_t updates = m->k.updates;
	assert_int_equal(act(m, SM_ACT_DISABLE, 0), 1);
	assert_int_equal(act(m, SM_ACT_DISABLE, 1), 1);
	sm_model_advance(m, 50);
	assert_int_equal(act(m, SM_ACT_ENABLE, 0), 1);
	/* event 1's page: its disable wrote index 0, offset 100 (1 a cycle) */
	assert_int_equal(sm_model_page(m, 1)->index, 0);
	assert_int_equal(sm_model_page(m, 1)->offset, 100);
	/* event 0's: as it was at the munmap */
	assert_memory_equal(sm_model_page(m, 0), &before, sizeof(before));
	assert_int_equal(sm_model_page(m, 0)->index, FIXED0_INDEX);
	/* event 1's disable and enable wrote it; nothing else did */
	assert_true(m->k.updates > updates);
	assert_int_equal(sm_model_rdpmc(m, 1u << 30, &v), SM_OK);

	assert_int_equal(act(m, SM_ACT_MUNMAP, 0), 0); /* nothing to close */
	assert_int_equal(act(m, SM_ACT_MMAP, 0), 0);   /* not at that address */
	assert_int_equal(act(m, SM_ACT_MUNMAP, 1), 1);
	assert_int_equal(sm_model_rdpmc(m, 1u << 30, &v), SM_FAULT_GP);
	assert_int_equal(sm_model_rdpmc(m, 0, &v), SM_FAULT_GP);

	/* read(2) still answers: the fd is open, 100 + 50 counted by event 0
	 * (disabled 50 cycles, enabled again at 150: 100 so far) */
	uint64_t r[3];
	sm_model_advance(m, 20);
	assert_int_equal(sm_model_read(m, 0, r, sizeof(r)), 24);
	assert_int_equal(r[0], 120);
}

/* Under sysfs rdpmc=2 CR4.PCE is always set: munmap takes nothing. */
static void test_x86_always(void **state)
{
	uint64_t v;
	(void)state;
	one_event(SM_X86_64, 2, 0, "instructions", SM_EV_INSTRUCTIONS, SM_AUTO,
	          true);
	assert_int_equal(act(m, SM_ACT_MUNMAP, 0), 1);
	assert_int_equal(sm_model_rdpmc(m, 1u << 30, &v), SM_OK);
}

/* riscv64, perf_user_access 1: an `l1d` on hpmcounter3 (CSR 0xC03),
 * 48 bits, started at -(2^47 - 1): after 40 cycles csrr reads
 * 2^47 + 1 + 40; after the munmap csrr traps and the page stays. */
static void test_riscv(void **state)
{
	uint64_t v;
	(void)state;
	one_event(SM_RISCV64, 1, 0, "l1d", SM_EV_OTHER, 3, false);
	sm_model_advance(m, 40);
	assert_int_equal(sm_model_riscv_csr(m, 0xC03, &v), SM_OK);
	assert_int_equal(v, (1ull << 47) + 1 + 40);
	assert_int_equal(sm_model_page(m, 0)->index, 4);
	assert_int_equal(act(m, SM_ACT_MUNMAP, 0), 1);
	assert_int_equal(sm_model_riscv_csr(m, 0xC03, &v), SM_FAULT_ILL);
	assert_int_equal(act(m, SM_ACT_ROTATE_OUT, 0), 1);
	assert_int_equal(sm_model_page(m, 0)->index, 4); /* not written */
	assert_int_equal(act(m, SM_ACT_ROTATE_IN, 0), 1);
	assert_int_equal(sm_model_riscv_csr(m, 0xC03, &v), SM_FAULT_ILL);
}

/* Variant riscv_keep_scounteren: a rotation out leaves the bit (hw.idx is
 * then -1); pmu_sbi_reset_scounteren() does nothing for an event with no
 * counter, so after the munmap the stopped counter is still readable:
 * 2^47 + 1 + 40, frozen.  Unmapped while on its counter, the event's bit
 * goes. */
static void test_riscv_keep(void **state)
{
	uint64_t v;
	(void)state;
	struct sm_config c = one_event(SM_RISCV64, 1,
	                               1u << SM_KV_RISCV_KEEP_SCOUNTEREN, "l1d",
	                               SM_EV_OTHER, 3, false);
	sm_model_advance(m, 40);
	assert_int_equal(act(m, SM_ACT_ROTATE_OUT, 0), 1);
	assert_int_equal(act(m, SM_ACT_MUNMAP, 0), 1);
	sm_model_advance(m, 10);
	assert_int_equal(sm_model_riscv_csr(m, 0xC03, &v), SM_OK);
	assert_int_equal(v, (1ull << 47) + 1 + 40);

	init_model(&m, &c);
	sm_model_advance(m, 40);
	assert_int_equal(act(m, SM_ACT_MUNMAP, 0), 1);
	assert_int_equal(act(m, SM_ACT_ROTATE_OUT, 0), 1);
	assert_int_equal(sm_model_riscv_csr(m, 0xC03, &v), SM_FAULT_ILL);
}

/* Legacy access (2): pmu_sbi_event_unmapped() clears the flag but not
 * scounteren (no PERF_EVENT_FLAG_USER_ACCESS); cycle stays readable. */
static void test_riscv_legacy(void **state)
{
	uint64_t v;
	(void)state;
	one_event(SM_RISCV64, 2, 0, "cycles", SM_EV_CYCLES, SM_AUTO, false);
	assert_int_equal(act(m, SM_ACT_MUNMAP, 0), 1);
	assert_int_equal(sm_model_riscv_csr(m, 0xC00, &v), SM_OK);
}

/* arm64, perf_user_access 1, a `cycles` event with config1 bit 1 on
 * PMCCNTR: the counter stays readable after the munmap, and after a
 * disable (armv8pmu_start() still finds nr_user 1). */
static void test_arm64(void **state)
{
	uint64_t v;
	(void)state;
	one_event(SM_ARM64, 1, 0, "cycles", SM_EV_CYCLES, SM_AUTO, false);
	sm_model_advance(m, 10);
	assert_int_equal(sm_model_arm64_counter(m, SM_ARM64_CYCLE, &v), SM_OK);
	assert_int_equal(act(m, SM_ACT_MUNMAP, 0), 1);
	assert_int_equal(sm_model_arm64_counter(m, SM_ARM64_CYCLE, &v), SM_OK);
	assert_int_equal(act(m, SM_ACT_DISABLE, 0), 1);
	assert_int_equal(sm_model_arm64_counter(m, SM_ARM64_CYCLE, &v), SM_OK);
}

static int teardown(void **state)
{
	(void)state;
	sm_model_free(m);
	m = NULL;
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x86),
		cmocka_unit_test(test_x86_always),
		cmocka_unit_test(test_riscv),
		cmocka_unit_test(test_riscv_keep),
		cmocka_unit_test(test_riscv_legacy),
		cmocka_unit_test(test_arm64),
	};
	return cmocka_run_group_tests(tests, NULL, teardown);
}
