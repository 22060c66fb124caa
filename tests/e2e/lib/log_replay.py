# SPDX-License-Identifier: GPL-2.0
"""Replay a dm-log-writes log onto a device, up to a chosen point: the
state a drive with a volatile cache may leave after a power cut.

The log format (Documentation/admin-guide/device-mapper/log-writes.rst and
drivers/md/dm-log-writes.c), little-endian; S is the device's logical
block size, given by the super block:

  byte 0       super: magic u64 (0x6a736677736872), version u64 (1),
               nr_entries u64, sectorsize u32 (= S)
  byte S       entry 0: one S-byte block, struct log_write_entry
               (sector u64, nr_sectors u64, flags u64, data_len u64, in
               units of S) followed, for a mark, by its name; then, unless
               it is a discard, nr_sectors * S bytes of the data written
  ...          entry 1, ... (nr_entries in all)

Flags: 1 flush, 2 FUA, 4 discard, 8 mark, 16 metadata.  Writes are
logged in order of completion when the next flush completes (FUA writes
as they complete), so replaying every entry up to a flush gives what the
device held, at worst, once that flush was done.

  python3 log_replay.py --log LOG --replay DEV [--end-mark NAME |
      --flushes N] [--skip N ...] [--list]
"""

import argparse
import os
import struct
import sys

MAGIC = 0x6A736677736872
SUPER = struct.Struct("<QQQI")
ENTRY = struct.Struct("<QQQQ")
FLUSH, FUA, DISCARD, MARK, METADATA = 1, 2, 4, 8, 16


class Entry:
    """One log entry: index, byte offset and length on the device, flags,
    the mark's name, where its data are in the log."""

    def __init__(self, idx, off, length, flags, mark, data_at):
        self.idx, self.off, self.length = idx, off, length
        self.flags, self.mark, self.data_at = flags, mark, data_at

    def is_write(self):
        return self.length and not self.flags & (DISCARD | MARK)

    def __repr__(self):
        kind = ("mark %r" % self.mark if self.flags & MARK else
                "discard" if self.flags & DISCARD else
                "flush" if self.flags & FLUSH and not self.length else "write")
        return "%d %s off=%d len=%d flags=%#x" % (self.idx, kind, self.off,
                                                 self.length, self.flags)


def _pread(fd, n, off):
    b = os.pread(fd, n, off)
    if len(b) != n:
        raise ValueError("short read of the log at %d" % off)
    return b


def entries(log_path):
    """The log's entries, in order; ValueError if it is not a log."""
    fd = os.open(log_path, os.O_RDONLY)
    try:
        magic, version, nr, ssize = SUPER.unpack(_pread(fd, SUPER.size, 0))
        if magic != MAGIC or version != 1:
            raise ValueError("%s: not a dm-log-writes log (magic %#x, version %d)"
                             % (log_path, magic, version))
        if ssize < 512 or ssize & (ssize - 1):
            raise ValueError("%s: bad sectorsize %d" % (log_path, ssize))
        out = []
        pos = ssize
        for i in range(nr):
            blk = _pread(fd, ssize, pos)
            sector, nsec, flags, dlen = ENTRY.unpack_from(blk)
            mark = None
            if flags & MARK:
                mark = blk[ENTRY.size:ENTRY.size + dlen].split(b"\0")[0].decode(
                    "utf-8", "replace")
            pos += ssize
            data_at = pos
            if not flags & DISCARD:
                pos += nsec * ssize
            out.append(Entry(i, sector * ssize, nsec * ssize, flags, mark, data_at))
        return out
    finally:
        os.close(fd)


def end_index(ents, end_mark=None, flushes=None):
    """The index of the last entry to replay: the mark @end_mark, or the
    @flushes-th flush (1-based); else the last entry."""
    if end_mark is not None:
        for e in ents:
            if e.flags & MARK and e.mark == end_mark:
                return e.idx
        raise ValueError("no mark %r in the log" % end_mark)
    if flushes is not None:
        n = 0
        for e in ents:
            if e.flags & FLUSH:
                n += 1
                if n == flushes:
                    return e.idx
        raise ValueError("the log has %d flushes, not %d" % (n, flushes))
    return len(ents) - 1


def replay(log_path, dev_path, end=None, skip=()):
    """Apply the writes and discards (as zeros) of entries 0..@end (all if
    None), leaving out the entries in @skip; returns the writes applied."""
    ents = entries(log_path)
    if end is None:
        end = len(ents) - 1
    lfd = os.open(log_path, os.O_RDONLY)
    dfd = os.open(dev_path, os.O_WRONLY)
    n = 0
    try:
        for e in ents[:end + 1]:
            if e.idx in skip or not e.length or e.flags & MARK:
                continue
            if e.flags & DISCARD:
                data = bytes(e.length)
            else:
                data = _pread(lfd, e.length, e.data_at)
                n += 1
            os.pwrite(dfd, data, e.off)
        os.fsync(dfd)
    finally:
        os.close(lfd)
        os.close(dfd)
    return n


def main(argv=None):
    ap = argparse.ArgumentParser(description="replay a dm-log-writes log")
    ap.add_argument("--log", required=True)
    ap.add_argument("--replay", help="the device to replay onto")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--end-mark", help="replay up to this mark")
    g.add_argument("--flushes", type=int, help="replay up to the N-th flush")
    ap.add_argument("--skip", type=int, action="append", default=[],
                    help="leave out this entry (repeatable)")
    ap.add_argument("--list", action="store_true", help="list the entries")
    a = ap.parse_args(argv)
    ents = entries(a.log)
    if a.list:
        for e in ents:
            print(e)
    if a.replay:
        end = end_index(ents, a.end_mark, a.flushes)
        n = replay(a.log, a.replay, end, set(a.skip))
        print("replayed %d writes of entries 0..%d" % (n, end))
    return 0


if __name__ == "__main__":
    sys.exit(main())
