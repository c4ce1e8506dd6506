/* test-workload-spec.c: unit tests for cmd: specs, scratch disks, --extract on a spec and parameter series. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "run/workload-spec.h"
#include "test-lib.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/wrapper.h"

static void check_spec_fails(const char *text, const char *what)
{
	struct workload_spec spec = WORKLOAD_SPEC_INIT;

	test_capture_start();
	check_int(workload_spec_parse(&spec, text), ==, -1);
	if (!check(strstr(test_messages.buf, what) != NULL))
		fprintf(stderr, "#   spec: %s\n#   message: %s", text, test_messages.buf);
	test_capture_stop();
}

static void test_cmd_spec_is_the_command(void)
{
	struct workload_spec spec = WORKLOAD_SPEC_INIT;
	struct strbuf sb = STRBUF_INIT;

	check_int(workload_spec_parse(&spec, "cmd:dd if=/dev/kcp/vda of=/dev/null bs=8k,x"), ==, 0);
	check_str(workload_spec_get(&spec, "run"), "dd if=/dev/kcp/vda of=/dev/null bs=8k,x");
	workload_spec_format(&spec, &sb);
	check_str(sb.buf, "cmd:dd if=/dev/kcp/vda of=/dev/null bs=8k,x");
	strbuf_reset(&sb);
	workload_spec_cmdline(&spec, &sb);
	check_str(sb.buf, "kcp.workload=cmd kcp.run=dd%20if%3D/dev/kcp/vda%20of%3D/dev/null"
		  "%20bs%3D8k,x kcp.scratch=");
	workload_spec_release(&spec);
	strbuf_release(&sb);

	check_spec_fails("cmd", "workload 'cmd' needs a command");
	check_spec_fails("cmd:  ", "needs a command");
	check_spec_fails("cmd:no-such-program-kcp --x", "no program 'no-such-program-kcp' on this host");
	check_spec_fails("cmd:/no/such/kcp", "no program '/no/such/kcp'");
	check_spec_fails("cmd:echo a\tb\001", "control character 0x01");
}

static void test_text_encoding_round_trips(void)
{
	const char *texts[] = { "plain", "a b\tc", "q\"uote's %41 100%", "x=y,z:/._-+@", "" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(texts); i++) {
		char enc[256] = "", *dup;
		size_t n = workload_text_encode(enc, sizeof(enc), texts[i]);

		check_int(n, ==, strlen(enc));
		check(!strpbrk(enc, " \t\"'"));
		check_int(n, ==, workload_text_encode(NULL, 0, texts[i]));
		dup = strdup(enc);
		check_int(workload_text_decode(dup), ==, 0);
		check_str(dup, texts[i]);
		free(dup);
	}
	{
		char bad[] = "a%4", bad2[] = "%zz";

		check_int(workload_text_decode(bad), ==, -1);
		check_int(workload_text_decode(bad2), ==, -1);
	}
}

static void test_shell_syntax(void)
{
	check_int(workload_command_needs_shell("dd if=/dev/vda of=/dev/null bs=8k"), ==, 0);
	check_int(workload_command_needs_shell("make -C /tmp/x -j1"), ==, 0);
	check_int(workload_command_needs_shell("echo a | wc"), ==, 1);
	check_int(workload_command_needs_shell("echo \"a b\""), ==, 1);
	check_int(workload_command_needs_shell("cd /tmp && make"), ==, 1);
	check_int(workload_command_needs_shell("echo $HOME"), ==, 1);
	check_int(workload_command_needs_shell("ls *.c"), ==, 1);
	check_int(workload_command_needs_shell("CC=gcc make"), ==, 1);
	check_int(workload_command_needs_shell("  V_1=x make"), ==, 1);
	check_int(workload_command_needs_shell("make V=1"), ==, 0);
}

static void test_scratch_disks(void)
{
	struct workload_spec spec = WORKLOAD_SPEC_INIT;
	struct strvec profiles = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;

	check_int(workload_spec_parse(&spec, "cmd:true"), ==, 0);
	check_int(workload_spec_add_scratch(&spec, "1G:lvm,crypt"), ==, 0);
	check_int(workload_spec_add_scratch(&spec, "64M:ext4"), ==, 0);
	check_int(workload_spec_add_scratch(&spec, "16M"), ==, 0);
	check_int(spec.nr_scratch, ==, 3);
	check_int(spec.scratch[0].bytes, ==, 1ULL << 30);
	check_str(spec.scratch[0].layers, "lvm,crypt");
	check_str(spec.scratch[2].layers, "");
	check_str(workload_spec_get(&spec, "scratch"), "1G:lvm,crypt 64M:ext4 16M");
	workload_spec_format(&spec, &sb);
	check_str(sb.buf, "cmd:true --scratch 1G:lvm,crypt --scratch 64M:ext4 --scratch 16M");
	workload_spec_profiles(&spec, &profiles);
	check_int(profiles.nr, ==, 3);
	check_str(profiles.v[0], "9p");
	check_str(profiles.v[1], "crypt");
	check_str(profiles.v[2], "disk");

	test_capture_start();
	check_int(workload_spec_add_scratch(&spec, "1G:ext4,crypt"), ==, -1);
	check(strstr(test_messages.buf, "ext4 is a file system: it comes last"));
	check_int(workload_spec_add_scratch(&spec, "1G:lvm,lvm"), ==, -1);
	check(strstr(test_messages.buf, "lvm twice"));
	check_int(workload_spec_add_scratch(&spec, "1G:xfs"), ==, -1);
	check(strstr(test_messages.buf, "'xfs' is not a layer"));
	check_int(workload_spec_add_scratch(&spec, "12"), ==, -1);
	check(strstr(test_messages.buf, "the size: '12' is out of range"));
	check_int(workload_spec_add_scratch(&spec, "1G:"), ==, -1);
	check(strstr(test_messages.buf, "separated by single commas"));
	test_capture_stop();
	check_int(spec.nr_scratch, ==, 3);
	workload_spec_release(&spec);

	/* a disk in the guest's memory: brd, one size for all (the largest), the ramdisk profile */
	check_int(workload_spec_parse(&spec, "cmd:true"), ==, 0);
	check_int(workload_spec_add_scratch(&spec, "64M:ram,lvm,crypt"), ==, 0);
	check_int(workload_spec_add_scratch(&spec, "16M"), ==, 0);
	check_int(workload_spec_add_scratch(&spec, "128M:ram"), ==, 0);
	check_int(workload_scratch_in_ram(&spec.scratch[0]), ==, 1);
	check_int(workload_scratch_in_ram(&spec.scratch[1]), ==, 0);
	check_int(workload_scratch_in_ram(&spec.scratch[2]), ==, 1);
	strbuf_reset(&sb);
	workload_spec_cmdline(&spec, &sb);
	check(strstr(sb.buf, " kcp.scratch=64M:ram,lvm,crypt%2016M%20128M:ram brd.rd_nr=2 "
		     "brd.rd_size=131072") != NULL);
	strvec_clear(&profiles);
	workload_spec_profiles(&spec, &profiles);
	check_int(profiles.nr, ==, 3);
	check_str(profiles.v[1], "ramdisk");
	check_str(profiles.v[2], "crypt");
	test_capture_start();
	check_int(workload_spec_add_scratch(&spec, "1G:lvm,ram"), ==, -1);
	check(strstr(test_messages.buf, "ram is where the disk is (the guest's memory): it comes first"));
	check_int(workload_spec_add_scratch(&spec, "1G:ramx"), ==, -1);
	check(strstr(test_messages.buf, "'ramx' is not a layer (ram, lvm, crypt or ext4)"));
	test_capture_stop();
	workload_spec_release(&spec);
	strvec_clear(&profiles);

	/* another workload gets a raw disk, never layers, and no --extract */
	check_int(workload_spec_parse(&spec, "dd"), ==, 0);
	check_int(workload_spec_add_scratch(&spec, "256M"), ==, 0);
	test_capture_start();
	check_int(workload_spec_add_scratch(&spec, "256M:ext4"), ==, -1);
	check(strstr(test_messages.buf, "for a cmd: workload only"));
	check_int(workload_spec_add_extract(&spec, "x,s,lower,re:(.*)"), ==, -1);
	check(strstr(test_messages.buf, "only a cmd: workload has output"));
	test_capture_stop();
	strbuf_reset(&sb);
	workload_spec_format(&spec, &sb);
	check_str(sb.buf, "dd --scratch 256M");
	strvec_clear(&profiles);
	workload_spec_profiles(&spec, &profiles);
	check_int(profiles.nr, ==, 0);
	workload_spec_release(&spec);
	strvec_clear(&profiles);
	strbuf_release(&sb);
}

