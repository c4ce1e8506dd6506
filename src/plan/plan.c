/* plan.c: the variants of an experiment, resolved by the kernel's own Kconfig. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kconfig/kconfig-index.h"
#include "kconfig/kconfig.h"
#include "plan/arch.h"
#include "plan/harness.h"
#include "plan/plan-parts.h"
#include "plan/plan.h"
#include "plan/slim.h"
#include "store/meta-keys.h"
#include "util/run-command.h"
#include "plan/kernel-source.h"
#include "store/conditions.h"
#include "store/store.h"
#include "util/escape.h"
#include "util/own-dir.h"
#include "util/usage.h"
#include "util/wrapper.h"

int plan_parse_designs(unsigned *out, const char *spec)
{
	struct strvec parts = STRVEC_INIT;
	size_t i;
	int ret = 0;

	*out = 0;
	strvec_split(&parts, spec, ", ");
	for (i = 0; i < parts.nr; i++) {
		if (!strcmp(parts.v[i], "oat"))
			*out |= PLAN_OAT;
		else if (!strcmp(parts.v[i], "all"))
			*out |= PLAN_ALL;
		else if (!strcmp(parts.v[i], "loo"))
			*out |= PLAN_LOO;
		else if (!strcmp(parts.v[i], "cumulative"))
			*out |= PLAN_CUMULATIVE;
		else if (!strcmp(parts.v[i], "screen"))
			ret = error("the screen design chooses its variants as it measures: "
				    "run 'kconfperf screen' with the same inputs");
		else
			ret = error("unknown design '%s' (expected oat, all, loo or cumulative)",
				    parts.v[i]);
	}
	if (!ret && !*out)
		ret = error("no design given (expected oat, all, loo or cumulative)");
	strvec_clear(&parts);
	return ret;
}

void plan_options_release(struct plan_options *o)
{
	strvec_clear(&o->base_add);
	strvec_clear(&o->harness);
}

static void variant_release(struct plan_variant *v)
{
	free(v->name);
	strvec_clear(&v->options);
	kconfig_free(v->requested);
	kconfig_free(v->effective);
	free(v->same_as);
	strbuf_release(&v->reason);
	strbuf_release(&v->diff);
}

void plan_release(struct plan *p)
{
	size_t i;

	for (i = 0; i < p->nr_variants; i++)
		variant_release(&p->variants[i]);
	free(p->variants);
	plan_option_list_free(p->options, p->nr_options);
	kconfig_free(p->baseline);
	kconfig_index_free(p->index);
	strbuf_release(&p->harness);
	strbuf_release(&p->boot);
	strvec_clear(&p->slimmed);
	strvec_clear(&p->slim_stayed);
	memset(p, 0, sizeof(*p));
}

int plan_same_value(const char *have, const char *want)
{
	if (!have || !strcmp(have, "n"))
		return !want || !strcmp(want, "n");
	return want && !strcmp(have, want);
}

const struct arch *plan_arch_of(const struct plan_options *o)
{
	const struct arch *a = arch_find(plan_arch(o));

	if (!a)
		BUG("arch '%s' was not checked", plan_arch(o));
	return a;
}

int plan_is_config_file(const char *base)
{
	struct stat st;

	return !stat(base, &st) && S_ISREG(st.st_mode);
}

int plan_labelled(const struct plan_options *o)
{
	return o->label && *o->label;
}

/* A variant's name without its source's "LABEL:". */
static const char *unlabelled(const struct plan_options *o, const char *name)
{
	size_t len = plan_labelled(o) ? strlen(o->label) : 0;

	return len && !strncmp(name, o->label, len) && name[len] == ':' ? name + len + 1 : name;
}

static int read_options(struct plan *p, const struct plan_options *o)
{
	return plan_read_options(&p->options, &p->nr_options, o);
}

