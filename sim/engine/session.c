/*
 * session.c — what every engine does around the reader's instructions:
 * bring the model to the call, move time one cycle per step, land timed,
 * scheduled and remote-writer actions, sample the ground truth.
 *
 * Owns: sm_session_*, and judging the call at its end (the window to the
 * oracle).  It must not know how an engine executes instructions.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "session.h"

const struct sm_engine_ops *sm_engine_ops(enum sm_engine_kind e)
{
	return e == SM_ENGINE_NATIVE ? &sm_engine_native : &sm_engine_unicorn;
}

/* The model as it is when the reader is called: the scenario's timed
 * actions up to check_at applied, time moved on to check_at. */
static int model_at_call(struct sm_session *s, char *err, size_t n)
{
	const struct sm_scenario *scn = s->scn;
	char why[256];

	if (sm_model_rebuild(s->model, why, sizeof(why)) < 0) {
		snprintf(err, n, "%s: %s", scn->name, why);
		return -1;
	}
	s->run.timed_next = 0; /* a remote writer may still be mid-update */
	return sm_scenario_play(s->model, scn, &s->run.timed_next,
	                        scn->check_at, err, n);
}

struct sm_session *sm_session_new(void)
{
	return calloc(1, sizeof(struct sm_session));
}

void sm_session_free(struct sm_session *s)
{
	if (!s)
		return;
	sm_engine_ops(s->engine)->close(s);
	sm_snapshot_free(s->at_call);
	free(s->samples);
	free(s->scratch);
	sm_model_free(s->model);
	free(s);
}

int sm_session_init(struct sm_session *s, const struct sm_scenario *scn,
                    const struct sm_reader *r, enum sm_engine_kind e,
                    char *err, size_t n)
{
	/* an engine of the same kind stays: its open() keeps what it can
	 * for the new cell (engine_unicorn.c: the emulator, for the same
	 * code) */
	if (s->eng && s->engine != e)
		sm_engine_ops(s->engine)->close(s);
	s->scn = scn;
	s->reader = r;
	s->engine = e;
	s->run.sched = NULL;
	s->tracer = NULL;
	s->trace = NULL;
	/* One sample per step (and at the start and the return), two per
	 * kernel action: scripted ones, and at most SM_MAX_BOUND scheduled
	 * plus SM_MAX_BOUND applied by the explorer. */
	s->max_samples = SM_BUDGET + 4 + 2 * (2 * SM_MAX_BOUND + scn->nactions);
	free(s->samples);
	free(s->scratch);
	s->samples = malloc(s->max_samples * sizeof(*s->samples));
	s->scratch = malloc(s->max_samples * sizeof(*s->scratch));
	if (!s->samples || !s->scratch)
		return snprintf(err, n, "out of memory"), -1;
	char why[256];
	sm_model_free(s->model);
	s->model = sm_model_new(&scn->cfg, NULL, NULL, why, sizeof(why));
	if (!s->model)
		return snprintf(err, n, "%s: %s", scn->name, why), -1;
	if (model_at_call(s, err, n) < 0)
		return -1;
	if (!s->at_call && !(s->at_call = sm_snapshot_new()))
		return snprintf(err, n, "out of memory"), -1;
	sm_model_save(s->model, s->at_call);
	s->at_call_timed_next = s->run.timed_next;
	return sm_engine_ops(e)->open(s, err, n);
}

/* Samples of consecutive instants under one state are owed and paid in
 * one span (sm_model_truth_span()): the same values, in the same order,
 * as one sm_model_truth() per sample. */
void sm_session_sample(struct sm_session *s)
{
	struct sm_run *r = &s->run;

	if (r->owed_n && r->owed_from + r->owed_n == sm_model_now(s->model)) {
		r->owed_n++;
		return;
	}
	sm_session_settle(s);
	r->owed_from = sm_model_now(s->model);
	r->owed_n = 1;
}

void sm_session_settle(struct sm_session *s)
{
	struct sm_run *r = &s->run;

	if (!r->owed_n)
		return;
	if (r->owed_n > s->max_samples - r->nsamples) { /* cannot happen: see
	                                                 * init */
		r->owed_n = s->max_samples - r->nsamples;
		sm_result_set(&s->res, SM_V_ERROR, "internal error: more than %u "
		              "truth samples in one run", s->max_samples);
	}
	sm_model_truth_span(s->model, 0, r->owed_from, r->owed_n,
	                    &s->samples[r->nsamples]);
	r->nsamples += r->owed_n;
	r->owed_n = 0;
}

/* Reset to the call: engines call this from begin().  The model as
 * model_at_call() made it at init: its snapshot restored, the same state
 * at a fraction of a rebuild's cost (#44 lever 1); a session never
 * initialised (a test's) rebuilds. */
void sm_session_start(struct sm_session *s)
{
	char err[256];

	if (s->at_call) {
		sm_model_restore(s->model, s->at_call);
		s->run.timed_next = s->at_call_timed_next;
	} else {
		model_at_call(s, err, sizeof(err)); /* succeeded in init */
	}
	s->run = (struct sm_run){
		.sched = s->run.sched, /* the caller's, for replay */
		.timed_next = s->run.timed_next, /* as at the call */
		.deadline = sm_model_next_activity(s->model),
	};
	memset(&s->res, 0, sizeof(s->res));
	sm_session_sample(s);
	sm_session_observe(s, 0); /* the kernel may act before the first step */
}

/* Apply one action to the model at this instant, with the truth sampled
 * just before and just after it; the tracer is told it (a scripted line
 * always, as the scenario names it, an injected one as it landed). */
