/*
 * cmd_vm.c — `selfmon vm ARCH`: the checks of `selfmon hw`, with hardware
 * events, on a real Linux kernel booted under QEMU (arm64, riscv64).
 *
 * Owns: the options, where the kernel, QEMU and OpenSBI are (found at
 * configure time, --kernel-image for the user's own kernel), the guest's
 * initramfs (the embedded guest program as /init, and /dev/console), the
 * kernel command line that carries the guest's orders, and the exit
 * status.  The boot is sim/vm's (vm_boot.c, killed on time-out); the
 * guest's output is parsed strictly by sim/hw/hw_run.c (the guest is
 * untrusted) and reported by hw_report.c, as `hw` reports.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "cpio.h"
#include "guest_image.h"
#include "guest_reader.h"
#include "hw_report.h"
#include "hw_run.h"
#include "hw_trace.h"
#include "lines.h"
#include "outfile.h"
#include "input.h"
#include "options.h"
#include "user_reader.h"
#include "vm_boot.h"

#ifndef SELFMON_QEMU_ARM64
#define SELFMON_QEMU_ARM64 ""
#endif
#ifndef SELFMON_QEMU_RISCV64
#define SELFMON_QEMU_RISCV64 ""
#endif
#ifndef SELFMON_OPENSBI
#define SELFMON_OPENSBI ""
#endif
#ifndef SELFMON_VM_KERNELS
#define SELFMON_VM_KERNELS ""
#endif

/* What each arch boots with, and the package each comes from. */
static const struct vm_arch {
	enum sm_arch arch;
	const char *qemu, *qemu_pkg, *console;
	bool icount;   /* the instructions event needs it (arm64); riscv64
	                * hangs with it on two CPUs (QEMU 7.2) */
	unsigned slow; /* the checks' budgets, times hw's: riscv64 without
	                * icount takes ~30 us a read(2), 30 times hardware */
} arches[] = {
	{ SM_ARM64, SELFMON_QEMU_ARM64, "qemu-system-arm", "ttyAMA0", true, 1 },
	{ SM_RISCV64, SELFMON_QEMU_RISCV64, "qemu-system-misc", "ttyS0", false,
	  50 },
};

struct vm_opts {
	const struct vm_arch *a;
	bool record;                  /* `vm ARCH record` */
	const char *out, *events;     /* record's --out, --events */
	unsigned duration;            /* record's --duration, ms */
	const char *kernel;           /* --kernel-image */
	unsigned iterations, timeout, user_access;
	bool json;
	const struct sm_reader **readers;
	unsigned nreaders;
	const char *users[SM_GUEST_READERS_MAX]; /* PATH:SYMBOL */
	unsigned nusers;
	int abi;                      /* --abi; -1 none */
	struct sm_user_reader *loaded; /* users[] loaded, malloc'ed */
};

/* Where user reader k's image is relocated to in the guest: 64 MiB
 * apart (elf_load.c's largest image), below SM_STUB_BASE. */
#define USER_BASE(k) (SM_CODE_BASE + (uint64_t)(k) * (64ull << 20))
/* The user's images in the guest's initramfs, all together (the guest
 * has 1 GiB). */
#define USER_BYTES_MAX ((size_t)128 << 20)

