/*
 * test_schedule.c — the one-line schedule form round-trips, and malformed
 * lines are refused with the reason.
 */
#include <stdlib.h>

#include "testutil.h"
#include "explore.h"

static void test_round_trip(void **state)
{
	struct sm_schedule s = { .n = 3, .item = { { 0, SM_ACT_RESET },
	                                           { 17, SM_ACT_ROTATE_OUT },
	                                           { 30, SM_ACT_ROTATE_IN } } };
	struct sm_schedule_line l;
	char buf[256], err[128];
	(void)state;
	sm_schedule_format(buf, sizeof(buf), SM_X86_64, SM_ENGINE_UNICORN,
	                   "reference", "traces/x.scn", &s);
	assert_string_equal(buf, "x86_64:unicorn:reference:traces/x.scn:"
	                    "reset@0,rotate_out@17,rotate_in@30");
	assert_int_equal(sm_schedule_parse(buf, &l, err, sizeof(err)), 0);
	assert_int_equal(l.arch, SM_X86_64);
	assert_int_equal(l.engine, SM_ENGINE_UNICORN);
	assert_string_equal(l.reader, "reference");
	assert_string_equal(l.scenario, "traces/x.scn");
	assert_int_equal(l.sched.n, 3);
	for (unsigned i = 0; i < 3; i++) {
		assert_int_equal(l.sched.item[i].step, s.item[i].step);
		assert_int_equal(l.sched.item[i].kind, s.item[i].kind);
	}
	sm_schedule_line_free(&l);
	s.n = 0;
	sm_schedule_format(buf, sizeof(buf), SM_X86_64, SM_ENGINE_NATIVE, "no_sext",
	                   "x86_reset", &s);
	assert_string_equal(buf, "x86_64:native:no_sext:x86_reset:-");
	assert_int_equal(sm_schedule_parse(buf, &l, err, sizeof(err)), 0);
	assert_int_equal(l.sched.n, 0);
	assert_int_equal(l.engine, SM_ENGINE_NATIVE);
	sm_schedule_line_free(&l);
	/* scripted lines skipped by --drop-scripted are part of the line */
	s.dropped = (1u << SM_ACT_RESET) | (1u << SM_ACT_MIGRATE);
	sm_schedule_format(buf, sizeof(buf), SM_X86_64, SM_ENGINE_UNICORN, "r",
	                   "x86_reset", &s);
	assert_string_equal(buf, "x86_64:unicorn:r:x86_reset:-;dropped=migrate,"
	                    "reset");
	assert_int_equal(sm_schedule_parse(buf, &l, err, sizeof(err)), 0);
	assert_int_equal(l.sched.dropped, s.dropped);
	assert_int_equal(l.sched.n, 0);
	sm_schedule_line_free(&l);
}

/* Any reader and scenario name round-trips, however long (a user's
 * PATH#SYMBOL#ABI reader at a deep path); the form says its length. */
static void test_long_names(void **state)
{
	struct sm_schedule s = { .n = 1, .item = { { 12, SM_ACT_OVERFLOW } } };
	struct sm_schedule_line l;
	char reader[3000], scn[2000], err[128];
	(void)state;
	memset(reader, 'r', sizeof(reader) - 1);
	reader[sizeof(reader) - 1] = 0;
	memcpy(reader, "/d/", 3);
	memcpy(reader + sizeof(reader) - 12, "#fn#values", 11);
	memset(scn, 's', sizeof(scn) - 1);
	scn[sizeof(scn) - 1] = 0;
	char *line = sm_schedule_text(SM_ARM64, SM_ENGINE_UNICORN, reader, scn, &s);
	assert_non_null(line);
	assert_int_equal(strlen(line), sm_schedule_format(NULL, 0, SM_ARM64,
	                 SM_ENGINE_UNICORN, reader, scn, &s));
	assert_int_equal(sm_schedule_parse(line, &l, err, sizeof(err)), 0);
	assert_string_equal(l.reader, reader);
	assert_string_equal(l.scenario, scn);
	assert_int_equal(l.sched.n, 1);
	assert_int_equal(l.sched.item[0].step, 12);
	sm_schedule_line_free(&l);
	free(line);
}

static void refused(const char *line, const char *why)
{
	struct sm_schedule_line l;
	char err[256];
	assert_int_equal(sm_schedule_parse(line, &l, err, sizeof(err)), -1);
	if (!strstr(err, why))
		fail_msg("'%s': '%s' lacks '%s'", line, err, why);
}

static void test_refused(void **state)
{
	(void)state;
	refused("x86_64:unicorn:reference:s:reset@1,reset@2,reset@3,reset@4,"
	        "reset@5,reset@6,reset@7", "too many actions");
	refused("x86_64:unicorn:reference:s:reset@-1", "bad step");
	refused("x86_64:unicorn:reference:s:reset@", "bad step");
	refused("x86_64:unicorn:reference:s:reset@+5", "bad step");
	refused("x86_64:unicorn:reference:s:reset@ 5", "bad step");
	refused("x86_64:unicorn:reference:s:reset@0x5", "bad step");
	refused("x86_64:unicorn:reference:s:,,,", "empty item");
	refused("x86_64:unicorn:reference:s:reset@1,,reset@2", "empty item");
	refused("x86_64:unicorn:reference:s:reset@1,", "empty item");
	refused("x86_64:unicorn:reference:s:", "no actions");
	refused("x86_64:unicorn:r:s:-;dropped=reset,,overflow", "empty item");
	refused("x86_64:unicorn:reference:s:reset@99999999999999999999999",
	        "bad step");
	refused("x86_64:unicorn:reference:s:reset@5,overflow@4",
	        "steps must not decrease");
	refused("x86_64:unicorn::s:-", "empty reader");
	refused("x86_64:unicorn:reference::-", "empty reader or scenario");
	refused("", "expected ARCH");
	refused("x86_64:unicorn:r:s:-;drop=reset", "expected ;dropped=");
	refused("x86_64:unicorn:r:s:-;dropped=bogus", "unknown action");
	refused("x86_64:unicorn:r:s:-;kernel=fast", "unknown kernel 'fast'");
	refused("x86_64:unicorn:r:s:-;kernel=", "bad kernel list");
}

