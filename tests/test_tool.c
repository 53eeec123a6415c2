/*
 * test_tool.c — selfmon as a Linux command-line tool (issue #29): the
 * replay line runs when pasted, "-" and /dev/stdout write to standard
 * output through a pipe, "did you mean" for mistyped names, -V, `model`
 * takes a bundled name, `list` describes what it lists.  (The manual
 * pages and the bash completion: man_check.sh, completion_check.sh.)
 */
#include <ctype.h>
#include <limits.h>
#include <sys/stat.h>

#include "cli.h"

/* The canonical path of the binary under test: what /proc/self/exe
 * says in it. */
static const char *selfmon_path(void)
{
	static char path[PATH_MAX];
	if (!path[0])
		assert_non_null(realpath(SELFMON_BIN, path));
	return path;
}

/* The rest of the line after the first occurrence of key in s, into out. */
static bool line_after(const char *s, const char *key, char *out, size_t n)
{
	const char *p = strstr(s, key);
	if (!p)
		return false;
	p += strlen(key);
	size_t len = strcspn(p, "\n");
	if (len >= n)
		return false;
	memcpy(out, p, len);
	out[len] = 0;
	return true;
}

/* Runs cmd as a pasted line is run: from /, with an environment of its
 * own whose PATH has no selfmon; its exit status, its output in r.out. */