static const char usage[] =
	"usage: selfmon vm ARCH [READER...] [--abi A] [--iterations N] [--json]\n"
	"                  [--kernel-image IMAGE] [--user-access N] "
	"[--timeout S]\n"
	"       selfmon vm ARCH record --out FILE [--events E,...] "
	"[--duration MS]\n\n"
	"Boots a real Linux kernel for ARCH (arm64 or riscv64) under QEMU's\n"
	"system emulation, whose PMU the kernel's own driver runs, with the\n"
	"checks of 'selfmon hw' as its init: each built-in reader, built for\n"
	"ARCH with the real instructions (mrs, csrr), against read(2) on\n"
	"hardware events (cycles, instructions, a multiplexed set) and software\n"
	"ones, also after IOC_RESET, disable/enable and a migration.  A\n"
	"READER is a built-in name or PATH:SYMBOL, a function in an ARCH ELF\n"
	"object (.o or .so, as 'check' takes it; --abi A says how it is\n"
	"called: raw, times, scaled or values), run natively in the guest.  The\n"
	"kernel is the one built from Debian's linux-source-6.12 by\n"
	"'./dev.sh vm-kernels', or IMAGE (your own build).  --user-access sets\n"
	"kernel.perf_user_access in the guest (default 1; arm64 0 or 1, riscv64\n"
	"also 2, its legacy mode).  The VM is\n"
	"killed after S seconds (default 600).\n"
	"'vm ARCH record' runs 'hw record's recorder in the guest instead, on\n"
	"E (default cycles,instructions,task-clock) for MS ms (default 200),\n"
	"and writes its trace to FILE for 'selfmon model --compare FILE'.\n"
	"Exit status: 0 every check that could run passed (for the readers\n"
	"named, or the reference reader when none is), 1 a reader disagreed\n"
	"with the kernel, 2 bad usage or the VM failed.\n";

enum { O_JSON = SM_OPT_LONG, O_ITERATIONS, O_KERNEL, O_TIMEOUT, O_ACCESS,
       O_OUT, O_EVENTS, O_DURATION, O_ABI };

static const struct sm_optdef vm_options[] = {
	{ "help", no_argument, 'h', NULL },
	{ "json", no_argument, O_JSON, NULL },
	{ "abi", required_argument, O_ABI, "raw, times, scaled or values" },
	{ "iterations", required_argument, O_ITERATIONS, "1..1000000" },
	{ "kernel-image", required_argument, O_KERNEL, "a kernel IMAGE" },
	{ "timeout", required_argument, O_TIMEOUT, "10..3600 (seconds)" },
	{ "user-access", required_argument, O_ACCESS, "0, 1 or 2" },
	{ "out", required_argument, O_OUT, "a FILE" },
	{ "events", required_argument, O_EVENTS, "a list of events" },
	{ "duration", required_argument, O_DURATION, "10..600000 (ms)" },
	{ 0 },
};

static int number(const char *opt, const char *s, unsigned lo, unsigned hi,
                  unsigned *out)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (!*s || *end || v < lo || v > hi || s[0] == '-')
		return sm_error("vm: bad value '%s' for --%s (%u..%u)", s, opt, lo,
		                hi);
	*out = (unsigned)v;
	return 0;
}

static int operand(struct vm_opts *o, const char *arg)
{
	if (!o->a) {
		for (size_t i = 0; i < sizeof(arches) / sizeof(arches[0]); i++)
			if (!strcmp(arg, sm_arch_name(arches[i].arch)))
				o->a = &arches[i];
		return o->a ? 0 : sm_error("vm: unknown arch '%s' (arm64 or "
		                           "riscv64)", arg);
	}
	if (!strcmp(arg, "record") && !o->record && !o->nreaders &&
	    !o->nusers) {
		o->record = true;
		return 0;
	}
	if (o->record)
		return sm_error("vm: unexpected '%s' after record", arg);
	const struct sm_reader *r = sm_reader_find(arg);
	if (!r && strchr(arg, ':')) {
		if (o->nusers == SM_GUEST_READERS_MAX)
			return sm_error("vm: more than %d PATH:SYMBOL readers",
			                SM_GUEST_READERS_MAX);
		o->users[o->nusers++] = arg;
		return 0;
	}
	if (!r || r->image || !sm_reader_on(r, o->a->arch))
		return sm_error("vm: unknown reader '%s' for %s (a built-in name "
		                "from 'selfmon list', or PATH:SYMBOL)", arg,
		                sm_arch_name(o->a->arch));
	o->readers[o->nreaders++] = r;
	return 0;
}

/* record's --events: known events, comma-separated (they go on the
 * guest's command line, so nothing else may). */
