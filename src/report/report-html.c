/* report-html.c: the whole report as one self-contained HTML page. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "stats/analyze.h"
#include "util/escape.h"
#include "report/report-doc.h"
#include "report/report-util.h"
#include "report/report-writers.h"
#include "util/strbuf.h"
#include "util/version.h"
#include "util/wrapper.h"

/*
 * One file that opens anywhere, offline: inline CSS, inline SVG charts, no
 * scripts, no fonts or images fetched.  The report's document (report-doc.h)
 * rendered as sections, cards and charts, then what only a page shows:
 * every variant's effective config diff in a collapsible <details> with its
 * image size against the baseline's (and the groups among its options), and
 * the raw data, one row per run.  All data goes through strbuf_add_xml().
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

static const char *const tone_class[] = {
	[DOC_PLAIN] = "", [DOC_COST] = "cost", [DOC_GAIN] = "gain", [DOC_NOISE] = "noise",
};

static const char *const style_class[] = {
	[DOC_BODY] = "", [DOC_LEGEND] = "legend", [DOC_NOTES] = "notes", [DOC_AA] = "aa",
	[DOC_WARN] = "aa warn",
};

static void heading(struct strbuf *out, const char *tag, const char *title, int word)
{
	struct strbuf sb = STRBUF_INIT;

	doc_add_heading(&sb, title, word);
	strbuf_addf(out, "<%s>", tag);
	esc_buf(out, &sb);
	strbuf_addf(out, "</%s>\n", tag);
	strbuf_release(&sb);
}

static void cell(struct strbuf *out, const struct doc_col *col, const struct doc_cell *c)
{
	static const char *const kind_class[] = {
		[DOC_COL_TEXT] = "", [DOC_COL_NAME] = "name", [DOC_COL_NUM] = "n",
		[DOC_COL_MARK] = "mark",
	};
	const char *kc = kind_class[col->kind], *tc = c->shade > 0 ? "" : tone_class[c->tone];
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	strbuf_addstr(out, "<td");
	if (*kc || *tc)
		strbuf_addf(out, " class=\"%s%s%s\"", kc, *kc && *tc ? " " : "", tc);
	if (c->shade > 0)
		strbuf_addf(out, " style=\"background:rgba(%s,%.2f)\"",
			    c->tone == DOC_COST ? "200,55,75" : "35,148,106", c->shade);
	strbuf_addch(out, '>');
	doc_cell_add(&sb, c);
	esc_buf(out, &sb);
	for (i = 0; i < c->nr_notes; i++) {
		if (!(c->notes[i].formats & DOC_HTML))
			continue;
		strbuf_addf(out, "<span class=\"badge %s\">", c->notes[i].class);
		esc(out, c->notes[i].text);
		strbuf_addstr(out, "</span>");
	}
	strbuf_addstr(out, "</td>");
	strbuf_release(&sb);
}

static void table(struct strbuf *out, const struct doc_table *t)
{
	size_t i, k;

	strbuf_addstr(out, "<div class=\"card\"><table");
	if (t->class)
		strbuf_addf(out, " class=\"%s\"", t->class);
	strbuf_addstr(out, ">\n<thead><tr>");
	for (k = 0; k < t->nr_cols; k++) {
		if (!doc_col_shown(t, k, DOC_HTML))
			continue;
		strbuf_addstr(out, t->cols[k].kind == DOC_COL_NUM ? "<th class=\"n\">" : "<th>");
		esc(out, t->cols[k].head);
		strbuf_addstr(out, "</th>");
	}
	strbuf_addstr(out, "</tr></thead>\n<tbody>\n");
	for (i = 0; i < t->nr_rows; i++) {
		strbuf_addstr(out, t->rows[i].emph ? "<tr class=\"base\">" : "<tr>");
		for (k = 0; k < t->nr_cols; k++)
			if (doc_col_shown(t, k, DOC_HTML))
				cell(out, &t->cols[k], &t->rows[i].cells[k]);
		strbuf_addstr(out, "</tr>\n");
	}
	strbuf_addstr(out, "</tbody></table></div>\n");
}

static void open_tag(struct strbuf *out, const char *tag, enum doc_style style)
{
	if (*style_class[style])
		strbuf_addf(out, "<%s class=\"%s\">", tag, style_class[style]);
	else
		strbuf_addf(out, "<%s>", tag);
}

static void block(struct strbuf *out, const struct doc *d, const struct doc_block *b)
{
	size_t i;

	if (b->title)
		heading(out, "h3", b->title, b->title_word);
	switch (b->kind) {
	case DOC_PARA:
		open_tag(out, "p", b->style);
		for (i = 0; i < b->lines.nr; i++) {
			const char *l = b->lines.v[i];

			if (i)
				while (*l == ' ')
					l++;
			strbuf_addstr(out, i ? " " : "");
			esc(out, l);
		}
		strbuf_addstr(out, "</p>\n");
		break;
	case DOC_LIST:
		open_tag(out, "ul", b->style);
		strbuf_addch(out, '\n');
		for (i = 0; i < b->lines.nr; i++) {
			strbuf_addstr(out, "<li>");
			esc(out, b->lines.v[i]);
			strbuf_addstr(out, "</li>\n");
		}
		strbuf_addstr(out, "</ul>\n");
		break;
	case DOC_PRE:
		open_tag(out, "pre", b->style);
		for (i = 0; i < b->lines.nr; i++) {
			esc(out, b->lines.v[i]);
			strbuf_addch(out, '\n');
		}
		strbuf_addstr(out, "</pre>\n");
		break;
	case DOC_TABLE:
		table(out, &b->table);
		break;
	case DOC_CHART:
		strbuf_addstr(out, "<figure>\n");
		report_svg_chart(out, d->m, &d->m->tables[b->chart]);
		strbuf_addstr(out, "</figure>\n");
		break;
	}
}

static void facts(struct strbuf *out, const struct doc_fact *f, size_t nr)
{
	struct strbuf sb = STRBUF_INIT;

	if (!nr)
		return;
	doc_add_facts(&sb, f, nr, " ", " \xC2\xB7 ");
	strbuf_addstr(out, "<p class=\"lead\">");
	esc_buf(out, &sb);
	strbuf_addstr(out, "</p>\n");
	strbuf_release(&sb);
}

static void header(struct strbuf *out, const struct doc *d)
{
	size_t i, navs = 0;

	strbuf_addstr(out, "<header><h1>kconfperf report</h1>");
	facts(out, d->facts, d->nr_facts);
	for (i = 0; i < d->nr_sections; i++)
		navs += d->sections[i].nav && (d->sections[i].formats & DOC_HTML);
	if (navs > 1) {
		strbuf_addstr(out, "<nav>");
		for (i = 0; i < d->nr_sections; i++) {
			const struct doc_section *s = &d->sections[i];

			if (!s->nav || !(s->formats & DOC_HTML))
				continue;
			strbuf_addstr(out, "<a href=\"#");
			esc(out, s->id);
			strbuf_addstr(out, "\">");
			esc(out, s->nav);
			strbuf_addstr(out, "</a>");
		}
		strbuf_addstr(out, "</nav>");
	}
	strbuf_addstr(out, "</header>\n");
}

static void section(struct strbuf *out, const struct doc *d, const struct doc_section *s)
{
	size_t i;

	strbuf_addstr(out, "<section");
	if (s->id) {
		strbuf_addstr(out, " id=\"");
		esc(out, s->id);
		strbuf_addch(out, '"');
	}
	strbuf_addstr(out, ">\n");
	if (s->title && (s->title_formats & DOC_HTML))
		heading(out, "h2", s->title, s->title_word);
	facts(out, s->facts, s->nr_facts);
	for (i = 0; i < s->nr_blocks; i++)
		if (s->blocks[i].formats & DOC_HTML)
			block(out, d, &s->blocks[i]);
	strbuf_addstr(out, "</section>\n");
}

static void td_num(struct strbuf *out, struct strbuf *sb, const char *class)
{
	strbuf_addf(out, "<td class=\"n%s%s\">", *class ? " " : "", class);
	esc_buf(out, sb);
	strbuf_addstr(out, "</td>");
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


void doc_render_html(struct strbuf *out, const struct doc *d)
{
	size_t i;

	strbuf_addf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		    "<meta name=\"generator\" content=\"kconfperf %s\">\n"
		    "<title>kconfperf report</title>\n<style>%s</style>\n</head>\n<body>\n<main>\n",
		    KCONFPERF_VERSION, css);
	header(out, d);
	for (i = 0; i < d->nr_sections; i++)
		if (d->sections[i].formats & DOC_HTML)
			section(out, d, &d->sections[i]);
	variants(out, d->m);
	raw_data(out, d->m);
	strbuf_addf(out, "<footer>Written by kconfperf %s.</footer>\n</main>\n</body>\n</html>\n",
		    KCONFPERF_VERSION);
}

void report_html(struct strbuf *out, const struct analyze_model *m)
{
	struct doc d = DOC_INIT;

	report_doc_build(&d, m);
	doc_render_html(out, &d);
	doc_release(&d);
}
