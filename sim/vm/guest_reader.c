/*
 * guest_reader.c — a user's reader as a file of the guest's initramfs,
 * and its mapping in the guest (guest_reader.h).
 *
 * Owns the format and the stubs' machine code.  It must not load ELF
 * (the host's sim/elf did that) nor run the reader (sim/hw does).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "guest_reader.h"

static const char magic[8] = "SMGUEST1";

void *sm_guest_reader_pack(const struct sm_guest_reader *r, const void *mem,
                           size_t *len)
{
	size_t n = sizeof(magic) + sizeof(*r) + r->size;
	unsigned char *f = malloc(n);

	if (!f)
		return NULL;
	memcpy(f, magic, sizeof(magic));
	memcpy(f + sizeof(magic), r, sizeof(*r));
	memcpy(f + sizeof(magic) + sizeof(*r), mem, r->size);
	*len = n;
	return f;
}

#if defined(__aarch64__) || defined(__riscv)
/* The imports, as the emulator answers them (engine_unicorn.c
 * import_stub()): syscall() does read and nothing else. */
static long stub_syscall(long nr, long a, long b, long c)
{
	if (nr == SYS_read)
		return read((int)a, (void *)b, (size_t)c);
	errno = ENOSYS;
	return -1;
}

/* In the order of enum sm_stub (elf_load.h). */
static void *const import_fn[] = {
	(void *)read, (void *)stub_syscall, (void *)__errno_location,
	(void *)memcpy, (void *)memset,
};
#define NSTUBS (sizeof(import_fn) / sizeof(import_fn[0]))

int sm_guest_stubs_map(uint64_t stub_base, char *err, size_t n)
{
	uint8_t *p = mmap((void *)stub_base, 4096, PROT_READ | PROT_WRITE,
	                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p == MAP_FAILED || p != (uint8_t *)stub_base)
		return snprintf(err, n, "cannot map the imports at 0x%llx: %s",
		                (unsigned long long)stub_base, strerror(errno)), -1;
	for (unsigned k = 0; k < NSTUBS; k++) {
		uint32_t *s = (uint32_t *)(p + 16 * k);
		uint64_t addr = (uint64_t)(uintptr_t)import_fn[k];
#if defined(__aarch64__)
		s[0] = 0x58000050;            /* ldr x16, .+8 */
		s[1] = 0xd61f0200;            /* br x16 */
		memcpy(&s[2], &addr, 8);
#else
		/* the address in a table at +0x400 of the page */
		uint32_t lo = (uint32_t)(0x400 + 8 * k - 16 * k);
		memcpy(p + 0x400 + 8 * k, &addr, 8);
		s[0] = 0x00000297;            /* auipc t0, 0 */
		s[1] = (lo << 20) | 0x2b283;  /* ld t0, lo(t0) */
		s[2] = 0x00028067;            /* jr t0 */
		s[3] = 0x00000013;            /* nop */
#endif
	}
	__builtin___clear_cache((char *)p, (char *)p + 4096);
	if (mprotect(p, 4096, PROT_READ | PROT_EXEC) != 0)
		return snprintf(err, n, "cannot protect the imports: %s",
		                strerror(errno)), -1;
	return 0;
}

void *sm_guest_reader_map(const void *file, size_t len,
                          struct sm_guest_reader *r, char *err, size_t n)
{
	const unsigned char *f = file;

	if (len < sizeof(magic) + sizeof(*r) || memcmp(f, magic, sizeof(magic)))
		return snprintf(err, n, "not a reader file"), NULL;
	memcpy(r, f + sizeof(magic), sizeof(*r));
	if (r->size != len - sizeof(magic) - sizeof(*r) || !r->size ||
	    r->size % 4096 || r->nseg > SM_GUEST_READER_SEGS ||
	    r->entry < r->base || r->entry >= r->base + r->size)
		return snprintf(err, n, "a reader file that does not add up"), NULL;
	uint8_t *m = mmap((void *)r->base, r->size, PROT_READ | PROT_WRITE,
	                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (m == MAP_FAILED || m != (uint8_t *)r->base)
		return snprintf(err, n, "cannot map the reader at 0x%llx: %s",
		                (unsigned long long)r->base, strerror(errno)), NULL;
	memcpy(m, f + sizeof(magic) + sizeof(*r), r->size);
	__builtin___clear_cache((char *)m, (char *)m + r->size);
	/* what no segment holds is not mapped for the reader, as in the
	 * emulator */
	if (mprotect(m, r->size, PROT_NONE) != 0)
		return snprintf(err, n, "cannot protect the reader: %s",
		                strerror(errno)), NULL;
	for (unsigned i = 0; i < r->nseg; i++) {
		if (r->seg[i].off > r->size || r->seg[i].size > r->size - r->seg[i].off)
			return snprintf(err, n, "a segment outside the reader"), NULL;
		int prot = (r->seg[i].prot & 1 ? PROT_READ : 0) |
		           (r->seg[i].prot & 2 ? PROT_WRITE : 0) |
		           (r->seg[i].prot & 4 ? PROT_EXEC : 0);
		if (mprotect(m + r->seg[i].off, r->seg[i].size, prot) != 0)
			return snprintf(err, n, "cannot protect a segment: %s",
			                strerror(errno)), NULL;
	}
	return (void *)(uintptr_t)r->entry;
}
#endif
