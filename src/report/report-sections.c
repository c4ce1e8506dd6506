/* report-sections.c: what else an option changes, laid out for each format. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdint.h>
#include <string.h>

#include "report/report-sections.h"
#include "stats/analyze-findings.h"
#include "stats/analyze.h"
#include "util/escape.h"
#include "util/json.h"
#include "util/strbuf.h"

#define NONE SIZE_MAX

static const char findings_intro[] =
	"what the kernels reported about themselves on their consoles "
	"(a fact about the kernel, not a failed run)";

void report_findings_text(struct strbuf *out, const struct analyze_model *m)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (!m->nr_findings)
		return;
	strbuf_addf(out, "\nkernel reports: %s:\n", findings_intro);
	for (i = 0; i < m->nr_findings; i++) {
		const struct analyze_finding *f = &m->findings[i];

		strbuf_reset(&sb);
		analyze_finding_describe(&sb, f);
		strbuf_addstr(out, "  ");
		strbuf_add_text(out, m->variants[f->variant].v.name);
		strbuf_addstr(out, ": ");
		strbuf_add_text(out, sb.buf);
		strbuf_addch(out, '\n');
	}
	strbuf_release(&sb);
}

void report_findings_markdown(struct strbuf *out, const struct analyze_model *m)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (!m->nr_findings)
		return;
	strbuf_addf(out, "\n## Kernel reports\n\nWhat the kernels reported about themselves on "
		    "their consoles (a fact about the kernel, not a failed run).\n\n");
	for (i = 0; i < m->nr_findings; i++) {
		const struct analyze_finding *f = &m->findings[i];

		strbuf_reset(&sb);
		analyze_finding_describe(&sb, f);
		strbuf_addstr(out, "- **");
		strbuf_add_markdown(out, m->variants[f->variant].v.name);
		strbuf_addstr(out, "**: ");
		strbuf_add_markdown(out, sb.buf);
		strbuf_addch(out, '\n');
	}
	strbuf_release(&sb);
}

void report_findings_html(struct strbuf *out, const struct analyze_model *m)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (!m->nr_findings)
		return;
	strbuf_addstr(out, "<section id=\"findings\">\n<h2>Kernel reports</h2>\n<p>");
	strbuf_add_xml(out, findings_intro);
	strbuf_addstr(out, ".</p>\n<div class=\"card\"><table><thead><tr><th>variant</th>"
		      "<th>kind</th><th>report</th><th>runs</th><th>baseline</th>"
		      "<th>workloads</th></tr></thead><tbody>\n");
	for (i = 0; i < m->nr_findings; i++) {
		const struct analyze_finding *f = &m->findings[i];

		strbuf_addstr(out, "<tr><td class=\"name\">");
		strbuf_add_xml(out, m->variants[f->variant].v.name);
		strbuf_addstr(out, "</td><td>");
		strbuf_add_xml(out, finding_kind_name(f->kind));
		strbuf_addstr(out, "</td><td><details><summary>");
		strbuf_add_xml(out, f->line);
		strbuf_addstr(out, "</summary><pre>");
		strbuf_add_xml(out, f->text);
		strbuf_addf(out, "</pre></details></td><td class=\"n\">%zu of %zu</td><td>", f->runs,
			    f->of);
		if (f->baseline == NONE)
			strbuf_addstr(out, "\xE2\x80\x94");
		else
			strbuf_addf(out, "%s: %zu of %zu", f->baseline_runs ? "too" : "no",
				    f->baseline_runs, f->baseline_of);
		strbuf_addstr(out, "</td><td>");
		strbuf_add_xml(out, f->workloads ? f->workloads : "");
		strbuf_addstr(out, "</td></tr>\n");
	}
	strbuf_addstr(out, "</tbody></table></div>\n</section>\n");
	strbuf_release(&sb);
}

void report_findings_json(struct json_writer *jw, const struct analyze_model *m)
{
	size_t i;

	jw_object_inline_begin_array(jw, "findings");
	for (i = 0; i < m->nr_findings; i++) {
		const struct analyze_finding *f = &m->findings[i];

		jw_array_inline_begin_object(jw);
		jw_object_string(jw, "variant", m->variants[f->variant].v.name);
		jw_object_string(jw, "kind", finding_kind_name(f->kind));
		jw_object_string(jw, "line", f->line);
		jw_object_intmax(jw, "runs", (intmax_t)f->runs);
		jw_object_intmax(jw, "of", (intmax_t)f->of);
		jw_object_intmax(jw, "reports", (intmax_t)f->reports);
		jw_object_string(jw, "workloads", f->workloads ? f->workloads : "");
		if (f->baseline == NONE) {
			jw_object_null(jw, "baseline_runs");
			jw_object_null(jw, "baseline_of");
		} else {
			jw_object_intmax(jw, "baseline_runs", (intmax_t)f->baseline_runs);
			jw_object_intmax(jw, "baseline_of", (intmax_t)f->baseline_of);
		}
		jw_object_string(jw, "text", f->text);
		jw_end(jw);
	}
	jw_end(jw);
}

void report_findings_mmtests(struct strbuf *out, const struct analyze_model *m)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (!m->nr_findings)
		return;
	strbuf_addstr(out, "\nKernel reports\n");
	for (i = 0; i < m->nr_findings; i++) {
		const struct analyze_finding *f = &m->findings[i];

		strbuf_reset(&sb);
		analyze_finding_describe(&sb, f);
		strbuf_add_text(out, m->variants[f->variant].v.name);
		strbuf_addstr(out, ": ");
		strbuf_add_text(out, sb.buf);
		strbuf_addch(out, '\n');
	}
	strbuf_release(&sb);
}
