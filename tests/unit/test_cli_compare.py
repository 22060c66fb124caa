# SPDX-License-Identifier: GPL-2.0
"""ssdload compare on the host: its inputs, refusals, table, compare.json
and labels.

The inputs are the documents of the report tests (curve.json, sweep.json,
pts.json) written into run directories, a second drive's made to differ
(lib/compare_docs.py's other_drive), and plain runs' JSON written by
`ssdload show --output-format=json` from fake debugfs jobs.  Every refusal
is exit status 2 with one line naming what is wrong, and leaves no output
directory behind.
"""
import json
import os
import subprocess

import pytest

from cli import one_error_line, put, run
from compare_docs import other_drive, plain_run
from curve_docs import done_doc, stopped_doc
from pts_docs import iops_doc, latency_doc
from report import have_matplotlib
from sweep_docs import auto_doc


def put_run(tmp_path, name, doc):
    """A plain run's JSON file @name.json."""
    f = tmp_path / (name + ".json")
    f.write_text(json.dumps(doc), encoding="utf-8")
    return str(f)


def compare(cli, tmp_path, *args):
    return run(cli, "compare", "--output-dir=%s" % (tmp_path / "out"), "--no-report", *args)


def table(p):
    """{row: [cell per run]} of the table; the header's labels first (key "")."""
    lines = p.stdout.splitlines()
    assert lines[0].startswith("ssdload compare: ")
    out = {}
    for line in lines[1:]:
        if not line.startswith("  "):
            break
        out.setdefault("", line)		# the header: labels are right-aligned
        cells = [c for c in line.strip().split("  ") if c]
        out[cells[0].strip()] = [c.strip() for c in cells[1:]]
    return out


@pytest.fixture
def curves(tmp_path):
    return put(tmp_path, "gen4", done_doc()), put(tmp_path, "gen5", other_drive(stopped_doc()))


# --------------------------------------------------------------------------
# refusals

def test_refusals_of_arguments(cli, tmp_path, curves):
    a, b = curves
    for args, needles in [
            ([a], ["give 2 to 16 runs"]),
            ([], ["give 2 to 16 runs"]),
            ([a] * 17, ["at most 16 runs"]),
            ([a, b, "--bogus=1"], ["bogus"]),
            ([a, str(tmp_path / "nothing")], ["nothing", "No such file"]),
            ([a, b, "--label=x"], ["--label=x", "1 labels for 2 runs"]),
            ([a, b, "--label=x,y,z"], ["more labels than the 2 runs"]),
            ([a, b, "--label=x,x"], ["\"x\" is given twice"]),
            ([a, b, "--label=x,"], ["each label has 1 to 63 characters"]),
            ([a, b, "--output-dir="], ["--output-dir="])]:
        p = compare(cli, tmp_path, *args)
        assert p.returncode == 2, (args, p.stderr)
        one_error_line(p, *needles)
        assert not (tmp_path / "out").exists()


def test_refusals_of_inputs(cli, tmp_path, curves):
    """Unreadable, not JSON, not ssdload's, an unknown version, a comparison."""
    a, _ = curves
    (tmp_path / "empty").mkdir()
    bad = [
        (put(tmp_path, "text", None, "not json"), ["text/curve.json", "not a JSON object"]),
        (put(tmp_path, "array", None, "[1, 2]"), ["not a JSON object"]),
        (put(tmp_path, "v2", dict(done_doc(), format_version=2)),
         ["v2/curve.json", "format_version 2", "reads 1"]),
        (put(tmp_path, "nopts", dict(done_doc(), points=None)), ["no array \"points\""]),
        (put_run(tmp_path, "fio", {"jobs": []}), ["fio.json", "\"jobs\" is not a non-empty"]),
        (put_run(tmp_path, "other", {"hello": 1}), ["neither \"format\" nor \"jobs\""]),
        (put_run(tmp_path, "fmt", {"format": "ssdload-bench"}), ["\"ssdload-bench\" is not one"]),
        (str(tmp_path / "empty"), ["no pts.json, sweep.json nor curve.json"]),
    ]
    unreadable = put(tmp_path, "locked", done_doc())
    if os.geteuid():
        os.chmod(os.path.join(unreadable, "curve.json"), 0)
        bad.append((unreadable, ["Permission denied"]))
    for path, needles in bad:
        p = compare(cli, tmp_path, a, path)
        assert p.returncode == 2, (path, p.stderr)
        one_error_line(p, *needles)
        assert not (tmp_path / "out").exists()


