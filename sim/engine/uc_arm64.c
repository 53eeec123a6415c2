/*
 * uc_arm64.c — arm64 in the Unicorn engine: AAPCS64 (x0-x2, lr, x0);
 * MRS of PMEVCNTR<n>_EL0, PMCCNTR_EL0, PMXEVCNTR_EL0 and CNTVCT_EL0 and MSR
 * of PMSELR_EL0 hooked as instructions (UC_ARM64_INS_MRS/MSR) and answered
 * by the model (those Unicorn's CPU lacks decoded in the code hook); a
 * disallowed counter access is UNDEFINED at EL0 (the SIGILL-equivalent
 * fault); read(2) through svc #0; and the CPU's choice at a read of
 * PMXEVCNTR_EL0 that no isb separates from the write of PMSELR_EL0
 * (below, "The stale selection").
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "uc_arch.h"

enum sysreg { SR_OTHER, SR_TIMER, SR_COUNTER, SR_SELECTED, SR_PMSELR };

/* op0 = 3, op1 = 3 system registers the readers use (Arm ARM encodings). */
static enum sysreg decode(const uc_arm64_cp_reg *r, unsigned *counter)
{
	if (r->op0 != 3 || r->op1 != 3)
		return SR_OTHER;
	if (r->crn == 14 && r->crm == 0 && (r->op2 == 2 || r->op2 == 6))
		return SR_TIMER; /* CNTVCT_EL0, CNTVCTSS_EL0 */
	if (r->crn == 9 && r->crm == 13 && r->op2 == 0) {
		*counter = SM_ARM64_CYCLE; /* PMCCNTR_EL0 */
		return SR_COUNTER;
	}
	if (r->crn == 9 && r->crm == 13 && r->op2 == 2)
		return SR_SELECTED; /* PMXEVCNTR_EL0 */
	if (r->crn == 9 && r->crm == 12 && r->op2 == 5)
		return SR_PMSELR;
	if (r->crn == 14 && r->crm >= 8 && r->crm <= 11) {
		*counter = ((r->crm & 3) << 3) | r->op2; /* PMEVCNTR<n>_EL0 */
		return SR_COUNTER;
	}
	return SR_OTHER;
}

/* The trap names of the counter reads (traces, errors), a table so that no
 * trapped read formats one (#44): [stale][counter]. */
#define EV(n) "mrs PMEVCNTR" #n "_EL0"
#define EV8(a, b, c, d, e, f, g, h) EV(a), EV(b), EV(c), EV(d), EV(e), EV(f), EV(g), EV(h)
#define SEV(n) "stale mrs PMEVCNTR" #n "_EL0"
#define SEV8(a, b, c, d, e, f, g, h) SEV(a), SEV(b), SEV(c), SEV(d), SEV(e), SEV(f), SEV(g), SEV(h)
static const char *const counter_names[2][SM_ARM64_CYCLE + 1] = {
	{ EV8(0, 1, 2, 3, 4, 5, 6, 7), EV8(8, 9, 10, 11, 12, 13, 14, 15),
	  EV8(16, 17, 18, 19, 20, 21, 22, 23), EV(24), EV(25), EV(26), EV(27),
	  EV(28), EV(29), EV(30), "mrs PMCCNTR_EL0" },
	{ SEV8(0, 1, 2, 3, 4, 5, 6, 7), SEV8(8, 9, 10, 11, 12, 13, 14, 15),
	  SEV8(16, 17, 18, 19, 20, 21, 22, 23), SEV(24), SEV(25), SEV(26),
	  SEV(27), SEV(28), SEV(29), SEV(30), "stale mrs PMCCNTR_EL0" },
};

