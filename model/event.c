/*
 * event.c — one event as the perf core and its PMU driver share it: its
 * times and state, its counter register, the counter update and
 * set_period arithmetic, and its page write.
 *
 * Owns: context time as an event sees it, __perf_update_times(), the
 * independent tally of counted events (`truth`), perf_event_set_state(),
 * perf_event_update_userpage()'s values (perf_event_index(), count,
 * times, the driver's capabilities and width, the clock), the counter
 * registers of each CPU, and the drivers' generic update, set_period and
 * start (x86_perf_event_update(), armpmu_event_update(),
 * riscv_pmu_event_update() and their set_period, with the arch's
 * arithmetic from its rules, SM_RULES()).  It must not schedule,
 * apply actions (kernel.c) or name an arch (the drivers, pmu_*.c).
 */
#include <string.h>

#include "clock.h"
#include "event.h"
#include "pmu.h"
#include "stores.h"
#include "userpage.h"

/* ---- time ------------------------------------------------------------ */

/* perf_event_time_now(): the task context's time runs only while the task
 * is on a CPU (ctx->time + now - ctx->timestamp). */
uint64_t sm_ctx_now(const struct sm_model *m)
{
	if (!m->k.task_on)
		return m->k.ctx_time;
	return m->k.ctx_time + (sm_model_ns(m, m->k.task_cpu, m->k.now) - m->k.ctx_stamp);
}

/* __perf_effective_state(): a sibling whose leader is OFF or in ERROR is
 * in its leader's state; any other event in its own. */
enum sm_state sm_effective_state(const struct sm_model *m, unsigned i)
{
	unsigned l = sm_leader_of(m->cfg, i);

	if (l != i && m->k.ev[l].state < SM_INACTIVE)
		return m->k.ev[l].state;
	return m->k.ev[i].state;
}

/* __perf_update_times(): enabled grows while the effective state is
 * INACTIVE or ACTIVE, running while ACTIVE (so a sibling's times stop
 * while its leader is OFF or in ERROR).  e is one of m->k.ev[]. */
void sm_event_times(const struct sm_model *m,
                           const struct sm_event *e, uint64_t *enabled, uint64_t *running)
{
	uint64_t delta = sm_ctx_now(m) - e->tstamp;
	enum sm_state st = sm_effective_state(m, (unsigned)(e - m->k.ev));

	*enabled = e->total_enabled + (st >= SM_INACTIVE ? delta : 0);
	*running = e->total_running + (st == SM_ACTIVE ? delta : 0);
}

void sm_update_times(struct sm_model *m, struct sm_event *e)
{
	sm_event_times(m, e, &e->total_enabled, &e->total_running);
	e->tstamp = sm_ctx_now(m);
}

bool sm_event_is_clock(const struct sm_event_cfg *e)
{
	return e->type == SM_EV_SOFTWARE && (!strcmp(e->name, "task-clock") ||
	                                     !strcmp(e->name, "cpu-clock"));
}

/* A software clock event's clock, in ns, while it runs on the task's CPU:
 * task-clock reads the task context's time (task_clock_event_read():
 * ctx->time + perf_clock() - ctx->timestamp, sm_ctx_now()); cpu-clock
 * reads local_clock() (cpu_clock_event_update()), sched_clock here. */
uint64_t sm_sw_clock_now(const struct sm_model *m, const struct sm_event *e)
{
	if (!strcmp(e->cfg->name, "task-clock"))
		return sm_ctx_now(m);
	return sm_model_ns(m, m->k.task_cpu, m->k.now);
}

/* The independent tally: events counted while ACTIVE; for a software
 * clock, the ns sched_clock advanced on the task's CPU while it ran
 * (from the cycles, not from the event's own clock reads). */
void sm_truth_sync(struct sm_model *m, struct sm_event *e)
{
	if (e->state == SM_ACTIVE && sm_event_is_clock(e->cfg))
		e->truth += sm_model_ns(m, m->k.task_cpu, m->k.now) -
		            sm_model_ns(m, m->k.task_cpu, e->truth_stamp);
	else if (e->state == SM_ACTIVE && !e->throttled) /* see throttle() */
		e->truth += (uint64_t)e->cfg->rate * (m->k.now - e->truth_stamp);
	e->truth_stamp = m->k.now;
}

/* perf_event_set_state(): times are brought up to date first. */
/* event_sched_in(): a throttled event is unthrottled (interrupts = 0),
 * and pmu->add() that follows programs and starts its counter: stopped no
 * more (throttle(); the x86 group transaction too, pmu_x86.c). */
void sm_event_sched_in_unthrottle(struct sm_event *e)
{
	if (e->interrupts == SM_MAX_INTERRUPTS)
		e->interrupts = 0;
	e->throttled = false;
}

