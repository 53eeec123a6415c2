/*
 * test_vm.c — `selfmon vm` end to end: a real Linux kernel (built from
 * linux-source-6.12 by ./dev.sh vm-kernels) booted under QEMU with the hw
 * checks as init.  Labelled vm and slow (each boot takes seconds to a
 * minute); built only where a cross compiler and QEMU were found.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cli.h"

/* The lines of the check table: reader, event, checks, wrong. */
struct row {
	char reader[64], event[32];
	unsigned checks, wrong;
};

static unsigned rows(struct row *out, unsigned max)
{
	unsigned n = 0;
	const char *p = strstr(r.out, "\nreader ");
	assert_non_null(p);
	for (p = strchr(p + 1, '\n'); p && n < max; p = strchr(p + 1, '\n')) {
		struct row x;
		if (sscanf(p + 1, "%63s %31s %u %u", x.reader, x.event, &x.checks,
		           &x.wrong) != 4)
			break;
		out[n++] = x;
	}
	return n;
}

static bool hardware(const char *event)
{
	return !strcmp(event, "cycles") || !strcmp(event, "instructions");
}

/* How many hardware events' pages show a counter for user space (an
 * index), and how many none. */
static void indexes(unsigned *with, unsigned *without)
{
	char name[32];
	unsigned idx;

	*with = *without = 0;
	for (const char *p = strstr(r.out, "\npages:\n"); p;
	     p = strchr(p + 1, '\n'))
		if (sscanf(p + 1, " %31s lock %*u index %u", name, &idx) == 2 &&
		    hardware(name))
			*(idx ? with : without) += 1;
}

/* The reference reader on the real kernel, every check in its read(2)
 * window, hardware events among them: with user access the counter is
 * read in user space (the pages of the events on a counter give its
 * index), without it no page gives one and the reader falls back to
 * read(2). */
static void reference_passes(const char *arch, const char *extra,
                             bool rdpmc)
{
	char cmd[256];
	struct row x[64];
	unsigned with, without;

	snprintf(cmd, sizeof(cmd), "vm %s reference --iterations 100 %s", arch,
	         extra);
	run(cmd);
	if (r.status != 0)
		fail_msg("%s: exit %d\n%s%s", cmd, r.status, r.out, r.err);
	assert_non_null(strstr(r.out, "hardware PMU: yes"));
	indexes(&with, &without);
	assert_true(with + without >= 2);
	if (rdpmc) /* (the events multiplexed out have none when opened) */
		assert_true(with >= 1);
	else
		assert_int_equal(with, 0);
	unsigned n = rows(x, 64), hw = 0;
	for (unsigned i = 0; i < n; i++) {
		assert_string_equal(x[i].reader, "reference");
		assert_true(x[i].checks > 100);
		assert_int_equal(x[i].wrong, 0);
		hw += hardware(x[i].event);
	}
	assert_true(hw >= 2);
}

static void test_arm64_reference(void **state)
{
	(void)state;
	reference_passes("arm64", "", true);
}

/* kernel.perf_user_access = 0: no counter in user space (index 0; the
 * kernel still says cap_user_rdpmc for a 32-bit event:
 * armv8pmu_user_event_idx() gives 0 without the sysctl), the reference
 * falls back to read(2) and still agrees. */
static void test_arm64_no_user_access(void **state)
{
	(void)state;
	reference_passes("arm64", "--user-access 0", false);
}

static void test_riscv64_reference(void **state)
{
	(void)state;
	reference_passes("riscv64", "", true);
}

/* riscv64 without user access: riscv_pmu_event_idx() gives 0 without
 * PERF_EVENT_FLAG_USER_READ_CNT, so read(2) again. */
static void test_riscv64_no_user_access(void **state)
{
	(void)state;
	reference_passes("riscv64", "--user-access 0", false);
}

/* A reader the model catches for a reason the hardware shows: arm64's
 * counters are 32 bits wide, and a reader that does not sign-extend the
 * counter is off on the real kernel too. */
