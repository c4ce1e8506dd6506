/* host.c: facts about the machine the runs are made on, stored with the experiment. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

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

void host_facts_release(struct host_facts *f)
{
	free(f->name);
	free(f->kernel);
	free(f->cpu_model);
	memset(f, 0, sizeof(*f));
}
