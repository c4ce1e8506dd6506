/* report-sections.h: what else an option changes (kernel reports, environment, sizes, help-text claims), per format. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef REPORT_SECTIONS_H
#define REPORT_SECTIONS_H

struct analyze_model;
struct doc;
struct json_writer;
struct strbuf;

/*
 * The sections of issue 26, from the model alone (the numbers and
 * sentences are analyze-findings.h's, analyze-env.h's, analyze-claims.h's
 * and the builds'): report_*_section() add them to the document that text,
 * markdown and html render (report-doc.h; report-build.c's
 * report_sections[] calls them), and JSON and mmtests, which keep their own
 * shapes, call their functions below.  Nothing is added when there is
 * nothing to say (no finding, say), so a report without any keeps its shape.
 *
 * Kernel reports: per variant, how many of its runs showed which report
 * and whether its baseline's runs did; HTML adds the first report's text.
 */
void report_findings_section(struct doc *d, const struct analyze_model *m);
/* A "findings" array in the kconfperf object. */
void report_findings_json(struct json_writer *jw, const struct analyze_model *m);
/* mmtests: one comment-like line per finding after the comparison. */
void report_findings_mmtests(struct strbuf *out, const struct analyze_model *m);

/*
 * Image size by section: per built variant, bzImage beside vmlinux's
 * text, data and bss, the baseline's in bytes and every other variant's
 * as its change against its baseline.  Only when some build has section
 * sizes (builds before they were measured have none).
 */
void report_sizes_section(struct doc *d, const struct analyze_model *m);

/*
 * The environment (analyze-env.h): every fact the runs were made under
 * and, for a fact the variants differ in, which variant has what.
 */
void report_env_section(struct doc *d, const struct analyze_model *m);
/* An "environment" array in the kconfperf object. */
void report_env_json(struct json_writer *jw, const struct analyze_model *m);

/*
 * Kconfig's claims (analyze-claims.h): per measured option, the sentence
 * of its help text that states a cost, and the change measured per
 * workload and metric beside it.
 */
void report_claims_section(struct doc *d, const struct analyze_model *m);
/* A "claims" array in the kconfperf object. */
void report_claims_json(struct json_writer *jw, const struct analyze_model *m);

#endif
