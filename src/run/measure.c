/* measure.c: the run stage: boot every built variant with each workload, on schedule, and store every run. */
/*
 * The stage's state (plan, schedule, conditions, resume) is one struct,
 * struct measure_state (measure-internal.h); its conditions are
 * measure-conditions.c, its runs side by side measure-runs.c, the
 * schedule schedule.c, the progress line util/progress.c, host facts
 * host.c, rounds chosen by precision stats/adaptive.c.
 */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "plan/arch.h"
#include "store/experiment.h"
#include "run/guestfs.h"
#include "run/host.h"
#include "run/initramfs.h"
#include "run/measure-internal.h"
#include "run/meter.h"
#include "kbuild/kbuild.h"
#include "store/conditions.h"
#include "store/meta-keys.h"
#include "store/store-findings.h"
#include "store/store-meter.h"
#include "util/run-command.h"
#include "run/schedule.h"
#include "util/escape.h"
#include "util/lockfile.h"
#include "util/own-dir.h"
#include "util/progress.h"
#include "util/sha256.h"
#include "store/store.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "util/version.h"
#include "run/workload-spec.h"
#include "util/wrapper.h"

static void state_release(struct measure_state *s)
{
	size_t i;

	for (i = 0; i < s->nr_measured; i++) {
		free(s->measured[i].image);
		free(s->measured[i].map);
		free(s->measured[i].config);
		if (s->measured[i].own) {
			store_variant_release(s->measured[i].own);
			free(s->measured[i].own);
		}
	}
	free(s->measured);
	store_variants_free(s->variants, s->nr_variants);
	strvec_clear(&s->specs);
	free(s->initramfs);
	free(s->guest);
	strbuf_release(&s->meter);
	strbuf_release(&s->meter_state);
	free(s->arch_name);
	free(s->dir);
	lockfile_release(&s->lock);
}

/* DIR/runs/<variant>[/<workload>[/<leaf>]], malloc'd. */
char *measure_runs_path(const struct measure_state *s, const char *variant, const char *workload,
		       const char *leaf)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/runs/", s->dir);
	path_component_add(&sb, variant);
	if (workload) {
		strbuf_addch(&sb, '/');
		path_component_add(&sb, workload);
	}
	if (leaf)
		strbuf_addf(&sb, "/%s", leaf);
	return strbuf_detach(&sb, NULL);
}

/* Makes path, a measure_runs_path(): no link in DIR/runs/... is followed (own-dir.h). */
int measure_make_runs_dir(const struct measure_state *s, const char *path)
{
	size_t n = strlen(s->dir);

	if (strncmp(path, s->dir, n) || path[n] != '/')
		BUG("'%s' is not in '%s'", path, s->dir);
	return own_subdir_make(s->dir, path + n + 1);
}

/* One kconfperf per experiment at a time: two would store the same runs. */
static int lock_experiment(struct measure_state *s)
{
	return experiment_lock(&s->lock, s->dir, "running") ? -1 : 0;
}

/*
 * The guest has no shell and no libraries: a script or a dynamically linked
 * program could only fail inside it, so say why here.
 */
static int check_static(const char *path)
{
	unsigned char head[sizeof(Elf64_Ehdr)];
	Elf64_Ehdr eh;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 0;
	unsigned i;

	if (fd < 0)
		return error_errno("cannot open --workload-exec '%s'", path);
	n = pread(fd, head, sizeof(head), 0);
	if (n >= 2 && head[0] == '#' && head[1] == '!') {
		ret = error("--workload-exec '%s' is a script; the guest has no shell or "
			    "interpreter: give a statically linked program", path);
		goto out;
	}
	if (n < 4 || memcmp(head, ELFMAG, SELFMAG)) {
		ret = error("--workload-exec '%s' is not an ELF executable", path);
		goto out;
	}
	if (n < (ssize_t)sizeof(eh) || head[EI_CLASS] != ELFCLASS64 ||
	    head[EI_DATA] != ELFDATA2LSB)
		goto out;	/* not a 64-bit LSB ELF: the guest will say what it makes of it */
	memcpy(&eh, head, sizeof(eh));
	for (i = 0; i < eh.e_phnum && i < 256; i++) {
		Elf64_Phdr ph;

		if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + (uint64_t)i * eh.e_phentsize)) !=
		    (ssize_t)sizeof(ph))
			break;
		if (ph.p_type == PT_INTERP) {
			ret = error("--workload-exec '%s' is dynamically linked; the guest has no "
				    "libraries: link it with -static", path);
			break;
		}
	}
