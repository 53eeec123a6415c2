/*
 * test_scenario.c — the scenario parser (model/scenario.c).
 *
 * Good scenarios on every arch parse into exactly the expected struct
 * sm_scenario; every malformed input gets -1 and exactly one
 * "NAME:LINE:COL: message" line; files are read through sm_scenario_load.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scenario.h"
#include "verdict.h"

/* Scenarios live on the stack so that a failing assertion leaks nothing. */
static struct sm_scenario *parse_ok(struct sm_scenario *s, const char *text)
{
	char err[512] = "";

	if (sm_scenario_parse("t.scn", text, s, err, sizeof(err)) != 0)
		fail_msg("unexpected error: %s", err);
	assert_string_equal(err, "");
	return s;
}

/* ---- good scenarios --------------------------------------------------- */

static void test_empty_gives_defaults(void **state)
{
	struct sm_scenario sc, *s = parse_ok(&sc, "# only a comment\n\n   \t\n");
	struct sm_config def;

	(void)state;
	sm_config_default(&def, SM_X86_64);
	assert_string_equal(s->name, "t.scn");
	assert_int_equal(s->cfg.arch, SM_X86_64);
	assert_int_equal(s->cfg.gp, def.gp);
	assert_int_equal(s->cfg.fixed, def.fixed);
	assert_int_equal(s->cfg.width, def.width);
	assert_int_equal(s->cfg.max_period, def.max_period);
	assert_int_equal(s->cfg.ncpus, def.ncpus);
	assert_int_equal(s->cfg.cpu[1].hz, def.cpu[1].hz);
	assert_int_equal(s->cfg.writer, SM_WRITER_LOCAL);
	/* the default event is exactly "event instructions" */
	assert_int_equal(s->cfg.nevents, 1);
	assert_string_equal(s->cfg.event[0].name, "instructions");
	assert_int_equal(s->cfg.event[0].type, SM_EV_INSTRUCTIONS);
	assert_int_equal(s->cfg.event[0].counter, SM_AUTO);
	assert_false(s->cfg.event[0].pinned);
	assert_true(s->cfg.event[0].enabled);
	assert_true(s->cfg.event[0].mmap);
	assert_false(s->cfg.event[0].long64);
	assert_true(s->cfg.event[0].user);
	assert_false(s->cfg.event[0].clockid);
	assert_int_equal(s->cfg.event[0].period, 0);
	assert_int_equal(s->cfg.event[0].left, 0);
	assert_int_equal(s->cfg.event[0].rate, 1);
	assert_int_equal(s->nactions, 0);
	assert_int_equal(s->end, 1000);
	/* the rest of the config is untouched defaults */
	def.nevents = s->cfg.nevents;
	def.event[0] = s->cfg.event[0];
	assert_memory_equal(&def, &s->cfg, sizeof(def));
}

static const char x86_text[] =
	"# a full x86 scenario\n"
	"arch x86_64\n"
	"pmu gp=6 fixed=3 width=40 max_period=0x7fffffffff rdpmc=2 "
	"mux_interval=4000000\n"
	"clock hz=3000000000 stable=no offset=0x10 start=1000000 cpus=4\n"
	"cpu 1 clock_offset=123456   # a per-CPU difference\n"
	"cpu\t2 mult=0x155555 shift=22\n"
	"task cpu=1\n"
	"event instructions counter=fixed0 pinned=yes left=100\n"
	"event cycles counter=gp2 enabled=no mmap=no clockid=yes "
	"period=0x1000 rate=3\n"
	"event raw.thing-1 type=ref_cycles counter=5 period=0x40\n"
	"event task-clock\n"
	"writer remote\n"
	"at 9000 rotate_in counter=1\n"
	"at 5000 rotate_out event=cycles\n"
	"at 5000 migrate cpu=3 cycles=77 counter=fixed2\n"
	"at 100 preempt\n"
	"at 0x1b58 period period=0x20 event=raw.thing-1\n"
	"at 5000 stall\n"
	"end 20000\n";

static void test_x86_config(void **state)
{
	struct sm_scenario sc, *s = parse_ok(&sc, x86_text);
	const struct sm_config *c = &s->cfg;

	(void)state;
	assert_int_equal(c->arch, SM_X86_64);
	assert_int_equal(c->gp, 6);
	assert_int_equal(c->fixed, 3);
	assert_int_equal(c->width, 40);
	assert_int_equal(c->max_period, 0x7fffffffffull);
	assert_int_equal(c->user_access, 2);
	assert_int_equal(c->mux_interval, 4000000);
	assert_false(c->stable);
	assert_int_equal(c->start, 1000000);
	assert_int_equal(c->ncpus, 4);
	assert_int_equal(c->task_cpu, 1);
	assert_int_equal(c->writer, SM_WRITER_REMOTE);
	for (unsigned i = 0; i < SM_MAX_CPUS; i++) {
		if (i == 2)
			continue;
		assert_int_equal(c->cpu[i].hz, 3000000000ull);
		assert_int_equal(c->cpu[i].mult, 0);
		assert_int_equal(c->cpu[i].shift, 0);
		assert_int_equal(c->cpu[i].offset_ns, i == 1 ? 123456 : 0x10);
		assert_int_equal(c->cpu[i].epoch_ns, 0);
	}
	assert_int_equal(c->cpu[2].hz, 0);
	assert_int_equal(c->cpu[2].mult, 0x155555);
	assert_int_equal(c->cpu[2].shift, 22);
	assert_int_equal(c->cpu[2].offset_ns, 0x10);
}

static void test_x86_events(void **state)
{
	struct sm_scenario sc, *s = parse_ok(&sc, x86_text);
	const struct sm_event_cfg *e = s->cfg.event;

	(void)state;
	assert_int_equal(s->cfg.nevents, 4);
	assert_string_equal(e[0].name, "instructions");
	assert_int_equal(e[0].type, SM_EV_INSTRUCTIONS);
	assert_int_equal(e[0].counter, SM_X86_FIXED + 0);
	assert_true(e[0].pinned);
	assert_int_equal(e[0].left, 100);
	assert_true(e[0].enabled);

	assert_string_equal(e[1].name, "cycles");
	assert_int_equal(e[1].type, SM_EV_CYCLES);
	assert_int_equal(e[1].counter, 2);
	assert_false(e[1].pinned);
	assert_false(e[1].enabled);
	assert_false(e[1].mmap);
	assert_true(e[1].clockid);
	assert_int_equal(e[1].period, 0x1000);
	assert_int_equal(e[1].rate, 3);

	assert_string_equal(e[2].name, "raw.thing-1");
	assert_int_equal(e[2].type, SM_EV_REF_CYCLES);
	assert_int_equal(e[2].counter, 5);
	assert_int_equal(e[2].rate, 1);
	assert_int_equal(e[2].period, 0x40);

	assert_string_equal(e[3].name, "task-clock");
	assert_int_equal(e[3].type, SM_EV_SOFTWARE);
	assert_int_equal(e[3].counter, SM_AUTO);
}

