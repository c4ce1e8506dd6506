/* report.c: the report formats by name, and the report a sweep or screen ends with. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/analyze.h"
#include "store/experiment.h"
#include "report/report-doc.h"
#include "report/report.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

const struct report_format report_formats[] = {
	{ "text", report_text, "txt" },
	{ "mmtests", report_mmtests, "txt" },
	{ "markdown", report_markdown, "md" },
	{ "csv", report_csv, "csv" },
	{ "json", report_json, "json" },
	{ "svg", report_svg, "svg" },
	{ "html", report_html, "html" },
	{ NULL, NULL, NULL },
};

const struct report_format *report_find(const char *name)
{
	const struct report_format *f;

	for (f = report_formats; f->name; f++)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}

static int write_file(struct strbuf *sb, const char *dir, const char *name)
{
	char *path = experiment_path(dir, name);
	int ret = strbuf_write_file(sb, path);

	free(path);
	strbuf_reset(sb);
	return ret;
}

int report_experiment(struct store *st, const char *dir, double noise)
{
	struct analyze_options ao = ANALYZE_OPTIONS_INIT;
	struct analyze_model m;
	struct doc d = DOC_INIT;
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	ao.stats.noise = noise;
	if (analyze_load(&m, st, &ao))
		return -1;
	/* one document, shown as text and written as html */
	report_doc_build(&d, &m);
	doc_render_text(&sb, &d);
	fputs(sb.buf, stdout);
	fflush(stdout);
	strbuf_reset(&sb);
	doc_render_html(&sb, &d);
	if (write_file(&sb, dir, "report.html"))
		ret = -1;
	report_json(&sb, &m);
	if (!ret && write_file(&sb, dir, "report.json"))
		ret = -1;
	if (!ret)
		note("report: %s/report.html (and report.json)", dir);
	doc_release(&d);
	analyze_release(&m);
	strbuf_release(&sb);
	return ret;
}
