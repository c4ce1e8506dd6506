/* cmd-plan.c: kconfperf plan: resolve every variant with the kernel's Kconfig. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "experiment.h"
#include "parse-options.h"
#include "plan.h"
#include "source.h"
#include "store.h"
#include "usage.h"
#include "wrapper.h"

static const char *const plan_usage[] = {
	"kconfperf plan --source SRC --base BASE [--base-add FRAG|CONFIG_X=y]...\n"
	"                      (--options FILE|LIST | --options-from-diff OLD NEW)\n"
	"                      [--design oat,all,loo] [--with-deps] [-j N] [--dir DIR]",
	"kconfperf plan [--dir DIR]                 (print the stored plan)",
	"kconfperf plan --show VARIANT [--dir DIR]  (its effective diff, diffconfig style)",
	"",
	"Resolves the baseline and each variant with the kernel's own 'make olddefconfig',",
	"says which requested settings took and why the others did not, and stores the",
	"plan in DIR/kconfperf.db.  Variants with the same effective config are built",
	"and measured once.",
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

static int store_plan_meta(struct store *st, const struct kernel_source *ks,
			   const struct plan_options *o, const char *cache, const char *designs)
{
	return store_set_meta(st, "source", ks->origin) ||
	       store_set_meta(st, "source_id", ks->id) ||
	       store_set_meta(st, "source_tree", ks->tree) ||
	       store_set_meta(st, "kernel_version", ks->version) ||
	       store_set_meta(st, "base", o->base) ||
	       store_set_meta(st, "designs", designs) ||
	       store_set_meta(st, "cache", cache) ? -1 : 0;
}

static int show_variant(struct store *st, const char *name)
{
	struct store_variant *v;
	size_t nr, i;
	int ret = -1;

	if (store_get_variants(st, &v, &nr))
		return -1;
	for (i = 0; i < nr; i++) {
		if (strcmp(v[i].name, name))
			continue;
		fputs(v[i].effective_diff, stdout);
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
	return ret;
}

int cmd_plan(int argc, const char **argv)
{
	struct plan_options o = PLAN_OPTIONS_INIT;
	struct kernel_source ks = KERNEL_SOURCE_INIT;
	struct plan p = PLAN_INIT;
	struct store *st = NULL;
	const char *source = NULL, *dir = EXPERIMENT_DEFAULT_DIR, *designs = "oat";
	const char *show = NULL, *cache_opt = NULL;
	char *cache = NULL, *work = NULL;
	int ret = 1;
	const struct option opts[] = {
		OPT_STRING(0, "source", &source, "SRC", "kernel tree or .tar.xz/.tar.gz of one"),
		OPT_STRING(0, "base", &o.base, "BASE", "make config target or .config file"),
		OPT_STRING_LIST(0, "base-add", &o.base_add, "FRAG|CONFIG_X=y",
				"merge a fragment or setting into the baseline"),
		OPT_STRING(0, "options", &o.options, "FILE|LIST",
			   "candidate options: a fragment file or A,B=m,..."),
		OPT_STRING(0, "options-from-diff", &o.diff_old, "OLD NEW",
			   "every symbol NEW.config sets differently from OLD.config"),
		OPT_STRING(0, "design", &designs, "D,...", "oat, all, loo (default oat)"),
		OPT_BOOL(0, "with-deps", &o.with_deps,
			 "also enable visible symbols that meet unmet dependencies"),
		OPT_INTEGER('j', "jobs", &o.jobs, "N", "parallel olddefconfig runs (default: CPUs)"),
		OPT_STRING(0, "dir", &dir, "DIR", "experiment directory (default kconfperf-results)"),
		OPT_STRING(0, "cache", &cache_opt, "DIR",
			   "cache of sources and builds (default ~/.cache/kconfperf)"),
		OPT_STRING(0, "show", &show, "VARIANT", "print a variant's effective diff"),
		OPT_BOOL('q', "quiet", &quiet, "print no progress"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, plan_usage);
	if (o.diff_old) {
		if (argc < 1)
			usage_error("--options-from-diff needs two files: OLD.config NEW.config");
		o.diff_new = argv[0];
		argc--;
		argv++;
	}
	if (argc)
		usage_error("unexpected argument '%s'", argv[0]);
	if (show || (!source && !o.base && !o.options && !o.diff_old)) {
		if (experiment_open(&st, dir, 0))
			goto out;
		ret = (show ? show_variant(st, show) : plan_print_table(st, stdout)) ? 1 : 0;
		goto out;
	}
	if (!source || !o.base)
		usage_error("plan needs --source and --base");
	if (o.options && o.diff_old)
		usage_error("--options and --options-from-diff cannot be combined");
	if (plan_parse_designs(&o.designs, designs))
		usage_error("bad --design '%s'", designs);

	cache = cache_opt ? absolute_path(cache_opt) : default_cache_dir();
	if (kernel_source_open(&ks, source, cache))
		goto out;
	if (experiment_open(&st, dir, 1))
		goto out;
	{
		char *abs = absolute_path(dir);

		work = experiment_path(abs, "work");
		free(abs);
	}
	o.source = &ks;
	o.work_dir = work;
	if (plan_make(&p, &o))
		goto out;
	if (check_replace(st, p.key, dir) || store_plan_meta(st, &ks, &o, cache, designs) ||
	    plan_save(&p, st))
		goto out;
	note("resolved %zu variants of %s in %.1f s", p.nr_variants, ks.version, p.seconds);
	ret = plan_print_table(st, stdout) ? 1 : 0;
out:
	plan_release(&p);
	store_close(st);
	kernel_source_release(&ks);
	plan_options_release(&o);
	free(cache);
	free(work);
	return ret;
}
