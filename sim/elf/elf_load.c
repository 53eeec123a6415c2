/*
 * elf_load.c — loading a user's reader from an ELF object (elf_load.h).
 *
 * Owns: reading ELF64 little-endian relocatable objects (.o) and shared
 * objects (.so) for x86-64, arm64 and riscv64 with libelf; laying them out
 * as one image at `base`; resolving symbols; binding the imports selfmon
 * provides to stub addresses; applying relocations, driven by one table per
 * arch (what each type computes and which instruction or data field it
 * patches); listing the code ld.so would run at load time (IFUNC
 * resolvers, initialisers: struct sm_init) for the engine, and refusing
 * what cannot be listed so; and the loader's one-line error messages.
 *
 * Must not touch: the engines, the model or the session.  It runs nothing
 * and maps nothing in Unicorn.  It keeps no global mutable state (every
 * call has its own context), so concurrent loads are safe.
 *
 * Layout of a .o (ET_REL): up to three page-aligned segments, in this order:
 *   code   R|X  SHF_EXECINSTR sections, then branch veneers (see below);
 *   rodata R    other read-only SHF_ALLOC sections, then the GOT: one 8-byte
 *               slot per distinct symbol referenced through the GOT, filled
 *               here with the symbol's address (nothing writes it later);
 *   data   R|W  SHF_WRITE sections (SHT_NOBITS zero-filled), then COMMON
 *               symbols.
 * A veneer (arm64, x86-64) is a 16-byte indirect jump to an import, used by
 * a call or jump whose direct offset cannot reach the stub (an arm64 `bl`
 * reaches +-128 MiB).  No relaxation is ever done: riscv's R_RISCV_RELAX and
 * R_RISCV_ALIGN are ignored, the assembler's NOP padding stays valid because
 * section alignment is honoured.
 *
 * A .so (ET_DYN) is mapped by its PT_LOAD segments at base + (p_vaddr - the
 * lowest PT_LOAD page); the dynamic relocations of its SHF_ALLOC SHT_RELA
 * sections (.rela.dyn, .rela.plt) are applied against their sh_link symbol
 * table (.dynsym).
 *
 * Hostile input: every offset, size and index read from the file is
 * checked before use; inconsistencies are "truncated or corrupt ELF".
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_load.h"
#include "input.h"

#define PAGE 4096u
#define MAX_IMAGE ((uint64_t)64 << 20) /* bytes of one image */
#define MAX_FILE SM_ELF_MAX_BYTES   /* bytes of one input file */
#define MAX_SEG (sizeof(((struct sm_image *)0)->seg) / \
                 sizeof(struct sm_segment))
#define VENEER_SIZE 16u

const char *const sm_stub_names[SM_NSTUBS] = {
	[SM_STUB_READ] = "read",
	[SM_STUB_SYSCALL] = "syscall",
	[SM_STUB_ERRNO] = "__errno_location",
	[SM_STUB_MEMCPY] = "memcpy",
	[SM_STUB_MEMSET] = "memset",
	[SM_STUB_CLOCK_GETTIME] = "clock_gettime",
	[SM_STUB_SYSCONF] = "sysconf",
	[SM_STUB_GETPID] = "getpid",
	[SM_STUB_STACK_CHK_FAIL] = "__stack_chk_fail",
	[SM_STUB_ABORT] = "abort",
	[SM_STUB_STACK_CHK_GUARD] = "__stack_chk_guard",
	[SM_STUB_CXA_ATEXIT] = "__cxa_atexit",
};

/* ---- relocation tables -------------------------------------------------- */

/* What a relocation computes, in psABI notation: S the symbol's address,
 * A the addend, P the place, B the load bias, G the address of the
 * symbol's GOT slot, GOT the GOT's base. */
enum rval {
	V_UNSUP,    /* known by name, not supported */
	V_NONE,     /* nothing to do */
	V_S,        /* S */
	V_S_A,      /* S + A */
	V_S_A_P,    /* S + A - P */
	V_B_A,      /* B + A */
	V_G_A_P,    /* G + A - P (arm64: G - P, the slot holds S + A) */
	V_GOT_A_P,  /* GOT + A - P */
	V_PAGE_S_A, /* Page(S + A) - Page(P) */
	V_PAGE_G,   /* Page(G) - Page(P) */
	V_G,        /* G */
	V_PCREL_LO, /* riscv: the value of the HI20 relocation at address S */
	V_IREL,     /* the result of the resolver at B + A (a .so's IRELATIVE) */
};

/* Where the value goes. */
enum rfield {
	F_NONE,
	F_W6, F_W8, F_W16, F_W32, F_W64, /* data, truncated, no check */
	F_W32X,                          /* 32 bits, signed or unsigned */
	F_W32U,                          /* 32 bits, unsigned */
	F_W32S,                          /* 32 bits, signed */
	F_A64_B26, F_A64_B19, F_A64_B14, /* branch offset / 4 */
	F_A64_ADR,                       /* adr: 21-bit byte offset */
	F_A64_ADRP, F_A64_ADRP_NC,       /* adrp: 21-bit page offset */
	F_A64_LO12,                      /* add/ldr/str imm12 = lo12 >> shift */
	F_RV_HI20, F_RV_LO12_I, F_RV_LO12_S, /* lui/auipc, I-type, S-type */
	F_RV_B, F_RV_J,                  /* conditional branch, jal */
	F_RV_CALL,                       /* auipc + jalr pair */
	F_RV_CB, F_RV_CJ,                /* c.beqz/c.bnez, c.j */
	NFIELDS
};

/* Bytes each field occupies at the place. */
static const uint8_t field_bytes[NFIELDS] = {
	[F_NONE] = 0, [F_W6] = 1, [F_W8] = 1, [F_W16] = 2, [F_W32] = 4,
	[F_W64] = 8, [F_W32X] = 4, [F_W32U] = 4, [F_W32S] = 4,
	[F_A64_B26] = 4, [F_A64_B19] = 4, [F_A64_B14] = 4, [F_A64_ADR] = 4,
	[F_A64_ADRP] = 4, [F_A64_ADRP_NC] = 4, [F_A64_LO12] = 4,
	[F_RV_HI20] = 4, [F_RV_LO12_I] = 4, [F_RV_LO12_S] = 4, [F_RV_B] = 4,
	[F_RV_J] = 4, [F_RV_CALL] = 8, [F_RV_CB] = 2, [F_RV_CJ] = 2,
};

enum rop { OP_SET, OP_ADD, OP_SUB }; /* data fields: store, +=, -= */

#define RF_VENEER 1u /* a call or jump: may go through a veneer */
#define RF_HI 2u     /* riscv HI20 that PCREL_LO12 relocations refer to */
#define RF_IFUNC 4u  /* an IFUNC's IRELATIVE: only in a .so */

struct rtype {
	uint32_t type;
	const char *name;
	uint8_t val, field, op, shift, flags;
};

#define R(t, v, f) { t, #t, v, f, OP_SET, 0, 0 }
#define RF(t, v, f, fl) { t, #t, v, f, OP_SET, 0, fl }
#define RS(t, sh) { t, #t, V_S_A, F_A64_LO12, OP_SET, sh, 0 }
#define ROP(t, f, op) { t, #t, V_S_A, f, op, 0, 0 }
#define RU(t) { t, #t, V_UNSUP, F_NONE, OP_SET, 0, 0 }
#define RI(t) { t, #t, V_IREL, F_W64, OP_SET, 0, RF_IFUNC }

static const struct rtype x86_64_types[] = {
	R(R_X86_64_NONE, V_NONE, F_NONE),
	R(R_X86_64_64, V_S_A, F_W64),
	R(R_X86_64_PC32, V_S_A_P, F_W32S),
	RF(R_X86_64_PLT32, V_S_A_P, F_W32S, RF_VENEER),
	R(R_X86_64_32, V_S_A, F_W32U),
	R(R_X86_64_32S, V_S_A, F_W32S),
	R(R_X86_64_PC64, V_S_A_P, F_W64),
	R(R_X86_64_GOTPCREL, V_G_A_P, F_W32S),
	R(R_X86_64_GOTPCRELX, V_G_A_P, F_W32S),
	R(R_X86_64_REX_GOTPCRELX, V_G_A_P, F_W32S),
	R(R_X86_64_GOTPC32, V_GOT_A_P, F_W32S),
	R(R_X86_64_RELATIVE, V_B_A, F_W64),
	R(R_X86_64_GLOB_DAT, V_S, F_W64),
	R(R_X86_64_JUMP_SLOT, V_S, F_W64),
	RU(R_X86_64_GOT32), RU(R_X86_64_COPY), RU(R_X86_64_16),
	RU(R_X86_64_PC16), RU(R_X86_64_8), RU(R_X86_64_PC8),
	RU(R_X86_64_DTPMOD64), RU(R_X86_64_DTPOFF64), RU(R_X86_64_TPOFF64),
	RU(R_X86_64_TLSGD), RU(R_X86_64_TLSLD), RU(R_X86_64_DTPOFF32),
	RU(R_X86_64_GOTTPOFF), RU(R_X86_64_TPOFF32), RU(R_X86_64_GOTOFF64),
	RU(R_X86_64_GOTPCREL64), RU(R_X86_64_GOTPC64), RU(R_X86_64_GOTPLT64),
	RU(R_X86_64_PLTOFF64), RU(R_X86_64_SIZE32), RU(R_X86_64_SIZE64),
	RU(R_X86_64_GOTPC32_TLSDESC), RU(R_X86_64_TLSDESC_CALL),
	RU(R_X86_64_TLSDESC), RI(R_X86_64_IRELATIVE),
};

