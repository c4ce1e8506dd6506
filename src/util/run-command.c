/* run-command.c: run programs (make, qemu) from argv vectors, with capture and timeouts. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "util/keeper.h"
#include "util/run-command.h"
#include "util/sigchain.h"
#include "util/usage.h"
#include "util/wrapper.h"

/* cp->state */
enum {
	CP_IDLE = 0,
	CP_RUNNING,
	CP_TERMED,	/* timed out, SIGTERM sent */
	CP_KILLED,	/* timed out, SIGKILL sent */
	CP_DONE,
};

#define READ_CHUNK 65536
/* Without pidfd, how often to look for an exited child. */
#define POLL_FALLBACK_MS 10
/* After the group is killed, how long to wait for EOF from a process outside it. */
#define DRAIN_SECONDS 2.0

int run_command_no_pidfd;

/* What the child tells the parent when it fails before or at exec. */
struct child_err {
	int stage;
	int err;
};

enum { STAGE_CHDIR = 1, STAGE_EXEC };

/* Everything start_command() prepares before fork, so the child only copies. */
struct spawn_plan {
	char *path;		/* resolved program */
	struct strvec env;	/* built environment, if cp->env is not empty */
	const char **envp;
	int child_fd[3];	/* -1: leave as inherited */
	int parent_fd[3];	/* our ends of capture pipes, -1 if none */
	int err_to_out;
	int report[2];		/* exec-failure pipe */
	pid_t parent;		/* our pid (the keeper's for contain), for kill_on_parent_death */
	pid_t pgrp;		/* our process group, which a keeper goes back to */
};

static int running(const struct child_process *cp)
{
	return cp->state >= CP_RUNNING && cp->state <= CP_KILLED;
}

static int succeeded(const struct child_process *cp)
{
	return !cp->start_errno && !cp->timed_out && !cp->exceeded && !cp->signal &&
	       !cp->exit_code;
}

void child_process_init(struct child_process *cp)
{
	struct child_process blank = CHILD_PROCESS_INIT;

	memcpy(cp, &blank, sizeof(*cp));
}