static int events(struct vm_opts *o, const char *list)
{
	char buf[512], *p = buf;
	struct hw_event e;

	if (strlen(list) >= sizeof(buf))
		return sm_error("vm record: --events too long");
	snprintf(buf, sizeof(buf), "%s", list);
	for (char *name; (name = sm_split_next(&p, ','));)
		if (!hw_lookup(name, &e))
			return sm_error("vm record: unknown event '%s' in --events",
			                name);
		else if (!hw_trace_name_ok(name))
			return sm_error("vm record: '%s' cannot be recorded (a trace "
			                "names an event with A-Z a-z 0-9 _ . - only)",
			                name);
	o->events = list;
	return 0;
}

/* 0, 1 after --help, or 2 after the message. */
static int parse(int argc, char **argv, struct vm_opts *o)
{
	struct sm_opt op;
	char all[128];
	int c, rc = 0;

	o->iterations = 1000;
	o->timeout = 600;
	o->user_access = 1;
	o->events = "cycles,instructions,task-clock";
	o->duration = 200;
	o->abi = -1;
	if (!(o->readers = malloc(((size_t)argc + 1) * sizeof(*o->readers))))
		return sm_error("vm: out of memory");
	sm_opt_init(&op, "vm", argc, argv, vm_options);
	while (!rc && (c = sm_opt_next(&op)) != -1)
		switch (c) {
		case SM_OPT_OPERAND: rc = operand(o, op.arg); break;
		case O_JSON: o->json = true; break;
		case O_ITERATIONS:
			rc = number("iterations", op.arg, 1, 1000000, &o->iterations);
			break;
		case O_KERNEL: {
			char why[128];
			o->kernel = op.arg;
			if (sm_text_check(op.arg, why, sizeof(why)) < 0)
				rc = sm_error("vm: --kernel-image: %s", why);
			break;
		}
		case O_TIMEOUT:
			rc = number("timeout", op.arg, 10, 3600, &o->timeout);
			break;
		case O_ACCESS:
			rc = number("user-access", op.arg, 0, 2, &o->user_access);
			break;
		case O_ABI:
			if ((o->abi = sm_abi_from_name(op.arg)) < 0)
				rc = sm_error("vm: --abi must be %s, not '%s'",
				              sm_abi_list(all, sizeof(all), ", ",
				                          " or ", true), op.arg);
			else if (sm_abi_two_calls((enum sm_abi)o->abi))
				rc = sm_error("vm: the %s ABI (two calls) is checked "
				              "by 'selfmon check' only: the guest calls "
				              "a reader once", op.arg);
			break;
		case O_OUT: o->out = op.arg; break;
		case O_EVENTS: rc = events(o, op.arg); break;
		case O_DURATION:
			rc = number("duration", op.arg, 10, 600000, &o->duration);
			break;
		case 'h': fputs(usage, stdout); return 1;
		default: return 2;
		}
	if (!rc && !o->a)
		rc = sm_error("vm: missing ARCH (arm64 or riscv64)");
	if (!rc && o->a->arch == SM_ARM64 && o->user_access > 1)
		rc = sm_error("vm: --user-access 2 is riscv64's legacy mode; "
		              "arm64's kernel.perf_user_access is 0 or 1");
	if (!rc && o->record && !o->out)
		rc = sm_error("vm record: missing --out FILE");
	if (!rc && o->nusers && o->abi < 0)
		rc = sm_error("vm: %s needs --abi %s", o->users[0],
		              sm_abi_list(all, sizeof(all), "|", "|", true));
	if (!rc && !o->nusers && o->abi >= 0)
		rc = sm_error("vm: --abi applies to PATH:SYMBOL readers only");
	if (!rc && !o->record && o->out)
		rc = sm_error("vm: --out is record's (selfmon vm ARCH record --out "
		              "FILE)");
	return rc;
}

/* The default kernel of arch a, in kbuf. */
static const char *default_kernel(const struct vm_arch *a, char *kbuf,
                                  size_t n)
{
	snprintf(kbuf, n, "%s/%s/Image", SELFMON_VM_KERNELS,
	         sm_arch_name(a->arch));
	return kbuf;
}