static const struct rtype aarch64_types[] = {
	R(R_AARCH64_NONE, V_NONE, F_NONE),
	R(R_AARCH64_ABS64, V_S_A, F_W64),
	R(R_AARCH64_ABS32, V_S_A, F_W32X),
	R(R_AARCH64_PREL64, V_S_A_P, F_W64),
	R(R_AARCH64_PREL32, V_S_A_P, F_W32X),
	RF(R_AARCH64_CALL26, V_S_A_P, F_A64_B26, RF_VENEER),
	RF(R_AARCH64_JUMP26, V_S_A_P, F_A64_B26, RF_VENEER),
	R(R_AARCH64_CONDBR19, V_S_A_P, F_A64_B19),
	R(R_AARCH64_TSTBR14, V_S_A_P, F_A64_B14),
	R(R_AARCH64_ADR_PREL_LO21, V_S_A_P, F_A64_ADR),
	R(R_AARCH64_ADR_PREL_PG_HI21, V_PAGE_S_A, F_A64_ADRP),
	R(R_AARCH64_ADR_PREL_PG_HI21_NC, V_PAGE_S_A, F_A64_ADRP_NC),
	RS(R_AARCH64_ADD_ABS_LO12_NC, 0),
	RS(R_AARCH64_LDST8_ABS_LO12_NC, 0),
	RS(R_AARCH64_LDST16_ABS_LO12_NC, 1),
	RS(R_AARCH64_LDST32_ABS_LO12_NC, 2),
	RS(R_AARCH64_LDST64_ABS_LO12_NC, 3),
	RS(R_AARCH64_LDST128_ABS_LO12_NC, 4),
	R(R_AARCH64_ADR_GOT_PAGE, V_PAGE_G, F_A64_ADRP),
	{ R_AARCH64_LD64_GOT_LO12_NC, "R_AARCH64_LD64_GOT_LO12_NC", V_G,
	  F_A64_LO12, OP_SET, 3, 0 },
	R(R_AARCH64_RELATIVE, V_B_A, F_W64),
	R(R_AARCH64_GLOB_DAT, V_S_A, F_W64),
	R(R_AARCH64_JUMP_SLOT, V_S_A, F_W64),
	RU(R_AARCH64_ABS16), RU(R_AARCH64_PREL16), RU(R_AARCH64_LD_PREL_LO19),
	RU(R_AARCH64_MOVW_UABS_G0), RU(R_AARCH64_MOVW_UABS_G0_NC),
	RU(R_AARCH64_MOVW_UABS_G1), RU(R_AARCH64_MOVW_UABS_G1_NC),
	RU(R_AARCH64_MOVW_UABS_G2), RU(R_AARCH64_MOVW_UABS_G2_NC),
	RU(R_AARCH64_MOVW_UABS_G3), RU(R_AARCH64_GOT_LD_PREL19),
	RU(R_AARCH64_LD64_GOTPAGE_LO15), RU(R_AARCH64_TLSGD_ADR_PAGE21),
	RU(R_AARCH64_TLSGD_ADD_LO12_NC), RU(R_AARCH64_TLSIE_ADR_GOTTPREL_PAGE21),
	RU(R_AARCH64_TLSIE_LD64_GOTTPREL_LO12_NC),
	RU(R_AARCH64_TLSLE_ADD_TPREL_HI12), RU(R_AARCH64_TLSLE_ADD_TPREL_LO12),
	RU(R_AARCH64_TLSLE_ADD_TPREL_LO12_NC), RU(R_AARCH64_TLSDESC_ADR_PAGE21),
	RU(R_AARCH64_TLSDESC_LD64_LO12), RU(R_AARCH64_TLSDESC_ADD_LO12),
	RU(R_AARCH64_TLSDESC_CALL), RU(R_AARCH64_COPY),
	RU(R_AARCH64_TLS_DTPMOD), RU(R_AARCH64_TLS_DTPREL),
	RU(R_AARCH64_TLS_TPREL), RU(R_AARCH64_TLSDESC), RI(R_AARCH64_IRELATIVE),
};

static const struct rtype riscv_types[] = {
	R(R_RISCV_NONE, V_NONE, F_NONE),
	R(R_RISCV_32, V_S_A, F_W32X),
	R(R_RISCV_64, V_S_A, F_W64),
	R(R_RISCV_BRANCH, V_S_A_P, F_RV_B),
	R(R_RISCV_JAL, V_S_A_P, F_RV_J),
	R(R_RISCV_CALL, V_S_A_P, F_RV_CALL),
	R(R_RISCV_CALL_PLT, V_S_A_P, F_RV_CALL),
	RF(R_RISCV_GOT_HI20, V_G_A_P, F_RV_HI20, RF_HI),
	RF(R_RISCV_PCREL_HI20, V_S_A_P, F_RV_HI20, RF_HI),
	R(R_RISCV_PCREL_LO12_I, V_PCREL_LO, F_RV_LO12_I),
	R(R_RISCV_PCREL_LO12_S, V_PCREL_LO, F_RV_LO12_S),
	R(R_RISCV_HI20, V_S_A, F_RV_HI20),
	R(R_RISCV_LO12_I, V_S_A, F_RV_LO12_I),
	R(R_RISCV_LO12_S, V_S_A, F_RV_LO12_S),
	ROP(R_RISCV_ADD8, F_W8, OP_ADD),
	ROP(R_RISCV_ADD16, F_W16, OP_ADD),
	ROP(R_RISCV_ADD32, F_W32, OP_ADD),
	ROP(R_RISCV_ADD64, F_W64, OP_ADD),
	ROP(R_RISCV_SUB6, F_W6, OP_SUB),
	ROP(R_RISCV_SUB8, F_W8, OP_SUB),
	ROP(R_RISCV_SUB16, F_W16, OP_SUB),
	ROP(R_RISCV_SUB32, F_W32, OP_SUB),
	ROP(R_RISCV_SUB64, F_W64, OP_SUB),
	ROP(R_RISCV_SET6, F_W6, OP_SET),
	ROP(R_RISCV_SET8, F_W8, OP_SET),
	ROP(R_RISCV_SET16, F_W16, OP_SET),
	ROP(R_RISCV_SET32, F_W32, OP_SET),
	R(R_RISCV_32_PCREL, V_S_A_P, F_W32S),
	R(R_RISCV_RVC_BRANCH, V_S_A_P, F_RV_CB),
	R(R_RISCV_RVC_JUMP, V_S_A_P, F_RV_CJ),
	R(R_RISCV_RELAX, V_NONE, F_NONE),
	R(R_RISCV_ALIGN, V_NONE, F_NONE),
	R(R_RISCV_RELATIVE, V_B_A, F_W64),
	R(R_RISCV_JUMP_SLOT, V_S, F_W64),
	RU(R_RISCV_COPY), RU(R_RISCV_TLS_DTPMOD64), RU(R_RISCV_TLS_DTPREL64),
	RU(R_RISCV_TLS_TPREL64), RU(R_RISCV_TLS_GOT_HI20),
	RU(R_RISCV_TLS_GD_HI20), RU(R_RISCV_TPREL_HI20),
	RU(R_RISCV_TPREL_LO12_I), RU(R_RISCV_TPREL_LO12_S),
	RU(R_RISCV_TPREL_ADD), RU(R_RISCV_RVC_LUI), RU(R_RISCV_GPREL_I),
	RU(R_RISCV_GPREL_S), RI(R_RISCV_IRELATIVE),
};

/* x86-64: jmp *0(%rip) then the target; arm64: ldr x16, .+8; br x16 then
 * the target (x16 is the intra-procedure-call scratch register). */
static const uint8_t x86_64_veneer[VENEER_SIZE] = {
	0xff, 0x25, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xcc, 0xcc };
static const uint8_t aarch64_veneer[VENEER_SIZE] = {
	0x50, 0x00, 0x00, 0x58, 0x00, 0x02, 0x1f, 0xd6 };

struct arch {
	uint16_t machine;
	enum sm_arch arch;
	const struct rtype *types;
	size_t ntypes;
	bool slot_addend;      /* GOT slots and veneers hold S + A (arm64) */
	const uint8_t *veneer; /* VENEER_SIZE bytes, or NULL: no veneers */
	unsigned veneer_at;    /* where the 8-byte target goes in it */
};

#define NTYPES(a) (sizeof(a) / sizeof((a)[0]))

static const struct arch arches[] = {
	{ EM_X86_64, SM_X86_64, x86_64_types, NTYPES(x86_64_types), false,
	  x86_64_veneer, 6 },
	{ EM_AARCH64, SM_ARM64, aarch64_types, NTYPES(aarch64_types), true,
	  aarch64_veneer, 8 },
	{ EM_RISCV, SM_RISCV64, riscv_types, NTYPES(riscv_types), false, NULL,
	  0 },
};

/* ---- the loader's context ----------------------------------------------- */

struct ref { /* a GOT slot or a veneer: symbol index and addend */
	uint64_t sym;
	int64_t addend;
};

struct hi { /* riscv: value of the HI20 relocation at place p */
	uint64_t p, val;
};

struct common { /* address given to a COMMON symbol */
	uint64_t sym, addr;
};

struct symtab {
	size_t sec; /* section index, 0 if none */
	Elf_Data *data;
	size_t n;   /* symbols */
	size_t str; /* string table section */
};

struct refs {
	struct ref *v;
	size_t n, cap;
};

struct ld {
	const char *path;
	char *err;
	size_t errlen;
	uint8_t *file;
	size_t fsize;
	Elf *elf;
	GElf_Ehdr eh;
	const struct arch *arch;
	uint64_t base, stub_base;
	uint64_t bias;  /* B: address minus vaddr */
	size_t shnum;
	GElf_Shdr *sh;  /* all section headers */
	struct sm_image img;
	GElf_Sym entry; /* the requested symbol */
	GElf_Sym entry2; /* the second of "FIRST,SECOND" (two-call ABIs) */
	/* ET_REL */
	uint64_t *secaddr; /* address of each SHF_ALLOC section */
	struct symtab sym;
	struct refs got, ven;
	uint64_t got_addr, ven_addr;
	struct common *com;
	size_t ncom;
	/* ET_DYN */
	uint64_t lo; /* vaddr of mem[0] */
	/* the code to run at load time, in the order ld.so runs it */
	struct sm_init *init;
	size_t ninit, initcap;
};

/* One relocation section being applied. */
struct rsec {
	size_t idx;
	Elf_Data *data;
	size_t n;
	struct symtab sym;
	uint64_t addr;     /* address r_offset is relative to */
	uint64_t min, max; /* allowed r_offset range */
	struct hi *hi;     /* sorted by p */
	size_t nhi, hicap;
};

/* ---- errors ------------------------------------------------------------- */

