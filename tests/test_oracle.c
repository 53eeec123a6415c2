/*
 * test_oracle.c — the oracle's rules (README.md, Checking readers) on hand-made truth
 * windows: exact membership of count/enabled/running, running <= enabled,
 * the +-1 rule for scaled counts, running == 0, the values ABI's error;
 * and the result's fields (session.h's struct sm_wrong): every wrong
 * value, its offset and the cause named by arch, field, sign and schedule.
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
	wd = (struct sm_window){ win, n, scratch, false, SM_X86_64, 48, false,
	                         false, 0, 0 };
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
	/* the relation, not running, is what is wrong (timeline.c zooms by
	 * this field; it took "running" from the sentence's first word) */
	assert_int_equal(res.nwrong, 1);
	assert_int_equal(res.wrong[0].field, SM_WF_RELATION);
	assert_int_equal(res.wrong[0].value, 11);
	assert_int_equal(res.wrong[0].truth_lo, 10);
}

static void test_values_error(void **state)
{
	(void)state;
	window(SM_ABI_VALUES, w, 4);
	assert_int_equal(judge(101, 51, 41, 1), SM_V_PASS);
	assert_int_equal(judge(101, 51, 41, -9), SM_V_WRONG_VALUE);
	assert_non_null(strstr(res.detail, "returned error -9"));
	assert_int_equal(res.wrong[0].field, SM_WF_RC);
	assert_int_equal((int64_t)res.wrong[0].value, -9);
}

/* A values reader that fell back to read(2) (rc 1) is held to the times
 * its event's read_format gives there: none gives the count alone, so
 * enabled and running are not judged (nor running <= enabled); one time
 * given is judged, the other not; from the page (rc 0) all three are,
 * whatever the format.  The default (0) gives both. */
