/*
 * explain.h — the step-by-step listing of `selfmon replay --explain`.
 *
 * Owns: printing, as the run happens, each executed instruction, each page
 * field the reader loads with its value, each trapped counter/timer read or
 * syscall with its answer, and each kernel action with the page fields it
 * changed, with the source line of each instruction when the reader
 * code has DWARF line info (the built-in readers', or a user's object
 * built with -g).  Engines and session.c call it only when s->explain is
 * set.  Out of memory it says so in one line and exits with status 2.
 */
#ifndef SELFMON_EXPLAIN_H
#define SELFMON_EXPLAIN_H

#include <capstone/capstone.h>
#include <stdio.h>

#include "session.h"
#include "srcline.h"

struct sm_explain {
	FILE *f;
	struct perf_event_mmap_page last; /* the page as last shown */
	csh cs;                           /* capstone, for the arch */
	bool have_cs;
	struct sm_srclines *lines;        /* the reader code's line table */
	struct { uint64_t addr; char *where; } src[512]; /* looked up (ring) */
	unsigned nsrc;
	char *last_where;                 /* the source line last shown */
	struct { uint64_t addr; char text[64]; } *list; /* objdump's, riscv */
	unsigned nlist;
	uint64_t max_steps;   /* list at most this many steps (0: all) */
	uint64_t quiet;       /* steps not listed */
};
#define SM_EXPLAIN_LIST 16384

void sm_explain_init(struct sm_explain *x, FILE *f, const struct sm_session *s);
void sm_explain_done(struct sm_explain *x);
void sm_explain_insn(struct sm_session *s, uint64_t addr, const uint8_t *bytes,
                     unsigned len);
void sm_explain_native(struct sm_session *s, const char *what);
void sm_explain_load(struct sm_session *s, unsigned off, unsigned size,
                     uint64_t value);
void sm_explain_trap(struct sm_session *s, const char *what, uint64_t arg,
                     uint64_t value);
void sm_explain_action(struct sm_session *s, enum sm_action_kind kind, int rc,
                       uint64_t updates_before);
void sm_explain_store(struct sm_session *s, int off);

#endif
