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
#include "plan/plan.h"
#include "plan/slim.h"
#include "util/run-command.h"
#include "plan/kernel-source.h"
#include "store/conditions.h"
#include "store/store.h"
#include "util/escape.h"
#include "util/own-dir.h"
#include "util/usage.h"
#include "util/wrapper.h"

#define MAKE_ERR_CAP 8192

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

/* Whether a symbol's effective value (NULL: absent) is the requested one. */
static int same_value(const char *have, const char *want)
{
	if (!have || !strcmp(have, "n"))
		return !want || !strcmp(want, "n");
	return want && !strcmp(have, want);
}

/* The plan's arch; plan_choose_arch() has checked the name. */
static const struct arch *arch_of(const struct plan_options *o)
{
	const struct arch *a = arch_find(plan_arch(o));

	if (!a)
		BUG("arch '%s' was not checked", plan_arch(o));
	return a;
}

/*
 * make -s O=objdir [ARCH= CROSS_COMPILE=] target in the source tree (Kconfig
 * asks the arch's compiler what it can do, so both matter); on failure
 * prints why with make's stderr.
 */
static void make_command(struct child_process *cp, const struct plan_options *o,
			 const char *objdir, const char *target, struct strbuf *err)
{
	const struct arch *a = arch_of(o);

	strvec_pushv(&cp->args, (const char *[]){ "make", "-s", NULL });
	strvec_pushf(&cp->args, "O=%s", objdir);
	arch_make_vars(&cp->args, a, arch_cross_compile(a, o->cross_compile));
	strvec_push(&cp->args, target);
	strvec_push(&cp->env, "LC_ALL=C");
	cp->dir = o->source->tree;
	cp->out.mode = CHILD_IO_NULL;
	cp->err.mode = CHILD_IO_CAPTURE;
	cp->err.buf = err;
	cp->err.cap = MAKE_ERR_CAP;
	cp->timeout = 600;
}

static int make_failed(struct child_process *cp, struct strbuf *err, const char *target)
{
	struct strbuf why = STRBUF_INIT;
	int ret;

	child_process_describe(&why, cp);
	strbuf_trim(err);
	ret = error("make %s %s%s%s", target, why.buf, err->len ? ":\n" : "", err->buf);
	strbuf_release(&why);
	return ret;
}

static int run_make(const struct plan_options *o, const char *objdir, const char *target)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf err = STRBUF_INIT;
	int ret = 0;

	make_command(&cp, o, objdir, target, &err);
	if (run_command(&cp))
		ret = make_failed(&cp, &err, target);
	strbuf_release(&err);
	child_process_release(&cp);
	return ret;
}

static char *slot_dir(const struct plan_options *o, int i)
{
	return xstrfmt("%s/kconfig-%d", o->work_dir, i);
}

/* DIR/work/kconfig-N, made without following a link planted in DIR (own-dir.h). */
static int make_slot_dir(const char *dir)
{
	const char *slash = strrchr(dir, '/');
	const char *up = slash && slash > dir ? memrchr(dir, '/', (size_t)(slash - dir)) : NULL;
	char *base;
	int ret;

	if (!up)
		return mkdir_p(dir, 0755);
	base = xstrndup(dir, (size_t)(up - dir));
	ret = own_subdir_make(*base ? base : "/", up + 1);
	free(base);
	return ret;
}

static int load_slot_config(struct kconfig **out, const char *dir)
{
	char *path = xstrfmt("%s/.config", dir);
	int ret = kconfig_load(out, path, 0);

	free(path);
	return ret;
}

static int save_slot_config(const struct kconfig *kc, const char *dir)
{
	char *path = xstrfmt("%s/.config", dir);
	int ret = kconfig_save(kc, path);

	free(path);
	return ret;
}

/* A base that names an existing file is a .config; anything else a make target. */
static int is_config_file(const char *base)
{
	struct stat st;

	return !stat(base, &st) && S_ISREG(st.st_mode);
}

