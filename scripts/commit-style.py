#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check commit messages against the project's rules (CONTRIBUTING.md).

    scripts/commit-style.py              the commits of HEAD not yet on main
    scripts/commit-style.py REV..REV     the commits of a range
    scripts/commit-style.py --msg FILE   one message (the commit-msg hook)

The rules are the kernel's (Documentation/process/submitting-patches.rst):

- the subject: at most 72 characters, "area: what it does", in the
  imperative ("pts: split ...", not "split ..." or "pts: splits ...");
  no full stop at its end;
- a blank line, then a body that says why, wrapped at 72 columns (an
  indented line, such as quoted output or a table, may be longer, and so
  may a line that is one URL).

Merge commits are not checked.  The base of "not yet on main" is
$STYLE_BASE, else main, else origin/main.  Exit 0 when every message
keeps the rules, 1 with one line per broken rule otherwise.
"""

import os
import re
import subprocess
import sys

SUBJECT_MAX = 72
BODY_WIDTH = 72
# "area: " or "area/sub, other: ": lower case, as the tree's folders
PREFIX = re.compile(r"^[a-z0-9][a-z0-9_./+-]*(, ?[a-z0-9][a-z0-9_./+-]*)*: (\S.*)$")
# past tenses, and the third persons a subject most often starts with
# ("pts: adds ..." for "pts: add ..."); a noun may start a subject too
# ("tests: pts hir ..."), so other words ending in -s pass
PAST = re.compile(r"^[a-z]+ed$")
PAST_OK = {"embed", "feed", "seed", "shed", "speed", "need", "bleed", "breed",
           "proceed", "succeed", "exceed", "shred", "red", "bed"}
THIRD_PERSON = {"adds", "fixes", "makes", "moves", "removes", "uses", "updates",
                "changes", "splits", "introduces", "improves", "allows", "gives",
                "keeps", "runs", "reads", "writes", "checks", "refuses", "accepts",
                "prints", "renames", "drops", "implements", "supports", "converts",
                "replaces", "cleans", "reworks", "refactors", "documents", "handles",
                "avoids", "ensures", "lets", "stops", "starts", "takes", "puts"}


def check_message(msg):
    """The broken rules of one commit message, as a list of strings."""
    lines = msg.rstrip("\n").split("\n")
    lines = [ln for ln in lines if not ln.startswith("#")] or [""]
    subject = lines[0]
    problems = []
    if not subject.strip():
        return ["empty subject"]
    if len(subject) > SUBJECT_MAX:
        problems.append("subject is %d characters (at most %d)" % (len(subject), SUBJECT_MAX))
    m = PREFIX.match(subject)
    if not m:
        problems.append('subject has no area prefix ("area: what it does")')
    else:
        first = m.group(2).split()[0]
        word = first.lower()
        if first[0].isupper() and not first.isupper():
            problems.append('subject after the prefix starts with a capital ("%s")' % first)
        if (PAST.match(word) and word not in PAST_OK) or word in THIRD_PERSON:
            problems.append('subject is not in the imperative ("%s")' % first)
    if subject.rstrip().endswith("."):
        problems.append("subject ends with a full stop")
    if len(lines) < 2 or lines[1].strip():
        problems.append("no blank line after the subject")
    body = lines[2:]
    while body and not body[-1].strip():
        body.pop()
    text = [ln for ln in body if ln.strip() and not re.match(r"^[A-Za-z-]+: .*<.*@.*>$", ln)]
    if not text:
        problems.append("no body saying why")
    for n, ln in enumerate(body, 3):
        if len(ln) <= BODY_WIDTH or ln[:1] in (" ", "\t"):
            continue
        if re.fullmatch(r"\S*://\S*", ln.strip()):
            continue
        problems.append("body line %d is %d columns (wrap at %d)" % (n, len(ln), BODY_WIDTH))
    return problems


def git(*args):
    return subprocess.run(["git"] + list(args), check=True, stdout=subprocess.PIPE,
                          universal_newlines=True).stdout


def default_base():
    for base in (os.environ.get("STYLE_BASE"), "main", "origin/main"):
        if not base:
            continue
        if subprocess.run(["git", "rev-parse", "-q", "--verify", base + "^{commit}"],
                          stdout=subprocess.DEVNULL).returncode == 0:
            return base
    return None


def commits(rev_range):
    if rev_range is None:
        base = default_base()
        if base is None:
            sys.stderr.write("commit-style: no main branch to compare with; "
                             "give a range (REV..REV) or set STYLE_BASE\n")
            sys.exit(2)
        args = ["HEAD", "--not", base]
    else:
        args = [rev_range]
    return git("rev-list", "--no-merges", "--reverse", *args).split()


def main(argv):
    if len(argv) == 2 and argv[0] == "--msg":
        with open(argv[1], errors="replace") as f:
            problems = check_message(f.read())
        for p in problems:
            print("commit-msg: %s" % p)
        return 1 if problems else 0
    if len(argv) > 1 or (argv and argv[0].startswith("-")):
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    bad = 0
    revs = commits(argv[0] if argv else None)
    for rev in revs:
        msg = git("log", "-1", "--format=%B", rev)
        for p in check_message(msg):
            print("%s %s: %s" % (rev[:12], msg.split("\n", 1)[0][:50], p))
            bad += 1
    print("commit-style: %d commit(s) checked, %d problem(s)" % (len(revs), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
