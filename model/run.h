/*
 * run.h — a scenario run through the model: its timed actions in order,
 * time moved on to an instant, within the cap on model events.
 */
#ifndef SELFMON_RUN_H
#define SELFMON_RUN_H

#include "scenario.h"

/* Drive m (already built from s->cfg) through s's timed actions at or
 * before `upto` cycles after the start, then on to `upto` (an action
 * timed before the current instant, after a preempt moved time on,
 * happens at once).  0; -1 with "NAME:LINE: message" for an action the
 * model refuses, or "NAME: ..." when the model's cap was hit. */
int sm_scenario_run(struct sm_model *m, const struct sm_scenario *s,
                    uint64_t upto, char *err, size_t errlen);
/* The same from the action *next on (advanced past those applied), so
 * that a run can be played in steps: the one scenario player of
 * `selfmon model`, `plot` and the sessions of `check`. */
int sm_scenario_play(struct sm_model *m, const struct sm_scenario *s,
                     unsigned *next, uint64_t upto, char *err,
                     size_t errlen);

/* Does the scenario's run to its end and to its check instant stay within
 * SM_MAX_MODEL_EVENTS model events?  0, or -1 with one line in err.  At
 * most SM_MAX_MODEL_EVENTS + 1 events are made to find out. */
int sm_scenario_bounded(const struct sm_scenario *s, char *err,
                        size_t errlen);

#endif
