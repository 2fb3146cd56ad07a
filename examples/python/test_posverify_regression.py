"""The regression flow of a PyTorch repository: pytest runs posverify check on
the repository's RoPE against a committed baseline and fails on any
regression (docs/check.md, section 3; docs/python.md).

Copy this file into your tests, point KERNEL at your code, and create the
baseline once (and deliberately whenever the numbers are meant to change):

    posverify check --impl python:llama_rope:LlamaRope --python-path examples/python \
        --rope-config halves:500000:128 --cases 12 \
        --save-baseline examples/python/llama_rope_baseline.json --out /tmp/pv

posverify comes from POSVERIFY_BIN or the PATH.
"""

import os
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
POSVERIFY = os.environ.get("POSVERIFY_BIN", "posverify")
BASELINE = os.path.join(HERE, "llama_rope_baseline.json")


def posverify_check(kernel):
    """Exit code and output of `posverify check` of KERNEL against the baseline
    (which supplies the seed, the number of cases and the position range)."""
    out = tempfile.mkdtemp(prefix="posverify-")
    cmd = [POSVERIFY, "check", "--impl", "python:" + kernel, "--python-path", HERE,
           "--rope-config", "halves:500000:128", "--baseline", BASELINE, "--out", out]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=900)
    print(r.stdout)
    return r.returncode, r.stdout


def test_rope_has_not_regressed():
    rc, out = posverify_check("llama_rope:LlamaRope")
    assert rc == 0, out


def test_a_broken_rope_fails_the_build():
    # what the CI job sees when someone flips the sign of rotate_half
    rc, out = posverify_check("llama_rope:LlamaRopeRotateHalfSign")
    assert rc == 1
    assert "REGRESSION" in out
