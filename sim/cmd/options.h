/*
 * options.h — the command line of every subcommand, through getopt_long,
 * with selfmon's one-line errors instead of getopt's own.
 *
 * Owns: the loop state and the messages for an unknown option, a missing
 * value and a value given to a flag.  It must not know any command's
 * options: each command passes its own table.
 */
#ifndef SELFMON_OPTIONS_H
#define SELFMON_OPTIONS_H

#include <getopt.h>

/* Returned by sm_opt_next for an operand (not an option), in order. */
#define SM_OPT_OPERAND 1
/* Returned after the error line was printed: the command exits 2. */
#define SM_OPT_BAD '?'
/* First value for a command's options with no letter (the action filter's
 * are SM_OPT_LONG + 0x80 and on). */
#define SM_OPT_LONG 0x100
#define SM_OPT_MAX 32

/* One option: its long name (NULL: a letter only), getopt's argument
 * kind, its value (a letter, or SM_OPT_LONG + n) and, for an option with
 * a value, what the error says it needs ("a value" when NULL). */
struct sm_optdef {
	const char *name;
	int has_arg;
	int val;
	const char *needs;
};

struct sm_opt {
	const char *cmd;            /* "check": the prefix of every error */
	int argc;
	char **argv;                /* after the subcommand; see sm_opt_init */
	char shorts[2 * SM_OPT_MAX + 3];
	struct option longs[SM_OPT_MAX + 1];
	const struct sm_optdef *defs;
	const char *arg;            /* the value or the operand just returned */
	int rest;                   /* after "--": the next operand in argv */
};

/* argv is what main passed the command: the arguments after the
 * subcommand's name, which main's argv holds just before them.  defs ends
 * with a zero entry and has at most SM_OPT_MAX options. */
void sm_opt_init(struct sm_opt *o, const char *cmd, int argc, char **argv,
                 const struct sm_optdef *defs);
/* The next option's value, SM_OPT_OPERAND (o->arg is it), SM_OPT_BAD
 * after printing one line, or -1 at the end. */
int sm_opt_next(struct sm_opt *o);

#endif