/* ---- The stale selection ----------------------------------------------
 * A write to PMSELR_EL0 is only guaranteed to reach a later read of
 * PMXEVCNTR_EL0 after a Context Synchronization Event (Arm ARM: isb,
 * exception entry or return); before it the read may use the previous
 * selection.  The kernel's own select-then-read has the isb (6.12
 * drivers/perf/arm_v7_pmu.c armv7_pmnc_select_counter(); arm64's
 * read_pmevcntrn() avoids the indirection).  Unicorn applies the write at
 * once, so the CPU's choice is the explorer's: the write lands at some
 * instant between its msr and the next synchronization, and a read before
 * that instant uses the previous selection.  At each such read the
 * explorer tries both (sm_session_stale_point(), a ";stale_select=" item
 * of a schedule); a read that used the new selection saw the write land,
 * so later ones do too.  Two writes before a read or a synchronization:
 * the previous selection stays the one before both.
 * What it is when the call has not written PMSELR_EL0: what the register
 * held at entry.  Linux neither sets it for a task nor saves and restores
 * it at a context switch (6.12: write_pmselr(), arch/arm64/include/asm/
 * arm_pmuv3.h, has no caller in drivers/perf/arm_pmuv3.c, and nothing in
 * arch/arm64/kernel/ writes it; only KVM's __activate_traps_common(),
 * arch/arm64/kvm/hyp/include/hyp/switch.h, writes 0 on the way into a
 * guest), so it holds whatever the CPU's last writer left: selfmon takes
 * 0, as KVM leaves it (u_begin()).
 * PMXEVTYPER_EL0 has no such choice: Linux opens only PMUSERENR_EL0.ER|CR
 * to EL0 (armv8pmu_enable_user_access()), not EN, so reading it there is
 * UNDEFINED whatever the selection.
 * The kernel actions the explorer injects are not taken as
 * synchronization, though those that interrupt the reader's CPU are one:
 * the search may try a stale read after such an action, which a CPU would
 * not do; the same read with no action before it comes first at a lower
 * bound (least_bound(), explore.c), and minimising drops an action the
 * failure does not need. */

/* isb or an exception: the pending write, if any, has landed. */
static void pmselr_sync(struct ueng *e)
{
	e->pmselr_seen = e->pmselr;
	e->pmselr_pc = 0;
}

/* The counter an mrs of PMXEVCNTR_EL0 at pc (step) reads, *stale if it
 * took the previous selection (the missing isb, into the result). */
static unsigned selection(struct sm_session *s, uint64_t pc, uint64_t step,
                          bool *stale)
{
	struct ueng *e = s->eng;

	*stale = e->pmselr_seen != e->pmselr && sm_session_stale(s, step);
	if (*stale) {
		s->res.isb = (struct sm_missing_isb){
			.taken = true, .msr_pc = e->pmselr_pc, .mrs_pc = pc,
			.selected = e->pmselr, .read = e->pmselr_seen,
		};
		return e->pmselr_seen;
	}
	if (e->pmselr_seen != e->pmselr) {
		sm_session_stale_point(s, step); /* it might have been stale */
		pmselr_sync(e);
	}
	return e->pmselr;
}

static uint64_t pc_of(uc_engine *uc)
{
	uint64_t pc;
	uc_reg_read(uc, UC_ARM64_REG_PC, &pc);
	return pc;
}

/* Answer a read of a PMU or timer register at `pc` (step `step`): the
 * value into *v, or the arch's fault (false, *handled still true).
 * *handled is false for a register selfmon does not model. */
