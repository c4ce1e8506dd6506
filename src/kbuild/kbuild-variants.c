/* kbuild-variants.c: the build stage: build every planned variant's kernel, recording each. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbuild/kbuild-variants.h"
#include "plan/source-set.h"
#include "store/conditions.h"
#include "store/store.h"
#include "util/progress.h"
#include "util/shard.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

/*
 * Whether the build stage builds v: a measured variant, except the A/A
 * control, which runs the baseline's kernel (its config hash is the
 * baseline's, so the run stage finds that build).
 */
static int built_here(const struct store_variant *v)
{
	return variant_is_measured(v->status) && strcmp(v->kind, VARIANT_AA_NAME);
}

/* Whether v[i] is the first variant of its source with its config hash that gets a kernel. */
static int first_kernel(const struct store_variant *v, size_t i)
{
	size_t k;

	if (!built_here(&v[i]))
		return 0;
	for (k = 0; k < i; k++)
		if (built_here(&v[k]) && !strcmp(v[k].config_hash, v[i].config_hash) &&
		    !strcmp(v[k].source ? v[k].source : "", v[i].source ? v[i].source : ""))
			return 0;
	return 1;
}

size_t kbuild_shard_select(struct store_variant *out, const struct store_variant *v, size_t nr,
			   const struct shard *sh, size_t *nr_kernels)
{
	char *mine = xcalloc(nr ? nr : 1, 1);
	size_t i, k, n = 0, kernels = 0;

	for (i = 0; i < nr; i++)
		if (first_kernel(v, i))
			mine[i] = (char)shard_has_item(sh, kernels++);
	/* the baseline of each source this shard builds for */
	for (i = 0; i < nr; i++) {
		if (!mine[i] || !strcmp(v[i].kind, "baseline"))
			continue;
		for (k = 0; k < nr; k++)
			if (!strcmp(v[k].kind, "baseline") && built_here(&v[k]) &&
			    !strcmp(v[k].source ? v[k].source : "", v[i].source ? v[i].source : ""))
				mine[k] = 1;
	}
	for (i = 0; i < nr; i++)
		if (mine[i])
			out[n++] = v[i];
	free(mine);
	*nr_kernels = kernels;
	return n;
}

static const char *seed_for(const struct store_variant *v, const char *base_key,
			    const char *all_key)
{
	if (!strcmp(v->kind, "loo") && all_key)
		return all_key;
	return base_key;
}

/* "gcc -j2", "ccache -j2, 12/15 hits (80%)", "distcc -j8": how it was compiled. */
static void add_compiler(struct strbuf *sb, const struct kbuild_result *r)
{
	strbuf_addf(sb, "%s", r->wrapper ? r->wrapper : "gcc");
	if (r->jobs > 0)
		strbuf_addf(sb, " -j%d", r->jobs);
	if (r->has_cache_stats) {
		strbuf_addstr(sb, ", ");
		farm_format_stats(sb, &r->cache_stats);
	}
}

static void print_row(FILE *fp, const struct store_variant *v, const struct kbuild_result *r,
		      int64_t base_size, int width)
{
	struct strbuf how = STRBUF_INIT;
	char delta[32] = "";

	if (r->ok && base_size > 0 && strcmp(v->kind, "baseline"))
		snprintf(delta, sizeof(delta), "%+lld", (long long)(r->bzimage_size - base_size));
	if (r->ok)
		add_compiler(&how, r);
	fprintf(fp, "%-*s  %-7s  %8.1f s  %10lld  %9s  %-11s  %s\n", width, v->name,
	       !r->ok ? "failed" : r->cached ? "cached" : "built", r->seconds,
	       (long long)(r->ok ? r->bzimage_size : 0), delta,
	       r->seeded_from ? "incremental" : "scratch", how.buf);
	strbuf_release(&how);
}

static int record(struct store *st, const struct store_variant *v, const struct kbuild_result *r)
{
	struct store_build b = STORE_BUILD_INIT;
	int ret;

	b.key = xstrdup(r->key);
	b.config_hash = xstrdup(v->config_hash);
	b.status = r->ok ? BUILD_OK : BUILD_FAILED;
	b.seconds = r->seconds;
	b.bzimage_size = r->bzimage_size;
	b.vmlinux_size = r->vmlinux_size;
	b.sections = (struct store_sizes){ r->sections.text, r->sections.data, r->sections.bss };
	b.symbols = (struct store_sizes){ r->sections.sym_text, r->sections.sym_data,
					  r->sections.sym_bss };
	b.image = r->ok ? xstrdup(r->image) : NULL;
	b.log_path = r->log_path ? xstrdup(r->log_path) : NULL;
	b.log_tail = r->log_tail ? xstrdup(r->log_tail) : NULL;
	b.seeded_from = r->seeded_from ? xstrdup(r->seeded_from) : NULL;
	ret = store_put_build(st, &b);
	store_build_release(&b);
	return ret;
}

int kbuild_variant(const struct kbuild_options *o, struct store *st,
		   const struct store_variant *v, const char *seed_key,
		   struct kbuild_result *out)
{
	if (kbuild_build(o, v->config, v->name, seed_key, out))
		return -1;
	return record(st, v, out);
}

/*
 * "[2/5] build CONFIG_X=y (elapsed 4m12s, about 9m left)": the builds still
 * to come are seeded, so the estimate is the mean of the seeded builds made
 * so far, or half the baseline's scratch build before there is one.
 */
