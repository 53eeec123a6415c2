/*
 * schedule.h — a schedule: the kernel actions injected into one call of a
 * reader, each before a given step, the CPU's choices (the stale
 * PMSELR_EL0 selection at a read), and what the run's scenario changes
 * (scripted lines dropped, the kernel variant).
 *
 * Owns the type only.  The explorer chooses schedules (explore.c), the
 * session applies them (session.c), schedule_line.c is their text.
 */
#ifndef SELFMON_SCHEDULE_H
#define SELFMON_SCHEDULE_H

#include <stdint.h>

#include "model.h"

#define SM_MAX_BOUND 6

struct sm_sched_item {
	uint64_t step;          /* before the step-th executed instruction */
	enum sm_action_kind kind;
};

struct sm_schedule {
	unsigned n;
	struct sm_sched_item item[SM_MAX_BOUND];
	/* 1 << kind: the scenario's scripted lines of these actions are
	 * skipped (--drop-scripted); the caller applies it to the scenario */
	unsigned dropped;
	/* 1 << enum sm_kernel_variant: the kernel it ran under (";kernel="),
	 * with SM_SCHED_KERNEL once named (";kernel=base" included); the
	 * caller applies it to the scenario's config */
	unsigned kernel;
	/* the CPU's choices (";stale_select="): each a step whose mrs of
	 * PMXEVCNTR_EL0 used the selection from before the last msr of
	 * PMSELR_EL0, no isb between (uc_arm64.c); ascending.  They count
	 * against the bound with the actions (sm_schedule_len()). */
	unsigned nstale;
	uint64_t stale[SM_MAX_BOUND];
};
#define SM_SCHED_KERNEL (1u << 31)

/* The schedule's choices: its actions and the CPU's stale reads. */
static inline unsigned sm_schedule_len(const struct sm_schedule *s)
{
	return s->n + s->nstale;
}

#endif
