# SPDX-License-Identifier: GPL-2.0
"""The pts reports that the 6.12 guest leaves to the host.

tests/e2e/test_pts.py runs its scaled pts tests with --no-report and, under
the bridge, appends one request per test to $SSDLOAD_OUT/host-render.jsonl
(tests/e2e/lib/pts_report.py); the bridge (tests/qemu/bridge.py) turns each
line into the item e2e[LABEL]::host-render::<file>.py::<test>, which renders
the kept run directory with `ssdload report DIR` and checks the report.
These tests check the requests (written, parsed, refused), the checks of a
report (each one fails on what it is about), and the bridge's render step:
with a fake CLI for its failure paths and with the real CLI and renderer on
a synthetic throughput run.
"""
import json
import os
import stat
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, 'tests', 'qemu'))
sys.path.insert(0, os.path.join(REPO, 'tests', 'e2e', 'lib'))

import bridge		# noqa: E402
import pts_report	# noqa: E402
from pts_docs import throughput_doc	# noqa: E402
from report import have_matplotlib	# noqa: E402

TEST = 'tests/e2e/test_pts.py::test_dirth_scaled'
PLOTS = ['a.svg', 'b.svg']
SVG = '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>\n'


def good_html(plots=PLOTS, extra=''):
	imgs = ''.join(f'<img src="plots/{p}" alt="{p}">\n' for p in plots)
	return ('<html><body><h1>SNIA SSS PTS 2.0.2</h1><p>NOT CONFORMANT</p>\n' + imgs +
		'<p>MaxIOPS at T2Q4</p>' + extra + '<p>' + 'x' * 1000 + '</p></body></html>\n')


def write_report(d, html=None, plots=PLOTS, svg=SVG, csvs=None):
	os.makedirs(os.path.join(d, 'plots'), exist_ok=True)
	with open(os.path.join(d, 'report.html'), 'w') as f:
		f.write(good_html(plots) if html is None else html)
	for p in plots:
		with open(os.path.join(d, 'plots', p), 'w') as f:
			f.write(svg)
	for name, n in (csvs or {}).items():
		with open(os.path.join(d, name), 'w') as f:
			f.write(''.join(f'{i},1\n' for i in range(n)))


# --------------------------------------------------------------------------
# requests

def test_request_line_round_trip(tmp_path):
	out = str(tmp_path)
	d = os.path.join(out, 'pts', 'dirth')
	pts_report.append_request(out, TEST, d, PLOTS, ['MaxIOPS', 'T2Q4'])
	pts_report.append_request(out, 'tests/e2e/test_pts.py::test_iops_scaled',
				  os.path.join(out, 'pts', 'iops'), ['c.svg'],
				  csv_lines={'measurement.csv': 8})
	with open(os.path.join(out, pts_report.REQUESTS)) as f:
		text = f.read()
	assert text.count('\n') == 2
	reqs = pts_report.parse_requests(text)
	assert [(n, e) for n, _, e in reqs] == [('test_pts.py::test_dirth_scaled', None),
						('test_pts.py::test_iops_scaled', None)]
	assert reqs[0][1] == {'test': TEST, 'dir': d, 'plots': PLOTS,
			      'expect': ['MaxIOPS', 'T2Q4'], 'csv_lines': {}}
	assert reqs[1][1]['csv_lines'] == {'measurement.csv': 8}
	assert bridge.host_render_requests(out) == reqs


@pytest.mark.parametrize('kw,msg', [
	({'d': 'relative/dir'}, 'absolute'),
	({'test': ''}, 'test is empty'),
	({'plots': ['../x.svg']}, 'bad plot name'),
	({'plots': ['']}, 'bad plot name'),
	({'expect': ['']}, 'empty string'),
	({'csv_lines': {'x.txt': 2}}, 'bad CSV name'),
	({'csv_lines': {'x.csv': 0}}, 'bad line count'),
	({'csv_lines': {'x.csv': True}}, 'bad line count'),
])
def test_request_line_refuses_bad_requests(kw, msg):
	args = {'test': TEST, 'd': '/out/pts/dirth', 'plots': PLOTS, 'expect': (),
		'csv_lines': None}
	args.update(kw)
	with pytest.raises(ValueError, match=msg):
		pts_report.request_line(args['test'], args['d'], args['plots'], args['expect'],
					args['csv_lines'])


