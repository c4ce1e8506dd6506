/* plan-resolve.c: configs resolved by the kernel's own Kconfig: the baseline, every variant (olddefconfig, in parallel), and why a setting did not take. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kconfig/kconfig-index.h"
#include "kconfig/kconfig.h"
#include "plan/arch.h"
#include "plan/harness.h"
#include "plan/kernel-source.h"
#include "plan/plan-parts.h"
#include "plan/plan.h"
#include "plan/slim.h"
#include "util/own-dir.h"
#include "util/run-command.h"
#include "util/usage.h"
#include "util/wrapper.h"

#define MAKE_ERR_CAP 8192

/*
 * make -s O=objdir [ARCH= CROSS_COMPILE=] target in the source tree (Kconfig
 * asks the arch's compiler what it can do, so both matter); on failure
 * prints why with make's stderr.
 */
static void make_command(struct child_process *cp, const struct plan_options *o,
			 const char *objdir, const char *target, struct strbuf *err)
{
	const struct arch *a = plan_arch_of(o);

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
		if (plan_is_config_file(item)) {
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
		if (plan_same_value(want, "n") && have && strcmp(have, "n")) {
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
	if (!plan_labelled(o))
		return;
	sha256_init(&c);
	sha256_update(&c, "kconfperf-source-config-1", 26);
	sha256_update(&c, o->source->id, strlen(o->source->id) + 1);
	sha256_update(&c, out, strlen(out));
	sha256_final_hex(&c, out);
}

void plan_classify(struct plan *p, const struct plan_options *o, struct plan_variant *v,
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

		if (!plan_same_value(have, want)) {
			failed++;
			explain_setting(&failures, p, name, want, v->effective);
		} else if (plan_same_value(kconfig_get(p->baseline, name), want)) {
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
		if (p->index && plan_same_value(value, "y"))
			kconfig_index_choice_others(&others, p->index, name);
	}
	for (i = 0; i < others.nr; i++)
		if (!kconfig_get(v->requested, others.v[i]) && kconfig_set(kc, others.v[i], "n"))
			BUG("cannot deselect the choice member CONFIG_%s", others.v[i]);
	strvec_clear(&others);
	return kc;
}

/* -j, or the CPUs; never more work directories than variants to resolve. */
static int resolve_jobs(const struct plan_options *o, size_t nr)
{
	int jobs = o->jobs > 0 ? o->jobs : online_cpus();

	if (nr && (size_t)jobs > nr)
		jobs = (int)nr;
	return jobs;
}

int plan_resolve_all(struct plan *p, const struct plan_options *o, size_t first)
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
		plan_classify(p, o, &p->variants[next], next);
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

int plan_resolve_baseline(struct plan *p, const struct plan_options *o)
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
	if (plan_is_config_file(o->base)) {
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
				 plan_is_config_file(o->base) ? kc : NULL, frag, &o->harness);
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
		if (!plan_same_value(kconfig_get(p->baseline, name), want))
			explain_setting(&missing, p, name, want, p->baseline);
	if (missing.len) {
		error("baseline '%s' cannot carry what kconfperf needs (harness %s): %s",
		      o->base, p->harness.buf, missing.buf);
		goto out;
	}
	iter = 0;
	while (kconfig_next(frag, &iter, &name, &want))
		if (!plan_same_value(kconfig_get(p->baseline, name), want))
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