/* --with-deps: the visible symbols that meet each option's unmet dependencies. */
static void add_deps(struct plan *p)
{
	size_t i;

	for (i = 0; i < p->nr_options; i++) {
		struct plan_option *opt = &p->options[i];
		size_t iter = 0;
		const char *name, *value;

		/* every setting of a group, as for an option alone */
		while (kconfig_next(opt->settings, &iter, &name, &value)) {
			struct strbuf why = STRBUF_INIT;
			enum kconfig_explain what;

			if (plan_same_value(value, "n"))
				continue;
			what = kconfig_index_explain(&why, p->index, name, kconfig_lookup,
						     p->baseline);
			strbuf_reset(&why);
			if (what == KCONFIG_EXPLAIN_UNMET_DEPS &&
			    kconfig_index_deps_to_enable(&opt->deps, p->index, name, kconfig_lookup,
							 p->baseline, &why))
				warning("--with-deps: cannot meet the dependencies of CONFIG_%s=%s%s%s: %s",
					name, value, opt->is_group ? " in group " : "",
					opt->is_group ? opt->label : "", why.buf);
			strbuf_release(&why);
		}
	}
}

static void add_option_settings(struct kconfig *kc, const struct plan_option *opt)
{
	size_t i, iter = 0;
	const char *name, *value;

	for (i = 0; i < opt->deps.nr; i++)
		if (kconfig_set(kc, opt->deps.v[i], "y"))
			BUG("cannot set the Kconfig symbol CONFIG_%s=y", opt->deps.v[i]);
	while (kconfig_next(opt->settings, &iter, &name, &value))
		if (kconfig_set(kc, name, value))
			BUG("cannot set the parsed option CONFIG_%s=%s of %s", name, value, opt->label);
}

static struct plan_variant *new_variant(struct plan *p, size_t *alloc, const char *label,
					const char *name, const char *kind)
{
	struct plan_variant *v;

	ALLOC_GROW(p->variants, p->nr_variants + 1, *alloc);
	v = &p->variants[p->nr_variants++];
	memset(v, 0, sizeof(*v));
	v->name = label && *label ? xstrfmt("%s:%s", label, name) : xstrdup(name);
	v->kind = kind;
	strvec_init(&v->options);
	v->requested = kconfig_new();
	strbuf_init(&v->reason, 0);
	strbuf_init(&v->diff, 0);
	return v;
}

void plan_make_variants(struct plan *p, unsigned designs, int aa, const char *label)
{
	size_t *alloc = &p->alloc_variants, i, j;
	struct plan_variant *v;

	new_variant(p, alloc, label, "baseline", "baseline");
	if (aa)
		new_variant(p, alloc, label, PLAN_AA_NAME, PLAN_AA_NAME);
	if (designs & PLAN_OAT || p->nr_options == 1) {
		for (i = 0; i < p->nr_options; i++) {
			v = new_variant(p, alloc, label, p->options[i].label, "oat");
			add_option_settings(v->requested, &p->options[i]);
			strvec_push(&v->options, p->options[i].label);
		}
	}
	if (designs & (PLAN_ALL | PLAN_LOO) && p->nr_options > 1) {
		v = new_variant(p, alloc, label, "all", "all");
		for (i = 0; i < p->nr_options; i++) {
			add_option_settings(v->requested, &p->options[i]);
			strvec_push(&v->options, p->options[i].label);
		}
	}
	if (designs & PLAN_LOO && p->nr_options > 1) {
		for (i = 0; i < p->nr_options; i++) {
			char *name = xstrfmt("all-%s", p->options[i].label);

			v = new_variant(p, alloc, label, name, "loo");
			free(name);
			for (j = 0; j < p->nr_options; j++) {
				if (j == i)
					continue;
				add_option_settings(v->requested, &p->options[j]);
				strvec_push(&v->options, p->options[j].label);
			}
		}
	}
	/* Last, so that the first step is same-as its oat variant and the last same-as all. */
	if (designs & PLAN_CUMULATIVE && p->nr_options > 1) {
		for (i = 0; i < p->nr_options; i++) {
			char *name = xstrfmt("+%s", p->options[i].label);

			v = new_variant(p, alloc, label, name, "cumulative");
			free(name);
			for (j = 0; j <= i; j++) {
				add_option_settings(v->requested, &p->options[j]);
				strvec_push(&v->options, p->options[j].label);
			}
		}
	}
}

