/*
 * error.h — the one-line error of bad input or selfmon's own failure, and
 * the sink it goes to.
 *
 * Owns sm_error() and the sink (error.c).  The library reports here and
 * returns exit status 2 to its caller; it never exits.  main.c, the tests
 * and the fuzz targets are only callers: by default the line goes to
 * stderr as "selfmon: MESSAGE", a sink set with sm_error_sink() takes it
 * instead (a fuzz target's is silent).
 */
#ifndef SELFMON_ERROR_H
#define SELFMON_ERROR_H

/* Report one line (its control bytes made '?': names and text from files
 * may carry a newline or an escape sequence); returns 2. */
int sm_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Where the lines go from now on: fn(msg, ctx) with the printable message
 * (no "selfmon: " and no newline); NULL: stderr again.  Not thread-safe:
 * set it before any worker starts. */
typedef void sm_error_fn(const char *msg, void *ctx);
void sm_error_sink(sm_error_fn *fn, void *ctx);

#endif
