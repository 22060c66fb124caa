# SPDX-License-Identifier: GPL-2.0
"""fio's thinktime family and startdelay: the configfs attributes.

thinktime and thinktime_spin are in microseconds when bare, thinktime_iotime
and startdelay in seconds (fio 3.33's units); startdelay takes fio's range
LO-HI.  thinktime_iotime without thinktime_blocks pauses by time only (the
module's thinktime_blocks=0).  fio 3.33 itself checks, where it is
installed, that each accepted value is one it takes.
"""

import pytest

from blockdev import DEV, NEEDS_DEV
from cli import fio_takes, one_error_line, run

pytestmark = NEEDS_DEV


def parse_only(cli, *args):
    p = run(cli, "run", "--name=j", f"--filename={DEV}", "--parse-only", *args)
    return p, dict(l.split("=", 1) for l in p.stdout.splitlines() if "=" in l)


# (options, the attributes they write)
MAPPED = [
    (["--thinktime=100"], {"thinktime_us": "100"}),
    (["--thinktime=2ms"], {"thinktime_us": "2000"}),
    (["--thinktime=1s", "--thinktime_spin=250"],
     {"thinktime_us": "1000000", "thinktime_spin_us": "250"}),
    (["--thinktime=50", "--thinktime_blocks=8", "--thinktime_blocks_type=issue"],
     {"thinktime_us": "50", "thinktime_blocks": "8", "thinktime_blocks_type": "issue"}),
    (["--thinktime=50", "--thinktime_blocks=0"], {"thinktime_blocks": "1"}),
    (["--thinktime=1s", "--thinktime_iotime=9"],
     {"thinktime_iotime_us": "9000000", "thinktime_blocks": "0"}),
    (["--thinktime=1s", "--thinktime_iotime=9s", "--thinktime_blocks=4"],
     {"thinktime_iotime_us": "9000000", "thinktime_blocks": "4"}),
    (["--startdelay=2"], {"startdelay_us": "2000000"}),
    (["--startdelay=500ms"], {"startdelay_us": "500000"}),
    (["--startdelay=2-5"], {"startdelay_us": "2000000-5000000"}),
    (["--startdelay=100ms-1s"], {"startdelay_us": "100000-1000000"}),
    (["--startdelay=0"], {"startdelay_us": "0"}),
]


@pytest.mark.parametrize("args,attrs", MAPPED, ids=[" ".join(m[0]) for m in MAPPED])
def test_options_map_to_attributes(cli, tmp_path, args, attrs):
    if fio_takes(*args) is False:
        pytest.fail("fio 3.33 refuses %s" % " ".join(args))
    p, got = parse_only(cli, *args)
    assert p.returncode == 0, p.stderr
    assert p.stderr == "", p.stderr
    for k, v in attrs.items():
        assert got.get(k) == v, (k, p.stdout)
    # the same from a job file
    f = tmp_path / "job.fio"
    f.write_text(f"[j]\nfilename={DEV}\n%s\n" %
                 "\n".join(a[2:] for a in args))
    p = run(cli, "run", "--parse-only", str(f))
    assert p.returncode == 0, p.stderr
    got = dict(l.split("=", 1) for l in p.stdout.splitlines() if "=" in l)
    for k, v in attrs.items():
        assert got.get(k) == v, (k, p.stdout)


def test_no_thinktime_writes_nothing(cli):
    """Without the options no attribute is written (older modules lack them)."""
    p, got = parse_only(cli)
    assert p.returncode == 0, p.stderr
    assert not [k for k in got if k.startswith(("think", "startdelay"))], p.stdout


@pytest.mark.parametrize("opt,needle", [
    ("thinktime_blocks_type=sometimes", "complete or issue"),
    ("thinktime=soon", "not a time"),
    ("thinktime_spin=-5", "not a time"),
    ("startdelay=5-2", "range"),
    ("startdelay=2-", "range"),
    ("thinktime_blocks=many", "integer"),
])
def test_bad_values_refused(cli, opt, needle):
    """Refused with one line naming the option and why (fio is laxer with
    some of these: it reads "-5" as a huge unsigned value)."""
    one_error_line(parse_only(cli, "--" + opt)[0], "--" + opt, needle)
