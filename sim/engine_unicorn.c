/*
 * engine_unicorn.c — the reader's machine code in Unicorn (x86-64).
 *
 * Owns: the emulator: memory map (code, the model's page mapped read-only
 * at a fixed address, stack, out-parameters, a return stub outside the
 * code), the call of the reader by its ABI, the traps (rdpmc, rdtsc,
 * rdtscp decoded in the code hook and answered by the model; syscall
 * read(2) answered by the model), faults turned into verdicts, and state
 * snapshots.  Facts about Unicorn 2.0.1 it relies on are in DESIGN.md §6.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unicorn/unicorn.h>

#include "explain.h"
#include "session.h"

#define PAGE_ADDR 0x20000000ull
#define STACK_ADDR 0x30000000ull
#define STACK_SIZE 0x4000ull
#define OUT_ADDR 0x40000000ull
#define OUT_SIZE 0x1000ull
#define RET_ADDR 0x50000000ull

struct ueng {
	uc_engine *uc;
	const struct sm_blob *blob;
	uint64_t entry, code_size;
	uint64_t stop;          /* stop before this step */
	uint64_t ticked;        /* step + 1 of the last tick */
	bool stopped, done;
	uint8_t *stack, *out;   /* host memory behind the mappings */
	char fault[160];
};

struct usnap {
	uc_context *ctx;
	struct ueng eng;
	uint64_t step, deadline, last_kernel_step;
	unsigned npoints, nsamples, sched_next, timed_next;
	bool kernel_active;
	struct sm_result res;
	size_t model_bytes;
	uint8_t stack[STACK_SIZE], out[64];
	struct sm_model model; /* copied partially: up to the used pages */
};

static void finish_fault(struct sm_session *s, const char *fmt, uint64_t a,
                         uint64_t b)
{
	struct ueng *e = s->eng;
	char msg[160];

	snprintf(msg, sizeof(msg), fmt, a, b);
	s->res.steps = s->step;
	sm_result_set(&s->res, V_FAULT, "%s", msg);
	e->done = true;
	uc_emu_stop(e->uc);
}

/* rdpmc / rdtsc / rdtscp: answered here, then skipped. */
static bool trap(struct sm_session *s, uint64_t pc, const uint8_t *b)
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
			rcx = s->model.task_cpu;
			uc_reg_write(e->uc, UC_X86_REG_RCX, &rcx);
		}
	} else if (b[1] == 0x33) {
		what = "rdpmc";
		len = 2;
		uc_reg_read(e->uc, UC_X86_REG_RCX, &rcx);
		rcx &= 0xffffffffu;
		if (sm_model_rdpmc(&s->model, (uint32_t)rcx, &v) != SM_OK) {
			sm_session_observe(s, s->step);
			finish_fault(s, "rdpmc with ECX=0x%" PRIx64 " raised #GP at "
			             "0x%" PRIx64, rcx, pc);
			return true;
		}
	} else {
		return false;
	}
	uint64_t lo = v & 0xffffffffu, hi = v >> 32, next = pc + len;
	uc_reg_write(e->uc, UC_X86_REG_RAX, &lo);
	uc_reg_write(e->uc, UC_X86_REG_RDX, &hi);
	uc_reg_write(e->uc, UC_X86_REG_RIP, &next);
	sm_session_observe(s, s->step);
	if (s->explain)
		sm_explain_trap(s, what, rcx, v);
	return true;
}

static void hook_code(uc_engine *uc, uint64_t pc, uint32_t size, void *user)
{
	struct sm_session *s = user;
	struct ueng *e = s->eng;
	(void)uc;

	if (e->ticked != s->step + 1) {
		sm_session_tick(s);
		e->ticked = s->step + 1;
	}
	if (s->step == e->stop) {
		e->stopped = true;
		uc_emu_stop(e->uc);
		return;
	}
	if (s->step >= SM_BUDGET) {
		sm_session_budget(s);
		e->done = true;
		uc_emu_stop(e->uc);
		return;
	}
	const uint8_t *b = e->blob->code + (pc - SM_CODE_BASE);
	if (s->explain)
		sm_explain_insn(s, pc, b, size);
	trap(s, pc, b);
	s->step++;
}

