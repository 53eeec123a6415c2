/*
 * hostile_arm64.c — arm64 readers for test_hostile that attack the
 * emulator: `b .` written into the return page, privileged and
 * unpermitted system registers (the reader runs at EL0).  Raw ABI.
 */
#include <stdint.h>

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
