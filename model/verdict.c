/*
 * verdict.c — the names of the verdicts (verdict.h).
 *
 * Owns: the one table that spells enum sm_verdict.  Must not touch
 * anything else.
 */
#include <string.h>

#include "verdict.h"

static const char *const verdict_names[SM_NVERDICTS] = {
	[SM_V_PASS] = "PASS", [SM_V_BLOCKED] = "BLOCKED", [SM_V_INCOMPLETE] = "INCOMPLETE",
	[SM_V_WRONG_VALUE] = "WRONG_VALUE", [SM_V_FAULT] = "FAULT",
	[SM_V_LIVELOCK] = "LIVELOCK", [SM_V_ERROR] = "ERROR",
	[SM_V_UNSUPPORTED] = "UNSUPPORTED",
};

const char *sm_verdict_name(enum sm_verdict v)
{
	return (unsigned)v < SM_NVERDICTS ? verdict_names[v] : "?";
}

int sm_verdict_from_name(const char *s)
{
	for (int i = 0; i < SM_NVERDICTS; i++)
		if (!strcmp(s, verdict_names[i]))
			return i;
	return -1;
}
