/*
 * test_merge.c — end-to-end tests of sharded sweeps: `selfmon merge` of
 * the shards of a sweep is the unsharded run (the same document, table,
 * TAP and JUnit report byte for byte, computed by running both, with
 * the same exit status; with an action filter and a kernel variant too);
 * missing, duplicated and foreign
 * shards and garbage are one line and exit 2; `check --shard auto` takes
 * I/N from Slurm's and Kubernetes' variables and says which it used; the
 * JSON reader is strict.
 */
#include "cli.h"
#include "json_read.h"

static const char *const batch_vars[] = {
	"SLURM_ARRAY_JOB_ID", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN",
	"SLURM_ARRAY_TASK_MAX", "SLURM_ARRAY_TASK_COUNT",
	"SLURM_ARRAY_TASK_STEP", "JOB_COMPLETION_INDEX",
};

/* None of the batch systems' variables (the tests may run in a job). */
static void clear_batch_env(void)
{
	for (size_t i = 0; i < sizeof(batch_vars) / sizeof(batch_vars[0]); i++)
		unsetenv(batch_vars[i]);
}

static char path_buf[8][512];

/* tmpdir()/NAME (one of a few rotating buffers). */
static const char *tmp(const char *name)
{
	static unsigned k;
	char *p = path_buf[k++ % 8];
	snprintf(p, sizeof(path_buf[0]), "%s/%s", tmpdir(), name);
	return p;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* `selfmon ARGS`'s stdout into tmpdir()/NAME; its exit status. */
static int run_to(const char *args, const char *name)
{
	run(args);
	write_file(tmp(name), r.out);
	return r.status;
}

/* s without its last line (check's and merge's summaries differ there:
 * the time taken, the shards merged). */
static void drop_last_line(char *s)
{
	size_t n = strlen(s);
	if (n && s[n - 1] == '\n')
		s[--n] = 0;
	char *nl = strrchr(s, '\n');
	*(nl ? nl + 1 : s) = 0;
}

static char whole[1 << 20], table[1 << 20], tap[1 << 20];
static char junit_check[1 << 20], junit_merge[1 << 20];

/* s with the value of every time="..." taken out: JUnit's times are the
 * cells' wall clock, which no shard document carries. */
static void drop_times(char *s)
{
	for (char *t = s; (t = strstr(t, "time=\"")) != NULL;) {
		t += strlen("time=\"");
		char *end = strchr(t, '"');
		assert_non_null(end);
		memmove(t, end, strlen(end) + 1);
	}
}

/* `check SWEEP --junit FILE` (or merge's, args naming FILE): the report,
 * times taken out, into buf; the exit status must be want. */
static void junit_of(const char *args, const char *file, char *buf,
                     size_t n, int want)
{
	run(args);
	if (r.status != want)
		fail_msg("'%s': exit %d, not %d: %s", args, r.status, want, r.err);
	slurp(file, buf, n);
	assert_non_null(strstr(buf, "<testcase "));
	drop_times(buf);
}

/* The shards 0/3, 1/3, 2/3 of `check SWEEP` merge to its document, its
 * table, its TAP and its JUnit report, with its exit status (want). */
static void shards_add_up(const char *sweep, int want)
{
	char args[4096], name[32], parts[2048];

	snprintf(args, sizeof(args), "check %s --json", sweep);
	assert_int_equal(run_to(args, "whole.json"), want);
	snprintf(whole, sizeof(whole), "%s", r.out);
	snprintf(args, sizeof(args), "check %s", sweep);
	run(args);
	assert_int_equal(r.status, want);
	snprintf(table, sizeof(table), "%s", r.out);
	drop_last_line(table);
	snprintf(args, sizeof(args), "check %s --tap", sweep);
	run(args);
	assert_int_equal(r.status, want);
	snprintf(tap, sizeof(tap), "%s", r.out);
	snprintf(args, sizeof(args), "check %s --junit '%s'", sweep,
	         tmp("check.xml"));
	junit_of(args, tmp("check.xml"), junit_check, sizeof(junit_check), want);
	for (int k = 0; k < 3; k++) {
		snprintf(args, sizeof(args), "check %s --json --shard %d/3", sweep, k);
		snprintf(name, sizeof(name), "part%d.json", k);
		run_to(args, name);
		assert_non_null(strstr(r.out, "\"cells_total\":"));
	}
	/* in any order */
	snprintf(args, sizeof(args), "merge --json '%s' '%s' '%s'",
	         tmp("part2.json"), tmp("part0.json"), tmp("part1.json"));
	run(args);
	if (r.status != want)
		fail_msg("merge: exit %d, not %d: %s", r.status, want, r.err);
	assert_string_equal(r.out, whole);
	snprintf(parts, sizeof(parts), "'%s' '%s' '%s'", tmp("part0.json"),
	         tmp("part1.json"), tmp("part2.json"));
	snprintf(args, sizeof(args), "merge %s", parts);
	run(args);
	assert_int_equal(r.status, want);
	assert_non_null(strstr(r.out, "3 shards merged"));
	drop_last_line(r.out);
	assert_string_equal(r.out, table);
	snprintf(args, sizeof(args), "merge --tap %s", parts);
	run(args);
	assert_int_equal(r.status, want);
	assert_string_equal(r.out, tap);
	snprintf(args, sizeof(args), "merge --junit '%s' %s", tmp("merge.xml"),
	         parts);
	junit_of(args, tmp("merge.xml"), junit_merge, sizeof(junit_merge), want);
	assert_string_equal(junit_merge, junit_check);
	/* one document of the whole sweep merges to itself */
	snprintf(args, sizeof(args), "merge --json '%s'", tmp("whole.json"));
	run(args);
	assert_int_equal(r.status, want);
	assert_string_equal(r.out, whole);
}

static void test_shards_add_up(void **state)
{
	(void)state;
	shards_add_up("--no-traces --scenario x86_reset --scenario x86_remote", 0);
	/* the cells' result fields are merged back whole (the documents are
	 * equal byte for byte, these objects included) */
	assert_non_null(strstr(whole, "\"wrong\":[{\"field\":\"count\","));
	assert_non_null(strstr(whole, "\"cause\":\"reset_quirk\""));
	/* with an action filter (its lines head the table) */
	shards_add_up("--no-traces --scenario x86_reset --scenario x86_pinned "
	              "--without reset --drop-scripted", 0);
}

/* A failing user reader: exit 1, counterexamples and traces survive. */
static void test_failing_sweep(void **state)
{
	char cmd[2048], sweep[2048];
	(void)state;
	const char *obj = tmp("no_sext.o");
	snprintf(cmd, sizeof(cmd), "cc -O2 -c -I'%s/model' -I'%s/reader' "
	         "'%s/reader/variants/no_sext.c' -o '%s' 2>/dev/null",
	         SELFMON_SRC, SELFMON_SRC, SELFMON_SRC, obj);
	if (system(cmd) != 0)
		skip();
	snprintf(sweep, sizeof(sweep), "'%s:selfmon_v_no_sext' --abi values "
	         "--scenario x86_pinned --scenario x86_reset --traces '%s'", obj,
	         tmp("cex"));
	shards_add_up(sweep, 1);
	assert_non_null(strstr(whole, "\"minimised\":\""));
	assert_non_null(strstr(table, "<-- UNEXPECTED"));
}

/* --actions and --drop-scripted: the filter's lines head every arch's
 * table, in merge's as in check's (they were never run before). */
static void test_merge_filters(void **state)
{
	(void)state;
	shards_add_up("--no-traces --scenario x86_reset --scenario x86_overflow "
	              "--scenario x86_pinned --actions overflow,reset,rotate_out "
	              "--drop-scripted", 0);
	assert_non_null(strstr(table, "kernel actions injected: "));
	assert_non_null(strstr(table, "(--drop-scripted)\n"));
	assert_non_null(strstr(whole, "\"filter\":{\"actions\":"));
	/* --actions with --without, and the scripted lines kept */
	shards_add_up("--no-traces --scenario x86_reset --scenario x86_overflow "
	              "--actions overflow,reset,rotate_out --without reset", 0);
	assert_non_null(strstr(table, "never injected: reset (--without)"));
	assert_non_null(strstr(table, "scripted 'at' lines still run"));
}

/* A kernel variant: merge's headers name it as check's do. */
static void test_merge_kernel(void **state)
{
	(void)state;
	if (!arch_built("x86_64"))
		skip();
	shards_add_up("--no-traces --scenario x86_reset --scenario x86_overflow "
	              "--kernel reset_prev_count", 0);
	assert_non_null(strstr(table, ", kernel reset_prev_count\n"));
}

#define SWEEP "--no-traces --scenario x86_reset --json"

/* Shards of a sweep in tmpdir: s0..s2 of 3, b1 another bound, x another
 * scenario, n4 another split. */
static void make_parts(void)
{
	static bool made;
	if (made)
		return;
	for (int k = 0; k < 3; k++) {
		char args[256], name[16];
		snprintf(args, sizeof(args), "check " SWEEP " --shard %d/3", k);
		snprintf(name, sizeof(name), "s%d.json", k);
		assert_int_equal(run_to(args, name), 0);
	}
	assert_int_equal(run_to("check " SWEEP " --shard 1/3 --bound 1",
	                        "b1.json"), 0);
	assert_int_equal(run_to("check --no-traces --scenario x86_remote --json "
	                        "--shard 1/3", "x.json"), 0);
	assert_int_equal(run_to("check " SWEEP " --shard 1/4", "n4.json"), 0);
	made = true;
}

static void refused(const char *files, const char *msg)
{
	char args[2048];
	snprintf(args, sizeof(args), "merge %s", files);
	expect_usage_error(args, msg);
	snprintf(args, sizeof(args), "merge --json %s", files);
	expect_usage_error(args, msg);
}

static void test_refused(void **state)
{
	char files[4096], s0[512], s1[512], s2[512];
	(void)state;
	make_parts();
	snprintf(s0, sizeof(s0), "%s", tmp("s0.json"));
	snprintf(s1, sizeof(s1), "%s", tmp("s1.json"));
	snprintf(s2, sizeof(s2), "%s", tmp("s2.json"));
	snprintf(files, sizeof(files), "'%s' '%s'", s0, s2);
	refused(files, "shard 1/3 is missing");
	snprintf(files, sizeof(files), "'%s' '%s' '%s' '%s'", s0, s1, s2, s1);
	refused(files, "shard 1/3 given twice");
	snprintf(files, sizeof(files), "'%s' '%s' '%s'", s0, tmp("b1.json"), s2);
	refused(files, "bound 1, but");
	snprintf(files, sizeof(files), "'%s' '%s' '%s'", s0, tmp("x.json"), s2);
	refused(files, "another sweep than");
	snprintf(files, sizeof(files), "'%s' '%s'", s0, tmp("n4.json"));
	refused(files, "shard 1/4, but");
	/* another selfmon version */
	char cmd[2048];
	snprintf(cmd, sizeof(cmd), "sed 's/\"version\":\"[^\"]*\"/\"version\":"
	         "\"0.0.1\"/' '%s' > '%s'", s1, tmp("v.json"));
	assert_int_equal(system(cmd), 0);
	snprintf(files, sizeof(files), "'%s' '%s' '%s'", s0, tmp("v.json"), s2);
	refused(files, "made by selfmon 0.0.1");
	/* a shard that is no I/N (and "auto" must not read the environment) */
	snprintf(cmd, sizeof(cmd), "sed 's|\"shard\":\"1/3\"|\"shard\":\"auto\"|' "
	         "'%s' > '%s'", s1, tmp("auto.json"));
	assert_int_equal(system(cmd), 0);
	snprintf(files, sizeof(files), "'%s' '%s' '%s'", s0, tmp("auto.json"), s2);
	refused(files, "bad \"shard\" 'auto'");
	/* a shard that lost a cell (its first, up to the next cell: a cell
	 * holds objects of its own, "wrong" and "fault") */
	snprintf(cmd, sizeof(cmd), "sed 's/},{\"arch\":/\\n{\"arch\":/; "
	         "s/\"cells\":\\[[^\\n]*\\n/\"cells\":[/' '%s' > '%s'", s1,
	         tmp("cut.json"));
	assert_int_equal(system(cmd), 0);
	snprintf(files, sizeof(files), "'%s' '%s' '%s'", s0, tmp("cut.json"), s2);
	refused(files, "but shard 1/3 of");
	/* garbage, nothing, not ours, no file */
	write_file(tmp("garbage.json"), "{\"engine\": [1, 2,}\n");
	snprintf(files, sizeof(files), "'%s'", tmp("garbage.json"));
	refused(files, "garbage.json: line 1, column 18: expected a value");
	write_file(tmp("empty.json"), "");
	snprintf(files, sizeof(files), "'%s'", tmp("empty.json"));
	refused(files, "empty.json: line 1, column 1");
	write_file(tmp("other.json"), "{\"engine\":\"unicorn\"}");
	snprintf(files, sizeof(files), "'%s'", tmp("other.json"));
	refused(files, "no string \"version\"");
	snprintf(files, sizeof(files), "'%s'", tmp("nosuch.json"));
	refused(files, "nosuch.json");
	refused("", "no shard given");
	refused("--bound 2", "unknown option '--bound'");
}

/* merge's outputs: one on standard output, a JUnit file it can write. */
static void test_merge_outputs(void **state)
{
	char args[2048];
	(void)state;
	make_parts();
	snprintf(args, sizeof(args), "merge --tap --json '%s' '%s' '%s'",
	         tmp("s0.json"), tmp("s1.json"), tmp("s2.json"));
	expect_usage_error(args, "--tap and --json both want standard output");
	snprintf(args, sizeof(args), "merge --junit '%s' '%s' '%s' '%s'",
	         tmp("no/such/dir/m.xml"), tmp("s0.json"), tmp("s1.json"),
	         tmp("s2.json"));
	expect_usage_error(args, "merge: cannot write ");
	expect_usage_error("merge --junit", "--junit needs a file");
}

/* Shard 1 with its first match of sed expression `expr` rewritten, as
 * name, merged with shards 0 and 2: refused with msg. */
static void lie(const char *expr, const char *name, const char *msg)
{
	char cmd[2048], files[2048];
	snprintf(cmd, sizeof(cmd), "sed '%s' '%s' > '%s'", expr, tmp("s1.json"),
	         tmp(name));
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "cmp -s '%s' '%s'", tmp("s1.json"), tmp(name));
	assert_int_not_equal(system(cmd), 0); /* the lie is in the file */
	snprintf(files, sizeof(files), "'%s' '%s' '%s'", tmp("s0.json"),
	         tmp(name), tmp("s2.json"));
	refused(files, msg);
}

