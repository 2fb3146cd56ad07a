"""RoPE kernels that record what the server hands them, for the protocol
tests of tests/python/test_examples.py: each call appends one JSON line
(the configuration, the positions' dtype and shape) to the file named by
POSVERIFY_TEST_RECORD, then is declined, so that a law's line says whether
the call was decoded (declined: unsupported) or not (a malformed request is
an error: FAIL)."""

import dataclasses
import json
import os

import torch

import posverify
from llama_rope import LlamaRope


class PlainRecorder(posverify.Kernel):
    """Declares nothing beyond the default (partial rotary)."""

    name = "plain-recorder"
    backend = "numpy"

    def rope(self, x, pos, cfg):
        with open(os.environ["POSVERIFY_TEST_RECORD"], "a") as f:
            f.write(json.dumps({"cfg": dataclasses.asdict(cfg), "pos_dtype": str(pos.dtype),
                                "pos_shape": list(pos.shape)}) + "\n")
        raise NotImplementedError("recorded")


class FullRecorder(PlainRecorder):
    """Declares every RoPE configuration."""

    name = "full-recorder"
    rope_caps = ("partial", "mrope", "scaled")


class Version7Recorder(PlainRecorder):
    """Declares every RoPE configuration, those of protocol 3 too (a rotary
    offset, frequency factors)."""

    name = "version7-recorder"
    rope_caps = ("partial", "mrope", "scaled", "rotary_offset", "freq_factors")


class LlamaRopeInt64Positions(LlamaRope):
    """The correct Llama RoPE taking its positions as int64 (position_dtype)."""

    name = "llama-rope-int64-positions"
    position_dtype = "int64"

    def positions(self, pos):
        if pos.dtype != torch.int64:
            raise TypeError("positions arrived as %s, not int64" % pos.dtype)
        return pos[:, 0].float()
