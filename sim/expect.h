/* expect.h — expected verdicts of the built-in readers (see readers.c):
 * EXPECT(reader, "scenario=VERDICT ..."); scenarios not named expect PASS.
 * Each failing verdict is what the reader's documented fault (the comment
 * at the top of its file) produces in that scenario at bound 2.  The
 * reference reader passes everything but riscv64_rotate, where the kernel
 * itself makes any counter read that races a rotation fault (SIGILL). */
EXPECT(reference,
       "riscv64_rotate=FAULT"),
EXPECT(rfc2011_test,
       "arm64_bias=WRONG_VALUE arm64_counters=WRONG_VALUE"
       " arm64_swapped=WRONG_VALUE arm64_timer_wrap=WRONG_VALUE"
       " riscv64=WRONG_VALUE riscv64_rotate=WRONG_VALUE"
       " x86_migrate=WRONG_VALUE x86_multiplex=WRONG_VALUE"
       " x86_never_ran=WRONG_VALUE x86_overflow=WRONG_VALUE"
       " x86_pinned=WRONG_VALUE x86_remote=WRONG_VALUE"
       " x86_reset=WRONG_VALUE"),
EXPECT(rfc2011_mux,
       "arm64_bias=WRONG_VALUE arm64_counters=WRONG_VALUE"
       " arm64_swapped=WRONG_VALUE arm64_timer_wrap=WRONG_VALUE"
       " riscv64=WRONG_VALUE riscv64_rotate=WRONG_VALUE"
       " x86_migrate=WRONG_VALUE x86_multiplex=WRONG_VALUE"
       " x86_never_ran=FAULT x86_overflow=WRONG_VALUE"
       " x86_pinned=WRONG_VALUE x86_remote=WRONG_VALUE"
       " x86_reset=WRONG_VALUE"),
EXPECT(pinned_loop,
       "arm64_bias=WRONG_VALUE arm64_counters=WRONG_VALUE"
       " arm64_swapped=WRONG_VALUE arm64_timer_wrap=WRONG_VALUE"
       " riscv64=WRONG_VALUE riscv64_rotate=WRONG_VALUE"
       " x86_migrate=WRONG_VALUE x86_multiplex=WRONG_VALUE"
       " x86_overflow=WRONG_VALUE x86_pinned=WRONG_VALUE"
       " x86_remote=WRONG_VALUE x86_reset=WRONG_VALUE"),
EXPECT(uapi_pre2022,
       "arm64_bias=WRONG_VALUE arm64_counters=WRONG_VALUE"
       " arm64_swapped=WRONG_VALUE arm64_timer_wrap=WRONG_VALUE"
       " riscv64=WRONG_VALUE riscv64_rotate=WRONG_VALUE"
       " x86_migrate=WRONG_VALUE x86_multiplex=WRONG_VALUE"
       " x86_never_ran=FAULT x86_overflow=WRONG_VALUE"
       " x86_pinned=FAULT x86_remote=WRONG_VALUE"
       " x86_reset=WRONG_VALUE"),
EXPECT(uapi_2022,
       "arm64_bias=WRONG_VALUE arm64_counters=WRONG_VALUE"
       " arm64_swapped=WRONG_VALUE arm64_timer_wrap=WRONG_VALUE"
       " riscv64=WRONG_VALUE riscv64_rotate=FAULT"
       " x86_migrate=WRONG_VALUE x86_multiplex=WRONG_VALUE"
       " x86_overflow=WRONG_VALUE x86_pinned=WRONG_VALUE"
       " x86_remote=WRONG_VALUE x86_reset=WRONG_VALUE"),
EXPECT(manpage,
       "arm64_bias=WRONG_VALUE arm64_counters=WRONG_VALUE"
       " arm64_swapped=WRONG_VALUE arm64_timer_wrap=WRONG_VALUE"
       " riscv64=WRONG_VALUE riscv64_rotate=WRONG_VALUE"
       " x86_migrate=WRONG_VALUE x86_multiplex=WRONG_VALUE"
       " x86_never_ran=FAULT x86_overflow=WRONG_VALUE"
       " x86_pinned=FAULT x86_remote=WRONG_VALUE"
       " x86_reset=WRONG_VALUE"),
