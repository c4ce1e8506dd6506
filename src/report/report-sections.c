/* report-sections.c: what else an option changes, laid out for each format. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdint.h>
#include <string.h>

#include "report/report-sections.h"
#include "report/report-util.h"
#include "stats/analyze-claims.h"
#include "stats/analyze-env.h"
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

/* The size columns: bzImage, text, data, bss. */
#define SIZE_COLUMNS 4
static const char *const size_heads[SIZE_COLUMNS] = { "bzImage", "text", "data", "bss" };

static int has_sections(const struct analyze_model *m)
{
	size_t i;

	for (i = 0; i < m->nr_variants; i++)
		if (m->variants[i].has_build && m->variants[i].build.text_size >= 0)
			return 1;
	return 0;
}

/* Whether a variant gets a row: it has a build of its own that is ok. */
static int has_size_row(const struct analyze_variant *av)
{
	return av->has_build && av->state == ANALYZE_OK && av->build.bzimage_size > 0;
}

static void add_size(struct strbuf *sb, int64_t abs, int has_delta, int64_t delta, int baseline)
{
	if (!baseline && has_delta)
		report_add_bytes(sb, (double)delta, 1);
	else if (abs >= 0)
		report_add_bytes(sb, (double)abs, 0);
	else
		strbuf_addch(sb, '-');
}

/* The four cells of a variant's row (emptied first). */
static void size_cells(struct strbuf cells[SIZE_COLUMNS], const struct analyze_variant *av)
{
	const struct store_build *b = &av->build;
	int base = !strcmp(av->v.kind, "baseline");
	int i;

	for (i = 0; i < SIZE_COLUMNS; i++)
		strbuf_reset(&cells[i]);
	add_size(&cells[0], b->bzimage_size, av->has_size_delta, av->size_delta, base);
	add_size(&cells[1], b->text_size, av->has_sections_delta, av->text_delta, base);
	add_size(&cells[2], b->data_size, av->has_sections_delta, av->data_delta, base);
	add_size(&cells[3], b->bss_size, av->has_sections_delta, av->bss_delta, base);
}

static const char sizes_intro[] =
	"vmlinux by section beside bzImage (compressed and page-granular: a leaf option "
	"often leaves it the same): the baseline's sizes, every other variant's change against it";

void report_sizes_text(struct strbuf *out, const struct analyze_model *m)
{
	struct strbuf cells[SIZE_COLUMNS], name = STRBUF_INIT;
	size_t i, width = strlen("variant");
	int c;

	if (!has_sections(m))
		return;
	for (c = 0; c < SIZE_COLUMNS; c++)
		strbuf_init(&cells[c], 0);
	for (i = 0; i < m->nr_variants; i++)
		if (has_size_row(&m->variants[i]) && strlen(m->variants[i].v.name) > width)
			width = strlen(m->variants[i].v.name);
	strbuf_addf(out, "\nimage size: %s:\n  %-*s", sizes_intro, (int)width, "variant");
	for (c = 0; c < SIZE_COLUMNS; c++)
		strbuf_addf(out, " %12s", size_heads[c]);
	strbuf_addch(out, '\n');
	for (i = 0; i < m->nr_variants; i++) {
		const struct analyze_variant *av = &m->variants[i];

		if (!has_size_row(av))
			continue;
		size_cells(cells, av);
		strbuf_reset(&name);
		strbuf_add_text(&name, av->v.name);
		strbuf_addf(out, "  %-*s", (int)width, name.buf);
		for (c = 0; c < SIZE_COLUMNS; c++)
			strbuf_addf(out, " %12s", cells[c].buf);
		strbuf_addch(out, '\n');
	}
	for (c = 0; c < SIZE_COLUMNS; c++)
		strbuf_release(&cells[c]);
	strbuf_release(&name);
}

