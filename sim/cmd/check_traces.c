/*
 * check_traces.c — check's counterexample trace files: one a failing
 * cell, traces/cex/READER-SCENARIO-ENGINE.trace (--traces DIR), its path
 * kept in the cell for the reports (check.h).
 *
 * Owns: the file's name, what it records beyond the cell (selfmon's
 * version, the hashes of the reader's code and of the scenario:
 * cex_files.h), and writing it whole or not at all; the text is the trace
 * format's (sim/explore/cex_trace.c, which replay reads with).
 * It must not judge a cell or print a result.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cex_files.h"
#include "cex_trace.h"
#include "check.h"
#include "commands.h"
#include "outfile.h"

/* The hashes the trace t records (cex_files.h), into object and
 * scenario (t->object NULL when there is none): 0, or -1 with one line
 * in err. */
static int hashes(const struct plan *p, const struct job *j,
                  struct sm_cex_trace *t, char *object, char *scenario,
                  char *err, size_t n)
{
	const struct sm_reader *r = j->reader;
	int rc = sm_cex_object_hash(r->sched_name ? r->sched_name : r->name,
	                            j->scn->cfg.arch, p->o.engine, object, err, n);

	if (rc < 0)
		return -1;
	if (rc == 1)
		t->object = NULL;
	return sm_cex_scenario_hash(j->scn_name, scenario, err, n);
}

/* traces/cex/READER-SCENARIO-ENGINE.trace, written whole or not at all
 * (outfile.c); 0, or -1 with one line on stderr. */
static int write_trace(const struct plan *p, struct job *j)
{
	char err[PATH_MAX + 256], object[SM_SHA256_HEX], scenario[SM_SHA256_HEX];
	const char *dir = p->o.traces;
	struct sm_out o;
	struct sm_cex_trace t = {
		.schedule = j->min_line, .verdict = (int)j->cell.verdict,
		.detail = j->cell.res.detail, .found = j->found_line,
		.version = SELFMON_VERSION, .object = object, .scenario = scenario,
	};

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
	else if (hashes(p, j, &t, object, scenario, err, sizeof(err)) < 0)
		; /* err says why */
	else if (sm_mkdirs(dir, err, sizeof(err)) == 0 &&
	         sm_out_open(&o, j->trace, err, sizeof(err)) == 0) {
		if (sm_cex_trace_write(o.f, j->trace, &t) < 0) {
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
