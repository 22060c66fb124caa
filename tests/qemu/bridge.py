# SPDX-License-Identifier: GPL-2.0
"""Host-side pytest bridge: one guest per kernel runs tests/e2e (and, on the
debug kernel, the KUnit suites of ssdload_test.ko and a kmemleak scan), and
every guest test case is replayed as a host pytest item, so the guests
of `make check` end in one summary.  Loaded by tests/conftest.py for tests/test_guest.py.

Node ids: tests/test_guest.py::e2e[6.1]::build
          tests/test_guest.py::e2e[6.1]::guest_run
          tests/test_guest.py::e2e[6.1]::dmesg_clean
          tests/test_guest.py::e2e[6.1]::test_counts.py::test_exact_counts[randread]
          tests/test_guest.py::e2e[debug]::kmemleak_clean
          tests/test_guest.py::e2e[6.12]::host-render::test_pts.py::test_iops_scaled
          tests/test_guest.py::kunit[debug]::load
          tests/test_guest.py::kunit[debug]::ssdload_hist::test_round_trip
          tests/test_guest.py::kunit[debug]::ssdload_mix::test_read_share::rwmixread=5

One guest boots per kernel label, whatever it runs; the items about the
guest itself (build, guest_run, dmesg_clean, kmemleak_clean) go under
e2e[LABEL] when the e2e suite runs there, else under kunit[LABEL].

host-render items run on the host: the guest's scaled pts runs skip their
HTML report (matplotlib under TCG is slow) and ask, in
$SSDLOAD_OUT/host-render.jsonl, for it to be rendered and checked here
(tests/e2e/lib/pts_report.py).
"""

import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import guest		# noqa: E402
# the report checks of tests/e2e/test_pts.py, the same in the guest and here
sys.path.append(os.path.join(guest.REPO, 'tests', 'e2e', 'lib'))
import pts_report	# noqa: E402

# Lines in the guest's dmesg that fail the run.
DMESG_BAD = re.compile('|'.join([
	r'BUG:', r'WARNING:', r'\bOops\b', r'KASAN', r'UBSAN', r'kernel BUG',
	# KASAN: "BUG: KASAN: slab-use-after-free in ..."
	r'BUG: KASAN',
	# lockdep: "WARNING: possible circular locking dependency detected",
	# "INFO: possible irq lock inversion dependency detected", ...; a taint
	# (any earlier splat) also turns lockdep off for the rest of the run
	r'WARNING: possible', r'INFO: possible', r'INFO: lockdep',
	r'possible circular locking', r'Disabling lock debugging',
	# kmemleak (the scan itself is the kmemleak_clean item)
	r'unreferenced object', r'new suspected memory leaks',
	r'^(?:\[[^]]*\] *)?kmemleak: (?!Kernel memory leak detector initialized)',
	# DEBUG_OBJECTS: "ODEBUG: free active (active state 0) object: ..."
	r'ODEBUG',
	r'hung task', r'blocked for more than \d+ seconds', r'general protection',
	r'Call Trace', r'detected stalls?\b',
]))

PYTEST_EXIT = {2: 'interrupted', 3: 'internal error', 4: 'usage error (e2e dir missing?)',
	       5: 'no tests collected'}


def _labels(var, default):
	return os.environ.get(var, default).replace(',', ' ').split()


def kernels():
	"""Kernel labels whose guest runs the e2e suite."""
	return _labels('SSDLOAD_KERNELS', '6.1 6.12 debug')


def kunit_kernels():
	"""Kernel labels whose guest runs the KUnit suites (needs CONFIG_KUNIT)."""
	return _labels('SSDLOAD_KUNIT_KERNELS', 'debug')


# label -> {'passed': n, 'failed': n, 'skipped': n, 'cases': n}: the KUnit
# results replayed in this session, for the terminal summary (conftest.py)
KUNIT_COUNTS = {}


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
			if not (self.location_ and self.location_[1] is not None):
				pytest.skip(self.text)	# no guest file:line to point at
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
			# xunit1 paths are relative to the guest's pytest rootdir: the
			# repo (the guest runs from it), else the suite's directory
			rel = f
			f = os.path.normpath(os.path.join(guest.REPO, rel))
			if not os.path.exists(f):
				f = os.path.normpath(os.path.join(e2e_dir, rel))
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


