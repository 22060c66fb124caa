#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""`make bench`: ssdload against fio and the floor module, in one guest.

Host side: builds ssdload.ko, the CLI and bench/floor for the stock Debian
6.1 kernel, boots ONE guest (tests/qemu/guest.py, 2 vCPUs, TCG or KVM) that
runs bench/guest_bench.py, then prints the table and the target ratios.
Results (results.json, table.txt, console.log, dmesg.txt) stay under
$SSDLOAD_CACHE/bench/<timestamp>/ (or BENCH_OUT).

Environment: BENCH_SECONDS (measured seconds per point, default 5),
BENCH_ROUNDS (default 3), BENCH_RAMP (default 1), BENCH_KERNEL (default 6.1),
BENCH_PERF=1 (add perf profiles of ssdload), BENCH_ONLY (comma-separated
parts of tool names: only those rows), BENCH_TIMEOUT (guest timeout, s),
BENCH_CMDLINE (guest kernel command line, default "tsc=reliable").

  bench/bench.py                 # boot, measure, print
  bench/bench.py --show DIR      # print the table of an earlier run
See Documentation/performance.rst.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.realpath(os.path.join(HERE, '..'))
sys.path.insert(0, os.path.join(REPO, 'tests', 'qemu'))

import guest		# noqa: E402

PASS_ENV = ('BENCH_SECONDS', 'BENCH_ROUNDS', 'BENCH_RAMP', 'BENCH_PERF', 'BENCH_ONLY')

def log(msg):
	print(f'bench: {msg}', file=sys.stderr, flush=True)


def build_floor(kinfo, out):
	"""Build bench/floor for the guest kernel in a copy of the tree."""
	bdir = os.path.join(guest.CACHE, 'build', 'bench-' + kinfo['KVER'])
	os.makedirs(bdir, exist_ok=True)
	excl = ['.git', '*.o', '*.ko', '*.mod', '*.mod.c', '.*.cmd', '*.order',
		'Module.symvers', '__pycache__', '/userspace/ssdload']
	subprocess.run(guest.RSYNC + [f'--exclude={e}' for e in excl] +
		       [REPO + '/', bdir + '/'], check=True)
	with open(bdir + '.log', 'w') as f:
		p = subprocess.run(['make', '-C', kinfo['KDIR'], 'M=' + os.path.join(bdir, 'bench', 'floor'),
				    'modules'], stdout=f, stderr=subprocess.STDOUT)
	ko = os.path.join(bdir, 'bench', 'floor', 'ssdload_floor.ko')
	if p.returncode or not os.path.exists(ko):
		raise guest.BuildError(f'building bench/floor failed, see {bdir}.log')
	return guest.snapshot(ko, out, 'ssdload_floor.ko')


def find(rows, tool, qd):
	for r in rows:
		if r['tool'] == tool and r['qd'] == qd and r.get('iops'):
			return r
	return None


def best(rows, tools, qd):
	cands = [r for r in (find(rows, t, qd) for t in tools) if r]
	return max(cands, key=lambda r: r['iops']) if cands else None


def fmt_cpu(v):
	return '%.0f' % v if v else '-'


