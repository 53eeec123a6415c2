/*
 * main.c — the `selfmon` command: dispatch to subcommands, --help,
 * --version (-V), "did you mean" for a mistyped command.
 *
 * Owns: the command table and top-level usage.  Subcommands live in
 * cmd_*.c; this file must not know their options.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "names.h"
#include "report.h"
#include "suggest.h"

static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{ "check", cmd_check,
	  "run readers under every schedule of kernel actions, judge them" },
	{ "explore", cmd_explore, "the same as check, with statistics" },
	{ "merge", cmd_merge,
	  "join the --json outputs of check's shards into one table or document" },
	{ "replay", cmd_replay,
	  "re-run a schedule or trace; --explain, --html: step by step" },
	{ "pack", cmd_pack,
	  "one file of a counterexample trace that replays on any machine" },
	{ "explain-bug", cmd_explain_bug,
	  "a corpus reader's shortest failing schedule, step by step, and the fix" },
	{ "plot", cmd_plot, "an SVG timeline of a scenario, and of a reader's call" },
	{ "model", cmd_model,
	  "run a scenario through the kernel model, print every page update" },
	{ "hw", cmd_hw,
	  "check the readers on this machine's real perf events; record traces" },
	{ "vm", cmd_vm,
	  "the hw checks on a real Linux kernel under QEMU (arm64, riscv64)" },
	{ "list", cmd_list,
	  "the built-in readers, scenarios, arches, actions, kernels, described" },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void help(FILE *f)
{
	fputs("usage: selfmon COMMAND [ARGS...]\n\n"
	      "selfmon models the kernel side of the perf_event self-monitoring\n"
	      "ABI (struct perf_event_mmap_page) so that reader code can be\n"
	      "checked against the exact page the kernel would write.\n\n"
	      "commands:\n", f);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-12s %s\n", commands[i].name, commands[i].summary);
	fputs("\n'selfmon COMMAND --help' describes a command; "
	      "'selfmon --version' (-V)\nprints the version.  A FILE an option "
	      "writes may be '-' (or /dev/stdout):\nstandard output, whatever "
	      "it is (a pipe too).\n"
	      "Arches built for: x86_64"
#if SELFMON_HAVE_ARM64_CC
	      ", arm64"
#endif
#if SELFMON_HAVE_RISCV64_CC
	      ", riscv64"
#endif
	      " (cross compilers found at build time).\n", f);
}

/* The replay lines this run prints name this binary by its absolute
 * path: where they are pasted, selfmon is rarely on PATH. */
static void name_program(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n > 0) {
		exe[n] = '\0';
		sm_report_set_program(exe);
	}
}

static int unknown(const char *cmd)
{
	struct sm_suggest s;
	char hint[128];

	sm_suggest_init(&s, cmd);
	for (size_t i = 0; i < NCOMMANDS; i++)
		sm_suggest_offer(&s, commands[i].name);
	return sm_error("unknown command '%s'%s (try 'selfmon --help')", cmd,
	                sm_hint(hint, sizeof(hint), s.best));
}

int main(int argc, char **argv)
{
	name_program();
	if (argc < 2)
		return help(stderr), 2;
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help"))
		return help(stdout), 0;
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))
		return printf("selfmon %s\n", SELFMON_VERSION), 0;
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 2, argv + 2);
	return unknown(argv[1]);
}
