/*
 * table.c — one row of the verdict table (see table.h).
 *
 * Owns: the column layout and the names cut to fit it (a reader's by its
 * name, sm_cell_report_name(), what the table's names share cut first).
 * The JSON and the counterexample lines keep whole names.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "table.h"
#include "verdict.h"

#define COL SM_TABLE_COL

const char *sm_table_fit(const char *s, char buf[COL + 1])
{
	size_t n = strlen(s), head = (COL - 3) / 2, tail = COL - 3 - head;

	if (n <= COL)
		return s;
	snprintf(buf, COL + 1, "%.*s...%s", (int)head, s, s + n - tail);
	return buf;
}

size_t sm_table_common_prefix(const struct sm_cell_report *cells, size_t n)
{
	const char *first = NULL;
	size_t common = 0;
	bool distinct = false, long_name = false;

	for (size_t i = 0; i < n; i++) {
		const char *name = sm_cell_report_name(&cells[i]);
		size_t k = 0;
		long_name |= strlen(name) > COL;
		if (!first) {
			first = name;
			common = strlen(name);
			continue;
		}
		while (k < common && first[k] == name[k])
			k++;
		distinct |= k < common || name[k];
		common = k;
	}
	return distinct && long_name ? common : 0;
}

/* A reader's name for its column: its `skip` shared bytes cut first. */
static const char *fit_name(const char *s, size_t skip, char buf[COL + 1])
{
	char rest[COL + 1];

	if (strlen(s) <= COL || !skip)
		return sm_table_fit(s, buf);
	const char *r = sm_table_fit(s + skip, rest);
	if (strlen(r) + 2 <= COL) {
		snprintf(buf, COL + 1, "..%s", r);
		return buf;
	}
	/* still too long: the middle of what follows the shared part */
	size_t n = strlen(s + skip), head = (COL - 5) / 2, tail = COL - 5 - head;
	snprintf(buf, COL + 1, "..%.*s...%s", (int)head, s + skip,
	         s + skip + n - tail);
	return buf;
}

void sm_table_columns(void)
{
	printf("%-18s %-18s %-12s %-2s %-12s %8s  %s\n", "reader", "scenario",
	       "verdict", "k", "expected", "runs", "counterexample (minimised)");
}

static const char *mark(const struct sm_cell_report *c)
{
	return sm_cell_report_as_expected(c) ? ""
	       : c->verdict == SM_V_UNSUPPORTED
	       ? "   <-- selfmon cannot run this reader"
	       : sm_cell_report_incomplete(c) ? "   <-- not every schedule judged"
	                                      : "   <-- UNEXPECTED";
}

/* A cell that found no failure (PASS, INCOMPLETE) says in how many of
 * its schedules the counter path was judged (session.h's criterion), and
 * is marked when in none: its verdict then says nothing of the reader's
 * counter code.  A failure's counterexample says enough. */
static void counter_note(const struct sm_cell_report *c)
{
	if (c->verdict != SM_V_PASS && c->verdict != SM_V_INCOMPLETE)
		return;
	printf("  (counter path in %" PRIu64 " of %" PRIu64 " schedules)",
	       c->counter_path, c->schedules);
	if (!c->counter_path)
		printf("   <-- counter never read: only other paths (read(2), "
		       "the page alone) were judged");
}

void sm_table_row(const struct sm_cell_report *c, size_t skip)
{
	char rb[COL + 1], sb[COL + 1];
	const char *rn = fit_name(sm_cell_report_name(c), skip, rb),
	           *sn = sm_table_fit(c->scenario, sb);

	if (c->error) {
		printf("%-18s %-18s %-12s %-2s %-12s %8s  %s\n", rn, sn, "ERROR",
		       "-", sm_cell_report_expected(c), "-", c->detail);
		return;
	}
	char k[12] = "-";
	if (c->least_bound >= 0)
		snprintf(k, sizeof(k), "%d", c->least_bound);
	printf("%-18s %-18s %-12s %-2s %-12s %8" PRIu64 "  %s", rn, sn,
	       sm_verdict_name(c->verdict), k, c->unjudged ? "-"
	       : sm_cell_report_as_expected(c) ? "(as expected)"
	                                       : sm_cell_report_expected(c),
	       c->schedules, c->min ? c->min : "-");
	counter_note(c);
	printf("%s\n", mark(c));
}

void sm_table_summary(uint64_t cells, const struct sm_tally *t)
{
	printf("\n%" PRIu64 " cells: %u as expected, %u unexpected", cells,
	       t->as_expected, t->unexpected);
	if (t->unsupported)
		printf(", %u UNSUPPORTED (an instruction the emulator cannot run)",
		       t->unsupported);
	if (t->unjudged)
		printf(", %u with no declared expectation for this kernel and "
		       "action set", t->unjudged);
	if (t->incomplete)
		printf(", %u INCOMPLETE (not every schedule judged: see the table)",
		       t->incomplete);
	if (t->errors)
		printf(", some could not run");
}

void sm_table_json_counts(struct json *js, const struct sm_tally *t)
{
	json_u64(js, "unexpected", t->unexpected);
	json_u64(js, "incomplete", t->incomplete);
	json_u64(js, "unsupported", t->unsupported);
	json_u64(js, "errors", t->errors);
	json_u64(js, "schedules", t->runs);
}

int sm_table_status(const struct sm_tally *t)
{
	return t->errors ? 2 : t->unexpected ? 1 : t->unsupported ? 4
	       : t->incomplete ? 3 : 0;
}
