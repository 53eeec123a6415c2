/*
 * test_trust.c — verdicts you can trust (end to end, and the engine's
 * stuck-instruction rule white-box): every arm64 event counter and every
 * riscv64 hpm counter is readable; CNTVCTSS_EL0 is answered; an injection
 * point past the 4096th observing instruction is explored; a schedule cut
 * by the step budget makes the cell INCOMPLETE (exit 3), never PASS; a
 * counterexample of a reader at a long path replays; the page's own time
 * rounding is no false alarm; --actions/--without/--drop-scripted; wrong
 * values named by their 2^k offset; a stuck emulator is selfmon's ERROR
 * while a spinning reader is LIVELOCK; replay shows only what the ABI
 * returns; the table stays aligned.
 */
#include <sys/stat.h>

#include "cli.h"
#include "session.h"
#include "uc_arch.h"

/* Writes tmpdir()/name with text; the path into path. */
static void put(const char *name, const char *text, char *path, size_t n)
{
	snprintf(path, n, "%s/%s", tmpdir(), name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static bool compile(const char *cc, const char *src, const char *obj,
                    char *path, size_t n)
{
	return compile_reader(cc, "-O2", src, obj, path, n);
}

static unsigned count(const char *s, const char *what)
{
	unsigned n = 0;
	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* One check of `reader` over scenarios made from a template with one
 * counter name substituted; all must PASS. */
static void every_counter(const char *tmpl, const char *const *names,
                          unsigned n)
{
	static char args[16384];
	size_t used = (size_t)snprintf(args, sizeof(args),
	                               "check reference --json --no-traces");
	for (unsigned i = 0; i < n; i++) {
		char text[512], file[64], path[512];
		snprintf(text, sizeof(text), tmpl, names[i]);
		snprintf(file, sizeof(file), "counter_%s.scn", names[i]);
		put(file, text, path, sizeof(path));
		used += (size_t)snprintf(args + used, sizeof(args) - used,
		                         " --scenario '%s'", path);
	}
	run(args);
	if (r.status != 0 || count(r.out, "\"verdict\":\"PASS\"") != n)
		fail_msg("status %d: %.2000s %s", r.status, r.out, r.err);
}

/* Item 1: PMEVCNTR0..30_EL0 (Unicorn's CPU has 0..3 only). */
static void test_every_arm64_counter(void **state)
{
	static char names[31][8];
	const char *ptr[31];
	(void)state;
	if (!arch_built("arm64"))
		skip();
	for (unsigned c = 0; c < 31; c++) {
		snprintf(names[c], sizeof(names[c]), "%u", c);
		ptr[c] = names[c];
	}
	every_counter("arch arm64\npmu gp=31 user_access=1\n"
	              "clock hz=1000000000\nevent e type=other counter=%s\n"
	              "check at=2000 explore=overflow,rotate_out,rotate_in\n"
	              "end 3000\n", ptr, 31);
}

/* Item 1: hpmcounter3..31. */
static void test_every_riscv_counter(void **state)
{
	static char names[31][8];
	const char *ptr[31];
	(void)state;
	if (!arch_built("riscv64"))
		skip();
	for (unsigned c = 3; c < 32; c++) {
		snprintf(names[c - 3], sizeof(names[0]), "hpm%u", c);
		ptr[c - 3] = names[c - 3];
	}
	every_counter("arch riscv64\npmu gp=29 width=48 user_access=1\n"
	              "clock hz=1000000000\nevent e type=other counter=%s\n"
	              "check at=2000 explore=overflow,reset,migrate\nend 3000\n",
	              ptr, 29);
}

/* Item 1: a register Unicorn's CPU lacks is answered, not retried. */
static void test_cntvctss(void **state)
{
	char obj[512], args[1024];
	(void)state;
	if (!arch_built("arm64") ||
	    !compile("aarch64-linux-gnu-gcc", "cntvctss_reader.c", "ss.o", obj,
	             sizeof(obj)))
		skip();
	snprintf(args, sizeof(args), "replay 'arm64:unicorn:%s#ss_read#raw:"
	         "arm64_counters:-' --explain", obj);
	run(args);
	if (!strstr(r.out, "trap  mrs CNTVCTSS_EL0") ||
	    !strstr(r.out, "PASS after 2 steps"))
		fail_msg("status %d: %s %s", r.status, r.out, r.err);
}

/* Item 3: injection points past the 4096th observing instruction. */
static void test_late_points(void **state)
{
	char obj[512], scn[512], args[2048];
	(void)state;
	assert_true(compile("gcc", "long_reader.c", "long.o", obj, sizeof(obj)));
	put("overflow.scn", "arch x86_64\npmu gp=4 fixed=3 width=48\n"
	    "clock hz=2900000000\nevent branches counter=gp1 left=100000\n"
	    "check at=3000 explore=overflow\nend 40000\n", scn, sizeof(scn));
	snprintf(args, sizeof(args), "check %s:long_read --abi raw --scenario "
	         "%s --bound 1 --json --no-traces", obj, scn);
	run(args);
	assert_int_equal(r.status, 1);
	const char *m = strstr(r.out, "\"minimised\":\"");
	assert_non_null(m);
	const char *at = strstr(m, "overflow@");
	assert_non_null(at);
	assert_true(strtoull(at + 9, NULL, 10) > 4096 * 3);
}

/* A cell's time limit, when hit, leaves it INCOMPLETE, never PASS. */
static void test_time_limit(void **state)
{
	char obj[512], scn[512], args[2048];
	(void)state;
	assert_true(compile("gcc", "long_reader.c", "long.o", obj, sizeof(obj)));
	put("overflow_reset.scn", "arch x86_64\npmu gp=4 fixed=3 width=48\n"
	    "clock hz=2900000000\nevent branches counter=gp1 left=100000\n"
	    "check at=3000 explore=stall\nend 40000\n", scn, sizeof(scn));
	snprintf(args, sizeof(args), "check %s:long_read --abi raw --scenario "
	         "%s --bound 2 --time-limit 1 --no-traces", obj, scn);
	run(args);
	if (r.status != 3 || !strstr(r.out, "INCOMPLETE") ||
	    !strstr(r.out, "time limit of 1 s"))
		fail_msg("%d %s %s", r.status, r.out, r.err);
	expect_usage_error("check --time-limit x", "bad value 'x' for "
	                   "--time-limit");
}

/* Item 3: a schedule still retrying at the budget is not judged: the cell
 * is INCOMPLETE, not PASS, in the table, the JSON and the exit status. */
static void test_blocked_is_incomplete(void **state)
{
	char scn[512], args[1024];
	(void)state;
	put("busy.scn", "arch x86_64\npmu gp=2 fixed=0 width=48\n"
	    "clock hz=2900000000\nevent e type=other period=20 left=20\n"
	    "check at=5000 explore=reset\nend 100000\n", scn, sizeof(scn));
	snprintf(args, sizeof(args), "check reference --scenario %s --bound 0 "
	         "--no-traces", scn);
	run(args);
	assert_int_equal(r.status, 3);
	assert_non_null(strstr(r.out, "INCOMPLETE"));
	assert_non_null(strstr(r.out, "not judged"));
	snprintf(args, sizeof(args), "check reference --scenario %s --bound 0 "
	         "--no-traces --json", scn);
	run(args);
	assert_int_equal(r.status, 3);
	assert_non_null(strstr(r.out, "\"verdict\":\"INCOMPLETE\""));
	assert_non_null(strstr(r.out, "\"exhaustive\":false"));
	assert_non_null(strstr(r.out, "\"incomplete\":1"));
}

/* Item 4: the counterexample of a reader at a long path replays, from
 * its line and from its trace file; item 10: the table stays aligned. */
static void test_long_path(void **state)
{
	char obj[512], deep[1024], cmd[4096], args[4096], line[4096];
	(void)state;
	assert_true(compile("gcc", "long_reader.c", "long.o", obj, sizeof(obj)));
	snprintf(deep, sizeof(deep), "%s/a_directory_name_long_enough_to_pass_"
	         "seventy_characters_in_the_path_of_the_reader", tmpdir());
	assert_int_equal(mkdir(deep, 0700), 0);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s/reader_object.o'", obj, deep);
	assert_int_equal(system(cmd), 0);
	snprintf(args, sizeof(args), "check %s/reader_object.o:long_read --abi "
	         "raw --scenario x86_overflow --scenario x86_reset --bound 1 "
	         "--traces %s/cex", deep, tmpdir());
	run(args);
	assert_int_equal(r.status, 1);
	/* every row's verdict column starts where the header's does; the
	 * reader is its FILE:SYMBOL, not its long path */
	const char *h = strstr(r.out, "reader             scenario           "
	                       "verdict");
	assert_non_null(h);
	unsigned rows = 0;
	for (const char *p = strchr(h, '\n') + 1; *p && *p != '\n';
	     p = strchr(p, '\n') + 1, rows++)
		if (p[37] != ' ' || p[38] == ' ' || strncmp(p, "reader_", 7))
			fail_msg("misaligned row: %.120s", p);
	assert_int_equal(rows, 2);
	const char *v = strstr(r.out, " in x86_overflow: ");
	const char *m = strstr(r.out, "minimised: ");
	assert_non_null(v);
	assert_non_null(m);
	char verdict[32];
	snprintf(verdict, sizeof(verdict), "%.*s", (int)strcspn(v + 18, ","),
	         v + 18);
	snprintf(line, sizeof(line), "%.*s", (int)strcspn(m + 11, "\n"), m + 11);
	assert_true(strlen(line) > 150);
	snprintf(args, sizeof(args), "replay '%s'", line);
	run(args);
	if (r.status != 1 || strncmp(r.out, verdict, strlen(verdict)))
		fail_msg("replay '%s' (%s): %d %s %s", line, verdict, r.status,
		         r.out, r.err);
	snprintf(args, sizeof(args), "replay %s/cex/reader_object.o_long_read-"
	         "x86_overflow-unicorn.trace", tmpdir());
	run(args);
	if (r.status != 1 || strncmp(r.out, verdict, strlen(verdict)))
		fail_msg("%s: %d %s %s", args, r.status, r.out, r.err);
}

/* Item 5: the page's cycles-to-ns conversion rounds differently from
 * sched_clock; a correct reader's value from it is the truth. */
static void test_page_rounding(void **state)
{
	char scn[512], args[1024];
	(void)state;
	if (!arch_built("arm64"))
		skip();
	put("round.scn", "arch arm64\npmu gp=6 user_access=1\n"
	    "clock mult=4000000000 shift=31 start=0xfffffffff0000\n"
	    "event cycles\ncheck at=2000 explore=preempt,migrate\nend 3000\n",
	    scn, sizeof(scn));
	snprintf(args, sizeof(args), "check reference --scenario %s --no-traces",
	         scn);
	run(args);
	if (r.status != 0)
		fail_msg("%d %s %s", r.status, r.out, r.err);
}

/* Item 6: the kernel actions a user's environment produces. */
static void test_action_filter(void **state)
{
	(void)state;
	run("check no_zero_ext_fix --scenario x86_reset --no-traces");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "WRONG_VALUE"));
	run("check no_zero_ext_fix --scenario x86_reset --without reset "
	    "--no-traces --json");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\"verdict\":\"PASS\""));
	/* its failure needs the reset: the corpus's row without it says PASS */
	assert_non_null(strstr(r.out, "\"expected\":\"PASS\""));
	assert_non_null(strstr(r.out, "\"actions\":\"rotate_out,rotate_in,"
	                       "overflow,migrate\""));
	run("check no_zero_ext_fix --scenario x86_reset --without reset "
	    "--no-traces");
	assert_non_null(strstr(r.out, "never injected: reset (--without)"));
	assert_non_null(strstr(r.out, "scripted 'at' lines still run"));
	/* dropped scripted lines travel in the line, so it replays */
	run("check no_zero_ext_fix --scenario x86_reset --actions reset "
	    "--drop-scripted --no-traces");
	assert_non_null(strstr(r.out, "x86_reset: 2 scripted 'at' lines "
	                       "skipped"));
	const char *m = strstr(r.out, "x86_64:unicorn:no_zero_ext_fix:x86_reset:");
	assert_non_null(m);
	char line[512], args[600];
	snprintf(line, sizeof(line), "%.*s", (int)strcspn(m, " \n"), m);
	assert_non_null(strstr(line, ";dropped=rotate_out,rotate_in"));
	snprintf(args, sizeof(args), "replay '%s'", line);
	run(args);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "WRONG_VALUE"));
	/* (tick: a restart without a reload leaves the quirk too, in
	 * x86_freq; preempt: x86_set_output's hazard) */
	run("explain-bug no_zero_ext_fix --without reset,migrate,rotate_in,"
	    "rotate_out,overflow,tick,preempt --drop-scripted");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "No bundled scenario makes it fail"));
	snprintf(args, sizeof(args), "plot x86_reset --without reset --reader "
	         "reference --schedule reset@3 -o %s/p.svg", tmpdir());
	expect_usage_error(args, "--schedule has reset");
	expect_usage_error("check --actions bogus", "unknown action 'bogus'");
	expect_usage_error("check --without", "--without needs a list");
	expect_usage_error("explain-bug no_sext --actions", "needs a list");
}

