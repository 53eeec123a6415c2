/*
 * user_reader.c — user readers (see user_reader.h): the spec, the ELF
 * load through elf_load.c, and the reader entry.  It must not run code.
 */
#include <stdio.h>
#include <string.h>

#include "input.h"
#include "user_reader.h"

int sm_abi_from_name(const char *s)
{
	for (int i = 0; i < SM_NABI; i++)
		if (!strcmp(s, sm_abi_name((enum sm_abi)i)))
			return i;
	return -1;
}

int sm_user_reader_load(const char *spec, enum sm_abi abi,
                        struct sm_user_reader *u, char *err, size_t n)
{
	return sm_user_reader_load_at(spec, abi, SM_CODE_BASE, u, err, n);
}

/* The object's bytes, when given (len > 0 or data): loaded from memory
 * (a packed counterexample's), not from PATH, which only names it. */
struct bytes {
	const void *data;
	size_t len;
};

static int load(const char *spec, enum sm_abi abi, uint64_t base,
                const struct bytes *mem, struct sm_user_reader *u, char *err,
                size_t n)
{
	char path[SM_USER_PATH_MAX];
	const char *colon = strrchr(spec, ':');

	memset(u, 0, sizeof(*u));
	if (!colon || colon == spec || !colon[1] ||
	    (size_t)(colon - spec) >= sizeof(path) ||
	    strlen(colon + 1) >= sizeof(u->symbol))
		return snprintf(err, n, "bad reader '%s' (expected a built-in name "
		                "or PATH:SYMBOL)", spec), -1;
	char why[96];
	if (sm_text_check(spec, why, sizeof(why)) < 0)
		return snprintf(err, n, "bad reader '%s': %s (a reader's name goes "
		                "into every report and trace)", spec, why), -1;
	/* both would break the schedule line's fields (and the trace's) */
	if (strchr(spec, '#'))
		return snprintf(err, n, "bad reader '%s': '#' is not allowed in "
		                "PATH:SYMBOL", spec), -1;
	if (memchr(spec, ':', (size_t)(colon - spec)))
		return snprintf(err, n, "bad reader '%s': ':' is not allowed in "
		                "the PATH of PATH:SYMBOL", spec), -1;
	const char *comma = strchr(colon + 1, ',');
	if (sm_abi_two_calls(abi) &&
	    (!comma || comma == colon + 1 || !comma[1] || strchr(comma + 1, ',')))
		return snprintf(err, n, "bad reader '%s': the %s ABI calls two "
		                "functions: PATH:%s,READ", spec, sm_abi_name(abi),
		                abi == SM_ABI_DELTA ? "START" : "RESET"), -1;
	if (!sm_abi_two_calls(abi) && comma)
		return snprintf(err, n, "bad reader '%s': two functions (',') "
		                "are for the delta and reset ABIs, not %s", spec,
		                sm_abi_name(abi)), -1;
	snprintf(path, sizeof(path), "%.*s", (int)(colon - spec), spec);
	snprintf(u->symbol, sizeof(u->symbol), "%s", colon + 1);
	if ((mem ? sm_elf_load_mem(mem->data, mem->len, path, u->symbol, base,
	                           SM_STUB_BASE, &u->img, err, n)
	         : sm_elf_load(path, u->symbol, base, SM_STUB_BASE, &u->img,
	                       err, n)) < 0)
		return -1;
	snprintf(u->name, sizeof(u->name), "%s", spec);
	snprintf(u->sched, sizeof(u->sched), "%s#%s#%s", path, u->symbol,
	         sm_abi_name(abi));
	u->r = (struct sm_reader){
		.name = u->name, .what = "your reader, loaded from ELF",
		.abi = abi, .native = NULL, .symbol = u->symbol,
		.arches = 1u << u->img.arch, .image = &u->img,
		.sched_name = u->sched,
	};
	return 0;
}

int sm_user_reader_load_at(const char *spec, enum sm_abi abi, uint64_t base,
                           struct sm_user_reader *u, char *err, size_t n)
{
	return load(spec, abi, base, NULL, u, err, n);
}

static int from_sched(const char *name, const struct bytes *mem,
                      struct sm_user_reader *u, char *err, size_t n)
{
	char buf[sizeof(u->sched)];
	char *h1, *h2;

	if (snprintf(buf, sizeof(buf), "%s", name) >= (int)sizeof(buf))
		return snprintf(err, n, "reader name in schedule too long (over "
		                "%zu bytes)", sizeof(buf) - 1), -1;
	if (!(h1 = strchr(buf, '#')) || !(h2 = strchr(h1 + 1, '#')))
		return snprintf(err, n, "bad reader '%s' in schedule (expected "
		                "PATH#SYMBOL#ABI)", name), -1;
	*h1 = *h2 = '\0';
	int abi = sm_abi_from_name(h2 + 1);
	if (abi < 0)
		return snprintf(err, n, "unknown ABI '%s' (raw, times, scaled, "
		                "values, delta or reset)", h2 + 1), -1;
	char spec[sizeof(buf) + 2];
	snprintf(spec, sizeof(spec), "%s:%s", buf, h1 + 1);
	return load(spec, (enum sm_abi)abi, SM_CODE_BASE, mem, u, err, n);
}

int sm_user_reader_from_sched(const char *name, struct sm_user_reader *u,
                              char *err, size_t n)
{
	return from_sched(name, NULL, u, err, n);
}

int sm_user_reader_from_sched_mem(const char *name, const void *data,
                                  size_t len, struct sm_user_reader *u,
                                  char *err, size_t n)
{
	const struct bytes mem = { data, len };

	return from_sched(name, &mem, u, err, n);
}

void sm_user_reader_free(struct sm_user_reader *u)
{
	sm_image_free(&u->img);
	memset(u, 0, sizeof(*u));
}
