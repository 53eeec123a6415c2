/*
 * srctext.h — the text of a reader's source lines, for the --explain
 * listing: the built-in readers' from the copies embedded in selfmon
 * (sources.h: always there), a user's from the files its DWARF line table
 * names (srcline.h), when they can be read.
 *
 * Owns: reading those files within bounds (the object names them, so
 * they are hostile input: a missing, unreadable, huge or binary file, a
 * symbolic link, a line past the file's end) and the one note per file
 * that says why its text is not shown.  Must not print nor exit.
 */
#ifndef SELFMON_SRCTEXT_H
#define SELFMON_SRCTEXT_H

#include <stdbool.h>
#include <stddef.h>

/* The caps (in the README): a source file read, the files read for one
 * listing and their bytes in all, the bytes of one line shown (longer
 * ones end in "..."). */
#define SM_SRCTEXT_MAX_BYTES ((size_t)1 << 20)
#define SM_SRCTEXT_MAX_FILES 32
#define SM_SRCTEXT_MAX_TOTAL ((size_t)8 << 20)
#define SM_SRCTEXT_LINE 240

struct sm_srctext;

/* Lines from the embedded built-in sources (builtin), or from files.
 * NULL out of memory. */
struct sm_srctext *sm_srctext_new(bool builtin);
void sm_srctext_free(struct sm_srctext *t);

/* Line `line` (from 1) of `file` (the name as the DWARF has it) into
 * buf: tabs expanded to stops of 8, a trailing CR dropped, made printable
 * (sm_printable), at most SM_SRCTEXT_LINE bytes and n - 1.  1; 0 when it
 * cannot be shown, with *note (malloc'ed, one line, the caller frees it)
 * saying why the first time for that file and NULL after; -1 out of
 * memory. */
int sm_srctext_line(struct sm_srctext *t, const char *file, int line,
                    char *buf, size_t n, char **note);

#endif
