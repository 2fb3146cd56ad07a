"""The Python API (python/posverify/api.py; ctest label `python`): check()'s
result matches the JSON report the binary wrote and its console; a Python
class is named to the server by module and qualified name; exit code 2, a
missing binary and an unreadable report raise PosverifyError with posverify's
message; a kernel a child process cannot import is refused with a clear
message."""

import json
import os
import re
import subprocess
import sys
import tempfile

import pytest

import posverify

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.abspath(os.path.join(HERE, "..", "..", "examples", "python"))
POSVERIFY = os.environ.get("POSVERIFY_BIN", "posverify")
LLAMA = "halves:500000:128"


def test_api_result_matches_the_report():
    out = tempfile.mkdtemp()
    r = posverify.check("llama_rope:LlamaRopeRotateHalfSign", python_path=EXAMPLES, rope_config=LLAMA, cases=12,
                        out=out)
    assert (r.exit_code, r.ok) == (1, False)
    assert os.path.dirname(r.json_path) == out
    for p in (r.json_path, r.markdown_path, r.html_path):
        assert os.path.isfile(p), p
    with open(r.json_path) as f:
        report = json.load(f)
    assert r.name == report["implementation"]["name"] == "llama-rope-rotate-half-sign"
    assert [law.id for law in r.laws] == [x["id"] for x in report["laws"]]
    for law, x in zip(r.laws, report["laws"]):
        assert (law.base_id, law.dtype, law.config, law.verdict) == (x["base_id"], x["dtype"], x["config"],
                                                                      x["verdict"])
        assert (law.finding, law.counterexample, law.replay) == (x["finding"], x["counterexample"], x["replay"])
        assert (law.cases, law.unsupported_cases) == (x["cases"], x["unsupported_cases"])
        assert law.worst_ratio == (float(x["worst"]["ratio"]) if x["worst"] else None)
        assert law.outcome == {"passed": "pass", "failed": "fail", "unsupported": "skip"}[x["verdict"]]
    # the laws that fail are those the binary printed FAIL for, each with the replay it printed
    assert [law.id for law in r.failures] == re.findall(r"^  FAIL  (\S+)", r.stdout, re.M)
    assert r.failures
    for law in r.failures:
        assert "        replay: " + law.replay + "\n" in r.stdout
    assert r["rope.reference[user-halves-128-theta500000/float32]"].diagnosis.endswith("(the sign of both sines "
                                                                                        "is flipped: R(-m))")
    with pytest.raises(KeyError, match="no law 'nope'"):
        r["nope"]


def test_api_plugin_library():
    """A plugin .so: no --python; a built-in mutant (its sine negated) fails."""
    lib = os.path.join(os.path.dirname(os.path.abspath(POSVERIFY)), "libpv_mutant_rope_sine_sign.so")
    if not os.path.isfile(lib):
        pytest.skip("%s is not built" % lib)
    r = posverify.check(lib, rope_config=LLAMA, cases=12)
    assert not r.ok and r.failures
    assert "--python" not in r.command
    assert all(law.replay.startswith("posverify check --impl " + lib) for law in r.failures)


def test_api_class_is_named_by_module_and_qualname():
    sys.path.insert(0, EXAMPLES)
    try:
        import llama_rope
    finally:
        sys.path.remove(EXAMPLES)
    laws = posverify.list_laws(llama_rope.LlamaRope, rope_config=LLAMA)
    r = subprocess.run([POSVERIFY, "check", "--list", "--impl", "python:llama_rope:LlamaRope", "--python-path",
                        EXAMPLES, "--rope-config", LLAMA], stdout=subprocess.PIPE, text=True, timeout=300)
    assert laws == r.stdout.split() and laws
    law = "rope.reference[user-halves-128-theta500000/float32]"
    res = posverify.check(llama_rope.LlamaRope, rope_config=LLAMA, cases=12, laws=[law])
    assert res.ok and [x.id for x in res.laws] == [law]
    assert res.kernel == "python:llama_rope:LlamaRope"
    cmd = list(res.command)
    assert cmd[cmd.index("--python") + 1] == sys.executable
    assert cmd[cmd.index("--python-path") + 1] == EXAMPLES  # the module's directory, found from the class


def test_api_exit_2_raises_with_posverify_message():
    with pytest.raises(posverify.PosverifyError) as e:
        posverify.check("broken_module:X", python_path=HERE, cases=4)
    assert e.value.exit_code == 2
    assert "this module cannot be imported" in e.value.message
    with pytest.raises(posverify.PosverifyError) as e:
        posverify.check("llama_rope:LlamaRope", python_path=EXAMPLES, rope_config="nonsense")
    assert e.value.exit_code == 2
    assert e.value.message.startswith("posverify: --rope-config 'nonsense': needs three fields")
    assert "usage:" not in e.value.message and "usage:" in e.value.stderr


def test_api_missing_binary_says_how_to_install(monkeypatch):
    monkeypatch.setenv("POSVERIFY_BIN", "/nonexistent/posverify")
    with pytest.raises(posverify.PosverifyError, match="POSVERIFY_BIN=/nonexistent/posverify is not an executable"):
        posverify.check("llama_rope:LlamaRope")
    monkeypatch.delenv("POSVERIFY_BIN")
    monkeypatch.setenv("PATH", tempfile.mkdtemp())
    with pytest.raises(posverify.PosverifyError, match="not on PATH and POSVERIFY_BIN is not set: install"):
        posverify.list_laws("llama_rope:LlamaRope")


def test_api_unreadable_report():
    """A binary whose report is not JSON (here a stand-in printing the line
    that names it) raises, naming the file."""
    d = tempfile.mkdtemp()
    fake = os.path.join(d, "posverify")
    with open(fake, "w") as f:
        f.write("#!/bin/sh\nwhile [ \"$1\" != --out ]; do shift; done\necho '{\"laws\": [' > \"$2/k.json\"\n"
                "echo \"wrote $2/k.md, .json and .html\"\n")
    os.chmod(fake, 0o755)
    with pytest.raises(posverify.PosverifyError, match=r"cannot read the report .*/k\.json") as e:
        posverify.check("m:K", binary=fake, out=d)
    assert e.value.exit_code == 0


def test_api_kernel_in_main_is_refused():
    script = os.path.join(tempfile.mkdtemp(), "script.py")
    with open(script, "w") as f:
        f.write("import posverify\n\nclass Mine(posverify.Kernel):\n    pass\n\n"
                "try:\n    posverify.check(Mine)\nexcept posverify.PosverifyError as e:\n    print(e)\n")
    r = subprocess.run([sys.executable, script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert "class 'Mine' is defined in __main__ (the script being run)" in r.stdout
    assert "Move it into a module" in r.stdout


def test_api_kernel_not_importable_is_refused():
    class Local(posverify.Kernel):
        pass

    with pytest.raises(posverify.PosverifyError, match=r"defined inside a function .*<locals>\.Local"):
        posverify.check(Local)
    with pytest.raises(posverify.PosverifyError, match="is not bound to a module-level name"):
        posverify.check(Local())
    with pytest.raises(posverify.PosverifyError, match="expected the path of a plugin"):
        posverify.check("no kernel here")
    with pytest.raises(TypeError, match="unknown option"):
        posverify.Check("m:K", rope_configs="halves:500000:128")
