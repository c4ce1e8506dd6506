/* meter.c: the instruction meter in a run: loading the plugin, reading its counts, the metrics they give. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/meter.h"
#include "run/protocol.h"
#include "store/idle-functions.h"
#include "store/metric.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

/* The plugin's file: a PROVE_LOCKING run's is about 400 KiB. */
#define METER_FILE_MAX ((size_t)64 << 20)

int meter_find_plugin(struct strbuf *out, const char *plugin)
{
	const char *env = getenv("KCP_METER");
	char *self, *slash;

	if (plugin || (env && *env)) {
		char *abs = realpath(plugin ? plugin : env, NULL);

		if (!abs)
			return error_errno("cannot find the meter plugin '%s'", plugin ? plugin : env);
		strbuf_addstr(out, abs);
		free(abs);
		return 0;
	}
	self = realpath("/proc/self/exe", NULL);
	if (!self)
		return error_errno("cannot find this executable (/proc/self/exe)");
	slash = strrchr(self, '/');
	strbuf_add(out, self, (size_t)(slash - self));
	strbuf_addstr(out, "/" METER_PLUGIN_NAME);
	free(self);
	if (access(out->buf, R_OK))
		return error("no instruction meter '%s' beside kconfperf (build it with make, set "
			     "KCP_METER, or run with --no-meter)", out->buf);
	return 0;
}

uint64_t meter_busy(const struct meter_counts *c)
{
	return c->total - c->idle;
}

void meter_result_init(struct meter_result *m)
{
	size_t i;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < STORE_METER_NR_PHASES; i++)
		profile_init(&m->phases[i]);
}

void meter_result_release(struct meter_result *m)
{
	size_t i;

	if (!m)
		return;
	free(m->target);
	free(m->marks);
	for (i = 0; i < STORE_METER_NR_PHASES; i++)
		profile_release(&m->phases[i]);
	meter_result_init(m);
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

/* The six counters of a mark or total line from words w[0..5]. */
static int parse_counts(struct meter_counts *c, char **w)
{
	uint64_t *v[] = { &c->total, &c->before_kernel, &c->kernel, &c->kernel_other,
			  &c->user, &c->idle };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(v); i++)
		if (parse_u64(w[i], v[i]))
			return -1;
	/* the parts add up, and idle is part of the kernel */
	if (c->before_kernel + c->kernel + c->kernel_other + c->user != c->total ||
	    c->idle > c->kernel)
		return -1;
	return 0;
}

static int mark_kind(const char *s, enum meter_mark_kind *out)
{
	static const char *const names[METER_NR_MARKS] = { METER_MARK_NAMES };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(s, names[i])) {
			*out = (enum meter_mark_kind)i;
			return 0;
		}
	return -1;
}

/* Splits line (in place) at single spaces into at most max words; their number. */
static size_t split(char *line, char **w, size_t max, char **rest)
{
	size_t n = 0;

	*rest = NULL;
	while (n < max) {
		char *sp = strchr(line, ' ');

		w[n++] = line;
		if (!sp)
			return n;
		*sp = '\0';
		line = sp + 1;
	}
	*rest = line;
	return n;
}

