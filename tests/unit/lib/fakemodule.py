# SPDX-License-Identifier: GPL-2.0
"""`ssdload run` against a fake module: signals, lease, kept jobs, progress.

configfs makes a job's attribute files appear at mkdir and go at rmdir.
FAKE_CONFIGFS_SHIM, an LD_PRELOAD shim built by the `shim` fixture
(tests/unit/conftest.py), does the same under $SSDLOAD_CONFIGFS/jobs/ (the
attributes and their first values come from $FAKE_JOB_ATTRS); FakeModule,
a thread, plays the module: it starts the job at enable=1, reports
stopping then stopped after enable=0, and keeps debugfs progress current.
With $FAKE_STEP_ATTRS a job also gets its default group steps/, each
steps/N its attributes, and the job's rmdir fails with ENOTEMPTY while any
steps/N is left, as configfs does.
"""
import os
import re
import shutil
import signal
import subprocess
import threading
import time

from debugfs import FakeJob, FakeRateJob, lognormal

FAKE_CONFIGFS_SHIM = r"""
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* 1 for a job directory, 2 for a steps/N, 0 for anything else */
static int in_jobs(const char *path)
{
	const char *root = getenv("SSDLOAD_CONFIGFS"), *rel, *slash;
	char jobs[4096];

	if (!root)
		return 0;
	snprintf(jobs, sizeof(jobs), "%s/jobs/", root);
	if (strncmp(path, jobs, strlen(jobs)))
		return 0;
	rel = path + strlen(jobs);
	slash = strchr(rel, '/');
	if (!slash)
		return 1;
	return !strncmp(slash, "/steps/", 7) && slash[7] && !strchr(slash + 7, '/') ? 2 : 0;
}

int mkdir(const char *path, mode_t mode)
{
	int (*real)(const char *, mode_t);
	const char *spec = getenv("FAKE_JOB_ATTRS"), *steps = getenv("FAKE_STEP_ATTRS");
	char buf[8192], file[4096], *tok, *save, *eq;
	int r, fd, kind;

	*(void **)&real = dlsym(RTLD_NEXT, "mkdir");
	r = real(path, mode);
	kind = r ? 0 : in_jobs(path);
	if (kind == 1 && steps) {
		snprintf(file, sizeof(file), "%s/steps", path);
		real(file, 0755);
	}
	if (kind == 2)
		spec = steps;
	if (!kind || !spec)
		return r;
	snprintf(buf, sizeof(buf), "%s", spec);
	for (tok = strtok_r(buf, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
		eq = strchr(tok, '=');
		if (eq)
			*eq++ = '\0';
		snprintf(file, sizeof(file), "%s/%s", path, tok);
		fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			continue;
		if (eq && *eq && write(fd, eq, strlen(eq)) < 0)
			perror(file);
		close(fd);
	}
	return 0;
}

int rmdir(const char *path)
{
	int (*real)(const char *);
	struct dirent *de;
	char steps[4096];
	int kind;
	DIR *d;

	*(void **)&real = dlsym(RTLD_NEXT, "rmdir");
	kind = in_jobs(path);
	if (kind && (d = opendir(path))) {
		while ((de = readdir(d)))
			if (de->d_name[0] != '.')
				unlinkat(dirfd(d), de->d_name, 0);
		closedir(d);
	}
	if (kind == 1) {	/* the default group goes with its job, if empty */
		snprintf(steps, sizeof(steps), "%s/steps", path);
		real(steps);
	}
	return real(path);
}
"""

FAKE_ATTRS = ("filename", "rw", "rwmixread", "bs", "iodepth", "cpus_allowed", "offset",
              "size", "runtime_ms", "ramp_ms", "number_ios", "randseed", "allow_write",
              "hipri", "disable_lat", "io_timeout_ms", "scramble_buffers", "enable",
              "state", "error", "time_based")
FIRST_VALUES = {"enable": "0\n", "state": "idle\n", "error": "0\n", "iodepth": "1\n"}
# signals the CLI's child gets with their default action (or ignored)
SIGNALS = (signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGTERM,
           signal.SIGUSR1, signal.SIGPIPE)