EXPECT(libperf_sext,
       "arm64_bias=WRONG_VALUE arm64_counters=WRONG_VALUE"
       " arm64_swapped=WRONG_VALUE arm64_timer_wrap=WRONG_VALUE"
       " riscv64=WRONG_VALUE riscv64_rotate=WRONG_VALUE"
       " x86_migrate=WRONG_VALUE x86_multiplex=WRONG_VALUE"
       " x86_overflow=WRONG_VALUE x86_pinned=WRONG_VALUE"
       " x86_remote=WRONG_VALUE x86_reset=WRONG_VALUE"),
EXPECT(libperf_nosext,
       "arm64_bias=WRONG_VALUE arm64_counters=WRONG_VALUE"
       " arm64_swapped=WRONG_VALUE arm64_timer_wrap=WRONG_VALUE"
       " riscv64=WRONG_VALUE riscv64_rotate=WRONG_VALUE"
       " x86_migrate=WRONG_VALUE x86_multiplex=WRONG_VALUE"
       " x86_overflow=WRONG_VALUE x86_pinned=WRONG_VALUE"
       " x86_remote=WRONG_VALUE x86_reset=WRONG_VALUE"),
EXPECT(jevents_mask48,
       "arm64_bias=WRONG_VALUE arm64_counters=WRONG_VALUE"
       " arm64_swapped=WRONG_VALUE arm64_timer_wrap=WRONG_VALUE"
       " riscv64_rotate=FAULT x86_migrate=WRONG_VALUE"
       " x86_multiplex=WRONG_VALUE x86_overflow=WRONG_VALUE"
       " x86_pinned=WRONG_VALUE x86_remote=WRONG_VALUE"
       " x86_reset=WRONG_VALUE"),
EXPECT(papi_offset_mask,
       "arm64_bias=WRONG_VALUE arm64_counters=WRONG_VALUE"
       " arm64_swapped=WRONG_VALUE arm64_timer_wrap=WRONG_VALUE"
       " riscv64=WRONG_VALUE riscv64_rotate=WRONG_VALUE"
       " x86_migrate=WRONG_VALUE x86_multiplex=WRONG_VALUE"
       " x86_overflow=WRONG_VALUE x86_pinned=WRONG_VALUE"
       " x86_remote=WRONG_VALUE x86_reset=WRONG_VALUE"),
EXPECT(no_recheck,
       "arm64_bias=WRONG_VALUE arm64_counters=WRONG_VALUE"
       " arm64_swapped=WRONG_VALUE arm64_timer_wrap=WRONG_VALUE"
       " riscv64=WRONG_VALUE riscv64_rotate=FAULT"
       " x86_migrate=WRONG_VALUE x86_multiplex=WRONG_VALUE"
       " x86_overflow=WRONG_VALUE x86_pinned=WRONG_VALUE"
       " x86_remote=WRONG_VALUE x86_reset=WRONG_VALUE"),
EXPECT(inverted_recheck,
       "arm64_bias=WRONG_VALUE arm64_counters=WRONG_VALUE"
       " arm64_swapped=LIVELOCK arm64_timer_wrap=LIVELOCK"
       " riscv64=LIVELOCK riscv64_rotate=LIVELOCK"
       " x86_migrate=LIVELOCK x86_multiplex=LIVELOCK"
       " x86_never_ran=LIVELOCK x86_overflow=LIVELOCK"
       " x86_pinned=LIVELOCK x86_remote=WRONG_VALUE"
       " x86_reset=LIVELOCK"),
EXPECT(no_barrier,
       "arm64_bias=WRONG_VALUE arm64_counters=WRONG_VALUE"
       " arm64_swapped=WRONG_VALUE arm64_timer_wrap=WRONG_VALUE"
       " riscv64=WRONG_VALUE riscv64_rotate=FAULT"
       " x86_migrate=WRONG_VALUE x86_multiplex=WRONG_VALUE"
       " x86_overflow=WRONG_VALUE x86_pinned=WRONG_VALUE"
       " x86_remote=LIVELOCK x86_reset=WRONG_VALUE"),
