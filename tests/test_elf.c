/*
 * test_elf.c — the ELF loader (sim/elf/elf_load.c).
 *
 * The sample sources in tests/elf/ are compiled at test time with every
 * toolchain found (host gcc and clang, the gcc cross compilers, clang for
 * the other targets), as .o with and without -fPIC and as .so, at -O0, -O2
 * and -O3, in a temporary directory removed afterwards.  Every object must
 * load; where Unicorn is available the loaded images are also run: the
 * relocation probe (tests/elf/reloc_probe.c) checks its own relocations,
 * and good_read must reach read(2) through the stub.  Every instruction and
 * data encoding is compared byte for byte with what GNU ld makes of
 * tests/elf/relocs_ARCH.S.  Then hostile files (deterministic mutations of
 * valid .o and .so files) and each error message, the refusal of IFUNCs
 * and constructors (tests/elf/unrun.c) included.
 */
#define _GNU_SOURCE /* nftw */
#include <errno.h>
#include <ftw.h>
#include <inttypes.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <elf.h>
#include <cmocka.h>

#include "elf_load.h"

#if __has_include(<unicorn/unicorn.h>)
#include <unicorn/unicorn.h>
#define HAVE_UNICORN 1
#else
#define HAVE_UNICORN 0
#endif

#ifndef SELFMON_SRC
#error "SELFMON_SRC: the source directory"
#endif

#define BASE 0x10000000ull
#define STUBS 0x60000000ull

#if defined(__x86_64__)
#define HOST_ARCH SM_X86_64
#elif defined(__aarch64__)
#define HOST_ARCH SM_ARM64
#elif defined(__riscv) && __riscv_xlen == 64
#define HOST_ARCH SM_RISCV64
#else
#define HOST_ARCH SM_NARCH /* the host compilers' objects are not loadable */
#endif

struct toolchain {
	const char *name;
	const char *cc;      /* compiler command */
	const char *ldflags; /* for -shared */
	enum sm_arch arch;
};

static const struct toolchain toolchains[] = {
	{ "gcc", "gcc", "", HOST_ARCH },
	{ "clang", "clang", "", HOST_ARCH },
	{ "aarch64-linux-gnu-gcc", "aarch64-linux-gnu-gcc", "", SM_ARM64 },
	{ "riscv64-linux-gnu-gcc", "riscv64-linux-gnu-gcc", "", SM_RISCV64 },
	{ "clang-aarch64", "clang --target=aarch64-linux-gnu", "-fuse-ld=lld",
	  SM_ARM64 },
	{ "clang-riscv64", "clang --target=riscv64-linux-gnu", "-fuse-ld=lld",
	  SM_RISCV64 },
};
#define NTOOLCHAINS (sizeof(toolchains) / sizeof(toolchains[0]))

static char tmpdir[64]; /* the build directory of this run */

static const char *arch_label(enum sm_arch a)
{
	return a == SM_X86_64 ? "x86-64" : a == SM_ARM64 ? "arm64" : "riscv64";
}

/* ---- helpers ------------------------------------------------------------ */

__attribute__((format(printf, 1, 2)))
static bool sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;
	int n, st;

	va_start(ap, fmt);
	n = vsnprintf(cmd, sizeof(cmd) - 32, fmt, ap);
	va_end(ap);
	assert_true(n > 0 && (size_t)n < sizeof(cmd) - 32);
	strcat(cmd, " >/dev/null 2>&1");
	st = system(cmd);
	return st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static void path_of(char *buf, size_t n, const char *name)
{
	int w = snprintf(buf, n, "%s/%s", tmpdir, name);
	assert_true(w > 0 && (size_t)w < n);
}

