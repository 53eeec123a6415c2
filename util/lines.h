/*
 * lines.h — the reader every line format of selfmon is parsed with:
 * scenarios (model/scenario.c), hw traces (sim/hw/hw_trace.c) and
 * counterexample traces (sim/explore/cex_trace.c).
 *
 * Owns: walking a NUL-terminated text line by line with line numbers;
 * the checks on a line as such (its length, control characters, its
 * number of tokens), comments and blank lines; splitting a line into
 * tokens with their columns; positional words and KEY=VALUE tokens looked
 * up in a format's key table; and the one error form of every format,
 * "NAME:LINE:COL: message" (or "NAME: message" for the file as a whole).
 * A format is a struct sm_line_format and its tables of names: what a
 * directive or a key means is the format's, not this file's.
 *
 * Columns count bytes from 1 (a tab is one column); a missing token is
 * reported at the column just after the line's last token.  A '\r' just
 * before the '\n' is no part of the line (CRLF files read as LF files).
 *
 * Must not touch: anything but the struct sm_lines it is handed and the
 * error buffer it was given; it allocates the copy of the current line
 * (sm_lines_free() releases it).
 */
#ifndef SELFMON_LINES_H
#define SELFMON_LINES_H

#include <stdbool.h>
#include <stddef.h>

enum sm_comment {
	SM_COMMENT_ANYWHERE, /* '#' starts a comment wherever it is */
	SM_COMMENT_LINE,     /* a line whose first non-blank byte is '#' is
	                      * a comment; elsewhere '#' is text */
};

struct sm_line_format {
	unsigned max_len;     /* bytes of a line, without "\n" or "\r\n";
	                       * longer: "line too long (max N bytes)" at
	                       * column N + 1 */
	const char *blanks;   /* the bytes between tokens, e.g. " \t\r" */
	enum sm_comment comment;
	/* non-NULL: a control byte (below 0x20, or 0x7f) outside `blanks`
	 * is an error, "control character in a NOUN line" */
	const char *controls_noun;
	unsigned max_tokens;  /* 0: any; else more is "too many fields
	                       * (max N)" at the first one over */
};

struct sm_tok {
	char *s;      /* NUL-terminated, in the reader's copy of the line */
	unsigned col; /* from 1 */
};

#define SM_LINE_MAX_KEYS 32 /* entries of one key table (sm_line_key) */

struct sm_lines {
	const struct sm_line_format *fmt;
	const char *name;         /* of the file, in messages */
	char *err;                /* the error line goes here (may be NULL) */
	size_t errlen;
	/* the current line (after the end: the line after the last one,
	 * with no tokens and endcol 1, where a missing line is reported) */
	unsigned lineno;          /* from 1 */
	const char *raw;          /* in the text: the line as it is ... */
	size_t len;               /* ... without its "\n" or "\r\n" */
	struct sm_tok *tok;
	unsigned ntok;
	unsigned endcol;          /* just after the last token */
	/* column of each key of the table sm_line_key() looked up on this
	 * line, 0 if it was not given */
	unsigned seen[SM_LINE_MAX_KEYS];
	/* private */
	const char *next;
	char *buf;
	size_t bufcap;
	unsigned tokcap;
};

/* Start reading `text` (NULL reads as empty). */
void sm_lines_init(struct sm_lines *r, const struct sm_line_format *f,
                   const char *name, const char *text, char *err,
                   size_t errlen);
/* The next line that has tokens (blank and comment lines are skipped):
 * 1; 0 at the end of the text; -1 with the error in err (the line's
 * length, a control character, too many tokens, out of memory). */
int sm_lines_next(struct sm_lines *r);
void sm_lines_free(struct sm_lines *r);

/* "NAME:LINE:COL: message" of the current line in err; returns -1. */
int sm_line_fail(struct sm_lines *r, unsigned col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "NAME: message", about the file as a whole; returns -1. */
int sm_lines_fail(struct sm_lines *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Token i as a positional word, or NULL with "missing WHAT" (also when
 * token i is a KEY=VALUE: the word was left out). */
struct sm_tok *sm_line_word(struct sm_lines *r, unsigned i, const char *what);
/* 0 when the line has no token i, else -1 with "unexpected 'TOKEN'". */
int sm_line_no_more(struct sm_lines *r, unsigned i);
/* The raw line from column `col` on (empty past its end), *len bytes,
 * not NUL-terminated: text that may hold blanks. */
const char *sm_line_rest(const struct sm_lines *r, unsigned col,
                         size_t *len);

/* A table of names: an array of structs with a `const char *` member,
 * or of strings.  SM_KEYS(table, member) or SM_NAMES(strings). */
struct sm_keys {
	const char *const *first; /* the name of the table's first entry */
	size_t n, stride;
};
#define SM_KEYS(table, member) \
	((struct sm_keys){ &(table)[0].member, \
	                   sizeof(table) / sizeof((table)[0]), \
	                   sizeof((table)[0]) })
#define SM_NAMES(strings) \
	((struct sm_keys){ &(strings)[0], sizeof(strings) / sizeof((strings)[0]), \
	                   sizeof((strings)[0]) })
/* The index of the entry named `name`, or -1 (a NULL name matches no
 * entry). */
int sm_keys_find(struct sm_keys k, const char *name);
const char *sm_keys_name(struct sm_keys k, size_t i);

/* Token t (of the current line) as KEY=VALUE, KEY one of the table's
 * names (for `owner`, in messages): the key's index with the value in
 * *val (its column the value's), the token cut to its key; or -1 with
 * "missing '=' in 'T'", "unknown key 'K' for 'OWNER'" or "duplicate key
 * 'K'".  The key's column is kept in r->seen[index]. */
int sm_line_key(struct sm_lines *r, struct sm_tok *t, struct sm_keys k,
                const char *owner, struct sm_tok *val);

/* The next item of a list separated by `sep`, cut in place (NULL after
 * the last one); an empty item is one too, for the caller to refuse:
 * "a,,b" has three. */
char *sm_split_next(char **p, char sep);

#endif