void report_sizes_markdown(struct strbuf *out, const struct analyze_model *m)
{
	struct strbuf cells[SIZE_COLUMNS];
	size_t i;
	int c;

	if (!has_sections(m))
		return;
	for (c = 0; c < SIZE_COLUMNS; c++)
		strbuf_init(&cells[c], 0);
	strbuf_addstr(out, "\n## Image size\n\n");
	strbuf_add_markdown(out, sizes_intro);
	strbuf_addstr(out, ".\n\n| variant | bzImage | text | data | bss |\n|:--|--:|--:|--:|--:|\n");
	for (i = 0; i < m->nr_variants; i++) {
		const struct analyze_variant *av = &m->variants[i];

		if (!has_size_row(av))
			continue;
		size_cells(cells, av);
		strbuf_addstr(out, "| ");
		strbuf_add_markdown(out, av->v.name);
		for (c = 0; c < SIZE_COLUMNS; c++)
			strbuf_addf(out, " | %s", cells[c].buf);
		strbuf_addstr(out, " |\n");
	}
	for (c = 0; c < SIZE_COLUMNS; c++)
		strbuf_release(&cells[c]);
}

void report_sizes_html(struct strbuf *out, const struct analyze_model *m)
{
	struct strbuf cells[SIZE_COLUMNS];
	size_t i;
	int c;

	if (!has_sections(m))
		return;
	for (c = 0; c < SIZE_COLUMNS; c++)
		strbuf_init(&cells[c], 0);
	strbuf_addstr(out, "<section id=\"sizes\">\n<h2>Image size</h2>\n<p>");
	strbuf_add_xml(out, sizes_intro);
	strbuf_addstr(out, ".</p>\n<div class=\"card\"><table><thead><tr><th>variant</th>");
	for (c = 0; c < SIZE_COLUMNS; c++)
		strbuf_addf(out, "<th>%s</th>", size_heads[c]);
	strbuf_addstr(out, "</tr></thead><tbody>\n");
	for (i = 0; i < m->nr_variants; i++) {
		const struct analyze_variant *av = &m->variants[i];

		if (!has_size_row(av))
			continue;
		size_cells(cells, av);
		strbuf_addstr(out, "<tr><td class=\"name\">");
		strbuf_add_xml(out, av->v.name);
		strbuf_addstr(out, "</td>");
		for (c = 0; c < SIZE_COLUMNS; c++) {
			strbuf_addstr(out, "<td class=\"n\">");
			strbuf_add_xml(out, cells[c].buf);
			strbuf_addstr(out, "</td>");
		}
		strbuf_addstr(out, "</tr>\n");
	}
	strbuf_addstr(out, "</tbody></table></div>\n</section>\n");
	for (c = 0; c < SIZE_COLUMNS; c++)
		strbuf_release(&cells[c]);
}

void report_env_text(struct strbuf *out, const struct analyze_model *m)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (!m->nr_env)
		return;
	strbuf_addstr(out, "\nenvironment:\n");
	for (i = 0; i < m->nr_env; i++) {
		const struct analyze_env_fact *f = &m->env[i];

		strbuf_reset(&sb);
		strbuf_add_text(&sb, f->value);
		strbuf_addf(out, "  %-14s%s\n", f->name, sb.buf);
		if (!f->differs)
			continue;
		strbuf_reset(&sb);
		analyze_env_describe_differs(&sb, m, f);
		strbuf_addf(out, "  %-14s", "");
		strbuf_addstr(out, "differs: ");
		strbuf_add_text(out, sb.buf);
		strbuf_addch(out, '\n');
	}
	strbuf_release(&sb);
}

void report_env_markdown(struct strbuf *out, const struct analyze_model *m)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (!m->nr_env)
		return;
	strbuf_addstr(out, "\n## Environment\n\n| | |\n|:--|:--|\n");
	for (i = 0; i < m->nr_env; i++) {
		const struct analyze_env_fact *f = &m->env[i];

		strbuf_addstr(out, "| ");
		strbuf_add_markdown(out, f->name);
		strbuf_addstr(out, " | ");
		strbuf_add_markdown(out, f->value);
		if (f->differs) {
			strbuf_reset(&sb);
			analyze_env_describe_differs(&sb, m, f);
			strbuf_addstr(out, "; **differs**: ");
			strbuf_add_markdown(out, sb.buf);
		}
		strbuf_addstr(out, " |\n");
	}
	strbuf_release(&sb);
}

