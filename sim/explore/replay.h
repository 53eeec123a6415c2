/*
 * replay.h — one schedule of a reader run once, as `replay`, `explain-bug`
 * and the teaching pages show it: the commands' one way to a session that
 * runs (they never start an engine's session themselves).
 *
 * Owns sm_replay_open() and sm_replay() (replay.c).  It must not print:
 * the listing is explain.c's, the verdict the caller's.
 */
#ifndef SELFMON_REPLAY_H
#define SELFMON_REPLAY_H

#include <stdbool.h>
#include <stdio.h>

#include "explain.h"
#include "session.h"

/* The listing of a replay: x, when given, is initialised on the model at
 * the call and attached to the session (explain.h). */
struct sm_replay_listing {
	struct sm_explain *x;
	FILE *f;            /* the text listing; NULL: none */
	bool record;        /* keep the events (JSON, the HTML page) */
	uint64_t max_steps; /* list at most this many steps (0: all) */
};

/* A session of reader r in scn on engine e, ready for sm_run_schedule(),
 * with the listing attached when l->x is set; NULL with the reason in err
 * (free it with sm_session_free(), and a listing with sm_explain_free()
 * after sm_explain_done()). */
struct sm_session *sm_replay_open(const struct sm_scenario *scn,
                                  const struct sm_reader *r,
                                  enum sm_engine_kind e,
                                  const struct sm_replay_listing *l,
                                  char *err, size_t n);
/* sm_replay_open() without a listing, and the schedule run: the session
 * with its result, its window and its observation points. */
struct sm_session *sm_replay(const struct sm_scenario *scn,
                             const struct sm_reader *r, enum sm_engine_kind e,
                             const struct sm_schedule *sch, char *err,
                             size_t n);

#endif