/* merge believes nothing it can derive: a cell whose outcome, as_expected
 * or exhaustive do not follow from its verdict (a WRONG_VALUE "as
 * expected" used to print "(as expected)" and exit 0), shards of another
 * version that agree with each other, unknown arches, names that would
 * forge a line, and more bytes than the cap across all shards. */
static void test_lying_shards(void **state)
{
	char cmd[4096], files[2048];
	(void)state;
	make_parts();
	lie("s/\"expected\":\"WRONG_VALUE\"/\"expected\":\"PASS\"/",
	    "lie1.json", "do not follow from verdict WRONG_VALUE, expected PASS");
	lie("s/\"exhaustive\":true/\"exhaustive\":false/", "lie2.json",
	    "\"exhaustive\" false do not follow");
	lie("s/\"outcome\":\"as_expected\"/\"outcome\":\"unexpected\"/",
	    "lie3.json", "\"outcome\" unexpected");
	lie("s/\"arch\":\"x86_64\"/\"arch\":\"ppc64\"/", "lie4.json",
	    "unknown arch 'ppc64'");
	lie("s/\"reader\":\"rfc2011_test\"/\"reader\":\"r\\\\n::warning::x\"/",
	    "lie5.json", "\"reader\": control character U+000A");
	lie("s/\"scenario\":\"x86_reset\"/\"scenario\":\"x\\\\ufffe\"/",
	    "lie6.json", "\"scenario\": non-character U+FFFE");
	/* the result's fields are read by type, names against the enums */
	lie("s/\"cause\":\"reset_quirk\"/\"cause\":\"bad_luck\"/", "lie7.json",
	    "a bad \"wrong\" offset");
	lie("s/\"field\":\"count\"/\"field\":\"cnt\"/", "lie8.json",
	    "a \"wrong\" value with no known \"field\"");
	lie("s/\"truth_lo\":\\([0-9]*\\)/\"truth_lo\":\"\\1\"/", "lie9.json",
	    "a bad \"wrong\" count");
	/* every shard of another version, agreeing with each other */
	for (int k = 0; k < 3; k++) {
		snprintf(cmd, sizeof(cmd), "sed 's/\"version\":\"[^\"]*\"/"
		         "\"version\":\"9.9.9\"/' '%s' > '%s'",
		         tmp(k == 0 ? "s0.json" : k == 1 ? "s1.json" : "s2.json"),
		         tmp(k == 0 ? "w0.json" : k == 1 ? "w1.json" : "w2.json"));
		assert_int_equal(system(cmd), 0);
	}
	snprintf(files, sizeof(files), "'%s' '%s' '%s'", tmp("w0.json"),
	         tmp("w1.json"), tmp("w2.json"));
	refused(files, "made by selfmon 9.9.9, not by this selfmon");
	/* 10 MiB of blanks after a shard: valid JSON, but two are over the cap
	 * for all shards together */
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s' && head -c 10485760 /dev/zero | "
	         "tr '\\0' ' ' >> '%s'", tmp("s1.json"), tmp("pad.json"),
	         tmp("pad.json"));
	assert_int_equal(system(cmd), 0);
	snprintf(files, sizeof(files), "'%s' '%s'", tmp("pad.json"),
	         tmp("pad.json"));
	refused(files, "the shards together are over merge's cap of 16 MiB");
}

