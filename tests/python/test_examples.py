"""posverify check on Python kernels through the process adapter (ctest label
`python`): the examples of examples/python/ pass, their wrong siblings are
caught by the law that states what they break, and every misbehaviour of a
Python kernel becomes a finding (tests/python/hostile_kernels.py)."""

import json
import os
import re
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


def check(spec, *extra, path=EXAMPLES, cases="12", env=None, out=None):
    cmd = [POSVERIFY, "check", "--impl", "python:" + spec, "--python-path", path, "--cases", cases,
           "--out", out or os.path.join(OUT, spec.replace(":", "_")), *extra]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=900,
                       env=dict(os.environ, **(env or {})))
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


LLAMA31 = "llama-3.1-8b"


def test_llama_rope_llama3():
    """The kernel declaring "scaled" is sent Llama 3.1's configuration over
    protocol 2 and follows it: the scaled laws run (none unsupported but
    float64, which it declines for its float32 tables) and pass."""
    rc, out = check("llama_rope:LlamaRope", "--rope-preset", LLAMA31, cases="6")
    assert rc == 0
    for dt in ("float32", "bfloat16", "float16"):
        assert ok_line("rope.reference[%s/%s]" % (LLAMA31, dt)) in out
        assert ok_line("rope.shift_invariance[%s/%s]" % (LLAMA31, dt)) in out
    assert "unsupported" not in out.replace("float64]  (unsupported", "")


def test_llama_rope_pos_bf16_llama3():
    """Positions cast to bfloat16 under Llama 3.1's scaling, in a kernel without
    float64: the diagnosis probes in float32 at theta 500000, reads the slow
    pairs' tiny angles (read as no turn, they matched no rule) and names the
    rounded position."""
    rc, out = check("llama_rope:LlamaRopePositionsBf16", "--rope-preset", LLAMA31, "--law", "rope.reference",
                    cases="4")
    assert rc == 1
    assert "its speeds are those of the configuration" in out
    assert "position 257 acts as 256 (= position rounded to bfloat16)" in out


def test_llama_rope_llama3_wrong_original_length():
    """Llama 3.1's rule placed for twice L0: caught, and the diagnosis names
    the original length the kernel uses."""
    rc, out = check("llama_variants:LlamaRopeLlama3LengthDoubled", "--rope-preset", LLAMA31, "--law",
                    "rope.reference", path=HERE, cases="4", env=WITH_EXAMPLES)
    assert rc == 1
    assert "it places the ramp of the llama3 rule for original length 16384, the configuration's is 8192" in out


MLA_YARN = "halves:10000:192:last(64)+yarn(40,32,1,4096)"
FACTORS = "halves:500000:16:freq_factors(1,1,2,4,8,8,8,8)"


def test_llama_rope_yarn_offset_and_factors():
    """The example follows YaRN (with its attention factor on cos and sin), a
    rotated block at the end of the head (MLA) and per-pair frequency factors
    over protocol 3: every law of both configurations passes."""
    rc, out = check("llama_rope:LlamaRope", "--rope-config", MLA_YARN, "--rope-config", FACTORS, cases="6")
    assert rc == 0, out
    for cfg in ("user-halves-192-theta10000-last-64-yarn-40-32-1-4096",
                "user-halves-16-theta500000-freq_factors-3b868e4b"):
        assert ok_line("rope.reference[%s/float32]" % cfg) in out
    assert ok_line("rope.yarn.temperature[user-halves-192-theta10000-last-64-yarn-40-32-1-4096/float32]") in out
    assert ok_line("rope.partial.pass_through[user-halves-192-theta10000-last-64-yarn-40-32-1-4096/float32]") in out
    assert "unsupported" not in out.replace("float64]  (unsupported", "")


def test_llama_rope_yarn_no_temperature_and_offset_ignored():
    """Its wrong siblings: YaRN without the attention factor, and the rotated
    block left at the head's start: each caught, its cause named."""
    rc, out = check("llama_variants:LlamaRopeYarnNoTemperature", "--rope-config", MLA_YARN, "--law",
                    "rope.reference", path=HERE, cases="4", env=WITH_EXAMPLES)
    assert rc == 1
    assert "it leaves out YaRN's attention factor a = 1.36889" in out
    rc, out = check("llama_variants:LlamaRopeOffsetIgnored", "--rope-config", MLA_YARN, "--law",
                    "rope.reference", path=HERE, cases="4", env=WITH_EXAMPLES)
    assert rc == 1
    assert "it rotates components 0 to 63, the configuration components 128 to 191" in out


