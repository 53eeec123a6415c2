/*
 * cex_files.c — the files a counterexample trace's hashes are of (see
 * cex_files.h).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "bundled.h"
#include "cex_files.h"
#include "input.h"
#include "reader.h"

bool sm_cex_user_path(const char *reader, char *path, size_t n)
{
	const char *hash = strchr(reader, '#');

	if (!hash)
		return false;
	snprintf(path, n, "%.*s", (int)(hash - reader), reader);
	return true;
}

int sm_cex_object_hash(const char *reader, enum sm_arch arch,
                       enum sm_engine_kind engine, char hex[SM_SHA256_HEX],
                       char *err, size_t n)
{
	char path[PATH_MAX], why[256];
	const struct sm_blob *b;

	if (sm_cex_user_path(reader, path, sizeof(path))) {
		if (sm_sha256_file(path, SM_ELF_MAX_BYTES, hex, why, sizeof(why)) < 0)
			return snprintf(err, n, "%s: %s", path, why), -1;
		return 0;
	}
	if (engine == SM_ENGINE_NATIVE)
		return 1;
	if (!(b = sm_blob_for(arch)))
		return snprintf(err, n, "no built-in reader code for %s in this "
		                "selfmon", sm_arch_name(arch)), -1;
	sm_sha256_hex(b->code, b->size, hex);
	return 0;
}

int sm_cex_scenario_hash(const char *scenario, char hex[SM_SHA256_HEX],
                         char *err, size_t n)
{
	char path[PATH_MAX], why[256];

	if (sm_scenario_resolve(scenario, path, sizeof(path)) < 0)
		return snprintf(err, n, "%s: path too long", scenario), -1;
	if (sm_sha256_file(path, SM_SCENARIO_MAX_BYTES, hex, why,
	                   sizeof(why)) < 0)
		return snprintf(err, n, "%s: %s", path, why), -1;
	return 0;
}
