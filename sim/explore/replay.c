/*
 * replay.c — a session for one run of one schedule, with or without the
 * --explain listing (replay.h).
 *
 * Owns only the order of the steps: a new session, its cell, the model at
 * the call and the listing on it, then the run.  It must not print or
 * judge (the oracle does, at the reader's return).
 */
#include <stdio.h>

#include "explore.h"
#include "replay.h"

struct sm_session *sm_replay_open(const struct sm_scenario *scn,
                                  const struct sm_reader *r,
                                  enum sm_engine_kind e,
                                  const struct sm_replay_listing *l,
                                  char *err, size_t n)
{
	struct sm_session *s = sm_session_new();

	if (!s) {
		snprintf(err, n, "out of memory");
		return NULL;
	}
	if (sm_session_init(s, scn, r, e, err, n) < 0) {
		sm_session_free(s);
		return NULL;
	}
	if (l && l->x) {
		/* the listing's first page is the page at the call */
		sm_session_start(s);
		sm_explain_init(l->x, l->f, s);
		l->x->record = l->record;
		l->x->max_steps = l->max_steps;
		sm_explain_attach(l->x, s);
	}
	return s;
}

struct sm_session *sm_replay(const struct sm_scenario *scn,
                             const struct sm_reader *r, enum sm_engine_kind e,
                             const struct sm_schedule *sch, char *err,
                             size_t n)
{
	struct sm_session *s = sm_replay_open(scn, r, e, NULL, err, n);

	if (s)
		sm_run_schedule(s, sch);
	return s;
}
