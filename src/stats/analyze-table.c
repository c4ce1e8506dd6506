/* analyze-table.c: the model's tables, one per workload, metric and source: each variant's row, compared with the baseline, ordered and noted. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan.h"
#include "run/workload-table.h"
#include "stats/analyze-parts.h"
#include "stats/analyze.h"
#include "store/metric.h"
#include "store/store-meter.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

#define NONE SIZE_MAX

/* What a table measures, before it has rows. */
struct metric_spec {
	char *name, *unit;
	int higher_is_better;
	enum metric_kind kind;	/* SAMPLE: from the samples (instructions too), else the run's own */
};

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Appends s to the list of distinct strings, keeping it sorted. */
void analyze_add_distinct(struct strvec *sv, const char *s)
{
	if (!s || !*s || strvec_find(sv, s) >= 0)
		return;
	strvec_push(sv, s);
	qsort(sv->v, sv->nr, sizeof(*sv->v), str_cmp);
}

char *analyze_join(const struct strvec *sv, const char *sep)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < sv->nr; i++)
		strbuf_addf(&sb, "%s%s", i ? sep : "", sv->v[i]);
	return strbuf_detach(&sb, NULL);
}

static void metric_specs_release(struct metric_spec *ms, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(ms[i].name);
		free(ms[i].unit);
	}
	free(ms);
}

static int metric_cmp(const void *a, const void *b)
{
	const struct metric_spec *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind == METRIC_SAMPLE ? -1 : y->kind == METRIC_SAMPLE ? 1 :
			(int)x->kind - (int)y->kind;
	return strcmp(x->name, y->name);
}

/*
 * Whether the workload is boot, whose one sample is boot-to-init time:
 * the guest reads the clock that run.boot_s comes from when init starts,
 * so a boot table would repeat the workload's own.
 */
static int samples_are_boot(const char *workload)
{
	const char *rest;

	return skip_prefix(workload, "boot", &rest) && (!*rest || *rest == ':');
}

/* The metrics the runs of one workload have: sample metrics, wall, boot. */
static struct metric_spec *workload_metrics(const struct analyze_model *m,
					    const char *workload, size_t *nr_out)
{
	struct metric_spec *ms = NULL;
	size_t nr = 0, alloc = 0, i, j, k;
	int has_boot = 0;

	for (i = 0; i < m->nr_runs; i++) {
		const struct store_run *r = &m->runs[i];
		size_t first, n;

		if (strcmp(r->workload, workload))
			continue;
		if (!isnan(r->boot_s))
			has_boot = 1;
		n = analyze_run_samples(m, r->id, &first);
		for (j = first; j < first + n; j++) {
			const struct store_sample_row *s = &m->samples[j];

			for (k = 0; k < nr; k++)
				if (!strcmp(ms[k].name, s->metric))
					break;
			if (k < nr)
				continue;
			ALLOC_GROW(ms, nr + 1, alloc);
			ms[nr].name = xstrdup(s->metric);
			ms[nr].unit = xstrdup(s->unit ? s->unit : "");
			ms[nr].higher_is_better = s->higher_is_better;
			ms[nr].kind = METRIC_SAMPLE;
			nr++;
		}
	}
	if (nr && samples_are_boot(workload))
		has_boot = 0;
	ALLOC_GROW(ms, nr + 2, alloc);
	ms[nr].name = xstrdup(METRIC_WALL_NAME);
	ms[nr].unit = xstrdup("s");
	ms[nr].higher_is_better = 0;
	ms[nr++].kind = METRIC_WALL;
	if (has_boot) {
		ms[nr].name = xstrdup(METRIC_BOOT_NAME);
		ms[nr].unit = xstrdup("s");
		ms[nr].higher_is_better = 0;
		ms[nr++].kind = METRIC_BOOT;
	}
	qsort(ms, nr, sizeof(*ms), metric_cmp);
	*nr_out = nr;
	return ms;
}

