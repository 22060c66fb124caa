# SPDX-License-Identifier: GPL-2.0
"""The guest harness (tests/qemu/guest.py) without KVM and without a kernel.

A fake qemu-system-x86_64, first on PATH, plays the part of qemu and of the
guest: under "-accel kvm" it aborts the way a nested KVM does (failed to set
MSR 0x10a), or hangs like a KVM internal error, or works; as a guest it
writes the markers and the rc into the output share (the path of its
"-virtfs ...,mount_tag=out" argument), crashes before or after the command
started, or hangs.  These tests check the KVM probe and its fallback to TCG,
the one line that says why, the verdict cache, SSDLOAD_ACCEL, qemu's stderr
in the failure reports and the boot-once-more rule.
"""
import json
import os
import re
import socket
import sys
import time

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, 'tests', 'qemu'))

import bridge		# noqa: E402
import guest		# noqa: E402
import initramfs	# noqa: E402

FAKE_QEMU = r'''#!@PYTHON@
# fake qemu-system-x86_64 of tests/unit/test_qemu_harness.py
import json, os, sys, time

argv = sys.argv[1:]
if argv[:1] == ['--version']:
	print(os.environ.get('FAKE_QEMU_VERSION', 'QEMU emulator version 7.2.99 (fake)'))
	print('Copyright (c) 2003-2022 Fabrice Bellard and the QEMU Project developers')
	sys.exit(0)

def opts(name):
	return [argv[i + 1] for i, a in enumerate(argv[:-1]) if a == name]

out = None
for v in opts('-virtfs'):
	kv = dict(p.split('=', 1) for p in v.split(',') if '=' in p)
	if kv.get('mount_tag') == 'out':
		out = kv['path']
serial = [s[5:] for s in opts('-serial') if s.startswith('file:')]
logfile = None
for v in opts('-chardev'):
	kv = dict(p.split('=', 1) for p in v.split(',') if '=' in p)
	logfile = kv.get('logfile', logfile)
accel = (opts('-accel') or ['tcg'])[0].split(',')[0]
probe = out is None
state = os.environ['FAKE_QEMU_STATE']
with open(os.path.join(state, 'calls.jsonl'), 'a') as f:
	f.write(json.dumps({'argv': argv, 'accel': accel, 'probe': probe,
			    'pid': os.getpid()}) + '\n')

def console(text):
	for path in serial + ([logfile] if logfile else []):
		with open(path, 'a') as f:
			f.write(text + '\n')
	if not serial:
		print(text, flush=True)

def mark(name, text='1.00'):
	with open(os.path.join(out, name), 'w') as f:
		f.write(text + '\n')

def hang():
	while True:
		time.sleep(60)

def count(name):
	path = os.path.join(state, name)
	n = int(open(path).read()) + 1 if os.path.exists(path) else 1
	with open(path, 'w') as f:
		f.write(str(n))
	return n

if os.environ.get('FAKE_QEMU_STDERR'):
	sys.stderr.write(os.environ['FAKE_QEMU_STDERR'] + '\n')
	sys.stderr.flush()

if accel == 'kvm':
	mode = os.environ.get('FAKE_QEMU_KVM', 'ok')
	if mode == 'abort':
		# what qemu 7.2 says under -cpu host on a nested KVM
		sys.stderr.write('qemu-system-x86_64: error: failed to set MSR 0x10a to 0x2000000\n'
				 'qemu-system-x86_64: ../target/i386/kvm/kvm.c:2993: '
				 "kvm_buf_set_msrs: Assertion `ret == cpu->kvm_msr_buf->nmsrs' failed.\n")
		sys.exit(1)
	if mode == 'hang':
		hang()
	if mode == 'internal-error' or (mode == 'guest-internal-error' and not probe):
		console('Linux version 6.12.0-fake')
		sys.stderr.write('KVM internal error. Suberror: 1\nemulation failure\n'
				 'RAX=0000000000000000 RBX=0000000000000000\n')
		sys.stderr.flush()
		hang()

if probe:
	console(os.environ['FAKE_QEMU_MARKER'])
	sys.exit(0)

mode = os.environ.get('FAKE_QEMU_GUEST', 'ok')
boot = count('boots')
console('Linux version 6.12.0-fake')
if mode == 'crash-before-start' or (mode == 'crash-before-start-once' and boot == 1):
	mark('booted')
	console('Oops: int3: 0000 [#1] PREEMPT SMP NOPTI')
	console('RIP: 0010:run_timer_softirq+0x1/0x30')
	console('Kernel panic - not syncing: Fatal exception in interrupt')
	sys.exit(0)
if mode == 'hang-before-start-once' and boot == 1:
	mark('booted')
	hang()
mark('booted')
mark('started')
console('ssdload-guest: the command runs')
if mode == 'crash-after-start':
	console('BUG: kernel NULL pointer dereference, address: 0000000000000000')
	console('Kernel panic - not syncing: Fatal exception')
	sys.exit(0)
with open(os.path.join(out, 'dmesg.txt'), 'w') as f:
	f.write('[    0.000000] Linux version 6.12.0-fake\n')
mark('rc', mode[3:] if mode.startswith('rc=') else '0')
sys.exit(0)
'''