def test_llama_rope_ignores_scaling():
    """Declares "scaled" but turns by the plain ladder: caught."""
    rc, out = check("llama_rope:LlamaRopeIgnoresScaling", "--rope-preset", LLAMA31, "--law", "rope.reference",
                    cases="4")
    assert rc == 1
    assert fail_line("rope.reference[%s/float32]" % LLAMA31) in out


DYNAMIC = ["--rope-config", "halves:500000:128:dynamic(4,8192,32768)"]
# tests/python/llama_variants.py imports the example
WITH_EXAMPLES = {"PYTHONPATH": os.pathsep.join([os.path.abspath(EXAMPLES)] +
                                               [p for p in [os.environ.get("PYTHONPATH")] if p])}
DYNAMIC_ID = "user-halves-128-theta500000-dynamic-4-8192-32768"


def test_llama_rope_dynamic():
    """Dynamic NTK with the length read from the call's positions and a cache,
    as transformers runs it, declared: every law of the configuration passes."""
    rc, out = check("llama_rope:LlamaRope", *DYNAMIC, cases="8")
    assert rc == 0
    for dt in ("float32", "bfloat16", "float16"):
        assert ok_line("rope.reference[%s/%s]" % (DYNAMIC_ID, dt)) in out
        assert ok_line("rope.dynamic_ntk.length_dependence[%s/%s]" % (DYNAMIC_ID, dt)) in out


def test_llama_rope_dynamic_undeclared():
    """The same kernel without the declaration: rejected, and told why."""
    rc, out = check("llama_variants:LlamaRopeLengthUndeclared", *DYNAMIC, "--law", "rope.reference", path=HERE,
                    cases="4", env=WITH_EXAMPLES)
    assert rc == 1
    assert fail_line("rope.reference[%s/float32]" % DYNAMIC_ID) in out
    assert "it reads dynamic NTK's length from the call's positions" in out
    assert '"length_from_positions" in Kernel.rope_caps' in out


def test_llama_rope_dynamic_never_resets():
    """A cache that only grows: a call shorter than L0 after a long one turns
    by the long one's base."""
    rc, out = check("llama_rope:LlamaRopeDynamicNeverResets", *DYNAMIC, cases="8")
    assert rc == 1
    assert fail_line("rope.dynamic_ntk.length_dependence[%s/float32]" % DYNAMIC_ID) in out
    assert "it turns by L's base below L0 too" in out


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


# --- attend through the pipe (protocol version 4) -----------------------------

ATTEND_LAWS = ("reference", "support", "gqa_repeat", "causal_prefix", "decode_rows", "padding", "lse_merge",
               "convex_hull", "independence", "cache", "layout", "homogeneity", "permutation", "packing")


def attend_ok(out, lse=True):
    """Every attend law passed (attend.lse_merge unsupported for a kernel not declaring "lse")."""
    for law in ATTEND_LAWS:
        for dt in ("float32", "float64"):
            if law == "lse_merge" and not lse:
                assert "--    attend.lse_merge[%s]  (unsupported" % dt in out
            else:
                assert ok_line("attend.%s[%s]" % (law, dt)) in out, (law, dt)


@pytest.mark.parametrize("cls", ["EagerAttention", "EagerFinfoMin"])
def test_eager_attention(cls):
    """Hand-written eager attention with GQA, a mask from cache positions,
    windows, padding, softcap, sinks, ALiBi and the log-sum-exp passes every
    attend law; so does the finfo.min mask that declares "the mean of V" (its
    empty rows once failed attend.causal_prefix: tests/laws/attend/laws_test.cpp)."""
    rc, out = check("eager_attention:" + cls)
    assert rc == 0
    attend_ok(out, lse=cls == "EagerAttention")


