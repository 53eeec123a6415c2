/*
 * test_interrupt.c — a long `selfmon check` as CI sees it: stderr not a
 * terminal gets a progress line every few seconds, counting schedules
 * while a cell runs; SIGINT (Ctrl-C) after a cell finished ends it with
 * exit 130, the table of the finished cell, the stopped one named, and no
 * trace or JUnit file (nor a temporary) left.  No time is asserted: the
 * test waits for the lines it needs.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

/* Lines like "selfmon: [D/N cells] R schedules, X/s[, ETA E s], T s". */
static bool progress_line(const char *l, unsigned *done, unsigned long *runs)
{
	unsigned n;

	return sscanf(l, "selfmon: [%u/%u cells] %lu schedules, ", done, &n,
	              runs) == 3 && n == 2;
}

static unsigned entries(const char *dir)
{
	DIR *d = opendir(dir);
	unsigned n = 0;

	for (struct dirent *e; d && (e = readdir(d));)
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

static void test_sigint_after_a_cell(void **state)
{
	char dir[512], junit[600], traces[600], outpath[600];
	int errp[2];
	(void)state;

	snprintf(dir, sizeof(dir), "%s/int", tmpdir());
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(junit, sizeof(junit), "%s/report.xml", dir);
	snprintf(traces, sizeof(traces), "%s/cex", dir);
	snprintf(outpath, sizeof(outpath), "%s/../int.out", dir);
	assert_int_equal(pipe(errp), 0);
	/* at bound 4, x86_never_ran is seconds; x86_reset, minutes */
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int out = open(outpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (out < 0 || dup2(out, 1) < 0 || dup2(errp[1], 2) < 0 ||
		    chdir(SELFMON_SRC) < 0)
			_exit(99);
		close(errp[0]);
		execl(SELFMON_BIN, "selfmon", "check", "reference", "--scenario",
		      "x86_never_ran", "--scenario", "x86_reset", "--bound", "4",
		      "-j", "1", "--time-limit", "0", "--traces", traces, "--junit",
		      junit, (char *)NULL);
		_exit(98);
	}
	close(errp[1]);
	FILE *err = fdopen(errp[0], "r");
	assert_non_null(err);
	char line[1024];
	unsigned done = 0, lines = 0;
	unsigned long runs = 0, at_done = 0;
	/* wait for a line after the first cell, then for one that counted
	 * more schedules while the second still runs */
	while (fgets(line, sizeof(line), err)) {
		unsigned long before = runs;
		if (!progress_line(line, &done, &runs))
			fail_msg("not a progress line: %s", line);
		lines++;
		assert_true(runs >= before);
		if (done == 1 && !at_done)
			at_done = runs;
		else if (done == 1 && runs > at_done)
			break;
	}
	assert_true(lines >= 2);
	assert_int_equal(done, 1);
	assert_true(runs > at_done && at_done > 0);
	assert_int_equal(kill(pid, SIGINT), 0);
	/* the rest of stderr: one line, the summary */
	char rest[2048] = "";
	size_t k = fread(rest, 1, sizeof(rest) - 1, err);
	rest[k] = '\0';
	fclose(err);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 130);
	if (strcmp(rest, "selfmon: check: interrupted by Interrupt: 1 of 2 cells "
	           "finished (the table above); stopped: reference in x86_reset "
	           "(x86_64); 0 not started; no trace or report file written\n"))
		fail_msg("stderr after SIGINT: '%s'", rest);
	char out[8192];
	slurp(outpath, out, sizeof(out));
	if (!strstr(out, "\nreference          x86_never_ran      PASS ") ||
	    strstr(out, "x86_reset ") ||
	    !strstr(out, "\n1 cells: 1 as expected, 0 unexpected; "))
		fail_msg("the table after SIGINT: %s", out);
	/* no report, no trace, no temporary */
	assert_int_equal(entries(dir), 0);
}

/* -q: not a line on stderr, whatever it is. */
static void test_quiet(void **state)
{
	(void)state;
	run("check reference --scenario x86_never_ran --bound 1 -q --no-traces");
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sigint_after_a_cell),
		cmocka_unit_test(test_quiet),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
