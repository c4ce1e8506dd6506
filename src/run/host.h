/* host.h: facts about the machine the runs are made on, stored with the experiment. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef HOST_H
#define HOST_H

struct strbuf;

/*
 * What a run's numbers depend on besides the kernel: the host, its
 * kernel, its CPU and how many there are, and the qemu that boots the
 * guests.  The run stage stores them in meta (measure.h, step 4) so a
 * report says where its numbers come from.
 */
struct host_facts {
	char *name;		/* uname's nodename */
	char *kernel;		/* "Linux 6.1.0-18-amd64" */
	char *cpu_model;	/* /proc/cpuinfo's model name, "" when it has none */
	int cpus;		/* online CPUs */
};
#define HOST_FACTS_INIT { 0 }

/* Fills out (every string set, "" when unknown); release it with host_facts_release(). */
void host_facts_read(struct host_facts *out);
void host_facts_release(struct host_facts *f);

/* The memory the host can give without swapping (/proc/meminfo MemAvailable), in MiB; -1 unknown. */
long host_mem_available_mb(void);

/*
 * Puts the first line of `qemu --version` into out (empty).  A qemu that cannot
 * run is an error that says how to install one (so that a missing qemu is
 * said as such, before the KVM probe blames KVM for it); 0 or -1.
 */
int host_qemu_version(struct strbuf *out, const char *qemu);

/*
 * The firmware a guest of arch boots through, appended to out: on x86_64
 * qemu's default, SeaBIOS, with the version its image holds when found
 * ("SeaBIOS 1.16.2-debian-1.16.2-1"); on arm64's virt machine none, as qemu
 * loads the kernel itself.  firmware_dirs is a ':'-separated list of
 * directories to look for bios-256k.bin in (NULL: Debian's and qemu's).
 */
void host_firmware(struct strbuf *out, const char *arch, const char *firmware_dirs);

#endif
