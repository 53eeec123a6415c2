/*
 * engine_unicorn.c — the reader's machine code in Unicorn, any arch.
 *
 * Owns: the emulator: memory map (code, the model's page mapped read-only
 * at a fixed address, stack, out-parameters, a return address outside the
 * code), the call of the reader by its ABI (a two-call ABI's second
 * function called where the first returned, the steps running on through
 * both: one run), stepping (one cycle per
 * instruction, kernel actions between instructions), page loads as
 * observation points, faults turned into verdicts, and state snapshots.
 * The arch table (uc_arch.h) supplies registers, the calling convention
 * and the traps.  Facts about Unicorn 2.0.1 it relies on: README.md, Engines,
 * and, for speed (each measured with bench/bench.c):
 *  - any UC_HOOK_MEM_READ sends every load and store of the reader down
 *    the slow path, whatever the hook's range; a uc_mmio_map region sends
 *    only its own accesses there, in pieces of at most 4 bytes (QEMU's
 *    default access size), and a region without a write callback is
 *    read-only (UC_MEM_WRITE_PROT).  The page, the stack's cold part and
 *    the out-parameters' and errno pages are such regions; --explain,
 *    which lists whole loads, maps the page as RAM with the hook instead
 *    (list_loads()).  uc_mem_read/uc_mem_write reach a region's callbacks
 *    too (the stubs' stores into the reader's memory).
 *  - the per-instruction code hook is the floor of a schedule's cost:
 *    helper_uc_tracecode walks the hook list for every instruction.
 */
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <capstone/capstone.h>
#include <unicorn/unicorn.h>

#include "elf_load.h"
#include "outfile.h"
#include "state_hash.h"
#include "uc_arch.h"

#define PAGE_ADDR SM_UC_PAGE_ADDR
#define STACK_ADDR SM_UC_STACK_ADDR
#define STACK_SIZE SM_UC_STACK_SIZE
/* The stack's top page is RAM; below it, device RAM (map_dev()), so that
 * snapshots copy it only after the reader has gone that deep. */
#define STACK_COLD (STACK_SIZE - 4096)
/* Below the stack, as far as Linux's default stack limit (8 MiB) reaches,
 * nothing is mapped: a reader's load or store there went past selfmon's
 * stack, not past what Linux gives it (stack_overflow()). */
#define STACK_GUARD (8ull << 20)
#define OUT_ADDR SM_UC_OUT_ADDR
#define OUT_SIZE SM_UC_OUT_SIZE
#define TCG_BUFFER_BYTES (32u << 20) /* translated code (uc_ctl, where offered) */
#define RET_ADDR SM_UC_RET_ADDR
_Static_assert(SM_UC_CTX_ADDR + SM_CTX_SIZE <= OUT_ADDR + OUT_SIZE,
               "a two-call reader's ctx lies in the out-parameters' page");

static const struct sm_uc_arch *const arches[SM_NARCH] = {
	[SM_X86_64] = &sm_uc_x86_64,
	[SM_ARM64] = &sm_uc_arm64,
	[SM_RISCV64] = &sm_uc_riscv64,
};

struct usnap {
	uc_context *ctx;
	struct ueng eng;       /* its run part: SM_UENG_RUN_BYTES */
	struct sm_run run;
	struct sm_result res;
	uint8_t stack[STACK_SIZE]; /* the cold part first: dev_snap() */
	uint8_t out[OUT_SIZE], errno_mem[4096];
	uint8_t *data;         /* the image's writable segments, data_bytes */
	struct sm_snapshot *model; /* sm_model_save() */
};