def table(res):
	rows = res['rows']
	info = res['info']
	lines = []
	lines.append('ssdload bench: %s, %s CPUs, clocksource %s, %s; %g s x %d rounds (median)'
		     % (info['kernel'], info['ncpus'], info['clocksource'], info['fio'],
			info['seconds'], info['rounds']))
	lines.append('null_blk %s, 4k randread, one worker on CPU 0' % ' '.join(info['null_blk']))
	lines.append('')
	hdr = '%-40s %4s %10s %10s %9s %9s' % ('tool', 'QD', 'IOPS', 'CPU ns/IO',
						 'IOPS/ssd', 'CPU/ssd')
	lines.append(hdr)
	lines.append('-' * len(hdr))
	for r in rows:
		if not r.get('iops'):
			lines.append('%-40s %4d %10s  %s' % (r['tool'], r['qd'], 'FAILED',
							 '; '.join(r.get('errors', []))[:60]))
			continue
		ref = find(rows, 'ssdload', r['qd'])
		ri = rc = ''
		if ref and r['tool'] != 'ssdload':
			ri = '%.2f' % (r['iops'] / ref['iops'])
			if r.get('cpu_ns_per_io') and ref.get('cpu_ns_per_io'):
				rc = '%.2f' % (r['cpu_ns_per_io'] / ref['cpu_ns_per_io'])
		lines.append('%-40s %4d %10.0f %10s %9s %9s' % (r['tool'], r['qd'], r['iops'],
							      fmt_cpu(r.get('cpu_ns_per_io')), ri, rc))
	vl = verify_lines(rows)
	if vl:
		lines.append('')
		lines.extend(vl)
	lines.append('')
	lines.append('targets (median over rounds of the ratio within each round):')
	for label, ratio, thr, detail in targets(rows):
		if ratio is None:
			lines.append('  %-52s   n/a  (%s)' % (label, detail))
		elif thr is None:
			lines.append('  %-52s %5.2f  (calibration)  %s' % (label, ratio, detail))
		else:
			lines.append('  %-52s %5.2f  %s %s (%s)' % (label, ratio, '>=', thr,
								  'met' if ratio >= thr else 'MISSED')
				     + '  ' + detail)
	return '\n'.join(lines)


def csum_ns_per_kib(row):
	"""The module's own timing of its checksum (debugfs verify, at each
	run's end): median over rounds of ns per KiB, or None."""
	v = [s['verify_csum_ns'] * 1024 / s['verify_csum_bytes']
	     for s in (row or {}).get('samples', []) if s.get('verify_csum_bytes')]
	return statistics.median(v) if v else None


def verify_lines(rows):
	"""The checksum's cost per KiB written (the verify row's extra CPU per
	I/O over the plain row's, per KiB of the block) next to the kernel's
	own speed for that checksum, timed in the same guest."""
	out = []
	for tool, plain, kib in (('ssdload randwrite verify=crc32c', 'ssdload randwrite', 4),
				 ('ssdload randwrite verify=xxhash', 'ssdload randwrite', 4),
				 ('ssdload 128k write verify=crc32c', 'ssdload 128k write', 128)):
		r, p = find(rows, tool, 32), find(rows, plain, 32)
		if not r:
			continue
		own = csum_ns_per_kib(r)
		cost = None
		if p and r.get('cpu_ns_per_io') and p.get('cpu_ns_per_io'):
			cost = (r['cpu_ns_per_io'] - p['cpu_ns_per_io']) / kib
		out.append('  %-40s %s ns/KiB written over plain; kernel checksum %s ns/KiB'
			   % (tool, '%.0f' % cost if cost is not None else '-',
			      '%.0f' % own if own is not None else '-'))
	if out:
		out.insert(0, 'verify: extra CPU per KiB written, and the checksum alone (module, same guest):')
	return out


def paired(a, b, key='iops'):
	"""Median over rounds of a's @key / b's @key in the same round, and the
	(min, max) of those ratios; (None, None) without a common round."""
	ia = {x['round']: x[key] for x in a.get('samples', []) if x.get(key)}
	ib = {x['round']: x[key] for x in b.get('samples', []) if x.get(key)}
	rs = sorted(ia[r] / ib[r] for r in ia if r in ib and ib[r])
	if not rs:
		return None, None
	return statistics.median(rs), (rs[0], rs[-1])


