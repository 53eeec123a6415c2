/*
 * uc_riscv.c — riscv64 in the Unicorn engine: the LP64 convention (a0-a2,
 * ra, a0); csrr of cycle, time, instret and hpmcounterN (CSRRS/CSRRSI that
 * write nothing) decoded in the code hook, answered by the model and
 * skipped (Unicorn has no instruction hook for them); an access the kernel
 * does not allow is an illegal instruction (SIGILL); read(2) through ecall.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "uc_arch.h"

/* The unprivileged counter CSRs: cycle, time, instret, hpmcounter3..31
 * (0xc00-0xc1f) and, RV32 only, their upper halves (0xc80-0xc9f). */
static bool counter_csr(unsigned csr)
{
	return (csr >= 0xc00 && csr <= 0xc1f) || (csr >= 0xc80 && csr <= 0xc9f);
}

/* The trap names of the counter CSRs a reader may read (0xc00-0xc1f),
 * a table so that no trapped read formats one (#44). */
#define CSR(h) "csrr 0xc" #h
#define CSR8(a, b, c, d, e, f, g, h) CSR(a), CSR(b), CSR(c), CSR(d), CSR(e), CSR(f), CSR(g), CSR(h)
static const char *const csr_names[32] = {
	CSR8(00, 01, 02, 03, 04, 05, 06, 07), CSR8(08, 09, 0a, 0b, 0c, 0d, 0e, 0f),
	CSR8(10, 11, 12, 13, 14, 15, 16, 17), CSR8(18, 19, 1a, 1b, 1c, 1d, 1e, 1f),
};

static bool rv_trap(struct sm_session *s, uint64_t pc, const uint8_t *b)
{
	struct ueng *e = s->eng;
	uint32_t insn;
	uint64_t v, next = pc + 4;

	if ((b[0] & 3) != 3)
		return false; /* compressed: never a CSR access */
	memcpy(&insn, b, 4);
	if (insn == 0x10500073) { /* wfi: illegal in U-mode under Linux */
		sm_session_observe(s, s->run.step);
		sm_uc_fault(s, "wfi in U-mode is an illegal instruction (SIGILL) "
		            "at 0x%" PRIx64, pc);
		sm_result_fault(&s->res, SM_FK_INSTRUCTION, true, pc, false, 0);
		return true;
	}
	unsigned funct3 = (insn >> 12) & 7, rs1 = (insn >> 15) & 31;
	unsigned csr = insn >> 20, rd = (insn >> 7) & 31;
	if ((insn & 0x7f) != 0x73 || funct3 == 0 || funct3 == 4 ||
	    !counter_csr(csr))
		return false;
	/* csrrw(i) always writes; csrrs/c(i) write unless rs1/uimm is 0; a
	 * write to a read-only CSR is illegal (Unicorn would let a zero
	 * through to the host's counter) */
	if ((funct3 & 3) == 1 || rs1 != 0 || csr >= 0xc80) {
		sm_session_observe(s, s->run.step);
		sm_uc_fault(s, "csr write or RV32 access of CSR 0x%x is "
		            "an illegal instruction (SIGILL) at 0x%" PRIx64, csr, pc);
		sm_result_fault(&s->res, SM_FK_COUNTER, true, pc, false, 0);
		return true;
	}
	if (sm_model_riscv_csr(s->model, csr, &v) != SM_OK) {
		sm_session_observe(s, s->run.step);
		sm_uc_fault(s, "csrr of CSR 0x%x is an illegal instruction "
		            "(SIGILL) at 0x%" PRIx64, csr, pc);
		sm_result_fault(&s->res, SM_FK_COUNTER, true, pc, false, 0);
		return true;
	}
	if (csr != 0xc01) /* cycle, instret, hpmcounterN: not time */
		s->run.counter_last = true; /* the counter path (session.h) */
	if (rd)
		uc_reg_write(e->uc, UC_RISCV_REG_X0 + (int)rd, &v);
	uc_reg_write(e->uc, UC_RISCV_REG_PC, &next);
	sm_uc_trapped(s, s->run.step, csr_names[csr & 31], csr, v);
	return true;
}

