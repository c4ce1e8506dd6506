/* kbuild.c: build kernels with make O=, in a content-addressed cache. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <utime.h>
#include <unistd.h>

#include "kbuild/kbuild-parts.h"
#include "kbuild/kbuild.h"
#include "kbuild/objects-index.h"
#include "kbuild/objtree-move.h"
#include "kconfig/kconfig.h"
#include "plan/arch.h"
#include "plan/harness.h"
#include "util/run-command.h"
#include "plan/kernel-source.h"
#include "util/escape.h"
#include "util/lockfile.h"
#include "util/own-dir.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

#define LOG_TAIL_LINES 30

static void remove_stale_tmp(const struct kbuild_options *o);

static const struct arch *build_arch(const struct kbuild_options *o)
{
	return arch_find(o->arch ? o->arch : HARNESS_DEFAULT_ARCH);
}

/* The CROSS_COMPILE prefix, NULL for a native build. */
static const char *cross_compile(const struct kbuild_options *o)
{
	const struct arch *a = build_arch(o);

	return a ? arch_cross_compile(a, o->cross_compile) : o->cross_compile;
}

/* "ARCH=... CROSS_COMPILE=..." for another arch's kernel, else nothing. */
static void arch_vars(struct strvec *out, const struct kbuild_options *o)
{
	const struct arch *a = build_arch(o);

	if (a)
		arch_make_vars(out, a, cross_compile(o));
}

static const char *compiler(const struct kbuild_options *o)
{
	if (o->compiler)
		return o->compiler;
	return o->cc ? o->cc : "gcc";
}

/* The image make builds: its target and the file in arch/<srcarch>/boot/. */
static const char *image_name(const struct kbuild_options *o)
{
	const struct arch *a = build_arch(o);

	return a ? a->image : "bzImage";
}

/* First line of `prog --version`, or NULL when prog cannot run. */
static char *version_line(const char *prog)
{
	struct strbuf out = STRBUF_INIT;

	if (run_command_first_line(&out, prog, "--version", NULL)) {
		strbuf_release(&out);
		return NULL;
	}
	return strbuf_detach(&out, NULL);
}

int kbuild_prepare(struct kbuild_options *o)
{
	const struct arch *a = build_arch(o);

	if (!a)
		return error("kconfperf cannot build kernels for arch '%s'", o->arch);
	if (cache_dir_prepare(o->cache_dir))
		return -1;
	remove_stale_tmp(o);
	if (!o->cc && arch_check_compiler(a, cross_compile(o)))
		return -1;
	free(o->compiler);
	o->compiler = arch_compiler(cross_compile(o), o->cc);
	farm_free(o->farm);
	o->farm = NULL;
	if (o->cc_wrapper && farm_open(&o->farm, o->cc_wrapper, compiler(o), o->cache_dir))
		return -1;
	free(o->compiler_version);
	o->compiler_version = version_line(compiler(o));
	if (!o->compiler_version)
		return error("compiler '%s' cannot be run (is it installed?)", compiler(o));
	return 0;
}

void kbuild_options_release(struct kbuild_options *o)
{
	strvec_clear(&o->make_vars);
	free(o->compiler_version);
	o->compiler_version = NULL;
	farm_free(o->farm);
	o->farm = NULL;
	free(o->compiler);
	o->compiler = NULL;
}

void kbuild_key_of(const struct kbuild_key_inputs *in, char key[SHA256_HEX_SIZE])
{
	const char *cv = in->compiler_version ? in->compiler_version : "";
	struct sha256 c;
	size_t i;

	/* Fields are NUL-separated so no two inputs hash alike. */
	sha256_init(&c);
	sha256_update(&c, "kconfperf-build-1", 18);
	sha256_update(&c, in->source_id, strlen(in->source_id) + 1);
	sha256_update(&c, in->config, strlen(in->config) + 1);
	sha256_update(&c, cv, strlen(cv) + 1);
	sha256_update(&c, in->cc, strlen(in->cc) + 1);
	for (i = 0; in->make_vars && i < in->make_vars->nr; i++)
		sha256_update(&c, in->make_vars->v[i], strlen(in->make_vars->v[i]) + 1);
	/* Nothing for the host's arch, so its keys are what they always were. */
	for (i = 0; in->arch_vars && i < in->arch_vars->nr; i++)
		sha256_update(&c, in->arch_vars->v[i], strlen(in->arch_vars->v[i]) + 1);
	sha256_final_hex(&c, key);
}

