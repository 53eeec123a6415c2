/*
 * list.h — the reader corpus as an X-macro list.
 *
 * Each line is SELFMON_VARIANT(name, ABI, "description"):
 *   name         the variant; its source is reader/variants/name.c and
 *                its exported function is selfmon_v_name;
 *   ABI          RAW, TIMES, SCALED or VALUES (DESIGN.md §5; the function
 *                types are selfmon_raw_fn, selfmon_times_fn,
 *                selfmon_scaled_fn, selfmon_values_fn in prims.h);
 *   description  one line: the published algorithm re-implemented, or the
 *                single fault of a mutant.  Each .c file's header comment
 *                says in which kernel situations the variant goes wrong.
 *
 * Variants built for every arch use SELFMON_VARIANT; arm64-only ones use
 * SELFMON_VARIANT_ARM64 (same arguments; ignored unless defined).
 *
 * Define SELFMON_VARIANT before including this file (it has no include
 * guard, so it can be expanded several times), e.g.
 *
 *   #define SELFMON_VARIANT(n, abi, d) { #n, SELFMON_ABI_##abi, d },
 *   #include "variants/list.h"
 *   #undef SELFMON_VARIANT
 */
#ifndef SELFMON_VARIANT
#error "define SELFMON_VARIANT(name, abi, description) before including list.h"
#endif

/* Historical re-implementations */
SELFMON_VARIANT(rfc2011_test, TIMES, "2011 RFC rdpmc test reader (seed 002): spins while odd, int time shift, no sign extension, index 0 returns 0")
SELFMON_VARIANT(rfc2011_mux, SCALED, "2011 multiplexing mmap_read_self (seed 001): TSC-scaled, int (1 << time_shift), no sign extension, no running == 0 guard")
SELFMON_VARIANT(pinned_loop, RAW, "2011 pinned-counter loop (seed 002, Ingo): offset + raw rdpmc, no odd check, no caps, no sign extension")
SELFMON_VARIANT(uapi_pre2022, SCALED, "uapi perf_event.h comment before the 2022 patch (seed 000 before side): sign-extends, u64 quot/rem time, no running == 0 guard")
SELFMON_VARIANT(uapi_2022, SCALED, "uapi perf_event.h comment after the 2022 patch (seed 000 after side): time_short, sign extension, mul_u64_u32_shr, running != 0 guard")
SELFMON_VARIANT(manpage, SCALED, "perf_event_open(2) man page sketch: count += raw rdpmc(idx - 1) in the loop (no sign extension), quot/rem time, no running guard")
SELFMON_VARIANT(libperf_sext, VALUES, "libperf perf_mmap__read_self, Linux 5.17 to 6.17, + read(2) fallback: sign extension from pmc_width, times extrapolated only if enabled != running")
SELFMON_VARIANT(libperf_nosext, VALUES, "libperf perf_mmap__read_self since Linux 6.18 (u64 evcnt) + read(2) fallback: counter masked to pmc_width, no sign extension")
SELFMON_VARIANT(jevents_mask48, RAW, "pmu-tools jevents rdpmc_read: (rdpmc + offset) & (2^48 - 1), no odd check, index 0 returns the masked offset without re-checking the lock")
SELFMON_VARIANT(papi_offset_mask, VALUES, "PAPI style: offset and counter masked to pmc_width and added modulo 2^width (wrong once the count reaches 2^width)")

/* Single-fault mutants of the corpus's correct values reader */
SELFMON_VARIANT(no_recheck, VALUES, "mutant: never re-reads the lock after reading the page and the counter")
SELFMON_VARIANT(inverted_recheck, VALUES, "mutant: retries while lock == seq and returns after the first change (livelock without updates)")
SELFMON_VARIANT(no_barrier, VALUES, "mutant: no compiler barriers, plain loads: the compiler may fold the two lock loads into one")
SELFMON_VARIANT(stale_delta, VALUES, "mutant: TSC and time delta taken on the first pass only, reused after a retry")
SELFMON_VARIANT(shift_int, VALUES, "mutant: quot/rem time conversion with the int mask (1 << time_shift) - 1")
SELFMON_VARIANT(no_running_guard, SCALED, "mutant (scaled): count * enabled / running without checking running == 0")
SELFMON_VARIANT(rdpmc_index0, VALUES, "mutant: rdpmc(index - 1) without checking index != 0 or cap_user_rdpmc")
SELFMON_VARIANT(caps_outside_loop, VALUES, "mutant: capability bits and pmc_width read once before the seqlock loop")
SELFMON_VARIANT(no_sext, VALUES, "mutant: no sign extension of the rdpmc value from pmc_width")
SELFMON_VARIANT(no_zero_ext_fix, VALUES, "the correct base reader itself: always sign-extends, so 2^48 low after IOC_RESET until the next reload")
SELFMON_VARIANT(no_time_mask, VALUES, "mutant: ignores cap_user_time_short (time_cycles/time_mask): wrong across a timer wrap")

/* arm64 only: SELFMON_VARIANT_ARM64(name, ABI, description) */
#ifndef SELFMON_VARIANT_ARM64
#define SELFMON_VARIANT_ARM64(name, abi, what)
#define SELFMON_VARIANT_ARM64_DEFAULTED
#endif
SELFMON_VARIANT_ARM64(arm64_swapped_table, VALUES, "mutant (arm64): counter read through a per-register function table with entries 12 and 13 swapped, as in libperf and PAPI")
SELFMON_VARIANT_ARM64(arm64_pmselr_unlocked, VALUES, "mutant (arm64): PMSELR_EL0 select outside the seqlock, PMXEVCNTR_EL0 read inside")
#ifdef SELFMON_VARIANT_ARM64_DEFAULTED
#undef SELFMON_VARIANT_ARM64
#undef SELFMON_VARIANT_ARM64_DEFAULTED
#endif
