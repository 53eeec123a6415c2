/*
 * line_actions.h — the set of actions in a schedule line, for the tests
 * that hold a cell's counterexample against the corpus's declared actions
 * (test_check, test_verdicts).  Parsed by the command's own parser.
 */
#ifndef SELFMON_TEST_LINE_ACTIONS_H
#define SELFMON_TEST_LINE_ACTIONS_H

#include "explore.h"

/* 1 << kind of each item of the line; the test fails on a bad line. */
static inline unsigned line_actions(const char *line)
{
	struct sm_schedule_line l;
	char err[256];
	unsigned set = 0;

	if (sm_schedule_parse(line, &l, err, sizeof(err)) < 0)
		fail_msg("%s: %s", line, err);
	for (unsigned i = 0; i < l.sched.n; i++)
		set |= 1u << l.sched.item[i].kind;
	sm_schedule_line_free(&l);
	return set;
}

#endif
