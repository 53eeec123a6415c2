/*
 * user_reader.h — a user's reader named as PATH:SYMBOL, loaded from its
 * ELF object into a reader the engines can run like a built-in one.
 */
#ifndef SELFMON_USER_READER_H
#define SELFMON_USER_READER_H

#include "elf_load.h"
#include "reader.h"

/* Longest PATH and SYMBOL taken (longer ones are refused); the names
 * made of them are sized to hold any that is taken. */
#define SM_USER_PATH_MAX 512
#define SM_USER_SYMBOL_MAX 256

struct sm_user_reader {
	struct sm_reader r;
	struct sm_image img;
	/* PATH:SYMBOL, as the user wrote it */
	char name[SM_USER_PATH_MAX + SM_USER_SYMBOL_MAX];
	/* PATH#SYMBOL#ABI, its name in schedule lines */
	char sched[SM_USER_PATH_MAX + SM_USER_SYMBOL_MAX + 16];
	char symbol[SM_USER_SYMBOL_MAX];
};

int sm_abi_from_name(const char *s); /* -1 if unknown */
/* "PATH:SYMBOL" (the last ':' splits) -> loaded reader; 0, or -1 with
 * one line in err. */
int sm_user_reader_load(const char *spec, enum sm_abi abi,
                        struct sm_user_reader *u, char *err, size_t n);
/* The same, its image at base instead of SM_CODE_BASE (`selfmon vm`
 * loads several into one guest). */
int sm_user_reader_load_at(const char *spec, enum sm_abi abi, uint64_t base,
                           struct sm_user_reader *u, char *err, size_t n);
/* "PATH#SYMBOL#ABI" from a schedule line. */
int sm_user_reader_from_sched(const char *name, struct sm_user_reader *u,
                              char *err, size_t n);
/* The same, the object's bytes given (its PATH only names it): a packed
 * counterexample's reader. */
int sm_user_reader_from_sched_mem(const char *name, const void *data,
                                  size_t len, struct sm_user_reader *u,
                                  char *err, size_t n);
void sm_user_reader_free(struct sm_user_reader *u);

#endif