static bool answer(struct sm_session *s, const uc_arm64_cp_reg *cp,
                   uint64_t pc, uint64_t step, uint64_t *v, bool *handled)
{
	unsigned c = 0;
	bool stale = false;

	*handled = true;
	switch (decode(cp, &c)) {
	case SR_TIMER:
		*v = sm_model_timer(s->model);
		sm_uc_trapped(s, step, cp->op2 == 6 ? "mrs CNTVCTSS_EL0"
		                                    : "mrs CNTVCT_EL0", 0, *v);
		return true;
	case SR_SELECTED:
		c = selection(s, pc, step, &stale);
		/* fall through */
	case SR_COUNTER:
		s->res.isb.taken = stale; /* the last counter read's */
		if (sm_model_arm64_counter(s->model, c, v) != SM_OK) {
			sm_session_observe(s, step);
			sm_uc_fault(s, "read of counter %u is UNDEFINED at EL0 "
			            "(SIGILL) at 0x%" PRIx64, c, pc);
			sm_result_fault(&s->res, SM_FK_COUNTER, true, pc, false, 0);
			sm_result_render(&s->res); /* the missing isb, if stale */
			return false;
		}
		s->run.counter_last = true; /* the counter path (session.h) */
		sm_uc_trapped(s, step, counter_names[stale][c & 31], c, *v);
		return true;
	default:
		*handled = false;
		return false;
	}
}

static uint32_t arm64_mrs(uc_engine *uc, uc_arm64_reg reg,
                          const uc_arm64_cp_reg *cp, void *user)
{
	struct sm_session *s = user;
	uint64_t v;
	bool handled;

	if (answer(s, cp, pc_of(uc), s->run.step - 1, &v, &handled))
		uc_reg_write(uc, reg, &v);
	return handled;
}

/* MSR PMSELR_EL0: the select of the select-then-read pair. */
static uint32_t arm64_msr(uc_engine *uc, uc_arm64_reg reg,
                          const uc_arm64_cp_reg *cp, void *user)
{
	struct sm_session *s = user;
	struct ueng *e = s->eng;
	unsigned c = 0;
	uint64_t v, probe;

	if (decode(cp, &c) != SR_PMSELR)
		return 0;
	uc_reg_read(uc, reg, &v);
	if (sm_model_arm64_counter(s->model, SM_ARM64_CYCLE, &probe) != SM_OK) {
		sm_uc_fault(s, "write of PMSELR_EL0 (%" PRIu64 ") is UNDEFINED at "
		            "EL0 (SIGILL) at 0x%" PRIx64, v, pc_of(uc));
		sm_result_fault(&s->res, SM_FK_COUNTER, true, pc_of(uc), false, 0);
		return 1;
	}
	e->pmselr = (uint32_t)(v & 31);
	/* not synchronized yet: the stale selection (above) */
	e->pmselr_pc = e->pmselr == e->pmselr_seen ? 0 : pc_of(uc);
	sm_uc_trapped(s, s->run.step - 1, "msr PMSELR_EL0", v, v & 31);
	return 1;
}

/* svc #0 is exception 2 (EXCP_SWI); the PC is already past it. */
static void arm64_intr(uc_engine *uc, uint32_t intno, void *user)
{
	uint64_t nr, fd, buf, len;

	if (intno == 1) { /* EXCP_UDEF */
		sm_uc_refused(user, pc_of(uc), "UNDEFINED instruction at EL0 "
		              "(SIGILL)");
		return;
	}
	if (intno != 2) {
		sm_uc_fault(user, "CPU exception %u at 0x%" PRIx64, intno,
		            pc_of(uc));
		sm_result_fault(&((struct sm_session *)user)->res, SM_FK_EXCEPTION,
		                true, pc_of(uc), false, 0);
		return;
	}
	/* the svc's exception entry and return synchronize PMSELR_EL0 */
	pmselr_sync(((struct sm_session *)user)->eng);
	uc_reg_read(uc, UC_ARM64_REG_X8, &nr);
	uc_reg_read(uc, UC_ARM64_REG_X0, &fd);
	uc_reg_read(uc, UC_ARM64_REG_X1, &buf);
	uc_reg_read(uc, UC_ARM64_REG_X2, &len);
	int64_t ret = sm_uc_syscall(user, 63 /* __NR_read */, nr, fd, buf, len);
	uc_reg_write(uc, UC_ARM64_REG_X0, &ret);
}