void sm_uc_fault(struct sm_session *s, const char *fmt, ...)
{
	struct ueng *e = s->eng;
	char msg[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	s->res.steps = s->run.step;
	sm_result_set(&s->res, SM_V_FAULT, "%s", msg);
	e->done = true;
	uc_emu_stop(e->uc);
}

bool sm_uc_disasm(enum sm_arch arch, const uint8_t *b, size_t n, uint64_t pc,
                  char *text, size_t tn)
{
	static const struct { cs_arch arch; cs_mode mode; } cs[SM_NARCH] = {
		[SM_X86_64] = { CS_ARCH_X86, CS_MODE_64 },
		[SM_ARM64] = { CS_ARCH_ARM64, CS_MODE_ARM },
	};
	csh h;
	cs_insn *insn;
	bool ok = false;

	if (arch == SM_RISCV64 ||
	    cs_open(cs[arch].arch, cs[arch].mode, &h) != CS_ERR_OK)
		return false;
	if (cs_disasm(h, b, n, pc, 1, &insn) == 1) {
		snprintf(text, tn, "%s %s", insn->mnemonic, insn->op_str);
		cs_free(insn, 1);
		ok = true;
	}
	cs_close(&h);
	return ok;
}

void sm_uc_refused(struct sm_session *s, uint64_t pc, const char *what)
{
	struct ueng *e = s->eng;
	uint8_t b[16] = { 0 };
	char name[96];

	if (pc >= SM_CODE_BASE && pc - SM_CODE_BASE < e->code_size)
		memcpy(b, e->code + (pc - SM_CODE_BASE),
		       e->code_size - (pc - SM_CODE_BASE) < sizeof(b)
		       ? e->code_size - (pc - SM_CODE_BASE) : sizeof(b));
	if (e->arch->unsupported(b, pc, name, sizeof(name))) {
		s->res.steps = s->run.step;
		sm_result_set(&s->res, SM_V_UNSUPPORTED, "the emulator (Unicorn "
		              "2.0.1) cannot run '%s' at 0x%" PRIx64 ", which a "
		              "real CPU runs: selfmon cannot judge this reader",
		              name, pc);
		e->done = true;
		uc_emu_stop(e->uc);
		return;
	}
	/* name the instruction, so that its address is seen to be its own */
	if (sm_uc_disasm(s->scn->cfg.arch, b, sizeof(b), pc, name, sizeof(name)))
		sm_uc_fault(s, "%s at 0x%" PRIx64 " ('%s')", what, pc, name);
	else if (s->scn->cfg.arch == SM_RISCV64 && (b[0] & 3) != 3)
		sm_uc_fault(s, "%s at 0x%" PRIx64 " (instruction %02x%02x)", what,
		            pc, b[1], b[0]);
	else if (s->scn->cfg.arch == SM_RISCV64)
		sm_uc_fault(s, "%s at 0x%" PRIx64 " (instruction %02x%02x%02x%02x)",
		            what, pc, b[3], b[2], b[1], b[0]);
	else
		sm_uc_fault(s, "%s at 0x%" PRIx64, what, pc);
	sm_result_fault(&s->res, SM_FK_INSTRUCTION, true, pc, false, 0);
}

/* The image's load-time code (run_inits()) did what only the reader's
 * call may: it ends there with the reason, as a fault of the load.  True
 * if so. */
static bool init_refuses(struct sm_session *s, const char *what)
{
	struct ueng *e = s->eng;

	if (!e->initing)
		return false;
	if (!e->done)
		sm_uc_fault(s, "%s: selfmon runs load-time code before the event "
		            "is open, and answers no counter, timer or page read "
		            "in it", what);
	return true;
}

void sm_uc_trapped(struct sm_session *s, uint64_t step, const char *what,
                   uint64_t arg, uint64_t value)
{
	struct ueng *e = s->eng;

	if (e->initing) {
		char why[96];
		snprintf(why, sizeof(why), "executes %s", what);
		init_refuses(s, why);
		return;
	}
	e->answered = what;
	sm_session_observe(s, step);
	if (s->tracer)
		s->tracer->trap(s, what, arg, value);
}

/* libc's convention: -1 and errno. */
static uint64_t libc_result(struct ueng *e, int64_t r)
{
	if (r >= 0)
		return (uint64_t)r;
	int32_t err = (int32_t)-r;
	uc_mem_write(e->uc, SM_UC_ERRNO_ADDR, &err, sizeof(err));
	return (uint64_t)-1;
}

/* May the reader access [addr, addr + n) with prot (UC_PROT_READ or
 * UC_PROT_WRITE)?  uc_mem_read/write ignore page protection, so the
 * stubs ask this first, as the reader's own loads and stores would. */
static bool allowed(const struct ueng *e, uint64_t addr, uint64_t n,
                    uint32_t prot)
{
	while (n) {
		unsigned i = 0;
		while (i < e->nregion && !(addr >= e->region[i].lo &&
		                           addr <= e->region[i].hi))
			i++;
		if (i == e->nregion || !(e->region[i].prot & prot))
			return false;
		uint64_t room = e->region[i].hi - addr + 1;
		if (room >= n)
			return true;
		n -= room;
		addr += room;
	}
	return true;
}

/* An access at addr (by the instruction `at`) went past selfmon's stack,
 * into STACK_GUARD: that is selfmon's limit, UNSUPPORTED, not the
 * reader's fault; true if so. */
static bool stack_overflow(struct sm_session *s, uint64_t addr,
                           const char *at)
{
	struct ueng *e = s->eng;

	if (addr >= STACK_ADDR || addr < STACK_ADDR - STACK_GUARD)
		return false;
	s->res.steps = s->run.step;
	sm_result_set(&s->res, SM_V_UNSUPPORTED, "the reader's stack went past "
	              "selfmon's %" PRIu64 " KiB stack (an access at 0x%" PRIx64
	              " %s; Linux gives 8 MiB by default): selfmon cannot judge "
	              "this reader", (uint64_t)(STACK_SIZE >> 10), addr, at);
	e->done = true;
	uc_emu_stop(e->uc);
	return true;
}

/* memcpy/memset through the emulator's memory, with the reader's own
 * access rights: checked over the whole range as the call starts; false
 * (and the verdict) if it may not. */
static bool mem_allowed(struct sm_session *s, bool copy, uint64_t dst,
                        uint64_t src, uint64_t n)
{
	struct ueng *e = s->eng;

	if (copy && !allowed(e, src, n, UC_PROT_READ) &&
	         !stack_overflow(s, src, "by memcpy"))
		sm_uc_fault(s, "memcpy from 0x%" PRIx64 " (%" PRIu64 " bytes): "
		            "not readable memory", src, n),
		sm_result_fault(&s->res, SM_FK_MEMORY, false, 0, true, src);
	else if (!allowed(e, dst, n, UC_PROT_WRITE) &&
	         !stack_overflow(s, dst, "by memcpy/memset"))
		sm_uc_fault(s, "memcpy/memset to 0x%" PRIx64 " (%" PRIu64 " bytes):"
		            " not writable memory (the page and code are "
		            "read-only)", dst, n),
		sm_result_fault(&s->res, SM_FK_MEMORY, false, 0, true, dst);
	return !e->done;
}

/* A load of the page after the reader's page was munmapped (the model's
 * munmap action, perf_mmap_close()): the address is no longer mapped, so
 * the load is the reader's SIGSEGV, as an unmapped read is in
 * hook_invalid().  The page stays mapped in the emulator (a snapshot from
 * before the munmap still reads it): the model's state decides.  True if
 * so, with the verdict set and the emulator stopped. */
static bool page_gone(struct sm_session *s, uint64_t addr)
{
	struct ueng *e = s->eng;
	uint64_t pc;

	if (!sm_model_unmapped(s->model, 0) || e->done)
		return sm_model_unmapped(s->model, 0);
	uc_reg_read(e->uc, e->arch->reg_pc, &pc);
	sm_uc_fault(s, "read of unmapped address 0x%" PRIx64 " at 0x%" PRIx64
	            " (the perf page, munmapped)", addr, pc);
	sm_result_fault(&s->res, SM_FK_MEMORY, true, pc, true, addr);
	return true;
}

/* The next piece of a copy from src + done (n - done bytes left): a copy
 * from the perf page is a series of loads, each of which the kernel may
 * write before, so there a piece ends at the next 8-byte boundary of the
 * source (ascending order, at most 8 bytes: a word-at-a-time copy); the
 * reader's own memory, which only it writes, goes in one piece up to the
 * page or the end. */
static uint64_t copy_piece(uint64_t src, uint64_t done, uint64_t n,
                           bool *on_page)
{
	uint64_t at = src + done, left = n - done;

	*on_page = at >= PAGE_ADDR && at < PAGE_ADDR + 4096;
	if (*on_page)
		return 8 - (at & 7) < left ? 8 - (at & 7) : left;
	if (at < PAGE_ADDR && PAGE_ADDR - at < left)
		return PAGE_ADDR - at;
	return left;
}

/* One step of memcpy/memset: a memset, or a copy from the reader's own
 * memory, is done in one; a copy that reads the perf page takes a step per
 * piece of the page it loads (copy_piece()), each an observation point,
 * its progress in e->copied.  True when the call is done (or faulted). */
static bool mem_op(struct sm_session *s, bool copy, uint64_t dst,
                   uint64_t src, uint64_t n)
{
	struct ueng *e = s->eng;
	uint8_t *buf = e->bounce;
	uint64_t done = e->copied, piece = n - done;
	bool on_page = false;

	if (!done && !mem_allowed(s, copy, dst, src, n))
		return true;
	if (copy)
		piece = copy_piece(src, done, n, &on_page);
	if (on_page && (init_refuses(s, "copies from the perf page") ||
	                page_gone(s, src + done)))
		return true;
	if (on_page) {
		sm_session_observe(s, s->run.step - 1);
		if (s->tracer) {
			uint64_t v = 0;
			memcpy(&v, (const uint8_t *)sm_model_page_mem(s->model, 0) + (src + done - PAGE_ADDR),
			       piece);
			s->tracer->load(s, (unsigned)(src + done - PAGE_ADDR),
			                (unsigned)piece, v);
		}
	}
	/* through a bounce buffer, SM_UC_COPY_MAX at a time: the range is
	 * the reader's own mappings (mem_allowed()), so bounded by them */
	for (uint64_t k = 0; k < piece; k += SM_UC_COPY_MAX) {
		size_t m = piece - k < SM_UC_COPY_MAX ? piece - k : SM_UC_COPY_MAX;
		if ((copy ? uc_mem_read(e->uc, src + done + k, buf, m)
		          : (memset(buf, (int)src, m), UC_ERR_OK)) ||
		    uc_mem_write(e->uc, dst + done + k, buf, m)) {
			sm_uc_fault(s, "bad memory range in a memcpy/memset of %"
			            PRIu64 " bytes at 0x%" PRIx64, n, dst);
			sm_result_fault(&s->res, SM_FK_CALL, false, 0, true, dst);
			return true;
		}
	}
	e->copied = done + piece < n ? done + piece : 0;
	return e->copied == 0;
}

/* Return from a stub as the arch's `ret` would.  x86-64 pops its return
 * address, with the reader's access rights: a stack pointer aimed at
 * memory the reader cannot read is the reader's FAULT, as the `ret` would
 * be (or selfmon's stack limit, stack_overflow()). */
static void stub_return(struct sm_session *s, uint64_t value)
{
	struct ueng *e = s->eng;
	const struct sm_uc_arch *a = e->arch;
	uint64_t ret, sp;

	uc_reg_write(e->uc, a->reg_ret, &value);
	if (a->reg_link >= 0) {
		uc_reg_read(e->uc, a->reg_link, &ret);
	} else { /* x86-64: pop the return address */
		uc_reg_read(e->uc, a->reg_sp, &sp);
		if (!allowed(e, sp, 8, UC_PROT_READ) ||
		    uc_mem_read(e->uc, sp, &ret, 8) != UC_ERR_OK) {
			if (!stack_overflow(s, sp, "by the return from an import"))
				sm_uc_fault(s, "return from an import with the stack "
				            "pointer at 0x%" PRIx64 ", not readable "
				            "memory: read of unmapped address 0x%" PRIx64,
				            sp, sp),
				sm_result_fault(&s->res, SM_FK_CALL, false, 0, true, sp);
			return;
		}
		sp += 8;
		uc_reg_write(e->uc, a->reg_sp, &sp);
	}
	uc_reg_write(e->uc, a->reg_pc, &ret);
}

/* clock_gettime(clk, ts), as Linux answers it (kernel/time/posix-timers.c
 * and its vDSO): the clocks a process may name, all read from the model's
 * clock (the task's CPU's sched_clock, in ns); another clock EINVAL, a ts
 * it may not write EFAULT.  An observation point in the call, as a
 * counter read is. */
static int64_t clock_stub(struct sm_session *s, uint64_t clk, uint64_t ts)
{
	struct ueng *e = s->eng;

	if (clk > 11 || clk == 10) /* 10: CLOCK_SGI_CYCLE, gone */
		return -22;
	if (!allowed(e, ts, 16, UC_PROT_WRITE))
		return -14;
	if (!e->initing)
		sm_session_settle(s);
	uint64_t ns = sm_model_ns(s->model, sm_model_task_cpu(s->model),
	                          sm_model_now(s->model));
	int64_t t[2] = { (int64_t)(ns / 1000000000u),
	                 (int64_t)(ns % 1000000000u) };
	uc_mem_write(e->uc, ts, t, sizeof(t));
	if (!e->initing)
		sm_uc_trapped(s, s->run.step - 1, "clock_gettime", clk, ns);
	return 0;
}

/* sysconf(name): the few names a reader asks (glibc's
 * sysdeps/unix/sysv/linux/sysconf.c), EINVAL otherwise. */
static int64_t sysconf_stub(struct sm_session *s, uint64_t name)
{
	switch (name) {
	case 2: return 100;  /* _SC_CLK_TCK: USER_HZ */
	case 30: return 4096; /* _SC_PAGESIZE */
	case 83: /* _SC_NPROCESSORS_CONF */
	case 84: /* _SC_NPROCESSORS_ONLN */
		return sm_model_config(s->model)->ncpus;
	default: return -22;
	}
}

/* The imports a user reader may call (elf_load.h), answered here. */
static void import_stub(struct sm_session *s, uint64_t pc)
{
	struct ueng *e = s->eng;
	uint64_t a[4], v;

	for (int i = 0; i < 4; i++)
		uc_reg_read(e->uc, e->arch->reg_arg[i], &a[i]);
	switch ((pc - SM_UC_STUB_ADDR) / 16) {
	case SM_STUB_READ:
		v = libc_result(e, sm_uc_syscall(s, 0, 0, a[0], a[1], a[2]));
		break;
	case SM_STUB_SYSCALL:
		v = libc_result(e, sm_uc_syscall(s, e->arch->nr_read, a[0], a[1],
		                                 a[2], a[3]));
		break;
	case SM_STUB_ERRNO:
		v = SM_UC_ERRNO_ADDR;
		break;
	case SM_STUB_MEMCPY:
	case SM_STUB_MEMSET:
		if (!mem_op(s, (pc - SM_UC_STUB_ADDR) / 16 == SM_STUB_MEMCPY, a[0],
		            a[1], a[2])) {
			/* more pieces: the stub again, as the next step */
			uc_reg_write(e->uc, e->arch->reg_pc, &pc);
			return;
		}
		v = a[0];
		break;
	case SM_STUB_CLOCK_GETTIME:
		v = libc_result(e, clock_stub(s, a[0], a[1]));
		break;
	case SM_STUB_SYSCONF:
		v = libc_result(e, sysconf_stub(s, a[0]));
		break;
	case SM_STUB_GETPID:
		v = SM_UC_PID;
		break;
	case SM_STUB_CXA_ATEXIT: /* a destructor to run at exit: never */
		v = 0;
		break;
	case SM_STUB_STACK_CHK_FAIL:
	case SM_STUB_ABORT:
		sm_uc_fault(s, "%s (its process ends with SIGABRT)",
		            (pc - SM_UC_STUB_ADDR) / 16 == SM_STUB_ABORT
		            ? "the reader called abort()"
		            : "stack smashing detected: the reader's stack "
		              "protector found its canary overwritten "
		              "(__stack_chk_fail)");
		sm_result_fault(&s->res, SM_FK_CALL, false, 0, false, 0);
		return;
	default:
		sm_uc_fault(s, "call to 0x%" PRIx64 " (no import there) from step %"
		            PRIu64, pc, s->run.step);
		sm_result_fault(&s->res, SM_FK_CALL, false, 0, true, pc);
		return;
	}
	if (!e->done)
		stub_return(s, v);
}

bool sm_uc_progress(struct sm_session *s, uint64_t pc)
{
	struct ueng *e = s->eng;

	if (e->answered && pc == e->prev_pc) {
		s->res.steps = s->run.step;
		sm_result_set(&s->res, SM_V_ERROR, "selfmon error: the emulator "
		              "executes again the instruction at 0x%" PRIx64 " (%s) "
		              "after selfmon answered it, instead of moving on: "
		              "this Unicorn cannot run it here", pc, e->answered);
		e->done = true;
		uc_emu_stop(e->uc);
		return false;
	}
	e->prev_pc = pc;
	e->answered = NULL;
	return true;
}

/* A step of the image's load-time code (run_inits()): bounded, its
 * imports answered, its traps refused (init_refuses()). */
static void init_step(struct sm_session *s, uint64_t pc)
{
	struct ueng *e = s->eng;

	if (++e->init_steps > SM_UC_INIT_BUDGET) {
		sm_uc_fault(s, "ran past %u instructions (at 0x%" PRIx64 ")",
		            SM_UC_INIT_BUDGET, pc);
		return;
	}
	if (pc >= SM_UC_STUB_ADDR && pc < SM_UC_STUB_ADDR + 4096) {
		e->in_stub = true;
		import_stub(s, pc);
		e->in_stub = false;
		e->answered = NULL;
		return;
	}
	uint64_t off = pc - SM_CODE_BASE;
	if (!(e->plain[off >> 3] & (1u << (off & 7))) &&
	    !e->arch->trap(s, pc, e->code + off))
		e->plain[off >> 3] |= (uint8_t)(1u << (off & 7));
}

static void hook_code(uc_engine *uc, uint64_t pc, uint32_t size, void *user)
{
	struct sm_session *s = user;
	struct ueng *e = s->eng;
	(void)uc;

	if (pc - SM_CODE_BASE >= e->code_size && pc - SM_UC_STUB_ADDR >= 4096)
		return; /* the return address, where emulation stops */
	if (!sm_uc_progress(s, pc))
		return;
	if (__builtin_expect(e->initing, 0)) {
		init_step(s, pc);
		return;
	}

	if (e->ticked != s->run.step + 1) {
		sm_session_tick(s);
		e->ticked = s->run.step + 1;
	}
	if (s->run.step == e->stop) {
		e->stopped = true;
		uc_emu_stop(e->uc);
		return;
	}
	if (s->run.step >= SM_BUDGET) {
		sm_session_budget(s);
		e->done = true;
		uc_emu_stop(e->uc);
		return;
	}
	if (pc >= SM_UC_STUB_ADDR && pc < SM_UC_STUB_ADDR + 4096) {
		s->run.step++; /* the stub is one step, answered as it starts */
		e->in_stub = true;
		import_stub(s, pc);
		e->in_stub = false;
		e->answered = NULL; /* it moved on: its return set the pc */
		return;
	}
	uint64_t off = pc - SM_CODE_BASE;
	const uint8_t *b = e->code + off;
	if (s->tracer)
		s->tracer->insn(s, pc, b, size);
	if (!(e->plain[off >> 3] & (1u << (off & 7))) &&
	    !e->arch->trap(s, pc, b))
		e->plain[off >> 3] |= (uint8_t)(1u << (off & 7));
	s->run.step++;
}

/* The page is device memory (uc_mmio_map): only its loads leave the
 * emulator's fast path, and each is answered here from the model's page
 * as it is at that instant, and makes an observation point.  (A memory
 * hook instead would send every load and store of the reader down the
 * slow path.)  Little-endian targets; no write callback, so a store to
 * the page is a protection fault (hook_invalid). */
static uint64_t page_read(uc_engine *uc, uint64_t off, unsigned size,
                          void *user)
{
	struct sm_session *s = user;
	uint64_t v = 0;
	(void)uc;

	if (init_refuses(s, "reads the perf page") || page_gone(s, PAGE_ADDR + off))
		return 0;
	if (off < 4096 && size <= 8 && size <= 4096 - off)
		memcpy(&v, (const uint8_t *)sm_model_page_mem(s->model, 0) + off, size);
	if (!((struct ueng *)s->eng)->in_stub)
		sm_session_observe(s, s->run.step - 1);
	return v;
}

/* A tracer (--explain) is told every load of the page as the instruction
 * made it, which the device callbacks cannot (they come in pieces of at
 * most 4 bytes): for a traced run the page is RAM with a read hook. */
static void hook_page_read(uc_engine *uc, uc_mem_type type, uint64_t addr,
                           int size, int64_t value, void *user)
{
	struct sm_session *s = user;
	uint64_t v = 0;
	(void)uc, (void)type, (void)value;

	if (page_gone(s, addr))
		return;
	sm_session_observe(s, s->run.step - 1);
	memcpy(&v, (const uint8_t *)sm_model_page_mem(s->model, 0) + (addr - PAGE_ADDR),
	       (size_t)size < 8 ? (size_t)size : 8);
	s->tracer->load(s, (unsigned)(addr - PAGE_ADDR), (unsigned)size, v);
}

/* Before the first listed run: the page becomes RAM with the hook, and
 * code translated without the hook is dropped: the reader's and the
 * stubs' (the only code that runs), range by range.  Not UC_CTL_TB_FLUSH:
 * Unicorn 2.0.1's tb_flush writes over its whole translation buffer (1
 * GiB), which then stays resident. */
static int list_loads(struct sm_session *s)
{
	struct ueng *e = s->eng;
	uc_hook h;

	if (uc_mem_unmap(e->uc, PAGE_ADDR, 4096) ||
	    uc_mem_map_ptr(e->uc, PAGE_ADDR, 4096, UC_PROT_READ,
	                   sm_model_page_mem(s->model, 0)) ||
	    uc_hook_add(e->uc, &h, UC_HOOK_MEM_READ, (void *)hook_page_read, s,
	                PAGE_ADDR, PAGE_ADDR + 4095) ||
	    uc_ctl_remove_cache(e->uc, SM_CODE_BASE,
	                        SM_CODE_BASE + e->code_size) ||
	    uc_ctl_remove_cache(e->uc, SM_UC_STUB_ADDR, SM_UC_STUB_ADDR + 4096))
		return -1;
	e->listing = true;
	return 0;
}

/* read(2) on the event's fd is answered by the model, in the layout of
 * the event's read_format (model/readfmt.c); other fds EBADF, other
 * syscalls ENOSYS. */
int64_t sm_uc_syscall(struct sm_session *s, uint64_t nr_read, uint64_t nr,
                      uint64_t fd, uint64_t buf, uint64_t len)
{
	struct ueng *e = s->eng;
	uint64_t vals[SM_READ_MAX / 8];
	size_t need = sm_model_read_size(s->model, 0);
	int64_t ret;

	if (e->initing) /* no event is open yet */
		return nr == nr_read ? -9 : -38;
	if (nr == nr_read && fd == SM_EVENT_FD) /* whatever it returns */
		s->run.counter_last = false; /* the counter path (session.h) */
	if (nr != nr_read)
		ret = -38;
	else if (fd != SM_EVENT_FD)
		ret = -9;
	else if (len >= need && !allowed(e, buf, need, UC_PROT_WRITE))
		ret = -14; /* EFAULT: the kernel's copy_to_user() checks */
	else if (sm_session_settle(s),
	         (ret = sm_model_read(s->model, 0, vals, len)) > 0 &&
	         uc_mem_write(e->uc, buf, vals, (size_t)ret) != UC_ERR_OK)
		ret = -14;
	s->run.deadline = sm_model_next_activity(s->model);
	sm_uc_trapped(s, s->run.step - 1, "read", fd, (uint64_t)ret);
	return ret;
}

/* What an invalid access is, in the reader's terms. */
static const char *access_name(const struct ueng *e, uc_mem_type type,
                               uint64_t addr)
{
	bool page = addr >= PAGE_ADDR && addr < PAGE_ADDR + 4096;

	switch (type) {
	case UC_MEM_WRITE_PROT:
		return page ? "write to the read-only perf page"
		            : allowed(e, addr, 1, UC_PROT_EXEC)
		            ? "write to read-only code" : "write to read-only memory";
	case UC_MEM_READ_PROT:
		return "read of unreadable memory";
	case UC_MEM_FETCH_PROT:
		return "jump into non-executable memory (data or stack)";
	case UC_MEM_FETCH_UNMAPPED:
		return "jump to unmapped";
	case UC_MEM_WRITE_UNMAPPED:
		return "write to unmapped";
	default:
		return "read of unmapped";
	}
}

static bool hook_invalid(uc_engine *uc, uc_mem_type type, uint64_t addr,
                         int size, int64_t value, void *user)
{
	struct sm_session *s = user;
	struct ueng *e = s->eng;
	uint64_t pc;
	char at[32];
	(void)size, (void)value;

	uc_reg_read(uc, e->arch->reg_pc, &pc);
	snprintf(at, sizeof(at), "at 0x%" PRIx64, pc);
	if ((type == UC_MEM_READ_UNMAPPED || type == UC_MEM_WRITE_UNMAPPED) &&
	    stack_overflow(s, addr, at))
		return false;
	sm_uc_fault(s, "%s address 0x%" PRIx64 " at 0x%" PRIx64,
	            access_name(e, type, addr), addr, pc);
	sm_result_fault(&s->res, SM_FK_MEMORY, true, pc, true, addr);
	return false;
}

static uint64_t symbol(const struct sm_blob *b, const char *name)
{
	for (unsigned i = 0; i < b->nsyms; i++)
		if (!strcmp(b->names[i], name))
			return SM_CODE_BASE + b->offsets[i];
	return 0;
}

/* A mapping into the list the stubs' access checks use. */
static int add_region(struct ueng *e, uint64_t addr, uint64_t size,
                      uint32_t prot)
{
	if (e->nregion == SM_UC_MAX_REGIONS)
		return -1;
	e->region[e->nregion].lo = addr;
	e->region[e->nregion].hi = addr + size - 1;
	e->region[e->nregion++].prot = prot;
	return 0;
}

static int map(struct ueng *e, uint64_t addr, uint64_t size, uint32_t prot,
               void *host)
{
	uc_err err = host ? uc_mem_map_ptr(e->uc, addr, size, prot, host)
	                  : uc_mem_map(e->uc, addr, size, prot);
	return err == UC_ERR_OK ? add_region(e, addr, size, prot) : -1;
}

static uint64_t dev_load(uc_engine *uc, uint64_t off, unsigned size,
                         void *user)
{
	const struct dev_ram *d = user;
	uint64_t v = 0;
	(void)uc;

	if (off < d->size && size <= 8 && size <= d->size - off)
		memcpy(&v, d->host + off, size);
	return v;
}

static void dev_store(uc_engine *uc, uint64_t off, unsigned size, uint64_t v,
                      void *user)
{
	const struct dev_ram *d = user;
	(void)uc;

	if (off < d->size && size <= 8 && size <= d->size - off) {
		memcpy(d->host + off, &v, size);
		if (off + size > *d->hi)
			*d->hi = (uint32_t)(off + size);
	}
}

/* Device RAM: read-write memory that runs rarely store to, as device
 * memory over host bytes that remembers how far up it was stored to: a
 * run's reset, snapshots and the state hash take only that much of it,
 * and a reader that stores anywhere in it is still undone. */
static int map_dev(struct ueng *e, uint64_t addr, int i, uint8_t *host,
                   uint32_t size)
{
	struct dev_ram *d = &e->dev[i];

	*d = (struct dev_ram){ host, size, &e->dev_hi[i] };
	if (uc_mmio_map(e->uc, addr, size, dev_load, d, dev_store, d))
		return -1;
	return add_region(e, addr, size, UC_PROT_READ | UC_PROT_WRITE);
}

/* The stack: its cold part as device RAM, its top page as RAM. */
static int map_stack(struct ueng *e)
{
	if (map_dev(e, STACK_ADDR, SM_UC_DEV_COLD, e->stack, STACK_COLD) < 0)
		return -1;
	return map(e, STACK_ADDR + STACK_COLD, STACK_SIZE - STACK_COLD,
	           UC_PROT_READ | UC_PROT_WRITE, e->stack + STACK_COLD);
}

/* The perf page: read-only device memory answered by page_read(). */
static int map_page(struct ueng *e, struct sm_session *s)
{
	if (uc_mmio_map(e->uc, PAGE_ADDR, 4096, page_read, s, NULL, NULL))
		return -1;
	return add_region(e, PAGE_ADDR, 4096, UC_PROT_READ);
}

/* The reader's code: a user's loaded ELF image, or the built-in readers'
 * image (one read-write-execute region). */
static int load_code(struct sm_session *s, struct sm_image *view, char *err,
                     size_t n)
{
	const struct sm_image *img = s->reader->image;
	const struct sm_blob *b;

	if (img) {
		*view = *img;
		return 0;
	}
	if (!(b = sm_blob_for(s->scn->cfg.arch)))
		return snprintf(err, n, "no reader code built for %s",
		                sm_arch_name(s->scn->cfg.arch)), -1;
	memset(view, 0, sizeof(*view));
	view->mem = (uint8_t *)b->code;
	view->size = (b->size + 0xfff) & ~0xfffull;
	view->seg[0] = (struct sm_segment){ 0, view->size,
	                                    SM_PROT_R | SM_PROT_X };
	view->nseg = 1;
	view->entry = symbol(b, s->reader->symbol);
	if (!view->entry)
		return snprintf(err, n, "reader '%s' is not in the %s code",
		                s->reader->name, sm_arch_name(b->arch)), -1;
	return 0;
}

/* The image's segments.  No page is both writable and executable: a
 * writable and executable segment is mapped read-execute (code wins; a
 * write to it is the reader's fault), so whatever runs is the image's
 * own code, decoded and hooked.  Writable segments live in host memory,
 * so that each run starts from their first bytes and snapshots copy
 * them. */
static int map_code(struct ueng *e, const struct sm_image *v, uint64_t avail)
{
	for (unsigned i = 0; i < v->nseg; i++) {
		const struct sm_segment *g = &v->seg[i];
		bool x = g->prot & SM_PROT_X, w = (g->prot & SM_PROT_W) && !x;
		uint32_t prot = (g->prot & SM_PROT_R ? UC_PROT_READ : 0) |
		                (w ? UC_PROT_WRITE : 0) | (x ? UC_PROT_EXEC : 0);
		uint64_t bytes = g->off < avail ? avail - g->off : 0;
		uint8_t *host = NULL;
		if (bytes > g->size)
			bytes = g->size;
		if (w) {
			if (e->ndata == sizeof(e->data) / sizeof(e->data[0]) ||
			    !(host = aligned_alloc(4096, g->size)))
				return -1;
			e->data[e->ndata].host = host;
			e->data[e->ndata].init = v->mem + g->off;
			e->data[e->ndata].ninit = bytes;
			e->data[e->ndata++].size = g->size;
			e->data_bytes += g->size;
		}
		if (map(e, SM_CODE_BASE + g->off, g->size, prot, host) < 0 ||
		    (!w && uc_mem_write(e->uc, SM_CODE_BASE + g->off,
		                        v->mem + g->off, bytes)))
			return -1;
	}
	return 0;
}

/* Each run starts with the image's writable segments as loaded. */
static void reset_data(struct ueng *e)
{
	for (unsigned i = 0; i < e->ndata; i++) {
		memcpy(e->data[i].host, e->data[i].init, e->data[i].ninit);
		memset(e->data[i].host + e->data[i].ninit, 0,
		       e->data[i].size - e->data[i].ninit);
	}
}

/* Each import stub holds the arch's `ret`: the code hook answers the call
 * before it runs, but the emulator must be able to translate it (riscv
 * raises an illegal instruction for zero bytes while translating). */
static int fill_stubs(struct ueng *e)
{
	static const uint8_t ret[SM_NARCH][4] = {
		[SM_X86_64] = { 0xc3, 0x90, 0x90, 0x90 },
		[SM_ARM64] = { 0xc0, 0x03, 0x5f, 0xd6 },   /* ret */
		[SM_RISCV64] = { 0x67, 0x80, 0x00, 0x00 }, /* jalr x0, 0(ra) */
	};
	uint8_t page[2048];
	const uint8_t *r = ret[e->arch == &sm_uc_x86_64 ? SM_X86_64
	                       : e->arch == &sm_uc_arm64 ? SM_ARM64 : SM_RISCV64];

	for (size_t k = 0; k < sizeof(page); k += 4)
		memcpy(page + k, r, 4);
	return uc_mem_write(e->uc, SM_UC_STUB_ADDR, page, sizeof(page)) ? -1 : 0;
}

/* The reader runs as user code, as on Linux (x86 CPL3, arm64 EL0,
 * riscv64 U-mode), so privileged instructions fault as they do there:
 * one exception return from the emulator's start level lands at
 * RET_ADDR, and the trampoline's page is gone before the reader runs.
 * The context saved after it is every run's start.  (No instruction
 * count to uc_emu_start: in Unicorn 2.0.1 one costs seconds and a
 * gigabyte of memory; the until address stops it.) */
static int to_user(struct ueng *e)
{
	const struct sm_uc_arch *a = e->arch;
	uint64_t pc = 0;

	if (uc_mem_map(e->uc, SM_UC_TRAMP_ADDR, 4096, UC_PROT_READ | UC_PROT_EXEC) ||
	    uc_mem_write(e->uc, SM_UC_TRAMP_ADDR, a->tramp, a->tramp_len) ||
	    a->prepare_user(e->uc) < 0 ||
	    uc_emu_start(e->uc, SM_UC_TRAMP_ADDR, RET_ADDR, 0, 0) != UC_ERR_OK ||
	    uc_reg_read(e->uc, a->reg_pc, &pc) || pc != RET_ADDR ||
	    uc_mem_unmap(e->uc, SM_UC_TRAMP_ADDR, 4096))
		return -1;
	return 0;
}

/* Unicorn (QEMU) calls exit(1) itself when it cannot allocate its
 * translation buffer (e.g. under `ulimit -v`): status 1 would read as "a
 * reader failed".  While this thread is inside Unicorn, exit means out of
 * memory: say so and leave with selfmon's own status, 2. */
static _Thread_local bool in_unicorn;
/* The end of a process the emulator cannot go on in: exit 2. */
static void fatal_exit(void)
{
	sm_out_unlink_temps(); /* the outputs' temporaries (outfile.h) */
	_exit(2);
}

static void unicorn_exit_guard(void)
{
	if (!in_unicorn)
		return;
	fputs("selfmon: the emulator (Unicorn) ran out of memory\n", stderr);
	fatal_exit();
}

/* Unicorn 2.0.1 aborts the process on some code it cannot translate (x86
 * `ljmp`/`lcall` through a register, ff /5 and ff /3 with a register
 * operand, which a real CPU refuses with #UD: its translator has no such
 * check, upstream issue #1716).  Translation comes before any hook, so
 * the reader's instruction cannot be refused first.  While this thread is
 * inside Unicorn, SIGABRT is that: one line after Unicorn's own, exit 2
 * (selfmon's limit), not a core dump. */
static void unicorn_abort_guard(int sig)
{
	static const char msg[] = "selfmon: the emulator (Unicorn 2.0.1) "
		"aborted translating the reader's code (an instruction it cannot "
		"translate, such as x86 ljmp or lcall through a register): "
		"selfmon cannot judge this reader\n";

	if (in_unicorn) {
		if (write(2, msg, sizeof(msg) - 1) < 0) {
			/* nothing more to say */
		}
		fatal_exit();
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void guard_once(void)
{
	struct sigaction sa = { .sa_handler = unicorn_abort_guard };

	atexit(unicorn_exit_guard);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGABRT, &sa, NULL);
}

/* The reader's entry points in its image; a two-call ABI needs both. */
static int take_entries(struct sm_session *s, const struct sm_image *view,
                        char *err, size_t n)
{
	struct ueng *e = s->eng;

	e->entry = view->entry;
	e->entry2 = view->entry2;
	if (sm_abi_two_calls(s->reader->abi) && !e->entry2)
		return snprintf(err, n, "the %s ABI needs two functions "
		                "(PATH:FIRST,READ)", sm_abi_name(s->reader->abi)), -1;
	return 0;
}

static int open_engine(struct sm_session *s, char *err, size_t n)
{
	struct ueng *e = calloc(1, sizeof(*e));
	struct sm_image view;
	uc_hook h;
	static const uint8_t hlt[16] = { 0xf4 }; /* never executed: until */

	if (!e)
		return snprintf(err, n, "out of memory"), -1;
	s->eng = e;
	if (load_code(s, &view, err, n) < 0)
		return -1;
	e->code = view.mem;
	if (take_entries(s, &view, err, n) < 0)
		return -1;
	e->code_size = view.size;
	e->arch = arches[s->scn->cfg.arch];
	if (!(e->plain = calloc(e->code_size / 8 + 1, 1)))
		return snprintf(err, n, "out of memory"), -1;
	if (uc_open(e->arch->arch, e->arch->mode, &e->uc) != UC_ERR_OK)
		return snprintf(err, n, "uc_open failed"), -1;
#ifdef uc_ctl_set_tcg_buffer_size
	/* a Unicorn that can size its translation buffer: a reader is a few
	 * KiB of code, not the default 1 GiB (Unicorn 2.0.1 cannot: its
	 * buffer is a fixed 1 GiB mapping, beyond `ulimit -v 800000`) */
	if (uc_ctl_set_tcg_buffer_size(e->uc, TCG_BUFFER_BYTES) != UC_ERR_OK)
		return snprintf(err, n, "cannot size the emulator's buffer"), -1;
#endif
	e->stack = aligned_alloc(4096, STACK_SIZE);
	e->out = calloc(1, OUT_SIZE);
	e->errno_mem = calloc(1, 4096);
	e->bounce = malloc(SM_UC_COPY_MAX);
	uint64_t avail = s->reader->image ? view.size
	                 : sm_blob_for(s->scn->cfg.arch)->size;
	if (!e->stack || !e->out || !e->errno_mem || !e->bounce ||
	    map_code(e, &view, avail) < 0 ||
	    map_page(e, s) < 0 ||
	    map_stack(e) < 0 ||
	    map_dev(e, OUT_ADDR, SM_UC_DEV_OUT, e->out, OUT_SIZE) < 0 ||
	    map(e, RET_ADDR, 4096, UC_PROT_READ | UC_PROT_EXEC, NULL) < 0 ||
	    uc_mem_write(e->uc, RET_ADDR, hlt, sizeof(hlt)) ||
	    map(e, SM_UC_STUB_ADDR, 4096, UC_PROT_READ | UC_PROT_EXEC, NULL) < 0 ||
	    fill_stubs(e) < 0 ||
	    map_dev(e, SM_UC_ERRNO_ADDR, SM_UC_DEV_ERRNO, e->errno_mem,
	            4096) < 0)
		return snprintf(err, n, "cannot map the reader's memory"), -1;
	/* every hook before the first uc_emu_start (README.md, Engines) */
	/* one code hook over the code and the stubs: Unicorn walks its list
	 * of code hooks for every instruction */
	if (uc_hook_add(e->uc, &h, UC_HOOK_CODE, (void *)hook_code, s,
	                SM_CODE_BASE, SM_UC_STUB_ADDR + 4095) ||
	    uc_hook_add(e->uc, &h, UC_HOOK_MEM_INVALID, (void *)hook_invalid, s,
	                1, 0) ||
	    e->arch->add_hooks(s, e->uc))
		return snprintf(err, n, "cannot add the emulator hooks"), -1;
	uint64_t tp = SM_UC_TLS_ADDR;
	if (to_user(e) < 0 || uc_reg_write(e->uc, e->arch->reg_tls, &tp))
		return snprintf(err, n, "cannot run the reader at user level"), -1;
	if (uc_context_alloc(e->uc, &e->fresh) != UC_ERR_OK ||
	    uc_context_save(e->uc, e->fresh) != UC_ERR_OK ||
	    uc_context_alloc(e->uc, &e->hctx) != UC_ERR_OK)
		return snprintf(err, n, "cannot save the emulator context"), -1;
	e->hctx_size = uc_context_size(e->uc);
	e->own_code = s->reader->image != NULL;
	e->ready = true;
	return 0;
}

/* The next cell of the same session on the emulator it has (check's
 * workers keep one session: sm_session_init()): the built-in readers of
 * one arch are one image, mapped the same way, and every hook's user
 * data is this session, so a cell of another built-in reader or another
 * scenario on that arch needs only the reader's entry points; begin()
 * resets registers and memory for each run as always.  Opening an
 * emulator (uc_open(), its mappings) costs as much as a thousand runs
 * under the sanitizers (#41 item 6).  Not a user's image (its data
 * segments are the image's own), nor after a listing (--explain remaps
 * the page). */
static bool keep_engine(struct sm_session *s, char *err, size_t n, int *rc)
{
	struct ueng *e = s->eng;
	struct sm_image view;

	if (!e->ready || e->own_code || e->listing || s->reader->image ||
	    e->arch != arches[s->scn->cfg.arch])
		return false;
	if (load_code(s, &view, err, n) < 0) {
		*rc = -1;
		return true;
	}
	*rc = take_entries(s, &view, err, n);
	/* what the trap decoder learnt of this code holds for the arch, but
	 * is cheap to learn again */
	memset(e->plain, 0, e->code_size / 8 + 1);
	return true;
}

static void u_close(struct sm_session *s)
{
	struct ueng *e = s->eng;

	if (!e)
		return;
	if (e->fresh)
		uc_context_free(e->fresh);
	if (e->hctx)
		uc_context_free(e->hctx);
	if (e->uc)
		uc_close(e->uc);
	free(e->stack);
	free(e->out);
	free(e->errno_mem);
	free(e->bounce);
	free(e->plain);
	for (unsigned i = 0; i < e->ndata; i++) {
		free(e->data[i].host);
		free(e->data[i].after_init);
	}
	free(e);
	s->eng = NULL;
}

static int run_inits(struct sm_session *s, char *err, size_t n);

/* The call by the arch's C convention; the return address is outside the
 * code, where emulation stops. */
static int u_open(struct sm_session *s, char *err, size_t n)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, guard_once);
	int rc = 0;
	if (s->eng && keep_engine(s, err, n, &rc))
		return rc;
	u_close(s);
	in_unicorn = true;
	rc = open_engine(s, err, n);
	in_unicorn = false;
	return rc < 0 ? rc : run_inits(s, err, n);
}

