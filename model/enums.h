/*
 * enums.h — the model's enums that the rest of selfmon names, each with its
 * descriptor table: the arches, the kernel actions and the page's
 * capability letters.
 *
 * Owns the enums and the row types of their tables (enums.c).  The
 * verdicts are verdict.h's.  Must not touch model state: a table row is
 * constant data.
 */
#ifndef SELFMON_ENUMS_H
#define SELFMON_ENUMS_H

#include <stdint.h>

enum sm_arch { SM_X86_64, SM_ARM64, SM_RISCV64, SM_NARCH };

/* An arch's row: its name (--arch, a scenario's `arch`, JSON) and what its
 * readers read the counter with, as the oracle's sentences say it. */
struct sm_arch_desc {
	const char *name, *counter;
};
const struct sm_arch_desc *sm_arch_desc(enum sm_arch arch); /* "?" row */
const char *sm_arch_name(enum sm_arch arch);
int sm_arch_from_name(const char *name); /* -1 if unknown */

/* Kernel actions (docs/kernel-variant.md §2).  The names are the scenario
 * keywords. */
enum sm_action_kind {
	SM_ACT_MMAP,        /* perf_mmap: initialise and update the page */
	SM_ACT_ENABLE,      /* PERF_EVENT_IOC_ENABLE */
	SM_ACT_DISABLE,     /* PERF_EVENT_IOC_DISABLE */
	SM_ACT_ROTATE_OUT,  /* event_sched_out of one event */
	SM_ACT_ROTATE_IN,   /* event_sched_in of one event, counter chosen */
	SM_ACT_ROTATE,      /* perf_rotate_context: the multiplexing tick */
	SM_ACT_OVERFLOW,    /* counter runs to its wrap, PMI handler runs */
	SM_ACT_PREEMPT,     /* context switch out, `cycles` pass, back in */
	SM_ACT_MIGRATE,     /* switch out, back in on `cpu` */
	SM_ACT_RESET,       /* PERF_EVENT_IOC_RESET */
	SM_ACT_STALL,       /* `cycles` pass, task keeps running, no update */
	SM_ACT_PERIOD,      /* PERF_EVENT_IOC_PERIOD: new `period` */
	SM_ACT_CLOCK_EPOCH, /* arm64/riscv update_sched_clock: new epoch */
	SM_ACT_READ,        /* read(2) of the event: updates count, not page */
	SM_ACT_LOCK_EARLY,  /* arm64/riscv remote writer: an update's closing
	                     * ++lock seen before its fields (weak ordering) */
	SM_ACT_REFRESH,     /* PERF_EVENT_IOC_REFRESH: `refresh` more
	                     * overflows, then disabled; enables */
	SM_ACT_TICK,        /* perf_event_task_tick(): frequency adjustment
	                     * and unthrottling */
	SM_ACT_MUNMAP,      /* munmap of the page: perf_mmap_close() */
	SM_NACTIONS
};

/* An action's row: its name, its colour in a plot, what the kernel does. */
struct sm_action_desc {
	const char *name, *colour, *what;
};
const struct sm_action_desc *sm_action_desc(enum sm_action_kind kind);
const char *sm_action_name(enum sm_action_kind kind);
int sm_action_from_name(const char *name); /* -1 if unknown */

/* A capability letter of `selfmon model`'s caps column: the letter, its
 * bit in the page's capabilities word, the field's name, its meaning. */
#define SM_NCAPS 4
struct sm_cap_desc {
	char letter;
	unsigned bit;
	const char *field, *what;
};
const struct sm_cap_desc *sm_cap_desc(unsigned i); /* NULL past the end */
void sm_caps_letters(uint64_t capabilities, char out[SM_NCAPS + 1]);

#endif
