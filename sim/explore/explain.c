/*
 * explain.c — the --explain listing (see explain.h).
 *
 * Owns: the listing's text, the disassembly (capstone; objdump for
 * riscv64) and the source line of each instruction (srcline.c) with its
 * text (srctext.c), shown once before the first instruction of the line,
 * as objdump -S does.  Must not change the run: it only prints what the
 * engines report.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "explain.h"

/* capstone's name for each arch.  Debian 12's capstone (4.0) has no
 * RISC-V: there the cross binutils' objdump disassembles the built-in
 * readers' image instead (objdump_listing()). */
static const struct { int ok; cs_arch arch; cs_mode mode; } disasm[SM_NARCH] = {
	[SM_X86_64] = { 1, CS_ARCH_X86, CS_MODE_64 },
	[SM_ARM64] = { 1, CS_ARCH_ARM64, CS_MODE_ARM },
	[SM_RISCV64] = { 0, CS_ARCH_ALL, 0 },
};

/* The listing of session s. */
#define X(s) ((struct sm_explain *)(s)->trace)

/* Out of memory while listing: the listing stops here and x->oom says so
 * (the command reports it and exits 2: half a listing would mislead). */
static void oom(struct sm_explain *x)
{
	if (!x->oom && x->f)
		fflush(x->f);
	x->oom = true;
}

#ifdef SELFMON_RISCV64_OBJDUMP
/* The cross binutils' objdump on `fd` (the image's ELF file), as its
 * own process with an argument vector (no shell: no name reaches a
 * command line), its output read from a pipe.  NULL when it cannot run;
 * *pid to wait for. */
static FILE *run_tool(const char *tool, int fd, pid_t *pid)
{
	int pipefd[2];
	posix_spawn_file_actions_t fa;
	char *argv[] = { (char *)tool, "-d", "--no-show-raw-insn",
	                 "/dev/fd/3", NULL };
	char *envp[] = { "LC_ALL=C", NULL };
	FILE *f = NULL;

	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return NULL;
	if (posix_spawn_file_actions_init(&fa) != 0) {
		close(pipefd[0]), close(pipefd[1]);
		return NULL;
	}
	/* dup2 leaves the copies open across exec; the originals close */
	if (posix_spawn_file_actions_adddup2(&fa, fd, 3) == 0 &&
	    posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1) == 0 &&
	    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0)
	    == 0 && posix_spawn(pid, tool, &fa, NULL, argv, envp) == 0)
		f = fdopen(pipefd[0], "r");
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (!f)
		close(pipefd[0]);
	return f;
}

/* "addr: text" of every instruction of the image, from objdump (an
 * absolute path found at build time; nothing is looked up on PATH). */
