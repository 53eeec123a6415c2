/*
 * reader.h — the readers selfmon runs: the table of built-in readers and
 * a user's from ELF (struct sm_reader), their declared expectations, the
 * engines those name, and the built-in readers' machine code per arch.
 *
 * Owns the types and the lookups (readers.c, blob.c).  It must not know
 * sessions, engines' state or schedules: the readers are data that the
 * engines, the explorer and the commands read.
 */
#ifndef SELFMON_READER_H
#define SELFMON_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "verdict.h"

struct sm_image;

enum sm_abi { SM_ABI_RAW, SM_ABI_TIMES, SM_ABI_SCALED, SM_ABI_VALUES,
              SM_ABI_DELTA, SM_ABI_RESET, SM_NABI };
/* An ABI's row (readers.c): its name, its functions' C signature, what
 * they return, and whether it is two calls. */
struct sm_abi_desc {
	const char *name, *call, *returns;
	bool two_calls;
};
const struct sm_abi_desc *sm_abi_desc(enum sm_abi abi); /* "?" row */
const char *sm_abi_name(enum sm_abi abi);
/* The two-call ABIs (reader/prims.h): a first function (start, reset) at
 * one instant and the read at a later one, sharing SM_CTX_SIZE bytes of
 * the reader's own memory; the oracle judges the read by the truth's
 * difference between the two calls. */
bool sm_abi_two_calls(enum sm_abi abi);
/* The ABIs' names in table order into out (n bytes), between two names
 * sep, before the last one last ("raw, times, ... or reset", or with sep
 * and last "|", "raw|times|...|reset"); one_call: only the one-call ABIs.
 * Returns out. */
const char *sm_abi_list(char *out, size_t n, const char *sep,
                        const char *last, bool one_call);
#define SM_CTX_SIZE 256

/* A verdict a built-in reader is declared to get in one bundled scenario
 * (reader/variants/list.h); where none is declared it expects PASS.  A
 * failure comes with its least bound, the fewest injected actions that
 * show it (below it the cell PASSes: explore.c least_bound()), and the
 * actions of its counterexample: an action filter that keeps them (and
 * only leaves out the scenario's own) gives the same failure, since it
 * leaves the same first failing schedule of that bound.  `when` says
 * where the row holds instead of the scenario as bundled: "kernel=V"
 * under kernel variant V (the rows for V replace the others for that
 * scenario), "without=A[,B]" with those actions left out. */
struct sm_expect {
	const char *scenario; /* traces/scenario.scn; NULL ends a list */
	unsigned engines;     /* 1 << enum sm_engine_kind it applies on */
	enum sm_verdict verdict;
	unsigned least_bound; /* a failure's; 0 for PASS */
	const char *needs;    /* "overflow,reset"; "" none */
	const char *when;     /* NULL: as bundled */
};
/* Where an expectation is looked up: the exploration's bound, kernel and
 * action set. */
struct sm_expect_at {
	unsigned bound;
	unsigned kernel;      /* 1 << enum sm_kernel_variant */
	unsigned allowed;     /* the actions explored (1 << kind) */
	unsigned left_out;    /* the scenario's own actions left out */
	bool foreign;         /* actions added beyond the scenario's own, or
	                       * its scripted lines dropped: the scenario is
	                       * not the one the rows were found on */
};

struct sm_reader {
	const char *name;
	const char *what;     /* one line: the algorithm or the fault */
	const char *fault;    /* one line each, explain-bug; NULL: no bug */
	const char *fix;
	const char *shows;    /* the actions the fault names ("reset"); ""
	                       * or NULL: none (list.h) */
	const struct sm_expect *expect; /* NULL-terminated; NULL: none */
	enum sm_abi abi;
	void (*native)(void); /* the routed build, cast by ABI; NULL: none */
	const char *symbol;   /* entry in the built reader code */
	unsigned arches;      /* 1 << enum sm_arch it is built for; 0: all */
	void (*hw)(void);     /* built with the real instructions (selfmon hw) */
	const struct sm_image *image; /* a user's reader loaded from ELF */
	const char *sched_name;       /* its name in schedule lines */
};
static inline bool sm_reader_on(const struct sm_reader *r, enum sm_arch a)
{
	return r->arches == 0 || (r->arches & (1u << a));
}
extern const struct sm_reader sm_readers[];
extern const unsigned sm_nreaders;
const struct sm_reader *sm_reader_find(const char *name);
/* Call a reader built into this binary (its native or hw entry) by its
 * ABI on page, with fd for read(2): count, enabled, running into v (0 what
 * the ABI does not return); the values ABI's return code, else 0. */
int sm_reader_call(void (*fn)(void), enum sm_abi abi, const void *page,
                   int fd, uint64_t v[3]);

/* The native engine's primitives, which the routed build of the built-in
 * readers calls (routed.c): caller is the reader's return address.  Bound
 * by the engine before it calls a reader; the same for every thread. */
struct sm_routed {
	uint64_t (*rdpmc)(uint32_t counter, const void *caller);
	uint64_t (*rdtsc)(const void *caller);
	long (*read)(int fd, void *buf, size_t n, const void *caller);
};
void sm_routed_bind(const struct sm_routed *r);

/* The machine code of the built-in readers for one arch. */
struct sm_blob {
	enum sm_arch arch;
	const uint8_t *code;
	uint64_t size;
	const char *const *names; /* symbols and their offsets */
	const uint64_t *offsets;
	unsigned nsyms;
	const uint8_t *elf;       /* the image's ELF file, with its DWARF */
	uint64_t elf_size;
};
const struct sm_blob *sm_blob_for(enum sm_arch arch); /* NULL: not built */
/* Where reader code sits in the emulator: the built-in image or a user's
 * object at SM_CODE_BASE, the stubs of a user's imports (elf_load.h) at
 * SM_STUB_BASE. */
#define SM_CODE_BASE 0x10000000ull
#define SM_STUB_BASE 0x60000000ull

/* The engines, as an expectation names them (the engines themselves are
 * sim/engine/). */
enum sm_engine_kind { SM_ENGINE_UNICORN, SM_ENGINE_NATIVE, SM_NENGINES };
const char *sm_engine_name(enum sm_engine_kind e);
/* The row of r's declared expectations that holds for the bundled
 * scenario on engine e under `at`, or NULL where none does: then r is not
 * held to any verdict there.  No row for the scenario: PASS.  Under a
 * foreign action set nothing is known (even the reference reader meets
 * a kernel hazard there: a rotation added to riscv64 faults it). */
const struct sm_expect *sm_reader_expect(const struct sm_reader *r,
                                         const char *scenario,
                                         enum sm_engine_kind e,
                                         const struct sm_expect_at *at);
/* The verdict a row gives at this bound: PASS below its least bound. */
static inline enum sm_verdict sm_expect_verdict(const struct sm_expect *x,
                                                unsigned bound)
{
	return bound < x->least_bound ? SM_V_PASS : x->verdict;
}
/* A row's needs, or the action set of its `when` ("without=..."), as
 * 1 << kind; -1 (all bits) for a name that is no action. */
unsigned sm_expect_actions(const char *list);
/* The kernel variant of a "kernel=V" row (1 << SM_KV_*), else 0. */
unsigned sm_expect_kernel(const struct sm_expect *x);

#endif