MSR_LINE = re.compile(r'^guest: KVM unusable \(qemu: failed to set MSR 0x10a to 0x2000000'
		      r'(; .*)?\), using TCG$')


class Harness:
	"""A fake kernel, busybox and qemu; run() boots a fake guest."""

	def __init__(self, tmp, monkeypatch, capfd):
		self.tmp = tmp
		self.capfd = capfd
		self.state = tmp / 'state'
		self.state.mkdir()
		bindir = tmp / 'bin'
		bindir.mkdir()
		qemu = bindir / 'qemu-system-x86_64'
		qemu.write_text(FAKE_QEMU.replace('@PYTHON@', sys.executable))
		qemu.chmod(0o755)
		busybox = tmp / 'busybox'
		busybox.write_bytes(b'\x7fELF fake busybox')
		moddir = tmp / 'modules'
		moddir.mkdir()
		(moddir / 'modules.dep').write_text('')
		(moddir / 'modules.builtin').write_text(
			''.join(f'kernel/{m}.ko\n' for m in initramfs.WANTED))
		(tmp / 'vmlinuz').write_bytes(b'fake kernel')
		self.kvm = tmp / 'kvm'
		self.kvm.write_text('')
		self.cache = tmp / 'cache'
		self.out = str(tmp / 'out')
		self.kinfo = {'KVER': '6.12.0-fake', 'LABEL': '6.12', 'VMLINUZ': str(tmp / 'vmlinuz'),
			      'MODDIR': str(moddir)}
		monkeypatch.setenv('PATH', f'{bindir}:{os.environ["PATH"]}')
		monkeypatch.setenv('FAKE_QEMU_STATE', str(self.state))
		monkeypatch.setenv('FAKE_QEMU_MARKER', initramfs.PROBE_MARKER)
		for var in ('SSDLOAD_ACCEL', 'SSDLOAD_BOOT_TIMEOUT', 'SSDLOAD_ACCEL_PROBE_TIMEOUT',
			    'SSDLOAD_GUEST_CMDLINE', 'FAKE_QEMU_KVM', 'FAKE_QEMU_GUEST',
			    'FAKE_QEMU_STDERR', 'FAKE_QEMU_VERSION'):
			monkeypatch.delenv(var, raising=False)
		monkeypatch.setattr(guest, 'CACHE', str(self.cache))
		monkeypatch.setattr(guest, 'KVM_DEV', str(self.kvm))
		monkeypatch.setattr(guest, '_ACCEL_MEMO', {})
		monkeypatch.setattr(initramfs, 'BUSYBOX_PATHS', (str(busybox),))

	def run(self, **kw):
		"""run_guest() on the fake kernel; (result, guest.py's stderr lines)."""
		kw.setdefault('timeout', 30)
		kw.setdefault('stream', False)
		res = guest.run_guest(self.kinfo, ['true'], self.out, **kw)
		err = self.capfd.readouterr().err
		return res, [l for l in err.splitlines() if l.strip()]

	def calls(self):
		"""The fake qemu's invocations so far (--version aside)."""
		path = self.state / 'calls.jsonl'
		if not path.exists():
			return []
		return [json.loads(l) for l in path.read_text().splitlines()]

	def verdicts(self):
		with open(self.cache / guest.PROBE_CACHE) as f:
			data = json.load(f)
		assert data['format'] == guest.PROBE_CACHE_FORMAT
		return data['verdicts']

	def forget(self):
		"""A new process: the verdicts of this one are gone, the cache stays."""
		guest._ACCEL_MEMO.clear()


