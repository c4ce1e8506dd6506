/* screen-attrib.c: a screen group's evidence: which of its members can own the change the meter saw. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kbuild/objects-index.h"
#include "screen/screen-attrib.h"
#include "store/profile.h"
#include "store/store-meter.h"
#include "store/store.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "util/wrapper.h"

/* How many functions the words name, the largest changes first. */
#define ATTRIB_SHOWN 8

/* One function's counts over the runs of both ends. */
struct fstat {
	char *name;
	double sum[2], sumsq[2];
};

struct fstats {
	struct fstat *v;
	size_t nr, alloc;
};

/*
 * Adds one run's profile (side 0: P_lo, 1: P_hi) to the statistics: its
 * entries, sorted by name, merged into the sorted table.
 */
static void add_profile(struct fstats *fs, const struct profile *p, int side)
{
	struct fstat *merged;
	size_t i = 0, k = 0, n = 0;

	merged = xcalloc(fs->nr + p->nr + 1, sizeof(*merged));
	while (i < fs->nr || k < p->nr) {
		int c = i == fs->nr ? 1 : k == p->nr ? -1 : strcmp(fs->v[i].name, p->v[k].name);

		if (c < 0) {
			merged[n++] = fs->v[i++];
			continue;
		}
		if (c > 0) {
			memset(&merged[n], 0, sizeof(merged[n]));
			merged[n].name = xstrdup(p->v[k].name);
		} else {
			merged[n] = fs->v[i++];
		}
		merged[n].sum[side] += p->v[k].count;
		merged[n].sumsq[side] += p->v[k].count * p->v[k].count;
		n++;
		k++;
	}
	free(fs->v);
	fs->v = merged;
	fs->nr = n;
	fs->alloc = fs->nr + p->nr + 1;
}

/* The runs' profiles of one side, per operation, normalised: 0, or -1. */
static int read_side(struct fstats *fs, struct store *st, const int64_t *runs, size_t nr,
		     enum store_meter_phase phase, int side)
{
	for (size_t i = 0; i < nr; i++) {
		struct profile p = PROFILE_INIT;
		struct store_meter m = STORE_METER_INIT;
		int rc = store_get_run_profile(st, runs[i], phase, &p);

		if (rc > 0)
			rc = store_get_meter(st, runs[i], &m);
		if (rc < 0) {
			profile_release(&p);
			store_meter_release(&m);
			return -1;
		}
		profile_normalize(&p);
		if (phase == STORE_METER_WORK && m.ops > 0)
			profile_scale(&p, 1 / m.ops);
		/* profile_normalize() left it sorted by name, as the table is */
		add_profile(fs, &p, side);
		profile_release(&p);
		store_meter_release(&m);
	}
	return 0;
}

/* What one function tells: its change, and the members that can own it. */
struct fchange {
	const char *name;
	double change;
	unsigned char *owner;		/* per member */
	size_t nr_owners;
	const char *object;		/* an object that defines it, or NULL */
	const char *symbol;		/* the first owner's symbol it depends on */
};