static int valid_target(const char *t)
{
	size_t i;

	for (i = 0; t[i]; i++)
		if (!((t[i] >= 'a' && t[i] <= 'z') || (t[i] >= '0' && t[i] <= '9') ||
		      t[i] == '_' || t[i] == '.' || t[i] == '-'))
			return 0;
	return i > 0 && ends_with(t, "config");
}

/* Adds --base-add items (fragment files or CONFIG_X=y settings) to frag. */
static int read_base_add(struct kconfig *frag, const struct strvec *items)
{
	size_t i;

	for (i = 0; i < items->nr; i++) {
		const char *item = items->v[i];
		struct stat st;

		/* Not a setting named after the directory: CONFIG_FRAGS=y would go unnoticed. */
		if (!stat(item, &st) && S_ISDIR(st.st_mode))
			return error("--base-add '%s' is a directory, not a fragment file or a "
				     "setting such as CONFIG_X=y", item);
		if (is_config_file(item)) {
			struct strbuf sb = STRBUF_INIT;
			int ret;

			if (strbuf_read_file_max(&sb, item, KCONFIG_MAX_SIZE) < 0)
				return -1;
			ret = kconfig_parse(frag, item, sb.buf, sb.len, 0);
			strbuf_release(&sb);
			if (ret)
				return -1;
		} else if (kconfig_parse_list(frag, "--base-add", item)) {
			return -1;
		}
	}
	return 0;
}

/*
 * After an explanation that names symbols turned off ("DRM_NOUVEAU=n"),
 * says which of them --slim turned off: a module the guest never loads.
 */
static void add_slimmed_atoms(struct strbuf *out, const struct plan *p, const char *why)
{
	size_t i, any = 0;

	for (i = 0; i < p->slimmed.nr; i++) {
		const char *name = p->slimmed.v[i], *at = why;
		size_t len = strlen(name);

		while ((at = strstr(at, name))) {
			int starts = at == why || !((at[-1] >= 'A' && at[-1] <= 'Z') ||
						    (at[-1] >= '0' && at[-1] <= '9') || at[-1] == '_');

			if (starts && !strncmp(at + len, "=n", 2))
				break;
			at += len;
		}
		if (!at)
			continue;
		strbuf_addf(out, "%s%s", any++ ? ", " : " (module turned off by --slim: ", name);
	}
	if (any)
		strbuf_addch(out, ')');
}

/*
 * Why a requested setting did not take: one line, "CONFIG_X: ...".  eff is
 * the variant's effective config, base the baseline's.
 */
static void explain_setting(struct strbuf *out, const struct plan *p, const char *name,
			    const char *want, const struct kconfig *eff)
{
	const char *have = kconfig_get(eff, name);
	enum kconfig_explain what;
	struct strbuf why = STRBUF_INIT;

	strbuf_addf(out, "%sCONFIG_%s", out->len ? "; " : "", name);
	what = kconfig_index_explain(&why, p->index, name, kconfig_lookup, (void *)eff);
	switch (what) {
	case KCONFIG_EXPLAIN_UNKNOWN:
		strbuf_addstr(out, ": unknown symbol");
		break;
	case KCONFIG_EXPLAIN_HIDDEN:
	case KCONFIG_EXPLAIN_UNMET_DEPS:
	case KCONFIG_EXPLAIN_MODULE_ONLY:
		strbuf_addf(out, ": %s: %s", kconfig_explain_name(what), why.buf);
		add_slimmed_atoms(out, p, why.buf);
		break;
	default:
		if (same_value(want, "n") && have && strcmp(have, "n")) {
			struct strvec sel = STRVEC_INIT;
			size_t i;
			int any = 0;

			kconfig_index_selectors(&sel, p->index, name, 0);
			strbuf_addf(out, ": stays %s", have);
			for (i = 0; i < sel.nr; i++) {
				if (!kconfig_lookup(sel.v[i], (void *)eff))
					continue;
				strbuf_addf(out, "%s%s", any ? ", " : ", selected by ", sel.v[i]);
				any = 1;
			}
			strvec_clear(&sel);
		} else {
			strbuf_addf(out, ": Kconfig set it to %s instead of %s%s%s",
				    have ? have : "nothing", want,
				    what == KCONFIG_EXPLAIN_CHOICE ? " (a choice member)" : "",
				    why.len ? "" : "");
		}
		break;
	}
	strbuf_release(&why);
}