def test_a_comparison_is_not_compared(cli, tmp_path, curves):
    assert compare(cli, tmp_path, *curves).returncode == 0
    p = run(cli, "compare", "--no-report", "--output-dir=%s" % (tmp_path / "o2"), curves[0],
            str(tmp_path / "out"))
    one_error_line(p, "holds a comparison (compare.json), not a run")
    p = run(cli, "compare", "--no-report", "--output-dir=%s" % (tmp_path / "o2"), curves[0],
            str(tmp_path / "out" / "compare.json"))
    one_error_line(p, "a comparison is not compared again")
    assert not (tmp_path / "o2").exists()


@pytest.mark.parametrize("other,words", [
    (lambda t: put(t, "sw", auto_doc()), ["gen4/curve.json is a curve", "sw/sweep.json is a "
                                          "sweep", "compare runs of one kind"]),
    (lambda t: put_run(t, "plain", plain_run()), ["plain.json is a plain run"]),
    (lambda t: put(t, "pts", iops_doc()), ["pts/pts.json is a pts iops test"]),
])
def test_kinds_are_not_mixed(cli, tmp_path, curves, other, words):
    p = compare(cli, tmp_path, curves[0], other(tmp_path))
    assert p.returncode == 2
    one_error_line(p, *words)
    assert not (tmp_path / "out").exists()


def test_pts_tests_are_not_mixed(cli, tmp_path):
    p = compare(cli, tmp_path, put(tmp_path, "i", iops_doc()), put(tmp_path, "l", latency_doc()))
    one_error_line(p, "i/pts.json is a pts iops test but", "l/pts.json is a pts latency test")


def test_output_dir_not_empty(cli, tmp_path, curves):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "notes.txt").write_text("mine")
    one_error_line(compare(cli, tmp_path, *curves), "exists and is not empty")
    assert os.listdir(tmp_path / "out") == ["notes.txt"]
    os.unlink(tmp_path / "out" / "notes.txt")
    assert compare(cli, tmp_path, *curves).returncode == 0		# empty: fine
    one_error_line(compare(cli, tmp_path, *curves), "already holds a compare (compare.json)")


# --------------------------------------------------------------------------
# the table, compare.json, labels

def test_curves_table_and_document(cli, tmp_path, curves):
    p = compare(cli, tmp_path, *curves)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    a, b = (json.loads(open(os.path.join(x, "curve.json")).read()) for x in curves)
    t = table(p)
    assert t[""].split() == ["QEMU", "NVMe", "Ctrl", "Other", "SSD", "2TB"]
    assert t["state"] == ["done", "stopped"]
    assert t["100% (max_iops)"] == ["%.0f" % a["max_iops"], "%.0f" % b["max_iops"]]
    assert t["10% resp mean"] == ["86.96us", "130.43us"]
    assert t["70% IOPS"] == ["140000", "-"]			# the stopped curve has none
    assert t["150% IOPS"] == ["-", "%.0f" % b["points"][-1]["iops"]]
    assert "results: %s/compare.json" % (tmp_path / "out") in p.stdout
    doc = json.loads((tmp_path / "out" / "compare.json").read_text())
    assert doc["format"] == "ssdload-compare" and doc["format_version"] == 1
    assert doc["kind"] == "curve" and doc["test"] is None
    assert doc["command"].startswith("ssdload compare --output-dir=")
    assert [r["label"] for r in doc["runs"]] == ["QEMU NVMe Ctrl", "Other SSD 2TB"]
    assert [r["source"] for r in doc["runs"]] == \
        [os.path.realpath(os.path.join(x, "curve.json")) for x in curves]
    assert [r["document"] for r in doc["runs"]] == [a, b]		# whole
    assert sorted(os.listdir(tmp_path / "out")) == ["compare.json"]	# --no-report