static int apply(struct sm_session *s, const struct sm_action *a,
                 bool scripted)
{
	char err[128];

	sm_session_sample(s); /* the instant just before */
	sm_session_settle(s);
	uint64_t before = sm_model_updates(s->model);
	int rc = sm_model_apply(s->model, a, err, sizeof(err));
	if (rc > 0) {
		s->run.kernel_active = true;
		s->run.last_kernel_step = s->run.step;
		s->run.applied |= 1u << a->kind;
	}
	s->run.deadline = sm_model_next_activity(s->model);
	sm_session_sample(s); /* and just after */
	if (s->tracer)
		s->tracer->action(s, a->kind, scripted ? 1 : rc, before);
	return rc;
}

int sm_session_apply(struct sm_session *s, enum sm_action_kind kind)
{
	struct sm_action a = {
		.kind = kind, .event = SM_AUTO, .cpu = SM_AUTO,
		.counter = SM_AUTO, .cycles = 1000, .period = 1000, .refresh = 1,
	};

	return apply(s, &a, false);
}

void sm_session_tick_full(struct sm_session *s)
{
	struct sm_model *m = s->model;
	const struct sm_scenario *scn = s->scn;

	if (s->run.step > 0) {
		if (!sm_model_idle_step(m, s->run.deadline)) {
			uint64_t before = sm_model_updates(m);
			unsigned pending = sm_model_pending(m);
			int next = sm_model_next_store(m);
			sm_session_settle(s);
			sm_model_advance(m, 1); /* also lands one remote store */
			s->run.deadline = sm_model_next_activity(m);
			if (pending && next >= 0) {
				s->run.kernel_active = true;
				s->run.last_kernel_step = s->run.step;
				if (s->tracer)
					s->tracer->store(s, next);
			}
			if (sm_model_updates(m) != before) {
				s->run.kernel_active = true;
				s->run.last_kernel_step = s->run.step;
				if (s->tracer)
					s->tracer->action(s, sm_model_cause(m), 1, before);
			}
		}
	}
	while (s->run.timed_next < scn->nactions &&
	       scn->cfg.start + scn->act[s->run.timed_next].at <= sm_model_now(m))
		apply(s, &scn->act[s->run.timed_next++].act, true);
	/* last, as the explorer applies its actions after a stop here */
	while (s->run.sched && s->run.sched_next < s->run.sched->n &&
	       s->run.sched->item[s->run.sched_next].step == s->run.step)
		sm_session_apply(s, s->run.sched->item[s->run.sched_next++].kind);
	sm_session_sample(s);
}

void sm_session_observe(struct sm_session *s, uint64_t step)
{
	if (s->run.npoints && s->points[s->run.npoints - 1] >= step)
		return; /* steps only grow: this one is already a point */
	if (s->run.npoints < SM_MAX_POINTS) {
		s->stale[s->run.npoints] = 0;
		s->points[s->run.npoints++] = step;
	}
	else /* cannot happen: see SM_MAX_POINTS */
		sm_result_set(&s->res, SM_V_ERROR, "internal error: more than %u "
		              "observation points in one run", SM_MAX_POINTS);
}

bool sm_session_stale(struct sm_session *s, uint64_t step)
{
	const struct sm_schedule *sch = s->run.sched;

	if (s->run.stale_at == step + 1) {
		s->run.stale_at = 0; /* taken */
		return true;
	}
	for (unsigned i = 0; sch && i < sch->nstale; i++)
		if (sch->stale[i] == step)
			return true;
	return false;
}

void sm_session_stale_point(struct sm_session *s, uint64_t step)
{
	sm_session_observe(s, step);
	if (s->run.npoints && s->points[s->run.npoints - 1] == step)
		s->stale[s->run.npoints - 1] = 1;
}

void sm_session_returned(struct sm_session *s, int rc)
{
	enum sm_abi abi = s->reader->abi;

	s->run.counter_path = s->run.counter_last &&
	                      ((abi != SM_ABI_VALUES && abi != SM_ABI_RESET) ||
	                       rc == 0);
}

void sm_session_budget(struct sm_session *s)
{
	s->res.steps = s->run.step;
	if (s->run.kernel_active &&
	    s->run.step - s->run.last_kernel_step < SM_BLOCKED_WINDOW)
		sm_result_set(&s->res, SM_V_BLOCKED, "still retrying after %" PRIu64
		              " steps while the kernel keeps writing the page",
		              s->run.step);
	else
		sm_result_set(&s->res, SM_V_LIVELOCK, "no result after %" PRIu64
		              " steps and the page has not changed for %" PRIu64,
		              s->run.step, s->run.step - s->run.last_kernel_step);
}

static bool reset_seen(const struct sm_session *s)
{
	if (s->run.applied & (1u << SM_ACT_RESET))
		return true;
	for (unsigned i = 0; i < s->run.timed_next && i < s->scn->nactions; i++)
		if (s->scn->act[i].act.kind == SM_ACT_RESET)
			return true;
	return false;
}

void sm_oracle_judge(struct sm_session *s, const uint64_t value[3], int rc)
{
	sm_session_settle(s);
	struct sm_window w = {
		s->samples, s->run.nsamples, s->scratch, s->terse,
		.arch = s->scn->cfg.arch, .width = sm_model_page(s->model, 0)->pmc_width,
		.reset = reset_seen(s),
		.overflow = s->run.applied & (1u << SM_ACT_OVERFLOW),
		.split = sm_abi_two_calls(s->reader->abi) ? s->run.split : 0,
		.read_format = sm_model_config(s->model)->event[0].read_format,
	};

	s->res.steps = s->run.step;
	if (!s->run.counter_last) /* a read(2) came after the stale read */
		s->res.isb.taken = false;
	sm_oracle(&w, s->reader->abi, value, rc, &s->res);
}