static int labelled(const struct plan_options *o)
{
	return o->label && *o->label;
}

/* A variant's name without its source's "LABEL:". */
static const char *unlabelled(const struct plan_options *o, const char *name)
{
	size_t len = labelled(o) ? strlen(o->label) : 0;

	return len && !strncmp(name, o->label, len) && name[len] == ':' ? name + len + 1 : name;
}

/*
 * The variant's hash: its effective config's, and in an experiment of
 * several sources its source's identity too, so that the same config of
 * two sources (a patch's twin) is two kernels.
 */
static void variant_hash(const struct plan_options *o, const struct plan_variant *v,
			 char out[SHA256_HEX_SIZE])
{
	struct sha256 c;

	kconfig_hash(v->effective, out);
	if (!labelled(o))
		return;
	sha256_init(&c);
	sha256_update(&c, "kconfperf-source-config-1", 26);
	sha256_update(&c, o->source->id, strlen(o->source->id) + 1);
	sha256_update(&c, out, strlen(out));
	sha256_final_hex(&c, out);
}

static void classify(struct plan *p, const struct plan_options *o, struct plan_variant *v,
		     size_t index)
{
	size_t iter = 0, i;
	const char *name, *want;
	int took = 0, failed = 0, already = 0;
	struct strbuf failures = STRBUF_INIT;
	struct kconfig_changes ch = KCONFIG_CHANGES_INIT;

	variant_hash(o, v, v->hash);
	kconfig_diff(p->baseline, v->effective, &v->diff, 0);
	kconfig_diff_list(&ch, p->baseline, v->effective);
	v->added = (int)ch.added;
	v->removed = (int)ch.removed;
	v->changed = (int)ch.changed;
	kconfig_changes_release(&ch);

	while (kconfig_next(v->requested, &iter, &name, &want)) {
		const char *have = kconfig_get(v->effective, name);

		if (!same_value(have, want)) {
			failed++;
			explain_setting(&failures, p, name, want, v->effective);
		} else if (same_value(kconfig_get(p->baseline, name), want)) {
			already++;
		} else {
			took++;
		}
	}
	v->status = failed ? VARIANT_PARTIAL : VARIANT_OK;
	for (i = 0; i < index; i++) {
		if (strcmp(p->variants[i].hash, v->hash))
			continue;
		if (i == 0) {
			v->status = VARIANT_NO_OP;
		} else {
			v->status = VARIANT_SAME_AS;
			v->same_as = xstrdup(p->variants[i].name);
		}
		break;
	}
	v->unmet = failed;
	if (failures.len)
		strbuf_addbuf(&v->reason, &failures);
	if (v->status == VARIANT_NO_OP && !failed && already)
		strbuf_addstr(&v->reason, "already set in the baseline");
	else if (v->status == VARIANT_SAME_AS && !v->reason.len)
		strbuf_addf(&v->reason, "same effective config as %s", v->same_as);
	strbuf_release(&failures);
}

/*
 * The full .config to resolve for a variant: the baseline plus its
 * settings.  A choice member set to y deselects the choice's other members
 * the variant does not set itself, as menuconfig would: tinyconfig's
 * UNWINDER_GUESS=y would otherwise win over a requested
 * UNWINDER_FRAME_POINTER=y, being read after it.
 */
static struct kconfig *requested_config(const struct plan *p, const struct plan_variant *v)
{
	struct kconfig *kc = kconfig_dup(p->baseline);
	struct strvec others = STRVEC_INIT;
	size_t iter = 0, i;
	const char *name, *value;

	while (kconfig_next(v->requested, &iter, &name, &value)) {
		if (kconfig_set(kc, name, value))
			BUG("cannot set CONFIG_%s=%s read from a parsed .config", name, value);
		if (p->index && same_value(value, "y"))
			kconfig_index_choice_others(&others, p->index, name);
	}
	for (i = 0; i < others.nr; i++)
		if (!kconfig_get(v->requested, others.v[i]) && kconfig_set(kc, others.v[i], "n"))
			BUG("cannot deselect the choice member CONFIG_%s", others.v[i]);
	strvec_clear(&others);
	return kc;
}

