/*
 * uc_arch.h — what differs between x86-64, arm64 and riscv64 in the
 * Unicorn engine: one table entry per arch (uc_x86.c, uc_arm64.c,
 * uc_riscv.c).  The generic engine (engine_unicorn.c) owns memory, the
 * call, stepping, snapshots and verdicts; an arch entry owns its registers,
 * calling convention, and how its counter/timer reads and syscalls are
 * trapped and answered by the model.
 */
#ifndef SELFMON_UC_ARCH_H
#define SELFMON_UC_ARCH_H

#include <stddef.h>
#include <unicorn/unicorn.h>

#include "session.h"

/* The reader's address space: no page both writable and executable. */
#define SM_UC_PAGE_ADDR 0x20000000ull  /* the perf page, read-only */
#define SM_UC_STACK_ADDR 0x30000000ull /* read-write */
#define SM_UC_STACK_SIZE 0x4000ull
#define SM_UC_OUT_ADDR 0x40000000ull   /* out-parameters, read-write */
#define SM_UC_OUT_SIZE 0x1000ull
/* a two-call reader's ctx (SM_CTX_SIZE bytes), in the out-parameters'
 * page: zero at the first call, kept to the second */
#define SM_UC_CTX_ADDR (SM_UC_OUT_ADDR + 0x800)
#define SM_UC_RET_ADDR 0x50000000ull   /* return address: read-execute, never run */
#define SM_UC_STUB_ADDR SM_STUB_BASE    /* imports of user readers (elf_load.h) */
#define SM_UC_ERRNO_ADDR 0x60001000ull /* the stubs' errno, read-write */
/* The thread pointer, in the errno page: x86's canary, %fs:0x28, is 0. */
#define SM_UC_TLS_ADDR (SM_UC_ERRNO_ADDR + 0x800)
#define SM_UC_PID 4242u /* what getpid() answers */
/* Instructions the image's load-time code may take, all of it together */
#define SM_UC_INIT_BUDGET 4000000u
/* x86 GDT and iretq frame: just past the canonical user half, where a
 * Linux process has nothing (an access there is #GP, SIGSEGV); a reader's
 * load from 0x70000000, where the GDT used to be, faults as on Linux */
#define SM_UC_SYS_ADDR 0x0000800000000000ull
#define SM_UC_TRAMP_ADDR 0x71000000ull /* the drop to user mode, unmapped after */
#define SM_UC_MAX_REGIONS 32
#define SM_UC_COPY_MAX (1u << 20) /* the stubs' bounce buffer */
enum { SM_UC_DEV_COLD, SM_UC_DEV_OUT, SM_UC_DEV_ERRNO, SM_UC_NDEV };

struct ueng {
	/* the run: what a snapshot saves of the engine (SM_UENG_RUN_BYTES) */
	uint64_t stop;          /* stop before this step */
	uint64_t ticked;        /* step + 1 of the last tick */
	uint32_t pmselr;        /* arm64: the counter PMSELR_EL0 selects */
	/* arm64: the selection PMXEVCNTR_EL0 reads with until the write to
	 * PMSELR_EL0 is synchronized (isb, an exception, or a read that took
	 * it), and that write's msr (0: none pending); uc_arm64.c */
	uint32_t pmselr_seen;
	uint64_t pmselr_pc;
	uint64_t prev_pc;       /* the instruction before this one */
	const char *answered;   /* what selfmon answered there (a trap's name,
	                         * which lives as long as the program), or
	                         * NULL */
	bool stopped, done;
	bool in_stub;           /* an import stub runs: it makes its own
	                         * observation points (mem_op()) */
	uint64_t copied;        /* bytes of the memcpy under way done so far */
	/* how far up each device RAM (below) was stored to */
	uint32_t dev_hi[SM_UC_NDEV];
	/* the engine, fixed while it is open */
	bool ready;             /* open_engine() completed */
	bool initing;           /* the image's load-time code runs
	                         * (run_inits()), not the reader */
	uint64_t init_steps;
	bool own_code;          /* a user's image (else the built-in readers') */
	uc_engine *uc;
	uc_context *fresh;      /* registers as after uc_open */
	uc_context *hctx;       /* the registers now, for u_hash() */
	size_t hctx_size;
	const struct sm_uc_arch *arch;
	const uint8_t *code;    /* the reader's image, loaded at SM_CODE_BASE */
	uint64_t entry, code_size;
	uint64_t entry2;        /* a two-call ABI's read (0: none) */
	uint8_t *plain;         /* bit per code address: trap() declined it */
	bool listing;           /* the page is RAM with a read hook (--explain) */
	uint8_t *stack, *out;   /* host memory behind the mappings */
	uint8_t *bounce;        /* the stubs' memcpy/memset buffer,
	                         * SM_UC_COPY_MAX bytes (mem_op()) */
	uint8_t *errno_mem;
	/* memory runs rarely store to, as device memory over host bytes
	 * (dev_store()): the stack below its top page, the out-parameters'
	 * and errno pages */
	struct dev_ram {
		uint8_t *host;
		uint32_t size, *hi;
	} dev[SM_UC_NDEV];
	/* every mapping the reader sees, for the stubs' access checks */
	struct { uint64_t lo, hi; uint32_t prot; } region[SM_UC_MAX_REGIONS];
	unsigned nregion;
	/* the image's writable segments: host memory, and their first bytes */
	struct {
		uint8_t *host;
		const uint8_t *init;  /* the loaded bytes, ninit of them */
		uint64_t ninit, size; /* the rest of size is zeroes (.bss) */
		uint8_t *after_init;  /* as the load-time code left them (owned;
		                       * then init, size bytes), or NULL */
	} data[16];
	unsigned ndata;
	uint64_t data_bytes;
};

