/*
 * stores.h — stores.c's part for the model's own files: a page write's
 * stores join the store buffer.
 *
 * Owns: the declarations of stores.c's internal entry points (its calls
 * for engines are in model.h).
 */
#ifndef SELFMON_MODEL_STORES_H
#define SELFMON_MODEL_STORES_H

#include "state.h"

/* A page write's stores join the buffer (landed at once by the local
 * writer); the next store in flight lands, even while frozen. */
void sm_stores_push(struct sm_model *m, const struct sm_store *st,
                    unsigned n);
int sm_store_land(struct sm_model *m);

#endif
