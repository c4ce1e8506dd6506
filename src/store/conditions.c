/* conditions.c: an experiment's conditions, one table of fields for save, load, compare and the reports. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "store/conditions.h"
#include "store/meta-keys.h"
#include "store/store.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

enum field_type {
	F_STR,
	F_INT,
	F_ACCEL,
	F_CLOCK,	/* clock and icount_shift, one stored value */
};

/* A field's flags. */
#define COMPARES 1	/* runs under another value do not compare */
#define LISTED 2	/* the reports list it under the title */

static const struct field {
	const char *key;	/* its meta key */
	const char *label;	/* what the reports call it */
	enum field_type type;
	size_t offset;
	unsigned flags;
} fields[] = {
#define S(key, label, member, flags) { key, label, F_STR, offsetof(struct conditions, member), flags }
#define I(key, label, member, flags) { key, label, F_INT, offsetof(struct conditions, member), flags }
	S(META_KCONFPERF, "kconfperf", kconfperf, 0),
	S(META_KERNEL_VERSION, "kernel", kernel_version, COMPARES | LISTED),
	S(META_ARCH, "arch", arch, COMPARES | LISTED),
	S(META_BASE, "baseline", base, COMPARES | LISTED),
	S(META_HARNESS, "harness", harness, COMPARES),
	S(META_HOST, "host", host, LISTED),
	{ META_ACCEL, "accel", F_ACCEL, offsetof(struct conditions, accel), COMPARES | LISTED },
	{ META_CLOCK, "clock", F_CLOCK, offsetof(struct conditions, clock), COMPARES },
	S(META_QEMU, "qemu", qemu, LISTED),
	S(META_QEMU_VERSION, "qemu version", qemu_version, COMPARES | LISTED),
	S(META_COMPILER, "compiler", compiler, COMPARES | LISTED),
	S(META_BOOT, "boot", boot, COMPARES | LISTED),
	S(META_CPU, "cpu", cpu, COMPARES),
	I(META_SMP, "smp", smp, COMPARES),
	I(META_MEM_MB, "memory (MB)", mem_mb, COMPARES),
	S(META_METER, "meter", meter, COMPARES),
	S(META_INITRAMFS_SHA256, "guest", guest, COMPARES),
	S(META_RUNNER, "runner", runner, COMPARES),
	S(META_HOST_KERNEL, "host kernel", host_kernel, 0),
	S(META_CPU_MODEL, "host cpu", cpu_model, 0),
	I(META_HOST_CPUS, "host cpus", host_cpus, 0),
	S(META_KERNEL_CMDLINE, "command line", kernel_cmdline, 0),
	S(META_MACHINE, "machine", machine, 0),
	S(META_FIRMWARE, "firmware", firmware, 0),
#undef S
#undef I
};

static char **str_at(const struct conditions *c, const struct field *f)
{
	return (char **)((char *)c + f->offset);
}

static int *int_at(const struct conditions *c, const struct field *f)
{
	return (int *)((char *)c + f->offset);
}

static int known(const struct conditions *c, const struct field *f)
{
	switch (f->type) {
	case F_STR:
		return *str_at(c, f) != NULL;
	case F_INT:
		return *int_at(c, f) >= 0;
	case F_ACCEL:
		return c->accel != VM_ACCEL_AUTO;
	case F_CLOCK:
		return c->clock != VM_CLOCK_AUTO;
	}
	return 0;
}

static void format(struct strbuf *sb, const struct conditions *c, const struct field *f)
{
	if (!known(c, f))
		return;
	switch (f->type) {
	case F_STR:
		strbuf_addstr(sb, *str_at(c, f));
		break;
	case F_INT:
		strbuf_addf(sb, "%d", *int_at(c, f));
		break;
	case F_ACCEL:
		strbuf_addstr(sb, vm_accel_name(c->accel));
		break;
	case F_CLOCK:
		vm_clock_format(sb, c->clock, c->icount_shift);
		break;
	}
}

/* Parses a stored value into field f of c: 0, or -1 with a message. */
static int scan(struct conditions *c, const struct field *f, const char *value)
{
	char *end;
	long n;

	switch (f->type) {
	case F_STR:
		free(*str_at(c, f));
		*str_at(c, f) = xstrdup(value);
		return 0;
	case F_INT:
		errno = 0;
		n = strtol(value, &end, 10);
		if (errno || *end || end == value || n < 0 || n > 1 << 30)
			break;
		*int_at(c, f) = (int)n;
		return 0;
	case F_ACCEL:
		if (vm_accel_from_name(&c->accel, value))
			break;
		return 0;
	case F_CLOCK:
		if (vm_clock_scan(&c->clock, &c->icount_shift, value))
			break;
		return 0;
	}
	return error("the experiment's condition %s is '%s', which kconfperf cannot read",
		     f->key, value);
}

int conditions_load(struct conditions *out, struct store *st)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < ARRAY_SIZE(fields) && !ret; i++) {
		char *value = store_get_meta(st, fields[i].key);

		if (value && *value)
			ret = scan(out, &fields[i], value);
		free(value);
	}
	return ret;
}

int conditions_save(const struct conditions *c, struct store *st)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int ret = 0;

	for (i = 0; i < ARRAY_SIZE(fields) && !ret; i++) {
		if (!known(c, &fields[i]))
			continue;
		strbuf_reset(&sb);
		format(&sb, c, &fields[i]);
		ret = store_set_meta(st, fields[i].key, sb.buf);
	}
	strbuf_release(&sb);
	return ret;
}

void conditions_release(struct conditions *c)
{
	const struct conditions init = CONDITIONS_INIT;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fields); i++)
		if (fields[i].type == F_STR)
			free(*str_at(c, &fields[i]));
	*c = init;
}

int conditions_metered(const struct conditions *c)
{
	return c->meter && !strcmp(c->meter, "on");
}

static int field_differs(const struct conditions *a, const struct conditions *b,
			 const struct field *f)
{
	struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
	int ret;

	if (!known(a, f) || !known(b, f))
		return 0;
	format(&x, a, f);
	format(&y, b, f);
	ret = strcmp(x.buf, y.buf) != 0;
	strbuf_release(&x);
	strbuf_release(&y);
	return ret;
}

const char *conditions_first_difference(const struct conditions *a, const struct conditions *b)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fields); i++)
		if ((fields[i].flags & COMPARES) && field_differs(a, b, &fields[i]))
			return fields[i].key;
	return NULL;
}

static const struct field *field_of(const char *key)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fields); i++)
		if (!strcmp(fields[i].key, key))
			return &fields[i];
	return NULL;
}

int conditions_differ(const struct conditions *a, const struct conditions *b, const char *key)
{
	const struct field *f = field_of(key);

	return f && field_differs(a, b, f);
}

void conditions_each_listed(const struct conditions *c,
			    void (*fn)(void *data, const char *label, const char *value),
			    void *data)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		if (!(fields[i].flags & LISTED) || !known(c, &fields[i]))
			continue;
		strbuf_reset(&sb);
		format(&sb, c, &fields[i]);
		fn(data, fields[i].label, sb.buf);
	}
	strbuf_release(&sb);
}

int conditions_format(struct strbuf *sb, const struct conditions *c, const char *key)
{
	const struct field *f = field_of(key);

	if (!f)
		return -1;
	format(sb, c, f);
	return 0;
}
