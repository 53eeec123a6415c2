/*
 * test_user.c — your own reader through the ELF path: the reference
 * reader's and the no_sext mutant's sources, compiled at test time with
 * every available toolchain (gcc, clang, the arm64 and riscv64 cross
 * compilers, clang for those targets) as .o and .so at several
 * optimisation levels, must get exactly the verdicts the same code gets
 * built in, scenario by scenario; the corpus's correct base, built the
 * same way, passes.  Bad PATH:SYMBOL input is one clear error line with
 * exit status 2.
 */
#include <sys/stat.h>

#include "cli.h"

struct tool {
	const char *arch, *cc, *so_extra;
};

static const struct tool tools[] = {
	{ "x86_64", "gcc", "" },
	{ "x86_64", "clang", "" },
	{ "arm64", "aarch64-linux-gnu-gcc", "" },
	{ "arm64", "clang --target=aarch64-linux-gnu", "-fuse-ld=lld" },
	{ "riscv64", "riscv64-linux-gnu-gcc", "" },
	{ "riscv64", "clang --target=riscv64-linux-gnu", "-fuse-ld=lld" },
};

static char dir[] = "/tmp/selfmon-userXXXXXX";

static bool sh(const char *cmd)
{
	return system(cmd) == 0;
}

/* "scenario verdict" lines of check --json, in order. */
static void verdicts(const char *json, char *out, size_t n)
{
	size_t used = 0;
	out[0] = 0;
	for (const char *p = json; (p = strstr(p, "\"scenario\":\"")); p++) {
		const char *v = strstr(p, "\"verdict\":\"");
		assert_non_null(v);
		const char *se = strchr(p + 12, '"'), *ve = strchr(v + 11, '"');
		used += (size_t)snprintf(out + used, n - used, "%.*s=%.*s ",
		                         (int)(se - p - 12), p + 12,
		                         (int)(ve - v - 11), v + 11);
		if (used >= n)
			break;
	}
}

static void builtin_verdicts(const char *reader, const char *arch, char *out,
                             size_t n)
{
	char args[256];
	snprintf(args, sizeof(args), "check %s --arch %s --json --no-traces",
	         reader, arch);
	run(args);
	assert_int_equal(r.status, 0);
	verdicts(r.out, out, n);
	assert_true(strlen(out) > 0);
}

/* Compile src as obj with flags; false if the toolchain cannot. */
static bool compile(const struct tool *t, const char *src, const char *obj,
                    const char *flags, bool shared)
{
	char cmd[2048];
	snprintf(cmd, sizeof(cmd), "%s %s %s -I'%s/model' -I'%s/reader' "
	         "'%s/%s' -o '%s' %s 2>/dev/null", t->cc, flags,
	         shared ? "-shared -fPIC -nostdlib" : "-c", SELFMON_SRC,
	         SELFMON_SRC, SELFMON_SRC, src, obj, shared ? t->so_extra : "");
	return sh(cmd);
}

static void check_same(const struct tool *t, const char *src,
                       const char *symbol, const char *builtin)
{
	static const struct { const char *flags; bool shared; } builds[] = {
		{ "-O2", false }, { "-O0", false }, { "-O3 -fPIC", false },
		{ "-O2", true }, { "-O3", true },
	};
	char want[4096], got[4096], obj[512], args[1024];

	builtin_verdicts(builtin, t->arch, want, sizeof(want));
	for (size_t b = 0; b < sizeof(builds) / sizeof(builds[0]); b++) {
		snprintf(obj, sizeof(obj), "%s/%s-%s-%zu.%s", dir, symbol, t->arch,
		         b, builds[b].shared ? "so" : "o");
		if (!compile(t, src, obj, builds[b].flags, builds[b].shared))
			fail_msg("%s could not build %s %s", t->cc, src, builds[b].flags);
		snprintf(args, sizeof(args), "check '%s:%s' --abi values --json "
		         "--no-traces", obj, symbol);
		run(args);
		if (r.status == 2)
			fail_msg("%s: %s", obj, r.err);
		verdicts(r.out, got, sizeof(got));
		if (strcmp(got, want))
			fail_msg("%s (%s %s): %s\nbuilt in: %s", symbol, t->cc,
			         builds[b].flags, got, want);
		unlink(obj);
	}
}

