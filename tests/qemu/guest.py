#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Boot a Debian kernel under qemu and run one command in it.

The guest sees the host's root filesystem read-only over 9p (so the repo,
python3, pytest and fio are at the same paths as on the host), a writable
output share at the same path as on the host, and qemu's emulated NVMe.
The command's exit status comes back through the output share ($OUT/rc);
dmesg is saved to $OUT/dmesg.txt, the console to $OUT/console.log and
qemu's own stderr to $OUT/qemu-stderr.log.

KVM is used only once a short smoke boot with the same flags has reached
userspace (probe_kvm; the verdict is cached per host, qemu version and CPU
model in $SSDLOAD_CACHE/accel-probe.json), else TCG; SSDLOAD_ACCEL=auto|kvm|tcg
overrides.  A guest that dies or hangs before its command started (no
$OUT/started marker) is booted once more; one that dies after, never.

  tests/qemu/guest.py --kernel 6.1 -- uname -a
  tests/qemu/guest.py --kernel 6.12              # the whole e2e suite
  tests/qemu/guest.py --kernel 6.12 --shell      # interactive debugging

See Documentation/testing.rst.
"""

import argparse
import fcntl
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Dict, List, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import initramfs		# noqa: E402
import qemu_configs		# noqa: E402

REPO = os.path.realpath(os.path.join(HERE, '..', '..'))
CACHE = os.path.realpath(os.environ.get('SSDLOAD_CACHE') or os.path.join(
	os.environ.get('XDG_CACHE_HOME') or os.path.expanduser('~/.cache'), 'ssdload'))

# LABEL -> script printing KVER=, KDIR=, VMLINUZ=, MODDIR= assignments.
KERNEL_SCRIPTS = {
	'6.1': ['scripts/fetch-kernel.sh', '6.1'],
	'6.12': ['scripts/fetch-kernel.sh', '6.12'],
	'debug': ['tests/kernel/build-debug-kernel.sh'],
}
# Extra kernel command line per label.  The debug kernel (KASAN + lockdep
# under TCG) interprets ACPI's AML so slowly that each PCI _PRT evaluation
# hits ACPICA's 30 s loop timeout: route PCI interrupts without ACPI
# (acpi=noirq).  With 5-level paging (-cpu max has LA57) its KASAN reports a
# wild-memory-access in handle_edge_irq early in start_kernel, which also
# turns lockdep off for the whole run: keep 4-level paging (no5lvl).
LABEL_CMDLINE = {
	'debug': 'acpi=noirq no5lvl',
}
# The block tracepoints the e2e tests read (tests/e2e/lib/blktrace.py),
# enabled at boot while one CPU runs: enabling an event at run time patches
# kernel text (text_poke_bp), which under TCG can leave another vCPU on a
# stale int3 and oops the guest.  Tests only toggle tracing_on and filters.
# SSDLOAD_GUEST_TRACE=0 (bench, demo) boots without them.
TRACE_CMDLINE = 'trace_event=block:block_rq_issue,block:block_bio_queue'
DEFAULT_TIMEOUT = int(os.environ.get('SSDLOAD_GUEST_TIMEOUT', '1200'))
# The debug kernel runs the KUnit suites, the e2e suite and a kmemleak scan
# with KASAN + lockdep under TCG: a longer hard timeout.  6.12 runs the
# scaled PTS tests besides the suite (~1150 s on a quiet 2-core host, 1195 s
# seen under load): 1200 s cut it short.  6.1's suite (~650 s quiet) reached
# 91% in 1200 s on a host running two other guests and the unit tests.
LABEL_TIMEOUT = {'debug': 3000, '6.12': 1800, '6.1': 1800}
GUEST_MEMORY = os.environ.get('SSDLOAD_GUEST_MEM', '3G')
GUEST_SMP = os.environ.get('SSDLOAD_GUEST_SMP', '2')
NVME_SIZE = 1 << 30
# A second emulated NVMe for the SNIA PTS tests (tests/e2e/test_pts.py): a
# small namespace, so that a purge, twice-the-capacity preconditioning and
# a full read-back take seconds.  Guests find each by serial (nvme.env).
NVME_PTS_SIZE = 256 << 20
# Four small ones for `ssdload scale` (tests/e2e/test_scale.py): the drives
# alone and together, and md RAID-0/RAID-10 arrays built from them.
NVME_SCALE_SIZE = 64 << 20
NVME_DRIVES = (('nvme.img', NVME_SIZE, 'ssdload0', 'SSDLOAD_NVME'),
	       ('nvme-pts.img', NVME_PTS_SIZE, 'ssdload-pts', 'SSDLOAD_NVME_PTS')) + tuple(
	(f'nvme-scale{i}.img', NVME_SCALE_SIZE, f'ssdload-scale{i}', f'SSDLOAD_NVME_SCALE{i}')
	for i in range(4))
# ---- NVMe subsystem with two controllers (issue 25, the scope of Sanitize) ----
# tests/e2e/test_nvme_subsys.py: one NVM subsystem (nvme-subsys) with two
# controllers, a 16 MiB namespace shared by both (nsid 1) and an 8 MiB one
# attached to the second controller only (nsid 2), so that the first
# controller sees fewer namespaces than the subsystem holds.  Attached only
# on the stock kernels (the test is marked stock, tests/e2e/conftest.py):
# the other guests' devices are unchanged.  Found by serial, as
# $SSDLOAD_NVME_SUBSYS (the shared namespace).
NVME_SUBSYS_KERNELS = os.environ.get('SSDLOAD_STOCK_KERNELS', '6.1').split()
NVME_SUBSYS_SERIAL = 'ssdload-subsys'
NVME_SUBSYS_NS = (('nvme-subsys-ns1.img', 16 << 20), ('nvme-subsys-ns2.img', 8 << 20))


def nvme_subsys(label):
	"""(images [(name, size)], 'serial=VAR' pair, qemu args(out)) of the
	two-controller subsystem for a guest of this label, or None."""
	if label not in NVME_SUBSYS_KERNELS:
		return None

	def args(out):
		a = ['-device', f'nvme-subsys,id=ssubsys,nqn={NVME_SUBSYS_SERIAL}']
		for c in range(2):	# both before the namespaces, which attach to them
			a += ['-device', f'nvme,id=sctrl{c},serial={NVME_SUBSYS_SERIAL},'
					 f'subsys=ssubsys']
		for i, (img, _) in enumerate(NVME_SUBSYS_NS):
			a += ['-drive', f'file={out}/{img},if=none,format=raw,id=sns{i}',
			      '-device', f'nvme-ns,drive=sns{i},nsid={i + 1},bus=sctrl{i},'
					 f'shared={"on" if i == 0 else "off"}']
		return a
	return NVME_SUBSYS_NS, f'{NVME_SUBSYS_SERIAL}=SSDLOAD_NVME_SUBSYS', args
# ---- end of the NVMe subsystem ----

# Host env vars handed through to the guest command as they are.
PASSTHROUGH_PREFIXES = ('SSDLOAD_TEST_', 'PYTEST_ADDOPTS')
TOOLS = ('qemu-system-x86_64', 'rsync', 'make')


# Boot timeout: a guest that has not started its command (no $OUT/started)
# this long after qemu started is killed and booted once more.  Under TCG on
# 2 busy cores the stock kernels start their command after 10-30 s and the
# debug kernel (KASAN + lockdep) after ~40 s; the margins cover a loaded host.
DEFAULT_BOOT_TIMEOUT = 300
LABEL_BOOT_TIMEOUT = {'debug': 600}


def timeout_for(label):
	"""Hard timeout (s) of a guest of this label; SSDLOAD_GUEST_TIMEOUT wins."""
	if os.environ.get('SSDLOAD_GUEST_TIMEOUT'):
		return DEFAULT_TIMEOUT
	return LABEL_TIMEOUT.get(label, DEFAULT_TIMEOUT)


def boot_timeout_for(label):
	"""Seconds a guest of this label may take to start its command;
	SSDLOAD_BOOT_TIMEOUT wins."""
	if os.environ.get('SSDLOAD_BOOT_TIMEOUT'):
		return float(os.environ['SSDLOAD_BOOT_TIMEOUT'])
	return LABEL_BOOT_TIMEOUT.get(label, DEFAULT_BOOT_TIMEOUT)


class HarnessError(Exception):
	"""Something the guest run needs could not be made."""


class MissingPrerequisite(HarnessError):
	"""A tool or kernel is unavailable: the tests that need it are skipped."""


class BuildError(HarnessError):
	"""Building the module or the CLI failed: the tests that need it fail."""


def log(msg):
	print(f'guest: {msg}', file=sys.stderr, flush=True)


def missing_tools():
	miss = [t for t in TOOLS if not shutil.which(t)]
	try:
		initramfs._busybox()
	except RuntimeError:
		miss.append('busybox (busybox-static)')
	return miss


def fetch_kernel(label):
	"""KVER/KDIR/VMLINUZ/MODDIR of the kernel LABEL, fetched or built if needed."""
	if label not in KERNEL_SCRIPTS:
		raise MissingPrerequisite(f'unknown kernel label {label!r} '
					  f'(known: {", ".join(KERNEL_SCRIPTS)})')
	cmd = KERNEL_SCRIPTS[label]
	if not os.path.exists(os.path.join(REPO, cmd[0])):
		raise MissingPrerequisite(f'kernel {label}: {cmd[0]} is missing')
	# stderr streams (the first debug kernel build takes ~25 minutes)
	p = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
			     text=True)
	err = []
	for line in p.stderr:
		sys.stderr.write(line)
		sys.stderr.flush()
		err.append(line)
	stdout = p.stdout.read()
	p.wait()
	if p.returncode != 0:
		tail = ' / '.join(''.join(err).strip().splitlines()[-3:])
		raise MissingPrerequisite(f'kernel {label} unavailable: {tail or "exit %d" % p.returncode}')
	info = {}
	for tok in shlex.split(stdout):
		k, _, v = tok.partition('=')
		info[k] = v
	for k in ('KVER', 'KDIR', 'VMLINUZ', 'MODDIR'):
		if not info.get(k):
			raise MissingPrerequisite(f'kernel {label}: {cmd[0]} printed no {k}')
	if not os.path.exists(info['VMLINUZ']):
		raise MissingPrerequisite(f'kernel {label}: no {info["VMLINUZ"]}')
	info['LABEL'] = label
	return info


def _run_logged(cmd, logfile, what, cwd=None):
	os.makedirs(os.path.dirname(logfile), exist_ok=True)
	with open(logfile, 'w') as f:
		p = subprocess.run(cmd, cwd=cwd, stdout=f, stderr=subprocess.STDOUT,
				   stdin=subprocess.DEVNULL)
	if p.returncode != 0:
		with open(logfile, errors='replace') as f:
			tail = ''.join(f.readlines()[-40:])
		raise BuildError(f'{what} failed (exit {p.returncode}, log {logfile}):\n{tail}')


# Copy a tree into a build directory shared by every clone that uses this
# cache.  Files are compared by content and a changed file gets the time of
# the copy (no -t): with the source's mtime, a source edited before another
# clone's last build would look older than its stale object, and make would
# keep the object.
RSYNC = ['rsync', '-rlD', '--checksum', '--delete']


def build_module(kinfo):
	"""Build ssdload.ko for one kernel in a copy of the tree; its path."""
	bdir = os.path.join(CACHE, 'build', kinfo['KVER'])
	os.makedirs(bdir, exist_ok=True)
	# Build products are excluded, so they survive --delete in the copy.
	excl = ['.git', '/out', '*.o', '*.ko', '*.mod', '*.mod.c', '.*.cmd', '*.order',
		'Module.symvers', '/userspace/ssdload', '__pycache__', '.pytest_cache']
	_run_logged(RSYNC + [f'--exclude={e}' for e in excl] +
		    [REPO + '/', bdir + '/'], bdir + '.log', 'copying the tree')
	_run_logged(['make', '-C', bdir, 'module', 'KDIR=' + kinfo['KDIR']], bdir + '.log',
		    f'make module KDIR=... for {kinfo["KVER"]}')
	ko = os.path.join(bdir, 'module', 'ssdload.ko')
	if not os.path.exists(ko):
		raise BuildError(f'make module succeeded but there is no {ko}')
	return ko


def build_cli():
	"""Build the CLI on the host (the guest runs the same binary); its path."""
	_run_logged(['make', '-C', REPO, 'cli'], os.path.join(CACHE, 'build', 'cli.log'),
		    'make cli')
	cli = os.path.join(REPO, 'userspace', 'ssdload')
	if not os.path.exists(cli):
		raise BuildError(f'make cli succeeded but there is no {cli}')
	return cli


def new_out_dir(label):
	"""A fresh output directory under $SSDLOAD_CACHE/out; prunes old ones."""
	base = os.path.join(CACHE, 'out')
	os.makedirs(base, exist_ok=True)
	now = time.time()
	for d in os.listdir(base):
		p = os.path.join(base, d)
		try:
			if now - os.stat(p).st_mtime > 2 * 86400:
				shutil.rmtree(p, ignore_errors=True)
		except FileNotFoundError:
			pass
	return os.path.join(base, '%s-%s-%d' % (label, time.strftime('%Y%m%d-%H%M%S'), os.getpid()))


def snapshot(src, out, name):
	"""Copy a build product into the run's output directory, so a rebuild
	by someone else during the run cannot change it; the copy's path."""
	dst = os.path.join(os.path.realpath(out), name)
	os.makedirs(os.path.dirname(dst), exist_ok=True)
	if os.path.exists(src):
		shutil.copy2(src, dst)
	return dst


