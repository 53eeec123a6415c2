/*
 * test_lifecycle.c — readers with a lifecycle, end to end: the delta and
 * reset ABIs (two calls on one ctx, both explored, judged by the truth's
 * change between them) pass the right readers of tests/readers/
 * lifecycle_reader.c and catch the VPP-style and PAPI-style ones, on
 * x86_64, arm64 and riscv64; PATH:FIRST,READ is checked; a counterexample
 * replays with the action before the read in the first call.
 */
#include <inttypes.h>

#include "cli.h"

/* check --json of one cell: the verdict into v, exit status in r. */
static void cell(const char *obj, const char *fns, const char *abi,
                 const char *scn, const char *extra, char *v, size_t vn)
{
	char args[2048];

	snprintf(args, sizeof(args), "check %s:%s --abi %s --scenario %s "
	         "--no-traces --json %s", obj, fns, abi, scn, extra);
	run(args);
	const char *p = strstr(r.out, "\"verdict\":\"");
	if (!p)
		fail_msg("%s: %d %s %s", args, r.status, r.out, r.err);
	snprintf(v, vn, "%.*s", (int)strcspn(p + 11, "\""), p + 11);
}

static void expect(const char *obj, const char *fns, const char *abi,
                   const char *scn, const char *extra, const char *verdict,
                   const char *detail)
{
	char v[32];

	cell(obj, fns, abi, scn, extra, v, sizeof(v));
	if (strcmp(v, verdict) || !strstr(r.out, detail))
		fail_msg("%s in %s: %s, expected %s with '%s': %.900s", fns, scn,
		         v, verdict, detail, r.out);
	assert_int_equal(r.status, strcmp(verdict, "PASS") ? 1 : 0);
}

/* The first wrong value of the last check --json, as s64. */
static int64_t wrong_value(void)
{
	const char *p = strstr(r.out, "\"wrong\":[{");
	assert_non_null(p);
	p = strstr(p, "\"value\":");
	assert_non_null(p);
	return (int64_t)strtoull(p + 8, NULL, 10);
}

/* The minimised counterexample line of the last check --json. */
static void cex_line(char *line, size_t n)
{
	const char *p = strstr(r.out, "\"minimised\":\"");
	assert_non_null(p);
	snprintf(line, n, "%.*s", (int)strcspn(p + 13, "\""), p + 13);
}

/* Replays line with --explain: the step the read is called at. */
static unsigned long read_step(const char *line)
{
	char args[1024];

	snprintf(args, sizeof(args), "replay '%s' --explain", line);
	run(args);
	assert_int_equal(r.status, 1);
	const char *p = strstr(r.out, "the read is called at step ");
	assert_non_null(p);
	return strtoul(p + 27, NULL, 10);
}

/* The step of action `act` in a schedule line. */
static unsigned long step_of(const char *line, const char *act)
{
	char key[32];
	snprintf(key, sizeof(key), "%s@", act);
	const char *p = strstr(line, key);
	assert_non_null(p);
	return strtoul(p + strlen(key), NULL, 10);
}

/* The PAPI-style reset reader's signature: a reset taken while the event
 * was off its counter, the read on it: a count near -2^(width-1) (the
 * counter's reload value, sign-extended), the rotate_out in the reset
 * call and the rotate_in in the read. */
static void papi_signature(const char *obj, const char *scn, unsigned width)
{
	char line[1024];
	int64_t near = -((int64_t)1 << (width - 1));

	expect(obj, "papi_reset,papi_read", "reset", scn,
	       "--actions rotate_out,rotate_in", "WRONG_VALUE",
	       "is not the truth's change from an instant of the first call");
	int64_t v = wrong_value();
	if (v < near || v > near + (1 << 20))
		fail_msg("papi in %s: %" PRId64 ", not near -2^%u", scn, v,
		         width - 1);
	cex_line(line, sizeof(line));
	unsigned long k = read_step(line);
	assert_true(step_of(line, "rotate_out") < k);
	assert_true(step_of(line, "rotate_in") >= k);
}

static bool compiled(const char *arch, const char *cc, const char *obj,
                     char *path, size_t n)
{
	if (arch_built(arch) &&
	    compile_reader(cc, "-O2", "lifecycle_reader.c", obj, path, n))
		return true;
	assert_string_not_equal(arch, "x86_64");
	return false;
}

