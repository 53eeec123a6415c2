/*
 * test_cpath.c — whether a verdict judged the counter path, and the
 * details' grouping of identical failures, through the `selfmon` binary.
 *
 * A reader that always falls back to read(2) passes everywhere; each
 * cell's "counter_path" (schedules whose reader returned a value derived
 * from a counter read: session.h's criterion) says it never read the
 * counter, and the table marks it.  The corpus's reference reader is on
 * the counter path in x86_overflow on both engines (and on arm64 and
 * riscv64 where built), pruned and unpruned sweeps count it alike, and
 * merge carries it.  One failure in many cells is one block of the
 * details, every cell still in the JSON.  An lttng-style reader, whose
 * fallback reads the bare 8-byte count, is wrong under the default
 * read_format (its read(2) gets -ENOSPC) and right once its event's
 * read_format none is declared.  Readers: tests/readers/fallback_reader.c
 * and lttng_reader.c.
 */
#include <ctype.h>

#include "cli.h"
#include "details.h"
#include "json_read.h"

static struct jr_value doc;

/* check ARGS --json into doc (exit status in r.status). */
static const struct jr_value *json_cells(const char *args)
{
	char cmd[2048], err[256];

	snprintf(cmd, sizeof(cmd), "check %s --json --no-traces", args);
	run(cmd);
	jr_free(&doc);
	if (jr_parse(r.out, strlen(r.out), &doc, err, sizeof(err)) < 0)
		fail_msg("%s: exit %d, bad JSON: %s (%s)", cmd, r.status, err,
		         r.err);
	const struct jr_value *cells = jr_get(&doc, "cells");
	assert_non_null(cells);
	assert_int_equal(cells->type, JR_ARRAY);
	assert_true(cells->n > 0);
	return cells;
}

static uint64_t num(const struct jr_value *cell, const char *key)
{
	uint64_t v;

	if (!jr_u64(jr_get(cell, key), &v))
		fail_msg("a cell without a number \"%s\"", key);
	return v;
}

static const char *str(const struct jr_value *cell, const char *key)
{
	const char *s = jr_str(jr_get(cell, key));

	if (!s)
		fail_msg("a cell without a string \"%s\"", key);
	return s;
}

/* The compilers of tests/readers for each arch this selfmon runs. */
static const struct { const char *cc, *arch; } tool[] = {
	{ "gcc", "x86_64" },
	{ "aarch64-linux-gnu-gcc", "arm64" },
	{ "riscv64-linux-gnu-gcc", "riscv64" },
};

static bool fallback_obj(unsigned t, char *obj, size_t n)
{
	char name[64];

	snprintf(name, sizeof(name), "fallback_%s.o", tool[t].arch);
	return arch_built(tool[t].arch) &&
	       compile_reader(tool[t].cc, "-O2 -fno-builtin",
	                      "fallback_reader.c", name, obj, n);
}

/* read(2) only: PASS in every cell of every arch, counter path in none,
 * and the table marks each row; the same code reading the counter first
 * (good_reader.c's reader) is on the counter path somewhere.  A counter
 * read followed by read(2) is not, in any cell: the criterion's "no
 * read(2) after the last counter read". */
static void test_fallback(void **state)
{
	char obj[512], args[1024];
	unsigned arches = 0;
	(void)state;

	for (unsigned t = 0; t < sizeof(tool) / sizeof(tool[0]); t++) {
		if (!fallback_obj(t, obj, sizeof(obj)))
			continue;
		arches++;
		for (int k = 0; k < 2; k++) {
			snprintf(args, sizeof(args), "%s:%s --abi values", obj,
			         k ? "counter_then_read" : "fallback_read");
			/* (a scenario's own expectation may be a failure: its
			 * "expected" is not this test's business) */
			const struct jr_value *cells = json_cells(args);
			size_t passed = 0;
			for (size_t i = 0; i < cells->n; i++) {
				const struct jr_value *c = &cells->items[i];
				/* a counter read can fault (riscv64_rotate) */
				passed += !strcmp(str(c, "verdict"), "PASS");
				if (!k)
					assert_string_equal(str(c, "verdict"), "PASS");
				assert_true(num(c, "schedules") > 0);
				if (num(c, "counter_path"))
					fail_msg("%s in %s: counter path in %llu schedules",
					         args, str(c, "scenario"),
					         (unsigned long long)num(c, "counter_path"));
			}
			snprintf(args, sizeof(args), "check %s:%s --abi values "
			         "--no-traces", obj,
			         k ? "counter_then_read" : "fallback_read");
			run(args);
			unsigned marked = 0;
			for (const char *p = r.out;
			     (p = strstr(p, "<-- counter never read")); p++)
				marked++;
			assert_int_equal(marked, passed); /* each PASS row */
			assert_true(passed > 0);
		}
		snprintf(args, sizeof(args), "%s:fallback_good --abi values", obj);
		const struct jr_value *cells = json_cells(args);
		uint64_t on = 0;
		for (size_t i = 0; i < cells->n; i++) {
			assert_true(num(&cells->items[i], "counter_path") <=
			            num(&cells->items[i], "schedules"));
			on += num(&cells->items[i], "counter_path");
		}
		if (!on)
			fail_msg("%s: a counter reader never on the counter path",
			         tool[t].arch);
	}
	assert_true(arches > 0);
}