/* "PATH: message", on one line whatever the path or the file contains. */
__attribute__((format(printf, 2, 3)))
static int fail(struct ld *L, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	if (!L->err || !L->errlen)
		return -1;
	snprintf(L->err, L->errlen, "%s: ", L->path);
	n = strlen(L->err);
	va_start(ap, fmt);
	vsnprintf(L->err + n, L->errlen - n, fmt, ap);
	va_end(ap);
	for (char *c = L->err; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	return -1;
}

__attribute__((format(printf, 2, 3)))
static int corrupt(struct ld *L, const char *fmt, ...)
{
	char what[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return fail(L, "truncated or corrupt ELF (%s)", what);
}

static int too_big(struct ld *L)
{
	return corrupt(L, "image over %" PRIu64 " MiB", MAX_IMAGE >> 20);
}

/* ---- small helpers ------------------------------------------------------ */

static uint64_t get_le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static void put_le(uint8_t *p, unsigned n, uint64_t v)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t page_down(uint64_t v)
{
	return v & ~(uint64_t)(PAGE - 1);
}

/* v rounded up to a multiple of a (a power of two), v <= MAX_IMAGE. */
static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

static bool is_pow2(uint64_t a)
{
	return a && !(a & (a - 1));
}

/* -2^(bits-1) <= (signed)v < 2^(bits-1) */
static bool sfits(uint64_t v, unsigned bits)
{
	uint64_t h = (uint64_t)1 << (bits - 1);
	return v + h < 2 * h;
}

/* Array `v` (n items used, *cap allocated) with room for one more item of
 * `size` bytes; NULL (v untouched) if out of memory. */
static void *grow(void *v, size_t n, size_t *cap, size_t size)
{
	size_t c = *cap ? 2 * *cap : 16;
	void *p;

	if (n < *cap)
		return v;
	if (c > SIZE_MAX / size || !(p = realloc(v, c * size)))
		return NULL;
	*cap = c;
	return p;
}

static int refs_push(struct refs *r, struct ref item)
{
	struct ref *v = grow(r->v, r->n, &r->cap, sizeof(*v));

	if (!v)
		return -1;
	r->v = v;
	v[r->n++] = item;
	return 0;
}

static int ref_cmp(const void *a, const void *b)
{
	const struct ref *x = a, *y = b;
	if (x->sym != y->sym)
		return x->sym < y->sym ? -1 : 1;
	return (x->addend > y->addend) - (x->addend < y->addend);
}

static void refs_unique(struct refs *r)
{
	size_t k = 0;

	if (!r->n)
		return;
	qsort(r->v, r->n, sizeof(*r->v), ref_cmp);
	for (size_t i = 1; i < r->n; i++)
		if (ref_cmp(&r->v[i], &r->v[k]))
			r->v[++k] = r->v[i];
	r->n = k + 1;
}

/* Index of (sym, addend) in a sorted, unique list, or -1. */
static long refs_find(const struct refs *r, uint64_t sym, int64_t addend)
{
	struct ref key = { sym, addend };
	const struct ref *f = r->n ? bsearch(&key, r->v, r->n, sizeof(key),
	                                     ref_cmp) : NULL;
	return f ? (long)(f - r->v) : -1;
}

/* ---- reading the file --------------------------------------------------- */

static int read_file(struct ld *L)
{
	char why[128];
	size_t n = 0;
	char *buf = sm_read_input(L->path, MAX_FILE, &n, why, sizeof(why));

	if (!buf)
		return fail(L, "%s", why);
	L->file = (uint8_t *)buf;
	L->fsize = n;
	return 0;
}

/* e_ident, before libelf sees the file. */
static int check_ident(struct ld *L)
{
	const uint8_t *id = L->file;

	if (L->fsize < SELFMAG || memcmp(id, ELFMAG, SELFMAG))
		return fail(L, "not an ELF file");
	if (L->fsize < EI_NIDENT)
		return corrupt(L, "identification");
	if (id[EI_CLASS] == ELFCLASS32)
		return fail(L, "unsupported ELF class (32-bit; selfmon loads "
		            "64-bit objects)");
	if (id[EI_CLASS] != ELFCLASS64)
		return corrupt(L, "ELF class %u", id[EI_CLASS]);
	if (id[EI_DATA] == ELFDATA2MSB)
		return fail(L, "big-endian ELF is not supported");
	if (id[EI_DATA] != ELFDATA2LSB)
		return corrupt(L, "data encoding %u", id[EI_DATA]);
	if (L->fsize < sizeof(Elf64_Ehdr))
		return corrupt(L, "ELF header");
	return 0;
}

static int open_elf(struct ld *L)
{
	elf_version(EV_CURRENT); /* only validates the version */
	L->elf = elf_memory((char *)L->file, L->fsize);
	if (!L->elf || elf_kind(L->elf) != ELF_K_ELF)
		return corrupt(L, "headers");
	if (!gelf_getehdr(L->elf, &L->eh))
		return corrupt(L, "ELF header");
	for (size_t i = 0; i < NTYPES(arches); i++)
		if (arches[i].machine == L->eh.e_machine)
			L->arch = &arches[i];
	if (!L->arch)
		return fail(L, "unsupported machine %u (x86_64, arm64 and riscv64 "
		            "are)", L->eh.e_machine);
	if (L->eh.e_type != ET_REL && L->eh.e_type != ET_DYN)
		return fail(L, "unsupported ELF type %u (relocatable .o or shared "
		            ".so)", L->eh.e_type);
	return 0;
}

/* All section headers, each checked against the file. */
static int load_sections(struct ld *L)
{
	if (elf_getshdrnum(L->elf, &L->shnum) < 0)
		return corrupt(L, "section count");
	if (L->shnum && L->eh.e_shentsize != sizeof(Elf64_Shdr))
		return corrupt(L, "section header size %u", L->eh.e_shentsize);
	if (L->shnum > L->fsize / sizeof(Elf64_Shdr))
		return corrupt(L, "%zu section headers", L->shnum);
	if (!L->shnum)
		return 0;
	if (!(L->sh = calloc(L->shnum, sizeof(*L->sh))) ||
	    !(L->secaddr = calloc(L->shnum, sizeof(*L->secaddr))))
		return fail(L, "out of memory");
	for (size_t i = 0; i < L->shnum; i++) {
		Elf_Scn *scn = elf_getscn(L->elf, i);
		GElf_Shdr *s = &L->sh[i];
		if (!scn || !gelf_getshdr(scn, s))
			return corrupt(L, "section header %zu", i);
		if (s->sh_type != SHT_NOBITS &&
		    (s->sh_offset > L->fsize || s->sh_size > L->fsize - s->sh_offset))
			return corrupt(L, "section %zu outside the file", i);
	}
	return 0;
}

/* Section data with fixed-size entries (symbols, relocations). */
static int section_data(struct ld *L, size_t sec, size_t entsize,
                        Elf_Data **data, size_t *n)
{
	const GElf_Shdr *s = &L->sh[sec];
	Elf_Data *d;

	if (s->sh_type == SHT_NOBITS || s->sh_entsize != entsize ||
	    s->sh_size % entsize)
		return corrupt(L, "entry size of section %zu", sec);
	d = elf_getdata(elf_getscn(L->elf, sec), NULL);
	if (!d || d->d_size < s->sh_size || (s->sh_size && !d->d_buf))
		return corrupt(L, "data of section %zu", sec);
	*data = d;
	*n = s->sh_size / entsize;
	return 0;
}

/* ---- symbols ------------------------------------------------------------ */

static int symtab_open(struct ld *L, size_t sec, struct symtab *t)
{
	const GElf_Shdr *s;

	memset(t, 0, sizeof(*t));
	if (!sec || sec >= L->shnum)
		return corrupt(L, "symbol table index %zu", sec);
	s = &L->sh[sec];
	if (s->sh_type != SHT_SYMTAB && s->sh_type != SHT_DYNSYM)
		return corrupt(L, "section %zu is not a symbol table", sec);
	if (!s->sh_link || s->sh_link >= L->shnum ||
	    L->sh[s->sh_link].sh_type != SHT_STRTAB)
		return corrupt(L, "string table of section %zu", sec);
	t->sec = sec;
	t->str = s->sh_link;
	return section_data(L, sec, sizeof(Elf64_Sym), &t->data, &t->n);
}

static int sym_get(struct ld *L, const struct symtab *t, uint64_t i,
                   GElf_Sym *s, const char **name)
{
	if (i >= t->n || !gelf_getsym(t->data, (int)i, s))
		return corrupt(L, "symbol index %" PRIu64, i);
	if (name && !(*name = elf_strptr(L->elf, t->str, s->st_name)))
		return corrupt(L, "name of symbol %" PRIu64, i);
	return 0;
}

/* A symbol's name for a message (never fails). */
static const char *sym_name(struct ld *L, const struct symtab *t, uint64_t i)
{
	GElf_Sym s;
	const char *name;

	if (i >= t->n || !gelf_getsym(t->data, (int)i, &s) ||
	    !(name = elf_strptr(L->elf, t->str, s.st_name)))
		return "?";
	return *name ? name : "(section)";
}

static void stub_list(char *buf, size_t n)
{
	size_t k = 0;

	buf[0] = '\0';
	for (int i = 0; i < SM_NSTUBS && k < n; i++) {
		int w = snprintf(buf + k, n - k, "%s%s",
		                 i == 0 ? "" : i == SM_NSTUBS - 1 ? " and " : ", ",
		                 sm_stub_names[i]);
		if (w < 0)
			return;
		k += (size_t)w;
	}
}

/* The import stub of that name, or -1. */
static int stub_index(const char *name)
{
	for (int k = 0; k < SM_NSTUBS; k++)
		if (!strcmp(name, sm_stub_names[k]))
			return k;
	return -1;
}

/* The error for an undefined symbol selfmon does not provide: it names
 * every such symbol of the object's table, not only the first met. */
static int unknown_imports(struct ld *L, const char *first)
{
	unsigned type = L->eh.e_type == ET_REL ? SHT_SYMTAB : SHT_DYNSYM;
	char list[160], names[400];
	size_t k = 0, count = 0;

	names[0] = '\0';
	for (size_t sec = 1; sec < L->shnum; sec++) {
		struct symtab t;
		if (L->sh[sec].sh_type != type || symtab_open(L, sec, &t) < 0)
			continue;
		for (size_t i = 1; i < t.n; i++) {
			GElf_Sym sy;
			const char *n;
			if (sym_get(L, &t, i, &sy, &n) < 0)
				break;
			if (sy.st_shndx != SHN_UNDEF || !*n || stub_index(n) >= 0 ||
			    GELF_ST_BIND(sy.st_info) == STB_WEAK ||
			    (type == SHT_SYMTAB && !strcmp(n, "_GLOBAL_OFFSET_TABLE_")))
				continue;
			if (k < sizeof(names) - 48) {
				int w = snprintf(names + k, sizeof(names) - k, "%s'%.40s'",
				                 count ? ", " : "", n);
				k += w > 0 ? (size_t)w : 0;
			} else if (k < sizeof(names) - 8) {
				k += (size_t)snprintf(names + k, sizeof(names) - k,
				                      ", ...");
			}
			count++;
		}
	}
	stub_list(list, sizeof(list));
	if (count <= 1)
		return fail(L, "undefined symbol '%s' (selfmon provides %s)", first,
		            list);
	return fail(L, "undefined symbols %s (%zu of them; selfmon provides %s)",
	            names, count, list);
}

/* An undefined symbol: one of selfmon's imports, or a weak 0. */
static int import_addr(struct ld *L, const char *name, unsigned bind,
                       uint64_t *out)
{
	int k = stub_index(name);

	if (k >= 0) {
		*out = L->stub_base + 16 * (uint64_t)k;
		return 0;
	}
	if (bind == STB_WEAK) {
		*out = 0;
		return 0;
	}
	if (L->eh.e_type == ET_REL && !strcmp(name, "_GLOBAL_OFFSET_TABLE_")) {
		*out = L->got_addr;
		return 0;
	}
	return unknown_imports(L, name);
}

static int common_addr(struct ld *L, uint64_t sym, uint64_t *out)
{
	size_t lo = 0, hi = L->ncom;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (L->com[mid].sym == sym) {
			*out = L->com[mid].addr;
			return 0;
		}
		if (L->com[mid].sym < sym)
			lo = mid + 1;
		else
			hi = mid;
	}
	return corrupt(L, "COMMON symbol %" PRIu64, sym);
}

/* The address of a defined symbol (value already fetched). */
static int defined_addr(struct ld *L, uint64_t idx, const GElf_Sym *s,
                        uint64_t *out)
{
	if (s->st_shndx == SHN_ABS) {
		*out = s->st_value;
		return 0;
	}
	if (s->st_shndx == SHN_COMMON && L->eh.e_type == ET_REL)
		return common_addr(L, idx, out);
	if (s->st_shndx >= SHN_LORESERVE || s->st_shndx >= L->shnum)
		return corrupt(L, "section index %u of symbol %" PRIu64,
		               s->st_shndx, idx);
	if (L->eh.e_type == ET_DYN) {
		*out = L->bias + s->st_value;
		return 0;
	}
	if (!(L->sh[s->st_shndx].sh_flags & SHF_ALLOC))
		return corrupt(L, "symbol %" PRIu64 " is in section %u, which is "
		               "not loaded", idx, s->st_shndx);
	*out = L->secaddr[s->st_shndx] + s->st_value;
	return 0;
}

/* S for relocations: symbol `i` of table `t`. */
static int sym_addr(struct ld *L, const struct symtab *t, uint64_t i,
                    uint64_t *out)
{
	GElf_Sym s;
	const char *name;

	*out = 0;
	if (i == 0)
		return 0;
	if (!t->sec)
		return corrupt(L, "symbol %" PRIu64 " without a symbol table", i);
	if (sym_get(L, t, i, &s, &name) < 0)
		return -1;
	if (s.st_shndx == SHN_UNDEF)
		return import_addr(L, name, GELF_ST_BIND(s.st_info), out);
	return defined_addr(L, i, &s, out);
}

static bool is_function(struct ld *L, const GElf_Sym *s)
{
	unsigned type = GELF_ST_TYPE(s->st_info);

	if (type == STT_FUNC || (type == STT_GNU_IFUNC && L->eh.e_type == ET_DYN))
		return true; /* an IFUNC: its resolver is run (struct sm_init) */
	return type == STT_NOTYPE && s->st_shndx < L->shnum &&
	       s->st_shndx < SHN_LORESERVE &&
	       (L->sh[s->st_shndx].sh_flags & SHF_EXECINSTR);
}

/* Looks `name` up in the tables of one type; 1 found, 0 not, -1 error. */
static int find_in(struct ld *L, unsigned type, const char *name,
                   bool *other)
{
	for (size_t sec = 1; sec < L->shnum; sec++) {
		struct symtab t;
		if (L->sh[sec].sh_type != type)
			continue;
		if (symtab_open(L, sec, &t) < 0)
			return -1;
		for (size_t i = 1; i < t.n; i++) {
			GElf_Sym s;
			const char *n;
			if (sym_get(L, &t, i, &s, &n) < 0)
				return -1;
			if (s.st_shndx == SHN_UNDEF || strcmp(n, name))
				continue;
			if (is_function(L, &s)) {
				L->entry = s;
				return 1;
			}
			*other = true;
		}
	}
	return 0;
}

/* The requested symbol: .symtab first, then .dynsym. */
static int find_entry(struct ld *L, const char *name)
{
	bool other = false;
	int r = find_in(L, SHT_SYMTAB, name, &other);

	if (r == 0)
		r = find_in(L, SHT_DYNSYM, name, &other);
	if (r < 0)
		return -1;
	if (r > 0)
		return 0;
	if (other)
		return fail(L, "symbol '%s' is not a function", name);
	return fail(L, "symbol '%s' not found", name);
}

static int entry_addr(struct ld *L, GElf_Sym *sym, const char *name,
                      uint64_t *out)
{
	uint64_t a;

	if (defined_addr(L, 0, sym, &a) < 0)
		return -1;
	if (a < L->img.base || a - L->img.base >= L->img.size)
		return corrupt(L, "symbol '%s' is outside the image", name);
	*out = a;
	return 0;
}

/* "FIRST,SECOND" names two functions (a two-call ABI): the second's
 * symbol into L->entry2, the first's name into first. */
static int find_entries(struct ld *L, const char *symbol, char *first,
                        size_t n, const char **second)
{
	const char *comma = strchr(symbol, ',');

	*second = comma ? comma + 1 : NULL;
	snprintf(first, n, "%.*s", comma ? (int)(comma - symbol)
	         : (int)strlen(symbol), symbol);
	if (comma) {
		if (find_entry(L, comma + 1) < 0)
			return -1;
		L->entry2 = L->entry;
	}
	return find_entry(L, first);
}

/* ---- code the dynamic loader runs at load time --------------------------- */

/* ld.so runs code of a shared object before any of its functions is
 * called: the IFUNC resolvers its relocations name (glibc elf/dl-reloc.c,
 * elf_machine_rela(): R_*_IRELATIVE, and a GLOB_DAT, JUMP_SLOT or 64-bit
 * word against an STT_GNU_IFUNC symbol), then DT_INIT and the
 * DT_INIT_ARRAY entries in order (elf/dl-init.c call_init()).  They are
 * listed here (struct sm_init) and the engine runs them.  A .o has no
 * dynamic section: its .init_array sections are run as ld would lay
 * them out (SORT_BY_INIT_PRIORITY(.init_array.*), then .init_array).
 * What is refused: a .so's DT_PREINIT_ARRAY (ld.so runs it only for the
 * executable), and in a .o the pieces whose order or meaning only a link
 * gives (.ctors, .preinit_array, .init fragments, IFUNC symbols, which
 * need a PLT).  Destructors would run after the call, if ever: they
 * change nothing selfmon judges, and are left alone. */
#define REL_IFUNC_WHY "selfmon runs the IFUNC resolvers of a shared " \
                      "object, as ld.so does, not of a .o (its calls " \
                      "need a PLT): link it with gcc -shared"
#define REL_CTOR_WHY "code to run at load time whose place only a link " \
                     "gives (selfmon runs a .o's .init_array): link it " \
                     "with gcc -shared"

static int add_init(struct ld *L, enum sm_init_kind kind, uint64_t fn,
                    uint64_t place, uint64_t addend, const char *what)
{
	struct sm_init *v;

	if (L->ninit == SM_INIT_MAX)
		return fail(L, "more than %u functions to run at load time "
		            "(initialisers and IFUNC resolvers)", SM_INIT_MAX);
	if (!(v = grow(L->init, L->ninit, &L->initcap, sizeof(*v))))
		return fail(L, "out of memory");
	L->init = v;
	v[L->ninit] = (struct sm_init){ kind, fn, place, addend, "" };
	snprintf(v[L->ninit].what, sizeof(v[L->ninit].what), "%s", what);
	L->ninit++;
	return 0;
}

/* The section name for messages, or NULL. */
static const char *sec_name(struct ld *L, size_t sec)
{
	size_t shstr = 0;

	if (elf_getshdrstrndx(L->elf, &shstr) < 0 || !shstr)
		return NULL;
	return elf_strptr(L->elf, shstr, L->sh[sec].sh_name);
}

/* Does section `name` start with `prefix`, alone or numbered
 * (.init_array.00100, .ctors.65535)?  The number, or -1 if alone. */
static bool named(const char *name, const char *prefix, long *num)
{
	size_t n = strlen(prefix);

	*num = -1;
	if (!name || strncmp(name, prefix, n))
		return false;
	if (!name[n])
		return true;
	if (name[n] != '.')
		return false;
	char *end;
	*num = strtol(name + n + 1, &end, 10);
	return *end == '\0' && *num >= 0;
}

/* A .o: refuse what only a link could place; IFUNC symbols. */
static int rel_refusals(struct ld *L)
{
	static const char *const refused[] = { ".ctors", ".preinit_array",
	                                       ".init" };
	long num;

	for (size_t sec = 1; sec < L->shnum; sec++) {
		const char *name = sec_name(L, sec);
		bool bad = L->sh[sec].sh_type == SHT_PREINIT_ARRAY;
		for (size_t k = 0; k < sizeof(refused) / sizeof(refused[0]); k++)
			bad |= named(name, refused[k], &num) &&
			       (k != 2 || num < 0);
		if (L->sh[sec].sh_size && bad)
			return fail(L, "section '%s' holds %s", name ? name : "?",
			            REL_CTOR_WHY);
	}
	if (!L->sym.sec)
		return 0;
	for (size_t i = 1; i < L->sym.n; i++) {
		GElf_Sym sy;
		if (sym_get(L, &L->sym, i, &sy, NULL) < 0)
			return -1;
		if (GELF_ST_TYPE(sy.st_info) == STT_GNU_IFUNC)
			return fail(L, "symbol '%s' is an IFUNC (GNU indirect "
			            "function): %s", sym_name(L, &L->sym, i),
			            REL_IFUNC_WHY);
	}
	return 0;
}

/* The 8-byte words [addr, addr + 8 n) of the (relocated) image. */
static int image_words(struct ld *L, uint64_t addr, uint64_t bytes,
                       const char *what, const uint8_t **out)
{
	if (bytes % 8 || addr < L->img.base ||
	    addr - L->img.base > L->img.size ||
	    bytes > L->img.size - (addr - L->img.base))
		return corrupt(L, "%s outside the image", what);
	*out = L->img.mem + (addr - L->img.base);
	return 0;
}

static int add_array(struct ld *L, uint64_t addr, uint64_t bytes,
                     const char *label)
{
	const uint8_t *w = NULL;
	char what[64];

	if (image_words(L, addr, bytes, label, &w) < 0)
		return -1;
	for (uint64_t k = 0; k < bytes / 8; k++) {
		snprintf(what, sizeof(what), "%s[%" PRIu64 "]", label, k);
		if (add_init(L, SM_INIT_CALL, get_le(w + 8 * k, 8), 0, 0,
		             what) < 0)
			return -1;
	}
	return 0;
}

static int prio_cmp(const void *a, const void *b)
{
	const long *x = a, *y = b;
	/* (priority, section): unnumbered (-1) after every numbered one */
	long px = x[0] < 0 ? LONG_MAX : x[0], py = y[0] < 0 ? LONG_MAX : y[0];
	return px != py ? (px > py) - (px < py) : (x[1] > y[1]) - (x[1] < y[1]);
}

/* A .o's .init_array sections (relocated), in ld's order. */
static int rel_inits(struct ld *L)
{
	long (*order)[2] = calloc(L->shnum ? L->shnum : 1, sizeof(*order));
	size_t n = 0;
	int r = 0;

	if (!order)
		return fail(L, "out of memory");
	for (size_t sec = 1; sec < L->shnum; sec++) {
		long num;
		bool by_name = named(sec_name(L, sec), ".init_array", &num);
		if (L->sh[sec].sh_size &&
		    (L->sh[sec].sh_type == SHT_INIT_ARRAY || by_name)) {
			order[n][0] = num;
			order[n++][1] = (long)sec;
		}
	}
	qsort(order, n, sizeof(*order), prio_cmp);
	for (size_t i = 0; i < n && r == 0; i++) {
		size_t sec = (size_t)order[i][1];
		const char *name = sec_name(L, sec);
		r = add_array(L, L->secaddr[sec], L->sh[sec].sh_size,
		              name ? name : ".init_array");
	}
	free(order);
	return r;
}

static int phdr_count(struct ld *L, size_t *phnum); /* shared objects */

/* A .so's dynamic entries that run code at load time, as ld.so reads
 * them (sections or none): DT_INIT and DT_INIT_ARRAY listed, after the
 * relocations (which hold the array's addresses). */
static int dyn_inits(struct ld *L)
{
	uint64_t init = 0, arr = 0, arrsz = 0;
	bool has_init = false;
	size_t phnum;

	if (phdr_count(L, &phnum) < 0)
		return -1;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr p;
		if (!gelf_getphdr(L->elf, (int)i, &p) || p.p_type != PT_DYNAMIC ||
		    p.p_offset > L->fsize || p.p_filesz > L->fsize - p.p_offset)
			continue;
		for (uint64_t k = 0; k + sizeof(Elf64_Dyn) <= p.p_filesz;
		     k += sizeof(Elf64_Dyn)) {
			Elf64_Dyn d;
			memcpy(&d, L->file + p.p_offset + k, sizeof(d));
			if (d.d_tag == DT_NULL)
				break;
			if (d.d_tag == DT_PREINIT_ARRAYSZ && d.d_un.d_val)
				return fail(L, "dynamic entry DT_PREINIT_ARRAY: ld.so "
				            "runs it only for an executable, not for "
				            "a shared object");
			if (d.d_tag == DT_INIT)
				has_init = true, init = d.d_un.d_ptr;
			if (d.d_tag == DT_INIT_ARRAY)
				arr = d.d_un.d_ptr;
			if (d.d_tag == DT_INIT_ARRAYSZ)
				arrsz = d.d_un.d_val;
		}
	}
	if (has_init && add_init(L, SM_INIT_CALL, L->bias + init, 0, 0,
	                         "DT_INIT") < 0)
		return -1;
	if (arrsz && (arr > UINT64_MAX - L->bias ||
	              add_array(L, L->bias + arr, arrsz, "DT_INIT_ARRAY") < 0))
		return arr > UINT64_MAX - L->bias
		       ? corrupt(L, "DT_INIT_ARRAY outside the image") : -1;
	return 0;
}