static void test_x86_actions_sorted(void **state)
{
	struct sm_scenario sc, *s = parse_ok(&sc, x86_text);
	const struct sm_timed_action *a = s->act;

	(void)state;
	assert_int_equal(s->end, 20000);
	assert_int_equal(s->nactions, 6);
	/* sorted by time, stable: the three at 5000 keep file order */
	assert_int_equal(a[0].at, 100);
	assert_int_equal(a[0].line, 16);
	assert_int_equal(a[0].act.kind, SM_ACT_PREEMPT);
	assert_int_equal(a[0].act.cycles, 1000); /* default */
	assert_int_equal(a[0].act.event, SM_AUTO);
	assert_int_equal(a[0].act.cpu, SM_AUTO);
	assert_int_equal(a[0].act.counter, SM_AUTO);

	assert_int_equal(a[1].at, 5000);
	assert_int_equal(a[1].line, 14);
	assert_int_equal(a[1].act.kind, SM_ACT_ROTATE_OUT);
	assert_int_equal(a[1].act.event, 1);
	assert_int_equal(a[1].act.cycles, 0);

	assert_int_equal(a[2].at, 5000);
	assert_int_equal(a[2].line, 15);
	assert_int_equal(a[2].act.kind, SM_ACT_MIGRATE);
	assert_int_equal(a[2].act.cpu, 3);
	assert_int_equal(a[2].act.cycles, 77);
	assert_int_equal(a[2].act.counter, SM_X86_FIXED + 2);
	assert_int_equal(a[2].act.event, SM_AUTO);

	assert_int_equal(a[3].at, 5000);
	assert_int_equal(a[3].line, 18);
	assert_int_equal(a[3].act.kind, SM_ACT_STALL);
	assert_int_equal(a[3].act.cycles, 1000);

	assert_int_equal(a[4].at, 7000);
	assert_int_equal(a[4].line, 17);
	assert_int_equal(a[4].act.kind, SM_ACT_PERIOD);
	assert_int_equal(a[4].act.period, 0x20);
	assert_int_equal(a[4].act.event, 2);

	assert_int_equal(a[5].at, 9000);
	assert_int_equal(a[5].line, 13);
	assert_int_equal(a[5].act.kind, SM_ACT_ROTATE_IN);
	assert_int_equal(a[5].act.counter, 1);
	assert_int_equal(a[5].act.period, 0);
}

static void test_arm64(void **state)
{
	struct sm_scenario sc, *s = parse_ok(&sc, 
		"arch arm64\n"
		"pmu gp=31 user_access=0 long=yes mux_interval=0x100\n"
		"clock mult=0x80000000 shift=31 epoch_cyc=0xffff offset=777 "
		"width=56 start=0xfffffffff0\n"
		"event cycles counter=cycle long=yes user=no\n"
		"event cpu-cycles counter=gp30\n"
		"event ref-cycles counter=0\n"
		"event other_thing\n"
		"at 20 clock_epoch\n"
		"at 10 rotate_in counter=cycle event=cpu-cycles\n"
		"at 10 rotate\n");
	const struct sm_config *c = &s->cfg;

	(void)state;
	assert_int_equal(c->arch, SM_ARM64);
	assert_int_equal(c->gp, 31);
	assert_int_equal(c->fixed, 0);
	assert_int_equal(c->user_access, 0);
	assert_true(c->long_counters);
	assert_int_equal(c->mux_interval, 0x100);
	assert_int_equal(c->timer_width, 56);
	assert_int_equal(c->start, 0xfffffffff0ull);
	assert_int_equal(c->cpu[0].hz, 0);
	assert_int_equal(c->cpu[0].mult, 0x80000000u);
	assert_int_equal(c->cpu[0].shift, 31);
	assert_int_equal(c->cpu[0].epoch_cyc, 0xffff);
	assert_int_equal(c->cpu[0].epoch_ns, 777); /* offset= is epoch_ns */
	assert_int_equal(c->cpu[0].offset_ns, 0);
	assert_int_equal(c->cpu[7].mult, 0x80000000u);
	assert_int_equal(c->cpu[1].hz, 0); /* one sched_clock: all alike */
	assert_int_equal(c->cpu[1].mult, 0x80000000u);
	assert_int_equal(c->cpu[1].shift, 31);
	assert_int_equal(c->cpu[1].epoch_cyc, 0xffff);
	assert_int_equal(c->cpu[1].epoch_ns, 777);

	assert_int_equal(c->nevents, 4);
	assert_int_equal(c->event[0].type, SM_EV_CYCLES);
	assert_int_equal(c->event[0].counter, SM_ARM64_CYCLE);
	assert_true(c->event[0].long64);
	assert_false(c->event[0].user);
	assert_int_equal(c->event[1].type, SM_EV_CYCLES);
	assert_int_equal(c->event[1].counter, 30);
	assert_int_equal(c->event[2].type, SM_EV_REF_CYCLES);
	assert_int_equal(c->event[2].counter, 0);
	assert_int_equal(c->event[3].type, SM_EV_OTHER);
	assert_true(c->event[3].user);

	assert_int_equal(s->nactions, 3);
	assert_int_equal(s->act[0].act.kind, SM_ACT_ROTATE_IN);
	assert_int_equal(s->act[0].act.counter, SM_ARM64_CYCLE);
	assert_int_equal(s->act[0].act.event, 1);
	assert_int_equal(s->act[1].act.kind, SM_ACT_ROTATE);
	assert_int_equal(s->act[2].act.kind, SM_ACT_CLOCK_EPOCH);
	assert_int_equal(s->act[2].act.cpu, SM_AUTO);
	assert_int_equal(s->end, 1020); /* last 'at' + 1000 */
}

static void test_riscv64(void **state)
{
	struct sm_scenario sc, *s = parse_ok(&sc, 
		"arch riscv64 # comment right after\n"
		"pmu gp=4 width=40 user_access=2 snapshot=yes\r\n"
		"clock hz=10000000 width=64 cpus=3 epoch_cyc=1\n"
		"task cpu=2\n"
		"event instructions counter=instret\n"
		"event cycles counter=cycle\n"
		"event e3 counter=3\n"
		"event e6 counter=hpm6 user=no\n"
		"event page-faults\n"
		"at 0x10 overflow event=e6\n"
		"at 0 mmap\n"
		"at 16 read\n"
		"at 16 migrate counter=hpm4\n");
	const struct sm_config *c = &s->cfg;

	(void)state;
	assert_int_equal(c->arch, SM_RISCV64);
	assert_int_equal(c->gp, 4);
	assert_int_equal(c->width, 40);
	assert_int_equal(c->user_access, 2);
	assert_true(c->sbi_snapshot);
	assert_int_equal(c->cpu[2].hz, 10000000);
	assert_int_equal(c->cpu[2].epoch_cyc, 1);
	assert_int_equal(c->timer_width, 64);
	assert_int_equal(c->ncpus, 3);
	assert_int_equal(c->task_cpu, 2);
	assert_int_equal(c->nevents, 5);
	assert_int_equal(c->event[0].counter, SM_RISCV_INSTRET);
	assert_int_equal(c->event[1].counter, SM_RISCV_CYCLE);
	assert_int_equal(c->event[2].counter, 3);
	assert_int_equal(c->event[3].counter, 6);
	assert_false(c->event[3].user);
	assert_int_equal(c->event[4].type, SM_EV_SOFTWARE);
	assert_int_equal(s->nactions, 4);
	assert_int_equal(s->act[0].act.kind, SM_ACT_MMAP);
	assert_int_equal(s->act[1].act.kind, SM_ACT_OVERFLOW);
	assert_int_equal(s->act[1].act.event, 3);
	assert_int_equal(s->act[2].act.kind, SM_ACT_READ);
	assert_int_equal(s->act[3].act.kind, SM_ACT_MIGRATE);
	assert_int_equal(s->act[3].act.counter, 4);
	assert_int_equal(s->act[3].act.cycles, 1000);
	assert_int_equal(s->act[3].line, 13);
}

