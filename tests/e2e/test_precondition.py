# SPDX-License-Identifier: GPL-2.0
"""--precondition and --section on a small null_blk.

Each mode of `ssdload precondition` must write what it promises: fill
and seq128k:N whole passes of the device, random:N N passes of 4 KiB
writes, pts two sequential passes then its WDPC rounds.  The block
layer's count of sectors written (/sys/block/X/stat) is the judge, and
the record (precondition.json) must say the same.  --section=25% must
keep the measurement's writes in the device's first quarter: on a fresh
memory-backed null_blk, whose unwritten sectors read as zeros, every
byte past the section is still zero after a sweep of random writes.

Kernels: 6.12 (the passes are `ssdload run`s, whose offsets and counts
are tested on every kernel by test_offsets.py and test_counts.py).
Guest time: 40 s under TCG on a loaded host (three tests).
"""

import json
import os

import pytest

import ssdload_env as env

MIB = 1 << 20
SIZE_MIB = 16
KERNELS = ("6.12",)


@pytest.fixture(autouse=True)
def _one_kernel():
    if env.kernel_label() not in KERNELS:
        pytest.skip("preconditioning runs on kernel %s only: its passes are `ssdload "
                    "run`s, tested on every kernel" % " ".join(KERNELS))


@pytest.fixture
def dev(ssdload, nullb_cfg):  # pylint: disable=unused-argument
    return nullb_cfg("pc", size=SIZE_MIB, memory_backed=1)


def _written(d):
    return d.stat()["write_sectors"] * 512


def _precondition(dev, out, mode, *extra):
    return env.cli("precondition", "--filename=" + dev.path, "--precondition=" + mode,
                   "--allow_write", "--output-dir=%s" % out, "--eta=never", *extra,
                   timeout=600)


