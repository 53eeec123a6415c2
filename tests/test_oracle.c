/*
 * test_oracle.c — the oracle's rules (DESIGN.md §7) on hand-made truth
 * windows: exact membership of count/enabled/running, running <= enabled,
 * the +-1 rule for scaled counts, running == 0, the values ABI's error.
 */
#include <stdlib.h>

#include "testutil.h"
#include "session.h"

static struct sm_truth win[16];
static uint64_t scratch[16];
static struct sm_window wd;
static enum sm_abi wabi;
static struct sm_result res;

/* Truth samples (count, enabled, running) of a window whose pages agree
 * with sched_clock: the page's times equal the truth. */
struct s3 {
	uint64_t count, enabled, running;
};

static void window(enum sm_abi abi, const struct s3 *w, unsigned n)
{
	assert_true(n <= 16);
	for (unsigned i = 0; i < n; i++)
		win[i] = (struct sm_truth){ w[i].count, w[i].enabled,
		                             w[i].running, w[i].enabled,
		                             w[i].running };
	wd = (struct sm_window){ win, n, scratch, false };
	wabi = abi;
}

static enum sm_verdict judge(uint64_t c, uint64_t e, uint64_t ru, int rc)
{
	uint64_t v[3] = { c, e, ru };
	memset(&res, 0, sizeof(res));
	sm_oracle(&wd, wabi, v, rc, &res);
	return res.verdict;
}

static const struct s3 w[] = {
	{ 100, 50, 40 }, { 101, 51, 41 }, { 102, 52, 41 }, { 0, 52, 41 },
};

static void test_exact_window(void **state)
{
	(void)state;
	window(SM_ABI_TIMES, w, 4);
	assert_int_equal(judge(101, 51, 41, 0), SM_V_PASS);
	assert_int_equal(judge(0, 50, 40, 0), SM_V_PASS); /* values of any instants */
	assert_int_equal(judge(103, 51, 41, 0), SM_V_WRONG_VALUE);
	assert_non_null(strstr(res.detail, "count = 103"));
	assert_int_equal(judge(101, 53, 41, 0), SM_V_WRONG_VALUE);
	assert_int_equal(judge(101, 51, 39, 0), SM_V_WRONG_VALUE);
	window(SM_ABI_RAW, w, 4);
	assert_int_equal(judge(102, 0, 0, 0), SM_V_PASS); /* only count matters */
	assert_int_equal(judge(99, 0, 0, 0), SM_V_WRONG_VALUE);
}

static void test_running_le_enabled(void **state)
{
	static const struct s3 odd[] = { { 1, 10, 10 }, { 1, 9, 11 } };
	(void)state;
	window(SM_ABI_TIMES, odd, 2);
	assert_int_equal(judge(1, 10, 10, 0), SM_V_PASS);
	assert_int_equal(judge(1, 10, 11, 0), SM_V_WRONG_VALUE);
	assert_non_null(strstr(res.detail, "running 11 > enabled 10"));
}

static void test_values_error(void **state)
{
	(void)state;
	window(SM_ABI_VALUES, w, 4);
	assert_int_equal(judge(101, 51, 41, 1), SM_V_PASS);
	assert_int_equal(judge(101, 51, 41, -9), SM_V_WRONG_VALUE);
	assert_non_null(strstr(res.detail, "returned error -9"));
}

/* scaled: within 1 of C(ta) * E(tb) / R(tb).  C in {100, 101}, (E, R) in
 * {(50, 40), (52, 41)}: 100*50/40 = 125, 101*50/40 = 126.25,
 * 100*52/41 = 126.83, 101*52/41 = 128.10. */