static void test_same_verdicts_as_built_in(void **state)
{
	unsigned toolchains = 0;
	(void)state;
	assert_non_null(mkdtemp(dir));
	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
		char probe[1024];
		const struct tool *t = &tools[i];
		snprintf(probe, sizeof(probe), "%s/probe.o", dir);
		if (!arch_built(t->arch) ||
		    !compile(t, "reader/selfmon.c", probe, "-O2", false)) {
			print_message("skipping %s (%s): not available\n", t->cc,
			              t->arch);
			continue;
		}
		unlink(probe);
		check_same(t, "reader/selfmon.c", "selfmon_read", "reference");
		check_same(t, "reader/variants/no_sext.c", "selfmon_v_no_sext",
		           "no_sext");
		toolchains++;
	}
	assert_true(toolchains >= 2); /* gcc and clang for x86-64 at least */
	rmdir(dir);
}

/* The correct base the corpus's mutants copy (reader/variants/
 * base_reader.c) is no built-in reader: checked as a user's reader, with
 * every toolchain there is, it passes every bundled scenario (but the
 * kernel hazard's, where its expected verdict is the scenario's). */
static void test_base_reader_passes(void **state)
{
	char obj[512], args[1024];
	unsigned built = 0;
	(void)state;
	snprintf(obj, sizeof(obj), "%s/user-base.o", tmpdir());
	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
		if (!arch_built(tools[i].arch) ||
		    !compile(&tools[i], "reader/variants/base_reader.c", obj, "-O2",
		             false))
			continue;
		snprintf(args, sizeof(args), "check %s:selfmon_base_read --abi "
		         "values --json --no-traces", obj);
		run(args);
		if (r.status != 0 || !strstr(r.out, "\"unexpected\":0"))
			fail_msg("%s: exit %d\n%s%s", tools[i].cc, r.status, r.err,
			         r.out);
		unlink(obj);
		built++;
	}
	assert_true(built >= 1);
}

static void test_bad_user_readers(void **state)
{
	char args[1024], obj[512];
	(void)state;
	expect_usage_error("check /nonexistent.o:f --abi raw", "/nonexistent.o: No such file");
	expect_usage_error("check README.md:f --abi raw", "README.md: not an ELF file");
	snprintf(obj, sizeof(obj), "%s/user-ok.o", tmpdir());
	const struct tool *gcc = &tools[0];
	assert_true(compile(gcc, "reader/selfmon.c", obj, "-O2", false));
	snprintf(args, sizeof(args), "check %s:selfmon_read", obj);
	expect_usage_error(args, "needs --abi");
	snprintf(args, sizeof(args), "check %s:selfmon_read --abi wide", obj);
	expect_usage_error(args, "--abi must be raw, times, scaled, values, delta or reset");
	snprintf(args, sizeof(args), "check %s:nosuch --abi values", obj);
	expect_usage_error(args, "symbol 'nosuch' not found");
	snprintf(args, sizeof(args), "check %s:selfmon_read --abi values "
	         "--arch arm64", obj);
	expect_usage_error(args, "is x86_64 code, not arm64");
	snprintf(args, sizeof(args), "check %s:selfmon_read --abi values "
	         "--engine native", obj);
	expect_usage_error(args, "unicorn engine only");
	unlink(obj);
	/* load-time code only a link could place: refused at load, not run
	 * without it (a .o's .init_array runs: test_solib) */
	snprintf(obj, sizeof(obj), "%s/user-ctor.o", tmpdir());
	assert_true(compile(gcc, "tests/elf/unrun.c", obj, "-O2 -DUNRUN_CTORS",
	                    false));
	snprintf(args, sizeof(args), "check %s:reader --abi raw", obj);
	expect_usage_error(args, "section '.ctors' holds code to run at "
	                   "load time whose place only a link gives");
	unlink(obj);
}

