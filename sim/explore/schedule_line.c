/*
 * schedule_line.c — a schedule's one-line form (schedule_line.h), the
 * text check prints and replay reads:
 * ARCH:ENGINE:READER:SCENARIO:ITEMS[;stale_select=STEP,...]
 * [;dropped=ACTION,...][;kernel=V,...].
 *
 * Owns: writing a schedule as that line and parsing one back, with every
 * check on it as input ("bad schedule: WHAT 'TEXT'", one line: the line
 * comes from a command line, so there is no LINE:COL).  Comma and ';'
 * lists are cut with util/lines.c's sm_split_next().  Must not touch a
 * session or run anything: the explorer and the commands do.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lines.h"
#include "schedule_line.h"

/* Where the next part goes: past what is written, or nowhere (NULL and
 * 0 once the buffer is full, or when measuring with buf NULL). */
static char *rest(char *buf, size_t n, size_t used, size_t *room)
{
	*room = buf && used < n ? n - used : 0;
	return *room ? buf + used : NULL;
}

size_t sm_schedule_format(char *buf, size_t n, enum sm_arch arch,
                          enum sm_engine_kind e, const char *reader,
                          const char *scenario, const struct sm_schedule *sch)
{
	size_t room, used = (size_t)snprintf(buf, n, "%s:%s:%s:%s:",
	                                     sm_arch_name(arch), sm_engine_name(e),
	                                     reader, scenario);
	char *p;

	if (sch->n == 0) {
		p = rest(buf, n, used, &room);
		used += (size_t)snprintf(p, room, "-");
	}
	for (unsigned i = 0; i < sch->n; i++) {
		p = rest(buf, n, used, &room);
		used += (size_t)snprintf(p, room, "%s%s@%" PRIu64, i ? "," : "",
		                         sm_action_name(sch->item[i].kind),
		                         sch->item[i].step);
	}
	for (unsigned i = 0; i < sch->nstale; i++) {
		p = rest(buf, n, used, &room);
		used += (size_t)snprintf(p, room, "%s%" PRIu64, i ? ","
		                         : ";stale_select=", sch->stale[i]);
	}
	for (int k = 0, first = 1; k < SM_NACTIONS; k++)
		if (sch->dropped & (1u << k)) {
			p = rest(buf, n, used, &room);
			used += (size_t)snprintf(p, room, "%s%s", first ? ";dropped="
			                         : ",",
			                         sm_action_name((enum sm_action_kind)k));
			first = 0;
		}
	if (sch->kernel & SM_SCHED_KERNEL) {
		char names[256];
		p = rest(buf, n, used, &room);
		used += (size_t)snprintf(p, room, ";kernel=%s",
		                         sm_kernel_text(sch->kernel & ~SM_SCHED_KERNEL,
		                                        names, sizeof(names)));
	}
	return used;
}

char *sm_schedule_text(enum sm_arch arch, enum sm_engine_kind e,
                       const char *reader, const char *scenario,
                       const struct sm_schedule *sch)
{
	size_t n = sm_schedule_format(NULL, 0, arch, e, reader, scenario, sch);
	char *buf = malloc(n + 1);

	if (buf)
		sm_schedule_format(buf, n + 1, arch, e, reader, scenario, sch);
	return buf;
}

static int bad(char *err, size_t n, const char *what, const char *tok)
{
	snprintf(err, n, "bad schedule: %s '%.200s%s'", what, tok,
	         strlen(tok) > 200 ? "..." : "");
	return -1;
}

/* ";dropped=a,b" after the items, parsed in place. */
static int parse_dropped(char *list, struct sm_schedule *sch, char *err,
                         size_t n)
{
	if (strncmp(list, "dropped=", 8))
		return bad(err, n, "expected ;dropped=ACTION,... at", list);
	for (char *p = list + 8, *it = sm_split_next(&p, ','); it; it = sm_split_next(&p, ',')) {
		if (!*it)
			return bad(err, n, "empty item in", list);
		int kind = sm_action_from_name(it);
		if (kind < 0)
			return bad(err, n, "unknown action", it);
		sch->dropped |= 1u << kind;
	}
	if (!sch->dropped)
		return bad(err, n, "empty dropped= list in", list);
	return 0;
}

/* A step: decimal digits only, within 64 bits.  0, or -1 with err. */
static int parse_step(const char *t, uint64_t *step, char *err, size_t n)
{
	char *end;

	errno = 0;
	unsigned long long v = strtoull(t, &end, 10);
	if (!*t || *end || errno || strspn(t, "0123456789") != strlen(t))
		return bad(err, n, "bad step", t);
	*step = v;
	return 0;
}

/* ";stale_select=S,S" (the reads that took the stale PMSELR_EL0
 * selection, schedule.h), parsed in place: ascending steps. */