int analyze_run_value(const char *metric, const struct store_run *r,
		      const struct store_sample_row *samples, size_t nr,
		      double *out, size_t *iterations)
{
	size_t i, count = 0;
	double sum = 0;

	*iterations = 0;
	if (metric_is_every_runs(metric)) {
		*out = metric_kind_of(metric) == METRIC_WALL ? r->wall_s : r->boot_s;
		return isfinite(*out) ? 0 : -1;
	}
	for (i = 0; i < nr; i++) {
		if (samples[i].run_id != r->id || strcmp(samples[i].metric, metric) ||
		    !isfinite(samples[i].value))
			continue;
		sum += samples[i].value;
		count++;
	}
	if (!count)
		return -1;
	*out = sum / count;
	*iterations = count;
	return 0;
}

/* The run's value of the metric; returns 0, or -1 when the run lacks it. */
static int run_value(const struct analyze_model *m, const struct store_run *r,
		     const struct metric_spec *ms, double *out, size_t *iterations)
{
	size_t first = 0, n = 0;

	if (ms->kind == METRIC_SAMPLE)
		n = analyze_run_samples(m, r->id, &first);
	return analyze_run_value(ms->name, r, m->samples + first, n, out, iterations);
}

/* The row of variant in t, or NONE (analyze-design.h). */
size_t analyze_row_of(const struct analyze_table *t, size_t variant)
{
	size_t i;

	for (i = 0; variant != NONE && i < t->nr_rows; i++)
		if (t->rows[i].variant == variant)
			return i;
	return NONE;
}

/* The clock of a run as a table lists it: "icount:0", or "host" (also for older runs). */
static void add_clock(struct strvec *clocks, const struct store_run *r)
{
	struct strbuf sb = STRBUF_INIT;

	if (vm_clock_is_icount(r->clock) && r->icount_shift >= 0)
		vm_clock_format(&sb, r->clock, r->icount_shift);
	else
		vm_clock_format(&sb, VM_CLOCK_HOST, -1);
	analyze_add_distinct(clocks, sb.buf);
	strbuf_release(&sb);
}

static void fill_row(const struct analyze_model *m, struct analyze_table *t,
		     struct analyze_row *row, const struct metric_spec *ms,
		     struct strvec *accel, struct strvec *clocks, struct strvec *layouts)
{
	size_t alloc = 0, alloc_rounds = 0, i, it;
	int64_t id = m->variants[row->variant].v.id;

	for (i = 0; i < m->nr_runs; i++) {
		const struct store_run *r = &m->runs[i];
		double value;

		if (r->variant_id != id || strcmp(r->workload, t->workload))
			continue;
		if (r->warmup) {
			row->warmups++;
			continue;
		}
		if (r->status != RUN_OK) {
			row->failed++;
			if (!row->first_error)
				row->first_error = xstrfmt("%s%s%s", run_status_name(r->status),
							   r->error && *r->error ? ": " : "",
							   r->error ? r->error : "");
			continue;
		}
		if (run_value(m, r, ms, &value, &it)) {
			row->missing++;
			continue;
		}
		if (it > t->iterations)
			t->iterations = it;
		analyze_add_distinct(accel, r->accel);
		add_clock(clocks, r);
		if (r->guests > t->guests)
			t->guests = r->guests;
		if (r->layout_seed >= 0) {
			char seed[32];

			snprintf(seed, sizeof(seed), "%lld", (long long)r->layout_seed);
			analyze_add_distinct(layouts, seed);
		}
		ALLOC_GROW(row->values, row->n + 1, alloc);
		ALLOC_GROW(row->rounds, row->n + 1, alloc_rounds);
		row->values[row->n] = value;
		row->rounds[row->n] = r->round;
		row->n++;
	}
	row->outlier = xcalloc(row->n ? row->n : 1, 1);
	stats_describe(&row->summary, row->values, row->n, row->outlier);
	stats_two_clusters(&row->clusters, row->values, row->n);
	row->too_few = row->n < ANALYZE_MIN_RUNS;
}

/* Effect in the direction of cost: higher is costlier. */
static double cost_key(const struct analyze_table *t, const struct analyze_row *r)
{
	if (!r->compared || isnan(r->cmp.change))
		return NAN;
	return t->higher_is_better ? -r->cmp.change : r->cmp.change;
}

