/*
 * test_refresh.c — PERF_EVENT_IOC_REFRESH (the `refresh` action) against
 * pages and counts written out by hand from Linux 6.12:
 * _perf_event_refresh() adds to event_limit and enables; a sampling
 * event's overflow that brings event_limit to 0 disables the event
 * (__perf_event_overflow() -> perf_event_disable_inatomic(), then
 * perf_pending_disable() -> __perf_event_disable(): scheduled out, the
 * page written once more with index 0, OFF); a counting event is refused
 * (EINVAL: nothing changes); a frequency event is a sampling event
 * (is_sampling_event(): attr.sample_freq is attr.sample_period's field)
 * and is not.
 *
 * x86-64, defaults (4 general counters, 3 fixed, 48 bits), one pinned
 * `instructions` event (1 a cycle) on fixed counter 0 (index 2^30 + 1)
 * with period 1000: it overflows every 1000 cycles.
 */
#include "testutil.h"

#define FIXED0_INDEX (((1u << 30) | 0) + 1)

static struct sm_model *m;

static void setup_freq(uint64_t period, uint64_t freq)
{
	struct sm_config c;

	sm_config_default(&c, SM_X86_64);
	c.mux_interval = 0;
	int e = add_event(&c, "instructions", SM_EV_INSTRUCTIONS, SM_AUTO, true);
	c.event[e].period = period;
	c.event[e].freq = freq;
	init_model(&m, &c);
}

static void setup(uint64_t period)
{
	setup_freq(period, 0);
}

static int refresh(uint32_t n)
{
	struct sm_action a = { .kind = SM_ACT_REFRESH, .event = 0,
	                       .cpu = SM_AUTO, .counter = SM_AUTO,
	                       .refresh = n };
	char err[128];
	return sm_model_apply(m, &a, err, sizeof(err));
}

static uint64_t read_count(void)
{
	uint64_t v[3];
	assert_int_equal(sm_model_read(m, 0, v, sizeof(v)), 24);
	return v[0];
}

/* refresh=2 at 0: the overflows at 1000 and 2000 use it up, the second
 * disables the event: at 2500 the page has index 0 and offset 2000 (the
 * count, as after any sched out), read(2) says 2000, and nothing more is
 * counted.  refresh=1 enables it again: counting resumes at once and the
 * next overflow, 1000 events later, disables it again at 3000 events. */
static void test_limit(void **state)
{
	struct sm_truth t;
	(void)state;
	setup(1000);
	assert_int_equal(refresh(2), 1);
	sm_model_advance(m, 1500);
	assert_int_equal(sm_model_page(m, 0)->index, FIXED0_INDEX);
	assert_int_equal(read_count(), 1500);
	sm_model_advance(m, 1000); /* to 2500, through the overflow at 2000 */
	const struct perf_event_mmap_page *pc = sm_model_page(m, 0);
	assert_int_equal(pc->index, 0);
	assert_int_equal(pc->offset, 2000);
	assert_int_equal(read_count(), 2000);
	sm_model_truth(m, 0, &t);
	assert_int_equal(t.count, 2000);
	assert_int_equal(refresh(1), 1);
	assert_int_equal(sm_model_page(m, 0)->index, FIXED0_INDEX);
	sm_model_advance(m, 999);
	assert_int_equal(read_count(), 2999);
	sm_model_advance(m, 501);
	assert_int_equal(sm_model_page(m, 0)->index, 0);
	assert_int_equal(read_count(), 3000);
}

/* Without a refresh there is no limit: overflows go on, the event stays
 * on; refresh=0 adds nothing to the limit (and enables: a disabled event
 * comes back with no limit). */
static void test_no_limit(void **state)
{
	(void)state;
	setup(1000);
	sm_model_advance(m, 5500);
	assert_int_equal(sm_model_page(m, 0)->index, FIXED0_INDEX);
	assert_int_equal(read_count(), 5500);
	assert_int_equal(act(m, SM_ACT_DISABLE, 0), 1);
	assert_int_equal(sm_model_page(m, 0)->index, 0);
	assert_int_equal(refresh(0), 1);
	assert_int_equal(sm_model_page(m, 0)->index, FIXED0_INDEX);
	sm_model_advance(m, 3000);
	assert_int_equal(read_count(), 8500);
}

/* A counting event: _perf_event_refresh() returns EINVAL before anything
 * changes; a disabled one stays disabled. */
static void test_counting_refused(void **state)
{
	(void)state;
	setup(0);
	assert_int_equal(act(m, SM_ACT_DISABLE, 0), 1);
	assert_int_equal(refresh(3), 0);
	assert_int_equal(sm_model_page(m, 0)->index, 0);
	sm_model_advance(m, 100);
	assert_int_equal(read_count(), 0);
}

/* A frequency event (freq=1000, no period): _perf_event_refresh()
 * accepts it (is_sampling_event() reads attr.sample_period, which holds
 * the sample_freq) and enables it.  perf_event_alloc() gave it
 * sample_period 1; x86_perf_event_set_period() programs at least 2 events
 * ("certain CPUs don't like it if just 1 hw_event is left"), so the first
 * overflow comes after 2 events, __perf_event_overflow() takes event_limit
 * from 1 to 0 and the event is disabled: index 0, a count of 2. */
static void test_frequency_refresh(void **state)
{
	(void)state;
	setup_freq(0, 1000);
	assert_int_equal(act(m, SM_ACT_DISABLE, 0), 1);
	assert_int_equal(sm_model_page(m, 0)->index, 0);
	assert_int_equal(refresh(1), 1);
	assert_int_equal(sm_model_page(m, 0)->index, FIXED0_INDEX);
	sm_model_advance(m, 100);
	assert_int_equal(sm_model_page(m, 0)->index, 0);
	assert_int_equal(read_count(), 2);
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
		cmocka_unit_test(test_limit),
		cmocka_unit_test(test_no_limit),
		cmocka_unit_test(test_counting_refused),
		cmocka_unit_test(test_frequency_refresh),
	};
	return cmocka_run_group_tests(tests, NULL, teardown);
}