static void test_arch_resets_and_numbers(void **state)
{
	struct sm_scenario sc, *s = parse_ok(&sc, 
		"   arch arm64\n"                 /* indented is fine */
		"pmu mux_interval=18446744073709551615\n"
		"clock start=0xFFFFFFFFFFFFFFFF\n"
		"at 18446744073709551000 enable\n"
		"at 007 disable\n");

	(void)state;
	assert_int_equal(s->cfg.arch, SM_ARM64);
	assert_int_equal(s->cfg.gp, 6);         /* arm64 defaults */
	assert_int_equal(s->cfg.width, 32);
	assert_int_equal(s->cfg.mux_interval, UINT64_MAX);
	assert_int_equal(s->cfg.start, UINT64_MAX);
	assert_int_equal(s->act[0].at, 7);
	/* the default end saturates instead of wrapping */
	assert_int_equal(s->end, UINT64_MAX);
}

/* The example of traces/README.md, with stable=no: its per-CPU offset on a
 * stable TSC is a machine Linux does not make (x86 keeps one cyc2ns for
 * all CPUs then), which the parser refuses (test_stable_clocks). */
static void test_design_example(void **state)
{
	struct sm_scenario sc, *s = parse_ok(&sc,
		"arch x86_64                      # x86_64 | arm64 | riscv64\n"
		"pmu gp=4 fixed=3 width=48 max_period=0x7fffffffffff rdpmc=1\n"
		"clock hz=2900000000 stable=no    # or: clock mult=... shift=...\n"
		"cpu 1 clock_offset=123456        # per-CPU differences\n"
		"event instructions counter=2 pinned=no left=100   # left: cycles\n"
		"writer local                     # local | remote\n"
		"at 5000 rotate_out               # timed kernel actions (cycles)\n"
		"at 9000 rotate_in counter=1\n");

	(void)state;
	assert_int_equal(s->cfg.max_period, (1ull << 47) - 1);
	assert_int_equal(s->cfg.user_access, 1);
	assert_false(s->cfg.stable);
	assert_int_equal(s->cfg.cpu[0].hz, 2900000000ull);
	assert_int_equal(s->cfg.cpu[1].offset_ns, 123456);
	assert_int_equal(s->cfg.cpu[0].offset_ns, 0);
	assert_int_equal(s->cfg.nevents, 1);
	assert_int_equal(s->cfg.event[0].counter, 2);
	assert_int_equal(s->cfg.event[0].left, 100);
	assert_int_equal(s->nactions, 2);
	assert_int_equal(s->act[0].act.kind, SM_ACT_ROTATE_OUT);
	assert_int_equal(s->act[1].act.counter, 1);
	assert_int_equal(s->end, 10000);
}

/* x86 CPU clocks may differ only with an unstable TSC, and 'clock
 * stable=no' must come first (arch/x86/kernel/tsc.c: one cyc2ns for all
 * CPUs while the TSC is stable).  A 'cpu' line that only repeats the
 * common clock is fine. */
static void test_stable_clocks(void **state)
{
	struct sm_scenario sc, *s;
	(void)state;
	s = parse_ok(&sc, "clock stable=no\ncpu 1 clock_offset=5 hz=1000000\n"
	             "clock stable=no hz=2000000000\n");
	assert_false(s->cfg.stable);
	assert_int_equal(s->cfg.cpu[1].offset_ns, 5);
	assert_int_equal(s->cfg.cpu[1].hz, 2000000000ull);
	s = parse_ok(&sc, "cpu 1 hz=2900000000 clock_offset=0\n"
	             "clock offset=7\ncpu 0 clock_offset=7\n");
	assert_true(s->cfg.stable);
	assert_int_equal(s->cfg.cpu[1].offset_ns, 7);
	/* 'clock' sets every CPU alike: differences are gone after it */
	s = parse_ok(&sc, "clock stable=no\ncpu 1 clock_offset=5\n"
	             "clock offset=0 stable=yes\n");
	assert_true(s->cfg.stable);
}

/* kernel NAME[,NAME...]: the variants as bits; base is none. */
static void test_kernel_variants(void **state)
{
	struct sm_scenario sc, *s;

	(void)state;
	s = parse_ok(&sc, "end 100\n");
	assert_int_equal(s->cfg.kernel, 0);
	s = parse_ok(&sc, "kernel reset_prev_count\n");
	assert_int_equal(s->cfg.kernel, 1u << SM_KV_RESET_PREV_COUNT);
	s = parse_ok(&sc, "kernel base\n");
	assert_int_equal(s->cfg.kernel, 0);
	s = parse_ok(&sc, "arch riscv64\nkernel riscv_keep_scounteren,"
	             "userpage_wmb\n");
	assert_int_equal(s->cfg.kernel, (1u << SM_KV_RISCV_KEEP_SCOUNTEREN) |
	                                (1u << SM_KV_USERPAGE_WMB));
}

/* kernel 7.2: a version, one bit, with variants on top (in any order);
 * 6.12 is the base; two versions or an unknown one are refused. */
static void test_kernel_versions(void **state)
{
	struct sm_scenario sc, *s;
	char err[256], text[64];
	unsigned bits = 0;

	(void)state;
	s = parse_ok(&sc, "kernel 7.2\n");
	assert_int_equal(s->cfg.kernel, 1u << SM_KV_LINUX_7_2);
	assert_true(sm_kernel_at_least(&s->cfg, 7, 2));
	assert_true(sm_kernel_at_least(&s->cfg, 6, 12));
	assert_false(sm_kernel_at_least(&s->cfg, 7, 3));
	s = parse_ok(&sc, "kernel 6.12\n");
	assert_int_equal(s->cfg.kernel, 0);
	assert_false(sm_kernel_at_least(&s->cfg, 7, 2));
	assert_true(sm_kernel_at_least(&s->cfg, 6, 12));
	s = parse_ok(&sc, "arch arm64\nkernel userpage_wmb,7.2\n"
	             "pmu long=yes pmuv3p9=yes smt=yes\n");
	assert_int_equal(s->cfg.kernel, (1u << SM_KV_LINUX_7_2) |
	                                (1u << SM_KV_USERPAGE_WMB));
	assert_true(s->cfg.pmuv3p9 && s->cfg.smt);
	/* the version first in the text form, as schedule lines carry it */
	assert_string_equal(sm_kernel_text(s->cfg.kernel, text, sizeof(text)),
	                    "7.2,userpage_wmb");
	assert_int_equal(sm_kernel_version(s->cfg.kernel), 0x0702);
	assert_int_equal(sm_kernel_version(0), 0x060c);
	assert_int_equal(sm_kernel_parse("7.2,7.2", -1, &bits, err,
	                                 sizeof(err)), 0);
	assert_int_equal(bits, 1u << SM_KV_LINUX_7_2);
	assert_int_equal(sm_kernel_parse("7.3", -1, &bits, err, sizeof(err)),
	                 -1);
	assert_non_null(strstr(err, "unknown kernel '7.3'"));
	assert_int_equal(sm_scenario_parse("t.scn", "arch x86_64\npmu smt=yes\n",
	                                   &sc, err, sizeof(err)), -1);
}

/* check expect=V names a verdict of verdict.h that one run can get. */
static void test_check_expect(void **state)
{
	struct sm_scenario sc, *s;

	(void)state;
	s = parse_ok(&sc, "end 100\n");
	assert_int_equal(s->expect, -1);
	s = parse_ok(&sc, "check expect=FAULT\n");
	assert_int_equal(s->expect, SM_V_FAULT);
	s = parse_ok(&sc, "check expect=LIVELOCK\n");
	assert_int_equal(s->expect, SM_V_LIVELOCK);
}

/* read_format=: the PERF_FORMAT_* bits named, in any order; none is 0;
 * not given, the default TOTAL_TIME_ENABLED|RUNNING (0 in the config). */
