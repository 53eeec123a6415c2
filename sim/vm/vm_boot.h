/*
 * vm_boot.h — one boot of a Linux kernel under QEMU's system emulation,
 * with an initramfs held in memory, and what it wrote to its console.
 *
 * Owns: the QEMU process (posix_spawn of an absolute path with an argument
 * vector and an empty environment: no shell, and no name reaches a
 * command line), the initramfs passed to it on a file descriptor (a
 * memfd: nothing is written to disk), its console read from a pipe within
 * a byte cap, and the time-out (the process killed by its pid).  It knows
 * nothing of what the guest runs.
 */
#ifndef SELFMON_VM_BOOT_H
#define SELFMON_VM_BOOT_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"

struct sm_vm_spec {
	enum sm_arch arch;        /* arm64 or riscv64 */
	const char *qemu;         /* absolute path of qemu-system-ARCH */
	const char *kernel;       /* the kernel image */
	const char *bios;         /* riscv64: OpenSBI's fw_dynamic.bin */
	const void *initrd;       /* the initramfs (cpio.h) */
	size_t initrd_size;
	const char *append;       /* the kernel command line */
	unsigned cpus, mem_mb;
	bool icount;              /* -icount shift=0: instructions count */
	unsigned timeout_s;       /* killed after this many seconds */
	const char *started;      /* a line the guest writes first (NULL:
	                           * none): killed if it has not within
	                           * start_s seconds (start_s < timeout_s) */
	unsigned start_s;
	size_t max_output;        /* killed past this many bytes */
	bool version;             /* run `QEMU -version` instead of a boot */
};

struct sm_vm_result {
	char *out;                /* the console (and QEMU's stderr), NUL-
	                           * terminated, malloc'ed */
	size_t len;
	int status;               /* QEMU's exit status; -1 killed */
	bool timed_out, too_long;
	bool not_started;         /* no `started` line within start_s */
	double seconds;           /* from the spawn to the end */
};

/* 0 with *r filled (free r->out), or -1 with the reason in err (QEMU
 * could not be started). */
int sm_vm_boot(const struct sm_vm_spec *spec, struct sm_vm_result *r,
               char *err, size_t n);

/* The machine the boot runs, as QEMU's options from -M to -icount (no
 * paths), into buf. */
void sm_vm_machine(const struct sm_vm_spec *spec, char *buf, size_t n);

#endif
