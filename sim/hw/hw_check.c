/*
 * hw_check.c — the window check of `selfmon hw` (see hw_check.h).
 *
 * Owns: calling a reader built with the real instructions on a real page
 * under a CPU budget (guard.c stops it), judging its values against
 * read(2) just before and just after, the same after IOC_RESET,
 * disable/enable and a migration, and the median cost of a read.  Must
 * not print: the command reports the tally.
 */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guard.h"
#include "hw_check.h"

#define BUDGET_BASE_MS 100
#define BUDGET_PER_READ_US 100

struct budget {
	uint64_t start, limit; /* the thread's CPU time, ns */
	unsigned call_ms;      /* of one call */
};

uint64_t hw_budget_ms(unsigned iterations, unsigned slow)
{
	return (BUDGET_BASE_MS + (uint64_t)iterations * BUDGET_PER_READ_US /
	        1000) * slow;
}

/* CPU ms left of the budget, 0 when spent. */
static unsigned left_ms(const struct budget *b)
{
	uint64_t used = hw_thread_cpu_ns() - b->start;
	return used >= b->limit ? 0
	                        : (unsigned)((b->limit - used + 999999) / 1000000);
}

static void hang(struct hw_tally *t, const char *phase, const char *why)
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

static const char *judge_scaled(const uint64_t b[3], const uint64_t v[3],
                                const uint64_t a[3], char *why, size_t n)
{
	uint64_t lo = scale(b), hi = scale(a);
	if (lo > hi) {
		uint64_t t = lo;
		lo = hi;
		hi = t;
	}
	if (v[0] + 1 < lo || v[0] > hi + 1)
		return snprintf(why, n, "scaled count %" PRIu64 " outside %" PRIu64
		                "..%" PRIu64, v[0], lo, hi), why;
	return NULL;
}

/* The reader's values lie between read(2) just before and just after:
 * NULL, or why not in `why`. */
static const char *judge(const struct sm_reader *r, const uint64_t b[3],
                         const uint64_t v[3], const uint64_t a[3], int rc,
                         char *why, size_t n)
{
	static const char *const names[3] = { "count", "enabled", "running" };

	if (rc < 0)
		return snprintf(why, n, "returned error %d", rc), why;
	if (r->abi == SM_ABI_SCALED)
		return judge_scaled(b, v, a, why, n);
	unsigned k = r->abi == SM_ABI_RAW ? 1 : 3;
	for (unsigned i = 0; i < k; i++)
		if (v[i] < b[i] || v[i] > a[i])
			return snprintf(why, n, "%s %" PRIu64 " outside read(2) %" PRIu64
			                "..%" PRIu64, names[i], v[i], b[i], a[i]), why;
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

static void spent(const struct hw_tally *t, const struct budget *bu,
                  char *why, size_t n)
{
	snprintf(why, n, "%u reads used its budget of %" PRIu64 " ms of CPU "
	         "time", t->runs, bu->limit / 1000000);
}

static void check_once(const struct sm_reader *r, const struct hw_event *e,
                       const char *phase, const struct budget *bu,
                       struct hw_tally *t)
{
	struct guarded g = { r, e, { 0 }, 0, 0 };
	uint64_t b[3], a[3];
	char why[200];
	unsigned left = left_ms(bu);

	if (t->died)
		return;
	if (!left)
		return spent(t, bu, why, sizeof(why)), hang(t, phase, why);
	if (hw_read(e, b) < 0)
		return;
	int how = sm_guard_run(guarded_call, &g, left < bu->call_ms
	                                         ? left : bu->call_ms);
	if (hw_read(e, a) < 0)
		return;
	t->runs++;
	if (how == SIGALRM) {
		if (left < bu->call_ms)
			spent(t, bu, why, sizeof(why));
		else
			snprintf(why, sizeof(why), "a read did not return within %u ms "
			         "of CPU time", bu->call_ms);
		return hang(t, phase, why);
	}
	const char *bad = NULL;
	if (how) {
		snprintf(why, sizeof(why), "the reader died: %s",
		         sm_guard_signal_text(how));
		bad = why;
		t->died = true;
	} else {
		bad = judge(r, b, g.v, a, g.rc, why, sizeof(why));
	}
	if (bad && t->fails++ == 0)
		snprintf(t->first, sizeof(t->first), "%s: %s", phase, bad);
}

/* Plain reads, then after IOC_RESET, disable/enable, a migration, and
 * on a sampling event after IOC_PERIOD (a shorter period, then its own
 * again: _perf_event_period() stops the counter with an update and
 * starts it reloaded, so the page's offset and the counter both change
 * under the reader). */
static void check_reads(const struct sm_reader *r, struct hw_event *e,
                        unsigned iterations, int ncpus,
                        const struct budget *b, struct hw_tally *t)
{
	for (unsigned i = 0; i < iterations && !t->died; i++)
		check_once(r, e, "read", b, t);
	if (t->died)
		return; /* it crashed or hung: once is enough */
	hw_reset(e);
	check_once(r, e, "after IOC_RESET", b, t);
	hw_disable(e);
	hw_enable(e);
	check_once(r, e, "after disable/enable", b, t);
	for (int c = 0; c < ncpus && c < 2; c++)
		if (hw_migrate(ncpus > 1 ? c : 0) == 0)
			check_once(r, e, "after a migration", b, t);
	if (e->period && hw_period(e, e->period / 4 * 3) == 0) {
		check_once(r, e, "after IOC_PERIOD", b, t);
		hw_period(e, e->period);
		check_once(r, e, "after IOC_PERIOD", b, t);
	}
}

/* ---- cost ------------------------------------------------------------ */

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Median ns of one call (of read(2) when r is NULL), over 99 batches of
 * 64. */
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
                        const struct budget *b, struct hw_tally *t)
{
	struct guarded g = { r, e, { 0 }, 0, 0 };
	unsigned left = t->died ? 0 : left_ms(b);
	char why[200];

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

void hw_check_reader(const struct sm_reader *r, struct hw_event *e,
                     unsigned iterations, unsigned slow, int ncpus,
                     struct hw_tally *t)
{
	struct budget bu = { hw_thread_cpu_ns(),
	                     hw_budget_ms(iterations, slow) * 1000000,
	                     HW_CALL_CPU_MS * slow };

	memset(t, 0, sizeof(*t));
	check_reads(r, e, iterations, ncpus, &bu, t);
	/* a reader that died or hung is not timed */
	t->read_ns = reader_ns(r, e, &bu, t);
	sm_guard_end(); /* no alarm after the reader's last call */
	t->cpu_ns = hw_thread_cpu_ns() - bu.start;
	t->syscall_ns = median_ns(NULL, e);
}
