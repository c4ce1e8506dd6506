/* test-report.c: unit tests for the report writers (golden outputs) and the escaping emitters. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/analyze.h"
#include "util/escape.h"
#include "fixture-experiment.h"
#include "fixture-steps.h"
#include "fixture-sources.h"
#include "util/json.h"
#include "report/report-doc.h"
#include "report/report.h"
#include "util/strbuf.h"
#include "test-lib.h"
#include "util/wrapper.h"

/*
 * Golden files live in tests/fixtures/report/ (the tests run from the top
 * of the repository).  After an intended change to a format, regenerate
 * them with KCP_UPDATE_GOLDEN=1 build/tests/unit/test-report and review
 * the diff.
 */
#define GOLDEN_DIR "tests/fixtures/report/"

static char *fixture_db;

static const char *db(void)
{
	if (!fixture_db) {
		fixture_db = xstrfmt("%s/fixture.db", test_tmpdir());
		if (fixture_experiment(fixture_db))
			fprintf(stderr, "cannot write the fixture experiment\n");
	}
	return fixture_db;
}

static char *steps_db;

/* The experiment of fixture-steps.h: a group and cumulative steps. */
static const char *db_steps(void)
{
	if (!steps_db) {
		steps_db = xstrfmt("%s/fixture-steps.db", test_tmpdir());
		if (fixture_steps_experiment(steps_db))
			fprintf(stderr, "cannot write the steps fixture experiment\n");
	}
	return steps_db;
}

/* The experiment of three sources (fixture-sources.h). */
static const char *sources_db(void)
{
	static char *path;

	if (!path) {
		path = xstrfmt("%s/sources.db", test_tmpdir());
		if (fixture_sources_experiment(path))
			fprintf(stderr, "cannot write the sources fixture\n");
	}
	return path;
}

static const char *current_db;

static int load_from(struct analyze_model *m, const char *path, const struct analyze_options *ao)
{
	struct store *st;
	int ret;

	if (store_open(&st, path, 0))
		return -1;
	ret = analyze_load(m, st, ao);
	store_close(st);
	return ret;
}

/* Writes the fixture at path in format name into out. */
static int render_from(struct strbuf *out, const char *path, const char *name,
		       const struct analyze_options *ao)
{
	struct analyze_options def = ANALYZE_OPTIONS_INIT;
	struct analyze_model m;
	const struct report_format *f = report_find(name);

	if (!f || load_from(&m, path, ao ? ao : &def))
		return -1;
	f->write(out, &m);
	analyze_release(&m);
	return 0;
}

static int render(struct strbuf *out, const char *name, const struct analyze_options *ao)
{
	return render_from(out, current_db ? current_db : db(), name, ao);
}

static void golden_from(const char *db_path, const char *name, const char *file)
{
	struct strbuf out = STRBUF_INIT, expect = STRBUF_INIT;
	char *path = xstrfmt(GOLDEN_DIR "%s", file);

	check_int(render_from(&out, db_path, name, NULL), ==, 0);
	if (getenv("KCP_UPDATE_GOLDEN")) {
		check_int(strbuf_write_file(&out, path), ==, 0);
	} else if (check(strbuf_read_file(&expect, path, 0) >= 0)) {
		if (!check(out.len == expect.len && !memcmp(out.buf, expect.buf, out.len))) {
			char *actual = xstrfmt("%s/%s", test_tmpdir(), file);
			char *cmd = xstrfmt("diff -u '%s' '%s' | head -n 40", path, actual);

			strbuf_write_file(&out, actual);
			if (system(cmd) < 0)
				fprintf(stderr, "cannot run diff\n");
			free(actual);
			free(cmd);
		}
	}
	free(path);
	strbuf_release(&out);
	strbuf_release(&expect);
}

static void golden(const char *name, const char *file)
{
	golden_from(current_db ? current_db : db(), name, file);
}

static void test_golden_text(void)
{
	golden("text", "fixture.txt");
}

/* Three sources: tables per source, the across blocks, the patch's builds. */
static void test_golden_sources(void)
{
	current_db = sources_db();
	golden("text", "sources.txt");
	golden("markdown", "sources.md");
	golden("mmtests", "sources.mmtests");
	golden("json", "sources.json");
	golden("html", "sources.html");
	current_db = NULL;
}

