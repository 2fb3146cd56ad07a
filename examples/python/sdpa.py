"""PyTorch scaled-dot-product attention, served to posverify in float32 and bfloat16.

torch.nn.functional.scaled_dot_product_attention exists from PyTorch 2.0; on
older versions (Debian 12 ships 1.13) the example falls back to the
composition PyTorch's math backend computes: softmax(q k^T * d^-1/2) v in the
inputs' dtype.

    posverify check --impl python:sdpa:Sdpa --python-path examples/python

``SdpaAttend`` serves the same call to the attend laws (heads, GQA, causal and
windowed masks, padding, an explicit bias): a boolean ``attn_mask`` built
from the queries' positions, or a float one when the call brings its own bias
(SDPA adds a float mask to the scores), ``enable_gqa`` where the torch has it
(2.5), else K/V heads repeated. ``SdpaIsCausal`` passes ``is_causal=True`` instead of that mask,
which aligns the mask top-left: wrong as soon as the queries follow a KV cache
(pytorch#144858); posverify must catch it and name the alignment.
"""

import inspect
import math

import torch
import torch.nn.functional as F

import posverify


def math_sdpa(q, k, v):
    scores = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(q.shape[-1]))
    return torch.softmax(scores, dim=-1) @ v


sdpa = getattr(F, "scaled_dot_product_attention", None) or math_sdpa


class Sdpa(posverify.Kernel):
    name = "torch-sdpa"

    def attention(self, q, k, v):
        if q.dtype not in (torch.float32, torch.bfloat16):
            raise NotImplementedError("float32 and bfloat16 only")
        return sdpa(q[None], k[None], v[None])[0]


def _accepts(fn, name):
    try:
        return name in inspect.signature(fn).parameters
    except (TypeError, ValueError):  # a builtin without a signature
        return False


#: the real SDPA's keywords on this torch (none on the fallback)
_REAL = sdpa is not math_sdpa
_SCALE = _REAL and _accepts(sdpa, "scale")
_GQA = _REAL and _accepts(sdpa, "enable_gqa")


def masked_sdpa(q, k, v, mask, scale, is_causal=False):
    """q [1, h_q, n_q, d], k/v [1, h, n, d]: SDPA with a boolean mask (True:
    seen), a float one (added to the scores) or is_causal, on the real call
    when the torch has it."""
    n_rep = q.shape[1] // k.shape[1]
    if _REAL:
        kw = {"attn_mask": mask, "is_causal": is_causal}
        if n_rep > 1 and _GQA:
            kw["enable_gqa"] = True
        elif n_rep > 1:
            k, v = k.repeat_interleave(n_rep, dim=1), v.repeat_interleave(n_rep, dim=1)
        if _SCALE:
            return sdpa(q, k, v, scale=scale, **kw)
        return sdpa(q * (scale * math.sqrt(q.shape[-1])), k, v, **kw)
    if n_rep > 1:
        k, v = k.repeat_interleave(n_rep, dim=1), v.repeat_interleave(n_rep, dim=1)
    scores = (q @ k.transpose(-2, -1)) * scale
    if is_causal:  # what SDPA's is_causal means: query i sees keys 0..i
        mask = torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool).tril()
    if mask is not None and mask.dtype == torch.bool:
        scores = scores.masked_fill(~mask, float("-inf"))
    elif mask is not None:
        scores = scores + mask
    return torch.softmax(scores, dim=-1) @ v


class SdpaAttend(posverify.Kernel):
    name = "torch-sdpa-attend"
    attend_caps = ("causal", "window", "padding", "gqa", "bias")

    def mask(self, p, b, n):
        """[n_q, n] bool from the queries' positions q_start[b] + i, or None."""
        pos = p.q_start[b] + torch.arange(p.n_q)
        j = torch.arange(n)
        keep = torch.ones(p.n_q, n, dtype=torch.bool)
        if p.causal:
            keep &= j[None, :] <= pos[:, None]
        if p.window_left >= 0:
            keep &= j[None, :] >= pos[:, None] - p.window_left
        if p.window_right >= 0:
            keep &= j[None, :] <= pos[:, None] + p.window_right
        return keep, False

    def attend(self, q, k, v, p):
        if q.dtype not in (torch.float32, torch.float64, torch.bfloat16):
            raise NotImplementedError("float32, float64 and bfloat16 only")
        outs = []
        for b in range(p.batch):
            n = int(p.k_len[b])  # a varlen batch: the padded keys are not read
            mask, is_causal = self.mask(p, b, n)
            if p.bias is not None:  # a float mask: the bias where the flags let a key be seen, else -inf
                given = p.bias[b if p.bias_batch > 1 else 0][:, :n]
                mask = torch.where(mask, given, torch.full_like(given, float("-inf"))).to(q.dtype)
            o = masked_sdpa(q[b:b + 1].transpose(1, 2), k[b:b + 1, :n].transpose(1, 2),
                            v[b:b + 1, :n].transpose(1, 2), mask, p.softmax_scale, is_causal)
            outs.append(o[0].transpose(0, 1))
        return torch.stack(outs)


class SdpaIsCausal(SdpaAttend):
    """is_causal=True for a causal call without a window, whatever q_start."""

    def mask(self, p, b, n):
        if p.causal and p.window_left < 0 and p.window_right < 0 and p.bias is None:
            return None, True
        return super().mask(p, b, n)
