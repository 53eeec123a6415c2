/*
 * verdict.c — the verdicts' table (verdict.h).
 *
 * Owns: the one table that spells and describes enum sm_verdict, and the
 * lookups by value and by name.  Must not touch anything else.
 */
#include <string.h>

#include "verdict.h"

/* One row a verdict: its name (tables, JSON, a scenario's `check expect=`)
 * and what it says (`selfmon list`).  test_enums checks every column. */
static const struct sm_verdict_desc verdict_table[SM_NVERDICTS] = {
	[SM_V_PASS] = { "PASS", "no schedule within the bound breaks the reader" },
	[SM_V_BLOCKED] = { "BLOCKED", "still retrying at the step budget "
		"while the kernel kept writing the page (one run)" },
	[SM_V_INCOMPLETE] = { "INCOMPLETE", "no failure found, but some "
		"schedule BLOCKED or the time limit ended the exploration, so not "
		"every schedule was judged (a cell only)" },
	[SM_V_WRONG_VALUE] = { "WRONG_VALUE", "the reader returned a value "
		"outside the truth's range over the call" },
	[SM_V_FAULT] = { "FAULT", "the reader touched memory or ran an "
		"instruction user level may not" },
	[SM_V_LIVELOCK] = { "LIVELOCK", "no result within the step budget "
		"though the page had stopped changing" },
	[SM_V_ERROR] = { "ERROR", "selfmon's own failure, not the reader's "
		"(exit status 2)" },
	[SM_V_UNSUPPORTED] = { "UNSUPPORTED", "an instruction a real CPU runs "
		"at user level that the emulator lacks (exit status 4)" },
};

const struct sm_verdict_desc *sm_verdict_desc(enum sm_verdict v)
{
	static const struct sm_verdict_desc unknown = { "?", "?" };
	return (unsigned)v < SM_NVERDICTS ? &verdict_table[v] : &unknown;
}

const char *sm_verdict_name(enum sm_verdict v)
{
	return sm_verdict_desc(v)->name;
}

int sm_verdict_from_name(const char *s)
{
	for (int i = 0; i < SM_NVERDICTS; i++)
		if (!strcmp(s, verdict_table[i].name))
			return i;
	return -1;
}
