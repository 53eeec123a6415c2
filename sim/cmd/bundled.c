/*
 * bundled.c — the bundled scenarios and scenario names (see bundled.h).
 *
 * Owns: reading the traces directory and building a scenario's path from
 * its name, with sizes taken from the names themselves.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bundled.h"
#include "input.h"
#include "names.h"
#include "suggest.h"

static char installed_traces[PATH_MAX];

/* An installed selfmon's scenarios are at ../share/selfmon/traces from
 * the binary (cmake --install puts them there); "" when there are none. */
static void find_installed_traces(void)
{
	char exe[PATH_MAX], dir[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct stat st;

	if (n <= 0)
		return;
	exe[n] = '\0';
	char *slash = strrchr(exe, '/');
	if (!slash)
		return;
	*slash = '\0';
	snprintf(dir, sizeof(dir), "%s/../share/selfmon/traces", exe);
	if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode) &&
	    !realpath(dir, installed_traces))
		installed_traces[0] = '\0';
}

/* $SELFMON_TRACES, else an installed selfmon's, else the source tree's. */
const char *sm_traces_dir(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	const char *d = getenv("SELFMON_TRACES");

	if (d && *d)
		return d;
	pthread_once(&once, find_installed_traces);
	return installed_traces[0] ? installed_traces : SELFMON_TRACES_DIR;
}

static bool is_path(const char *name)
{
	return strchr(name, '/') || strstr(name, ".scn");
}

int sm_scenario_resolve(const char *name, char *path, size_t n)
{
	if (is_path(name))
		return snprintf(path, n, "%s", name) < (int)n ? 0 : -1;
	return snprintf(path, n, "%s/%s.scn", sm_traces_dir(), name) < (int)n
	       ? 0 : -1;
}

/* A bundled name that names no file: one line, with the nearest bundled
 * name when one is close; -1.  0 when name is a path or a bundled one. */
static int unknown(const char *name, const char *path, char *err, size_t n)
{
	struct stat st;
	char **names, hint[128];

	if (is_path(name) || stat(path, &st) == 0 || errno != ENOENT)
		return 0;
	int k = sm_bundled_names(&names);
	const char *best = k > 0 ? sm_suggest(name, (const char *const *)names,
	                                      (size_t)k)
	                         : NULL;
	snprintf(err, n, "unknown scenario '%s'%s (%s: %s; 'selfmon list' "
	         "names the bundled ones)", name, sm_hint(hint, sizeof(hint), best),
	         path, strerror(ENOENT));
	sm_names_free(names, k);
	return -1;
}

int sm_scenario_open(const char *name, struct sm_scenario *s, char *err,
                     size_t n)
{
	const char *dir = sm_traces_dir();
	size_t len = is_path(name) ? strlen(name) + 1
	                           : strlen(dir) + strlen(name) + 6;
	char *path = malloc(len);

	if (!path)
		return snprintf(err, n, "%s: out of memory", name), -1;
	sm_scenario_resolve(name, path, len); /* fits: len measured it */
	int rc = unknown(name, path, err, n);
	if (rc == 0)
		rc = sm_scenario_load(path, s, err, n);
	free(path);
	return rc;
}

void sm_scenario_summary(const char *name, char *buf, size_t n)
{
	char path[PATH_MAX], why[128], *text;
	size_t len, o = 0;

	buf[0] = '\0';
	/* read as a scenario is (a regular file, its size capped) */
	if (n < 2 || sm_scenario_resolve(name, path, sizeof(path)) < 0 ||
	    !(text = sm_read_input(path, SM_SCENARIO_MAX_BYTES, &len, why,
	                           sizeof(why))))
		return;
	/* the '#' lines at the top, their words joined by one space, to the
	 * first full stop that ends a word */
	for (const char *p = text; *p == '#' && o + 1 < n;) {
		p += strspn(p, "# \t");
		size_t k = strcspn(p, "\n");
		for (size_t i = 0; i < k && o + 1 < n; i++) {
			char c = p[i] == '\t' ? ' ' : p[i];
			if (c == ' ' && (o == 0 || buf[o - 1] == ' '))
				continue;
			buf[o++] = c;
			if (c == '.' && (i + 1 == k || p[i + 1] == ' ')) {
				buf[o] = '\0';
				goto done;
			}
		}
		if (o && buf[o - 1] != ' ' && o + 1 < n)
			buf[o++] = ' ';
		p += k + (p[k] == '\n');
	}
	while (o && buf[o - 1] == ' ')
		o--;
	buf[o] = '\0';
done:
	free(text);
	sm_printable(buf);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void sm_names_free(char **names, int n)
{
	for (int i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}

/* One more name, the array grown as needed: 0, or -1 out of memory. */
static int append(char ***names, unsigned *n, unsigned *cap,
                  const char *name, size_t len)
{
	if (*n == *cap) {
		unsigned more = 2 * *cap + 16;
		char **grown = realloc(*names, more * sizeof(**names));
		if (!grown)
			return -1;
		*names = grown;
		*cap = more;
	}
	if (!((*names)[*n] = strndup(name, len)))
		return -1;
	(*n)++;
	return 0;
}

int sm_bundled_names(char ***out)
{
	DIR *d = opendir(sm_traces_dir());
	char **names = NULL;
	unsigned n = 0, cap = 0;
	int rc = 0;

	*out = NULL;
	if (!d)
		return 0;
	for (struct dirent *e; rc == 0 && (e = readdir(d));) {
		size_t len = strlen(e->d_name);
		if (len > 4 && !strcmp(e->d_name + len - 4, ".scn"))
			rc = append(&names, &n, &cap, e->d_name, len - 4);
	}
	closedir(d);
	if (rc < 0) {
		sm_names_free(names, (int)n);
		return -1;
	}
	if (n)
		qsort(names, n, sizeof(names[0]), cmp_str);
	*out = names;
	return (int)n;
}