void child_process_release(struct child_process *cp)
{
	if (!cp)
		return;
	strvec_clear(&cp->args);
	strvec_clear(&cp->env);
	strvec_clear(&cp->watch);
	child_process_init(cp);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void spawn_plan_release(struct spawn_plan *p)
{
	int i;

	free(p->path);
	strvec_clear(&p->env);
	for (i = 0; i < 3; i++) {
		close_fd(&p->child_fd[i]);
		close_fd(&p->parent_fd[i]);
	}
	close_fd(&p->report[0]);
	close_fd(&p->report[1]);
}

static size_t key_len(const char *entry)
{
	return strchrnul(entry, '=') - entry;
}

static void env_remove(struct strvec *env, const char *key, size_t len)
{
	size_t i = 0;

	while (i < env->nr) {
		const char *e = env->v[i];

		if (key_len(e) == len && !strncmp(e, key, len)) {
			free((char *)e);
			memmove(env->v + i, env->v + i + 1, (env->nr - i) * sizeof(*env->v));
			env->nr--;
		} else {
			i++;
		}
	}
}

static void build_env(struct spawn_plan *p, const struct child_process *cp)
{
	size_t i;

	if (!cp->env.nr) {
		p->envp = (const char **)environ;
		return;
	}
	strvec_pushv(&p->env, (const char **)environ);
	for (i = 0; i < cp->env.nr; i++) {
		const char *e = cp->env.v[i];

		env_remove(&p->env, e, key_len(e));
		if (strchr(e, '='))
			strvec_push(&p->env, e);
	}
	p->envp = p->env.v;
}

static int is_executable(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

/* Like execvp()'s search, done before fork and in the child's PATH. */
static char *find_program(const char *name, const char **envp)
{
	const char *path = NULL;
	struct strbuf candidate = STRBUF_INIT;
	size_t i;

	if (strchr(name, '/'))
		return xstrdup(name);
	for (i = 0; envp[i]; i++)
		if (skip_prefix(envp[i], "PATH=", &path))
			break;
	if (!path)
		path = "/bin:/usr/bin";
	while (1) {
		const char *end = strchrnul(path, ':');

		strbuf_reset(&candidate);
		/* The child chdir()s before exec: anchor relative entries here. */
		if (*path != '/') {
			char *cwd = getcwd(NULL, 0);

			if (cwd)
				strbuf_addf(&candidate, "%s/", cwd);
			free(cwd);
		}
		if (end == path)
			strbuf_addch(&candidate, '.');
		else
			strbuf_add(&candidate, path, end - path);
		strbuf_addf(&candidate, "/%s", name);
		if (is_executable(candidate.buf))
			return strbuf_detach(&candidate, NULL);
		if (!*end)
			break;
		path = end + 1;
	}
	strbuf_release(&candidate);
	return NULL;
}

/* O_NOFOLLOW's ELOOP says "too many levels of symbolic links": say what it means. */
static int open_output_error(const char *path)
{
	struct stat st;

	if (errno == ELOOP && !lstat(path, &st) && S_ISLNK(st.st_mode))
		return error("cannot write '%s': it is a symbolic link, and kconfperf writes "
			     "its own files only where it names them", path);
	return error_errno("cannot open '%s'", path);
}

static int open_stream(struct spawn_plan *p, int n, struct child_stream *s)
{
	static const char *const names[] = { "stdin", "stdout", "stderr" };
	enum child_io mode = s->mode;
	int fd = -1;

	if (n == 0 && mode == CHILD_IO_DEFAULT)
		mode = CHILD_IO_NULL;
	if ((n == 0 && mode >= CHILD_IO_APPEND) ||
	    (n == 1 && mode == CHILD_IO_TO_STDOUT) ||
	    ((mode == CHILD_IO_FILE || mode == CHILD_IO_APPEND) && !s->path) ||
	    (mode == CHILD_IO_CAPTURE && !s->buf)) {
		errno = EINVAL;
		return error("invalid %s redirection (mode %d)", names[n], (int)mode);
	}

	switch (mode) {
	case CHILD_IO_DEFAULT:
	case CHILD_IO_INHERIT:
		return 0;
	case CHILD_IO_TO_STDOUT:
		p->err_to_out = 1;
		return 0;
	case CHILD_IO_NULL:
		fd = open("/dev/null", (n ? O_WRONLY : O_RDONLY) | O_CLOEXEC);
		if (fd < 0)
			return error_errno("cannot open '/dev/null'");
		break;
	case CHILD_IO_FILE:
		/* Outputs are files kconfperf names (logs, console.txt): never a link. */
		fd = open(s->path, (n ? O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW : O_RDONLY) |
			  O_CLOEXEC, 0666);
		if (fd < 0)
			return open_output_error(s->path);
		break;
	case CHILD_IO_APPEND:
		fd = open(s->path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd < 0)
			return open_output_error(s->path);
		break;
	case CHILD_IO_CAPTURE: {
		int pipefd[2];

		if (pipe2(pipefd, O_CLOEXEC) < 0)
			return error_errno("cannot create a pipe");
		fd = pipefd[1];
		p->parent_fd[n] = pipefd[0];
		fcntl(pipefd[0], F_SETFL, O_NONBLOCK);
		break;
	}
	}
	/* the child dup2()s its fds onto 0, 1 and 2: every prepared fd stays above them */
	p->child_fd[n] = fd_above_stdio(fd);
	if (p->child_fd[n] < 0)
		return error_errno("cannot duplicate a file descriptor");
	return 0;
}

static void NORETURN child_report(int fd, int stage)
{
	struct child_err ce = { stage, errno };
	ssize_t n = write(fd, &ce, sizeof(ce));

	/* If even that failed, the parent sees EOF and then exit 127. */
	(void)n;
	_exit(127);
}

/* Between fork and exec: async-signal-safe calls only, no malloc. */
static void NORETURN run_child(const struct child_process *cp,
			       const struct spawn_plan *p, const sigset_t *mask)
{
	struct sigaction dfl;
	int sig, i;

	/*
	 * All signals are blocked.  Drop our handlers (sigchain's would kill
	 * the parent's other children) before unblocking; leave ignored
	 * signals ignored, except SIGPIPE, which tools expect at default.
	 */
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	for (sig = 1; sig < NSIG; sig++) {
		struct sigaction sa;

		if (sigaction(sig, NULL, &sa) < 0)
			continue;
		if ((sa.sa_flags & SA_SIGINFO) ||
		    (sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN) ||
		    sig == SIGPIPE)
			sigaction(sig, &dfl, NULL);
	}

	/* A contained child stays in the group its keeper made for it. */
	if (!cp->contain)
		setpgid(0, 0);
	if (cp->kill_on_parent_death || cp->contain) {
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
			child_report(p->report[1], STAGE_EXEC);
		/* The parent may have died before prctl() took. */
		if (getppid() != p->parent)
			_exit(127);
	}
	for (i = 0; i < 3; i++)
		if (p->child_fd[i] >= 0 && dup2(p->child_fd[i], i) < 0)
			child_report(p->report[1], STAGE_EXEC);
	if (p->err_to_out && dup2(1, 2) < 0)
		child_report(p->report[1], STAGE_EXEC);
	if (cp->dir && chdir(cp->dir) < 0)
		child_report(p->report[1], STAGE_CHDIR);
	sigprocmask(SIG_SETMASK, mask, NULL);
	execve(p->path, (char *const *)cp->args.v, (char *const *)p->envp);
	child_report(p->report[1], STAGE_EXEC);
}

static int start_failed(struct child_process *cp, int err)
{
	cp->start_errno = err ? err : EINVAL;
	cp->state = CP_IDLE;
	errno = cp->start_errno;
	return -1;
}

int start_command(struct child_process *cp)
{
	struct spawn_plan p = { .child_fd = { -1, -1, -1 }, .parent_fd = { -1, -1, -1 },
				.report = { -1, -1 }, .env = STRVEC_INIT };
	struct child_stream *streams[3] = { &cp->in, &cp->out, &cp->err };
	struct child_err ce;
	sigset_t all, old;
	ssize_t n;
	int i, err = 0;

	if (running(cp)) {
		errno = EBUSY;
		return error("'%s' is already running", cp->args.v[0]);
	}
	cp->pid = -1;
	cp->exit_code = -1;
	cp->signal = cp->timed_out = cp->start_errno = 0;
	cp->exceeded = NULL;
	cp->seconds = cp->term_time = cp->watch_time = 0;
	cp->pidfd = -1;
	for (i = 0; i < 3; i++) {
		streams[i]->fd = -1;
		streams[i]->dropped = 0;
		streams[i]->base = streams[i]->buf ? streams[i]->buf->len : 0;
	}

	if (!cp->args.nr) {
		err = EINVAL;
		error("no program to run");
		goto out;
	}
	build_env(&p, cp);
	p.path = find_program(cp->args.v[0], p.envp);
	if (!p.path) {
		err = ENOENT;
		if (!cp->silent_exec_failure)
			error("cannot run '%s': %s", cp->args.v[0], strerror(err));
		goto out;
	}
	for (i = 0; i < 3; i++) {
		if (open_stream(&p, i, streams[i]) < 0) {
			err = errno;
			goto out;
		}
	}
	if (pipe2(p.report, O_CLOEXEC) < 0) {
		err = errno;
		error_errno("cannot create a pipe");
		goto out;
	}
	if (cp->contain && keeper_prepare() < 0) {
		err = errno;
		goto out;
	}
	p.report[1] = fd_above_stdio(p.report[1]);

	/* No handler may run in the child before it has reset them. */
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	cp->start_time = now_seconds();
	p.parent = getpid();
	p.pgrp = getpgrp();
	cp->pid = fork();
	if (!cp->pid) {
		if (cp->contain) {
			pid_t keeper = getpid();

			if (keeper_fork(p.pgrp) < 0)
				child_report(p.report[1], STAGE_EXEC);
			p.parent = keeper;
		}
		run_child(cp, &p, &old);
	}
	err = errno;
	if (cp->pid > 0)
		sigchain_add_child(cp->pid);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (cp->pid < 0) {
		error_errno("cannot fork to run '%s'", cp->args.v[0]);
		goto out;
	}

	close_fd(&p.report[1]);
	for (i = 0; i < 3; i++)
		close_fd(&p.child_fd[i]);
	do {
		n = read(p.report[0], &ce, sizeof(ce));
	} while (n < 0 && errno == EINTR);
	if (n == sizeof(ce)) {
		err = ce.err;
		sigchain_remove_child(cp->pid);
		while (waitpid(cp->pid, NULL, 0) < 0 && errno == EINTR)
			;
		cp->pid = -1;
		if (ce.stage == STAGE_CHDIR)
			error("cannot change to '%s': %s", cp->dir, strerror(err));
		else if (!cp->silent_exec_failure)
			error("cannot run '%s': %s", cp->args.v[0], strerror(err));
		goto out;
	}

	/* Exec succeeded: hand the capture pipes to cp. */
	cp->out.fd = p.parent_fd[1];
	cp->err.fd = p.parent_fd[2];
	p.parent_fd[1] = p.parent_fd[2] = -1;
	if (!run_command_no_pidfd) {
#ifdef SYS_pidfd_open
		cp->pidfd = syscall(SYS_pidfd_open, cp->pid, 0);
#endif
	}
	cp->state = CP_RUNNING;
	err = 0;
out:
	spawn_plan_release(&p);
	if (err)
		return start_failed(cp, err);
	return 0;
}

/* Keeps the last cap bytes plus at most `slack` more of what this child wrote. */
static void trim_capture(struct child_stream *s, size_t slack)
{
	struct strbuf *sb = s->buf;
	size_t have, excess;

	if (!s->cap)
		return;
	have = sb->len - s->base;
	if (have <= s->cap + slack)
		return;
	excess = have - s->cap;
	memmove(sb->buf + s->base, sb->buf + s->base + excess, s->cap);
	strbuf_setlen(sb, s->base + s->cap);
	s->dropped += excess;
}

/* Reads what is available; closes the pipe at EOF or on a read error. */
static void pump(struct child_stream *s)
{
	size_t slack = s->cap > READ_CHUNK ? s->cap : READ_CHUNK;

	while (s->fd >= 0) {
		struct strbuf *sb = s->buf;
		ssize_t n;

		strbuf_grow(sb, READ_CHUNK);
		n = read(s->fd, sb->buf + sb->len, READ_CHUNK);
		if (n > 0) {
			strbuf_setlen(sb, sb->len + n);
			trim_capture(s, slack);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		close_fd(&s->fd);
	}
}

static void signal_group(struct child_process *cp, int sig)
{
	kill(-cp->pid, sig);
	if (sig == SIGTERM)
		kill(-cp->pid, SIGCONT);
}

static void stop_group(struct child_process *cp, double now)
{
	signal_group(cp, SIGTERM);
	cp->term_time = now;
	cp->state = CP_TERMED;
}

/* The first watched file larger than watch_max, or NULL. */
static const char *over_watch_max(const struct child_process *cp)
{
	size_t i;

	for (i = 0; i < cp->watch.nr; i++) {
		struct stat st;

		if (!stat(cp->watch.v[i], &st) && st.st_size > cp->watch_max)
			return cp->watch.v[i];
	}
	return NULL;
}

static double sooner(double a, double b)
{
	return a < 0 || (b >= 0 && b < a) ? b : a;
}

/*
 * Sends TERM when the timeout is due or a watched file is too large, KILL
 * when the grace after TERM is over; returns seconds until the next thing
 * to look at, or -1 for none.
 */
static double enforce_limits(struct child_process *cp, double now)
{
	double due, next = -1;

	if (cp->state == CP_RUNNING && cp->timeout > 0) {
		due = cp->start_time + cp->timeout;
		if (now < due) {
			next = due - now;
		} else {
			stop_group(cp, now);
			cp->timed_out = 1;
		}
	}
	if (cp->state == CP_RUNNING && cp->watch.nr) {
		due = cp->watch_time + CHILD_WATCH_SECONDS;
		if (now >= due) {
			cp->watch_time = now;
			cp->exceeded = over_watch_max(cp);
			if (cp->exceeded)
				stop_group(cp, now);
			due = now + CHILD_WATCH_SECONDS;
		}
		if (cp->state == CP_RUNNING)
			next = sooner(next, due - now);
	}
	if (cp->state == CP_TERMED) {
		due = cp->term_time + (cp->grace > 0 ? cp->grace : 0);
		if (now < due)
			return due - now;
		signal_group(cp, SIGKILL);
		cp->state = CP_KILLED;
	}
	return next;
}

static int has_exited(const struct child_process *cp)
{
	siginfo_t info;

	memset(&info, 0, sizeof(info));
	if (waitid(P_PID, cp->pid, &info, WEXITED | WNOHANG | WNOWAIT) < 0)
		return errno != EINTR;	/* ECHILD: nothing left to wait for */
	return info.si_pid != 0;
}

static void add_pollfd(struct pollfd **fds, size_t *nr, size_t *alloc, int fd)
{
	if (fd < 0)
		return;
	ALLOC_GROW(*fds, *nr + 1, *alloc);
	(*fds)[*nr].fd = fd;
	(*fds)[*nr].events = POLLIN;
	(*fds)[*nr].revents = 0;
	(*nr)++;
}

/*
 * Pumps and polices every running child in cps until one has exited (it is
 * then a zombie, not yet reaped); returns its index, or -1 if none runs.
 */
static int wait_for_exit(struct child_process **cps, size_t nr)
{
	struct pollfd *fds = NULL;
	size_t fds_nr, fds_alloc = 0, i;
	int ret = -1;

	while (1) {
		double now = now_seconds(), wait = -1;
		int any = 0, ms;

		fds_nr = 0;
		for (i = 0; i < nr; i++) {
			struct child_process *cp = cps[i];
			double next;

			if (!cp || !running(cp))
				continue;
			any = 1;
			if (has_exited(cp)) {
				ret = i;
				goto out;
			}
			next = enforce_limits(cp, now);
			if (next >= 0 && (wait < 0 || next < wait))
				wait = next;
			if (cp->pidfd < 0 && (wait < 0 || wait > POLL_FALLBACK_MS / 1000.0))
				wait = POLL_FALLBACK_MS / 1000.0;
			add_pollfd(&fds, &fds_nr, &fds_alloc, cp->pidfd);
			add_pollfd(&fds, &fds_nr, &fds_alloc, cp->out.fd);
			add_pollfd(&fds, &fds_nr, &fds_alloc, cp->err.fd);
		}
		if (!any)
			goto out;
		/* Round up, so we do not spin just short of a deadline. */
		if (wait < 0)
			ms = -1;
		else if (wait > 60)
			ms = 60 * 1000;
		else
			ms = (int)(wait * 1000) + 1;
		if (poll(fds, fds_nr, ms) < 0 && errno != EINTR) {
			error_errno("poll");
			goto out;
		}
		for (i = 0; i < nr; i++) {
			if (!cps[i] || !running(cps[i]))
				continue;
			if (cps[i]->out.fd >= 0)
				pump(&cps[i]->out);
			if (cps[i]->err.fd >= 0)
				pump(&cps[i]->err);
		}
	}
out:
	free(fds);
	return ret;
}

/*
 * Reads the pipes to EOF; by now the group is dead, so only a process that
 * left the group (setsid) can hold them open, and we do not wait for it long.
 */
static void drain(struct child_process *cp)
{
	double deadline = now_seconds() + DRAIN_SECONDS;

	while (cp->out.fd >= 0 || cp->err.fd >= 0) {
		struct pollfd fds[2];
		size_t nr = 0;
		double left = deadline - now_seconds();

		if (left <= 0)
			break;
		if (cp->out.fd >= 0)
			fds[nr++] = (struct pollfd){ .fd = cp->out.fd, .events = POLLIN };
		if (cp->err.fd >= 0)
			fds[nr++] = (struct pollfd){ .fd = cp->err.fd, .events = POLLIN };
		if (poll(fds, nr, (int)(left * 1000) + 1) < 0 && errno != EINTR)
			break;
		if (cp->out.fd >= 0)
			pump(&cp->out);
		if (cp->err.fd >= 0)
			pump(&cp->err);
	}
	close_fd(&cp->out.fd);
	close_fd(&cp->err.fd);
}

/* cp's leader has exited: kill what is left of its group, drain, reap. */
static int reap(struct child_process *cp)
{
	int status = 0;
	pid_t got;

	/* The unreaped leader keeps the pgid from being reused meanwhile. */
	kill(-cp->pid, SIGKILL);
	drain(cp);
	sigchain_remove_child(cp->pid);
	do {
		got = waitpid(cp->pid, &status, 0);
	} while (got < 0 && errno == EINTR);
	cp->seconds = now_seconds() - cp->start_time;
	close_fd(&cp->pidfd);
	if (cp->out.mode == CHILD_IO_CAPTURE)
		trim_capture(&cp->out, 0);
	if (cp->err.mode == CHILD_IO_CAPTURE)
		trim_capture(&cp->err, 0);
	cp->state = CP_DONE;
	if (got < 0)
		return error_errno("cannot wait for '%s'", cp->args.v[0]);
	if (WIFEXITED(status)) {
		cp->exit_code = WEXITSTATUS(status);
		cp->signal = 0;
	} else if (WIFSIGNALED(status)) {
		cp->exit_code = -1;
		cp->signal = WTERMSIG(status);
	}
	return succeeded(cp) ? 0 : -1;
}

int finish_command(struct child_process *cp)
{
	if (!running(cp)) {
		errno = EINVAL;
		return error("finish_command: '%s' is not running",
			     cp->args.nr ? cp->args.v[0] : "");
	}
	if (wait_for_exit(&cp, 1) < 0)
		return -1;
	return reap(cp);
}

int run_command(struct child_process *cp)
{
	if (start_command(cp) < 0)
		return -1;
	return finish_command(cp);
}

int wait_any_command(struct child_process **cps, size_t nr)
{
	int i = wait_for_exit(cps, nr);

	if (i < 0)
		return -1;
	reap(cps[i]);
	return i;
}

int run_commands_parallel(struct child_process *cmds, size_t nr, int max_parallel,
			  run_parallel_done_fn done, void *data)
{
	struct child_process **slots;
	size_t *slot_index;
	size_t next = 0, active = 0, max, s;
	int failures = 0;

	max = max_parallel > 0 ? (size_t)max_parallel : (size_t)online_cpus();
	if (max > nr)
		max = nr;
	if (!max)
		return 0;
	slots = xcalloc(max, sizeof(*slots));
	slot_index = xcalloc(max, sizeof(*slot_index));
	while (next < nr || active) {
		int i;

		while (active < max && next < nr) {
			size_t k = next++;

			if (start_command(&cmds[k]) < 0) {
				failures++;
				if (done)
					done(&cmds[k], k, data);
				continue;
			}
			for (s = 0; slots[s]; s++)
				;
			slots[s] = &cmds[k];
			slot_index[s] = k;
			active++;
		}
		if (!active)
			continue;
		i = wait_any_command(slots, max);
		if (i < 0)
			break;
		if (!succeeded(slots[i]))
			failures++;
		if (done)
			done(slots[i], slot_index[i], data);
		slots[i] = NULL;
		active--;
	}
	free(slots);
	free(slot_index);
	return failures;
}

void child_process_describe(struct strbuf *out, const struct child_process *cp)
{
	if (cp->start_errno)
		strbuf_addf(out, "could not be started: %s", strerror(cp->start_errno));
	else if (cp->timed_out)
		strbuf_addf(out, "timed out after %g s", cp->timeout);
	else if (cp->exceeded)
		strbuf_addf(out, "was stopped: '%s' grew beyond %lld bytes", cp->exceeded,
			    (long long)cp->watch_max);
	else if (cp->signal)
		strbuf_addf(out, "killed by signal %d (%s)", cp->signal, strsignal(cp->signal));
	else if (cp->state != CP_DONE)
		strbuf_addstr(out, "has not finished");
	else
		strbuf_addf(out, "exited with status %d", cp->exit_code);
}

int run_command_first_line(struct strbuf *out, const char *prog, const char *arg,
			   struct strbuf *why)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	int ret = 0;

	strbuf_reset(out);
	strvec_push(&cp.args, prog);
	strvec_push(&cp.args, arg);
	cp.out.mode = CHILD_IO_CAPTURE;
	cp.out.buf = out;
	cp.out.cap = 4096;
	cp.err.mode = CHILD_IO_NULL;
	cp.silent_exec_failure = 1;
	cp.kill_on_parent_death = 1;
	cp.timeout = 30;
	if (start_command(&cp)) {
		if (why)
			strbuf_addstr(why, strerror(cp.start_errno));
		ret = -1;
	} else if (finish_command(&cp)) {
		if (why)
			child_process_describe(why, &cp);
		ret = -2;
	}
	strbuf_setlen(out, strcspn(out->buf, "\n"));
	child_process_release(&cp);
	return ret;
}
