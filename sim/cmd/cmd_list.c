/*
 * cmd_list.c — `selfmon list`: the built-in readers, bundled scenarios,
 * arches and kernel actions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bundled.h"
#include "commands.h"
#include "explore.h"

/* The bundled scenarios and their arches: 0, or 2 out of memory. */
static int scenarios(void)
{
	char **names, err[1024];
	int n = sm_bundled_names(&names);
	struct sm_scenario *s = malloc(sizeof(*s));

	printf("\nscenarios (%s):\n", sm_traces_dir());
	if (n < 0 || !s) {
		sm_names_free(names, n);
		free(s);
		return sm_error("list: out of memory");
	}
	for (int i = 0; i < n; i++)
		if (sm_scenario_open(names[i], s, err, sizeof(err)) == 0)
			printf("  %-20s %s\n", names[i], sm_arch_name(s->cfg.arch));
		else
			printf("  %-20s (does not load: %s)\n", names[i], err);
	sm_names_free(names, n);
	free(s);
	return 0;
}

/* The kernel versions and variants (--kernel, the scenario line
 * 'kernel'): versions first, since a variant goes on top of one. */
static void kernels(void)
{
	const struct sm_variant *v;

	printf("\nkernels (a version, then variants on top: "
	       "--kernel 7.2,NAME):\n  %-22s Linux 6.12 as it is (also "
	       "'6.12')\n", "base");
	for (int pass = 0; pass < 2; pass++)
		for (unsigned i = 0; (v = sm_variant_get(i)) != NULL; i++) {
			if ((v->version == 0) != pass)
				continue;
			printf("  %-22s (%s", v->name, v->version ? "version: " : "");
			for (int a = 0, n = 0; a < SM_NARCH; a++)
				if (v->arches & (1u << a))
					printf("%s%s", n++ ? ", " : "",
					       sm_arch_name((enum sm_arch)a));
			printf(")\n  %-22s %s\n  %-22s source: %s\n", "", v->what,
			       "", v->source);
		}
}

int cmd_list(int argc, char **argv)
{
	if (argc > 0 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h")))
		return puts("usage: selfmon list\n\nLists the built-in readers, "
		            "the bundled scenarios, the arches, the kernel "
		            "actions and the kernels (versions and variants)."), 0;
	if (argc > 0)
		return sm_error("list: unexpected argument '%s'", argv[0]);
	printf("readers:\n");
	for (unsigned i = 0; i < sm_nreaders; i++)
		printf("  %-22s %-7s %s\n", sm_readers[i].name,
		       sm_abi_name(sm_readers[i].abi), sm_readers[i].what);
	if (scenarios())
		return 2;
	printf("\narches:\n");
	for (int a = 0; a < SM_NARCH; a++)
		printf("  %-8s %s\n", sm_arch_name((enum sm_arch)a),
		       sm_blob_for((enum sm_arch)a) ? "readers built"
		                                    : "no reader code built");
	printf("\nactions:\n ");
	for (int k = 0; k < SM_NACTIONS; k++)
		printf(" %s", sm_action_name((enum sm_action_kind)k));
	printf("\n");
	kernels();
	return 0;
}