static void test_golden_mmtests(void)
{
	golden("mmtests", "fixture.mmtests");
}

static void test_golden_markdown(void)
{
	golden("markdown", "fixture.md");
}

static void test_golden_csv(void)
{
	golden("csv", "fixture.csv");
}

static void test_golden_json(void)
{
	golden("json", "fixture.json");
}

/* The page as a whole: tables, charts, diffs, environment and raw data. */
static void test_golden_html(void)
{
	golden("html", "fixture.html");
}

/* A named group and cumulative steps, in each format with a golden file. */
static void test_golden_steps(void)
{
	golden_from(db_steps(), "text", "steps.txt");
	golden_from(db_steps(), "markdown", "steps.md");
	golden_from(db_steps(), "mmtests", "steps.mmtests");
	golden_from(db_steps(), "json", "steps.json");
	golden_from(db_steps(), "csv", "steps.csv");
	golden_from(db_steps(), "html", "steps.html");
}

/* The chart and the page show the steps and the group too. */
static void test_steps_in_svg_and_html(void)
{
	struct strbuf out = STRBUF_INIT;

	check_int(render_from(&out, db_steps(), "svg", NULL), ==, 0);
	check(strstr(out.buf, "+steps stack, coloured by their increment") != NULL);
	check(strstr(out.buf, "step 2 against +CONFIG_PRINTK_TIME=y: +") != NULL);
	check(strstr(out.buf, "step 3 against +lockdebug: same kernel as the step before") != NULL);
	check(strstr(out.buf, ", step: same kernel</text>") != NULL);
	check(strstr(out.buf, "group of CONFIG_PROVE_LOCKING=y CONFIG_DEBUG_ATOMIC_SLEEP=y") != NULL);
	strbuf_reset(&out);
	check_int(render_from(&out, db_steps(), "html", NULL), ==, 0);
	check(strstr(out.buf, "<th>Step against the step before</th>") != NULL);
	check(strstr(out.buf, "<span class=\"badge group\">group: CONFIG_PROVE_LOCKING=y "
		     "CONFIG_DEBUG_ATOMIC_SLEEP=y</span>") != NULL);
	check(strstr(out.buf, "<section id=\"groups\">") != NULL);
	check(strstr(out.buf, "<td class=\"name\">CONFIG_PROVE_LOCKING=y "
		     "CONFIG_DEBUG_ATOMIC_SLEEP=y</td>") != NULL);
	check(strstr(out.buf, "same kernel as the step before") != NULL);
	/* the groups are the model's, not a raw fact in the environment */
	check(strstr(out.buf, "<th>groups</th>") == NULL);
	strbuf_release(&out);
}

