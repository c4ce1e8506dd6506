/* measure-conditions.c: the run stage's conditions (machine, clock, meter, seed), checked against earlier runs and stored. */
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

/*
 * A condition of earlier runs must match: 0, or -1 naming both values.
 * With no runs stored yet anything goes.
 */
static int same_condition(struct measure_state *s, int have_runs, const struct conditions *old,
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
int measure_choose_meter(struct measure_state *s, int have_runs, enum vm_clock clock,
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
static int store_workloads(struct measure_state *s)
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
const char *measure_qemu(const struct measure_state *s)
{
	return s->o->qemu ? s->o->qemu : vm_default_qemu(s->arch->name);
}

/* The parameter series run so far, one label per line, as store_workloads(). */
static int store_series(struct measure_state *s)
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
int measure_check_workload_needs(struct measure_state *s)
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
static char *run_cmdline(const struct measure_state *s, enum vm_accel accel)
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
int measure_record_conditions(struct measure_state *s, enum vm_accel accel, uint64_t seed,
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
		now.qemu = xstrdup(measure_qemu(s));
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
	if (measure_choose_meter(s, have_runs, now.clock, old.meter, &meter))
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

int measure_choose_seed(struct measure_state *s, uint64_t *out)
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

