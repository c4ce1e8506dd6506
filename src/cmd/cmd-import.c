/* cmd-import.c: kconfperf import hyperfine: measurements taken elsewhere, as an experiment. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>

#include "cmd/commands.h"
#include "store/experiment.h"
#include "store/import-hyperfine.h"
#include "util/parse-options.h"
#include "util/usage.h"

static const char *const import_usage[] = {
	"kconfperf import hyperfine FILE.json... [--dir DIR] [--baseline COMMAND]",
	"",
	"Turns hyperfine --export-json files into a new experiment that 'kconfperf",
	"report' reads: each results[] entry becomes a variant named by its command,",
	"each of its times one run with the metric wall.  The first command is the",
	"baseline unless --baseline names another.  A command found in several files",
	"gets the runs of all of them; twice in one file, it is an error.  A run whose",
	"exit code is not 0 is stored as failed.  Times must be seconds above 0 and",
	"exit codes integers.  Nothing is stored unless every file is valid, and an",
	"interrupted import leaves nothing behind.",
	NULL,
};

int cmd_import(int argc, const char **argv)
{
	const char *dir = EXPERIMENT_DEFAULT_DIR, *baseline = NULL;
	struct import_result res = IMPORT_RESULT_INIT;
	size_t files;
	const struct option opts[] = {
		OPT_STRING(0, "dir", &dir, "DIR", "experiment directory to create "
			   "(default kconfperf-results)"),
		OPT_STRING(0, "baseline", &baseline, "COMMAND",
			   "the command to compare the others with (default: the first)"),
		OPT_BOOL('q', "quiet", &quiet, "print nothing on success"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, import_usage);
	if (argc < 1)
		usage_with_options(import_usage, opts);
	if (strcmp(argv[0], "hyperfine"))
		usage_error("cannot import '%s'; the format kconfperf reads is 'hyperfine'",
			    argv[0]);
	if (argc < 2)
		usage_error("import hyperfine needs at least one FILE.json");
	if (import_hyperfine(dir, argv + 1, (size_t)argc - 1, baseline, &res))
		return 1;
	files = (size_t)argc - 1;
	note("imported %zu command%s from %zu file%s into '%s' (baseline '%s')",
	     res.nr_commands, res.nr_commands == 1 ? "" : "s", files, files == 1 ? "" : "s",
	     dir, res.baseline);
	if (res.nr_merged)
		note("%zu command%s found in several files: %s runs merged", res.nr_merged,
		     res.nr_merged == 1 ? "" : "s", res.nr_merged == 1 ? "its" : "their");
	import_result_release(&res);
	return 0;
}