def e2e_dir():
	"""tests/e2e of the repo, or SSDLOAD_E2E_DIR (a stand-in suite)."""
	return os.path.realpath(os.path.join(REPO, os.environ.get('SSDLOAD_E2E_DIR', 'tests/e2e')))


GUEST_RUN = os.path.join(HERE, 'guest-run.sh')


def check_command(out, phases):
	"""tests/qemu/guest-run.sh: the phases (kunit, e2e, kmemleak) of one
	`make check` guest, in that order; the e2e command after '--'."""
	order = [p for p in ('kunit', 'e2e', 'kmemleak') if p in phases]
	return ['sh', GUEST_RUN] + order + ['--'] + e2e_command(out)


def e2e_command(out):
	"""The contract's e2e run, in the guest, from the repo root."""
	e2e = os.path.relpath(e2e_dir(), REPO)
	if e2e.startswith('..'):
		e2e = e2e_dir()
	return ['python3', '-m', 'pytest', '-p', 'no:cacheprovider', e2e,
		'--junitxml=' + os.path.join(out, 'junit-e2e.xml'), '-o', 'junit_family=xunit1',
		'-rsR', '-v']


# qemu's stderr lines that say the KVM guest is dead although qemu lives on
# (it stops the VM and waits): the harness kills qemu at once.
KVM_FATAL = re.compile(r'KVM internal error|KVM: entry failed|kvm run failed')
# Lines of qemu-stderr.log that go into every failure report.
STDERR_TAIL = 20


