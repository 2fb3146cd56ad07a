"""The pytest plugin (python/posverify/pytest_plugin.py) on the regression
example examples/python/test_posverify_regression.py (ctest label `python`):
one item per law that `posverify check --list` names, a planted failure shows
the report's finding and its replay command (which reproduces it), and -k
runs only the selected law's item with one `posverify check --law`.

Each test runs pytest in a subprocess, as a CI job would."""

import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.abspath(os.path.join(HERE, "..", "..", "examples", "python"))
EXAMPLE = os.path.join(EXAMPLES, "test_posverify_regression.py")
POSVERIFY = os.environ.get("POSVERIFY_BIN", "posverify")
LLAMA = ["--rope-config", "halves:500000:128"]
# the plugin from this source tree (-p no:posverify: not an installed copy's entry point as well)
PLUGIN = ["-p", "no:posverify", "-p", "posverify.pytest_plugin"]


def run_pytest(*args, env=None):
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *PLUGIN, EXAMPLE, *args]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300,
                       env=dict(os.environ, **(env or {})))
    sys.stdout.write(r.stdout)
    return r.returncode, r.stdout


def listed(kernel):
    """The ids posverify check --list prints for the example's kernel and options."""
    r = subprocess.run([POSVERIFY, "check", "--list", "--impl", "python:llama_rope:" + kernel, "--python-path",
                        EXAMPLES, *LLAMA], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    ids = r.stdout.split()
    assert ids, "posverify check --list printed nothing"
    return ids


def only_report(out_dir):
    """The one JSON report the plugin's check wrote under --posverify-out."""
    found = [os.path.join(d, f) for d, _, fs in os.walk(out_dir) for f in fs if f.endswith(".json")]
    assert len(found) == 1, found
    with open(found[0]) as f:
        return json.load(f)


def test_plugin_one_item_per_law():
    """Each law of --list is one item, named by its id, with the outcome of
    its verdict in the report; JUnit XML carries them as ordinary tests."""
    d = tempfile.mkdtemp()
    xml = os.path.join(d, "junit.xml")
    rc, out = run_pytest("--junitxml=" + xml, "--posverify-out=" + os.path.join(d, "out"))
    assert rc == 0, out
    cases = ET.parse(xml).getroot().iter("testcase")
    got = [(c.get("name"), "skipped" if c.find("skipped") is not None else
            "failed" if c.find("failure") is not None or c.find("error") is not None else "passed") for c in cases]
    ids = listed("LlamaRope")
    assert [name for name, _ in got] == ids + ["baseline"]  # the baseline's complaints about laws not run
    verdicts = {law["id"]: law["verdict"] for law in only_report(os.path.join(d, "out"))["laws"]}
    assert sorted(verdicts) == sorted(ids)
    expect = {"passed": "passed", "unsupported": "skipped", "not-run": "skipped"}
    for name, outcome in got[:-1]:
        assert outcome == expect[verdicts[name]], (name, outcome, verdicts[name])
    assert {o for _, o in got} == {"passed", "skipped"}  # float64 is declined by LlamaRope: both kinds occur


def test_plugin_planted_failure_shows_finding_and_replay():
    """The wrong sibling LlamaRopeRotateHalfSign (rotate_half with the wrong
    sign): exactly the laws the report fails fail, each with its finding,
    its baseline regression and the report's replay command, and that
    command, run, fails the same way."""
    d = tempfile.mkdtemp()
    rc, out = run_pytest("-rf", "--posverify-out=" + d, env={"POSVERIFY_EXAMPLE_KERNEL": "LlamaRopeRotateHalfSign"})
    assert rc == 1, out
    report = only_report(d)
    failed = [law for law in report["laws"] if law["verdict"] == "failed"]
    assert failed, "the planted failure was not caught"
    assert sorted(re.findall(r"^FAILED \S+::llama_rope\.LlamaRopeRotateHalfSign::(\S+)", out, re.M)) == \
        sorted(law["id"] for law in failed)
    with open(os.path.join(EXAMPLES, "llama_rope_baseline.json")) as f:
        held = {law["id"] for law in json.load(f)["laws"] if law["verdict"] == "passed"}
    assert held & {law["id"] for law in failed}  # rope.reference held there (rope.rows is newer)
    for law in failed:
        assert "finding: " + law["finding"] in out
        assert "replay: " + law["replay"] in out
        regressed = "REGRESSION  `%s` held in the baseline and now is failed" % law["id"]
        assert (regressed in out) == (law["id"] in held), law["id"]
    law = next(law for law in failed if law["id"].startswith("rope.reference[") and law["dtype"] == "float32")
    argv = shlex.split(law["replay"])
    assert argv[:2] == ["posverify", "check"] and "--case" in argv
    r = subprocess.run([POSVERIFY] + argv[1:] + ["--out", tempfile.mkdtemp()], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=300)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "  FAIL  " + law["id"] in r.stdout
    assert law["finding"] in r.stdout


def test_plugin_k_selects_one_law():
    """-k "rope.shift_invariance and float32": one item runs, and posverify
    ran once for the listing and once for the check, with --law naming that
    law alone (seen by a wrapper logging the binary's arguments)."""
    d = tempfile.mkdtemp()
    log = os.path.join(d, "calls.jsonl")
    wrapper = os.path.join(d, "posverify")
    with open(wrapper, "w") as f:
        f.write("#!%s\nimport json, os, sys\nwith open(%r, 'a') as f:\n    f.write(json.dumps(sys.argv[1:]) + '\\n')\n"
                "os.execv(%r, [%r] + sys.argv[1:])\n" % (sys.executable, log, os.path.abspath(POSVERIFY), POSVERIFY))
    os.chmod(wrapper, 0o755)
    law = "rope.shift_invariance[user-halves-128-theta500000/float32]"
    rc, out = run_pytest("-v", "-k", "rope.shift_invariance and float32", "--posverify-out=" + os.path.join(d, "out"),
                         env={"POSVERIFY_BIN": wrapper})
    assert rc == 0, out
    assert re.search(r"::llama_rope\.LlamaRope::%s PASSED" % re.escape(law), out)
    assert re.search(r"\b1 passed, 28 deselected\b", out)
    with open(log) as f:
        calls = [json.loads(line) for line in f]
    assert len(calls) == 2, calls
    assert "--list" in calls[0]
    run = calls[1]
    assert "--list" not in run
    assert [run[i + 1] for i, a in enumerate(run) if a == "--law"] == [law]
    assert [x["id"] for x in only_report(os.path.join(d, "out"))["laws"]] == [law]