def targets(rows):
	"""[(label, ratio or None, threshold or None, detail)].

	A ratio is the median over rounds of the two rows' ratio within each
	round (the points of a pair run back to back, see RUN_ORDER in
	guest_bench.py), not the ratio of the two medians: it cancels the slow
	drift of the guest's speed under TCG.  The detail gives the range over
	the rounds and the two rows' medians.
	"""
	out = []
	ssd = ('ssdload', 'ssdload hipri')
	floor = find(rows, 'floor', 1)
	s1 = best(rows, ssd, 1)
	s1i = find(rows, 'ssdload', 1)
	pv = find(rows, 'fio pvsync2', 1)

	def add(label, a, b, thr, key='iops'):
		if not (a and b):
			out.append((label, None, thr, 'a row is missing'))
			return
		ratio, rng = paired(a, b, key)
		if ratio is None:
			out.append((label, None, thr, 'no round has both rows'))
			return
		out.append((label, ratio, thr, 'rounds %.2f-%.2f; %s %.0f / %s %.0f%s' % (
			rng[0], rng[1], a['tool'], a[key] or 0, b['tool'], b[key] or 0,
			'' if key == 'iops' else ' ' + key)))

	add('QD1: ssdload (best mode) / floor', s1, floor, 0.9)
	add('QD1: ssdload (irq) / floor', s1i, floor, 0.9)
	add('QD1: ssdload (best mode) / fio pvsync2', s1, pv, 3.0)
	s32 = best(rows, ssd, 32)
	u32 = best(rows, ('fio io_uring', 'fio io_uring fixedbufs+regfiles+hipri'), 32)
	add('QD32: ssdload (best mode) / best fio io_uring', s32, u32, 3.0)
	add('QD32: ssdload (irq) / best fio io_uring', find(rows, 'ssdload', 32), u32, 3.0)
	add('histograms: ssdload lat on / disable_lat (QD32)', find(rows, 'ssdload', 32),
	    find(rows, 'ssdload disable_lat', 32), 0.9)
	add('scaling: 2 workers / 1 worker (QD32)', find(rows, 'ssdload 2 workers', 32),
	    find(rows, 'ssdload', 32), 1.7)
	add('scaling: 2 workers / 1 worker (QD1)', find(rows, 'ssdload 2 workers', 1),
	    find(rows, 'ssdload', 1), 1.7)
	# workload primitives: CPU per I/O of the plain job / of the feature
	# (>= 0.91 means the feature costs at most 10% more per I/O)
	add('cpu/IO: 4k randread / bssplit+zipf (QD32)', find(rows, 'ssdload', 32),
	    find(rows, 'ssdload bssplit+zipf', 32), 0.91, 'cpu_ns_per_io')
	add('cpu/IO: 4k randwrite / refill_buffers (QD32)', find(rows, 'ssdload randwrite', 32),
	    find(rows, 'ssdload randwrite refill_buffers', 32), 0.91, 'cpu_ns_per_io')
	# time: rate control and time series, CPU per I/O against the plain row
	add('cpu/IO: 4k randread / rate_iops at 50% (QD32)', find(rows, 'ssdload', 32),
	    find(rows, 'ssdload rate 50%', 32), 0.91, 'cpu_ns_per_io')
	add('cpu/IO: 4k randread / log_interval_ms=100 (QD32)', find(rows, 'ssdload', 32),
	    find(rows, 'ssdload log 100ms', 32), 0.97, 'cpu_ns_per_io')
	# steps: per-step accounting and the hand-overs, against the plain row
	add('cpu/IO: 4k randread / 4 steps (QD32)', find(rows, 'ssdload', 32),
	    find(rows, 'ssdload 4 steps', 32), 0.95, 'cpu_ns_per_io')
	# verify: stamping every written block, CPU per I/O against the plain
	# row (>= 0.8 means the checksum costs at most 1.25 x plain per I/O)
	rw32 = find(rows, 'ssdload randwrite', 32)
	add('cpu/IO: 4k randwrite / verify=crc32c (QD32)', rw32,
	    find(rows, 'ssdload randwrite verify=crc32c', 32), 0.8, 'cpu_ns_per_io')
	add('cpu/IO: 4k randwrite / verify=xxhash (QD32)', rw32,
	    find(rows, 'ssdload randwrite verify=xxhash', 32), 0.8, 'cpu_ns_per_io')
	add('cpu/IO: 128k write / verify=crc32c (QD32)', find(rows, 'ssdload 128k write', 32),
	    find(rows, 'ssdload 128k write verify=crc32c', 32), None, 'cpu_ns_per_io')
	# calibration, not targets: the platform's own limits
	add('calibration: floor / fio pvsync2 (QD1)', floor, pv, None)
	add('calibration: floor 2 CPUs / floor (the platform)', find(rows, 'floor 2 CPUs', 1),
	    floor, None)
	return out