/* perf_event_set_state(): the event's times brought up to now in its old
 * state; a leader that goes from OFF or ERROR to INACTIVE or ACTIVE, or
 * back, changes its siblings' effective state, so theirs are too
 * (perf_event_update_sibling_time()). */
void sm_set_state(struct sm_model *m, struct sm_event *e, enum sm_state s)
{
	unsigned i = (unsigned)(e - m->k.ev);

	sm_truth_sync(m, e);
	sm_update_times(m, e);
	if ((e->state < SM_INACTIVE) != (s < SM_INACTIVE))
		for (unsigned j = 0; j < m->k.nopen; j++)
			if (j != i && sm_leader_of(m->cfg, j) == i)
				sm_update_times(m, &m->k.ev[j]);
	e->state = s;
}

/* ---- page writes ----------------------------------------------------- */

static uint32_t sm_event_index(const struct sm_model *m,
                               const struct sm_event *e, bool stopped)
{
	/* perf_event_index(): 0 while PERF_HES_STOPPED or not ACTIVE; the
	 * PMU's event_idx is 0 without user read access. */
	if (stopped || e->state != SM_ACTIVE || e->counter < 0 ||
	    !SM_RULES(m)->user_read(m->cfg, e))
		return 0;
	return SM_RULES(m)->index(e->counter);
}

/* perf_event_update_userpage() of event i, if it has a buffer
 * (event->rb): what the write holds is computed here (perf_event_index(),
 * the count and prev_count, calc_timer_values(), the arch part's
 * capabilities, width and clock), userpage.c turns it into stores in the
 * kernel's order and stores.c lets the reader see them; then the
 * environment's observer, told the page written.  `stopped`: hw.state
 * has PERF_HES_STOPPED at this write, so the index is 0.
 *
 * The page is rb->user_page.  After PERF_EVENT_IOC_SET_OUTPUT
 * (perf_event_set_output() -> ring_buffer_attach(): event->rb = the
 * target's rb) a redirected event's writes land in its target's page,
 * with its own index, offset and times: a reader of the target sees the
 * other event's values until the target's next write.  (Linux 7.2 keeps
 * this; it only refuses the redirected event's own mmap with EBUSY: the
 * kernel-7.2 model's part, not this one's.) */
void sm_page_write(struct sm_model *m, int i, bool stopped)
{
	const struct sm_event *e = &m->k.ev[i];
	const struct sm_cpu *c = &m->k.cpu[m->k.task_cpu];
	const struct sm_pmu_rules *r = SM_RULES(m);
	struct sm_store st[SM_MAX_STORES];
	struct perf_event_mmap_page shadow;
	int pg = e->redirected ? (int)sm_rb_event(m->cfg->event, (unsigned)i)
	                       : i; /* rb's page */

	if (!m->k.ev[pg].mapped)
		return;
	struct sm_page_values v = {
		.index = sm_event_index(m, e, stopped),
		.count = e->count, .prev_count = e->prev_count,
		.now_ns = sm_model_ns(m, m->k.task_cpu, m->k.now),
		.cap_rdpmc = r->cap_rdpmc(m->cfg, e),
		.pmc_width = r->pmc_width(m->cfg, e),
		.time = m->cfg->stable, .time_zero = !e->cfg->clockid,
		.mult = c->mult, .shift = c->shift, .offset_ns = c->offset_ns,
		.epoch_cyc = c->epoch_cyc, .epoch_ns = c->epoch_ns,
		.time_mask = sm_timer_mask(m),
	};
	sm_event_times(m, e, &v.enabled, &v.running);
	sm_model_page_after(m, pg, &shadow); /* stores build on those in flight */
	sm_stores_push(m, st, sm_page_stores(m->cfg->arch, pg, &shadow, &v, st));
	m->k.updates++;
	if (m->env.observe)
		m->env.observe(m->env.observe_ctx, m, pg, m->k.cause);
}

void sm_page_update(struct sm_model *m, int i)
{
	sm_page_write(m, i, false);
}

/* ---- counters -------------------------------------------------------- */

uint64_t sm_counter_value(const struct sm_model *m, unsigned cpu,
                                 int c)
{
	const struct sm_counter *r = &m->k.cpu[cpu].ctr[c];
	uint64_t v = r->base;

	if (r->owner >= 0 && cpu == m->k.task_cpu && m->k.task_on &&
	    !m->k.ev[r->owner].throttled)
		v += (uint64_t)m->k.ev[r->owner].cfg->rate * (m->k.now - r->base_time);
	return v & SM_RULES(m)->reg_mask(m->cfg, c);
}

void sm_counter_write(struct sm_model *m, int c, uint64_t v)
{
	struct sm_counter *r = &m->k.cpu[m->k.task_cpu].ctr[c];

	r->base = v & SM_RULES(m)->reg_mask(m->cfg, c);
	r->base_time = m->k.now;
}

