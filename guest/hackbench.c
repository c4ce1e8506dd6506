/* hackbench.c: the hackbench workload, as in hackbench and perf bench sched messaging. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"

/*
 * Each group has `fds` receivers, each with its own socket pair (or pipe),
 * and `fds` senders that each write `loops` messages of `datasize` bytes to
 * every receiver of the group.  All workers first say they are ready, then
 * wait for one wake-up byte; the clock runs from the wake-up until every
 * worker has been reaped (perf's sched-messaging.c does exactly this).
 */

struct hb {
	int thread_mode;
	int use_pipe;
	unsigned fds;
	unsigned long long loops;
	size_t datasize;
	int ready_out;		/* workers write one byte here when ready */
	int wake_in;		/* and poll this until the start */
};

struct worker {
	const struct hb *hb;
	int is_sender;
	int in_fd, in_fd_w;	/* receiver: its pair's read (and write) ends */
	const int *out_fds;	/* sender: the group's receivers' write ends */
	char *buf;
	pid_t pid;
	pthread_t thread;
	int started;
	int failed;
};

static int fdpair(const struct hb *hb, int fds[2])
{
	if (hb->use_pipe)
		return pipe(fds);
	return socketpair(AF_UNIX, SOCK_STREAM, 0, fds);
}

static int ready(const struct hb *hb)
{
	struct pollfd pfd = { .fd = hb->wake_in, .events = POLLIN };
	char c = 0;

	if (write(hb->ready_out, &c, 1) != 1)
		return -1;
	while (poll(&pfd, 1, -1) != 1)
		if (errno != EINTR)
			return -1;
	return 0;
}

static int send_all(struct worker *w)
{
	const struct hb *hb = w->hb;
	unsigned long long i;
	unsigned j;

	memset(w->buf, 'S', hb->datasize);
	for (i = 0; i < hb->loops; i++)
		for (j = 0; j < hb->fds; j++) {
			size_t done = 0;

			while (done < hb->datasize) {
				ssize_t n = write(w->out_fds[j], w->buf + done,
						  hb->datasize - done);

				if (n < 0 && errno == EINTR)
					continue;
				if (n <= 0)
					return -1;
				done += n;
			}
		}
	return 0;
}

static int receive_all(struct worker *w)
{
	const struct hb *hb = w->hb;
	unsigned long long packets = hb->loops * hb->fds, i;

	for (i = 0; i < packets; i++) {
		size_t done = 0;

		while (done < hb->datasize) {
			ssize_t n = read(w->in_fd, w->buf + done, hb->datasize - done);

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				return -1;
			done += n;
		}
	}
	return 0;
}

static int work(struct worker *w)
{
	if (!w->hb->thread_mode && !w->is_sender)
		close(w->in_fd_w);
	if (ready(w->hb))
		return -1;
	return w->is_sender ? send_all(w) : receive_all(w);
}

static void *thread_main(void *arg)
{
	struct worker *w = arg;

	w->failed = work(w) != 0;
	return NULL;
}

static int start_worker(struct worker *w)
{
	if (w->hb->thread_mode) {
		pthread_attr_t attr;
		int err;

		pthread_attr_init(&attr);
		pthread_attr_setstacksize(&attr, 64 * 1024);
		err = pthread_create(&w->thread, &attr, thread_main, w);
		pthread_attr_destroy(&attr);
		if (err) {
			errno = err;
			return guest_error_errno("hackbench: cannot create a thread");
		}
		return 0;
	}
	w->pid = fork();
	if (w->pid < 0)
		return guest_error_errno("hackbench: cannot fork");
	if (!w->pid)
		_exit(work(w) ? 1 : 0);
	return 0;
}

