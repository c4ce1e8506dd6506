/* cmd-screen.c: `kconfperf screen`: sequential bifurcation on kernels, or on a table of costs (--simulate). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd-options.h"
#include "cmd/commands.h"
#include "store/experiment.h"
#include "util/json.h"
#include "kbuild/kbuild.h"
#include "util/parse-options.h"
#include "report/report.h"
#include "screen/screen-report.h"
#include "screen/screen-run.h"
#include "screen/screen-sim.h"
#include "screen/screen.h"
#include "plan/source.h"
#include "store/store.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "run/workload-spec.h"
#include "run/workload-table.h"
#include "util/wrapper.h"

static const char *const screen_usage[] = {
	"kconfperf screen --source SRC --base BASE [--base-add FRAG|CONFIG_X=y]...\n"
	"                        (--options FILE|LIST | --options-from-diff OLD NEW)\n"
	"                        --workload NAME[:k=v,...] [--metric NAME] [--threshold PCT]\n"
	"                        [--order given|related]\n"
	"                        [--runs N] [--max-runs N] [--confirm-runs N] [--dir DIR] [--new]\n"
	"                        [run and build options as for sweep]",
	"",
	"Finds the few options that cost more than --threshold among many, building",
	"groups of them (sequential bifurcation): the baseline and all options, then",
	"each group whose cost is above the threshold split in two, each group below",
	"it dropped, runs added while undecided; then the found options are measured",
	"alone and together.  Options are ordered so that every group is a closed",
	"config (an option that selects or depends on another comes after it);",
	"no-ops are left out with their reason.  Everything is stored in DIR and the",
	"same command resumes.  Prints the bifurcation tree and the usual report;",
	"writes DIR/screen.json, DIR/report.html and DIR/report.json.  One workload",
	"and one of its metrics decide (default: the workload's own; or wall, boot).",
	"See src/screen.h for the decision rule, and 'kconfperf screen --simulate -h'",
	"for planning a screen on a table of costs.",
	NULL,
};

static const char *const simulate_usage[] = {
	"kconfperf screen --simulate EFFECTS.csv [--noise PCT] [--threshold PCT]\n"
	"                        [--zero-below PCT] [--order random|table|related]\n"
	"                        [--seed N] [--seeds N [--detect PCT]] [--format text|json]",
	"",
	"The screen's engine against a table of true option costs (lines",
	"CONFIG_X=y,COST_PERCENT, or hyperfine-style variant,mean_s,sd_s rows",
	"with a NO_DEBUG baseline), each run drawn as baseline x prod(1 + cost) x",
	"log-normal noise: that is how to plan a screen.  With --seeds N it runs N",
	"seeds from --seed and prints mean and largest builds and runs, how often",
	"each option costing --detect or more was found, and how often an option",
	"of zero cost was.  JSON: one object (builds, runs, found, found_details,",
	"all_found, tree...), or with --seeds the summary figures and per-option",
	"rates.",
	NULL,
};

static int parse_order(const char *s, enum screen_sim_order *out)
{
	if (!strcmp(s, "random"))
		*out = SCREEN_ORDER_RANDOM;
	else if (!strcmp(s, "table"))
		*out = SCREEN_ORDER_TABLE;
	else if (!strcmp(s, "related"))
		*out = SCREEN_ORDER_RELATED;
	else
		return -1;
	return 0;
}

static const char *order_name(enum screen_sim_order o)
{
	switch (o) {
	case SCREEN_ORDER_RANDOM:
		return "random";
	case SCREEN_ORDER_TABLE:
		return "table";
	case SCREEN_ORDER_RELATED:
		return "related";
	}
	return "?";
}

static void json_sim_settings(struct json_writer *jw, const char *path,
			      const struct screen_sim_options *o)
{
	jw_object_string(jw, "table", path);
	jw_object_string(jw, "order", order_name(o->order));
	jw_object_double(jw, "noise", o->noise);
	jw_object_double(jw, "zero_below", o->zero_below);
}

static int one_seed(const struct screen_effects *fx, const char *path,
		    const struct screen_sim_options *o, int json)
{
	struct strbuf sb = STRBUF_INIT;
	struct screen *s;

	if (screen_simulate(&s, fx, o))
		return 1;
	if (json) {
		struct json_writer jw;

		jw_init(&jw, &sb, 1);
		jw_object_begin(&jw);
		json_sim_settings(&jw, path, o);
		jw_object_intmax(&jw, "seed", (intmax_t)o->seed);
		screen_report_json(&jw, s);
		jw_end(&jw);
		strbuf_addch(&sb, '\n');
	} else {
		strbuf_addf(&sb, "simulated screen of %s: seed %lu, %s order, noise %.2f%%, "
			    "costs under %.1f%% taken as 0\n", path, o->seed,
			    order_name(o->order), o->noise, o->zero_below);
		screen_report_text(&sb, s);
	}
	fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_release(&sb);
	screen_free(s);
	return 0;
}

static void text_summary(struct strbuf *sb, const struct screen_effects *fx,
			 const char *path, const struct screen_sim_options *o,
			 const struct screen_sim_summary *sum)
{
	size_t i;

	strbuf_addf(sb, "simulated screens of %s: %zu seeds from %lu, %s order, noise %.2f%%,\n"
		    "threshold %.1f%%, costs under %.1f%% taken as 0\n",
		    path, sum->seeds, o->seed, order_name(o->order), o->noise,
		    o->screen.threshold, o->zero_below);
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

static void json_summary(struct strbuf *sb, const struct screen_effects *fx,
			 const char *path, const struct screen_sim_options *o,
			 const struct screen_sim_summary *sum)
{
	struct json_writer jw;
	size_t i;

	jw_init(&jw, sb, 1);
	jw_object_begin(&jw);
	json_sim_settings(&jw, path, o);
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

static int many_seeds(const struct screen_effects *fx, const char *path,
		      const struct screen_sim_options *o, size_t seeds, double detect,
		      int json)
{
	struct screen_sim_summary sum = SCREEN_SIM_SUMMARY_INIT;
	struct strbuf sb = STRBUF_INIT;

	if (screen_sim_many(&sum, fx, o, seeds, detect))
		return 1;
	if (json)
		json_summary(&sb, fx, path, o, &sum);
	else
		text_summary(&sb, fx, path, o, &sum);
	fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_release(&sb);
	screen_sim_summary_release(&sum);
	return 0;
}

/* Whether argv asks for --simulate: the engine on a table instead of kernels. */
static int wants_simulation(int argc, const char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--simulate") || starts_with(argv[i], "--simulate="))
			return 1;
	}
	return 0;
}

