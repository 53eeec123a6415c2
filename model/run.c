/*
 * run.c — see run.h.  Owns the one loop that takes the model through a
 * scenario's timed actions (selfmon model, the load-time bound check) and
 * the check that a scenario's run stays within the cap on model events
 * (SM_MAX_MODEL_EVENTS, model.h).  It decides nothing about the kernel.
 */
#include <inttypes.h>
#include <stdio.h>

#include "run.h"
#include "state.h"

int sm_scenario_run(struct sm_model *m, const struct sm_scenario *s,
                    uint64_t upto, char *err, size_t errlen)
{
	unsigned next = 0;

	return sm_scenario_play(m, s, &next, upto, err, errlen);
}

int sm_scenario_play(struct sm_model *m, const struct sm_scenario *s,
                     unsigned *next, uint64_t upto, char *err,
                     size_t errlen)
{
	char why[256];

	for (; *next < s->nactions && s->act[*next].at <= upto; ++*next) {
		const struct sm_timed_action *a = &s->act[*next];
		uint64_t elapsed = m->k.now - s->cfg.start;
		if (a->at > elapsed)
			sm_model_advance(m, a->at - elapsed);
		if (m->k.capped)
			break;
		if (sm_model_apply(m, &a->act, why, sizeof(why)) < 0) {
			snprintf(err, errlen, "%s:%u: %s", s->name, a->line, why);
			return -1;
		}
	}
	uint64_t elapsed = m->k.now - s->cfg.start;
	if (!m->k.capped && upto > elapsed)
		sm_model_advance(m, upto - elapsed);
	if (m->k.capped) {
		snprintf(err, errlen, "%s: its run to cycle %" PRIu64 " needs more "
		         "than %" PRIu64 " multiplexing ticks and overflow "
		         "interrupts, the cap per run (a shorter 'end' or longer "
		         "intervals)", s->name, upto, m->k.activity);
		return -1;
	}
	return 0;
}

int sm_scenario_bounded(const struct sm_scenario *s, char *err,
                        size_t errlen)
{
	char why[256];
	uint64_t upto = s->end > s->check_at ? s->end : s->check_at;
	struct sm_model *m = sm_model_new(&s->cfg, NULL, NULL, why, sizeof(why));

	if (!m) {
		snprintf(err, errlen, "%s: %s", s->name, why);
		return -1;
	}
	sm_model_set_cap(m, SM_MAX_MODEL_EVENTS);
	int rc = sm_scenario_run(m, s, upto, err, errlen);
	sm_model_free(m);
	return rc;
}
