/*
 * oracle.c — is what the reader returned the truth at some instant of its
 * call?  (README.md, Checking readers)
 *
 * Owns: judging one finished call from the window of truth samples taken
 * at every instant of the call (every instruction boundary, and just
 * before and after each kernel action).  A count passes iff it equals the
 * truth at some instant; enabled and running iff they equal the truth, or
 * what a correct reader computes from the page the kernel writes at that
 * instant (the page's cycles-to-ns conversion rounds differently from
 * sched_clock on arm64/riscv64: sm_model_page_ns()), except that a values
 * reader answering from read(2) (rc 1) is held only to the times the
 * event's read_format gives there (none: the count alone); a scaled count iff
 * it is within 1 of C(ta) * E(tb) / R(tb) for some instants ta, tb; and
 * running must not exceed enabled.  A two-call ABI (delta, reset) is
 * judged by differences instead: each value must equal X(tb) - X(ta)
 * (mod 2^64) for some instant ta of the first call and tb of the read
 * (the window's split), X the truth's field or, for a time, the page's.
 * The result is data (session.h's
 * struct sm_wrong): every wrong value, the truth's range, the exact
 * power-of-two offset from the truth when there is one (for a scaled count
 * too), and the cause it points at, named by the counter's width (the
 * page's pmc_width), the field (a time off by 2^k is the timer's wrap),
 * the offset's sign and whether a reset or an overflow reached the call;
 * sm_result_render() words it, the one place that does.  sm_oracle() sees
 * only the window and the values: no session, no model (session.c's
 * sm_oracle_judge() fills the window's facts from the session).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"

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

/* Two calls: v == field(b) - field(a) (mod 2^64) for a sample a of the
 * first call and b of the read?  The first call's values sorted, each of
 * the read's looked up. */
static bool diff_seen(const struct sm_window *w, unsigned f, uint64_t v)
{
	uint64_t *a = w->scratch;

	for (unsigned i = 0; i < w->split; i++)
		a[i] = field(&w->s[i], f);
	qsort(a, w->split, sizeof(a[0]), cmp_u64);
	for (unsigned i = w->split; i < w->n; i++) {
		uint64_t want = field(&w->s[i], f) - v;
		if ((i == w->split ||
		     field(&w->s[i], f) != field(&w->s[i - 1], f)) &&
		    count_in(a, w->split, want, want))
			return true;
	}
	return false;
}

static bool seen(const struct sm_window *w, unsigned f, uint64_t v)
{
	if (w->split)
		return diff_seen(w, f, v);
	for (unsigned i = 0; i < w->n; i++)
		if (field(&w->s[i], f) == v)
			return true;
	return false;
}

/* The truth's range in field f; for two calls, the differences' bounds
 * (the read's least minus the first call's most, and the other way). */
