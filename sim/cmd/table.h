/*
 * table.h — the verdict table's rows and summary, as `check` and `merge`
 * print them (through render.c).
 *
 * Owns: the columns, their widths and the marks after an unexpected row
 * or a cell that never judged the counter path; the summary line's
 * counts, the JSON document's closing counts and the exit status they
 * give.  It must not know where a cell report comes from (a finished
 * cell, or a shard's JSON).
 */
#ifndef SELFMON_TABLE_H
#define SELFMON_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "cell_report.h"

#define SM_TABLE_COL 18 /* width of the reader and scenario columns */

/* s cut to SM_TABLE_COL characters by its middle (into buf when it must
 * be cut), so a table stays aligned. */
const char *sm_table_fit(const char *s, char buf[SM_TABLE_COL + 1]);
/* The header line of the columns. */
void sm_table_columns(void);
/* How many leading bytes all the readers' names in the table share
 * (sm_cell_report_name()), when some name is too long for its column and
 * there are two names or more: the part that tells them apart follows
 * it.  0 otherwise. */
size_t sm_table_common_prefix(const struct sm_cell_report *cells, size_t n);
/* A cell's row: its error, or its verdict, least bound, expectation,
 * schedules and minimised counterexample, and the marks; a reader's name
 * too long for its column loses the `skip` bytes all names share (shown
 * as ".."), then its middle. */
void sm_table_row(const struct sm_cell_report *c, size_t skip);

/* The summary line up to its counts: "\nN cells: A as expected, U
 * unexpected[, ...]"; the caller ends it ("; ... schedules ..."). */
void sm_table_summary(uint64_t cells, const struct sm_tally *t);
struct json;
/* The counts that close check's JSON document (and merge's). */
void sm_table_json_counts(struct json *js, const struct sm_tally *t);
/* check's exit status for these outcomes: 2 some could not run, 1 some
 * unexpected, 4 UNSUPPORTED, 3 INCOMPLETE, else 0. */
int sm_table_status(const struct sm_tally *t);

#endif