KTAP_RESULT = re.compile(r'^(\s*)(not ok|ok) (\d+)(?: - | )?(.*?)\s*(?:#\s*(SKIP|TODO)\b\s*(.*))?$')
KTAP_SUBTEST = re.compile(r'^(\s*)# Subtest: (.*?)\s*$')
KTAP_NOISE = re.compile(r'^\s*(KTAP version \d+|TAP version \d+|\d+\.\.\d+)\s*$')


def parse_ktap(text):
	"""[(path, outcome, diagnostics)] of every result line of a KTAP
	document, in order: path is (suite, case[, sub-case]) by nesting; the
	diagnostics are the lines since the previous result line."""
	names, results, diag = {}, [], []
	for line in text.replace('\r', '').splitlines():
		m = KTAP_SUBTEST.match(line)
		if m:
			names[len(m.group(1).expandtabs())] = m.group(2)
			continue
		m = KTAP_RESULT.match(line)
		if not m:
			if line.strip() and not KTAP_NOISE.match(line):
				diag.append(line)
			continue
		indent = len(m.group(1).expandtabs())
		path = tuple(names[k] for k in sorted(names) if 0 < k <= indent) + (m.group(4),)
		if m.group(5) == 'SKIP':
			outcome = 'skipped'
		else:
			outcome = 'passed' if m.group(2) == 'ok' else 'failed'
		text = '\n'.join(l.strip() for l in diag)
		if m.group(5) == 'SKIP':
			text = m.group(6) or text or 'skipped by KUnit'
		results.append((path, outcome, text))
		diag = []
	return results


class ReplayGroup(pytest.Collector):
	"""A node of replayed results: children are ('item', name, kwargs) or
	('group', name, children)."""

	def __init__(self, *, children, **kw):
		super().__init__(**kw)
		self.children = children

	def collect(self):
		for kind, name, spec in self.children:
			if kind == 'item':
				yield BridgeItem.from_parent(self, name=name, **spec)
			else:
				yield ReplayGroup.from_parent(self, name=name, children=spec)


def ktap_tree(results, source):
	"""Nest parse_ktap() results under their suite (and case): a result with
	children becomes a group, a leaf an item.  A failed parent whose
	children all passed (a failing init or exit) also gets an item."""
	paths = {r[0] for r in results}
	parents = {p[:i] for p in paths for i in range(1, len(p))}
	root = {}
	order = []

	def node(path):
		d = root
		for name in path:
			d = d.setdefault(name, {})
		return d

	failed_below = set()
	for path, outcome, _ in results:
		if outcome == 'failed':
			for i in range(1, len(path)):
				failed_below.add(path[:i])
	for path, outcome, text in results:
		kw = {'outcome': outcome, 'text': text}
		if outcome == 'failed':
			kw['text'] = f'KUnit: not ok ({source})\n{text}'
		if path in parents:
			if outcome == 'failed' and path not in failed_below:
				node(path)[('item', 'result')] = kw
				order.append(path + ('result',))
			continue
		node(path[:-1])[('item', path[-1])] = kw
		order.append(path)

	def build(d):
		out = []
		for key, val in d.items():
			if isinstance(key, tuple):
				out.append(('item', key[1], val))
			else:
				out.append(('group', key, build(val)))
		return out
	return build(root), order


