/* cmd-run.c: kconfperf run: boot every built variant with each workload, many times, and keep every run. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>

#include "cmd/cmd-options.h"
#include "stats/stats.h"
#include "cmd/commands.h"
#include "store/experiment.h"
#include "store/meta-keys.h"
#include "store/shard-dir.h"
#include "run/measure.h"
#include "util/parse-options.h"
#include "store/store.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/lockfile.h"
#include "util/usage.h"
#include "run/vm.h"
#include "run/workload-spec.h"
#include "util/wrapper.h"

static const char *const run_usage[] = {
	"kconfperf run [--dir DIR] --workload NAME[:k=v,...]... [--runs N|auto] [--max-runs N]\n"
	"                     [--warmup N] [--accel auto|kvm|tcg] [--clock icount[:SHIFT]|icount-idle|host]\n"
	"                     [--smp N] [--mem MB] [--guests N] [--timeout SEC] [--seed N]\n"
	"                     [--runner CMD] [--workload-exec FILE] [--shard I/N|auto/N]",
	"kconfperf run ... --workload 'cmd:PROGRAM ARGS' [--scratch SIZE[:LAYER,...]]...\n"
	"                     [--extract NAME,UNIT,higher|lower,SOURCE]...",
	"kconfperf run [--dir DIR] --workload NAME[:k=v,...] --print-command VARIANT",
	"",
	"Boots each built variant under qemu (or --runner) with each workload: first",
	"--warmup rounds, kept but marked as warm-ups, then --runs rounds.  Each round",
	"runs every variant once in a random order drawn from --seed.  Every run is",
	"stored the moment it ends, failed ones too (timeout, panic, guest error), so",
	"an interrupted experiment loses no finished run: the same command again runs",
	"only what is missing, in the order it would have had.  No-op and same-as",
	"variants are not run: they are measured as the variant they equal.",
	"The plan's arch decides the machine: x86_64 kernels boot under",
	"qemu-system-x86_64, arm64 ones under qemu-system-aarch64 -M virt with",
	"kcp-guest-arm64.  A --runner gets the run in KCP_* variables (KCP_KERNEL,",
	"KCP_INITRAMFS, KCP_CMDLINE, KCP_ARCH, ...) and prints the protocol lines;",
	"scripts/board-runner boots a real board over TFTP and its serial console.",
	"A cmd: workload needs kernels planned with its harness profiles (sweep adds",
	"them; for plan, --harness 9p and, for scratch disks, disk or crypt).",
	"",
	"--shard I/N runs one of N self-contained jobs of the experiment, for a job",
	"engine (Slurm's sbatch --array, GNU parallel, Kubernetes Indexed Jobs): its",
	"measured rounds r with r mod N = I-1, each round whole (every variant, in",
	"the unsharded order), and every warm-up round.  It works in DIR/shards/",
	"run-I-of-N, a copy of DIR's planned and built experiment made on its first",
	"start, with its own database and lock, so shards run at once on one",
	"directory or on copies of it; a shard run again resumes.  'kconfperf merge'",
	"folds the shards back into DIR.  Every shard needs the same seed: DIR's",
	"stored one, or the same --seed.  --runs auto cannot be sharded.",
	"Exit status 0 when every run was ok, 1 when some failed or a variant was skipped.",
	NULL,
};

/*
 * Every shard must order its rounds and draw its layouts from one seed:
 * the experiment's stored one, or the same --seed given to every shard.
 */
static int check_shard_seed(struct store *st, const struct run_args *ra)
{
	char *seed = store_get_meta(st, META_SEED);
	int ret = 0;

	if (!seed && !ra->o.seed)
		ret = error("'%s' has no seed yet: give every shard the same --seed N, so "
			    "their rounds have the unsharded order", ra->o.dir);
	free(seed);
	return ret;
}

int cmd_run(int argc, const char **argv)
{
	struct run_args ra = RUN_ARGS_INIT;
	struct strbuf command = STRBUF_INIT;
	struct store *st = NULL;
	const char *print_command = NULL;
	struct lockfile lock = LOCKFILE_INIT;
	char *shard_dir = NULL;
	int ret = 1, locked, rc;
	const struct option opts[] = {
		OPT_STRING(0, "dir", &ra.o.dir, "DIR", "experiment directory (default kconfperf-results)"),
		OPT_RUN_ARGS(&ra),
		OPT_RUNS_AUTO(&ra),
		OPT_STRING(0, "print-command", &print_command, "VARIANT",
			   "print the shell command of one of VARIANT's runs and exit"),
		OPT_SHARD(&ra.o.shard, "run shard I of N: whole rounds, in DIR/shards/run-I-of-N"),
		OPT_BOOL('q', "quiet", &quiet, "print no progress"),
		OPT_END(),
	};

	ra.o.dir = EXPERIMENT_DEFAULT_DIR;
	argc = parse_options(argc, argv, opts, run_usage);
	if (argc)
		usage_error("unexpected argument '%s'", argv[0]);
	run_args_finish(&ra, 0);
	if (ra.o.runs == 0 && ra.o.warmup == 0 && !print_command)
		usage_error("--runs 0 and --warmup 0: nothing to run");
	if (ra.o.shard.count && (ra.auto_runs || print_command))
		usage_error("--shard takes whole rounds: it cannot go with %s",
			    ra.auto_runs ? "--runs auto" : "--print-command");

	if (ra.o.shard.count) {
		if (ra.o.shard.index >= ra.o.runs)
			warning("--runs %d gives %d shards a measured round: shard %d/%d runs only "
				"the warm-ups", ra.o.runs, ra.o.runs, ra.o.shard.index + 1,
				ra.o.shard.count);
		shard_dir = shard_dir_path(ra.o.dir, "run", &ra.o.shard);
		if (shard_dir_make(ra.o.dir, shard_dir, "run", &ra.o.shard))
			goto out;
		ra.o.dir = shard_dir;
	}
	if (experiment_open(&st, ra.o.dir, 0) || (shard_dir && check_shard_seed(st, &ra)))
		goto out;
	locked = experiment_lock(&lock, ra.o.dir, "running");
	if (locked) {
		ret = locked > 0 ? EXPERIMENT_BUSY : 1;
		goto out;
	}
	if (print_command) {
		if (measure_print_command(st, &ra.o, print_command, &command))
			goto out;
		printf("%s\n", command.buf);
		ret = 0;
		goto out;
	}
	/* a shard says whether its schedule ran to the end, for merge */
	if (shard_dir && store_set_meta(st, META_SHARD_COMPLETE, "no"))
		goto out;
	rc = run_args_measure(&ra, st, STATS_OPTIONS_DEFAULT_NOISE);
	if (shard_dir && rc >= 0 && store_set_meta(st, META_SHARD_COMPLETE, "yes"))
		rc = -1;
	ret = rc ? 1 : 0;
out:
	store_close(st);
	lockfile_release(&lock);
	run_args_release(&ra);
	strbuf_release(&command);
	free(shard_dir);
	return ret;
}