static void test_formats_table(void)
{
	static const char *const names[] = {
		"text", "mmtests", "markdown", "csv", "json", "svg", "html",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		check(report_find(names[i]) != NULL);
	check(report_find("xml") == NULL);
}

static const struct json *result_named(const struct json *root, const char *name,
				       const char *metric)
{
	const struct json *results = json_get(root, "results");
	size_t i;

	for (i = 0; results && i < results->nr; i++) {
		const struct json *r = &results->items[i];
		const struct json *c = json_get(r, "command");
		const struct json *k = json_get(json_get(r, "kconfperf"), "metric");

		if (c && c->type == JSON_STRING && !strcmp(c->string, name) &&
		    k && k->type == JSON_STRING && !strcmp(k->string, metric))
			return r;
	}
	return NULL;
}

static void test_json_is_hyperfine_shaped(void)
{
	struct strbuf out = STRBUF_INIT;
	struct json *root = NULL;
	struct json_error err;
	const struct json *r, *k, *twin;

	check_int(render(&out, "json", NULL), ==, 0);
	if (!check_int(json_parse(&root, out.buf, out.len, &err), ==, 0)) {
		fprintf(stderr, "%u:%u: %s\n", err.line, err.column, err.msg);
		goto out;
	}
	r = result_named(root, "CONFIG_PROVE_LOCKING=y", "wall");
	if (!check(r != NULL))
		goto out;
	check(json_get(r, "mean")->type == JSON_NUMBER);
	check(json_get(r, "stddev")->type == JSON_NUMBER);
	check(json_get(r, "median")->type == JSON_NUMBER);
	check(json_get(r, "min")->type == JSON_NUMBER);
	check(json_get(r, "max")->type == JSON_NUMBER);
	check_int(json_get(r, "times")->nr, ==, 5);
	k = json_get(r, "kconfperf");
	check_str(json_get(k, "marker")->string, "*");
	check(json_get(k, "q_bh")->type == JSON_NUMBER);
	check_int(json_get(k, "effective_diff")->nr, ==, 3);
	check_str(json_get(k, "effective_diff")->items[2].string, " PROVE_LOCKING n -> y");
	check_int((long long)json_get(k, "bzimage_size_delta")->number, ==, 1200000 - 1048576);

	/* too few runs: the Fieller interval needs n >= 2, the marker 3 */
	r = result_named(root, "CONFIG_KASAN=y", "wall");
	k = json_get(r, "kconfperf");
	check_str(json_get(k, "marker")->string, "?");
	check(json_get(k, "too_few_runs")->type == JSON_TRUE);

	/* the baseline: undefined statistics are null, not NaN */
	r = result_named(root, "baseline", "wall");
	k = json_get(r, "kconfperf");
	check(json_get(k, "p_welch")->type == JSON_NULL);
	check(json_get(k, "ci_low_pct")->type == JSON_NULL);

	/* a same-as variant: its twin's runs, named in same_as */
	r = result_named(root, "CONFIG_LOCK_STAT=y", "wall");
	k = json_get(r, "kconfperf");
	check_str(json_get(k, "same_as")->string, "CONFIG_PROVE_LOCKING=y");
	check_int(json_get(r, "times")->nr, ==, 5);
	twin = result_named(root, "CONFIG_PROVE_LOCKING=y", "wall");
	check_double(json_get(r, "mean")->number, json_get(twin, "mean")->number, 0);
	check(json_get(json_get(twin, "kconfperf"), "same_as")->type == JSON_NULL);

	/* the hostile name comes back exactly */
	check(result_named(root, FIXTURE_SCRIPT, "wall") != NULL);
	check(strstr(out.buf, "<script") == NULL);
	/* the no-op and the failed build; the same-as variants were measured */
	check_int(json_get(json_get(root, "kconfperf"), "not_measured")->nr, ==, 2);
out:
	json_free(root);
	strbuf_release(&out);
}

/* Reads one RFC 4180 field at *p into sb; returns the character after it. */
static const char *csv_field(const char *p, struct strbuf *sb)
{
	strbuf_reset(sb);
	if (*p != '"') {
		while (*p && *p != ',' && *p != '\r')
			strbuf_addch(sb, *p++);
		return p;
	}
	for (p++; *p; p++) {
		if (*p == '"' && p[1] == '"') {
			strbuf_addch(sb, '"');
			p++;
		} else if (*p == '"') {
			return p + 1;
		} else {
			strbuf_addch(sb, *p);
		}
	}
	return p;
}

static void test_csv_round_trips_names(void)
{
	struct strbuf out = STRBUF_INIT, field = STRBUF_INIT;
	const char *line;
	int found = 0, rows = 0;

	check_int(render(&out, "csv", NULL), ==, 0);
	for (line = strstr(out.buf, "\r\n"); line && line[2]; line = strstr(line + 2, "\r\n")) {
		const char *p = csv_field(line + 2, &field);

		rows++;
		if (!strcmp(field.buf, FIXTURE_SCRIPT))
			found++;
		check(*p == ',');
	}
	/* every sample: wall + boot + 3 times per ok run, wall per failed run */
	check_int(found, ==, 6 * 5);
	/*
	 * six measured variants x (1 warm-up + 5 runs) x (wall, boot, 3 times),
	 * KASAN's 1 + 2 runs likewise, UBSAN's 1 + 2 timed-out runs: wall only
	 */
	check_int(rows, ==, 6 * 6 * 5 + 3 * 5 + 3);
	strbuf_release(&out);
	strbuf_release(&field);
}

/* Whether needle occurs in hay other than right after a backslash. */
static int unescaped(const char *hay, const char *needle)
{
	const char *p;

	for (p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		if (p == hay || p[-1] != '\\')
			return 1;
	return 0;
}

static void test_markup_formats_escape(void)
{
	static const char *const names[] = { "html", "svg", "markdown", "json" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		struct strbuf out = STRBUF_INIT;

		check_int(render(&out, names[i], NULL), ==, 0);
		if (!check(!unescaped(out.buf, "<script")))
			fprintf(stderr, "raw <script> in %s\n", names[i]);
		if (!strcmp(names[i], "markdown"))
			check(strstr(out.buf, "\\<script\\>alert('x')\\</script\\> \\& "
				     "\\\\\"q\\\\\"") != NULL);
		if (!strcmp(names[i], "html") || !strcmp(names[i], "svg"))
			check(strstr(out.buf, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"
				     " &amp; \\&quot;q\\&quot;") != NULL);
		strbuf_release(&out);
	}
}

static int count(const char *hay, const char *needle)
{
	int n = 0;

	while ((hay = strstr(hay, needle))) {
		n++;
		hay++;
	}
	return n;
}

static void test_svg_chart(void)
{
	struct strbuf out = STRBUF_INIT;
	struct analyze_options ao = ANALYZE_OPTIONS_INIT;

	ao.metric = "wall";
	check_int(render(&out, "svg", &ao), ==, 0);
	check(starts_with(out.buf, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "));
	check(ends_with(out.buf, "</svg>\n"));
	check_int(count(out.buf, "<svg"), ==, 1);
	/*
	 * a bar and a tooltip per compared variant: all 9 with rows but the
	 * baseline and UBSAN, the two same-as variants marked
	 */
	check_int(count(out.buf, "<g class=\"row\">"), ==, 8);
	check_int(count(out.buf, "<title>"), ==, 8);
	check(strstr(out.buf, ">CONFIG_LOCK_STAT=y (=)</text>") != NULL);
	check(strstr(out.buf, "(= CONFIG_PROVE_LOCKING=y, same kernel)</title>") != NULL);
	check(strstr(out.buf, "noise band") != NULL);
	check(strstr(out.buf, "fill=\"#c8374b\"") != NULL);	/* a significant cost */
	strbuf_reset(&out);

	/* three tables: three nested charts in one document */
	check_int(render(&out, "svg", NULL), ==, 0);
	check_int(count(out.buf, "<svg"), ==, 4);
	check_int(count(out.buf, "</svg>"), ==, 4);
	strbuf_release(&out);
}

static void test_html_page(void)
{
	struct strbuf out = STRBUF_INIT;

	check_int(render(&out, "html", NULL), ==, 0);
	check(starts_with(out.buf, "<!DOCTYPE html>\n"));
	check(ends_with(out.buf, "</html>\n"));
	check_int(count(out.buf, "<table class=\"summary\">"), ==, 3);
	check_int(count(out.buf, "<svg "), ==, 3);
	/* one <details> per variant, plus the raw data */
	check_int(count(out.buf, "<details>"), ==, 12 + 1);
	/* each kernel report's first text, escaped */
	check(strstr(out.buf, "<section id=\"findings\">") != NULL);
	check(strstr(out.buf, "<h3>baseline: WARNING at kernel/fake.c:12 fake_&lt;init&gt;</h3>\n"
		     "<pre>[    0.912455] WARNING: CPU: 0 PID: 1 at kernel/fake.c:12 "
		     "fake_&lt;init&gt;+0x8a/0x1f0 &amp; more\n</pre>") != NULL);
	check(strstr(out.buf, "<li>CONFIG_PROVE_LOCKING=y: 2 of 6 runs: WARNING: possible circular "
		     "locking dependency detected (lockdep; not in the baseline: 0 of 6 runs)</li>")
	      != NULL);
	/* the environment, and what differs */
	check(strstr(out.buf, "<section id=\"measured-under\">") != NULL);
	check(strstr(out.buf, "<tr><td>preempt</td><td>none</td></tr>\n<tr><td></td><td>differs: "
		     "CONFIG_KASAN=y: full (dynamic)</td></tr>") != NULL);
	/* Kconfig's claims beside the measurement, escaped */
	check(strstr(out.buf, "&quot;Makes &lt;locking&gt; about 50% slower &amp; more.&quot;; "
		     "measured hackbench:groups=2: time +46.0%") != NULL);
	check(strstr(out.buf, "NOT_IN_ANY_VARIANT") == NULL);
	/* image size by section */
	check(strstr(out.buf, "<section id=\"sizes\">") != NULL);
	check(strstr(out.buf, "mm/failslab.c:12: error: &#39;x&#39; undeclared") != NULL);
	check(strstr(out.buf, "+147.9 KiB") != NULL);	/* PROVE_LOCKING's bzImage */
	check(strstr(out.buf, "CONFIG_LOCK_STAT=y<span class=\"badge same-as\">(= "
		     "CONFIG_PROVE_LOCKING=y, same kernel)</span>") != NULL);
	/* self-contained: nothing fetched */
	check(strstr(out.buf, "src=") == NULL);
	check(strstr(out.buf, "href=\"http") == NULL);
	check(strstr(out.buf, "@import") == NULL);
	strbuf_release(&out);
}

/* Several sources: the option x kernel grid, shaded by cost, and the patch's builds. */
static void test_html_sources(void)
{
	struct strbuf out = STRBUF_INIT;

	current_db = sources_db();
	check_int(render(&out, "html", NULL), ==, 0);
	current_db = NULL;
	check_int(count(out.buf, "<table class=\"summary\">"), ==, 6);
	check_int(count(out.buf, "<table class=\"grid\">"), ==, 4);
	check(strstr(out.buf, "time, 6.12 (6.12.117)</h2>") != NULL);
	check(strstr(out.buf, "<h3>6.12 against 6.1: ") != NULL);
	check(strstr(out.buf, "<th>change of cost</th>") != NULL);
	/* PROVE_LOCKING: +70% on 6.1, deep red; +14% more on 6.12, red too. */
	check(strstr(out.buf, "style=\"background:rgba(200,55,75,0.54)\">+70.4% *</td>") != NULL);
	check(strstr(out.buf, "style=\"background:rgba(200,55,75,0.46)\">+14.3% [+12.1% .. +16.7%] *") != NULL);
	/* The patch's gain is green; an unknown symbol says so, unshaded. */
	check(strstr(out.buf, "style=\"background:rgba(35,148,106,") != NULL);
	check(strstr(out.buf, "<td>no-op</td>") != NULL);
	check(strstr(out.buf, "<li>CONFIG_NEW=y on 6.1: no-op: CONFIG_NEW: unknown symbol</li>") != NULL);
	check(strstr(out.buf, "<li>CONFIG_PROVE_LOCKING=y cost +70.4% on 6.1 and +94.8% on 6.12: "
		     "+14.3% [+12.1% .. +16.7%] more, *</li>") != NULL);
	check(strstr(out.buf, "<h2>Builds of 6.1+fix (fix.patch), beside the unpatched ones</h2>") != NULL);
	check(strstr(out.buf, "28.0 s (seeded from the unpatched tree), unpatched 200.0 s") != NULL);
	strbuf_release(&out);
}

static void test_text_notes(void)
{
	struct strbuf out = STRBUF_INIT;

	check_int(render(&out, "text", NULL), ==, 0);
	check(strstr(out.buf, "CONFIG_UBSAN=y: 2 of 2 runs failed (timeout: no result in 60 s)"));
	check(strstr(out.buf, "note: fewer than 3 runs so far: CONFIG_KASAN=y (2)"));
	check(strstr(out.buf, "\n  CONFIG_LOCKDEP=y   no-op: hidden symbol"));
	check(strstr(out.buf, "\n  CONFIG_FAILSLAB=y  build failed: mm/failslab.c:12: "
		     "error: 'x' undeclared (log: logs/build-failslab.log)\n"));
	/* same-as variants are measured: rows with their twin's numbers and a note */
	check(strstr(out.buf, "\nall-CONFIG_LOCKDEP=y                                   "
		     "3.534 s ± 0.059 s   (+76.1%)  [+72.3% .. +80.0%]   *  "
		     "(= all, same kernel)\n"));
	check(strstr(out.buf, "\nall                                                    "
		     "3.534 s ± 0.059 s   (+76.1%)  [+72.3% .. +80.0%]   *\n"));
	check_int(count(out.buf, "*  (= CONFIG_PROVE_LOCKING=y, same kernel)\n"), ==, 3);
	check(strstr(out.buf, "same-as:") == NULL);
	check(strstr(out.buf, "not yet: too few runs of CONFIG_FAILSLAB=y (build failed), "
		     "CONFIG_KASAN=y (2 runs), CONFIG_UBSAN=y (runs failed)\n"));
	strbuf_release(&out);
}

static void test_escape_xml(void)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_xml(&sb, "<a href=\"x\">'&'</a>\x01\xff\xc3\xa9");
	check_str(sb.buf, "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
		  "\xEF\xBF\xBD\xEF\xBF\xBD\xc3\xa9");
	strbuf_reset(&sb);
	strbuf_add_xml(&sb, NULL);
	check_str(sb.buf, "");
	strbuf_release(&sb);
}

static void test_escape_csv(void)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_csv(&sb, "plain");
	strbuf_addch(&sb, '|');
	strbuf_add_csv(&sb, "a,b");
	strbuf_addch(&sb, '|');
	strbuf_add_csv(&sb, "say \"hi\"");
	strbuf_addch(&sb, '|');
	strbuf_add_csv(&sb, "two\nlines");
	strbuf_addch(&sb, '|');
	strbuf_add_csv(&sb, " padded");
	strbuf_addch(&sb, '|');
	strbuf_add_csv(&sb, "");
	check_str(sb.buf, "plain|\"a,b\"|\"say \"\"hi\"\"\"|\"two\nlines\"|\" padded\"|");

	/* No control byte gets through; a formula is text to a spreadsheet. */
	strbuf_reset(&sb);
	strbuf_add_csv(&sb, "\x1b[31mred\x07\xc2\x9b\ttab");
	strbuf_addch(&sb, '|');
	strbuf_add_csv(&sb, "=HYPERLINK(\"http://x\")");
	strbuf_addch(&sb, '|');
	strbuf_add_csv(&sb, "-2+3");
	strbuf_addch(&sb, '|');
	strbuf_add_csv(&sb, "+x");
	strbuf_addch(&sb, '|');
	strbuf_add_csv(&sb, "@sum");
	strbuf_addch(&sb, '|');
	strbuf_add_csv(&sb, "a=b-c");
	check_str(sb.buf, "\xEF\xBF\xBD[31mred\xEF\xBF\xBD\xEF\xBF\xBD\ttab|"
		  "\"'=HYPERLINK(\"\"http://x\"\")\"|'-2+3|'+x|'@sum|a=b-c");
	strbuf_release(&sb);
}

static void test_escape_markdown(void)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_markdown(&sb, "CONFIG_PROVE_LOCKING=y | *x* _y_ <b>`c`</b>\n[l](u)");
	check_str(sb.buf, "CONFIG_PROVE_LOCKING=y \\| \\*x\\* \\_y\\_ \\<b\\>\\`c\\`\\</b\\> "
		  "\\[l\\](u)");
	strbuf_release(&sb);
}

static void test_escape_text(void)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_text(&sb, "ok \xc3\xa9 \x1b[31mred\x1b[0m\ttab\xff");
	check_str(sb.buf, "ok \xc3\xa9 \\x1b[31mred\\x1b[0m\\x09tab\\xff");
	check_int(text_width("\xc3\xa9t\xc3\xa9", 5), ==, 3);
	/* a C1 control (here CSI, U+009B) is a terminal escape too; DEL as well */
	strbuf_reset(&sb);
	strbuf_add_text(&sb, "a\xc2\x9b" "2Jb\x7f\xc2\xa0");
	check_str(sb.buf, "a\\xc2\\x9b2Jb\\x7f\xc2\xa0");
	/* for many lines: newlines and tabs stay */
	strbuf_reset(&sb);
	strbuf_add_text_lines(&sb, "one\n\ttwo\x1b[2J\r\n");
	check_str(sb.buf, "one\n\ttwo\\x1b[2J\\x0d\n");
	strbuf_release(&sb);
}

