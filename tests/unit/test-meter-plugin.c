/* test-meter-plugin.c: unit tests for the meter plugin (plugin/), loaded into a fake qemu. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../plugin/qemu-plugin-api.h"
#include "run/meter.h"
#include "store/profile.h"
#include "test-lib.h"
#include "util/strbuf.h"
#include "util/wrapper.h"
#include "util/write-file.h"

/*
 * The fake qemu: the plugin API functions kcp-meter.so calls, exported by
 * this executable (linked with -rdynamic), and a "CPU" that translates
 * blocks of instructions at given addresses, then runs them as TCG would:
 * each instruction's callbacks, then its inline add.
 */

struct qemu_plugin_insn {
	uint64_t vaddr;
	unsigned char data[16];
	size_t size;
	uint64_t *ptr;
	uint64_t imm;
	uint64_t *mem_ptr[2];	/* the inline adds after each read, each write */
	uint64_t mem_imm[2];
	void (*cb)(unsigned int, void *);
	void *udata;
	int reads, writes;	/* what one execution accesses */
};

#define MAX_INSNS 16
struct qemu_plugin_tb {
	struct qemu_plugin_insn insns[MAX_INSNS];
	size_t n;
	uint64_t *ptr;		/* the inline add when the block starts */
	uint64_t imm;
};

/* The API as plugin/qemu-plugin-api.h declares it, as the meter calls it. */
static qemu_plugin_vcpu_tb_trans_cb_t trans_cb;
static qemu_plugin_udata_cb_t atexit_cb;
static void *atexit_data;

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb)
{
	(void)id;
	trans_cb = cb;
}

void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags, void *userdata)
{
	(void)flags;
	insn->cb = cb;
	insn->udata = userdata;
}

void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn,
						enum qemu_plugin_op op, void *ptr, uint64_t imm)
{
	(void)op;
	insn->ptr = ptr;
	insn->imm = imm;
}

void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, enum qemu_plugin_op op,
					     void *ptr, uint64_t imm)
{
	(void)op;
	tb->ptr = ptr;
	tb->imm = imm;
}

/* As qemu does, one memory inline op per kind: rw 1 reads, 2 writes (3, both, is not used). */
void qemu_plugin_register_vcpu_mem_inline(struct qemu_plugin_insn *insn,
					  enum qemu_plugin_mem_rw rw, enum qemu_plugin_op op,
					  void *ptr, uint64_t imm)
{
	(void)op;
	if (rw == QEMU_PLUGIN_MEM_R || rw == QEMU_PLUGIN_MEM_W) {
		insn->mem_ptr[rw - 1] = ptr;
		insn->mem_imm[rw - 1] = imm;
	}
}

void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb,
				    void *userdata)
{
	(void)id;
	atexit_cb = cb;
	atexit_data = userdata;
}

size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb)
{
	return tb->n;
}

struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx)
{
	return (struct qemu_plugin_insn *)&tb->insns[idx];
}

const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn)
{
	return insn->data;
}

size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn)
{
	return insn->size;
}

uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn)
{
	return insn->vaddr;
}

typedef int (*install_t)(qemu_plugin_id_t, const qemu_info_t *, int, char **);
static install_t install;

static int load_plugin(void)
{
	const char *b = getenv("KCP_BUILD");
	char *path = xstrfmt("%s/kcp-meter.so", b && *b ? b : "build");
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	int *version;

	if (!h) {
		fprintf(stderr, "# cannot load %s: %s\n", path, dlerror());
		free(path);
		return -1;
	}
	free(path);
	install = (install_t)dlsym(h, "qemu_plugin_install");
	version = dlsym(h, "qemu_plugin_version");
	return install && version && *version == 1 ? 0 : -1;
}

/* A block of n instructions of size bytes from addr, with the given first bytes. */
static struct qemu_plugin_tb *translate(uint64_t addr, size_t n, size_t size,
					const unsigned char *first)
{
	struct qemu_plugin_tb *tb = xcalloc(1, sizeof(*tb));
	size_t i;

	tb->n = n;
	for (i = 0; i < n; i++) {
		tb->insns[i].vaddr = addr + i * size;
		tb->insns[i].size = size;
		memset(tb->insns[i].data, 0x90, sizeof(tb->insns[i].data));
	}
	if (first)
		memcpy(tb->insns[0].data, first, size);
	trans_cb(1, tb);
	return tb;
}