def _tail(path, lines):
	"""The last lines of a text file, or None if it does not exist."""
	try:
		with open(path, errors='replace') as f:
			return ''.join(f.readlines()[-lines:])
	except FileNotFoundError:
		return None


def qemu_error_line(text):
	"""The line of qemu's stderr that says best what went wrong, shortened
	to 'qemu: ...' (None for an empty stderr): the first line naming an
	error, else the first line."""
	lines = [l.strip() for l in text.replace('\r', '').splitlines() if l.strip()]
	if not lines:
		return None
	pick = next((l for l in lines if KVM_FATAL.search(l)), None) or \
		next((l for l in lines if re.search(r'(?i)error|fail|cannot|could not', l)), lines[0])
	pick = re.sub(r'^(?:\S*qemu-system-\w+|qemu):\s*', '', pick)
	pick = re.sub(r'^(?i:error):\s*', '', pick)
	if len(pick) > 160:
		pick = pick[:157] + '...'
	return 'qemu: ' + pick


@dataclass
class GuestResult:
	"""What came back from one guest run (the last boot if it was retried)."""
	rc: Optional[int]		# the command's exit status; None if the guest did not say
	timed_out: bool			# killed after the hard or the boot timeout
	duration: float			# seconds, qemu start to exit
	out: str			# the output directory
	qemu_rc: Optional[int]		# qemu's own exit status
	accel: str = ''			# 'kvm' or 'tcg'
	stopped: Optional[str] = None	# why the harness killed qemu: 'timeout',
					# 'boot-timeout' or 'kvm-error'
	timeout: Optional[float] = None		# the hard timeout (s)
	boot_timeout: Optional[float] = None	# the boot timeout (s)
	kvm_error: Optional[str] = None	# the KVM_FATAL line of qemu's stderr
	attempts: int = 1		# boots: 2 after a retry
	retry_reason: Optional[str] = None	# why the first boot was retried

	@property
	def console(self):
		return os.path.join(self.out, 'console.log')

	@property
	def dmesg(self):
		return os.path.join(self.out, 'dmesg.txt')

	@property
	def qemu_stderr(self):
		return os.path.join(self.out, 'qemu-stderr.log')

	@property
	def booted(self):
		"""/init mounted the output share (the marker 'booted')."""
		return os.path.exists(os.path.join(self.out, 'booted'))

	@property
	def started(self):
		"""/init ran the command (the marker 'started')."""
		return os.path.exists(os.path.join(self.out, 'started'))

	def console_tail(self, lines=60):
		tail = _tail(self.console, lines)
		return '(no console.log)' if tail is None else tail

	def qemu_stderr_tail(self, lines=STDERR_TAIL):
		"""The last lines of qemu-stderr.log, headed by its path."""
		tail = _tail(self.qemu_stderr, lines)
		if tail is None:
			return f'(no {self.qemu_stderr})\n'
		if not tail.strip():
			return f'qemu stderr ({self.qemu_stderr}): empty\n'
		return f'qemu stderr tail ({self.qemu_stderr}):\n{tail.rstrip()}\n'

	def init_error(self):
		try:
			with open(os.path.join(self.out, 'init-error')) as f:
				return f.read().strip()
		except FileNotFoundError:
			return None

	def why(self):
		"""One line: how the guest ended."""
		if self.stopped == 'timeout':
			return f'the guest timed out after {self.timeout:g} s and was killed'
		if self.stopped == 'boot-timeout':
			how = 'it booted' if self.booted else 'it never mounted the output share'
			return (f'the guest had not started the command {self.boot_timeout:g} s after '
				f'qemu started ({how}) and was killed')
		if self.stopped == 'kvm-error':
			return f'qemu stopped the guest on a KVM error ({self.kvm_error}) and was killed'
		if self.rc is not None:
			return f'the command exited {self.rc}'
		if self.started:
			when, marks = 'after the command started', 'no rc'
		elif self.booted:
			when, marks = 'before the command started', "no rc, no 'started' marker"
		else:
			when, marks = 'before it mounted the output share', "no 'booted' marker"
		why = f'the guest died {when} ({marks}; qemu exit {self.qemu_rc})'
		if self.qemu_rc:
			line = qemu_error_line(_tail(self.qemu_stderr, 200) or '')
			if line:
				why += f': {line}'
		return why

	def report(self, console_lines=60):
		"""The failure text: why, the retry, /init's error, the tails of
		the console and of qemu's stderr."""
		text = self.why() + '\n'
		if self.retry_reason:
			text += f'(first boot: {self.retry_reason}; the guest was booted once more)\n'
		err = self.init_error()
		if err:
			text += f'/init said: {err}\n'
		text += f'console tail ({self.console}):\n{self.console_tail(console_lines).rstrip()}\n'
		return text + self.qemu_stderr_tail()


