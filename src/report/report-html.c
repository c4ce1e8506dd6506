/* report-html.c: the whole report as one self-contained HTML page. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "stats/analyze.h"
#include "util/escape.h"
#include "report/report-sections.h"
#include "report/report-util.h"
#include "report/report-writers.h"
#include "util/strbuf.h"
#include "util/version.h"
#include "util/wrapper.h"

/*
 * One file that opens anywhere, offline: inline CSS, inline SVG charts, no
 * scripts, no fonts or images fetched.  Per workload and metric a summary
 * table (a same-as variant's row with a badge naming the twin whose runs
 * it shares, a group's with a badge naming its members; with cumulative
 * steps two more columns, each step against the step before it and its
 * marker) and its chart (report_svg_chart()), the multiplicativity check
 * and notes; then the named groups and what they hold, every variant's
 * effective config diff in a collapsible <details> with its image size
 * against the baseline's (and the groups among its options), the
 * variants not measured and why, the environment (every experiment fact)
 * and the raw data, one row per run.  All data goes through
 * strbuf_add_xml().
 */

static const char css[] =
	":root{--fg:#1a202c;--muted:#4a5568;--line:#e2e8f0;--bg:#f7f9fc;"
	"--cost:#c8374b;--gain:#23946a;--noise:#b7791f}"
	"*{box-sizing:border-box}"
	"body{margin:0;background:var(--bg);color:var(--fg);"
	"font:15px/1.5 system-ui,-apple-system,'Segoe UI','DejaVu Sans',sans-serif}"
	"main{max-width:1120px;margin:0 auto;padding:28px 28px 48px}"
	"h1{font-size:26px;margin:0 0 4px}"
	"h2{font-size:20px;margin:36px 0 8px;padding-bottom:4px;border-bottom:2px solid var(--line)}"
	"h3{font-size:16px;margin:20px 0 6px}"
	".lead{color:var(--muted);margin:0 0 8px}"
	"nav a{margin-right:14px}"
	"a{color:#2b6cb0;text-decoration:none}a:hover{text-decoration:underline}"
	".card{background:#fff;border:1px solid var(--line);border-radius:8px;"
	"padding:4px 0;margin:10px 0;overflow-x:auto}"
	"table{border-collapse:collapse;width:100%;font-size:14px}"
	"th,td{padding:6px 10px;text-align:left;white-space:nowrap}"
	"th{font-weight:600;color:var(--muted);border-bottom:1px solid var(--line)}th.n{text-align:right}"
	"tbody tr:nth-child(even){background:#fafbfd}"
	"td.n{text-align:right;font-variant-numeric:tabular-nums}"
	"td.name{font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:13px;"
	"white-space:normal;overflow-wrap:anywhere;min-width:14em;max-width:26em}"
	"tr.base td{font-weight:600}"
	".mark{font-weight:700;text-align:center}"
	".cost{color:var(--cost)}.gain{color:var(--gain)}.noise{color:var(--noise)}"
	".legend{color:var(--muted);font-size:13px;margin:4px 2px}"
	".aa{font-size:14px;margin:6px 2px}.aa.warn{color:#b00020;font-weight:600}"
	"figure{margin:12px 0}figure svg{width:100%;height:auto;display:block;"
	"background:#fff;border:1px solid var(--line);border-radius:8px}"
	"details{background:#fff;border:1px solid var(--line);border-radius:8px;"
	"margin:6px 0;padding:6px 12px}"
	"summary{cursor:pointer}summary code{font-size:13px}"
	".badge{display:inline-block;font-size:12px;padding:0 8px;border-radius:10px;"
	"background:#edf2f7;color:var(--muted);margin-left:6px}"
	".badge.no-op,.badge.same-as{background:#fefcbf;color:#744210}"
	".badge.failed{background:#fed7d7;color:#822727}"
	".badge.group{background:#e9e3fb;color:#44337a;white-space:normal}"
	"pre{font-size:12.5px;line-height:1.4;background:#f7fafc;padding:8px 10px;"
	"border-radius:6px;overflow-x:auto;margin:8px 0}"
	"pre .add{color:var(--gain)}pre .del{color:var(--cost)}pre .chg{color:#2b6cb0}"
	".notes{color:var(--muted);font-size:14px}"
	"footer{margin-top:40px;color:var(--muted);font-size:13px}";

static void esc(struct strbuf *out, const char *s)
{
	strbuf_add_xml(out, s);
}

/* Escapes the buffer's contents into out, then empties it. */
static void esc_buf(struct strbuf *out, struct strbuf *sb)
{
	strbuf_add_xml(out, sb->buf);
	strbuf_reset(sb);
}

static void td_num(struct strbuf *out, struct strbuf *sb, const char *class)
{
	strbuf_addf(out, "<td class=\"n%s%s\">", *class ? " " : "", class);
	esc_buf(out, sb);
	strbuf_addstr(out, "</td>");
}

