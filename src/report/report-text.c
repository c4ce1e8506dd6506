/* report-text.c: the report's document as plain text, the table people paste into a mailing list. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "stats/analyze.h"
#include "util/escape.h"
#include "report/report-doc.h"
#include "report/report-writers.h"
#include "util/strbuf.h"
#include "util/wrapper.h"

/*
 *   workload: hyperfine
 *   ...
 *
 *   CONFIG_PROVE_LOCKING=y   23.435 s ± 0.526 s  (+89.6%)  [+85.1% .. +94.2%] *
 *
 * Every piece of data goes through strbuf_add_text(), so an escape
 * sequence in a name cannot reach the terminal.
 */

static void pad(struct strbuf *out, size_t have, size_t want)
{
	if (have < want)
		strbuf_addchars(out, ' ', want - have);
}

static void rtrim_line(struct strbuf *out)
{
	while (out->len && out->buf[out->len - 1] == ' ')
		strbuf_setlen(out, out->len - 1);
	strbuf_addch(out, '\n');
}

static size_t width(const char *s)
{
	return text_width(s, strlen(s));
}

/* A cell as text reads it: "(+45.8%)", "± 0.5 s", "step +74.7% [...] *". */
static char *cell_text(const struct doc_col *col, const struct doc_cell *c)
{
	struct strbuf raw = STRBUF_INIT, out = STRBUF_INIT;

	doc_cell_add(&raw, c);
	if (raw.len) {
		strbuf_addstr(&out, col->bare_prefix ? col->bare_prefix : "");
		strbuf_add_text(&out, raw.buf);
		strbuf_addstr(&out, col->bare_suffix ? col->bare_suffix : "");
	}
	strbuf_release(&raw);
	return strbuf_detach(&out, NULL);
}

static void table(struct strbuf *out, const struct doc_table *t)
{
	size_t rows = t->nr_rows + (t->text_heads ? 1 : 0), i, k, last = 0, *w;
	char **cells = xcalloc(rows * t->nr_cols + 1, sizeof(*cells));
	int *shown = xcalloc(t->nr_cols + 1, sizeof(*shown));

	w = xcalloc(t->nr_cols + 1, sizeof(*w));
	for (k = 0; k < t->nr_cols; k++) {
		shown[k] = doc_col_shown(t, k, DOC_TEXT);
		if (shown[k])
			last = k;
	}
	for (i = 0; i < rows; i++) {
		for (k = 0; k < t->nr_cols; k++) {
			char **c = &cells[i * t->nr_cols + k];

			if (t->text_heads && !i) {
				struct strbuf sb = STRBUF_INIT;

				/* cells that say what they are ("Amean 4") need no heading */
				if (!t->cols[k].bare_prefix)
					strbuf_add_text(&sb, t->cols[k].head);
				*c = strbuf_detach(&sb, NULL);
			} else {
				*c = cell_text(&t->cols[k], &t->rows[i - !!t->text_heads].cells[k]);
			}
			if (width(*c) > w[k])
				w[k] = width(*c);
		}
	}
	for (i = 0; i < rows; i++) {
		strbuf_addchars(out, ' ', t->indent_text);
		for (k = 0; k < t->nr_cols; k++) {
			const struct doc_col *col = &t->cols[k];
			const char *c = cells[i * t->nr_cols + k];

			if (!shown[k])
				continue;
			strbuf_addchars(out, ' ', col->gap);
			if (col->kind == DOC_COL_NUM)
				pad(out, width(c), w[k]);
			strbuf_addstr(out, c);
			if (col->kind != DOC_COL_NUM && !col->ragged && k != last)
				pad(out, width(c), w[k]);
		}
		rtrim_line(out);
	}
	for (i = 0; i < rows * t->nr_cols; i++)
		free(cells[i]);
	free(cells);
	free(shown);
	free(w);
}

static void lines(struct strbuf *out, const struct doc_block *b)
{
	size_t i;

	for (i = 0; i < b->lines.nr; i++) {
		strbuf_addchars(out, ' ', b->indent_text);
		if (!i && b->text_label)
			strbuf_addf(out, "%s: ", b->text_label);
		strbuf_add_text(out, b->lines.v[i]);
		rtrim_line(out);
	}
}

static void block(struct strbuf *out, const struct doc_block *b)
{
	if (b->title) {
		strbuf_add_text(out, b->title);
		strbuf_addch(out, '\n');
	}
	/* paragraphs, lists and preformatted text are lines alike here; no charts */
	if (b->kind == DOC_TABLE)
		table(out, &b->table);
	else if (b->kind != DOC_CHART)
		lines(out, b);
}

static void section(struct strbuf *out, const struct doc_section *s)
{
	size_t i, n = 0;

	for (i = 0; i < s->nr_facts; i++) {
		strbuf_addf(out, "%s:", s->facts[i].label);
		pad(out, strlen(s->facts[i].label) + 1, 10);
		strbuf_add_text(out, s->facts[i].value ? s->facts[i].value : "unknown");
		rtrim_line(out);
	}
	if (s->nr_facts)
		strbuf_addch(out, '\n');
	else if (s->title && (s->title_formats & DOC_TEXT)) {
		strbuf_add_text(out, s->title);
		strbuf_addch(out, '\n');
	}
	for (i = 0; i < s->nr_blocks; i++) {
		if (!(s->blocks[i].formats & DOC_TEXT))
			continue;
		if (n++)
			strbuf_addch(out, '\n');
		block(out, &s->blocks[i]);
	}
}

void doc_render_text(struct strbuf *out, const struct doc *d)
{
	size_t i, shown = 0, with_facts = 0;

	for (i = 0; i < d->nr_sections; i++) {
		const struct doc_section *s = &d->sections[i];

		if (!(s->formats & DOC_TEXT))
			continue;
		/* a blank line between sections, two between the tables of results */
		if (s->nr_facts && with_facts++)
			strbuf_addstr(out, "\n\n");
		else if (shown)
			strbuf_addch(out, '\n');
		shown++;
		section(out, s);
	}
}

void report_text(struct strbuf *out, const struct analyze_model *m)
{
	struct doc d = DOC_INIT;

	report_doc_build(&d, m);
	doc_render_text(out, &d);
	doc_release(&d);
}
