/*
 * cex_trace.h — the counterexample trace: the file `check` writes for
 * each failing cell (TRACES/READER-SCENARIO-ENGINE.trace) and `replay
 * FILE` reads.
 *
 *   # selfmon counterexample; re-run it with: selfmon replay PATH [--explain]
 *   schedule LINE    the minimised failing schedule (schedule_line.h)
 *   verdict V        its verdict (verdict.h names)
 *   detail TEXT      the result's sentence, one line
 *   found LINE       the schedule as the exploration first found it
 *   selfmon V        the version of selfmon that wrote it
 *   object HASH      SHA-256 (64 lowercase hex digits) of the reader's
 *                    code: a user's reader, its object file; a built-in
 *                    one run in Unicorn, this selfmon's code of the arch
 *                    (sm_blob); none for a built-in one run natively
 *   scenario HASH    SHA-256 of the scenario file
 *
 * A line is a key and its value, the rest of the line after one space;
 * each key at most once, `schedule` required; a line whose first byte
 * that is not a space is '#' is a comment.  Lines are printable, at most
 * SM_CEX_LINE_MAX bytes; an error is one line, "FILE:LINE:COL: message"
 * (util/lines.h).
 */
#ifndef SELFMON_CEX_TRACE_H
#define SELFMON_CEX_TRACE_H

#include <stddef.h>
#include <stdio.h>

#include "schedule_line.h"
#include "verdict.h"

#define SM_CEX_LINE_MAX (SM_SCHEDULE_MAX + 16) /* "schedule " and a line */

struct sm_cex_trace {
	char *schedule;   /* never NULL once read */
	int verdict;      /* enum sm_verdict; -1 without a verdict line */
	char *detail;     /* NULL without a detail line */
	char *found;      /* NULL without a found line */
	char *version;    /* NULL without a selfmon line */
	char *object;     /* NULL without an object line */
	char *scenario;   /* NULL without a scenario line */
};

/* The trace t to f (its schedule and verdict required; the other fields
 * written when not NULL), naming `path` in its comment; the detail is
 * made printable (input.h).  0, or -1 out of memory (nothing written). */
int sm_cex_trace_write(FILE *f, const char *path,
                       const struct sm_cex_trace *t);

/* Parse a trace's text (`name` for messages), each schedule line checked
 * by sm_schedule_parse(): 0, or -1 with one line in err. */
int sm_cex_trace_parse(const char *name, const char *text,
                       struct sm_cex_trace *t, char *err, size_t n);
/* Read and parse the trace file at path (a regular file within
 * SM_TRACE_MAX_BYTES, no NUL byte; input.h): 0, or -1 with one line in
 * err, "PATH: why" or "PATH:LINE:COL: message". */
int sm_cex_trace_load(const char *path, struct sm_cex_trace *t, char *err,
                      size_t n);
void sm_cex_trace_free(struct sm_cex_trace *t);

#endif