void kbuild_key(const struct kbuild_options *o, const char *config_text,
		char key[SHA256_HEX_SIZE])
{
	struct strvec arch = STRVEC_INIT;
	struct kbuild_key_inputs in = {
		.source_id = o->source->id, .config = config_text,
		.compiler_version = o->compiler_version, .cc = compiler(o),
		.make_vars = &o->make_vars, .arch_vars = &arch,
	};

	arch_vars(&arch, o);
	kbuild_key_of(&in, key);
	strvec_clear(&arch);
}

void kbuild_result_release(struct kbuild_result *r)
{
	free(r->image);
	free(r->log_path);
	free(r->log_tail);
	free(r->seeded_from);
	free(r->wrapper);
	memset(r, 0, sizeof(*r));
	r->sections = (struct elf_sizes)ELF_SIZES_UNKNOWN;
}

char *kbuild_cache_path(const struct kbuild_options *o, const char *what, const char *key)
{
	return xstrfmt("%s/%s/%s", o->cache_dir, what, key);
}

static int exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

int kbuild_is_cached(const struct kbuild_options *o, const char *key)
{
	char *p = xstrfmt("%s/builds/%s/meta", o->cache_dir, key);
	int ret = exists(p);

	free(p);
	return ret;
}

int kbuild_has_tree(const struct kbuild_options *o, const char *key)
{
	char *p = xstrfmt("%s/trees/%s/.config", o->cache_dir, key);
	int ret = exists(p);

	free(p);
	return ret;
}

int kbuild_mkdir_cache(const struct kbuild_options *o, const char *sub)
{
	char *p = xstrfmt("%s/%s", o->cache_dir, sub);
	char *what = xstrfmt("the cache's %s/", sub);
	int ret = own_dir_make(p, what);

	free(p);
	free(what);
	return ret;
}

/*
 * Cache entries are assembled in CACHE/tmp/entry.<pid>; remove those whose
 * kconfperf died (a kill -9, a power cut) so they do not pile up.  The
 * object tree of a dead build is removed by the next build, under the lock.
 */
static void remove_stale_tmp(const struct kbuild_options *o)
{
	char *dir = xstrfmt("%s/tmp", o->cache_dir);
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		const char *dot = strchr(de->d_name, '.');
		long pid;
		char *end, *path;

		if (!dot)
			continue;
		pid = strtol(dot + 1, &end, 10);
		if (pid <= 0 || *end || !starts_with(de->d_name, "entry."))
			continue;
		if (!kill((pid_t)pid, 0) || errno != ESRCH)
			continue;
		path = xstrfmt("%s/%s", dir, de->d_name);
		remove_tree(path);
		free(path);
	}
	if (d)
		closedir(d);
	free(dir);
}

#define LOCK_OUTSIDER_SECONDS 10

/*
 * CACHE/build.lock serializes builds.  make inherits the locked descriptor,
 * so the lock is held as long as any part of a build runs: a kconfperf
 * killed with -9 cannot let the next build into an object tree its
 * orphaned compilers are still writing.  The record names make's process
 * group while make (or the seed copy) runs, so a waiter can tell a live
 * build from one whose kconfperf is gone, and stop the latter (lockfile.h
 * proves the group is that build's before it is signalled).  A lock held
 * by something outside any build (a compiler wrapper's server that
 * inherited it) is an error after LOCK_OUTSIDER_SECONDS, not a hang.
 */
static int lock_cache(const struct kbuild_options *o, struct lockfile *lk)
{
	const struct lockfile_wait wait = {
		.what = "build",
		.where = o->cache_dir,
		.outsider_hint = " (a compiler wrapper's server?)",
		.outsider_seconds = LOCK_OUTSIDER_SECONDS,
	};
	char *path = xstrfmt("%s/build.lock", o->cache_dir);
	int ret = lockfile_take(lk, path, &wait);

	free(path);
	return ret;
}

/*
 * Runs cp (make, or the copy of a seed tree into the object tree) so that
 * it and everything it starts hold the build lock, and dies with us; see
 * lock_cache().  Returns as run_command() does.
 */