def _tmpfs_dirs(protected):
	"""Guest dirs that get a tmpfs: not one hiding a path the run needs."""
	dirs = []
	for d in ('/run', '/mnt', '/tmp'):
		if not os.path.isdir(d) or os.path.islink(d):
			continue
		if any(p == d or p.startswith(d + '/') for p in protected):
			log(f'{d} holds {[p for p in protected if p.startswith(d)][0]}: no tmpfs on it')
			continue
		dirs.append(d)
	return dirs


# Accelerator flags; the probe and the guests use the same ones.
ACCEL_ARGS = {
	'kvm': ['-accel', 'kvm', '-cpu', 'host'],
	'tcg': ['-accel', 'tcg,thread=multi', '-cpu', 'max'],
}
ACCEL_MODES = ('auto', 'kvm', 'tcg')
KVM_DEV = '/dev/kvm'
PROBE_CACHE = 'accel-probe.json'
PROBE_CACHE_FORMAT = 1
DEFAULT_PROBE_TIMEOUT = 60
# verdicts of this process: key -> (usable, reason, source)
_ACCEL_MEMO = {}


@dataclass
class Accel:
	"""The accelerator of a guest and how it was chosen."""
	name: str			# 'kvm' or 'tcg'
	reason: str			# one phrase: why
	probed: bool = False		# KVM chosen by the probe (auto): may be revoked

	@property
	def args(self):
		return ACCEL_ARGS[self.name]


def accel_mode():
	"""SSDLOAD_ACCEL: auto (the default), kvm or tcg."""
	mode = (os.environ.get('SSDLOAD_ACCEL') or 'auto').strip().lower()
	if mode not in ACCEL_MODES:
		raise HarnessError(f'SSDLOAD_ACCEL={os.environ["SSDLOAD_ACCEL"]!r}: use '
				   f'{", ".join(ACCEL_MODES)}')
	return mode


def probe_timeout():
	return float(os.environ.get('SSDLOAD_ACCEL_PROBE_TIMEOUT') or DEFAULT_PROBE_TIMEOUT)


def _qemu_binary(params):
	return f'qemu-system-{params.qemu_arch}'


def host_identity(params):
	"""What the KVM verdict depends on: host name, qemu version, CPU model
	(and the host kernel, whose KVM it is)."""
	try:
		p = subprocess.run([_qemu_binary(params), '--version'], stdin=subprocess.DEVNULL,
				   capture_output=True, text=True, timeout=30)
		qemu = (p.stdout.strip().splitlines() or ['?'])[0]
	except (OSError, subprocess.TimeoutExpired) as e:
		qemu = f'unknown ({e.__class__.__name__})'
	cpu = 'unknown'
	try:
		with open('/proc/cpuinfo') as f:
			for line in f:
				k, _, v = line.partition(':')
				if k.strip() == 'model name':
					cpu = v.strip()
					break
	except OSError:
		pass
	return {'host': socket.gethostname(), 'qemu': qemu, 'cpu': cpu,
		'host_kernel': os.uname().release}


def _verdict_key(arch):
	"""(key, identity) of this host's entry in the probe cache."""
	ident = host_identity(qemu_configs.CONFIGS[arch])
	return ' | '.join(ident[k] for k in ('host', 'qemu', 'cpu', 'host_kernel')), ident


def _probe_cache_path():
	return os.path.join(CACHE, PROBE_CACHE)


def _load_verdicts():
	try:
		with open(_probe_cache_path()) as f:
			data = json.load(f)
		if data.get('format') == PROBE_CACHE_FORMAT and isinstance(data.get('verdicts'), dict):
			return data['verdicts']
	except (OSError, ValueError, AttributeError):
		pass
	return {}


def _store_verdict(key, ident, usable, reason, kver):
	"""Add one verdict to the cache file (under the caller's lock)."""
	verdicts = _load_verdicts()
	verdicts[key] = dict(ident, kvm_usable=usable, reason=reason, probe_kernel=kver,
			     when=time.strftime('%Y-%m-%dT%H:%M:%S%z'))
	path = _probe_cache_path()
	tmp = f'{path}.{os.getpid()}.tmp'
	try:
		with open(tmp, 'w') as f:
			json.dump({'format': PROBE_CACHE_FORMAT, 'verdicts': verdicts}, f, indent=1,
				  sort_keys=True)
			f.write('\n')
		os.replace(tmp, path)
	except OSError as e:
		log(f'cannot write {path}: {e}')


def kernel_cmdline(params, label):
	"""The guest kernel's command line (the probe's too)."""
	return ' '.join(' '.join([
		params.kernel_command_line, 'panic=-1', 'quiet', 'loglevel=3',
		'mitigations=off', 'random.trust_cpu=on', LABEL_CMDLINE.get(label, ''),
		TRACE_CMDLINE if os.environ.get('SSDLOAD_GUEST_TRACE', '1') != '0' else '',
		os.environ.get('SSDLOAD_GUEST_CMDLINE', '')]).split())


