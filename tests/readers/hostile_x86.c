/*
 * hostile_x86.c — x86-64 readers for test_hostile that attack the
 * emulator instead of reading the page.  Raw ABI, each named for its
 * attack; selfmon must end each in a verdict, in bounded time, touching
 * nothing outside the emulator.
 */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

typedef uint64_t (*fn)(void);

/* `jmp .` written into the return page, then jumped to. */
uint64_t jmp_ret_page(const void *page)
{
	volatile uint8_t *p = (uint8_t *)0x50000010;
	(void)page;
	p[0] = 0xeb;
	p[1] = 0xfe;
	return ((fn)(uintptr_t)0x50000010)();
}

/* rdtsc written onto the stack, then run there. */
uint64_t rdtsc_on_stack(const void *page)
{
	uint8_t code[8] = { 0x0f, 0x31, 0x48, 0xc1, 0xe2, 0x20, 0xc3 };
	(void)page;
	return ((fn)(uintptr_t)code)();
}

uint64_t priv_cli(const void *page)
{
	(void)page;
	__asm__ __volatile__("cli");
	return 0;
}

uint64_t priv_rdmsr(const void *page)
{
	uint32_t lo, hi;
	(void)page;
	__asm__ __volatile__("rdmsr" : "=a"(lo), "=d"(hi) : "c"(0x10));
	return lo | (uint64_t)hi << 32;
}

uint64_t priv_cr0(const void *page)
{
	uint64_t v;
	(void)page;
	__asm__ __volatile__("mov %%cr0, %0" : "=r"(v));
	return v;
}

uint64_t port_in(const void *page)
{
	uint8_t v;
	(void)page;
	__asm__ __volatile__("inb $0x60, %0" : "=a"(v));
	return v;
}

uint64_t halt(const void *page)
{
	(void)page;
	__asm__ __volatile__("hlt");
	return 0;
}

/* A prefixed rdtsc (REX.W, then an operand-size prefix). */
uint64_t prefixed_rdtsc(const void *page)
{
	uint32_t lo, hi;
	(void)page;
	__asm__ __volatile__(".byte 0x66, 0x48, 0x0f, 0x31"
	                     : "=a"(lo), "=d"(hi));
	return lo | (uint64_t)hi << 32;
}

/* read(2) into the read-only page: the kernel's copy_to_user() fails
 * with EFAULT (the result, -1, is returned as the count). */
uint64_t read_into_page(const void *page)
{
	return (uint64_t)read(3, (void *)page, 24);
}

/* memcpy over the read-only page: SIGSEGV on Linux. */
uint64_t memcpy_to_page(const void *page)
{
	uint64_t zero[3] = { 0, 0, 0 };
	memcpy((void *)page, zero, sizeof(zero));
	return 0;
}

/* A correct pinned-counter read on its first call only: a counter in
 * .bss remembers earlier calls, so if any state survived from one run to
 * the next, the later runs would return 99. */
static uint64_t calls;
uint64_t bss_counter(const void *page)
{
	const volatile struct { uint32_t v, c, lock, index; int64_t offset; }
		*pc = page;
	uint32_t seq, lo, hi;
	uint64_t count;

	if (calls++)
		return 99;
	do {
		seq = pc->lock;
		__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi)
		                     : "c"(pc->index - 1));
		count = (uint64_t)pc->offset +
		        (uint64_t)((int64_t)((lo | (uint64_t)hi << 32) << 16) >> 16);
	} while (pc->lock != seq);
	return count;
}

uint64_t avx_vmov(const void *page)
{
	(void)page;
	__asm__ __volatile__("vmovdqa %%ymm0, %%ymm1" ::: "xmm1");
	return 0;
}

uint64_t avx(const void *page)
{
	(void)page;
	__asm__ __volatile__("vpxor %%ymm0, %%ymm0, %%ymm0" ::: "xmm0");
	return 0;
}

/* rep stosb of 12,000 bytes, twice: each iteration is a step, so the
 * budget ends it however long the count. */
uint64_t rep_long(const void *page)
{
	for (int k = 0; k < 2; k++) {
		uint64_t n = 12000;
		void *d = (void *)0x30000000;
		__asm__ __volatile__("rep stosb" : "+D"(d), "+c"(n) : "a"(0)
		                     : "memory");
	}
	return ((const volatile uint64_t *)page)[0];
}

/* The stack below its top page is device memory that snapshots copy only
 * once a run has stored there.  These readers keep their seqlock's state
 * in slots either 8 KiB deep or at the top of the stack: each pair must
 * get the same verdict from the same number of schedules. */
struct seq_page {
	uint32_t v, c, lock, index;
	int64_t offset;
};