/* A scenario file in tmpdir(): the event `instructions` of ARCH with the
 * event key `rf` ("" for none), checked at 2000 with rotations only. */
static void lttng_scenario(const char *arch, const char *rf, char *path,
                           size_t n)
{
	snprintf(path, n, "%s/lttng_%s%s.scn", tmpdir(), arch, *rf ? "_none" : "");
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "arch %s\nevent instructions %s\n"
	        "check at=2000 explore=rotate_out,rotate_in\nend 3000\n",
	        arch, rf);
	assert_int_equal(fclose(f), 0);
}

/* The lttng-style reader (raw ABI) on each arch built: under the default
 * read_format its 8-byte read(2) gets -ENOSPC and it returns 0, judged
 * WRONG_VALUE (on x86-64 only once rotated out: before, it reads the
 * counter); with read_format=none declared it passes; and
 * traces/examples/lttng_read_format.scn, which declares it for a
 * hardware event, passes it too, on the counter path and off it. */
static void test_lttng_read_format(void **state)
{
	char obj[512], scn[600], args[2048], name[64];
	unsigned arches = 0;
	(void)state;

	for (unsigned t = 0; t < sizeof(tool) / sizeof(tool[0]); t++) {
		snprintf(name, sizeof(name), "lttng_%s.o", tool[t].arch);
		if (!arch_built(tool[t].arch) ||
		    !compile_reader(tool[t].cc, "-O2 -fno-builtin",
		                    "lttng_reader.c", name, obj, sizeof(obj)))
			continue;
		arches++;
		for (int none = 0; none < 2; none++) {
			lttng_scenario(tool[t].arch, none ? "read_format=none" : "",
			               scn, sizeof(scn));
			snprintf(args, sizeof(args), "%s:lttng_style_read --abi raw "
			         "--scenario %s --bound 2", obj, scn);
			const struct jr_value *c = &json_cells(args)->items[0];
			if (none) {
				assert_string_equal(str(c, "verdict"), "PASS");
				assert_int_equal(r.status, 0);
				continue;
			}
			assert_string_equal(str(c, "verdict"), "WRONG_VALUE");
			assert_int_equal(r.status, 1);
			assert_non_null(strstr(str(c, "detail"), "count = 0 is not"));
			assert_int_equal(num(c, "least_bound"),
			                 !strcmp(tool[t].arch, "x86_64"));
		}
		if (!strcmp(tool[t].arch, "x86_64")) {
			snprintf(args, sizeof(args), "%s:lttng_style_read --abi raw "
			         "--scenario '%s/traces/examples/lttng_read_format.scn' "
			         "--bound 3", obj, SELFMON_SRC);
			const struct jr_value *c = &json_cells(args)->items[0];
			assert_string_equal(str(c, "verdict"), "PASS");
			assert_true(num(c, "counter_path") > 0);
			assert_true(num(c, "counter_path") < num(c, "schedules"));
		}
	}
	assert_true(arches > 0);
}

/* munmap of the page at 500, the reader called at 1000 (x86-64): the
 * reference reader loads the page and faults (SIGSEGV) at an address of
 * the page, 0x20000000 to 0x20000fff in the Unicorn engine, which the
 * verdict's detail and the JSON name; the read(2)-only reader never loads
 * it and passes (the fd stays open: read(2) counts on); the native
 * engine, whose reader reads selfmon's copy, refuses the scenario with
 * one line, exit 2. */