static const char *effect_class(const struct analyze_row *r)
{
	if (!r->compared)
		return "";
	if (r->cmp.marker == '*')
		return r->cmp.cost > 0 ? "cost" : "gain";
	if (r->cmp.marker == '~')
		return "noise";
	return "";
}

static const char *step_class(const struct analyze_row *r)
{
	if (r->step_cmp.marker == '*')
		return r->step_cmp.cost > 0 ? "cost" : "gain";
	if (r->step_cmp.marker == '~')
		return "noise";
	return "";
}

/* A group's variant: a badge with the group's members. */
static void group_badge(struct strbuf *out, const struct analyze_model *m,
			const struct analyze_variant *av)
{
	const struct analyze_group *g = strcmp(av->v.kind, "oat") ? NULL :
		analyze_group(m, av->v.name);
	struct strbuf sb = STRBUF_INIT;

	if (!g)
		return;
	strbuf_addstr(&sb, "group: ");
	report_add_members(&sb, g);
	strbuf_addstr(out, "<span class=\"badge group\">");
	esc_buf(out, &sb);
	strbuf_addstr(out, "</span>");
	strbuf_release(&sb);
}

static void header(struct strbuf *out, const struct analyze_model *m)
{
	static const char *const keys[][2] = {
		{ "kernel_version", "kernel" }, { "arch", "arch" }, { "base", "baseline" },
		{ "host", "host" }, { "accel", "accel" }, { "boot", "boot" },
	};
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	strbuf_addstr(out, "<header><h1>kconfperf report</h1><p class=\"lead\">");
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *v = analyze_fact(m, keys[i][0]);

		if (!v)
			continue;
		strbuf_addf(&sb, "%s%s ", sb.len ? " \xC2\xB7 " : "", keys[i][1]);
		strbuf_addstr(&sb, v);
	}
	strbuf_addf(&sb, "%s%zu variants", sb.len ? " \xC2\xB7 " : "", m->nr_variants);
	esc_buf(out, &sb);
	strbuf_addstr(out, "</p>");
	if (m->nr_tables > 1) {
		strbuf_addstr(out, "<nav>");
		for (i = 0; i < m->nr_tables; i++) {
			strbuf_addf(out, "<a href=\"#t%zu\">", i + 1);
			esc(out, m->tables[i].workload);
			strbuf_addstr(out, ": ");
			esc(out, m->tables[i].metric);
			if (*m->sources[m->tables[i].source].label) {
				strbuf_addch(out, ' ');
				esc(out, m->sources[m->tables[i].source].label);
			}
			strbuf_addstr(out, "</a>");
		}
		strbuf_addstr(out, "</nav>");
	}
	strbuf_addstr(out, "</header>\n");
	strbuf_release(&sb);
}

static void summary_row(struct strbuf *out, const struct analyze_model *m,
			const struct analyze_table *t, size_t i, int decimals)
{
	const struct analyze_row *r = &t->rows[i];
	const struct analyze_variant *av = analyze_row_variant(m, r);
	const char *cls = effect_class(r);
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(out, "<tr%s><td class=\"name\">", r->is_baseline ? " class=\"base\"" : "");
	esc(out, av->v.name);
	group_badge(out, m, av);
	report_add_same_as(&sb, m, r);
	if (sb.len) {
		strbuf_addstr(out, "<span class=\"badge same-as\">");
		esc_buf(out, &sb);
		strbuf_addstr(out, "</span>");
	}
	strbuf_addstr(out, "</td>");
	strbuf_addf(&sb, "%zu", r->n);
	if (r->too_few)
		strbuf_addstr(&sb, " (few)");
	td_num(out, &sb, "");
	report_add_value(&sb, r->summary.mean, decimals);
	td_num(out, &sb, "");
	report_add_value(&sb, r->summary.sd, decimals);
	td_num(out, &sb, "");
	report_add_value(&sb, r->summary.median, decimals);
	td_num(out, &sb, "");
	if (r->compared) {
		stats_format_change(&sb, r->cmp.change, 1);
		td_num(out, &sb, cls);
		stats_format_ci(&sb, &r->cmp, 1);
		td_num(out, &sb, "");
		if (isnan(r->cmp.q))
			strbuf_addstr(&sb, "n/a");
		else
			strbuf_addf(&sb, "%.2g", r->cmp.q);
		td_num(out, &sb, "");
		strbuf_addf(out, "<td class=\"mark %s\">", cls);
		esc(out, report_marker(t, i));
		strbuf_addstr(out, "</td>");
	} else {
		strbuf_addstr(out, "<td class=\"n\"></td><td class=\"n\"></td>"
			      "<td class=\"n\"></td><td></td>");
	}
	if (t->nr_steps) {
		const char *scls = r->step == ANALYZE_STEP_COMPARED ? step_class(r) : "";

		report_add_step(&sb, r);
		td_num(out, &sb, scls);
		strbuf_addf(out, "<td class=\"mark %s\">", scls);
		esc(out, report_step_marker(r));
		strbuf_addstr(out, "</td>");
	}
	if (r->is_baseline && av->has_build && av->build.bzimage_size > 0)
		report_add_bytes(&sb, (double)av->build.bzimage_size, 0);
	else if (av->has_size_delta)
		report_add_bytes(&sb, (double)av->size_delta, 1);
	td_num(out, &sb, "");
	strbuf_addstr(out, "</tr>\n");
	strbuf_release(&sb);
}

