/*
 * readers.c — the built-in readers: the reference reader and the corpus
 * (reader/variants/list.h), each a struct sm_reader with its texts and
 * the verdicts it is declared to get.
 *
 * Owns: sm_readers[], built from list.h's records and nothing else, and
 * the lookup of an expectation.  It must not know what the variants do:
 * that is list.h's (one line each) and the variants' own files (prose).
 */
#include <string.h>

#include "prims.h"
#include "session.h"

/* The routed builds (SELFMON_PRIMS_ROUTED), one prototype per ABI. */
#define PROTO_RAW(f) uint64_t f(const void *)
#define PROTO_SCALED(f) uint64_t f(const void *)
#define PROTO_TIMES(f) uint64_t f(const void *, uint64_t *, uint64_t *)
#define PROTO_VALUES(f) int f(const void *, int, struct selfmon_value *)
int selfmon_ref_read(const void *, int, struct selfmon_value *);
int selfmon_hw_read(const void *, int, struct selfmon_value *);

/* list.h's columns: ARCHES (arm64-only code has no routed or hw build),
 * and the ENGINE of an expectation. */
#define ARCHES_ALL 0
#define ARCHES_ARM64 (1u << SM_ARM64)
#define BUILT_ALL(f) ((void (*)(void))f)
#define BUILT_ARM64(f) NULL
#define ON_UNICORN (1u << SM_ENGINE_UNICORN)
#define ON_NATIVE (1u << SM_ENGINE_NATIVE)
#define ON_BOTH (ON_UNICORN | ON_NATIVE)
#define SELFMON_EXPECT(scn, engine, v) { #scn, ON_##engine, SM_V_##v },

/* The kernel hazards (see list.h) are the only scenarios where the
 * reference reader does not pass: riscv64_rotate, and arm64_remote, where
 * the writer's stores reach another CPU out of order. */
static const struct sm_expect expect_reference[] = {
	SELFMON_EXPECT(arm64_remote, UNICORN, WRONG_VALUE)
	SELFMON_EXPECT(riscv64_rotate, BOTH, FAULT)
	{ NULL, 0, SM_V_PASS },
};

/* Per variant: prototypes and its expectations. */
#define SELFMON_VARIANT(n, abi, arches, what, fault, fix, ...)               \
	PROTO_##abi(selfmon_v_##n);                                          \
	PROTO_##abi(selfmon_hw_v_##n);                                       \
	static const struct sm_expect expect_##n[] = {                       \
		__VA_ARGS__ { NULL, 0, SM_V_PASS } };
#include "variants/list.h"
#undef SELFMON_VARIANT

#define SELFMON_VARIANT(n, a, ar, text, flt, fx, ...)                        \
	{ .name = #n, .what = text, .fault = flt, .fix = fx,                 \
	  .expect = expect_##n, .abi = SM_ABI_##a, .arches = ARCHES_##ar,       \
	  .native = BUILT_##ar(selfmon_v_##n), .symbol = "selfmon_v_" #n,    \
	  .hw = BUILT_##ar(selfmon_hw_v_##n) },
const struct sm_reader sm_readers[] = {
	{ .name = "reference",
	  .what = "libselfmon's selfmon_read(): right in every case",
	  .expect = expect_reference,
	  .abi = SM_ABI_VALUES, .native = (void (*)(void))selfmon_ref_read,
	  .symbol = "selfmon_read", .hw = (void (*)(void))selfmon_hw_read },
#include "variants/list.h"
};
#undef SELFMON_VARIANT
const unsigned sm_nreaders = sizeof(sm_readers) / sizeof(sm_readers[0]);

const struct sm_reader *sm_reader_find(const char *name)
{
	for (unsigned i = 0; i < sm_nreaders; i++)
		if (!strcmp(sm_readers[i].name, name))
			return &sm_readers[i];
	return NULL;
}

enum sm_verdict sm_reader_expected(const struct sm_reader *r,
                                   const char *scenario, enum sm_engine_kind e)
{
	for (const struct sm_expect *x = r->expect; x && x->scenario; x++)
		if ((x->engines & (1u << e)) && !strcmp(x->scenario, scenario))
			return x->verdict;
	return SM_V_PASS;
}

int sm_reader_call(void (*fn)(void), enum sm_abi abi, const void *page,
                   int fd, uint64_t v[3])
{
	struct selfmon_value out = { 0 };

	v[0] = v[1] = v[2] = 0;
	switch (abi) {
	case SM_ABI_RAW:
		v[0] = ((selfmon_raw_fn)fn)(page);
		return 0;
	case SM_ABI_SCALED:
		v[0] = ((selfmon_scaled_fn)fn)(page);
		return 0;
	case SM_ABI_TIMES:
		v[0] = ((selfmon_times_fn)fn)(page, &v[1], &v[2]);
		return 0;
	case SM_ABI_VALUES: {
		int rc = ((selfmon_values_fn)fn)(page, fd, &out);
		v[0] = out.count;
		v[1] = out.enabled;
		v[2] = out.running;
		return rc;
	}
	case SM_NABI:
		break;
	}
	return -1;
}
