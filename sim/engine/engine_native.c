/*
 * engine_native.c — the reader compiled into selfmon, its primitives
 * routed to the model.
 *
 * Owns: the routed primitives (what reader/prims.h calls in the
 * SELFMON_PRIMS_ROUTED build, through sim/readers/routed.c, bound at each
 * run with sm_routed_bind()): each routed call is one step, where the
 * session moves time on, lands actions and samples the truth; the reader
 * loads the model's page directly, so kernel actions become visible only
 * at routed calls.  Faults (a #GP from the model, SIGFPE, SIGSEGV, ...)
 * and runaway loops (a CPU-time limit, guard.c) end the call with a
 * verdict.  No snapshots: the explorer re-executes each schedule.  x86-64
 * hosts only.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "guard.h"
#include "session.h"


static _Thread_local struct sm_session *cur;

#define ESCAPE_VERDICT 1000 /* the result is already set */

static void step(const char *what, uint64_t arg, const void *caller)
{
	struct sm_session *s = cur;

	sm_session_tick(s);
	if (s->run.step >= SM_NATIVE_BUDGET) {
		sm_session_budget(s);
		sm_guard_escape(ESCAPE_VERDICT);
	}
	sm_session_observe(s, s->run.step);
	if (s->tracer)
		s->tracer->native(s, what, arg, caller);
	s->run.step++;
}

static uint64_t routed_rdpmc(uint32_t counter, const void *caller)
{
	uint64_t v;

	step("rdpmc", counter, caller);
	if (sm_model_rdpmc(cur->model, counter, &v) != SM_OK) {
		cur->res.steps = cur->run.step;
		sm_result_set(&cur->res, SM_V_FAULT, "rdpmc with ECX=0x%x raised #GP",
		              counter);
		sm_result_fault(&cur->res, SM_FK_COUNTER, false, 0, false, 0);
		sm_guard_escape(ESCAPE_VERDICT);
	}
	cur->run.counter_last = true; /* the counter path (session.h) */
	if (cur->tracer)
		cur->tracer->trap(cur, "rdpmc", counter, v);
	return v;
}

static uint64_t routed_rdtsc(const void *caller)
{
	step("rdtsc", 0, caller);
	return sm_model_timer(cur->model);
}

static long routed_read(int fd, void *buf, size_t n, const void *caller)
{
	long r;

	step("read", (uint64_t)fd, caller);
	if (fd != SM_EVENT_FD)
		return -9;
	cur->run.counter_last = false; /* the counter path (session.h) */
	sm_session_settle(cur);
	r = sm_model_read(cur->model, 0, buf, n);
	cur->run.deadline = sm_model_next_activity(cur->model);
	return r;
}

static const struct sm_routed routed = {
	routed_rdpmc, routed_rdtsc, routed_read,
};

static void call(void *arg)
{
	struct sm_session *s = arg;
	uint64_t v[3];
	int rc = sm_reader_call(s->reader->native, s->reader->abi,
	                        sm_model_page_mem(s->model, 0), SM_EVENT_FD, v);

	sm_session_tick(s);
	sm_session_returned(s, rc);
	sm_oracle_judge(s, v, rc);
}

static bool n_run(struct sm_session *s, uint64_t stop)
{
	(void)stop;
	sm_routed_bind(&routed);
	cur = s;
	int how = sm_guard_run(call, s, 1000);
	if (how != 0 && how != ESCAPE_VERDICT) {
		s->res.steps = s->run.step;
		if (how == SIGALRM)
			sm_result_set(&s->res, SM_V_LIVELOCK, "no result after 1 s of "
			              "CPU time (%" PRIu64 " routed calls)", s->run.step);
		else
			sm_result_set(&s->res, SM_V_FAULT, "%s in the reader after %"
			              PRIu64 " routed calls", sm_guard_signal_text(how),
			              s->run.step),
			sm_result_fault(&s->res, SM_FK_EXCEPTION, false, 0, false, 0);
	}
	cur = NULL;
	return false;
}

static int n_open(struct sm_session *s, char *err, size_t n)
{
	if (s->scn->cfg.arch != SM_X86_64 || !s->reader->native) {
		snprintf(err, n, "the native engine runs x86_64 built-in readers "
		         "only");
		return -1;
	}
	if (s->scn->cfg.writer == SM_WRITER_REMOTE) { /* as check skips it */
		snprintf(err, n, "the native engine runs local-writer scenarios "
		         "only (%s has a remote writer)", s->scn->name);
		return -1;
	}
	/* the reader loads selfmon's own copy of the page, which cannot be
	 * taken from it mid-call: a load after a munmap would not fault */
	if (sm_scenario_uses(s->scn, SM_ACT_MUNMAP)) { /* as check skips it */
		snprintf(err, n, "the native engine cannot unmap the page (%s has "
		         "munmap): use the unicorn engine", s->scn->name);
		return -1;
	}
	return 0;
}

static void n_close(struct sm_session *s)
{
	(void)s;
	sm_guard_end();
}

const struct sm_engine_ops sm_engine_native = {
	.open = n_open, .close = n_close, .begin = sm_session_start, .run = n_run,
};
