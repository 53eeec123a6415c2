/*
 * pmu.c — which PMU driver an arch has.
 *
 * Owns: the table from arch to driver (pmu_x86.c, pmu_arm64.c,
 * pmu_riscv.c) and the one rule asked of a configuration before it has
 * a model (sm_counter_exists()).  It holds no state and must not model
 * any driver's behaviour itself: that is each driver's file.
 */
#include "drivers.h"

static const struct sm_pmu_rules *const drivers[SM_NARCH] = {
	[SM_X86_64] = &sm_pmu_x86,
	[SM_ARM64] = &sm_pmu_arm64,
	[SM_RISCV64] = &sm_pmu_riscv,
};

const struct sm_pmu_rules *sm_pmu_of(enum sm_arch arch)
{
	return drivers[arch];
}

/* A counter number names a register of cfg's PMU. */
bool sm_counter_exists(const struct sm_config *cfg, int c)
{
	return sm_pmu_of(cfg->arch)->counter_exists(cfg, c);
}
