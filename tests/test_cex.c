/*
 * test_cex.c — counterexample traces (sim/explore/cex_trace.c): what the
 * writer writes reads back; the writer writes what `check` writes, byte
 * for byte; `replay FILE` refuses a bad trace in one line
 * "FILE:LINE:COL: message" with exit 2, and replays a good one; SHA-256
 * against FIPS 180-4's examples; the hashes a trace records hold replay
 * to the object and scenario it was found with (exit 2), and to its
 * verdict (exit 3); a packed trace replays with its object and scenario
 * gone, and a hostile packed file is refused in one line.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cex_pack.h"
#include "cex_trace.h"
#include "cli.h"
#include "input.h"
#include "sha256.h"

#define LINE "x86_64:unicorn:reference:x86_reset:-"

/* The writer's text for these fields (malloc'ed). */
static char *written(const char *path, const char *schedule,
                     enum sm_verdict v, const char *detail,
                     const char *found)
{
	struct sm_cex_trace t = { .schedule = (char *)schedule, .verdict = (int)v,
	                          .detail = (char *)detail, .found = (char *)found };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(sm_cex_trace_write(f, path, &t), 0);
	assert_int_equal(fclose(f), 0);
	return text;
}

static void test_round_trip(void **state)
{
	static const char detail[] = " count = 5 # not \x1b[31mthe truth\x7f ";
	struct sm_cex_trace t;
	char err[512], printable[sizeof(detail)];
	(void)state;

	char *text = written("a b/t.trace", LINE, SM_V_WRONG_VALUE, detail,
	                     "x86_64:unicorn:reference:x86_reset:reset@3,reset@9");
	assert_int_equal(count_lines(text), 5);
	assert_int_equal(sm_cex_trace_parse("t.trace", text, &t, err,
	                                    sizeof(err)), 0);
	assert_string_equal(t.schedule, LINE);
	assert_int_equal(t.verdict, SM_V_WRONG_VALUE);
	snprintf(printable, sizeof(printable), "%s", detail);
	sm_printable(printable);
	assert_string_equal(t.detail, printable); /* blanks and '#' kept */
	assert_null(strchr(t.detail, '\x1b'));
	assert_string_equal(t.found,
	                    "x86_64:unicorn:reference:x86_reset:reset@3,reset@9");
	sm_cex_trace_free(&t);
	free(text);

	/* only the schedule is required; CRLF reads as LF */
	assert_int_equal(sm_cex_trace_parse("t.trace", "schedule " LINE "\r\n",
	                                    &t, err, sizeof(err)), 0);
	assert_string_equal(t.schedule, LINE);
	assert_int_equal(t.verdict, -1);
	assert_null(t.detail);
	assert_null(t.found);
	sm_cex_trace_free(&t);
}

static char *read_all(const char *path)
{
	size_t len;
	char why[256], *text = sm_read_input(path, SM_TRACE_MAX_BYTES, &len, why,
	                                     sizeof(why));
	if (!text)
		fail_msg("%s: %s", path, why);
	return text;
}

/* The trace check writes is the writer's text of its own fields. */
static void test_check_writes_the_format(void **state)
{
	char args[1024], path[512], err[512];
	struct sm_cex_trace t;
	(void)state;

	snprintf(args, sizeof(args), "check no_zero_ext_fix --scenario x86_reset "
	         "--traces %s/cex", tmpdir());
	run(args);
	assert_int_equal(r.status, 0);
	snprintf(path, sizeof(path), "%s/cex/no_zero_ext_fix-x86_reset-unicorn"
	         ".trace", tmpdir());
	char *text = read_all(path);
	assert_int_equal(sm_cex_trace_load(path, &t, err, sizeof(err)), 0);
	assert_int_equal(t.verdict, SM_V_WRONG_VALUE);
	assert_non_null(t.detail);
	assert_non_null(t.found);
	/* the hashes: of the built-in code and of the scenario file */
	assert_non_null(t.version);
	assert_non_null(t.object);
	assert_non_null(t.scenario);
	char scn[512], want[SM_SHA256_HEX], *again = NULL;
	size_t len = 0;
	snprintf(scn, sizeof(scn), "%s/traces/x86_reset.scn", SELFMON_SRC);
	char *scn_text = read_all(scn);
	sm_sha256_hex(scn_text, strlen(scn_text), want);
	free(scn_text);
	assert_string_equal(t.scenario, want);
	FILE *f = open_memstream(&again, &len);
	assert_non_null(f);
	assert_int_equal(sm_cex_trace_write(f, path, &t), 0);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(again, text);
	free(again);
	free(text);
	sm_cex_trace_free(&t);
	snprintf(args, sizeof(args), "replay %s", path);
	run(args);
	assert_int_equal(r.status, 1);
	assert_true(!strncmp(r.out, "WRONG_VALUE", 11));
}