/* A counterexample of a user reader replays from its line. */
static void test_user_replay(void **state)
{
	char obj[512], args[1024];
	(void)state;
	snprintf(obj, sizeof(obj), "%s/user-ns.o", tmpdir());
	assert_true(compile(&tools[0], "reader/variants/no_sext.c", obj, "-O2",
	                    false));
	snprintf(args, sizeof(args), "check %s:selfmon_v_no_sext --abi values "
	         "--scenario x86_pinned --json --no-traces", obj);
	run(args);
	assert_int_equal(r.status, 1); /* a user reader failed */
	const char *m = strstr(r.out, "\"minimised\":\"");
	assert_non_null(m);
	char line[600];
	snprintf(line, sizeof(line), "%.*s", (int)(strchr(m + 13, '"') - m - 13),
	         m + 13);
	assert_non_null(strstr(line, "#selfmon_v_no_sext#values:x86_pinned:"));
	snprintf(args, sizeof(args), "replay '%s'", line);
	run(args);
	assert_int_equal(r.status, 1);
	assert_true(!strncmp(r.out, "WRONG_VALUE", 11));
	unlink(obj);
}

/* The minimised counterexample line of `check` on a user reader. */
static void user_cex(const char *obj, const char *symbol, const char *scn,
                     char *line, size_t n)
{
	char args[1024];
	snprintf(args, sizeof(args), "check '%s:%s' --abi values --scenario %s "
	         "--json --no-traces", obj, symbol, scn);
	run(args);
	assert_int_equal(r.status, 1);
	const char *m = strstr(r.out, "\"minimised\":\"");
	assert_non_null(m);
	snprintf(line, n, "%.*s", (int)(strchr(m + 13, '"') - m - 13), m + 13);
}

/* --explain on a user's reader built with -g lists the source line of
 * its instructions (its own DWARF line table, libdw), as it does for the
 * built-in readers; built without -g, bytes and disassembly only. */
static void explain_lines(const struct tool *t, const char *flags,
                          bool shared, bool expect_lines)
{
	char obj[512], line[1024], args[1200];
	snprintf(obj, sizeof(obj), "%s/user-g-%s.%s", tmpdir(), t->arch,
	         shared ? "so" : "o");
	if (!compile(t, "reader/variants/no_sext.c", obj, flags, shared))
		fail_msg("%s could not build no_sext.c %s", t->cc, flags);
	const char *scn = !strcmp(t->arch, "x86_64") ? "x86_pinned"
	                  : !strcmp(t->arch, "arm64") ? "arm64_bias"
	                                              : "riscv64";
	user_cex(obj, "selfmon_v_no_sext", scn, line, sizeof(line));
	snprintf(args, sizeof(args), "replay '%s' --explain", line);
	run(args);
	assert_int_equal(r.status, 1);
	const char *src = strstr(r.out, "reader/variants/no_sext.c:");
	if (expect_lines && !src)
		fail_msg("%s %s%s: no source line in\n%.2000s", t->cc, flags,
		         shared ? " -shared" : "", r.out);
	if (!expect_lines && src)
		fail_msg("%s %s: a source line without -g", t->cc, flags);
	if (src) /* file:line, a line number after the colon */
		assert_true(src[26] >= '1' && src[26] <= '9');
	unlink(obj);
}

static void test_user_explain_source_lines(void **state)
{
	(void)state;
	explain_lines(&tools[0], "-O2 -g", false, true);
	explain_lines(&tools[0], "-O2 -g", true, true);
	explain_lines(&tools[0], "-O2", false, false);
	for (size_t i = 2; i < sizeof(tools) / sizeof(tools[0]); i += 2)
		if (arch_built(tools[i].arch))
			explain_lines(&tools[i], "-O2 -g", false, true);
}

