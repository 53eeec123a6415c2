/*
 * test_hostile.c — reader code that attacks the emulator ends in a
 * verdict, in bounded time, touching nothing outside it: code written
 * into the return page or onto the stack never runs (no page is both
 * writable and executable), so no counter read escapes the traps; the
 * reader runs as user code (x86 CPL3, arm64 EL0, riscv64 U-mode), so
 * privileged instructions fault as on hardware; the import stubs honour
 * the reader's permissions; writable reader memory starts afresh in every
 * run; an instruction the emulator lacks is UNSUPPORTED (exit 4), not the
 * reader's fault; a long `rep` is bounded by the step budget.  Sources:
 * tests/readers/hostile_*.c.  A reader that needs more than selfmon's
 * 16 KiB stack is UNSUPPORTED too (tests/readers/stack_reader.c).  Short
 * of memory, selfmon says so and exits 2, even where Unicorn itself calls
 * exit(1).
 */
#include <dirent.h>
#include <sys/stat.h>

#include "cli.h"

/* The verdict and detail of one cell of check --json. */
static void cell(const char *obj, const char *fn, const char *scn,
                 const char *extra, char *verdict, size_t vn)
{
	char args[2048];
	snprintf(args, sizeof(args), "check %s:%s --abi raw --scenario %s "
	         "--no-traces --json %s", obj, fn, scn, extra);
	run(args);
	const char *v = strstr(r.out, "\"verdict\":\"");
	if (!v)
		fail_msg("%s: %d %s %s", args, r.status, r.out, r.err);
	snprintf(verdict, vn, "%.*s", (int)strcspn(v + 11, "\""), v + 11);
}

static void expect(const char *obj, const char *fn, const char *scn,
                   const char *extra, const char *verdict, const char *detail)
{
	char v[32];
	cell(obj, fn, scn, extra, v, sizeof(v));
	if (strcmp(v, verdict) || !strstr(r.out, detail))
		fail_msg("%s in %s: %s, expected %s with '%s': %.600s", fn, scn, v,
		         verdict, detail, r.out);
}

static void test_x86(void **state)
{
	char obj[512];
	(void)state;
	assert_true(compile_reader("gcc", "-O2 -fno-builtin", "hostile_x86.c",
	                           "hx.o", obj, sizeof(obj)));
	const char *scn = "x86_pinned", *b0 = "--bound 0";
	expect(obj, "jmp_ret_page", scn, b0, "FAULT", "write to read-only code");
	expect(obj, "rdtsc_on_stack", scn, b0, "FAULT",
	       "jump into non-executable memory");
	expect(obj, "priv_cli", scn, b0, "FAULT", "#GP");
	expect(obj, "priv_rdmsr", scn, b0, "FAULT", "#GP");
	expect(obj, "priv_cr0", scn, b0, "FAULT", "#GP");
	expect(obj, "halt", scn, b0, "FAULT", "#GP");
	expect(obj, "port_in", scn, b0, "FAULT", "port I/O");
	/* the model's TSC (cycle 2.9e9 + 5000), not the host's */
	expect(obj, "prefixed_rdtsc", scn, b0, "WRONG_VALUE", "count = 2900005000");
	/* read(2) into the read-only page: EFAULT, the page untouched */
	expect(obj, "read_into_page", scn, b0, "WRONG_VALUE",
	       "count = 18446744073709551615");
	expect(obj, "memcpy_to_page", scn, b0, "FAULT", "not writable memory");
	expect(obj, "rep_long", scn, b0, "LIVELOCK", "after 20000 steps");
	assert_int_equal(r.status, 1);
	expect(obj, "avx", scn, b0, "UNSUPPORTED", "cannot run 'vpxor ymm0");
	assert_int_equal(r.status, 4);
	expect(obj, "avx_vmov", scn, b0, "UNSUPPORTED", "cannot run 'vmovdqa");
	/* a real CPU faults at CPL3 too: the reader's FAULT, not UNSUPPORTED */
	expect(obj, "vmcall", scn, b0, "FAULT", "('vmcall");
	expect(obj, "sysret", scn, b0, "FAULT", "('sysret");
	expect(obj, "monitor", scn, b0, "FAULT", "('monitor");
	expect(obj, "icebp", scn, b0, "FAULT", "('int1");
	/* rdpid answers the task's CPU (0, not the 99 it started as) */
	expect(obj, "rdpid", scn, b0, "WRONG_VALUE", "count = 0 ");
	expect(obj, "rdpid_r9", scn, b0, "WRONG_VALUE", "count = 0 ");
	expect(obj, "code_selector", scn, b0, "WRONG_VALUE", "count = 51 ");
	expect(obj, "reload_ss", scn, b0, "WRONG_VALUE", "count = 43 ");
	expect(obj, "read_gdt", scn, b0, "FAULT",
	       "read of unmapped address 0x70000028");
}

