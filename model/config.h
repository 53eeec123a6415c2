/*
 * config.h — config.c's part for the model's own files: the check a
 * configuration passes before the kernel is built from it.
 *
 * Owns: the declaration of sm_config_check() (its defaults and name
 * tables for engines are in model.h).  It must not reach model state.
 */
#ifndef SELFMON_MODEL_CONFIG_H
#define SELFMON_MODEL_CONFIG_H

#include "model.h"

/* 0 if a model can be built from cfg, else -1 with a message in err
 * (sm_kernel_build(), kernel.c). */
int sm_config_check(const struct sm_config *cfg, char *err, size_t n);

#endif
