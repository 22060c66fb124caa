# SPDX-License-Identifier: GPL-2.0
"""The renderer's validation refuses what it cannot draw (issue 25).

Each document passed validation and then ended in "internal error" (a
traceback's exception) while rendering; now it is refused with exit 2
and one line naming the key.  A pts.json that is a FIFO or a device is
refused instead of blocking the renderer or growing without end.
"""
import os
import subprocess
import sys

import pytest

from pts_docs import iops_doc, render, wsat_doc
from report import PYTHON, SCRIPT


def refused(d, doc, key):
    p = render(d, doc)
    assert p.returncode == 2, (p.returncode, p.stderr)
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("ssdload-report: "), p.stderr
    assert key in lines[0], lines[0]
    assert "internal error" not in p.stderr
    return lines[0]


@pytest.mark.parametrize("value", [[None], {}, 5, True])
def test_wsat_stopped_by_not_text(tmp_path, value):
    doc = wsat_doc()
    doc["results"]["stopped_by"] = value
    refused(tmp_path / "w", doc, "results.stopped_by")


@pytest.mark.parametrize("key,value", [("threads", 1e308), ("iodepth", 1e308),
                                       ("threads", 0), ("iodepth", 2.5)])
def test_load_settings_out_of_range(tmp_path, key, value):
    doc = wsat_doc()
    doc["settings"][key] = value
    refused(tmp_path / "w", doc, "settings." + key)


def test_tc_list_out_of_range(tmp_path):
    doc = iops_doc(nrounds=5)
    doc["settings"]["tc_list"] = [1e308]
    refused(tmp_path / "i", doc, "settings.tc_list[0]")


def test_precondition_steady_state_checked(tmp_path):
    doc = wsat_doc()
    doc["precondition_steady_state"] = {"window": [1, 5], "values": ["x"]}
    refused(tmp_path / "w", doc, "precondition_steady_state.values[0]")


@pytest.mark.parametrize("special", ["fifo", "device"])
def test_pts_json_special_file_refused(tmp_path, special):
    d = tmp_path / "r"
    d.mkdir()
    path = str(d / "pts.json")
    if special == "fifo":
        os.mkfifo(path)
    else:
        os.symlink("/dev/zero", path)
    try:
        p = subprocess.run([PYTHON, SCRIPT, str(d)], capture_output=True, text=True,
                           timeout=60, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail("the renderer still reads %s after 60 s" % special)
    assert p.returncode == 2, (p.returncode, p.stderr)
    assert "not a regular file" in p.stderr, p.stderr


@pytest.mark.parametrize("value", [[None], {"window": None}, {"window": [None, 5]},
                                   {"window": [1, 5], "range_pct": [None]}])
def test_wsat_results_steady_state_checked(tmp_path, value):
    doc = wsat_doc()
    doc["results"]["steady_state"] = value
    refused(tmp_path / "w", doc, "results.steady_state")
