/*
 * blob.c — which arches have built-in reader code (generated files
 * readers_ARCH.c, see CMakeLists.txt and cmake/embed_blob.cmake).
 */
#include "reader.h"

#if SELFMON_BLOB_X86_64
extern const struct sm_blob sm_blob_x86_64;
#endif
#if SELFMON_BLOB_ARM64
extern const struct sm_blob sm_blob_arm64;
#endif
#if SELFMON_BLOB_RISCV64
extern const struct sm_blob sm_blob_riscv64;
#endif

const struct sm_blob *sm_blob_for(enum sm_arch arch)
{
	switch (arch) {
#if SELFMON_BLOB_X86_64
	case SM_X86_64: return &sm_blob_x86_64;
#endif
#if SELFMON_BLOB_ARM64
	case SM_ARM64: return &sm_blob_arm64;
#endif
#if SELFMON_BLOB_RISCV64
	case SM_RISCV64: return &sm_blob_riscv64;
#endif
	default: return NULL;
	}
}
