/*
 * hw_run.h — one `selfmon hw` run as data: the machine, every event's page
 * as it was opened, and each reader's tally on each event; made here
 * (hw_run_here()) or read back from the lines a guest of `selfmon vm`
 * printed (hw_run_parse()), so that both are reported by one renderer.
 *
 * Owns: choosing the events (the software ones always; with a PMU a
 * pinned pair and a set larger than the counters, multiplexed), running
 * hw_check_reader() for every reader on every event that opened, and the
 * wire format of a run (hw_run_write(), hw_run_parse()).  It must not
 * print a report: that is the command's (sim/cmd/hw_report.c).
 *
 * The wire format: lines "@selfmon KIND KEY=VALUE..." (any other line is
 * the guest kernel's console and ignored), in this order: `begin` with
 * the format's version, `machine`, one `event` a checked event, one
 * `check` a reader on an event, `end` with how many checks came before.
 * Text values are percent-encoded (every byte outside '!'..'~', and '%'
 * itself, as %XX), so a value is one token.  The guest is untrusted: the
 * parser takes at most HW_RUN_MAX_EVENTS events and HW_RUN_MAX_CHECKS
 * checks, names only the built-in readers and the user's the host sent, and reports the first bad line
 * as NAME:LINE:COL.
 */
#ifndef SELFMON_HW_RUN_H
#define SELFMON_HW_RUN_H

#include <stdio.h>

#include "hw_check.h"
#include "hw_event.h"
#include "reader.h"

#define HW_RUN_MAX_EVENTS 32
#define HW_RUN_MAX_CHECKS 2048
#define HW_RUN_VERSION 1

struct hw_run_event {
	char name[32];
	bool pinned, software;
	int err;                 /* -errno of opening it; 0: open */
	bool have_page;          /* the page's header settled when opened */
	struct perf_event_mmap_page page;
};

struct hw_run_check {
	const struct sm_reader *reader;
	unsigned event;          /* index into ev[] */
	struct hw_tally t;
};

struct hw_run {
	struct hw_machine m;
	unsigned iterations;
	unsigned slow;           /* the budgets' factor (hw_check.h) */
	unsigned nev;
	struct hw_run_event ev[HW_RUN_MAX_EVENTS];
	unsigned nchecks;
	struct hw_run_check *checks;  /* malloc'ed */
};

/* Check readers[0..n) on this machine's events, `iterations` reads each:
 * 0, or -1 out of memory, the budgets `slow` times hw_check.h's.  Free
 * with hw_run_free(). */
int hw_run_here(struct hw_run *run, const struct sm_reader *const *readers,
                unsigned n, unsigned iterations, unsigned slow);
void hw_run_free(struct hw_run *run);

/* The run as wire lines. */
void hw_run_write(FILE *f, const struct hw_run *run);
/* The run from a guest's output (NAME names it in messages): 0, or -1
 * with "NAME:LINE:COL: message" (or "NAME: message") in err.  The guest
 * names the user's readers the host sent it "user:K", K indexing
 * users[0..nusers). */
int hw_run_parse(const char *name, const char *text,
                 const struct sm_reader *const *users, unsigned nusers,
                 struct hw_run *run, char *err, size_t errlen);

#endif
