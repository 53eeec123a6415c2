/*
 * suggest.c — the nearest known name to a mistyped one (see suggest.h).
 */
#include <ctype.h>
#include <string.h>

#include "suggest.h"

#define MAX_WORD 64 /* longer names are not compared */

/* The optimal string alignment distance between a and b (insertions,
 * deletions, substitutions and swaps of neighbours), case-blind. */
static unsigned distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);
	unsigned d[MAX_WORD + 1][MAX_WORD + 1];

	for (size_t i = 0; i <= n; i++)
		d[i][0] = (unsigned)i;
	for (size_t j = 0; j <= m; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= n; i++)
		for (size_t j = 1; j <= m; j++) {
			unsigned cost = tolower((unsigned char)a[i - 1]) !=
			                tolower((unsigned char)b[j - 1]);
			unsigned v = d[i - 1][j - 1] + cost;
			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[n][m];
}

/* How many edits a word of len letters may be off by. */
static unsigned allowed(size_t len)
{
	return len <= 4 ? 1 : len <= 8 ? 2 : 3;
}

void sm_suggest_init(struct sm_suggest *s, const char *typed)
{
	s->typed = typed;
	s->best = NULL;
	s->dist = 0;
}

void sm_suggest_offer(struct sm_suggest *s, const char *candidate)
{
	size_t n = strlen(s->typed), m = strlen(candidate);

	if (!n || n > MAX_WORD || m > MAX_WORD)
		return;
	unsigned d = distance(s->typed, candidate);
	if (!strcmp(s->typed, candidate) || d > allowed(n < m ? n : m))
		return;
	if (!s->best || d < s->dist) {
		s->best = candidate;
		s->dist = d;
	}
}

const char *sm_suggest(const char *typed, const char *const *names, size_t n)
{
	struct sm_suggest s;

	sm_suggest_init(&s, typed);
	for (size_t i = 0; i < n; i++)
		sm_suggest_offer(&s, names[i]);
	return s.best;
}
