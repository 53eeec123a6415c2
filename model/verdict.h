/*
 * verdict.h — the verdicts selfmon gives a reader, and their names.
 *
 * Owns: enum sm_verdict and its table's row type, the one list of verdict
 * names and descriptions:
 * sim/ prints and parses them, a scenario's `check expect=V` (scenario.c)
 * names one, the corpus table (reader/variants/list.h) declares them.
 * Must not touch: anything else; it is here, in model/, only so that the
 * scenario parser can use it without depending on sim/.
 */
#ifndef SELFMON_VERDICT_H
#define SELFMON_VERDICT_H

#include <stdbool.h>

/* Run verdicts, and one that only a whole exploration (a cell) gets:
 * SM_V_INCOMPLETE, no failure found but some schedule ran out of the step
 * budget while the kernel kept writing (BLOCKED), or the time limit
 * ended the exploration, so not every schedule was judged.  Two are
 * selfmon's, never the reader's: SM_V_ERROR, its own failure (the emulator
 * did not move past an instruction it answered, a re-run disagreed with
 * the first run), exit status 2; SM_V_UNSUPPORTED, an instruction a real CPU
 * runs at user level that the emulator lacks (AVX, say), exit status 4. */
enum sm_verdict { SM_V_PASS, SM_V_BLOCKED, SM_V_INCOMPLETE, SM_V_WRONG_VALUE, SM_V_FAULT,
                  SM_V_LIVELOCK, SM_V_ERROR, SM_V_UNSUPPORTED, SM_NVERDICTS };
/* A verdict's row (verdict.c): its name and what it says. */
struct sm_verdict_desc {
	const char *name, *what;
};
const struct sm_verdict_desc *sm_verdict_desc(enum sm_verdict v);
const char *sm_verdict_name(enum sm_verdict v); /* "?" out of range */
int sm_verdict_from_name(const char *s);        /* -1: no such verdict */
static inline bool sm_verdict_fails(enum sm_verdict v)
{
	return v >= SM_V_WRONG_VALUE && v <= SM_V_LIVELOCK;
}
/* selfmon could not judge: its own error or the emulator's limit. */
static inline bool sm_verdict_selfmon(enum sm_verdict v)
{
	return v == SM_V_ERROR || v == SM_V_UNSUPPORTED;
}
/* A verdict one run can get and a reader can be expected to get: what a
 * scenario's `check expect=V` may name. */
static inline bool sm_verdict_of_run(enum sm_verdict v)
{
	return v != SM_V_INCOMPLETE && !sm_verdict_selfmon(v) && v < SM_NVERDICTS;
}

#endif