#define SM_UENG_RUN_BYTES offsetof(struct ueng, uc)

struct sm_uc_arch {
	uc_arch arch;
	uc_mode mode;
	int reg_pc, reg_sp, reg_link; /* reg_link < 0: return address on stack */
	int reg_arg[4], reg_ret;
	int reg_tls;                  /* the thread pointer (fs base, TPIDR_EL0,
	                               * tp): where x86's stack protector reads
	                               * its canary, %fs:0x28 */
	/* what ld.so passes an IFUNC resolver (glibc's elf_ifunc_invoke()):
	 * the hwcaps of the CPU the model emulates (AT_HWCAP), and on arm64
	 * _IFUNC_ARG_HWCAP with a pointer to __ifunc_arg_t beside them */
	uint64_t hwcap;
	bool ifunc_arg;
	unsigned nr_read;             /* __NR_read */
	/* hooks beyond the generic ones (syscall, system registers) */
	int (*add_hooks)(struct sm_session *s, uc_engine *uc);
	/* code hook: answer a trapped instruction at pc; true if handled.
	 * It declines (false) by the instruction's bytes alone, which cannot
	 * change (no page is writable and executable): the engine remembers
	 * a decline per address and does not ask again. */
	bool (*trap)(struct sm_session *s, uint64_t pc, const uint8_t *b);
	/* the drop from the emulator's start (x86 CPL0, arm64 EL1, riscv64
	 * M-mode) to user mode (CPL3, EL0, U-mode), landing at SM_UC_RET_ADDR:
	 * the instruction's bytes at SM_UC_TRAMP_ADDR and the state it needs */
	uint8_t tramp[4];
	unsigned tramp_len;
	int (*prepare_user)(uc_engine *uc);
	/* is the instruction the CPU refused (b, at pc) one a real CPU runs
	 * at user level, that the emulator lacks?  Its name into name. */
	bool (*unsupported)(const uint8_t *b, uint64_t pc, char *name,
	                    size_t n);
};

extern const struct sm_uc_arch sm_uc_x86_64, sm_uc_arm64, sm_uc_riscv64;

/* Shared by the arch files (engine_unicorn.c). */
void sm_uc_fault(struct sm_session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The CPU refused the instruction at pc (#UD, UNDEFINED, illegal): the
 * reader's FAULT, or selfmon's UNSUPPORTED when a real CPU runs it. */
void sm_uc_refused(struct sm_session *s, uint64_t pc, const char *what);
/* capstone's text for the instruction at b (x86-64, arm64), or false. */
bool sm_uc_disasm(enum sm_arch arch, const uint8_t *b, size_t n, uint64_t pc,
                  char *text, size_t tn);
/* read(2) of `len` bytes to `buf` answered by the model; other syscalls
 * -ENOSYS, other fds -EBADF.  Returns the syscall's result. */
int64_t sm_uc_syscall(struct sm_session *s, uint64_t nr_read, uint64_t nr,
                      uint64_t fd, uint64_t buf, uint64_t len);
/* Did the emulator move on?  False when it is about to execute again the
 * instruction whose trap selfmon just answered (no trapped instruction is
 * a branch, so that is the emulator retrying it, not the reader looping):
 * the run then ends in SM_V_ERROR naming the instruction. */
bool sm_uc_progress(struct sm_session *s, uint64_t pc);
/* A trapped read answered: observation point, --explain line. */
void sm_uc_trapped(struct sm_session *s, uint64_t step, const char *what,
                   uint64_t arg, uint64_t value);

#endif
