/*
 * counter.h — the sample library's one public function: read a perf
 * event's count and times from its mmapped control page (values ABI).
 * The sample library stands for a user's library in tests/samplelib_check.sh:
 * the project checks its reader with selfmon_add_reader_check().
 */
#ifndef SAMPLELIB_COUNTER_H
#define SAMPLELIB_COUNTER_H

#include <stdint.h>

struct counter_value {
	uint64_t count, enabled, running;
};

/* 0 read from the page, 1 fell back to read(2) on fd, -1 error. */
int counter_read(const void *page, int fd, struct counter_value *out);

/* Events since counter_start() on the same ctx (at least 8 bytes): the
 * delta ABI (counter_delta.c). */
void counter_start(const void *page, int fd, void *ctx);
uint64_t counter_delta(const void *page, int fd, void *ctx);

#endif
