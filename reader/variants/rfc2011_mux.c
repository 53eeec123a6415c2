/*
 * rfc2011_mux — re-implementation of Peter Zijlstra's multiplexing-aware
 * mmap_read_self(addr) from the 2011 RFC thread (seed 001): "deal with the
 * whole multiplexing thing without ever having to fall back to read()".
 *
 * Algorithm as published: seqlock loop (no odd check) reading
 * time_enabled/time_running; only if they differ, rdtsc and
 * time_mult/shift/offset; index and offset; if index != 0 add the raw
 * rdpmc(index - 1) (no sign extension, no cap_user_rdpmc or cap_user_time
 * check); after the loop, if enabled != running: delta by the
 * quotient/remainder split with the int expression (1 << time_shift) - 1,
 * enabled += delta, running += delta if index, and the count scaled as
 * quot * enabled + rem * enabled / running with no running == 0 guard.
 * Kept exactly: the int shift, the missing sign extension, the missing
 * guard.  Plain loads with barrier() as in the original.  (cyc and the
 * time fields start at 0 only to keep the compiler quiet: they are used
 * under the same enabled != running test that sets them.)
 *
 * What goes wrong:
 *  - while the event is on a counter, after every reload (sched-in,
 *    rotate_in, enable, migrate, overflow) the raw count is 2^48 too big
 *    (no sign extension), so the scaled count is (C + 2^48) * E / R;
 *    right after IOC_RESET it is correct until the next reload;
 *  - running == 0 with enabled != running divides by zero (#DE on x86;
 *    arm64's udiv gives 0 and riscv64's divu all ones, a wrong value): an
 *    event that has never run (index 0, time_running 0: a flexible event
 *    that failed to schedule or was rotated out before it ever ran);
 *  - without cap_user_time the time fields are 0, delta is time_offset
 *    (0), and the ratio of the last page update is used: wrong under
 *    multiplexing when the clock is not stable;
 *  - rotate_out of an event that had always run so far leaves index 0
 *    with time_enabled == time_running on the page: the enabled !=
 *    running shortcut skips the TSC, enabled is not extrapolated and the
 *    count comes out unscaled while the truth grows as E(t)/R;
 *  - after `disable` of a multiplexed event (index 0, enabled != running)
 *    it extrapolates enabled although the event is OFF: scaled too big
 *    (true of every page-only scaled reader);
 *  - no odd-lock check: with a remote writer, a read that runs entirely
 *    inside one update (lock odd at both loads) returns torn fields;
 *  - index != 0 while user rdpmc is not allowed -> rdpmc #GP;
 *  - rem * enabled overflows 64 bits once running * enabled >= 2^64
 *    (both beyond ~4.3 s);
 *  - time_shift >= 32 would break the int mask (kernel clamps to 31).
 */
#include "prims.h"

uint64_t selfmon_v_rfc2011_mux(const void *page)
{
	const struct perf_event_mmap_page *pc = page;
	uint32_t seq, idx, time_mult = 0, time_shift = 0;
	uint64_t count, cyc = 0, time_offset = 0, enabled, running, delta;

	do {
		seq = pc->lock;
		barrier();

		enabled = pc->time_enabled;
		running = pc->time_running;

		if (enabled != running) {
			cyc = rdtsc();
			time_mult = pc->time_mult;
			time_shift = pc->time_shift;
			time_offset = pc->time_offset;
		}

		idx = pc->index;
		count = pc->offset;
		if (idx)
			count += rdpmc(idx - 1);

		barrier();
	} while (pc->lock != seq);

	if (enabled != running) {
		uint64_t quot, rem;

		quot = cyc >> time_shift;
		rem = cyc & ((1 << time_shift) - 1);
		delta = time_offset + quot * time_mult +
		        ((rem * time_mult) >> time_shift);

		enabled += delta;
		if (idx)
			running += delta;

		quot = count / running;
		rem = count % running;
		count = quot * enabled + (rem * enabled) / running;
	}

	return count;
}
