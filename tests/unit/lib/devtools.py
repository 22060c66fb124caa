# SPDX-License-Identifier: GPL-2.0
"""Headless Chromium driven over the DevTools protocol on a pipe
(--remote-debugging-pipe: JSON messages ending in NUL on fds 3 and 4), and
its screenshots decoded (PNG, with zlib + struct), for the tests that load
report.html in a real browser.
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