/* The one rule: the profile of the workload's row, then its disks', each once. */
static void test_profiles_of_a_workload(void)
{
	static const char *const cases[][2] = {
		{ "libguestfs", "libguestfs" },
		{ "cmd:true", "9p" },
		{ "hackbench", "" },
		{ "boot", "" },
	};
	struct strvec profiles = STRVEC_INIT;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct workload_spec spec = WORKLOAD_SPEC_INIT;
		struct strbuf joined = STRBUF_INIT;
		size_t k;

		check_int(workload_spec_parse(&spec, cases[i][0]), ==, 0);
		strvec_clear(&profiles);
		workload_spec_profiles(&spec, &profiles);
		workload_spec_profiles(&spec, &profiles);
		for (k = 0; k < profiles.nr; k++)
			strbuf_addf(&joined, "%s%s", k ? "," : "", profiles.v[k]);
		check_str(joined.buf, cases[i][1]);
		strbuf_release(&joined);
		workload_spec_release(&spec);
	}
	strvec_clear(&profiles);
}

static void test_extract_on_a_spec(void)
{
	struct workload_spec spec = WORKLOAD_SPEC_INIT;
	struct strbuf sb = STRBUF_INIT;

	check_int(workload_spec_parse(&spec, "cmd:dd if=/dev/zero of=/dev/null"), ==, 0);
	check_int(workload_spec_add_extract(&spec, "throughput,MB/s,higher,re:([0-9.]+) MB/s"), ==, 0);
	test_capture_start();
	check_int(workload_spec_add_extract(&spec, "throughput,MB/s,higher,re:(x)"), ==, -1);
	check(strstr(test_messages.buf, "the metric 'throughput' is extracted twice"));
	test_capture_stop();
	workload_spec_format(&spec, &sb);
	check_str(sb.buf, "cmd:dd if=/dev/zero of=/dev/null --extract "
		  "throughput,MB/s,higher,re:([0-9.]+) MB/s");
	workload_spec_release(&spec);
	strbuf_release(&sb);
}

