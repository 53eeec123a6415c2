/*
 * cmd_hw.c — `selfmon hw`: the built-in readers, built with the real
 * instructions, against real perf events of this thread and read(2).
 *
 * Owns: opening and mmapping real events (a pinned pair, a multiplexed
 * set, software events), the report of the machine and of each page, the
 * window check (read(2) just before and just after a reader; its values
 * must lie between), the same after IOC_RESET, disable/enable and a
 * migration, the cost of a read, the CPU budget of each reader (a reader
 * that hangs is stopped and reported), and the exit status.  On a machine
 * without a PMU or without permission it says so in one line and checks
 * what it can with software events (the index-0 path of every reader).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "guard.h"
#include "hw.h"
#include "json.h"
#include "prims.h"
#include "session.h"

/* ---- events --------------------------------------------------------- */

static const struct hw_event known[] = {
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0, 0, -1, 0, 0 },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0, 0, -1, 0, 0 },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0, 0, -1, 0, 0 },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, 0, 0, -1, 0, 0 },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, 0, 0, -1, 0, 0 },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, 0, 0, -1, 0, 0 },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES, 0, 0, -1, 0, 0 },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, 0, 0, -1, 0, 0 },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 0, 1, -1, 0, 0 },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 0, 1, -1, 0, 0 },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 0, 1, -1, 0, 0 },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, 0, 1, -1, 0, 0 },
};

bool hw_lookup(const char *name, struct hw_event *out)
{
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(known[i].name, name)) {
			*out = known[i];
			return true;
		}
	return false;
}

int hw_open(struct hw_event *e)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = e->type;
	a.config = e->config;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
	                PERF_FORMAT_TOTAL_TIME_RUNNING;
	a.pinned = e->pinned;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.config1 = 0x2; /* arm64: ask for user access (config1 bit 1) */
	e->pc = NULL;
	e->fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (e->fd < 0)
		return e->err = -errno;
	void *p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, e->fd, 0);
	if (p == MAP_FAILED) {
		e->err = -errno;
		close(e->fd);
		e->fd = -1;
		return e->err;
	}
	e->pc = p;
	return e->err = 0;
}

void hw_close(struct hw_event *e)
{
	if (e->pc)
		munmap(e->pc, 4096);
	if (e->fd >= 0)
		close(e->fd);
	e->pc = NULL;
	e->fd = -1;
}

int hw_read(const struct hw_event *e, uint64_t v[3])
{
	ssize_t n = read(e->fd, v, 24);
	return n == 24 ? 0 : n < 0 ? -errno : -EIO;
}

bool hw_snapshot(const struct perf_event_mmap_page *pc,
                 struct perf_event_mmap_page *out)
{
	for (int tries = 0; tries < 1000; tries++) {
		uint32_t seq = READ_ONCE(pc->lock);
		rmb();
		memcpy(out, (const void *)pc, offsetof(struct perf_event_mmap_page,
		                                       __reserved));
		rmb();
		if (!(seq & 1) && READ_ONCE(pc->lock) == seq)
			return true;
	}
	return false;
}

uint64_t hw_now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

int hw_migrate(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) == 0 ? 0 : -errno;
}

/* ---- the machine ---------------------------------------------------- */

struct machine {
	char arch[16];
	int paranoid;
	char user_access[64]; /* sysfs rdpmc or perf_user_access */
	bool pmu;
	char no_pmu[256];     /* why not, one line */
	int ncpus;
};

static int read_int_file(const char *path, int fallback)
{
	FILE *f = fopen(path, "r");
	int v = fallback;
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = fallback;
		fclose(f);
	}
	return v;
}

static void describe(struct machine *m)
{
#if defined(__x86_64__)
	snprintf(m->arch, sizeof(m->arch), "x86_64");
	int rdpmc = read_int_file("/sys/bus/event_source/devices/cpu/rdpmc", -1);
	if (rdpmc < 0)
		snprintf(m->user_access, sizeof(m->user_access),
		         "sysfs rdpmc: absent (no cpu PMU device)");
	else
		snprintf(m->user_access, sizeof(m->user_access), "sysfs rdpmc = %d",
		         rdpmc);
#else
	snprintf(m->arch, sizeof(m->arch), "%s",
#if defined(__aarch64__)
	         "arm64"
#else
	         "riscv64"
#endif
	);
	snprintf(m->user_access, sizeof(m->user_access),
	         "kernel.perf_user_access = %d",
	         read_int_file("/proc/sys/kernel/perf_user_access", -1));
#endif
	m->paranoid = read_int_file("/proc/sys/kernel/perf_event_paranoid", 99);
	m->ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	struct hw_event probe;
	hw_lookup("instructions", &probe);
	int rc = hw_open(&probe);
	m->pmu = rc == 0;
	if (rc == -EACCES || rc == -EPERM)
		snprintf(m->no_pmu, sizeof(m->no_pmu), "no permission for hardware "
		         "events (kernel.perf_event_paranoid = %d): run as root or "
		         "sysctl kernel.perf_event_paranoid=1", m->paranoid);
	else if (rc)
		snprintf(m->no_pmu, sizeof(m->no_pmu), "no hardware PMU: "
		         "perf_event_open(instructions) fails with %s (perf stat -e "
		         "instructions says not supported); checking software "
		         "events only", strerror(-rc));
	hw_close(&probe);
}

