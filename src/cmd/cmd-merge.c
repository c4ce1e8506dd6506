/* cmd-merge.c: kconfperf merge: fold shards' runs back into their experiment. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "store/experiment.h"
#include "store/shard-merge.h"
#include "store/store.h"
#include "util/lockfile.h"
#include "util/parse-options.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "util/wrapper.h"

static const char *const merge_usage[] = {
	"kconfperf merge [--dir DIR] [SHARD-DIR...]",
	"",
	"Folds the runs of shards ('kconfperf run --shard', or any copy of DIR's",
	"planned experiment run elsewhere) into the experiment in DIR: every run DIR",
	"does not have, with its samples and instruction counts, keyed by variant,",
	"workload, round and warm-up, so merging a shard again adds nothing.  Without",
	"SHARD-DIR, every DIR/shards/run-*.  A shard whose runs were made under other",
	"conditions (plan, seed, qemu version, guest binary, harness, clock mode and",
	"shift, kconfperf version, kernel hashes, ...) is refused, naming the shard",
	"and the field.  A shard that is missing leaves DIR resumable: 'kconfperf run'",
	"runs its rounds.  Runs DIR had that a shard measured again (every shard runs",
	"the warm-ups) are the cross-host A/A check: under icount with the same layout",
	"seed their guest-time values must be identical, and merge says whether they",
	"were.  Ends with where the shards stand: merged, partial (merged before it",
	"ran all its rounds) or missing.",
	"Exit status 0 when every shard was merged, 1 when one was refused.",
	NULL,
};

/* "run-I-of-N" by N, then I; other names after, by name. */
static int shard_name_cmp(const void *pa, const void *pb)
{
	const char *a = *(const char *const *)pa, *b = *(const char *const *)pb;
	int ia, na, ib, nb;
	int ha = sscanf(a, "run-%d-of-%d", &ia, &na) == 2;
	int hb = sscanf(b, "run-%d-of-%d", &ib, &nb) == 2;

	if (ha && hb && (na != nb || ia != ib))
		return na != nb ? (na < nb ? -1 : 1) : (ia < ib ? -1 : 1);
	if (ha != hb)
		return ha ? -1 : 1;
	return strcmp(a, b);
}

/* DIR/shards/run-*, in shard order. */
static void find_shards(struct strvec *out, const char *dir)
{
	char *root = experiment_path(dir, "shards");
	struct strvec names = STRVEC_INIT;
	struct dirent *e;
	DIR *d = opendir(root);
	size_t i;

	while (d && (e = readdir(d)))
		if (starts_with(e->d_name, "run-"))
			strvec_push(&names, e->d_name);
	if (d)
		closedir(d);
	if (names.nr)
		qsort(names.v, names.nr, sizeof(*names.v), shard_name_cmp);
	for (i = 0; i < names.nr; i++)
		strvec_pushf(out, "%s/%s", root, names.v[i]);
	strvec_clear(&names);
	free(root);
}

/* Where the shards stand (shard_standing()), and how to finish the experiment. */
static int print_standing(struct store *st, const char *dir)
{
	struct strvec kv = STRVEC_INIT, missing = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;

	if (store_get_meta_all(st, &kv))
		return -1;
	shard_standing(&sb, &kv, &missing);
	if (sb.len)
		note("shards %s", sb.buf);
	if (missing.nr)
		note("what a missing or partial shard lacks runs on the next 'kconfperf run "
		     "--dir %s' (or 'run --shard %s' again, then merge)", dir, missing.v[0]);
	strbuf_release(&sb);
	strvec_clear(&kv);
	strvec_clear(&missing);
	return 0;
}

static int merge_one(struct store *exp, const char *dir, const char *shard_dir)
{
	struct merge_result r = MERGE_RESULT_INIT;
	struct store *sh = NULL;
	char *a = absolute_path(dir), *b = absolute_path(shard_dir);
	int ret = -1;

	if (!strcmp(a, b)) {
		error("'%s' is the experiment itself, not a shard of it", shard_dir);
		goto out;
	}
	if (experiment_open_readonly(&sh, shard_dir) || shard_merge(exp, sh, shard_dir, &r))
		goto out;
	if (r.aa_compared)
		note("merged '%s': %d runs added, %d present; measured again with the same "
		     "layout seed: %d of %d identical%s%s", shard_dir, r.added, r.present,
		     r.aa_identical, r.aa_compared, r.aa_first_diff ? ", first differing: " : "",
		     r.aa_first_diff ? r.aa_first_diff : "");
	else
		note("merged '%s': %d runs added, %d present", shard_dir, r.added, r.present);
	if (r.aa_identical < r.aa_compared)
		warning("'%s': %d runs measured on two hosts with the same layout seed gave other "
			"guest-time values: the hosts do not measure alike", shard_dir,
			r.aa_compared - r.aa_identical);
	ret = 0;
out:
	store_close(sh);
	merge_result_release(&r);
	free(a);
	free(b);
	return ret;
}

int cmd_merge(int argc, const char **argv)
{
	const char *dir = EXPERIMENT_DEFAULT_DIR;
	struct strvec shards = STRVEC_INIT;
	struct lockfile lock = LOCKFILE_INIT;
	struct store *st = NULL;
	int i, ret = 1, locked, failed = 0;
	const struct option opts[] = {
		OPT_STRING(0, "dir", &dir, "DIR", "experiment directory (default kconfperf-results)"),
		OPT_BOOL('q', "quiet", &quiet, "print no progress"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, merge_usage);
	for (i = 0; i < argc; i++)
		strvec_push(&shards, argv[i]);
	if (experiment_open(&st, dir, 0))
		goto out;
	locked = experiment_lock(&lock, dir, "merging");
	if (locked) {
		ret = locked > 0 ? EXPERIMENT_BUSY : 1;
		goto out;
	}
	if (!shards.nr)
		find_shards(&shards, dir);
	if (!shards.nr)
		note("no shard to merge in '%s/shards'", dir);
	for (i = 0; i < (int)shards.nr; i++)
		if (merge_one(st, dir, shards.v[i]))
			failed++;
	if (print_standing(st, dir))
		goto out;
	ret = failed ? 1 : 0;
out:
	store_close(st);
	lockfile_release(&lock);
	strvec_clear(&shards);
	return ret;
}
