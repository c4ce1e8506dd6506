/* test-extract.c: unit tests for --extract: parsing, re:, csv:, json: and the samples they make. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <string.h>

#include "run/extract.h"
#include "run/protocol.h"
#include "test-lib.h"
#include "util/strbuf.h"
#include "util/wrapper.h"

/* dd's last line, as coreutils 9.1 prints it */
static const char dd_output[] =
	"100000+0 records in\n"
	"100000+0 records out\n"
	"819200000 bytes (819 MB, 781 MiB) copied, 4.07312 s, 201 MB/s\n";

/* bonnie++ 2.00a -q: the CSV result line after its other output */
static const char bonnie_output[] =
	"Using uid:0, gid:0.\n"
	"Writing intelligently...done\n"
	"1.98,2.00a,kcp,1,1700000000,256M,,8192,5,,,103264,32,52321,23,,,181409,30,"
	"+++++,+++,16,,,,,1535,57,+++++,+++,3207,99,1585,58,+++++,+++,3327,97,,60203us,"
	"71339us,,4209us,3072us,1216us,325us,1050us,1096us,77us,1006us\r\n";

static double extract_one(const char *arg, const char *output, int expect_ok,
			  const char *expect_why)
{
	struct extract x = EXTRACT_INIT;
	struct strbuf why = STRBUF_INIT;
	double v = -1;

	if (!check_int(extract_parse(&x, arg), ==, 0))
		return -1;
	check_int(extract_apply(&x, output, strlen(output), &v, &why), ==, expect_ok ? 0 : -1);
	if (expect_why && !check(strstr(why.buf, expect_why) != NULL))
		fprintf(stderr, "#   --extract %s\n#   why: %s\n", arg, why.buf);
	extract_release(&x);
	strbuf_release(&why);
	return v;
}

static void test_regex(void)
{
	check_double(extract_one("throughput,MB/s,higher,re:([0-9.]+) MB/s", dd_output, 1, NULL),
		     201, 0);
	check_double(extract_one("secs,s,lower,re:copied, ([0-9.]+) s", dd_output, 1, NULL),
		     4.07312, 0);
	/* the last matching line wins */
	check_double(extract_one("n,x,lower,re:^([0-9]+)\\+0 records", dd_output, 1, NULL),
		     100000, 0);
	check_double(extract_one("t,s,lower,re:took ([0-9.]+)", "took 1.5\ntook 2.5\n", 1, NULL),
		     2.5, 0);
	extract_one("x,s,lower,re:took ([0-9.]+)", "hello\nworld\n", 0,
		    "no line matches re:took ([0-9.]+) (2 lines; the last: 'world')");
	extract_one("x,s,lower,re:took ([0-9.]+)", "", 0, "no line matches re:took ([0-9.]+) (0 lines)");
	extract_one("x,s,lower,re:took (.*)", "took abc\n", 0, "'abc' is not a number");
	extract_one("x,s,lower,re:took (.*)", "took nan\n", 0, "'nan' is not a number");
	extract_one("x,s,lower,re:took (.*)", "took 0x10\n", 0, "'0x10' is not a number");
	extract_one("x,s,lower,re:took ([0-9]*)x?", "took x\n", 0, "'' is not a number");
}

static void test_csv(void)
{
	/* field 18 is bonnie++'s sequential block input, K/s */
	check_double(extract_one("seq_input,K/s,higher,csv:18", bonnie_output, 1, NULL), 181409, 0);
	extract_one("x,K/s,higher,csv:20", bonnie_output, 0, "'+++++' is not a number (csv:20");
	extract_one("x,K/s,higher,csv:100", bonnie_output, 0, "no line has 100 or more");
	check_double(extract_one("rate,1/s,higher,csv:rate", "name,rate\na,1\nb,2\n", 1, NULL), 2, 0);
	check_double(extract_one("rate,1/s,higher,csv:rate", "x, rate ,y\n1,2,3\nlast\n", 1, NULL),
		     2, 0);
	extract_one("rate,1/s,higher,csv:speed", "name,rate\na,1\n", 0, "no line has a field 'speed'");
	extract_one("rate,1/s,higher,csv:rate", "name,rate\n", 0, "no line after the header");
}