/*
 * Instruction i of tb as TCG runs it: its callback, its inline add, then
 * its accesses, reads before writes, each followed by its memory inline
 * op; a fault stops it after accesses of them (-1: it completes).
 */
static void run_insn(const struct qemu_plugin_tb *tb, size_t i, int accesses)
{
	const struct qemu_plugin_insn *insn = &tb->insns[i];
	int k;

	if (!i && tb->ptr)
		*tb->ptr += tb->imm;
	if (insn->cb)
		insn->cb(0, insn->udata);
	if (insn->ptr)
		*insn->ptr += insn->imm;
	for (k = 0; k < insn->reads + insn->writes && (accesses < 0 || k < accesses); k++) {
		int w = k >= insn->reads;

		if (insn->mem_ptr[w])
			*insn->mem_ptr[w] += insn->mem_imm[w];
	}
}

static void run(const struct qemu_plugin_tb *tb, int times)
{
	size_t i;

	while (times-- > 0)
		for (i = 0; i < tb->n; i++)
			run_insn(tb, i, -1);
}

/* tb up to instruction at, which faults after accesses of its accesses. */
static void run_fault(const struct qemu_plugin_tb *tb, size_t at, int accesses)
{
	size_t i;

	for (i = 0; i < at; i++)
		run_insn(tb, i, -1);
	run_insn(tb, at, accesses);
}

/* A symbol's address in an ELF file and the first bytes of its code there. */
static int elf_symbol(const char *path, const char *name, uint64_t *addr, unsigned char *bytes,
		      size_t len)
{
	FILE *f;
	char cmd[512], line[512];
	Elf64_Ehdr eh;
	int fd, found = 0;
	unsigned i;

	if (!name) {
		fd = open(path, O_RDONLY);
		if (fd < 0 || pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh))
			return -1;
		close(fd);
		*addr = eh.e_entry;
	} else {
		snprintf(cmd, sizeof(cmd), "nm '%s'", path);
		f = popen(cmd, "r");
		if (!f)
			return -1;
		while (fgets(line, sizeof(line), f)) {
			unsigned long long a;
			char type, sym[256];

			if (sscanf(line, "%llx %c %255s", &a, &type, sym) == 3 && !strcmp(sym, name)) {
				*addr = a;
				found = 1;
			}
		}
		pclose(f);
		if (!found)
			return -1;
	}
	fd = open(path, O_RDONLY);
	if (fd < 0 || pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh))
		return -1;
	for (i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;

		if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + i * eh.e_phentsize)) !=
		    (ssize_t)sizeof(ph))
			break;
		if (ph.p_type == PT_LOAD && *addr >= ph.p_vaddr && *addr < ph.p_vaddr + ph.p_filesz) {
			ssize_t n = pread(fd, bytes, len, (off_t)(ph.p_offset + *addr - ph.p_vaddr));

			close(fd);
			return n == (ssize_t)len ? 0 : -1;
		}
	}
	close(fd);
	return -1;
}

