/* screen-sim-report.c: what a simulated screen prints: one seed's screen, or figures over many. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdint.h>

#include "stats/stats.h"
#include "util/json.h"
#include "screen/screen-report.h"
#include "screen/screen-sim-report.h"
#include "screen/screen-sim.h"
#include "screen/screen.h"
#include "util/strbuf.h"

static void json_settings(struct json_writer *jw, const char *path,
			  const struct screen_sim_options *o)
{
	jw_object_string(jw, "table", path);
	jw_object_string(jw, "order", screen_sim_order_name(o->order));
	jw_object_double(jw, "sd", o->sd);
	jw_object_double(jw, "zero_below", o->zero_below);
	jw_object_bool(jw, "attribution", o->functions != NULL);
}

void screen_sim_report_text(struct strbuf *sb, const struct screen *s, const char *path,
			    const struct screen_sim_options *o)
{
	strbuf_addf(sb, "simulated screen of %s: seed %lu, %s order, run-to-run sd %.2f%%, "
		    "costs under %.1f%% taken as 0%s\n", path, o->seed,
		    screen_sim_order_name(o->order), o->sd, o->zero_below,
		    o->functions ? ", attribution on (--functions)" : "");
	screen_report_text(sb, s);
}

void screen_sim_report_json(struct strbuf *sb, const struct screen *s, const char *path,
			    const struct screen_sim_options *o)
{
	struct json_writer jw;

	jw_init(&jw, sb, 1);
	jw_object_begin(&jw);
	json_settings(&jw, path, o);
	jw_object_intmax(&jw, "seed", (intmax_t)o->seed);
	screen_report_json(&jw, s);
	jw_end(&jw);
	strbuf_addch(sb, '\n');
}

void screen_sim_summary_text(struct strbuf *sb, const struct screen_effects *fx,
			     const char *path, const struct screen_sim_options *o,
			     const struct screen_sim_summary *sum)
{
	size_t i;

	strbuf_addf(sb, "simulated screens of %s: %zu seeds from %lu, %s order, "
		    "run-to-run sd %.2f%%,\nthreshold %.1f%%, costs under %.1f%% taken as 0%s\n",
		    path, sum->seeds, o->seed, screen_sim_order_name(o->order), o->sd,
		    o->screen.threshold, o->zero_below,
		    o->functions ? ", attribution on (--functions)" : "");
	strbuf_addf(sb, "builds: mean %.1f, min %zu, max %zu (one at a time: %zu)\n",
		    sum->builds_mean, sum->builds_min, sum->builds_max, fx->nr + 1);
	strbuf_addf(sb, "runs:   mean %.1f, min %zu, max %zu\n",
		    sum->runs_mean, sum->runs_min, sum->runs_max);
	strbuf_addf(sb, "options costing %.1f%% or more: %zu, the least found in %.0f%% of seeds\n",
		    sum->detect, sum->nr_detect, sum->detect_min_rate * 100);
	strbuf_addf(sb, "options of zero cost: %zu, the most reported in %.0f%% of seeds "
		    "(mean %.2f%%)\n", sum->nr_zero, sum->false_max_rate * 100,
		    sum->false_mean_rate * 100);
	strbuf_addstr(sb, "options that cost something or were found (cost, share of seeds found):\n");
	for (i = 0; i < fx->nr; i++) {
		double cost = screen_sim_cost(fx, i, o->zero_below);
		size_t start = sb->len;

		if (!cost && !sum->found[i])
			continue;
		strbuf_addf(sb, "    %s", fx->items[i].name);
		strbuf_addchars(sb, ' ', sb->len - start < 44 ? 44 - (sb->len - start) : 1);
		stats_format_change(sb, cost, 1);
		strbuf_addf(sb, "  %5.1f%%\n", 100.0 * sum->found[i] / sum->seeds);
	}
}

void screen_sim_summary_json(struct strbuf *sb, const struct screen_effects *fx,
			     const char *path, const struct screen_sim_options *o,
			     const struct screen_sim_summary *sum)
{
	struct json_writer jw;
	size_t i;

	jw_init(&jw, sb, 1);
	jw_object_begin(&jw);
	json_settings(&jw, path, o);
	jw_object_double(&jw, "threshold", o->screen.threshold);
	jw_object_intmax(&jw, "first_seed", (intmax_t)o->seed);
	jw_object_intmax(&jw, "seeds", (intmax_t)sum->seeds);
	jw_object_intmax(&jw, "one_at_a_time_builds", (intmax_t)fx->nr + 1);
	jw_object_double(&jw, "builds_mean", sum->builds_mean);
	jw_object_intmax(&jw, "builds_min", (intmax_t)sum->builds_min);
	jw_object_intmax(&jw, "builds_max", (intmax_t)sum->builds_max);
	jw_object_double(&jw, "runs_mean", sum->runs_mean);
	jw_object_intmax(&jw, "runs_min", (intmax_t)sum->runs_min);
	jw_object_intmax(&jw, "runs_max", (intmax_t)sum->runs_max);
	jw_object_double(&jw, "detect", sum->detect);
	jw_object_intmax(&jw, "detect_options", (intmax_t)sum->nr_detect);
	jw_object_double(&jw, "detect_min_rate", sum->detect_min_rate);
	jw_object_intmax(&jw, "zero_options", (intmax_t)sum->nr_zero);
	jw_object_double(&jw, "false_max_rate", sum->false_max_rate);
	jw_object_double(&jw, "false_mean_rate", sum->false_mean_rate);
	jw_object_inline_begin_array(&jw, "options");
	for (i = 0; i < fx->nr; i++) {
		jw_array_inline_begin_object(&jw);
		jw_object_string(&jw, "name", fx->items[i].name);
		jw_object_double(&jw, "cost", screen_sim_cost(fx, i, o->zero_below));
		jw_object_double(&jw, "found_rate", (double)sum->found[i] / sum->seeds);
		jw_end(&jw);
	}
	jw_end(&jw);
	jw_end(&jw);
	strbuf_addch(sb, '\n');
}
