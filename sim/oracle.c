/*
 * oracle.c — is what the reader returned the truth at some instant of its
 * call?  (DESIGN.md §7)
 *
 * Owns: judging one finished call from the truth samples the session took
 * at every instant of the call (every instruction boundary, and just
 * before and after each kernel action).  A count, enabled or running value
 * passes iff it equals the truth at some instant; a scaled count iff it is
 * within 1 of C(ta) * E(tb) / R(tb) for some instants ta, tb; and running
 * must not exceed enabled.  It sees only samples and values.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "session.h"

static bool seen(const struct sm_session *s, size_t field, uint64_t v)
{
	for (unsigned i = 0; i < s->nsamples; i++)
		if (((const uint64_t *)&s->samples[i])[field] == v)
			return true;
	return false;
}

static void range(const struct sm_session *s, size_t field, uint64_t *lo,
                  uint64_t *hi)
{
	*lo = ~0ull;
	*hi = 0;
	for (unsigned i = 0; i < s->nsamples; i++) {
		uint64_t v = ((const uint64_t *)&s->samples[i])[field];
		if (v < *lo)
			*lo = v;
		if (v > *hi)
			*hi = v;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* |v*R - C*E| <= R for some sampled C and some sampled (E, R); with
 * R == 0 the truth is the count itself (nothing ran, nothing counted). */
static bool scaled_ok(const struct sm_session *s, uint64_t v)
{
	static _Thread_local uint64_t counts[SM_MAX_SAMPLES];
	unsigned n = s->nsamples;

	for (unsigned i = 0; i < n; i++)
		counts[i] = s->samples[i].count;
	qsort(counts, n, sizeof(counts[0]), cmp_u64);
	for (unsigned b = 0; b < n; b++) {
		unsigned __int128 E = s->samples[b].enabled, R = s->samples[b].running;
		if (R == 0) {
			if (seen(s, 0, v))
				return true;
			continue;
		}
		/* C in [ceil((vR - R) / E), floor((vR + R) / E)] */
		unsigned __int128 vr = (unsigned __int128)v * R;
		unsigned __int128 lo = vr >= R ? (vr - R + E - 1) / E : 0;
		unsigned __int128 hi = (vr + R) / E;
		unsigned a = 0, z = n;
		while (a < z) { /* first count >= lo */
			unsigned mid = (a + z) / 2;
			if (counts[mid] < lo)
				a = mid + 1;
			else
				z = mid;
		}
		if (a < n && counts[a] <= hi)
			return true;
	}
	return false;
}

static const char *const field_names[3] = { "count", "enabled", "running" };

static void wrong(struct sm_session *s, size_t field, uint64_t v)
{
	uint64_t lo, hi;

	range(s, field, &lo, &hi);
	sm_result_set(&s->res, V_WRONG_VALUE,
	              "%s = %" PRIu64 " is not the truth at any instant of the "
	              "call (truth went %" PRIu64 "..%" PRIu64 ", off by %" PRId64
	              " from the nearest end)", field_names[field], v, lo, hi,
	              v < lo ? (int64_t)(v - lo) : (int64_t)(v - hi));
}

void sm_oracle_judge(struct sm_session *s, const uint64_t value[3], int rc)
{
	enum sm_abi abi = s->reader->abi;
	unsigned nvals = abi == ABI_RAW || abi == ABI_SCALED ? 1 : 3;

	for (unsigned i = 0; i < 3; i++)
		s->res.value[i] = i < nvals ? value[i] : 0;
	s->res.rc = rc;
	s->res.steps = s->step;
	if (abi == ABI_VALUES && rc < 0) {
		sm_result_set(&s->res, V_WRONG_VALUE, "returned error %d", rc);
		return;
	}
	if (abi == ABI_SCALED) {
		if (!scaled_ok(s, value[0])) {
			uint64_t lo, hi;
			range(s, 0, &lo, &hi);
			sm_result_set(&s->res, V_WRONG_VALUE,
			              "scaled count = %" PRIu64 " is not within 1 of "
			              "count*enabled/running at any instants of the call "
			              "(raw count went %" PRIu64 "..%" PRIu64 ")",
			              value[0], lo, hi);
			return;
		}
		sm_result_set(&s->res, V_PASS, "scaled count %" PRIu64, value[0]);
		return;
	}
	for (size_t i = 0; i < nvals; i++)
		if (!seen(s, i, value[i])) {
			wrong(s, i, value[i]);
			return;
		}
	if (nvals == 3 && value[2] > value[1]) {
		sm_result_set(&s->res, V_WRONG_VALUE,
		              "running %" PRIu64 " > enabled %" PRIu64, value[2],
		              value[1]);
		return;
	}
	sm_result_set(&s->res, V_PASS, "count %" PRIu64, value[0]);
}