static void test_x86_64(void **state)
{
	char obj[512], line[1024];
	(void)state;
	assert_true(compiled("x86_64", "gcc", "lx.o", obj, sizeof(obj)));
	expect(obj, "delta_start,delta_read", "delta", "x86_pinned", "", "PASS",
	       "\"exhaustive\":true");
	expect(obj, "delta_start,delta_read", "delta", "x86_multiplex", "",
	       "PASS", "\"exhaustive\":true");
	expect(obj, "since_reset,since_read", "reset", "x86_pinned", "", "PASS",
	       "\"exhaustive\":true");
	expect(obj, "since_reset,since_read", "reset", "x86_reset", "", "PASS",
	       "\"exhaustive\":true");
	/* VPP: the raw counter across an overflow's reload */
	expect(obj, "vpp_start,vpp_read", "delta", "x86_pinned", "",
	       "WRONG_VALUE", "is not the truth's change");
	cex_line(line, sizeof(line));
	assert_non_null(strstr(line, "#vpp_start,vpp_read#delta:x86_pinned:"
	                       "overflow@"));
	/* ... and the same line replays to the same verdict */
	assert_true(step_of(line, "overflow") >= read_step(line));
	assert_non_null(strstr(r.out, "WRONG_VALUE after"));
	papi_signature(obj, "x86_pinned", 48);
}

static void test_arm64(void **state)
{
	char obj[512];
	(void)state;
	if (!compiled("arm64", "aarch64-linux-gnu-gcc", "la.o", obj, sizeof(obj)))
		skip();
	expect(obj, "delta_start,delta_read", "delta", "arm64_counters", "",
	       "PASS", "\"exhaustive\":true");
	expect(obj, "since_reset,since_read", "reset", "arm64_counters", "",
	       "PASS", "\"exhaustive\":true");
	/* VPP: the scenario's own rotation moves the event to counter 3 */
	expect(obj, "vpp_start,vpp_read", "delta", "arm64_counters", "",
	       "WRONG_VALUE", "#vpp_start,vpp_read#delta:arm64_counters:-\"");
	papi_signature(obj, "arm64_counters", 32);
}

static void test_riscv64(void **state)
{
	char obj[512];
	(void)state;
	if (!compiled("riscv64", "riscv64-linux-gnu-gcc", "lr.o", obj,
	              sizeof(obj)))
		skip();
	expect(obj, "delta_start,delta_read", "delta", "riscv64", "", "PASS",
	       "\"exhaustive\":true");
	expect(obj, "since_reset,since_read", "reset", "riscv64", "", "PASS",
	       "\"exhaustive\":true");
	/* both miss an IOC_RESET between the calls (the page's offset moves,
	 * the counter does not) */
	expect(obj, "vpp_start,vpp_read", "delta", "riscv64", "", "WRONG_VALUE",
	       ":reset@");
	expect(obj, "papi_reset,papi_read", "reset", "riscv64", "",
	       "WRONG_VALUE", ":reset@");
}

/* PATH:FIRST,READ: two functions for the two-call ABIs, one otherwise. */
static void test_spec(void **state)
{
	char obj[512], args[1024];
	(void)state;
	assert_true(compiled("x86_64", "gcc", "lx.o", obj, sizeof(obj)));
	snprintf(args, sizeof(args), "check %s:delta_read --abi delta", obj);
	expect_usage_error(args, "the delta ABI calls two functions: "
	                   "PATH:START,READ");
	snprintf(args, sizeof(args), "check %s:papi_reset, --abi reset", obj);
	expect_usage_error(args, "the reset ABI calls two functions");
	snprintf(args, sizeof(args), "check %s:vpp_start,vpp_read --abi raw",
	         obj);
	expect_usage_error(args, "two functions (',') are for the delta and "
	                   "reset ABIs");
	snprintf(args, sizeof(args), "check %s:vpp_start,nothing --abi delta",
	         obj);
	expect_usage_error(args, "symbol 'nothing' not found");
	expect_usage_error("check reference --abi delta",
	                   "--abi applies to PATH:SYMBOL readers only");
	/* the guest calls a reader once: vm says so */
	snprintf(args, sizeof(args), "vm arm64 %s:delta_start,delta_read "
	         "--abi delta", obj);
	expect_usage_error(args, "vm: the delta ABI (two calls) is checked by "
	                   "'selfmon check' only");
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spec),
		cmocka_unit_test(test_x86_64),
		cmocka_unit_test(test_arm64),
		cmocka_unit_test(test_riscv64),
	};
	(void)argc;
	(void)argv;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