/* ---- the window check ----------------------------------------------- */

/* A read takes microseconds.  Each reader gets, on each event, at most
 * CALL_CPU_MS of CPU time for one call and a budget for all of its work
 * there (the checked reads with their read(2) calls, and the timed ones):
 * BUDGET_BASE_MS plus BUDGET_PER_READ_US for each iteration.  A reader
 * over either is stopped and reported as hanging, so the command's CPU
 * time is bounded by readers x events x budget (README). */
#define CALL_CPU_MS 10
#define BUDGET_BASE_MS 100
#define BUDGET_PER_READ_US 100

struct tally {
	unsigned runs, fails;
	bool died;             /* a fault, or stopped as hanging */
	bool hung;
	uint64_t cpu_ns;       /* CPU time of the check and the timing */
	char first[256];
};

struct budget {
	uint64_t start, limit; /* the thread's CPU time, ns */
};

static uint64_t thread_cpu_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static uint64_t budget_ms(unsigned iterations)
{
	return BUDGET_BASE_MS + (uint64_t)iterations * BUDGET_PER_READ_US / 1000;
}

/* CPU ms left of the budget, 0 when spent. */
static unsigned left_ms(const struct budget *b)
{
	uint64_t used = thread_cpu_ns() - b->start;
	return used >= b->limit ? 0
	                        : (unsigned)((b->limit - used + 999999) / 1000000);
}

static void hang(struct tally *t, const char *phase, const char *why)
{
	t->died = t->hung = true;
	t->fails++;
	snprintf(t->first, sizeof(t->first), "%s: hangs: %s", phase, why);
}

static int call(const struct sm_reader *r, const struct hw_event *e,
                uint64_t v[3])
{
	return sm_reader_call(r->hw, r->abi, e->pc, e->fd, v);
}

static uint64_t scale(const uint64_t v[3])
{
	return v[2] ? (uint64_t)((unsigned __int128)v[0] * v[1] / v[2]) : v[0];
}

/* The reader's values lie between read(2) just before and just after. */
static const char *judge(const struct sm_reader *r, const uint64_t b[3],
                         const uint64_t v[3], const uint64_t a[3], int rc)
{
	static _Thread_local char why[160];
	static const char *const names[3] = { "count", "enabled", "running" };

	if (rc < 0)
		return snprintf(why, sizeof(why), "returned error %d", rc), why;
	if (r->abi == SM_ABI_SCALED) {
		uint64_t lo = scale(b), hi = scale(a);
		if (lo > hi) {
			uint64_t t = lo;
			lo = hi;
			hi = t;
		}
		if (v[0] + 1 < lo || v[0] > hi + 1)
			return snprintf(why, sizeof(why), "scaled count %" PRIu64
			                " outside %" PRIu64 "..%" PRIu64, v[0], lo, hi), why;
		return NULL;
	}
	unsigned n = r->abi == SM_ABI_RAW ? 1 : 3;
	for (unsigned i = 0; i < n; i++)
		if (v[i] < b[i] || v[i] > a[i])
			return snprintf(why, sizeof(why), "%s %" PRIu64 " outside read(2)"
			                " %" PRIu64 "..%" PRIu64, names[i], v[i], b[i],
			                a[i]), why;
	return NULL;
}

struct guarded {
	const struct sm_reader *r;
	const struct hw_event *e;
	uint64_t v[3];
	int rc;
	double ns;            /* timing: the median */
};

static void guarded_call(void *arg)
{
	struct guarded *g = arg;
	g->rc = call(g->r, g->e, g->v);
}

static void check_once(const struct sm_reader *r, const struct hw_event *e,
                       const char *phase, const struct budget *bu,
                       struct tally *t)
{
	struct guarded g = { r, e, { 0 }, 0, 0 };
	uint64_t b[3], a[3];
	char why[160];
	unsigned left = left_ms(bu);