static void interactions(struct strbuf *out, const struct analyze_model *m,
			 const struct analyze_table *t)
{
	struct strbuf sb = STRBUF_INIT;
	const struct stats_interaction *p = &t->product;
	size_t i;

	if (t->has_product && p->marker == '?') {
		strbuf_addf(out, "<h3>Do the costs multiply?</h3>\n<p class=\"notes\">Not yet "
			    "(%zu options alone against all): too few runs of ", t->product_k);
		report_add_product_blockers(&sb, m, t);
		esc_buf(out, &sb);
		strbuf_addstr(out, ".</p>\n");
	} else if (t->has_product) {
		strbuf_addstr(out, "<h3>Do the costs multiply?</h3>\n<div class=\"card\"><table>"
			      "<thead><tr><th></th><th class=\"n\">change</th><th></th></tr></thead><tbody>\n");
		strbuf_addf(&sb, "predicted: product of %zu options alone", t->product_k);
		strbuf_addstr(out, "<tr><td>");
		esc_buf(out, &sb);
		report_add_ratio_interval(&sb, p->predicted, p->predicted_lo, p->predicted_hi);
		strbuf_addstr(out, "</td>");
		td_num(out, &sb, "");
		strbuf_addstr(out, "<td></td></tr>\n<tr><td>measured: all</td>");
		report_add_ratio_interval(&sb, p->measured, p->measured_lo, p->measured_hi);
		td_num(out, &sb, "");
		strbuf_addstr(out, "<td></td></tr>\n<tr><td>measured / predicted</td>");
		report_add_ratio_interval(&sb, p->ratio, p->ratio_lo, p->ratio_hi);
		td_num(out, &sb, "");
		strbuf_addstr(out, "<td>");
		esc(out, analyze_interaction_verdict(p));
		strbuf_addstr(out, "</td></tr>\n</tbody></table></div>\n");
		if (t->product_left_out)
			strbuf_addf(out, "<p class=\"notes\">%zu no-op or duplicate options "
				    "left out of the product.</p>\n", t->product_left_out);
	}
	if (!t->nr_added_last)
		goto out;
	strbuf_addstr(out, "<h3>Added last</h3>\n<div class=\"card\"><table><thead><tr>"
		      "<th>option</th><th class=\"n\">alone</th>"
		      "<th class=\"n\">added last (all vs all without it)</th>"
		      "<th></th></tr></thead><tbody>\n");
	for (i = 0; i < t->nr_added_last; i++) {
		const struct analyze_added_last *al = &t->added_last[i];

		strbuf_addstr(out, "<tr><td class=\"name\">");
		esc(out, al->option);
		strbuf_addstr(out, "</td>");
		switch (al->kind) {
		case ANALYZE_AL_MODEL:
			report_add_ratio_interval(&sb, al->ia.predicted, al->ia.predicted_lo,
						  al->ia.predicted_hi);
			td_num(out, &sb, "");
			report_add_ratio_interval(&sb, al->ia.measured, al->ia.measured_lo,
						  al->ia.measured_hi);
			td_num(out, &sb, "");
			strbuf_addstr(&sb, analyze_interaction_verdict(&al->ia));
			break;
		case ANALYZE_AL_ALONE_NOOP:
			strbuf_addstr(out, "<td class=\"n\">no-op</td>");
			stats_format_change(&sb, al->cmp.change, 1);
			strbuf_addch(&sb, ' ');
			stats_format_ci(&sb, &al->cmp, 1);
			td_num(out, &sb, "");
			strbuf_addstr(&sb, "interaction: it only acts with the others");
			break;
		case ANALYZE_AL_SAME_AS_ALL:
			strbuf_addstr(out, "<td class=\"n\"></td><td class=\"n\">+0.0%</td>");
			strbuf_addstr(&sb, "all without it is the same kernel");
			break;
		}
		strbuf_addstr(out, "<td>");
		esc_buf(out, &sb);
		strbuf_addstr(out, "</td></tr>\n");
	}
	strbuf_addstr(out, "</tbody></table></div>\n");
out:
	strbuf_release(&sb);
}

static void notes(struct strbuf *out, const struct analyze_model *m,
		  const struct analyze_table *t)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < t->nr_notes; i++) {
		const struct analyze_note *n = &t->notes[i];
		struct strbuf what = STRBUF_INIT;

		strbuf_addstr(&sb, "<li><code>");
		esc(&sb, analyze_row_variant(m, &t->rows[n->row])->v.name);
		strbuf_addstr(&sb, "</code>: ");
		report_add_note(&what, t, n);
		esc_buf(&sb, &what);
		strbuf_addstr(&sb, "</li>\n");
		strbuf_release(&what);
	}
	if (sb.len)
		strbuf_addf(out, "<ul class=\"notes\">\n%s</ul>\n", sb.buf);
	strbuf_reset(&sb);
	report_add_bimodal(&sb, m, t);
	if (sb.len) {
		strbuf_addstr(out, "<pre class=\"notes\">");
		esc_buf(out, &sb);
		strbuf_addstr(out, "</pre>\n");
	}
	strbuf_release(&sb);
}

