/*
 * test_hw.c — `selfmon hw` on this machine's real perf events: the
 * report, the reference reader agreeing with read(2) on every event that
 * opens (software events everywhere; hardware ones where there is a PMU,
 * otherwise the missing piece is named), the recorder, and the comparison
 * of a recorded trace with the model.
 */
#include <dirent.h>
#include <inttypes.h>
#include <sys/resource.h>

#include "cli.h"

static bool software_events_work(void)
{
	run("hw reference --iterations 20");
	return !strstr(r.out, "task-clock       not opened");
}

static void test_reference_agrees_with_read(void **state)
{
	(void)state;
	if (!software_events_work())
		skip(); /* perf_event_open refused even software events */
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "selfmon hw: "));
	assert_non_null(strstr(r.out, "perf_event_paranoid"));
	/* a PMU, or one line saying why not */
	assert_true(strstr(r.out, "hardware PMU: yes") ||
	            strstr(r.out, "no hardware PMU") ||
	            strstr(r.out, "no permission"));
	assert_non_null(strstr(r.out, "caps: bit0_is_deprecated 1"));
	/* software events: index 0, the reference falls back and agrees */
	const char *line = strstr(r.out, "\nreference            task-clock");
	assert_non_null(line);
	unsigned checks = 0, wrong = 1;
	/* reader, event, then the checks and wrong columns, by field */
	assert_int_equal(sscanf(line + 1, "%*s %*s %u %u", &checks, &wrong), 2);
	assert_true(checks >= 20);
	assert_int_equal(wrong, 0);
	assert_non_null(strstr(r.out, "every check that could run passed"));
}

/* A variant known to read the page only: on a software event (index 0,
 * a page the kernel rewrites only now and then) it disagrees with read(2),
 * and when named it decides the exit status. */
static void test_variant_disagrees(void **state)
{
	(void)state;
	if (!software_events_work())
		skip();
	run("hw pinned_loop --iterations 20");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "outside read(2)"));
	assert_non_null(strstr(r.out, "a reader disagreed with the kernel"));
}

static uint64_t json_u64_after(const char *p, const char *key)
{
	char pat[64];
	snprintf(pat, sizeof(pat), "\"%s\":", key);
	const char *q = strstr(p, pat);
	if (!q)
		fail_msg("no %s in %.300s", key, p);
	return strtoull(q + strlen(pat), NULL, 10);
}

static uint64_t children_cpu_us(void)
{
	struct rusage u;
	getrusage(RUSAGE_CHILDREN, &u);
	return (uint64_t)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1000000 +
	       (uint64_t)(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

/* A reader that spins until the page changes (on software events that
 * takes a context switch, which an idle machine rarely makes) ran for up
 * to 1 s of CPU a call, 1004 calls an event: minutes.  Each reader now has
 * a CPU budget per event; the command's CPU time is bounded by rows x
 * budget (plus its fixed work), whatever the machine's load. */
static void test_hanging_reader_is_bounded(void **state)
{
	(void)state;
	if (!software_events_work())
		skip();
	uint64_t t0 = children_cpu_us();
	run("hw inverted_recheck --json");
	uint64_t used = children_cpu_us() - t0;
	uint64_t budget = json_u64_after(r.out, "budget_ms");
	assert_int_equal(budget, 200); /* 100 ms + 0.1 ms x 1000 iterations */
	unsigned rows = 0, hung = 0;
	for (const char *p = r.out; (p = strstr(p, "{\"reader\":")); p++) {
		rows++;
		uint64_t cpu_us = json_u64_after(p, "cpu_us");
		/* a CPU timer fires at a tick: allow one (HZ >= 100) */
		if (cpu_us > (budget + 10) * 1000)
			fail_msg("a check used %" PRIu64 " us, budget %" PRIu64 " ms",
			         cpu_us, budget);
		const char *h = strstr(p, "\"hung\":");
		assert_non_null(h);
		if (!strncmp(h + 7, "true", 4)) {
			hung++;
			const char *first = strstr(p, "\"first\":\"");
			assert_non_null(first);
			assert_true(strstr(first, "hangs: ") != NULL &&
			            strstr(first, "hangs: ") < h);
		}
	}
	assert_true(rows >= 3);
	assert_int_equal(json_u64_after(r.out, "hanging"), hung);
	/* named, it decides the exit status: hanging or wrong is 1 */
	assert_int_equal(r.status,
	                 json_u64_after(r.out, "disagreements") ? 1 : 0);
	/* the documented bound: rows x budget, plus under a second */
	if (used > rows * budget * 1000 + 1000000)
		fail_msg("selfmon hw used %" PRIu64 " us of CPU for %u checks",
		         used, rows);
}

static void test_record_and_compare(void **state)
{
	char out[] = "/tmp/selfmon-hw-XXXXXX", args[256];
	(void)state;
	if (!software_events_work())
		skip();
	int fd = mkstemp(out);
	assert_true(fd >= 0);
	close(fd);
	snprintf(args, sizeof(args), "hw record --out %s --duration 50", out);
	run(args);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "recorded "));
	snprintf(args, sizeof(args), "model --compare %s", out);
	run(args);
	if (r.status != 0) /* show where, and keep the trace to look at */
		print_message("%s(trace kept in %s)\n", r.out, out);
	else
		unlink(out);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "actions replayed: the model agrees"));
}