static void hook_page_read(uc_engine *uc, uc_mem_type type, uint64_t addr,
                           int size, int64_t value, void *user)
{
	struct sm_session *s = user;
	(void)uc, (void)type, (void)value;

	sm_session_observe(s, s->step - 1);
	if (s->explain) {
		uint64_t v = 0;
		memcpy(&v, s->model.page[0].bytes + (addr - PAGE_ADDR),
		       (size_t)size < 8 ? (size_t)size : 8);
		sm_explain_load(s, (unsigned)(addr - PAGE_ADDR), (unsigned)size, v);
	}
}

/* read(2) on the event's fd is answered by the model; other fds EBADF,
 * other syscalls ENOSYS. */
static void hook_syscall(uc_engine *uc, void *user)
{
	struct sm_session *s = user;
	uint64_t nr, fd, buf, len;
	int64_t ret;
	uint64_t vals[3];

	uc_reg_read(uc, UC_X86_REG_RAX, &nr);
	uc_reg_read(uc, UC_X86_REG_RDI, &fd);
	uc_reg_read(uc, UC_X86_REG_RSI, &buf);
	uc_reg_read(uc, UC_X86_REG_RDX, &len);
	sm_session_observe(s, s->step - 1);
	if (nr != 0)
		ret = -38;
	else if (fd != SM_EVENT_FD)
		ret = -9;
	else if ((ret = sm_model_read(&s->model, 0, vals, len)) > 0 &&
	         uc_mem_write(uc, buf, vals, (size_t)ret) != UC_ERR_OK)
		ret = -14;
	s->deadline = sm_model_next_activity(&s->model);
	if (s->explain)
		sm_explain_trap(s, "read", fd, (uint64_t)ret);
	uc_reg_write(uc, UC_X86_REG_RAX, &ret);
}

static bool hook_invalid(uc_engine *uc, uc_mem_type type, uint64_t addr,
                         int size, int64_t value, void *user)
{
	struct sm_session *s = user;
	struct ueng *e = s->eng;
	uint64_t pc;
	(void)size, (void)value;

	uc_reg_read(uc, UC_X86_REG_RIP, &pc);
	const char *what = type == UC_MEM_WRITE_PROT ? "write to the read-only "
	                   "page" : type == UC_MEM_FETCH_UNMAPPED ? "jump to "
	                   "unmapped" : type == UC_MEM_WRITE_UNMAPPED ? "write to "
	                   "unmapped" : "read of unmapped";
	snprintf(e->fault, sizeof(e->fault), "%s address 0x%%" PRIx64
	         " at 0x%%" PRIx64, what);
	finish_fault(s, e->fault, addr, pc);
	return false;
}

static void hook_intr(uc_engine *uc, uint32_t intno, void *user)
{
	struct sm_session *s = user;
	uint64_t pc;

	uc_reg_read(uc, UC_X86_REG_RIP, &pc);
	finish_fault(s, intno == 0 ? "divide error (#DE, vector %" PRIu64
	             ") at 0x%" PRIx64 : "CPU exception %" PRIu64 " at 0x%" PRIx64,
	             intno, pc);
}

static uint64_t symbol(const struct sm_blob *b, const char *name)
{
	for (unsigned i = 0; i < b->nsyms; i++)
		if (!strcmp(b->names[i], name))
			return SM_CODE_BASE + b->offsets[i];
	return 0;
}

static int map(struct ueng *e, uint64_t addr, uint64_t size, uint32_t prot,
               void *host)
{
	uc_err err = host ? uc_mem_map_ptr(e->uc, addr, size, prot, host)
	                  : uc_mem_map(e->uc, addr, size, prot);
	return err == UC_ERR_OK ? 0 : -1;
}

