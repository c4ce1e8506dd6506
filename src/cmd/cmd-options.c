/* cmd-options.c: option tables and checks that several commands share. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd-options.h"
#include "store/experiment.h"
#include "plan/harness.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "run/vm.h"
#include "run/workload-spec.h"
#include "util/wrapper.h"

void plan_args_finish(struct plan_args *a, int *argc, const char ***argv, const char *command)
{
	if (a->o.diff_old) {
		if (*argc < 1)
			usage_error("--options-from-diff needs two files: OLD.config NEW.config");
		a->o.diff_new = (*argv)[0];
		(*argc)--;
		(*argv)++;
	}
	if (!a->sources.nr || !a->o.base)
		usage_error("%s needs --source and --base", command);
	if (!a->o.options && !a->o.diff_old && a->sources.nr + a->patches.nr < 2)
		usage_error("%s needs --options or --options-from-diff (or several sources "
			    "to compare)", command);
	if (a->o.options && a->o.diff_old)
		usage_error("--options and --options-from-diff cannot be combined");
	if (plan_parse_designs(&a->o.designs, a->designs))
		usage_error("bad --design '%s'", a->designs);
	if (a->o.cross_compile && !*a->o.cross_compile)
		usage_error("--cross-compile needs a prefix such as aarch64-linux-gnu-");
	if (plan_choose_arch(&a->o))
		exit(2);
}

void plan_args_release(struct plan_args *a)
{
	plan_options_release(&a->o);
	strvec_clear(&a->sources);
	strvec_clear(&a->patches);
}

/* A decimal integer in [min, max] into *out: 0, or -1 (no message). */
static int int_in_range(int *out, const char *arg, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < min || v > max)
		return -1;
	*out = (int)v;
	return 0;
}

void check_noise_option(double noise)
{
	if (!(noise >= 0) || noise >= 100)
		usage_error("--noise must be a percentage from 0 to 100, not %g", noise);
}

int parse_jobs_option(const struct option *opt, const char *arg)
{
	if (int_in_range(opt->value, arg, 1, JOBS_MAX))
		return error("-j takes a number of jobs from 1 to %d, not '%s'", JOBS_MAX, arg);
	return 0;
}

int parse_smp_option(const struct option *opt, const char *arg)
{
	if (int_in_range(opt->value, arg, 1, VM_MAX_SMP))
		return error("--%s takes a number of guest CPUs from 1 to %d, not '%s'",
			     opt->long_name, VM_MAX_SMP, arg);
	return 0;
}

int parse_guests_option(const struct option *opt, const char *arg)
{
	if (int_in_range(opt->value, arg, 1, GUESTS_MAX))
		return error("--%s takes how many guests run side by side, from 1 to %d, not '%s'",
			     opt->long_name, GUESTS_MAX, arg);
	return 0;
}

int parse_mem_option(const struct option *opt, const char *arg)
{
	if (int_in_range(opt->value, arg, VM_MIN_MEM_MB, VM_MAX_MEM_MB))
		return error("--%s takes the guest's memory in MB, from %d to %d, not '%s'",
			     opt->long_name, VM_MIN_MEM_MB, VM_MAX_MEM_MB, arg);
	return 0;
}

int parse_timeout_option(const struct option *opt, const char *arg)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	/* decimal only: strtod() would take 0x10 for 16 */
	if (errno || end == arg || *end || strpbrk(arg, "xXpP") || !(v > 0 && v <= VM_MAX_TIMEOUT))
		return error("--%s takes seconds, more than 0 and at most %.0f (a week), not '%s'",
			     opt->long_name, VM_MAX_TIMEOUT, arg);
	*(double *)opt->value = v;
	return 0;
}

int parse_accel_option(const struct option *opt, const char *arg)
{
	return vm_accel_parse(opt->value, arg);
}

int parse_shard_option(const struct option *opt, const char *arg)
{
	return shard_parse(opt->value, arg);
}

int parse_clock_option(const struct option *opt, const char *arg)
{
	struct measure_options *o = opt->value;

	return vm_clock_parse(&o->clock, &o->icount_shift, arg);
}

int run_args_measure(struct run_args *a, struct store *st, double noise)
{
	if (!a->auto_runs)
		return measure_runs(st, &a->o);
	a->adaptive.target = noise;
	return adaptive_runs(st, &a->o, &a->adaptive);
}

static int attach(const struct option *opt, const char *arg, int extract)
{
	struct run_args *a = opt->value;
	struct run_attachment *at;

	if (!a->workloads.nr)
		return error("--%s '%s' comes after the --workload it is for",
			     extract ? "extract" : "scratch", arg);
	a->attached = xrealloc(a->attached, (a->nr_attached + 1) * sizeof(*a->attached));
	at = &a->attached[a->nr_attached++];
	at->workload = a->workloads.nr - 1;
	at->extract = extract;
	at->arg = xstrdup(arg);
	return 0;
}

int parse_scratch_option(const struct option *opt, const char *arg)
{
	return attach(opt, arg, 0);
}

int parse_extract_option(const struct option *opt, const char *arg)
{
	return attach(opt, arg, 1);
}

