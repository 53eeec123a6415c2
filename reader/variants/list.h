/*
 * list.h — the reader corpus, one record per variant: what each reader
 * is, what is wrong with it, and the verdict it is declared to get in
 * every bundled scenario.  Its prose lives in the variant's own file
 * (reader/variants/NAME.c, the comment at the top); this table is the one
 * place for the rest.
 *
 * Each record is
 *
 *   SELFMON_VARIANT(name, ABI, ARCHES, what, fault, fix, shows,
 *                   expectations...)
 *
 *   name      the variant; its source is reader/variants/name.c and its
 *             exported function selfmon_v_name;
 *   ABI       RAW, TIMES, SCALED or VALUES (README.md, Checking readers;
 *             the function types are selfmon_raw_fn, selfmon_times_fn, selfmon_scaled_fn,
 *             selfmon_values_fn in prims.h);
 *   ARCHES    ALL, or ARM64 for code written with arm64 instructions only
 *             (no native or hw build);
 *   what      one line for `selfmon list`: the published algorithm
 *             re-implemented, or the single fault of a mutant;
 *   fault     one line for `selfmon explain-bug`: what goes wrong;
 *   fix       one line for `selfmon explain-bug`: how to put it right;
 *   shows     the kernel actions the fault names, as `selfmon list` names
 *             them ("reset" for "after IOC_RESET", "migrate,overflow"
 *             for "a migration, an overflow"), "" when it names none:
 *             explain-bug prefers an example with one of them
 *             (sim/cmd/example_rank.c);
 *   expectations
 *             SELFMON_EXPECT(scenario, ENGINE, VERDICT, K, "ACTIONS") each,
 *             without commas between them: the bundled scenario
 *             traces/scenario.scn, BOTH engines or only UNICORN or NATIVE,
 *             a verdict of model/verdict.h without its V_, the failure's
 *             least bound K (the fewest choices that show it, injected
 *             actions and on arm64 the CPU's stale reads of PMXEVCNTR_EL0:
 *             every bound from K up reports this failure, the bounds
 *             below it PASS) and the actions of its counterexample, in
 *             the order `selfmon list` names them.  A scenario not listed
 *             for an engine expects PASS there, at every bound.
 *             SELFMON_EXPECT_IF("kernel=V", ...) is the row under kernel
 *             variant V: the rows for V replace the scenario's others
 *             while V is in the kernel (a PASS row where V cures the
 *             fault).  SELFMON_EXPECT_IF("without=A", ...) is the row
 *             with action A left out (--without), for a row that needs A;
 *             a filter that keeps a row's actions gives that row's
 *             failure, since the first failing schedule of its bound is
 *             still there and none before it is new.  Where no row holds
 *             (a filter takes a row's actions and no row says what then,
 *             or adds actions), the cell has no expectation ("-").
 *
 * Each failure is what the reader's fault makes the kernel model produce
 * under exhaustive exploration (explore.c least_bound()); tests/test_check
 * and tests/test_verdicts run the sweeps at bounds 1 to 3, under each
 * kernel variant and without reset, and assert every cell's verdict, its
 * least bound and its counterexample's actions against these rows.
 * riscv64_rotate is a kernel hazard (a counter read racing a rotation faults, SIGILL):
 * every reader that runs there gets FAULT unless its own bug shows first.
 * x86_munmap is one too (a load of the page after a munmap is SIGSEGV):
 * every reader that loads the page again after the munmap gets FAULT
 * unless its own bug shows first; the native engine does not run it.
 * arm64_remote is another (the writer's stores reach a reader on another
 * CPU out of order, so the seqlock cannot guard the page there): the
 * reference reader gets WRONG_VALUE, and the others do unless they fail
 * otherwise or never read the field that lands late.
 * riscv64_snapshot (the SBI PMU snapshot extension) is no hazard for a
 * reader with a file descriptor: after a sampling overflow the page keeps
 * index 0 and the count at the overflow while the event counts on
 * (pmu_sbi_start_ovf_ctrs_snapshot() writes no page), so a reader that
 * falls back to read(2) at index 0 (the reference) passes, and one that
 * takes offset as the count at index 0 gets WRONG_VALUE with no action:
 * the uapi header's loop does (uapi_*, manpage, jevents_mask48,
 * pinned_loop, rfc2011_mux), and so do the page-only ABIs' adaptations
 * (no_running_guard: its scaling hides the stale offset until an
 * overflow's burst).
 * x86_hybrid (a pinned cpu_core event, the task migrating to a cpu_atom
 * CPU) is a kernel hazard for readers that scale from the page alone:
 * the PMU filter skips the event's PMU there, so no page write marks the
 * task's return to a CPU and the page's time base stays that of the
 * sched out: extrapolating time_enabled at index 0 counts the time off
 * CPU too.  The scaled readers that do (no_running_guard, and uapi_2022
 * without reset) get WRONG_VALUE by one migrate; the reference, which
 * falls back to read(2) at index 0, passes.
 * x86_set_output is a kernel hazard: a redirected event
 * (PERF_EVENT_IOC_SET_OUTPUT) writes its values into the target's page,
 * so after one preempt every reader of the target, the reference
 * included, returns the other event's count (WRONG_VALUE), unless its own
 * fault shows first.
 * x86_freq: a tick that starts a frequency event again without a reload
 * (nothing counted since the last tick) leaves the page's offset paired
 * with the zero-extended counter, as IOC_RESET does, so the readers
 * without the zero-extension fix (uapi_pre2022, uapi_2022,
 * no_zero_ext_fix) fail by two ticks.
 * The native engine lands kernel actions only at routed calls (rdpmc,
 * rdtsc, read), never between two page loads, and a routed call is opaque
 * to the compiler, so the page is reloaded after each one: some faults
 * show on UNICORN only.  It runs local-writer x86_64 scenarios only.
 *
 * Define SELFMON_VARIANT, SELFMON_EXPECT and SELFMON_EXPECT_IF before
 * including this file (it has no include guard, so it can be expanded
 * several times); the expectations are the macro's variadic arguments.
 * sim/readers/readers.c expands
 * it into the records of sm_readers[], each with its list of struct
 * sm_expect (sim/engine/session.h).
 *
 * The correct reader the mutants copy, base_reader.c, has no record: it
 * is no corpus reader (see its header).
 */
#if !defined(SELFMON_VARIANT) || !defined(SELFMON_EXPECT) ||                 \
    !defined(SELFMON_EXPECT_IF)
#error "define SELFMON_VARIANT, SELFMON_EXPECT and SELFMON_EXPECT_IF before including list.h"
#endif

/* ---- Historical re-implementations ----------------------------------- */

