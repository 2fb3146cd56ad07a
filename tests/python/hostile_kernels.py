"""Python kernels that misbehave, for tests/python/test_examples.py: each
misbehaviour must become a finding, never end the run or posverify."""

import ctypes
import sys
import time

import numpy as np

import posverify


def plain_attention(q, k, v):
    s = (q.astype(np.float64) @ k.astype(np.float64).T) / np.sqrt(q.shape[1])
    p = np.exp(s - s.max(axis=1, keepdims=True))
    return ((p / p.sum(axis=1, keepdims=True)) @ v.astype(np.float64)).astype(q.dtype)


class Plain(posverify.Kernel):
    name = "np-plain"
    backend = "numpy"

    def attention(self, q, k, v):
        if q.dtype == np.float16:
            raise NotImplementedError("no float16")
        return plain_attention(q, k, v)


class Raises(Plain):
    name = "np-raises"

    def attention(self, q, k, v):
        raise ValueError("boom from the kernel")


class WritesInput(Plain):
    name = "np-writes-input"

    def attention(self, q, k, v):
        out = plain_attention(q, k, v)
        q *= 2  # in place: the caller's q changes
        return out


class CrashesOnFloat32(Plain):
    """Segfaults on float32; float64 is right, and must still be checked."""

    name = "np-crashes-on-float32"

    def attention(self, q, k, v):
        if q.dtype == np.float32:
            ctypes.string_at(0)
        return super().attention(q, k, v)


class HangsOnFloat32(Plain):
    name = "np-hangs-on-float32"

    def attention(self, q, k, v):
        if q.dtype == np.float32:
            time.sleep(3600)
        return super().attention(q, k, v)


class ReturnsNaN(Plain):
    name = "np-nan"

    def attention(self, q, k, v):
        out = plain_attention(q, k, v)
        out[0, 0] = np.nan
        return out


class WrongDtype(Plain):
    name = "np-wrong-dtype"

    def attention(self, q, k, v):
        return plain_attention(q, k, v).astype(np.float64 if q.dtype == np.float32 else np.float32)


class PrintsEachCall(Plain):
    """Says on stderr which call of the server it is on, and raises on its
    third float64 call (the second case of the float64 law, after the probe
    of declines): that call's finding quotes its own line and no other,
    although the server receives the next call's request as soon as posverify
    has read an answer (docs/protocol.md, "Lifecycle")."""

    name = "np-prints-each-call"
    calls = 0
    float64_calls = 0

    def attention(self, q, k, v):
        PrintsEachCall.calls += 1
        PrintsEachCall.float64_calls += q.dtype == np.float64
        raises = PrintsEachCall.float64_calls == 3 and q.dtype == np.float64
        print("np-prints: call %d of the server%s" % (PrintsEachCall.calls, " raises" if raises else ""),
              file=sys.stderr, flush=True)
        if raises:
            raise ValueError("boom on a float64 call")
        return super().attention(q, k, v)


class DeclinesAll(Plain):
    name = "np-declines"

    def attention(self, q, k, v):
        raise NotImplementedError("nothing")




class UnknownRopeCap(Plain):
    """A declaration of a RoPE configuration that does not exist: a load error naming it."""

    name = "np-unknown-rope-cap"
    rope_caps = ("partial", "spiral")
