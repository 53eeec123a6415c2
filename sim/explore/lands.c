/*
 * lands.c — where a kernel action lands in a read, from the recorded
 * listing (see lands.h).
 *
 * Owns the rule (the accesses around the step) and its wording; it only
 * reads the recorded events.
 */
#include <inttypes.h>
#include <string.h>

#include "lands.h"

static bool is_access(const struct sm_xevent *e)
{
	return e->kind == SM_X_LOAD || e->kind == SM_X_TRAP;
}

/* Do two recorded accesses access the same thing (a page field, or a
 * trapped read of the same kind)? */
static bool same_access(const struct sm_xevent *a, const struct sm_xevent *b)
{
	if (a->kind != b->kind)
		return false;
	return a->kind == SM_X_LOAD ? a->field == b->field
	                            : !strcmp(a->text, b->text);
}

void sm_lands_find(const struct sm_explain *x, uint64_t step,
                   struct sm_lands *l)
{
	l->step = step;
	l->before = l->after = -1;
	l->unlisted = x->quiet && step > x->insn_step;
	for (size_t i = 0; i < x->nev; i++) {
		if (!is_access(&x->ev[i]))
			continue;
		if (x->ev[i].step < step)
			l->after = (long)i;
		else if (l->before < 0)
			l->before = (long)i;
	}
}

/* "first" .. "tenth", then "11th", "21st", ... */
static void ordinal(unsigned k, char *buf, size_t n)
{
	static const char *const words[] = {
		"first", "second", "third", "fourth", "fifth", "sixth",
		"seventh", "eighth", "ninth", "tenth",
	};
	const char *suffix = "th";

	if (k >= 1 && k <= 10) {
		snprintf(buf, n, "%s", words[k - 1]);
		return;
	}
	if (k % 100 < 11 || k % 100 > 13)
		suffix = k % 10 == 1 ? "st" : k % 10 == 2 ? "nd"
		         : k % 10 == 3 ? "rd" : "th";
	snprintf(buf, n, "%u%s", k, suffix);
}

void sm_lands_access(const struct sm_explain *x, long ev, char *buf,
                     size_t n)
{
	const struct sm_xevent *e = &x->ev[ev];
	unsigned nth = 0, all = 0;
	char ord[24] = "";

	for (size_t i = 0; i < x->nev; i++) {
		if (!same_access(&x->ev[i], e))
			continue;
		all++;
		if ((long)i <= ev)
			nth++;
	}
	if (all > 1) {
		ordinal(nth, ord, sizeof(ord) - 1);
		strcat(ord, " ");
	}
	if (e->kind == SM_X_LOAD)
		snprintf(buf, n, "the %sload of page.%s", ord, e->field >= 0
		         ? selfmon_page_fields[e->field].name : "__reserved");
	else
		snprintf(buf, n, "the %s%s", ord, e->text);
}

void sm_lands_text(const struct sm_explain *x, uint64_t step, char *buf,
                   size_t n)
{
	struct sm_lands l;
	char next[120], prev[120];
	int k;

	sm_lands_find(x, step, &l);
	k = snprintf(buf, n, "before step %" PRIu64, step);
	if (k < 0 || (size_t)k >= n)
		return;
	buf += k;
	n -= (size_t)k;
	if (l.unlisted) {
		snprintf(buf, n, ", beyond the %" PRIu64 " steps listed",
		         x->insn_step + 1);
		return;
	}
	if (l.before >= 0)
		sm_lands_access(x, l.before, next, sizeof(next));
	if (l.after >= 0)
		sm_lands_access(x, l.after, prev, sizeof(prev));
	if (l.before < 0 && l.after < 0)
		snprintf(buf, n, ": the read loads nothing from the page and "
		         "reads no counter");
	else if (l.after < 0 && x->ev[l.before].step == step)
		snprintf(buf, n, ", %s: at the start of the read", next);
	else if (l.after < 0)
		snprintf(buf, n, ", ahead of %s (step %" PRIu64 "): at the start "
		         "of the read", next, x->ev[l.before].step);
	else if (l.before < 0)
		snprintf(buf, n, ", after %s (step %" PRIu64 "): at the end of "
		         "the read", prev, x->ev[l.after].step);
	else if (x->ev[l.before].step == step)
		snprintf(buf, n, ", %s, after %s (step %" PRIu64 ")", next, prev,
		         x->ev[l.after].step);
	else
		snprintf(buf, n, ", ahead of %s (step %" PRIu64 "), after %s "
		         "(step %" PRIu64 ")", next, x->ev[l.before].step, prev,
		         x->ev[l.after].step);
}
