/* vm-classify.c: what became of a run: ok, or why not (a panic, a timeout, qemu's exit, the guest's own error). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>

#include "run/protocol.h"
#include "run/vm-parts.h"
#include "run/vm.h"
#include "util/run-command.h"
#include "util/strbuf.h"

void vm_add_last_lines(struct strbuf *out, const char *text, size_t len, int n)
{
	size_t start = len;

	if (start && text[start - 1] == '\n')
		start--;
	while (start > 0) {
		if (text[start - 1] == '\n' && --n <= 0)
			break;
		start--;
	}
	for (; start < len; start++)
		if (text[start] != '\r' || (start + 1 < len && text[start + 1] != '\n'))
			strbuf_addch(out, text[start]);
}

/* The last nonblank line of text, without its newline, appended to out. */
static void add_last_line(struct strbuf *out, const char *text)
{
	size_t len = text ? strlen(text) : 0;
	size_t end, start;

	while (len && (text[len - 1] == '\n' || text[len - 1] == '\r' ||
		       text[len - 1] == ' '))
		len--;
	end = len;
	start = end;
	while (start && text[start - 1] != '\n')
		start--;
	strbuf_add(out, text + start, end - start);
}

/*
 * Finds "Kernel panic - not syncing" and appends what follows it on its line
 * ("Attempted to kill init! exitcode=0x..."); returns 1 when found.
 */
static int find_panic(struct strbuf *why, const char *console, size_t len)
{
	static const char needle[] = "Kernel panic - not syncing";
	const char *p = memmem(console, len, needle, sizeof(needle) - 1);
	const char *end;

	if (!p)
		return 0;
	p += sizeof(needle) - 1;
	end = memchr(p, '\n', len - (size_t)(p - console));
	if (!end)
		end = console + len;
	while (p < end && (*p == ':' || *p == ' '))
		p++;
	while (end > p && (end[-1] == '\r' || end[-1] == ' '))
		end--;
	strbuf_addstr(why, "kernel panic");
	if (end > p) {
		strbuf_addstr(why, ": ");
		strbuf_add(why, p, (size_t)(end - p));
	}
	return 1;
}

static void describe_progress(struct strbuf *why, const struct protocol_result *r)
{
	if (r->done)
		strbuf_addstr(why, "the guest said done but never powered off");
	else if (r->nr_samples)
		strbuf_addf(why, "the guest was ready and wrote %zu sample%s", r->nr_samples,
			    r->nr_samples == 1 ? "" : "s");
	else if (r->ready)
		strbuf_addf(why, "the guest was ready after %.2f s, no samples", r->boot_seconds);
	else
		strbuf_addstr(why, "no output from the guest");
}

void vm_classify(struct vm_result *out, const struct child_process *cp,
		 const char *console, size_t console_len,
		 const char *results, size_t results_len, const char *qemu_log)
{
	struct strbuf why = STRBUF_INIT;
	const char *who = out->accel == VM_ACCEL_RUNNER ? "runner" : "qemu";

	strbuf_reset(&out->reason);
	strbuf_reset(&out->console_tail);
	protocol_result_release(&out->proto);
	out->proto.workload = out->workload;
	out->seconds = cp->seconds;
	out->exit_code = cp->exit_code;
	if (results_len)
		protocol_parse_buffer(&out->proto, results,
				      results_len < KCP_OUTPUT_MAX ? results_len : KCP_OUTPUT_MAX,
				      "results.txt");

	if (cp->start_errno) {
		out->status = RUN_START_FAILED;
		strbuf_addf(&out->reason, "cannot start %s '%s': %s", who,
			    cp->args.nr ? cp->args.v[0] : "", strerror(cp->start_errno));
	} else if (cp->exceeded || results_len > KCP_OUTPUT_MAX) {
		/* What was cut off may be the samples: the run is lost, not short. */
		const char *file = cp->exceeded ? strrchr(cp->exceeded, '/') : NULL;

		out->status = RUN_MALFORMED;
		strbuf_addf(&out->reason, "more output than a run may write: '%s' grew beyond "
			    "%zu MiB%s", file ? file + 1 : cp->exceeded ? cp->exceeded : "results.txt",
			    KCP_OUTPUT_MAX >> 20, cp->exceeded ? ", so the run was stopped" : "");
	} else if (find_panic(&out->reason, console, console_len)) {
		out->status = RUN_PANIC;
	} else if (out->proto.error) {
		out->status = RUN_GUEST_ERROR;
		strbuf_addf(&out->reason, "guest error: %s", out->proto.error);
	} else if (out->proto.invalid) {
		out->status = RUN_MALFORMED;
		protocol_add_invalid(&out->reason, &out->proto);
	} else if (cp->timed_out) {
		out->status = RUN_TIMEOUT;
		strbuf_addf(&out->reason, "timed out after %g s (", cp->timeout);
		describe_progress(&out->reason, &out->proto);
		strbuf_addch(&out->reason, ')');
	} else if (cp->exit_code) {
		out->status = RUN_EXIT_FAILED;
		if (cp->signal)
			strbuf_addf(&out->reason, "%s killed by signal %d (%s)", who,
				    cp->signal, strsignal(cp->signal));
		else
			strbuf_addf(&out->reason, "%s exited with status %d", who,
				    cp->exit_code);
		add_last_line(&why, qemu_log);
		if (why.len)
			strbuf_addf(&out->reason, ": %s", why.buf);
	} else if (!protocol_result_complete(&out->proto, &why)) {
		out->status = RUN_NO_DONE;
		strbuf_addbuf(&out->reason, &why);
	} else {
		out->status = RUN_OK;
	}
	if (out->status != RUN_OK)
		vm_add_last_lines(&out->console_tail, console, console_len,
			       VM_CONSOLE_TAIL_LINES);
	strbuf_release(&why);
}