@pytest.mark.parametrize("cls, law, diagnosis", [
    ("EagerTopLeftCausal", "attend.decode_rows", "causal alignment"),
    ("EagerTopLeftCausal", "attend.cache", "causal alignment: the step at q_start"),
    ("EagerGqaTile", "attend.gqa_repeat", "GQA mapping"),
    ("EagerGqaTile", "attend.independence", "GQA mapping"),
    ("EagerSoftcapIgnored", "attend.reference", "softcap ignored"),
    ("EagerWindowPlusOne", "attend.support", "window off by one"),
    ("EagerMaskBeforeSoftcap", "attend.reference", "bias before the softcap"),
    ("EagerVarlenKeysFromQueryOffsets", "attend.packing", "the packed call is wrong, the call with the flags right: "
                                                          "the packed keys cut with the queries' offsets"),
])
def test_eager_attention_siblings(cls, law, diagnosis):
    """Each wrong sibling fails the law that states what it breaks, and the
    finding names its class."""
    rc, out = check("eager_attention:" + cls, "--law", law + "[float32]")
    assert rc == 1
    assert fail_line(law + "[float32]") in out
    assert "diagnosis: " + diagnosis in out


def test_eager_attention_models():
    """At the shapes of shipped models (attend.models): the eager kernel passes
    a Llama 3 decoding step against caches of 8192 and 5000 tokens and a
    gpt-oss chunk with sinks and a window of 128, tensors of tens of MB
    through the pipe; its tiled-GQA sibling is caught there, named."""
    models = ("--attend-preset", "llama-3-8b-decode", "--attend-preset", "gpt-oss-20b",
              "--law", "attend.models[float32]")
    rc, out = check("eager_attention:EagerAttention", *models)
    assert rc == 0
    assert ok_line("attend.models[float32]") in out
    rc, out = check("eager_attention:EagerGqaTile", "--attend-preset", "gpt-oss-20b",
                    "--law", "attend.models[float32]")
    assert rc == 1
    assert fail_line("attend.models[float32]") in out
    assert "diagnosis: GQA mapping" in out


def test_sdpa_attend():
    """The real F.scaled_dot_product_attention (the math composition on a torch
    without it) with a mask from the queries' positions passes; is_causal=True
    in its place aligns the mask top-left and is caught as such, by
    attend.decode_rows and by attend.cache."""
    rc, out = check("sdpa:SdpaAttend")
    assert rc == 0
    attend_ok(out, lse=False)
    rc, out = check("sdpa:SdpaIsCausal")
    assert rc == 1
    assert fail_line("attend.decode_rows[float32]") in out
    assert "diagnosis: causal alignment" in out
    # pytorch#144858: is_causal against a KV cache, caught by cached = uncached
    assert fail_line("attend.cache[float32]") in out
    assert "aligned top-left against its cache" in out


def check_cmd(spec, path, *extra):
    """posverify check --impl-cmd on the Python server started by hand, as any
    other language's server would be."""
    cmd = [POSVERIFY, "check", "--impl-cmd", "%s -m posverify.server %s" % (sys.executable, spec),
           "--cases", "12", "--out", os.path.join(OUT, "cmd_" + spec.replace(":", "_")), *extra]
    env = dict(os.environ, PYTHONPATH=path + ":" + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600, env=env)
    sys.stdout.write(r.stdout)
    sys.stderr.write(r.stderr)
    return r.returncode, r.stdout


def test_attend_impl_cmd():
    """A causal GQA kernel with a KV cache, windows and softcap through
    --impl-cmd: the correct one passes, its top-left sibling is caught."""
    rc, out = check_cmd("eager_attention:EagerAttention", EXAMPLES)
    assert rc == 0
    attend_ok(out)
    rc, out = check_cmd("eager_attention:EagerTopLeftCausal", EXAMPLES, "--law", "attend.support")
    assert rc == 1
    assert "diagnosis: causal alignment" in out