static void test_json(void)
{
	const char *out = "warming up\n{\"a\": {\"b\": 3.5}, \"s\": \"12\", \"t\": true}\nbye\n";

	check_double(extract_one("b,s,lower,json:a.b", out, 1, NULL), 3.5, 0);
	check_double(extract_one("s,s,lower,json:s", out, 1, NULL), 12, 0);
	extract_one("t,s,lower,json:t", out, 0, "json:t is a boolean, not a number");
	extract_one("c,s,lower,json:a.c", out, 0, "has no a.c");
	extract_one("c,s,lower,json:a", "no json here\n", 0, "no line is a JSON object");
	/* the last line that is an object, even after a broken one */
	check_double(extract_one("a,s,lower,json:a", "{\"a\": 1}\n{\"a\": 2\n", 1, NULL), 1, 0);
}

static void check_bad(const char *arg, const char *what)
{
	struct extract x = EXTRACT_INIT;

	test_capture_start();
	check_int(extract_parse(&x, arg), ==, -1);
	if (!check(strstr(test_messages.buf, what) != NULL))
		fprintf(stderr, "#   --extract %s\n#   message: %s", arg, test_messages.buf);
	test_capture_stop();
	check(x.spec == NULL);
}

static void test_parse_errors(void)
{
	check_bad("throughput", "is not NAME,UNIT,higher|lower,re:REGEX|csv:FIELD|json:KEY");
	check_bad("Throughput,MB/s,higher,re:(x)", "'Throughput' is not a metric name");
	check_bad("time,s,lower,re:(x)", "not time, wall or boot");
	check_bad("t,MB s,higher,re:(x)", "'MB s' is not a unit");
	check_bad("t,MB/s,more,re:(x)", "'more' is not higher or lower");
	check_bad("t,MB/s,higher,regex:(x)", "'regex:(x)' is not re:REGEX, csv:FIELD or json:KEY");
	check_bad("t,MB/s,higher,re:x", "has no group: put the number in ( )");
	check_bad("t,MB/s,higher,re:(x", "bad regular expression '(x'");
	check_bad("t,MB/s,higher,csv:0", "csv field 0 is not from 1 to 10000");
	check_bad("t,MB/s,higher,json:a..b", "json: needs a key");
}

static void test_samples(void)
{
	struct protocol_result r = PROTOCOL_RESULT_INIT;
	struct extract x[2] = { EXTRACT_INIT, EXTRACT_INIT };
	struct strbuf why = STRBUF_INIT;

	check_int(extract_parse(&x[0], "throughput,MB/s,higher,re:([0-9.]+) MB/s"), ==, 0);
	check_int(extract_parse(&x[1], "secs,s,lower,re:copied, ([0-9.]+) s"), ==, 0);
	check_int(extract_samples(&r, "cmd", x, 2, dd_output, strlen(dd_output), &why), ==, 0);
	check_int(r.nr_samples, ==, 2);
	check_str(r.samples[0].metric, "throughput");
	check_str(r.samples[0].unit, "MB/s");
	check_int(r.samples[0].higher_is_better, ==, 1);
	check_double(r.samples[0].value, 201, 0);
	check_str(r.samples[1].metric, "secs");
	check_int(r.samples[1].higher_is_better, ==, 0);
	/* one that fails adds nothing and says which */
	check_int(extract_samples(&r, "cmd", x, 2, "nothing\n", 8, &why), ==, -1);
	check_int(r.nr_samples, ==, 2);
	check(strstr(why.buf, "--extract throughput: no line matches") == why.buf);
	extract_release(&x[0]);
	extract_release(&x[1]);
	protocol_result_release(&r);
	strbuf_release(&why);
}

