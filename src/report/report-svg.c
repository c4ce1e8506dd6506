/* report-svg.c: a bar chart of each variant's change against the baseline, with CI whiskers. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "stats/analyze.h"
#include "util/escape.h"
#include "report/report-util.h"
#include "report/report-writers.h"
#include "util/strbuf.h"
#include "util/wrapper.h"

/*
 * One chart per workload and metric: a horizontal bar per compared variant
 * in display order (all first, then costliest first), its confidence
 * interval as a whisker, the +-noise band shaded around zero, an axis with
 * ticks in percent.  Significant costs are red and significant gains green
 * (marker '*'), significant changes whose interval reaches into the noise
 * band amber ('~'), the rest grey (not significant, or wholly inside the
 * band).  Each bar has a <title> (a tooltip) with the numbers.  Labels
 * use a monospace font so that their width is known without a renderer;
 * long names are cut with an ellipsis (the tooltip has them whole).  A
 * same-as variant's label ends in SAME_AS_MARK, which the subtitle
 * explains, and its tooltip names the twin whose runs it shares.
 *
 * Cumulative steps ("+CONFIG_X=y", in their order after all) make a
 * waterfall: a step's bar starts where the step before it ends (its
 * change against the baseline; 0 for the first) and ends at its own, and
 * its colour is that of its increment against the step before, whose
 * figure follows its value ("step +74.7% *").  A group's tooltip names
 * its members.
 */

#define CHART_WIDTH 880
#define CHAR_WIDTH 7.25		/* 12px DejaVu Sans Mono */
#define LABEL_MAX 44		/* characters of a variant's name shown */
#define TOP 64
#define ROW 26
#define BAR 16
#define BOTTOM 66
#define RIGHT 120
#define RIGHT_STEPS 230		/* room for "+75.0% *, step +74.7% *" */

#define COLOR_COST "#c8374b"
#define COLOR_GAIN "#23946a"
#define COLOR_NOISE "#e3a33b"
#define COLOR_PLAIN "#a7b1bf"

#define SAME_AS_MARK " (=)"

struct scale {
	double lo, hi;		/* domain, percent */
	double x0, x1;		/* range, pixels */
};

static double sx(const struct scale *s, double v)
{
	return s->x0 + (v - s->lo) / (s->hi - s->lo) * (s->x1 - s->x0);
}

static size_t nr_bars(const struct analyze_table *t)
{
	size_t i, n = 0;

	for (i = 0; i < t->nr_order; i++)
		if (t->rows[t->order[i]].compared)
			n++;
	return n;
}

/* Whether some bar is a same-as variant's. */
static int has_same_as_bar(const struct analyze_table *t)
{
	size_t i;

	for (i = 0; i < t->nr_order; i++)
		if (t->rows[t->order[i]].compared && t->rows[t->order[i]].twin != SIZE_MAX)
			return 1;
	return 0;
}

static size_t chart_height(const struct analyze_table *t)
{
	size_t n = nr_bars(t);

	return TOP + (n ? n : 1) * ROW + BOTTOM;
}

/* The characters of a row's label after its name. */
static const char *label_suffix(const struct analyze_row *r)
{
	return r->twin == SIZE_MAX ? "" : SAME_AS_MARK;
}

static size_t label_chars(const struct analyze_model *m, const struct analyze_table *t)
{
	size_t i, w = 8;

	for (i = 0; i < t->nr_order; i++) {
		const struct analyze_row *r = &t->rows[t->order[i]];
		const char *name = analyze_row_variant(m, r)->v.name;
		size_t n = text_width(name, strlen(name)) + strlen(label_suffix(r));

		if (n > w)
			w = n;
	}
	return w > LABEL_MAX ? LABEL_MAX : w;
}

/*
 * The name and suffix, the name cut so that both fit in LABEL_MAX
 * characters, with an ellipsis when cut.
 */
static void add_label(struct strbuf *out, const char *name, const char *suffix)
{
	struct strbuf sb = STRBUF_INIT;
	size_t len = strlen(name), i = 0, chars = 0, max = LABEL_MAX - strlen(suffix);

	if (text_width(name, len) <= max) {
		strbuf_add(&sb, name, len);
	} else {
		while (i < len && chars < max - 1) {
			i++;
			while (i < len && ((unsigned char)name[i] & 0xC0) == 0x80)
				i++;
			chars++;
		}
		strbuf_add(&sb, name, i);
		strbuf_addstr(&sb, "\xE2\x80\xA6");
	}
	strbuf_addstr(&sb, suffix);
	strbuf_add_xml(out, sb.buf);
	strbuf_release(&sb);
}

