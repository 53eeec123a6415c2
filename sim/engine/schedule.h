/*
 * schedule.h — a schedule: the kernel actions injected into one call of a
 * reader, each before a given step, and what the run's scenario changes
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
};
#define SM_SCHED_KERNEL (1u << 31)

#endif
