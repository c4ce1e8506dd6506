/* measure.c: the run stage: boot every built variant with each workload, on schedule, and store every run. */
/*
 * Just over 1,000 lines: the stage's state (plan, schedule, conditions,
 * resume) is one struct; the schedule is schedule.c, the progress line
 * util/progress.c, host facts host.c, rounds chosen by precision
 * stats/adaptive.c.
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
#include "run/measure.h"
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

/* The exec workload's program inside the initramfs (its prog default). */
#define EXEC_PATH "/workload"

/* A variant that is run: the store's row and where its kernel is. */
struct measured {
	const struct store_variant *v;
	struct store_variant *own;	/* a session's copy of the variant, which v points to */
	char *image;		/* the bzImage in the build cache */
	char *map;		/* its System.map, or NULL: no per-function counts */
	char *config;		/* DIR/runs/<variant>/config, for a runner's KCP_CONFIG */
};

/* Everything one invocation works with; released by state_release(). */
struct state {
	struct store *st;
	const struct measure_options *o;
	char *dir;			/* absolute */
	struct store_variant *variants;
	size_t nr_variants;
	struct measured *measured;
	size_t nr_measured, alloc_measured;
	/* A session (measure_session_open()): runs are asked for one by one. */
	int session;
	int skipped;			/* variants that should run but cannot */
	struct strvec specs;		/* canonical workload specs, as stored */
	char *initramfs;
	char initramfs_hash[SHA256_HEX_SIZE];
	char *guest;			/* kcp-guest, the initramfs's /init */
	struct strbuf meter;		/* the meter plugin, or empty: no meter */
	struct strbuf meter_state;	/* meta "meter": "on", "off (--no-meter)" ... */
	char *arch_name;		/* meta arch, or NULL: an older plan, x86_64 */
	const struct arch *arch;	/* the kernels' arch: the guest's and the machine's */
	struct vm_config cfg;		/* shared settings; kernel etc. set per run */
	uint64_t seed;			/* the experiment's: orders and layout seeds */
	struct lockfile lock;		/* DIR/kconfperf.lock (experiment.h) */
	struct progress progress;	/* while runs run */
};

