/*
 * test_verdicts.c — the verdict table as a regression oracle: every cell
 * of the built-in sweep (every reader, bundled scenario and arch; bounds 2
 * and 3; Unicorn and native) gets the verdict, least bound, schedule
 * counts, counterexamples and result recorded in tests/golden/, one table
 * a bound and engine (verdicts-ENGINE-BOUND.tsv; golden_diff.h has the
 * columns).  The result is the result's fields (the wrong values with
 * their truth, offset and cause; a fault's kind and addresses), not its
 * sentence, so a reworded sentence changes no row.
 *
 * A change meant to leave behaviour alone (speed, restructuring) must
 * pass this unchanged.  The tables were written without pruning
 * (prune.h): the pruned Unicorn sweeps matching them, cell by cell,
 * counts included, is the test that pruning changes no verdict, no
 * counterexample and no count; they must also have pruned something, and
 * --no-prune nothing.  (Bound 3 also runs with --no-prune, so that the
 * unpruned exploration keeps being checked against its table.)  A failing
 * sweep says which columns changed in how many rows, with examples.  A
 * change meant to alter verdicts regenerates the tables and states the
 * difference in review:
 *
 *   cp -r tests/golden /tmp/golden-before
 *   build/tests/test_verdicts --write tests/golden
 *   build/tests/test_verdicts --diff /tmp/golden-before tests/golden
 *
 * (scripts/verdicts-diff.sh [REV] does the last against a commit's
 * tables.)  `test_verdicts SWEEP` runs one sweep (ctest: one test each).
 * Arches whose reader code is not built (no cross compiler) are left out
 * of the comparison; every cell that runs must be in its table.
 *
 * Owns: the sweeps, a cell's row, writing the tables.  Must not: compare
 * or parse tables itself (golden_diff.c does).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "golden_diff.h"
#include "json_read.h"
#include "line_actions.h"
#include "session.h"

#define GOLDEN SELFMON_SRC "/tests/golden"

static const struct sweep {
	const char *name;
	unsigned bound;
	const char *engine;
	int prunes;        /* 1: some schedule must be pruned (at bound 2
	                    * none is: no two depth-1 states are equal);
	                    * 0: none may be; -1: either */
	const char *more;  /* more options; the golden rows are the same */
} sweeps[] = {
	{ "bound2_unicorn", 2, "unicorn", -1, "" },
	{ "bound2_native", 2, "native", 0, "" },
	{ "bound3_unicorn", 3, "unicorn", 1, "" },
	{ "bound3_native", 3, "native", 0, "" },
	{ "bound3_unicorn_no_prune", 3, "unicorn", 0, "--no-prune" },
};
#define NGOLDEN 4 /* the sweeps that write the file */

static const char *field(const struct jr_value *cell, const char *key)
{
	const struct jr_value *v = jr_get(cell, key);
	const char *s = jr_str(v);

	if (s)
		return s;
	return v && v->type == JR_NUMBER ? v->text : "";
}

/* A number of the cell's object o, as its text ("" if none). */
static const char *num_text(const struct jr_value *o, const char *key)
{
	const struct jr_value *v = jr_get(o, key);
	return v && v->type == JR_NUMBER ? v->text : "";
}

/* The cell's result as its fields, not its sentence, so that rewording
 * a sentence changes no row: each wrong value as
 * field=value[lo..hi], its offset (+2^k above, -2^k below) and cause;
 * a fault as its kind and addresses; then the missing isb (its msr and
 * mrs addresses, the counters selected and read); a verdict without
 * fields (PASS,
 * LIVELOCK, selfmon's own) by its detail, which says only counts. */
static void result_of(const struct jr_value *cell, char *out, size_t n)
{
	const struct jr_value *wrong = jr_get(cell, "wrong"),
	                      *fault = jr_get(cell, "fault");
	size_t used = 0;

	out[0] = 0;
	for (size_t i = 0; wrong && i < wrong->n && used < n; i++) {
		const struct jr_value *x = &wrong->items[i];
		const struct jr_value *burst = jr_get(x, "burst");
		used += (size_t)snprintf(out + used, n - used, "%s%s=%s[%s..%s]",
		                         i ? ";" : "", field(x, "field"),
		                         num_text(x, "value"), num_text(x, "truth_lo"),
		                         num_text(x, "truth_hi"));
		if (used < n && *num_text(x, "offset_bits"))
			used += (size_t)snprintf(out + used, n - used, "%s2^%s:%s",
			                         strcmp(field(x, "offset"), "above")
			                         ? "-" : "+", num_text(x, "offset_bits"),
			                         field(x, "cause"));
		if (used < n && burst && burst->type == JR_BOOL && burst->b)
			used += (size_t)snprintf(out + used, n - used, ",burst");
	}
	if (fault && used < n)
		used += (size_t)snprintf(out + used, n - used, "fault:%s pc=%s "
		                         "address=%s", field(fault, "kind"),
		                         num_text(fault, "pc"),
		                         num_text(fault, "address"));
	const struct jr_value *isb = jr_get(cell, "missing_isb");
	if (isb && used < n)
		used += (size_t)snprintf(out + used, n - used, ";missing_isb:"
		                         "msr=%s,mrs=%s,selected=%s,read=%s",
		                         num_text(isb, "msr_pc"),
		                         num_text(isb, "mrs_pc"),
		                         num_text(isb, "selected"),
		                         num_text(isb, "read"));
	if (!wrong && !fault)
		snprintf(out, n, "%s", field(cell, "detail"));
	assert_true(used < n);
}