static void test_arm64_catches_no_sext(void **state)
{
	(void)state;
	struct row x[64];

	run("vm arm64 no_sext --iterations 100");
	if (r.status != 1)
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	unsigned n = rows(x, 64), wrong_hw = 0;
	for (unsigned i = 0; i < n; i++)
		wrong_hw += hardware(x[i].event) && x[i].wrong > 0;
	assert_true(wrong_hw > 0);
}

/* A user's PATH:SYMBOL readers, loaded by the host's ELF loader and run
 * natively in the guest: the reference reader built by the user (a .o)
 * passes every check there, and no_sext built as a .so is off on a
 * 32-bit hardware counter after IOC_RESET as the built-in one is. */
static void user_readers(const char *arch, const char *cc, bool so)
{
	char ref[512], bad[512], cmd[1536], spec[600];
	struct row x[128];

	if (!compile_reader(cc, "-O2", "../../reader/selfmon.c", "vm-ref.o", ref,
	                    sizeof(ref)))
		fail_msg("%s cannot build reader/selfmon.c", cc);
	snprintf(cmd, sizeof(cmd), "vm %s %s:selfmon_read --abi values "
	         "--iterations 100", arch, ref);
	if (so) {
		if (!compile_reader(cc, "-O2 -shared -fPIC -nostdlib",
		                    "../../reader/variants/no_sext.c", "vm-nosext.so",
		                    bad, sizeof(bad)))
			fail_msg("%s cannot build no_sext.so", cc);
		size_t k = strlen(cmd);
		snprintf(cmd + k, sizeof(cmd) - k, " %s:selfmon_v_no_sext", bad);
	}
	run(cmd);
	if (r.status != (so ? 1 : 0))
		fail_msg("%s: exit %d\n%s%s", cmd, r.status, r.out, r.err);
	snprintf(spec, sizeof(spec), "%s:selfmon_read", ref);
	unsigned n = rows(x, 128), mine = 0, hw = 0, wrong_hw = 0;
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(x[i].reader, spec)) {
			mine++;
			hw += hardware(x[i].event);
			assert_true(x[i].checks > 100);
			assert_int_equal(x[i].wrong, 0);
		} else {
			assert_true(so && strstr(x[i].reader, "vm-nosext.so:"));
			wrong_hw += hardware(x[i].event) && x[i].wrong > 0;
		}
	assert_true(mine >= 4 && hw >= 2);
	assert_true(!so || wrong_hw > 0);
}

/* A reader that takes its process down (the values function of the
 * user's reference called as --abi raw: its fd and out are whatever the
 * registers hold) is that reader's failure on every event, and the
 * built-in reader beside it is still checked and reported: each reader
 * runs in a process of its own in the guest (vm/guest.c). */
static void test_arm64_reader_contained(void **state)
{
	char ref[512], cmd[1024], spec[600];
	struct row x[128];
	(void)state;

	if (!compile_reader(SELFMON_CC_ARM64, "-O2", "../../reader/selfmon.c",
	                    "vm-ref-raw.o", ref, sizeof(ref)))
		fail_msg("cannot build reader/selfmon.c for arm64");
	snprintf(cmd, sizeof(cmd), "vm arm64 reference %s:selfmon_read --abi "
	         "raw --iterations 100 --timeout 300", ref);
	run(cmd);
	if (r.status != 1)
		fail_msg("%s: exit %d\n%s%s", cmd, r.status, r.out, r.err);
	snprintf(spec, sizeof(spec), "%s:selfmon_read", ref);
	unsigned n = rows(x, 128), refs = 0, mine = 0, failed = 0;
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(x[i].reader, "reference")) {
			refs++;
			assert_true(x[i].checks > 100);
			assert_int_equal(x[i].wrong, 0);
		} else {
			assert_string_equal(x[i].reader, spec);
			mine++;
			failed += x[i].wrong > 0;
		}
	assert_true(refs >= 4);
	assert_int_equal(mine, refs); /* a row on every event */
	assert_true(failed >= 1);
}

static void test_arm64_user_readers(void **state)
{
	(void)state;
	user_readers("arm64", SELFMON_CC_ARM64, true);
}

