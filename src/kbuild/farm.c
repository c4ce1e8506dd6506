/* farm.c: builds through a compiler wrapper: ccache, distcc or icecc. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kbuild/farm.h"
#include "util/run-command.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "util/wrapper.h"

#define ICECC_DEFAULT_PORT 8765
#define ICECC_QUERY_SECONDS 3.0
#define ICECC_ANSWER_MAX (256u << 10)

static const char *const kind_names[] = {
	[FARM_CCACHE] = "ccache",
	[FARM_DISTCC] = "distcc",
	[FARM_ICECC] = "icecc",
};

const char *farm_kind_name(enum farm_kind kind)
{
	return kind >= FARM_CCACHE && kind <= FARM_ICECC ? kind_names[kind] : "?";
}

void farm_free(struct farm *f)
{
	if (!f)
		return;
	free(f->program);
	free(f->version);
	free(f->dir);
	free(f->slots_from);
	free(f);
}

static int is_executable(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

/* The absolute path of a program as exec would find it, malloc'd, or NULL. */
static char *find_program(const char *name)
{
	struct strvec dirs = STRVEC_INIT;
	const char *path = getenv("PATH");
	char *ret = NULL;
	size_t i;

	if (strchr(name, '/')) {
		char *abs = absolute_path(name);

		if (is_executable(abs))
			return abs;
		free(abs);
		return NULL;
	}
	strvec_split(&dirs, path ? path : "/usr/bin:/bin", ":");
	for (i = 0; i < dirs.nr && !ret; i++) {
		char *p = xstrfmt("%s/%s", dirs.v[i], name);

		if (is_executable(p) && p[0] == '/')
			ret = p;
		else
			free(p);
	}
	strvec_clear(&dirs);
	return ret;
}

/*
 * DIR/compiler -> program, made beside its name and renamed into place, so
 * a build that runs meanwhile never finds it missing.
 */
static int masquerade(const struct farm *f, const char *compiler)
{
	char *link = xstrfmt("%s/%s", f->dir, compiler);
	char *tmp = xstrfmt("%s/.%s.%ld", f->dir, compiler, (long)getpid());
	struct strbuf target = STRBUF_INIT;
	int ret = 0;

	if (!strbuf_readlink(&target, link) && !strcmp(target.buf, f->program))
		goto out;
	unlink(tmp);
	if (symlink(f->program, tmp) || rename(tmp, link)) {
		ret = error_errno("cannot link '%s' to '%s'", link, f->program);
		unlink(tmp);
	}
out:
	strbuf_release(&target);
	free(link);
	free(tmp);
	return ret;
}

static int parse_int(const char *s, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	while (*end == ' ' || *end == '\t')
		end++;
	if (errno || end == s || *end || v <= 0 || v > 1 << 20)
		return -1;
	*out = (int)v;
	return 0;
}

int farm_parse_listcs(const char *text)
{
	const char *line, *next;
	long total = 0;

	for (line = text; *line; line = next) {
		size_t len = strcspn(line, "\n");
		char *l = xstrndup(line, len);
		const char *jobs = strstr(l, " jobs="), *slash;

		next = line + len + (line[len] == '\n');
		slash = jobs ? strchr(jobs, '/') : NULL;
		if (slash) {
			long max = strtol(slash + 1, NULL, 10);

			if (max > 0 && max < 1 << 16)
				total += max;
		}
		free(l);
	}
	return total > 1 << 20 ? 1 << 20 : (int)total;
}

/* Connects to host:port within timeout seconds; the socket, or -1. */
static int connect_to(const char *host, int port, double timeout)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *ai, *a;
	char service[16];
	int fd = -1;

	snprintf(service, sizeof(service), "%d", port);
	if (getaddrinfo(host, service, &hints, &ai))
		return -1;
	for (a = ai; a && fd < 0; a = a->ai_next) {
		struct pollfd pfd;
		int err = 0;
		socklen_t len = sizeof(err);

		fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
			    a->ai_protocol);
		if (fd < 0)
			continue;
		if (!connect(fd, a->ai_addr, a->ai_addrlen))
			break;
		pfd.fd = fd;
		pfd.events = POLLOUT;
		if (errno != EINPROGRESS || poll(&pfd, 1, (int)(timeout * 1000)) != 1 ||
		    getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) || err) {
			close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(ai);
	return fd;
}

