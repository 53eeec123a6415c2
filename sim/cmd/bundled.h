/*
 * bundled.h — the scenarios that come with selfmon (traces/NAME.scn, or
 * $SELFMON_TRACES), and how a scenario named on a command line is found.
 *
 * Owns: the traces directory, the listing of its scenarios and the rule
 * NAME-or-PATH -> file.  It must not parse scenarios (model/scenario.c).
 */
#ifndef SELFMON_BUNDLED_H
#define SELFMON_BUNDLED_H

#include <stddef.h>

#include "scenario.h"

const char *sm_traces_dir(void);
/* A bundled name (x86_reset) or a path (has a '/' or ".scn") -> the file,
 * in path: 0, or -1 when it does not fit in n bytes. */
int sm_scenario_resolve(const char *name, char *path, size_t n);
/* Load the scenario a name or path names: 0, or -1 with one line in err. */
int sm_scenario_open(const char *name, struct sm_scenario *s, char *err,
                     size_t n);
/* What the scenario a name or path names is about: the first sentence of
 * its leading comment, on one line (printable), into buf; "" when it has
 * none or cannot be read. */
void sm_scenario_summary(const char *name, char *buf, size_t n);
/* The bundled scenarios' names, sorted, in *out: how many, or -1 out of
 * memory.  Free with sm_names_free. */
int sm_bundled_names(char ***out);
void sm_names_free(char **names, int n);

#endif