static const char system_map[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81000000 T startup_64\n"
	"ffffffff81000100 T start_kernel\n"
	"ffffffff81000200 t do_idle\n"
	"ffffffff81000300 t helper.isra.0\n"
	"ffffffff81000400 t helper\n"
	"ffffffff81000500 T _etext\n"
	"ffffffff81000800 t helper\n"
	"ffffffff81000900 T _einittext\n"
	"ffffffff82000000 D some_data\n"
	"0000000000000000 A __per_cpu_start\n";

static const qemu_info_t x86 = { "x86_64", { 0, 1 }, true, { { 1, 1 } } };

static void test_refuses(void)
{
	qemu_info_t v2 = x86;
	char *out = xstrfmt("out=%s/never.txt", test_tmpdir());
	char *bad_map = xstrfmt("%s/bad.map", test_tmpdir());
	char *map_arg = xstrfmt("map=%s", bad_map);
	char *args[] = { out, (char *)"bogus=1" };
	char *map_args[] = { out, map_arg };
	char *none[] = { (char *)"map=x" };

	if (!check(install != NULL))
		return;
	/* qemu 9.0's plugin API is version 2 only */
	v2.version.min = 2;
	v2.version.cur = 2;
	check(install(1, &v2, 1, args) != 0);
	check(install(1, &x86, 2, args) != 0);
	check(install(1, &x86, 1, none) != 0);	/* no out= */
	write_file(bad_map, "ffffffff81000000 T ok\nnot a map line\n", 37);
	check(install(1, &x86, 2, map_args) != 0);
	free(out);
	free(bad_map);
	free(map_arg);
}

static void test_counts(void)
{
	const char *b = getenv("KCP_BUILD");
	char *guest = xstrfmt("%s/kcp-guest", b && *b ? b : "build");
	char *map = xstrfmt("%s/System.map", test_tmpdir());
	char *out = xstrfmt("%s/meter.txt", test_tmpdir());
	char *map_arg = xstrfmt("map=%s", map), *out_arg = xstrfmt("out=%s", out);
	char *guest_arg = xstrfmt("guest=%s", guest);
	char *args[] = { out_arg, map_arg, guest_arg };
	unsigned char entry_bytes[7], begin_bytes[7], end_bytes[7], wrong[7] = { 0 };
	uint64_t entry, begin, end;
	struct qemu_plugin_tb *fw, *phys, *kern, *idle, *clone, *plain, *init2, *beyond, *init;
	struct qemu_plugin_tb *tb_begin, *tb_end, *user, *impostor, *fw2;
	struct meter_result m;
	struct strbuf why = STRBUF_INIT;
	const struct profile *boot, *work, *all;

	if (!check(install != NULL))
		goto out;
	if (elf_symbol(guest, NULL, &entry, entry_bytes, 7) ||
	    elf_symbol(guest, "kcp_meter_begin", &begin, begin_bytes, 7) ||
	    elf_symbol(guest, "kcp_meter_end", &end, end_bytes, 7)) {
		check(!"kcp-guest with its markers");
		goto out;
	}
	write_file(map, system_map, strlen(system_map));
	check_int(install(1, &x86, 3, args), ==, 0);
	if (!check(trans_cb && atexit_cb))
		goto out;

	fw = translate(0xfff0, 3, 1, NULL);		/* firmware */
	run(fw, 2);
	phys = translate(0x1000000, 2, 4, NULL);	/* startup_64 at its physical address */
	run(phys, 1);
	kern = translate(0xffffffff81000100, 4, 4, NULL);	/* start_kernel */
	run(kern, 1);
	idle = translate(0xffffffff81000200, 2, 4, NULL);	/* do_idle */
	run(idle, 3);
	clone = translate(0xffffffff81000300, 1, 4, NULL);
	plain = translate(0xffffffff81000400, 1, 4, NULL);
	init2 = translate(0xffffffff81000800, 1, 4, NULL);	/* the other helper, in init text */
	run(clone, 1);
	run(plain, 1);
	run(init2, 1);
	beyond = translate(0xffffffff81000600, 1, 4, NULL);	/* past _etext: no function */
	run(beyond, 5);
	init = translate(entry, 1, 7, entry_bytes);		/* kcp-guest starts */
	run(init, 1);
	/*
	 * A block is classified when it is translated: a low address
	 * translated now is user space (qemu keys blocks by physical
	 * address, so a program's page is never the firmware's block)
	 */
	fw2 = translate(0xfff0, 3, 1, NULL);
	run(fw2, 1);
	tb_begin = translate(begin, 1, 7, begin_bytes);
	run(tb_begin, 1);
	user = translate(0x500000, 5, 2, NULL);
	run(user, 1);
	run(kern, 2);
	run(idle, 1);
	tb_end = translate(end, 1, 7, end_bytes);
	run(tb_end, 1);
	/* another program at the marker's address is no marker */
	impostor = translate(begin, 1, 7, wrong);
	run(impostor, 1);
	run(init, 1);	/* kcp-guest exec'd again: not init again */
	atexit_cb(1, atexit_data);

	meter_result_init(&m);
	if (!check(meter_read(&m, out, &why) == 0)) {
		fprintf(stderr, "# %s\n", why.buf);
		goto out;
	}
	check_str(m.target, "x86_64");
	check(m.has_map && m.has_guest);
	/* 6 + 3 firmware; 2 startup_64, 4 + 8 start_kernel, 6 + 2 do_idle, 3 helpers, 5 beyond;
	 * 1 + 1 init, 1 begin, 5 user, 1 end, 1 impostor */
	check_int(m.total.total, ==, 9 + 2 + 12 + 8 + 3 + 5 + 2 + 1 + 5 + 1 + 1);
	check_int(m.total.before_kernel, ==, 6);
	check_int(m.total.kernel, ==, 2 + 12 + 8 + 3);
	check_int(m.total.kernel_other, ==, 5);
	check_int(m.total.user, ==, 3 + 2 + 1 + 5 + 1 + 1);
	check_int(m.total.idle, ==, 8);
	check_int(m.nr_marks, ==, 3);
	check_int(m.marks[0].kind, ==, METER_MARK_INIT);
	/* the callback runs before its instruction's add */
	check_int(m.marks[0].c.total, ==, 6 + 2 + 4 + 6 + 3 + 5);
	check_int(m.marks[1].kind, ==, METER_MARK_BEGIN);
	check_int(m.marks[2].kind, ==, METER_MARK_END);
	check_int(m.marks[2].iter, ==, 0);
	check_int(meter_busy(&m.marks[2].c) - meter_busy(&m.marks[1].c), ==, 1 + 5 + 8);

	boot = &m.phases[STORE_METER_BOOT];
	work = &m.phases[STORE_METER_WORK];
	all = &m.phases[STORE_METER_ALL];
	check_double(profile_find(boot, "startup_64")->count, 2, 0);
	check(profile_find(boot, "[before-kernel]") == NULL);	/* left out by the reader */
	check_double(profile_find(all, "[before-kernel]")->count, 6, 0);
	check_double(profile_find(boot, "[kernel-other]")->count, 5, 0);
	check_double(profile_find(work, "start_kernel")->count, 8, 0);
	check_double(profile_find(work, "do_idle")->count, 2, 0);
	check_double(profile_find(work, "[user]")->count, 6, 0);
	check(profile_find(work, "startup_64") == NULL);
	/* the two static helpers are one name; the clone keeps its own until normalised */
	check_double(profile_find(all, "helper")->count, 2, 0);
	check_double(profile_find(all, "helper.isra.0")->count, 1, 0);
	check(profile_find(all, "_etext") == NULL);
	check_double(profile_total(all), m.total.total, 0);
	meter_result_release(&m);
	free(fw);
	free(fw2);
	free(phys);
	free(kern);
	free(idle);
	free(clone);
	free(plain);
	free(init2);
	free(beyond);
	free(init);
	free(tb_begin);
	free(user);
	free(tb_end);
	free(impostor);
out:
	strbuf_release(&why);
	free(guest);
	free(map);
	free(out);
	free(map_arg);
	free(out_arg);
	free(guest_arg);
}

struct code {
	unsigned char byte;
	int reads, writes;
	unsigned char byte2;	/* the second byte; 0 is 0xc0 */
};

/*
 * A block of instructions of 2 bytes each from addr; mem_only: as qemu
 * translates an instruction it restarts for an I/O access, with only its
 * memory callbacks.
 */
static struct qemu_plugin_tb *translate_code(uint64_t addr, const struct code *c, size_t n,
					     int mem_only)
{
	struct qemu_plugin_tb *tb = xcalloc(1, sizeof(*tb));
	size_t i;

	tb->n = n;
	for (i = 0; i < n; i++) {
		tb->insns[i].vaddr = addr + 2 * i;
		tb->insns[i].size = 2;
		tb->insns[i].data[0] = c[i].byte;
		tb->insns[i].data[1] = c[i].byte2 ? c[i].byte2 : 0xc0;
		tb->insns[i].reads = c[i].reads;
		tb->insns[i].writes = c[i].writes;
	}
	trans_cb(1, tb);
	for (i = 0; mem_only && i < n; i++) {
		tb->insns[i].ptr = NULL;
		tb->insns[i].cb = NULL;
	}
	return tb;
}

/*
 * Loads a copy of the plugin, with a state of its own, as qemu would for
 * target with the given arguments: its install function, or NULL.
 */
static install_t fresh_plugin(const char *name, const qemu_info_t *target, int argc, char **argv)
{
	const char *b = getenv("KCP_BUILD");
	char *so = xstrfmt("%s/%s.so", test_tmpdir(), name);
	char *cmd = xstrfmt("cp '%s/kcp-meter.so' '%s'", b && *b ? b : "build", so);
	install_t inst = NULL;
	void *h;

	if (system(cmd) == 0 && (h = dlopen(so, RTLD_NOW | RTLD_LOCAL)))
		inst = (install_t)dlsym(h, "qemu_plugin_install");
	if (inst && inst(1, target, argc, argv))
		inst = NULL;
	free(so);
	free(cmd);
	return inst;
}

/* Reads the counts the plugin wrote to out into m (released by the caller): checked. */
static int read_counts(struct meter_result *m, const char *out)
{
	struct strbuf why = STRBUF_INIT;
	int ok;

	meter_result_init(m);
	ok = check(meter_read(m, out, &why) == 0);
	if (!ok)
		fprintf(stderr, "# %s\n", why.buf);
	strbuf_release(&why);
	return ok;
}

/*
 * qemu counts an instruction when it retires: one that faults (a page
 * fault, an I/O access qemu restarts in a block of its own) counts when
 * it runs again, not when it started and faulted.  The meter's total is
 * that count; what started is more.
 */
static void test_exact(void)
{
	static const struct code code[] = {
		{ 0x01, 0, 0, 0 },	/* add %eax, %eax */
		{ 0x8b, 1, 0, 0x03 },	/* a load: mov (%rbx), %eax */
		{ 0x02, 0, 0, 0 },	/* add %al, %al */
		{ 0x89, 0, 1, 0x03 },	/* a store, the block's last: mov %eax, (%rbx) */
	};
	char *out = xstrfmt("%s/exact.txt", test_tmpdir());
	char *out_arg = xstrfmt("out=%s", out);
	char *args[] = { out_arg };
	struct qemu_plugin_tb *tbs[8];
	struct meter_result m;
	size_t i, nr = 0;

	/* a second copy of the plugin, with a state of its own */
	if (!check(fresh_plugin("kcp-meter-exact", &x86, 1, args) != NULL))
		goto out;
	tbs[nr++] = translate_code(0x400000, code, 4, 0);
	run(tbs[0], 2);					/* qemu: 8 */
	run_fault(tbs[0], 1, 0);			/* the load faults: 1 */
	tbs[nr++] = translate_code(0x400002, code + 1, 3, 0);
	run(tbs[1], 1);					/* and runs again: 3 */
	run_fault(tbs[0], 3, 0);			/* the store faults: 3 */
	tbs[nr++] = translate_code(0x400006, code + 3, 1, 0);
	run(tbs[2], 1);					/* 1 */
	run_fault(tbs[0], 1, 0);			/* the load reads a device: 1 */
	tbs[nr++] = translate_code(0x400002, code + 1, 1, 1);
	run(tbs[3], 1);					/* qemu runs it alone: 1 */
	tbs[nr++] = translate_code(0x400004, code + 2, 2, 0);
	run(tbs[4], 1);					/* 2 */
	run_fault(tbs[0], 3, 0);			/* the store writes a device: 3 */
	tbs[nr++] = translate_code(0x400006, code + 3, 1, 1);
	run(tbs[5], 1);					/* 1 */
	atexit_cb(1, atexit_data);

	if (read_counts(&m, out)) {
		check_int(m.total.total, ==, 8 + 1 + 3 + 3 + 1 + 1 + 1 + 2 + 3 + 1);
		/* the two faults started twice; qemu reran the I/O accesses uninstrumented */
		check_int(m.started, ==, m.total.total + 2);
	}
	meter_result_release(&m);
	for (i = 0; i < nr; i++)
		free(tbs[i]);
out:
	free(out);
	free(out_arg);
}

/*
 * x86's rep string makes no access when rcx is 0, so its accesses cannot
 * tell a fault: the kernel's page fault entry running right after it does.
 */
static void test_rep_fault(void)
{
	static const char map[] =
		"ffffffff81000000 T _text\n"
		"ffffffff81000000 T memcpy\n"
		"ffffffff81000100 T asm_exc_page_fault\n"
		"ffffffff81000200 T other\n"
		"ffffffff81000300 T _etext\n";
	static const struct code rep = { 0xf3, 1, 1, 0xa4 };	/* rep movsb */
	static const struct code plain = { 0x90, 0, 0, 0 };
	char *out = xstrfmt("%s/rep.txt", test_tmpdir());
	char *map_path = xstrfmt("%s/rep.map", test_tmpdir());
	char *out_arg = xstrfmt("out=%s", out), *map_arg = xstrfmt("map=%s", map_path);
	char *args[] = { out_arg, map_arg };
	struct qemu_plugin_tb *r, *pf, *other;
	struct meter_result m;

	write_file(map_path, map, strlen(map));
	if (!check(fresh_plugin("kcp-meter-rep", &x86, 2, args) != NULL))
		goto out;
	r = translate_code(0xffffffff81000010, &rep, 1, 0);
	pf = translate_code(0xffffffff81000100, &plain, 1, 0);
	other = translate_code(0xffffffff81000200, &plain, 1, 0);
	run(r, 3);				/* 3 iterations: qemu 3 */
	run_fault(r, 0, 0);			/* one faults, */
	run(pf, 1);				/* the kernel's entry runs next: 1 */
	run(r, 1);				/* and it runs again: 1 */
	run_fault(r, 0, 0);			/* rcx 0: no access, yet retired: 1 */
	run(other, 1);				/* 1 */
	atexit_cb(1, atexit_data);
	if (read_counts(&m, out)) {
		check_int(m.total.total, ==, 7);
		check_int(m.started, ==, 8);
		check_double(profile_find(&m.phases[STORE_METER_ALL], "memcpy")->count, 5, 0);
	}
	meter_result_release(&m);
	free(r);
	free(pf);
	free(other);
out:
	free(out);
	free(map_path);
	free(out_arg);
	free(map_arg);
}

/* A block of the given instructions (bytes, lengths) from addr. */
static struct qemu_plugin_tb *translate_insns(uint64_t addr, const char *const *bytes,
					      const size_t *len, size_t n)
{
	struct qemu_plugin_tb *tb = xcalloc(1, sizeof(*tb));
	size_t i;

	tb->n = n;
	for (i = 0; i < n; i++) {
		tb->insns[i].vaddr = addr;
		tb->insns[i].size = len[i];
		memcpy(tb->insns[i].data, bytes[i], len[i]);
		addr += len[i];
	}
	trans_cb(1, tb);
	return tb;
}

/* Which instructions of tb got an inline add ("1" each), and which their accesses watched. */
static char *adds_of(const struct qemu_plugin_tb *tb)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < tb->n; i++)
		strbuf_addf(&sb, "%c%s", tb->insns[i].ptr ? '1' : '0',
			    tb->insns[i].mem_ptr[0] ? "w" : "");
	return strbuf_detach(&sb, NULL);
}