@pytest.fixture
def h(tmp_path, monkeypatch, capfd):
	return Harness(tmp_path, monkeypatch, capfd)


def cpu_model():
	with open('/proc/cpuinfo') as f:
		for line in f:
			if line.split(':')[0].strip() == 'model name':
				return line.split(':', 1)[1].strip()
	return 'unknown'


def unusable_lines(lines):
	return [l for l in lines if l.startswith('guest: KVM unusable')]


# --------------------------------------------------------------------------
# the probe and the fallback

def test_nested_kvm_abort_falls_back_to_tcg(h, monkeypatch):
	"""qemu aborts under -accel kvm -cpu host: one line says why, TCG runs."""
	monkeypatch.setenv('FAKE_QEMU_KVM', 'abort')
	res, lines = h.run()
	assert res.rc == 0 and res.accel == 'tcg' and res.attempts == 1
	calls = h.calls()
	assert [(c['probe'], c['accel']) for c in calls] == [(True, 'kvm'), (False, 'tcg')]
	probe = calls[0]['argv']
	assert probe[probe.index('-accel'):probe.index('-accel') + 4] == \
		['-accel', 'kvm', '-cpu', 'host']
	assert calls[1]['argv'][calls[1]['argv'].index('-accel'):][:4] == \
		['-accel', 'tcg,thread=multi', '-cpu', 'max']
	bad = unusable_lines(lines)
	assert len(bad) == 1 and MSR_LINE.match(bad[0]), lines
	# the probe's own stderr stays in the output directory
	with open(os.path.join(h.out, 'accel-probe-stderr.log')) as f:
		assert 'failed to set MSR 0x10a' in f.read()
	(v,) = h.verdicts().values()
	assert v['kvm_usable'] is False
	assert v['reason'] == 'qemu: failed to set MSR 0x10a to 0x2000000'
	assert v['qemu'] == 'QEMU emulator version 7.2.99 (fake)'
	assert v['cpu'] == cpu_model()
	assert v['host'] == socket.gethostname()
	assert v['probe_kernel'] == '6.12.0-fake'


def test_verdict_cached_per_host_qemu_and_cpu(h, monkeypatch):
	"""The next run reuses the verdict without a probe; another qemu
	version probes again."""
	monkeypatch.setenv('FAKE_QEMU_KVM', 'abort')
	h.run()
	h.forget()
	n = len(h.calls())
	res, lines = h.run()
	assert res.accel == 'tcg'
	assert [c['probe'] for c in h.calls()[n:]] == [False]
	bad = unusable_lines(lines)
	assert len(bad) == 1 and MSR_LINE.match(bad[0]) and 'cached' in bad[0], lines
	# same process: no probe and no reading of the file either
	n = len(h.calls())
	h.run()
	assert [c['probe'] for c in h.calls()[n:]] == [False]

	h.forget()
	monkeypatch.setenv('FAKE_QEMU_VERSION', 'QEMU emulator version 8.2.2 (fake)')
	monkeypatch.setenv('FAKE_QEMU_KVM', 'ok')
	n = len(h.calls())
	res, _ = h.run()
	assert [c['probe'] for c in h.calls()[n:]] == [True, False]
	assert res.accel == 'kvm'
	v = h.verdicts()
	assert sorted(x['kvm_usable'] for x in v.values()) == [False, True]


