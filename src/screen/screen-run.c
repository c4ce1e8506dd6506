/* screen-run.c: a screen of real kernels: the engine's requests planned, built and run. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/analyze.h"
#include "store/experiment.h"
#include "store/conditions.h"
#include "store/metric.h"
#include "util/json.h"
#include "kbuild/kbuild-variants.h"
#include "kbuild/kbuild.h"
#include "kbuild/objects-index.h"
#include "run/meter.h"
#include "screen/screen-attrib.h"
#include "store/store-meter.h"
#include "kconfig/kconfig.h"
#include "run/measure.h"
#include "plan/harness.h"
#include "plan/plan.h"
#include "run/schedule.h"
#include "screen/screen-report.h"
#include "screen/screen-run.h"
#include "store/store.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "run/workload-spec.h"
#include "run/workload-table.h"
#include "util/wrapper.h"

/* What the driver knows of one engine variant. */
struct dvar {
	int ready;		/* stored, built (or failed) */
	int failed;		/* told to the engine */
	char *name;		/* its store variant */
	char *twin;		/* the store variant that is measured for it (itself, or same-as) */
	int64_t twin_id;
	/* Its kernel's object index (attribution), read once; loaded: tried. */
	struct objects_index *index;
	int index_loaded;
};

struct driver {
	struct store *st;
	const struct screen_run_options *o;
	struct plan plan;
	struct screen *s;
	struct dvar *vars;
	size_t nr_vars;
	char *spec;			/* the workload, canonical */
	char base_key[SHA256_HEX_SIZE];	/* the baseline's build: the seed on ties */
	struct measure_session *ms;
	enum screen_decision *seen;	/* decisions already printed, per node */
	size_t nr_seen;
	int position;			/* of the next stored variant */
	int failures;			/* failed builds and runs */
	unsigned passes;		/* rounds of runs so far: they key the orders */
	/* The store's runs and samples, reloaded before each round. */
	struct store_run *runs;
	size_t nr_runs;
	struct store_sample_row *samples;
	size_t nr_samples;
	struct store_variant *stored;	/* variants as stored */
	size_t nr_stored;
	/* Per option: the symbols its kernel alone changes (attribution). */
	struct strvec *syms;
};

static void driver_release(struct driver *d)
{
	size_t i;

	for (i = 0; i < d->nr_vars; i++) {
		free(d->vars[i].name);
		free(d->vars[i].twin);
		objects_index_free(d->vars[i].index);
	}
	for (i = 0; d->syms && i < d->plan.nr_options; i++)
		strvec_clear(&d->syms[i]);
	free(d->syms);
	free(d->vars);
	free(d->seen);
	free(d->spec);
	store_runs_free(d->runs, d->nr_runs);
	store_sample_rows_free(d->samples, d->nr_samples);
	store_variants_free(d->stored, d->nr_stored);
	measure_session_close(d->ms);
	plan_release(&d->plan);
}

static const char *metric_of(const struct screen_run_options *o, int *higher_is_better)
{
	const struct workload_info *wi = &workload_table[o->measure->workloads[0].id];

	if (o->metric && (metric_is_every_runs(o->metric) ||
			  metric_kind_of(o->metric) == METRIC_INSTRUCTIONS)) {
		*higher_is_better = 0;
		return o->metric;
	}
	*higher_is_better = wi->higher_is_better;
	return o->metric ? o->metric : wi->metric;
}

int screen_run_key(const struct screen_run_options *o, char key[SHA256_HEX_SIZE])
{
	struct plan_options po = *o->plan;
	const struct screen_options *so = &o->screen;
	struct strbuf sb = STRBUF_INIT;
	struct sha256 c;
	char plan_key[SHA256_HEX_SIZE];
	int higher;
	const char *metric = metric_of(o, &higher);

	po.designs = PLAN_OAT;
	if (plan_input_key(&po, plan_key))
		return -1;
	strbuf_addf(&sb, "kconfperf-screen-2\n%s\n", plan_key);
	workload_spec_format(&o->measure->workloads[0], &sb);
	strbuf_addf(&sb, "\n%s %g %g %g %g %zu %zu %zu %zu %d %d %s\n", metric, so->threshold,
		    so->indifference, so->confidence, so->alpha, so->runs_initial, so->runs_step,
		    so->runs_max, so->runs_confirm, so->confirm, o->measure->warmup,
		    o->related_order ? "related" : "given");
	/* attribution changes decisions; a screen without it keeps the key it had */
	if (so->attribute)
		strbuf_addstr(&sb, "attribute\n");
	sha256_init(&c);
	sha256_update(&c, sb.buf, sb.len);
	sha256_final_hex(&c, key);
	strbuf_release(&sb);
	return 0;
}

