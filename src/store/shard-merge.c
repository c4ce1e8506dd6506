/* shard-merge.c: fold a shard's runs back into its experiment, exactly, once. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/conditions.h"
#include "store/meta-keys.h"
#include "store/profile.h"
#include "store/shard-merge.h"
#include "store/store-meter.h"
#include "store/store.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "util/wrapper.h"

void merge_difference_release(struct merge_difference *d)
{
	free(d->field);
	free(d->here);
	free(d->there);
	memset(d, 0, sizeof(*d));
}

void merge_result_release(struct merge_result *r)
{
	free(r->aa_first_diff);
	memset(r, 0, sizeof(*r));
}

/* The facts of the plan and schedule that runs share, besides the typed conditions. */
static const char *const schedule_keys[] = { META_PLAN_KEY, META_SEED, NULL };
static void set_difference(struct merge_difference *out, const char *field,
			   const char *here, const char *there)
{
	out->field = xstrdup(field);
	out->here = xstrdup(here ? here : "(none)");
	out->there = xstrdup(there ? there : "(none)");
}

/* The key of the build of config_hash, malloc'd, or NULL when there is none. */
static char *build_key(struct store *st, const char *config_hash, int *err)
{
	struct store_build b = STORE_BUILD_INIT;
	char *key = NULL;
	int rc = store_get_build_by_hash(st, config_hash, &b);

	if (rc < 0)
		*err = 1;
	else if (rc && b.status == BUILD_OK)
		key = xstrdup(b.key);
	store_build_release(&b);
	return key;
}

/* The first variant of the shard whose kernel is not the experiment's. */
static int kernels_differ(struct store *exp, struct store *shard, struct merge_difference *out)
{
	struct store_variant *ev = NULL, *sv = NULL;
	size_t ne = 0, ns = 0, i, k;
	int ret = -1, err = 0;

	if (store_get_variants(exp, &ev, &ne) || store_get_variants(shard, &sv, &ns))
		goto out;
	ret = 0;
	for (i = 0; i < ns && !ret; i++) {
		char *field = xstrfmt("kernel of %s", sv[i].name);
		char *ek, *sk;

		for (k = 0; k < ne && strcmp(ev[k].name, sv[i].name); k++)
			;
		if (k == ne) {
			set_difference(out, field, NULL, sv[i].config_hash);
			ret = 1;
		} else if (strcmp(ev[k].config_hash, sv[i].config_hash)) {
			set_difference(out, field, ev[k].config_hash, sv[i].config_hash);
			ret = 1;
		} else {
			ek = build_key(exp, ev[k].config_hash, &err);
			sk = build_key(shard, sv[i].config_hash, &err);
			if (ek && sk && strcmp(ek, sk)) {
				set_difference(out, field, ek, sk);
				ret = 1;
			}
			free(ek);
			free(sk);
		}
		free(field);
	}
	if (err)
		ret = -1;
out:
	store_variants_free(ev, ne);
	store_variants_free(sv, ns);
	return ret;
}

/* The typed conditions (store/conditions.h), and kconfperf's version, which they list only. */
static int typed_conditions_differ(struct store *exp, struct store *shard,
				   struct merge_difference *out)
{
	struct conditions here = CONDITIONS_INIT, there = CONDITIONS_INIT;
	struct strbuf h = STRBUF_INIT, t = STRBUF_INIT;
	const char *key;
	int ret = -1;

	if (conditions_load(&here, exp) || conditions_load(&there, shard))
		goto out;
	key = conditions_first_difference(&here, &there);
	/* runs of two versions of the harness do not merge, though they may resume */
	if (!key && here.kconfperf && there.kconfperf && strcmp(here.kconfperf, there.kconfperf))
		key = "kconfperf";
	ret = 0;
	if (key) {
		conditions_format(&h, &here, key);
		conditions_format(&t, &there, key);
		set_difference(out, key, h.buf, t.buf);
		ret = 1;
	}
out:
	conditions_release(&here);
	conditions_release(&there);
	strbuf_release(&h);
	strbuf_release(&t);
	return ret;
}

int merge_conditions_differ(struct store *exp, struct store *shard,
			    struct merge_difference *out)
{
	size_t i;
	int rc;