static int run_holding_lock(struct child_process *cp, struct lockfile *lk)
{
	int ret;

	cp->kill_on_parent_death = 1;
	if (lockfile_inherit(lk, 1))
		return -1;
	ret = start_command(cp);
	lockfile_inherit(lk, 0);
	if (ret)
		return ret;
	lockfile_record(lk, cp->pid);	/* it leads its own process group */
	ret = finish_command(cp);
	lockfile_record(lk, 0);
	return ret;
}

static int64_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (int64_t)st.st_size;
}

/* The last n lines of a file (for failed builds). */
static char *file_tail(const char *path, int n)
{
	struct strbuf sb = STRBUF_INIT;
	size_t pos;
	int lines = 0;

	if (strbuf_read_file(&sb, path, 0) < 0)
		return xstrdup("");
	strbuf_rtrim(&sb);
	pos = sb.len;
	while (pos > 0) {
		if (sb.buf[pos - 1] == '\n' && ++lines == n)
			break;
		pos--;
	}
	memmove(sb.buf, sb.buf + pos, sb.len - pos);
	strbuf_setlen(&sb, sb.len - pos);
	return strbuf_detach(&sb, NULL);
}

/*
 * What a failed build's record shows: the first lines that say "error:"
 * (with -j, make goes on with other files after the first error, so it can
 * scroll out of the tail), then the last lines of the log.
 */
static char *failure_summary(const char *log_path)
{
	struct strbuf sb = STRBUF_INIT, log = STRBUF_INIT;
	char *tail = file_tail(log_path, LOG_TAIL_LINES);
	const char *line, *next;
	int errors = 0;

	if (strbuf_read_file(&log, log_path, 0) >= 0) {
		for (line = log.buf; *line && errors < 10; line = next) {
			const char *nl = strchr(line, '\n');

			next = nl ? nl + 1 : line + strlen(line);
			if (!memmem(line, (size_t)(next - line), "error:", 6))
				continue;
			strbuf_add(&sb, line, (size_t)(next - line));
			if (!nl)
				strbuf_addch(&sb, '\n');
			errors++;
		}
	}
	if (sb.len)
		strbuf_addstr(&sb, "...\n");
	strbuf_addstr(&sb, tail);
	free(tail);
	strbuf_release(&log);
	return strbuf_detach(&sb, NULL);
}

int kbuild_run_quiet(const char **argv, struct lockfile *lk, const char *what)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf err = STRBUF_INIT;
	int ret = 0;

	strvec_pushv(&cp.args, argv);
	cp.out.mode = CHILD_IO_NULL;
	cp.err.mode = CHILD_IO_CAPTURE;
	cp.err.buf = &err;
	cp.err.cap = 4096;
	if (lk ? run_holding_lock(&cp, lk) : run_command(&cp)) {
		struct strbuf why = STRBUF_INIT;

		child_process_describe(&why, &cp);
		strbuf_rtrim(&err);
		ret = error("%s: %s %s%s%s", what, argv[0], why.buf, err.len ? ": " : "", err.buf);
		strbuf_release(&why);
	}
	strbuf_release(&err);
	child_process_release(&cp);
	return ret;
}

int kbuild_copy_file(const char *from, const char *to)
{
	const char *argv[] = { "cp", "--reflink=auto", from, to, NULL };

	return kbuild_run_quiet(argv, NULL, "cannot copy build output");
}

