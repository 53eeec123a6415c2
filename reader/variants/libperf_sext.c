/*
 * libperf_sext — re-implementation of libperf's perf_mmap__read_self()
 * (torvalds/linux, tools/lib/perf/mmap.c) as it is from Linux 5.17 to
 * 6.17, together with the caller behaviour of perf_evsel__read()
 * (tools/lib/perf/evsel.c): when the page cannot be used the counter is
 * read with read(2) instead.
 *
 * History checked: perf_mmap__read_self() came in Linux 5.13 (47d01e7b9999
 * "libperf: Add support for user space counter access", x86 only), which
 * also scaled the count, cnt = mul_u64_u64_div64(cnt, ena, run), whenever
 * enabled != running; 5.17 removed that scaling (f2c4dcf19190 "libperf:
 * Remove scaling process from perf_mmap__read_self()") and added arm64
 * (407eb43ae87c), reading PMEVCNTR<n>_EL0 through a per-register table
 * whose entries 12 and 13 are swapped — this variant reads the right
 * register (the slip is arm64_swapped_table.c's single fault).  Linux
 * 6.18 (8dc364fa484d) made evcnt unsigned, which ended the sign extension:
 * that libperf is libperf_nosext.c.
 *
 * Algorithm: refuse (-> read(2)) unless cap_user_rdpmc; seqlock loop (no
 * odd check) with READ_ONCE loads: time_enabled, time_running; if
 * cap_user_time && enabled != running: rdtsc, time_mult, time_shift,
 * time_offset and, with cap_user_time_short, time_cycles/time_mask; index,
 * offset; if cap_user_rdpmc && index: add rdpmc(index - 1) sign-extended
 * from pmc_width (s64 evcnt shifted left then right by 64 - pmc_width),
 * else give up (-> read(2)) from inside the loop; retry while the lock
 * moved.  After the loop, only if enabled != running:
 * cyc = time_cycles + ((cyc - time_cycles) & time_mask) (time_mask ~0 when
 * not short), delta = time_offset + mul_u64_u32_shr(cyc, mult, shift),
 * enabled += delta, running += delta if index.  Values ABI: returns the
 * raw count with enabled/running; 1 after the read(2) fallback.
 *
 * What goes wrong:
 *  - after IOC_RESET (sign extension vs the kernel's zero-extended
 *    prev_count) the count is 2^pmc_width too small (2^48 on x86, 2^32 on
 *    arm64) until the next reload;
 *  - enabled/running are not extrapolated when they were equal at the
 *    last page update (an event that is not multiplexed): they are the
 *    times of that update, older than the read — exact only for the
 *    enabled/running ratio, which is all libperf uses them for;
 *  - no odd-lock check: with a remote writer, a read that runs entirely
 *    inside one update (lock odd at both loads) returns torn fields.
 * index == 0 and !cap_user_rdpmc are served by read(2): correct.
 */
#include "prims.h"

static inline uint64_t mul_u64_u32_shr(uint64_t a, uint32_t mul,
                                       unsigned shift)
{
	return (uint64_t)(((unsigned __int128)a * mul) >> shift);
}

/* perf_mmap__read_self(): 0 when the page gave the values, -1 otherwise. */
static int read_self(const struct perf_event_mmap_page *pc,
                     struct selfmon_value *v)
{
	uint32_t seq, idx, time_mult = 0, time_shift = 0;
	uint64_t cnt, cyc = 0, time_offset = 0, time_cycles = 0;
	uint64_t time_mask = ~0ull;

	if (!pc || !pc->cap_user_rdpmc)
		return -1;

	do {
		seq = READ_ONCE(pc->lock);
		barrier();

		v->enabled = READ_ONCE(pc->time_enabled);
		v->running = READ_ONCE(pc->time_running);

		if (pc->cap_user_time && v->enabled != v->running) {
			cyc = rdtsc();
			time_mult = READ_ONCE(pc->time_mult);
			time_shift = READ_ONCE(pc->time_shift);
			time_offset = READ_ONCE(pc->time_offset);
			if (pc->cap_user_time_short) {
				time_cycles = READ_ONCE(pc->time_cycles);
				time_mask = READ_ONCE(pc->time_mask);
			}
		}

		idx = READ_ONCE(pc->index);
		cnt = (uint64_t)READ_ONCE(pc->offset);
		if (pc->cap_user_rdpmc && idx) {
			int64_t evcnt = (int64_t)rdpmc(idx - 1);
			uint16_t width = READ_ONCE(pc->pmc_width);

			evcnt <<= 64 - width;
			evcnt >>= 64 - width;
			cnt += (uint64_t)evcnt;
		} else {
			return -1;
		}

		barrier();
	} while (READ_ONCE(pc->lock) != seq);

	if (v->enabled != v->running) {
		uint64_t delta;

		cyc = time_cycles + ((cyc - time_cycles) & time_mask);
		delta = time_offset + mul_u64_u32_shr(cyc, time_mult, time_shift);
		v->enabled += delta;
		if (idx)
			v->running += delta;
	}

	v->count = cnt;
	return 0;
}

int selfmon_v_libperf_sext(const void *page, int fd,
                           struct selfmon_value *out)
{
	uint64_t buf[3];

	if (read_self(page, out) == 0)
		return 0;

	/* perf_evsel__read(): the page could not be used, read(2) it */
	if (sys_read(fd, buf, sizeof(buf)) != (long)sizeof(buf))
		return -1;
	out->count = buf[0];
	out->enabled = buf[1];
	out->running = buf[2];
	return 1;
}