/*
 * Runs olddefconfig for variants [first, nr), jobs at a time in reused
 * slots, then classifies them in plan order: a variant is same-as the
 * first earlier one it equals, so it is judged only when every earlier
 * one is resolved, whichever of the parallel runs finished first.
 */
/* -j, or the CPUs; never more work directories than variants to resolve. */
static int resolve_jobs(const struct plan_options *o, size_t nr)
{
	int jobs = o->jobs > 0 ? o->jobs : online_cpus();

	if (nr && (size_t)jobs > nr)
		jobs = (int)nr;
	return jobs;
}

static int resolve_all(struct plan *p, const struct plan_options *o, size_t first)
{
	int jobs = resolve_jobs(o, p->nr_variants > first ? p->nr_variants - first : 1);
	struct child_process *cps = xcalloc((size_t)jobs, sizeof(*cps));
	struct child_process **running = xcalloc((size_t)jobs, sizeof(*running));
	struct strbuf *errs = xcalloc((size_t)jobs, sizeof(*errs));
	size_t *job_of = xcalloc((size_t)jobs, sizeof(*job_of));
	char **dirs = xcalloc((size_t)jobs, sizeof(*dirs));
	size_t next = first, done = first;
	int i, ret = 0;

	for (i = 0; i < jobs; i++) {
		dirs[i] = slot_dir(o, i);
		strbuf_init(&errs[i], 0);
		if (!ret && make_slot_dir(dirs[i]))
			ret = -1;
	}
	while (!ret && done < p->nr_variants) {
		int slot;

		for (slot = 0; slot < jobs && next < p->nr_variants; slot++) {
			struct kconfig *kc;

			if (running[slot])
				continue;
			kc = requested_config(p, &p->variants[next]);
			if (save_slot_config(kc, dirs[slot])) {
				kconfig_free(kc);
				ret = -1;
				break;
			}
			kconfig_free(kc);
			child_process_init(&cps[slot]);
			strbuf_reset(&errs[slot]);
			make_command(&cps[slot], o, dirs[slot], "olddefconfig", &errs[slot]);
			if (start_command(&cps[slot])) {
				ret = -1;
				break;
			}
			running[slot] = &cps[slot];
			job_of[slot] = next++;
		}
		if (ret)
			break;
		slot = wait_any_command(running, (size_t)jobs);
		if (slot < 0)
			break;
		running[slot] = NULL;
		if (cps[slot].exit_code != 0 || cps[slot].timed_out) {
			ret = make_failed(&cps[slot], &errs[slot], "olddefconfig");
		} else {
			struct plan_variant *v = &p->variants[job_of[slot]];

			if (load_slot_config(&v->effective, dirs[slot]))
				ret = -1;
		}
		child_process_release(&cps[slot]);
		done++;
		if (!quiet && isatty(2))
			fprintf(stderr, "\rkconfperf: resolving variants: %zu/%zu", done, p->nr_variants);
	}
	if (!quiet && isatty(2))
		fputc('\n', stderr);
	/* On an error, stop what still runs. */
	for (;;) {
		int slot = wait_any_command(running, (size_t)jobs);

		if (slot < 0)
			break;
		running[slot] = NULL;
		child_process_release(&cps[slot]);
	}
	for (next = first; !ret && next < p->nr_variants; next++)
		classify(p, o, &p->variants[next], next);
	for (i = 0; i < jobs; i++) {
		free(dirs[i]);
		strbuf_release(&errs[i]);
	}
	free(dirs);
	free(errs);
	free(job_of);
	free(running);
	free(cps);
	return ret;
}

/*
 * --slim on the resolved baseline in dir: modules off (slim.h), never one
 * the experiment names, until olddefconfig brings none of them back.
 */
