/* cmd-build.c: kconfperf build: build each distinct variant once, cached by content. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd-options.h"
#include "cmd/commands.h"
#include "store/conditions.h"
#include "store/experiment.h"
#include "store/meta-keys.h"
#include "store/shard-dir.h"
#include "kbuild/kbuild-variants.h"
#include "kbuild/kbuild.h"
#include "util/parse-options.h"
#include "plan/plan-set.h"
#include "store/store.h"
#include "util/lockfile.h"
#include "util/usage.h"
#include "util/wrapper.h"

static const char *const build_usage[] = {
	"kconfperf build [--dir DIR] [-j N] [--cc-wrapper ccache|distcc|icecc]\n"
	"                       [--timeout SEC] [--cache DIR] [--make-var VAR=VALUE]...\n"
	"                       [--shard I/N|auto/N]",
	"",
	"Builds the bzImage (arm64: Image) of every distinct effective config in the plan,",
	"the baseline first, for the plan's arch.  Builds are cached by (source, config,",
	"compiler, make variables, ARCH and CROSS_COMPILE for another arch): a",
	"config built before, by any experiment, is not built again.  Variants start",
	"from a copy of the baseline's object tree (loo variants from all's), so kbuild",
	"rebuilds only what their symbols touch.  A failed build is recorded with the",
	"end of its log and the others go on.",
	"",
	"--cc-wrapper compiles through ccache, distcc or icecc, as their masquerade",
	"directories do (the wrapper is found as gcc first in make's PATH; CC stays",
	"gcc): the same kernel, byte for byte, under the same key, so a kernel built",
	"without it is not built again.  The wrapper's own environment says where the",
	"farm is (CCACHE_DIR, DISTCC_HOSTS, ICECC_SCHEDULER, ...).  Without -j, make",
	"runs as many jobs as the farm has slots ('distcc -j', or what the icecc",
	"scheduler lists), at least the CPUs.  The table shows each build's wrapper, -j",
	"and, for ccache, its hits.",
	"",
	"--shard I/N builds one of N jobs, for a job engine: the plan's distinct",
	"kernels numbered k from 0 in plan order with k mod N = I-1 (with N the",
	"number of kernels, which the build prints, each job is one kernel), and",
	"the baseline they start from.  Its result is the cache entries: it works in",
	"DIR/shards/build-I-of-N, with its own database and lock, so jobs run at",
	"once; 'kconfperf cache export' carries an entry to another host's cache, and",
	"'kconfperf build' without --shard then finds every kernel built.",
	NULL,
};

int cmd_build(int argc, const char **argv)
{
	struct kbuild_options o = KBUILD_OPTIONS_INIT;
	struct source_set ss = SOURCE_SET_INIT;
	struct store *st = NULL;
	struct store_variant *v = NULL;
	size_t nr = 0;
	const char *dir = EXPERIMENT_DEFAULT_DIR, *cache_opt = NULL;
	char *cache = NULL, *logs = NULL, *cross = NULL;
	struct conditions cond = CONDITIONS_INIT;
	struct kbuild_summary sum = { 0 };
	struct lockfile lock = LOCKFILE_INIT;
	struct shard shard = SHARD_INIT;
	struct store_variant *mine = NULL;
	char *shard_dir = NULL;
	size_t nr_mine, nr_kernels;
	int ret = 1, locked;
	const struct option opts[] = {
		OPT_STRING(0, "dir", &dir, "DIR", "experiment directory (default kconfperf-results)"),
		OPT_JOBS(&o.jobs, "make -j, 1 to 1024 (default: the farm's slots or CPUs)"),
		OPT_STRING(0, "cc-wrapper", &o.cc_wrapper, "CMD",
			   "compile through ccache, distcc or icecc (a name or a path)"),
		OPT_DOUBLE(0, "timeout", &o.timeout, "SEC", "give up on a build after SEC seconds"),
		OPT_STRING(0, "cache", &cache_opt, "DIR", "build cache (default: the plan's)"),
		OPT_STRING_LIST(0, "make-var", &o.make_vars, "VAR=VALUE",
				"pass a variable to make (part of the cache key)"),
		OPT_SHARD(&shard, "build shard I of N: one kernel in N, in DIR/shards/build-I-of-N"),
		OPT_BOOL('q', "quiet", &quiet, "print no progress"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, build_usage);
	if (argc)
		usage_error("unexpected argument '%s'", argv[0]);
	if (shard.count) {
		/* a directory of its own, so that jobs take no lock on DIR (shard-dir.h) */
		shard_dir = shard_dir_path(dir, "build", &shard);
		if (shard_dir_make(dir, shard_dir, "build", &shard))
			goto out;
		dir = shard_dir;
	}
	if (experiment_open(&st, dir, 0))
		goto out;
	locked = experiment_lock(&lock, dir, "building");
	if (locked) {
		ret = locked > 0 ? EXPERIMENT_BUSY : 1;
		goto out;
	}
	if (store_get_variants(st, &v, &nr))
		goto out;
	if (!nr) {
		error("'%s' has no plan yet (run 'kconfperf plan')", dir);
		goto out;
	}
	cache = cache_opt ? absolute_path(cache_opt) : store_get_meta(st, META_CACHE);
	if (!cache) {
		error("'%s': the plan does not say which cache it used; plan again", dir);
		goto out;
	}
	if (source_set_reopen(&ss, st, cache))
		goto out;
	{
		char *abs = absolute_path(dir);

		logs = experiment_path(abs, "logs");
		free(abs);
	}
	o.source = &ss.v[0].ks;
	o.cache_dir = cache;
	o.log_dir = logs;
	/* The plan's arch and cross compiler; an older plan has neither: x86_64. */
	if (conditions_load(&cond, st))
		goto out;
	cross = store_get_meta(st, META_CROSS_COMPILE);
	o.arch = cond.arch;
	o.cross_compile = cross && *cross ? cross : NULL;
	if (kbuild_prepare(&o))
		goto out;

	if (shard.count) {
		char id[32];

		mine = xcalloc(nr, sizeof(*mine));
		nr_mine = kbuild_shard_select(mine, v, nr, &shard, &nr_kernels);
		shard_format(&shard, id, sizeof(id));
		note("shard %s of the plan's %zu distinct kernels: %s", id, nr_kernels,
		     nr_mine ? "building its own and their baseline" : "none is this shard's");
		if (nr_mine && kbuild_sources(&o, &ss, st, mine, nr_mine, stdout, &sum))
			goto out;
	} else if (kbuild_sources(&o, &ss, st, v, nr, stdout, &sum)) {
		goto out;
	}
	note("%d built, %d cached, %d failed", sum.built, sum.cached, sum.failed);
	ret = sum.failed ? 1 : 0;
out:
	free(mine);	/* shallow copies of v's rows */
	free(shard_dir);
	store_variants_free(v, nr);
	store_close(st);
	lockfile_release(&lock);
	kbuild_options_release(&o);
	source_set_release(&ss);
	free(cache);
	free(logs);
	conditions_release(&cond);
	free(cross);
	return ret;
}
