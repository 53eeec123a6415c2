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

/* The page alone gives exact values: user rdpmc, user time, on a counter,
 * a sane width, and a kernel that knows cap_bit0 is deprecated. */
static int usable(uint64_t caps, uint32_t index, uint16_t width)
{
	const uint64_t need = 1ull << SELFMON_CAP_BIT0_IS_DEPRECATED |
	                      1ull << SELFMON_CAP_USER_RDPMC |
	                      1ull << SELFMON_CAP_USER_TIME;

	return (~caps & need) == 0 && index != 0 && width >= 1 && width <= 64;
}

/* (cyc * mult) >> shift on the 128-bit product, for a shift below 64
 * (the kernel writes at most 32). x86-64 shifts a register pair in one
 * instruction (shrd); elsewhere the high half moves in by 64 - shift,
 * done as 1 + (shift ^ 63) so that shift 0 needs no test: 6 fewer
 * instructions on riscv64, 2 on arm64, than the compiler's 128-bit shift. */
static uint64_t mul_shr(uint64_t cyc, uint32_t mult, unsigned shift)
{
	unsigned __int128 p = (unsigned __int128)cyc * mult;

	shift &= 63;
#if defined(__x86_64__)
	return (uint64_t)(p >> shift);
#else
	uint64_t lo = (uint64_t)p, hi = (uint64_t)(p >> 64);
	return (lo >> shift) | ((hi << 1) << (shift ^ 63));
#endif
}

/* What one consistent pass over the page yields. */
struct snap {
	uint64_t count;   /* offset + the counter sign-extended from width */
	uint64_t delta;   /* ns since the page's update */
	uint64_t enabled, running;
	uint16_t width;
	int ok;           /* usable(): the values above are exact */
};

/* The seqlock loop: every field loaded once per pass, the counter and the
 * clock read inside it, the arithmetic done before the re-check so that
 * few values stay live; retried while the lock is odd or has moved. */
static void snapshot(const struct perf_event_mmap_page *pc, struct snap *s)
{
	uint32_t seq;

	do {
		seq = READ_ONCE(pc->lock);
		rmb(); /* the lock before the fields (arm64/riscv: a fence) */
		if (seq & 1)
			continue;
		uint64_t caps = READ_ONCE(pc->capabilities);
		uint32_t index = READ_ONCE(pc->index);
		s->width = READ_ONCE(pc->pmc_width);
		s->enabled = READ_ONCE(pc->time_enabled);
		s->running = READ_ONCE(pc->time_running);
		s->ok = usable(caps, index, s->width);
		if (s->ok) {
			unsigned sh = -(unsigned)s->width & 63; /* 64 - width */
			int64_t offset = READ_ONCE(pc->offset);
			uint64_t pmc = rdpmc(index - 1);
			s->count = (uint64_t)offset +
			           (uint64_t)((int64_t)(pmc << sh) >> sh);
			uint32_t mult = READ_ONCE(pc->time_mult);
			uint16_t shift = READ_ONCE(pc->time_shift);
			uint64_t toff = READ_ONCE(pc->time_offset);
			uint64_t cyc = rdtsc();
			if (CAP(caps, SELFMON_CAP_USER_TIME_SHORT)) {
				uint64_t tcyc = READ_ONCE(pc->time_cycles);
				cyc = tcyc + ((cyc - tcyc) & READ_ONCE(pc->time_mask));
			}
			s->delta = toff + mul_shr(cyc, mult, shift);
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
	if (!s.ok)
		return from_read(fd, v);
	/* After IOC_RESET prev_count is the zero-extended raw value: a count
	 * that comes out negative was off by exactly 2^width. */
	uint64_t count = s.count;
	if ((int64_t)count < 0 && s.width < 64)
		count += 1ull << s.width;
	v->count = count;
	v->enabled = s.enabled + s.delta;
	v->running = s.running + s.delta;
	return 0;
}