void report_env_html(struct strbuf *out, const struct analyze_model *m)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (!m->nr_env)
		return;
	strbuf_addstr(out, "<section id=\"conditions\">\n<h2>Measured under</h2>\n"
		      "<div class=\"card\"><table class=\"facts\"><tbody>\n");
	for (i = 0; i < m->nr_env; i++) {
		const struct analyze_env_fact *f = &m->env[i];

		strbuf_addstr(out, "<tr><th>");
		strbuf_add_xml(out, f->name);
		strbuf_addstr(out, "</th><td>");
		strbuf_add_xml(out, f->value);
		if (f->differs) {
			strbuf_reset(&sb);
			analyze_env_describe_differs(&sb, m, f);
			strbuf_addstr(out, "<br><strong>differs:</strong> ");
			strbuf_add_xml(out, sb.buf);
		}
		strbuf_addstr(out, "</td></tr>\n");
	}
	strbuf_addstr(out, "</tbody></table></div>\n</section>\n");
	strbuf_release(&sb);
}

void report_env_json(struct json_writer *jw, const struct analyze_model *m)
{
	size_t i, k;

	jw_object_inline_begin_array(jw, "environment");
	for (i = 0; i < m->nr_env; i++) {
		const struct analyze_env_fact *f = &m->env[i];

		jw_array_inline_begin_object(jw);
		jw_object_string(jw, "name", f->name);
		jw_object_string(jw, "value", f->value);
		jw_object_bool(jw, "differs", f->differs);
		if (f->differs) {
			jw_object_inline_begin_object(jw, "variants");
			for (k = 0; k < m->nr_variants; k++)
				if (f->values[k])
					jw_object_string(jw, m->variants[k].v.name, f->values[k]);
			jw_end(jw);
		}
		jw_end(jw);
	}
	jw_end(jw);
}

static const char claims_intro[] =
	"what the options' Kconfig help texts claim they cost, beside what was measured";

/* "boot: time" */
static void add_table_name(struct strbuf *sb, const struct analyze_table *t)
{
	strbuf_addf(sb, "%s: %s", t->workload, t->metric);
}

void report_claims_text(struct strbuf *out, const struct analyze_model *m)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, t;

	if (!m->nr_claims)
		return;
	strbuf_addf(out, "\nhelp texts: %s:\n", claims_intro);
	for (i = 0; i < m->nr_claims; i++) {
		const struct analyze_claim *c = &m->claims[i];
		int any = 0;

		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s: ", m->variants[c->variant].v.name);
		analyze_claim_describe(&sb, c);
		strbuf_addstr(out, "  ");
		strbuf_add_text(out, sb.buf);
		strbuf_addch(out, '\n');
		for (t = 0; t < m->nr_tables; t++) {
			strbuf_reset(&sb);
			add_table_name(&sb, &m->tables[t]);
			strbuf_addch(&sb, ' ');
			if (!analyze_claim_measured(&sb, m, c, t))
				continue;
			strbuf_addstr(out, "    measured ");
			strbuf_add_text(out, sb.buf);
			strbuf_addch(out, '\n');
			any = 1;
		}
		if (!any) {
			strbuf_reset(&sb);
			analyze_claim_unmeasured(&sb, m, c);
			strbuf_addstr(out, "    ");
			strbuf_add_text(out, sb.buf);
			strbuf_addch(out, '\n');
		}
	}
	strbuf_release(&sb);
}

