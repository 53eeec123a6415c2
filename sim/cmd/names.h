/*
 * names.h — "did you mean" for the names a command line takes: a built-in
 * reader, a bundled scenario (the nearest found by util/suggest.c).
 *
 * Owns the wording of the hint.  It must not decide whether a name is
 * known: its callers do, and add the hint to their own error line.
 */
#ifndef SELFMON_NAMES_H
#define SELFMON_NAMES_H

#include <stddef.h>

/* ": did you mean 'NAME'?" for the nearest of what is offered, or "",
 * into buf. */
const char *sm_hint(char *buf, size_t n, const char *best);
/* The hint for a mistyped built-in reader's name (static storage: for
 * one error line at a time, from one thread). */
const char *sm_reader_hint(const char *typed);

#endif