static int parse_line(struct meter_result *out, char *line, int *ended, int *seen_total)
{
	char *w[9], *rest;
	size_t n = split(line, w, 3, &rest);
	enum store_meter_phase phase;
	uint64_t count;

	if (*ended)
		return -1;	/* nothing after "end" */
	if (!strcmp(w[0], METER_FILE_MAGIC))
		return n == 2 && !strcmp(w[1], METER_FILE_STR(METER_FILE_VERSION)) ? 0 : -1;
	if (!strcmp(w[0], METER_REC_TARGET) && n == 2) {
		free(out->target);
		out->target = xstrdup(w[1]);
		return 0;
	}
	if (!strcmp(w[0], METER_REC_MAP)) {
		out->has_map = n == 3 && !rest && strcmp(w[1], METER_NONE);
		return (n == 2 && !strcmp(w[1], METER_NONE)) || (n == 3 && !rest) ? 0 : -1;
	}
	if (!strcmp(w[0], METER_REC_GUEST)) {
		out->has_guest = n == 3 && !rest;
		return (n == 2 && !strcmp(w[1], METER_NONE)) || (n == 3 && !rest) ? 0 : -1;
	}
	if (!strcmp(w[0], METER_REC_END) && n == 1) {
		*ended = 1;
		return *seen_total ? 0 : -1;
	}
	if (!strcmp(w[0], METER_REC_FN) && n == 3 && rest && *rest && !strchr(rest, ' ')) {
		if (store_meter_phase_parse(&phase, w[1]) || parse_u64(w[2], &count))
			return -1;
		profile_add(&out->phases[phase], rest, (double)count);
		return 0;
	}
	if (!strcmp(w[0], METER_REC_TOTAL) && rest) {
		size_t k = split(rest, w + 3, 4, &rest);

		/* w[1], w[2] and the four after them */
		if (k != 4 || rest || *seen_total)
			return -1;
		{
			char *c[6] = { w[1], w[2], w[3], w[4], w[5], w[6] };

			if (parse_counts(&out->total, c))
				return -1;
		}
		*seen_total = 1;
		return 0;
	}
	if (!strcmp(w[0], METER_REC_STARTED) && n == 2) {
		if (!*seen_total || out->started || parse_u64(w[1], &count) || count < out->total.total)
			return -1;
		out->started = count;
		return 0;
	}
	/* ops ADDS WATCHES [CALLS]: CALLS since the plugin watched rep strings by the exception table */
	if (!strcmp(w[0], METER_REC_OPS) && n == 3 && (!rest || !strchr(rest, ' '))) {
		if (!*seen_total || out->op_adds || parse_u64(w[1], &out->op_adds) ||
		    parse_u64(w[2], &out->op_watches) || (rest && parse_u64(rest, &out->op_calls)))
			return -1;
		return 0;
	}
	if (!strcmp(w[0], METER_REC_EXTABLE) && n == 2) {
		if (!strcmp(w[1], METER_NONE))
			return 0;
		return parse_u64(w[1], &out->extable);
	}
	if (!strcmp(w[0], METER_REC_MARK) && rest) {
		struct meter_mark mk;
		char *c[6];
		size_t k = split(rest, c, 6, &rest);
		char *end;
		long iter;

		if (k != 6 || rest || mark_kind(w[1], &mk.kind) || *seen_total)
			return -1;
		errno = 0;
		iter = strtol(w[2], &end, 10);
		if (errno || *end || end == w[2] || iter < -1 || iter > 1000000)
			return -1;
		mk.iter = (int)iter;
		if (parse_counts(&mk.c, c))
			return -1;
		ALLOC_GROW(out->marks, out->nr_marks + 1, out->alloc_marks);
		out->marks[out->nr_marks++] = mk;
		return 0;
	}
	return -1;
}

/* Removes name's entry from a merged profile. */
static void drop_entry(struct profile *p, const char *name)
{
	const struct profile_entry *e = profile_find(p, name);
	size_t i;

	if (!e)
		return;
	i = (size_t)(e - p->v);
	free(p->v[i].name);
	memmove(p->v + i, p->v + i + 1, (p->nr - i - 1) * sizeof(*p->v));
	p->nr--;
}

int meter_parse(struct meter_result *out, const char *buf, size_t len, const char *origin,
		struct strbuf *why)
{
	struct strbuf line = STRBUF_INIT;
	size_t pos = 0, i;
	unsigned lineno = 0;
	int ended = 0, seen_total = 0, ret = -1;

	meter_result_release(out);
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t l = nl ? (size_t)(nl - (buf + pos)) : len - pos;

