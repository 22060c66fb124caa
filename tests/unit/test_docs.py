# SPDX-License-Identifier: GPL-2.0
"""Documentation/*.rst parse cleanly with docutils (no warnings or errors):
a broken table or title level silently drops text from the rendered page."""

import glob
import io
import os

import pytest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCS = sorted(glob.glob(os.path.join(TOP, "Documentation", "*.rst")))


@pytest.mark.parametrize("path", DOCS, ids=[os.path.basename(p) for p in DOCS])
def test_rst_is_clean(path):
    core = pytest.importorskip("docutils.core", reason="python3-docutils is not installed")
    err = io.StringIO()
    with open(path, encoding="utf-8") as f:
        core.publish_doctree(f.read(), source_path=path,
                             settings_overrides={"warning_stream": err, "report_level": 2,
                                                 "halt_level": 5})
    assert not err.getvalue(), err.getvalue()


def test_every_doc_found():
    names = {os.path.basename(p) for p in DOCS}
    assert {"configfs.rst", "debugfs.rst", "cli.rst"} <= names