static void test_munmap(void **state)
{
	char obj[512], scn[600], args[2048];
	uint64_t addr;
	(void)state;

	if (!fallback_obj(0, obj, sizeof(obj)))
		skip();
	snprintf(scn, sizeof(scn), "%s/munmap.scn", tmpdir());
	FILE *f = fopen(scn, "w");
	assert_non_null(f);
	fprintf(f, "arch x86_64\nevent instructions\nat 500 munmap\n"
	        "check at=1000\nend 2000\n");
	assert_int_equal(fclose(f), 0);

	snprintf(args, sizeof(args), "reference --scenario %s --bound 1", scn);
	const struct jr_value *c = &json_cells(args)->items[0];
	assert_int_equal(r.status, 1);
	assert_string_equal(str(c, "verdict"), "FAULT");
	assert_non_null(strstr(str(c, "detail"), "read of unmapped address 0x2000"));
	assert_non_null(strstr(str(c, "detail"), "(the perf page, munmapped)"));
	const struct jr_value *fault = jr_get(c, "fault");
	assert_non_null(fault);
	assert_string_equal(jr_str(jr_get(fault, "kind")), "memory");
	assert_true(jr_u64(jr_get(fault, "address"), &addr));
	assert_true(addr >= 0x20000000u && addr < 0x20001000u);

	snprintf(args, sizeof(args), "%s:fallback_read --abi values --scenario "
	         "%s --bound 1", obj, scn);
	c = &json_cells(args)->items[0];
	assert_int_equal(r.status, 0);
	assert_string_equal(str(c, "verdict"), "PASS");

	snprintf(args, sizeof(args), "check reference --scenario %s --engine "
	         "native --no-traces", scn);
	run(args);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "the native engine cannot unmap the page"));
}

/* The corpus reference reader in one scenario of an arch: on the counter
 * path in some of its schedules, never more than it ran. */
static void reference_on_path(const char *scenario, const char *engine)
{
	char args[256];

	snprintf(args, sizeof(args), "reference --scenario %s --engine %s",
	         scenario, engine);
	const struct jr_value *cells = json_cells(args);
	assert_int_equal(cells->n, 1);
	uint64_t n = num(&cells->items[0], "counter_path"),
	         m = num(&cells->items[0], "schedules");
	if (n == 0 || n > m)
		fail_msg("%s: counter path in %llu of %llu schedules", args,
		         (unsigned long long)n, (unsigned long long)m);
	/* and the table's row says so, unmarked */
	snprintf(args, sizeof(args), "check reference --scenario %s --engine "
	         "%s --no-traces", scenario, engine);
	run(args);
	char want[96];
	snprintf(want, sizeof(want), "(counter path in %llu of %llu schedules)",
	         (unsigned long long)n, (unsigned long long)m);
	assert_non_null(strstr(r.out, want));
	assert_null(strstr(r.out, "counter never read"));
}

static void test_reference(void **state)
{
	(void)state;
	reference_on_path("x86_overflow", "unicorn");
	reference_on_path("x86_overflow", "native");
	if (arch_built("arm64"))
		reference_on_path("arm64_counters", "unicorn");
	if (arch_built("riscv64"))
		reference_on_path("riscv64", "unicorn");
}

/* Pruned and unpruned explorations count the counter path alike (as they
 * count schedules and BLOCKED ones), at bound 3, where subtrees are
 * pruned. */
static void test_pruned(void **state)
{
	static const char *const cells_of[] = {
		"reference --scenario x86_overflow",
		"reference --scenario x86_remote",
		"no_running_guard --scenario x86_multiplex",
	};
	char args[256];
	uint64_t pruned = 0;
	(void)state;

	for (size_t k = 0; k < sizeof(cells_of) / sizeof(cells_of[0]); k++) {
		uint64_t n[2], m[2];
		for (int np = 0; np < 2; np++) {
			snprintf(args, sizeof(args), "%s --bound 3 --time-limit 0%s",
			         cells_of[k], np ? " --no-prune" : "");
			const struct jr_value *c = &json_cells(args)->items[0];
			n[np] = num(c, "counter_path");
			m[np] = num(c, "schedules");
			if (np)
				assert_int_equal(num(c, "pruned"), 0);
			else
				pruned += num(c, "pruned");
		}
		assert_int_equal(m[0], m[1]);
		if (n[0] != n[1])
			fail_msg("%s: counter path %llu pruned, %llu unpruned",
			         cells_of[k], (unsigned long long)n[0],
			         (unsigned long long)n[1]);
		assert_true(n[0] > 0);
	}
	assert_true(pruned > 0); /* or the comparison compared nothing */
}

/* merge carries each cell's counter_path, and refuses one above the
 * cell's schedules. */
