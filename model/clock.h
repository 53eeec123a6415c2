/*
 * clock.h — clock.c's part for the model's own files: a CPU's
 * sched_clock parameters from its configuration, and cycles to ns inline
 * for the truth's inner loop.
 *
 * Owns: nothing but declarations of clock.c and the inline bodies of its
 * conversions.  It must not reach the events or the PMU.
 */
#ifndef SELFMON_MODEL_CLOCK_H
#define SELFMON_MODEL_CLOCK_H

#include "state.h"

void sm_clock_derive(enum sm_arch arch, const struct sm_clock_cfg *c,
                     struct sm_cpu *cpu);
static inline uint64_t sm_timer_mask(const struct sm_model *m)
{
	unsigned w = m->cfg->timer_width;
	return w >= 64 ? ~0ull : (1ull << w) - 1;
}

/* The bodies of sm_model_ns() and sm_model_page_ns() (clock.c, where
 * their kernel sources are cited), inline for the truth's inner loop. */
static inline uint64_t sm_ns_of(const struct sm_model *m,
                                const struct sm_cpu *c, uint64_t cyc)
{
	if (m->cfg->arch == SM_X86_64)
		return c->offset_ns + (uint64_t)(((unsigned __int128)cyc *
		                                  c->mult) >> c->shift);
	uint64_t mask = sm_timer_mask(m);
	return c->epoch_ns + (uint64_t)(((unsigned __int128)
	       (((cyc & mask) - c->epoch_cyc) & mask) * c->mult) >> c->shift);
}

static inline uint64_t sm_page_ns_of(const struct sm_model *m,
                                     const struct sm_cpu *c, uint64_t cyc)
{
	if (m->cfg->arch == SM_X86_64)
		return sm_ns_of(m, c, cyc);
	uint64_t mask = sm_timer_mask(m);
	uint64_t zero = c->epoch_ns - (uint64_t)(((unsigned __int128)
	                c->epoch_cyc * c->mult) >> c->shift);
	uint32_t mult = c->shift == 32 ? c->mult >> 1 : c->mult;
	unsigned shift = c->shift == 32 ? 31 : c->shift;
	uint64_t t = c->epoch_cyc + (((cyc & mask) - c->epoch_cyc) & mask);
	return zero + (uint64_t)(((unsigned __int128)t * mult) >> shift);
}

#endif
