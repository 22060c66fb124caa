# SPDX-License-Identifier: GPL-2.0
"""verify from the CLI (Documentation/verify.rst, cli.rst).

fio's verify options become the module's attributes (the --parse-only
lines), on the command line and in job files; what the module would
refuse at enable is refused first, naming the option and the reason;
experimental_verify and verify_async are taken with a note; the verify
options not there yet are refused each with its own reason.  A job's
debugfs verify file (written here, as the module writes it) comes out in
the text report's verify block, the JSON's ssdload.verify object (every
key, also one the CLI does not know) and fio's total_err and first_error.
"""
import json
import os

import pytest

from blockdev import DEV, NEEDS_DEV
from cli import fio_takes, jobfile, one_error_line, run
from debugfs import FakeJob, lognormal

pytestmark = NEEDS_DEV

DEV_ARG = f"--filename={DEV}"


def parse_only(cli, *args):
    p = run(cli, "run", "--name=j", DEV_ARG, "--parse-only", *args)
    return p, dict(l.split("=", 1) for l in p.stdout.splitlines() if "=" in l)


def notes(p):
    return [l for l in p.stderr.splitlines() if l.startswith("ssdload: note: ")]


@pytest.mark.parametrize("opts,attrs", [
    (["--verify=crc32c"], {"verify": "crc32c"}),
    (["--verify=crc32c-intel"], {"verify": "crc32c"}),
    (["--verify=crc64"], {"verify": "crc64"}),
    (["--verify=xxhash"], {"verify": "xxhash"}),
    (["--verify=sha256"], {"verify": "sha256"}),
    (["--verify=meta"], {"verify": "meta"}),
    (["--verify=null"], {"verify": "null"}),
    (["--verify=crc32c", "--verify_interval=512"], {"verify_interval": "512"}),
    (["--verify=crc32c", "--verify_interval=1k"], {"verify_interval": "1024"}),
    (["--verify=crc32c", "--verify_interval=4k"], {"verify_interval": "4096"}),
    (["--verify=crc32c", "--do_verify=0"], {"do_verify": "0"}),
    (["--verify=crc32c", "--do_verify"], {"do_verify": "1"}),
    (["--verify=crc32c", "--verify_fatal"], {"verify_fatal": "1"}),
    (["--verify=crc32c", "--verify_fatal=0"], {"verify_fatal": "0"}),
])
def test_options_map_to_attributes(cli, tmp_path, opts, attrs):
    """Each option writes its attribute, from the command line and from a
    job file; fio takes every one of these values."""
    for o in opts:
        # fio's command line takes a boolean bare only in a job file
        if "=" in o and fio_takes(o) is False:
            pytest.fail("fio 3.33 refuses %s" % o)
    p, got = parse_only(cli, "--rw=randwrite", *opts)
    assert p.returncode == 0, p.stderr
    for k, v in attrs.items():
        assert got.get(k) == v, p.stdout
    f = jobfile(tmp_path, f"[j]\nfilename={DEV}\nrw=write\n%s\n"
                % "\n".join(o[2:] for o in opts))
    p = run(cli, "run", "--parse-only", f)
    assert p.returncode == 0, p.stderr
    got = dict(l.split("=", 1) for l in p.stdout.splitlines() if "=" in l)
    for k, v in attrs.items():
        assert got.get(k) == v, p.stdout


@pytest.mark.parametrize("opts", [
    [], ["--verify=0"], ["--verify=0", "--verify_interval=512", "--do_verify=1",
                         "--verify_fatal=1"]])
def test_off_writes_nothing(cli, opts):
    """verify off (fio's default 0): no verify attribute is written, so an
    older module without them runs the job as before; fio ignores the
    others then, and so does ssdload."""
    p, got = parse_only(cli, "--rw=write", *opts)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    assert not {"verify", "verify_interval", "do_verify", "verify_fatal"} & set(got), \
        p.stdout


def test_crc32c_intel_and_mixed_notes(cli):
    p, got = parse_only(cli, "--rw=randrw", "--verify=crc32c-intel")
    assert p.returncode == 0, p.stderr
    assert got["verify"] == "crc32c"
    n = notes(p)
    assert any("--verify=crc32c-intel: the kernel's crc32c" in l for l in n), n
    assert any("reads of a mixed job are not checked" in l for l in n), n


