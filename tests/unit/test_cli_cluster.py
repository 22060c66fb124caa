# SPDX-License-Identifier: GPL-2.0
"""ssdload cluster run / report and the Ansible collection (contrib/ansible).

On the host, without a module: the command line's refusals, an inventory
without the needed variables (refused naming the host and the variable,
through ansible-inventory), the results directory and cluster.json made
from canned per-host files (cluster report), the collection's syntax check
and lint, and a real playbook run over local connections whose hosts
cannot arm (no module): the start is called off and the report names them.
The run on real jobs is tests/e2e/test_cluster.py.
"""
import json
import os
import shutil
import subprocess

import pytest

from cli import run
from debugfs import FakeJob, lognormal

COLL = "contrib/ansible/ssdload"


def need_ansible():
    if not shutil.which("ansible-playbook") or not shutil.which("ansible-inventory"):
        pytest.skip("ansible-playbook is not installed (Debian ansible-core; scripts/deps.sh)")


def inventory(tmp_path, text):
    p = tmp_path / "hosts.ini"
    p.write_text(text)
    return str(p)


def ansible_env(tmp_path):
    return {"ANSIBLE_LOCAL_TEMP": str(tmp_path / "atmp"),
            "ANSIBLE_REMOTE_TEMP": str(tmp_path / "rtmp"),
            "ANSIBLE_HOST_KEY_CHECKING": "False"}


@pytest.mark.parametrize("args,needle", [
    ([], "inventory"),
    (["-i", "x.ini", "--rw=read"], "-o DIR"),
    (["-i", "x.ini", "-o", "d"], "say what to run"),
    (["-i", "x.ini", "-o", "d", "--rw=read", "--start_at=+5"], "--start_at=+5: the cluster sets it"),
    (["-i", "x.ini", "-o", "d", "--rw=read", "--output-format=json"], "the cluster sets it"),
    (["-i", "x.ini", "-o", "d", "--rw=read", "--min-hosts=two"], "--min-hosts=two"),
    (["-i", "x.ini", "-o", "d", "--timeout=0", "--rw=read"], "--timeout=0"),
    (["-i", "x.ini", "-o", "d", "a.fio", "--plan=p.ini"], "not both"),
    (["-i", "x.ini", "-o", "d", "a.fio", "b.fio"], "one job file"),
])
def test_refused_command_lines(cli, tmp_path, args, needle):
    p = run(cli, "cluster", "run", *args, cwd=str(tmp_path))
    assert p.returncode == 2, p.stderr
    assert needle in p.stderr
    assert not (tmp_path / "d").exists(), "a refused command made its directory"


def test_help_and_unknown_subcommand(cli):
    p = run(cli, "cluster", "--help")
    assert p.returncode == 0 and "cluster run -i INVENTORY" in p.stdout
    p = run(cli, "cluster", "walk")
    assert p.returncode == 2 and "run or report" in p.stderr


def test_inventory_without_the_device_is_refused(cli, tmp_path):
    need_ansible()
    inv = inventory(tmp_path, "[load]\nnodeA ssdload_filename=/dev/nullb0\nnodeB\n")
    p = run(cli, "cluster", "run", "-i", inv, "-o", str(tmp_path / "out"), "--rw=read",
            env=ansible_env(tmp_path))
    assert p.returncode == 2, p.stdout + p.stderr
    assert "host nodeB has no ssdload_filename" in p.stderr
    assert not (tmp_path / "out").exists()
    # --filename for every host, or --hosts leaving nodeB out, needs no variable
    p = run(cli, "cluster", "run", "-i", inv, "-o", str(tmp_path / "out"), "--rw=read",
            "--hosts=nodeZ", env=ansible_env(tmp_path))
    assert p.returncode == 2 and "no hosts" in p.stderr
    bad = inventory(tmp_path, "[load]\nnodeA ssdload_filename=/dev/x ssdload_host_options=--bs=4k\n")
    p = run(cli, "cluster", "run", "-i", bad, "-o", str(tmp_path / "out"), "--rw=read",
            env=ansible_env(tmp_path))
    assert p.returncode == 2 and "host nodeA: ssdload_host_options is not a list" in p.stderr


def test_min_hosts_above_the_inventory(cli, tmp_path):
    need_ansible()
    inv = inventory(tmp_path, "[load]\nnodeA ssdload_filename=/dev/a\n")
    p = run(cli, "cluster", "run", "-i", inv, "-o", str(tmp_path / "out"), "--rw=read",
            "--min-hosts=2", env=ansible_env(tmp_path))
    assert p.returncode == 2 and "--min-hosts=2: the inventory has 1 hosts" in p.stderr


def host_result(cli, geo, tmp_path, name, reads, first_submit, start_at):
    root = tmp_path / ("debugfs-" + name)
    job = FakeJob(geo, str(root), "job1", reads, [])
    p = run(cli, "show", "job1", "--output-format=json+",
            env={"SSDLOAD_DEBUGFS": str(root), "SSDLOAD_CONFIGFS": str(tmp_path / "nocfs")})
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    for j in doc["jobs"]:
        j["ssdload"].update(start_at=start_at, first_submit_real_ns=first_submit,
                            start_error_ns=first_submit - start_at)
    return doc