def probe_kvm(kinfo, workdir, arch='x86_64', timeout=None):
	"""Smoke boot under KVM with the guests' flags: kinfo's kernel and an
	initramfs whose /init prints a marker and powers off.  (usable, reason);
	qemu's console and stderr stay in workdir (accel-probe-*.log).  qemu
	is killed after timeout s (a KVM internal error leaves it alive)."""
	params = qemu_configs.CONFIGS[arch]
	timeout = timeout or probe_timeout()
	os.makedirs(workdir, exist_ok=True)
	console = os.path.join(workdir, 'accel-probe-console.log')
	errlog = os.path.join(workdir, 'accel-probe-stderr.log')
	for f in (console, errlog):
		try:
			os.unlink(f)
		except FileNotFoundError:
			pass
	cmd = [_qemu_binary(params)] + ACCEL_ARGS['kvm'] + params.extra_qemu_params + [
		'-smp', GUEST_SMP, '-m', GUEST_MEMORY,
		'-display', 'none', '-vga', 'none', '-no-reboot', '-nic', 'none',
		'-monitor', 'none', '-serial', f'file:{console}',
		'-kernel', kinfo['VMLINUZ'], '-initrd', initramfs.build_probe(CACHE),
		'-append', kernel_cmdline(params, kinfo['LABEL'])]

	def read(path):
		try:
			with open(path, errors='replace') as f:
				return f.read()
		except FileNotFoundError:
			return ''

	start = time.monotonic()
	with open(errlog, 'w') as err:
		proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
					stderr=err)
	try:
		while True:
			try:
				proc.wait(timeout=0.2)
			except subprocess.TimeoutExpired:
				pass
			elapsed = time.monotonic() - start
			if initramfs.PROBE_MARKER in read(console):
				return True, f'the smoke boot reached userspace in {elapsed:.1f} s'
			stderr = read(errlog)
			if proc.returncode is not None:
				return False, (qemu_error_line(stderr) or
					       f'qemu exited {proc.returncode} before userspace')
			if KVM_FATAL.search(stderr):
				time.sleep(0.5)		# the rest of its register dump
				return False, qemu_error_line(read(errlog))
			if elapsed > timeout:
				line = qemu_error_line(stderr)
				return False, (f'no userspace within {timeout:g} s'
					       + (f', {line}' if line else ''))
	finally:
		if proc.poll() is None:
			proc.kill()
			proc.wait()


def _kvm_verdict(kinfo, out, arch):
	"""(usable, reason, source) for this host: this process's memo, the
	cache file, else a probe (one at a time per cache)."""
	key, ident = _verdict_key(arch)
	if key in _ACCEL_MEMO:
		return _ACCEL_MEMO[key]
	os.makedirs(CACHE, exist_ok=True)
	with open(os.path.join(CACHE, PROBE_CACHE + '.lock'), 'w') as lock:
		fcntl.flock(lock, fcntl.LOCK_EX)
		v = _load_verdicts().get(key)
		if v and isinstance(v.get('kvm_usable'), bool):
			verdict = (v['kvm_usable'], v.get('reason', '?'),
				   f'cached {v.get("when", "?")[:10]} in {_probe_cache_path()}')
		else:
			log(f'probing KVM: a smoke boot of {kinfo["KVER"]} with {" ".join(ACCEL_ARGS["kvm"])}')
			usable, reason = probe_kvm(kinfo, out, arch)
			_store_verdict(key, ident, usable, reason, kinfo['KVER'])
			verdict = (usable, reason, 'probed now')
	_ACCEL_MEMO[key] = verdict
	return verdict


def revoke_kvm(reason, arch='x86_64'):
	"""A guest under a probed KVM died of KVM: record KVM as unusable."""
	key, ident = _verdict_key(arch)
	os.makedirs(CACHE, exist_ok=True)
	with open(os.path.join(CACHE, PROBE_CACHE + '.lock'), 'w') as lock:
		fcntl.flock(lock, fcntl.LOCK_EX)
		_store_verdict(key, ident, False, reason, '(a guest run)')
	_ACCEL_MEMO[key] = (False, reason, 'seen in a guest run')


def choose_accel(kinfo, out, arch='x86_64'):
	"""The accelerator of a guest: SSDLOAD_ACCEL=kvm|tcg as told; auto (the
	default): TCG without a usable /dev/kvm, else KVM if the probe passes.
	Falling back to TCG is said in one line."""
	mode = accel_mode()
	if mode == 'tcg':
		return Accel('tcg', 'SSDLOAD_ACCEL=tcg')
	if mode == 'kvm':
		return Accel('kvm', 'SSDLOAD_ACCEL=kvm, not probed')
	if not os.access(KVM_DEV, os.R_OK | os.W_OK):
		return Accel('tcg', f'no usable {KVM_DEV}')
	usable, reason, source = _kvm_verdict(kinfo, out, arch)
	if usable:
		return Accel('kvm', f'KVM probe passed ({source})', probed=True)
	note = '' if source == 'probed now' else f'; {source}'
	log(f'KVM unusable ({reason}{note}), using TCG')
	return Accel('tcg', 'KVM unusable')


def _clean(out, names):
	for f in names:
		try:
			os.unlink(os.path.join(out, f))
		except FileNotFoundError:
			pass


# Files of one boot, removed before it starts.
BOOT_FILES = ('rc', 'dmesg.txt', 'init-error', 'console.log', 'nvme.img', 'nvme-pts.img',
	      'nvme-scale0.img', 'nvme-scale1.img', 'nvme-scale2.img', 'nvme-scale3.img',
	      'nvme.env', 'junit-e2e.xml', 'reruns.txt',
	      'booted', 'started', 'qemu-stderr.log')

# ---- SATA and SAS disks (issue 27) ---------------------------------------
# One small ide-hd on an AHCI controller and one scsi-hd on virtio-scsi:
# the write cache and purge paths through SG_IO (tests/e2e/test_sgio.py).
# On SG_KERNELS only: the code under test is the CLI's, the drivers are
# stock (ahci, virtio_scsi, sd_mod: modules the test loads from the chroot,
# as init.sh loads nvme).  The guest finds them by serial
# ($SSDLOAD_SG_SERIALS).
SG_KERNELS = ('6.12',)
SG_SIZE = 16 << 20
SG_DRIVES = (('sata.img', 'ssdload-sata', 'SSDLOAD_SATA'),
	     ('sas.img', 'ssdload-sas', 'SSDLOAD_SAS'))
