/*
 * test_solib.c — a library's reader as its users build it: an ordinary
 * shared object (gcc -O2 -fPIC -shared, the C runtime's start files, a
 * constructor, IFUNCs, PLT calls within it, libc calls, the stack
 * protector) checked by the `selfmon` binary on each arch, and the
 * one-line errors of load-time code selfmon cannot run.
 *
 * Before the load-time code was run (issue 43 item 1), every one of
 * these objects was refused: "section '.init' holds code to run at load
 * time".
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cli.h"

static const struct { const char *arch, *cc; } arches[] = {
	{ "x86_64", "gcc" },
	{ "arm64", "aarch64-linux-gnu-gcc" },
	{ "riscv64", "riscv64-linux-gnu-gcc" },
};

/* tests/elf/SRC built as an ordinary .so by `cc FLAGS` into tmpdir()/OUT
 * (its path into path); false if that toolchain cannot. */
static bool build_so(const char *cc, const char *flags, const char *src,
                     const char *out, char *path, size_t n)
{
	char cmd[2048];

	snprintf(path, n, "%s/%s", tmpdir(), out);
	snprintf(cmd, sizeof(cmd), "%s -O2 -fPIC -shared %s -I'%s/model' "
	         "'%s' -o '%s' 2>/dev/null", cc, flags, SELFMON_SRC, src, path);
	return system(cmd) == 0;
}

static void check_so(const char *arch, const char *spec, int status,
                     const char *want)
{
	char args[1024];

	snprintf(args, sizeof(args), "check '%s' --arch %s --abi values "
	         "--no-traces", spec, arch);
	run(args);
	if (r.status != status || !strstr(r.out, want))
		fail_msg("%s: exit %d (want %d), no '%s' in\n%s%s", args, r.status,
		         status, want, r.out, r.err);
}

/* The ordinary library on each arch: its constructor's table used by its
 * IFUNC-chosen helper through its own PLT, entered directly and through
 * an IFUNC; a table filled one bit short is caught, so the table the
 * reader used is the constructor's. */
static void test_ordinary_lib(void **state)
{
	char src[512], so[512], spec[600];
	unsigned done = 0;
	(void)state;

	snprintf(src, sizeof(src), "%s/tests/elf/ordinary_lib.c", SELFMON_SRC);
	for (size_t i = 0; i < sizeof(arches) / sizeof(arches[0]); i++) {
		char name[64];
		if (!arch_built(arches[i].arch))
			continue;
		snprintf(name, sizeof(name), "lib_%s.so", arches[i].arch);
		if (!build_so(arches[i].cc, "-fstack-protector-all", src, name, so,
		              sizeof(so)))
			continue;
		/* it is the ordinary kind: crt's .init (riscv64's crti has
		 * none), an init array, IFUNCs */
		char cmd[2000];
		snprintf(cmd, sizeof(cmd), "(readelf -dW '%s' | grep -q '(INIT)' "
		         "|| [ %s = riscv64 ]) && readelf -dW '%s' | grep -q "
		         "INIT_ARRAY && readelf -sW '%s' | grep -q IFUNC", so,
		         arches[i].arch, so, so);
		if (system(cmd) != 0)
			fail_msg("not an ordinary .so: %s", cmd);
		snprintf(spec, sizeof(spec), "%s:lib_read", so);
		check_so(arches[i].arch, spec, 0, " 0 unexpected");
		snprintf(spec, sizeof(spec), "%s:lib_read_ifunc", so);
		check_so(arches[i].arch, spec, 0, " 0 unexpected");
		snprintf(name, sizeof(name), "bad_%s.so", arches[i].arch);
		assert_true(build_so(arches[i].cc, "-DLIB_BAD_TABLE", src, name, so,
		                     sizeof(so)));
		snprintf(spec, sizeof(spec), "%s:lib_read", so);
		check_so(arches[i].arch, spec, 1, "WRONG_VALUE");
		done++;
	}
	if (!done)
		skip();
}

/* tmpdir()/NAME.c with `text`, built as an ordinary x86-64 .so. */
static void x86_so(const char *name, const char *text, char *so, size_t n)
{
	char src[512];

	snprintf(src, sizeof(src), "%s/%s.c", tmpdir(), name);
	FILE *f = fopen(src, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	char out[80];
	snprintf(out, sizeof(out), "%s.so", name);
	assert_true(build_so("gcc", "", src, out, so, n));
}

/* Load-time code selfmon cannot run ends the cell in ERROR with the
 * reason, naming the initialiser: a counter read, a loop, a crash. */
static void test_load_time_errors(void **state)
{
	static const struct { const char *name, *ctor, *want; } cases[] = {
		{ "ctor_rdtsc", "uint32_t lo, hi; __asm__ volatile(\"rdtsc\" : "
		  "\"=a\"(lo), \"=d\"(hi)); v = lo;", "executes rdtsc: selfmon runs "
		  "load-time code before the event is open" },
		{ "ctor_loop", "while (spin) ;", "ran past 4000000 instructions" },
		{ "ctor_crash", "v = *(volatile uint64_t *)(uintptr_t)spin;",
		  "read of unmapped address 0x1" },
	};
	char text[1024], so[512], spec[600];
	(void)state;

	if (!arch_built("x86_64"))
		skip();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text), "#include <stdint.h>\n"
		         "static uint64_t v; volatile int spin = 1;\n"
		         "__attribute__((constructor)) static void c(void) { %s }\n"
		         "uint64_t reader(const void *p) { return "
		         "*(const volatile uint64_t *)p + v; }\n", cases[i].ctor);
		x86_so(cases[i].name, text, so, sizeof(so));
		snprintf(spec, sizeof(spec), "check '%s:reader' --abi raw "
		         "--scenario x86_reset --no-traces", so);
		run(spec);
		if (r.status != 2 || !strstr(r.out, "ERROR") ||
		    !strstr(r.out, "DT_INIT_ARRAY[1] (at 0x") ||
		    !strstr(r.out, "run at load time as ld.so would: ") ||
		    !strstr(r.out, cases[i].want))
			fail_msg("%s: exit %d, want '%s' in\n%s%s", spec, r.status,
			         cases[i].want, r.out, r.err);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ordinary_lib),
		cmocka_unit_test(test_load_time_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