void report_claims_markdown(struct strbuf *out, const struct analyze_model *m)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, t;

	if (!m->nr_claims)
		return;
	strbuf_addstr(out, "\n## Kconfig's claims\n\n");
	strbuf_add_markdown(out, claims_intro);
	strbuf_addstr(out, ".\n\n| variant | help text | measured |\n|:--|:--|:--|\n");
	for (i = 0; i < m->nr_claims; i++) {
		const struct analyze_claim *c = &m->claims[i];
		int any = 0;

		strbuf_addstr(out, "| ");
		strbuf_add_markdown(out, m->variants[c->variant].v.name);
		strbuf_addstr(out, " | ");
		strbuf_reset(&sb);
		analyze_claim_describe(&sb, c);
		strbuf_add_markdown(out, sb.buf);
		strbuf_addstr(out, " | ");
		for (t = 0; t < m->nr_tables; t++) {
			strbuf_reset(&sb);
			add_table_name(&sb, &m->tables[t]);
			strbuf_addch(&sb, ' ');
			if (!analyze_claim_measured(&sb, m, c, t))
				continue;
			if (any++)
				strbuf_addstr(out, "; ");
			strbuf_add_markdown(out, sb.buf);
		}
		if (!any) {
			strbuf_reset(&sb);
			analyze_claim_unmeasured(&sb, m, c);
			strbuf_add_markdown(out, sb.buf);
		}
		strbuf_addstr(out, " |\n");
	}
	strbuf_release(&sb);
}

void report_claims_html(struct strbuf *out, const struct analyze_model *m)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, t;

	if (!m->nr_claims)
		return;
	strbuf_addstr(out, "<section id=\"claims\">\n<h2>Kconfig's claims</h2>\n<p>");
	strbuf_add_xml(out, claims_intro);
	strbuf_addstr(out, ".</p>\n<div class=\"card\"><table><thead><tr><th>variant</th>"
		      "<th>symbol</th><th>help text</th><th>measured</th></tr></thead><tbody>\n");
	for (i = 0; i < m->nr_claims; i++) {
		const struct analyze_claim *c = &m->claims[i];
		int any = 0;

		strbuf_addstr(out, "<tr><td class=\"name\">");
		strbuf_add_xml(out, m->variants[c->variant].v.name);
		strbuf_addstr(out, "</td><td>");
		strbuf_add_xml(out, c->symbol);
		strbuf_addstr(out, " <span class=\"legend\">");
		strbuf_add_xml(out, c->location);
		strbuf_addstr(out, "</span></td><td>");
		strbuf_add_xml(out, c->sentence);
		strbuf_addstr(out, "</td><td>");
		for (t = 0; t < m->nr_tables; t++) {
			strbuf_reset(&sb);
			add_table_name(&sb, &m->tables[t]);
			strbuf_addch(&sb, ' ');
			if (!analyze_claim_measured(&sb, m, c, t))
				continue;
			if (any++)
				strbuf_addstr(out, "<br>");
			strbuf_add_xml(out, sb.buf);
		}
		if (!any) {
			strbuf_reset(&sb);
			analyze_claim_unmeasured(&sb, m, c);
			strbuf_add_xml(out, sb.buf);
		}
		strbuf_addstr(out, "</td></tr>\n");
	}
	strbuf_addstr(out, "</tbody></table></div>\n</section>\n");
	strbuf_release(&sb);
}

void report_claims_json(struct json_writer *jw, const struct analyze_model *m)
{
	size_t i, t, r;

	jw_object_inline_begin_array(jw, "claims");
	for (i = 0; i < m->nr_claims; i++) {
		const struct analyze_claim *c = &m->claims[i];

		jw_array_inline_begin_object(jw);
		jw_object_string(jw, "variant", m->variants[c->variant].v.name);
		jw_object_string(jw, "symbol", c->symbol);
		jw_object_string(jw, "location", c->location);
		jw_object_string(jw, "sentence", c->sentence);
		jw_object_inline_begin_array(jw, "measured");
		for (t = 0; t < m->nr_tables; t++) {
			const struct analyze_table *tab = &m->tables[t];

			for (r = 0; r < tab->nr_rows; r++) {
				const struct analyze_row *row = &tab->rows[r];

				if (row->variant != c->variant || !row->compared)
					continue;
				jw_array_inline_begin_object(jw);
				jw_object_string(jw, "workload", tab->workload);
				jw_object_string(jw, "metric", tab->metric);
				jw_object_double(jw, "change_pct", row->cmp.change);
				jw_object_double(jw, "change_lo_pct", row->cmp.change_lo);
				jw_object_double(jw, "change_hi_pct", row->cmp.change_hi);
				jw_object_double(jw, "ratio", row->cmp.ratio);
				jw_end(jw);
			}
		}
		jw_end(jw);
		jw_end(jw);
	}
	jw_end(jw);
}