struct order_ctx {
	const struct analyze_model *m;
	const struct analyze_table *t;
};

enum { RANK_BASELINE, RANK_ALL, RANK_STEP, RANK_OTHER };

static int order_rank(const struct order_ctx *ctx, size_t i)
{
	const char *kind = ctx->m->variants[ctx->t->rows[i].variant].v.kind;

	if (i == ctx->t->baseline)
		return RANK_BASELINE;
	if (kind && !strcmp(kind, "all"))
		return RANK_ALL;
	if (kind && !strcmp(kind, "cumulative"))
		return RANK_STEP;
	return RANK_OTHER;
}

static int order_cmp(const void *a, const void *b, void *data)
{
	const struct order_ctx *ctx = data;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int ri = order_rank(ctx, i), rj = order_rank(ctx, j);
	double ki, kj;

	if (ri != rj)
		return ri - rj;
	if (ri == RANK_STEP)
		return i < j ? -1 : i > j;	/* steps in their order */
	ki = cost_key(ctx->t, &ctx->t->rows[i]);
	kj = cost_key(ctx->t, &ctx->t->rows[j]);
	if (isnan(ki) != isnan(kj))
		return isnan(ki) ? 1 : -1;
	if (!isnan(ki) && ki != kj)
		return ki > kj ? -1 : 1;
	return i < j ? -1 : i > j;
}

static void order_rows(const struct analyze_model *m, struct analyze_table *t)
{
	struct order_ctx ctx = { m, t };
	size_t i;

	t->order = xcalloc(t->nr_rows ? t->nr_rows : 1, sizeof(*t->order));
	for (i = 0; i < t->nr_rows; i++)
		if (t->rows[i].n)
			t->order[t->nr_order++] = i;
	qsort_r(t->order, t->nr_order, sizeof(*t->order), order_cmp, &ctx);
}

static void compare_rows(struct analyze_table *t, const struct analyze_options *opts)
{
	struct stats_options so = opts->stats;
	struct stats_comparison *family;
	const struct analyze_row *base;
	size_t i, nf = 0;

	so.higher_is_better = t->higher_is_better;
	if (t->baseline == NONE)
		return;
	base = &t->rows[t->baseline];
	family = xcalloc(t->nr_rows ? t->nr_rows : 1, sizeof(*family));
	for (i = 0; i < t->nr_rows; i++) {
		struct analyze_row *r = &t->rows[i];

		if (i == t->baseline || r->twin != NONE || !r->n || !base->n)
			continue;
		stats_compare(&r->cmp, base->values, base->n, r->values, r->n, &so);
		r->compared = 1;
		family[nf++] = r->cmp;
	}
	stats_adjust(family, nf, &so);
	for (i = nf = 0; i < t->nr_rows; i++)
		if (t->rows[i].compared)
			t->rows[i].cmp = family[nf++];
	free(family);
}

/* Whether variant i has a row in the tables of the workload (analyze.h). */
static int has_row(const struct analyze_model *m, size_t i, const char *workload, size_t source)
{
	const struct analyze_variant *av = &m->variants[i];
	size_t j;

	if (av->source != source)
		return 0;
	if (av->twin != NONE)
		return has_row(m, av->twin, workload, source);
	if (av->state == ANALYZE_OK)
		return 1;
	for (j = 0; j < m->nr_runs; j++)
		if (m->runs[j].variant_id == av->v.id && !strcmp(m->runs[j].workload, workload))
			return 1;
	return 0;
}

/* A malloc'd copy of size bytes at p; NULL for none. */
static void *memdup(const void *p, size_t size)
{
	return size ? memcpy(xmalloc(size), p, size) : NULL;
}

