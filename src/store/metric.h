/* metric.h: the metrics every run has beside its workload's own, named and told apart in one place. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef METRIC_H
#define METRIC_H

/*
 * A table of the reports, a sample of the store, --metric: each measures
 * one metric, by its name.  Three names are kconfperf's own and mean the
 * same in every workload; any other is a workload's own (hackbench's
 * "time", a cmd program's --extract).  What a name is, is asked here
 * (metric_kind_of()), never by comparing names: scripts/check-idioms
 * refuses a strcmp() on them elsewhere.
 */
enum metric_kind {
	METRIC_SAMPLE = 0,	/* the workload's own samples */
	METRIC_WALL,		/* host wall time of the whole run, every run's */
	METRIC_BOOT,		/* guest boot to init, every run's */
	METRIC_INSTRUCTIONS,	/* the meter's busy instructions (run/meter.h), a metered run's */
};

#define METRIC_WALL_NAME "wall"
#define METRIC_BOOT_NAME "boot"
#define METRIC_INSTRUCTIONS_NAME "instructions"

/* The kind of the metric called name: METRIC_SAMPLE for any other name (and NULL). */
enum metric_kind metric_kind_of(const char *name);
/* The name of a kind of kconfperf's own; NULL for METRIC_SAMPLE. */
const char *metric_kind_name(enum metric_kind kind);
/* Wall or boot: a metric every run has, measured by kconfperf rather than sampled. */
int metric_is_every_runs(const char *name);

#endif
