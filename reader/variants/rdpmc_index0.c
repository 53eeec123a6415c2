/*
 * rdpmc_index0 — single-fault mutant: rdpmc(index - 1) is executed on
 * every pass without checking index != 0 or cap_user_rdpmc (the read(2)
 * fallback after the loop is still there, but it is reached too late).
 *
 * What goes wrong: whenever the page says index == 0 — the event rotated
 * out (rotate_out), disabled, not yet scheduled, a software event, or
 * user rdpmc not allowed for it — the reader executes rdpmc with
 * ECX = 0xffffffff, which names no counter: #GP (SIGSEGV) instead of the
 * read(2) fallback.  With sysfs rdpmc=0 (CR4.PCE clear) every rdpmc
 * faults.  On arm64 and riscv64 the counter register is named in the
 * instruction, so the corpus's rdpmc() is a switch over the counter
 * number with no case for 0xffffffff: no instruction runs, the value is
 * 0, and the read(2) fallback after the loop gives the right result —
 * the mutant is caught on x86 only.
 *
 * Base: the corpus's correct values-ABI reader, base_reader.c: seqlock
 * retried while odd or moved, READ_ONCE loads, sign extension from
 * pmc_width, the reference reader's IOC_RESET correction (a negative
 * count is 2^pmc_width low), 128-bit time delta, read(2) fallback when
 * index == 0 or !cap_user_rdpmc.  This file is identical to it except
 * for the one fault described above (diff the two to see it), so that
 * fault is its only one.
 */
#include "base.h"

#define CAP(bit) ((uint64_t)1 << (bit))

int selfmon_v_rdpmc_index0(const void *page, int fd,
                           struct selfmon_value *out)
{
	const struct perf_event_mmap_page *pc = page;
	uint64_t caps, enabled, running, count, delta, cyc;
	uint64_t time_offset, time_cycles, time_mask, buf[3];
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
			cyc = rdtsc();
			if (caps & CAP(SELFMON_CAP_USER_TIME_SHORT)) {
				time_cycles = READ_ONCE(pc->time_cycles);
				time_mask = READ_ONCE(pc->time_mask);
				cyc = time_cycles +
				      ((cyc - time_cycles) & time_mask);
			}
			delta = time_offset +
			        mul_u64_u32_shr(cyc, time_mult, time_shift);
		}

		user_rdpmc = (caps & CAP(SELFMON_CAP_USER_RDPMC)) != 0;
		idx = READ_ONCE(pc->index);
		count = (uint64_t)READ_ONCE(pc->offset);
		width = READ_ONCE(pc->pmc_width);
		/* FAULT: neither index != 0 nor cap_user_rdpmc is checked. */
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
