// SPDX-License-Identifier: GPL-2.0
/*
 * fio's verification triggers on ssdload run (Documentation/verify.rst,
 * "Power cuts"): --trigger-cmd=CMD (fio's --trigger=CMD) runs CMD once,
 * with /bin/sh -c, when --trigger-timeout=TIME has passed since the job
 * started (fio's meaning: "execute trigger at this time"; bare = seconds)
 * or when --trigger-file=FILE appears, whichever comes first.
 *
 * Unlike fio, which stops its jobs before it runs the command, the I/O
 * goes on: the command is the power cut (a PDU or IPMI call), and it is
 * meant to hit writes in flight.  The command's stdout goes to stderr, so
 * that it never mixes with the report; ssdload waits for it after the
 * run and says how it ended.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/run.h"

/* Read --trigger-timeout, --trigger-file, --trigger-cmd into c->trig. */
int run_trigger_opts(struct run_ctx *c)
{
	struct run_trigger *t = &c->trig;

	memset(t, 0, sizeof(*t));
	t->pid = -1;
	t->file = c->raw[O_TRIGGER_FILE];
	t->cmd = c->raw[O_TRIGGER_CMD];
	if (c->raw[O_TRIGGER_TIMEOUT]) {
		if (ssl_parse_time_ms(c->raw[O_TRIGGER_TIMEOUT], 1000, &t->timeout_ms) ||
		    !t->timeout_ms)
			return bad_value(c, O_TRIGGER_TIMEOUT,
					 "not a time above 0 (seconds, or with ms/s/m/h suffix)");
		t->on = 1;
	}
	if (t->file) {
		if (!*t->file)
			return bad_value(c, O_TRIGGER_FILE, "needs a file name");
		t->on = 1;
	}
	if (t->cmd && !*t->cmd)
		return bad_value(c, O_TRIGGER_CMD, "needs a command");
	if (t->on && !t->cmd)
		return bad_value(c, c->raw[O_TRIGGER_TIMEOUT] ? O_TRIGGER_TIMEOUT : O_TRIGGER_FILE,
				 "needs --trigger-cmd, the command to run (ssdload saves "
				 "no state at a trigger: there is nothing else to do)");
	if (t->cmd && !t->on)
		return bad_value(c, O_TRIGGER_CMD,
				 "needs --trigger-timeout or --trigger-file, when to run it");
	return 0;
}

/* Run the command, its stdout on our stderr, in a process group of its own. */
static void fire(struct run_ctx *c, const char *why, uint64_t elapsed_ms)
{
	struct run_trigger *t = &c->trig;
	pid_t pid;

	t->fired = 1;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		ssl_err("trigger (%s): cannot start '%s': %s", why, t->cmd, strerror(errno));
		t->failed = 1;
		return;
	}
	if (!pid) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = SIG_DFL;
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGPIPE, &sa, NULL);
		setpgid(0, 0);		/* ^C stops the run, not the power cut */
		dup2(STDERR_FILENO, STDOUT_FILENO);
		execl("/bin/sh", "sh", "-c", t->cmd, (char *)NULL);
		_exit(127);
	}
	t->pid = pid;
	ssl_err("job '%s': trigger (%s) at %.1f s: running '%s' with the I/O going on",
		c->name, why, (double)elapsed_ms / 1000, t->cmd);
}

/*
 * From the wait loop while the job runs: fire once when the timeout has
 * passed since @start_ms, or the trigger file exists.
 */
void run_trigger_poll(struct run_ctx *c, uint64_t start_ms, uint64_t now)
{
	struct run_trigger *t = &c->trig;
	char why[600];
	struct stat st;

	if (!t->on || t->fired)
		return;
	t->polled = 1;
	if (t->timeout_ms && now - start_ms >= t->timeout_ms) {
		snprintf(why, sizeof(why), "--trigger-timeout=%s",
			 c->raw[O_TRIGGER_TIMEOUT]);
		fire(c, why, now - start_ms);
	} else if (t->file && !stat(t->file, &st)) {
		snprintf(why, sizeof(why), "%.500s appeared", t->file);
		fire(c, why, now - start_ms);
	}
}

/*
 * After the run: wait for the command, and say how it ended.  Returns 1
 * if it failed (or could not start), else 0; a trigger that never fired
 * (the run ended first) is said, and is not a failure.
 */
int run_trigger_end(struct run_ctx *c)
{
	struct run_trigger *t = &c->trig;
	int ws;

	if (!t->on)
		return 0;
	if (!t->fired) {
		if (t->polled)
			ssl_err("job '%s': the trigger did not fire: the run ended first",
				c->name);
		return 0;
	}
	if (t->pid < 0)
		return t->failed;
	while (waitpid(t->pid, &ws, 0) < 0) {
		if (errno != EINTR) {
			ssl_err("trigger command: waitpid: %s", strerror(errno));
			return 1;
		}
	}
	t->pid = -1;
	if (WIFEXITED(ws) && !WEXITSTATUS(ws))
		return 0;
	if (WIFEXITED(ws))
		ssl_err("trigger command '%s' exited with %d", t->cmd, WEXITSTATUS(ws));
	else
		ssl_err("trigger command '%s' ended by signal %d", t->cmd,
			WIFSIGNALED(ws) ? WTERMSIG(ws) : 0);
	return 1;
}