static int u_open(struct sm_session *s, char *err, size_t n)
{
	struct ueng *e = calloc(1, sizeof(*e));
	uc_hook h;
	static const uint8_t hlt[16] = { 0xf4 };

	if (!e)
		return snprintf(err, n, "out of memory"), -1;
	s->eng = e;
	e->blob = sm_blob_for(s->scn->cfg.arch);
	if (!e->blob)
		return snprintf(err, n, "no reader code built for %s",
		                sm_arch_name(s->scn->cfg.arch)), -1;
	e->entry = symbol(e->blob, s->reader->symbol);
	if (!e->entry)
		return snprintf(err, n, "reader '%s' is not in the %s code",
		                s->reader->name, sm_arch_name(e->blob->arch)), -1;
	if (uc_open(UC_ARCH_X86, UC_MODE_64, &e->uc) != UC_ERR_OK)
		return snprintf(err, n, "uc_open failed"), -1;
	e->code_size = (e->blob->size + 0xfff) & ~0xfffull;
	e->stack = aligned_alloc(4096, STACK_SIZE);
	e->out = aligned_alloc(4096, OUT_SIZE);
	if (!e->stack || !e->out ||
	    map(e, SM_CODE_BASE, e->code_size, UC_PROT_ALL, NULL) < 0 ||
	    uc_mem_write(e->uc, SM_CODE_BASE, e->blob->code, e->blob->size) ||
	    map(e, PAGE_ADDR, 4096, UC_PROT_READ, s->model.page[0].bytes) < 0 ||
	    map(e, STACK_ADDR, STACK_SIZE, UC_PROT_READ | UC_PROT_WRITE,
	        e->stack) < 0 ||
	    map(e, OUT_ADDR, OUT_SIZE, UC_PROT_READ | UC_PROT_WRITE, e->out) < 0 ||
	    map(e, RET_ADDR, 4096, UC_PROT_ALL, NULL) < 0 ||
	    uc_mem_write(e->uc, RET_ADDR, hlt, sizeof(hlt)))
		return snprintf(err, n, "cannot map the reader's memory"), -1;
	/* every hook before the first uc_emu_start (DESIGN.md §6) */
	if (uc_hook_add(e->uc, &h, UC_HOOK_CODE, (void *)hook_code, s,
	                SM_CODE_BASE, SM_CODE_BASE + e->code_size - 1) ||
	    uc_hook_add(e->uc, &h, UC_HOOK_MEM_READ, (void *)hook_page_read, s,
	                PAGE_ADDR, PAGE_ADDR + 4095) ||
	    uc_hook_add(e->uc, &h, UC_HOOK_INSN, (void *)hook_syscall, s, 1, 0,
	                UC_X86_INS_SYSCALL) ||
	    uc_hook_add(e->uc, &h, UC_HOOK_MEM_INVALID, (void *)hook_invalid, s,
	                1, 0) ||
	    uc_hook_add(e->uc, &h, UC_HOOK_INTR, (void *)hook_intr, s, 1, 0))
		return snprintf(err, n, "cannot add the emulator hooks"), -1;
	return 0;
}

static void u_close(struct sm_session *s)
{
	struct ueng *e = s->eng;

	if (!e)
		return;
	if (e->uc)
		uc_close(e->uc);
	free(e->stack);
	free(e->out);
	free(e);
	s->eng = NULL;
}

/* The call: SysV x86-64, return address = the stub outside the code. */
static void u_begin(struct sm_session *s)
{
	struct ueng *e = s->eng;
	uint64_t sp = STACK_ADDR + STACK_SIZE - 64, ret = RET_ADDR;
	uint64_t page = PAGE_ADDR, a2 = 0, a3 = 0, zero = 0;

	sm_session_start(s);
	memset(e->stack, 0, STACK_SIZE);
	memset(e->out, 0, 64);
	memcpy(e->stack + (sp - STACK_ADDR), &ret, 8);
	if (s->reader->abi == ABI_TIMES) {
		a2 = OUT_ADDR;
		a3 = OUT_ADDR + 8;
	} else if (s->reader->abi == ABI_VALUES) {
		a2 = SM_EVENT_FD;
		a3 = OUT_ADDR;
	}
	static const int zero_regs[] = {
		UC_X86_REG_RAX, UC_X86_REG_RBX, UC_X86_REG_RCX, UC_X86_REG_RBP,
		UC_X86_REG_R8, UC_X86_REG_R9, UC_X86_REG_R10, UC_X86_REG_R11,
		UC_X86_REG_R12, UC_X86_REG_R13, UC_X86_REG_R14, UC_X86_REG_R15,
	};
	for (size_t i = 0; i < sizeof(zero_regs) / sizeof(zero_regs[0]); i++)
		uc_reg_write(e->uc, zero_regs[i], &zero);
	uc_reg_write(e->uc, UC_X86_REG_RSP, &sp);
	uc_reg_write(e->uc, UC_X86_REG_RDI, &page);
	uc_reg_write(e->uc, UC_X86_REG_RSI, &a2);
	uc_reg_write(e->uc, UC_X86_REG_RDX, &a3);
	uc_reg_write(e->uc, UC_X86_REG_RIP, &e->entry);
	e->ticked = 0;
	e->done = false;
	e->stopped = false;
}

