/* metric.c: the metrics every run has beside its workload's own. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>

#include "store/metric.h"
#include "util/wrapper.h"

static const char *const names[] = {
	[METRIC_SAMPLE] = NULL,
	[METRIC_WALL] = METRIC_WALL_NAME,
	[METRIC_BOOT] = METRIC_BOOT_NAME,
	[METRIC_INSTRUCTIONS] = METRIC_INSTRUCTIONS_NAME,
};

enum metric_kind metric_kind_of(const char *name)
{
	size_t i;

	for (i = 0; name && i < ARRAY_SIZE(names); i++)
		if (names[i] && !strcmp(name, names[i]))
			return (enum metric_kind)i;
	return METRIC_SAMPLE;
}

const char *metric_kind_name(enum metric_kind kind)
{
	return (size_t)kind < ARRAY_SIZE(names) ? names[kind] : NULL;
}

int metric_is_every_runs(const char *name)
{
	enum metric_kind kind = metric_kind_of(name);

	return kind == METRIC_WALL || kind == METRIC_BOOT;
}