static double nice_step(double span)
{
	static const double f[] = { 1, 2, 2.5, 5, 10 };
	double raw = span / 6, mag;
	size_t i;

	if (!(raw > 0))
		return 1;
	mag = pow(10, floor(log10(raw)));
	for (i = 0; i < ARRAY_SIZE(f); i++)
		if (f[i] * mag >= raw)
			return f[i] * mag;
	return 10 * mag;
}

static void domain(struct scale *s, const struct analyze_table *t, double noise)
{
	double lo = -noise, hi = noise, pad;
	size_t i;

	for (i = 0; i < t->nr_order; i++) {
		const struct analyze_row *r = &t->rows[t->order[i]];
		double v[3] = { r->cmp.change, r->cmp.change_lo, r->cmp.change_hi };
		size_t k;

		if (!r->compared)
			continue;
		for (k = 0; k < 3; k++) {
			if (!isfinite(v[k]))
				continue;
			if (v[k] < lo)
				lo = v[k];
			if (v[k] > hi)
				hi = v[k];
		}
	}
	if (!(hi > lo)) {
		lo = -1;
		hi = 1;
	}
	pad = (hi - lo) * 0.06;
	s->lo = lo - pad;
	s->hi = hi + pad;
}

static const char *color_of(const struct stats_comparison *c)
{
	if (c->marker == '*')
		return c->cost > 0 ? COLOR_COST : COLOR_GAIN;
	if (c->marker == '~')
		return COLOR_NOISE;
	return COLOR_PLAIN;
}

static const char *bar_color(const struct analyze_row *r)
{
	if (r->step_number)
		return r->step == ANALYZE_STEP_COMPARED ? color_of(&r->step_cmp) : COLOR_PLAIN;
	return color_of(&r->cmp);
}

/* Where a row's bar starts: 0, or for a step where the step before it ends. */
static double bar_start(const struct analyze_table *t, const struct analyze_row *r)
{
	const struct analyze_row *before;

	if (!r->step_number || r->step_prev == SIZE_MAX || r->step_prev == t->baseline)
		return 0;
	before = &t->rows[r->step_prev];
	return before->compared && isfinite(before->cmp.change) ? before->cmp.change : 0;
}

static void add_tick_label(struct strbuf *out, double v, double step)
{
	int decimals = step >= 1 ? 0 : step >= 0.1 ? 1 : 2;

	if (fabs(v) < step / 1000)
		strbuf_addstr(out, "0%");
	else
		strbuf_addf(out, "%+.*f%%", decimals, v);
}

static void axis(struct strbuf *out, const struct scale *s, double y0, double y1)
{
	double step = nice_step(s->hi - s->lo), v;

	for (v = ceil(s->lo / step) * step; v <= s->hi + step / 1000; v += step) {
		double x = sx(s, v);
		int zero = fabs(v) < step / 1000;

		strbuf_addf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			    "stroke=\"%s\" stroke-width=\"1\"/>\n", x, y0, x, y1,
			    zero ? "#4a5568" : "#e2e8f0");
		strbuf_addf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\" "
			    "text-anchor=\"middle\">", x, y1 + 16);
		add_tick_label(out, zero ? 0 : v, step);
		strbuf_addstr(out, "</text>\n");
	}
	strbuf_addf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		    "stroke=\"#4a5568\" stroke-width=\"1\"/>\n", s->x0, y1, s->x1, y1);
}

static void legend(struct strbuf *out, double x, double y, double noise)
{
	static const char *const items[][2] = {
		{ COLOR_COST, "significant cost" },
		{ COLOR_GAIN, "significant gain" },
		{ COLOR_NOISE, "significant, into noise" },
		{ COLOR_PLAIN, "not significant, or in noise" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(items); i++) {
		strbuf_addf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" "
			    "rx=\"2\" fill=\"%s\"/>", x, y - 10, items[i][0]);
		strbuf_addf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"legend\">%s</text>\n",
			    x + 17, y, items[i][1]);
		x += 34 + 7.0 * strlen(items[i][1]);
	}
	strbuf_addf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" "
		    "fill=\"#dde7f3\"/>", x, y - 10);
	strbuf_addf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"legend\">noise band "
		    "\xC2\xB1%g%%</text>\n", x + 17, y, noise);
}

