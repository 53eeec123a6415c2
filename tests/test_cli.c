/*
 * test_cli.c — end-to-end tests of the `selfmon` binary: help and usage
 * errors, `selfmon model` on every bundled scenario (JSON Lines whose
 * values are checked), and bad scenarios (one error line, exit 2, no
 * output).
 */
#include <dirent.h>

#include "cli.h"

/* The unsigned value after "key": in the first object at or after p. */
static uint64_t field(const char *p, const char *key)
{
	char pat[64];
	snprintf(pat, sizeof(pat), "\"%s\":", key);
	const char *q = strstr(p, pat);
	if (!q)
		fail_msg("no %s in %.200s", key, p);
	return strtoull(q + strlen(pat), NULL, 10);
}

/* `selfmon --help` lists the commands; each one's own --help exits 0
 * with its usage on standard output, naming it, and nothing on standard
 * error.  The list is read from the help itself, so a command added to it
 * is held to the same. */
static void test_help(void **state)
{
	static char top[sizeof(r.out)];
	unsigned n = 0;
	(void)state;
	run("--help");
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	snprintf(top, sizeof(top), "%s", r.out);
	const char *p = strstr(top, "\ncommands:\n");
	assert_non_null(p);
	for (p = strchr(p + 1, '\n') + 1; !strncmp(p, "  ", 2) && p[2] != ' ';
	     p = strchr(p, '\n') + 1) {
		char cmd[32], args[64], want[64];
		size_t len = strcspn(p + 2, " \n");
		assert_true(len > 0 && len < sizeof(cmd));
		memcpy(cmd, p + 2, len);
		cmd[len] = 0;
		snprintf(args, sizeof(args), "%s --help", cmd);
		run(args);
		if (r.status != 0 || r.err[0])
			fail_msg("%s: exit %d, stderr '%s'", args, r.status, r.err);
		/* the usage block (explore's names check first) */
		snprintf(want, sizeof(want), "selfmon %s", cmd);
		const char *u = strstr(r.out, want);
		if (strncmp(r.out, "usage: ", 7) || !u || u - r.out > 200 ||
		    (u[strlen(want)] != ' ' && u[strlen(want)] != '\n'))
			fail_msg("%s: no usage line for it: %.200s", args, r.out);
		n++;
	}
	assert_true(n >= 9); /* check explore merge replay ... list */
	run("model --help");
	assert_non_null(strstr(r.out, "--json"));
}

static void test_usage_errors(void **state)
{
	(void)state;
	run("");
	assert_int_equal(r.status, 2);
	expect_usage_error("frobnicate", "selfmon: unknown command 'frobnicate'");
	expect_usage_error("model", "selfmon: model: missing SCENARIO");
	expect_usage_error("model --jsn traces/x86_pinned.scn",
	                   "selfmon: model: unknown option '--jsn'");
	expect_usage_error("model traces/x86_pinned.scn traces/x86_reset.scn",
	                   "unexpected argument 'traces/x86_reset.scn'");
	expect_usage_error("model traces/nonexistent.scn",
	                   "selfmon: traces/nonexistent.scn: No such file or directory");
}

/* Every command parses with getopt_long: "--opt=value" is "--opt value",
 * and getopt's own messages are replaced by one line of selfmon's. */
static void test_option_forms(void **state)
{
	static const char *const bad[][2] = {
		{ "check --bound=9", "check: bad value '9' for --bound (0..6)" },
		{ "check --json=1", "check: --json takes no value" },
		{ "check -z", "check: unknown option '-z'" },
		{ "check --bound", "check: --bound needs a value" },
		{ "check --scenario=x86_reset --without=bogus",
		  "check: --without: unknown action 'bogus'" },
		{ "replay --explain=yes x", "replay: --explain takes no value" },
		{ "model --compare", "model: --compare needs a TRACE" },
		{ "plot x86_reset -o", "plot: -o needs a FILE" },
		{ "explain-bug no_sext --actions", "--actions needs a list" },
		{ "explain-bug no_sext extra", "unexpected argument 'extra'" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect_usage_error(bad[i][0], bad[i][1]);
	run("check reference --scenario=x86_reset --bound=1 --no-traces -j1");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "1 cells: 1 as expected"));
	run("check --no-traces --bound 1 --scenario x86_pinned -- reference");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "1 cells: 1 as expected"));
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_bad_scenarios(void **state)
{
	char path[] = "/tmp/selfmon-cli-scnXXXXXX", args[256];
	(void)state;
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	snprintf(args, sizeof(args), "model --json %s", path);

	write_file(path, "arch x86_64\npmu gp=9\n");
	run(args);
	assert_int_equal(r.status, 2);
	assert_string_equal(r.out, "");
	char want[512];
	snprintf(want, sizeof(want), "selfmon: %s:2:8: gp out of range (1..8)\n",
	         path);
	assert_string_equal(r.err, want);

	write_file(path, "event instructions\nat 10 explode\n");
	run(args);
	assert_int_equal(r.status, 2);
	snprintf(want, sizeof(want), "selfmon: %s:2:7: unknown action 'explode'\n",
	         path);
	assert_string_equal(r.err, want);

	/* accepted by the parser, refused by the model: still one line */
	write_file(path, "arch arm64\nevent l1d long=yes\n");
	run(args);
	assert_int_equal(r.status, 2);
	assert_string_equal(r.out, "");
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "64-bit event needs long counters"));
	unlink(path);
}

