/*
 * input.c — see input.h.  The file is opened with O_NONBLOCK (so that a
 * FIFO without a writer cannot hang the open), checked with fstat, and read
 * in a loop that never goes past the cap.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input.h"

static const char *kind_of(mode_t m)
{
	return S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device"
	     : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket"
	     : "not a file";
}

static void cap_text(size_t max, char *buf, size_t n)
{
	if (max >= ((size_t)1 << 20) && max % ((size_t)1 << 20) == 0)
		snprintf(buf, n, "%zu MiB", max >> 20);
	else
		snprintf(buf, n, "%zu bytes", max);
}

char *sm_read_input(const char *path, size_t max, size_t *len, char *why,
                    size_t whylen)
{
	char cap[32];
	struct stat st;
	char *buf = NULL;
	size_t n = 0;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

	cap_text(max, cap, sizeof(cap));
	if (fd < 0) {
		snprintf(why, whylen, "%s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0) {
		snprintf(why, whylen, "%s", strerror(errno));
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(why, whylen, "%s", strerror(EISDIR));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, whylen, "not a regular file (%s)", kind_of(st.st_mode));
		goto out;
	}
	if ((uint64_t)st.st_size > max) {
		snprintf(why, whylen, "file too large (over the cap of %s)", cap);
		goto out;
	}
	/* a regular file: reads do not block, O_NONBLOCK changes nothing */
	if (!(buf = malloc((size_t)st.st_size + 2))) {
		snprintf(why, whylen, "%s", strerror(ENOMEM));
		goto out;
	}
	size_t room = (size_t)st.st_size + 1; /* one more: did it grow? */
	while (n < room) {
		ssize_t r = read(fd, buf + n, room - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(why, whylen, "%s", strerror(errno));
			free(buf);
			buf = NULL;
			goto out;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (n > (size_t)st.st_size) { /* it grew while being read */
		snprintf(why, whylen, "file changed while it was read");
		free(buf);
		buf = NULL;
		goto out;
	}
	buf[n] = '\0';
	*len = n;
out:
	close(fd);
	return buf;
}

void sm_printable(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;
}

int sm_parse_u64(const char *s, uint64_t *out)
{
	unsigned base = 10;
	uint64_t v = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -1;
	for (; *s; s++) {
		unsigned d = (unsigned)digit_value(*s);
		if (d >= base)
			return -1;
		if (v > (UINT64_MAX - d) / base)
			return -2;
		v = v * base + d;
	}
	*out = v;
	return 0;
}
