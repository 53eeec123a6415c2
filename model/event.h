/*
 * event.h — event.c's part for the model's own files: what the perf
 * core (kernel.c) and the PMU drivers (pmu_*.c) share on one event.
 *
 * Owns: the declarations of event.c (an event's times and state, its
 * counter register, its count update and reload, its page write) and three
 * inline helpers on events.  It must not reach scheduling, actions or a
 * driver's own flows.
 */
#ifndef SELFMON_MODEL_EVENT_H
#define SELFMON_MODEL_EVENT_H

#include "state.h"

/* event->group_leader: the event itself, or the leader its
 * sm_event_cfg.group names (perf_group_attach()). */
static inline unsigned sm_leader_of(const struct sm_config *cfg, unsigned i)
{
	unsigned g = cfg->event[i].group;
	return g ? g - 1 : i;
}

/* is_sampling_event(): attr.sample_period != 0, a field attr.sample_freq
 * shares (one union in struct perf_event_attr): a period or a frequency
 * event. */
static inline bool sm_is_sampling(const struct sm_event_cfg *c)
{
	return c->period || c->freq;
}

/* s64 arithmetic as the kernel does it (built with -fno-strict-overflow:
 * it wraps); a hostile period or a narrow counter reaches the edges. */
static inline int64_t sm_wrap_add(int64_t a, uint64_t b)
{
	return (int64_t)((uint64_t)a + b);
}

/* time */
uint64_t sm_ctx_now(const struct sm_model *m);
enum sm_state sm_effective_state(const struct sm_model *m, unsigned i);
void sm_event_times(const struct sm_model *m, const struct sm_event *e,
                    uint64_t *enabled, uint64_t *running);
void sm_update_times(struct sm_model *m, struct sm_event *e);
uint64_t sm_sw_clock_now(const struct sm_model *m, const struct sm_event *e);
void sm_truth_sync(struct sm_model *m, struct sm_event *e);
void sm_set_state(struct sm_model *m, struct sm_event *e, enum sm_state s);
void sm_event_sched_in_unthrottle(struct sm_event *e);

/* the page */
void sm_page_write(struct sm_model *m, int i, bool stopped);
void sm_page_update(struct sm_model *m, int i);

/* counters */
uint64_t sm_counter_value(const struct sm_model *m, unsigned cpu, int c);
void sm_counter_write(struct sm_model *m, int c, uint64_t v);
void sm_counter_release(struct sm_model *m, int c);
bool sm_counter_free(const struct sm_model *m, int c);
void sm_event_update(struct sm_model *m, struct sm_event *e);
bool sm_set_period(struct sm_model *m, int i, bool stopped);
void sm_pmu_start(struct sm_model *m, int i);

#endif