/* What the VM needs, each present, or one line saying what to install. */
static int ready(const struct vm_opts *o, const char *kernel)
{
	struct stat st;
	const char *an = sm_arch_name(o->a->arch);
	size_t gsize;

	if (!sm_vm_guest(o->a->arch, &gsize))
		return sm_error("vm: this selfmon was built without the %s cross "
		                "compiler: no guest program for %s", an, an);
	if (!o->a->qemu[0] || access(o->a->qemu, X_OK) != 0)
		return sm_error("vm: no QEMU for %s: install %s and build selfmon "
		                "again (./dev.sh vm-kernels does both)", an,
		                o->a->qemu_pkg);
	if (o->a->arch == SM_RISCV64 &&
	    (!SELFMON_OPENSBI[0] || access(SELFMON_OPENSBI, R_OK) != 0))
		return sm_error("vm: no OpenSBI firmware for riscv64: install "
		                "opensbi and build selfmon again");
	if (stat(kernel, &st) != 0 || !S_ISREG(st.st_mode))
		return sm_error(o->kernel ? "vm: %s: not a kernel image file" :
		                "vm: no kernel for %s at %s: build it with "
		                "'./dev.sh vm-kernels' (from linux-source-6.12), or "
		                "give --kernel-image", o->kernel ? kernel : an, kernel);
	return 0;
}

/* The guest's orders on its kernel command line. */
static void command_line(const struct vm_opts *o, bool named, char *buf,
                         size_t n)
{
	size_t k = (size_t)snprintf(buf, n, "console=%s panic=-1 quiet "
	                            "loglevel=1 selfmon.iterations=%u "
	                            "selfmon.user_access=%u selfmon.slow=%u",
	                            o->a->console, o->iterations, o->user_access,
	                            o->a->slow);
	if (o->record && k < n)
		k += (size_t)snprintf(buf + k, n - k, " selfmon.record=%s "
		                      "selfmon.duration=%u", o->events, o->duration);
	if (named && k < n)
		k += (size_t)snprintf(buf + k, n - k, " selfmon.users=%u "
		                      "selfmon.readers=", o->nusers);
	for (unsigned i = 0; named && i < o->nreaders && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? "," : "",
		                      o->readers[i]->name);
}

_Static_assert(SM_GUEST_NSTUBS == SM_NSTUBS &&
               SM_GUEST_READER_INITS == SM_INIT_MAX &&
               (int)SM_GUEST_INIT_CALL == (int)SM_INIT_CALL &&
               (int)SM_GUEST_INIT_SLOT == (int)SM_INIT_SLOT &&
               (int)SM_GUEST_INIT_ENTRY == (int)SM_INIT_ENTRY &&
               (int)SM_GUEST_INIT_ENTRY2 == (int)SM_INIT_ENTRY2,
               "the guest's reader file says what elf_load.h says");

/* The user's readers, loaded and relocated for the guest (the ELF loader
 * is the host's, as for `check`), each packed as file reader/K: 0, or 2
 * after the message. */
