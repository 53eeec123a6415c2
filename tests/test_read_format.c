/*
 * test_read_format.c — read(2) of an event in the layout of its
 * read_format (model/readfmt.c), against bytes written out by hand from
 * Linux 6.12's __perf_read(), perf_read_one(), perf_read_group() and
 * __perf_event_read_size() (kernel/events/core.c).
 *
 * The machine: x86-64, one general counter and no fixed ones, TSC at
 * 2.9 GHz (cyc2ns mult 740511603, shift 31 once clamped, as in
 * test_model_x86.c).  Event 0 (`a`, 1 event a cycle) is on the counter;
 * event 1 (`b`) cannot go on, so it is enabled but not running.  Both are
 * opened at cycle 2900000 and read 1000 cycles later: a has counted 1000,
 * both were enabled E = ns(2901000) - ns(2900000), a ran E, b 0.  Ids
 * are 1 and 2 (the order of opening).
 */
#include <errno.h>

#include "testutil.h"

#define MULT 740511603u
#define SHIFT 31
#define START 2900000

static struct sm_model *m;
static uint64_t E; /* ns enabled */

static void setup(unsigned rf_a, unsigned rf_b)
{
	struct sm_config c;

	sm_config_default(&c, SM_X86_64);
	c.start = START;
	c.gp = 1;
	c.fixed = 0;
	int a = add_event(&c, "a", SM_EV_OTHER, SM_AUTO, false);
	int b = add_event(&c, "b", SM_EV_OTHER, SM_AUTO, false);
	c.event[a].read_format = rf_a;
	c.event[b].read_format = rf_b;
	init_model(&m, &c);
	sm_model_advance(m, 1000);
	E = mulshr(START + 1000, MULT, SHIFT) - mulshr(START, MULT, SHIFT);
	assert_true(E > 0);
}

/* read(2) into a buffer of len bytes filled with 0xaa: the return, and
 * the bytes past the answer left alone. */
static long rd(int ev, uint64_t *buf, size_t len)
{
	memset(buf, 0xaa, 64 * 8);
	long r = sm_model_read(m, ev, buf, len);
	for (size_t k = r > 0 ? (size_t)r / 8 : 0; k < 64; k++)
		assert_int_equal(buf[k], 0xaaaaaaaaaaaaaaaaull);
	return r;
}

#define GIVEN(x) (SM_RF_GIVEN | (x))

/* Not given: TOTAL_TIME_ENABLED|RUNNING, 24 bytes (value, enabled,
 * running); 23 is below read_size: -ENOSPC, nothing written. */
static void test_default(void **state)
{
	uint64_t buf[64];
	(void)state;
	setup(0, 0);
	assert_int_equal(sm_model_read_size(m, 0), 24);
	assert_int_equal(rd(0, buf, 23), -ENOSPC);
	assert_int_equal(rd(0, buf, 24), 24);
	assert_int_equal(buf[0], 1000);
	assert_int_equal(buf[1], E);
	assert_int_equal(buf[2], E);
	assert_int_equal(rd(1, buf, 24), 24);
	assert_int_equal(buf[0], 0);
	assert_int_equal(buf[1], E);
	assert_int_equal(buf[2], 0);
}

/* none: the value alone, 8 bytes; a larger buffer still gets 8
 * (perf_read_one() returns n * 8), a smaller one -ENOSPC. */
static void test_none(void **state)
{
	uint64_t buf[64];
	(void)state;
	setup(GIVEN(0), 0);
	assert_int_equal(sm_model_read_size(m, 0), 8);
	assert_int_equal(rd(0, buf, 7), -ENOSPC);
	assert_int_equal(rd(0, buf, 0), -ENOSPC);
	assert_int_equal(rd(0, buf, 8), 8);
	assert_int_equal(buf[0], 1000);
	assert_int_equal(rd(0, buf, 64 * 8), 8);
	assert_int_equal(buf[0], 1000);
}

/* One time each, then id and lost after the times: value, [enabled],
 * [running], [id], [lost]. */
