/*
 * clock.c — cycles to nanoseconds, as the kernel converts them.
 *
 * Owns: mul_u64_u32_shr, clocks_calc_mult_shift, the per-arch derivation of
 * sched_clock parameters from a frequency, and sm_model_ns(): the task
 * context's clock (perf_clock() == local_clock()) on each CPU.  It must not
 * change model state; the page's time fields are written in userpage.c.
 */
#include "clock.h"

/* include/linux/math64.h mul_u64_u32_shr(): (a * mul) >> shift with a
 * 96-bit intermediate. */
uint64_t sm_mul_u64_u32_shr(uint64_t a, uint32_t mul, unsigned shift)
{
	return (uint64_t)(((unsigned __int128)a * mul) >> shift);
}

/* kernel/time/clocksource.c clocks_calc_mult_shift(): the largest shift
 * (<= 32) whose mult = round(to << shift / from) still leaves `maxsec`
 * seconds of input without overflowing 64 bits. */
void sm_calc_mult_shift(uint32_t *mult, uint32_t *shift, uint32_t from,
                        uint32_t to, uint32_t maxsec)
{
	unsigned headroom = 32; /* bits of the 64-bit product left for input */
	uint64_t m = 0;
	unsigned s;

	for (uint64_t t = ((uint64_t)maxsec * from) >> 32; t; t >>= 1)
		headroom--;
	for (s = 32; s > 0; s--) {
		m = (((uint64_t)to << s) + from / 2) / from;
		if ((m >> headroom) == 0)
			break;
	}
	*mult = (uint32_t)m;
	*shift = s;
}

/* Fill cpu's mult/shift from its frequency.
 * x86: arch/x86/kernel/tsc.c __set_cyc2ns_scale() computes from kHz to
 *   ns per ms with maxsec 0 and clamps a shift of 32 to 31 (halving mult)
 *   in the cyc2ns data itself, so sched_clock and the page agree.
 * arm64/riscv64: kernel/time/sched_clock.c sched_clock_register() computes
 *   from Hz to ns per s with maxsec 3600; the clamp is applied only to the
 *   page (arch_perf_update_userpage), not to sched_clock. */
void sm_clock_derive(enum sm_arch arch, const struct sm_clock_cfg *c,
                     struct sm_cpu *cpu)
{
	uint32_t mult = c->mult, shift = c->shift;

	if (c->hz) {
		if (arch == SM_X86_64)
			sm_calc_mult_shift(&mult, &shift,
			                   (uint32_t)(c->hz / 1000), 1000000, 0);
		else
			sm_calc_mult_shift(&mult, &shift, (uint32_t)c->hz,
			                   1000000000, 3600);
	}
	if (arch == SM_X86_64 && shift == 32) {
		shift = 31;
		mult >>= 1;
	}
	cpu->mult = mult;
	cpu->shift = (uint16_t)shift;
	cpu->offset_ns = c->offset_ns;
	cpu->epoch_cyc = c->epoch_cyc;
	cpu->epoch_ns = c->epoch_ns;
}

/* drivers/clocksource/arm_arch_timer.c arch_counter_get_width(): the
 * kernel cannot read the architected counter's width, so it takes the
 * fewest bits that hold 40 years (of 365 days) of counts at the timer's
 * rate (hz > 0): ilog2(40 years of counts - 1) + 1, kept within 56..64
 * (the Arm ARM's narrowest system counter, and a u64).
 * arch_counter_register() hands this width to sched_clock_register(), and
 * the page gets its mask as time_mask (drivers/perf/arm_pmuv3.c
 * arch_perf_update_userpage(): rd->sched_clock_mask).  A 1 GHz timer is
 * 61 bits; 56 bits up to 57123415 Hz. */
unsigned sm_arm64_timer_width(uint64_t hz)
{
	const unsigned __int128 years40 = 40ull * 365 * 24 * 3600;
	unsigned __int128 counts = years40 * hz;
	unsigned bits = 0;

	/* ilog2(counts - 1) + 1 = the bit length of counts - 1 */
	for (counts -= counts != 0; counts; counts >>= 1)
		bits++;
	return bits < 56 ? 56 : bits > 64 ? 64 : bits;
}

/* The timer register as user space reads it: rdtsc returns the TSC;
 * CNTVCT_EL0 and the time CSR are `timer_width` bits wide and wrap. */
uint64_t sm_model_timer(const struct sm_model *m)
{
	return m->cfg->arch == SM_X86_64 ? m->k.now : m->k.now & sm_timer_mask(m);
}

/* sched_clock on `cpu` at clock cycles `cyc`, in ns.
 * x86: arch/x86/kernel/tsc.c cycles_2_ns(): offset + mul_u64_u32_shr().
 * arm64/riscv64: kernel/time/sched_clock.c sched_clock():
 *   epoch_ns + cyc_to_ns((cyc - epoch_cyc) & mask, mult, shift). */
uint64_t sm_model_ns(const struct sm_model *m, unsigned cpu, uint64_t cyc)
{
	return sm_ns_of(m, &m->k.cpu[cpu], cyc);
}

/* The reader's side of the page's time fields (userpage.c writes them):
 * x86: time_zero = cyc2ns offset, the same mult/shift as cycles_2_ns(),
 *   so this is sm_model_ns() exactly.
 * arm64/riscv64 (arch_perf_update_userpage()): time_zero = epoch_ns -
 *   mul(epoch_cyc) with the unclamped shift, the conversion with the
 *   shift clamped to 31 (mult halved), the timer value brought next to
 *   time_cycles through time_mask.  mul(cyc) - mul(epoch_cyc) can exceed
 *   sched_clock's mul(cyc - epoch_cyc) by 1 ns, and the clamp loses
 *   mult's low bit: the kernel's own rounding, which a correct reader
 *   cannot avoid. */
uint64_t sm_model_page_ns(const struct sm_model *m, unsigned cpu,
                          uint64_t cyc)
{
	return sm_page_ns_of(m, &m->k.cpu[cpu], cyc);
}