/* Item 7: wrong values name their exact offset from the truth. */
static void test_offsets_named(void **state)
{
	(void)state;
	run("check no_sext --scenario x86_overflow --json --no-traces");
	assert_non_null(strstr(r.out, "exactly 2^48"));
	assert_non_null(strstr(r.out, "not sign-extended from bit 47"));
	/* the cell carries it as data */
	assert_non_null(strstr(r.out, "\"wrong\":[{\"field\":\"count\","));
	assert_non_null(strstr(r.out, "\"offset_bits\":48,\"offset\":\"above\","
	                       "\"cause\":\"no_sign_extension\",\"width\":48"));
	if (!arch_built("arm64"))
		return;
	run("check libperf_nosext --scenario arm64_bias --json --no-traces");
	assert_non_null(strstr(r.out, "exactly 2^32 above the truth"));
}

/* Issue #26 item 4: the causes are the arch's, the field's and the
 * schedule's.  riscv64's 48-bit hpmcounter is not "the x86 counter
 * width"; a time off by 2^32 is time_mask, not a counter's sign
 * extension; a sign-extending reader 2^48 below after the reset is the
 * IOC_RESET quirk alone; the values ABI reports every wrong field. */
static void test_causes_by_arch_and_schedule(void **state)
{
	(void)state;
	run("check no_zero_ext_fix --scenario x86_reset --json --no-traces");
	assert_non_null(strstr(r.out, "\"offset\":\"below\",\"cause\":"
	                       "\"reset_quirk\""));
	assert_non_null(strstr(r.out, "IOC_RESET quirk"));
	assert_null(strstr(r.out, "sign extension, or the IOC_RESET"));
	run("check libperf_nosext --scenario x86_migrate --json --no-traces");
	assert_non_null(strstr(r.out, "{\"field\":\"count\","));
	assert_non_null(strstr(r.out, "{\"field\":\"enabled\","));
	assert_non_null(strstr(r.out, "{\"field\":\"running\","));
	run("check rfc2011_mux --scenario x86_migrate --json --no-traces");
	assert_non_null(strstr(r.out, "\"field\":\"scaled\""));
	assert_non_null(strstr(r.out, "\"offset_bits\":48"));
	if (arch_built("riscv64")) {
		run("check no_sext --scenario riscv64 --json --no-traces");
		assert_non_null(strstr(r.out, "\"cause\":\"no_sign_extension\""));
		assert_null(strstr(r.out, "x86"));
		assert_non_null(strstr(r.out, "the counter CSR's value"));
	}
	if (arch_built("arm64")) {
		run("check no_time_mask --scenario arm64_timer_wrap --json "
		    "--no-traces");
		assert_non_null(strstr(r.out, "{\"field\":\"enabled\","));
		assert_non_null(strstr(r.out, "\"cause\":\"time_wrap\""));
		assert_null(strstr(r.out, "sign extension of a 32-bit counter"));
	}
	if (arch_built("riscv64")) {
		run("check reference --scenario riscv64_rotate --json "
		    "--no-traces");
		assert_non_null(strstr(r.out, "\"fault\":{\"kind\":\"counter\","
		                       "\"pc\":"));
	}
	run("check papi_offset_mask --scenario x86_multiplex --json "
	    "--no-traces");
	assert_non_null(strstr(r.out, "\"cause\":\"count_masked\","));
	assert_non_null(strstr(r.out, "\"burst\":true"));
	assert_non_null(strstr(r.out, "an overflow's burst of events"));
}

