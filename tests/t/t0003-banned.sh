#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t0003: src/util/banned.h, which the Makefile force-includes, makes a call
# of strcpy, sprintf, atoi and the rest a compile error, while the system
# headers that declare them still compile.  Tiny files are compiled with the
# exact command line of the build under test ($KCP_BUILD/FLAGS, written by
# the Makefile), from the top directory as make runs it.
. "$(dirname "$0")/lib.sh"

FLAGS=$KCP_BUILD/FLAGS

# cc_build NAME [EXTRA-FLAGS]: compiles NAME.c to NAME.o, messages in NAME.err.
cc_build() {
	_src=$TRASH/$1.c
	_name=$1
	shift
	(cd "$SRC_DIR" && eval "$(cat "$FLAGS")" '"$@"' -c -o '"$TRASH/$_name.o"' '"$_src"') \
		>"$TRASH/$_name.err" 2>&1
}

# banned_call NAME 'CALL': a file whose one function makes CALL must not
# compile, and the error must name NAME as banned.
banned_call() {
	cat >"b-$1.c" <<-EOF
	#include <stdarg.h>
	#include <stdio.h>
	#include <stdlib.h>
	#include <string.h>
	#include <time.h>
	long probe(char *d, const char *s, char **save, const time_t *t, char *fmt, va_list ap);
	long probe(char *d, const char *s, char **save, const time_t *t, char *fmt, va_list ap)
	{
		(void)d; (void)s; (void)save; (void)t; (void)fmt; (void)ap;
		return (long)($2);
	}
	EOF
	if cc_build "b-$1"; then
		echo "b-$1.c compiled, though it calls $1"
		return 1
	fi
	test_grep "sorry_$1_is_a_banned_function" "b-$1.err"
}

test_expect_success 'the build under test wrote its compile command' '
	test -s "$FLAGS" &&
	test_grep "include src/util/banned.h" "$FLAGS"
'

test_expect_success 'a file that calls none of them compiles, fortified or not' '
	cat >ok.c <<-\EOF &&
	#include <stdarg.h>
	#include <stdio.h>
	#include <stdlib.h>
	#include <string.h>
	#include <strings.h>
	#include <time.h>
	#include <wchar.h>
	#include <sys/stat.h>
	/* The prototypes were read with the real names: their addresses exist. */
	char *(*const copy)(char *, const char *) = strcpy;
	int (*const to_int)(const char *) = atoi;
	struct tm *(*const to_tm)(const time_t *) = localtime;
	long probe(char *buf, size_t size, const char *s);
	long probe(char *buf, size_t size, const char *s)
	{
		time_t t = 0;
		struct tm tm;
		char *end;
		long v = strtol(s, &end, 10);

		gmtime_r(&t, &tm);
		strftime(buf, size, "%Y", &tm);
		snprintf(buf, size, "%s%ld", s, v);
		memcpy(buf, s, 1);
		return v;
	}
	EOF
	cc_build ok && test ! -s ok.err &&
	cc_build ok -O2 -D_FORTIFY_SOURCE=2 && test ! -s ok.err
'

test_expect_success 'strcpy, strcat, strncpy and strncat do not compile' '
	banned_call strcpy "strcpy(d, s) != 0" &&
	banned_call strcat "strcat(d, s) != 0" &&
	banned_call strncpy "strncpy(d, s, 4) != 0" &&
	banned_call strncat "strncat(d, s, 4) != 0"
'

test_expect_success 'sprintf and vsprintf do not compile' '
	banned_call sprintf "sprintf(d, \"%s\", s)" &&
	banned_call vsprintf "vsprintf(d, fmt, ap)"
'

test_expect_success 'strtok and strtok_r do not compile' '
	banned_call strtok "strtok(d, s) != 0" &&
	banned_call strtok_r "strtok_r(d, s, save) != 0"
'

test_expect_success 'atoi, atol, atoll and atof do not compile' '
	banned_call atoi "atoi(s)" &&
	banned_call atol "atol(s)" &&
	banned_call atoll "atoll(s)" &&
	banned_call atof "atof(s)"
'

test_expect_success 'gets and mktemp do not compile' '
	banned_call gets "gets(d) != 0" &&
	banned_call mktemp "mktemp(d) != 0"
'

test_expect_success 'gmtime, localtime, ctime and asctime do not compile' '
	banned_call gmtime "gmtime(t) != 0" &&
	banned_call localtime "localtime(t) != 0" &&
	banned_call ctime "ctime(t) != 0" &&
	banned_call ctime_r "ctime_r(t, d) != 0" &&
	banned_call asctime "asctime(0) != 0" &&
	banned_call asctime_r "asctime_r(0, d) != 0"
'

test_done
