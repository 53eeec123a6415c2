/*
 * check_traces.c — check's counterexample trace files: one a failing
 * cell, traces/cex/READER-SCENARIO-ENGINE.trace (--traces DIR), its path
 * kept in the cell for the reports (check.h).
 *
 * Owns: the file's name, and writing it whole or not at all; the text is
 * the trace format's (sim/explore/cex_trace.c, which replay reads with).
 * It must not judge a cell or print a result.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cex_trace.h"
#include "check.h"
#include "commands.h"
#include "outfile.h"

/* traces/cex/READER-SCENARIO-ENGINE.trace, written whole or not at all
 * (outfile.c); 0, or -1 with one line on stderr. */
static int write_trace(const struct plan *p, struct job *j)
{
	char err[256];
	const char *dir = p->o.traces;
	struct sm_out o;

	if (p->o.no_traces || !sm_verdict_fails(j->cell.verdict))
		return 0;
	const char *base = strrchr(j->scn_name, '/');
	const char *rb = strrchr(j->reader->name, '/');
	const char *who = rb ? rb + 1 : j->reader->name;
	int len = snprintf(j->trace, sizeof(j->trace), "%s/%s-%s-%s.trace", dir,
	                   who, base ? base + 1 : j->scn_name,
	                   sm_engine_name(p->o.engine));
	if (len < (int)sizeof(j->trace)) { /* the reader's part: no ':' or '#' */
		char *q = j->trace + strlen(dir) + 1;
		for (char *end = q + strlen(who); q < end; q++)
			if (*q == ':' || *q == '#')
				*q = '_';
	}
	if (len >= (int)sizeof(j->trace))
		snprintf(err, sizeof(err), "%s", strerror(ENAMETOOLONG));
	else if (sm_mkdirs(dir, err, sizeof(err)) == 0 &&
	         sm_out_open(&o, j->trace, err, sizeof(err)) == 0) {
		if (sm_cex_trace_write(o.f, j->trace, j->min_line, j->cell.verdict,
		                       j->cell.res.detail, j->found_line) < 0) {
			sm_out_abort(&o);
			snprintf(err, sizeof(err), "%s", strerror(ENOMEM));
		} else if (sm_out_close(&o, err, sizeof(err)) == 0)
			return 0;
	}
	sm_error("check: cannot write the trace %s: %s", j->trace, err);
	j->trace[0] = '\0';
	return -1;
}

int check_write_traces(struct plan *p)
{
	bool failed = false;

	for (unsigned i = 0; i < p->njobs; i++)
		if (!failed && write_trace(p, &p->jobs[i]) < 0)
			failed = true;
	return failed ? -1 : 0;
}
