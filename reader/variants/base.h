/*
 * base.h — arithmetic shared by the single-fault mutants: each mutant is
 * the corpus's correct values reader (base_reader.c) with one fault, and
 * these helpers are the parts no mutant changes.  Only the variants include it.
 */
#ifndef SELFMON_VARIANTS_BASE_H
#define SELFMON_VARIANTS_BASE_H

#include "prims.h"

/* (cyc * mult) >> shift without losing the high bits of the product. */
static inline uint64_t mul_u64_u32_shr(uint64_t cyc, uint32_t mult,
                                       unsigned shift)
{
	return (uint64_t)(((unsigned __int128)cyc * mult) >> shift);
}

/* The counter is pmc_width bits wide: bit width-1 is its sign. */
static inline uint64_t sign_extend(uint64_t pmc, unsigned width)
{
	if (width == 0 || width >= 64)
		return pmc;
	return (uint64_t)((int64_t)(pmc << (64 - width)) >> (64 - width));
}

/* After IOC_RESET the kernel's prev_count is zero-extended: a count that
 * comes out negative was 2^width low (the reference reader's correction). */
static inline uint64_t reset_fix(uint64_t count, unsigned width)
{
	if (width < 64 && (int64_t)count < 0)
		count += (uint64_t)1 << width;
	return count;
}

#endif