def test_attend_protocol():
    """The numpy backend's strided views and int64 members; a kernel that
    omits the log-sum-exp it declares, returns it in another shape, or writes
    its keys is a finding; a version-4 server is never sent a bias, a
    version-3 server never attend; an unknown
    capability is a load failure naming it."""
    rc, out = check("attend_kernels:NumpyAttend", path=HERE)
    assert rc == 0
    attend_ok(out)
    for cls, words in [("NoLse", "attend returned no lse, which this call asks for (problem.lse is True"),
                       ("LseWrongShape", "attend's lse has shape"),
                       ("WritesK", "modified input k")]:
        rc, out = check("attend_kernels:" + cls, "--law", "attend.reference", path=HERE, cases="4")
        assert rc == 1, cls
        assert words in out, cls
    # a version-4 server declaring "bias" is never sent one (the bias travels from version 5): the
    # permutation law, which needs it, is unsupported, every other law passes
    rc, out = check("attend_kernels:NumpyAttend", path=HERE, cases="4", env={"POSVERIFY_SERVER_PROTOCOL": "4"})
    assert rc == 0
    assert "--    attend.permutation[float32]  (unsupported" in out
    assert ok_line("attend.reference[float32]") in out
    # packed items (protocol 6): the numpy kernel told cu_seqlens passes attend.packing; one whose keys
    # are cut with the queries' offsets (wrong only when it is told packed items) fails it, the cause
    # named; a version-5 server is told the packing as a bias instead, and passes
    rc, out = check("attend_kernels:NumpyAttend", "--law", "attend.packing", path=HERE, cases="6")
    assert rc == 0
    assert ok_line("attend.packing[float32]") in out
    rc, out = check("attend_kernels:VarlenKeysFromQueryOffsets", "--law", "attend.packing[float32]", path=HERE,
                    cases="6")
    assert rc == 1
    assert "the packed keys cut with the queries' offsets" in out
    rc, out = check("attend_kernels:VarlenKeysFromQueryOffsets", "--law", "attend.packing[float32]", path=HERE,
                    cases="6", env={"POSVERIFY_SERVER_PROTOCOL": "5"})
    assert rc == 0
    rc, out = check("attend_kernels:WritesCuSeqlens", "--law", "attend.packing[float32]", path=HERE, cases="6")
    assert rc == 1
    assert "the kernel modified its input cu_seqlens_q" in out
    rc, out = check("attend_kernels:NumpyAttend", path=HERE, cases="4", env={"POSVERIFY_SERVER_PROTOCOL": "3"})
    assert "attend.reference" not in out
    assert "no law could be run" in out
    cmd = [POSVERIFY, "check", "--impl", "python:attend_kernels:UnknownAttendCap", "--python-path", HERE,
           "--out", OUT]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
    assert r.returncode == 2, r.stderr
    assert "attend_caps names 'flash'" in r.stderr


# --- the adapter's guarantees ------------------------------------------------

def hostile(cls, *extra):
    return check("hostile_kernels:" + cls, "--law", "attention.reference", "--timeout-ms", "1500",
                 *extra, path=HERE, cases="4")


def test_adapter_plain_passes():
    rc, out = hostile("Plain")
    assert rc == 0
    assert ok_line("attention.reference[float64]") in out
    # one kept child forwarded every batch to the server (a fresh child per batch: seven)
    assert "1 child processes" in out


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


def test_adapter_stderr_of_a_call_is_its_own():
    rc, out = hostile("PrintsEachCall")
    assert rc == 1
    assert "ValueError: boom on a float64 call" in out
    m = re.search(r"np-prints: call (\d+) of the server raises", out)  # its own line, in its finding
    assert m, out
    n = int(m.group(1))
    # nor the line of the call before, nor that of the call after (whose
    # request the server already held when the failed call's answer was read)
    assert "np-prints: call %d of" % (n - 1) not in out and "np-prints: call %d of" % (n + 1) not in out


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
                        ("hostile_kernels:UnknownRopeCap", "rope_caps names 'spiral'"),
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


# --- protocol version 2: the RoPE configurations a server declares -------------

def recorded(spec, *extra, env=None):
    """posverify check on a kernel of tests/python/rope_recorders.py: its
    output, and the calls the kernel saw (one dict per call)."""
    d = tempfile.mkdtemp()
    record = os.path.join(d, "calls.jsonl")
    rc, out = check(spec, *extra, path=HERE + ":" + EXAMPLES, cases="2", out=os.path.join(d, "out"),
                    env=dict(env or {}, POSVERIFY_TEST_RECORD=record))
    calls = []
    if os.path.exists(record):
        with open(record) as f:
            calls = [json.loads(line) for line in f]
    return rc, out, calls, os.path.join(d, "out")


