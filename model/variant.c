/*
 * variant.c — named kernels: the kernel versions the model can follow
 * besides its Linux 6.12 base, and the kernel variants (proposed kernel
 * changes, one behaviour each) it can switch on (README "For kernel
 * developers: kernel variants and --kernel-diff").
 *
 * Owns: the table (name, arches, one-line description, the source or
 * patch it stands for, the release of a version), name <-> bit lookups,
 * the NAME[,NAME...] list form shared by the scenario directive `kernel`,
 * --kernel and the schedule line's ";kernel=" suffix, the A..B form of
 * --kernel-diff (check and model), and how versions
 * and variants combine: at most one version, the base the variants then
 * apply to.  The behaviours themselves live in the model at the one place
 * each changes (grep SM_KV_ and sm_kernel_at_least).
 */
#include <stdio.h>
#include <string.h>

#include "model.h"

#define X86 (1u << SM_X86_64)
#define ARM (1u << SM_ARM64)
#define RV (1u << SM_RISCV64)

static const struct sm_variant variants[SM_NVARIANTS] = {
	[SM_KV_RESET_PREV_COUNT] = {
		"reset_prev_count", X86,
		"PERF_EVENT_IOC_RESET leaves prev_count sign-extended, as a "
		"reload does, so the page's offset suits a sign-extending reader",
		"perf mailing list, 2023: \"perf/x86: fixes a potential "
		"perf_event reset failure\" (_perf_event_reset())", 0 },
	[SM_KV_RISCV_KEEP_SCOUNTEREN] = {
		"riscv_keep_scounteren", RV,
		"stopping a mapped event's counter keeps its scounteren bit: a "
		"racing reader reads a stale value instead of taking SIGILL",
		"proposal against drivers/perf/riscv_pmu_sbi.c "
		"pmu_sbi_ctr_stop() (clear only in pmu_sbi_event_unmapped())", 0 },
	[SM_KV_USERPAGE_WMB] = {
		"userpage_wmb", ARM | RV,
		"perf_event_update_userpage() puts smp_wmb() around the field "
		"stores: the closing ++lock cannot land before them (lock_early "
		"does not apply)",
		"proposal against kernel/events/core.c "
		"perf_event_update_userpage() (barrier() -> smp_wmb())", 0 },
	[SM_KV_LINUX_7_2] = {
		"7.2", X86 | ARM | RV,
		"Linux 7.2.13 as the base instead of 6.12: no software-clock "
		"capability overlay; arm64 PMUv3.9 counters not owned by a "
		"user-read event read 0 at EL0 (pmu pmuv3p9=yes), cycles "
		"avoid PMCCNTR on SMT cores (pmu smt=yes); a throttle stops "
		"the whole group and the tick restarts it",
		"Debian linux-source-7.2 7.2.13-1 (README \"Kernel versions\")",
		0x0702 },
};

const struct sm_variant *sm_variant_get(unsigned i)
{
	return i < SM_NVARIANTS ? &variants[i] : NULL;
}

int sm_variant_from_name(const char *name)
{
	for (unsigned i = 0; i < SM_NVARIANTS; i++)
		if (strcmp(name, variants[i].name) == 0)
			return (int)i;
	return -1;
}

/* Append "a,b" of the names of arches in mask to buf. */
static void arch_names(unsigned mask, char *buf, size_t n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int a = 0; a < SM_NARCH; a++)
		if (mask & (1u << a) && used < n)
			used += (size_t)snprintf(buf + used, n - used, "%s%s",
			                         used ? ", " : "",
			                         sm_arch_name((enum sm_arch)a));
}

/* One name of a list: its bit, or -1 with the message in err. */
static int one_name(const char *name, enum sm_arch arch, char *err, size_t n)
{
	char arches[64];
	int v = sm_variant_from_name(name);

	if (v < 0) {
		snprintf(err, n, "unknown kernel '%s' (base, 6.12, 7.2 or a "
		         "variant from 'selfmon list')", name);
		return -1;
	}
	if ((int)arch >= 0 && !(variants[v].arches & (1u << arch))) {
		arch_names(variants[v].arches, arches, sizeof(arches));
		snprintf(err, n, "kernel variant '%s' applies to %s only, not %s",
		         name, arches, sm_arch_name(arch));
		return -1;
	}
	return v;
}