def test_report_from_canned_hosts(cli, geo, tmp_path):
    """cluster.json: states, offsets, start spread corrected; merged.json: sums."""
    top = tmp_path / "run"
    at = 1_800_000_000_000_000_000
    # B's clock is 3 ms ahead of the controller's: its first submission,
    # 3.05 ms late as read, is 50 us late on the controller's clock.
    hosts = {"nodeA": (lognormal(1, 3000, 80_000, 0.5), at + 20_000, -10_000),
             "nodeB": (lognormal(2, 5000, 120_000, 0.8), at + 3_050_000, 3_000_000)}
    for h, (reads, first, off) in hosts.items():
        (top / h).mkdir(parents=True)
        (top / h / "result.json").write_text(json.dumps(
            host_result(cli, geo, tmp_path, h, reads, first, at)))
        (top / h / "status.json").write_text(json.dumps({
            "host": h, "phase": "done", "start_at": str(at),
            "clock": {"source": "chrony", "offset_ns": str(off), "bound_ns": "40000"}}))
    (top / "nodeC").mkdir()
    (top / "nodeC" / "status.json").write_text(json.dumps({
        "host": "nodeC", "phase": "failed", "arm": {"armed": False, "why": "ssdload exited 1"}}))
    (top / "play.json").write_text(json.dumps(
        {"hosts": ["nodeA", "nodeB", "nodeC", "nodeD"], "run_id": "r1"}))
    p = run(cli, "cluster", "report", str(top))
    assert p.returncode == 1, p.stderr      # two hosts did not run
    assert "missing hosts: nodeD" in p.stdout and "failed hosts: nodeC" in p.stdout
    cl = json.loads((top / "cluster.json").read_text())
    assert cl["hosts_total"] == 4 and cl["hosts_done"] == 2
    assert cl["missing"] == ["nodeD"] and cl["failed"] == ["nodeC"]
    byname = {h["host"]: h for h in cl["hosts"]}
    assert byname["nodeC"]["why"] == "ssdload exited 1"
    a, b = byname["nodeA"], byname["nodeB"]
    assert a["start_error_ns"] == 20_000 and b["start_error_ns"] == 3_050_000
    assert a["first_submit_controller_ns"] == at + 30_000
    assert b["first_submit_controller_ns"] == at + 50_000
    assert cl["start_spread_ns"] == 20_000
    assert cl["start_spread_uncorrected_ns"] == 3_030_000
    assert cl["offset_bound_ns"] == 40_000
    merged = json.loads((top / "merged.json").read_text())
    assert merged["jobs"][0]["read"]["total_ios"] == 3000 + 5000
    assert sorted(h["host"] for h in merged["hosts"]) == ["nodeA", "nodeB"]


def test_report_needs_play_json(cli, tmp_path):
    p = run(cli, "cluster", "report", str(tmp_path))
    assert p.returncode == 2 and "play.json" in p.stderr


@pytest.fixture(scope="module")
def collection_path(repo, tmp_path_factory):
    """A collections path that holds the tree's collection as ssdload.ssdload."""
    top = tmp_path_factory.mktemp("coll")
    ns = top / "ansible_collections" / "ssdload"
    ns.mkdir(parents=True)
    os.symlink(os.path.join(repo, COLL), str(ns / "ssdload"))
    return str(top)


@pytest.mark.parametrize("playbook", ["run.yml", "install.yml", "facts.yml", "cleanup.yml"])
def test_collection_syntax(repo, collection_path, tmp_path, playbook):
    need_ansible()
    env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=collection_path, **ansible_env(tmp_path))
    p = subprocess.run(["ansible-playbook", "-i", "localhost,", "--syntax-check",
                        os.path.join(repo, COLL, "playbooks", playbook)],
                       capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr


def test_collection_lint(repo, collection_path, tmp_path):
    if not shutil.which("ansible-lint"):
        pytest.skip("ansible-lint is not installed (Debian ansible-lint; scripts/deps.sh)")
    env = dict(os.environ, NO_COLOR="1", HOME=str(tmp_path), ANSIBLE_COLLECTIONS_PATH=collection_path,
               **ansible_env(tmp_path))
    p = subprocess.run(["ansible-lint", "-p", "--offline"], cwd=os.path.join(repo, COLL),
                       capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr


def test_hosts_that_cannot_arm_call_off_the_start(cli, tmp_path):
    """Two local hosts without a module: neither arms, both named, no merge."""
    need_ansible()
    inv = inventory(tmp_path, "[load]\nnodeA ssdload_filename=/dev/nullb0\n"
                    "nodeB ssdload_filename=/dev/nullb1\n[load:vars]\n"
                    "ansible_connection=local\nansible_python_interpreter=/usr/bin/python3\n")
    out = tmp_path / "out"
    env = dict(ansible_env(tmp_path), PATH=os.path.dirname(cli) + ":" + os.environ["PATH"],
               SSDLOAD_CONFIGFS=str(tmp_path / "no-module"))
    p = subprocess.run(
        [cli, "cluster", "run", "-i", inv, "-o", str(out), "--rw=read", "--runtime=1"],
        capture_output=True, text=True, env=dict(os.environ, **env), timeout=300)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "failed hosts: nodeA nodeB" in p.stdout
    cl = json.loads((out / "cluster.json").read_text())
    assert cl["failed"] == ["nodeA", "nodeB"] and cl["hosts_done"] == 0
    for h in cl["hosts"]:
        assert "ssdload.ko is not loaded" in h["why"], h
        assert h["clock"]["source"] in ("ssh", "chrony")
    assert not (out / "merged.json").exists()
    assert not (out / "nodeA" / "result.json").exists()