	for (i = 0; schedule_keys[i]; i++) {
		char *here = store_get_meta(exp, schedule_keys[i]);
		char *there = store_get_meta(shard, schedule_keys[i]);
		int differ = here && there && strcmp(here, there);

		if (differ)
			set_difference(out, schedule_keys[i], here, there);
		free(here);
		free(there);
		if (differ)
			return 1;
	}
	rc = typed_conditions_differ(exp, shard, out);
	if (rc)
		return rc;
	return kernels_differ(exp, shard, out);
}

/* Everything read from one database: its variants, runs and samples. */
struct side {
	struct store_variant *v;
	size_t nr_v;
	struct store_run *runs;
	size_t nr_runs;
	struct store_sample_row *samples;
	size_t nr_samples;
};

static int side_read(struct side *s, struct store *st)
{
	memset(s, 0, sizeof(*s));
	return store_get_variants(st, &s->v, &s->nr_v) ||
	       store_get_runs(st, &s->runs, &s->nr_runs) ||
	       store_get_samples(st, &s->samples, &s->nr_samples) ? -1 : 0;
}

static void side_release(struct side *s)
{
	store_variants_free(s->v, s->nr_v);
	store_runs_free(s->runs, s->nr_runs);
	store_sample_rows_free(s->samples, s->nr_samples);
}

static const struct store_variant *variant_by_id(const struct side *s, int64_t id)
{
	size_t i;

	for (i = 0; i < s->nr_v; i++)
		if (s->v[i].id == id)
			return &s->v[i];
	return NULL;
}

static const struct store_variant *variant_by_name(const struct side *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nr_v; i++)
		if (!strcmp(s->v[i].name, name))
			return &s->v[i];
	return NULL;
}

/* exp's run of the same (variant, workload, round, warm-up), or NULL. */
static const struct store_run *same_run(const struct side *e, int64_t variant_id,
					const struct store_run *r)
{
	size_t i;

	for (i = 0; i < e->nr_runs; i++) {
		const struct store_run *x = &e->runs[i];

		if (x->variant_id == variant_id && x->round == r->round &&
		    x->warmup == r->warmup && !strcmp(x->workload, r->workload))
			return x;
	}
	return NULL;
}

static int same_double(double a, double b)
{
	return (isnan(a) && isnan(b)) || a == b;
}

/*
 * Whether two measurements of one run (the same layout seed under icount)
 * gave the same guest-time values: boot time and every sample.  The
 * workload's own samples are guest time under icount; host wall time is
 * the run's wall_s, not a sample, and is not compared.
 */
static int same_values(const struct side *e, const struct store_run *a,
		       const struct side *s, const struct store_run *b)
{
	size_t fa, fb, na, nb, i;

	if (!same_double(a->boot_s, b->boot_s))
		return 0;
	na = store_samples_of_run(e->samples, e->nr_samples, a->id, &fa);
	nb = store_samples_of_run(s->samples, s->nr_samples, b->id, &fb);
	if (na != nb)
		return 0;
	for (i = 0; i < na; i++) {
		const struct store_sample_row *x = &e->samples[fa + i], *y = &s->samples[fb + i];

		if (x->iteration != y->iteration || strcmp(x->metric, y->metric) ||
		    x->value != y->value)
			return 0;
	}
	return 1;
}

/* A run the experiment has, measured again by the shard: the A/A check. */
static void compare_again(const struct side *e, const struct store_run *mine,
			  const struct side *s, const struct store_run *r, const char *variant,
			  struct merge_result *out)
{
	if (!vm_clock_is_icount(mine->clock) || !vm_clock_is_icount(r->clock) ||
	    mine->icount_shift != r->icount_shift || mine->layout_seed != r->layout_seed ||
	    mine->status != RUN_OK || r->status != RUN_OK)
		return;
	/* copied into the shard when it was made: the same run */
	if (mine->started && r->started && !strcmp(mine->started, r->started) &&
	    same_double(mine->wall_s, r->wall_s))
		return;
	out->aa_compared++;
	if (same_values(e, mine, s, r))
		out->aa_identical++;
	else if (!out->aa_first_diff)
		out->aa_first_diff = xstrfmt("%s %s %s %d", variant, r->workload,
					     r->warmup ? "warm-up" : "round",
					     r->warmup ? -r->round : r->round);
}