/*
 * Asks the icecc scheduler's text interface for its compile servers
 * ("listcs") and reads until its "200 done", within ICECC_QUERY_SECONDS.
 */
static int ask_scheduler(struct strbuf *out, const char *host, int port)
{
	double deadline = now_seconds() + ICECC_QUERY_SECONDS;
	int fd = connect_to(host, port, ICECC_QUERY_SECONDS), sent = 0, ret = -1;

	if (fd < 0)
		return -1;
	while (out->len < ICECC_ANSWER_MAX) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		double left = deadline - now_seconds();
		char buf[4096];
		ssize_t n;
		const char *answer;

		if (left <= 0 || poll(&pfd, 1, (int)(left * 1000) + 1) != 1)
			break;
		n = read(fd, buf, sizeof(buf));
		if (n <= 0)
			break;
		strbuf_add(out, buf, (size_t)n);
		/* The greeting ends in "200 Use 'help' ...", the listing in "200 done". */
		if (!sent && strstr(out->buf, "\n200 ")) {
			strbuf_reset(out);
			if (xwrite_all(fd, "listcs\n", 7) != 7)
				break;
			sent = 1;
			continue;
		}
		answer = sent ? strstr(out->buf, "200 done") : NULL;
		if (answer) {
			strbuf_setlen(out, (size_t)(answer - out->buf));
			(void)!xwrite_all(fd, "quit\n", 5);
			ret = 0;
			break;
		}
	}
	close(fd);
	return ret;
}

/* The slots of the farm ICECC_SCHEDULER names, or 0 (slots_from says why not). */
static int icecc_slots(struct farm *f)
{
	const char *env = getenv("ICECC_SCHEDULER");
	struct strbuf answer = STRBUF_INIT;
	char *host;
	const char *colon;
	int port = ICECC_DEFAULT_PORT, slots = 0;

	if (!env || !*env || *env == ':') {
		f->slots_from = xstrdup("ICECC_SCHEDULER does not name the scheduler");
		return 0;
	}
	colon = strrchr(env, ':');
	host = colon ? xstrndup(env, (size_t)(colon - env)) : xstrdup(env);
	if (colon && parse_int(colon + 1, &port)) {
		f->slots_from = xstrfmt("ICECC_SCHEDULER '%s' has no port number", env);
		goto out;
	}
	if (ask_scheduler(&answer, host, port + 1)) {
		f->slots_from = xstrfmt("no answer from the scheduler's text interface %s:%d",
					host, port + 1);
		goto out;
	}
	slots = farm_parse_listcs(answer.buf);
	f->slots_from = xstrfmt("icecc scheduler %s:%d", host, port);
out:
	strbuf_release(&answer);
	free(host);
	return slots;
}

static int distcc_slots(struct farm *f)
{
	struct strbuf line = STRBUF_INIT;
	int slots = 0;

	if (run_command_first_line(&line, f->program, "-j", NULL) || parse_int(line.buf, &slots)) {
		f->slots_from = xstrdup("'distcc -j' names no slots (no DISTCC_HOSTS?)");
		slots = 0;
	} else {
		f->slots_from = xstrdup("distcc -j");
	}
	strbuf_release(&line);
	return slots;
}

static int kind_of(const char *wrapper, enum farm_kind *out)
{
	const char *slash = strrchr(wrapper, '/'), *name = slash ? slash + 1 : wrapper;
	int k;

	for (k = FARM_CCACHE; k <= FARM_ICECC; k++) {
		if (!strcmp(name, kind_names[k])) {
			*out = (enum farm_kind)k;
			return 0;
		}
	}
	return error("compiler wrapper '%s' is not ccache, distcc or icecc", wrapper);
}

