/*
 * guest_reader.h — a user's reader (PATH:SYMBOL) carried into a `selfmon
 * vm` guest: the image the host's ELF loader laid out and relocated, as a
 * file of the initramfs, and the guest's mapping of it at the address it
 * was relocated for, its imports bound to the guest's own libc.
 *
 * Owns the file's format and both ends of it.  The host packs (it has
 * the ELF loader, sim/elf); the guest maps (it has no libelf and runs
 * nothing at load time, as the emulator does not).  The imports are the
 * emulator's (elf_load.h): read, syscall (read only; others ENOSYS),
 * __errno_location, memcpy, memset, each a trampoline at stub_base + 16 k.
 */
#ifndef SELFMON_GUEST_READER_H
#define SELFMON_GUEST_READER_H

#include <stddef.h>
#include <stdint.h>

#define SM_GUEST_READERS_MAX 16     /* as `check` takes */
#define SM_GUEST_READER_SEGS 16

struct sm_guest_reader {
	uint64_t base, size, entry;   /* the image's; size a multiple of 4096 */
	uint64_t stub_base;           /* where its imports' stubs are */
	uint32_t abi;                 /* enum sm_abi */
	uint32_t nseg;
	struct { uint64_t off, size; uint32_t prot, pad; }
		seg[SM_GUEST_READER_SEGS];  /* prot: SM_PROT_* of elf_load.h */
};

/* The file: the header (magic, then the struct) and the image's bytes,
 * malloc'ed, its length in *len; NULL out of memory. */
void *sm_guest_reader_pack(const struct sm_guest_reader *r, const void *mem,
                           size_t *len);

/* In the guest: map the file's image at its base (never over a mapping),
 * with its segments' protections: the entry point, or NULL with one line
 * in err. */
void *sm_guest_reader_map(const void *file, size_t len,
                          struct sm_guest_reader *r, char *err, size_t n);
/* In the guest: the stubs at stub_base, once for every reader: 0, or -1
 * with one line in err. */
int sm_guest_stubs_map(uint64_t stub_base, char *err, size_t n);

#endif
