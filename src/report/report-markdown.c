/* report-markdown.c: the report's document as Markdown, for issues, pull requests and wikis. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>

#include "util/escape.h"
#include "report/report-doc.h"
#include "report/report-writers.h"
#include "util/strbuf.h"

/*
 * A "## " heading per section, its facts as one line, GitHub (GFM)
 * tables, lists and paragraphs.  Every piece of data goes through
 * strbuf_add_markdown(), so a '|' or '<script>' in a name stays text.
 */

static void heading(struct strbuf *out, const char *prefix, const char *title, int word)
{
	struct strbuf sb = STRBUF_INIT;

	doc_add_heading(&sb, title, word);
	strbuf_addstr(out, prefix);
	strbuf_add_markdown(out, sb.buf);
	strbuf_addstr(out, "\n\n");
	strbuf_release(&sb);
}

static void cell(struct strbuf *out, const struct doc_cell *c, unsigned format)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	doc_cell_add(&sb, c);
	for (i = 0; i < c->nr_notes; i++)
		if (c->notes[i].formats & format)
			strbuf_addf(&sb, "%s%s", sb.len ? " " : "", c->notes[i].text);
	if (sb.len) {
		strbuf_addch(out, ' ');
		strbuf_add_markdown(out, sb.buf);
	}
	strbuf_addstr(out, " |");
	strbuf_release(&sb);
}

static void table(struct strbuf *out, const struct doc_table *t)
{
	struct doc_cell head = { 0 };
	size_t i, k;

	strbuf_addch(out, '|');
	for (k = 0; k < t->nr_cols; k++) {
		if (!doc_col_shown(t, k, DOC_MARKDOWN))
			continue;
		head.value = t->cols[k].head;
		cell(out, &head, DOC_MARKDOWN);
	}
	strbuf_addstr(out, "\n|");
	for (k = 0; k < t->nr_cols; k++) {
		if (!doc_col_shown(t, k, DOC_MARKDOWN))
			continue;
		strbuf_addstr(out, t->cols[k].kind == DOC_COL_NUM ? "--:|" :
			      t->cols[k].kind == DOC_COL_MARK ? ":-:|" : ":--|");
	}
	strbuf_addch(out, '\n');
	for (i = 0; i < t->nr_rows; i++) {
		strbuf_addch(out, '|');
		for (k = 0; k < t->nr_cols; k++)
			if (doc_col_shown(t, k, DOC_MARKDOWN))
				cell(out, &t->rows[i].cells[k], DOC_MARKDOWN);
		strbuf_addch(out, '\n');
	}
}

/* A paragraph's lines joined: a legend wrapped for text reads as one line. */
static void para(struct strbuf *out, const struct doc_block *b)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < b->lines.nr; i++) {
		const char *l = b->lines.v[i];

		if (i)
			while (*l == ' ')
				l++;
		strbuf_addf(&sb, "%s%s", i ? " " : "", l);
	}
	if (b->style == DOC_WARN)
		strbuf_addstr(out, "**Warning.** ");
	strbuf_add_markdown(out, sb.buf);
	strbuf_addch(out, '\n');
	strbuf_release(&sb);
}

static void block(struct strbuf *out, const struct doc_block *b)
{
	struct strbuf line = STRBUF_INIT;
	size_t i;

	if (b->title)
		heading(out, "### ", b->title, b->title_word);
	switch (b->kind) {
	case DOC_PARA:
		para(out, b);
		break;
	case DOC_LIST:
		for (i = 0; i < b->lines.nr; i++) {
			strbuf_addstr(out, "- ");
			strbuf_add_markdown(out, b->lines.v[i]);
			strbuf_addch(out, '\n');
		}
		break;
	case DOC_PRE:
		/* one paragraph, a hard line break ("  ") after each line */
		for (i = 0; i < b->lines.nr; i++) {
			strbuf_reset(&line);
			strbuf_addstr(&line, b->lines.v[i]);
			strbuf_trim(&line);
			strbuf_add_markdown(out, line.buf);
			strbuf_addstr(out, i + 1 < b->lines.nr ? "  \n" : "\n");
		}
		break;
	case DOC_TABLE:
		table(out, &b->table);
		break;
	case DOC_CHART:
		break;
	}
	strbuf_release(&line);
}

static void facts(struct strbuf *out, const struct doc_fact *f, size_t nr)
{
	struct strbuf sb = STRBUF_INIT;

	doc_add_facts(&sb, f, nr, ": ", "; ");
	if (sb.len) {
		strbuf_add_markdown(out, sb.buf);
		strbuf_addstr(out, ".\n\n");
	}
	strbuf_release(&sb);
}

void doc_render_markdown(struct strbuf *out, const struct doc *d)
{
	size_t i, k;

	strbuf_addstr(out, "# kconfperf report\n\n");
	facts(out, d->facts, d->nr_facts);
	for (i = 0; i < d->nr_sections; i++) {
		const struct doc_section *s = &d->sections[i];
		size_t n = 0;

		if (!(s->formats & DOC_MARKDOWN))
			continue;
		if (s->title && (s->title_formats & DOC_MARKDOWN))
			heading(out, "## ", s->title, s->title_word);
		facts(out, s->facts, s->nr_facts);
		for (k = 0; k < s->nr_blocks; k++) {
			if (!(s->blocks[k].formats & DOC_MARKDOWN))
				continue;
			if (n++)
				strbuf_addch(out, '\n');
			block(out, &s->blocks[k]);
		}
		strbuf_addch(out, '\n');
	}
}

void report_markdown(struct strbuf *out, const struct analyze_model *m)
{
	struct doc d = DOC_INIT;

	report_doc_build(&d, m);
	doc_render_markdown(out, &d);
	doc_release(&d);
}
