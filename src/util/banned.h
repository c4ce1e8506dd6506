/* banned.h: C library functions too easy to misuse, made compile errors (as git's banned.h). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BANNED_H
#define BANNED_H

/*
 * The Makefile force-includes this header (-include src/util/banned.h) into
 * every file of src/, tests/unit/ and guest/.  A call such as strcpy(d, s)
 * then reads sorry_strcpy_is_a_banned_function, an undeclared name, and the
 * build stops naming the function.  Instead:
 *
 *   strcpy strcat strncpy strncat sprintf vsprintf
 *             strbuf_addstr(), strbuf_addf(), xstrfmt(); snprintf() for a
 *             fixed buffer (it always terminates and never overruns)
 *   strtok strtok_r
 *             strchr()/strcspn() over the string, or a strvec
 *   atoi atol atoll atof
 *             strtol()/strtoull()/strtod() with the end pointer and errno
 *             checked: "12abc" and overflow are errors, not 12 or garbage
 *   gets      never; getline() or strbuf_getline()
 *   gmtime localtime ctime asctime ctime_r asctime_r
 *             gmtime_r()/localtime_r() and strftime(): no static buffer
 *   mktemp    mkstemp() or mkdtemp(): no race for the name
 *
 * -include is read before a file's own #includes, so the system headers
 * that declare these functions are included first, here: their prototypes
 * (and glibc's _FORTIFY_SOURCE inline wrappers) are read with the real
 * names, and their include guards make a file's later #include a no-op.
 * The macros are function-like: they catch "strcpy(", a call (or a
 * prototype read after them, hence the includes above), and leave the bare
 * name alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BANNED(func) sorry_##func##_is_a_banned_function

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) BANNED(strncpy)
#undef strncat
#define strncat(x, y, n) BANNED(strncat)
#undef strtok
#define strtok(x, y) BANNED(strtok)
#undef strtok_r
#define strtok_r(x, y, z) BANNED(strtok_r)

#undef sprintf
#undef vsprintf
#define sprintf(...) BANNED(sprintf)
#define vsprintf(...) BANNED(vsprintf)

#undef atoi
#define atoi(x) BANNED(atoi)
#undef atol
#define atol(x) BANNED(atol)
#undef atoll
#define atoll(x) BANNED(atoll)
#undef atof
#define atof(x) BANNED(atof)

#undef gets
#define gets(x) BANNED(gets)

#undef gmtime
#define gmtime(t) BANNED(gmtime)
#undef localtime
#define localtime(t) BANNED(localtime)
#undef ctime
#define ctime(t) BANNED(ctime)
#undef ctime_r
#define ctime_r(t, buf) BANNED(ctime_r)
#undef asctime
#define asctime(t) BANNED(asctime)
#undef asctime_r
#define asctime_r(t, buf) BANNED(asctime_r)

#undef mktemp
#define mktemp(x) BANNED(mktemp)

#endif
