/*
 * test_groups.c — event groups (a scenario's group=LEADER) against pages
 * and read(2) bytes written out by hand from Linux 6.12's
 * kernel/events/core.c: group_sched_in() (all or nothing, in the PMU's
 * transaction), merge_sched_in() and group_update_userpage(),
 * group_sched_out(), __perf_event_enable()/__perf_event_disable() for
 * leaders and siblings, rotate_ctx() moving groups, and
 * perf_read_group().  x86-64's x86_pmu_add() only collects a member in
 * the transaction and x86_pmu_commit_txn() schedules them all; arm64 has
 * no transaction of its own (armpmu_add() programs and writes each
 * member's page, and a failed group's members go out again).
 *
 * x86-64: TSC at 2.9 GHz (cyc2ns mult 740511603, shift 31, as in
 * test_model_x86.c), no fixed counters, general counter N is index N+1;
 * arm64: PMEVCNTR<N> is index N+1, a sched in writes the page twice
 * (armpmu_start(), armpmu_add()), a sched out once (armpmu_del()).
 */
#include <errno.h>

#include "testutil.h"

#define MULT 740511603u
#define SHIFT 31
#define START 2900000

static struct sm_model *m;

static uint64_t ns(uint64_t cyc)
{
	return mulshr(cyc, MULT, SHIFT);
}

static struct sm_config x86(unsigned gp)
{
	struct sm_config c;
	sm_config_default(&c, SM_X86_64);
	c.start = START;
	c.gp = gp;
	c.fixed = 0;
	c.mux_interval = 0; /* ticks only when a test asks */
	return c;
}

static int member(struct sm_config *c, const char *name, int leader)
{
	int i = add_event(c, name, SM_EV_OTHER, SM_AUTO, false);
	c->event[i].group = leader < 0 ? 0 : (unsigned)leader + 1;
	return i;
}

/* read(2) tells ERROR apart (end of file), the page's index ACTIVE
 * (every event here is mmapped and user-readable). */
static enum sm_state state(int i)
{
	uint64_t buf[3];

	if (sm_model_read(m, i, buf, sizeof(buf)) == 0)
		return SM_ERROR;
	return sm_model_page(m, i)->index ? SM_ACTIVE : SM_INACTIVE;
}

/* Two general counters: the group {L, S} takes both, the lone X cannot go
 * on (rotate_necessary).  A tick moves the first active flexible group,
 * L's, to the end (rotate_ctx()): X goes on first, and then {L, S} needs
 * two counters with one free, so neither goes on, though S alone would
 * fit: group_sched_in() is all or nothing.  The x86 transaction's failed
 * commit writes no page (x86_pmu_del() of a member added in it only
 * undoes the add), then group_update_userpage() writes L's page and S's;
 * X is started when the section ends (x86_pmu_enable(): two writes).  So
 * the tick's writes are L, S (out: x86_pmu_del()), L, S (the failed
 * group), X, X; L's and S's pages say index 0 and offset = their
 * counts, 1000 and 3000 events (rates 1 and 3 for 1000 cycles), enabled
 * and running E. */