static void test_read_format(void **state)
{
	struct sm_scenario sc, *s;

	(void)state;
	s = parse_ok(&sc, "event a\n"
	             "event b read_format=none\n"
	             "event c read_format=lost,id,total_time_running\n"
	             "event d read_format=group,total_time_enabled\n"
	             "event e read_format=total_time_enabled,total_time_running,"
	             "id,group,lost\n");
	assert_int_equal(s->cfg.event[0].read_format, 0);
	assert_int_equal(sm_event_read_format(&s->cfg.event[0]), 3);
	assert_int_equal(s->cfg.event[1].read_format, SM_RF_GIVEN);
	assert_int_equal(sm_event_read_format(&s->cfg.event[1]), 0);
	/* PERF_FORMAT_LOST 16 | ID 4 | TOTAL_TIME_RUNNING 2 (the uapi's) */
	assert_int_equal(sm_event_read_format(&s->cfg.event[2]), 16 + 4 + 2);
	assert_int_equal(sm_event_read_format(&s->cfg.event[3]), 8 + 1);
	assert_int_equal(sm_event_read_format(&s->cfg.event[4]), 31);
}

/* at N refresh [refresh=K]: PERF_EVENT_IOC_REFRESH, K 1 by default. */
static void test_refresh_action(void **state)
{
	struct sm_scenario sc, *s;

	(void)state;
	s = parse_ok(&sc, "event i period=1000\nat 5 refresh refresh=3\n"
	             "at 7 refresh\nat 9 refresh refresh=0 event=i\n");
	assert_int_equal(s->nactions, 3);
	assert_int_equal(s->act[0].act.kind, SM_ACT_REFRESH);
	assert_int_equal(s->act[0].act.refresh, 3);
	assert_int_equal(s->act[1].act.refresh, 1);
	assert_int_equal(s->act[2].act.refresh, 0);
	assert_int_equal(s->act[2].act.event, 0);
}

/* at N munmap [event=E], and munmap in an explore set; the scenario then
 * says it uses munmap (what check and the native engine refuse). */
static void test_munmap_action(void **state)
{
	struct sm_scenario sc, *s;

	(void)state;
	s = parse_ok(&sc, "event a\nevent b\nat 5 munmap event=b\n");
	assert_int_equal(s->nactions, 1);
	assert_int_equal(s->act[0].act.kind, SM_ACT_MUNMAP);
	assert_int_equal(s->act[0].act.event, 1);
	assert_true(sm_scenario_uses(s, SM_ACT_MUNMAP));
	assert_false(sm_scenario_uses(s, SM_ACT_REFRESH));
	s = parse_ok(&sc, "event a\ncheck at=10 explore=reset,munmap\n");
	assert_int_equal(s->explore,
	                 (1u << SM_ACT_RESET) | (1u << SM_ACT_MUNMAP));
	assert_true(sm_scenario_uses(s, SM_ACT_MUNMAP));
	s = parse_ok(&sc, "event a\ncheck at=10\n");
	assert_false(sm_scenario_uses(s, SM_ACT_MUNMAP));
}

/* group=LEADER: the leader's index + 1; 0 for a leader. */
static void test_group(void **state)
{
	struct sm_scenario sc, *s;

	(void)state;
	s = parse_ok(&sc, "event a pinned=yes\n"
	             "event b type=cycles group=a\n"
	             "event c\n"
	             "event d group=a read_format=group,id\n");
	assert_int_equal(s->cfg.event[0].group, 0);
	assert_int_equal(s->cfg.event[1].group, 1);
	assert_int_equal(s->cfg.event[2].group, 0);
	assert_int_equal(s->cfg.event[3].group, 1);
	assert_int_equal(sm_event_read_format(&s->cfg.event[3]), 8 + 4);
}

static void test_many_actions(void **state)
{
	char text[20 * (SM_MAX_TIMED + 1)];
	struct sm_scenario sc, *s = &sc;
	char err[256];
	size_t off = 0;

	(void)state;
	/* descending times: the sort must reverse them */
	for (unsigned i = 0; i < SM_MAX_TIMED; i++)
		off += (size_t)snprintf(text + off, sizeof(text) - off,
		                        "at %u reset\n", SM_MAX_TIMED - i);
	assert_int_equal(sm_scenario_parse("m", text, s, err, sizeof(err)), 0);
	assert_int_equal(s->nactions, SM_MAX_TIMED);
	for (unsigned i = 0; i < SM_MAX_TIMED; i++) {
		assert_int_equal(s->act[i].at, i + 1);
		assert_int_equal(s->act[i].line, SM_MAX_TIMED - i);
	}
	snprintf(text + off, sizeof(text) - off, "  at 1 reset\n");
	assert_int_equal(sm_scenario_parse("m", text, s, err, sizeof(err)), -1);
	assert_string_equal(err, "m:257:3: too many actions (max 256)");
}

/* ---- malformed input -------------------------------------------------- */

struct bad {
	const char *text;
	const char *err;
};