@pytest.mark.parametrize("opt,needle", [
    ("--experimental_verify", "generation map"),
    ("--experimental_verify=1", "generation map"),
    ("--verify_async=4", "no verifier threads"),
])
def test_taken_with_a_note(cli, opt, needle):
    """fio's experimental_verify and verify_async: accepted, with a note
    saying why the kernel needs neither; nothing is written for them."""
    p, got = parse_only(cli, "--rw=write", "--verify=crc32c", opt)
    assert p.returncode == 0, p.stderr
    n = notes(p)
    assert len(n) == 1 and opt in n[0] and needle in n[0], n
    assert not any(k.startswith(("experimental", "verify_async")) for k in got)


@pytest.mark.parametrize("opt", ["--experimental_verify=0", "--verify_async=0"])
def test_their_defaults_are_silent(cli, opt):
    p, _ = parse_only(cli, "--rw=write", "--verify=crc32c", opt)
    assert p.returncode == 0 and p.stderr == "", p.stderr


@pytest.mark.parametrize("args,bad,needle", [
    (["--rw=read", "--verify=crc32c"], "--verify=crc32c", "does not write"),
    (["--rw=randread", "--verify=xxhash"], "--verify=xxhash", "verify_only"),
    (["--rw=randrw", "--rwmixread=100", "--verify=crc32c"], "--verify=crc32c",
     "does not write"),
    (["--rw=trimwrite", "--allow_write", "--verify=crc32c"], "--verify=crc32c",
     "trims what it would check"),
    (["--rw=write", "--bssplit=4k/50:8k/50", "--verify=crc32c"], "--verify=crc32c",
     "one block size"),
    (["--rw=write", "--bsrange=4k-16k", "--verify=crc32c"], "--verify=crc32c",
     "one block size"),
    (["--rw=randwrite", "--blockalign=512", "--verify=crc32c"], "--verify=crc32c",
     "aligned to it"),
    (["--rw=write", "--verify=crc32c", "--verify_interval=1536"],
     "--verify_interval=1536", "must divide bs=4096"),
    (["--rw=write", "--verify=crc32c", "--verify_interval=8k"],
     "--verify_interval=8k", "must divide bs=4096"),
    (["--rw=write", "--verify=crc32c", "--verify_interval=100"],
     "--verify_interval=100", "multiple of 512"),
    (["--rw=write", "--verify=md5"], "--verify=md5", "not supported yet"),
    (["--rw=write", "--verify=sha1"], "--verify=sha1", "not supported yet"),
    (["--rw=write", "--verify=pattern"], "--verify=pattern", "not supported yet"),
    (["--rw=write", "--verify=crc32"], "--verify=crc32", "not one of ssdload.ko's"),
    (["--rw=write", "--verify=sha512"], "--verify=sha512", "not one of ssdload.ko's"),
    (["--rw=write", "--verify=sha3-256"], "--verify=sha3-256", "not one of ssdload.ko's"),
    (["--rw=write", "--verify=crc33"], "--verify=crc33", "not one of fio's verify types"),
    (["--rw=write", "--verify=crc32c", "--do_verify=2"], "--do_verify=2", "0 or 1"),
    (["--rw=write", "--verify=crc32c", "--verify_interval=x"], "--verify_interval=x",
     "not a size"),
    (["--rw=write", "--verify=crc32c", "--verify_async=x"], "--verify_async=x",
     "not a non-negative integer"),
])
def test_what_enable_would_refuse_is_refused_first(cli, tmp_path, args, bad, needle):
    """The module's rules (module/verify.c) in the pre-flight: one line
    naming the option as given and the reason, on the command line and in
    a job file (its line)."""
    one_error_line(parse_only(cli, *args)[0], bad, needle)
    lines = "\n".join(a[2:] if "=" in a else a[2:] + "=1" for a in args)
    f = jobfile(tmp_path, f"[j]\nfilename={DEV}\n%s\n" % lines)
    line = 3 + [a for a in args].index(bad)
    one_error_line(run(cli, "run", "--parse-only", f),
                   "job.fio:%d: %s" % (line, bad[2:]), needle)


# the verify options not there yet: each refused with its own reason
LATER = {
    "verify_backlog": "checks while writing are not supported yet",
    "verify_backlog_batch": "goes with verify_backlog",
    "verify_dump": "not yet dumped to files",
    "verify_pattern": "verify=pattern and its pattern",
    "verify_generation_bits": "one byte per block",
    "verify_header_seed": "job's randseed",
    "verify_offset": "start of each verify_interval unit",
}