class FakeModule(threading.Thread):
    """Plays ssdload.ko for one job NAME of a fake configfs/debugfs tree.

    runtime: seconds from enable=1 to state done (None: until stopped).
    drain: seconds in state stopping after enable=0 (None: until release).
    inflight: the progress key of that name (None: an older module's progress).
    extra: more progress lines.
    group: enable=1 arms the job; it runs once GROUP is written to the root's
    start file (enable=0 while armed: stopped at once)."""

    def __init__(self, root, name, runtime=None, drain=0.1, inflight=None, extra="",
                 group=None):
        super().__init__(daemon=True)
        self.group, self.start_file = group, root / "cfs" / "start"
        self.armed = threading.Event()
        self.name, self.runtime, self.drain = name, runtime, drain
        self.inflight, self.extra = inflight, extra
        self.job = root / "cfs" / "jobs" / name
        self.dbg = root / "dbg" / name
        self.scratch = root / "scratch"
        self.scratch.mkdir(exist_ok=True)
        self.running, self.stop_seen = threading.Event(), threading.Event()
        self.release, self.quit = threading.Event(), threading.Event()
        self.pid = None
        self.lease_held = None

    def _put(self, path, text):
        """Replace a file at once: the CLI must never read it half written."""
        tmp = self.scratch / path.name
        tmp.write_text(text)
        os.replace(tmp, path)

    def _lease_open(self):
        want = os.path.realpath(self.dbg / "lease")
        fds = "/proc/%d/fd" % self.pid
        for fd in os.listdir(fds):
            try:
                if os.readlink(os.path.join(fds, fd)) == want:
                    return True
            except OSError:
                pass
        return False

    def _progress(self, t0, state):
        el = int((time.monotonic() - t0) * 1e9)
        runtime_ms = int((self.job / "runtime_ms").read_text().strip() or 0)
        text = ("state=%s\nelapsed_ns=%d\nramp_ns=0\nruntime_ns=%d\nnumber_ios=0\n"
                "read_ios=%d\nwrite_ios=0\n" % (state, el, runtime_ms * 1_000_000,
                                                el // 100_000))
        if self.inflight is not None:
            text += "inflight=%d\n" % self.inflight
        text += self.extra
        self._put(self.dbg / "progress", text)

    def run(self):
        t0 = t_stop = None
        try:
            while not self.quit.is_set():
                time.sleep(0.01)
                try:
                    enable = (self.job / "enable").read_text().strip()
                except FileNotFoundError:
                    if t0 is not None:
                        return          # removed
                    continue
                now = time.monotonic()
                if t0 is None and self.armed.is_set():
                    if enable == "0":
                        self._put(self.job / "state", "stopped\n")
                        return
                    if self.start_file.read_text() != self.group:
                        continue
                    t0 = now
                    self._put(self.job / "state", "running\n")
                    continue
                if t0 is None:
                    if enable == "1" and self.group:
                        self.lease_held = self._lease_open()
                        self._put(self.job / "state", "armed\n")
                        self.armed.set()
                        self.running.set()
                        continue
                    if enable == "1":
                        t0 = now
                        self.lease_held = self._lease_open()
                        self._put(self.job / "state", "running\n")
                        self.running.set()
                    continue
                if enable == "0" and not self.stop_seen.is_set():
                    t_stop = now
                    self._progress(t0, "stopping")
                    self._put(self.job / "state", "stopping\n")
                    self.stop_seen.set()
                if self.stop_seen.is_set():
                    if self.release.is_set() or \
                            (self.drain is not None and now - t_stop >= self.drain):
                        self._put(self.job / "state", "stopped\n")
                        return
                elif self.runtime is not None and now - t0 >= self.runtime:
                    self._progress(t0, "done")
                    self._put(self.job / "state", "done\n")
                    return
                else:
                    self._progress(t0, "running")
        except FileNotFoundError:
            return


class FakeRun:
    """`ssdload run --name=NAME` on the fake module, as a child process."""

    def __init__(self, cli, shim, geo, root, name="fakerun", attrs=FAKE_ATTRS, lease=True,
                 summary=True, step_attrs=None, **module_kw):
        (root / "cfs" / "jobs").mkdir(parents=True)
        FakeJob(geo, str(root / "dbg"), name, lognormal(5, 300, 20_000, 0.4), [],
                workers=(0,), state="running")
        if lease:
            (root / "dbg" / name / "lease").write_text("leases=0\n")
        if not summary:
            os.unlink(root / "dbg" / name / "summary")
        self.name, self.root = name, root
        self.env = dict(os.environ, SSDLOAD_CONFIGFS=str(root / "cfs"),
                        SSDLOAD_DEBUGFS=str(root / "dbg"), LD_PRELOAD=shim,
                        FAKE_JOB_ATTRS=";".join("%s=%s" % (a, FIRST_VALUES.get(a, ""))
                                                for a in attrs))
        if step_attrs is not None:
            self.env["FAKE_STEP_ATTRS"] = ";".join(step_attrs)
        self.cli = cli
        self.module = FakeModule(root, name, **module_kw)
        self.proc = None

    def start(self, *args, ignore=(), stdout=subprocess.PIPE):
        def child():
            for s in SIGNALS:
                signal.signal(s, signal.SIG_IGN if s in ignore else signal.SIG_DFL)
        self.proc = subprocess.Popen(
            [self.cli, "run", "--name=" + self.name, "--filename=/dev/unit0",
             "--runtime=60"] + list(args),
            stdin=subprocess.DEVNULL, stdout=stdout, stderr=subprocess.PIPE, text=True,
            env=self.env, preexec_fn=child)
        self.module.pid = self.proc.pid
        self.module.start()
        return self

    def wait_running(self):
        assert self.module.running.wait(10), "the job was never enabled"
        return self

    def kill(self, sig, settle=0.15):
        self.proc.send_signal(sig)
        time.sleep(settle)      # one signal at a time: pending ones merge

    def finish(self, timeout=10):
        try:
            out, err = self.proc.communicate(timeout=timeout)
        finally:
            self.module.release.set()
            self.module.quit.set()
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode, out, err

    def job_exists(self):
        return (self.root / "cfs" / "jobs" / self.name).is_dir()


def report_count(out, name):
    return out.count(name + ": (groupid=0")


def logged_run(fakerun, geo, tmp_path, *args):
    """`ssdload run ARGS` in @tmp_path (where fio's logs go) on a fake module
    whose job has the time series of a FakeRateJob: (that job, exit
    status, stdout, stderr)."""
    r = fakerun(runtime=0.3, attrs=FAKE_ATTRS + ("log_interval_ms", "log_hist"))
    rj = FakeRateJob(geo, str(tmp_path / "series-src"), name=r.name)
    shutil.copy(os.path.join(rj.dir, "series"), str(tmp_path / "dbg" / r.name / "series"))
    summary = tmp_path / "dbg" / r.name / "summary"
    text = re.sub(r"(?m)^ramp_ns=\d+$", "ramp_ns=0", summary.read_text())  # the series' ramp
    summary.write_text(text + "log_interval_ms=250\nlog_hist=1\nseries_records=%d\n"
                       % (2 * rj.nint))
    cwd = os.getcwd()
    os.chdir(str(tmp_path))
    try:
        r.start(*args)
        rc, out, err = r.finish()
    finally:
        os.chdir(cwd)
    return rj, rc, out, err