static int read_meta(const char *dir, struct kbuild_result *out)
{
	char *path = xstrfmt("%s/meta", dir);
	FILE *fp = fopen(path, "r");
	char line[512];

	free(path);
	if (!fp)
		return -1;
	while (fgets(line, sizeof(line), fp)) {
		char *v = strchr(line, '=');

		if (!v)
			continue;
		*v++ = '\0';
		v[strcspn(v, "\n")] = '\0';
		if (!strcmp(line, "seconds"))
			out->seconds = strtod(v, NULL);
		else if (!strcmp(line, "bzimage_size"))
			out->bzimage_size = strtoll(v, NULL, 10);
		else if (!strcmp(line, "vmlinux_size"))
			out->vmlinux_size = strtoll(v, NULL, 10);
		else if (!strcmp(line, "text_size"))
			out->sections.text = strtoll(v, NULL, 10);
		else if (!strcmp(line, "data_size"))
			out->sections.data = strtoll(v, NULL, 10);
		else if (!strcmp(line, "bss_size"))
			out->sections.bss = strtoll(v, NULL, 10);
		else if (!strcmp(line, "symbol_text_size"))
			out->sections.sym_text = strtoll(v, NULL, 10);
		else if (!strcmp(line, "symbol_data_size"))
			out->sections.sym_data = strtoll(v, NULL, 10);
		else if (!strcmp(line, "symbol_bss_size"))
			out->sections.sym_bss = strtoll(v, NULL, 10);
		else if (!strcmp(line, "seeded_from") && *v)
			out->seeded_from = xstrdup(v);
		else if (!strcmp(line, "jobs"))
			out->jobs = (int)strtol(v, NULL, 10);
		else if (!strcmp(line, "wrapper") && *v && !out->wrapper)
			out->wrapper = xstrdup(v);
		else if (!strcmp(line, "ccache_hits")) {
			out->cache_stats.hits = strtol(v, NULL, 10);
			out->has_cache_stats = 1;
		} else if (!strcmp(line, "ccache_misses"))
			out->cache_stats.misses = strtol(v, NULL, 10);
		else if (!strcmp(line, "ccache_uncacheable"))
			out->cache_stats.uncacheable = strtol(v, NULL, 10);
	}
	fclose(fp);
	return 0;
}

/*
 * The build's make command: CC stays "gcc" whatever the wrapper (farm.h),
 * and nothing in it depends on who built it or when.
 */
static int make_bzimage(const struct kbuild_options *o, const char *objdir,
			const char *log_path, const char *stats_log, struct lockfile *lk,
			struct child_process *cp)
{
	strvec_push(&cp->args, "make");
	strvec_pushf(&cp->args, "O=%s", objdir);
	strvec_pushf(&cp->args, "-j%d", farm_jobs(o->farm, o->jobs, online_cpus()));
	if (o->cc)
		strvec_pushf(&cp->args, "CC=%s", o->cc);
	arch_vars(&cp->args, o);
	strvec_pushv(&cp->args, o->make_vars.v);
	strvec_push(&cp->args, image_name(o));
	strvec_push(&cp->env, "LC_ALL=C");
	strvec_push(&cp->env, "KBUILD_BUILD_USER=kconfperf");
	strvec_push(&cp->env, "KBUILD_BUILD_HOST=kconfperf");
	strvec_push(&cp->env, "KBUILD_BUILD_TIMESTAMP=1970-01-01");
	/* not the seed tree's count of builds (.version), which a seed chain sets */
	strvec_push(&cp->env, "KBUILD_BUILD_VERSION=1");
	if (o->farm)
		farm_env(o->farm, &cp->env, stats_log);
	cp->dir = o->source->tree;
	cp->out.mode = CHILD_IO_FILE;
	cp->out.path = log_path;
	cp->err.mode = CHILD_IO_TO_STDOUT;
	cp->timeout = o->timeout;
	return run_holding_lock(cp, lk);
}

static int log_says_no_space(const char *log_path)
{
	char *tail = file_tail(log_path, 200);
	int ret = strstr(tail, "No space left on device") != NULL;

	free(tail);
	return ret;
}

/*
 * Fills out from the finished cache entry in dir.  An entry from before
 * section or symbol sizes were measured gets them from its kept tree's
 * vmlinux, when there is one (tree: CACHE/trees/<key>).
 */
static void take_cached(struct kbuild_result *out, const char *dir, const char *tree)
{
	out->cached = 1;
	out->ok = 1;
	out->log_path = xstrfmt("%s/build.log", dir);
	read_meta(dir, out);
	if (out->sections.text < 0 || out->sections.sym_text < 0) {
		char *vmlinux = xstrfmt("%s/vmlinux", tree);

		if (!access(vmlinux, R_OK))
			elf_sizes_read(&out->sections, vmlinux);
		free(vmlinux);
	}
}

/*
 * Every build happens at the same path, CACHE/tmp/objtree, one at a time
 * (the lock): kbuild's host tools (objtool) record absolute paths, and a
 * seed tree copied to another path would rebuild them and with them every
 * object.  A copy at the original path rebuilds only what the changed
 * symbols touch.
 */