def declined(law, n=2):
    return "--    %s  (unsupported, 0 cases, %d declined)" % (law, n)


PLAIN = "user-halves-128-theta500000"


def test_protocol_undeclared_scaling_is_unsupported_and_never_sent():
    """A kernel that does not declare "scaled" is never sent a scaled
    configuration (its record holds none, though it holds the plain ones):
    those laws are "unsupported"."""
    rc, out, calls, _ = recorded("rope_recorders:PlainRecorder", "--rope-config", "halves:500000:128",
                                 "--rope-preset", LLAMA31, "--rope-preset", "qwen2-vl", "--law", "rope.reference")
    assert declined("rope.reference[%s/float32]" % PLAIN) in out  # decoded, then declined by the kernel
    assert declined("rope.reference[%s/float32]" % LLAMA31) in out
    assert declined("rope.reference[qwen2-vl/float32]") in out
    assert calls, "the plain configuration reached the kernel"
    assert [c for c in calls if c["cfg"]["scaling"]["kind"] != "none" or c["cfg"]["mrope"]] == []
    assert "FAIL" not in out


def test_protocol_declared_mrope_and_scaling_reach_the_kernel():
    """Qwen2-VL's M-RoPE arrives as mrope=True with three position
    coordinates, Llama 3.1's scaling with every member of pv_rope_scaling."""
    rc, out, calls, _ = recorded("rope_recorders:FullRecorder", "--rope-preset", "qwen2-vl",
                                 "--rope-preset", LLAMA31, "--law", "rope.reference")
    assert "FAIL" not in out
    mrope = [c for c in calls if c["cfg"]["mrope"]]
    assert mrope and all(c["cfg"]["n_axes"] == 3 and sum(c["cfg"]["axes_dim"]) == 128 and
                         c["pos_shape"][1] == 3 and c["cfg"]["scaling"]["kind"] == "none" for c in mrope)
    llama3 = [c["cfg"]["scaling"] for c in calls if c["cfg"]["scaling"]["kind"] == "llama3"]
    assert llama3 and all(s == {"kind": "llama3", "factor": 8.0, "low": 1.0, "high": 4.0, "original_length": 8192.0,
                                "length": 0.0, "attention_factor": 0.0} for s in llama3)
    assert all(c["pos_dtype"] == "float64" for c in calls)


FF = "halves:500000:16:freq_factors(1,1,2,4,8,8,8,8)"


def test_protocol_version3_carries_rotary_offset_and_freq_factors():
    """Protocol 3 carries the members of ABI version 7: DeepSeek-V2-Lite's
    rope part arrives as rotary_offset 128 of 192, the frequency factors as a
    tuple of R/2 values. A kernel not declaring them, or a server answering
    protocol 2, is never sent them: those laws are unsupported."""
    rc, out, calls, _ = recorded("rope_recorders:Version7Recorder", "--rope-preset", "deepseek-v2-lite",
                                 "--rope-config", FF, "--law", "rope.reference")
    assert "FAIL" not in out
    offset = [c["cfg"] for c in calls if c["cfg"]["rotary_offset"]]
    assert offset and all(c["rotary_offset"] == 128 and c["head_dim"] == 192 and c["axes_dim"] == [64]
                          and c["n_freq_factors"] == 0 and c["freq_factors"] == [] for c in offset)
    ff = [c["cfg"] for c in calls if c["cfg"]["n_freq_factors"]]
    assert ff and all(c["freq_factors"] == [1.0, 1.0, 2.0, 4.0, 8.0, 8.0, 8.0, 8.0] and c["rotary_offset"] == 0
                      for c in ff)
    for who, env in (("rope_recorders:FullRecorder", None),
                     ("rope_recorders:Version7Recorder", {"POSVERIFY_SERVER_PROTOCOL": "2"})):
        rc, out, calls, _ = recorded(who, "--rope-preset", "deepseek-v2-lite", "--rope-config", FF, "--law",
                                     "rope.reference", env=env)
        assert "FAIL" not in out, who
        assert calls == [], (who, env)
        assert "--    rope.reference[deepseek-v2-lite/float32]  (unsupported, 0 cases" in out, (who, out)


