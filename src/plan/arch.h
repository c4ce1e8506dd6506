/* arch.h: the architectures kconfperf builds kernels for: make's ARCH, the cross compiler, the image. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef ARCH_H
#define ARCH_H

struct kconfig;
struct strbuf;
struct strvec;

/*
 * An experiment is for one arch (--arch, or the arch of a baseline
 * .config; x86_64 when neither says).  Its name is what the harness
 * profiles (harness.h; HARNESS_DEFAULT_ARCH is the default), the qemu
 * machine (run/vm.h) and the store's meta "arch" use.  A kernel of the host's own arch is built as it always was
 * (no ARCH= or CROSS_COMPILE=, so its cache keys do not change); another
 * arch's is built with ARCH=<kernel_arch> CROSS_COMPILE=<prefix>, and
 * both are part of the build's cache key.
 */
struct arch {
	const char *name;		/* "x86_64", "arm64" */
	const char *kernel_arch;	/* make ARCH= */
	const char *srcarch;		/* arch/<srcarch>/ of the tree: its Kconfig, its boot/ */
	const char *config_symbol;	/* set =y in every .config of the arch: "ARM64" */
	const char *image;		/* make target, and arch/<srcarch>/boot/<image> */
	const char *cross_compile;	/* CROSS_COMPILE when the host is another arch */
	const char *cross_package;	/* the Debian package of that cross compiler */
	unsigned elf_machine;		/* e_machine of its programs (kcp-guest, --workload-exec) */
};

/* The arch called name, or NULL. */
const struct arch *arch_find(const char *name);
/* The arch kconfperf itself runs on, or NULL when it is none of the table's. */
const struct arch *arch_host(void);
/* "x86_64, arm64": the names, for messages. */
void arch_list(struct strbuf *out);

/*
 * The arch a .config is for (its config_symbol is set), or NULL when it
 * names none of the table's (a fragment, an arch kconfperf cannot boot).
 */
const struct arch *arch_of_config(const struct kconfig *kc);

/*
 * The CROSS_COMPILE prefix a's kernels are built with: prefix when not
 * NULL (--cross-compile), else NULL for the host's own arch (its native
 * compiler) and a->cross_compile for another.
 */
const char *arch_cross_compile(const struct arch *a, const char *prefix);

/*
 * Appends what make needs to build for a with that prefix (the result of
 * arch_cross_compile()): nothing for a native build, else "ARCH=..." and
 * "CROSS_COMPILE=...".
 */
void arch_make_vars(struct strvec *out, const struct arch *a, const char *cross_compile);

/*
 * The C compiler of a build with that prefix (the result of
 * arch_cross_compile()): "gcc", "aarch64-linux-gnu-gcc"; cc, when not NULL,
 * wins.  Malloc'd.
 */
char *arch_compiler(const char *cross_compile, const char *cc);

/*
 * 0 when the compiler of a cross build with that prefix runs (`--version`),
 * or nothing to check (a native build); -1 with an error naming the
 * compiler and the package that has it otherwise.
 */
int arch_check_compiler(const struct arch *a, const char *cross_compile);

/*
 * The program name of kcp-guest for a, as make builds it beside kconfperf:
 * "kcp-guest" for the host's arch, "kcp-guest-<name>" for another.
 * Malloc'd.
 */
char *arch_guest_name(const struct arch *a);

/*
 * 0 when the ELF file at path is a program of a (e_machine), -1 with an
 * error naming what, the file and the arch it is for otherwise; a file
 * that is not ELF is left to the caller (0).
 */
int arch_check_elf(const struct arch *a, const char *path, const char *what);

#endif