static void test_scaled(void **state)
{
	static const struct s3 sw[] = { { 100, 50, 40 }, { 101, 52, 41 } };
	(void)state;
	window(SM_ABI_SCALED, sw, 2);
	assert_int_equal(judge(125, 0, 0, 0), SM_V_PASS);
	assert_int_equal(judge(124, 0, 0, 0), SM_V_PASS);  /* 125 - 1 */
	assert_int_equal(judge(129, 0, 0, 0), SM_V_PASS);  /* 128.10 + 0.9 */
	assert_int_equal(judge(123, 0, 0, 0), SM_V_WRONG_VALUE);
	assert_int_equal(judge(130, 0, 0, 0), SM_V_WRONG_VALUE);
}

/* running == 0: nothing ran, so nothing was counted; the truth is 0. */
static void test_scaled_never_ran(void **state)
{
	static const struct s3 z[] = { { 0, 500, 0 }, { 0, 600, 0 } };
	(void)state;
	window(SM_ABI_SCALED, z, 2);
	assert_int_equal(judge(0, 0, 0, 0), SM_V_PASS);
	assert_int_equal(judge(1, 0, 0, 0), SM_V_WRONG_VALUE);
}

/* The page's own conversion (enabled_pub/running_pub) is a truth for the
 * times, and only for them; the detail says it was the kernel's rounding. */
static void test_page_rounding(void **state)
{
	struct sm_truth r[] = { { 100, 50, 40, 51, 41 }, { 101, 60, 50, 61, 51 } };
	(void)state;
	memcpy(win, r, sizeof(r));
	wd = (struct sm_window){ win, 2, scratch, false };
	wabi = SM_ABI_TIMES;
	assert_int_equal(judge(100, 50, 40, 0), SM_V_PASS);
	assert_null(strstr(res.detail, "rounding"));
	assert_int_equal(judge(100, 51, 41, 0), SM_V_PASS);
	assert_non_null(strstr(res.detail, "the kernel's rounding"));
	assert_int_equal(judge(100, 61, 50, 0), SM_V_PASS); /* any instants */
	assert_int_equal(judge(100, 52, 41, 0), SM_V_WRONG_VALUE); /* not 2 off */
	assert_int_equal(judge(51, 50, 40, 0), SM_V_WRONG_VALUE); /* not counts */
}

/* Wrong values name the exact power-of-two offset they are from the
 * truth, and what it means. */
static void test_offsets_named(void **state)
{
	static const struct s3 x[] = { { 1, 10, 10 }, { 83, 20, 20 } };
	(void)state;
	window(SM_ABI_RAW, x, 2);
	assert_int_equal(judge(83 - (1ull << 48), 0, 0, 0), SM_V_WRONG_VALUE);
	assert_non_null(strstr(res.detail, "exactly 2^48 below the truth"));
	assert_non_null(strstr(res.detail, "sign extension, or the IOC_RESET"));
	assert_int_equal(judge(1 + (1ull << 32), 0, 0, 0), SM_V_WRONG_VALUE);
	assert_non_null(strstr(res.detail, "exactly 2^32 above the truth"));
	assert_int_equal(judge(1 + (1ull << 47), 0, 0, 0), SM_V_WRONG_VALUE);
	assert_non_null(strstr(res.detail, "2^47"));
	assert_int_equal(judge((uint64_t)-5, 0, 0, 0), SM_V_WRONG_VALUE);
	assert_non_null(strstr(res.detail, "signed 64-bit value it is -5"));
	assert_int_equal(judge(90, 0, 0, 0), SM_V_WRONG_VALUE);
	assert_non_null(strstr(res.detail, "above by 7 from the nearest end"));
	assert_null(strstr(res.detail, "exactly"));
	assert_int_equal(judge(50, 0, 0, 0), SM_V_WRONG_VALUE);
	assert_non_null(strstr(res.detail, "the truth skipped it"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_window),
		cmocka_unit_test(test_running_le_enabled),
		cmocka_unit_test(test_values_error),
		cmocka_unit_test(test_scaled),
		cmocka_unit_test(test_scaled_never_ran),
		cmocka_unit_test(test_page_rounding),
		cmocka_unit_test(test_offsets_named),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
