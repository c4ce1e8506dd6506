/* cmd-plan.c: kconfperf plan: resolve every variant with the kernel's Kconfig. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd-options.h"
#include "cmd/commands.h"
#include "util/escape.h"
#include "store/experiment.h"
#include "util/parse-options.h"
#include "plan/plan.h"
#include "plan/source.h"
#include "store/store.h"
#include "util/usage.h"
#include "util/wrapper.h"

static const char *const plan_usage[] = {
	"kconfperf plan --source SRC --base BASE [--base-add FRAG|CONFIG_X=y]...\n"
	"                      (--options FILE|LIST | --options-from-diff OLD NEW)\n"
	"                      [--design oat,all,loo,cumulative] [--with-deps] [--slim] [--harness PROFILE,...]\n"
	"                      [--arch x86_64|arm64] [--cross-compile PREFIX] [-j N] [--dir DIR]",
	"kconfperf plan [--dir DIR]                 (print the stored plan)",
	"kconfperf plan --show VARIANT [--dir DIR]  (its effective diff, diffconfig style)",
	"kconfperf plan --slimmed [--dir DIR]       (what --slim turned off)",
	"",
	"Resolves the baseline and each variant with the kernel's own 'make olddefconfig',",
	"says which requested settings took and why the others did not, and stores the",
	"plan in DIR/kconfperf.db.  Variants with the same effective config are built",
	"and measured once.  --arch arm64 resolves (and later builds) with ARCH=arm64",
	"CROSS_COMPILE=aarch64-linux-gnu-; a baseline .config's own arch is taken",
	"when --arch is not given, and one that contradicts --arch is refused.",
	NULL,
};

/* A plan with runs must not be silently replaced by a different one. */
static int check_replace(struct store *st, const char *key, const char *dir)
{
	char *old = store_get_meta(st, "plan_key");
	int ret = 0;

	if (old && strcmp(old, key) && store_count_runs(st) > 0)
		ret = error("'%s' holds runs of a different plan; use another --dir to "
			    "start a new experiment", dir);
	free(old);
	return ret;
}

static int show_variant(struct store *st, const char *name)
{
	struct strbuf diff = STRBUF_INIT;
	struct store_variant *v;
	size_t nr, i;
	int ret = -1;

	if (store_get_variants(st, &v, &nr))
		return -1;
	for (i = 0; i < nr; i++) {
		if (strcmp(v[i].name, name))
			continue;
		strbuf_add_text_lines(&diff, v[i].effective_diff);	/* the user's values */
		fputs(diff.buf, stdout);
		ret = 0;
		break;
	}
	if (ret) {
		struct strbuf names = STRBUF_INIT;

		for (i = 0; i < nr; i++)
			strbuf_addf(&names, "%s%s", i ? ", " : "", v[i].name);
		error("no variant '%s' in the plan (variants: %s)", name, names.buf);
		strbuf_release(&names);
	}
	store_variants_free(v, nr);
	strbuf_release(&diff);
	return ret;
}

int cmd_plan(int argc, const char **argv)
{
	struct plan_args pa = PLAN_ARGS_AA_INIT;
	struct kernel_source ks = KERNEL_SOURCE_INIT;
	struct plan p = PLAN_INIT;
	struct store *st = NULL;
	const char *dir = EXPERIMENT_DEFAULT_DIR, *show = NULL;
	char *cache = NULL, *work = NULL, *abs = NULL;
	int ret = 1, slimmed = 0;
	const struct option opts[] = {
		OPT_PLAN_ARGS(&pa),
		OPT_INTEGER('j', "jobs", &pa.o.jobs, "N", "parallel olddefconfig runs (default: CPUs)"),
		OPT_STRING(0, "dir", &dir, "DIR", "experiment directory (default kconfperf-results)"),
		OPT_STRING(0, "show", &show, "VARIANT", "print a variant's effective diff"),
		OPT_BOOL(0, "slimmed", &slimmed, "print what --slim turned off"),
		OPT_BOOL('q', "quiet", &quiet, "print no progress"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, plan_usage);
	if (show || slimmed ||
	    (argc == 0 && !pa.source && !pa.o.base && !pa.o.options && !pa.o.diff_old)) {
		if (argc)
			usage_error("unexpected argument '%s'", argv[0]);
		if (experiment_open_readonly(&st, dir))
			goto out;
		if (slimmed)
			ret = plan_print_slimmed(st, stdout) ? 1 : 0;
		else
			ret = (show ? show_variant(st, show) : plan_print_table(st, stdout)) ? 1 : 0;
		goto out;
	}
	plan_args_finish(&pa, &argc, &argv, "plan");
	if (argc)
		usage_error("unexpected argument '%s'", argv[0]);

	cache = pa.cache ? absolute_path(pa.cache) : default_cache_dir();
	if (experiment_check_dir(dir) || kernel_source_open(&ks, pa.source, cache))
		goto out;
	if (experiment_open(&st, dir, 1))
		goto out;
	abs = absolute_path(dir);
	work = experiment_path(abs, "work");
	pa.o.source = &ks;
	pa.o.work_dir = work;
	if (plan_make(&p, &pa.o))
		goto out;
	if (check_replace(st, p.key, dir) || plan_save_inputs(st, &ks, &pa.o, cache, pa.designs) ||
	    plan_save(&p, st))
		goto out;
	note("resolved %zu variants of %s in %.1f s", p.nr_variants, ks.version, p.seconds);
	ret = plan_print_table(st, stdout) ? 1 : 0;
out:
	plan_release(&p);
	store_close(st);
	kernel_source_release(&ks);
	plan_args_release(&pa);
	free(cache);
	free(work);
	free(abs);
	return ret;
}
