/* vm-clock.c: a run's accelerator and guest clock: their names and their one parse. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "store/vm-clock.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

static const char *const accel_names[] = {
	[VM_ACCEL_AUTO] = "auto",
	[VM_ACCEL_KVM] = "kvm",
	[VM_ACCEL_TCG] = "tcg",
	[VM_ACCEL_RUNNER] = "runner",
};

static const char *const clock_names[] = {
	[VM_CLOCK_AUTO] = "auto",
	[VM_CLOCK_ICOUNT] = "icount",
	[VM_CLOCK_ICOUNT_IDLE] = "icount-idle",
	[VM_CLOCK_HOST] = "host",
};

/* The index of name in names[0..nr), or -1 (also for NULL). */
static int index_of(const char *const *names, size_t nr, const char *name)
{
	size_t i;

	for (i = 0; name && i < nr; i++)
		if (names[i] && !strcmp(name, names[i]))
			return (int)i;
	return -1;
}

const char *vm_accel_name(enum vm_accel accel)
{
	if ((size_t)accel >= ARRAY_SIZE(accel_names))
		return "unknown";
	return accel_names[accel];
}

int vm_accel_from_name(enum vm_accel *out, const char *name)
{
	int i = index_of(accel_names, ARRAY_SIZE(accel_names), name);

	if (i < 0)
		return -1;
	*out = (enum vm_accel)i;
	return 0;
}

int vm_accel_parse(enum vm_accel *out, const char *name)
{
	enum vm_accel accel;

	if (vm_accel_from_name(&accel, name) || accel == VM_ACCEL_RUNNER)
		return error("'%s' is not an accelerator: use auto, kvm or tcg", name);
	*out = accel;
	return 0;
}

const char *vm_clock_name(enum vm_clock clock)
{
	if ((size_t)clock >= ARRAY_SIZE(clock_names))
		return "unknown";
	return clock_names[clock];
}

int vm_clock_is_icount(enum vm_clock clock)
{
	return clock == VM_CLOCK_ICOUNT || clock == VM_CLOCK_ICOUNT_IDLE;
}

int vm_clock_from_name(enum vm_clock *out, const char *name)
{
	int i = index_of(clock_names, ARRAY_SIZE(clock_names), name);

	if (i < 0)
		return -1;
	*out = (enum vm_clock)i;
	return 0;
}

void vm_clock_format(struct strbuf *sb, enum vm_clock clock, int shift)
{
	strbuf_addstr(sb, vm_clock_name(clock));
	if (vm_clock_is_icount(clock) && shift >= 0)
		strbuf_addf(sb, ":%d", shift);
}

/* The one rule: NAME, or an icount clock's NAME:N, N digits up to VM_ICOUNT_SHIFT_MAX. */
static int clock_spec(enum vm_clock *clock, int *shift, const char *text)
{
	const char *colon = strchr(text, ':');
	char *name, *end;
	long n;
	int ret;

	*shift = -1;
	name = xstrndup(text, colon ? (size_t)(colon - text) : strlen(text));
	ret = vm_clock_from_name(clock, name);
	free(name);
	if (ret || !colon)
		return ret;
	if (!vm_clock_is_icount(*clock) || colon[1] < '0' || colon[1] > '9')
		return -1;
	errno = 0;
	n = strtol(colon + 1, &end, 10);
	if (errno || *end || n > VM_ICOUNT_SHIFT_MAX)
		return -1;
	*shift = (int)n;
	return 0;
}

int vm_clock_scan(enum vm_clock *clock, int *shift, const char *text)
{
	if (!text || !*text) {
		*clock = VM_CLOCK_HOST;
		*shift = -1;
		return 0;
	}
	return clock_spec(clock, shift, text);
}

int vm_clock_parse(enum vm_clock *clock, int *shift, const char *spec)
{
	enum vm_clock c;
	int s;

	if (clock_spec(&c, &s, spec))
		return error("'%s' is not a clock: use icount, icount-idle, either with :SHIFT "
			     "(0 to %d), host or auto", spec, VM_ICOUNT_SHIFT_MAX);
	*clock = c;
	*shift = s;
	return 0;
}