static int screen_kernels(int argc, const char **argv)
{
	struct plan_args pa = PLAN_ARGS_INIT;
	struct run_args ra = RUN_ARGS_INIT;
	struct experiment_inputs e = EXPERIMENT_INPUTS_INIT;
	struct screen_run_options ro = { 0 };
	struct screen *s = NULL;
	struct store *st = NULL;
	const char *dir_opt = EXPERIMENT_DEFAULT_DIR;
	char key[SHA256_HEX_SIZE];
	double noise = 1.0, start = now_seconds();
	int jobs = 0, start_new = 0, resume, rc, ret = 1;
	int runs_max, runs_confirm;
	const char *order = "given";
	const struct workload_info *wi;
	const struct option opts[] = {
		OPT_GROUP("what to screen:"),
		OPT_PLAN_ARGS(&pa),
		OPT_STRING(0, "metric", &ro.metric, "NAME",
			   "the workload's metric that decides (default its own; or wall, boot)"),
		OPT_DOUBLE(0, "threshold", &ro.screen.threshold, "PCT",
			   "a group costing more is split, less dropped (3)"),
		OPT_STRING(0, "order", &order, "given|related",
			   "options as given, or those changing the same symbols together (given)"),
		OPT_INTEGER(0, "max-runs", &runs_max, "N",
			    "runs of a variant at which a group is decided anyway (60)"),
		OPT_INTEGER(0, "confirm-runs", &runs_confirm, "N",
			    "runs of each found option alone, all found and the baseline (10)"),
		OPT_GROUP("how to build:"),
		OPT_INTEGER('j', "jobs", &jobs, "N", "make -j and parallel olddefconfig (default: CPUs)"),
		OPT_STRING(0, "cc-wrapper", &e.build.cc_wrapper, "CMD", "ccache, distcc or icecc"),
		OPT_GROUP("how to run (--runs: runs of a new variant before it is judged, 5):"),
		OPT_RUN_ARGS(&ra),
		OPT_GROUP("where and how to report:"),
		OPT_STRING(0, "dir", &dir_opt, "DIR", "experiment directory (default kconfperf-results)"),
		OPT_BOOL(0, "new", &start_new, "start over in DIR if it holds another experiment"),
		OPT_DOUBLE(0, "noise", &noise, "PCT",
			   "in the report, changes within +-PCT% count as no effect (default 1)"),
		OPT_BOOL('q', "quiet", &quiet, "print no progress"),
		OPT_END(),
	};

	ro.screen = (struct screen_options)SCREEN_OPTIONS_INIT;
	ra.o.runs = (int)ro.screen.runs_initial;
	runs_max = (int)ro.screen.runs_max;
	runs_confirm = (int)ro.screen.runs_confirm;
	argc = parse_options(argc, argv, opts, screen_usage);
	if (strcmp(pa.designs, "oat"))
		usage_error("screen chooses its own variants: --design is for sweep and plan");
	plan_args_finish(&pa, &argc, &argv, "screen");
	if (argc)
		usage_error("unexpected argument '%s'", argv[0]);
	run_args_finish(&ra, 0);
	if (!strcmp(order, "related"))
		ro.related_order = 1;
	else if (strcmp(order, "given"))
		usage_error("unknown --order '%s' (given or related)", order);
	if (ra.nr_specs != 1)
		usage_error("screen decides on one workload; give one --workload");
	if (jobs < 0)
		usage_error("-j cannot be negative");
	if (!(noise >= 0) || noise >= 100)
		usage_error("--noise must be a percentage from 0 to 100, not %g", noise);
	if (!(ro.screen.threshold > 0) || ro.screen.threshold >= 100)
		usage_error("--threshold must be a percentage above 0 and below 100");
	if (ra.o.runs < 3 || runs_max < ra.o.runs || runs_confirm < 3)
		usage_error("--runs and --confirm-runs must be at least 3, --max-runs at least --runs");
	wi = &workload_table[ra.specs[0].id];
	if (ro.metric && strcmp(ro.metric, "wall") && strcmp(ro.metric, "boot") &&
	    strcmp(ro.metric, wi->metric))
		usage_error("--metric '%s': the %s workload measures '%s' (or use wall, boot)",
			    ro.metric, wi->name, wi->metric);
	ro.screen.runs_initial = (size_t)ra.o.runs;
	ro.screen.runs_step = (size_t)ra.o.runs;
	ro.screen.runs_max = (size_t)runs_max;
	ro.screen.runs_confirm = (size_t)runs_confirm;

	if (experiment_inputs_open(&e, &pa, &ra, dir_opt, jobs))
		goto out;
	ro.plan = &pa.o;
	ro.build = &e.build;
	ro.measure = &ra.o;
	if (screen_run_key(&ro, key))
		goto out;
	resume = experiment_check_plan(e.dir, key, start_new);
	if (resume < 0 || experiment_open(&st, e.dir, 1) || kbuild_prepare(&e.build))
		goto out;
	if (resume)
		note("resuming the screen in '%s'", dir_opt);
	else if (plan_save_inputs(st, &e.source, &pa.o, e.cache, "screen") ||
		 store_set_meta(st, "plan_key", key))
		goto out;

	rc = screen_run(st, &ro, &s);
	if (rc < 0)
		goto out;
	/* The report starts with the screen's own (stored as meta screen_report). */
	if (report_experiment(st, dir_opt, noise))
		goto out;
	note("screen took %.0f s", now_seconds() - start);
	ret = rc;
out:
	screen_free(s);
	store_close(st);
	experiment_inputs_release(&e);
	plan_args_release(&pa);
	run_args_release(&ra);
	return ret;
}

