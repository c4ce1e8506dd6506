/* cmd-build.c: kconfperf build: build each distinct variant once, cached by content. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "experiment.h"
#include "kbuild.h"
#include "parse-options.h"
#include "source.h"
#include "store.h"
#include "usage.h"
#include "wrapper.h"

static const char *const build_usage[] = {
	"kconfperf build [--dir DIR] [-j N] [--cc-wrapper ccache|distcc|icecc]\n"
	"                       [--timeout SEC] [--cache DIR]",
	"",
	"Builds the bzImage of every distinct effective config in the plan, the baseline",
	"first.  Builds are cached by (source, config, compiler, make variables): a",
	"config built before, by any experiment, is not built again.  Variants start",
	"from a copy of the baseline's object tree (loo variants from all's), so kbuild",
	"rebuilds only what their symbols touch.  A failed build is recorded with the",
	"end of its log and the others go on.",
	NULL,
};

/* Whether this variant is built: no-op and same-as variants reuse another's kernel. */
static int needs_build(const struct store_variant *v)
{
	return !strcmp(v->status, "ok") || !strcmp(v->status, "partial");
}

static const char *seed_for(const struct store_variant *v, const char *base_key,
			    const char *all_key)
{
	if (!strcmp(v->kind, "loo") && all_key)
		return all_key;
	return base_key;
}

static void print_row(const struct store_variant *v, const struct kbuild_result *r,
		      int64_t base_size, int width)
{
	char delta[32] = "";

	if (r->ok && base_size > 0 && strcmp(v->kind, "baseline"))
		snprintf(delta, sizeof(delta), "%+lld", (long long)(r->bzimage_size - base_size));
	printf("%-*s  %-7s  %8.1f s  %10lld  %9s  %s\n", width, v->name,
	       !r->ok ? "failed" : r->cached ? "cached" : "built", r->seconds,
	       (long long)(r->ok ? r->bzimage_size : 0), delta,
	       r->seeded_from ? "incremental" : "");
}

static int record(struct store *st, const struct store_variant *v, const struct kbuild_result *r)
{
	struct store_build b = STORE_BUILD_INIT;
	int ret;

	b.key = xstrdup(r->key);
	b.config_hash = xstrdup(v->config_hash);
	b.status = xstrdup(r->ok ? "ok" : "failed");
	b.seconds = r->seconds;
	b.bzimage_size = r->bzimage_size;
	b.vmlinux_size = r->vmlinux_size;
	b.image = r->ok ? xstrdup(r->image) : NULL;
	b.log_path = r->log_path ? xstrdup(r->log_path) : NULL;
	b.log_tail = r->log_tail ? xstrdup(r->log_tail) : NULL;
	b.seeded_from = r->seeded_from ? xstrdup(r->seeded_from) : NULL;
	ret = store_put_build(st, &b);
	store_build_release(&b);
	return ret;
}

int cmd_build(int argc, const char **argv)
{
	struct kbuild_options o = KBUILD_OPTIONS_INIT;
	struct kernel_source ks = KERNEL_SOURCE_INIT;
	struct store *st = NULL;
	struct store_variant *v = NULL;
	size_t nr = 0, i;
	const char *dir = EXPERIMENT_DEFAULT_DIR, *cache_opt = NULL;
	char *cache = NULL, *source = NULL, *logs = NULL;
	char base_key[SHA256_HEX_SIZE] = "", all_key[SHA256_HEX_SIZE] = "";
	int64_t base_size = 0;
	int has_loo = 0, width = 7, failed = 0, built = 0, cached = 0;
	int ret = 1;
	const struct option opts[] = {
		OPT_STRING(0, "dir", &dir, "DIR", "experiment directory (default kconfperf-results)"),
		OPT_INTEGER('j', "jobs", &o.jobs, "N", "make -j (default: CPUs)"),
		OPT_STRING(0, "cc-wrapper", &o.cc_wrapper, "CMD", "ccache, distcc or icecc"),
		OPT_DOUBLE(0, "timeout", &o.timeout, "SEC", "give up on a build after SEC seconds"),
		OPT_STRING(0, "cache", &cache_opt, "DIR", "build cache (default: the plan's)"),
		OPT_STRING_LIST(0, "make-var", &o.make_vars, "VAR=VALUE",
				"pass a variable to make (part of the cache key)"),
		OPT_BOOL('q', "quiet", &quiet, "print no progress"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, build_usage);
	if (argc)
		usage_error("unexpected argument '%s'", argv[0]);
	if (experiment_open(&st, dir, 0))
		goto out;
	if (store_get_variants(st, &v, &nr))
		goto out;
	if (!nr) {
		error("'%s' has no plan yet (run 'kconfperf plan')", dir);
		goto out;
	}
	source = store_get_meta(st, "source");
	cache = cache_opt ? absolute_path(cache_opt) : store_get_meta(st, "cache");
	if (!source || !cache) {
		error("'%s': the plan does not say which source it used; plan again", dir);
		goto out;
	}
	if (kernel_source_open(&ks, source, cache))
		goto out;
	{
		char *abs = absolute_path(dir);

		logs = experiment_path(abs, "logs");
		free(abs);
	}
	o.source = &ks;
	o.cache_dir = cache;
	o.log_dir = logs;
	if (kbuild_prepare(&o))
		goto out;

	for (i = 0; i < nr; i++) {
		if ((int)strlen(v[i].name) > width)
			width = (int)strlen(v[i].name);
		if (!strcmp(v[i].kind, "loo") && needs_build(&v[i]))
			has_loo = 1;
	}
	printf("%-*s  %-7s  %10s  %10s  %9s\n", width, "variant", "build", "time",
	       "bzImage", "delta");
	/* The baseline first, then all (it seeds loo), then the rest in plan order. */
	for (int pass = 0; pass < 3; pass++) {
		for (i = 0; i < nr; i++) {
			struct kbuild_result r;
			const char *seed;
			int is_base = !strcmp(v[i].kind, "baseline");
			int is_all = !strcmp(v[i].kind, "all");

			if (!needs_build(&v[i]) || (pass == 0) != is_base ||
			    (pass == 1) != is_all)
				continue;
			seed = is_base ? NULL : seed_for(&v[i], base_key, *all_key ? all_key : NULL);
			if (kbuild_build(&o, v[i].config, v[i].name, seed && *seed ? seed : NULL,
					 is_base || (is_all && has_loo), &r)) {
				kbuild_result_release(&r);
				goto out;
			}
			if (record(st, &v[i], &r)) {
				kbuild_result_release(&r);
				goto out;
			}
			if (is_base && r.ok) {
				memcpy(base_key, r.key, sizeof(base_key));
				base_size = r.bzimage_size;
			}
			if (is_all && r.ok)
				memcpy(all_key, r.key, sizeof(all_key));
			print_row(&v[i], &r, base_size, width);
			fflush(stdout);
			if (!r.ok)
				failed++;
			else if (r.cached)
				cached++;
			else
				built++;
			kbuild_result_release(&r);
		}
	}
	note("%d built, %d cached, %d failed", built, cached, failed);
	ret = failed ? 1 : 0;
out:
	store_variants_free(v, nr);
	store_close(st);
	kbuild_options_release(&o);
	kernel_source_release(&ks);
	free(cache);
	free(source);
	free(logs);
	return ret;
}