static void check_expand(const char *spec, const char *param, const char *members)
{
	struct strvec out = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;
	char *p = NULL;
	size_t i;

	check_int(workload_spec_expand(&out, &p, spec), ==, 0);
	if (param)
		check_str(p, param);
	else
		check(p == NULL);
	for (i = 0; i < out.nr; i++)
		strbuf_addf(&sb, "%s%s", i ? " " : "", out.v[i]);
	if (!check_str(sb.buf, members))
		fprintf(stderr, "#   spec: %s\n", spec);
	free(p);
	strvec_clear(&out);
	strbuf_release(&sb);
}

static void test_series_expand(void)
{
	check_expand("hackbench:groups=1,4,7,12", "groups",
		     "hackbench:groups=1 hackbench:groups=4 hackbench:groups=7 hackbench:groups=12");
	check_expand("hackbench:loops=20,groups=1,4,mode=thread", "groups",
		     "hackbench:loops=20,groups=1,mode=thread hackbench:loops=20,groups=4,mode=thread");
	check_expand("hackbench:groups=2", NULL, "hackbench:groups=2");
	check_expand("hackbench", NULL, "hackbench");
	/* a command's commas are its own */
	check_expand("cmd:echo a,b,c", NULL, "cmd:echo a,b,c");
	/* bad specs pass through for workload_spec_parse() to explain */
	check_expand("hackbench:groups=1,,2", NULL, "hackbench:groups=1,,2");
	check_expand("nosuch:a=1,2", NULL, "nosuch:a=1,2");
	{
		struct strvec out = STRVEC_INIT;
		char *p = NULL;

		test_capture_start();
		check_int(workload_spec_expand(&out, &p, "hackbench:groups=1,2,loops=1,2"), ==, -1);
		check(strstr(test_messages.buf, "only one parameter can take a list of values "
			     "(groups and loops do)"));
		check_int(workload_spec_expand(&out, &p, "hackbench:4,groups=1"), ==, -1);
		check(strstr(test_messages.buf, "'4' is not key=value"));
		test_capture_stop();
		strvec_clear(&out);
		free(p);
	}
}