static void build_paths_init(struct build_paths *bp, const struct kbuild_options *o,
			     const char *key)
{
	bp->final = kbuild_cache_path(o, "builds", key);
	bp->objtree = xstrfmt("%s/tmp/objtree", o->cache_dir);
	bp->config = xstrfmt("%s/.config", bp->objtree);
	bp->bzimage = xstrfmt("%s/arch/%s/boot/%s", bp->objtree,
			      build_arch(o) ? build_arch(o)->srcarch : "x86", image_name(o));
	bp->vmlinux = xstrfmt("%s/vmlinux", bp->objtree);
	bp->map = xstrfmt("%s/System.map", bp->objtree);
	bp->entry = xstrfmt("%s/tmp/entry.%ld", o->cache_dir, (long)getpid());
	bp->tree = kbuild_cache_path(o, "trees", key);
}

static void build_paths_release(struct build_paths *bp)
{
	free(bp->final);
	free(bp->objtree);
	free(bp->config);
	free(bp->bzimage);
	free(bp->vmlinux);
	free(bp->map);
	free(bp->entry);
	free(bp->tree);
}

/* DIR/logs, made without following a link planted in DIR (own-dir.h). */
static int make_log_dir(const char *log_dir)
{
	const char *slash = strrchr(log_dir, '/');
	char *base;
	int ret;

	if (!slash || slash == log_dir)
		return mkdir_p(log_dir, 0755);
	base = xstrndup(log_dir, (size_t)(slash - log_dir));
	ret = own_subdir_make(base, slash + 1);
	free(base);
	return ret;
}

/*
 * LOG_DIR/build-<name>.log, the variant's name made one path component
 * as run directories are (path_component_add()): a name may hold '/' (a string
 * option's value: CONFIG_CMDLINE="root=/dev/vda") or "..".
 */
static char *log_path(const char *log_dir, const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/build-", log_dir);
	path_component_add(&sb, name);
	strbuf_addstr(&sb, ".log");
	return strbuf_detach(&sb, NULL);
}

/*
 * make bzImage in the object tree, logging to out->log_path.  0 when it
 * built, 1 when the kernel failed to build (a result: out->log_tail says
 * why, and a warning), -1 on an error that is not the kernel's fault.
 */
static int run_make(const struct kbuild_options *o, const struct build_paths *bp,
		    const char *name, struct lockfile *lock, struct kbuild_result *out)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf why = STRBUF_INIT, how = STRBUF_INIT;
	char *stats_log = xstrfmt("%s/.kconfperf-ccache-stats", bp->objtree);
	int ret = 0;

	if (o->log_dir && make_log_dir(o->log_dir)) {
		ret = -1;
		goto out;
	}
	out->log_path = o->log_dir ? log_path(o->log_dir, name) : xstrfmt("%s.log", bp->objtree);
	out->jobs = farm_jobs(o->farm, o->jobs, online_cpus());
	if (o->farm) {
		out->wrapper = xstrdup(farm_kind_name(o->farm->kind));
		strbuf_addf(&how, ", %s -j%d", out->wrapper, out->jobs);
		unlink(stats_log);
	}
	note("building %s (%.12s%s%.12s%s)", name, out->key, out->seeded_from ? ", seeded from " : "",
	     out->seeded_from ? out->seeded_from : "", how.buf);
	ret = make_bzimage(o, bp->objtree, out->log_path, stats_log, lock, &cp);
	if (o->farm && o->farm->kind == FARM_CCACHE)
		out->has_cache_stats = !farm_read_stats(&out->cache_stats, stats_log);
	if (!ret)
		goto out;
	ret = 0;
	if (cp.start_errno) {
		ret = error("cannot run make for %s", name);
	} else if (log_says_no_space(out->log_path)) {
		ret = error("building %s: no space left on device (cache '%s'); "
			    "the unfinished build was removed", name, o->cache_dir);
	} else {
		child_process_describe(&why, &cp);
		out->log_tail = failure_summary(out->log_path);
		warning("build of %s failed: make %s (log: %s)", name, why.buf, out->log_path);
		ret = 1;
	}
out:
	out->seconds = cp.seconds;
	strbuf_release(&why);
	strbuf_release(&how);
	free(stats_log);
	child_process_release(&cp);
	return ret;
}

/*
 * Whether make built the config it was given: kbuild's syncconfig
 * rewrites .config when what it computes differs, and a compiler that
 * names itself differently (CONFIG_CC_VERSION_TEXT) would give another
 * kernel under this key.  0, or -1 with the symbols that changed.
 */