EXPECT(stale_delta,
       "arm64_bias=WRONG_VALUE arm64_counters=WRONG_VALUE"
       " arm64_swapped=WRONG_VALUE arm64_timer_wrap=WRONG_VALUE"
       " riscv64=WRONG_VALUE riscv64_rotate=FAULT"
       " x86_migrate=WRONG_VALUE x86_multiplex=WRONG_VALUE"
       " x86_overflow=WRONG_VALUE x86_pinned=WRONG_VALUE"
       " x86_remote=WRONG_VALUE x86_reset=WRONG_VALUE"),
EXPECT(shift_int,
       "riscv64_rotate=FAULT"),
EXPECT(no_running_guard,
       "riscv64_rotate=FAULT x86_never_ran=FAULT"),
EXPECT(rdpmc_index0,
       "riscv64_rotate=FAULT x86_migrate=FAULT"
       " x86_multiplex=FAULT x86_never_ran=FAULT"
       " x86_overflow=FAULT x86_pinned=FAULT"
       " x86_remote=FAULT x86_reset=FAULT"),
EXPECT(caps_outside_loop,
       "riscv64_rotate=FAULT x86_remote=WRONG_VALUE"),
EXPECT(no_sext,
       "arm64_bias=WRONG_VALUE arm64_counters=WRONG_VALUE"
       " arm64_swapped=WRONG_VALUE arm64_timer_wrap=WRONG_VALUE"
       " riscv64=WRONG_VALUE riscv64_rotate=WRONG_VALUE"
       " x86_migrate=WRONG_VALUE x86_multiplex=WRONG_VALUE"
       " x86_overflow=WRONG_VALUE x86_pinned=WRONG_VALUE"
       " x86_remote=WRONG_VALUE x86_reset=WRONG_VALUE"),
EXPECT(no_zero_ext_fix,
       "arm64_bias=WRONG_VALUE arm64_counters=WRONG_VALUE"
       " arm64_swapped=WRONG_VALUE arm64_timer_wrap=WRONG_VALUE"
       " riscv64=WRONG_VALUE riscv64_rotate=FAULT"
       " x86_migrate=WRONG_VALUE x86_multiplex=WRONG_VALUE"
       " x86_overflow=WRONG_VALUE x86_pinned=WRONG_VALUE"
       " x86_remote=WRONG_VALUE x86_reset=WRONG_VALUE"),
EXPECT(no_time_mask,
       "arm64_timer_wrap=WRONG_VALUE riscv64_rotate=FAULT"),
/* Its table swaps the entries of PMEVCNTR12 and PMEVCNTR13 (as libperf's
 * and PAPI's do); only arm64_swapped puts events there, every other arm64
 * scenario uses counters 0..3 and the cycle counter, where it is right. */
EXPECT(arm64_swapped_table,
       "arm64_swapped=WRONG_VALUE"),
EXPECT(arm64_pmselr_unlocked,
       "arm64_bias=WRONG_VALUE arm64_counters=WRONG_VALUE"
       " arm64_swapped=WRONG_VALUE arm64_timer_wrap=WRONG_VALUE"),

/* The native engine lands kernel actions only at routed calls (rdpmc,
 * rdtsc, read), never between two page loads, and routed calls are opaque
 * to the compiler, so it reloads the page after each one. */
EXPECT_NATIVE(no_barrier, ""),
EXPECT_NATIVE(inverted_recheck,
       "x86_migrate=LIVELOCK x86_multiplex=WRONG_VALUE x86_never_ran=LIVELOCK"
       " x86_overflow=LIVELOCK x86_pinned=LIVELOCK x86_reset=LIVELOCK"),
/* jevents' only x86 fault the native engine can show is the 2^48 wrap of
 * the masked sum (x86_overflow); its other one, taking offset after an
 * index of 0 without a re-check, needs an update between two page loads. */
EXPECT_NATIVE(jevents_mask48, "x86_overflow=WRONG_VALUE"),
EXPECT_NATIVE(rfc2011_mux,
       "x86_migrate=WRONG_VALUE x86_multiplex=WRONG_VALUE"
       " x86_overflow=WRONG_VALUE x86_pinned=WRONG_VALUE x86_reset=WRONG_VALUE"),