int farm_open(struct farm **out, const char *wrapper, const char *compiler,
	      const char *cache_dir)
{
	struct farm *f = xcalloc(1, sizeof(*f));

	*out = NULL;
	if (kind_of(wrapper, &f->kind))
		goto fail;
	if (strchr(compiler, '/')) {
		error("a compiler wrapper needs the compiler by name, not '%s'", compiler);
		goto fail;
	}
	f->program = find_program(wrapper);
	f->version = NULL;
	if (f->program) {
		struct strbuf v = STRBUF_INIT;

		if (!run_command_first_line(&v, f->program, "--version", NULL))
			f->version = strbuf_detach(&v, NULL);
		strbuf_release(&v);
	}
	if (!f->version) {
		error("compiler wrapper '%s' cannot be run (is it installed?)", wrapper);
		goto fail;
	}
	f->dir = xstrfmt("%s/wrappers/%s", cache_dir, kind_names[f->kind]);
	if (mkdir_p(f->dir, 0755) || masquerade(f, compiler))
		goto fail;
	if (f->kind == FARM_DISTCC)
		f->slots = distcc_slots(f);
	else if (f->kind == FARM_ICECC)
		f->slots = icecc_slots(f);
	*out = f;
	return 0;
fail:
	farm_free(f);
	return -1;
}

int farm_jobs(const struct farm *f, int jobs, int cpus)
{
	if (jobs > 0)
		return jobs;
	return f && f->slots > cpus ? f->slots : cpus;
}

void farm_env(const struct farm *f, struct strvec *env, const char *stats_log)
{
	const char *path = getenv("PATH");

	strvec_pushf(env, "PATH=%s%s%s", f->dir, path && *path ? ":" : "", path ? path : "");
	if (f->kind == FARM_CCACHE && stats_log)
		strvec_pushf(env, "CCACHE_STATSLOG=%s", stats_log);
	/*
	 * distcc calls gcc x86_64-linux-gnu-gcc, even for "gcc --version",
	 * which kbuild records as CONFIG_CC_VERSION_TEXT: another config and
	 * another kernel than without distcc.
	 */
	if (f->kind == FARM_DISTCC)
		strvec_push(env, "DISTCC_NO_REWRITE_CROSS=1");
}

void farm_parse_stats_log(struct farm_stats *out, const char *text)
{
	const char *line, *next;
	int in_call = 0, counted = 0;

	memset(out, 0, sizeof(*out));
	for (line = text; ; line = next) {
		size_t len = strcspn(line, "\n");

		next = line + len + (line[len] == '\n');
		if (!*line || line[0] == '#') {
			/* a call ends: one that was neither hit nor miss was not cacheable */
			if (in_call && !counted)
				out->uncacheable++;
			if (!*line)
				break;
			in_call = 1;
			counted = 0;
			continue;
		}
		if (counted || !in_call)
			continue;
		if ((len == 16 && !strncmp(line, "direct_cache_hit", len)) ||
		    (len == 22 && !strncmp(line, "preprocessed_cache_hit", len))) {
			out->hits++;
			counted = 1;
		} else if (len == 10 && !strncmp(line, "cache_miss", len)) {
			out->misses++;
			counted = 1;
		}
	}
}

int farm_read_stats(struct farm_stats *out, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (strbuf_read_file(&sb, path, 0) < 0)
		ret = -1;
	else
		farm_parse_stats_log(out, sb.buf);
	unlink(path);
	strbuf_release(&sb);
	return ret;
}

void farm_format_stats(struct strbuf *out, const struct farm_stats *s)
{
	long calls = s->hits + s->misses;

	if (!calls) {
		strbuf_addstr(out, "no compiles");
		return;
	}
	strbuf_addf(out, "%ld/%ld hits (%.0f%%)", s->hits, calls, 100.0 * (double)s->hits / (double)calls);
}
