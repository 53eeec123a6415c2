/*
 * uc_x86.c — x86-64 in the Unicorn engine: SysV calling convention;
 * rdpmc, rdtsc and rdtscp decoded in the code hook, answered by the model
 * and skipped (Unicorn 2.0.1 cannot hook them as instructions, and rdpmc
 * would raise #UD), whatever their prefixes; read(2) through the syscall
 * instruction; the reader at CPL3, so privileged instructions and port I/O
 * raise #GP; CPU exceptions (a divide error) as faults.
 */
#include <inttypes.h>
#include <string.h>

#include "uc_arch.h"

/* Legacy and REX prefixes before the opcode: a prefixed rdtsc is still
 * rdtsc, and must not reach the host's clock. */
static unsigned prefixes(const uint8_t *b)
{
	static const uint8_t legacy[] = { 0x66, 0x67, 0xf0, 0xf2, 0xf3, 0x2e,
	                                  0x36, 0x3e, 0x26, 0x64, 0x65 };
	unsigned k = 0;

	while (k < 14 && (memchr(legacy, b[k], sizeof(legacy)) ||
	                  (b[k] & 0xf0) == 0x40))
		k++;
	return k;
}

/* in, out, ins, outs: with IOPL 0 and no I/O bitmap, user code takes #GP
 * (Unicorn 2.0.1 runs them, so they are refused here). */
static bool port_io(const uint8_t *b)
{
	return (b[0] >= 0xe4 && b[0] <= 0xe7) || (b[0] >= 0xec && b[0] <= 0xef) ||
	       (b[0] >= 0x6c && b[0] <= 0x6f);
}

static bool x86_trap(struct sm_session *s, uint64_t pc, const uint8_t *b)
{
	struct ueng *e = s->eng;
	uint64_t v, rcx = 0;
	unsigned len, pre = prefixes(b);
	const char *what;

	if (port_io(b + pre)) {
		sm_session_observe(s, s->run.step);
		sm_uc_fault(s, "port I/O at 0x%" PRIx64 " raised #GP (user code "
		            "without I/O privilege)", pc);
		sm_result_fault(&s->res, SM_FK_INSTRUCTION, true, pc, false, 0);
		return true;
	}
	b += pre;
	if (b[0] != 0x0f)
		return false;
	if (b[1] == 0x31 || (b[1] == 0x01 && b[2] == 0xf9)) {
		what = b[1] == 0x31 ? "rdtsc" : "rdtscp";
		len = b[1] == 0x31 ? 2 : 3;
		v = sm_model_timer(s->model);
		if (len == 3) {
			rcx = sm_model_task_cpu(s->model); /* IA32_TSC_AUX: the CPU */
			uc_reg_write(e->uc, UC_X86_REG_RCX, &rcx);
		}
	} else if (b[1] == 0x33) {
		what = "rdpmc";
		len = 2;
		uc_reg_read(e->uc, UC_X86_REG_RCX, &rcx);
		rcx &= 0xffffffffu;
		if (sm_model_rdpmc(s->model, (uint32_t)rcx, &v) != SM_OK) {
			sm_session_observe(s, s->run.step);
			sm_uc_fault(s, "rdpmc with ECX=0x%" PRIx64 " raised #GP at 0x%"
			            PRIx64, rcx, pc);
			sm_result_fault(&s->res, SM_FK_COUNTER, true, pc, false, 0);
			return true;
		}
		s->run.counter_last = true; /* the counter path (session.h) */
	} else if (b[1] == 0xc7 && (b[2] & 0xf8) == 0xf8 && pre &&
	           memchr(b - pre, 0xf3, pre)) {
		/* rdpid (F3 0F C7 /7; without F3 it is rdseed): runs at CPL3 on
		 * Linux, and gives IA32_TSC_AUX, which Linux sets to the CPU */
		static const int r64[16] = {
			UC_X86_REG_RAX, UC_X86_REG_RCX, UC_X86_REG_RDX, UC_X86_REG_RBX,
			UC_X86_REG_RSP, UC_X86_REG_RBP, UC_X86_REG_RSI, UC_X86_REG_RDI,
			UC_X86_REG_R8, UC_X86_REG_R9, UC_X86_REG_R10, UC_X86_REG_R11,
			UC_X86_REG_R12, UC_X86_REG_R13, UC_X86_REG_R14, UC_X86_REG_R15,
		};
		const uint8_t *p = b - pre;
		unsigned rex = 0;
		for (unsigned k = 0; k < pre; k++)
			if ((p[k] & 0xf0) == 0x40)
				rex = p[k];
		v = sm_model_task_cpu(s->model);
		uc_reg_write(e->uc, r64[(b[2] & 7) | (rex & 1) << 3], &v);
		uint64_t next = pc + pre + 3;
		uc_reg_write(e->uc, UC_X86_REG_RIP, &next);
		sm_uc_trapped(s, s->run.step, "rdpid", 0, v);
		return true;
	} else {
		return false;
	}
	uint64_t lo = v & 0xffffffffu, hi = v >> 32, next = pc + pre + len;
	uc_reg_write(e->uc, UC_X86_REG_RAX, &lo);
	uc_reg_write(e->uc, UC_X86_REG_RDX, &hi);
	uc_reg_write(e->uc, UC_X86_REG_RIP, &next);
	sm_uc_trapped(s, s->run.step, what, rcx, v);
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
	if (intno == 6) {
		sm_uc_refused(user, pc, "invalid instruction (#UD)");
		return;
	}
	sm_uc_fault(user, intno == 0 ? "divide error (#DE, vector %u) at 0x%"
	            PRIx64 : intno == 13 ? "general protection fault (#GP, "
	            "vector %u: a privileged instruction at user level) at 0x%"
	            PRIx64 : "CPU exception %u at 0x%" PRIx64, intno, pc);
	sm_result_fault(&((struct sm_session *)user)->res,
	                intno == 13 ? SM_FK_INSTRUCTION : SM_FK_EXCEPTION, true,
	                pc, false, 0);
}

