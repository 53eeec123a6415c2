/*
 * hw_check.h — a built-in reader, built with the real instructions,
 * checked against one real event: `selfmon hw`'s window check.
 */
#ifndef SELFMON_HW_CHECK_H
#define SELFMON_HW_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "hw_event.h"
#include "reader.h"

/* A read takes microseconds.  Each reader gets, on each event, at most
 * HW_CALL_CPU_MS of CPU time for one call and hw_budget_ms(iterations)
 * for all of its work there (the checked reads with their read(2) calls,
 * and the timed ones), both times `slow` on a machine that many times
 * slower than hardware (1 here; an emulated guest of `selfmon vm` more).
 * A reader over either is stopped and reported as hanging, so the
 * command's CPU time is bounded by readers x events x budget (README). */
#define HW_CALL_CPU_MS 10
uint64_t hw_budget_ms(unsigned iterations, unsigned slow);

struct hw_tally {
	unsigned runs, fails;
	bool died;             /* a fault, or stopped as hanging */
	bool hung;
	uint64_t cpu_ns;       /* CPU time of the check and the timing */
	char first[256];       /* the first failure, "" if none */
	double read_ns;        /* median cost of a read (0: not timed) */
	double syscall_ns;     /* median cost of read(2) */
};

/* `iterations` plain reads, then one after IOC_RESET, disable/enable and
 * a migration (to at most 2 of `ncpus`), each between two read(2) calls;
 * then the cost of a read and of read(2). */
void hw_check_reader(const struct sm_reader *r, struct hw_event *e,
                     unsigned iterations, unsigned slow, int ncpus,
                     struct hw_tally *t);

#endif
