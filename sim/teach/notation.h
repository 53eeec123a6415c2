/*
 * notation.h — page values in the ABI's own notation, for pictures and
 * pages a learner reads: `index` as the hex the kernel documents with the
 * counter it names (x86 0x40000001: fixed counter 0, rdpmc ECX
 * 1<<30 | 0), counts with thousands grouped.
 *
 * Owns: those strings only.  It decides nothing about the kernel.
 */
#ifndef SELFMON_NOTATION_H
#define SELFMON_NOTATION_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* "fixed counter 0 (rdpmc ECX 0x40000000)", "PMEVCNTR3_EL0",
 * "hpmcounter3 (csr 0xc03)", "not on a counter (read(2))" for 0. */
void sm_index_counter(enum sm_arch a, uint32_t index, char *buf, size_t n);
/* "0x40000001" (x86 indexes past 0xffff) or the decimal ("3"). */
void sm_index_short(enum sm_arch a, uint32_t index, char *buf, size_t n);

#endif
