/*
 * cex_pack.h — a packed counterexample: one file holding a trace
 * (cex_trace.h) and what it needs to replay anywhere, as `selfmon pack`
 * writes it and `replay` reads it.
 *
 *   selfmon-pack 1\n          the magic and the format's version
 *   selfmon V\n               the version of selfmon that packed it
 *   trace N\n  N bytes \n     the trace's text
 *   scenario N\n N bytes \n   the scenario file's text
 *   object N\n N bytes \n     the reader's object file (a user's reader
 *                             only: a built-in reader's code is selfmon's,
 *                             and the trace's hash of it must match the
 *                             selfmon that replays)
 *   end\n
 *
 * In this order, nothing after `end`.  N is decimal without leading
 * zeros, each part within its input cap (input.h); the text parts hold
 * no NUL byte.  A packed file is untrusted input: an error is one line,
 * "NAME: byte OFFSET: message".
 */
#ifndef SELFMON_CEX_PACK_H
#define SELFMON_CEX_PACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "input.h"

#define SM_PACK_MAGIC "selfmon-pack 1\n"
#define SM_PACK_VERSION_MAX 64
/* the largest packed file read: its parts at their caps, and the lines */
#define SM_PACK_MAX_BYTES (SM_TRACE_MAX_BYTES + SM_SCENARIO_MAX_BYTES +      \
                           SM_ELF_MAX_BYTES + 4096)

struct sm_cex_pack {
	char *version;              /* NUL-terminated */
	char *trace, *scenario;     /* NUL-terminated texts */
	size_t trace_len, scenario_len;
	uint8_t *object;            /* NULL: none (a built-in reader) */
	size_t object_len;
};

/* Does the data start as a packed file does? */
bool sm_cex_pack_is(const void *data, size_t len);
/* p to f.  0, or -1 on a write error (errno). */
int sm_cex_pack_write(FILE *f, const struct sm_cex_pack *p);
/* Parse len bytes (`name` for messages) into p, every part copied: 0,
 * or -1 with one line in err (p then holds nothing). */
int sm_cex_pack_parse(const char *name, const uint8_t *data, size_t len,
                      struct sm_cex_pack *p, char *err, size_t n);
void sm_cex_pack_free(struct sm_cex_pack *p);

#endif