def test_protocol_version1_server_behaves_as_before():
    """A server answering HELLO with version 1 (an older package, or another
    language's server) is sent version 1's layout only, and only plain and
    partial configurations, whatever its kernel declares: the plain calls
    decode (a version-2 body would be a malformed request, a FAIL), the
    scaled and M-RoPE laws are unsupported, and a correct kernel declaring
    "scaled" is never sent a scaled configuration as a plain one."""
    env = {"POSVERIFY_SERVER_PROTOCOL": "1"}
    rc, out, calls, report = recorded("rope_recorders:FullRecorder", "--rope-config", "halves:500000:128",
                                      "--rope-preset", LLAMA31, "--rope-preset", "qwen2-vl", "--law",
                                      "rope.reference", env=env)
    assert "FAIL" not in out
    assert declined("rope.reference[%s/float32]" % PLAIN) in out
    assert declined("rope.reference[%s/float32]" % LLAMA31) in out
    assert declined("rope.reference[qwen2-vl/float32]") in out
    assert calls and all(c["cfg"]["scaling"]["kind"] == "none" and not c["cfg"]["mrope"] for c in calls)
    with open(os.path.join(report, "full-recorder.json")) as f:
        assert json.load(f)["implementation"]["rope_caps"] == 1  # partial rotary only
    law = "rope.reference[%s/float32]" % LLAMA31
    rc, out = check("llama_rope:LlamaRope", "--rope-preset", LLAMA31, "--law", law, cases="4", env=env)
    assert fail_line(law) not in out
    assert declined(law, 4) in out


def test_protocol_int64_positions():
    """position_dtype = "int64": pos arrives as int64 (the kernel raises
    otherwise) and every law of a plain configuration passes, so none of them
    sends a position that is not a whole number."""
    rc, out = check("rope_recorders:LlamaRopeInt64Positions", *LLAMA, path=HERE + ":" + EXAMPLES, cases="4")
    assert rc == 0
    assert ok_line("rope.reference[user-halves-128-theta500000/float32]") in out
    assert "unsupported, 0 cases" not in out.replace("float64]  (unsupported, 0 cases", "")