static int reload_variants(struct driver *d)
{
	store_variants_free(d->stored, d->nr_stored);
	d->stored = NULL;
	d->nr_stored = 0;
	return store_get_variants(d->st, &d->stored, &d->nr_stored);
}

static const struct store_variant *stored_by_name(const struct driver *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->nr_stored; i++)
		if (!strcmp(d->stored[i].name, name))
			return &d->stored[i];
	return NULL;
}

/* A measured stored variant (ok or partial) with this effective config, or NULL. */
static const struct store_variant *stored_by_hash(const struct driver *d, const char *hash)
{
	size_t i;

	for (i = 0; i < d->nr_stored; i++)
		if (!strcmp(d->stored[i].config_hash, hash) &&
		    variant_is_measured(d->stored[i].status))
			return &d->stored[i];
	return NULL;
}

static int put_variant(struct driver *d, struct store_variant *v)
{
	if (store_put_variant(d->st, v) || reload_variants(d))
		return -1;
	return 0;
}

static int cmp_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The symbols option i's kernel alone sets differently from the baseline, sorted. */
static void changed_symbols(const struct plan *p, size_t i, struct strvec *out)
{
	struct kconfig_changes ch = KCONFIG_CHANGES_INIT;
	size_t k;

	kconfig_diff_list(&ch, p->variants[0].effective, p->variants[i + 1].effective);
	for (k = 0; k < ch.nr; k++)
		strvec_push(out, ch.v[k].name);
	kconfig_changes_release(&ch);
	qsort(out->v, out->nr, sizeof(*out->v), cmp_strings);
}

/* --order related: see screen_related_order(). */
static int related_order(struct driver *d)
{
	size_t n = d->plan.nr_options, i, *order = xcalloc(n ? n : 1, sizeof(*order));
	struct strvec *sym = xcalloc(n ? n : 1, sizeof(*sym));
	int ret;

	for (i = 0; i < n; i++) {
		strvec_init(&sym[i]);
		changed_symbols(&d->plan, i, &sym[i]);
	}
	screen_related_order(sym, n, order);
	ret = screen_prefer_order(d->s, order);
	for (i = 0; i < n; i++)
		strvec_clear(&sym[i]);
	free(sym);
	free(order);
	return ret;
}

/*
 * Setup: store the baseline and the options left out, tell the engine
 * which options go after which.
 */
static int setup(struct driver *d, int resume)
{
	struct plan *p = &d->plan;
	const struct plan_variant *base = &p->variants[0];
	size_t i, j;

	d->position = 0;
	for (i = 0; i < p->nr_variants; i++) {
		const struct plan_variant *pv = &p->variants[i];
		struct store_variant sv;
		int ret;

		if (i && strcmp(pv->kind, "oat"))
			continue;
		if (i && pv->status == VARIANT_NO_OP)
			screen_exclude(d->s, i - 1, pv->reason.len ? pv->reason.buf : "no-op");
		else if (i && pv->status == VARIANT_SAME_AS) {
			char *why = xstrfmt("the same kernel as %s alone: screened with it",
					    pv->same_as);

			screen_exclude(d->s, i - 1, why);
			free(why);
		} else if (i)
			continue;
		d->position++;
		if (resume && stored_by_name(d, pv->name))
			continue;
		plan_store_variant(pv, d->position - 1, &sv);
		ret = put_variant(d, &sv);
		store_variant_release(&sv);
		if (ret)
			return -1;
	}
	/* Option i alone turns on candidate j: i selects or depends on j, so j goes first. */
	for (i = 0; i < p->nr_options; i++) {
		const struct plan_variant *vi = &p->variants[i + 1];

		if (!variant_is_measured(vi->status))
			continue;
		for (j = 0; j < p->nr_options; j++) {
			const struct plan_option *oj = &p->options[j];

			if (i == j || screen_excluded(d->s, j) ||
			    !plan_option_holds(oj, vi->effective) ||
			    plan_option_holds(oj, base->effective))
				continue;
			screen_after(d->s, i, j);
		}
	}
	if (d->o->related_order && related_order(d))
		return -1;
	return screen_start(d->s);
}

