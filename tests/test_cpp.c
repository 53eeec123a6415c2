/*
 * test_cpp.c — a reader written in C++ (tests/readers/cpp_reader.cpp:
 * templates, constexpr, a lambda, extern "C" entries, built freestanding
 * without exceptions or RTTI) is checked as a C one is: g++ for x86_64,
 * clang++ --target=aarch64-linux-gnu and riscv64-linux-gnu with the
 * existing cross sysroots for the others (docs/check-your-reader.md).
 * The right build passes with the raw and the delta ABI; built without
 * its sign extension it is caught with that cause.
 */
#include "cli.h"

#define CXXFLAGS "-O2 -ffreestanding -fno-exceptions -fno-rtti"

/* check --json of one cell: its verdict must be `verdict` and the
 * output hold `detail`. */
static void expect(const char *spec, const char *abi, const char *scn,
                   const char *verdict, const char *detail)
{
	char args[1024], want[64];

	snprintf(args, sizeof(args), "check %s --abi %s --scenario %s "
	         "--no-traces --json", spec, abi, scn);
	run(args);
	snprintf(want, sizeof(want), "\"verdict\":\"%s\"", verdict);
	if (!strstr(r.out, want) || !strstr(r.out, detail))
		fail_msg("%s: expected %s with '%s': %d %.800s %s", args, verdict,
		         detail, r.status, r.out, r.err);
}

static void test_cpp_readers(void **state)
{
	static const struct {
		const char *arch, *cxx, *scn, *width;
	} t[] = {
		{ "x86_64", "g++", "x86_pinned", "48" },
		{ "arm64", "clang++ --target=aarch64-linux-gnu", "arm64_counters",
		  "32" },
		{ "riscv64", "clang++ --target=riscv64-linux-gnu", "riscv64",
		  NULL },
	};
	char obj[512], bad[512], spec[600], name[32];
	unsigned checked = 0;
	(void)state;
	for (size_t a = 0; a < sizeof(t) / sizeof(t[0]); a++) {
		snprintf(name, sizeof(name), "cpp-%s.o", t[a].arch);
		if (!arch_built(t[a].arch) ||
		    !compile_reader(t[a].cxx, CXXFLAGS, "cpp_reader.cpp", name, obj,
		                    sizeof(obj))) {
			assert_string_not_equal(t[a].arch, "x86_64");
			continue;
		}
		checked++;
		snprintf(spec, sizeof(spec), "%s:cpp_count", obj);
		expect(spec, "raw", t[a].scn, "PASS", "\"exhaustive\":true");
		snprintf(spec, sizeof(spec), "%s:cpp_start,cpp_delta", obj);
		expect(spec, "delta", t[a].scn, "PASS", "\"exhaustive\":true");
		if (!t[a].width) /* riscv64's 64-bit counters need no extension */
			continue;
		snprintf(name, sizeof(name), "cpp-bad-%s.o", t[a].arch);
		assert_true(compile_reader(t[a].cxx,
		                           CXXFLAGS " -DMYLIB_NO_SIGN_EXTENSION",
		                           "cpp_reader.cpp", name, bad, sizeof(bad)));
		snprintf(spec, sizeof(spec), "%s:cpp_count", bad);
		expect(spec, "raw", t[a].scn, "WRONG_VALUE",
		       "\"cause\":\"no_sign_extension\"");
	}
	assert_true(checked >= 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpp_readers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
