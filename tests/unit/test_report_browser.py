# SPDX-License-Identifier: GPL-2.0
"""report.html of ssdload-report.py in a real browser (headless Chromium).

Chromium is driven over the DevTools protocol on a pipe
(--remote-debugging-pipe: JSON messages ending in NUL on fds 3 and 4), so
that the test sees what the browser saw without changing the report:

- every failed load (Network.loadingFailed, e.g. net::ERR_FILE_NOT_FOUND),
  every error the page logs (Log.entryAdded) and every exception;
- every <img> of the loaded page: complete and naturalWidth > 0 (decoded);
- a screenshot (PNG, decoded here with zlib + struct) that is not blank
  and shows the pink NOT CONFORMANT / SCALED RUN banners.

JavaScript is disabled for the page (Emulation.setScriptExecutionDisabled):
the report must not need it.  The DevTools' own Runtime.evaluate still
runs, and is how the <img> states are read.  Negative tests prove that the
checks fail: a deleted plot, and a blank page.  The queue-depth sweep
reports (sweep.json, test_report_sweep.py), the iorate curve reports
(curve.json, test_report_curve.py) and the comparisons of every kind
(compare.json, test_report_compare.py) get the same checks, with the orange
banner of an interrupted sweep, a running or failed curve, a comparison
with an interrupted run, in place of the pink ones.
"""
import os

import pytest

from compare_docs import COMPARE_BANNERS, COMPARE_DOCS, COMPARE_PLOTS, render_compare
from curve_docs import CURVE_DOCS, CURVE_PLOTS, render_curve
from devtools import BANNER_ORANGE, CHROMIUM, Browser, blank, shot_stats
from pts_docs import DOCS, PLOTS, render
from report import have_matplotlib
from review_docs import render_review, review_doc
from run_docs import DOCS as RUN_DOCS, PLOTS as RUN_PLOTS, render_run
from scale_docs import SCALE_DOCS, SCALE_PLOTS, render_scale
from sweep_docs import SWEEP_DOCS, SWEEP_PLOTS, render_sweep


# --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip("no chromium (%s): apt install chromium" % CHROMIUM)
    if not have_matplotlib():
        pytest.skip("the renderer's python has no matplotlib")
    b = Browser(str(tmp_path_factory.mktemp("chromium-home")))
    try:
        b.call("Browser.getVersion")
    except (EOFError, TimeoutError) as e:
        b.close()
        pytest.skip("chromium does not start headless here: %s" % e)
    yield b
    b.close()


def rendered(tmp_path, test):
    d = tmp_path / test
    p = render(d, DOCS[test]())
    assert p.returncode == 0, p.stderr
    return d


@pytest.mark.parametrize("test", sorted(DOCS))
def test_report_loads_cleanly(browser, tmp_path, test):
    d = rendered(tmp_path, test)
    page = browser.load(d / "report.html")
    assert page["problems"] == []
    srcs = sorted(i["src"] for i in page["images"])
    assert srcs == sorted("plots/" + p for p in PLOTS[test])
    for i in page["images"]:
        assert i["width"] > 300 and i["height"] > 200, i
    colours, ink, pink = shot_stats(page["png"])
    assert not blank(page["png"]), (colours, ink)
    assert pink > 500, "the NOT CONFORMANT / SCALED RUN banners are not visible"


# the sweep's, the curve's, the comparison's, the scaling run's and the latency
# study's documents: (render, its documents, their plots, the names of those with
# an orange banner)
COMMANDS = {"sweep": (render_sweep, SWEEP_DOCS, SWEEP_PLOTS, ("interrupted",)),
            "curve": (render_curve, CURVE_DOCS, CURVE_PLOTS, ("running", "failed")),
            "compare": (render_compare, COMPARE_DOCS, COMPARE_PLOTS, COMPARE_BANNERS),
            "scale": (render_scale, SCALE_DOCS, SCALE_PLOTS, ("interrupted",)),
            "run": (render_run, RUN_DOCS, {k: RUN_PLOTS for k in RUN_DOCS}, ())}


