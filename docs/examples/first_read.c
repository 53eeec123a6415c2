/*
 * first_read.c — the README's first reader to check (x86-64, raw ABI): the
 * seqlock loop of the perf_event_mmap_page and rdpmc, with the fault many
 * libraries shipped (no sign extension from pmc_width), so that the check
 * has something to find.  It owns only this function and must not include
 * anything of selfmon: it stands for a user's code.  docs/gen.sh compiles
 * it and writes the README's output of its check.
 */
#include <linux/perf_event.h>
#include <stdint.h>

#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define barrier() __asm__ __volatile__("" ::: "memory")

uint64_t first_read(const struct perf_event_mmap_page *pc)
{
	uint32_t seq, idx, lo, hi;
	uint64_t count;

	do {
		seq = READ_ONCE(pc->lock);
		barrier();
		idx = READ_ONCE(pc->index);
		count = READ_ONCE(pc->offset);
		if (pc->cap_user_rdpmc && idx) {
			__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(idx - 1));
			count += (uint64_t)hi << 32 | lo;
		}
		barrier();
	} while (READ_ONCE(pc->lock) != seq);
	return count;
}
