/*
 * hostile_riscv64.c — riscv64 readers for test_hostile: `j .` written
 * into the return page, a counter read through csrrs with a non-zero
 * rs1 (a write to a read-only CSR), and a machine-mode CSR (the reader
 * runs in U-mode).  Raw ABI.
 */
#include <stdint.h>

typedef uint64_t (*fn)(void);

uint64_t jmp_ret_page(const void *page)
{
	volatile uint32_t *p = (uint32_t *)0x50000010;
	(void)page;
	p[0] = 0x0000006f; /* j . */
	return ((fn)(uintptr_t)0x50000010)();
}

uint64_t csrrs_cycle(const void *page)
{
	uint64_t v = 0;
	(void)page;
	__asm__ __volatile__("csrrs %0, cycle, %0" : "+r"(v));
	return v;
}

uint64_t mstatus(const void *page)
{
	uint64_t v;
	(void)page;
	__asm__ __volatile__("csrr %0, mstatus" : "=r"(v));
	return v;
}

/* wfi in U-mode: SIGILL under Linux. */
uint64_t wait_for_interrupt(const void *page)
{
	(void)page;
	__asm__ __volatile__("wfi");
	return 0;
}

/* csrr of a supervisor CSR: SIGILL at the csrr itself. */
uint64_t satp(const void *page)
{
	uint64_t v;
	(void)page;
	__asm__ __volatile__("csrr %0, satp" : "=r"(v));
	return v;
}

/* vadd.vv v0, v2, v0 (OP-V): a CPU with the V extension runs it. */
uint64_t vector(const void *page)
{
	(void)page;
	__asm__ __volatile__(".word 0x02208057");
	return 0;
}