static void table_section(struct strbuf *out, const struct analyze_model *m,
			  const struct analyze_table *t, size_t nr)
{
	struct strbuf sb = STRBUF_INIT;
	int decimals = analyze_decimals(t);
	size_t i;

	strbuf_addf(out, "<section id=\"t%zu\">\n<h2>", nr);
	esc(out, t->workload);
	strbuf_addstr(out, " \xE2\x80\x94 ");
	esc(out, t->metric);
	if (*m->sources[t->source].label) {
		strbuf_addstr(out, ", ");
		analyze_describe_source(&sb, &m->sources[t->source]);
		esc_buf(out, &sb);
	}
	strbuf_addstr(out, "</h2>\n<p class=\"lead\">");
	if (*t->unit)
		strbuf_addf(&sb, "in %s, ", t->unit);
	strbuf_addf(&sb, "%s is better: %s. Runs: ", t->higher_is_better ? "higher" : "lower",
		    report_metric_about(t));
	report_add_runs(&sb, t);
	strbuf_addf(&sb, "; %zu warm-ups and %zu failed runs excluded; accel: %s. Clock: %s.",
		    t->warmups, t->failed, *t->accel ? t->accel : "unknown", t->clock_text);
	esc_buf(out, &sb);
	strbuf_addstr(out, "</p>\n<div class=\"card\"><table class=\"summary\">\n<thead><tr>"
		      "<th>variant</th><th class=\"n\">runs</th>");
	strbuf_addf(&sb, "mean%s%s", *t->unit ? " " : "", t->unit);
	strbuf_addstr(out, "<th class=\"n\">");
	esc_buf(out, &sb);
	strbuf_addstr(out, "</th><th class=\"n\">sd</th><th class=\"n\">median</th>"
		      "<th class=\"n\">change</th>");
	strbuf_addf(out, "<th class=\"n\">%g%% CI</th><th class=\"n\">q (BH)</th><th></th>",
		    m->opts.stats.confidence * 100);
	if (t->nr_steps)
		strbuf_addstr(out, "<th class=\"n\">against the step before</th><th></th>");
	strbuf_addstr(out, "<th class=\"n\">bzImage</th></tr></thead>\n<tbody>\n");
	for (i = 0; i < t->nr_order; i++)
		summary_row(out, m, t, t->order[i], decimals);
	strbuf_addstr(out, "</tbody></table></div>\n");
	strbuf_addf(out, "<p class=\"legend\">* significant (Benjamini\xE2\x80\x93Hochberg q &lt; "
		    "%g) and the interval lies outside \xC2\xB1%g%%; ~ significant but the "
		    "interval reaches into that noise band; none if not significant or the "
		    "interval lies wholly inside it; ? too few runs or the tests disagree. "
		    "%sbzImage: size "
		    "against the baseline&#39;s.</p>\n", m->opts.stats.alpha, m->opts.stats.noise,
		    t->nr_steps ? "A +step of the cumulative design adds its option to the step "
		    "before it; its increment is against that step (the first step&#39;s against "
		    "the baseline), with its own marker. " : "");
	if (t->aa_text) {
		strbuf_addstr(out, t->aa_marked ? "<p class=\"aa warn\">" : "<p class=\"aa\">");
		esc(out, t->aa_text);
		strbuf_addstr(out, ".</p>\n");
	}
	strbuf_addstr(out, "<figure>\n");
	report_svg_chart(out, m, t);
	strbuf_addstr(out, "</figure>\n");
	interactions(out, m, t);
	notes(out, m, t);
	strbuf_addstr(out, "</section>\n");
	strbuf_release(&sb);
}

static void diff_pre(struct strbuf *out, const char *diff)
{
	const char *p = diff, *nl;

	strbuf_addstr(out, "<pre>");
	while (*p) {
		struct strbuf line = STRBUF_INIT;
		const char *cls = *p == '+' ? "add" : *p == '-' ? "del" : "chg";

		nl = strchr(p, '\n');
		strbuf_add(&line, p, nl ? (size_t)(nl - p) : strlen(p));
		strbuf_addf(out, "<span class=\"%s\">", cls);
		esc(out, line.buf);
		strbuf_addstr(out, "</span>\n");
		strbuf_release(&line);
		p = nl ? nl + 1 : p + strlen(p);
	}
	strbuf_addstr(out, "</pre>\n");
}

static const char *badge_class(const struct analyze_variant *av)
{
	switch (av->state) {
	case ANALYZE_NO_OP:
		return "no-op";
	case ANALYZE_SAME_AS:
		return "same-as";
	case ANALYZE_BUILD_FAILED:
		return "failed";
	default:
		return "ok";
	}
}