/* Is symbol i of t an IFUNC defined here? */
static bool is_ifunc(const struct symtab *t, uint64_t i)
{
	GElf_Sym sy;

	return i && t->sec && i < t->n && gelf_getsym(t->data, (int)i, &sy) &&
	       GELF_ST_TYPE(sy.st_info) == STT_GNU_IFUNC &&
	       sy.st_shndx != SHN_UNDEF;
}

/* ---- relocation values and fields -------------------------------------- */

static const struct rtype *rtype_find(const struct arch *a, uint32_t type)
{
	for (size_t i = 0; i < a->ntypes; i++)
		if (a->types[i].type == type)
			return &a->types[i];
	return NULL;
}

static bool uses_slot(const struct rtype *t)
{
	return t->val == V_G_A_P || t->val == V_PAGE_G || t->val == V_G;
}

/* Relocations a linker resolves: only in .o files. */
static bool static_only(const struct rtype *t)
{
	return uses_slot(t) || t->val == V_GOT_A_P || t->val == V_PCREL_LO;
}

static int unsupported(struct ld *L, uint32_t type, const struct rtype *t,
                       const char *why)
{
	if (t)
		return fail(L, "unsupported relocation %s (type %" PRIu32 ")%s",
		            t->name, type, why);
	return fail(L, "unsupported relocation type %" PRIu32 "%s", type, why);
}