def test_parse_requests_errors_reruns_and_names():
	good = json.loads(pts_report.request_line(TEST, '/o/pts/dirth', PLOTS))
	rerun = dict(good, plots=['c.svg'])
	param = dict(good, test='tests/e2e/test_pts.py::test_x[a/b::c]')
	lines = [json.dumps(good), '', '{not json', json.dumps(dict(good, extra=1)),
		 json.dumps({k: v for k, v in good.items() if k != 'plots'}),
		 json.dumps(dict(good, plots='a.svg')), '[1, 2]', json.dumps(param),
		 json.dumps(rerun), '  ']
	reqs = pts_report.parse_requests('\n'.join(lines))
	names = [n for n, _, _ in reqs]
	# the rerun's request replaces the first one and goes last
	assert names == ['line 3', 'line 4', 'line 5', 'line 6', 'line 7',
			 'test_pts.py::test_x[a/b::c]', 'test_pts.py::test_dirth_scaled']
	errs = {n: e for n, r, e in reqs if r is None}
	assert set(errs) == {'line 3', 'line 4', 'line 5', 'line 6', 'line 7'}
	assert 'not JSON' in errs['line 3']
	assert "unknown ['extra']" in errs['line 4']
	assert "missing ['plots']" in errs['line 5']
	assert 'plots is a str, not a list' in errs['line 6']
	assert 'not a JSON object' in errs['line 7']
	assert reqs[-1][1]['plots'] == ['c.svg'] and reqs[-1][2] is None
	assert pts_report.parse_requests('') == []


def test_no_file_no_items_and_an_empty_file_no_items(tmp_path):
	assert bridge.host_render_requests(str(tmp_path)) is None
	(tmp_path / pts_report.REQUESTS).write_text('')
	assert bridge.host_render_requests(str(tmp_path)) == []


def test_host_renders_needs_the_bridge_and_an_output_share(monkeypatch, tmp_path):
	monkeypatch.delenv('SSDLOAD_HOST_RENDER', raising=False)
	monkeypatch.setenv('SSDLOAD_OUT', str(tmp_path))
	assert pts_report.host_renders() is None	# guest.py by hand: render in place
	monkeypatch.setenv('SSDLOAD_HOST_RENDER', '1')
	assert pts_report.host_renders() == str(tmp_path)
	monkeypatch.delenv('SSDLOAD_OUT')
	assert pts_report.host_renders() is None


# --------------------------------------------------------------------------
# the checks of a report

def test_check_report_passes_a_good_report(tmp_path):
	d = str(tmp_path)
	write_report(d, csvs={'series.csv': 41})
	text = pts_report.check_report(d, PLOTS, ['MaxIOPS', 'T2Q4'], {'series.csv': 41})
	assert 'plots/a.svg' in text


def _break(d, what):
	if what == 'no html':
		os.unlink(os.path.join(d, 'report.html'))
	elif what == 'short html':
		with open(os.path.join(d, 'report.html'), 'w') as f:
			f.write('<html>SNIA SSS PTS 2.0.2 NOT CONFORMANT plots/a.svg plots/b.svg</html>')
	elif what == 'missing img':
		write_report(d, html=good_html(extra='<img class="x" src="plots/gone.svg">'))
	elif what == 'no plot':		# named by a link, not an <img>
		write_report(d, html=good_html(plots=['a.svg'], extra='<a href="plots/b.svg">b</a>'))
		os.unlink(os.path.join(d, 'plots', 'b.svg'))
	elif what == 'bad svg':
		with open(os.path.join(d, 'plots', 'a.svg'), 'w') as f:
			f.write('<svg><rect></svg>')
	elif what == 'plot not in html':
		write_report(d, html=good_html(plots=['a.svg']))
	elif what in ('no spec', 'conformant', 'no MaxIOPS'):
		old = {'no spec': 'SNIA SSS PTS 2.0.2', 'conformant': 'NOT CONFORMANT',
		       'no MaxIOPS': 'MaxIOPS'}[what]
		write_report(d, html=good_html().replace(old, 'something else'))
	elif what == 'no csv':
		os.unlink(os.path.join(d, 'series.csv'))
	elif what == 'short csv':
		write_report(d, csvs={'series.csv': 40})


@pytest.mark.parametrize('what,msg', [
	('no html', 'no report.html'),
	('short html', 'bytes only'),
	('missing img', 'refers to missing plots/gone.svg'),
	('no plot', 'no plot b.svg'),
	('bad svg', 'plots/a.svg is not well-formed SVG'),
	('plot not in html', 'b.svg is not in report.html'),
	('no spec', 'does not name SNIA SSS PTS 2.0.2'),
	('conformant', 'NOT CONFORMANT'),
	('no MaxIOPS', "lacks 'MaxIOPS'"),
	('no csv', 'no series.csv'),
	('short csv', 'series.csv has 40 lines, not 41'),
])
def test_check_report_fails_on_each_defect(tmp_path, what, msg):
	d = str(tmp_path)
	write_report(d, csvs={'series.csv': 41})
	_break(d, what)
	with pytest.raises(AssertionError, match=msg.replace('.', r'\.')):
		pts_report.check_report(d, PLOTS, ['MaxIOPS', 'T2Q4'], {'series.csv': 41})


# --------------------------------------------------------------------------
# the bridge's render step, with a fake CLI

