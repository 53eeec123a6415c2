/*
 * names.c — the hints of a mistyped reader (see names.h).
 */
#include <stdio.h>

#include "names.h"
#include "reader.h"
#include "suggest.h"

const char *sm_hint(char *buf, size_t n, const char *best)
{
	if (!best || snprintf(buf, n, ": did you mean '%s'?", best) >= (int)n)
		return "";
	return buf;
}

const char *sm_reader_hint(const char *typed)
{
	static char buf[128];
	struct sm_suggest s;

	sm_suggest_init(&s, typed);
	for (unsigned i = 0; i < sm_nreaders; i++)
		sm_suggest_offer(&s, sm_readers[i].name);
	return sm_hint(buf, sizeof(buf), s.best);
}