/* The store name and kind of an engine variant. */
static void name_variant(const struct screen_variant *ev, struct strbuf *name, const char **kind)
{
	const char *opt;
	size_t len = strlen(ev->name);

	if (!ev->nr_options) {
		strbuf_addstr(name, "baseline");
		*kind = "baseline";
	} else if (!strcmp(ev->name, "all found")) {
		strbuf_addstr(name, ev->name);
		*kind = "all";
	} else if (len > 6 && !strcmp(ev->name + len - 6, " alone")) {
		opt = ev->name;
		strbuf_add(name, opt, len - 6);
		*kind = "oat";
	} else {
		strbuf_addstr(name, ev->name);
		*kind = "group";
	}
}

static void set_twin(struct dvar *dv, const struct store_variant *sv)
{
	const char *twin = sv->same_as && sv->status == VARIANT_SAME_AS ? sv->same_as : sv->name;

	free(dv->twin);
	dv->twin = xstrdup(twin);
}

/* The variant as stored: found by name on a resume, else resolved and stored. */
static const struct store_variant *store_engine_variant(struct driver *d, size_t v)
{
	const struct screen_variant *ev = screen_variant(d->s, v);
	struct strbuf name = STRBUF_INIT, options = STRBUF_INIT;
	const struct store_variant *sv, *twin;
	struct store_variant nv;
	const struct plan_variant *pv;
	const char *kind;
	long idx;
	size_t i;

	name_variant(ev, &name, &kind);
	for (i = 0; i < ev->nr_options; i++)
		strbuf_addf(&options, "%s\n", d->plan.options[ev->options[i]].label);
	sv = stored_by_name(d, name.buf);
	if (sv && strcmp(sv->options ? sv->options : "", options.buf)) {
		error("variant '%s' is stored with other options than the screen asks for "
		      "(give --new to start over)", name.buf);
		sv = NULL;
		goto out;
	}
	if (sv)
		goto out;
	idx = plan_add_variant(&d->plan, d->o->plan, name.buf, kind, ev->options,
			       ev->nr_options);
	if (idx < 0)
		goto out;
	pv = &d->plan.variants[idx];
	plan_store_variant(pv, d->position++, &nv);
	free(nv.same_as);
	nv.same_as = NULL;
	free(nv.reason);
	nv.reason = pv->unmet ? xstrdup(pv->reason.buf) : NULL;
	twin = stored_by_hash(d, pv->hash);
	if (twin) {
		nv.status = VARIANT_SAME_AS;
		nv.same_as = xstrdup(twin->name);
	} else {
		nv.status = pv->unmet ? VARIANT_PARTIAL : VARIANT_OK;
	}
	if (!put_variant(d, &nv))
		sv = stored_by_name(d, name.buf);
	store_variant_release(&nv);
out:
	strbuf_release(&name);
	strbuf_release(&options);
	return sv;
}

static int fail_variant(struct driver *d, size_t v, const char *fmt, ...)
	__attribute__((__format__(__printf__, 3, 4)));
static int fail_variant(struct driver *d, size_t v, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (d->vars[v].failed)
		return 0;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	warning("screen: %s: %s", screen_variant(d->s, v)->name, sb.buf);
	d->vars[v].failed = 1;
	d->failures++;
	screen_variant_failed(d->s, v, sb.buf);
	strbuf_release(&sb);
	return 0;
}

