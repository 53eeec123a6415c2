/*
 * selfmon_scale.c — count * enabled / running for libselfmon (see
 * selfmon.h), without overflow.  Apart from selfmon.c because its 128-bit
 * division needs libgcc's __udivti3.
 */
#include "prims.h"
#include "selfmon.h"

uint64_t selfmon_scale(const struct selfmon_value *v)
{
	if (v->running == 0)
		return 0;
	unsigned __int128 q = (unsigned __int128)v->count * v->enabled /
	                      v->running;
	return q > ~0ull ? ~0ull : (uint64_t)q;
}