static const struct bad bad_cases[] = {
	{ "frobnicate 1\n", "t.scn:1:1: unknown directive 'frobnicate'" },
	{ "\n\n  pmu gp=4 bogus=1\n", "t.scn:3:12: unknown key 'bogus' for 'pmu'" },
	{ "pmu gp=4x\n", "t.scn:1:8: bad number '4x' for gp" },
	{ "pmu gp=\n", "t.scn:1:8: bad number '' for gp" },
	{ "pmu gp=-1\n", "t.scn:1:8: bad number '-1' for gp" },
	{ "pmu gp=+1\n", "t.scn:1:8: bad number '+1' for gp" },
	{ "pmu gp=0x\n", "t.scn:1:8: bad number '0x' for gp" },
	{ "clock start=18446744073709551616\n",
	  "t.scn:1:13: bad number '18446744073709551616' for start" },
	{ "clock start=0x10000000000000000\n",
	  "t.scn:1:13: bad number '0x10000000000000000' for start" },
	{ "event x pinned=1\n",
	  "t.scn:1:16: bad value '1' for pinned (expected yes or no)" },
	{ "event x mmap=true\n",
	  "t.scn:1:14: bad value 'true' for mmap (expected yes or no)" },
	{ "event x\nevent y read_format=id,size\n",
	  "t.scn:2:24: bad value 'size' for read_format (expected none, or a "
	  "comma list of total_time_enabled, total_time_running, id, group, "
	  "lost)" },
	{ "event x read_format=\n",
	  "t.scn:1:21: bad value '' for read_format (expected none, or a "
	  "comma list of total_time_enabled, total_time_running, id, group, "
	  "lost)" },
	{ "event x read_format=id,,lost\n",
	  "t.scn:1:24: bad value '' for read_format (expected none, or a "
	  "comma list of total_time_enabled, total_time_running, id, group, "
	  "lost)" },
	{ "event x read_format=none,id\n",
	  "t.scn:1:21: bad value 'none' for read_format (expected none, or a "
	  "comma list of total_time_enabled, total_time_running, id, group, "
	  "lost)" },
	{ "event x read_format=ID\n",
	  "t.scn:1:21: bad value 'ID' for read_format (expected none, or a "
	  "comma list of total_time_enabled, total_time_running, id, group, "
	  "lost)" },
	{ "event x read_format=lost,id,lost\n",
	  "t.scn:1:29: read_format names 'lost' twice" },
	{ "event x\nevent y group=z\n",
	  "t.scn:2:15: unknown event 'z' for group (the leader is declared on "
	  "an earlier line)" },
	{ "event x group=x\n",
	  "t.scn:1:15: unknown event 'x' for group (the leader is declared on "
	  "an earlier line)" },
	{ "event x\nevent y group=x\nevent z group=y\n",
	  "t.scn:3:15: 'y' is not a group leader: it is in 'x''s group "
	  "(perf_event_open() refuses a sibling's fd as group_fd with EINVAL)" },
	{ "event x\nevent y group=x pinned=yes\n",
	  "t.scn:2:17: pinned applies to a group leader only (the group's "
	  "leader decides: perf_event_open() refuses a pinned sibling)" },
	{ "event x\nevent task-clock group=x\n",
	  "t.scn:2:18: software events in groups are not modelled (group "
	  "hardware events only)" },
	{ "event page-faults\nevent y group=page-faults\n",
	  "t.scn:2:9: software events in groups are not modelled (group "
	  "hardware events only)" },
	{ "pmu gp=9\n", "t.scn:1:8: gp out of range (1..8)" },
	{ "pmu gp=0\n", "t.scn:1:8: gp out of range (1..8)" },
	{ "arch arm64\npmu gp=32\n", "t.scn:2:8: gp out of range (1..31)" },
	{ "arch riscv64\npmu gp=30\n", "t.scn:2:8: gp out of range (1..29)" },
	{ "pmu fixed=5\n", "t.scn:1:11: fixed out of range (0..4)" },
	{ "pmu width=31\n", "t.scn:1:11: width out of range (32..64)" },
	{ "arch riscv64\npmu width=0\n", "t.scn:2:11: width out of range (1..64)" },
	{ "pmu max_period=0x8000000000000000\n",
	  "t.scn:1:16: max_period out of range (1..2^63-1)" },
	{ "pmu rdpmc=3\n", "t.scn:1:11: rdpmc out of range (0..2)" },
	{ "arch arm64\npmu user_access=2\n",
	  "t.scn:2:17: user_access out of range (0..1)" },
	{ "clock hz=999\n", "t.scn:1:10: hz out of range (1000..4294967295000)" },
	{ "arch arm64\nclock hz=4294967296\n",
	  "t.scn:2:10: hz out of range (1000..4294967295)" },
	{ "clock mult=0 shift=1\n", "t.scn:1:12: mult out of range (1..4294967295)" },
	{ "clock mult=1 shift=33\n", "t.scn:1:20: shift out of range (0..32)" },
	{ "clock cpus=9\n", "t.scn:1:12: cpus out of range (1..8)" },
	{ "event x left=0\n", "t.scn:1:14: left out of range (>= 1)" },
	{ "event x rate=1000001\n", "t.scn:1:14: rate out of range (1..1000000)" },
	{ "pmu gp\n", "t.scn:1:5: missing '=' in 'gp'" },
	{ "event x pinned=yes pinned=no\n", "t.scn:1:20: duplicate key 'pinned'" },
	{ "pmu gp=4\narch arm64\n", "t.scn:2:1: 'arch' must come first" },
	{ "arch x86_64\narch x86_64\n", "t.scn:2:1: 'arch' must come first" },
	{ "arch sparc\n",
	  "t.scn:1:6: unknown arch 'sparc' (expected x86_64, arm64 or riscv64)" },
	{ "at 10 explode\n", "t.scn:1:7: unknown action 'explode'" },
	{ "at 10 stall event=instructions\n",
	  "t.scn:1:13: key 'event' does not apply to action 'stall'" },
	{ "at 10 rotate_out counter=1\n",
	  "t.scn:1:18: key 'counter' does not apply to action 'rotate_out'" },
	{ "at 10 reset cycles=5\n",
	  "t.scn:1:13: key 'cycles' does not apply to action 'reset'" },
	{ "event cycles\nat 10 disable event=instructions\n",
	  "t.scn:2:21: unknown event 'instructions'" },
	{ "event cycles\nevent cycles\n", "t.scn:2:7: duplicate event 'cycles'" },
	{ "event a\nevent b\nevent c\nevent d\nevent e\nevent f\nevent g\n"
	  "event h\n\tevent i\n", "t.scn:9:2: too many events (max 8)" },
	{ "event\n", "t.scn:1:6: missing event name" },
	{ "event pinned=yes\n", "t.scn:1:7: missing event name" },
	{ "at\n", "t.scn:1:3: missing cycle count" },
	{ "at 5000   # no action\n", "t.scn:1:8: missing action" },
	{ "at 10 period\n", "t.scn:1:13: missing period" },
	{ "at 10 period period=0\n", "t.scn:1:21: period out of range (1..2^63-1)" },
	{ "event x period=0x8000000000000000\n",
	  "t.scn:1:16: period out of range (0..2^63-1)" },
	{ "event x period=5\nat 10 period period=0x8000000000000000\n",
	  "t.scn:2:21: period out of range (1..2^63-1)" },
	{ "at 10 period period=5\n",
	  "t.scn:1:7: period applies to a sampling event only: 'instructions' "
	  "has no period= (the kernel's _perf_event_period() refuses a "
	  "counting event with EINVAL)" },
	{ "event x period=5\nevent y\nat 10 period period=5 event=y\n",
	  "t.scn:3:7: period applies to a sampling event only: 'y' has no "
	  "period= (the kernel's _perf_event_period() refuses a counting event "
	  "with EINVAL)" },
	{ "event x period=5\nat 10 refresh refresh=2147483648\n",
	  "t.scn:2:23: refresh out of range (0..2147483647)" },
	{ "event x freq=1000\nat 10 refresh\nat 20 period period=5\n",
	  "t.scn:3:7: period of a frequency event (freq=) sets its "
	  "sample_freq: not modelled" },
	{ "at 10 refresh\n",
	  "t.scn:1:7: refresh applies to a sampling event only: 'instructions' "
	  "has no period= (the kernel's _perf_event_refresh() refuses a "
	  "counting event with EINVAL)" },
	{ "event x period=5\nat 10 reset refresh=1\n",
	  "t.scn:2:13: key 'refresh' does not apply to action 'reset'" },
	{ "at 1x reset\n", "t.scn:1:4: bad number '1x' for cycle" },
	{ "writer local now\n", "t.scn:1:14: unexpected 'now'" },
	{ "writer\n", "t.scn:1:7: missing writer mode" },
	{ "writer both\n",
	  "t.scn:1:8: bad value 'both' for writer (expected local or remote)" },
	{ "end 10 20\n", "t.scn:1:8: unexpected '20'" },
	{ "event x counter=gp4\n",
	  "t.scn:1:17: counter 'gp4' does not exist on x86_64" },
	{ "pmu fixed=2\nevent x counter=fixed2\n",
	  "t.scn:2:17: counter 'fixed2' does not exist on x86_64" },
	{ "event x counter=cycle\n",
	  "t.scn:1:17: counter 'cycle' does not exist on x86_64" },
	{ "arch arm64\nevent x counter=fixed0\n",
	  "t.scn:2:17: counter 'fixed0' does not exist on arm64" },
	{ "arch arm64\npmu gp=2\nevent x counter=2\n",
	  "t.scn:3:17: counter '2' does not exist on arm64" },
	{ "arch riscv64\nevent x counter=2\n",
	  "t.scn:2:17: counter '2' does not exist on riscv64" },
	{ "arch riscv64\nevent x counter=hpm7\n",
	  "t.scn:2:17: counter 'hpm7' does not exist on riscv64" },
	{ "arch riscv64\nevent x counter=gp3\n",
	  "t.scn:2:17: counter 'gp3' does not exist on riscv64" },
	{ "event x counter=pmc1\n",
	  "t.scn:1:17: bad value 'pmc1' for counter "
	  "(expected auto, N, gpN or fixedN)" },
	{ "event x type=bogus\n",
	  "t.scn:1:14: bad value 'bogus' for type (expected instructions, "
	  "cycles, ref_cycles, other or software)" },
	{ "event bad/name\n",
	  "t.scn:1:7: bad event name 'bad/name' (1 to 31 of A-Z a-z 0-9 _ . -)" },
	{ "event abcdefghijklmnopqrstuvwxyz012345\n",
	  "t.scn:1:7: bad event name 'abcdefghijklmnopqrstuvwxyz012345' "
	  "(1 to 31 of A-Z a-z 0-9 _ . -)" },
	{ "event x\npmu gp=2\n", "t.scn:2:1: 'pmu' must come before events" },
	{ "at 5 rotate_in counter=1\npmu gp=2\n",
	  "t.scn:2:1: 'pmu' must come before actions that name counters" },
	{ "pmu fixed=3\narch arm64\n", "t.scn:2:1: 'arch' must come first" },
	{ "arch arm64\npmu fixed=3\n", "t.scn:2:5: fixed only applies to x86_64" },
	{ "arch arm64\npmu rdpmc=1\n", "t.scn:2:5: rdpmc only applies to x86_64" },
	{ "pmu user_access=1\n",
	  "t.scn:1:5: user_access only applies to arm64 and riscv64" },
	{ "pmu long=yes\n", "t.scn:1:5: long only applies to arm64" },
	{ "cpu 0 type=cpu_big\n",
	  "t.scn:1:12: bad value 'cpu_big' for type (expected cpu_core or "
	  "cpu_atom)" },
	{ "arch riscv64\ncpu 0 type=a\n",
	  "t.scn:2:1: 'cpu' lines apply to x86_64 only: riscv64 has one "
	  "sched_clock for all CPUs (use 'clock')" },
	{ "arch arm64\ncpu 0 type=big hz=1000000\n",
	  "t.scn:2:1: 'cpu' lines apply to x86_64 only: arm64 has one "
	  "sched_clock for all CPUs (use 'clock')" },
	{ "event x pmu=cpu_core\n",
	  "t.scn:1:13: unknown pmu 'cpu_core' (no 'cpu N type=cpu_core' line "
	  "before)" },
	{ "event x\ncpu 0 type=cpu_core\n",
	  "t.scn:2:12: 'cpu N type=' must come before events" },
	{ "cpu 0 type=cpu_core\nevent x\n",
	  "t.scn: cpu 1 has no type= (once one CPU has a type, every CPU needs "
	  "one)" },
	{ "clock cpus=1\ncpu 0 type=cpu_core\nevent task-clock pmu=cpu_core\n",
	  "t.scn:3:18: pmu= applies to hardware events: 'task-clock' is a "
	  "software event" },
	{ "clock cpus=1\ncpu 0 type=cpu_atom\nevent x\n",
	  "t.scn:3:8: missing pmu= (a generic event goes to cpu_core, and no "
	  "cpu line has that type)" },
	{ "arch arm64\nclock cpus=1\ncpu 0 type=big\nevent x\n",
	  "t.scn:4:8: missing pmu= (a hybrid arm64 event names its CPU type's "
	  "PMU)" },
	{ "arch arm64\nclock cpus=4\ncpu 0 type=a\ncpu 1 type=b\n"
	  "cpu 2 type=c\ncpu 3 type=d\n",
	  "t.scn:6:12: too many CPU types (max 3)" },
	{ "arch arm64\ncpu 0 type=a/b\n",
	  "t.scn:2:12: bad PMU name 'a/b' (1 to 31 of A-Z a-z 0-9 _ . -)" },
	{ "clock cpus=1\ncpu 0 type=cpu_core\n",
	  "t.scn: no event: a scenario with CPU types declares its events "
	  "(the default 'instructions' names no PMU)" },
	{ "event x output=y\n",
	  "t.scn:1:16: unknown event 'y' for output (an event declared before)" },
	{ "event a output=a\n",
	  "t.scn:1:16: unknown event 'a' for output (an event declared before)" },
	{ "event a\nevent b output=a\n",
	  "t.scn:2:9: output= needs mmap=no: the kernel refuses to redirect an "
	  "event that is mmapped" },
	{ "event a mmap=no\nevent b mmap=no output=a\n",
	  "t.scn:2:17: output=a needs 'a' mmapped (mmap=yes): its buffer must "
	  "exist" },
	{ "event a mmap=no\nevent b mmap=no output=a\nevent c mmap=no output=b\n",
	  "t.scn:2:17: output=a needs 'a' mmapped (mmap=yes): its buffer must "
	  "exist" },
	{ "event a clockid=yes\nevent b mmap=no output=a\n",
	  "t.scn:2:17: output=a: clockid differs (the kernel refuses to mix "
	  "clocks in one buffer)" },
	{ "event a\nevent b mmap=no output=a\nat 5 mmap event=b\n",
	  "t.scn:3:6: mmap of 'b': a redirected event (output=) has its "
	  "target's buffer, no page of its own" },
	{ "event x freq=100001\n",
	  "t.scn:1:14: freq out of range (1..100000)" },
	{ "event x freq=0\n", "t.scn:1:14: freq out of range (1..100000)" },
	{ "event x period=5 freq=10\n",
	  "t.scn:1:18: freq= and period= are one field (attr.sample_freq, "
	  "attr.sample_period)" },
	{ "event task-clock freq=10\n",
	  "t.scn:1:18: freq= is modelled for hardware events only" },
	{ "event x freq=10\nat 5 period period=9\n",
	  "t.scn:2:6: period of a frequency event (freq=) sets its "
	  "sample_freq: not modelled" },
	{ "at 5 tick event=x\n",
	  "t.scn:1:11: key 'event' does not apply to action 'tick'" },
	{ "pmu max_samples=4294967296\n",
	  "t.scn:1:17: max_samples out of range (0..4294967295)" },
	{ "arch arm64\npmu snapshot=yes\n",
	  "t.scn:2:5: snapshot only applies to riscv64" },
	{ "arch riscv64\npmu snapshot=1\n",
	  "t.scn:2:14: bad value '1' for snapshot (expected yes or no)" },
	{ "arch riscv64\nevent x long=yes\n", "t.scn:2:9: long only applies to arm64" },
	{ "event x user=no\n", "t.scn:1:9: user only applies to arm64 and riscv64" },
	{ "arch arm64\npmu width=64\n",
	  "t.scn:2:5: width only applies to x86_64 and riscv64" },
	{ "clock width=56\n", "t.scn:1:7: width only applies to arm64 and riscv64" },
	{ "event task-clock rate=2\n",
	  "t.scn:1:18: rate does not apply to task-clock: a software clock "
	  "counts the ns it runs" },
	{ "event cpu-clock type=software rate=1\n",
	  "t.scn:1:31: rate does not apply to cpu-clock: a software clock "
	  "counts the ns it runs" },
	/* arm64: arch_counter_get_width() of the rate, 56..63 for a u32 one */
	{ "arch arm64\nclock width=32\n",
	  "t.scn:2:13: width out of range (56..63)" },
	{ "arch arm64\nclock width=56\n",
	  "t.scn:2:7: width=56 is not the arm64 timer's width at 1000000000 Hz "
	  "(arch_counter_get_width() gives 61)" },
	{ "arch arm64\nclock hz=24000000\nclock start=5 width=57\n",
	  "t.scn:3:15: width=57 is not the arm64 timer's width at 24000000 Hz "
	  "(arch_counter_get_width() gives 56)" },
	{ "arch arm64\nclock stable=yes\n", "t.scn:2:7: stable only applies to x86_64" },
	{ "clock epoch_cyc=1\n",
	  "t.scn:1:7: epoch_cyc only applies to arm64 and riscv64" },
	{ "clock mult=5\n", "t.scn:1:7: mult and shift go together" },
	{ "cpu 1 shift=5\n", "t.scn:1:7: mult and shift go together" },
	{ "clock mult=5 shift=1 hz=1000000\n",
	  "t.scn:1:22: hz cannot be given with mult and shift" },
	{ "cpu 2 hz=1000\n", "t.scn:1:5: cpu 2 out of range (0..1)" },
	{ "clock cpus=4\ncpu 0x4\n", "t.scn:2:5: cpu 0x4 out of range (0..3)" },
	{ "cpu x\n", "t.scn:1:5: bad number 'x' for cpu" },
	{ "cpu 1 offset=5\n", "t.scn:1:7: unknown key 'offset' for 'cpu'" },
	{ "task cpu=2\n", "t.scn:1:10: cpu out of range (0..1)" },
	{ "clock cpus=4\ntask cpu=3\nclock cpus=2\n",
	  "t.scn:3:12: cpus out of range (4..8)" },
	{ "at 5 migrate cpu=2\n", "t.scn:1:18: cpu out of range (0..1)" },
	{ "arch arm64\ncpu 1 hz=25000000\n",
	  "t.scn:2:1: 'cpu' lines apply to x86_64 only: arm64 has one "
	  "sched_clock for all CPUs (use 'clock')" },
	{ "arch riscv64\ncpu 1 epoch_cyc=5\n",
	  "t.scn:2:1: 'cpu' lines apply to x86_64 only: riscv64 has one "
	  "sched_clock for all CPUs (use 'clock')" },
	{ "arch arm64\nat 5 clock_epoch cpu=1\n",
	  "t.scn:2:18: clock_epoch takes no cpu: sched_clock is one clock for "
	  "all CPUs" },
	{ "at 5 lock_early\n",
	  "t.scn:1:6: lock_early only applies to arm64 and riscv64" },
	{ "arch arm64\nat 5 lock_early event=instructions\n",
	  "t.scn:2:17: key 'event' does not apply to action 'lock_early'" },
	{ "at 5 clock_epoch\n",
	  "t.scn:1:6: clock_epoch only applies to arm64 and riscv64" },
	{ "at 5 preempt cpu=1\n",
	  "t.scn:1:14: key 'cpu' does not apply to action 'preempt'" },
	{ "end 100\nat 101 reset\n", "t.scn:2:4: action at 101 is after end (100)" },
	{ "at 0x65 reset\nend 100\n", "t.scn:2:5: action at 101 is after end (100)" },
	{ "end 100\nend 200\n", "t.scn:2:1: duplicate 'end'" },
	{ "end\n", "t.scn:1:4: missing cycle count" },
	{ "end -5\n", "t.scn:1:5: bad number '-5' for end" },
	{ "task 3\n", "t.scn:1:6: missing '=' in '3'" },
	{ "arch\n", "t.scn:1:5: missing arch name" },
	{ "arch arm64 extra\n", "t.scn:1:12: unexpected 'extra'" },
	{ "check expect=INCOMPLETE\n", "t.scn:1:14: bad value 'INCOMPLETE' for "
	  "expect (expected PASS, BLOCKED, WRONG_VALUE, FAULT or LIVELOCK)" },
	{ "at 1 reset =1\n", "t.scn:1:12: unknown key '' for 'at'" },
	{ "at 1 reset bogus=1\n", "t.scn:1:12: unknown key 'bogus' for 'at'" },
	{ "pmu gp=4=5\n", "t.scn:1:8: bad number '4=5' for gp" },
	{ "PMU gp=4\n", "t.scn:1:1: unknown directive 'PMU'" },
	{ "pmu\tgp=4 \t fixed=9\n", "t.scn:1:18: fixed out of range (0..4)" },
	{ "pmu gp=4 # fixed=9\nevent x#comment\nevent x\n",
	  "t.scn:3:7: duplicate event 'x'" },
	{ "kernel userpage_wmb\n", "t.scn:1:8: kernel variant 'userpage_wmb' "
	  "applies to arm64, riscv64 only, not x86_64" },
	{ "arch arm64\nkernel reset_prev_count\n", "t.scn:2:8: kernel variant "
	  "'reset_prev_count' applies to x86_64 only, not arm64" },
	{ "kernel fast\n", "t.scn:1:8: unknown kernel 'fast' (base, 6.12, 7.2 "
	  "or a variant from 'selfmon list')" },
	{ "kernel 7.2,7.3\n", "t.scn:1:8: unknown kernel '7.3' (base, 6.12, "
	  "7.2 or a variant from 'selfmon list')" },
	{ "kernel\n", "t.scn:1:7: missing kernel name (base or a variant)" },
	{ "kernel base extra\n", "t.scn:1:13: unexpected 'extra'" },
	/* one cyc2ns for all x86 CPUs while the TSC is stable */
	{ "clock hz=2900000000 cpus=2\ncpu 1 clock_offset=123456\n",
	  "t.scn:2:7: CPU clocks differ while the TSC is stable: x86 keeps one "
	  "cyc2ns for all CPUs then (say 'clock stable=no' before 'cpu' lines)" },
	{ "cpu\t1 mult=0x155555 shift=22\n",
	  "t.scn:1:7: CPU clocks differ while the TSC is stable: x86 keeps one "
	  "cyc2ns for all CPUs then (say 'clock stable=no' before 'cpu' lines)" },
	{ "clock cpus=4\ncpu 3 hz=3000000000\n",
	  "t.scn:2:7: CPU clocks differ while the TSC is stable: x86 keeps one "
	  "cyc2ns for all CPUs then (say 'clock stable=no' before 'cpu' lines)" },
	{ "clock stable=no\ncpu 0 clock_offset=1\nclock start=5 stable=yes\n",
	  "t.scn:3:15: CPU clocks differ while the TSC is stable: x86 keeps one "
	  "cyc2ns for all CPUs then (say 'clock stable=no' before 'cpu' lines)" },
	{ "clock stable=no\ncpu 1 hz=1000000\nclock stable=yes offset=1\n",
	  "t.scn:3:7: CPU clocks differ while the TSC is stable: x86 keeps one "
	  "cyc2ns for all CPUs then (say 'clock stable=no' before 'cpu' lines)" },
};