def test_plain_runs_table(cli, tmp_path):
    """The CLI's own run JSON: the directions' IOPS, MiB/s and clat."""
    docs = [plain_run(1, 180000), plain_run(3, 90000)]
    docs[1]["jobs"][0]["job options"].update(filename="/dev/nvme1n1", rw="randrw", bs="4k")
    p = compare(cli, tmp_path, put_run(tmp_path, "a", docs[0]), put_run(tmp_path, "b", docs[1]))
    assert p.returncode == 0, p.stderr
    t = table(p)
    assert t[""].split() == ["a", "/dev/nvme1n1"]		# the file's name, the device
    assert t["rw"] == ["-", "randrw"] and t["bs"] == ["-", "4k"]
    for d in ("read", "write"):
        assert t["%s IOPS" % d] == ["%.0f" % x["jobs"][0][d]["iops"] for x in docs]
        assert t["%s MiB/s" % d] == ["%.1f" % (x["jobs"][0][d]["bw_bytes"] / 1048576.0)
                                     for x in docs]
    p99 = [x["jobs"][0]["read"]["clat_ns"]["percentile"]["99.900000"] for x in docs]
    assert t["read clat p99.9"] == ["%.2f%s" % ((v / 1e6, "ms") if v >= 1e6 else (v / 1e3, "us"))
                                    for v in p99]
    doc = json.loads((tmp_path / "out" / "compare.json").read_text())
    assert doc["kind"] == "run" and doc["runs"][1]["document"] == docs[1]


def lat_str(v):
    """A latency in the table's words: 12.34us, 1.20ms."""
    return "%.2f%s" % ((v / 1e6, "ms") if v >= 1e6 else (v / 1e3, "us"))


def test_plain_runs_max_and_percentiles(cli, tmp_path):
    """Plain runs: the maximum always, and the percentiles of --percentiles
    (one the runs did not record: -), in compare.json too."""
    docs = [plain_run(1, 180000), plain_run(3, 90000)]
    p = compare(cli, tmp_path, "--percentiles=50:99.99:99.999",
                put_run(tmp_path, "a", docs[0]), put_run(tmp_path, "b", docs[1]))
    assert p.returncode == 0, p.stderr
    t = table(p)
    for d in ("read", "write"):
        cl = [x["jobs"][0][d]["clat_ns"] for x in docs]
        assert t["%s clat max" % d] == [lat_str(c["max"]) for c in cl]
        assert t["%s clat p50" % d] == [lat_str(c["percentile"]["50.000000"]) for c in cl]
        assert t["%s clat p99.99" % d] == [lat_str(c["percentile"]["99.990000"])
                                           for c in cl]
        assert t["%s clat p99.999" % d] == ["-", "-"]
        assert "%s clat p99" % d not in t
    doc = json.loads((tmp_path / "out" / "compare.json").read_text())
    assert doc["percentiles"] == [50, 99.99, 99.999]
    p = compare(cli, tmp_path, "--percentiles=101", put_run(tmp_path, "a", docs[0]),
                put_run(tmp_path, "b", docs[1]))
    assert p.returncode == 2
    one_error_line(p, "--percentiles=101")


