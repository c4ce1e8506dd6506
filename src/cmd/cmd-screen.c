/* cmd-screen.c: `kconfperf screen`: sequential bifurcation on real kernels. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd-options.h"
#include "cmd/commands.h"
#include "store/experiment.h"
#include "kbuild/kbuild.h"
#include "store/meta-keys.h"
#include "store/metric.h"
#include "util/parse-options.h"
#include "report/report.h"
#include "screen/screen-run.h"
#include "screen/screen.h"
#include "plan/kernel-source.h"
#include "store/store.h"
#include "util/strbuf.h"
#include "util/lockfile.h"
#include "util/usage.h"
#include "run/meter.h"
#include "run/vm.h"
#include "run/workload-spec.h"
#include "run/workload-table.h"
#include "util/wrapper.h"

static const char *const screen_usage[] = {
	"kconfperf screen --source SRC --base BASE [--base-add FRAG|CONFIG_X=y]...\n"
	"                        (--options FILE|LIST | --options-from-diff OLD NEW)\n"
	"                        --workload NAME[:k=v,...] [--metric NAME] [--threshold PCT]\n"
	"                        [--order given|related] [--no-attribute]\n"
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
	"and one metric decide: where the runs are metered (icount, TCG) the",
	"meter's instructions, exact, else the workload's own (--metric: its own,",
	"instructions, wall or boot).  On the meter a group above the threshold",
	"is first matched with its members: the functions whose counts changed,",
	"the objects that define them and the CONFIG symbols those depend on",
	"(kbuild's .cmd files and Makefiles).  When only one member can have",
	"changed them, that member is found without a split (and measured alone,",
	"as every found option is); when several can, the group is split between",
	"them; when none can, at its middle (--no-attribute: always at its middle).",
	"See src/screen/screen.h for the decision rule, and 'kconfperf simulate-screen'",
	"for planning a screen on a table of option costs.",
	NULL,
};

/*
 * "screen --simulate TABLE" was the simulation before it became a command
 * of its own with its own option names: say what to type now.
 */
