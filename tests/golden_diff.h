/*
 * golden_diff.h — the verdict tables of tests/golden/ (verdicts-ENGINE-
 * BOUND.tsv, written and read by test_verdicts.c) as rows, and what two
 * of them differ in: cells matched by their key (bound, engine, arch,
 * reader, scenario, kernel), each changed column counted, the verdict
 * changes listed.
 *
 * Owns: the tables' columns, reading a table (a file, or a directory's
 * verdicts-*.tsv), the comparison and its report.  Must not: run selfmon
 * or judge a cell (test_verdicts.c does), or write a table.
 */
#ifndef SELFMON_GOLDEN_DIFF_H
#define SELFMON_GOLDEN_DIFF_H

#include <stdio.h>
#include <stddef.h>

/* The columns of a row, in order; the first GOLDEN_KEY name its cell. */
enum { GOLDEN_COLUMNS = 14, GOLDEN_KEY = 6 };
extern const char *const golden_column[GOLDEN_COLUMNS];

/* A table: one line a cell, tab-separated, in key order once sorted. */
struct golden_rows {
	char **line;
	size_t n, cap;
};

/* Appends line (malloc'ed; the table owns it). */
void golden_push(struct golden_rows *r, char *line);
/* Sorts the rows by their key. */
void golden_sort(struct golden_rows *r);
void golden_free(struct golden_rows *r);

/* Reads path's rows (a table file, or every verdicts-*.tsv of a
 * directory; '#' lines skipped) into r, sorted.  0, or -1 with one line
 * in err saying why (cannot read it, a row without 14 columns, a cell
 * twice). */
int golden_read(const char *path, struct golden_rows *r, char *err, size_t n);

/* What the rows of want and now differ in. */
struct golden_diff {
	size_t rows;                    /* cells in both */
	size_t changed;                 /* of them, with a column changed */
	size_t column[GOLDEN_COLUMNS];  /* rows changed in each column */
	size_t only_want, only_now;     /* cells in one table only */
};

/* Compares want (the golden rows, "old") with now ("new"): fills d and,
 * if out is not NULL, writes the report there: the summary (the first
 * line says "no row changed", or "verdicts unchanged, N rows changed only
 * in column X" or "... in columns: X N rows, Y M rows", or how many
 * verdicts changed), every verdict change, then up to examples changed
 * rows with each changed column's old and new value, and up to examples
 * cells of each table alone.  Returns the rows that differ (changed or in
 * one table only). */
size_t golden_compare(const struct golden_rows *want,
                      const struct golden_rows *now, struct golden_diff *d,
                      FILE *out, unsigned examples);

#endif