def test_sweeps_and_pts_tables(cli, tmp_path):
    p = compare(cli, tmp_path, put(tmp_path, "s1", auto_doc()),
                put(tmp_path, "s2", other_drive(auto_doc())))
    t = table(p)
    assert t["knee QD"] == ["128", "128"]
    assert t["QD 1 IOPS"] == ["30769", "20513"] and t["QD 1 lat p99"] == ["79.62us", "119.44us"]
    p = run(cli, "compare", "--no-report", "--output-dir=%s" % (tmp_path / "o2"),
            put(tmp_path, "p1", iops_doc()), put(tmp_path, "p2", other_drive(iops_doc())))
    assert p.stdout.startswith("ssdload compare: 2 pts iops tests\n")
    t = table(p)
    assert t["steady state"] == ["reached", "reached"] and t["conformant"] == ["no", "no"]
    assert len([k for k in t if k.endswith(" IOPS")]) == 56		# 8 sizes x 7 mixes
    assert json.loads((tmp_path / "o2" / "compare.json").read_text())["test"] == "iops"


def labels_of(cli, tmp_path, *args):
    p = compare(cli, tmp_path, *args)
    assert p.returncode == 0, p.stderr
    return [r["label"] for r in json.loads((tmp_path / "out" / "compare.json").read_text())
            ["runs"]]


def test_labels(cli, tmp_path):
    a, b = put(tmp_path, "x/kernel-6.1", done_doc()), put(tmp_path, "y/kernel-6.12", done_doc())
    # one model: the directories tell them apart
    assert labels_of(cli, tmp_path, a, b + "/") == \
        ["QEMU NVMe Ctrl (kernel-6.1)", "QEMU NVMe Ctrl (kernel-6.12)"]
    # the same directory twice: the place too
    os.system("rm -rf %s" % (tmp_path / "out"))
    assert labels_of(cli, tmp_path, a, a, b) == \
        ["QEMU NVMe Ctrl (kernel-6.1) #1", "QEMU NVMe Ctrl (kernel-6.1) #2",
         "QEMU NVMe Ctrl (kernel-6.12)"]
    # no model: the directory's name; a file given: its name without .json
    nomodel = done_doc()
    nomodel["device"]["model"] = None
    c = put(tmp_path, "z/lab", nomodel)
    os.system("rm -rf %s" % (tmp_path / "out"))
    assert labels_of(cli, tmp_path, c, os.path.join(a, "curve.json")) == \
        ["lab", "QEMU NVMe Ctrl"]
    # given
    os.system("rm -rf %s" % (tmp_path / "out"))
    assert labels_of(cli, tmp_path, a, b, "--label=6.1,6.12") == ["6.1", "6.12"]


def test_default_output_dir(cli, tmp_path, curves):
    p = subprocess.run([cli, "compare", "--no-report"] + list(curves), cwd=str(tmp_path),
                       capture_output=True, text=True, timeout=60, check=False)
    assert p.returncode == 0, p.stderr
    made = [x for x in os.listdir(tmp_path) if x.startswith("compare-")]
    assert len(made) == 1 and len(made[0]) == len("compare-YYYYmmdd-HHMMSS")
    assert os.listdir(tmp_path / made[0]) == ["compare.json"]


@pytest.mark.skipif(not have_matplotlib(), reason="the renderer's python has no matplotlib")
def test_report_and_rerender(cli, tmp_path, curves):
    """The report is rendered with the comparison; ssdload report renders it
    again from compare.json alone, to the same bytes."""
    p = run(cli, "compare", "--output-dir=%s" % (tmp_path / "out"), *curves)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    out = tmp_path / "out"
    assert sorted(os.listdir(out)) == ["compare.csv", "compare.json", "plots", "report.html"]
    first = (out / "report.html").read_bytes()
    for x in curves:		# the runs themselves are not needed any more
        os.unlink(os.path.join(x, "curve.json"))
    p = run(cli, "report", str(out))
    assert p.returncode == 0 and p.stdout == "%s/report.html\n" % out, p.stderr
    assert (out / "report.html").read_bytes() == first


def test_usage(cli):
    p = run(cli, "compare", "--help")
    assert p.returncode == 0
    for o in ("--output-dir", "--label", "--no-report", "RUN1 RUN2", "sweep.json",
              "curve.json", "pts.json", "--output-format=json", "compare.json"):
        assert o in p.stdout, o
    assert "compare" in run(cli, "--help").stdout
    assert "compare.json" in run(cli, "report", "--help").stdout