static void test_escape_text_into_a_buffer(void)
{
	char out[16];

	check_int(text_escape_lines(out, sizeof(out), "a\x1b\nb"), ==, 7);
	check_str(out, "a\\x1b\nb");
	/* cut short at a whole escape, never inside one */
	check_int(text_escape_lines(out, 8, "abc\x1b\x1b"), ==, 7);
	check_str(out, "abc\\x1b");
	check_int(text_escape_lines(out, 1, "abc"), ==, 0);
	check_str(out, "");
}

static void test_utf8_decode(void)
{
	unsigned cp;

	check_int(utf8_decode("\xf0\x9f\x98\x80", 4, &cp), ==, 4);
	check_int(cp, ==, 0x1F600);
	check_int(utf8_decode("\xc0\x80", 2, &cp), ==, 0);		/* overlong */
	check_int(utf8_decode("\xed\xa0\x80", 3, &cp), ==, 0);	/* surrogate */
	check_int(utf8_decode("\xe2\x82", 2, &cp), ==, 0);		/* truncated */
	check_int(cp, ==, 0xFFFD);
}

static void test_no_runs(void)
{
	char *path = xstrfmt("%s/empty.db", test_tmpdir());
	struct analyze_options ao = ANALYZE_OPTIONS_INIT;
	const struct report_format *f;
	struct analyze_model m;
	struct store *st;

	check_int(store_open(&st, path, 1), ==, 0);
	check_int(analyze_load(&m, st, &ao), ==, 0);
	for (f = report_formats; f->name; f++) {
		struct strbuf out = STRBUF_INIT;

		f->write(&out, &m);
		check(out.len > 0);
		strbuf_release(&out);
	}
	analyze_release(&m);
	store_close(st);
	free(path);
}

