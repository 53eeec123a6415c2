/*
 * kernel.h — kernel.c's part for the model's own files: building the
 * kernel of a new model, and read(2)'s update of events.
 *
 * Owns: the declarations of kernel.c's internal entry points (its calls
 * for engines are in model.h).
 */
#ifndef SELFMON_MODEL_KERNEL_H
#define SELFMON_MODEL_KERNEL_H

#include "state.h"

/* Open the configuration's events on a zeroed model whose configuration
 * and environment are set (sm_model_new(), state.c).  0, or -1 with a
 * message in err. */
int sm_kernel_build(struct sm_model *m, char *err, size_t n);
/* perf_event_read()'s update of the counts and times read(2) of event i
 * answers with (the event, or its group with PERF_FORMAT_GROUP), for
 * readfmt.c */
void sm_kernel_read(struct sm_model *m, int i);

#endif
