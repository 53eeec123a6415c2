/*
 * commands.h — the subcommands of `selfmon` (one file each, cmd_*.c).
 *
 * Each takes the arguments after its name and returns the exit status:
 * 0 fine, 1 a check failed, 2 usage or input error (one line on stderr).
 */
#ifndef SELFMON_COMMANDS_H
#define SELFMON_COMMANDS_H

int cmd_model(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_explore(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_pack(int argc, char **argv);
int cmd_hw(int argc, char **argv);
int cmd_explain_bug(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_vm(int argc, char **argv);

/* The commands' one-line errors: sm_error() (util/error.h), exit 2. */
#include "error.h"

#endif
