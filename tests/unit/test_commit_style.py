# SPDX-License-Identifier: GPL-2.0
"""scripts/commit-style.py: the commit message rules of CONTRIBUTING.md,
on single messages (the commit-msg hook) and on the commits of a branch
not yet on main (`make style`)."""

import os
import subprocess

import pytest

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCRIPT = os.path.join(TOP, "scripts", "commit-style.py")

GOOD = ("pts: split the matrix tests into pts/matrix.c\n\n"
        "pts.c held nine tests in one file; the matrix tests share their\n"
        "round loop, the others do not.\n")

BAD = [
    ("no prefix", "split the matrix tests\n\nWhy.\n", "no area prefix"),
    ("long subject", "pts: " + "x" * 70 + "\n\nWhy.\n", "subject is 75 characters"),
    ("no blank line", "pts: split the tests\nWhy.\n", "no blank line"),
    ("no body", "pts: split the tests\n", "no body"),
    ("past tense", "pts: split the tests\n\nWhy.\n".replace("split", "moved"),
     "not in the imperative"),
    ("third person", "pts: adds a test\n\nWhy.\n", "not in the imperative"),
    ("capital", "pts: Split the tests\n\nWhy.\n", "starts with a capital"),
    ("full stop", "pts: split the tests.\n\nWhy.\n", "full stop"),
    ("wide body", "pts: split the tests\n\n" + "word " * 16 + "\n", "wrap at 72"),
    ("paragraph as subject", "pts: split the tests, since pts.c held nine tests and "
     "a newcomer could not find one\n\nWhy.\n", "subject is"),
]


def _check(tmp_path, msg):
    f = tmp_path / "msg"
    f.write_text(msg)
    return subprocess.run(["python3", SCRIPT, "--msg", str(f)], stdout=subprocess.PIPE,
                          universal_newlines=True)


def test_good_message(tmp_path):
    p = _check(tmp_path, GOOD)
    assert p.returncode == 0 and p.stdout == "", p.stdout


def test_long_lines_that_may_stay(tmp_path):
    msg = GOOD + "\n    " + "quoted output " * 8 + "\nhttps://example.org/" + "a" * 80 + "\n"
    p = _check(tmp_path, msg)
    assert p.returncode == 0, p.stdout


@pytest.mark.parametrize("msg,needle", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_message(tmp_path, msg, needle):
    p = _check(tmp_path, msg)
    assert p.returncode == 1 and needle in p.stdout, p.stdout


def _git(repo, *args):
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.org")
    env.pop("STYLE_BASE", None)
    return subprocess.run(["git", "-C", str(repo)] + list(args), env=env, check=True,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)


def test_branch_checks_only_commits_not_on_main(tmp_path):
    repo = tmp_path / "r"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "commit", "-q", "--allow-empty", "-m", "An old subject. Not kept to the rules")
    _git(repo, "checkout", "-q", "-b", "topic")
    _git(repo, "commit", "-q", "--allow-empty", "-m", GOOD)
    env = dict(os.environ)
    env.pop("STYLE_BASE", None)
    p = subprocess.run(["python3", SCRIPT], cwd=str(repo), env=env, stdout=subprocess.PIPE,
                       universal_newlines=True)
    assert p.returncode == 0 and "1 commit(s) checked, 0 problem(s)" in p.stdout, p.stdout
    _git(repo, "commit", "-q", "--allow-empty", "-m", "fixed the thing")
    p = subprocess.run(["python3", SCRIPT], cwd=str(repo), env=env, stdout=subprocess.PIPE,
                       universal_newlines=True)
    assert p.returncode == 1 and "2 commit(s) checked" in p.stdout, p.stdout
    assert "no area prefix" in p.stdout and "An old subject" not in p.stdout, p.stdout