	if (t->died)
		return;
	if (!left) {
		snprintf(why, sizeof(why), "%u reads used its budget of %" PRIu64
		         " ms of CPU time", t->runs, bu->limit / 1000000);
		return hang(t, phase, why);
	}
	if (hw_read(e, b) < 0)
		return;
	int how = sm_guard_run(guarded_call, &g, left < CALL_CPU_MS ? left
	                                                            : CALL_CPU_MS);
	if (hw_read(e, a) < 0)
		return;
	t->runs++;
	if (how == SIGALRM) {
		if (left < CALL_CPU_MS)
			snprintf(why, sizeof(why), "%u reads used its budget of %"
			         PRIu64 " ms of CPU time", t->runs, bu->limit / 1000000);
		else
			snprintf(why, sizeof(why), "a read did not return within %d ms "
			         "of CPU time", CALL_CPU_MS);
		return hang(t, phase, why);
	}
	const char *bad = NULL;
	if (how) {
		snprintf(why, sizeof(why), "the reader died: %s",
		         sm_guard_signal_text(how));
		bad = why;
		t->died = true;
	} else {
		bad = judge(r, b, g.v, a, g.rc);
	}
	if (bad && t->fails++ == 0)
		snprintf(t->first, sizeof(t->first), "%s: %s", phase, bad);
}

/* Plain reads, then after IOC_RESET, disable/enable and a migration. */
static void check_reader(const struct sm_reader *r, struct hw_event *e,
                         unsigned iterations, int ncpus,
                         const struct budget *b, struct tally *t)
{
	memset(t, 0, sizeof(*t));
	for (unsigned i = 0; i < iterations && !t->died; i++)
		check_once(r, e, "read", b, t);
	if (t->died)
		return; /* it crashed or hung: once is enough */
	ioctl(e->fd, PERF_EVENT_IOC_RESET, 0);
	check_once(r, e, "after IOC_RESET", b, t);
	ioctl(e->fd, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(e->fd, PERF_EVENT_IOC_ENABLE, 0);
	check_once(r, e, "after disable/enable", b, t);
	for (int c = 0; c < ncpus && c < 2; c++)
		if (hw_migrate(ncpus > 1 ? c : 0) == 0)
			check_once(r, e, "after a migration", b, t);
}

/* ---- cost ------------------------------------------------------------ */

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Median ns of one call, over 99 batches of 64. */
static double median_ns(const struct sm_reader *r, const struct hw_event *e)
{
	double ns[99];
	uint64_t v[3];

	for (int k = 0; k < 99; k++) {
		uint64_t t0 = hw_now_ns();
		for (int i = 0; i < 64; i++) {
			if (r)
				call(r, e, v);
			else
				hw_read(e, v);
		}
		ns[k] = (double)(hw_now_ns() - t0) / 64;
	}
	qsort(ns, 99, sizeof(ns[0]), cmp_d);
	return ns[49];
}

static void guarded_timing(void *arg)
{
	struct guarded *g = arg;
	g->ns = median_ns(g->r, g->e);
}

/* The reader's cost, within what is left of its budget (0 if it has
 * none: it is then reported as hanging). */
static double reader_ns(const struct sm_reader *r, const struct hw_event *e,
                        const struct budget *b, struct tally *t)
{
	struct guarded g = { r, e, { 0 }, 0, 0 };
	unsigned left = t->died ? 0 : left_ms(b);
	char why[160];

	if (t->died)
		return 0;
	int how = left ? sm_guard_run(guarded_timing, &g, left) : SIGALRM;
	if (how == SIGALRM) {
		snprintf(why, sizeof(why), "%u reads and the timing used its budget "
		         "of %" PRIu64 " ms of CPU time", t->runs, b->limit / 1000000);
		hang(t, "timing", why);
		return 0;
	}
	if (how) {
		t->died = true;
		if (t->fails++ == 0)
			snprintf(t->first, sizeof(t->first), "timing: the reader died: "
			         "%s", sm_guard_signal_text(how));
		return 0;
	}
	return g.ns;
}

/* ---- the command ----------------------------------------------------- */

struct hw_opts {
	bool json;
	unsigned iterations;
	const struct sm_reader *readers[64];
	unsigned nreaders;
};

static const char usage[] =
	"usage: selfmon hw [READER...] [--iterations N] [--json]\n"
	"       selfmon hw record --out FILE [--events E,...] [--duration MS]\n\n"
	"Runs the built-in readers, built with the real instructions, against\n"
	"real perf events of this thread: each result must lie between read(2)\n"
	"just before and just after it, also after IOC_RESET, disable/enable and\n"
	"a migration.  Reports the machine, every page's capabilities and time\n"
	"fields, and the cost of a read.  Without a hardware PMU (or without\n"
	"permission) it says why and checks software events, whose index is 0.\n"
	"A read should take microseconds: a reader gets at most 10 ms of CPU\n"
	"time a read and 100 ms + 0.1 ms an iteration (200 ms by default) for\n"
	"all its work on one event; over either it is stopped and reported as\n"
	"hanging.  The command so uses at most readers x events x that budget.\n"
	"Exit status: 0 every check that could run passed (for the readers\n"
	"named, or the reference reader when none is), 1 a reader disagreed\n"
	"with the kernel, 2 bad usage.\n";

static int parse(int argc, char **argv, struct hw_opts *o)
{
	o->iterations = 1000;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--json")) {
			o->json = true;
		} else if (!strcmp(a, "--iterations")) {
			char *end;
			unsigned long v = i + 1 < argc ? strtoul(argv[++i], &end, 10) : 0;
			if (!v || *end || v > 10000000)
				return usage_error("hw: --iterations needs 1..10000000");
			o->iterations = (unsigned)v;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage, stdout);
			return 1;
		} else if (a[0] == '-') {
			return usage_error("hw: unknown option '%s'", a);
		} else {
			const struct sm_reader *r = sm_reader_find(a);
			if (!r || !r->hw)
				return usage_error("hw: unknown reader '%s' (built-in readers "
				                   "only; see 'selfmon list')", a);
			if (o->nreaders < 64)
				o->readers[o->nreaders++] = r;
		}
	}
	return 0;
}

