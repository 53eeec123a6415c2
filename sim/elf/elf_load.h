/*
 * elf_load.h — loading a user's reader from an ELF object.
 *
 * Owns: reading an ELF64 little-endian relocatable object (.o, ET_REL) or
 * shared object (.so, ET_DYN) for x86-64, arm64 or riscv64 with libelf,
 * laying its allocated sections (ET_REL) or PT_LOAD segments (ET_DYN) out
 * as one image at `base`, resolving symbols, applying the relocations
 * compiled C readers need, and binding the few undefined symbols selfmon
 * provides to stub addresses that the engine hooks.  It runs nothing:
 * the code ld.so would run at load time (a .so's IFUNC resolvers, its
 * DT_INIT and DT_INIT_ARRAY; a .o's .init_array) is listed in the image,
 * in ld.so's order, for the engine to run before the reader (struct
 * sm_init).  What ld.so would not run either, or what a lone .o cannot
 * say how to run (.preinit_array in a .so, a .o's .ctors, .init,
 * .preinit_array and IFUNCs), is refused in one line.
 */
#ifndef SELFMON_ELF_LOAD_H
#define SELFMON_ELF_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* Imports a reader may use, answered by the engine from the model.  Stub k
 * is at stub_base + 16 * k. */
enum sm_stub { SM_STUB_READ, SM_STUB_SYSCALL, SM_STUB_ERRNO, SM_STUB_MEMCPY,
               SM_STUB_MEMSET, SM_STUB_CLOCK_GETTIME, SM_STUB_SYSCONF,
               SM_STUB_GETPID, SM_STUB_STACK_CHK_FAIL, SM_STUB_ABORT,
               SM_STUB_STACK_CHK_GUARD, SM_STUB_CXA_ATEXIT, SM_NSTUBS };
extern const char *const sm_stub_names[SM_NSTUBS];

#define SM_PROT_R 1
#define SM_PROT_W 2
#define SM_PROT_X 4

struct sm_segment {
	uint64_t off, size; /* within the image, page-aligned */
	unsigned prot;      /* SM_PROT_* */
};

/* An allocated section of a relocatable object, as placed in the image:
 * where its source lines are (srcline.c). */
struct sm_image_section {
	uint32_t shndx;
	uint64_t addr, size;
};

/* Code to run at load time, as ld.so runs it: first every IFUNC
 * resolver a relocation names (elf/dl-reloc.c, in relocation order), its
 * result stored at `place` plus `addend`; then DT_INIT, then each
 * DT_INIT_ARRAY entry (elf/dl-init.c call_init()); then the resolvers of
 * the requested entry points, as a dlsym() after dlopen() would. */
enum sm_init_kind { SM_INIT_CALL, SM_INIT_SLOT, SM_INIT_ENTRY, SM_INIT_ENTRY2 };
struct sm_init {
	enum sm_init_kind kind;
	uint64_t fn;          /* the function or resolver's address */
	uint64_t place;       /* SM_INIT_SLOT: the 8-byte word it sets */
	uint64_t addend;
	char what[64];        /* "DT_INIT_ARRAY[2]", "the IFUNC 'f'" */
};
#define SM_INIT_MAX 256u   /* more is refused at load */

struct sm_image {
	enum sm_arch arch;
	uint64_t base;       /* load address of mem[0] */
	uint8_t *mem;        /* the loaded image (malloc'ed) */
	uint64_t size;       /* bytes, a multiple of 4096 */
	struct sm_segment seg[16];
	unsigned nseg;
	uint64_t entry;      /* address of the requested function */
	uint64_t entry2;     /* of the second of "FIRST,SECOND" (0: none) */
	/* where the code came from, for its source lines (srcline.c): */
	char *path;          /* the file (malloc'ed; NULL: from memory) */
	uint64_t vaddr_lo;   /* a .so: the vaddr of mem[0] */
	struct sm_image_section *sec; /* a .o: its placed sections */
	size_t nsec;
	struct sm_init *init; /* code to run at load time (malloc'ed) */
	size_t ninit;
};

/* symbol is one function's name, or "FIRST,SECOND" for a two-call ABI
 * (entry and entry2).  0, or -1 with one line "PATH: reason" in err
 * (nothing allocated). */
int sm_elf_load(const char *path, const char *symbol, uint64_t base,
                uint64_t stub_base, struct sm_image *img, char *err,
                size_t errlen);
/* The same from bytes in memory (`name` for messages): the fuzz target. */
int sm_elf_load_mem(const void *data, size_t len, const char *name,
                    const char *symbol, uint64_t base, uint64_t stub_base,
                    struct sm_image *img, char *err, size_t errlen);
void sm_image_free(struct sm_image *img);

#endif