/* ecall: exception 8 (from U-mode) or 11 (M-mode, Unicorn's default). */
static void rv_intr(uc_engine *uc, uint32_t intno, void *user)
{
	uint64_t nr, fd, buf, len, pc;

	uc_reg_read(uc, UC_RISCV_REG_PC, &pc);
	if (intno != 8 && intno != 11) {
		/* Unicorn 2.0.1 reports a faulting instruction at the NEXT
		 * instruction's address (mepc is not yet written): the one that
		 * raised it is the last one the code hook saw */
		struct ueng *e = ((struct sm_session *)user)->eng;
		uint64_t at = e->prev_pc ? e->prev_pc : pc;
		if (intno == 2) /* illegal instruction */
			sm_uc_refused(user, at, "illegal instruction (SIGILL)");
		else
			sm_uc_fault(user, "CPU exception %u at 0x%" PRIx64, intno, at),
			sm_result_fault(&((struct sm_session *)user)->res,
			                SM_FK_EXCEPTION, true, at, false, 0);
		return;
	}
	uc_reg_read(uc, UC_RISCV_REG_A7, &nr);
	uc_reg_read(uc, UC_RISCV_REG_A0, &fd);
	uc_reg_read(uc, UC_RISCV_REG_A1, &buf);
	uc_reg_read(uc, UC_RISCV_REG_A2, &len);
	int64_t ret = sm_uc_syscall(user, 63 /* __NR_read */, nr, fd, buf, len);
	uc_reg_write(uc, UC_RISCV_REG_A0, &ret);
	uint32_t insn = 0;
	if (uc_mem_read(uc, pc, &insn, 4) == UC_ERR_OK && insn == 0x00000073) {
		pc += 4; /* still at the ecall: step past it */
		uc_reg_write(uc, UC_RISCV_REG_PC, &pc);
	}
}

static int rv_hooks(struct sm_session *s, uc_engine *uc)
{
	uc_hook h;

	return uc_hook_add(uc, &h, UC_HOOK_INTR, (void *)rv_intr, s, 1, 0);
}

/* U-mode through mret: mstatus.MPP = U, FS = initial (user code may use
 * the FPU, as on Linux), mepc the landing address. */
static int rv_prepare_user(uc_engine *uc)
{
	uint64_t mstatus, mepc = SM_UC_RET_ADDR;

	if (uc_reg_read(uc, UC_RISCV_REG_MSTATUS, &mstatus))
		return -1;
	mstatus = (mstatus & ~(3ull << 11)) | (1ull << 13);
	return uc_reg_write(uc, UC_RISCV_REG_MSTATUS, &mstatus) ||
	       uc_reg_write(uc, UC_RISCV_REG_MEPC, &mepc) ? -1 : 0;
}

/* Debian's capstone has no RISC-V: the vector extension (OP-V, which
 * Unicorn 2.0.1 lacks) is recognised by its major opcode. */
static bool rv_unsupported(const uint8_t *b, uint64_t pc, char *name,
                           size_t n)
{
	(void)pc;
	if ((b[0] & 0x7f) != 0x57)
		return false;
	snprintf(name, n, "vector instruction %02x%02x%02x%02x", b[3], b[2],
	         b[1], b[0]);
	return true;
}

const struct sm_uc_arch sm_uc_riscv64 = {
	.arch = UC_ARCH_RISCV, .mode = UC_MODE_RISCV64,
	.reg_pc = UC_RISCV_REG_PC, .reg_sp = UC_RISCV_REG_SP,
	.reg_link = UC_RISCV_REG_RA,
	.reg_arg = { UC_RISCV_REG_A0, UC_RISCV_REG_A1, UC_RISCV_REG_A2,
	             UC_RISCV_REG_A3 },
	.nr_read = 63,
	.reg_ret = UC_RISCV_REG_A0, .reg_tls = UC_RISCV_REG_TP,
	/* COMPAT_HWCAP_ISA_I, _M, _A, _F, _D, _C: one bit per letter */
	.hwcap = (1u << ('i' - 'a')) | (1u << ('m' - 'a')) | (1u << 0) |
	         (1u << ('f' - 'a')) | (1u << ('d' - 'a')) | (1u << ('c' - 'a')),
	.add_hooks = rv_hooks, .trap = rv_trap,
	.tramp = { 0x73, 0x00, 0x20, 0x30 }, .tramp_len = 4, /* mret */
	.prepare_user = rv_prepare_user, .unsupported = rv_unsupported,
};