/* One cell's row: what a regression would change (golden_column: the
 * sweep's bound and engine, the cell's fields, its result). */
static char *row_of(const struct sweep *w, const struct jr_value *cell)
{
	enum { FIRST = 2, LAST = GOLDEN_COLUMNS - 1 }; /* the cell's fields */
	char result[2048];
	result_of(cell, result, sizeof(result));
	size_t len = 64 + strlen(result);
	for (size_t k = FIRST; k < LAST; k++)
		len += strlen(field(cell, golden_column[k])) + 1;
	char *line = malloc(len);
	assert_non_null(line);
	int used = snprintf(line, len, "%u\t%s", w->bound, w->engine);
	for (size_t k = FIRST; k < LAST; k++) {
		const char *f = field(cell, golden_column[k]);
		assert_null(strpbrk(f, "\t\n")); /* the file's separators */
		used += snprintf(line + used, len - (size_t)used, "\t%s", f);
	}
	assert_null(strpbrk(result, "\t\n"));
	snprintf(line + used, len - (size_t)used, "\t%s", result);
	return line;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		return NULL;
	do {
		if (cap - n < 65536) {
			cap = cap ? 2 * cap : 1 << 20;
			buf = realloc(buf, cap + 1);
			assert_non_null(buf);
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* Every cell as expected, and each declared failure first shows at its
 * declared least bound with exactly its declared actions (list.h): the
 * corpus's rows hold at this bound too. */
static void expectations_hold(const struct sweep *w, const struct jr_value *cell)
{
	const char *want = field(cell, "expected_least_bound");
	const struct jr_value *ok = jr_get(cell, "as_expected");

	if (!ok || ok->type != JR_BOOL || !ok->b)
		fail_msg("%s: %s in %s: %s, expected %s", w->name,
		         field(cell, "reader"), field(cell, "scenario"),
		         field(cell, "verdict"), field(cell, "expected"));
	if (!strcmp(field(cell, "expected"), "-"))
		fail_msg("%s: %s in %s has no expectation", w->name,
		         field(cell, "reader"), field(cell, "scenario"));
	if (!*want)
		return;
	if (strcmp(field(cell, "least_bound"), want) ||
	    line_actions(field(cell, "counterexample")) !=
	    sm_expect_actions(field(cell, "expected_needs")))
		fail_msg("%s: %s in %s first fails at bound %s with %s, declared "
		         "at %s with \"%s\"", w->name, field(cell, "reader"),
		         field(cell, "scenario"), field(cell, "least_bound"),
		         field(cell, "counterexample"), want,
		         field(cell, "expected_needs"));
}

/* The sweep as bin computes it; *pruned: the schedules it pruned.  With
 * judge, every cell must hold to its expectation. */
static void run_sweep(const char *bin, const struct sweep *w,
                      struct golden_rows *out, uint64_t *pruned, bool judge)
{
	char tmp[] = "/tmp/selfmon-verdicts-XXXXXX", cmd[1024], err[256];
	int fd = mkstemp(tmp);
	struct jr_value doc;
	size_t len = 0;

	assert_true(fd >= 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), "'%s' check --no-traces --json -j 2 "
	         "--time-limit 0 --bound %u --engine %s %s > %s 2>/dev/null", bin,
	         w->bound, w->engine, w->more, tmp);
	int rc = system(cmd);
	char *text = slurp(tmp, &len);
	unlink(tmp);
	assert_non_null(text);
	if (jr_parse(text, len, &doc, err, sizeof(err)) < 0)
		fail_msg("%s (exit status %d): bad JSON: %s", cmd, rc, err);
	free(text);
	const struct jr_value *cells = jr_get(&doc, "cells");
	assert_non_null(cells);
	assert_int_equal(cells->type, JR_ARRAY);
	*pruned = 0;
	if (judge && rc != 0)
		fail_msg("%s: exit status %d", cmd, rc);
	for (size_t i = 0; i < cells->n; i++) {
		if (judge)
			expectations_hold(w, &cells->items[i]);
		golden_push(out, row_of(w, &cells->items[i]));
		*pruned += strtoull(field(&cells->items[i], "pruned"), NULL, 10);
	}
	golden_sort(out);
	jr_free(&doc);
}

/* The file of a sweep's golden rows. */
static void table_path(const char *dir, const struct sweep *w, char *path,
                       size_t n)
{
	snprintf(path, n, "%s/verdicts-%s-%u.tsv", dir, w->engine, w->bound);
}

/* The golden rows of one sweep, of the arches that ran. */
static void golden(const struct sweep *w, const struct golden_rows *ran,
                   struct golden_rows *out)
{
	struct golden_rows all = { 0 };
	char path[4096], err[512], prefix[32];

	table_path(GOLDEN, w, path, sizeof(path));
	if (golden_read(path, &all, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	int np = snprintf(prefix, sizeof(prefix), "%u\t%s\t", w->bound, w->engine);
	for (size_t k = 0; k < all.n; k++) {
		const char *l = all.line[k];
		if (strncmp(l, prefix, (size_t)np))
			fail_msg("%s: a row of another sweep: %.40s", path, l);
		size_t arch = strcspn(l + np, "\t");
		bool built = false;
		for (size_t i = 0; i < ran->n && !built; i++)
			built = !strncmp(ran->line[i] + np, l + np, arch + 1);
		if (built)
			golden_push(out, strdup(l));
	}
	golden_free(&all);
	golden_sort(out);
}

static void test_sweep(void **state)
{
	const struct sweep *w = *state;
	struct golden_rows now = { 0 }, want = { 0 };
	struct golden_diff d;
	uint64_t pruned;
	char path[4096];

	run_sweep(SELFMON_BIN, w, &now, &pruned, true);
	if (w->prunes >= 0 && (pruned != 0) != w->prunes)
		fail_msg("%s: %llu schedules pruned", w->name,
		         (unsigned long long)pruned);
	golden(w, &now, &want);
	assert_true(now.n > 0);
	size_t differ = golden_compare(&want, &now, &d, NULL, 0);
	if (differ) {
		/* old: the file; new: this run */
		golden_compare(&want, &now, &d, stdout, 5);
		fflush(stdout);
	}
	golden_free(&now);
	golden_free(&want);
	table_path(GOLDEN, w, path, sizeof(path));
	if (differ)
		fail_msg("%zu rows differ from %s (%s; old: the file, new: this "
		         "run)", differ, path, w->name);
}

/* --write DIR [BIN]: the golden sweeps' tables, one file each. */
static int write_golden(const char *dir, const char *bin)
{
	for (size_t k = 0; k < NGOLDEN; k++) {
		char path[4096];
		table_path(dir, &sweeps[k], path, sizeof(path));
		FILE *f = fopen(path, "w");
		if (!f)
			return perror(path), 2;
		fprintf(f, "# selfmon's verdict table at bound %u on %s, the "
		        "regression oracle of tests/test_verdicts.c:\n#",
		        sweeps[k].bound, sweeps[k].engine);
		for (size_t c = 0; c < GOLDEN_COLUMNS; c++)
			fprintf(f, " %s", golden_column[c]);
		fputc('\n', f);
		struct golden_rows r = { 0 };
		uint64_t pruned;
		run_sweep(bin, &sweeps[k], &r, &pruned, false);
		for (size_t i = 0; i < r.n; i++)
			fprintf(f, "%s\n", r.line[i]);
		golden_free(&r);
		if (fclose(f))
			return perror(path), 2;
	}
	return 0;
}

/* --diff OLD NEW: what the tables (files or directories) differ in; 0
 * none, 1 some rows, 2 a table not read. */
static int diff_tables(const char *old, const char *new)
{
	struct golden_rows a = { 0 }, b = { 0 };
	struct golden_diff d;
	char err[512];
	int rc = 2;

	if (golden_read(old, &a, err, sizeof(err)) < 0 ||
	    golden_read(new, &b, err, sizeof(err)) < 0)
		fprintf(stderr, "test_verdicts: %s\n", err);
	else
		rc = golden_compare(&a, &b, &d, stdout, 10) ? 1 : 0;
	golden_free(&a);
	golden_free(&b);
	return rc;
}

int main(int argc, char **argv)
{
	struct CMUnitTest t[sizeof(sweeps) / sizeof(sweeps[0])];
	size_t n = 0;

	if (argc >= 3 && !strcmp(argv[1], "--write"))
		return write_golden(argv[2], argc > 3 ? argv[3] : SELFMON_BIN);
	if (argc == 4 && !strcmp(argv[1], "--diff"))
		return diff_tables(argv[2], argv[3]);
	for (size_t k = 0; k < sizeof(sweeps) / sizeof(sweeps[0]); k++)
		if (argc < 2 || !strcmp(argv[1], sweeps[k].name))
			t[n++] = (struct CMUnitTest){ sweeps[k].name, test_sweep, NULL,
			                              NULL, (void *)&sweeps[k] };
	if (!n || argc > 2) {
		fprintf(stderr, "test_verdicts: usage: test_verdicts [SWEEP] | "
		        "--write DIR [SELFMON] | --diff OLD NEW (SWEEP: bound2_unicorn, "
		        "bound2_native, bound3_unicorn, bound3_native, "
		        "bound3_unicorn_no_prune)\n");
		return 2;
	}
	return _cmocka_run_group_tests("test_verdicts", t, n, NULL, NULL);
}