out:
	close(fd);
	return ret;
}

static int uses_exec_program(const struct measure_options *o)
{
	size_t i;

	for (i = 0; i < o->nr_workloads; i++) {
		const char *prog = workload_spec_get(&o->workloads[i], "prog");

		if (!strcmp(workload_table[o->workloads[i].id].name, "exec") &&
		    prog && !strcmp(prog, EXEC_PATH))
			return 1;
	}
	return 0;
}

/* DIR/initramfs.gz: the same inputs always give the same bytes. */
static int make_initramfs(struct measure_state *s)
{
	const struct measure_options *o = s->o;
	struct strbuf guest = STRBUF_INIT;
	struct initramfs *ir = NULL;
	int ret = -1;

	if (uses_exec_program(o) && !o->workload_exec) {
		error("the exec workload runs " EXEC_PATH ": give the program with "
		      "--workload-exec FILE");
		goto out;
	}
	if (o->workload_exec && (check_static(o->workload_exec) ||
				 arch_check_elf(s->arch, o->workload_exec, "--workload-exec")))
		goto out;
	if (initramfs_find_guest(&guest, o->guest, s->arch))
		goto out;
	s->initramfs = experiment_path(s->dir, "initramfs.gz");
	ir = initramfs_new();
	if (initramfs_add_base(ir) ||
	    initramfs_add_file_from(ir, "init", 0755, guest.buf) ||
	    (o->workload_exec &&
	     initramfs_add_file_from(ir, EXEC_PATH, 0755, o->workload_exec)) ||
	    initramfs_write(ir, s->initramfs) ||
	    sha256_file(s->initramfs, s->initramfs_hash))
		goto out;
	s->guest = strbuf_detach(&guest, NULL);
	ret = 0;
out:
	initramfs_free(ir);
	strbuf_release(&guest);
	return ret;
}

/*
 * The variant a no-op or same-as variant equals, by name; NULL if none.
 * A no-op equals its own source's baseline ("6.12:baseline"), kept in buf.
 */
static const char *measured_as(const struct store_variant *v, struct strbuf *buf)
{
	if (v->status == VARIANT_NO_OP) {
		strbuf_reset(buf);
		if (v->source && *v->source)
			strbuf_addf(buf, "%s:", v->source);
		strbuf_addstr(buf, "baseline");
		return buf->buf;
	}
	if (v->status == VARIANT_SAME_AS)
		return v->same_as;
	return NULL;
}

/*
 * Fills *m for v when its kernel can be run: 1.  0 when it cannot (why is
 * set), -1 on an error.
 */
static int find_kernel(struct measure_state *s, const struct store_variant *v, struct measured *m,
		       struct strbuf *why)
{
	struct store_build b = STORE_BUILD_INIT;
	int rc = store_get_build_by_hash(s->st, v->config_hash, &b);

	memset(m, 0, sizeof(*m));
	if (rc < 0)
		return -1;
	if (!rc)
		strbuf_addstr(why, "not built yet (run 'kconfperf build')");
	else if (b.status != BUILD_OK)
		strbuf_addf(why, "its build failed (see %s)", b.log_path ? b.log_path : "the build log");
	else if (!b.image || access(b.image, R_OK))
		strbuf_addf(why, "its kernel '%s' is gone from the build cache (run "
			    "'kconfperf build' again)", b.image ? b.image : "");
	else {
		m->v = v;
		m->image = b.image;
		b.image = NULL;
		m->map = kbuild_system_map(m->image);
		rc = 1;
	}
	if (!m->v)
		rc = 0;
	store_build_release(&b);
	return rc;
}

