# SPDX-License-Identifier: GPL-2.0
"""fio 3.33's own examples/*.fio (tests/fio-compat/examples, see its
README) through `ssdload run --parse-only`: each file's outcome is in
EXPECTED, so that a change in any one of them fails here.

OK: the file parses.  RIGHT: refused with the reason why ssdload cannot
run it (another engine, files or directories, verification, zones ...).
WRONG: refused for a reason that is wrong or unclear (issue 28's
sections 1 and 2: fio's meaning exists or should): whoever fixes one moves
it to OK or RIGHT.  basic-verify.fio parses since verify exists
(Documentation/verify.rst); the other verify examples are refused for
options that do not exist yet (verify_backlog, verify_pattern).  The
target is overridden by --filename, a block device of this host
(lib/blockdev.py: --parse-only refuses a path that is not one); the
${VAR}s the examples read are set to placeholders.
"""
import os
import subprocess

import pytest

from blockdev import DEV, NEEDS_DEV

pytestmark = NEEDS_DEV

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "fio-compat", "examples")
ENV = {"CONT": "c", "FIO_BS": "4k", "FIO_DIR": "/tmp", "FIO_IODEPTH": "1",
       "FIO_RW": "read", "GPU_DEV_IDS": "0", "POOL": "p", "S3_ID": "i", "S3_KEY": "k",
       "SSE_KEY": "k", "STORAGE_CLASS": "s", "SWIFT_id": "i", "unixsocket": "/tmp/s",
       "uri": "u"}
OK, RIGHT, WRONG = "accepted", "refused rightly", "refused wrongly"

