/*
 * input.c — see input.h.  The file is opened with O_NONBLOCK (so that a
 * FIFO without a writer cannot hang the open), checked with fstat, and read
 * in a loop that never goes past the cap.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdbool.h>
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
	return sm_read_input_flags(path, max, 0, len, why, whylen);
}

char *sm_read_input_flags(const char *path, size_t max, int oflags,
                          size_t *len, char *why, size_t whylen)
{
	char cap[32];
	struct stat st;
	char *buf = NULL;
	size_t n = 0;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC |
	              oflags);

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

/* The length of the UTF-8 sequence at s and its code point, or 0 when
 * it is not one (a stray or missing continuation byte, an overlong form,
 * a surrogate, past U+10FFFF). */
static size_t utf8_at(const unsigned char *s, uint32_t *cp)
{
	static const struct { unsigned char mask, lead; uint32_t min; } form[] = {
		{ 0x80, 0x00, 0 }, { 0xe0, 0xc0, 0x80 }, { 0xf0, 0xe0, 0x800 },
		{ 0xf8, 0xf0, 0x10000 },
	};

	for (size_t len = 1; len <= 4; len++) {
		if ((s[0] & form[len - 1].mask) != form[len - 1].lead)
			continue;
		uint32_t c = s[0] & (unsigned char)~form[len - 1].mask;
		for (size_t i = 1; i < len; i++) {
			if ((s[i] & 0xc0) != 0x80)
				return 0;
			c = c << 6 | (s[i] & 0x3f);
		}
		if (c < form[len - 1].min || c > 0x10ffff ||
		    (c >= 0xd800 && c <= 0xdfff))
			return 0;
		*cp = c;
		return len;
	}
	return 0;
}

/* A character no text output may carry: C0 and C1 controls, DEL, and
 * U+FFFE/U+FFFF (XML 1.0 and YAML refuse them). */
static bool forbidden(uint32_t c)
{
	return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0xfffe ||
	       c == 0xffff;
}

void sm_printable(char *s)
{
	unsigned char *p = (unsigned char *)s;

	while (*p) {
		uint32_t c;
		size_t len = utf8_at(p, &c);
		if (len && !forbidden(c)) {
			p += len;
			continue;
		}
		for (size_t i = 0; i < (len ? len : 1); i++)
			*p++ = '?';
	}
}

int sm_text_check(const char *s, char *why, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		uint32_t c;
		size_t at = (size_t)(p - (const unsigned char *)s);
		size_t len = utf8_at(p, &c);
		if (!len)
			return snprintf(why, n, "invalid UTF-8 at byte %zu", at), -1;
		if (forbidden(c))
			return snprintf(why, n, "%s U+%04X at byte %zu", c < 0x20 ||
			                (c >= 0x7f && c <= 0x9f) ? "control character"
			                : "non-character", (unsigned)c, at), -1;
		p += len;
	}
	return 0;
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