/* `check --shard auto[/N]` with the variables set: the shard named on
 * stderr, the document the same as --shard I/N's. */
static void auto_shard(const char *value, const char *want, const char *from)
{
	char args[256], explicit[1 << 16];
	snprintf(args, sizeof(args), "check " SWEEP " --shard %s", value);
	run(args);
	if (r.status != 0)
		fail_msg("--shard %s: exit %d: %s", value, r.status, r.err);
	assert_int_equal(count_lines(r.err), 1);
	if (!strstr(r.err, from))
		fail_msg("--shard %s: stderr '%s' lacks '%s'", value, r.err, from);
	assert_true(strlen(r.out) < sizeof(explicit));
	snprintf(explicit, sizeof(explicit), "%s", r.out);
	clear_batch_env();
	snprintf(args, sizeof(args), "check " SWEEP " --shard %s", want);
	run(args);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	assert_string_equal(explicit, r.out);
}

static void test_shard_auto(void **state)
{
	(void)state;
	clear_batch_env();
	/* Slurm: --array=3-6, task 5 */
	setenv("SLURM_ARRAY_JOB_ID", "41", 1);
	setenv("SLURM_ARRAY_TASK_ID", "5", 1);
	setenv("SLURM_ARRAY_TASK_MIN", "3", 1);
	setenv("SLURM_ARRAY_TASK_MAX", "6", 1);
	setenv("SLURM_ARRAY_TASK_COUNT", "4", 1);
	setenv("SLURM_ARRAY_TASK_STEP", "1", 1);
	auto_shard("auto", "2/4", "shard 2/4 from the Slurm array job 41");
	/* Kubernetes: an Indexed Job of 3 completions, pod 1 */
	setenv("JOB_COMPLETION_INDEX", "1", 1);
	auto_shard("auto/3", "1/3", "shard 1/3 from the Kubernetes Indexed Job");
	/* refused: Kubernetes gives no count; out of range; nothing set; a
	 * Slurm array with a step; a malformed or missing variable */
	setenv("JOB_COMPLETION_INDEX", "1", 1);
	expect_usage_error("check " SWEEP " --shard auto", "use --shard auto/N");
	setenv("JOB_COMPLETION_INDEX", "3", 1);
	expect_usage_error("check " SWEEP " --shard auto/3", "not below 3");
	clear_batch_env();
	expect_usage_error("check " SWEEP " --shard auto", "neither a Slurm");
	setenv("SLURM_ARRAY_TASK_ID", "4", 1);
	setenv("SLURM_ARRAY_TASK_MIN", "0", 1);
	setenv("SLURM_ARRAY_TASK_MAX", "6", 1);
	setenv("SLURM_ARRAY_TASK_COUNT", "4", 1);
	setenv("SLURM_ARRAY_TASK_STEP", "2", 1);
	expect_usage_error("check " SWEEP " --shard auto", "not consecutive");
	setenv("SLURM_ARRAY_TASK_STEP", "1", 1);
	setenv("SLURM_ARRAY_TASK_MAX", "3", 1);
	setenv("SLURM_ARRAY_TASK_ID", "2", 1);
	expect_usage_error("check " SWEEP " --shard auto/5", "has 4 tasks");
	setenv("SLURM_ARRAY_TASK_ID", "x4", 1);
	expect_usage_error("check " SWEEP " --shard auto", "is not a number");
	unsetenv("SLURM_ARRAY_TASK_ID");
	setenv("SLURM_ARRAY_TASK_ID", "2", 1);
	unsetenv("SLURM_ARRAY_TASK_COUNT");
	expect_usage_error("check " SWEEP " --shard auto",
	                   "SLURM_ARRAY_TASK_COUNT is not");
	/* too many tasks: said with the count, not the task id */
	setenv("SLURM_ARRAY_TASK_MIN", "0", 1);
	setenv("SLURM_ARRAY_TASK_MAX", "199999", 1);
	setenv("SLURM_ARRAY_TASK_COUNT", "200000", 1);
	expect_usage_error("check " SWEEP " --shard auto",
	                   "the Slurm array has 200000 tasks "
	                   "(SLURM_ARRAY_TASK_COUNT), more than the 100000");
	clear_batch_env();
	expect_usage_error("check --shard auto/0", "--shard needs I/N");
	/* a shard with no cell of a sweep that has some is empty, not bad */
	run("check " SWEEP " --shard 40/50");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\"cells\":[]"));
}