/*
 * An instruction that touches no memory and raises no exception cannot
 * stop its block: the one after it starts as often, and shares its add.
 * Only an instruction that may stop has its accesses watched as a
 * block's first or last.
 */
static void test_sparse(void)
{
	static const char *const x86_code[] = {
		"\x55",		/* push %rbp: may fault */
		"\x48\x89\xe5",	/* mov %rsp, %rbp */
		"\x48\x83\xec\x10",	/* sub $16, %rsp */
		"\x8b\x07",		/* mov (%rdi), %eax: may fault */
		"\x01\xc0",		/* add %eax, %eax */
		"\xf7\xf1",		/* div %ecx: may raise #DE */
		"\xf0\x01\xc0",	/* lock add: #UD */
		"\x8d\x04\x24",	/* lea (%rsp), %eax: no access */
		"\x0f\x0b",		/* ud2 */
		"\x0f\xb6\xc0",	/* movzbl %al, %eax */
		"\xc3",		/* ret: may fault */
	};
	static const size_t x86_len[] = { 1, 3, 4, 2, 2, 2, 3, 3, 2, 3, 1 };
	static const char *const x86_safe[] = {
		"\x8d\x04\x24",	/* lea: its block needs no watch */
		"\x48\x63\xc7",	/* movslq %edi, %rax */
		"\x75\x05",		/* jne */
	};
	static const size_t safe_len[] = { 3, 3, 2 };
	static const char *const a64_code[] = {
		"\xff\x43\x00\xd1",	/* sub sp, sp, #16 */
		"\x00\x00\x40\xf9",	/* ldr x0, [x0]: may fault */
		"\x00\x00\x00\x8b",	/* add x0, x0, x0 */
		"\x00\x08\xc0\x9a",	/* udiv x0, x0, x0: a 2-source, not trusted */
		"\x00\x00\x00\x8b",	/* add */
		"\x01\x00\x00\x14",	/* b */
	};
	static const size_t a64_len[] = { 4, 4, 4, 4, 4, 4 };
	static const qemu_info_t arm64 = { "aarch64", { 0, 1 }, true, { { 1, 1 } } };
	char *out = xstrfmt("%s/sparse.txt", test_tmpdir());
	char *out_arg = xstrfmt("out=%s", out);
	char *args[] = { out_arg };
	struct qemu_plugin_tb *x, *y, *z, *a;
	struct meter_result m;
	char *s;

	if (!check(fresh_plugin("kcp-meter-sparse", &x86, 1, args) != NULL))
		goto out;
	x = translate_insns(0x400000, x86_code, x86_len, ARRAY_SIZE(x86_code));
	check_str(s = adds_of(x), "1w1001011010w");
	free(s);
	y = translate_insns(0x401000, x86_safe, safe_len, ARRAY_SIZE(x86_safe));
	check_str(s = adds_of(y), "100");
	free(s);
	run(x, 3);		/* 33 */
	run_fault(x, 3, 0);	/* the load faults after 3, */
	z = translate_insns(0x400008, x86_code + 3, x86_len + 3, ARRAY_SIZE(x86_code) - 3);
	check_str(s = adds_of(z), "1w1011010w");
	free(s);
	run(z, 1);		/* and runs again from a block of its own: 8 */
	run(y, 2);		/* 6 */
	atexit_cb(1, atexit_data);
	if (read_counts(&m, out)) {
		check_int(m.total.total, ==, 33 + 3 + 8 + 6);
		check_int(m.started, ==, m.total.total + 1);
		/* 6 adds a run of x (4 runs, 2 adds in the faulting one), 5 of z, 1 of y; 7 block starts */
		check_int(m.op_adds, ==, 6 * 3 + 2 + 5 + 2 * 1 + 7);
		check_int(m.op_watches, ==, 0);
	}
	meter_result_release(&m);
	free(x);
	free(y);
	free(z);

	if (!check(fresh_plugin("kcp-meter-sparse-arm64", &arm64, 1, args) != NULL))
		goto out;
	a = translate_insns(0x40000000, a64_code, a64_len, ARRAY_SIZE(a64_code));
	check_str(s = adds_of(a), "101010");
	free(s);
	free(a);
out:
	free(out);
	free(out_arg);
}