/* DIR/runs/<variant>/config: the effective .config, for a runner and for people. */
static int write_config(struct measure_state *s, struct measured *m)
{
	struct strbuf sb = STRBUF_INIT;
	char *vdir = measure_runs_path(s, m->v->name, NULL, NULL);
	int ret = -1;

	m->config = xstrfmt("%s/config", vdir);
	strbuf_addstr(&sb, m->v->config);
	if (!measure_make_runs_dir(s, vdir) && !strbuf_write_file(&sb, m->config))
		ret = 0;
	strbuf_release(&sb);
	free(vdir);
	return ret;
}

static int load_variants(struct measure_state *s)
{
	struct strbuf why = STRBUF_INIT, reused = STRBUF_INIT, as = STRBUF_INIT;
	size_t i;
	int ret = -1;

	if (store_get_variants(s->st, &s->variants, &s->nr_variants))
		goto out;
	if (!s->nr_variants) {
		error("'%s' has no plan yet (run 'kconfperf plan')", s->o->dir);
		goto out;
	}
	s->measured = xcalloc(s->nr_variants, sizeof(*s->measured));
	s->alloc_measured = s->nr_variants;
	for (i = 0; i < s->nr_variants; i++) {
		const struct store_variant *v = &s->variants[i];
		struct measured *m = &s->measured[s->nr_measured];
		int rc;

		if (measured_as(v, &as)) {
			strbuf_addf(&reused, "%s%s (%s %s)", reused.len ? ", " : "", v->name,
				    v->status == VARIANT_NO_OP ? "no-op, as" : "same as",
				    measured_as(v, &as));
			continue;
		}
		if (!variant_is_measured(v->status)) {
			note("skipping %s: its plan status is %s", v->name,
			     variant_status_name(v->status));
			s->skipped++;
			continue;
		}
		strbuf_reset(&why);
		rc = find_kernel(s, v, m, &why);
		if (rc < 0)
			goto out;
		if (!rc) {
			note("skipping %s: %s", v->name, why.buf);
			s->skipped++;
			continue;
		}
		s->nr_measured++;
		if (write_config(s, m))
			goto out;
	}
	if (reused.len)
		note("not run, measured as the variant they equal: %s", reused.buf);
	if (!s->nr_measured) {
		error("no variant of '%s' has a kernel to run", s->o->dir);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&why);
	strbuf_release(&reused);
	strbuf_release(&as);
	return ret;
}

static int parse_workloads(struct measure_state *s)
{
	size_t i;

	for (i = 0; i < s->o->nr_workloads; i++) {
		struct strbuf sb = STRBUF_INIT;

		workload_spec_format(&s->o->workloads[i], &sb);
		if (strvec_find(&s->specs, sb.buf) >= 0) {
			error("--workload '%s' is given twice", sb.buf);
			strbuf_release(&sb);
			return -1;
		}
		strvec_push(&s->specs, sb.buf);
		strbuf_release(&sb);
	}
	return 0;
}

/* The shared part of every run's vm_config. */
static void base_config(struct measure_state *s)
{
	const struct measure_options *o = s->o;

	vm_config_init(&s->cfg);
	s->cfg.arch = s->arch->name;
	s->cfg.qemu = o->qemu;
	s->cfg.initramfs = s->initramfs;
	s->cfg.accel = o->accel;
	s->cfg.cpu = o->cpu;
	s->cfg.mem_mb = o->mem_mb;
	s->cfg.smp = o->smp;
	s->cfg.timeout = o->timeout;
	s->cfg.runner = o->runner;
	s->cfg.clock = o->clock;
	s->cfg.icount_shift = o->icount_shift;
}

