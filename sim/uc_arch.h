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

#include <unicorn/unicorn.h>

#include "session.h"

#define UC_PAGE_ADDR 0x20000000ull
#define UC_STACK_ADDR 0x30000000ull
#define UC_STACK_SIZE 0x4000ull
#define UC_OUT_ADDR 0x40000000ull
#define UC_OUT_SIZE 0x1000ull
#define UC_RET_ADDR 0x50000000ull
#define UC_STUB_ADDR 0x60000000ull /* imports of user readers (elf_load.h) */
#define UC_ERRNO_ADDR (UC_STUB_ADDR + 0x800)

struct ueng {
	uc_engine *uc;
	uc_context *fresh;      /* registers as after uc_open */
	const struct sm_uc_arch *arch;
	const uint8_t *code;    /* the reader's image, loaded at SM_CODE_BASE */
	uint64_t entry, code_size;
	uint64_t stop;          /* stop before this step */
	uint64_t ticked;        /* step + 1 of the last tick */
	uint32_t pmselr;        /* arm64: the counter PMSELR_EL0 selects */
	uint64_t prev_pc;       /* the instruction before this one */
	char answered[32];      /* what selfmon answered there, or "" */
	bool stopped, done;
	uint8_t *stack, *out;   /* host memory behind the mappings */
};

struct sm_uc_arch {
	uc_arch arch;
	uc_mode mode;
	int reg_pc, reg_sp, reg_link; /* reg_link < 0: return address on stack */
	int reg_arg[4], reg_ret;
	unsigned nr_read;             /* __NR_read */
	/* hooks beyond the generic ones (syscall, system registers) */
	int (*add_hooks)(struct sm_session *s, uc_engine *uc);
	/* code hook: answer a trapped instruction at pc; true if handled */
	bool (*trap)(struct sm_session *s, uint64_t pc, const uint8_t *b);
};

extern const struct sm_uc_arch sm_uc_x86_64, sm_uc_arm64, sm_uc_riscv64;

/* Shared by the arch files (engine_unicorn.c). */
void sm_uc_fault(struct sm_session *s, const char *fmt, uint64_t a,
                 uint64_t b);
/* read(2) of `len` bytes to `buf` answered by the model; other syscalls
 * -ENOSYS, other fds -EBADF.  Returns the syscall's result. */
int64_t sm_uc_syscall(struct sm_session *s, uint64_t nr_read, uint64_t nr,
                      uint64_t fd, uint64_t buf, uint64_t len);
/* Did the emulator move on?  False when it is about to execute again the
 * instruction whose trap selfmon just answered (no trapped instruction is
 * a branch, so that is the emulator retrying it, not the reader looping):
 * the run then ends in V_ERROR naming the instruction. */
bool sm_uc_progress(struct sm_session *s, uint64_t pc);
/* A trapped read answered: observation point, --explain line. */
void sm_uc_trapped(struct sm_session *s, uint64_t step, const char *what,
                   uint64_t arg, uint64_t value);

#endif