/* Adds shard run r (samples and meter counts) to exp as a run of variant_id. */
static int add_run(struct store *exp, struct store *shard, const struct side *s,
		   const struct store_run *r, int64_t variant_id)
{
	struct store_run copy = *r;
	struct store_sample *samples;
	struct store_meter m = STORE_METER_INIT;
	struct profile phases[STORE_METER_NR_PHASES];
	const struct profile *ph[STORE_METER_NR_PHASES];
	size_t first, n = store_samples_of_run(s->samples, s->nr_samples, r->id, &first), i;
	int ret = -1, rc;

	samples = xcalloc(n ? n : 1, sizeof(*samples));
	for (i = 0; i < n; i++) {
		const struct store_sample_row *x = &s->samples[first + i];

		samples[i].iteration = x->iteration;
		samples[i].metric = x->metric;
		samples[i].unit = x->unit;
		samples[i].value = x->value;
		samples[i].higher_is_better = x->higher_is_better;
	}
	for (i = 0; i < STORE_METER_NR_PHASES; i++) {
		profile_init(&phases[i]);
		ph[i] = &phases[i];
	}
	copy.id = 0;
	copy.variant_id = variant_id;
	if (store_add_run(exp, &copy, samples, n))
		goto out;
	rc = store_get_meter(shard, r->id, &m);
	if (rc < 0)
		goto out;
	if (rc) {
		for (i = 0; i < STORE_METER_NR_PHASES; i++)
			if (store_get_run_profile(shard, r->id, (enum store_meter_phase)i,
						  &phases[i]) < 0)
				goto out;
		if (store_add_meter(exp, copy.id, &m, ph))
			goto out;
	}
	ret = 0;
out:
	for (i = 0; i < STORE_METER_NR_PHASES; i++)
		profile_release(&phases[i]);
	store_meter_release(&m);
	free(samples);
	return ret;
}

/* A list fact ("workloads", "series": one per line) as the union of both sides'. */
static int union_list(struct store *exp, struct store *shard, const char *key)
{
	char *here = store_get_meta(exp, key), *there = store_get_meta(shard, key);
	struct strvec all = STRVEC_INIT, more = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int ret = 0;

	if (here)
		strvec_split(&all, here, "\n");
	if (there)
		strvec_split(&more, there, "\n");
	for (i = 0; i < more.nr; i++)
		strvec_push_unique(&all, more.v[i]);
	for (i = 0; i < all.nr; i++)
		strbuf_addf(&sb, "%s%s", i ? "\n" : "", all.v[i]);
	if (all.nr)
		ret = store_set_meta(exp, key, sb.buf);
	strvec_clear(&all);
	strvec_clear(&more);
	strbuf_release(&sb);
	free(here);
	free(there);
	return ret;
}

/* The facts exp lacks, from the shard (not what makes it a shard, nor merge records). */
static int adopt_meta(struct store *exp, struct store *shard)
{
	struct strvec kv = STRVEC_INIT;
	size_t i;
	int ret = 0;

	if (store_get_meta_all(shard, &kv))
		return -1;
	for (i = 0; i + 1 < kv.nr && !ret; i += 2) {
		char *have;

		if (!strcmp(kv.v[i], META_SHARD) || !strcmp(kv.v[i], META_SHARD_OF) ||
		    starts_with(kv.v[i], "merged ") || !strcmp(kv.v[i], META_WORKLOADS) ||
		    !strcmp(kv.v[i], META_SERIES))
			continue;
		have = store_get_meta(exp, kv.v[i]);
		if (!have)
			ret = store_set_meta(exp, kv.v[i], kv.v[i + 1]);
		free(have);
	}
	strvec_clear(&kv);
	if (!ret)
		ret = union_list(exp, shard, "workloads") || union_list(exp, shard, "series");
	return ret;
}

/*
 * "<name>: complete|partial, N runs merged; host H[; measured again: X of Y
 * identical]": what the experiment holds of the shard after this merge,
 * written again by every merge (so it follows a shard merged while it ran).
 */
static int record_merge(struct store *exp, struct store *shard, const char *name,
			const struct merge_result *r)
{
	char *what = store_get_meta(shard, META_SHARD), *host = store_get_meta(shard, META_HOST);
	char *done = store_get_meta(shard, META_SHARD_COMPLETE);
	char *key = xstrfmt("merged %s", what ? what : name);
	struct strbuf sb = STRBUF_INIT;
	int ret;

	strbuf_addf(&sb, "%s: %s, %d runs merged; host %s", name,
		    done && !strcmp(done, "yes") ? "complete" : "partial", r->added + r->present,
		    host ? host : "unknown");
	if (r->aa_compared)
		strbuf_addf(&sb, "; measured again: %d of %d identical", r->aa_identical,
			    r->aa_compared);
	ret = store_set_meta(exp, key, sb.buf);
	strbuf_release(&sb);
	free(what);
	free(host);
	free(done);
	free(key);
	return ret;
}

