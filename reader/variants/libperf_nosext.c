/*
 * libperf_nosext — re-implementation of libperf's perf_mmap__read_self()
 * (torvalds/linux, tools/lib/perf/mmap.c) as it is since Linux 6.18,
 * together with the read(2) fallback of perf_evsel__read(), like
 * libperf_sext.c.  6.18 took 8dc364fa484d "libperf mmap: In user mmap
 * rdpmc avoid undefined behavior" (Ian Rogers, perf-tools-for-v6.18),
 * which changed the counter's variable from s64 evcnt to u64 evcnt to keep
 * ubsan quiet about shifting a negative value left.  The two shifts that
 * sign-extended from pmc_width (evcnt <<= 64 - width; evcnt >>= 64 -
 * width) are now logical shifts: they clear the bits above pmc_width
 * instead of copying bit width - 1 into them.  So libperf has not
 * sign-extended since 6.18: it adds the counter, masked to pmc_width, to
 * offset.  Everything else is libperf_sext.c (5.17 to 6.17): refuse
 * unless cap_user_rdpmc, READ_ONCE seqlock loop without odd check, TSC
 * extrapolation only when enabled != running, give up from inside the
 * loop when index == 0, then read(2).  Values ABI.
 *
 * Like every libperf since 5.17, on arm64 libperf reads the counter
 * through read_perf_counter()'s table of per-register functions, whose
 * entries 12 and 13 are swapped; this variant reads the right register
 * (that slip is arm64_swapped_table.c's single fault).
 *
 * What goes wrong:
 *  - after every reload (sched-in, rotate_in, enable, migrate, overflow)
 *    the count is 2^pmc_width too big, i.e. on practically every read
 *    served from the page: 2^48 on x86 (where rdpmc returns the 48-bit
 *    counter zero-extended, so the mask changes nothing) and riscv64's
 *    48-bit counters, 2^32 on arm64 — there even for a 32-bit event on a
 *    64-bit counter (PMCCNTR, PMUv3p5 long counters), whose upper-32-bit
 *    bias would have cancelled had the mask not removed it; right after
 *    IOC_RESET it is correct until the next reload;
 *  - enabled/running are not extrapolated when they were equal at the
 *    last page update (an event that is not multiplexed): they are the
 *    times of that update, older than the read;
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
			uint64_t evcnt = rdpmc(idx - 1);
			uint16_t width = READ_ONCE(pc->pmc_width);

			/* unsigned: the shifts keep the low width bits only */
			evcnt <<= 64 - width;
			evcnt >>= 64 - width;
			cnt += evcnt;
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

int selfmon_v_libperf_nosext(const void *page, int fd,
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