static int slim_baseline(struct plan *p, const struct plan_options *o, const char *dir,
			 const struct kconfig *harness, const struct kconfig *frag)
{
	struct strvec keep = STRVEC_INIT, off = STRVEC_INIT;
	const struct kconfig *named[] = { harness, frag };
	size_t iter, i, k;
	const char *name, *value;
	int pass, ret = -1;

	for (k = 0; k < ARRAY_SIZE(named); k++)
		for (iter = 0; kconfig_next(named[k], &iter, &name, &value);)
			strvec_push_unique(&keep, name);
	for (i = 0; i < p->nr_options; i++) {
		strvec_push_unique(&keep, p->options[i].name);
		for (k = 0; k < p->options[i].deps.nr; k++)
			strvec_push_unique(&keep, p->options[i].deps.v[k]);
	}
	/* A module that olddefconfig sets again (selected, no prompt) stops the loop. */
	for (pass = 0; pass < 4; pass++) {
		size_t before = off.nr;
		struct strvec now = STRVEC_INIT;

		slim_modules(p->baseline, &keep, &now);
		for (i = 0; i < now.nr; i++)
			strvec_push_unique(&off, now.v[i]);
		strvec_clear(&now);
		if (off.nr == before && pass)
			break;
		if (save_slot_config(p->baseline, dir) ||
		    run_make(o, dir, "olddefconfig"))
			goto out;
		kconfig_free(p->baseline);
		p->baseline = NULL;
		if (load_slot_config(&p->baseline, dir))
			goto out;
	}
	for (i = 0; i < off.nr; i++) {
		value = kconfig_get(p->baseline, off.v[i]);
		strvec_push(value && !strcmp(value, "m") ? &p->slim_stayed : &p->slimmed,
			    off.v[i]);
	}
	ret = 0;
out:
	strvec_clear(&keep);
	strvec_clear(&off);
	return ret;
}