/* What guest/cmd.c sends of a long output: its note, then the last bytes from any byte on. */
static void cut_output(struct strbuf *out, const char *first, size_t filler, const char *last)
{
	struct strbuf all = STRBUF_INIT;
	size_t keep = 64 << 10, from;

	strbuf_addstr(&all, first);
	while (filler--)
		strbuf_addch(&all, filler % 80 ? 'x' : '\n');
	strbuf_addstr(&all, last);
	from = all.len > keep ? all.len - keep : 0;
	if (from)
		strbuf_addf(out, "[kcp-guest: the first %zu bytes of the output are left out]\n", from);
	strbuf_add(out, all.buf + from, all.len - from);
	strbuf_release(&all);
}

static int extract_cut(const char *arg, const struct strbuf *output, double *v,
		       struct strbuf *why)
{
	struct protocol_result r = PROTOCOL_RESULT_INIT;
	struct extract x = EXTRACT_INIT;
	int rc = -1;

	if (!check_int(extract_parse(&x, arg), ==, 0))
		return -1;
	rc = extract_samples(&r, "cmd", &x, 1, output->buf, output->len, why);
	if (!rc && check_int(r.nr_samples, ==, 1))
		*v = r.samples[0].value;
	extract_release(&x);
	protocol_result_release(&r);
	return rc;
}

/* The guest's truncation note and the partial line after it are not the program's. */
static void test_cut_output(void)
{
	struct strbuf out = STRBUF_INIT, why = STRBUF_INIT;
	long long cut = -1;
	double v = -1;

	/* dd's line, then 200,000 bytes of progress: the only "bytes" left is the note's */
	cut_output(&out, "10485760 bytes (10 MB, 10 MiB) copied, 0.5 s, 21 MB/s\n", 200000,
		   "\n");
	check_int(extract_skip_cut(out.buf, out.len, &cut), >, 0);
	check_int(cut, ==, 54 + 200000 + 1 - (64 << 10));
	check_int(extract_cut("bytes,B,higher,re:([0-9]+) bytes", &out, &v, &why), ==, -1);
	check(strstr(why.buf, "no line matches") != NULL);
	check(strstr(why.buf, "the first 134519 bytes are left out") != NULL);
	if (!check_double(v, -1, 0))
		fprintf(stderr, "#   took %g from the cut output\n", v);

	/* "took 987654 s", then 65,530 bytes: the cut leaves "654 s" at the start */
	strbuf_reset(&out);
	strbuf_reset(&why);
	cut_output(&out, "took 987654 s\n", 65530, "");
	check(starts_with(out.buf, "[kcp-guest: the first "));
	check(strstr(out.buf, "]\n654 s\n") != NULL);
	check_int(extract_cut("t,s,lower,re:([0-9]+) s$", &out, &v, &why), ==, -1);
	check(strstr(why.buf, "left out") != NULL);

	/* a number printed at the end is still found, cut or not */
	strbuf_reset(&out);
	strbuf_reset(&why);
	cut_output(&out, "took 987654 s\n", 100000, "\ntook 12 s\n");
	check_int(extract_cut("t,s,lower,re:took ([0-9]+) s", &out, &v, &why), ==, 0);
	check_double(v, 12, 0);

	/* no note: nothing skipped; a note-like line later is the program's */
	check_int(extract_skip_cut("a\nb\n", 4, &cut), ==, 0);
	check_int(cut, ==, 0);
	check_int(extract_skip_cut("[kcp-guest: the first x bytes of the output are left out]\n",
				   58, &cut), ==, 0);
	strbuf_release(&out);
	strbuf_release(&why);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_regex);
	TEST(test_csv);
	TEST(test_json);
	TEST(test_parse_errors);
	TEST(test_samples);
	TEST(test_cut_output);
	strbuf_release(&test_messages);
	return test_done();
}