/* Parses --workload number w (a spec or a series) with its --scratch and --extract. */
static int parse_workload(struct run_args *a, size_t w)
{
	struct strvec scratch = STRVEC_INIT, extracts = STRVEC_INIT;
	struct strbuf label = STRBUF_INIT;
	size_t i;
	int ret;

	for (i = 0; i < a->nr_attached; i++)
		if (a->attached[i].workload == w)
			strvec_push(a->attached[i].extract ? &extracts : &scratch, a->attached[i].arg);
	ret = workload_spec_parse_arg(&a->specs, &a->nr_specs, &label, a->workloads.v[w],
				      &scratch, &extracts);
	if (!ret && label.len)
		strvec_push(&a->series, label.buf);
	strvec_clear(&scratch);
	strvec_clear(&extracts);
	strbuf_release(&label);
	return ret;
}

void check_ram_disks(const struct workload_spec *spec, int mem_mb)
{
	unsigned long long total = 0;
	const char *last = NULL;
	size_t i;

	for (i = 0; i < spec->nr_scratch; i++) {
		if (!workload_scratch_in_ram(&spec->scratch[i]))
			continue;
		total += spec->scratch[i].bytes;
		last = spec->scratch[i].spec;
	}
	if (last && total + ((unsigned long long)VM_MIN_MEM_MB << 20) > (unsigned long long)mem_mb << 20)
		usage_error("--scratch %s: the disks in the guest's memory (%llu MB in all) must be "
			    "smaller than --mem (%d MB), with %d MB to spare for the guest", last,
			    total >> 20, mem_mb, VM_MIN_MEM_MB);
}

void run_args_finish(struct run_args *a, int allow_none)
{
	size_t i;

	if (!a->workloads.nr && !allow_none)
		usage_error("a --workload is needed (see 'kconfperf workloads')");
	if (!strcmp(a->runs, "auto")) {
		a->auto_runs = 1;
		a->o.runs = a->adaptive.min_runs;
	} else {
		char *end;
		long n;

		errno = 0;
		n = strtol(a->runs, &end, 10);
		if (errno || end == a->runs || *end || n < 0 || n > RUNS_MAX)
			usage_error("--runs takes a number of rounds or 'auto', not '%s'", a->runs);
		a->o.runs = (int)n;
	}
	if (a->adaptive.max_runs < a->adaptive.min_runs)
		usage_error("--max-runs must be at least %d", a->adaptive.min_runs);
	if (a->o.runs < 0)
		usage_error("--runs cannot be negative");
	/* As --runs: a schedule of a billion warm-ups would be gigabytes. */
	if (a->o.warmup < 0 || a->o.warmup > RUNS_MAX)
		usage_error("--warmup takes a number of rounds from 0 to %d, not '%d'", RUNS_MAX,
			    a->o.warmup);
	for (i = 0; i < a->workloads.nr; i++)
		if (parse_workload(a, i))
			exit(2);
	for (i = 0; i < a->nr_specs; i++)
		check_ram_disks(&a->specs[i], a->o.mem_mb > 0 ? a->o.mem_mb : VM_DEFAULT_MEM_MB);
	if (!a->specs)
		a->specs = xcalloc(1, sizeof(*a->specs));
	a->o.workloads = a->specs;
	a->o.nr_workloads = a->nr_specs;
	a->o.series = (const char *const *)a->series.v;
	a->o.nr_series = a->series.nr;
}

void run_args_harness(const struct run_args *a, struct plan_args *pa)
{
	struct strvec need = STRVEC_INIT;
	size_t i;

	for (i = 0; i < a->nr_specs; i++)
		workload_spec_profiles(&a->specs[i], &need);
	for (i = 0; i < need.nr; i++)
		strvec_push(&pa->o.harness, need.v[i]);
	strvec_clear(&need);
}

void run_args_release(struct run_args *a)
{
	size_t i;

	for (i = 0; i < a->nr_specs; i++)
		workload_spec_release(&a->specs[i]);
	free(a->specs);
	a->specs = NULL;
	a->nr_specs = 0;
	for (i = 0; i < a->nr_attached; i++)
		free(a->attached[i].arg);
	free(a->attached);
	a->attached = NULL;
	a->nr_attached = 0;
	strvec_clear(&a->workloads);
	strvec_clear(&a->series);
}

int experiment_inputs_open(struct experiment_inputs *e, struct plan_args *pa,
			   struct run_args *ra, const char *dir_opt, int jobs)
{
	e->dir = absolute_path(dir_opt);
	e->cache = pa->cache ? absolute_path(pa->cache) : default_cache_dir();
	e->work = experiment_path(e->dir, "work");
	e->logs = experiment_path(e->dir, "logs");
	if (!e->cache || experiment_check_dir(dir_opt) ||
	    source_set_open(&e->sources, &pa->sources, &pa->patches, e->cache))
		return -1;
	pa->o.source = &e->sources.v[0].ks;
	pa->o.label = e->sources.v[0].label;
	pa->o.work_dir = e->work;
	pa->o.jobs = jobs;
	e->build.source = &e->sources.v[0].ks;
	e->build.cache_dir = e->cache;
	e->build.log_dir = e->logs;
	e->build.jobs = jobs;
	e->build.arch = plan_arch(&pa->o);
	e->build.cross_compile = pa->o.cross_compile;
	ra->o.dir = e->dir;
	return 0;
}

void experiment_inputs_release(struct experiment_inputs *e)
{
	kbuild_options_release(&e->build);
	source_set_release(&e->sources);
	free(e->dir);
	free(e->cache);
	free(e->work);
	free(e->logs);
}