/* Item 8, white-box: the emulator executing again an instruction whose
 * trap selfmon answered is selfmon's ERROR, naming it; a pc that repeats
 * with nothing answered is the reader's own loop. */
static void test_stuck_rule(void **state)
{
	struct sm_session *s = sm_session_new();
	struct ueng e = { 0 };
	(void)state;
	assert_non_null(s);
	assert_int_equal(uc_open(UC_ARCH_X86, UC_MODE_64, &e.uc), UC_ERR_OK);
	s->eng = &e;
	assert_true(sm_uc_progress(s, 0x1000));
	assert_true(sm_uc_progress(s, 0x1000)); /* jmp . */
	e.answered = "rdpmc";
	assert_true(sm_uc_progress(s, 0x1002)); /* moved on */
	assert_null(e.answered);
	e.answered = "mrs PMEVCNTR4_EL0";
	assert_false(sm_uc_progress(s, 0x1002));
	assert_int_equal(s->res.verdict, SM_V_ERROR);
	assert_non_null(strstr(s->res.detail, "0x1002"));
	assert_non_null(strstr(s->res.detail, "mrs PMEVCNTR4_EL0"));
	assert_false(sm_verdict_fails(SM_V_ERROR)); /* never the reader's */
	uc_close(e.uc);
	s->eng = NULL;
	sm_session_free(s);
}

