/*
 * hw.h — real perf events on this machine, shared by `selfmon hw`
 * (cmd_hw.c) and its recorder (hw_record.c).
 */
#ifndef SELFMON_HW_H
#define SELFMON_HW_H

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

#endif