/* The supported entry for a type, or an error. */
static int rtype_get(struct ld *L, uint32_t type, const struct rtype **out)
{
	const struct rtype *t = rtype_find(L->arch, type);

	if (!t || t->val == V_UNSUP)
		return unsupported(L, type, t, "");
	if (L->eh.e_type == ET_DYN && static_only(t))
		return unsupported(L, type, t, " in a shared object");
	if (L->eh.e_type == ET_REL && (t->flags & RF_IFUNC))
		return unsupported(L, type, t, " in a .o (an IFUNC's, which "
		                   "ld.so resolves in a shared object)");
	*out = t;
	return 0;
}

/* The addend that goes into a slot, and the one left for the reference. */
static int64_t slot_addend(const struct ld *L, int64_t a)
{
	return L->arch->slot_addend ? a : 0;
}

static int64_t ref_addend(const struct ld *L, int64_t a)
{
	return L->arch->slot_addend ? 0 : a;
}

enum { FIT_OK, FIT_RANGE, FIT_ALIGN };

static int fit(bool aligned, bool in_range)
{
	return !aligned ? FIT_ALIGN : in_range ? FIT_OK : FIT_RANGE;
}

static int field_check(const struct rtype *t, uint64_t v)
{
	switch (t->field) {
	case F_W32X: return fit(true, sfits(v, 32) || v <= UINT32_MAX);
	case F_W32U: return fit(true, v <= UINT32_MAX);
	case F_W32S: return fit(true, sfits(v, 32));
	case F_A64_B26: return fit(!(v & 3), sfits(v, 28));
	case F_A64_B19: return fit(!(v & 3), sfits(v, 21));
	case F_A64_B14: return fit(!(v & 3), sfits(v, 16));
	case F_A64_ADR: return fit(true, sfits(v, 21));
	case F_A64_ADRP: return fit(true, sfits(v, 33));
	case F_A64_LO12: return fit(!(v & ((1u << t->shift) - 1)), true);
	case F_RV_HI20:
	case F_RV_CALL: return fit(true, sfits(v + 0x800, 32));
	case F_RV_B: return fit(!(v & 1), sfits(v, 13));
	case F_RV_J: return fit(!(v & 1), sfits(v, 21));
	case F_RV_CB: return fit(!(v & 1), sfits(v, 9));
	case F_RV_CJ: return fit(!(v & 1), sfits(v, 12));
	default: return FIT_OK;
	}
}

static uint32_t bits(uint64_t v, unsigned hi, unsigned lo)
{
	return (uint32_t)((v >> lo) & ((1ull << (hi - lo + 1)) - 1));
}

/* adr/adrp: immlo in bits 30:29, immhi in bits 23:5. */
static uint32_t a64_imm21(uint32_t insn, uint64_t imm)
{
	return (insn & 0x9f00001fu) | bits(imm, 1, 0) << 29 |
	       bits(imm, 20, 2) << 5;
}

static uint32_t rv_u(uint32_t insn, uint64_t v)
{
	return (insn & 0xfffu) | bits(v + 0x800, 31, 12) << 12;
}

static uint32_t rv_i(uint32_t insn, uint64_t v)
{
	return (insn & 0xfffffu) | bits(v, 11, 0) << 20;
}

static uint32_t rv_s(uint32_t insn, uint64_t v)
{
	return (insn & 0x1fff07fu) | bits(v, 11, 5) << 25 | bits(v, 4, 0) << 7;
}

static uint32_t rv_b(uint32_t insn, uint64_t v)
{
	return (insn & 0x1fff07fu) | bits(v, 12, 12) << 31 |
	       bits(v, 10, 5) << 25 | bits(v, 4, 1) << 8 | bits(v, 11, 11) << 7;
}

