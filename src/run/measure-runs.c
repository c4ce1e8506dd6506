/* measure-runs.c: the run stage's runs: started side by side, each stored as it ends. */
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

/* "hackbench round 2/5 baseline" or "hackbench warm-up 1/1 baseline". */
static void describe_run(struct strbuf *sb, const struct measure_state *s, const struct schedule_run *r)
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
static void show_run(struct measure_state *s, const struct schedule_run *r)
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
static void report_run(struct measure_state *s, const struct schedule_run *r,
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
static int store_meter(struct measure_state *s, int64_t run_id, const struct vm_result *res)
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
static int store_findings(struct measure_state *s, int64_t run_id, const struct findings *f)
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

static int store_result(struct measure_state *s, const struct schedule_run *r,
			const struct vm_result *res, const char *started, uint64_t layout_seed,
			int guests)
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
	run.guests = guests;
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
void measure_meter_config(const struct measure_state *s, struct vm_config *cfg, const struct measured *m)
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
static int check_metric_kinds(struct measure_state *s, const char *workload, struct vm_result *res)
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

/* A run under way (measure_run_many()). */
struct slot {
	const struct schedule_run *r;
	struct vm_job *job;
	struct vm_result res;
	char *run_dir;
	char started[32];
	double t0;
	uint64_t layout_seed;
	int guests;		/* the most guests that ran while this one did */
};

/*
 * Starts r in slot: 0 started, -1 on an error that stops the stage (the
 * harness's fault, not the kernel's: nothing is stored).
 */
static int start_one(struct measure_state *s, const struct schedule_run *r, struct slot *slot)
{
	const struct measured *m = &s->measured[r->variant];
	struct vm_config cfg = s->cfg;
	char leaf[32];
	int rc;

	memset(slot, 0, sizeof(*slot));
	vm_result_init(&slot->res);
	slot->r = r;
	round_name(leaf, sizeof(leaf), r);
	slot->run_dir = measure_runs_path(s, m->v->name, s->specs.v[r->workload], leaf);
	show_run(s, r);
	if (measure_make_runs_dir(s, slot->run_dir))
		return -1;
	cfg.kernel = m->image;
	cfg.workload = &s->o->workloads[r->workload];
	cfg.config_path = m->config;
	measure_meter_config(s, &cfg, m);
	cfg.variant = m->v->name;
	cfg.run_number = r->round;
	cfg.layout_seed = (uint64_t)schedule_layout_seed(s->seed, m->v->name, s->specs.v[r->workload],
							 r->round, r->warmup);
	slot->layout_seed = cfg.layout_seed;
	utc_now(slot->started, sizeof(slot->started));
	slot->t0 = now_seconds();
	if (workload_table[cfg.workload->id].flags & WL_HOST) {
		char *kdir = guestfs_kernel_dir(s->dir, m->v->config_hash);

		rc = guestfs_start(&slot->job, &slot->res, &cfg, kdir, slot->run_dir);
		free(kdir);
	} else {
		rc = vm_start(&slot->job, &slot->res, &cfg, slot->run_dir);
	}
	if (rc && slot->res.status == RUN_START_FAILED) {
		progress_clear(&s->progress);
		error("%s", slot->res.reason.buf);
		return -1;
	}
	return rc ? -1 : 0;
}

static void slot_release(struct slot *slot)
{
	vm_result_release(&slot->res);
	free(slot->run_dir);
	memset(slot, 0, sizeof(*slot));
}

/* Finishes slot's run, whose process has ended, and stores it: 1 ok, 0 failed (stored), -1 error. */
static int finish_one(struct measure_state *s, struct slot *slot)
{
	const struct schedule_run *r = slot->r;
	int ret = -1;

	vm_job_finish(slot->job, &slot->res);
	slot->job = NULL;
	if (check_metric_kinds(s, s->specs.v[r->workload], &slot->res) ||
	    store_result(s, r, &slot->res, slot->started, slot->layout_seed, slot->guests))
		goto out;
	report_run(s, r, &slot->res, now_seconds() - slot->t0, slot->run_dir);
	ret = slot->res.status == RUN_OK;
out:
	slot_release(slot);
	return ret;
}

/*
 * Whether r may start now: a kernel's warm-up comes before its other runs,
 * so none of them starts while one of its warm-ups runs.
 */
static int may_start(const struct slot *slots, size_t n, const struct schedule_run *r)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (slots[i].job && slots[i].r->warmup && slots[i].r->variant == r->variant &&
		    slots[i].r->workload == r->workload)
			return 0;
	return 1;
}

int measure_run_many(struct measure_state *s, const struct schedule_run *runs, size_t nr,
		     int guests, int *ok, int *failed)
{
	size_t n = guests > 1 ? (size_t)guests : 1, next = 0, running = 0, i;
	struct slot *slots = xcalloc(n, sizeof(*slots));
	struct child_process **cps = xcalloc(n, sizeof(*cps));
	int stop = 0, ret = 0;

	while ((next < nr && !stop) || running) {
		int rc;

		/* Start what may start, up to n at once. */
		while (!stop && next < nr && running < n && may_start(slots, n, &runs[next])) {
			for (i = 0; slots[i].job; i++)
				;
			if (start_one(s, &runs[next], &slots[i])) {
				slot_release(&slots[i]);
				stop = 1;
				ret = -1;
				break;
			}
			next++;
			running++;
			for (size_t k = 0; k < n; k++)
				if (slots[k].job && slots[k].guests < (int)running)
					slots[k].guests = (int)running;
		}
		if (!running)
			break;
		/* A job without a process (its program did not start) ends at once. */
		for (i = 0; i < n; i++)
			cps[i] = slots[i].job ? vm_job_process(slots[i].job) : NULL;
		for (i = 0; i < n && !(slots[i].job && !cps[i]); i++)
			;
		if (i == n) {
			int k = wait_any_command(cps, n);

			if (k < 0)
				BUG("%zu runs under way and none to wait for", running);
			i = (size_t)k;
		}
		rc = finish_one(s, &slots[i]);
		running--;
		if (rc < 0) {
			stop = 1;
			ret = -1;
		} else if (rc) {
			(*ok)++;
		} else {
			(*failed)++;
		}
	}
	free(slots);
	free(cps);
	return ret;
}


/* Memory a guest's qemu takes beside the guest's own (TCG's code buffer, devices). */
#define GUEST_OVERHEAD_MB 512

int measure_guests(const struct measure_state *s, enum vm_accel accel)
{
	const struct measure_options *o = s->o;
	enum vm_clock clock;
	int shift, n, mem;
	long avail;

	if (o->guests > 0)
		return o->guests;
	if (o->runner || accel != VM_ACCEL_TCG ||
	    vm_effective_clock(&clock, &shift, &s->cfg, accel) || !vm_clock_is_icount(clock))
		return 1;
	n = online_cpus();
	mem = (o->mem_mb > 0 ? o->mem_mb : VM_DEFAULT_MEM_MB) + GUEST_OVERHEAD_MB;
	avail = host_mem_available_mb();
	if (n > 1 && avail > 0 && avail / mem < n) {
		note("%ld MiB of memory available: %ld guests side by side, not one per CPU (%d)",
		     avail, avail / mem > 1 ? avail / mem : 1, n);
		n = avail / mem > 1 ? (int)(avail / mem) : 1;
	}
	return n > 0 ? n : 1;
}