static int load_users(struct vm_opts *o, struct sm_cpio_entry *files,
                      unsigned *nfiles)
{
	char err[1024];
	size_t total = 0;

	if (!o->nusers)
		return 0;
	if (!(o->loaded = calloc(o->nusers, sizeof(*o->loaded))))
		return sm_error("vm: out of memory");
	files[(*nfiles)++] = (struct sm_cpio_entry){ "reader", 040755, 0, 0,
	                                             NULL, 0 };
	for (unsigned k = 0; k < o->nusers; k++) {
		struct sm_user_reader *u = &o->loaded[k];
		if (sm_user_reader_load_at(o->users[k], (enum sm_abi)o->abi,
		                           USER_BASE(k), u, err, sizeof(err)) < 0)
			return sm_error("vm: %s", err);
		if (u->img.arch != o->a->arch)
			return sm_error("vm: %s is %s code, not %s", o->users[k],
			                sm_arch_name(u->img.arch),
			                sm_arch_name(o->a->arch));
		struct sm_guest_reader g = {
			.base = u->img.base, .size = u->img.size,
			.entry = u->img.entry, .stub_base = SM_STUB_BASE,
			.abi = (uint32_t)o->abi, .nseg = u->img.nseg,
		};
		for (unsigned i = 0; i < u->img.nseg && i < SM_GUEST_READER_SEGS; i++) {
			g.seg[i].off = u->img.seg[i].off;
			g.seg[i].size = u->img.seg[i].size;
			g.seg[i].prot = u->img.seg[i].prot;
		}
		if ((total += u->img.size) > USER_BYTES_MAX)
			return sm_error("vm: the PATH:SYMBOL readers' images are over "
			                "%zu MiB together (the guest has 1 GiB)",
			                USER_BYTES_MAX >> 20);
		struct sm_guest_init *init = calloc(u->img.ninit + 1, sizeof(*init));
		for (size_t i = 0; init && i < u->img.ninit; i++)
			init[i] = (struct sm_guest_init){
				.kind = (uint32_t)u->img.init[i].kind,
				.fn = u->img.init[i].fn, .place = u->img.init[i].place,
				.addend = u->img.init[i].addend };
		g.ninit = (uint32_t)u->img.ninit;
		size_t len;
		void *f = init ? sm_guest_reader_pack(&g, u->img.mem, init, &len)
		               : NULL;
		free(init);
		char *name = malloc(24); /* "reader/" and a 32-bit number */
		if (!f || !name) {
			free(f);
			free(name);
			return sm_error("vm: out of memory");
		}
		snprintf(name, 24, "reader/%u", k);
		files[(*nfiles)++] = (struct sm_cpio_entry){ name, 0100644, 0, 0,
		                                             f, len };
	}
	return 0;
}

static void free_files(struct sm_cpio_entry *files, unsigned from,
                       unsigned to)
{
	for (unsigned i = from; i < to; i++)
		if (files[i].data) {
			free((void *)files[i].name);
			free((void *)files[i].data);
		}
}

/* How long a boot may take to write the guest's first line. */
#define START_S 120

/* The machine every boot of arch o->a runs. */
static struct sm_vm_spec machine(const struct vm_opts *o, const char *kernel)
{
	return (struct sm_vm_spec){
		.arch = o->a->arch, .qemu = o->a->qemu, .kernel = kernel,
		.bios = o->a->arch == SM_RISCV64 ? SELFMON_OPENSBI : NULL,
		.cpus = 2, .mem_mb = 1024, .icount = o->a->icount,
		.timeout_s = o->timeout, .max_output = (size_t)16 << 20,
	};
}

/* Where a recording came from, as the trace's first comment lines: the
 * QEMU (its -version's first line) and the machine. */
static void provenance(const struct vm_opts *o, const char *kernel,
                       FILE *f)
{
	struct sm_vm_spec spec = machine(o, kernel);
	struct sm_vm_result v = { 0 };
	char err[256], m[512];

	sm_vm_machine(&spec, m, sizeof(m));
	spec.version = true;
	spec.timeout_s = 30;
	spec.max_output = 4096;
	if (sm_vm_boot(&spec, &v, err, sizeof(err)) == 0 && v.out) {
		v.out[strcspn(v.out, "\r\n")] = '\0';
		sm_printable(v.out);
		fprintf(f, "# qemu: %s\n", v.out);
	}
	free(v.out);
	fprintf(f, "# machine: %s\n", m);
}

/* The last line the guest wrote that is not blank, printable and cut to
 * fit buf: what a time-out's message shows of where the guest stopped. */
static void last_line(const char *out, size_t len, char *buf, size_t n)
{
	size_t end = len, start;

	while (end && (out[end - 1] == '\n' || out[end - 1] == '\r' ||
	               out[end - 1] == ' '))
		end--;
	for (start = end; start && out[start - 1] != '\n'; start--)
		;
	size_t k = end - start < n - 1 ? end - start : n - 1;
	memcpy(buf, out + start, k);
	buf[k] = '\0';
	sm_printable(buf);
}

