/* kconfig-help.c: the sentences of an option's Kconfig help text that state a cost. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "kconfig/kconfig-help.h"
#include "kconfig/kconfig-index.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "util/wrapper.h"

/* Kconfig files are small; a cap keeps a strange one from costing memory. */
#define KCONFIG_FILE_MAX (4 << 20)

/* Columns of a line's leading white space, a tab to the next multiple of 8. */
static size_t indent_of(const char *s, size_t len, size_t *chars)
{
	size_t col = 0, i;

	for (i = 0; i < len && (s[i] == ' ' || s[i] == '\t'); i++)
		col = s[i] == '\t' ? (col / 8 + 1) * 8 : col + 1;
	*chars = i;
	return col;
}

static int blank(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!isspace((unsigned char)s[i]))
			return 0;
	return 1;
}

/* Whether the line's first word (after white space) is word. */
static int first_word(const char *s, size_t len, const char *word)
{
	size_t skip, n = strlen(word);

	indent_of(s, len, &skip);
	return len - skip >= n && !memcmp(s + skip, word, n) &&
	       (len - skip == n || isspace((unsigned char)s[skip + n]));
}

/* A statement that ends an entry before its help. */
static int ends_entry(const char *s, size_t len)
{
	static const char *const words[] = {
		"config", "menuconfig", "choice", "endchoice", "menu", "endmenu", "if",
		"endif", "source", "rsource", "osource", "orsource", "comment", "mainmenu",
	};
	size_t i;

	if (len && (s[0] == ' ' || s[0] == '\t'))
		return 0;
	for (i = 0; i < ARRAY_SIZE(words); i++)
		if (first_word(s, len, words[i]))
			return 1;
	return 0;
}

int kconfig_help_text(struct strbuf *out, const char *path, int line)
{
	struct strbuf file = STRBUF_INIT;
	const char *p, *end;
	int n = 1, in_help = 0, ret = 0;
	size_t level = 0;

	if (strbuf_read_file_max(&file, path, KCONFIG_FILE_MAX) < 0)
		return -1;
	p = file.buf;
	end = file.buf + file.len;
	while (p < end && n < line) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		p = nl ? nl + 1 : end;
		n++;
	}
	/* the entry's own line, then its attributes */
	if (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		p = nl ? nl + 1 : end;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p), skip, col;

		if (!in_help) {
			if (ends_entry(p, len))
				break;
			if (first_word(p, len, "help") || first_word(p, len, "---help---"))
				in_help = 1;
		} else if (blank(p, len)) {
			if (level)
				strbuf_addch(out, '\n');
		} else {
			col = indent_of(p, len, &skip);
			if (!level)
				level = col ? col : 1;
			if (col < level)
				break;
			strbuf_add(out, p + skip, len - skip);
			strbuf_addch(out, '\n');
			ret = 1;
		}
		p = nl ? nl + 1 : end;
	}
	strbuf_rtrim(out);
	if (ret)
		strbuf_addch(out, '\n');
	strbuf_release(&file);
	return ret;
}

static int has_word(const char *s, const char *const *words, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (strcasestr(s, words[i]))
			return 1;
	return 0;
}

/* A percentage, a factor ("~x3", "x1.5", "2x", "factor of") in s. */
static int has_quantity(const char *s)
{
	const char *p, *q;

	for (p = s; *p; p++) {
		if (isdigit((unsigned char)*p) && (p == s || !isalnum((unsigned char)p[-1]))) {
			for (q = p; isdigit((unsigned char)*q) || *q == '.'; q++)
				;
			if ((*q == 'x' || *q == 'X') && !isalnum((unsigned char)q[1]) && q[1] != '_')
				return 1;	/* "2x slower" */
			if (*q == ' ')
				q++;
			if (*q == '%' || !strncasecmp(q, "percent", 7))
				return 1;
		}
		if ((*p == 'x' || *p == 'X') && isdigit((unsigned char)p[1]) &&
		    (p == s || strchr("~ (", p[-1]))) {
			for (q = p + 1; isdigit((unsigned char)*q) || *q == '.'; q++)
				;
			if (!isalnum((unsigned char)*q) && *q != '_')
				return 1;	/* "~x3", "x1.5", not "x86_64" */
		}
	}
	return strcasestr(s, "factor of") != NULL;
}

static int states_cost(const char *sentence)
{
	static const char *const cost[] = {
		"slow", "overhead", "performance", "impact", "cost", "speed", "boost",
		"faster", "penalty", "latency", "throughput", "workload", "expensive",
	};
	static const char *const size[] = {
		"negligible", "near zero", "nearly zero", "minimal", "significant",
		"substantial", "noticeabl", "considerabl", "twice",
	};

	return has_word(sentence, cost, ARRAY_SIZE(cost)) &&
	       (has_quantity(sentence) || has_word(sentence, size, ARRAY_SIZE(size)));
}

void kconfig_cost_claims(struct strvec *out, const char *help)
{
	struct strbuf sentence = STRBUF_INIT;
	const char *p = help;

	while (p && *p) {
		int end = 0;

		if (*p == '\n' && p[1] == '\n') {
			end = 1;	/* a blank line ends a paragraph */
		} else if (isspace((unsigned char)*p)) {
			if (sentence.len && sentence.buf[sentence.len - 1] != ' ')
				strbuf_addch(&sentence, ' ');
		} else {
			strbuf_addch(&sentence, *p);
			if (strchr(".!?", *p) && (!p[1] || isspace((unsigned char)p[1]))) {
				const char *q = p + 1;

				while (*q && isspace((unsigned char)*q))
					q++;
				end = !*q || !islower((unsigned char)*q);
			}
		}
		p++;
		if (end || !*p) {
			strbuf_trim(&sentence);
			if (sentence.len && states_cost(sentence.buf))
				strvec_push(out, sentence.buf);
			strbuf_reset(&sentence);
		}
	}
	strbuf_release(&sentence);
}

int kconfig_index_claims(struct strvec *out, const struct kconfig_index *idx, const char *name)
{
	struct strvec where = STRVEC_INIT, claims = STRVEC_INIT;
	struct strbuf help = STRBUF_INIT;
	size_t i, k;
	int ret = 0;

	kconfig_index_locations(&where, idx, name);
	for (i = 0; i < where.nr && !ret; i++) {
		char *colon = strrchr(where.v[i], ':');
		const char *rel;
		char *path;
		int line;

		if (!colon)
			continue;
		*colon = '\0';
		line = (int)strtol(colon + 1, NULL, 10);
		rel = where.v[i];
		path = rel[0] == '/' ? xstrdup(rel) :
		       xstrfmt("%s/%s", kconfig_index_srctree(idx), rel);
		strbuf_reset(&help);
		if (kconfig_help_text(&help, path, line) < 0) {
			ret = -1;
		} else {
			strvec_clear(&claims);
			kconfig_cost_claims(&claims, help.buf);
			for (k = 0; k < claims.nr; k++)
				strvec_pushf(out, "%s:%d\t%s", rel, line, claims.v[k]);
		}
		free(path);
	}
	strvec_clear(&where);
	strvec_clear(&claims);
	strbuf_release(&help);
	return ret;
}
