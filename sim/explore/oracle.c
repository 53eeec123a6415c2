/*
 * oracle.c — is what the reader returned the truth at some instant of its
 * call?  (DESIGN.md §7)
 *
 * Owns: judging one finished call from the window of truth samples taken
 * at every instant of the call (every instruction boundary, and just
 * before and after each kernel action).  A count passes iff it equals the
 * truth at some instant; enabled and running iff they equal the truth, or
 * what a correct reader computes from the page the kernel writes at that
 * instant (the page's cycles-to-ns conversion rounds differently from
 * sched_clock on arm64/riscv64: sm_model_page_ns()); a scaled count iff
 * it is within 1 of C(ta) * E(tb) / R(tb) for some instants ta, tb; and
 * running must not exceed enabled.  A wrong value's detail names an exact
 * power-of-two offset from the truth when there is one.  It sees only the
 * window and the values: no session, no model.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session.h"

enum { F_COUNT, F_ENABLED, F_RUNNING, F_ENABLED_PUB, F_RUNNING_PUB };

static uint64_t field(const struct sm_truth *x, unsigned f)
{
	switch (f) {
	case F_COUNT: return x->count;
	case F_ENABLED: return x->enabled;
	case F_RUNNING: return x->running;
	case F_ENABLED_PUB: return x->enabled_pub;
	default: return x->running_pub;
	}
}

static bool seen(const struct sm_window *w, unsigned f, uint64_t v)
{
	for (unsigned i = 0; i < w->n; i++)
		if (field(&w->s[i], f) == v)
			return true;
	return false;
}

static void range(const struct sm_window *w, unsigned f, uint64_t *lo,
                  uint64_t *hi)
{
	*lo = ~0ull;
	*hi = 0;
	for (unsigned i = 0; i < w->n; i++) {
		uint64_t v = field(&w->s[i], f);
		*lo = v < *lo ? v : *lo;
		*hi = v > *hi ? v : *hi;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

#define MAX_RUNS 8 /* ascending runs of counts searched apart */

/* Is some count in sorted[0..n) within [lo, hi]? */
static bool count_in(const uint64_t *sorted, unsigned n,
                     unsigned __int128 lo, unsigned __int128 hi)
{
	unsigned a = 0, z = n;

	while (a < z) { /* first count >= lo */
		unsigned mid = (a + z) / 2;
		if (sorted[mid] < lo)
			a = mid + 1;
		else
			z = mid;
	}
	return a < n && sorted[a] <= hi;
}

/* |v*R - C*E| <= R for some C of the window and some (E, R) of it (the
 * truth's or the page's); R == 0: the truth is the count itself (nothing
 * ran, nothing counted). */
static bool scaled_ok(const struct sm_window *w, uint64_t v)
{
	uint64_t *counts = w->scratch;
	unsigned run[MAX_RUNS + 1], nrun = 0;
	bool ok = false;

	/* The truth only grows unless the count is reset: the counts are a
	 * few ascending runs, each searched in place; many runs are sorted
	 * into one.  Either way: is some count of the window in [lo, hi]? */
	for (unsigned i = 0; i < w->n; i++) {
		counts[i] = w->s[i].count;
		if ((i == 0 || counts[i - 1] > counts[i]) && nrun++ < MAX_RUNS)
			run[nrun - 1] = i;
	}
	if (nrun > MAX_RUNS) {
		qsort(counts, w->n, sizeof(counts[0]), cmp_u64);
		run[0] = 0;
		nrun = 1;
	}
	run[nrun] = w->n;
	for (unsigned b = 0; b < 2 * w->n && !ok; b++) {
		const struct sm_truth *x = &w->s[b / 2];
		unsigned __int128 E = b & 1 ? x->enabled_pub : x->enabled;
		unsigned __int128 R = b & 1 ? x->running_pub : x->running;
		if (R == 0) {
			ok = seen(w, F_COUNT, v);
			continue;
		}
		/* C in [ceil((vR - R) / E), floor((vR + R) / E)] */
		unsigned __int128 vr = (unsigned __int128)v * R;
		unsigned __int128 lo = vr >= R ? (vr - R + E - 1) / E : 0;
		unsigned __int128 hi = (vr + R) / E;
		for (unsigned k = 0; k < nrun && !ok; k++)
			ok = count_in(counts + run[k], run[k + 1] - run[k], lo, hi);
	}
	return ok;
}

/* Offsets a wrong value is known to come from, largest first. */
static const struct {
	unsigned bits;
	const char *why;
} known_offsets[] = {
	{ 48, "the x86 counter width: a missing sign extension, or the "
	      "IOC_RESET quirk" },
	{ 47, "half the 48-bit counter range: sign extension from the wrong "
	      "bit, or a 47-bit mask" },
	{ 32, "the 32-bit counter width: a missing sign extension of a 32-bit "
	      "counter (arm64 events, x86 without full-width writes)" },
	{ 31, "half the 32-bit counter range: sign extension from the wrong "
	      "bit" },
};

