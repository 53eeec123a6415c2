/*
 * readers.c — the built-in readers: the reference reader and the corpus
 * (reader/variants/list.h), each a struct sm_reader with its texts and
 * the verdicts it is declared to get.
 *
 * Owns: sm_readers[], built from list.h's records and nothing else, and
 * the lookup of an expectation.  It must not know what the variants do:
 * that is list.h's (one line each) and the variants' own files (prose).
 */
#include <stdio.h>
#include <string.h>

#include "prims.h"
#include "reader.h"

_Static_assert(SM_CTX_SIZE == SELFMON_CTX_SIZE,
               "the two-call ABIs' ctx: one size for readers and engines");

/* The routed builds (SELFMON_PRIMS_ROUTED), one prototype per ABI. */
#define PROTO_RAW(f) uint64_t f(const void *)
#define PROTO_SCALED(f) uint64_t f(const void *)
#define PROTO_TIMES(f) uint64_t f(const void *, uint64_t *, uint64_t *)
#define PROTO_VALUES(f) int f(const void *, int, struct selfmon_value *)
int selfmon_ref_read(const void *, int, struct selfmon_value *);
int selfmon_hw_read(const void *, int, struct selfmon_value *);

/* list.h's columns: ARCHES (arm64-only code has no routed or hw build
 * here), and the ENGINE of an expectation.  In the guest program of
 * `selfmon vm` (SELFMON_GUEST, built for that arch: vm/guest.c) there is
 * no routed build, and the hw build is every reader the arch has. */
