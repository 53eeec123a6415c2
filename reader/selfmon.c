/*
 * selfmon.c — the reference reader (libselfmon), see selfmon.h.
 *
 * Owns: selfmon_read() (selfmon_scale() is in selfmon_scale.c, so that a
 * reader object needs no 128-bit division from libgcc).  Written with the primitives
 * of prims.h only, so the same source is the installed library, the
 * native engine's routed build and the machine code run in Unicorn.  It
 * must not depend on anything else of selfmon.
 */
#include "prims.h"
#include "selfmon.h"

#define CAP(c, bit) (((c) >> (bit)) & 1)

/* One consistent snapshot of what the reader needs from the page. */
struct snap {
	uint64_t caps, enabled, running, pmc, cyc, time_offset, time_cycles,
		time_mask;
	int64_t offset;
	uint32_t index, time_mult;
	uint16_t width, time_shift;
};

static int usable(const struct snap *s)
{
	return CAP(s->caps, SELFMON_CAP_BIT0_IS_DEPRECATED) &&
	       CAP(s->caps, SELFMON_CAP_USER_RDPMC) &&
	       CAP(s->caps, SELFMON_CAP_USER_TIME) && s->index != 0 &&
	       s->width >= 1 && s->width <= 64;
}

/* The seqlock loop: every field loaded once per pass, the counter and the
 * clock read inside, retried while the lock is odd or has moved. */
static void snapshot(const struct perf_event_mmap_page *pc, struct snap *s)
{
	uint32_t seq;

	s->pmc = s->cyc = 0;
	do {
		seq = READ_ONCE(pc->lock);
		rmb(); /* the lock before the fields (arm64/riscv: a fence) */
		if (seq & 1)
			continue;
		s->caps = READ_ONCE(pc->capabilities);
		s->index = READ_ONCE(pc->index);
		s->offset = READ_ONCE(pc->offset);
		s->enabled = READ_ONCE(pc->time_enabled);
		s->running = READ_ONCE(pc->time_running);
		s->width = READ_ONCE(pc->pmc_width);
		s->time_mult = READ_ONCE(pc->time_mult);
		s->time_shift = READ_ONCE(pc->time_shift);
		s->time_offset = READ_ONCE(pc->time_offset);
		s->time_cycles = READ_ONCE(pc->time_cycles);
		s->time_mask = READ_ONCE(pc->time_mask);
		if (usable(s)) {
			s->pmc = rdpmc(s->index - 1);
			s->cyc = rdtsc();
		}
		rmb(); /* the fields before the lock re-check */
	} while ((seq & 1) || READ_ONCE(pc->lock) != seq);
}

static int from_read(int fd, struct selfmon_value *v)
{
	uint64_t buf[3];
	long n = sys_read(fd, buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	if (n != (long)sizeof(buf))
		return -5; /* -EIO: not TOTAL_TIME_ENABLED|RUNNING */
	v->count = buf[0];
	v->enabled = buf[1];
	v->running = buf[2];
	return 1;
}

int selfmon_read(const struct perf_event_mmap_page *pc, int fd,
                 struct selfmon_value *v)
{
	struct snap s;

	snapshot(pc, &s);
	if (!usable(&s))
		return from_read(fd, v);

	/* count = offset + the counter sign-extended from pmc_width */
	unsigned sh = 64u - s.width;
	uint64_t count = (uint64_t)s.offset +
	                 (uint64_t)((int64_t)(s.pmc << sh) >> sh);
	/* After IOC_RESET prev_count is the zero-extended raw value: a count
	 * that comes out negative was off by exactly 2^width. */
	if ((int64_t)count < 0 && s.width < 64)
		count += 1ull << s.width;

	uint64_t cyc = s.cyc;
	if (CAP(s.caps, SELFMON_CAP_USER_TIME_SHORT))
		cyc = s.time_cycles + ((cyc - s.time_cycles) & s.time_mask);
	uint64_t delta = s.time_offset +
	                 (uint64_t)(((unsigned __int128)cyc * s.time_mult) >>
	                            s.time_shift);
	v->count = count;
	v->enabled = s.enabled + delta;
	v->running = s.running + delta;
	return 0;
}
