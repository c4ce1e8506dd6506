/* profile-format.c: per-function instruction profiles out: callgrind's format, a table, two side by side. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/profile-format.h"
#include "store/profile.h"
#include "util/strbuf.h"
#include "util/wrapper.h"

/* A callgrind line holds no newline: what would break one is replaced. */
static void add_line_text(struct strbuf *out, const char *s)
{
	for (; *s; s++)
		strbuf_addch(out, *s == '\n' || *s == '\r' ? ' ' : *s);
}

void profile_write_callgrind(struct strbuf *out, const struct profile *p, const char *cmd,
			     const char *desc)
{
	double total = 0;
	size_t i;

	while (desc && *desc) {
		size_t len = strcspn(desc, "\n");
		char *line = xstrndup(desc, len);

		strbuf_addstr(out, "desc: ");
		add_line_text(out, line);
		strbuf_addch(out, '\n');
		free(line);
		desc += len + (desc[len] == '\n');
	}
	strbuf_addstr(out, "cmd: ");
	add_line_text(out, cmd);
	strbuf_addstr(out, "\nevents: Ir\n");
	for (i = 0; i < p->nr; i++) {
		const char *name = p->v[i].name;
		double count = llround(p->v[i].count);

		if (count <= 0)
			continue;
		total += count;
		strbuf_addstr(out, "fl=");
		add_line_text(out, name[0] == '[' ? name : "vmlinux");
		strbuf_addstr(out, "\nfn=");
		add_line_text(out, name);
		strbuf_addf(out, "\n0 %.0f\n", count);
	}
	strbuf_addf(out, "summary: %.0f\n", total);
}

/* A count: whole numbers as they are, fractions with three significant decimals. */
static void add_count(struct strbuf *out, double v, int width)
{
	if (fabs(v) >= 1000 || v == floor(v))
		strbuf_addf(out, "%*.0f", width, v);
	else
		strbuf_addf(out, "%*.3g", width, v);
}

void profile_write_text(struct strbuf *out, const struct profile *p, int top, const char *unit)
{
	struct profile sorted = PROFILE_INIT;
	double total = profile_total(p), rest = 0;
	size_t i, shown = 0;

	profile_add_all(&sorted, p);
	profile_sort_by_count(&sorted);
	strbuf_addf(out, "%16s  %6s  %s\n", unit, "share", "function");
	for (i = 0; i < sorted.nr; i++) {
		const struct profile_entry *e = &sorted.v[i];

		if (top > 0 && shown >= (size_t)top) {
			rest += e->count;
			continue;
		}
		add_count(out, e->count, 16);
		strbuf_addf(out, "  %5.1f%%  %s\n", total > 0 ? 100 * e->count / total : 0, e->name);
		shown++;
	}
	if (rest != 0) {
		add_count(out, rest, 16);
		strbuf_addf(out, "  %5.1f%%  (%zu more)\n", total > 0 ? 100 * rest / total : 0,
			    sorted.nr - shown);
	}
	add_count(out, profile_busy(p), 16);
	strbuf_addstr(out, "          busy (idle excluded)\n");
	add_count(out, total, 16);
	strbuf_addstr(out, "          total\n");
	profile_release(&sorted);
}

struct row {
	const char *name;
	double a, b;
};

static int by_change(const void *x, const void *y)
{
	const struct row *r = x, *s = y;
	double d = fabs(r->b - r->a), e = fabs(s->b - s->a);

	if (d != e)
		return d > e ? -1 : 1;
	return strcmp(r->name, s->name);
}

void profile_write_diff(struct strbuf *out, const struct profile *a, const struct profile *b,
			const char *a_name, const char *b_name, int top, const char *unit)
{
	struct profile names = PROFILE_INIT;
	struct row *rows;
	double change = profile_busy(b) - profile_busy(a), rest_a = 0, rest_b = 0;
	size_t i, nr = 0, shown = 0;

	/* every name of either, once */
	profile_add_all(&names, a);
	profile_add_all(&names, b);
	rows = xcalloc(names.nr ? names.nr : 1, sizeof(*rows));
	for (i = 0; i < names.nr; i++) {
		const struct profile_entry *x = profile_find(a, names.v[i].name);
		const struct profile_entry *y = profile_find(b, names.v[i].name);

		if (profile_is_idle(names.v[i].name))
			continue;	/* the idle loop is a line of its own */
		rows[nr].name = names.v[i].name;
		rows[nr].a = x ? x->count : 0;
		rows[nr].b = y ? y->count : 0;
		nr++;
	}
	qsort(rows, nr, sizeof(*rows), by_change);
	strbuf_addf(out, "%s, busy instructions (idle excluded): %s -> %s\n", unit, a_name, b_name);
	strbuf_addf(out, "%16s %16s %16s  %7s  %s\n", a_name, b_name, "change", "share", "function");
	for (i = 0; i < nr; i++) {
		const struct row *r = &rows[i];

		if (r->a == r->b)
			continue;
		if (top > 0 && shown >= (size_t)top) {
			rest_a += r->a;
			rest_b += r->b;
			continue;
		}
		add_count(out, r->a, 16);
		strbuf_addch(out, ' ');
		add_count(out, r->b, 16);
		strbuf_addch(out, ' ');
		add_count(out, r->b - r->a, 16);
		strbuf_addf(out, "  %6.1f%%  %s\n", change != 0 ? 100 * (r->b - r->a) / change : 0,
			    r->name);
		shown++;
	}
	if (rest_a != 0 || rest_b != 0) {
		add_count(out, rest_a, 16);
		strbuf_addch(out, ' ');
		add_count(out, rest_b, 16);
		strbuf_addch(out, ' ');
		add_count(out, rest_b - rest_a, 16);
		strbuf_addf(out, "  %6.1f%%  (the other functions)\n",
			    change != 0 ? 100 * (rest_b - rest_a) / change : 0);
	}
	add_count(out, profile_busy(a), 16);
	strbuf_addch(out, ' ');
	add_count(out, profile_busy(b), 16);
	strbuf_addch(out, ' ');
	add_count(out, change, 16);
	strbuf_addf(out, "  %6.1f%%  busy: the change", change != 0 ? 100.0 : 0);
	if (profile_busy(a) > 0)
		strbuf_addf(out, " (%+.1f%%)", 100 * change / profile_busy(a));
	strbuf_addch(out, '\n');
	add_count(out, profile_total(a) - profile_busy(a), 16);
	strbuf_addch(out, ' ');
	add_count(out, profile_total(b) - profile_busy(b), 16);
	strbuf_addch(out, ' ');
	add_count(out, (profile_total(b) - profile_busy(b)) - (profile_total(a) - profile_busy(a)), 16);
	strbuf_addstr(out, "           idle loop (left out)\n");
	free(rows);
	profile_release(&names);
}