/* Source lines come only from the object named: a shared object with a
 * build-id and no DWARF makes no debuginfod query (libdw's standard
 * look-up asks every server in DEBUGINFOD_URLS and fills its cache) and
 * no /usr/lib/debug search. */
static void test_user_explain_no_debuginfod(void **state)
{
	char obj[512], line[1024], args[1200], cache[600];
	struct stat st;
	(void)state;
	snprintf(obj, sizeof(obj), "%s/nodwarf.so", tmpdir());
	if (!compile(&tools[0], "reader/variants/no_sext.c", obj,
	             "-O2 -Wl,--build-id", true))
		fail_msg("could not build no_sext.c as a shared object");
	user_cex(obj, "selfmon_v_no_sext", "x86_pinned", line, sizeof(line));
	snprintf(cache, sizeof(cache), "%s/debuginfod-cache", tmpdir());
	setenv("DEBUGINFOD_URLS", "http://127.0.0.1:9/", 1);
	setenv("DEBUGINFOD_CACHE_PATH", cache, 1);
	snprintf(args, sizeof(args), "replay '%s' --explain", line);
	run(args);
	unsetenv("DEBUGINFOD_URLS");
	unsetenv("DEBUGINFOD_CACHE_PATH");
	assert_int_equal(r.status, 1);
	if (stat(cache, &st) == 0)
		fail_msg("--explain consulted debuginfod (its cache %s exists)",
		         cache);
	unlink(obj);
}

/* DWARF file names come from the user's object: an escape sequence (it
 * set the terminal's title), a carriage return or bytes that are not
 * UTF-8 reach neither --explain's text nor its JSON as they are. */
static void test_user_explain_dwarf_names(void **state)
{
	char src[512], obj[512], line[1024], args[1200], cmd[2048];
	(void)state;
	snprintf(src, sizeof(src), "%s/t\033]0;pwned\007\r\377.c", tmpdir());
	snprintf(obj, sizeof(obj), "%s/dwarfname.o", tmpdir());
	snprintf(cmd, sizeof(cmd), "cp '%s/reader/variants/no_sext.c' '%s' && "
	         "cd '%s/reader/variants' && gcc -O2 -g -c -I. -I'%s/model' "
	         "-I'%s/reader' '%s' -o '%s'", SELFMON_SRC, src, SELFMON_SRC,
	         SELFMON_SRC, SELFMON_SRC, src, obj);
	assert_true(sh(cmd));
	user_cex(obj, "selfmon_v_no_sext", "x86_pinned", line, sizeof(line));
	for (int json = 0; json < 2; json++) {
		snprintf(args, sizeof(args), "replay '%s' --explain%s", line,
		         json ? " --json" : "");
		run(args);
		assert_int_equal(r.status, 1);
		if (!strstr(r.out, "t?]0;pwned???")) /* the file's line, marked */
			fail_msg("no source line of %s in %.1500s", src, r.out);
		for (const char *p = r.out; *p; p++)
			if (*p == '\033' || *p == '\r' || (unsigned char)*p == 0xff)
				fail_msg("raw byte 0x%02x in --explain%s", (unsigned char)*p,
				         json ? " --json" : "");
	}
	unlink(src);
	unlink(obj);
}

int main(int argc, char **argv)
{
	/* the fast tier; `test_user slow` the rest (ctest: test_user_slow,
	 * labelled slow) */
	const struct CMUnitTest fast[] = {
		cmocka_unit_test(test_base_reader_passes),
		cmocka_unit_test(test_bad_user_readers),
		cmocka_unit_test(test_user_replay),
		cmocka_unit_test(test_user_explain_source_lines),
		cmocka_unit_test(test_user_explain_no_debuginfod),
		cmocka_unit_test(test_user_explain_dwarf_names),
	};
	const struct CMUnitTest slow[] = {
		cmocka_unit_test(test_same_verdicts_as_built_in),
	};
	int rc = sm_slow_tier(argc, argv)
	         ? cmocka_run_group_tests(slow, NULL, NULL)
	         : cmocka_run_group_tests(fast, NULL, NULL);
	return rc;
}
