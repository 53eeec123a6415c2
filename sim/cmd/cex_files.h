/*
 * cex_files.h — what a counterexample trace's hashes are of (cex_trace.h:
 * `object`, `scenario`), computed the same way where a trace is written
 * (check), packed (pack) and replayed (replay).
 *
 * Owns: finding the reader's code and the scenario's file from a schedule
 * line's fields, and hashing them.  It must not read or write traces.
 */
#ifndef SELFMON_CEX_FILES_H
#define SELFMON_CEX_FILES_H

#include <stdbool.h>
#include <stddef.h>

#include "session.h"
#include "sha256.h"

/* A schedule line's reader field: a user's reader (PATH#SYMBOL#ABI) has
 * its PATH copied into path (true); a built-in name, false. */
bool sm_cex_user_path(const char *reader, char *path, size_t n);
/* The hash of the reader's code: a user's reader, its object file's; a
 * built-in one in Unicorn, this selfmon's code for the arch.  0 with hex
 * filled; 1 when there is none (a built-in reader run natively: the code
 * is selfmon's own, named by the version); -1 with one line in err. */
int sm_cex_object_hash(const char *reader, enum sm_arch arch,
                       enum sm_engine_kind engine, char hex[SM_SHA256_HEX],
                       char *err, size_t n);
/* The hash of the scenario file a name or path resolves to (bundled.h):
 * 0, or -1 with one line in err. */
int sm_cex_scenario_hash(const char *scenario, char hex[SM_SHA256_HEX],
                         char *err, size_t n);

#endif
