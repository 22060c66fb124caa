#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Boot a Debian kernel under qemu and run one command in it.

The guest sees the host's root filesystem read-only over 9p (so the repo,
python3, pytest and fio are at the same paths as on the host), a writable
output share at the same path as on the host, and qemu's emulated NVMe.
The command's exit status comes back through the output share ($OUT/rc);
dmesg is saved to $OUT/dmesg.txt and the console to $OUT/console.log.

  tests/qemu/guest.py --kernel 6.1 -- uname -a
  tests/qemu/guest.py --kernel 6.12              # the whole e2e suite
  tests/qemu/guest.py --kernel 6.12 --shell      # interactive debugging

See Documentation/testing.rst.
"""

import argparse
import fcntl
import os
import shlex
import shutil
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
DEFAULT_TIMEOUT = int(os.environ.get('SSDLOAD_GUEST_TIMEOUT', '1200'))
# The debug kernel runs the KUnit suites, the e2e suite and a kmemleak scan
# with KASAN + lockdep under TCG: a longer hard timeout.
LABEL_TIMEOUT = {'debug': 3000}
GUEST_MEMORY = os.environ.get('SSDLOAD_GUEST_MEM', '3G')
GUEST_SMP = os.environ.get('SSDLOAD_GUEST_SMP', '2')
NVME_SIZE = 1 << 30
# Host env vars handed through to the guest command as they are.
PASSTHROUGH_PREFIXES = ('SSDLOAD_TEST_', 'PYTEST_ADDOPTS')
TOOLS = ('qemu-system-x86_64', 'rsync', 'make')


def timeout_for(label):
	"""Hard timeout (s) of a guest of this label; SSDLOAD_GUEST_TIMEOUT wins."""
	if os.environ.get('SSDLOAD_GUEST_TIMEOUT'):
		return DEFAULT_TIMEOUT
	return LABEL_TIMEOUT.get(label, DEFAULT_TIMEOUT)


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
		'-rs', '-v']


@dataclass
class GuestResult:
	"""What came back from one guest run."""
	rc: Optional[int]		# the command's exit status; None if the guest did not say
	timed_out: bool			# killed after the hard timeout
	duration: float			# seconds, qemu start to exit
	out: str			# the output directory
	qemu_rc: Optional[int]		# qemu's own exit status

	@property
	def console(self):
		return os.path.join(self.out, 'console.log')

	@property
	def dmesg(self):
		return os.path.join(self.out, 'dmesg.txt')

	def console_tail(self, lines=60):
		try:
			with open(self.console, errors='replace') as f:
				return ''.join(f.readlines()[-lines:])
		except FileNotFoundError:
			return '(no console.log)'

	def init_error(self):
		try:
			with open(os.path.join(self.out, 'init-error')) as f:
				return f.read().strip()
		except FileNotFoundError:
			return None


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


def _accel():
	if os.access('/dev/kvm', os.R_OK | os.W_OK):
		return ['-accel', 'kvm', '-cpu', 'host']
	return ['-accel', 'tcg,thread=multi', '-cpu', 'max']


def run_guest(kinfo, command: Optional[List[str]], out: str, timeout: int = DEFAULT_TIMEOUT,
	      env: Optional[Dict[str, str]] = None, stream=True, shell=False, nvme=True,
	      arch='x86_64') -> GuestResult:
	"""Boot kinfo's kernel, run command (argv) in the chrooted host root."""
	params = qemu_configs.CONFIGS[arch]
	out = os.path.realpath(out)
	os.makedirs(out, exist_ok=True)
	for f in ('rc', 'dmesg.txt', 'init-error', 'console.log', 'nvme.img',
		  'junit-e2e.xml'):
		try:
			os.unlink(os.path.join(out, f))
		except FileNotFoundError:
			pass
	moddir = os.path.realpath(kinfo['MODDIR'])
	cpio = initramfs.build(moddir, CACHE)

	genv = {
		'PATH': '/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin',
		'HOME': '/root', 'LANG': 'C.UTF-8', 'TERM': os.environ.get('TERM', 'dumb') if shell else 'dumb',
		'PYTHONDONTWRITEBYTECODE': '1', 'SSDLOAD_GUEST': '1',
		'SSDLOAD_REPO': REPO, 'SSDLOAD_OUT': out, 'SSDLOAD_KERNEL': kinfo['LABEL'],
		'SSDLOAD_KO': os.path.join(out, 'ssdload.ko'),
		'SSDLOAD_KUNIT_KO': os.path.join(out, 'ssdload_test.ko'),
		'SSDLOAD_CLI': os.path.join(out, 'ssdload'),
	}
	if nvme:
		genv['SSDLOAD_NVME'] = '/dev/nvme0n1'
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
			     ('NVME_SERIAL', 'ssdload0' if nvme else ''),
			     ('SHELL_MODE', '1' if shell else '0')):
			f.write(f'{k}={shlex.quote(v)}\n')
	with open(os.path.join(out, 'guest-cmd.sh'), 'w') as f:
		f.write('# generated by tests/qemu/guest.py; run by the guest /init\n')
		for k, v in sorted(genv.items()):
			f.write(f'export {k}={shlex.quote(v)}\n')
		f.write(f'cd {shlex.quote(REPO)} || exit 125\n')
		if shell:
			f.write('exec /bin/bash -i\n')
		else:
			f.write('exec ' + ' '.join(shlex.quote(a) for a in command) + '\n')

	qemu = [f'qemu-system-{params.qemu_arch}'] + _accel() + params.extra_qemu_params + [
		'-smp', GUEST_SMP, '-m', GUEST_MEMORY,
		'-display', 'none', '-vga', 'none', '-no-reboot', '-nic', 'none',
		'-chardev', f'stdio,id=con,mux=on,signal={"off" if shell else "on"},'
			    f'logfile={out}/console.log',
		'-serial', 'chardev:con', '-mon', 'chardev=con,mode=readline',
		'-kernel', kinfo['VMLINUZ'], '-initrd', cpio,
		'-append', ' '.join(' '.join([
			params.kernel_command_line, 'panic=-1', 'quiet', 'loglevel=3',
			'mitigations=off', 'random.trust_cpu=on', LABEL_CMDLINE.get(kinfo['LABEL'], ''),
			os.environ.get('SSDLOAD_GUEST_CMDLINE', '')]).split()),
		'-virtfs', 'local,path=/,mount_tag=hostroot,security_model=none,'
			   'readonly=on,multidevs=remap',
		'-virtfs', f'local,path={out},mount_tag=out,security_model=none,multidevs=remap',
	]
	if nvme:
		img = os.path.join(out, 'nvme.img')
		with open(img, 'wb') as f:
			f.truncate(NVME_SIZE)
		qemu += ['-drive', f'file={img},if=none,format=raw,id=n0',
			 '-device', 'nvme,serial=ssdload0,drive=n0']

	log(f'booting {kinfo["KVER"]} ({kinfo["LABEL"]}), output in {out}')
	start = time.monotonic()
	proc = subprocess.Popen(qemu, stdin=None if shell else subprocess.DEVNULL,
				stdout=None if stream else subprocess.DEVNULL,
				stderr=None if stream else subprocess.DEVNULL)
	timed_out = False
	try:
		proc.wait(timeout=None if shell else timeout)
	except subprocess.TimeoutExpired:
		timed_out = True
		proc.kill()
		proc.wait()
	except KeyboardInterrupt:
		proc.kill()
		proc.wait()
		raise
	finally:
		try:
			os.unlink(os.path.join(out, 'nvme.img'))
		except FileNotFoundError:
			pass
	duration = time.monotonic() - start
	rc = None
	try:
		with open(os.path.join(out, 'rc')) as f:
			rc = int(f.read().strip())
	except (FileNotFoundError, ValueError):
		pass
	res = GuestResult(rc=rc, timed_out=timed_out, duration=duration, out=out,
			  qemu_rc=proc.returncode)
	if timed_out:
		log(f'TIMEOUT: killed qemu after {timeout} s')
	elif rc is None:
		log(f'the guest wrote no rc (crash?): {res.init_error() or "see " + res.console}')
	log(f'guest finished in {duration:.1f} s, rc={rc}')
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
		usage='%(prog)s --kernel 6.1|6.12|debug [options] [-- COMMAND...]')
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
	res = run_guest(kinfo, cmd, out, timeout=args.timeout or timeout_for(args.kernel),
			stream=not args.quiet,
			shell=args.shell, nvme=not args.no_nvme)
	if res.rc is None:
		if args.quiet:
			sys.stderr.write(res.console_tail())
		return 124 if res.timed_out else 125
	return res.rc


if __name__ == '__main__':
	sys.exit(main())
