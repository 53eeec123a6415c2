/*
 * model_diff.h — `selfmon model --kernel-diff V|A..B SCENARIO`: the page
 * writes of one scenario under two kernels, update by update, and only
 * those that differ (model_diff.c).  Also the page fields `model` prints,
 * shared with cmd_model.c so that the diff compares what `model --json`
 * shows.
 */
#ifndef SELFMON_MODEL_DIFF_H
#define SELFMON_MODEL_DIFF_H

#include <stdbool.h>

#include "page.h"

/* The capability bits `model` shows after `capabilities`, bit b. */
#define MODEL_NCAPS 6
extern const char *const model_cap_names[MODEL_NCAPS];

/* Is f one of the page fields `model` shows (the header up to
 * __reserved, without __reserved_1)? */
bool model_field_shown(const struct selfmon_page_field *f);

/* Play SCENARIO under kernel `from` and under `to`, print the updates
 * whose page differs as a table or one JSON document.  A caller's bad
 * input is its own; this checks that both kernels apply to the
 * scenario's arch.  Exit status: 0, or 2 after one error line. */
int model_kernel_diff(const char *path, bool range, unsigned from,
                      bool from_given, unsigned to, bool json);

#endif