static uint32_t rv_j(uint32_t insn, uint64_t v)
{
	return (insn & 0xfffu) | bits(v, 20, 20) << 31 | bits(v, 10, 1) << 21 |
	       bits(v, 11, 11) << 20 | bits(v, 19, 12) << 12;
}

static uint32_t rv_cb(uint32_t insn, uint64_t v)
{
	return (insn & 0xe383u) | bits(v, 8, 8) << 12 | bits(v, 4, 3) << 10 |
	       bits(v, 7, 6) << 5 | bits(v, 2, 1) << 3 | bits(v, 5, 5) << 2;
}

static uint32_t rv_cj(uint32_t insn, uint64_t v)
{
	return (insn & 0xe003u) | bits(v, 11, 11) << 12 | bits(v, 4, 4) << 11 |
	       bits(v, 9, 8) << 9 | bits(v, 10, 10) << 8 | bits(v, 6, 6) << 7 |
	       bits(v, 7, 7) << 6 | bits(v, 3, 1) << 3 | bits(v, 5, 5) << 2;
}

/* A 32-bit instruction with the value in its immediate. */
static uint32_t insn_put(const struct rtype *t, uint32_t insn, uint64_t v)
{
	switch (t->field) {
	case F_A64_B26: return (insn & 0xfc000000u) | bits(v, 27, 2);
	case F_A64_B19: return (insn & 0xff00001fu) | bits(v, 20, 2) << 5;
	case F_A64_B14: return (insn & 0xfff8001fu) | bits(v, 15, 2) << 5;
	case F_A64_ADR: return a64_imm21(insn, v);
	case F_A64_ADRP:
	case F_A64_ADRP_NC: return a64_imm21(insn, v >> 12);
	case F_A64_LO12:
		return (insn & 0xffc003ffu) | bits(v, 11, t->shift) << 10;
	case F_RV_HI20: return rv_u(insn, v);
	case F_RV_LO12_I: return rv_i(insn, v);
	case F_RV_LO12_S: return rv_s(insn, v);
	case F_RV_B: return rv_b(insn, v);
	case F_RV_J: return rv_j(insn, v);
	default: return insn;
	}
}

static uint64_t data_op(unsigned op, uint64_t cur, uint64_t v)
{
	return op == OP_ADD ? cur + v : op == OP_SUB ? cur - v : v;
}

static void field_put(const struct rtype *t, uint8_t *p, uint64_t v)
{
	unsigned n = field_bytes[t->field];

	switch (t->field) {
	case F_NONE:
		return;
	case F_W6:
		p[0] = (uint8_t)((p[0] & 0xc0) |
		                 (data_op(t->op, p[0] & 0x3f, v) & 0x3f));
		return;
	case F_W8: case F_W16: case F_W32: case F_W64:
	case F_W32X: case F_W32U: case F_W32S:
		put_le(p, n, data_op(t->op, get_le(p, n), v));
		return;
	case F_RV_CALL:
		put_le(p, 4, rv_u((uint32_t)get_le(p, 4), v));
		put_le(p + 4, 4, rv_i((uint32_t)get_le(p + 4, 4), v));
		return;
	case F_RV_CB:
		put_le(p, 2, rv_cb((uint32_t)get_le(p, 2), v));
		return;
	case F_RV_CJ:
		put_le(p, 2, rv_cj((uint32_t)get_le(p, 2), v));
		return;
	default:
		put_le(p, 4, insn_put(t, (uint32_t)get_le(p, 4), v));
		return;
	}
}

/* ---- applying relocations ----------------------------------------------- */

static int slot_of(struct ld *L, const struct rsec *rs, uint64_t sym,
                   int64_t a, uint64_t *out)
{
	long k = refs_find(&L->got, sym, slot_addend(L, a));

	if (k < 0)
		return corrupt(L, "GOT reference in section %zu", rs->idx);
	*out = L->got_addr + 8 * (uint64_t)k;
	return 0;
}

static int hi_cmp(const void *a, const void *b)
{
	const struct hi *x = a, *y = b;
	return (x->p > y->p) - (x->p < y->p);
}

/* riscv %pcrel_lo: S labels the auipc whose HI20 relocation gives the
 * value (the addend, normally 0, is ignored as linkers do). */
static int pcrel_lo(struct ld *L, const struct rsec *rs, uint64_t S,
                    uint64_t *out)
{
	struct hi key = { S, 0 };
	const struct hi *h = rs->nhi ? bsearch(&key, rs->hi, rs->nhi,
	                                       sizeof(key), hi_cmp) : NULL;

	if (!h)
		return corrupt(L, "no HI20 relocation at 0x%" PRIx64
		               " for a PCREL_LO12 in section %zu", S, rs->idx);
	*out = h->val;
	return 0;
}

/* A call or jump that cannot reach its target: through its veneer. */
static void via_veneer(struct ld *L, const struct rtype *t, uint64_t sym,
                       int64_t a, uint64_t P, uint64_t *v)
{
	long k;

	if (!(t->flags & RF_VENEER) || field_check(t, *v) == FIT_OK ||
	    (k = refs_find(&L->ven, sym, slot_addend(L, a))) < 0)
		return;
	*v = L->ven_addr + VENEER_SIZE * (uint64_t)k +
	     (uint64_t)ref_addend(L, a) - P;
}

static int reloc_value(struct ld *L, const struct rsec *rs,
                       const struct rtype *t, const GElf_Rela *r, uint64_t P,
                       uint64_t *v)
{
	uint64_t sym = GELF_R_SYM(r->r_info), S, G = 0;
	uint64_t A = (uint64_t)r->r_addend;

	if (sym_addr(L, &rs->sym, sym, &S) < 0)
		return -1;
	if (uses_slot(t) && slot_of(L, rs, sym, r->r_addend, &G) < 0)
		return -1;
	switch (t->val) {
	case V_S: *v = S; break;
	case V_S_A: *v = S + A; break;
	case V_S_A_P:
		*v = S + A - P;
		via_veneer(L, t, sym, r->r_addend, P, v);
		break;
	case V_B_A: *v = L->bias + A; break;
	case V_G_A_P: *v = G + (uint64_t)ref_addend(L, r->r_addend) - P; break;
	case V_GOT_A_P: *v = L->got_addr + A - P; break;
	case V_PAGE_S_A: *v = page_down(S + A) - page_down(P); break;
	case V_PAGE_G: *v = page_down(G) - page_down(P); break;
	case V_G: *v = G; break;
	case V_PCREL_LO: return pcrel_lo(L, rs, S, v);
	case V_IREL: *v = L->bias + A; break; /* the resolver: apply_all() */
	default: *v = 0; break;
	}
	return 0;
}

static bool in_segment(const struct ld *L, uint64_t off, uint64_t n)
{
	for (unsigned i = 0; i < L->img.nseg; i++) {
		const struct sm_segment *g = &L->img.seg[i];
		if (off >= g->off && off - g->off <= g->size &&
		    n <= g->size - (off - g->off))
			return true;
	}
	return false;
}

/* Fetches relocation i and its type; *t = NULL for ones to skip. */
static int reloc_get(struct ld *L, const struct rsec *rs, size_t i,
                     GElf_Rela *r, const struct rtype **t)
{
	unsigned n;

	if (!gelf_getrela(rs->data, (int)i, r))
		return corrupt(L, "relocation %zu of section %zu", i, rs->idx);
	if (rtype_get(L, (uint32_t)GELF_R_TYPE(r->r_info), t) < 0)
		return -1;
	if ((*t)->val == V_NONE) {
		*t = NULL;
		return 0;
	}
	n = field_bytes[(*t)->field];
	if (r->r_offset < rs->min || r->r_offset > rs->max ||
	    n > rs->max - r->r_offset ||
	    !in_segment(L, rs->addr + r->r_offset - L->img.base, n))
		return corrupt(L, "relocation %zu of section %zu outside its "
		               "section", i, rs->idx);
	return 0;
}

static int reloc_error(struct ld *L, const struct rsec *rs,
                       const struct rtype *t, const GElf_Rela *r, uint64_t P,
                       int why)
{
	return fail(L, "%s (%s at 0x%" PRIx64 " against '%s')",
	            why == FIT_ALIGN ? "misaligned relocation target"
	                             : "relocation out of range",
	            t->name, P, sym_name(L, &rs->sym, GELF_R_SYM(r->r_info)));
}

/* riscv: the values of the HI20 relocations, for %pcrel_lo. */
static int collect_hi(struct ld *L, struct rsec *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		const struct rtype *t;
		GElf_Rela r;
		struct hi h;
		if (reloc_get(L, rs, i, &r, &t) < 0)
			return -1;
		if (!t || !(t->flags & RF_HI))
			continue;
		h.p = rs->addr + r.r_offset;
		if (reloc_value(L, rs, t, &r, h.p, &h.val) < 0)
			return -1;
		struct hi *v = grow(rs->hi, rs->nhi, &rs->hicap, sizeof(*v));
		if (!v)
			return fail(L, "out of memory");
		rs->hi = v;
		v[rs->nhi++] = h;
	}
	if (rs->nhi)
		qsort(rs->hi, rs->nhi, sizeof(*rs->hi), hi_cmp);
	return 0;
}

/* A relocation whose value is an IFUNC resolver's result: listed for the
 * engine to run (the word 0 until then); 1 if so, 0 if not, -1 error.
 * elf_machine_rela() in glibc's sysdeps/<arch>/dl-machine.h: IRELATIVE
 * stores resolver(), a GLOB_DAT/JUMP_SLOT/64 against an IFUNC symbol
 * stores resolver() + A.  v: the relocation's value as computed. */
