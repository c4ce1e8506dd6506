/* plan-set.c: the plans of an experiment's sources, made, keyed and stored together. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "plan/plan-claims.h"
#include "plan/plan-set.h"
#include "store/meta-keys.h"
#include "store/store-claims.h"
#include "store/store.h"
#include "util/usage.h"
#include "util/wrapper.h"

void plan_set_release(struct plan_set *ps)
{
	size_t i;

	for (i = 0; i < ps->nr; i++)
		plan_release(&ps->plans[i]);
	free(ps->plans);
	memset(ps, 0, sizeof(*ps));
}

/* o for source i: its tree, label and scratch directory (work, freed by the caller). */
static struct plan_options for_source(const struct plan_options *o, const struct source_set *ss,
				      size_t i, char **work)
{
	struct plan_options po = *o;

	po.source = &ss->v[i].ks;
	po.label = ss->v[i].label;
	*work = NULL;
	if (ss->nr > 1) {
		*work = xstrfmt("%s/source-%zu", o->work_dir, i);
		po.work_dir = *work;
	}
	return po;
}

int plan_set_make(struct plan_set *out, const struct plan_options *o,
		  const struct source_set *ss)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	out->plans = xcalloc(ss->nr ? ss->nr : 1, sizeof(*out->plans));
	for (i = 0; i < ss->nr; i++) {
		char *work;
		struct plan_options po = for_source(o, ss, i, &work);
		int rc;

		if (ss->nr > 1)
			note("plan: resolving the variants of %s (%s) with its Kconfig",
			     ss->v[i].label, ss->v[i].ks.version);
		rc = plan_make(&out->plans[i], &po);
		free(work);
		if (rc) {
			if (ss->nr > 1)
				error("cannot plan source %s ('%s')", ss->v[i].label,
				      ss->v[i].ks.patch ? ss->v[i].ks.patch : ss->v[i].ks.origin);
			goto fail;
		}
		out->nr++;
	}
	return 0;
fail:
	plan_set_release(out);
	return -1;
}

int plan_set_key(const struct plan_options *o, const struct source_set *ss,
		 char key[SHA256_HEX_SIZE])
{
	struct sha256 c;
	size_t i;

	if (ss->nr == 1) {
		struct plan_options po = *o;

		po.source = &ss->v[0].ks;
		po.label = ss->v[0].label;
		return plan_input_key(&po, key);
	}
	sha256_init(&c);
	sha256_update(&c, "kconfperf-plan-sources-1", 25);
	for (i = 0; i < ss->nr; i++) {
		char *work, one[SHA256_HEX_SIZE];
		struct plan_options po = for_source(o, ss, i, &work);
		int rc = plan_input_key(&po, one);

		free(work);
		if (rc)
			return -1;
		sha256_update(&c, ss->v[i].label, strlen(ss->v[i].label) + 1);
		sha256_update(&c, one, strlen(one) + 1);
	}
	sha256_final_hex(&c, key);
	return 0;
}

static int save_sources(const struct source_set *ss, struct store *st)
{
	struct store_source *rows = xcalloc(ss->nr ? ss->nr : 1, sizeof(*rows));
	size_t i;
	int ret;

	for (i = 0; i < ss->nr; i++) {
		const struct experiment_source *es = &ss->v[i];

		rows[i].label = es->label;
		rows[i].origin = es->ks.origin;
		rows[i].id = es->ks.id;
		rows[i].tree = es->ks.tree;
		rows[i].version = es->ks.version;
		rows[i].patch = es->ks.patch;
		rows[i].base = es->base >= 0 ? ss->v[es->base].label : NULL;
	}
	ret = store_put_sources(st, rows, ss->nr);
	free(rows);
	return ret;
}

/* The help texts' claims of every source's plan, each with its source's label. */
static int save_claims(const struct plan_set *ps, const struct source_set *ss, struct store *st)
{
	struct store_claim *c = NULL;
	size_t nr = 0, alloc = 0, i;
	int ret = 0;

	for (i = 0; i < ps->nr && !ret; i++)
		ret = plan_claims(&c, &nr, &alloc, &ps->plans[i], ss->v[i].label);
	if (!ret)
		ret = store_put_claims(st, c, nr);
	store_claims_free(c, nr);
	return ret;
}

int plan_set_save(const struct plan_set *ps, const struct source_set *ss,
		  const struct plan_options *o, struct store *st, const char *cache,
		  const char *designs)
{
	char key[SHA256_HEX_SIZE];
	size_t i, k;
	int position = 0;

	if (plan_set_key(o, ss, key) || plan_save_inputs(st, &ss->v[0].ks, o, cache, designs))
		return -1;
	if (store_begin(st))
		return -1;
	if (store_clear_variants(st) || save_sources(ss, st))
		goto fail;
	for (i = 0; i < ps->nr; i++) {
		for (k = 0; k < ps->plans[i].nr_variants; k++) {
			struct store_variant v = STORE_VARIANT_INIT;
			int rc;

			plan_store_variant(&ps->plans[i].variants[k], position++, &v);
			v.source = xstrdup(ss->v[i].label);
			rc = store_put_variant(st, &v);
			store_variant_release(&v);
			if (rc)
				goto fail;
		}
	}
	/* the groups are the same in every source's plan; --slim is the first's */
	if (store_set_meta(st, META_PLAN_KEY, key) || (ps->nr && plan_save_extras(&ps->plans[0], st)) ||
	    save_claims(ps, ss, st))
		goto fail;
	return store_commit(st);
fail:
	store_rollback(st);
	return -1;
}

/* The stored source s opened again, checked against its stored identity. */
static int reopen_one(struct experiment_source *es, const struct store_source *s,
		      const struct source_set *ss, const char *cache_dir)
{
	int rc;

	es->label = xstrdup(s->label);
	if (s->patch) {
		const struct experiment_source *base = s->base ? source_set_find(ss, s->base) : NULL;

		if (!base)
			return error("patched source %s names no source it patches ('%s')",
				     s->label, s->base ? s->base : "");
		es->base = base - ss->v;
		rc = kernel_source_patch(&es->ks, &base->ks, s->patch, cache_dir);
	} else {
		rc = kernel_source_open(&es->ks, s->origin, cache_dir);
	}
	if (rc)
		return -1;
	if (strcmp(es->ks.id, s->id))
		return error("%s '%s' has changed since it was planned (%.20s... then, %.20s... "
			     "now); plan again", s->patch ? "patch" : "source",
			     s->patch ? s->patch : s->origin, s->id, es->ks.id);
	return 0;
}

int source_set_reopen(struct source_set *out, struct store *st, const char *cache_dir)
{
	struct store_source *rows = NULL;
	size_t nr = 0, i;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (store_get_sources(st, &rows, &nr))
		return -1;
	if (!nr) {
		error("%s: the plan does not say which source it used; plan again", store_path(st));
		goto out;
	}
	out->v = xcalloc(nr, sizeof(*out->v));
	out->alloc = nr;
	for (i = 0; i < nr; i++) {
		struct experiment_source *es = &out->v[out->nr++];

		strvec_init(&es->ks.patched);
		es->base = -1;
		if (reopen_one(es, &rows[i], out, cache_dir))
			goto out;
	}
	ret = 0;
out:
	if (ret)
		source_set_release(out);
	store_sources_free(rows, nr);
	return ret;
}
