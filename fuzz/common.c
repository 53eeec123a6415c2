/*
 * common.c — main.c's usage_error() for the fuzz targets, which link the
 * library without the command's main: silent, it only says "bad input".
 */
#include "fuzz.h"

int usage_error(const char *fmt, ...)
{
	(void)fmt;
	return 2;
}