/*
 * Where the cost goes (report-build.c, report-where.c): a section per
 * entry of the model's where, the top rows in text, markdown and html, all
 * of them in JSON.
 */
static void test_where_sections(void)
{
	struct analyze_options ao = ANALYZE_OPTIONS_INIT;
	struct analyze_model m;
	struct profile base = PROFILE_INIT, var = PROFILE_INIT;
	struct strbuf out = STRBUF_INIT;
	const char *const formats[] = { "text", "markdown", "json", "html" };
	size_t i, row = SIZE_MAX;
	char name[32];

	if (!check_int(load_from(&m, current_db ? current_db : db(), &ao), ==, 0))
		return;
	for (i = 0; i < m.tables[0].nr_rows; i++)
		if (!m.tables[0].rows[i].is_baseline)
			row = i;
	if (!check(row != SIZE_MAX)) {
		analyze_release(&m);
		return;
	}
	for (i = 0; i < 12; i++) {
		snprintf(name, sizeof(name), "fn_%02zu.isra.0", i);
		profile_add(&base, name, 100);
		snprintf(name, sizeof(name), "fn_%02zu", i);
		profile_add(&var, name, 100 + 10 * (double)(12 - i));
	}
	profile_add(&base, "do_idle", 50);
	profile_add(&var, "[user]", 7);
	profile_merge(&base);
	profile_merge(&var);
	m.where = xcalloc(1, sizeof(*m.where));
	m.nr_where = 1;
	m.where[0].table = 0;
	m.where[0].row = row;
	m.where[0].base_runs = m.where[0].variant_runs = 3;
	m.where[0].phase = "work";
	attribution_compute(&m.where[0].a, &base, &var, 787);

	for (i = 0; i < 4; i++) {
		strbuf_reset(&out);
		report_find(formats[i])->write(&out, &m);
		check(strcasestr(out.buf, "where the cost goes") != NULL ||
		      !strcmp(formats[i], "json"));
		check(strstr(out.buf, "fn_00") != NULL);
		check(strstr(out.buf, "isra") == NULL);
		if (i != 2) {
			check(strstr(out.buf, "fn_09") != NULL);
			check(strstr(out.buf, "fn_10") == NULL);
			check(strstr(out.buf, "(3 other functions)") != NULL);
			check(strstr(out.buf, "the rows add up to the measured change, +787") != NULL);
		}
	}
	/* JSON: every row, and the check */
	strbuf_reset(&out);
	report_find("json")->write(&out, &m);
	check(strstr(out.buf, "\"where\": [") != NULL || strstr(out.buf, "\"where\":[") != NULL);
	check(strstr(out.buf, "\"name\": \"[user]\"") != NULL || strstr(out.buf, "\"name\":\"[user]\"") != NULL);
	check(strstr(out.buf, "fn_11") != NULL);
	check(strstr(out.buf, "\"adds_up\": true") != NULL || strstr(out.buf, "\"adds_up\":true") != NULL);
	strbuf_reset(&out);
	report_find("html")->write(&out, &m);
	check(strstr(out.buf, "id=\"where-1\"") != NULL);
	check(strstr(out.buf, "fn_09") != NULL);
	check(strstr(out.buf, "fn_10") == NULL);

	strbuf_release(&out);
	profile_release(&base);
	profile_release(&var);
	analyze_release(&m);
}

