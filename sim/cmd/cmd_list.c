/*
 * cmd_list.c — `selfmon list`: the built-in readers, bundled scenarios,
 * arches, kernel actions, kernel variants, the page's capability
 * letters, verdicts, reader ABIs and wrong-value causes, each described; `list --names KIND`, the bare names one a
 * line (what the bash completion offers).
 *
 * Owns the layout of the listing only: the names and descriptions are
 * the tables of the layers that own each kind (model/enums.c, verdict.c,
 * the readers' and the oracle's).  It must not decide what an action does
 * (model/).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "action_filter.h"
#include "bundled.h"
#include "commands.h"
#include "explore.h"
#include "result.h"

/* The bundled scenarios, their arches and what each is about: 0, or 2
 * out of memory. */
static int scenarios(void)
{
	char **names, err[1024], what[512];
	int n = sm_bundled_names(&names);
	struct sm_scenario *s = malloc(sizeof(*s));

	printf("\nscenarios (%s):\n", sm_traces_dir());
	if (n < 0 || !s) {
		sm_names_free(names, n);
		free(s);
		return sm_error("list: out of memory");
	}
	for (int i = 0; i < n; i++) {
		if (sm_scenario_open(names[i], s, err, sizeof(err)) < 0) {
			printf("  %-20s (does not load: %s)\n", names[i], err);
			continue;
		}
		printf("  %-20s %s\n", names[i], sm_arch_name(s->cfg.arch));
		sm_scenario_summary(names[i], what, sizeof(what));
		if (what[0])
			printf("  %-20s %s\n", "", what);
	}
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

static void actions(void)
{
	printf("\nactions (what --actions, --without and a schedule's "
	       "action@step name):\n");
	for (int k = 0; k < SM_NACTIONS; k++)
		printf("  %-12s %s\n", sm_action_name((enum sm_action_kind)k),
		       sm_action_desc((enum sm_action_kind)k)->what);
	printf("  %-12s %s (the CPU's choice, not the kernel's; arm64)\n",
	       SM_AF_STALE_NAME, SM_AF_STALE_WHAT);
}

static void capabilities(void)
{
	printf("\ncapability letters (the caps column of 'selfmon model'; "
	       "'-' a bit not set):\n");
	for (unsigned i = 0; i < SM_NCAPS; i++)
		printf("  %c  %-20s %s\n", sm_cap_desc(i)->letter,
		       sm_cap_desc(i)->field, sm_cap_desc(i)->what);
}

static void verdicts(void)
{
	printf("\nverdicts (a run's and a cell's; exit statuses in 'selfmon "
	       "check --help'):\n");
	for (int v = 0; v < SM_NVERDICTS; v++)
		printf("  %-12s %s\n", sm_verdict_name((enum sm_verdict)v),
		       sm_verdict_desc((enum sm_verdict)v)->what);
}

static void abis(void)
{
	printf("\nABIs (how --abi calls a PATH:SYMBOL reader; delta and "
	       "reset name two functions, PATH:FIRST,READ):\n");
	for (int a = 0; a < SM_NABI; a++) {
		const struct sm_abi_desc *d = sm_abi_desc((enum sm_abi)a);
		printf("  %-8s %s\n  %-8s returns %s\n", d->name, d->call, "",
		       d->returns);
	}
}

static void causes(void)
{
	printf("\ncauses (a wrong value's \"cause\" in the JSON: what an exact "
	       "power-of-two offset\nfrom the truth points at):\n");
	for (int c = 0; c < SM_NCAUSES; c++)
		printf("  %-22s %s\n", sm_cause_name((enum sm_cause)c),
		       sm_cause_desc((enum sm_cause)c)->what);
}

/* `list --names KIND`: one name a line. */
static int names(const char *kind)
{
	if (!strcmp(kind, "readers")) {
		for (unsigned i = 0; i < sm_nreaders; i++)
			puts(sm_readers[i].name);
	} else if (!strcmp(kind, "scenarios")) {
		char **names;
		int n = sm_bundled_names(&names);
		if (n < 0)
			return sm_error("list: out of memory");
		for (int i = 0; i < n; i++)
			puts(names[i]);
		sm_names_free(names, n);
	} else if (!strcmp(kind, "arches")) {
		for (int a = 0; a < SM_NARCH; a++)
			puts(sm_arch_name((enum sm_arch)a));
	} else if (!strcmp(kind, "actions")) {
		for (int k = 0; k < SM_NACTIONS; k++)
			puts(sm_action_name((enum sm_action_kind)k));
		puts(SM_AF_STALE_NAME);
	} else if (!strcmp(kind, "kernels")) {
		const struct sm_variant *v;
		puts("base");
		for (unsigned i = 0; (v = sm_variant_get(i)) != NULL; i++)
			puts(v->name);
	} else {
		return sm_error("list: --names takes readers, scenarios, arches, "
		                "actions or kernels, not '%s'", kind);
	}
	return 0;
}

int cmd_list(int argc, char **argv)
{
	if (argc > 0 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h")))
		return puts("usage: selfmon list [--names KIND]\n\n"
		            "Lists and describes the built-in readers, the bundled "
		            "scenarios,\nthe arches, the kernel actions, the kernels "
		            "(versions and variants),\nthe page's capability "
		            "letters, the verdicts, the reader ABIs and the\n"
		            "causes of a wrong value.\n\n"
		            "  --names KIND  only the names of one kind, one a "
		            "line: readers,\n"
		            "                scenarios, arches, actions or kernels"),
		       0;
	if (argc > 0 && !strcmp(argv[0], "--names")) {
		if (argc != 2)
			return sm_error("list: --names takes one KIND (readers, "
			                "scenarios, arches, actions or kernels)");
		return names(argv[1]);
	}
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
	actions();
	kernels();
	capabilities();
	verdicts();
	abis();
	causes();
	return 0;
}