/* .bss state from one run must not reach the next: every schedule of a
 * reader correct on its first call passes, and all are explored. */
static void test_fresh_memory(void **state)
{
	char obj[512];
	(void)state;
	assert_true(compile_reader("gcc", "-O2 -fno-builtin", "hostile_x86.c",
	                           "hx.o", obj, sizeof(obj)));
	expect(obj, "bss_counter", "x86_pinned", "--actions overflow --bound 2",
	       "PASS", "\"schedules\":");
	const char *n = strstr(r.out, "\"schedules\":");
	assert_true(strtoul(n + 12, NULL, 10) > 5);
}

/* Stack slots 8 KiB deep (the stack's cold part, device memory that
 * snapshots copy only once a run has stored there) or at its top: the
 * same verdict from the same number of schedules, a correct reader and a
 * stale one alike, and the stale one's counterexample replays to its
 * verdict (a snapshot that lost the deep slots would not). */
static void test_deep_stack(void **state)
{
	static const char *const pairs[][2] = {
		{ "deep_stack", "top_stack" }, { "deep_stale", "top_stale" },
	};
	const char *x = "--actions overflow,migrate,preempt --bound 2";
	char obj[512], v[2][32];
	unsigned long n[2];
	(void)state;
	assert_true(compile_reader("gcc", "-O2 -fno-builtin", "hostile_x86.c",
	                           "hx.o", obj, sizeof(obj)));
	for (int p = 0; p < 2; p++) {
		for (int k = 0; k < 2; k++) {
			cell(obj, pairs[p][k], "x86_pinned", x, v[k], sizeof(v[k]));
			const char *s = strstr(r.out, "\"schedules\":");
			assert_non_null(s);
			n[k] = strtoul(s + 12, NULL, 10);
		}
		assert_string_equal(v[0], v[1]);
		assert_int_equal(n[0], n[1]);
		assert_true(n[0] > (p ? 1 : 10)); /* the stale one stops at its failure */
		assert_string_equal(v[0], p ? "WRONG_VALUE" : "PASS");
	}
}

/* Stores far up in the out-parameters' and errno pages are undone with
 * the run (hostile_x86.c FAR_READER): a reader correct but for what it
 * finds there passes. */
static void test_far_stores(void **state)
{
	char obj[512];
	(void)state;
	assert_true(compile_reader("gcc", "-O2 -fno-builtin", "hostile_x86.c",
	                           "hx.o", obj, sizeof(obj)));
	const char *x = "--actions overflow,migrate,preempt --bound 2";
	expect(obj, "out_far", "x86_pinned", x, "PASS", "\"schedules\":");
	expect(obj, "errno_far", "x86_pinned", x, "PASS", "\"schedules\":");
	char np[128];
	snprintf(np, sizeof(np), "%s --no-prune", x);
	expect(obj, "errno_far", "x86_pinned", np, "PASS", "\"pruned\":0");
}

/* An import called with the stack pointer on unmapped memory returns
 * as `ret` would there: the reader's FAULT, naming that address. */
static void test_stub_return(void **state)
{
	char obj[512];
	(void)state;
	assert_true(compile_reader("gcc", "-O2 -fno-builtin", "hostile_x86.c",
	                           "hx.o", obj, sizeof(obj)));
	expect(obj, "stub_bad_stack", "x86_pinned", "--bound 0", "FAULT",
	       "not readable memory: read of unmapped address 0x12345000");
	assert_int_equal(r.status, 1);
}

/* A copy from the page is a series of loads, each an observation point
 * (a step per 8-byte piece of the page, in ascending order): a reader
 * that checks the lock around a memcpy of the page is judged as it would
 * be with plain loads (tests/readers/copy_reader.c).  copy_lock and
 * copy_late used to PASS exhaustively on every x86-64 scenario but the
 * remote writer's, and on arm64 and riscv64. */