/* Makes a same-as row a copy of its twin's, which is filled and compared. */
static void copy_twin(struct analyze_table *t, struct analyze_row *row)
{
	const struct analyze_row *twin = &t->rows[row->twin];

	row->n = twin->n;
	row->values = memdup(twin->values, twin->n * sizeof(*twin->values));
	row->rounds = memdup(twin->rounds, twin->n * sizeof(*twin->rounds));
	row->outlier = memdup(twin->outlier, twin->n);
	row->warmups = twin->warmups;
	row->failed = twin->failed;
	row->missing = twin->missing;
	row->first_error = twin->first_error ? xstrdup(twin->first_error) : NULL;
	row->summary = twin->summary;
	row->clusters = twin->clusters;
	row->compared = twin->compared;
	row->cmp = twin->cmp;
	row->too_few = twin->too_few;
}

static void add_note(struct analyze_table *t, size_t *alloc, enum analyze_note_kind kind,
		     size_t row)
{
	ALLOC_GROW(t->notes, t->nr_notes + 1, *alloc);
	t->notes[t->nr_notes].kind = kind;
	t->notes[t->nr_notes].row = row;
	t->nr_notes++;
}

/* The notes on the rows, as analyze.h describes them. */
static void note_rows(struct analyze_table *t)
{
	size_t i, alloc = 0;

	for (i = 0; i < t->nr_rows; i++) {
		const struct analyze_row *r = &t->rows[i];

		if (r->twin != NONE)
			continue;
		if (r->failed)
			add_note(t, &alloc, ANALYZE_NOTE_FAILED, i);
		if (r->n && r->too_few)
			add_note(t, &alloc, ANALYZE_NOTE_TOO_FEW, i);
		else if (!r->n && !r->failed)
			add_note(t, &alloc, ANALYZE_NOTE_NOT_RUN, i);
	}
}

/* t->aa_row, aa_marked and aa_text: what the A/A control says of the table. */
static void aa_verdict(const struct analyze_model *m, struct analyze_table *t)
{
	struct strbuf sb = STRBUF_INIT;
	const struct analyze_row *r;
	size_t i;

	t->aa_row = NONE;
	for (i = 0; i < t->nr_rows; i++)
		if (!strcmp(m->variants[t->rows[i].variant].v.kind, PLAN_AA_NAME))
			t->aa_row = i;
	if (t->aa_row == NONE)
		return;
	r = &t->rows[t->aa_row];
	strbuf_addstr(&sb, "A/A control: " PLAN_AA_NAME " (the baseline kernel measured again) ");
	if (!r->compared || r->cmp.marker == '?') {
		strbuf_addstr(&sb, "has too few runs to judge this experiment's noise");
	} else {
		stats_format_change(&sb, r->cmp.change, 1);
		strbuf_addch(&sb, ' ');
		stats_format_ci(&sb, &r->cmp, 1);
		t->aa_marked = r->cmp.marker == '*' || r->cmp.marker == '~';
		if (t->aa_marked)
			strbuf_addf(&sb, " is marked %c: the same kernel came out different, so "
				    "this experiment's noise is not under control and its small "
				    "verdicts cannot be trusted", r->cmp.marker);
		else
			strbuf_addstr(&sb, ", not marked: as it must be");
	}
	t->aa_text = strbuf_detach(&sb, NULL);
}

/* Whether a workload spec names a host workload that boots the kernel itself (libguestfs). */
static int boots_itself(const char *workload)
{
	size_t len = strcspn(workload, ":");
	char *name = xstrndup(workload, len);
	int id = workload_find(name);

	free(name);
	return id >= 0 && (workload_table[id].flags & WL_HOST);
}

