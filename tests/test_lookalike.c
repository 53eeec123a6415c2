/*
 * test_lookalike.c — users' readers wherever a built-in one is taken:
 * explain-bug and plot --reader run PATH:SYMBOL (with --abi); hw refuses
 * one in one line that says why and what to run instead.  A user's
 * failure with a corpus fault's signature is named with that variant's
 * fault and fix, in check's details and in explain-bug; one without says
 * so.  Readers: tests/elf/buggy_reader.c (no sign extension: no_sext's
 * signature), tests/elf/good_reader.c, tests/readers/lifecycle_reader.c.
 */
#include "cli.h"

static void object(const char *cc, const char *src, const char *obj,
                   char *path, size_t n)
{
	char cmd[2048];
	snprintf(path, n, "%s/%s", tmpdir(), obj);
	snprintf(cmd, sizeof(cmd), "%s -O2 -c -I'%s/model' '%s/tests/%s' -o '%s' "
	         "2>/dev/null", cc, SELFMON_SRC, SELFMON_SRC, src, path);
	assert_int_equal(system(cmd), 0);
}

/* check's details: the lookalike line and its fix, on x86_64 and (when
 * built) arm64. */
static void test_check_details(void **state)
{
	char obj[512], args[2048];
	(void)state;
	object("gcc", "elf/buggy_reader.c", "bx.o", obj, sizeof(obj));
	snprintf(args, sizeof(args), "check %s:buggy_read --abi values "
	         "--scenario x86_pinned --no-traces", obj);
	run(args);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "  this looks like `no_sext` (a corpus "
	                       "fault failing the same way here"));
	assert_non_null(strstr(r.out, "  its fix: sign-extend from pmc_width."));
	/* the JSON carries it, and merge's details say it as check's do */
	char json[600];
	snprintf(json, sizeof(json), "%s/bx.json", tmpdir());
	snprintf(args, sizeof(args), "check %s:buggy_read --abi values "
	         "--scenario x86_pinned --no-traces --json", obj);
	run(args);
	assert_non_null(strstr(r.out, "\"looks_like\":\"no_sext,"));
	FILE *f = fopen(json, "w");
	assert_non_null(f);
	fputs(r.out, f);
	fclose(f);
	snprintf(args, sizeof(args), "merge '%s'", json);
	run(args);
	assert_non_null(strstr(r.out, "  this looks like `no_sext`"));
	if (arch_built("arm64")) {
		object("aarch64-linux-gnu-gcc", "elf/buggy_reader.c", "ba.o", obj,
		       sizeof(obj));
		snprintf(args, sizeof(args), "check %s:buggy_read --abi values "
		         "--scenario arm64_counters --no-traces", obj);
		run(args);
		assert_non_null(strstr(r.out, "this looks like `no_sext`"));
	}
	/* a right reader's PASS has no such line */
	object("gcc", "elf/good_reader.c", "gx.o", obj, sizeof(obj));
	snprintf(args, sizeof(args), "check %s:good_read --abi values "
	         "--scenario x86_pinned --no-traces", obj);
	run(args);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.out, "looks like"));
}

static void test_explain_bug(void **state)
{
	char obj[512], lx[512], args[2048];
	(void)state;
	object("gcc", "elf/buggy_reader.c", "bx.o", obj, sizeof(obj));
	snprintf(args, sizeof(args), "explain-bug %s:buggy_read --abi values",
	         obj);
	run(args);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "(values ABI): your reader, loaded from "
	                       "ELF"));
	assert_non_null(strstr(r.out, "this looks like `no_sext`"));
	assert_non_null(strstr(r.out, "its fix: sign-extend from pmc_width."));
	/* its counterexample line replays to the failure */
	static const char head[] = "Chosen counterexample (WRONG_VALUE): ";
	const char *p = strstr(r.out, head);
	assert_non_null(p);
	p += strlen(head);
	char line[1024];
	snprintf(line, sizeof(line), "%.*s", (int)strcspn(p, "\n"), p);
	assert_non_null(strstr(line, "#buggy_read#values:"));
	snprintf(args, sizeof(args), "replay '%s'", line);
	run(args);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "exactly 2^48 above"));
	/* a failure no corpus fault has: said so (its overflow example; in
	 * x86_refresh, chosen for its fewer steps without --actions, a
	 * refresh fails it as it does jevents_mask48) */
	assert_true(compile_reader("gcc", "-O2", "lifecycle_reader.c", "lx.o",
	                           lx, sizeof(lx)));
	snprintf(args, sizeof(args), "explain-bug %s:papi_reset,papi_read "
	         "--abi reset --actions overflow", lx);
	run(args);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "No fault of the corpus fails this way"));
	/* usage */
	snprintf(args, sizeof(args), "explain-bug %s:buggy_read", obj);
	expect_usage_error(args, "needs --abi");
	expect_usage_error("explain-bug no_sext --abi raw",
	                   "--abi applies to PATH:SYMBOL readers only");
	expect_usage_error("explain-bug nothing_here", "unknown reader");
}

static void test_plot_and_hw(void **state)
{
	char obj[512], args[2048], svg[600];
	(void)state;
	object("gcc", "elf/buggy_reader.c", "bx.o", obj, sizeof(obj));
	snprintf(svg, sizeof(svg), "%s/user.svg", tmpdir());
	snprintf(args, sizeof(args), "plot x86_pinned --reader %s:buggy_read "
	         "--abi values -o %s", obj, svg);
	run(args);
	assert_int_equal(r.status, 0);
	FILE *f = fopen(svg, "r");
	assert_non_null(f);
	static char text[1 << 18];
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	assert_non_null(strstr(text, ":buggy_read, called at cycle 5,000"));
	assert_non_null(strstr(text, "WRONG_VALUE"));
	snprintf(args, sizeof(args), "plot arm64_counters --reader %s:buggy_read "
	         "--abi values -o %s/x.svg", obj, tmpdir());
	expect_usage_error(args, "is x86_64 code, arm64_counters is an arm64 "
	                   "scenario");
	snprintf(args, sizeof(args), "hw %s:buggy_read", obj);
	expect_usage_error(args, "would run uncontained inside selfmon's own "
	                   "process here; run it natively on a real kernel "
	                   "with 'selfmon vm");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_details),
		cmocka_unit_test(test_explain_bug),
		cmocka_unit_test(test_plot_and_hw),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