static int ifunc_slot(struct ld *L, const struct rsec *rs,
                      const struct rtype *t, const GElf_Rela *r, uint64_t P,
                      uint64_t v)
{
	uint64_t sym = GELF_R_SYM(r->r_info), fn, addend = 0;
	char what[64];

	if (t->val == V_IREL) {
		fn = v;
		snprintf(what, sizeof(what), "the IRELATIVE at 0x%" PRIx64, P);
	} else if (L->eh.e_type == ET_DYN && (t->val == V_S || t->val == V_S_A)
	           && is_ifunc(&rs->sym, sym)) {
		if (t->field != F_W64)
			return fail(L, "relocation %s at 0x%" PRIx64 " against the "
			            "IFUNC '%s' is not a 64-bit word", t->name, P,
			            sym_name(L, &rs->sym, sym));
		addend = t->val == V_S_A ? (uint64_t)r->r_addend : 0;
		fn = v - addend;
		snprintf(what, sizeof(what), "the IFUNC '%.40s'",
		         sym_name(L, &rs->sym, sym));
	} else {
		return 0;
	}
	if (fn < L->img.base || fn - L->img.base >= L->img.size)
		return corrupt(L, "IFUNC resolver at 0x%" PRIx64 " outside the "
		               "image", fn);
	if (add_init(L, SM_INIT_SLOT, fn, P, addend, what) < 0)
		return -1;
	field_put(t, L->img.mem + (P - L->img.base), 0);
	return 1;
}

static int apply_all(struct ld *L, struct rsec *rs)
{
	if (collect_hi(L, rs) < 0)
		return -1;
	for (size_t i = 0; i < rs->n; i++) {
		const struct rtype *t;
		GElf_Rela r;
		uint64_t P, v;
		int why;
		if (reloc_get(L, rs, i, &r, &t) < 0)
			return -1;
		if (!t)
			continue;
		P = rs->addr + r.r_offset;
		if (reloc_value(L, rs, t, &r, P, &v) < 0)
			return -1;
		if ((why = ifunc_slot(L, rs, t, &r, P, v)) < 0)
			return -1;
		if (why == 1)
			continue;
		if ((why = field_check(t, v)) != FIT_OK)
			return reloc_error(L, rs, t, &r, P, why);
		field_put(t, L->img.mem + (P - L->img.base), v);
	}
	return 0;
}

/* Applies relocation section `idx` to the image. */
static int apply_section(struct ld *L, size_t idx, const struct symtab *sym,
                         uint64_t addr, uint64_t min, uint64_t max)
{
	struct rsec rs = { .idx = idx, .sym = *sym, .addr = addr, .min = min,
	                   .max = max };
	int r;

	if (section_data(L, idx, sizeof(Elf64_Rela), &rs.data, &rs.n) < 0)
		return -1;
	r = apply_all(L, &rs);
	free(rs.hi);
	return r;
}

/* ---- relocatable objects (.o) ------------------------------------------- */

/* The allocated section a relocation section applies to, 0 if none. */
static int rel_target(struct ld *L, size_t sec, size_t *target)
{
	const GElf_Shdr *s = &L->sh[sec];

	*target = 0;
	if (s->sh_info >= L->shnum)
		return corrupt(L, "target of relocation section %zu", sec);
	if (s->sh_info && (L->sh[s->sh_info].sh_flags & SHF_ALLOC))
		*target = s->sh_info;
	if (*target && s->sh_type == SHT_REL)
		return fail(L, "REL relocations are not supported");
	if (*target && s->sh_link != L->sym.sec)
		return corrupt(L, "symbol table of relocation section %zu", sec);
	if (*target && L->sh[*target].sh_type == SHT_NOBITS)
		return corrupt(L, "relocations for empty section %zu", *target);
	return 0;
}

/* Records what relocation r needs: a GOT slot, a veneer. */
static int prescan_one(struct ld *L, const GElf_Rela *r)
{
	const struct rtype *t;
	uint64_t sym = GELF_R_SYM(r->r_info);
	struct ref ref = { sym, slot_addend(L, r->r_addend) };
	GElf_Sym s;

	if (rtype_get(L, (uint32_t)GELF_R_TYPE(r->r_info), &t) < 0)
		return -1;
	if (uses_slot(t) && refs_push(&L->got, ref) < 0)
		return fail(L, "out of memory");
	if (!(t->flags & RF_VENEER) || !L->arch->veneer || !sym)
		return 0;
	if (sym_get(L, &L->sym, sym, &s, NULL) < 0)
		return -1;
	if ((s.st_shndx == SHN_UNDEF || s.st_shndx == SHN_ABS) &&
	    refs_push(&L->ven, ref) < 0)
		return fail(L, "out of memory");
	return 0;
}

/* Before layout: the GOT slots and veneers needed; unsupported types. */
static int prescan(struct ld *L)
{
	for (size_t sec = 1; sec < L->shnum; sec++) {
		unsigned type = L->sh[sec].sh_type;
		Elf_Data *d;
		size_t target, n;
		if (type != SHT_RELA && type != SHT_REL)
			continue;
		if (rel_target(L, sec, &target) < 0)
			return -1;
		if (!target)
			continue;
		if (section_data(L, sec, sizeof(Elf64_Rela), &d, &n) < 0)
			return -1;
		for (size_t i = 0; i < n; i++) {
			GElf_Rela r;
			if (!gelf_getrela(d, (int)i, &r))
				return corrupt(L, "relocation %zu of section %zu",
				               i, sec);
			if (prescan_one(L, &r) < 0)
				return -1;
		}
	}
	refs_unique(&L->got);
	refs_unique(&L->ven);
	return 0;
}

/* Reserves `size` bytes aligned to `align` at *off. */
static int reserve(struct ld *L, uint64_t *off, uint64_t size,
                   uint64_t align, uint64_t *at)
{
	if (align <= 1)
		align = 1;
	if (!is_pow2(align) || align > MAX_IMAGE)
		return corrupt(L, "alignment %" PRIu64, align);
	*off = align_up(*off, align);
	if (*off > MAX_IMAGE || size > MAX_IMAGE - *off)
		return too_big(L);
	*at = *off;
	*off += size;
	return 0;
}

enum { CLS_CODE, CLS_RODATA, CLS_DATA, NCLASSES };

static int sec_class(const GElf_Shdr *s)
{
	if (!(s->sh_flags & SHF_ALLOC))
		return -1;
	if (s->sh_flags & SHF_EXECINSTR)
		return CLS_CODE;
	return s->sh_flags & SHF_WRITE ? CLS_DATA : CLS_RODATA;
}

/* COMMON symbols, at the end of the data segment. */
static int place_commons(struct ld *L, uint64_t *off)
{
	size_t cap = 0;

	for (size_t i = 1; i < L->sym.n; i++) {
		GElf_Sym s;
		struct common c = { i, 0 };
		uint64_t at = 0;
		if (sym_get(L, &L->sym, i, &s, NULL) < 0)
			return -1;
		if (s.st_shndx != SHN_COMMON)
			continue;
		if (reserve(L, off, s.st_size, s.st_value, &at) < 0)
			return -1;
		c.addr = L->base + at;
		struct common *v = grow(L->com, L->ncom, &cap, sizeof(*v));
		if (!v)
			return fail(L, "out of memory");
		L->com = v;
		v[L->ncom++] = c;
	}
	return 0;
}

/* What ends a segment of class c: veneers, the GOT, COMMON symbols. */
static int place_extras(struct ld *L, int c, uint64_t *off)
{
	uint64_t at = 0;

	if (c == CLS_CODE && L->ven.n) {
		if (reserve(L, off, VENEER_SIZE * L->ven.n, VENEER_SIZE, &at) < 0)
			return -1;
		L->ven_addr = L->base + at;
	}
	if (c == CLS_RODATA) {
		if (reserve(L, off, 8 * L->got.n, 8, &at) < 0)
			return -1;
		L->got_addr = L->base + at;
	}
	if (c == CLS_DATA && L->sym.sec)
		return place_commons(L, off);
	return 0;
}

static int place_class(struct ld *L, int c, uint64_t *off)
{
	static const unsigned prot[NCLASSES] = {
		[CLS_CODE] = SM_PROT_R | SM_PROT_X,
		[CLS_RODATA] = SM_PROT_R,
		[CLS_DATA] = SM_PROT_R | SM_PROT_W,
	};
	uint64_t start = *off, at = 0;
	unsigned p = prot[c];

	for (size_t i = 1; i < L->shnum; i++) {
		const GElf_Shdr *s = &L->sh[i];
		if (sec_class(s) != c)
			continue;
		if (reserve(L, off, s->sh_size, s->sh_addralign, &at) < 0)
			return -1;
		L->secaddr[i] = L->base + at;
		if (s->sh_flags & SHF_WRITE)
			p |= SM_PROT_W;
	}
	if (place_extras(L, c, off) < 0)
		return -1;
	if (*off == start)
		return 0;
	if (reserve(L, off, 0, PAGE, &at) < 0)
		return -1;
	L->img.seg[L->img.nseg++] = (struct sm_segment){ start, *off - start,
	                                                 p };
	return 0;
}

static int layout_rel(struct ld *L)
{
	uint64_t off = 0;

	for (int c = 0; c < NCLASSES; c++)
		if (place_class(L, c, &off) < 0)
			return -1;
	if (!off)
		return corrupt(L, "no loadable sections");
	L->img.size = off;
	if (!(L->img.mem = calloc(1, off)))
		return fail(L, "out of memory");
	for (size_t i = 1; i < L->shnum; i++) {
		const GElf_Shdr *s = &L->sh[i];
		if (sec_class(s) >= 0 && s->sh_type != SHT_NOBITS && s->sh_size)
			memcpy(L->img.mem + (L->secaddr[i] - L->base),
			       L->file + s->sh_offset, s->sh_size);
	}
	return 0;
}

/* GOT slots and veneers, once every symbol has its address. */
static int fill_got_and_veneers(struct ld *L)
{
	for (size_t k = 0; k < L->got.n; k++) {
		uint64_t S;
		if (sym_addr(L, &L->sym, L->got.v[k].sym, &S) < 0)
			return -1;
		put_le(L->img.mem + (L->got_addr - L->base) + 8 * k, 8,
		       S + (uint64_t)L->got.v[k].addend);
	}
	for (size_t k = 0; k < L->ven.n; k++) {
		uint8_t *p = L->img.mem + (L->ven_addr - L->base) + VENEER_SIZE * k;
		uint64_t S;
		if (sym_addr(L, &L->sym, L->ven.v[k].sym, &S) < 0)
			return -1;
		memcpy(p, L->arch->veneer, VENEER_SIZE);
		put_le(p + L->arch->veneer_at, 8, S + (uint64_t)L->ven.v[k].addend);
	}
	return 0;
}

