/*
 * counter_delta.c — the sample library's events-since-start pair, on
 * counter_read(): the delta ABI, checked with SYMBOL
 * counter_start,counter_delta (CMakeLists.txt).
 */
#include "counter.h"

void counter_start(const void *page, int fd, void *ctx)
{
	struct counter_value v;

	counter_read(page, fd, &v);
	*(uint64_t *)ctx = v.count;
}

uint64_t counter_delta(const void *page, int fd, void *ctx)
{
	struct counter_value v;

	counter_read(page, fd, &v);
	return v.count - *(const uint64_t *)ctx;
}
