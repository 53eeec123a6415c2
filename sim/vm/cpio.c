/*
 * cpio.c — the newc archive of an initramfs (cpio.h).
 *
 * Owns the byte layout: a 110-byte header of "070701" and thirteen
 * 8-digit hex fields, the name with its NUL, the data, each padded to 4
 * bytes, and the entry "TRAILER!!!" at the end (the layout the kernel's
 * init/initramfs.c reads).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpio.h"

static size_t pad4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

static size_t entry_size(const char *name, size_t size)
{
	return pad4(110 + strlen(name) + 1) + pad4(size);
}

static unsigned char *put(unsigned char *o, unsigned ino,
                          const struct sm_cpio_entry *e)
{
	size_t nlen = strlen(e->name) + 1;
	char h[13 * 16 + 8]; /* 110 bytes, and room for the compiler's doubt */

	snprintf(h, sizeof(h), "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X"
	         "%08X%08X%08X%08X", ino, e->mode, 0u, 0u, 1u, 0u,
	         (unsigned)e->size, 0u, 0u, e->rmajor, e->rminor,
	         (unsigned)nlen, 0u);
	memcpy(o, h, 110);
	memcpy(o + 110, e->name, nlen);
	size_t at = pad4(110 + nlen);
	memset(o + 110 + nlen, 0, at - 110 - nlen);
	if (e->size)
		memcpy(o + at, e->data, e->size);
	memset(o + at + e->size, 0, pad4(e->size) - e->size);
	return o + at + pad4(e->size);
}

void *sm_cpio(const struct sm_cpio_entry *e, unsigned n, size_t *len)
{
	static const struct sm_cpio_entry trailer = { "TRAILER!!!", 0, 0, 0,
	                                              NULL, 0 };
	size_t total = entry_size(trailer.name, 0);

	for (unsigned i = 0; i < n; i++) {
		if (e[i].size > 0xffffffffu || strlen(e[i].name) > 4096)
			return NULL; /* newc's fields are 32 bits */
		total += entry_size(e[i].name, e[i].size);
	}
	unsigned char *out = malloc(total), *o = out;
	if (!out)
		return NULL;
	for (unsigned i = 0; i < n; i++)
		o = put(o, i + 1, &e[i]);
	put(o, n + 1, &trailer);
	*len = total;
	return out;
}
