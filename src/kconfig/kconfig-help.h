/* kconfig-help.h: what an option's Kconfig help text claims it costs. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef KCONFIG_HELP_H
#define KCONFIG_HELP_H

struct kconfig_index;
struct strbuf;
struct strvec;

/*
 * The kernel's help texts state costs that nobody checks against a
 * measurement: KASAN_GENERIC "The performance slowdown is ~x3.",
 * INIT_ON_FREE_DEFAULT_ON "Most cases see 3-5% impact.", KFENCE "designed
 * to have negligible cost".  The plan records such sentences per option
 * and the reports set them beside the measured change.
 */

/*
 * Appends the help text of the config entry that starts at line `line`
 * of the Kconfig file at path ("config NAME" or "menuconfig NAME") to out,
 * dedented, one help line per line.  1 when the entry has help, 0 when not,
 * -1 with a message when the file cannot be read.
 */
int kconfig_help_text(struct strbuf *out, const char *path, int line);

/*
 * Appends to out each sentence of help that states a cost: one that speaks
 * of cost (slowdown, overhead, performance, impact, cost, speed, boost,
 * faster, penalty, latency, throughput, workload, expensive) and gives it a
 * size, a number (a percentage, a factor such as "~x3" or "2x") or a word
 * ("negligible", "near zero", "minimal", "significant", "substantial",
 * "noticeable", "twice").  Sentences are told apart at ". ", "! " and
 * "? " before anything but a lowercase letter, and at blank lines;
 * each is given on one line, its white space collapsed.
 */
void kconfig_cost_claims(struct strvec *out, const char *help);

/*
 * The claims of every definition of symbol name in the index's tree, each
 * as "FILE:LINE\tSENTENCE" (the definition's place, relative to the
 * tree).  0, or -1 with a message when a Kconfig file cannot be read.
 */
int kconfig_index_claims(struct strvec *out, const struct kconfig_index *idx, const char *name);

#endif
