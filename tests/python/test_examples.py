"""posverify check on Python kernels through the process adapter (ctest label
`python`): the examples of examples/python/ pass, their wrong siblings are
caught by the law that states what they break, and every misbehaviour of a
Python kernel becomes a finding (tests/python/hostile_kernels.py)."""

import os
import subprocess
import sys
import tempfile

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..", "..", "examples", "python")
POSVERIFY = os.environ.get("POSVERIFY_BIN", "posverify")
OUT = os.environ.get("POSVERIFY_TEST_OUT") or tempfile.mkdtemp()

LLAMA = ["--rope-config", "halves:500000:128"]
FLUX = ["--rope-config", "adjacent:10000:16,56,56"]


def check(spec, *extra, path=EXAMPLES, cases="12"):
    cmd = [POSVERIFY, "check", "--impl", "python:" + spec, "--python-path", path, "--cases", cases,
           "--out", os.path.join(OUT, spec.replace(":", "_")), *extra]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=900)
    sys.stdout.write(r.stdout)
    sys.stderr.write(r.stderr)
    return r.returncode, r.stdout


def ok_line(law):
    return "  ok    " + law


def fail_line(law):
    return "  FAIL  " + law


def test_llama_rope():
    rc, out = check("llama_rope:LlamaRope", *LLAMA)
    assert rc == 0
    for dt in ("float32", "bfloat16", "float16"):
        assert ok_line("rope.reference[user-halves-128-theta500000/%s]" % dt) in out


def test_llama_rope_exponent():
    rc, out = check("llama_rope:LlamaRopeExponentOverD", *LLAMA)
    assert rc == 1
    assert fail_line("rope.reference[user-halves-128-theta500000/float32]") in out
    assert "theta^(-i/d)" in out  # the diagnosis names the wrong exponent


def test_llama_rope_sign():
    rc, out = check("llama_rope:LlamaRopeRotateHalfSign", *LLAMA)
    assert rc == 1
    assert fail_line("rope.reference[user-halves-128-theta500000/float32]") in out


def test_llama_rope_pos_bf16():
    rc, out = check("llama_rope:LlamaRopePositionsBf16", *LLAMA)
    assert rc == 1
    assert fail_line("rope.reference[user-halves-128-theta500000/float32]") in out


def test_flux_rope():
    rc, out = check("flux_rope:FluxRope", *FLUX)
    assert rc == 0
    assert ok_line("rope.reference[user-adjacent-16-56-56-theta10000/float32]") in out


def test_flux_rope_swapped():
    rc, out = check("flux_rope:FluxRopeRowsColumnsSwapped", *FLUX)
    assert rc == 1
    assert "FAIL  flux." in out or fail_line("rope.reference[user-adjacent-16-56-56-theta10000/float32]") in out


def test_sdpa():
    rc, out = check("sdpa:Sdpa")
    assert rc == 0
    assert ok_line("attention.reference[float32]") in out
    assert ok_line("attention.reference[bfloat16]") in out


def test_numpy_rope():
    rc, out = check("numpy_rope:NumpyRope", "--rope-config", "adjacent:10000:64")
    assert rc == 0
    assert ok_line("rope.reference[user-adjacent-64-theta10000/float64]") in out


# --- the adapter's guarantees ------------------------------------------------

def hostile(cls, *extra):
    return check("hostile_kernels:" + cls, "--law", "attention.reference", "--timeout-ms", "1500",
                 *extra, path=HERE, cases="4")


def test_adapter_plain_passes():
    rc, out = hostile("Plain")
    assert rc == 0
    assert ok_line("attention.reference[float64]") in out


@pytest.mark.parametrize("cls, words", [
    ("Raises", ["returned error code 2", "ValueError: boom from the kernel"]),
    ("WritesInput", ["modified input q"]),
    ("ReturnsNaN", ["NaN at output entry (0, 0)"]),
    ("WrongDtype", ["attention returned dtype float64 for a float32 call"]),
])
def test_adapter_findings(cls, words):
    rc, out = hostile(cls)
    assert rc == 1
    for w in words:
        assert w in out


def test_adapter_crash_is_a_finding_and_the_run_goes_on():
    rc, out = hostile("CrashesOnFloat32")
    assert rc == 1
    assert fail_line("attention.reference[float32]") in out
    assert "Segmentation fault" in out  # the server's fault handler, in the finding
    assert ok_line("attention.reference[float64]") in out  # a new server served the rest


def test_adapter_hang_is_a_finding_and_the_run_goes_on():
    rc, out = hostile("HangsOnFloat32")
    assert rc == 1
    assert "did not return within 1500 ms" in out
    assert ok_line("attention.reference[float64]") in out


def test_adapter_not_implemented_is_unsupported():
    rc, out = check("hostile_kernels:DeclinesAll", path=HERE, cases="4")  # every law, not only one
    assert rc == 1
    assert "attention.reference[float32]  (unsupported, 0 cases, 4 declined)" in out
    assert "no law could be run" in out
    assert "Traceback" not in out


def test_adapter_load_failures_exit_2():
    for spec, words in [("broken_module:X", "this module cannot be imported"),
                        ("hostile_kernels:NoSuchClass", "NoSuchClass"),
                        ("nocolon", "python:MODULE:OBJECT")]:
        cmd = [POSVERIFY, "check", "--impl", "python:" + spec, "--python-path", HERE, "--out", OUT]
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
        assert r.returncode == 2, r.stderr
        assert words in r.stderr