class GuestSession:
	"""One guest per kernel label: build, boot, run every phase the session
	asks of that label (kunit, e2e, kmemleak), then hand out the items."""

	runs = {}

	def __init__(self, label):
		self.label = label
		self.phases = (['kunit'] if label in kunit_kernels() else []) + \
			(['e2e'] if label in kernels() else []) + ['kmemleak']
		self.owner = 'e2e' if 'e2e' in self.phases else 'kunit'
		self.skip = None	# reason the guest did not run (missing prerequisite)
		self.errors = []	# build errors
		self.build = False
		self.res = None
		self.out = None

	@classmethod
	def get(cls, collector, label):
		if label not in cls.runs:
			sess = cls(label)
			sess.run(collector)
			cls.runs[label] = sess
		return cls.runs[label]

	def run(self, collector):
		capman = collector.config.pluginmanager.getplugin('capturemanager')
		label = self.label
		self.out = out = os.path.realpath(guest.new_out_dir('check-' + label))
		self.build = os.environ.get('SSDLOAD_NO_BUILD') != '1'
		with capman.global_and_fixture_disabled():
			tw = collector.config.get_terminal_writer()
			tw.line()
			tw.sep('=', f'{label}: preparing the guest for {" + ".join(self.phases)} '
				    f'(output in {out})')
			try:
				kinfo, self.errors = guest.prepare(label, out, build=self.build)
			except guest.MissingPrerequisite as e:
				self.skip = str(e)
				return
			if self.errors:
				return
			cmd = guest.check_command(out, self.phases)
			# the scaled pts runs leave their reports to the host
			# (host-render items)
			self.res = guest.run_guest(kinfo, cmd, out, stream=True,
						   timeout=guest.timeout_for(label),
						   env={'SSDLOAD_HOST_RENDER': '1'})
			boots = ', booted twice' if self.res.attempts > 1 else ''
			tw.sep('=', f'{label}: guest done in {self.res.duration:.0f} s, '
				    f'rc={self.res.rc}, {self.res.accel.upper()}{boots}')

	def path(self, name):
		return os.path.join(self.out, name)

	def session_items(self, parent):
		"""build, guest_run, dmesg_clean, kmemleak_clean."""
		item = parent._item
		if self.skip:
			yield item('guest_run', 'skipped', self.skip)
			return
		if self.build:
			yield item('build', 'failed' if self.errors else 'passed',
				   '\n\n'.join(self.errors))
		if self.errors:
			yield item('guest_run', 'skipped',
				   'not booted: building the module or the CLI failed')
			return
		res = self.res
		junit = self.path('junit-e2e.xml')
		if res.rc is None:
			# why, the first boot if it was retried, /init's error, the
			# console tail and qemu's stderr tail
			yield item('guest_run', 'failed', res.report(console_lines=80))
		elif 'e2e' in self.phases and (not os.path.exists(junit) or res.rc in PYTEST_EXIT):
			yield item('guest_run', 'failed',
				   f'pytest in the guest exited {res.rc} '
				   f'({PYTEST_EXIT.get(res.rc, "no junit xml")})\n'
				   f'console tail ({res.console}):\n{res.console_tail(80)}'
				   f'{res.qemu_stderr_tail()}')
		else:
			yield item('guest_run')

		# timing tests that failed once and were run again (tests/e2e/conftest.py)
		reruns = self.path('reruns.txt')
		if os.path.exists(reruns):
			with open(reruns, errors='replace') as f:
				lines = [ln.strip() for ln in f if ln.strip()]
			if lines:
				yield item('reruns', 'skipped',
					   f'{len(lines)} timing test run(s) failed once and were run '
					   'again (its final outcome is its own item): ' + '; '.join(lines))

		if os.path.exists(res.dmesg):
			with open(res.dmesg, errors='replace') as f:
				hits, ctx = dmesg_findings(f.read())
			yield item('dmesg_clean', 'failed' if hits else 'passed',
				   f'{len(hits)} bad line(s) in {res.dmesg}:\n{ctx}')
		else:
			try:
				with open(res.console, errors='replace') as f:
					text = f.read()
			except FileNotFoundError:	# qemu died before it opened it
				text = ''
			hits, ctx = dmesg_findings(text)
			yield item('dmesg_clean', 'failed' if hits else 'skipped',
				   f'{len(hits)} bad line(s) on the console:\n{ctx}' if hits
				   else 'the guest wrote no dmesg.txt (see guest_run)')

		report = self.path('kmemleak.txt')
		if os.path.exists(report):
			with open(report, errors='replace') as f:
				text = f.read()
			leaks = text.count('unreferenced object')
			yield item('kmemleak_clean', 'failed' if text.strip() else 'passed',
				   f'kmemleak: {leaks} unreferenced object(s) after the tests and '
				   f'rmmod ssdload ({report}):\n{text[:20000]}')
		elif not os.path.exists(self.path('kmemleak.unavailable')):
			yield item('kmemleak_clean', 'failed' if self.label == 'debug' else 'skipped',
				   'the guest took no kmemleak scan (crash or timeout? see guest_run)')
		elif self.label == 'debug':
			with open(self.path('kmemleak.unavailable')) as f:
				yield item('kmemleak_clean', 'failed', f.read().strip())


