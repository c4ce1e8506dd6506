/* cmd-plan.c: kconfperf plan: resolve every variant with the kernel's Kconfig. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd-options.h"
#include "cmd/commands.h"
#include "store/meta-keys.h"
#include "util/escape.h"
#include "store/experiment.h"
#include "util/parse-options.h"
#include "plan/plan-set.h"
#include "plan/plan.h"
#include "plan/kernel-source.h"
#include "store/store.h"
#include "util/lockfile.h"
#include "util/usage.h"
#include "util/wrapper.h"

static const char *const plan_usage[] = {
	"kconfperf plan --source [NAME=]SRC... [--patch [NAME=]FILE]... --base BASE\n"
	"                      [--base-add FRAG|CONFIG_X=y]...\n"
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
	"With several sources (--source again, --patch) each is",
	"resolved with its own Kconfig and its variants are named SOURCE:VARIANT; a",
	"patch that does not apply is an error naming its file and hunk.  While",
	"another kconfperf works in DIR, plan exits 3 (docs/trust.md).",
	NULL,
};

/* A plan with runs must not be silently replaced by a different one. */
static int check_replace(struct store *st, const char *key, const char *dir)
{
	char *old = store_get_meta(st, META_PLAN_KEY);
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
	struct source_set ss = SOURCE_SET_INIT;
	struct plan_set ps = PLAN_SET_INIT;
	char key[SHA256_HEX_SIZE];
	size_t i, nr_variants = 0;
	double seconds = 0;
	struct store *st = NULL;
	const char *dir = EXPERIMENT_DEFAULT_DIR, *show = NULL;
	char *cache = NULL, *work = NULL, *abs = NULL;
	struct lockfile lock = LOCKFILE_INIT;
	int ret = 1, slimmed = 0, locked, fresh = 0;
	const struct option opts[] = {
		OPT_PLAN_ARGS(&pa),
		OPT_JOBS(&pa.o.jobs, "parallel olddefconfig runs, 1 to 1024 (default: CPUs)"),
		OPT_STRING(0, "dir", &dir, "DIR", "experiment directory (default kconfperf-results)"),
		OPT_STRING(0, "show", &show, "VARIANT", "print a variant's effective diff"),
		OPT_BOOL(0, "slimmed", &slimmed, "print what --slim turned off"),
		OPT_BOOL('q', "quiet", &quiet, "print no progress"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, plan_usage);
	if (show || slimmed || (argc == 0 && !pa.sources.nr && !pa.patches.nr && !pa.o.base &&
				!pa.o.options && !pa.o.diff_old)) {
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
	if (!cache || experiment_check_dir(dir))
		goto out;
	locked = experiment_lock(&lock, dir, "planning");
	if (locked) {
		ret = locked > 0 ? EXPERIMENT_BUSY : 1;
		goto out;
	}
	fresh = !experiment_exists(dir);
	if (source_set_open(&ss, &pa.sources, &pa.patches, cache))
		goto out;
	if (experiment_open(&st, dir, 1))
		goto out;
	abs = absolute_path(dir);
	work = experiment_path(abs, "work");
	pa.o.work_dir = work;
	if (plan_set_key(&pa.o, &ss, key) || plan_set_make(&ps, &pa.o, &ss))
		goto out;
	if (check_replace(st, key, dir) || plan_set_save(&ps, &ss, &pa.o, st, cache, pa.designs))
		goto out;
	fresh = 0;	/* it holds a plan now */
	for (i = 0; i < ps.nr; i++) {
		nr_variants += ps.plans[i].nr_variants;
		seconds += ps.plans[i].seconds;
	}
	if (ss.nr == 1)
		note("resolved %zu variants of %s in %.1f s", nr_variants, ss.v[0].ks.version,
		     seconds);
	else
		note("resolved %zu variants of %zu sources in %.1f s", nr_variants, ss.nr, seconds);
	ret = plan_print_table(st, stdout) ? 1 : 0;
out:
	plan_set_release(&ps);
	store_close(st);
	if (ret && fresh)
		experiment_discard(dir);	/* no plan: not an experiment */
	lockfile_release(&lock);
	source_set_release(&ss);
	plan_args_release(&pa);
	free(cache);
	free(work);
	free(abs);
	return ret;
}