static void test_all_or_nothing(void **state_)
{
	struct sm_config c = x86(2);
	struct page_log log = { 0 };
	char err[128];
	(void)state_;
	int L = member(&c, "L", -1), S = member(&c, "S", 0);
	int X = member(&c, "X", -1);
	c.event[S].rate = 3;
	assert_int_equal(model_init(&m, &c, page_log_note, &log, err,
	                            sizeof(err)), 0);
	assert_int_not_equal(sm_model_page(m, L)->index, 0);
	assert_int_not_equal(sm_model_page(m, S)->index, 0);
	assert_int_equal(sm_model_page(m, X)->index, 0);
	sm_model_advance(m, 1000);
	log.n = 0;
	assert_int_equal(act(m, SM_ACT_ROTATE, 0), 1);
	static const int ev[] = { 0, 1, 0, 1, 2, 2 };
	assert_int_equal(log.n, 6);
	for (unsigned k = 0; k < 6; k++)
		assert_int_equal(log.ev[k], ev[k]);
	uint64_t E = ns(START + 1000) - ns(START);
	const struct perf_event_mmap_page *l = sm_model_page(m, L);
	const struct perf_event_mmap_page *s = sm_model_page(m, S);
	assert_int_equal(l->index, 0);
	assert_int_equal(s->index, 0);
	assert_int_equal(l->offset, 1000);
	assert_int_equal(s->offset, 3000);
	assert_int_equal(s->time_enabled, E);
	assert_int_equal(s->time_running, E);
	assert_int_not_equal(sm_model_page(m, X)->index, 0);
	/* the next tick moves X (the first active flexible group) to the
	 * end: {L, S} goes on again, both of them, and X cannot */
	assert_int_equal(act(m, SM_ACT_ROTATE, 0), 1);
	assert_int_not_equal(sm_model_page(m, L)->index, 0);
	assert_int_not_equal(sm_model_page(m, S)->index, 0);
	assert_int_equal(sm_model_page(m, X)->index, 0);
}

/* perf_read_group(): nr, the leader's times, then value and id of the
 * leader and of each sibling in order.  Read from the leader or from the
 * sibling (the sibling's fd reads its leader's group, in the sibling's
 * own read_format).  Ids 1 and 2. */
static void test_read_group(void **state_)
{
	struct sm_config c = x86(2);
	uint64_t buf[16];
	(void)state_;
	int L = member(&c, "L", -1), S = member(&c, "S", 0);
	c.event[S].rate = 3;
	c.event[L].read_format = SM_RF_GIVEN | SM_RF_GROUP | SM_RF_ID |
	                         SM_RF_TOTAL_TIME_ENABLED |
	                         SM_RF_TOTAL_TIME_RUNNING;
	c.event[S].read_format = SM_RF_GIVEN | SM_RF_GROUP | SM_RF_LOST;
	init_model(&m, &c);
	sm_model_advance(m, 1000);
	uint64_t E = ns(START + 1000) - ns(START);
	/* 8 (nr) + 16 (times) + 2 * 16 (value, id) */
	assert_int_equal(sm_model_read_size(m, L), 56);
	assert_int_equal(sm_model_read(m, L, buf, 55), -ENOSPC);
	assert_int_equal(sm_model_read(m, L, buf, sizeof(buf)), 56);
	uint64_t want[] = { 2, E, E, 1000, 1, 3000, 2 };
	assert_memory_equal(buf, want, sizeof(want));
	/* 8 (nr) + 2 * 16 (value, lost) */
	assert_int_equal(sm_model_read(m, S, buf, sizeof(buf)), 40);
	uint64_t want_s[] = { 2, 1000, 0, 3000, 0 };
	assert_memory_equal(buf, want_s, sizeof(want_s));
	/* without PERF_FORMAT_GROUP a member reads alone */
	c.event[S].read_format = 0;
	init_model(&m, &c);
	sm_model_advance(m, 1000);
	assert_int_equal(sm_model_read(m, S, buf, sizeof(buf)), 24);
	uint64_t want_one[] = { 3000, E, E };
	assert_memory_equal(buf, want_one, sizeof(want_one));
}

/* A pinned group that cannot go on: merge_sched_in() puts its leader in
 * error state (read(2) is end of file), the sibling stays INACTIVE (it
 * reads, 0 counted); the lone event ahead holds the one counter. */