/* The legend is one: the noise band and alpha in every format (markdown had neither). */
static void test_legend_in_every_format(void)
{
	static const char *const formats[][2] = {
		{ "text", "q < 0.05" }, { "markdown", "q \\< 0.05" }, { "html", "q &lt; 0.05" },
	};
	struct strbuf out = STRBUF_INIT;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(formats); i++) {
		strbuf_reset(&out);
		check_int(render(&out, formats[i][0], NULL), ==, 0);
		check(strstr(out.buf, "±1% noise band") != NULL);
		check(strstr(out.buf, formats[i][1]) != NULL);
		check(strstr(out.buf, "[95% confidence interval]") != NULL ||
		      strstr(out.buf, "\\[95% confidence interval\\]") != NULL);
	}
	/* and the markdown report names the compiler the fixture stored */
	strbuf_reset(&out);
	check_int(render(&out, "markdown", NULL), ==, 0);
	check(strstr(out.buf, "compiler: gcc") != NULL);
	strbuf_release(&out);
}

/* A section built by hand, as report-doc.h says one is added, in the three formats. */
static void test_doc_section(void)
{
	struct analyze_model m;
	struct doc d = DOC_INIT;
	struct doc_section *s;
	struct doc_table *t;
	struct doc_row *r;
	struct strbuf out = STRBUF_INIT;

	memset(&m, 0, sizeof(m));
	s = doc_add_section(&d, "cost", DOC_ALL);
	doc_title(s, DOC_WORD, "where the cost goes:");
	t = doc_add_table(s, NULL);
	t->indent_text = 2;
	doc_col(t, "function", DOC_COL_NAME);
	doc_col(t, "change", DOC_COL_NUM)->gap = 3;
	r = doc_row(t);
	doc_cell(r, 0, "%s", "do_syscall_64");
	doc_cell(r, 1, "%+.1f%%", 12.5)->mark = '*';
	r = doc_row(t);
	doc_cell(r, 0, "%s", "<script>");
	doc_cell_interval(doc_cell(r, 1, "%+.1f%%", -1.0), "[-2.0% .. +0.1%]");
	d.m = &m;
	doc_render_text(&out, &d);
	check_str(out.buf, "where the cost goes:\n"
		  "  do_syscall_64                 +12.5% *\n"
		  "  <script>        -1.0% [-2.0% .. +0.1%]\n");
	strbuf_reset(&out);
	doc_render_markdown(&out, &d);
	if (!check(strstr(out.buf, "## Where the cost goes\n\n| function | change |\n|:--|--:|\n"
			  "| do_syscall_64 | +12.5% \\* |\n") != NULL))
		fputs(out.buf, stderr);
	strbuf_reset(&out);
	doc_render_html(&out, &d);
	check(strstr(out.buf, "<section id=\"cost\">\n<h2>Where the cost goes</h2>\n") != NULL);
	check(strstr(out.buf, "<td class=\"name\">&lt;script&gt;</td>") != NULL);
	strbuf_release(&out);
	doc_release(&d);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_formats_table);
	TEST(test_golden_text);
	TEST(test_golden_mmtests);
	TEST(test_golden_markdown);
	TEST(test_golden_csv);
	TEST(test_golden_json);
	TEST(test_golden_html);
	TEST(test_golden_steps);
	TEST(test_steps_in_svg_and_html);
	TEST(test_golden_sources);
	TEST(test_json_is_hyperfine_shaped);
	TEST(test_csv_round_trips_names);
	TEST(test_markup_formats_escape);
	TEST(test_svg_chart);
	TEST(test_html_page);
	TEST(test_html_sources);
	TEST(test_text_notes);
	TEST(test_escape_xml);
	TEST(test_escape_csv);
	TEST(test_escape_markdown);
	TEST(test_escape_text);
	TEST(test_escape_text_into_a_buffer);
	TEST(test_utf8_decode);
	TEST(test_no_runs);
	TEST(test_where_sections);
	TEST(test_legend_in_every_format);
	TEST(test_doc_section);
	free(fixture_db);
	free(steps_db);
	return test_done();
}
