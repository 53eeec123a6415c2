/*
 * options.c — getopt_long for the subcommands (see options.h).
 *
 * Owns: getopt's global state while a command parses, and the wording of
 * the errors getopt would otherwise print itself.  Operands come back in
 * order (a leading '-' in the letters), so nothing is permuted; after
 * "--" every word is an operand.
 */
#include <assert.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "names.h"
#include "options.h"
#include "suggest.h"

void sm_opt_init(struct sm_opt *o, const char *cmd, int argc, char **argv,
                 const struct sm_optdef *defs)
{
	size_t nl = 0, ns = 0;

	*o = (struct sm_opt){ .cmd = cmd, .argc = argc, .argv = argv,
	                      .defs = defs, .rest = -1 };
	o->shorts[ns++] = '-';      /* operands in order */
	o->shorts[ns++] = ':';      /* a missing value is ':' */
	for (const struct sm_optdef *d = defs; d->val; d++) {
		assert(nl < SM_OPT_MAX);
		if (d->name)
			o->longs[nl++] = (struct option){ d->name, d->has_arg, NULL,
			                                  d->val };
		if (d->val < SM_OPT_LONG) {
			o->shorts[ns++] = (char)d->val;
			if (d->has_arg == required_argument)
				o->shorts[ns++] = ':';
		}
	}
	optind = 0; /* glibc: start over, whatever an earlier parse left */
	opterr = 0;
}

static const struct sm_optdef *def_of(const struct sm_opt *o, int val)
{
	for (const struct sm_optdef *d = o->defs; d->val; d++)
		if (d->val == val)
			return d;
	return NULL;
}

/* ": did you mean '--NAME'?" for the nearest long option to the len
 * letters of word, or "". */
static const char *near_option(const struct sm_opt *o, const char *word,
                               int len)
{
	static char typed[64], hint[128], dashed[64];
	struct sm_suggest s;

	snprintf(typed, sizeof(typed), "%.*s", len, word);
	sm_suggest_init(&s, typed);
	for (const struct sm_optdef *d = o->defs; d->val; d++)
		if (d->name)
			sm_suggest_offer(&s, d->name);
	if (!s.best)
		return "";
	snprintf(dashed, sizeof(dashed), "--%s", s.best);
	return sm_hint(hint, sizeof(hint), dashed);
}

/* One line for what getopt refused; word is the argument it stopped in. */
static int bad(const struct sm_opt *o, int c, const char *word)
{
	const struct sm_optdef *d = def_of(o, optopt);
	const char *needs = d && d->needs ? d->needs : "a value";
	bool is_long = word[0] == '-' && word[1] == '-';
	int len = (int)strcspn(word, "=");

	if (c == ':' && is_long)
		sm_error("%s: %.*s needs %s", o->cmd, len, word, needs);
	else if (c == ':')
		sm_error("%s: -%c needs %s", o->cmd, optopt, needs);
	else if (is_long && d)              /* a flag given "=VALUE" */
		sm_error("%s: --%s takes no value", o->cmd, d->name);
	else if (is_long)
		sm_error("%s: unknown option '%.*s'%s", o->cmd, len, word,
		         near_option(o, word + 2, len - 2));
	else
		sm_error("%s: unknown option '-%c'", o->cmd, optopt);
	return SM_OPT_BAD;
}

int sm_opt_next(struct sm_opt *o)
{
	if (o->rest >= 0) {
		if (o->rest >= o->argc)
			return -1;
		o->arg = o->argv[o->rest++];
		return SM_OPT_OPERAND;
	}
	/* o->argv - 1 is the subcommand's name, getopt's argv[0]; the word
	 * getopt reads now is its argv[at] (the same word through a cluster
	 * of letters, "-xj") */
	int at = optind ? optind : 1;
	int c = getopt_long(o->argc + 1, o->argv - 1, o->shorts, o->longs,
	                    NULL);
	o->arg = optarg;
	if (c == '?' || c == ':')
		return bad(o, c, o->argv[at - 1]);
	if (c == 1)
		return SM_OPT_OPERAND;
	if (c == -1) {  /* "--" or the end: what is left are operands */
		o->rest = optind - 1;
		return sm_opt_next(o);
	}
	return c;
}