static void page_report(FILE *f, const struct hw_event *e)
{
	struct perf_event_mmap_page p;

	if (!hw_snapshot(e->pc, &p)) {
		fprintf(f, "  %-16s page lock never settled\n", e->name);
		return;
	}
	fprintf(f, "  %-16s lock %u index %u offset %" PRId64 " enabled %" PRIu64
	        " running %" PRIu64 "\n", e->name, p.lock, p.index,
	        (int64_t)p.offset, (uint64_t)p.time_enabled,
	        (uint64_t)p.time_running);
	fprintf(f, "  %-16s caps: bit0_is_deprecated %u user_rdpmc %u user_time "
	        "%u user_time_zero %u user_time_short %u; pmc_width %u\n", "",
	        (unsigned)p.cap_bit0_is_deprecated, (unsigned)p.cap_user_rdpmc,
	        (unsigned)p.cap_user_time, (unsigned)p.cap_user_time_zero,
	        (unsigned)p.cap_user_time_short, p.pmc_width);
	fprintf(f, "  %-16s time_mult %u time_shift %u time_offset %" PRId64
	        " time_zero %" PRIu64 " time_cycles %" PRIu64 " time_mask 0x%"
	        PRIx64 "\n", "", p.time_mult, p.time_shift, (int64_t)p.time_offset,
	        (uint64_t)p.time_zero, (uint64_t)p.time_cycles,
	        (uint64_t)p.time_mask);
}

/* The events to check: software ones always; with a PMU the pinned pair
 * and a set larger than the counters, multiplexed. */
static unsigned pick_events(const struct machine *m, struct hw_event *ev)
{
	static const char *const sw[] = { "task-clock", "cpu-clock",
	                                  "page-faults" };
	static const char *const pinned[] = { "instructions", "cycles" };
	static const char *const mux[] = { "instructions", "cycles", "branches",
	                                   "branch-misses", "cache-references",
	                                   "cache-misses", "bus-cycles",
	                                   "ref-cycles", "branches",
	                                   "cache-misses" };
	unsigned n = 0;

	for (size_t i = 0; i < 3; i++)
		hw_lookup(sw[i], &ev[n++]);
	if (!m->pmu)
		return n;
	for (size_t i = 0; i < 2; i++) {
		hw_lookup(pinned[i], &ev[n]);
		ev[n++].pinned = true;
	}
	for (size_t i = 0; i < sizeof(mux) / sizeof(mux[0]); i++)
		hw_lookup(mux[i], &ev[n++]);
	return n;
}