		lineno++;
		strbuf_reset(&line);
		strbuf_add(&line, buf + pos, l);
		pos += l + (nl ? 1 : 0);
		if (lineno == 1 && strcmp(line.buf, METER_FILE_HEADER)) {
			strbuf_addf(why, "%s:1: not the meter's counts (expected '" METER_FILE_HEADER "')",
				    origin);
			goto out;
		}
		if (memchr(line.buf, '\0', line.len) || parse_line(out, line.buf, &ended, &seen_total)) {
			strbuf_addf(why, "%s:%u: cannot read '%.60s'", origin, lineno, line.buf);
			goto out;
		}
	}
	if (!ended) {
		strbuf_addf(why, "%s: incomplete (no 'end' line): qemu did not exit normally",
			    origin);
		goto out;
	}
	for (i = 0; i < STORE_METER_NR_PHASES; i++)
		profile_merge(&out->phases[i]);
	/*
	 * The boot phase is the kernel's start to init, as the boot
	 * workload's metric is: what ran before the kernel (firmware, the
	 * decompressor) follows the image's compression, not its work, and
	 * stays in the totals and the whole run's profile.
	 */
	drop_entry(&out->phases[STORE_METER_BOOT], KCP_BUCKET_BEFORE_KERNEL);
	ret = 0;
out:
	strbuf_release(&line);
	if (ret)
		meter_result_release(out);
	return ret;
}

int meter_read(struct meter_result *out, const char *path, struct strbuf *why)
{
	struct strbuf sb = STRBUF_INIT;
	FILE *f = fopen(path, "r");
	int ret = -1;

	if (!f) {
		strbuf_addf(why, "no counts from the meter ('%s': %s)", path, strerror(errno));
		return -1;
	}
	if (strbuf_read_fd_max(&sb, fileno(f), 0, METER_FILE_MAX) < 0)
		strbuf_addf(why, "cannot read '%s': %s", path, strerror(errno));
	else
		ret = meter_parse(out, sb.buf, sb.len, path, why);
	fclose(f);
	strbuf_release(&sb);
	return ret;
}

static int is_boot(const char *workload)
{
	return !strcmp(workload, "boot");
}

static int is_appliance(const char *workload)
{
	return !strcmp(workload, "libguestfs");
}

const char *meter_metric_description(const char *workload)
{
	if (is_boot(workload))
		return "guest instructions from the kernel's start to init, idle excluded";
	if (is_appliance(workload))
		return "guest instructions of the whole appliance, idle excluded";
	return "guest instructions, idle excluded";
}

enum store_meter_phase meter_metric_phase(const char *workload)
{
	if (is_boot(workload))
		return STORE_METER_BOOT;
	if (is_appliance(workload))
		return STORE_METER_ALL;
	return STORE_METER_WORK;
}

static const struct meter_mark *find_mark(const struct meter_result *m,
					  enum meter_mark_kind kind, int iter)
{
	const struct meter_mark *found = NULL;
	size_t i;

	for (i = 0; i < m->nr_marks; i++)
		if (m->marks[i].kind == kind && (iter < 0 || m->marks[i].iter == iter)) {
			found = &m->marks[i];
			if (kind == METER_MARK_INIT || kind == METER_MARK_END)
				break;	/* the first; a begin: the last before its end */
		}
	return found;
}

/* Busy instructions from the kernel's start to init. */
static uint64_t boot_busy(const struct meter_mark *init)
{
	return meter_busy(&init->c) - init->c.before_kernel;
}

/* Busy instructions of iteration iter, or -1 without both its markers. */
static int64_t iteration_busy(const struct meter_result *m, int iter)
{
	const struct meter_mark *begin = find_mark(m, METER_MARK_BEGIN, iter);
	const struct meter_mark *end = find_mark(m, METER_MARK_END, iter);

	if (!begin || !end || begin > end)
		return -1;
	return (int64_t)(meter_busy(&end->c) - meter_busy(&begin->c));
}