/* Every line of `selfmon model --json` is one object with the keys the
 * issue names; lock is even; truth.running <= truth.enabled. */
static void check_json_lines(const char *out)
{
	static const char *const keys[] = {
		"\"at\":", "\"action\":", "\"event\":", "\"page\":", "\"truth\":",
		"\"lock\":", "\"index\":", "\"offset\":", "\"time_enabled\":",
		"\"time_running\":", "\"cap_user_rdpmc\":", "\"cap_user_time\":",
		"\"cap_user_time_zero\":", "\"cap_user_time_short\":",
		"\"pmc_width\":", "\"time_shift\":", "\"time_mult\":",
		"\"time_offset\":", "\"time_zero\":", "\"size\":",
		"\"time_cycles\":", "\"time_mask\":", "\"count\":",
		"\"enabled\":", "\"running\":",
	};
	const char *line = out;
	unsigned n = 0;
	while (*line) {
		const char *nl = strchr(line, '\n');
		assert_non_null(nl);
		assert_int_equal(line[0], '{');
		assert_int_equal(nl[-1], '}');
		char buf[8192];
		size_t len = (size_t)(nl - line);
		assert_true(len < sizeof(buf));
		memcpy(buf, line, len);
		buf[len] = 0;
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if (!strstr(buf, keys[k]))
				fail_msg("line %u lacks %s: %s", n, keys[k], buf);
		assert_int_equal(field(buf, "lock") & 1, 0);
		const char *truth = strstr(buf, "\"truth\":");
		assert_true(field(truth, "running") <= field(truth, "enabled"));
		line = nl + 1;
		n++;
	}
	assert_true(n >= 1);
}

static void test_every_bundled_scenario(void **state)
{
	char dir[1024], args[2048];
	unsigned seen = 0;
	(void)state;
	snprintf(dir, sizeof(dir), "%s/traces", SELFMON_SRC);
	DIR *d = opendir(dir);
	assert_non_null(d);
	for (struct dirent *e; (e = readdir(d));) {
		size_t n = strlen(e->d_name);
		if (n < 5 || strcmp(e->d_name + n - 4, ".scn"))
			continue;
		snprintf(args, sizeof(args), "model --json traces/%s", e->d_name);
		run(args);
		if (r.status != 0)
			fail_msg("%s: exit %d: %s", e->d_name, r.status, r.err);
		assert_string_equal(r.err, "");
		check_json_lines(r.out);
		snprintf(args, sizeof(args), "model traces/%s", e->d_name);
		run(args);
		assert_int_equal(r.status, 0);
		assert_non_null(strstr(r.out, "time_offset"));
		seen++;
	}
	closedir(d);
	assert_true(seen >= 8);
}

/* The reset scenario: the page after IOC_RESET at cycle 1000 holds
 * offset = -(raw), raw = 2^48 - (2^47 - 1) + 1000 (fixed counter 0 loaded
 * with -(2^47-1) at cycle 0, counting one per cycle). */
static void test_reset_values(void **state)
{
	(void)state;
	run("model --json traces/x86_reset.scn");
	assert_int_equal(r.status, 0);
	const char *p = strstr(r.out, "\"action\":\"reset\"");
	assert_non_null(p);
	const char *q = strstr(p, "\"offset\":");
	assert_non_null(q);
	long long off = strtoll(q + 9, NULL, 10);
	assert_int_equal(off, -(long long)((1ull << 47) + 1 + 1000));
	assert_int_equal(field(p, "index"), (1u << 30) + 1);
	assert_int_equal(field(p, "lock"), 4);
	assert_int_equal(field(strstr(p, "\"truth\""), "count"), 0);
}

/* The remote scenario lists the stores of each update. */
static void test_remote_stores(void **state)
{
	(void)state;
	run("model --json traces/x86_remote.scn");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\"stores\":[[\"lock\",3],[\"index\","));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_usage_errors),
		cmocka_unit_test(test_option_forms),
		cmocka_unit_test(test_bad_scenarios),
		cmocka_unit_test(test_every_bundled_scenario),
		cmocka_unit_test(test_reset_values),
		cmocka_unit_test(test_remote_stores),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