/* Store, note, build: the engine's new variant v made ready to run. */
static int prepare_variant(struct driver *d, size_t v)
{
	const struct screen_variant *ev = screen_variant(d->s, v);
	const struct store_variant *sv, *tw;
	struct dvar *dv = &d->vars[v];
	struct kbuild_result r;
	char key[SHA256_HEX_SIZE];
	int is_base = !ev->nr_options, ret;

	sv = store_engine_variant(d, v);
	if (!sv)
		return -1;
	dv->ready = 1;
	dv->name = xstrdup(sv->name);
	set_twin(dv, sv);
	if (sv->reason && *sv->reason && sv->status == VARIANT_PARTIAL)
		screen_variant_note(d->s, v, sv->reason);
	if (strcmp(dv->twin, sv->name)) {
		char *why = xstrfmt("the same kernel as %s", dv->twin);

		note("screen: %s is the same kernel as %s: no build, its runs are shared",
		     sv->name, dv->twin);
		if (!ev->note)
			screen_variant_note(d->s, v, why);
		free(why);
	}
	tw = stored_by_name(d, dv->twin);
	if (!tw)
		return error("screen: variant '%s' is gone from the store", dv->twin);
	dv->twin_id = tw->id;
	if (strcmp(dv->twin, sv->name))
		return 0;

	kbuild_key(d->o->build, sv->config, key);
	if (!kbuild_is_cached(d->o->build, key))
		note("screen: building %s (%zu option%s)", sv->name, ev->nr_options,
		     ev->nr_options == 1 ? "" : "s");
	ret = kbuild_variant(d->o->build, d->st, sv, *d->base_key ? d->base_key : NULL, &r);
	if (!ret && r.ok) {
		if (r.cached)
			note("screen: %s was in the cache (built in %.0f s)", sv->name, r.seconds);
		else
			note("screen: %s built in %.0f s", sv->name, r.seconds);
		if (is_base)
			memcpy(d->base_key, r.key, sizeof(d->base_key));
	} else if (!ret) {
		fail_variant(d, v, "build failed (log: %s)", r.log_path ? r.log_path : "none");
	}
	kbuild_result_release(&r);
	return ret;
}

static int reload_runs(struct driver *d)
{
	store_runs_free(d->runs, d->nr_runs);
	store_sample_rows_free(d->samples, d->nr_samples);
	d->runs = NULL;
	d->samples = NULL;
	d->nr_runs = d->nr_samples = 0;
	if (store_get_runs(d->st, &d->runs, &d->nr_runs) ||
	    store_get_samples(d->st, &d->samples, &d->nr_samples))
		return -1;
	return 0;
}


/*
 * The stored runs of a kernel for the screen's workload: the indices in
 * d->runs of its measured runs in round order (*measured of them, in a
 * malloc'd array), and how many warm-ups it had.  Rounds are appended one
 * at a time, so the k-th measured run is round k.
 */
static size_t *kernel_runs(const struct driver *d, int64_t id, size_t *measured,
			   size_t *warmups)
{
	size_t *idx = xmalloc((d->nr_runs ? d->nr_runs : 1) * sizeof(*idx)), i;

	*measured = *warmups = 0;
	for (i = 0; i < d->nr_runs; i++) {
		const struct store_run *r = &d->runs[i];

		if (r->variant_id != id || strcmp(r->workload, d->spec))
			continue;
		if (r->warmup)
			(*warmups)++;
		else
			idx[(*measured)++] = i;
	}
	return idx;
}

/*
 * Answers engine variant v from the store: as many runs as it wants and
 * the store has.  Returns how many more it needs (0 when satisfied or
 * failed), or -1.
 */
