/* report.h: the report formats by name, and the report a sweep or screen ends with. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef REPORT_H
#define REPORT_H

#include "report/report-writers.h"

struct store;

struct report_format {
	const char *name;
	report_fn *write;
	const char *extension;
};

/* The formats, in the order --help lists them; ends with a NULL name. */
extern const struct report_format report_formats[];
/* The format called name, or NULL. */
const struct report_format *report_find(const char *name);

/*
 * What sweep and screen end with: the text report of the experiment in
 * st on stdout, and dir/report.html and dir/report.json written.  noise
 * is the +-percent band of no effect.  Returns 0 or -1 with a message.
 */
int report_experiment(struct store *st, const char *dir, double noise);

#endif
