/*
 * stack_reader.c — readers for test_hostile that need more stack than
 * selfmon's 16 KiB (Linux gives 8 MiB): each must be UNSUPPORTED
 * (selfmon's limit), not the reader's FAULT; and one that stores far
 * below any stack, which stays its FAULT.  Portable C, built for each
 * arch.  Raw ABI.
 */
#include <stdint.h>
#include <string.h>

/* 256 bytes of frame per call, a thousand calls deep (256 KiB); each
 * call reads its caller's frame after its own call returns, so no
 * compiler can make a loop of it. */
static uint64_t __attribute__((noinline))
down(const volatile uint64_t *page, unsigned n, volatile uint64_t *up)
{
	volatile uint64_t frame[32];

	frame[0] = n;
	if (n == 0)
		return page[0] + up[0];
	return down(page, n - 1, frame) + up[0] + frame[0];
}

uint64_t deep_recursion(const void *page)
{
	volatile uint64_t top = 0;

	return down(page, 1000, &top);
}

/* 64 KiB of alloca (its size known only at run time), its first byte
 * touched. */
uint64_t big_alloca(const void *page)
{
	const volatile uint64_t *p = page;
	volatile uint8_t *b = __builtin_alloca((64 << 10) + (p[0] & 8));

	b[0] = 1;
	return p[0] + b[0];
}

/* A 32 KiB local array cleared by memset: on arm64 and riscv64 the stub
 * is the first to store below the stack (x86-64's call pushes first). */
uint64_t big_memset(const void *page)
{
	uint8_t buf[32 << 10];
	volatile uint8_t *v = buf;

	memset(buf, 0, sizeof(buf));
	return *(const volatile uint64_t *)page + v[(uintptr_t)page & 1023];
}

/* A store 16 MiB below selfmon's stack, beyond any Linux stack's
 * default reach: the reader's own fault. */
uint64_t far_below(const void *page)
{
	*(volatile uint64_t *)(uintptr_t)(0x30000000u - (16u << 20)) = 1;
	return *(const volatile uint64_t *)page;
}

/* A memset of 2 MiB of the reader's own .bss: a real one writes it all
 * (the stubs once refused more than 1 MiB as the reader's FAULT). */
static uint8_t big_bss[2u << 20];

uint64_t big_bss_memset(const void *page)
{
	(void)page;
	memset(big_bss, 1, sizeof(big_bss));
	return big_bss[sizeof(big_bss) - 1] + big_bss[12345];
}
