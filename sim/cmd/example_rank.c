/*
 * example_rank.c — the ranking of explain-bug's failing examples and the
 * line that says why one was chosen (see example_rank.h).
 *
 * Owns the criteria table and their wording; it must not search or run:
 * the examples come explored.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "example_rank.h"
#include "json.h"
#include "schedule_line.h"

/* The actions of r's fault (1 << kind; 0: it names none). */
static unsigned named(const struct sm_reader *r)
{
	unsigned m = r->shows && *r->shows ? sm_expect_actions(r->shows) : 0;
	return m == ~0u ? 0 : m;
}

/* The first injected action of e that r's fault names, or -1. */
static int shown(const struct sm_reader *r, const struct sm_example *e)
{
	for (unsigned i = 0; i < e->cell.min.n; i++)
		if (named(r) & (1u << e->cell.min.item[i].kind))
			return (int)e->cell.min.item[i].kind;
	return -1;
}

/* The first action r's fault names that e's scenario scripts (an `at`
 * line: a scenario written about that action), or -1. */
static int scripted(const struct sm_reader *r, const struct sm_example *e)
{
	for (unsigned i = 0; i < e->scn.nactions; i++)
		if (named(r) & (1u << e->scn.act[i].act.kind))
			return (int)e->scn.act[i].act.kind;
	return -1;
}

static bool local(const struct sm_example *e)
{
	return e->scn.cfg.writer != SM_WRITER_REMOTE;
}

/* Each criterion: a key, lower ranks first. */
static uint64_t by_shows(const struct sm_reader *r, const struct sm_example *e)
{
	return shown(r, e) < 0;
}
static uint64_t by_local(const struct sm_reader *r, const struct sm_example *e)
{
	(void)r;
	return !local(e);
}
static uint64_t by_actions(const struct sm_reader *r,
                           const struct sm_example *e)
{
	(void)r;
	return e->cell.min.n;
}
static uint64_t by_scripted(const struct sm_reader *r,
                            const struct sm_example *e)
{
	return scripted(r, e) < 0;
}
static uint64_t by_steps(const struct sm_reader *r, const struct sm_example *e)
{
	(void)r;
	return e->cell.res.steps;
}
static uint64_t by_order(const struct sm_reader *r, const struct sm_example *e)
{
	(void)r;
	return e->order;
}

static const struct criterion {
	const char *key; /* in the JSON "rule" */
	uint64_t (*rank)(const struct sm_reader *r, const struct sm_example *e);
} criteria[] = {
	{ "shows", by_shows },     /* injects an action the fault names */
	{ "local", by_local },     /* a local writer */
	{ "actions", by_actions }, /* fewer injected actions */
	{ "scripts", by_scripted }, /* a scenario about that action */
	{ "steps", by_steps },     /* fewer steps */
	{ "order", by_order },     /* arch, then scenario name */
};
#define NCRITERIA (sizeof(criteria) / sizeof(criteria[0]))

static int cmp(const struct sm_reader *r, const struct sm_example *a,
               const struct sm_example *b)
{
	for (size_t i = 0; i < NCRITERIA; i++) {
		uint64_t x = criteria[i].rank(r, a), y = criteria[i].rank(r, b);
		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

void sm_example_sort(const struct sm_reader *r, struct sm_example *ex,
                     unsigned n)
{
	for (unsigned i = 1; i < n; i++) {
		struct sm_example e = ex[i];
		unsigned k = i;
		for (; k > 0 && cmp(r, &e, &ex[k - 1]) < 0; k--)
			ex[k] = ex[k - 1];
		ex[k] = e;
	}
}

/* "reset", "migrate or overflow": the actions of mask m. */
static void action_list(unsigned m, const char *join, char *buf, size_t n)
{
	size_t used = 0;
	unsigned left = (unsigned)__builtin_popcount(m);

	buf[0] = '\0';
	for (int k = 0; k < SM_NACTIONS && used < n; k++) {
		if (!(m & (1u << k)))
			continue;
		left--;
		used += (size_t)snprintf(buf + used, n - used, "%s%s",
		                         sm_action_name((enum sm_action_kind)k),
		                         left == 0 ? "" : left == 1 ? join : ", ");
	}
}

void sm_example_why(const struct sm_reader *r, const struct sm_example *ex,
                    unsigned n, char *buf, size_t len)
{
	char acts[160], what[240];
	unsigned m = named(r);
	int s = shown(r, ex);
	unsigned one = (unsigned)__builtin_popcount(m) == 1;

	action_list(m, " or ", acts, sizeof(acts));
	if (!r->fault)
		snprintf(what, sizeof(what), "no corpus fault to name an action");
	else if (!m)
		snprintf(what, sizeof(what), "the fault names no action");
	else if (s >= 0 && one)
		snprintf(what, sizeof(what), "shows %s, the action the fault "
		         "names", acts);
	else if (s >= 0)
		snprintf(what, sizeof(what), "shows %s, one of the actions the "
		         "fault names (%s)", sm_action_name((enum sm_action_kind)s),
		         acts);
	else
		snprintf(what, sizeof(what), "no failing example shows %s, the "
		         "action%s the fault names", acts, one ? "" : "s");
	int sc = scripted(r, ex);
	char about[160] = "";
	if (sc >= 0)
		snprintf(about, sizeof(about), "; %s scripts %s too", ex->scenario,
		         sm_action_name((enum sm_action_kind)sc));
	snprintf(buf, len, "chosen of %u failing example%s: %s; %s; %u action%s"
	         "%s; %llu steps", n, n == 1 ? "" : "s", what,
	         local(ex) ? "local writer" : "remote writer, its stores landing "
	         "one by one", ex->cell.min.n, ex->cell.min.n == 1 ? "" : "s",
	         about, (unsigned long long)ex->cell.res.steps);
}

void sm_example_json(struct json *j, const struct sm_reader *r,
                     const struct sm_example *ex, unsigned n)
{
	char why[600];

	json_str(j, "fault_names", r->shows ? r->shows : "");
	json_begin(j, "rule", '[');
	for (size_t i = 0; i < NCRITERIA; i++)
		json_str(j, NULL, criteria[i].key);
	json_end(j, '[');
	if (n) {
		sm_example_why(r, ex, n, why, sizeof(why));
		json_str(j, "chosen", why);
	} else
		json_raw(j, "chosen", "null");
	json_begin(j, "candidates", '[');
	for (unsigned i = 0; i < n; i++) {
		const struct sm_example *e = &ex[i];
		char line[1024];
		int s = shown(r, e);
		sm_schedule_format(line, sizeof(line), e->arch, SM_ENGINE_UNICORN,
		                   r->sched_name ? r->sched_name : r->name,
		                   e->scenario, &e->cell.min);
		json_begin(j, NULL, '{');
		json_str(j, "schedule", line);
		json_str(j, "verdict", sm_verdict_name(e->cell.verdict));
		json_str(j, "shows", s < 0 ? "" : sm_action_name(
		         (enum sm_action_kind)s));
		json_bool(j, "local", local(e));
		json_u64(j, "actions", e->cell.min.n);
		int sc = scripted(r, e);
		json_str(j, "scripts", sc < 0 ? "" : sm_action_name(
		         (enum sm_action_kind)sc));
		json_u64(j, "steps", e->cell.res.steps);
		json_u64(j, "order", e->order);
		json_end(j, '{');
	}
	json_end(j, '[');
}