/* Boot the guest: 0 with its console in res, or 2 after the message. */
static int boot(struct vm_opts *o, const char *kernel,
                struct sm_vm_result *res)
{
	size_t gsize, isize;
	const unsigned char *guest = sm_vm_guest(o->a->arch, &gsize);
	struct sm_cpio_entry files[5 + SM_GUEST_READERS_MAX] = {
		{ "dev", 040755, 0, 0, NULL, 0 },
		{ "dev/console", 020600, 5, 1, NULL, 0 },
		{ "proc", 040755, 0, 0, NULL, 0 },
		{ "init", 0100755, 0, 0, guest, gsize },
	};
	unsigned nfiles = 4;
	char append[2048], err[512];
	const char *an = sm_arch_name(o->a->arch);

	if (load_users(o, files, &nfiles)) {
		free_files(files, 4, nfiles);
		return 2;
	}
	void *initrd = sm_cpio(files, nfiles, &isize);
	free_files(files, 4, nfiles);
	if (!initrd)
		return sm_error("vm: out of memory");
	command_line(o, o->nreaders + o->nusers > 0, append, sizeof(append));
	struct sm_vm_spec spec = machine(o, kernel);
	spec.initrd = initrd;
	spec.initrd_size = isize;
	spec.append = append;
	/* A boot reaches /init in seconds; one that has not in START_S is
	 * the machine's trouble (QEMU's TCG, the kernel), not the reader's:
	 * it is killed and made once again.  (A riscv64 boot once stopped
	 * with nothing after OpenSBI's banner; where is not known.) */
	spec.started = SM_VM_GUEST_STARTED;
	spec.start_s = START_S;
	int rc = sm_vm_boot(&spec, res, err, sizeof(err));
	if (rc == 0 && res->not_started) {
		fprintf(stderr, "selfmon: vm: the %s guest did not start /init "
		        "within %u s (QEMU killed); booting it again\n", an,
		        START_S);
		free(res->out);
		rc = sm_vm_boot(&spec, res, err, sizeof(err));
	}
	free(initrd);
	if (rc < 0)
		return sm_error("vm: %s", err);
	if (res->timed_out) {
		char last[160];
		last_line(res->out, res->len, last, sizeof(last));
		return sm_error("vm: the %s guest did not power off within %u s "
		                "(QEMU killed; --timeout S allows more); its last "
		                "line: \"%s\"", an, o->timeout,
		                last[0] ? last : "(none)");
	}
	if (res->not_started)
		return sm_error("vm: the %s guest did not start /init within %u s, "
		                "twice (QEMU killed)", an, START_S);
	if (res->too_long)
		return sm_error("vm: the %s guest wrote more than 16 MiB (QEMU "
		                "killed)", an);
	if (res->status) /* QEMU's own complaint */
		return sm_error("vm: QEMU exited with status %d: %.*s", res->status,
		                (int)strcspn(res->out, "\n"), res->out);
	return 0;
}

/* The checks' report from the console: the exit status. */
static int report(const struct vm_opts *o, const char *kernel,
                  const struct sm_vm_result *res)
{
	struct hw_run run;
	struct hw_outcome out;
	char err[512], title[4096 + 128];

	const struct sm_reader *users[SM_GUEST_READERS_MAX];

	for (unsigned k = 0; k < o->nusers; k++)
		users[k] = &o->loaded[k].r;
	/* the guest could not map a user's reader: its one line */
	for (const char *l = res->out; l; l = strchr(l, '\n'), l = l ? l + 1 : l)
		if (!strncmp(l, "@selfmon-error user:", 20)) {
			const char *t = l + 20;
			char *e;
			unsigned long k = strtoul(t, &e, 10);
			int len = (int)strcspn(e, "\r\n");
			if (k < o->nusers && *e == ':')
				return sm_error("vm: the guest could not load %s%.*s",
				                o->users[k], len > 200 ? 200 : len, e);
		}
	if (hw_run_parse("the guest's console", res->out, users, o->nusers, &run,
	                 err, sizeof(err)) < 0)
		return sm_error("vm: %s", err);
	snprintf(title, sizeof(title), "selfmon vm %s (%s, booted and checked "
	         "in %.1f s)", sm_arch_name(o->a->arch), kernel, res->seconds);
	hw_report(o->json ? stderr : stdout, o->json, title,
	          o->nreaders + o->nusers > 0,
	          &run, &out);
	hw_run_free(&run);
	return out.bad ? 1 : 0;
}