/* Stop a counter counting for its owner: freeze its value. */
void sm_counter_release(struct sm_model *m, int c)
{
	struct sm_counter *r = &m->k.cpu[m->k.task_cpu].ctr[c];

	sm_counter_write(m, c, sm_counter_value(m, m->k.task_cpu, c));
	if (SM_RULES(m)->ctr_stop) /* the driver's stop of the counter */
		SM_RULES(m)->ctr_stop(m, c);
	r->owner = -1;
}

static uint64_t read_counter(const struct sm_model *m, const struct sm_event *e)
{
	uint64_t raw = sm_counter_value(m, m->k.task_cpu, e->counter);
	return SM_RULES(m)->from_reg(m->cfg, e, e->counter, raw);
}

/* x86_perf_event_update() / armpmu_event_update() /
 * riscv_pmu_event_update(): fold the hardware delta into count, keep the
 * raw value read as prev_count.  Software events fold their time. */
void sm_event_update(struct sm_model *m, struct sm_event *e)
{
	if (e->state != SM_ACTIVE)
		return;
	if (sm_event_is_clock(e->cfg)) {
		/* task_clock_event_update() / cpu_clock_event_update():
		 * prev_count = xchg(hw.prev_count, now); count += now - prev */
		uint64_t now = sm_sw_clock_now(m, e);
		e->count += now - e->prev_count;
		e->prev_count = now;
		return;
	}
	if (e->cfg->type == SM_EV_SOFTWARE) { /* perf_swevent: `rate` a cycle */
		e->count += (uint64_t)e->cfg->rate * (m->k.now - e->sw_stamp);
		e->sw_stamp = m->k.now;
		return;
	}
	uint64_t now = read_counter(m, e);
	uint64_t delta = SM_RULES(m)->delta(m->cfg, e, e->prev_count, now);

	e->prev_count = now;
	e->count += delta;
	e->period_left = sm_wrap_add(e->period_left, 0 - delta);
}

/* x86_perf_event_set_period() / armpmu_event_set_period() /
 * riscv_pmu_event_set_period(): consume the period, clamp, load the
 * counter with -left and remember (u64)-left as prev_count, then
 * perf_event_update_userpage().  True (the functions' 1) only when a
 * period ended (left <= 0): a wrap that ends only the clamped part of a
 * longer period (max_period; arm64 periods over 2^31 - 1; narrow riscv64
 * counters) leaves left > 0 and is no overflow. */
bool sm_set_period(struct sm_model *m, int i, bool stopped)
{
	struct sm_event *e = &m->k.ev[i];
	int64_t left = e->period_left, period = (int64_t)e->period;
	bool ended = false;

	/* hw.last_period = period where a period starts: read by the
	 * model for frequency events only (account_interrupt()) */
	if (left <= sm_wrap_add(0, 0 - (uint64_t)period)) {
		left = period;
		e->period_left = left;
		e->last_period = e->cfg->freq ? (uint64_t)period : 0;
		ended = true;
	}
	if (left <= 0) {
		left = sm_wrap_add(left, (uint64_t)period);
		e->period_left = left;
		e->last_period = e->cfg->freq ? (uint64_t)period : 0;
		ended = true;
	}
	left = SM_RULES(m)->clamp_left(m->cfg, e, left);
	e->prev_count = 0 - (uint64_t)left;
	sm_counter_write(m, e->counter,
	                 SM_RULES(m)->to_reg(m->cfg, e, e->counter,
	                                     e->prev_count));
	sm_page_write(m, i, stopped);
	return ended;
}

/* pmu->start(PERF_EF_RELOAD) of a hardware event that has its counter,
 * and the page writes each driver makes in it:
 * - x86_pmu_start(): x86_perf_event_set_period() (page written while the
 *   event is still PERF_HES_STOPPED, so with index 0), then hw.state = 0
 *   and perf_event_update_userpage(): two writes;
 * - armpmu_start(): hw.state = 0, then armpmu_event_set_period(): one;
 * - riscv_pmu_start(): hw.state = 0, riscv_pmu_event_set_period(), then
 *   ctr_start() and perf_event_update_userpage(): two.  (The driver loads
 *   the counter between the two writes; the model loads it in set_period,
 *   which only a reader on another CPU could tell, and it reads its own
 *   CPU's counters.)
 * The rules' start_stopped and start_writes_again say which. */
void sm_pmu_start(struct sm_model *m, int i)
{
	sm_set_period(m, i, SM_RULES(m)->start_stopped);
	if (SM_RULES(m)->start_writes_again)
		sm_page_update(m, i);
}

/* A counter of the task's CPU that exists and no event owns. */
bool sm_counter_free(const struct sm_model *m, int c)
{
	return SM_RULES(m)->counter_exists(m->cfg, c) &&
	       m->k.cpu[m->k.task_cpu].ctr[c].owner < 0;
}
