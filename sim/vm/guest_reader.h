/*
 * guest_reader.h — a user's reader (PATH:SYMBOL) carried into a `selfmon
 * vm` guest: the image the host's ELF loader laid out and relocated, as a
 * file of the initramfs, and the guest's mapping of it at the address it
 * was relocated for, its imports bound to the guest's own libc, and its
 * load-time code (IFUNC resolvers, initialisers) run as ld.so would.
 *
 * Owns the file's format and both ends of it.  The host packs (it has
 * the ELF loader, sim/elf); the guest maps and runs the load-time code
 * the loader listed (struct sm_init, in its order).  The imports are the
 * emulator's (elf_load.h enum sm_stub), each a trampoline at stub_base +
 * 16 k to the guest's libc: syscall does read only (others ENOSYS),
 * __cxa_atexit registers nothing (no destructor runs, as in the
 * emulator), __stack_chk_guard is the slot's 8 constant bytes.
 */
#ifndef SELFMON_GUEST_READER_H
#define SELFMON_GUEST_READER_H

#include <stddef.h>
#include <stdint.h>

#define SM_GUEST_READERS_MAX 16     /* as `check` takes */
#define SM_GUEST_READER_SEGS 16
#define SM_GUEST_READER_INITS 256   /* SM_INIT_MAX */
/* enum sm_stub's count and enum sm_init_kind's values (elf_load.h, which
 * the guest does not build; cmd_vm.c asserts they agree) */
#define SM_GUEST_NSTUBS 12
enum { SM_GUEST_INIT_CALL, SM_GUEST_INIT_SLOT, SM_GUEST_INIT_ENTRY,
       SM_GUEST_INIT_ENTRY2 };

struct sm_guest_reader {
	uint64_t base, size, entry;   /* the image's; size a multiple of 4096 */
	uint64_t stub_base;           /* where its imports' stubs are */
	uint32_t abi;                 /* enum sm_abi */
	uint32_t nseg;
	uint32_t ninit, pad;          /* load-time code, after the image */
	struct { uint64_t off, size; uint32_t prot, pad; }
		seg[SM_GUEST_READER_SEGS];  /* prot: SM_PROT_* of elf_load.h */
};

/* One item of load-time code (elf_load.h struct sm_init). */
struct sm_guest_init {
	uint32_t kind, pad;           /* enum sm_init_kind */
	uint64_t fn, place, addend;
};

/* The file: the header (magic, then the struct), the image's bytes and
 * r->ninit items of load-time code, malloc'ed, its length in *len; NULL
 * out of memory. */
void *sm_guest_reader_pack(const struct sm_guest_reader *r, const void *mem,
                           const struct sm_guest_init *init, size_t *len);

/* In the guest: map the file's image at its base (never over a mapping),
 * with its segments' protections: the entry point, or NULL with one line
 * in err. */
void *sm_guest_reader_map(const void *file, size_t len,
                          struct sm_guest_reader *r, char *err, size_t n);
/* In the guest, after the map: the file's load-time code run natively,
 * in order (its resolvers' results stored, an entry's returned): the
 * entry point, or NULL with one line in err.  A crash in it is the
 * caller's process's, which is why the guest calls it in the reader's
 * own process. */
void *sm_guest_reader_init(const void *file, size_t len, void *entry,
                           char *err, size_t n);
/* In the guest: the stubs at stub_base, once for every reader: 0, or -1
 * with one line in err. */
int sm_guest_stubs_map(uint64_t stub_base, char *err, size_t n);

#endif
