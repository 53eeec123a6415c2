/*
 * cell_report.c — what is derived from a cell report's fields alone
 * (cell_report.h), through table.c's rules.
 */
#include "cell_report.h"

struct sm_cell_facts sm_cell_report_facts(const struct sm_cell_report *c)
{
	return (struct sm_cell_facts){
		.error = c->error, .unjudged = c->unjudged,
		.verdict = (int)c->verdict, .expected = c->expected,
	};
}

enum sm_outcome sm_cell_report_outcome(const struct sm_cell_report *c)
{
	struct sm_cell_facts f = sm_cell_report_facts(c);
	return sm_cell_outcome(&f);
}

bool sm_cell_report_as_expected(const struct sm_cell_report *c)
{
	struct sm_cell_facts f = sm_cell_report_facts(c);
	return sm_cell_as_expected(&f);
}

bool sm_cell_report_exhaustive(const struct sm_cell_report *c,
                               uint64_t random)
{
	return !c->error && !random && c->verdict != SM_V_INCOMPLETE;
}

enum sm_case_kind sm_cell_report_kind(const struct sm_cell_report *c)
{
	struct sm_cell_facts f = sm_cell_report_facts(c);

	return c->error ? SM_CASE_ERROR : sm_cell_incomplete(&f) ? SM_CASE_SKIPPED
	       : sm_cell_as_expected(&f) ? SM_CASE_PASS : SM_CASE_FAILURE;
}

const char *sm_cell_report_verdict(const struct sm_cell_report *c)
{
	return c->error ? "ERROR" : sm_verdict_name(c->verdict);
}

const char *sm_cell_report_expected(const struct sm_cell_report *c)
{
	return c->unjudged || c->expected < 0
	       ? "-" : sm_verdict_name((enum sm_verdict)c->expected);
}

struct sm_tally sm_sweep_tally(const struct sm_sweep_report *s)
{
	struct sm_tally t = { 0 };

	for (size_t i = 0; i < s->n; i++) {
		unsigned *to[SM_NOUTCOMES] = {
			[SM_OC_AS_EXPECTED] = &t.as_expected,
			[SM_OC_UNEXPECTED] = &t.unexpected,
			[SM_OC_INCOMPLETE] = &t.incomplete,
			[SM_OC_UNSUPPORTED] = &t.unsupported,
			[SM_OC_UNJUDGED] = &t.unjudged, [SM_OC_ERROR] = &t.errors,
		};
		(*to[sm_cell_report_outcome(&s->cells[i])])++;
		t.runs += s->cells[i].schedules;
	}
	return t;
}