BOOT_FILES += tuple(d[0] for d in SG_DRIVES)


def sg_wanted(label):
	"""Whether a guest of this label gets the SATA and SAS disks."""
	return label in SG_KERNELS and os.environ.get('SSDLOAD_GUEST_SG', '1') != '0'


def sg_images(out):
	"""Create the (sparse) SATA and SAS images in out."""
	for img, _, _ in SG_DRIVES:
		with open(os.path.join(out, img), 'wb') as f:
			f.truncate(SG_SIZE)


def sg_qemu_args(out):
	"""qemu arguments of the SATA (AHCI) and SAS (virtio-scsi) disks."""
	(sata, sata_serial, _), (sas, sas_serial, _) = SG_DRIVES
	return ['-device', 'ahci,id=sgahci',
		'-drive', f'file={out}/{sata},if=none,format=raw,id=sgata',
		'-device', f'ide-hd,drive=sgata,bus=sgahci.0,serial={sata_serial}',
		'-device', 'virtio-scsi-pci,id=sgvscsi',
		'-drive', f'file={out}/{sas},if=none,format=raw,id=sgsas',
		'-device', f'scsi-hd,drive=sgsas,bus=sgvscsi.0,serial={sas_serial}']
# ---- end of SATA and SAS disks -------------------------------------------


# The first boot's logs, kept under these names when it is retried.
FIRST_BOOT_LOGS = {'console.log': 'console.boot1.log',
		   'qemu-stderr.log': 'qemu-stderr.boot1.log',
		   'dmesg.txt': 'dmesg.boot1.txt'}


# The guest's /init writes $OUT/rc once the command is over, then syncs and
# powers off.  A guest that has not gone POWEROFF_GRACE s later is killed:
# its results are complete, and a 6.1 guest once hung there for the rest of
# its 1800 s.  The kill is said on stderr, not hidden.
POWEROFF_GRACE = 120


def _watch(proc, out, timeout, boot_timeout, stderr_path):
	"""Wait for qemu; None once it exited, else why it must be killed:
	'timeout' (hard), 'boot-timeout' (no 'started' marker in time),
	'poweroff-hang' (the command ended, the guest did not power off) or
	'kvm-error' (qemu's stderr says the guest is dead, qemu lives on)."""
	start = time.monotonic()
	seen = 0
	ended = None
	while True:
		try:
			proc.wait(timeout=0.25)
			return None
		except subprocess.TimeoutExpired:
			pass
		elapsed = time.monotonic() - start
		if ended is None and os.path.exists(os.path.join(out, 'rc')):
			ended = elapsed
		if ended is not None and elapsed - ended > POWEROFF_GRACE:
			sys.stderr.write(f'guest: the command ended {elapsed - ended:.0f} s ago and the '
					 f'guest did not power off: killed (results kept)\n')
			return 'poweroff-hang'
		if timeout is not None and elapsed > timeout:
			return 'timeout'
		if boot_timeout is not None and elapsed > boot_timeout and \
		   not os.path.exists(os.path.join(out, 'started')):
			return 'boot-timeout'
		try:
			size = os.path.getsize(stderr_path)
		except OSError:
			continue
		if size != seen:
			with open(stderr_path, 'rb') as f:
				f.seek(max(0, seen - 200))
				chunk = f.read().decode(errors='replace')
			seen = size
			if KVM_FATAL.search(chunk):
				return 'kvm-error'


def _boot(qemu, out, timeout, boot_timeout, stream, shell, nvme, images=(), sg=False):
	"""One qemu run; a GuestResult (without accel and attempt data).
	images: more (file, size) to create in out for it and remove after;
	sg: attach the SATA and SAS disks (SG_DRIVES)."""
	_clean(out, BOOT_FILES + tuple(i[0] for i in images))
	if nvme:
		for img, size in [d[:2] for d in NVME_DRIVES] + list(images):
			with open(os.path.join(out, img), 'wb') as f:
				f.truncate(size)
	if sg:
		sg_images(out)
	stderr_path = os.path.join(out, 'qemu-stderr.log')
	start = time.monotonic()
	stopped = None
	with open(stderr_path, 'w') as err:
		proc = subprocess.Popen(qemu, stdin=None if shell else subprocess.DEVNULL,
					stdout=None if stream else subprocess.DEVNULL, stderr=err)
	try:
		stopped = _watch(proc, out, None if shell else timeout, boot_timeout, stderr_path)
		if stopped == 'kvm-error':
			time.sleep(0.5)		# the rest of qemu's register dump
	finally:
		if proc.poll() is None:
			proc.kill()
			proc.wait()
		_clean(out, [d[0] for d in NVME_DRIVES] + [i[0] for i in images]
		       + [d[0] for d in SG_DRIVES])
	duration = time.monotonic() - start
	rc = None
	try:
		with open(os.path.join(out, 'rc')) as f:
			rc = int(f.read().strip())
	except (FileNotFoundError, ValueError):
		pass
	kvm_error = None
	if stopped == 'kvm-error':
		with open(stderr_path, errors='replace') as f:
			kvm_error = qemu_error_line(f.read())
	return GuestResult(rc=rc, timed_out=stopped in ('timeout', 'boot-timeout'),
			   duration=duration, out=out, qemu_rc=proc.returncode, stopped=stopped,
			   timeout=timeout, boot_timeout=boot_timeout, kvm_error=kvm_error)


# Console lines that tell best why a guest died (the last one wins).
CONSOLE_TELLING = re.compile(r'Kernel panic|BUG:|Oops|general protection|ssdload-guest: '
			     r'(FATAL|cannot)|KASAN|watchdog|stall')


def _telling_console_line(res):
	"""The console line that tells best why the guest died, shortened."""
	lines = [l.strip() for l in res.console_tail(100).splitlines() if l.strip()]
	telling = [l for l in lines if CONSOLE_TELLING.search(l)]
	line = (telling or lines or ['(empty console)'])[-1]
	return line if len(line) <= 160 else line[:157] + '...'


