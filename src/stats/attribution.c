/* attribution.c: where an option's cost goes, from two instruction profiles. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/attribution.h"
#include "store/idle-functions.h"
#include "util/wrapper.h"

void attribution_release(struct attribution *a)
{
	size_t i;

	for (i = 0; i < a->nr_rows; i++)
		free(a->rows[i].name);
	free(a->rows);
	memset(a, 0, sizeof(*a));
}

static void add_total(struct attribution_totals *t, const char *name, double count)
{
	if (!strcmp(name, KCP_BUCKET_USER))
		t->user += count;
	else if (!strcmp(name, KCP_BUCKET_KERNEL_OTHER) || !strcmp(name, KCP_BUCKET_BEFORE_KERNEL))
		t->other += count;
	else
		t->kernel += count;
	if (profile_is_idle(name))
		t->idle += count;
	else
		t->busy += count;
}

static void totals(struct attribution_totals *t, const struct profile *p)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < p->nr; i++)
		add_total(t, p->v[i].name, p->v[i].count);
}

static int by_change(const void *x, const void *y)
{
	const struct attribution_row *a = x, *b = y;
	double ca = fabs(a->change), cb = fabs(b->change);

	if (ca != cb)
		return ca > cb ? -1 : 1;
	return strcmp(a->name, b->name);
}

static void normalised_copy(struct profile *out, const struct profile *p)
{
	size_t i;

	for (i = 0; i < p->nr; i++)
		profile_add(out, p->v[i].name, p->v[i].count);
	profile_normalize(out);
}

void attribution_compute(struct attribution *out, const struct profile *base,
			 const struct profile *variant, double measured)
{
	struct profile a = PROFILE_INIT, b = PROFILE_INIT, names = PROFILE_INIT;
	double sum = 0;
	size_t i;

	attribution_release(out);
	normalised_copy(&a, base);
	normalised_copy(&b, variant);
	totals(&out->base, &a);
	totals(&out->variant, &b);
	out->change = out->variant.busy - out->base.busy;

	/* every name of either, once */
	profile_add_all(&names, &a);
	profile_add_all(&names, &b);
	out->rows = xcalloc(names.nr ? names.nr : 1, sizeof(*out->rows));
	for (i = 0; i < names.nr; i++) {
		const struct profile_entry *x = profile_find(&a, names.v[i].name);
		const struct profile_entry *y = profile_find(&b, names.v[i].name);
		struct attribution_row *r = &out->rows[out->nr_rows];

		if (profile_is_idle(names.v[i].name))
			continue;	/* in the totals, not a row */
		r->base = x ? x->count : 0;
		r->variant = y ? y->count : 0;
		if (r->base == r->variant)
			continue;
		r->name = xstrdup(names.v[i].name);
		r->change = r->variant - r->base;
		r->share = out->change != 0 ? r->change / out->change : NAN;
		sum += r->change;
		out->nr_rows++;
	}
	qsort(out->rows, out->nr_rows, sizeof(*out->rows), by_change);

	out->measured = measured;
	out->residual = isnan(measured) ? NAN : sum - measured;
	out->adds_up = !isnan(measured) &&
		       fabs(out->residual) <= ATTRIBUTION_TOLERANCE * fabs(measured);
	profile_release(&a);
	profile_release(&b);
	profile_release(&names);
}

size_t attribution_top(const struct attribution *a, size_t top, double *rest_base,
		       double *rest_variant)
{
	size_t n = top && top < a->nr_rows ? top : a->nr_rows, i;

	*rest_base = *rest_variant = 0;
	for (i = n; i < a->nr_rows; i++) {
		*rest_base += a->rows[i].base;
		*rest_variant += a->rows[i].variant;
	}
	return n;
}
