/*
 * counter_read_broken.c — the sample library's reader with one fault: the
 * counter is not sign-extended from pmc_width (the classic 2^48 bug), so
 * `ctest` in the sample library must fail with a counterexample.
 */
#define COUNTER_NO_SIGN_EXTENSION
#include "counter_read.c"
