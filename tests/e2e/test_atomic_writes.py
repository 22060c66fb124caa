# SPDX-License-Identifier: GPL-2.0
"""The CLI's result files on a real run: never written through a link.

A sweep on a null_blk device writes sweep.json (through a temporary file
that was sweep.json.tmp), steps.txt (written in place) and the run's
output run.json (its stdout).  A symlink to a victim file is planted at
each of these names in the output directory before the sweep: the victims
must stay unchanged, and the results must be regular files holding the
sweep (Documentation/cli.rst, "Result files").  The host tests
(tests/unit/test_atomic_writes.py) cover the renderer, fio's logs and the
directory checks.  CLI behaviour, the same on every kernel: marked stock.
"""
import json
import os

import pytest

import ssdload_env as env

VICTIM = "precious: not a result\n"


@pytest.mark.stock
def test_sweep_never_writes_through_links(ssdload, null_blk, cli, tmp_path):  # pylint: disable=unused-argument
    dev = null_blk()[0]
    out = tmp_path / "sw"
    out.mkdir()
    names = ["sweep.json.tmp", "steps.txt", "run.json"]
    victims = []
    for i, n in enumerate(names):
        v = tmp_path / ("victim%d" % i)
        v.write_text(VICTIM)
        os.symlink(str(v), str(out / n))
        victims.append(v)
    p = env.cli("sweep", "--filename=" + dev.path, "--output-dir=%s" % out, "--qd-list=1,2",
                "--ramp_time=200ms", "--runtime=1s", "--log_interval_ms=200", "--eta=never",
                "--no-report", timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    for v in victims:
        assert v.read_text() == VICTIM, v
    for n in ("sweep.json", "steps.txt", "run.json"):
        assert not os.path.islink(str(out / n)) and (out / n).is_file(), n
    doc = json.loads((out / "sweep.json").read_text())
    assert doc["format"] == "ssdload-sweep" and doc["state"] == "done"
    assert [q["qd"] for q in doc["points"]] == [1, 2]
    assert "numjobs=1 iodepth=2" in (out / "steps.txt").read_text()
    assert json.loads((out / "run.json").read_text())["jobs"]
    left = [x for x in os.listdir(str(out)) if x.endswith(".tmp") and
            not os.path.islink(str(out / x))]
    assert left == [], left