/* The bundled traces, each recorded on a real kernel (its first lines
 * say where): swevents.trace on the development machine (Linux 6.18, no
 * PMU, software events), the others by `selfmon vm ARCH record` on Linux
 * 6.12 under QEMU 7.2 with the kernel's own PMU drivers (arm64 PMUv3,
 * riscv64 SBI), in two event orders each.  Driven with their actions and
 * the thread's context switches, the model writes the same page sequence
 * (lock, index, capabilities, pmc_width, size; offset after IOC_RESET).
 * Each of the QEMU ones disagreed with the model before opening an
 * event rescheduled its PMU (the locks at the opens) or, on riscv64,
 * before the firmware's counter came from the trace. */
static void test_bundled_traces(void **state)
{
	(void)state;
	char args[512];
	unsigned n = 0, pmu = 0;
	DIR *d = opendir(SELFMON_SRC "/traces/hw");
	assert_non_null(d);
	for (struct dirent *e; (e = readdir(d));) {
		size_t len = strlen(e->d_name);
		if (len < 7 || strcmp(e->d_name + len - 6, ".trace"))
			continue;
		snprintf(args, sizeof(args), "model --compare traces/hw/%s",
		         e->d_name);
		run(args);
		if (r.status != 0 ||
		    !strstr(r.out, "actions replayed: the model agrees"))
			fail_msg("%s: exit %d\n%s%s", args, r.status, r.out, r.err);
		n++;
		pmu += !strncmp(e->d_name, "arm64-", 6) ||
		       !strncmp(e->d_name, "riscv64-", 8);
	}
	closedir(d);
	assert_true(n >= 5);
	assert_true(pmu >= 4);
	/* a kernel variant of the trace's arch is the model's kernel */
	run("model --compare traces/hw/arm64-linux6.12-qemu7.2.trace --kernel "
	    "userpage_wmb");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "arm64, model as kernel userpage_wmb"));
}

#define BUNDLED SELFMON_SRC "/traces/hw/swevents.trace"
#define BUNDLED_ARM64 SELFMON_SRC "/traces/hw/arm64-linux6.12-qemu7.2.trace"

/* `selfmon model --compare` on a bundled trace with each line passed
 * through `edit`; the result is left in r. */
static void compare_edited_file(const char *path, void (*edit)(char *line))
{
	char out[] = "/tmp/selfmon-trace-XXXXXX", line[1024], args[256];
	FILE *in = fopen(path, "r");
	int fd = mkstemp(out);
	assert_non_null(in);
	assert_true(fd >= 0);
	FILE *o = fdopen(fd, "w");
	assert_non_null(o);
	while (fgets(line, sizeof(line), in)) {
		edit(line);
		fputs(line, o);
	}
	fclose(in);
	assert_int_equal(fclose(o), 0);
	snprintf(args, sizeof(args), "model --compare %s", out);
	run(args);
	unlink(out);
}

static void compare_edited(void (*edit)(char *line))
{
	compare_edited_file(BUNDLED, edit);
}