static int arm64_hooks(struct sm_session *s, uc_engine *uc)
{
	uc_hook h;

	return uc_hook_add(uc, &h, UC_HOOK_INSN, (void *)arm64_mrs, s, 1, 0,
	                   UC_ARM64_INS_MRS) ||
	       uc_hook_add(uc, &h, UC_HOOK_INSN, (void *)arm64_msr, s, 1, 0,
	                   UC_ARM64_INS_MSR) ||
	       uc_hook_add(uc, &h, UC_HOOK_INTR, (void *)arm64_intr, s, 1, 0);
}

/* Unicorn 2.0.1's CPU model (QEMU 5) lacks some registers readers read:
 * PMEVCNTR4..30_EL0 (its PMCR_NUM_COUNTERS is 4) and CNTVCTSS_EL0
 * (ARMv8.6).  The MRS hook still fires for them, but the instruction is
 * then retried forever; these are decoded in the code hook instead. */
static bool unicorn_lacks(const uc_arm64_cp_reg *cp)
{
	unsigned c = 0;
	enum sysreg r = decode(cp, &c);

	return (r == SR_COUNTER && c >= 4 && c != SM_ARM64_CYCLE) ||
	       (r == SR_TIMER && cp->op2 == 6);
}

/* The X register an instruction's Rt names (31: XZR, -1). */
static int xreg(unsigned rt)
{
	return rt < 29 ? UC_ARM64_REG_X0 + (int)rt
	       : rt == 29 ? UC_ARM64_REG_X29 : rt == 30 ? UC_ARM64_REG_X30 : -1;
}

/* Code hook: MRS (0xd5300000 | o0 op1 CRn CRm op2 Rt) of a register
 * Unicorn lacks, answered and skipped; isb, which synchronizes PMSELR_EL0
 * and runs (never declined, so asked at every execution). */
static bool arm64_trap(struct sm_session *s, uint64_t pc, const uint8_t *b)
{
	struct ueng *e = s->eng;
	uint32_t insn;
	uint64_t v, next = pc + 4;
	bool handled;

	memcpy(&insn, b, 4);
	if ((insn & 0xfffff0ff) == 0xd50330df) { /* isb: run, and asked again */
		pmselr_sync(e);
		return true;
	}
	if (insn == 0xd503207f || insn == 0xd503205f) {
		/* wfi, wfe: Linux sets SCTLR_EL1.nTWI/nTWE, so at EL0 they wait
		 * for the next event and go on; Unicorn would halt the CPU */
		uc_reg_write(e->uc, UC_ARM64_REG_PC, &next);
		return true;
	}
	if ((insn & 0xfff00000) != 0xd5300000)
		return false;
	uc_arm64_cp_reg cp = {
		.op0 = 2 + ((insn >> 19) & 1), .op1 = (insn >> 16) & 7,
		.crn = (insn >> 12) & 15, .crm = (insn >> 8) & 15,
		.op2 = (insn >> 5) & 7,
	};
	if (!unicorn_lacks(&cp))
		return false; /* the MRS hook answers it */
	if (!answer(s, &cp, pc, s->run.step, &v, &handled))
		return true; /* faulted */
	int rt = xreg(insn & 31);
	if (rt >= 0)
		uc_reg_write(e->uc, rt, &v);
	uc_reg_write(e->uc, UC_ARM64_REG_PC, &next);
	return true;
}

/* EL0 through eret from EL1: SPSR_EL1 is 0 after reset (EL0t). */
static int arm64_prepare_user(uc_engine *uc)
{
	uint64_t elr = SM_UC_RET_ADDR;

	return uc_reg_write(uc, UC_ARM64_REG_ELR_EL1, &elr) ? -1 : 0;
}

/* A system instruction (0xd5000000 space) that Unicorn refused but Linux
 * runs at EL0: MRS of an ID register (op0 3, op1 0, CRn 0, CRm 0 op2
 * 0/5/6 or CRm 2..7: trapped and emulated with the sanitised value,
 * arch/arm64/kernel/cpufeature.c emulate_mrs), MRS CTR_EL0 (SCTLR_EL1.UCT,
 * or emulated), and the cache maintenance Linux opens to EL0 (SCTLR_EL1.UCI
 * and DZE: DC ZVA, CVAC, CVAU, CVAP, CVADP, CIVAC, IC IVAU, all op1 3).
 * Every other system instruction EL0 may not run is the reader's. */