def main(argv=None):
	ap = argparse.ArgumentParser(description='ssdload vs fio vs the floor module, one guest')
	ap.add_argument('--show', metavar='DIR', help='print the table of an earlier run')
	ap.add_argument('--no-build', action='store_true', help='use the modules built last time')
	args = ap.parse_args(argv)
	if args.show:
		with open(os.path.join(args.show, 'results.json')) as f:
			print(table(json.load(f)))
		return 0

	label = os.environ.get('BENCH_KERNEL', '6.1')
	out = os.path.realpath(os.environ.get('BENCH_OUT') or os.path.join(
		guest.CACHE, 'bench', time.strftime('%Y%m%d-%H%M%S')))
	os.makedirs(out, exist_ok=True)
	try:
		kinfo, errors = guest.prepare(label, out, build=not args.no_build)
		if errors:
			for e in errors:
				log(e)
			return 2
		floor = build_floor(kinfo, out)
	except guest.HarnessError as e:
		log(str(e))
		return 2
	# TCG's default guest clocksource is the HPET: every clock read is an
	# emulated MMIO access under qemu's global lock, an artefact no real
	# machine has.  The bench guest keeps the TSC (BENCH_CMDLINE overrides).
	os.environ['SSDLOAD_GUEST_CMDLINE'] = os.environ.get('BENCH_CMDLINE', 'tsc=reliable')
	# no boot-time block trace events: the tracepoints would cost per request
	os.environ['SSDLOAD_GUEST_TRACE'] = '0'
	env = {k: os.environ[k] for k in PASS_ENV if k in os.environ}
	env['BENCH_FLOOR_KO'] = floor
	secs = float(os.environ.get('BENCH_SECONDS', '5'))
	rounds = int(os.environ.get('BENCH_ROUNDS', '3'))
	timeout = int(os.environ.get('BENCH_TIMEOUT', str(int(600 + 22 * rounds * (secs + 6)))))
	log(f'one {label} guest, {rounds} rounds of {secs:g} s per point; output in {out}')
	res = guest.run_guest(kinfo, ['python3', 'bench/guest_bench.py'], out, timeout=timeout,
			      env=env, stream=True, nvme=False)
	path = os.path.join(out, 'results.json')
	if res.rc != 0 or not os.path.exists(path):
		log(f'guest run failed (rc={res.rc}, {res.why()}); console tail:')
		sys.stderr.write(res.console_tail())
		sys.stderr.write(res.qemu_stderr_tail())
		return 1
	with open(path) as f:
		res = json.load(f)
	text = table(res)
	# the same data as JSON: the rows (guest) plus the target ratios (host)
	res['targets'] = [{'target': label, 'ratio': ratio, 'threshold': thr,
			   'met': None if ratio is None or thr is None else ratio >= thr,
			   'detail': detail} for label, ratio, thr, detail in targets(res['rows'])]
	with open(path, 'w') as f:
		json.dump(res, f, indent=1)
	with open(os.path.join(out, 'table.txt'), 'w') as f:
		f.write(text + '\n')
	print(text)
	print(f'\n(results: {out})')
	return 0


if __name__ == '__main__':
	sys.exit(main())
