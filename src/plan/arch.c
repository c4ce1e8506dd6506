/* arch.c: the table of architectures kconfperf builds kernels for. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kconfig/kconfig.h"
#include "plan/arch.h"
#include "util/run-command.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "util/wrapper.h"

static const struct arch arches[] = {
	{
		.name = "x86_64", .kernel_arch = "x86_64", .srcarch = "x86",
		.config_symbol = "X86_64", .image = "bzImage",
		.cross_compile = "x86_64-linux-gnu-", .cross_package = "gcc-x86-64-linux-gnu",
		.elf_machine = EM_X86_64,
	},
	{
		.name = "arm64", .kernel_arch = "arm64", .srcarch = "arm64",
		.config_symbol = "ARM64", .image = "Image",
		.cross_compile = "aarch64-linux-gnu-", .cross_package = "gcc-aarch64-linux-gnu",
		.elf_machine = EM_AARCH64,
	},
};

#if defined(__x86_64__)
#define HOST_ARCH "x86_64"
#elif defined(__aarch64__)
#define HOST_ARCH "arm64"
#else
#define HOST_ARCH ""
#endif

const struct arch *arch_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(arches); i++)
		if (!strcmp(arches[i].name, name))
			return &arches[i];
	return NULL;
}

const struct arch *arch_host(void)
{
	return arch_find(HOST_ARCH);
}

void arch_list(struct strbuf *out)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(arches); i++)
		strbuf_addf(out, "%s%s", i ? ", " : "", arches[i].name);
}

const struct arch *arch_of_config(const struct kconfig *kc)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(arches); i++) {
		const char *v = kconfig_get(kc, arches[i].config_symbol);

		if (v && !strcmp(v, "y"))
			return &arches[i];
	}
	return NULL;
}

const char *arch_cross_compile(const struct arch *a, const char *prefix)
{
	if (prefix)
		return prefix;
	return a == arch_host() ? NULL : a->cross_compile;
}

void arch_make_vars(struct strvec *out, const struct arch *a, const char *cross_compile)
{
	if (a == arch_host() && !cross_compile)
		return;
	strvec_pushf(out, "ARCH=%s", a->kernel_arch);
	if (cross_compile)
		strvec_pushf(out, "CROSS_COMPILE=%s", cross_compile);
}

char *arch_compiler(const char *cross_compile, const char *cc)
{
	if (cc)
		return xstrdup(cc);
	return xstrfmt("%sgcc", cross_compile ? cross_compile : "");
}

int arch_check_compiler(const struct arch *a, const char *cross_compile)
{
	struct strbuf version = STRBUF_INIT;
	char *cc;
	int ret = 0;

	if (!cross_compile)
		return 0;
	cc = arch_compiler(cross_compile, NULL);
	if (run_command_first_line(&version, cc, "--version", NULL)) {
		if (!strcmp(cross_compile, a->cross_compile))
			ret = error("%s kernels are built with '%s', which cannot be run: install "
				    "%s (scripts/deps does), or name another compiler prefix with "
				    "--cross-compile", a->name, cc, a->cross_package);
		else
			ret = error("%s kernels are built with '%s' (--cross-compile %s), which "
				    "cannot be run", a->name, cc, cross_compile);
	}
	strbuf_release(&version);
	free(cc);
	return ret;
}

char *arch_guest_name(const struct arch *a)
{
	if (a == arch_host())
		return xstrdup("kcp-guest");
	return xstrfmt("kcp-guest-%s", a->name);
}

static const char *machine_name(unsigned machine)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(arches); i++)
		if (arches[i].elf_machine == machine)
			return arches[i].name;
	return NULL;
}

int arch_check_elf(const struct arch *a, const char *path, const char *what)
{
	unsigned char head[EI_NIDENT + 4];
	unsigned machine;
	const char *other;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return error_errno("cannot open %s '%s'", what, path);
	n = pread(fd, head, sizeof(head), 0);
	close(fd);
	if (n < (ssize_t)sizeof(head) || memcmp(head, ELFMAG, SELFMAG))
		return 0;
	/* e_machine follows e_type, both 16 bits in the file's byte order. */
	if (head[EI_DATA] == ELFDATA2MSB)
		machine = (unsigned)head[EI_NIDENT + 2] << 8 | head[EI_NIDENT + 3];
	else
		machine = (unsigned)head[EI_NIDENT + 3] << 8 | head[EI_NIDENT + 2];
	if (machine == a->elf_machine)
		return 0;
	other = machine_name(machine);
	if (other)
		return error("%s '%s' is a program for %s, not %s", what, path, other, a->name);
	return error("%s '%s' is not a program for %s (ELF machine %u)", what, path, a->name,
		     machine);
}
