/*
 * cell_report.c — what is derived from a cell report's fields alone
 * (cell_report.h).
 */
#include <string.h>

#include "cell_report.h"

const char *const sm_outcome_name[SM_NOUTCOMES] = {
	"as_expected", "unexpected", "incomplete", "unsupported", "unjudged",
	"error",
};

int sm_outcome_from_name(const char *s)
{
	for (int i = 0; i < SM_NOUTCOMES; i++)
		if (!strcmp(s, sm_outcome_name[i]))
			return i;
	return -1;
}

/* The verdict expected, whether or not the cell is held to it. */
static bool met(const struct sm_cell_report *c)
{
	return c->unjudged || (int)c->verdict == c->expected;
}

bool sm_cell_report_as_expected(const struct sm_cell_report *c)
{
	return !c->error && met(c);
}

bool sm_cell_report_incomplete(const struct sm_cell_report *c)
{
	return (c->verdict == SM_V_INCOMPLETE && c->expected == SM_V_PASS) ||
	       c->verdict == SM_V_UNSUPPORTED;
}

enum sm_outcome sm_cell_report_outcome(const struct sm_cell_report *c)
{
	if (c->error)
		return SM_OC_ERROR;
	if (c->verdict == SM_V_UNSUPPORTED)
		return SM_OC_UNSUPPORTED;
	if (sm_cell_report_incomplete(c))
		return SM_OC_INCOMPLETE;
	if (!met(c))
		return SM_OC_UNEXPECTED;
	return c->unjudged ? SM_OC_UNJUDGED : SM_OC_AS_EXPECTED;
}

bool sm_cell_report_exhaustive(const struct sm_cell_report *c,
                               uint64_t random)
{
	return !c->error && !random && c->verdict != SM_V_INCOMPLETE;
}

enum sm_case_kind sm_cell_report_kind(const struct sm_cell_report *c)
{
	return c->error ? SM_CASE_ERROR
	       : sm_cell_report_incomplete(c) ? SM_CASE_SKIPPED
	       : met(c) ? SM_CASE_PASS : SM_CASE_FAILURE;
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

const char *sm_cell_report_name(const struct sm_cell_report *c)
{
	const char *slash = strrchr(c->reader, '/');

	return c->name ? c->name : slash ? slash + 1 : c->reader;
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