static int x86_hooks(struct sm_session *s, uc_engine *uc)
{
	uc_hook h;

	return uc_hook_add(uc, &h, UC_HOOK_INSN, (void *)x86_syscall, s, 1, 0,
	                   UC_X86_INS_SYSCALL) ||
	       uc_hook_add(uc, &h, UC_HOOK_INTR, (void *)x86_intr, s, 1, 0);
}

/* CPL3 through iretq: a GDT with flat 64-bit user code and data at
 * SM_UC_SYS_ADDR, and the frame the iretq pops just after it.  Linux's
 * selectors (arch/x86/include/asm/segment.h): __USER_DS 0x2b (entry 5),
 * __USER_CS 0x33 (entry 6).  The descriptors are marked accessed, as the
 * CPU would on the first load: the GDT is read-only, and a reader's `mov
 * %ax,%ss` of its own selector must not fault on that write. */
static int x86_prepare_user(uc_engine *uc)
{
	uint64_t gdt[7] = {
		[5] = 0x00cff3000000ffffull, /* data: writable, DPL 3, accessed */
		[6] = 0x00affb000000ffffull, /* code: L, DPL 3, accessed */
	};
	uint64_t frame[5] = { SM_UC_RET_ADDR, 0x33, 0x2, SM_UC_STACK_ADDR + 0x1000,
	                      0x2b };
	uint64_t sp = SM_UC_SYS_ADDR + 0x800;
	uc_x86_mmr gdtr = { 0, SM_UC_SYS_ADDR, sizeof(gdt) - 1, 0 };

	return uc_mem_map(uc, SM_UC_SYS_ADDR, 4096, UC_PROT_READ) ||
	       uc_mem_write(uc, SM_UC_SYS_ADDR, gdt, sizeof(gdt)) ||
	       uc_mem_write(uc, sp, frame, sizeof(frame)) ||
	       uc_reg_write(uc, UC_X86_REG_GDTR, &gdtr) ||
	       uc_reg_write(uc, UC_X86_REG_RSP, &sp) ? -1 : 0;
}

/* A #UD for an instruction capstone knows (AVX, AVX-512, FMA, ...) is
 * Unicorn's gap, not the reader's fault; ud0/ud1/ud2 are meant. */
static bool x86_unsupported(const uint8_t *b, uint64_t pc, char *name,
                            size_t n)
{
	/* what faults at CPL3 on a real CPU under Linux: vmcall and the other
	 * VMX/SVM instructions (#UD outside a guest), sysret/sysexit (#GP at
	 * CPL3), monitor/mwait (#UD: Linux leaves them off at CPL3), int1
	 * (icebp: #DB, SIGTRAP) */
	static const char *const faults[] = {
		"vmcall", "vmlaunch", "vmresume", "vmxoff", "vmxon", "vmread",
		"vmwrite", "vmptrld", "vmptrst", "vmclear", "vmfunc", "vmrun",
		"vmload", "vmsave", "vmmcall", "invept", "invvpid", "invlpga",
		"clgi", "stgi", "skinit", "sysret", "sysretq", "sysexit",
		"monitor", "mwait", "int1", "icebp", "ud0", "ud1", "ud2",
	};

	if (!sm_uc_disasm(SM_X86_64, b, 16, pc, name, n))
		return false;
	size_t len = strcspn(name, " "); /* the mnemonic: vmovdqa is AVX */
	for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); i++)
		if (strlen(faults[i]) == len && !strncmp(name, faults[i], len))
			return false;
	return true;
}

const struct sm_uc_arch sm_uc_x86_64 = {
	.arch = UC_ARCH_X86, .mode = UC_MODE_64,
	.reg_pc = UC_X86_REG_RIP, .reg_sp = UC_X86_REG_RSP, .reg_link = -1,
	.reg_arg = { UC_X86_REG_RDI, UC_X86_REG_RSI, UC_X86_REG_RDX,
	             UC_X86_REG_RCX },
	.nr_read = 0,
	.reg_ret = UC_X86_REG_RAX, .reg_tls = UC_X86_REG_FS_BASE,
	.add_hooks = x86_hooks, .trap = x86_trap,
	.tramp = { 0x48, 0xcf }, .tramp_len = 2, /* iretq */
	.prepare_user = x86_prepare_user, .unsupported = x86_unsupported,
};