static void hash_file_or_text(struct sha256 *c, const char *item)
{
	struct strbuf sb = STRBUF_INIT;

	if (plan_is_config_file(item) && strbuf_read_file_max(&sb, item, KCONFIG_MAX_SIZE) >= 0)
		sha256_update(c, sb.buf, sb.len + 1);
	else
		sha256_update(c, item, strlen(item) + 1);
	strbuf_release(&sb);
}

/* The plan's identity: what was asked, not where the files were. */
static void plan_key(struct plan *p, const struct plan_options *o)
{
	struct sha256 c;
	char designs[16];
	size_t i;

	sha256_init(&c);
	sha256_update(&c, "kconfperf-plan-1", 17);
	sha256_update(&c, o->source->id, strlen(o->source->id) + 1);
	hash_file_or_text(&c, o->base);
	for (i = 0; i < o->base_add.nr; i++)
		hash_file_or_text(&c, o->base_add.v[i]);
	for (i = 0; i < p->nr_options; i++) {
		sha256_update(&c, p->options[i].label, strlen(p->options[i].label) + 1);
		/* a group is its members too (an option's label says all it sets) */
		if (p->options[i].is_group) {
			struct strbuf sb = STRBUF_INIT;

			plan_option_settings_text(&sb, &p->options[i]);
			sha256_update(&c, sb.buf, sb.len + 1);
			strbuf_release(&sb);
		}
	}
	snprintf(designs, sizeof(designs), "%u/%d", o->designs, o->with_deps);
	sha256_update(&c, designs, strlen(designs) + 1);
	if (o->aa)
		sha256_update(&c, PLAN_AA_NAME, sizeof(PLAN_AA_NAME));
	if (o->slim)
		sha256_update(&c, "slim", 5);
	/* Only what is not the default, so older experiments keep their key. */
	if (strcmp(plan_arch(o), HARNESS_DEFAULT_ARCH))
		sha256_update(&c, plan_arch(o), strlen(plan_arch(o)) + 1);
	if (o->cross_compile) {
		sha256_update(&c, "cross", 6);
		sha256_update(&c, o->cross_compile, strlen(o->cross_compile) + 1);
	}
	for (i = 0; i < o->harness.nr; i++)
		sha256_update(&c, o->harness.v[i], strlen(o->harness.v[i]) + 1);
	/* --fast-boot or --no-fast-boot; without either, the key of older experiments */
	if (o->fast_boot != HARNESS_FAST_BOOT_AUTO) {
		const char *fast = o->fast_boot ? "fast-boot" : "no-fast-boot";

		sha256_update(&c, fast, strlen(fast) + 1);
	}
	sha256_final_hex(&c, p->key);
}

int plan_input_key(const struct plan_options *o, char key[SHA256_HEX_SIZE])
{
	struct plan p = PLAN_INIT;

	if ((o->options || o->diff_old) && read_options(&p, o)) {
		plan_release(&p);
		return -1;
	}
	plan_key(&p, o);
	memcpy(key, p.key, SHA256_HEX_SIZE);
	plan_release(&p);
	return 0;
}

