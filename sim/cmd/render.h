/*
 * render.h — a sweep's reports (cell_report.h) in every output `check`
 * and `merge` give: the verdict table with the details after it and the
 * summary, the JSON document, TAP and JUnit.  check is run -> reports ->
 * render, merge is parse -> reports -> render, so a merge of the shards
 * prints what check prints of the whole sweep.
 *
 * Owns: the order and layout of each output (the table's headers and the
 * filter's lines, the JSON's members, the summary's end) and the errors
 * of writing them.  It must not know how a cell was run or read; the
 * rows, the details blocks and the CI formats are table.c's, details.c's
 * and report.c's.
 */
#ifndef SELFMON_RENDER_H
#define SELFMON_RENDER_H

#include "cell_report.h"
#include "outfile.h"

/* The table, the details and the summary on stdout: 0, or -1 after the
 * line "CMD: out of memory" (the details are then missing). */
int sm_render_text(const struct sm_sweep_report *s, const char *cmd);
/* The JSON document on stdout. */
void sm_render_json(const struct sm_sweep_report *s);
/* TAP on stdout: 0, or -1 after one line on stderr. */
int sm_render_tap(const struct sm_sweep_report *s, const char *cmd);
/* The outputs given to check or merge: at most one of --tap, --json and
 * a --junit of standard output may have it: 0, or 2 after the line "CMD:
 * --tap and --json both want standard output: give one" (or --junit's). */
int sm_outputs_check(const char *cmd, bool tap, bool json, const char *junit);
/* Does the text table go to standard output (no TAP, JSON or JUnit
 * there)? */
bool sm_outputs_text(bool tap, bool json, const char *junit);
/* Standard output's document: TAP, JSON, or the text table when
 * sm_outputs_text(); nothing when JUnit has it.  0, or -1 after one line
 * on stderr. */
int sm_render_stdout(const struct sm_sweep_report *s, bool tap, bool json,
                     const char *junit, const char *cmd);
/* JUnit into the open o, which it closes (written whole, or not at all):
 * 0, or -1 after one line on stderr naming path. */
int sm_render_junit(const struct sm_sweep_report *s, struct sm_out *o,
                    const char *path, const char *cmd);

#endif
