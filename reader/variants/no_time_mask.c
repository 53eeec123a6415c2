/*
 * no_time_mask — single-fault mutant: converts the raw timer value with
 * time_mult/time_shift/time_offset but ignores cap_user_time_short, i.e.
 * never computes cyc = time_cycles + ((cyc - time_cycles) & time_mask).
 *
 * What goes wrong: on arm64 and riscv64 the page's time fields are
 * relative to sched_clock's epoch over a timer narrower than 64 bits
 * (docs/abi.md §6); once the timer wraps after the epoch, the raw value is
 * small and enabled/running jump back by 2^width cycles' worth of ns.  On
 * x86-64 (cap_user_time_short = 0) it is right.
 *
 * Base: the corpus's correct values reader (base_reader.c), which has the
 * reference reader's IOC_RESET correction; this is its only fault.
 */
#include "base.h"

#define CAP(bit) ((uint64_t)1 << (bit))

int selfmon_v_no_time_mask(const void *page, int fd,
                              struct selfmon_value *out)
{
	const struct perf_event_mmap_page *pc = page;
	uint64_t caps, enabled, running, count, delta, cyc;
	uint64_t time_offset, buf[3];
	uint32_t seq, idx, time_mult;
	uint16_t width, time_shift;
	int user_rdpmc;

	for (;;) {
		seq = READ_ONCE(pc->lock);
		barrier();
		if (seq & 1)
			continue; /* an update is in progress */

		enabled = READ_ONCE(pc->time_enabled);
		running = READ_ONCE(pc->time_running);
		caps = READ_ONCE(pc->capabilities);

		delta = 0;
		if (caps & CAP(SELFMON_CAP_USER_TIME)) {
			time_mult = READ_ONCE(pc->time_mult);
			time_shift = READ_ONCE(pc->time_shift);
			time_offset = READ_ONCE(pc->time_offset);
			cyc = rdtsc(); /* FAULT: time_cycles/time_mask ignored */
			delta = time_offset +
			        mul_u64_u32_shr(cyc, time_mult, time_shift);
		}

		user_rdpmc = (caps & CAP(SELFMON_CAP_USER_RDPMC)) != 0;
		idx = READ_ONCE(pc->index);
		count = (uint64_t)READ_ONCE(pc->offset);
		width = READ_ONCE(pc->pmc_width);
		if (user_rdpmc && idx)
			count = reset_fix(count + sign_extend(rdpmc(idx - 1), width), width);

		barrier();
		if (READ_ONCE(pc->lock) == seq)
			break;
	}

	if (!user_rdpmc || !idx) {
		/* Not on a counter we may read: ask the kernel. */
		if (sys_read(fd, buf, sizeof(buf)) != (long)sizeof(buf))
			return -1;
		out->count = buf[0];
		out->enabled = buf[1];
		out->running = buf[2];
		return 1;
	}

	enabled += delta;
	if (idx)
		running += delta;
	out->count = count;
	out->enabled = enabled;
	out->running = running;
	return 0;
}
