/*
 * fuzz_schedule.c — libFuzzer target: schedule lines
 * (ARCH:ENGINE:READER:SCENARIO:ACTIONS).  Every line the parser accepts
 * must format back to a line that parses to the same schedule.
 */
#include "explore.h"
#include "fuzz.h"

static void same(const struct sm_schedule_line *a,
                 const struct sm_schedule_line *b)
{
	if (a->arch != b->arch || a->engine != b->engine ||
	    strcmp(a->reader, b->reader) || strcmp(a->scenario, b->scenario) ||
	    a->sched.n != b->sched.n || a->sched.dropped != b->sched.dropped ||
	    a->sched.nstale != b->sched.nstale)
		abort();
	for (unsigned i = 0; i < a->sched.n; i++)
		if (a->sched.item[i].step != b->sched.item[i].step ||
		    a->sched.item[i].kind != b->sched.item[i].kind)
			abort();
	for (unsigned i = 0; i < a->sched.nstale; i++)
		if (a->sched.stale[i] != b->sched.stale[i])
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sm_schedule_line a, b;
	char err[512], *text = fuzz_text(data, size);

	if (!text)
		return 0;
	if (sm_schedule_parse(text, &a, err, sizeof(err)) == 0) {
		char *line = sm_schedule_text(a.arch, a.engine, a.reader,
		                              a.scenario, &a.sched);
		if (!line)
			abort();
		if (sm_schedule_parse(line, &b, err, sizeof(err)) != 0)
			abort(); /* what was formatted must parse */
		same(&a, &b);
		sm_schedule_line_free(&b);
		sm_schedule_line_free(&a);
		free(line);
	}
	free(text);
	return 0;
}
