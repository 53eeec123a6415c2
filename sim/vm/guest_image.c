/*
 * guest_image.c — the embedded guest programs (guest_image.h).
 *
 * Owns only the lookup; the bytes are generated (cmake/embed_file.cmake).
 */
#include "guest_image.h"

#if SELFMON_GUEST_ARM64
extern const unsigned char sm_vm_guest_arm64[];
extern const size_t sm_vm_guest_arm64_size;
#endif
#if SELFMON_GUEST_RISCV64
extern const unsigned char sm_vm_guest_riscv64[];
extern const size_t sm_vm_guest_riscv64_size;
#endif

const unsigned char *sm_vm_guest(enum sm_arch a, size_t *size)
{
	switch (a) {
#if SELFMON_GUEST_ARM64
	case SM_ARM64:
		*size = sm_vm_guest_arm64_size;
		return sm_vm_guest_arm64;
#endif
#if SELFMON_GUEST_RISCV64
	case SM_RISCV64:
		*size = sm_vm_guest_riscv64_size;
		return sm_vm_guest_riscv64;
#endif
	default:
		*size = 0;
		return NULL;
	}
}