int plan_make(struct plan *out, const struct plan_options *o)
{
	double start = now_seconds();
	size_t i;

	memset(out, 0, sizeof(*out));
	strbuf_init(&out->harness, 0);
	strbuf_init(&out->boot, 0);
	if (!o->options && !o->diff_old && !plan_labelled(o))
		return error("no options given (use --options or --options-from-diff)");
	if ((o->options || o->diff_old) && read_options(out, o))
		goto fail;
	if (!arch_find(plan_arch(o))) {
		error("kconfperf cannot build and boot arch '%s'", plan_arch(o));
		goto fail;
	}
	if (arch_check_compiler(plan_arch_of(o), arch_cross_compile(plan_arch_of(o), o->cross_compile)))
		goto fail;
	if (kconfig_index_load(&out->index, o->source->tree, plan_arch_of(o)->srcarch))
		goto fail;
	if (plan_resolve_baseline(out, o))
		goto fail;
	if (o->with_deps)
		add_deps(out);
	plan_key(out, o);
	plan_make_variants(out, o->designs, o->aa, o->label);
	out->variants[0].effective = kconfig_dup(out->baseline);
	plan_classify(out, o, &out->variants[0], 0);
	out->variants[0].status = VARIANT_OK;
	if (o->aa) {
		/* The baseline kernel again, measured as a variant of its own. */
		struct plan_variant *aa = &out->variants[1];

		aa->effective = kconfig_dup(out->baseline);
		plan_classify(out, o, aa, 0);
		aa->status = VARIANT_OK;
		strbuf_addstr(&aa->reason, "the baseline kernel, measured again: "
			      "the experiment's own false-positive check");
	}
	if (plan_resolve_all(out, o, o->aa ? 2 : 1))
		goto fail;
	for (i = 0; i < out->nr_options; i++) {
		const struct plan_option *opt = &out->options[i];
		size_t d;

		if (!opt->deps.nr)
			continue;
		for (d = 1; d < out->nr_variants; d++) {
			struct plan_variant *v = &out->variants[d];

			if (strcmp(v->kind, "oat") || strcmp(unlabelled(o, v->name), opt->label))
				continue;
			strbuf_addf(&v->reason, "%swith deps:", v->reason.len ? "; " : "");
			for (size_t k = 0; k < opt->deps.nr; k++)
				strbuf_addf(&v->reason, " +%s", opt->deps.v[k]);
		}
	}
	out->seconds = now_seconds() - start;
	return 0;
fail:
	plan_release(out);
	return -1;
}

void plan_store_variant(const struct plan_variant *pv, int position, struct store_variant *out)
{
	struct strbuf sb = STRBUF_INIT;
	size_t k;

	memset(out, 0, sizeof(*out));
	out->name = xstrdup(pv->name);
	out->kind = xstrdup(pv->kind);
	for (k = 0; k < pv->options.nr; k++)
		strbuf_addf(&sb, "%s\n", pv->options.v[k]);
	out->options = strbuf_detach(&sb, NULL);
	kconfig_write(pv->requested, &sb);
	out->requested = strbuf_detach(&sb, NULL);
	out->effective_diff = xstrdup(pv->diff.buf);
	kconfig_write(pv->effective, &sb);
	out->config = strbuf_detach(&sb, NULL);
	out->config_hash = xstrdup(pv->hash);
	out->status = pv->status;
	out->same_as = pv->same_as ? xstrdup(pv->same_as) : NULL;
	out->reason = pv->reason.len ? xstrdup(pv->reason.buf) : NULL;
	out->added = pv->added;
	out->removed = pv->removed;
	out->changed = pv->changed;
	out->position = position;
}

long plan_add_variant(struct plan *p, const struct plan_options *o, const char *name,
		      const char *kind, const size_t *opts, size_t nr)
{
	struct plan_variant *v;
	size_t i;

	for (i = 0; i < nr; i++)
		if (opts[i] >= p->nr_options)
			return error("plan_add_variant: no option %zu", opts[i]);
	v = new_variant(p, &p->alloc_variants, o->label, name, kind);
	for (i = 0; i < nr; i++) {
		add_option_settings(v->requested, &p->options[opts[i]]);
		strvec_push(&v->options, p->options[opts[i]].label);
	}
	if (plan_resolve_all(p, o, p->nr_variants - 1))
		return -1;
	return (long)(p->nr_variants - 1);
}

void plan_groups_text(struct strbuf *out, const struct plan *p)
{
	size_t i, iter;
	const char *name, *value;

	for (i = 0; i < p->nr_options; i++) {
		if (!p->options[i].is_group)
			continue;
		iter = 0;
		while (kconfig_next(p->options[i].settings, &iter, &name, &value))
			strbuf_addf(out, "%s CONFIG_%s=%s\n", p->options[i].label, name, value);
	}
}

/* The groups' members, for reports (meta "groups", plan.h). */
static int save_groups(const struct plan *p, struct store *st)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	plan_groups_text(&sb, p);
	ret = store_set_meta(st, META_GROUPS, sb.buf);
	strbuf_release(&sb);
	return ret;
}