static void refuse_simulate(int argc, const char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--simulate") || starts_with(argv[i], "--simulate="))
			usage_error("'screen --simulate TABLE' is now 'kconfperf simulate-screen "
				    "TABLE' (--noise is --sd there, --order table is --order given)");
	}
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
	struct lockfile lock = LOCKFILE_INIT;
	int jobs = 0, start_new = 0, resume, rc, ret = 1, locked, no_attribute = 0, metered;
	int runs_initial, runs_max, runs_confirm;
	const char *order = "given";
	char runs_text[32];
	const struct workload_info *wi;
	const struct option opts[] = {
		OPT_GROUP("what to screen:"),
		OPT_PLAN_SOURCE(&pa),
		OPT_PLAN_INPUTS(&pa),
		OPT_STRING(0, "metric", &ro.metric, "NAME",
			   "the metric that decides: the workload's own, instructions, wall or boot "
			   "(default instructions where the runs are metered, else its own)"),
		OPT_DOUBLE(0, "threshold", &ro.screen.threshold, "PCT",
			   "a group costing more is split, less dropped (3)"),
		OPT_STRING(0, "order", &order, "given|related",
			   "options as given, or those changing the same symbols together (given)"),
		OPT_BOOL(0, "no-attribute", &no_attribute,
			 "split every group above the threshold at its middle, never by the "
			 "functions that changed (attribution is on where the metric is instructions)"),
		OPT_INTEGER(0, "max-runs", &runs_max, "N",
			    "runs of a variant at which a group is decided anyway (60)"),
		OPT_INTEGER(0, "confirm-runs", &runs_confirm, "N",
			    "runs of each found option alone, all found and the baseline (3 on "
			    "instructions, else 10)"),
		OPT_GROUP("how to build:"),
		OPT_JOBS(&jobs, "make -j and parallel olddefconfig, 1 to 1024 (default: CPUs)"),
		OPT_STRING(0, "cc-wrapper", &e.build.cc_wrapper, "CMD",
			   "compile through ccache, distcc or icecc (see 'kconfperf help build')"),
		OPT_GROUP("how to run:"),
		OPT_INTEGER(0, "runs", &runs_initial, "N",
			    "runs of a new variant before it is judged, and added to an "
			    "undecided group at a time (3 on instructions, else 5)"),
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
	runs_initial = -1;	/* not given: by the metric's precision, below */
	runs_max = (int)ro.screen.runs_max;
	runs_confirm = -1;
	argc = parse_options(argc, argv, opts, screen_usage);
	/*
	 * The metric decides the runs: the meter's instructions repeat to a
	 * few parts in ten thousand, and 3 runs a side (the fewest an
	 * interval takes) decide what 5 would; other metrics take 5 and 10.
	 */
	metered = !ra.o.no_meter && !ra.o.runner && ra.o.accel != VM_ACCEL_KVM &&
		  ra.o.clock != VM_CLOCK_HOST;
	if (!ro.metric && metered)
		ro.metric = METRIC_INSTRUCTIONS_NAME;
	if (runs_initial < 0)
		runs_initial = ro.metric && metric_kind_of(ro.metric) == METRIC_INSTRUCTIONS ? 3 :
			       (int)ro.screen.runs_initial;
	if (runs_confirm < 0)
		runs_confirm = ro.metric && metric_kind_of(ro.metric) == METRIC_INSTRUCTIONS ? 3 :
			       (int)ro.screen.runs_confirm;
	if (pa.sources.nr > 1)
		usage_error("screen bisects the options of one source: give one --source "
			    "(sweep compares sources)");
	plan_args_finish(&pa, &argc, &argv, "screen");
	if (argc)
		usage_error("unexpected argument '%s'", argv[0]);
	/* --runs is screen's own integer; run_args_finish() reads it as text */
	snprintf(runs_text, sizeof(runs_text), "%d", runs_initial);
	ra.runs = runs_text;
	run_args_finish(&ra, 0);
	run_args_harness(&ra, &pa);
	if (!strcmp(order, "related"))
		ro.related_order = 1;
	else if (strcmp(order, "given"))
		usage_error("unknown --order '%s' (given or related)", order);
	if (ra.nr_specs != 1)
		usage_error("screen decides on one workload; give one --workload");
	check_noise_option(noise);
	if (!(ro.screen.threshold > 0) || ro.screen.threshold >= 100)
		usage_error("--threshold must be a percentage above 0 and below 100");
	if (ra.o.runs < 3 || runs_max < ra.o.runs || runs_confirm < 3)
		usage_error("--runs and --confirm-runs must be at least 3, --max-runs at least --runs");
	wi = &workload_table[ra.specs[0].id];
	if (ro.metric && !metric_is_every_runs(ro.metric) && strcmp(ro.metric, wi->metric) &&
	    metric_kind_of(ro.metric) != METRIC_INSTRUCTIONS)
		usage_error("--metric '%s': the %s workload measures '%s' (or use %s, wall, boot)",
			    ro.metric, wi->name, wi->metric, METRIC_INSTRUCTIONS_NAME);
	if (ro.metric && metric_kind_of(ro.metric) == METRIC_INSTRUCTIONS && !metered)
		usage_error("--metric %s needs metered runs: icount under TCG, without --no-meter "
			    "or --runner", METRIC_INSTRUCTIONS_NAME);
	ro.screen.attribute = !no_attribute && ro.metric &&
			      metric_kind_of(ro.metric) == METRIC_INSTRUCTIONS;
	ro.screen.runs_initial = (size_t)ra.o.runs;
	ro.screen.runs_step = (size_t)ra.o.runs;
	ro.screen.runs_max = (size_t)runs_max;
	ro.screen.runs_confirm = (size_t)runs_confirm;

	if (experiment_check_dir(dir_opt))
		goto out;
	locked = experiment_lock(&lock, dir_opt, "screening");
	if (locked) {
		ret = locked > 0 ? EXPERIMENT_BUSY : 1;
		goto out;
	}
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
	else if (plan_save_inputs(st, &e.sources.v[0].ks, &pa.o, e.cache, "screen") ||
		 store_set_meta(st, META_PLAN_KEY, key))
		goto out;

	rc = screen_run(st, &ro, &s);
	if (rc < 0)
		goto out;
	/* The report starts with the screen's own (store_set_screen_report()). */
	if (report_experiment(st, dir_opt, noise))
		goto out;
	note("screen took %.0f s", now_seconds() - start);
	ret = rc;
out:
	screen_free(s);
	store_close(st);
	lockfile_release(&lock);
	experiment_inputs_release(&e);
	plan_args_release(&pa);
	run_args_release(&ra);
	return ret;
}

int cmd_screen(int argc, const char **argv)
{
	refuse_simulate(argc, argv);
	return screen_kernels(argc, argv);
}
