/*
 * timeline.h — a scenario drawn as a timeline a learner can read without
 * the docs (`selfmon plot`, and the timeline of the HTML page).
 *
 * Owns: sampling the model over the scenario (the first event's true
 * count, enabled and running; every event's page index; every page update
 * with its cause), optionally one reader call with its observation points
 * and verdict, and drawing them as SVG: labelled axes with units, indexes
 * in the ABI's notation (notation.h), each index labelled one way, every
 * page update and kernel action marked and named, where the timer wraps,
 * grid lines that pass around labels, a legend, a layout sized to its
 * content.  The call's zoom draws the judged result's fields (struct
 * sm_result): a value 2^k off the truth as that offset, running > enabled
 * as the two values, a FAULT as no value; on a page its verdict marks are
 * grouped (class tl-verdict) for page.js to show once the reader has
 * returned.  It decides nothing about the kernel or the reader.
 */
#ifndef SELFMON_TIMELINE_H
#define SELFMON_TIMELINE_H

#include <stdbool.h>
#include <stdio.h>

#include "session.h"

struct sm_timeline_call {
	const struct sm_reader *reader;
	enum sm_engine_kind engine;
	const struct sm_schedule *sched;
};

struct sm_timeline_opts {
	bool in_html;      /* inline in a page: no XML prolog, a cursor */
	unsigned dropped;  /* scripted lines skipped (--drop-scripted) */
	bool kernel_mark;  /* name the kernel in the title even when base
	                    * (a variant is always named) */
};

/* Which value the zoom of a call draws, from the result's fields: the
 * truth curve (0 count, 1 enabled, 2 running: the first wrong field, the
 * count when none) and the returned value drawn over it (the same, or,
 * for running > enabled, the returned running over enabled's truth). */
void sm_timeline_zoom(const struct sm_result *r, int *curve, int *shown);

/* Draw scn (with one call when call is not NULL) to f: 0, or -1 with the
 * reason in err (the model's or the reader's). */
int sm_timeline_svg(FILE *f, const struct sm_scenario *scn,
                    const struct sm_timeline_call *call,
                    const struct sm_timeline_opts *o, char *err, size_t n);

#endif
