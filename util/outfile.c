/*
 * outfile.c — see outfile.h.
 *
 * Paths are walked here one component at a time, each opened relative to
 * the directory before it (O_PATH, O_NOFOLLOW), so that every symlink met
 * is seen and judged before it is followed; the file itself is opened or
 * created relative to its directory's descriptor.  Must not use a path
 * string to reach the file once the walk is done.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "outfile.h"

/* The temporaries being written, by directory and name, so that a process
 * that must end at once (the emulator's fatal guards, engine_unicorn.c)
 * leaves none behind: sm_out_unlink_temps() is async-signal-safe. */
#define MAX_LIVE 64
static struct sm_out *volatile live[MAX_LIVE];
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;

static void live_add(struct sm_out *o)
{
	pthread_mutex_lock(&live_lock);
	for (int i = 0; i < MAX_LIVE; i++)
		if (!live[i]) {
			live[i] = o;
			break;
		}
	pthread_mutex_unlock(&live_lock);
}

static void live_remove(struct sm_out *o)
{
	pthread_mutex_lock(&live_lock);
	for (int i = 0; i < MAX_LIVE; i++)
		if (live[i] == o)
			live[i] = NULL;
	pthread_mutex_unlock(&live_lock);
}

void sm_out_unlink_temps(void)
{
	for (int i = 0; i < MAX_LIVE; i++) {
		struct sm_out *o = live[i];
		if (o && o->tmp[0])
			unlinkat(o->dfd, o->tmp, 0);
	}
}

#define MAX_HOPS 40 /* symlinks followed in one walk, as the kernel's */

static int oops(char *err, size_t n, const char *why)
{
	snprintf(err, n, "%s", why);
	return -1;
}

static int fail(char *err, size_t n, int e)
{
	return oops(err, n, strerror(e));
}

/* The kernel's fs.protected_symlinks rule (may_follow_link() in
 * fs/namei.c), with the world-writable case widened to directories that
 * are not sticky: a link is followed when its directory is neither
 * sticky nor world-writable, or when the caller or the directory's owner
 * owns the link.  Root is not exempt, as in the kernel. */
static int may_follow(int dfd, const char *name, const struct stat *link,
                      char *err, size_t n)
{
	struct stat d;

	if (fstat(dfd, &d) < 0)
		return fail(err, n, errno);
	if (!(d.st_mode & (S_ISVTX | S_IWOTH)) || link->st_uid == geteuid() ||
	    link->st_uid == d.st_uid)
		return 0;
	snprintf(err, n, "not following '%s', a symbolic link of another user "
	         "(uid %u) in a sticky or world-writable directory", name,
	         (unsigned)link->st_uid);
	return -1;
}

struct walk {
	int dfd;                 /* the directory reached */
	char rest[2 * PATH_MAX]; /* what is left to resolve from there */
	int hops;
	bool absent;             /* the walk stopped at a missing directory */
};

static int walk_start(struct walk *w, const char *path, char *err, size_t n)
{
	w->hops = 0;
	w->absent = false;
	w->dfd = -1;
	if (!path[0])
		return fail(err, n, ENOENT);
	if (snprintf(w->rest, sizeof(w->rest), "%s", path) >= PATH_MAX)
		return fail(err, n, ENAMETOOLONG);
	w->dfd = open(path[0] == '/' ? "/" : ".",
	              O_PATH | O_DIRECTORY | O_CLOEXEC);
	return w->dfd < 0 ? fail(err, n, errno) : 0;
}

/* The link `name` in w->dfd (lstat in *st) replaces itself in the walk:
 * its text goes before what was left (`tail`). */
static int walk_link(struct walk *w, const char *name, const struct stat *st,
                     const char *tail, char *err, size_t n)
{
	char link[PATH_MAX], rest[2 * PATH_MAX];

	if (++w->hops > MAX_HOPS)
		return fail(err, n, ELOOP);
	if (may_follow(w->dfd, name, st, err, n) < 0)
		return -1;
	ssize_t k = readlinkat(w->dfd, name, link, sizeof(link) - 1);
	if (k < 0)
		return fail(err, n, errno);
	link[k] = '\0';
	if (snprintf(rest, sizeof(rest), "%s%s%s", link, *tail ? "/" : "",
	             tail) >= PATH_MAX)
		return fail(err, n, ENAMETOOLONG);
	memcpy(w->rest, rest, sizeof(rest));
	if (link[0] == '/') {
		int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (root < 0)
			return fail(err, n, errno);
		close(w->dfd);
		w->dfd = root;
	}
	return 0;
}