#define ARCHES_ALL 0
#define ARCHES_ARM64 (1u << SM_ARM64)
#define FN(f) ((void (*)(void))f)
#if defined(SELFMON_GUEST)
#define NATIVE_ALL(f) NULL
#define NATIVE_ARM64(f) NULL
#define NATIVE_REF NULL
#define HW_ALL(f) FN(f)
#if defined(__aarch64__)
#define HW_ARM64(f) FN(f)
#else
#define HW_ARM64(f) NULL
#endif
#else
#define NATIVE_ALL(f) FN(f)
#define NATIVE_ARM64(f) NULL
#define NATIVE_REF FN(selfmon_ref_read)
#define HW_ALL(f) FN(f)
#define HW_ARM64(f) NULL
#endif
#define ON_UNICORN (1u << SM_ENGINE_UNICORN)
#define ON_NATIVE (1u << SM_ENGINE_NATIVE)
#define ON_BOTH (ON_UNICORN | ON_NATIVE)
#define SELFMON_EXPECT(scn, engine, v, k, needs)                             \
	{ #scn, ON_##engine, SM_V_##v, k, needs, NULL },
#define SELFMON_EXPECT_IF(when, scn, engine, v, k, needs)                    \
	{ #scn, ON_##engine, SM_V_##v, k, needs, when },

/* The kernel hazards (see list.h) are the only scenarios where the
 * reference reader does not pass: riscv64_rotate, x86_munmap (the page
 * unmapped under it), arm64_remote, where the writer's stores reach
 * another CPU out of order, and x86_set_output, where another event
 * writes the page; the kernel variants that cure them, and arm64_remote
 * without its reset, let it pass. */
static const struct sm_expect expect_reference[] = {
	SELFMON_EXPECT(arm64_remote, UNICORN, WRONG_VALUE, 2, "reset,lock_early")
	SELFMON_EXPECT_IF("without=reset", arm64_remote, UNICORN, PASS, 0, "")
	SELFMON_EXPECT_IF("kernel=userpage_wmb", arm64_remote, UNICORN, PASS, 0, "")
	SELFMON_EXPECT(riscv64_rotate, BOTH, FAULT, 1, "rotate_out")
	SELFMON_EXPECT_IF("kernel=riscv_keep_scounteren", riscv64_rotate, BOTH,
	                  PASS, 0, "")
	SELFMON_EXPECT(x86_set_output, BOTH, WRONG_VALUE, 1, "preempt")
	SELFMON_EXPECT(x86_munmap, UNICORN, FAULT, 1, "munmap")
	{ NULL, 0, SM_V_PASS, 0, "", NULL },
};

/* Per variant: prototypes and its expectations. */
#define SELFMON_VARIANT(n, abi, arches, what, fault, fix, shows, ...)        \
	PROTO_##abi(selfmon_v_##n);                                          \
	PROTO_##abi(selfmon_hw_v_##n);                                       \
	static const struct sm_expect expect_##n[] = {                       \
		__VA_ARGS__ { NULL, 0, SM_V_PASS, 0, "", NULL } };
#include "variants/list.h"
#undef SELFMON_VARIANT

#define SELFMON_VARIANT(n, a, ar, text, flt, fx, sh, ...)                    \
	{ .name = #n, .what = text, .fault = flt, .fix = fx, .shows = sh,    \
	  .expect = expect_##n, .abi = SM_ABI_##a, .arches = ARCHES_##ar,       \
	  .native = NATIVE_##ar(selfmon_v_##n), .symbol = "selfmon_v_" #n,   \
	  .hw = HW_##ar(selfmon_hw_v_##n) },
const struct sm_reader sm_readers[] = {
	{ .name = "reference",
	  .what = "libselfmon's selfmon_read(): right in every case",
	  .expect = expect_reference,
	  .abi = SM_ABI_VALUES, .native = NATIVE_REF,
	  .symbol = "selfmon_read", .hw = FN(selfmon_hw_read) },
#include "variants/list.h"
};
#undef SELFMON_VARIANT
const unsigned sm_nreaders = sizeof(sm_readers) / sizeof(sm_readers[0]);

/* One row an ABI: its name (--abi, JSON), how its functions are called
 * and what they return (`selfmon list`), and whether it is two calls.
 * test_enums checks every column. */
static const struct sm_abi_desc abi_table[SM_NABI] = {
	[SM_ABI_RAW] = { "raw", "uint64_t f(const void *page)", "the count",
		false },
	[SM_ABI_TIMES] = { "times", "uint64_t f(const void *page, uint64_t "
		"*enabled, uint64_t *running)", "count, enabled, running", false },
	[SM_ABI_SCALED] = { "scaled", "uint64_t f(const void *page)", "the "
		"count scaled by enabled/running", false },
	[SM_ABI_VALUES] = { "values", "int f(const void *page, int fd, "
		"struct selfmon_value *out)", "count, enabled, running in out; 0 from "
		"the page, 1 from read(2), < 0 an error", false },
	[SM_ABI_DELTA] = { "delta", "void start(const void *page, int fd, void "
		"*ctx), then uint64_t read(page, fd, ctx)", "the count's change "
		"since start", true },
	[SM_ABI_RESET] = { "reset", "void reset(const void *page, int fd, void "
		"*ctx), then int read(page, fd, ctx, out)", "count, "
		"enabled, running since reset; the return code as values", true },
};
static const char *const engine_names[SM_NENGINES] = {
	[SM_ENGINE_UNICORN] = "unicorn", [SM_ENGINE_NATIVE] = "native",
};

const struct sm_abi_desc *sm_abi_desc(enum sm_abi abi)
{
	static const struct sm_abi_desc unknown = { "?", "?", "?", false };
	return (unsigned)abi < SM_NABI ? &abi_table[abi] : &unknown;
}

const char *sm_abi_name(enum sm_abi abi)
{
	return sm_abi_desc(abi)->name;
}

bool sm_abi_two_calls(enum sm_abi abi)
{
	return sm_abi_desc(abi)->two_calls;
}

const char *sm_abi_list(char *out, size_t n, const char *sep,
                        const char *last, bool one_call)
{
	int k = 0, nlisted = 0, total = 0;

	for (int a = 0; a < SM_NABI; a++)
		total += !one_call || !abi_table[a].two_calls;
	out[0] = 0;
	for (int a = 0; a < SM_NABI; a++) {
		if (one_call && abi_table[a].two_calls)
			continue;
		const char *before = !nlisted ? "" : nlisted == total - 1 ? last : sep;
		nlisted++;
		int w = snprintf(out + k, n - (size_t)k, "%s%s", before,
		                 abi_table[a].name);
		if (w < 0 || (size_t)w >= n - (size_t)k)
			break;
		k += w;
	}
	return out;
}

const char *sm_engine_name(enum sm_engine_kind e)
{
	return (unsigned)e < SM_NENGINES ? engine_names[e] : "?";
}


const struct sm_reader *sm_reader_find(const char *name)
{
	for (unsigned i = 0; i < sm_nreaders; i++)
		if (!strcmp(sm_readers[i].name, name))
			return &sm_readers[i];
	return NULL;
}

unsigned sm_expect_actions(const char *list)
{
	unsigned set = 0;
	char name[32];

	while (list && *list) {
		size_t n = strcspn(list, ",");
		if (n >= sizeof(name))
			return ~0u;
		memcpy(name, list, n);
		name[n] = '\0';
		int k = sm_action_from_name(name);
		if (k < 0)
			return ~0u;
		set |= 1u << k;
		list += n + (list[n] == ',');
	}
	return set;
}

unsigned sm_expect_kernel(const struct sm_expect *x)
{
	unsigned bits = 0;
	char err[8];

	if (!x->when || strncmp(x->when, "kernel=", 7) ||
	    sm_kernel_parse(x->when + 7, -1, &bits, err, sizeof(err)) < 0)
		return 0;
	return bits;
}

static const char *without_of(const struct sm_expect *x)
{
	return x->when && !strncmp(x->when, "without=", 8) ? x->when + 8 : "";
}

const struct sm_expect *sm_reader_expect(const struct sm_reader *r,
                                         const char *scenario,
                                         enum sm_engine_kind e,
                                         const struct sm_expect_at *at)
{
	static const struct sm_expect pass = { "", 0, SM_V_PASS, 0, "", NULL };
	bool named = false, variant = false;

	/* the rows of a variant in the kernel replace the scenario's own */
	for (const struct sm_expect *x = r->expect; x && x->scenario; x++)
		variant |= (x->engines & (1u << e)) &&
		           !strcmp(x->scenario, scenario) &&
		           (sm_expect_kernel(x) & at->kernel);
	for (const struct sm_expect *x = r->expect; x && x->scenario; x++) {
		unsigned k = sm_expect_kernel(x);
		if (!(x->engines & (1u << e)) || strcmp(x->scenario, scenario) ||
		    (variant ? !(k & at->kernel) : k != 0))
			continue;
		named = true;
		if (at->foreign)
			continue;
		unsigned w = sm_expect_actions(without_of(x)),
		         needs = sm_expect_actions(x->needs);
		if ((w & ~at->left_out) == 0 && (needs & ~at->allowed) == 0)
			return x;
	}
	return named || at->foreign ? NULL : &pass;
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
	case SM_ABI_DELTA: /* two calls: no built-in reader has them */
	case SM_ABI_RESET:
	case SM_NABI:
		break;
	}
	return -1;
}