int cmd_hw(int argc, char **argv)
{
	struct hw_opts o = { 0 };
	struct machine m;
	struct hw_event ev[16];
	int rc;

	if (argc > 0 && !strcmp(argv[0], "record"))
		return cmd_hw_record(argc - 1, argv + 1);
	if ((rc = parse(argc, argv, &o)) != 0)
		return rc == 1 ? 0 : rc;
	describe(&m);
	unsigned nev = pick_events(&m, ev);
	for (unsigned i = 0; i < nev; i++)
		hw_open(&ev[i]);
	bool named = o.nreaders > 0;
	if (!named)
		for (unsigned i = 0; i < sm_nreaders && o.nreaders < 64; i++)
			if (sm_readers[i].hw)
				o.readers[o.nreaders++] = &sm_readers[i];

	FILE *f = o.json ? stderr : stdout;
	fprintf(f, "selfmon hw: %s, %d CPUs, perf_event_paranoid %d, %s\n",
	        m.arch, m.ncpus, m.paranoid, m.user_access);
	fprintf(f, "%s\n", m.pmu ? "hardware PMU: yes" : m.no_pmu);
	fprintf(f, "\npages:\n");
	for (unsigned i = 0; i < nev; i++)
		if (ev[i].pc)
			page_report(f, &ev[i]);
		else
			fprintf(f, "  %-16s not opened: %s\n", ev[i].name,
			        strerror(-ev[i].err));

	struct json j;
	json_init(&j, stdout);
	if (o.json) {
		json_begin(&j, NULL, '{');
		json_str(&j, "arch", m.arch);
		json_bool(&j, "pmu", m.pmu);
		json_str(&j, "pmu_detail", m.pmu ? "" : m.no_pmu);
		json_u64(&j, "perf_event_paranoid", (uint64_t)m.paranoid);
		json_str(&j, "user_access", m.user_access);
		json_begin(&j, "checks", '[');
	}
	unsigned bad = 0, hung = 0;
	fprintf(f, "\nchecks (%u reads each, then after IOC_RESET, "
	        "disable/enable, migration; each reader at most %d ms of CPU "
	        "time a read and %" PRIu64 " ms an event):\n", o.iterations,
	        CALL_CPU_MS, budget_ms(o.iterations));
	fprintf(f, "%-20s %-16s %8s %8s %10s %10s %6s  %s\n", "reader", "event",
	        "checks", "wrong", "ns/read", "ns/read(2)", "ratio", "first");
	for (unsigned k = 0; k < o.nreaders; k++)
		for (unsigned i = 0; i < nev; i++) {
			const struct sm_reader *r = o.readers[k];
			struct tally t;
			if (!ev[i].pc)
				continue;
			struct budget bu = { thread_cpu_ns(),
			                     budget_ms(o.iterations) * 1000000 };
			check_reader(r, &ev[i], o.iterations, m.ncpus, &bu, &t);
			/* a reader that died or hung is not timed */
			double rns = reader_ns(r, &ev[i], &bu, &t);
			t.cpu_ns = thread_cpu_ns() - bu.start;
			double sns = median_ns(NULL, &ev[i]);
			hung += t.hung;
			bool counts = named || !strcmp(r->name, "reference");
			bad += counts && t.fails;
			fprintf(f, "%-20s %-16s %8u %8u %10.1f %10.1f %6.2f  %s%s\n",
			        r->name, ev[i].name, t.runs, t.fails, rns, sns,
			        sns > 0 ? rns / sns : 0, t.first,
			        t.fails && !counts ? " (a corpus variant)" : "");
			if (o.json) {
				json_begin(&j, NULL, '{');
				json_str(&j, "reader", r->name);
				json_str(&j, "event", ev[i].name);
				json_u64(&j, "checks", t.runs);
				json_u64(&j, "wrong", t.fails);
				json_str(&j, "first", t.first);
				json_bool(&j, "hung", t.hung);
				json_u64(&j, "cpu_us", t.cpu_ns / 1000);
				json_u64(&j, "read_ps", (uint64_t)(rns * 1000));
				json_u64(&j, "syscall_ps", (uint64_t)(sns * 1000));
				json_end(&j, '{');
			}
		}
	if (o.json) {
		json_end(&j, '[');
		json_u64(&j, "disagreements", bad);
		json_u64(&j, "hanging", hung);
		json_u64(&j, "budget_ms", budget_ms(o.iterations));
		json_end(&j, '{');
		putchar('\n');
	}
	if (hung)
		fprintf(f, "\n%u checks stopped: the reader hangs (more than %d ms "
		        "of CPU time for a read or %" PRIu64 " ms for the event)\n",
		        hung, CALL_CPU_MS, budget_ms(o.iterations));
	fprintf(f, "\n%s\n", bad ? "a reader disagreed with the kernel"
	                         : "every check that could run passed");
	for (unsigned i = 0; i < nev; i++)
		hw_close(&ev[i]);
	return bad ? 1 : 0;
}