static void test_pinned_group_error(void **state_)
{
	struct sm_config c = x86(1);
	uint64_t buf[3];
	(void)state_;
	add_event(&c, "A", SM_EV_OTHER, SM_AUTO, true);
	int L = add_event(&c, "L", SM_EV_OTHER, SM_AUTO, true);
	int S = member(&c, "S", L);
	init_model(&m, &c);
	sm_model_advance(m, 100);
	assert_int_equal(state(0), SM_ACTIVE);
	assert_int_equal(state(L), SM_ERROR);
	assert_int_equal(sm_model_read(m, S, buf, sizeof(buf)), 24);
	assert_int_equal(buf[0], 0);
	assert_int_equal(buf[2], 0); /* never ran */
	assert_int_equal(sm_model_page(m, S)->index, 0);
}

/* The leader's enabled state governs: a sibling enabled while its leader
 * is off is not put on (__perf_event_enable(): "don't put it on unless
 * the group is on"); enabling the leader puts both on; disabling the
 * leader takes both off (group_sched_out(); the sibling stays INACTIVE,
 * so enabling it again does nothing); a disabled sibling goes off alone
 * and the group runs without it; enabling it while the group is on
 * reschedules the group with it. */
static void test_leader_governs(void **state_)
{
	struct sm_config c = x86(2);
	(void)state_;
	int L = member(&c, "L", -1), S = member(&c, "S", 0);
	c.event[L].enabled = false;
	init_model(&m, &c);
	assert_int_equal(state(L), SM_INACTIVE);
	assert_int_equal(state(S), SM_INACTIVE);
	assert_int_equal(act(m, SM_ACT_ENABLE, S), 0); /* INACTIVE already */
	assert_int_equal(state(S), SM_INACTIVE);
	assert_int_equal(act(m, SM_ACT_ENABLE, L), 1);
	assert_int_equal(state(L), SM_ACTIVE);
	assert_int_equal(state(S), SM_ACTIVE);
	assert_int_equal(act(m, SM_ACT_DISABLE, L), 1);
	assert_int_equal(state(L), SM_INACTIVE);
	assert_int_equal(state(S), SM_INACTIVE);
	assert_int_equal(act(m, SM_ACT_ENABLE, S), 0);
	assert_int_equal(act(m, SM_ACT_DISABLE, S), 1);
	assert_int_equal(act(m, SM_ACT_ENABLE, L), 1);
	assert_int_equal(state(L), SM_ACTIVE);
	assert_int_equal(state(S), SM_INACTIVE); /* OFF: left out */
	assert_int_equal(act(m, SM_ACT_ENABLE, S), 1);
	assert_int_equal(state(S), SM_ACTIVE);
	assert_int_equal(act(m, SM_ACT_DISABLE, S), 1);
	assert_int_equal(state(S), SM_INACTIVE);
	assert_int_equal(state(L), SM_ACTIVE);
}

/* A sibling's times follow its leader's state (__perf_effective_state()
 * in __perf_update_times()): enabled itself, it is OFF while its leader
 * is, and its time_enabled stands still, as the real 6.12 kernel shows.
 * L opened disabled, S enabled: at 1000 cycles S reads 0 counted, 0
 * enabled, 0 running.  L enabled at 1000 puts both on (the enable's
 * perf_event_set_state() of L brings S's times up first,
 * perf_event_update_sibling_time(), so the OFF time stays out); at 2000
 * S has run E = ns(START + 2000) - ns(START + 1000), enabled and running,
 * and counted 1000.  L disabled at 2000: at 3000 S still reads E and E. */
static void test_sibling_times_follow_leader(void **state_)
{
	struct sm_config c = x86(2);
	uint64_t buf[3];
	(void)state_;
	int L = member(&c, "L", -1), S = member(&c, "S", 0);
	c.event[L].enabled = false;
	init_model(&m, &c);
	sm_model_advance(m, 1000);
	assert_int_equal(sm_model_read(m, S, buf, sizeof(buf)), 24);
	uint64_t off[] = { 0, 0, 0 };
	assert_memory_equal(buf, off, sizeof(off));
	assert_int_equal(act(m, SM_ACT_ENABLE, L), 1);
	sm_model_advance(m, 1000);
	uint64_t E = ns(START + 2000) - ns(START + 1000);
	assert_int_equal(sm_model_read(m, S, buf, sizeof(buf)), 24);
	uint64_t on[] = { 1000, E, E };
	assert_memory_equal(buf, on, sizeof(on));
	assert_int_equal(act(m, SM_ACT_DISABLE, L), 1);
	assert_int_equal(sm_model_page(m, S)->time_enabled, E);
	sm_model_advance(m, 1000);
	assert_int_equal(sm_model_read(m, S, buf, sizeof(buf)), 24);
	assert_memory_equal(buf, on, sizeof(on));
}

