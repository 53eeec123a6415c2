/*
 * teach.h — one failing (or passing) read, for a learner: the recorded
 * --explain listing as one JSON document (`replay --explain --json`) and
 * as a self-contained HTML page to step through (`replay --html`,
 * `explain-bug --html`).
 *
 * Owns: the shape of that document and the page built from it.  The page
 * embeds the same document, so what the browser shows is what the JSON
 * says; it decides nothing about the kernel or the reader.
 */
#ifndef SELFMON_TEACH_H
#define SELFMON_TEACH_H

#include <stdio.h>

#include "explain.h"
#include "session.h"

struct json;

/* A run that has ended, with its listing recorded (x->record). */
struct sm_teach {
	const char *schedule;         /* the one-line schedule */
	const char *scenario;         /* its name in that line */
	const struct sm_session *s;   /* the cell, the result, the window */
	const struct sm_schedule *sched;
	const struct sm_explain *x;
	const char *fault, *fix;      /* explain-bug's paragraphs, or NULL */
	/* members the command adds at the end of the document (explain-bug:
	 * why this example, lands.h's sentences are the document's own), or
	 * NULL */
	void (*more)(struct json *j, const void *arg);
	const void *more_arg;
};

/* The document, one line ending in '\n'.  64-bit values are decimal
 * strings (exact in JavaScript too); signed page fields signed. */
void sm_teach_json(FILE *f, const struct sm_teach *t);
/* The page: 0, or -1 with the reason in err. */
int sm_teach_html(FILE *f, const struct sm_teach *t, char *err, size_t n);
/* Could the page be written to path?  0, or -1 with the reason in err;
 * nothing is left behind.  (Before a run, so bad output is refused
 * before anything else is printed.) */
int sm_teach_html_probe(const char *path, char *err, size_t n);
/* The page into the file path through outfile.c (whole or not at all). */
int sm_teach_html_file(const char *path, const struct sm_teach *t, char *err,
                       size_t n);

#endif
