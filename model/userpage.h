/*
 * userpage.h — userpage.c's part for the model's own files: the values
 * one perf_event_update_userpage() writes and the pure writer that turns
 * them into stores.
 *
 * Owns: struct sm_page_values and the declarations of userpage.c.  It
 * must not reach the model's state beyond the page's bytes.
 */
#ifndef SELFMON_MODEL_USERPAGE_H
#define SELFMON_MODEL_USERPAGE_H

#include "state.h"

/* The values one perf_event_update_userpage() writes, as event.c
 * computes them (index, count, prev_count, times, caps, width, clock). */
struct sm_page_values {
	uint32_t index;
	uint64_t count, prev_count;
	uint64_t enabled, running; /* times as of now */
	uint64_t now_ns;           /* sched_clock of the task's CPU now */
	bool cap_rdpmc;
	uint16_t pmc_width;
	bool time;                 /* the clock is given to user space */
	bool time_zero;            /* x86: cap_user_time_zero (no clockid) */
	uint32_t mult;             /* the CPU's sched_clock, unclamped */
	uint16_t shift;
	uint64_t offset_ns, epoch_cyc, epoch_ns, time_mask;
};
void sm_page_init(union sm_page_mem *p);
unsigned sm_page_stores(enum sm_arch arch, int ev,
                        const struct perf_event_mmap_page *shadow,
                        const struct sm_page_values *v,
                        struct sm_store out[SM_MAX_STORES]);

#endif