static int check_config(const struct kbuild_options *o, const struct build_paths *bp,
			const char *config_text, const char *name)
{
	struct kconfig *want = kconfig_new(), *got = NULL;
	char want_hash[SHA256_HEX_SIZE], got_hash[SHA256_HEX_SIZE];
	struct strbuf diff = STRBUF_INIT;
	int ret = 0;

	if (kconfig_parse(want, "config", config_text, strlen(config_text), 0) ||
	    kconfig_load(&got, bp->config, 0)) {
		ret = -1;
		goto out;
	}
	kconfig_hash(want, want_hash);
	kconfig_hash(got, got_hash);
	if (strcmp(want_hash, got_hash)) {
		kconfig_diff(want, got, &diff, 0);
		strbuf_rtrim(&diff);
		char *through = o->farm ? xstrfmt(" (through %s)", farm_kind_name(o->farm->kind))
					: xstrdup("");

		kconfig_diff(want, got, &diff, 0);
		strbuf_rtrim(&diff);
		ret = error("building %s: make changed the config it was given%s, so the kernel "
			    "would not be the one planned:\n%s", name, through, diff.buf);
		free(through);
	}
out:
	strbuf_release(&diff);
	kconfig_free(want);
	kconfig_free(got);
	return ret;
}

/*
 * Assembles the cache entry beside its final name (bzImage, config,
 * build.log, meta, System.map), then renames it in, so a half-made entry is never
 * taken for a finished one.  0, or -1 with a message.
 */
static int store_entry(const struct kbuild_options *o, const struct build_paths *bp,
		       const char *name, const struct kbuild_result *out)
{
	char *image = xstrfmt("%s/%s", bp->entry, image_name(o));
	char *config = xstrfmt("%s/config", bp->entry);
	char *log = xstrfmt("%s/build.log", bp->entry);
	char *meta = xstrfmt("%s/meta", bp->entry);
	char *map = xstrfmt("%s/" KBUILD_MAP_NAME, bp->entry);
	char *extable = xstrfmt("%s/" KBUILD_EXTABLE_NAME, bp->entry);
	char *objects = xstrfmt("%s/" OBJECTS_INDEX_NAME, bp->entry);
	struct strbuf sb = STRBUF_INIT;
	int ret = -1;

	remove_tree(bp->entry);
	if (mkdir_p(bp->entry, 0755) || kbuild_copy_file(bp->bzimage, image) ||
	    kbuild_copy_file(bp->config, config) || kbuild_copy_file(out->log_path, log))
		goto out;
	/* the meter's map of the kernel's functions; every bzImage build makes one */
	if (!access(bp->map, R_OK) && kbuild_copy_file(bp->map, map))
		goto out;
	/* and on x86_64 the exception table, so it need not watch every rep string */
	if (!access(bp->vmlinux, R_OK) && elf_extable_write(bp->vmlinux, extable) < 0)
		warning("%s: no exception table for the meter; it will watch every rep string", name);
	/* and which object holds each function, for the screen's attribution */
	if (objects_index_write(bp->objtree, o->source->tree, objects) < 0)
		warning("%s: no index of its objects; a screen cannot attribute its changes", name);
	strbuf_addf(&sb, "key=%s\nname=%s\nseconds=%.3f\nbzimage_size=%lld\nvmlinux_size=%lld\n"
		    "seeded_from=%s\nsource=%s\ncompiler=%s\njobs=%d\n", out->key, name, out->seconds,
		    (long long)out->bzimage_size, (long long)out->vmlinux_size,
		    out->seeded_from ? out->seeded_from : "", o->source->id,
		    o->compiler_version ? o->compiler_version : "", out->jobs);
	/* the rest of the key's inputs (kbuild_key_of()), for an entry carried elsewhere */
	strbuf_addf(&sb, "cc=%s\n", compiler(o));
	for (size_t i = 0; i < o->make_vars.nr; i++)
		strbuf_addf(&sb, "make_var=%s\n", o->make_vars.v[i]);
	{
		struct strvec arch = STRVEC_INIT;

		arch_vars(&arch, o);
		for (size_t i = 0; i < arch.nr; i++)
			strbuf_addf(&sb, "arch_var=%s\n", arch.v[i]);
		strvec_clear(&arch);
	}
	if (out->sections.text >= 0)
		strbuf_addf(&sb, "text_size=%lld\ndata_size=%lld\nbss_size=%lld\n",
			    (long long)out->sections.text, (long long)out->sections.data,
			    (long long)out->sections.bss);
	if (out->sections.sym_text >= 0)
		strbuf_addf(&sb, "symbol_text_size=%lld\nsymbol_data_size=%lld\nsymbol_bss_size=%lld\n",
			    (long long)out->sections.sym_text, (long long)out->sections.sym_data,
			    (long long)out->sections.sym_bss);
	if (out->wrapper)
		strbuf_addf(&sb, "wrapper=%s\nwrapper_version=%s\n", out->wrapper,
			    o->farm && o->farm->version ? o->farm->version : "");
	if (out->has_cache_stats)
		strbuf_addf(&sb, "ccache_hits=%ld\nccache_misses=%ld\nccache_uncacheable=%ld\n",
			    out->cache_stats.hits, out->cache_stats.misses,
			    out->cache_stats.uncacheable);
	if (strbuf_write_file(&sb, meta) || kbuild_mkdir_cache(o, "builds"))
		goto out;
	if (rename(bp->entry, bp->final)) {
		if (errno != ENOTEMPTY && errno != EEXIST) {
			error_errno("cannot rename '%s' to '%s'", bp->entry, bp->final);
			goto out;
		}
		remove_tree(bp->entry);	/* someone else finished the same build */
	}
	ret = 0;
out:
	strbuf_release(&sb);
	free(image);
	free(config);
	free(log);
	free(meta);
	free(map);
	free(extable);
	free(objects);
	return ret;
}

