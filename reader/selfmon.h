/*
 * selfmon.h — libselfmon: read a perf event's count, enabled and running
 * time from its mmapped control page, without a system call when the page
 * allows it, correctly in every case the kernel produces.
 *
 *   int fd = perf_event_open(&attr, 0, -1, -1, 0);  // read_format with
 *       // PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING
 *   struct perf_event_mmap_page *pc =
 *       mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
 *   struct selfmon_value v;
 *   if (selfmon_read(pc, fd, &v) >= 0)
 *       printf("%llu\n", (unsigned long long)selfmon_scale(&v));
 *
 * selfmon_read() returns 0 when the values came from the page (rdpmc and
 * the time fields), 1 when it fell back to read(2) on fd, and -errno when
 * that read failed.  It reads from the page only when the page alone gives
 * the exact values: cap_bit0_is_deprecated, cap_user_rdpmc and
 * cap_user_time set and index != 0.  Otherwise (a software event, an event
 * not on a counter after multiplexing or disable, rdpmc not allowed, a
 * clock that is not the stable TSC / architected timer) it uses read(2),
 * because those pages are legitimately stale.
 *
 * Cases handled from the page: the seqlock (odd lock, changed lock; every
 * field loaded once per pass), sign extension of the counter from
 * pmc_width, the zero-extended prev_count the kernel leaves after
 * PERF_EVENT_IOC_RESET (a count that comes out negative is corrected by
 * 2^pmc_width), time_cycles/time_mask (cap_user_time_short), 128-bit
 * time arithmetic, running == 0 in selfmon_scale().
 *
 * Limit: the reset correction assumes the count since the page's update
 * is below 2^63 - 2^pmc_width; a page written at mmap after a read(2) of
 * an event that had already counted more than 2^pmc_width events carries
 * the same zero-extended prev_count and cannot be told apart from the
 * page alone.  Architectures: x86-64 (rdpmc, rdtsc), arm64 (mrs of
 * PMEVCNTR<n>_EL0/PMCCNTR_EL0 and CNTVCT_EL0, with dmb ishld ordering the
 * loads) and riscv64 (csrr of the counter CSRs and rdtime, fence r,r).
 *
 * Thread safety: reads only; any number of threads may call it.
 */
#ifndef SELFMON_H
#define SELFMON_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct perf_event_mmap_page; /* from <linux/perf_event.h> */

struct selfmon_value {
	uint64_t count;   /* events counted while the event was running */
	uint64_t enabled; /* ns the event was enabled */
	uint64_t running; /* ns the event was on a counter */
};

int selfmon_read(const struct perf_event_mmap_page *pc, int fd,
                 struct selfmon_value *v);

/* count * enabled / running without overflow (saturating at 2^64-1);
 * 0 when the event never ran. */
uint64_t selfmon_scale(const struct selfmon_value *v);

#ifdef __cplusplus
}
#endif
#endif
