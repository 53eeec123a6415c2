/*
 * table.c — one row of the verdict table (see table.h).
 *
 * Owns: the column layout and the names cut to fit it.  The JSON and the
 * counterexample lines keep whole names.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "table.h"

#define COL SM_TABLE_COL

const char *sm_table_fit(const char *s, char buf[COL + 1])
{
	size_t n = strlen(s), head = (COL - 3) / 2, tail = COL - 3 - head;

	if (n <= COL)
		return s;
	snprintf(buf, COL + 1, "%.*s...%s", (int)head, s, s + n - tail);
	return buf;
}

void sm_table_columns(void)
{
	printf("%-18s %-18s %-12s %-12s %8s  %s\n", "reader", "scenario",
	       "verdict", "expected", "runs", "counterexample (minimised)");
}

static const char *mark(const struct sm_table_row *r)
{
	return r->as_expected ? ""
	       : r->unsupported ? "   <-- selfmon cannot run this reader"
	       : r->incomplete ? "   <-- not every schedule judged"
	                       : "   <-- UNEXPECTED";
}

void sm_table_row(const struct sm_table_row *r)
{
	char rb[COL + 1], sb[COL + 1];
	const char *rn = sm_table_fit(r->reader, rb),
	           *sn = sm_table_fit(r->scenario, sb);

	if (r->error) {
		printf("%-18s %-18s %-12s %-12s %8s  %s\n", rn, sn, "ERROR",
		       r->expected, "-", r->error);
		return;
	}
	printf("%-18s %-18s %-12s %-12s %8" PRIu64 "  %s%s\n", rn, sn,
	       r->verdict, r->unjudged ? "-" : r->as_expected ? "(as expected)"
	                                                      : r->expected,
	       r->runs, r->cex ? r->cex : "-", mark(r));
}