int cmd_screen(int argc, const char **argv)
{
	struct screen_sim_options o = SCREEN_SIM_OPTIONS_INIT;
	struct screen_effects fx = SCREEN_EFFECTS_INIT;
	const char *simulate = NULL, *format = "text", *order = "random";
	int seed = 1, seeds = 0, runs_initial = (int)o.screen.runs_initial;
	int runs_max = (int)o.screen.runs_max;
	double detect = 5.0;
	int json, ret;
	const struct option opts[] = {
		OPT_STRING(0, "simulate", &simulate, "EFFECTS.csv",
			   "screen a table of true option costs instead of kernels"),
		OPT_DOUBLE(0, "threshold", &o.screen.threshold, "PCT",
			   "a group costing more is split, less dropped (3)"),
		OPT_DOUBLE(0, "noise", &o.noise, "PCT", "run-to-run noise, sd of log values (0.75)"),
		OPT_DOUBLE(0, "zero-below", &o.zero_below, "PCT",
			   "take smaller costs of the table as 0 (2)"),
		OPT_STRING(0, "order", &order, "ORDER",
			   "random (a new one per seed), table or related (random)"),
		OPT_INTEGER(0, "seed", &seed, "N", "the first seed (1)"),
		OPT_INTEGER(0, "seeds", &seeds, "N", "run N seeds and print summary figures"),
		OPT_DOUBLE(0, "detect", &detect, "PCT",
			   "with --seeds, how often options costing this much were found (5)"),
		OPT_INTEGER(0, "runs", &runs_initial, "N", "runs of a new variant (5)"),
		OPT_INTEGER(0, "max-runs", &runs_max, "N",
			    "runs of a variant at which a group is decided anyway (60)"),
		OPT_STRING(0, "format", &format, "FORMAT", "text or json (text)"),
		OPT_END(),
	};

	if (!wants_simulation(argc, argv))
		return screen_kernels(argc, argv);
	/* "--simulate -h": help, not a table called -h. */
	for (int i = 1; i + 1 < argc; i++)
		if (!strcmp(argv[i], "--simulate") &&
		    (!strcmp(argv[i + 1], "-h") || !strcmp(argv[i + 1], "--help"))) {
			print_usage(stdout, simulate_usage, opts);
			return 0;
		}
	if (parse_options(argc, argv, opts, simulate_usage))
		usage_error("unexpected argument '%s'", argv[0]);
	if (!simulate)
		usage_error("--simulate needs a table of costs");
	if (strcmp(format, "text") && strcmp(format, "json"))
		usage_error("unknown --format '%s' (text or json)", format);
	json = !strcmp(format, "json");
	if (parse_order(order, &o.order))
		usage_error("unknown --order '%s' (random, table or related)", order);
	if (!(o.screen.threshold > 0) || !(o.noise >= 0) || !(o.zero_below >= 0))
		usage_error("--threshold must be above 0, --noise and --zero-below at least 0");
	if (seed < 0 || seeds < 0)
		usage_error("--seed and --seeds must be at least 0");
	if (runs_initial < 3 || runs_max < runs_initial)
		usage_error("--runs must be at least 3 and --max-runs at least --runs");
	o.seed = (unsigned long)seed;
	o.screen.runs_initial = (size_t)runs_initial;
	o.screen.runs_max = (size_t)runs_max;

	if (screen_effects_load(&fx, simulate))
		return 1;
	if (seeds)
		ret = many_seeds(&fx, simulate, &o, (size_t)seeds, detect, json);
	else
		ret = one_seed(&fx, simulate, &o, json);
	screen_effects_release(&fx);
	return ret;
}