/* Call the function at pc with args, returning to RET_ADDR. */
static void call(struct ueng *e, uint64_t pc, const uint64_t args[4])
{
	const struct sm_uc_arch *a = e->arch;
	uint64_t sp = STACK_ADDR + STACK_SIZE - 64, ret = RET_ADDR;

	if (a->reg_link < 0)
		memcpy(e->stack + (sp - STACK_ADDR), &ret, 8); /* pushed */
	else
		uc_reg_write(e->uc, a->reg_link, &ret);
	uc_reg_write(e->uc, a->reg_sp, &sp);
	for (int i = 0; i < 4; i++)
		uc_reg_write(e->uc, a->reg_arg[i], &args[i]);
	uc_reg_write(e->uc, a->reg_pc, &pc);
}

/* Why load-time code item `in` failed, into err; -1. */
static int init_failed(struct sm_session *s, const struct sm_init *in,
                       char *err, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int init_failed(struct sm_session *s, const struct sm_init *in,
                       char *err, size_t n, const char *fmt, ...)
{
	const struct sm_image *img = s->reader->image;
	char why[1100];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(err, n, "%s: %s%s (at 0x%" PRIx64 "), run at load time as "
	         "ld.so would: %s", img->path ? img->path : s->reader->name,
	         in->kind == SM_INIT_CALL ? "" : "the resolver of ",
	         in->kind == SM_INIT_ENTRY || in->kind == SM_INIT_ENTRY2
	         ? "the entry point" : in->what, in->fn, why);
	return -1;
}

/* What an IFUNC resolver is called with (glibc's elf_ifunc_invoke():
 * x86-64 nothing; arm64 AT_HWCAP | _IFUNC_ARG_HWCAP and a pointer to
 * __ifunc_arg_t {size, hwcap, hwcap2}; riscv64 AT_HWCAP and no
 * __riscv_hwprobe); an initialiser (elf/dl-init.c call_init()) gets
 * argc, argv and envp: 0 and empty lists.  In the out-parameters' page,
 * which every run clears. */
static void init_args(struct ueng *e, const struct sm_init *in,
                      uint64_t args[4])
{
	const uint64_t lists = OUT_ADDR + 0x400, arg = OUT_ADDR + 0x440;
	uint64_t ifunc_arg[3] = { 24, e->arch->hwcap, 0 };

	memset(args, 0, 4 * sizeof(*args));
	memset(e->out, 0, OUT_SIZE);
	if (in->kind == SM_INIT_CALL) {
		args[1] = args[2] = lists;
		return;
	}
	args[0] = e->arch->hwcap;
	if (e->arch->ifunc_arg) {
		args[0] |= 1ull << 62;
		args[1] = arg;
		memcpy(e->out + (arg - OUT_ADDR), ifunc_arg, sizeof(ifunc_arg));
	}
}

/* Where a resolver's result goes: a word of the image, or an entry. */
static int init_result(struct sm_session *s, const struct sm_init *in,
                       uint64_t ret, char *err, size_t n)
{
	struct ueng *e = s->eng;
	uint64_t v = ret + in->addend;

	switch (in->kind) {
	case SM_INIT_CALL:
		return 0;
	case SM_INIT_SLOT:
		if (!allowed(e, in->place, 8, UC_PROT_WRITE) ||
		    uc_mem_write(e->uc, in->place, &v, 8) != UC_ERR_OK)
			return init_failed(s, in, err, n, "its word at 0x%" PRIx64
			                   " is not writable memory", in->place);
		return 0;
	case SM_INIT_ENTRY:
	case SM_INIT_ENTRY2:
		if (ret - SM_CODE_BASE >= e->code_size ||
		    !allowed(e, ret, 1, UC_PROT_EXEC))
			return init_failed(s, in, err, n, "it returned 0x%" PRIx64
			                   ", not an address of the object's code",
			                   ret);
		*(in->kind == SM_INIT_ENTRY ? &e->entry : &e->entry2) = ret;
		return 0;
	}
	return 0;
}

/* The image's load-time code (elf_load.h, struct sm_init), once as the
 * emulator opens, in ld.so's order, at user level with the reader's
 * imports (init_step()); every run then starts from the writable
 * segments as it left them, as each process of the library's users
 * would. */
static int run_inits(struct sm_session *s, char *err, size_t n)
{
	struct ueng *e = s->eng;
	const struct sm_image *img = s->reader->image;
	uint64_t args[4], pc, ret;

	if (!img || !img->ninit)
		return 0;
	e->initing = true;
	e->init_steps = 0;
	reset_data(e); /* the segments as loaded, the stack zeroes */
	memset(e->stack, 0, STACK_SIZE);
	for (size_t i = 0; i < img->ninit; i++) {
		const struct sm_init *in = &img->init[i];
		uc_context_restore(e->uc, e->fresh);
		init_args(e, in, args);
		call(e, in->fn, args);
		memset(&s->res, 0, sizeof(s->res));
		e->done = false;
		e->prev_pc = 0;
		e->answered = NULL;
		in_unicorn = true;
		uc_err r = uc_emu_start(e->uc, in->fn, RET_ADDR, 0, 0);
		in_unicorn = false;
		uc_reg_read(e->uc, e->arch->reg_pc, &pc);
		if (e->done)
			return init_failed(s, in, err, n, "%s", s->res.detail);
		if (r != UC_ERR_OK || pc != RET_ADDR)
			return init_failed(s, in, err, n, "emulation error %u at 0x%"
			                   PRIx64, (unsigned)r, pc);
		uc_reg_read(e->uc, e->arch->reg_ret, &ret);
		if (init_result(s, in, ret, err, n) < 0)
			return -1;
	}
	e->initing = false;
	memset(&s->res, 0, sizeof(s->res));
	for (unsigned i = 0; i < e->ndata; i++) {
		if (!(e->data[i].after_init = malloc(e->data[i].size)))
			return snprintf(err, n, "out of memory"), -1;
		memcpy(e->data[i].after_init, e->data[i].host, e->data[i].size);
		e->data[i].init = e->data[i].after_init;
		e->data[i].ninit = e->data[i].size;
	}
	return 0;
}

/* A two-call ABI's first function returned: the read is called at the
 * next step (an action placed there lands between the two calls), and
 * the window's samples so far are the first call's. */
static void second_call(struct sm_session *s)
{
	struct ueng *e = s->eng;
	uint64_t args[4] = { PAGE_ADDR, SM_EVENT_FD, SM_UC_CTX_ADDR, OUT_ADDR };

	sm_session_settle(s);
	s->run.call = 1;
	s->run.split = s->run.nsamples;
	call(e, e->entry2, args);
	if (s->tracer && s->tracer->second_call)
		s->tracer->second_call(s);
}

static void u_begin(struct sm_session *s)
{
	struct ueng *e = s->eng;
	uint64_t args[4] = { PAGE_ADDR, 0, 0, 0 };

	sm_session_start(s);
	for (int i = 0; i < SM_UC_NDEV; i++) {
		memset(e->dev[i].host, 0, e->dev_hi[i]);
		e->dev_hi[i] = 0;
	}
	memset(e->stack + STACK_COLD, 0, STACK_SIZE - STACK_COLD);
	reset_data(e);
	if (s->reader->abi == SM_ABI_TIMES) {
		args[1] = OUT_ADDR;
		args[2] = OUT_ADDR + 8;
	} else if (s->reader->abi == SM_ABI_VALUES) {
		args[1] = SM_EVENT_FD;
		args[2] = OUT_ADDR;
	} else if (sm_abi_two_calls(s->reader->abi)) {
		args[1] = SM_EVENT_FD;
		args[2] = SM_UC_CTX_ADDR;
	}
	uc_context_restore(e->uc, e->fresh); /* every register as at start */
	call(e, e->entry, args);
	e->ticked = 0;
	e->pmselr = e->pmselr_seen = 0; /* uc_arm64.c: what it held at entry */
	e->pmselr_pc = 0;
	e->copied = 0;
	e->prev_pc = 0;
	e->answered = NULL;
	e->done = false;
	e->stopped = false;
	if (s->tracer && !e->listing && list_loads(s) < 0) {
		sm_result_set(&s->res, SM_V_ERROR, "selfmon error: the emulator "
		              "cannot list the page's loads");
		e->done = true;
	}
}

/* The reader returned: collect its values by ABI and judge them at the
 * instant after its last instruction. */
static void returned(struct sm_session *s)
{
	struct ueng *e = s->eng;
	uint64_t rax, v[3] = { 0 };
	int rc = 0;

	sm_session_tick(s);
	uc_reg_read(e->uc, e->arch->reg_ret, &rax);
	switch (s->reader->abi) {
	case SM_ABI_RAW:
	case SM_ABI_SCALED:
		v[0] = rax;
		break;
	case SM_ABI_TIMES:
		v[0] = rax;
		memcpy(&v[1], e->out, 16);
		break;
	case SM_ABI_DELTA:
		v[0] = rax;
		break;
	case SM_ABI_VALUES:
	case SM_ABI_RESET:
		rc = (int)(int32_t)rax;
		memcpy(v, e->out, 24);
		break;
	case SM_NABI:
		break;
	}
	sm_session_returned(s, rc);
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
	uc_err err;
	for (;;) {
		uc_reg_read(e->uc, e->arch->reg_pc, &pc);
		in_unicorn = true;
		err = uc_emu_start(e->uc, pc, RET_ADDR, 0, 0);
		in_unicorn = false;
		if (e->stopped)
			return true;
		if (e->done)
			break;
		uc_reg_read(e->uc, e->arch->reg_pc, &pc);
		if (err != UC_ERR_OK || pc != RET_ADDR ||
		    !sm_abi_two_calls(s->reader->abi) || s->run.call)
			break;
		second_call(s); /* the first of two returned */
	}
	if (!e->done) {
		if (err == UC_ERR_OK && pc == RET_ADDR)
			returned(s);
		else if (err == UC_ERR_INSN_INVALID)
			sm_uc_refused(s, pc, "invalid instruction (#UD)");
		else
			sm_uc_fault(s, "emulation error %" PRIu64 " at 0x%" PRIx64,
			            (uint64_t)err, pc),
			sm_result_fault(&s->res, SM_FK_EXCEPTION, true, pc, false, 0);
	}
	e->done = true;
	return false;
}

/* The image's writable segments into (save) or from a snapshot. */
static void copy_data(struct ueng *e, uint8_t *buf, bool save)
{
	for (unsigned i = 0; i < e->ndata; i++) {
		if (save)
			memcpy(buf, e->data[i].host, e->data[i].size);
		else
			memcpy(e->data[i].host, buf, e->data[i].size);
		buf += e->data[i].size;
	}
}

static void u_free_snap(void *snap)
{
	struct usnap *p = snap;

	if (!p)
		return;
	if (p->ctx)
		uc_context_free(p->ctx);
	sm_snapshot_free(p->model);
	free(p->data);
	free(p);
}

/* Where a snapshot keeps device RAM i. */
static uint8_t *dev_snap(const struct usnap *p, int i)
{
	const uint8_t *b[SM_UC_NDEV] = {
		[SM_UC_DEV_COLD] = p->stack, [SM_UC_DEV_OUT] = p->out,
		[SM_UC_DEV_ERRNO] = p->errno_mem,
	};
	return (uint8_t *)b[i];
}

static void *u_save(struct sm_session *s, void *snap)
{
	struct ueng *e = s->eng;
	struct usnap *p = snap;

	if (!p) {
		p = aligned_alloc(4096, (sizeof(*p) + 4095) & ~(size_t)4095);
		if (!p)
			return NULL;
		p->ctx = NULL;
		p->data = malloc(e->data_bytes + 1);
		p->model = sm_snapshot_new();
		if (!p->data || !p->model ||
		    uc_context_alloc(e->uc, &p->ctx) != UC_ERR_OK) {
			u_free_snap(p);
			return NULL;
		}
	}
	uc_context_save(e->uc, p->ctx);
	memcpy(&p->eng, e, SM_UENG_RUN_BYTES);
	p->run = s->run;
	p->res = s->res;
	sm_model_save(s->model, p->model);
	for (int i = 0; i < SM_UC_NDEV; i++) /* above hi: zeroes */
		memcpy(dev_snap(p, i), e->dev[i].host, e->dev_hi[i]);
	memcpy(p->stack + STACK_COLD, e->stack + STACK_COLD,
	       STACK_SIZE - STACK_COLD);
	copy_data(e, p->data, true);
	return p;
}

/* A device page back to a snapshot's bytes (saved: the first hi of
 * them); above hi it was zeroes, up to now_hi it was stored to since. */
static void undo_dev(uint8_t *host, uint32_t now_hi, const uint8_t *saved,
                     uint32_t hi)
{
	if (now_hi > hi)
		memset(host + hi, 0, now_hi - hi);
	memcpy(host, saved, hi);
}

static void u_restore(struct sm_session *s, const void *snap)
{
	const struct usnap *p = snap;
	struct ueng *e = s->eng;

	uint32_t hi[SM_UC_NDEV];

	memcpy(hi, e->dev_hi, sizeof(hi));
	uc_context_restore(e->uc, p->ctx);
	memcpy(e, &p->eng, SM_UENG_RUN_BYTES);
	s->run = p->run;
	s->res = p->res;
	sm_model_restore(s->model, p->model);
	for (int i = 0; i < SM_UC_NDEV; i++)
		undo_dev(e->dev[i].host, hi[i], dev_snap(p, i), e->dev_hi[i]);
	memcpy(e->stack + STACK_COLD, p->stack + STACK_COLD,
	       STACK_SIZE - STACK_COLD);
	copy_data(e, p->data, false);
}

/* What a snapshot saves, hashed (state_hash.h): the CPU's whole context,
 * the engine's run state but for where it was told to stop, the stored-to
 * part of each device RAM, the stack's top page and the writable
 * segments; the model; the run. */
static void u_hash(struct sm_session *s, struct sm_hasher *h)
{
	struct ueng *e = s->eng;

	uc_context_save(e->uc, e->hctx);
	sm_hash_bytes(h, e->hctx, e->hctx_size);
	sm_hash_bytes(h, (const uint8_t *)e + offsetof(struct ueng, ticked),
	              SM_UENG_RUN_BYTES - offsetof(struct ueng, ticked));
	for (int i = 0; i < SM_UC_NDEV; i++)
		sm_hash_bytes(h, e->dev[i].host, e->dev_hi[i]);
	sm_hash_bytes(h, e->stack + STACK_COLD, STACK_SIZE - STACK_COLD);
	for (unsigned i = 0; i < e->ndata; i++)
		sm_hash_bytes(h, e->data[i].host, e->data[i].size);
	sm_hash_model(h, s->model);
	sm_hash_run(h, &s->run);
}

const struct sm_engine_ops sm_engine_unicorn = {
	.open = u_open, .close = u_close, .begin = u_begin, .run = u_run,
	.save = u_save, .restore = u_restore, .free_snap = u_free_snap,
	.hash = u_hash,
};
