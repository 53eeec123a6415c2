/*
 * hw_event.c — real perf events of the calling thread (see hw_event.h).
 *
 * Owns: the table of known events, perf_event_open(2), mmap, read(2),
 * the ioctls, the seqlock copy of a page, affinity, the thread's clocks
 * and switch count, and the description of the machine.  Must not touch
 * readers, traces, the model or the commands' output.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>

#include "enums.h"
#include <unistd.h>

#include "hw_event.h"
#include "prims.h"

#define HW(n, c) { .name = n, .type = PERF_TYPE_HARDWARE, .config = c, .fd = -1 }
#define SW(n, c) { .name = n, .type = PERF_TYPE_SOFTWARE, .config = c, \
	           .software = true, .fd = -1 }
static const struct hw_event known[] = {
	HW("instructions", PERF_COUNT_HW_INSTRUCTIONS),
	HW("cycles", PERF_COUNT_HW_CPU_CYCLES),
	HW("branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS),
	HW("branch-misses", PERF_COUNT_HW_BRANCH_MISSES),
	HW("cache-references", PERF_COUNT_HW_CACHE_REFERENCES),
	HW("cache-misses", PERF_COUNT_HW_CACHE_MISSES),
	HW("bus-cycles", PERF_COUNT_HW_BUS_CYCLES),
	HW("ref-cycles", PERF_COUNT_HW_REF_CPU_CYCLES),
	SW("task-clock", PERF_COUNT_SW_TASK_CLOCK),
	SW("cpu-clock", PERF_COUNT_SW_CPU_CLOCK),
	SW("page-faults", PERF_COUNT_SW_PAGE_FAULTS),
	SW("context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES),
	{ .name = "cycles:long", .type = PERF_TYPE_HARDWARE,
	  .config = PERF_COUNT_HW_CPU_CYCLES, .fd = -1, .wide = true },
	{ .name = "instructions:long", .type = PERF_TYPE_HARDWARE,
	  .config = PERF_COUNT_HW_INSTRUCTIONS, .fd = -1, .wide = true },
	{ .name = "cycles:period", .type = PERF_TYPE_HARDWARE,
	  .config = PERF_COUNT_HW_CPU_CYCLES, .fd = -1, .period = 100000 },
	{ .name = "instructions:period", .type = PERF_TYPE_HARDWARE,
	  .config = PERF_COUNT_HW_INSTRUCTIONS, .fd = -1, .period = 100000 },
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
	/* arm64: ask for user access (config1 bit 1), and a 64-bit counter
	 * (bit 0); other arches ignore both */
	a.config1 = 0x2 | (e->wide ? 0x1 : 0);
	a.sample_period = e->period;
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

void hw_reset(const struct hw_event *e)
{
	ioctl(e->fd, PERF_EVENT_IOC_RESET, 0);
}

void hw_disable(const struct hw_event *e)
{
	ioctl(e->fd, PERF_EVENT_IOC_DISABLE, 0);
}

void hw_enable(const struct hw_event *e)
{
	ioctl(e->fd, PERF_EVENT_IOC_ENABLE, 0);
}

int hw_period(const struct hw_event *e, uint64_t period)
{
	return ioctl(e->fd, PERF_EVENT_IOC_PERIOD, &period) == 0 ? 0 : -errno;
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

static uint64_t clock_ns(clockid_t id)
{
	struct timespec t;
	clock_gettime(id, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

uint64_t hw_now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

uint64_t hw_thread_cpu_ns(void)
{
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

long hw_thread_switches(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) == 0 ? ru.ru_nvcsw + ru.ru_nivcsw
	                                          : -1;
}

int hw_migrate(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) == 0 ? 0 : -errno;
}

const char *hw_arch_name(void)
{
#if defined(__x86_64__)
	return sm_arch_name(SM_X86_64);
#elif defined(__aarch64__)
	return sm_arch_name(SM_ARM64);
#else
	return sm_arch_name(SM_RISCV64);
#endif
}

/* ---- the machine ---------------------------------------------------- */

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

static void user_access(struct hw_machine *m)
{
#if defined(__x86_64__)
	int rdpmc = read_int_file("/sys/bus/event_source/devices/cpu/rdpmc", -1);
	if (rdpmc < 0)
		snprintf(m->user_access, sizeof(m->user_access),
		         "sysfs rdpmc: absent (no cpu PMU device)");
	else
		snprintf(m->user_access, sizeof(m->user_access), "sysfs rdpmc = %d",
		         rdpmc);
#else
	snprintf(m->user_access, sizeof(m->user_access),
	         "kernel.perf_user_access = %d",
	         read_int_file("/proc/sys/kernel/perf_user_access", -1));
#endif
}

void hw_describe(struct hw_machine *m)
{
	m->arch = hw_arch_name();
	user_access(m);
	m->paranoid = read_int_file("/proc/sys/kernel/perf_event_paranoid", 99);
	m->ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	m->no_pmu[0] = '\0';
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