/* Resolves auto once, booting the first measured kernel for the KVM probe. */
static enum vm_accel resolve_accel(struct measure_state *s)
{
	struct vm_config probe = s->cfg;

	probe.kernel = s->measured[0].image;
	s->cfg.accel = vm_resolve_accel(&probe);
	return s->cfg.accel;
}

static int is_stored(const struct schedule_run *r, void *data)
{
	struct measure_state *s = data;

	return store_has_run(s->st, s->measured[r->variant].v->id, s->specs.v[r->workload],
			     r->round, r->warmup);
}

/* The plan's arch (meta arch; none in an older plan: x86_64), which must be bootable. */
static int read_arch(struct measure_state *s)
{
	s->arch_name = store_get_meta(s->st, META_ARCH);
	s->arch = arch_find(s->arch_name ? s->arch_name : VM_DEFAULT_ARCH);
	if (!s->arch || !vm_arch_known(s->arch->name))
		return error("'%s' is planned for arch '%s', which kconfperf cannot boot",
			     s->o->dir, s->arch_name);
	return 0;
}

/* Common setup of measure_runs() and measure_print_command(). */
static int prepare(struct measure_state *s, struct store *st, const struct measure_options *o,
		   int session)
{
	memset(s, 0, sizeof(*s));
	s->session = session;
	s->st = st;
	s->o = o;
	s->lock.fd = -1;
	s->dir = absolute_path(o->dir);
	strvec_init(&s->specs);
	strbuf_init(&s->meter, 0);
	strbuf_init(&s->meter_state, 0);
	if (!o->nr_workloads)
		return error("no --workload given");
	for (size_t i = 0; o->runner && i < o->nr_workloads; i++)
		if (workload_table[o->workloads[i].id].flags & WL_HOST)
			return error("the %s workload boots the kernel on this host: it cannot "
				     "use --runner", workload_table[o->workloads[i].id].name);
	if (read_arch(s))
		return -1;
	if (parse_workloads(s) || measure_check_workload_needs(s) ||
	    (!s->session && load_variants(s)) || make_initramfs(s))
		return -1;
	base_config(s);
	return 0;
}

int measure_runs(struct store *st, const struct measure_options *o)
{
	struct schedule_options so = { 0 };
	struct schedule sched = SCHEDULE_INIT;
	struct strbuf version = STRBUF_INIT;
	struct measure_state s;
	enum vm_accel accel;
	uint64_t seed = 0;
	long stored;
	size_t i;
	int failed = 0, ok = 0, guests, rc, ret = -1;

	if (prepare(&s, st, o, 0) || lock_experiment(&s) || measure_choose_seed(&s, &seed))
		goto out;
	/* A missing qemu is said as such, before the KVM probe blames KVM for it. */
	if (!o->runner && host_qemu_version(&version, measure_qemu(&s)))
		goto out;
	accel = resolve_accel(&s);
	if (measure_record_conditions(&s, accel, seed, version.buf))
		goto out;

	so.seed = seed;
	so.workloads = s.specs.v;
	so.nr_workloads = s.specs.nr;
	so.nr_variants = s.nr_measured;
	so.runs = o->runs;
	so.warmup = o->warmup;
	so.shard = o->shard;
	schedule_make(&sched, &so);
	stored = schedule_drop_done(&sched, is_stored, &s);
	if (stored < 0)
		goto out;
	if (!sched.nr) {
		note("nothing to run: all %ld runs are stored", stored);
		ret = s.skipped ? 1 : 0;
		goto out;
	}
	guests = measure_guests(&s, accel);
	note("%zu runs of %zu variants (%ld stored already), %s, -smp %d, %d MB, seed %llu",
	     sched.nr, s.nr_measured, stored, vm_accel_name(accel),
	     o->smp > 0 ? o->smp : VM_DEFAULT_SMP, o->mem_mb > 0 ? o->mem_mb : VM_DEFAULT_MEM_MB,
	     (unsigned long long)seed);
	if (guests > 1)
		note("%d guests side by side (--guests)", guests);
	note("instruction meter %s", s.meter_state.buf);
	for (i = 0; s.meter.len && i < s.nr_measured; i++)
		if (!s.measured[i].map)
			note("%s: no System.map in the build cache (built before it kept one, "
			     "its object tree gone): no per-function counts", s.measured[i].v->name);

	progress_start(&s.progress, PROGRESS_TERMINAL, sched.nr);
	rc = measure_run_many(&s, sched.runs, sched.nr, guests, &ok, &failed);
	progress_stop(&s.progress);
	if (rc)
		goto out;
	note("%zu runs in %.0f s: %d ok, %d failed", sched.nr, now_seconds() - s.progress.start,
	     ok, failed);
	ret = failed || s.skipped ? 1 : 0;
out:
	schedule_release(&sched);
	strbuf_release(&version);
	state_release(&s);
	return ret;
}