def test_protocol_server_negotiates_and_decodes_by_version(monkeypatch):
    """The server's HELLO answer and decoding, from a table like posverify's:
    version 2 adds rope_caps and decodes mrope and scaling (a RopeScaling);
    version 3 the rotary offset and the frequency factors (a tuple of
    n_freq_factors values);
    offered version 1 (or POSVERIFY_SERVER_PROTOCOL=1) it answers 1 and
    decodes version 1's header, the configuration keeping its defaults; a
    position that is not whole is declined for an int64 kernel."""
    import struct

    import numpy

    from posverify import RopeConfig, RopeScaling, server

    v1 = [{"name": "n", "wire": "i64"},
          {"name": "head_dim", "wire": "i32", "of": "cfg"}, {"name": "n_axes", "wire": "i32", "of": "cfg"},
          {"name": "axes_dim", "wire": "i32", "of": "cfg", "count": 4, "length": "n_axes"},
          {"name": "theta", "wire": "f64", "of": "cfg"},
          {"name": "pairing", "wire": "u8", "of": "cfg", "names": "adjacent|halves"}]
    v2 = [{"name": "mrope", "wire": "u8", "of": "cfg", "protocol": 2, "bool": True, "max": 1},
          {"name": "scaling.kind", "wire": "i32", "of": "cfg", "protocol": 2, "class": "RopeScaling",
           "names": "none|linear|ntk|dynamic_ntk|yarn|llama3"}] + [
          {"name": "scaling." + m, "wire": "f64", "of": "cfg", "protocol": 2, "class": "RopeScaling"}
          for m in ("factor", "low", "high", "original_length", "length", "attention_factor")]
    v3 = [{"name": "rotary_offset", "wire": "i32", "of": "cfg", "protocol": 3},
          {"name": "n_freq_factors", "wire": "i32", "of": "cfg", "protocol": 3},
          {"name": "freq_factors", "wire": "f64", "of": "cfg", "protocol": 3, "count": 128,
           "length": "n_freq_factors"}]
    row = {"name": "rope", "request": 3, "bit": 1, "fields": v1 + v2 + v3,
           "buffers": [{"name": "cfg", "elem": "config", "role": "in", "shape": [], "class": "RopeConfig"},
                       {"name": "pos", "elem": "f64", "role": "in", "shape": ["n", "n_axes"], "positions": True},
                       {"name": "x", "elem": "dtype", "role": "inout", "shape": ["n", "head_dim"]}],
           "python": ["x", "pos", "cfg"]}

    class Rope:
        backend = "numpy"
        rope_caps = ("scaled", "mrope")
        seen = []

        def rope(self, x, pos, cfg):
            self.seen.append((cfg, pos.dtype))
            return x

    def make(kernel):
        return server.Server(kernel, "cpu", [server.Operation(json.loads(json.dumps(row)))])

    x = numpy.zeros((1, 4))
    head = struct.pack("<BBqii4idB", 3, 1, 1, 4, 1, 4, 0, 0, 0, 10000.0, 1)
    scaled = struct.pack("<Bi6d", 0, 5, 8, 1, 4, 8192, 0, 0)
    srv = make(Rope())
    hello = srv.hello(2)
    assert struct.unpack_from("<IBI", hello) == (2, 2, 4) and hello[9:13] == b"Rope"
    assert struct.unpack_from("<I", hello, len(hello) - 4) == (2 | 4,)
    srv.call(bytearray(head + scaled + struct.pack("<d", 7.0) + x.tobytes()))
    assert Rope.seen[-1][0] == RopeConfig(4, 1, (4,), 10000.0, "halves", False, RopeScaling("llama3", 8, 1, 4, 8192))
    with pytest.raises(server.ProtocolError, match="carries"):  # a version-2 body to a version-1 server
        hello1 = srv.hello(1)
        assert len(hello1) == 9 + 4 + 4, "no rope_caps in version 1"
        srv.call(bytearray(head + scaled + struct.pack("<d", 7.0) + x.tobytes()))
    srv.call(bytearray(head + struct.pack("<d", 7.0) + x.tobytes()))
    assert Rope.seen[-1][0] == RopeConfig(4, 1, (4,), 10000.0, "halves")
    monkeypatch.setenv("POSVERIFY_SERVER_PROTOCOL", "1")
    assert struct.unpack_from("<I", make(Rope()).hello(2)) == (1,)
    monkeypatch.setenv("POSVERIFY_SERVER_PROTOCOL", "7")
    with pytest.raises(ValueError, match="POSVERIFY_SERVER_PROTOCOL"):
        make(Rope())
    monkeypatch.setenv("POSVERIFY_SERVER_PROTOCOL", "2")
    assert struct.unpack_from("<I", make(Rope()).hello(3)) == (2,)
    monkeypatch.delenv("POSVERIFY_SERVER_PROTOCOL")
    # version 3: the rotary offset and the frequency factors, cut to n_freq_factors
    srv = make(Rope())
    assert struct.unpack_from("<I", srv.hello(3)) == (3,)
    v7 = struct.pack("<ii", 2, 1) + struct.pack("<128d", 0.5, *([0.0] * 127))
    srv.call(bytearray(head.replace(struct.pack("<4i", 4, 0, 0, 0), struct.pack("<4i", 2, 0, 0, 0)) + scaled + v7 +
                       struct.pack("<d", 7.0) + x.tobytes()))
    assert Rope.seen[-1][0] == RopeConfig(4, 1, (2,), 10000.0, "halves", False, RopeScaling("llama3", 8, 1, 4, 8192),
                                          2, 1, (0.5,))
    Rope.position_dtype = "int64"
    srv = make(Rope())
    srv.hello(2)
    srv.call(bytearray(head + scaled + struct.pack("<d", 7.0) + x.tobytes()))
    assert Rope.seen[-1][1] == numpy.int64
    with pytest.raises(NotImplementedError, match="not a whole number.*0.5"):
        srv.call(bytearray(head + scaled + struct.pack("<d", 0.5) + x.tobytes()))
    Rope.position_dtype = "int32"
    with pytest.raises(ValueError, match="position_dtype must be"):
        make(Rope())
    Rope.position_dtype = "float64"
    Rope.rope_caps = ("partial", "spiral")
    with pytest.raises(ValueError, match="'spiral'"):
        make(Rope())


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