static void bar(struct strbuf *out, const struct analyze_model *m,
		const struct analyze_table *t, size_t i, const struct scale *s, double y)
{
	const struct analyze_row *r = &t->rows[i];
	const char *name = analyze_row_variant(m, r)->v.name;
	const struct analyze_group *g = analyze_group(m, name);
	double x0 = sx(s, bar_start(t, r)), cy = y + ROW / 2.0, xv;
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(out, "<g class=\"row\">\n<title>");
	strbuf_add_xml(out, name);
	strbuf_addstr(&sb, ": ");
	stats_format_change(&sb, r->cmp.change, 2);
	strbuf_addch(&sb, ' ');
	stats_format_ci(&sb, &r->cmp, 2);
	strbuf_addf(&sb, ", n = %zu, q = ", r->n);
	if (isnan(r->cmp.q))
		strbuf_addstr(&sb, "n/a");
	else
		strbuf_addf(&sb, "%.3g", r->cmp.q);
	if (r->twin != SIZE_MAX) {
		strbuf_addch(&sb, ' ');
		report_add_same_as(&sb, m, r);
	}
	if (r->step_number) {
		strbuf_addf(&sb, "; step %zu against ", r->step_number);
		strbuf_addstr(&sb, report_step_before(m, t, r));
		strbuf_addstr(&sb, ": ");
		if (r->step == ANALYZE_STEP_NONE)
			strbuf_addstr(&sb, "not compared yet");
		report_add_step(&sb, r);
	}
	if (g && !strcmp(analyze_row_variant(m, r)->v.kind, "oat")) {
		strbuf_addstr(&sb, "; group of ");
		report_add_members(&sb, g);
	}
	strbuf_add_xml(out, sb.buf);
	strbuf_reset(&sb);
	strbuf_addstr(out, "</title>\n");

	strbuf_addf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"label\" text-anchor=\"end\">",
		    s->x0 - 10, cy + 4);
	add_label(out, name, label_suffix(r));
	strbuf_addstr(out, "</text>\n");
	if (isfinite(r->cmp.change)) {
		xv = sx(s, r->cmp.change);
		strbuf_addf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" "
			    "rx=\"2\" fill=\"%s\"/>\n", xv < x0 ? xv : x0, cy - BAR / 2.0,
			    fabs(xv - x0) < 1 ? 1 : fabs(xv - x0), BAR, bar_color(r));
	}
	if (r->cmp.ci.state == STATS_CI_BOUNDED) {
		double a = sx(s, r->cmp.change_lo), b = sx(s, r->cmp.change_hi);

		strbuf_addf(out, "<path d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fV%.1f\" "
			    "stroke=\"#1a202c\" stroke-width=\"1.5\" fill=\"none\"/>\n",
			    a, cy - 5, cy + 5, a, cy, b, b, cy - 5, cy + 5);
	}
	stats_format_change(&sb, r->cmp.change, 1);
	if (*report_marker(t, i))
		strbuf_addf(&sb, " %s", report_marker(t, i));
	if (r->cmp.ci.state == STATS_CI_UNBOUNDED)
		strbuf_addstr(&sb, " (CI unbounded)");
	if (r->step == ANALYZE_STEP_COMPARED) {
		strbuf_addstr(&sb, ", step ");
		stats_format_change(&sb, r->step_cmp.change, 1);
		if (*report_step_marker(r))
			strbuf_addf(&sb, " %s", report_step_marker(r));
	} else if (r->step == ANALYZE_STEP_SAME) {
		strbuf_addstr(&sb, ", step: same kernel");
	}
	strbuf_addf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"value\">", s->x1 + 10, cy + 4);
	strbuf_add_xml(out, sb.buf);
	strbuf_addstr(out, "</text>\n</g>\n");
	strbuf_release(&sb);
}

