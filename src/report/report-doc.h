/* report-doc.h: the report as one document (sections, tables, paragraphs) that text, markdown and html render. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef REPORT_DOC_H
#define REPORT_DOC_H

#include <stddef.h>

#include "util/strvec.h"

struct analyze_model;
struct strbuf;

/*
 * The report is built once, by report_doc_build() (report-build.c), from
 * the analysis model, and the text, markdown and html writers only render
 * the document: what a section says, in which order, with which legend,
 * is decided in one place.  JSON, CSV, SVG and mmtests keep their own
 * shapes on the analysis model (report-writers.h).
 *
 * A document is a list of sections; a section has a title, facts (label
 * and value) and blocks: paragraphs, lists, preformatted text, tables and
 * charts.  All text in it is raw: each renderer escapes it for its format.
 *
 * How the formats render it:
 *
 *   text      a section with facts opens with them, one "label: value"
 *             line each, else with its title as a line; blocks follow,
 *             each after a blank line (the first after the facts too);
 *             a block's title is a line of its own above it; tables are
 *             padded columns (struct doc_col says the gaps).
 *   markdown  "## Title", the facts as one line, "### Title" per titled
 *             block, GFM tables, lists and paragraphs.
 *   html      <section id> with <h2>, the facts as a lead paragraph,
 *             <h3> per titled block, tables in cards, the charts inline.
 *
 * A title is written as text shows it ("groups (each one variant):");
 * headings drop a trailing ':' and, when the title was given with
 * DOC_WORD, capitalize its first letter.
 *
 * Adding a section to the report is ONE function in report-build.c:
 *
 *	static void where_the_cost_goes(struct doc *d, const struct analyze_model *m)
 *	{
 *		struct doc_section *s = doc_add_section(d, "cost", DOC_ALL);
 *		struct doc_table *t;
 *		struct doc_row *r;
 *
 *		doc_title(s, DOC_WORD, "where the cost goes:");
 *		t = doc_add_table(s, NULL);
 *		t->indent_text = 2;
 *		doc_col(t, "function", DOC_COL_NAME);
 *		doc_col(t, "change", DOC_COL_NUM)->gap = 3;
 *		r = doc_row(t);
 *		doc_cell(r, 0, "%s", "do_syscall_64");
 *		doc_cell(r, 1, "%+.1f%%", 12.5)->mark = '*';
 *		doc_add_legend(s, m, 0);
 *	}
 *
 * and one line in report_sections[] at the end of report-build.c, in the
 * place the section goes.  A part of each measured table's section (as
 * the multiplicativity check is) is a function of (struct doc_section *,
 * model, table) called from table_section() there.  Markers, tones and
 * shades come from the analysis (tone_of(), shade() there), never from a
 * renderer.
 *
 * No renderer changes: a new kind of block or cell attribute is the only
 * reason to touch report-text.c, report-markdown.c or report-html.c.
 */

/* Which formats show a section, block or column. */
enum doc_formats {
	DOC_TEXT = 1,
	DOC_MARKDOWN = 2,
	DOC_HTML = 4,
	DOC_ALL = 7,
	DOC_TABLES = DOC_MARKDOWN | DOC_HTML,	/* the formats with column headings */
};

/* doc_title(): the title is an ordinary word a heading capitalizes. */
#define DOC_WORD 1

/* What a cell's value says: html colours it, the others ignore it. */
enum doc_tone {
	DOC_PLAIN,
	DOC_COST,	/* significantly worse */
	DOC_GAIN,	/* significantly better */
	DOC_NOISE,	/* significant but inside the noise band */
};

/*
 * A cell: a value, an optional interval and verdict mark, and notes.  It
 * reads "VALUE INTERVAL MARK" (each part when set).  Notes stand beside the
 * value: markdown appends them, html shows them as badges (class names the
 * badge), each only in the formats that note allows.
 */
struct doc_note {
	char *text;
	const char *class;
	unsigned formats;
};

struct doc_cell {
	char *value;		/* NULL: empty */
	char *interval;		/* "[+41.0% .. +50.7%]" or NULL */
	char mark;		/* '*', '~', '?' or 0 */
	enum doc_tone tone;
	double shade;		/* html: tint the cell's background, 0..1 of the tone; 0 none */
	struct doc_note *notes;
	size_t nr_notes, alloc_notes;
};

enum doc_col_kind {
	DOC_COL_TEXT,		/* left-aligned words */
	DOC_COL_NAME,		/* a variant's or option's name: monospace in html */
	DOC_COL_NUM,		/* right-aligned in text, markdown and html */
	DOC_COL_MARK,		/* a verdict marker: centred in markdown and html */
};

struct doc_col {
	char *head;		/* heading; text prints it only with doc_table.text_heads */
	enum doc_col_kind kind;
	unsigned formats;	/* DOC_ALL unless set */
	int elide;		/* left out when every cell is empty */
	/* text only: */
	size_t gap;		/* spaces before the column (0 for the first) */
	int ragged;		/* not padded to the widest cell */
	/* around a non-empty cell: "± ", "(" ")"; with a prefix, no heading in text */
	const char *bare_prefix, *bare_suffix;
};

struct doc_row {
	struct doc_cell *cells;	/* one per column */
	int emph;		/* the baseline's row: bold in html */
};