/* The kernel a line ran under: ";kernel=" after ";dropped=", named once
 * given (";kernel=base" too), absent for a line of the kernel as it is. */
static void test_kernel_suffix(void **state)
{
	struct sm_schedule s = {
		.n = 1, .item = { { 7, SM_ACT_RESET } },
		.dropped = 1u << SM_ACT_ROTATE_OUT,
		.kernel = SM_SCHED_KERNEL | 1u << SM_KV_RESET_PREV_COUNT,
	};
	struct sm_schedule_line l;
	char buf[256], err[128];
	(void)state;
	sm_schedule_format(buf, sizeof(buf), SM_X86_64, SM_ENGINE_UNICORN, "r",
	                   "s", &s);
	assert_string_equal(buf, "x86_64:unicorn:r:s:reset@7;dropped=rotate_out"
	                         ";kernel=reset_prev_count");
	assert_int_equal(sm_schedule_parse(buf, &l, err, sizeof(err)), 0);
	assert_int_equal(l.sched.kernel, s.kernel);
	assert_int_equal(l.sched.dropped, s.dropped);
	assert_int_equal(l.sched.n, 1);
	sm_schedule_line_free(&l);
	s.kernel = SM_SCHED_KERNEL;
	sm_schedule_format(buf, sizeof(buf), SM_X86_64, SM_ENGINE_UNICORN, "r",
	                   "s", &s);
	assert_string_equal(buf, "x86_64:unicorn:r:s:reset@7;dropped=rotate_out"
	                         ";kernel=base");
	s.kernel = 0;
	s.dropped = 0;
	sm_schedule_format(buf, sizeof(buf), SM_X86_64, SM_ENGINE_UNICORN, "r",
	                   "s", &s);
	assert_string_equal(buf, "x86_64:unicorn:r:s:reset@7");
	assert_int_equal(sm_schedule_parse("x86_64:unicorn:r:s:-;kernel=base", &l,
	                                   err, sizeof(err)), 0);
	assert_int_equal(l.sched.kernel, SM_SCHED_KERNEL);
	sm_schedule_line_free(&l);
}

/* The CPU's stale reads (";stale_select=", schedule.h): after the
 * actions, before ";dropped=", ascending, and with the actions at most
 * six choices in all. */
static void test_stale_suffix(void **state)
{
	struct sm_schedule s = {
		.n = 1, .item = { { 7, SM_ACT_RESET } },
		.dropped = 1u << SM_ACT_ROTATE_OUT,
		.nstale = 2, .stale = { 7, 45 },
	};
	struct sm_schedule_line l;
	char buf[256], err[128];
	(void)state;
	sm_schedule_format(buf, sizeof(buf), SM_ARM64, SM_ENGINE_UNICORN, "r",
	                   "s", &s);
	assert_string_equal(buf, "arm64:unicorn:r:s:reset@7;stale_select=7,45"
	                         ";dropped=rotate_out");
	assert_int_equal(sm_schedule_parse(buf, &l, err, sizeof(err)), 0);
	assert_int_equal(l.sched.n, 1);
	assert_int_equal(l.sched.nstale, 2);
	assert_int_equal(l.sched.stale[0], 7);
	assert_int_equal(l.sched.stale[1], 45);
	assert_int_equal(l.sched.dropped, s.dropped);
	assert_int_equal(sm_schedule_len(&l.sched), 3);
	sm_schedule_line_free(&l);
	s.n = 0;
	s.nstale = 1;
	sm_schedule_format(buf, sizeof(buf), SM_ARM64, SM_ENGINE_UNICORN, "r",
	                   "s", &s);
	assert_string_equal(buf, "arm64:unicorn:r:s:-;stale_select=7"
	                         ";dropped=rotate_out");
	static const struct { const char *line, *why; } bad[] = {
		{ "arm64:unicorn:r:s:-;stale_select=", "empty item" },
		{ "arm64:unicorn:r:s:-;stale_select=4,,5", "empty item" },
		{ "arm64:unicorn:r:s:-;stale_select=9,4", "steps must increase" },
		{ "arm64:unicorn:r:s:-;stale_select=4,4", "steps must increase" },
		{ "arm64:unicorn:r:s:-;stale_select=4x", "bad step '4x'" },
		{ "arm64:unicorn:r:s:-;stale_select=-4", "bad step '-4'" },
		{ "arm64:unicorn:r:s:-;stale_select=1,2,3,4,5,6,7",
		  "too many choices (max 6)" },
		{ "arm64:unicorn:r:s:reset@1,reset@2;stale_select=1,2,3,4,5",
		  "too many actions and choices (max 6)" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(sm_schedule_parse(bad[i].line, &l, err,
		                                   sizeof(err)), -1);
		if (!strstr(err, bad[i].why))
			fail_msg("%s: '%s' lacks '%s'", bad[i].line, err, bad[i].why);
	}
	assert_int_equal(sm_schedule_parse("arm64:unicorn:r:s:reset@1;"
	                                   "stale_select=1,2,3,4,5", &l, err,
	                                   sizeof(err)), 0);
	assert_int_equal(sm_schedule_len(&l.sched), 6);
	sm_schedule_line_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_long_names),
		cmocka_unit_test(test_kernel_suffix),
		cmocka_unit_test(test_stale_suffix),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