FAKE_CLI = r'''#!@PYTHON@
# fake `ssdload report DIR` of tests/unit/test_host_render.py
import os, sys
assert sys.argv[1] == 'report', sys.argv
d = sys.argv[2]
with open(os.path.join(d, 'calls'), 'a') as f:
	f.write(os.environ.get('SSDLOAD_REPORT', '') + '\n')
mode = os.environ.get('FAKE_REPORT', 'good')
if mode == 'fail':
	sys.stderr.write('ssdload-report.py: internal error rendering: KeyError\n')
	sys.exit(1)
os.makedirs(os.path.join(d, 'plots'), exist_ok=True)
plots = ['a.svg'] if mode == 'one-plot' else ['a.svg', 'b.svg']
imgs = ''.join('<img src="plots/%s">' % p for p in plots)
with open(os.path.join(d, 'report.html'), 'w') as f:
	f.write('<html>SNIA SSS PTS 2.0.2 NOT CONFORMANT MaxIOPS ' + imgs + 'x' * 1000 + '</html>')
for p in plots:
	with open(os.path.join(d, 'plots', p), 'w') as f:
		f.write('<svg xmlns="http://www.w3.org/2000/svg"/>')
'''


@pytest.fixture
def fake(tmp_path):
	"""(out, run dir with a pts.json, fake CLI, request)."""
	out = tmp_path / 'out'
	d = out / 'pts' / 'dirth'
	d.mkdir(parents=True)
	(d / 'pts.json').write_text('{}')
	cli = tmp_path / 'ssdload'
	cli.write_text(FAKE_CLI.replace('@PYTHON@', sys.executable))
	cli.chmod(cli.stat().st_mode | stat.S_IXUSR)
	req = json.loads(pts_report.request_line(TEST, str(d), PLOTS, ['MaxIOPS']))
	return str(out), str(d), str(cli), req


def test_render_and_check_renders_with_the_repo_renderer(fake):
	out, d, cli, req = fake
	bridge.render_and_check(req, cli, out)
	with open(os.path.join(d, 'calls')) as f:
		assert f.read() == os.path.join(bridge.guest.REPO, 'userspace',
						'ssdload-report.py') + '\n'


def test_render_and_check_fails_on_a_failed_render(fake, monkeypatch):
	out, d, cli, req = fake
	monkeypatch.setenv('FAKE_REPORT', 'fail')
	with pytest.raises(bridge.HostRenderFailure) as e:
		bridge.render_and_check(req, cli, out)
	assert f'{cli} report {d} exited 1 (the report of {TEST})' in str(e.value)
	assert 'internal error rendering: KeyError' in str(e.value)


def test_render_and_check_sees_only_its_own_render(fake, monkeypatch):
	"""A plot left from an earlier render does not hide one that this render
	did not draw: report.html and plots/ go before the render."""
	out, d, cli, req = fake
	write_report(d)			# b.svg and a report that names it
	monkeypatch.setenv('FAKE_REPORT', 'one-plot')
	with pytest.raises(bridge.HostRenderFailure, match='no plot b.svg'):
		bridge.render_and_check(req, cli, out)
	assert not os.path.exists(os.path.join(d, 'plots', 'b.svg'))


def test_render_and_check_fails_on_a_missing_expected_string(fake):
	out, _, cli, req = fake
	req['expect'] = ['T2Q4']
	with pytest.raises(bridge.HostRenderFailure, match="lacks 'T2Q4'"):
		bridge.render_and_check(req, cli, out)


@pytest.mark.parametrize('case,msg', [
	('outside', 'is not in the guest\'s output directory'),
	('no json', 'no pts.json in'),
	('no cli', 'no executable CLI'),
])
def test_render_and_check_refuses(fake, tmp_path, case, msg):
	out, d, cli, req = fake
	if case == 'outside':
		other = tmp_path / 'elsewhere'
		other.mkdir()
		(other / 'pts.json').write_text('{}')
		req['dir'] = str(other)
	elif case == 'no json':
		os.unlink(os.path.join(d, 'pts.json'))
	else:
		cli = os.path.join(out, 'ssdload')
	with pytest.raises(bridge.HostRenderFailure, match=msg):
		bridge.render_and_check(req, cli, out)
	assert not os.path.exists(os.path.join(d, 'calls'))


# --------------------------------------------------------------------------
# the real CLI and renderer

def test_render_and_check_with_the_real_renderer(cli, tmp_path):
	if not have_matplotlib():
		pytest.skip('/usr/bin/python3 has no matplotlib (apt install python3-matplotlib)')
	out = tmp_path / 'out'
	d = out / 'pts' / 'throughput'
	d.mkdir(parents=True)
	(d / 'pts.json').write_text(json.dumps(throughput_doc()))
	plots = ['ss_convergence.svg', 'ss_window.svg']
	req = json.loads(pts_report.request_line(
		'tests/e2e/test_pts.py::test_throughput_scaled', str(d), plots,
		csv_lines={'rounds.csv': 1 + 6}))
	bridge.render_and_check(req, cli, str(out))
	assert os.path.getsize(d / 'report.html') > 1000
	# a string the report lacks, a CSV of another length: failures
	req['expect'] = ['Write saturation']
	with pytest.raises(bridge.HostRenderFailure, match="lacks 'Write saturation'"):
		bridge.render_and_check(req, cli, str(out))
	req['expect'], req['csv_lines'] = [], {'rounds.csv': 6}
	with pytest.raises(bridge.HostRenderFailure, match='rounds.csv has 7 lines, not 6'):
		bridge.render_and_check(req, cli, str(out))
