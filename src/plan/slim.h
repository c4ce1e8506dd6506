/* slim.h: --slim: a distribution's config cut to what kconfperf's guests load, in the spirit of make localmodconfig. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef SLIM_H
#define SLIM_H

struct kconfig;
struct strvec;

/*
 * make localmodconfig turns off every module that lsmod does not show on
 * the machine the kernel is for.  kconfperf's guests load no module at
 * all: kcp-guest's initramfs and libguestfs's appliance (an empty
 * SUPERMIN_MODULES) get none, and kconfperf builds only bzImage, so a
 * module of the baseline is never built, never booted and never
 * measured.  --slim says so in the config: every symbol the baseline sets
 * to m becomes n, except the ones the experiment names (keep: the
 * candidate options, --base-add's settings and the harness profiles'),
 * and `make olddefconfig` then drops what only those modules needed.  A
 * candidate option that lived in a module becomes a no-op whose reason
 * names the module (it could never cost the guest anything), and the
 * plan records every symbol slimming turned off (meta "slim_removed").
 *
 * What it does not do: turn off built-in code.  A distribution's built-in
 * part is what kconfperf compiles (Debian 6.1: 2,418 symbols), and which
 * of it a workload needs is not something a lsmod can tell;
 * docs/recipes/seed000-slim.out gives its build time here.
 */

/*
 * Sets every symbol of kc whose value is "m" and whose name is not in keep
 * to "n", and appends the names (without CONFIG_) to removed.  Returns how
 * many it turned off.
 */
int slim_modules(struct kconfig *kc, const struct strvec *keep, struct strvec *removed);

#endif
