/*
 * drivers.h — the three PMU drivers and the table that picks one.
 *
 * Owns: the declarations of each driver's rules (pmu_x86.c, pmu_arm64.c,
 * pmu_riscv.c), of the registers each answers for user space's reads
 * (shown by kview.c), of the rules the configuration check needs, and of
 * pmu.c's table by arch.  The perf core reaches a driver through its
 * model's rules (pmu.h's SM_RULES()), not through this header; only the
 * builder, the configuration check and the view include it.
 */
#ifndef SELFMON_MODEL_DRIVERS_H
#define SELFMON_MODEL_DRIVERS_H

#include "pmu.h"

extern const struct sm_pmu_rules sm_pmu_x86, sm_pmu_arm64, sm_pmu_riscv;

/* pmu.c: the driver of an arch (arch < SM_NARCH), and whether a counter
 * number names a register of cfg's PMU */
const struct sm_pmu_rules *sm_pmu_of(enum sm_arch arch);
bool sm_counter_exists(const struct sm_config *cfg, int counter);

/* The registers that let user space read counters on the task's CPU now,
 * as the counter reads see them: x86 CR4.PCE (pmu_x86.c), arm64
 * PMUSERENR_EL0 and PMUACR_EL1 (pmu_arm64.c), riscv64 scounteren
 * (pmu_riscv.c). */
bool sm_x86_cr4_pce(const struct sm_model *m);
uint32_t sm_arm64_pmuserenr(const struct sm_model *m);
uint32_t sm_arm64_pmuacr(const struct sm_model *m);
uint32_t sm_riscv_scounteren(const struct sm_model *m);
/* arm64, Linux 7.2 with pmu smt=yes: cycles events take an event counter */
bool sm_arm64_cycles_avoid_pmccntr(const struct sm_config *cfg);

#endif
