/* cmd-simulate-screen.c: `kconfperf simulate-screen`: plan a screen on a table of option costs. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "util/parse-options.h"
#include "screen/screen-sim-report.h"
#include "screen/screen-sim.h"
#include "screen/screen.h"
#include "util/strbuf.h"
#include "util/usage.h"

static const char *const simulate_usage[] = {
	"kconfperf simulate-screen EFFECTS.csv [--sd PCT] [--threshold PCT] [--zero-below PCT]\n"
	"                        [--order random|given|related] [--seed N] [--seeds N [--detect PCT]]\n"
	"                        [--runs N] [--max-runs N] [--functions FILE] [--format text|json]",
	"",
	"Runs the engine of 'kconfperf screen' against a table of true option costs",
	"instead of kernels: that is how to plan a screen.  The table has lines",
	"CONFIG_X=y,COST_PERCENT, or hyperfine-style variant,mean_s,sd_s rows with a",
	"NO_DEBUG baseline; each run is drawn as baseline x prod(1 + cost) x",
	"log-normal noise of --sd.  With --seeds N it runs N seeds from --seed and",
	"prints mean and largest builds and runs, how often each option costing",
	"--detect or more was found, and how often an option of zero cost was.",
	"--functions FILE says which kernel functions each option changes",
	"(CONFIG_X=y FUNC ~FUNC ...: a function several options list is in code",
	"each can change, ~FUNC in code none can) and simulates the screen's",
	"attribution on the meter: a group whose change only one member can own is",
	"found without a split.",
	"JSON: one object (builds, runs, found, found_details, all_found, tree...),",
	"or with --seeds the summary figures and per-option rates.",
	NULL,
};

int cmd_simulate_screen(int argc, const char **argv)
{
	struct screen_sim_options o = SCREEN_SIM_OPTIONS_INIT;
	struct screen_effects fx = SCREEN_EFFECTS_INIT;
	struct screen_sim_summary sum = SCREEN_SIM_SUMMARY_INIT;
	struct screen *s = NULL;
	struct strbuf out = STRBUF_INIT;
	const char *table, *format = "text", *order = "random", *functions = NULL;
	struct screen_functions fn = SCREEN_FUNCTIONS_INIT;
	int seed = 1, seeds = 0, runs_initial = (int)o.screen.runs_initial;
	int runs_max = (int)o.screen.runs_max;
	double detect = 5.0;
	int json, ret = 1;
	const struct option opts[] = {
		OPT_DOUBLE(0, "sd", &o.sd, "PCT",
			   "run-to-run noise: the sd of a run's log value, in percent (0.75)"),
		OPT_DOUBLE(0, "threshold", &o.screen.threshold, "PCT",
			   "a group costing more is split, less dropped (3)"),
		OPT_DOUBLE(0, "zero-below", &o.zero_below, "PCT",
			   "take smaller costs of the table as 0 (2)"),
		OPT_STRING(0, "order", &order, "ORDER",
			   "random (a new one per seed), given (the table's) or related (random)"),
		OPT_INTEGER(0, "seed", &seed, "N", "the first seed (1)"),
		OPT_INTEGER(0, "seeds", &seeds, "N", "run N seeds and print summary figures"),
		OPT_DOUBLE(0, "detect", &detect, "PCT",
			   "with --seeds, how often options costing this much were found (5)"),
		OPT_INTEGER(0, "runs", &runs_initial, "N", "runs of a new variant (5)"),
		OPT_INTEGER(0, "max-runs", &runs_max, "N",
			    "runs of a variant at which a group is decided anyway (60)"),
		OPT_STRING(0, "functions", &functions, "FILE",
			   "which functions each option changes: simulate attribution (see below)"),
		OPT_STRING(0, "format", &format, "FORMAT", "text or json (text)"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, simulate_usage);
	if (argc < 1)
		usage_error("simulate-screen needs a table of costs (EFFECTS.csv)");
	if (argc > 1)
		usage_error("unexpected argument '%s'", argv[1]);
	table = argv[0];
	if (strcmp(format, "text") && strcmp(format, "json"))
		usage_error("unknown --format '%s' (text or json)", format);
	json = !strcmp(format, "json");
	if (screen_sim_order_parse(order, &o.order))
		usage_error("unknown --order '%s' (random, given or related)", order);
	if (!(o.screen.threshold > 0) || !(o.sd >= 0) || !(o.zero_below >= 0))
		usage_error("--threshold must be above 0, --sd and --zero-below at least 0");
	if (seed < 0 || seeds < 0)
		usage_error("--seed and --seeds must be at least 0");
	if (runs_initial < 3 || runs_max < runs_initial)
		usage_error("--runs must be at least 3 and --max-runs at least --runs");
	o.seed = (unsigned long)seed;
	o.screen.runs_initial = (size_t)runs_initial;
	o.screen.runs_max = (size_t)runs_max;

	if (screen_effects_load(&fx, table))
		goto out;
	if (functions) {
		if (screen_functions_load(&fn, &fx, functions))
			goto out;
		o.functions = &fn;
	}
	if (seeds) {
		if (screen_sim_many(&sum, &fx, &o, (size_t)seeds, detect))
			goto out;
		if (json)
			screen_sim_summary_json(&out, &fx, table, &o, &sum);
		else
			screen_sim_summary_text(&out, &fx, table, &o, &sum);
	} else {
		if (screen_simulate(&s, &fx, &o))
			goto out;
		if (json)
			screen_sim_report_json(&out, s, table, &o);
		else
			screen_sim_report_text(&out, s, table, &o);
	}
	if (strbuf_write_output(&out, "-"))
		goto out;
	ret = 0;
out:
	strbuf_release(&out);
	screen_free(s);
	screen_sim_summary_release(&sum);
	screen_effects_release(&fx);
	screen_functions_release(&fn);
	return ret;
}
