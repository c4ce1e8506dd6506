/* cmd-profile.c: kconfperf profile: where a variant's instructions go, per kernel function, or two side by side. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "report/profile-format.h"
#include "run/meter.h"
#include "store/experiment.h"
#include "store/meta-keys.h"
#include "store/profile.h"
#include "store/store-meter.h"
#include "store/store.h"
#include "util/parse-options.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "util/wrapper.h"

static const char *const profile_usage[] = {
	"kconfperf profile [--dir DIR] [--workload W] [--phase boot|work|all]\n"
	"                         [--format text|callgrind] [--top N] [-o FILE] [VARIANT]",
	"kconfperf profile [--dir DIR] --run ID [--phase P] [--format F] [-o FILE]",
	"kconfperf profile [--dir DIR] [--workload W] [--phase P] [--top N] --diff A B",
	"",
	"Where the guest's instructions went, per kernel function, as the instruction",
	"meter counted them (docs/meter.md).  A variant's profile (the baseline by",
	"default) is the mean over its ok measured runs of the workload, names matched",
	"across builds (.isra.N, .constprop.N, .part.N, .cold stripped, static",
	"functions of one name summed); as text it is per operation, as the",
	"workload's instructions metric is (per system call, fork, iteration), and",
	"callgrind's format (callgrind_annotate, KCachegrind, cg_diff) has each run's",
	"mean whole.  --run ID gives one stored run's counts with System.map's names.",
	"--diff A B sets two variants side by side, as perf diff does: each",
	"function's change and its share of the change in busy instructions.",
	"The phase is boot (the kernel's start to init: the boot workload's), work",
	"(the workload's iterations: the default for the others) or all (the",
	"whole run: libguestfs's).",
	NULL,
};

/* The workload: the one given, else the experiment's only one. */
static int choose_workload(struct store *st, const char *dir, const char *given,
			   struct strbuf *out)
{
	char *all = store_get_meta(st, META_WORKLOADS);
	struct strvec v = STRVEC_INIT;
	int ret = 0;

	if (all)
		strvec_split(&v, all, "\n");
	if (given) {
		if (v.nr && strvec_find(&v, given) < 0)
			ret = error("'%s' ran no workload '%s' (it ran: %s)", dir, given, all);
		strbuf_addstr(out, given);
	} else if (v.nr == 1) {
		strbuf_addstr(out, v.v[0]);
	} else if (!v.nr) {
		ret = error("'%s' has no runs yet", dir);
	} else {
		ret = error("'%s' ran several workloads: choose one with --workload (%s)", dir,
			    all);
	}
	strvec_clear(&v);
	free(all);
	return ret;
}

static const struct store_variant *find_variant(const struct store_variant *v, size_t nr,
						const char *name, const char *dir)
{
	struct strbuf names = STRBUF_INIT;
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	for (i = 0; i < nr; i++)
		strbuf_addf(&names, "%s%s", i ? ", " : "", v[i].name);
	error("'%s' has no variant '%s' (variants: %s)", dir, name, names.buf);
	strbuf_release(&names);
	return NULL;
}

/* The workload's name from its spec ("syscall:calls=10" -> "syscall"). */
static char *workload_name(const char *spec)
{
	return xstrndup(spec, strcspn(spec, ":"));
}

/* A variant's profile, or an error saying why there is none. */
static int variant_profile(struct store *st, const struct store_variant *v, const char *workload,
			   enum store_meter_phase phase, int per_op, struct profile *out)
{
	int nr_runs;

	if (store_get_variant_profile(st, v->id, workload, phase, per_op, out, &nr_runs))
		return -1;
	if (!nr_runs)
		return error("%s has no ok runs of %s with per-function counts of the %s phase "
			     "(runs without the meter, or without System.map in the build cache, "
			     "have none)", v->name, workload, store_meter_phase_name(phase));
	return 0;
}

static const char *unit_of(const char *name, enum store_meter_phase phase, int per_op)
{
	if (phase != STORE_METER_WORK)
		return "insn per run";
	if (!per_op)
		return "insn per run (all iterations)";
	if (!strcmp(name, "syscall"))
		return "insn per call";
	if (!strcmp(name, "fork"))
		return "insn per fork";
	if (!strcmp(name, "pipe"))
		return "insn per round trip";
	return "insn per iteration";
}

