/*
 * verdict.c — the names of the verdicts (verdict.h).
 *
 * Owns: the one table that spells enum sm_verdict.  Must not touch
 * anything else.
 */
#include <string.h>

#include "verdict.h"

static const char *const verdict_names[NVERDICTS] = {
	[V_PASS] = "PASS", [V_BLOCKED] = "BLOCKED", [V_INCOMPLETE] = "INCOMPLETE",
	[V_WRONG_VALUE] = "WRONG_VALUE", [V_FAULT] = "FAULT",
	[V_LIVELOCK] = "LIVELOCK", [V_ERROR] = "ERROR",
	[V_UNSUPPORTED] = "UNSUPPORTED",
};

const char *sm_verdict_name(enum sm_verdict v)
{
	return (unsigned)v < NVERDICTS ? verdict_names[v] : "?";
}

int sm_verdict_from_name(const char *s)
{
	for (int i = 0; i < NVERDICTS; i++)
		if (!strcmp(s, verdict_names[i]))
			return i;
	return -1;
}
