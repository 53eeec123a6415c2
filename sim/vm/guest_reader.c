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
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "guest_reader.h"

static const char magic[8] = "SMGUEST1";

void *sm_guest_reader_pack(const struct sm_guest_reader *r, const void *mem,
                           const struct sm_guest_init *init, size_t *len)
{
	size_t inits = (size_t)r->ninit * sizeof(*init);
	size_t n = sizeof(magic) + sizeof(*r) + r->size + inits;
	unsigned char *f = malloc(n);

	if (!f)
		return NULL;
	memcpy(f, magic, sizeof(magic));
	memcpy(f + sizeof(magic), r, sizeof(*r));
	memcpy(f + sizeof(magic) + sizeof(*r), mem, r->size);
	if (inits)
		memcpy(f + sizeof(magic) + sizeof(*r) + r->size, init, inits);
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

void __stack_chk_fail(void); /* libc's, declared by no header */

static int stub_atexit(void (*fn)(void *), void *arg, void *dso)
{
	(void)fn, (void)arg, (void)dso;
	return 0;
}

/* In the order of enum sm_stub (elf_load.h); the guard is data. */
static void *const import_fn[] = {
	(void *)read, (void *)stub_syscall, (void *)__errno_location,
	(void *)memcpy, (void *)memset, (void *)clock_gettime,
	(void *)sysconf, (void *)getpid, (void *)__stack_chk_fail,
	(void *)abort, (void *)(uintptr_t)0x5e1f0000cafe0000ull,
	(void *)stub_atexit,
};
#define NSTUBS (sizeof(import_fn) / sizeof(import_fn[0]))
_Static_assert(NSTUBS == SM_GUEST_NSTUBS, "a guest stub for every import");

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
	if (r->ninit > SM_GUEST_READER_INITS ||
	    r->size != len - sizeof(magic) - sizeof(*r) -
	               r->ninit * sizeof(struct sm_guest_init) || !r->size ||
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

/* What ld.so passes load-time code (glibc elf/dl-init.c call_init(): argc,
 * argv, envp; elf_ifunc_invoke(): arm64 AT_HWCAP | _IFUNC_ARG_HWCAP and
 * __ifunc_arg_t, riscv64 AT_HWCAP), with this kernel's hwcaps. */
void *sm_guest_reader_init(const void *file, size_t len, void *entry,
                           char *err, size_t n)
{
	const unsigned char *f = file;
	struct sm_guest_reader r;
	static char *empty[1];
	unsigned long hwcap = getauxval(AT_HWCAP);

	memcpy(&r, f + sizeof(magic), sizeof(r));
	(void)len; /* sm_guest_reader_map() checked it */
	for (uint32_t i = 0; i < r.ninit; i++) {
		struct sm_guest_init in;
		memcpy(&in, f + sizeof(magic) + sizeof(r) + r.size +
		       i * sizeof(in), sizeof(in));
		if (in.fn < r.base || in.fn >= r.base + r.size)
			return snprintf(err, n, "load-time code outside the reader"),
			       NULL;
		if (in.kind == SM_GUEST_INIT_CALL) {
			((void (*)(int, char **, char **))(uintptr_t)in.fn)(0, empty,
			                                                    empty);
			continue;
		}
#if defined(__aarch64__)
		unsigned long arg[3] = { sizeof(arg), hwcap, getauxval(AT_HWCAP2) };
		uint64_t v = ((uint64_t (*)(uint64_t, void *))(uintptr_t)in.fn)(
			hwcap | (1ull << 62), arg);
#else
		uint64_t v = ((uint64_t (*)(uint64_t, void *, void *))(uintptr_t)
		              in.fn)(hwcap, NULL, NULL);
#endif
		if (in.kind == SM_GUEST_INIT_SLOT) {
			if (in.place < r.base || in.place > r.base + r.size - 8)
				return snprintf(err, n, "an IFUNC's word outside the "
				                "reader"), NULL;
			v += in.addend;
			memcpy((void *)(uintptr_t)in.place, &v, 8);
		} else if (in.kind == SM_GUEST_INIT_ENTRY) {
			if (v < r.base || v >= r.base + r.size)
				return snprintf(err, n, "the entry's IFUNC resolver "
				                "returned 0x%llx, outside the reader",
				                (unsigned long long)v), NULL;
			entry = (void *)(uintptr_t)v;
		}
	}
	return entry;
}
#endif