static void state_release(struct state *s)
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
static char *runs_path(const struct state *s, const char *variant, const char *workload,
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

/* Makes path, a runs_path(): no link in DIR/runs/... is followed (own-dir.h). */
static int make_runs_dir(const struct state *s, const char *path)
{
	size_t n = strlen(s->dir);

	if (strncmp(path, s->dir, n) || path[n] != '/')
		BUG("'%s' is not in '%s'", path, s->dir);
	return own_subdir_make(s->dir, path + n + 1);
}

/* One kconfperf per experiment at a time: two would store the same runs. */
static int lock_experiment(struct state *s)
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
static int make_initramfs(struct state *s)
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
static int find_kernel(struct state *s, const struct store_variant *v, struct measured *m,
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
static int write_config(struct state *s, struct measured *m)
{
	struct strbuf sb = STRBUF_INIT;
	char *vdir = runs_path(s, m->v->name, NULL, NULL);
	int ret = -1;

	m->config = xstrfmt("%s/config", vdir);
	strbuf_addstr(&sb, m->v->config);
	if (!make_runs_dir(s, vdir) && !strbuf_write_file(&sb, m->config))
		ret = 0;
	strbuf_release(&sb);
	free(vdir);
	return ret;
}

static int load_variants(struct state *s)
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

static int parse_workloads(struct state *s)
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

/*
 * A condition of earlier runs must match: 0, or -1 naming both values.
 * With no runs stored yet anything goes.
 */
static int same_condition(struct state *s, int have_runs, const struct conditions *old,
			  const struct conditions *now, const char *key, const char *option)
{
	struct strbuf was = STRBUF_INIT, is = STRBUF_INIT;
	int ret = 0;

	if (have_runs && conditions_differ(old, now, key)) {
		conditions_format(&was, old, key);
		conditions_format(&is, now, key);
		ret = error("'%s' holds runs made with %s %s; runs with %s %s would not "
			    "compare with them: use another --dir", s->o->dir, option, was.buf,
			    option, is.buf);
	}
	strbuf_release(&was);
	strbuf_release(&is);
	return ret;
}

/*
 * The meter's state for meta "meter": "on", or "off" and why.  Finds the
 * plugin when it will be loaded (into s->meter).  Runs with and without
 * it do not mix: a metered kernel boots with nokaslr, and the plugin
 * costs qemu time.  0, or -1 with a message.
 */
static int choose_meter(struct state *s, int have_runs, enum vm_clock clock,
			const char *old, struct strbuf *state)
{
	const struct measure_options *o = s->o;
	int ret = 0;

	strbuf_reset(&s->meter);
	if (o->runner)
		strbuf_addstr(state, "off (--runner)");
	else if (!vm_clock_is_icount(clock))
		strbuf_addstr(state, "off (host clock)");
	else if (o->no_meter)
		strbuf_addstr(state, "off (--no-meter)");
	else if (meter_find_plugin(&s->meter, o->meter))
		ret = -1;
	else
		strbuf_addstr(state, "on");
	if (ret || !have_runs || !vm_clock_is_icount(clock))
		goto out;
	if (!old && !strcmp(state->buf, "on"))
		ret = error("'%s' holds runs made before kconfperf had its instruction meter: "
			    "resume them with --no-meter, or use another --dir", o->dir);
	else if (old && strcmp(old, state->buf) && (!strcmp(old, "on") || !strcmp(state->buf, "on")))
		ret = error("'%s' holds runs made with the instruction meter %s; runs with it %s "
			    "would not compare with them (a metered kernel boots with nokaslr): "
			    "%s, or use another --dir", o->dir, old, state->buf,
			    strcmp(old, "on") ? "resume with --no-meter" : "drop --no-meter");
out:
	if (ret)
		strbuf_reset(&s->meter);
	return ret;
}

static int set_metaf(struct store *st, const char *key, const char *fmt, ...)
	__attribute__((__format__(__printf__, 3, 4)));
static int set_metaf(struct store *st, const char *key, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	int ret;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	ret = store_set_meta(st, key, sb.buf);
	strbuf_release(&sb);
	return ret;
}

/* Every workload run so far, one per line: the stored ones, then new ones. */
static int store_workloads(struct state *s)
{
	char *old = store_get_meta(s->st, META_WORKLOADS);
	struct strvec all = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int ret;

	if (old)
		strvec_split(&all, old, "\n");
	for (i = 0; i < s->specs.nr; i++)
		if (strvec_find(&all, s->specs.v[i]) < 0)
			strvec_push(&all, s->specs.v[i]);
	for (i = 0; i < all.nr; i++)
		strbuf_addf(&sb, "%s%s", i ? "\n" : "", all.v[i]);
	ret = store_set_meta(s->st, META_WORKLOADS, sb.buf);
	strbuf_release(&sb);
	strvec_clear(&all);
	free(old);
	return ret;
}

/* --qemu, or the qemu of the experiment's arch. */
static const char *qemu_of(const struct state *s)
{
	return s->o->qemu ? s->o->qemu : vm_default_qemu(s->arch->name);
}

/* The parameter series run so far, one label per line, as store_workloads(). */
static int store_series(struct state *s)
{
	char *old = store_get_meta(s->st, META_SERIES);
	struct strvec all = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int ret = 0;

	if (old)
		strvec_split(&all, old, "\n");
	for (i = 0; i < s->o->nr_series; i++)
		strvec_push_unique(&all, s->o->series[i]);
	for (i = 0; i < all.nr; i++)
		strbuf_addf(&sb, "%s%s", i ? "\n" : "", all.v[i]);
	if (all.nr)
		ret = store_set_meta(s->st, META_SERIES, sb.buf);
	strbuf_release(&sb);
	strvec_clear(&all);
	free(old);
	return ret;
}

/*
 * The plan's kernels must carry what the workloads need (harness
 * profiles), and a cmd: workload runs the host's programs, so its kernels
 * must be of the host's arch.  0, or -1 saying what to do.
 */
static int check_workload_needs(struct state *s)
{
	struct conditions c = CONDITIONS_INIT;
	const char *have;
	struct strvec taken = STRVEC_INIT, need = STRVEC_INIT;
	struct strbuf missing = STRBUF_INIT;
	struct utsname host;
	size_t i, k;
	int ret = 0;

	if (conditions_load(&c, s->st))
		return -1;
	have = c.harness;
	if (!have)
		goto out;	/* an imported experiment: no plan of ours */
	strvec_split(&taken, have, ",");
	for (i = 0; i < s->o->nr_workloads && !ret; i++) {
		const struct workload_spec *w = &s->o->workloads[i];

		strvec_clear(&need);
		workload_spec_profiles(w, &need);
		strbuf_reset(&missing);
		for (k = 0; k < need.nr; k++)
			if (strvec_find(&taken, need.v[k]) < 0)
				strbuf_addf(&missing, "%s%s", missing.len ? "," : "", need.v[k]);
		if (missing.len)
			ret = error("workload '%s' needs the harness profile%s %s, which the plan "
				    "in '%s' lacks (it has %s): plan again with --harness %s "
				    "(sweep and screen add them themselves)", s->specs.v[i],
				    strchr(missing.buf, ',') ? "s" : "", missing.buf, s->o->dir,
				    have, missing.buf);
		else if ((workload_table[w->id].flags & WL_COMMAND) && taken.nr &&
			 !uname(&host) && strcmp(taken.v[0], host.machine))
			ret = error("workload '%s' runs this host's %s programs; the kernels of "
				    "'%s' are for %s, which cannot run them", s->specs.v[i],
				    host.machine, s->o->dir, taken.v[0]);
	}
	strvec_clear(&taken);
	strvec_clear(&need);
	strbuf_release(&missing);
out:
	conditions_release(&c);
	return ret;
}

/*
 * The kernel command line of the experiment's runs, for reports: the first
 * workload's, with what differs per run (kcp.layout=, kcp.phase=) named
 * instead of given; malloc'd.
 */
static char *run_cmdline(const struct state *s, enum vm_accel accel)
{
	struct vm_config cfg = s->cfg;
	struct strbuf sb = STRBUF_INIT, cmdline = STRBUF_INIT, *out = &cmdline;
	const char *p;

	cfg.workload = &s->o->workloads[0];
	if (s->meter.len)
		cfg.meter = s->meter.buf;
	vm_kernel_cmdline(&sb, &cfg, accel);
	for (p = sb.buf; *p; ) {
		size_t n = strcspn(p, " ");

		if (!strncmp(p, "kcp.layout=", 11))
			strbuf_addstr(out, "kcp.layout=<per run>");
		else if (!strncmp(p, "kcp.phase=", 10))
			strbuf_addstr(out, "kcp.phase=<per run>");
		else
			strbuf_add(out, p, n);
		p += n;
		if (*p)
			strbuf_addch(out, *p++);
	}
	strbuf_release(&sb);
	return strbuf_detach(&cmdline, NULL);
}

/*
 * The run's conditions (store/conditions.h), checked against those of the
 * runs stored before, then stored with the run's other settings.
 */
static int record_conditions(struct state *s, enum vm_accel accel, uint64_t seed,
			     const char *qemu_version_line)
{
	const struct measure_options *o = s->o;
	struct host_facts host = HOST_FACTS_INIT;
	struct conditions old = CONDITIONS_INIT, now = CONDITIONS_INIT;
	struct strbuf meter = STRBUF_INIT;
	int64_t nr_runs = store_count_runs(s->st);
	int have_runs = nr_runs > 0, ret = -1;

	if (nr_runs < 0 || conditions_load(&old, s->st))
		goto out;
	s->seed = seed;
	if (vm_effective_clock(&now.clock, &now.icount_shift, &s->cfg, accel))
		goto out;
	if (!vm_clock_is_icount(now.clock))
		now.icount_shift = -1;
	now.accel = accel;
	now.smp = o->smp > 0 ? o->smp : VM_DEFAULT_SMP;
	now.mem_mb = o->mem_mb > 0 ? o->mem_mb : VM_DEFAULT_MEM_MB;
	if (o->runner) {
		now.runner = xstrdup(o->runner);
	} else {
		now.qemu = xstrdup(qemu_of(s));
		now.qemu_version = xstrdup(qemu_version_line);
		now.cpu = xstrdup(o->cpu ? o->cpu : vm_default_cpu(s->arch->name, accel));
	}
	if (same_condition(s, have_runs, &old, &now, "accel", "--accel") ||
	    same_condition(s, have_runs, &old, &now, "clock", "--clock") ||
	    same_condition(s, have_runs, &old, &now, "smp", "--smp") ||
	    same_condition(s, have_runs, &old, &now, "mem_mb", "--mem") ||
	    same_condition(s, have_runs, &old, &now, "cpu", "--cpu") ||
	    same_condition(s, have_runs, &old, &now, "runner", "--runner"))
		goto out;
	if (choose_meter(s, have_runs, now.clock, old.meter, &meter))
		goto out;
	strbuf_reset(&s->meter_state);
	strbuf_addbuf(&s->meter_state, &meter);
	now.meter = strbuf_detach(&meter, NULL);
	now.guest = xstrdup(s->initramfs_hash);
	if (have_runs && old.guest && strcmp(old.guest, now.guest))
		warning("the initramfs differs from the one earlier runs of '%s' booted "
			"(kcp-guest or --workload-exec changed)", o->dir);
	host_facts_read(&host);
	now.kconfperf = xstrdup(KCONFPERF_VERSION);
	now.host = xstrdup(host.name);
	now.host_kernel = xstrdup(host.kernel);
	now.cpu_model = xstrdup(host.cpu_model);
	now.host_cpus = host.cpus;
	now.kernel_cmdline = run_cmdline(s, accel);
	if (!o->runner) {
		struct strbuf firmware = STRBUF_INIT;

		host_firmware(&firmware, s->arch->name, NULL);
		now.firmware = strbuf_detach(&firmware, NULL);
		now.machine = xstrdup(vm_machine(s->arch->name));
	}
	if (conditions_save(&now, s->st) ||
	    set_metaf(s->st, META_SEED, "%llu", (unsigned long long)seed) ||
	    set_metaf(s->st, META_TIMEOUT, "%g", o->timeout > 0 ? o->timeout : VM_DEFAULT_TIMEOUT) ||
	    set_metaf(s->st, META_RUNS, "%d", o->runs) ||
	    set_metaf(s->st, META_WARMUP, "%d", o->warmup) ||
	    store_workloads(s) ||
	    store_series(s))
		goto out;
	ret = 0;
out:
	host_facts_release(&host);
	strbuf_release(&meter);
	conditions_release(&old);
	conditions_release(&now);
	return ret;
}

static int choose_seed(struct state *s, uint64_t *out)
{
	char *old = store_get_meta(s->st, META_SEED);
	int64_t nr_runs = store_count_runs(s->st);
	int ret = 0;

	if (s->o->seed) {
		if (schedule_parse_seed(out, s->o->seed))
			ret = -1;
		else if (old && nr_runs > 0 && strcmp(old, s->o->seed))
			ret = error("'%s' holds runs ordered with --seed %s; --seed %s would "
				    "reorder the rounds still to run: drop --seed, or use another "
				    "--dir", s->o->dir, old, s->o->seed);
	} else if (old) {
		ret = schedule_parse_seed(out, old);
	} else {
		*out = schedule_new_seed();
	}
	free(old);
	return ret;
}

/* The shared part of every run's vm_config. */
static void base_config(struct state *s)
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
static enum vm_accel resolve_accel(struct state *s)
{
	struct vm_config probe = s->cfg;

	probe.kernel = s->measured[0].image;
	s->cfg.accel = vm_resolve_accel(&probe);
	return s->cfg.accel;
}

/* "hackbench round 2/5 baseline" or "hackbench warm-up 1/1 baseline". */
static void describe_run(struct strbuf *sb, const struct state *s, const struct schedule_run *r)
{
	if (s->session)
		strbuf_addf(sb, "%s %s %d %s", s->specs.v[r->workload],
			    r->warmup ? "warm-up" : "run", r->warmup ? -r->round : r->round + 1,
			    s->measured[r->variant].v->name);
	else if (r->warmup)
		strbuf_addf(sb, "%s warm-up %d/%d %s", s->specs.v[r->workload], -r->round,
			    s->o->warmup, s->measured[r->variant].v->name);
	else
		strbuf_addf(sb, "%s round %d/%d %s", s->specs.v[r->workload], r->round + 1,
			    s->o->runs, s->measured[r->variant].v->name);
}

/* The line shown while a run runs: see progress.h. */
static void show_run(struct state *s, const struct schedule_run *r)
{
	struct strbuf sb = STRBUF_INIT;

	describe_run(&sb, s, r);
	progress_show(&s->progress, sb.buf, 0);
	strbuf_release(&sb);
}

/*
 * "time 0.512 s (mean of 3)", then each other metric the same way
 * ("throughput 201 MB/s"): the workload's own figures, for the per-run line.
 */
static void describe_samples(struct strbuf *sb, const struct protocol_result *proto)
{
	size_t i, k;

	for (i = 0; i < proto->nr_samples; i++) {
		const char *metric = proto->samples[i].metric;
		double sum = 0;
		size_t n = 0;

		for (k = 0; k < i && strcmp(proto->samples[k].metric, metric); k++)
			;
		if (k < i)
			continue;	/* said already */
		for (k = i; k < proto->nr_samples; k++)
			if (!strcmp(proto->samples[k].metric, metric)) {
				sum += proto->samples[k].value;
				n++;
			}
		strbuf_addf(sb, ", %s %.4g %s", metric, sum / (double)n, proto->samples[i].unit);
		if (n > 1)
			strbuf_addf(sb, " (mean of %zu)", n);
	}
}

/*
 * What a finished run gave: a warning when it failed, and one line per run
 * when the progress line is not rewritten in place.
 */
static void report_run(struct state *s, const struct schedule_run *r,
		       const struct vm_result *res, double seconds, const char *run_dir)
{
	struct progress *p = &s->progress;
	struct strbuf sb = STRBUF_INIT;

	progress_done(p, seconds);
	progress_add_count(p, &sb, p->done);
	describe_run(&sb, s, r);
	if (res->status != RUN_OK) {
		progress_clear(p);
		warning("%s: %s: %s (see %s/console.txt)", sb.buf, run_status_name(res->status),
			res->reason.buf, run_dir);
	} else if (!progress_in_place(p)) {
		strbuf_addf(&sb, ": ok in %.1f s", res->seconds);
		describe_samples(&sb, &res->proto);
		note("%s", sb.buf);
	}
	strbuf_release(&sb);
}

static void utc_now(char *buf, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The meter's counts of a stored run, beside it. */
static int store_meter(struct state *s, int64_t run_id, const struct vm_result *res)
{
	struct store_meter sm = STORE_METER_INIT;
	const struct profile *phases[STORE_METER_NR_PHASES];
	size_t i;
	int ret;

	meter_store_counts(&sm, res->meter, &res->proto);
	if (!res->meter->has_map)
		sm.note = xstrdup("no System.map for this kernel in the build cache: "
				  "no per-function counts");
	for (i = 0; i < STORE_METER_NR_PHASES; i++)
		phases[i] = &res->meter->phases[i];
	ret = store_add_meter(s->st, run_id, &sm, phases);
	store_meter_release(&sm);
	return ret;
}

/* The kernel's own reports in the run, beside it. */
static int store_findings(struct state *s, int64_t run_id, const struct findings *f)
{
	struct store_finding *v = xcalloc(f->nr ? f->nr : 1, sizeof(*v));
	size_t i;
	int ret;

	for (i = 0; i < f->nr; i++) {
		v[i].kind = f->v[i].kind;
		v[i].line = f->v[i].line;	/* borrowed */
		v[i].text = f->v[i].text;
		v[i].count = f->v[i].count;
	}
	ret = store_add_findings(s->st, run_id, v, f->nr);
	free(v);
	return ret;
}

static int store_result(struct state *s, const struct schedule_run *r,
			const struct vm_result *res, const char *started, uint64_t layout_seed)
{
	struct store_run run = STORE_RUN_INIT;
	struct store_sample *samples;
	size_t i, nr = res->proto.nr_samples;
	int ret;

	samples = xcalloc(nr ? nr : 1, sizeof(*samples));
	for (i = 0; i < nr; i++) {
		const struct protocol_sample *x = &res->proto.samples[i];

		samples[i].iteration = (int)x->iteration;
		samples[i].metric = x->metric;
		samples[i].unit = x->unit;
		samples[i].value = x->value;
		samples[i].higher_is_better = x->higher_is_better;
	}
	run.variant_id = s->measured[r->variant].v->id;
	run.workload = xstrdup(s->specs.v[r->workload]);
	run.round = r->round;
	run.seq = r->seq;
	run.warmup = r->warmup;
	run.accel = xstrdup(vm_accel_name(res->accel));
	run.status = res->status;
	run.error = res->reason.len ? xstrdup(res->reason.buf) : NULL;
	run.console_tail = res->console_tail.len ? xstrdup(res->console_tail.buf) : NULL;
	run.wall_s = res->seconds;
	run.boot_s = res->proto.ready ? res->proto.boot_seconds : NAN;
	run.started = xstrdup(started);
	run.clock = res->clock;
	if (vm_clock_is_icount(res->clock)) {
		run.icount_shift = res->icount_shift;
		run.layout_seed = (int64_t)layout_seed;
	}
	run.clocksource = res->proto.clocksource ? xstrdup(res->proto.clocksource) : NULL;
	ret = store_begin(s->st);
	if (!ret)
		ret = store_add_run(s->st, &run, samples, nr);
	if (!ret && res->meter)
		ret = store_meter(s, run.id, res);
	if (!ret)
		ret = store_findings(s, run.id, &res->findings);
	if (!ret)
		ret = store_commit(s->st);
	else
		store_rollback(s->st);
	store_run_release(&run);
	free(samples);
	return ret;
}

/* The meter of a run of m's kernel, when it is on. */
static void meter_config(const struct state *s, struct vm_config *cfg, const struct measured *m)
{
	if (!s->meter.len)
		return;
	cfg->meter = s->meter.buf;
	cfg->meter_map = m->map;
	/* libguestfs's appliance runs its own init: no markers to watch */
	if (!(workload_table[cfg->workload->id].flags & WL_HOST))
		cfg->meter_guest = s->guest;
}

/* "r0", "r1" ... for measured rounds, "w1", "w2" ... for warm-ups. */
static void round_name(char *buf, size_t size, const struct schedule_run *r)
{
	if (r->warmup)
		snprintf(buf, size, "w%d", -r->round);
	else
		snprintf(buf, size, "r%d", r->round);
}

/* Runs one scheduled run and stores it: 1 ok, 0 a failed run (stored), -1 error. */
/*
 * A metric keeps the unit and direction of its first stored sample: an ok
 * run that reports it otherwise is malformed (its samples are still
 * stored, as a failed run's are, and not averaged with the others).
 * 0, or -1 on a store error.
 */
static int check_metric_kinds(struct state *s, const char *workload, struct vm_result *res)
{
	size_t i, k;

	for (i = 0; i < res->proto.nr_samples && res->status == RUN_OK; i++) {
		const struct protocol_sample *x = &res->proto.samples[i];
		char *unit;
		int hib, rc;

		for (k = 0; k < i; k++)
			if (!strcmp(res->proto.samples[k].metric, x->metric))
				break;
		if (k < i)
			continue;	/* the parser held the rest of the run to the first */
		rc = store_metric_kind(s->st, workload, x->metric, &unit, &hib);
		if (rc < 0)
			return -1;
		if (rc && (strcmp(unit, x->unit) || hib != x->higher_is_better)) {
			res->status = RUN_MALFORMED;
			strbuf_addf(&res->reason, "metric '%s' in %s, %s is better, but the "
				    "experiment's first sample of it was in %s, %s is better",
				    x->metric, x->unit, x->higher_is_better ? "higher" : "lower",
				    unit, hib ? "higher" : "lower");
		}
		free(unit);
	}
	return 0;
}

static int run_one(struct state *s, const struct schedule_run *r)
{
	const struct measured *m = &s->measured[r->variant];
	struct vm_config cfg = s->cfg;
	struct vm_result res = VM_RESULT_INIT;
	char leaf[32], started[32];
	char *run_dir;
	double t0;
	int ret = -1;

	round_name(leaf, sizeof(leaf), r);
	run_dir = runs_path(s, m->v->name, s->specs.v[r->workload], leaf);
	show_run(s, r);
	if (make_runs_dir(s, run_dir))
		goto out;
	cfg.kernel = m->image;
	cfg.workload = &s->o->workloads[r->workload];
	cfg.config_path = m->config;
	meter_config(s, &cfg, m);
	cfg.variant = m->v->name;
	cfg.run_number = r->round;
	cfg.layout_seed = (uint64_t)schedule_layout_seed(s->seed, m->v->name, s->specs.v[r->workload],
							 r->round, r->warmup);
	utc_now(started, sizeof(started));
	t0 = now_seconds();
	if (workload_table[cfg.workload->id].flags & WL_HOST) {
		char *kdir = guestfs_kernel_dir(s->dir, m->v->config_hash);

		guestfs_run(&res, &cfg, kdir, run_dir);
		free(kdir);
	} else {
		vm_run(&res, &cfg, run_dir);
	}
	if (res.status == RUN_START_FAILED) {
		/* The harness's fault, not the kernel's: stop, store nothing. */
		progress_clear(&s->progress);
		error("%s", res.reason.buf);
		goto out;
	}
	if (check_metric_kinds(s, s->specs.v[r->workload], &res) ||
	    store_result(s, r, &res, started, cfg.layout_seed))
		goto out;
	report_run(s, r, &res, now_seconds() - t0, run_dir);
	ret = res.status == RUN_OK;
out:
	vm_result_release(&res);
	free(run_dir);
	return ret;
}

static int is_stored(const struct schedule_run *r, void *data)
{
	struct state *s = data;

	return store_has_run(s->st, s->measured[r->variant].v->id, s->specs.v[r->workload],
			     r->round, r->warmup);
}

/* The plan's arch (meta arch; none in an older plan: x86_64), which must be bootable. */
static int read_arch(struct state *s)
{
	s->arch_name = store_get_meta(s->st, META_ARCH);
	s->arch = arch_find(s->arch_name ? s->arch_name : VM_DEFAULT_ARCH);
	if (!s->arch || !vm_arch_known(s->arch->name))
		return error("'%s' is planned for arch '%s', which kconfperf cannot boot",
			     s->o->dir, s->arch_name);
	return 0;
}

/* Common setup of measure_runs() and measure_print_command(). */
static int prepare(struct state *s, struct store *st, const struct measure_options *o,
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
	if (parse_workloads(s) || check_workload_needs(s) ||
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
	struct state s;
	enum vm_accel accel;
	uint64_t seed = 0;
	long stored;
	size_t i;
	int failed = 0, ok = 0, ret = -1;

	if (prepare(&s, st, o, 0) || lock_experiment(&s) || choose_seed(&s, &seed))
		goto out;
	/* A missing qemu is said as such, before the KVM probe blames KVM for it. */
	if (!o->runner && host_qemu_version(&version, qemu_of(&s)))
		goto out;
	accel = resolve_accel(&s);
	if (record_conditions(&s, accel, seed, version.buf))
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
	note("%zu runs of %zu variants (%ld stored already), %s, -smp %d, %d MB, seed %llu",
	     sched.nr, s.nr_measured, stored, vm_accel_name(accel),
	     o->smp > 0 ? o->smp : VM_DEFAULT_SMP, o->mem_mb > 0 ? o->mem_mb : VM_DEFAULT_MEM_MB,
	     (unsigned long long)seed);
	note("instruction meter %s", s.meter_state.buf);
	for (i = 0; s.meter.len && i < s.nr_measured; i++)
		if (!s.measured[i].map)
			note("%s: no System.map in the build cache (built before it kept one, "
			     "its object tree gone): no per-function counts", s.measured[i].v->name);

	progress_start(&s.progress, PROGRESS_TERMINAL, sched.nr);
	for (i = 0; i < sched.nr; i++) {
		int rc = run_one(&s, &sched.runs[i]);

		if (rc < 0)
			break;
		if (rc)
			ok++;
		else
			failed++;
	}
	progress_stop(&s.progress);
	if (i < sched.nr)
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
	struct state s;
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
	run_dir = runs_path(&s, name, s.specs.v[0], "command");
	if (make_runs_dir(&s, run_dir))
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
		    choose_meter(&s, 0, clock, NULL, &state)) {
			strbuf_release(&state);
			goto out;
		}
		strbuf_release(&state);
		meter_config(&s, &cfg, &s.measured[i]);
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
	struct state s;
	uint64_t seed;
	struct strbuf qemu_version;
};

/* The index in s->measured of variant v, added when new: >= 0, or -1 (why set). */
static long session_variant(struct state *s, const struct store_variant *v,
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
	if (lock_experiment(&ms->s) || choose_seed(&ms->s, &ms->seed))
		goto fail;
	if (!o->runner && host_qemu_version(&ms->qemu_version, qemu_of(&ms->s)))
		goto fail;
	if (session_variant(&ms->s, probe, &why) < 0) {
		error("cannot run %s: %s", probe->name, why.len ? why.buf : "no kernel");
		goto fail;
	}
	accel = resolve_accel(&ms->s);
	if (record_conditions(&ms->s, accel, ms->seed, ms->qemu_version.buf))
		goto fail;
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

int measure_session_run(struct measure_session *ms, const struct store_variant *v,
			int round, int warmup)
{
	struct schedule_run r = { 0 };
	struct strbuf why = STRBUF_INIT;
	long idx = session_variant(&ms->s, v, &why);
	int ret;

	if (idx < 0) {
		ret = error("cannot run %s: %s", v->name, why.len ? why.buf : "no kernel");
		strbuf_release(&why);
		return ret;
	}
	strbuf_release(&why);
	r.variant = (size_t)idx;
	r.round = round;
	r.warmup = warmup;
	ret = run_one(&ms->s, &r);
	progress_clear(&ms->s.progress);
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
