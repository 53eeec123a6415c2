/*
 * sources.h — the built-in readers' source files, embedded in selfmon at
 * build time (cmake/embed_sources.cmake), so that --explain shows their
 * source text without the source tree.
 *
 * Owns the table and its look-up by a file name from the readers' DWARF
 * line table.  It must not read files: the text is what was compiled.
 */
#ifndef SELFMON_SOURCES_H
#define SELFMON_SOURCES_H

#include <stddef.h>

struct sm_source {
	const char *path;  /* from the top of the tree: "reader/selfmon.c" */
	const char *text;  /* NUL-terminated */
	size_t len;
};

extern const struct sm_source sm_reader_sources[];
extern const size_t sm_nreader_sources;

/* The embedded file a DWARF file name names: its path from the top of
 * the tree, or that path after a '/' ("/build/dir/reader/selfmon.c").
 * NULL when none is. */
const struct sm_source *sm_reader_source(const char *file);

#endif