static uint64_t __attribute__((noinline))
read_via(volatile uint64_t *slot, const void *page, int stale)
{
	const volatile struct seq_page *pc = page;
	uint32_t lo, hi;

	slot[2] = ~0ull;
	do {
		slot[0] = pc->lock;
		if (!stale || slot[2] == ~0ull) /* stale: offset of the 1st pass */
			slot[2] = (uint64_t)pc->offset;
		__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi)
		                     : "c"(pc->index - 1));
		slot[1] = slot[2] +
		          (uint64_t)((int64_t)((lo | (uint64_t)hi << 32) << 16) >> 16);
	} while (pc->lock != slot[0]);
	return slot[1];
}

/* slots in a local array of n: 1024 reach 8 KiB deep, 3 stay at the top */
#define SLOTS_READER(name, n, stale)                                       \
	uint64_t name(const void *page)                                        \
	{                                                                      \
		volatile uint64_t buf[n];                                          \
		return read_via(buf, page, stale);                                 \
	}
SLOTS_READER(deep_stack, 1024, 0)
SLOTS_READER(top_stack, 3, 0)
SLOTS_READER(deep_stale, 1024, 1)
SLOTS_READER(top_stale, 3, 1)

/* The out-parameters' page (0x40000000) and the errno page (0x60001000)
 * are the reader's to store into anywhere.  A store far up in either
 * must not outlive its run, nor survive the restore of a snapshot taken
 * before it: these readers return the truth plus what they find there. */
#define FAR_READER(name, addr)                                             \
	uint64_t name(const void *page)                                        \
	{                                                                      \
		volatile uint64_t *far = (volatile uint64_t *)(addr), slot[3];     \
		uint64_t seen = *far;                                              \
		*far = 1ull << 40;                                                 \
		return read_via(slot, page, 0) + seen;                             \
	}
FAR_READER(out_far, 0x40000800)
FAR_READER(errno_far, 0x60001800)

/* An import entered with the stack pointer aimed at unmapped memory: the
 * stub's return pops nothing there (it used to return to whatever an
 * uninitialised host word held). */
uint64_t stub_bad_stack(const void *page)
{
	(void)page;
	__asm__ __volatile__("mov $0x12345000, %%rsp\n\t"
	                     "jmp __errno_location" ::: "memory");
	return 0;
}

/* ljmp through a register (ff /5, mod 3): #UD on a real CPU; Unicorn
 * 2.0.1 aborts translating it (its issue #1716). */
uint64_t ljmp_register(const void *page)
{
	(void)page;
	__asm__ __volatile__(".byte 0xff, 0xeb");
	return 0;
}

/* Fault at CPL3 on a real CPU under Linux: the reader's FAULT. */
#define FAULTS(name, bytes)                                                \
	uint64_t name(const void *page)                                        \
	{                                                                      \
		(void)page;                                                        \
		__asm__ __volatile__(".byte " bytes);                              \
		return 0;                                                          \
	}
FAULTS(vmcall, "0x0f, 0x01, 0xc1")
FAULTS(sysret, "0x48, 0x0f, 0x07")
FAULTS(monitor, "0x0f, 0x01, 0xc8")
FAULTS(icebp, "0xf1")

/* rdpid: IA32_TSC_AUX, the CPU the task runs on (Linux sets it). */
uint64_t rdpid(const void *page)
{
	uint64_t v = 99;
	(void)page;
	__asm__ __volatile__(".byte 0xf3, 0x0f, 0xc7, 0xf8" : "+a"(v));
	return v;
}

uint64_t rdpid_r9(const void *page)
{
	register uint64_t v __asm__("r9") = 99;
	(void)page;
	__asm__ __volatile__(".byte 0xf3, 0x41, 0x0f, 0xc7, 0xf9" : "+r"(v));
	return v;
}

/* Linux's selectors: %cs 0x33, %ss 0x2b; reloading %ss with its own
 * selector runs (the reader's value is 0x2b). */
uint64_t code_selector(const void *page)
{
	uint64_t v = 0;
	(void)page;
	__asm__ __volatile__("mov %%cs, %%eax" : "+a"(v));
	return v;
}

uint64_t reload_ss(const void *page)
{
	uint64_t v = 0;
	(void)page;
	__asm__ __volatile__("mov %%ss, %%eax\n mov %%eax, %%ss" : "+a"(v));
	return v;
}

/* The GDT at a fixed user address (0x70000000, where it once was): a
 * Linux process cannot read it. */
uint64_t read_gdt(const void *page)
{
	(void)page;
	return *(volatile uint64_t *)0x70000028;
}
