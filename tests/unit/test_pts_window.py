# SPDX-License-Identifier: GPL-2.0
"""`ssdload pts`: the options and arithmetic of the rounds and the window.

Host only: the options are parsed and refused before any device is
touched, and `ssdload pts window DIR` recomputes a finished run's
measurement window from its pts.json alone.
"""
import json
import random
import subprocess

import pytest

import pts_docs

TESTS = ("iops", "throughput", "latency", "wsat", "hir", "xsr", "ecw", "dirth")


def run(cli, *args):
    return subprocess.run([cli, *args], capture_output=True, text=True, timeout=60)


def test_help_lists_all_eight_tests(cli):
    """`ssdload --help` names every PTS test, not the first four."""
    r = run(cli, "--help")
    assert r.returncode == 0, r.stderr
    line = next(ln for ln in r.stdout.splitlines() if ln.split()[:1] == ["pts"])
    for t in TESTS:
        assert t in line, (t, line)


# --------------------------------------------------------------------------
# the options: refused before any device is touched, each naming itself

@pytest.mark.parametrize("test,args,msg", [
    ("iops", ["--window=0"], "--window=0: must be an integer from 1"),
    ("iops", ["--window=26"], "--window=26: more rounds than the test runs (the round limit: 25)"),
    ("iops", ["--max-rounds=8", "--window=9"], "--window=9: more rounds than the test runs"),
    ("latency", ["--rounds=10", "--window=11"], "--window=11: more rounds than the test runs "
     "(--rounds: 10)"),
    ("iops", ["--rounds=10", "--max-rounds=10"], "--rounds=N is --min-rounds=N --max-rounds=N"),
    ("iops", ["--rounds=10", "--min-rounds=6"], "--rounds=N is --min-rounds=N --max-rounds=N"),
    ("throughput", ["--min-rounds=26"], "--min-rounds=26: more than the round limit 25"),
    ("iops", ["--rounds=4"], "--rounds=4: must be an integer from 5"),
    ("dirth", ["--window-at=middle"], "--window-at=middle: must be steady or last"),
    ("wsat", ["--window=3"], "--window and --window-at are options of the tests in rounds"),
    ("hir", ["--rounds=6"], "--rounds, --min-rounds"),
    ("xsr", ["--window-at=last"], "--window and --window-at are options of the tests in rounds"),
])
def test_round_options_refused(cli, tmp_path, test, args, msg):
    out = tmp_path / "out"
    r = run(cli, "pts", test, "--filename=/nonexistent/dev", "--allow_write",
            "--output-dir=%s" % out, *args)
    assert r.returncode == 2, r.stderr
    assert msg in r.stderr, r.stderr
    assert not out.exists()


def test_round_options_in_help(cli):
    r = run(cli, "pts", "iops", "--help")
    assert r.returncode == 0
    for opt in ("--rounds=N", "--min-rounds=N", "--window=K", "--window-at=WHERE"):
        assert opt in r.stdout, opt


# --------------------------------------------------------------------------
# which rounds a window averages: `ssdload pts window DIR`

def doc_of(nrounds, steady_round, values=None):
    """An iops-like pts.json of @nrounds rounds of two points, steady at @steady_round."""
    doc = pts_docs.base_doc("iops", "IOPS")
    for r in range(1, nrounds + 1):
        pts = [pts_docs.point(4096, 0, 1000.0 * r, 50000.0 + r),
               pts_docs.point(512, 65, 3000.0 + r, 20000.0 + 7 * r)]
        doc["rounds"].append(pts_docs.round_doc(r, pts, pts[0]["iops"]))
    end = steady_round or nrounds
    ss = pts_docs.steady_state([float(x) for x in range(end - 4, end + 1)], end - 4)
    ss.update(reached=bool(steady_round), round=steady_round or None, rounds_run=nrounds)
    doc["steady_state"] = ss
    return doc


def window_of(cli, tmp_path, doc, *args):
    d = tmp_path / "run"
    d.mkdir(exist_ok=True)
    (d / "pts.json").write_text(json.dumps(doc))
    r = run(cli, "pts", "window", str(d), *args)
    return r, (json.loads(r.stdout) if r.returncode == 0 else None)


@pytest.mark.parametrize("nrounds,steady,args,window", [
    (7, 7, [], (3, 7)),                                    # the spec's: steady at 7
    (25, 7, [], (3, 7)),                                   # --rounds=25, steady at 7
    (25, 7, ["--window=4"], (4, 7)),                       # the P3520 review's 4
    (25, 7, ["--window=4", "--window-at=last"], (22, 25)),
    (25, 7, ["--window=10"], (1, 10)),                     # fewer rounds before 7
    (25, 5, ["--window=1"], (5, 5)),
    (25, 0, [], (21, 25)),                                 # not steady: the last 5
    (25, 0, ["--window=25"], (1, 25)),
    (30, 0, ["--window=3", "--window-at=steady"], (28, 30)),
    (9, 9, ["--window-at=last"], (5, 9)),
])
def test_window_rounds(cli, tmp_path, nrounds, steady, args, window):
    doc = doc_of(nrounds, steady)
    r, res = window_of(cli, tmp_path, doc, *args)
    assert r.returncode == 0, r.stderr
    assert tuple(res["window"]) == window
    first, last = window
    ch = res["window_choice"]
    k = last - first + 1
    at = "last" if "--window-at=last" in args else "steady"
    assert ch == {"rounds": k, "at": at, "spec": k == 5 and at == "steady",
                  "steady_round": steady or None, "rounds_run": nrounds,
                  "percentiles": "highest of the rounds"}
    # each point is the mean of the window's rounds, the max of their maxima
    for i, pt in enumerate(res["points"]):
        ps = [doc["rounds"][x - 1]["points"][i] for x in range(first, last + 1)]
        assert pt["iops"] == pytest.approx(sum(p["iops"] for p in ps) / k, rel=1e-12)
        assert pt["lat_max_ns"] == max(p["lat_max_ns"] for p in ps)
        assert pt["bs"] == ps[0]["bs"] and pt["rwmixread"] == ps[0]["rwmixread"]