static long feed(struct driver *d, size_t v, size_t want, const char *metric)
{
	const struct screen_variant *ev = screen_variant(d->s, v);
	size_t measured, warmups, k, *idx;
	long ret = 0;

	if (d->vars[v].failed || ev->failed)
		return 0;
	idx = kernel_runs(d, d->vars[v].twin_id, &measured, &warmups);
	for (k = ev->nr_values; k < want && k < measured; k++) {
		const struct store_run *r = &d->runs[idx[k]];
		size_t s0, ns = store_samples_of_run(d->samples, d->nr_samples, r->id, &s0), it;
		double value;

		if (r->status != RUN_OK) {
			fail_variant(d, v, "run %zu of %s: %s%s%s (its console is under runs/)",
				     k + 1, d->vars[v].twin, run_status_name(r->status),
				     r->error ? ": " : "",
				     r->error ? r->error : "");
			goto out;
		}
		if (analyze_run_value(metric, r, d->samples + s0, ns, &value, &it) ||
		    !(value > 0)) {
			fail_variant(d, v, "run %zu of %s has no positive '%s' value", k + 1,
				     d->vars[v].twin, metric);
			goto out;
		}
		if (screen_add_run(d->s, v, value)) {
			ret = -1;
			goto out;
		}
	}
	ret = want > ev->nr_values ? (long)(want - ev->nr_values) : 0;
out:
	free(idx);
	return ret;
}

/*
 * One round: each kernel that some want still needs runs once, in a seeded
 * order, side by side as the session allows (a kernel's first boots, its
 * warm-ups, end before its measured run starts).
 */
static int run_round(struct driver *d, const int64_t *ids, size_t n)
{
	size_t *order = xmalloc((n ? n : 1) * sizeof(*order)), i, nr = 0;
	struct measure_request *reqs = NULL;
	size_t alloc = 0;
	int ret = 0;

	schedule_round_order(order, n, measure_session_seed(d->ms), d->spec, (int)d->passes++);
	for (i = 0; i < n; i++) {
		const struct store_variant *sv = NULL;
		size_t k, measured, warmups;

		for (k = 0; k < d->nr_stored; k++)
			if (d->stored[k].id == ids[order[i]])
				sv = &d->stored[k];
		if (!sv) {
			ret = error("screen: a variant is gone from the store");
			goto out;
		}
		free(kernel_runs(d, sv->id, &measured, &warmups));
		/* A kernel's first boots are warm-ups. */
		while (!measured && warmups < (size_t)d->o->measure->warmup) {
			ALLOC_GROW(reqs, nr + 1, alloc);
			reqs[nr++] = (struct measure_request){ sv, -(int)++warmups, 1 };
		}
		ALLOC_GROW(reqs, nr + 1, alloc);
		reqs[nr++] = (struct measure_request){ sv, (int)measured, 0 };
	}
	if (measure_session_run_many(d->ms, reqs, nr) < 0)
		ret = -1;
out:
	free(reqs);
	free(order);
	return ret;
}

/* Meets every want of a step: stored runs first, then rounds of new ones. */
static int meet_wants(struct driver *d, const struct screen_step *step, const char *metric)
{
	int64_t *ids = xmalloc(step->nr * sizeof(*ids));
	int ret = -1;

	for (;;) {
		size_t i, k, n = 0;

		if (reload_runs(d))
			goto out;
		for (i = 0; i < step->nr; i++) {
			size_t v = step->wants[i].variant;
			long more = feed(d, v, step->wants[i].runs, metric);

			if (more < 0)
				goto out;
			if (!more)
				continue;
			for (k = 0; k < n && ids[k] != d->vars[v].twin_id; k++)
				;
			if (k == n)
				ids[n++] = d->vars[v].twin_id;
		}
		if (!n)
			break;
		if (!d->ms && measure_session_open(&d->ms, d->st, d->o->measure,
						   stored_by_name(d, "baseline")))
			goto out;
		if (run_round(d, ids, n))
			goto out;
	}
	ret = 0;
out:
	free(ids);
	return ret;
}

