/*
 * hw_report.h — the report of a `selfmon hw` run, on this machine or in a
 * guest of `selfmon vm`: the machine, every page, each reader's tally (as
 * text, and as JSON with --json), and what the checks found.
 *
 * Owns the rendering only; the run is data (sim/hw/hw_run.h).
 */
#ifndef SELFMON_HW_REPORT_H
#define SELFMON_HW_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "hw_run.h"

struct hw_outcome {
	unsigned bad, hung;  /* reader disagreements that count, hangs */
};

/* The report: text to f; with json the JSON document on stdout.  `title`
 * heads it ("selfmon hw"); `named`: the readers were named (each one's
 * failure counts, else only the reference reader's). */
void hw_report(FILE *f, bool json, const char *title, bool named,
               const struct hw_run *run, struct hw_outcome *out);

#endif