static void test_page_copies(void **state)
{
	static const struct { const char *arch, *cc, *obj, *scn; } t[] = {
		{ "x86_64", "gcc", "cx.o", "x86_pinned" },
		{ "x86_64", "gcc", "cx.o", "x86_multiplex" },
		{ "arm64", "aarch64-linux-gnu-gcc", "ca.o", "arm64_counters" },
		{ "riscv64", "riscv64-linux-gnu-gcc", "cr.o", "riscv64" },
	};
	char obj[512], cmd[1024];
	(void)state;
	for (size_t a = 0; a < sizeof(t) / sizeof(t[0]); a++) {
		if (!arch_built(t[a].arch) ||
		    !compile_reader(t[a].cc, "-O2 -fno-builtin", "copy_reader.c",
		                    t[a].obj, obj, sizeof(obj))) {
			assert_string_not_equal(t[a].arch, "x86_64");
			continue;
		}
		expect(obj, "copy_good", t[a].scn, "--bound 2", "PASS",
		       "\"exhaustive\":true");
		expect(obj, "copy_lock", t[a].scn, "--bound 2", "WRONG_VALUE",
		       "count = 0 is not the truth");
		expect(obj, "copy_late", t[a].scn, "--bound 2", "WRONG_VALUE",
		       "is not the truth");
	}
	/* the 64-byte copy: eight loads of the page, eight steps */
	assert_true(compile_reader("gcc", "-O2 -fno-builtin", "copy_reader.c",
	                           "cx.o", obj, sizeof(obj)));
	snprintf(cmd, sizeof(cmd), "replay 'x86_64:unicorn:%s#copy_whole#raw:"
	         "x86_pinned:-' --explain", obj);
	run(cmd);
	const char *call = strstr(r.out, "call ");
	assert_non_null(call);
	unsigned loads = 0, step = 0;
	for (const char *p = call; (p = strstr(p, "load  page.")); p++)
		loads++;
	assert_int_equal(loads, 8);
	const char *last = strstr(call, "page.time_offset (8 bytes at +56)");
	assert_non_null(last);
	assert_int_equal(sscanf(strchr(last, '\n') + 1, " %u", &step), 1);
	unsigned call_step = 0;
	const char *line = call;
	while (line > r.out && line[-1] != '\n')
		line--;
	assert_int_equal(sscanf(line, " %u", &call_step), 1);
	assert_int_equal(step, call_step + 9); /* the call, then 8 pieces */
}

/* Code Unicorn aborts on while translating it (ljmp through a register)
 * ends the command with selfmon's exit 2 and one line of its own, and
 * leaves no temporary of an output being written (--junit, opened before
 * the readers run). */
static void test_unicorn_abort(void **state)
{
	char obj[512], args[1200], dir[600];
	(void)state;
	assert_true(compile_reader("gcc", "-O2 -fno-builtin", "hostile_x86.c",
	                           "hx.o", obj, sizeof(obj)));
	snprintf(dir, sizeof(dir), "%s/abort-out", tmpdir());
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(args, sizeof(args), "check %s:ljmp_register --abi raw --scenario "
	         "x86_pinned --bound 0 --no-traces --junit %s/j.xml", obj, dir);
	run(args);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "selfmon: the emulator (Unicorn 2.0.1) "
	                              "aborted translating the reader's code"));
	DIR *d = opendir(dir);
	assert_non_null(d);
	struct dirent *de;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			fail_msg("left in %s: %s", dir, de->d_name);
	closedir(d);
}

/* Under `ulimit -v` too small for Unicorn's translation buffer: exit 2
 * (selfmon's own error), not 1 (a reader failed), and a line saying so.
 * AddressSanitizer needs more address space than that just to start. */
static void test_out_of_memory(void **state)
{
	(void)state;
#ifdef __SANITIZE_ADDRESS__
	skip();
#else
	char cmd[4096], err[] = "/tmp/selfmon-oom-errXXXXXX";
	int fe = mkstemp(err);
	assert_true(fe >= 0);
	close(fe);
	snprintf(cmd, sizeof(cmd), "cd '%s' && (ulimit -v 600000; exec '%s' "
	         "check reference --scenario x86_reset --no-traces -j1) "
	         ">/dev/null 2>%s", SELFMON_SRC, SELFMON_BIN, err);
	int st = system(cmd);
	slurp(err, r.err, sizeof(r.err));
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 2);
	assert_non_null(strstr(r.err, "selfmon: the emulator (Unicorn) ran out "
	                              "of memory"));
#endif
}

static void test_arm64(void **state)
{
	char obj[512];
	(void)state;
	if (!arch_built("arm64") ||
	    !compile_reader("aarch64-linux-gnu-gcc", "-O2", "hostile_arm64.c",
	                    "ha.o", obj, sizeof(obj)))
		skip();
	const char *scn = "arm64_counters", *b0 = "--bound 0";
	expect(obj, "jmp_ret_page", scn, b0, "FAULT", "write to read-only code");
	expect(obj, "priv_vbar", scn, b0, "FAULT", "UNDEFINED instruction at EL0");
	expect(obj, "pmcr", scn, b0, "FAULT", "UNDEFINED instruction at EL0");
	expect(obj, "cntpct", scn, b0, "FAULT", "UNDEFINED instruction at EL0");
	expect(obj, "wait_for_interrupt", scn, b0, "WRONG_VALUE",
	       "count = 2147483647");
	/* Linux runs these at EL0; Unicorn's CPU lacks them */
	static const char *const lacks[][2] = {
		{ "lse_ldaddal", "'LSE atomic f8e0" },
		{ "lse_casal", "'LSE atomic c8e0" },
		{ "pac", "'pointer authentication dac1" }, { "dc_zva", "'dc zva" },
		{ "dc_civac", "'dc civac" }, { "id_isar0", "'mrs" },
	};
	for (size_t i = 0; i < sizeof(lacks) / sizeof(lacks[0]); i++) {
		expect(obj, lacks[i][0], scn, b0, "UNSUPPORTED", lacks[i][1]);
		assert_int_equal(r.status, 4);
	}
	/* a real CPU refuses these at EL0 too */
	expect(obj, "sctlr", scn, b0, "FAULT", "UNDEFINED instruction at EL0");
	expect(obj, "dc_ivac", scn, b0, "FAULT", "UNDEFINED instruction at EL0");
	expect(obj, "halt", scn, b0, "FAULT", "('hlt #0xf000')");
	expect(obj, "breakpoint", scn, b0, "FAULT", "CPU exception");
	expect(obj, "undefined", scn, b0, "FAULT", "UNDEFINED instruction at EL0");
}

