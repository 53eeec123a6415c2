/*
 * table.h — the verdict table's rows and summary, as `check` and `merge`
 * print them.
 *
 * Owns: the columns, their widths and the marks after an unexpected row
 * or a cell that never judged the counter path;
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
	int least_bound;          /* a failure's (explore.h), -1: none */
	uint64_t counter_path;    /* of runs, on the counter path (explore.h) */
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

/* How a cell counts in the summary and the exit status: the JSON's
 * "outcome", derived from its primary fields here alone, by check when
 * it writes a cell and by merge when it reads one back. */
enum sm_outcome {
	SM_OC_AS_EXPECTED, SM_OC_UNEXPECTED, SM_OC_INCOMPLETE, SM_OC_UNSUPPORTED,
	SM_OC_UNJUDGED, SM_OC_ERROR, SM_NOUTCOMES
};
extern const char *const sm_outcome_name[SM_NOUTCOMES];
int sm_outcome_from_name(const char *s); /* -1: none */
/* A cell's primary fields: selfmon's own error (the cell could not run),
 * its verdict (an enum sm_verdict), the verdict expected of it and
 * whether it is held to it (unjudged: not, under an action filter). */
struct sm_cell_facts {
	bool error, unjudged;
	int verdict, expected;
};
enum sm_outcome sm_cell_outcome(const struct sm_cell_facts *f);
/* Not every schedule judged where PASS was expected, or UNSUPPORTED (the
 * table's "not every schedule judged" mark, JUnit's skipped case). */
bool sm_cell_incomplete(const struct sm_cell_facts *f);
/* "as_expected" in the JSON. */
bool sm_cell_as_expected(const struct sm_cell_facts *f);

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
