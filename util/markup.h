/*
 * markup.h — text from users or the model, escaped for XML, HTML and SVG
 * character data and attribute values.
 */
#ifndef SELFMON_MARKUP_H
#define SELFMON_MARKUP_H

#include <stdio.h>

/* str (NULL: nothing) with & < > " ' escaped, newline and tab as
 * character references, and every other control byte or invalid UTF-8
 * byte as '?', so the document stays well-formed whatever str holds. */
void sm_xml_put(FILE *f, const char *str);
/* Length of the valid UTF-8 sequence at s (1 for ASCII), or 0. */
unsigned sm_utf8_len(const unsigned char *s);

#endif