static void test_bad(void **state)
{
	const struct bad *b = *state;
	struct sm_scenario sc, *s = &sc;
	char err[512] = "unset";

	assert_int_equal(sm_scenario_parse("t.scn", b->text, s, err,
	                                   sizeof(err)), -1);
	assert_string_equal(err, b->err);
}

static void test_line_too_long(void **state)
{
	char text[1100];
	struct sm_scenario sc, *s = &sc;
	char err[256];

	(void)state;
	/* exactly 1024 bytes: fine (a comment) */
	memset(text, ' ', 1024);
	text[0] = '#';
	strcpy(text + 1024, "\n");
	assert_int_equal(sm_scenario_parse("long", text, s, err, sizeof(err)), 0);
	/* 1025 bytes on line 2 */
	memset(text, ' ', 1027);
	memcpy(text, "#\n#", 3);
	strcpy(text + 1027, "\nend 5\n");
	assert_int_equal(sm_scenario_parse("long", text, s, err, sizeof(err)), -1);
	assert_string_equal(err, "long:2:1025: line too long (max 1024 bytes)");
}

static void test_small_err_buffer(void **state)
{
	struct sm_scenario sc, *s = &sc;
	char err[8];

	(void)state;
	assert_int_equal(sm_scenario_parse("x.scn", "nope\n", s, err,
	                                   sizeof(err)), -1);
	assert_string_equal(err, "x.scn:1");
	assert_int_equal(sm_scenario_parse("x.scn", "nope\n", s, NULL, 0), -1);
}

