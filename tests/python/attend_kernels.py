"""Kernels of the attend operation that the tests serve through the pipe
(protocol version 4, tests/python/test_examples.py): one in numpy (the
numpy backend's strided views and int64 members), and ones that misbehave in
the ways the server must turn into findings."""

import numpy as np

import posverify


class NumpyAttend(posverify.Kernel):
    """Every capability, zeros for an empty row, one head at a time in float64."""

    name = "numpy-attend"
    backend = "numpy"
    attend_caps = tuple(posverify.ATTEND_CAPS)
    attend_empty_rows = "zeros"

    def attend(self, q, k, v, p):
        assert isinstance(p.q_start, np.ndarray) and p.q_start.dtype == np.int64, p.q_start
        if p.cu_seqlens_q is not None:  # packed items: one sequence, each item alone
            assert q.shape == (1, p.n_q, p.h_q, p.d) and k.shape == (1, p.n_k, p.h_kv, p.d), q.shape
            out = np.zeros((1, p.n_q, p.h_q, p.d_v))
            lse = np.full((1, p.h_q, p.n_q), -np.inf)
            cq, ck = self.key_offsets(p)
            for b in range(p.batch):
                a, z = int(p.cu_seqlens_q[b]), int(p.cu_seqlens_q[b + 1])
                ka, kz = min(int(ck[b]), p.n_k), min(int(ck[b + 1]), p.n_k)
                out[0, a:z], lse[0, :, a:z] = self.item(q[0, a:z], k[0, ka:kz], v[0, ka:kz], p, b,
                                                        min(int(p.k_len[b]), kz - ka), None)
            out = out.astype(q.dtype)
            return (out, lse) if p.lse else out
        assert q.shape == (p.batch, p.n_q, p.h_q, p.d) and k.shape == (p.batch, p.n_k, p.h_kv, p.d)
        out = np.zeros((p.batch, p.n_q, p.h_q, p.d_v))
        lse = np.full((p.batch, p.h_q, p.n_q), -np.inf)
        for b in range(p.batch):
            bias = None if p.bias is None else p.bias[b if p.bias_batch > 1 else 0]
            out[b], lse[b] = self.item(q[b], k[b], v[b], p, b, int(p.k_len[b]), bias)
        out = out.astype(q.dtype)
        return (out, lse) if p.lse else out

    @staticmethod
    def key_offsets(p):
        """The offsets of the items' queries and keys (cu_seqlens_q, cu_seqlens_k)."""
        return p.cu_seqlens_q, p.cu_seqlens_k

    @staticmethod
    def item(q, k, v, p, b, n, bias):
        """Item b's rows: q [n_q, h_q, d], its first n keys of k, v, bias [n_q, >= n] or None;
        (out [n_q, h_q, d_v], lse [h_q, n_q])."""
        n_q = q.shape[0]
        out = np.zeros((n_q, p.h_q, p.d_v))
        lse = np.full((p.h_q, n_q), -np.inf)
        pos = p.q_start[b] + np.arange(n_q)[:, None]
        j = np.arange(n)[None, :]
        keep = np.ones((n_q, n), dtype=bool)
        if p.causal:
            keep &= j <= pos
        if p.window_left >= 0:
            keep &= j >= pos - p.window_left
        if p.window_right >= 0:
            keep &= j <= pos + p.window_right
        bias = np.zeros((n_q, n)) if bias is None else bias[:, :n]
        keep &= bias != -np.inf
        for h in range(p.h_q):
            g = h * p.h_kv // p.h_q
            s = q[:, h, :].astype(np.float64) @ k[:n, g, :].astype(np.float64).T * p.softmax_scale
            if p.softcap:
                s = p.softcap * np.tanh(s / p.softcap)
            if p.alibi is not None:
                s = s + p.alibi[h] * (j - pos)
            s = np.where(keep, s + np.where(keep, bias, 0.0), -np.inf)
            cols = [s] if p.sink is None else [s, np.full((n_q, 1), p.sink[h])]
            full = np.concatenate(cols, axis=1)
            m = full.max(axis=1, keepdims=True) if full.shape[1] else np.zeros((n_q, 1))
            m = np.where(np.isfinite(m), m, 0.0)
            e = np.exp(full - m)
            z = e.sum(axis=1, keepdims=True)
            w = (e / np.where(z > 0, z, 1.0))[:, :n]
            out[:, h, :] = w @ v[:n, g, :].astype(np.float64)
            with np.errstate(divide="ignore"):
                lse[h, :] = (np.log(z) + m)[:, 0]
        return out, lse


class VarlenKeysFromQueryOffsets(NumpyAttend):
    """Packed items whose keys are cut with the queries' offsets (cu_seqlens_q
    for both: vllm-project/vllm-omni PR 3525)."""

    @staticmethod
    def key_offsets(p):
        return p.cu_seqlens_q, p.cu_seqlens_q


class NoLse(NumpyAttend):
    """Declares the log-sum-exp and never returns it."""

    def attend(self, q, k, v, p):
        r = super().attend(q, k, v, p)
        return r[0] if p.lse else r


class WritesK(NumpyAttend):
    """Overwrites a key in place (an input it must not write)."""

    def attend(self, q, k, v, p):
        r = super().attend(q, k, v, p)
        k[0, 0, 0, 0] = 12345.0
        return r


class LseWrongShape(NumpyAttend):
    """Returns the log-sum-exp as [batch, n_q, h_q]."""

    def attend(self, q, k, v, p):
        r = super().attend(q, k, v, p)
        return (r[0], r[1].transpose(0, 2, 1)) if p.lse else r


class UnknownAttendCap(NumpyAttend):
    attend_caps = ("causal", "flash")


class WritesCuSeqlens(NumpyAttend):
    """Overwrites the packed items' query offsets (an input past the answer's
    8-bit written mask: the server names it in an error)."""

    def attend(self, q, k, v, p):
        r = super().attend(q, k, v, p)
        if p.cu_seqlens_q is not None:
            p.cu_seqlens_q[0] = 7
        return r