/* Waits for a started worker; returns 0 when it did all its work. */
static int reap_worker(struct worker *w)
{
	int status;

	if (w->hb->thread_mode) {
		pthread_join(w->thread, NULL);
		return w->failed ? -1 : 0;
	}
	while (waitpid(w->pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/*
 * Creates one group's fds and workers.  group_fds gets the receivers' write
 * ends, which the senders use; the parent's copies are -1 once closed.
 */
static int start_group(struct hb *hb, struct worker *w, int *group_fds)
{
	unsigned i;

	for (i = 0; i < hb->fds; i++) {
		int fds[2];

		if (fdpair(hb, fds))
			return guest_error_errno("hackbench: cannot create a %s",
						 hb->use_pipe ? "pipe" : "socket pair");
		w[i].in_fd = fds[0];
		w[i].in_fd_w = group_fds[i] = fds[1];
		if (start_worker(&w[i]))
			return -1;
		w[i].started = 1;
		if (!hb->thread_mode) {
			close(fds[0]);
			w[i].in_fd = -1;
		}
	}
	for (i = 0; i < hb->fds; i++) {
		w[hb->fds + i].is_sender = 1;
		w[hb->fds + i].out_fds = group_fds;
		if (start_worker(&w[hb->fds + i]))
			return -1;
		w[hb->fds + i].started = 1;
	}
	if (!hb->thread_mode)
		for (i = 0; i < hb->fds; i++) {
			close(group_fds[i]);
			group_fds[i] = -1;
		}
	return 0;
}

/* One timed round; returns its seconds, or a negative value after an error line. */
static double one_round(struct hb *hb, unsigned groups)
{
	size_t nr = (size_t)groups * hb->fds * 2, i;
	struct worker *w = calloc(nr, sizeof(*w));
	int *group_fds = malloc((size_t)groups * hb->fds * sizeof(int));
	char *bufs = malloc(nr * hb->datasize);
	int readyfds[2] = { -1, -1 }, wakefds[2] = { -1, -1 };
	double start, elapsed = -1;
	int failed = 0;
	char c = 0;

	if (!w || !group_fds || !bufs) {
		free(w);
		free(group_fds);
		free(bufs);
		return guest_error("hackbench: out of memory");
	}
	for (i = 0; i < nr; i++) {
		w[i].hb = hb;
		w[i].buf = bufs + i * hb->datasize;
		w[i].in_fd = w[i].in_fd_w = -1;
	}
	for (i = 0; i < (size_t)groups * hb->fds; i++)
		group_fds[i] = -1;
	if (fdpair(hb, readyfds) || fdpair(hb, wakefds)) {
		guest_error_errno("hackbench: cannot create the start pipes");
		goto out;
	}
	hb->ready_out = readyfds[1];
	hb->wake_in = wakefds[0];

	for (i = 0; i < groups && !failed; i++)
		failed = start_group(hb, &w[i * hb->fds * 2], &group_fds[i * hb->fds]) != 0;
	for (i = 0; i < nr && !failed; i++)
		if (read(readyfds[0], &c, 1) != 1)
			failed = guest_error_errno("hackbench: waiting for the workers") != 0;
	if (failed) {
		/*
		 * Some workers would wait for ever for peers that do not
		 * exist.  Kill worker processes; threads die with this
		 * process, which exits after the error.
		 */
		if (hb->thread_mode)
			return -1;
		for (i = 0; i < nr; i++)
			if (w[i].started)
				kill(w[i].pid, SIGKILL);
	}

	kcp_meter_begin();
	start = now();
	if (!failed && write(wakefds[1], &c, 1) != 1)
		failed = guest_error_errno("hackbench: cannot start the workers") != 0;
	for (i = 0; i < nr; i++)
		if (w[i].started && reap_worker(&w[i]) && !failed)
			failed = guest_error("hackbench: a %s failed",
					     w[i].is_sender ? "sender" : "receiver") != 0;
	if (!failed)
		elapsed = now() - start;
	kcp_meter_end();
out:
	for (i = 0; i < nr; i++)
		if (w[i].in_fd >= 0)
			close(w[i].in_fd);
	for (i = 0; i < (size_t)groups * hb->fds; i++)
		if (group_fds[i] >= 0)
			close(group_fds[i]);
	for (i = 0; i < 2; i++) {
		if (readyfds[i] >= 0)
			close(readyfds[i]);
		if (wakefds[i] >= 0)
			close(wakefds[i]);
	}
	free(w);
	free(group_fds);
	free(bufs);
	return elapsed;
}

int run_hackbench(void)
{
	struct hb hb = { 0 };
	unsigned groups = param_num("groups");
	unsigned iterations = param_num("iterations");
	unsigned i;

	hb.thread_mode = !strcmp(param_str("mode"), "thread");
	hb.use_pipe = !strcmp(param_str("ipc"), "pipe");
	hb.fds = param_num("fds");
	hb.loops = param_num("loops");
	hb.datasize = param_num("datasize");
	/* a receiver that dies must not kill a sender with SIGPIPE */
	signal(SIGPIPE, SIG_IGN);

	for (i = 0; i < iterations; i++) {
		double t = one_round(&hb, groups);

		if (t < 0)
			return -1;
		report_sample(i, t);
	}
	return 0;
}