def test_kvm_internal_error_does_not_wait_out_the_timeout(h, monkeypatch):
	"""qemu stays alive after a KVM internal error: the probe kills it."""
	monkeypatch.setenv('FAKE_QEMU_KVM', 'internal-error')
	t0 = time.monotonic()
	res, lines = h.run()
	assert time.monotonic() - t0 < 15
	assert res.rc == 0 and res.accel == 'tcg'
	bad = unusable_lines(lines)
	assert bad == ['guest: KVM unusable (qemu: KVM internal error. Suberror: 1), using TCG']
	probe_pid = h.calls()[0]['pid']
	assert not os.path.exists(f'/proc/{probe_pid}') or \
		open(f'/proc/{probe_pid}/stat').read().split()[2] == 'Z'


def test_silent_kvm_hang_hits_the_probe_timeout(h, monkeypatch):
	monkeypatch.setenv('FAKE_QEMU_KVM', 'hang')
	monkeypatch.setenv('SSDLOAD_ACCEL_PROBE_TIMEOUT', '1')
	res, lines = h.run()
	assert res.accel == 'tcg'
	assert unusable_lines(lines) == [
		'guest: KVM unusable (no userspace within 1 s), using TCG']
	(v,) = h.verdicts().values()
	assert v['kvm_usable'] is False


def test_working_kvm_is_used(h, monkeypatch):
	monkeypatch.setenv('FAKE_QEMU_KVM', 'ok')
	res, lines = h.run()
	assert res.rc == 0 and res.accel == 'kvm'
	assert [(c['probe'], c['accel']) for c in h.calls()] == [(True, 'kvm'), (False, 'kvm')]
	assert not unusable_lines(lines)
	(v,) = h.verdicts().values()
	assert v['kvm_usable'] is True


def test_kvm_dying_in_a_guest_is_remembered(h, monkeypatch):
	"""KVM passed the probe, the guest hits a KVM internal error before
	its command: killed at once, booted again under TCG, verdict revoked."""
	monkeypatch.setenv('FAKE_QEMU_KVM', 'guest-internal-error')
	t0 = time.monotonic()
	res, lines = h.run()
	assert time.monotonic() - t0 < 15
	assert res.rc == 0 and res.accel == 'tcg' and res.attempts == 2
	assert [(c['probe'], c['accel']) for c in h.calls()] == \
		[(True, 'kvm'), (False, 'kvm'), (False, 'tcg')]
	assert 'KVM internal error' in res.retry_reason
	assert len(unusable_lines(lines)) == 1
	(v,) = h.verdicts().values()
	assert v['kvm_usable'] is False and 'KVM internal error' in v['reason']


def test_ssdload_accel_overrides_the_probe(h, monkeypatch):
	monkeypatch.setenv('FAKE_QEMU_KVM', 'abort')
	monkeypatch.setenv('SSDLOAD_ACCEL', 'tcg')
	res, lines = h.run()
	assert res.accel == 'tcg' and res.rc == 0
	assert [c['probe'] for c in h.calls()] == [False]
	assert not unusable_lines(lines)
	assert not (h.cache / guest.PROBE_CACHE).exists()

	# forced KVM: no probe, and qemu's abort is in the failure report
	monkeypatch.setenv('SSDLOAD_ACCEL', 'kvm')
	h.kvm.unlink()
	n = len(h.calls())
	res, lines = h.run()
	assert [(c['probe'], c['accel']) for c in h.calls()[n:]] == [(False, 'kvm')] * 2
	assert res.accel == 'kvm' and res.rc is None and res.attempts == 2

	monkeypatch.setenv('SSDLOAD_ACCEL', 'fast')
	with pytest.raises(guest.HarnessError, match='SSDLOAD_ACCEL'):
		h.run()


def test_no_kvm_device_means_tcg_without_a_probe(h):
	h.kvm.unlink()
	res, lines = h.run()
	assert res.accel == 'tcg' and res.rc == 0
	assert [c['probe'] for c in h.calls()] == [False]
	assert not unusable_lines(lines)
	assert any('under TCG (no usable' in l for l in lines), lines


# --------------------------------------------------------------------------
# qemu's stderr

