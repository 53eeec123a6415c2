/*
 * test_vm_boot.c — one boot (sim/vm/vm_boot.c) without QEMU: a stand-in
 * shell script is run as the emulator with QEMU's argument vector, and
 * what it does depends on the -kernel it is given.  The console is read
 * whole; a guest that never writes its first line (`started`) is killed
 * at start_s, not at the time-out, and said so (not_started); one that
 * writes it runs on to the time-out; without a `started` line, or with a
 * start_s not below the time-out, only the time-out applies.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "vm_boot.h"

static char qemu[64];

/* The stand-in: "start" writes the first line and powers off, "late"
 * writes it and never ends, any other kernel hangs after a banner. */
static const char script[] =
	"#!/bin/sh\n"
	"k=\n"
	"while [ $# -gt 0 ]; do [ \"$1\" = -kernel ] && k=$2; shift; done\n"
	"echo 'OpenSBI banner'\n"
	"case $k in\n"
	"start) echo '@selfmon-init'; echo 'the guest ran' ;;\n"
	"late) echo '@selfmon-init'; exec /bin/sleep 60 ;;\n"
	"*) exec /bin/sleep 60 ;;\n"
	"esac\n";

static int setup(void **state)
{
	(void)state;
	snprintf(qemu, sizeof(qemu), "/tmp/selfmon-fakeqemu-%d", (int)getpid());
	FILE *f = fopen(qemu, "w");
	if (!f || fputs(script, f) < 0 || fclose(f) != 0 || chmod(qemu, 0700))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(qemu);
	return 0;
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A boot of kernel k: the result, in the seconds it took. */
static double boot(const char *k, const char *started, unsigned start_s,
                   unsigned timeout_s, struct sm_vm_result *r)
{
	static const char initrd[] = "not a cpio: the stand-in ignores it";
	char err[256];
	struct sm_vm_spec s = {
		.arch = SM_ARM64, .qemu = qemu, .kernel = k, .initrd = initrd,
		.initrd_size = sizeof(initrd), .append = "", .cpus = 1,
		.mem_mb = 64, .timeout_s = timeout_s, .max_output = 1 << 20,
		.started = started, .start_s = start_s,
	};
	double t0 = now_s();
	if (sm_vm_boot(&s, r, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	return now_s() - t0;
}

static void test_started(void **state)
{
	struct sm_vm_result r;
	(void)state;

	boot("start", "@selfmon-init\n", 1, 20, &r);
	assert_false(r.not_started);
	assert_false(r.timed_out);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "OpenSBI banner\n@selfmon-init\n"
	                              "the guest ran\n"));
	free(r.out);
}

/* Stopped before its first line: killed at start_s (1 s), well before
 * the time-out (20 s), with what it wrote. */
static void test_not_started(void **state)
{
	struct sm_vm_result r;
	(void)state;

	double t = boot("hang", "@selfmon-init\n", 1, 20, &r);
	assert_true(r.not_started);
	assert_false(r.timed_out);
	assert_true(t < 10);
	assert_int_equal(r.status, -1);
	assert_non_null(strstr(r.out, "OpenSBI banner"));
	free(r.out);
}

/* Started, then hung: the time-out's (2 s), not a start's. */
static void test_started_then_hung(void **state)
{
	struct sm_vm_result r;
	(void)state;

	boot("late", "@selfmon-init\n", 1, 2, &r);
	assert_false(r.not_started);
	assert_true(r.timed_out);
	free(r.out);
}

/* No first line asked for, or a start_s not below the time-out: the
 * time-out alone. */
static void test_no_start_watch(void **state)
{
	struct sm_vm_result r;
	(void)state;

	boot("hang", NULL, 1, 2, &r);
	assert_false(r.not_started);
	assert_true(r.timed_out);
	free(r.out);
	boot("hang", "@selfmon-init\n", 2, 2, &r);
	assert_false(r.not_started);
	assert_true(r.timed_out);
	free(r.out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_started),
		cmocka_unit_test(test_not_started),
		cmocka_unit_test(test_started_then_hung),
		cmocka_unit_test(test_no_start_watch),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
