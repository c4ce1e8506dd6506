/* screen-sim-report.h: what a simulated screen prints: one seed's screen, or figures over many. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef SCREEN_SIM_REPORT_H
#define SCREEN_SIM_REPORT_H

struct screen;
struct screen_effects;
struct screen_sim_options;
struct screen_sim_summary;
struct strbuf;

/*
 * One seed's screen (screen_simulate()) of the table read from path:
 * a line with the settings (seed, order, run-to-run sd, costs taken as
 * zero) and screen_report_text(); or as JSON, one object with the
 * settings (table, order, sd, zero_below, seed) and the members of
 * screen_report_json().
 */
void screen_sim_report_text(struct strbuf *sb, const struct screen *s, const char *path,
			    const struct screen_sim_options *o);
void screen_sim_report_json(struct strbuf *sb, const struct screen *s, const char *path,
			    const struct screen_sim_options *o);

/*
 * The figures of many seeds (screen_sim_many()): builds and runs (mean,
 * min, max, beside one at a time), how often the least found option
 * costing sum->detect or more was found, how often an option of zero cost
 * was, and per option that costs something or was found its cost and
 * share of seeds.  As JSON: one object with the settings, threshold,
 * first_seed, seeds, one_at_a_time_builds, builds_mean/min/max,
 * runs_mean/min/max, detect, detect_options, detect_min_rate,
 * zero_options, false_max_rate, false_mean_rate and options (name, cost,
 * found_rate for every option of the table).
 */
void screen_sim_summary_text(struct strbuf *sb, const struct screen_effects *fx,
			     const char *path, const struct screen_sim_options *o,
			     const struct screen_sim_summary *sum);
void screen_sim_summary_json(struct strbuf *sb, const struct screen_effects *fx,
			     const char *path, const struct screen_sim_options *o,
			     const struct screen_sim_summary *sum);

#endif
