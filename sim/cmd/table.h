/*
 * table.h — the verdict table's rows, as `check` and `merge` print them.
 *
 * Owns: the columns, their widths and the marks after an unexpected row,
 * so the two commands cannot drift apart.  It must not know where a row's
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

#endif
