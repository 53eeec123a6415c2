/*
 * table.h — the verdict table's rows and summary, as `check` and `merge`
 * print them.
 *
 * Owns: the columns, their widths and the marks after an unexpected row;
 * the count of the cells' outcomes, the summary line's counts, the JSON
 * document's closing counts and the exit status they give; so the two
 * commands cannot drift apart.  It must not know where a row's
 * values come from (a finished cell, or a shard's JSON).
 */
#ifndef SELFMON_TABLE_H
#define SELFMON_TABLE_H

#include <stdbool.h>
#include <stdint.h>

struct sm_table_row {
	const char *reader, *scenario;
	const char *verdict;      /* its name */
	const char *expected;     /* the expected verdict's name, or "-" */
	bool as_expected, unjudged, incomplete, unsupported;
	uint64_t runs;
	const char *cex;          /* the minimised schedule, or NULL */
	const char *error;        /* non-NULL: selfmon's ERROR, this detail */
};

#define SM_TABLE_COL 18 /* width of the reader and scenario columns */

/* s cut to SM_TABLE_COL characters by its middle (into buf when it must
 * be cut), so a table stays aligned. */
const char *sm_table_fit(const char *s, char buf[SM_TABLE_COL + 1]);
/* The header line of the columns. */
void sm_table_columns(void);
void sm_table_row(const struct sm_table_row *r);

/* The cells' outcomes (`outcome` in check --json), and their schedules. */
struct sm_tally {
	unsigned as_expected, unexpected, incomplete, unsupported, unjudged;
	unsigned errors;
	uint64_t runs;
};
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