/* The tick walks the active lists, which hold group leaders only
 * (perf_adjust_freq_unthr_events() over pinned_active and
 * flexible_active; merge_sched_in() adds the leader): a throttled sibling
 * is not unthrottled by it.  S, a sibling with period 2 under a counting
 * leader L, max_samples_per_tick 2: x86_perf_event_set_period()
 * programs 2 events, so S interrupts at 2 and at 4 events, and the
 * second throttles it (interrupts >= 2) and stops its counter: S has
 * counted 4.  A tick leaves it stopped: 100 cycles later still 4, while
 * L counted on (1000 + 100).  Disable and enable of L schedule the group
 * out and in again, and event_sched_in() unthrottles S (pmu->add()
 * starts its counter, in x86's group transaction too): 1 cycle later it
 * has counted 5. */
/* The group of the two throttle tests: a counting leader L, a sibling S
 * with period 2, max_samples_per_tick 2, on the given kernel. */
static void throttling_group(unsigned kernel, int *L, int *S)
{
	struct sm_config c = x86(2);

	*L = member(&c, "L", -1);
	*S = member(&c, "S", 0);
	c.event[*S].period = 2;
	c.max_samples = 2;
	c.kernel = kernel;
	init_model(&m, &c);
}

static void test_tick_leaves_sibling_throttled(void **state_)
{
	struct sm_truth t;
	int L, S;
	(void)state_;
	throttling_group(0, &L, &S);
	sm_model_advance(m, 1000);
	sm_model_truth(m, S, &t);
	assert_int_equal(t.count, 4);
	assert_int_equal(act(m, SM_ACT_TICK, 0), 0); /* nothing to do */
	sm_model_advance(m, 100);
	sm_model_truth(m, S, &t);
	assert_int_equal(t.count, 4);
	sm_model_truth(m, L, &t);
	assert_int_equal(t.count, 1100);
	assert_int_equal(act(m, SM_ACT_DISABLE, L), 1);
	assert_int_equal(act(m, SM_ACT_ENABLE, L), 1);
	sm_model_advance(m, 1);
	sm_model_truth(m, S, &t);
	assert_int_equal(t.count, 5);
}

/* Linux 7.2 throttles the whole group (perf_event_throttle_group() from
 * __perf_event_account_interrupt()) and the tick restarts it
 * (perf_adjust_freq_unthr_events(): the leader at MAX_INTERRUPTS,
 * perf_event_unthrottle_group()).  The case above under --kernel 7.2: at
 * S's second interrupt (4 events) L stops with it, so after 1000 cycles
 * both have counted 4.  The tick starts both (L is no frequency event):
 * hw.interrupts is 0 again, so S interrupts at 2 more events (one) and at
 * 4 more (two: the group throttled again), and 100 cycles later both have
 * counted 4 + 4 = 8.  The next tick does it again: 12. */
static void test_72_throttles_group(void **state_)
{
	struct sm_truth t;
	int L, S;
	(void)state_;
	throttling_group(1u << SM_KV_LINUX_7_2, &L, &S);
	sm_model_advance(m, 1000);
	sm_model_truth(m, S, &t);
	assert_int_equal(t.count, 4);
	sm_model_truth(m, L, &t);
	assert_int_equal(t.count, 4);
	for (unsigned k = 2; k <= 3; k++) {
		assert_int_equal(act(m, SM_ACT_TICK, 0), 1);
		sm_model_advance(m, 100);
		sm_model_truth(m, S, &t);
		assert_int_equal(t.count, 4 * k);
		sm_model_truth(m, L, &t);
		assert_int_equal(t.count, 4 * k);
	}
}