class _LabelRun(pytest.Collector):
	def __init__(self, *, label, **kw):
		super().__init__(**kw)
		self.label = label

	def _item(self, name, outcome='passed', text=''):
		return BridgeItem.from_parent(self, name=name, outcome=outcome, text=text)

	def collect(self):
		try:
			return list(self._collect())
		except Exception:	# never abort the whole session
			import traceback
			return [self._item('guest_run', 'failed',
					   'harness error:\n' + traceback.format_exc())]


# `ssdload report DIR` of one scaled pts run on the host (seconds)
RENDER_TIMEOUT = 600


class HostRenderFailure(Exception):
	"""A host-render item's failure, shown as it is."""


def render_and_check(req, cli, out):
	"""Render the report of the request REQ (pts_report) with CLI, as the
	guest would have, and check it; raises HostRenderFailure."""
	d = os.path.realpath(req['dir'])
	if not d.startswith(os.path.realpath(out) + os.sep):
		raise HostRenderFailure(f'{req["dir"]} is not in the guest\'s output directory {out}')
	if not os.path.isfile(os.path.join(d, 'pts.json')):
		raise HostRenderFailure(f'no pts.json in {d}')
	if not os.access(cli, os.X_OK):
		raise HostRenderFailure(f'no executable CLI {cli}')
	# what a render writes: gone first, so that the checks see this render
	for p in pts_report.rendered_files(d, req['csv_lines']):
		if os.path.isdir(p) and not os.path.islink(p):
			shutil.rmtree(p)
		elif os.path.lexists(p):
			os.unlink(p)
	cmd = [cli, 'report', d]
	env = dict(os.environ, SSDLOAD_REPORT=os.path.join(guest.REPO, 'userspace',
							   'ssdload-report.py'))
	try:
		p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
				   stdin=subprocess.DEVNULL, universal_newlines=True, env=env,
				   timeout=RENDER_TIMEOUT)
	except subprocess.TimeoutExpired:
		raise HostRenderFailure(f'{" ".join(cmd)}: no exit in {RENDER_TIMEOUT} s') from None
	if p.returncode != 0:
		raise HostRenderFailure(f'{" ".join(cmd)} exited {p.returncode} (the report of '
					f'{req["test"]})\n{p.stderr}{p.stdout}')
	try:
		pts_report.check_report(d, req['plots'], req['expect'], req['csv_lines'])
	except AssertionError as e:
		raise HostRenderFailure(f'the report of {req["test"]}, rendered on the host in '
					f'{d}: {e}') from None


class HostRenderItem(pytest.Item):
	"""e2e[LABEL]::host-render::<file>.py::<test>: renders the report of a
	scaled pts run that the guest kept in its output share, with the CLI
	the guest ran and the repo's renderer, and checks it as the guest test
	asked (render_and_check)."""

	def __init__(self, *, req=None, error=None, cli=None, out=None, **kw):
		super().__init__(**kw)
		self.req = req		# a request of host-render.jsonl, or None
		self.error = error	# why the line is no valid request
		self.cli = cli		# the CLI the guest ran ($OUT/ssdload)
		self.out = out		# the guest's output directory

	def runtest(self):
		if self.error:
			raise HostRenderFailure(f'{pts_report.REQUESTS}: {self.error}')
		render_and_check(self.req, self.cli, self.out)

	def repr_failure(self, excinfo, style=None):
		if isinstance(excinfo.value, HostRenderFailure):
			return str(excinfo.value)
		return super().repr_failure(excinfo)

	def reportinfo(self):
		return self.path, None, self.nodeid.split('::', 1)[-1]


class HostRenderGroup(pytest.Collector):
	"""e2e[LABEL]::host-render: one item per line of host-render.jsonl."""

	def __init__(self, *, requests, cli, out, **kw):
		super().__init__(**kw)
		self.requests = requests	# pts_report.parse_requests()
		self.cli = cli
		self.out = out

	def collect(self):
		for name, req, err in self.requests:
			yield HostRenderItem.from_parent(self, name=name, req=req, error=err,
							 cli=self.cli, out=self.out)