/* Under a variant: the group it is, or the groups among the options it holds. */
static void group_members(struct strbuf *out, const struct analyze_model *m,
			  const struct analyze_variant *av)
{
	const char *p = av->v.options ? av->v.options : "", *nl;
	struct strbuf sb = STRBUF_INIT;

	for (; *p; p = nl ? nl + 1 : p + strlen(p)) {
		char *label;
		const struct analyze_group *g;

		nl = strchr(p, '\n');
		label = xstrndup(p, nl ? (size_t)(nl - p) : strlen(p));
		g = analyze_group(m, label);
		free(label);
		if (!g)
			continue;
		strbuf_addstr(out, "<p class=\"notes\">group <code>");
		esc(out, g->name);
		strbuf_addstr(out, "</code>: ");
		report_add_members(&sb, g);
		esc_buf(out, &sb);
		strbuf_addstr(out, "</p>\n");
	}
	strbuf_release(&sb);
}

static void groups(struct strbuf *out, const struct analyze_model *m)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, k;

	if (!m->nr_groups)
		return;
	strbuf_addstr(out, "<section id=\"groups\">\n<h2>Groups</h2>\n<p class=\"lead\">"
		      "Options measured together, as one variant.</p>\n<div class=\"card\">"
		      "<table><thead><tr><th>group</th><th>options</th></tr></thead><tbody>\n");
	for (i = 0; i < m->nr_groups; i++) {
		strbuf_addstr(out, "<tr><td class=\"name\">");
		esc(out, m->groups[i].name);
		strbuf_addstr(out, "</td><td class=\"name\">");
		for (k = 0; k < m->groups[i].members.nr; k++) {
			strbuf_addstr(&sb, m->groups[i].members.v[k]);
			strbuf_addstr(out, k ? "<br>" : "");
			esc_buf(out, &sb);
		}
		strbuf_addstr(out, "</td></tr>\n");
	}
	strbuf_addstr(out, "</tbody></table></div>\n</section>\n");
	strbuf_release(&sb);
}

static void variants(struct strbuf *out, const struct analyze_model *m)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	strbuf_addstr(out, "<section id=\"variants\">\n<h2>Variants</h2>\n<p class=\"lead\">"
		      "Each variant&#39;s effective configuration against the baseline, as the "
		      "kernel&#39;s own Kconfig resolved it (diffconfig format).</p>\n");
	for (i = 0; i < m->nr_variants; i++) {
		const struct analyze_variant *av = &m->variants[i];
		const struct store_variant *v = &av->v;

		strbuf_addstr(out, "<details><summary><code>");
		esc(out, v->name);
		strbuf_addf(out, "</code><span class=\"badge %s\">", badge_class(av));
		esc(out, av->state == ANALYZE_OK ? variant_status_name(v->status)
						   : analyze_state_name(av->state));
		strbuf_addstr(out, "</span> <span class=\"legend\">");
		if (v->kind)
			strbuf_addf(&sb, "%s", v->kind);
		if (v->added || v->removed || v->changed)
			strbuf_addf(&sb, ", %d added, %d removed, %d changed", v->added,
				    v->removed, v->changed);
		if (av->has_build && av->build.bzimage_size > 0) {
			strbuf_addstr(&sb, ", bzImage ");
			report_add_bytes(&sb, (double)av->build.bzimage_size, 0);
			if (av->has_size_delta && strcmp(v->kind, "baseline")) {
				strbuf_addstr(&sb, " (");
				report_add_bytes(&sb, (double)av->size_delta, 1);
				strbuf_addch(&sb, ')');
			}
		}
		esc_buf(out, &sb);
		strbuf_addstr(out, "</span></summary>\n");
		group_members(out, m, av);
		if (av->why || (v->reason && *v->reason)) {
			strbuf_addstr(out, "<p class=\"notes\">");
			esc(out, av->why ? av->why : v->reason);
			strbuf_addstr(out, "</p>\n");
		}
		if (v->effective_diff && *v->effective_diff)
			diff_pre(out, v->effective_diff);
		else
			strbuf_addstr(out, "<p class=\"notes\">no effective change recorded</p>\n");
		strbuf_addstr(out, "</details>\n");
	}
	strbuf_addstr(out, "</section>\n");
	strbuf_release(&sb);
}

static void not_measured(struct strbuf *out, const struct analyze_model *m)
{
	size_t i, n = 0;

	for (i = 0; i < m->nr_variants; i++) {
		const struct analyze_variant *av = &m->variants[i];

		if (!analyze_not_measured(m, av))
			continue;
		if (!n++)
			strbuf_addstr(out, "<section id=\"not-measured\">\n<h2>Not measured</h2>\n"
				      "<div class=\"card\"><table><thead><tr><th>variant</th>"
				      "<th>status</th><th>why</th></tr></thead><tbody>\n");
		strbuf_addstr(out, "<tr><td class=\"name\">");
		esc(out, av->v.name);
		strbuf_addstr(out, "</td><td>");
		esc(out, analyze_state_name(av->state));
		strbuf_addstr(out, "</td><td>");
		esc(out, av->why);
		strbuf_addstr(out, "</td></tr>\n");
	}
	if (n)
		strbuf_addstr(out, "</tbody></table></div>\n</section>\n");
}