/* `replay FILE` with `text` in FILE: one error line, `where` being
 * "LINE:COL: message". */
static void expect_bad_trace(const char *text, size_t len, const char *where)
{
	char path[512], args[1024], msg[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/bad.trace", tmpdir());
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	snprintf(args, sizeof(args), "replay %s", path);
	snprintf(msg, sizeof(msg), "replay: %s:%s", path, where);
	expect_usage_error(args, msg);
}
#define BAD(text, where) expect_bad_trace(text, sizeof(text) - 1, where)

static void test_bad_traces(void **state)
{
	(void)state;
	BAD("", "1:1: missing 'schedule' line (not a counterexample trace of "
	    "'selfmon check')");
	BAD("# a comment\nverdict PASS\n", "3:1: missing 'schedule' line");
	BAD("schedule " LINE "\nfrob 1\n", "2:1: unknown key 'frob' in a "
	    "counterexample trace (expected schedule, verdict, detail, found, "
	    "selfmon, object or scenario)");
	BAD("schedule " LINE "\nobject 12ab\n", "2:8: bad object hash '12ab' "
	    "(expected SHA-256 as 64 lowercase hex digits)");
	BAD("schedule " LINE "\n  schedule " LINE "\n",
	    "2:3: duplicate 'schedule' (line 1 has one)");
	BAD("schedule nope\n", "1:10: bad schedule: expected "
	    "ARCH:ENGINE:READER:SCENARIO:ACTIONS, got 'nope'");
	BAD("schedule\n", "1:10: bad schedule: expected "
	    "ARCH:ENGINE:READER:SCENARIO:ACTIONS, got ''");
	BAD("schedule " LINE "\nfound x86_64:unicorn:reference:x86_reset:"
	    "explode@3\n", "2:7: bad schedule: unknown action 'explode'");
	BAD("verdict MAYBE\nschedule " LINE "\n", "1:9: bad value 'MAYBE' for "
	    "verdict (expected PASS, BLOCKED, INCOMPLETE, WRONG_VALUE, FAULT, "
	    "LIVELOCK, ERROR or UNSUPPORTED)");
	BAD("schedule " LINE "\ndetail a\tb\n", "2:9: control character in a "
	    "trace line");
	/* the old reader took the first line starting "schedule " anywhere */
	BAD("garbage\nschedule " LINE "\n", "1:1: unknown key 'garbage'");
	char nul[] = "schedule " LINE "\n\0x\n";
	expect_bad_trace(nul, sizeof(nul) - 1, " file contains a NUL byte");
}

/* A trace of a passing schedule written by hand, CRLF, replays. */
static void test_replay_crlf(void **state)
{
	char path[512], args[1024];
	(void)state;

	snprintf(path, sizeof(path), "%s/crlf.trace", tmpdir());
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("# by hand\r\nschedule " LINE "\r\nverdict PASS\r\n", f);
	assert_int_equal(fclose(f), 0);
	snprintf(args, sizeof(args), "replay %s", path);
	run(args);
	assert_int_equal(r.status, 0);
	assert_true(!strncmp(r.out, "PASS", 4));
}

/* ---- hashes and packed counterexamples ---------------------------------- */

/* FIPS 180-4's examples (and the million-'a' one of its test vectors). */
static void test_sha256_vectors(void **state)
{
	static const struct { const char *in, *hex; } v[] = {
		{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
		{ "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
		  "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
		  "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1" },
	};
	char hex[SM_SHA256_HEX];
	(void)state;

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		sm_sha256_hex(v[i].in, strlen(v[i].in), hex);
		assert_string_equal(hex, v[i].hex);
	}
	char *a = malloc(1000000);
	assert_non_null(a);
	memset(a, 'a', 1000000);
	sm_sha256_hex(a, 1000000, hex);
	free(a);
	assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67"
	                         "f1809a48a497200e046d39ccc7112cd0");
}

/* The sample library's reader (tests/samplelib/SRC) compiled to
 * tmpdir()/OBJ, with the host's compiler. */
static void build_sample(const char *src, const char *obj)
{
	char cmd[2048];

	snprintf(cmd, sizeof(cmd), "cc -O2 -c -I'%s/model' -I'%s/reader' "
	         "'%s/tests/samplelib/%s' -o '%s/%s'", SELFMON_SRC, SELFMON_SRC,
	         SELFMON_SRC, src, tmpdir(), obj);
	assert_int_equal(system(cmd), 0);
}

static void copy_file(const char *from, const char *to)
{
	char cmd[2048];

	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", from, to);
	assert_int_equal(system(cmd), 0);
}