int measure_print_command(struct store *st, const struct measure_options *o,
			  const char *variant, struct strbuf *out)
{
	struct strbuf as = STRBUF_INIT, name_buf = STRBUF_INIT;
	struct vm_config cfg;
	struct measure_state s;
	const char *name = variant;
	char *run_dir = NULL;
	size_t i, k;
	int ret = -1;

	if (prepare(&s, st, o, 0))
		goto out;
	/* A no-op or same-as variant runs as the one it equals. */
	for (k = 0; k < 8; k++) {
		for (i = 0; i < s.nr_variants; i++)
			if (!strcmp(s.variants[i].name, name))
				break;
		if (i == s.nr_variants || !measured_as(&s.variants[i], &as))
			break;
		strbuf_reset(&name_buf);
		strbuf_addstr(&name_buf, measured_as(&s.variants[i], &as));
		name = name_buf.buf;
	}
	for (i = 0; i < s.nr_measured; i++)
		if (!strcmp(s.measured[i].v->name, name))
			break;
	if (i == s.nr_measured) {
		struct strbuf names = STRBUF_INIT;

		for (k = 0; k < s.nr_measured; k++)
			strbuf_addf(&names, "%s%s", k ? ", " : "", s.measured[k].v->name);
		error("no variant '%s' to run in '%s' (variants with a kernel: %s)",
		      variant, o->dir, names.buf);
		strbuf_release(&names);
		goto out;
	}
	if (strcmp(name, variant))
		note("%s runs as %s", variant, name);
	run_dir = measure_runs_path(&s, name, s.specs.v[0], "command");
	if (measure_make_runs_dir(&s, run_dir))
		goto out;
	cfg = s.cfg;
	cfg.kernel = s.measured[i].image;
	cfg.workload = &o->workloads[0];
	cfg.config_path = s.measured[i].config;
	cfg.variant = name;
	{
		struct strbuf state = STRBUF_INIT;
		enum vm_clock clock;
		int shift;

		/* the meter as a run would have it (no check against stored runs) */
		if (vm_effective_clock(&clock, &shift, &cfg, vm_resolve_accel(&cfg)) ||
		    measure_choose_meter(&s, 0, clock, NULL, &state)) {
			strbuf_release(&state);
			goto out;
		}
		strbuf_release(&state);
		measure_meter_config(&s, &cfg, &s.measured[i]);
	}
	if (workload_table[cfg.workload->id].flags & WL_HOST) {
		char *kdir = guestfs_kernel_dir(s.dir, s.measured[i].v->config_hash);

		ret = guestfs_format_command(out, &cfg, kdir);
		free(kdir);
	} else {
		ret = vm_format_command(out, &cfg, run_dir);
	}
out:
	strbuf_release(&as);
	strbuf_release(&name_buf);
	free(run_dir);
	state_release(&s);
	return ret;
}