static void test_series_label(void)
{
	struct workload_spec first = WORKLOAD_SPEC_INIT;
	struct strvec values = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;

	/* groups=1 is the default, which the canonical spec leaves out: the label never does */
	check_int(workload_spec_parse(&first, "hackbench:loops=20,groups=1"), ==, 0);
	strvec_push(&values, "1");
	strvec_push(&values, "4");
	workload_spec_format_series(&first, "groups", &values, &sb);
	check_str(sb.buf, "hackbench:groups=1,4,loops=20");
	strbuf_reset(&sb);
	workload_spec_format(&first, &sb);
	check_str(sb.buf, "hackbench:loops=20");
	workload_spec_release(&first);
	strvec_clear(&values);
	strbuf_release(&sb);
}

/* One --workload argument with its --scratch: every member of a series gets the disk, and the label shows it. */
static void test_parse_arg(void)
{
	struct strvec scratch = STRVEC_INIT, extracts = STRVEC_INIT;
	struct workload_spec *specs = NULL;
	struct strbuf label = STRBUF_INIT, sb = STRBUF_INIT;
	size_t nr = 0, i;

	strvec_push(&scratch, "16M");
	check_int(workload_spec_parse_arg(&specs, &nr, &label, "hackbench:groups=1,4", &scratch,
					  &extracts), ==, 0);
	check_int(nr, ==, 2);
	check_str(label.buf, "hackbench:groups=1,4 --scratch 16M");
	for (i = 0; i < nr; i++) {
		check_int(specs[i].nr_scratch, ==, 1);
		strbuf_reset(&sb);
		workload_spec_format(&specs[i], &sb);
		check_str(sb.buf, i ? "hackbench:groups=4 --scratch 16M" : "hackbench --scratch 16M");
	}
	/* one spec: no label; appended after what is there */
	strbuf_reset(&label);
	check_int(workload_spec_parse_arg(&specs, &nr, &label, "syscall", &extracts, &extracts),
		  ==, 0);
	check_int(nr, ==, 3);
	check_int(label.len, ==, 0);
	/* --extract needs cmd: the error, and the member parsed so far stays for the caller */
	strvec_push(&extracts, "x=y");
	test_capture_start();
	check_int(workload_spec_parse_arg(&specs, &nr, &label, "syscall", &scratch, &extracts),
		  ==, -1);
	test_capture_stop();
	check(test_messages.len > 0);
	check_int(nr, ==, 4);
	for (i = 0; i < nr; i++)
		workload_spec_release(&specs[i]);
	free(specs);
	strvec_clear(&scratch);
	strvec_clear(&extracts);
	strbuf_release(&label);
	strbuf_release(&sb);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_cmd_spec_is_the_command);
	TEST(test_text_encoding_round_trips);
	TEST(test_shell_syntax);
	TEST(test_scratch_disks);
	TEST(test_profiles_of_a_workload);
	TEST(test_extract_on_a_spec);
	TEST(test_series_expand);
	TEST(test_series_label);
	TEST(test_parse_arg);
	strbuf_release(&test_messages);
	return test_done();
}
