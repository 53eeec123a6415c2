/*
 * lookalike.c — a user's failure against the corpus faults (lookalike.h).
 */
#include <stdio.h>
#include <string.h>

#include "lookalike.h"

/* The minimised schedules' actions, in order (steps aside). */
static bool same_actions(const struct sm_schedule *a,
                         const struct sm_schedule *b)
{
	if (a->n != b->n)
		return false;
	for (unsigned i = 0; i < a->n; i++)
		if (a->item[i].kind != b->item[i].kind)
			return false;
	return true;
}

/* A wrong value the user's ABI returns (a count-only ABI has no times
 * to compare: the corpus reader's wrong times are no part of it). */
static bool returned(const struct sm_wrong *w, bool count_only)
{
	return !count_only || w->field == SM_WF_COUNT || w->field == SM_WF_SCALED;
}

static bool same_wrong(const struct sm_wrong *u, const struct sm_wrong *v)
{
	return u->field == v->field && u->cause == v->cause &&
	       u->offset_bits == v->offset_bits &&
	       (!u->offset_bits || u->above == v->above);
}

/* The user's cell a (its ABI count-only or not) against the corpus
 * reader's b: every wrong value alike, in order. */
static bool same_signature(const struct sm_cell *a, const struct sm_cell *b,
                           bool count_only)
{
	const struct sm_result *x = &a->res, *y = &b->res;
	unsigned i = 0, k = 0;

	if (a->verdict != b->verdict || !same_actions(&a->min, &b->min))
		return false;
	if (a->verdict == SM_V_FAULT)
		return x->fault == y->fault;
	for (;;) {
		while (i < x->nwrong && !returned(&x->wrong[i], count_only))
			i++;
		while (k < y->nwrong && !returned(&y->wrong[k], count_only))
			k++;
		if (i == x->nwrong || k == y->nwrong)
			return i == x->nwrong && k == y->nwrong;
		if (!same_wrong(&x->wrong[i++], &y->wrong[k++]))
			return false;
	}
}

/* Is r declared to fail in scn_name as cell does (verdict, least bound,
 * actions)? */
static bool declared_alike(const struct sm_reader *r, const char *scn_name,
                           const struct sm_cell *cell,
                           const struct sm_expect_at *at)
{
	const struct sm_expect *x =
		sm_reader_expect(r, scn_name, SM_ENGINE_UNICORN, at);
	unsigned kinds = 0;

	for (unsigned i = 0; i < cell->min.n; i++)
		kinds |= 1u << cell->min.item[i].kind;
	return x && sm_expect_verdict(x, at->bound) == cell->verdict &&
	       x->least_bound == cell->min.n &&
	       sm_expect_actions(x->needs) == kinds;
}

/* Which of two alike corpus readers comes first: one of the user's ABI,
 * then the later in the table (reader/variants/list.h puts the
 * re-implementations of published readers first and the single-fault
 * mutants after them: the later, the more specific the fault). */
static unsigned rank(const struct sm_reader *r, enum sm_abi abi)
{
	return (r->abi == abi ? 0 : 1u << 16) + (sm_nreaders - (unsigned)(r - sm_readers));
}

unsigned sm_lookalike(const struct sm_scenario *scn, const char *scn_name,
                      enum sm_abi abi, const struct sm_cell *cell,
                      const struct sm_expect_at *at,
                      const struct sm_reader **out, unsigned max)
{
	bool count_only = abi == SM_ABI_RAW || abi == SM_ABI_SCALED ||
	                  abi == SM_ABI_DELTA;
	struct sm_explore_opts o = { .bound = at->bound };
	char err[256];
	unsigned n = 0;

	if (!sm_verdict_fails(cell->verdict) || cell->verdict == SM_V_ERROR ||
	    !scn_name)
		return 0;
	for (unsigned i = 0; i < sm_nreaders && max; i++) {
		const struct sm_reader *r = &sm_readers[i];
		if (!r->fault || !sm_reader_on(r, scn->cfg.arch) ||
		    !sm_blob_for(scn->cfg.arch) ||
		    !declared_alike(r, scn_name, cell, at))
			continue;
		struct sm_session *s = sm_session_new();
		struct sm_cell c;
		bool alike = s && sm_session_init(s, scn, r, SM_ENGINE_UNICORN,
		                                  err, sizeof(err)) == 0;
		if (alike) {
			sm_explore(s, &o, &c);
			alike = same_signature(cell, &c, count_only);
		}
		sm_session_free(s);
		if (!alike)
			continue;
		/* in rank order, the first max of them kept */
		unsigned k = n < max ? n++ : max;
		for (; k > 0 && rank(out[k - 1], abi) > rank(r, abi); k--)
			if (k < max)
				out[k] = out[k - 1];
		if (k < max)
			out[k] = r;
	}
	return n;
}

void sm_lookalike_print(const struct sm_reader *const *r, unsigned n,
                        const char *indent)
{
	if (!n)
		return;
	printf("%sthis looks like `%s` (a corpus fault failing the same way "
	       "here: verdict, field, cause and offset, minimal actions): %s\n"
	       "%sits fix: %s\n", indent, r[0]->name, r[0]->fault, indent,
	       r[0]->fix);
	for (unsigned i = 1; i < n; i++)
		printf("%s%s`%s`%s", i == 1 ? indent : "", i == 1 ? "and also "
		       "like " : ", ", r[i]->name, i + 1 == n ? "\n" : "");
}