/* record: the trace lines from the console, checked as a trace file is
 * (hw_trace.c) and written to --out whole or not at all. */
static int record(const struct vm_opts *o, const char *kernel,
                  const struct sm_vm_result *res)
{
	char *text = malloc(res->len + 1), *t = text, err[512];
	unsigned lines = 0;
	long said = -1;
	struct hw_trace tr;
	struct sm_out out;

	if (!text)
		return sm_error("vm record: out of memory");
	for (const char *l = res->out; l && *l;) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		if (len && l[len - 1] == '\r')
			len--;
		if (len >= 15 && !memcmp(l, "@selfmon-trace ", 15)) {
			memcpy(t, l + 15, len - 15);
			t += len - 15;
			*t++ = '\n';
			lines++;
		} else if (len >= 26 && !memcmp(l, "@selfmon-trace-end lines=", 25))
			said = strtol(l + 25, NULL, 10);
		else if (len > 21 && !memcmp(l, "@selfmon-trace-error ", 21)) {
			free(text);
			return sm_error("vm record: the guest: %.*s", (int)(len - 21),
			                l + 21);
		}
		l = nl ? nl + 1 : NULL;
	}
	*t = '\0';
	if (said < 0 || (unsigned long)said != lines) {
		free(text);
		return sm_error("vm record: the guest's trace is cut short (%u "
		                "lines, %ld said)", lines, said);
	}
	if (hw_trace_parse("the guest's trace", text, &tr, err, sizeof(err)) < 0) {
		free(text);
		return sm_error("vm record: %s", err);
	}
	hw_trace_free(&tr);
	int rc = 0;
	if (sm_out_open(&out, o->out, err, sizeof(err)) < 0)
		rc = sm_error("vm record: %s: %s", o->out, err);
	else {
		/* the guest's header names no file: ours instead, with where
		 * the recording came from */
		fprintf(out.f, "# selfmon hw trace, by 'selfmon vm %s record': "
		        "compare with 'selfmon model --compare' on this file\n",
		        sm_arch_name(o->a->arch));
		provenance(o, kernel, out.f);
		for (const char *l = text, *nl; *l; l = nl + 1) {
			nl = strchr(l, '\n'); /* (every line of text ends so) */
			if (strncmp(l, "# selfmon hw trace", 18))
				fwrite(l, 1, (size_t)(nl - l) + 1, out.f);
		}
		if (sm_out_close(&out, err, sizeof(err)) < 0)
			rc = sm_error("vm record: %s: %s", o->out, err);
	}
	if (!rc)
		printf("recorded %u lines on the %s kernel (%.1f s) to %s\n", lines,
		       sm_arch_name(o->a->arch), res->seconds, o->out);
	free(text);
	return rc;
}

int cmd_vm(int argc, char **argv)
{
	struct vm_opts o = { 0 };
	struct sm_vm_result res = { 0 };
	char kbuf[4096];
	int rc = parse(argc, argv, &o);

	if (rc) {
		free(o.readers);
		return rc == 1 ? 0 : rc;
	}
	const char *kernel = o.kernel ? o.kernel
	                     : default_kernel(o.a, kbuf, sizeof(kbuf));
	if ((rc = ready(&o, kernel)) == 0 && (rc = boot(&o, kernel, &res)) == 0)
		rc = o.record ? record(&o, kernel, &res)
		              : report(&o, kernel, &res);
	free(res.out);
	free(o.readers);
	for (unsigned k = 0; o.loaded && k < o.nusers; k++)
		sm_user_reader_free(&o.loaded[k]);
	free(o.loaded);
	return rc;
}