/* Enter the directory `name` of w->dfd (made first when `create` and it
 * is absent). */
static int walk_enter(struct walk *w, const char *name, bool create,
                      char *err, size_t n)
{
	int d = openat(w->dfd, name,
	               O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (d < 0 && errno == ENOENT && create) {
		if (mkdirat(w->dfd, name, 0777) < 0 && errno != EEXIST)
			return fail(err, n, errno);
		d = openat(w->dfd, name,
		           O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	if (d < 0)
		return fail(err, n, errno == ELOOP ? ENOTDIR : errno);
	close(w->dfd);
	w->dfd = d;
	return 0;
}

/* Walk until one component is left, which goes to `last` ("" when the
 * path ends in a directory: "/", "a/", "."); every directory on the way
 * entered (made when `create`), every link judged and followed. */
static int walk_to_last(struct walk *w, char *last, bool create, char *err,
                        size_t n)
{
	for (;;) {
		char *p = w->rest, name[NAME_MAX + 1];
		struct stat st;

		while (*p == '/')
			p++;
		size_t len = strcspn(p, "/");
		if (len > NAME_MAX)
			return fail(err, n, ENAMETOOLONG);
		memcpy(name, p, len);
		name[len] = '\0';
		char *tail = p + len;
		while (*tail == '/')
			tail++;
		bool final = !p[len]; /* no slash after it */
		if (final && len && strcmp(name, ".") && strcmp(name, "..")) {
			memcpy(last, name, len + 1);
			return 0;
		}
		if (!len) {
			last[0] = '\0'; /* the walk ends at a directory */
			return 0;
		}
		int r = fstatat(w->dfd, name, &st, AT_SYMLINK_NOFOLLOW);
		if (r < 0 && !(errno == ENOENT && create)) {
			w->absent = errno == ENOENT;
			return fail(err, n, errno);
		}
		if (r == 0 && S_ISLNK(st.st_mode)) {
			if (walk_link(w, name, &st, tail, err, n) < 0)
				return -1;
			continue;
		}
		if (walk_enter(w, name, create, err, n) < 0)
			return -1;
		memmove(w->rest, tail, strlen(tail) + 1);
		if (!w->rest[0]) {
			last[0] = '\0';
			return 0;
		}
	}
}

/* Walk the whole path: the file's directory in o->dfd, its name in
 * o->base, its lstat in *st (st_mode 0 when absent). */
static int resolve(struct sm_out *o, struct stat *st, char *err, size_t n)
{
	struct walk w;

	if (walk_start(&w, o->path, err, n) < 0)
		return -1;
	for (;;) {
		if (walk_to_last(&w, o->base, false, err, n) < 0)
			break;
		if (!o->base[0]) {
			fail(err, n, EISDIR);
			break;
		}
		if (fstatat(w.dfd, o->base, st, AT_SYMLINK_NOFOLLOW) < 0) {
			if (errno != ENOENT) {
				fail(err, n, errno);
				break;
			}
			st->st_mode = 0;
		} else if (S_ISLNK(st->st_mode)) {
			struct statfs fs;
			if (fstatfs(w.dfd, &fs) == 0 && fs.f_type == PROC_SUPER_MAGIC) {
				/* /proc/self/fd/1 (what /dev/stdout names) names an
				 * open file, not a path: the kernel follows it */
				if (fstatat(w.dfd, o->base, st, 0) < 0) {
					fail(err, n, errno);
					break;
				}
				o->open_file = true;
			} else if (walk_link(&w, o->base, st, "", err, n) < 0) {
				break;
			} else {
				continue;
			}
		}
		o->dfd = w.dfd;
		return 0;
	}
	if (w.dfd >= 0)
		close(w.dfd);
	return -1;
}

/* Written through descriptor o->fd: what is written is held in memory
 * (o->f) until sm_out_close() writes it whole. */
static int hold(struct sm_out *o, char *err, size_t n)
{
	if (!(o->f = open_memstream(&o->buf, &o->len)))
		return fail(err, n, errno);
	return 0;
}

static int through(struct sm_out *o, const struct stat *st, char *err,
                   size_t n)
{
	struct stat now;
	int fd = openat(o->dfd, o->base, O_WRONLY | O_NONBLOCK | O_NOCTTY |
	                (o->open_file ? 0 : O_NOFOLLOW) | O_CLOEXEC);

	if (fd < 0)
		return oops(err, n, errno == ENXIO && S_ISFIFO(st->st_mode)
		                    ? "a FIFO that no process reads"
		                    : strerror(errno));
	/* the name may have been replaced since it was looked at */
	if (fstat(fd, &now) < 0 || (now.st_mode & S_IFMT) !=
	    (st->st_mode & S_IFMT)) {
		close(fd);
		return oops(err, n, "changed while it was being opened");
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	o->fd = fd;
	o->own_fd = true;
	return hold(o, err, n);
}

/* "-", /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: this
 * process's descriptor N, or -1 for any other path. */
static int named_descriptor(const char *path)
{
	static const struct { const char *prefix; int fd; } names[] = {
		{ "/dev/stdout", 1 }, { "/dev/stderr", 2 },
		{ "/dev/fd/", -1 }, { "/proc/self/fd/", -1 },
	};

	if (!strcmp(path, "-"))
		return 1;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t len = strlen(names[i].prefix);
		if (strncmp(path, names[i].prefix, len))
			continue;
		if (names[i].fd >= 0)
			return path[len] ? -1 : names[i].fd;
		char *end;
		errno = 0;
		long fd = strtol(path + len, &end, 10);
		if (path[len] < '0' || path[len] > '9' || *end || errno ||
		    fd > INT_MAX)
			return -1;
		return (int)fd;
	}
	return -1;
}

bool sm_out_is_stdout(const char *path)
{
	return named_descriptor(path) == 1;
}

/* Descriptor fd of this process, which must be open for writing. */
static int direct(struct sm_out *o, int fd, char *err, size_t n)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return oops(err, n, "no such open file descriptor");
	if ((fl & O_ACCMODE) == O_RDONLY)
		return oops(err, n, "a descriptor not open for writing");
	o->fd = fd;
	return hold(o, err, n);
}

/* A new file ".BASE.XXXXXX" beside the target, made exclusively. */
static int make_temp(struct sm_out *o, char *err, size_t n)
{
	static const char digits[] = "abcdefghijklmnopqrstuvwxyz"
	                             "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

	for (int tries = 0; tries < 100; tries++) {
		unsigned char r[6];
		char s[7];
		if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
			return fail(err, n, errno ? errno : EIO);
		for (int i = 0; i < 6; i++)
			s[i] = digits[r[i] % (sizeof(digits) - 1)];
		s[6] = '\0';
		if (snprintf(o->tmp, sizeof(o->tmp), ".%s.%s", o->base, s) >
		    NAME_MAX) {
			o->tmp[0] = '\0';
			return fail(err, n, ENAMETOOLONG);
		}
		int fd = openat(o->dfd, o->tmp, O_WRONLY | O_CREAT | O_EXCL |
		                O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST) {
			int e = errno;
			o->tmp[0] = '\0';
			return fail(err, n, e);
		}
	}
	o->tmp[0] = '\0';
	return fail(err, n, EEXIST);
}

static int atomic(struct sm_out *o, const struct stat *st, char *err,
                  size_t n)
{
	int fd = make_temp(o, err, n);

	if (fd < 0)
		return -1;
	mode_t mode = st->st_mode & 07777;
	if (!st->st_mode) { /* a new file: as open(O_CREAT, 0666) makes it */
		mode_t mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	fchmod(fd, mode);
	live_add(o);
	if (!(o->f = fdopen(fd, "w"))) {
		int e = errno;
		close(fd);
		live_remove(o);
		unlinkat(o->dfd, o->tmp, 0);
		o->tmp[0] = '\0';
		return fail(err, n, e);
	}
	return 0;
}

static void release(struct sm_out *o)
{
	if (o->own_fd)
		close(o->fd);
	o->fd = -1;
	o->own_fd = false;
	free(o->buf);
	o->buf = NULL;
	live_remove(o);
	if (o->tmp[0])
		unlinkat(o->dfd, o->tmp, 0);
	o->tmp[0] = '\0';
	if (o->dfd >= 0)
		close(o->dfd);
	o->dfd = -1;
}

int sm_out_open(struct sm_out *o, const char *path, char *err, size_t n)
{
	struct stat st;
	int rc;

	memset(o, 0, sizeof(*o));
	o->dfd = -1;
	o->fd = -1;
	if (snprintf(o->path, sizeof(o->path), "%s", path) >=
	    (int)sizeof(o->path))
		return fail(err, n, ENAMETOOLONG);
	int fd = named_descriptor(path);
	if (fd >= 0)
		return direct(o, fd, err, n) < 0 ? (release(o), -1) : 0;
	if (resolve(o, &st, err, n) < 0)
		return -1;
	if (o->open_file && (S_ISREG(st.st_mode) || S_ISCHR(st.st_mode) ||
	                     S_ISFIFO(st.st_mode)))
		rc = through(o, &st, err, n); /* the caller's own open file */
	else if (!st.st_mode || S_ISREG(st.st_mode))
		rc = atomic(o, &st, err, n);
	else if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
		rc = through(o, &st, err, n);
	else if (S_ISDIR(st.st_mode))
		rc = fail(err, n, EISDIR);
	else
		rc = oops(err, n,
		          "not a regular file, a character device or a FIFO");
	if (rc < 0)
		release(o);
	return rc;
}

/* What was held for o->fd, written: 0 or an errno.  What this process
 * printed to the same descriptor through stdio goes first. */
static int write_whole(struct sm_out *o)
{
	if (o->fd == 1)
		fflush(stdout);
	else if (o->fd == 2)
		fflush(stderr);
	for (size_t at = 0; at < o->len;) {
		ssize_t k = write(o->fd, o->buf + at, o->len - at);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return k < 0 ? errno : EIO;
		at += (size_t)k;
	}
	return 0;
}

int sm_out_close(struct sm_out *o, char *err, size_t n)
{
	int e = 0;

	if (!o->f)
		return fail(err, n, EBADF);
	if (fflush(o->f) != 0 || ferror(o->f))
		e = errno ? errno : EIO;
	if (fclose(o->f) != 0 && !e)
		e = errno ? errno : EIO;
	o->f = NULL;
	if (!e && o->fd >= 0)
		e = write_whole(o);
	if (!e && o->tmp[0]) {
		if (renameat(o->dfd, o->tmp, o->dfd, o->base) != 0)
			e = errno;
		else
			o->tmp[0] = '\0';
	}
	release(o);
	return e ? fail(err, n, e) : 0;
}

void sm_out_abort(struct sm_out *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	release(o);
}

int sm_mkdirs(const char *dir, char *err, size_t n)
{
	struct walk w;
	char last[NAME_MAX + 1];
	int rc = -1;

	if (!dir[0])
		return 0;
	if (walk_start(&w, dir, err, n) < 0)
		goto out;
	for (;;) {
		struct stat st;
		if (walk_to_last(&w, last, true, err, n) < 0)
			goto out;
		if (!last[0])
			break;
		if (fstatat(w.dfd, last, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISLNK(st.st_mode)) {
			if (walk_link(&w, last, &st, "", err, n) < 0)
				goto out;
			continue;
		}
		if (walk_enter(&w, last, true, err, n) < 0)
			goto out;
		break;
	}
	rc = 0;
out:
	if (w.dfd >= 0)
		close(w.dfd);
	return rc;
}
/* Could files be made in the existing directory w->dfd? */
static int writable(const struct walk *w, char *err, size_t n)
{
	return faccessat(w->dfd, ".", W_OK | X_OK, 0) < 0 ? fail(err, n, errno)
	                                                  : 0;
}

int sm_dir_writable(const char *dir, char *err, size_t n)
{
	struct walk w;
	char last[NAME_MAX + 1];
	int rc = -1;

	if (walk_start(&w, dir, err, n) < 0)
		goto out;
	for (;;) {
		struct stat st;
		w.absent = false;
		if (walk_to_last(&w, last, false, err, n) < 0) {
			if (w.absent) /* made from the deepest that exists */
				rc = writable(&w, err, n);
			goto out;
		}
		if (!last[0])
			break;
		if (fstatat(w.dfd, last, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			if (errno != ENOENT)
				goto out_errno;
			break;
		}
		if (S_ISLNK(st.st_mode)) {
			if (walk_link(&w, last, &st, "", err, n) < 0)
				goto out;
			continue;
		}
		if (walk_enter(&w, last, false, err, n) < 0)
			goto out;
		break;
	}
	rc = writable(&w, err, n);
	goto out;
out_errno:
	fail(err, n, errno);
out:
	if (w.dfd >= 0)
		close(w.dfd);
	return rc;
}
