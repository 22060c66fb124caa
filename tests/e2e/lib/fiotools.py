# SPDX-License-Identifier: GPL-2.0
"""fio's own tools (Debian's fio package) on ssdload's output, for the
e2e tests and the host unit tests (tests/unit/test_cli_output.py) alike."""

import csv
import glob
import subprocess


def clat2csv(tool, src, stub):
    """Run fio_jsonplus_clat2csv on the json+ file @src, then its own
    --validate; returns (header, rows) of the one CSV it wrote (stub*)."""
    for extra in ([], ["--validate"]):
        p = subprocess.run([tool] + extra + [str(src), str(stub)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=300)
        assert p.returncode == 0, p.stderr
    files = glob.glob(str(stub) + "*")
    assert len(files) == 1, files
    with open(files[0]) as f:
        rows = [[c.strip() for c in r] for r in csv.reader(f)]
    return rows[0], [r for r in rows[1:] if r and r[0]]


def csv_percentile(head, rows, direction, pct):
    """The latency (ns) of the first CSV row whose cumulative share of
    @direction's clat reaches @pct (the CSV has fractions, not percents)."""
    col = head.index("%s_clat_ns_percentile" % direction)
    return next(int(r[0]) for r in rows if r[col] and float(r[col]) >= pct / 100.0)