/* The broken sample reader (2^48: no sign extension) as tmpdir()/NAME.o,
 * checked in a copy of x86_overflow at tmpdir()/NAME.scn, its trace's
 * path into trace. */
static void broken_trace(const char *name, char *trace, size_t n)
{
	char obj[64], scn[512], args[2048];

	snprintf(obj, sizeof(obj), "%s.o", name);
	build_sample("counter_read_broken.c", obj);
	snprintf(scn, sizeof(scn), "%s/%s.scn", tmpdir(), name);
	copy_file(SELFMON_SRC "/traces/x86_overflow.scn", scn);
	snprintf(args, sizeof(args), "check %s/%s:counter_read --abi values "
	         "--scenario %s --traces %s/%s-cex", tmpdir(), obj, scn, tmpdir(),
	         name);
	run(args);
	if (r.status != 1)
		fail_msg("check: exit %d, stderr %s", r.status, r.err);
	snprintf(trace, n, "%s/%s-cex/%s.o_counter_read-%s.scn-unicorn.trace",
	         tmpdir(), name, name, name);
}

static void replay_trace(const char *trace)
{
	char args[1200];

	snprintf(args, sizeof(args), "replay %s", trace);
	run(args);
}

/* A trace holds replay to the object and the scenario it was found
 * with, and to its verdict. */
static void test_hashes_hold_replay(void **state)
{
	char trace[1024], edited[1024], args[1200], scn[512];
	(void)state;

	broken_trace("h", trace, sizeof(trace));
	replay_trace(trace);
	assert_int_equal(r.status, 1);
	assert_true(!strncmp(r.out, "WRONG_VALUE", 11));
	assert_string_equal(r.err, "");

	/* the recorded verdict is not what the replay gets: exit 3 */
	char *text = read_all(trace), *v = strstr(text, "verdict WRONG_VALUE\n");
	assert_non_null(v);
	snprintf(edited, sizeof(edited), "%s/edited.trace", tmpdir());
	FILE *f = fopen(edited, "w");
	assert_non_null(f);
	fprintf(f, "%.*sverdict PASS\n%s", (int)(v - text), text,
	        v + strlen("verdict WRONG_VALUE\n"));
	assert_int_equal(fclose(f), 0);
	free(text);
	replay_trace(edited);
	assert_int_equal(r.status, 3);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "the verdict is WRONG_VALUE, the trace "
	                       "records PASS"));

	/* the object rebuilt (the fixed reader): refused, whatever it gives */
	build_sample("counter_read.c", "h.o");
	snprintf(args, sizeof(args), "replay %s", trace);
	expect_usage_error(args, "the reader object differs from the one the "
	                   "trace was found with (SHA-256 ");
	build_sample("counter_read_broken.c", "h.o");
	replay_trace(trace);
	assert_int_equal(r.status, 1);

	/* the scenario edited */
	snprintf(scn, sizeof(scn), "%s/h.scn", tmpdir());
	f = fopen(scn, "a");
	assert_non_null(f);
	fputs("# edited\n", f);
	assert_int_equal(fclose(f), 0);
	expect_usage_error(args, "the scenario differs from the one the trace "
	                   "was found with");
}

/* A packed counterexample replays from another directory with its object
 * moved away, its scenario deleted and the bundled scenarios out of
 * reach; a built-in reader's too. */
static void test_pack_travels(void **state)
{
	char trace[1024], args[2048], from[512], to[512], away[512];
	(void)state;

	broken_trace("p", trace, sizeof(trace));
	snprintf(args, sizeof(args), "pack %s -o %s/p.pack", trace, tmpdir());
	run(args);
	if (r.status != 0)
		fail_msg("pack: exit %d, stderr %s", r.status, r.err);
	snprintf(from, sizeof(from), "%s/p.o", tmpdir());
	snprintf(to, sizeof(to), "%s/p.o.moved", tmpdir());
	assert_int_equal(rename(from, to), 0);
	snprintf(from, sizeof(from), "%s/p.scn", tmpdir());
	assert_int_equal(unlink(from), 0);
	snprintf(away, sizeof(away), "%s/elsewhere", tmpdir());
	assert_int_equal(mkdir(away, 0700), 0);
	run_at(away, "SELFMON_TRACES=/nonexistent", "replay ../p.pack");
	if (r.status != 1 || strncmp(r.out, "WRONG_VALUE", 11) || r.err[0])
		fail_msg("replay p.pack: exit %d, stdout %.200s, stderr %s",
		         r.status, r.out, r.err);
	run_at(away, "SELFMON_TRACES=/nonexistent", "replay ../p.pack --explain");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "\nWRONG_VALUE after "));

	/* the trace, its scenario gone: nothing to pack, one line */
	snprintf(args, sizeof(args), "pack %s -o %s/gone.pack", trace, tmpdir());
	expect_usage_error(args, "p.scn: No such file");
	snprintf(from, sizeof(from), "%s/gone.pack", tmpdir());
	assert_int_equal(access(from, F_OK), -1); /* no file left behind */

	/* a built-in reader: the trace and the scenario */
	snprintf(args, sizeof(args), "check no_zero_ext_fix --scenario x86_reset "
	         "--traces %s/b-cex", tmpdir());
	run(args);
	assert_int_equal(r.status, 0);
	snprintf(args, sizeof(args), "pack %s/b-cex/no_zero_ext_fix-x86_reset-"
	         "unicorn.trace -o %s/b.pack", tmpdir(), tmpdir());
	run(args);
	assert_int_equal(r.status, 0);
	run_at(away, "SELFMON_TRACES=/nonexistent", "replay ../b.pack");
	if (r.status != 1 || strncmp(r.out, "WRONG_VALUE", 11))
		fail_msg("replay b.pack: exit %d, stderr %s", r.status, r.err);
}