/* Resolves the baseline in slot 0 and checks it can carry the harness. */
static int resolve_baseline(struct plan *p, const struct plan_options *o)
{
	char *dir = slot_dir(o, 0);
	struct kconfig *frag = kconfig_new(), *kc = NULL, *harness = NULL;
	struct strbuf missing = STRBUF_INIT, why = STRBUF_INIT;
	struct strvec profiles = STRVEC_INIT, named = STRVEC_INIT;
	size_t iter = 0, i;
	const char *name, *want, *own;
	int ret = -1, fast;

	if (make_slot_dir(dir))
		goto out;
	if (is_config_file(o->base)) {
		if (kconfig_load(&kc, o->base, 0) || save_slot_config(kc, dir))
			goto out;
		kconfig_free(kc);
		kc = NULL;
	} else if (!valid_target(o->base)) {
		error("baseline '%s' is neither a .config file nor a make config target "
		      "(tinyconfig, defconfig, allnoconfig, ...)", o->base);
		goto out;
	} else if (run_make(o, dir, o->base)) {
		goto out;
	}
	if (load_slot_config(&kc, dir) || read_base_add(frag, &o->base_add))
		goto out;
	/* The fast boot is a harness profile, taken where it applies (harness.h). */
	fast = harness_fast_boot(&why, plan_arch(o), o->fast_boot,
				 is_config_file(o->base) ? kc : NULL, frag, &o->harness);
	own = harness_compression(kc);
	for (i = 0; i < o->harness.nr; i++)
		strvec_split(&named, o->harness.v[i], ",");
	for (i = 0; i < named.nr; i++)
		if (strcmp(named.v[i], HARNESS_FAST_BOOT))
			strvec_push(&profiles, named.v[i]);
	if (fast)
		strvec_push(&profiles, HARNESS_FAST_BOOT);
	strbuf_reset(&p->harness);
	if (harness_config(&harness, &p->harness, plan_arch(o), &profiles))
		goto out;
	/* The harness's settings replace the base's quietly: they are not the user's. */
	while (kconfig_next(harness, &iter, &name, &want))
		if (kconfig_set(kc, name, want))
			BUG("cannot set the harness's CONFIG_%s=%s", name, want);
	iter = 0;
	if (kconfig_count(frag))
		kconfig_merge(kc, frag, "--base-add");
	if (save_slot_config(kc, dir) || run_make(o, dir, "olddefconfig"))
		goto out;
	kconfig_free(kc);
	kc = NULL;
	if (load_slot_config(&p->baseline, dir))
		goto out;
	if (o->slim && slim_baseline(p, o, dir, harness, frag))
		goto out;

	/* The harness's needs, then --base-add's, must have taken. */
	while (kconfig_next(harness, &iter, &name, &want))
		if (!same_value(kconfig_get(p->baseline, name), want))
			explain_setting(&missing, p, name, want, p->baseline);
	if (missing.len) {
		error("baseline '%s' cannot carry what kconfperf needs (harness %s): %s",
		      o->base, p->harness.buf, missing.buf);
		goto out;
	}
	iter = 0;
	while (kconfig_next(frag, &iter, &name, &want))
		if (!same_value(kconfig_get(p->baseline, name), want))
			explain_setting(&missing, p, name, want, p->baseline);
	if (missing.len)
		warning("--base-add settings that did not take: %s", missing.buf);
	strbuf_reset(&p->boot);
	harness_boot_text(&p->boot, plan_arch(o), fast, why.buf, own,
			  harness_compression(p->baseline));
	ret = 0;
out:
	free(dir);
	strvec_clear(&profiles);
	strvec_clear(&named);
	strbuf_release(&why);
	kconfig_free(frag);
	kconfig_free(kc);
	kconfig_free(harness);
	strbuf_release(&missing);
	return ret;
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

			if (same_value(value, "n"))
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

	if (is_config_file(item) && strbuf_read_file_max(&sb, item, KCONFIG_MAX_SIZE) >= 0)
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
	if (!o->options && !o->diff_old && !labelled(o))
		return error("no options given (use --options or --options-from-diff)");
	if ((o->options || o->diff_old) && read_options(out, o))
		goto fail;
	if (!arch_find(plan_arch(o))) {
		error("kconfperf cannot build and boot arch '%s'", plan_arch(o));
		goto fail;
	}
	if (arch_check_compiler(arch_of(o), arch_cross_compile(arch_of(o), o->cross_compile)))
		goto fail;
	if (kconfig_index_load(&out->index, o->source->tree, arch_of(o)->srcarch))
		goto fail;
	if (resolve_baseline(out, o))
		goto fail;
	if (o->with_deps)
		add_deps(out);
	plan_key(out, o);
	plan_make_variants(out, o->designs, o->aa, o->label);
	out->variants[0].effective = kconfig_dup(out->baseline);
	classify(out, o, &out->variants[0], 0);
	out->variants[0].status = VARIANT_OK;
	if (o->aa) {
		/* The baseline kernel again, measured as a variant of its own. */
		struct plan_variant *aa = &out->variants[1];

		aa->effective = kconfig_dup(out->baseline);
		classify(out, o, aa, 0);
		aa->status = VARIANT_OK;
		strbuf_addstr(&aa->reason, "the baseline kernel, measured again: "
			      "the experiment's own false-positive check");
	}
	if (resolve_all(out, o, o->aa ? 2 : 1))
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
	if (resolve_all(p, o, p->nr_variants - 1))
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
	ret = store_set_meta(st, "groups", sb.buf);
	strbuf_release(&sb);
	return ret;
}

/* meta slim_removed and slim_stayed: one symbol a line, empty without --slim. */
static int save_slimmed(const struct plan *p, struct store *st)
{
	const struct strvec *lists[] = { &p->slimmed, &p->slim_stayed };
	const char *keys[] = { "slim_removed", "slim_stayed" };
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
	if (!o->base || !is_config_file(o->base) || kconfig_load(&kc, o->base, KCONFIG_LOOSE))
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
	const char *cross = arch_cross_compile(arch_of(o), o->cross_compile);

	return store_set_meta(st, "cross_compile", cross ? cross : "");
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
	      store_set_meta(st, "source", ks->origin) ||
	      store_set_meta(st, "source_id", ks->id) ||
	      store_set_meta(st, "source_tree", ks->tree) ||
	      store_set_meta(st, "designs", designs) ||
	      store_set_meta(st, "cache", cache) ? -1 : 0;
	conditions_release(&c);
	return ret;
}