static int run_pasted(const char *cmd)
{
	char script[PATH_MAX], out[PATH_MAX], sh[PATH_MAX + 256];
	snprintf(script, sizeof(script), "%s/pasted.sh", tmpdir());
	snprintf(out, sizeof(out), "%s/pasted.out", tmpdir());
	FILE *f = fopen(script, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", cmd);
	fclose(f);
	assert_true(snprintf(sh, sizeof(sh), "cd / && env -i PATH=/usr/bin:/bin "
	                     "sh '%s' >'%s' 2>&1", script, out) < (int)sizeof(sh));
	int st = system(sh);
	assert_true(WIFEXITED(st));
	slurp(out, r.out, sizeof(r.out));
	return WEXITSTATUS(st);
}

/* The replay line of a failed cell, in the table, TAP and JUnit, names
 * the binary that ran by its absolute path, and pasted it replays the
 * failure (exit 1, the verdict). */
static void test_replay_line_runs(void **state)
{
	char cmd[4096], want[PATH_MAX + 32], args[4096], obj[512];
	(void)state;
	/* a user's reader that fails (a built-in one's failure is expected:
	 * no details), by its absolute path, the cell checked from the
	 * source tree */
	assert_true(compile_reader("gcc", "-O2", "../../reader/variants/no_sext.c",
	                           "mine.o", obj, sizeof(obj)));
	char base[PATH_MAX + 256];
	assert_true(snprintf(base, sizeof(base), "check '%s:selfmon_v_no_sext' "
	                     "--abi values --scenario x86_overflow --bound 1 "
	                     "--no-traces", obj) < (int)sizeof(base));
	assert_true(snprintf(want, sizeof(want), "%s replay '", selfmon_path()) <
	            (int)sizeof(want));

	run(base); /* the table */
	assert_int_equal(r.status, 1);
	assert_true(line_after(r.out, "  replay:    ", cmd, sizeof(cmd)));
	if (strncmp(cmd, want, strlen(want)))
		fail_msg("table's replay line '%s' does not start '%s'", cmd, want);
	assert_int_equal(run_pasted(cmd), 1);
	assert_non_null(strstr(r.out, "\nWRONG_VALUE"));

	assert_true(snprintf(args, sizeof(args), "%s --tap", base) <
	            (int)sizeof(args)); /* TAP's YAML */
	run(args);
	assert_int_equal(r.status, 1);
	assert_true(line_after(r.out, "  replay: \"", cmd, sizeof(cmd)));
	assert_true(strlen(cmd) > 0 && cmd[strlen(cmd) - 1] == '"');
	cmd[strlen(cmd) - 1] = 0;
	if (strncmp(cmd, want, strlen(want)))
		fail_msg("TAP's replay line '%s' does not start '%s'", cmd, want);
	assert_int_equal(run_pasted(cmd), 1);
	assert_non_null(strstr(r.out, "\nWRONG_VALUE"));

	assert_true(snprintf(args, sizeof(args), "%s --junit -", base) <
	            (int)sizeof(args)); /* JUnit */
	run(args);
	assert_int_equal(r.status, 1);
	assert_true(snprintf(want, sizeof(want), "replay: %s replay &apos;",
	                     selfmon_path()) < (int)sizeof(want));
	assert_non_null(strstr(r.out, want));
}

/* selfmon ARGS with its standard output a pipe (into cat, into a file)
 * and the working directory tmpdir(): its exit status; r.out what came
 * through the pipe, r.err its standard error. */
static int run_piped(const char *args)
{
	char cmd[4096], out[PATH_MAX], err[PATH_MAX], st[PATH_MAX];
	snprintf(out, sizeof(out), "%s/piped.out", tmpdir());
	snprintf(err, sizeof(err), "%s/piped.err", tmpdir());
	snprintf(st, sizeof(st), "%s/piped.status", tmpdir());
	assert_true(snprintf(cmd, sizeof(cmd), "cd '%s' && { '%s' %s 2>'%s'; "
	                     "echo $? >'%s'; } | cat >'%s'", tmpdir(), SELFMON_BIN,
	                     args, err, st, out) < (int)sizeof(cmd));
	int s = system(cmd);
	assert_true(WIFEXITED(s) && WEXITSTATUS(s) == 0);
	slurp(err, r.err, sizeof(r.err));
	slurp(out, r.out, sizeof(r.out));
	char status[16];
	slurp(st, status, sizeof(status));
	return atoi(status);
}

/* "-" and /dev/stdout (and /dev/fd/1) are standard output for every
 * option that writes a file, also when it is a pipe, and "-" makes no
 * file of that name. */
static void test_stdout_outputs(void **state)
{
	static const struct {
		const char *args, *starts;
	} cases[] = {
		{ "plot x86_reset -o -", "<?xml" },
		{ "plot x86_reset -o /dev/stdout", "<?xml" },
		{ "plot x86_reset -o /dev/fd/1", "<?xml" },
		{ "check reference --scenario x86_pinned --bound 1 --arch x86_64 "
		  "--no-traces --junit -", "<?xml" },
		{ "check reference --scenario x86_pinned --bound 1 --arch x86_64 "
		  "--no-traces --junit /dev/stdout", "<?xml" },
		{ "replay x86_64:unicorn:no_sext:x86_overflow:overflow@12 --html -",
		  "<!DOCTYPE html>" },
		{ "replay x86_64:unicorn:no_sext:x86_overflow:overflow@12 --html "
		  "/dev/stdout", "<!DOCTYPE html>" },
	};
	char dash[PATH_MAX];
	struct stat sb;
	(void)state;
	snprintf(dash, sizeof(dash), "%s/-", tmpdir());
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = run_piped(cases[i].args);
		bool replay = !strncmp(cases[i].args, "replay", 6);
		if (rc != (replay ? 1 : 0) || r.err[0])
			fail_msg("'%s': exit %d, stderr '%s'", cases[i].args, rc, r.err);
		if (strncmp(r.out, cases[i].starts, strlen(cases[i].starts)))
			fail_msg("'%s': the pipe got '%.60s'", cases[i].args, r.out);
		/* the whole document came through, and nothing else (the
		 * table, replay's verdict) */
		const char *end = replay ? "</html>\n" : strstr(cases[i].args, "plot")
		                  ? "</svg>\n" : "</testsuites>\n";
		size_t len = strlen(r.out);
		if (len < strlen(end) || strcmp(r.out + len - strlen(end), end))
			fail_msg("'%s': the pipe does not end with '%s'", cases[i].args,
			         end);
		assert_int_equal(stat(dash, &sb), -1);
	}
	/* merge's --junit - as check's: alone on standard output */
	assert_int_equal(run_piped("check reference --scenario x86_pinned "
	                           "--bound 1 --arch x86_64 --no-traces "
	                           "--shard 0/1 --json >part.json"), 0);
	assert_int_equal(run_piped("merge part.json --junit -"), 0);
	assert_string_equal(r.err, "");
	assert_true(!strncmp(r.out, "<?xml", 5));
	assert_non_null(strstr(r.out, "name=\"x86_pinned\""));
	assert_int_equal(stat(dash, &sb), -1);
	expect_usage_error("merge part.json --json --junit /dev/stdout",
	                   "--junit /dev/stdout and --json both want standard "
	                   "output");
	/* a descriptor that is not open, or not for writing: one line, 2 */
	assert_int_equal(run_piped("plot x86_reset -o /dev/fd/9"), 2);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "/dev/fd/9: no such open file descriptor"));
	assert_string_equal(r.out, "");
	assert_int_equal(run_piped("plot x86_reset -o /dev/fd/0 </dev/null"), 2);
	assert_non_null(strstr(r.err, "not open for writing"));
	/* two documents for standard output: refused */
	expect_usage_error("check reference --scenario x86_pinned --tap --junit -",
	                   "--junit - and --tap both want standard output");
	expect_usage_error("replay x86_64:unicorn:no_sext:x86_overflow:- "
	                   "--explain --html /dev/stdout",
	                   "both want standard output");
}

