/* test-series.c: unit tests for parameter series in the analysis and in every report format. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "stats/analyze.h"
#include "store/store.h"
#include "test-lib.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/wrapper.h"

/*
 * hackbench:groups=1,4,7 over baseline and CONFIG_DEBUG_PREEMPT=y (+8%),
 * 4 runs each; groups=7 of the variant has one timed-out run.  The
 * members' canonical specs: "hackbench" (groups=1 is the default),
 * "hackbench:groups=4", "hackbench:groups=7".
 */
static const char *const members[] = { "hackbench", "hackbench:groups=4", "hackbench:groups=7" };
static const double base_time[] = { 0.03, 0.12, 0.21 };
static char *db;

static int make_experiment(const char *path)
{
	static const char *const names[] = { "baseline", "CONFIG_DEBUG_PREEMPT=y" };
	struct store *st;
	int64_t ids[2] = { 0, 0 };
	size_t v, w;
	int round, ret = -1;

	if (store_open(&st, path, 1))
		return -1;
	if (store_set_meta(st, "kernel_version", "6.1.192") ||
	    store_set_meta(st, "series", "hackbench:groups=1,4,7\nnosuch:x=1,2"))
		goto out;
	for (v = 0; v < 2; v++) {
		struct store_variant sv = STORE_VARIANT_INIT;
		struct store_variant *all;
		size_t nr, k;

		sv.name = (char *)names[v];
		sv.kind = (char *)(v ? "oat" : "baseline");
		sv.status = VARIANT_OK;
		sv.effective_diff = (char *)"";
		sv.options = (char *)(v ? names[v] : "");
		sv.config_hash = (char *)(v ? "h1" : "h0");
		sv.position = (int)v;
		if (store_put_variant(st, &sv) || store_get_variants(st, &all, &nr))
			goto out;
		for (k = 0; k < nr; k++)
			if (!strcmp(all[k].name, names[v]))
				ids[v] = all[k].id;
		store_variants_free(all, nr);
	}
	for (round = 0; round < 4; round++)
		for (w = 0; w < 3; w++)
			for (v = 0; v < 2; v++) {
				struct store_run r = STORE_RUN_INIT;
				struct store_sample s = { 0 };
				int failed = v == 1 && w == 2 && round == 3;

				r.variant_id = ids[v];
				r.workload = (char *)members[w];
				r.round = round;
				r.seq = (int)(w * 2 + v);
				r.accel = (char *)"tcg";
				r.status = failed ? RUN_TIMEOUT : RUN_OK;
				r.error = (char *)(failed ? "timed out after 60 s" : NULL);
				r.wall_s = 3.0;
				r.boot_s = NAN;
				s.metric = "time";
				s.unit = "s";
				s.value = base_time[w] * (v ? 1.08 : 1.0) * (1 + 0.001 * round);
				if (store_add_run(st, &r, &s, failed ? 0 : 1))
					goto out;
			}
	ret = 0;
out:
	store_close(st);
	return ret;
}

static int render(struct strbuf *out, const char *format)
{
	struct analyze_options ao = ANALYZE_OPTIONS_INIT;
	struct analyze_model m;
	struct store *st;
	int ret = -1;

	if (store_open(&st, db, 0))
		return -1;
	test_capture_start();
	if (!analyze_load(&m, st, &ao)) {
		report_find(format)->write(out, &m);
		analyze_release(&m);
		ret = 0;
	}
	test_capture_stop();
	store_close(st);
	return ret;
}

static void test_model(void)
{
	struct analyze_options ao = ANALYZE_OPTIONS_INIT;
	struct analyze_model m;
	struct store *st;
	const struct analyze_series *s = NULL;
	const struct analyze_row *r;
	size_t i;

	check_int(store_open(&st, db, 0), ==, 0);
	test_capture_start();
	check_int(analyze_load(&m, st, &ao), ==, 0);
	test_capture_stop();
	/* time and wall: a series per metric (boot is never measured here) */
	check_int(m.nr_series, ==, 2);
	for (i = 0; i < m.nr_series; i++)
		if (!strcmp(m.series[i].metric, "time"))
			s = &m.series[i];
	if (!check(s != NULL))
		goto out;
	check_str(s->label, "hackbench:groups=1,4,7");
	check_str(s->param, "groups");
	check_int(s->nr_values, ==, 3);
	check_str(s->values[0], "1");
	check_str(s->values[2], "7");
	check_int(s->nr_variants, ==, 2);
	check_int(s->failed, ==, 1);
	check_int(s->min_n, ==, 3);
	check_int(s->max_n, ==, 4);
	for (i = 0; i < 3; i++) {
		check(s->tables[i] != SIZE_MAX);
		check_str(m.tables[s->tables[i]].workload, members[i]);
		check_int(m.tables[s->tables[i]].series, ==, (long long)(s - m.series));
	}
	r = analyze_series_cell(&m, s, 1, s->variants[1], NULL);
	if (check(r != NULL) && check(r->compared))
		check_double(r->cmp.change, 8.0, 0.01);
	check(analyze_series_cell(&m, s, 3, s->variants[1], NULL) == NULL);
out:
	analyze_release(&m);
	store_close(st);
}