/* The object index of engine variant v's kernel, or NULL (said once). */
static const struct objects_index *variant_index(struct driver *d, size_t v)
{
	struct dvar *dv = &d->vars[v];
	const struct store_variant *sv;
	struct store_build b = STORE_BUILD_INIT;
	char *path = NULL;

	if (dv->index_loaded)
		return dv->index;
	dv->index_loaded = 1;
	sv = stored_by_name(d, dv->twin);
	if (sv && store_get_build_by_hash(d->st, sv->config_hash, &b) > 0 && b.image)
		path = kbuild_objects_index(b.image);
	if (!path || objects_index_read(&dv->index, path))
		note("screen: no index of the objects of %s: its functions are not matched "
		     "to options", dv->twin);
	free(path);
	store_build_release(&b);
	return dv->index;
}

/* The ids of engine variant v's measured runs [first, first + n), in round order. */
static int64_t *judged_runs(const struct driver *d, size_t v, size_t first, size_t n)
{
	size_t measured, warmups, *idx = kernel_runs(d, d->vars[v].twin_id, &measured, &warmups);
	int64_t *ids = xcalloc(n ? n : 1, sizeof(*ids));

	for (size_t k = 0; k < n && first + k < measured; k++)
		ids[k] = d->runs[idx[first + k]].id;
	free(idx);
	return ids;
}

/*
 * The evidence node i asked for (screen.h, "Attribution"): from the meter's
 * counts of the runs it was judged on and the two kernels' object indices.
 */
static int give_evidence(struct driver *d, size_t i)
{
	const struct screen_node *n = screen_node(d->s, i);
	const struct screen_variant *from = screen_variant(d->s, n->from);
	const struct screen_variant *to = screen_variant(d->s, n->to);
	struct attrib_input in = { 0 };
	struct attrib_result r = ATTRIB_RESULT_INIT;
	struct attrib_member *members;
	size_t nr_order, k;
	const size_t *order = screen_order(d->s, &nr_order);
	int64_t *lo, *hi;
	int ret = -1;

	if (reload_runs(d))
		return -1;
	in.st = d->st;
	in.nr_lo = from->nr_values - n->from_start;
	in.nr_hi = to->nr_values - n->to_start;
	lo = judged_runs(d, n->from, n->from_start, in.nr_lo);
	hi = judged_runs(d, n->to, n->to_start, in.nr_hi);
	in.lo_runs = lo;
	in.hi_runs = hi;
	in.lo_index = variant_index(d, n->from);
	in.hi_index = variant_index(d, n->to);
	in.phase = meter_metric_phase(workload_table[d->o->measure->workloads[0].id].name);
	in.threshold = screen_get_options(d->s)->threshold;
	members = xcalloc(n->hi - n->lo, sizeof(*members));
	for (k = n->lo; k < n->hi; k++) {
		size_t opt = order[k];

		members[k - n->lo].option = opt;
		members[k - n->lo].name = d->plan.options[opt].label;
		members[k - n->lo].syms = &d->syms[opt];
	}
	in.members = members;
	in.nr_members = n->hi - n->lo;
	if (attrib_evidence(&r, &in))
		goto out;
	note("screen: options %zu-%zu: %zu of %zu can own the change%s", n->lo + 1, n->hi,
	     r.nr_candidates, in.nr_members, r.nr_candidates == 1 ? ": attributed" : "");
	ret = screen_set_evidence(d->s, i, r.candidates, r.nr_candidates, r.owned, r.text.buf);
out:
	attrib_result_release(&r);
	free(members);
	free(lo);
	free(hi);
	return ret;
}

/* A line for each group decided since the last call: the screen's progress. */
static void show_decisions(struct driver *d)
{
	size_t i, n = screen_nr_nodes(d->s);

	if (n > d->nr_seen) {
		d->seen = xrealloc(d->seen, n * sizeof(*d->seen));
		for (i = d->nr_seen; i < n; i++)
			d->seen[i] = SCREEN_PENDING;
		d->nr_seen = n;
	}
	for (i = 0; i < n; i++) {
		const struct screen_node *node = screen_node(d->s, i);
		struct strbuf sb = STRBUF_INIT;

		if (node->decision == d->seen[i] || node->decision == SCREEN_PENDING)
			continue;
		d->seen[i] = node->decision;
		strbuf_addf(&sb, "screen: options %zu-%zu (%s .. %s): ", node->lo + 1, node->hi,
			    screen_variant(d->s, node->from)->name,
			    screen_variant(d->s, node->to)->name);
		stats_format_change(&sb, node->cost, 1);
		strbuf_addf(&sb, ": %s, %s", screen_decision_name(node->decision),
			    screen_why_text(node->why));
		note("%s", sb.buf);
		strbuf_release(&sb);
	}
}