struct measure_session {
	struct measure_state s;
	uint64_t seed;
	struct strbuf qemu_version;
	int guests;
};

/* The index in s->measured of variant v, added when new: >= 0, or -1 (why set). */
static long session_variant(struct measure_state *s, const struct store_variant *v,
			    struct strbuf *why)
{
	struct measured m;
	size_t i;
	int rc;

	struct store_variant *own;

	for (i = 0; i < s->nr_measured; i++)
		if (s->measured[i].v->id == v->id)
			return (long)i;
	/* The caller's row may not outlive this call: the session keeps a copy. */
	own = xmalloc(sizeof(*own));
	store_variant_copy(own, v);
	rc = find_kernel(s, own, &m, why);
	if (rc <= 0) {
		if (!rc && !why->len)
			strbuf_addstr(why, "no kernel");
		store_variant_release(own);
		free(own);
		return -1;
	}
	m.own = own;
	ALLOC_GROW(s->measured, s->nr_measured + 1, s->alloc_measured);
	s->measured[s->nr_measured++] = m;
	if (write_config(s, &s->measured[s->nr_measured - 1]))
		return -1;
	return (long)s->nr_measured - 1;
}

int measure_session_open(struct measure_session **out, struct store *st,
			 const struct measure_options *o, const struct store_variant *probe)
{
	struct measure_session *ms = xcalloc(1, sizeof(*ms));
	struct strbuf why = STRBUF_INIT;
	enum vm_accel accel;

	*out = NULL;
	strbuf_init(&ms->qemu_version, 0);
	if (prepare(&ms->s, st, o, 1))
		goto fail;
	if (lock_experiment(&ms->s) || measure_choose_seed(&ms->s, &ms->seed))
		goto fail;
	if (!o->runner && host_qemu_version(&ms->qemu_version, measure_qemu(&ms->s)))
		goto fail;
	if (session_variant(&ms->s, probe, &why) < 0) {
		error("cannot run %s: %s", probe->name, why.len ? why.buf : "no kernel");
		goto fail;
	}
	accel = resolve_accel(&ms->s);
	if (measure_record_conditions(&ms->s, accel, ms->seed, ms->qemu_version.buf))
		goto fail;
	ms->guests = measure_guests(&ms->s, accel);
	progress_start(&ms->s.progress, PROGRESS_TERMINAL, 0);
	strbuf_release(&why);
	*out = ms;
	return 0;
fail:
	strbuf_release(&why);
	strbuf_release(&ms->qemu_version);
	state_release(&ms->s);
	free(ms);
	return -1;
}

uint64_t measure_session_seed(const struct measure_session *ms)
{
	return ms->seed;
}

long measure_session_run_many(struct measure_session *ms, const struct measure_request *reqs,
			      size_t n)
{
	struct schedule_run *runs = xcalloc(n ? n : 1, sizeof(*runs));
	struct strbuf why = STRBUF_INIT;
	int ok = 0, failed = 0;
	long ret = -1;
	size_t i;

	for (i = 0; i < n; i++) {
		long idx = session_variant(&ms->s, reqs[i].v, &why);

		if (idx < 0) {
			error("cannot run %s: %s", reqs[i].v->name, why.len ? why.buf : "no kernel");
			goto out;
		}
		runs[i].variant = (size_t)idx;
		runs[i].round = reqs[i].round;
		runs[i].warmup = reqs[i].warmup;
	}
	if (!measure_run_many(&ms->s, runs, n, ms->guests, &ok, &failed))
		ret = ok;
	progress_clear(&ms->s.progress);
out:
	strbuf_release(&why);
	free(runs);
	return ret;
}

void measure_session_close(struct measure_session *ms)
{
	if (!ms)
		return;
	progress_stop(&ms->s.progress);
	strbuf_release(&ms->qemu_version);
	state_release(&ms->s);
	free(ms);
}

