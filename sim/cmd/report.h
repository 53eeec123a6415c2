/*
 * report.h — `check`'s results in the formats CI systems read: JUnit XML
 * (`--junit FILE`) and TAP version 13 (`--tap`, on standard output).
 *
 * Owns: the two formats, their escaping (XML, YAML, TAP descriptions) and
 * how each shows a cell's kind (cell_report.h), and the replay command
 * line printed for a counterexample.  It must not know how a cell was run
 * or read: it is handed the sweep's reports (cell_report.h).
 */
#ifndef SELFMON_REPORT_H
#define SELFMON_REPORT_H

#include <stdio.h>

#include "cell_report.h"

/* Write the whole document to f; 0, or -1 when f reports an error. */
int sm_report_junit(FILE *f, const struct sm_sweep_report *r);
int sm_report_tap(FILE *f, const struct sm_sweep_report *r);

/* "PROGRAM replay 'LINE' --explain" with PROGRAM and LINE quoted for a
 * POSIX shell, in memory of its own (free() it), or NULL when out of
 * memory.  PROGRAM is "selfmon" until sm_report_set_program() names the
 * binary (the selfmon command gives its own absolute path, so that the
 * line runs when pasted where selfmon is not on PATH). */
char *sm_report_replay(const char *line);
void sm_report_set_program(const char *path);

#endif