/* t->clock_text, from its metric and the clocks of its runs. */
static void describe_clock(struct analyze_table *t, const struct strvec *clocks)
{
	struct strbuf sb = STRBUF_INIT;
	enum vm_clock clock = VM_CLOCK_HOST;
	int shift = -1;

	if (clocks->nr == 1 && vm_clock_scan(&clock, &shift, clocks->v[0]))
		clock = VM_CLOCK_HOST;
	if (metric_kind_of(t->metric) == METRIC_WALL)
		strbuf_addstr(&sb, "host time, the whole run as the host saw it "
			      "(what a user waits for; host load moves it)");
	else if (clocks->nr > 1)
		strbuf_addf(&sb, "runs under different guest clocks (%s) do not compare", t->clock);
	else if (clock == VM_CLOCK_ICOUNT && shift >= 0 && boots_itself(t->workload))
		strbuf_addf(&sb, "guest time under icount (shift %d), but this workload's guest "
			    "waits for the host's disk I/O, and the idle time icount skips "
			    "follows the host: host load moves it", shift);
	else if (clock == VM_CLOCK_ICOUNT && shift >= 0)
		strbuf_addf(&sb, "guest time counted in instructions (icount shift %d: "
			    "1 instruction = %d ns); host load does not move it; %zu layout%s sampled",
			    shift, 1 << shift, t->layouts, t->layouts == 1 ? "" : "s");
	else if (clock == VM_CLOCK_ICOUNT_IDLE && shift >= 0)
		strbuf_addf(&sb, "guest time counted in instructions while the guest runs (icount "
			    "shift %d: 1 instruction = %d ns) and host time while it waits for I/O "
			    "(sleep=on), so host load moves the waits only; %zu layout%s sampled",
			    shift, 1 << shift, t->layouts, t->layouts == 1 ? "" : "s");
	else
		strbuf_addstr(&sb, "host time: the guest's clock follows the host's, "
			      "so host load moves it");
	/* the host's load includes the other guests: a wall time says so */
	if (t->guests > 1 && (metric_kind_of(t->metric) == METRIC_WALL ||
			      strstr(sb.buf, "host load moves it")))
		strbuf_addf(&sb, "; up to %d guests ran side by side (--guests), sharing the host",
			    t->guests);
	t->clock_text = strbuf_detach(&sb, NULL);
}

/*
 * The wall table's clock_text gets where its runs' instructions went, when
 * the meter counted them: what the wall was spent on, in the guest.
 */
static void describe_meter(const struct analyze_model *m, struct analyze_table *t)
{
	struct analyze_run_meter sum = { 0 };
	struct strbuf sb = STRBUF_INIT;
	size_t i, k, runs = 0;

	if (!m->meters || metric_kind_of(t->metric) != METRIC_WALL)
		return;
	for (i = 0; i < m->nr_runs; i++) {
		const struct analyze_run_meter *rm = &m->meters[i];

		if (!rm->total || strcmp(m->runs[i].workload, t->workload))
			continue;
		for (k = 0; k < t->nr_rows; k++)
			if (t->rows[k].twin == NONE &&
			    m->variants[t->rows[k].variant].v.id == m->runs[i].variant_id)
				break;
		if (k == t->nr_rows)
			continue;
		sum.total += rm->total;
		sum.before_kernel += rm->before_kernel;
		sum.kernel += rm->kernel;
		sum.user += rm->user;
		runs++;
	}
	if (!runs)
		return;
	strbuf_addf(&sb, "%s; the meter's guest instructions, %.1f M a run: %.1f%% before the "
		    "kernel (firmware, decompressor), %.1f%% in the kernel, %.1f%% in user space",
		    t->clock_text, (double)sum.total / runs / 1e6,
		    100.0 * (double)sum.before_kernel / (double)sum.total,
		    100.0 * (double)sum.kernel / (double)sum.total,
		    100.0 * (double)sum.user / (double)sum.total);
	free(t->clock_text);
	t->clock_text = strbuf_detach(&sb, NULL);
}