static void environment(struct strbuf *out, const struct analyze_model *m)
{
	size_t i;

	strbuf_addstr(out, "<section id=\"environment\">\n<h2>Environment</h2>\n"
		      "<div class=\"card\"><table class=\"facts\"><tbody>\n");
	for (i = 0; i + 1 < m->facts.nr; i += 2) {
		if (!strcmp(m->facts.v[i], "screen_report"))
			continue;	/* a section of its own */
		strbuf_addstr(out, "<tr><th>");
		esc(out, m->facts.v[i]);
		strbuf_addstr(out, "</th><td>");
		esc(out, m->facts.v[i + 1]);
		strbuf_addstr(out, "</td></tr>\n");
	}
	strbuf_addf(out, "<tr><th>confidence</th><td>%g</td></tr>\n"
		    "<tr><th>noise band</th><td>\xC2\xB1%g%%</td></tr>\n",
		    m->opts.stats.confidence, m->opts.stats.noise);
	strbuf_addstr(out, "</tbody></table></div>\n</section>\n");
}

static void raw_data(struct strbuf *out, const struct analyze_model *m)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, j, first, n;

	strbuf_addf(out, "<section id=\"data\">\n<h2>Raw data</h2>\n<details><summary>%zu runs, "
		    "%zu samples (warm-ups and failed runs included)</summary>\n"
		    "<table class=\"raw\"><thead><tr><th>variant</th><th>workload</th>"
		    "<th>round</th><th>warm-up</th><th>accel</th><th>status</th><th>wall s</th>"
		    "<th>boot s</th><th>samples</th></tr></thead><tbody>\n",
		    m->nr_runs, m->nr_samples);
	for (i = 0; i < m->nr_runs; i++) {
		const struct store_run *r = &m->runs[i];
		const struct analyze_variant *av = analyze_run_variant(m, r);

		strbuf_addstr(out, "<tr><td class=\"name\">");
		esc(out, av ? av->v.name : "?");
		strbuf_addstr(out, "</td><td>");
		esc(out, r->workload);
		strbuf_addf(out, "</td><td class=\"n\">%d</td><td>%s</td><td>", r->round,
			    r->warmup ? "yes" : "");
		esc(out, r->accel);
		strbuf_addstr(out, "</td><td>");
		esc(out, run_status_name(r->status));
		if (r->error && *r->error) {
			strbuf_addstr(out, ": ");
			esc(out, r->error);
		}
		strbuf_addstr(out, "</td>");
		report_add_value(&sb, r->wall_s, 3);
		td_num(out, &sb, "");
		if (isfinite(r->boot_s))
			report_add_value(&sb, r->boot_s, 3);
		td_num(out, &sb, "");
		n = analyze_run_samples(m, r->id, &first);
		for (j = first; j < first + n; j++) {
			const struct store_sample_row *s = &m->samples[j];

			strbuf_addf(&sb, "%s%s[%d]=%.6g%s%s", j > first ? " " : "", s->metric,
				    s->iteration, s->value, *s->unit ? " " : "", s->unit);
		}
		strbuf_addstr(out, "<td>");
		esc_buf(out, &sb);
		strbuf_addstr(out, "</td></tr>\n");
	}
	strbuf_addstr(out, "</tbody></table>\n</details>\n</section>\n");
	strbuf_release(&sb);
}

/* A parameter series: a row per value, a column per variant (analyze.h). */
static void series_section(struct strbuf *out, const struct analyze_model *m,
			   const struct analyze_series *s, size_t nr)
{
	const struct analyze_table *first = &m->tables[s->first_table];
	struct strbuf sb = STRBUF_INIT;
	size_t i, v;

	strbuf_addf(out, "<section id=\"s%zu\">\n<h2>", nr);
	esc(out, s->label);
	strbuf_addstr(out, " \xE2\x80\x94 ");
	esc(out, s->metric);
	strbuf_addstr(out, "</h2>\n<p class=\"lead\">");
	if (*s->unit)
		strbuf_addf(&sb, "in %s, ", s->unit);
	strbuf_addf(&sb, "%s is better: %s; a row per %s, each member's own section below. Runs: ",
		    s->higher_is_better ? "higher" : "lower", report_metric_about(first), s->param);
	report_add_series_runs(&sb, s);
	strbuf_addf(&sb, "; %zu warm-ups and %zu failed runs excluded. Clock: %s.", s->warmups,
		    s->failed, first->clock_text);
	esc_buf(out, &sb);
	strbuf_addstr(out, "</p>\n<div class=\"card\"><table class=\"summary series\">\n"
		      "<thead><tr><th>");
	esc(out, s->param);
	strbuf_addstr(out, "</th>");
	for (v = 0; v < s->nr_variants; v++) {
		strbuf_addstr(out, "<th class=\"n\">");
		esc(out, m->variants[s->variants[v]].v.name);
		strbuf_addstr(out, "</th>");
	}
	strbuf_addstr(out, "</tr></thead>\n<tbody>\n");
	for (i = 0; i < s->nr_values; i++) {
		strbuf_addstr(out, "<tr><td class=\"name\">");
		esc(out, s->values[i]);
		strbuf_addstr(out, "</td>");
		for (v = 0; v < s->nr_variants; v++) {
			const struct analyze_row *r = analyze_series_cell(m, s, i, s->variants[v],
									  NULL);

			report_add_series_cell(&sb, m, s, i, s->variants[v]);
			td_num(out, &sb, r ? effect_class(r) : "");
		}
		strbuf_addstr(out, "</tr>\n");
	}
	strbuf_addstr(out, "</tbody></table></div>\n</section>\n");
	strbuf_release(&sb);
}

