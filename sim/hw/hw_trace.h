/*
 * hw_trace.h — the hw trace format: what `selfmon hw record` writes and
 * `selfmon model --compare` reads.
 *
 * A text file, one record a line ('#' starts a comment line):
 *
 *   arch x86_64                      the machine (once)
 *   cpus 2                           its online CPUs (once)
 *   event task-clock [software]      the recorded events (before records)
 *   at T page EVENT KEY=VALUE...     a change the poller saw
 *   at T mark EVENT KEY=VALUE...     the page as the recorded thread read it
 *   at T switches open|before|after count=N
 *   at T action NAME [event=EVENT] [cpu=N]
 *   at T read EVENT count=N enabled=N running=N
 *
 * T is ns since the recording started; a page's keys are the page fields
 * by their ABI names (see page_keys in hw_trace.c), each at most once.
 * Numbers are decimal or 0x-hex, a page's offset may be negative.
 */
#ifndef SELFMON_HW_TRACE_H
#define SELFMON_HW_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hw_event.h"
#include "model.h"

/* The caps of a hw trace (besides its size, SM_TRACE_MAX_BYTES, and its
 * lines, HW_TRACE_LINE_MAX - 1 bytes): its events, the actions it
 * records, the context switches one `switches` line may add to the count
 * before it, and the preemptions the comparison replays in all (a switch
 * count split around an action is replayed once per split). */
#define HW_TRACE_LINE_MAX 600
#define HW_TRACE_MAX_EVENTS 8
#define SM_TRACE_MAX_ACTIONS 1000
#define SM_TRACE_MAX_SWITCHES 10000
#define SM_TRACE_MAX_PREEMPTIONS 200000

/* ---- writing ---------------------------------------------------------- */

struct hw_trace_rec {
	uint64_t t;   /* ns since the start */
	size_t seq;   /* order of logging: ties in t keep it */
	char *text;   /* the record after "at T " (malloc'ed) */
};

/* Each record's text, malloc'ed; NULL when out of memory. */
char *hw_trace_page_text(const char *kind, const char *event,
                         const struct perf_event_mmap_page *p);
char *hw_trace_switches_text(const char *when, long count);
char *hw_trace_action_text(const char *what, const char *event, int cpu);
char *hw_trace_read_text(const char *event, const uint64_t v[3]);

/* The header (naming `path` in its comment), the events and the records
 * sorted by time (r is sorted in place). */
void hw_trace_write(FILE *f, const char *path, const struct hw_event *ev,
                    unsigned nev, struct hw_trace_rec *r, size_t n);

/* ---- reading ---------------------------------------------------------- */

enum hw_rec_kind { HW_REC_PAGE, HW_REC_MARK, HW_REC_SWITCHES, HW_REC_ACTION,
                   HW_REC_READ };
enum hw_switches { HW_SW_OPEN, HW_SW_BEFORE, HW_SW_AFTER };

#define HW_TRACE_MAX_KEYS 14

struct hw_trace_line {
	uint64_t t;
	unsigned line;        /* in the file, from 1 */
	unsigned col;         /* switches: of its count; else the line's end */
	enum hw_rec_kind kind;
	int event;            /* page, mark, read: its event; action: event=,
	                         -1 if none */
	int action;           /* action: enum sm_action_kind */
	enum hw_switches sw;  /* switches: when */
	uint64_t v[HW_TRACE_MAX_KEYS]; /* the kind's keys, in its key order */
	uint32_t have;        /* bit k: key k was given */
};

struct hw_trace {
	const char *name;
	enum sm_arch arch;
	unsigned ncpus, nev;
	char ev[HW_TRACE_MAX_EVENTS][SM_NAME_MAX];
	bool software[HW_TRACE_MAX_EVENTS];
	struct hw_trace_line *l;
	size_t n;
};

/* Parse a trace's text (`name` for messages): 0, or -1 with one line in
 * err, "NAME:LINE:COL: message" (or "NAME: message" for the trace as a
 * whole: no events, no marks). */
int hw_trace_parse(const char *name, const char *text, struct hw_trace *t,
                   char *err, size_t errlen);
void hw_trace_free(struct hw_trace *t);
/* The value of `key` on line l; false if the line does not give it. */
bool hw_trace_value(const struct hw_trace_line *l, const char *key,
                    uint64_t *v);
/* May a trace name an event `s` (1 to 31 of A-Z a-z 0-9 _ . -)? */
bool hw_trace_name_ok(const char *s);
/* The trace's event named `name`, or -1. */
int hw_trace_event(const struct hw_trace *t, const char *name);

#endif
