/* screen-report.h: a screen's result and bifurcation tree, as text and as JSON. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef SCREEN_REPORT_H
#define SCREEN_REPORT_H

struct json_writer;
struct screen;
struct strbuf;

/*
 * Appends the text report of a screen, finished or not: builds and runs
 * beside one option at a time, the found options with their cost in the
 * screen and alone (marker as in stats_marker()), "all found" against the
 * product of the alone costs, excluded options with their reasons, options
 * left undecided at the run cap, variants that failed or resolved
 * differently, and the bifurcation tree: one line
 * per group, indented by depth, with its positions in the screen order, its
 * cost and interval, the runs of its two variants, and what was decided and
 * why.  Option names go through as they are: they are Kconfig settings.
 */
void screen_report_text(struct strbuf *sb, const struct screen *s);

/*
 * Writes the same as members of a JSON object the caller has opened:
 * options, screened, builds, one_at_a_time_builds, runs, threshold, found
 * (the names), undecided (the names of options still uncertain at the run
 * cap), found_details, all_found (or null), excluded, unresolved,
 * variants and tree (one object per group, parent by index).  Percentages
 * are numbers in percent; NaN becomes null.
 */
void screen_report_json(struct json_writer *jw, const struct screen *s);

#endif
