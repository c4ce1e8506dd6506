/* cmd-run.c: kconfperf run: boot every built variant with each workload, many times, and keep every run. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "experiment.h"
#include "measure.h"
#include "parse-options.h"
#include "store.h"
#include "strbuf.h"
#include "strvec.h"
#include "usage.h"
#include "vm.h"
#include "workload-spec.h"
#include "wrapper.h"

static const char *const run_usage[] = {
	"kconfperf run [--dir DIR] --workload NAME[:k=v,...]... [--runs N] [--warmup N]\n"
	"                     [--accel auto|kvm|tcg] [--smp N] [--mem MB] [--timeout SEC]\n"
	"                     [--seed N] [--runner CMD] [--workload-exec FILE]",
	"kconfperf run [--dir DIR] --workload NAME[:k=v,...] --print-command VARIANT",
	"",
	"Boots each built variant under qemu (or --runner) with each workload: first",
	"--warmup rounds, kept but marked as warm-ups, then --runs rounds.  Each round",
	"runs every variant once in a random order drawn from --seed.  Every run is",
	"stored the moment it ends, failed ones too (timeout, panic, guest error), so",
	"an interrupted experiment loses no finished run: the same command again runs",
	"only what is missing, in the order it would have had.  No-op and same-as",
	"variants are not run: they are measured as the variant they equal.",
	"Exit status 0 when every run was ok, 1 when some failed or a variant was skipped.",
	NULL,
};

static enum vm_accel accel_opt = VM_ACCEL_AUTO;

static int parse_accel(const struct option *opt, const char *arg)
{
	return vm_accel_parse(&accel_opt, arg);
}

int cmd_run(int argc, const char **argv)
{
	struct measure_options o = MEASURE_OPTIONS_INIT;
	struct strvec workloads = STRVEC_INIT;
	struct workload_spec *specs = NULL;
	struct strbuf command = STRBUF_INIT;
	struct store *st = NULL;
	const char *print_command = NULL;
	size_t i, nr_specs = 0;
	int ret = 1;
	const struct option opts[] = {
		OPT_STRING(0, "dir", &o.dir, "DIR", "experiment directory (default kconfperf-results)"),
		OPT_STRING_LIST('w', "workload", &workloads, "NAME[:k=v,...]",
				"a guest workload (repeatable; see 'kconfperf workloads')"),
		OPT_INTEGER(0, "runs", &o.runs, "N", "measured rounds per workload (default 10)"),
		OPT_INTEGER(0, "warmup", &o.warmup, "N", "warm-up rounds per workload (default 1)"),
		OPT_CALLBACK(0, "accel", NULL, "auto|kvm|tcg",
			     "accelerator; auto probes KVM with a bounded boot (default auto)",
			     parse_accel),
		OPT_INTEGER(0, "smp", &o.smp, "N", "guest CPUs (default 1: the least noise)"),
		OPT_INTEGER(0, "mem", &o.mem_mb, "MB", "guest memory (default 512)"),
		OPT_DOUBLE(0, "timeout", &o.timeout, "SEC",
			   "kill a run after SEC seconds and record a timeout (default 120)"),
		OPT_STRING(0, "seed", &o.seed, "N",
			   "seed of the run order (default: the stored one, else random)"),
		OPT_STRING(0, "cpu", &o.cpu, "MODEL", "qemu -cpu under tcg (default " VM_DEFAULT_TCG_CPU ")"),
		OPT_STRING(0, "qemu", &o.qemu, "PROGRAM", "qemu binary (default " VM_DEFAULT_QEMU ")"),
		OPT_STRING(0, "runner", &o.runner, "CMD", "run CMD instead of qemu (see 'kconfperf vm')"),
		OPT_STRING(0, "workload-exec", &o.workload_exec, "FILE",
			   "a static program for the exec workload, copied to /workload"),
		OPT_STRING(0, "print-command", &print_command, "VARIANT",
			   "print the shell command of one of VARIANT's runs and exit"),
		OPT_BOOL('q', "quiet", &quiet, "print no progress"),
		OPT_END(),
	};

	o.dir = EXPERIMENT_DEFAULT_DIR;
	argc = parse_options(argc, argv, opts, run_usage);
	if (argc)
		usage_error("unexpected argument '%s'", argv[0]);
	if (!workloads.nr)
		usage_error("run needs --workload (see 'kconfperf workloads')");
	if (o.runs < 0 || o.warmup < 0 || o.smp < 0 || o.mem_mb < 0 || o.timeout < 0)
		usage_error("--runs, --warmup, --smp, --mem and --timeout cannot be negative");
	if (o.runs == 0 && o.warmup == 0 && !print_command)
		usage_error("--runs 0 and --warmup 0: nothing to run");
	o.accel = accel_opt;

	specs = xcalloc(workloads.nr, sizeof(*specs));
	for (i = 0; i < workloads.nr; i++) {
		struct workload_spec blank = WORKLOAD_SPEC_INIT;

		specs[i] = blank;
		if (workload_spec_parse(&specs[i], workloads.v[i])) {
			ret = 2;
			goto out;
		}
		nr_specs++;
	}
	o.workloads = specs;
	o.nr_workloads = nr_specs;

	if (experiment_open(&st, o.dir, 0))
		goto out;
	if (print_command) {
		if (measure_print_command(st, &o, print_command, &command))
			goto out;
		printf("%s\n", command.buf);
		ret = 0;
		goto out;
	}
	ret = measure_runs(st, &o) ? 1 : 0;
out:
	store_close(st);
	for (i = 0; i < nr_specs; i++)
		workload_spec_release(&specs[i]);
	free(specs);
	strvec_clear(&workloads);
	strbuf_release(&command);
	return ret;
}