/*
 * A cell shaded by an effect: red for a cost, green for a gain, as deep as
 * the effect against full (a cost of full percent or more is the deepest),
 * so an option x kernel grid reads at a glance.  Not significant: no shade.
 */
static void td_shaded(struct strbuf *out, struct strbuf *sb, double change, int cost,
		      char marker, double full)
{
	double a = fabs(change) / full;

	if (isfinite(change) && (marker == '*' || marker == '~') && cost) {
		if (a > 1)
			a = 1;
		strbuf_addf(out, "<td class=\"n\" style=\"background:rgba(%s,%.2f)\">",
			    cost > 0 ? "200,55,75" : "35,148,106", 0.12 + 0.6 * a);
	} else {
		strbuf_addstr(out, "<td class=\"n\">");
	}
	esc_buf(out, sb);
	strbuf_addstr(out, "</td>");
}

/* Several sources: an option x kernel grid of costs, and each kernel against the first. */
static void across_section(struct strbuf *out, const struct analyze_model *m,
			   const struct analyze_across *a, size_t nr)
{
	int decimals = a->tables[0] == SIZE_MAX ? 3 : analyze_decimals(&m->tables[a->tables[0]]);
	struct strbuf sb = STRBUF_INIT, notes = STRBUF_INIT;
	size_t c, s;

	strbuf_addf(out, "<section id=\"k%zu\">\n<h2>", nr);
	esc(out, a->workload);
	strbuf_addstr(out, " \xE2\x80\x94 ");
	esc(out, a->metric);
	strbuf_addstr(out, ", kernel by kernel</h2>\n<p class=\"lead\">");
	for (s = 0; s < m->nr_sources; s++) {
		analyze_describe_source(&sb, &m->sources[s]);
		strbuf_addstr(&sb, s + 1 < m->nr_sources ? "; " : ". ");
	}
	strbuf_addstr(&sb, "Each option's cost against its kernel's own baseline (the baseline row: "
		      "the mean), shaded by cost; then, for each kernel after the first, the same "
		      "config against the first kernel's and the change of the option's cost "
		      "(the ratio of the two costs).");
	esc_buf(out, &sb);
	strbuf_addstr(out, "</p>\n<div class=\"card\"><table class=\"grid\">\n<thead><tr>"
		      "<th>variant</th>");
	for (s = 0; s < m->nr_sources; s++) {
		strbuf_addstr(out, "<th class=\"n\">");
		esc(out, m->sources[s].label);
		strbuf_addstr(out, "</th>");
	}
	for (s = 1; s < m->nr_sources; s++) {
		strbuf_addf(&sb, "%s against %s", m->sources[s].label, m->sources[0].label);
		strbuf_addstr(out, "<th class=\"n\">");
		esc_buf(out, &sb);
		strbuf_addstr(out, "</th><th class=\"n\">");
		strbuf_addf(&sb, "change of cost, %s", m->sources[s].label);
		esc_buf(out, &sb);
		strbuf_addstr(out, "</th>");
	}
	strbuf_addstr(out, "</tr></thead>\n<tbody>\n");
	for (c = 0; c < m->nr_counterparts; c++) {
		const struct analyze_counterpart *cp = &m->counterparts[c];
		int is_base = !strcmp(cp->name, "baseline");

		strbuf_addstr(out, is_base ? "<tr class=\"base\"><td class=\"name\">" :
			      "<tr><td class=\"name\">");
		esc(out, cp->name);
		strbuf_addstr(out, "</td>");
		for (s = 0; s < m->nr_sources; s++) {
			const struct analyze_row *r = report_across_row(m, a, c, s);

			report_add_across_cost(&sb, m, a, c, s, decimals);
			if (r && r->n && r->compared)
				td_shaded(out, &sb, r->cmp.change, r->cmp.cost, r->cmp.marker, 100);
			else
				td_num(out, &sb, "");
		}
		for (s = 1; s < m->nr_sources; s++) {
			const struct analyze_across_cell *cell = analyze_across_cell(m, a, c, s);

			report_add_across_same(&sb, cell);
			td_shaded(out, &sb, cell->has_same ? cell->same.change : NAN, cell->same.cost,
				  cell->same.marker, 25);
			report_add_cost_change(&sb, cell);
			td_shaded(out, &sb, cell->has_change ? cell->change.change : NAN,
				  cell->change.cost, cell->change.marker, 25);
		}
		strbuf_addstr(out, "</tr>\n");
		for (s = 0; s < m->nr_sources; s++) {
			size_t v = cp->variant[s];

			if (v != SIZE_MAX && analyze_not_measured(m, &m->variants[v]))
				strbuf_addf(&notes, "%s on %s: %s: %s\n", cp->name, m->sources[s].label,
					    analyze_state_name(m->variants[v].state),
					    m->variants[v].why);
			if (cp->differs && cp->differs[s])
				strbuf_addf(&notes, "%s: %s\n", cp->name, cp->differs[s]);
		}
		for (s = 1; s < m->nr_sources; s++) {
			strbuf_reset(&sb);
			if (report_add_patch_verdict(&sb, m, a, c, s))
				strbuf_addf(&notes, "%s\n", sb.buf);
			strbuf_reset(&sb);
			if (report_add_cost_verdict(&sb, m, a, c, s))
				strbuf_addf(&notes, "%s\n", sb.buf);
			strbuf_reset(&sb);
		}
	}
	strbuf_addstr(out, "</tbody></table></div>\n");
	if (notes.len) {
		const char *p = notes.buf, *nl;

		strbuf_addstr(out, "<ul class=\"notes\">\n");
		for (; (nl = strchr(p, '\n')); p = nl + 1) {
			strbuf_add(&sb, p, (size_t)(nl - p));
			strbuf_addstr(out, "<li>");
			esc_buf(out, &sb);
			strbuf_addstr(out, "</li>\n");
		}
		strbuf_addstr(out, "</ul>\n");
	}
	strbuf_addstr(out, "</section>\n");
	strbuf_release(&sb);
	strbuf_release(&notes);
}