SELFMON_VARIANT(rfc2011_test, TIMES, ALL,
	"2011 RFC rdpmc test reader (seed 002): spins while odd, int time "
	"shift, no sign extension, index 0 returns 0",
	"adds the raw counter to offset without sign extension, returns 0 "
	"when index is 0, and adds the time delta to running even when the "
	"event is not on a counter.",
	"sign-extend the counter from pmc_width, fall back to read(2) when "
	"index is 0, and add the delta to running only when index != 0.",
	"",
	SELFMON_EXPECT(arm64_bias, BOTH, WRONG_VALUE, 1, "rotate_out")
	SELFMON_EXPECT(arm64_smt, BOTH, WRONG_VALUE, 1, "rotate_out")
	SELFMON_EXPECT(arm64_counters, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_remote, UNICORN, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_swapped, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_timer_wrap, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(riscv64, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(riscv64_rotate, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_group, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(riscv64_snapshot, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_freq, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_hybrid, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_migrate, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_multiplex, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_munmap, UNICORN, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_mux_swevent, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_never_ran, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_overflow, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_pinned, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_refresh, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_remote, BOTH, WRONG_VALUE, 1, "rotate_out")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_remote, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_reset, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_set_output, BOTH, WRONG_VALUE, 0, ""))

SELFMON_VARIANT(rfc2011_mux, SCALED, ALL,
	"2011 multiplexing mmap_read_self (seed 001): TSC-scaled, int (1 << "
	"time_shift), no sign extension, no running == 0 guard",
	"no sign extension, (1 << time_shift) computed as an int, and count / "
	"running with running possibly 0.",
	"sign-extend from pmc_width, use 64-bit or 128-bit time arithmetic, "
	"and scale only when running != 0.",
	"",
	SELFMON_EXPECT(arm64_bias, UNICORN, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT(arm64_smt, UNICORN, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", arm64_bias, UNICORN, PASS, 0, "")
	SELFMON_EXPECT_IF("without=reset", arm64_smt, UNICORN, PASS, 0, "")
	SELFMON_EXPECT(arm64_counters, UNICORN, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_remote, UNICORN, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_swapped, UNICORN, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_timer_wrap, UNICORN, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", arm64_timer_wrap, UNICORN, WRONG_VALUE, 2, "rotate_out,rotate_in")
	SELFMON_EXPECT(riscv64, UNICORN, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(riscv64_rotate, UNICORN, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_group, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(riscv64_snapshot, UNICORN, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_freq, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_hybrid, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_migrate, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_multiplex, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_munmap, UNICORN, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_mux_swevent, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_never_ran, UNICORN, FAULT, 1, "rotate_in")
	SELFMON_EXPECT(x86_overflow, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_pinned, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_refresh, UNICORN, WRONG_VALUE, 1, "refresh")
	SELFMON_EXPECT(x86_remote, UNICORN, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_remote, UNICORN, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_reset, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_set_output, BOTH, WRONG_VALUE, 0, ""))

SELFMON_VARIANT(pinned_loop, RAW, ALL,
	"2011 pinned-counter loop (seed 002, Ingo): offset + raw rdpmc, no "
	"odd check, no caps, no sign extension",
	"assumes the counter is always on the PMU: no odd-lock check, no "
	"capability check, no sign extension.",
	"check cap_user_rdpmc and index, sign-extend, retry while the lock is "
	"odd or has moved.",
	"",
	SELFMON_EXPECT(arm64_bias, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT(arm64_smt, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", arm64_bias, BOTH, PASS, 0, "")
	SELFMON_EXPECT_IF("without=reset", arm64_smt, BOTH, PASS, 0, "")
	SELFMON_EXPECT(arm64_counters, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_remote, UNICORN, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_swapped, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_timer_wrap, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", arm64_timer_wrap, BOTH, PASS, 0, "")
	SELFMON_EXPECT(riscv64, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(riscv64_rotate, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_group, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(riscv64_snapshot, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_freq, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_hybrid, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_migrate, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_multiplex, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_munmap, UNICORN, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_mux_swevent, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_overflow, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_pinned, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_refresh, UNICORN, WRONG_VALUE, 1, "refresh")
	SELFMON_EXPECT(x86_remote, BOTH, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_remote, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_reset, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_set_output, BOTH, WRONG_VALUE, 0, ""))

SELFMON_VARIANT(uapi_pre2022, SCALED, ALL,
	"uapi perf_event.h comment before the 2022 patch (seed 000 before "
	"side): sign-extends, u64 quot/rem time, no running == 0 guard",
	"the header's loop before 2022: divides by running without checking "
	"it and keeps the IOC_RESET quirk.",
	"guard running != 0 and correct a count that comes out negative by "
	"2^pmc_width.",
	"reset",
	SELFMON_EXPECT(arm64_bias, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT(arm64_smt, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", arm64_bias, BOTH, WRONG_VALUE, 1, "rotate_out")
	SELFMON_EXPECT_IF("without=reset", arm64_smt, BOTH, WRONG_VALUE, 1, "rotate_out")
	SELFMON_EXPECT(arm64_counters, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", arm64_counters, BOTH, WRONG_VALUE, 1, "rotate_out")
	SELFMON_EXPECT(arm64_remote, UNICORN, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_swapped, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_timer_wrap, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(riscv64, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", riscv64, BOTH, PASS, 0, "")
	SELFMON_EXPECT(riscv64_rotate, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_group, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", x86_group, BOTH, WRONG_VALUE, 1, "rotate_out")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_group, BOTH, WRONG_VALUE, 1, "rotate_out")
	SELFMON_EXPECT(riscv64_snapshot, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_freq, BOTH, WRONG_VALUE, 2, "tick,tick")
	SELFMON_EXPECT(x86_hybrid, BOTH, FAULT, 0, "")
	SELFMON_EXPECT(x86_migrate, UNICORN, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT(x86_migrate, NATIVE, WRONG_VALUE, 1, "rotate_out")
	SELFMON_EXPECT_IF("without=reset", x86_migrate, BOTH, WRONG_VALUE, 1, "rotate_out")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_migrate, UNICORN, WRONG_VALUE, 1, "rotate_out")
	SELFMON_EXPECT(x86_multiplex, UNICORN, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT(x86_multiplex, NATIVE, WRONG_VALUE, 1, "migrate")
	SELFMON_EXPECT_IF("without=reset", x86_multiplex, UNICORN, WRONG_VALUE, 1, "rotate_out")
	SELFMON_EXPECT_IF("without=reset", x86_multiplex, NATIVE, WRONG_VALUE, 1, "migrate")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_multiplex, UNICORN, WRONG_VALUE, 1, "rotate_out")
	SELFMON_EXPECT(x86_munmap, UNICORN, FAULT, 0, "")
	SELFMON_EXPECT(x86_mux_swevent, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", x86_mux_swevent, BOTH, PASS, 0, "")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_mux_swevent, BOTH, PASS, 0, "")
	SELFMON_EXPECT(x86_never_ran, BOTH, FAULT, 0, "")
	SELFMON_EXPECT(x86_overflow, UNICORN, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT(x86_overflow, NATIVE, WRONG_VALUE, 1, "rotate_out")
	SELFMON_EXPECT_IF("without=reset", x86_overflow, BOTH, WRONG_VALUE, 1, "rotate_out")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_overflow, UNICORN, WRONG_VALUE, 1, "rotate_out")
	SELFMON_EXPECT(x86_pinned, BOTH, FAULT, 0, "")
	SELFMON_EXPECT(x86_refresh, UNICORN, WRONG_VALUE, 2, "refresh,reset")
	SELFMON_EXPECT_IF("without=reset", x86_refresh, UNICORN, WRONG_VALUE, 2, "refresh,overflow")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_refresh, UNICORN, WRONG_VALUE, 2, "refresh,overflow")
	SELFMON_EXPECT(x86_remote, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_remote, BOTH, WRONG_VALUE, 1, "rotate_out")
	SELFMON_EXPECT(x86_reset, UNICORN, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT(x86_reset, NATIVE, WRONG_VALUE, 1, "rotate_out")
	SELFMON_EXPECT_IF("without=reset", x86_reset, BOTH, WRONG_VALUE, 1, "rotate_out")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_reset, UNICORN, WRONG_VALUE, 1, "rotate_out")
	SELFMON_EXPECT(x86_set_output, BOTH, FAULT, 0, ""))

SELFMON_VARIANT(uapi_2022, SCALED, ALL,
	"uapi perf_event.h comment after the 2022 patch (seed 000 after "
	"side): time_short, sign extension, mul_u64_u32_shr, running != 0 "
	"guard",
	"the 2022 header loop: right arithmetic, but after "
	"PERF_EVENT_IOC_RESET the sign-extended count is 2^pmc_width low.",
	"a count that comes out negative after sign extension was computed "
	"from a zero-extended prev_count: add 2^pmc_width.",
	"reset",
	SELFMON_EXPECT(arm64_bias, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT(arm64_smt, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", arm64_bias, BOTH, PASS, 0, "")
	SELFMON_EXPECT_IF("without=reset", arm64_smt, BOTH, PASS, 0, "")
	SELFMON_EXPECT(arm64_counters, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", arm64_counters, BOTH, PASS, 0, "")
	SELFMON_EXPECT(arm64_remote, UNICORN, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", arm64_remote, UNICORN, PASS, 0, "")
	SELFMON_EXPECT(arm64_swapped, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", arm64_swapped, BOTH, PASS, 0, "")
	SELFMON_EXPECT(arm64_timer_wrap, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", arm64_timer_wrap, BOTH, PASS, 0, "")
	SELFMON_EXPECT(riscv64, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", riscv64, BOTH, PASS, 0, "")
	SELFMON_EXPECT(riscv64_rotate, BOTH, FAULT, 1, "rotate_out")
	SELFMON_EXPECT_IF("kernel=riscv_keep_scounteren", riscv64_rotate, BOTH, PASS, 0, "")
	SELFMON_EXPECT(x86_group, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", x86_group, BOTH, PASS, 0, "")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_group, BOTH, PASS, 0, "")
	SELFMON_EXPECT(riscv64_snapshot, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_freq, BOTH, WRONG_VALUE, 2, "tick,tick")
	SELFMON_EXPECT(x86_hybrid, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", x86_hybrid, UNICORN, WRONG_VALUE, 1, "migrate")
	SELFMON_EXPECT_IF("without=reset", x86_hybrid, NATIVE, PASS, 0, "")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_hybrid, UNICORN, WRONG_VALUE, 1, "migrate")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_hybrid, NATIVE, PASS, 0, "")
	SELFMON_EXPECT(x86_migrate, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", x86_migrate, UNICORN, WRONG_VALUE, 2, "rotate_out,overflow")
	SELFMON_EXPECT_IF("without=reset", x86_migrate, NATIVE, PASS, 0, "")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_migrate, UNICORN, WRONG_VALUE, 2, "rotate_out,overflow")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_migrate, NATIVE, PASS, 0, "")
	SELFMON_EXPECT(x86_multiplex, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", x86_multiplex, BOTH, PASS, 0, "")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_multiplex, BOTH, PASS, 0, "")
	SELFMON_EXPECT(x86_munmap, UNICORN, FAULT, 1, "munmap")
	SELFMON_EXPECT(x86_mux_swevent, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", x86_mux_swevent, BOTH, PASS, 0, "")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_mux_swevent, BOTH, PASS, 0, "")
	SELFMON_EXPECT(x86_overflow, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", x86_overflow, UNICORN, WRONG_VALUE, 2, "rotate_out,overflow")
	SELFMON_EXPECT_IF("without=reset", x86_overflow, NATIVE, PASS, 0, "")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_overflow, UNICORN, WRONG_VALUE, 2, "rotate_out,overflow")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_overflow, NATIVE, PASS, 0, "")
	SELFMON_EXPECT(x86_pinned, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", x86_pinned, UNICORN, WRONG_VALUE, 2, "rotate_out,overflow")
	SELFMON_EXPECT_IF("without=reset", x86_pinned, NATIVE, PASS, 0, "")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_pinned, UNICORN, WRONG_VALUE, 2, "rotate_out,overflow")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_pinned, NATIVE, PASS, 0, "")
	SELFMON_EXPECT(x86_refresh, UNICORN, WRONG_VALUE, 2, "refresh,reset")
	SELFMON_EXPECT_IF("without=reset", x86_refresh, UNICORN, WRONG_VALUE, 2, "refresh,overflow")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_refresh, UNICORN, WRONG_VALUE, 2, "refresh,overflow")
	SELFMON_EXPECT(x86_remote, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_remote, BOTH, WRONG_VALUE, 3, "overflow,migrate")
	SELFMON_EXPECT(x86_reset, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", x86_reset, UNICORN, WRONG_VALUE, 2, "rotate_out,overflow")
	SELFMON_EXPECT_IF("without=reset", x86_reset, NATIVE, PASS, 0, "")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_reset, UNICORN, WRONG_VALUE, 2, "rotate_out,overflow")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_reset, NATIVE, PASS, 0, "")
	SELFMON_EXPECT(x86_set_output, BOTH, WRONG_VALUE, 1, "preempt"))

SELFMON_VARIANT(manpage, SCALED, ALL,
	"perf_event_open(2) man page sketch: count += raw rdpmc(idx - 1) in "
	"the loop (no sign extension), quot/rem time, no running guard",
	"adds the raw rdpmc value (no sign extension) and divides by running "
	"without a guard.",
	"sign-extend from pmc_width and guard running != 0.",
	"",
	SELFMON_EXPECT(arm64_bias, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT(arm64_smt, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", arm64_bias, BOTH, PASS, 0, "")
	SELFMON_EXPECT_IF("without=reset", arm64_smt, BOTH, PASS, 0, "")
	SELFMON_EXPECT(arm64_counters, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_remote, UNICORN, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_swapped, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_timer_wrap, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(riscv64, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(riscv64_rotate, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_group, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(riscv64_snapshot, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_freq, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_hybrid, BOTH, FAULT, 0, "")
	SELFMON_EXPECT(x86_migrate, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_multiplex, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_munmap, UNICORN, FAULT, 0, "")
	SELFMON_EXPECT(x86_mux_swevent, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_never_ran, BOTH, FAULT, 0, "")
	SELFMON_EXPECT(x86_overflow, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_pinned, BOTH, FAULT, 0, "")
	SELFMON_EXPECT(x86_refresh, UNICORN, WRONG_VALUE, 1, "refresh")
	SELFMON_EXPECT(x86_remote, BOTH, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_remote, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_reset, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_set_output, BOTH, FAULT, 0, ""))

SELFMON_VARIANT(libperf_sext, VALUES, ALL,
	"libperf perf_mmap__read_self, Linux 5.17 to 6.17, + read(2) "
	"fallback: sign extension from pmc_width, times extrapolated only if "
	"enabled != running",
	"extrapolates enabled/running only when they differ on the page, so a "
	"pinned event's times are those of the last page update; also keeps "
	"the IOC_RESET quirk.",
	"always add the time delta when cap_user_time is set, and correct the "
	"reset quirk.",
	"reset",
	SELFMON_EXPECT(arm64_bias, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT(arm64_smt, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", arm64_bias, BOTH, PASS, 0, "")
	SELFMON_EXPECT_IF("without=reset", arm64_smt, BOTH, PASS, 0, "")
	SELFMON_EXPECT(arm64_counters, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", arm64_counters, BOTH, PASS, 0, "")
	SELFMON_EXPECT(arm64_remote, UNICORN, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_swapped, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_timer_wrap, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(riscv64, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(riscv64_rotate, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_group, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", x86_group, BOTH, PASS, 0, "")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_group, BOTH, PASS, 0, "")
	SELFMON_EXPECT(riscv64_snapshot, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", riscv64_snapshot, BOTH, PASS, 0, "")
	SELFMON_EXPECT(x86_freq, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_hybrid, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_migrate, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_multiplex, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", x86_multiplex, BOTH, PASS, 0, "")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_multiplex, BOTH, PASS, 0, "")
	SELFMON_EXPECT(x86_munmap, UNICORN, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_mux_swevent, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", x86_mux_swevent, BOTH, PASS, 0, "")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_mux_swevent, BOTH, PASS, 0, "")
	SELFMON_EXPECT(x86_overflow, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_pinned, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_refresh, UNICORN, WRONG_VALUE, 2, "refresh,reset")
	SELFMON_EXPECT_IF("without=reset", x86_refresh, UNICORN, PASS, 0, "")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_refresh, UNICORN, PASS, 0, "")
	SELFMON_EXPECT(x86_remote, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_reset, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_set_output, BOTH, WRONG_VALUE, 0, ""))

SELFMON_VARIANT(libperf_nosext, VALUES, ALL,
	"libperf perf_mmap__read_self since Linux 6.18 (u64 evcnt) + read(2) "
	"fallback: counter masked to pmc_width, no sign extension",
	"libperf since Linux 6.18 (u64 evcnt): the shifts that sign-extended "
	"now mask the counter to pmc_width, so the count is 2^pmc_width too "
	"big after every reload; and, as in every libperf, a pinned event's "
	"times are those of the last page update.",
	"shift a signed value (s64), i.e. sign-extend from pmc_width, and "
	"always add the time delta when cap_user_time is set.",
	"",
	SELFMON_EXPECT(arm64_bias, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_smt, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_counters, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_remote, UNICORN, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_swapped, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_timer_wrap, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(riscv64, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(riscv64_rotate, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_group, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(riscv64_snapshot, BOTH, WRONG_VALUE, 1, "preempt")
	SELFMON_EXPECT(x86_freq, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_hybrid, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_migrate, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_multiplex, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_munmap, UNICORN, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_mux_swevent, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_overflow, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_pinned, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_refresh, UNICORN, WRONG_VALUE, 1, "refresh")
	SELFMON_EXPECT(x86_remote, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_reset, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_set_output, BOTH, WRONG_VALUE, 0, ""))

SELFMON_VARIANT(jevents_mask48, RAW, ALL,
	"pmu-tools jevents rdpmc_read: (rdpmc + offset) & (2^48 - 1), no odd "
	"check, index 0 returns the masked offset without re-checking the "
	"lock",
	"masks the sum rdpmc + offset to 48 bits: right modulo 2^48 on x86 "
	"only (not with arm64's 32-bit counters, not once the count reaches "
	"2^48), and with index 0 it returns offset without re-checking the "
	"lock, so an update landing after the index load goes unnoticed.",
	"sign-extend the counter from pmc_width and add in 64 bits; with "
	"index 0 re-check the lock (or read(2)) too.",
	"",
	/* native: its only x86 fault the native engine can show is the 2^48
	 * wrap of the masked sum; the other, taking offset after an index of
	 * 0 without a re-check, needs an update between two page loads */
	SELFMON_EXPECT(arm64_bias, UNICORN, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT(arm64_smt, UNICORN, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", arm64_bias, UNICORN, WRONG_VALUE, 2, "rotate_out,rotate_in")
	SELFMON_EXPECT_IF("without=reset", arm64_smt, UNICORN, WRONG_VALUE, 2, "rotate_out,rotate_in")
	SELFMON_EXPECT(arm64_counters, UNICORN, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_remote, UNICORN, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_swapped, UNICORN, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_timer_wrap, UNICORN, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", arm64_timer_wrap, UNICORN, WRONG_VALUE, 2, "rotate_out,rotate_in")
	SELFMON_EXPECT(riscv64_rotate, UNICORN, FAULT, 1, "rotate_out")
	SELFMON_EXPECT_IF("kernel=riscv_keep_scounteren", riscv64_rotate, UNICORN, PASS, 0, "")
	SELFMON_EXPECT(x86_group, UNICORN, WRONG_VALUE, 2, "rotate_out,rotate_in")
	SELFMON_EXPECT(x86_group, NATIVE, WRONG_VALUE, 3, "overflow,overflow,overflow")
	SELFMON_EXPECT(riscv64_snapshot, UNICORN, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_hybrid, UNICORN, WRONG_VALUE, 2, "migrate,migrate")
	SELFMON_EXPECT(x86_migrate, UNICORN, WRONG_VALUE, 2, "rotate_out,rotate_in")
	SELFMON_EXPECT(x86_migrate, NATIVE, WRONG_VALUE, 3, "overflow")
	SELFMON_EXPECT(x86_multiplex, UNICORN, WRONG_VALUE, 2, "rotate_out,rotate_in")
	SELFMON_EXPECT(x86_multiplex, NATIVE, WRONG_VALUE, 3, "overflow")
	SELFMON_EXPECT(x86_munmap, UNICORN, FAULT, 1, "munmap")
	SELFMON_EXPECT(x86_mux_swevent, UNICORN, WRONG_VALUE, 2, "overflow")
	SELFMON_EXPECT(x86_mux_swevent, NATIVE, WRONG_VALUE, 3, "overflow")
	SELFMON_EXPECT(x86_overflow, BOTH, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(x86_pinned, UNICORN, WRONG_VALUE, 2, "rotate_out,rotate_in")
	SELFMON_EXPECT(x86_pinned, NATIVE, WRONG_VALUE, 3, "overflow")
	SELFMON_EXPECT(x86_refresh, UNICORN, WRONG_VALUE, 1, "refresh")
	SELFMON_EXPECT(x86_remote, UNICORN, WRONG_VALUE, 2, "rotate_out,migrate")
	SELFMON_EXPECT(x86_reset, UNICORN, WRONG_VALUE, 2, "rotate_out,rotate_in")
	SELFMON_EXPECT(x86_reset, NATIVE, WRONG_VALUE, 3, "overflow")
	SELFMON_EXPECT(x86_set_output, BOTH, WRONG_VALUE, 1, "preempt"))

SELFMON_VARIANT(papi_offset_mask, VALUES, ALL,
	"PAPI style: offset and counter masked to pmc_width and added modulo "
	"2^width (wrong once the count reaches 2^width)",
	"adds offset and counter modulo 2^pmc_width: wrong once the count "
	"reaches 2^pmc_width, and stale times when not multiplexed.",
	"add in 64 bits after sign extension; always extrapolate the times.",
	"",
	SELFMON_EXPECT(arm64_bias, BOTH, WRONG_VALUE, 2, "overflow")
	SELFMON_EXPECT(arm64_smt, BOTH, WRONG_VALUE, 2, "overflow")
	SELFMON_EXPECT(arm64_counters, BOTH, WRONG_VALUE, 2, "overflow")
	SELFMON_EXPECT(arm64_remote, UNICORN, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_swapped, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_timer_wrap, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(riscv64, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(riscv64_rotate, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_group, BOTH, WRONG_VALUE, 2, "overflow,overflow")
	SELFMON_EXPECT(x86_freq, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_hybrid, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_migrate, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_multiplex, BOTH, WRONG_VALUE, 2, "overflow")
	SELFMON_EXPECT(x86_munmap, UNICORN, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_mux_swevent, BOTH, WRONG_VALUE, 2, "overflow")
	SELFMON_EXPECT(x86_overflow, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_pinned, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_remote, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_reset, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_set_output, BOTH, WRONG_VALUE, 0, ""))

/* ---- Single-fault mutants of the correct values reader, base_reader.c */

SELFMON_VARIANT(no_recheck, VALUES, ALL,
	"mutant: never re-reads the lock after reading the page and the "
	"counter",
	"never re-reads the lock, so an update between its loads (a "
	"migration, an overflow) goes unnoticed.",
	"re-read the lock after the last load and retry if it moved.",
	"migrate,overflow",
	SELFMON_EXPECT(arm64_bias, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_smt, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_counters, BOTH, WRONG_VALUE, 1, "migrate")
	SELFMON_EXPECT(arm64_remote, UNICORN, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", arm64_remote, UNICORN, PASS, 0, "")
	SELFMON_EXPECT(arm64_swapped, BOTH, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(arm64_timer_wrap, BOTH, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(riscv64, BOTH, WRONG_VALUE, 1, "preempt")
	SELFMON_EXPECT(riscv64_rotate, BOTH, FAULT, 1, "rotate_out")
	SELFMON_EXPECT_IF("kernel=riscv_keep_scounteren", riscv64_rotate, BOTH, WRONG_VALUE, 1, "rotate_out")
	SELFMON_EXPECT(x86_group, UNICORN, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(x86_group, NATIVE, WRONG_VALUE, 1, "migrate")
	SELFMON_EXPECT(riscv64_snapshot, BOTH, WRONG_VALUE, 1, "preempt")
	SELFMON_EXPECT(x86_freq, UNICORN, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(x86_freq, NATIVE, WRONG_VALUE, 1, "preempt")
	SELFMON_EXPECT(x86_hybrid, BOTH, WRONG_VALUE, 1, "preempt")
	SELFMON_EXPECT(x86_migrate, UNICORN, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(x86_migrate, NATIVE, WRONG_VALUE, 1, "migrate")
	SELFMON_EXPECT(x86_multiplex, UNICORN, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(x86_multiplex, NATIVE, WRONG_VALUE, 1, "migrate")
	SELFMON_EXPECT(x86_munmap, UNICORN, FAULT, 1, "munmap")
	SELFMON_EXPECT(x86_mux_swevent, BOTH, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(x86_overflow, UNICORN, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(x86_overflow, NATIVE, WRONG_VALUE, 1, "migrate")
	SELFMON_EXPECT(x86_pinned, UNICORN, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(x86_pinned, NATIVE, WRONG_VALUE, 1, "migrate")
	SELFMON_EXPECT(x86_refresh, BOTH, WRONG_VALUE, 1, "refresh")
	SELFMON_EXPECT(x86_remote, BOTH, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(x86_reset, UNICORN, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(x86_reset, NATIVE, WRONG_VALUE, 1, "migrate")
	SELFMON_EXPECT(x86_set_output, BOTH, WRONG_VALUE, 1, "preempt"))

SELFMON_VARIANT(inverted_recheck, VALUES, ALL,
	"mutant: retries while lock == seq and returns after the first change "
	"(livelock without updates)",
	"retries while the lock is unchanged: without kernel activity it "
	"never returns; with it, it returns a torn read.",
	"retry while the lock HAS changed (or is odd).",
	"",
	SELFMON_EXPECT(arm64_bias, UNICORN, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_smt, UNICORN, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_counters, UNICORN, WRONG_VALUE, 1, "migrate")
	SELFMON_EXPECT(arm64_remote, UNICORN, LIVELOCK, 0, "")
	SELFMON_EXPECT(arm64_swapped, UNICORN, LIVELOCK, 0, "")
	SELFMON_EXPECT(arm64_timer_wrap, UNICORN, LIVELOCK, 0, "")
	SELFMON_EXPECT(riscv64, UNICORN, LIVELOCK, 0, "")
	SELFMON_EXPECT(riscv64_rotate, UNICORN, LIVELOCK, 0, "")
	SELFMON_EXPECT(x86_group, UNICORN, WRONG_VALUE, 1, "rotate_out")
	SELFMON_EXPECT(x86_group, NATIVE, WRONG_VALUE, 1, "migrate")
	SELFMON_EXPECT(riscv64_snapshot, UNICORN, LIVELOCK, 0, "")
	SELFMON_EXPECT(x86_freq, BOTH, LIVELOCK, 0, "")
	SELFMON_EXPECT(x86_hybrid, BOTH, LIVELOCK, 0, "")
	SELFMON_EXPECT(x86_migrate, BOTH, LIVELOCK, 0, "")
	SELFMON_EXPECT(x86_multiplex, UNICORN, LIVELOCK, 1, "migrate")
	SELFMON_EXPECT(x86_multiplex, NATIVE, WRONG_VALUE, 1, "migrate")
	SELFMON_EXPECT(x86_munmap, UNICORN, LIVELOCK, 0, "")
	SELFMON_EXPECT(x86_mux_swevent, BOTH, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(x86_never_ran, BOTH, LIVELOCK, 0, "")
	SELFMON_EXPECT(x86_overflow, BOTH, LIVELOCK, 0, "")
	SELFMON_EXPECT(x86_pinned, BOTH, LIVELOCK, 0, "")
	SELFMON_EXPECT(x86_refresh, BOTH, LIVELOCK, 0, "")
	SELFMON_EXPECT(x86_remote, UNICORN, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(x86_reset, BOTH, LIVELOCK, 0, "")
	SELFMON_EXPECT(x86_set_output, BOTH, LIVELOCK, 0, ""))

SELFMON_VARIANT(no_barrier, VALUES, ALL,
	"mutant: no compiler barriers, plain loads: the compiler may fold the "
	"two lock loads into one",
	"without compiler barriers and with plain loads the compiler folds "
	"the two lock loads into one: the re-check is gone.",
	"load each field once with READ_ONCE and put barriers (rmb on arm64 "
	"and riscv64) between the lock and the fields.",
	"",
	/* UNICORN only: the folded re-check misses an update that lands
	 * between two page loads, where the native engine never lands one */
	SELFMON_EXPECT(arm64_bias, UNICORN, WRONG_VALUE, 1, "rotate_out")
	SELFMON_EXPECT(arm64_smt, UNICORN, WRONG_VALUE, 1, "rotate_out")
	SELFMON_EXPECT(arm64_counters, UNICORN, WRONG_VALUE, 1, "rotate_out")
	SELFMON_EXPECT(arm64_remote, UNICORN, LIVELOCK, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", arm64_remote, UNICORN, PASS, 0, "")
	SELFMON_EXPECT(arm64_swapped, UNICORN, WRONG_VALUE, 1, "rotate_out")
	SELFMON_EXPECT(arm64_timer_wrap, UNICORN, WRONG_VALUE, 1, "rotate_out")
	SELFMON_EXPECT(riscv64, UNICORN, WRONG_VALUE, 1, "preempt")
	SELFMON_EXPECT(riscv64_rotate, UNICORN, FAULT, 1, "rotate_out")
	SELFMON_EXPECT_IF("kernel=riscv_keep_scounteren", riscv64_rotate, UNICORN, WRONG_VALUE, 1, "rotate_out")
	SELFMON_EXPECT(x86_group, UNICORN, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(riscv64_snapshot, UNICORN, WRONG_VALUE, 1, "preempt")
	SELFMON_EXPECT(x86_freq, UNICORN, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(x86_hybrid, UNICORN, WRONG_VALUE, 1, "preempt")
	SELFMON_EXPECT(x86_migrate, UNICORN, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(x86_multiplex, UNICORN, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(x86_munmap, UNICORN, FAULT, 1, "munmap")
	SELFMON_EXPECT(x86_mux_swevent, UNICORN, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(x86_overflow, UNICORN, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(x86_pinned, UNICORN, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(x86_refresh, UNICORN, WRONG_VALUE, 1, "refresh")
	SELFMON_EXPECT(x86_remote, UNICORN, LIVELOCK, 0, "")
	SELFMON_EXPECT(x86_reset, UNICORN, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(x86_set_output, BOTH, WRONG_VALUE, 1, "preempt"))

SELFMON_VARIANT(stale_delta, VALUES, ALL,
	"mutant: TSC and time delta taken on the first pass only, reused "
	"after a retry",
	"takes the clock and the time delta on the first pass only and reuses "
	"them after a retry.",
	"read the clock and compute the delta inside every pass.",
	"",
	SELFMON_EXPECT(arm64_bias, BOTH, WRONG_VALUE, 1, "migrate")
	SELFMON_EXPECT(arm64_smt, BOTH, WRONG_VALUE, 1, "migrate")
	SELFMON_EXPECT(arm64_counters, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_remote, UNICORN, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", arm64_remote, UNICORN, PASS, 0, "")
	SELFMON_EXPECT(arm64_swapped, BOTH, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(arm64_timer_wrap, BOTH, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(riscv64, BOTH, WRONG_VALUE, 1, "preempt")
	SELFMON_EXPECT(riscv64_rotate, BOTH, FAULT, 1, "rotate_out")
	SELFMON_EXPECT_IF("kernel=riscv_keep_scounteren", riscv64_rotate, BOTH, PASS, 0, "")
	SELFMON_EXPECT(x86_group, BOTH, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(riscv64_snapshot, BOTH, WRONG_VALUE, 1, "preempt")
	SELFMON_EXPECT(x86_freq, BOTH, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(x86_hybrid, BOTH, WRONG_VALUE, 1, "preempt")
	SELFMON_EXPECT(x86_migrate, BOTH, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(x86_multiplex, BOTH, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(x86_munmap, UNICORN, FAULT, 1, "munmap")
	SELFMON_EXPECT(x86_mux_swevent, BOTH, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(x86_overflow, BOTH, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(x86_pinned, BOTH, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(x86_refresh, BOTH, WRONG_VALUE, 1, "refresh")
	SELFMON_EXPECT(x86_remote, BOTH, WRONG_VALUE, 2, "migrate")
	SELFMON_EXPECT(x86_reset, BOTH, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(x86_set_output, BOTH, WRONG_VALUE, 1, "preempt"))

SELFMON_VARIANT(shift_int, VALUES, ALL,
	"mutant: quot/rem time conversion with the int mask (1 << time_shift) "
	"- 1",
	"computes the time with an int mask (1 << time_shift) - 1; for every "
	"shift the kernel writes (<= 31) the mask happens to be right, so no "
	"page exposes it.",
	"use unsigned 64-bit (or mul_u64_u32_shr) arithmetic all the same.",
	"",
	SELFMON_EXPECT(arm64_remote, UNICORN, WRONG_VALUE, 2, "reset,lock_early")
	SELFMON_EXPECT_IF("without=reset", arm64_remote, UNICORN, PASS, 0, "")
	SELFMON_EXPECT_IF("kernel=userpage_wmb", arm64_remote, UNICORN, PASS, 0, "")
	SELFMON_EXPECT(riscv64_rotate, BOTH, FAULT, 1, "rotate_out")
	SELFMON_EXPECT_IF("kernel=riscv_keep_scounteren", riscv64_rotate, BOTH, PASS, 0, "")
	SELFMON_EXPECT(x86_set_output, BOTH, WRONG_VALUE, 1, "preempt")
	SELFMON_EXPECT(x86_munmap, UNICORN, FAULT, 1, "munmap"))

SELFMON_VARIANT(no_running_guard, SCALED, ALL,
	"mutant (scaled): count * enabled / running without checking running "
	"== 0",
	"scales count * enabled / running without checking running: an event "
	"that never ran divides by zero.",
	"return the count unscaled (it is 0) when running is 0.",
	"",
	SELFMON_EXPECT(arm64_remote, UNICORN, WRONG_VALUE, 2, "reset,lock_early")
	SELFMON_EXPECT_IF("without=reset", arm64_remote, UNICORN, PASS, 0, "")
	SELFMON_EXPECT_IF("kernel=userpage_wmb", arm64_remote, UNICORN, PASS, 0, "")
	SELFMON_EXPECT(riscv64_rotate, BOTH, FAULT, 1, "rotate_out")
	SELFMON_EXPECT_IF("kernel=riscv_keep_scounteren", riscv64_rotate, BOTH, PASS, 0, "")
	SELFMON_EXPECT(x86_munmap, UNICORN, FAULT, 1, "munmap")
	SELFMON_EXPECT(x86_never_ran, BOTH, FAULT, 0, "")
	SELFMON_EXPECT(x86_refresh, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(riscv64_snapshot, BOTH, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT(x86_hybrid, BOTH, WRONG_VALUE, 1, "migrate")
	SELFMON_EXPECT(x86_set_output, BOTH, WRONG_VALUE, 1, "preempt"))

SELFMON_VARIANT(rdpmc_index0, VALUES, ALL,
	"mutant: rdpmc(index - 1) without checking index != 0 or "
	"cap_user_rdpmc",
	"calls rdpmc(index - 1) without checking index: with index 0 that is "
	"counter 0xffffffff, a #GP (SIGSEGV).",
	"read the counter only when cap_user_rdpmc and index != 0; else "
	"read(2).",
	"",
	SELFMON_EXPECT(arm64_remote, UNICORN, WRONG_VALUE, 2, "reset,lock_early")
	SELFMON_EXPECT_IF("without=reset", arm64_remote, UNICORN, PASS, 0, "")
	SELFMON_EXPECT_IF("kernel=userpage_wmb", arm64_remote, UNICORN, PASS, 0, "")
	SELFMON_EXPECT(riscv64_rotate, BOTH, FAULT, 1, "rotate_out")
	SELFMON_EXPECT_IF("kernel=riscv_keep_scounteren", riscv64_rotate, BOTH, PASS, 0, "")
	SELFMON_EXPECT(x86_group, BOTH, FAULT, 1, "rotate_out")
	SELFMON_EXPECT(x86_hybrid, BOTH, FAULT, 1, "migrate")
	SELFMON_EXPECT(x86_migrate, BOTH, FAULT, 1, "rotate_out")
	SELFMON_EXPECT(x86_multiplex, BOTH, FAULT, 1, "rotate_out")
	SELFMON_EXPECT(x86_munmap, UNICORN, FAULT, 1, "munmap")
	SELFMON_EXPECT(x86_never_ran, BOTH, FAULT, 0, "")
	SELFMON_EXPECT(x86_overflow, BOTH, FAULT, 1, "rotate_out")
	SELFMON_EXPECT(x86_pinned, BOTH, FAULT, 1, "rotate_out")
	SELFMON_EXPECT(x86_refresh, BOTH, FAULT, 0, "")
	SELFMON_EXPECT(x86_remote, BOTH, FAULT, 1, "rotate_out")
	SELFMON_EXPECT(x86_reset, BOTH, FAULT, 1, "rotate_out")
	SELFMON_EXPECT(x86_set_output, BOTH, FAULT, 1, "rotate_out"))

SELFMON_VARIANT(caps_outside_loop, VALUES, ALL,
	"mutant: capability bits and pmc_width read once before the seqlock "
	"loop",
	"reads the capability bits once before the seqlock: a page update in "
	"flight shows cap_user_time cleared and the reader returns stale "
	"times.",
	"load capabilities inside the seqlock pass with the other fields.",
	"",
	SELFMON_EXPECT(arm64_remote, UNICORN, WRONG_VALUE, 2, "reset,lock_early")
	SELFMON_EXPECT_IF("without=reset", arm64_remote, UNICORN, PASS, 0, "")
	SELFMON_EXPECT_IF("kernel=userpage_wmb", arm64_remote, UNICORN, PASS, 0, "")
	SELFMON_EXPECT(riscv64_rotate, BOTH, FAULT, 1, "rotate_out")
	SELFMON_EXPECT_IF("kernel=riscv_keep_scounteren", riscv64_rotate, BOTH, PASS, 0, "")
	SELFMON_EXPECT(x86_remote, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_set_output, BOTH, WRONG_VALUE, 1, "preempt")
	SELFMON_EXPECT(x86_munmap, UNICORN, FAULT, 1, "munmap"))

SELFMON_VARIANT(no_sext, VALUES, ALL,
	"mutant: no sign extension of the rdpmc value from pmc_width",
	"adds the raw counter without sign extension: off by 2^pmc_width "
	"after every reload.",
	"sign-extend from pmc_width.",
	"",
	SELFMON_EXPECT(arm64_bias, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT(arm64_smt, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", arm64_bias, BOTH, PASS, 0, "")
	SELFMON_EXPECT_IF("without=reset", arm64_smt, BOTH, PASS, 0, "")
	SELFMON_EXPECT(arm64_counters, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_remote, UNICORN, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_swapped, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_timer_wrap, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", arm64_timer_wrap, BOTH, PASS, 0, "")
	SELFMON_EXPECT(riscv64, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(riscv64_rotate, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_group, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(riscv64_snapshot, BOTH, WRONG_VALUE, 1, "preempt")
	SELFMON_EXPECT(x86_freq, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_hybrid, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_migrate, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_multiplex, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_munmap, UNICORN, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_mux_swevent, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_overflow, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_pinned, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_refresh, BOTH, WRONG_VALUE, 1, "refresh")
	SELFMON_EXPECT(x86_remote, BOTH, WRONG_VALUE, 1, "overflow")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_remote, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_reset, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(x86_set_output, BOTH, WRONG_VALUE, 0, ""))

SELFMON_VARIANT(no_zero_ext_fix, VALUES, ALL,
	"the correct base reader itself: always sign-extends, so 2^48 low "
	"after IOC_RESET until the next reload",
	"always sign-extends: right after IOC_RESET the kernel's prev_count "
	"is zero-extended and the count is 2^pmc_width low.",
	"add 2^pmc_width to a count that comes out negative.",
	"reset",
	SELFMON_EXPECT(arm64_bias, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT(arm64_smt, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", arm64_bias, BOTH, PASS, 0, "")
	SELFMON_EXPECT_IF("without=reset", arm64_smt, BOTH, PASS, 0, "")
	SELFMON_EXPECT(arm64_counters, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", arm64_counters, BOTH, PASS, 0, "")
	SELFMON_EXPECT(arm64_remote, UNICORN, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", arm64_remote, UNICORN, PASS, 0, "")
	SELFMON_EXPECT(arm64_swapped, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", arm64_swapped, BOTH, PASS, 0, "")
	SELFMON_EXPECT(arm64_timer_wrap, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", arm64_timer_wrap, BOTH, PASS, 0, "")
	SELFMON_EXPECT(riscv64, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", riscv64, BOTH, PASS, 0, "")
	SELFMON_EXPECT(riscv64_rotate, BOTH, FAULT, 1, "rotate_out")
	SELFMON_EXPECT_IF("kernel=riscv_keep_scounteren", riscv64_rotate, BOTH, PASS, 0, "")
	SELFMON_EXPECT(x86_group, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", x86_group, BOTH, PASS, 0, "")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_group, BOTH, PASS, 0, "")
	SELFMON_EXPECT(riscv64_snapshot, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", riscv64_snapshot, BOTH, PASS, 0, "")
	SELFMON_EXPECT(x86_freq, BOTH, WRONG_VALUE, 2, "tick,tick")
	SELFMON_EXPECT(x86_hybrid, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", x86_hybrid, BOTH, PASS, 0, "")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_hybrid, BOTH, PASS, 0, "")
	SELFMON_EXPECT(x86_migrate, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", x86_migrate, BOTH, PASS, 0, "")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_migrate, BOTH, PASS, 0, "")
	SELFMON_EXPECT(x86_multiplex, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", x86_multiplex, BOTH, PASS, 0, "")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_multiplex, BOTH, PASS, 0, "")
	SELFMON_EXPECT(x86_munmap, UNICORN, FAULT, 1, "munmap")
	SELFMON_EXPECT(x86_mux_swevent, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", x86_mux_swevent, BOTH, PASS, 0, "")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_mux_swevent, BOTH, PASS, 0, "")
	SELFMON_EXPECT(x86_overflow, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", x86_overflow, BOTH, PASS, 0, "")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_overflow, BOTH, PASS, 0, "")
	SELFMON_EXPECT(x86_pinned, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", x86_pinned, BOTH, PASS, 0, "")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_pinned, BOTH, PASS, 0, "")
	SELFMON_EXPECT(x86_refresh, BOTH, WRONG_VALUE, 2, "refresh,reset")
	SELFMON_EXPECT_IF("without=reset", x86_refresh, BOTH, PASS, 0, "")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_refresh, BOTH, PASS, 0, "")
	SELFMON_EXPECT(x86_remote, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_remote, BOTH, PASS, 0, "")
	SELFMON_EXPECT(x86_reset, BOTH, WRONG_VALUE, 1, "reset")
	SELFMON_EXPECT_IF("without=reset", x86_reset, BOTH, PASS, 0, "")
	SELFMON_EXPECT_IF("kernel=reset_prev_count", x86_reset, BOTH, PASS, 0, "")
	SELFMON_EXPECT(x86_set_output, BOTH, WRONG_VALUE, 1, "preempt"))

SELFMON_VARIANT(no_time_mask, VALUES, ALL,
	"mutant: ignores cap_user_time_short (time_cycles/time_mask): wrong "
	"across a timer wrap",
	"ignores time_cycles/time_mask: across a timer wrap (arm64, riscv64) "
	"the time jumps back by the timer's period.",
	"cyc = time_cycles + ((cyc - time_cycles) & time_mask) when "
	"cap_user_time_short.",
	"",
	SELFMON_EXPECT(arm64_remote, UNICORN, WRONG_VALUE, 2, "reset,lock_early")
	SELFMON_EXPECT_IF("without=reset", arm64_remote, UNICORN, PASS, 0, "")
	SELFMON_EXPECT_IF("kernel=userpage_wmb", arm64_remote, UNICORN, PASS, 0, "")
	SELFMON_EXPECT(arm64_timer_wrap, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(riscv64_rotate, BOTH, FAULT, 1, "rotate_out")
	SELFMON_EXPECT_IF("kernel=riscv_keep_scounteren", riscv64_rotate, BOTH, PASS, 0, "")
	SELFMON_EXPECT(x86_set_output, BOTH, WRONG_VALUE, 1, "preempt")
	SELFMON_EXPECT(x86_munmap, UNICORN, FAULT, 1, "munmap"))

/* ---- arm64 only ------------------------------------------------------- */

SELFMON_VARIANT(arm64_swapped_table, VALUES, ARM64,
	"mutant (arm64): counter read through a per-register function table "
	"with entries 12 and 13 swapped, as in libperf and PAPI",
	"its per-register counter table has the entries for PMEVCNTR12 and "
	"PMEVCNTR13 swapped (as libperf's and PAPI's arm64 tables do): an "
	"event on one reads the other.",
	"generate the table (or use one mrs per case of a switch) so entry n "
	"reads PMEVCNTR<n>.",
	"",
	/* only arm64_swapped puts events on PMEVCNTR12/13; every other arm64
	 * scenario uses counters 0..3 and the cycle counter, where it is right */
	SELFMON_EXPECT(arm64_remote, UNICORN, WRONG_VALUE, 2, "reset,lock_early")
	SELFMON_EXPECT_IF("without=reset", arm64_remote, UNICORN, PASS, 0, "")
	SELFMON_EXPECT_IF("kernel=userpage_wmb", arm64_remote, UNICORN, PASS, 0, "")
	SELFMON_EXPECT(arm64_swapped, BOTH, WRONG_VALUE, 0, ""))

SELFMON_VARIANT(arm64_pmselr_unlocked, VALUES, ARM64,
	"mutant (arm64): PMSELR_EL0 select outside the seqlock, PMXEVCNTR_EL0 "
	"read inside",
	"selects the counter (PMSELR_EL0) once, outside the seqlock; when the "
	"event moves the read goes to the old counter.",
	"select and read inside the same seqlock pass.",
	"",
	SELFMON_EXPECT(arm64_bias, BOTH, WRONG_VALUE, 2, "rotate_out,rotate_in")
	SELFMON_EXPECT(arm64_smt, BOTH, WRONG_VALUE, 2, "rotate_out,rotate_in")
	/* 7.2 on SMT cores keeps cycles off PMCCNTR, which the fault needs */
	SELFMON_EXPECT_IF("kernel=7.2", arm64_smt, UNICORN, PASS, 0, "")
	SELFMON_EXPECT(arm64_counters, BOTH, WRONG_VALUE, 0, "")
	SELFMON_EXPECT(arm64_remote, UNICORN, WRONG_VALUE, 2, "reset,lock_early")
	SELFMON_EXPECT_IF("without=reset", arm64_remote, UNICORN, PASS, 0, "")
	SELFMON_EXPECT_IF("kernel=userpage_wmb", arm64_remote, UNICORN, PASS, 0, "")
	SELFMON_EXPECT(arm64_swapped, BOTH, WRONG_VALUE, 2, "rotate_out,rotate_in")
	SELFMON_EXPECT(arm64_timer_wrap, BOTH, WRONG_VALUE, 2, "rotate_out,rotate_in"))

SELFMON_VARIANT(arm64_pmselr_no_isb, VALUES, ARM64,
	"mutant (arm64): PMSELR_EL0 select then PMXEVCNTR_EL0 read with no isb "
	"between them, as DPDK's and VPP's readers do",
	"selects the counter (msr PMSELR_EL0) and reads it (mrs PMXEVCNTR_EL0) "
	"with no isb between: the CPU may still use the previous selection "
	"and the read returns another counter.",
	"put an isb after the msr of PMSELR_EL0 (or read PMEVCNTR<n>_EL0 "
	"directly).",
	"",
	/* the stale read alone shows it where the first pass is the last;
	 * in arm64_bias and arm64_timer_wrap the counter's overflow during
	 * the call, in arm64_counters the scripted rotation, make the reader
	 * retry, and the next pass's isb (in the timer read) lands the write:
	 * an action that ends the retries first is needed */
	SELFMON_EXPECT(arm64_bias, UNICORN, WRONG_VALUE, 2, "overflow")
	SELFMON_EXPECT(arm64_smt, UNICORN, WRONG_VALUE, 2, "overflow")
	/* 7.2 on SMT cores keeps cycles off PMCCNTR, which the fault needs */
	SELFMON_EXPECT_IF("kernel=7.2", arm64_smt, UNICORN, PASS, 0, "")
	SELFMON_EXPECT(arm64_counters, UNICORN, WRONG_VALUE, 2, "migrate")
	SELFMON_EXPECT(arm64_remote, UNICORN, WRONG_VALUE, 1, "")
	SELFMON_EXPECT(arm64_swapped, UNICORN, WRONG_VALUE, 1, "")
	SELFMON_EXPECT(arm64_timer_wrap, UNICORN, WRONG_VALUE, 2, "overflow"))

