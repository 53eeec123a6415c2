/*
 * hw_event.h — real perf events of the calling thread: open, mmap, read,
 * a consistent copy of the page, and the facts of this machine.
 *
 * Owns: perf_event_open(2) and the mmap of an event's page (as libperf's
 * evsel and mmap do), read(2) with the total times, the seqlock copy of
 * the page, the thread's CPU affinity and context-switch count, and the
 * description of the machine (arch, PMU or why not, perf_event_paranoid,
 * user access).  It knows nothing of readers, traces or commands.
 */
#ifndef SELFMON_HW_EVENT_H
#define SELFMON_HW_EVENT_H

#include <stdbool.h>
#include <stdint.h>

#include "page.h"

struct hw_event {
	const char *name;
	uint32_t type;
	uint64_t config;
	bool pinned, software;
	int fd;
	struct perf_event_mmap_page *pc;
	int err;            /* errno of perf_event_open, 0 if open */
	/* the variants of a hardware event: arm64's 64-bit ("long") counter
	 * (config1 bit 0), and a sample period that makes the counter
	 * overflow every `period` counts (the kernel reprograms it, the page's
	 * offset carries the count across) */
	bool wide;
	uint64_t period;
};

/* Open (disabled = false) and mmap one event for this thread; 0 or -errno. */
int hw_open(struct hw_event *e);
void hw_close(struct hw_event *e);
/* read(2) with TOTAL_TIME_ENABLED|RUNNING: 0 or -errno. */
int hw_read(const struct hw_event *e, uint64_t v[3]);
/* The event named `name` among the known ones; false if unknown. */
bool hw_lookup(const char *name, struct hw_event *out);
/* PERF_EVENT_IOC_RESET, _DISABLE, _ENABLE on the event. */
void hw_reset(const struct hw_event *e);
void hw_disable(const struct hw_event *e);
void hw_enable(const struct hw_event *e);
/* PERF_EVENT_IOC_PERIOD to `period`: 0 or -errno (EINVAL for a counting
 * event, which has no period). */
int hw_period(const struct hw_event *e, uint64_t period);
/* One consistent copy of the page's header (seqlock), false if the lock
 * did not settle. */
bool hw_snapshot(const struct perf_event_mmap_page *pc,
                 struct perf_event_mmap_page *out);
uint64_t hw_now_ns(void);
/* CPU time of the calling thread, ns. */
uint64_t hw_thread_cpu_ns(void);
/* Context switches of the calling thread so far (each one schedules its
 * events out and in again), -1 if unknown. */
long hw_thread_switches(void);
/* Pin the calling thread to `cpu`; 0 or -errno. */
int hw_migrate(int cpu);
/* This machine's arch name, as the model spells it. */
const char *hw_arch_name(void);

/* What this machine allows. */
struct hw_machine {
	const char *arch;
	int paranoid;
	char user_access[64]; /* sysfs rdpmc or perf_user_access */
	bool pmu;
	char no_pmu[256];     /* why not, one line */
	int ncpus;
};
void hw_describe(struct hw_machine *m);

#endif
