/*
 * test_clock.c — cycles to ns as the kernel converts them, against values
 * worked out by hand from clocks_calc_mult_shift() and mul_u64_u32_shr().
 */
#include "testutil.h"
#include "state.h" /* the model's own tests read its state */

static void test_mul_u64_u32_shr(void **state)
{
	(void)state;
	assert_int_equal(sm_mul_u64_u32_shr(1000, 1u << 21, 21), 1000);
	/* 2^63 * 3 >> 1 needs the 96-bit intermediate: 3 * 2^62 */
	assert_int_equal(sm_mul_u64_u32_shr(1ull << 63, 3, 1), 3ull << 62);
	assert_int_equal(sm_mul_u64_u32_shr(~0ull, ~0u, 32), 0xfffffffeffffffffull);
	assert_int_equal(sm_mul_u64_u32_shr(2900000, 740511603u, 31), 1000000);
}

static void test_calc_mult_shift(void **state)
{
	uint32_t mult, shift;
	(void)state;
	/* x86 __set_cyc2ns_scale(): from kHz to ns/ms, maxsec 0 */
	sm_calc_mult_shift(&mult, &shift, 2900000, 1000000, 0);
	assert_int_equal(mult, 1481023206u); /* round(1e6 * 2^32 / 2.9e6) */
	assert_int_equal(shift, 32);
	sm_calc_mult_shift(&mult, &shift, 1000000, 1000000, 0);
	assert_int_equal(mult, 1u << 31); /* 2^32 does not fit in 32 bits */
	assert_int_equal(shift, 31);
	/* sched_clock_register(): from Hz to ns/s, maxsec 3600: 3600e9 >> 32
	 * = 838 (10 bits), so mult must stay below 2^22 */
	sm_calc_mult_shift(&mult, &shift, 1000000000, 1000000000, 3600);
	assert_int_equal(mult, 1u << 21);
	assert_int_equal(shift, 21);
	sm_calc_mult_shift(&mult, &shift, 25000000, 1000000000, 3600);
	assert_int_equal(mult, 40u << 21);
	assert_int_equal(shift, 21);
}

static struct sm_model *m;

/* x86: the shift 32 is clamped to 31 in cyc2ns itself. */
static void test_x86_clamp(void **state)
{
	struct sm_config c;
	(void)state;
	sm_config_default(&c, SM_X86_64);
	add_event(&c, "instructions", SM_EV_INSTRUCTIONS, SM_AUTO, true);
	init_model(&m, &c);
	assert_int_equal(m->k.cpu[0].mult, 740511603u);
	assert_int_equal(m->k.cpu[0].shift, 31);
	assert_int_equal(sm_model_ns(m, 0, 2900000), 1000000);
}

/* arm64: sched_clock over the architected timer wraps; ns stays
 * continuous as long as the epoch is less than one wrap old.  The default
 * 1 GHz timer is 61 bits wide: arch_counter_get_width() takes the bit
 * length of 40 years of counts - 1, 1261440000 s * 10^9 - 1, which is
 * between 2^60 and 2^61. */
static void test_timer_wrap(void **state)
{
	struct sm_config c;
	const uint64_t wrap = 1ull << 61;
	(void)state;
	sm_config_default(&c, SM_ARM64);
	c.start = wrap - 1000;
	for (int i = 0; i < SM_MAX_CPUS; i++) {
		c.cpu[i].epoch_cyc = wrap - 1000;
		c.cpu[i].epoch_ns = 5000000;
	}
	add_event(&c, "cycles", SM_EV_CYCLES, SM_AUTO, false);
	init_model(&m, &c);
	assert_int_equal(sm_model_timer(m), wrap - 1000);
	assert_int_equal(sm_model_ns(m, 0, m->k.now), 5000000);
	sm_model_advance(m, 1500);
	assert_int_equal(sm_model_timer(m), 500);
	assert_int_equal(sm_model_ns(m, 0, m->k.now), 5001500);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mul_u64_u32_shr),
		cmocka_unit_test(test_calc_mult_shift),
		cmocka_unit_test(test_x86_clamp),
		cmocka_unit_test(test_timer_wrap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
