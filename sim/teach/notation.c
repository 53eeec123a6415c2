/*
 * notation.c — page values in the ABI's notation (see notation.h).
 */
#include <inttypes.h>
#include <stdio.h>

#include "notation.h"

static void x86_counter(uint32_t ecx, char *buf, size_t n)
{
	if (ecx & (1u << 30))
		snprintf(buf, n, "fixed counter %" PRIu32 " (rdpmc ECX 1<<30 | %"
		         PRIu32 ")", ecx & 0xffff, ecx & 0xffff);
	else if (ecx == 1u << 29)
		snprintf(buf, n, "top-down metrics (rdpmc ECX 1<<29)");
	else
		snprintf(buf, n, "general counter %" PRIu32 " (rdpmc ECX %" PRIu32
		         ")", ecx, ecx);
}

static void riscv_counter(uint32_t csr, char *buf, size_t n)
{
	static const char *const low[3] = { "cycle", "time", "instret" };

	if (csr - 0xc00 < 3)
		snprintf(buf, n, "%s (csr 0x%03" PRIx32 ")", low[csr - 0xc00], csr);
	else
		snprintf(buf, n, "hpmcounter%" PRIu32 " (csr 0x%03" PRIx32 ")",
		         csr - 0xc00, csr);
}

void sm_index_counter(enum sm_arch a, uint32_t index, char *buf, size_t n)
{
	if (index == 0)
		snprintf(buf, n, "not on a counter: read(2)");
	else if (a == SM_X86_64)
		x86_counter(index - 1, buf, n);
	else if (a == SM_ARM64 && index - 1 == 31)
		snprintf(buf, n, "cycle counter PMCCNTR_EL0");
	else if (a == SM_ARM64)
		snprintf(buf, n, "PMEVCNTR%" PRIu32 "_EL0", index - 1);
	else
		riscv_counter(0xc00 + index - 1, buf, n);
}

void sm_index_short(enum sm_arch a, uint32_t index, char *buf, size_t n)
{
	if (a == SM_X86_64 && index > 0xffff)
		snprintf(buf, n, "0x%" PRIx32, index);
	else
		snprintf(buf, n, "%" PRIu32, index);
}
