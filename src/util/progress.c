/* progress.c: how long work shows how far it has got: counts, elapsed time, time left. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "util/escape.h"
#include "util/progress.h"
#include "util/sigchain.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

/* At a fatal signal: end the in-place line (write(2) is async-signal-safe). */
static void progress_cleanup(int signo UNUSED, void *data)
{
	struct progress *p = data;

	if (p->shown)
		(void)!write(2, "\n", 1);
	p->shown = 0;
}

void progress_start(struct progress *p, enum progress_mode mode, size_t total)
{
	memset(p, 0, sizeof(*p));
	p->lines = mode == PROGRESS_LINES;
	p->in_place = mode == PROGRESS_TERMINAL && isatty(2);
	p->total = total;
	p->start = now_seconds();
	if (p->in_place)
		sigchain_push_cleanup(progress_cleanup, p);
}

void progress_stop(struct progress *p)
{
	progress_clear(p);
	if (p->in_place)
		sigchain_pop_cleanup(progress_cleanup, p);
	p->in_place = 0;
}

void progress_add_duration(struct strbuf *sb, double seconds)
{
	long s = (long)(seconds + 0.5);

	if (s < 0)
		s = 0;
	if (s >= 3600)
		strbuf_addf(sb, "%ldh%02ldm", s / 3600, s / 60 % 60);
	else if (s >= 60)
		strbuf_addf(sb, "%ldm%02lds", s / 60, s % 60);
	else
		strbuf_addf(sb, "%lds", s);
}

void progress_add_count(const struct progress *p, struct strbuf *sb, size_t n)
{
	if (p->total)
		strbuf_addf(sb, "[%zu/%zu] ", n, p->total);
	else
		strbuf_addf(sb, "[%zu] ", n);
}

int progress_in_place(const struct progress *p)
{
	return p->in_place;
}

void progress_show(struct progress *p, const char *what, double per_item)
{
	struct strbuf sb = STRBUF_INIT;
	struct winsize ws;

	if (quiet || (!p->lines && !p->in_place))
		return;
	if (per_item <= 0 && p->done)
		per_item = p->done_seconds / (double)p->done;
	progress_add_count(p, &sb, p->done + 1);
	strbuf_add_text(&sb, what);	/* names are the user's, and so not safe */
	strbuf_addstr(&sb, " (elapsed ");
	progress_add_duration(&sb, now_seconds() - p->start);
	if (per_item > 0 && p->total > p->done) {
		strbuf_addstr(&sb, ", about ");
		progress_add_duration(&sb, per_item * (double)(p->total - p->done));
		strbuf_addstr(&sb, " left");
	}
	strbuf_addch(&sb, ')');
	if (p->lines) {
		note("%s", sb.buf);
	} else {
		if (!ioctl(2, TIOCGWINSZ, &ws) && ws.ws_col > 1 && sb.len >= ws.ws_col)
			strbuf_setlen(&sb, ws.ws_col - 1);
		fprintf(stderr, "\r%s\033[K", sb.buf);
		fflush(stderr);
		p->shown = 1;
	}
	strbuf_release(&sb);
}

void progress_done(struct progress *p, double seconds)
{
	p->done++;
	p->done_seconds += seconds;
}

void progress_clear(struct progress *p)
{
	if (p->shown)
		fputs("\r\033[K", stderr);
	p->shown = 0;
}