/* Installs a fresh copy of the plugin with args; what it printed on stderr (malloc'd), and whether it refused. */
static char *install_says(const char *name, int argc, char **argv, int *refused)
{
	char *err = xstrfmt("%s/%s.err", test_tmpdir(), name);
	int saved = dup(2), fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	struct strbuf sb = STRBUF_INIT;

	fflush(stderr);
	dup2(fd, 2);
	close(fd);
	*refused = fresh_plugin(name, &x86, argc, argv) == NULL;
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	if (strbuf_read_file(&sb, err, 0) < 0)
		strbuf_addstr(&sb, "(nothing)");
	free(err);
	return strbuf_detach(&sb, NULL);
}

/*
 * A rep string's callback runs at its every start (each iteration), so
 * the meter takes it only where a fault can happen and be seen: not before
 * the kernel, and in the kernel's text, once idt_setup_early_pf has run,
 * only at the exception table's instructions (extable=FILE).  A fault at
 * one of those still counts once.
 */
static void test_extable(void)
{
	static const char map[] =
		"ffffffff81000000 T _text\n"
		"ffffffff81000000 T memset\n"
		"ffffffff81000100 T asm_exc_page_fault\n"
		"ffffffff81000200 T copy_user\n"
		"ffffffff81000300 T idt_setup_early_pf\n"
		"ffffffff81000400 T _etext\n";
	static const char table[] = "kcp-extable 1\nffffffff81000210\nffffffff81000220\n";
	static const struct code rep = { 0xf3, 1, 1, 0xa4 };	/* rep movsb */
	static const struct code plain = { 0x90, 0, 0, 0 };
	static const struct {
		const char *text, *says;
	} bad[] = {
		{ "kcp-extable 2\n", "extable.bad:1: expected \"kcp-extable 1\"" },
		{ "kcp-extable 1\nffffffff81000210\nzz\n", "extable.bad:3: expected a hex address, found \"zz\"" },
		{ "kcp-extable 1\nffffffff81000220\nffffffff81000210\n", "extable.bad:3: the addresses must ascend" },
		{ "", "extable.bad: empty" },
	};
	char *out = xstrfmt("%s/extable.txt", test_tmpdir());
	char *map_path = xstrfmt("%s/extable.map", test_tmpdir());
	char *table_path = xstrfmt("%s/extable", test_tmpdir());
	char *bad_path = xstrfmt("%s/extable.bad", test_tmpdir());
	char *out_arg = xstrfmt("out=%s", out), *map_arg = xstrfmt("map=%s", map_path);
	char *table_arg = xstrfmt("extable=%s", table_path), *bad_arg = xstrfmt("extable=%s", bad_path);
	char *args[] = { out_arg, map_arg, table_arg }, *bad_args[] = { out_arg, map_arg, bad_arg };
	struct qemu_plugin_tb *pre, *early, *late, *set, *cu, *cu_alone, *pf, *user, *other;
	struct meter_result m;
	size_t i;

	write_file(map_path, map, strlen(map));
	write_file(table_path, table, strlen(table));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		char *name = xstrfmt("kcp-meter-extable-bad%zu", i);	/* a loaded copy is never rewritten */
		int refused;
		char *says;

		write_file(bad_path, bad[i].text, strlen(bad[i].text));
		says = install_says(name, 3, bad_args, &refused);
		free(name);
		check(refused);
		if (!check(strstr(says, bad[i].says) != NULL))
			fprintf(stderr, "# said: %s\n", says);
		free(says);
	}
	if (!check(fresh_plugin("kcp-meter-extable", &x86, 3, args) != NULL))
		goto out;
	pre = translate_code(0x100000, &rep, 1, 0);		/* the decompressor's */
	early = translate_code(0xffffffff81000010, &rep, 1, 0);	/* memset, early boot */
	check(pre->insns[0].cb == NULL && pre->insns[0].ptr != NULL);
	check(early->insns[0].cb != NULL && early->insns[0].ptr == NULL);
	set = translate_code(0xffffffff81000300, &plain, 1, 0);	/* from here on: late */
	late = translate_code(0xffffffff81000020, &rep, 1, 0);	/* memset: no callback */
	cu = translate_code(0xffffffff8100020e, (const struct code[]){ plain, rep }, 2, 0);
	cu_alone = translate_code(0xffffffff81000210, &rep, 1, 0);	/* listed */
	pf = translate_code(0xffffffff81000100, &plain, 1, 0);
	user = translate_code(0x400000, &rep, 1, 0);			/* user space: callback */
	other = translate_code(0xffffffff81000230, &plain, 1, 0);
	/* one add, its own: it cannot fault, so it need not count as a block that may */
	check(late->insns[0].cb == NULL && late->insns[0].ptr != NULL && late->ptr == NULL);
	check(cu->insns[1].cb != NULL && cu_alone->insns[0].cb != NULL);
	check(cu_alone->insns[0].ptr == NULL && cu_alone->ptr == NULL);
	check(user->insns[0].cb != NULL);
	/* late kernel text: push, call and ret only touch the stack and cannot stop; user space: they may */
	{
		static const char *const code[] = {
			"\x55",			/* push %rbp */
			"\x48\x89\xe5",		/* mov %rsp, %rbp */
			"\x8b\x07",			/* mov (%rdi), %eax: may fault */
			"\xe8\x00\x00\x00\x00",	/* call */
		};
		static const size_t len[] = { 1, 3, 2, 5 };
		struct qemu_plugin_tb *k = translate_insns(0xffffffff81000040, code, len, 4);
		struct qemu_plugin_tb *u = translate_insns(0x401000, code, len, 4);
		char *a;

		check_str(a = adds_of(k), "1001");
		free(a);
		check_str(a = adds_of(u), "1w101w");
		free(a);
		free(k);
		free(u);
	}
	run(pre, 4);			/* 4 */
	run(early, 2);			/* 2 */
	run(set, 1);			/* 1 */
	run(late, 5);			/* 5 */
	run(cu, 1);			/* 2 */
	run(cu_alone, 2);		/* 2 */
	run_fault(cu_alone, 0, 0);	/* faults, */
	run(pf, 1);			/* the entry runs next: 1 */
	run(cu_alone, 1);		/* and it runs again: 1 */
	run(user, 3);			/* 3 */
	run(other, 1);			/* 1 */
	atexit_cb(1, atexit_data);
	if (read_counts(&m, out)) {
		check_int(m.total.total, ==, 4 + 2 + 1 + 5 + 2 + 2 + 1 + 1 + 3 + 1);
		check_int(m.started, ==, m.total.total + 1);
		check_int(m.extable, ==, 2);
		/* early 2, cu 1, cu_alone 4, the fault entry 1, user 3 */
		check_int(m.op_calls, ==, 2 + 1 + 4 + 1 + 3);
		check_double(profile_find(&m.phases[STORE_METER_ALL], "copy_user")->count, 6, 0);
		check_double(profile_find(&m.phases[STORE_METER_ALL], "memset")->count, 7, 0);
	}
	meter_result_release(&m);
	free(pre);
	free(early);
	free(set);
	free(late);
	free(cu);
	free(cu_alone);
	free(pf);
	free(user);
	free(other);
out:
	free(out);
	free(map_path);
	free(table_path);
	free(bad_path);
	free(out_arg);
	free(map_arg);
	free(table_arg);
	free(bad_arg);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	if (load_plugin())
		check(!"kcp-meter.so loads");
	TEST(test_refuses);
	TEST(test_counts);
	TEST(test_exact);
	TEST(test_rep_fault);
	TEST(test_sparse);
	TEST(test_extable);
	return test_done();
}