int kbuild_build(const struct kbuild_options *o, const char *config_text,
		 const char *name, const char *seed_key, struct kbuild_result *out)
{
	struct build_paths bp;
	struct lockfile lock = LOCKFILE_INIT;
	int made, ret = -1;

	memset(out, 0, sizeof(*out));
	out->sections = (struct elf_sizes)ELF_SIZES_UNKNOWN;
	kbuild_key(o, config_text, out->key);
	build_paths_init(&bp, o, out->key);
	out->image = xstrfmt("%s/%s", bp.final, image_name(o));
	if (kbuild_is_cached(o, out->key)) {
		take_cached(out, bp.final, bp.tree);
		/*
		 * A kernel this experiment uses again is the likeliest seed
		 * of its next builds (a patched twin's, a group's): its tree,
		 * if kept, counts as recently used.
		 */
		utime(bp.tree, NULL);
		ret = 0;
		goto out;
	}
	if (kbuild_mkdir_cache(o, "tmp") || lock_cache(o, &lock))
		goto out;
	/* Another kconfperf may have built it while we waited for the lock. */
	if (kbuild_is_cached(o, out->key)) {
		take_cached(out, bp.final, bp.tree);
		ret = 0;
		goto out;
	}
	if (kbuild_seed_objtree(o, &bp, config_text, seed_key, &lock, out))
		goto fail;
	made = run_make(o, &bp, name, &lock, out);
	if (made < 0)
		goto fail;
	if (made > 0) {
		remove_tree(bp.objtree);	/* a failed build is a result, not kept */
		ret = 0;
		goto out;
	}
	out->bzimage_size = file_size(bp.bzimage);
	out->vmlinux_size = file_size(bp.vmlinux);
	/* not an ELF file (a fake kernel's), or unreadable: the sizes stay unknown */
	if (elf_sizes_read(&out->sections, bp.vmlinux) < 0)
		warning("%s: no section sizes", name);
	if (out->bzimage_size < 0) {
		error("make succeeded for %s but left no '%s'", name, bp.bzimage);
		goto fail;
	}
	if (check_config(o, &bp, config_text, name))
		goto fail;
	if (store_entry(o, &bp, name, out) || kbuild_keep_tree(o, &bp))
		goto fail;
	out->ok = 1;
	ret = 0;
	goto out;
fail:
	/* Only under the lock: the object tree is every build's. */
	remove_tree(bp.objtree);
	remove_tree(bp.entry);
out:
	lockfile_release(&lock);	/* make's leftovers, if any, hold it until they go */
	build_paths_release(&bp);
	return ret;
}
