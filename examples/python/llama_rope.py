"""Llama-style RoPE as transformer libraries compute it, served to posverify.

Split halves (i, i + d/2) with ``rotate_half``, an inverse-frequency table
computed in float32, angles ``pos * inv_freq`` in float32, cos/sin cast to the
model's dtype, then ``x * cos + rotate_half(x) * sin`` in that dtype (the
structure of Hugging Face transformers' LlamaRotaryEmbedding and
apply_rotary_pos_emb, written here from that description).

    posverify check --impl python:llama_rope:LlamaRope --python-path examples/python \
        --rope-config halves:500000:128

The wrong siblings below are the classic mistakes; each must be caught.
"""

import torch

import posverify


def rotate_half(x):
    """(x1, x2) -> (-x2, x1) on the two halves of the last axis."""
    h = x.shape[-1] // 2
    return torch.cat((-x[..., h:], x[..., :h]), dim=-1)


class LlamaRope(posverify.Kernel):
    name = "llama-rope"

    def inv_freq(self, cfg):
        d = cfg.head_dim
        return 1.0 / (cfg.theta ** (torch.arange(0, d, 2, dtype=torch.int64).float() / d))

    def positions(self, pos):
        return pos[:, 0].float()

    def rotate(self, x):
        return rotate_half(x)

    def rope(self, x, pos, cfg):
        if cfg.n_axes != 1 or cfg.pairing != "halves":
            raise NotImplementedError("text RoPE with split halves only")
        if x.dtype == torch.float64:  # the float32 table and angles make it a float32 kernel
            raise NotImplementedError("float64: the tables are float32")
        freqs = torch.outer(self.positions(pos), self.inv_freq(cfg).to(x.device))
        emb = torch.cat((freqs, freqs), dim=-1)
        cos, sin = emb.cos().to(x.dtype), emb.sin().to(x.dtype)
        return x * cos + self.rotate(x) * sin


class LlamaRopeExponentOverD(LlamaRope):
    """Wrong: speeds theta^(-i/d) (exponent i/d instead of 2i/d)."""

    name = "llama-rope-exponent-i-over-d"

    def inv_freq(self, cfg):
        d = cfg.head_dim
        return 1.0 / (cfg.theta ** (torch.arange(0, d // 2, dtype=torch.int64).float() / d))


class LlamaRopeRotateHalfSign(LlamaRope):
    """Wrong: rotate_half returns (x2, -x1), the rotation turns backwards."""

    name = "llama-rope-rotate-half-sign"

    def rotate(self, x):
        return -rotate_half(x)


class LlamaRopePositionsBf16(LlamaRope):
    """Wrong: the position ids pass through bfloat16 (257 becomes 256)."""

    name = "llama-rope-positions-bf16"

    def positions(self, pos):
        return pos[:, 0].to(torch.bfloat16).float()