@pytest.mark.parametrize("kind,name", [(k, n) for k, c in sorted(COMMANDS.items())
                                       for n in sorted(c[1])])
def test_command_report_loads_cleanly(browser, tmp_path, kind, name):
    """A queue-depth sweep's report (sweep.json, no pts.json), an iorate
    curve's (curve.json), a comparison's (compare.json), a scaling run's
    (scale.json), a plain run's latency study (run.json)."""
    render_doc, docs, plots, banner = COMMANDS[kind]
    d = tmp_path / name
    p = render_doc(d, docs[name]())
    assert p.returncode == 0, p.stderr
    page = browser.load(d / "report.html")
    assert page["problems"] == []
    assert sorted(i["src"] for i in page["images"]) == \
        sorted("plots/" + x for x in plots[name])
    for i in page["images"]:
        assert i["width"] > 300 and i["height"] > 200, i
    colours, ink, orange = shot_stats(page["png"], BANNER_ORANGE)
    assert not blank(page["png"]), (colours, ink)
    if name in banner:
        assert orange > 500, "the %s banner is not visible" % name.upper()
    else:
        assert orange == 0, "a banner on a %s that is done" % kind


def test_review_report_loads_cleanly(browser, tmp_path):
    """A review's report (plan.json of `ssdload review`, as the guest's
    --no-report runs of tests/e2e/test_review_plans.py leave it): the cover
    and the steps' reports in their iframes load with no error, then each
    step's own report, with every plot shown."""
    d = tmp_path / "review"
    doc = review_doc([("sweep:read", "sweep", "Figure 1", "done"),
                      ("curve", "curve", "Figure 2", "done"),
                      ("run:qd1", "run", "Figure 3", "pending")])
    p = render_review(d, doc)
    assert p.returncode == 0, p.stderr
    page = browser.load(d / "report.html")
    assert page["problems"] == []
    assert not blank(page["png"])
    for s, plots in ((doc["steps"][0], SWEEP_PLOTS["auto"]), (doc["steps"][1], CURVE_PLOTS["done"])):
        step = browser.load(d / s["dir"] / "report.html")
        assert step["problems"] == [], s["dir"]
        assert sorted(i["src"] for i in step["images"]) == sorted("plots/" + x for x in plots)
        for i in step["images"]:
            assert i["width"] > 300 and i["height"] > 200, (s["dir"], i)
    assert not (d / "03-run-qd1").exists()
    # a plot missing in a step's report shows on the cover too (its iframe)
    os.unlink(d / doc["steps"][0]["dir"] / "plots" / SWEEP_PLOTS["auto"][0])
    page = browser.load(d / "report.html")
    assert "load failed: Image net::ERR_FILE_NOT_FOUND" in page["problems"], page["problems"]


def test_missing_plot_is_caught(browser, tmp_path):
    """The negative test: a deleted plot fails the checks above."""
    d = rendered(tmp_path, "iops")
    os.unlink(d / "plots" / "iops_2d.svg")
    page = browser.load(d / "report.html")
    assert "image not shown: plots/iops_2d.svg" in page["problems"]
    assert "load failed: Image net::ERR_FILE_NOT_FOUND" in page["problems"]
    assert any(p.startswith("error: Failed to load resource") and p.endswith("iops_2d.svg")
               for p in page["problems"]), page["problems"]
    # only that one: the others still load
    assert sum(1 for i in page["images"] if i["width"]) == len(PLOTS["iops"]) - 1


def test_blank_page_is_caught(browser, tmp_path):
    """The negative test of the screenshot check: an empty page is blank."""
    p = tmp_path / "empty.html"
    p.write_text("<!DOCTYPE html><html><body></body></html>\n")
    page = browser.load(p)
    assert page["problems"] == [] and page["images"] == []
    assert blank(page["png"])
    assert shot_stats(page["png"])[2] == 0
