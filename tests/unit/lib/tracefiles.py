# SPDX-License-Identifier: GPL-2.0
"""Block traces written by the tests, in each format ssdload reads.

An I/O is a tuple (t_ns, op, offset, length, resp_ns, dev) with op one of
"read", "write", "trim", "flush"; dev is the trace's own device (MSR:
(host, disk); Alibaba: device_id; blktrace: (major, minor)).

    write_msr(path, ios)          MSR Cambridge CSV (filetime, 100 ns)
    write_alibaba(path, ios)      Alibaba CSV (microseconds)
    write_blktrace(prefix, ios)   prefix.blktrace.N per CPU, Q, D, C events
    parse_info(text)              `ssdload trace-info` output as a dict
"""
import struct

BLK_MAGIC = 0x65617400
BLK_VERSION = 7
BLK_REC = struct.Struct("<IIQQIIIIIHH")         # struct blk_io_trace, 48 bytes
TC_READ, TC_WRITE, TC_FLUSH, TC_SYNC = 1 << 0, 1 << 1, 1 << 2, 1 << 3
TC_QUEUE, TC_ISSUE, TC_COMPLETE, TC_NOTIFY = 1 << 4, 1 << 6, 1 << 7, 1 << 10
TC_PC, TC_DISCARD = 1 << 9, 1 << 13
TA_QUEUE, TA_REQUEUE, TA_ISSUE, TA_COMPLETE = 1, 6, 7, 8
TA_CGROUP = 1 << 8
FILETIME_1601 = 116444736000000000         # 1970-01-01 as a filetime


def write_msr(path, ios, header=False, start=128166372003061629):
    lines = ["Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime"] if header else []
    for t, op, off, ln, resp, dev in ios:
        host, disk = dev if dev is not None else ("hm", 0)
        lines.append("%d,%s,%d,%s,%d,%d,%d" % (start + t // 100, host, disk,
                                               "Read" if op == "read" else "Write",
                                               off, ln, resp // 100))
    with open(path, "w") as f:
        f.write("\r\n".join(lines) + "\r\n")


def write_alibaba(path, ios, header=False, start=1577808000000626):
    lines = ["device_id,opcode,offset,length,timestamp"] if header else []
    for t, op, off, ln, _resp, dev in ios:
        lines.append("%d,%s,%d,%d,%d" % (dev or 0, "R" if op == "read" else "W", off, ln,
                                         start + t // 1000))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def blk_record(time, sector, nbytes, action, device, cpu=0, pdu=b"", seq=0, big=False,
               pid=4242):
    rec = struct.Struct((">" if big else "<") + "IIQQIIIIIHH")
    return rec.pack(BLK_MAGIC | BLK_VERSION, seq, time, sector, nbytes, action, pid,
                    device, cpu, 0, len(pdu)) + pdu


def _cat(op):
    return {"read": TC_READ, "write": TC_WRITE | TC_SYNC, "trim": TC_WRITE | TC_DISCARD,
            "flush": TC_READ | TC_FLUSH}[op]


def blk_events(ios, cpus=2, with_q=True, base=1_000_000_000, cgroup=False):
    """Per-CPU lists of (time, record bytes): a Q (with a cgroup id payload
    when @cgroup), D and C event of every I/O, the I/Os spread over the
    CPUs round robin, and a process note on each CPU."""
    per = [[] for _ in range(cpus)]
    for c in range(cpus):
        note = b"fio\0"
        per[c].append((base - 1, blk_record(base - 1, 0, 0, TC_NOTIFY << 16, 0, c, note)))
    for i, (t, op, off, ln, resp, dev) in enumerate(ios):
        c = i % cpus
        ma, mi = dev if dev is not None else (259, 0)
        devno = (ma << 20) | mi
        sec = off // 512
        nbytes = 0 if op == "flush" else ln
        cat = _cat(op) << 16
        if with_q:
            act = cat | (TC_QUEUE << 16) | TA_QUEUE
            pdu = b""
            if cgroup:
                act |= TA_CGROUP
                pdu = struct.pack("<Q", 77)
            per[c].append((base + t - 1, blk_record(base + t - 1, sec, nbytes, act, devno, c,
                                                    pdu)))
        per[c].append((base + t, blk_record(base + t, sec, nbytes,
                                            cat | (TC_ISSUE << 16) | TA_ISSUE, devno, c)))
        if resp:
            cc = (c + 1) % cpus            # completions often land on another CPU
            per[cc].append((base + t + resp, blk_record(base + t + resp, sec, nbytes,
                                                        cat | (TC_COMPLETE << 16) | TA_COMPLETE,
                                                        devno, cc)))
    for p in per:
        p.sort(key=lambda e: e[0])
    return per


def write_blktrace(prefix, ios, cpus=2, **kw):
    """prefix.blktrace.0 .. prefix.blktrace.(cpus-1); the file names."""
    names = []
    for c, evs in enumerate(blk_events(ios, cpus, **kw)):
        name = "%s.blktrace.%d" % (prefix, c)
        with open(name, "wb") as f:
            f.write(b"".join(r for _, r in evs))
        names.append(name)
    return names


def parse_info(text):
    """`ssdload trace-info` lines "key: value" as a dict of strings."""
    d = {}
    for line in text.splitlines():
        k, sep, v = line.partition(":")
        if sep:
            d[k.strip()] = v.strip()
    return d
