/* cmd-report.c: kconfperf report: what each option costs, in one of seven formats. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stats/analyze.h"
#include "cmd/cmd-options.h"
#include "cmd/commands.h"
#include "store/experiment.h"
#include "util/parse-options.h"
#include "report/report.h"
#include "store/store.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

static const char *const report_usage[] = {
	"kconfperf report [--dir DIR] [--format text|mmtests|markdown|csv|json|svg|html]\n"
	"                        [-o FILE] [--workload W] [--metric M] [--noise PCT]\n"
	"                        [--confidence LEVEL]",
	"",
	"Reports what each variant costs against the baseline, per workload and metric",
	"(wall: whole-run wall time, boot: boot to init, and each workload's own",
	"samples), from the runs stored in DIR/kconfperf.db so far.  Warm-up and failed",
	"runs are left out and counted.  A change is marked * when its Benjamini-Hochberg",
	"q-value is below 0.05 and its confidence interval lies outside +-PCT percent.",
	"text (the default) is the mailing-list table; mmtests looks like mmtests'",
	"compare-kernels; csv has one row per sample; json is shaped like hyperfine's",
	"--export-json; html is one self-contained page with charts and config diffs.",
	NULL,
};

int cmd_report(int argc, const char **argv)
{
	struct analyze_options ao = ANALYZE_OPTIONS_INIT;
	struct analyze_model m;
	struct strbuf out = STRBUF_INIT;
	const struct report_format *fmt;
	struct store *st = NULL;
	const char *dir = EXPERIMENT_DEFAULT_DIR, *format = "text", *output = NULL;
	double confidence = 0.95;
	int ret = 1;
	const struct option opts[] = {
		OPT_STRING(0, "dir", &dir, "DIR", "experiment directory (default kconfperf-results)"),
		OPT_STRING(0, "format", &format, "FORMAT",
			   "text, mmtests, markdown, csv, json, svg or html (default text)"),
		OPT_STRING('o', "output", &output, "FILE",
			   "write to FILE (replaced atomically) instead of stdout"),
		OPT_STRING(0, "workload", &ao.workload, "W", "only workload W"),
		OPT_STRING(0, "metric", &ao.metric, "M", "only metric M (wall, boot, time...)"),
		OPT_DOUBLE(0, "noise", &ao.stats.noise, "PCT",
			   "changes within +-PCT% count as no effect (default 1)"),
		OPT_DOUBLE(0, "confidence", &confidence, "LEVEL",
			   "confidence level of intervals, 0.5 to 1 (default 0.95; 95 works too)"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, report_usage);
	if (argc)
		usage_error("unexpected argument '%s'", argv[0]);
	fmt = report_find(format);
	if (!fmt)
		usage_error("unknown --format '%s' (text, mmtests, markdown, csv, json, "
			    "svg or html)", format);
	check_noise_option(ao.stats.noise);
	/* 0.95 or 95; 1.5 is neither a 1.5% interval nor a 150% one, but a slip */
	if (confidence >= 50 && confidence < 100)
		confidence /= 100;
	else if (!(confidence >= 0.5 && confidence < 1))
		usage_error("--confidence is a level such as 0.95 or 95 (from 0.5 up to 1, or "
			    "50 up to 100), not %g", confidence);
	ao.stats.confidence = confidence;

	if (experiment_open_readonly(&st, dir))
		goto out;
	if (analyze_load(&m, st, &ao))
		goto out;
	fmt->write(&out, &m);
	analyze_release(&m);
	if (strbuf_write_output(&out, output ? output : "-"))
		goto out;
	ret = 0;
out:
	store_close(st);
	strbuf_release(&out);
	return ret;
}