int shard_merge(struct store *exp, struct store *shard, const char *name,
		struct merge_result *out)
{
	struct merge_difference d = MERGE_DIFFERENCE_INIT;
	struct side e, s;
	size_t i;
	int rc, ret = -1, began = 0;

	memset(out, 0, sizeof(*out));
	memset(&e, 0, sizeof(e));
	memset(&s, 0, sizeof(s));
	rc = merge_conditions_differ(exp, shard, &d);
	if (rc < 0)
		goto out;
	if (rc) {
		error("shard '%s' was run with another %s: '%s' in the experiment, '%s' in the "
		      "shard: not merged", name, d.field, d.here, d.there);
		goto out;
	}
	if (store_begin(exp))
		goto out;
	began = 1;
	if (side_read(&e, exp) || side_read(&s, shard))
		goto out;
	for (i = 0; i < s.nr_runs; i++) {
		const struct store_run *r = &s.runs[i], *mine;
		const struct store_variant *sv = variant_by_id(&s, r->variant_id), *ev;

		if (!sv || !(ev = variant_by_name(&e, sv->name))) {
			error("shard '%s': run %lld has no variant the experiment knows: not merged",
			      name, (long long)r->id);
			goto out;
		}
		mine = same_run(&e, ev->id, r);
		if (mine) {
			out->present++;
			compare_again(&e, mine, &s, r, sv->name, out);
			continue;
		}
		if (add_run(exp, shard, &s, r, ev->id))
			goto out;
		out->added++;
	}
	if (adopt_meta(exp, shard) || record_merge(exp, shard, name, out) || store_commit(exp))
		goto out;
	began = 0;
	ret = 0;
out:
	if (began)
		store_rollback(exp);
	side_release(&e);
	side_release(&s);
	merge_difference_release(&d);
	return ret;
}

/* The value of key among facts, or NULL. */
static const char *fact(const struct strvec *facts, const char *key)
{
	size_t i;

	for (i = 0; i + 1 < facts->nr; i += 2)
		if (!strcmp(facts->v[i], key))
			return facts->v[i + 1];
	return NULL;
}

void shard_standing(struct strbuf *out, const struct strvec *facts, struct strvec *missing)
{
	int *counts = NULL, compared = 0, identical = 0, n;
	size_t i, k, nr = 0, alloc = 0;

	for (i = 0; i + 1 < facts->nr; i += 2) {
		const char *again;
		int idx, cnt, x, y;

		if (sscanf(facts->v[i], "merged run %d/%d", &idx, &cnt) != 2 || cnt < 1)
			continue;
		again = strstr(facts->v[i + 1], "measured again: ");
		if (again && sscanf(again, "measured again: %d of %d identical", &x, &y) == 2) {
			identical += x;
			compared += y;
		}
		for (k = 0; k < nr && counts[k] != cnt; k++)
			;
		if (k == nr) {
			ALLOC_GROW(counts, nr + 1, alloc);
			counts[nr++] = cnt;
		}
	}
	for (i = 0; i < nr; i++) {
		struct strbuf merged = STRBUF_INIT, partial = STRBUF_INIT, absent = STRBUF_INIT;

		for (n = 1; n <= counts[i]; n++) {
			struct strbuf *into;
			const char *v;
			char key[64];

			snprintf(key, sizeof(key), "merged run %d/%d", n, counts[i]);
			v = fact(facts, key);
			into = !v ? &absent : strstr(v, ": partial") ? &partial : &merged;
			strbuf_addf(into, "%s%d", into->len ? ", " : "", n);
			if (into != &merged && missing)
				strvec_pushf(missing, "%d/%d", n, counts[i]);
		}
		strbuf_addf(out, "%sof %d: ", i ? "; " : "", counts[i]);
		if (!absent.len && !partial.len) {
			strbuf_addstr(out, "all merged");
		} else {
			strbuf_addf(out, "merged %s", merged.len ? merged.buf : "none");
			if (partial.len)
				strbuf_addf(out, "; partial %s", partial.buf);
			if (absent.len)
				strbuf_addf(out, "; missing %s", absent.buf);
		}
		strbuf_release(&merged);
		strbuf_release(&partial);
		strbuf_release(&absent);
	}
	if (compared)
		strbuf_addf(out, "; measured again with the same layout seed: %d of %d identical",
			    identical, compared);
	free(counts);
}
