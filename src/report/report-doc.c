/* report-doc.c: building and freeing the report's document (report-doc.h). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "stats/analyze.h"
#include "report/report-doc.h"
#include "util/strbuf.h"
#include "util/wrapper.h"

static char *vfmt(const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_vaddf(&sb, fmt, ap);
	return strbuf_detach(&sb, NULL);
}

struct doc_section *doc_add_section(struct doc *d, const char *id, unsigned formats)
{
	struct doc_section *s;

	ALLOC_GROW(d->sections, d->nr_sections + 1, d->alloc_sections);
	s = &d->sections[d->nr_sections++];
	memset(s, 0, sizeof(*s));
	s->id = id ? xstrdup(id) : NULL;
	s->formats = formats;
	s->title_formats = DOC_ALL;
	return s;
}

static void set_title(char **title, int *title_word, int word, const char *fmt, va_list ap)
{
	free(*title);
	*title = vfmt(fmt, ap);
	*title_word = word;
}

void doc_title(struct doc_section *s, int word, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_title(&s->title, &s->title_word, word, fmt, ap);
	va_end(ap);
}

void doc_block_title(struct doc_block *b, int word, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_title(&b->title, &b->title_word, word, fmt, ap);
	va_end(ap);
}

static void add_fact(struct doc_fact **facts, size_t *nr, size_t *alloc, const char *label,
		     const char *value)
{
	ALLOC_GROW(*facts, *nr + 1, *alloc);
	(*facts)[*nr].label = xstrdup(label);
	(*facts)[*nr].value = value ? xstrdup(value) : NULL;
	(*nr)++;
}

void doc_fact(struct doc_section *s, const char *label, const char *value)
{
	add_fact(&s->facts, &s->nr_facts, &s->alloc_facts, label, value);
}

void doc_page_fact(struct doc *d, const char *label, const char *value)
{
	add_fact(&d->facts, &d->nr_facts, &d->alloc_facts, label, value);
}

struct doc_block *doc_add_block(struct doc_section *s, enum doc_block_kind kind,
				enum doc_style style)
{
	struct doc_block *b;

	ALLOC_GROW(s->blocks, s->nr_blocks + 1, s->alloc_blocks);
	b = &s->blocks[s->nr_blocks++];
	memset(b, 0, sizeof(*b));
	b->kind = kind;
	b->style = style;
	b->formats = DOC_ALL;
	strvec_init(&b->lines);
	return b;
}

struct doc_block *doc_last_block(struct doc_section *s)
{
	return s->nr_blocks ? &s->blocks[s->nr_blocks - 1] : NULL;
}

void doc_line(struct doc_block *b, const char *fmt, ...)
{
	va_list ap;
	char *line;

	va_start(ap, fmt);
	line = vfmt(fmt, ap);
	va_end(ap);
	strvec_push(&b->lines, line);
	free(line);
}

struct doc_block *doc_add_para(struct doc_section *s, enum doc_style style, const char *fmt, ...)
{
	struct doc_block *b = doc_add_block(s, DOC_PARA, style);
	va_list ap;
	char *line;

	va_start(ap, fmt);
	line = vfmt(fmt, ap);
	va_end(ap);
	if (*line)
		strvec_push(&b->lines, line);
	free(line);
	return b;
}

void doc_add_legend(struct doc_section *s, const struct analyze_model *m, int steps)
{
	const struct stats_options *so = &m->opts.stats;
	struct doc_block *b = doc_add_block(s, DOC_PARA, DOC_LEGEND);

	doc_line(b, "(change against the baseline, [%g%% confidence interval]; * significant "
		 "(BH q < %g)", so->confidence * 100, so->alpha);
	doc_line(b, " and outside the ±%g%% noise band, ~ significant but reaching into it, "
		 "none if not significant or", so->noise);
	doc_line(b, " wholly inside it, ? too few runs or the tests disagree%s", steps ? ";" : ")");
	if (steps)
		doc_line(b, " step: a cumulative step against the step before it, the first "
			 "against the baseline)");
}

struct doc_table *doc_add_table(struct doc_section *s, const char *class)
{
	struct doc_block *b = doc_add_block(s, DOC_TABLE, DOC_BODY);

	b->table.class = class;
	return &b->table;
}

struct doc_col *doc_col(struct doc_table *t, const char *head, enum doc_col_kind kind)
{
	struct doc_col *c;

	ALLOC_GROW(t->cols, t->nr_cols + 1, t->alloc_cols);
	c = &t->cols[t->nr_cols++];
	memset(c, 0, sizeof(*c));
	c->head = xstrdup(head ? head : "");
	c->kind = kind;
	c->formats = DOC_ALL;
	return c;
}

struct doc_row *doc_row(struct doc_table *t)
{
	struct doc_row *r;

	ALLOC_GROW(t->rows, t->nr_rows + 1, t->alloc_rows);
	r = &t->rows[t->nr_rows++];
	r->cells = xcalloc(t->nr_cols ? t->nr_cols : 1, sizeof(*r->cells));
	r->emph = 0;
	return r;
}

struct doc_cell *doc_cell(struct doc_row *r, size_t col, const char *fmt, ...)
{
	struct doc_cell *c = &r->cells[col];
	va_list ap;

	free(c->value);
	va_start(ap, fmt);
	c->value = vfmt(fmt, ap);
	va_end(ap);
	if (!*c->value) {
		free(c->value);
		c->value = NULL;
	}
	return c;
}

void doc_cell_interval(struct doc_cell *c, const char *interval)
{
	free(c->interval);
	c->interval = interval && *interval ? xstrdup(interval) : NULL;
}

void doc_cell_note(struct doc_cell *c, const char *text, const char *class, unsigned formats)
{
	if (!text || !*text)
		return;
	ALLOC_GROW(c->notes, c->nr_notes + 1, c->alloc_notes);
	c->notes[c->nr_notes].text = xstrdup(text);
	c->notes[c->nr_notes].class = class;
	c->notes[c->nr_notes].formats = formats;
	c->nr_notes++;
}

void doc_cell_add(struct strbuf *sb, const struct doc_cell *c)
{
	size_t start = sb->len;

	if (c->value)
		strbuf_addstr(sb, c->value);
	if (c->interval)
		strbuf_addf(sb, "%s%s", sb->len > start ? " " : "", c->interval);
	if (c->mark)
		strbuf_addf(sb, "%s%c", sb->len > start ? " " : "", c->mark);
}

static int cell_empty(const struct doc_cell *c)
{
	return !c->value && !c->interval && !c->mark;
}

int doc_col_shown(const struct doc_table *t, size_t col, unsigned format)
{
	size_t i;

	if (!(t->cols[col].formats & format))
		return 0;
	if (!t->cols[col].elide)
		return 1;
	for (i = 0; i < t->nr_rows; i++)
		if (!cell_empty(&t->rows[i].cells[col]))
			return 1;
	return 0;
}

void doc_add_heading(struct strbuf *sb, const char *title, int word)
{
	size_t len = strlen(title), start = sb->len;

	if (len && title[len - 1] == ':')
		len--;
	strbuf_add(sb, title, len);
	if (word && sb->buf[start] >= 'a' && sb->buf[start] <= 'z')
		sb->buf[start] -= 'a' - 'A';
}

void doc_add_facts(struct strbuf *sb, const struct doc_fact *f, size_t nr, const char *between,
		   const char *sep)
{
	size_t i;

	for (i = 0; i < nr; i++)
		strbuf_addf(sb, "%s%s%s%s", i ? sep : "", f[i].label, between,
			    f[i].value ? f[i].value : "unknown");
}

static void table_release(struct doc_table *t)
{
	size_t i, k, n;

	for (i = 0; i < t->nr_rows; i++) {
		for (k = 0; k < t->nr_cols; k++) {
			struct doc_cell *c = &t->rows[i].cells[k];

			free(c->value);
			free(c->interval);
			for (n = 0; n < c->nr_notes; n++)
				free(c->notes[n].text);
			free(c->notes);
		}
		free(t->rows[i].cells);
	}
	for (k = 0; k < t->nr_cols; k++)
		free(t->cols[k].head);
	free(t->rows);
	free(t->cols);
}

static void facts_release(struct doc_fact *facts, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(facts[i].label);
		free(facts[i].value);
	}
	free(facts);
}

void doc_release(struct doc *d)
{
	size_t i, k;

	for (i = 0; i < d->nr_sections; i++) {
		struct doc_section *s = &d->sections[i];

		for (k = 0; k < s->nr_blocks; k++) {
			free(s->blocks[k].title);
			strvec_clear(&s->blocks[k].lines);
			table_release(&s->blocks[k].table);
		}
		free(s->blocks);
		facts_release(s->facts, s->nr_facts);
		free(s->id);
		free(s->title);
		free(s->nav);
	}
	free(d->sections);
	facts_release(d->facts, d->nr_facts);
	memset(d, 0, sizeof(*d));
}
