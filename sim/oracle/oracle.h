/*
 * oracle.h — judging the values one call of a reader returned against the
 * window of truth samples taken at every instant of the call.
 *
 * Owns sm_oracle() (oracle.c): a function of the window and the values
 * only, no session, no model; the session fills a window from its run
 * (session.c sm_oracle_judge()).
 */
#ifndef SELFMON_ORACLE_H
#define SELFMON_ORACLE_H

#include "reader.h"
#include "result.h"

struct sm_window {
	const struct sm_truth *s;
	unsigned n;
	uint64_t *scratch;   /* n values the oracle may overwrite (sorting) */
	bool terse;          /* a PASS gets no detail line (the explorer's
	                      * runs: only a failure's detail is kept) */
	/* what the session knows of the call, for the causes (zero: x86-64,
	 * width from the arch, no reset, no overflow) */
	enum sm_arch arch;
	unsigned width;      /* the page's pmc_width (0: the arch's usual) */
	bool reset;          /* a reset before or during the call */
	bool overflow;       /* an overflow during the call (a burst) */
	/* a two-call ABI: s[0..split) are the first call's instants, the
	 * rest the read's (0: one call) */
	unsigned split;
	unsigned read_format; /* the event's sm_event_cfg.read_format (0:
	                       * the default): what its read(2) can give */
};
void sm_oracle(const struct sm_window *w, enum sm_abi abi,
               const uint64_t value[3], int rc, struct sm_result *res);

#endif