def run_guest(kinfo, command: Optional[List[str]], out: str, timeout: int = DEFAULT_TIMEOUT,
	      env: Optional[Dict[str, str]] = None, stream=True, shell=False, nvme=True,
	      arch='x86_64', boot_timeout: Optional[float] = None) -> GuestResult:
	"""Boot kinfo's kernel, run command (argv) in the chrooted host root.

	A guest that crashes or hangs before its command started (no rc, no
	'started' marker; boot_timeout, default boot_timeout_for(label)) is
	booted once more, and the retry is logged; a guest that dies after
	the command started is never booted again."""
	params = qemu_configs.CONFIGS[arch]
	out = os.path.realpath(out)
	os.makedirs(out, exist_ok=True)
	_clean(out, BOOT_FILES + tuple(FIRST_BOOT_LOGS.values()) + ('retry.log',))
	moddir = os.path.realpath(kinfo['MODDIR'])
	cpio = initramfs.build(moddir, CACHE)
	accel = choose_accel(kinfo, out, arch)
	if boot_timeout is None:
		boot_timeout = boot_timeout_for(kinfo['LABEL'])
	boot_timeout = min(boot_timeout, timeout)
	subsys = nvme_subsys(kinfo['LABEL']) if nvme else None

	genv = {
		'PATH': '/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin',
		'HOME': '/root', 'LANG': 'C.UTF-8', 'TERM': os.environ.get('TERM', 'dumb') if shell else 'dumb',
		'PYTHONDONTWRITEBYTECODE': '1', 'SSDLOAD_GUEST': '1',
		'SSDLOAD_REPO': REPO, 'SSDLOAD_OUT': out, 'SSDLOAD_KERNEL': kinfo['LABEL'],
		'SSDLOAD_KO': os.path.join(out, 'ssdload.ko'),
		'SSDLOAD_KUNIT_KO': os.path.join(out, 'ssdload_test.ko'),
		'SSDLOAD_CLI': os.path.join(out, 'ssdload'),
		# the pts report renderer, which the CLI copy in OUT runs
		'SSDLOAD_REPORT': os.path.join(REPO, 'userspace', 'ssdload-report.py'),
		# and the workload profiles of --profile (not beside that copy)
		'SSDLOAD_PROFILES': os.path.join(REPO, 'userspace', 'profiles'),
	}
	sg = sg_wanted(kinfo['LABEL'])
	if sg:
		genv['SSDLOAD_SG_SERIALS'] = ' '.join(f'{d[1]}={d[2]}' for d in SG_DRIVES)
	for k, v in os.environ.items():
		if k.startswith(PASSTHROUGH_PREFIXES):
			genv[k] = v
	genv.update(env or {})
	protected = [os.path.realpath(p) for p in
		     [REPO, out, CACHE, moddir] + [v for v in genv.values() if v.startswith('/')]
		     if p.startswith('/')]
	e2e = os.environ.get('SSDLOAD_E2E_DIR')
	if e2e:
		protected.append(os.path.realpath(e2e))
	tmpfs = _tmpfs_dirs(protected)
	genv['TMPDIR'] = '/run/tmp' if '/run' in tmpfs else '/dev/shm'

	with open(os.path.join(out, 'guest.conf'), 'w') as f:
		for k, v in (('OUT', out), ('MODDIR', moddir), ('TMPFS_DIRS', ' '.join(tmpfs)),
			     ('TMPDIR_GUEST', genv['TMPDIR']),
			     ('NVME_SERIALS', ' '.join([f'{d[2]}={d[3]}' for d in NVME_DRIVES] +
						       ([subsys[1]] if subsys else []))
			      if nvme else ''),
			     ('SHELL_MODE', '1' if shell else '0')):
			f.write(f'{k}={shlex.quote(v)}\n')
	with open(os.path.join(out, 'guest-cmd.sh'), 'w') as f:
		f.write('# generated by tests/qemu/guest.py; run by the guest /init\n')
		for k, v in sorted(genv.items()):
			f.write(f'export {k}={shlex.quote(v)}\n')
		# SSDLOAD_NVME, SSDLOAD_NVME_PTS: the devices by serial (init.sh)
		f.write('[ -f "$SSDLOAD_OUT/nvme.env" ] && . "$SSDLOAD_OUT/nvme.env"\n')
		f.write(f'cd {shlex.quote(REPO)} || exit 125\n')
		if shell:
			f.write('exec /bin/bash -i\n')
		else:
			f.write('exec ' + ' '.join(shlex.quote(a) for a in command) + '\n')

	def qemu_cmd(accel):
		qemu = [_qemu_binary(params)] + accel.args + params.extra_qemu_params + [
			'-smp', GUEST_SMP, '-m', GUEST_MEMORY,
			'-display', 'none', '-vga', 'none', '-no-reboot', '-nic', 'none',
			'-chardev', f'stdio,id=con,mux=on,signal={"off" if shell else "on"},'
				    f'logfile={out}/console.log',
			'-serial', 'chardev:con', '-mon', 'chardev=con,mode=readline',
			'-kernel', kinfo['VMLINUZ'], '-initrd', cpio,
			'-append', kernel_cmdline(params, kinfo['LABEL']),
			'-virtfs', 'local,path=/,mount_tag=hostroot,security_model=none,'
				   'readonly=on,multidevs=remap',
			'-virtfs', f'local,path={out},mount_tag=out,security_model=none,multidevs=remap',
		]
		if nvme:
			for i, (img, _, serial, _) in enumerate(NVME_DRIVES):
				qemu += ['-drive', f'file={out}/{img},if=none,format=raw,id=n{i}',
					 '-device', f'nvme,serial={serial},drive=n{i}']
		if subsys:
			qemu += subsys[2](out)
		if sg:
			qemu += sg_qemu_args(out)
		return qemu

	retry_reason = None
	for attempt in (1, 2):
		log(f'booting {kinfo["KVER"]} ({kinfo["LABEL"]}) under {accel.name.upper()} '
		    f'({accel.reason}), output in {out}')
		res = _boot(qemu_cmd(accel), out, timeout, boot_timeout, stream, shell, nvme,
			    subsys[0] if subsys else (), sg)
		res.accel, res.attempts, res.retry_reason = accel.name, attempt, retry_reason
		if res.rc is not None or res.started or attempt == 2:
			break
		# Died or hung before the command started: nothing of the
		# command ran, so one more boot is safe.
		retry_reason = f'{res.why()}; console: {_telling_console_line(res)}'
		for src, dst in FIRST_BOOT_LOGS.items():
			if os.path.exists(os.path.join(out, src)):
				os.replace(os.path.join(out, src), os.path.join(out, dst))
		# KVM passed the probe (maybe long ago) but this guest died of
		# it: say so, remember it, and boot again under TCG.
		if accel.name == 'kvm' and accel.probed:
			with open(os.path.join(out, FIRST_BOOT_LOGS['qemu-stderr.log']),
				  errors='replace') as f:
				stderr = f.read()
			if res.stopped == 'kvm-error' or (not res.booted and
							  re.search(r'(?i)kvm', stderr)):
				reason = qemu_error_line(stderr)
				revoke_kvm(reason, arch)
				log(f'KVM unusable ({reason}; seen in this guest), using TCG')
				accel = Accel('tcg', 'KVM unusable')
		log(f'{retry_reason}: retrying once')
		with open(os.path.join(out, 'retry.log'), 'w') as f:
			f.write(retry_reason + '\n')

	if res.rc is None:
		log(f'FAILED: {res.why()}')
		if res.init_error():
			log(f'/init said: {res.init_error()}')
		sys.stderr.write(res.qemu_stderr_tail())
	log(f'guest finished in {res.duration:.1f} s, rc={res.rc}'
	    + (' (second boot)' if res.attempts > 1 else ''))
	return res


