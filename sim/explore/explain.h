/*
 * explain.h — the step-by-step listing of `selfmon replay --explain`.
 *
 * Owns: printing, as the run happens, each executed instruction, each page
 * field the reader loads with its value, each trapped counter/timer read or
 * syscall with its answer, and each kernel action with the page fields it
 * changed, with the source line of each instruction when the reader
 * code has DWARF line info (the built-in readers', or a user's object
 * built with -g) and, after it, that line's source text (srctext.h: the
 * built-in readers' embedded, a user's read from its file when it can be,
 * else one note saying why).  It is a tracer (session.h struct
 * sm_tracer): engines and session.c call its hooks, never its functions.
 * With `record` set it also keeps each of those as a struct sm_xevent,
 * in order, for the JSON and the HTML page (sim/teach/) to be built from
 * exactly what the listing shows.  At each kernel write it also says, in
 * one line, what the write changed of the kernel state the page does not
 * show (model.h's sm_kview: event state, counter, prev_count, the
 * user-access register).  Out of memory the listing stops and `oom` is
 * set: the command says so in one line and exits with status 2.
 */
#ifndef SELFMON_EXPLAIN_H
#define SELFMON_EXPLAIN_H

#include <capstone/capstone.h>
#include <stdio.h>

#include "session.h"
#include "srcline.h"
#include "srctext.h"

/* One line of the listing, as data.  step is the instruction it belongs
 * to: an instruction's own number; a load's or a trap's, the instruction
 * doing it; a kernel action's or a remote store's, the instruction it
 * lands before.  A CHANGE follows its ACTION or STORE. */
enum sm_xkind {
	SM_X_INSN,   /* addr, bytes, text (disassembly), where (file:line) */
	SM_X_LOAD,   /* field (index, -1 reserved), off, size, value */
	SM_X_TRAP,   /* text (rdpmc, rdtsc, ...), arg, value, cycle */
	SM_X_ACTION, /* action, rc, updates, truth */
	SM_X_STORE,  /* field: one store of a remote writer's update */
	SM_X_CHANGE, /* field, old, value */
	SM_X_NATIVE, /* text: a routed call of the native engine */
	SM_X_KCHANGE, /* field (an item of sm_kview_item()), old, value: the
	               * kernel state off the page, after the CHANGEs */
};

struct sm_xevent {
	enum sm_xkind kind;
	uint64_t step;
	int field;
	enum sm_action_kind action;
	int rc;
	unsigned off, size, len;
	uint64_t addr, arg, old, value, cycle, updates;
	struct sm_truth truth;
	uint8_t bytes[16];
	char text[200];
	char *where;       /* owned: file:line, or NULL */
	char *src_text;    /* owned: that line's source text, or NULL */
	char *src_note;    /* owned: why a file's text is not shown (the
	                    * first time), or NULL */
};

struct sm_explain {
	FILE *f;              /* the text listing; NULL: none */
	bool record;          /* keep the events (set before the run) */
	bool oom;             /* the listing or the recording ran out of
	                       * memory (the listing stopped there) */
	struct sm_xevent *ev; /* recorded, in order */
	size_t nev, cap;
	struct perf_event_mmap_page first; /* the page when the call began */
	uint64_t insn_step;   /* of the last instruction listed */
	struct perf_event_mmap_page last; /* the page as last shown */
	struct sm_kview kfirst, klast;    /* the kernel state off the page:
	                                   * when the call began, last shown */
	csh cs;                           /* capstone, for the arch */
	bool have_cs;
	struct sm_srclines *lines;        /* the reader code's line table */
	struct sm_srclines *self;         /* this process's (native engine) */
	struct sm_xsrc { uint64_t addr; char *where, *text; } src[512];
	                                  /* looked up (a ring) */
	struct sm_srctext *text;          /* the source lines' text */
	char *note;                       /* a note on it, not yet shown */
	unsigned nsrc;
	char *last_where;                 /* the source line last shown */
	struct { uint64_t addr; char text[64]; } *list; /* objdump's, riscv */
	unsigned nlist;
	uint64_t max_steps;   /* list at most this many steps (0: all) */
	uint64_t quiet;       /* steps not listed */
};
#define SM_EXPLAIN_LIST 16384

void sm_explain_init(struct sm_explain *x, FILE *f, const struct sm_session *s);
/* Ends the listing; the recorded events stay until sm_explain_free(). */
void sm_explain_done(struct sm_explain *x);
void sm_explain_free(struct sm_explain *x);
/* Attach the listing to session s (its tracer hooks): from then on the
 * run is listed as it happens.  sm_replay() does it. */
void sm_explain_attach(struct sm_explain *x, struct sm_session *s);

#endif