static void show_build(struct progress *p, const char *name, double scratch_seconds,
		       double seeded_seconds, int seeded_built)
{
	char *what = xstrfmt("build %s", name);

	progress_show(p, what, seeded_built ? seeded_seconds / seeded_built : scratch_seconds / 2);
	free(what);
}

/* The compiler is a condition of the experiment (the reports name it). */
static int save_compiler(const struct kbuild_options *o, struct store *st)
{
	struct conditions c = CONDITIONS_INIT;
	int ret;

	if (!o->compiler_version)
		return 0;
	c.compiler = xstrdup(o->compiler_version);
	ret = conditions_save(&c, st);
	conditions_release(&c);
	return ret;
}

int kbuild_variants(const struct kbuild_options *o, struct store *st,
		    const struct store_variant *v, size_t nr, FILE *table,
		    struct kbuild_summary *sum)
{
	char base_key[SHA256_HEX_SIZE] = "", all_key[SHA256_HEX_SIZE] = "";
	int64_t base_size = 0;
	int width = 7, pass, total = 0;
	double scratch_seconds = 0, seeded_seconds = 0;
	int seeded_built = 0;
	struct progress progress;
	size_t i;

	memset(sum, 0, sizeof(*sum));
	if (save_compiler(o, st))
		return -1;
	for (i = 0; i < nr; i++) {
		if ((int)strlen(v[i].name) > width)
			width = (int)strlen(v[i].name);
		if (!built_here(&v[i]))
			continue;
		total++;
	}
	if (table)
		fprintf(table, "%-*s  %-7s  %10s  %10s  %9s  %-11s  %s\n", width, "variant", "build",
			"time", "image", "delta", "from", "compiler");
	progress_start(&progress, PROGRESS_LINES, (size_t)total);
	/* The baseline first, then all (it seeds loo), then the rest in plan order. */
	for (pass = 0; pass < 3; pass++) {
		for (i = 0; i < nr; i++) {
			struct kbuild_result r;
			const char *seed;
			double t0 = now_seconds();
			int is_base = !strcmp(v[i].kind, "baseline");
			int is_all = !strcmp(v[i].kind, "all");

			if (!built_here(&v[i]) || (pass == 0) != is_base ||
			    (pass == 1) != is_all)
				continue;
			seed = is_base ? NULL : seed_for(&v[i], base_key, *all_key ? all_key : NULL);
			show_build(&progress, v[i].name, scratch_seconds, seeded_seconds,
				   seeded_built);
			if (kbuild_variant(o, st, &v[i], seed && *seed ? seed : NULL, &r)) {
				kbuild_result_release(&r);
				progress_stop(&progress);
				return -1;
			}
			progress_done(&progress, now_seconds() - t0);
			if (is_base && r.ok) {
				memcpy(base_key, r.key, sizeof(base_key));
				base_size = r.bzimage_size;
			}
			if (is_all && r.ok)
				memcpy(all_key, r.key, sizeof(all_key));
			if (table) {
				print_row(table, &v[i], &r, base_size, width);
				fflush(table);
			}
			if (!r.ok) {
				sum->failed++;
			} else if (r.cached) {
				sum->cached++;
			} else {
				sum->built++;
				if (r.seeded_from) {
					seeded_seconds += r.seconds;
					seeded_built++;
				} else {
					scratch_seconds += r.seconds;
				}
			}
			kbuild_result_release(&r);
		}
	}
	progress_stop(&progress);
	return 0;
}

/* Builds the variants of source i (shallow copies of v's rows into mine). */
static int build_source(struct kbuild_options *o, const struct source_set *ss, size_t i,
			struct store *st, const struct store_variant *v, size_t nr,
			struct store_variant *mine, FILE *table, struct kbuild_summary *sum)
{
	const struct experiment_source *es = &ss->v[i];
	struct kbuild_summary one;
	size_t n = 0, k;
	int ret;

	for (k = 0; k < nr; k++)
		if (!strcmp(v[k].source ? v[k].source : "", es->label))
			mine[n++] = v[k];
	if (!n)
		return 0;
	if (table && ss->nr > 1)
		fprintf(table, "%ssource %s (%s%s%s):\n", i ? "\n" : "", es->label, es->ks.version,
			es->ks.patch ? ", patched with " : "", es->ks.patch ? es->ks.patch : "");
	o->source = &es->ks;
	ret = kbuild_variants(o, st, mine, n, table, &one);
	sum->built += one.built;
	sum->cached += one.cached;
	sum->failed += one.failed;
	return ret;
}

int kbuild_sources(struct kbuild_options *o, const struct source_set *ss, struct store *st,
		   const struct store_variant *v, size_t nr, FILE *table,
		   struct kbuild_summary *sum)
{
	struct store_variant *mine = xcalloc(nr ? nr : 1, sizeof(*mine));
	const struct kernel_source *saved = o->source;
	size_t i, k;
	int ret = 0;

	memset(sum, 0, sizeof(*sum));
	/* Each plain source, then at once its patched ones, while its trees are the newest kept. */
	for (i = 0; i < ss->nr && !ret; i++) {
		if (ss->v[i].base >= 0)
			continue;
		ret = build_source(o, ss, i, st, v, nr, mine, table, sum);
		for (k = 0; k < ss->nr && !ret; k++)
			if (ss->v[k].base == (long)i)
				ret = build_source(o, ss, k, st, v, nr, mine, table, sum);
	}
	o->source = saved;
	free(mine);
	return ret;
}
