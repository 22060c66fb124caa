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
import base64
import fcntl
import json
import os
import select
import shutil
import struct
import subprocess
import time
import zlib

import pytest

from test_report import DOCS, PLOTS, have_matplotlib, render
from test_report_sweep import SWEEP_DOCS, SWEEP_PLOTS, render_sweep
from test_report_curve import CURVE_DOCS, CURVE_PLOTS, render_curve
from test_report_compare import COMPARE_BANNERS, COMPARE_DOCS, COMPARE_PLOTS, render_compare
from test_report_scale import SCALE_DOCS, SCALE_PLOTS, render_scale
from test_report_run import DOCS as RUN_DOCS, PLOTS as RUN_PLOTS, render_run

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
TIMEOUT = 20		# seconds for any one browser step
VIEW_W, VIEW_H, SHOT_SCALE = 1280, 2000, 0.25
BANNER_PINK = (0xfd, 0xe8, 0xe8)	# background of the red banners (report CSS)
BANNER_ORANGE = (0xff, 0xf3, 0xdd)	# of the warning banners (a partial run)


# --------------------------------------------------------------------------
# a minimal DevTools-protocol client

class Browser:
    """One headless Chromium; load() opens a page in a fresh tab."""

    def __init__(self, home):
        os.makedirs(home, exist_ok=True)
        cmd_r, self.cmd_w = os.pipe()		# we write, Chromium reads fd 3
        self.ev_r, ev_w = os.pipe()		# Chromium writes fd 4, we read

        def fds_3_and_4():
            # copy both ends above the low fds first: either may be 3 or 4
            a = fcntl.fcntl(cmd_r, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(ev_w, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.log = open(os.path.join(home, "chromium.log"), "w")
        env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=home, XDG_CACHE_HOME=home)
        self.proc = subprocess.Popen(
            [CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu",
             "--remote-debugging-pipe", "--user-data-dir=" + os.path.join(home, "profile"),
             "--no-first-run", "--no-default-browser-check", "--hide-scrollbars",
             "--disable-extensions", "--window-size=%d,%d" % (VIEW_W, VIEW_H),
             "--enable-logging=stderr", "--v=0", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log, env=env,
            pass_fds=(3, 4), preexec_fn=fds_3_and_4)
        os.close(cmd_r)
        os.close(ev_w)
        self.buf, self.next_id, self.events = b"", 0, []

    def _send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.cmd_w, json.dumps(msg).encode() + b"\0")
        return self.next_id

    def _read_until(self, pred):
        """The first message matching @pred; the others are kept as events."""
        end = time.monotonic() + TIMEOUT
        while True:
            while b"\0" in self.buf:
                raw, self.buf = self.buf.split(b"\0", 1)
                msg = json.loads(raw)
                if pred(msg):
                    return msg
                self.events.append(msg)
            left = end - time.monotonic()
            if left <= 0 or not select.select([self.ev_r], [], [], left)[0]:
                raise TimeoutError("chromium did not answer within %d s" % TIMEOUT)
            data = os.read(self.ev_r, 1 << 20)
            if not data:
                raise EOFError("chromium closed the pipe (see chromium.log)")
            self.buf += data

    def call(self, method, params=None, session=None):
        i = self._send(method, params, session)
        msg = self._read_until(lambda m: m.get("id") == i)
        if "error" in msg:
            raise RuntimeError("%s: %s" % (method, msg["error"]))
        return msg["result"]

    def load(self, path):
        """Open file://@path without JavaScript; the page's report."""
        tid = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        sid = self.call("Target.attachToTarget", {"targetId": tid, "flatten": True})["sessionId"]
        self.events = []
        for domain in ("Page", "Network", "Runtime", "Log"):
            self.call(domain + ".enable", None, sid)
        self.call("Emulation.setScriptExecutionDisabled", {"value": True}, sid)
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": VIEW_W, "height": VIEW_H, "deviceScaleFactor": 1, "mobile": False},
                  sid)
        self.call("Page.navigate", {"url": "file://" + os.path.abspath(path)}, sid)
        # <img> blocks the load event: after it every image has loaded or failed
        self._read_until(lambda m: m.get("method") == "Page.loadEventFired" and
                         m.get("sessionId") == sid)
        imgs = json.loads(self.call("Runtime.evaluate", {
            "expression": "JSON.stringify(Array.from(document.images, i => ({src: "
                          "i.getAttribute('src'), complete: i.complete, width: i.naturalWidth, "
                          "height: i.naturalHeight})))",
            "returnByValue": True}, sid)["result"]["value"])
        shot = base64.b64decode(self.call("Page.captureScreenshot", {
            "format": "png", "clip": {"x": 0, "y": 0, "width": VIEW_W, "height": VIEW_H,
                                      "scale": SHOT_SCALE}}, sid)["data"])
        self.call("Target.closeTarget", {"targetId": tid})
        events = [e for e in self.events if e.get("sessionId") == sid]
        return {"images": imgs, "png": shot, "problems": problems(events, imgs)}

    def close(self):
        try:
            self._send("Browser.close")
            self.proc.wait(timeout=TIMEOUT)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        os.close(self.cmd_w)
        os.close(self.ev_r)
        self.log.close()


def problems(events, imgs):
    """What went wrong while the page loaded, one line each."""
    out = []
    for e in events:
        m, p = e.get("method"), e.get("params", {})
        if m == "Network.loadingFailed" and not p.get("canceled"):
            out.append("load failed: %s %s" % (p.get("type"), p.get("errorText")))
        elif m == "Log.entryAdded" and p["entry"].get("level") == "error":
            out.append("error: %s %s" % (p["entry"].get("text"), p["entry"].get("url", "")))
        elif m == "Runtime.exceptionThrown":
            out.append("exception: %s" % p.get("exceptionDetails", {}).get("text"))
        elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            out.append("console %s" % p.get("type"))
    for i in imgs:
        if not i["complete"] or not i["width"] or not i["height"]:
            out.append("image not shown: %s" % i["src"])
    return out


# --------------------------------------------------------------------------
# the screenshot

def png_pixels(data):
    """(width, height, [row of (r, g, b)]) of an 8-bit RGB(A) PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, hdr = 8, [], None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    w, h, depth, ctype, _, _, interlace = hdr
    assert depth == 8 and ctype in (2, 6) and not interlace, hdr
    bpp = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(b"".join(idat)), w * bpp
    prev, rows, i = bytearray(stride), [], 0
    for _ in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):		# undo the row filter (PNG spec, 9.2)
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x:x + 3]) for x in range(0, stride, bpp)])
        prev = line
    return w, h, rows


def shot_stats(png, banner=BANNER_PINK):
    """(distinct colours, share of pixels not the background, pixels of the
    @banner colour)."""
    w, h, rows = png_pixels(png)
    count = {}
    for r in rows:
        for px in r:
            count[px] = count.get(px, 0) + 1
    bg = max(count.values())
    pink = sum(n for px, n in count.items()
               if all(abs(a - b) <= 3 for a, b in zip(px, banner)))
    return len(count), 1 - bg / float(w * h), pink


def blank(png):
    colours, ink, _ = shot_stats(png)
    return colours < 16 or ink < 0.05


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
