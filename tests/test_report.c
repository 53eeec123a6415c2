/*
 * test_report.c — `check --junit FILE` and `check --tap`: the reports CI
 * systems read.  JUnit must validate against tests/schemas/junit.xsd
 * (xmllint --schema), TAP must pass a strict line grammar (below) and,
 * where perl's `prove` is installed, parse there without errors.  Both
 * say every kind of cell as it should be (PASS; a failure with its
 * counterexample and replay command; INCOMPLETE and UNSUPPORTED skipped;
 * selfmon's ERROR an error), escape what users named, and leave the exit
 * status as documented; a JUnit file that cannot be written is one error
 * line, exit 2, and no partial file.
 */
#include <ctype.h>
#include <sys/stat.h>

#include "cli.h"
#include "report.h"

static void put(const char *name, const char *text, char *path, size_t n)
{
	snprintf(path, n, "%s/%s", tmpdir(), name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void read_file(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	size_t k = fread(buf, 1, n - 1, f);
	buf[k] = 0;
	fclose(f);
}

/* xmllint --schema: the file validates against the JUnit schema. */
static void expect_junit_valid(const char *path)
{
	char cmd[2048];
	snprintf(cmd, sizeof(cmd), "xmllint --noout --schema "
	         "'%s/tests/schemas/junit.xsd' '%s' 2>&1", SELFMON_SRC, path);
	FILE *p = popen(cmd, "r");
	char out[4096] = "";
	size_t k = fread(out, 1, sizeof(out) - 1, p);
	out[k] = 0;
	if (pclose(p) != 0)
		fail_msg("%s does not validate: %s", path, out);
}

/* A YAML value as the writer makes them: a number, a bare word, or a
 * double-quoted string with \" \\ \xNN escapes. */
static bool yaml_value(const char *v)
{
	if (*v == '"') {
		for (v++; *v && *v != '"'; v++)
			if (*v == '\\' && !(v[1] == '"' || v[1] == '\\' ||
			                    (v[1] == 'x' && isxdigit(v[2]) &&
			                     isxdigit(v[3]))))
				return false;
			else if (*v == '\\')
				v += v[1] == 'x' ? 3 : 1;
			else if ((unsigned char)*v < 0x20)
				return false;
		return *v == '"' && v[1] == 0;
	}
	if (!*v)
		return false;
	for (; *v; v++)
		if (!isalnum((unsigned char)*v) && *v != '_')
			return false;
	return true;
}

/* "ok N - DESC" or "not ok N - DESC[ # SKIP REASON]": N, or 0 if not. */
static unsigned test_line(const char *l, bool *skip)
{
	bool ok = !strncmp(l, "ok ", 3);

	*skip = false;
	const char *p = ok ? l + 3 : !strncmp(l, "not ok ", 7) ? l + 7 : NULL;
	char *end;
	if (!p || !isdigit((unsigned char)*p))
		return 0;
	unsigned long n = strtoul(p, &end, 10);
	if (strncmp(end, " - ", 3) || !end[3])
		return 0;
	for (const char *d = end + 3; *d; d++) {
		if (*d == '\\' && (d[1] == '#' || d[1] == '\\'))
			d++;
		else if (*d == '#') /* the one directive: " # SKIP reason" */
			return ok && d[-1] == ' ' && !strncmp(d, "# SKIP ", 7) &&
			       (*skip = true) ? (unsigned)n : 0;
	}
	return (unsigned)n;
}

/* A strict reading of TAP version 13 as check writes it: the version,
 * the plan, the test lines numbered from 1, a YAML block ("  ---" ...
 * "  ...") of "  key: value" lines only after a test line; returns the
 * number of tests, of "not ok" and of skips through *bad, *skips. */
static unsigned tap_valid(const char *doc, unsigned *bad, unsigned *skips)
{
	char *copy = strdup(doc), *save, *l;
	unsigned plan = 0, n = 0;
	bool in_yaml = false, after_test = false;
	*bad = *skips = 0;
	assert_non_null(copy);
	l = strtok_r(copy, "\n", &save);
	if (!l || strcmp(l, "TAP version 13"))
		fail_msg("no 'TAP version 13' line: %.200s", doc);
	l = strtok_r(NULL, "\n", &save);
	if (!l || sscanf(l, "1..%u", &plan) != 1)
		fail_msg("no plan line: %s", l ? l : "(end)");
	while ((l = strtok_r(NULL, "\n", &save))) {
		bool skip = false;
		if (in_yaml) {
			if (!strcmp(l, "  ...")) {
				in_yaml = after_test = false;
				continue;
			}
			/* "  key: value", or "  key:" opening a nested list or
			 * map whose lines are deeper: "    - key: value",
			 * "      key: value", "    key: value" */
			const char *colon = strstr(l, ": ");
			size_t ind = strspn(l, " ");
			bool opens = ind == 2 && l[strlen(l) - 1] == ':' &&
			             !strchr(l, '"') && !colon;
			const char *key = l + ind + (l[ind] == '-' && l[ind + 1] == ' '
			                             ? 2 : 0);
			if (opens)
				continue;
			if (ind < 2 || ind % 2 || !colon || !yaml_value(colon + 2) ||
			    !(*key >= 'a' && *key <= 'z'))
				fail_msg("bad YAML line: %s", l);
			continue;
		}
		if (!strcmp(l, "  ---") && after_test) {
			in_yaml = true;
			continue;
		}
		if (test_line(l, &skip) != n + 1)
			fail_msg("bad test line %u: %s", n + 1, l);
		n++;
		*bad += !strncmp(l, "not ok", 6);
		*skips += skip;
		after_test = true;
	}
	if (in_yaml || n != plan)
		fail_msg("%u tests for a plan of %u%s", n, plan,
		         in_yaml ? ", YAML block not closed" : "");
	free(copy);
	return n;
}

/* `prove` (perl's TAP harness) reads the document without a parse error;
 * skipped where perl's prove is not installed. */
static void expect_prove_parses(const char *doc, bool all_ok)
{
	char path[512], cmd[1024], out[8192] = "";
	if (system("command -v prove >/dev/null 2>&1") != 0) {
		print_message("prove not installed: TAP checked by grammar only\n");
		return;
	}
	put("report.tap", doc, path, sizeof(path));
	snprintf(cmd, sizeof(cmd), "prove -e cat '%s' 2>&1", path);
	FILE *p = popen(cmd, "r");
	size_t k = fread(out, 1, sizeof(out) - 1, p);
	out[k] = 0;
	int st = pclose(p);
	if (strstr(out, "Parse errors") || (all_ok && st != 0) ||
	    (!all_ok && st == 0))
		fail_msg("prove: exit %d\n%s", st, out);
}

/* A passing sweep: every case a pass, exit 0, both reports clean. */
static void test_pass(void **state)
{
	char xml[512], args[1024], doc[1 << 16];
	unsigned bad, skips;
	(void)state;
	snprintf(xml, sizeof(xml), "%s/pass.xml", tmpdir());
	snprintf(args, sizeof(args), "check reference no_sext --scenario "
	         "x86_pinned --scenario x86_reset --bound 1 -j 2 --no-traces "
	         "--junit %s", xml);
	run(args);
	assert_int_equal(r.status, 0);
	expect_junit_valid(xml);
	read_file(xml, doc, sizeof(doc));
	assert_non_null(strstr(doc, "<testsuites name=\"selfmon check\" "
	                            "tests=\"4\" failures=\"0\" errors=\"0\" "
	                            "skipped=\"0\""));
	assert_non_null(strstr(doc, "classname=\"selfmon.no_sext.x86_64\" "
	                            "name=\"x86_reset\""));
	run("check reference no_sext --scenario x86_pinned --scenario x86_reset "
	    "--bound 1 -j 2 --no-traces --tap");
	assert_int_equal(r.status, 0);
	assert_int_equal(tap_valid(r.out, &bad, &skips), 4);
	assert_int_equal(bad, 0);
	expect_prove_parses(r.out, true);
}

/* A user's reader that fails: a <failure> and a "not ok" with the
 * counterexample and the command that replays it; exit 1.  Its path has
 * characters XML must escape ('#', which TAP must, is no part of a
 * PATH:SYMBOL; test_writers has it). */
static void test_failure(void **state)
{
	char obj[512], xml[512], args[2048], doc[1 << 16];
	unsigned bad, skips;
	(void)state;
	char plain[512];
	assert_true(compile_reader("gcc", "-O2", "../../reader/variants/no_sext.c",
	                           "ns.o", plain, sizeof(plain)));
	snprintf(obj, sizeof(obj), "%s/a&b<\"c'>.o", tmpdir());
	assert_int_equal(rename(plain, obj), 0);
	snprintf(xml, sizeof(xml), "%s/fail.xml", tmpdir());
	/* run() starts in the source tree: this one goes on from tmpdir(), so
	 * the reader's name is the awkward one alone */
	snprintf(args, sizeof(args), "check 'a&b<\"c'\\''>.o:selfmon_v_no_sext' "
	         "reference --abi values --scenario x86_pinned --bound 1 "
	         "--traces cex --junit fail.xml");
	char full[4096];
	snprintf(full, sizeof(full), "-h >/dev/null; cd '%s' && '%s' %s",
	         tmpdir(), SELFMON_BIN, args);
	run(full);
	assert_int_equal(r.status, 1);
	expect_junit_valid(xml);
	read_file(xml, doc, sizeof(doc));
	assert_non_null(strstr(doc, "tests=\"2\" failures=\"1\" errors=\"0\""));
	assert_non_null(strstr(doc, "<failure message=\"WRONG_VALUE, expected "
	                            "PASS: count = "));
	/* the classname: its FILE:SYMBOL, Jenkins' '.' and the rest '_' */
	assert_non_null(strstr(doc, "classname=\"selfmon.a_b__c___o_selfmon_v_"
	                            "no_sext.x86_64\""));
	assert_non_null(strstr(doc, "<system-out>reader a&amp;b&lt;&quot;c&apos;"
	                            "&gt;.o:selfmon_v_no_sext; verdict "));
	assert_non_null(strstr(doc, "/selfmon replay &apos;x86_64:"
	                            "unicorn:a&amp;b&lt;&quot;c&apos;\\&apos;"
	                            "&apos;&gt;.o#selfmon_v_no_sext#values:"
	                            "x86_pinned:"));
	assert_non_null(strstr(doc, "&#10;trace: cex/"));
	/* the result's fields, not only the sentence (issue #26 item 3) */
	assert_non_null(strstr(doc, "&#10;wrong: field=count value="));
	assert_non_null(strstr(doc, " offset_bits=48 offset=above "
	                            "cause=no_sign_extension</system-out>"));
	snprintf(full, sizeof(full), "-h >/dev/null; cd '%s' && '%s' check "
	         "'a&b<\"c'\\''>.o:selfmon_v_no_sext' reference --abi values "
	         "--scenario x86_pinned --bound 1 --no-traces --tap", tmpdir(),
	         SELFMON_BIN);
	run(full);
	assert_int_equal(r.status, 1);
	assert_int_equal(tap_valid(r.out, &bad, &skips), 2);
	assert_int_equal(bad, 1);
	assert_non_null(strstr(r.out, "not ok 1 - x86_64 a&b<\"c'>.o:"
	                              "selfmon_v_no_sext x86_pinned: WRONG_VALUE, "
	                              "expected PASS\n  ---\n  severity: fail\n"));
	assert_non_null(strstr(r.out, "/selfmon replay 'x86_64:"));
	assert_non_null(strstr(r.out, "\n  wrong:\n    - field: count\n"
	                              "      value: "));
	assert_non_null(strstr(r.out, "      offset_bits: 48\n      offset: "
	                              "above\n      cause: no_sign_extension\n"));
	expect_prove_parses(r.out, false);
}

/* INCOMPLETE (exit 3) and UNSUPPORTED (exit 4) are skipped cases. */
static void test_skipped(void **state)
{
	char scn[512], xml[512], obj[512], args[2048], doc[1 << 16];
	unsigned bad, skips;
	(void)state;
	put("busy.scn", "arch x86_64\npmu gp=2 fixed=0 width=48\n"
	    "clock hz=2900000000\nevent e type=other period=20 left=20\n"
	    "check at=5000 explore=reset\nend 100000\n", scn, sizeof(scn));
	snprintf(xml, sizeof(xml), "%s/incomplete.xml", tmpdir());
	snprintf(args, sizeof(args), "check reference --scenario %s --bound 0 "
	         "--no-traces --junit %s", scn, xml);
	run(args);
	assert_int_equal(r.status, 3);
	expect_junit_valid(xml);
	read_file(xml, doc, sizeof(doc));
	assert_non_null(strstr(doc, "tests=\"1\" failures=\"0\" errors=\"0\" "
	                            "skipped=\"1\""));
	assert_non_null(strstr(doc, "<skipped message=\"INCOMPLETE (not every "
	                            "schedule judged): "));
	snprintf(args, sizeof(args), "check reference --scenario %s --bound 0 "
	         "--no-traces --tap", scn);
	run(args);
	assert_int_equal(r.status, 3);
	assert_int_equal(tap_valid(r.out, &bad, &skips), 1);
	assert_int_equal(skips, 1);
	assert_non_null(strstr(r.out, "ok 1 - x86_64 reference "));
	assert_non_null(strstr(r.out, ": INCOMPLETE # SKIP not every schedule "
	                              "judged\n  ---\n  severity: skip\n"));

	assert_true(compile_reader("gcc", "-O2 -fno-builtin", "hostile_x86.c",
	                           "hx.o", obj, sizeof(obj)));
	snprintf(args, sizeof(args), "check %s:avx --abi raw --scenario "
	         "x86_pinned --bound 0 --no-traces --junit %s", obj, xml);
	run(args);
	assert_int_equal(r.status, 4);
	expect_junit_valid(xml);
	read_file(xml, doc, sizeof(doc));
	assert_non_null(strstr(doc, "<skipped message=\"UNSUPPORTED (an "
	                            "instruction the emulator cannot run): "));
	snprintf(args, sizeof(args), "check %s:avx --abi raw --scenario "
	         "x86_pinned --bound 0 --no-traces --tap", obj);
	run(args);
	assert_int_equal(r.status, 4);
	assert_int_equal(tap_valid(r.out, &bad, &skips), 1);
	assert_int_equal(skips, 1);
	expect_prove_parses(r.out, true);
}

/* The writers themselves, on cases the command cannot easily make:
 * selfmon's ERROR, and strings with control bytes, invalid UTF-8, XML's
 * "]]>" and TAP's '#'. */
static void test_writers(void **state)
{
	static const struct sm_cell_report cases[] = {
		{ .arch = SM_X86_64, .reader = "r\x01<x>", .abi = "raw",
		  .scenario = "s#1\\", .verdict = SM_V_PASS, .expected = SM_V_PASS,
		  .detail = "ok", .trace = "", .schedules = 3, .counter_path = 2,
		  .seconds = 0.5 },
		{ .arch = SM_X86_64, .reader = "bad\xff\xfe utf8 \xc3\xa9",
		  .abi = "values", .scenario = "s]]>", .error = true,
		  .verdict = SM_V_ERROR, .expected = SM_V_PASS,
		  .detail = "emulator \"stuck\"\tat\n0x10\x7f" },
		{ .arch = SM_ARM64, .reader = "r", .abi = "times", .scenario = "s",
		  .verdict = SM_V_FAULT, .expected = SM_V_PASS,
		  .detail = "#GP at 0x4000", .found = "arm64:unicorn:r:s:reset@3",
		  .min = "arm64:unicorn:r:s:reset@3", .trace = "cex/r-s.trace",
		  .schedules = 9, .blocked = 1, .counter_path = 7, .seconds = 0.25 },
	};
	struct sm_sweep_report rep = { .engine = "unicorn", .bound = 2,
	                               .cells = cases, .n = 3 };
	char xml[512], doc[1 << 16];
	unsigned bad, skips;
	(void)state;
	snprintf(xml, sizeof(xml), "%s/writers.xml", tmpdir());
	FILE *f = fopen(xml, "w");
	assert_non_null(f);
	assert_int_equal(sm_report_junit(f, &rep), 0);
	fclose(f);
	expect_junit_valid(xml);
	read_file(xml, doc, sizeof(doc));
	assert_non_null(strstr(doc, "<testsuites name=\"selfmon check\" "
	                            "tests=\"3\" failures=\"1\" errors=\"1\" "
	                            "skipped=\"0\" time=\"0.750\">"));
	assert_non_null(strstr(doc, "<testsuite name=\"selfmon check arm64\" "
	                            "tests=\"1\" failures=\"1\""));
	assert_non_null(strstr(doc, "classname=\"selfmon.r__x_.x86_64\""));
	assert_non_null(strstr(doc, "<system-out>reader r?&lt;x&gt;; "));
	assert_non_null(strstr(doc, "reader bad?? utf8 \xc3\xa9; "));
	assert_non_null(strstr(doc, "<error message=\"ERROR: emulator &quot;"
	                            "stuck&quot;&#9;at&#10;0x10\x7f\" "
	                            "type=\"ERROR\">"));
	assert_non_null(strstr(doc, "name=\"s]]&gt;\""));
	assert_non_null(strstr(doc, "; 3 schedules, 0 blocked, 2 on the counter "
	                            "path</system-out>"));

	char *buf = NULL;
	size_t len = 0;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(sm_report_tap(f, &rep), 0);
	fclose(f);
	assert_int_equal(tap_valid(buf, &bad, &skips), 3);
	assert_int_equal(bad, 2);
	assert_non_null(strstr(buf, "ok 1 - x86_64 r <x> s\\#1\\\\: PASS\n"
	                            "not ok 2 - "));
	assert_non_null(strstr(buf, "  detail: \"emulator \\\"stuck\\\"\\x09at"
	                            "\\x0a0x10\\x7f\"\n"));
	assert_non_null(strstr(buf, "  reader: \"bad\\xff\\xfe utf8 \xc3\xa9\"\n"));
	assert_non_null(strstr(buf, "  schedules: 9\n  blocked: 1\n"
	                            "  counter_path: 7\n"));
	assert_non_null(strstr(buf, "  replay: \"selfmon replay "
	                            "'arm64:unicorn:r:s:reset@3' --explain\"\n"));
	expect_prove_parses(buf, false);
	free(buf);

	char *cmd = sm_report_replay("x:it's");
	assert_string_equal(cmd, "selfmon replay 'x:it'\\''s' --explain");
	free(cmd);
}

/* Usage errors: one line, exit 2, nothing on stdout, no file made. */
static void test_bad_outputs(void **state)
{
	char args[1024], path[512];
	struct stat st;
	(void)state;
	expect_usage_error("check reference --scenario x86_pinned --tap --json",
	                   "--tap and --json both want standard output");
	expect_usage_error("check reference --scenario x86_pinned --junit",
	                   "--junit needs a file");
	snprintf(path, sizeof(path), "%s/no/such/dir/r.xml", tmpdir());
	snprintf(args, sizeof(args), "check reference --scenario x86_pinned "
	         "--bound 0 --no-traces --junit %s", path);
	expect_usage_error(args, "check: cannot write ");
	assert_int_equal(stat(path, &st), -1);
	/* a full device: the run happens, the report cannot be written */
	run("check reference --scenario x86_pinned --bound 0 --no-traces "
	    "--junit /dev/full");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "check: cannot write /dev/full"));
	/* TAP on a standard output that cannot take it: exit 2 */
	snprintf(args, sizeof(args), "cd '%s' && '%s' check reference "
	         "--scenario x86_pinned --bound 0 --no-traces --tap >/dev/full "
	         "2>/dev/null", SELFMON_SRC, SELFMON_BIN);
	int rc = system(args);
	assert_true(WIFEXITED(rc));
	assert_int_equal(WEXITSTATUS(rc), 2);
}