static void objdump_listing(struct sm_explain *x, const char *tool,
                            const struct sm_blob *b)
{
	char line[300];
	pid_t pid;
	int fd = memfd_create("readers.elf", MFD_CLOEXEC);

	if (fd < 0)
		return;
	FILE *p = NULL;
	if (write(fd, b->elf, b->elf_size) == (ssize_t)b->elf_size)
		p = run_tool(tool, fd, &pid);
	close(fd);
	if (!p)
		return;
	while (fgets(line, sizeof(line), p)) {
		unsigned long long a;
		int used = 0;
		if (x->nlist >= SM_EXPLAIN_LIST ||
		    sscanf(line, " %llx:%n", &a, &used) != 1 || !used ||
		    line[used] != '\t')
			continue; /* read on to the end: the tool never blocks */
		line[strcspn(line, "\n")] = '\0';
		x->list[x->nlist].addr = a;
		snprintf(x->list[x->nlist++].text, sizeof(x->list[0].text), "%s",
		         line + used + 1);
	}
	fclose(p);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

#endif /* SELFMON_RISCV64_OBJDUMP */

/* The line table of the reader code: the built-in readers' image is
 * embedded in selfmon with its debug info (an installed selfmon reads
 * nothing of the build tree); a user's object has its own, if it was
 * built with -g. */
static void open_lines(struct sm_explain *x, const struct sm_session *s)
{
	enum sm_arch a = s->scn->cfg.arch;
	const struct sm_image *img = s->reader->image;
	const struct sm_blob *b = sm_blob_for(a);

	if (!(x->text = sm_srctext_new(!img)))
		oom(x);
	if (img) {
		if (img->path)
			x->lines = sm_srclines_file(img->path, img);
		return;
	}
	if (!b)
		return;
	x->lines = sm_srclines_memory(b->elf, b->elf_size);
#ifdef SELFMON_RISCV64_OBJDUMP
	if (!x->have_cs && a == SM_RISCV64)
		objdump_listing(x, SELFMON_RISCV64_OBJDUMP, b);
#endif
}

void sm_explain_init(struct sm_explain *x, FILE *f, const struct sm_session *s)
{
	enum sm_arch a = s->scn->cfg.arch;

	memset(x, 0, sizeof(*x));
	if (!(x->list = calloc(SM_EXPLAIN_LIST, sizeof(*x->list))))
		oom(x);
	x->f = f;
	x->last = *sm_model_page(s->model, 0);
	x->first = x->last;
	sm_model_kview(s->model, &x->klast);
	x->kfirst = x->klast;
	x->insn_step = UINT64_MAX;
	x->have_cs = disasm[a].ok &&
	             cs_open(disasm[a].arch, disasm[a].mode, &x->cs) == CS_ERR_OK;
	open_lines(x, s);
}

void sm_explain_done(struct sm_explain *x)
{
	if (x->quiet && x->f)
		fprintf(x->f, "        ... %" PRIu64 " more steps not listed\n",
		        x->quiet);
	if (x->have_cs)
		cs_close(&x->cs);
	x->have_cs = false;
	free(x->list);
	x->list = NULL;
	for (unsigned i = 0; i < sizeof(x->src) / sizeof(x->src[0]); i++) {
		free(x->src[i].where);
		free(x->src[i].text);
	}
	sm_srctext_free(x->text);
	x->text = NULL;
	free(x->note);
	x->note = NULL;
	free(x->last_where);
	x->last_where = NULL;
	sm_srclines_free(x->lines);
	x->lines = NULL;
	sm_srclines_free(x->self);
	x->self = NULL;
}

void sm_explain_free(struct sm_explain *x)
{
	for (size_t i = 0; i < x->nev; i++) {
		free(x->ev[i].where);
		free(x->ev[i].src_text);
		free(x->ev[i].src_note);
	}
	free(x->ev);
	x->ev = NULL;
	x->nev = x->cap = 0;
}

/* A new event to fill (zeroed), or NULL when not recording (or out of
 * memory: x->oom says so). */
static struct sm_xevent *rec(struct sm_explain *x, enum sm_xkind kind,
                             uint64_t step)
{
	if (!x->record || x->oom)
		return NULL;
	if (x->nev == x->cap) {
		size_t cap = x->cap ? 2 * x->cap : 1024;
		struct sm_xevent *ev = realloc(x->ev, cap * sizeof(*ev));
		if (!ev) {
			x->oom = true;
			return NULL;
		}
		x->ev = ev;
		x->cap = cap;
	}
	struct sm_xevent *e = &x->ev[x->nev++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->step = step;
	e->field = -1;
	return e;
}

/* The index of a page field in selfmon_page_fields, -1 for none. */
static int field_index(const struct selfmon_page_field *f)
{
	return f ? (int)(f - selfmon_page_fields) : -1;
}

/* The text of addr's source line in lines (malloc'ed), NULL when it is
 * not shown; the first time a file's text cannot be, the note saying why
 * waits in x->note for the listing. */
static char *line_text(struct sm_explain *x, struct sm_srclines *lines,
                       uint64_t addr)
{
	char *file = NULL, *note = NULL, *out = NULL, buf[SM_SRCTEXT_LINE + 1];
	int line, rc = sm_srclines_src(lines, addr, &file, &line);

	if (rc > 0)
		rc = sm_srctext_line(x->text, file, line, buf, sizeof(buf), &note);
	free(file);
	if (note && x->note) { /* two at once: both are said */
		char *both = NULL;
		if (asprintf(&both, "%s; %s", x->note, note) < 0)
			rc = -1;
		free(note);
		note = both;
	}
	if (note) {
		free(x->note);
		x->note = note;
	}
	if (rc > 0 && !(out = strdup(buf)))
		rc = -1;
	if (rc < 0)
		oom(x);
	return out;
}

/* file:line of a code address, from the code's line table, with its
 * text, remembered per address; where "" when unknown.  The built-in
 * readers' paths start at reader/. */
static const struct sm_xsrc *where(struct sm_explain *x, uint64_t addr)
{
	static const struct sm_xsrc none = { .where = "" };
	char *line = NULL;
	const unsigned n = sizeof(x->src) / sizeof(x->src[0]);

	if (!x->lines)
		return &none;
	for (unsigned i = 0; i < n; i++)
		if (x->src[i].where && x->src[i].addr == addr)
			return &x->src[i];
	if (sm_srclines_at(x->lines, addr, &line) < 0) {
		oom(x);
		return &none;
	}
	const char *base = line ? strstr(line, "/reader/") : NULL;
	if (x->nsrc == n)
		x->nsrc = 0;
	struct sm_xsrc *e = &x->src[x->nsrc];
	free(e->where);
	free(e->text);
	e->addr = addr;
	e->where = strdup(!line ? "" : base ? base + 1 : line);
	e->text = line ? line_text(x, x->lines, addr) : NULL;
	free(line);
	if (!e->where) {
		oom(x);
		return &none;
	}
	x->nsrc++;
	return e;
}

/* Past max_steps the listing goes quiet (a livelock is long); out of
 * memory it stops. */
static bool quiet(struct sm_session *s)
{
	struct sm_explain *x = X(s);
	return x->oom || (x->max_steps && s->run.step >= x->max_steps);
}

/* The disassembly of one instruction into buf ("" when unknown). */
static void disassemble(struct sm_explain *x, uint64_t addr, const uint8_t *b,
                        unsigned len, char *buf, size_t n)
{
	cs_insn *insn = NULL;

	buf[0] = '\0';
	if (x->have_cs && cs_disasm(x->cs, b, len, addr, 1, &insn) == 1) {
		snprintf(buf, n, "%-8s %s", insn->mnemonic, insn->op_str);
		cs_free(insn, 1);
	}
	for (unsigned i = 0; !x->have_cs && i < x->nlist; i++)
		if (x->list[i].addr == addr) {
			snprintf(buf, n, "%s", x->list[i].text);
			break;
		}
}

/* The source text of a line ("| TEXT") and a note on a file's text
 * ("(NOTE)"), under its file:line. */
static void print_src(struct sm_explain *x, const char *text)
{
	if (text)
		fprintf(x->f, "          | %s\n", text);
	if (x->note)
		fprintf(x->f, "          (%s)\n", x->note);
}

static void print_insn(struct sm_explain *x, uint64_t step, uint64_t addr,
                       const uint8_t *b, unsigned len,
                       const struct sm_xsrc *w, const char *text)
{
	FILE *f = x->f;

	if (w->where[0] && (!x->last_where || strcmp(w->where, x->last_where))) {
		fprintf(f, "          %s\n", w->where);
		print_src(x, w->text);
		free(x->last_where);
		if (!(x->last_where = strdup(w->where)))
			oom(x);
	} else {
		print_src(x, NULL);
	}
	fprintf(f, "%6" PRIu64 "  %08" PRIx64 "  ", step, addr);
	for (unsigned i = 0; i < 8; i++)
		fprintf(f, i < len ? "%02x" : "  ", i < len ? b[i] : 0);
	if (text[0])
		fprintf(f, "  %s", text);
	fputc('\n', f);
}

/* The source text and the pending note into e (when recording). */
static void keep_src(struct sm_explain *x, struct sm_xevent *e,
                     const char *text)
{
	if (e && text && !(e->src_text = strdup(text)))
		x->oom = true;
	if (e) {
		e->src_note = x->note;
		x->note = NULL;
	}
	free(x->note);
	x->note = NULL;
}

static void on_insn(struct sm_session *s, uint64_t addr, const uint8_t *b,
                     unsigned len)
{
	struct sm_explain *x = X(s);
	char text[200];

	if (quiet(s)) {
		x->quiet++;
		return;
	}
	const struct sm_xsrc *w = where(x, addr);
	disassemble(x, addr, b, len, text, sizeof(text));
	if (x->f)
		print_insn(x, s->run.step, addr, b, len, w, text);
	struct sm_xevent *e = rec(x, SM_X_INSN, s->run.step);
	x->insn_step = s->run.step;
	if (e) {
		e->addr = addr;
		e->len = len < sizeof(e->bytes) ? len : sizeof(e->bytes);
		memcpy(e->bytes, b, e->len);
		snprintf(e->text, sizeof(e->text), "%s", text);
		if (w->where[0] && !(e->where = strdup(w->where)))
			x->oom = true;
	}
	keep_src(x, e, w->text);
}

/* file:line of a code address in this process (its debug info: the
 * native engine's readers are selfmon's own code), "?" when unknown; NULL
 * out of memory.  Its source text into *text (NULL: none).  The line
 * table is opened at the first use. */
static char *self_line(struct sm_explain *x, const void *addr, char **text)
{
	char *line = NULL;

	if (!x->self)
		x->self = sm_srclines_self();
	/* a return address: the call is the byte before it */
	uint64_t at = (uint64_t)(uintptr_t)addr - 1;
	int rc = sm_srclines_at(x->self, at, &line);
	const char *base = line ? strstr(line, "/reader/") : NULL;
	char *out = rc < 0 ? NULL : strdup(!line ? "?" : base ? base + 1 : line);
	*text = line && out ? line_text(x, x->self, at) : NULL;
	free(line);
	return out;
}

static void on_native(struct sm_session *s, const char *what, uint64_t arg,
                      const void *caller)
{
	struct sm_explain *x = X(s);
	char *src, *line = NULL, *text = NULL;

	if (quiet(s))
		return;
	if (!(src = self_line(x, caller, &line)) ||
	    asprintf(&text, "%s(%" PRIu64 ") at %s", what, arg, src) < 0) {
		free(src);
		free(line);
		oom(x);
		return;
	}
	free(src);
	if (x->f) {
		fprintf(x->f, "%6" PRIu64 "  %s\n", s->run.step, text);
		print_src(x, line);
	}
	struct sm_xevent *e = rec(x, SM_X_NATIVE, s->run.step);
	x->insn_step = s->run.step;
	if (e)
		snprintf(e->text, sizeof(e->text), "%s", text);
	keep_src(x, e, line);
	free(line);
	free(text);
}

/* During a load the code hook has counted its instruction already. */
static void on_load(struct sm_session *s, unsigned off, unsigned size,
                     uint64_t v)
{
	if (quiet(s))
		return;
	const struct selfmon_page_field *f = selfmon_page_field_at(off);

	if (X(s)->f)
		fprintf(X(s)->f, "          load  page.%s%s (%u bytes at +%u) = %"
		        PRIu64 " (0x%" PRIx64 ")\n", f ? f->name : "__reserved",
		        f && f->off != off ? "[part]" : "", size, off, v, v);
	struct sm_xevent *e = rec(X(s), SM_X_LOAD,
	                          s->run.step ? s->run.step - 1 : 0);
	if (e) {
		e->field = field_index(f);
		e->off = off;
		e->size = size;
		e->value = v;
	}
}

static void on_trap(struct sm_session *s, const char *what, uint64_t arg,
                     uint64_t v)
{
	if (quiet(s))
		return;
	if (X(s)->f)
		fprintf(X(s)->f, "          trap  %s(%" PRIu64 ") -> %" PRIu64
		        " (0x%" PRIx64 ")  [model cycle %" PRIu64 "]\n", what, arg, v,
		        v, sm_model_now(s->model));
	/* x86-64 and riscv64 trap in the code hook, before the step is
	 * counted; arm64's instruction hook and the import stubs after */
	uint64_t step = X(s)->insn_step == s->run.step || !s->run.step
	                ? s->run.step : s->run.step - 1;
	struct sm_xevent *e = rec(X(s), SM_X_TRAP, step);
	if (e) {
		snprintf(e->text, sizeof(e->text), "%s", what);
		e->arg = arg;
		e->value = v;
		e->cycle = sm_model_now(s->model);
	}
}

/* Page fields that differ from what was last shown. */
static void show_changes(struct sm_session *s)
{
	struct sm_explain *x = X(s);
	const struct perf_event_mmap_page *pc = sm_model_page(s->model, 0);

	for (unsigned i = 0; i < selfmon_npage_fields; i++) {
		const struct selfmon_page_field *f = &selfmon_page_fields[i];
		uint64_t a = selfmon_page_get(&x->last, f);
		uint64_t b = selfmon_page_get(pc, f);
		if (a == b)
			continue;
		if (x->f && f->is_signed)
			fprintf(x->f, "                page.%s: %" PRId64 " -> %" PRId64
			        "\n", f->name, (int64_t)a, (int64_t)b);
		else if (x->f)
			fprintf(x->f, "                page.%s: %" PRIu64 " -> %" PRIu64
			        "\n", f->name, a, b);
		struct sm_xevent *e = rec(x, SM_X_CHANGE, s->run.step);
		if (e) {
			e->field = (int)i;
			e->old = a;
			e->value = b;
		}
	}
	x->last = *pc;
}

/* The kernel state off the page that differs from what was last shown:
 * one line, and each item recorded. */
static void show_kstate(struct sm_session *s, enum sm_action_kind why)
{
	struct sm_explain *x = X(s);
	const struct sm_config *cfg = sm_model_config(s->model);
	struct sm_kview now;
	struct sm_kchange c[SM_KVIEW_MAX_ITEMS];
	char line[4096];

	sm_model_kview(s->model, &now);
	unsigned n = sm_kview_diff(cfg, &x->klast, &now, c);
	x->klast = now;
	if (!n)
		return;
	sm_kview_change_text(cfg, why, c, n, line, sizeof(line));
	if (x->f)
		fprintf(x->f, "                kernel state: %s\n", line);
	for (unsigned k = 0; k < n; k++) {
		struct sm_xevent *e = rec(x, SM_X_KCHANGE, s->run.step);
		if (e) {
			e->field = (int)c[k].item;
			e->old = c[k].old;
			e->value = c[k].value;
		}
	}
}

static void on_action(struct sm_session *s, enum sm_action_kind kind, int rc,
                       uint64_t before)
{
	if (quiet(s))
		return;
	struct sm_truth t;

	sm_model_truth(s->model, 0, &t);
	if (X(s)->f)
		fprintf(X(s)->f, "        >>> kernel: %s%s (%" PRIu64
		        " page updates); truth now count=%" PRIu64 " enabled=%"
		        PRIu64 " running=%" PRIu64 "\n", sm_action_name(kind),
		        rc > 0 ? "" : rc == 0 ? " (does not apply now)" : " (error)",
		        sm_model_updates(s->model) - before, t.count, t.enabled, t.running);
	struct sm_xevent *e = rec(X(s), SM_X_ACTION, s->run.step);
	if (e) {
		e->action = kind;
		e->rc = rc;
		e->updates = sm_model_updates(s->model) - before;
		e->truth = t;
	}
	show_changes(s);
	show_kstate(s, kind);
}

static void on_store(struct sm_session *s, int off)
{
	if (quiet(s))
		return;
	const struct selfmon_page_field *f =
		off >= 0 ? selfmon_page_field_at((unsigned)off) : NULL;

	if (X(s)->f)
		fprintf(X(s)->f, "        >>> remote writer stores page.%s\n",
		        f ? f->name : "?");
	struct sm_xevent *e = rec(X(s), SM_X_STORE, s->run.step);
	if (e)
		e->field = field_index(f);
	show_changes(s);
	show_kstate(s, sm_model_cause(s->model));
}

/* A two-call ABI's first function returned: the listing says where the
 * read begins (its steps run on from the first call's). */
static void on_second_call(struct sm_session *s)
{
	if (!quiet(s) && X(s)->f)
		fprintf(X(s)->f, "        --- the first call returned; the read "
		        "is called at step %" PRIu64 " ---\n", s->run.step);
}

static const struct sm_tracer tracer = {
	.insn = on_insn, .native = on_native, .load = on_load, .trap = on_trap,
	.action = on_action, .store = on_store, .second_call = on_second_call,
};

void sm_explain_attach(struct sm_explain *x, struct sm_session *s)
{
	s->tracer = &tracer;
	s->trace = x;
}
