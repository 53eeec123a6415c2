/*
 * result.h — the verdict of one call of a reader, as data: what is wrong
 * (the oracle's WRONG_VALUE fields) or where it faulted (the engines'
 * FAULT), and the sentence rendered from it.
 *
 * Owns the type, its names and sm_result_render() (oracle.c) and
 * sm_result_set()/sm_result_fault() (result.c).  It must not know
 * sessions or engines: they fill a result, every output reads its
 * fields.
 */
#ifndef SELFMON_RESULT_H
#define SELFMON_RESULT_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"
#include "verdict.h"

/* A result as data: what is wrong, filled by the oracle (WRONG_VALUE) or
 * the engines (FAULT); the sentence in detail is rendered from it
 * (sm_result_render()), and every output reads these fields, never the
 * sentence. */
enum sm_wrong_field {
	SM_WF_COUNT, SM_WF_ENABLED, SM_WF_RUNNING,
	SM_WF_SCALED,   /* the scaled ABI's count */
	SM_WF_RELATION, /* running > enabled: value running, truth_lo enabled */
	SM_WF_RC,       /* the values ABI's error return: value (int64_t) rc */
	SM_NWF
};
const char *sm_wrong_field_name(enum sm_wrong_field f);
/* What an exact power-of-two offset from the truth points at, by the
 * offset, its sign, the field, the counter's width and the schedule. */
enum sm_cause {
	SM_CAUSE_NONE,        /* no exact power-of-two offset */
	SM_CAUSE_NO_SEXT,     /* 2^width above: the counter not sign-extended */
	SM_CAUSE_RESET_QUIRK, /* 2^width below after a reset (IOC_RESET) */
	SM_CAUSE_MASKED,      /* 2^width below, the truth past 2^width: the
	                       * whole count masked to the counter's width */
	SM_CAUSE_SEXT_BELOW,  /* 2^width below, neither of those */
	SM_CAUSE_HALF,        /* 2^(width-1): the wrong sign bit or mask */
	SM_CAUSE_TIME_WRAP,   /* a time off by 2^k: time_cycles/time_mask */
	SM_CAUSE_OTHER_WIDTH, /* 2^k, not this counter's width */
	SM_NCAUSES
};
/* A cause's row (oracle.c): its name, JSON's spelling, and what it means. */
struct sm_cause_desc {
	const char *name, *what;
};
const struct sm_cause_desc *sm_cause_desc(enum sm_cause c); /* "?" row */
const char *sm_cause_name(enum sm_cause c); /* JSON's spelling */
struct sm_wrong {
	enum sm_wrong_field field;
	uint64_t value;              /* what the reader returned */
	uint64_t truth_lo, truth_hi; /* the truth's range over the call */
	unsigned offset_bits;        /* value = a truth +- 2^bits; 0: none */
	bool above;                  /* ... with +, else - */
	enum sm_cause cause;
	bool burst;    /* an overflow's burst of events during the call: the
	                * truth jumped over the values between lo and hi */
};
enum sm_fault_kind {
	SM_FK_NONE,
	SM_FK_MEMORY,      /* a load, store or fetch: addr is the address */
	SM_FK_INSTRUCTION, /* an instruction user level may not run */
	SM_FK_COUNTER,     /* a counter read the CPU refused (#GP, UNDEFINED) */
	SM_FK_EXCEPTION,   /* another CPU exception or signal */
	SM_FK_CALL,        /* a bad call, return or library argument */
	SM_NFK
};
const char *sm_fault_kind_name(enum sm_fault_kind k);
/* The kind in words, for pictures: "a counter read the CPU refused". */
const char *sm_fault_kind_text(enum sm_fault_kind k);

struct sm_result {
	enum sm_verdict verdict;
	char detail[1024];
	uint64_t value[3];     /* what the reader returned (count, en, run) */
	int rc;                /* values ABI: return code */
	uint64_t steps;        /* instructions (native: routed calls) */
	/* WRONG_VALUE: every wrong field, in the order count, enabled,
	 * running (or the one relation, scaled count or error return) */
	unsigned nwrong;
	struct sm_wrong wrong[3];
	unsigned width;        /* the counter's width the causes refer to */
	enum sm_arch arch;
	bool rounded;          /* PASS: a time matched the page's rounding */
	bool two_calls;        /* judged as the truth's change between a
	                        * two-call ABI's calls (the ranges are the
	                        * change's bounds) */
	/* FAULT: its kind, the instruction's address and the accessed one
	 * (has_addr: a memory fault's) */
	enum sm_fault_kind fault;
	uint64_t fault_pc, fault_addr;
	bool has_pc, has_addr;
	/* room for whether the counter path was taken (issue #26 item 5) */
	/* the missing isb: the reader's last counter read was an mrs of
	 * PMXEVCNTR_EL0 (at mrs_pc) that used the selection from before the
	 * msr of PMSELR_EL0 at msr_pc, which selected counter `selected`,
	 * and so read counter `read` (the CPU's stale choice, uc_arm64.c);
	 * a WRONG_VALUE's or FAULT's sentence then ends with it */
	struct sm_missing_isb {
		bool taken;
		uint64_t msr_pc, mrs_pc;
		unsigned selected, read;
	} isb;
};
/* Is the missing isb part of the result: its sentence, its JSON? */
static inline bool sm_result_isb(const struct sm_result *r)
{
	return r->isb.taken && (r->verdict == SM_V_WRONG_VALUE ||
	                        r->verdict == SM_V_FAULT);
}
/* detail from the fields (a WRONG_VALUE's, a PASS's); other verdicts'
 * sentences are the engines' own and are left alone, but for the missing
 * isb (sm_result_isb()), which a FAULT's sentence ends with too: render
 * once the verdict is set. */
void sm_result_render(struct sm_result *r);
/* Mark a FAULT's kind and addresses (before or after sm_result_set). */
void sm_result_fault(struct sm_result *r, enum sm_fault_kind k, bool has_pc,
                     uint64_t pc, bool has_addr, uint64_t addr);
void sm_result_set(struct sm_result *r, enum sm_verdict v, const char *fmt,
                   ...) __attribute__((format(printf, 3, 4)));

#endif