static void test_one_layouts(void **state)
{
	uint64_t buf[64];
	(void)state;
	setup(GIVEN(SM_RF_TOTAL_TIME_RUNNING | SM_RF_ID),
	      GIVEN(SM_RF_TOTAL_TIME_ENABLED | SM_RF_LOST));
	assert_int_equal(sm_model_read_size(m, 0), 24);
	assert_int_equal(rd(0, buf, 24), 24);
	assert_int_equal(buf[0], 1000);
	assert_int_equal(buf[1], E);   /* running */
	assert_int_equal(buf[2], 1);   /* a's id */
	assert_int_equal(rd(1, buf, 24), 24);
	assert_int_equal(buf[0], 0);
	assert_int_equal(buf[1], E);   /* enabled */
	assert_int_equal(buf[2], 0);   /* lost: a counting event loses none */
	setup(GIVEN(SM_RF_ALL & ~SM_RF_GROUP), GIVEN(SM_RF_ID));
	assert_int_equal(sm_model_read_size(m, 0), 40);
	assert_int_equal(rd(0, buf, 39), -ENOSPC);
	assert_int_equal(rd(0, buf, 40), 40);
	uint64_t want[] = { 1000, E, E, 1, 0 };
	assert_memory_equal(buf, want, sizeof(want));
	assert_int_equal(rd(1, buf, 16), 16);
	assert_int_equal(buf[0], 0);
	assert_int_equal(buf[1], 2);   /* b's id */
	assert_int_equal(sm_model_event_id(m, 1), 2);
}

/* PERF_FORMAT_GROUP on an event alone in its group: nr = 1, the times
 * once (the leader's), then its entry: 8 + 16 + 24 = 48 bytes. */
static void test_group_of_one(void **state)
{
	uint64_t buf[64];
	(void)state;
	setup(GIVEN(SM_RF_ALL), GIVEN(SM_RF_GROUP));
	assert_int_equal(sm_model_read_size(m, 0), 48);
	assert_int_equal(rd(0, buf, 47), -ENOSPC);
	assert_int_equal(rd(0, buf, 48), 48);
	uint64_t want[] = { 1, E, E, 1000, 1, 0 };
	assert_memory_equal(buf, want, sizeof(want));
	/* group alone: nr and the value */
	assert_int_equal(sm_model_read_size(m, 1), 16);
	assert_int_equal(rd(1, buf, 16), 16);
	assert_int_equal(buf[0], 1);
	assert_int_equal(buf[1], 0);
}

/* read(2) brings the count up to now (perf_event_read()) but not the
 * page: a second read later sees the later count. */
static void test_read_updates(void **state)
{
	uint64_t buf[64];
	(void)state;
	setup(GIVEN(0), 0);
	assert_int_equal(rd(0, buf, 8), 8);
	assert_int_equal(buf[0], 1000);
	sm_model_advance(m, 500);
	assert_int_equal(rd(0, buf, 8), 8);
	assert_int_equal(buf[0], 1500);
}

/* A pinned event that cannot go on is in error state: __perf_read()
 * returns 0 (end of file) before it looks at the size. */
static void test_error_eof(void **state)
{
	struct sm_config c;
	uint64_t buf[64];
	(void)state;

	sm_config_default(&c, SM_X86_64);
	c.gp = 1;
	c.fixed = 0;
	add_event(&c, "a", SM_EV_OTHER, SM_AUTO, true);
	add_event(&c, "b", SM_EV_OTHER, SM_AUTO, true);
	init_model(&m, &c);
	sm_model_advance(m, 100);
	assert_int_equal(rd(1, buf, 24), 0);
	assert_int_equal(rd(1, buf, 1), 0);
	assert_int_equal(rd(0, buf, 24), 24);
	assert_int_equal(buf[0], 100);
	assert_int_equal(rd(2, buf, 24), -EBADF);
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
		cmocka_unit_test(test_default),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_one_layouts),
		cmocka_unit_test(test_group_of_one),
		cmocka_unit_test(test_read_updates),
		cmocka_unit_test(test_error_eof),
	};
	return cmocka_run_group_tests(tests, NULL, teardown);
}