/* The reader returned: collect its values by ABI and judge them at the
 * instant after its last instruction. */
static void returned(struct sm_session *s)
{
	struct ueng *e = s->eng;
	uint64_t rax, v[3] = { 0 };
	int rc = 0;

	sm_session_tick(s);
	uc_reg_read(e->uc, UC_X86_REG_RAX, &rax);
	switch (s->reader->abi) {
	case ABI_RAW:
	case ABI_SCALED:
		v[0] = rax;
		break;
	case ABI_TIMES:
		v[0] = rax;
		memcpy(&v[1], e->out, 16);
		break;
	case ABI_VALUES:
		rc = (int)(int32_t)rax;
		memcpy(v, e->out, 24);
		break;
	case NABI:
		break;
	}
	sm_oracle_judge(s, v, rc);
}

static bool u_run(struct sm_session *s, uint64_t stop)
{
	struct ueng *e = s->eng;
	uint64_t pc;

	if (e->done)
		return false;
	e->stop = stop;
	e->stopped = false;
	uc_reg_read(e->uc, UC_X86_REG_RIP, &pc);
	uc_err err = uc_emu_start(e->uc, pc, RET_ADDR, 0, 0);
	if (e->stopped)
		return true;
	if (!e->done) {
		uc_reg_read(e->uc, UC_X86_REG_RIP, &pc);
		if (err == UC_ERR_OK && pc == RET_ADDR)
			returned(s);
		else
			finish_fault(s, err == UC_ERR_INSN_INVALID
			             ? "invalid instruction (#UD, %" PRIu64 ") at 0x%"
			             PRIx64 : "emulation error %" PRIu64 " at 0x%" PRIx64,
			             (uint64_t)err, pc);
	}
	e->done = true;
	return false;
}

static void *u_save(struct sm_session *s, void *snap)
{
	struct ueng *e = s->eng;
	struct usnap *p = snap;

	if (!p) {
		p = aligned_alloc(4096, (sizeof(*p) + 4095) & ~(size_t)4095);
		if (!p || uc_context_alloc(e->uc, &p->ctx) != UC_ERR_OK)
			abort();
	}
	uc_context_save(e->uc, p->ctx);
	p->eng = *e;
	p->step = s->step;
	p->deadline = s->deadline;
	p->last_kernel_step = s->last_kernel_step;
	p->npoints = s->npoints;
	p->nsamples = s->nsamples;
	p->sched_next = s->sched_next;
	p->timed_next = s->timed_next;
	p->kernel_active = s->kernel_active;
	p->res = s->res;
	p->model_bytes = offsetof(struct sm_model, page) +
	                 s->model.cfg.nevents * sizeof(s->model.page[0]);
	memcpy(&p->model, &s->model, p->model_bytes);
	memcpy(p->stack, e->stack, STACK_SIZE);
	memcpy(p->out, e->out, sizeof(p->out));
	return p;
}

static void u_restore(struct sm_session *s, const void *snap)
{
	const struct usnap *p = snap;
	struct ueng *e = s->eng;

	uc_context_restore(e->uc, p->ctx);
	*e = p->eng;
	s->step = p->step;
	s->deadline = p->deadline;
	s->last_kernel_step = p->last_kernel_step;
	s->npoints = p->npoints;
	s->nsamples = p->nsamples;
	s->sched_next = p->sched_next;
	s->timed_next = p->timed_next;
	s->kernel_active = p->kernel_active;
	s->res = p->res;
	memcpy(&s->model, &p->model, p->model_bytes);
	memcpy(e->stack, p->stack, STACK_SIZE);
	memcpy(e->out, p->out, sizeof(p->out));
}

static void u_free_snap(void *snap)
{
	struct usnap *p = snap;

	if (!p)
		return;
	uc_context_free(p->ctx);
	free(p);
}

const struct sm_engine_ops sm_engine_unicorn = {
	.open = u_open, .close = u_close, .begin = u_begin, .run = u_run,
	.save = u_save, .restore = u_restore, .free_snap = u_free_snap,
};
