/*
 * result.c — setting a result: its verdict with the engines' own sentence
 * (sm_result_set()), a FAULT's kind and addresses (sm_result_fault()),
 * and the names of the fault kinds.
 *
 * Owns only those; the oracle's fields and their sentence are oracle.c's.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "result.h"

void sm_result_set(struct sm_result *r, enum sm_verdict v, const char *fmt,
                   ...)
{
	va_list ap;

	if (sm_verdict_selfmon(r->verdict))
		return; /* selfmon's own outcome stands for the whole run */
	r->verdict = v;
	va_start(ap, fmt);
	vsnprintf(r->detail, sizeof(r->detail), fmt, ap);
	va_end(ap);
}

void sm_result_fault(struct sm_result *r, enum sm_fault_kind k, bool has_pc,
                     uint64_t pc, bool has_addr, uint64_t addr)
{
	if (sm_verdict_selfmon(r->verdict))
		return;
	r->fault = k;
	r->has_pc = has_pc;
	r->fault_pc = has_pc ? pc : 0;
	r->has_addr = has_addr;
	r->fault_addr = has_addr ? addr : 0;
}

const char *sm_fault_kind_name(enum sm_fault_kind k)
{
	static const char *const n[SM_NFK] = {
		"none", "memory", "instruction", "counter", "exception", "call",
	};
	return (unsigned)k < SM_NFK ? n[k] : "?";
}

const char *sm_fault_kind_text(enum sm_fault_kind k)
{
	static const char *const n[SM_NFK] = {
		"a fault", "a load, store or fetch faulted",
		"an instruction user level may not run",
		"a counter read the CPU refused",
		"a CPU exception or signal", "a bad call, return or library argument",
	};
	return (unsigned)k < SM_NFK ? n[k] : "a fault";
}
