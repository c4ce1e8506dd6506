/* sample-range.h: the values a sample may hold, one rule for the protocol and for import. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef SAMPLE_RANGE_H
#define SAMPLE_RANGE_H

/*
 * A time is at least a nanosecond and at most 1e7 s (116 days): 5e-324 s
 * made a "significant -100%", 1e308 a 309-digit mean.  Times come in s,
 * ms, us or ns (the unit says which); any other metric (a throughput, a
 * count) is at most SAMPLE_VALUE_MAX, and none is negative.
 */
#define SAMPLE_TIME_MIN_SECONDS 1e-9
#define SAMPLE_TIME_MAX_SECONDS 1e7
#define SAMPLE_VALUE_MAX 1e15

/*
 * NULL when value, in unit, is in the range above; else a static reason
 * to print after the value: "is below a nanosecond", "is more than 1e7 s
 * (116 days)", "is more than 1e15", "is negative".
 */
const char *sample_range_check(double value, const char *unit);

/* Seconds per unit for a time unit (s, ms, us, ns), 0 for any other. */
double sample_time_unit(const char *unit);

#endif