static int parse_stale(char *list, struct sm_schedule *sch, char *err,
                       size_t n)
{
	for (char *p = list + 13, *it = sm_split_next(&p, ','); it; it = sm_split_next(&p, ',')) {
		uint64_t step;
		if (!*it)
			return bad(err, n, "empty item in", list);
		if (parse_step(it, &step, err, n) < 0)
			return -1;
		if (sch->nstale == SM_MAX_BOUND)
			return bad(err, n, "too many choices (max 6) at", it);
		if (sch->nstale && step <= sch->stale[sch->nstale - 1])
			return bad(err, n, "stale_select steps must increase at", it);
		sch->stale[sch->nstale++] = step;
	}
	return 0; /* "" is one empty item: refused above */
}

/* ";kernel=a,b" (the kernel variants it ran under), parsed in place. */
static int parse_kernel(char *list, struct sm_schedule *sch, char *err,
                        size_t n)
{
	char why[200];

	if (sm_kernel_parse(list + 7, -1, &sch->kernel, why, sizeof(why)) < 0)
		return bad(err, n, why, list);
	sch->kernel |= SM_SCHED_KERNEL;
	return 0;
}

/* The ";stale_select=...", ";dropped=..." and ";kernel=..." suffixes
 * after the items, each after its ';' (`list`: the text after the first
 * one). */
static int parse_suffixes(char *list, struct sm_schedule *sch, char *err,
                          size_t n)
{
	for (char *p = list, *it = sm_split_next(&p, ';'); it;
	     it = sm_split_next(&p, ';')) {
		int rc = !strncmp(it, "kernel=", 7) ? parse_kernel(it, sch, err, n)
		         : !strncmp(it, "stale_select=", 13)
		         ? parse_stale(it, sch, err, n)
		         : parse_dropped(it, sch, err, n);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* Parses items in place. */
static int parse_items(char *items, struct sm_schedule *sch, char *err,
                       size_t n)
{
	char *semi = strchr(items, ';');

	sch->n = 0;
	sch->dropped = 0;
	sch->kernel = 0;
	sch->nstale = 0;
	if (semi) {
		*semi = '\0';
		if (parse_suffixes(semi + 1, sch, err, n) < 0)
			return -1;
	}
	if (!strcmp(items, "-"))
		return 0;
	if (!*items)
		return bad(err, n, "no actions (\"-\" for none) in", items);
	for (char *p = items, *it = sm_split_next(&p, ','); it; it = sm_split_next(&p, ',')) {
		char *at = strchr(it, '@');
		uint64_t step;
		if (!*it)
			return bad(err, n, "empty item (two commas, or one at an end) "
			           "in the actions", "");
		if (!at)
			return bad(err, n, "item without @STEP", it);
		*at = '\0';
		int kind = sm_action_from_name(it);
		if (kind < 0)
			return bad(err, n, "unknown action", it);
		if (parse_step(at + 1, &step, err, n) < 0)
			return -1;
		if (sm_schedule_len(sch) == SM_MAX_BOUND)
			return bad(err, n, "too many actions and choices (max 6) "
			           "at", it);
		if (sch->n && step < sch->item[sch->n - 1].step)
			return bad(err, n, "steps must not decrease at", at + 1);
		sch->item[sch->n].step = step;
		sch->item[sch->n].kind = (enum sm_action_kind)kind;
		sch->n++;
	}
	return 0;
}

void sm_schedule_line_free(struct sm_schedule_line *l)
{
	free(l->text);
	l->text = l->reader = l->scenario = NULL;
}

int sm_schedule_parse(const char *text, struct sm_schedule_line *out,
                      char *err, size_t n)
{
	char *f[3], *p;

	memset(out, 0, sizeof(*out));
	if (strlen(text) > SM_SCHEDULE_MAX)
		return bad(err, n, "longer than 64 KiB:", text);
	if (!(p = out->text = strdup(text)))
		return snprintf(err, n, "out of memory"), -1;
	for (int i = 0; i < 3; i++) {
		char *colon = strchr(p, ':');
		if (!colon)
			goto refuse_form;
		*colon = '\0';
		f[i] = p;
		p = colon + 1;
	}
	char *last = strrchr(p, ':');
	if (!last) {
		sm_schedule_line_free(out);
		return bad(err, n, "missing :ACTIONS in", text);
	}
	*last = '\0';
	int arch = sm_arch_from_name(f[0]), rc;
	out->arch = (enum sm_arch)(arch < 0 ? 0 : arch);
	out->engine = !strcmp(f[1], "native") ? SM_ENGINE_NATIVE : SM_ENGINE_UNICORN;
	out->reader = f[2];
	out->scenario = p;
	if (arch < 0)
		rc = bad(err, n, "unknown arch", f[0]);
	else if (strcmp(f[1], "unicorn") && strcmp(f[1], "native"))
		rc = bad(err, n, "unknown engine", f[1]);
	else if (!*f[2] || !*p)
		rc = bad(err, n, "empty reader or scenario in", text);
	else
		rc = parse_items(last + 1, &out->sched, err, n);
	if (rc < 0)
		sm_schedule_line_free(out);
	return rc;
refuse_form:
	sm_schedule_line_free(out);
	return bad(err, n, "expected ARCH:ENGINE:READER:SCENARIO:ACTIONS, got",
	           text);
}
