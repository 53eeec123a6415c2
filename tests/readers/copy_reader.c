/*
 * copy_reader.c — raw-ABI readers for test_hostile that read the page
 * through memcpy, as code built with -O0 or copying a struct snapshot
 * does.  A copy from the page is a series of loads the kernel may write
 * between (engine_unicorn.c, mem_op()), so each must be judged as plain
 * loads would be.  Counter access comes from tests/elf/good_reader.c.
 * Compile with -fno-builtin, so that memcpy stays a call.
 *
 *   copy_good   a seqlock loop around a copy of the page's first 64
 *               bytes: right in every schedule
 *   copy_lock   the lock loaded, then copied again: 0 when the two
 *               differ, which the kernel makes so by writing between them
 *   copy_late   the data copied before the lock: a write between the two
 *               copies goes unseen (wrong)
 *   copy_whole  the first 64 bytes copied, nothing checked, the offset
 *               alone returned (for counting the copy's pieces)
 */
#define READER_ENTRY copy_reader_values
#include "../elf/good_reader.c"

#include <string.h>

/* The page's first 64 bytes, lock to time_offset. */
struct head {
	uint32_t version, compat_version, lock, index;
	int64_t offset;
	uint64_t time_enabled, time_running, capabilities;
	uint16_t pmc_width, time_shift;
	uint32_t time_mult;
	uint64_t time_offset;
};

static uint64_t count_of(const struct head *h)
{
	uint64_t count = (uint64_t)h->offset;

	if (h->index && (h->capabilities & CAP(SELFMON_CAP_USER_RDPMC)))
		count += counter_value(read_counter(h->index - 1), h->pmc_width);
	return count;
}

/* after PERF_EVENT_IOC_RESET the kernel's prev_count is zero-extended */
static uint64_t fixed(uint64_t count, unsigned width)
{
	if ((int64_t)count < 0 && width < 64)
		count += 1ull << width;
	return count;
}

uint64_t copy_good(const void *page)
{
	const struct perf_event_mmap_page *pc = page;
	struct head h;
	uint64_t count;
	uint32_t seq;

	do {
		seq = READ_ONCE(pc->lock);
		barrier();
		memcpy(&h, page, sizeof(h));
		count = count_of(&h);
		barrier();
	} while (READ_ONCE(pc->lock) != seq || (seq & 1));
	return fixed(count, h.pmc_width);
}

uint64_t copy_lock(const void *page)
{
	const struct perf_event_mmap_page *pc = page;
	uint32_t seq = READ_ONCE(pc->lock), again;

	barrier();
	memcpy(&again, (const char *)page + 8, sizeof(again));
	if (again != seq)
		return 0;
	return copy_good(page);
}

uint64_t copy_late(const void *page)
{
	const struct perf_event_mmap_page *pc = page;
	struct head h;
	uint64_t count;
	uint32_t seq;

	do {
		memcpy(&h.index, (const char *)page + 12, sizeof(h) - 12);
		memcpy(&seq, (const char *)page + 8, sizeof(seq));
		h.capabilities = READ_ONCE(pc->capabilities);
		count = count_of(&h);
		barrier();
	} while (READ_ONCE(pc->lock) != seq || (seq & 1));
	return fixed(count, h.pmc_width);
}

uint64_t copy_whole(const void *page)
{
	struct head h;

	memcpy(&h, page, sizeof(h));
	return (uint64_t)h.offset;
}
