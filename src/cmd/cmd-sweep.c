/* cmd-sweep.c: kconfperf sweep: plan, build, run and report in one resumable command. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stats/analyze.h"
#include "cmd/cmd-options.h"
#include "cmd/commands.h"
#include "store/experiment.h"
#include "kbuild/kbuild-variants.h"
#include "kbuild/kbuild.h"
#include "run/measure.h"
#include "plan/plan-set.h"
#include "plan/plan.h"
#include "report/report.h"
#include "plan/kernel-source.h"
#include "store/status.h"
#include "store/store.h"
#include "util/lockfile.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

static const char *const sweep_usage[] = {
	"kconfperf sweep --source [NAME=]SRC... [--patch [NAME=]FILE]... --base BASE\n"
	"                       [--base-add FRAG|CONFIG_X=y]...\n"
	"                       (--options FILE|LIST | --options-from-diff OLD NEW)\n"
	"                       [--design oat,all,loo,cumulative] [--no-baseline-again]\n"
	"                       --workload NAME[:k=v,...]... [--runs N|auto] [--max-runs N]\n"
	"                       [--clock icount[:SHIFT]|icount-idle|host] [--dir DIR] [--new]\n"
	"                       [--noise PCT] [<build and run options>]",
	"kconfperf sweep ... --workload 'cmd:PROGRAM ARGS' [--scratch SIZE[:ram,lvm,crypt,ext4]]...\n"
	"                       [--extract NAME,UNIT,higher|lower,re:REGEX|csv:FIELD|json:KEY]...",
	"",
	"The whole experiment in one go, in one directory: resolves the variants with",
	"the kernel's Kconfig, builds each distinct kernel once, boots each variant",
	"--runs times per workload in randomized rounds, and prints the text report;",
	"DIR/report.html and DIR/report.json are written too.  Running the same command",
	"again resumes: finished builds and runs are reused and only what is missing is",
	"done.  Other inputs in an existing DIR are refused unless --new is given.",
	"One kconfperf works in a DIR at a time: a second plan, build, run, sweep or",
	"screen there exits 3 at once, naming the first (docs/trust.md).",
	"",
	"A workload cmd:PROGRAM ARGS runs a program of this host inside each guest,",
	"which sees the host's root read-only over virtio-9p; its samples are its",
	"guest wall time and what each --extract after it takes from its output.",
	"--scratch gives its runs disks the guest prepares (lvm, crypt, ext4), on the",
	"host or in the guest's memory (ram: no host I/O to wait for).  A",
	"workload NAME:k=v1,v2,... is a series, one table with a row per value.",
	"What the workloads need of the kernel (harness profiles 9p, disk, crypt,",
	"ramdisk) is merged into every variant and verified.",
	"--source again adds another kernel (version): each is planned with its own",
	"Kconfig and measured against its own baseline in the same rounds, and the",
	"report says how each option's cost changed between them.  --patch FILE adds",
	"the first source with FILE applied (-p1) as a source of its own, each",
	"variant measured against its unpatched twin.  Variants are then named",
	"SOURCE:VARIANT, the source named by NAME= or by its kernel version, and",
	"--options may be left out: the sources' baselines are compared.",
	NULL,
};

/*
 * The variants to be measured that have no measured run, as "a, b"
 * (empty when none); -1 on a store error.  A sweep that leaves one so
 * exits 1, as run does: its report would lack a row nobody was told of.
 */
static int unmeasured(struct store *st, const struct store_variant *v, size_t nr,
		      struct strbuf *out)
{
	struct store_run *runs = NULL;
	size_t nr_runs = 0, i, k;

	if (store_get_runs(st, &runs, &nr_runs))
		return -1;
	for (i = 0; i < nr; i++) {
		if (!variant_is_measured(v[i].status))
			continue;
		for (k = 0; k < nr_runs; k++)
			if (runs[k].variant_id == v[i].id && runs[k].status == RUN_OK &&
			    !runs[k].warmup)
				break;
		if (k == nr_runs)
			strbuf_addf(out, "%s%s", out->len ? ", " : "", v[i].name);
	}
	store_runs_free(runs, nr_runs);
	return 0;
}

