/*
 * uc_x86.c — x86-64 in the Unicorn engine: SysV calling convention;
 * rdpmc, rdtsc and rdtscp decoded in the code hook, answered by the model
 * and skipped (Unicorn 2.0.1 cannot hook them as instructions, and rdpmc
 * would raise #UD); read(2) through the syscall instruction; CPU exceptions
 * (a divide error) as faults.
 */
#include <inttypes.h>

#include "uc_arch.h"

static bool x86_trap(struct sm_session *s, uint64_t pc, const uint8_t *b)
{
	struct ueng *e = s->eng;
	uint64_t v, rcx = 0;
	unsigned len;
	const char *what;

	if (b[0] != 0x0f)
		return false;
	if (b[1] == 0x31 || (b[1] == 0x01 && b[2] == 0xf9)) {
		what = b[1] == 0x31 ? "rdtsc" : "rdtscp";
		len = b[1] == 0x31 ? 2 : 3;
		v = sm_model_timer(&s->model);
		if (len == 3) {
			rcx = s->model.task_cpu; /* IA32_TSC_AUX: the CPU */
			uc_reg_write(e->uc, UC_X86_REG_RCX, &rcx);
		}
	} else if (b[1] == 0x33) {
		what = "rdpmc";
		len = 2;
		uc_reg_read(e->uc, UC_X86_REG_RCX, &rcx);
		rcx &= 0xffffffffu;
		if (sm_model_rdpmc(&s->model, (uint32_t)rcx, &v) != SM_OK) {
			sm_session_observe(s, s->step);
			sm_uc_fault(s, "rdpmc with ECX=0x%" PRIx64 " raised #GP at 0x%"
			            PRIx64, rcx, pc);
			return true;
		}
	} else {
		return false;
	}
	uint64_t lo = v & 0xffffffffu, hi = v >> 32, next = pc + len;
	uc_reg_write(e->uc, UC_X86_REG_RAX, &lo);
	uc_reg_write(e->uc, UC_X86_REG_RDX, &hi);
	uc_reg_write(e->uc, UC_X86_REG_RIP, &next);
	sm_uc_trapped(s, s->step, what, rcx, v);
	return true;
}

static void x86_syscall(uc_engine *uc, void *user)
{
	uint64_t nr, fd, buf, len;

	uc_reg_read(uc, UC_X86_REG_RAX, &nr);
	uc_reg_read(uc, UC_X86_REG_RDI, &fd);
	uc_reg_read(uc, UC_X86_REG_RSI, &buf);
	uc_reg_read(uc, UC_X86_REG_RDX, &len);
	int64_t ret = sm_uc_syscall(user, 0 /* __NR_read */, nr, fd, buf, len);
	uc_reg_write(uc, UC_X86_REG_RAX, &ret);
}

static void x86_intr(uc_engine *uc, uint32_t intno, void *user)
{
	uint64_t pc;

	uc_reg_read(uc, UC_X86_REG_RIP, &pc);
	sm_uc_fault(user, intno == 0 ? "divide error (#DE, vector %" PRIu64
	            ") at 0x%" PRIx64 : "CPU exception %" PRIu64 " at 0x%" PRIx64,
	            intno, pc);
}

static int x86_hooks(struct sm_session *s, uc_engine *uc)
{
	uc_hook h;

	return uc_hook_add(uc, &h, UC_HOOK_INSN, (void *)x86_syscall, s, 1, 0,
	                   UC_X86_INS_SYSCALL) ||
	       uc_hook_add(uc, &h, UC_HOOK_INTR, (void *)x86_intr, s, 1, 0);
}

const struct sm_uc_arch sm_uc_x86_64 = {
	.arch = UC_ARCH_X86, .mode = UC_MODE_64,
	.reg_pc = UC_X86_REG_RIP, .reg_sp = UC_X86_REG_RSP, .reg_link = -1,
	.reg_arg = { UC_X86_REG_RDI, UC_X86_REG_RSI, UC_X86_REG_RDX,
	             UC_X86_REG_RCX },
	.nr_read = 0,
	.reg_ret = UC_X86_REG_RAX,
	.add_hooks = x86_hooks, .trap = x86_trap,
};
