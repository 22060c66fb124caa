# SPDX-License-Identifier: GPL-2.0
"""Host-side pytest bridge: one guest per kernel runs tests/e2e, and every
guest test case is replayed as a host pytest item, so `make check` ends in
one summary.  Loaded by tests/conftest.py for tests/test_guest.py.

Node ids: tests/test_guest.py::e2e[6.1]::build
          tests/test_guest.py::e2e[6.1]::guest_run
          tests/test_guest.py::e2e[6.1]::dmesg_clean
          tests/test_guest.py::e2e[6.1]::test_counts.py::test_exact_counts[randread]
"""

import os
import re
import sys
import xml.etree.ElementTree as ET

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import guest		# noqa: E402

# Lines in the guest's dmesg that fail the run.
DMESG_BAD = re.compile('|'.join([
	r'BUG:', r'WARNING:', r'\bOops\b', r'KASAN', r'UBSAN',
	r'possible circular locking', r'INFO: lockdep', r'unreferenced object',
	r'hung task', r'blocked for more than \d+ seconds', r'general protection',
	r'Call Trace', r'detected stalls?\b', r'kernel BUG',
]))

PYTEST_EXIT = {2: 'interrupted', 3: 'internal error', 4: 'usage error (e2e dir missing?)',
	       5: 'no tests collected'}


def kernels():
	return os.environ.get('SSDLOAD_KERNELS', '6.1 6.12').replace(',', ' ').split()


class GuestReplay(Exception):
	"""A failure reported by the guest (or by the harness), shown verbatim."""


class BridgeItem(pytest.Item):
	"""An item whose outcome is fixed at collection: pass, fail or skip."""

	def __init__(self, *, outcome='passed', text='', location=None, **kw):
		super().__init__(**kw)
		self.outcome = outcome		# passed|failed|skipped|xfailed
		self.text = text		# failure text or skip reason
		self.location_ = location	# (path, lineno) of the guest test

	def runtest(self):
		if self.outcome == 'skipped':
			try:
				raise pytest.skip.Exception(self.text, _use_item_location=True)
			except TypeError:
				pytest.skip(self.text)
		if self.outcome == 'xfailed':
			pytest.xfail(self.text)
		if self.outcome == 'failed':
			raise GuestReplay(self.text)

	def repr_failure(self, excinfo, style=None):
		if isinstance(excinfo.value, GuestReplay):
			return str(excinfo.value)
		return super().repr_failure(excinfo)

	def reportinfo(self):
		domain = self.nodeid.split('::', 1)[-1]
		if self.location_:
			return self.location_[0], self.location_[1], domain
		return self.path, None, domain


class GuestModule(pytest.Collector):
	"""The replayed test cases of one guest test file."""

	def __init__(self, *, cases, **kw):
		super().__init__(**kw)
		self.cases = cases

	def collect(self):
		for name, kw in self.cases:
			yield BridgeItem.from_parent(self, name=name, **kw)


def _case_name(classname, name):
	"""('tests.e2e.test_counts.TestX', 'test_y[1]') -> ('test_counts.py', 'TestX::test_y[1]')."""
	parts = classname.split('.') if classname else []
	idx = max([i for i, p in enumerate(parts) if p.startswith('test')], default=-1)
	if idx < 0:
		return 'guest', name
	return parts[idx] + '.py', '::'.join(parts[idx + 1:] + [name])


def parse_junit(path, e2e_dir):
	"""{module: [(name, item kwargs)]} from a pytest junit xml file."""
	mods = {}
	root = ET.parse(path).getroot()
	for tc in root.iter('testcase'):
		mod, name = _case_name(tc.get('classname', ''), tc.get('name', '?'))
		kw = {'outcome': 'passed', 'text': ''}
		f, line = tc.get('file'), tc.get('line')
		if f:
			# xunit1 paths are relative to the guest's pytest rootdir
			f = os.path.normpath(os.path.join(e2e_dir, f))
			f = os.path.relpath(f, os.getcwd()) if f.startswith(os.getcwd() + '/') else f
			kw['location'] = (f, int(line) if line and line.isdigit() else None)
		texts = []
		for child in tc:
			tag = child.tag
			if tag in ('failure', 'error'):
				kw['outcome'] = 'failed'
				head = 'ERROR (setup/teardown) in the guest' if tag == 'error' \
					else 'FAILED in the guest'
				texts.append(f'{head}: {child.get("message", "")}\n{child.text or ""}')
			elif tag == 'skipped' and kw['outcome'] == 'passed':
				xfail = child.get('type') == 'pytest.xfail'
				kw['outcome'] = 'xfailed' if xfail else 'skipped'
				texts.append(child.get('message') or (child.text or '').strip())
			elif tag in ('system-out', 'system-err') and child.text:
				texts.append(f'--- guest {tag} ---\n{child.text}')
		if kw['outcome'] in ('skipped', 'xfailed'):
			kw['text'] = texts[0] if texts else 'skipped in the guest'
		else:
			kw['text'] = '\n'.join(texts)
		mods.setdefault(mod, []).append((name, kw))
	return mods


CONSOLE_TEST = re.compile(r'(?m)^(\S+\.py)::(\S+)')
CONSOLE_OUTCOME = re.compile(r'\b(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b')