@pytest.mark.slow
def test_modes_write_what_they_promise(dev, cli, tmp_path):
    """--dry-run writes nothing; seq128k:2 and random:2 write 2 passes
    each, and say so.  (fill: test_section_restricts_the_measurement.)"""
    before = _written(dev)
    p = _precondition(dev, tmp_path / "dry", "random:2", "--dry-run")
    assert p.returncode == 0, p.stderr
    assert "would write" in p.stderr and "%d bytes" % (2 * SIZE_MIB * MIB) in p.stderr
    assert _written(dev) == before and not (tmp_path / "dry").exists()
    for mode, passes, bs in (("seq128k:2", 2, 128 * 1024), ("random:2", 2, 4096)):
        out = tmp_path / mode.replace(":", "-")
        before = _written(dev)
        p = _precondition(dev, out, mode)
        assert p.returncode == 0, p.stdout + p.stderr
        delta = _written(dev) - before
        assert delta == passes * (SIZE_MIB * MIB // bs * bs), (mode, delta)
        doc = json.loads((out / "precondition.json").read_text())
        pc = doc["precondition"]
        assert doc["state"] == "done" and pc["mode"] == mode and pc["complete"] is True
        assert pc["bytes_promised"] == pc["bytes_written"] == delta
        assert [d["path"] for d in pc["devices"]] == [dev.path]
        assert "%d bytes" % delta in p.stderr


def test_span_limits_the_passes(dev, cli, tmp_path):
    """--precondition-span=4m: random:2 writes two passes of the first
    4 MiB only (the block layer's count; nothing past it on the fresh
    device), and the record says the span and that it is not the whole."""
    out = tmp_path / "span"
    before = _written(dev)
    p = _precondition(dev, out, "random:2", "--precondition-span=4m")
    assert p.returncode == 0, p.stdout + p.stderr
    assert _written(dev) - before == 2 * 4 * MIB
    pc = json.loads((out / "precondition.json").read_text())["precondition"]
    assert pc["span"] == "4m" and pc["bytes_written"] == 2 * 4 * MIB
    d = pc["devices"][0]
    assert (d["span_bytes"], d["capacity_bytes"], d["whole_device"]) == \
        (4 * MIB, SIZE_MIB * MIB, False)
    with open(dev.path, "rb", buffering=0) as f:
        f.seek(4 * MIB)
        tail = f.read()
    assert tail.count(0) == len(tail), "the passes wrote past their span"
    p = env.cli("precondition", "--filename=" + dev.path, "--allow_write",
                "--precondition-span=4m", "--output-dir=%s" % (tmp_path / "x"))
    assert p.returncode == 2 and "give --precondition" in p.stderr, p.stderr


@pytest.mark.slow
def test_pts_mode_records_its_writes(dev, cli, tmp_path):
    """WIPC (2 passes) then WDPC rounds: the rounds' bytes are measured,
    and the record's total is what the block layer saw."""
    out = tmp_path / "pc"
    before = _written(dev)
    p = _precondition(dev, out, "pts:100ms:5")
    assert p.returncode == 0, p.stdout + p.stderr
    delta = _written(dev) - before
    rec = json.loads((out / "precondition.json").read_text())["precondition"]["devices"][0]
    assert rec["bytes_written"] == delta
    wipc = [x for x in rec["passes"] if x["what"] == "wipc"]
    assert [x["bytes"] for x in wipc] == [2 * SIZE_MIB * MIB]
    wdpc = rec["wdpc"]
    # a window needs 5 rounds: the rule was applied to rounds 1..5, steady or not
    assert wdpc["rounds"] == 5 and len(wdpc["iops"]) == 5 and wdpc["max_rounds"] == 5
    assert (wdpc["window_first"], wdpc["window_last"]) == (1, 5)
    assert isinstance(wdpc["steady"], bool)
    assert delta > 2 * SIZE_MIB * MIB


@pytest.mark.slow
def test_section_restricts_the_measurement(dev, nullb_cfg, cli, tmp_path):
    """A sweep of random writes in --section=25% on the fresh device: past
    the quarter, nothing of the sweep's lands.  Then a scale of reads over
    two drives with --precondition=fill and the same section: the fill
    covers each whole drive (the block layer's count), the section only
    the measurement."""
    out = tmp_path / "sw"
    p = env.cli("sweep", "--filename=" + dev.path, "--rw=randwrite", "--allow_write",
                "--section=25%", "--qd-list=4", "--ramp_time=0", "--runtime=500ms",
                "--log_interval_ms=0", "--output-dir=%s" % out, "--no-report",
                "--eta=never", timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    doc = json.loads((out / "sweep.json").read_text())
    assert doc["section"] == "25%" and doc["precondition"] is None
    quarter = SIZE_MIB * MIB // 4
    with open(dev.path, "rb", buffering=0) as f:
        head = f.read(quarter)
        tail = f.read()
    assert len(tail) == 3 * quarter
    assert head.count(0) < len(head), "the sweep wrote nothing in its section"
    assert tail.count(0) == len(tail), "the sweep wrote past its section"
    assert os.path.exists(out / "run.json")

    # scale: each drive of --devices filled whole, one after the other,
    # then the points in the section
    dev2 = nullb_cfg("pc2", size=SIZE_MIB, memory_backed=1)
    out = tmp_path / "sc"
    before = [_written(dev), _written(dev2)]
    p = env.cli("scale", "--devices=%s,%s" % (dev.path, dev2.path), "--counts=1",
                "--qd-list=1", "--allow_write", "--precondition=fill", "--section=25%",
                "--ramp_time=0", "--runtime=300ms", "--output-dir=%s" % out, "--no-report",
                "--eta=never", timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert [_written(dev) - before[0], _written(dev2) - before[1]] == [SIZE_MIB * MIB] * 2
    doc = json.loads((out / "scale.json").read_text())
    assert doc["section"] == "25%" and doc["state"] == "done"
    pc = doc["precondition"]
    assert pc["mode"] == "fill" and pc["bytes_written"] == 2 * SIZE_MIB * MIB
    assert [d["path"] for d in pc["devices"]] == [dev.path, dev2.path]
    assert (out / "precondition-d1-fill.json").is_file()
    assert (out / "precondition-d2-fill.json").is_file()