static void test_merge(void **state)
{
	char path[2][600], args[2048];
	(void)state;

	for (int i = 0; i < 2; i++) {
		snprintf(path[i], sizeof(path[i]), "%s/part%d.json", tmpdir(), i);
		snprintf(args, sizeof(args), "check reference --arch x86_64 "
		         "--shard %d/2 --json --no-traces", i);
		run(args);
		FILE *f = fopen(path[i], "w");
		assert_non_null(f);
		fputs(r.out, f);
		assert_int_equal(fclose(f), 0);
	}
	const struct jr_value *whole = json_cells("reference --arch x86_64");
	size_t n = whole->n;
	uint64_t *want = calloc(n, sizeof(*want));
	assert_non_null(want);
	for (size_t i = 0; i < n; i++)
		want[i] = num(&whole->items[i], "counter_path");
	snprintf(args, sizeof(args), "merge --json '%s' '%s'", path[0], path[1]);
	run(args);
	assert_int_equal(r.status, 0);
	char err[256];
	jr_free(&doc);
	assert_true(jr_parse(r.out, strlen(r.out), &doc, err, sizeof(err)) == 0);
	const struct jr_value *cells = jr_get(&doc, "cells");
	assert_int_equal(cells->n, n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(num(&cells->items[i], "counter_path"), want[i]);
	free(want);
	/* the table's note, from the shards */
	snprintf(args, sizeof(args), "merge '%s' '%s'", path[0], path[1]);
	run(args);
	assert_non_null(strstr(r.out, "(counter path in "));
	/* a shard claiming more than its schedules */
	snprintf(args, sizeof(args), "sed -i 's/\"counter_path\":[0-9]*/"
	         "\"counter_path\":99999999999/' '%s'", path[1]);
	assert_int_equal(system(args), 0);
	snprintf(args, sizeof(args), "merge '%s' '%s'", path[0], path[1]);
	expect_usage_error(args, "is more than its");
}

/* The detail with every run of digits as '#': the test's own, plainer
 * notion of "alike but for the numbers" (these readers' details have no
 * addresses or exponents). */
static void digits_out(const char *s, char *out, size_t n)
{
	size_t k = 0;

	for (; *s && k + 2 < n; s++) {
		if (isdigit((unsigned char)*s)) {
			while (isdigit((unsigned char)s[1]))
				s++;
			out[k++] = '#';
		} else {
			out[k++] = *s;
		}
	}
	out[k] = '\0';
}

/* Is " NAME" one of the items of the list from `from` to the end of its
 * line (", "-separated)? */
static bool listed_in(const char *from, const char *name)
{
	const char *eol = strchr(from, '\n');
	size_t n = strlen(name);

	for (const char *at = from; (at = strstr(at, name)) && at < eol; at++)
		if (at[-1] == ' ' && (at[n] == ',' || at[n] == '\n'))
			return true;
	return false;
}

/* One reader failing alike in many cells: the details are one block for
 * each distinct failure, with "the same failure in K cells: scenarios
 * ..." naming exactly the cells alike; the blocks and groups together
 * cover every failing cell once; JSON keeps every cell. */
static void check_grouped(const char *obj, const char *fn)
{
	char args[1024], head[600], shape[2][600];
	static char table[1 << 20];

	snprintf(args, sizeof(args), "%s:%s --abi values", obj, fn);
	const struct jr_value *cells = json_cells(args);
	size_t failing = 0;
	for (size_t i = 0; i < cells->n; i++)
		failing += !strcmp(str(&cells->items[i], "outcome"), "unexpected");
	assert_true(failing >= 2);
	snprintf(args, sizeof(args), "check %s:%s --abi values --no-traces",
	         obj, fn);
	run(args);
	assert_int_equal(r.status, 1);
	snprintf(table, sizeof(table), "%s", r.out);
	size_t covered = 0, groups = 0;
	for (size_t i = 0; i < cells->n; i++) {
		const struct jr_value *c = &cells->items[i];
		/* every cell has its row in the table */
		char row[256];
		snprintf(row, sizeof(row), " %-18s ", str(c, "scenario"));
		assert_non_null(strstr(table, row));
		if (strcmp(str(c, "outcome"), "unexpected"))
			continue;
		snprintf(head, sizeof(head), "%s:%s in %s: ", obj, fn,
		         str(c, "scenario"));
		const char *block = strstr(table, head);
		if (!block)
			continue; /* in an earlier cell's group */
		covered++;
		const char *end = strstr(block + 1, "\n\n");
		const char *g = strstr(block, "  the same failure in ");
		if (!g || (end && g > end))
			continue; /* alone */
		groups++;
		unsigned long k = strtoul(g + 22, NULL, 10);
		const char *list = strstr(g, "scenarios ");
		assert_non_null(list);
		list += 9; /* at the space before the first */
		digits_out(str(c, "detail"), shape[0], sizeof(shape[0]));
		unsigned long named = 0;
		for (size_t j = 0; j < cells->n; j++) {
			const struct jr_value *d = &cells->items[j];
			digits_out(str(d, "detail"), shape[1], sizeof(shape[1]));
			bool listed = listed_in(list, str(d, "scenario"));
			bool alike = !strcmp(str(d, "outcome"), "unexpected") &&
			             !strcmp(str(d, "verdict"), str(c, "verdict")) &&
			             !strcmp(str(d, "expected"), str(c, "expected")) &&
			             !strcmp(shape[0], shape[1]);
			if (listed != alike)
				fail_msg("%s: %s %s listed with %s", fn, str(d, "scenario"),
				         listed ? "wrongly" : "not", str(c, "scenario"));
			named += listed;
		}
		assert_int_equal(named, k);
		covered += k - 1;
	}
	assert_int_equal(covered, failing);
	assert_true(groups > 0);
}

static void test_grouped(void **state)
{
	char obj[512], args[2048], path[2][600], want[64];
	(void)state;

	assert_true(fallback_obj(0, obj, sizeof(obj)));
	check_grouped(obj, "fallback_stub"); /* "returned error -1" alike */
	check_grouped(obj, "plus_one");      /* counts that differ */
	/* merge's details are check's: the stub fails alike in every cell
	 * held to PASS but those of a kernel hazard whose `expect` its wrong
	 * value meets (x86_set_output); x86_munmap's, held to FAULT, is a
	 * block of its own */
	snprintf(args, sizeof(args), "%s:fallback_stub --abi values", obj);
	const struct jr_value *cells = json_cells(args);
	size_t n = 0;
	for (size_t i = 0; i < cells->n; i++)
		n += !strcmp(str(&cells->items[i], "expected"), "PASS") &&
		     strcmp(str(&cells->items[i], "outcome"), "as_expected") != 0;
	for (int i = 0; i < 2; i++) {
		snprintf(path[i], sizeof(path[i]), "%s/stub%d.json", tmpdir(), i);
		snprintf(args, sizeof(args), "check %s:fallback_stub --abi values "
		         "--shard %d/2 --json --no-traces", obj, i);
		run(args);
		FILE *f = fopen(path[i], "w");
		assert_non_null(f);
		fputs(r.out, f);
		assert_int_equal(fclose(f), 0);
	}
	snprintf(args, sizeof(args), "merge '%s' '%s'", path[0], path[1]);
	run(args);
	assert_int_equal(r.status, 1);
	snprintf(want, sizeof(want), "  the same failure in %zu cells ", n);
	assert_non_null(strstr(r.out, want));
	assert_null(strstr(strstr(r.out, want) + strlen(want),
	                   "the same failure"));
}

/* The key's shape of a detail: decimal numbers out, words, hex literals
 * and exponents kept. */
static void test_shape(void **state)
{
	(void)state;
	char *s = sm_detail_shape("count = 1001 is not the truth (truth went "
	                          "5..99; exactly 2^48 above) at 0x1000a3f in "
	                          "PMEVCNTR12_EL0, s64 -7");
	assert_non_null(s);
	assert_string_equal(s, "count = # is not the truth (truth went #..#; "
	                       "exactly #^48 above) at 0x1000a3f in "
	                       "PMEVCNTR12_EL0, s64 -#");
	free(s);
}

int main(int argc, char **argv)
{
	/* the fast tier; `test_cpath slow` the rest (ctest: test_cpath_slow,
	 * labelled slow) */
	const struct CMUnitTest fast[] = {
		cmocka_unit_test(test_shape),
		cmocka_unit_test(test_fallback),
		cmocka_unit_test(test_lttng_read_format),
		cmocka_unit_test(test_reference),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_grouped),
		cmocka_unit_test(test_munmap),
	};
	const struct CMUnitTest slow[] = {
		cmocka_unit_test(test_pruned),
	};
	int rc = sm_slow_tier(argc, argv)
	         ? cmocka_run_group_tests(slow, NULL, NULL)
	         : cmocka_run_group_tests(fast, NULL, NULL);

	jr_free(&doc);
	return rc;
}