/* ---- files -------------------------------------------------------------- */

#define TEMP_PATTERN "/tmp/test_scenario_XXXXXX"

/* A temporary file holding `text` repeated `times` times; its name in path. */
static void write_temp(char path[sizeof(TEMP_PATTERN)], const char *text,
                       size_t len, size_t times)
{
	int fd;

	memcpy(path, TEMP_PATTERN, sizeof(TEMP_PATTERN));
	fd = mkstemp(path);
	assert_true(fd >= 0);
	for (size_t i = 0; i < times; i++)
		assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
}

static void test_load_missing(void **state)
{
	struct sm_scenario sc, *s = &sc;
	char err[256];

	(void)state;
	assert_int_equal(sm_scenario_load("/nonexistent/dir/x.scn", s, err,
	                                  sizeof(err)), -1);
	assert_string_equal(err,
	                    "/nonexistent/dir/x.scn: No such file or directory");
	assert_int_equal(sm_scenario_load("/tmp", s, err, sizeof(err)), -1);
	assert_string_equal(err, "/tmp: Is a directory");
}

static void test_load_good_and_bad(void **state)
{
	static const char good[] = "arch arm64\nat 50 reset\n";
	static const char bad[] = "arch arm64\nat 50 reset cpu=1\n";
	struct sm_scenario sc, *s = &sc;
	char err[512], want[512], path[sizeof(TEMP_PATTERN)];

	(void)state;
	write_temp(path, good, sizeof(good) - 1, 1);
	assert_int_equal(sm_scenario_load(path, s, err, sizeof(err)), 0);
	unlink(path);
	assert_string_equal(s->name, path);
	assert_int_equal(s->cfg.arch, SM_ARM64);
	assert_int_equal(s->nactions, 1);
	assert_int_equal(s->end, 1050);

	write_temp(path, bad, sizeof(bad) - 1, 1);
	assert_int_equal(sm_scenario_load(path, s, err, sizeof(err)), -1);
	unlink(path);
	snprintf(want, sizeof(want),
	         "%s:2:13: key 'cpu' does not apply to action 'reset'", path);
	assert_string_equal(err, want);
}