/* Each patched source's builds beside the unpatched ones. */
static void patch_builds(struct strbuf *out, const struct analyze_model *m)
{
	struct strbuf sb = STRBUF_INIT;
	size_t s, c;

	for (s = 1; s < m->nr_sources; s++) {
		int any = 0;

		if (!m->sources[s].patch)
			continue;
		for (c = 0; c < m->nr_counterparts; c++) {
			strbuf_reset(&sb);
			if (!report_add_patch_build(&sb, m, c, s))
				continue;
			if (!any++) {
				strbuf_addstr(out, "<section>\n<h2>Builds of ");
				esc(out, m->sources[s].label);
				strbuf_addstr(out, ", beside the unpatched ones</h2>\n<div class=\"card\">"
					      "<table><thead><tr><th>variant</th><th>build</th></tr>"
					      "</thead>\n<tbody>\n");
			}
			strbuf_addstr(out, "<tr><td class=\"name\">");
			esc(out, m->counterparts[c].name);
			strbuf_addstr(out, "</td><td>");
			esc_buf(out, &sb);
			strbuf_addstr(out, "</td></tr>\n");
		}
		if (any)
			strbuf_addstr(out, "</tbody></table></div>\n</section>\n");
	}
	strbuf_release(&sb);
}

void report_html(struct strbuf *out, const struct analyze_model *m)
{
	size_t i;

	strbuf_addf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		    "<meta name=\"generator\" content=\"kconfperf %s\">\n"
		    "<title>kconfperf report</title>\n<style>%s</style>\n</head>\n<body>\n<main>\n",
		    KCONFPERF_VERSION, css);
	header(out, m);
	if (analyze_fact(m, "screen_report")) {
		strbuf_addstr(out, "<section id=\"screen\">\n<h2>Screen</h2>\n"
			      "<div class=\"card\"><pre>");
		esc(out, analyze_fact(m, "screen_report"));
		strbuf_addstr(out, "</pre></div>\n</section>\n");
	}
	if (!m->nr_tables)
		strbuf_addstr(out, "<p>No measured runs yet.</p>\n");
	for (i = 0; i < m->nr_tables; i++) {
		const struct analyze_table *t = &m->tables[i];

		/* a series before its members' own sections */
		if (t->series != SIZE_MAX && m->series[t->series].first_table == i)
			series_section(out, m, &m->series[t->series], t->series + 1);
		table_section(out, m, t, i + 1);
		if (analyze_across_after(m, i))
			across_section(out, m, analyze_across_after(m, i), i + 1);
	}
	groups(out, m);
	variants(out, m);
	not_measured(out, m);
	patch_builds(out, m);
	report_claims_html(out, m);
	report_sizes_html(out, m);
	report_findings_html(out, m);
	report_env_html(out, m);
	environment(out, m);
	raw_data(out, m);
	strbuf_addf(out, "<footer>Written by kconfperf %s.</footer>\n</main>\n</body>\n</html>\n",
		    KCONFPERF_VERSION);
}
