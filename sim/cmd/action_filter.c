/*
 * action_filter.c — --actions, --without and --drop-scripted (see
 * action_filter.h).
 *
 * Owns: parsing the action lists and applying them to a loaded scenario.
 * It must not know how scenarios are parsed or explored.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "action_filter.h"

/* "a,b,c" -> a set of actions; -1 with the unknown name in err. */
static int parse_list(const char *opt, const char *list, unsigned *set,
                      char *err, size_t n)
{
	const char *p = list;

	*set = 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		char name[32];
		snprintf(name, sizeof(name), "%.*s", (int)len, p);
		int kind = len < sizeof(name) ? sm_action_from_name(name) : -1;
		if (kind < 0 && !strcmp(name, SM_AF_STALE_NAME))
			kind = SM_NACTIONS; /* SM_AF_STALE */
		if (kind < 0)
			return snprintf(err, n, "%s: unknown action '%.*s' (see "
			                "'selfmon list')", opt, len > 40 ? 40 : (int)len,
			                p), -1;
		*set |= 1u << kind;
		p += len + (p[len] == ',');
	}
	if (!*set)
		return snprintf(err, n, "%s needs a list of actions", opt), -1;
	return 0;
}

int sm_action_filter_opt(struct sm_action_filter *f, int opt,
                         const char *val, char *err, size_t n)
{
	switch (opt) {
	case SM_AF_DROP:
		f->drop_scripted = true;
		return 1;
	case SM_AF_ACTIONS:
		return parse_list("--actions", val, &f->only, err, n) < 0 ? -1 : 1;
	case SM_AF_WITHOUT:
		return parse_list("--without", val, &f->without, err, n) < 0 ? -1
		                                                               : 1;
	}
	return 0;
}

bool sm_action_filter_given(const struct sm_action_filter *f)
{
	return f->only || f->without || f->drop_scripted;
}

bool sm_action_filter_no_stale(const struct sm_action_filter *f)
{
	return (f->only && !(f->only & SM_AF_STALE)) ||
	       (f->without & SM_AF_STALE);
}

bool sm_action_filter_excludes(const struct sm_action_filter *f,
                               enum sm_action_kind kind)
{
	unsigned bit = 1u << kind;

	return (f->only && !(f->only & bit)) || (f->without & bit);
}

unsigned sm_action_filter_apply(const struct sm_action_filter *f,
                                struct sm_scenario *s, unsigned *kinds)
{
	unsigned kept = 0, dropped, set = 0;

	if (f->only)
		s->explore = f->only & ~SM_AF_STALE;
	s->explore &= ~(f->without | SM_AF_STALE);
	for (unsigned k = 0; k < s->nactions; k++)
		if (!f->drop_scripted ||
		    !sm_action_filter_excludes(f, s->act[k].act.kind))
			s->act[kept++] = s->act[k];
		else
			set |= 1u << s->act[k].act.kind;
	dropped = s->nactions - kept;
	s->nactions = kept;
	if (kinds)
		*kinds = set;
	return dropped;
}

const char *sm_action_set_text(unsigned set, char *buf, size_t n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int k = 0; k < SM_NACTIONS && used < n; k++)
		if (set & (1u << k))
			used += (size_t)snprintf(buf + used, n - used, "%s%s",
			                         used ? "," : "",
			                         sm_action_name((enum sm_action_kind)k));
	if ((set & SM_AF_STALE) && used < n)
		used += (size_t)snprintf(buf + used, n - used, "%s%s",
		                         used ? "," : "", SM_AF_STALE_NAME);
	if (!used)
		snprintf(buf, n, "none");
	return buf;
}