/* The version bit among bits, or -1 if they name none. */
static int version_bit(unsigned bits)
{
	for (unsigned i = 0; i < SM_NVARIANTS; i++)
		if (bits & (1u << i) && variants[i].version)
			return (int)i;
	return -1;
}

int sm_kernel_parse(const char *list, int arch, unsigned *out, char *err,
                    size_t n)
{
	char buf[256];
	unsigned bits = 0;

	if (strlen(list) >= sizeof(buf) || !*list) {
		snprintf(err, n, "bad kernel list '%.60s'", list);
		return -1;
	}
	memcpy(buf, list, strlen(list) + 1);
	for (char *save = NULL, *it = strtok_r(buf, ",", &save); it;
	     it = strtok_r(NULL, ",", &save)) {
		if (!strcmp(it, "base") || !strcmp(it, "6.12"))
			continue;
		int v = one_name(it, (enum sm_arch)arch, err, n);
		if (v < 0)
			return -1;
		int was = version_bit(bits);
		if (variants[v].version && was >= 0 && was != v) {
			snprintf(err, n, "kernel list '%.60s' names two versions "
			         "(%s and %s): give one, then variants", list,
			         variants[was].name, it);
			return -1;
		}
		bits |= 1u << v;
	}
	*out = bits;
	return 0;
}

int sm_kernel_diff_parse(const char *spec, unsigned *from, unsigned *to,
                         bool *range, char *err, size_t n)
{
	const char *dots = strstr(spec, "..");
	char a[256];

	*range = dots != NULL;
	*from = 0;
	if (!dots)
		return sm_kernel_parse(spec, -1, to, err, n);
	size_t alen = (size_t)(dots - spec);
	if (!alen || !dots[2] || strstr(dots + 2, "..") || alen >= sizeof(a)) {
		snprintf(err, n, "bad kernel diff '%.60s': give A..B, each a "
		         "kernel as --kernel takes (6.12..7.2)", spec);
		return -1;
	}
	memcpy(a, spec, alen);
	a[alen] = '\0';
	return sm_kernel_parse(a, -1, from, err, n) < 0 ||
	       sm_kernel_parse(dots + 2, -1, to, err, n) < 0 ? -1 : 0;
}

int sm_kernel_check_arch(unsigned bits, enum sm_arch arch, char *err,
                         size_t n)
{
	for (unsigned i = 0; i < SM_NVARIANTS; i++)
		if (bits & (1u << i) && one_name(variants[i].name, arch, err, n) < 0)
			return -1;
	return 0;
}

unsigned sm_kernel_arches(unsigned bits)
{
	unsigned mask = (1u << SM_NARCH) - 1;

	for (unsigned i = 0; i < SM_NVARIANTS; i++)
		if (bits & (1u << i))
			mask &= variants[i].arches;
	return mask;
}

const char *sm_kernel_text(unsigned bits, char *buf, size_t n)
{
	size_t used = 0;

	if (!n)
		return buf;
	buf[0] = '\0';
	/* the version first, then the variants on top of it */
	for (int pass = 0; pass < 2; pass++)
		for (unsigned i = 0; i < SM_NVARIANTS; i++)
			if (bits & (1u << i) && (variants[i].version == 0) == pass &&
			    used < n)
				used += (size_t)snprintf(buf + used, n - used, "%s%s",
				                         used ? "," : "",
				                         variants[i].name);
	if (!bits)
		snprintf(buf, n, "base");
	return buf;
}

unsigned sm_kernel_version(unsigned bits)
{
	int v = version_bit(bits);

	return v < 0 ? SM_KERNEL_BASE_VERSION : variants[v].version;
}

bool sm_kernel_at_least(const struct sm_config *cfg, unsigned major,
                        unsigned minor)
{
	return sm_kernel_version(cfg->kernel) >= (major << 8 | minor);
}
