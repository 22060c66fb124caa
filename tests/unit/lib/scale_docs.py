# SPDX-License-Identifier: GPL-2.0
"""Synthetic scale.json documents (format "ssdload-scale", format_version 1):
four drives with RAID-0 and RAID-10 at two depths, two drives and a given
array, and an interrupted run; the plots each report shows, and
render_scale().
"""
from report import render_file

ALL_PLOTS = ["scale_iops.svg", "scale_factor.svg", "scale_latency.svg"]


# --------------------------------------------------------------------------
# synthetic scale.json documents

def point(label, kind, drives, qd, iops, level=None, base=None):
    lat = qd * drives / iops * 1e9
    p = {"target": label, "kind": kind, "drives": drives, "qd_per_drive": qd,
         "qd_total": qd * drives, "workers_per_drive": 1, "iodepth": qd, "complete": True,
         "iops": iops, "bw_bytes": iops * 4096, "lat_mean_ns": lat,
         "lat_max_ns": int(lat * 9), "lat_p99_ns": int(lat * 2.5),
         "lat_p99_9_ns": int(lat * 4),
         "read": {"ios": int(iops * 3), "iops": iops, "bw_bytes": iops * 4096,
                  "lat_mean_ns": lat, "lat_max_ns": int(lat * 9),
                  "lat_p50_ns": int(lat * 0.9), "lat_p99_ns": int(lat * 2.5),
                  "lat_p99_9_ns": int(lat * 4),
                  "iops_per_run": [iops / (drives if kind == "drives" else 1)] *
                  (drives if kind == "drives" else 1)},
         "runs": [{"file": "runs/p00-d%d.json" % i, "exit_status": 0}
                  for i in range(drives if kind == "drives" else 1)],
         "scaling": None if base is None else iops / base,
         "efficiency": None if base is None else iops / base / drives}
    if kind == "raid":
        p.update(md_device="/dev/md127", md_level=level, md_members=drives)
    return p


def doc_of(targets, points, state="done", qds=(4,)):
    return {"format": "ssdload-scale", "format_version": 1, "ssdload_version": "0.1.0",
            "command": "ssdload scale --devices=...", "started": "2026-12-06T07:00:00Z",
            "finished": "2026-12-06T07:05:00Z", "state": state,
            "device": {"path": "/dev/nvme0n1", "model": "QEMU NVMe Ctrl", "serial": "s0",
                       "firmware": "8.0.0", "capacity_bytes": 64 << 20},
            "devices": [{"path": "/dev/nvme%dn1" % i, "model": "QEMU NVMe Ctrl",
                         "serial": "s%d" % i, "firmware": "8.0.0",
                         "capacity_bytes": 64 << 20} for i in range(4)],
            "settings": {"qd_list": list(qds), "ramp_ms": 1000, "runtime_ms": 3000,
                         "raid_chunk_bytes": 512 << 10, "baseline": "1 drive",
                         "rw": "randread", "bs": 4096, "rwmixread": None},
            "targets": targets, "points": points}


def target(label, kind, drives, level):
    return {"label": label, "kind": kind, "drives": drives, "level": level, "path": None}


RAID_TARGETS = [target("1 drive", "drives", 1, "drives"),
                target("2 drives", "drives", 2, "drives"),
                target("4 drives", "drives", 4, "drives"),
                target("RAID-0 x2", "raid", 2, "raid0"),
                target("RAID-0 x4", "raid", 4, "raid0"),
                target("RAID-10 x4", "raid", 4, "raid10")]
IOPS = {"1 drive": 10000.0, "2 drives": 19500.0, "4 drives": 36000.0, "RAID-0 x2": 18000.0,
        "RAID-0 x4": 30000.0, "RAID-10 x4": 28000.0}


def raid_doc():
    pts = []
    for qd in (4, 32):
        for t in RAID_TARGETS:
            f = 1.0 if qd == 4 else 3.1
            pts.append(point(t["label"], t["kind"], t["drives"], qd, IOPS[t["label"]] * f,
                             level=t["level"], base=IOPS["1 drive"] * f))
    return doc_of(RAID_TARGETS, pts, qds=(4, 32))


def given_doc():
    tg = RAID_TARGETS[:2] + [{"label": "/dev/md0", "kind": "target", "drives": 2,
                             "level": "raid1", "path": "/dev/md0"}]
    pts = [point("1 drive", "drives", 1, 8, 5000.0, base=5000.0),
           point("2 drives", "drives", 2, 8, 9900.0, base=5000.0),
           point("/dev/md0", "target", 2, 8, 7000.0, base=5000.0)]
    return doc_of(tg, pts, qds=(8,))


def interrupted_doc():
    d = raid_doc()
    d["points"] = d["points"][:4]
    d["state"] = "interrupted"
    return d


SCALE_DOCS = {"raid": raid_doc, "given": given_doc, "interrupted": interrupted_doc}
SCALE_PLOTS = {k: ALL_PLOTS for k in SCALE_DOCS}


def render_scale(d, doc=None, raw=None):
    """Write @doc (or @raw, text) to d/scale.json and run the renderer."""
    return render_file(d, "scale.json", doc, raw)
