/*
 * fuzz.h — what the libFuzzer targets share: the input as a NUL-terminated
 * string, and the one symbol of main.c the library needs.
 */
#ifndef SELFMON_FUZZ_H
#define SELFMON_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* data as text, NUL-terminated (the caller frees it). */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *t = malloc(size + 1);
	if (t) {
		memcpy(t, data, size);
		t[size] = '\0';
	}
	return t;
}


#endif