static void write_file(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

/* tmpdir/NAME with the given text. */
static void write_src(const char *name, const char *text)
{
	char p[256];

	path_of(p, sizeof(p), name);
	write_file(p, text, strlen(text));
}

static uint8_t *read_all(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long len;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	assert_true(len > 0);
	rewind(f);
	buf = malloc((size_t)len);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	*n = (size_t)len;
	return buf;
}

/* Compiles tests/elf/SRC (or an absolute source; none: links) into
 * tmpdir/OUT. */
static bool compile(const struct toolchain *tc, const char *src,
                    const char *out, const char *flags)
{
	char srcpath[512];

	if (!src) /* linking */
		return sh("cd %s && %s %s -o %s", tmpdir, tc->cc, flags, out);
	if (src[0] == '/')
		snprintf(srcpath, sizeof(srcpath), "%s", src);
	else
		snprintf(srcpath, sizeof(srcpath), "%s/tests/elf/%s", SELFMON_SRC,
		         src);
	return sh("cd %s && %s %s -I%s/model %s -o %s", tmpdir, tc->cc, flags,
	          SELFMON_SRC, srcpath, out);
}

static bool so_flags(const struct toolchain *tc, const char *opt, char *buf,
                     size_t n)
{
	return snprintf(buf, n, "%s -shared -fPIC -nostdlib %s", opt,
	                tc->ldflags) < (int)n;
}

static bool toolchain_works(const struct toolchain *tc)
{
	char src[128], so[256];

	path_of(src, sizeof(src), "trivial.c");
	write_file(src, "int trivial(int x) { return x + 1; }\n", 37);
	return compile(tc, src, "trivial.o", "-c") &&
	       so_flags(tc, "", so, sizeof(so)) &&
	       compile(tc, src, "trivial.so", so);
}

/* An error message: one line, "PATH: ...". */
static void assert_err_line(const char *path, const char *err)
{
	size_t n = strlen(path);

	if (strncmp(err, path, n) || strncmp(err + n, ": ", 2) || !err[n + 2])
		fail_msg("error does not start with '%s: ': '%s'", path, err);
	if (strchr(err, '\n'))
		fail_msg("error on several lines: '%s'", err);
}

/* What every loaded image satisfies. */
static void check_image(const struct sm_image *img, uint64_t base)
{
	uint64_t end = 0;

	assert_int_equal(img->base, base);
	assert_non_null(img->mem);
	assert_true(img->size > 0 && img->size % 4096 == 0);
	assert_true(img->size <= (64u << 20));
	assert_true(img->nseg >= 1 && img->nseg <= 16);
	for (unsigned i = 0; i < img->nseg; i++) {
		const struct sm_segment *g = &img->seg[i];
		assert_true(g->off % 4096 == 0 && g->size % 4096 == 0);
		assert_true(g->size > 0 && g->off >= end);
		assert_true(g->off + g->size <= img->size);
		end = g->off + g->size;
	}
	assert_int_equal(end, img->size);
	assert_true(img->entry >= base && img->entry < base + img->size);
}

static bool entry_executable(const struct sm_image *img)
{
	uint64_t off = img->entry - img->base;

	for (unsigned i = 0; i < img->nseg; i++)
		if (off >= img->seg[i].off &&
		    off < img->seg[i].off + img->seg[i].size)
			return img->seg[i].prot & SM_PROT_X;
	return false;
}

static int rm_one(const char *p, const struct stat *st, int flag,
                  struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(p);
}

static int group_setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/selfmon_elf_XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int group_teardown(void **state)
{
	(void)state;
	return nftw(tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- running a loaded image in Unicorn ---------------------------------- */

#if HAVE_UNICORN

#define DATA 0x70000000ull  /* the page, then `out` at +0x800 */
#define STACK 0x7f000000ull /* 64 KiB */
#define RET 0x7e000000ull   /* where the function returns to */

struct emu_arch {
	uc_arch arch;
	uc_mode mode;
	int pc, sp, ra, ret, arg[3];
	uint8_t ret_insn[4];
};

static const struct emu_arch emu_arches[SM_NARCH] = {
	[SM_X86_64] = { UC_ARCH_X86, UC_MODE_64, UC_X86_REG_RIP,
	                UC_X86_REG_RSP, -1, UC_X86_REG_RAX,
	                { UC_X86_REG_RDI, UC_X86_REG_RSI, UC_X86_REG_RDX },
	                { 0xc3, 0xc3, 0xc3, 0xc3 } },
	[SM_ARM64] = { UC_ARCH_ARM64, UC_MODE_ARM, UC_ARM64_REG_PC,
	               UC_ARM64_REG_SP, UC_ARM64_REG_X30, UC_ARM64_REG_X0,
	               { UC_ARM64_REG_X0, UC_ARM64_REG_X1, UC_ARM64_REG_X2 },
	               { 0xc0, 0x03, 0x5f, 0xd6 } },
	[SM_RISCV64] = { UC_ARCH_RISCV, UC_MODE_RISCV64, UC_RISCV_REG_PC,
	                 UC_RISCV_REG_SP, UC_RISCV_REG_RA, UC_RISCV_REG_A0,
	                 { UC_RISCV_REG_A0, UC_RISCV_REG_A1, UC_RISCV_REG_A2 },
	                 { 0x67, 0x80, 0x00, 0x00 } },
};

struct emu {
	uc_engine *uc;
	const struct emu_arch *a;
	unsigned calls[SM_NSTUBS];
	bool bad_stub;
};

/* The imports, answered before the stub's `ret` runs. */
static void stub_hook(uc_engine *uc, uint64_t pc, uint32_t size, void *user)
{
	struct emu *e = user;
	uint64_t a[3], ret = 0, k = (pc - STUBS) / 16;
	static const uint64_t vals[3] = { 111, 222, 333 };
	uint8_t buf[4096];
	(void)size;

	for (int i = 0; i < 3; i++)
		uc_reg_read(uc, e->a->arg[i], &a[i]);
	if ((pc - STUBS) % 16 || k >= SM_NSTUBS) {
		e->bad_stub = true;
		uc_emu_stop(uc);
		return;
	}
	e->calls[k]++;
	switch (k) {
	case SM_STUB_READ:
		ret = a[2] >= sizeof(vals) &&
		      uc_mem_write(uc, a[1], vals, sizeof(vals)) == UC_ERR_OK
		      ? sizeof(vals) : (uint64_t)-1;
		break;
	case SM_STUB_MEMCPY:
		if (a[2] > sizeof(buf) || uc_mem_read(uc, a[1], buf, a[2]) ||
		    uc_mem_write(uc, a[0], buf, a[2]))
			e->bad_stub = true;
		ret = a[0];
		break;
	case SM_STUB_MEMSET:
		memset(buf, (int)a[1], sizeof(buf));
		if (a[2] > sizeof(buf) || uc_mem_write(uc, a[0], buf, a[2]))
			e->bad_stub = true;
		ret = a[0];
		break;
	case SM_STUB_ERRNO:
		ret = DATA + 0xff0;
		break;
	default:
		ret = (uint64_t)-38;
		break;
	}
	uc_reg_write(uc, e->a->ret, &ret);
}

static uint32_t prot_of(unsigned p)
{
	return (p & SM_PROT_R ? UC_PROT_READ : 0) |
	       (p & SM_PROT_W ? UC_PROT_WRITE : 0) |
	       (p & SM_PROT_X ? UC_PROT_EXEC : 0);
}

static void emu_open(struct emu *e, const struct sm_image *img)
{
	uint8_t stubs[4096];
	uc_hook h;

	memset(e, 0, sizeof(*e));
	e->a = &emu_arches[img->arch];
	assert_int_equal(uc_open(e->a->arch, e->a->mode, &e->uc), UC_ERR_OK);
	for (unsigned i = 0; i < img->nseg; i++) {
		const struct sm_segment *g = &img->seg[i];
		assert_int_equal(uc_mem_map(e->uc, img->base + g->off, g->size,
		                            prot_of(g->prot)), UC_ERR_OK);
		assert_int_equal(uc_mem_write(e->uc, img->base + g->off,
		                              img->mem + g->off, g->size),
		                 UC_ERR_OK);
	}
	for (size_t i = 0; i < sizeof(stubs); i += 4)
		memcpy(stubs + i, e->a->ret_insn, 4);
	assert_int_equal(uc_mem_map(e->uc, STUBS, 4096, UC_PROT_ALL), 0);
	assert_int_equal(uc_mem_write(e->uc, STUBS, stubs, sizeof(stubs)), 0);
	assert_int_equal(uc_mem_map(e->uc, DATA, 4096, UC_PROT_ALL), 0);
	assert_int_equal(uc_mem_map(e->uc, STACK, 65536, UC_PROT_ALL), 0);
	assert_int_equal(uc_mem_map(e->uc, RET, 4096, UC_PROT_ALL), 0);
	assert_int_equal(uc_mem_write(e->uc, RET, stubs, 16), 0);
	assert_int_equal(uc_hook_add(e->uc, &h, UC_HOOK_CODE, (void *)stub_hook,
	                             e, STUBS, STUBS + 4095), UC_ERR_OK);
}

/* Calls entry(a0, a1, a2); returns the result register. */
static uint64_t emu_call(struct emu *e, uint64_t entry, uint64_t a0,
                         uint64_t a1, uint64_t a2, const char *what)
{
	uint64_t sp = STACK + 65536 - 64, ret = RET, args[3] = { a0, a1, a2 };
	uc_err err;

	for (int i = 0; i < 3; i++)
		uc_reg_write(e->uc, e->a->arg[i], &args[i]);
	if (e->a->ra < 0) { /* x86-64: the return address on the stack */
		sp -= 8;
		assert_int_equal(uc_mem_write(e->uc, sp, &ret, 8), UC_ERR_OK);
	} else {
		uc_reg_write(e->uc, e->a->ra, &ret);
	}
	uc_reg_write(e->uc, e->a->sp, &sp);
	err = uc_emu_start(e->uc, entry, RET, 0, 1000000);
	uc_reg_read(e->uc, e->a->pc, &ret);
	if (err != UC_ERR_OK || ret != RET || e->bad_stub)
		fail_msg("%s: stopped at 0x%" PRIx64 " (%s)", what, ret,
		         uc_strerror(err));
	uc_reg_read(e->uc, e->a->ret, &ret);
	return ret;
}

static void run_probe(const struct sm_image *img, const char *what)
{
	struct emu e;
	uint64_t r;

	emu_open(&e, img);
	r = emu_call(&e, img->entry, 3, 0, 0, what);
	if (r)
		fail_msg("%s: probe check %" PRIu64 " failed", what, r);
	assert_int_equal(e.calls[SM_STUB_READ], 1);
	uc_close(e.uc);
}

static void run_good_read(const struct sm_image *img, const char *what)
{
	struct emu e;
	uint64_t r, out[3];

	emu_open(&e, img); /* the page is all zero: no rdpmc, read(2) */
	r = emu_call(&e, img->entry, DATA, 3, DATA + 0x800, what);
	assert_int_equal(uc_mem_read(e.uc, DATA + 0x800, out, sizeof(out)), 0);
	if ((uint32_t)r != 1 || out[0] != 111 || out[1] != 222 || out[2] != 333)
		fail_msg("%s: the reader returned %d (%" PRIu64 ", %" PRIu64
		         ", %" PRIu64 ")", what, (int)r, out[0], out[1], out[2]);
	assert_int_equal(e.calls[SM_STUB_READ], 1);
	uc_close(e.uc);
}

#endif /* HAVE_UNICORN */

/* ---- compiled samples, every toolchain ---------------------------------- */

struct counts {
	unsigned built, loaded, ran;
};

static void load_one(const struct toolchain *tc, const char *file,
                     const char *sym, struct counts *c)
{
	char path[256], err[512] = "";
	struct sm_image img;

	path_of(path, sizeof(path), file);
	if (sm_elf_load(path, sym, BASE, STUBS, &img, err, sizeof(err)) < 0)
		fail_msg("%s: %s", tc->name, err);
	c->loaded++;
	assert_int_equal(img.arch, tc->arch);
	check_image(&img, BASE);
	if (!entry_executable(&img))
		fail_msg("%s: %s is not in an executable segment", path, sym);
#if HAVE_UNICORN
	if (!strcmp(sym, "probe"))
		run_probe(&img, path);
	else /* good_read, buggy_read: the read(2) path is the same */
		run_good_read(&img, path);
	c->ran++;
#endif
	sm_image_free(&img);
}

static void build_and_load(const struct toolchain *tc, const char *src,
                           const char *sym, const char *opt,
                           struct counts *c)
{
	static const char *const kinds[] = { "o", "pic.o", "so" };
	char out[128], flags[256];

	for (int k = 0; k < 3; k++) {
		snprintf(out, sizeof(out), "%s_%s_%s.%s", tc->name, sym, opt + 1,
		         kinds[k]);
		if (k == 2)
			assert_true(so_flags(tc, opt, flags, sizeof(flags)));
		else
			snprintf(flags, sizeof(flags), "-c %s%s", opt,
			         k ? " -fPIC" : "");
		if (!compile(tc, src, out, flags))
			fail_msg("%s could not build %s %s", tc->name, src, flags);
		c->built++;
		load_one(tc, out, sym, c);
	}
}

static void test_toolchain(void **state)
{
	const struct toolchain *tc = *state;
	static const char *const opts[] = { "-O0", "-O2", "-O3" };
	struct counts c = { 0, 0, 0 };

	if (tc->arch == SM_NARCH || !toolchain_works(tc)) {
		print_message("    %s: not installed or not working, skipped\n",
		              tc->name);
		skip();
	}
	for (int i = 0; i < 3; i++) {
		build_and_load(tc, "good_reader.c", "good_read", opts[i], &c);
		build_and_load(tc, "reloc_probe.c", "probe", opts[i], &c);
	}
	build_and_load(tc, "buggy_reader.c", "buggy_read", "-O2", &c);
	print_message("    %s: %u objects built, %u loaded, %u run\n", tc->name,
	              c.built, c.loaded, c.ran);
}

/* A .so linked at a nonzero address: everything moves by base - vaddr. */
static void test_so_bias(void **state)
{
	static const struct toolchain *const gnu[] = {
		&toolchains[0], &toolchains[2], &toolchains[3] };
	struct counts c = { 0, 0, 0 };
	(void)state;

	for (size_t i = 0; i < sizeof(gnu) / sizeof(gnu[0]); i++) {
		const struct toolchain *tc = gnu[i];
		char flags[256], out[96];
		if (tc->arch == SM_NARCH || !toolchain_works(tc))
			continue;
		assert_true(so_flags(tc, "-O2 -Wl,-Ttext-segment=0x400000", flags,
		                     sizeof(flags)));
		snprintf(out, sizeof(out), "%s_biased.so", tc->name);
		assert_true(compile(tc, "reloc_probe.c", out, flags));
		c.built++;
		load_one(tc, out, "probe", &c);
	}
	if (!c.built)
		skip();
}

/* ---- every encoding, against the GNU linker ---------------------------- */

/* Section `name` of a linked executable: address, bytes. */
static const uint8_t *exec_section(const uint8_t *f, size_t n,
                                   const char *name, uint64_t *addr,
                                   uint64_t *size)
{
	Elf64_Ehdr eh;
	Elf64_Shdr str, s;

	memcpy(&eh, f, sizeof(eh));
	assert_true(eh.e_shoff + eh.e_shnum * sizeof(s) <= n &&
	            eh.e_shstrndx < eh.e_shnum);
	memcpy(&str, f + eh.e_shoff + eh.e_shstrndx * sizeof(s), sizeof(s));
	for (unsigned i = 1; i < eh.e_shnum; i++) {
		memcpy(&s, f + eh.e_shoff + i * sizeof(s), sizeof(s));
		assert_true(str.sh_offset + s.sh_name < n);
		if (strcmp((const char *)f + str.sh_offset + s.sh_name, name))
			continue;
		assert_true(s.sh_type == SHT_PROGBITS &&
		            s.sh_offset + s.sh_size <= n);
		*addr = s.sh_addr;
		*size = s.sh_size;
		return f + s.sh_offset;
	}
	fail_msg("no section %s in the linked file", name);
	return NULL;
}

static void compare_with_ld(const struct sm_image *img, const char *elf)
{
	static const char *const secs[] = { ".text", ".rodata", ".data" };
	size_t n;
	uint8_t *f = read_all(elf, &n);

	for (int i = 0; i < 3; i++) {
		uint64_t addr = 0, size = 0;
		const uint8_t *want = exec_section(f, n, secs[i], &addr, &size);
		assert_true(addr >= BASE && addr - BASE + size <= img->size);
		for (uint64_t k = 0; k < size; k++)
			if (img->mem[addr - BASE + k] != want[k])
				fail_msg("%s: %s+0x%" PRIx64 " is 0x%02x, ld made "
				         "0x%02x", elf, secs[i], k,
				         img->mem[addr - BASE + k], want[k]);
	}
	free(f);
}

/* tests/elf/relocs_ARCH.S has one of each relocation ld can lay out like
 * the loader does (tests/elf/relocs.ld): both must produce the same bytes.
 * GNU toolchains only (ld --no-relax). */
static void test_against_ld(void **state)
{
	static const struct {
		const struct toolchain *tc;
		const char *arch;
		enum sm_arch arch_id;
	} gnu[] = { { &toolchains[0], "x86_64", SM_X86_64 },
	            { &toolchains[2], "aarch64", SM_ARM64 },
	            { &toolchains[3], "riscv64", SM_RISCV64 } };
	unsigned done = 0;
	(void)state;

	for (size_t i = 0; i < sizeof(gnu) / sizeof(gnu[0]); i++) {
		const struct toolchain *tc = gnu[i].tc;
		char src[64], o[64], elf[64], flags[512], path[256], err[512];
		struct sm_image img;
		if (tc->arch != gnu[i].arch_id || !toolchain_works(tc))
			continue;
		snprintf(src, sizeof(src), "relocs_%s.S", gnu[i].arch);
		snprintf(o, sizeof(o), "relocs_%s.o", gnu[i].arch);
		snprintf(elf, sizeof(elf), "relocs_%s.elf", gnu[i].arch);
		assert_true(compile(tc, src, o, "-c"));
		snprintf(flags, sizeof(flags), "-nostdlib -static -no-pie "
		         "-Wl,--no-relax -Wl,-T,%s/tests/elf/relocs.ld %s/%s",
		         SELFMON_SRC, tmpdir, o);
		if (!compile(tc, NULL, elf, flags))
			fail_msg("%s: could not link %s", tc->name, o);
		path_of(path, sizeof(path), o);
		if (sm_elf_load(path, "asm_probe", BASE, STUBS, &img, err,
		                sizeof(err)) < 0)
			fail_msg("%s", err);
		assert_int_equal(img.arch, tc->arch);
		path_of(path, sizeof(path), elf);
		compare_with_ld(&img, path);
		sm_image_free(&img);
		done++;
	}
	if (!done)
		skip();
	print_message("    %u arches agree with ld\n", done);
}

/* R_RISCV_SUB6 by the psABI: the low 6 bits of the byte minus S + A. */
static void test_riscv_sub6(void **state)
{
	const struct toolchain *tc = &toolchains[3];
	char p[256], err[512];
	struct sm_image img;
	(void)state;

	if (!toolchain_works(tc))
		skip();
	write_src("sub6.S", "\t.text\n\t.globl f\nf:\tret\n"
	          "\t.data\nx:\t.reloc ., R_RISCV_SUB6, x + 7\n"
	          "\t.byte 0x95\n\t.reloc ., R_RISCV_SET6, x + 0x2d\n"
	          "\t.byte 0xc0\n");
	path_of(p, sizeof(p), "sub6.S");
	assert_true(compile(tc, p, "sub6.o", "-c"));
	path_of(p, sizeof(p), "sub6.o");
	if (sm_elf_load(p, "f", BASE, STUBS, &img, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	assert_int_equal(img.seg[1].off, 4096); /* x: BASE + 4096 */
	assert_int_equal(img.mem[4096], 0x80 | ((0x15 - 7) & 0x3f));
	assert_int_equal(img.mem[4097], 0xc0 | 0x2d);
	sm_image_free(&img);
}

/* ---- hostile files ------------------------------------------------------ */

static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

struct region {
	size_t off, size, entsize;
};

/* Parts worth damaging: the header, the section and program header
 * tables, symbol tables, string tables, relocations. */
static size_t regions(const uint8_t *f, size_t n, struct region *r,
                      size_t max)
{
	Elf64_Ehdr eh;
	size_t k = 0;

	memcpy(&eh, f, sizeof(eh));
	r[k++] = (struct region){ 0, sizeof(eh), 0 };
	if (eh.e_phoff && eh.e_phoff + eh.e_phnum * sizeof(Elf64_Phdr) <= n)
		r[k++] = (struct region){ eh.e_phoff,
		                          eh.e_phnum * sizeof(Elf64_Phdr),
		                          sizeof(Elf64_Phdr) };
	if (!eh.e_shoff || eh.e_shoff + eh.e_shnum * sizeof(Elf64_Shdr) > n)
		return k;
	r[k++] = (struct region){ eh.e_shoff, eh.e_shnum * sizeof(Elf64_Shdr),
	                          sizeof(Elf64_Shdr) };
	for (unsigned i = 0; i < eh.e_shnum && k < max; i++) {
		Elf64_Shdr s;
		memcpy(&s, f + eh.e_shoff + i * sizeof(s), sizeof(s));
		if ((s.sh_type == SHT_SYMTAB || s.sh_type == SHT_DYNSYM ||
		     s.sh_type == SHT_RELA || s.sh_type == SHT_STRTAB ||
		     s.sh_type == SHT_DYNAMIC) && s.sh_size &&
		    s.sh_offset + s.sh_size <= n)
			r[k++] = (struct region){ s.sh_offset, s.sh_size,
			                          s.sh_entsize };
	}
	return k;
}

static uint64_t huge(uint64_t *s)
{
	static const uint64_t v[] = { ~0ull, 0x7fffffffffffffffull,
	                              0x8000000000000000ull, 0xffffffffull,
	                              0x80000000ull, 0xffff, 0x10000, 0 };
	uint64_t r = rng_next(s);

	switch (r % 4) {
	case 0: return v[(r >> 8) % (sizeof(v) / sizeof(v[0]))];
	case 1: return (r >> 8) % 200;
	case 2: return (r >> 8) % 0x100000;
	default: return rng_next(s);
	}
}

/* One deterministic mutation of `f` into `m`; returns its length. */
static size_t mutate(const uint8_t *f, size_t n, uint8_t *m, uint64_t seed)
{
	struct region r[64];
	size_t nr = regions(f, n, r, 64), len = n;
	uint64_t s = seed * 0x9e3779b97f4a7c15ull + 1;
	static const uint8_t widths[] = { 1, 2, 4, 8 };

	memcpy(m, f, n);
	switch (rng_next(&s) % 4) {
	case 0: /* flip bytes */
		for (uint64_t i = 0, c = 1 + rng_next(&s) % 6; i < c; i++) {
			const struct region *g = &r[rng_next(&s) % nr];
			m[g->off + rng_next(&s) % g->size] ^=
				(uint8_t)(1 + rng_next(&s) % 255);
		}
		break;
	case 1: /* truncate */
		len = rng_next(&s) % n;
		break;
	default: /* huge values into fields of entries */
		for (uint64_t i = 0, c = 1 + rng_next(&s) % 3; i < c; i++) {
			const struct region *g = &r[rng_next(&s) % nr];
			size_t es = g->entsize ? g->entsize : 8;
			size_t nent = g->size / es ? g->size / es : 1;
			size_t w = widths[rng_next(&s) % 4];
			size_t at = (rng_next(&s) % nent) * es +
			            (rng_next(&s) % (es / w ? es / w : 1)) * w;
			uint64_t v = huge(&s);
			if (at + w <= g->size)
				memcpy(m + g->off + at, &v, w); /* little-endian */
		}
		break;
	}
	return len;
}

struct fuzz_result {
	unsigned loaded, rejected;
};

static void fuzz_file(const char *good, const char *name, unsigned cases,
                      struct fuzz_result *res)
{
	size_t n;
	uint8_t *f = read_all(good, &n), *m = malloc(n);
	char path[256], err[256], tiny[12];

	assert_non_null(m);
	path_of(path, sizeof(path), name);
	for (unsigned i = 0; i < cases; i++) {
		struct sm_image img;
		size_t len = mutate(f, n, m, i + 1);
		int rc;
		write_file(path, m, len);
		err[0] = '\0';
		rc = sm_elf_load(path, "good_read", BASE, STUBS, &img, err,
		                 sizeof(err));
		assert_true(rc == 0 || rc == -1);
		if (rc == 0) {
			check_image(&img, BASE);
			sm_image_free(&img);
			res->loaded++;
			continue;
		}
		assert_err_line(path, err);
		assert_null(img.mem);
		res->rejected++;
		/* a short buffer: truncated, still terminated */
		memset(tiny, 'x', sizeof(tiny));
		assert_int_equal(sm_elf_load(path, "good_read", BASE, STUBS, &img,
		                             tiny, sizeof(tiny)), -1);
		assert_int_equal(strlen(tiny), sizeof(tiny) - 1);
	}
	free(f);
	free(m);
}

/* A valid good_reader .o (-fPIC, -O2) and .so built by toolchain `tc`. */
static bool sample_objects(const struct toolchain *tc, char *o, char *so,
                           size_t n)
{
	char flags[256], on[96], son[96];

	if (!toolchain_works(tc))
		return false;
	snprintf(on, sizeof(on), "%s_sample.o", tc->name);
	snprintf(son, sizeof(son), "%s_sample.so", tc->name);
	path_of(o, n, on);
	path_of(so, n, son);
	assert_true(so_flags(tc, "-O2", flags, sizeof(flags)));
	assert_true(compile(tc, "good_reader.c", on, "-c -O2 -fPIC"));
	assert_true(compile(tc, "good_reader.c", son, flags));
	return true;
}

/* The same from host gcc, when the host is x86-64. */
static bool host_objects(char *o, char *so, size_t n)
{
	return HOST_ARCH == SM_X86_64 &&
	       sample_objects(&toolchains[0], o, so, n);
}

/* Mutations of the x86-64 .o and .so (and, where the cross compilers
 * work, of the arm64 and riscv64 ones); SELFMON_FUZZ_CASES overrides the
 * number per file. */
static void test_fuzz(void **state)
{
	static const struct toolchain *const gnu[] = {
		&toolchains[0], &toolchains[2], &toolchains[3] };
	const char *env = getenv("SELFMON_FUZZ_CASES");
	unsigned cases = env && atoi(env) > 0 ? (unsigned)atoi(env) : 400;
	unsigned files = 0;
	(void)state;

	for (size_t i = 0; i < sizeof(gnu) / sizeof(gnu[0]); i++) {
		struct fuzz_result ro = { 0, 0 }, rso = { 0, 0 };
		char o[256], so[256];
		if ((i == 0 && HOST_ARCH != SM_X86_64) ||
		    !sample_objects(gnu[i], o, so, sizeof(o)))
			continue;
		fuzz_file(o, "fuzz.o", cases, &ro);
		fuzz_file(so, "fuzz.so", cases, &rso);
		files += 2;
		print_message("    %s: .o %u cases, %u loaded, %u rejected; "
		              ".so %u cases, %u loaded, %u rejected\n",
		              arch_label(gnu[i]->arch), cases, ro.loaded,
		              ro.rejected, cases, rso.loaded, rso.rejected);
	}
	if (!files)
		skip();
}

/* ---- error messages ----------------------------------------------------- */

/* Loads `path` expecting failure; the message after "PATH: ". */
static const char *load_err(const char *path, const char *sym, char *err,
                            size_t n)
{
	struct sm_image img;

	memset(&img, 0xa5, sizeof(img));
	if (sm_elf_load(path, sym, BASE, STUBS, &img, err, n) == 0) {
		sm_image_free(&img);
		fail_msg("%s:%s loaded", path, sym);
	}
	assert_null(img.mem);
	assert_int_equal(img.size, 0);
	assert_err_line(path, err);
	return err + strlen(path) + 2;
}

static void expect_err(const char *path, const char *sym, const char *want)
{
	char err[512];
	const char *msg = load_err(path, sym, err, sizeof(err));

	if (strncmp(msg, want, strlen(want)))
		fail_msg("%s: expected '%s', got '%s'", path, want, msg);
}

/* Loads `path` expecting failure with `want` in the message. */
static void msg_has(const char *path, const char *sym, const char *want)
{
	char err[512];

	if (!strstr(load_err(path, sym, err, sizeof(err)), want))
		fail_msg("%s: expected '%s' in '%s'", path, want, err);
}

/* A copy of `src` with `n` bytes at `off` replaced. */
static void forge(const char *src, const char *dst, size_t off,
                  const void *bytes, size_t n)
{
	size_t len;
	uint8_t *f = read_all(src, &len);

	assert_true(off + n <= len);
	memcpy(f + off, bytes, n);
	write_file(dst, f, len);
	free(f);
}

static void test_error_files(void **state)
{
	char p[256], o[256], so[256], q[256];
	size_t n;
	uint8_t *f;
	(void)state;

	path_of(p, sizeof(p), "text.txt");
	write_file(p, "hello, I am not an ELF file\n", 28);
	expect_err(p, "good_read", "not an ELF file");
	path_of(p, sizeof(p), "empty");
	write_file(p, "", 0);
	expect_err(p, "good_read", "not an ELF file");
	path_of(p, sizeof(p), "does-not-exist.o");
	expect_err(p, "good_read", strerror(ENOENT));
	expect_err(tmpdir, "good_read", strerror(EISDIR));

	if (!host_objects(o, so, sizeof(o)))
		skip();
	f = read_all(o, &n);
	path_of(p, sizeof(p), "truncated.o");
	write_file(p, f, 40);
	expect_err(p, "good_read", "truncated or corrupt ELF (");
	free(f);

	path_of(p, sizeof(p), "elf32.o");
	path_of(q, sizeof(q), "trivial.c");
	if (!compile(&toolchains[0], q, "elf32.o", "-m32 -c"))
		forge(o, p, EI_CLASS, (uint8_t[]){ ELFCLASS32 }, 1);
	expect_err(p, "good_read", "unsupported ELF class (32-bit; selfmon "
	           "loads 64-bit objects)");

	path_of(p, sizeof(p), "bigendian.o");
	forge(o, p, EI_DATA, (uint8_t[]){ ELFDATA2MSB }, 1);
	expect_err(p, "good_read", "big-endian ELF is not supported");

	path_of(p, sizeof(p), "mips.o");
	forge(o, p, offsetof(Elf64_Ehdr, e_machine), (uint8_t[]){ 8, 0 }, 2);
	expect_err(p, "good_read", "unsupported machine 8 (x86_64, arm64 and "
	           "riscv64 are)");

	path_of(p, sizeof(p), "exec.o");
	forge(o, p, offsetof(Elf64_Ehdr, e_type), (uint8_t[]){ ET_EXEC, 0 }, 2);
	expect_err(p, "good_read", "unsupported ELF type 2 (relocatable .o or "
	           "shared .so)");
}

static void test_error_symbols(void **state)
{
	const struct toolchain *tc = &toolchains[0];
	char o[256], so[256], p[256], err[512], want[512];
	(void)state;

	if (!host_objects(o, so, sizeof(o)))
		skip();
	expect_err(o, "nope", "symbol 'nope' not found");
	expect_err(so, "nope", "symbol 'nope' not found");
	expect_err(o, "read", "symbol 'read' not found"); /* undefined */

	assert_true(compile(tc, "reloc_probe.c", "probe.o", "-c -O2"));
	path_of(p, sizeof(p), "probe.o");
	expect_err(p, "counter_g", "symbol 'counter_g' is not a function");

	write_src("printf.c", "int printf(const char *, ...);\n"
	          "int hello(void) { return printf(\"hello\\n\"); }\n");
	path_of(p, sizeof(p), "printf.c");
	assert_true(compile(tc, p, "printf.o", "-c -O2"));
	path_of(p, sizeof(p), "printf.o");
	load_err(p, "hello", err, sizeof(err));
	snprintf(want, sizeof(want), "%s: undefined symbol 'printf' (selfmon "
	         "provides read, syscall, __errno_location, memcpy, memset, "
	         "clock_gettime, sysconf, getpid, __stack_chk_fail, abort, "
	         "__stack_chk_guard and __cxa_atexit)", p);
	assert_string_equal(err, want);

	/* every import selfmon lacks is named, in one line (before: only
	 * the first met) */
	write_src("imports.c", "int puts(const char *);\n"
	          "int printf(const char *, ...);\nint getpid(void);\n"
	          "int hello(void) { return puts(\"a\") + printf(\"b\") + "
	          "getpid(); }\n");
	path_of(p, sizeof(p), "imports.c");
	assert_true(compile(tc, p, "imports.o", "-c -O2"));
	path_of(p, sizeof(p), "imports.o");
	msg_has(p, "hello", "undefined symbols ");
	msg_has(p, "hello", "'puts'");
	msg_has(p, "hello", "'printf'");
	msg_has(p, "hello", "(2 of them; selfmon provides read,");
}

static void test_error_relocations(void **state)
{
	const struct toolchain *tc = &toolchains[0];
	char o[256], so[256], p[256], err[512];
	const char *msg;
	Elf64_Ehdr eh;
	size_t n;
	uint8_t *f;
	(void)state;

	if (!host_objects(o, so, sizeof(o)))
		skip();

	write_src("tls.c", "__thread int x;\nint tls(void) { return x; }\n");
	path_of(p, sizeof(p), "tls.c");
	assert_true(compile(tc, p, "tls.o", "-c -O2"));
	path_of(p, sizeof(p), "tls.o");
	msg = load_err(p, "tls", err, sizeof(err));
	if (strncmp(msg, "unsupported relocation R_X86_64_", 32) ||
	    !strstr(msg, " (type "))
		fail_msg("TLS: %s", err);

	/* a .rela section turned into .rel */
	f = read_all(o, &n);
	memcpy(&eh, f, sizeof(eh));
	for (unsigned i = 0; i < eh.e_shnum; i++) {
		uint8_t *at = f + eh.e_shoff + i * sizeof(Elf64_Shdr);
		Elf64_Shdr s;
		memcpy(&s, at, sizeof(s));
		if (s.sh_type == SHT_RELA) {
			s.sh_type = SHT_REL;
			s.sh_entsize = sizeof(Elf64_Rel);
			memcpy(at, &s, sizeof(s));
		}
	}
	path_of(p, sizeof(p), "rel.o");
	write_file(p, f, n);
	free(f);
	expect_err(p, "good_read", "REL relocations are not supported");

	/* over the size limit */
	write_src("big.c", "static char big[80 << 20];\n"
	          "char *bigf(int i) { return &big[i]; }\n");
	path_of(p, sizeof(p), "big.c");
	assert_true(compile(tc, p, "big.o", "-c -O2"));
	path_of(p, sizeof(p), "big.o");
	expect_err(p, "bigf", "truncated or corrupt ELF (image over 64 MiB)");
}

/* ---- code selfmon does not run ----------------------------------------- */

/* tests/elf/unrun.c with -D`def`, as a .o or a -nostdlib .so (`extra`
 * flags after), into tmpdir; its path into p. */
static void unrun_object(const struct toolchain *tc, const char *def,
                         bool so, const char *extra, char *p, size_t n)
{
	char flags[512], base[128], name[160];

	if (so)
		assert_true(so_flags(tc, "-O2", base, sizeof(base)));
	snprintf(flags, sizeof(flags), "-D%s %s %s", def,
	         so ? base : "-c -O2", extra);
	snprintf(name, sizeof(name), "%s_%s%s.%s", tc->name, def,
	         extra[0] ? "_x" : "", so ? "so" : "o");
	if (!compile(tc, "unrun.c", name, flags))
		fail_msg("%s could not build unrun.c %s", tc->cc, flags);
	path_of(p, n, name);
}

/* Loads `path`; its load-time code list must hold an item of `kind`
 * whose label starts with `what` (NULL: none of that kind). */
static void expect_init(const char *path, enum sm_init_kind kind,
                        const char *what)
{
	struct sm_image img;
	char err[512];
	bool found = false;

	if (sm_elf_load(path, "reader", BASE, STUBS, &img, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	check_image(&img, BASE);
	for (size_t i = 0; i < img.ninit; i++) {
		const struct sm_init *in = &img.init[i];
		if (in->kind != kind || (what && strncmp(in->what, what,
		                                         strlen(what))))
			continue;
		found = true;
		assert_true(in->fn >= img.base && in->fn < img.base + img.size);
		if (kind == SM_INIT_SLOT)
			assert_true(in->place >= img.base &&
			            in->place + 8 <= img.base + img.size);
	}
	if (found != (what != NULL))
		fail_msg("%s: %s an item '%s' of kind %d (%zu items)", path,
		         found ? "unexpected" : "no", what ? what : "", (int)kind,
		         img.ninit);
	sm_image_free(&img);
}

/* Code ld.so runs at load time is listed for the engine (IFUNC
 * resolvers, DT_INIT, DT_INIT_ARRAY, a .o's .init_array), in ld.so's
 * order; what only a link could place is refused in one line.  Before,
 * every one of these was refused, an ordinary .so (gcc's C runtime's
 * .init) too. */
static void test_unrun(void **state)
{
	static const struct toolchain *const gnu[] = {
		&toolchains[0], &toolchains[2], &toolchains[3] };
	static const char ifunc[] = "symbol 'probe' is an IFUNC (GNU indirect "
	                            "function): selfmon runs the IFUNC "
	                            "resolvers of a shared object";
	static const struct { const char *def; const char *want; }
	refused[] = {
		{ "UNRUN_IFUNC", ifunc },
		{ "UNRUN_IFUNC_LOCAL", ifunc },
		{ "UNRUN_PREINIT", "section '.preinit_array' holds code to run at "
		  "load time whose place only a link gives" },
		{ "UNRUN_CTORS", "section '.ctors' holds code" },
	};
	char p[256];
	unsigned built = 0;
	(void)state;

	for (size_t t = 0; t < sizeof(gnu) / sizeof(gnu[0]); t++) {
		const struct toolchain *tc = gnu[t];
		if ((t == 0 && HOST_ARCH != SM_X86_64) || !toolchain_works(tc))
			continue;
		built++;
		for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
			unrun_object(tc, refused[i].def, false, "", p, sizeof(p));
			expect_err(p, "reader", refused[i].want);
		}
		/* a .o's constructor: its .init_array entry */
		unrun_object(tc, "UNRUN_CTOR", false, "", p, sizeof(p));
		expect_init(p, SM_INIT_CALL, ".init_array[0]");
		/* a .so's: DT_INIT_ARRAY */
		unrun_object(tc, "UNRUN_CTOR", true, "", p, sizeof(p));
		expect_init(p, SM_INIT_CALL, "DT_INIT_ARRAY[0]");
		/* a call to a global IFUNC: its PLT slot set by the resolver */
		unrun_object(tc, "UNRUN_IFUNC", true, "", p, sizeof(p));
		expect_init(p, SM_INIT_SLOT, "the IFUNC 'probe'");
		/* a static IFUNC in a .so without its symbols: the IRELATIVE */
		unrun_object(tc, "UNRUN_IFUNC_LOCAL", true, "-s", p, sizeof(p));
		expect_init(p, SM_INIT_SLOT, "the IRELATIVE at 0x");
		/* destructors would run after the call, if ever: nothing runs */
		for (int so = 0; so < 2; so++) {
			unrun_object(tc, "UNRUN_DTOR", so, "", p, sizeof(p));
			assert_true(sh("readelf -SW %s | grep -q fini_array", p));
			expect_init(p, SM_INIT_CALL, NULL);
		}
	}
	if (HOST_ARCH == SM_X86_64 && toolchain_works(&toolchains[0])) {
		/* gcc's C runtime brings .init and .init_array of its own */
		path_of(p, sizeof(p), "unrun_libc.so");
		assert_true(compile(&toolchains[0], "unrun.c", "unrun_libc.so",
		                    "-DUNRUN_DTOR -O2 -shared -fPIC"));
		expect_init(p, SM_INIT_CALL, "DT_INIT");
		expect_init(p, SM_INIT_CALL, "DT_INIT_ARRAY[0]");
		/* a .so without section headers: its dynamic entries say it */
		char q[256];
		unrun_object(&toolchains[0], "UNRUN_CTOR", true, "", q, sizeof(q));
		path_of(p, sizeof(p), "unrun_nosections.so");
		uint8_t zero[8] = { 0 };
		forge(q, p, offsetof(Elf64_Ehdr, e_shoff), zero, 8);
		forge(p, p, offsetof(Elf64_Ehdr, e_shnum), zero, 4); /* +shstrndx */
		/* without its symbol tables, no entry point can be found */
		expect_err(p, "reader", "symbol 'reader' not found");
	}
	if (!built)
		skip();
}

/* ---- interface details -------------------------------------------------- */

static void test_stub_names(void **state)
{
	static const char *const want[SM_NSTUBS] = { "read", "syscall",
		"__errno_location", "memcpy", "memset", "clock_gettime", "sysconf",
		"getpid", "__stack_chk_fail", "abort", "__stack_chk_guard",
		"__cxa_atexit" };
	struct sm_image img;
	(void)state;

	for (int i = 0; i < SM_NSTUBS; i++)
		assert_string_equal(sm_stub_names[i], want[i]);
	memset(&img, 0, sizeof(img));
	sm_image_free(&img); /* a zeroed image is fine */
	sm_image_free(NULL);
}

/* Objects without any relocation load too. */
static void test_no_relocations(void **state)
{
	const struct toolchain *tc = &toolchains[0];
	static const char *const files[] = { "trivial.o", "trivial.so" };
	char p[256], err[256];
	(void)state;

	if (tc->arch == SM_NARCH || !toolchain_works(tc))
		skip();
	for (int i = 0; i < 2; i++) {
		struct sm_image img;
		path_of(p, sizeof(p), files[i]);
		if (sm_elf_load(p, "trivial", BASE, STUBS, &img, err,
		                sizeof(err)) < 0)
			fail_msg("%s", err);
		check_image(&img, BASE);
		assert_true(entry_executable(&img));
		sm_image_free(&img);
	}
}

struct thread_arg {
	const char *o, *so;
	int failures;
};

static void *load_loop(void *p)
{
	struct thread_arg *a = p;
	char err[256];

	for (int i = 0; i < 20; i++) {
		struct sm_image img;
		const char *path = i & 1 ? a->so : a->o;
		if (sm_elf_load(path, "good_read", BASE, STUBS, &img, err,
		                sizeof(err)) < 0)
			a->failures++;
		else
			sm_image_free(&img);
	}
	return NULL;
}

static void test_threads(void **state)
{
	char o[256], so[256];
	pthread_t t[4];
	struct thread_arg a[4];
	(void)state;

	if (!host_objects(o, so, sizeof(o)))
		skip();
	for (int i = 0; i < 4; i++) {
		a[i] = (struct thread_arg){ o, so, 0 };
		assert_int_equal(pthread_create(&t[i], NULL, load_loop, &a[i]), 0);
	}
	for (int i = 0; i < 4; i++) {
		assert_int_equal(pthread_join(t[i], NULL), 0);
		assert_int_equal(a[i].failures, 0);
	}
}

int main(void)
{
	struct CMUnitTest tests[NTOOLCHAINS + 11];
	size_t n = 0;

	for (size_t i = 0; i < NTOOLCHAINS; i++)
		tests[n++] = (struct CMUnitTest){
			.name = toolchains[i].name, .test_func = test_toolchain,
			.initial_state = (void *)&toolchains[i] };
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_so_bias);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_against_ld);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_riscv_sub6);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_fuzz);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_error_files);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_error_symbols);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_error_relocations);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_unrun);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_stub_names);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_no_relocations);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_threads);
	return _cmocka_run_group_tests("test_elf", tests, n, group_setup,
	                               group_teardown);
}