static void test_riscv64(void **state)
{
	char obj[512];
	(void)state;
	if (!arch_built("riscv64") ||
	    !compile_reader("riscv64-linux-gnu-gcc", "-O2", "hostile_riscv64.c",
	                    "hr.o", obj, sizeof(obj)))
		skip();
	const char *scn = "riscv64", *b0 = "--bound 0";
	expect(obj, "jmp_ret_page", scn, b0, "FAULT", "write to read-only code");
	expect(obj, "csrrs_cycle", scn, b0, "FAULT", "csr write");
	expect(obj, "mstatus", scn, b0, "FAULT", "illegal instruction");
	expect(obj, "wait_for_interrupt", scn, b0, "FAULT", "wfi in U-mode");
	/* reported at the csrr itself (csrr a0, satp), not the next one */
	expect(obj, "satp", scn, b0, "FAULT", "(instruction 18002573)");
	/* so an OP-V instruction is classified by its own bytes */
	expect(obj, "vector", scn, b0, "UNSUPPORTED",
	       "cannot run 'vector instruction 02208057'");
	assert_int_equal(r.status, 4);
}

/* A reader that needs more than selfmon's 16 KiB of stack (recursion,
 * alloca, a big local array memset by the stub) is UNSUPPORTED, exit 4:
 * selfmon's limit, not the reader's FAULT.  A store far below any stack
 * stays the reader's FAULT.  Source: tests/readers/stack_reader.c. */
static void test_stack_limit(void **state)
{
	static const struct { const char *arch, *cc, *obj, *scn; } t[] = {
		{ "x86_64", "gcc", "sx.o", "x86_pinned" },
		{ "arm64", "aarch64-linux-gnu-gcc", "sa.o", "arm64_counters" },
		{ "riscv64", "riscv64-linux-gnu-gcc", "sr.o", "riscv64" },
	};
	static const char *const deep[] = { "deep_recursion", "big_alloca",
	                                    "big_memset" };
	const char *limit = "the reader's stack went past selfmon's 16 KiB "
	                    "stack (an access at 0x2fff";
	char obj[512];
	unsigned arches = 0;
	(void)state;
	for (size_t a = 0; a < sizeof(t) / sizeof(t[0]); a++) {
		if (!arch_built(t[a].arch) ||
		    !compile_reader(t[a].cc, "-O2 -fno-builtin", "stack_reader.c",
		                    t[a].obj, obj, sizeof(obj)))
			continue;
		arches++;
		for (size_t i = 0; i < sizeof(deep) / sizeof(deep[0]); i++) {
			expect(obj, deep[i], t[a].scn, "--bound 0", "UNSUPPORTED",
			       limit);
			assert_int_equal(r.status, 4);
		}
		expect(obj, "far_below", t[a].scn, "--bound 0", "FAULT",
		       "write to unmapped address 0x2f000000");
		/* 2 MiB of its own .bss memset: done, not refused */
		expect(obj, "big_bss_memset", t[a].scn, "--bound 0", "WRONG_VALUE",
		       "count = 2 is not the truth");
		if (!strcmp(t[a].arch, "riscv64")) /* the memset stub's store */
			expect(obj, "big_memset", t[a].scn, "--bound 0",
			       "UNSUPPORTED", "by memcpy/memset; Linux gives 8 MiB");
	}
	if (!arches)
		skip();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x86),
		cmocka_unit_test(test_fresh_memory),
		cmocka_unit_test(test_deep_stack),
		cmocka_unit_test(test_far_stores),
		cmocka_unit_test(test_stub_return),
		cmocka_unit_test(test_page_copies),
		cmocka_unit_test(test_unicorn_abort),
		cmocka_unit_test(test_out_of_memory),
		cmocka_unit_test(test_arm64),
		cmocka_unit_test(test_riscv64),
		cmocka_unit_test(test_stack_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
