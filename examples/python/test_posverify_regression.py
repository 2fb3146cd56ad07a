"""The regression flow of a PyTorch repository: pytest checks the repository's
RoPE with posverify against a committed baseline, one test per law, dtype and
configuration (docs/python.md, "pytest"; docs/check.md, section 3).

Copy this file into your tests and point the Check at your kernel. Run it
with the posverify plugin (installed with the package; in posverify's source
tree add ``-p posverify.pytest_plugin`` and ``PYTHONPATH=python``):

    pytest examples/python/test_posverify_regression.py
    pytest examples/python/test_posverify_regression.py -k "rope.reference and float32"
    pytest examples/python/test_posverify_regression.py -m bfloat16 --junitxml=posverify.xml

A broken RoPE fails the build: POSVERIFY_EXAMPLE_KERNEL=LlamaRopeRotateHalfSign
(rotate_half with the wrong sign, from llama_rope.py) runs the same tests on it;
rope.reference and rope.rows fail with the finding, the counterexample, the
command that replays the failing case, and the baseline's REGRESSION line.

Create the baseline once (and deliberately whenever the numbers are meant to
change); it supplies the seed, the number of cases and the position range:

    posverify check --impl python:llama_rope:LlamaRope --python-path examples/python \\
        --rope-config halves:500000:128 --cases 12 \\
        --save-baseline examples/python/llama_rope_baseline.json --out /tmp/pv

posverify comes from POSVERIFY_BIN or the PATH.
"""

import os

import llama_rope  # beside this file (pytest puts the test file's directory on sys.path)

import posverify

BASELINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "llama_rope_baseline.json")
KERNEL = getattr(llama_rope, os.environ.get("POSVERIFY_EXAMPLE_KERNEL", "LlamaRope"))

# a class: posverify's server imports it as llama_rope:LlamaRope, this directory on its --python-path
# cases=12 as in the baseline: like with like, so that its errors are compared too (with more cases,
# posverify compares the verdicts only)
posverify_checks = [posverify.Check(KERNEL, rope_config="halves:500000:128", cases=12, baseline=BASELINE)]
