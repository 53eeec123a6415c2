/*
 * sources.c — the look-up of an embedded reader source (see sources.h;
 * the table is generated: reader_sources.c in the build directory).
 */
#include <string.h>

#include "sources.h"

const struct sm_source *sm_reader_source(const char *file)
{
	size_t n = strlen(file);

	for (size_t i = 0; i < sm_nreader_sources; i++) {
		const struct sm_source *s = &sm_reader_sources[i];
		size_t k = strlen(s->path);
		if (n == k && !strcmp(file, s->path))
			return s;
		if (n > k && file[n - k - 1] == '/' && !strcmp(file + n - k, s->path))
			return s;
	}
	return NULL;
}