/* The number after `key` in line (a 1024-byte buffer) plus delta: true
 * if the line has the key. */
static bool add_to_number(char *line, const char *key, long long delta)
{
	char *v = strstr(line, key), *end, rest[1024];

	if (!v)
		return false;
	v += strlen(key);
	long long n = strtoll(v, &end, 10) + delta;
	snprintf(rest, sizeof(rest), "%s", end);
	snprintf(v, 1024 - (size_t)(v - line), "%lld%s", n, rest);
	return true;
}

/* One page update the model did not make: the first mark of cpu-clock
 * shows a lock two higher. */
static void bump_first_lock(char *line)
{
	static bool done;

	if (!done)
		done = add_to_number(line, " mark cpu-clock lock=", 2);
}

/* The first mark of cycles after its IOC_RESET on arm64 with its offset
 * 2^32 lower: what the 32-bit counter would read after the reset quirk
 * if the model had it wrong.  The counter's own advance is not compared,
 * but that is more than its half range. */
static void shift_reset_offset(char *line)
{
	static bool reset, done;

	if (strstr(line, " action reset event=cycles"))
		reset = true;
	if (reset && !done && strstr(line, " mark cycles "))
		done = add_to_number(line, " offset=", -(1ll << 32));
}

/* The same trace with cycles' first mark six lower in lock: the three
 * writes at instructions' open not made. */
static void drop_open_writes(char *line)
{
	static bool done;

	if (!done)
		done = add_to_number(line, " mark cycles lock=", -6);
}

static void drop_marks(char *line)
{
	if (strstr(line, " mark "))
		line[0] = '#', line[1] = '\n', line[2] = 0;
}

static void test_compare_can_fail(void **state)
{
	(void)state;
	compare_edited(bump_first_lock);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "cpu-clock.lock recorded"));
	assert_non_null(strstr(r.out, "the model differs"));
	compare_edited_file(BUNDLED_ARM64, shift_reset_offset);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "cycles.offset recorded"));
	compare_edited_file(BUNDLED_ARM64, drop_open_writes);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "after mmap: cycles.lock recorded"));
	compare_edited(drop_marks);
	assert_int_equal(r.status, 2);
	assert_string_equal(r.out, "");
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "no marks"));
}

static void test_bad_usage(void **state)
{
	(void)state;
	expect_usage_error("hw --iterations 0", "--iterations needs 1..");
	expect_usage_error("hw --iterations=0", "--iterations needs 1..");
	expect_usage_error("hw --iterations", "--iterations needs 1..");
	expect_usage_error("hw --frobnicate", "hw: unknown option '--frobnicate'");
	expect_usage_error("hw --json=yes", "hw: --json takes no value");
	expect_usage_error("hw record --out", "hw record: --out needs a FILE");
	expect_usage_error("hw record --out=/dev/null --duration=5",
	                   "--duration needs 10..600000 (ms)");
	expect_usage_error("hw record --out /dev/null extra",
	                   "hw record: unexpected 'extra'");
	expect_usage_error("hw nosuch", "unknown reader 'nosuch'");
	/* --compare with what it cannot take: said, not ignored */
	expect_usage_error("model --compare traces/hw/swevents.trace "
	                   "traces/x86_reset.scn", "takes no SCENARIO");
	expect_usage_error("model --compare traces/hw/swevents.trace --json",
	                   "--json is not for --compare");
	expect_usage_error("model --kernel riscv_keep_scounteren --compare "
	                   "traces/hw/arm64-linux6.12-qemu7.2.trace",
	                   "applies to riscv64 only, not arm64");
	expect_usage_error("hw record", "missing --out FILE");
	expect_usage_error("model --compare /nonexistent.trace",
	                   "/nonexistent.trace: No such file");
	expect_usage_error("model --compare README.md",
	                   "README.md:3:1: not a selfmon hw trace line");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_agrees_with_read),
		cmocka_unit_test(test_variant_disagrees),
		cmocka_unit_test(test_hanging_reader_is_bounded),
		cmocka_unit_test(test_record_and_compare),
		cmocka_unit_test(test_bundled_traces),
		cmocka_unit_test(test_compare_can_fail),
		cmocka_unit_test(test_bad_usage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