/*
 * The confirmations under the names a sweep gives them: "CONFIG_X=y" and
 * "all found", same-as the group variant that the engine used for them.
 */
static int store_aliases(struct driver *d)
{
	size_t i, n = screen_nr_confirmations(d->s);

	for (i = 0; i < n; i++) {
		const struct screen_confirmation *c = screen_confirmation(d->s, i);
		const struct dvar *dv = &d->vars[c->variant];
		const struct store_variant *sv;
		struct store_variant alias;
		const char *name = c->option == SCREEN_NONE ? "all found"
				 : d->plan.options[c->option].label;
		int ret;

		if (!dv->ready || !strcmp(dv->name, name) || stored_by_name(d, name))
			continue;
		sv = stored_by_name(d, dv->name);
		if (!sv)
			continue;
		memset(&alias, 0, sizeof(alias));
		alias.name = xstrdup(name);
		alias.kind = xstrdup(c->option == SCREEN_NONE ? "all" : "oat");
		alias.options = xstrdup(sv->options ? sv->options : "");
		alias.requested = xstrdup(sv->requested ? sv->requested : "");
		alias.effective_diff = xstrdup(sv->effective_diff ? sv->effective_diff : "");
		alias.config = xstrdup(sv->config ? sv->config : "");
		alias.config_hash = xstrdup(sv->config_hash);
		alias.status = VARIANT_SAME_AS;
		alias.same_as = xstrdup(dv->twin);
		alias.added = sv->added;
		alias.removed = sv->removed;
		alias.changed = sv->changed;
		alias.position = d->position++;
		ret = put_variant(d, &alias);
		store_variant_release(&alias);
		if (ret)
			return -1;
	}
	return 0;
}

static int save_report(struct driver *d)
{
	struct strbuf text = STRBUF_INIT, json = STRBUF_INIT;
	struct json_writer jw;
	char *path = experiment_path(d->o->measure->dir, "screen.json");
	int ret;

	screen_report_text(&text, d->s);
	jw_init(&jw, &json, 1);
	jw_object_begin(&jw);
	screen_report_json(&jw, d->s);
	jw_end(&jw);
	strbuf_addch(&json, '\n');
	ret = store_set_screen_report(d->st, text.buf) ||
	      strbuf_write_file(&json, path) ? -1 : 0;
	free(path);
	strbuf_release(&text);
	strbuf_release(&json);
	return ret;
}

/*
 * A screen resumed makes its plan again and adds the variants it has not
 * stored.  One begun before the fast boot (plan/harness.h) stored kernels
 * without it: its new variants must not boot otherwise, so without
 * --fast-boot or --no-fast-boot the plan is made again without it.  0, or
 * -1 with a message.
 */
static int keep_stored_boot(struct driver *d, struct plan_options *po)
{
	struct conditions c = CONDITIONS_INIT;
	struct strvec taken = STRVEC_INIT;
	const char *stored;
	int ret = conditions_load(&c, d->st);

	stored = c.harness;
	if (!ret && stored && po->fast_boot == HARNESS_FAST_BOOT_AUTO &&
	    strcmp(stored, d->plan.harness.buf)) {
		strvec_split(&taken, d->plan.harness.buf, ",");
		if (strvec_find(&taken, HARNESS_FAST_BOOT) >= 0 &&
		    !strstr(stored, HARNESS_FAST_BOOT)) {
			note("screen: its kernels so far were planned without the fast boot "
			     "(harness %s): so are the rest", stored);
			po->fast_boot = HARNESS_FAST_BOOT_OFF;
			plan_release(&d->plan);
			ret = plan_make(&d->plan, po);
		}
		if (!ret && po->fast_boot == HARNESS_FAST_BOOT_OFF) {
			const char *have = harness_compression(d->plan.baseline);

			strbuf_reset(&d->plan.boot);
			harness_boot_text(&d->plan.boot, plan_arch(po), 0,
					  "as the screen began, before the fast boot", have, have);
		}
	}
	strvec_clear(&taken);
	conditions_release(&c);
	return ret;
}