@pytest.mark.parametrize("name", sorted(LATER))
def test_later_options_have_their_own_reason(cli, tmp_path, name):
    line = one_error_line(parse_only(cli, "--rw=write", "--verify=crc32c",
                                     "--%s=1" % name)[0],
                          "--" + name, "a fio option that ssdload does not support",
                          LATER[name])
    assert "ssdload measures performance" not in line, line
    f = jobfile(tmp_path, f"[j]\nfilename={DEV}\nrw=write\n%s=1\n" % name)
    one_error_line(run(cli, "run", "--parse-only", f), "job.fio:4: " + name, LATER[name])


def test_later_reasons_all_differ(repo):
    """No blanket reason: each option not there yet has a line of its own."""
    text = open(os.path.join(repo, "Documentation", "cli.rst")).read()
    reasons = [l.split(": ", 1)[1] for l in text.splitlines()
               if any(l.startswith("- ``%s``: " % n) for n in LATER)]
    assert len(reasons) == len(LATER) and len(set(reasons)) == len(LATER), reasons


# ---- the results ----------------------------------------------------------

def verify_text(failed=(), written=2048, checked=None, extra=(), vtype="crc32c"):
    """A debugfs verify file as module/verify.c's ssdload_verify_show()."""
    checked = written if checked is None else checked
    cls = {c: 0 for c in ("corrupt", "misplaced", "stale", "foreign", "read_error")}
    for f in failed:
        cls[f[1]] += 1
    lines = ["verify=%s" % vtype, "verify_interval=4096", "verify_state=done",
             "verify_written=%d" % written, "verify_checked=%d" % checked,
             "verify_units=%d" % checked, "verify_ambiguous=3",
             "verify_failed=%d" % len(failed)]
    lines += ["verify_%s=%d" % (c, n) for c, n in cls.items()]
    lines += ["verify_map_bytes=%d" % written] + list(extra)
    lines += ["fail=%d %s got_lba=%d got_gen=%d want_gen=2 seq=%d worker=0 err=%d"
              % (lba, c, got, gen, lba // 8, err) for lba, c, got, gen, err in failed]
    return "\n".join(lines) + "\n"


FAILED = [(24, "corrupt", 24, 2, 0), (80, "misplaced", 88, 2, 0), (160, "stale", 160, 1, 0),
          (400, "foreign", 0, 0, 0), (808, "read_error", 0, 0, -5)]


@pytest.fixture
def vjob(geo, tmp_path):
    """make(text, error=0): a debugfs job of 2048 writes with @text as its
    verify file; .env points the CLI at it."""
    def make(text, error=0, state="done", **kw):
        job = FakeJob(geo, str(tmp_path), "vjob", [], lognormal(3, 2048, 40_000, 0.3),
                      state=state, error=error, **kw)
        path = os.path.join(job.dir, "verify")
        if text is not None:
            with open(path, "w") as f:
                f.write(text)
        elif os.path.exists(path):
            os.unlink(path)
        job.env = {"SSDLOAD_DEBUGFS": str(tmp_path),
                   "SSDLOAD_CONFIGFS": str(tmp_path / "no-configfs")}
        return job
    return make


def show(cli, job, *args):
    p = run(cli, "show", job.name, *args, env=job.env)
    assert p.returncode == 0, p.stderr
    return p.stdout


@pytest.mark.parametrize("fmt", ["json", "json+"])
def test_json_clean_pass(cli, vjob, fmt):
    job = vjob(verify_text(extra=("verify_newkey=7", "verify_mode=word")))
    j = json.loads(show(cli, job, "--output-format=" + fmt))["jobs"][0]
    v = j["ssdload"]["verify"]
    assert v["type"] == "crc32c" and v["state"] == "done" and v["interval"] == 4096
    assert v["written"] == v["checked"] == v["units"] == 2048
    assert v["failed"] == 0 and v["failures"] == []
    for c in ("corrupt", "misplaced", "stale", "foreign", "read_error"):
        assert v[c] == 0, c
    assert v["ambiguous"] == 3 and v["map_bytes"] == 2048
    # a key the CLI does not know flows through, typed
    assert v["newkey"] == 7 and v["mode"] == "word"
    assert j["total_err"] == 0 and j["first_error"] == 0 and j["error"] == 0


def test_json_failures(cli, vjob):
    job = vjob(verify_text(FAILED), error=-84, state="error")
    j = json.loads(show(cli, job, "--output-format=json"))["jobs"][0]
    v = j["ssdload"]["verify"]
    assert v["failed"] == 5
    assert [v[c] for c in ("corrupt", "misplaced", "stale", "foreign", "read_error")] \
        == [1, 1, 1, 1, 1]
    got = [(f["lba"], f["class"], f["got_lba"], f["got_gen"], f["err"])
           for f in v["failures"]]
    assert got == FAILED
    assert v["failures"][1]["want_gen"] == 2 and v["failures"][1]["seq"] == 10
    # fio's keys: its error 84 (EILSEQ), the failed units counted
    assert j["error"] == 84 and j["first_error"] == 84 and j["total_err"] == 5


def test_json_without_verify(cli, vjob):
    """verify=0, or a module without the file: no verify keys at all."""
    for text in (verify_text(vtype="0", written=0), None):
        job = vjob(text)
        j = json.loads(show(cli, job, "--output-format=json"))["jobs"][0]
        assert "verify" not in j["ssdload"] and "total_err" not in j, j.keys()
        assert "verify" not in show(cli, job)


def test_text_block(cli, vjob):
    job = vjob(verify_text(FAILED, checked=2040, extra=("verify_newkey=7",)))
    out = show(cli, job).splitlines()
    i = next(k for k, l in enumerate(out) if l.startswith("  verify       : "))
    assert out[i] == ("  verify       : crc32c, 4096-byte units, done: 2048 blocks "
                      "written, 2040 checked (2040 units)")
    assert out[i + 1] == ("    failures   : 5 units (corrupt=1, misplaced=1, stale=1, "
                          "foreign=1, read_error=1)")
    assert out[i + 2].startswith("    ambiguous  : 3 blocks") and \
        out[i + 2].endswith("unchecked=8"), out[i + 2]
    assert out[i + 3] == "    map        : 2048 bytes (generation map)"
    assert out[i + 4] == "    first 5 failures (sector class detail):"
    assert out[i + 5] == ("      24 corrupt got_lba=24 got_gen=2 want_gen=2 seq=3 "
                          "worker=0 err=0")
    assert out[i + 9].startswith("      808 read_error ") and out[i + 9].endswith("err=-5")
    assert out[i + 10] == "    other      : verify_newkey=7"


def test_bad_fail_line_is_named(cli, vjob):
    job = vjob(verify_text() + "fail=x corrupt\n")
    p = run(cli, "show", job.name, env=job.env)
    assert p.returncode == 1
    assert "verify: fail=x corrupt: not <sector> <class>" in p.stderr, p.stderr


@pytest.mark.parametrize("failed,status", [((), 0), (FAILED[:1], 1)])
def test_run_exit_status(fakerun, tmp_path, failed, status):
    """fio exits 1 when a block fails its check: so does ssdload run, from
    the verify file's count (even if the job's state were done), and 0
    after a clean pass; the report shows the pass either way."""
    from fakemodule import FAKE_ATTRS
    r = fakerun(runtime=0.2, attrs=FAKE_ATTRS + ("verify", "verify_interval",
                                                  "do_verify", "verify_fatal"))
    (tmp_path / "dbg" / r.name / "verify").write_text(verify_text(failed))
    code, out, err = r.start("--rw=write", "--allow_write", "--verify=crc32c",
                             "--output-format=json").finish()
    assert code == status, err
    j = json.loads(out)["jobs"][0]
    assert j["ssdload"]["verify"]["failed"] == len(failed)
    assert j["total_err"] == len(failed)


# ---- the HTML report (ssdload report of a run.json) -------------------------

def test_html_report_shows_the_verify_pass(cli, vjob, tmp_path):
    """The run's report page shows the verify counts per class, the first
    failures and a banner, from the CLI's own JSON; none without verify."""
    pytest.importorskip("matplotlib", reason="the renderer draws with matplotlib")
    from report import render_file
    job = vjob(verify_text(FAILED[:2]), error=-84, state="error")
    doc = json.loads(show(cli, job, "--output-format=json+"))
    p = render_file(tmp_path / "out", "run.json", doc, None)
    assert p.returncode == 0, p.stderr
    page = (tmp_path / "out" / "report.html").read_text()
    assert '<div class="banner bad" id="verify-failed"><h2>verify: 2 units failed' in page
    assert "1 corrupt, 1 misplaced" in page
    table = page[page.index('id="verify"'):]
    for k in ("crc32c", "blocks written", "2048", "failed units: read error",
              "generation map (bytes)"):
        assert k in table, k
    fails = page[page.index('id="verify-failures"'):]
    assert "<td>80</td><td>misplaced</td>" in fails.replace("\n", ""), fails[:800]
    assert "got_lba=88" in fails

    job = vjob(None)
    doc = json.loads(show(cli, job, "--output-format=json+"))
    p = render_file(tmp_path / "plain", "run.json", doc, None)
    assert p.returncode == 0, p.stderr
    page = (tmp_path / "plain" / "report.html").read_text()
    assert 'id="verify' not in page