static void test_values_read_format(void **state)
{
	(void)state;
	window(SM_ABI_VALUES, w, 4);
	wd.read_format = SM_RF_GIVEN; /* none */
	assert_int_equal(judge(101, 0, 0, 1), SM_V_PASS);
	assert_int_equal(judge(101, 7, 9, 1), SM_V_PASS); /* 9 > 7: unjudged */
	assert_int_equal(judge(99, 0, 0, 1), SM_V_WRONG_VALUE);
	assert_int_equal(res.nwrong, 1);
	assert_int_equal(res.wrong[0].field, SM_WF_COUNT);
	assert_int_equal(judge(101, 0, 0, 0), SM_V_WRONG_VALUE); /* page */
	assert_int_equal(res.nwrong, 2);
	wd.read_format = SM_RF_GIVEN | SM_RF_TOTAL_TIME_ENABLED | SM_RF_ID;
	assert_int_equal(judge(101, 51, 0, 1), SM_V_PASS);
	assert_int_equal(judge(101, 49, 0, 1), SM_V_WRONG_VALUE);
	assert_int_equal(res.nwrong, 1);
	assert_int_equal(res.wrong[0].field, SM_WF_ENABLED);
	wd.read_format = 0; /* the default: both times */
	assert_int_equal(judge(101, 0, 0, 1), SM_V_WRONG_VALUE);
	assert_int_equal(res.nwrong, 2);
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
	wd = (struct sm_window){ win, 2, scratch, false, SM_X86_64, 48, false,
	                         false, 0, 0 };
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
 * truth, and what it means, on an x86-64 window (48-bit counters). */
static void test_offsets_named(void **state)
{
	static const struct s3 x[] = { { 1, 10, 10 }, { 83, 20, 20 } };
	(void)state;
	window(SM_ABI_RAW, x, 2);
	assert_int_equal(judge(83 - (1ull << 48), 0, 0, 0), SM_V_WRONG_VALUE);
	assert_non_null(strstr(res.detail, "exactly 2^48 below the truth"));
	assert_int_equal(res.wrong[0].offset_bits, 48);
	assert_false(res.wrong[0].above);
	assert_int_equal(res.wrong[0].cause, SM_CAUSE_SEXT_BELOW);
	assert_int_equal(judge(1 + (1ull << 32), 0, 0, 0), SM_V_WRONG_VALUE);
	assert_non_null(strstr(res.detail, "exactly 2^32 above the truth"));
	assert_int_equal(res.wrong[0].cause, SM_CAUSE_OTHER_WIDTH);
	assert_non_null(strstr(res.detail, "not this counter's 48-bit width"));
	assert_int_equal(judge(1 + (1ull << 47), 0, 0, 0), SM_V_WRONG_VALUE);
	assert_non_null(strstr(res.detail, "2^47"));
	assert_int_equal(res.wrong[0].cause, SM_CAUSE_HALF);
	assert_int_equal(judge((uint64_t)-5, 0, 0, 0), SM_V_WRONG_VALUE);
	assert_non_null(strstr(res.detail, "signed 64-bit value it is -5"));
	assert_int_equal(res.wrong[0].offset_bits, 0);
	assert_int_equal(judge(90, 0, 0, 0), SM_V_WRONG_VALUE);
	assert_non_null(strstr(res.detail, "above by 7 from the nearest end"));
	assert_null(strstr(res.detail, "exactly"));
	assert_int_equal(res.wrong[0].truth_lo, 1);
	assert_int_equal(res.wrong[0].truth_hi, 83);
	assert_int_equal(judge(50, 0, 0, 0), SM_V_WRONG_VALUE);
	assert_non_null(strstr(res.detail, "the truth skipped it"));
}

/* The cause is the arch's: riscv64's 48-bit hpmcounter is not "the x86
 * counter width", and a 64-bit counter has no 2^64 to miss. */
static void test_cause_by_arch(void **state)
{
	static const struct s3 x[] = { { 2300, 10, 10 }, { 2354, 20, 20 } };
	(void)state;
	window(SM_ABI_RAW, x, 2);
	wd.arch = SM_RISCV64;
	assert_int_equal(judge(2300 + (1ull << 48), 0, 0, 0), SM_V_WRONG_VALUE);
	assert_int_equal(res.wrong[0].cause, SM_CAUSE_NO_SEXT);
	assert_int_equal(res.width, 48);
	assert_null(strstr(res.detail, "x86"));
	assert_non_null(strstr(res.detail, "counter CSR"));
	wd.arch = SM_ARM64;
	wd.width = 32;
	assert_int_equal(judge(2300 + (1ull << 32), 0, 0, 0), SM_V_WRONG_VALUE);
	assert_int_equal(res.wrong[0].cause, SM_CAUSE_NO_SEXT);
	assert_non_null(strstr(res.detail, "32-bit width"));
	assert_non_null(strstr(res.detail, "PMEVCNTR"));
	wd.width = 0; /* no pmc_width on the page: the arch's usual, 32 */
	assert_int_equal(judge(2300 + (1ull << 32), 0, 0, 0), SM_V_WRONG_VALUE);
	assert_int_equal(res.width, 32);
	assert_int_equal(res.wrong[0].cause, SM_CAUSE_NO_SEXT);
}

/* enabled or running off by 2^32 is the timer's wrap (time_mask), never a
 * counter's sign extension. */
static void test_time_wrap(void **state)
{
	static const struct s3 x[] = { { 5, 990, 990 }, { 9, 1041, 1041 } };
	(void)state;
	window(SM_ABI_TIMES, x, 2);
	wd.arch = SM_ARM64;
	wd.width = 32;
	assert_int_equal(judge(5, 990 - (1ull << 32), 990, 0),
	                 SM_V_WRONG_VALUE);
	assert_int_equal(res.nwrong, 1);
	assert_int_equal(res.wrong[0].field, SM_WF_ENABLED);
	assert_int_equal(res.wrong[0].offset_bits, 32);
	assert_int_equal(res.wrong[0].cause, SM_CAUSE_TIME_WRAP);
	assert_non_null(strstr(res.detail, "time_mask"));
	assert_null(strstr(res.detail, "sign extension of a 32-bit counter"));
}

/* 2^width above: the counter was not sign-extended; below after a reset:
 * the IOC_RESET quirk; below with the truth past 2^width: the whole count
 * masked.  Each names one cause, not a list to choose from. */
static void test_sign_or_reset(void **state)
{
	static const struct s3 x[] = { { 10, 10, 10 }, { 83, 20, 20 } };
	static const struct s3 big[] = { { 3500, 10, 10 },
	                                 { (1ull << 48) + 20, 20, 20 } };
	(void)state;
	window(SM_ABI_RAW, x, 2);
	assert_int_equal(judge(83 + (1ull << 48), 0, 0, 0), SM_V_WRONG_VALUE);
	assert_int_equal(res.wrong[0].cause, SM_CAUSE_NO_SEXT);
	assert_true(res.wrong[0].above);
	assert_null(strstr(res.detail, "IOC_RESET"));
	assert_non_null(strstr(res.detail, "not sign-extended from bit 47"));
	wd.reset = true;
	assert_int_equal(judge(83 - (1ull << 48), 0, 0, 0), SM_V_WRONG_VALUE);
	assert_int_equal(res.wrong[0].cause, SM_CAUSE_RESET_QUIRK);
	assert_non_null(strstr(res.detail, "IOC_RESET quirk"));
	assert_null(strstr(res.detail, "not sign-extended"));
	window(SM_ABI_RAW, big, 2);
	wd.overflow = true;
	assert_int_equal(judge(20, 0, 0, 0), SM_V_WRONG_VALUE);
	assert_int_equal(res.wrong[0].cause, SM_CAUSE_MASKED);
	assert_false(res.wrong[0].above);
	/* the truth jumped at one instant: the overflow's burst, said */
	assert_true(res.wrong[0].burst);
	assert_non_null(strstr(res.detail, "overflow's burst"));
	wd.overflow = false; /* no overflow in the call: no burst claimed */
	assert_int_equal(judge(20, 0, 0, 0), SM_V_WRONG_VALUE);
	assert_false(res.wrong[0].burst);
	assert_null(strstr(res.detail, "burst"));
}

/* The scaled ABI names the exact offset too, as raw does. */
static void test_scaled_offset(void **state)
{
	static const struct s3 x[] = { { 100, 50, 50 }, { 101, 60, 60 } };
	(void)state;
	window(SM_ABI_SCALED, x, 2);
	assert_int_equal(judge(100 + (1ull << 48), 0, 0, 0), SM_V_WRONG_VALUE);
	assert_int_equal(res.wrong[0].field, SM_WF_SCALED);
	assert_int_equal(res.wrong[0].offset_bits, 48);
	assert_true(res.wrong[0].above);
	assert_non_null(strstr(res.detail, "not within 1 of count*enabled"));
	assert_non_null(strstr(res.detail, "exactly 2^48 above"));
	assert_int_equal(judge(300, 0, 0, 0), SM_V_WRONG_VALUE);
	assert_int_equal(res.wrong[0].offset_bits, 0);
	assert_null(strstr(res.detail, "exactly"));
}

/* The values ABI reports every wrong field, not only the first. */
static void test_every_wrong_field(void **state)
{
	(void)state;
	window(SM_ABI_VALUES, w, 4);
	assert_int_equal(judge(101 + (1ull << 48), 49, 41, 0),
	                 SM_V_WRONG_VALUE);
	assert_int_equal(res.nwrong, 2);
	assert_int_equal(res.wrong[0].field, SM_WF_COUNT);
	assert_int_equal(res.wrong[0].offset_bits, 48);
	assert_int_equal(res.wrong[1].field, SM_WF_ENABLED);
	assert_int_equal(res.wrong[1].value, 49);
	assert_int_equal(res.wrong[1].truth_lo, 50);
	assert_int_equal(res.wrong[1].truth_hi, 52);
	assert_non_null(strstr(res.detail, "count = "));
	assert_non_null(strstr(res.detail, "enabled = 49"));
	assert_int_equal(judge(7, 60, 70, 0), SM_V_WRONG_VALUE);
	assert_int_equal(res.nwrong, 3);
	assert_int_equal(res.wrong[2].field, SM_WF_RUNNING);
	/* only values of their own all true meet the relation's check */
	assert_int_equal(judge(101, 51, 41, 0), SM_V_PASS);
	assert_int_equal(res.nwrong, 0);
}

/* The two-call ABIs: a value passes iff it is X(tb) - X(ta) for ta among
 * the first call's samples (before the split) and tb among the read's.
 * Expected values by hand from the window below. */
static void test_two_calls(void **state)
{
	static const struct s3 two[] = {
		{ 100, 50, 40 }, { 101, 51, 41 },          /* the start call */
		{ 110, 60, 45 }, { 112, 62, 45 }, { 5, 63, 46 }, /* the read */
	};
	(void)state;
	window(SM_ABI_DELTA, two, 5);
	wd.split = 2;
	/* 110-100, 110-101, 112-100, 112-101 */
	assert_int_equal(judge(10, 0, 0, 0), SM_V_PASS);
	assert_int_equal(judge(9, 0, 0, 0), SM_V_PASS);
	assert_int_equal(judge(12, 0, 0, 0), SM_V_PASS);
	assert_int_equal(judge(11, 0, 0, 0), SM_V_PASS);
	/* after a reset in the read call the change is below zero: 5 - 100 */
	assert_int_equal(judge((uint64_t)-95, 0, 0, 0), SM_V_PASS);
	assert_int_equal(judge((uint64_t)-96, 0, 0, 0), SM_V_PASS);
	/* a count of one call alone, or a difference within one call */
	assert_int_equal(judge(110, 0, 0, 0), SM_V_WRONG_VALUE);
	assert_true(res.two_calls);
	assert_non_null(strstr(res.detail, "is not the truth's change"));
	assert_int_equal(judge(2, 0, 0, 0), SM_V_WRONG_VALUE);
	assert_int_equal(judge(1, 0, 0, 0), SM_V_WRONG_VALUE);
	/* 2^48 above a change: the counter not sign-extended */
	assert_int_equal(judge((1ull << 48) + 10, 0, 0, 0), SM_V_WRONG_VALUE);
	assert_int_equal(res.wrong[0].offset_bits, 48);
	assert_true(res.wrong[0].above);
	assert_int_equal(res.wrong[0].cause, SM_CAUSE_NO_SEXT);
	/* the change's bounds: 5 - 101 .. 112 - 100 */
	assert_int_equal((int64_t)res.wrong[0].truth_lo, -96);
	assert_int_equal(res.wrong[0].truth_hi, 12);
	/* reset: enabled and running are changes too, running <= enabled */
	wabi = SM_ABI_RESET;
	assert_int_equal(judge(10, 10, 5, 0), SM_V_PASS);   /* 60-50, 45-40 */
	assert_int_equal(judge(11, 13, 6, 1), SM_V_PASS);   /* 63-50, 46-40 */
	assert_int_equal(judge(10, 50, 5, 0), SM_V_WRONG_VALUE); /* absolute */
	assert_int_equal(res.wrong[0].field, SM_WF_ENABLED);
	assert_int_equal(judge(10, 10, 40, 0), SM_V_WRONG_VALUE);
	assert_int_equal(res.wrong[0].field, SM_WF_RUNNING);
	assert_int_equal(judge(10, 10, 5, -9), SM_V_WRONG_VALUE);
	assert_int_equal(res.wrong[0].field, SM_WF_RC);
	assert_int_equal(judge(10, 4, 5, 0), SM_V_WRONG_VALUE); /* 4: no change */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_window),
		cmocka_unit_test(test_running_le_enabled),
		cmocka_unit_test(test_values_error),
		cmocka_unit_test(test_values_read_format),
		cmocka_unit_test(test_scaled),
		cmocka_unit_test(test_scaled_never_ran),
		cmocka_unit_test(test_page_rounding),
		cmocka_unit_test(test_offsets_named),
		cmocka_unit_test(test_cause_by_arch),
		cmocka_unit_test(test_time_wrap),
		cmocka_unit_test(test_sign_or_reset),
		cmocka_unit_test(test_scaled_offset),
		cmocka_unit_test(test_every_wrong_field),
		cmocka_unit_test(test_two_calls),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