static void test_riscv64_user_reader(void **state)
{
	(void)state;
	user_readers("riscv64", SELFMON_CC_RISCV64, false);
}

/* hw record's recorder in the guest, on hardware events: a trace file
 * that model --compare reads, and the model agrees with every page the
 * real kernel wrote (as with the bundled recordings, traces/hw/). */
static void record_agrees(const char *arch)
{
	char cmd[512], path[300];

	snprintf(path, sizeof(path), "%s/%s.trace", tmpdir(), arch);
	snprintf(cmd, sizeof(cmd), "vm %s record --out %s --duration 100", arch,
	         path);
	run(cmd);
	if (r.status != 0)
		fail_msg("%s: exit %d\n%s%s", cmd, r.status, r.out, r.err);
	assert_non_null(strstr(r.out, "recorded "));
	snprintf(cmd, sizeof(cmd), "model --compare %s", path);
	run(cmd);
	if (r.status != 0)
		fail_msg("%s: exit %d\n%s%s", cmd, r.status, r.out, r.err);
	char want[64];
	snprintf(want, sizeof(want), "3 events, %s", arch);
	assert_non_null(strstr(r.out, want));
	assert_non_null(strstr(r.out, "the model agrees with every recorded"));
}

static void test_arm64_record(void **state)
{
	(void)state;
	record_agrees("arm64");
}

static void test_riscv64_record(void **state)
{
	(void)state;
	record_agrees("riscv64");
}

static void test_bad_usage(void **state)
{
	(void)state;
	expect_usage_error("vm", "missing ARCH");
	expect_usage_error("vm sparc", "unknown arch 'sparc'");
	expect_usage_error("vm arm64 nosuch", "unknown reader 'nosuch'");
	expect_usage_error("vm riscv64 arm64_swapped_table",
	                   "unknown reader 'arm64_swapped_table' for riscv64");
	expect_usage_error("vm arm64 --timeout 5", "bad value '5' for --timeout");
	expect_usage_error("vm arm64 record", "missing --out FILE");
	expect_usage_error("vm arm64 --out x.trace", "--out is record's");
	expect_usage_error("vm arm64 record --out x.trace --events frob",
	                   "unknown event 'frob' in --events");
	expect_usage_error("vm arm64 record --out x.trace --events cycles:long",
	                   "'cycles:long' cannot be recorded");
	expect_usage_error("vm arm64 record reference --out x.trace",
	                   "unexpected 'reference' after record");
	expect_usage_error("vm arm64 x.o:f", "x.o:f needs --abi");
	expect_usage_error("vm arm64 --user-access 2", "arm64's kernel."
	                   "perf_user_access is 0 or 1");
	expect_usage_error("vm arm64 reference --abi raw",
	                   "--abi applies to PATH:SYMBOL readers only");
	expect_usage_error("vm arm64 /nonexistent.o:f --abi raw",
	                   "/nonexistent.o: No such file");
	expect_usage_error("vm arm64 --kernel-image /nonexistent",
	                   "/nonexistent: not a kernel image file");
	/* a file that is no kernel: the VM never powers off, and is killed
	 * at the time-out; the message ends with the guest's last line */
	expect_usage_error("vm arm64 --kernel-image tests/CMakeLists.txt "
	                   "--timeout 10", "did not power off within 10 s "
	                   "(QEMU killed; --timeout S allows more); its last "
	                   "line: \"");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_usage),
		cmocka_unit_test(test_arm64_reference),
		cmocka_unit_test(test_arm64_no_user_access),
		cmocka_unit_test(test_arm64_catches_no_sext),
		cmocka_unit_test(test_arm64_user_readers),
		cmocka_unit_test(test_arm64_reader_contained),
		cmocka_unit_test(test_riscv64_user_reader),
		cmocka_unit_test(test_arm64_record),
		cmocka_unit_test(test_riscv64_record),
		cmocka_unit_test(test_riscv64_reference),
		cmocka_unit_test(test_riscv64_no_user_access),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
