/* Configure-time probe: a cross compiler can preprocess hosted C (its
 * target's C library headers are installed). */
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
