/* host.c: facts about the machine the runs are made on, stored with the experiment. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "run/host.h"
#include "util/run-command.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

int host_qemu_version(struct strbuf *out, const char *qemu)
{
	struct strbuf why = STRBUF_INIT;
	int ret;

	ret = run_command_first_line(out, qemu, "--version", &why);
	if (ret == -1)
		error("cannot run '%s': %s (install %s, or name the program with --qemu)",
		      qemu, why.buf, strstr(qemu, "aarch64") ? "qemu-system-arm" : "qemu-system-x86");
	else if (ret)
		error("'%s --version' %s", qemu, why.buf);
	strbuf_release(&why);
	return ret ? -1 : 0;
}

static void cpu_model(struct strbuf *out)
{
	FILE *fp = fopen("/proc/cpuinfo", "r");
	struct strbuf line = STRBUF_INIT;
	const char *v;

	if (!fp)
		return;
	while (strbuf_getline(&line, fp) != EOF) {
		if (skip_prefix(line.buf, "model name", &v) && (v = strchr(v, ':'))) {
			strbuf_addstr(out, v + 1);
			strbuf_trim(out);
			break;
		}
		strbuf_reset(&line);
	}
	strbuf_release(&line);
	fclose(fp);
}

void host_facts_read(struct host_facts *out)
{
	struct strbuf model = STRBUF_INIT;
	struct utsname un;

	if (uname(&un))
		memset(&un, 0, sizeof(un));
	out->name = xstrdup(un.nodename);
	out->kernel = *un.sysname ? xstrfmt("%s %s", un.sysname, un.release) : xstrdup("");
	cpu_model(&model);
	out->cpu_model = strbuf_detach(&model, NULL);
	out->cpus = online_cpus();
}

long host_mem_available_mb(void)
{
	FILE *fp = fopen("/proc/meminfo", "r");
	struct strbuf line = STRBUF_INIT;
	const char *v;
	long mb = -1;

	if (!fp)
		return -1;
	while (strbuf_getline(&line, fp) != EOF) {
		char *end;
		long kb;

		if (skip_prefix(line.buf, "MemAvailable:", &v)) {
			errno = 0;
			kb = strtol(v, &end, 10);
			if (!errno && end != v && kb >= 0)
				mb = kb / 1024;
			break;
		}
		strbuf_reset(&line);
	}
	strbuf_release(&line);
	fclose(fp);
	return mb;
}

void host_facts_release(struct host_facts *f)
{
	free(f->name);
	free(f->kernel);
	free(f->cpu_model);
	memset(f, 0, sizeof(*f));
}

/* Where qemu's x86 firmware lives on Debian (the seabios package) and upstream. */
#define FIRMWARE_DIRS "/usr/share/seabios:/usr/share/qemu"

/*
 * SeaBIOS keeps its version as a string of its own ("1.16.2-debian-1.16.2-1",
 * "rel-1.16.3-0-ga6ed6b70"): the first printable run that starts with
 * digits, a dot, digits, a dot, or with "rel-".
 */
static int seabios_version(struct strbuf *out, const struct strbuf *image)
{
	const char *p = image->buf, *end = image->buf + image->len;

	while (p < end) {
		const char *q = p;

		while (q < end && *q >= 0x20 && *q < 0x7f)
			q++;
		if (q - p >= 5 && q - p < 64) {
			const char *r = p;
			int dots = 0;

			if (!strncmp(p, "rel-", 4))
				r += 4;
			while (r < q && ((*r >= '0' && *r <= '9') || *r == '.'))
				dots += *r++ == '.';
			if (dots >= 2 && r > p && r[-1] != '.' && (r == q || *r == '-')) {
				strbuf_add(out, p, (size_t)(q - p));
				return 1;
			}
		}
		p = q + 1;
	}
	return 0;
}

void host_firmware(struct strbuf *out, const char *arch, const char *firmware_dirs)
{
	struct strbuf image = STRBUF_INIT, dirs = STRBUF_INIT;
	char *p, *dir;

	if (arch && strcmp(arch, "x86_64")) {
		strbuf_addstr(out, "none: qemu loads the kernel itself");
		return;
	}
	strbuf_addstr(out, "SeaBIOS");
	strbuf_addstr(&dirs, firmware_dirs ? firmware_dirs : FIRMWARE_DIRS);
	for (p = dirs.buf; p; p = dir ? dir + 1 : NULL) {
		char *path;

		dir = strchr(p, ':');
		if (dir)
			*dir = '\0';
		path = xstrfmt("%s/bios-256k.bin", p);
		strbuf_reset(&image);
		if (!access(path, R_OK) && strbuf_read_file_max(&image, path, 4 << 20) > 0) {
			strbuf_addch(out, ' ');
			if (!seabios_version(out, &image))
				strbuf_addstr(out, "of unknown version");
			strbuf_addf(out, " (%s)", path);
			free(path);
			break;
		}
		free(path);
	}
	strbuf_release(&image);
	strbuf_release(&dirs);
}