static void test_load_limits(void **state)
{
	char block[4096], err[512], want[512], path[sizeof(TEMP_PATTERN)];
	size_t nblocks = (1u << 20) / sizeof(block);
	struct sm_scenario sc, *s = &sc;
	int r;

	(void)state;
	memset(block, '\n', sizeof(block));
	/* exactly 1 MiB is accepted */
	write_temp(path, block, sizeof(block), nblocks);
	r = sm_scenario_load(path, s, err, sizeof(err));
	unlink(path);
	assert_int_equal(r, 0);

	/* one byte more is not */
	write_temp(path, block, sizeof(block), nblocks);
	{
		FILE *f = fopen(path, "a");

		assert_non_null(f);
		fputc('\n', f);
		fclose(f);
	}
	r = sm_scenario_load(path, s, err, sizeof(err));
	unlink(path);
	assert_int_equal(r, -1);
	snprintf(want, sizeof(want), "%s: file too large (over the cap of 1 MiB)", path);
	assert_string_equal(err, want);

	write_temp(path, "end 5\n\0", 7, 1);
	r = sm_scenario_load(path, s, err, sizeof(err));
	unlink(path);
	assert_int_equal(r, -1);
	snprintf(want, sizeof(want), "%s: file contains a NUL byte", path);
	assert_string_equal(err, want);
}

/* Hybrid PMUs: CPU types by PMU name, events on one type's PMU; x86's
 * generic event goes to cpu_core. */
static void test_hybrid(void **state)
{
	struct sm_scenario sc, *s = parse_ok(&sc,
		"clock cpus=3\n"
		"cpu 0 type=cpu_atom\n"
		"cpu 1 type=cpu_core\n"
		"cpu 2 type=cpu_atom\n"
		"event instructions\n"
		"event b type=other pmu=cpu_atom\n"
		"event page-faults\n");
	(void)state;
	assert_int_equal(s->cfg.npmu_types, 2);
	assert_string_equal(s->cfg.pmu_type_name[0], "cpu_atom");
	assert_string_equal(s->cfg.pmu_type_name[1], "cpu_core");
	assert_int_equal(s->cfg.cpu_type[0], 1);
	assert_int_equal(s->cfg.cpu_type[1], 2);
	assert_int_equal(s->cfg.cpu_type[2], 1);
	assert_int_equal(s->cfg.event[0].pmu, 2);
	assert_int_equal(s->cfg.event[1].pmu, 1);
	assert_int_equal(s->cfg.event[2].pmu, 0);
	s = parse_ok(&sc, "arch arm64\nclock cpus=2\n"
		"cpu 0 type=armv8_cortex_a55\ncpu 1 type=armv8_cortex_a76\n"
		"event x pmu=armv8_cortex_a76\n");
	assert_int_equal(s->cfg.npmu_types, 2);
	assert_int_equal(s->cfg.event[0].pmu, 2);
}

static void test_freq(void **state)
{
	struct sm_scenario sc, *s = parse_ok(&sc,
		"pmu max_samples=7\nevent x freq=4000\nat 9 tick\n"
		"check explore=tick,overflow\n");
	(void)state;
	assert_int_equal(s->cfg.max_samples, 7);
	assert_int_equal(s->cfg.event[0].freq, 4000);
	assert_int_equal(s->act[0].act.kind, SM_ACT_TICK);
	assert_int_equal(s->explore, 1u << SM_ACT_TICK | 1u << SM_ACT_OVERFLOW);
	s = parse_ok(&sc, "event x\n");
	assert_int_equal(s->cfg.max_samples, 0); /* no throttling */
}

static void test_set_output(void **state)
{
	struct sm_scenario sc, *s = parse_ok(&sc,
		"event a\nevent b mmap=no output=a\nevent c\n");
	(void)state;
	assert_int_equal(s->cfg.event[0].output, 0);
	assert_int_equal(s->cfg.event[1].output, 1); /* 1 + event a */
	assert_int_equal(s->cfg.event[2].output, 0);
}

int main(void)
{
	static const struct CMUnitTest fixed[] = {
		cmocka_unit_test(test_empty_gives_defaults),
		cmocka_unit_test(test_x86_config),
		cmocka_unit_test(test_x86_events),
		cmocka_unit_test(test_x86_actions_sorted),
		cmocka_unit_test(test_arm64),
		cmocka_unit_test(test_riscv64),
		cmocka_unit_test(test_hybrid),
		cmocka_unit_test(test_set_output),
		cmocka_unit_test(test_freq),
		cmocka_unit_test(test_arch_resets_and_numbers),
		cmocka_unit_test(test_design_example),
		cmocka_unit_test(test_stable_clocks),
		cmocka_unit_test(test_check_expect),
		cmocka_unit_test(test_read_format),
		cmocka_unit_test(test_group),
		cmocka_unit_test(test_refresh_action),
		cmocka_unit_test(test_munmap_action),
		cmocka_unit_test(test_kernel_variants),
		cmocka_unit_test(test_kernel_versions),
		cmocka_unit_test(test_many_actions),
		cmocka_unit_test(test_line_too_long),
		cmocka_unit_test(test_small_err_buffer),
		cmocka_unit_test(test_load_missing),
		cmocka_unit_test(test_load_good_and_bad),
		cmocka_unit_test(test_load_limits),
	};
	enum { NFIXED = sizeof(fixed) / sizeof(fixed[0]),
	       NBAD = sizeof(bad_cases) / sizeof(bad_cases[0]) };
	struct CMUnitTest tests[NFIXED + NBAD];

	/* one named test per malformed input: its expected message */
	memcpy(tests, fixed, sizeof(fixed));
	for (size_t i = 0; i < NBAD; i++)
		tests[NFIXED + i] = (struct CMUnitTest){
			.name = bad_cases[i].err,
			.test_func = test_bad,
			.initial_state = (void *)&bad_cases[i],
		};
	return cmocka_run_group_tests_name("scenario", tests, NULL, NULL);
}
