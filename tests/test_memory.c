/*
 * test_memory.c — what selfmon needs of memory, measured on the binary:
 * `check`, `replay --explain`, `replay --html` and `explain-bug` run as a
 * child whose peak resident set (wait4's ru_maxrss) must stay far below
 * Unicorn's 1 GiB translation buffer (a tb_flush used to write over all
 * of it: ~1 GiB resident); and under an address-space limit of 800 MB
 * (RLIMIT_AS set in the child before exec) either the run succeeds, when
 * this Unicorn can size its buffer (uc_ctl_set_tcg_buffer_size), or it
 * ends as selfmon's own error: exit 2, a line naming the emulator's
 * memory (after Unicorn's own), no crash.  Not in the sanitizer build
 * (its shadow memory is what these limits would measure).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <unicorn/unicorn.h>

#include "cli.h"

#define PEAK_MAX_KIB (256 * 1024)  /* a quarter of the old peak */
#define AS_LIMIT (800ull * 1000 * 1000)

struct child {
	int status;        /* exit status, -1 if killed */
	long peak_kib;     /* ru_maxrss */
	char err[4096];    /* its stderr */
};

/* selfmon ARGV... with stdout to /dev/null, stderr captured, run from the
 * source tree, under RLIMIT_AS `as` when not 0. */
static void run_child(char *const argv[], rlim_t as, struct child *c)
{
	char errpath[] = "/tmp/selfmon-mem-errXXXXXX";
	int fe = mkstemp(errpath);
	struct rusage ru;
	int st;

	assert_true(fe >= 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit lim = { as, as };
		int null = open("/dev/null", O_WRONLY);
		if (null < 0 || dup2(null, 1) < 0 || dup2(fe, 2) < 0 ||
		    chdir(SELFMON_SRC) < 0 ||
		    (as && setrlimit(RLIMIT_AS, &lim) < 0))
			_exit(99);
		execv(SELFMON_BIN, argv);
		_exit(98);
	}
	close(fe);
	assert_int_equal(wait4(pid, &st, 0, &ru), pid);
	c->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	c->peak_kib = ru.ru_maxrss;
	slurp(errpath, c->err, sizeof(c->err));
}

#define LINE "x86_64:unicorn:no_sext:x86_overflow:-"

static char html[4200];
static char *const check_argv[] = { "selfmon", "check", "no_sext", "--arch",
	"x86_64", "--scenario", "x86_overflow", "--no-traces", NULL };
static char *const explain_argv[] = { "selfmon", "replay", LINE, "--explain",
	NULL };
static char *const bug_argv[] = { "selfmon", "explain-bug", "no_sext", NULL };

/* no_sext fails in x86_overflow with no action: check exits 0 (the
 * verdict it is expected to get), replay 1 (a failing verdict). */
struct mem_case {
	char *const *argv;
	int status;
};

static void test_peak_resident(void **state)
{
	char *const html_argv[] = { "selfmon", "replay", LINE, "--html", html,
	                            NULL };
	const struct mem_case cases[] = { { check_argv, 0 }, { explain_argv, 1 },
	                                  { html_argv, 1 }, { bug_argv, 0 } };
	struct child c;
	(void)state;

	snprintf(html, sizeof(html), "%s/page.html", tmpdir());
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		run_child(cases[i].argv, 0, &c);
		if (c.status != cases[i].status)
			fail_msg("%s %s: exit %d, stderr %s", cases[i].argv[1],
			         cases[i].argv[3], c.status, c.err);
		if (c.peak_kib >= PEAK_MAX_KIB)
			fail_msg("%s %s: peak resident %ld KiB (at most %d expected)",
			         cases[i].argv[1], cases[i].argv[3], c.peak_kib,
			         PEAK_MAX_KIB);
	}
}

static void test_address_space_limit(void **state)
{
	const struct mem_case cases[] = { { check_argv, 0 }, { explain_argv, 1 } };
	struct child c;
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		run_child(cases[i].argv, AS_LIMIT, &c);
#ifdef uc_ctl_set_tcg_buffer_size
		/* the engine sizes the buffer to need */
		if (c.status != cases[i].status)
			fail_msg("%s under RLIMIT_AS: exit %d, stderr %s",
			         cases[i].argv[1], c.status, c.err);
#else
		/* Unicorn 2.0.1: a fixed 1 GiB buffer; selfmon's own error,
		 * after Unicorn's own line ("Could not allocate ...") */
		if (c.status != 2 || count_lines(c.err) > 2 ||
		    !strstr(c.err, "selfmon: the emulator (Unicorn) ran out of "
		            "memory\n"))
			fail_msg("%s under RLIMIT_AS: exit %d, stderr %s",
			         cases[i].argv[1], c.status, c.err);
#endif
	}
}

int main(void)
{
#ifdef SELFMON_SANITIZED
	/* under ASan the limits measure the sanitizer, not selfmon */
	puts("test_memory: skipped in the sanitizer build");
	return 77; /* ctest: skipped (SKIP_RETURN_CODE) */
#endif
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_peak_resident),
		cmocka_unit_test(test_address_space_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