/* tmpdir()/bad.pack is `good` with `len` bytes at `at` replaced by `with`
 * (wlen bytes); replay refuses it in one line holding msg. */
static void expect_bad_pack(const char *good, size_t glen, size_t at,
                            size_t len, const char *with, size_t wlen,
                            const char *msg)
{
	char path[512], args[1024];

	snprintf(path, sizeof(path), "%s/bad.pack", tmpdir());
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_true(at + len <= glen);
	fwrite(good, 1, at, f);
	fwrite(with, 1, wlen, f);
	fwrite(good + at + len, 1, glen - at - len, f);
	assert_int_equal(fclose(f), 0);
	snprintf(args, sizeof(args), "replay %s", path);
	expect_usage_error(args, msg);
}

static void test_bad_packs(void **state)
{
	char trace[1024], args[2048], pack[512], why[256];
	size_t len;
	(void)state;

	broken_trace("q", trace, sizeof(trace));
	snprintf(pack, sizeof(pack), "%s/q.pack", tmpdir());
	snprintf(args, sizeof(args), "pack %s -o %s", trace, pack);
	run(args);
	assert_int_equal(r.status, 0);
	char *good = sm_read_input(pack, SM_PACK_MAX_BYTES, &len, why,
	                           sizeof(why));
	assert_non_null(good);
	/* where the parts are: each header's size walked over */
	size_t trace_at = (size_t)(strstr(good, "\ntrace ") - good) + 1, k;
	assert_int_equal(sscanf(good + trace_at, "trace %zu\n", &k), 1);
	size_t scn_at = (size_t)(strchr(good + trace_at, '\n') - good) + 1 + k + 1;
	size_t scn_data = (size_t)(strchr(good + scn_at, '\n') - good) + 1;
	assert_int_equal(sscanf(good + scn_at, "scenario %zu\n", &k), 1);
	size_t obj_at = scn_data + k + 1;
	size_t obj_data = (size_t)(strchr(good + obj_at, '\n') - good) + 1;
	assert_true(!strncmp(good + obj_at, "object ", 7));

	expect_bad_pack(good, len, len - 10, 10, "", 0, "truncated");
	expect_bad_pack(good, len, len, 0, "x", 1, "1 bytes after 'end'");
	/* no magic: a trace, then, with the object's NUL bytes */
	expect_bad_pack(good, len, 0, 1, "S", 1, "file contains a NUL byte");
	expect_bad_pack(good, len, trace_at, 6, "trace 99999999999", 17,
	                "over the cap");
	expect_bad_pack(good, len, trace_at, 6, "trace 0", 7, "bad size '0");
	expect_bad_pack(good, len, trace_at, 6, "trace -", 7, "bad size '-");
	expect_bad_pack(good, len, trace_at, 6, "track ", 6, "expected 'trace N'");
	expect_bad_pack(good, len, obj_data + 100, 1, "\x5a", 1,
	                "the packed reader object differs");
	expect_bad_pack(good, len, scn_data, 1, "!", 1,
	                "the packed scenario differs");
	expect_bad_pack(good, len, scn_data, 1, "", 1,
	                "scenario contains a NUL byte");
	expect_bad_pack(good, len, obj_at, len - obj_at, "end\n", 4,
	                "no reader object packed for a user's reader");
	free(good);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_check_writes_the_format),
		cmocka_unit_test(test_bad_traces),
		cmocka_unit_test(test_replay_crlf),
		cmocka_unit_test(test_sha256_vectors),
		cmocka_unit_test(test_hashes_hold_replay),
		cmocka_unit_test(test_pack_travels),
		cmocka_unit_test(test_bad_packs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
