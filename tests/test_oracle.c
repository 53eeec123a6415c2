/*
 * test_oracle.c — the oracle's rules (DESIGN.md §7) on hand-made truth
 * windows: exact membership of count/enabled/running, running <= enabled,
 * the +-1 rule for scaled counts, running == 0, the values ABI's error.
 */
#include <stdlib.h>

#include "testutil.h"
#include "session.h"

static struct sm_session *s;
static struct sm_reader rd;

static void window(enum sm_abi abi, const struct sm_sample *w, unsigned n)
{
	if (!s)
		s = sm_session_new();
	rd.abi = abi;
	rd.name = "t";
	s->reader = &rd;
	s->nsamples = n;
	memcpy(s->samples, w, n * sizeof(*w));
	memset(&s->res, 0, sizeof(s->res));
}

static enum sm_verdict judge(uint64_t c, uint64_t e, uint64_t ru, int rc)
{
	uint64_t v[3] = { c, e, ru };
	sm_oracle_judge(s, v, rc);
	return s->res.verdict;
}

static const struct sm_sample w[] = {
	{ 100, 50, 40 }, { 101, 51, 41 }, { 102, 52, 41 }, { 0, 52, 41 },
};

static void test_exact_window(void **state)
{
	(void)state;
	window(ABI_TIMES, w, 4);
	assert_int_equal(judge(101, 51, 41, 0), V_PASS);
	assert_int_equal(judge(0, 50, 40, 0), V_PASS); /* values of any instants */
	assert_int_equal(judge(103, 51, 41, 0), V_WRONG_VALUE);
	assert_non_null(strstr(s->res.detail, "count = 103"));
	assert_int_equal(judge(101, 53, 41, 0), V_WRONG_VALUE);
	assert_int_equal(judge(101, 51, 39, 0), V_WRONG_VALUE);
	window(ABI_RAW, w, 4);
	assert_int_equal(judge(102, 0, 0, 0), V_PASS); /* only count matters */
	assert_int_equal(judge(99, 0, 0, 0), V_WRONG_VALUE);
}

static void test_running_le_enabled(void **state)
{
	static const struct sm_sample odd[] = { { 1, 10, 10 }, { 1, 9, 11 } };
	(void)state;
	window(ABI_TIMES, odd, 2);
	assert_int_equal(judge(1, 10, 10, 0), V_PASS);
	assert_int_equal(judge(1, 10, 11, 0), V_WRONG_VALUE);
	assert_non_null(strstr(s->res.detail, "running 11 > enabled 10"));
}

static void test_values_error(void **state)
{
	(void)state;
	window(ABI_VALUES, w, 4);
	assert_int_equal(judge(101, 51, 41, 1), V_PASS);
	assert_int_equal(judge(101, 51, 41, -9), V_WRONG_VALUE);
	assert_non_null(strstr(s->res.detail, "returned error -9"));
}

/* scaled: within 1 of C(ta) * E(tb) / R(tb).  C in {100, 101}, (E, R) in
 * {(50, 40), (52, 41)}: 100*50/40 = 125, 101*50/40 = 126.25,
 * 100*52/41 = 126.83, 101*52/41 = 128.10. */
static void test_scaled(void **state)
{
	static const struct sm_sample sw[] = { { 100, 50, 40 }, { 101, 52, 41 } };
	(void)state;
	window(ABI_SCALED, sw, 2);
	assert_int_equal(judge(125, 0, 0, 0), V_PASS);
	assert_int_equal(judge(124, 0, 0, 0), V_PASS);  /* 125 - 1 */
	assert_int_equal(judge(129, 0, 0, 0), V_PASS);  /* 128.10 + 0.9 */
	assert_int_equal(judge(123, 0, 0, 0), V_WRONG_VALUE);
	assert_int_equal(judge(130, 0, 0, 0), V_WRONG_VALUE);
}

/* running == 0: nothing ran, so nothing was counted; the truth is 0. */
static void test_scaled_never_ran(void **state)
{
	static const struct sm_sample z[] = { { 0, 500, 0 }, { 0, 600, 0 } };
	(void)state;
	window(ABI_SCALED, z, 2);
	assert_int_equal(judge(0, 0, 0, 0), V_PASS);
	assert_int_equal(judge(1, 0, 0, 0), V_WRONG_VALUE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_window),
		cmocka_unit_test(test_running_le_enabled),
		cmocka_unit_test(test_values_error),
		cmocka_unit_test(test_scaled),
		cmocka_unit_test(test_scaled_never_ran),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
