/* sample-range.c: the values a sample may hold, one rule for the protocol and for import. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>

#include "store/sample-range.h"

double sample_time_unit(const char *unit)
{
	if (!strcmp(unit, "s"))
		return 1;
	if (!strcmp(unit, "ms"))
		return 1e-3;
	if (!strcmp(unit, "us"))
		return 1e-6;
	if (!strcmp(unit, "ns"))
		return 1e-9;
	return 0;
}

const char *sample_range_check(double value, const char *unit)
{
	double scale = sample_time_unit(unit);

	if (!(value >= 0))
		return "is negative";
	if (!scale)
		return value > SAMPLE_VALUE_MAX ? "is more than 1e15" : NULL;
	/* a relative slack, so that 1 ns written as 0.000000001 s passes */
	if (value * scale < SAMPLE_TIME_MIN_SECONDS * (1 - 1e-9))
		return "is below a nanosecond";
	if (value * scale > SAMPLE_TIME_MAX_SECONDS)
		return "is more than 1e7 s (116 days)";
	return NULL;
}