def test_adapter_impl_cmd():
    """--impl-cmd: any command speaking docs/protocol.md (here the Python server by hand)."""
    cmd = [POSVERIFY, "check", "--impl-cmd", "%s -m posverify.server hostile_kernels:Plain" % sys.executable,
           "--python-path", HERE, "--law", "attention.reference", "--cases", "4", "--out", OUT]
    env = dict(os.environ, PYTHONPATH=HERE + ":" + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300, env=env)
    sys.stdout.write(r.stdout)
    assert r.returncode == 0, r.stderr
    assert ok_line("attention.reference[float32]") in r.stdout


def run_cmd_server(script, *extra):
    """posverify check --impl-cmd on a shell script (written to a file)."""
    d = tempfile.mkdtemp()
    path = os.path.join(d, "server.sh")
    with open(path, "w") as f:
        f.write(script)
    cmd = [POSVERIFY, "check", "--impl-cmd", "sh " + path, "--out", os.path.join(d, "out"), *extra]
    env = dict(os.environ, PYTHONPATH=HERE + ":" + os.environ.get("PYTHONPATH", ""), SERVER_DIR=d)
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300, env=env)
    sys.stdout.write(r.stdout)
    sys.stderr.write(r.stderr)
    return r, d


def test_adapter_hello_dripped_in_two_writes_gets_one_start_limit():
    """The start limit holds for the whole HELLO answer: its length after 1.2 s
    and the rest 1.2 s later do not each get the 2 s limit (they did, and the
    HELLO was read)."""
    r, _ = run_cmd_server("sleep 1.2; printf '\\006\\000\\000\\000'; sleep 1.2; "
                          "printf '\\000\\000\\000\\000\\000\\000'; sleep 5\n",
                          "--start-timeout-ms", "2000")
    assert r.returncode == 2, r.stderr
    assert "no answer within 2000 ms" in r.stderr


def test_adapter_server_that_hangs_on_restart_is_restarted_once():
    """A server that crashes on a call and then hangs at every start was
    restarted before every batch, each costing the start limit (hours at the
    default); now one failed restart ends the tries, and each remaining call
    says why."""
    r, d = run_cmd_server(
        'echo start >> "$SERVER_DIR/starts"\n'
        'if [ -e "$SERVER_DIR/started" ]; then exec sleep 600; fi\n'
        'touch "$SERVER_DIR/started"\n'
        'exec "%s" -u -m posverify.server hostile_kernels:CrashesOnFloat32\n' % sys.executable,
        "--start-timeout-ms", "3000", "--law", "attention", "--cases", "4")
    assert r.returncode == 1, r.stderr
    with open(os.path.join(d, "starts")) as f:
        assert f.read().count("start") == 2
    assert "could not be restarted" in r.stdout
    assert "posverify does not try again in this run" in r.stdout


def test_adapter_scaled_rope_is_unsupported_not_sent_as_plain():
    """Protocol version 1 carries no RoPE scaling: a scaled configuration is
    unsupported for a server, never sent as the plain one (which a correct
    plain kernel then "fails")."""
    law = "rope.reference[user-halves-128-theta500000-linear-4/float32]"
    rc, out = check("llama_rope:LlamaRope", "--rope-config", "halves:500000:128:linear(4)", "--law", law, cases="4")
    assert fail_line(law) not in out
    assert "--    %s  (unsupported, 0 cases, 4 declined)" % law in out


def test_adapter_server_decodes_an_operation_from_its_row():
    """The server decodes every request from the table posverify passes in
    POSVERIFY_OPERATIONS (docs/protocol.md): an operation it was never told
    about in its code (here "scale", request 5) is served from its row alone."""
    import json
    import struct

    import numpy

    from posverify import server

    row = {"name": "scale", "request": 5, "bit": 3,
           "fields": [{"name": "n", "wire": "i64"}, {"name": "factor", "wire": "f64"},
                      {"name": "mode", "wire": "u8", "of": "opts", "max": 1, "names": "plain|twice"}],
           "buffers": [{"name": "opts", "elem": "config", "role": "in", "shape": []},
                       {"name": "x", "elem": "dtype", "role": "in", "shape": ["n"]},
                       {"name": "out", "elem": "dtype", "role": "out", "shape": ["n"]}],
           "python": ["x", "factor", "opts", "dtype"]}

    class Scale:
        backend = "numpy"

        def scale(self, x, factor, opts, dtype):
            return (x * factor * (2 if opts.mode == "twice" else 1)).astype(dtype)

    srv = server.Server(Scale(), "cpu", [server.Operation(json.loads(json.dumps(row)))])
    assert srv.provides() == 1 << 3
    x = numpy.arange(4, dtype=numpy.float64)
    body = struct.pack("<BBqdB", 5, 1, 4, 0.5, 1) + x.tobytes()
    status, written, text, payload = srv.call(bytearray(body))
    assert (status, written, text) == (0, 0, "")
    assert numpy.frombuffer(payload, dtype=numpy.float64).tolist() == [0.0, 1.0, 2.0, 3.0]
    with pytest.raises(server.ProtocolError, match="mode 2"):
        srv.call(bytearray(struct.pack("<BBqdB", 5, 1, 4, 0.5, 2) + x.tobytes()))
    with pytest.raises(server.ProtocolError, match="unknown request type 6"):
        srv.call(bytearray(struct.pack("<BBqdB", 6, 1, 4, 0.5, 0) + x.tobytes()))


def test_adapter_server_without_the_table_says_so():
    from posverify import server

    saved = os.environ.pop("POSVERIFY_OPERATIONS", None)
    try:
        with pytest.raises(RuntimeError, match="POSVERIFY_OPERATIONS"):
            server.operations_from_environment()
    finally:
        if saved is not None:
            os.environ["POSVERIFY_OPERATIONS"] = saved
