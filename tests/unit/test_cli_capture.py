# SPDX-License-Identifier: GPL-2.0
"""`ssdload capture`: its refusals on the host (exit 2, one line, nothing
written).  The capture itself runs in a guest: tests/e2e/test_capture.py."""
import os

import pytest

from cli import one_error_line, run, usage_lists


def test_usage(cli):
    usage_lists(cli, "capture", ["--duration", "--output", "--buffer-kb", "--buffers",
                                   "--method"])


@pytest.mark.parametrize("args,why", [
    ([], "want DEV, --duration=T and -o TRACE"),
    (["/dev/null", "-o", "T"], "want DEV, --duration=T"),
    (["/dev/null", "--duration=1"], "-o TRACE"),
    (["/dev/null", "--duration=0", "-o", "T"], "--duration=0: want a time above 0"),
    (["/dev/null", "--duration=1x", "-o", "T"], "--duration=1x"),
    (["/dev/null", "--duration=1", "-o", "T", "--buffer-kb=0"], "--buffer-kb=0: want 1..65536"),
    (["/dev/null", "--duration=1", "-o", "T", "--buffers=1"], "--buffers=1: want 2..4096"),
    (["/dev/null", "--duration=1", "-o", "T"], "/dev/null: not a block device"),
    (["/dev/null", "--duration=1", "-o", "T", "--method=ftrace"],
     "--method=ftrace: want blktrace or tracefs"),
    (["/nonexistent/dev", "--duration=1", "-o", "T"], "No such file"),
    (["/dev/null", "/dev/zero", "--duration=1", "-o", "T"], "one DEV"),
])
def test_refused(cli, tmp_path, args, why):
    p = run(cli, "capture", *args, cwd=str(tmp_path))
    assert p.returncode == 2
    one_error_line(p, why)
    assert os.listdir(tmp_path) == []
