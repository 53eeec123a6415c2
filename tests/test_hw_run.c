/*
 * test_hw_run.c — a hw run as data and its wire format (sim/hw/hw_run.h):
 * a run made here, written and parsed back, is the same run and reports
 * the same text; the parser takes a guest's output as untrusted input
 * (each bad line one NAME:LINE:COL error, the kernel's console around our
 * lines ignored).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hw_report.h"
#include "hw_run.h"

static char *written(const struct hw_run *run)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	hw_run_write(f, run);
	fclose(f);
	return buf;
}

static char *report(const struct hw_run *run)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct hw_outcome out;

	assert_non_null(f);
	hw_report(f, false, "t", true, run, &out);
	fclose(f);
	return buf;
}

/* Here, then written and read back: every field the report shows. */
static void test_roundtrip(void **state)
{
	(void)state;
	const struct sm_reader *r[] = { sm_reader_find("reference"),
	                                sm_reader_find("rfc2011_test") };
	struct hw_run a, b;
	char err[256];

	assert_int_equal(hw_run_here(&a, r, 2, 20, 1), 0);
	assert_true(a.nchecks >= 2);
	char *text = written(&a);
	/* the kernel's console around and between our lines */
	size_t n = strlen(text);
	char *noisy = malloc(n + 200);
	assert_non_null(noisy);
	snprintf(noisy, n + 200, "[    0.1] Linux version 6.12\r\n%s"
	         "reboot: Power down\n", text);
	if (hw_run_parse("guest", noisy, NULL, 0, &b, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	assert_string_equal(b.m.arch, a.m.arch);
	assert_int_equal(b.m.ncpus, a.m.ncpus);
	assert_int_equal(b.m.pmu, a.m.pmu);
	assert_string_equal(b.m.user_access, a.m.user_access);
	assert_string_equal(b.m.no_pmu, a.m.no_pmu);
	assert_int_equal(b.nev, a.nev);
	for (unsigned i = 0; i < a.nev; i++) {
		assert_string_equal(b.ev[i].name, a.ev[i].name);
		assert_int_equal(b.ev[i].err, a.ev[i].err);
		assert_int_equal(b.ev[i].have_page, a.ev[i].have_page);
		for (unsigned k = 0; a.ev[i].have_page && k < selfmon_npage_fields;
		     k++) {
			const struct selfmon_page_field *f = &selfmon_page_fields[k];
			if (strncmp(f->name, "__", 2))
				assert_int_equal(selfmon_page_get(&b.ev[i].page, f),
				                 selfmon_page_get(&a.ev[i].page, f));
		}
	}
	assert_int_equal(b.nchecks, a.nchecks);
	for (unsigned i = 0; i < a.nchecks; i++) {
		assert_ptr_equal(b.checks[i].reader, a.checks[i].reader);
		assert_int_equal(b.checks[i].event, a.checks[i].event);
		assert_int_equal(b.checks[i].t.runs, a.checks[i].t.runs);
		assert_int_equal(b.checks[i].t.fails, a.checks[i].t.fails);
		assert_string_equal(b.checks[i].t.first, a.checks[i].t.first);
	}
	char *ra = report(&a), *rb = report(&b);
	assert_string_equal(ra, rb);
	free(ra), free(rb), free(text), free(noisy);
	hw_run_free(&a);
	hw_run_free(&b);
}

#define BEGIN "@selfmon begin version=1\n"
#define MACHINE "@selfmon machine arch=arm64 cpus=2 paranoid=2 pmu=1 " \
	"iterations=5 slow=1 user_access=x no_pmu=%00\n"
#define EVENT "@selfmon event name=cycles pinned=1 software=0 err=0 page=0\n"
#define CHECK "@selfmon check reader=reference event=0 runs=5 fails=0 " \
	"died=0 hung=0 cpu_ns=1 read_ps=2 syscall_ps=3 first=%00\n"
#define END1 "@selfmon end checks=1\n"

/* A guest's bad output: one error line each, naming where. */
static void test_hostile_guest(void **state)
{
	(void)state;
	static const struct { const char *text, *err; } bad[] = {
		{ "", "guest: the guest ended before its last line" },
		{ "garbage only\n", "guest: the guest ended before" },
		{ BEGIN MACHINE EVENT CHECK, "guest: the guest ended before" },
		{ "@selfmon begin version=2\n", "guest:1:24: version 2" },
		{ MACHINE, "guest:1:10: 'machine' out of order" },
		{ BEGIN "@selfmon frob\n", "guest:2:10: unknown line 'frob'" },
		{ BEGIN MACHINE CHECK, "guest:3:10: 'check' out of order" },
		{ BEGIN MACHINE EVENT CHECK END1 END1,
		  "guest:6:10: 'end' out of order" },
		{ BEGIN "@selfmon machine arch=sparc cpus=2 paranoid=2 pmu=1 "
		  "iterations=5 slow=1 user_access=x no_pmu=y\n",
		  "guest:2:23: unknown arch 'sparc'" },
		{ BEGIN "@selfmon machine arch=arm64 cpus=2\n",
		  "guest:2:35: missing paranoid=" },
		{ BEGIN MACHINE "@selfmon event name=frob pinned=0 software=0 "
		  "err=0 page=0\n", "guest:3:21: unknown event 'frob'" },
		{ BEGIN MACHINE "@selfmon event name=cycles pinned=0 software=0 "
		  "err=0 page=0 lock=1\n", "page fields of an event without" },
		{ BEGIN MACHINE "@selfmon event name=cycles pinned=0 software=0 "
		  "err=0 page=1 frob=1\n", "unknown page field 'frob'" },
		{ BEGIN MACHINE "@selfmon event name=cycles pinned=0 software=0 "
		  "err=0 page=1 index=x\n", "bad number 'x'" },
		{ BEGIN MACHINE EVENT "@selfmon check reader=nosuch event=0 runs=5 "
		  "fails=0 died=0 hung=0 cpu_ns=1 read_ps=2 syscall_ps=3 first=a\n",
		  "guest:4:23: unknown reader 'nosuch'" },
		{ BEGIN MACHINE EVENT "@selfmon check reader=reference event=3 "
		  "runs=5 fails=0 died=0 hung=0 cpu_ns=1 read_ps=2 syscall_ps=3 "
		  "first=a\n", "no event 3" },
		{ BEGIN MACHINE EVENT "@selfmon check reader=reference event=0 "
		  "runs=5 fails=6 died=0 hung=0 cpu_ns=1 read_ps=2 syscall_ps=3 "
		  "first=a\n", "more fails than runs" },
		{ BEGIN MACHINE EVENT "@selfmon check reader=reference event=0 "
		  "runs=5 fails=0 died=0 hung=0 cpu_ns=1 read_ps=2 syscall_ps=3 "
		  "first=%4\n", "bad %-escape" },
		{ BEGIN MACHINE EVENT CHECK "@selfmon end checks=2\n",
		  "guest:5:21: 2 checks said, 1 given" },
		{ BEGIN MACHINE EVENT CHECK "@selfmon end checks=1 checks=1\n",
		  "duplicate key 'checks'" },
		{ BEGIN "@selfmon machine arch=arm64 cpus=2 paranoid=2 pmu=1 "
		  "iterations=5 slow=1 user_access=\x1b[2J no_pmu=y\n",
		  "control character" },
	};
	struct hw_run run;
	char err[512];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = hw_run_parse("guest", bad[i].text, NULL, 0, &run, err,
		                      sizeof(err));
		if (rc == 0)
			fail_msg("case %zu accepted", i);
		if (!strstr(err, bad[i].err))
			fail_msg("case %zu: '%s', not '%s'", i, err, bad[i].err);
		assert_null(strchr(err, '\n'));
	}
	/* the good one, with CRLF lines and a decoded text */
	const char *good = BEGIN MACHINE EVENT
		"@selfmon check reader=reference event=0 runs=5 fails=1 died=0 "
		"hung=0 cpu_ns=1 read_ps=2500 syscall_ps=3 first=a%20b%25\r\n" END1;
	if (hw_run_parse("guest", good, NULL, 0, &run, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	assert_int_equal(run.nchecks, 1);
	assert_string_equal(run.checks[0].t.first, "a b%");
	assert_true(run.checks[0].t.read_ns == 2.5);
	hw_run_free(&run);
}

/* The user's readers the host sent are "user:K", K below how many it
 * sent, spelt one way; the guest cannot name any other. */
static void test_user_reader_names(void **state)
{
	(void)state;
	static const struct sm_reader mine = { .name = "x.o:f", .arches = 0 };
	const struct sm_reader *users[] = { &mine };
	static const char *const names[] = { "user:0", "user:1", "user:00",
		"user:", "user:0x", "user:-0" };
	struct hw_run run;
	char text[1024], err[256];

	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		for (unsigned n = 0; n <= 1; n++) {
			snprintf(text, sizeof(text), "%s@selfmon check reader=%s event=0 "
			         "runs=5 fails=0 died=0 hung=0 cpu_ns=1 read_ps=2 "
			         "syscall_ps=3 first=a\n%s", BEGIN MACHINE EVENT, names[i],
			         END1);
			int rc = hw_run_parse("guest", text, users, n, &run, err,
			                      sizeof(err));
			if (i == 0 && n == 1) {
				if (rc < 0)
					fail_msg("%s", err);
				assert_ptr_equal(run.checks[0].reader, &mine);
				hw_run_free(&run);
			} else {
				if (rc == 0)
					fail_msg("%s accepted with %u users", names[i], n);
				assert_non_null(strstr(err, "unknown reader"));
			}
		}
}

/* More events than the table holds: refused at the first one over. */
static void test_too_many_events(void **state)
{
	(void)state;
	size_t cap = 64 * 1024, k = 0;
	char *t = malloc(cap);
	struct hw_run run;
	char err[256];

	assert_non_null(t);
	k += (size_t)snprintf(t + k, cap - k, "%s", BEGIN MACHINE);
	for (int i = 0; i <= HW_RUN_MAX_EVENTS; i++)
		k += (size_t)snprintf(t + k, cap - k, "%s", EVENT);
	assert_int_equal(hw_run_parse("guest", t, NULL, 0, &run, err,
	                              sizeof(err)), -1);
	char want[64];
	snprintf(want, sizeof(want), "more than %d events", HW_RUN_MAX_EVENTS);
	assert_non_null(strstr(err, want));
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_hostile_guest),
		cmocka_unit_test(test_user_reader_names),
		cmocka_unit_test(test_too_many_events),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
