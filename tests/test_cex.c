/*
 * test_cex.c — counterexample traces (sim/explore/cex_trace.c): what the
 * writer writes reads back; the writer writes what `check` writes, byte
 * for byte; `replay FILE` refuses a bad trace in one line
 * "FILE:LINE:COL: message" with exit 2, and replays a good one.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cex_trace.h"
#include "cli.h"
#include "input.h"

#define LINE "x86_64:unicorn:reference:x86_reset:-"

/* The writer's text for these fields (malloc'ed). */
static char *written(const char *path, const char *schedule,
                     enum sm_verdict v, const char *detail,
                     const char *found)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(sm_cex_trace_write(f, path, schedule, v, detail,
	                                    found), 0);
	assert_int_equal(fclose(f), 0);
	return text;
}

static void test_round_trip(void **state)
{
	static const char detail[] = " count = 5 # not \x1b[31mthe truth\x7f ";
	struct sm_cex_trace t;
	char err[512], printable[sizeof(detail)];
	(void)state;

	char *text = written("a b/t.trace", LINE, SM_V_WRONG_VALUE, detail,
	                     "x86_64:unicorn:reference:x86_reset:reset@3,reset@9");
	assert_int_equal(count_lines(text), 5);
	assert_int_equal(sm_cex_trace_parse("t.trace", text, &t, err,
	                                    sizeof(err)), 0);
	assert_string_equal(t.schedule, LINE);
	assert_int_equal(t.verdict, SM_V_WRONG_VALUE);
	snprintf(printable, sizeof(printable), "%s", detail);
	sm_printable(printable);
	assert_string_equal(t.detail, printable); /* blanks and '#' kept */
	assert_null(strchr(t.detail, '\x1b'));
	assert_string_equal(t.found,
	                    "x86_64:unicorn:reference:x86_reset:reset@3,reset@9");
	sm_cex_trace_free(&t);
	free(text);

	/* only the schedule is required; CRLF reads as LF */
	assert_int_equal(sm_cex_trace_parse("t.trace", "schedule " LINE "\r\n",
	                                    &t, err, sizeof(err)), 0);
	assert_string_equal(t.schedule, LINE);
	assert_int_equal(t.verdict, -1);
	assert_null(t.detail);
	assert_null(t.found);
	sm_cex_trace_free(&t);
}

static char *read_all(const char *path)
{
	size_t len;
	char why[256], *text = sm_read_input(path, SM_TRACE_MAX_BYTES, &len, why,
	                                     sizeof(why));
	if (!text)
		fail_msg("%s: %s", path, why);
	return text;
}

/* The trace check writes is the writer's text of its own fields. */
static void test_check_writes_the_format(void **state)
{
	char args[1024], path[512], err[512];
	struct sm_cex_trace t;
	(void)state;

	snprintf(args, sizeof(args), "check no_zero_ext_fix --scenario x86_reset "
	         "--traces %s/cex", tmpdir());
	run(args);
	assert_int_equal(r.status, 0);
	snprintf(path, sizeof(path), "%s/cex/no_zero_ext_fix-x86_reset-unicorn"
	         ".trace", tmpdir());
	char *text = read_all(path);
	assert_int_equal(sm_cex_trace_load(path, &t, err, sizeof(err)), 0);
	assert_int_equal(t.verdict, SM_V_WRONG_VALUE);
	assert_non_null(t.detail);
	assert_non_null(t.found);
	char *again = written(path, t.schedule, (enum sm_verdict)t.verdict,
	                      t.detail, t.found);
	assert_string_equal(again, text);
	free(again);
	free(text);
	sm_cex_trace_free(&t);
	snprintf(args, sizeof(args), "replay %s", path);
	run(args);
	assert_int_equal(r.status, 1);
	assert_true(!strncmp(r.out, "WRONG_VALUE", 11));
}

/* `replay FILE` with `text` in FILE: one error line, `where` being
 * "LINE:COL: message". */
static void expect_bad_trace(const char *text, size_t len, const char *where)
{
	char path[512], args[1024], msg[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/bad.trace", tmpdir());
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	snprintf(args, sizeof(args), "replay %s", path);
	snprintf(msg, sizeof(msg), "replay: %s:%s", path, where);
	expect_usage_error(args, msg);
}
#define BAD(text, where) expect_bad_trace(text, sizeof(text) - 1, where)

static void test_bad_traces(void **state)
{
	(void)state;
	BAD("", "1:1: missing 'schedule' line (not a counterexample trace of "
	    "'selfmon check')");
	BAD("# a comment\nverdict PASS\n", "3:1: missing 'schedule' line");
	BAD("schedule " LINE "\nfrob 1\n", "2:1: unknown key 'frob' in a "
	    "counterexample trace (expected schedule, verdict, detail or found)");
	BAD("schedule " LINE "\n  schedule " LINE "\n",
	    "2:3: duplicate 'schedule' (line 1 has one)");
	BAD("schedule nope\n", "1:10: bad schedule: expected "
	    "ARCH:ENGINE:READER:SCENARIO:ACTIONS, got 'nope'");
	BAD("schedule\n", "1:10: bad schedule: expected "
	    "ARCH:ENGINE:READER:SCENARIO:ACTIONS, got ''");
	BAD("schedule " LINE "\nfound x86_64:unicorn:reference:x86_reset:"
	    "explode@3\n", "2:7: bad schedule: unknown action 'explode'");
	BAD("verdict MAYBE\nschedule " LINE "\n", "1:9: bad value 'MAYBE' for "
	    "verdict (expected PASS, BLOCKED, INCOMPLETE, WRONG_VALUE, FAULT, "
	    "LIVELOCK, ERROR or UNSUPPORTED)");
	BAD("schedule " LINE "\ndetail a\tb\n", "2:9: control character in a "
	    "trace line");
	/* the old reader took the first line starting "schedule " anywhere */
	BAD("garbage\nschedule " LINE "\n", "1:1: unknown key 'garbage'");
	char nul[] = "schedule " LINE "\n\0x\n";
	expect_bad_trace(nul, sizeof(nul) - 1, " file contains a NUL byte");
}

/* A trace of a passing schedule written by hand, CRLF, replays. */
static void test_replay_crlf(void **state)
{
	char path[512], args[1024];
	(void)state;

	snprintf(path, sizeof(path), "%s/crlf.trace", tmpdir());
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("# by hand\r\nschedule " LINE "\r\nverdict PASS\r\n", f);
	assert_int_equal(fclose(f), 0);
	snprintf(args, sizeof(args), "replay %s", path);
	run(args);
	assert_int_equal(r.status, 0);
	assert_true(!strncmp(r.out, "PASS", 4));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_check_writes_the_format),
		cmocka_unit_test(test_bad_traces),
		cmocka_unit_test(test_replay_crlf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
