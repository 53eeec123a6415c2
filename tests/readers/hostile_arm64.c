/*
 * hostile_arm64.c — arm64 readers for test_hostile that attack the
 * emulator: `b .` written into the return page, privileged and
 * unpermitted system registers (the reader runs at EL0).  Raw ABI.
 */
#include <stdint.h>

static uint64_t line[8] __attribute__((aligned(64)));

typedef uint64_t (*fn)(void);

uint64_t jmp_ret_page(const void *page)
{
	volatile uint32_t *p = (uint32_t *)0x50000010;
	(void)page;
	p[0] = 0x14000000; /* b . */
	return ((fn)(uintptr_t)0x50000010)();
}

uint64_t priv_vbar(const void *page)
{
	__asm__ __volatile__("msr vbar_el1, %0" :: "r"(page));
	return 0;
}

uint64_t pmcr(const void *page)
{
	uint64_t v;
	(void)page;
	__asm__ __volatile__("mrs %0, pmcr_el0" : "=r"(v));
	return v;
}

uint64_t cntpct(const void *page)
{
	uint64_t v;
	(void)page;
	__asm__ __volatile__("mrs %0, cntpct_el0" : "=r"(v));
	return v;
}

/* wfi at EL0 goes on under Linux (nTWI); the page's offset is returned. */
uint64_t wait_for_interrupt(const void *page)
{
	__asm__ __volatile__("wfi");
	return *(const volatile uint64_t *)((const char *)page + 16);
}

/* Run at EL0 on Linux, lacking in Unicorn's CPU: UNSUPPORTED. */
uint64_t lse_ldaddal(const void *page)
{
	uint64_t one = 1, old;
	(void)page;
	__asm__ __volatile__(".arch_extension lse\n ldaddal %1, %0, [%2]"
	                     : "=r"(old) : "r"(one), "r"(line) : "memory");
	return old;
}

uint64_t lse_casal(const void *page)
{
	uint64_t v = 0;
	(void)page;
	__asm__ __volatile__(".arch_extension lse\n casal %0, %1, [%2]"
	                     : "+r"(v) : "r"(v), "r"(line) : "memory");
	return v;
}

uint64_t pac(const void *page)
{
	uint64_t v = (uint64_t)page;
	__asm__ __volatile__(".arch armv8.3-a\n pacia %0, sp" : "+r"(v));
	return v;
}

uint64_t dc_zva(const void *page)
{
	(void)page;
	__asm__ __volatile__("dc zva, %0" :: "r"(line) : "memory");
	return 0;
}

uint64_t dc_civac(const void *page)
{
	(void)page;
	__asm__ __volatile__("dc civac, %0" :: "r"(line) : "memory");
	return 0;
}

/* emulated by the kernel (emulate_mrs) */
uint64_t id_isar0(const void *page)
{
	uint64_t v;
	(void)page;
	__asm__ __volatile__("mrs %0, id_aa64isar0_el1" : "=r"(v));
	return v;
}

/* Refused at EL0 on a real CPU too: the reader's FAULT. */
uint64_t sctlr(const void *page)
{
	uint64_t v;
	(void)page;
	__asm__ __volatile__("mrs %0, sctlr_el1" : "=r"(v));
	return v;
}

uint64_t dc_ivac(const void *page)
{
	(void)page;
	__asm__ __volatile__("dc ivac, %0" :: "r"(line) : "memory");
	return 0;
}

uint64_t halt(const void *page)
{
	(void)page;
	__asm__ __volatile__("hlt #0xf000");
	return 0;
}

uint64_t breakpoint(const void *page)
{
	(void)page;
	__asm__ __volatile__("brk #0");
	return 0;
}

uint64_t undefined(const void *page)
{
	(void)page;
	__asm__ __volatile__("udf #0");
	return 0;
}
