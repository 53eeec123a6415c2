/*
 * action_filter.h — which kernel actions the user's environment can
 * produce: --actions LIST (replaces a scenario's explore= set), --without
 * LIST (removes from it) and --drop-scripted (also skips the scenario's
 * scripted `at` lines of the actions left out), shared by check, explore,
 * explain-bug and plot.
 */
#ifndef SELFMON_ACTION_FILTER_H
#define SELFMON_ACTION_FILTER_H

#include <stdbool.h>
#include <stddef.h>

#include "options.h"
#include "scenario.h"

/* The CPU's choice of an arm64 counter read that may still see the
 * previous PMSELR_EL0 selection (explore.c: no ISB between the select
 * and the read) is not a kernel action, but it is filtered as one: this
 * bit beside the actions' (1 << kind), its name in the lists. */
#define SM_AF_STALE (1u << SM_NACTIONS)
#define SM_AF_STALE_NAME "stale_select"
#define SM_AF_STALE_WHAT                                                     \
	"the CPU reads an arm64 event counter before the ISB that orders its " \
	"PMSELR_EL0 select: the previous selection's counter"

struct sm_action_filter {
	unsigned only;      /* --actions: 1 << kind; 0 not given */
	unsigned without;   /* --without */
	bool drop_scripted; /* --drop-scripted */
};

#define SM_ACTION_FILTER_USAGE                                                 \
	"  --actions LIST  the kernel actions to inject (comma-separated, e.g.\n"  \
	"                  overflow,rotate_out,rotate_in), instead of each\n"      \
	"                  scenario's explore= set\n"                              \
	"  --without LIST  never inject these (e.g. reset, for a library that\n"   \
	"                  never issues PERF_EVENT_IOC_RESET; stale_select: no\n"  \
	"                  arm64 read before its ISB)\n"                           \
	"  --drop-scripted also skip the scenarios' scripted 'at' lines of the\n"  \
	"                  actions left out (the table says how many)\n"

/* The three options, for a command's sm_optdef table (options.h). */
enum { SM_AF_ACTIONS = 0x180, SM_AF_WITHOUT, SM_AF_DROP };
#define SM_ACTION_FILTER_OPTIONS                                           \
	{ "actions", required_argument, SM_AF_ACTIONS, "a list of actions" },  \
	{ "without", required_argument, SM_AF_WITHOUT, "a list of actions" },  \
	{ "drop-scripted", no_argument, SM_AF_DROP, NULL }

/* Takes option opt (an SM_AF_* value) with its value: 1 taken, 0 not one
 * of ours, -1 bad (one line in err). */
int sm_action_filter_opt(struct sm_action_filter *f, int opt,
                         const char *val, char *err, size_t n);
bool sm_action_filter_given(const struct sm_action_filter *f);
/* Are the CPU's stale reads (SM_AF_STALE) left out? */
bool sm_action_filter_no_stale(const struct sm_action_filter *f);
/* Is this action left out? */
bool sm_action_filter_excludes(const struct sm_action_filter *f,
                               enum sm_action_kind kind);
/* Apply to a loaded scenario: its explore set, and with --drop-scripted
 * its scripted lines.  Returns the number of scripted lines dropped, and
 * in *kinds (may be NULL) the set of their actions. */
unsigned sm_action_filter_apply(const struct sm_action_filter *f,
                                struct sm_scenario *s, unsigned *kinds);
/* "overflow,rotate_out" of a set, into buf. */
const char *sm_action_set_text(unsigned set, char *buf, size_t n);

#endif