def test_window_from_the_runs_settings(cli, tmp_path):
    """Without --window, the run's own: settings.window and window_at."""
    doc = doc_of(25, 7)
    doc["settings"].update(window=4, window_at="last")
    r, res = window_of(cli, tmp_path, doc)
    assert r.returncode == 0, r.stderr
    assert res["window"] == [22, 25]


@pytest.mark.parametrize("args,msg", [
    (["--window=26"], "--window=26: a window of 26 rounds does not fit the 25 rounds run"),
    (["--window=0"], "--window=0: must be an integer from 1"),
    (["--window-at=first"], "--window-at=first: must be steady or last"),
])
def test_window_refused(cli, tmp_path, args, msg):
    r, _ = window_of(cli, tmp_path, doc_of(25, 0), *args)
    assert r.returncode == 2 and msg in r.stderr, r.stderr


def test_window_of_no_run(cli, tmp_path):
    r = run(cli, "pts", "window", str(tmp_path))
    assert r.returncode == 2 and "pts.json" in r.stderr


# --------------------------------------------------------------------------
# the window's percentiles: from its rounds' merged histograms

def bucket_value(geo, idx):
    """ssdload_hist_value(): the bucket's midpoint."""
    group, sub = divmod(idx, geo.sub)
    if not group:
        return idx
    return ((geo.sub + sub) << (group - 1)) + (1 << (group - 1)) // 2


def bins_of(geo, lats):
    """json+ bins as the CLI writes them: the bucket's value, within min..max."""
    bins, lo, hi = {}, min(lats), max(lats)
    for v in lats:
        key = min(max(bucket_value(geo, geo.index(v)), lo), hi)
        bins[str(key)] = bins.get(str(key), 0) + 1
    return bins


def merged_percentile(geo, dirs, pct):
    """fio's rule on the merge: the first bucket whose count reaches pct% of all."""
    counts = {}
    for x in dirs:
        for k, n in x["bins"].items():
            i = geo.index(int(k))
            counts[i] = counts.get(i, 0) + n
    total = sum(counts.values())
    lo = min(x["lat_min_ns"] for x in dirs)
    hi = max(x["lat_max_ns"] for x in dirs)
    cum = 0
    for i in sorted(counts):
        cum += counts[i]
        if cum >= pct / 100.0 * total:
            break
    return min(max(bucket_value(geo, i), lo), hi)


def test_window_percentiles_merge_histograms(cli, tmp_path, geo):
    """Each round's latencies differ (round 3 has a slow tail): the window's
    percentiles are those of the merged bins, not the highest of the rounds'."""
    rng = random.Random(27)
    doc = doc_of(7, 7)
    for rd in doc["rounds"]:
        for pt in rd["points"]:
            for d in ("read", "write"):
                x = pt[d]
                if not x["ios"]:
                    continue
                lats = [int(rng.lognormvariate(11 + 0.1 * rd["round"], 0.5))
                        for _ in range(3000)]
                if rd["round"] == 3:
                    lats += [int(rng.uniform(5e6, 9e6)) for _ in range(40)]
                x.update(lat_min_ns=min(lats), lat_max_ns=max(lats), bins=bins_of(geo, lats))
    r, res = window_of(cli, tmp_path, doc)
    assert r.returncode == 0, r.stderr
    assert res["window_choice"]["percentiles"] == "merged histograms"
    differs = 0
    for i, pt in enumerate(res["points"]):
        for d in ("read", "write"):
            dirs = [doc["rounds"][x - 1]["points"][i][d] for x in range(3, 8)]
            dirs = [x for x in dirs if x["ios"]]
            if not dirs:
                assert pt[d]["percentiles"] is None
                continue
            got = pt[d]["percentiles"]
            assert set(got) == set(pts_docs.PCT_KEYS)
            for key in pts_docs.PCT_KEYS:
                assert got[key] == merged_percentile(geo, dirs, float(key)), (i, d, key)
                differs += got[key] != max(x["percentiles"][key] for x in dirs)
    assert differs, "the merge gave the highest of the rounds' percentiles everywhere"


def test_window_percentiles_of_one_round(cli, tmp_path, geo):
    """A window of one round: its merge is the round's own histogram."""
    doc = doc_of(5, 5)
    lats = list(range(20000, 80000, 7)) + [3_000_000]
    for rd in doc["rounds"]:
        x = rd["points"][0]["write"]
        x.update(lat_min_ns=min(lats), lat_max_ns=max(lats), bins=bins_of(geo, lats))
    r, res = window_of(cli, tmp_path, doc, "--window=1")
    assert r.returncode == 0, r.stderr
    got = res["points"][0]["write"]["percentiles"]
    assert got["99.999000"] == 3_000_000      # the exact max, the last bucket's clamp
    assert got["50.000000"] == merged_percentile(geo, [doc["rounds"][4]["points"][0]["write"]],
                                                 50.0)
