/* plan-print.c: the stored plan as a table, a footer of groups and steps, and what --slim removed. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan.h"
#include "store/conditions.h"
#include "store/meta-keys.h"
#include "store/store.h"
#include "util/escape.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

/* What the table shows of a string: escaped, since names and reasons are the user's. */
static char *shown(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_text(&sb, s);
	return strbuf_detach(&sb, NULL);
}

/* s escaped into *text (reset first), for the footer: names and values are the user's. */
static const char *shown_text(struct strbuf *text, const char *s)
{
	strbuf_reset(text);
	strbuf_add_text(text, s);
	return text->buf;
}

/*
 * Under the table: what each named group holds, and how to read the
 * steps of the cumulative design.
 */
static void print_footer(struct store *st, const struct store_variant *v, size_t nr, FILE *fp)
{
	char *groups = store_get_meta(st, META_GROUPS);
	const char *line, *next;
	size_t i, steps = 0, glen = 0;
	const char *group = NULL;
	struct strbuf sb = STRBUF_INIT, text = STRBUF_INIT;

	for (i = 0; i < nr; i++)
		if (!strcmp(v[i].kind, "cumulative"))
			steps++;
	if (steps)
		fprintf(fp, "\ncumulative: %zu steps, each +OPTION adds it to the step before "
			"(the first to the baseline)\n", steps);
	for (line = groups ? groups : ""; *line; line = next) {
		size_t len = strcspn(line, "\n"), name = strcspn(line, " ");

		next = line + len + (line[len] == '\n');
		if (name >= len)
			continue;
		if (!group || glen != name || strncmp(group, line, name)) {
			fputs(group ? "\n" : "\ngroups (each one variant):\n", fp);
			strbuf_reset(&sb);
			strbuf_add(&sb, line, name);
			fputs("  ", fp);
			fputs(shown_text(&text, sb.buf), fp);
			fputc(':', fp);
			group = line;
			glen = name;
		}
		/* a member's value may be a string of the user's: escaped too */
		strbuf_reset(&sb);
		strbuf_add(&sb, line + name + 1, len - name - 1);
		fputc(' ', fp);
		fputs(shown_text(&text, sb.buf), fp);
	}
	if (group)
		fputc('\n', fp);
	strbuf_release(&sb);
	strbuf_release(&text);
	free(groups);
}

static size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

/* "slim: 3853 modules turned off (...)" under the table of a --slim plan. */
static void print_slim_summary(struct store *st, FILE *fp)
{
	char *removed = store_get_meta(st, META_SLIM_REMOVED);
	char *stayed = store_get_meta(st, META_SLIM_STAYED);

	if (removed && *removed)
		fprintf(fp, "\nslim: %zu module symbols turned off, %zu stay m (selected or "
			"without a prompt); 'kconfperf plan --slimmed' lists them\n",
			count_lines(removed), count_lines(stayed));
	free(removed);
	free(stayed);
}

/* "harness: x86_64,fast-boot" and "boot: bzImage, LZ4 (...)": what every variant got. */
static void print_boot(struct store *st, FILE *fp)
{
	struct conditions c = CONDITIONS_INIT;

	if (conditions_load(&c, st))
		goto out;
	if (c.harness)
		fprintf(fp, "\nharness: %s\n", c.harness);
	if (c.boot)
		fprintf(fp, "%sboot:    %s\n", c.harness ? "" : "\n", c.boot);
out:
	conditions_release(&c);
}

int plan_print_table(struct store *st, FILE *fp)
{
	struct store_variant *v;
	size_t nr, i;
	int wname = 7, wstatus = 6;
	struct strbuf line = STRBUF_INIT;
	char **names, **statuses;

	if (store_get_variants(st, &v, &nr))
		return -1;
	if (!nr) {
		store_variants_free(v, nr);
		return error("%s: no plan yet (run 'kconfperf plan')", store_path(st));
	}
	names = xcalloc(nr, sizeof(*names));
	statuses = xcalloc(nr, sizeof(*statuses));
	for (i = 0; i < nr; i++) {
		struct strbuf status = STRBUF_INIT;

		names[i] = shown(v[i].name);
		strbuf_addstr(&status, variant_status_name(v[i].status));
		if (v[i].same_as) {
			strbuf_addch(&status, ' ');
			strbuf_add_text(&status, v[i].same_as);
		}
		statuses[i] = strbuf_detach(&status, NULL);
		if ((int)strlen(names[i]) > wname)
			wname = (int)strlen(names[i]);
		if ((int)strlen(statuses[i]) > wstatus)
			wstatus = (int)strlen(statuses[i]);
	}
	fprintf(fp, "%-*s  %-*s  %9s  %-16s  %s\n", wname, "variant", wstatus, "status",
		"requested", "effective", "reason");
	for (i = 0; i < nr; i++) {
		char eff[64];
		int requested = 0;
		const char *c;

		for (c = v[i].requested; c && *c; c++)
			if (*c == '\n')
				requested++;
		snprintf(eff, sizeof(eff), "+%d -%d ~%d", v[i].added, v[i].removed, v[i].changed);
		strbuf_reset(&line);
		strbuf_addf(&line, "%-*s  %-*s  %9d  %-16s  ", wname, names[i], wstatus, statuses[i],
			    requested, strcmp(v[i].kind, "baseline") ? eff : "-");
		strbuf_add_text(&line, v[i].reason);
		strbuf_rtrim(&line);
		fprintf(fp, "%s\n", line.buf);
		free(names[i]);
		free(statuses[i]);
	}
	free(names);
	free(statuses);
	print_footer(st, v, nr, fp);
	store_variants_free(v, nr);
	strbuf_release(&line);
	print_slim_summary(st, fp);
	print_boot(st, fp);
	return 0;
}

int plan_print_slimmed(struct store *st, FILE *fp)
{
	char *removed = store_get_meta(st, META_SLIM_REMOVED);
	char *stayed = store_get_meta(st, META_SLIM_STAYED);
	const char *p, *nl;
	int ret = 0;

	if (!removed || !*removed) {
		ret = error("%s: the plan was not made with --slim", store_path(st));
		goto out;
	}
	for (p = removed; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		fprintf(fp, "# CONFIG_%.*s is not set\n", (int)(nl - p), p);
	}
	for (p = stayed ? stayed : ""; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		fprintf(fp, "CONFIG_%.*s=m  (stays: selected, or no prompt)\n", (int)(nl - p), p);
	}
out:
	free(removed);
	free(stayed);
	return ret;
}