/* The reader takes what JSON is and refuses the rest, one line. */
static void test_json_reader(void **state)
{
	static const struct { const char *text, *err; } bad[] = {
		{ "", "line 1, column 1: expected a value" },
		{ "[1,]", "column 4: expected a value" },
		{ "{\"a\":1,\"a\":2}", "the key \"a\" twice" },
		{ "\"\xc3\x28\"", "not UTF-8" },
		{ "\"\xed\xa0\x80\"", "not UTF-8" },          /* a surrogate */
		{ "\"\xc0\xaf\"", "not UTF-8" },              /* overlong */
		{ "\"\\ud800\"", "without its low half" },
		{ "\"\\udc00\"", "lone low surrogate" },
		{ "\"\\u0000\"", "\\u0000" },
		{ "\"a\tb\"", "control byte 0x09" },
		{ "\"abc", "not closed" },
		{ "01", "after the document" },
		{ "1.", "no digit after '.'" },
		{ "-", "a bad number" },
		{ "1e", "exponent" },
		{ "tru", "expected a value" },
		{ "{\"a\" 1}", "expected ':'" },
		{ "{1:2}", "expected a key" },
		{ "[1 2]", "expected ',' or ']'" },
		{ "{} {}", "after the document" },
		{ "\n\n  ]", "line 3, column 3" },
	};
	char err[256], deep[200];
	struct jr_value v;
	(void)state;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (jr_parse(bad[i].text, strlen(bad[i].text), &v, err,
		             sizeof(err)) == 0)
			fail_msg("'%s' parsed", bad[i].text);
		if (!strstr(err, bad[i].err))
			fail_msg("'%s': '%s' lacks '%s'", bad[i].text, err, bad[i].err);
		assert_null(strchr(err, '\n'));
	}
	memset(deep, '[', sizeof(deep));
	assert_int_equal(jr_parse(deep, sizeof(deep), &v, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "nested more than 64"));
	const char *good = " {\"s\":\"a\\\"\\u00e9\\ud83d\\ude00\\n\",\"n\":"
	                   "18446744073709551615,\"f\":-1.5e+3,\"b\":[true,false,"
	                   "null],\"e\":{}} ";
	assert_int_equal(jr_parse(good, strlen(good), &v, err, sizeof(err)), 0);
	assert_string_equal(jr_str(jr_get(&v, "s")),
	                    "a\"\xc3\xa9\xf0\x9f\x98\x80\n");
	uint64_t u;
	assert_true(jr_u64(jr_get(&v, "n"), &u));
	assert_true(u == UINT64_MAX);
	assert_false(jr_u64(jr_get(&v, "f"), &u));
	assert_string_equal(jr_get(&v, "f")->text, "-1.5e+3");
	assert_int_equal(jr_get(&v, "b")->n, 3);
	assert_int_equal(jr_get(&v, "e")->type, JR_OBJECT);
	assert_null(jr_get(&v, "missing"));
	jr_free(&v);
	/* a NUL inside the text is no JSON either */
	assert_int_equal(jr_parse("[1]\0", 4, &v, err, sizeof(err)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_reader),
		cmocka_unit_test(test_shards_add_up),
		cmocka_unit_test(test_failing_sweep),
		cmocka_unit_test(test_merge_filters),
		cmocka_unit_test(test_merge_kernel),
		cmocka_unit_test(test_merge_outputs),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_lying_shards),
		cmocka_unit_test(test_shard_auto),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
