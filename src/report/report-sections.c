/* report-sections.c: what else an option changes (claims, image size, kernel reports, environment): sections of the document, and JSON and mmtests. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdint.h>
#include <string.h>

#include "report/report-doc.h"
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
	"What the kernels reported about themselves on their consoles "
	"(a fact about the kernel, not a failed run)";

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

/* The size columns: bzImage; text, data, bss by section; the same by symbol. */
#define SIZE_COLUMNS 7
#define SYMBOL_COLUMNS 3	/* the last three, left out when no build has them */
static const char *const size_heads[SIZE_COLUMNS] = {
	"bzImage", "text", "data", "bss", "sym text", "sym data", "sym bss"
};

/* Which sizes the builds have: 1 for sections, 2 for symbols (or'ed). */
static int sizes_known(const struct analyze_model *m)
{
	int known = 0;
	size_t i;

	for (i = 0; i < m->nr_variants; i++) {
		const struct analyze_variant *av = &m->variants[i];

		if (!av->has_build)
			continue;
		known |= av->build.sections.text >= 0;
		known |= (av->build.symbols.text >= 0) << 1;
	}
	return known;
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

/* A class's three cells (text, data, bss) from its sizes and delta. */
static void add_sizes(struct strbuf cells[3], const struct store_sizes *abs, int has_delta,
		      const struct store_sizes *delta, int baseline)
{
	add_size(&cells[0], abs->text, has_delta, delta->text, baseline);
	add_size(&cells[1], abs->data, has_delta, delta->data, baseline);
	add_size(&cells[2], abs->bss, has_delta, delta->bss, baseline);
}

/* The cells of a variant's row (emptied first). */
static void size_cells(struct strbuf cells[SIZE_COLUMNS], const struct analyze_variant *av)
{
	const struct store_build *b = &av->build;
	int base = !strcmp(av->v.kind, "baseline");
	int i;

	for (i = 0; i < SIZE_COLUMNS; i++)
		strbuf_reset(&cells[i]);
	add_size(&cells[0], b->bzimage_size, av->has_size_delta, av->size_delta, base);
	add_sizes(&cells[1], &b->sections, av->has_sections_delta, &av->sections_delta, base);
	add_sizes(&cells[4], &b->symbols, av->has_symbols_delta, &av->symbols_delta, base);
}

static const char sizes_intro[] =
	"bzImage (compressed and page-granular) and vmlinux's text, data and bss by section, as "
	"size(1) adds them up (padded by the linker script: a leaf option often leaves both the "
	"same)";
static const char symbols_intro[] =
	" and by symbol (sym), as the kernel's scripts/bloat-o-meter does (every function and "
	"object, padding left out: where a leaf option shows)";

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
	"What the options' Kconfig help texts claim they cost, beside what was measured";

/* "boot: time" */
static void add_table_name(struct strbuf *sb, const struct analyze_table *t)
{
	strbuf_addf(sb, "%s: %s", t->workload, t->metric);
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

/*
 * The sections of issue 26 on the document model (report-doc.h): added to
 * report_sections[] in report-build.c.  JSON and mmtests keep their own
 * shapes (report_*_json(), report_findings_mmtests()).
 */

/* Kconfig's claims: one item per claim, its measurements after it. */
void report_claims_section(struct doc *d, const struct analyze_model *m)
{
	struct strbuf sb = STRBUF_INIT;
	struct doc_section *s;
	struct doc_block *b;
	size_t i, t;

	if (!m->nr_claims)
		return;
	s = doc_add_section(d, "claims", DOC_ALL);
	doc_title(s, 0, "Kconfig's claims:");
	doc_add_para(s, DOC_BODY, "%s.", claims_intro);
	b = doc_add_block(s, DOC_LIST, DOC_BODY);
	b->indent_text = 2;
	for (i = 0; i < m->nr_claims; i++) {
		const struct analyze_claim *c = &m->claims[i];
		int any = 0;

		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s: ", m->variants[c->variant].v.name);
		analyze_claim_describe(&sb, c);
		strbuf_addstr(&sb, "; measured ");
		for (t = 0; t < m->nr_tables; t++) {
			size_t len = sb.len;

			if (any)
				strbuf_addstr(&sb, "; ");
			add_table_name(&sb, &m->tables[t]);
			strbuf_addch(&sb, ' ');
			if (analyze_claim_measured(&sb, m, c, t))
				any = 1;
			else
				strbuf_setlen(&sb, len);
		}
		if (!any) {
			strbuf_setlen(&sb, sb.len - strlen("; measured "));
			strbuf_addstr(&sb, "; ");
			analyze_claim_unmeasured(&sb, m, c);
		}
		doc_line(b, "%s", sb.buf);
	}
	strbuf_release(&sb);
}

/* Image size: bzImage beside vmlinux's text, data and bss. */
void report_sizes_section(struct doc *d, const struct analyze_model *m)
{
	struct strbuf cells[SIZE_COLUMNS];
	struct doc_section *s;
	struct doc_table *dt;
	size_t i;
	int c, known, columns;

	if (!(known = sizes_known(m)))
		return;
	columns = known & 2 ? SIZE_COLUMNS : SIZE_COLUMNS - SYMBOL_COLUMNS;
	s = doc_add_section(d, "sizes", DOC_ALL);
	doc_title(s, DOC_WORD, "image size:");
	doc_add_para(s, DOC_BODY, "%s%s. The baseline's sizes; every other variant's change "
		     "against it.", sizes_intro, known & 2 ? symbols_intro : "");
	dt = doc_add_table(s, NULL);
	dt->indent_text = 2;
	dt->text_heads = 1;
	doc_col(dt, "variant", DOC_COL_NAME);
	for (c = 0; c < columns; c++)
		doc_col(dt, size_heads[c], DOC_COL_NUM)->gap = 3;
	for (c = 0; c < SIZE_COLUMNS; c++)
		strbuf_init(&cells[c], 0);
	for (i = 0; i < m->nr_variants; i++) {
		const struct analyze_variant *av = &m->variants[i];
		struct doc_row *r;

		if (!has_size_row(av))
			continue;
		size_cells(cells, av);
		r = doc_row(dt);
		r->emph = !strcmp(av->v.kind, "baseline");
		doc_cell(r, 0, "%s", av->v.name);
		for (c = 0; c < columns; c++)
			doc_cell(r, (size_t)c + 1, "%s", cells[c].buf);
	}
	for (c = 0; c < SIZE_COLUMNS; c++)
		strbuf_release(&cells[c]);
}

/* Kernel reports: one item per variant and report; html adds each report's text. */
void report_findings_section(struct doc *d, const struct analyze_model *m)
{
	struct strbuf sb = STRBUF_INIT;
	struct doc_section *s;
	struct doc_block *b;
	size_t i;

	if (!m->nr_findings)
		return;
	s = doc_add_section(d, "findings", DOC_ALL);
	doc_title(s, DOC_WORD, "kernel reports:");
	doc_add_para(s, DOC_BODY, "%s.", findings_intro);
	b = doc_add_block(s, DOC_LIST, DOC_BODY);
	b->indent_text = 2;
	for (i = 0; i < m->nr_findings; i++) {
		const struct analyze_finding *f = &m->findings[i];

		strbuf_reset(&sb);
		analyze_finding_describe(&sb, f);
		doc_line(b, "%s: %s", m->variants[f->variant].v.name, sb.buf);
	}
	for (i = 0; i < m->nr_findings; i++) {
		const struct analyze_finding *f = &m->findings[i];
		const char *p = f->text, *nl;

		b = doc_add_block(s, DOC_PRE, DOC_BODY);
		b->formats = DOC_HTML;
		doc_block_title(b, 0, "%s: %s", m->variants[f->variant].v.name, f->line);
		for (; p && *p; p = nl ? nl + 1 : NULL) {
			nl = strchr(p, '\n');
			doc_line(b, "%.*s", (int)(nl ? nl - p : (ptrdiff_t)strlen(p)), p);
		}
	}
	strbuf_release(&sb);
}

/* The environment: a fact a line, and what differs under a fact variants differ in. */
void report_env_section(struct doc *d, const struct analyze_model *m)
{
	struct strbuf sb = STRBUF_INIT;
	struct doc_section *s;
	struct doc_table *dt;
	size_t i;

	if (!m->nr_env)
		return;
	s = doc_add_section(d, "measured-under", DOC_ALL);
	doc_title(s, DOC_WORD, "measured under:");
	dt = doc_add_table(s, "facts");
	dt->indent_text = 2;
	doc_col(dt, "fact", DOC_COL_TEXT);
	doc_col(dt, "value", DOC_COL_TEXT)->gap = 2;
	for (i = 0; i < m->nr_env; i++) {
		const struct analyze_env_fact *f = &m->env[i];
		struct doc_row *r = doc_row(dt);

		doc_cell(r, 0, "%s", f->name);
		doc_cell(r, 1, "%s", f->value);
		if (!f->differs)
			continue;
		strbuf_reset(&sb);
		analyze_env_describe_differs(&sb, m, f);
		r = doc_row(dt);
		doc_cell(r, 1, "differs: %s", sb.buf);
	}
	strbuf_release(&sb);
}