/* rotate_out of a sibling takes its whole group off; rotate_in of the
 * sibling puts the group back; on x86-64 no counter may be asked for a
 * member (the commit places the group as a whole). */
static void test_rotate_moves_group(void **state_)
{
	struct sm_config c = x86(2);
	char err[200];
	(void)state_;
	int L = member(&c, "L", -1), S = member(&c, "S", 0);
	init_model(&m, &c);
	assert_int_equal(act(m, SM_ACT_ROTATE_OUT, S), 1);
	assert_int_equal(state(L), SM_INACTIVE);
	assert_int_equal(state(S), SM_INACTIVE);
	assert_int_equal(act(m, SM_ACT_ROTATE_IN, S), 1);
	assert_int_equal(state(L), SM_ACTIVE);
	assert_int_equal(state(S), SM_ACTIVE);
	struct sm_action a = { .kind = SM_ACT_ROTATE_IN, .event = L,
	                       .cpu = SM_AUTO, .counter = 1 };
	assert_int_equal(act(m, SM_ACT_ROTATE_OUT, L), 1);
	assert_int_equal(sm_model_apply(m, &a, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "group"));
}

/* arm64, two counters: X (alone) on counter 0, then the group {L, S}.
 * Opening S reschedules the flexible events (ctx_resched()): X out (one
 * write), L out (one), X in (two: armpmu_start(), armpmu_add()) on
 * counter 0, L in (two) on counter 1, S finds no counter, so L goes out
 * again (armpmu_del(): one), and group_update_userpage() writes L's page
 * (S is not mmapped yet, its open comes first: no write).  Then S's mmap
 * (one write).  L and S end with index 0, X with 1. */
static void test_arm64_no_txn(void **state_)
{
	struct sm_config c;
	struct page_log log = { 0 };
	char err[128];
	(void)state_;
	sm_config_default(&c, SM_ARM64);
	c.gp = 2;
	c.mux_interval = 0;
	int X = member(&c, "X", -1), L = member(&c, "L", -1);
	int S = member(&c, "S", 1);
	assert_int_equal(model_init(&m, &c, page_log_note, &log, err,
	                            sizeof(err)), 0);
	/* the last nine writes: S's open, then S's mmap */
	static const int ev[] = { 0, 1, 0, 0, 1, 1, 1, 1, 2 };
	static const unsigned idx[] = { 0, 0, 1, 1, 2, 2, 0, 0, 0 };
	assert_true(log.n >= 9);
	unsigned from = log.n - 9;
	for (unsigned j = 0; j < 9; j++) {
		assert_int_equal(log.ev[from + j], ev[j]);
		assert_int_equal(log.pg[from + j].index, idx[j]);
	}
	assert_int_equal(sm_model_page(m, X)->index, 1);
	assert_int_equal(sm_model_page(m, L)->index, 0);
	assert_int_equal(sm_model_page(m, S)->index, 0);
}

static int teardown(void **state_)
{
	(void)state_;
	sm_model_free(m);
	m = NULL;
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_or_nothing),
		cmocka_unit_test(test_read_group),
		cmocka_unit_test(test_pinned_group_error),
		cmocka_unit_test(test_leader_governs),
		cmocka_unit_test(test_sibling_times_follow_leader),
		cmocka_unit_test(test_tick_leaves_sibling_throttled),
		cmocka_unit_test(test_72_throttles_group),
		cmocka_unit_test(test_rotate_moves_group),
		cmocka_unit_test(test_arm64_no_txn),
	};
	return cmocka_run_group_tests(tests, NULL, teardown);
}
