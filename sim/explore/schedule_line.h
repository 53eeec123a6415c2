/*
 * schedule_line.h — a schedule's one-line form: what `check` prints for a
 * failure and `replay` (and `plot`) read back.
 */
#ifndef SELFMON_SCHEDULE_LINE_H
#define SELFMON_SCHEDULE_LINE_H

#include <stddef.h>

#include "session.h"

/* ARCH:ENGINE:READER:SCENARIO:ITEMS[;stale_select=STEP,...]
 * [;dropped=ACTION,...][;kernel=V,...]
 * ITEMS = "-" or action@step,...; the CPU's stale reads sch->stale (at
 * most 6 actions and choices in all), the dropped set sch->dropped, the
 * kernel variants sch->kernel.
 * sm_schedule_format() writes at most n bytes and returns the length of
 * the whole line (as snprintf); sm_schedule_text() returns it in memory
 * of its own (free() it; NULL when out of memory). */
size_t sm_schedule_format(char *buf, size_t n, enum sm_arch arch,
                          enum sm_engine_kind e, const char *reader,
                          const char *scenario, const struct sm_schedule *sch);
char *sm_schedule_text(enum sm_arch arch, enum sm_engine_kind e,
                       const char *reader, const char *scenario,
                       const struct sm_schedule *sch);
/* A parsed line; reader and scenario point into memory the line owns:
 * release it with sm_schedule_line_free(). */
struct sm_schedule_line {
	enum sm_arch arch;
	enum sm_engine_kind engine;
	char *reader, *scenario;
	struct sm_schedule sched;
	char *text;
};
#define SM_SCHEDULE_MAX (64 * 1024) /* longest line parsed, in bytes */
int sm_schedule_parse(const char *text, struct sm_schedule_line *out,
                      char *err, size_t n);
void sm_schedule_line_free(struct sm_schedule_line *l);

#endif
