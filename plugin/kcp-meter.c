/* kcp-meter.c: kconfperf's qemu TCG plugin: counts every guest instruction, by kernel function and phase. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * qemu's entry point: the arguments, the instruction set, and what the
 * other parts register (kcp-meter.h says what the plugin does and how it
 * is split).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kcp-meter.h"

#define EXPORT __attribute__((visibility("default")))
/* The plugin API version the meter is written against (qemu-plugin-api.h). */
#define METER_API_VERSION 1

/* qemu refuses a plugin without this symbol, or of a version it does not offer. */
EXPORT int qemu_plugin_version = METER_API_VERSION;
EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
			       char **argv);

/* The instruction sets the meter decodes, by qemu's target name. */
static const struct isa *const isas[] = { &isa_x86_64, &isa_aarch64 };
/* Any other target: nothing known of its instructions (every one may stop). */
static const struct isa isa_other;

struct plugin plugin;

void say(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	n = snprintf(buf, sizeof(buf), "kcp-meter: ");
	va_start(ap, fmt);
	vsnprintf(buf + n, sizeof(buf) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	/* qemu_plugin_outs() would need -d plugin: errors go to qemu's stderr */
	fprintf(stderr, "%s\n", buf);
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		fputs("kcp-meter: out of memory\n", stderr);
		abort();
	}
	return p;
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
			       char **argv)
{
	const char *map_path = NULL, *guest_path = NULL, *extable_path = NULL;
	int i;

	if (info->version.min > METER_API_VERSION || info->version.cur < METER_API_VERSION) {
		say("this qemu offers plugin API versions %d to %d; kcp-meter uses version %d "
		    "(qemu 7.x and 8.x; qemu 9.0 moved to version 2)", info->version.min,
		    info->version.cur, METER_API_VERSION);
		return -1;
	}
	if (!info->system_emulation) {
		say("kcp-meter counts a whole machine: load it into qemu-system-*, not a user-mode qemu");
		return -1;
	}
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strncmp(a, "out=", 4)) {
			free(plugin.out);
			plugin.out = strdup(a + 4);
		}
		else if (!strncmp(a, "map=", 4))
			map_path = a + 4;
		else if (!strncmp(a, "guest=", 6))
			guest_path = a + 6;
		else if (!strncmp(a, "extable=", 8))
			extable_path = a + 8;
		else {
			say("unknown argument '%s' (kcp-meter takes out=FILE, map=System.map, "
			    "guest=kcp-guest, extable=FILE)", a);
			return -1;
		}
	}
	if (!plugin.out || !*plugin.out) {
		say("no out=FILE to write the counts to");
		return -1;
	}
	snprintf(plugin.target, sizeof(plugin.target), "%s", info->target_name ? info->target_name : "");
	plugin.isa = &isa_other;
	for (i = 0; i < (int)ARRAY_SIZE(isas); i++)
		if (!strcmp(plugin.target, isas[i]->target))
			plugin.isa = isas[i];
	if (map_path && *map_path && load_map(map_path))
		return -1;
	if (guest_path && *guest_path && load_guest(guest_path))
		return -1;
	if (extable_path && *extable_path && load_extable(extable_path))
		return -1;
	phases.now = xcalloc(nr_counters(), sizeof(*phases.now));
	phases.boot = xcalloc(nr_counters(), sizeof(*phases.boot));
	phases.work = xcalloc(nr_counters(), sizeof(*phases.work));
	phases.begun = xcalloc(nr_counters(), sizeof(*phases.begun));
	phases.ended = xcalloc(nr_counters(), sizeof(*phases.ended));
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