static void test_text_and_mmtests(void)
{
	struct strbuf out = STRBUF_INIT;

	check_int(render(&out, "text"), ==, 0);
	if (getenv("KCP_SHOW"))
		fputs(out.buf, stderr);
	check(strstr(out.buf, "series:   hackbench:groups=1,4,7\n"));
	check(strstr(out.buf, "a row per groups"));
	check(strstr(out.buf, "runs:     3 to 4 per variant and groups, 23 in all; 1 failed run"));
	check(strstr(out.buf, "\nAmean     1   "));
	check(strstr(out.buf, "\nAmean     4   "));
	check(strstr(out.buf, "\nAmean     7   "));
	check(strstr(out.buf, "(+8.0%) *"));
	check(strstr(out.buf, "groups=7 CONFIG_DEBUG_PREEMPT=y: 1 of 4 runs failed (timeout: "
		     "timed out after 60 s)"));
	/* the members' own tables are not printed */
	check(!strstr(out.buf, "workload: hackbench"));
	strbuf_reset(&out);

	check_int(render(&out, "mmtests"), ==, 0);
	if (getenv("KCP_SHOW"))
		fputs(out.buf, stderr);
	check(strstr(out.buf, "kconfperf hackbench:groups=1,4,7 time (s), lower is better, a row "
		     "per groups\n"));
	check(strstr(out.buf, "Amean     1     "));
	check(strstr(out.buf, "Stddev    7     "));
	/* a gain in mmtests terms is negative for a slower variant */
	check(strstr(out.buf, "*  -8.00%*"));
	check(!strstr(out.buf, "kconfperf hackbench time"));
	strbuf_release(&out);
}

static void test_markdown_json_html(void)
{
	struct strbuf out = STRBUF_INIT;
	struct json *root = NULL;
	struct json_error err;
	const struct json *series, *row;

	check_int(render(&out, "markdown"), ==, 0);
	check(strstr(out.buf, "## hackbench:groups=1,4,7: time\n"));
	check(strstr(out.buf, "| groups | baseline | CONFIG_DEBUG_PREEMPT=y |"));
	check(strstr(out.buf, "| 4 | 0.1202 s | 0.1298 s (+8.0%) \\* |\n"));
	check(strstr(out.buf, "\n- groups=7 CONFIG_DEBUG_PREEMPT=y: 1 of 4 runs failed"));
	if (getenv("KCP_SHOW"))
		fputs(out.buf, stderr);
	strbuf_reset(&out);

	check_int(render(&out, "json"), ==, 0);
	if (check_int(json_parse(&root, out.buf, out.len, &err), ==, 0)) {
		series = json_get(json_get(root, "kconfperf"), "series");
		if (check(series && series->type == JSON_ARRAY && series->nr == 2)) {
			check_str(json_get(&series->items[0], "param")->string, "groups");
			row = &json_get(&series->items[0], "rows")->items[1];
			check_str(json_get(row, "value")->string, "4");
			check_str(json_get(row, "workload")->string, "hackbench:groups=4");
			check_int(json_get(row, "cells")->nr, ==, 2);
		}
		/* hyperfine's results keep every member */
		check_int(json_get(root, "results")->nr, ==, 12);
	}
	json_free(root);
	strbuf_reset(&out);

	check_int(render(&out, "html"), ==, 0);
	check(strstr(out.buf, "<table class=\"summary series\">"));
	check(strstr(out.buf, "<section id=\"s1\">"));
	strbuf_release(&out);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	db = xstrfmt("%s/series.db", test_tmpdir());
	if (make_experiment(db)) {
		fprintf(stderr, "cannot write the series experiment\n");
		return 1;
	}
	TEST(test_model);
	TEST(test_text_and_mmtests);
	TEST(test_markdown_json_html);
	free(db);
	strbuf_release(&test_messages);
	return test_done();
}
