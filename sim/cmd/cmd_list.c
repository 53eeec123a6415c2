/*
 * cmd_list.c — `selfmon list`: the built-in readers, bundled scenarios,
 * arches and kernel actions.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "explore.h"

static void scenarios(void)
{
	DIR *d = opendir(sm_traces_dir());
	char *names[128];
	unsigned n = 0;

	printf("\nscenarios (%s):\n", sm_traces_dir());
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d)) && n < 128;) {
		size_t len = strlen(e->d_name);
		if (len > 4 && !strcmp(e->d_name + len - 4, ".scn"))
			names[n++] = strndup(e->d_name, len - 4);
	}
	closedir(d);
	for (unsigned i = 0; i < n; i++)
		for (unsigned k = i + 1; k < n; k++)
			if (strcmp(names[k], names[i]) < 0) {
				char *t = names[i];
				names[i] = names[k];
				names[k] = t;
			}
	for (unsigned i = 0; i < n; i++) {
		char path[1024], err[512];
		static struct sm_scenario s;
		snprintf(path, sizeof(path), "%s/%s.scn", sm_traces_dir(), names[i]);
		if (sm_scenario_load(path, &s, err, sizeof(err)) == 0)
			printf("  %-20s %s\n", names[i], sm_arch_name(s.cfg.arch));
		else
			printf("  %-20s (does not load: %s)\n", names[i], err);
		free(names[i]);
	}
}

int cmd_list(int argc, char **argv)
{
	if (argc > 0 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h")))
		return puts("usage: selfmon list\n\nLists the built-in readers, "
		            "the bundled scenarios, the arches and the kernel "
		            "actions."), 0;
	if (argc > 0)
		return usage_error("list: unexpected argument '%s'", argv[0]);
	printf("readers:\n");
	for (unsigned i = 0; i < sm_nreaders; i++)
		printf("  %-22s %-7s %s\n", sm_readers[i].name,
		       sm_abi_name(sm_readers[i].abi), sm_readers[i].what);
	scenarios();
	printf("\narches:\n");
	for (int a = 0; a < SM_NARCH; a++)
		printf("  %-8s %s\n", sm_arch_name((enum sm_arch)a),
		       sm_blob_for((enum sm_arch)a) ? "readers built"
		                                    : "no reader code built");
	printf("\nactions:\n ");
	for (int k = 0; k < SM_NACTIONS; k++)
		printf(" %s", sm_action_name((enum sm_action_kind)k));
	printf("\n");
	return 0;
}
