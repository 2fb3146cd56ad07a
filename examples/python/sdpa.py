"""PyTorch scaled-dot-product attention, served to posverify in float32 and bfloat16.

torch.nn.functional.scaled_dot_product_attention exists from PyTorch 2.0; on
older versions (Debian 12 ships 1.13) the example falls back to the
composition PyTorch's math backend computes: softmax(q k^T * d^-1/2) v in the
inputs' dtype.

    posverify check --impl python:sdpa:Sdpa --python-path examples/python
"""

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
