/* analyze-env.h: the conditions every variant was measured under, and where they differ. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef ANALYZE_ENV_H
#define ANALYZE_ENV_H

#include <stddef.h>

struct analyze_model;
struct strbuf;

/*
 * The environment a report gives in one place, as mmtests prints the
 * kernels' preempt modes when they differ: per fact, its value, and
 * whether the measured variants differ in it.  In this order:
 *
 *   kernel        the source's version, with CONFIG_LOCALVERSION (per variant); with
 *                 several sources, its label, version and patch ("6.1+fix (6.1.192
 *                 with fix.patch)")
 *   command line  the runs' kernel command line (meta kernel_cmdline)
 *   preempt       none, voluntary, full or rt, "(dynamic)" with PREEMPT_DYNAMIC (per variant)
 *   HZ            CONFIG_HZ, and the tick: periodic, tickless idle or full (per variant)
 *   clocksource   what the guest's runs reported (per variant)
 *   qemu          qemu's version, or the runner that replaced it
 *   accel         the accelerator and the guest clock
 *   machine       the arch, qemu's machine and CPU model, CPUs and memory
 *   firmware      what the guest booted through
 *   boot          what the kernels booted as (meta boot: the fast boot's LZ4 bzImage)
 *   compiler      CONFIG_CC_VERSION_TEXT (per variant), else the build's
 *   kconfperf     the version that made the runs (and this report's, when another);
 *                 none from an experiment run before it was recorded
 *
 * A per-variant fact is read from each measured variant (state ok: its
 * effective .config, its runs); value is then the baseline's (or the first
 * measured variant's), and when some variant's differs, differs is set
 * and values[] holds every variant's (NULL for one not measured or not
 * known).  A fact nothing says is left out.
 */
struct analyze_env_fact {
	const char *name;
	char *value;
	int differs;
	char **values;		/* per variant when differs, else NULL */
};

/* For analyze.c: fills m->env from m's facts, variants and runs. */
void analyze_env_build(struct analyze_model *m);
void analyze_env_release(struct analyze_model *m);

/*
 * What differs, appended to sb: "CONFIG_PREEMPT=y: full; CONFIG_HZ_1000=y: 1000"
 * (each variant whose value is not f->value, in plan order); nothing when
 * none differs.
 */
void analyze_env_describe_differs(struct strbuf *sb, const struct analyze_model *m,
				  const struct analyze_env_fact *f);

/*
 * The value of a config symbol (CONFIG_ + sym) in .config text, appended to
 * out unquoted: 1 when it is set (y, m, a number or a string), 0 when not.
 */
int analyze_config_value(struct strbuf *out, const char *config, const char *sym);

#endif
