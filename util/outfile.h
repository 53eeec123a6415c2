/*
 * outfile.h — writing an output file without clobbering what it names:
 * `hw record --out`, `plot -o`, the counterexample traces of `check`.
 *
 * Owns: what an output path may be and how each kind is written.  The
 * path is walked a component at a time and its symlinks are followed to
 * the file they name, except a link of another user in a sticky or
 * world-writable directory (as the kernel's fs.protected_symlinks rule
 * refuses, whatever that setting is here); a link of /proc to an open
 * file (/dev/stdout's /proc/self/fd/1) is that file, written through; a
 * regular file (or
 * no file yet) is written to a temporary beside it and renamed over it
 * only once complete, keeping the old file's mode; a character device or
 * a FIFO is written through (opened without blocking: a FIFO nobody reads
 * is refused, not waited for) and never replaced; anything else (a
 * directory, a socket, a block device) is refused.  "-" is standard
 * output, and /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N
 * are this process's descriptors, written straight to (as a shell's
 * redirections treat them: whatever the descriptor is, a pipe or a
 * socket too).  What goes to a descriptor or through a device is held
 * until the close and written then, whole: nothing on any error.  No
 * partial file is left behind on any error.
 */
#ifndef SELFMON_OUTFILE_H
#define SELFMON_OUTFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

struct sm_out {
	FILE *f;
	int dfd;                /* the directory of the file written */
	bool open_file;         /* base is /proc's link to an open file */
	char path[PATH_MAX];    /* as given, for messages */
	char base[NAME_MAX + 1]; /* its name in dfd, symlinks followed */
	char tmp[NAME_MAX + 1];  /* the temporary beside it in dfd, "" if none */
	int fd;                 /* written through: the descriptor, else -1 */
	bool own_fd;            /* fd was opened here (closed with o) */
	char *buf;              /* written through: f's memory until the close */
	size_t len;
};

/* 0 with o->f open for writing, or -1 with "reason" in err. */
int sm_out_open(struct sm_out *o, const char *path, char *err, size_t n);
/* Finish the file: 0, or -1 with "reason" in err (the temporary removed,
 * the target untouched). */
int sm_out_close(struct sm_out *o, char *err, size_t n);
/* Give up: the temporary removed, the target untouched. */
void sm_out_abort(struct sm_out *o);

/* Does path name this process's standard output ("-", /dev/stdout,
 * /dev/fd/1, /proc/self/fd/1)?  A command that writes a document there
 * writes nothing else there. */
bool sm_out_is_stdout(const char *path);

/* Remove every temporary being written (async-signal-safe): for a
 * process about to _exit(). */
void sm_out_unlink_temps(void);

/* mkdir -p, walked as sm_out_open walks (the same link rule): 0, or -1
 * with "reason" in err. */
int sm_mkdirs(const char *dir, char *err, size_t n);
/* Could files be created in dir (made first if need be)?  0, or -1 with
 * "reason" in err.  Nothing is created. */
int sm_dir_writable(const char *dir, char *err, size_t n);

#endif
