/* test-objects-index.c: unit tests for the index of a kernel's objects, their functions and CONFIG symbols. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kbuild/objects-index.h"
#include "test-lib.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/wrapper.h"

static void put(const char *dir, const char *name, const char *text)
{
	char *path = xstrfmt("%s/%s", dir, name);
	FILE *fp = fopen(path, "w");

	check(fp != NULL);
	if (fp) {
		fputs(text, fp);
		fclose(fp);
	}
	free(path);
}

/*
 * A tiny kernel tree and object tree: kernel/lock.o (gated by LOCKDEP, a
 * composite's part), kernel/sched.o (always built, depends on
 * DEBUG_SPINLOCK through a header), lib/leaf.o in lib/lib.a, a directory
 * gated by its parent (obj-$(CONFIG_DBG) += dbg/) holding an object in
 * an ifdef; thin archives as kbuild makes them.
 */
static int make_trees(const char *top)
{
	char *cmd = xstrfmt(
		"set -e; cd '%s'; mkdir -p src/kernel src/lib src/dbg obj/kernel obj/lib obj/dbg; "
		"printf 'obj-y += kernel/ lib/\\nobj-$(CONFIG_DBG) += dbg/\\n' >src/Makefile; "
		"printf 'obj-y += sched.o\\nobj-$(CONFIG_LOCKDEP) += locking.o\\n"
		"locking-y := lock.o \\\\\\n\\tother.o\\n' >src/kernel/Makefile; "
		"printf 'lib-y += leaf.o\\n' >src/lib/Makefile; "
		"printf 'ifdef CONFIG_DBG_EXTRA\\nobj-y += extra.o\\nendif\\n' >src/dbg/Makefile; "
		"printf 'int lock_acquire(void){return 1;}\\nstatic int helper(void){return 2;}\\n"
		"int lock_release(void){return helper();}\\n' >obj/kernel/lock.c; "
		"printf 'int schedule(void){return 3;}\\nstatic int helper(void){return 4;}\\n"
		"int pick(void){return helper();}\\n' >obj/kernel/sched.c; "
		"printf 'int memset_ish(void){return 5;}\\n' >obj/lib/leaf.c; "
		"printf 'int dbg_check(void){return 6;}\\n' >obj/dbg/extra.c; "
		"for f in kernel/lock kernel/sched lib/leaf dbg/extra; do cc -c -O0 -o obj/$f.o obj/$f.c; done; "
		"cd obj; ar cDPrST lib/lib.a lib/leaf.o; ar cDPrST vmlinux.a kernel/lock.o kernel/sched.o dbg/extra.o",
		top);
	int rc = system(cmd);

	free(cmd);
	return rc;
}

static void test_write_and_read(void)
{
	const char *top = test_tmpdir();
	char *obj = xstrfmt("%s/obj", top), *src = xstrfmt("%s/src", top);
	char *out = xstrfmt("%s/objects.gz", top);
	struct objects_index *idx = NULL;
	struct strvec lockdep = STRVEC_INIT, spin = STRVEC_INIT, dbg = STRVEC_INIT;
	struct strvec extra = STRVEC_INIT, none = STRVEC_INIT;
	const size_t *objs;
	size_t n;

	if (make_trees(top)) {
		test_skip("no cc, ar or nm to make a tree of objects");
		goto out;
	}
	put(obj, "kernel/.lock.o.cmd", "cmd_kernel/lock.o := gcc ...\ndeps_kernel/lock.o := \\\n"
	    "  $(wildcard include/config/LOCKDEP) \\\n  $(wildcard include/config/PROVE_LOCKING) \\\n");
	put(obj, "kernel/.sched.o.cmd", "deps_kernel/sched.o := \\\n"
	    "  $(wildcard include/config/DEBUG_SPINLOCK) \\\n  $(wildcard include/config/SMP) \\\n");
	check_int(objects_index_write(obj, src, out), ==, 0);
	check_int(objects_index_read(&idx, out), ==, 0);
	if (!idx)
		goto out;

	strvec_push(&lockdep, "CONFIG_LOCKDEP");
	strvec_push(&spin, "DEBUG_SPINLOCK");
	strvec_push(&dbg, "CONFIG_DBG");
	strvec_push(&extra, "DBG_EXTRA");
	strvec_push(&none, "CONFIG_NOTHING");

	/* lock.o: its deps, and gated by LOCKDEP through the composite locking.o */
	n = objects_index_find(idx, "lock_acquire", &objs);
	if (!check_int(n, ==, 1))
		goto out;
	check_str(objects_index_object(idx, objs[0]), "kernel/lock.o");
	check_str(objects_index_touches(idx, objs[0], &lockdep, 1), "LOCKDEP");
	check(objects_index_touches(idx, objs[0], &spin, 0) == NULL);
	/* sched.o: a header's DEBUG_SPINLOCK, no gate of its own */
	n = objects_index_find(idx, "schedule.isra.0", &objs);
	if (!check_int(n, ==, 1))
		goto out;
	check_str(objects_index_touches(idx, objs[0], &spin, 0), "DEBUG_SPINLOCK");
	check(objects_index_touches(idx, objs[0], &spin, 1) == NULL);
	check(objects_index_touches(idx, objs[0], &lockdep, 0) == NULL);
	/* a static name in two objects */
	n = objects_index_find(idx, "helper", &objs);
	check_int(n, ==, 2);
	/* dbg/extra.o: gated by its directory (DBG) and the ifdef around it */
	n = objects_index_find(idx, "dbg_check", &objs);
	if (!check_int(n, ==, 1))
		goto out;
	check_str(objects_index_touches(idx, objs[0], &dbg, 1), "DBG");
	check_str(objects_index_touches(idx, objs[0], &extra, 1), "DBG_EXTRA");
	/* lib/lib.a's member */
	n = objects_index_find(idx, "memset_ish", &objs);
	if (!check_int(n, ==, 1))
		goto out;
	check_str(objects_index_object(idx, objs[0]), "lib/leaf.o");
	check(objects_index_touches(idx, objs[0], &none, 0) == NULL);
	check_int(objects_index_find(idx, "no_such_function", &objs), ==, 0);
out:
	objects_index_free(idx);
	strvec_clear(&lockdep);
	strvec_clear(&spin);
	strvec_clear(&dbg);
	strvec_clear(&extra);
	strvec_clear(&none);
	free(obj);
	free(src);
	free(out);
}

static void test_no_vmlinux_a_and_bad_files(void)
{
	const char *top = test_tmpdir();
	char *empty = xstrfmt("%s/empty", top), *out = xstrfmt("%s/o.gz", top);
	char *cmd = xstrfmt("mkdir -p '%s'", empty);
	char *bad = xstrfmt("%s/bad", top);
	struct objects_index *idx = NULL;

	check_int(system(cmd), ==, 0);
	/* a kernel before 6.0, or a fake one: nothing to index */
	check_int(objects_index_write(empty, NULL, out), ==, 1);
	check(access(out, F_OK) != 0);
	put(top, "bad", "kcp-objects 2\no x.o\n");
	test_capture_start();
	check_int(objects_index_read(&idx, bad), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "bad:1: expected 'kcp-objects 1'") != NULL);
	put(top, "bad", "kcp-objects 1\nd FOO\n");
	test_capture_start();
	check_int(objects_index_read(&idx, bad), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "bad:2: expected 'o PATH'") != NULL);
	check(idx == NULL);
	free(empty);
	free(out);
	free(cmd);
	free(bad);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_write_and_read);
	TEST(test_no_vmlinux_a_and_bad_files);
	return test_done();
}