def parse_console(path):
	"""Fallback when the guest left no junit (crash, timeout): the outcomes
	that pytest -v printed on the console, {module: [(name, kwargs)]}.  The
	test that was running when the guest died fails."""
	with open(path, errors='replace') as f:
		text = f.read().replace('\r', '')
	marks = list(CONSOLE_TEST.finditer(text))
	mods = {}
	for i, m in enumerate(marks):
		end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
		o = CONSOLE_OUTCOME.search(text, m.end(), end)
		word = o.group(1) if o else None
		outcome = {'PASSED': 'passed', 'XPASS': 'passed', 'SKIPPED': 'skipped',
			   'XFAIL': 'xfailed'}.get(word, 'failed')
		if word is None:
			msg = ('was running when the guest stopped (crash or timeout); '
			       'see guest_run and the console log')
		elif outcome == 'failed':
			msg = f'{word} in the guest (from the console; no junit: see guest_run)'
		else:
			msg = 'skipped in the guest (from the console)'
		mod = os.path.basename(m.group(1))
		mods.setdefault(mod, []).append((m.group(2), {'outcome': outcome, 'text': msg}))
	return mods


def dmesg_findings(text):
	lines = text.splitlines()
	hits = [i for i, l in enumerate(lines) if DMESG_BAD.search(l)]
	out, last = [], -1
	for i in hits[:20]:
		for j in range(max(i - 2, last + 1), min(i + 8, len(lines))):
			out.append(lines[j])
			last = j
		out.append('...')
	return hits, '\n'.join(out)


class KernelRun(pytest.Collector):
	"""e2e[LABEL]: build, boot one guest running the e2e suite, replay."""

	def __init__(self, *, label, **kw):
		super().__init__(**kw)
		self.label = label

	def _item(self, name, outcome='passed', text=''):
		return BridgeItem.from_parent(self, name=name, outcome=outcome, text=text)

	def collect(self):
		try:
			return list(self._collect())
		except Exception as e:	# never abort the whole session
			import traceback
			return [self._item('guest_run', 'failed',
					   'harness error:\n' + traceback.format_exc())]

	def _collect(self):
		capman = self.config.pluginmanager.getplugin('capturemanager')
		label = self.label
		out = os.path.realpath(guest.new_out_dir('check-' + label))
		build = os.environ.get('SSDLOAD_NO_BUILD') != '1'
		with capman.global_and_fixture_disabled():
			tw = self.config.get_terminal_writer()
			tw.line()
			tw.sep('=', f'e2e[{label}]: preparing the guest (output in {out})')
			try:
				kinfo, errors = guest.prepare(label, out, build=build)
			except guest.MissingPrerequisite as e:
				yield self._item('guest_run', 'skipped', str(e))
				return
			if build:
				yield self._item('build', 'failed' if errors else 'passed',
						 '\n\n'.join(errors))
			if errors:
				yield self._item('guest_run', 'skipped',
						 'not booted: building the module or the CLI failed')
				return
			cmd = guest.e2e_command(out)
			res = guest.run_guest(kinfo, cmd, out, stream=True)
			tw.sep('=', f'e2e[{label}]: guest done in {res.duration:.0f} s, rc={res.rc}')

		junit = os.path.join(out, 'junit-e2e.xml')
		tail = res.console_tail(80)
		if res.rc is None:
			why = (f'the guest timed out after {guest.DEFAULT_TIMEOUT} s and was killed'
			       if res.timed_out else
			       f'the guest wrote no rc (crash or early exit; qemu exit {res.qemu_rc})')
			err = res.init_error()
			if err:
				why += f'\n/init said: {err}'
			yield self._item('guest_run', 'failed',
					 f'{why}\nconsole tail ({res.console}):\n{tail}')
		elif not os.path.exists(junit) or res.rc in PYTEST_EXIT:
			yield self._item('guest_run', 'failed',
					 f'pytest in the guest exited {res.rc} '
					 f'({PYTEST_EXIT.get(res.rc, "no junit xml")})\n'
					 f'console tail ({res.console}):\n{tail}')
		else:
			yield self._item('guest_run')

		if os.path.exists(res.dmesg):
			with open(res.dmesg, errors='replace') as f:
				hits, ctx = dmesg_findings(f.read())
			yield self._item('dmesg_clean', 'failed' if hits else 'passed',
					 f'{len(hits)} bad line(s) in {res.dmesg}:\n{ctx}')
		else:
			with open(res.console, errors='replace') as f:
				hits, ctx = dmesg_findings(f.read())
			yield self._item('dmesg_clean', 'failed' if hits else 'skipped',
					 f'{len(hits)} bad line(s) on the console:\n{ctx}' if hits
					 else 'the guest wrote no dmesg.txt (see guest_run)')

		if not os.path.exists(junit) and os.path.exists(res.console):
			for mod, cases in parse_console(res.console).items():
				yield GuestModule.from_parent(self, name=mod, cases=cases)
		if os.path.exists(junit):
			try:
				mods = parse_junit(junit, guest.e2e_dir())
			except ET.ParseError as e:
				yield self._item('junit', 'failed', f'cannot parse {junit}: {e}')
				return
			for mod, cases in mods.items():
				yield GuestModule.from_parent(self, name=mod, cases=cases)


class GuestFile(pytest.File):
	"""tests/test_guest.py: one KernelRun per kernel in SSDLOAD_KERNELS."""

	def collect(self):
		for label in kernels():
			yield KernelRun.from_parent(self, name=f'e2e[{label}]', label=label)