/* meta slim_removed and slim_stayed: one symbol a line, empty without --slim. */
static int save_slimmed(const struct plan *p, struct store *st)
{
	const struct strvec *lists[] = { &p->slimmed, &p->slim_stayed };
	const char *keys[] = { META_SLIM_REMOVED, META_SLIM_STAYED };
	struct strbuf sb = STRBUF_INIT;
	size_t k, i;
	int ret = 0;

	for (k = 0; k < ARRAY_SIZE(lists) && !ret; k++) {
		strbuf_reset(&sb);
		for (i = 0; i < lists[k]->nr; i++)
			strbuf_addf(&sb, "%s\n", lists[k]->v[i]);
		ret = store_set_meta(st, keys[k], sb.buf);
	}
	strbuf_release(&sb);
	return ret;
}

int plan_save_boot(const struct plan *p, struct store *st)
{
	struct conditions c = CONDITIONS_INIT;
	int ret;

	if (!p->harness.len)
		return 0;	/* nothing resolved: plan_save_inputs()'s stays */
	c.harness = xstrdup(p->harness.buf);
	c.boot = p->boot.len ? xstrdup(p->boot.buf) : NULL;
	ret = conditions_save(&c, st);
	conditions_release(&c);
	return ret;
}

int plan_save_extras(const struct plan *p, struct store *st)
{
	return save_groups(p, st) || save_slimmed(p, st) || plan_save_boot(p, st) ? -1 : 0;
}

const char *plan_arch(const struct plan_options *o)
{
	return o->arch ? o->arch : HARNESS_DEFAULT_ARCH;
}

int plan_choose_arch(struct plan_options *o)
{
	const struct arch *want = arch_find(plan_arch(o)), *have;
	struct kconfig *kc = NULL;
	struct strbuf names = STRBUF_INIT;
	int ret = 0;

	if (!want) {
		arch_list(&names);
		ret = error("kconfperf cannot build and boot arch '%s' (it can: %s)", o->arch,
			    names.buf);
		strbuf_release(&names);
		return ret;
	}
	/* A base that cannot be read is said by the plan that reads it. */
	if (!o->base || !plan_is_config_file(o->base) || kconfig_load(&kc, o->base, KCONFIG_LOOSE))
		return 0;
	have = arch_of_config(kc);
	if (have && have != want && o->arch)
		ret = error("baseline '%s' is a .config for %s (CONFIG_%s=y), not for --arch %s: "
			    "give a .config for %s or a make target such as tinyconfig, or drop "
			    "--arch", o->base, have->name, have->config_symbol, want->name,
			    want->name);
	else if (have)
		o->arch = have->name;
	kconfig_free(kc);
	return ret;
}

/* meta cross_compile: the prefix the kernels are built with ("": native), for build. */
static int plan_save_cross_compile(struct store *st, const struct plan_options *o)
{
	const char *cross = arch_cross_compile(plan_arch_of(o), o->cross_compile);

	return store_set_meta(st, META_CROSS_COMPILE, cross ? cross : "");
}

int plan_save_inputs(struct store *st, const struct kernel_source *ks,
		     const struct plan_options *o, const char *cache, const char *designs)
{
	struct conditions c = CONDITIONS_INIT;
	struct strbuf names = STRBUF_INIT;
	struct kconfig *kc = NULL;
	int ret;

	if (harness_config(&kc, &names, plan_arch(o), &o->harness))
		return -1;
	kconfig_free(kc);
	c.arch = xstrdup(plan_arch(o));
	c.harness = strbuf_detach(&names, NULL);
	c.kernel_version = ks->version ? xstrdup(ks->version) : NULL;
	c.base = o->base ? xstrdup(o->base) : NULL;
	ret = conditions_save(&c, st) ||
	      plan_save_cross_compile(st, o) ||
	      store_set_meta(st, META_SOURCE, ks->origin) ||
	      store_set_meta(st, META_SOURCE_ID, ks->id) ||
	      store_set_meta(st, META_SOURCE_TREE, ks->tree) ||
	      store_set_meta(st, META_DESIGNS, designs) ||
	      store_set_meta(st, META_CACHE, cache) ? -1 : 0;
	conditions_release(&c);
	return ret;
}