def prepare(label, out, build=True):
	"""Fetch the kernel, build module + CLI and copy both into out as
	ssdload.ko and ssdload (what SSDLOAD_KO/SSDLOAD_CLI point at).
	Returns (kinfo, list of build errors)."""
	miss = missing_tools()
	if miss:
		raise MissingPrerequisite('missing tools: ' + ', '.join(miss) +
					  ' (run scripts/deps.sh)')
	kinfo = fetch_kernel(label)
	errors = []
	bdir = os.path.join(CACHE, 'build')
	os.makedirs(bdir, exist_ok=True)
	with open(os.path.join(bdir, '.lock'), 'w') as lock:
		fcntl.flock(lock, fcntl.LOCK_EX)	# one build at a time per cache
		if build:
			for fn in (build_cli, lambda: build_module(kinfo)):
				try:
					fn()
				except BuildError as e:
					errors.append(str(e))
		snapshot(os.path.join(REPO, 'userspace', 'ssdload'), out, 'ssdload')
		snapshot(os.path.join(bdir, kinfo['KVER'], 'module', 'ssdload.ko'), out,
			 'ssdload.ko')
		# the KUnit suites, built only for kernels with CONFIG_KUNIT
		snapshot(os.path.join(bdir, kinfo['KVER'], 'module', 'tests', 'ssdload_test.ko'),
			 out, 'ssdload_test.ko')
	return kinfo, errors


def main(argv=None):
	ap = argparse.ArgumentParser(
		description='Boot a Debian kernel under qemu with the host root over 9p '
			    'and run COMMAND in it (default: the e2e suite).',
		usage='%(prog)s --kernel 6.1|6.12|debug [options] [-- COMMAND...]',
		epilog='environment: SSDLOAD_ACCEL=auto|kvm|tcg (auto: KVM if a smoke boot under '
		       'it works, cached in $SSDLOAD_CACHE/accel-probe.json), SSDLOAD_BOOT_TIMEOUT '
		       '(s until the command must have started, else one more boot), '
		       'SSDLOAD_GUEST_TIMEOUT, SSDLOAD_GUEST_CMDLINE; see Documentation/testing.rst')
	ap.add_argument('--kernel', default=os.environ.get('SSDLOAD_KERNEL', '6.12'),
			help='kernel label: 6.1, 6.12 or debug (default 6.12)')
	ap.add_argument('--out', help='output directory shared with the guest '
				     '(default: a new $SSDLOAD_CACHE/out/LABEL-DATE-PID)')
	ap.add_argument('--timeout', type=int,
			help=f'hard timeout in seconds (default {DEFAULT_TIMEOUT}, '
			     f'debug {LABEL_TIMEOUT["debug"]})')
	ap.add_argument('--no-build', action='store_true',
			help='do not build the module and the CLI first')
	ap.add_argument('--no-nvme', action='store_true', help='attach no emulated NVMe')
	ap.add_argument('--kunit', action='store_true',
			help='run the KUnit suites (ssdload_test.ko) and a kmemleak scan '
			     'instead of the e2e suite (the debug kernel)')
	ap.add_argument('--shell', action='store_true', help='interactive shell in the guest')
	ap.add_argument('--quiet', action='store_true', help='do not stream the console')
	ap.add_argument('command', nargs=argparse.REMAINDER)
	args = ap.parse_args(argv)
	cmd = args.command[1:] if args.command[:1] == ['--'] else args.command
	try:
		accel_mode()		# a bad SSDLOAD_ACCEL fails before the builds
	except HarnessError as e:
		log(str(e))
		return 2
	out = os.path.realpath(args.out or new_out_dir(args.kernel))
	try:
		kinfo, errors = prepare(args.kernel, out, build=not args.no_build)
	except HarnessError as e:
		log(str(e))
		return 2
	for e in errors:
		log(e)
	if errors:
		log('build failed (use --no-build to boot anyway)')
		return 2
	if not cmd and not args.shell:
		cmd = (check_command(out, ('kunit', 'kmemleak')) if args.kunit
		       else e2e_command(os.path.realpath(out)))
	try:
		res = run_guest(kinfo, cmd, out, timeout=args.timeout or timeout_for(args.kernel),
				stream=not args.quiet,
				shell=args.shell, nvme=not args.no_nvme)
	except HarnessError as e:
		log(str(e))
		return 2
	if res.rc is None:
		# run_guest() logged why and qemu's stderr tail; the console
		# streamed, unless --quiet
		if args.quiet:
			sys.stderr.write(f'console tail ({res.console}):\n{res.console_tail()}')
		return 124 if res.timed_out else 125
	if res.rc != 0:
		log(f'the command exited {res.rc} (output in {res.out})')
		tail = _tail(res.qemu_stderr, STDERR_TAIL)
		if tail and tail.strip():
			sys.stderr.write(res.qemu_stderr_tail())
	return res.rc


if __name__ == '__main__':
	sys.exit(main())
