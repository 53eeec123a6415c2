/*
 * papi_offset_mask — re-implementation in the style of PAPI's perf_event
 * component (icl-utk-edu/papi: mmap_read_self() in src/components/
 * perf_event/perf_helpers.h, "based on the code in include/uapi/linux/
 * perf_event.h", and _pe_read(), which falls back to read(2) when
 * mmap_read_self() returns the all-ones marker) as it was from PAPI 5.6.0
 * (6600cafff "rdpmc: need to sign extend offset too", 2017) to 7.0.0.
 * Those versions' distinctive step is that they reduce BOTH the offset
 * and the counter to pmc_width bits before adding them ("If we don't sign
 * extend it, we get large negative numbers which break if an IOC_RESET is
 * done").  PAPI does that by sign-extending both from pmc_width (shifts)
 * and adding in 64 bits; this variant does what the corpus asks for,
 * "PAPI-style offset masking", with the mask M = 2^width - 1:
 * count = ((offset & M) + (rdpmc & M)) & M, i.e. the count modulo
 * 2^width.  The two agree modulo 2^width but fail at different counts:
 * PAPI's sum is right only while the offset after a reload (count +
 * left) stays below 2^(width - 1), 2^47 on x86; a counting event's first
 * overflow takes it past that, and from then on PAPI's count is off by a
 * multiple of 2^48 (first 2^48 too small: a number near 2^64), while the
 * mask fails only from a count of 2^48.  PAPI 7.0.1 (9a1f2d897, 2023)
 * replaced the routine with a port of libperf's: offset no longer
 * sign-extended, time extrapolated after the loop with time_cycles/
 * time_mask, a reset workaround, and on arm64 libperf's counter table
 * with entries 12 and 13 swapped (arm64_swapped_table.c).
 *
 * Algorithm: seqlock loop (no odd check), plain loads and barrier():
 * enabled, running; if cap_user_time && enabled != running: rdtsc,
 * time_offset/mult/shift and delta by the quotient/remainder split with
 * ((u64)1 << time_shift) - 1, enabled += delta; index, pmc_width, offset
 * masked; if cap_user_rdpmc && index: rdpmc masked, added modulo 2^width,
 * running += delta; else give up (-> read(2)); retry while the lock
 * moved.  PAPI's delta variable is set before the loop and survives
 * retries; here it is reset on every pass so that the only fault is the
 * masking (stale_delta.c covers the other one).  Values ABI: raw count
 * with enabled/running, 1 after the read(2) fallback.
 *
 * When the masking goes wrong: the kernel's count is a 64-bit total; this
 * reader keeps only its low pmc_width bits.  Masked arithmetic is right
 * both after a reload (offset = count + left, counter = 2^48 - left + n)
 * and after IOC_RESET (offset = -prev, counter = prev + n), because both
 * are exact modulo 2^48 — so the value is wrong exactly when the true
 * count has reached 2^pmc_width (2^48 events: ~27 hours of cycles at
 * 2.9 GHz, or at once in a scenario whose count starts above 2^48): it
 * silently restarts from a small number.
 *
 * Also wrong:
 *  - enabled/running are not extrapolated when they were equal at the
 *    last page update (an event that is not multiplexed): they are the
 *    times of that update, older than the read;
 *  - no odd-lock check: with a remote writer, a read that runs entirely
 *    inside one update returns torn fields.
 * index == 0 and !cap_user_rdpmc are served by read(2): correct.
 */
#include "prims.h"

#define PAPI_MMAP_FAILED 0xffffffffffffffffull

static uint64_t mmap_read_self(const struct perf_event_mmap_page *pc,
                               uint64_t *en, uint64_t *ru)
{
	uint32_t seq, time_mult, time_shift, index, width;
	uint64_t enabled, running, cyc, time_offset, quot, rem, delta;
	uint64_t mask, count, pmc;

	do {
		seq = pc->lock;
		barrier();

		enabled = pc->time_enabled;
		running = pc->time_running;

		delta = 0;
		if (pc->cap_user_time && enabled != running) {
			cyc = rdtsc();
			time_offset = pc->time_offset;
			time_mult = pc->time_mult;
			time_shift = pc->time_shift;

			quot = cyc >> time_shift;
			rem = cyc & (((uint64_t)1 << time_shift) - 1);
			delta = time_offset + quot * time_mult +
			        ((rem * time_mult) >> time_shift);
		}
		enabled += delta;

		index = pc->index;
		width = pc->pmc_width;
		mask = width >= 64 ? ~0ull : ((uint64_t)1 << width) - 1;
		count = (uint64_t)pc->offset & mask;

		if (pc->cap_user_rdpmc && index) {
			pmc = rdpmc(index - 1) & mask;
			count = (count + pmc) & mask;
			running += delta;
		} else {
			return PAPI_MMAP_FAILED; /* caller uses read(2) */
		}

		barrier();
	} while (pc->lock != seq);

	*en = enabled;
	*ru = running;
	return count;
}

int selfmon_v_papi_offset_mask(const void *page, int fd,
                               struct selfmon_value *out)
{
	uint64_t buf[3], count, enabled, running;

	count = mmap_read_self(page, &enabled, &running);
	if (count != PAPI_MMAP_FAILED) {
		out->count = count;
		out->enabled = enabled;
		out->running = running;
		return 0;
	}

	if (sys_read(fd, buf, sizeof(buf)) != (long)sizeof(buf))
		return -1;
	out->count = buf[0];
	out->enabled = buf[1];
	out->running = buf[2];
	return 1;
}
