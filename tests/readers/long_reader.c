/*
 * long_reader.c — a reader for test_trust: 4200 loads of the page's lock
 * (each an observation point), then offset + the sign-extended counter
 * with no seqlock at all.  Its fault shows only when a kernel action lands
 * between its last loads, past the 4096th observing instruction.
 * Raw ABI.
 */
#include "prims.h"

uint64_t long_read(const void *page)
{
	const struct perf_event_mmap_page *pc = page;
	uint32_t sum = 0;

	for (int i = 0; i < 4200; i++)
		sum += READ_ONCE(pc->lock);
	uint32_t idx = READ_ONCE(pc->index);
	int64_t offset = READ_ONCE(pc->offset);
	uint64_t v = rdpmc(idx - 1);
	return (uint64_t)offset + (uint64_t)((int64_t)(v << 16) >> 16) +
	       (sum & 0);
}