def host_render_requests(out):
	"""parse_requests() of OUT/host-render.jsonl; None without the file."""
	path = os.path.join(out, pts_report.REQUESTS)
	if not os.path.exists(path):
		return None
	with open(path, errors='replace') as f:
		return pts_report.parse_requests(f.read())


class KernelRun(_LabelRun):
	"""e2e[LABEL]: the guest's session items (see GuestSession), one item
	per e2e test case and one per report the guest left to the host
	(host-render)."""

	def _collect(self):
		sess = GuestSession.get(self, self.label)
		if sess.owner == 'e2e':
			yield from sess.session_items(self)
		if sess.skip or sess.errors or sess.res is None:
			return
		junit = sess.path('junit-e2e.xml')
		if not os.path.exists(junit) and os.path.exists(sess.res.console):
			for mod, cases in parse_console(sess.res.console).items():
				yield GuestModule.from_parent(self, name=mod, cases=cases)
		if os.path.exists(junit):
			try:
				mods = parse_junit(junit, guest.e2e_dir())
			except ET.ParseError as e:
				yield self._item('junit', 'failed', f'cannot parse {junit}: {e}')
				mods = {}
			for mod, cases in mods.items():
				yield GuestModule.from_parent(self, name=mod, cases=cases)
		reqs = host_render_requests(sess.out)
		if reqs:
			yield HostRenderGroup.from_parent(self, name='host-render', requests=reqs,
							  cli=sess.path('ssdload'), out=sess.out)


class KunitRun(_LabelRun):
	"""kunit[LABEL]: ssdload_test.ko loaded in the guest; one item per KUnit
	case and parameterised sub-case, from the KTAP in
	/sys/kernel/debug/kunit/<suite>/results."""

	def _collect(self):
		sess = GuestSession.get(self, self.label)
		if sess.owner == 'kunit':
			yield from sess.session_items(self)
		if sess.skip:
			yield self._item('load', 'skipped', sess.skip)
			return
		if sess.errors or sess.res is None:
			yield self._item('load', 'skipped', 'not booted: the build failed')
			return
		kdir = sess.path('kunit')
		files = sorted(f for f in os.listdir(kdir) if f.endswith('.ktap')) \
			if os.path.isdir(kdir) else []
		err = os.path.join(kdir, 'error')
		if os.path.exists(err):
			with open(err, errors='replace') as f:
				yield self._item('load', 'failed', f.read())
		elif not files:
			yield self._item('load', 'failed',
					 'no KTAP results in the guest (crash or timeout? see '
					 f'guest_run)\nconsole tail ({sess.res.console}):\n'
					 f'{sess.res.console_tail(60)}{sess.res.qemu_stderr_tail()}')
		else:
			yield self._item('load')
		counts = KUNIT_COUNTS.setdefault(self.label, {'passed': 0, 'failed': 0,
							      'skipped': 0, 'cases': 0})
		for fname in files:
			path = os.path.join(kdir, fname)
			with open(path, errors='replace') as f:
				results = parse_ktap(f.read())
			tree, leaves = ktap_tree(results, path)
			outcome = {r[0]: r[1] for r in results}
			for leaf in leaves:
				counts[outcome.get(leaf, 'failed')] += 1
			counts['cases'] += sum(1 for r in results if len(r[0]) == 2)
			for kind, name, spec in tree:
				if kind == 'group':
					yield ReplayGroup.from_parent(self, name=name, children=spec)
				else:
					yield BridgeItem.from_parent(self, name=name, **spec)


class GuestFile(pytest.File):
	"""tests/test_guest.py: per kernel label, kunit[LABEL] (SSDLOAD_KUNIT_KERNELS)
	and e2e[LABEL] (SSDLOAD_KERNELS), from one guest per label."""

	def collect(self):
		labels = []
		for label in kernels() + kunit_kernels():
			if label not in labels:
				labels.append(label)
		for label in labels:
			if label in kunit_kernels():
				yield KunitRun.from_parent(self, name=f'kunit[{label}]', label=label)
			if label in kernels():
				yield KernelRun.from_parent(self, name=f'e2e[{label}]', label=label)