/* A mistyped command, reader, scenario or option: one line, exit 2, the
 * nearest name suggested; a word near nothing gets no suggestion. */
static void test_did_you_mean(void **state)
{
	(void)state;
	expect_usage_error("chek", "unknown command 'chek': did you mean "
	                           "'check'?");
	expect_usage_error("lst", "did you mean 'list'?");
	expect_usage_error("check refrence --scenario x86_pinned",
	                   "unknown reader 'refrence': did you mean "
	                   "'reference'?");
	expect_usage_error("check no_sxt --scenario x86_pinned",
	                   "did you mean 'no_sext'?");
	expect_usage_error("check reference --scenario x86_rest",
	                   "unknown scenario 'x86_rest': did you mean "
	                   "'x86_reset'?");
	expect_usage_error("model x86_rest", "did you mean 'x86_reset'?");
	expect_usage_error("plot x86_pinnd -o /dev/null",
	                   "did you mean 'x86_pinned'?");
	expect_usage_error("check --scenaro x86_reset",
	                   "unknown option '--scenaro': did you mean "
	                   "'--scenario'?");
	expect_usage_error("model --jsno x86_reset", "did you mean '--json'?");
	expect_usage_error("replay x86_64:unicorn:refrence:x86_reset:-",
	                   "did you mean 'reference'?");
	/* nothing near: no suggestion */
	expect_usage_error("frobnicate", "unknown command 'frobnicate'");
	assert_null(strstr(r.err, "did you mean"));
	expect_usage_error("check reference --scenario zzzzzzzzzz",
	                   "unknown scenario 'zzzzzzzzzz'");
	assert_null(strstr(r.err, "did you mean"));
}

/* -V is --version: "selfmon VERSION" on standard output, exit 0. */
static void test_version(void **state)
{
	static char v[sizeof(r.out)];
	(void)state;
	run("--version");
	assert_int_equal(r.status, 0);
	assert_true(!strncmp(r.out, "selfmon ", 8) && isdigit((unsigned char)r.out[8]));
	snprintf(v, sizeof(v), "%s", r.out);
	run("-V");
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, v);
	assert_string_equal(r.err, "");
}

/* `model` takes a bundled name as check, plot and replay do: the same
 * output as the scenario's path. */