def test_qemu_stderr_is_saved_and_in_the_failure_reports(h, monkeypatch):
	monkeypatch.setenv('SSDLOAD_ACCEL', 'kvm')
	monkeypatch.setenv('FAKE_QEMU_KVM', 'abort')
	res, lines = h.run()
	assert res.rc is None and res.qemu_rc == 1
	with open(res.qemu_stderr) as f:
		assert 'failed to set MSR 0x10a' in f.read()
	report = res.report()
	assert 'qemu stderr tail (' + res.qemu_stderr in report
	assert 'failed to set MSR 0x10a' in report and 'kvm_buf_set_msrs' in report
	# run_guest's own failure lines carry the tail too
	assert any('kvm_buf_set_msrs' in l for l in lines)

	# the bridge's guest_run item
	sess = bridge.GuestSession('6.12')
	sess.res, sess.out, sess.build, sess.errors = res, res.out, False, []

	class Parent:
		def _item(self, name, outcome='passed', text=''):
			return name, outcome, text

	items = {name: (outcome, text) for name, outcome, text in sess.session_items(Parent())}
	outcome, text = items['guest_run']
	assert outcome == 'failed'
	assert 'failed to set MSR 0x10a' in text and 'first boot' in text


def test_qemu_stderr_of_a_good_run(h, monkeypatch):
	monkeypatch.setenv('FAKE_QEMU_STDERR', 'qemu-system-x86_64: warning: fake warning')
	res, _ = h.run()
	assert res.rc == 0
	with open(res.qemu_stderr) as f:
		assert f.read() == 'qemu-system-x86_64: warning: fake warning\n'


def test_reruns_are_a_visible_skip(h):
	"""A timing test passed on its second try (tests/e2e/conftest.py wrote
	reruns.txt): the bridge shows it as the skip e2e[LABEL]::reruns; no
	file, no item."""
	res, _ = h.run()
	assert res.rc == 0
	sess = bridge.GuestSession('6.1')
	sess.res, sess.out, sess.build, sess.errors = res, res.out, False, []

	class Parent:
		def _item(self, name, outcome='passed', text=''):
			return name, outcome, text

	def items():
		return {n: (o, t) for n, o, t in sess.session_items(Parent())}

	assert 'reruns' not in items()
	with open(os.path.join(res.out, 'reruns.txt'), 'w') as f:
		f.write('tests/e2e/test_rate.py::test_interarrival_cv[poisson]: '
			'AssertionError: poisson CV 1.302 over 3000 gaps\n\n')
	outcome, text = items()['reruns']
	assert outcome == 'skipped'
	assert text.startswith('1 timing test run(s) failed once')
	assert 'test_interarrival_cv[poisson]' in text and 'CV 1.302' in text


def test_main_error_exit_shows_qemu_stderr(h, monkeypatch, capfd):
	monkeypatch.setenv('FAKE_QEMU_GUEST', 'crash-after-start')
	monkeypatch.setenv('FAKE_QEMU_STDERR', 'qemu-system-x86_64: warning: fake warning')
	monkeypatch.setattr(guest, 'prepare', lambda label, out, build=True: (h.kinfo, []))
	rc = guest.main(['--kernel', '6.12', '--out', h.out, '--quiet', '--', 'true'])
	err = capfd.readouterr().err
	assert rc == 125
	assert 'qemu stderr tail' in err and 'fake warning' in err
	assert 'Kernel panic' in err		# --quiet: the console tail too

	monkeypatch.setenv('FAKE_QEMU_GUEST', 'rc=3')
	rc = guest.main(['--kernel', '6.12', '--out', h.out, '--quiet', '--', 'false'])
	err = capfd.readouterr().err
	assert rc == 3
	assert 'the command exited 3' in err and 'fake warning' in err


# --------------------------------------------------------------------------
# booted / started and the one retry

