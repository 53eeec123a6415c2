/*
 * hw_compare.h — a recorded hw trace held against the model: what
 * `selfmon model --compare` runs (and fuzz_hwtrace).
 */
#ifndef SELFMON_HW_COMPARE_H
#define SELFMON_HW_COMPARE_H

#include <stddef.h>
#include <stdio.h>

/* The comparison of a trace's text (`name` for messages) with the model
 * as kernel `kernel` (1 << SM_KV_*; 0 the kernel as it is): 0 agrees, 1
 * differs (the report on `out`, which may be NULL), -1 bad input, a
 * variant of another arch or a cap hit (one line in err). */
int hw_compare_text(const char *name, const char *text, unsigned kernel,
                    FILE *out, char *err, size_t errlen);

#endif