/* The per= of proto's first sample of iteration iter: 1 when none says. */
static double per_of(const struct protocol_result *proto, unsigned iter, int *found)
{
	size_t i;

	*found = 0;
	for (i = 0; i < proto->nr_samples; i++)
		if (proto->samples[i].iteration == iter) {
			*found = 1;
			return proto->samples[i].per >= 1 ? proto->samples[i].per : 1;
		}
	return 1;
}

static int add_sample(struct protocol_result *proto, const char *workload, unsigned iter,
		      double value, struct strbuf *why)
{
	struct protocol_sample *s;
	size_t i;

	for (i = 0; i < proto->nr_samples; i++)
		if (proto->samples[i].iteration == iter &&
		    !strcmp(proto->samples[i].metric, METRIC_INSTRUCTIONS_NAME)) {
			strbuf_addf(why, "the run has a metric '%s' of its own: the meter's is "
				    "not added", METRIC_INSTRUCTIONS_NAME);
			return -1;
		}
	ALLOC_GROW(proto->samples, proto->nr_samples + 1, proto->alloc_samples);
	s = &proto->samples[proto->nr_samples++];
	memset(s, 0, sizeof(*s));
	s->workload = xstrdup(workload);
	s->iteration = iter;
	s->metric = xstrdup(METRIC_INSTRUCTIONS_NAME);
	s->unit = xstrdup(METER_UNIT);
	s->value = value;
	s->higher_is_better = 0;
	s->per = 1;
	return 0;
}

int meter_add_samples(struct protocol_result *proto, const struct meter_result *m,
		      const char *workload, struct strbuf *why)
{
	const struct meter_mark *init = find_mark(m, METER_MARK_INIT, -1);
	unsigned iter, nr_iters = 0;
	size_t i;

	if (is_appliance(workload))
		return add_sample(proto, workload, 0, (double)meter_busy(&m->total), why);
	if (is_boot(workload)) {
		if (!init) {
			strbuf_addstr(why, "the meter never saw init start");
			return -1;
		}
		return add_sample(proto, workload, 0, (double)boot_busy(init), why);
	}
	/* one sample per iteration the workload reported */
	for (i = 0; i < proto->nr_samples; i++)
		if (proto->samples[i].iteration + 1 > nr_iters)
			nr_iters = proto->samples[i].iteration + 1;
	for (iter = 0; iter < nr_iters; iter++) {
		int64_t busy = iteration_busy(m, (int)iter);
		int reported;
		double per = per_of(proto, iter, &reported);

		if (!reported)
			continue;
		if (busy < 0) {
			strbuf_addf(why, "the meter saw no begin and end of iteration %u", iter);
			return -1;
		}
		if (add_sample(proto, workload, iter, (double)busy / per, why))
			return -1;
	}
	return 0;
}

void meter_store_counts(struct store_meter *out, const struct meter_result *m,
			const struct protocol_result *proto)
{
	const struct meter_mark *init = find_mark(m, METER_MARK_INIT, -1);
	const struct meter_mark *off = find_mark(m, METER_MARK_POWEROFF, -1);
	/* up to the power-off request: after it the end follows host timing */
	const struct meter_counts *c = off ? &off->c : &m->total;
	int iter;

	free(out->note);
	memset(out, 0, sizeof(*out));
	out->total = c->total;
	out->before_kernel = c->before_kernel;
	out->kernel = c->kernel;
	out->kernel_other = c->kernel_other;
	out->user = c->user;
	out->idle = c->idle;
	out->boot = init ? (int64_t)boot_busy(init) : -1;
	out->work = -1;
	out->has_map = m->has_map;
	for (iter = 0; find_mark(m, METER_MARK_END, iter); iter++) {
		int64_t busy = iteration_busy(m, iter);
		int reported;
		double per = per_of(proto, (unsigned)iter, &reported);

		if (busy < 0)
			continue;
		out->work = (out->work < 0 ? 0 : out->work) + busy;
		out->iterations++;
		out->ops += per;
	}
}