def test_crash_before_start_is_retried_once(h, monkeypatch):
	monkeypatch.setenv('SSDLOAD_ACCEL', 'tcg')
	monkeypatch.setenv('FAKE_QEMU_GUEST', 'crash-before-start-once')
	res, lines = h.run()
	assert res.rc == 0 and res.attempts == 2 and res.started
	assert len(h.calls()) == 2
	retry = [l for l in lines if 'retrying once' in l]
	assert len(retry) == 1, lines
	assert 'before the command started' in retry[0]
	assert "no 'started' marker" in retry[0]
	assert 'Kernel panic - not syncing: Fatal exception in interrupt' in retry[0]
	# the first boot's console is kept
	with open(os.path.join(h.out, 'console.boot1.log')) as f:
		assert 'run_timer_softirq' in f.read()
	with open(os.path.join(h.out, 'retry.log')) as f:
		assert 'before the command started' in f.read()
	assert res.retry_reason and 'run_timer_softirq' not in res.console_tail()


def test_hang_before_start_is_killed_and_retried(h, monkeypatch):
	monkeypatch.setenv('SSDLOAD_ACCEL', 'tcg')
	monkeypatch.setenv('FAKE_QEMU_GUEST', 'hang-before-start-once')
	t0 = time.monotonic()
	# long enough for the fake's second boot to start its command on a
	# loaded host
	res, lines = h.run(boot_timeout=3)
	assert time.monotonic() - t0 < 15
	assert res.rc == 0 and res.attempts == 2
	retry = [l for l in lines if 'retrying once' in l]
	assert len(retry) == 1
	assert 'had not started the command 3 s after qemu started (it booted)' in retry[0]


def test_boot_timeout_from_the_environment(h, monkeypatch):
	monkeypatch.setenv('SSDLOAD_ACCEL', 'tcg')
	monkeypatch.setenv('FAKE_QEMU_GUEST', 'hang-before-start-once')
	monkeypatch.setenv('SSDLOAD_BOOT_TIMEOUT', '3')
	res, _ = h.run()
	assert res.rc == 0 and res.attempts == 2 and res.retry_reason.startswith(
		'the guest had not started the command 3 s after')
	monkeypatch.delenv('SSDLOAD_BOOT_TIMEOUT')
	assert guest.boot_timeout_for('debug') > guest.boot_timeout_for('6.1') >= 120


def test_crash_after_start_is_never_retried(h, monkeypatch):
	monkeypatch.setenv('SSDLOAD_ACCEL', 'tcg')
	monkeypatch.setenv('FAKE_QEMU_GUEST', 'crash-after-start')
	res, lines = h.run()
	assert res.rc is None and res.attempts == 1 and res.started
	assert len(h.calls()) == 1
	assert not [l for l in lines if 'retrying' in l]
	assert 'after the command started' in res.why()
	assert res.retry_reason is None


def test_crash_before_start_twice_fails(h, monkeypatch):
	monkeypatch.setenv('SSDLOAD_ACCEL', 'tcg')
	monkeypatch.setenv('FAKE_QEMU_GUEST', 'crash-before-start')
	res, lines = h.run()
	assert res.rc is None and res.attempts == 2 and not res.started
	assert len(h.calls()) == 2
	assert len([l for l in lines if 'retrying once' in l]) == 1
	report = res.report()
	assert 'before the command started' in report and 'first boot' in report
	assert 'run_timer_softirq' in report


# --------------------------------------------------------------------------
# small pieces

@pytest.mark.parametrize('stderr,line', [
	('qemu-system-x86_64: error: failed to set MSR 0x10a to 0x2000000\n'
	 'qemu-system-x86_64: kvm.c:1: kvm_buf_set_msrs: Assertion failed.\n',
	 'qemu: failed to set MSR 0x10a to 0x2000000'),
	('KVM internal error. Suberror: 1\nemulation failure\n',
	 'qemu: KVM internal error. Suberror: 1'),
	('qemu-system-x86_64: warning: something\n'
	 'qemu-system-x86_64: Could not access KVM kernel module: Permission denied\n',
	 'qemu: Could not access KVM kernel module: Permission denied'),
	('qemu-system-x86_64: warning: something\n', 'qemu: warning: something'),
	('', None),
])
def test_qemu_error_line(stderr, line):
	assert guest.qemu_error_line(stderr) == line