# file: (outcome, what the one error line says after "ssdload: FILE")
EXPECTED = {
    "1mbs_clients.fio": (RIGHT, ':5: directory: a fio option that ssdload does not support:'),
    "aio-read.fio": (RIGHT, ':8: directory: a fio option that ssdload does not support:'),
    "backwards-read.fio": (OK, "rw_gap=-8192"),
    "basic-verify.fio": (OK, "verify=crc32c"),
    "butterfly.fio": (RIGHT, ':11: flow: a fio option that ssdload does not support: flow'),
    "cmdprio-bssplit.fio": (RIGHT, ':19: cmdprio_bssplit: a fio option that ssdload does not'),
    "cmdprio-percentage.fio": (RIGHT, ':15: prioclass: a fio option that ssdload does not'),
    "cpp_null.fio": (RIGHT, ':6: ioengine=cpp_null: not a block device engine (ssdload.ko is'),
    "cpuio.fio": (RIGHT, ':2: ioengine=cpuio: an engine that does no device I/O'),
    "cross-stripe-verify.fio": (RIGHT, ':16: verify_backlog: a fio option that ssdload does not'),
    "dedupe-global.fio": (RIGHT, ':47: dedupe_mode=working_set: a fio option that ssdload'),
    "dev-dax.fio": (RIGHT, ':3: ioengine=dev-dax: an engine for memory or devices that are not'),
    "dfs.fio": (RIGHT, ':2: ioengine=dfs: a network or remote storage engine: ssdload drives a'),
    "disk-zone-profile.fio": (RIGHT, ':11: zonesize: a fio option that ssdload does not'
                              ' support: neither zoned devices (zonemode=zbd) nor fio\'s'
                              ' strided zones (zonemode=strided'),
    "e4defrag.fio": (RIGHT, ':2: ioengine=e4defrag: a file system engine: ssdload drives a'),
    "e4defrag2.fio": (RIGHT, ':6: ioengine=e4defrag: a file system engine: ssdload drives a'),
    "enospc-pressure.fio": (RIGHT, ':9: directory: a fio option that ssdload does not support:'),
    "exec.fio": (RIGHT, ':6: ioengine=exec: an engine that runs a program, not I/O'),
    "exitwhat.fio": (RIGHT, ':15: exitall: a fio option that ssdload does not support:'),
    "falloc.fio": (RIGHT, ':2: ioengine=falloc: a file system engine: ssdload drives a block'),
    "filecreate-ioengine.fio": (RIGHT, ':15: ioengine=filecreate: a file system engine: ssdload'),
    "filedelete-ioengine.fio": (RIGHT, ':8: ioengine=filedelete: a file system engine: ssdload'),
    "filestat-ioengine.fio": (RIGHT, ':7: ioengine=filestat: a file system engine: ssdload'),
    "fio-rand-RW.fio": (RIGHT, ':10: direct=0: ssdload always does direct I/O'),
    "fio-rand-read.fio": (RIGHT, ':8: direct=0: ssdload always does direct I/O'),
    "fio-rand-write.fio": (RIGHT, ':8: direct=0: ssdload always does direct I/O'),
    "fio-seq-RW.fio": (RIGHT, ':10: direct=0: ssdload always does direct I/O'),
    "fio-seq-read.fio": (OK, None),
    "fio-seq-write.fio": (RIGHT, ':8: direct=0: ssdload always does direct I/O'),
    "fixed-rate-submission.fio": (OK, None),
    "flow.fio": (RIGHT, ':14: flow_sleep: a fio option that ssdload does not support:'),
    "fsx.fio": (OK, None),
    "ftruncate.fio": (RIGHT, ':4: ioengine=ftruncate: a file system engine: ssdload drives a'),
    "gfapi.fio": (RIGHT, ':4: ioengine=gfapi: a network or remote storage engine: ssdload'),
    "gpudirect-rdmaio-client.fio": (RIGHT, ':3: ioengine=rdma: a network or remote storage'),
    "gpudirect-rdmaio-server.fio": (RIGHT, ':3: ioengine=rdma: a network or remote storage'),
    "http-s3-crypto.fio": (RIGHT, ':9: ioengine=http: a network or remote storage engine:'),
    "http-s3-storage-class.fio": (RIGHT, ':9: ioengine=http: a network or remote storage'),
    "http-s3.fio": (RIGHT, ':7: ioengine=http: a network or remote storage engine: ssdload'),
    "http-swift.fio": (RIGHT, ':2: ioengine=http: a network or remote storage engine: ssdload'),
    "http-webdav.fio": (RIGHT, ':2: ioengine=http: a network or remote storage engine: ssdload'),
    "ime.fio": (RIGHT, ':26: ioengine=ime_psync: a network or remote storage engine: ssdload'),
    "iometer-file-access-server.fio": (OK, None),
    "jesd219.fio": (OK, None),
    "latency-profile.fio": (RIGHT, ':16: latency_window: a fio option that ssdload does not'),
    "libcufile-cufile.fio": (RIGHT, ':10: ioengine=libcufile: an engine for memory or devices'),
    "libcufile-posix.fio": (RIGHT, ':10: ioengine=libcufile: an engine for memory or devices'),
    "libhdfs.fio": (RIGHT, ':6: ioengine=libhdfs: a network or remote storage engine: ssdload'),
    "libiscsi.fio": (RIGHT, ':2: ioengine=libiscsi: a network or remote storage engine: ssdload'),
    "libpmem.fio": (RIGHT, ':4: ioengine=libpmem: an engine for memory or devices that are not'),
    "librpma_apm-client.fio": (RIGHT, ':4: ioengine=librpma_apm_client: a network or remote'),
    "librpma_apm-server.fio": (RIGHT, ':4: ioengine=librpma_apm_server: a network or remote'),
    "librpma_gpspm-client.fio": (RIGHT, ':4: ioengine=librpma_gpspm_client: a network or remote'),
    "librpma_gpspm-server.fio": (RIGHT, ':4: ioengine=librpma_gpspm_server: a network or remote'),
    "libzbc-rand-write.fio": (RIGHT, ':20: ioengine=libzbc: a passthrough engine (SCSI/NVMe'),
    "libzbc-seq-read.fio": (RIGHT, ':19: ioengine=libzbc: a passthrough engine (SCSI/NVMe'),
    "mtd.fio": (RIGHT, ':4: ioengine=mtd: an engine for memory or devices that are not block'),
    "nbd.fio": (RIGHT, ':15: ioengine=nbd: a network or remote storage engine: ssdload drives'),
    "netio.fio": (RIGHT, ':3: ioengine=net: a network or remote storage engine: ssdload drives'),
    "netio_multicast.fio": (RIGHT, ':3: ioengine=net: a network or remote storage engine:'),
    "nfs.fio": (RIGHT, ':5: ioengine=nfs: a network or remote storage engine: ssdload drives a'),
    "null.fio": (RIGHT, ':6: ioengine=null: an engine that does no device I/O'),
    "numa.fio": (RIGHT, ':14: numa_cpu_nodes: a fio option that ssdload does not support:'),
    "pmemblk.fio": (RIGHT, ':3: ioengine=pmemblk: an engine for memory or devices that are not'),
    "poisson-rate-submission.fio": (OK, None),
    "rados.fio": (RIGHT, ':14: ioengine=rados: a network or remote storage engine: ssdload'),
    "rand-zones.fio": (OK, "zoned:50/5:30/15:20/80"),
    "rbd.fio": (RIGHT, ':14: ioengine=rbd: a network or remote storage engine: ssdload drives'),
    "rdmaio-client.fio": (RIGHT, ':3: ioengine=rdma: a network or remote storage engine:'),
    "rdmaio-server.fio": (RIGHT, ':3: ioengine=rdma: a network or remote storage engine:'),
    "sg_verify-fail.fio": (RIGHT, ':24: ioengine=sg: a passthrough engine (SCSI/NVMe commands):'),
    "sg_verify.fio": (RIGHT, ':27: ioengine=sg: a passthrough engine (SCSI/NVMe commands):'),
    "sg_write_same_ndob.fio": (RIGHT, ':24: ioengine=sg: a passthrough engine (SCSI/NVMe'),
    "ssd-steadystate.fio": (RIGHT, ':36: write_bw_log=fioa-steady-state: ssdload writes fio\'s'
                            ' logs from the kernel\'s time series, whose records are allocated'
                            ' for the run\'s length: a run bound only by its size has none;'
                            ' give --runtime=T'),
    "ssd-test.fio": (RIGHT, ':20: directory: a fio option that ssdload does not support:'),
    "steadystate.fio": (OK, None),
    "surface-scan.fio": (RIGHT, ':9: verify_pattern: a fio option that ssdload does not support:'),
    "tiobench-example.fio": (OK, None),
    "uring-cmd-ng.fio": (RIGHT, ':5: ioengine=io_uring_cmd: a passthrough engine (SCSI/NVMe'),
    "uring-cmd-zoned.fio": (RIGHT, ':12: ioengine=io_uring_cmd: a passthrough engine (SCSI/NVMe'),
    "waitfor.fio": (RIGHT, ':15: wait_for=writers: [writers] starts together with [readers] (no'),
    "xnvme-compare.fio": (OK, None),
    "xnvme-zoned.fio": (RIGHT, ':59: zonemode=zbd: a fio option that ssdload does not support'),
    "zbd-rand-write.fio": (RIGHT, ':10: zonesize: a fio option that ssdload does not support:'),
    "zbd-seq-read.fio": (RIGHT, ':11: zonesize: a fio option that ssdload does not support:'),
    "zipf.fio": (RIGHT, ':5: ioengine=null: an engine that does no device I/O'),
}


def test_the_table_lists_every_example():
    assert sorted(EXPECTED) == sorted(f for f in os.listdir(EXAMPLES) if f.endswith(".fio"))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fio_example(cli, name):
    outcome, needle = EXPECTED[name]
    p = subprocess.run([cli, "run", "--parse-only", f"--filename={DEV}", name],
                       cwd=EXAMPLES, env=dict(os.environ, **ENV), capture_output=True,
                       text=True, timeout=60)
    errors = [l for l in p.stderr.splitlines()
              if l.strip() and not l.startswith("ssdload: note: ")]
    if outcome == OK:
        assert (p.returncode, errors) == (0, []), p.stderr
        assert f"filename={DEV}" in p.stdout
        assert needle is None or needle in p.stdout, p.stdout
        return
    assert p.returncode == 1 and p.stdout == "", (p.stdout, p.stderr)
    assert len(errors) == 1 and errors[0].startswith("ssdload: " + name + needle), p.stderr
