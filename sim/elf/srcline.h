/*
 * srcline.h — the source file and line of a code address, from the DWARF
 * line table of an ELF object (elfutils libdw).
 */
#ifndef SELFMON_SRCLINE_H
#define SELFMON_SRCLINE_H

#include <stddef.h>
#include <stdint.h>

#include "elf_load.h"

struct sm_srclines;

/* The lines of the ELF object at `path`.  With `img` (the object as
 * sm_elf_load laid it out) addresses are the image's, in the emulator;
 * without, the file's own.  NULL when the object cannot be read. */
struct sm_srclines *sm_srclines_file(const char *path,
                                     const struct sm_image *img);
/* The lines of an ELF file held in memory (the built-in readers' image,
 * embedded in selfmon), at the file's own addresses; the bytes are
 * copied.  NULL when they cannot be read. */
struct sm_srclines *sm_srclines_memory(const void *elf, size_t size);
/* The lines of this process's own code, at its run-time addresses (the
 * native engine's readers).  NULL when they cannot be found. */
struct sm_srclines *sm_srclines_self(void);
/* "FILE:LINE" of addr in *out (malloc'ed): 1, 0 if unknown (no line
 * info there), -1 out of memory. */
int sm_srclines_at(struct sm_srclines *s, uint64_t addr, char **out);
/* The same as the file name as the DWARF has it (malloc'ed, not made
 * printable: to open the file, never to print) and the line: 1, 0 if
 * unknown, -1 out of memory. */
int sm_srclines_src(struct sm_srclines *s, uint64_t addr, char **file,
                    int *line);
void sm_srclines_free(struct sm_srclines *s);

#endif
