/*
 * input.h — reading one input file whole, within a cap: scenarios, traces,
 * ELF objects.
 *
 * Owns: the rules every input file of selfmon follows.  It must be a
 * regular file (a FIFO, a device or a directory is refused in one line,
 * and opening never blocks: a FIFO with no writer is refused, not waited
 * for), of at most `max` bytes (a larger one is refused before it is read,
 * and reading stops at the cap if it grows meanwhile).
 */
#ifndef SELFMON_INPUT_H
#define SELFMON_INPUT_H

#include <stddef.h>
#include <stdint.h>

/* The caps of the input files (documented in the README). */
#define SM_SCENARIO_MAX_BYTES ((size_t)1 << 20)  /* scenario files, 1 MiB */
#define SM_TRACE_MAX_BYTES ((size_t)16 << 20)    /* hw and cex traces, 16 MiB */
#define SM_ELF_MAX_BYTES ((size_t)256 << 20)     /* ELF objects, 256 MiB */
#define SM_SHARD_MAX_BYTES ((size_t)16 << 20)    /* check --json, 16 MiB for
                                                  * all of merge's shards */

/* The whole file plus a terminating NUL (malloc'ed; *len excludes the
 * NUL), or NULL with the reason in why ("not a regular file (a FIFO)",
 * "larger than the cap of 1 MiB", strerror()). */
char *sm_read_input(const char *path, size_t max, size_t *len, char *why,
                    size_t whylen);
/* The same with more flags for open(2) (O_NOFOLLOW: a symbolic link is
 * refused, ELOOP). */
char *sm_read_input_flags(const char *path, size_t max, int oflags,
                          size_t *len, char *why, size_t whylen);

/* Replace by '?' each byte of what no text output may carry: control
 * characters (C0, DEL, C1), U+FFFE/U+FFFF and bytes that are not UTF-8.
 * Text from files and names printed on one line stays one line, cannot
 * drive a terminal, and is valid in every output format. */
void sm_printable(char *s);
/* 0 when s is text that every output format can carry as it is (what
 * sm_printable() would leave unchanged), or -1 with what and where in
 * why ("control character U+000A at byte 5", "invalid UTF-8 at byte 3"):
 * names from users are refused with it at the door. */
int sm_text_check(const char *s, char *why, size_t n);

/* A number in an input file: decimal or 0x-hex, unsigned 64-bit, no
 * sign, no blanks, no junk.  0, -1 malformed, -2 out of range. */
int sm_parse_u64(const char *s, uint64_t *out);

#endif