static void build_table(const struct analyze_model *m, struct analyze_table *t,
			const char *workload, const struct metric_spec *ms,
			const struct analyze_options *opts, size_t source)
{
	struct strvec accel = STRVEC_INIT, clocks = STRVEC_INIT, layouts = STRVEC_INIT;
	size_t i, alloc = 0;

	t->source = source;
	t->workload = xstrdup(workload);
	t->metric = xstrdup(ms->name);
	t->unit = xstrdup(ms->unit);
	t->higher_is_better = ms->higher_is_better;
	t->baseline = NONE;
	for (i = 0; i < m->nr_variants; i++) {
		struct analyze_row *row;

		if (!has_row(m, i, workload, source))
			continue;
		ALLOC_GROW(t->rows, t->nr_rows + 1, alloc);
		row = &t->rows[t->nr_rows];
		memset(row, 0, sizeof(*row));
		row->variant = i;
		row->twin = NONE;
		row->step_prev = NONE;
		if (i == m->sources[source].baseline) {
			row->is_baseline = 1;
			t->baseline = t->nr_rows;
		}
		if (m->variants[i].twin != NONE) {
			t->nr_rows++;	/* copy_twin() fills it */
			continue;
		}
		fill_row(m, t, row, ms, &accel, &clocks, &layouts);
		t->runs += row->n;
		t->warmups += row->warmups;
		t->failed += row->failed;
		t->missing += row->missing;
		if (row->n && (!t->min_n || row->n < t->min_n))
			t->min_n = row->n;
		if (row->n > t->max_n)
			t->max_n = row->n;
		t->nr_rows++;
	}
	t->accel = analyze_join(&accel, ", ");
	t->clock = analyze_join(&clocks, ", ");
	t->layouts = layouts.nr;
	describe_clock(t, &clocks);
	describe_meter(m, t);
	strvec_clear(&accel);
	strvec_clear(&clocks);
	strvec_clear(&layouts);
	for (i = 0; i < t->nr_rows; i++)
		t->rows[i].twin = analyze_row_of(t, m->variants[t->rows[i].variant].twin);
	compare_rows(t, opts);
	for (i = 0; i < t->nr_rows; i++)
		if (t->rows[i].twin != NONE)
			copy_twin(t, &t->rows[i]);
	analyze_design_steps(m, t, opts);
	order_rows(m, t);
	analyze_design_interactions(m, t, opts);
	note_rows(t);
	aa_verdict(m, t);
}

/* Whether a source has any row in the tables of the workload. */
static int source_has_rows(const struct analyze_model *m, const char *workload, size_t source)
{
	size_t i;

	for (i = 0; i < m->nr_variants; i++)
		if (has_row(m, i, workload, source))
			return 1;
	return 0;
}

/* The workloads of the runs, sorted by name. */
static void run_workloads(const struct analyze_model *m, struct strvec *out)
{
	size_t i;

	for (i = 0; i < m->nr_runs; i++)
		analyze_add_distinct(out, m->runs[i].workload);
}

int analyze_build_tables(struct analyze_model *m, const struct analyze_options *opts)
{
	struct strvec workloads = STRVEC_INIT, metrics = STRVEC_INIT;
	size_t i, j, alloc = 0;
	int ret = 0;

	run_workloads(m, &workloads);
	if (opts->workload && strvec_find(&workloads, opts->workload) < 0) {
		char *list = analyze_join(&workloads, ", ");

		ret = error("no runs of workload '%s' (measured: %s)", opts->workload,
			    *list ? list : "none yet");
		free(list);
		goto out;
	}
	for (i = 0; i < workloads.nr; i++) {
		struct metric_spec *ms;
		size_t nr;

		if (opts->workload && strcmp(opts->workload, workloads.v[i]))
			continue;
		ms = workload_metrics(m, workloads.v[i], &nr);
		for (j = 0; j < nr; j++) {
			size_t first = m->nr_tables, k;

			analyze_add_distinct(&metrics, ms[j].name);
			if (opts->metric && strcmp(opts->metric, ms[j].name))
				continue;
			for (k = 0; k < m->nr_sources; k++) {
				if (!source_has_rows(m, workloads.v[i], k))
					continue;
				ALLOC_GROW(m->tables, m->nr_tables + 1, alloc);
				memset(&m->tables[m->nr_tables], 0, sizeof(m->tables[0]));
				m->tables[m->nr_tables].series = NONE;
				build_table(m, &m->tables[m->nr_tables++], workloads.v[i], &ms[j],
					    opts, k);
			}
			if (m->nr_sources > 1)
				analyze_across_add(m, first, m->nr_tables - first, opts);
		}
		metric_specs_release(ms, nr);
	}
	if (opts->metric && !m->nr_tables && workloads.nr) {
		char *list = analyze_join(&metrics, ", ");

		ret = error("no metric '%s' measured (metrics: %s)", opts->metric, list);
		free(list);
	}
out:
	strvec_clear(&workloads);
	strvec_clear(&metrics);
	return ret;
}