static void chart(struct strbuf *out, const struct analyze_model *m,
		  const struct analyze_table *t, double y_offset, int nested)
{
	double noise = m->opts.stats.noise, y;
	size_t height = chart_height(t), i, bars = nr_bars(t);
	struct scale s;
	struct strbuf sb = STRBUF_INIT;
	const struct analyze_row *base = t->baseline == SIZE_MAX ? NULL :
		&t->rows[t->baseline];

	s.x0 = 24 + CHAR_WIDTH * label_chars(m, t);
	s.x1 = CHART_WIDTH - (t->nr_steps ? RIGHT_STEPS : RIGHT);
	domain(&s, t, noise);

	strbuf_addf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%zu\" "
		    "viewBox=\"0 0 %d %zu\"", CHART_WIDTH, height, CHART_WIDTH, height);
	if (nested)
		strbuf_addf(out, " x=\"0\" y=\"%.0f\"", y_offset);
	strbuf_addstr(out, " class=\"kconfperf-chart\" role=\"img\">\n");
	strbuf_addstr(out, "<style>text{font-family:'DejaVu Sans',Verdana,sans-serif;"
		      "font-size:12px;fill:#1a202c}.label,.value{font-family:'DejaVu Sans Mono',"
		      "Menlo,monospace}.title{font-size:15px;font-weight:bold}"
		      ".sub,.tick,.legend{fill:#4a5568}.tick{font-size:11px}"
		      ".row:hover rect{opacity:.8}</style>\n");
	strbuf_addf(out, "<rect width=\"%d\" height=\"%zu\" fill=\"#ffffff\"/>\n",
		    CHART_WIDTH, height);

	strbuf_addstr(&sb, t->workload);
	strbuf_addstr(&sb, " \xE2\x80\x94 ");
	strbuf_addstr(&sb, t->metric);
	strbuf_addf(&sb, ": change against the baseline, %g%% CI",
		    m->opts.stats.confidence * 100);
	strbuf_addstr(out, "<text x=\"16\" y=\"26\" class=\"title\">");
	strbuf_add_xml(out, sb.buf);
	strbuf_addstr(out, "</text>\n");
	strbuf_reset(&sb);
	if (base && base->n) {
		int d = analyze_decimals(t);

		strbuf_addstr(&sb, "baseline ");
		report_add_value(&sb, base->summary.mean, d);
		strbuf_addf(&sb, " %s \xC2\xB1 ", t->unit);
		report_add_value(&sb, base->summary.sd, d);
		strbuf_addf(&sb, " %s, n = %zu; %s is better", t->unit, base->n,
			    t->higher_is_better ? "higher" : "lower");
	} else {
		strbuf_addstr(&sb, "no baseline runs yet");
	}
	if (has_same_as_bar(t))
		strbuf_addstr(&sb, ";" SAME_AS_MARK " the same kernel as another variant, "
			      "its runs");
	if (t->nr_steps)
		strbuf_addstr(&sb, "; +steps stack, coloured by their increment");
	strbuf_addstr(out, "<text x=\"16\" y=\"46\" class=\"sub\">");
	strbuf_add_xml(out, sb.buf);
	strbuf_addstr(out, "</text>\n");
	strbuf_reset(&sb);

	y = TOP + (bars ? bars : 1) * ROW;
	strbuf_addf(out, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%.1f\" "
		    "fill=\"#dde7f3\"/>\n", sx(&s, -noise), TOP,
		    sx(&s, noise) - sx(&s, -noise), y - TOP);
	axis(out, &s, TOP, y);
	for (i = 0, y = TOP; i < t->nr_order; i++) {
		if (!t->rows[t->order[i]].compared)
			continue;
		bar(out, m, t, t->order[i], &s, y);
		y += ROW;
	}
	if (!bars)
		strbuf_addf(out, "<text x=\"%.1f\" y=\"%d\" class=\"sub\" "
			    "text-anchor=\"middle\">nothing to compare yet</text>\n",
			    (s.x0 + s.x1) / 2, TOP + ROW / 2 + 4);
	legend(out, 16, height - 22, noise);
	strbuf_addstr(out, "</svg>\n");
	strbuf_release(&sb);
}

void report_svg_chart(struct strbuf *out, const struct analyze_model *m,
		      const struct analyze_table *t)
{
	chart(out, m, t, 0, 0);
}

void report_svg(struct strbuf *out, const struct analyze_model *m)
{
	size_t i, total = 0;

	strbuf_addstr(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	if (m->nr_tables == 1) {
		chart(out, m, &m->tables[0], 0, 0);
		return;
	}
	for (i = 0; i < m->nr_tables; i++)
		total += chart_height(&m->tables[i]);
	if (!m->nr_tables)
		total = 60;
	strbuf_addf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%zu\" "
		    "viewBox=\"0 0 %d %zu\">\n", CHART_WIDTH, total, CHART_WIDTH, total);
	if (!m->nr_tables)
		strbuf_addstr(out, "<text x=\"16\" y=\"30\" font-family=\"sans-serif\" "
			      "font-size=\"14\">no measured runs yet</text>\n");
	for (i = 0, total = 0; i < m->nr_tables; i++) {
		chart(out, m, &m->tables[i], total, 1);
		total += chart_height(&m->tables[i]);
	}
	strbuf_addstr(out, "</svg>\n");
}