static void range(const struct sm_window *w, unsigned f, uint64_t *lo,
                  uint64_t *hi)
{
	uint64_t l[2] = { ~0ull, ~0ull }, h[2] = { 0, 0 };

	for (unsigned i = 0; i < w->n; i++) {
		uint64_t v = field(&w->s[i], f);
		unsigned k = w->split && i >= w->split;
		l[k] = v < l[k] ? v : l[k];
		h[k] = v > h[k] ? v : h[k];
	}
	*lo = w->split ? l[1] - h[0] : l[0];
	*hi = w->split ? h[1] - l[0] : h[0];
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

/* The offsets a wrong value is tried against, after the counter's own
 * width and half of it: those of other arches' counters. */
static const unsigned other_widths[] = { 48, 47, 32, 31 };

static unsigned width_of(const struct sm_window *w)
{
	if (w->width)
		return w->width;
	return w->arch == SM_ARM64 ? 32 : w->arch == SM_RISCV64 ? 64 : 48;
}

/* An exact power-of-two offset of v from a truth of the call (in field f,
 * or scaled), and the cause it points at, into x. */
static bool offset_from(const struct sm_window *w, unsigned f, bool scaled,
                        uint64_t v, struct sm_wrong *x)
{
	unsigned width = width_of(w), tried[2 + 4 + 8], nt = 0;

	tried[nt++] = width;
	tried[nt++] = width - 1;
	for (size_t k = 0; k < sizeof(other_widths) / sizeof(other_widths[0]);
	     k++)
		tried[nt++] = other_widths[k];
	/* a time off by an arm64 timer's wrap: 2^56..2^63 cycles (its width
	 * is arch_counter_get_width()'s, model/clock.c), 2^w ns at 1 ns a
	 * cycle; riscv64's 64-bit time CSR does not wrap */
	for (unsigned b = 56; w->arch == SM_ARM64 && f != F_COUNT && !scaled &&
	                      b < 64; b++)
		tried[nt++] = b;
	for (unsigned k = 0; k < nt; k++) {
		unsigned b = tried[k];
		if (b == 0 || b >= 64 || (k >= 2 && (b == width || b == width - 1)))
			continue;
		uint64_t d = 1ull << b;
		bool above = scaled ? scaled_ok(w, v - d) : seen(w, f, v - d);
		bool below = !above &&
		             (scaled ? scaled_ok(w, v + d) : seen(w, f, v + d));
		if (!above && !below)
			continue;
		x->offset_bits = b;
		x->above = above;
		if (f == F_ENABLED || f == F_RUNNING)
			x->cause = SM_CAUSE_TIME_WRAP;
		else if (b == width - 1)
			x->cause = SM_CAUSE_HALF;
		else if (b != width)
			x->cause = SM_CAUSE_OTHER_WIDTH;
		else if (above)
			x->cause = SM_CAUSE_NO_SEXT;
		else if (v + d > v) /* the truth is v + 2^width: past 2^width */
			x->cause = SM_CAUSE_MASKED;
		else /* v is the truth - 2^width, below zero */
			x->cause = w->reset ? SM_CAUSE_RESET_QUIRK : SM_CAUSE_SEXT_BELOW;
		return true;
	}
	return false;
}

static const enum sm_wrong_field field_of[3] = {
	SM_WF_COUNT, SM_WF_ENABLED, SM_WF_RUNNING
};

/* Did the count jump during the call: one rise between two consecutive
 * samples of a quarter of the truth's range or more (an overflow's burst:
 * the counter runs to its wrap at one instant, model/kernel.c)? */
static bool jumped(const struct sm_window *w, const struct sm_wrong *x)
{
	uint64_t most = 0;

	for (unsigned i = 1; i < w->n; i++)
		if (w->s[i].count > w->s[i - 1].count &&
		    w->s[i].count - w->s[i - 1].count > most)
			most = w->s[i].count - w->s[i - 1].count;
	return most > 64 && most >= (x->truth_hi - x->truth_lo) / 4;
}

/* One wrong value: its field, the truth's range, the offset and cause. */
static void wrong(const struct sm_window *w, unsigned f, bool scaled,
                  uint64_t v, struct sm_result *res)
{
	struct sm_wrong *x = &res->wrong[res->nwrong++];

	*x = (struct sm_wrong){ .field = scaled ? SM_WF_SCALED : field_of[f],
	                        .value = v };
	range(w, f, &x->truth_lo, &x->truth_hi);
	offset_from(w, f, scaled, v, x);
	x->burst = f == F_COUNT && w->overflow && jumped(w, x);
}

/* The fields are set: the verdict and the sentence, unless selfmon's own
 * verdict stands (sm_result_set()). */
static void set_wrong(struct sm_result *res)
{
	if (sm_verdict_selfmon(res->verdict))
		return;
	res->verdict = SM_V_WRONG_VALUE;
	sm_result_render(res);
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
	unsigned nvals = abi == SM_ABI_RAW || abi == SM_ABI_SCALED ||
	                 abi == SM_ABI_DELTA ? 1 : 3;

	for (unsigned i = 0; i < 3; i++)
		res->value[i] = i < nvals ? value[i] : 0;
	res->rc = rc;
	res->nwrong = 0;
	res->rounded = false;
	res->arch = w->arch;
	res->width = width_of(w);
	res->two_calls = w->split > 0;
	if ((abi == SM_ABI_VALUES || abi == SM_ABI_RESET) && rc < 0) {
		res->wrong[res->nwrong++] = (struct sm_wrong){
			.field = SM_WF_RC, .value = (uint64_t)(int64_t)rc };
		return set_wrong(res);
	}
	if (abi == SM_ABI_SCALED) {
		if (!scaled_ok(w, value[0])) {
			wrong(w, F_COUNT, true, value[0], res);
			return set_wrong(res);
		}
		if (!passed_tersely(w, res))
			sm_result_set(res, SM_V_PASS, "scaled count %" PRIu64,
			              value[0]);
		return;
	}
	/* every wrong value, not only the first; a values reader that fell
	 * back to read(2) (rc 1) is judged on the times its read(2) gives:
	 * with a read_format without TOTAL_TIME_ENABLED (_RUNNING) the kernel
	 * returns no enabled (running) time, and what the reader puts there
	 * is its own business */
	bool judged[3] = { true, true, true };
	if (abi == SM_ABI_VALUES && rc == 1) {
		unsigned rf = w->read_format & SM_RF_GIVEN ? w->read_format
		                                           : SM_RF_DEFAULT;
		judged[F_ENABLED] = rf & SM_RF_TOTAL_TIME_ENABLED;
		judged[F_RUNNING] = rf & SM_RF_TOTAL_TIME_RUNNING;
	}
	if (!seen(w, F_COUNT, value[0]))
		wrong(w, F_COUNT, false, value[0], res);
	for (unsigned f = F_ENABLED; f < nvals; f++)
		if (judged[f] && !time_ok(w, f, value[f], &res->rounded))
			wrong(w, f, false, value[f], res);
	if (!res->nwrong && nvals == 3 && judged[F_ENABLED] &&
	    judged[F_RUNNING] && value[2] > value[1])
		res->wrong[res->nwrong++] = (struct sm_wrong){
			.field = SM_WF_RELATION, .value = value[2],
			.truth_lo = value[1], .truth_hi = value[1] };
	if (res->nwrong)
		return set_wrong(res);
	if (passed_tersely(w, res))
		return;
	sm_result_set(res, SM_V_PASS, "count %" PRIu64 "%s", value[0],
	              res->rounded ? "; a time matched the page's own ns "
	              "conversion, which differs from sched_clock by the "
	              "kernel's rounding" : "");
}

/* Did a reset reach the model before or during the call?  The scenario's
 * scripted ones played so far, and the actions applied in the call. */
/* ---- the sentence, from the fields --------------------------------- */

const char *sm_wrong_field_name(enum sm_wrong_field f)
{
	static const char *const n[SM_NWF] = {
		"count", "enabled", "running", "scaled", "running>enabled", "rc",
	};
	return (unsigned)f < SM_NWF ? n[f] : "?";
}

/* One row a cause: its name (JSON's "cause") and, in short, what an
 * offset of that kind points at (`selfmon list`); the full sentence,
 * with the widths filled in, is cause_text()'s.  test_enums checks every
 * column. */
static const struct sm_cause_desc cause_table[SM_NCAUSES] = {
	[SM_CAUSE_NONE] = { "none", "no exact power-of-two offset from the "
		"truth" },
	[SM_CAUSE_NO_SEXT] = { "no_sign_extension", "2^width above: the "
		"counter was not sign-extended" },
	[SM_CAUSE_RESET_QUIRK] = { "reset_quirk", "2^width below after "
		"IOC_RESET: the kernel's reset quirk, unhandled" },
	[SM_CAUSE_MASKED] = { "count_masked", "2^width below, the truth past "
		"2^width: the whole count masked to the counter's width" },
	[SM_CAUSE_SEXT_BELOW] = { "sign_extension_below", "2^width below: the "
		"counter sign-extended where it was not negative" },
	[SM_CAUSE_HALF] = { "wrong_sign_bit", "2^(width-1): sign extension "
		"from the wrong bit, or a mask one bit short" },
	[SM_CAUSE_TIME_WRAP] = { "time_wrap", "a time off by 2^k: "
		"time_cycles/time_mask not applied" },
	[SM_CAUSE_OTHER_WIDTH] = { "other_width", "2^k, not this counter's "
		"width: a mask or sign extension for another width" },
};

const struct sm_cause_desc *sm_cause_desc(enum sm_cause c)
{
	static const struct sm_cause_desc unknown = { "?", "?" };
	return (unsigned)c < SM_NCAUSES ? &cause_table[c] : &unknown;
}

const char *sm_cause_name(enum sm_cause c)
{
	return sm_cause_desc(c)->name;
}

/* Why, for an offset of 2^b: the cause in words. */
static int cause_text(char *o, size_t n, const struct sm_result *r,
                      const struct sm_wrong *x)
{
	unsigned b = x->offset_bits, wd = r->width;

	switch (x->cause) {
	case SM_CAUSE_NO_SEXT:
		return snprintf(o, n, "this counter's %u-bit width (the page's "
		                "pmc_width): %s was not sign-extended from bit %u "
		                "before adding the page's offset", wd,
		                sm_arch_desc(r->arch)->counter, wd - 1);
	case SM_CAUSE_RESET_QUIRK:
		return snprintf(o, n, "the IOC_RESET quirk: a reset left the page's "
		                "offset relative to the zero-extended %u-bit counter, "
		                "so a sign-extended counter value is 2^%u short until "
		                "the next reload (the reader needs the zero-extension "
		                "fix; kernel variant reset_prev_count)", wd, wd);
	case SM_CAUSE_MASKED:
		return snprintf(o, n, "the count passed 2^%u and the reader masked "
		                "the whole count to the counter's %u bits: only the "
		                "counter value may be masked, not offset + counter", b,
		                wd);
	case SM_CAUSE_SEXT_BELOW:
		return snprintf(o, n, "this counter's %u-bit width: %s was "
		                "sign-extended where it was not negative", wd,
		                sm_arch_desc(r->arch)->counter);
	case SM_CAUSE_HALF:
		return snprintf(o, n, "half this counter's %u-bit range: sign "
		                "extension from the wrong bit, or a %u-bit mask", wd,
		                b);
	case SM_CAUSE_TIME_WRAP:
		return snprintf(o, n, "the time counter's wrap: on a page with "
		                "cap_user_time_short the timer's cycles must be "
		                "taken as time_cycles + ((cyc - time_cycles) & "
		                "time_mask) before time_mult/time_shift (not a "
		                "counter's sign extension)");
	case SM_CAUSE_OTHER_WIDTH:
		return snprintf(o, n, "not this counter's %u-bit width: a mask or "
		                "sign extension for another counter width (%s)", wd,
		                b == 48 ? "x86's 48 bits" : b == 47 ? "x86's sign "
		                "bit, 47" : b == 32 ? "32 bits: arm64 events, x86 "
		                "without full-width writes" : "half of 32 bits");
	default:
		return snprintf(o, n, "?");
	}
}

/* "lo..hi" of a wrong value's truth, and how the value misses it. */
static int miss_text(char *o, size_t n, const struct sm_result *r,
                     const struct sm_wrong *x)
{
	uint64_t v = x->value, lo = x->truth_lo, hi = x->truth_hi;
	int k = 0;

	if (x->offset_bits) {
		k = snprintf(o, n, "exactly 2^%u %s the truth%s: ", x->offset_bits,
		             x->above ? "above" : "below", r->two_calls ? "'s change "
		             "between the calls" : " at an instant of the call");
		if (x != r->wrong && x[-1].offset_bits && x[-1].cause == x->cause)
			return k + snprintf(o + k, n > (size_t)k ? n - k : 0,
			                    "the same cause");
		return k + cause_text(o + k, n > (size_t)k ? n - k : 0, r, x);
	}
	if (v >> 63 && lo >> 63 == 0)
		return snprintf(o, n, "as a signed 64-bit value it is %" PRId64 ": "
		                "a subtraction wrapped below zero (mod 2^64)",
		                (int64_t)v);
	if (r->two_calls) { /* a change may be below zero: signed */
		int64_t sv = (int64_t)v, sl = (int64_t)lo, sh = (int64_t)hi;
		if (sv < sl || sv > sh)
			return snprintf(o, n, "%s by %" PRIu64 " from the nearest "
			                "end", sv < sl ? "below" : "above",
			                sv < sl ? (uint64_t)sl - (uint64_t)sv
			                : (uint64_t)sv - (uint64_t)sh);
		return snprintf(o, n, "no pair of instants gives it");
	}
	if (v < lo || v > hi)
		return snprintf(o, n, "%s by %" PRIu64 " from the nearest end",
		                v < lo ? "below" : "above", v < lo ? lo - v : v - hi);
	return snprintf(o, n, x->burst ? "the truth jumped over it" :
	                "the truth skipped it");
}

static int wrong_text(char *o, size_t n, const struct sm_result *r,
                      const struct sm_wrong *x)
{
	const char *burst = x->burst ? ", jumping with an overflow's burst "
	                    "of events during the call" : "";
	char why[400];

	switch (x->field) {
	case SM_WF_RC:
		return snprintf(o, n, "returned error %d", (int)(int64_t)x->value);
	case SM_WF_RELATION:
		return snprintf(o, n, "running %" PRIu64 " > enabled %" PRIu64,
		                x->value, x->truth_lo);
	case SM_WF_SCALED:
		if (x->offset_bits)
			miss_text(why, sizeof(why), r, x);
		return snprintf(o, n, "scaled count = %" PRIu64 " is not within 1 "
		                "of count*enabled/running at any instants of the "
		                "call (raw count went %" PRIu64 "..%" PRIu64 "%s%s%s)",
		                x->value, x->truth_lo, x->truth_hi, burst,
		                x->offset_bits ? "; " : "", x->offset_bits ? why : "");
	default:
		miss_text(why, sizeof(why), r, x);
		if (r->two_calls)
			return snprintf(o, n, "%s = %" PRIu64 " is not the truth's "
			                "change from an instant of the first call to "
			                "one of the read (the change was within %" PRId64
			                "..%" PRId64 "%s; %s)",
			                sm_wrong_field_name(x->field), x->value,
			                (int64_t)x->truth_lo, (int64_t)x->truth_hi,
			                burst, why);
		return snprintf(o, n, "%s = %" PRIu64 " is not the truth at any "
		                "instant of the call (truth went %" PRIu64 "..%" PRIu64
		                "%s; %s)", sm_wrong_field_name(x->field), x->value,
		                x->truth_lo, x->truth_hi, burst, why);
	}
}

/* The missing isb (r->isb), the clause a failing verdict's sentence ends
 * with: the architecture's rule (Arm ARM, synchronization of System
 * registers: a direct write is only guaranteed to be seen by later
 * instructions after a Context Synchronization Event), which the kernel's
 * own select-then-read keeps (6.12 drivers/perf/arm_v7_pmu.c:
 * armv7_pmnc_select_counter() writes PMSELR then isb() before
 * armv7pmu_read_counter() reads PMXEVCNTR; arm64's read_pmevcntrn(),
 * arch/arm64/include/asm/arm_pmuv3.h, names PMEVCNTR<n>_EL0 instead). */
static int isb_text(char *o, size_t n, const struct sm_missing_isb *x)
{
	return snprintf(o, n, "; missing isb: the mrs of PMXEVCNTR_EL0 at 0x%"
	                PRIx64 " read counter %u, the selection from before the "
	                "msr of PMSELR_EL0 at 0x%" PRIx64 " that selected counter "
	                "%u: with no isb (or exception) between them the CPU may "
	                "still use the previous selection", x->mrs_pc, x->read,
	                x->msr_pc, x->selected);
}

void sm_result_render(struct sm_result *r)
{
	char isb[300] = "";
	size_t n = sizeof(r->detail), k = 0;

	if (sm_result_isb(r))
		isb_text(isb, sizeof(isb), &r->isb);
	n -= strlen(isb); /* room for it, whatever comes before */
	if (r->verdict == SM_V_WRONG_VALUE && r->nwrong) {
		r->detail[0] = '\0';
		for (unsigned i = 0; i < r->nwrong && k < n; i++) {
			if (i)
				k += snprintf(r->detail + k, n - k, "; and ");
			if (k < n)
				k += wrong_text(r->detail + k, n - k, r, &r->wrong[i]);
		}
	}
	k = strnlen(r->detail, n - 1);
	snprintf(r->detail + k, sizeof(r->detail) - k, "%s", isb);
}
