/*
 * report.h — `check`'s results in the formats CI systems read: JUnit XML
 * (`--junit FILE`) and TAP version 13 (`--tap`, on standard output).
 *
 * Owns: the two formats, their escaping (XML, YAML, TAP descriptions) and
 * how a verdict maps onto their kinds of result, and the replay command
 * line printed for a counterexample.  It must not know check's cells: the
 * command hands it one plain sm_report_case per cell.
 */
#ifndef SELFMON_REPORT_H
#define SELFMON_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* What a cell is for a CI system.  PASS also covers a built-in reader
 * that got the failing verdict it is declared to get. */
enum sm_case_kind {
	SM_CASE_PASS,
	SM_CASE_FAILURE,   /* a reader failed or missed its expected verdict */
	SM_CASE_ERROR,     /* selfmon's own error: the cell could not run */
	SM_CASE_SKIPPED,   /* INCOMPLETE or UNSUPPORTED: not judged in full */
};

/* One wrong value of a cell, as plain data (the command fills it from
 * session.h's struct sm_wrong with the names of its enums). */
struct sm_report_wrong {
	const char *field;             /* "count", "enabled", ... */
	int64_t rc;                    /* field "rc": the error returned */
	uint64_t value, truth_lo, truth_hi;
	unsigned offset_bits;          /* 0: no exact power-of-two offset */
	const char *offset, *cause;    /* "above"/"below", the cause's name */
};

struct sm_report_case {
	const char *arch, *reader, *abi, *scenario;
	const char *verdict, *expected;  /* names; expected "-": none */
	enum sm_case_kind kind;
	const char *detail;              /* the verdict's, or the error */
	const char *found, *minimised;   /* schedule lines, or NULL */
	const char *trace;               /* "" or NULL: none written */
	uint64_t schedules, blocked;
	uint64_t counter_path;           /* schedules on it (explore.h) */
	double seconds;
	/* the result as data: the wrong values, a fault's kind (NULL: none)
	 * and addresses */
	const struct sm_report_wrong *wrong;
	unsigned nwrong;
	const char *fault;
	bool has_pc, has_addr;
	uint64_t fault_pc, fault_addr;
};

struct sm_report {
	const char *engine;
	unsigned bound, random;
	const struct sm_report_case *cases;
	unsigned n;
};

/* Write the whole document to f; 0, or -1 when f reports an error. */
int sm_report_junit(FILE *f, const struct sm_report *r);
int sm_report_tap(FILE *f, const struct sm_report *r);

/* "selfmon replay 'LINE' --explain" with LINE quoted for a POSIX shell,
 * in memory of its own (free() it), or NULL when out of memory. */
char *sm_report_replay(const char *line);

#endif