static int cmp_fchange_size(const void *a, const void *b)
{
	const struct fchange *x = a, *y = b;
	double fx = fabs(x->change), fy = fabs(y->change);

	if (fx != fy)
		return fx > fy ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Which members can own function f, from one kernel's index (NULL: none). */
static void find_owners(struct fchange *f, const struct objects_index *idx,
			const struct attrib_input *in)
{
	const size_t *objs;
	size_t n, i, k;

	if (!idx)
		return;
	n = objects_index_find(idx, f->name, &objs);
	for (i = 0; i < n; i++) {
		if (!f->object)
			f->object = objects_index_object(idx, objs[i]);
		for (k = 0; k < in->nr_members; k++) {
			const char *sym;

			if (f->owner[k])
				continue;
			sym = objects_index_touches(idx, objs[i], in->members[k].syms, 0);
			if (!sym)
				continue;
			f->owner[k] = 1;
			f->nr_owners++;
			if (!f->symbol) {
				f->symbol = sym;
				f->object = objects_index_object(idx, objs[i]);
			}
		}
	}
}

static void add_count(struct strbuf *sb, double v)
{
	double a = fabs(v);

	if (a >= 1e9)
		strbuf_addf(sb, "%+.2f G", v / 1e9);
	else if (a >= 1e6)
		strbuf_addf(sb, "%+.2f M", v / 1e6);
	else if (a >= 1e4)
		strbuf_addf(sb, "%+.1f k", v / 1e3);
	else
		strbuf_addf(sb, "%+.4g", v);
}

/* The evidence in words: the largest changes, each with its object and owners. */
static void describe(struct attrib_result *out, const struct attrib_input *in,
		     struct fchange *fc, size_t nr, double base)
{
	struct strbuf *sb = &out->text;
	size_t i, k;

	strbuf_addf(sb, "%zu function%s changed, ", out->changed, out->changed == 1 ? "" : "s");
	add_count(sb, out->change);
	strbuf_addf(sb, " instructions (%+.2f%%), ", base > 0 ? out->change / base * 100 : NAN);
	add_count(sb, out->unowned);
	strbuf_addstr(sb, " in code no member's symbols reach");
	for (i = 0; i < nr && i < ATTRIB_SHOWN; i++) {
		const struct fchange *f = &fc[i];

		strbuf_addf(sb, "; %s ", f->name);
		add_count(sb, f->change);
		if (!f->object) {
			strbuf_addstr(sb, " (in no object of vmlinux)");
			continue;
		}
		strbuf_addf(sb, " (%s", f->object);
		if (!f->nr_owners) {
			strbuf_addstr(sb, ": no member)");
			continue;
		}
		strbuf_addf(sb, ": %s, so ", f->symbol);
		for (k = 0; k < in->nr_members; k++)
			if (f->owner[k]) {
				strbuf_addstr(sb, in->members[k].name);
				break;
			}
		if (f->nr_owners > 1)
			strbuf_addf(sb, " and %zu other%s", f->nr_owners - 1,
				    f->nr_owners == 2 ? "" : "s");
		strbuf_addch(sb, ')');
	}
	if (nr > ATTRIB_SHOWN)
		strbuf_addf(sb, "; %zu more", nr - ATTRIB_SHOWN);
}

int attrib_evidence(struct attrib_result *out, const struct attrib_input *in)
{
	struct fstats fs = { 0 };
	struct fchange *fc = NULL;
	double *reach = xcalloc(in->nr_members ? in->nr_members : 1, sizeof(*reach));
	double base = 0, floor_abs, cand_floor;
	size_t nr = 0, i, k;
	int ret = -1;

	out->owned = xcalloc(in->nr_members ? in->nr_members : 1, sizeof(*out->owned));
	out->candidates = xcalloc(in->nr_members ? in->nr_members : 1, sizeof(*out->candidates));
	if (!in->nr_lo || !in->nr_hi ||
	    read_side(&fs, in->st, in->lo_runs, in->nr_lo, in->phase, 0) ||
	    read_side(&fs, in->st, in->hi_runs, in->nr_hi, in->phase, 1))
		goto out;
	for (i = 0; i < fs.nr; i++)
		if (!profile_is_idle(fs.v[i].name))
			base += fs.v[i].sum[0] / (double)in->nr_lo;
	floor_abs = ATTRIB_FLOOR * base;
	cand_floor = in->threshold / 100 * base / 4;
	fc = xcalloc(fs.nr ? fs.nr : 1, sizeof(*fc));
	for (i = 0; i < fs.nr; i++) {
		const struct fstat *f = &fs.v[i];
		double n0 = (double)in->nr_lo, n1 = (double)in->nr_hi;
		double m0 = f->sum[0] / n0, m1 = f->sum[1] / n1, se = 0;
		struct fchange *c;

		if (profile_is_idle(f->name))
			continue;
		out->change += m1 - m0;
		if (n0 > 1 && n1 > 1) {
			double v0 = (f->sumsq[0] - n0 * m0 * m0) / (n0 - 1);
			double v1 = (f->sumsq[1] - n1 * m1 * m1) / (n1 - 1);

			se = sqrt((v0 > 0 ? v0 : 0) / n0 + (v1 > 0 ? v1 : 0) / n1);
		}
		if (!(fabs(m1 - m0) > floor_abs && fabs(m1 - m0) > 4 * se))
			continue;
		c = &fc[nr++];
		c->name = f->name;
		c->change = m1 - m0;
		c->owner = xcalloc(in->nr_members ? in->nr_members : 1, 1);
		find_owners(c, in->hi_index, in);
		find_owners(c, in->lo_index, in);
		if (!c->nr_owners)
			out->unowned += c->change;
		for (k = 0; k < in->nr_members; k++) {
			if (!c->owner[k])
				continue;
			reach[k] += fabs(c->change);
			if (c->nr_owners == 1)
				out->owned[k] += c->change;
		}
	}
	out->changed = nr;
	for (k = 0; k < in->nr_members; k++) {
		if (reach[k] >= cand_floor && reach[k] > 0)
			out->candidates[out->nr_candidates++] = in->members[k].option;
		out->owned[k] = base > 0 ? out->owned[k] / base * 100 : NAN;
	}
	if (nr)
		qsort(fc, nr, sizeof(*fc), cmp_fchange_size);
	describe(out, in, fc, nr, base);
	if (!in->lo_index || !in->hi_index)
		strbuf_addstr(&out->text, "; no object index for one of the two kernels: "
			      "functions are matched with the other's only");
	ret = 0;
out:
	for (i = 0; i < nr; i++)
		free(fc[i].owner);
	free(fc);
	for (i = 0; i < fs.nr; i++)
		free(fs.v[i].name);
	free(fs.v);
	free(reach);
	return ret;
}

void attrib_result_release(struct attrib_result *r)
{
	free(r->candidates);
	free(r->owned);
	strbuf_release(&r->text);
	memset(r, 0, sizeof(*r));
	strbuf_init(&r->text, 0);
}
