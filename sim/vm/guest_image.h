/*
 * guest_image.h — the guest program of `selfmon vm` for each arch, as
 * built into this binary (vm/guest.c, cross-compiled and embedded at
 * build time).
 */
#ifndef SELFMON_GUEST_IMAGE_H
#define SELFMON_GUEST_IMAGE_H

#include <stddef.h>

#include "model.h"

/* The line the guest writes first, as /init starts: the host's sign that
 * the boot reached it (cmd_vm.c). */
#define SM_VM_GUEST_STARTED "@selfmon-init\n"

/* The static ELF program for arch a, or NULL when this selfmon was built
 * without that arch's cross compiler. */
const unsigned char *sm_vm_guest(enum sm_arch a, size_t *size);

#endif