/* --name: the check's NAME (selfmon_add_reader_check's) in the JUnit
 * classname, TAP and the table; without it, a user's reader is its
 * FILE:SYMBOL, and two from one directory stay apart in the table. */
static void test_names(void **state)
{
	char a[512], b[512], xml[512], args[2048], doc[1 << 16];
	(void)state;

	assert_true(compile_reader("gcc", "-O2", "../../reader/variants/no_sext.c",
	                           "libpapi_component_alpha.o", a, sizeof(a)));
	assert_true(compile_reader("gcc", "-O2", "../../reader/variants/no_sext.c",
	                           "libpapi_component_beta.o", b, sizeof(b)));
	snprintf(xml, sizeof(xml), "%s/names.xml", tmpdir());
	snprintf(args, sizeof(args), "check %s:selfmon_v_no_sext --name papi.raw "
	         "--abi values --scenario x86_pinned --bound 1 --no-traces "
	         "--junit %s", a, xml);
	run(args);
	assert_int_equal(r.status, 1);
	expect_junit_valid(xml);
	read_file(xml, doc, sizeof(doc));
	assert_non_null(strstr(doc, "classname=\"selfmon.papi_raw.x86_64\" "
	                            "name=\"x86_pinned\""));
	assert_null(strstr(doc, "classname=\"/"));
	assert_non_null(strstr(r.out, "\npapi.raw           x86_pinned  "));
	snprintf(args, sizeof(args), "check %s:selfmon_v_no_sext --name papi.raw "
	         "--abi values --scenario x86_pinned --bound 1 --no-traces --tap",
	         a);
	run(args);
	assert_non_null(strstr(r.out, "\nnot ok 1 - x86_64 papi.raw x86_pinned: "
	                              "WRONG_VALUE"));

	/* no --name, two readers of one directory: apart in the table */
	snprintf(args, sizeof(args), "check %s:selfmon_v_no_sext "
	         "%s:selfmon_v_no_sext --abi values --scenario x86_pinned "
	         "--bound 1 --no-traces --junit %s", a, b, xml);
	run(args);
	assert_int_equal(r.status, 1);
	const char *ra = strstr(r.out, "\n..alpha"), *rb = strstr(r.out, "\n..beta");
	if (!ra || !rb)
		fail_msg("the two readers' rows: %.600s", r.out);
	read_file(xml, doc, sizeof(doc));
	assert_non_null(strstr(doc, "classname=\"selfmon.libpapi_component_alpha_"
	                            "o_selfmon_v_no_sext.x86_64\""));

	snprintf(args, sizeof(args), "check %s:f --name 'a b' --abi raw", a);
	expect_usage_error(args, "check: bad --name 'a b' (1 to 128 letters, "
	                   "digits, '_', '.' or '-')");
	expect_usage_error("check reference --name x", "check: --name names one "
	                   "PATH:SYMBOL reader, checked alone");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pass),
		cmocka_unit_test(test_failure),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_skipped),
		cmocka_unit_test(test_writers),
		cmocka_unit_test(test_bad_outputs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