/* Item 8, end to end: a reader spinning on one instruction is LIVELOCK. */
static void test_spin_is_livelock(void **state)
{
	char obj[512], args[1024];
	(void)state;
	assert_true(compile("gcc", "spin_reader.c", "spin.o", obj, sizeof(obj)));
	snprintf(args, sizeof(args), "check %s:spin_read --abi raw --scenario "
	         "x86_pinned --bound 0 --no-traces", obj);
	run(args);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "LIVELOCK"));
}

/* Item 9: replay shows what the reader's ABI returns, and only that. */
static void test_replay_by_abi(void **state)
{
	(void)state;
	run("replay x86_64:unicorn:pinned_loop:x86_pinned:- --explain");
	assert_non_null(strstr(r.out, "returned count="));
	assert_null(strstr(r.out, "enabled="));
	run("replay x86_64:unicorn:uapi_2022:x86_pinned:-");
	assert_non_null(strstr(r.out, "returned scaled count="));
	assert_null(strstr(r.out, "running="));
	run("replay x86_64:unicorn:reference:x86_pinned:-");
	assert_non_null(strstr(r.out, "returned 0, count="));
	assert_non_null(strstr(r.out, " running="));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_arm64_counter),
		cmocka_unit_test(test_every_riscv_counter),
		cmocka_unit_test(test_cntvctss),
		cmocka_unit_test(test_late_points),
		cmocka_unit_test(test_blocked_is_incomplete),
		cmocka_unit_test(test_time_limit),
		cmocka_unit_test(test_long_path),
		cmocka_unit_test(test_page_rounding),
		cmocka_unit_test(test_action_filter),
		cmocka_unit_test(test_offsets_named),
		cmocka_unit_test(test_causes_by_arch_and_schedule),
		cmocka_unit_test(test_stuck_rule),
		cmocka_unit_test(test_spin_is_livelock),
		cmocka_unit_test(test_replay_by_abi),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