static int relocate_rel(struct ld *L)
{
	for (size_t sec = 1; sec < L->shnum; sec++) {
		size_t target;
		if (L->sh[sec].sh_type != SHT_RELA)
			continue;
		if (rel_target(L, sec, &target) < 0)
			return -1;
		if (target &&
		    apply_section(L, sec, &L->sym, L->secaddr[target], 0,
		                  L->sh[target].sh_size) < 0)
			return -1;
	}
	return 0;
}

static int load_rel(struct ld *L)
{
	for (size_t sec = 1; sec < L->shnum && !L->sym.sec; sec++)
		if (L->sh[sec].sh_type == SHT_SYMTAB &&
		    symtab_open(L, sec, &L->sym) < 0)
			return -1;
	L->bias = L->base;
	if (rel_refusals(L) < 0 || prescan(L) < 0 || layout_rel(L) < 0 ||
	    fill_got_and_veneers(L) < 0 || relocate_rel(L) < 0)
		return -1;
	return rel_inits(L);
}

/* ---- shared objects (.so) ----------------------------------------------- */

struct span {
	uint64_t lo, hi; /* page-aligned vaddrs */
	unsigned prot;
};

static int span_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;
	return (x->lo > y->lo) - (x->lo < y->lo);
}

static unsigned pf_prot(uint32_t f)
{
	return (f & PF_R ? SM_PROT_R : 0) | (f & PF_W ? SM_PROT_W : 0) |
	       (f & PF_X ? SM_PROT_X : 0);
}

/* Checks one PT_LOAD; its page span in *sp. */
static int check_load(struct ld *L, size_t i, const GElf_Phdr *p,
                      struct span *sp)
{
	if (p->p_filesz > p->p_memsz ||
	    p->p_offset > L->fsize || p->p_filesz > L->fsize - p->p_offset)
		return corrupt(L, "segment %zu outside the file", i);
	if (p->p_memsz > MAX_IMAGE || p->p_vaddr > UINT64_MAX - MAX_IMAGE - PAGE)
		return too_big(L);
	sp->lo = page_down(p->p_vaddr);
	sp->hi = page_down(p->p_vaddr + p->p_memsz + PAGE - 1);
	sp->prot = pf_prot(p->p_flags);
	return 0;
}

/* The PT_LOAD spans, sorted, with overlapping pages merged. */
static int merge_spans(struct ld *L, struct span *sp, size_t n)
{
	size_t k = 0;

	qsort(sp, n, sizeof(*sp), span_cmp);
	for (size_t i = 1; i < n; i++) {
		if (sp[i].lo < sp[k].hi) {
			sp[k].hi = sp[i].hi > sp[k].hi ? sp[i].hi : sp[k].hi;
			sp[k].prot |= sp[i].prot;
		} else {
			sp[++k] = sp[i];
		}
	}
	n = k + 1;
	if (n > MAX_SEG)
		return corrupt(L, "more than %zu segments", MAX_SEG);
	L->lo = sp[0].lo;
	if (sp[n - 1].hi - L->lo > MAX_IMAGE)
		return too_big(L);
	for (size_t i = 0; i < n; i++)
		L->img.seg[i] = (struct sm_segment){ sp[i].lo - L->lo,
		                                     sp[i].hi - sp[i].lo,
		                                     sp[i].prot };
	L->img.nseg = (unsigned)n;
	L->img.size = sp[n - 1].hi - L->lo;
	return 0;
}

/* The number of program headers, checked against the file. */
static int phdr_count(struct ld *L, size_t *phnum)
{
	if (elf_getphdrnum(L->elf, phnum) < 0 ||
	    (*phnum && (L->eh.e_phentsize != sizeof(Elf64_Phdr) ||
	                L->eh.e_phoff > L->fsize ||
	                *phnum > (L->fsize - L->eh.e_phoff) / sizeof(Elf64_Phdr))))
		return corrupt(L, "program headers");
	return 0;
}

/* PT_LOAD segments: the segment list and the file bytes. */
static int map_loads(struct ld *L, struct span *sp, size_t phnum)
{
	size_t n = 0;

	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr p;
		if (!gelf_getphdr(L->elf, (int)i, &p))
			return corrupt(L, "program header %zu", i);
		if (p.p_type == PT_LOAD && p.p_memsz &&
		    check_load(L, i, &p, &sp[n++]) < 0)
			return -1;
	}
	if (!n)
		return corrupt(L, "no PT_LOAD segment");
	if (merge_spans(L, sp, n) < 0)
		return -1;
	if (!(L->img.mem = calloc(1, L->img.size)))
		return fail(L, "out of memory");
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr p;
		if (gelf_getphdr(L->elf, (int)i, &p) && p.p_type == PT_LOAD &&
		    p.p_memsz && p.p_filesz)
			memcpy(L->img.mem + (p.p_vaddr - L->lo),
			       L->file + p.p_offset, p.p_filesz);
	}
	return 0;
}

static int relocate_dyn(struct ld *L)
{
	for (size_t sec = 1; sec < L->shnum; sec++) {
		const GElf_Shdr *s = &L->sh[sec];
		struct symtab t = { 0 };
		if (!(s->sh_flags & SHF_ALLOC))
			continue;
		if (s->sh_type == SHT_REL)
			return fail(L, "REL relocations are not supported");
		if (s->sh_type != SHT_RELA)
			continue;
		if (s->sh_link && symtab_open(L, s->sh_link, &t) < 0)
			return -1;
		if (apply_section(L, sec, &t, L->bias, L->lo,
		                  L->lo + L->img.size) < 0)
			return -1;
	}
	return 0;
}

static int load_dyn(struct ld *L)
{
	size_t phnum;
	struct span *sp;
	int r;

	if (phdr_count(L, &phnum) < 0)
		return -1;
	if (!(sp = calloc(phnum ? phnum : 1, sizeof(*sp))))
		return fail(L, "out of memory");
	r = map_loads(L, sp, phnum);
	free(sp);
	if (r < 0)
		return -1;
	L->bias = L->base - L->lo;
	if (relocate_dyn(L) < 0)
		return -1;
	return dyn_inits(L);
}

/* ---- the interface ------------------------------------------------------ */

static void ld_free(struct ld *L)
{
	if (L->elf)
		elf_end(L->elf);
	free(L->file);
	free(L->sh);
	free(L->secaddr);
	free(L->got.v);
	free(L->ven.v);
	free(L->com);
	free(L->init);
}

/* A .o's placed sections, for its source lines. */
static int record_sections(struct ld *L)
{
	if (!(L->img.sec = calloc(L->shnum, sizeof(*L->img.sec))))
		return fail(L, "out of memory");
	for (size_t i = 1; i < L->shnum; i++)
		if (L->secaddr[i] && L->sh[i].sh_size)
			L->img.sec[L->img.nsec++] = (struct sm_image_section){
				(uint32_t)i, L->secaddr[i], L->sh[i].sh_size };
	return 0;
}

static int load(struct ld *L, const char *symbol)
{
	char first[256];
	const char *second;

	if (L->base & (PAGE - 1) || L->base > UINT64_MAX - MAX_IMAGE)
		return fail(L, "load address 0x%" PRIx64 " is not usable",
		            L->base);
	if ((!L->file && read_file(L) < 0) || check_ident(L) < 0 ||
	    open_elf(L) < 0 ||
	    load_sections(L) < 0 ||
	    find_entries(L, symbol, first, sizeof(first), &second) < 0)
		return -1;
	L->img.arch = L->arch->arch;
	L->img.base = L->base;
	if ((L->eh.e_type == ET_REL ? load_rel(L) : load_dyn(L)) < 0)
		return -1;
	if (L->eh.e_type == ET_REL ? record_sections(L) < 0
	                           : (L->img.vaddr_lo = L->lo, 0))
		return -1;
	if (second && entry_addr(L, &L->entry2, second, &L->img.entry2) < 0)
		return -1;
	if (entry_addr(L, &L->entry, first, &L->img.entry) < 0 ||
	    (GELF_ST_TYPE(L->entry.st_info) == STT_GNU_IFUNC &&
	     add_init(L, SM_INIT_ENTRY, L->img.entry, 0, 0, first) < 0) ||
	    (second && GELF_ST_TYPE(L->entry2.st_info) == STT_GNU_IFUNC &&
	     add_init(L, SM_INIT_ENTRY2, L->img.entry2, 0, 0, second) < 0))
		return -1;
	L->img.init = L->init;
	L->img.ninit = L->ninit;
	L->init = NULL;
	return 0;
}

int sm_elf_load(const char *path, const char *symbol, uint64_t base,
                uint64_t stub_base, struct sm_image *img, char *err,
                size_t errlen)
{
	struct ld L = { .path = path, .err = err, .errlen = errlen,
	                .base = base, .stub_base = stub_base };
	int r = load(&L, symbol);

	if (r == 0 && !(L.img.path = strdup(path)))
		r = fail(&L, "out of memory");
	ld_free(&L);
	if (r < 0) {
		sm_image_free(&L.img);
		memset(img, 0, sizeof(*img));
		return -1;
	}
	*img = L.img;
	return 0;
}

int sm_elf_load_mem(const void *data, size_t len, const char *name,
                    const char *symbol, uint64_t base, uint64_t stub_base,
                    struct sm_image *img, char *err, size_t errlen)
{
	struct ld L = { .path = name, .err = err, .errlen = errlen,
	                .base = base, .stub_base = stub_base };

	if (len > MAX_FILE) /* as read_file() would say */
		return fail(&L, "file too large");
	if (!(L.file = malloc(len ? len : 1)))
		return fail(&L, "out of memory");
	memcpy(L.file, data, len);
	L.fsize = len;
	int r = load(&L, symbol);

	ld_free(&L);
	if (r < 0) {
		sm_image_free(&L.img);
		memset(img, 0, sizeof(*img));
		return -1;
	}
	*img = L.img;
	return 0;
}

void sm_image_free(struct sm_image *img)
{
	if (!img)
		return;
	free(img->mem);
	free(img->path);
	free(img->sec);
	free(img->init);
	memset(img, 0, sizeof(*img));
}