int screen_run(struct store *st, const struct screen_run_options *o, struct screen **out)
{
	struct driver d;
	struct plan_options po = *o->plan;
	struct screen_options so = o->screen;
	struct strbuf sb = STRBUF_INIT;
	const char **names = NULL;
	const char *metric;
	int resume, ret = -1;
	size_t i, screened;
	const size_t *order;

	*out = NULL;
	memset(&d, 0, sizeof(d));
	d.st = st;
	d.o = o;
	workload_spec_format(&o->measure->workloads[0], &sb);
	d.spec = strbuf_detach(&sb, NULL);
	metric = metric_of(o, &so.higher_is_better);
	if (reload_variants(&d))
		goto out;
	resume = stored_by_name(&d, "baseline") != NULL;

	po.designs = PLAN_OAT;
	if (plan_make(&d.plan, &po) || (resume && keep_stored_boot(&d, &po)) ||
	    plan_save_boot(&d.plan, st))
		goto out;
	names = xcalloc(d.plan.nr_options + 1, sizeof(*names));
	d.syms = xcalloc(d.plan.nr_options + 1, sizeof(*d.syms));
	for (i = 0; i < d.plan.nr_options; i++) {
		names[i] = d.plan.options[i].label;
		strvec_init(&d.syms[i]);
		changed_symbols(&d.plan, i, &d.syms[i]);
	}
	d.s = screen_new(names, d.plan.nr_options, &so);
	if (setup(&d, resume))
		goto out;
	order = screen_order(d.s, &screened);
	for (i = 0; i < screened; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", names[order[i]]);
	note("screen: order (%s): %s", o->related_order ? "related" : "given", sb.buf);
	strbuf_reset(&sb);
	for (i = 0; i < d.nr_stored; i++)
		if (d.stored[i].position >= d.position)
			d.position = d.stored[i].position + 1;
	note("screen: %zu of %zu options to screen (%zu left out), threshold %.1f%% on %s %s; "
	     "one at a time would build %zu kernels", screened, d.plan.nr_options,
	     d.plan.nr_options - screened, so.threshold, d.spec, metric, screened + 1);

	for (;;) {
		struct screen_step step;

		if (screen_next(d.s, &step))
			goto out;
		show_decisions(&d);
		if (step.done)
			break;
		for (i = 0; i < step.nr_evidence; i++)
			if (give_evidence(&d, step.evidence[i]))
				goto out;
		if (step.nr_evidence)
			continue;
		if (screen_nr_variants(d.s) > d.nr_vars) {
			size_t n = screen_nr_variants(d.s);

			d.vars = xrealloc(d.vars, n * sizeof(*d.vars));
			memset(d.vars + d.nr_vars, 0, (n - d.nr_vars) * sizeof(*d.vars));
			d.nr_vars = n;
		}
		/* The baseline first: it seeds every other build. */
		for (i = 0; i < step.nr; i++)
			if (!d.vars[step.wants[i].variant].ready &&
			    !screen_variant(d.s, step.wants[i].variant)->nr_options &&
			    prepare_variant(&d, step.wants[i].variant))
				goto out;
		for (i = 0; i < step.nr; i++)
			if (!d.vars[step.wants[i].variant].ready &&
			    prepare_variant(&d, step.wants[i].variant))
				goto out;
		if (meet_wants(&d, &step, metric))
			goto out;
	}
	if (store_aliases(&d) || save_report(&d))
		goto out;
	note("screen: done: %zu kernels (one at a time: %zu), %zu runs", screen_builds(d.s),
	     screened + 1, screen_runs(d.s));
	*out = d.s;
	d.s = NULL;
	ret = d.failures ? 1 : 0;
out:
	free(names);
	screen_free(d.s);
	driver_release(&d);
	return ret;
}
