/*
 * fuzz_elf.c — libFuzzer target: the ELF loader (ET_REL and ET_DYN for
 * x86-64, arm64, riscv64), asked for each entry point the seed objects
 * have.  Seeds: tests/elf/ built for every arch with a compiler here.
 */
#include "elf_load.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const symbols[] = { "good_read", "probe",
	                                       "asm_probe" };
	char err[512];

	for (size_t i = 0; i < sizeof(symbols) / sizeof(symbols[0]); i++) {
		struct sm_image img;
		if (sm_elf_load_mem(data, size, "fuzz.o", symbols[i], 0x10000000,
		                    0x60000000, &img, err, sizeof(err)) == 0) {
			if (img.entry < img.base || img.entry >= img.base + img.size)
				abort(); /* the entry lies in the image */
			sm_image_free(&img);
		}
	}
	return 0;
}
