/*
 * reader_arg.c — READER and --abi of the one-reader commands
 * (reader_arg.h).
 */
#include <string.h>

#include "error.h"
#include "names.h"
#include "reader_arg.h"

int sm_abi_arg(const char *cmd, const char *val, int *abi)
{
	char all[128];

	if ((*abi = sm_abi_from_name(val)) < 0)
		return sm_error("%s: --abi must be %s", cmd,
		                sm_abi_list(all, sizeof(all), ", ", " or ", false));
	return 0;
}

int sm_reader_arg(const char *cmd, const char *name, int abi,
                  struct sm_user_reader *u, const struct sm_reader **r)
{
	char err[600], all[128];

	if ((*r = sm_reader_find(name))) {
		if (abi >= 0)
			return sm_error("%s: --abi applies to PATH:SYMBOL readers "
			                "only", cmd);
		return 0;
	}
	if (!strchr(name, ':'))
		return sm_error("%s: unknown reader '%s'%s (a built-in name "
		                "from 'selfmon list', or PATH:SYMBOL)", cmd, name,
		                sm_reader_hint(name));
	if (abi < 0)
		return sm_error("%s: %s needs --abi %s", cmd, name,
		                sm_abi_list(all, sizeof(all), "|", "|", false));
	if (sm_user_reader_load(name, (enum sm_abi)abi, u, err,
	                        sizeof(err)) < 0)
		return sm_error("%s: %s", cmd, err);
	*r = &u->r;
	return 0;
}
