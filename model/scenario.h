/*
 * scenario.h — scenario files (traces/NAME.scn), parsed into model data.
 *
 * Owns: the scenario text format (documented keyword by keyword in
 * traces/README.md).  A scenario is a struct sm_config plus a list of timed
 * kernel actions.  Parsing never touches a model; errors are one line,
 * "FILE:LINE:COL: message".
 */
#ifndef SELFMON_SCENARIO_H
#define SELFMON_SCENARIO_H

#include "model.h"

#define SM_MAX_TIMED 256

struct sm_timed_action {
	uint64_t at;          /* cycles after the start */
	struct sm_action act;
	unsigned line;
};

struct sm_scenario {
	char name[256];       /* file name as given */
	struct sm_config cfg;
	uint64_t end;         /* cycles after the start the run lasts */
	uint64_t check_at;    /* cycles after the start the reader is called */
	unsigned explore;     /* actions the explorer injects: 1 << kind */
	int expect;           /* check expect=V: an enum sm_verdict (verdict.h),
	                       * or -1; the verdict of readers without their own
	                       * declared expectation (a kernel hazard) */
	unsigned nactions;    /* sorted by `at`, stable */
	struct sm_timed_action act[SM_MAX_TIMED];
};

/* 0 on success; -1 with "FILE:LINE:COL: message" in err. */
int sm_scenario_parse(const char *name, const char *text,
                      struct sm_scenario *s, char *err, size_t errlen);
/* Reads the file and parses it; an unreadable file is "FILE: reason". */
/* The explorer's default action set. */
#define SM_EXPLORE_DEFAULT                                                     \
	((1u << SM_ACT_OVERFLOW) | (1u << SM_ACT_RESET) |                      \
	 (1u << SM_ACT_ROTATE_OUT) | (1u << SM_ACT_ROTATE_IN) |                \
	 (1u << SM_ACT_MIGRATE))
/* Does the action exist on the arch (x86 sched_clock has no epoch, x86
 * stores land in program order: no clock_epoch, no lock_early)? */
bool sm_action_applies(enum sm_action_kind kind, enum sm_arch arch);

/* Does the scenario apply action `kind`: a line `at N kind` or its
 * explore set? */
bool sm_scenario_uses(const struct sm_scenario *s, enum sm_action_kind kind);

int sm_scenario_load(const char *path, struct sm_scenario *s, char *err,
                     size_t errlen);

#endif
