/*
 * reader_arg.h — a command's READER operand and its --abi, as check
 * takes them: a built-in reader's name, or a user's PATH:SYMBOL (two
 * functions, PATH:FIRST,READ, for the delta and reset ABIs) loaded from
 * ELF.  For the commands that run one reader (explain-bug, plot).
 */
#ifndef SELFMON_READER_ARG_H
#define SELFMON_READER_ARG_H

#include "user_reader.h"

/* --abi's value: 0 with *abi set, or the exit status after the error. */
int sm_abi_arg(const char *cmd, const char *val, int *abi);
/* name with abi (-1: no --abi): 0 with *r (a user's is loaded into *u,
 * which the caller frees with sm_user_reader_free()), or the exit status
 * after one error line "CMD: ...". */
int sm_reader_arg(const char *cmd, const char *name, int abi,
                  struct sm_user_reader *u, const struct sm_reader **r);

#endif
