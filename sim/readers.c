/*
 * readers.c — the built-in readers: the reference reader and the corpus
 * (reader/variants/list.h), with the verdict each is expected to get per
 * bundled scenario.
 *
 * Owns: sm_readers[] and the expectations.  An expectation string lists
 * "scenario=VERDICT" pairs; a scenario not listed expects PASS.  The
 * expectations are what the reader's fault makes the kernel model produce
 * under exhaustive exploration at the default bound; tests assert them.
 */
#include <string.h>

#include "prims.h"
#include "session.h"

/* The routed builds (SELFMON_PRIMS_ROUTED), one prototype per ABI. */
#define PROTO_RAW(f) uint64_t f(const void *)
#define PROTO_SCALED(f) uint64_t f(const void *)
#define PROTO_TIMES(f) uint64_t f(const void *, uint64_t *, uint64_t *)
#define PROTO_VALUES(f) int f(const void *, int, struct selfmon_values *)
#define SELFMON_VARIANT(name, abi, what)                                       \
	PROTO_##abi(selfmon_v_##name);                                         \
	PROTO_##abi(selfmon_hw_v_##name);
#include "variants/list.h"
#undef SELFMON_VARIANT
int selfmon_ref_read(const void *, int, struct selfmon_values *);
int selfmon_hw_read(const void *, int, struct selfmon_values *);

#define EXPECT(name, text) { #name, -1, text }
#define EXPECT_NATIVE(name, text) { #name, ENGINE_NATIVE, text }
static const struct {
	const char *name;
	int engine; /* -1: every engine unless an engine's own entry exists */
	const char *expect;
} expectations[] = {
#include "expect.h"
};

#define SELFMON_VARIANT(n, a, text)                                          \
	{ .name = #n, .what = text, .abi = ABI_##a,                          \
	  .native = (void (*)(void))selfmon_v_##n, .symbol = "selfmon_v_" #n,    \
	  .hw = (void (*)(void))selfmon_hw_v_##n },
#define SELFMON_VARIANT_ARM64(n, a, text)                                    \
	{ .name = #n, .what = text, .abi = ABI_##a, .symbol = "selfmon_v_" #n, \
	  .arches = 1u << SM_ARM64 },
const struct sm_reader sm_readers[] = {
	{ .name = "reference",
	  .what = "libselfmon's selfmon_read(): right in every case",
	  .abi = ABI_VALUES, .native = (void (*)(void))selfmon_ref_read,
	  .symbol = "selfmon_read", .hw = (void (*)(void))selfmon_hw_read },
#include "variants/list.h"
};
#undef SELFMON_VARIANT
#undef SELFMON_VARIANT_ARM64
const unsigned sm_nreaders = sizeof(sm_readers) / sizeof(sm_readers[0]);

const struct sm_reader *sm_reader_find(const char *name)
{
	for (unsigned i = 0; i < sm_nreaders; i++)
		if (!strcmp(sm_readers[i].name, name))
			return &sm_readers[i];
	return NULL;
}

const char *sm_reader_expect(const struct sm_reader *r, enum sm_engine_kind e)
{
	const char *any = "";

	for (size_t i = 0; i < sizeof(expectations) / sizeof(expectations[0]); i++) {
		if (strcmp(expectations[i].name, r->name))
			continue;
		if (expectations[i].engine == (int)e)
			return expectations[i].expect;
		if (expectations[i].engine < 0)
			any = expectations[i].expect;
	}
	return any;
}