static void test_model_bundled_name(void **state)
{
	static char by_path[sizeof(r.out)];
	(void)state;
	run("model traces/x86_reset.scn --json");
	assert_int_equal(r.status, 0);
	assert_true(count_lines(r.out) > 2);
	snprintf(by_path, sizeof(by_path), "%s", r.out);
	run("model x86_reset --json");
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	assert_string_equal(r.out, by_path);
}

/* A scenario file's first comment line, without "# ", into out. */
static void first_comment(const char *name, char *out, size_t n)
{
	char path[PATH_MAX], line[512];
	assert_true(snprintf(path, sizeof(path), "%s/traces/%s.scn", SELFMON_SRC,
	                     name) < (int)sizeof(path));
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	fclose(f);
	assert_true(!strncmp(line, "# ", 2));
	line[strcspn(line, "\n")] = 0;
	snprintf(out, n, "%s", line + 2);
}

/* `list` describes every action, every bundled scenario and each
 * capability letter; `list --names KIND` is the bare names. */
static void test_list_describes(void **state)
{
	static char list[sizeof(r.out)], names[sizeof(r.out)];
	char want[1024], first[512];
	(void)state;
	run("list");
	assert_int_equal(r.status, 0);
	snprintf(list, sizeof(list), "%s", r.out);

	run("list --names actions");
	assert_int_equal(r.status, 0);
	snprintf(names, sizeof(names), "%s", r.out);
	const char *acts = strstr(list, "\nactions");
	assert_non_null(acts);
	unsigned n = 0;
	for (char *p = names, *nl; (nl = strchr(p, '\n')); p = nl + 1, n++) {
		*nl = 0;
		/* "  NAME   description" with a description of some words */
		assert_true(snprintf(want, sizeof(want), "\n  %s ", p) <
		            (int)sizeof(want));
		const char *at = strstr(acts, want);
		if (!at)
			fail_msg("list describes no action %s", p);
		at += strlen(want);
		at += strspn(at, " ");
		if (strcspn(at, "\n") < 15)
			fail_msg("action %s: '%.40s' is no description", p, at);
	}
	assert_true(n >= 10);

	run("list --names scenarios");
	assert_int_equal(r.status, 0);
	snprintf(names, sizeof(names), "%s", r.out);
	n = 0;
	for (char *p = names, *nl; (nl = strchr(p, '\n')); p = nl + 1, n++) {
		*nl = 0;
		assert_true(snprintf(want, sizeof(want), "\n  %-20s ", p) <
		            (int)sizeof(want));
		const char *at = strstr(list, want);
		if (!at)
			fail_msg("list has no scenario %s", p);
		/* the next line is what the file's comment begins with (up to
		 * its first sentence's end) */
		at = strchr(at + 1, '\n');
		assert_non_null(at);
		at += 1 + strspn(at + 1, " ");
		first_comment(p, first, sizeof(first));
		char *stop = strstr(first, ". ");
		if (stop)
			stop[1] = 0;
		if (strncmp(at, first, strlen(first)))
			fail_msg("scenario %s: '%.80s' is not its comment '%s'", p, at,
			         first);
	}
	assert_true(n >= 10);

	/* every letter the model's caps column can show is explained */
	static const char *const caps[] = { "r  cap_user_rdpmc ",
		"t  cap_user_time ", "z  cap_user_time_zero ",
		"s  cap_user_time_short " };
	assert_non_null(strstr(list, "\ncapability letters"));
	for (size_t i = 0; i < 4; i++)
		if (!strstr(list, caps[i]))
			fail_msg("list does not explain '%s'", caps[i]);
	expect_usage_error("list --names nothing", "--names takes readers");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replay_line_runs),
		cmocka_unit_test(test_stdout_outputs),
		cmocka_unit_test(test_did_you_mean),
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_model_bundled_name),
		cmocka_unit_test(test_list_describes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