static bool linux_el0_sys(uint32_t insn)
{
	unsigned l = (insn >> 21) & 1, op0 = (insn >> 19) & 3,
	         op1 = (insn >> 16) & 7, crn = (insn >> 12) & 15,
	         crm = (insn >> 8) & 15, op2 = (insn >> 5) & 7;

	if (l && op0 == 3 && op1 == 0 && crn == 0)
		return (crm == 0 && (op2 == 0 || op2 == 5 || op2 == 6)) ||
		       (crm >= 2 && crm <= 7);
	if (l && op0 == 3 && op1 == 3 && crn == 0 && crm == 0 && op2 == 1)
		return true; /* CTR_EL0 */
	if (!l && op0 == 1 && op1 == 3 && crn == 7 && op2 == 1)
		return crm == 4 || crm == 10 || crm == 11 || crm == 12 ||
		       crm == 13 || crm == 14 || crm == 5;
	return false;
}

/* UNDEFINED for an instruction capstone knows is Unicorn's gap (LSE
 * atomics, pointer authentication: Unicorn's Cortex-A72 lacks them), but
 * for what a real CPU refuses at EL0 too, the reader's fault (SIGILL or
 * SIGTRAP on Linux): udf; the exception-generating instructions (hlt at
 * EL0 with no external debugger is UNDEFINED, brk, hvc, smc, dcps);
 * eret and drps (UNDEFINED at EL0); and system instructions but those
 * linux_el0_sys() names. */
static bool arm64_unsupported(const uint8_t *b, uint64_t pc, char *name,
                              size_t n)
{
	uint32_t insn;

	memcpy(&insn, b, 4);
	if ((insn >> 16) == 0 || (insn & 0xff000000) == 0xd4000000 ||
	    (insn & 0xffdff000) == 0xd69f0000)
		return false;
	if ((insn & 0xffc00000) == 0xd5000000 && !linux_el0_sys(insn))
		return false;
	if (sm_uc_disasm(SM_ARM64, b, 4, pc, name, n))
		return true;
	/* Debian's capstone 4 knows neither (ARMv8.1 LSE, ARMv8.3 PAuth) */
	if ((insn & 0x3f200c00) == 0x38200000 ||
	    (insn & 0x3fa07c00) == 0x08a07c00 ||
	    (insn & 0xbfa07c00) == 0x08207c00)
		return snprintf(name, n, "LSE atomic %08x (ldadd, cas, swp...)",
		                insn), true;
	if ((insn & 0xffff0000) == 0xdac10000)
		return snprintf(name, n, "pointer authentication %08x (pacia, "
		                "autia...)", insn), true;
	return false;
}

const struct sm_uc_arch sm_uc_arm64 = {
	.arch = UC_ARCH_ARM64, .mode = UC_MODE_ARM,
	.reg_pc = UC_ARM64_REG_PC, .reg_sp = UC_ARM64_REG_SP,
	.reg_link = UC_ARM64_REG_LR,
	.reg_arg = { UC_ARM64_REG_X0, UC_ARM64_REG_X1, UC_ARM64_REG_X2,
	             UC_ARM64_REG_X3 },
	.nr_read = 63,
	.reg_ret = UC_ARM64_REG_X0, .reg_tls = UC_ARM64_REG_TPIDR_EL0,
	.hwcap = 0x3, .ifunc_arg = true, /* HWCAP_FP | HWCAP_ASIMD */
	.add_hooks = arm64_hooks, .trap = arm64_trap,
	.tramp = { 0xe0, 0x03, 0x9f, 0xd6 }, .tramp_len = 4, /* eret */
	.prepare_user = arm64_prepare_user, .unsupported = arm64_unsupported,
};
