/*
 * hw.h — real perf events on this machine, shared by `selfmon hw`
 * (cmd_hw.c) and its recorder (hw_record.c).
 */
#ifndef SELFMON_HW_H
#define SELFMON_HW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "page.h"

struct hw_event {
	const char *name;
	uint32_t type;
	uint64_t config;
	bool pinned, software;
	int fd;
	struct perf_event_mmap_page *pc;
	int err;            /* errno of perf_event_open, 0 if open */
};

/* Open (disabled = false) and mmap one event for this thread; 0 or -errno. */
int hw_open(struct hw_event *e);
void hw_close(struct hw_event *e);
/* read(2) with TOTAL_TIME_ENABLED|RUNNING: 0 or -errno. */
int hw_read(const struct hw_event *e, uint64_t v[3]);
/* The event named `name` among the known ones; false if unknown. */
bool hw_lookup(const char *name, struct hw_event *out);
/* One consistent copy of the page's header (seqlock), false if the lock
 * did not settle. */
bool hw_snapshot(const struct perf_event_mmap_page *pc,
                 struct perf_event_mmap_page *out);
uint64_t hw_now_ns(void);
/* Pin the calling thread to `cpu`; 0 or -errno. */
int hw_migrate(int cpu);

int cmd_hw_record(int argc, char **argv);
int cmd_model_compare(const char *trace);

/* The caps of a hw trace (besides its size, SM_TRACE_MAX_BYTES): the
 * actions it records, the context switches one `switches` line may add to
 * the count before it, and the preemptions the comparison replays in all
 * (a switch count split around an action is replayed once per split). */
#define SM_TRACE_MAX_ACTIONS 1000
#define SM_TRACE_MAX_SWITCHES 10000
#define SM_TRACE_MAX_PREEMPTIONS 200000

/* The comparison of a trace's text (`name` for messages) with the model:
 * 0 agrees, 1 differs (the report on `out`, which may be NULL), -1 bad
 * input or a cap hit (one line in err). */
int hw_compare_text(const char *name, const char *text, FILE *out, char *err,
                    size_t errlen);

#endif