int cmd_sweep(int argc, const char **argv)
{
	struct plan_args pa = PLAN_ARGS_AA_INIT;
	struct run_args ra = RUN_ARGS_AUTO_INIT;
	struct experiment_inputs e = EXPERIMENT_INPUTS_INIT;
	struct kbuild_summary sum;
	struct plan_set ps = PLAN_SET_INIT;
	struct store *st = NULL;
	struct store_variant *v = NULL;
	size_t nr = 0;
	const char *dir_opt = EXPERIMENT_DEFAULT_DIR;
	char key[SHA256_HEX_SIZE];
	double noise = 1.0, start = now_seconds();
	struct lockfile lock = LOCKFILE_INIT;
	struct strbuf missing = STRBUF_INIT;
	int jobs = 0, start_new = 0, resume, measured, ret = 1, locked, fresh = 0;
	const struct option opts[] = {
		OPT_GROUP("what to measure:"),
		OPT_PLAN_ARGS(&pa),
		OPT_GROUP("how to build:"),
		OPT_JOBS(&jobs, "make -j and parallel olddefconfig, 1 to 1024 (default: CPUs)"),
		OPT_STRING(0, "cc-wrapper", &e.build.cc_wrapper, "CMD",
			   "compile through ccache, distcc or icecc (see 'kconfperf help build')"),
		OPT_GROUP("how to run:"),
		OPT_RUN_ARGS(&ra),
		OPT_RUNS_AUTO(&ra),
		OPT_GROUP("where and how to report:"),
		OPT_STRING(0, "dir", &dir_opt, "DIR", "experiment directory (default kconfperf-results)"),
		OPT_BOOL(0, "new", &start_new, "start over in DIR if it holds another experiment"),
		OPT_DOUBLE(0, "noise", &noise, "PCT", "changes within +-PCT% count as no effect (default 1)"),
		OPT_BOOL('q', "quiet", &quiet, "print no progress"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, sweep_usage);
	plan_args_finish(&pa, &argc, &argv, "sweep");
	if (argc)
		usage_error("unexpected argument '%s'", argv[0]);
	run_args_finish(&ra, 0);
	run_args_harness(&ra, &pa);
	check_noise_option(noise);

	/* The whole sweep holds the experiment: a second one is refused, not mixed in. */
	if (experiment_check_dir(dir_opt))
		goto out;
	locked = experiment_lock(&lock, dir_opt, "sweeping");
	if (locked) {
		ret = locked > 0 ? EXPERIMENT_BUSY : 1;
		goto out;
	}
	fresh = !experiment_exists(dir_opt);
	if (experiment_inputs_open(&e, &pa, &ra, dir_opt, jobs))
		goto out;
	if (plan_set_key(&pa.o, &e.sources, key))
		goto out;
	resume = experiment_check_plan(e.dir, key, start_new);
	if (resume < 0 || experiment_open(&st, e.dir, 1))
		goto out;
	if (!resume)
		fresh = 1;	/* a plan made now: undone if it fails */

	/* plan */
	if (resume) {
		note("resuming the experiment in '%s'", dir_opt);
	} else {
		if (e.sources.nr == 1)
			note("plan: resolving variants with %s's Kconfig", e.sources.v[0].ks.version);
		if (plan_set_make(&ps, &pa.o, &e.sources) ||
		    plan_set_save(&ps, &e.sources, &pa.o, st, e.cache, pa.designs))
			goto out;
		fresh = 0;
		if (!quiet)
			plan_print_table(st, stderr);
	}

	/* build */
	if (store_get_variants(st, &v, &nr))
		goto out;
	if (kbuild_prepare(&e.build) ||
	    kbuild_sources(&e.build, &e.sources, st, v, nr, quiet ? NULL : stderr, &sum))
		goto out;

	/* run */
	measured = run_args_measure(&ra, st, noise);
	if (measured < 0)
		goto out;

	/* report */
	if (report_experiment(st, dir_opt, noise) || unmeasured(st, v, nr, &missing))
		goto out;
	if (missing.len)
		warning("not measured: %s", missing.buf);
	note("sweep took %.0f s", now_seconds() - start);
	ret = (sum.failed || measured || missing.len) ? 1 : 0;
out:
	plan_set_release(&ps);
	store_variants_free(v, nr);
	store_close(st);
	if (ret && fresh && st)
		experiment_discard(dir_opt);	/* no plan: not an experiment */
	lockfile_release(&lock);
	strbuf_release(&missing);
	experiment_inputs_release(&e);
	plan_args_release(&pa);
	run_args_release(&ra);
	return ret;
}
