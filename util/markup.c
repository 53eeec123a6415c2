/*
 * markup.c — text escaped for XML, HTML and SVG (see markup.h).
 *
 * Owns: the one escaping rule every markup output uses (the JUnit report,
 * the teaching page, the timeline pictures).  It must not know what the
 * documents are.
 */
#include "markup.h"

/* Length of the valid UTF-8 sequence at s (1 for ASCII), or 0. */
unsigned sm_utf8_len(const unsigned char *s)
{
	unsigned n = s[0] < 0x80 ? 1 : s[0] >= 0xC2 && s[0] <= 0xDF ? 2
	           : (s[0] & 0xF0) == 0xE0 ? 3
	           : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : 0;

	for (unsigned i = 1; i < n; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	if (n == 3 && ((s[0] == 0xE0 && s[1] < 0xA0) ||
	               (s[0] == 0xED && s[1] >= 0xA0))) /* overlong, surrogate */
		return 0;
	if (n == 4 && ((s[0] == 0xF0 && s[1] < 0x90) ||
	               (s[0] == 0xF4 && s[1] >= 0x90)))
		return 0;
	return n;
}

/* s as XML character data or attribute value. */
void sm_xml_put(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");

	while (*s) {
		unsigned n = sm_utf8_len(s);
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		case '\n': fputs("&#10;", f); break;
		case '\t': fputs("&#9;", f); break;
		default:
			if (n == 0 || *s < 0x20) {
				fputc('?', f);
				n = 1;
			} else {
				fwrite(s, 1, n, f);
			}
			s += n;
			continue;
		}
		s++;
	}
}