struct doc_table {
	const char *class;	/* html's table class, or NULL */
	size_t indent_text;	/* text: spaces before each line */
	int text_heads;		/* text prints the heading row */
	struct doc_col *cols;
	size_t nr_cols, alloc_cols;
	struct doc_row *rows;
	size_t nr_rows, alloc_rows;
};

enum doc_block_kind {
	DOC_PARA,		/* lines of one paragraph: text keeps the breaks, others join */
	DOC_LIST,		/* one item per line */
	DOC_PRE,		/* preformatted lines */
	DOC_TABLE,
	DOC_CHART,		/* html: the svg chart of an analysis table */
};

/* A paragraph's role: html's class, and markdown's "**Warning.**". */
enum doc_style {
	DOC_BODY,
	DOC_LEGEND,
	DOC_NOTES,
	DOC_AA,
	DOC_WARN,
};

struct doc_block {
	enum doc_block_kind kind;
	enum doc_style style;
	unsigned formats;
	char *title;		/* or NULL; see doc_title() */
	int title_word;
	size_t indent_text;	/* text: spaces before each line */
	const char *text_label;	/* text: "label: " before the first line ("note") */
	struct strvec lines;	/* DOC_PARA, DOC_LIST, DOC_PRE */
	struct doc_table table;	/* DOC_TABLE */
	size_t chart;		/* DOC_CHART: the analysis table's index */
};

struct doc_fact {
	char *label;		/* "workload": text adds the ':' */
	char *value;		/* NULL: unknown */
};

struct doc_section {
	char *id;		/* html anchor, or NULL */
	unsigned formats;
	char *title;
	int title_word;
	unsigned title_formats;	/* the formats that show the title (DOC_ALL) */
	char *nav;		/* html: the link to it in the page's header, or NULL */
	struct doc_fact *facts;
	size_t nr_facts, alloc_facts;
	struct doc_block *blocks;
	size_t nr_blocks, alloc_blocks;
};

struct doc {
	const struct analyze_model *m;	/* for the charts */
	struct doc_fact *facts;		/* the experiment's, under the page's title */
	size_t nr_facts, alloc_facts;
	struct doc_section *sections;
	size_t nr_sections, alloc_sections;
};

#define DOC_INIT { NULL, NULL, 0, 0, NULL, 0, 0 }

/* Builds the report of m into d (DOC_INIT); d refers to m for its charts. */
void report_doc_build(struct doc *d, const struct analyze_model *m);
/* Frees everything d holds; d is DOC_INIT after. */
void doc_release(struct doc *d);

/* The renderers: each appends one complete document to out. */
void doc_render_text(struct strbuf *out, const struct doc *d);
void doc_render_markdown(struct strbuf *out, const struct doc *d);
void doc_render_html(struct strbuf *out, const struct doc *d);

/*
 * Building.  Every function returns what it added, owned by the document;
 * pointers to a section's blocks and a table's rows stay valid only until
 * the next block or row is added, so set one up before adding the next.
 * format strings are printf's.
 */
struct doc_section *doc_add_section(struct doc *d, const char *id, unsigned formats);
void doc_title(struct doc_section *s, int word, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A fact; value NULL reads "unknown". */
void doc_fact(struct doc_section *s, const char *label, const char *value);
/* An experiment-wide fact, under the page's title (markdown, html). */
void doc_page_fact(struct doc *d, const char *label, const char *value);

struct doc_block *doc_add_block(struct doc_section *s, enum doc_block_kind kind,
				enum doc_style style);
void doc_block_title(struct doc_block *b, int word, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Appends a line to a paragraph, list or preformatted block. */
void doc_line(struct doc_block *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A paragraph of one line, or with lines added after. */
struct doc_block *doc_add_para(struct doc_section *s, enum doc_style style, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The legend of a table of changes (one for every format): the noise band, alpha, confidence. */
void doc_add_legend(struct doc_section *s, const struct analyze_model *m, int steps);

/* A table; class is html's, or NULL.  Declare the columns, then add rows. */
struct doc_table *doc_add_table(struct doc_section *s, const char *class);
/* The table of the section's last block (a titled table: doc_block_title() on it). */
struct doc_block *doc_last_block(struct doc_section *s);
struct doc_col *doc_col(struct doc_table *t, const char *head, enum doc_col_kind kind);
struct doc_row *doc_row(struct doc_table *t);
/* Sets cell col of r to the formatted value (an empty string leaves it empty). */
struct doc_cell *doc_cell(struct doc_row *r, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void doc_cell_interval(struct doc_cell *c, const char *interval);
void doc_cell_note(struct doc_cell *c, const char *text, const char *class, unsigned formats);
/* "VALUE INTERVAL MARK", the parts that are set, into sb (raw). */
void doc_cell_add(struct strbuf *sb, const struct doc_cell *c);

/* Helpers for the renderers. */
/* Whether a table's column shows in format (its formats, and elide). */
int doc_col_shown(const struct doc_table *t, size_t col, unsigned format);
/* The facts on one line: "LABEL<between>VALUE<sep>LABEL...", raw. */
void doc_add_facts(struct strbuf *sb, const struct doc_fact *f, size_t nr, const char *between,
		   const char *sep);
/* A title as a heading: without a trailing ':', capitalized when it is a word. */
void doc_add_heading(struct strbuf *sb, const char *title, int word);

#endif