int cmd_profile(int argc, const char **argv)
{
	struct store *st = NULL;
	struct store_variant *variants = NULL;
	size_t nr_variants = 0;
	struct profile a = PROFILE_INIT, b = PROFILE_INIT;
	struct strbuf out = STRBUF_INIT, workload = STRBUF_INIT, cmd = STRBUF_INIT, desc = STRBUF_INIT;
	const char *dir = EXPERIMENT_DEFAULT_DIR, *format = "text", *output = NULL;
	const char *phase_arg = NULL, *workload_arg = NULL, *diff = NULL;
	enum store_meter_phase phase;
	int top = 30, run_id = 0, callgrind, ret = 1;
	char *name = NULL;
	const struct option opts[] = {
		OPT_STRING(0, "dir", &dir, "DIR", "experiment directory (default kconfperf-results)"),
		OPT_STRING(0, "workload", &workload_arg, "W", "the workload (default: the only one)"),
		OPT_STRING(0, "phase", &phase_arg, "boot|work|all",
			   "which part of the runs (default: the workload's metric's)"),
		OPT_STRING(0, "format", &format, "FORMAT", "text or callgrind (default text)"),
		OPT_INTEGER(0, "top", &top, "N", "rows of text (default 30; 0: all)"),
		OPT_INTEGER(0, "run", &run_id, "ID", "one stored run's counts instead"),
		OPT_STRING(0, "diff", &diff, "A", "set variant A and the variant after it side by side"),
		OPT_STRING('o', "output", &output, "FILE",
			   "write to FILE (replaced atomically) instead of stdout"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, profile_usage);
	if (argc > 1)
		usage_error("unexpected argument '%s'", argv[1]);
	if (strcmp(format, "text") && strcmp(format, "callgrind"))
		usage_error("unknown --format '%s' (text or callgrind)", format);
	callgrind = !strcmp(format, "callgrind");
	if (diff && !argc)
		usage_error("--diff A B takes two variants");
	if (diff && (callgrind || run_id))
		usage_error("--diff writes text: for callgrind's format write each variant's "
			    "profile and compare them with cg_diff");
	if (run_id < 0 || top < 0)
		usage_error("--run and --top take numbers of 0 or more");
	if (phase_arg && store_meter_phase_parse(&phase, phase_arg))
		usage_error("--phase is boot, work or all, not '%s'", phase_arg);

	if (experiment_open_readonly(&st, dir))
		goto out;
	if (run_id) {
		struct store_meter m = STORE_METER_INIT;
		int rc = store_get_meter(st, run_id, &m);

		if (rc <= 0) {
			if (!rc)
				error("'%s' has no meter counts for run %d", dir, run_id);
			goto out;
		}
		if (!phase_arg)
			phase = STORE_METER_ALL;
		rc = store_get_run_profile(st, run_id, phase, &a);
		if (!rc)
			error("run %d has no per-function counts of the %s phase%s%s", run_id,
			      store_meter_phase_name(phase), m.note ? ": " : "", m.note ? m.note : "");
		store_meter_release(&m);
		if (rc <= 0)
			goto out;
		strbuf_addf(&cmd, "kconfperf profile --run %d --phase %s", run_id,
			    store_meter_phase_name(phase));
		strbuf_addf(&desc, "guest instructions of run %d (%s phase), by kernel function",
			    run_id, store_meter_phase_name(phase));
		if (callgrind)
			profile_write_callgrind(&out, &a, cmd.buf, desc.buf);
		else
			profile_write_text(&out, &a, top, "insn");
	} else {
		const struct store_variant *va, *vb = NULL;
		int per_op = !callgrind;

		if (store_get_variants(st, &variants, &nr_variants) ||
		    choose_workload(st, dir, workload_arg, &workload))
			goto out;
		name = workload_name(workload.buf);
		if (!phase_arg)
			phase = meter_metric_phase(name);
		va = find_variant(variants, nr_variants, diff ? diff : argc ? argv[0] : "baseline", dir);
		if (!va || (diff && !(vb = find_variant(variants, nr_variants, argv[0], dir))))
			goto out;
		if (variant_profile(st, va, workload.buf, phase, per_op, &a) ||
		    (vb && variant_profile(st, vb, workload.buf, phase, per_op, &b)))
			goto out;
		if (vb) {
			profile_write_diff(&out, &a, &b, va->name, vb->name, top,
					   unit_of(name, phase, per_op));
		} else if (callgrind) {
			strbuf_addf(&cmd, "kconfperf profile --workload %s --phase %s %s", workload.buf,
				    store_meter_phase_name(phase), va->name);
			strbuf_addf(&desc, "variant %s, workload %s, %s phase\n"
				    "guest instructions per run (the mean of its runs) by kernel function",
				    va->name, workload.buf, store_meter_phase_name(phase));
			profile_write_callgrind(&out, &a, cmd.buf, desc.buf);
		} else {
			strbuf_addf(&out, "%s on %s, %s phase\n", va->name, workload.buf,
				    store_meter_phase_name(phase));
			profile_write_text(&out, &a, top, unit_of(name, phase, per_op));
		}
	}
	if (strbuf_write_output(&out, output ? output : "-"))
		goto out;
	ret = 0;
out:
	store_variants_free(variants, nr_variants);
	profile_release(&a);
	profile_release(&b);
	strbuf_release(&out);
	strbuf_release(&workload);
	strbuf_release(&cmd);
	strbuf_release(&desc);
	free(name);
	store_close(st);
	return ret;
}
