/* workload-spec.h: check a --workload NAME[:k=v,...] against the workload table and render it for the kernel command line. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef WORKLOAD_SPEC_H
#define WORKLOAD_SPEC_H

#include <stddef.h>

#include "run/workload-table.h"

struct strbuf;

struct workload_spec_value {
	const struct workload_param *param;
	char *value;		/* the given value, or a copy of the default */
	int given;		/* set in the spec, not defaulted */
};

/*
 * A checked workload with every one of its parameters, in table order.
 * Owns its values; workload_spec_release() frees them.
 */
struct workload_spec {
	int id;			/* index into workload_table, -1 when unset */
	struct workload_spec_value *values;
	size_t nr;
};
#define WORKLOAD_SPEC_INIT { -1, NULL, 0 }

/*
 * Parses "NAME" or "NAME:key=value,key=value" into out (which must be
 * WORKLOAD_SPEC_INIT or released).  Returns 0, or -1 after an error()
 * that names the bad part and what exists: an unknown workload lists the
 * workloads (and suggests the closest), an unknown parameter lists the
 * workload's parameters, a bad value says what is allowed.  On failure out
 * is left as WORKLOAD_SPEC_INIT.
 */
int workload_spec_parse(struct workload_spec *out, const char *spec);

/* The value (given or default) of parameter name, or NULL if there is none. */
const char *workload_spec_get(const struct workload_spec *spec, const char *name);

/*
 * Appends the kernel command line parameters kcp-guest reads:
 * "kcp.workload=NAME kcp.K=V ..." with every parameter, defaults included,
 * so a recorded command line does not depend on the guest's defaults.
 */
void workload_spec_cmdline(const struct workload_spec *spec, struct strbuf *out);

/* Appends the canonical spec: NAME, then ":k=v,..." for the given values that differ from the default. */
void workload_spec_format(const struct workload_spec *spec, struct strbuf *out);

void workload_spec_release(struct workload_spec *spec);

#endif
