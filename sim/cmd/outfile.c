/*
 * outfile.c — see outfile.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

static int oops(char *err, size_t n, const char *why)
{
	snprintf(err, n, "%s", why);
	return -1;
}

/* dir part of p ("." if none) into d. */
static int dir_of(const char *p, char *d, size_t n)
{
	const char *slash = strrchr(p, '/');

	if (!slash)
		return snprintf(d, n, ".") < (int)n ? 0 : -1;
	if (slash == p)
		return snprintf(d, n, "/") < (int)n ? 0 : -1;
	return snprintf(d, n, "%.*s", (int)(slash - p), p) < (int)n ? 0 : -1;
}

/* Follow the symlinks of `path` to the file they name (which may not
 * exist yet): its path in o->target, its lstat in *st (st_mode 0 when
 * absent). */
static int resolve(struct sm_out *o, struct stat *st, char *err, size_t n)
{
	char link[PATH_MAX], dir[PATH_MAX];

	if (snprintf(o->target, sizeof(o->target), "%s", o->path) >=
	    (int)sizeof(o->target))
		return oops(err, n, strerror(ENAMETOOLONG));
	for (int hops = 0; hops < 40; hops++) {
		if (lstat(o->target, st) < 0) {
			if (errno != ENOENT)
				return oops(err, n, strerror(errno));
			st->st_mode = 0;
			return 0;
		}
		if (!S_ISLNK(st->st_mode))
			return 0;
		ssize_t k = readlink(o->target, link, sizeof(link) - 1);
		if (k < 0)
			return oops(err, n, strerror(errno));
		link[k] = '\0';
		if (link[0] == '/' || dir_of(o->target, dir, sizeof(dir)) < 0) {
			if (snprintf(o->target, sizeof(o->target), "%s", link) >=
			    (int)sizeof(o->target))
				return oops(err, n, strerror(ENAMETOOLONG));
		} else if (snprintf(o->target, sizeof(o->target), "%s/%s", dir,
		                    link) >= (int)sizeof(o->target)) {
			return oops(err, n, strerror(ENAMETOOLONG));
		}
	}
	return oops(err, n, strerror(ELOOP));
}

static int through(struct sm_out *o, const struct stat *st, char *err,
                   size_t n)
{
	int fd = open(o->target, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		return oops(err, n, errno == ENXIO && S_ISFIFO(st->st_mode)
		                    ? "a FIFO that no process reads"
		                    : strerror(errno));
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	if (!(o->f = fdopen(fd, "w"))) {
		close(fd);
		return oops(err, n, strerror(errno));
	}
	return 0;
}

static int atomic(struct sm_out *o, const struct stat *st, char *err,
                  size_t n)
{
	char dir[PATH_MAX];
	const char *base = strrchr(o->target, '/');

	base = base ? base + 1 : o->target;
	if (dir_of(o->target, dir, sizeof(dir)) < 0 ||
	    snprintf(o->tmp, sizeof(o->tmp), "%s/.%s.XXXXXX", dir, base) >=
	    (int)sizeof(o->tmp)) {
		o->tmp[0] = '\0';
		return oops(err, n, strerror(ENAMETOOLONG));
	}
	int fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		o->tmp[0] = '\0';
		return oops(err, n, strerror(e));
	}
	mode_t mode = st->st_mode & 07777;
	if (!st->st_mode) { /* a new file: as open(O_CREAT, 0666) makes it */
		mode_t mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	fchmod(fd, mode);
	if (!(o->f = fdopen(fd, "w"))) {
		int e = errno;
		close(fd);
		unlink(o->tmp);
		o->tmp[0] = '\0';
		return oops(err, n, strerror(e));
	}
	return 0;
}

int sm_out_open(struct sm_out *o, const char *path, char *err, size_t n)
{
	struct stat st;

	memset(o, 0, sizeof(*o));
	if (snprintf(o->path, sizeof(o->path), "%s", path) >=
	    (int)sizeof(o->path))
		return oops(err, n, strerror(ENAMETOOLONG));
	if (resolve(o, &st, err, n) < 0)
		return -1;
	if (!st.st_mode || S_ISREG(st.st_mode))
		return atomic(o, &st, err, n);
	if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
		return through(o, &st, err, n);
	if (S_ISDIR(st.st_mode))
		return oops(err, n, strerror(EISDIR));
	return oops(err, n, "not a regular file, a character device or a FIFO");
}

int sm_out_close(struct sm_out *o, char *err, size_t n)
{
	int e = 0;

	if (!o->f)
		return oops(err, n, strerror(EBADF));
	if (fflush(o->f) != 0 || ferror(o->f))
		e = errno ? errno : EIO;
	if (fclose(o->f) != 0 && !e)
		e = errno ? errno : EIO;
	o->f = NULL;
	if (!e && o->tmp[0] && rename(o->tmp, o->target) != 0)
		e = errno;
	if (e && o->tmp[0])
		unlink(o->tmp);
	o->tmp[0] = '\0';
	return e ? oops(err, n, strerror(e)) : 0;
}

void sm_out_abort(struct sm_out *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp[0])
		unlink(o->tmp);
	o->tmp[0] = '\0';
}

int sm_mkdirs(const char *dir, char *err, size_t n)
{
	char buf[PATH_MAX];
	struct stat st;

	if (snprintf(buf, sizeof(buf), "%s", dir) >= (int)sizeof(buf))
		return oops(err, n, strerror(ENAMETOOLONG));
	if (!buf[0])
		return 0;
	for (char *q = buf + 1;; q++)
		if (*q == '/' || !*q) {
			char c = *q;
			*q = '\0';
			if (mkdir(buf, 0777) < 0 && errno != EEXIST)
				return oops(err, n, strerror(errno));
			if (stat(buf, &st) < 0 || !S_ISDIR(st.st_mode))
				return oops(err, n, strerror(ENOTDIR));
			if (!(*q = c))
				return 0;
		}
}

int sm_dir_writable(const char *dir, char *err, size_t n)
{
	char buf[PATH_MAX];
	struct stat st;

	if (snprintf(buf, sizeof(buf), "%s", dir) >= (int)sizeof(buf))
		return oops(err, n, strerror(ENAMETOOLONG));
	for (;;) {
		if (stat(buf, &st) == 0) {
			if (!S_ISDIR(st.st_mode))
				return oops(err, n, strerror(ENOTDIR));
			if (access(buf, W_OK | X_OK) < 0)
				return oops(err, n, strerror(errno));
			return 0;
		}
		if (errno != ENOENT)
			return oops(err, n, strerror(errno));
		char *slash = strrchr(buf, '/');
		while (slash && slash > buf && slash[1] == '\0') { /* "a/b/" */
			*slash = '\0';
			slash = strrchr(buf, '/');
		}
		if (!slash)
			snprintf(buf, sizeof(buf), ".");
		else if (slash == buf)
			buf[1] = '\0';
		else
			*slash = '\0';
	}
}