/* Why v is not in the window: an exact power-of-two offset from a truth
 * of the call when there is one, else how far outside the truth's range
 * (or that the truth skipped it). */
static void why_wrong(const struct sm_window *w, unsigned f, uint64_t v,
                      uint64_t lo, uint64_t hi, char *out, size_t n)
{
	for (size_t k = 0; k < sizeof(known_offsets) / sizeof(known_offsets[0]);
	     k++) {
		uint64_t d = 1ull << known_offsets[k].bits;
		bool above = seen(w, f, v - d), below = seen(w, f, v + d);
		if (above || below) {
			snprintf(out, n, "exactly 2^%u %s the truth at an instant of "
			         "the call: %s", known_offsets[k].bits,
			         above ? "above" : "below", known_offsets[k].why);
			return;
		}
	}
	if (v >> 63 && lo >> 63 == 0)
		snprintf(out, n, "as a signed 64-bit value it is %" PRId64 ": a "
		         "subtraction wrapped below zero (mod 2^64)", (int64_t)v);
	else if (v < lo || v > hi)
		snprintf(out, n, "%s by %" PRIu64 " from the nearest end",
		         v < lo ? "below" : "above", v < lo ? lo - v : v - hi);
	else
		snprintf(out, n, "the truth skipped it");
}

static const char *const field_names[3] = { "count", "enabled", "running" };

static void wrong(const struct sm_window *w, unsigned f, uint64_t v,
                  struct sm_result *res)
{
	uint64_t lo, hi;
	char why[256];

	range(w, f, &lo, &hi);
	why_wrong(w, f, v, lo, hi, why, sizeof(why));
	sm_result_set(res, SM_V_WRONG_VALUE, "%s = %" PRIu64 " is not the truth "
	              "at any instant of the call (truth went %" PRIu64 "..%"
	              PRIu64 "; %s)", field_names[f], v, lo, hi, why);
}

/* enabled or running: the truth, or the page's own rounding of it. */
static bool time_ok(const struct sm_window *w, unsigned f, uint64_t v,
                    bool *rounded)
{
	if (seen(w, f, v))
		return true;
	if (seen(w, f + F_ENABLED_PUB - F_ENABLED, v)) {
		*rounded = true;
		return true;
	}
	return false;
}

/* A PASS without its detail, for a terse window; false if not terse. */
static bool passed_tersely(const struct sm_window *w, struct sm_result *res)
{
	if (!w->terse)
		return false;
	if (!sm_verdict_selfmon(res->verdict)) {
		res->verdict = SM_V_PASS;
		res->detail[0] = '\0';
	}
	return true;
}

void sm_oracle(const struct sm_window *w, enum sm_abi abi,
               const uint64_t value[3], int rc, struct sm_result *res)
{
	unsigned nvals = abi == SM_ABI_RAW || abi == SM_ABI_SCALED ? 1 : 3;
	bool rounded = false;

	for (unsigned i = 0; i < 3; i++)
		res->value[i] = i < nvals ? value[i] : 0;
	res->rc = rc;
	if (abi == SM_ABI_VALUES && rc < 0) {
		sm_result_set(res, SM_V_WRONG_VALUE, "returned error %d", rc);
		return;
	}
	if (abi == SM_ABI_SCALED) {
		if (!scaled_ok(w, value[0])) {
			uint64_t lo, hi;
			range(w, F_COUNT, &lo, &hi);
			sm_result_set(res, SM_V_WRONG_VALUE, "scaled count = %" PRIu64
			              " is not within 1 of count*enabled/running at any "
			              "instants of the call (raw count went %" PRIu64
			              "..%" PRIu64 ")", value[0], lo, hi);
			return;
		}
		if (!passed_tersely(w, res))
			sm_result_set(res, SM_V_PASS, "scaled count %" PRIu64,
			              value[0]);
		return;
	}
	if (!seen(w, F_COUNT, value[0]))
		return wrong(w, F_COUNT, value[0], res);
	for (unsigned f = F_ENABLED; f < nvals; f++)
		if (!time_ok(w, f, value[f], &rounded))
			return wrong(w, f, value[f], res);
	if (nvals == 3 && value[2] > value[1]) {
		sm_result_set(res, SM_V_WRONG_VALUE, "running %" PRIu64 " > enabled %"
		              PRIu64, value[2], value[1]);
		return;
	}
	if (passed_tersely(w, res))
		return;
	sm_result_set(res, SM_V_PASS, "count %" PRIu64 "%s", value[0],
	              rounded ? "; a time matched the page's own ns conversion, "
	              "which differs from sched_clock by the kernel's rounding"
	              : "");
}

void sm_oracle_judge(struct sm_session *s, const uint64_t value[3], int rc)
{
	sm_session_settle(s);
	struct sm_window w = { s->samples, s->run.nsamples, s->scratch,
	                       s->terse };

	s->res.steps = s->run.step;
	sm_oracle(&w, s->reader->abi, value, rc, &s->res);
}
