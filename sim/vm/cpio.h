/*
 * cpio.h — an initramfs: a "newc" cpio archive in memory, the format the
 * kernel unpacks at boot (Documentation/driver-api/early-userspace/
 * buffer-format.rst; init/initramfs.c).
 *
 * Owns writing the archive.  It knows no file system: the caller gives
 * each entry's name, mode and bytes.
 */
#ifndef SELFMON_CPIO_H
#define SELFMON_CPIO_H

#include <stddef.h>
#include <stdint.h>

struct sm_cpio_entry {
	const char *name;     /* without a leading '/' */
	uint32_t mode;        /* S_IFREG|0755, S_IFDIR|0755, S_IFCHR|0600 */
	uint32_t rmajor, rminor; /* a device node's */
	const void *data;     /* a regular file's bytes */
	size_t size;
};

/* The archive of e[0..n) and its trailer, malloc'ed, its length in *len;
 * NULL out of memory (or an entry of 4 GiB or more: newc's fields are 32
 * bits). */
void *sm_cpio(const struct sm_cpio_entry *e, unsigned n, size_t *len);

#endif
